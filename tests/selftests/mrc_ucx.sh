#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UCX and Open MPI over mrc, with Debian's packages (ucx-utils, openmpi-bin)
# as a user runs them:
#  - two namespaces over a veth pair (topo_ns: IPv4 RoCE v2 GIDs, the GIDs
#    UCX picks first): ucx_info -d lists mrc's rc_verbs and ud_verbs;
#    mrc_ud_wc.py checks a UD receive completion as UCX reads it (flags,
#    SL, GRH area) and answers through ibv_create_ah_from_wc, IPv4 and IPv6;
#    ucx_perftest tag_bw over UD alone (UCX_TLS=ud_verbs,self: every
#    message in UD packets, which UCX drops unless the receive completion
#    tells it the packet came over IPv4), then tag_bw and ucp_put_bw over
#    rc_verbs with ud_verbs for the wire-up; the bytes crossed mrc
#  - the lab fabric (topo_fabric: 4 planes, SRv6 paths; GIDs the node
#    addresses, UCX_IB_GID_INDEX): ucx_perftest tag_bw and ucp_put_bw over
#    rc_verbs, every plane carried packets; then mrc_mpi (tests/mpi), an
#    MPI program launched with mpirun across the two hosts' namespaces
#    (pml ucx; mpirun's remote shell is mpi_netns_agent.sh, which runs
#    orted with ip netns exec): MPI_Allreduce and a bandwidth loop whose
#    results every rank checks, the ranks in the two namespaces, the bytes
#    on both mrc devices
# Completion and checked results are judged, never a rate.
# MRC_QUICK=1: fewer iterations. MRC_TIMEOUT_SCALE scales the hang guards.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root

MPI=$(cd "$DIR/../mpi" && pwd)/mrc_mpi
AGENT=$DIR/mpi_netns_agent.sh
test_logs mrc_ucx
TMO=$(tmo 240)
ITERS=$(by_mode 400 60)
WARM=$(by_mode 40 10)
ktap_header 18

missing=''
for t in ucx_info ucx_perftest mpirun jq; do
	command -v "$t" >/dev/null || missing+=" $t"
done
[ -x "$MPI" ] || missing+=" $MPI (make -C tests/mpi)"
if [ -n "$missing" ]; then
	# not a skip: tests/vm/setup installs the packages, make builds mrc_mpi
	ktap_fail "tools: ucx-utils, openmpi-bin, jq, mrc_mpi"
	ktap_info "missing:$missing"
	ktap_finish
fi
ktap_pass "tools: ucx-utils, openmpi-bin, jq, mrc_mpi"

# perf TLS SIZE ITERS TEST [ENV...]: ucx_perftest TEST, server on B,
# client on A, UCX on DEV_A/DEV_B only with the transports TLS; both exit
# 0 and the client reports its ITERS iterations
perf() {
	local tls=$1 size=$2 n=$3 t=$4
	shift 4
	pair env UCX_TLS="$tls" UCX_NET_DEVICES="$DEV_B:1" "$@" ${GID_ENV:+UCX_IB_GID_INDEX=$GID_B} \
		ucx_perftest -- \
		env UCX_TLS="$tls" UCX_NET_DEVICES="$DEV_A:1" "$@" ${GID_ENV:+UCX_IB_GID_INDEX=$GID_A} \
		ucx_perftest "$IP_B" -t "$t" -s "$size" -n "$n" -w "$WARM" &&
		grep -Eq "Final: +$n " "$LOGS/${TAG}cli"
}

# pcheck DESC CMD...: check, each on a TCP port of its own (check runs CMD
# in a subshell, where pair's move to the next port is lost; the last
# server's port may still be in TIME_WAIT)
pcheck() {
	PORT=$((PORT + 1))
	check "$@"
}

# grew BEFORE AFTER MIN: AFTER - BEFORE >= MIN
grew() { [ -n "$1" ] && [ -n "$2" ] && [ $(($2 - $1)) -ge "$3" ]; }

