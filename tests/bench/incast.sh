# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The incast part of `make bench` (sourced by tests/bench/run in the VM):
# N senders write at once into one receiver through the incast lab's
# bottleneck (tests/selftests/incast.sh: a 20 Mbit/s port, or
# BENCH_INCAST_KBIT), each ib_write_bw -s 65536 -n ITERS (BENCH_INCAST_KB
# KiB each, 1024 by default), for each N of BENCH_INCAST_N ("8 16"):
#   mrc off         fq_codel marking CE above 2 ms, mrc's congestion
#                   control off
#   mrc nscc        the same port, NSCC on (the knobs mrc_incast.sh uses for
#                   this lab)
#   mrc trim off    a trimming switch's port (mrc_trim: 32 KiB FIFO, marks
#                   on a ramp from 8 to 24 KiB), congestion control off
#   mrc trim nscc   the same port, NSCC on
# Per run ("incast|N|RUN" values, incast_table prints them):
#   last completion: from the first to the last data byte the port sent,
#     against the ideal N x size / rate (payload only: the headers of
#     1 KiB packets add about a tenth on the wire)
#   util: the port's bytes (headers included) over its rate while it
#     carried the incast
#   backlog median and p99 (KiB), sampled every ~10 ms while it did
#   Jain's fairness index over the senders' goodputs (perftest BW
#     average), and the slowest and fastest of them (Mbit/s)
#   timeouts and retransmissions (mrc's counters), trims (the switch's)
# Then a flow joining and leaving, in a 2:1 lab at the same rate, for off,
# nscc and trim nscc ("incast|join|RUN"): sender 1 writes for 3 x JOIN s
# (BENCH_INCAST_JOIN, 6 by default); JOIN s in, sender 2 writes for JOIN s.
# From what the switch took from each (10 ms samples, 100 ms windows):
#   join: the time from sender 2's first bytes to its first window at 80 %
#     of its fair share (half the port)
#   both: each sender's rate while both write (the middle half of it)
#   leave: the time from sender 2's last bytes to sender 1's first window
#     at 90 % of its rate alone (the 2 s before the join)
# rxe is not run here: the lab puts every host in a namespace of its own,
# and rxe's UDP socket (6.12) lives in the initial one, which is why the
# rxe figures elsewhere in the bench use topo_host (its ib_write_bw fails
# at once in the lab, status 5). Nothing here fails the bench: a run that
# fails is recorded "failed".

INC_RATE=${BENCH_INCAST_KBIT:-20000}
INC_KB=${BENCH_INCAST_KB:-1024}
INC_NS_LIST=${BENCH_INCAST_N:-8 16}
INC_JOIN=${BENCH_INCAST_JOIN:-6}
# NSCC for this lab: the same knobs as mrc_incast.sh
INC_CC=(algo nscc base_rtt 1000 target_delay 1000000 max_cwnd 16384 eta 2 'fi' 85
	fi_scale 273 qa_threshold 4000000 adjust_bytes_threshold 8192
	adjust_period_threshold 1000000)
[ -z "${BENCH_INCAST_CC:-}" ] || read -ra INC_CC <<<"$BENCH_INCAST_CC"

# _incast_sampler FILE: until killed, "time_ns bytes backlog_bytes" lines
# of the bottleneck's root qdisc, every ~10 ms (trimq.py watch: one python
# process; tc would be one process per sample, 150 ms each under TCG)
_incast_sampler() {
	# nsenter execs python: $! is the sampler itself
	netns "$INC_NS_SW" python3 "$REPO/tests/trimq/trimq.py" watch dev tr interval 0.01 \
		>"$1" 2>/dev/null &
	INC_SAMPLER=$!
	# python takes seconds to start under TCG
	bench_first_sample "$1"
}

