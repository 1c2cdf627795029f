#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Path health on the lab fabric (fabric.sh, 2 hosts x 4 planes x 2 T1): the
# EV state machine of mrc_ev.h driven by real faults.
#
#   - the EV set of a live QP: 128 slots and 128 backups
#   - the operator: mrcctl ev deny takes an EV out of the rotation (DENIED,
#     its slot to a backup, nothing more sent on it), ev allow brings it
#     back; both seen by mrcctl monitor and the mrc_ev_state tracepoint;
#     bad requests refused with a message
#   - a path blackholed mid-transfer (netem loss 100 % on one T0-T1 link,
#     both ways) under ib_write_bw: rping -V completes with every byte
#     checked, the path's EVs that sent into it go ASSUMED_BAD (monitor:
#     cause loss) and backups on the plane's other path take their slots;
#     the time from the fault to the last of them is reported. The link back: probes bring the EVs
#     back to GOOD (monitor: cause probe)
#   - a T1 switch dies (both its links down) under ib_write_bw and rping
#     -V: rping completes with every byte checked, the EVs of the paths
#     through it leave the rotation, and after the links come back probes
#     bring them back to GOOD
#   - a dead reverse path (h2 -> h1 through one T1 drops everything, h1 ->
#     h2 works): h2's QP, which only receives, moves its ACKs off it (its
#     probed reverse EV set) onto the plane's other path
#   - ACKs lost (h2 drops all it sends for 1 s): h1's timeouts send
#     reliability probes for h2's SACK state; rping -V completes, no QP
#     error
#   - a remote host's plane goes down under the same: h1 learns it from the
#     port status in h2's SACKs, resends at once what was out towards it
#     (the plane's down_lost moved) and sends nothing more towards it; back up
#     (and for half a second losing what h2 sends on it, as a port up
#     before its routes), h1 sends towards it again, and probes bring back
#     the EVs that lost packets before h1 learned it
#   - 100 flaps of a T0-T1 link (netem loss 100 % for 30 ms, then 0 % for
#     30 ms) under ib_write_bw and rping -V: no QP error, no data error
#   - a local plane netdev goes down mid-transfer (ib_write_bw and rping
#     -V): rping -V completes, what was out on it is resent at once
#     (the plane's down_lost moved), nothing more is sent on it, ib_write_bw
#     never fails; up again, it carries traffic again
#   - random loss: 1 % and 5 % on one plane, 0.1 % and 1 % on all: rping -V
#     completes, ib_write_bw completes (its Gb/s printed, not judged; make
#     bench measures goodput under loss)
#   - every path dead (all of h1's plane links dropping) for longer than
#     the QP's retry budget: a QP with writes outstanding fails with
#     IBV_WC_RETRY_EXC_ERR, no hang
#
# Every check is on what happened (data compared, EV states, counters,
# exit status); times are printed as diagnostics only.
#
# Environment: MRC_TIMEOUT_SCALE (slow kernels: longer limits, fewer
# iterations); MRC_QUICK=1: every fault above still injected, with less
# traffic around it: rping -V of 60 x 4 KiB across each fault on a slow
# kernel (150 full length; at full speed 600 in both modes, as many as
# rping needs to outlast a fault there), random loss at two of the four
# settings (5 % on one plane, 1 % on all: the other two take the same code
# paths at lower rates) with 10 transfers each instead of 200 (40
# scaled), 10 flaps instead of 100 (each takes about 0.5 s on the KASAN
# kernel: tc is slow), and one ib_write_bw under all the faults from
# deny/allow to the flaps instead of one each.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools ib_write_bw ibv_rc_pingpong rping jq tc
require_mrcctl

SCALE=${MRC_TIMEOUT_SCALE:-1}
TMO=$((120 * ${SCALE%.*}))
# rping iterations that outlast the fault by a good margin (each
# scenario prints how long rping ran after its fault)
if [ "${SCALE%.*}" -gt 1 ]; then ITERS=$(by_mode 150 60); else ITERS=600; fi
LOGS=$(mktemp -d /tmp/mrc_res.XXXXXX)
MON=''
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap '[ -z "$MON" ] || kill "$MON" 2>/dev/null; topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_resilience.d"
	rm -rf "$LOGS"' EXIT