# -- two namespaces, a veth pair, IPv4 GIDs
if ! topo_ns mrc >"$LOGS/topo" 2>&1; then
	ktap_fail "two namespaces, mrc devices on a veth pair"
	sed 's/^/#   /' "$LOGS/topo" | tail -15
	ktap_finish
fi
ktap_pass "two namespaces, mrc devices on a veth pair"
check "ucx_info -d: rc_verbs and ud_verbs on $DEV_A:1" \
	bash -c "ip netns exec '$NS_A' ucx_info -d >'$LOGS/info' 2>&1 &&
		awk '/Transport:/ { t = \$3 } /Device:/ && \$3 == \"$DEV_A:1\" { print t }' '$LOGS/info' |
		sort -u | tr '\n' ' ' | grep -q 'rc_verbs ud_verbs'"

# what UCX's UD transport reads of a receive completion, and an answer
# through ibv_create_ah_from_wc, over IPv4 and IPv6 GIDs
check "UD completions (IPv4): flags GRH alone, SL 2, the IPv4 header at 20; an AH from the WC answers" \
	python3 "$DIR/mrc_ud_wc.py" "$DEV_A" "$GID_A" "$DEV_B" "$GID_B"
check "UD completions (IPv6): flags GRH alone, SL 1, the IPv6 header; an AH from the WC answers" \
	python3 "$DIR/mrc_ud_wc.py" "$DEV_A" "$(gid_index "$DEV_A" "$IP6_A")" \
	"$DEV_B" "$(gid_index "$DEV_B" "$IP6_B")"
rx0=$(port_counter "$NS_B" "$DEV_B" rx_bytes)
TAG=ud. pcheck "ucx_perftest tag_bw, UD alone (ud_verbs, IPv4 GIDs): 16 KiB x $ITERS, both ends done" \
	perf ud_verbs,self 16384 "$ITERS" tag_bw
rx1=$(port_counter "$NS_B" "$DEV_B" rx_bytes)
check "UD: the messages crossed mrc ($DEV_B took $((16384 * ITERS)) bytes or more)" \
	grew "$rx0" "$rx1" $((16384 * ITERS))
ktap_info "$DEV_B rx_bytes $rx0 -> $rx1; bad Q_Keys $(port_counter "$NS_B" "$DEV_B" rx_bad_qkey)"
TAG=tb. pcheck "ucx_perftest tag_bw, rc_verbs (ud_verbs for the wire-up): 64 KiB x $ITERS" \
	perf rc_verbs,ud_verbs,self 65536 "$ITERS" tag_bw
TAG=pb. pcheck "ucx_perftest ucp_put_bw, rc_verbs (ud_verbs for the wire-up): 64 KiB x $ITERS" \
	perf rc_verbs,ud_verbs,self 65536 "$ITERS" ucp_put_bw
rx2=$(port_counter "$NS_B" "$DEV_B" rx_bytes)
check "RC: the messages crossed mrc ($DEV_B took $((2 * 65536 * ITERS)) bytes or more)" \
	grew "$rx1" "$rx2" $((2 * 65536 * ITERS))
topo_cleanup

# -- the lab fabric: node addresses as GIDs, every plane
fabric_start
GID_ENV=1
# plane_tx: side A's planes' tx_packets, "id:packets ..."
plane_tx() {
	A -j plane show dev "$DEV_A" | jq -r '[.[] | "\(.plane):\(.tx_packets)"] | join(" ")'
}
# all_moved BEFORE AFTER: every plane's count in AFTER is above BEFORE's
all_moved() {
	local p a b
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		a=$(tr ' ' '\n' <<<"$1" | sed -n "s/^$p://p")
		b=$(tr ' ' '\n' <<<"$2" | sed -n "s/^$p://p")
		[ -n "$b" ] && [ "$b" -gt "${a:-0}" ] || { echo "plane $p: $a -> $b"; return 1; }
	done
}
tx0=$(plane_tx)
TAG=ftb. pcheck "fabric: ucx_perftest tag_bw, rc_verbs, h1 -> h2: 64 KiB x $ITERS" \
	perf rc_verbs,ud_verbs,self 65536 "$ITERS" tag_bw
