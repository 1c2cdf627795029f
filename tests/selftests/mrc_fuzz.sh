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
#     rx_wrong_source, unknown_qp, trimmed_received (a length field that
#     claims more than arrived reads as a trimmed packet); malformed at
#     least the model's and at
#     most that plus the packets that reached an engine; rx_packets at
#     least the packets that passed the checks
#   - then in-window requests (mrc_fuzz.py --inwin) at throwaway perftest
#     QPs, which may end them (see the phase below): each victim RTS or
#     ERR after its burst, its processes end when killed, some victim in
#     ERR and NAKs sent (the requests reached placement), both rpings
#     still verifying, no RC QP of theirs in ERR
#   - the devices go and the module unloads
# Kernel reports (KASAN, UBSAN, lockdep, WARN) fail the run in the test
# VM (tests/vm/run).
#
# Environment: MRC_QUICK=1 (lib.sh): 2000 packets per fuzzer, else
# 50000 (100000 in all); MRC_FUZZ_COUNT=N sets it; MRC_FUZZ_SEED=S
# (default 1; the fuzzer at h2's QPs takes S + 1) reproduces a run's
# packets; MRC_INWIN_ROUNDS=N throwaway QP pairs (quick 2, else 10: the
# full suite stays within its 3000 s limit on the KASAN kernel),
# MRC_INWIN_COUNT=N in-window requests at each victim (quick 300, else
# 3000); MRC_TIMEOUT_SCALE: longer hang guards on slow kernels.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
require_root
require_tools rping python3 jq modprobe

COUNT=${MRC_FUZZ_COUNT:-$(by_mode 50000 2000)}
SEED=${MRC_FUZZ_SEED:-1}
LOGS=$(mktemp -d /tmp/mrc_fuzz.XXXXXX)
FUZZ=$DIR/mrc_fuzz.py
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap 'stop_all; topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_fuzz.d"
	rm -rf "$LOGS"' EXIT

ktap_header 13

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
# counter_of DEV NAME: one of DEV's counters (sysfs: no rdma and jq to exec)
counter_of() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
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
for k in ("icrc_errors", "rx_bad_pkey", "rx_bad_qkey", "rx_wrong_source", "unknown_qp",
          "trimmed_received"):
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
check "h1's counters moved as its fuzzer's frames make them (exact: icrc_errors, rx_bad_pkey, rx_bad_qkey, rx_wrong_source, unknown_qp, trimmed_received)" \
	moved "$DEV_A" "$LOGS/a.before" "$LOGS/a.after" "$LOGS/at1.json"
check "h2's counters moved as its fuzzer's frames make them (exact: icrc_errors, rx_bad_pkey, rx_bad_qkey, rx_wrong_source, unknown_qp, trimmed_received)" \
	moved "$DEV_B" "$LOGS/b.before" "$LOGS/b.after" "$LOGS/at2.json"
ktap_info "$(moved "$DEV_A" "$LOGS/a.before" "$LOGS/a.after" "$LOGS/at1.json" | head -1)"
ktap_info "$(moved "$DEV_B" "$LOGS/b.before" "$LOGS/b.after" "$LOGS/at2.json" | head -1)"