# evs QPN: the EV set of QP QPN of h1's device, as JSON
evs() { A -j ev show dev "$DEV_A" qpn "$1"; }
# none_bad QPN PATHS: QP QPN has EVs, and none of PATHS (a JSON array of
# path ids) is ASSUMED_BAD
none_bad() {
	# shellcheck disable=SC2016 # $p $x are jq's
	evs "$1" | jq -e --argjson p "$2" 'length > 0 and
		[.[] | select(.path as $x | $p | index($x)) | select(.state == "ASSUMED_BAD")] == []'
}
# pp_tx QPN PATHS: packets QP QPN sent on PATHS
pp_tx() {
	# shellcheck disable=SC2016 # $p is jq's
	evs "$1" | jq --argjson p "$2" '[.[] | select(.path as $x | $p | index($x)) | .tx_packets] | add'
}
# rp_up QPN: another RC QP of h1's device than QPN is connected (RTS):
# rping's. Faults wait for it: connection setup goes over QP1, which does
# not spray (plane 0, the routing table), and the KASAN kernel takes more
# than a second to connect
rp_up() {
	# shellcheck disable=SC2016 # $d $q are jq's
	netns "$NS_A" rdma -j res show qp | jq -e --arg d "$DEV_A" --argjson q "$1" \
		'any(.[]; .ifname == $d and .type == "RC" and .lqpn != $q and .state == "RTS")'
}
# under_load TAG: the load (its QP: qpn) and rping -V 4 KiB x ITERS
# (RP: its pid, logs TAG*), once rping is connected and has run 1 s
under_load() {
	load_start
	qpn=$QPN
	rp_start "$1"
	wait_for $((30 * ${SCALE%.*})) rp_up "${qpn:-0}"
	sleep 1
}
# rp_start TAG: rping -V 4 KiB x ITERS in the background (RP: its pid),
# logs TAG*: each scenario its own TAG, so a failure keeps its logs
rp_start() {
	RPTAG=$1
	TAG=$1 rping_v 4096 "$ITERS" >"$LOGS/${1}out" 2>&1 &
	RP=$!
}
# now_ns: CLOCK_REALTIME in ns, as the ev notifications carry it
now_ns() { date +%s%N; }
# rp_wait: wait for the rping RP, return its status and print how long it
# ran after the fault (FAULT_T: $SECONDS then): ITERS must outlast it
rp_wait() {
	local rc
	wait "$RP"
	rc=$?
	ktap_info "rping -V 4 KiB x $ITERS: ended $((SECONDS - FAULT_T)) s after the fault (status $rc)"
	if [ "$rc" != 0 ]; then
		ktap_info "rping failed: the end of its client and server logs (${RPTAG}cli, ${RPTAG}srv):"
		tail -n 4 "$LOGS/${RPTAG}cli" "$LOGS/${RPTAG}srv" 2>&1 | sed 's/^/#   /'
	fi
	return "$rc"
}
# bw_alive: the bg_bw still runs, and neither side logged an error
bw_alive() {
	if kill -0 "$BW" && ! grep -qi 'error' "$LOGS/bw$BWN.cli" "$LOGS/bw$BWN.srv"; then
		return 0
	fi
	tail -n 5 "$LOGS/bw$BWN.cli" "$LOGS/bw$BWN.srv"
	return 1
}
# bw_stop WHAT: the bg_bw never failed (it still runs, no error); stop it
bw_stop() {
	check "$1 still runs, no error" bw_alive
	pkill -TERM -P "$BW"
	wait "$BW"
}
# bg_bw SECONDS: an ib_write_bw (h1 -> h2) whose QP the tests watch and
# change, in the background (BW: its pid, QPN: its QP on h1). With no
# congestion control its 128 outstanding writes queue for seconds on the
# KASAN kernel, which leaves rping's QP (0.5 s x 8 retries) no budget:
# there it keeps 8 outstanding. Each run keeps its own logs.
BWN=0
bg_bw() {
	local d=$(($1 * ${SCALE%.*})) t=128

	[ "${SCALE%.*}" -le 1 ] || t=8
	BWN=$((BWN + 1))
	TAG=bw$BWN. pair ib_write_bw -d "$DEV_B" -x "$GID_B" -F -u 18 -s 65536 -t $t -D "$d" -- \
		ib_write_bw -d "$DEV_A" -x "$GID_A" -F -u 18 -s 65536 -t $t -D "$d" "$IP_B" \
		>/dev/null 2>&1 &
	BW=$!
	PORT=$((PORT + 10))
	QPN=''
	for _ in $(seq 150); do
		QPN=$(rc_qpn "$DEV_A")
		[ -n "$QPN" ] && return 0
		nap 0.2
	done
	return 1
}

