#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "mrc" generic netlink family under random and mutated requests
# (mrc_nlfuzz.py): every command, unknown ones, broken headers, from root
# in several namespaces, from a user without CAP_NET_ADMIN and from the
# root of a user namespace owning a network namespace. The kernel answers
# every request, every refusal by mrc's policies and handlers says why
# (extack message), the user without privilege changes nothing, and the
# devices still answer and the module unloads afterwards (the VM harness
# catches kernel reports).
#
#   ns a: mrca on va (+ plane 1 on da1, paths)  <-- veth -->  ns b: mrcb on vb
#   ns c: mrcc0 on dc0, mrcc1 on dc1 (dummies)
#   a container (user + network namespace): mrcu on vu
#
# MRC_QUICK=1: 20 messages per command class (each command number of the
# uAPI, unknown commands and broken headers: 16) and identity, 320 per
# identity; full: 300, 4,800 per identity, 28,800 in all over the 6
# identities. make check-full runs it with MRC_NLFUZZ_COUNT=1667 on
# Debian's kernel (10,000 a class, 160,032 in all, ~8 min), which would
# take hours on the KASAN kernel.
# MRC_NLFUZZ_SEED: the first seed (default 1); MRC_NLFUZZ_COUNT: requests
# per command class and identity.
# shellcheck source-path=SCRIPTDIR
source "$(dirname "$0")/lib.sh"
require_root
HERE=$(cd "$(dirname "$0")" && pwd)
FUZZ=$HERE/mrc_nlfuzz.py
MRCCTL=$(cd "$HERE/../../tools/mrcctl" && pwd)/mrcctl
[ -x "$MRCCTL" ] || { echo "# build mrcctl first (make mrcctl)"; exit $KSFT_SKIP; }
# a python3 outside /root, which the user without privilege cannot enter
PY=$(command -v /usr/bin/python3 python3 | head -1)
[ -n "$PY" ] || { echo "# needs python3"; exit $KSFT_SKIP; }
modprobe -q ib_uverbs
modprobe -q veth
modprobe -q dummy

# per command class and identity; MRC_NLFUZZ_COUNT overrides it (1667: the
# issue's 10,000 a class over the 6 identities)
COUNT=${MRC_NLFUZZ_COUNT:-$(by_mode 300 20)}
SEED=${MRC_NLFUZZ_SEED:-1}
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
OUT=$(mktemp -d)
chmod 755 "$OUT"
CPID=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "$CPID" ] || kill "$CPID" 2>/dev/null
	ip link del vv 2>/dev/null
	cleanup_ns
	rm -rf "$OUT"
}
trap cleanup EXIT

ktap_header 24
a='' b='' c=''
setup_ns a b c
ip link add va netns "$a" type veth peer name vb netns "$b"
for n in 1 2; do
	ip -n "$a" link add "da$n" type dummy
	ip -n "$b" link add "db$n" type dummy
done
for n in 0 1 2; do ip -n "$c" link add "dc$n" type dummy; done
for ns in "$a" "$b" "$c"; do
	for d in $(ip -n "$ns" -o link show | awk -F': ' '$2 != "lo" { sub(/@.*/, "", $2); print $2 }'); do
		ip -n "$ns" link set "$d" up
	done
