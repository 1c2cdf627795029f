# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The fault part of `make bench` (sourced by tests/bench/run in the VM):
# mrc on the lab fabric with h1's four plane links shaped to PLANE_MBIT
# each, ib_write_bw -s 65536 h1 -> h2, and:
#   blackhole  netem loss 100 % on t0-p0-0:t1-p0-0 (one of plane 0's two
#              paths) after SECS seconds: time from the fault to the first
#              and the last EV of that path leaving the QP's rotation
#              (mrcctl monitor), and what h2 received in windows of 10 ms
#              or more (the sampler's pace; ~35 ms under TCG):
#              the mean before, how long it stayed below half of that
#              (and its worst window), the mean 5-8 s after the fault.
#              Three times: with ib_write_bw's 128 writes outstanding
#              (queues of seconds: congestion control off), with one
#              (light load: what detection itself takes), and
#              with 128 under NSCC (FAULTS_CC: the incast lab's knobs with
#              the largest window for the four planes' 40 Mbit/s)
#   loss       goodput at 0.1, 1 and 5 % random loss on all four plane
#              links against none, mrc with its default profile (NSCC
#              with its defaults) and with congestion control off; rxe
#              beside, on one veth shaped to the sum of the four rates,
#              under the same loss; and mrc with 1 and 5 % on plane 1's
#              link only (the selftests check that these complete; the
#              figures are here)
#   plane      h1's plane 3 down after SECS seconds: how long what h2
#              receives stays below half, when it is back to (N-1)/N = 0.75
#              of before (within 10 %), and what it receives 5-8 s after
#              against before; the QP's smoothed RTT beside. Twice, with
#              128 writes outstanding: congestion control off (the shaped
#              links queue for a quarter of a second) and NSCC (FAULTS_CC:
#              short queues, so the resends are not held behind them)
# Records "faults|KEY" values; faults_table prints them. Nothing here
# fails the bench: a figure that cannot be measured is recorded "failed".

# _faults_sampler FILE: until killed, "time_ns bytes..." lines: what h2's
# plane links received, each, every 10 ms or more (bench_sampler)
_faults_sampler() {
	bench_sampler "$NS_B" "$1" '/sys/class/net/p[0-9]*/statistics/rx_bytes'
	SAMPLER=$BENCH_SAMPLER
}

# _faults_windows FILE FAULT_NS [SHARE]: "before stall worst after [back
# reached] win": Mbit/s in the 2 s before the fault; ms of windows (10 ms
# or more) below half of that in the 5 s after it; the worst such window
# (Mbit/s); Mbit/s from 5 to 8 s after it. With SHARE (the part of before
# that should remain, 0.75 for one plane of four): "back", ms from the
# fault to the end of the last three windows in those 5 s below 90 % of
# SHARE x before (0: none was), and "reached", ms to the end of the first
# window at or above it. Last, the windows' mean length (ms): what the
# times can resolve
_faults_windows() {
	awk -v f="$2" -v share="${3:-0}" '
	{ t = $1 / 1e6; b = 0; for (i = 2; i <= NF; i++) b += $i }	# ms, bytes
	NR == 1 { w0 = t; wb = b; next }
	t - w0 >= 10 {
		r = (b - wb) * 8 / ((t - w0) * 1000)	# Mbit/s
		m = (w0 + t) / 2 - f / 1e6		# mid-window, ms after the fault
		if (m < 0 && m >= -2000) { bs += r; bn++ }
		if (m >= 0 && m < 5000) {
			w[++wn] = r; d[wn] = t - w0; e[wn] = t - f / 1e6
		}
		if (m >= 5000 && m < 8000) { as += r; an++ }
		w0 = t; wb = b
	}
	END {
		if (!bn || !an || !wn) { print "- - - -"; exit }
		for (i = 1; i <= wn; i++) dsum += d[i]
		before = bs / bn
		worst = w[1]
		for (i = 1; i <= wn; i++) {
			if (w[i] < before / 2) stall += d[i]
			if (w[i] < worst) worst = w[i]
		}
		printf "%.2f %.0f %.2f %.2f", before, stall, worst, as / an
		if (share > 0) {
			back = 0
			for (i = 3; i <= wn; i++) {
				sb = w[i] * d[i] + w[i-1] * d[i-1] + w[i-2] * d[i-2]
				if (sb / (d[i] + d[i-1] + d[i-2]) < 0.9 * share * before)
					back = e[i]
			}
			reached = "-"
			for (i = 1; i <= wn && reached == "-"; i++)
				if (w[i] >= 0.9 * share * before)
					reached = sprintf("%.0f", e[i])
			printf " %.0f %s", back, reached
		}
		printf " %.0f\n", dsum / wn
	}' "$1"
}