# The load of the fault scenarios, from the operator's deny/allow to the
# flaps: a bg_bw of each scenario's own in the full run; in the quick one,
# one bg_bw across all of them (its QP meets every fault in turn, and a
# start and stop cost ~20 s a scenario on the KASAN kernel). Either runs
# until stopped: its 1200 s (x SCALE) are a hang guard, so "still runs"
# judges that it never failed, not how fast a scenario went.
# load_start: the scenario's bg_bw (QPN: its QP on h1)
LOAD_SHARED=0
load_start() {
	quick && [ "$LOAD_SHARED" = 1 ] && return 0
	LOAD_SHARED=1
	TMO=$((TMO + 1200 * ${SCALE%.*})) bg_bw 1200
}
# load_check WHAT: the bg_bw never failed (it still runs, no error); the
# scenario's own is stopped
load_check() {
	if quick; then
		check "$1 still runs, no error" bw_alive
	else
		bw_stop "$1"
	fi
}

ktap_header "$(by_mode 47 43)"
t0=$SECONDS
fabric_start

# monitor everything from here on (it joins in well under a second)
"$TOPO_MRCCTL" -n "$NS_A" -j monitor dev "$DEV_A" >"$LOGS/mon" 2>"$LOGS/mon.err" &
MON=$!
# the tracepoint
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR 2>/dev/null
tracing=0
if [ -d $TR/events/mrc/mrc_ev_state ]; then
	echo 1 >$TR/events/mrc/mrc_ev_state/enable && echo >$TR/trace && tracing=1
fi

# -- the operator: deny / allow on a live QP
load_start
qpn=$QPN
# the QP has its EVs once connected (RTR), seconds after it exists on the
# debug kernel
evs_built() { evs "${qpn:-0}" >"$LOGS/evs0" && jq -e 'length == 256' "$LOGS/evs0" >/dev/null; }
wait_for "$TMO" evs_built
check "ev show of the ib_write_bw QP: 256 EVs, 128 in rotation (32 per plane), the rest backups" \
	jq -e 'length == 256 and ([.[] | select(.slot)] | length == 128 and
		([group_by(.plane)[] | length] == [32, 32, 32, 32]))' "$LOGS/evs0"
