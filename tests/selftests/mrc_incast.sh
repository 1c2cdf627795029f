#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast: N senders at once into one receiver through one bottleneck link
# (the incast lab, incast.sh: a 20 Mbit/s token bucket with a deep FIFO,
# fq_codel marking CE above 2 ms of queueing).
#
#   - the lab comes up: N + 1 mrc devices, each behind its own veth
#   - N ibv_rc_pingpong -c at once, 64 KiB messages: every buffer verified
#   - N ib_write_bw at once, 64 KiB writes: every QP completes, no error
#   - the bottleneck really queued: fq_codel marked ECN CE (mrc's RC packets
#     are ECN-capable, ECT(0), with or without a path set)
#   - no sender's QP failed (retry_exceeded, no error completions) and the
#     receiver took every sender's packets
#   - congestion control off (mrcctl cc set algo none; NSCC is the
#     default) never acted; then on (NSCC, with
#     knobs for this lab: 20 Mbit/s, an RTT of about a millisecond): both
#     incasts again, every buffer verified, every QP completes, and the
#     senders' NSCC cut their windows on the ECN marks
#   - then, NSCC still on, the bottleneck a trimming switch's port (the
#     test-only mrc_trim qdisc, length fields left stale): both incasts
#     again; what the switch cut, the receiver NACKed and the senders
#     resent; no QP failed; the pingpongs again with congestion control
#     off (every byte arrives, no QP fails). Then one sender alone into a FIFO of half its
#     window: its cut packets recognised, NACKed, resent on the NACK, with
#     no timeout and no other resend; again with the
#     length fields fixed (the DSCP alone tells)
#
# MRC_QUICK=1: 4 senders and 1 MiB each per phase; otherwise 8 and 2 MiB.
# Rates and times are printed, never judged.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/incast.sh"
require_root
require_tools ibv_rc_pingpong ib_write_bw jq tc
require_mrcctl

SCALE=${MRC_TIMEOUT_SCALE:-1}
N=$(by_mode 8 4)
ITERS=$(by_mode 32 16)		# 64 KiB messages: 2 MiB or 1 MiB per sender
RATE=20000			# kbit/s
SIZE=65536
TMO=$(tmo 300)
LOGS=${MRC_TEST_LOGS:-/tmp}/mrc_incast.d
mkdir -p "$LOGS"
PORT=$((20000 + $$ % 20000))

cleanup() { incast_cleanup; }
trap cleanup EXIT
ktap_header 22

# cc_all ARGS...: mrcctl cc set ARGS on every device of the lab
cc_all() {
	local k
	for ((k = 1; k <= N; k++)); do
		"$TOPO_MRCCTL" -n "${INC_NS[k]}" cc set dev "${INC_DEV[k]}" "$@" || return 1
	done
	"$TOPO_MRCCTL" -n "$INC_NS_R" cc set dev "$INC_DEV_R" "$@"
}
cc_off() { cc_all algo none; }

incast_up mrc "$N" "$RATE" fq_codel >"$LOGS/up" 2>&1 && cc_off >>"$LOGS/up" 2>&1
up_rc=$?
check "incast lab up: $N senders, one receiver, $RATE kbit/s bottleneck with fq_codel, CC off" \
	sh -c "[ $up_rc = 0 ] || cat $LOGS/up; [ $up_rc = 0 ]"
[ "$up_rc" = 0 ] || ktap_finish

# counters DEV NS: the device's counters as one JSON object
counters() {
	netns "$2" rdma -j statistic show link "$1/1" | jq '.[0]'
}
# snapshot: every device's counters before a round (c0.*)
snapshot() {
	local k
	for ((k = 1; k <= N; k++)); do counters "${INC_DEV[k]}" "${INC_NS[k]}" >"$LOGS/c0.$k"; done
	counters "$INC_DEV_R" "$INC_NS_R" >"$LOGS/c0.r"
	# and the trimming qdisc's, once it is the bottleneck
	incast_trimq qdisc show dev tr >"$LOGS/trimq0" 2>/dev/null ||
		echo '{"xstats": {"trimmed": 0, "dropped": 0}}' >"$LOGS/trimq0"
}
snapshot

