#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EV profiles whose EVs are listed (the OCP MRC API's EXP and GEN modes),
# carrying data over the lab fabric (topo_fabric: 2 hosts, 4 planes, 2 T1
# switches a plane, SRv6 uSID paths). h1's controller is mrcctl; the QP
# is libmrc's mrc_write_bw, bound to the profile (MRC_QP_EV_PROFILE_ID),
# the server checking every byte:
#  - srv6 format (locator block + 4 uSIDs), an EXP profile whose 8 EVs are
#    the 8 uSID containers h1 -> h2; the 4 through the second T1 of each
#    plane denied before the sweep: the QP's EV set is the profile's 8, the
#    denied 4 carry nothing, and the second T1s' SIDs count no packet (h2
#    answers over the first T1s only), the first T1s' do
#  - srv6 format of 256 bits (a container, then an SRH segment): an EXP
#    profile of 8 EVs, each a container of 3 uSIDs and h2's plane address;
#    a T1 sees an outer DA of the remaining uSIDs and an SRH, segleft 1
#  - stev format (16 + 16 bits), a GEN profile: source ports 0xc000..0xc003
#    on each of the 4 planes (udp paths both ways); h2 sees exactly those
#    source ports, the QP's EVs are those values
#  - teardown: profiles and formats back to init, no QP left bound
# MRC_QUICK=1: shorter sweeps. MRC_TIMEOUT_SCALE scales the hang guards.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through traps
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root

BW=$(cd "$DIR/../../tools/lib/mrc/examples" && pwd)/mrc_write_bw
test_logs mrc_ev_profile
TMO=$(tmo 300)
ITERS=$(by_mode 64 16)
ktap_header 16
[ -x "$BW" ] || ktap_info "$BW is missing: build libmrc first (make, or make -C tools/lib/mrc)"
fabric_start
B() { "$TOPO_MRCCTL" -n "$NS_B" "$@"; }

# hex ADDR [BYTES]: the first BYTES (16) bytes of IPv6 ADDR, in hex
hex() { python3 -c "import ipaddress, sys; print(ipaddress.IPv6Address(sys.argv[1]).packed[:int(sys.argv[2])].hex())" "$1" "${2:-16}"; }
# sid_pkts NODE: packets the node's seg6local uSID route counted
sid_pkts() {
	local u
	u=$(fabric_usid "$1")
	fabric_on "$1" ip -s -6 route show "fc00:0:$u::/48" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "packets") { print $(i + 1); exit } }'
}
# ev_sweep TAG PROFILE: mrc_write_bw h1 -> h2, h1's QP bound to PROFILE,
# which keeps its QP a while after the sweep (its EV set is read then; as
# long as the guards are scaled: a poll can take seconds)
ev_sweep() {
	TAG=$1 pair "$BW" -d "$DEV_B" -g "$GID_B" -S 65536 -s 65536 -n "$ITERS" -w 2 -- \
		env MRC_QP_EV_PROFILE_ID="$2" "$BW" -d "$DEV_A" -g "$GID_A" -S 65536 -s 65536 \
		-n "$ITERS" -w 2 -L "$(tmo 4)" "$IP_B"
}
# evset_late FILE: the EV set of h1's RC QP once it has one, then its
# last one in FILE.end: read again until the QP is gone (it lingers after
# the sweep), so no guess at how long the sweep takes
evset_late() {
	client_evset "$1" || return 1
	while A -j ev show dev "$DEV_A" qpn "$CLIENT_QPN" >"$1.tmp" 2>/dev/null &&
		jq -e 'length > 0' "$1.tmp" >/dev/null 2>&1; do
		mv "$1.tmp" "$1.end"
		nap 0.5
	done
	rm -f "$1.tmp"
}
# capture NS DEV FILE COUNT FILTER: tcpdump of COUNT packets in, started
capture() {
	ip netns exec "$1" timeout "$TMO" tcpdump -nn -q -l -Q in -c "$4" -i "$2" "$5" \
		>"$3" 2>"$3.err" &
	CAP=$!
	wait_for "$TMO" grep -q "listening on" "$3.err"
}
# bound_sweep TAG PROFILE: ev_sweep with the client's EV set in $LOGS/TAG.evs
bound_sweep() {
	local spid rc
	evset_late "$LOGS/$1evs" &
	spid=$!
	ev_sweep "$1" "$2"
	rc=$?
	wait "$spid" || return 1
	[ -s "$LOGS/$1evs.end" ] && mv "$LOGS/$1evs.end" "$LOGS/$1evs"
	[ "$rc" = 0 ] && grep -q "^verified 65536 bytes x $ITERS" "$LOGS/${1}srv"
}

