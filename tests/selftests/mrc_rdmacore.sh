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
# All modules run in one python process (a module's result: each of its
# tests reports, none fails). Then, as this rdma-core's tests post ATOMIC
# WRITE on one device only and FLUSH not at all (its rxe provider has no
# ibv_wr_flush), mrc_uverbs.py mpe writes both into the send ring of a QP
# on side A for one on side B, across the veth: data placed, completion
# statuses and opcodes, the capability bits, and the refusals (no remote
# write or FLUSH access: remote access error; see mrc_uverbs.py); then
# mpe-replay under netem loss 10 %, duplication 20 % and 2 +- 2 ms of
# jitter both ways: rounds of an ATOMIC WRITE and a WRITE to one slot,
# whose WRITE's bytes must stay, whatever copies of the ATOMIC WRITE come
# late or again (32 rounds, 16 with MRC_QUICK=1). Then mrc_uverbs_modify.py's
# rereg (new translation, access and PD: WRITEs from side A show the new
# keys and memory used and the old keys refused), srq-resize (WQEs posted
# before a resize receive SENDs after it; too few slots: EINVAL) and
# create-flags (refused with EOPNOTSUPP as on rxe).
# Tests a module may skip but mrc must pass are named in MUST_PASS: each
# must be "ok" (a skip fails the case): the memory window tests (MWTest,
# rc_bind_mw). mrc_mw.py then checks a window across the veth: a
# WRITE through its rkey lands, one through it invalidated (or with
# another key byte) ends in a remote access error, and the responder's
# QP, reset, works again.
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
MUST_PASS=(
	tests.test_mr.MWTest.test_mw_type1
	tests.test_mr.MWTest.test_mw_type2
	tests.test_mr.MWTest.test_invalidate_mw_type1
	tests.test_mr.MWTest.test_mw_type2_invalidate_local
	tests.test_mr.MWTest.test_mw_type2_invalidate_remote
	tests.test_mr.MWTest.test_mw_type2_invalidate_dealloc
	tests.test_mr.MWTest.test_reg_mw_wrong_type
	tests.test_qpex.QpExTestCase.test_qp_ex_rc_bind_mw
)

require_tools rdma jq tc
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
ktap_header $((${#MODULES[@]} + 9))

topo_ns mrc >"$WORK/topo" 2>&1
topo_rc=$?
check "mrc pair up (topo_ns)" sh -c "[ $topo_rc = 0 ] || cat $WORK/topo; [ $topo_rc = 0 ]"
cp -r "$SUITE" "$WORK/tests" && gunzip -f "$WORK"/tests/*.gz
# the tests package imports every test_*.py it holds (mlx5's, efa's, ...):
# keep only the modules run here, each import costs under TCG
drop=()
for f in "$WORK"/tests/test_*.py; do
	n=${f##*/}
	[[ " ${MODULES[*]} " == *" ${n%.py} "* ]] || drop+=("$f")
done
rm -f "${drop[@]}"
sed -i "s/^POLL_CQ_TIMEOUT = 10\b/POLL_CQ_TIMEOUT = $(tmo 10)/" "$WORK/tests/utils.py"
cd "$WORK/tests" || exit 1
python3 run_tests.py --list-tests >"$WORK/all" 2>/dev/null

# One python process runs every module's tests (a start with pyverbs costs
# seconds under TCG), as run_tests.py does, with a result class that also
# writes each test's outcome, one line each, to results.
cat >run_mrc.py <<'PY'
import os, sys, unittest
from importlib.machinery import SourceFileLoader
from args_parser import parser
out = open(os.environ['MRC_RESULTS'], 'w', buffering=1)
class Recorded(unittest.TextTestResult):
    def _rec(self, test, what):
        out.write('%s %s\n' % (test.id(), what))
    def addSuccess(self, test):
        super().addSuccess(test); self._rec(test, 'ok')
    def addSkip(self, test, reason):
        super().addSkip(test, reason); self._rec(test, 'skip')
    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err); self._rec(test, 'ok')
    def addFailure(self, test, err):
        super().addFailure(test, err); self._rec(test, 'FAIL')
    def addError(self, test, err):
        super().addError(test, err); self._rec(test, 'ERROR')
    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test); self._rec(test, 'FAIL')
tests = SourceFileLoader('tests', os.path.join(os.path.dirname(__file__), '__init__.py')).load_module()
parser.parse_args()
unittest.main(module=tests, testRunner=unittest.TextTestRunner(resultclass=Recorded))
PY
ids=()
for m in "${MODULES[@]}"; do
	mapfile -t -O "${#ids[@]}" ids < <(grep "^tests\.$m\." "$WORK/all")
done
# (the hang guard: 300 s a module)
MRC_RESULTS=$WORK/results timeout "$(tmo $((300 * ${#MODULES[@]})))" \
	python3 run_mrc.py --dev "$DEV_A" --gid "$GID_A" "${ids[@]}" >"$WORK/run.log" 2>&1
rc=$?
[ $rc = 0 ] || ktap_info "run_tests: exit $rc"

# a module passes when the run finished and its tests have results, none
# FAIL or ERROR (a class that skips in setUpClass has one result for all)
done_run=0
grep -q '^Ran [0-9]' "$WORK/run.log" && done_run=1
# an error outside a test (a module that did not load, a setUpClass)
# fails them all
if grep -v '^tests\.' "$WORK/results" | grep -qE ' (FAIL|ERROR)$'; then
	ktap_info "errors outside any one test:"
	grep -v '^tests\.' "$WORK/results" | head -5 | sed 's/^/#   /'
	done_run=0