# _faults_bw SECONDS LOG [OUTSTANDING]: ib_write_bw h1 -> h2 on the fabric
# for SECONDS (OUTSTANDING writes, default 128), in the background (BWPID)
_faults_bw() {
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" ib_write_bw -d "$DEV_B" -x "$GID_B" -p "$PORT" -F -u 18 \
		-s 65536 -t "${3:-128}" -D "$1" >"$2.server" 2>&1 &
	sleep 2
	ip netns exec "$NS_A" ib_write_bw -d "$DEV_A" -x "$GID_A" -p "$PORT" -F -u 18 \
		-s 65536 -t "${3:-128}" -D "$1" "$IP_B" >"$2.client" 2>&1 &
	BWPID=$!
}

# _faults_dead_path: h1's path to h2 through t0-p0-0 and t1-p0-0
_faults_dead_path() {
	# shellcheck disable=SC2016 # $u is jq's
	ip netns exec "$NS_A" "$TOPO_MRCCTL" -j path show dev "$DEV_A" |
		jq -r --arg u "fc00:0:$(fabric_usid t0-p0-0):$(fabric_usid t1-p0-0):" --arg p "$CM_B" \
			'[.[] | select(.peer == $p and (.usid | startswith($u))) | .path][0] // empty'
}

FAULTS_CC=(algo nscc base_rtt 1000 target_delay 1000000 max_cwnd 32768 eta 2 'fi' 85
	fi_scale 273 qa_threshold 4000000 adjust_bytes_threshold 8192
	adjust_period_threshold 1000000)

# _faults_cc ALGO: both hosts' congestion control profile (nscc: FAULTS_CC)
_faults_cc() {
	local a=(algo none)
	[ "$1" != nscc ] || a=("${FAULTS_CC[@]}")
	ip netns exec "$NS_A" "$TOPO_MRCCTL" cc set dev "$DEV_A" "${a[@]}" &&
		ip netns exec "$NS_B" "$TOPO_MRCCTL" cc set dev "$DEV_B" "${a[@]}"
}

# _faults_srtt: the smoothed RTT (ms) of h1's RC QP in RTS, what the loss
# detection's timers rest on
_faults_srtt() {
	local q
	q=$(ip netns exec "$NS_A" rdma -j res show qp | jq -r --arg d "$DEV_A" \
		'[.[] | select(.ifname == $d and .type == "RC" and .state == "RTS")][0].lqpn // empty')
	[ -n "$q" ] || { echo -; return; }
	ip netns exec "$NS_A" "$TOPO_MRCCTL" -j cc show dev "$DEV_A" qpn "$q" |
		jq -r '.[0].srtt / 1e6 | . * 100 | round / 100' 2>/dev/null || echo -
}

