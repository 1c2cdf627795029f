#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrcctl and the "mrc" generic netlink family: device listing per network
# namespace (run in it, or with -n), JSON output, lookups, clear errors, multi-part dumps,
# a plane's source prefixes (set, shown, cleared, refused), the congestion
# control profile (every knob round-trips, bad values refused with a reason),
# EV format profiles and exp and gen EV profiles (set, shown with their EV
# arrays, EVs denied by their bytes, refusals, teardown).
#
#   ns a: mrca on va  <-- veth -->  ns b: mrcb on vb
#
# MRC_QUICK=1: the dump lists 4 devices instead of 13 (each rdma link add
# takes 3 s on the KASAN kernel; both fit in one netlink message).
source "$(dirname "$0")/lib.sh"
require_root
# MRCCTL: another mrcctl (tests/pkg/check.sh: the packaged one)
MRCCTL=${MRCCTL:-$(cd "$(dirname "$0")/../../tools/mrcctl" && pwd)/mrcctl}
[ -x "$MRCCTL" ] || { echo "# build mrcctl first (make mrcctl)"; exit $KSFT_SKIP; }
modprobe -q ib_uverbs
modprobe -q veth
modprobe -q dummy

ktap_header 45
trap cleanup_ns EXIT
setup_ns a b
ip link add va netns "$a" type veth peer name vb netns "$b"
ip -n "$a" link set va up
ip -n "$b" link set vb up
modprobe mrc
netns "$a" rdma link add mrca type mrc netdev va
netns "$b" rdma link add mrcb type mrc netdev vb
A() { netns "$a" "$MRCCTL" "$@"; }
B() { netns "$b" "$MRCCTL" "$@"; }
export -f A B
export MRCCTL a b

check "dev show lists the namespace's device" \
	bash -c "A dev show | grep -q '^mrca: index [0-9]* netdev va state ACTIVE node_guid '"
check "dev show hides other namespaces' devices" bash -c "! A dev show | grep -q mrcb"
check "-n NS: that namespace's devices, as when run in it" \
	bash -c "[ \"\$(\$MRCCTL -n $a -j dev show)\" = \"\$(A -j dev show)\" ] &&
		\$MRCCTL -n $b dev show | grep -q '^mrcb: ' && ! \$MRCCTL -n $b dev show | grep -q mrca"
check "-j: valid JSON with dev, index, netdev, state" \
	bash -c "A -j dev show | jq -e 'length == 1 and .[0].dev == \"mrca\" and .[0].netdev == \"va\" and .[0].state == \"ACTIVE\"'"
check "-j -p: pretty JSON parses the same" \
	bash -c "[ \"\$(A -j -p dev show | jq -c .)\" = \"\$(A -j dev show | jq -c .)\" ]"
check "index matches rdma dev" \
	bash -c "[ \"\$(A -j dev show | jq .[0].index)\" = \"\$(rdma -j dev show mrca | jq .[0].ifindex)\" ]"
check "node_guid matches ibv_devices" \
	bash -c "[ \"\$(A -j dev show | jq -r .[0].node_guid | tr -d :)\" = \"\$(ibv_devices | awk '\$1 == \"mrca\" { print \$2 }')\" ]"
check "dev show DEV" bash -c "A dev show mrca | grep -q '^mrca: '"
check "dev set: the trimming DSCPs round-trip (defaults 46 and none)" \
	bash -c "A -j dev show mrca | jq -e '.[0].trim_dscp == 46 and .[0].trim_lasthop_dscp == \"none\"' &&
		A dev set mrca trim_dscp 40 trim_lasthop_dscp 41 &&
		A -j dev show mrca | jq -e '.[0].trim_dscp == 40 and .[0].trim_lasthop_dscp == 41' &&
		A dev set mrca trim_dscp 46 trim_lasthop_dscp none &&
		A dev show mrca | grep -q ' trim_dscp 46 trim_lasthop_dscp none qps '"
err=$(B dev show mrca 2>&1); rc=$?
check "dev show of another namespace's device: clear error, exit 1" \
	bash -c "[ $rc = 1 ] && [[ '$err' == *'no such mrc device in this network namespace'* ]]"
