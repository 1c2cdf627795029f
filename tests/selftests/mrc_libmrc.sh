#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libmrc (tools/lib/mrc), the OCP MRC API on mrc:
#  - mrc_api_test, the library's C suite: every function of mrc.h and
#    mrc_ctl.h, misuse included, on one mrc device (loopback QPs) and an
#    rxe device as the device that is not MRC; in the initial namespace,
#    as rxe in 6.12 lives there only; a dummy second plane for port 2's
#    admin state
#  - on the lab fabric (topo_fabric: 4 planes, SRv6 paths): mrc_write_bw,
#    the library's WRITE bandwidth sweep, h1 -> h2, the server checking
#    every byte of every size; every plane carried packets
#  - a CC profile set up by h1's controller (mrcctl cc profile), a sweep
#    whose QP is bound to it, the profile unused after; a QP bound to a
#    profile that is not online fails at INIT
#  - mrc_ev_probe, the EV probe example: h1 probes h2's address on each
#    plane out of that plane's port, answered there with an RTT; and h2's
#    node address on each uSID path (SRV6 EVs: the path's container)
#  - mrc_ev_profile, the EV profile example: h1's controller sets up an
#    SRV6 format and an EXP EV profile whose EVs are h1's uSID containers
#    to h2, each on its plane's port; a sweep whose QP is bound to it
#    moves every byte over those paths; then both are taken down
#  - mrc_ev_events, the EV event example, under a fault: a T1 switch is
#    dead during a sweep; EVs of the paths through it go ASSUMED_BAD and
#    the event CQ reports it with the port of their plane; the sweep's
#    bytes are all right across it
# MRC_QUICK=1: smaller sweeps. MRC_TIMEOUT_SCALE scales the hang guards.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root

LIB=$(cd "$DIR/../../tools/lib/mrc" && pwd)
BW=$LIB/examples/mrc_write_bw
EVS=$LIB/examples/mrc_ev_events
PROBE=$LIB/examples/mrc_ev_probe
EVPROF=$LIB/examples/mrc_ev_profile
LOGS=$(mktemp -d /tmp/mrc_libmrc.XXXXXX)
TMO=$(tmo 300)
MAX=$(by_mode $((4 << 20)) $((256 << 10)))
ITERS=$(by_mode 64 16)
ID=$$
cleanup() {
	[ -z "${evpid:-}" ] || kill "$evpid" 2>/dev/null
	rdma link del "mrcl$ID" 2>/dev/null
	rdma link del "rxel$ID" 2>/dev/null
	ip link del "la$ID" 2>/dev/null
	ip link del "lc$ID" 2>/dev/null
	topo_cleanup
	rm -rf "$LOGS"
}
trap cleanup EXIT
ktap_header 22
for f in "$BW" "$EVS" "$PROBE" "$EVPROF" "$LIB/tests/mrc_api_test"; do
	[ -x "$f" ] || ktap_info "$f is missing: build libmrc first (make, or make -C tools/lib/mrc)"
done

# -- the C suite, on its own veth pair: an mrc device and an rxe device
api_suite() {
	local out rc
	topo_modules mrc && modprobe -q rdma_rxe || return 1
	printf '%s\n' "link add la$ID type veth peer name lb$ID" \
		"addr add 10.79.0.1/24 dev la$ID" "addr add 10.79.0.2/24 dev lb$ID" \
		"link set la$ID up" "link set lb$ID up" | ip -batch - || return 1
	rdma link add "mrcl$ID" type mrc netdev "la$ID" || return 1
	rdma link add "rxel$ID" type rxe netdev "lb$ID" || return 1
	# a second plane, for the ports' admin state (port 2)
	ip link add "lc$ID" type dummy && ip link set "lc$ID" up &&
		"$TOPO_MRCCTL" plane add dev "mrcl$ID" netdev "lc$ID" id 1 || return 1
	DEV_A=mrcl$ID DEV_B=rxel$ID NS_A='' NS_B=''
	_topo_wait_ready 10.79.0.1 10.79.0.2 || return 1
	out=$(timeout -k 5 "$TMO" "$LIB/tests/mrc_api_test" -d "mrcl$ID" \
		-r "rxel$ID" -g "$GID_A" 2>&1)
	rc=$?
	printf '%s\n' "$out" >"$LOGS/api"
	grep -E '^not ok|^# mrc_api_test' "$LOGS/api"
	return "$rc"
}
check "mrc_api_test: every libmrc call, misuse included (mrc and rxe devices)" api_suite
ktap_info "$(grep -c '^ok' "$LOGS/api" 2>/dev/null) checks passed"
rdma link del "mrcl$ID" 2>/dev/null
rdma link del "rxel$ID" 2>/dev/null
ip link del "la$ID" 2>/dev/null
ip link del "lc$ID" 2>/dev/null

