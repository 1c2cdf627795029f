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
#   srq_resize    ib_modify_srq() of a kernel SRQ's size with receives
#                 posted: below their number EINVAL, above it they stay
#                 and, with more posted after, take SENDs in order
#   reg_unmapped  IB_WR_REG_MR of an MR never given to ib_map_mr_sg(): a
#                 WRITE through its key fails on the MR's bounds (length 0;
#                 bounds_violations counts it), before anything could
#                 divide by its page size of 0
#
# And raw uverbs commands libibverbs never sends (mrc_uverbs.py, which
# says what each asserts): a CQ resize whose response the kernel cannot
# write fails with EFAULT and leaves the CQ as it was (the old code made
# the new ring live first and leaked the old one: closing the device file
# warned); object floods to query_device's max_* and one past it (ENOMEM,
# and the device counts exactly max_*); absurd attributes (EINVAL or
# ENOMEM); random bytes written over the mapped rings of connected RC QPs
# and their CQ, then the doorbell, after which a fresh ibv_rc_pingpong -c
# pair still moves checked data; a process in a memory cgroup is charged
# for its rings and cannot create them beyond memory.max; rdma res show
# qp -dd reports a QP's memory.
#
# A kernel report (KASAN, UBSAN, oops) fails the run; so does a WARNING
# in dmesg during a case, and kmemleak in the leak group. MRC_QUICK=1
# floods CQs and AHs (the cheapest objects) and runs 5 garbage rounds;
# the full mode floods SRQs and MRs too and runs 30 rounds. QPs are
# flooded where make check-full gives the VM the memory (Debian's kernel,
# 6 GiB): a UD QP of one WR costs about 30 KiB of kernel memory, more
# with KASAN and kmemleak, so 65536 of them do not fit the test kernel's
# 3 GiB.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and trap
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root

require_tools rdma jq ibv_rc_pingpong
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
if [ "${MRC_QUICK:-0}" = 1 ]; then
	FLOODS=(cq ah) ROUNDS=5
else
	FLOODS=(cq srq ah mr) ROUNDS=30
fi
# MRC_KVERBS_FLOODS="qp mr": those floods instead (make check-full adds
# qp where the VM has the memory; one alone chases a failure)
# shellcheck disable=SC2206 # a word list
[ -z "${MRC_KVERBS_FLOODS:-}" ] || FLOODS=($MRC_KVERBS_FLOODS)
ktap_header $((11 + ${#FLOODS[@]}))
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
check "kernel SRQ resize keeps its receives, refuses too few slots" kverbs srq_resize

# uverbs MODE ARGS...: mrc_uverbs.py MODE $DEV_A ARGS...; no new WARNING
uverbs() {
	local w mode=$1
	shift
	w=$(warnings)
	# (what passed is kept too: the counts and times it printed)
	python3 "$DIR/mrc_uverbs.py" "$mode" "$DEV_A" "$@" 2>&1 |
		tee -a "${MRC_TEST_LOGS:-/tmp}/mrc_uverbs.out"
	[ "${PIPESTATUS[0]}" = 0 ] && new_warnings "$w"
}

# pingpong: a fresh RC QP pair moves data, every byte checked (-c)
pingpong() {
	local spid rc
	# ip netns exec itself: $! must be the process in the namespace, or
	# wait_listen cannot see the server listen and waits its whole guard
	ip netns exec "$NS_B" timeout -k 5 "$(tmo 60)" ibv_rc_pingpong -d "$DEV_B" \
		-g "$GID_B" -p 18515 -n 20 -c &
	spid=$!
	wait_listen "$NS_B" tcp 18515 "$spid" || echo "server did not listen"
	netns "$NS_A" timeout -k 5 "$(tmo 60)" ibv_rc_pingpong -d "$DEV_A" \
		-g "$GID_A" -p 18515 -n 20 -c "$IP_B"
	rc=$?
	wait "$spid" && [ "$rc" = 0 ]
}

# garbage: garbage rings on $DEV_A, then the device still moves data
garbage() {
	uverbs garbage "$GID_A" "${MRC_SEED:-$RANDOM}" "$ROUNDS" && pingpong
}

# memcg: mrc_uverbs.py in a memory cgroup of its own
memcg() {
	local cg=/sys/fs/cgroup/mrc-kverbs-$$ rc
	grep -qw memory /sys/fs/cgroup/cgroup.controllers || {
		echo "no memory controller"
		return 1
	}
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir "$cg" || return 1
	uverbs memcg "$cg"
	rc=$?
	rmdir "$cg"
	return "$rc"
}

for f in "${FLOODS[@]}"; do
	check "$f flood: max_$f created, one more is ENOMEM" uverbs flood "$f"
done
check "absurd attributes refused with EINVAL or ENOMEM" uverbs attrs
check "garbage in mapped rings: no report, data still moves" garbage
check "rings are charged to the memory cgroup, ENOMEM at its limit" memcg
check "rdma res show qp -dd reports the QP's ring and window bytes" uverbs res-qp
ktap_finish