done
modprobe mrc
netns "$a" rdma link add mrca type mrc netdev va
netns "$b" rdma link add mrcb type mrc netdev vb
netns "$c" rdma link add mrcc0 type mrc netdev dc0
netns "$c" rdma link add mrcc1 type mrc netdev dc1
netns "$a" "$MRCCTL" plane add dev mrca netdev da1 id 1
netns "$b" "$MRCCTL" plane add dev mrcb netdev db1 id 3
netns "$a" "$MRCCTL" path add dev mrca peer 2001:db8::2 plane 0 remote 2001:db8:1::2
netns "$a" "$MRCCTL" path add dev mrca peer 2001:db8::2 plane 1 usid fc00:0:1000:2000::
netns "$a" "$MRCCTL" path add dev mrca peer 2001:db8::2 plane 1 srh fc00:1::1,fc00:2::1
netns "$b" "$MRCCTL" path add dev mrcb peer 2001:db8::1 plane 3 remote 2001:db8:3::1
check "setup: devices, planes and paths in 3 namespaces" \
	bash -c "[ \"\$($MRCCTL -n $a -j path show | jq length)\" = 3 ] &&
		[ \"\$($MRCCTL -n $c -j dev show | jq length)\" = 2 ]"

# a container: a user namespace (root mapped to root) owning a network
# namespace, with an mrc device the host's root made there
container_up
ip link add vu type veth peer name vv
ip link set vu netns "$CPID"
nsenter -t "$CPID" -n ip link set vu up
nsenter -t "$CPID" -n rdma link add mrcu type mrc netdev vu

# state NS: what mrcctl shows of NS's devices, planes and paths
state() {
	local o
	for o in dev plane path; do "$MRCCTL" -n "$1" -j "$o" show || return 1; done
}

RUNS=()
# fuzz NAME SEED CMD...: one fuzzer run; its JSON summary in $OUT/NAME.json
fuzz() {
	local name=$1 seed=$2 rc
	shift 2
	RUNS+=("$name")
	timeout "$(tmo "$(by_mode 7200 900)")" "$@" "$PY" "$FUZZ" --seed "$seed" \
		--count "$COUNT" --timeout "$(tmo 10)" >"$OUT/$name.json" 2>"$OUT/$name.err"
	rc=$?
	echo "$rc" >"$OUT/$name.rc"
	ktap_info "$name: seed $seed, exit $rc, $(jq -c '{sent, errno, privileged, multicast}' \
		"$OUT/$name.json" 2>/dev/null)"
	return 0
}
# judge NAME: the run ended with a summary, the kernel answered every
# request, nothing odd, and every refusal by mrc carried a message
judge() {
	local f=$OUT/$1.json
	# exit 0 or 1 (a finding), one summary; every request answered
	# shellcheck disable=SC2016 # jq's own variables
	check "$1: the fuzzer ran to completion ($(jq .sent "$f" 2>/dev/null) messages)" \
		jq -e -s --arg rc "$(cat "$OUT/$1.rc")" '($rc == "0" or $rc == "1") and
			length == 1 and .[0].sent > 0 and (.[0].odd | map(select(.odd ==
			"no answer" or (.odd | startswith("no end")))) | length == 0)' "$f" ||
		tail -5 "$OUT/$1.err" | sed 's/^/# /'
	check "$1: nothing odd (no change without privilege, no malformed request taken)" \
		jq -e -s 'length == 1 and (.[0].odd | length == 0)' "$f" ||
		jq -c '.odd[:10][]' "$f" | sed 's/^/# /'
	check "$1: every refusal by mrc's policies and handlers has an extack message" \
		jq -e -s 'length == 1 and (.[0].no_extack | length == 0)' "$f" ||
		jq -c '.no_extack[]' "$f" | sed 's/^/# /'
}

n=0
for ns in "$a" "$c"; do
	before=$(state "$ns")
	fuzz "nobody-${ns%-*}" $((SEED + n)) nsenter --net="/run/netns/$ns" "${NOBODY[@]}"
	n=$((n + 1))
	judge "nobody-${ns%-*}"
	after=$(state "$ns")
	check "nobody-${ns%-*}: the user without CAP_NET_ADMIN changed nothing" \
		[ "$after" = "$before" ]
done
for ns in "$a" "$b" "$c"; do
	fuzz "root-${ns%-*}" $((SEED + n)) nsenter --net="/run/netns/$ns"
	n=$((n + 1))
	judge "root-${ns%-*}"
done
fuzz container $((SEED + n)) nsenter -t "$CPID" -U -n
judge container

# sum OBJ-PATH: the runs' histograms at OBJ-PATH added up
sum() {
	(cd "$OUT" && jq -sc "map($1 // {}) | reduce .[] as \$h ({};
		reduce (\$h | to_entries[]) as \$e (.; .[\$e.key] += \$e.value))" ./*.json)
}
ktap_info "messages in all: $(cd "$OUT" && jq -s 'map(.sent // 0) | add' ./*.json)"
ktap_info "messages per command class: $(sum '(.classes // {} | map_values(.sent))')"
ktap_info "replies by errno: $(sum .errno)"
ktap_info "refusals without a message by generic netlink itself (exempt):" \
	"$(cd "$OUT" && jq -sc '[.[].core_no_extack[]?.key] | unique' ./*.json)"

check "afterwards every device still answers" \
	bash -c "$MRCCTL -n $a dev show mrca >/dev/null && $MRCCTL -n $b dev show mrcb >/dev/null &&
		[ \"\$($MRCCTL -n $c -j dev show | jq length)\" = 2 ] &&
		nsenter -t $CPID -n $MRCCTL dev show mrcu >/dev/null"
check "... and a plane and a path can still be added" \
	bash -c "netns $c $MRCCTL plane add dev mrcc0 netdev dc2 id 7 2>/dev/null ||
		netns $c $MRCCTL plane show dev mrcc0 | grep -q dc2; netns $c $MRCCTL path add dev mrcc0 \
		peer 2001:db8:77::1 plane 0 remote 2001:db8:77::2 && netns $c $MRCCTL path show dev mrcc0 |
		grep -q 2001:db8:77::2"
nsenter -t "$CPID" -n rdma link del mrcu
kill "$CPID"
wait "$CPID" 2>/dev/null
CPID=
check "the module unloads" wait_for "$(tmo 30)" rmmod mrc
ktap_finish
