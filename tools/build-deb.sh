#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/build-deb.sh [OUTDIR]: the Debian packages of mrc (make deb).
#
# Copies the files git tracks (as they are in the work tree) to
# OUTDIR/mrc-VERSION (default build/deb), writes debian/changelog there
# from the VERSION file, builds the binary packages with dpkg-buildpackage
# (debhelper, dh-dkms) and checks them with lintian, which fails the build
# on an error or a warning. Prints the packages' paths.
#
#   mrc-dkms     mrc.ko's source in /usr/src/mrc-VERSION for DKMS
#   mrc-utils    mrcctl, mrcctl(8), its bash completion; mrc.service and
#                mrc-generator, the example /etc/mrc/mrc.conf; mrc.lua in
#                Wireshark's global Lua plugin folder
#   libmrc0      libmrc.so.0 (the OCP MRC API)
#   libmrc-dev   its headers, libmrc.so, lib_mrc.so, libmrc.pc, libmrc(3),
#                the examples
#
# Environment: MRC_DEB_NOCHECK=1 skips the host tests of mrcctl and libmrc
# during the build (DEB_BUILD_OPTIONS=nocheck).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$REPO/build/deb}
VERSION=$(cat "$REPO/VERSION")
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "build-deb: VERSION: '$VERSION' is not MAJOR.MINOR.PATCH" >&2; exit 2; }
for t in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$t" >/dev/null || { echo "build-deb: $t missing: run make setup" >&2; exit 2; }
done
git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 || { echo "build-deb: $REPO is not a git work tree" >&2; exit 2; }

SRC=$OUT/mrc-$VERSION
mkdir -p "$OUT"
rm -rf "$SRC" "$OUT/dbgsym" "$OUT"/*.deb "$OUT"/*.ddeb "$OUT"/*.changes "$OUT"/*.buildinfo
mkdir -p "$SRC"
# tracked files, with their work-tree contents (uncommitted edits included)
git -C "$REPO" ls-files -z --cached | (cd "$REPO" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$REPO" && tar --null -T - -cf -) | tar -C "$SRC" -xf -

# the changelog: its version is VERSION (a native package)
desc=$(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)
date=$(git -C "$REPO" log -1 --format=%aD 2>/dev/null || date -R)
maint=$(sed -n 's/^Maintainer: //p' "$SRC/debian/control")
cat >"$SRC/debian/changelog" <<EOF
mrc ($VERSION) unstable; urgency=medium

  * mrc $VERSION, built from git $desc.

 -- $maint  $date
EOF

[ "${MRC_DEB_NOCHECK:-0}" = 0 ] || export DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}"
LOG=$OUT/build.log
if ! (cd "$SRC" && dpkg-buildpackage -b -us -uc) >"$LOG" 2>&1; then
	tail -40 "$LOG" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $LOG)" >&2
	exit 1
fi
changes=$(ls "$OUT"/mrc_"$VERSION"_*.changes)
if ! lintian --fail-on error,warning "$changes" >"$OUT/lintian.txt" 2>&1; then
	cat "$OUT/lintian.txt" >&2
	echo "build-deb: lintian found errors or warnings" >&2
	exit 1
fi
grep -v 'running with root privileges' "$OUT/lintian.txt" | sed 's/^/build-deb: lintian: /' >&2 || true
# the debug symbols aside: apt install ./OUTDIR/*.deb installs the four
mkdir -p "$OUT/dbgsym"
mv "$OUT"/*-dbgsym_*.deb "$OUT/dbgsym/"
ls "$OUT"/*.deb
