# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Test topologies for an RDMA transport TYPE (rxe or mrc): two RDMA devices
# on the two ends of a veth pair. Sourced by mrc_verbs.sh and tests/bench/run.
#
#   topo_ns TYPE      two network namespaces joined by a veth pair:
#
#     +---------- ns $NS_A ----------+      +---------- ns $NS_B ----------+
#     | $DEV_A (rdma link, TYPE)     |      | $DEV_B (rdma link, TYPE)     |
#     |   va 10.77.0.1 fd77::1/64 ---+------+--- vb 10.77.0.2 fd77::2/64   |
#     +------------------------------+      +------------------------------+
#
#                     rxe in 6.12 is init_net only: this carries no rxe
#                     traffic (devices are created, packets never arrive).
#
#   topo_host TYPE    both veth ends in the initial namespace, with per-oif
#                     policy routing so that traffic between the two
#                     addresses really crosses the veth (and its qdiscs)
#                     instead of short-cutting through lo; the recipe of
#                     vm-notes section 4. Works for rxe; the bench uses it
#                     for every transport so that they do identical work.
#
#   topo_fabric mrc   two hosts of the lab fabric (fabric.sh, 4 planes of
#                     SRv6 uSID switches) with their mrc devices, planes and
#                     path sets; see topo_fabric below
#
#   topo_cleanup      undoes any of them (safe to call twice; use it as EXIT trap)
#   topo_netem ARGS   "tc qdisc replace dev VETH root netem ARGS" on both ends
#   topo_netem_clear  removes it
#   on_a CMD... / on_b CMD...   run CMD on side A / B (in its namespace)
#   gid_index DEV IP  the RoCE v2 GID index of IP (v4 or v6) on DEV port 1
#
# After topo_ns/topo_host: TOPO_KIND TOPO_TYPE NS_A NS_B VETH_A VETH_B
# DEV_A DEV_B IP_A IP_B IP6_A IP6_B GID_A GID_B (RoCE v2 GID index of IP_A on
# DEV_A, IP_B on DEV_B). NS_A/NS_B are empty for topo_host. CM_A/CM_B: the
# addresses rdma_cm tools use, when not IP_A/IP_B (topo_fabric).
#
# TOPO_ID (default: the shell's pid) makes the names unique. TOPO_WAIT (20 s
# times MRC_TIMEOUT_SCALE): how long the ports may take to come up, a hang
# guard. MRC_QUICK has no effect here: a topology is the same in both modes.

# shellcheck disable=SC2034 # the variables are for the sourcing script
TOPO_ID=${TOPO_ID:-$$}
TOPO_MRCCTL=${TOPO_MRCCTL:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools/mrcctl" && pwd)/mrcctl}
TOPO_KIND='' TOPO_TYPE='' NS_A='' NS_B='' VETH_A='' VETH_B='' DEV_A='' DEV_B=''
IP_A=10.77.0.1 IP_B=10.77.0.2 IP6_A=fd77::1 IP6_B=fd77::2 CM_A='' CM_B=''
GID_A='' GID_B=''
_topo_rules=0

_topo_log() { echo "# topo: $*" >&2; }
# netns NS CMD... as lib.sh defines it, for the demo and the bench, which
# source only this file
declare -F netns >/dev/null || netns() { nsenter --net="/run/netns/$1" "${@:2}"; }

# topo_modules TYPE: the modules the tests need (no udev in the test VM)
topo_modules() {
	modprobe -q -a ib_uverbs rdma_ucm veth sch_netem 2>/dev/null || true
	case $1 in
	rxe) modprobe -q rdma_rxe ;;
	*) modprobe -q "$1" ;;
	esac
}

on_a() { _on_side "$NS_A" "$@"; }
on_b() { _on_side "$NS_B" "$@"; }
_on_side() { # NS CMD...: CMD in NS, here when NS is empty (netns in lib.sh)
	local ns=$1
	shift
	if [ -z "$ns" ]; then "$@"
	else case $1 in ip | tc | ss | rdma) netns "$ns" "$@" ;; *) ip netns exec "$ns" "$@" ;; esac
	fi
}