err=$(A dev show nosuch 2>&1); rc=$?
check "dev show of an unknown device: clear error, exit 1" \
	bash -c "[ $rc = 1 ] && [[ '$err' == *'Error: nosuch: no such mrc device'* ]]"
ip -n "$b" link set vb down
check "state follows the link" wait_for "$(tmo 10)" bash -c "A dev show mrca | grep -q 'state DOWN'"
check "usage error: exit 2 and a hint" \
	bash -c "A dev frobnicate 2>&1 | grep -q 'Try \"mrcctl help\"'; [ \${PIPESTATUS[0]} = 2 ]"

# -- a plane's source prefixes: set, read back, cleared; refusals say why
check "plane set allow: IPv6, IPv4 and one address read back" \
	bash -c "A plane set dev mrca id 0 allow 2001:db8:1::/48,10.1.0.0/16,fd00::2 &&
		A -j plane show dev mrca | jq -e '.[0].allow ==
			[\"2001:db8:1::/48\", \"10.1.0.0/16\", \"fd00::2/128\"]'"
check "plane set allow any: none left" \
	bash -c "A plane set dev mrca id 0 allow any &&
		A -j plane show dev mrca | jq -e '.[0].allow == null'"
err=$(A plane set dev mrca id 0 allow 2001:db8::1/48 2>&1); rc=$?
check "plane set: a prefix with bits past its length refused, the kernel says why" \
	bash -c "[ $rc = 1 ] && [[ '$err' == *'has bits set past /48'* ]]"
err=$(A plane set dev mrca id 7 allow any 2>&1); rc=$?
check "plane set of a missing plane: refused, the kernel says why" \
	bash -c "[ $rc = 1 ] && [[ '$err' == *'no such plane'* ]]"

# -- the congestion control profile: on by default, every knob round-trips,
# bad values are refused with the kernel's reason and change nothing
err=$(A cc show dev mrca qpn 1 2>&1); rc=$?
check "cc show qpn of a QP that is not RC (QP1, the GSI's): clear error, exit 1" \
	bash -c "[ $rc = 1 ] && [[ '$err' == *'no such RC QP'* ]]"
check "cc show: algo nscc by default, every NSCC knob shown" \
	bash -c "A -j cc show dev mrca | jq -e '.[0].algo == \"nscc\" and
		([.[0] | .base_rtt, .target_delay, .max_cwnd, .eta, .fi, .fi_scale, .gamma,
		.max_md_jump, .qa_gate, .qa_threshold, .adjust_bytes_threshold,
		.adjust_period_threshold, .disable_qa, .decreases] | all(type == \"number\"))'"
# each knob alone, to a value the rest of the profile allows
CC_SET=(algo:none base_rtt:200000 target_delay:150000 max_cwnd:1000000 eta:1000 fi:5000
	fi_scale:70000 gamma:40000 max_md_jump:30000 qa_gate:4 qa_threshold:800000
	adjust_bytes_threshold:16384 adjust_period_threshold:150000 disable_qa:1 algo:nscc)
cc_roundtrip() {
	local kv k v
	for kv in "${CC_SET[@]}"; do
		k=${kv%%:*} v=${kv#*:}
		A cc set dev mrca "$k" "$v" || return 1
		A -j cc show dev mrca | jq -e --arg k "$k" --arg v "$v" '.[0][$k] | tostring == $v' \
			>/dev/null || { echo "$k: set $v, shown $(A -j cc show dev mrca | jq -c ".[0].$k")"; return 1; }
	done
}
check "cc set: each of the 13 knobs and algo round-trips" cc_roundtrip
CC_SAVED=$(mktemp)
A -j cc show dev mrca >"$CC_SAVED"
# cc_refused REASON ARGS...: cc set ARGS fails with exit 1 and REASON, the
# profile unchanged
cc_refused() {
	local want=$1 err rc
	shift
	err=$(A cc set dev mrca "$@" 2>&1); rc=$?
	[ "$rc" = 1 ] && [[ $err == *"$want"* ]] ||
		{ echo "exit $rc: $err"; return 1; }
	[ "$(A -j cc show dev mrca | jq -c 'map(del(.decreases, .quick_adapts, .timeouts))')" = \
		"$(jq -c 'map(del(.decreases, .quick_adapts, .timeouts))' "$CC_SAVED")" ]
}
check "cc set: qa_threshold below target_delay refused, the kernel says why" \
	cc_refused "qa_threshold below target_delay" qa_threshold 1000
cc_refusals() {
	cc_refused 'gamma not in (0, 1]' gamma 0 &&
		cc_refused 'max_md_jump not in (0, 1/2]' max_md_jump 40000 &&
		cc_refused 'base_rtt is 0' base_rtt 0 && cc_refused 'qa_gate above 31' qa_gate 32
}
check "cc set: gamma 0, max_md_jump above 1/2, base_rtt 0, qa_gate 32 refused with their reasons" \
	cc_refusals
check "cc set: bad words are usage errors (exit 2), nothing sent" \
	bash -c "A cc set dev mrca algo reno 2>&1 | grep -q 'invalid algo'; [ \${PIPESTATUS[0]} = 2 ] &&
		A cc set dev mrca window 5 2>&1 | grep -q 'Try'; [ \${PIPESTATUS[0]} = 2 ] &&
		A cc set dev mrca gamma lots 2>&1 | grep -q 'invalid gamma'; [ \${PIPESTATUS[0]} = 2 ] &&
		A cc set dev mrca 2>&1 | grep -q 'nothing to set'; [ \${PIPESTATUS[0]} = 2 ]"
rm -f "$CC_SAVED"

# -- EV format profiles and an exp EV profile (the OCP MRC API's): a format
# round-trips; an exp profile of two EVs filled by replacements goes online;
# its EV array is shown; its EVs are denied and allowed by their bytes; a
# failed replacement changes nothing; a format in use stays; all torn down.
# No QP is bound: what is checked is the kernel's word on the profiles.
# fmt_is ID JSON: ev fmt show of format ID is exactly JSON
fmt_is() {
	A -j ev fmt show dev mrca id "$1" | jq -e --argjson want "$2" '. == [$want]' >/dev/null ||
		{ echo "fmt $1: $(A -j ev fmt show dev mrca id "$1" 2>&1)"; return 1; }
}
# entries_are ID JQ: profile ID's EV array (jq array of [ev_bytes, port,
# state], ev_bytes without zero bytes at the end) equals JQ
entries_are() {
	local got
	got=$(A -j ev profile show dev mrca id "$1" entries |
		jq -c '[.[0].entries[] | [(.ev_bytes | sub("(00)+$"; "")), .port, .state]]') || return 1
	[ "$got" = "$(jq -nc "$2")" ] || { echo "profile $1 entries: $got, want $(jq -nc "$2")"; return 1; }
}
# ev_refused WANT ARGS...: mrcctl ARGS exits 1 and says WANT (the kernel's
# extack, or its strerror)
ev_refused() {
	local want=$1 err rc
	shift
	err=$(A "$@" 2>&1); rc=$?
	[ "$rc" = 1 ] && [[ $err == *"$want"* ]] || { echo "exit $rc: $err"; return 1; }
}
fmt_roundtrip() {
	A ev fmt set dev mrca id 3 state offline mode stev &&
		fmt_is 3 '{"dev":"mrca","id":3,"state":"offline","users":0,"mode":"stev"}' &&
		A ev fmt set dev mrca id 3 widths 16,16 &&
		A ev fmt set dev mrca id 3 state online &&
		fmt_is 3 '{"dev":"mrca","id":3,"state":"online","users":0,"mode":"stev","widths":[16,16]}' &&
		A ev fmt show dev mrca | grep -qx 'mrca fmt 3 online users 0 mode stev widths 16,16'
}
check "ev fmt set: offline stev, widths 16,16, online; ev fmt show reads them back" fmt_roundtrip
fmt_refusals() {
	ev_refused "No such file or directory" ev fmt show dev mrca id 4 &&
		A ev fmt set dev mrca id 4 state offline mode stev &&
		ev_refused "Invalid argument" ev fmt set dev mrca id 4 widths 20,20 state online &&
		ev_refused "Invalid argument" ev fmt set dev mrca id 4 mode udp widths 8,9 state online &&
		A -j ev fmt show dev mrca id 4 | jq -e '.[0].state == "offline"' &&
		A ev fmt set dev mrca id 4 state init && ! A ev fmt show dev mrca id 4 2>/dev/null
}
check "ev fmt set: a format in init is ENOENT; stev wider than 32 bits, udp than 16, refused online" \
	fmt_refusals
exp_offline() {
	A ev profile set dev mrca id 5 state offline mode exp count 2 fmt 3 &&
		A -j ev profile show dev mrca id 5 | jq -e '.[0] | .state == "offline" and .mode == "exp" and
			.count == 2 and .fmt == 3' &&
		entries_are 5 '[["",0,"GOOD"],["",0,"GOOD"]]' &&
		A ev profile show dev mrca id 5 entries | grep -qx '    entry 1 ev - port 0 state GOOD' &&
		A -j ev fmt show dev mrca id 3 | jq -e '.[0].users == 1'
}
check "ev profile set exp: offline with count 2 and fmt 3, two unpopulated places; the format has a user" \
	exp_offline
exp_fill() {
	A ev profile set dev mrca id 5 replace - c0011234@1 replace - c0025678@1 &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"GOOD"]]' &&
		A ev profile show dev mrca id 5 entries | grep -qx '    entry 0 ev c0011234 port 1 state GOOD' &&
		A -j ev profile show dev mrca id 5 entries |
			jq -e '.[0].entries[1] == {entry: 1, ev_bytes: "c002567800000000000000000000000000000000000000000000000000000000",
				port: 1, state: "GOOD"}'
}
check "ev profile set replace: two EVs in the unpopulated places, ev profile show entries reads them" exp_fill
exp_online() {
	A ev profile set dev mrca id 5 state online min_active 1 events assumed_bad &&
		A -j ev profile show dev mrca id 5 | jq -e '.[0] | .state == "online" and .min_active == 1 and
			.events == "assumed_bad" and .qps == 0' &&
		ev_refused "" ev profile set dev mrca id 5 replace c0011234@1 c0019999@1 &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"GOOD"]]'
}
check "ev profile set exp: online with its two EVs; online, replacements refused" exp_online
fmt_busy() {
	ev_refused "Device or resource busy" ev fmt set dev mrca id 3 state offline &&
		A -j ev fmt show dev mrca id 3 | jq -e '.[0].state == "online"'
}
check "ev fmt set: a format an online exp profile uses cannot go offline (EBUSY)" fmt_busy
exp_deny() {
	A ev set dev mrca profile 5 ev c0025678 plane 0 state denied &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"DENIED"]]' &&
		A ev profile show dev mrca id 5 entries | grep -qx '    entry 1 ev c0025678 port 1 state DENIED' &&
		A ev set dev mrca profile 5 ev c0025678 plane 0 state good &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"GOOD"]]' &&
		ev_refused "No such file or directory" ev set dev mrca profile 5 ev c0025679 plane 0 state denied &&
		ev_refused "" ev set dev mrca profile 5 ev c0025678 plane 1 state denied &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"GOOD"]]' &&
		[ "$(A -j ev show dev mrca profile 5 ev c0011234 plane 0)" = "[]" ]
}
check "ev set profile ev: an EV denied and allowed again by its bytes and plane; others ENOENT" exp_deny
exp_atomic() {
	A ev profile set dev mrca id 5 state offline &&
		ev_refused "replacement" ev profile set dev mrca id 5 replace c0011234@1 aa@1 replace ffff@1 bb@1 &&
		entries_are 5 '[["c0011234",1,"GOOD"],["c0025678",1,"GOOD"]]' &&
		A ev profile set dev mrca id 5 replace c0011234@1 c0035678@1 denied &&
		entries_are 5 '[["c0035678",1,"DENIED"],["c0025678",1,"GOOD"]]'
}
check "ev profile set replace: a failed second replacement leaves the first undone; denied replaces" \
	exp_atomic