# _incast_window FILE: "ms util p50 p99": from the first sample the port
# sent more than 64 KiB since the start to the last one it sent anything;
# the port's utilisation over that time; its backlog's median and p99, KiB
_incast_window() {
	local w q
	w=$(awk -v rate="$INC_RATE" '
	NR == 1 { b0 = $2 }
	{ t[NR] = $1 / 1e6; b[NR] = $2 - b0 }
	END {
		for (i = 1; i <= NR; i++) if (b[i] > 65536) { s = i; break }
		for (i = NR; i > 1; i--) if (b[i] > b[i - 1]) { e = i; break }
		if (!s || e <= s) { print "- - -"; exit }
		printf "%d %d %.0f %.2f\n", s, e, t[e] - t[s],
			(b[e] - b[s]) * 8 / (rate * (t[e] - t[s]))
	}' "$1")
	set -- "$1" $w
	[ "$2" != - ] || { echo "- - - -"; return; }
	q=$(awk -v s="$2" -v e="$3" 'NR >= s && NR <= e { print $3 }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { p = int(NR * 0.99); if (p < 1) p = 1
			printf "%.1f %.1f", v[int((NR + 1) / 2)] / 1024, v[p] / 1024 }')
	echo "$4 $5 $q"
}

# _incast_counter KEY: KEY of every sender's device counters, added up
_incast_counter() {
	local k t=0 v
	for ((k = 1; k <= INC_N; k++)); do
		v=$(netns "${INC_NS[k]}" rdma -j statistic show link "${INC_DEV[k]}/1" |
			jq ".[0].$1 // 0") || v=0
		t=$((t + v))
	done
	echo "$t"
}

# _incast_listening PORT: the receiver's server listens on PORT (30 s guard)
_incast_listening() {
	local end=$((SECONDS + 30))
	until [ -n "$(netns "$INC_NS_R" ss -Hltn "sport = :$1")" ]; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# _incast_run KEY AQM CC: one incast; records "incast|KEY"
_incast_run() {
	local key=$1 aqm=$2 cc=$3 k p iters=$((INC_KB / 64)) rc=0 log
	local spids=() cpids=() bw=() tr0=0 tr1=0 to0 to1 rt0 rt1 w jain tmo
	local -a cc_args=(algo none)
	[ "$cc" = nscc ] && cc_args=("${INC_CC[@]}")
	log=$LOGS/incast-$(echo "$key" | tr '| ' '--')
	# ten times the ideal, at least a minute: a run still going then is
	# reported unfinished
	tmo=$(awk -v n="$INC_N" -v kb="$INC_KB" -v r="$INC_RATE" \
		'BEGIN { t = 10 * n * kb * 8.192 / r; printf "%d", t < 60 ? 60 : t }')
	incast_aqm "$aqm" "$INC_RATE" >"$log.aqm" 2>&1 || { record "incast|$key" failed; return; }
	for ((k = 1; k <= INC_N; k++)); do
		netns "${INC_NS[k]}" "$TOPO_MRCCTL" cc set dev "${INC_DEV[k]}" "${cc_args[@]}" ||
			{ record "incast|$key" failed; return; }
	done
	to0=$(_incast_counter timeouts) rt0=$(_incast_counter retransmits)
	[ "$aqm" != trim ] || tr0=$(incast_trimq qdisc show dev tr | jq '.xstats.trimmed')
	for ((k = 1; k <= INC_N; k++)); do
		p=$((PORT + k))
		ip netns exec "$INC_NS_R" timeout -k 5 "$((tmo + 30))" ib_write_bw -d "$INC_DEV_R" \
			-x "$INC_GID_R" -p "$p" -F -s 65536 -n "$iters" >"$log.srv$k" 2>&1 &
		spids[k]=$!
	done
	for ((k = 1; k <= INC_N; k++)); do
		_incast_listening $((PORT + k)) || rc=1
	done
	_incast_sampler "$log.samples"
	for ((k = 1; k <= INC_N; k++)); do
		ip netns exec "${INC_NS[k]}" timeout -k 5 "$tmo" ib_write_bw -d "${INC_DEV[k]}" \
			-x "${INC_GID[k]}" -p $((PORT + k)) -F -s 65536 -n "$iters" "$INC_IP_R" \
			>"$log.cli$k" 2>&1 &
		cpids[k]=$!
	done
	for ((k = 1; k <= INC_N; k++)); do
		wait "${cpids[k]}"
		case $? in
		0) ;;
		124 | 137) [ $rc != 0 ] || rc=2 ;;
		*) rc=1 ;;
		esac
		wait "${spids[k]}" || [ $rc = 2 ] || rc=1
	done
	sleep 0.5
	kill "$INC_SAMPLER" 2>/dev/null
	wait "$INC_SAMPLER" 2>/dev/null
	PORT=$((PORT + INC_N))
	if [ $rc = 2 ]; then
		say "incast $key: unfinished after $tmo s (logs: $log.*)"
		record "incast|$key" "unfinished $tmo"
		return
	elif [ $rc != 0 ]; then
		# status 12: IBV_WC_RETRY_EXC_ERR, the QP gave up
		k=$(cat "$log".cli* | grep -c 'Failed status 12')
		say "incast $key: a tool failed, $k QPs with retry exceeded (logs: $log.*)"
		record "incast|$key" "failed $k"
		return
	fi
	to1=$(_incast_counter timeouts) rt1=$(_incast_counter retransmits)
	[ "$aqm" != trim ] || tr1=$(incast_trimq qdisc show dev tr | jq '.xstats.trimmed')
	for ((k = 1; k <= INC_N; k++)); do
		bw[k]=$(perf_value "$log.cli$k" BW_average) || bw[k]=0
	done
	# Jain's index, the slowest and the fastest (Mbit/s, 2^20-byte MB)
	jain=$(printf '%s\n' "${bw[@]}" | awk '
		{ x = $1 * 8.388608; s += x; q += x * x; n++
		  if (n == 1 || x < lo) lo = x; if (x > hi) hi = x }
		END { if (q > 0) printf "%.3f %.2f %.2f", s * s / (n * q), lo, hi; else print "- - -" }')
	w=$(_incast_window "$log.samples")
	record "incast|$key" "$w $jain $((to1 - to0)) $((rt1 - rt0)) $((tr1 - tr0))"
	say "incast $key: ms util p50 p99 jain lo hi timeouts retrans trims: $w $jain" \
		"$((to1 - to0)) $((rt1 - rt0)) $((tr1 - tr0))"
}