# _gid_of IP: the GID string sysfs shows for IP
# (IPv4-mapped for v4, all eight groups written out for v6)
_gid_of() {
	local ip=$1 a b c d head tail g out=() i n
	if [[ $ip == *.*.*.* ]]; then
		IFS=. read -r a b c d <<<"$ip"
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "$a" "$b" "$c" "$d"
		return
	fi
	if [[ $ip == *::* ]]; then
		head=${ip%%::*} tail=${ip#*::}
	else
		head=$ip tail=
	fi
	local -a h=() t=()
	[ -z "$head" ] || IFS=: read -r -a h <<<"$head"
	[ -z "$tail" ] || IFS=: read -r -a t <<<"$tail"
	n=$((8 - ${#h[@]} - ${#t[@]}))
	for g in ${h[@]+"${h[@]}"}; do out+=("$g"); done
	for ((i = 0; i < n; i++)); do out+=(0); done
	for g in ${t[@]+"${t[@]}"}; do out+=("$g"); done
	for i in "${!out[@]}"; do out[i]=$(printf '%04x' "0x${out[i]}"); done
	(IFS=:; echo "${out[*]}")
}

# gid_index DEV IP: print the index of the RoCE v2 GID of IP on DEV port 1
# (read, not cat: a fork per table entry costs seconds on the KASAN kernel)
gid_index() {
	local d=/sys/class/infiniband/$1/ports/1 want g i v t
	want=$(_gid_of "$2")
	for g in "$d"/gids/*; do
		i=${g##*/}
		read -r v 2>/dev/null <"$g" || continue
		[ "$v" = "$want" ] || continue
		read -r t 2>/dev/null <"$d/gid_attrs/types/$i" || continue
		[ "$t" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	return 1
}

# _topo_wait_ready [ADDR_A ADDR_B]: both ports ACTIVE with RoCE v2 GIDs for
# the addresses (default: the IPv4 ones)
_topo_wait_ready() {
	local ga=${1:-$IP_A} gb=${2:-$IP_B} end
	# (tests/bench sources this file without lib.sh)
	end=$(awk -v s="${MRC_TIMEOUT_SCALE:-1}" -v n="$SECONDS" -v w="${TOPO_WAIT:-}" \
		'BEGIN { print n + (w != "" ? w : int(20 * s + 0.999)) }')
	while :; do
		# shellcheck disable=SC2034
		GID_A=$(gid_index "$DEV_A" "$ga") && GID_B=$(gid_index "$DEV_B" "$gb") &&
			on_a rdma link show "$DEV_A/1" 2>/dev/null | grep -q 'state ACTIVE' &&
			on_b rdma link show "$DEV_B/1" 2>/dev/null | grep -q 'state ACTIVE' &&
			return 0
		if [ $SECONDS -ge "$end" ]; then
			_topo_log "$DEV_A/$DEV_B: port not ACTIVE or no RoCE v2 GID for $ga/$gb"
			return 1
		fi
		sleep 0.2
	done
}

# _topo_ns_side NS VETH IP IP6: lo and the veth end up, with both addresses
_topo_ns_side() {
	printf '%s\n' "link set lo up" "addr add $3/24 dev $2" "addr add $4/64 dev $2 nodad" \
		"link set $2 up" | ip -n "$1" -batch -
}

# topo_ns TYPE
topo_ns() {
	local type=$1
	# shellcheck disable=SC2034
	TOPO_KIND=ns TOPO_TYPE=$type
	topo_modules "$type" || { _topo_log "no module for $type"; return 1; }
	NS_A=mrcv-$TOPO_ID-a NS_B=mrcv-$TOPO_ID-b VETH_A=va VETH_B=vb
	DEV_A=${type}${TOPO_ID}a DEV_B=${type}${TOPO_ID}b
	# one ip process per step: an exec costs a good part of a second on
	# the KASAN kernel
	printf '%s\n' "netns add $NS_A" "netns add $NS_B" \
		"link add $VETH_A netns $NS_A type veth peer name $VETH_B netns $NS_B" |
		ip -batch - || return 1
	_topo_ns_side "$NS_A" "$VETH_A" "$IP_A" "$IP6_A" || return 1
	_topo_ns_side "$NS_B" "$VETH_B" "$IP_B" "$IP6_B" || return 1
	# the netdev name is resolved in the caller's namespace
	on_a rdma link add "$DEV_A" type "$type" netdev "$VETH_A" || return 1
	on_b rdma link add "$DEV_B" type "$type" netdev "$VETH_B" || return 1
	_topo_wait_ready
}

# topo_host TYPE
topo_host() {
	local type=$1 k mac_a mac_b
	# shellcheck disable=SC2034
	TOPO_KIND=host TOPO_TYPE=$type
	topo_modules "$type" || { _topo_log "no module for $type"; return 1; }
	NS_A='' NS_B='' VETH_A=va$TOPO_ID VETH_B=vb$TOPO_ID
	DEV_A=${type}${TOPO_ID}a DEV_B=${type}${TOPO_ID}b
	# TOPO_MTU: the veths' MTU (make bench's BENCH_MTU), else veth's 1500
	ip link add "$VETH_A" ${TOPO_MTU:+mtu "$TOPO_MTU"} type veth peer name "$VETH_B" \
		${TOPO_MTU:+mtu "$TOPO_MTU"} || return 1
	read -r mac_a <"/sys/class/net/$VETH_A/address"
	read -r mac_b <"/sys/class/net/$VETH_B/address"
	# accept packets from our own addresses arriving on the wire
	for k in all default "$VETH_A" "$VETH_B"; do
		echo 1 >"/proc/sys/net/ipv4/conf/$k/accept_local" &&
			echo 0 >"/proc/sys/net/ipv4/conf/$k/rp_filter" || return 1
	done
	# per-oif tables before the local table: a flow bound to va leaves by
	# va (rxe and mrc route with flowi4_oif = their netdev). One ip process
	# per family (an exec costs a good part of a second on the KASAN
	# kernel); an error is logged, and the ports' GIDs are checked below
	_topo_rules=1
	printf '%s\n' "addr add $IP_A/24 dev $VETH_A" "addr add $IP_B/24 dev $VETH_B" \
		"link set $VETH_A up" "link set $VETH_B up" \
		"rule add pref 100 lookup local" "rule del pref 0 lookup local" \
		"rule add pref 10 oif $VETH_A lookup 101" "rule add pref 11 oif $VETH_B lookup 102" \
		"route add 10.77.0.0/24 dev $VETH_A src $IP_A table 101" \
		"route add 10.77.0.0/24 dev $VETH_B src $IP_B table 102" \
		"neigh replace $IP_B lladdr $mac_b dev $VETH_A nud permanent" \
		"neigh replace $IP_A lladdr $mac_a dev $VETH_B nud permanent" |
		ip -4 -force -batch -
	printf '%s\n' "addr add $IP6_A/64 dev $VETH_A nodad" "addr add $IP6_B/64 dev $VETH_B nodad" \
		"rule add pref 100 lookup local" "rule del pref 0 lookup local" \
		"rule add pref 10 oif $VETH_A lookup 101" "rule add pref 11 oif $VETH_B lookup 102" \
		"route add fd77::/64 dev $VETH_A src $IP6_A table 101" \
		"route add fd77::/64 dev $VETH_B src $IP6_B table 102" \
		"neigh replace $IP6_B lladdr $mac_b dev $VETH_A nud permanent" \
		"neigh replace $IP6_A lladdr $mac_a dev $VETH_B nud permanent" |
		ip -6 -force -batch -
	rdma link add "$DEV_A" type "$type" netdev "$VETH_A" || return 1
	rdma link add "$DEV_B" type "$type" netdev "$VETH_B" || return 1
	_topo_wait_ready
}

# topo_fabric mrc
# The lab fabric (fabric.sh): $TOPO_FABRIC hosts, planes, T1 per plane
# (default "2 4 2"). Hosts h1 (side A) and h2 (side B) each get an mrc
# device on p0 with p1.. as planes 1.. and the path sets of
# `mrcctl fabric load`; RoCE GIDs are the node addresses fd00::1/fd00::2
# (CM_A/CM_B, what rdma_cm tools use). The out-of-band TCP exchange of
# perftest and the pingpongs (IPv4 only in perftest) runs on a separate
# management veth, IP_A/IP_B. VETH_A/VETH_B are the hosts' p0.
topo_fabric() {
	local type=$1 h dev ns p
	# shellcheck disable=SC2034
	TOPO_KIND=fabric TOPO_TYPE=$type
	[ "$type" = mrc ] || { _topo_log "the fabric topology is for mrc"; return 1; }
	topo_modules "$type" || { _topo_log "no module for $type"; return 1; }
	# shellcheck source-path=SCRIPTDIR
	source "$(dirname "${BASH_SOURCE[0]}")/fabric.sh"
	FABRIC_ID=$TOPO_ID
	# shellcheck disable=SC2086 # three numbers
	fabric_build ${TOPO_FABRIC:-2 4 2} || return 1
	NS_A=$(fabric_ns h1) NS_B=$(fabric_ns h2) VETH_A=p0 VETH_B=p0
	CM_A=$(fabric_node_addr 1) CM_B=$(fabric_node_addr 2)
	DEV_A=${type}${TOPO_ID}a DEV_B=${type}${TOPO_ID}b
	ip link add name mg netns "$NS_A" type veth peer name mg netns "$NS_B" || return 1
	ip -n "$NS_A" addr add "$IP_A/24" dev mg
	ip -n "$NS_B" addr add "$IP_B/24" dev mg
	ip -n "$NS_A" link set mg up
	ip -n "$NS_B" link set mg up
	fabric_write_desc "$(fabric_dir)/fabric.desc" || return 1
	for h in 1 2; do
		if [ $h = 1 ]; then dev=$DEV_A ns=$NS_A; else dev=$DEV_B ns=$NS_B; fi
		netns "$ns" rdma link add "$dev" type "$type" netdev p0 || return 1
		for ((p = 1; p < FABRIC_PLANES; p++)); do
			"$TOPO_MRCCTL" -n "$ns" plane add dev "$dev" netdev "p$p" id "$p" ||
				return 1
		done
		"$TOPO_MRCCTL" -n "$ns" fabric load "$(fabric_dir)/fabric.desc" \
			dev "$dev" host "h$h" >/dev/null || return 1
	done
	_topo_wait_ready "$CM_A" "$CM_B"
}

# topo_up TYPE KIND: topo_ns, topo_host or topo_fabric
topo_up() {
	case $2 in
	ns) topo_ns "$1" ;;
	host) topo_host "$1" ;;
	fabric) topo_fabric "$1" ;;
	*) _topo_log "unknown topology '$2' (ns, host or fabric)"; return 1 ;;
	esac
}

