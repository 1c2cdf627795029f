#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
#
# libmrc's host tests (no device, no root): the OCP structures' layout,
# the library exports exactly the functions the headers declare, a
# program built for API 1.0.0 (no _ex calls, the short EV event) still
# builds, the pkg-config file, and the examples' usage errors.
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ./tests/mrc_abi_test; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

# every function the headers declare, and nothing else, is exported
sed -n 's/^[a-z].*\b\(mrc_[a-z_]*\)(.*/\1/p; s/^\(mrc_[a-z_]*\)(.*/\1/p' \
	include/mrc.h include/mrc_ctl.h | sort -u >"$tmp/declared"
nm -D --defined-only libmrc.so | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	sort -u >"$tmp/exported"
if [ "$(wc -l <"$tmp/declared")" = 41 ] && cmp -s "$tmp/declared" "$tmp/exported"; then
	ok "41 functions declared, the same exported"
else
	nok "declared and exported functions differ"
	diff "$tmp/declared" "$tmp/exported" | sed 's/^/# /'
fi

# an older program: API 1.0.0 has no _ex calls and a 48-byte EV event
cat >"$tmp/old.c" <<'C'
#define MRC_API_VER_USED MRC_API_VER(1, 0, 0)
#define MRC_CTL_API_VER_USED MRC_CTL_API_VER(1, 0, 0)
#include <mrc_ctl.h>
_Static_assert(sizeof(struct mrc_ctl_ev_event) == 48, "1.0.0 event");
int main(void) { return mrc_query_device(0, 0, 0) == -1 ? 0 : 1; }
C
if ${CC:-cc} -Wall -Werror -Iinclude -o "$tmp/old" "$tmp/old.c" -L. -lmrc -libverbs &&
	LD_LIBRARY_PATH=. "$tmp/old"; then
	ok "a program for API 1.0.0 builds and links"
else
	nok "a program for API 1.0.0"
fi

if PKG_CONFIG_PATH=. pkg-config --cflags --libs libmrc | grep -q -- '-lmrc'; then
	ok "libmrc.pc"
else
	nok "libmrc.pc"
fi
[ -L lib_mrc.so ] && [ -e lib_mrc.so ] && ok "lib_mrc.so, the name OCP's makefiles link" ||
	nok "lib_mrc.so"

for ex in examples/mrc_ev_events examples/mrc_ev_probe examples/mrc_ev_profile \
	examples/mrc_write_bw; do
	if [ ! -x "$ex" ]; then nok "${ex##*/}: not built"; continue; fi
	"$ex" --bogus-option >/dev/null 2>&1
	rc=$?
	if [ "$rc" = 2 ]; then ok "${ex##*/}: a usage error exits 2"; else nok "${ex##*/}: usage error exit $rc"; fi
done

echo "# libmrc host: $pass passed, $fail failed"
[ "$fail" = 0 ]
