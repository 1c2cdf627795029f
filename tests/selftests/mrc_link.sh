#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lifecycle of mrc devices, through stock iproute2 rdma and rdma-core tools.
#
#   +------------- ns a -------------+      +------------- ns b -------------+
#   | mrca (rdma link, type mrc)     |      | mrcb (rdma link, type mrc)     |
#   |   va 10.77.0.1 fd77::1/64  ----+------+---- vb 10.77.0.2 fd77::2/64    |
#   +--------------------------------+      +--------------------------------+
#
# Covers: create, show (rdma, ibv_devices, ibv_devinfo), GIDs, port state
# following the link, MTU (the smallest over the planes; a QP sprays only
# over planes its path MTU fits; one no plane carries is refused), bad
# input (duplicate name, netdev already bound, unknown netdev, VLAN), rdma
# link del, netdev unregister, namespace deletion, module autoload, rmmod
# with devices present, add/del churn.
# MRC_QUICK=1: 2 add/del cycles under 2 link flaps instead of 15 and 15
# (the last with a device on a dummy netdev that is then removed, as in full).
# Waits for state changes are hang guards, times MRC_TIMEOUT_SCALE.
# shellcheck disable=SC2317 # helpers called through check
source "$(dirname "$0")/lib.sh"
require_root

modprobe -q ib_uverbs
modprobe -q veth
modprobe -q dummy
modprobe -q 8021q
# MRCCTL: another mrcctl (tests/pkg/check.sh: the packaged one)
MRCCTL=${MRCCTL:-$(cd "$(dirname "$0")/../../tools/mrcctl" && pwd)/mrcctl}
VERSION=$(cat "$(dirname "$0")/../../VERSION")
[ -x "$MRCCTL" ] || { echo "# build mrcctl first (make mrcctl)"; exit "$KSFT_SKIP"; }
LOGS=$(mktemp -d /tmp/mrc_link.XXXXXX)
export MRCCTL LOGS

ktap_header 37
trap 'cleanup_ns; rm -rf "$LOGS"' EXIT
setup_ns a b
export a b
ip link add va netns "$a" type veth peer name vb netns "$b"
ip -n "$a" addr add 10.77.0.1/24 dev va
ip -n "$a" addr add fd77::1/64 dev va nodad
ip -n "$b" addr add 10.77.0.2/24 dev vb
ip -n "$b" addr add fd77::2/64 dev vb nodad
ip -n "$a" link set va up
ip -n "$b" link set vb up

port_state() { # DEV -> ACTIVE / DOWN
	rdma -j link show "$1/1" | jq -r '.[0].state'
}
devinfo() { # DEV FIELD -> value column of ibv_devinfo
	ibv_devinfo -d "$1" | awk -v f="$2:" '$1 == f { print $2; exit }'
}
# (read, not cat: a fork per table entry costs seconds on the KASAN kernel)
gid_present() { # DEV GID TYPE
	local d=/sys/class/infiniband/$1/ports/1 g i v t
	for g in "$d"/gids/*; do
		i=${g##*/}
		read -r v 2>/dev/null <"$g" || continue
		[ "$v" = "$2" ] || continue
		read -r t 2>/dev/null <"$d/gid_attrs/types/$i" && [ "$t" = "$3" ] && return 0
	done
	return 1
}