# topo_netem ARGS...: the same netem qdisc on both veth ends
topo_netem() {
	on_a tc qdisc replace dev "$VETH_A" root netem "$@" &&
		on_b tc qdisc replace dev "$VETH_B" root netem "$@"
}
topo_netem_clear() {
	on_a tc qdisc del dev "$VETH_A" root 2>/dev/null
	on_b tc qdisc del dev "$VETH_B" root 2>/dev/null
	return 0
}

topo_cleanup() {
	local fam
	[ -n "$TOPO_KIND" ] || return 0
	if [ -n "$DEV_A" ]; then rdma link del "$DEV_A" 2>/dev/null || on_a rdma link del "$DEV_A" 2>/dev/null; fi
	if [ -n "$DEV_B" ]; then rdma link del "$DEV_B" 2>/dev/null || on_b rdma link del "$DEV_B" 2>/dev/null; fi
	if [ "$TOPO_KIND" = host ]; then
		ip link del "$VETH_A" 2>/dev/null
		if [ "$_topo_rules" = 1 ]; then
			# the local table back at pref 0 before it leaves pref 100
			# (an add of a rule that is there fails harmlessly)
			for fam in -4 -6; do
				printf '%s\n' "rule del pref 10" "rule del pref 11" \
					"route flush table 101" "route flush table 102" \
					"rule add pref 0 lookup local" "rule del pref 100 lookup local" |
					ip "$fam" -force -batch - 2>/dev/null
			done
			_topo_rules=0
		fi
	elif [ "$TOPO_KIND" = fabric ]; then
		rm -rf "$(fabric_dir)"
		fabric_cleanup
	else
		[ -z "$NS_A" ] || ip netns del "$NS_A" 2>/dev/null
		[ -z "$NS_B" ] || ip netns del "$NS_B" 2>/dev/null
	fi
	TOPO_KIND='' NS_A='' NS_B=''
	return 0
}

# fabric_dir: scratch files of the fabric topology (made on first use)
fabric_dir() {
	local d=/tmp/mrc-fabric-$TOPO_ID
	mkdir -p "$d" && echo "$d"
}
