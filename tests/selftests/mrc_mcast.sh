#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UD multicast over mrc with stock tools, across two namespaces (topo_ns):
#  - the device's multicast limits as ibv_devinfo -v reports them;
#  - rdma_cm: mckey (rdmacm-utils), a receiver on B joined to an IPv4
#    group, a sender on A: every message arrives (a veth loses nothing), the
#    group's address was on B's netdev while joined (the IGMP join rdma_cm
#    makes) and is gone after; and two receivers on B in one group both get
#    every message. (The kernel's rdma_cm refuses RoCE v2 joins to IPv6
#    groups, ENOTSUPP, for every device.)
#  - verbs: ib_send_bw -c UD -g (perftest), whose server attaches its QP
#    with ibv_attach_mcast to a group of our choice (-M), IPv4 and IPv6,
#    and counts what arrives;
#  - the packets went to the group: B's device counted them received, A's
#    veth sent frames to the group's MAC (tcpdump);
#  - a sender to a group nobody on B joined: nothing is taken by mrc there,
#    B's rx_packets does not move.
# Completion and message counts are judged, never a rate. MRC_QUICK=1:
# fewer messages. MRC_TIMEOUT_SCALE scales the hang guards.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root

test_logs mrc_mcast
TMO=$(tmo 120)
N=$(by_mode 50 10)
GRP4=239.77.0.1 GRP6=ff0e::77:1 GRP_V=239.77.0.2 GRP_NONE=239.77.0.9
ktap_header 10

require_tools mckey ib_send_bw ibv_devinfo tcpdump rdma jq
if ! topo_ns mrc; then
	ktap_fail "topology"
	ktap_finish
fi
ktap_pass "topology: two namespaces, $DEV_A and $DEV_B"

limits() {
	local out
	out=$(on_a ibv_devinfo -v -d "$DEV_A") || return 1
	grep -Eq 'max_mcast_grp:[[:space:]]+256$' <<<"$out" &&
		grep -Eq 'max_mcast_qp_attach:[[:space:]]+56$' <<<"$out" &&
		grep -Eq 'max_total_mcast_qp_attach:[[:space:]]+14336$' <<<"$out" ||
		{ grep mcast <<<"$out"; return 1; }
}
check "ibv_devinfo: max_mcast_grp 256, 56 QPs a group" limits

# in_maddr NS DEV GROUP: GROUP is on DEV's multicast list (ip maddr)
in_maddr() { netns "$1" ip maddr show dev "$2" | grep -qw "$3"; }

# mckey_run NAME GROUP BIND_A BIND_B RECEIVERS: RECEIVERS mckey receivers on
# B joined to GROUP, then a sender on A; every receiver gets all N messages
mckey_run() {
	local name=$1 grp=$2 bind_a=$3 bind_b=$4 nrx=$5 i pids=() rc=0
	for ((i = 0; i < nrx; i++)); do
		# (line buffered: the output is read while it runs)
		netns "$NS_B" timeout -k 5 "$TMO" stdbuf -oL mckey -m "$grp" -b "$bind_b" -C "$N" \
			>"$LOGS/$name.rx$i" 2>&1 &
		pids+=($!)
	done
	# the receivers have attached and posted their receives once they say
	# they joined (librdmacm attaches before it reports the join)
	for ((i = 0; i < nrx; i++)); do
		wait_for "$TMO" grep -q "joined" "$LOGS/$name.rx$i" ||
			{ echo "receiver $i never joined"; cat "$LOGS/$name.rx$i"; rc=1; }
	done
	in_maddr "$NS_B" "$VETH_B" "$grp" ||
		{ echo "$grp not on $VETH_B while joined"; rc=1; }
	netns "$NS_A" timeout -k 5 "$TMO" stdbuf -oL mckey -m "$grp" -b "$bind_a" -s -C "$N" \
		>"$LOGS/$name.tx" 2>&1 || { echo "sender failed"; cat "$LOGS/$name.tx"; rc=1; }
	for ((i = 0; i < nrx; i++)); do
		wait "${pids[$i]}" || { echo "receiver $i: exit $?"; rc=1; }
		grep -q "data transfers complete" "$LOGS/$name.rx$i" ||
			{ echo "receiver $i:"; cat "$LOGS/$name.rx$i"; rc=1; }
	done
	! in_maddr "$NS_B" "$VETH_B" "$grp" ||
		{ echo "$grp still on $VETH_B after the receivers left"; rc=1; }
	return $rc
}

rx0=$(port_counter "$NS_B" "$DEV_B" rx_packets)
check "mckey IPv4 $GRP4: $N messages to one receiver" mckey_run v4 "$GRP4" "$IP_A" "$IP_B" 1
rx1=$(port_counter "$NS_B" "$DEV_B" rx_packets)
check "$DEV_B counted them received (rx_packets $rx0 -> $rx1)" \
	test "$((rx1 - rx0))" -ge "$N"
check "mckey IPv4: two receivers in one group get $N each" mckey_run two "$GRP4" "$IP_A" "$IP_B" 2

