#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boot configuration of mrc.service, without systemd (the VM has none):
# the unit's ExecStart, read from tools/systemd/mrc.service and run word for
# word as the unit has it, applies /etc/mrc/mrc.conf: a 2-plane device,
# created with the mrc module not loaded, and the path sets of a fabric
# file. The device, its planes and path sets are then as configured
# (mrcctl -j, against fabric show); a second run succeeds, says every path
# was there, and changes nothing. Files that conflict with what is there
# (a plane under another number, a netdev that is another device's plane,
# a path with another remote), name a missing netdev, or are broken (an
# unknown keyword) fail with a message naming the file's line and change
# nothing; the lines after a failed one do not run. A file that brings
# profiles online (cc, EV format, exp and gen EV profiles) runs twice, and
# a line asking an online profile for another setting fails, naming both. mrc-generator makes the
# unit wait for the file's two netdevs; mrcctl dev del removes the device.
#
# The test runs in a mount namespace of its own, where /usr/sbin is an
# overlay holding this tree's mrcctl (the host's root is read-only in the
# VM), and the device's netdevs in a network namespace:
#
#   ns: mrcboot on b0 (plane 0) and b1 (plane 1)   b0, b1 <-> veth peers
#
# MRC_BOOT_UNIT=FILE and MRC_BOOT_GENERATOR=FILE test an installed unit and
# generator instead of the tree's (tests/pkg/check.sh: the mrc-utils
# package's): the unit's command then runs as installed, no overlay, and
# its mrcctl also reads the state back.
#
# MRC_QUICK=1 changes nothing: the suite is small (each apply is a few
# mrcctl processes).
source "$(dirname "$0")/lib.sh"
require_root
REPO=$(cd "$(dirname "$0")/../.." && pwd)
UNIT=${MRC_BOOT_UNIT:-$REPO/tools/systemd/mrc.service}
GENERATOR=${MRC_BOOT_GENERATOR:-$REPO/tools/systemd/mrc-generator}
if [ -n "${MRC_BOOT_UNIT:-}" ]; then
	MRCCTL=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$UNIT" | head -1)
	[ -x "$MRCCTL" ] || { echo "# $UNIT: no ExecStart, or its '$MRCCTL' is not there"; exit $KSFT_FAIL; }
else
	MRCCTL=$REPO/tools/mrcctl/mrcctl
	[ -x "$MRCCTL" ] || { echo "# build mrcctl first (make mrcctl)"; exit $KSFT_SKIP; }
fi
if [ -z "${MRC_BOOT_MOUNTNS:-}" ]; then
	MRC_BOOT_MOUNTNS=1 exec unshare --mount --propagation private "$0" "$@"
fi

ktap_header 26
TMP=$(mktemp -d)
cleanup() {
	cleanup_ns
	rm -rf /etc/mrc "$TMP"
}
trap cleanup EXIT
DEV=mrcboot
CONF=/etc/mrc/mrc.conf

# the unit's command line: plain words, nothing systemd would expand
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
check "the unit's ExecStart is one plain command line" \
	bash -c "[ \$(grep -c '^ExecStart=' '$UNIT') = 1 ] &&
		[[ '$exec_start' =~ ^/[A-Za-z0-9/._\ -]+$ ]]"
read -ra unit_cmd <<<"$exec_start"
ktap_info "ExecStart: ${unit_cmd[*]}"

# /usr/sbin with this tree's mrcctl, seen only in this mount namespace
if [ -z "${MRC_BOOT_UNIT:-}" ]; then
	mkdir -p "$TMP/sbin/u" "$TMP/sbin/w"
	cp "$MRCCTL" "$TMP/sbin/u/mrcctl"
	mount -t overlay overlay -o "lowerdir=/usr/sbin,upperdir=$TMP/sbin/u,workdir=$TMP/sbin/w" /usr/sbin ||
		{ ktap_info "cannot overlay /usr/sbin"; exit $KSFT_FAIL; }
fi

modprobe -q veth
setup_ns bns
for i in 0 1; do
	ip -n "$bns" link add "b$i" type veth peer name "b${i}p"
	ip -n "$bns" link set "b$i" up
	ip -n "$bns" link set "b${i}p" up
done
M() { netns "$bns" "$MRCCTL" "$@"; }
# jqm FILTER ARGS...: mrcctl -j ARGS succeeds in the namespace and FILTER
# holds of what it prints (jq -e alone passes on empty input)
jqm() {
	local f=$1 out
	shift
	out=$(M -j "$@") && [ -n "$out" ] && jq -e "$f" <<<"$out" >/dev/null
}
# unit: the unit's ExecStart in the namespace of the netdevs, its output in
# $TMP/out and $TMP/err, its status in rc
unit() { netns "$bns" "${unit_cmd[@]}" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?; }
export -f M jqm netns
export MRCCTL bns TMP

