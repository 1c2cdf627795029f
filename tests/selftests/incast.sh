# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The incast lab: N senders into one receiver through one bottleneck link.
# Sourced by mrc_incast.sh (and the bench); needs lib.sh and topo.sh.
#
#     ns h1  10.79.1.1 --+
#     ns h2  10.79.2.1 --+-- ns sw (forwards) --[bottleneck]-- ns r 10.79.0.1
#     ...                |   10.79.K.254 towards hK           (sw's "tr")
#     ns hN  10.79.N.1 --+   10.79.0.254 towards r
#
# Every host has an RDMA device of TYPE on its veth. The bottleneck is the
# egress of sw towards r: a token bucket at RATE (kbit/s; keep it below
# what one sender pushes, so that the link and not the CPU is the
# bottleneck, also under TCG) with a deep byte FIFO behind it, and an AQM:
#   fifo          drops at the tail only
#   fq_codel      marks ECT packets CE above 2 ms of sojourn (ce_threshold),
#                 drops only far above it (target 500 ms); one queue per
#                 flow (both test kernels have it; plain codel is not in
#                 the KASAN kernel's config)
#   trim          a trimming switch's port instead (tests/trimq, mrc_trim):
#                 a 32 KiB FIFO drained at RATE, CE marks on a ramp from 8
#                 to 24 KiB of it; what overflows is cut to 96 bytes (its
#                 headers), DSCP 46, length fields left stale, and overtakes
#                 the FIFO in a 64 KiB priority queue
# The other direction (ACKs, the senders' replies) is not limited.
#
#   incast_up TYPE N RATE AQM   builds it; fails if a port does not come up
#   incast_aqm AQM RATE         replaces the bottleneck's qdiscs
#   incast_cleanup              removes it (safe to call twice; an EXIT trap)
#   incast_qdisc_stats          the bottleneck qdiscs' stats (tc -s -j)
#   incast_trimq ARGS...        tests/trimq/trimq.py in the switch's namespace
#   on_h K CMD... / on_r CMD... CMD in sender K's / the receiver's namespace
#
# After incast_up: INC_N, INC_NS_R, INC_NS_SW, INC_DEV_R, INC_IP_R, INC_GID_R,
# and per sender K (1..N): INC_NS[K], INC_DEV[K], INC_IP[K], INC_GID[K].
# TOPO_ID (default: the shell's pid) makes the names unique.

# shellcheck disable=SC2034 # the variables are for the sourcing script
INC_N=0 INC_NS_R='' INC_NS_SW='' INC_DEV_R='' INC_IP_R=10.79.0.1 INC_GID_R=''
INC_NS=() INC_DEV=() INC_IP=() INC_GID=()
INC_BOTTLENECK='tr'

on_h() { local k=$1; shift; ip netns exec "${INC_NS[k]}" "$@"; }
on_r() { ip netns exec "$INC_NS_R" "$@"; }

# _incast_ready DEV NS IP: DEV's port ACTIVE with a RoCE v2 GID for IP; the
# GID index printed
_incast_ready() {
	local end g
	end=$((SECONDS + ${TOPO_WAIT:-$((20 * ${SCALE%.*}))}))
	while :; do
		if g=$(gid_index "$1" "$3") &&
			netns "$2" rdma link show "$1/1" 2>/dev/null | grep -q 'state ACTIVE'; then
			echo "$g"
			return 0
		fi
		if [ $SECONDS -ge "$end" ]; then
			echo "# incast: $1: port not ACTIVE or no RoCE v2 GID for $3" >&2
			return 1
		fi
		sleep 0.2
	done
}

_INC_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
incast_trimq() {
	netns "$INC_NS_SW" python3 "$_INC_REPO/tests/trimq/trimq.py" "$@"
}

# _incast_trimq_load: the trimming qdisc's module, as built or installed
_incast_trimq_load() {
	local ko
	ko=$_INC_REPO/build/$(uname -r)/tests/trimq/sch_mrc_trim.ko
	grep -q '^sch_mrc_trim ' /proc/modules && return 0
	if [ -f "$ko" ]; then insmod "$ko"; else modprobe sch_mrc_trim; fi
}