k=$(jq -r '[.[] | select(.slot and .state == "GOOD")][0].ev' "$LOGS/evs0")
ktap_info "ib_write_bw QP ${qpn:-?}: EV $k denied and allowed"
A ev deny dev "$DEV_A" qpn "${qpn:-0}" index "${k:-0}"
evs "${qpn:-0}" >"$LOGS/evs1"
sleep 1
evs "${qpn:-0}" >"$LOGS/evs2"
# shellcheck disable=SC2016 # $k is jq's
check "ev deny: the EV DENIED, out of the rotation, nothing more sent on it" \
	bash -c "jq -e --argjson k $k '.[\$k] | .state == \"DENIED\" and (has(\"slot\") | not)' $LOGS/evs1 &&
		[ \"\$(jq '.[$k].tx_packets' $LOGS/evs1)\" = \"\$(jq '.[$k].tx_packets' $LOGS/evs2)\" ] &&
		jq -e '[.[] | select(.slot)] | length == 128' $LOGS/evs2"
A ev allow dev "$DEV_A" qpn "${qpn:-0}" index "${k:-0}"
# shellcheck disable=SC2016
check "ev allow: the EV GOOD again" \
	bash -c "$(declare -f A evs); NS_A=$NS_A TOPO_MRCCTL=$TOPO_MRCCTL DEV_A=$DEV_A
		evs $qpn | jq -e --argjson k $k '.[\$k].state == \"GOOD\"'"
# shellcheck disable=SC2016
check "monitor: the EV GOOD -> DENIED (deny) and back (allow)" \
	jq -se --argjson k "$k" 'any(.event == "ev" and .ev == $k and .state == "DENIED" and .cause == "deny") and
		any(.event == "ev" and .ev == $k and .old_state == "DENIED" and .state == "GOOD" and .cause == "allow")' \
	"$LOGS/mon"
if [ $tracing = 1 ]; then
	check "tracepoint mrc:mrc_ev_state: the deny and the allow" \
		bash -c "grep -q 'ev=$k .* GOOD -> DENIED cause=deny' $TR/trace &&
			grep -q 'ev=$k .* DENIED -> GOOD cause=allow' $TR/trace"
else
	ktap_skip "tracepoint mrc:mrc_ev_state (no tracefs)"
fi
errs=0
bad "no such RC QP" ev deny dev "$DEV_A" qpn 999999 index 0 || errs=$((errs + 1))
bad "no such RC QP" ev deny dev "$DEV_A" qpn 1 index 0 || errs=$((errs + 1))
bad "range|index" ev deny dev "$DEV_A" qpn "${qpn:-0}" index 300 || errs=$((errs + 1))
bad "no such mrc device" ev allow dev nosuch qpn 1 index 0 || errs=$((errs + 1))
check "ev deny/allow: unknown QP, the GSI QP, a bad index, unknown device: refused" \
	test "$errs" = 0
load_check "the ib_write_bw under deny/allow"

# -- a path blackholed mid-transfer: plane 1 via t1-p1-0 (plane 0 carries
# QP1, which does not spray: rdma_cm would stall)
L="t0-p1-0:t1-p1-0"
dead=$(A -j path show dev "$DEV_A" |
	jq -r ".[] | select(.peer == \"$CM_B\" and (.usid | startswith(\"fc00:0:$(fabric_usid t0-p1-0):$(fabric_usid t1-p1-0):\"))) | .path")
# rping (rdma_cm: QP timeout 0.5 s; ibv_rc_pingpong's 67 ms is too short
# for the KASAN kernel under load) checks every byte it gets back
under_load rpbh.
evs "${qpn:-0}" >"$LOGS/evs2"
fault=$(now_ns) FAULT_T=$SECONDS
fabric_netem "$L" loss 100%
rp_wait
check "blackhole $L mid-transfer: rping -V, 4 KiB x $ITERS, every byte compared" test $? = 0
# every EV of the path that sent into the hole finds out (an EV that had
# left the rotation before, GOOD on standby, sent nothing there); polled
# under a hang guard while the hole stays: how soon is make bench's
# shellcheck disable=SC2016 # $p and $t are jq's
bh_retired() {
	evs "${qpn:-0}" >"$LOGS/evs3" &&
	jq -e --argjson p "${dead:-99}" --slurpfile a "$LOGS/evs2" '
		($a[0] | map({key: (.ev | tostring), value: .tx_packets}) | from_entries) as $t |
		length > 0 and [.[] | select(.path == $p and .slot and .state == "GOOD")] == [] and
		([.[] | select(.path == $p and .tx_packets > ($t[.ev | tostring] // 0))] |
			length > 0 and all(.[]; .state == "ASSUMED_BAD")) and
		([.[] | select(.slot and .state == "GOOD")] | length) >= 120' "$LOGS/evs3"
}
check "blackhole: the EVs of path $dead that sent after the fault are ASSUMED_BAD, none left in the rotation" \
	wait_for $((30 * ${SCALE%.*})) bh_retired
# shellcheck disable=SC2016
check "blackhole: monitor saw them go GOOD -> ASSUMED_BAD (loss), backups taking their slots" \
	jq -se --argjson p "${dead:-99}" --argjson q "${qpn:-0}" '[.[] | select(.event == "ev" and
		.qpn == $q and .path == $p and .state == "ASSUMED_BAD" and .cause == "loss")] |
		length > 0 and (map(select(has("backup"))) | length) * 2 >= length' "$LOGS/mon"
# avoid QP: from the fault to the last EV of the dead path leaving QP's
# rotation (what the monitor saw, until the link comes back), in ms
until=$(now_ns)
avoid() {
	# shellcheck disable=SC2016 # $p $q $f $u are jq's
	jq -s --argjson p "${dead:-99}" --argjson q "${1:-0}" --argjson f "$fault" --argjson u "$until" \
		'[.[] | select(.event == "ev" and .qpn == $q and .path == $p and .state == "ASSUMED_BAD" and
		.time_ns > $f and .time_ns < $u) | .time_ns] |
		if length > 0 then "\(length) EVs, the first after \((min - $f) / 1e6) ms, the last after \((max - $f) / 1e6) ms"
		else "none" end' "$LOGS/mon"
}
ktap_info "path $dead dead: ib_write_bw QP ${qpn:-?}: $(avoid "$qpn")"
# the rping QP: another one with events on the path after the fault
# shellcheck disable=SC2016
rpq=$(jq -s --argjson p "${dead:-99}" --argjson q "${qpn:-0}" --argjson f "$fault" -r '[.[] |
	select(.event == "ev" and .path == $p and .qpn != $q and .time_ns > $f) | .qpn] |
	unique | .[0] // empty' "$LOGS/mon")