fi
for m in "${MODULES[@]}"; do
	if ! grep -q "^tests\.$m\." "$WORK/all"; then
		ktap_skip "rdma-core tests: $m (not in this rdma-core)"
		continue
	fi
	res=$(grep -E "(^| \()tests\.$m\." "$WORK/results")
	bad=$(echo "$res" | grep -E ' (FAIL|ERROR)$')
	if [ "$done_run" = 1 ] && [ -n "$res" ] && [ -z "$bad" ]; then
		ktap_pass "rdma-core tests: $m"
		ktap_info "  ran $(echo "$res" | grep -c .), skipped $(echo "$res" | grep -c ' skip$')"
	else
		ktap_fail "rdma-core tests: $m"
		[ "$done_run" = 1 ] || ktap_info "  the run did not finish"
		[ -n "$res" ] || ktap_info "  no test of it has a result"
		echo "$bad" | head -8 | sed '/^$/d; s/^/#   /'
		grep -A12 -E "^(FAIL|ERROR): .*tests\.$m\." "$WORK/run.log" | head -30 | sed 's/^/#   /'
	fi
done
# UC QPs: rxe passes these five; on mrc each must pass by name (a skip,
# "UC not supported", fails here)
uc_ok() {
	local t bad=0
	for t in create_uc_qp_no_attr create_uc_qp_with_attr \
		create_uc_qp_ex_no_attr create_uc_qp_ex_with_attr query_uc_qp; do
		grep -qx "tests\.test_qp\.QPTest\.test_$t ok" "$WORK/results" && continue
		echo "test_$t: $(grep "\.test_$t " "$WORK/results" || echo 'no result')"
		bad=1
	done
	return "$bad"
}
check "rdma-core tests: the 5 UC QP tests of test_qp pass" uc_ok
# must_pass: every test of MUST_PASS ran and passed
must_pass() {
	local t res bad=0
	for t in "${MUST_PASS[@]}"; do
		res=$(grep "^$t " "$WORK/results" | cut -d' ' -f2)
		echo "$t: ${res:-no result}"
		[ "$res" = ok ] || bad=1
	done
	return "$bad"
}
check "memory windows: the ${#MUST_PASS[@]} pyverbs MW tests ok by name" must_pass
# mw: what it checked is shown, passed or not
mw() {
	timeout "$(tmo 120)" python3 "$DIR/mrc_mw.py" "$DEV_A" "$GID_A" \
		"$DEV_B" "$GID_B" 2>&1 | tee "$WORK/mw.out"
	[ "${PIPESTATUS[0]}" = 0 ]
}
# mpe: what it checked is shown, passed or not
mpe() {
	timeout "$(tmo 120)" python3 "$DIR/mrc_uverbs.py" mpe "$DEV_A" "$GID_A" \
		"$DEV_B" "$GID_B" 2>&1 | tee "$WORK/mpe.out"
	[ "${PIPESTATUS[0]}" = 0 ]
}
# mpe_replay: its rounds on a path that loses, duplicates and reorders
mpe_replay() {
	local d0 d1 rc
	d0=$(dups)
	topo_netem loss 10% duplicate 20% delay 2ms 2ms || return 1
	timeout "$(tmo 300)" python3 "$DIR/mrc_uverbs.py" mpe-replay "$DEV_A" "$GID_A" \
		"$DEV_B" "$GID_B" "$(by_mode 32 16)" 2>&1 |
		tee -a "$WORK/mpe.out"
	rc=${PIPESTATUS[0]}
	topo_netem_clear
	d1=$(dups)
	echo "duplicates at side B: $d0 -> $d1" |
		tee -a "$WORK/mpe.out"
	return "$rc"
}
dups() {
	netns "$NS_B" rdma -j statistic show link "$DEV_B/1" | jq -r '.[0].duplicates'
}
cd / || exit 1
check "memory window from side A to side B: lands, invalidated fails (mrc_mw.py)" mw
sed 's/^/#   /' "$WORK/mw.out"
# (the verbs came with 6.2: before, mrc claims neither)
if [ "$(printf '%s\n' 6.2 "$(uname -r)" | sort -V | head -1)" != 6.2 ]; then
	ktap_skip "ATOMIC WRITE and FLUSH (mrc_uverbs.py mpe): kernel before 6.2"
	ktap_skip "ATOMIC WRITE replays (mpe-replay): kernel before 6.2"
else
	check "ATOMIC WRITE and FLUSH from side A to side B (mrc_uverbs.py mpe)" mpe
	check "ATOMIC WRITE resent or duplicated never runs again (mpe-replay, netem)" \
		mpe_replay
	sed 's/^/#   /' "$WORK/mpe.out"
fi
# what the suite cannot reach through rdma-core 44's rxe provider (no
# ibv_rereg_mr) or does not test (SRQ resize), and the creation flags
uverbs_case() {
	timeout "$(tmo 180)" python3 "$DIR/mrc_uverbs_modify.py" "$@" 2>&1 |
		tee "$WORK/case.out"
	[ "${PIPESTATUS[0]}" = 0 ]
}
for c in "rereg_mr: new translation, access and PD; old keys refused (mrc_uverbs_modify.py rereg)|rereg" \
	 "SRQ resize keeps posted WQEs, refuses too few slots (mrc_uverbs_modify.py srq-resize)|srq-resize"; do
	check "${c%|*}" uverbs_case "${c#*|}" "$DEV_A" "$GID_A" "$DEV_B" "$GID_B"
	sed 's/^/#   /' "$WORK/case.out"
done
check "creation flags refused as on rxe (mrc_uverbs_modify.py create-flags)" \
	uverbs_case create-flags "$DEV_A"
sed 's/^/#   /' "$WORK/case.out"
ktap_finish