# incast_aqm AQM RATE: the bottleneck's qdiscs on sw's tr
incast_aqm() {
	local aqm=$1 rate=$2
	if [ "$aqm" = trim ]; then
		_incast_trimq_load || return 1
		# another kind under the same handle is a change, refused
		netns "$INC_NS_SW" tc qdisc del dev tr root 2>/dev/null
		incast_trimq qdisc add dev tr handle 1: rate "${rate}kbit" \
			limit 32768 prio_limit 65536 trim_len 96 trim_dscp 46 \
			kmin 8192 kmax 24576 fix_len 0
		return
	fi
	# a deep FIFO: 4 MiB, seconds at these rates, so that without congestion
	# control the queue, not the tail drop, is what the senders meet first
	netns "$INC_NS_SW" tc qdisc replace dev tr root handle 1: \
		tbf rate "${rate}kbit" burst 16kb limit 4mb || return 1
	case $aqm in
	fifo) ;;
	fq_codel)
		netns "$INC_NS_SW" tc qdisc replace dev tr parent 1:1 handle 10: \
			fq_codel limit 10000 target 500ms interval 1s ce_threshold 2ms ecn ||
			return 1
		;;
	*) echo "# incast: unknown AQM $aqm" >&2; return 1 ;;
	esac
}

# incast_up TYPE N RATE AQM
incast_up() {
	local type=$1 n=$2 rate=$3 aqm=$4 k cmds=() sw
	topo_modules "$type" || return 1
	modprobe -q -a sch_tbf sch_fq_codel 2>/dev/null
	INC_N=$n INC_NS_R=mrci-$TOPO_ID-r INC_NS_SW=mrci-$TOPO_ID-sw sw=mrci-$TOPO_ID-sw
	INC_DEV_R=${type}${TOPO_ID}r
	cmds+=("netns add $INC_NS_R" "netns add $sw"
		"link add tr netns $sw type veth peer name vr netns $INC_NS_R")
	for ((k = 1; k <= n; k++)); do
		INC_NS[k]=mrci-$TOPO_ID-h$k INC_DEV[k]=${type}${TOPO_ID}h$k INC_IP[k]=10.79.$k.1
		cmds+=("netns add ${INC_NS[k]}"
			"link add t$k netns $sw type veth peer name vh netns ${INC_NS[k]}")
	done
	printf '%s\n' "${cmds[@]}" | ip -batch - || return 1
	# the switch: forwards, answers for 10.79.K.254
	cmds=("link set lo up" "link set tr up" "addr add 10.79.0.254/24 dev tr")
	for ((k = 1; k <= n; k++)); do
		cmds+=("link set t$k up" "addr add 10.79.$k.254/24 dev t$k")
	done
	printf '%s\n' "${cmds[@]}" | ip -n "$sw" -batch - || return 1
	netns "$sw" sysctl -qw net.ipv4.ip_forward=1 || return 1
	printf '%s\n' "link set lo up" "link set vr up" "addr add $INC_IP_R/24 dev vr" \
		"route add 10.79.0.0/16 via 10.79.0.254" | ip -n "$INC_NS_R" -batch - || return 1
	for ((k = 1; k <= n; k++)); do
		printf '%s\n' "link set lo up" "link set vh up" "addr add ${INC_IP[k]}/24 dev vh" \
			"route add 10.79.0.0/16 via 10.79.$k.254" |
			ip -n "${INC_NS[k]}" -batch - || return 1
	done
	incast_aqm "$aqm" "$rate" || return 1
	netns "$INC_NS_R" rdma link add "$INC_DEV_R" type "$type" netdev vr || return 1
	for ((k = 1; k <= n; k++)); do
		netns "${INC_NS[k]}" rdma link add "${INC_DEV[k]}" type "$type" netdev vh ||
			return 1
	done
	INC_GID_R=$(_incast_ready "$INC_DEV_R" "$INC_NS_R" "$INC_IP_R") || return 1
	for ((k = 1; k <= n; k++)); do
		INC_GID[k]=$(_incast_ready "${INC_DEV[k]}" "${INC_NS[k]}" "${INC_IP[k]}") ||
			return 1
	done
}

# incast_qdisc_stats: the bottleneck's qdiscs, tc -s -j
incast_qdisc_stats() {
	netns "$INC_NS_SW" tc -s -j qdisc show dev "$INC_BOTTLENECK"
}

incast_cleanup() {
	local k ns
	for ((k = 1; k <= INC_N; k++)); do
		ns=${INC_NS[k]}
		netns "$ns" rdma link del "${INC_DEV[k]}" 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	if [ -n "$INC_NS_R" ]; then
		netns "$INC_NS_R" rdma link del "$INC_DEV_R" 2>/dev/null
		ip netns del "$INC_NS_R" 2>/dev/null
	fi
	[ -z "$INC_NS_SW" ] || ip netns del "$INC_NS_SW" 2>/dev/null
	rmmod sch_mrc_trim 2>/dev/null
	INC_N=0 INC_NS_R='' INC_NS_SW=''
	return 0
}