# -- srv6: the 8 uSID containers h1 -> h2, as explicit EVs
fabric_paths h1 h2 >"$LOGS/paths"
srv6_profile() {
	local p a r=()
	A ev fmt set dev "$DEV_A" id 11 state offline mode srv6 widths 32,16,16,16,16 &&
		A ev fmt set dev "$DEV_A" id 11 state online || return 1
	while read -r p a; do r+=(replace - "$(hex "$a" 12)@$((p + 1))"); done <"$LOGS/paths"
	A ev profile set dev "$DEV_A" id 21 state offline mode exp count 8 fmt 11 &&
		A ev profile set dev "$DEV_A" id 21 "${r[@]}" &&
		A ev profile set dev "$DEV_A" id 21 state online min_active 1 events good,assumed_bad &&
		A -j ev profile show dev "$DEV_A" id 21 entries >"$LOGS/p21" &&
		jq -e '.[0] | .state == "online" and .mode == "exp" and .count == 8 and
			([.entries[].port] == [1,1,2,2,3,3,4,4])' "$LOGS/p21"
}
check "srv6 format 11 (32+4x16 bits), exp profile 21: the 8 uSID containers h1 -> h2, online" \
	srv6_profile
# the second T1 of each plane: its EVs denied, h2's paths through it gone
# t1b_paths A B: the uSID paths A -> B through the second T1 of each plane
t1b_paths() {
	fabric_paths "$1" "$2" |
		awk '{ split($2, u, ":"); if (u[4] == sprintf("%x", 8192 + $1 * 256 + 1)) print }'
}
deny_t1b() {
	local p a n=0
	while read -r p a; do
		A ev set dev "$DEV_A" profile 21 ev "$(hex "$a" 12)" plane "$p" state denied || return 1
		n=$((n + 1))
	done < <(t1b_paths h1 h2)
	while read -r p a; do
		B path del dev "$DEV_B" peer "$CM_A" plane "$p" usid "$a" || return 1
	done < <(t1b_paths h2 h1)
	[ "$n" = 4 ] && A -j ev profile show dev "$DEV_A" id 21 entries |
		jq -e '[.[0].entries[] | select(.state == "DENIED")] | length == 4'
}
check "the 4 EVs through each plane's second T1 denied by their bytes; h2's paths through them removed" \
	deny_t1b
sids() { local p; for p in 0 1 2 3; do echo "$p $(sid_pkts "t1-p$p-0") $(sid_pkts "t1-p$p-1")"; done; }
s0=$(sids)
check "mrc_write_bw bound to exp profile 21: 64 KiB x $ITERS, every byte checked" bound_sweep e1. 21
s1=$(sids)
ktap_info "T1 SID packets (plane first second): $(tr '\n' ';' <<<"$s0") -> $(tr '\n' ';' <<<"$s1")"
check "the QP's EV set: the profile's 8 EVs, 2 a plane; the 4 denied carried nothing, the others did" \
	jq -e 'length == 8 and ([.[] | select(.entry != null)] | length == 8) and
		([.[] | select(.state == "DENIED" and .tx_packets == 0)] | length == 4) and
		([.[] | select(.state != "DENIED" and .tx_packets > 0)] | length == 4)' "$LOGS/e1.evs"
check "the first T1 of every plane forwarded the sweep, the second none of it" \
	bash -c "join <(echo '$s0') <(echo '$s1') |
		awk '\$4 > \$2 && \$5 == \$3 { n++ } END { exit n != 4 }'"
allow_t1b() {
	local p a
	while read -r p a; do
		A ev set dev "$DEV_A" profile 21 ev "$(hex "$a" 12)" plane "$p" state good || return 1
	done < <(t1b_paths h1 h2)
	A -j ev profile show dev "$DEV_A" id 21 entries |
		jq -e '[.[0].entries[] | select(.state == "GOOD")] | length == 8'
}
check "ev set: the denied EVs allowed again, by their bytes" allow_t1b

# -- srv6 with an SRH: 3 uSIDs, then h2's plane address as the next segment
srh_profile() {
	local p a r=() w=32,16,16,16,16,32
	A ev fmt set dev "$DEV_A" id 13 state offline mode srv6 || return 1
	! A ev fmt set dev "$DEV_A" id 13 widths "$w,$w,32" 2>/dev/null || return 1
	A ev fmt set dev "$DEV_A" id 13 widths "$w,16,16,16,16,16,16,16,16" &&
		A ev fmt set dev "$DEV_A" id 13 state online || return 1
	while read -r p a; do
		a=${a%:*::}::	# the container without h2's uSID: the SRH takes over
		r+=(replace - "$(hex "$a")$(hex "$(fabric_plane_addr h2 "$p")")@$((p + 1))")
	done <"$LOGS/paths"
	A ev profile set dev "$DEV_A" id 23 state offline mode exp count 8 fmt 13 "${r[@]}" &&
		A ev profile set dev "$DEV_A" id 23 state online min_active 1 events assumed_bad &&
		A -j ev profile show dev "$DEV_A" id 23 | jq -e '.[0].state == "online"'
}
check "srv6 format 13 (256 bits; 288 refused), exp profile 23: containers of 3 uSIDs, then h2's plane address" \
	srh_profile