gen_online() {
	A ev profile set dev mrca id 6 state offline mode gen count 8 fmt 3 \
		field 16:0xc000:1:3:0x3 field 16:0x1234:0:0:0 &&
		A -j ev profile show dev mrca id 6 | jq -e '.[0].fields == [{width: 16, init: 49152, min: 1,
			max: 3, mask: "0x3"}, {width: 16, init: 4660, min: 0, max: 0, mask: "0x0"}]' &&
		A ev profile set dev mrca id 6 state online min_active 1 events good &&
		A -j ev profile show dev mrca id 6 entries | jq -e '.[0] | .count == 3 and (.entries | length == 3) and
			([.entries[].port] | unique == [1]) and ([.entries[].ev_bytes] | unique | length == 3)'
}
check "ev profile set gen: fields read back; online, 3 combinations on 1 plane: count 3, 3 EVs on port 1" \
	gen_online
ev_teardown() {
	A ev profile set dev mrca id 6 state offline && A ev profile set dev mrca id 6 state init &&
		A ev fmt set dev mrca id 3 state offline &&
		ev_refused "Device or resource busy" ev fmt set dev mrca id 3 state init &&
		A ev profile set dev mrca id 5 state init &&
		A -j ev fmt show dev mrca id 3 | jq -e '.[0].users == 0' &&
		A ev fmt set dev mrca id 3 state init &&
		! A ev fmt show dev mrca id 3 2>/dev/null && ! A ev profile show dev mrca id 5 2>/dev/null &&
		A -j ev fmt show dev mrca | jq -e 'map(select(.id == 3)) == []' &&
		A -j ev profile show dev mrca | jq -e 'map(select(.id == 5 or .id == 6)) == []'
}
check "teardown: an offline format an EV profile names stays (EBUSY); profiles, then the format, to init" \
	ev_teardown

