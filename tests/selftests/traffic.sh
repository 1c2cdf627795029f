#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traffic between the two hosts of a topology (topo.sh): h1/side A is the
# client, h2/side B the server. Source it after topo.sh; it needs TMO (the
# time limit of one run, s) and LOGS (a directory) set by the caller.
# The callers size every run (MRC_QUICK, lib.sh); nothing here depends on
# the mode, and nothing here judges a time or a rate: bw_gbps is for
# diagnostics.
#
#   A ARGS...                 mrcctl in side A's namespace
#   pair SERVER... -- CLIENT...
#                             the server on B, the client on A with -p PORT
#                             (both get it); both must exit 0. Logs in
#                             $LOGS/${TAG}srv and $LOGS/${TAG}cli. To run
#                             two at once, give the one in the background
#                             its own TAG and move PORT on after starting it
#   pingpong ITERS SIZE       ibv_rc_pingpong, every buffer checked (-c)
#   rping_v SIZE COUNT        rping over rdma_cm, -V compares every byte
#   write_bw SIZE ITERS [ARGS]  ib_write_bw A -> B
#   bw_gbps                   the Gb/s of the last write_bw client (wall clock)
#   rc_qpn [DEV [NS [TYPE]]]  the number of an RC (or TYPE) QP of DEV
#                             (default DEV_A)
#   fabric_start              topo_fabric mrc as the suite's first test; the
#                             suite ends there if it fails
#   bad PATTERN ARGS...       mrcctl ARGS in A fails, its message matching
#                             PATTERN (grep -iE)

# (a request takes milliseconds, a second on the KASAN kernel: the suite's
# own time limit is the hang guard, no timeout process for each call)
A() { "$TOPO_MRCCTL" -n "$NS_A" "$@"; }
PORT=$((20000 + $$ % 20000))
TAG=''