# perftest's UD bandwidth test to a group: the server attaches its QP with
# ibv_attach_mcast (no rdma_cm), the client's AH is the group's. -F as
# everywhere: without it perftest exits before its report when its CPU
# clock estimate is noisy (r^2 < 0.9), as it can be under TCG
# send_bw_mcast NAME MGID GID_INDEX_A GID_INDEX_B (the MGID as perftest
# reads it: 16 bytes, colon separated)
send_bw_mcast() {
	local name=$1 mgid=$2 ga=$3 gb=$4 port=$((21000 + $$ % 20000 + ${#2}))
	local slog=$LOGS/sendbw.$name.server clog=$LOGS/sendbw.$name.client
	# ip netns exec itself: $! must be the process in the namespace, or
	# wait_listen cannot see the server listen and waits its whole guard
	ip netns exec "$NS_B" timeout -k 5 "$TMO" ib_send_bw -d "$DEV_B" -x "$gb" -c UD -g -F \
		-M "$mgid" -n "$N" -s 1024 -p "$port" >"$slog" 2>&1 &
	local spid=$! rc=0
	wait_listen "$NS_B" tcp "$port" "$spid" || echo "server not listening" >>"$slog"
	netns "$NS_A" timeout -k 5 "$TMO" ib_send_bw -d "$DEV_A" -x "$ga" -c UD -g -F \
		-M "$mgid" -n "$N" -s 1024 -p "$port" "$IP_B" >"$clog" 2>&1 || rc=1
	wait "$spid" || rc=1
	[ $rc = 0 ] || tail -n 20 "$slog" "$clog"
	return $rc
}
check "ib_send_bw -c UD -g: $N messages to IPv4 group $GRP_V (ibv_attach_mcast)" \
	send_bw_mcast v4 0:0:0:0:0:0:0:0:0:0:255:255:239:77:0:2 "$GID_A" "$GID_B"
G6_A=$(gid_index "$DEV_A" "$IP6_A") G6_B=$(gid_index "$DEV_B" "$IP6_B")
check "ib_send_bw -c UD -g: $N messages to IPv6 group $GRP6 (ibv_attach_mcast)" \
	send_bw_mcast v6 255:14:0:0:0:0:0:0:0:0:0:0:0:119:0:1 "$G6_A" "$G6_B"

# frames to the group's MAC left A (01:00:5e + the group's low 23 bits)
tcpdump_group() {
	local cap=$LOGS/grp.pcap tp n
	# (nsenter itself: $! is then tcpdump, not a subshell around it)
	nsenter --net="/run/netns/$NS_A" tcpdump -i "$VETH_A" -U -n -w "$cap" \
		ether dst 01:00:5e:4d:00:01 >/dev/null 2>"$LOGS/grp.tcpdump" &
	tp=$!
	wait_for "$(tmo 30)" grep -q "listening on" "$LOGS/grp.tcpdump"
	mckey_run cap "$GRP4" "$IP_A" "$IP_B" 1 || return 1
	sleep 1
	kill "$tp" 2>/dev/null
	wait "$tp" 2>/dev/null
	n=$(tcpdump -r "$cap" -n "udp dst port 4791" 2>/dev/null | wc -l)
	[ "${n:-0}" -ge "$N" ] || { echo "$n frames to $GRP4's MAC"; return 1; }
}
check "A sent RoCE frames to $GRP4's MAC" tcpdump_group

# a group nobody on B joined: A's sender still completes (UD), and B's
# device takes none of it
no_member() {
	local a b
	a=$(port_counter "$NS_B" "$DEV_B" rx_packets)
	netns "$NS_A" timeout -k 5 "$TMO" mckey -m "$GRP_NONE" -b "$IP_A" -s -C "$N" \
		>"$LOGS/none.tx" 2>&1 || { cat "$LOGS/none.tx"; return 1; }
	b=$(port_counter "$NS_B" "$DEV_B" rx_packets)
	[ "$a" = "$b" ] || { echo "rx_packets moved $a -> $b"; return 1; }
}
check "a group without members on B: B takes nothing" no_member

# a forged UD packet to QPN 0xFFFFFF at B's own address (a group of none):
# dropped and counted
counted_from() { [ "$(port_counter "$NS_B" "$DEV_B" unknown_qp)" -ge $(($1 + 3)) ]; }
forged() {
	local a b
	a=$(port_counter "$NS_B" "$DEV_B" unknown_qp)
	netns "$NS_A" python3 "$DIR/mrc_inject.py" --dst "$IP_B" --src "$IP_A" \
		--qpn 0xffffff --psn 0 --count 3 cm-dreq --qkey 0x01234567 || return 1
	wait_for "$(tmo 20)" counted_from "$a" ||
		{ b=$(port_counter "$NS_B" "$DEV_B" unknown_qp); echo "unknown_qp $a -> $b"; return 1; }
}
check "a forged UD packet to QPN 0xFFFFFF for no group: counted (unknown_qp)" forged

ktap_finish