ktap_info "path $dead dead: rping QP ${rpq:-?}: $(avoid "$rpq")"
fabric_netem_clear "$L"
check "link back: probes bring the EVs of path $dead back to GOOD" \
	wait_for $((30 * ${SCALE%.*})) none_bad "$qpn" "[${dead:-99}]"
# shellcheck disable=SC2016
check "monitor: ASSUMED_BAD -> GOOD (probe)" \
	jq -se --argjson p "${dead:-99}" 'any(.event == "ev" and .path == $p and .old_state == "ASSUMED_BAD" and
		.state == "GOOD" and .cause == "probe")' "$LOGS/mon"
load_check "the ib_write_bw across it all"
check "counters: ev_assumed_bad, ev_recovered, ev_backups_used, probes sent and received" \
	bash -c "netns $NS_A rdma -j statistic show link $DEV_A/1 | jq -e '.[0] |
		.ev_assumed_bad > 0 and .ev_recovered > 0 and .ev_backups_used > 0 and .probes_sent > 0' &&
		netns $NS_B rdma -j statistic show link $DEV_B/1 | jq -e '.[0].probes_received > 0'"

# paths_via T0 T1: h1's paths to h2 (a JSON array of ids) through T0, T1
paths_via() {
	# shellcheck disable=SC2016 # $p is jq's
	A -j path show dev "$DEV_A" | jq -c --arg p "fc00:0:$(fabric_usid "$1"):$(fabric_usid "$2"):" \
		--arg peer "$CM_B" '[.[] | select(.peer == $peer and (.usid | startswith($p))) | .path]'
}
# plane_paths P: h1's paths to h2 on plane P
plane_paths() {
	# shellcheck disable=SC2016
	A -j path show dev "$DEV_A" | jq -c --argjson k "$1" --arg peer "$CM_B" \
		'[.[] | select(.peer == $peer and .plane == $k) | .path]'
}
# plane_bytes P: bytes h1 sent on plane P
plane_bytes() { A -j plane show dev "$DEV_A" | jq -r ".[] | select(.plane == $1) | .tx_bytes"; }
# down_lost N: packets h1 had out on plane N when it went down, here or at h2
down_lost() { A -j plane show dev "$DEV_A" | jq -r ".[] | select(.plane == $1) | .down_lost"; }
plane_state() { A -j plane show dev "$DEV_A" | jq -e ".[] | select(.plane == $1) | .state == \"$2\""; }

# out_of_rotation QPN PATHS: no EV of PATHS (a JSON array) is GOOD in a
# rotation slot of QP QPN
# shellcheck disable=SC2016 # $p is jq's
out_of_rotation() {
	evs "$1" >"$LOGS/evs.f" &&
	jq -e --argjson p "$2" '($p | length) > 0 and length > 0 and
		[.[] | select(.path as $x | $p | index($x)) | select(.slot and .state == "GOOD")] == []' \
		"$LOGS/evs.f"
}
# fault NAME PATHS DOWN UP: under a long ib_write_bw (QP watched), rping
# -V across DOWN (a command); then the EVs of PATHS (a JSON array of path
# ids) must be out of the rotation. UP, and probes must bring them back.
fault() {
	local name=$1 paths=$2 down=$3 up=$4 qpn rc
	under_load rpf.
	FAULT_T=$SECONDS
	$down
	rp_wait
	rc=$?
	check "$name: rping -V 4 KiB x $ITERS across it, every byte compared" test $rc = 0
	check "$name: no EV of paths $paths left in the rotation" \
		wait_for $((30 * ${SCALE%.*})) out_of_rotation "$qpn" "$paths"
	$up
	check "$name: back: probes bring them back to GOOD" \
		wait_for $((30 * ${SCALE%.*})) none_bad "$qpn" "$paths"
	load_check "the ib_write_bw across $name"
}

# -- a T1 switch dies (both its links down) and comes back
T1="t1-p1-1"
t1_down() { fabric_link_down "t0-p1-0:$T1" && fabric_link_down "t0-p1-1:$T1"; }
t1_up() { fabric_link_up "t0-p1-0:$T1" && fabric_link_up "t0-p1-1:$T1"; }
fault "T1 $T1 dies" "$(paths_via t0-p1-0 $T1)" t1_down t1_up