# _incast_flow_sampler FILE: until killed, "time_ns b1 b2" lines: the
# bytes the switch took from senders 1 and 2, every ~10 ms (bench_sampler)
_incast_flow_sampler() {
	bench_sampler "$INC_NS_SW" "$1" /sys/class/net/t1/statistics/rx_bytes \
		/sys/class/net/t2/statistics/rx_bytes
	INC_SAMPLER=$BENCH_SAMPLER
}

# _incast_join_windows FILE: "join_ms a_both b_both leave_ms a_alone"
# (Mbit/s), or dashes for what the samples do not show
_incast_join_windows() {
	awk -v rate="$INC_RATE" '
	{ t = $1 / 1e6; a = $2; b = $3 }
	NR == 1 { w0 = t; wa = a; wb = b; next }
	t - w0 >= 100 {
		n++; ts[n] = w0; te[n] = t
		ra[n] = (a - wa) * 8 / ((t - w0) * 1000)
		rb[n] = (b - wb) * 8 / ((t - w0) * 1000)
		w0 = t; wa = a; wb = b
	}
	END {
		for (i = 1; i <= n; i++) if (rb[i] > 0.1) { j = i; break }
		for (i = n; i >= 1; i--) if (rb[i] > 0.1) { l = i; break }
		if (!j || l <= j) { print "- - - - -"; exit }
		for (i = 1; i < j; i++) if (ts[i] >= ts[j] - 2000 && ra[i] > 0) { s += ra[i]; sn++ }
		alone = sn ? s / sn : 0
		fair = rate / 2000
		jm = "-"
		for (i = j; i <= l; i++) if (rb[i] >= 0.8 * fair) { jm = ts[i] - ts[j]; break }
		q = int((l - j) / 4)
		for (i = j + q; i <= l - q; i++) { sa += ra[i]; sb += rb[i]; bn++ }
		lm = "-"
		if (alone > 0)
			for (i = l + 1; i <= n; i++) if (ra[i] >= 0.9 * alone) { lm = ts[i] - te[l]; break }
		printf "%s %.2f %.2f %s %.2f\n", jm, bn ? sa / bn : 0, bn ? sb / bn : 0, lm, alone
	}' "$1"
}

