# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The scale part of `make bench` (sourced by tests/bench/run in the VM):
# mrc on the lab fabric (its four planes unshaped), BENCH_SCALE_QPS RC QPs
# (default 1000) between h1 and h2 in one ib_write_bw -q N -t 16 (20
# writes of 4 KiB on each, then --wait_destroy keeps them), with
# the devices' EV sets of 128 and then of 256 EVs each:
#   create    seconds from the client's start until h1's device counts
#             all its QPs (mrcctl dev show, sampled every ~0.2 s): creating
#             and connecting them, perftest's own setup included
#   memory    kernel memory per QP as mrc reports it (qp_mem / qps of h1's
#             device, all QPs idle), and beside it what Slab + VmallocUsed
#             + Percpu of /proc/meminfo grew by, per QP of both ends (so
#             also their MRs, CQs and the IB core's objects)
#   idle      the CPUs' busy share while the QPs are connected and idle
#             (perftest's --wait_destroy), against the same before the run
#   teardown  seconds from the last sample with all QPs to the first with
#             none left (perftest destroying them, the device waiting for
#             each)
#   bandwidth ib_write_bw -s 65536 over all of them at once against one QP
#             (-t 128) in the same fabric (issue 20's goal: >= 0.9)
# Records "scale|EVS|KEY" values; scale_table prints them. Nothing here
# fails the bench: what cannot be measured is recorded "failed".

SCALE_QPS=${BENCH_SCALE_QPS:-1000}
SCALE_IDLE=5
SCALE_TMO=900	# a guard for perftest: 2,000 QPs under TCG take minutes

# _scale_count: "QPS BYTES" of h1's device
_scale_count() {
	"$TOPO_MRCCTL" -n "$NS_A" -j dev show "$DEV_A" 2>/dev/null |
		jq -r '.[0] | "\(.qps) \(.qp_mem)"' 2>/dev/null
}

# _scale_meminfo: kernel memory that QPs take from, kB
_scale_meminfo() {
	awk '/^(Slab|VmallocUsed|Percpu):/ { s += $2 } END { print s }' /proc/meminfo
}

# _scale_busy SECONDS: the CPUs' busy share (%) over SECONDS
_scale_busy() {
	local a b
	a=$(awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat)
	sleep "$1"
	b=$(awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat)
	echo "$a $b" | awk '{ printf "%.1f", (($4 - $2) > 0 ? 100 * ($3 - $1) / ($4 - $2) : 0) }'
}

# _scale_wait COND SECONDS [PID]: until COND (a command) holds, polling;
# fails after SECONDS or once PID is gone
_scale_wait() {
	local end=$((SECONDS + $2))
	until "$1"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		[ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
		sleep 0.2
	done
}

# _scale_round EVS: one round with EV sets of EVS EVs; records scale|EVS|*
_scale_round() {
	local evs=$1 log=$LOGS/scale-$1 base q m qpn mem0 busy0 t0 t1 spid cpid k
	local hold=$((SCALE_IDLE + 15))
	for k in "$NS_A $DEV_A" "$NS_B $DEV_B"; do
		# shellcheck disable=SC2086 # two words
		set -- $k
		"$TOPO_MRCCTL" -n "$1" dev set "$2" evs "$evs" || { record "scale|$evs|note" failed; return; }
	done
	read -r base _ <<<"$(_scale_count)"
	mem0=$(_scale_meminfo)
	busy0=$(_scale_busy "$SCALE_IDLE")
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$SCALE_TMO" ib_write_bw -d "$DEV_B" -x "$GID_B" -p "$PORT" -F -u 18 \
		-q "$SCALE_QPS" -t 16 -s 4096 -n 20 --wait_destroy="$hold" >"$log.server" 2>&1 &
	spid=$!
	sleep 2
	t0=$EPOCHREALTIME
	ip netns exec "$NS_A" timeout -k 5 "$SCALE_TMO" ib_write_bw -d "$DEV_A" -x "$GID_A" -p "$PORT" -F -u 18 \
		-q "$SCALE_QPS" -t 16 -s 4096 -n 20 --wait_destroy="$hold" "$IP_B" >"$log.client" 2>&1 &
	cpid=$!
	_all() { read -r q m <<<"$(_scale_count)"; [ "${q:-0}" -ge $((base + SCALE_QPS)) ]; }
	if ! _scale_wait _all "$SCALE_TMO" "$cpid"; then
		record "scale|$evs|note" "h1 never had $SCALE_QPS more QPs (logs: $log.*)"
		kill "$cpid" "$spid" 2>/dev/null
		wait
		return
	fi
	t1=$EPOCHREALTIME
	record "scale|$evs|create" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
	# the writes done (the client printed its result), the QPs idle
	_done() { grep -q '^ *4096 ' "$log.client"; }
	_scale_wait _done "$SCALE_TMO" "$cpid" || record "scale|$evs|note" "the writes did not end"
	sleep 1
	read -r q m <<<"$(_scale_count)"
	# what an EV set of that count holds: rotation slots, and backups
	# (a plane with several paths gets as many, up to 256 in all)
	qpn=$(ip netns exec "$NS_A" rdma -j res show qp link "$DEV_A" 2>/dev/null |
		jq -r '[.[] | select(.type == "RC") | .lqpn][0] // empty')
	[ -z "$qpn" ] || record "scale|$evs|evset" "$("$TOPO_MRCCTL" -n "$NS_A" -j ev show dev "$DEV_A" qpn "$qpn" |
		jq -r '"\(length) \([.[] | select(.slot != null)] | length)"')"
	record "scale|$evs|mem" "$(awk -v m="$m" -v q="$q" 'BEGIN { printf "%.0f", q ? m / q : 0 }')"
	record "scale|$evs|meminfo" "$(awk -v a="$mem0" -v b="$(_scale_meminfo)" -v n="$SCALE_QPS" \
		'BEGIN { printf "%.0f", (b - a) * 1024 / (2 * n) }')"
	record "scale|$evs|idle" "$busy0 $(_scale_busy "$SCALE_IDLE")"
	# teardown: from the last sample with all of them to none
	while _all; do t0=$EPOCHREALTIME; sleep 0.2; done
	_none() { read -r q m <<<"$(_scale_count)"; [ "${q:-0}" -le "$base" ]; }
	if _scale_wait _none "$SCALE_TMO"; then
		record "scale|$evs|teardown" "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
	else
		record "scale|$evs|teardown" failed
	fi
	wait "$cpid" "$spid"
	[ "$evs" != 128 ] || _scale_bw
}

