#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/pkg/walk.sh: README's "Install on a cluster node" after the install,
# in the VM, with the packaged tools only (tests/pkg/check.sh runs it
# through guest.sh, the packages installed on the host whose /usr and /lib
# the VM sees). Two nodes, each a network namespace with two planes over
# veth pairs:
#
#   node1: mrc0 on p0 (10.70.0.1, fd70::1) -- p0 (10.70.0.2, fd70::2) mrc1 :node2
#              plane 1 p1 (fd71::1)        -- p1 (fd71::2) plane 1
#
# node1's /etc/mrc/mrc.conf (a device, its second plane, a path over each
# plane to node2) is applied by the packaged mrc.service's ExecStart, run
# word for word in node1's namespace (as tests/selftests/mrc_boot.sh does;
# the VM has no systemd); node2 applies its own file with the packaged
# mrcctl. Then what the README verifies: rdma link show, ibv_devinfo -d
# mrc0, mrcctl dev/plane/path show, ib_write_bw from node1 to node2 (both
# planes' tx_packets move), tcpdump capturing 400 of its packets on node1,
# and tshark without -X decoding them with the installed mrc.lua: WRITEs on
# both planes, every ICRC good.
# Each command's output is kept in $MRC_TEST_LOGS/walk.d (README's
# excerpts come from there).
# shellcheck source-path=SCRIPTDIR/../selftests
# shellcheck disable=SC2317 # functions called through check
REPO=$(cd "$(dirname "$0")/../.." && pwd)
source "$REPO/tests/selftests/lib.sh"
source "$REPO/tests/selftests/topo.sh"
require_root
require_tools tshark tcpdump jq ib_write_bw ibv_devinfo

UNIT=${MRC_BOOT_UNIT:-/lib/systemd/system/mrc.service}
exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
read -ra unit_cmd <<<"$exec_start"
MRCCTL=${unit_cmd[0]:-}
[ -x "$MRCCTL" ] || { echo "# $UNIT: no ExecStart on an installed mrcctl"; exit $KSFT_FAIL; }
TMO=$(tmo 120)
W=$(tmo 20)
LOGS=$(mktemp -d /tmp/mrc_walk.XXXXXX)
CAP=''
cleanup() {
	[ -z "$CAP" ] || kill "$CAP" 2>/dev/null
	cleanup_ns
	rm -rf /etc/mrc
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/walk.d"
	rm -rf "$LOGS"
}
trap cleanup EXIT

ktap_header 12
topo_modules mrc
setup_ns node1 node2
# shellcheck disable=SC2154 # node1, node2: set by setup_ns
ip link add p0 netns "$node1" type veth peer name p0 netns "$node2"
ip link add p1 netns "$node1" type veth peer name p1 netns "$node2"
for n in 1 2; do
	ns=node$n
	printf '%s\n' "addr add 10.70.0.$n/24 dev p0" "addr add fd70::$n/64 dev p0 nodad" \
		"addr add fd71::$n/64 dev p1 nodad" "link set p0 up" "link set p1 up" |
		ip -n "${!ns}" -batch -
done

mkdir -p /etc/mrc
cat >/etc/mrc/mrc.conf <<'EOF'
# node1: mrc0 on p0 (plane 0) and p1 (plane 1), a path to node2 on each
dev add mrc0 netdev p0
plane add dev mrc0 netdev p1
path add dev mrc0 peer fd70::2 plane 0 remote fd70::2
path add dev mrc0 peer fd70::2 plane 1 remote fd71::2
EOF
cat >"$LOGS/node2.conf" <<'EOF'
# node2: mrc1 on p0 (plane 0) and p1 (plane 1), a path to node1 on each
dev add mrc1 netdev p0
plane add dev mrc1 netdev p1
path add dev mrc1 peer fd70::1 plane 0 remote fd70::1
path add dev mrc1 peer fd70::1 plane 1 remote fd71::1
EOF
cp /etc/mrc/mrc.conf "$LOGS/node1.conf"

# run OUT CMD...: CMD in node1's namespace, its output (and errors) kept
run1() { local o=$1; shift; netns "$node1" "$@" >"$LOGS/$o" 2>&1; }
unit_start() { run1 unit.out "${unit_cmd[@]}" && cat "$LOGS/unit.out"; }
check "node1: the packaged unit's ExecStart ($exec_start) applies /etc/mrc/mrc.conf" unit_start
check "node2: mrcctl apply of its file" netns "$node2" "$MRCCTL" apply "$LOGS/node2.conf"

ready() {
	GID1=$(gid_index mrc0 fd70::1) && GID2=$(gid_index mrc1 fd70::2) &&
		netns "$node1" rdma link show mrc0/1 | grep -q 'state ACTIVE' &&
		netns "$node2" rdma link show mrc1/1 | grep -q 'state ACTIVE'
}
check "both ports ACTIVE, with a RoCE v2 GID for fd70::1 and fd70::2" wait_for "$W" ready
ready
check "rdma link show: mrc0/1 ACTIVE on netdev p0" \
	bash -c "netns '$node1' rdma link show >'$LOGS/rdma-link' 2>&1 &&
		grep -E '^link mrc0/1 state ACTIVE physical_state LINK_UP netdev p0( |\$)' '$LOGS/rdma-link'"
