#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# An in-kernel ULP over mrc: NVMe over RDMA (nvmet-rdma target, nvme-rdma
# host), both in the initial namespace as those drivers require, on the
# topo_host topology (a veth pair with policy routing, so that every packet
# crosses the veth):
#
#   host nvme-rdma -- mrc..a -- va.. ==veth== vb.. -- mrc..b -- nvmet-rdma
#                                                              (loop device)
#
# The NVMe host registers its I/O buffers with fast registration (REG_MR,
# LOCAL_INV, remote invalidation by SEND_WITH_INV), the target moves data
# with RDMA READ and WRITE from kernel QPs, and teardown drains the QPs
# (flush completions). A pattern is written through NVMe and read back.
# MRC_QUICK=1: a 1 MiB pattern (8 I/Os of 128 KiB each way) instead of 8 MiB.
# The waits (connect, disconnect) are hang guards, times MRC_TIMEOUT_SCALE.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root

for m in nvmet nvmet-rdma nvme-rdma loop; do
	modprobe -q "$m" 2>/dev/null ||
		{ echo "# no $m module in this kernel: NVMe over RDMA not testable"; exit "$KSFT_SKIP"; }
done
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config

NQN=mrc-test-$$
CFG=/sys/kernel/config/nvmet
WORK=$(mktemp -d /tmp/mrc_ulp.XXXXXX)
LOOPDEV=''
cleanup() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/subsysnqn" ] && [ "$(cat "$c/subsysnqn")" = "$NQN" ] &&
			echo 1 >"$c/delete_controller" 2>/dev/null
	done
	rm -f "$CFG/ports/1/subsystems/$NQN" 2>/dev/null
	rmdir "$CFG/ports/1" 2>/dev/null
	echo 0 >"$CFG/subsystems/$NQN/namespaces/1/enable" 2>/dev/null
	rmdir "$CFG/subsystems/$NQN/namespaces/1" "$CFG/subsystems/$NQN" 2>/dev/null
	[ -z "$LOOPDEV" ] || losetup -d "$LOOPDEV" 2>/dev/null
	topo_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
ktap_header 7

topo_host mrc >"$WORK/topo" 2>&1
topo_rc=$?
check "mrc pair up (topo_host)" sh -c "[ $topo_rc = 0 ] || cat $WORK/topo; [ $topo_rc = 0 ]"

target_up() {
	truncate -s 64M "$WORK/disk" &&
		LOOPDEV=$(losetup -f --show "$WORK/disk") &&
		mkdir "$CFG/subsystems/$NQN" &&
		echo 1 >"$CFG/subsystems/$NQN/attr_allow_any_host" &&
		mkdir "$CFG/subsystems/$NQN/namespaces/1" &&
		echo -n "$LOOPDEV" >"$CFG/subsystems/$NQN/namespaces/1/device_path" &&
		echo 1 >"$CFG/subsystems/$NQN/namespaces/1/enable" &&
		mkdir "$CFG/ports/1" &&
		echo rdma >"$CFG/ports/1/addr_trtype" &&
		echo ipv4 >"$CFG/ports/1/addr_adrfam" &&
		echo "$IP_B" >"$CFG/ports/1/addr_traddr" &&
		echo 4420 >"$CFG/ports/1/addr_trsvcid" &&
		ln -s "$CFG/subsystems/$NQN" "$CFG/ports/1/subsystems/$NQN"
}
# target_up sets LOOPDEV: run it here, not in check's subshell
target_up >"$WORK/target" 2>&1
t_rc=$?
ktap_info "target on $IP_B, mrc device $DEV_B"
check "nvmet-rdma target listening on $IP_B" \
	sh -c "[ $t_rc = 0 ] || cat $WORK/target; [ $t_rc = 0 ]"

ctrl_of_nqn() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/subsysnqn" ] && [ "$(cat "$c/subsysnqn")" = "$NQN" ] &&
			{ basename "$c"; return 0; }
	done
	return 1
}
connect() {
	echo "transport=rdma,traddr=$IP_B,trsvcid=4420,nqn=$NQN,host_traddr=$IP_A,nr_io_queues=2" \
		>/dev/nvme-fabrics && wait_for "$(tmo 60)" ctrl_of_nqn
}
check "nvme-rdma host connects over mrc" connect
CTRL=$(ctrl_of_nqn)
# the namespace's block device hangs off its subsystem (native multipath)
blk_of_nqn() {
	local s n
	for s in /sys/class/nvme-subsystem/*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		for n in "$s"/nvme*n1; do
			[ -b "/dev/${n##*/}" ] && { echo "/dev/${n##*/}"; return 0; }
		done
	done
	for n in /sys/class/nvme/"$CTRL"/nvme*n1; do	# without multipath
		[ -b "/dev/${n##*/}" ] && { echo "/dev/${n##*/}"; return 0; }
	done
	return 1
}
wait_for "$(tmo 30)" blk_of_nqn
BLK=$(blk_of_nqn)

MIB=$(by_mode 8 1)
BYTES=$((MIB << 20))
io() {
	[ -b "$BLK" ] || { echo "no NVMe block device"; return 1; }
	head -c "$BYTES" /dev/urandom >"$WORK/pattern" &&
		dd if="$WORK/pattern" of="$BLK" bs=128k oflag=direct status=none &&
		dd if="$BLK" of="$WORK/back" bs=128k count=$((BYTES >> 17)) iflag=direct status=none &&
		cmp "$WORK/pattern" "$WORK/back"
}
ktap_info "NVMe block device: ${BLK:-none}"
check "$MIB MiB pattern written through NVMe/RDMA and read back equal" io
check "the backing file holds the same bytes" \
	sh -c "cmp -n $BYTES $WORK/pattern $LOOPDEV"
check "mrc counted the traffic" \
	test "$(rdma -j statistic show link "$DEV_B/1" | jq -r '.[0].rx_bytes')" -gt "$BYTES"
disconnect() {
	echo 1 >"/sys/class/nvme/$CTRL/delete_controller" && wait_for "$(tmo 60)" sh -c "! ls /sys/class/nvme/$CTRL"
}
check "nvme controller deleted (QPs drained and destroyed)" disconnect
ktap_finish
