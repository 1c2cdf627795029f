#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UC (unreliable connected) QPs between two namespaces (topo_ns mrc): the
# stock tools first, then mrc_uc.py, which checks every message:
#   - ibv_uc_pingpong -c: 4 KiB messages (four packets each), every
#     received buffer validated by the tool;
#   - ib_send_bw and ib_write_bw -c UC (perftest; both ends exit 0);
#   - mrc_uc.py on a clean path: every SEND (with and without immediate)
#     and both WRITEs (plain, with immediate) arrive whole and in order;
#   - mrc_uc.py under netem loss (5 % both ways): every send completes
#     well (UC waits for no acknowledgment), whatever arrives is whole and
#     in order, no error completion, both QPs stay in RTS, B counted the
#     drops (rx_dropped), and once the loss is removed later SENDs all
#     arrive; no ACK was ever sent for UC (acks_sent, sacks_sent stay 0);
#   - mrc_uc.py mismatch: A's UC QP sends to an RC QP of B, A's RC QP to
#     a UC QP of B: B completes nothing, its QPs stay in RTS, and counts
#     the packets as malformed; an RDMA READ posted on a UC QP is refused
#     (a local QP operation error, as on rxe);
#   - ib_write_bw -c UC under the same loss: both ends finish (nothing
#     waits for what was lost).
# MRC_TOPO=fabric (mrc_uc_fabric.sh): the same between two hosts of the
# 4-plane SRv6 lab fabric (topo_fabric; the loss on plane 0 only), where
# each UC QP is sprayed over the peer's paths: the clean mrc_uc.py run
# must have sent packets on every plane of side A (pN_tx_packets).
# Sizes: MRC_QUICK=1 runs fewer iterations; limits are hang guards.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root
require_tools ibv_uc_pingpong ib_send_bw ib_write_bw rdma jq tc

if ! python3 -c 'import pyverbs' 2>/dev/null; then
	echo "# mrc_uc.py needs python3-pyverbs"
	exit "$KSFT_SKIP"
fi

LOGS=$(mktemp -d /tmp/mrc_uc.XXXXXX)
TMO=$(tmo 120)
cleanup() {
	topo_cleanup
	rm -rf "$LOGS"
}
trap cleanup EXIT
# shellcheck source-path=SCRIPTDIR
source "$DIR/traffic.sh"
TOPO=${MRC_TOPO:-ns}
ktap_header $((8 + $([ "$TOPO" = fabric ] && echo 2 || echo 0)))

# nothing else can run without the topology: the suite ends there
if ! topo_up mrc "$TOPO" >"$LOGS/topo" 2>&1; then
	ktap_fail "mrc pair up (topo $TOPO)"
	sed 's/^/#   /' "$LOGS/topo" | tail -15
	ktap_finish
fi
ktap_pass "mrc pair up (topo $TOPO)"

N_PP=$(by_mode 200 50)
N_BW=$(by_mode 200 50)
N_PY=$(by_mode 400 200)

counter() { # counter SIDE NAME: a counter of DEV_A (a) or DEV_B (b)
	local ns=$NS_A dev=$DEV_A
	[ "$1" = b ] && ns=$NS_B dev=$DEV_B
	netns "$ns" rdma -j statistic show link "$dev/1" | jq -r ".[0].$2"
}

uc_pingpong() {
	pair ibv_uc_pingpong -d "$DEV_B" -g "$GID_B" -n "$N_PP" -s 4096 -c -- \
		ibv_uc_pingpong -d "$DEV_A" -g "$GID_A" -n "$N_PP" -s 4096 -c "$IP_B" &&
		grep -q "$N_PP iters in" "$LOGS/cli"
}
check "ibv_uc_pingpong -c, 4 KiB messages ($N_PP)" uc_pingpong

perf_uc() { # perf_uc TOOL SIZE
	pair "$1" -d "$DEV_B" -x "$GID_B" -c UC -s "$2" -n "$N_BW" -F -- \
		"$1" -d "$DEV_A" -x "$GID_A" -c UC -s "$2" -n "$N_BW" -F "$IP_B"
}
check "ib_send_bw -c UC -s 4096 ($N_BW)" perf_uc ib_send_bw 4096
check "ib_write_bw -c UC -s 65536 ($N_BW)" perf_uc ib_write_bw 65536

