#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Teardown under load: mrc devices, their plane netdev, their namespace and
# the module itself go away while QPs move data, and RC QPs come and go by
# the hundred, each carrying traffic. Nothing may hang (every step has a
# guard far above a healthy run), the kernel must report nothing (the VM
# harness fails a run with a KASAN, lockdep, kmemleak or WARN report), no
# device or QP may be left behind, and a fresh pair must work afterwards.
#
#   - QP churn: ib_write_bw -q 50 (50 RC QPs, each writing) again and
#     again: every run completes, no QP is left afterwards
#   - under an ib_write_bw in duration mode (its QPs moving data):
#     rdma link del of the client's device; the veth (both devices' plane
#     0) deleted; the client's namespace deleted (it dies with its last
#     process); modprobe -r mrc (refused while the tools hold it, it
#     unloads once they exit). Each returns, the devices are gone once the
#     tools exit, and at the end a new pair moves data
#
# Environment: MRC_TIMEOUT_SCALE (slow kernels: longer guards);
# MRC_QUICK=1: 1 churn round (50 QPs) instead of 20 (1,000), and no
# namespace case (the veth case takes the same path: the devices' plane 0
# unregistered).
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools ib_write_bw jq

TMO=$(tmo 300)
LOGS=$(mktemp -d /tmp/mrc_teardown.XXXXXX)
ROUNDS=$(by_mode 20 1)
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap 'kill $CLI $SRV 2>/dev/null; topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_teardown.d"
	rm -rf "$LOGS"' EXIT

ktap_header "$(by_mode 11 10)"

# up: a fresh pair (topo_ns), or the suite ends
up() {
	if ! topo_ns mrc >"$LOGS/topo" 2>&1; then
		ktap_fail "mrc pair up (topo_ns)"
		sed 's/^/#   /' "$LOGS/topo" | tail -15
		ktap_finish
	fi
}
# devices_gone: neither device of the pair is registered any more
devices_gone() { ! rdma -j dev show | jq -e --arg a "$DEV_A" --arg b "$DEV_B" \
	'any(.[]; .ifname == $a or .ifname == $b)' >/dev/null; }
# hw DEV NAME: a counter of DEV from sysfs
hw() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
moving() { test "$(hw "$DEV_A" tx_packets 2>/dev/null || echo 0)" -gt "$1"; }

# load: ib_write_bw h1 -> h2 for D seconds in the background (CLI, SRV),
# until its QPs move data (h1's device sent packets)
D=$(tmo 5)
CLI='' SRV=''
load() {
	local t0
	t0=$(hw "$DEV_A" tx_packets)
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$TMO" ib_write_bw -d "$DEV_B" -x "$GID_B" -F \
		-q 4 -s 65536 -D "$D" -p "$PORT" >"$LOGS/${1}srv" 2>&1 &
	SRV=$!
	wait_listen "$NS_B" tcp "$PORT" "$SRV" || return 1
	ip netns exec "$NS_A" timeout -k 5 "$TMO" ib_write_bw -d "$DEV_A" -x "$GID_A" -F \
		-q 4 -s 65536 -D "$D" -p "$PORT" "$IP_B" >"$LOGS/${1}cli" 2>&1 &
	CLI=$!
	wait_for "$(tmo 60)" moving "${t0:-0}"
}
# unload: the tools exit (killed if they still run: a device going away
# may leave them waiting for completions that never come)
unload() {
	sleep 1
	kill "$CLI" "$SRV" 2>/dev/null
	wait "$CLI" "$SRV" 2>/dev/null
	CLI='' SRV=''
}
# works: the pair moves data (a new one, after every teardown case; check
# runs it in a subshell, so the pair is made before, by up)
works() { TAG=after. write_bw 65536 20; }

# -- QP churn
up
ktap_pass "mrc pair up (topo_ns)"
churn() {
	local i
	for ((i = 1; i <= ROUNDS; i++)); do
		TAG=churn. pair ib_write_bw -d "$DEV_B" -x "$GID_B" -F -q 50 -s 4096 -n 20 -- \
			ib_write_bw -d "$DEV_A" -x "$GID_A" -F -q 50 -s 4096 -n 20 "$IP_B" ||
			{ echo "round $i failed"; return 1; }
	done
}
check "QP churn: $ROUNDS runs of ib_write_bw -q 50 ($((ROUNDS * 50)) RC QPs a side, each writing)" \
	churn
# no_qps: neither device has an RC QP left
no_qps() {
	! rdma -j res show qp | jq -e --arg a "$DEV_A" --arg b "$DEV_B" \
		'any(.[]; (.ifname == $a or .ifname == $b) and .lqpn > 1)' >/dev/null
}
check "QP churn: no QP left" wait_for "$(tmo 10)" no_qps

# -- rdma link del of a device whose QPs move data
if load del.; then
	check "rdma link del under load returns" \
		timeout "$TMO" nsenter --net="/run/netns/$NS_A" rdma link del "$DEV_A"
else
	ktap_fail "rdma link del under load: the load did not start"
fi
unload
check "rdma link del under load: the device is gone" wait_for "$(tmo 30)" \
	bash -c "! rdma dev show $DEV_A >/dev/null 2>&1"
topo_cleanup
up

# -- the veth under both devices deleted
if load veth.; then
	check "the plane netdev deleted under load: ip link del returns" \
		timeout "$TMO" ip -n "$NS_A" link del "$VETH_A"
else
	ktap_fail "the plane netdev deleted under load: the load did not start"
fi
unload
check "the plane netdev deleted under load: both devices are gone" \
	wait_for "$(tmo 30)" devices_gone
topo_cleanup

# -- the client's namespace deleted: it goes with the client
if [ "$(by_mode 1 0)" = 1 ]; then
	up
	if load ns.; then
		ip netns del "$NS_A"
		NS_A=''
	else
		ktap_fail "the namespace deleted under load: the load did not start"
	fi
	unload
	check "the namespace deleted under load: its device is gone once its last process is" \
		wait_for "$(tmo 60)" devices_gone
	topo_cleanup
fi

# -- the module unloaded under load: uverbs holds it while the tools have
# it open (mrc does not disassociate their contexts), so modprobe -r is
# refused, at once; once they exit it unloads
up
if load rmmod.; then
	timeout "$TMO" modprobe -r mrc >"$LOGS/rmmod" 2>&1
	rc=$?
	ktap_info "modprobe -r mrc under load: exit $rc, $(head -c 200 "$LOGS/rmmod")"
	check "modprobe -r mrc under load returns" test "$rc" != 124
else
	ktap_fail "modprobe -r mrc under load: the load did not start"
fi
unload
unloaded() { ! grep -q '^mrc ' /proc/modules || modprobe -r mrc; ! grep -q '^mrc ' /proc/modules; }
check "once the tools exit, the module unloads" wait_for "$(tmo 60)" unloaded
topo_cleanup
up
check "after the unload: the module loads again and a new pair moves data" works
ktap_finish
