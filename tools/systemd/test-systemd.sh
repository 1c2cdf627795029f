#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of mrc.service and mrc-generator (no module, no root): the
# generator's drop-in from a config (every netdev, escaped, comments and
# quotes as mrcctl splits them, nothing without a config), make install
# (paths, modes, ExecStart on SBINDIR), and systemd-analyze verify of the
# installed unit with a generated drop-in. The unit's command itself runs
# in the VM: tests/selftests/mrc_boot.sh.
#
#   make -C tools/systemd check

MRCCTL_DIR=$(cd "$(dirname "$0")/../mrcctl" && pwd)
MRCCTL=${MRCCTL:-$MRCCTL_DIR/mrcctl}
# dir, tmp, ok and not_ok; it wants mrcctl built, as verify below does
# shellcheck source=tools/mrcctl/test-lib.sh
source "$MRCCTL_DIR/test-lib.sh"
# same DESC WANT_FILE GOT_FILE
same() {
	if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then ok "$1"; else not_ok "$1" "$(cat "$tmp/diff")"; fi
}

# gen CONF: run the generator on CONF into a fresh $tmp/gen
gen() {
	rm -rf "$tmp/gen"
	mkdir "$tmp/gen"
	MRC_CONF=$1 "$dir/mrc-generator" "$tmp/gen" "$tmp/gen" "$tmp/gen"
}

# ---- the generator
gen "$dir/mrc.conf.example" || not_ok "generator: runs on the example"
cat >"$tmp/want" <<EOF
# from $dir/mrc.conf.example, by mrc-generator
[Unit]
Wants=sys-subsystem-net-devices-ens1f0.device
After=sys-subsystem-net-devices-ens1f0.device
Wants=sys-subsystem-net-devices-ens1f1.device
After=sys-subsystem-net-devices-ens1f1.device
Wants=sys-subsystem-net-devices-ens2f0.device
After=sys-subsystem-net-devices-ens2f0.device
Wants=sys-subsystem-net-devices-ens2f1.device
After=sys-subsystem-net-devices-ens2f1.device
EOF
same "generator: the example's four netdevs, Wants and After" "$tmp/want" \
	"$tmp/gen/mrc.service.d/50-netdevs.conf"
cat >"$tmp/conf" <<'EOF'
# netdev commented
dev add mrc0 netdev "p-0"	# netdev p9 in a comment
  plane add dev mrc0 netdev 'p.1'
plane add dev mrc0 id 2 netdev p0
plane add dev mrc0 netdev #nothing
fabric load /etc/mrc/fabric.conf dev mrc0 host a
EOF
gen "$tmp/conf"
cat >"$tmp/want" <<EOF
# from $tmp/conf, by mrc-generator
[Unit]
Wants=sys-subsystem-net-devices-p\\x2d0.device
After=sys-subsystem-net-devices-p\\x2d0.device
Wants=sys-subsystem-net-devices-p.1.device
After=sys-subsystem-net-devices-p.1.device
Wants=sys-subsystem-net-devices-p0.device
After=sys-subsystem-net-devices-p0.device
EOF
same "generator: quotes, comments, a netdev in any place, names escaped" "$tmp/want" \
	"$tmp/gen/mrc.service.d/50-netdevs.conf"
gen "$tmp/nosuch"
if [ -z "$(ls -A "$tmp/gen")" ]; then ok "generator: no config, no drop-in"; else
	not_ok "generator: no config, no drop-in" "$(ls -R "$tmp/gen")"; fi
printf 'fabric load /f dev mrc0 host a\n' >"$tmp/conf"
gen "$tmp/conf"
if [ -z "$(ls -A "$tmp/gen")" ]; then ok "generator: no netdev in the config, no drop-in"; else
	not_ok "generator: no netdev in the config, no drop-in" "$(ls -R "$tmp/gen")"; fi
if "$dir/mrc-generator" 2>/dev/null; then not_ok "generator: no directory, an error"; else
	ok "generator: no directory, an error"; fi

# ---- the unit: one file, the command and its condition agree
exec_start=$(sed -n 's/^ExecStart=//p' "$dir/mrc.service")
if [ "$exec_start" = "/usr/sbin/mrcctl apply /etc/mrc/mrc.conf" ] &&
	[ "$(sed -n 's/^ExecReload=//p' "$dir/mrc.service")" = "$exec_start" ] &&
	grep -qx "ConditionPathExists=/etc/mrc/mrc.conf" "$dir/mrc.service"; then
	ok "unit: ExecStart and ExecReload apply the file ConditionPathExists names"
else
	not_ok "unit: ExecStart and ExecReload apply the file ConditionPathExists names" "$exec_start"
fi

# ---- make install
make -s -C "$dir" install DESTDIR="$tmp/root" PREFIX=/usr SBINDIR="$MRCCTL_DIR" >"$tmp/out" 2>&1 ||
	not_ok "make install" "$(cat "$tmp/out")"
(cd "$tmp/root" && find . -type f -printf '%m %p\n' | sort) >"$tmp/got"
cat >"$tmp/want" <<'EOF'
644 ./usr/lib/systemd/system/mrc.service
644 ./usr/share/doc/mrc/examples/mrc.conf
755 ./usr/lib/systemd/system-generators/mrc-generator
EOF
same "make install: the unit, the generator, the example, their modes" "$tmp/want" "$tmp/got"
if grep -qx "ExecStart=$MRCCTL_DIR/mrcctl apply /etc/mrc/mrc.conf" "$tmp/root/usr/lib/systemd/system/mrc.service"; then
	ok "make install: ExecStart runs SBINDIR's mrcctl"
else
	not_ok "make install: ExecStart runs SBINDIR's mrcctl" "$(grep ^Exec "$tmp/root/usr/lib/systemd/system/mrc.service")"
fi
make -s -C "$dir" uninstall DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>&1
if [ -z "$(find "$tmp/root" -type f)" ]; then ok "make uninstall: every file gone"; else
	not_ok "make uninstall: every file gone" "$(find "$tmp/root" -type f)"; fi

# ---- systemd-analyze verify: the installed unit (its mrcctl must exist)
# and the example's drop-in
if ! command -v systemd-analyze >/dev/null; then
	echo "ok - systemd-analyze verify # SKIP no systemd-analyze"
else
	make -s -C "$dir" install DESTDIR="$tmp/v" PREFIX=/usr SBINDIR="$MRCCTL_DIR" >/dev/null
	units=$tmp/v/usr/lib/systemd/system
	gen "$dir/mrc.conf.example"
	cp -r "$tmp/gen/mrc.service.d" "$units/"
	# verify runs man(1) for Documentation=: the tree's page, not an installed one
	mkdir -p "$tmp/man/man8"
	ln -s "$MRCCTL_DIR/mrcctl.8" "$tmp/man/man8/mrcctl.8"
	if MANPATH=$tmp/man SYSTEMD_UNIT_PATH="$units:" systemd-analyze verify "$units/mrc.service" >"$tmp/out" 2>&1 &&
		[ ! -s "$tmp/out" ]; then
		ok "systemd-analyze verify: the unit and its drop-in, no complaint"
	else
		not_ok "systemd-analyze verify: the unit and its drop-in, no complaint" "$(cat "$tmp/out")"
	fi
fi

echo "# systemd: $pass passed, $fail failed"
[ "$fail" = 0 ]
