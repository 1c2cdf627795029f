#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packets nobody should trust: forged MRC packets (mrc_inject.py, raw
# sockets in the peer's namespace, with a correct ICRC so that only what
# they claim is wrong) sent at live RC QPs of two mrc devices over a veth
# (topo_ns). mrc must drop them, count them and go on:
#
#   - forged acknowledgments while a WRITE cannot arrive (tc drops every
#     RoCE packet h1 sends): ACKs and SACKs from the peer's address of
#     PSNs never sent, ACKs of exactly the WRITEs' PSNs from an address of
#     the peer's host that is not the peer QP's, and from the peer's own
#     address with a P_Key that is not the port's. The WRITE must not
#     complete: it ends in IBV_WC_RETRY_EXC_ERR (status 12), and
#     acks_bad_psn, rx_wrong_source and rx_bad_pkey count them
#   - requests at the responder of a stalled READ: duplicate READs of the
#     PSN just before its next are answered again, ones 3000 PSNs older
#     (more than any requester keeps in flight) are dropped (rx_dropped);
#     duplicate READs with a bad rkey and CMP_SWAPs beyond the window are
#     counted (rkey_violations, rx_dropped) and leave the QP out of ERR
#     (it would NAK and go there, were they fatal)
#   - more READs than max_dest_rd_atomic waiting at the responder of a
#     stalled READ: up to what a conforming requester can have there
#     they wait; one more is an invalid request (NAK, ERR,
#     rx_rd_atomic_excess). ib_read_bw at the limit, reordered, completes
#   - RoCE packets to the address of another netdev of h1's namespace (a
#     dummy): the IP stack's (Udp6NoPorts), not the mrc device's
#   - a burst of RoCE packets with UDP checksums at a plane with GRO and
#     UDP GRO forwarding on: merged, then taken apart (each counted)
#   - CM DREQs at QP1 with a Q_Key that is not the GSI's (0x80010000; a
#     user's UD QP cannot send with it, so any node's user could send
#     these): the CM never sees them (its cm_rx_duplicates/dreq moves only
#     for the same DREQs with the GSI's Q_Key), rx_bad_qkey counts them
#
# Environment: MRC_TIMEOUT_SCALE (slow kernels: longer hang guards). Quick
# and full mode are the same.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools ib_write_bw ib_read_bw python3 jq tc nstat ethtool modprobe

TMO=$(tmo 120)
LOGS=$(mktemp -d /tmp/mrc_hostile.XXXXXX)
INJECT=$DIR/mrc_inject.py
# an address of h2's namespace that no QP of h1 talks to
OTHER=10.77.0.99
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap 'topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_hostile.d"
	rm -rf "$LOGS"' EXIT

ktap_header 16

