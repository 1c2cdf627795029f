#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run mrc's KUnit suites: load mrc_kunit (which needs a kernel with
# CONFIG_KUNIT, like the test kernel) and print each suite's KTAP results.
# Exit status 0 when every case passed.
set -u
D=/sys/kernel/debug/kunit
[ -d $D ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
if [ ! -d $D ]; then
	echo "# this kernel has no KUnit (CONFIG_KUNIT); use the test kernel"
	exit 4
fi
modprobe -r mrc_kunit 2>/dev/null
if ! out=$(modprobe mrc_kunit 2>&1); then
	echo "not ok 1 load mrc_kunit # $out"
	exit 1
fi
rc=0
suites=0
for s in "$D"/mrc_*; do
	[ -f "$s/results" ] || continue
	suites=$((suites + 1))
	cat "$s/results"
	grep -qE '^\s*not ok ' "$s/results" && rc=1
	grep -qE '^ok [0-9]+ ' "$s/results" || rc=1	# the suite never finished
done
[ "$suites" -gt 0 ] || { echo "not ok 1 no mrc KUnit suite ran"; rc=1; }
modprobe -r mrc_kunit
exit $rc