uc_py() { # uc_py traffic|mismatch [ARGS]
	timeout "$TMO" python3 "$DIR/mrc_uc.py" "$1" "$DEV_A" "$GID_A" "$DEV_B" \
		"$GID_B" "${@:2}" 2>&1 | tee "$LOGS/py"
	[ "${PIPESTATUS[0]}" = 0 ]
}
planes_tx() { # the packets side A sent on each plane, one line
	local p out=''
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		out+="$(counter a "p${p}_tx_packets") "
	done
	echo "$out"
}
[ "$TOPO" = fabric ] && tx0=$(planes_tx)
check "mrc_uc.py: SENDs and WRITEs arrive whole and in order ($N_PY)" uc_py traffic "$N_PY"
sprayed() {
	local before after i
	read -ra before <<<"$tx0"
	read -ra after <<<"$(planes_tx)"
	echo "side A, packets per plane: ${before[*]} -> ${after[*]}" |
		tee -a "$LOGS/py"
	for i in "${!before[@]}"; do
		[ "${after[$i]}" -gt "${before[$i]}" ] || return 1
	done
	[ "${#before[@]}" -gt 1 ]
}
[ "$TOPO" = fabric ] && check "UC packets sprayed over every plane" sprayed
# mrcctl ev show of a UC QP while ib_write_bw -c UC runs: its EV set, with
# packets sent on EVs of every plane. The run is scaled as the guards are:
# a poll (four programs) can take seconds on a loaded debug kernel
uc_evset() {
	local f=$LOGS/evset q bg i ok=1 d
	d=$(tmo 4)
	TAG=evs pair ib_write_bw -d "$DEV_B" -x "$GID_B" -c UC -s 65536 -D "$d" -F -- \
		ib_write_bw -d "$DEV_A" -x "$GID_A" -c UC -s 65536 -D "$d" -F "$IP_B" >/dev/null &
	bg=$!
	for ((i = 0; i < 600; i++)); do
		q=$(rc_qpn "$DEV_A" "$NS_A" UC)
		if [ -n "$q" ] && A -j ev show dev "$DEV_A" qpn "$q" >"$f" 2>&1 &&
			jq -e --argjson n "$FABRIC_PLANES" \
				'[.[] | select(.tx_packets > 0) | .plane] | unique | length == $n' \
				"$f" >/dev/null; then
			ok=0
			break
		fi
		kill -0 "$bg" 2>/dev/null || break
		nap 0.1
	done
	wait "$bg" || ok=1
	echo "UC QP ${q:-?}: $(jq -r 'length' "$f" 2>/dev/null) EVs, packets per plane:" \
		"$(jq -r 'group_by(.plane) | map("\(.[0].plane):\(map(.tx_packets) | add)") | join(" ")' \
			"$f" 2>/dev/null || head -2 "$f")"
	return "$ok"
}
[ "$TOPO" = fabric ] && check "mrcctl ev show of a UC QP: EVs of every plane sent its packets" uc_evset
shown() { sed 's/^/#   /' "$LOGS/py"; }
shown

uc_lossy() {
	local d0 d1 a0 a1 rc
	d0=$(counter b rx_dropped)
	a0=$(($(counter b acks_sent) + $(counter b sacks_sent)))
	topo_netem loss 5% || return 1
	uc_py traffic "$N_PY" "tc -n $NS_A qdisc del dev $VETH_A root; tc -n $NS_B qdisc del dev $VETH_B root"
	rc=$?
	topo_netem_clear
	d1=$(counter b rx_dropped)
	a1=$(($(counter b acks_sent) + $(counter b sacks_sent)))
	echo "side B: rx_dropped $d0 -> $d1, ACKs and SACKs sent $a0 -> $a1" |
		tee -a "$LOGS/py"
	[ "$rc" = 0 ] && [ "$d1" -gt "$d0" ] && [ "$a1" = "$a0" ]
}
check "mrc_uc.py under 5 % loss: no error, RTS, later messages arrive" uc_lossy
shown

# UC packets into an RC QP and RC ones into a UC QP: dropped, counted
mismatch() {
	local m0 m1 rc
	m0=$(counter b malformed)
	uc_py mismatch
	rc=$?
	m1=$(counter b malformed)
	echo "side B: malformed $m0 -> $m1 (at least 10 wanted)" | tee -a "$LOGS/py"
	[ "$rc" = 0 ] && [ "$m1" -ge $((m0 + 10)) ]
}
check "UC packets for an RC QP and RC ones for a UC QP dropped, counted; READ on UC refused" mismatch
shown

write_lossy() {
	local rc
	topo_netem loss 5% || return 1
	perf_uc ib_write_bw 65536
	rc=$?
	topo_netem_clear
	return "$rc"
}
check "ib_write_bw -c UC under 5 % loss: both ends finish" write_lossy
ktap_finish