# -- a dead reverse path: t1-p1-0 drops everything it sends towards h1's
# T0 (h2 -> h1 via that T1; h1 -> h2 works). h2's QP of the bg_bw only
# receives, so nothing of its own data tells it; its reverse EV set
# (probed) must take its ACKs off that path, onto plane 1's other one
# bpaths T1: h2's paths to h1 on plane 1 through T1 (a JSON array)
bpaths() {
	"$TOPO_MRCCTL" -n "$NS_B" -j path show dev "$DEV_B" |
		jq -c --arg p "fc00:0:$(fabric_usid t0-p1-1):$(fabric_usid "$1"):" --arg peer "$CM_A" \
		'[.[] | select(.peer == $peer and (.usid | startswith($p))) | .path]'
}
# acks QPN PATHS: packets but probes that h2's QP QPN sent on PATHS
acks() {
	# shellcheck disable=SC2016 # $p $x are jq's
	"$TOPO_MRCCTL" -n "$NS_B" -j ev show dev "$DEV_B" qpn "$1" |
		jq --argjson p "$2" '[.[] | select(.path as $x | $p | index($x)) | .tx_packets - .probes] | add'
}
rdead=$(bpaths t1-p1-0) rlive=$(bpaths t1-p1-1)
load_start
# shellcheck disable=SC2016 # $d $q are jq's
bq=$(netns "$NS_B" rdma -j res show qp | jq -r --arg d "$DEV_B" --argjson q "${QPN:-0}" \
	'.[] | select(.ifname == $d and .type == "RC" and .rqpn == $q) | .lqpn' | head -1)
sleep 1
rt=$(fabric_ns t1-p1-0)
tc -n "$rt" qdisc replace dev d0 root netem loss 100%
# acks_moved: for a second, no ACK on the dead path and some on the live
# one. Polled under a hang guard (how soon is not judged), then a longer
# window must show the same: they stay off it
acks_moved() {
	local a l
	a=$(acks "${bq:-0}" "$rdead") l=$(acks "${bq:-0}" "$rlive")
	sleep 1
	test "${a:-x}" = "$(acks "${bq:-0}" "$rdead")" -a "$(acks "${bq:-0}" "$rlive")" -gt "${l:-0}"
}
t_rev=$SECONDS
wait_for $((30 * ${SCALE%.*})) acks_moved
ktap_info "h2's ACKs off the dead reverse path after about $((SECONDS - t_rev)) s"
a0=$(acks "${bq:-0}" "$rdead") l0=$(acks "${bq:-0}" "$rlive")
sleep 3
a1=$(acks "${bq:-0}" "$rdead") l1=$(acks "${bq:-0}" "$rlive")
tc -n "$rt" qdisc del dev d0 root
ktap_info "h2's QP ${bq:-?}: packets but probes on the dead reverse path $a0 -> $a1, on the live one $l0 -> $l1"
check "reverse path h2 -> h1 via t1-p1-0 dead: h2's QP (receives only) sends no ACK on it, plane 1's other path carries them" \
	test "${a0:-x}" = "${a1:-y}" -a "${l1:-0}" -gt "${l0:-0}"
load_check "the ib_write_bw across the dead reverse path"

# -- ACKs lost: h2 drops everything it sends, on every plane (h2 -> h1
# dead, h1 -> h2 works) for a second. h1's timeouts resend, and ask for
# h2's SACK state with a reliability probe each; once the way back works,
# the answers bring the state back: no QP error, no data error. One tc
# process sets all four planes (a tc a plane takes a second or more on the
# KASAN kernel under load, which would stretch the outage past the retry
# budget of rping's QPs: 7 timeouts of at most 0.5 s)
rto() {
	netns "$NS_A" rdma -j statistic show link "$DEV_A/1" |
		jq -r '.[0] | "\(.timeouts) \(.rto_probes)"'
}
back() { # back add|del: h2 drops all it sends, or stops
	local p
	for p in 0 1 2 3; do
		if [ "$1" = add ]; then
			echo "qdisc replace dev p$p root netem loss 100%"
		else
			echo "qdisc del dev p$p root"
		fi
	done | tc -n "$NS_B" -batch -
}
under_load rpack.
read -r to0 rp0 <<<"$(rto)"
FAULT_T=$SECONDS
back add
sleep 1
back del
rp_wait
rc=$?
read -r to1 rp1 <<<"$(rto)"
check "ACKs lost (h2 -> h1 dead for 1 s): rping -V 4 KiB x $ITERS across it, every byte compared" \
	test $rc = 0