gid_index() { # DEV GID -> its index in the port's table
	local d=/sys/class/infiniband/$1/ports/1/gids g v
	for g in "$d"/*; do
		read -r v 2>/dev/null <"$g" && [ "$v" = "$2" ] && { echo "${g##*/}"; return 0; }
	done
	return 1
}
# pp MTU ITERS PORT: ibv_rc_pingpong of 4 KiB messages, mrcb <- mrca over
# their fd77:: GIDs, at path MTU MTU, data checked (-c); output in $LOGS/{s,c}
pp() {
	local gs gc spid crc src
	gs=$(gid_index mrcb fd77:0000:0000:0000:0000:0000:0000:0002) &&
		gc=$(gid_index mrca fd77:0000:0000:0000:0000:0000:0000:0001) || return 1
	netns "$b" timeout "$(tmo 120)" ibv_rc_pingpong -d mrcb -g "$gs" -m "$1" -s 4096 \
		-n "$2" -p "$3" -c >"$LOGS/s" 2>&1 &
	spid=$!
	wait_for "$(tmo 30)" netns "$b" sh -c "ss -Hltn 'sport = :$3' | grep -q ."
	netns "$a" timeout "$(tmo 120)" ibv_rc_pingpong -d mrca -g "$gc" -m "$1" -s 4096 \
		-n "$2" -p "$3" -c 10.77.0.2 >"$LOGS/c" 2>&1
	crc=$?
	wait "$spid"
	src=$?
	[ "$crc" = 0 ] && [ "$src" = 0 ] && grep -q "$2 iters" "$LOGS/c"
}
# frag: ns a's IPv6 fragmentation failures and fragments made
frag() {
	netns "$a" nstat -asz Ip6FragFails Ip6FragCreates | awk '/^Ip6Frag/ { s += $2 } END { print s + 0 }'
}
plane_tx() { # ID: tx_bytes of mrca's plane ID
	netns "$a" "$MRCCTL" -j plane show dev mrca | jq -r ".[] | select(.plane == $1) | .tx_bytes"
}
plane_rx() { # a|b ID: rx_packets of that side's plane ID
	netns "${!1}" "$MRCCTL" -j plane show dev "mrc$1" | jq -r ".[] | select(.plane == $2) | .rx_packets"
}
export -f rdma_devs has_rdma_dev port_state devinfo gid_present wait_for
W=$(tmo 10) W5=$(tmo 5)	# hang guards for state changes (ms when healthy)
CHURN=$(by_mode 15 2)	# the dummy netdev case every 5th cycle and the last

# -- create
check "module loads" modprobe mrc
check "rdma link add mrca in ns a" netns "$a" rdma link add mrca type mrc netdev va
check "rdma link add mrcb in ns b" netns "$b" rdma link add mrcb type mrc netdev vb
check "rdma link show: mrca on va" \
	bash -c "netns $a rdma -j link show mrca/1 | jq -e '.[0].netdev == \"va\"'"
