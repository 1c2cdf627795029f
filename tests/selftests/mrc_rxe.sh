#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc next to the kernel's own soft RoCE, rdma_rxe (both use the rxe user
# ABI and its driver id):
#
#   initial netns:  rxe..a -- va.. ==veth== vb.. -- rxe..b   (topo_host)
#   netns ma / mb:  mrcma  -- mva  ==veth== mvb  -- mrcmb    (10.78.0.1/.2)
#
# Covers: both modules loaded and both pairs carrying traffic at the same
# time; mrc refusing a netdev that has an rxe device; unloading rdma_rxe,
# which unregisters every device of the shared driver id, mrc's included,
# cleanly, after which mrc devices can be added again; unloading mrc, which
# leaves rxe working. A kernel report (KASAN, lockdep, WARN...) fails the run.
# MRC_QUICK=1: each pingpong moves 10 x 4 KiB instead of 100 x 4 KiB; the
# tools' 120 s limits are hang guards, times MRC_TIMEOUT_SCALE.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317,SC2154 # functions called through check; setup_ns sets ma/mb
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root

require_tools ibv_rc_pingpong rdma jq
modprobe -q rdma_rxe 2>/dev/null || { echo "# no rdma_rxe module"; exit "$KSFT_SKIP"; }
modprobe -q mrc

LOG=$(mktemp -d /tmp/mrc_rxe.XXXXXX)
cleanup() {
	topo_cleanup
	cleanup_ns
	rm -rf "$LOG"
}
trap cleanup EXIT
ktap_header 12

nsrun() { # NS CMD...: CMD in NS, or here when NS is empty
	local ns=$1
	shift
	if [ -n "$ns" ]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

# pingpong NS_S DEV_S IP_S NS_C DEV_C IP_C PORT: ibv_rc_pingpong, N x 4 KiB
N=$(by_mode 100 10) TMO=$(tmo 120) W=$(tmo 20)
pingpong() {
	local gs gc spid src crc
	gs=$(gid_index "$2" "$3") && gc=$(gid_index "$5" "$6") || return 1
	nsrun "$1" timeout "$TMO" ibv_rc_pingpong -d "$2" -g "$gs" -p "$7" -n "$N" >"$LOG/s$7" 2>&1 &
	spid=$!
	wait_for "$(tmo 60)" nsrun "$1" sh -c "ss -Hltn 'sport = :$7' | grep -q ."
	nsrun "$4" timeout "$TMO" ibv_rc_pingpong -d "$5" -g "$gc" -p "$7" -n "$N" "$3" >"$LOG/c$7" 2>&1
	crc=$?
	wait $spid
	src=$?
	[ $crc = 0 ] && [ $src = 0 ] && grep -q "$N iters" "$LOG/c$7" &&
		grep -q "$N iters" "$LOG/s$7" && return 0
	tail -n 3 "$LOG/c$7" "$LOG/s$7"
	return 1
}

mrc_up() {
	netns "$ma" rdma link add mrcma type mrc netdev mva &&
		netns "$mb" rdma link add mrcmb type mrc netdev mvb &&
		wait_for "$W" gid_index mrcma 10.78.0.1 && wait_for "$W" gid_index mrcmb 10.78.0.2
}

rxe_up_again() {
	rdma link add "$DEV_A" type rxe netdev "$VETH_A" &&
		rdma link add "$DEV_B" type rxe netdev "$VETH_B" &&
		wait_for "$W" gid_index "$DEV_A" "$IP_A" && wait_for "$W" gid_index "$DEV_B" "$IP_B"
}

ok_or_log() { # RC FILE
	[ "$1" = 0 ] || cat "$2"
	[ "$1" = 0 ]
}

gone() { # NS DEV: the device is not there any more
	! netns "$1" rdma link show "$2/1" >/dev/null 2>&1
}

setup_ns ma mb
ip link add name mva netns "$ma" type veth peer name mvb netns "$mb"
ip -n "$ma" addr add 10.78.0.1/24 dev mva
ip -n "$mb" addr add 10.78.0.2/24 dev mvb
ip -n "$ma" link set mva up
ip -n "$mb" link set mvb up

check "rdma_rxe and mrc loaded together" \
	bash -c 'lsmod | grep -q "^rdma_rxe " && lsmod | grep -q "^mrc "'
# in this shell, not in check's subshell: it sets DEV_A, VETH_A, ...
topo_host rxe >"$LOG/topo" 2>&1
topo_rc=$?
refused() { # the rxe netdev is refused, with EBUSY
	local out
	[ -n "$VETH_A" ] || return 1
	out=$(rdma link add mrcbad type mrc netdev "$VETH_A" 2>&1) && return 1
	echo "$out" | grep -q "busy"
}
check "rxe pair up in the initial namespace" ok_or_log "$topo_rc" "$LOG/topo"
check "mrc pair up in two namespaces" mrc_up
check "mrc refuses a netdev that carries an rxe device (EBUSY)" refused

pingpong "" "$DEV_B" "$IP_B" "" "$DEV_A" "$IP_A" 18515 >"$LOG/rxe" 2>&1 &
rxe_pid=$!
pingpong "$mb" mrcmb 10.78.0.2 "$ma" mrcma 10.78.0.1 18516 >"$LOG/mrc" 2>&1
mrc_rc=$?
wait $rxe_pid
rxe_rc=$?
mrc_gone() { gone "$ma" mrcma && gone "$mb" mrcmb; }
mrc_again() { mrc_up && pingpong "$mb" mrcmb 10.78.0.2 "$ma" mrcma 10.78.0.1 18517; }
rxe_again() { modprobe rdma_rxe && rxe_up_again; }
rxe_after_mrc() { rmmod mrc && pingpong "" "$DEV_B" "$IP_B" "" "$DEV_A" "$IP_A" 18518; }

check "rxe carries traffic while mrc does" ok_or_log "$rxe_rc" "$LOG/rxe"
check "mrc carries traffic while rxe does" ok_or_log "$mrc_rc" "$LOG/mrc"
check "mrc counted its packets" \
	test "$(netns "$mb" rdma -j statistic show link mrcmb/1 | jq -r '.[0].rx_packets')" -gt 0

# rdma_rxe's exit unregisters every RDMA_DRIVER_RXE device, mrc's too
check "rmmod rdma_rxe with rxe and mrc devices present" rmmod rdma_rxe
check "the mrc devices went with it" mrc_gone
check "mrc devices added again carry traffic" mrc_again

# and the other way round: mrc's exit leaves rxe alone
check "rdma_rxe loaded again, its devices re-added" rxe_again
check "rmmod mrc with its devices present; rxe still carries traffic" rxe_after_mrc
ktap_finish