# _scale_stat NAME: h1's device counter NAME (rdma statistic)
_scale_stat() {
	ip netns exec "$NS_A" rdma -j statistic show link "$DEV_A/1" 2>/dev/null |
		jq -r ".[0].$1 // empty"
}

# _scale_bw: ib_write_bw -s 65536 over SCALE_QPS QPs against one (Gb/s),
# each run long enough for several rounds of the many QPs' messages (a
# round of 1,000 x 64 KiB takes seconds here); h1's retransmissions and
# timeouts during each
_scale_bw() {
	local n t v log=$LOGS/scale-bw spid crc r0 o0 d=$((SECS * 4))
	record "scale|bw secs" "$d"
	# one message in flight on each of the many (16 x 64 KiB on each of
	# 1,000 would take longer than the run); 128 on the one
	for n in 1 "$SCALE_QPS"; do
		t=128
		[ "$n" = 1 ] || t=1
		PORT=$((PORT + 1))
		ip netns exec "$NS_B" timeout -k 5 "$SCALE_TMO" ib_write_bw -d "$DEV_B" -x "$GID_B" -p "$PORT" -F \
			-u 18 -q "$n" -t "$t" -s 65536 -D "$d" >"$log-$n.server" 2>&1 &
		spid=$!
		sleep 2
		r0=$(_scale_stat retransmits) o0=$(_scale_stat timeouts)
		ip netns exec "$NS_A" timeout -k 5 "$SCALE_TMO" ib_write_bw -d "$DEV_A" -x "$GID_A" -p "$PORT" -F \
			-u 18 -q "$n" -t "$t" -s 65536 -D "$d" "$IP_B" >"$log-$n.client" 2>&1
		crc=$?
		wait "$spid"
		record "scale|bw $n|rtx" "$(($(_scale_stat retransmits) - ${r0:-0})) $(($(_scale_stat timeouts) - ${o0:-0}))"
		if [ "$crc" = 0 ] && v=$(perf_value "$log-$n.client" BW_average); then
			record "scale|bw $n" "$(gbits "$v")"
		else
			record "scale|bw $n" failed
		fi
	done
}

run_scale() {
	selected scale write_bw || return 0
	[ -z "${BENCH_MRC_SKIP:-}" ] || return 0
	record scale_qps "$SCALE_QPS"
	say "scale: $SCALE_QPS QPs on the lab fabric"
	if ! topo_fabric mrc >"$LOGS/scale-topology.log" 2>&1; then
		record "scale|128|note" "the fabric failed ($(tail -1 "$LOGS/scale-topology.log"))"
		topo_cleanup
		return 0
	fi
	_scale_round 128
	_scale_round 256
	topo_cleanup
}

# scale_table: the figures, from the values in V (run's table())
scale_table() {
	local evs b0 b1
	selected scale write_bw || return 0
	echo
	echo "scale: ${V[scale_qps]:-$SCALE_QPS} RC QPs h1 -> h2 on the lab fabric (4 planes, unshaped)," \
		"created by one ib_write_bw -q ${V[scale_qps]:-$SCALE_QPS} -t 16"
	printf '  %-8s %10s %10s %12s %16s %12s %10s\n' "EVs/QP" "create s" "teardown s" "mrc B/QP" \
		"meminfo B/QP" "busy% idle" "set/slots"
	for evs in 128 256; do
		[ -z "${V[scale|$evs|note]:-}" ] || echo "  $evs: ${V[scale|$evs|note]}"
		read -r b0 b1 <<<"${V[scale|$evs|idle]:--}"
		printf '  %-8s %10s %10s %12s %16s %12s %10s\n' "$evs" "${V[scale|$evs|create]:--}" \
			"${V[scale|$evs|teardown]:--}" "${V[scale|$evs|mem]:--}" "${V[scale|$evs|meminfo]:--}" \
			"${b0:--} -> ${b1:--}" "$(tr ' ' / <<<"${V[scale|$evs|evset]:--}")"
	done
	echo "  (mrc B/QP: qp_mem / qps of h1's device; meminfo: Slab + VmallocUsed + Percpu grown, per QP" \
		"of both ends, MRs and CQs too; busy%: before the run -> with the QPs idle; set/slots: EVs" \
		"in one QP's set / in its rotation, the rest backups)"
	local n=${V[scale_qps]:-$SCALE_QPS}
	b1=${V[scale|bw $n]:--} b0=${V[scale|bw 1]:--}
	echo "  ib_write_bw -s 65536, 128 EVs, ${V[scale|bw secs]:-?} s: 1 QP (128 outstanding) ${b0} Gb/s," \
		"$n QPs (1 each) ${b1} Gb/s: $(ratio "$b1" "$b0") (goal >= 0.9)"
	echo "  h1's retransmissions/timeouts during them: 1 QP $(tr ' ' / <<<"${V[scale|bw 1|rtx]:--}")," \
		"$n QPs $(tr ' ' / <<<"${V[scale|bw $n|rtx]:--}")"
}