# _faults_blackhole KEY OUTSTANDING: the blackhole under ib_write_bw with
# OUTSTANDING writes; records faults|avoid$KEY, faults|dip$KEY and
# faults|srtt$KEY
_faults_blackhole() {
	local log=$LOGS/faults-bh$1 dead fault mon
	dead=$(_faults_dead_path)
	ip netns exec "$NS_A" "$TOPO_MRCCTL" -j monitor dev "$DEV_A" >"$log.mon" 2>&1 &
	mon=$!
	_faults_sampler "$log.samples"
	_faults_bw $((3 * SECS + 5)) "$log" "$2"
	sleep "$SECS"
	record "faults|srtt$1" "$(_faults_srtt)"
	fault=$(date +%s%N)
	fabric_netem t0-p0-0:t1-p0-0 loss 100%
	wait "$BWPID"
	fabric_netem_clear t0-p0-0:t1-p0-0
	kill "$SAMPLER" "$mon" 2>/dev/null
	wait "$SAMPLER" "$mon" 2>/dev/null
	wait
	# shellcheck disable=SC2016 # $p $f are jq's
	record "faults|avoid$1" "$(jq -rs --argjson p "${dead:-99}" --argjson f "$fault" '
		[.[] | select(.event == "ev" and .path == $p and .state == "ASSUMED_BAD" and
			.time_ns > $f) | .time_ns] |
		if length > 0 then "\(length) \((min - $f) / 1e6 | . * 10 | round / 10)" +
			" \((max - $f) / 1e6 | . * 10 | round / 10)" else "- - -" end' "$log.mon")"
	record "faults|dip$1" "$(_faults_windows "$log.samples" "$fault")"
	say "faults: blackhole, $2 outstanding: EVs retired (n, first ms, last ms):" \
		"$(grep "^faults|avoid$1	" "$VALUES" | cut -f2)"
}

