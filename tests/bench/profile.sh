# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Where the CPU goes (sourced by tests/bench/run in the VM): during rxe's
# and mrc's ib_write_bw -s 65536 and iperf3's TCP stream, a perf profile of
# the whole machine (perf record -a, cpu-clock, a sample every 2 ms of each
# CPU, no call graphs) from before the client starts until it ends gives
#   - each CPU's busy share: its samples outside the idle loop,
#   - CPU time per byte: the busy samples' time (2 ms each) over the bytes
#     that left the sending veth meanwhile. Both ends run in this one VM,
#     and with veth the receiver's softirq work runs on the sender's CPU,
#     so it is the cost of the whole transfer, sender and receiver
#     together; TCG has no cycle counter worth the name, hence nanoseconds
#     rather than cycles,
#   - the top symbols, and the busy samples sorted into what they do (ICRC,
#     copies, allocation, the network stack, mrc's and rxe's engines, user
#     space).
# perf takes seconds to start under TCG: the client starts once it samples,
# so the window is the transfer's, not perf's own start and end.
# Records "prof|TAG|busy" ("cpu0% cpu1% ..."), "prof|TAG|nspb",
# "prof|TAG|cats" ("name share ..."), "prof|TAG|top" ("share sym;..."),
# TAG rxe, mrc or tcp; profile_table prints them. BENCH_PROFILE=0 turns
# it off, as does a VM without perf.

PROF=${BENCH_PROFILE:-1}
PROF_TOP=${BENCH_PROFILE_TOP:-10}
PROF_NS=2000000	# cpu-clock period: ns of CPU time per sample

# profile_start TAG VETH: perf sampling (PROF_PID) before the client starts
profile_start() {
	local tag=$1 f=$LOGS/prof-$1 end=$((SECONDS + 60))
	PROF_PID=
	[ "$PROF" = 1 ] && command -v perf >/dev/null || return 0
	rm -f "$f.data"
	# the core kernel's symbols come from /proc/kallsyms, which shows
	# addresses only with kptr_restrict 0
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	perf record -q -a -e cpu-clock -c "$PROF_NS" -o "$f.data" >"$f.record" 2>&1 &
	PROF_PID=$!
	# the header is written once the events are open
	until [ -s "$f.data" ]; do
		if ! kill -0 "$PROF_PID" 2>/dev/null || [ "$SECONDS" -ge "$end" ]; then
			PROF_PID=
			return 0
		fi
		sleep 0.2
	done
	sleep 0.5
	cat "/sys/class/net/$2/statistics/tx_bytes" >"$f.bytes0"
	PROF_DEV=$2
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

# profile_finish TAG: stop sampling, record what it found
profile_finish() {
	local tag=$1 f=$LOGS/prof-$1 n sym c share busy
	declare -A byc=() cat=()
	[ -n "${PROF_PID:-}" ] || return 0
	cat "/sys/class/net/$PROF_DEV/statistics/tx_bytes" >"$f.bytes1"
	kill -INT "$PROF_PID"
	wait "$PROF_PID"
	PROF_PID=
	[ -s "$f.data" ] || return 0
	# "count cpu [.]symbol" (user symbols marked [.]), one line a CPU and symbol
	perf script -i "$f.data" --kallsyms=/proc/kallsyms -F cpu,ip,sym,dso 2>/dev/null |
		awk '{ cpu = $1; gsub(/[][]/, "", cpu); s = ($3 == "[unknown]" || NF < 4) ? $NF : $3
			if ($NF ~ /^\(\// || $NF == "([vdso])") s = "[.]" s
			n[cpu " " s]++ }
		END { for (k in n) print n[k], k }' | sort -k1,1nr >"$f.samples"
	[ -s "$f.samples" ] || return 0
	while read -r n _ sym; do
		[ -n "${cat[$sym]:-}" ] || cat[$sym]=$(_prof_cat "$sym")
	done <"$f.samples"
	# per CPU: all samples and busy ones; per class and symbol: busy ones
	busy=$(while read -r n c sym; do echo "$n $c ${cat[$sym]}"; done <"$f.samples" |
		awk '{ all[$2] += $1; if ($3 != "idle") b[$2] += $1 }
		END { for (c in all) printf "%d %d %d\n", c, all[c], b[c] }' | sort -n)
	record "prof|$tag|busy" "$(echo "$busy" |
		awk '{ printf "%s%.0f%%", (NR > 1 ? " " : ""), ($2 ? 100 * $3 / $2 : 0) }')"
	record "prof|$tag|nspb" "$(echo "$busy" |
		awk -v ns="$PROF_NS" -v b0="$(cat "$f.bytes0")" -v b1="$(cat "$f.bytes1")" '
		{ s += $3 } END { if (b1 > b0) printf "%.2f", s * ns / (b1 - b0); else print "-" }')"
	while read -r n _ sym; do
		[ "${cat[$sym]}" = idle ] || echo "$n $sym ${cat[$sym]}"
	done <"$f.samples" | awk '{ t += $1; bs[$2] += $1; bc[$3] += $1 }
		END { for (s in bs) printf "s %.1f %s\n", 100 * bs[s] / t, s
			for (c in bc) printf "c %.1f %s\n", 100 * bc[c] / t, c }' >"$f.report"
	for c in icrc copy alloc net mrc rxe tcp user other; do
		share=$(awk -v c="$c" '$1 == "c" && $3 == c { print $2 }' "$f.report")
		[ -z "$share" ] || byc[$c]=$share
	done
	share=
	for c in icrc copy alloc net mrc rxe tcp user other; do
		[ -z "${byc[$c]:-}" ] || share+="$c ${byc[$c]}% "
	done
	record "prof|$tag|cats" "${share% }"
	record "prof|$tag|top" "$(awk '$1 == "s" && $3 !~ /^\[\.\]/ { print $2 "% " $3 }' "$f.report" |
		sort -k1,1nr | head -n "$PROF_TOP" | paste -sd';')"
}

# profile_table: the figures, from the values in V (run's table())
profile_table() {
	local t busy nspb tcpns
	[ "$PROF" = 1 ] || [ -n "${V[prof|mrc|busy]:-}${V[prof|tcp|busy]:-}" ] || return 0
	selected mrc write_bw || selected tcp iperf3 || return 0
	echo
	echo "where the CPU goes: ib_write_bw -s 65536 and iperf3, both ends in this VM ($(nproc) CPUs);" \
		"perf's window: the client's run; CPU ns/byte: busy time of all CPUs per byte that left the sending veth"
	printf '  %-5s %-16s %12s %8s   %s\n' "" "CPU busy" "CPU ns/byte" "/tcp" "perf: share of busy samples"
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