fabric_start

# plane_tx: side A's planes' tx_packets, "id:packets ..."
plane_tx() {
	A -j plane show dev "$DEV_A" | jq -r '[.[] | "\(.plane):\(.tx_packets)"] | join(" ")'
}

# sweep TAG MIN MAX ITERS: mrc_write_bw h1 -> h2, sizes MIN .. MAX (x4 a step)
sweep() {
	TAG=$1 pair "$BW" -d "$DEV_B" -g "$GID_B" -S "$2" -s "$3" -F 4 -n "$4" -w 2 -- \
		"$BW" -d "$DEV_A" -g "$GID_A" -S "$2" -s "$3" -F 4 -n "$4" -w 2 "$IP_B"
}
# sizes MAX: how many sizes a sweep of 1 .. MAX (x4) has
sizes() { local s=1 n=0; while [ "$s" -lt "$1" ]; do n=$((n + 1)); s=$((s * 4)); done; echo $((n + 1)); }

tx0=$(plane_tx)
check "mrc_write_bw: 1 B .. $MAX B x $ITERS, h1 -> h2 over the fabric, the server checks every byte" \
	sweep sw. 1 "$MAX" "$ITERS"
tx1=$(plane_tx)
n=$(sizes "$MAX")
check "mrc_write_bw: $n sizes verified by the server, both ends done" \
	bash -c "[ \$(grep -c '^verified' '$LOGS/sw.srv') = $n ] &&
		grep -q 'done, $n sizes' '$LOGS/sw.srv' && grep -q 'done, $n sizes' '$LOGS/sw.cli'"
ktap_info "planes' tx_packets: $tx0 -> $tx1"
# moved PLANE: that plane's count rose
moved() {
	local a b
	a=$(tr ' ' '\n' <<<"$tx0" | sed -n "s/^$1://p")
	b=$(tr ' ' '\n' <<<"$tx1" | sed -n "s/^$1://p")
	[ -n "$b" ] && [ "$b" -gt "${a:-0}" ]
}
check "mrc_write_bw: each of the 4 planes carried packets" \
	bash -c "$(declare -f moved); tx0='$tx0' tx1='$tx1'; moved 0 && moved 1 && moved 2 && moved 3"

# -- a CC profile of h1's controller (mrcctl here; libmrc's calls are
# mrc_api_test's): the sweep's QP bound to it at INIT (MRC_QP_CC_PROFILE_ID)
check "cc profile 7 on h1: offline with NSCC and a 256 KiB window, then online" \
	bash -c "'$TOPO_MRCCTL' -n '$NS_A' cc profile set dev '$DEV_A' id 7 state offline algo nscc max_cwnd 262144 fi 16384 eta 4096 &&
		'$TOPO_MRCCTL' -n '$NS_A' cc profile set dev '$DEV_A' id 7 state online &&
		'$TOPO_MRCCTL' -n '$NS_A' -j cc profile show dev '$DEV_A' id 7 |
		jq -e '.[0].state == \"online\" and .[0].max_cwnd == 262144 and .[0].qps == 0'"
# bound_sweep TAG ID SIZE ITERS: mrc_write_bw h1 -> h2, h1's QP bound to CC profile ID
bound_sweep() {
	TAG=$1 pair "$BW" -d "$DEV_B" -g "$GID_B" -S "$3" -s "$3" -n "$4" -w 0 -- \
		env MRC_QP_CC_PROFILE_ID="$2" "$BW" -d "$DEV_A" -g "$GID_A" -S "$3" -s "$3" \
		-n "$4" -w 0 "$IP_B"
}
# the client keeps its QP a while after the sweep, for client_evset (as
# long as the guards are scaled: its polls can take seconds)
bound_ev_sweep() {
	TAG=$1 pair "$BW" -d "$DEV_B" -g "$GID_B" -S "$3" -s "$3" -n "$4" -w 2 -- \
		env MRC_QP_EV_PROFILE_ID="$2" "$BW" -d "$DEV_A" -g "$GID_A" -S "$3" -s "$3" \
		-n "$4" -w 2 -L "$(tmo 3)" "$IP_B"
}
check "mrc_write_bw bound to cc profile 7: 64 KiB x $ITERS, every byte checked" \
	bound_sweep cp. 7 65536 "$ITERS"
