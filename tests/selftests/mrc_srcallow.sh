#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sources a plane takes packets from (mrcctl plane set ... allow), over
# the lab fabric (fabric.sh, 2 hosts x 2 planes x 2 T1): each of h1's
# planes allows h2's plane prefix there, 2001:db8:<p>:2::/64, the outer
# source of h2's packets on plane p (SRv6 or plain), and plane 0 also h2's
# node address, the source of what it sends outside the path sets (CM).
#
#   - the configuration reads back (plane show -j)
#   - the allowed peer's traffic passes over SRv6 uSID paths (fabric
#     load) and, with path sets of plane addresses, over plain RoCEv2:
#     ibv_rc_pingpong -c, rping -V; h1's rx_src_denied stays 0
#   - forged RoCE packets to no QP (mrc_inject.py in h2's namespace) at
#     h1's plane 1 address from outside the prefixes: dropped and counted
#     in rx_src_denied, not unknown_qp; from h2's plane address: taken
#     (unknown_qp)
#   - the same in an outer IPv6 header, as an SRv6 path delivers them,
#     inner from h2's node address: judged by the outer source
#   - plane 1 admin down (plane set ... admin down): the same forged
#     packets from h2's plane address are dropped before any other check
#     and counted in its admin_drops; its prefixes stay
#   - allow any: every source is taken again
#
# Environment: MRC_QUICK=1 (shorter transfers).
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check and wait_for
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools ibv_rc_pingpong rping python3 jq
require_mrcctl

TMO=$(tmo 120)
PP=$(by_mode 100 30)
INJECT=$DIR/mrc_inject.py
TOPO_FABRIC="2 2 2"
test_logs mrc_srcallow

ktap_header 10
fabric_start

# counter NAME: a counter of h1's device
counter() { netns "$NS_A" rdma -j statistic show link "$DEV_A/1" | jq -r ".[0].$1"; }
# moved NAME OLD N: counter NAME is OLD + N (and exists)
moved() {
	local v
	v=$(counter "$1")
	[ "$v" = $(($2 + $3)) ] && return 0
	echo "$1: $2 -> $v, want +$3"
	return 1
}
# inject ARGS...: 10 ACKs to no QP (mrc would count them in unknown_qp),
# from h2's namespace; then wait until h1 counted them somewhere
_counted() {
	[ $(($(counter unknown_qp) + $(counter rx_src_denied))) -ge $(($1 + $2 + 10)) ] \
		2>/dev/null
}
inject() {
	local u0 d0
	u0=$(counter unknown_qp) d0=$(counter rx_src_denied)
	netns "$NS_B" python3 "$INJECT" --qpn 0xfffff0 --count 10 "$@" ack
	wait_for "$(tmo 10)" _counted "${u0:-0}" "${d0:-0}"
	sleep 1
}

H1P1=$(fabric_plane_addr 1 1) H2P1=$(fabric_plane_addr 2 1)
OUTSIDE=2001:db8:99::2
A plane set dev "$DEV_A" id 0 allow "2001:db8:0:2::/64,$CM_B"
A plane set dev "$DEV_A" id 1 allow 2001:db8:1:2::/64
# allow_is JQ: h1's plane show -j, [.[].allow], is JQ
allow_is() { A -j plane show dev "$DEV_A" | jq -e "[.[].allow] == $1"; }
check "plane set: the prefixes read back (plane show -j)" \
	allow_is "[[\"2001:db8:0:2::/64\", \"$CM_B/128\"], [\"2001:db8:1:2::/64\"]]"

d0=$(counter rx_src_denied)
check "SRv6 (uSID paths): ibv_rc_pingpong -c, 4 KiB x $PP, from allowed sources" \
	pingpong "$PP" 4096
check "SRv6: rping -V 64 KiB x 5 (CM from h2's node address)" rping_v 65535 5
check "SRv6: nothing of the peer's denied (rx_src_denied stays 0)" \
	test -n "$d0" -a "$d0" != null -a "$(counter rx_src_denied)" = "$d0"

# -- forged, plain RoCEv2 to h1's plane 1 address
d0=$(counter rx_src_denied) u0=$(counter unknown_qp)
inject --dst "$H1P1" --src "$OUTSIDE"
d1=$(counter rx_src_denied) u1=$(counter unknown_qp)
inject --dst "$H1P1" --src "$H2P1"
ktap_info "from $OUTSIDE: rx_src_denied $d0 -> $d1, unknown_qp $u0 -> $u1; from $H2P1:" \
	"unknown_qp -> $(counter unknown_qp)"
