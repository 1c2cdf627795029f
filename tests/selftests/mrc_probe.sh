#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Endpoint EV probes (MRC opcodes 0xD8/0xD9; mrcctl probe) over the lab
# fabric (fabric.sh, 2 hosts x 2 planes x 2 T1):
#
#   - plain RoCEv2 out of each plane to the peer's plane address: answered,
#     with an RTT, on the peer's plane of the same number
#   - on every path of the peer's path set (SRv6 uSID containers): answered
#     on the path's plane
#   - an explicit EV: the peer saw it (UDP source port, flow label)
#   - the device's own address (loopback): answered
#   - the peer's plane 1 blocked (netem loss 100%): plane 1 times out,
#     plane 0 is still answered
#   - forged 0xD9 answers (mrc_inject.py from the peer's namespace), one
#     while a probe is outstanding: dropped and counted (ep_unmatched),
#     never taken for the probe, which times out
#   - the responder's plane allowlist applies to probes
#   - bad requests: refused with the reason
#   - the device removed with 50 probes outstanding (their answers
#     blocked): it goes at once, and the debug kernel finds nothing left
#     behind (timers, namespaces held, memory)
#
# Environment: MRC_QUICK=1 (fewer probes).
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and wait_for
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools python3 jq tc
require_mrcctl

TMO=$(tmo 120)
N=$(by_mode 8 3)
INJECT=$DIR/mrc_inject.py
TOPO_FABRIC="2 2 2"
test_logs mrc_probe

ktap_header 11
fabric_start

B() { "$TOPO_MRCCTL" -n "$NS_B" "$@"; }
# counter NS DEV NAME: a counter of a device: rdma(8)'s, else dev show's
counter() {
	case $3 in
	ep_*) "$TOPO_MRCCTL" -n "$1" -j dev show "$2" | jq -r ".[0].$3" ;;
	*) netns "$1" rdma -j statistic show link "$2/1" | jq -r ".[0].$3" ;;
	esac
}
# probe_json NAME ARGS...: A's "mrcctl -j probe ARGS", kept in $LOGS/NAME
probe_json() {
	local name=$1
	shift
	A -j probe dev "$DEV_A" "$@" >"$LOGS/$name" 2>"$LOGS/$name.err"
	cat "$LOGS/$name"
}
# answered NAME PLANE N ARGS...: N probes, all answered on the peer's PLANE
answered() {
	local name=$1 plane=$2 n=$3
	shift 3
	probe_json "$name" count "$n" timeout "$(tmo 2000)" "$@" | jq -e --argjson p "$plane" --argjson n "$n" \
		'length == $n and all(.[]; .status == "answered" and .rtt_ns > 0 and
		 .arrival_plane == $p)' >/dev/null || { cat "$LOGS/$name" "$LOGS/$name.err"; return 1; }
	ktap_info "$name: rtt $(jq -r '[.[].rtt_ns / 1000 | floor] | join(" ")' "$LOGS/$name") us"
}

H2P0=$(fabric_plane_addr 2 0) H2P1=$(fabric_plane_addr 2 1)
H1P0=$(fabric_plane_addr 1 0) H1P1=$(fabric_plane_addr 1 1)

a0=$(counter "$NS_B" "$DEV_B" ep_answered)
each_plane() { answered plane0 0 "$N" peer "$H2P0" plane 0 && answered plane1 1 "$N" peer "$H2P1" plane 1; }
check "plain RoCEv2 out of each plane to the peer's plane address: answered there, RTT" each_plane
check "the responder counted its answers (ep_answered +$((2 * N)))" \
	test "$(counter "$NS_B" "$DEV_B" ep_answered)" = $((a0 + 2 * N))

each_path() {
	local id plane n=0
	while read -r id plane; do
		answered "path$id" "$plane" 1 peer "$CM_B" path "$id" || return 1
		n=$((n + 1))
	done < <(A -j path show dev "$DEV_A" peer "$CM_B" | jq -r '.[] | "\(.path) \(.plane)"')
	ktap_info "$n paths"
	[ "$n" -ge 2 ]
}
check "on every path of the peer's path set (uSID): answered on the path's plane" each_path