TAG=fpb. pcheck "fabric: ucx_perftest ucp_put_bw, rc_verbs, h1 -> h2: 64 KiB x $ITERS" \
	perf rc_verbs,ud_verbs,self 65536 "$ITERS" ucp_put_bw
tx1=$(plane_tx)
ktap_info "h1's planes' tx_packets: $tx0 -> $tx1"
check "fabric: UCX's traffic sprayed over every plane of h1" all_moved "$tx0" "$tx1"

# mpi ARGS...: mrc_mpi, rank 0 in h1 (mpirun's namespace), rank 1 in h2
# through the agent; UCX only (pml ucx, no BTL but self), on each side's
# mrc device with its node address. Open MPI 4.1 takes UCX only over
# devices named mlx* unless pml_ucx_devices says any.
mpi() {
	local tls=rc_verbs,ud_verbs,self
	MRC_MPI_NETNS="$IP_A=$NS_A $IP_B=$NS_B" timeout -k 5 "$TMO" \
		ip netns exec "$NS_A" mpirun --allow-run-as-root --oversubscribe \
		--mca plm_rsh_agent "$AGENT" --mca oob_tcp_if_include mg \
		--mca pml ucx --mca pml_ucx_devices any --mca btl self \
		-np 1 --host "$IP_A" -x UCX_TLS=$tls -x UCX_NET_DEVICES="$DEV_A:1" \
		-x UCX_IB_GID_INDEX="$GID_A" "$MPI" "$@" : \
		-np 1 --host "$IP_B" -x UCX_TLS=$tls -x UCX_NET_DEVICES="$DEV_B:1" \
		-x UCX_IB_GID_INDEX="$GID_B" "$MPI" "$@" >"$LOGS/mpi" 2>&1 ||
		{ tail -20 "$LOGS/mpi"; return 1; }
}
MPI_ARGS=(-n "$(by_mode 20 4)" -s "$(by_mode $((1 << 20)) $((256 << 10)))"
	-e "$(by_mode $((1 << 18)) $((1 << 12)))")
a0=$(port_counter "$NS_A" "$DEV_A" tx_bytes) b0=$(port_counter "$NS_B" "$DEV_B" tx_bytes)
check "mpirun: mrc_mpi across h1 and h2 (pml ucx over mrc): allreduce and bandwidth, all checked" \
	mpi "${MPI_ARGS[@]}"
a1=$(port_counter "$NS_A" "$DEV_A" tx_bytes) b1=$(port_counter "$NS_B" "$DEV_B" tx_bytes)
grep -E '^(mrc_mpi|rank 0: bw)' "$LOGS/mpi" | tail -3 | sed 's/^/# /'
check "mrc_mpi: every check passed on both ranks, none wrong" \
	bash -c "grep -Eq '^mrc_mpi: done, [1-9][0-9]* checks, 0 errors$' '$LOGS/mpi' &&
		! grep -q WRONG '$LOGS/mpi' && grep -q '^rank 1: bw .*: verified$' '$LOGS/mpi'"
check "mrc_mpi: rank 0 ran in h1's namespace, rank 1 in h2's" \
	bash -c "grep -q \"^rank 0 of 2: .*, net:\\[$(stat -L -c %i "/run/netns/$NS_A")\\]\" '$LOGS/mpi' &&
		grep -q \"^rank 1 of 2: .*, net:\\[$(stat -L -c %i "/run/netns/$NS_B")\\]\" '$LOGS/mpi'"
ktap_info "tx_bytes: $DEV_A $a0 -> $a1, $DEV_B $b0 -> $b1"
check "mrc_mpi: its bytes went over both mrc devices (the bandwidth loop's and the allreduces')" \
	bash -c "$(declare -f grew); grew '$a0' '$a1' $((1 << 20)) && grew '$b0' '$b1' $((1 << 14))"
ktap_finish