check "ibv_devinfo -d mrc0: InfiniBand transport over Ethernet, PORT_ACTIVE" \
	bash -c "ip netns exec '$node1' ibv_devinfo -d mrc0 >'$LOGS/ibv_devinfo' 2>&1 &&
		grep -q 'transport:.*InfiniBand' '$LOGS/ibv_devinfo' &&
		grep -q 'state:.*PORT_ACTIVE' '$LOGS/ibv_devinfo' &&
		grep -q 'link_layer:.*Ethernet' '$LOGS/ibv_devinfo'"
shows() {
	run1 dev-show "$MRCCTL" dev show mrc0 && run1 plane-show "$MRCCTL" plane show dev mrc0 &&
		run1 path-show "$MRCCTL" path show dev mrc0 &&
		netns "$node1" "$MRCCTL" -j dev show mrc0 | jq -e '.[0] | .netdev == "p0" and .planes == 2' &&
		netns "$node1" "$MRCCTL" -j plane show dev mrc0 |
		jq -e 'map({plane, netdev, state}) | sort_by(.plane) ==
			[{plane: 0, netdev: "p0", state: "UP"}, {plane: 1, netdev: "p1", state: "UP"}]' &&
		netns "$node1" "$MRCCTL" -j path show dev mrc0 |
		jq -e 'map({peer, plane, remote}) | sort_by(.plane) ==
			[{peer: "fd70::2", plane: 0, remote: "fd70::2"}, {peer: "fd70::2", plane: 1, remote: "fd71::2"}]'
}
check "mrcctl dev show, plane show, path show: mrc0 on p0 and p1, both UP, a path over each" shows

# the transfer, captured on node1 (both planes)
# (its first 400 packets: tshark's Lua is slow under TCG)
netns "$node1" tcpdump -nn -U -i any -c 400 -w "$LOGS/walk.pcap" udp port 4791 2>"$LOGS/tcpdump.err" &
CAP=$!
check "tcpdump listens on node1" wait_for "$W" grep -q "listening on" "$LOGS/tcpdump.err"
tx() { netns "$node1" "$MRCCTL" -j plane show dev mrc0 | jq -r "map(select(.plane == $1))[0].tx_packets // empty"; }
tx0=$(tx 0) tx1=$(tx 1)
ktap_info "plane tx_packets before: $tx0 $tx1"
PORT=18600
write_bw() {
	local bw=(ib_write_bw -F --report_gbits -s 65536 -n 200 -p "$PORT") spid rc
	ip netns exec "$node2" timeout -k 5 "$TMO" "${bw[@]}" -d mrc1 -x "$GID2" >"$LOGS/ib_write_bw.server" 2>&1 &
	spid=$!
	wait_listen "$node2" tcp "$PORT" "$spid" || return 1
	ip netns exec "$node1" timeout -k 5 "$TMO" "${bw[@]}" -d mrc0 -x "$GID1" 10.70.0.2 \
		>"$LOGS/ib_write_bw.client" 2>&1
	rc=$?
	wait "$spid" || rc=1
	cat "$LOGS/ib_write_bw.client"
	[ "$rc" = 0 ] && grep -qE '^ *65536 +200 ' "$LOGS/ib_write_bw.client"
}
check "ib_write_bw -s 65536 -n 200, node1's mrc0 to node2's mrc1: done, its result line" write_bw
tx0b=$(tx 0) tx1b=$(tx 1)
run1 plane-show.after "$MRCCTL" plane show dev mrc0
ktap_info "plane tx_packets after: $tx0b $tx1b"
check "both planes carried it (mrcctl plane show: tx_packets moved on each)" \
	bash -c "[ -n '$tx0' ] && [ -n '$tx1' ] && [ '${tx0b:-0}' -gt '$tx0' ] && [ '${tx1b:-0}' -gt '$tx1' ]"
kill -INT "$CAP" 2>/dev/null
wait "$CAP"
CAP=''

# tshark with no -X: the installed dissector; its summary and the fields
decode() {
	HOME=$LOGS timeout "$TMO" tshark -n -r "$LOGS/walk.pcap" -c 8 -Y mrc >"$LOGS/tshark" 2>"$LOGS/tshark.err" &&
		HOME=$LOGS timeout "$TMO" tshark -n -r "$LOGS/walk.pcap" -Y mrc -T fields -E separator=/t \
			-e ipv6.dst -e mrc.opname -e mrc.icrc.status -e mrc.ev.plane >"$LOGS/tshark.fields" 2>>"$LOGS/tshark.err" &&
		head -3 "$LOGS/tshark" && grep -c . "$LOGS/tshark.fields"
}
check "tshark (no -X) decodes the capture with the installed mrc.lua" decode
writes_on() {
	awk -F'\t' -v p="$1" '$2 ~ /^WRITE_/ && $4 == p { n++ } END { print n + 0; exit !(n > 0) }' "$LOGS/tshark.fields"
}
check "... RDMA WRITEs on plane 0 and on plane 1, every ICRC good" \
	bash -c "$(declare -f writes_on); LOGS='$LOGS'; writes_on 0 && writes_on 1 &&
		! awk -F'\t' '\$3 != \"good\"' '$LOGS/tshark.fields' | grep -q ."
ktap_finish