# incast TAG GIDOPT SERVER-CMD... -- CLIENT-CMD...: the server on the
# receiver and the client on every sender, N pairs at once, each with its
# own port (-d, GIDOPT with the GID index, -p and the server's address are
# added); all must exit 0. ip netns exec directly, not on_r: $! must be
# the process that enters the namespace, for wait_listen.
incast() {
	local tag=$1 g=$2 srv=() cli=() k p spids=() cpids=() rc=0
	shift 2
	while [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	cli=("$@")
	for ((k = 1; k <= N; k++)); do
		p=$((PORT + k))
		ip netns exec "$INC_NS_R" timeout -k 5 "$TMO" "${srv[@]}" -d "$INC_DEV_R" \
			"$g" "$INC_GID_R" -p "$p" >"$LOGS/$tag.srv$k" 2>&1 &
		spids[k]=$!
	done
	for ((k = 1; k <= N; k++)); do
		wait_listen "$INC_NS_R" tcp $((PORT + k)) "${spids[k]}" ||
			{ rc=1; echo "sender $k: no server listening"; }
	done
	for ((k = 1; k <= N; k++)); do
		ip netns exec "${INC_NS[k]}" timeout -k 5 "$TMO" "${cli[@]}" -d "${INC_DEV[k]}" \
			"$g" "${INC_GID[k]}" -p $((PORT + k)) "$INC_IP_R" >"$LOGS/$tag.cli$k" 2>&1 &
		cpids[k]=$!
	done
	for ((k = 1; k <= N; k++)); do
		wait "${cpids[k]}" || { rc=1; echo "sender $k: client failed"; tail -n 5 "$LOGS/$tag.cli$k"; }
		wait "${spids[k]}" || { rc=1; echo "sender $k: server failed"; tail -n 5 "$LOGS/$tag.srv$k"; }
	done
	PORT=$((PORT + N))
	return $rc
}

# rounds TAG LABEL [BW-OPT...]: both incasts, the verified pingpongs then
# the writes (ib_write_bw with BW-OPTs on both ends)
rounds() {
	local t0=$SECONDS tag=$1 label=$2
	shift 2
	check "${label}incast $N:1 ibv_rc_pingpong -c, 64 KiB x $ITERS each: every buffer verified" \
		incast "${tag}pp" -g ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c -- \
		ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c
	ktap_info "${label}pingpong phase: $((SECONDS - t0)) s"
	t0=$SECONDS
	check "${label}incast $N:1 ib_write_bw${1:+ $*}, 64 KiB x $ITERS each: every QP completes" \
		incast "${tag}bw" -x ib_write_bw -F -s "$SIZE" -n "$ITERS" "$@" -- \
		ib_write_bw -F -s "$SIZE" -n "$ITERS" "$@"
	ktap_info "${label}write phase: $((SECONDS - t0)) s ($((N * ITERS * SIZE * 8 / 1000 / RATE)) s at line rate)"
}
# Without congestion control the FIFO fills towards 4 MiB, 1.6 s at this
# rate: far past ib_write_bw's QP timeout (-u 14, 67 ms, 7 retries), so
# that at 8:1 QPs run out of retries (IB's rule, as on a NIC; make bench
# shows 16:1). The writes get the QP timeout an operator without
# congestion control would set, -u 18 (1.07 s).
rounds '' '' -u 18

incast_qdisc_stats >"$LOGS/qdisc"
ktap_info "bottleneck: $(jq -c '[.[] | {kind, bytes, packets, drops, ce_mark}]' "$LOGS/qdisc")"
check "the bottleneck queued: fq_codel marked ECN CE on mrc's packets" \
	jq -e '[.[] | select(.kind == "fq_codel") | .. | objects | .ce_mark? // empty] | add > 0' \
	"$LOGS/qdisc"

# moved: every sender sent without a QP failing, the receiver took packets
# from all of them
moved() {
	local k
	for ((k = 1; k <= N; k++)); do
		counters "${INC_DEV[k]}" "${INC_NS[k]}" >"$LOGS/c1.$k"
		jq -e --slurpfile a "$LOGS/c0.$k" '.retry_exceeded == $a[0].retry_exceeded and
			.tx_packets > $a[0].tx_packets' "$LOGS/c1.$k" >/dev/null ||
			{ echo "sender $k: $(jq -c '{tx_packets, retry_exceeded, timeouts, retransmits}' "$LOGS/c1.$k")"; return 1; }
	done
	counters "$INC_DEV_R" "$INC_NS_R" >"$LOGS/c1.r"
	jq -e --slurpfile a "$LOGS/c0.r" '.rx_packets - $a[0].rx_packets >= '"$((N * ITERS * 2 * SIZE / 4096))" \
		"$LOGS/c1.r" >/dev/null
}
check "no sender's QP failed (retry_exceeded unchanged); the receiver took their packets" moved
# report: each sender's timeouts and retransmissions in the round
report() {
	local k
	for ((k = 1; k <= N; k++)); do
		ktap_info "sender $k: $(jq -c --slurpfile a "$LOGS/c0.$k" \
			'{timeouts: (.timeouts - $a[0].timeouts), retransmits: (.retransmits - $a[0].retransmits)}' \
			"$LOGS/c1.$k" 2>/dev/null)"
	done
}
report

# cc_sum KEY: KEY of every sender's congestion control profile, added up
cc_sum() {
	local k t=0 v
	for ((k = 1; k <= N; k++)); do
		v=$("$TOPO_MRCCTL" -n "${INC_NS[k]}" -j cc show dev "${INC_DEV[k]}" | jq ".[0].$1") ||
			return 1
		t=$((t + v))
	done
	echo "$t"
}
off_dec=$(cc_sum decreases) off_qa=$(cc_sum quick_adapts)
check "congestion control off never acted: no decrease, no quick adapt" \
	test "${off_dec:-x}" = 0 -a "${off_qa:-x}" = 0

# NSCC for this lab: the increases of mrc_cc_params_default() for
# 20 Mbit/s, 1 ms and MTU 1024; a base RTT of 1 us, the resolution of mrc's
# RTT samples, so the delay is all of an RTT (a few us through the idle tbf),
# a target of 1 ms (2.5 KB at the bottleneck, under fq_codel's 2 ms) and a
# largest window that fills the bottleneck at the KASAN kernel's RTTs
CC_LAB=(algo nscc base_rtt 1000 target_delay 1000000 max_cwnd 16384 eta 2 'fi' 85
	fi_scale 273 qa_threshold 4000000 adjust_bytes_threshold 8192
	adjust_period_threshold 1000000)
cc_on() { cc_all "${CC_LAB[@]}"; }
check "NSCC on every device (mrcctl cc set), knobs for this lab" cc_on
snapshot
rounds cc 'NSCC: '
dec=$(cc_sum decreases) qa=$(cc_sum quick_adapts) cto=$(cc_sum timeouts)
ktap_info "NSCC: decreases $dec, quick adapts $qa, timeouts $cto"
nscc_acted() {
	moved || return 1
	[ $((${dec:-0} + ${qa:-0})) -gt 0 ] || { echo "no decrease, no quick adapt"; return 1; }
}
check "NSCC: the senders cut their windows (decreases, quick adapts); no QP failed" nscc_acted
report

# one QP's congestion control as it runs (mrcctl cc show dev DEV qpn N):
# sender 1 writes alone for a while, its state is read once it has an RTT
sender_rc_qp() {
	netns "${INC_NS[1]}" rdma -j res show qp |
		jq -r --arg d "${INC_DEV[1]}" '.[] | select(.ifname == $d and .type == "RC") | .lqpn' |
		head -1
}
cc_qp_read() {
	local q
	q=$(sender_rc_qp) && [ -n "$q" ] &&
		"$TOPO_MRCCTL" -n "${INC_NS[1]}" -j cc show dev "${INC_DEV[1]}" qpn "$q" \
			>"$LOGS/ccqp" 2>&1 && jq -e '.[0].srtt > 0 and .[0].cwnd > 0' "$LOGS/ccqp"
}
cc_qp_live() {
	local p=$((PORT + 1)) spid cpid rc=0
	PORT=$p
	ip netns exec "$INC_NS_R" timeout -k 5 "$TMO" ib_write_bw -d "$INC_DEV_R" -x "$INC_GID_R" \
		-F -s "$SIZE" -D 60 -p "$p" >"$LOGS/live.srv" 2>&1 &
	spid=$!
	wait_listen "$INC_NS_R" tcp "$p" "$spid" || { kill "$spid"; return 1; }
	ip netns exec "${INC_NS[1]}" timeout -k 5 "$TMO" ib_write_bw -d "${INC_DEV[1]}" \
		-x "${INC_GID[1]}" -F -s "$SIZE" -D 60 -p "$p" "$INC_IP_R" >"$LOGS/live.cli" 2>&1 &
	cpid=$!
	wait_for "$(tmo 60)" cc_qp_read || rc=1
	kill "$cpid" "$spid" 2>/dev/null
	wait "$cpid" "$spid" 2>/dev/null
	ktap_info "NSCC: sender 1's QP: $(jq -c '.[0] | del(.dev)' "$LOGS/ccqp" 2>/dev/null)"
	[ $rc = 0 ] || { cat "$LOGS/ccqp"; return 1; }
	# the lab's knobs bound what it shows
	jq -e '.[0] | .algo == "nscc" and .cwnd <= .max_cwnd and .max_cwnd <= 16384 and
		.base_rtt <= 1000 and (.inflight | type) == "number" and
		(.avg_delay | type) == "number"' "$LOGS/ccqp"
}
check "NSCC: cc show dev DEV qpn N: a writing QP's window, largest window, base RTT, RTT" \
	cc_qp_live

# Trimming, NSCC still on: the bottleneck becomes a trimming switch's port
# (tests/trimq). What overflows its FIFO reaches the receiver cut to its
# headers, with stale length fields; the receiver answers each with a trim
# NACK and the sender resends it at once, before any timer.
check "trimming switch at the bottleneck (mrc_trim: 32 KiB FIFO, $RATE kbit/s)" \
	incast_aqm trim "$RATE"
snapshot
rounds trim 'trimming: '
# grown KEY FILE...: KEY's growth since the snapshot, over the FILEs (c1.*)
grown() {
	local key=$1 f t=0 v
	shift
	for f in "$@"; do
		v=$(jq --slurpfile a "${f/c1./c0.}" ".$key - \$a[0].$key" "$f") || return 1
		t=$((t + v))
	done
	echo "$t"
}
trim_facts() {
	local k files=()
	for ((k = 1; k <= N; k++)); do
		counters "${INC_DEV[k]}" "${INC_NS[k]}" >"$LOGS/c1.$k"
		files+=("$LOGS/c1.$k")
	done
	counters "$INC_DEV_R" "$INC_NS_R" >"$LOGS/c1.r"
	incast_trimq qdisc show dev tr >"$LOGS/trimq" || return 1
	# the qdisc's counters run over every phase since it was added
	q_trimmed=$(jq --slurpfile a "$LOGS/trimq0" '.xstats.trimmed - $a[0].xstats.trimmed' "$LOGS/trimq")
	q_dropped=$(jq --slurpfile a "$LOGS/trimq0" '.xstats.dropped - $a[0].xstats.dropped' "$LOGS/trimq")
	r_trimmed=$(grown trimmed_received "$LOGS/c1.r")
	r_nacks=$(grown trim_nacks_sent "$LOGS/c1.r")
	s_nacks=$(grown trim_nacks_received "${files[@]}")
	s_retx=$(grown retransmits "${files[@]}")
	s_to=$(grown timeouts "${files[@]}")
}
trim_facts
ktap_info "trimming: switch trimmed $q_trimmed, dropped $q_dropped; receiver:" \
	"$r_trimmed trimmed packets in, $r_nacks trim NACKs out; senders:" \
	"$s_nacks trim NACKs in, $s_retx retransmits, $s_to timeouts"
# trim_counts MIN [alone]: what the switch cut, the receiver counted (no
# more) and NACKed, the senders took (no more) and resent; at least MIN of
# each. alone: nothing else was lost (the switch dropped nothing), so every
# resend answered a NACK and no timer fired: a cut packet costs no timeout
trim_counts() {
	local min=$1 alone=$2
	[ "${q_trimmed:-0}" -ge "$min" ] || { echo "the switch trimmed $q_trimmed"; return 1; }
	[ "${r_trimmed:-0}" -ge "$min" ] && [ "$r_trimmed" -le "$q_trimmed" ] ||
		{ echo "receiver: $r_trimmed trimmed packets, of $q_trimmed"; return 1; }
	[ "${r_nacks:-0}" -ge "$min" ] && [ "$r_nacks" -le "$r_trimmed" ] ||
		{ echo "receiver: $r_nacks trim NACKs for $r_trimmed trimmed"; return 1; }
	[ "${s_nacks:-0}" -ge "$min" ] && [ "$s_nacks" -le "$r_nacks" ] ||
		{ echo "senders: $s_nacks trim NACKs of $r_nacks"; return 1; }
	[ "${s_retx:-0}" -ge "$s_nacks" ] ||
		{ echo "senders: $s_retx retransmits for $s_nacks trim NACKs"; return 1; }
	[ -z "$alone" ] && return 0
	[ "$q_dropped" = 0 ] && [ "$s_retx" = "$s_nacks" ] && [ "$s_to" = 0 ] ||
		{ echo "sender: $s_retx retransmits for $s_nacks trim NACKs, $s_to timeouts;" \
			"switch dropped $q_dropped"; return 1; }
}
# how many the incast gets cut depends on how the senders overlap
check "trimming: what the switch cut, the receiver counted and NACKed, the senders resent" \
	trim_counts 0
check "trimming: no sender's QP failed; the receiver took their packets" moved
report

# Trimming with congestion control off: nothing holds the senders back
# but their receive windows, and the switch cuts most of every burst. The
# verified pingpongs (64 KiB outstanding per sender) complete, slowly, and
# no connection dies: a trim NACK proves the peer alive. Not the writes:
# a whole receive window per sender at once, most of it cut again at every
# resend, takes minutes at this rate (make bench shows it).
cc_off
snapshot
t0=$SECONDS
check "trimming, CC off: incast $N:1 ibv_rc_pingpong -c, 64 KiB x $ITERS each: every buffer verified" \
	incast trimoffpp -g ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c -- \
	ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c
ktap_info "trimming, CC off: pingpong phase: $((SECONDS - t0)) s"
moved_pp() {
	local k
	for ((k = 1; k <= N; k++)); do
		counters "${INC_DEV[k]}" "${INC_NS[k]}" >"$LOGS/c1.$k"
		jq -e --slurpfile a "$LOGS/c0.$k" '.retry_exceeded == $a[0].retry_exceeded' \
			"$LOGS/c1.$k" >/dev/null ||
			{ echo "sender $k: $(jq -c '{retry_exceeded, timeouts, retransmits}' "$LOGS/c1.$k")"; return 1; }
	done
}
check "trimming, CC off: no sender's QP failed" moved_pp
trim_facts
ktap_info "trimming, CC off: switch trimmed $q_trimmed, dropped $q_dropped; senders:" \
	"$s_nacks trim NACKs in, $s_retx retransmits, $s_to timeouts"
report
cc_on >/dev/null

# One sender, and a FIFO of half its largest window: its first burst is
# cut for certain. Length fields stale, then fixed: then only the DSCP
# (46, the device's trim_dscp) and the ICRC cut away tell a trimmed packet.
one_sender() { local N=1; incast "$@"; }
incast_trimq qdisc change dev tr limit 8192 kmin 2048 kmax 6144 >/dev/null
snapshot
check "trimming, one sender: ibv_rc_pingpong -c, 64 KiB x $ITERS: every buffer verified" \
	one_sender onepp -g ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c -- \
	ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c
trim_facts
ktap_info "trimming, one sender: switch trimmed $q_trimmed, dropped $q_dropped; receiver:" \
	"$r_trimmed trimmed packets in, $r_nacks trim NACKs out; sender:" \
	"$s_nacks trim NACKs in, $s_retx retransmits, $s_to timeouts"
check "trimming, one sender: the cut packets (stale lengths) recognised, NACKed, resent, no timeout" \
	trim_counts 1 alone
incast_trimq qdisc change dev tr fix_len 1 >/dev/null
snapshot
check "trimming, lengths fixed: one sender, ibv_rc_pingpong -c, 64 KiB x $ITERS: every buffer verified" \
	one_sender fixpp -g ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c -- \
	ibv_rc_pingpong -s "$SIZE" -n "$ITERS" -c
trim_facts
f_icrc=$(grown icrc_errors "$LOGS/c1.r")
ktap_info "trimming, lengths fixed: switch trimmed $q_trimmed, dropped $q_dropped; receiver:" \
	"$r_trimmed trimmed packets in, $r_nacks trim NACKs out, $f_icrc ICRC errors;" \
	"sender: $s_nacks trim NACKs in, $s_retx retransmits, $s_to timeouts"
fixed_seen() {
	trim_counts 1 alone || return 1
	[ "$f_icrc" = 0 ] || { echo "$f_icrc ICRC errors: cut packets not recognised"; return 1; }
}
check "trimming, lengths fixed: recognised by DSCP (no ICRC error), NACKed, resent, no timeout" \
	fixed_seen
ktap_finish