t1da=fc00:0:$(fabric_usid t1-p1-0):$(fabric_usid t0-p1-1)::
capture "$(fabric_ns t1-p1-0)" d0 "$LOGS/srh.cap" 20 "ip6 and ip6[6] == 43"
cpid=$CAP
check "mrc_write_bw bound to exp profile 23 (SRH): 64 KiB x $ITERS, every byte checked" bound_sweep e2. 23
wait "$cpid"
check "tcpdump at T1 t1-p1-0: outer DA $t1da, an SRH with 1 segment left, inner fd00::1 > fd00::2" \
	grep -qE "IP6 2001:db8:1:1::1 > $t1da: RT6 \(.*segleft=1.*\) IP6 fd00::1\.[0-9]+ > fd00::2\.4791: " \
	"$LOGS/srh.cap"
ktap_info "at t1-p1-0: $(grep -m1 IP6 "$LOGS/srh.cap")"
check "the SRH QP's EV set: the profile's 8 EVs, each carried packets" \
	jq -e 'length == 8 and ([.[] | select(.entry != null and .tx_packets > 0)] | length == 8)' \
	"$LOGS/e2.evs"

# -- stev: generated source ports over udp paths (both ways: h2 hears
# h1's plane addresses only on paths it has)
stev_profile() {
	local p
	for p in 0 1 2 3; do
		A path add dev "$DEV_A" peer "$CM_B" plane "$p" remote "$(fabric_plane_addr h2 "$p")" &&
			B path add dev "$DEV_B" peer "$CM_A" plane "$p" remote "$(fabric_plane_addr h1 "$p")" ||
			return 1
	done
	A ev fmt set dev "$DEV_A" id 12 state offline mode stev widths 16,16 &&
		A ev fmt set dev "$DEV_A" id 12 state online &&
		A ev profile set dev "$DEV_A" id 22 state offline mode gen count 16 fmt 12 \
			field 16:0xc000:0:7:0x7 field 16:0:0:0:0 &&
		A ev profile set dev "$DEV_A" id 22 state online min_active 1 events assumed_bad &&
		A -j ev profile show dev "$DEV_A" id 22 entries >"$LOGS/p22" &&
		jq -e '.[0] | .count == 16 and
			([.entries[] | [.ev_bytes[0:2], .port]] ==
			 [range(0; 16) | [(["00", "20", "40", "60"][. / 4 | floor]), (. % 4 + 1)]])' "$LOGS/p22"
}
# the array holds the generated bits (3 of them, first in the EV's first
# byte), which the fields' init 0xc000 makes source ports 0xc000..0xc003
check "stev format 12 (16+16), gen profile 22: EVs 0..3 (of 0..7) on each of 4 planes, in that order" \
	stev_profile
capture "$NS_B" p2 "$LOGS/udp.cap" 100 "ip6 src $(fabric_plane_addr h1 2) and udp dst port 4791"
cpid=$CAP
check "mrc_write_bw bound to gen profile 22: 64 KiB x $ITERS, every byte checked" bound_sweep e3. 22
wait "$cpid"
check "tcpdump at h2 p2: h1's packets on plane 2 came from source ports 49152..49155, all of them" \
	bash -c "grep -oE '2001:db8:2:1::1\.[0-9]+ >' '$LOGS/udp.cap' | sort -u | sed 's/.*\.//; s/ >//' |
		paste -sd, | grep -qx '49152,49153,49154,49155'"
check "the QP's EV set: 16 EVs, values 0xc000..0xc003 << 16 on each plane, each carried packets" \
	jq -e 'length == 16 and ([.[] | select(.tx_packets > 0)] | length == 16) and
		([.[] | [.plane, .value]] | sort == ([range(0; 4) as $p | range(0; 4) |
			[$p, "0xc00\(.)0000"]] | sort))' "$LOGS/e3.evs"

# -- teardown
teardown() {
	local id
	for id in 21 22 23; do
		A -j ev profile show dev "$DEV_A" id "$id" | jq -e '.[0].qps == 0' >/dev/null &&
			A ev profile set dev "$DEV_A" id "$id" state offline &&
			A ev profile set dev "$DEV_A" id "$id" state init || return 1
	done
	for id in 11 12 13; do
		A ev fmt set dev "$DEV_A" id "$id" state offline &&
			A ev fmt set dev "$DEV_A" id "$id" state init || return 1
	done
	[ "$(A -j ev profile show dev "$DEV_A")" = "[]" ] && [ "$(A -j ev fmt show dev "$DEV_A")" = "[]" ]
}
check "teardown: no QP bound; profiles and formats offline, then forgotten" teardown
ktap_finish