# -- in-window requests at throwaway QPs (mrc_fuzz.py --inwin). What the
# fuzz above never sends: requests IN the responder's window, from the
# peer's address, with the port's P_Key and a correct ICRC, which reach
# placement and may end the QP (IBA: a bad rkey NAKs and moves it to
# ERR), so they cannot go to the rpings' QPs. Each round, a perftest pair
# (ib_read_bw and ib_write_bw in turn: each grants remote write and its
# own access; ib_atomic_bw prints no rkey or address, and the kernel
# reports no MR's address) makes 5 requests h1 -> h2, one PSN each, and
# then sleeps
# with its QPs and buffers alive (--wait_destroy): both responders are
# idle with a known next PSN (h2's: the client's first + 5; h1's, which
# the server never sent to: the server's first). A fuzzer on each side
# sends BURST requests at the other side's victim, with its buffer's rkey
# and address (and others), then each victim must be live (RTS, or RTR
# for a server that never sent) or ERR, and its processes must end when
# killed (their QPs and MRs go). Over the phase
# the rpings must go on verifying pings, and the requests must have
# reached the responders: NAKs sent and some victim killed (else they
# all missed the window, and the phase tested nothing).
ROUNDS=${MRC_INWIN_ROUNDS:-$(by_mode 10 2)}
BURST=${MRC_INWIN_COUNT:-$(by_mode 3000 300)}
IW=$LOGS/inwin
mkdir -p "$IW/at1" "$IW/at2"
# inwin NS IFNAME DMAC SEED TAG V4: an in-window fuzzer on IFNAME in NS at
# the QPs behind DMAC; TAG's go.N files name them
inwin() {
	netns "$1" python3 "$FUZZ" --inwin "$IW/$5" --ifname "$2" --dmac "$3" --seed "$4" \
		--count "$BURST" --mtu "$MTU" --v4 "$6" --ready "$IW/$5.ready" \
		--summary "$IW/$5.json" >"$IW/$5.out" 2>&1 &
	PIDS+=($!)
	eval "IW_$5=$!"
}
inwin "$NS_B" "$VETH_B" "$MAC_A" $((SEED + 2)) at1 "$IP_B,$IP_A"
inwin "$NS_A" "$VETH_A" "$MAC_B" $((SEED + 3)) at2 "$IP_A,$IP_B"
# addr_of LOG local|remote FIELD: a field of perftest's address lines
addr_of() { sed -n "s/.*$2 address:.* $3 \(0x[0-9a-fA-F]*\).*/\1/p" "$1" | head -1; }
# reported LOG: perftest printed its result line (5 iterations done)
reported() { grep -qE '^ *[0-9]+ +5 +[0-9.]+' "$1"; }
# qp_state NS DEV QPN: QP QPN's state on DEV, empty if it does not exist
qp_state() {
	netns "$1" rdma -j res show qp | jq -r --arg d "$2" --argjson q "$3" \
		'.[] | select(.ifname == $d and .lqpn == $q) | .state'
}
iw_ready() { [ -e "$IW/at1.ready" ] && [ -e "$IW/at2.ready" ]; }
# gone PID...: none of the PIDs runs
gone() { local p; for p in "$@"; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
iw_done() { [ -e "$IW/at1/done.$1" ] && [ -e "$IW/at2/done.$1" ]; }
# iw_done_or_dead I: round I's bursts ended, or a fuzzer did
# shellcheck disable=SC2154 # IW_at1 and IW_at2: set by inwin
iw_done_or_dead() { iw_done "$1" || ! kill -0 "$IW_at1" 2>/dev/null || ! kill -0 "$IW_at2" 2>/dev/null; }
iw_n0a=$(counter_of "$DEV_A" naks_sent) iw_n0b=$(counter_of "$DEV_B" naks_sent)
IW_KILLED=0 IW_LIVE=0 IW_ROUNDS=0 t0=$SECONDS
: >"$IW/failures"
# iw_round I: round I; a failure is logged in $IW/failures
iw_round() {
	local i=$1 tool srv cli lq rq lp rp st s
	case $((i % 2)) in
	0) tool=(ib_read_bw -s 512) ;; 1) tool=(ib_write_bw -s 512) ;;
	esac
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$(tmo 900)" "${tool[@]}" -d "$DEV_B" -x "$GID_B" -F \
		-t 1 -n 5 --wait_destroy=900 -p "$PORT" >"$IW/$i.srv" 2>&1 &
	srv=$!
	if ! wait_listen "$NS_B" tcp "$PORT" "$srv"; then
		echo "round $i: ${tool[0]} server did not listen: $(tail -n 2 "$IW/$i.srv")" >>"$IW/failures"
		kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
		return 1
	fi
	ip netns exec "$NS_A" timeout -k 5 "$(tmo 900)" stdbuf -oL "${tool[@]}" -d "$DEV_A" \
		-x "$GID_A" -F -t 1 -n 5 --wait_destroy=900 -p "$PORT" "$IP_B" >"$IW/$i.cli" 2>&1 &
	cli=$!
	if ! wait_for "$(tmo 60)" reported "$IW/$i.cli"; then
		echo "round $i: ${tool[0]} did not run: $(tail -n 2 "$IW/$i.cli")" >>"$IW/failures"
		kill "$srv" "$cli" 2>/dev/null; wait "$srv" "$cli" 2>/dev/null
		return 1
	fi
	lq=$(addr_of "$IW/$i.cli" local QPN) rq=$(addr_of "$IW/$i.cli" remote QPN)
	lp=$(addr_of "$IW/$i.cli" local PSN) rp=$(addr_of "$IW/$i.cli" remote PSN)
	if [ -z "$lq" ] || [ -z "$rq" ] || [ -z "$lp" ] || [ -z "$rp" ]; then
		echo "round $i: no QPNs and PSNs in ${tool[0]}'s output: $(head -n 30 "$IW/$i.cli")" >>"$IW/failures"
		kill "$srv" "$cli" 2>/dev/null; wait "$srv" "$cli" 2>/dev/null
		return 1
	fi
	# h2's victim at h1's fuzzer side (at2), h1's at at2's peer (at1)
	rmr="$(addr_of "$IW/$i.cli" remote RKey) $(addr_of "$IW/$i.cli" remote VAddr)"
	lmr="$(addr_of "$IW/$i.cli" local RKey) $(addr_of "$IW/$i.cli" local VAddr)"
	# shellcheck disable=SC2086 # two words each
	if [ "$(echo $rmr | wc -w)" != 2 ] || [ "$(echo $lmr | wc -w)" != 2 ]; then
		echo "round $i: no rkeys and addresses for ${tool[0]}'s buffers: '$rmr' '$lmr'" >>"$IW/failures"
		kill "$srv" "$cli" 2>/dev/null; wait "$srv" "$cli" 2>/dev/null
		return 1
	fi
	echo "$rq $((lp + 5)) $rmr 4096" >"$IW/at2/go.$i.t"
	echo "$lq $rp $lmr 4096" >"$IW/at1/go.$i.t"
	mv "$IW/at2/go.$i.t" "$IW/at2/go.$i"
	mv "$IW/at1/go.$i.t" "$IW/at1/go.$i"
	if ! wait_for "$(tmo 120)" iw_done_or_dead "$i" || ! iw_done "$i"; then
		echo "round $i: the bursts did not end: $(tail -n 2 "$IW/at1.out" "$IW/at2.out")" >>"$IW/failures"
	fi
	for s in "$NS_A $DEV_A $lq h1" "$NS_B $DEV_B $rq h2"; do
		# shellcheck disable=SC2086 # the words of s
		set -- $s
		st=$(qp_state "$1" "$2" "$(($3))")
		case $st in
		# a server that never sent may stay in RTR
		RTR | RTS) IW_LIVE=$((IW_LIVE + 1)) ;;
		ERR) IW_KILLED=$((IW_KILLED + 1)) ;;
		*) echo "round $i (${tool[0]}): $4's QP $3 is '${st:-gone}', not RTR, RTS or ERR" >>"$IW/failures" ;;
		esac
	done
	echo "round $i ${tool[0]}: h1 QP $lq next PSN $rp, h2 QP $rq next PSN $((lp + 5))" >>"$IW/rounds"
	local t1=$SECONDS kids p
	kids=$(pgrep -P "$srv"; pgrep -P "$cli")
	kill "$srv" "$cli" 2>/dev/null
	if ! wait_for "$(tmo 60)" gone "$srv" "$cli"; then
		# where the perftest processes are stuck (timeout sent them
		# SIGKILL 5 s after SIGTERM), then how long they take to end
		for p in $kids; do
			echo "round $i: ${tool[0]} pid $p: $(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null) wchan $(cat "/proc/$p/wchan" 2>/dev/null); $(tr '\n' ' ' <"/proc/$p/stack" 2>/dev/null)"
		done >>"$IW/failures"
		# and every task running or blocked in the kernel
		for p in /proc/[0-9]*; do
			case $(cut -d' ' -f3 "$p/stat" 2>/dev/null) in R | D) ;; *) continue ;; esac
			echo "round $i: task ${p#/proc/} $(cat "$p/comm" 2>/dev/null): $(tr '\n' ' ' <"$p/stack" 2>/dev/null)"
		done >>"$IW/failures"
		wait_for 600 gone "$srv" "$cli"
		echo "round $i: ${tool[0]} did not end within $(tmo 60) s when killed, ended after $((SECONDS - t1)) s (a QP or MR that does not go?)" >>"$IW/failures"
		return 1
	fi
	wait "$srv" "$cli" 2>/dev/null
	IW_ROUNDS=$((IW_ROUNDS + 1))
}
if wait_for "$(tmo 60)" iw_ready; then
	for ((i = 0; i < ROUNDS; i++)); do
		iw_round "$i" || break
	done