pair() {
	local srv=() spid rc
	while [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$TMO" "${srv[@]}" -p "$PORT" \
		>"$LOGS/${TAG}srv" 2>&1 &
	spid=$!
	wait_listen "$NS_B" tcp "$PORT" "$spid"
	timeout -k 5 "$TMO" ip netns exec "$NS_A" stdbuf -oL "$@" -p "$PORT" 2>&1 |
		stamp >"$LOGS/${TAG}cli"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || kill "$spid" 2>/dev/null
	wait "$spid" || rc=1
	[ "$rc" = 0 ] || _pair_why
	return "$rc"
}

# stamp: each line prefixed with the wall time it arrived (s.us); bash
# builtins only, so the time is that of the line, not of a fork
stamp() {
	local l
	while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done
}

# why a pair failed: the error lines (perftest's stderr lands before its
# buffered stdout in the log) and the end of each log
_pair_why() {
	local f
	for f in "$LOGS/${TAG}srv" "$LOGS/${TAG}cli"; do
		grep -iE 'error|fail|exceed|status|timeout' "$f" | head -5
		tail -3 "$f"
	done
}

pingpong() {
	pair ibv_rc_pingpong -d "$DEV_B" -g "$GID_B" -n "$1" -s "$2" -c -- \
		ibv_rc_pingpong -d "$DEV_A" -g "$GID_A" -n "$1" -s "$2" -c "$IP_B" &&
		grep -q "$1 iters in" "$LOGS/${TAG}cli"
}

rping_v() {
	local spid rc
	PORT=$((PORT + 1))
	timeout -k 5 "$TMO" ip netns exec "$NS_B" rping -s -a "$CM_B" -p "$PORT" -S "$1" \
		-C "$2" -V -v >"$LOGS/${TAG}srv" 2>&1 &
	spid=$!
	wait_listen "$NS_B" cm "$PORT" "$spid"
	timeout -k 5 "$TMO" ip netns exec "$NS_A" rping -c -a "$CM_B" -I "$CM_A" -p "$PORT" \
		-S "$1" -C "$2" -V -v >"$LOGS/${TAG}cli" 2>&1
	rc=$?
	wait "$spid" || rc=1
	if [ "$rc" != 0 ] || ! grep -q "rdma-ping-$(($2 - 1)):" "$LOGS/${TAG}cli"; then
		tail -3 "$LOGS/${TAG}cli"
		return 1
	fi
}

# -u 18 (QP timeout 1 s): a full window queues in front of the ACKs in the
# switches for longer than the default 67 ms under emulation, the KASAN
# kernel most.
write_bw() {
	local s=$1 n=$2
	shift 2
	pair ib_write_bw -d "$DEV_B" -x "$GID_B" -F -u 18 --report_gbits -s "$s" -n "$n" "$@" -- \
		ib_write_bw -d "$DEV_A" -x "$GID_A" -F -u 18 --report_gbits -s "$s" -n "$n" "$@" "$IP_B"
}

# From the wall clock: the bytes the last write_bw client wrote over the
# time from its result header to its result line (stdout line-buffered).
# Between the two perftest writes a warm-up of TX depth messages, waits
# for them, then runs the test: the warm-up counts too. perftest's own
# figures come from the TSC rate it measures at start; under TCG that
# measurement fails now and then ("Correlation coefficient r^2 < 0.9"), and
# it then reported 0, or a fifth of the real rate.
bw_gbps() {
	awk '$2 == "TX" && $3 == "depth" { warm = $5 }
		$2 == "#bytes" { t0 = $1 }
		t0 && $2 ~ /^[0-9]+$/ && NF >= 6 && $1 > t0 { v = $2 * ($3 + warm) * 8 / ($1 - t0) / 1e9 }
		END { printf "%.6f", v }' "$LOGS/${TAG}cli"
}

rc_qpn() {
	netns "${2:-$NS_A}" rdma -j res show qp |
		jq -r "first(.[] | select(.ifname == \"${1:-$DEV_A}\" and .type == \"${3:-RC}\") | .lqpn) // empty"
}

# client_evset FILE: the EV set of h1's RC QP in FILE (mrcctl -j ev show),
# once it has one; its number in CLIENT_QPN
client_evset() {
	local q i
	for ((i = 0; i < 600; i++)); do
		q=$(rc_qpn "$DEV_A" "$NS_A")
		if [ -n "$q" ] && A -j ev show dev "$DEV_A" qpn "$q" >"$1" 2>/dev/null &&
			jq -e 'length > 0' "$1" >/dev/null 2>&1; then
			# shellcheck disable=SC2034 # the tests' to read
			CLIENT_QPN=$q
			return 0
		fi
		nap 0.1
	done
	return 1
}

# port_counter NS DEV NAME: one counter of DEV's port (rdma statistic)
port_counter() {
	netns "$1" rdma statistic show link "$2/1" |
		awk -v n="$3" '{ for (i = 1; i < NF; i++) if ($i == n) { print $(i + 1); exit } }'
}

# test_logs NAME: a directory in $LOGS for the test's files, kept for the
# harness (MRC_TEST_LOGS) and removed with the topology when it exits
test_logs() {
	LOGS=$(mktemp -d "/tmp/$1.XXXXXX")
	# shellcheck disable=SC2064 # the name now, the rest at exit
	trap "topo_cleanup
		[ -z \"\${MRC_TEST_LOGS:-}\" ] || cp -r \"\$LOGS\" \"\$MRC_TEST_LOGS/$1.d\"
		rm -rf \"\$LOGS\"" EXIT
}

fabric_start() {
	local t0=$SECONDS what="fabric: 2 hosts x 4 planes x 2 T1, mrc devices, planes, path sets"

	if ! topo_fabric mrc >"$LOGS/topo" 2>&1; then
		ktap_fail "$what"
		sed 's/^/#   /' "$LOGS/topo" | tail -15
		ktap_finish
	fi
	# the name stays the same from run to run (tests/vm/flake compares them)
	ktap_pass "$what"
	ktap_info "fabric up in $((SECONDS - t0))s"
}

bad() {
	local pat=$1 out rc seen=0
	shift
	out=$(A "$@" 2>&1); rc=$?
	# bash's own ERE match, as grep -iE would (no process)
	shopt -s nocasematch
	[[ $out =~ $pat ]] && seen=1
	shopt -u nocasematch
	if [ "$rc" = 0 ] || [ "$seen" = 0 ]; then
		echo "exit $rc: $out"
		return 1
	fi
}
