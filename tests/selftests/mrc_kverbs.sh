#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What only a kernel ULP can ask of mrc: ib_post_send() with WRs as
# structures (user QPs post through their ring). The test module
# tests/kverbs/mrc_kverbs.ko connects an RC QP to itself on $DEV_A
# (topo_ns) and runs one case per load:
#
#   sge_wrap      a SEND whose SGE lengths add up to 4 GiB + 16 bytes is
#                 refused with EINVAL, inline or not (a 32-bit sum takes it
#                 for 16 bytes, and the inline copy overran the ring slot)
#   cq_resize     ib_resize_cq() of a CQ polled and armed in hard interrupt
#                 context (a hardware driver's completion handler does
#                 that): lockdep (the KASAN kernel) sees cq->lock and
#                 poll_lock always taken with interrupts off, and the two
#                 completions in the CQ survive the resize
#   reset_sq      the QP moved to RESET and connected again: a SEND it had
#                 sent (waiting out RNR NAKs) is not sent again
#   reset_rq      the same: a receive it had posted does not take the next
#                 SEND (IBA: RESET empties the work queues, without
#                 completions)
#   reg_unmapped  IB_WR_REG_MR of an MR never given to ib_map_mr_sg(): a
#                 WRITE through its key fails on the MR's bounds (length 0;
#                 bounds_violations counts it), before anything could
#                 divide by its page size of 0
#
# And raw uverbs commands libibverbs never sends (mrc_uverbs.py): a CQ
# resize whose response the kernel cannot write fails with EFAULT and
# leaves the CQ as it was (the old code made the new ring live first and
# leaked the old one: closing the device file warned).
#
# A kernel report (KASAN, UBSAN, oops) fails the run. MRC_QUICK has no
# effect: each case is one post.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and trap
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root

for t in rdma jq; do
	command -v $t >/dev/null || { echo "# $t missing"; exit "$KSFT_SKIP"; }
done
modprobe -q mrc
if ! modinfo mrc_kverbs >/dev/null 2>&1; then
	echo "# no mrc_kverbs module (tests/kverbs)"
	exit "$KSFT_SKIP"
fi

cleanup() {
	modprobe -q -r mrc_kverbs 2>/dev/null
	topo_cleanup
}
trap cleanup EXIT
ktap_header 6
topo_ns mrc || { echo "# topology failed"; exit "$KSFT_FAIL"; }

# warnings: the kernel's WARNINGs so far (lockdep's reports are such too)
warnings() { dmesg | grep -c 'WARNING:'; }
# new_warnings SINCE: fails, showing them, if there are more than SINCE
new_warnings() {
	[ "$(warnings)" = "$1" ] && return 0
	dmesg | grep -A4 'WARNING:' | tail -n 10
	return 1
}

# kverbs TEST: load the module for TEST, print its result; no new WARNING
kverbs() {
	local r w
	w=$(warnings)
	modprobe -r mrc_kverbs 2>/dev/null
	modprobe mrc_kverbs dev="$DEV_A" gid="$GID_A" test="$1" || return 1
	r=$(cat /sys/module/mrc_kverbs/parameters/result)
	modprobe -r mrc_kverbs
	echo "$r"
	[ "$r" = pass ] && new_warnings "$w"
}

# counter NAME: a counter of $DEV_A
counter() {
	netns "$NS_A" rdma -j statistic show link "$DEV_A/1" | jq -r ".[0].$1"
}

# reg_unmapped: the WRITE fails where the responder checks the MR's bounds
reg_unmapped() {
	local b0 b1
	b0=$(counter bounds_violations)
	kverbs reg_unmapped || return 1
	b1=$(counter bounds_violations)
	echo "bounds_violations $b0 -> $b1"
	[ "$b1" -gt "$b0" ]
}

check "kernel SEND with SGE lengths wrapping 32 bits refused" kverbs sge_wrap
# resize_efault: nothing may warn either (the close of the device file)
resize_efault() {
	local w
	w=$(warnings)
	python3 "$DIR/mrc_uverbs.py" resize-efault "$DEV_A" && new_warnings "$w"
}

check "REG_MR without map_mr_sg: WRITE through it fails" reg_unmapped
check "resize_cq of a CQ armed in hard IRQ keeps its completions" kverbs cq_resize
check "resize_cq with an unwritable response leaves the CQ as it was" resize_efault
check "RESET empties the send queue" kverbs reset_sq
check "RESET empties the receive queue" kverbs reset_rq
ktap_finish