else
	echo "the in-window fuzzers did not start: $(tail -n 2 "$IW/at1.out" "$IW/at2.out")" >>"$IW/failures"
fi
touch "$IW/at1/end" "$IW/at2/end"
iw_end() {
	local tag pid
	for tag in at1 at2; do
		eval "pid=\$IW_$tag"
		wait_for "$(tmo 60)" gone "$pid" || kill "$pid" 2>/dev/null
		wait "$pid" || echo "the in-window fuzzer $tag: exit $?: $(tail -n 2 "$IW/$tag.out")" >>"$IW/failures"
	done
}
iw_end
iw_n1a=$(counter_of "$DEV_A" naks_sent) iw_n1b=$(counter_of "$DEV_B" naks_sent)
IW_SENT=$(cat "$IW"/at1/done.* "$IW"/at2/done.* 2>/dev/null | awk '{ n += $1 } END { print n + 0 }')
ktap_info "in-window: $IW_ROUNDS rounds of $ROUNDS in $((SECONDS - t0)) s, $IW_SENT requests, victims killed (ERR) $IW_KILLED, left live $IW_LIVE, NAKs sent by h1 $((iw_n1a - iw_n0a)), by h2 $((iw_n1b - iw_n0b))"
for tag in at1 at2; do
	[ -s "$IW/$tag.json" ] && ktap_info "in-window at ${tag/at/h}'s QPs: $(jq -c '{sent, bursts, kind, opcode}' "$IW/$tag.json")"
