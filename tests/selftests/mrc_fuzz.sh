#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packet fuzzing at live QPs: two mrc devices over a veth (topo_ns), two
# rping -V connections between them (one over IPv4, one over IPv6: every
# ping the client fills a buffer, the server RDMA-reads it and RDMA-writes
# it back, the client compares every byte), and at both ends a fuzzer
# (mrc_fuzz.py, an AF_PACKET socket on the other side's veth end) that
# learns the QPs and their PSN windows from the traffic it sees and sends
# them MRC packets mutated field by field: every opcode of mrc_wire.h and
# unknown ones, every BTH and extension header field, truncated and
# longer packets, wrong IP and UDP lengths, wrong ICRCs, bad P_Keys and
# Q_Keys, other sources, IPv4, IPv6 and IPv6-in-IPv6 with and without an
# SRH, random bytes. Forged requests carry PSNs just below or beyond the
# responder's window, acknowledgments PSNs already acknowledged or never
# sent: nothing a peer could not legitimately be told to drop or answer
# again. The module must drop them, count them and go on:
#
#   - both rpings go on verifying pings during and after the fuzz: no data
#     mismatch, no completion error, no QP in ERR on either device
#   - each device's counters move by exactly what the fuzzer's model of
#     mrc's receive path (printed by mrc_fuzz.py as JSON) says for the
#     frames it sent: icrc_errors, rx_bad_pkey, rx_bad_qkey,
#     rx_wrong_source, unknown_qp; malformed at least the model's and at
#     most that plus the packets that reached an engine; rx_packets at
#     least the packets that passed the checks
#   - the devices go and the module unloads
# Kernel reports (KASAN, UBSAN, lockdep, WARN) fail the run in the test
# VM (tests/vm/run).
#
# Environment: MRC_QUICK=1 (lib.sh): 2000 packets per fuzzer, else
# 50000 (100000 in all); MRC_FUZZ_COUNT=N sets it; MRC_FUZZ_SEED=S
# (default 1; the fuzzer at h2's QPs takes S + 1) reproduces a run's
# packets; MRC_TIMEOUT_SCALE: longer hang guards on slow kernels.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root
for t in rping python3 jq modprobe; do
	command -v $t >/dev/null || { echo "# $t missing"; exit "$KSFT_SKIP"; }
done

COUNT=${MRC_FUZZ_COUNT:-$(by_mode 50000 2000)}
SEED=${MRC_FUZZ_SEED:-1}
LOGS=$(mktemp -d /tmp/mrc_fuzz.XXXXXX)
FUZZ=$DIR/mrc_fuzz.py
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap 'stop_all; topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_fuzz.d"
	rm -rf "$LOGS"' EXIT

ktap_header 10