# -- privileges: any user may look; changes and a QP's EVs need
# CAP_NET_ADMIN in the user namespace owning the device's namespace
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
check "a user without CAP_NET_ADMIN: dev show works" \
	bash -c "netns $a ${NOBODY[*]} \$MRCCTL dev show | grep -q '^mrca: '"
# refused RC ERR: exit 1, the kernel's reason in the message
refused() { [ "$1" = 1 ] && [[ $2 == *"needs CAP_NET_ADMIN in the device's network namespace"* ]]; }
# shellcheck disable=SC2086 # $req: the request's words
for req in "dev set mrca evs 4" "ev show dev mrca qpn 1" "plane del dev mrca id 1" \
	"plane set dev mrca id 0 allow any" "cc set dev mrca algo nscc" \
	"cc show dev mrca qpn 1" "ev fmt set dev mrca id 9 state offline mode stev"; do
	err=$(netns "$a" "${NOBODY[@]}" "$MRCCTL" $req 2>&1); rc=$?
	check "a user without CAP_NET_ADMIN: $req refused, the kernel says why" \
		refused "$rc" "$err"
done
# a container: a user namespace (root mapped to root) owning a network
# namespace, whose device the host's root made; its root configures it
container_up
ip link add vc type veth peer name vd
ip link set vc netns "$CPID"
nsenter -t "$CPID" -n ip link set vc up
nsenter -t "$CPID" -n rdma link add mrcc type mrc netdev vc
C() { nsenter -t "$CPID" -U -n "$MRCCTL" "$@"; }
export -f C
export CPID
check "a container's root (CAP_NET_ADMIN in its own user namespace) configures its device" \
	bash -c "C dev set mrcc evs 4 && C -j dev show mrcc | jq -e '.[0].evs == 4'"
check "... and sees no other namespace's device" bash -c "! C dev show | grep -q mrca"
nsenter -t "$CPID" -n rdma link del mrcc
kill "$CPID"
wait "$CPID" 2>/dev/null
ip link del vd 2>/dev/null

NDEV=$(by_mode 13 4)
for i in $(seq $((NDEV - 1))); do
	ip -n "$a" link add "d$i" type dummy
	netns "$a" rdma link add "mrcd$i" type mrc netdev "d$i"
done
check "dump of $NDEV devices is complete and ordered" \
	bash -c "[ \"\$(A -j dev show | jq 'length')\" = $NDEV ] &&
		A -j dev show | jq -e '[.[].index] == ([.[].index] | sort)'"
rmmod mrc
err=$(A dev show 2>&1)
check "module not loaded: says so" bash -c "[[ '$err' == *'the mrc module is not loaded'* ]]"
ktap_finish