# counter DEV NAME: a counter of DEV (in h1's or h2's namespace)
counter() {
	local ns=$NS_A
	[ "$1" = "$DEV_B" ] && ns=$NS_B
	netns "$ns" rdma -j statistic show link "$1/1" | jq -r ".[0].$2"
}
# counters_info DEV: DEV's counters that are not 0, as a diagnostic
counters_info() {
	local ns=$NS_A
	[ "$1" = "$DEV_B" ] && ns=$NS_B
	ktap_info "$1: $(netns "$ns" rdma -j statistic show link "$1/1" |
		jq -r '.[0] | to_entries | map(select((.value | type) == "number" and .value > 0) |
			"\(.key) \(.value)") | join(", ")')"
}
# addr_of LOG local|remote QPN|PSN: a field of perftest's address lines
addr_of() {
	sed -n "s/.*$2 address:.* $3 \(0x[0-9a-fA-F]*\).*/\1/p" "$1" | head -1
}
# injector NS TAG ARGS...: mrc_inject.py in namespace NS (the other
# side's: a packet to a local address would not cross the veth), started
# now in the background, sending once go TAG opens its window (python
# takes seconds to start on the KASAN kernel, more than a QP's retry
# budget leaves); --psn (and --va) in ARGS are offsets from what go gives.
# injectors_up: every injector started is up (they start side by side).
INJ=() INJ_TAG=() INJ_READY=() NINJ=0
injector() {
	NINJ=$((NINJ + 1))
	netns "$1" python3 "$INJECT" --wait "$LOGS/${2}go" --ready "$LOGS/ready.$NINJ" "${@:3}" &
	INJ+=($!) INJ_TAG+=("$2") INJ_READY+=("$LOGS/ready.$NINJ")
}
_all_ready() {
	local f
	for f in "${INJ_READY[@]}"; do [ -e "$f" ] || return 1; done
}
injectors_up() { wait_for "$(tmo 60)" _all_ready; }
# go TAG QPN PSN [RKEY VA]: the injectors of TAG send, at QP QPN from PSN
go() {
	echo "${*:2}" >"$LOGS/${1}go.t" && mv "$LOGS/${1}go.t" "$LOGS/${1}go"
}
# injected [TAG]: every injector (of TAG) ended well
injected() {
	local i rc=0
	for i in "${!INJ[@]}"; do
		[ -z "${1:-}" ] || [ "${INJ_TAG[$i]}" = "$1" ] || continue
		wait "${INJ[$i]}" || rc=1
		unset "INJ[$i]" "INJ_TAG[$i]" "INJ_READY[$i]"
	done
	return $rc
}
# hw DEV NAME: a counter of DEV from sysfs (an exec less than counter:
# the polls below must see a WRITE leave within a second or two, and on
# the KASAN kernel rdma and jq take about that each)
hw() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
# sent_since N: h1's device sent more than N packets (a request is out;
# the client's QP is RTS by then)
sent_since() { test "$(hw "$DEV_A" tx_packets)" -gt "$1"; }
# client_up TAG: the client of TAG printed its QP
client_up() { [ -n "$(addr_of "$LOGS/${1}cli" local QPN)" ]; }