done
# iw_clean: every round ran, every victim live (RTR, RTS) or ERR after its bursts
iw_clean() {
	if [ -s "$IW/failures" ] || [ "$IW_ROUNDS" != "$ROUNDS" ]; then
		cat "$IW/failures"
		return 1
	fi
}
check "in-window: $ROUNDS rounds of throwaway QPs, $BURST requests at each of 2 a round: each victim live or ERR after, its processes end" \
	iw_clean
# iw_reached: the requests got past the window to placement
iw_reached() {
	echo "killed $IW_KILLED, NAKs $((iw_n1a - iw_n0a)) + $((iw_n1b - iw_n0b))"
	[ "$IW_KILLED" -gt 0 ] && [ $((iw_n1a - iw_n0a + iw_n1b - iw_n0b)) -gt 0 ]
}
check "in-window: the requests reached the responders (NAKs sent, victims in ERR)" iw_reached
q4=$(pings v4) q6=$(pings v6)
wait_for "$(tmo 60)" pinging v4 $((q4 + 5))
wait_for "$(tmo 60)" pinging v6 $((q6 + 5))
iw_rpings() { still v4 $((q4 + 5)) && still v6 $((q6 + 5)) && no_err; }
check "after the in-window fuzz: both rping -V verify pings, no error, no RC QP in ERR" iw_rpings

ktap_info "pings verified in all: IPv4 $(pings v4), IPv6 $(pings v6)"

stop_all
topo_cleanup
unloaded() {
	modprobe -r mrc || { rdma link show; return 1; }
	[ ! -d /sys/module/mrc ]
}
check "the devices go, mrc unloads" unloaded
ktap_finish
