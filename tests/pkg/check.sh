#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/pkg/check.sh: the Debian packages, installed for real on this host
# (root; Debian 12 with the headers of Debian's 6.12 kernel, as make setup
# leaves it), then used by Debian's kernel in the VM. make check-full runs it.
#
#  1. make deb (tools/build-deb.sh, lintian with --fail-on warning) into
#     .vm-out/pkg/deb
#  2. apt install of the four packages: DKMS builds mrc.ko for the kernels
#     the host has headers for (kernels before 6.1 are skipped); checks
#     dkms status, the module's version and vermagic, the DKMS source tree
#     (the driver alone), mrcctl, its manual page and bash completion,
#     libmrc's pkg-config file and manual page, and the examples built
#     against the installed headers and library (libmrc.so, lib_mrc.so);
#     mrc-utils' boot configuration: mrc.service (on the packaged mrcctl,
#     enabled, systemd-analyze verify clean, its condition false without
#     /etc/mrc/mrc.conf, which the package does not install), mrc-generator,
#     the example file; and its Wireshark dissector, which tshark loads by
#     itself (no -X) and decodes every packet kind of test-pcap.py with
#  3. a kernel upgrade: with the module removed from DKMS for that kernel,
#     the hook a kernel package runs (/etc/kernel/postinst.d/dkms) builds
#     and installs it again
#  4. the VM, Debian's kernel with `tests/vm/run -M dkms`: the host's
#     /lib/modules as the packages left it; tests/pkg/guest.sh checks that
#     the DKMS module is the one loaded, then runs mrc_link.sh and mrcctl.sh
#     (quick mode) with it and the packaged mrcctl, and mrc_boot.sh with the
#     packaged unit and generator (the unit's ExecStart applies a
#     /etc/mrc/mrc.conf: a device, its planes and path sets), and
#     tests/pkg/walk.sh, README's "Install on a cluster node" on two nodes
#  5. apt purge: no file of the packages left, no DKMS state, no unit
#     enablement, the kernel's modules.dep as it was before
# MRC_VM_LOCK=FILE: take flock FILE for the VM run only (a machine shared
# with other VM users). Refuses to run when an mrc package is installed already (not this test's
# to remove). Prints flat KTAP lines ("ok - ...", as guest-tests does, for
# tests/check) and "N passed, M failed"; exits 1 on a failure.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO" || exit 2
VERSION=$(cat VERSION)
OUT=$REPO/.vm-out/pkg
PKGS=(mrc-dkms mrc-utils libmrc0 libmrc-dev)
DKVER=$(basename "$(ls -d /lib/modules/6.12*-amd64 | sort -V | tail -1)")
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -y -q -o DPkg::Lock::Timeout=600)

PASS=0 FAIL=0
check() { # check DESC CMD...: one result; CMD's output kept in OUT/check.log
	local desc=$1
	shift
	echo "## $desc" >>"$OUT/check.log"
	if "$@" >"$OUT/step.log" 2>&1; then
		PASS=$((PASS + 1)); echo "ok - $desc"
	else
		FAIL=$((FAIL + 1)); echo "not ok - $desc"
		tail -15 "$OUT/step.log" | sed 's/^/# /'
	fi
	cat "$OUT/step.log" >>"$OUT/check.log"
}
finish() {
	echo "# pkg: $PASS passed, $FAIL failed"
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" = 0 ]
	exit
}
installed() { # installed PKG: installed or half-installed (not purged)
	dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^[a-z][^n]'
}
build_id() { # build_id KO: its GNU build ID (.ko or .ko.xz)
	local t
	t=$(mktemp)
	case $1 in *.xz) xz -dc "$1" >"$t" ;; *) cat "$1" >"$t" ;; esac
	readelf -n "$t" 2>/dev/null | awk '/Build ID:/ { print $3 }'
	rm -f "$t"
}

rm -rf "$OUT"; mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || { echo "not ok - needs root (it installs packages)"; FAIL=1; finish; }
for p in "${PKGS[@]}"; do
	if installed "$p"; then
		echo "not ok - $p is installed already, not by this test: remove it first (apt purge ${PKGS[*]})"
		FAIL=1; finish
	fi
done
DEP=/lib/modules/$DKVER/modules.dep
dep_before=$(md5sum <"$DEP")