PIDS=()
stop_all() {
	local p
	for p in ${PIDS[@]+"${PIDS[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${PIDS[@]+"${PIDS[@]}"}; do wait "$p" 2>/dev/null; done
	PIDS=()
}
# counters DEV FILE: DEV's counters, "name value" lines
counters() {
	local ns=$NS_A
	[ "$1" = "$DEV_B" ] && ns=$NS_B
	netns "$ns" rdma -j statistic show link "$1/1" |
		jq -r '.[0] | to_entries[] | select((.value | type) == "number") | "\(.key) \(.value)"' >"$2"
}
# pings TAG: the pings rping's client TAG has verified (one line each, -v)
pings() { grep -c '^ping data: ' "$LOGS/$1.cli"; }
# rping_start TAG SERVER CLIENT SIZE: rping -V between SERVER (h2) and
# CLIENT (h1) addresses, SIZE-byte buffers, until stopped. -v prints each
# ping's whole buffer: only the start of each line is kept. rping pings
# as fast as it can; at the lowest priority it leaves the CPUs to the
# fuzzers, which have far more packets to send
PORT=$((20000 + $$ % 20000))
rping_start() {
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$(tmo 1800)" nice -n 19 rping -s -a "$2" -p "$PORT" -S "$4" \
		-V -v > >(exec stdbuf -oL cut -c1-80 >"$LOGS/$1.srv") 2>&1 &
	PIDS+=($!)
	wait_listen "$NS_B" cm "$PORT" "$!" || return 1
	ip netns exec "$NS_A" timeout -k 5 "$(tmo 1800)" nice -n 19 rping -c -a "$2" -I "$3" -p "$PORT" \
		-S "$4" -V -v > >(exec stdbuf -oL cut -c1-80 >"$LOGS/$1.cli") 2>&1 &
	PIDS+=($!)
	eval "RP_$1=$!"
}
# pinging TAG N: rping TAG's client has verified more than N pings
pinging() { [ "$(pings "$1")" -gt "$2" ]; }
# rping_sound TAG: rping TAG runs and reported no error
rping_sound() {
	local pid
	eval "pid=\$RP_$1"
	if ! kill -0 "$pid" 2>/dev/null ||
		grep -qiE 'mismatch|error|fail|status|disconnect' "$LOGS/$1.cli" "$LOGS/$1.srv"; then
		tail -n 4 "$LOGS/$1.cli" "$LOGS/$1.srv"
		return 1
	fi
}
# rc_not_err NS DEV: DEV has both rpings' RC QPs (an rping that failed
# destroys its QP), and none is in ERR
rc_not_err() {
	local st
	st=$(netns "$1" rdma -j res show qp | jq -r --arg d "$2" \
		'[.[] | select(.ifname == $d and .type == "RC") | .state] | join(" ")')
	echo "$2's RC QPs: ${st:-none}"
	[[ $st =~ ^[A-Z]+\ [A-Z]+$ && " $st " != *" ERR "* ]]
}
# moved DEV BEFORE AFTER SUMMARY: DEV's counters moved as SUMMARY expects
moved() {
	python3 - "$@" <<'EOF'
import json, sys
dev, before, after, summary = sys.argv[1:]
rd = lambda f: {k: int(v) for k, v in (l.split() for l in open(f))}
b, a, s = rd(before), rd(after), json.load(open(summary))
e, d = s["expect"], {k: a[k] - b.get(k, 0) for k in a}
engine = s["outcome"].get("ok:engine", 0)
bad = []
for k in ("icrc_errors", "rx_bad_pkey", "rx_bad_qkey", "rx_wrong_source", "unknown_qp"):
    if d[k] != e[k]:
        bad.append("%s moved %d, the fuzzer's frames make %d" % (k, d[k], e[k]))
if not e["malformed"] <= d["malformed"] <= e["malformed"] + engine:
    bad.append("malformed moved %d, not in [%d, %d]" %
               (d["malformed"], e["malformed"], e["malformed"] + engine))
if d["rx_packets"] < e["dispatched"]:
    bad.append("rx_packets moved %d < %d" % (d["rx_packets"], e["dispatched"]))
print("%s: %s" % (dev, ", ".join("%s +%d" % (k, v) for k, v in sorted(d.items()) if v)))
for x in bad:
    print(x)
sys.exit(1 if bad else 0)
EOF
}

if ! topo_ns mrc >"$LOGS/topo" 2>&1; then
	ktap_fail "mrc pair up (topo_ns)"
	sed 's/^/#   /' "$LOGS/topo" | tail -15
	ktap_finish
fi
ktap_pass "mrc pair up (topo_ns)"
MAC_A=$(ip -n "$NS_A" -j link show "$VETH_A" | jq -r '.[0].address')
MAC_B=$(ip -n "$NS_B" -j link show "$VETH_B" | jq -r '.[0].address')
MTU=$(ip -n "$NS_A" -j link show "$VETH_A" | jq -r '.[0].mtu')

# the fuzzers first (python takes seconds to start on the KASAN kernel):
# each waits for go, then for a live QP of each family
# fuzz NS IFNAME DMAC SEED TAG V4 V6: a fuzzer on IFNAME in NS at the QPs
# behind DMAC (whose peer addresses are V4's and V6's first), summary in
# $LOGS/TAG.json
fuzz() {
	netns "$1" python3 "$FUZZ" --ifname "$2" --dmac "$3" --seed "$4" --count "$COUNT" \
		--mtu "$MTU" --v4 "$6" --v6 "$7" --wait "$LOGS/go" --ready "$LOGS/$5.ready" \
		--learn "$(tmo 60)" --summary "$LOGS/$5.json" >"$LOGS/$5.out" 2>&1 &
	PIDS+=($!)
	eval "FZ_$5=$!"
}
fuzz "$NS_B" "$VETH_B" "$MAC_A" "$SEED" at1 "$IP_B,$IP_A" "$IP6_B,$IP6_A"
fuzz "$NS_A" "$VETH_A" "$MAC_B" $((SEED + 1)) at2 "$IP_A,$IP_B" "$IP6_A,$IP6_B"

# 3000-byte buffers over IPv4 (3 packets a READ, padded), 9000 over IPv6
rping_start v4 "$IP_B" "$IP_A" 3000
rping_start v6 "$IP6_B" "$IP6_A" 9000
both_up() { pinging v4 1 && pinging v6 1 && [ -e "$LOGS/at1.ready" ] && [ -e "$LOGS/at2.ready" ]; }
if ! wait_for "$(tmo 120)" both_up; then
	ktap_fail "rping -V over IPv4 and IPv6 verifying pings, fuzzers up"
	tail -n 3 "$LOGS"/v4.cli "$LOGS"/v6.cli "$LOGS"/at1.out "$LOGS"/at2.out 2>&1 | sed 's/^/#   /'
	ktap_finish
fi
ktap_pass "rping -V over IPv4 and IPv6 verifying pings, fuzzers up"

counters "$DEV_A" "$LOGS/a.before"
counters "$DEV_B" "$LOGS/b.before"
p4=$(pings v4) p6=$(pings v6) t0=$SECONDS
touch "$LOGS/go"
# the fuzzers' exit status (FRC_TAG), waited for here, not in check's
# subshell; the hang guard stops them
fuzz_end() {
	local end=$((t0 + $(tmo "$(by_mode 900 120)"))) tag pid
	for tag in at1 at2; do
		eval "pid=\$FZ_$tag"
		while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do nap 0.2; done
		kill "$pid" 2>/dev/null
		wait "$pid"
		eval "FRC_$tag=$?"
	done
}
# fuzzed TAG WHOSE: the fuzzer TAG at WHOSE QPs ended well
fuzzed() {
	local rc
	eval "rc=\$FRC_$1"
	if [ "$rc" = 0 ] && [ -s "$LOGS/$1.json" ]; then
		return 0
	fi
	echo "exit $rc"
	tail -n 5 "$LOGS/$1.out"
	return 1
}
fuzz_end
for tag in at1:h1 at2:h2; do
	[ -s "$LOGS/${tag%:*}.json" ] || continue
	ktap_info "at ${tag#*:}'s QPs: $(jq -c '{sent, seconds, seconds_sniff, seconds_send, send_waits, sniff_drops, victims, expect}' "$LOGS/${tag%:*}.json")"
	ktap_info "at ${tag#*:}'s QPs, per class: $(jq -c .class "$LOGS/${tag%:*}.json")"
done
check "fuzz: $COUNT packets at h1's QPs (seed $SEED)" fuzzed at1 h1
check "fuzz: $COUNT packets at h2's QPs (seed $((SEED + 1)))" fuzzed at2 h2
ktap_info "fuzzed in $((SECONDS - t0)) s; pings verified meanwhile: IPv4 $p4 -> $(pings v4), IPv6 $p6 -> $(pings v6)"

# both connections go on: 5 more pings each, verified, after the fuzz
still() { pinging "$1" "$2" && rping_sound "$1"; }
no_err() { rc_not_err "$NS_A" "$DEV_A" && rc_not_err "$NS_B" "$DEV_B"; }
q4=$(pings v4) q6=$(pings v6)
wait_for "$(tmo 60)" pinging v4 $((q4 + 5))
check "after the fuzz: rping -V over IPv4 verifies pings, no error" \
	still v4 $((q4 + 5))
wait_for "$(tmo 60)" pinging v6 $((q6 + 5))
check "after the fuzz: rping -V over IPv6 verifies pings, no error" \
	still v6 $((q6 + 5))
check "no RC QP in ERR on either device" no_err

counters "$DEV_A" "$LOGS/a.after"
counters "$DEV_B" "$LOGS/b.after"
check "h1's counters moved as its fuzzer's frames make them (exact: icrc_errors, rx_bad_pkey, rx_bad_qkey, rx_wrong_source, unknown_qp)" \
	moved "$DEV_A" "$LOGS/a.before" "$LOGS/a.after" "$LOGS/at1.json"
check "h2's counters moved as its fuzzer's frames make them (exact: icrc_errors, rx_bad_pkey, rx_bad_qkey, rx_wrong_source, unknown_qp)" \
	moved "$DEV_B" "$LOGS/b.before" "$LOGS/b.after" "$LOGS/at2.json"
ktap_info "$(moved "$DEV_A" "$LOGS/a.before" "$LOGS/a.after" "$LOGS/at1.json" | head -1)"
ktap_info "$(moved "$DEV_B" "$LOGS/b.before" "$LOGS/b.after" "$LOGS/at2.json" | head -1)"
ktap_info "pings verified in all: IPv4 $(pings v4), IPv6 $(pings v6)"

stop_all
topo_cleanup
unloaded() {
	modprobe -r mrc || { rdma link show; return 1; }
	[ ! -d /sys/module/mrc ]
}
check "the devices go, mrc unloads" unloaded
ktap_finish