mkdir -p /etc/mrc
cat >/etc/mrc/fabric.conf <<'EOF'
# 2 planes, 2 leaves and 2 spines a plane; this host is a
block fc00:0::/32
planes 2
t0 0 1000 1001
t0 1 1100 1101
t1 0 2000 2001
t1 1 2100 2101
host a node fd00::a t0 0 usid e00a
host b node fd00::b t0 1 usid e00b plane 0 addr 2001:db8:0:b::1
host c node fd00::c t0 1 usid e00c
EOF
good_conf() {
	cat >"$CONF" <<EOF
# mrc_boot.sh: $DEV on two planes, the path sets of the fabric
dev add $DEV netdev b0
plane add dev $DEV netdev b1
dev set $DEV evs 64
fabric load /etc/mrc/fabric.conf dev $DEV host a
EOF
}
good_conf
# the configured state, without counters
state() {
	local d p q
	d=$(M -j dev show "$DEV") && p=$(M -j plane show dev "$DEV") &&
		q=$(M -j path show dev "$DEV") || return 1
	jq -c '[.[] | {dev, netdev, planes, evs}]' <<<"$d" &&
	jq -c '[.[] | {dev, plane, netdev, admin}]' <<<"$p" &&
	jq -c '[.[] | {peer, plane, mode, usid, remote, path}]' <<<"$q"
}
export -f state
export DEV

# the module comes with the first dev add (left loaded by another suite, it
# goes once its devices' namespaces are gone)
wait_for "$(tmo 60)" modprobe -r mrc
check "mrc.ko is not loaded before the first run" bash -c "! grep -q '^mrc ' /proc/modules"

unit
check "first run: succeeds" bash -c "[ $rc = 0 ] || { cat '$TMP/err'; false; }"
check "first run: every path added" grep -qx "loaded 8 paths to 2 peers (0 there already)" "$TMP/out"
check "dev add loaded mrc.ko" grep -q '^mrc ' /proc/modules
check "dev show: $DEV on b0, 2 planes, evs 64 (dev set)" \
	jqm '.[0] | .netdev == "b0" and .planes == 2 and .evs == 64' dev show "$DEV"
check "plane show: plane 0 b0, plane 1 b1, both UP" \
	jqm 'length == 2 and (map({plane, netdev, state}) | sort_by(.plane)) ==
		[{plane: 0, netdev: "b0", state: "UP"}, {plane: 1, netdev: "b1", state: "UP"}]' \
	plane show dev "$DEV"
# the path sets fabric load computes, and those the kernel has
M -j fabric show /etc/mrc/fabric.conf host a |
	jq -S '[.[] | {peer, plane, usid, remote}] | sort_by(.peer, .plane, .usid)' >"$TMP/want"
check "path show: the fabric's 8 paths to 2 peers, remotes and all" \
	bash -c "set -o pipefail; jq -e 'length == 8' '$TMP/want' && M -j path show dev $DEV |
		jq -S '[.[] | {peer, plane, usid, remote}] | sort_by(.peer, .plane, .usid)' |
		diff -u '$TMP/want' -"
state >"$TMP/state1" || ktap_info "cannot read the state after the first run"

unit
check "second run: succeeds" bash -c "[ $rc = 0 ] || { cat '$TMP/err'; false; }"
check "second run: every path there already" \
	grep -qx "loaded 8 paths to 2 peers (8 there already)" "$TMP/out"
same_state() { [ -s "$TMP/state1" ] && state >"$TMP/state" && diff -u "$TMP/state1" "$TMP/state"; }
export -f same_state
check "second run: the same device, planes and paths" same_state