# _faults_plane KEY: h1's plane 3 down under ib_write_bw, 128 writes
# outstanding; records faults|plane$KEY and faults|plane srtt$KEY
_faults_plane() {
	local log=$LOGS/faults-pl${1// /-} fault
	_faults_sampler "$log.samples"
	_faults_bw $((3 * SECS + 5)) "$log"
	sleep "$SECS"
	record "faults|plane srtt$1" "$(_faults_srtt)"
	fault=$(date +%s%N)
	fabric_link_down h1-p3
	wait "$BWPID"
	fabric_link_up h1-p3
	kill "$SAMPLER" 2>/dev/null
	wait
	record "faults|plane$1" "$(_faults_windows "$log.samples" "$fault" 0.75)"
}

# _faults_goodput TRANSPORT LOSS [PLANE]: ib_write_bw Gb/s at LOSS % (mrc,
# mrc-off: on the fabric's four shaped plane links, or on PLANE's only,
# with the devices' congestion control as it is; rxe: on its
# shaped veth). Queues of 10000 packets: with netem's 1000 the shaped queue
# overflows at once, and rxe (go-back-N) then measures its timeouts, not
# the loss
_faults_goodput() {
	local v='' p l key="faults|$1 $2${3:+ p$3}"
	if [ "$1" != rxe ]; then
		for p in 0 1 2 3; do
			l=$2
			[ -z "${3:-}" ] || [ "$p" = "$3" ] || l=0
			fabric_netem "h1-p$p" rate "${PLANE_MBIT}mbit" limit 10000 loss "$l%"
		done
		v=$(mp_write_bw)
	else
		topo_netem rate "$((4 * PLANE_MBIT))mbit" limit 10000 loss "$2%" &&
			v=$(bench_perf "rxe-loss$2" BW_average ib_write_bw -u 18 -s 65536 -D "$SECS")
	fi
	if [ -n "$v" ]; then record "$key" "$(gbits "$v")"; else record "$key" failed; fi
}

run_faults() {
	local l p
	selected faults write_bw || return 0
	if [ -z "${BENCH_MRC_SKIP:-}" ]; then
		say "faults: mrc over the lab fabric, planes shaped to $PLANE_MBIT Mbit/s"
		if topo_fabric mrc >"$LOGS/faults-mrc-topology.log" 2>&1; then
			# the devices as created: NSCC, its defaults
			for l in 0 0.1 1 5; do _faults_goodput mrc "$l"; done
			for l in 1 5; do _faults_goodput mrc "$l" 1; done
			if _faults_cc none; then
				for l in 0 1 5; do _faults_goodput mrc-off "$l"; done
			fi
			for p in 0 1 2 3; do fabric_netem "h1-p$p" rate "${PLANE_MBIT}mbit"; done
			_faults_blackhole '' 128
			_faults_blackhole ' light' 1
			if _faults_cc nscc; then
				_faults_blackhole ' nscc' 128
				_faults_plane ' nscc'
				_faults_cc none
			else
				record "faults|avoid nscc" failed
				record "faults|plane nscc" failed
			fi
			_faults_plane ''
		else
			record "faults|note" "the fabric failed ($(tail -1 "$LOGS/faults-mrc-topology.log"))"
		fi
		topo_cleanup
	fi
	say "faults: rxe over one veth shaped to $((4 * PLANE_MBIT)) Mbit/s"
	if topo_host rxe >"$LOGS/faults-rxe-topology.log" 2>&1; then
		for l in 0 0.1 1 5; do _faults_goodput rxe "$l"; done
	fi
	topo_cleanup
}

# faults_table: the figures, from the values in V (run's table())
faults_table() {
	local n first last before stall worst after l r m o r0 m0 o0 k
	selected faults write_bw || return 0
	echo
	echo "faults: mrc on the lab fabric, h1's 4 plane links shaped to ${V[planes_mbit]:-$PLANE_MBIT} Mbit/s," \
		"ib_write_bw -s 65536"
	[ -z "${V[faults|note]:-}" ] || echo "  ${V[faults|note]}"
	for k in '' ' light' ' nscc'; do
		[ "$k" != ' nscc' ] || [ -n "${V[faults|avoid$k]:-}" ] || continue
		read -r n first last <<<"${V[faults|avoid$k]:--}"
		echo "  blackhole t0-p0-0:t1-p0-0 (1 of plane 0's 2 paths), $([ "$k" = ' light' ] && echo 1 ||
			echo 128) writes outstanding$([ "$k" != ' nscc' ] || echo ', NSCC'): ${n:--} EVs of the path left the" \
			"rotation, the first after ${first:--} ms, the last after ${last:--} ms (time to avoid)"
		read -r before stall worst after win <<<"${V[faults|dip$k]:--}"
		echo "    h2 received (windows of ${win:--} ms): ${before:--} Mbit/s before; after it ${stall:--} ms below half" \
			"(worst window ${worst:--}); ${after:--} Mbit/s 5-8 s after; the QP's smoothed RTT" \
			"at the fault: ${V[faults|srtt$k]:--} ms"
	done
	for k in '' ' nscc'; do
		[ "$k" != ' nscc' ] || [ -n "${V[faults|plane$k]:-}" ] || continue
		read -r before stall _ after back reached win <<<"${V[faults|plane$k]:--}"
		echo "  plane 3 of h1 down, 128 writes outstanding$([ -z "$k" ] || echo ', NSCC'):" \
			"${before:--} Mbit/s before; ${stall:--} ms below half; ${after:--} Mbit/s 5-8 s after:" \
			"$(ratio "${after:--}" "${before:--}") of before (3/4 = 0.75); 90 % of 3/4 of before first" \
			"reached ${reached:--} ms after the event, last missed ${back:--} ms after it (three windows" \
			"below it; 0: never); windows of ${win:--} ms; the QP's smoothed RTT" \
			"${V[faults|plane srtt$k]:--} ms"
	done
	printf '  %-22s %10s %8s %10s %8s %10s %8s\n' "goodput, loss on all" "rxe Gb/s" "rxe/none" \
		"mrc Gb/s" "mrc/none" "CC off" "off/none"
	r0=${V[faults|rxe 0]:--} m0=${V[faults|mrc 0]:--} o0=${V[faults|mrc-off 0]:--}
	for l in 0 0.1 1 5; do
		r=${V[faults|rxe $l]:--} m=${V[faults|mrc $l]:--} o=${V[faults|mrc-off $l]:--}
		printf '  %-22s %10s %8s %10s %8s %10s %8s\n' "$l %" "$r" "$(ratio "$r" "$r0")" \
			"$m" "$(ratio "$m" "$m0")" "$o" "$(ratio "$o" "$o0")"
	done
	for l in 1 5; do
		m=${V[faults|mrc $l p1]:--}
		printf '  %-22s %10s %8s %10s %8s\n' "$l % on plane 1 only" - - "$m" "$(ratio "$m" "$m0")"
	done
	echo "  rxe: one veth at 4 x ${V[planes_mbit]:-$PLANE_MBIT} Mbit/s; mrc: 4 planes x 2 paths, loss on each" \
		"plane link; mrc: the default profile (NSCC, its defaults), CC off: algo none"
}