# _incast_join RUN AQM CC: the flow joining and leaving; records
# "incast|join|RUN"
_incast_join() {
	local run=$1 aqm=$2 cc=$3 k log=$LOGS/incast-join-$1 rc=0 pids=() w
	local -a cc_args=(algo none) dur=($((3 * INC_JOIN)) "$INC_JOIN")
	[ "$cc" = nscc ] && cc_args=("${INC_CC[@]}")
	incast_aqm "$aqm" "$INC_RATE" >"$log.aqm" 2>&1 || { record "incast|join|$run" failed; return; }
	for k in 1 2; do
		netns "${INC_NS[k]}" "$TOPO_MRCCTL" cc set dev "${INC_DEV[k]}" "${cc_args[@]}" ||
			{ record "incast|join|$run" failed; return; }
	done
	_incast_flow_sampler "$log.samples"
	for k in 1 2; do
		ip netns exec "$INC_NS_R" timeout -k 5 $((dur[k - 1] + 60)) ib_write_bw -d "$INC_DEV_R" \
			-x "$INC_GID_R" -p $((PORT + k)) -F -s 65536 -D "${dur[k - 1]}" >"$log.srv$k" 2>&1 &
		pids+=($!)
		_incast_listening $((PORT + k)) || rc=1
		ip netns exec "${INC_NS[k]}" timeout -k 5 $((dur[k - 1] + 60)) ib_write_bw \
			-d "${INC_DEV[k]}" -x "${INC_GID[k]}" -p $((PORT + k)) -F -s 65536 \
			-D "${dur[k - 1]}" "$INC_IP_R" >"$log.cli$k" 2>&1 &
		pids+=($!)
		[ "$k" = 2 ] || sleep "$INC_JOIN"
	done
	for k in "${pids[@]}"; do wait "$k" || rc=1; done
	sleep 1
	kill "$INC_SAMPLER" 2>/dev/null
	wait "$INC_SAMPLER" 2>/dev/null
	PORT=$((PORT + 2))
	if [ $rc != 0 ]; then
		say "incast join $run: a tool failed (logs: $log.*)"
		record "incast|join|$run" failed
		return
	fi
	w=$(_incast_join_windows "$log.samples")
	record "incast|join|$run" "$w"
	say "incast join $run: join_ms a_both b_both leave_ms a_alone: $w"
}

run_incast() {
	local n
	selected incast write_bw || return 0
	SCALE=${SCALE:-1}
	# shellcheck source-path=SCRIPTDIR/../.. source=tests/selftests/incast.sh
	source "$REPO/tests/selftests/incast.sh"
	record incast_kbit "$INC_RATE"
	record incast_kb "$INC_KB"
	record incast_ns "$INC_NS_LIST"
	for n in $INC_NS_LIST; do
		[ -z "${BENCH_MRC_SKIP:-}" ] || break
		say "incast: $n:1, $INC_KB KiB each, $INC_RATE kbit/s"
		if ! incast_up mrc "$n" "$INC_RATE" fq_codel >"$LOGS/incast-$n.up" 2>&1; then
			record "incast|$n|mrc off" failed
			incast_cleanup
			continue
		fi
		_incast_run "$n|mrc off" fq_codel none
		_incast_run "$n|mrc nscc" fq_codel nscc
		_incast_run "$n|mrc trim off" trim none
		_incast_run "$n|mrc trim nscc" trim nscc
		incast_cleanup
	done
	[ -z "${BENCH_MRC_SKIP:-}" ] || return 0
	record incast_join "$INC_JOIN"
	say "incast: a flow joining and leaving, 2:1, $INC_RATE kbit/s"
	if incast_up mrc 2 "$INC_RATE" fq_codel >"$LOGS/incast-join.up" 2>&1; then
		_incast_join off fq_codel none
		_incast_join nscc fq_codel nscc
		_incast_join 'trim nscc' trim nscc
	else
		record "incast|join|off" failed
	fi
	incast_cleanup
}