ktap_info "h1's timeouts $to0 -> $to1, rto_probes $rp0 -> $rp1"
check "ACKs lost: h1's timeouts asked for the SACK state with probes" \
	test "${to1:-0}" -gt "${to0:-0}" -a "${rp1:-0}" -gt "${rp0:-0}"
load_check "the ib_write_bw across the lost ACKs"

# -- a remote host's plane goes down: h2's SACKs carry its port status,
# and h1 stops sending towards the plane (EVs keep their slots and state);
# back up, h1 sends towards it again at once. EVs that lost packets before
# h1 learned it come back by probes. The plane comes up before its routes
# work (as a switch port may): for half a second what h2 sends on it is
# lost, the first SACK that says it is back among it when its turn in
# the reverse rotation falls there; the ones after it tell h1.
pp=$(plane_paths 1)
peer_ps() { netns "$NS_A" rdma -j statistic show link "$DEV_A/1" | jq -r '.[0].peer_port_status'; }
under_load rpps.
ps0=$(peer_ps)
pd0=$(down_lost 1)
FAULT_T=$SECONDS
fabric_link_down h2-p1
# pp_quiet: h1 heard a port status change and, for a second, sent nothing
# towards the plane. Polled under a hang guard, then a window of 2 s must
# show the same
pp_quiet() {
	local x
	test "$(peer_ps)" -gt "${ps0:-0}" || return 1
	x=$(pp_tx "${qpn:-0}" "$pp")
	sleep 1
	test -n "$x" -a "$x" = "$(pp_tx "${qpn:-0}" "$pp")"
}
wait_for $((30 * ${SCALE%.*})) pp_quiet
x0=$(pp_tx "${qpn:-0}" "$pp")
sleep 2
x1=$(pp_tx "${qpn:-0}" "$pp")
rp_wait
check "h2's plane 1 down: rping -V 4 KiB x $ITERS across it, every byte compared" test $? = 0
ktap_info "packets towards h2's plane 1 while down: $x0 -> $x1"
check "h2's plane 1 down: h1 learned it from h2's SACKs, nothing more sent towards it" \
	test "$(peer_ps)" -gt "${ps0:-0}" -a -n "$x0" -a "$x0" = "$x1"
# the ib_write_bw keeps its window full: some of it was out towards the
# plane when the SACK came, and no timeout had to find it
pd1=$(down_lost 1)
ktap_info "h1's down_lost of plane 1: $pd0 -> $pd1"
check "h2's plane 1 down: what h1 had out towards it was resent at once (down_lost)" \
	test "${pd1:-0}" -gt "${pd0:-0}"
tc -n "$NS_B" qdisc replace dev p1 root netem loss 100%
fabric_link_up h2-p1
sleep 0.5
tc -n "$NS_B" qdisc del dev p1 root
more_tx() { test "$(pp_tx "$1" "$pp")" -gt "$2"; }
t_up=$SECONDS
check "h2's plane 1 up: h1 sends towards it again" \
	wait_for $((30 * ${SCALE%.*})) more_tx "${qpn:-0}" "${x1:-0}"
ktap_info "h2's plane 1 up: packets towards it after $((SECONDS - t_up)) s; port status changes heard by h1's QPs $ps0 -> $(peer_ps)"
check "h2's plane 1 up: probes bring the EVs that lost packets back to GOOD" \
	wait_for $((30 * ${SCALE%.*})) none_bad "$qpn" "$pp"
load_check "the ib_write_bw across h2's plane 1 down and up"

# -- link flaps under traffic (netem loss 100 % on and off on a T0-T1
# link, both ways): no QP error, no data error. How long the flaps took is
# printed, not judged: the KASAN kernel's tc needs about 65 ms a command,
# so there they take longer than their nominal 60 ms each
L2="t0-p1-0:t1-p1-0"
NF=$(by_mode 100 10)
load_start
rp_start rpflap.
sleep 1
t=$(now_ns) FAULT_T=$SECONDS
fabric_flap "$L2" "$NF" 30 30
frc=$?
ktap_info "$NF flaps of $L2 (30 ms down, 30 ms up) took $(( ($(now_ns) - t) / 1000000 )) ms"
rp_wait
rc=$?
check "$NF flaps of $L2 under rping -V 4 KiB x $ITERS: every flap made, no QP error, every byte compared" \
	test $rc = 0 -a $frc = 0
