#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma-core's own test suite (pyverbs, shipped by Debian's python3-pyverbs
# in /usr/share/doc/rdma-core/tests), unmodified, against an mrc device:
# device/port queries, PD, MR, CQ (and CQ events), QP state machine and
# traffic over RC/UC/UD with the old and the new (ibv_wr_*) send API,
# atomics, address handles, fork safety. Most of its traffic runs between
# two QPs of the same device (mrc's loopback). One KTAP case per module;
# a module passes when unittest says OK (skips are the suite's own: tests
# for other vendors' hardware or features the rxe provider lacks).
#
# Left out, as mrc does not support it (README): IBV_WR_ATOMIC_WRITE.
# MRC_QUICK=1 changes nothing: the suite's tests are small already (10
# messages each) and are run unmodified. Its only time limit, 10 s for a
# CQ poll (utils.py), and our 300 s per module are hang guards: both are
# multiplied by MRC_TIMEOUT_SCALE.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root

SUITE=/usr/share/doc/rdma-core/tests
MODULES=(test_device test_pd test_mr test_cq test_cq_events test_qp test_qpex
	 test_atomic test_addr test_fork)
UNSUPPORTED='atomic_write'

if [ ! -f "$SUITE/run_tests.py" ] || ! python3 -c 'import pyverbs' 2>/dev/null; then
	echo "# rdma-core tests need python3-pyverbs"
	exit "$KSFT_SKIP"
fi

WORK=$(mktemp -d /tmp/mrc_rdmacore.XXXXXX)
cleanup() {
	topo_cleanup
	rm -rf "$WORK"
}
trap cleanup EXIT
ktap_header $((${#MODULES[@]} + 1))

topo_ns mrc >"$WORK/topo" 2>&1
topo_rc=$?
check "mrc pair up (topo_ns)" sh -c "[ $topo_rc = 0 ] || cat $WORK/topo; [ $topo_rc = 0 ]"
cp -r "$SUITE" "$WORK/tests" && gunzip -f "$WORK"/tests/*.gz
sed -i "s/^POLL_CQ_TIMEOUT = 10\b/POLL_CQ_TIMEOUT = $(tmo 10)/" "$WORK/tests/utils.py"
cd "$WORK/tests" || exit 1
python3 run_tests.py --list-tests >"$WORK/all" 2>/dev/null

for m in "${MODULES[@]}"; do
	mapfile -t ids < <(grep "^tests\.$m\." "$WORK/all" | grep -Ev "$UNSUPPORTED")
	if [ ${#ids[@]} = 0 ]; then
		ktap_skip "rdma-core tests: $m (not in this rdma-core)"
		continue
	fi
	mlog=$WORK/$m.log
	timeout "$(tmo 300)" \
		python3 run_tests.py --dev "$DEV_A" --gid "$GID_A" "${ids[@]}" >"$mlog" 2>&1
	rc=$?
	ran=$(sed -n 's/^Ran \([0-9]*\) tests\?.*/\1/p' "$mlog")
	skipped=$(sed -n 's/.*skipped=\([0-9]*\).*/\1/p' "$mlog" | tail -1)
	if [ $rc = 0 ] && grep -q '^OK' "$mlog"; then
		ktap_pass "rdma-core tests: $m"
		ktap_info "  ran ${ran:-?}, skipped ${skipped:-0}"
	else
		ktap_fail "rdma-core tests: $m"
		ktap_info "  exit $rc"
		grep -E '^(FAIL|ERROR):|Error|^Ran|^FAILED' "$mlog" | head -12 | sed 's/^/#   /'
	fi
done
ktap_finish