# profiles: a file that brings a cc profile, an EV format, an exp EV profile
# (its EVs by replacement) and a gen one online runs twice; the second run
# finds them online as its lines ask, and sends nothing the kernel refuses
good_conf
cat >>"$CONF" <<EOF
cc profile set dev $DEV id 3 state offline algo nscc max_cwnd 262144 fi 16384 eta 4096
cc profile set dev $DEV id 3 state online
ev fmt set dev $DEV id 4 state offline mode stev widths 16,16
ev fmt set dev $DEV id 4 state online
ev profile set dev $DEV id 5 state offline mode exp count 4 fmt 4
ev profile set dev $DEV id 5 replace - c0000001@1 replace - c0000002@2
ev profile set dev $DEV id 5 replace - c0000003@1 replace - c0000004@2 denied replace c0000003@1 c0000005@1
ev profile set dev $DEV id 5 state online min_active 1 events good,assumed_bad
ev profile set dev $DEV id 6 state offline mode gen count 20 fmt 4 field 16:0xc000:0:7:0x7 field 16:0:0:0:0
ev profile set dev $DEV id 6 state online min_active 1 events assumed_bad
EOF
# the profiles as mrcctl -j shows them, one JSON array each
profiles() {
	M -j cc profile show dev "$DEV" id 3 && M -j ev fmt show dev "$DEV" id 4 &&
		M -j ev profile show dev "$DEV" id 5 entries &&
		M -j ev profile show dev "$DEV" id 6 entries
}
export -f profiles
unit
check "profiles: first run succeeds" bash -c "[ $rc = 0 ] || { cat '$TMP/err'; false; }"
# gen 6: 8 combinations on each of the 2 planes, fewer than the 20 asked
check "profiles: online as the file has them, exp 5's EVs replaced in order" \
	bash -c "profiles >'$TMP/prof1' && jq -se '
		(.[0][0] | .state == \"online\" and .algo == \"nscc\" and .max_cwnd == 262144) and
		(.[1][0] | .state == \"online\" and .widths == [16, 16]) and
		(.[2][0] | .state == \"online\" and .count == 4 and
			[.entries[] | [.ev_bytes[0:8], .port, .state]] ==
			[[\"c0000001\", 1, \"GOOD\"], [\"c0000002\", 2, \"GOOD\"],
			 [\"c0000005\", 1, \"GOOD\"], [\"c0000004\", 2, \"DENIED\"]]) and
		(.[3][0] | .state == \"online\" and .count == 16)' '$TMP/prof1' >/dev/null"
unit
check "profiles: second run succeeds" bash -c "[ $rc = 0 ] || { cat '$TMP/err'; false; }"
check "profiles: the same after it" bash -c "profiles | diff -u '$TMP/prof1' -"
printf 'cc profile set dev %s id 3 max_cwnd 131072\n' "$DEV" >>"$CONF"
unit
check "profiles: a line with another setting: fails at its line, naming both values" \
	bash -c "[ $rc = 1 ] && grep -qx 'mrcctl: $CONF:16: Error: $DEV: cc profile 3 is online with max_cwnd 262144, the line wants 131072; take it offline first' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
check "profiles: ... and changes nothing" bash -c "profiles | diff -u '$TMP/prof1' -"

# conflicts: each file fails at its line and changes nothing
cat >"$CONF" <<EOF
dev add $DEV netdev b0
# b1 is plane 1
plane add dev $DEV netdev b1 id 2
dev set $DEV evs 32
EOF
unit
check "a plane under another number: fails at its line, saying what is there" \
	bash -c "[ $rc = 1 ] && grep -qx 'mrcctl: $CONF:3: Error: plane add dev $DEV netdev b1 id 2: b1 is plane 1 of $DEV' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
check "... and the lines after it did not run" \
	bash -c "grep -qx 'mrcctl: $CONF: stopped at line 3; -force runs every line' '$TMP/err' &&
		jqm '.[0].evs == 64' dev show $DEV"
printf 'dev add mrcboot2 netdev b1\n' >"$CONF"
unit
check "dev add on another device's plane: fails, naming it" \
	bash -c "[ $rc = 1 ] && grep -qx 'mrcctl: $CONF:1: Error: dev add mrcboot2 netdev b1: b1 is plane 1 of $DEV' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
# host c gains a plane-1 address: its plane-1 paths are there without one
sed 's/^host c .*/& plane 1 addr 2001:db8:1:c::1/' /etc/mrc/fabric.conf >/etc/mrc/fabric2.conf
printf 'fabric load /etc/mrc/fabric2.conf dev %s host a\n' "$DEV" >"$CONF"
unit
check "a path there with another remote: fails, saying so" \
	bash -c "[ $rc = 1 ] && grep -q '^mrcctl: $CONF:1: Error: \"path add dev $DEV peer fd00::c plane 1 usid .* remote 2001:db8:1:c::1\": the peer has this path (path [0-9]*) without a remote$' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
printf 'dev add %s netdev b0\nplane add dev %s netdev b9\n' "$DEV" "$DEV" >"$CONF"
unit
check "a netdev that does not exist: fails at its line, naming it" \
	bash -c "[ $rc = 1 ] && grep -qx 'mrcctl: $CONF:2: Error: no such netdev \"b9\"' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
good_conf
sed -i 's/^dev set .*/dev set mrcboot evz 32/' "$CONF"
printf 'dev set %s evs 32\n' "$DEV" >>"$CONF"
unit
check "a broken file: exit 2, the message names the line" \
	bash -c "[ $rc = 2 ] && grep -qx 'mrcctl: $CONF:4: dev set: unknown argument \"evz\"' '$TMP/err' ||
		{ cat '$TMP/err'; false; }"
check "after every failed run: the same device, planes and paths" same_state

# what the generator makes the unit wait for
good_conf
MRC_CONF=$CONF "$GENERATOR" "$TMP/gen"
check "mrc-generator: the unit waits for b0 and b1" \
	bash -c "[ \"\$(grep -E '^(Wants|After)=' '$TMP/gen/mrc.service.d/50-netdevs.conf' | sort | paste -sd' ')\" = \
		'After=sys-subsystem-net-devices-b0.device After=sys-subsystem-net-devices-b1.device Wants=sys-subsystem-net-devices-b0.device Wants=sys-subsystem-net-devices-b1.device' ]"

check "dev del: the device is gone" \
	bash -c "M dev del $DEV && netns '$bns' rdma dev show >'$TMP/rdma' &&
		! grep -q $DEV '$TMP/rdma' && ! M dev show $DEV 2>/dev/null"
ktap_finish