bw_stop "the ib_write_bw across the flaps"

# -- a local plane goes down mid-transfer and comes back: its EVs are
# skipped at once, nothing more leaves on it, and what was out on it is
# resent on the others at once. An ib_write_bw of its own (the quick
# run's shared one ended with the flaps) keeps a full window out, so
# some of it is on plane 2 when it goes down
TMO=$((TMO + 1200 * ${SCALE%.*})) bg_bw 1200
qpn=$QPN
rp_start rplp.
wait_for $((30 * ${SCALE%.*})) rp_up "${qpn:-0}"
sleep 1
pd0=$(down_lost 2)
FAULT_T=$SECONDS
fabric_link_down h1-p2
wait_for $((10 * ${SCALE%.*})) plane_state 2 DOWN
b0=$(plane_bytes 2)
rp_wait
rc=$?
b1=$(plane_bytes 2)
pd1=$(down_lost 2)
check "local plane 2 down mid-transfer: rping -V 4 KiB x $ITERS, every byte compared" test $rc = 0
check "local plane 2 down: nothing more sent on it" test "$b0" = "$b1"
ktap_info "h1's down_lost of plane 2: $pd0 -> $pd1"
check "local plane 2 down: what was out on it was resent at once (down_lost)" \
	test "${pd1:-0}" -gt "${pd0:-0}"
fabric_link_up h1-p2
wait_for $((10 * ${SCALE%.*})) plane_state 2 UP
rping_v 4096 20 >/dev/null
check "local plane 2 up: it carries traffic again" test "$(plane_bytes 2)" -gt "$b1"
bw_stop "the ib_write_bw across local plane 2 down and up"

# -- random loss, data checked; the goodput is printed (make bench
# compares it with no loss, on an otherwise idle machine)
if [ "${SCALE%.*}" -gt 1 ]; then LN=$(by_mode 40 10) LI=$(by_mode 40 10)
else LN=$(by_mode 400 10) LI=$(by_mode 200 10); fi
LOSS=("1:1%" "1:5%" "0 1 2 3:0.1%" "0 1 2 3:1%")
quick && LOSS=("1:5%" "0 1 2 3:1%")
for c in "${LOSS[@]}"; do
	planes=${c%:*} pct=${c#*:}
	for p in $planes; do fabric_netem "h1-p$p" loss "$pct"; done
	what="$pct loss on plane(s) ${planes// /,}"
	check "$what: rping -V 4 KiB x $LI, every byte compared" rping_v 4096 "$LI"
	check "$what: ib_write_bw 64 KiB x $LN" write_bw 65536 "$LN" &&
		ktap_info "$what: ib_write_bw 64 KiB x $LN: $(bw_gbps) Gb/s"
	for p in $planes; do fabric_netem_clear "h1-p$p"; done
done

# -- every path dead for longer than the retry budget (ib_write_bw -u 18:
# 1 s, retry_cnt 7): h1's QP, which has writes outstanding, fails with
# IBV_WC_RETRY_EXC_ERR; nothing hangs
TAG=dead. write_bw 65536 1000000 >"$LOGS/dead.out" 2>&1 &
BW=$!
# the faults once its QP is up and writing (perftest takes seconds to
# connect on the KASAN kernel)
# shellcheck disable=SC2016 # $d is jq's
rc_up() { netns "$NS_A" rdma -j res show qp | jq -e --arg d "$DEV_A" 'any(.[]; .ifname == $d and .type == "RC" and .state == "RTS")'; }
wait_for $((60 * ${SCALE%.*})) rc_up
sleep 1
for p in 0 1 2 3; do fabric_netem "h1-p$p" loss 100%; done
t=$SECONDS
wait "$BW"
rc=$?
for p in 0 1 2 3; do fabric_netem_clear "h1-p$p"; done
ktap_info "all paths dead: h1's QP ended $((SECONDS - t)) s after the fault"
check "all paths dead: h1's QP fails with retry exceeded (status 12)" \
	bash -c "[ $rc != 0 ] && grep -qE 'status (12|transport retry counter exceeded)' $LOGS/dead.cli"
check "after the fault: a new connection works" pingpong 100 4096

[ $tracing = 0 ] || echo 0 >$TR/events/mrc/mrc_ev_state/enable
ktap_info "mrc_resilience: $((SECONDS - t0))s"
ktap_finish
