# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the mrcctl host tests (test-fabric.sh, test-mock.sh).

dir=$(cd "$(dirname "$0")" && pwd)
MRCCTL=${MRCCTL:-$dir/mrcctl}
[ -x "$MRCCTL" ] || { echo "build mrcctl first (make -C tools/mrcctl)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# shellcheck source=tests/selftests/jq.sh
source "$dir/../../tests/selftests/jq.sh"

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() {
	fail=$((fail + 1))
	echo "not ok - $1"
	shift
	printf '%s\n' "$@" | sed 's/^/#   /'
}

# expect DESC WANT_RC WANT_STDOUT_FILE WANT_STDERR_SUBSTRING -- ARGS...:
# run mrcctl ARGS; an empty WANT_* is not checked
expect() {
	local desc=$1 rc=$2 out=$3 err=$4 got_rc
	shift 5
	"$MRCCTL" "$@" >"$tmp/out" 2>"$tmp/err" && got_rc=0 || got_rc=$?
	if [ "$got_rc" != "$rc" ]; then
		not_ok "$desc" "exit $got_rc, want $rc" "$(cat "$tmp/err")"
	elif [ -n "$out" ] && ! diff -u "$out" "$tmp/out" >"$tmp/diff"; then
		not_ok "$desc" "$(cat "$tmp/diff")"
	elif [ -n "$err" ] && ! grep -qF -- "$err" "$tmp/err"; then
		not_ok "$desc" "stderr lacks: $err" "got: $(cat "$tmp/err")"
	else
		ok "$desc"
	fi
}

# expect_lines DESC WANT -- ARGS...: mrcctl ARGS succeeds and prints WANT
expect_lines() {
	local desc=$1
	printf '%s\n' "$2" >"$tmp/want"
	shift 3
	expect "$desc" 0 "$tmp/want" "" -- "$@"
}

# check DESC CMD...: CMD succeeds
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "$*" "$out"
	fi
}

finish() {
	echo "# $1: $pass passed, $fail failed"
	[ "$fail" = 0 ]
}