# incast_table: the figures, from the values in V (run's table())
incast_table() {
	local n r ms util p50 p99 jain lo hi to rt trims ideal
	selected incast write_bw || return 0
	echo
	echo "incast: N senders x ${V[incast_kb]:-$INC_KB} KiB (ib_write_bw -s 65536) into one receiver" \
		"through a ${V[incast_kbit]:-$INC_RATE} kbit/s port (tests/selftests/incast.sh)"
	printf '  %-18s %9s %6s %5s %7s %7s %6s %13s %5s %6s %6s\n' run "last, s" /ideal util \
		"q50 KiB" "q99 KiB" jain "Mbit/s lo-hi" RTOs retx trims
	for n in ${V[incast_ns]:-$INC_NS_LIST}; do
		ideal=$(awk -v n="$n" -v kb="${V[incast_kb]:-$INC_KB}" -v r="${V[incast_kbit]:-$INC_RATE}" \
			'BEGIN { printf "%.3f", n * kb * 1024 * 8 / (r * 1000) }')
		for r in 'mrc off' 'mrc nscc' 'mrc trim off' 'mrc trim nscc'; do
			[ -n "${V[incast|$n|$r]:-}" ] || continue
			read -r ms util p50 p99 jain lo hi to rt trims <<<"${V[incast|$n|$r]}"
			[ "$ms" != failed ] || {
				printf '  %-18s failed: %s of %s QPs ended with retry exceeded\n' \
					"$n:1 $r" "${util:-?}" "$n"
				continue
			}
			[ "$ms" != unfinished ] ||
				{ printf '  %-18s unfinished after %s s\n' "$n:1 $r" "$util"; continue; }
			printf '  %-18s %9s %6s %5s %7s %7s %6s %13s %5s %6s %6s\n' "$n:1 $r" \
				"$(awk -v m="$ms" 'BEGIN { if (m ~ /^[0-9]/) printf "%.2f", m / 1000; else print "-" }')" \
				"$(ratio "$(awk -v m="$ms" 'BEGIN { if (m ~ /^[0-9]/) print m / 1000; else print "-" }')" "$ideal")" \
				"$util" "$p50" "$p99" "$jain" "$lo-$hi" "$to" "$rt" "$trims"
		done
		echo "  $n:1 ideal: $ideal s (N x size / rate, payload only)"
	done
	echo "  trims: the switch's count; rxe cannot run in the lab's namespaces (incast.sh)"
	[ -n "${V[incast|join|off]:-}" ] || return 0
	echo "  a flow joining and leaving (2:1, sender 2 for ${V[incast_join]:-$INC_JOIN} s of" \
		"sender 1's $((3 * ${V[incast_join]:-$INC_JOIN}))):"
	printf '  %-18s %14s %19s %16s %12s\n' run "join to 80 %" "both, Mbit/s 1 / 2" \
		"leave to 90 %" "1 alone"
	for r in off nscc 'trim nscc'; do
		read -r jm a b lm alone <<<"${V[incast|join|$r]:--}"
		[ "$jm" != failed ] || { printf '  %-18s failed\n' "mrc $r"; continue; }
		printf '  %-18s %14s %19s %16s %12s\n' "mrc $r" "${jm:--} ms" "${a:--} / ${b:--}" \
			"${lm:--} ms" "${alone:--}"
	done
	echo "  fair share: $(awk -v r="${V[incast_kbit]:-$INC_RATE}" 'BEGIN { print r / 2000 }') Mbit/s each"
}