check "cc profile 7: no QP uses it after the sweep; offline, then forgotten" \
	bash -c "'$TOPO_MRCCTL' -n '$NS_A' -j cc profile show dev '$DEV_A' id 7 | jq -e '.[0].qps == 0' &&
		'$TOPO_MRCCTL' -n '$NS_A' cc profile set dev '$DEV_A' id 7 state offline &&
		'$TOPO_MRCCTL' -n '$NS_A' cc profile set dev '$DEV_A' id 7 state init &&
		! '$TOPO_MRCCTL' -n '$NS_A' cc profile show dev '$DEV_A' id 7"
check_fails "mrc_write_bw bound to cc profile 8, which is not online: the client fails at INIT" \
	bound_sweep cx. 8 64 1
check "the client said why" grep -q "mrc_modify_qp to INIT: Invalid argument" "$LOGS/cx.cli"

# -- EV probes: h1 to h2's address on each plane, out of its port
probe_planes() {
	local p out
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		out=$(ip netns exec "$NS_A" timeout -k 5 "$TMO" "$PROBE" -d "$DEV_A" \
			-p $((p + 1)) -t 2000 "$(fabric_plane_addr 2 "$p")" 2>&1)
		echo "$out" >>"$LOGS/probes"
		echo "$out" | grep -Eq "^probe 1 peer .* port $((p + 1)) rtt [1-9][0-9]* ns$" ||
			{ echo "$out"; return 1; }
	done
}
check "mrc_ev_probe: h2's address on each plane, answered there with an RTT" probe_planes
probe_paths() {
	local plane usid out n=0
	while read -r plane usid; do
		out=$(ip netns exec "$NS_A" timeout -k 5 "$TMO" "$PROBE" -d "$DEV_A" \
			-p $((plane + 1)) -u "$usid" -t 2000 "$CM_B" 2>&1)
		echo "$out" >>"$LOGS/probes"
		echo "$out" | grep -Eq "^probe 1 peer .* port $((plane + 1)) rtt [1-9][0-9]* ns$" ||
			{ echo "$usid: $out"; return 1; }
		n=$((n + 1))
	done < <(A -j path show dev "$DEV_A" peer "$CM_B" | jq -r '.[] | "\(.plane) \(.usid)"')
	[ "$n" -ge "$FABRIC_PLANES" ]
}
check "mrc_ev_probe: h2's node address on each uSID path (SRV6 EV), answered on its plane" probe_paths
ktap_info "$(tr '\n' ';' <"$LOGS/probes" 2>/dev/null)"

