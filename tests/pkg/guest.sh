#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/pkg/guest.sh: the part of tests/pkg/check.sh inside the VM, booted
# with `tests/vm/run -k distro -M dkms`: /lib/modules is the host's, where
# the mrc-dkms package had DKMS install mrc.ko, and /usr the host's, where
# mrc-utils installed mrcctl. Checks that modprobe loads that mrc.ko and
# no other (its GNU build ID, which the host read from the DKMS module and
# which differs from the tree's build), then runs kselftests with it and the
# packaged mrcctl. Prints flat KTAP lines ("ok - dkms: ...") as guest-tests
# does.
#
# Environment (from check.sh): MRC_PKG_BUILD_ID, the DKMS module's build
# ID; MRC_PKG_TREE_BUILD_ID, the tree's mrc.ko's; MRC_PKG_SUITES, the
# kselftests to run (paths).
REPO=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$REPO/VERSION")
KV=$(uname -r)
fails=0
check() { # check DESC CMD...
	local desc=$1
	shift
	if "$@" >/tmp/pkg-check.log 2>&1; then
		echo "ok - dkms: $desc"
	else
		echo "not ok - dkms: $desc"
		sed 's/^/# /' /tmp/pkg-check.log | tail -10
		fails=1
	fi
}
# the GNU build ID of a loaded module: its note's descriptor, after the
# 12-byte header and the name "GNU\0"
loaded_build_id() {
	od -An -v -tx1 "/sys/module/$1/notes/.note.gnu.build-id" | tr -d ' \n' | cut -c33-
}

resolves_to_dkms() {
	modinfo -n mrc
	modinfo -n mrc | grep -qx "/lib/modules/$KV/updates/dkms/mrc\.ko\(\.xz\)\?"
}
only_one() {
	find "/lib/modules/$KV" -name 'mrc.ko*'
	[ "$(find "/lib/modules/$KV" -name 'mrc.ko*' | wc -l)" = 1 ]
}
loads() {
	modprobe mrc || return 1
	grep . /sys/module/mrc/version /sys/module/mrc/srcversion
	[ "$(cat /sys/module/mrc/version)" = "$VERSION" ] &&
		[ "$(cat /sys/module/mrc/srcversion)" = "$(modinfo -F srcversion mrc)" ]
}
dkms_build() {
	local b
	b=$(loaded_build_id mrc)
	echo "loaded $b, DKMS ${MRC_PKG_BUILD_ID:-}, tree ${MRC_PKG_TREE_BUILD_ID:-}"
	[ -n "${MRC_PKG_BUILD_ID:-}" ] && [ "$MRC_PKG_BUILD_ID" != "${MRC_PKG_TREE_BUILD_ID:-}" ] &&
		[ "$b" = "$MRC_PKG_BUILD_ID" ]
}
packaged_mrcctl() {
	"$MRCCTL" -V
	[ "$MRCCTL" = /usr/bin/mrcctl ] && [ "$("$MRCCTL" -V)" = "mrcctl $VERSION" ]
}
check "modprobe resolves mrc to DKMS's module in /lib/modules/$KV/updates/dkms" resolves_to_dkms
check "the kernel's modules hold no other mrc.ko" only_one
check "modprobe mrc loads it: version $VERSION, srcversion as modinfo says" loads
check "the loaded mrc.ko is DKMS's build (its GNU build ID), not the tree's" dkms_build
check "MRCCTL is the packaged mrcctl, mrcctl $VERSION" packaged_mrcctl
check "rmmod mrc" rmmod mrc

# shellcheck disable=SC2086 # a list of paths
"$REPO/tests/vm/guest-tests" ${MRC_PKG_SUITES:-} || fails=1
exit $fails
