#!/bin/bash
# tools/ynl-regen.sh: regenerate the netlink code of the mrc family from
# Documentation/netlink/specs/mrc.yaml with the kernel's own generator
# (tools/net/ynl/ynl-gen-c.py of the test kernel's source tree, 6.12):
#   drivers/mrc/mrc_nl_gen.[ch]  policies and ops (kernel)
#   include/uapi/linux/mrc.h     the uAPI header (kernel and mrcctl)
# The generated files are committed; `make check` verifies they are current.
# What 6.12's generator cannot express is added after it (POST_<file>).
# Usage: tools/ynl-regen.sh [--check]
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$REPO/tests/vm/build-kernel")"
YNL=$KDIR/tools/net/ynl
# Debian's python3, whose yaml and jsonschema modules tests/vm/setup installs
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# a minimal kernel-like tree: the generator validates against
# ../genetlink.yaml and names the spec relative to the dir with MAINTAINERS
mkdir -p "$T/Documentation/netlink/specs"
touch "$T/MAINTAINERS"
cp "$KDIR"/Documentation/netlink/genetlink*.yaml "$T/Documentation/netlink/"
cp "$REPO/Documentation/netlink/specs/mrc.yaml" "$T/Documentation/netlink/specs/"
CHECK=
[ "${1:-}" = --check ] && CHECK=1
gen() { # gen MODE KIND FILE
	local f
	f=$T/$(basename "$3")
	timeout 60 "$PY" "$YNL/ynl-gen-c.py" --mode "$1" \
		--spec "$T/Documentation/netlink/specs/mrc.yaml" "$2" -o "$f" >/dev/null
	local post
	post=POST_$(basename "$3" | tr . _)
	[ -z "${!post:-}" ] || "${!post}" "$f"
	if [ "$CHECK" ]; then
		cmp -s "$f" "$REPO/$3" || { echo "ynl-regen: $3 is stale; run tools/ynl-regen.sh" >&2; return 1; }
	else
		cp "$f" "$REPO/$3"
	fi
}
# 6.12's generator writes no multicast group flags: the "ev" group (every
# QP's EV changes) is for the namespace's administrator, as ev-get is
restrict_ev_group() {
	local flag=GENL_MCAST_CAP_NET_ADMIN
	sed -i "s/^\(\t\[MRC_NLGRP_EV\] = { \"ev\", \)},\$/\1.flags = $flag, },/" "$1"
	grep -q "$flag" "$1" || { echo "ynl-regen: no \"ev\" group in $1" >&2; return 1; }
}
POST_mrc_nl_gen_c=restrict_ev_group
gen kernel --source drivers/mrc/mrc_nl_gen.c
gen kernel --header drivers/mrc/mrc_nl_gen.h
gen uapi --header include/uapi/linux/mrc.h
