# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Where the CPU goes (sourced by tests/bench/run in the VM): during rxe's
# and mrc's ib_write_bw -s 65536 and iperf3's TCP stream, a window in the
# middle of the run (from 1 s after the client starts, SECS - 2 s long, at
# least 1 s) measures
#   - each CPU's busy share (/proc/stat: all but idle and iowait),
#   - the bytes that left the sending veth (payload and headers),
#   - CPU time per byte: busy time of all CPUs over those bytes. Both ends
#     run in this one VM, and with veth the receiver's softirq work runs on
#     the sender's CPU, so it is the cost of the whole transfer, sender and
#     receiver together; TCG has no cycle counter worth the name, hence
#     nanoseconds rather than cycles,
#   - a perf profile of the whole machine (perf record -a, cpu-clock at
#     499 Hz, no call graphs): the top symbols, and their samples sorted
#     into what they do (ICRC, copies, allocation, the network stack, mrc's
#     and rxe's engines, user space, idle).
# Records "prof|TAG|busy" ("cpu0% cpu1% ..."), "prof|TAG|nspb",
# "prof|TAG|cats" ("name share ..."), "prof|TAG|top" ("share sym;..."),
# TAG rxe, mrc or tcp; profile_table prints them. BENCH_PROFILE=0 turns
# it off; without perf only the profile is missing.

PROF=${BENCH_PROFILE:-1}
PROF_TOP=${BENCH_PROFILE_TOP:-10}

# _prof_stat: "busy total" jiffies of each CPU, one CPU a line
_prof_stat() {
	awk '/^cpu[0-9]/ { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

# profile_start TAG VETH: measure the window in the background (PROF_PID)
profile_start() {
	local tag=$1 dev=$2 w=$((SECS - 2))
	PROF_PID=
	[ "$PROF" = 1 ] || return 0
	[ "$w" -ge 1 ] || w=1
	(
		sleep 1
		_prof_stat >"$LOGS/prof-$tag.stat0"
		cat "/sys/class/net/$dev/statistics/tx_bytes" >"$LOGS/prof-$tag.bytes0"
		if command -v perf >/dev/null; then
			perf record -a -e cpu-clock -F 499 -o "$LOGS/prof-$tag.data" -- sleep "$w" \
				>"$LOGS/prof-$tag.record" 2>&1
		else
			sleep "$w"
		fi
		_prof_stat >"$LOGS/prof-$tag.stat1"
		cat "/sys/class/net/$dev/statistics/tx_bytes" >"$LOGS/prof-$tag.bytes1"
	) &
	PROF_PID=$!
}

# _prof_cat SYMBOL: what a symbol does
_prof_cat() {
	case $1 in
	*crc32*|*icrc*) echo icrc ;;
	*memcpy*|*memmove*|*copy_user*|*copy_to*|*copy_from*|*_copy|*copy_page*|*mr_copy*|rep_mov*) echo copy ;;
	*idle*|*halt*|*mwait*) echo idle ;;
	*kmem_cache*|*kmalloc*|*kfree*|*alloc_skb*|*slab*|*page_frag*|*free_skb*|*consume_skb*|__alloc_pages*) echo alloc ;;
	mrc_*|*_mrc_*) echo mrc ;;
	rxe_*) echo rxe ;;
	tcp_*|__tcp*) echo tcp ;;
	ip_*|ip6_*|__ip*|*udp*|*neigh*|*dev_queue*|*netif*|*veth*|*_xmit*|*napi*|*net_rx*|skb_*|__skb*|*backlog*|*dst*|*fib*|nf_*|*route*) echo net ;;
	\[.\]*) echo user ;;
	*) echo other ;;
	esac
}

# profile_finish TAG: wait for the window, record what it found
profile_finish() {
	local tag=$1 f=$LOGS/prof-$1 rep sym share c
	declare -A byc=()
	[ -n "${PROF_PID:-}" ] || return 0
	wait "$PROF_PID"
	PROF_PID=
	[ -s "$f.stat1" ] && [ -s "$f.bytes1" ] || return 0
	record "prof|$tag|busy" "$(paste -d' ' "$f.stat0" "$f.stat1" |
		awk '{ printf "%s%.0f%%", (NR > 1 ? " " : ""), (($4 - $2) > 0 ? 100 * ($3 - $1) / ($4 - $2) : 0) }')"
	record "prof|$tag|nspb" "$(paste -d' ' "$f.stat0" "$f.stat1" |
		awk -v hz="$(getconf CLK_TCK)" -v b0="$(cat "$f.bytes0")" -v b1="$(cat "$f.bytes1")" '
		{ busy += $3 - $1 }
		END { if (b1 > b0) printf "%.2f", busy / hz * 1e9 / (b1 - b0); else print "-" }')"
	[ -s "$f.data" ] || return 0
	# "share [k] symbol" lines, kernel symbols marked [k], user ones [.];
	# the core kernel's symbols come from /proc/kallsyms, which shows
	# addresses only with kptr_restrict 0
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	perf report -i "$f.data" --kallsyms=/proc/kallsyms --stdio --no-children --sort sym -q 2>/dev/null |
		awk 'NF >= 3 && $1 ~ /%$/ { sub(/%/, "", $1); s = $3; for (i = 4; i <= NF; i++) s = s " " $i
			print $1, ($2 == "[.]" ? "[.]" : ""), s }' >"$f.report"
	[ -s "$f.report" ] || return 0
	while read -r share sym; do
		[ -n "$sym" ] || continue
		c=$(_prof_cat "$sym")
		byc[$c]=$(awk -v a="${byc[$c]:-0}" -v b="$share" 'BEGIN { printf "%.1f", a + b }')
	done <"$f.report"
	rep=
	for c in icrc copy alloc net mrc rxe tcp user other idle; do
		[ -z "${byc[$c]:-}" ] || rep+="$c ${byc[$c]}% "
	done
	record "prof|$tag|cats" "${rep% }"
	record "prof|$tag|top" "$(grep -v '^[0-9.]* \[\.\]' "$f.report" | while read -r share sym; do
		[ "$(_prof_cat "$sym")" = idle ] || echo "$share% $sym"; done | head -n "$PROF_TOP" | paste -sd';')"
}

# profile_table: the figures, from the values in V (run's table())
profile_table() {
	local t busy nspb tcpns
	[ "$PROF" = 1 ] || [ -n "${V[prof|mrc|busy]:-}${V[prof|tcp|busy]:-}" ] || return 0
	selected mrc write_bw || selected tcp iperf3 || return 0
	echo
	echo "where the CPU goes: ib_write_bw -s 65536 and iperf3, both ends in this VM ($(nproc) CPUs), a" \
		"window mid-run; CPU ns/byte: busy time of all CPUs per byte that left the sending veth"
	printf '  %-5s %-16s %12s %8s   %s\n' "" "CPU busy" "CPU ns/byte" "/tcp" "perf: share of samples"
	tcpns=${V[prof|tcp|nspb]:--}
	for t in tcp rxe mrc; do
		busy=${V[prof|$t|busy]:-} nspb=${V[prof|$t|nspb]:--}
		[ -n "$busy" ] || continue
		printf '  %-5s %-16s %12s %8s   %s\n' "$t" "$busy" "$nspb" "$(ratio "$nspb" "$tcpns")" \
			"${V[prof|$t|cats]:--}"
	done
	for t in mrc tcp rxe; do
		[ -z "${V[prof|$t|top]:-}" ] || echo "  $t top (kernel): ${V[prof|$t|top]//;/, }"
	done
}