# 1. the packages
check "make deb: ${PKGS[*]} built, lintian finds no error or warning" \
	bash -c 'tools/build-deb.sh "$1" && [ "$(ls "$1"/*.deb | wc -l)" = 4 ]' _ "$OUT/deb"
debs=()
for p in "${PKGS[@]}"; do debs+=("$(ls "$OUT/deb/${p}_${VERSION}_"*.deb 2>/dev/null)"); done
[ "$FAIL" = 0 ] || finish

purge() {
	local p pkgs=()
	for p in "${PKGS[@]}"; do installed "$p" && pkgs+=("$p"); done
	[ ${#pkgs[@]} = 0 ] || "${APT[@]}" purge "${pkgs[@]}"
}
trap 'purge >>"$OUT/check.log" 2>&1' EXIT
trap 'exit 130' INT TERM

# 2. install, as on a cluster node
check "apt install ./mrc-dkms ./mrc-utils ./libmrc0 ./libmrc-dev (DKMS builds mrc.ko)" \
	"${APT[@]}" install "${debs[@]}"
[ "$FAIL" = 0 ] || finish
KO=$(ls /lib/modules/"$DKVER"/updates/dkms/mrc.ko* 2>/dev/null)
check "dkms status: mrc/$VERSION installed for $DKVER" \
	bash -c "dkms status -m mrc -v $VERSION -k $DKVER; dkms status -m mrc -v $VERSION -k $DKVER | grep -q ': installed$'"
check "DKMS's mrc.ko in /lib/modules/$DKVER/updates/dkms: version $VERSION, vermagic $DKVER" \
	bash -c '[ -n "$1" ] && modinfo "$1" | grep -E "^(filename|version|vermagic):" &&
		[ "$(modinfo -F version "$1")" = "$2" ] &&
		modinfo -F vermagic "$1" | grep -q "^$3 "' _ "$KO" "$VERSION" "$DKVER"
check "DKMS's tree: /usr/src/mrc-$VERSION holds the driver and its uapi headers, no test module" \
	bash -c 'cd "/usr/src/mrc-$1" && find . -name Kbuild && [ "$(find . -name Kbuild)" = ./drivers/mrc/Kbuild ] &&
		[ -f dkms.conf ] && [ "$(cat VERSION)" = "$1" ] && [ -f include/uapi/linux/mrc.h ] &&
		grep -qx "PACKAGE_VERSION=\"$1\"" dkms.conf' _ "$VERSION"
check "mrcctl: /usr/bin/mrcctl is mrcctl $VERSION, mrcctl(8) installed" \
	bash -c '[ "$(command -v mrcctl)" = /usr/bin/mrcctl ] && [ "$(mrcctl -V)" = "mrcctl $1" ] &&
		man -w 8 mrcctl | grep -qx /usr/share/man/man8/mrcctl.8.gz' _ "$VERSION"
check "bash completion of mrcctl: objects, then an object's commands" \
	bash -c 'source /usr/share/bash-completion/completions/mrcctl && complete -p mrcctl &&
		COMP_WORDS=(mrcctl "") COMP_CWORD=1 && _mrcctl && echo "${COMPREPLY[*]}" &&
		[ "${COMPREPLY[*]}" = "dev plane path ev cc stats fabric monitor probe apply help version" ] &&
		COMP_WORDS=(mrcctl plane s) COMP_CWORD=2 && _mrcctl && [ "${COMPREPLY[*]}" = "show set" ]'
check "libmrc-dev: pkg-config libmrc $VERSION, libmrc(3), the headers" \
	bash -c '[ "$(pkg-config --modversion libmrc)" = "$1" ] && pkg-config --cflags --libs libmrc &&
		man -w 3 libmrc | grep -qx /usr/share/man/man3/libmrc.3.gz &&
		echo "#include <mrc_ctl.h>" | cc $(pkg-config --cflags libmrc) -x c -fsyntax-only -' _ "$VERSION"
EX=/usr/share/doc/libmrc-dev/examples
check "the examples build against the installed libmrc (-lmrc, and -l_mrc as OCP's makefiles link)" \
	bash -c 'set -e; cd "$2" && mkdir -p ex
		cc -o ex/mrc_ev_probe "$1/mrc_ev_probe.c" $(pkg-config --cflags --libs libmrc)
		cc -o ex/mrc_ev_events "$1/mrc_ev_events.c" $(pkg-config --cflags --libs libmrc)
		cc -o ex/mrc_write_bw "$1"/write_bw/*.c -I"$1/write_bw" $(pkg-config --cflags libmrc) -l_mrc -libverbs
		for e in ex/*; do
			lib=$(ldd "$e" | awk "\$1 == \"libmrc.so.0\" { print \$3 }")
			echo "$e: libmrc.so.0 => $lib"
			[ "$(readlink -f "$lib")" = "/usr/lib/$3/libmrc.so.$4" ]
		done' _ "$EX" "$OUT" "$MULTIARCH" "$VERSION"

# mrc-utils' boot configuration and dissector
UNIT=/lib/systemd/system/mrc.service
GEN=/lib/systemd/system-generators/mrc-generator
DOC=/usr/share/doc/mrc-utils/examples
LUA=/usr/lib/$MULTIARCH/wireshark/plugins/mrc.lua
check "mrc-utils: $UNIT on /usr/bin/mrcctl, $GEN, $DOC/mrc.conf, $LUA; no /etc/mrc/mrc.conf" \
	bash -c 'set -e; dpkg -L mrc-utils | grep -Fx -e "$1" -e "$2" -e "$3/mrc.conf" -e "$4"
		[ "$(dpkg -L mrc-utils | grep -cFx -e "$1" -e "$2" -e "$3/mrc.conf" -e "$4")" = 4 ]
		grep "^Exec" "$1"
		[ "$(grep -c "^ExecStart=/usr/bin/mrcctl apply /etc/mrc/mrc.conf$" "$1")" = 1 ]
		[ -x "$2" ] && cmp "$2" tools/systemd/mrc-generator
		cmp "$3/mrc.conf" tools/systemd/mrc.conf.example && cmp "$4" tools/wireshark/mrc.lua
		! dpkg -L mrc-utils | grep "^/etc" && [ ! -e /etc/mrc/mrc.conf ]' _ "$UNIT" "$GEN" "$DOC" "$LUA"
check "mrc.service: enabled by the package (multi-user.target wants it)" \
	bash -c 'systemctl is-enabled mrc.service && [ "$(systemctl is-enabled mrc.service)" = enabled ] &&
		[ "$(readlink /etc/systemd/system/multi-user.target.wants/mrc.service)" = "$1" ]' _ "$UNIT"
check "mrc.service: without /etc/mrc/mrc.conf its conditions fail (skipped at boot, not failed)" \
	bash -c 'mapfile -t c < <(grep "^Condition" "$1") && printf "%s\n" "${c[@]}" &&
		[ "${c[*]}" = ConditionPathExists=/etc/mrc/mrc.conf ] && ! systemd-analyze condition "${c[@]}"' _ "$UNIT"
check "systemd-analyze verify: the installed unit, alone and with the generator's drop-in for the example" \
	bash -c 'set -e; rm -rf "$3/gen"; mkdir "$3/gen"
		systemd-analyze verify "$1" >"$3/verify" 2>&1; cat "$3/verify"; [ ! -s "$3/verify" ]
		MRC_CONF="$4/mrc.conf" "$2" "$3/gen" "$3/gen" "$3/gen"; cat "$3/gen/mrc.service.d/50-netdevs.conf"
		grep -qx "After=sys-subsystem-net-devices-ens2f1.device" "$3/gen/mrc.service.d/50-netdevs.conf"
		SYSTEMD_UNIT_PATH="$3/gen:" systemd-analyze verify mrc.service >"$3/verify" 2>&1
		cat "$3/verify"; [ ! -s "$3/verify" ]' _ "$UNIT" "$GEN" "$OUT" "$DOC"
check "tshark loads the installed mrc.lua by itself (tshark -G plugins, from its global Lua folder)" \
	bash -c 'HOME=$2 tshark -G plugins 2>/dev/null | grep mrc.lua &&
		HOME=$2 tshark -G plugins 2>/dev/null | awk -v f="$1" "\$1 == \"mrc.lua\" && \$NF == f { ok = 1 } END { exit !ok }"' \
	_ "$LUA" "$OUT"
check "tshark with no -X decodes every packet kind of test-pcap.py with it (tools/wireshark/test-pcap.py --installed)" \
	tools/wireshark/test-pcap.py --installed

# 3. a kernel upgrade rebuilds it: with no build of mrc for the kernel (as
# for a kernel just installed; the module stays in DKMS's tree, added, or
# built for the host's other kernels), the hook its package runs
check "kernel upgrade: no build for $DKVER, then /etc/kernel/postinst.d/dkms $DKVER builds and installs it" \
	bash -c 'dkms remove -m mrc -v "$1" -k "$2" && ! ls /lib/modules/"$2"/updates/dkms/mrc.ko* 2>/dev/null &&
		{ dkms status -m mrc -v "$1" | grep -q . || dkms add -m mrc -v "$1"; } &&
		dkms status -m mrc -v "$1" && ! dkms status -m mrc -v "$1" -k "$2" | grep -E ": (built|installed)$" &&
		/etc/kernel/postinst.d/dkms "$2" && ls /lib/modules/"$2"/updates/dkms/mrc.ko* &&
		dkms status -m mrc -v "$1" -k "$2" | grep -q ": installed$"' _ "$VERSION" "$DKVER"
KO=$(ls /lib/modules/"$DKVER"/updates/dkms/mrc.ko* 2>/dev/null)

# 4. Debian's kernel loads it; kselftests with it and the packaged mrcctl
TREE_KO=build/$DKVER/drivers/mrc/mrc.ko
[ -f "$TREE_KO" ] || tests/vm/kbuild "/lib/modules/$DKVER/build" W=1 >>"$OUT/check.log" 2>&1
bid=$(build_id "$KO") tbid=$(build_id "$TREE_KO")
echo "# DKMS mrc.ko build ID $bid, the tree's $tbid"
${MRC_VM_LOCK:+flock "$MRC_VM_LOCK"} tests/vm/run -k distro -M dkms -n pkg -T 1500 -e MRC_QUICK=1 \
	-e MRCCTL=/usr/bin/mrcctl -e TOPO_MRCCTL=/usr/bin/mrcctl \
	-e MRC_PKG_BUILD_ID="$bid" -e MRC_PKG_TREE_BUILD_ID="$tbid" \
	-e MRC_BOOT_UNIT=/lib/systemd/system/mrc.service \
	-e MRC_BOOT_GENERATOR=/lib/systemd/system-generators/mrc-generator \
	-e MRC_PKG_SUITES="tests/selftests/mrc_link.sh tests/selftests/mrcctl.sh tests/selftests/mrc_boot.sh tests/pkg/walk.sh" \
	-e MRC_TEST_LOGS="$OUT/logs" -- tests/pkg/guest.sh >"$OUT/vm.out" 2>"$OUT/vm.err"
rc=$?
while IFS= read -r line; do
	case $line in
	"not ok - "*) FAIL=$((FAIL + 1)); echo "$line" ;;
	"ok - "*) PASS=$((PASS + 1)); echo "$line" ;;
	"#"*) echo "$line" ;;
	esac
done <"$OUT/vm.out"
if [ "$rc" != 0 ] && ! grep -q '^not ok - ' "$OUT/vm.out"; then
	FAIL=$((FAIL + 1)); echo "not ok - the VM run (exit $rc; 120: a kernel report)"
	tail -15 "$OUT/vm.err" | sed 's/^/# /'
fi

# 5. remove: the host as it was
trap - EXIT
check "apt purge of the four packages" purge
check "nothing left: /usr/src/mrc-$VERSION, DKMS state, mrc.ko, mrcctl, libmrc, the unit and its enablement, mrc.lua" \
	bash -c '! ls -d /usr/src/mrc-* /var/lib/dkms/mrc /lib/modules/*/updates/dkms/mrc.ko* /usr/bin/mrcctl \
		/usr/lib/*/libmrc.so* /usr/include/mrc.h /usr/share/bash-completion/completions/mrcctl \
		/lib/systemd/system/mrc.service /lib/systemd/system-generators/mrc-generator \
		/etc/systemd/system/*/mrc.service /var/lib/systemd/deb-systemd-helper-enabled/*mrc.service* \
		/var/lib/systemd/deb-systemd-helper-enabled/*/mrc.service \
		/usr/share/doc/mrc-utils /usr/lib/*/wireshark/plugins/mrc.lua 2>/dev/null'
check "the kernel's module index as before (modules.dep of $DKVER)" \
	bash -c '[ "$(md5sum <"$1")" = "$2" ]' _ "$DEP" "$dep_before"
finish
