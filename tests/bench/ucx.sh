# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The UCX part of `make bench` (sourced by tests/bench/run in the VM):
# ucx_perftest over rxe and over mrc on the same topology (topo_host),
# UCX_TLS=rc_verbs,ud_verbs,self on the one device of each side, server on
# B, client on A:
#   tag_bw -s 65536 and ucp_put_bw -s 65536 (BENCH_UCX_ITERS iterations;
#   the "overall" bandwidth), tag_lat -s 8 (the "overall" latency)
# rxe needs UCX_UD_VERBS_ETH_DGID_CHECK=n: it does not tell userspace
# whether a UD packet came over IPv4 (mrc does, in the SL, as ConnectX),
# and UCX 1.13 drops every wire-up packet otherwise. Records "ucx|TR|TEST"
# (Gb/s, usec); ucx_table prints them. Nothing here fails the bench.
UCX_ITERS=${BENCH_UCX_ITERS:-2000}
UCX_TESTS=(
	"tag_bw -s 65536|Gb/s|tag_bw -s 65536"
	"ucp_put_bw -s 65536|Gb/s|ucp_put_bw -s 65536"
	"tag_lat -s 8|usec|tag_lat -s 8"
)

# _ucx_once TRANSPORT ARGS...: one ucx_perftest on $PORT; prints the overall figure
# of its Final line (bandwidth MB/s for *_bw, latency usec for *_lat)
_ucx_once() {
	local tr=$1 spid crc log env=("UCX_TLS=rc_verbs,ud_verbs,self")
	shift
	[ "$tr" != rxe ] || env+=(UCX_UD_VERBS_ETH_DGID_CHECK=n)
	log=$LOGS/ucx-$tr-$1
	timeout -k 5 "$TMO" env "${env[@]}" UCX_NET_DEVICES="$DEV_B:1" \
		ucx_perftest -p "$PORT" >"$log.server" 2>&1 &
	spid=$!
	wait_listen "$spid"
	timeout -k 5 "$TMO" env "${env[@]}" UCX_NET_DEVICES="$DEV_A:1" \
		ucx_perftest "$IP_B" -p "$PORT" -t "$@" -n "$UCX_ITERS" -w 100 >"$log.client" 2>&1
	crc=$?
	[ "$crc" = 0 ] || { sleep 5; kill "$spid" 2>/dev/null; }
	wait "$spid" && [ "$crc" = 0 ] || {
		say "ucx $tr $1: failed (logs: $log.*)"
		return 1
	}
	# Final: iters, latency 50 %ile, average, overall; bandwidth average,
	# overall; rate average, overall
	awk -v lat="$([[ $1 == *_lat ]] && echo 1)" '$1 == "Final:" {
		v = lat ? $5 : $7 } END { if (v == "") exit 1; print v }' "$log.client"
}

run_ucx() {
	local tr t name unit cmd v n=0
	for t in "${UCX_TESTS[@]}"; do
		IFS='|' read -r name _ _ <<<"$t"
		! selected ucx "$name" || n=$((n + 1))
	done
	[ "$n" -gt 0 ] || return 0
	for tr in rxe mrc; do
		[ "$tr" = rxe ] || [ -z "${BENCH_MRC_SKIP:-}" ] || continue
		say "ucx: $tr, host topology"
		if ! topo_host "$tr" >"$LOGS/ucx-$tr-topology.log" 2>&1; then
			record "ucx|note" "$tr: the topology failed"
			topo_cleanup
			continue
		fi
		for t in "${UCX_TESTS[@]}"; do
			IFS='|' read -r name unit cmd <<<"$t"
			selected ucx "$name" || continue
			# a port of its own (the last server's may be in
			# TIME_WAIT); set here, as _ucx_once runs in a subshell
			PORT=$((PORT + 1))
			# shellcheck disable=SC2086 # cmd is words
			if v=$(_ucx_once "$tr" $cmd); then
				[ "$unit" != Gb/s ] || v=$(gbits "$v")
				say "ucx $tr $name: $v $unit"
				record "ucx|$tr|$name" "$v"
			else
				record "ucx|$tr|$name" failed
			fi
		done
		topo_cleanup
	done
}

ucx_table() {
	local t name unit r m any=0
	for t in "${UCX_TESTS[@]}"; do
		IFS='|' read -r name _ _ <<<"$t"
		! selected ucx "$name" || any=1
	done
	[ "$any" = 1 ] || return 0
	echo
	echo "UCX: ucx_perftest, UCX_TLS=rc_verbs,ud_verbs,self, topo_host, $UCX_ITERS iterations" \
		"(100 warm-up); overall figures"
	printf '%-24s %-5s %10s %10s %8s\n' test unit rxe mrc mrc/rxe
	for t in "${UCX_TESTS[@]}"; do
		IFS='|' read -r name unit _ <<<"$t"
		selected ucx "$name" || continue
		r=${V[ucx|rxe|$name]:--} m=${V[ucx|mrc|$name]:--}
		printf '%-24s %-5s %10s %10s %8s\n' "ucx $name" "$unit" "$r" "$m" "$(ratio "$m" "$r")"
	done
	echo "  rxe with UCX_UD_VERBS_ETH_DGID_CHECK=n (UCX 1.13 drops its UD packets" \
		"otherwise)${V[ucx|note]:+; ${V[ucx|note]}}"
}