# -- an EXP EV profile of h1's controller (mrc_ev_profile): its EVs are
# h1's uSID containers to h2, whole (an SRV6 format of F3216 widths and
# no fields: the EV's 128 bits are the container), each on its plane
exp_profile_up() {
	local plane usid args=() n=0
	while read -r plane usid; do
		args+=(-e "$(python3 -c 'import ipaddress, sys
print(ipaddress.IPv6Address(sys.argv[1]).packed.hex())' "$usid")@$((plane + 1))")
		n=$((n + 1))
	done < <(A -j path show dev "$DEV_A" peer "$CM_B" | jq -r '.[] | "\(.plane) \(.usid)"')
	[ "$n" -ge "$FABRIC_PLANES" ] || return 1
	ip netns exec "$NS_A" timeout -k 5 "$TMO" "$EVPROF" -d "$DEV_A" -p 11 -f 12 \
		-m srv6 -w 32,16,16,16,16,16,16 "${args[@]}" >"$LOGS/evprof" 2>&1 &&
		grep -q "^profile 11 mode EXP format 12 count $n .*state ONLINE$" "$LOGS/evprof" &&
		[ "$(grep -c ' GOOD$' "$LOGS/evprof")" = "$n" ] || { cat "$LOGS/evprof"; return 1; }
}
check "mrc_ev_profile on h1: SRV6 format 12, EXP profile 11 of h1's uSID paths to h2, ONLINE" \
	exp_profile_up
ktap_info "$(tr '\n' ';' <"$LOGS/evprof" 2>/dev/null)"
check "mrc_write_bw bound to EXP profile 11: 64 KiB x $ITERS over its paths, every byte checked" \
	bound_ev_sweep xp. 11 $((64 << 10)) "$ITERS"
check "mrc_ev_profile -r: profile 11 and format 12 back to INIT" \
	bash -c "ip netns exec '$NS_A' '$EVPROF' -d '$DEV_A' -p 11 -f 12 -r | grep -q '^removed' &&
		! '$TOPO_MRCCTL' -n '$NS_A' ev profile show dev '$DEV_A' id 11"

# -- EV events: a T1 switch of plane 1 is dead when a sweep starts; the
# QP's EVs of the paths through it lose packets and go ASSUMED_BAD
# an EV profile of 8 EVs (the device gives 128) whose events are
# ASSUMED_BAD only: the client below is bound to it
check "ev profile 9 on h1: offline (auto, 8 EVs), then online (min_active 2, assumed_bad)" \
	bash -c "'$TOPO_MRCCTL' -n '$NS_A' ev profile set dev '$DEV_A' id 9 state offline mode auto count 8 &&
		'$TOPO_MRCCTL' -n '$NS_A' ev profile set dev '$DEV_A' id 9 state online min_active 2 events assumed_bad &&
		'$TOPO_MRCCTL' -n '$NS_A' -j ev profile show dev '$DEV_A' id 9 |
		jq -e '.[0].state == \"online\" and .[0].count == 8 and .[0].min_active == 2 and .[0].events == \"assumed_bad\"'"

T1="t1-p1-1"
ip netns exec "$NS_A" timeout -k 5 "$TMO" stdbuf -oL "$EVS" -d "$DEV_A" -c 1 -D \
	-t "$TMO" >"$LOGS/events" 2>&1 &
evpid=$!
check "mrc_ev_events: an EV event CQ on h1" \
	wait_for "$(tmo 30)" grep -q '^ready' "$LOGS/events"
fabric_link_down "t0-p1-0:$T1" && fabric_link_down "t0-p1-1:$T1"
client_evset "$LOGS/evset" &
setpid=$!
check "mrc_write_bw bound to ev profile 9: 64 KiB x $((ITERS * 4)) with T1 $T1 dead, every byte checked" \
	bound_ev_sweep ft. 9 $((64 << 10)) $((ITERS * 4))
wait "$setpid"
check "the bound QP's EV set: the profile's 8 rotation slots (2 a plane), not the device's 128" \
	bash -c "jq -e '[.[] | select(.slot != null)] | length == 8' '$LOGS/evset' ||
		{ cat '$LOGS/evset'; false; }"
wait "$evpid"
rc=$?
evpid=''
check "mrc_ev_events: the dead T1 reported as profile 9's: an EV of port 2 (plane 1) ASSUMED_BAD" \
	bash -c "[ $rc = 0 ] && grep -Eq '^profile 0x9 port 2 .*state ASSUMED_BAD' '$LOGS/events' ||
		{ cat '$LOGS/events'; false; }"
check "mrc_ev_events -D: that EV denied in profile 9 (MODIFY_EV_STATE), and read back DENIED" \
	bash -c "grep -Eq '^denied profile 0x9 port 2 ev 0x[0-9a-f]{8} state DENIED' '$LOGS/events' ||
		{ cat '$LOGS/events'; false; }"
check "ev profile 9: no QP bound after the sweep; offline, then forgotten" \
	bash -c "'$TOPO_MRCCTL' -n '$NS_A' -j ev profile show dev '$DEV_A' id 9 | jq -e '.[0].qps == 0' &&
		'$TOPO_MRCCTL' -n '$NS_A' ev profile set dev '$DEV_A' id 9 state offline &&
		'$TOPO_MRCCTL' -n '$NS_A' ev profile set dev '$DEV_A' id 9 state init &&
		! '$TOPO_MRCCTL' -n '$NS_A' ev profile show dev '$DEV_A' id 9"
fabric_link_up "t0-p1-0:$T1" && fabric_link_up "t0-p1-1:$T1"
ktap_finish