check "port ACTIVE on both ends" \
	wait_for "$W" bash -c "[ \"\$(rdma -j link show mrca/1 | jq -r '.[0].state')\" = ACTIVE ] &&
		[ \"\$(rdma -j link show mrcb/1 | jq -r '.[0].state')\" = ACTIVE ]"
mac=$(ip netns exec "$a" cat /sys/class/net/va/address)
IFS=: read -r m0 m1 m2 m3 m4 m5 <<<"$mac"
guid=$(printf '%02x%s%sfffe%s%s%s' $((0x$m0 ^ 2)) "$m1" "$m2" "$m3" "$m4" "$m5")
check "ibv_devices lists mrca with its EUI-64 node GUID" \
	bash -c "ibv_devices | awk '\$1 == \"mrca\" { print \$2 }' | grep -qx $guid"
check "ibv_devinfo opens mrca (rxe provider): PORT_ACTIVE, Ethernet, fw $VERSION (VERSION)" \
	bash -c "ibv_devinfo -d mrca | grep -q 'state:.*PORT_ACTIVE' &&
		ibv_devinfo -d mrca | grep -q 'link_layer:.*Ethernet' &&
		ibv_devinfo -d mrca | grep -q 'transport:.*InfiniBand' &&
		[ \"\$(devinfo mrca fw_ver)\" = $VERSION ]"
check "active_mtu 1024 at netdev MTU 1500" bash -c "[ \"\$(devinfo mrca active_mtu)\" = 1024 ]"
check "GIDs: RoCE v2 for 10.77.0.1 and fd77::1" \
	bash -c "wait_for $W5 gid_present mrca 0000:0000:0000:0000:0000:ffff:0a4d:0001 'RoCE v2' &&
		wait_for $W5 gid_present mrca fd77:0000:0000:0000:0000:0000:0000:0001 'RoCE v2'"

# -- the port follows the link
ip -n "$a" link set va mtu 9000
ip -n "$b" link set vb mtu 9000
check "active_mtu 4096 at netdev MTU 9000" bash -c "[ \"\$(devinfo mrca active_mtu)\" = 4096 ]"
ip -n "$b" link set vb down
check "peer down: port DOWN" wait_for "$W" bash -c "[ \"\$(port_state mrca)\" = DOWN ]"
ip -n "$b" link set vb up
check "peer up: port ACTIVE again" wait_for "$W" bash -c "[ \"\$(port_state mrca)\" = ACTIVE ]"

# -- planes of different MTUs: plane 1 on a second veth pair, a UDP path
# over each plane. The port reports the MTU every plane carries; a QP
# sprays its data only over planes its path MTU fits, and a path MTU no
# plane carries is refused (as rxe refuses one above the port's).
# (vb's down flushed its IPv6 address)
ip -n "$b" addr replace fd77::2/64 dev vb nodad
ip link add va2 netns "$a" type veth peer name vb2 netns "$b"
ip -n "$a" addr add fd78::1/64 dev va2 nodad
ip -n "$b" addr add fd78::2/64 dev vb2 nodad
ip -n "$a" link set va2 mtu 9000 up
ip -n "$b" link set vb2 mtu 9000 up
# a third pair with the same addresses, for plane 1 to move to later: its
# routes exist before any is cached, so only mrc can tell the two apart
ip link add va3 netns "$a" type veth peer name vb3 netns "$b"
ip -n "$a" addr add fd78::1/64 dev va3 nodad
ip -n "$b" addr add fd78::2/64 dev vb3 nodad
ip -n "$a" link set va3 up
ip -n "$b" link set vb3 up
netns "$a" "$MRCCTL" plane add dev mrca netdev va2
netns "$b" "$MRCCTL" plane add dev mrcb netdev vb2
for p in 0:77 1:78; do
	netns "$a" "$MRCCTL" path add dev mrca peer fd77::2 plane "${p%:*}" remote "fd${p#*:}::2"
	netns "$b" "$MRCCTL" path add dev mrcb peer fd77::1 plane "${p%:*}" remote "fd${p#*:}::1"
done
check "two planes at netdev MTU 9000: active_mtu 4096" \
	bash -c "[ \"\$(devinfo mrca active_mtu)\" = 4096 ]"
ip -n "$a" link set va2 mtu 1500
ip -n "$b" link set vb2 mtu 1500
check "plane 1's netdev MTU drops to 1500: active_mtu 1024, what every plane carries" \
	bash -c "[ \"\$(devinfo mrca active_mtu)\" = 1024 ] && [ \"\$(devinfo mrcb active_mtu)\" = 1024 ]"
f0=$(frag) tx0=$(plane_tx 0)
check "path MTU 4096 over planes of MTU 9000 and 1500: ibv_rc_pingpong, data checked" \
	pp 4096 "$(by_mode 100 20)" 18515
check "no packet too big for plane 1 (Ip6FragFails, Ip6FragCreates unchanged)" \
	test "$(frag)" = "$f0"
check "plane 0 carried the data" test "$(plane_tx 0)" -gt $((tx0 + 4096 * $(by_mode 100 20)))
ip -n "$a" link set va mtu 1500
ip -n "$b" link set vb mtu 1500
refused() { ! pp 4096 1 18516 && cat "$LOGS/s" "$LOGS/c" | grep -q 'Failed to modify QP to RTR'; }
check "a path MTU no plane carries (4096 at netdev MTU 1500) is refused at RTR" refused
check "path MTU 1024 over both planes: ibv_rc_pingpong, data checked" pp 1024 "$(by_mode 100 20)" 18517
# plane 1 moves to the third pair at both ends; the old pair still routes
# the same addresses, but packets on it reach no plane any more
for s in a b; do
	netns "${!s}" "$MRCCTL" plane del dev "mrc$s" id 1
	netns "${!s}" "$MRCCTL" plane add dev "mrc$s" netdev "v${s}3" id 1
done
rx1=$(plane_rx b 1)
check "plane 1 moved to another netdev: ibv_rc_pingpong, data checked" \
	pp 1024 "$(by_mode 100 20)" 18518
check "plane 1's packets leave through its new netdev (received on the peer's plane 1)" \
	test "$(plane_rx b 1)" -gt "$rx1"
for s in a b; do netns "${!s}" "$MRCCTL" plane del dev "mrc$s" id 1; done

# -- bad input: a clear error, nothing changed
# (the devices and their bindings; port states may still settle after the flap)
bindings() {
	rdma_devs | sort | tr '\n' ' '
	netns "$a" rdma -j link show | jq -c '[.[] | select(.netdev) | [.ifname, .netdev]]'
}
export -f bindings
before=$(bindings)
ip -n "$a" link add d0 type dummy
ip -n "$a" link add link d0 name d0.7 type vlan id 7
err=$(netns "$a" rdma link add mrca type mrc netdev d0 2>&1)
check "duplicate name: File exists" bash -c "[[ '$err' == *'File exists'* ]]"
err=$(netns "$a" rdma link add mrcx type mrc netdev va 2>&1)
check "netdev already bound: File exists" bash -c "[[ '$err' == *'File exists'* ]]"
err=$(netns "$a" rdma link add mrcx type mrc netdev nosuch0 2>&1)
check "unknown netdev: No such device" bash -c "[[ '$err' == *'No such device'* ]]"
err=$(netns "$a" rdma link add mrcx type mrc netdev d0.7 2>&1)
check "VLAN netdev: Invalid argument" bash -c "[[ '$err' == *'Invalid argument'* ]]"
check "bad input changed nothing" \
	bash -c "[[ '$before' == *mrca*mrcb*'[\"mrca\",\"va\"]'* ]] && [ \"\$(bindings)\" = '$before' ]"
check "each refusal explained in the kernel log" \
	bash -c "dmesg | grep -q 'mrc: cannot create mrcx: va is already bound to mrca' &&
		dmesg | grep -q 'mrc: cannot create mrca: an RDMA device of that name exists' &&
		dmesg | grep -q 'mrc: cannot create mrcx on d0.7: not an Ethernet device'"

# -- removal paths
check "rdma link del mrca" rdma link del mrca
check "mrca gone from rdma and ibv_devices" \
	bash -c "! has_rdma_dev mrca && ! ibv_devices | grep -qw mrca"
check "va can be bound again after del" netns "$a" rdma link add mrca type mrc netdev va
netns "$a" rdma link add mrcd type mrc netdev d0
ip -n "$a" link del d0
check "netdev unregister removes its device" wait_for "$W" bash -c "! has_rdma_dev mrcd"
ip netns del "$b"
check "namespace deletion removes the device on its netdev" \
	wait_for "$W" bash -c "! has_rdma_dev mrcb && ! has_rdma_dev mrca"

# -- module lifecycle
ip -n "$a" link add vc type veth peer name vd
ip -n "$a" link set vc up
netns "$a" rdma link add mrcc type mrc netdev vc
check "rmmod with a device present" rmmod mrc
check "no mrc device left after rmmod" bash -c "! has_rdma_dev mrcc"
check "rdma link add autoloads mrc" netns "$a" rdma link add mrcc type mrc netdev vc

# -- churn: add/del racing link flaps and netdev removal
(
	for _ in $(seq "$CHURN"); do
		ip -n "$a" link set vd down; ip -n "$a" link set vd up
	done
) &
flapper=$!
fail=0
for i in $(seq "$CHURN"); do
	netns "$a" rdma link add mrcz type mrc netdev vd 2>/dev/null || fail=$((fail + 1))
	netns "$a" rdma link del mrcz 2>/dev/null || fail=$((fail + 1))
	{ [ $((i % 5)) = 0 ] || [ "$i" = "$CHURN" ]; } && ip -n "$a" link add "du$i" type dummy &&
		netns "$a" rdma link add "mrcu$i" type mrc netdev "du$i" &&
		ip -n "$a" link del "du$i"
done
wait $flapper
check "$CHURN add/del cycles under link flaps" bash -c "[ $fail = 0 ]"
check "devices of removed netdevs are gone" \
	wait_for "$W" bash -c "! rdma_devs | grep -q '^mrcu'"
ktap_finish
