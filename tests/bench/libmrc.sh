# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The libmrc part of `make bench` (sourced by tests/bench/run in the VM):
# what the OCP MRC API library costs against raw verbs on the same device
# and topology (topo_host mrc): ib_write_bw -s 65536 -D SECS, then
# libmrc's mrc_write_bw at 64 KiB for as many writes as ib_write_bw made
# in SECS, alternated ROUNDS times (noise under TCG is larger than the 5 %
# the library may cost). Both keep 128 writes outstanding. Records
# "libmrc|verbs" and "libmrc|lib" (Gb/s, the means); libmrc_table prints
# them. Nothing here fails the bench.
LIBMRC_ROUNDS=${BENCH_LIBMRC_ROUNDS:-3}
LIBMRC_BW=$REPO/tools/lib/mrc/examples/mrc_write_bw

# _libmrc_lib ITERS: mrc_write_bw at 64 KiB, ITERS writes; prints Gb/s
_libmrc_lib() {
	local spid crc log=$LOGS/libmrc-$PORT
	PORT=$((PORT + 1))
	timeout -k 5 "$TMO" "$LIBMRC_BW" -d "$DEV_B" -g "$GID_B" -p "$PORT" -S 65536 -s 65536 \
		-n "$1" -w 100 >"$log.server" 2>&1 &
	spid=$!
	wait_listen "$spid"
	timeout -k 5 "$TMO" "$LIBMRC_BW" -d "$DEV_A" -g "$GID_A" -p "$PORT" -S 65536 -s 65536 \
		-n "$1" -w 100 "$IP_B" >"$log.client" 2>&1
	crc=$?
	wait "$spid" && [ "$crc" = 0 ] || return 1
	awk '$1 == 65536 && NF >= 4 { v = $3 } END { if (v == "") exit 1; print v }' "$log.client"
}

run_libmrc() {
	local i v n sum_v=0 sum_l=0 ok=0 l
	selected libmrc write_bw || return 0
	[ -z "${BENCH_MRC_SKIP:-}" ] || return 0
	say "libmrc: mrc_write_bw against ib_write_bw, 64 KiB, $LIBMRC_ROUNDS rounds"
	if ! topo_host mrc >"$LOGS/libmrc-topology.log" 2>&1; then
		record "libmrc|note" "the topology failed"
		topo_cleanup
		return 0
	fi
	for ((i = 0; i < LIBMRC_ROUNDS; i++)); do
		v=$(bench_perf mrc BW_average ib_write_bw -s 65536 -D "$SECS") || continue
		v=$(gbits "$v")
		# as many writes as ib_write_bw made in SECS
		n=$(awk -v g="$v" -v s="$SECS" 'BEGIN { n = int(g * 1e9 / 8 * s / 65536); print (n < 100 ? 100 : n) }')
		l=$(_libmrc_lib "$n") || { say "libmrc: mrc_write_bw failed (logs: $LOGS/libmrc-*)"; continue; }
		say "libmrc: round $((i + 1)): ib_write_bw $v Gb/s, mrc_write_bw $l Gb/s ($n writes)"
		sum_v=$(awk -v a="$sum_v" -v b="$v" 'BEGIN { print a + b }')
		sum_l=$(awk -v a="$sum_l" -v b="$l" 'BEGIN { print a + b }')
		ok=$((ok + 1))
	done
	if [ "$ok" = 0 ]; then
		record "libmrc|lib" failed
	else
		record "libmrc|verbs" "$(awk -v s="$sum_v" -v n="$ok" 'BEGIN { printf "%.3f", s / n }')"
		record "libmrc|lib" "$(awk -v s="$sum_l" -v n="$ok" 'BEGIN { printf "%.3f", s / n }')"
		record "libmrc|rounds" "$ok"
	fi
	topo_cleanup
}

libmrc_table() {
	selected libmrc write_bw || return 0
	echo
	echo "libmrc: the OCP MRC API over raw verbs, mrc on topo_host, 64 KiB writes, 128 outstanding"
	printf '%-22s %-5s %10s %10s %8s\n' test unit verbs libmrc lib/verbs
	printf '%-22s %-5s %10s %10s %8s\n' "write_bw -s 65536" Gb/s "${V[libmrc|verbs]:--}" \
		"${V[libmrc|lib]:--}" "$(ratio "${V[libmrc|lib]:--}" "${V[libmrc|verbs]:--}")"
	echo "  verbs: ib_write_bw; libmrc: tools/lib/mrc/examples/mrc_write_bw (mrc_post_send," \
		"mrc_poll_cq); means of ${V[libmrc|rounds]:-0} alternated rounds${V[libmrc|note]:+; ${V[libmrc|note]}}"
}