# denied_taken D0 D1 U0 U1: the first 10 went to rx_src_denied only, the
# next 10 to unknown_qp
denied_taken() {
	[ "$2" = $(($1 + 10)) ] && [ "$4" = "$3" ] && moved unknown_qp "$4" 10
}
check "plain RoCEv2 from $OUTSIDE: dropped, counted in rx_src_denied; from $H2P1: taken" \
	denied_taken "${d0:-0}" "$d1" "$u0" "${u1:-0}"

# -- forged, decapsulated: the inner packet from h2's node address
d0=$(counter rx_src_denied) u0=$(counter unknown_qp)
inject --encap "$OUTSIDE,$H1P1" --dst "$CM_A" --src "$CM_B"
d1=$(counter rx_src_denied) u1=$(counter unknown_qp)
inject --encap "$H2P1,$H1P1" --dst "$CM_A" --src "$CM_B"
ktap_info "outer $OUTSIDE: rx_src_denied $d0 -> $d1, unknown_qp $u0 -> $u1; outer $H2P1:" \
	"unknown_qp -> $(counter unknown_qp)"
check "IPv6-in-IPv6 with outer source $OUTSIDE: dropped, counted; outer $H2P1: taken" \
	denied_taken "${d0:-0}" "$d1" "$u0" "${u1:-0}"

# -- plane 1 admin down: whatever arrives on it is dropped and counted
# (admin_drops) before any other check; a plane-set of admin keeps the
# prefixes
admin_drops() { A -j plane show dev "$DEV_A" | jq '.[1].rx_admin_drops'; }
_dropped() { [ "$(admin_drops)" -ge $(($1 + 10)) ] 2>/dev/null; }
A plane set dev "$DEV_A" id 1 admin down
a0=$(admin_drops) d0=$(counter rx_src_denied) u0=$(counter unknown_qp)
netns "$NS_B" python3 "$INJECT" --qpn 0xfffff0 --count 10 --dst "$H1P1" --src "$H2P1" ack
wait_for "$(tmo 10)" _dropped "${a0:-0}"
sleep 1
admin_dropped() {
	[ "$(admin_drops)" = $(($1 + 10)) ] && moved unknown_qp "$2" 0 &&
		moved rx_src_denied "$3" 0 &&
		allow_is "[[\"2001:db8:0:2::/64\", \"$CM_B/128\"], [\"2001:db8:1:2::/64\"]]"
}
check "plane 1 admin down: 10 forged packets from $H2P1 dropped, counted in admin_drops only; prefixes kept" \
	admin_dropped "${a0:-0}" "${u0:-0}" "${d0:-0}" ||
	ktap_info "admin_drops $a0 -> $(admin_drops)"
A plane set dev "$DEV_A" id 1 admin up

# -- plain RoCEv2 paths (udp mode): path sets of plane addresses
udp_paths() { # udp_paths NS DEV PEER-NODE PEER-HOST
	local p
	"$TOPO_MRCCTL" -n "$1" path del dev "$2" peer "$3" || return 1
	for p in 0 1; do
		"$TOPO_MRCCTL" -n "$1" path add dev "$2" peer "$3" plane "$p" \
			remote "$(fabric_plane_addr "$4" "$p")" || return 1
	done
}
udp_ok() { pingpong "$PP" 4096 && moved rx_src_denied "$1" 0; }
d0=$(counter rx_src_denied)
if udp_paths "$NS_A" "$DEV_A" "$CM_B" 2 && udp_paths "$NS_B" "$DEV_B" "$CM_A" 1; then
	check "plain RoCEv2 (udp paths): ibv_rc_pingpong -c, 4 KiB x $PP; nothing denied" \
		udp_ok "${d0:-0}"
else
	ktap_fail "plain RoCEv2 (udp paths): the path sets could not be set"
fi

A plane set dev "$DEV_A" id 1 allow any
u0=$(counter unknown_qp)
inject --dst "$H1P1" --src "$OUTSIDE"
taken_again() {
	allow_is "[[\"2001:db8:0:2::/64\", \"$CM_B/128\"], null]" && moved unknown_qp "$1" 10
}
check "allow any: no prefixes shown, $OUTSIDE taken again (unknown_qp)" taken_again "${u0:-0}"
ktap_finish