ev_seen() {
	probe_json ev peer "$H2P1" plane 1 ev 0xc0051234 timeout "$(tmo 2000)" |
		jq -e '.[0].status == "answered" and .[0].peer_ev == "0xc0051234"' >/dev/null
}
check "an explicit EV: the peer saw it (UDP source port, flow label)" ev_seen
check "the device's own plane address (loopback): answered" answered self 0 1 peer "$H1P0" plane 0

# -- the peer's plane 1 blocked
netns "$NS_B" tc qdisc replace dev p1 root netem loss 100%
blocked() {
	! A probe dev "$DEV_A" peer "$H2P1" plane 1 timeout 300 >"$LOGS/blocked" 2>&1 &&
		grep -q "plane 1 timeout" "$LOGS/blocked" &&
		answered unblocked 0 1 peer "$H2P0" plane 0
}
check "the peer's plane 1 blocked (netem loss 100%): plane 1 times out, plane 0 answered" blocked

# -- forged answers: the one probe outstanding (plane 1, blocked) is not
# theirs, whatever request id they claim
# (to h1's plane 0 address: h2's plane 1 sends nothing now)
u0=$(counter "$NS_A" "$DEV_A" ep_unmatched)
A -j probe dev "$DEV_A" peer "$H2P1" plane 1 timeout "$(tmo 8000)" >"$LOGS/forged" 2>&1 &
ppid=$!
netns "$NS_B" python3 "$INJECT" --dst "$H1P0" --count 10 ep-resp --req-id 1 --cookie 0x100
wait "$ppid"
forged() {
	jq -e 'length == 1 and .[0].status == "timeout"' "$LOGS/forged" >/dev/null &&
		test "$(counter "$NS_A" "$DEV_A" ep_unmatched)" = $((u0 + 10))
}
check "forged 0xD9 (10, request id of the outstanding probe): dropped, counted (ep_unmatched +10), never matched" forged
netns "$NS_B" tc qdisc del dev p1 root

# -- the responder's allowlist: h1's plane 1 takes nothing from h2
d0=$(counter "$NS_A" "$DEV_A" rx_src_denied)
A plane set dev "$DEV_A" id 1 allow 2001:db8:99::/64
denied() {
	! B probe dev "$DEV_B" peer "$H1P1" plane 1 timeout 300 >"$LOGS/denied" 2>&1 &&
		grep -q timeout "$LOGS/denied" &&
		test "$(counter "$NS_A" "$DEV_A" rx_src_denied)" -gt "$d0"
}
check "a plane's allowlist applies: a denied source's probe is dropped (rx_src_denied)" denied
A plane set dev "$DEV_A" id 1 allow any

bad() { # bad WHAT ARGS...: mrcctl probe ARGS fails and says WHAT
	! A probe dev "$DEV_A" "${@:2}" >"$LOGS/bad" 2>&1 && grep -q "$1" "$LOGS/bad" ||
		{ cat "$LOGS/bad"; return 1; }
}
bad_requests() {
	bad "no path of this id" peer "$CM_B" path 99 &&
		bad "another plane" peer "$CM_B" path 0 plane 1 &&
		bad "no such plane" peer "$H2P0" plane 7 &&
		bad "unicast" peer ff02::1 &&
		bad "invalid ev" peer "$H2P0" ev 0x1234
}
check "bad requests: refused with the reason" bad_requests

# -- the device goes while probes are outstanding: h2 answers them, h1's
# plane 1 drops the answers (its allowlist: mrc packets only, so neighbour
# discovery, which a netem loss on h2 would stop, still works both ways)
a0=$(counter "$NS_B" "$DEV_B" ep_answered)
A plane set dev "$DEV_A" id 1 allow 2001:db8:99::/64
A probe dev "$DEV_A" peer "$H2P1" plane 1 count 50 timeout 30000 >"$LOGS/gone" 2>&1 &
ppid=$!
asked() { [ "$(counter "$NS_B" "$DEV_B" ep_answered)" -ge $((a0 + 50)) ]; }
removed() {
	local t0=$SECONDS
	wait_for "$(tmo 30)" asked || { echo "the probes did not all go out"; return 1; }
	netns "$NS_A" rdma link del "$DEV_A" || return 1
	ktap_info "removed in $((SECONDS - t0))s with the probes outstanding"
	! netns "$NS_A" rdma link show "$DEV_A" >/dev/null 2>&1
}
check "the device removed with 50 probes outstanding: at once, nothing left behind" removed
kill "$ppid" 2>/dev/null
wait "$ppid" 2>/dev/null
ktap_finish