# stalled TAG [TOOL ARGS...]: a perftest TOOL (default ib_write_bw -u 19
# -s 1024 -n 5: 5 x 1 KiB, one packet each, WRITE i at PSN P + i - 1) h1
# -> h2, one WR at a time (-t 1: its least), whose requests cannot arrive
# (tc drops every RoCE packet h1 sends), in the background (CLI, SRV: the
# pids), until the first request has left (h1's device counted it); Q
# and P: the client's QP and first PSN. Each WRITE that completes lets
# the next one go. The QP timeout (-u 19: 2 s, 7 retries) leaves
# injectors about 17 s; on the KASAN kernel python and the polls that see
# the first WRITE leave take several.
stalled() {
	local t0 tool=("${@:2}")
	[ ${#tool[@]} -gt 0 ] || tool=(ib_write_bw -u 19 -s 1024 -n 5)
	t0=$(hw "$DEV_A" tx_packets)
	PORT=$((PORT + 1))
	ip netns exec "$NS_B" timeout -k 5 "$TMO" "${tool[@]}" -d "$DEV_B" -x "$GID_B" \
		-F -t 1 -p "$PORT" >"$LOGS/${1}srv" 2>&1 &
	SRV=$!
	wait_listen "$NS_B" tcp "$PORT" "$SRV" || return 1
	ip netns exec "$NS_A" timeout -k 5 "$TMO" stdbuf -oL "${tool[@]}" -d "$DEV_A" -x "$GID_A" \
		-F -t 1 -p "$PORT" "$IP_B" >"$LOGS/${1}cli" 2>&1 &
	CLI=$!
	wait_for "$(tmo 60)" client_up "$1" && wait_for "$(tmo 30)" sent_since "${t0:-0}" ||
		return 1
	Q=$(addr_of "$LOGS/${1}cli" local QPN) P=$(addr_of "$LOGS/${1}cli" local PSN)
}
# stalled_end: wait for the client (CRC: its exit status), stop the server
stalled_end() {
	wait "$CLI"
	CRC=$?
	kill "$SRV" 2>/dev/null
	wait "$SRV" 2>/dev/null
}
# stalled_under TAG WHAT: the injectors of TAG (started) meet a stalled
# write, whose client must end with retry exceeded; WHAT names them
stalled_under() {
	injectors_up "$1"
	if stalled "$1"; then
		go "$1" "$Q" "$P"
	else
		ktap_info "the client did not start: $(tail -n 3 "$LOGS/${1}cli")"
		go "$1" 0 0
	fi
	ktap_info "h1's QP $Q, its WRITEs at PSN $P to $P + 4: $2"
	injected
	stalled_end
	check "$2: the WRITEs they would acknowledge fail with retry exceeded" \
		retry_exceeded "$CRC" "$1"
	counters_info "$DEV_A"
}
# retry_exceeded RC TAG: the client of TAG ended with retry exceeded
retry_exceeded() {
	[ "$1" != 0 ] && grep -qE 'status (12|transport retry counter exceeded)' "$LOGS/${2}cli" &&
		return 0
	echo "client exit $1"
	tail -n 4 "$LOGS/${2}cli"
	return 1
}

# stalled_read TAG WHAT ARGS...: a stalled ib_read_bw client TAG (with
# ARGS) whose responder is h2's QP RQ, its buffer RK/VA (0 when it did not
# start); WHAT: what will be sent at it
stalled_read() {
	local tag=$1 what=$2
	shift 2
	if stalled "$tag" ib_read_bw "$@"; then
		RQ=$(addr_of "$LOGS/${tag}cli" remote QPN) RK=$(addr_of "$LOGS/${tag}cli" remote RKey)
		VA=$(addr_of "$LOGS/${tag}cli" remote VAddr)
		ktap_info "h2's QP $RQ, next PSN P = $P, rkey $RK, va $VA: $what"
	else
		ktap_info "the client did not start: $(tail -n 3 "$LOGS/${tag}cli")"
		RQ=0 RK=0 VA=0
	fi
}

if ! topo_ns mrc >"$LOGS/topo" 2>&1; then
	ktap_fail "mrc pair up (topo_ns)"
	sed 's/^/#   /' "$LOGS/topo" | tail -15
	ktap_finish
fi
ktap_pass "mrc pair up (topo_ns)"
ip -n "$NS_B" addr add "$OTHER/24" dev "$VETH_B"
# h1's RoCE packets dropped on the way out; TCP (perftest's handshake)
# passes, and so do mrc_inject.py's packets (IP ID 0x4d52) from h1's side
tc -n "$NS_A" qdisc add dev "$VETH_A" root handle 1: prio
drop_roce() {
	tc -n "$NS_A" filter "$1" dev "$VETH_A" parent 1: pref 5 protocol ip u32 \
		match ip protocol 17 0xff match u16 0x4d52 0xffff at 4 action ok
	tc -n "$NS_A" filter "$1" dev "$VETH_A" parent 1: pref 10 protocol ip u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff action drop
}

# -- forged acknowledgments of a stalled WRITE, all at once:
#  - ghost ones, from the peer's own address: 10 ACKs and 10 SACKs of the
#    first WRITE's PSN + 100, over 2 s: enough for all 5 WRITEs, were they
#    believed
#  - the WRITEs' own PSNs from an address that is not the peer's: each
#    PSN twice 0.2 s apart (the WRITE after a believed one is posted
#    within that time), and 10 times the last WRITE's PSN, which would
#    acknowledge each WRITE in turn as the window check sees it: the
#    source check must catch both before it
#  - each PSN twice from the peer's address with P_Key 0x1234: the P_Key
#    check catches them before any QP sees them
drop_roce add
b0=$(counter "$DEV_A" acks_bad_psn) w0=$(counter "$DEV_A" rx_wrong_source)
k0=$(counter "$DEV_A" rx_bad_pkey)
injector "$NS_B" wr. --dst "$IP_A" --src "$IP_B" --psn 100 --count 10 --gap 0.2 ack
injector "$NS_B" wr. --dst "$IP_A" --src "$IP_B" --psn 100 --count 10 --gap 0.2 sack
injector "$NS_B" wr. --dst "$IP_A" --src "$OTHER" --count 10 --gap 0.2 --psn-every 2 ack
injector "$NS_B" wr. --dst "$IP_A" --src "$OTHER" --psn 4 --count 10 --gap 0.2 ack
injector "$NS_B" wr. --dst "$IP_A" --src "$IP_B" --pkey 0x1234 --count 10 --gap 0.2 \
	--psn-every 2 ack
stalled_under wr. "ACKs and SACKs of PSN + 100 (never sent), ACKs of each WRITE's PSN from \
$OTHER and with P_Key 0x1234"
b1=$(counter "$DEV_A" acks_bad_psn) w1=$(counter "$DEV_A" rx_wrong_source)
k1=$(counter "$DEV_A" rx_bad_pkey)
ktap_info "h1's acks_bad_psn $b0 -> $b1, rx_wrong_source $w0 -> $w1, rx_bad_pkey $k0 -> $k1"
check "ghost ACKs and SACKs: counted in acks_bad_psn" test "${b1:-0}" -gt "${b0:-0}"
check "ACKs from another address: counted in rx_wrong_source" test "${w1:-0}" -gt "${w0:-0}"
check "ACKs with a P_Key not the port's: counted in rx_bad_pkey" \
	test "${k1:-0}" -ge $((${k0:-0} + 10))

# -- duplicate READs at the responder of a stalled ib_read_bw (h2 has
# received none of h1's requests, its next PSN is the client's first, P):
# 5 READs of the 64 KiB h2 serves, at P - 3000, older than anything a
# requester can still have in flight (MRC_TX_WIN, 1024), then the same at
# P - 1, a duplicate of the READ just before P, which the responder must
# answer again. Only the second may draw READ responses from h2
# (tx_bytes); the client is stopped once they did. -u 22 (17 s, 7
# retries): it must not give up first
injector "$NS_A" old. --dst "$IP_B" --src "$IP_A" --psn -3000 --count 5 read --len 65536
injector "$NS_A" dup. --dst "$IP_B" --src "$IP_A" --psn -1 --count 5 read --len 65536
injector "$NS_A" bad. --dst "$IP_B" --src "$IP_A" --psn -1 --count 3 read --rkey 0xdead \
	--va 0x1000 --len 4096
injector "$NS_A" bad. --dst "$IP_B" --src "$IP_A" --psn $((1 << 22)) --count 3 \
	cmp-swap --rkey 0xdead --va 0x1000
injectors_up
t0=$(counter "$DEV_B" tx_bytes) d0=$(counter "$DEV_B" rx_dropped)
r0=$(counter "$DEV_B" rkey_violations) n0=$(counter "$DEV_B" naks_sent)
stalled_read rd. "READs of PSN P - 3000, then P - 1" -u 22 -s 65536 -n 5
go old. "$RQ" "$P" "$RK" "$VA"
injected old.
sleep 2
t1=$(counter "$DEV_B" tx_bytes) d1=$(counter "$DEV_B" rx_dropped)
go dup. "$RQ" "$P" "$RK" "$VA"
injected dup.
# answered: h2 sent the 5 x 64 KiB the duplicates of P - 1 asked for
answered() { test "$(counter "$DEV_B" tx_bytes)" -ge $((${t1:-0} + 5 * 65536)); }
wait_for "$(tmo 20)" answered
t2=$(counter "$DEV_B" tx_bytes)
# then requests that would end a QP were they new: 3 duplicates of P - 1
# with rkey 0xdead (go gives no rkey and no address of h2's), 3 CMP_SWAPs
# of P + 2^22, beyond the window (the QP grants no atomics)
go bad. "$RQ" "$P"
injected bad.
bad_counted() {
	test "$(counter "$DEV_B" rkey_violations)" -ge $((${r0:-0} + 3)) -a \
		"$(counter "$DEV_B" rx_dropped)" -ge $((${d1:-0} + 3))
}
wait_for "$(tmo 10)" bad_counted
r1=$(counter "$DEV_B" rkey_violations) n1=$(counter "$DEV_B" naks_sent)
d2=$(counter "$DEV_B" rx_dropped)
# (perftest's server leaves its QP in RTR)
st=$(netns "$NS_B" rdma -j res show qp | jq -r --arg d "$DEV_B" --argjson q "$((RQ))" \
	'.[] | select(.ifname == $d and .lqpn == $q) | .state')
kill "$CLI" "$SRV" 2>/dev/null
wait "$CLI" "$SRV" 2>/dev/null
ktap_info "h2's tx_bytes $t0 -> $t1 -> $t2, rx_dropped $d0 -> $d1"
check "duplicate READs of PSN P - 1 are answered again (h2 sent their 5 x 64 KiB)" \
	test $((${t2:-0} - ${t1:-0})) -ge $((5 * 65536))
check "READs of PSN P - 3000, older than any in flight, are not: dropped, counted in rx_dropped" \
	test $((${t1:-0} - ${t0:-0})) -lt 65536 -a "${d1:-0}" -ge $((${d0:-0} + 5))
ktap_info "h2's rkey_violations $r0 -> $r1, rx_dropped $d1 -> $d2, naks_sent $n0 -> $n1," \
	"its QP's state: ${st:-gone}"
check "duplicate READs (bad rkey), CMP_SWAPs beyond the window: the QP sent no NAK, is not ERR" \
	test "${n1:-x}" = "${n0:-y}" -a -n "$st" -a "$st" != ERR
check "... counted: rkey_violations, rx_dropped" \
	test "${r1:-0}" -ge $((${r0:-0} + 3)) -a "${d2:-0}" -ge $((${d1:-0} + 3))

# -- more READs than the responder resources, at the responder of a
# stalled ib_read_bw -o 1 (max_dest_rd_atomic 1): READs of 64 bytes at
# P + 1 to P + 4 wait for P (parked), as many as a conforming requester
# with 1 READ in flight can have there (1, and 3 more for a READ split
# into requests of 256 PSNs), and 8 one-PSN READs with RTX at P + 6 to
# P + 13, as mrc's requester resends a READ whose request was lost (they
# do not count): no NAK, the QP stays out of ERR; one more at
# P + 5 is an invalid request (IBA): NAK, rx_rd_atomic_excess, and the QP
# in ERR (or gone: the NAK ends the client, whose READ spans P + 5, and
# with it the server). -u 24 (69 s a retry): the client outlives a slow
# kernel's injectors and polls; it is stopped once they are done
injector "$NS_A" ex1. --dst "$IP_B" --src "$IP_A" --psn 1 --count 4 --psn-every 1 \
	read --len 64
injector "$NS_A" exr. --dst "$IP_B" --src "$IP_A" --psn 6 --count 8 --psn-every 1 --rtx \
	read --len 64
injector "$NS_A" ex2. --dst "$IP_B" --src "$IP_A" --psn 5 read --len 64
injectors_up
stalled_read ex. "READs of PSN P + 1 to P + 4, then P + 5" -u 24 -s 65536 -n 5 -o 1
# qp_state: the state of h2's QP RQ
qp_state() {
	netns "$NS_B" rdma -j res show qp | jq -r --arg d "$DEV_B" --argjson q "$((RQ))" \
		'.[] | select(.ifname == $d and .lqpn == $q) | .state'
}
x0=$(counter "$DEV_B" rx_rd_atomic_excess) n0=$(counter "$DEV_B" naks_sent)
o0=$(counter "$DEV_B" out_of_order)
go ex1. "$RQ" "$P" "$RK" "$VA"
injected ex1.
# parked N: N requests have waited at h2 since o0
parked() { test "$(counter "$DEV_B" out_of_order)" -ge $((${o0:-0} + $1)); }
wait_for "$(tmo 10)" parked 4
go exr. "$RQ" "$P" "$RK" "$VA"
injected exr.
wait_for "$(tmo 10)" parked 12
x1=$(counter "$DEV_B" rx_rd_atomic_excess) n1=$(counter "$DEV_B" naks_sent) st1=$(qp_state)
go ex2. "$RQ" "$P" "$RK" "$VA"
injected ex2.
naked() { test "$(counter "$DEV_B" naks_sent)" -gt "${n1:-0}"; }
wait_for "$(tmo 10)" naked
x2=$(counter "$DEV_B" rx_rd_atomic_excess) n2=$(counter "$DEV_B" naks_sent) st2=$(qp_state)
kill "$CLI" "$SRV" 2>/dev/null
wait "$CLI" "$SRV" 2>/dev/null
ktap_info "h2's rx_rd_atomic_excess $x0 -> $x1 -> $x2, naks_sent $n0 -> $n1 -> $n2," \
	"its QP's state ${st1:-gone} -> ${st2:-gone}"
check "4 READs parked, max_dest_rd_atomic 1 (its limit with split READs), and 8 resent one-PSN READs: no NAK, not ERR" \
	test -n "$x1" -a "$x1" != null -a "${x1:-x}" = "${x0:-y}" -a "${n1:-x}" = "${n0:-y}" \
	-a -n "$st1" -a "$st1" != ERR
check "a 5th: invalid request, NAKed, counted in rx_rd_atomic_excess, the QP ended" \
	test "${x2:-0}" = $((${x1:-0} + 1)) -a "${n2:-0}" -gt "${n1:-0}" -a "${st2:-ERR}" = ERR
drop_roce del

# -- a conforming requester at the limit: ib_read_bw -o 16 (64 B READs,
# 16 in flight) and -o 1 with 1 MiB READs (each split into 4 requests),
# h1's packets reordered by netem's jitter so that READs wait (parked) at
# h2: every READ completes, no NAK, rx_rd_atomic_excess stays put
tc -n "$NS_A" qdisc replace dev "$VETH_A" root netem delay 2ms 2ms
x0=$(counter "$DEV_B" rx_rd_atomic_excess) n0=$(counter "$DEV_B" naks_sent)
o0=$(counter "$DEV_B" out_of_order)
TAG=rb1. pair ib_read_bw -d "$DEV_B" -x "$GID_B" -F -u 18 -s 64 -n 500 -o 16 -- \
	ib_read_bw -d "$DEV_A" -x "$GID_A" -F -u 18 -s 64 -n 500 -o 16 "$IP_B"
rc1=$?
TAG=rb2. pair ib_read_bw -d "$DEV_B" -x "$GID_B" -F -u 18 -s 1048576 -n 5 -o 1 -- \
	ib_read_bw -d "$DEV_A" -x "$GID_A" -F -u 18 -s 1048576 -n 5 -o 1 "$IP_B"
rc2=$?
x1=$(counter "$DEV_B" rx_rd_atomic_excess) n1=$(counter "$DEV_B" naks_sent)
o1=$(counter "$DEV_B" out_of_order)
tc -n "$NS_A" qdisc replace dev "$VETH_A" root handle 1: prio
ktap_info "ib_read_bw -o 16 exit $rc1, -o 1 (1 MiB) exit $rc2; h2's out_of_order $o0 -> $o1," \
	"rx_rd_atomic_excess $x0 -> $x1, naks_sent $n0 -> $n1"
check "ib_read_bw at the limit (-o 16; -o 1 with split READs), reordered: completes, no NAK" \
	test "$rc1" = 0 -a "$rc2" = 0 -a "${o1:-0}" -gt "${o0:-0}" -a -n "$x1" -a "$x1" != null \
	-a "${x1:-x}" = "${x0:-y}" -a "${n1:-x}" = "${n0:-y}"

# -- RoCE packets to an address of another netdev of h1's namespace (a
# dummy's, fd77:1::1): not mrc's, whose planes take only their own
# addresses, but the IP stack's (UDP 4791 has no socket there: Udp6NoPorts)
ip -n "$NS_A" link add dm type dummy
ip -n "$NS_A" addr add fd77:1::1/128 dev dm nodad
ip -n "$NS_A" link set dm up
ip -n "$NS_B" route add fd77:1::1/128 dev "$VETH_B"
ip -n "$NS_B" neigh replace fd77:1::1 dev "$VETH_B" nud permanent \
	lladdr "$(ip -n "$NS_A" -j link show "$VETH_A" | jq -r '.[0].address')"
u0=$(netns "$NS_A" nstat -az Udp6NoPorts | awk '$1 == "Udp6NoPorts" { print $2 }')
z0=$(counter "$DEV_A" unknown_qp)
netns "$NS_B" python3 "$INJECT" --dst fd77:1::1 --src "$IP6_B" --qpn 0xfffff0 --count 5 ack
udp_counted() {
	test "$(netns "$NS_A" nstat -az Udp6NoPorts | awk '$1 == "Udp6NoPorts" { print $2 }')" -ge \
		$((${u0:-0} + 5))
}
wait_for "$(tmo 10)" udp_counted
u1=$(netns "$NS_A" nstat -az Udp6NoPorts | awk '$1 == "Udp6NoPorts" { print $2 }')
z1=$(counter "$DEV_A" unknown_qp)
ktap_info "h1's Udp6NoPorts $u0 -> $u1; its mrc device's unknown_qp $z0 -> $z1"
check "RoCE packets (to no QP) at another netdev's address: the IP stack's, not the mrc device's" \
	test "${u1:-0}" -ge $((${u0:-0} + 5)) -a "${z1:-x}" = "${z0:-y}"

# -- GRO on h1's plane with UDP GRO forwarding: 20 same-size ACKs to no QP
# with UDP checksums (IPv6 wants them; GRO merges nothing without), held
# back by netem on h2's side and released at once, so that one NAPI poll
# of h1's veth gets several and merges them (a veth hands its peer's NAPI
# only what a sender without TSO sends, or a socket's own packets, which
# netem's delay orphans): mrc must take each on its own (unknown_qp
# counts 20), not fail one merged ICRC (icrc_errors)
netns "$NS_A" ethtool -K "$VETH_A" gro on rx-udp-gro-forwarding on >/dev/null
netns "$NS_B" ethtool -K "$VETH_B" tso off >/dev/null
tc -n "$NS_B" qdisc add dev "$VETH_B" root netem delay 200ms
z0=$(counter "$DEV_A" unknown_qp) i0=$(counter "$DEV_A" icrc_errors)
netns "$NS_B" python3 "$INJECT" --dst "$IP6_A" --src "$IP6_B" --qpn 0xfffff1 --count 20 ack
twenty() { test "$(counter "$DEV_A" unknown_qp)" -ge $((${z0:-0} + 20)); }
wait_for "$(tmo 10)" twenty
sleep 1
z1=$(counter "$DEV_A" unknown_qp) i1=$(counter "$DEV_A" icrc_errors)
tc -n "$NS_B" qdisc del dev "$VETH_B" root
netns "$NS_A" ethtool -K "$VETH_A" rx-udp-gro-forwarding off gro off >/dev/null
netns "$NS_B" ethtool -K "$VETH_B" tso on >/dev/null
ktap_info "h1's unknown_qp $z0 -> $z1, icrc_errors $i0 -> $i1"
check "GRO-merged RoCE packets (UDP GRO forwarding on the plane): each taken on its own" \
	test "${z1:-0}" = $((${z0:-0} + 20)) -a "${i1:-x}" = "${i0:-y}"

# -- CM DREQs at h1's QP1 from h2's namespace: 3 with Q_Key 0x1234, then 3
# with the GSI's. The CM counts every DREQ of an unknown connection in
# cm_rx_duplicates/dreq (and answers it with a DREP): it must count the
# second three only, and mrc the first three
modprobe -q ib_cm
CMDREQ=/sys/class/infiniband/$DEV_A/ports/1/cm_rx_duplicates/dreq
q0=$(counter "$DEV_A" rx_bad_qkey) c0=$(cat "$CMDREQ")
netns "$NS_B" python3 "$INJECT" --dst "$IP_A" --count 3 cm-dreq --qkey 0x1234 &&
	netns "$NS_B" python3 "$INJECT" --dst "$IP_A" --count 3 cm-dreq
cm_counted() { test "$(cat "$CMDREQ")" -ge $((${c0:-0} + 3)); }
check "CM DREQs with the GSI's Q_Key reach the CM (cm_rx_duplicates/dreq moves)" \
	wait_for "$(tmo 30)" cm_counted
sleep 1
c1=$(cat "$CMDREQ") q1=$(counter "$DEV_A" rx_bad_qkey)
ktap_info "h1's cm_rx_duplicates/dreq $c0 -> $c1, rx_bad_qkey $q0 -> $q1"
check "CM DREQs with another Q_Key never reach the CM; counted in rx_bad_qkey" \
	test "${c1:-x}" = $((${c0:-0} + 3)) -a "${q1:-0}" -ge $((${q0:-0} + 3))

ktap_finish
