#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector (tools/wireshark/mrc.lua) on real mrc traffic in
# the lab fabric (fabric.sh, 2 hosts x 2 planes x 2 T1): tcpdump captures at
# host h1 (every interface, both directions) and at T1 switch t1-p0-0 (what
# arrives from h1's T0 on plane 0) while
#   - rping -V runs (rdma_cm: CM MADs over UD, SEND, READ and WRITE)
#   - mrc_write_bw (libmrc's example) writes 4 KiB messages and keeps its
#     QP connected while `mrcctl ev show` reads its EVs
#   - ib_write_bw writes 16 KiB messages; meanwhile T0 t0-p0-0 marks one
#     first transmission of a WRITE_MIDDLE in 8 with the trim DSCP and
#     corrupts its payload, as a trimming switch that fixes the lengths:
#     the receiver answers with trim NACKs
#   - mrcctl probe sends EV probes (0xD8/0xD9): on plane 0 with a given EV,
#     and on a uSID path
#   - h1's path set becomes explicit SRH segment lists: ibv_rc_pingpong and
#     a probe on one
# then tshark -X lua_script:mrc.lua decodes both captures, and the test
# checks what it decoded against what mrc and the fabric did:
#   - opcode names of every kind sent (UD's CM MADs left to InfiniBand)
#   - no malformed packet, no expert info of warning or error severity;
#     every ICRC good but those of the packets cut at the T0
#   - the write: RETH DMA length = the message size on every WRITE, first
#     transmissions' PSNs unique and gapless, the payloads adding up to the
#     messages; mrc_write_bw's EVs = values of `mrcctl -j ev show` with the
#     same plane, path and index, both flow labels = the EV's low 16 bits
#   - uSID containers at h1 = `mrcctl path show`'s container of the EV's
#     path, split into block fc00::/32 and 4 uSIDs; at the T1 shifted once
#     (the T1's uSID active), path 0's packets in the order h1 sent them
#   - SACKs: entropy = an EV h1 sent on the QP, port status = both planes,
#     cumulative PSN one h1 sent
#   - trim NACKs: reason TRIMMED for each packet cut at the T0 (ICRC failed
#     under the trim DSCP), with its PSN and EV; the RTX resend
#   - endpoint probes: ERTH/EETH EV = the EV of the packet (given, or the
#     uSID path's)
#   - SRH: segments in visit order = the configured list, 2 left at the T1
# No quick mode: it is one short scenario either way.
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC2317 # functions called through check
DIR=$(cd "$(dirname "$0")" && pwd)
source "$DIR/lib.sh"
source "$DIR/topo.sh"
source "$DIR/traffic.sh"
require_root
require_tools tshark tcpdump jq tc rping ib_write_bw ibv_rc_pingpong
require_mrcctl
[ -x "$(cd "$(dirname "$0")/../../tools/lib/mrc/examples" && pwd)/mrc_write_bw" ] ||
	echo "# mrc_write_bw is missing: build libmrc first (make)"

LUA=$(cd "$DIR/../../tools/wireshark" && pwd)/mrc.lua
TMO=$(tmo 120)
TOPO_FABRIC="2 2 2"
# the write: N messages of SIZE bytes
SIZE=16384 N=24
MRC_WRITE_BW=$(cd "$DIR/../../tools/lib/mrc/examples" && pwd)/mrc_write_bw
LOGS=$(mktemp -d /tmp/mrc_dissector.XXXXXX)
CAPS=()
# shellcheck disable=SC2154 # MRC_TEST_LOGS: the harness keeps the logs there
trap 'for c in "${CAPS[@]}"; do kill "$c" 2>/dev/null; done
	topo_cleanup
	[ -z "${MRC_TEST_LOGS:-}" ] || cp -r "$LOGS" "$MRC_TEST_LOGS/mrc_dissector.d"
	rm -rf "$LOGS"' EXIT

ktap_header 20
fabric_start
H2P0=$(fabric_plane_addr 2 0)
T0=$(fabric_ns t0-p0-0)

# cap NODE IFACE NAME [ARGS]: tcpdump of MRC packets (plain, uSID, SRH)
# into $LOGS/NAME.pcap, whole frames, once it listens
cap() {
	ip netns exec "$(fabric_ns "$1")" tcpdump -nn -U -B 16384 -i "$2" ${4:+"$4"} -w "$LOGS/$3.pcap" \
		'ip6 and (ip6[6] == 41 or ip6[6] == 43 or udp port 4791)' 2>"$LOGS/$3.err" &
	CAPS+=($!)
	wait_for "$TMO" grep -q "listening on" "$LOGS/$3.err"
}
cap h1 any h1
cap t1-p0-0 d0 t1 -Qin

# -- rping: rdma_cm over QP1 (UD), then SEND, READ and WRITE
check "rping -V 4 KiB x 3 (CM MADs over UD, SEND, READ, WRITE)" rping_v 4096 3

# -- a QP's EVs: mrc_write_bw (libmrc's example) keeps its QP connected
# (-L) after its WRITEs while `mrcctl ev show` reads them
rc_qps() { netns "$NS_A" rdma -j res show qp | jq -c "[.[] | select(.ifname == \"$DEV_A\" and .type == \"RC\")]"; }
old=$(rc_qps | jq -r '[.[].lqpn] | join(" ")')
PORT=$((PORT + 1))
wbw=("$MRC_WRITE_BW" -S 4096 -s 4096 -n 8 -w 0 -p "$PORT")
ip netns exec "$NS_B" timeout "$TMO" "${wbw[@]}" -d "$DEV_B" -g "$GID_B" >"$LOGS/wbw.srv" 2>&1 &
spid=$!
wait_listen "$NS_B" tcp "$PORT" "$spid"
ip netns exec "$NS_A" timeout "$TMO" "${wbw[@]}" -d "$DEV_A" -g "$GID_A" -L "$(tmo 5)" "$IP_B" >"$LOGS/wbw.cli" 2>&1 &
cpid=$!
# the new QP, connected (an RQPN), and its EVs
qp_evs() {
	local q
	q=$(rc_qps | jq -c --arg old " $old " 'first(.[] | select(.rqpn) | select(.lqpn as $q | $old | contains(" \($q) ") | not))') &&
		[ -n "$q" ] || return 1
	A -j ev show dev "$DEV_A" qpn "$(jq .lqpn <<<"$q")" >"$LOGS/evs" 2>&1 &&
		jq -e 'length > 0' "$LOGS/evs" >/dev/null && echo "$q" >"$LOGS/qp"
}
# (until the client is gone: a hang guard only)
evs_live() {
	until qp_evs; do
		kill -0 "$cpid" 2>/dev/null || { echo "the client ended first"; return 1; }
		nap 0.2
	done
}
check "mrc_write_bw 4 KiB x 8: ev show of its QP while it lingers" evs_live
wait "$cpid"; crc=$?
wait "$spid"; src=$?
check "mrc_write_bw: both ends done, the server checked every byte" \
	bash -c "[ $crc:$src = 0:0 ] && grep -q '^verified' '$LOGS/wbw.srv'"
read -r EVQ < <(jq -r .rqpn "$LOGS/qp" 2>/dev/null)
ktap_info "EV QP $(cat "$LOGS/qp" 2>/dev/null); $(jq length "$LOGS/evs" 2>/dev/null) EVs"

# -- the write, and trimming at T0 t0-p0-0 towards T1 t1-p0-0: a first
# transmission (RTX clear) of a WRITE_MIDDLE whose PSN is 3 modulo 8 gets
# the trim DSCP (46) and a flipped payload word. Offsets from the outer
# IPv6 header: inner IPv6 40, UDP 80, BTH 88 (opcode), 96 (AckReq/RTX/TS),
# 99 (PSN bits 7:0); payload from 120.
tc -n "$T0" qdisc add dev u0 root handle 1: prio
tc -n "$T0" filter add dev u0 parent 1: protocol ipv6 u32 \
	match u8 0xc7 0xff at 88 match u8 0x00 0x40 at 96 match u8 0x03 0x07 at 99 \
	action pedit ex munge ip6 traffic_class set 0xb8 retain 0xfc pipe \
	action pedit munge offset 200 u32 invert
check "ib_write_bw $SIZE B x $N, trim DSCP on some at t0-p0-0" write_bw "$SIZE" "$N"
tc -n "$T0" qdisc del dev u0 root
# its QPs, as perftest printed them: "local address: ... QPN 0x0011 ..."
LQPN=$(sed -n 's/.*local address:.* QPN \(0x[0-9a-fA-F]*\) .*/\1/p' "$LOGS/cli")
RQPN=$(sed -n 's/.*remote address:.* QPN \(0x[0-9a-fA-F]*\) .*/\1/p' "$LOGS/cli")
LQPN=$((${LQPN:-0})) RQPN=$((${RQPN:-0}))
ktap_info "write QPs: $LQPN at h1, $RQPN at h2"

# -- EV probes: plain on plane 0 with a given EV, and on uSID path 1
probes() {
	A -j probe dev "$DEV_A" peer "$H2P0" plane 0 ev 0xc0051234 timeout "$(tmo 2000)" >"$LOGS/probe.ev" &&
		jq -e '.[0].status == "answered" and .[0].peer_ev == "0xc0051234"' "$LOGS/probe.ev" >/dev/null &&
		A -j probe dev "$DEV_A" peer "$CM_B" path 1 timeout "$(tmo 2000)" >"$LOGS/probe.path" &&
		jq -e '.[0].status == "answered"' "$LOGS/probe.path" >/dev/null
}
check "mrcctl probe: plane 0 with EV 0xc0051234, uSID path 1: answered" probes
A -j path show dev "$DEV_A" peer "$CM_B" >"$LOGS/paths.usid"

# -- SRH: h1's path set to h2 as explicit segment lists
srh_setup() {
	local p segs
	A path del dev "$DEV_A" peer "$CM_B" || return 1
	while read -r p segs; do
		A path add dev "$DEV_A" peer "$CM_B" plane "$p" srh "$segs" || return 1
	done < <(fabric_srh_paths h1 h2)
	A -j path show dev "$DEV_A" peer "$CM_B" >"$LOGS/paths.srh"
}
check "srh mode: h1's path set of 4 segment lists" srh_setup
srh_traffic() {
	pingpong 20 4096 &&
		A -j probe dev "$DEV_A" peer "$CM_B" path 0 timeout "$(tmo 2000)" >"$LOGS/probe.srh" &&
		jq -e '.[0].status == "answered"' "$LOGS/probe.srh" >/dev/null
}
check "srh mode: ibv_rc_pingpong -c 4 KiB x 20, a probe on SRH path 0" srh_traffic
# tcpdump lags behind on a slow kernel and drops what it has not read
# when it stops: first until both files stop growing (a hang guard)
drained() {
	local s0='' s1 end=$((SECONDS + TMO))
	while [ $SECONDS -lt $end ]; do
		s1=$(stat -c %s "$LOGS/h1.pcap" "$LOGS/t1.pcap" | paste -sd' ')
		[ "$s1" = "$s0" ] && return 0
		s0=$s1
		nap 1
	done
}
drained
for c in "${CAPS[@]}"; do kill -INT "$c"; wait "$c"; done
CAPS=()
ktap_info "captured: h1 $(grep -o '[0-9]* packets captured' "$LOGS/h1.err"), t1 $(grep -o '[0-9]* packets captured' "$LOGS/t1.err")"

# -- decode
COLS=(frame.number _ws.col.Protocol mrc.opname mrc.bth.dqpn mrc.bth.psn mrc.bth.rtx
	mrc.ev mrc.ev.plane mrc.ev.path mrc.ev.index mrc.encap mrc.outer.src mrc.outer.dst
	mrc.outer.flow mrc.outer.dscp mrc.usid.block mrc.usid.list mrc.usid.active
	mrc.srh.segment mrc.srh.segleft mrc.srh.active mrc.reth.len mrc.reth.va mrc.pleth.len
	mrc.payload_len mrc.seth.cack_psn mrc.seth.entropy mrc.seth.port_status mrc.seth.bitmap
	mrc.neth.reason mrc.neth.psn mrc.neth.entropy mrc.ep.op mrc.ep.req_id mrc.ep.ev
	mrc.icrc.status mrc.trimmed ipv6.src ipv6.dst ipv6.flow infiniband.bth.opcode
	_ws.malformed _ws.expert.severity _ws.expert.message)
decode() { # decode NAME: $LOGS/NAME.pcap to $LOGS/NAME.tsv (a header line, then a line a frame)
	local e=() c
	for c in "${COLS[@]}"; do e+=(-e "$c"); done
	# (HOME: no personal plugin folder, where an installed copy would be
	# loaded instead of this one; mrc sends UDP checksum 0)
	HOME=$LOGS tshark -n -X "lua_script:$LUA" -o udp.ignore_ipv6_zero_checksum:TRUE -r "$LOGS/$1.pcap" \
		-T fields -E header=y -E separator=/t -E occurrence=a -E aggregator=, "${e[@]}" \
		>"$LOGS/$1.tsv" 2>"$LOGS/$1.tshark.err"
}
decode_both() { decode h1 && decode t1; }
check "tshark decodes both captures with the dissector" decode_both

# -- what it decoded. Each check is one awk over a decoded capture: g(NAME)
# is a field of the frame, inner(NAME) the last of its values (the inner
# header's, of ipv6.src and the like)
AWK='function hdr(  i) { for (i = 1; i <= NF; i++) col[$i] = i }
	function g(k) { return $col[k] }
	function inner(k,  a, n) { n = split($col[k], a, ","); return a[n] }
	function dist(a, b) { return (a - b + 16777216) % 16777216 }
	function fail(m) { print m; bad++ }
	FILENAME !~ /\.tsv$/ { split($0, a, " ") }
	FILENAME ~ /\.tsv$/ && FNR == 1 { hdr(); next }'
# tsv NAME PROGRAM [VAR=VALUE | FILE]...: PROGRAM over FILEs (a line
# each, in a[], read first), then the frames of NAME; it fails when
# PROGRAM called fail()
tsv() {
	local name=$1 prog=$2
	shift 2
	awk -F'\t' "$AWK $prog"' END { exit bad > 0 }' "$@" "$LOGS/$name.tsv"
}
# the write QP's EVs: "value plane path index" (mrcctl ev show)
jq -r '.[] | "\(.value) \(.plane) \(.path) \(.ev)"' "$LOGS/evs" >"$LOGS/evs.txt" 2>/dev/null
# h1's uSID paths to h2: "path container"
jq -r '.[] | "\(.path) \(.usid)"' "$LOGS/paths.usid" >"$LOGS/paths.txt" 2>/dev/null

ops_all() {
	tsv h1 'g("_ws.col.Protocol") == "MRC" { seen[g("mrc.opname")]++; if (g("mrc.opname") == "") fail("frame " g("frame.number") ": MRC without an opcode name") }
		g("infiniband.bth.opcode") == 100 { seen["UD SEND_ONLY (InfiniBand, CM)"]++ }
		END { n = split("SEND_FIRST SEND_MIDDLE SEND_LAST SEND_ONLY WRITE_FIRST WRITE_MIDDLE WRITE_LAST READ_REQ READ_RESP_FIRST READ_RESP_MIDDLE READ_RESP_LAST ACK SACK NACK EP_REQUEST EP_RESPONSE", w, " ")
			w[++n] = "UD SEND_ONLY (InfiniBand, CM)"
			for (i = 1; i <= n; i++) if (!seen[w[i]]) fail("no " w[i])
			for (k in seen) printf "%s %d, ", k, seen[k]; print "" }'
}
check "opcodes: every kind sent decoded by name at h1, CM MADs over UD by InfiniBand" ops_all
clean() {
	tsv "$1" 'g("_ws.malformed") != "" { fail("frame " g("frame.number") ": malformed") }
		{ n = split(g("_ws.expert.severity"), s, ","); for (i = 1; i <= n; i++) if (s[i] + 0 >= 6291456) {
			fail("frame " g("frame.number") ": " g("_ws.expert.message")); break } }'
}
clean_both() { clean h1 && clean t1; }
check "no malformed packet, no expert info of warning or error severity (h1, t1)" clean_both
icrc_ok() {
	tsv h1 'g("_ws.col.Protocol") == "MRC" { n++; if (g("mrc.icrc.status") != "good") fail("frame " g("frame.number") ": ICRC " g("mrc.icrc.status")) }
		END { if (!n) fail("no MRC frame") }' &&
		tsv t1 'g("_ws.col.Protocol") == "MRC" && g("mrc.icrc.status") != "good" && g("mrc.icrc.status") != "bad, trimmed" { fail("frame " g("frame.number") ": ICRC " g("mrc.icrc.status")) }'
}
check "ICRC: mrc's, good on every MRC frame (but those cut at the T0)" icrc_ok

# the write's requests at h1: to RQPN from the node address fd00::1
write_psns() {
	tsv h1 'inner("ipv6.src") == "fd00::1" && g("mrc.bth.dqpn") == q && g("mrc.opname") ~ /^WRITE_/ {
			if (g("mrc.reth.len") != size) fail("frame " g("frame.number") ": RETH length " g("mrc.reth.len"))
			if (g("mrc.bth.rtx") == 1) { rtx++; next }
			p = g("mrc.bth.psn"); if (!n++) first = p
			d = dist(p, first); if (d in seen) fail("PSN " p " sent twice"); seen[d] = 1
			if (d > top) top = d
			bytes += g("mrc.payload_len"); if (g("mrc.opname") == "WRITE_FIRST") msgs++ }
		END { print n " first transmissions, PSNs " first " + 0.." top ", " rtx + 0 " resent, " msgs " messages, " bytes " bytes"
			if (n != top + 1) fail("PSNs not gapless")
			if (msgs != want_n || bytes != want_n * size) fail("want " want_n " messages of " size " bytes") }' \
		q="$RQPN" size="$SIZE" want_n="$N"
}
check "write QP: RETH DMA length $SIZE on every WRITE, first transmissions' PSNs unique and gapless, $N messages" write_psns
write_evs() {
	tsv h1 'FILENAME !~ /tsv$/ { ev[a[1]] = a[2] " " a[3] " " a[4]; next }
		inner("ipv6.src") == "fd00::1" && g("mrc.bth.dqpn") == q && g("mrc.opname") ~ /^WRITE_/ {
			v = g("mrc.ev"); got = g("mrc.ev.plane") " " g("mrc.ev.path") " " g("mrc.ev.index"); n++
			if (!(v in ev)) fail("frame " g("frame.number") ": EV " v " is not the QP'"'"'s")
			else if (ev[v] != got) fail("frame " g("frame.number") ": EV " v " plane/path/index " got ", ev show " ev[v])
			# both flow labels, outer and inner: the EV'"'"'s low 16 bits
			if (g("ipv6.flow") != "0x00" substr(v, 7) ",0x00" substr(v, 7))
				fail("frame " g("frame.number") ": EV " v ", flow labels " g("ipv6.flow"))
			used[v] = 1 }
		END { for (v in used) u++; print n " packets on " u " of the QP'"'"'s EVs"; if (!n) fail("no packets") }' \
		q="$EVQ" "$LOGS/evs.txt"
}
check "mrc_write_bw's QP: every EV = a value of mrcctl ev show, with its plane, path and index; flow labels = EV 15:0" write_evs
# the uSID container of each request h1 sent on a uSID path: the EV's path
usid_h1() {
	tsv h1 'FILENAME !~ /tsv$/ { c[a[1]] = a[2]; next }
		g("mrc.encap") == "usid" && inner("ipv6.src") == "fd00::1" && g("mrc.outer.src") ~ /^2001:db8:/ {
			n++; want = c[g("mrc.ev.path")]; l = want; sub(/^fc00:0:/, "", l); sub(/::$/, "", l); gsub(/:/, " ", l)
			split(l, u, " ")
			if (g("mrc.outer.dst") != want || g("mrc.usid.list") != l || g("mrc.usid.block") != "fc00::/32" ||
			    g("mrc.usid.active") != sprintf("0x0000%s", u[1]))
				fail("frame " g("frame.number") ": path " g("mrc.ev.path") " is " want "; decoded " g("mrc.outer.dst") \
					" block " g("mrc.usid.block") " uSIDs " g("mrc.usid.list") " active " g("mrc.usid.active"))
			paths[g("mrc.ev.path")] = 1 }
		END { for (p in paths) k++; print n " packets on " k " paths"; if (k < 4) fail("not every path seen") }' \
		"$LOGS/paths.txt"
}
check "uSID at h1: outer destination = the container of the EV's path (mrcctl path show), split into block fc00::/32 and 4 uSIDs" usid_h1
# at the T1: what arrives from h1's T0 was shifted once, the T1's own uSID
# active, and is path 0 (plane 0 via this T1): the packets h1 sent on it,
# in the order it sent them (a path is a FIFO)
T1U=$(fabric_usid t1-p0-0) T0B=$(fabric_usid t0-p0-1) H2U=$(fabric_usid h2)
P0=$(fabric_paths h1 h2 | awk '$1 == 0 { print $2; exit }')
path0() { # path0 NAME: "dqpn psn opcode rtx" of h1's packets on path 0
	tsv "$1" 'g("mrc.encap") == "usid" && inner("ipv6.src") == "fd00::1" &&
		(g("mrc.outer.dst") == p0 || FILENAME ~ /t1\.tsv$/) {
			print g("mrc.bth.dqpn"), g("mrc.bth.psn"), g("mrc.opname"), g("mrc.bth.rtx"), g("mrc.ev.path") }' p0="$P0"
}
usid_t1() {
	path0 h1 >"$LOGS/path0.h1" && path0 t1 >"$LOGS/path0.t1" || return 1
	tsv t1 'g("mrc.encap") == "usid" && inner("ipv6.src") == "fd00::1" { n++
			if (g("mrc.outer.dst") != "fc00:0:" t1 ":" t0 ":" h2 "::" || g("mrc.usid.list") != t1 " " t0 " " h2 ||
			    g("mrc.usid.active") != "0x0000" t1 || g("mrc.ev.path") != 0)
				fail("frame " g("frame.number") ": outer " g("mrc.outer.dst") " uSIDs " g("mrc.usid.list") " active " g("mrc.usid.active") " path " g("mrc.ev.path")) }
		END { print n " packets"; if (!n) fail("none") }' t1="$T1U" t0="$T0B" h2="$H2U" || return 1
	# fresh PSNs of a QP in the order h1 sent them: increasing but where
	# two of its contexts sent at once (informative)
	awk '$4 == 0 { if ($1 in l && ($2 - l[$1] + 16777216) % 16777216 > 8388608) inv++; l[$1] = $2; n++ }
		END { print n " first transmissions, " inv + 0 " behind a higher PSN" }' "$LOGS/path0.t1"
	# the same packets; not in the same order, as h1's two CPUs send at
	# once and each hands its packet on to the veth's peer on its own
	sort "$LOGS/path0.h1" >"$LOGS/path0.h1.sorted" && sort "$LOGS/path0.t1" >"$LOGS/path0.t1.sorted" &&
		cmp -s "$LOGS/path0.h1.sorted" "$LOGS/path0.t1.sorted" ||
		{ echo "path 0 at h1 and at the T1 differ:"; diff "$LOGS/path0.h1.sorted" "$LOGS/path0.t1.sorted" | head -5; return 1; }
}
check "uSID at T1 t1-p0-0: shifted once ($T1U $T0B $H2U, $T1U active), path 0's packets as h1 sent them" usid_t1
sacks() {
	tsv h1 'g("mrc.bth.dqpn") == q && inner("ipv6.src") == "fd00::1" && g("mrc.opname") ~ /^WRITE_/ {
			sent[g("mrc.ev")] = 1; p = g("mrc.bth.psn"); if (!n++) first = p; if (dist(p, first) > top) top = dist(p, first) }
		g("mrc.bth.dqpn") == lq && inner("ipv6.dst") == "fd00::1" && g("mrc.opname") == "SACK" { k++
			if (!(g("mrc.seth.entropy") in sent)) fail("frame " g("frame.number") ": SACK entropy " g("mrc.seth.entropy") " not an EV h1 sent")
			if (g("mrc.seth.port_status") != "0x0003") fail("frame " g("frame.number") ": port status " g("mrc.seth.port_status"))
			d = dist(g("mrc.seth.cack_psn"), first); if (d > top && d != 16777215) fail("frame " g("frame.number") ": cumulative PSN " g("mrc.seth.cack_psn") " never sent") }
		END { print k " SACKs"; if (!k) fail("no SACK") }' q="$RQPN" lq="$LQPN"
}
check "SACKs of the write: entropy = an EV h1 sent, port status 0x0003 (both planes), cumulative PSN within those sent" sacks
# trimmed at the T0 (ICRC fails under DSCP 46, seen at the T1), NACKed
# (h1 gets NETH TRIMMED with its PSN and EV) and resent (RTX)
tsv t1 'g("mrc.icrc.status") == "bad, trimmed" { print g("mrc.bth.dqpn"), g("mrc.bth.psn"), g("mrc.ev"), g("mrc.outer.dscp"), g("mrc.opname"), g("mrc.bth.rtx") }' \
	>"$LOGS/trimmed.txt"
trims() {
	tsv h1 'FILENAME !~ /tsv$/ { cut[a[1] " " a[2]] = a[3]; n++
			if (a[4] != 46 || a[5] != "WRITE_MIDDLE" || a[6] != 0 || a[2] % 8 != 3) fail("cut: " $0); next }
		g("mrc.opname") == "NACK" && inner("ipv6.dst") == "fd00::1" { k = q " " g("mrc.neth.psn")
			if (g("mrc.neth.reason") != "0x01") fail("frame " g("frame.number") ": NACK reason " g("mrc.neth.reason"))
			if (!(k in cut)) fail("frame " g("frame.number") ": NACK of PSN " g("mrc.neth.psn") ", not cut")
			else if (g("mrc.neth.entropy") != cut[k]) fail("NACK of " k ": entropy " g("mrc.neth.entropy") ", sent on " cut[k])
			nacked[k] = 1 }
		g("mrc.bth.rtx") == 1 && inner("ipv6.src") == "fd00::1" { resent[g("mrc.bth.dqpn") " " g("mrc.bth.psn")] = 1 }
		END { for (k in cut) { if (!(k in nacked)) fail("PSN " k " cut, not NACKed"); if (!(k in resent)) fail("PSN " k " not resent") }
			print n " cut at the T0, each NACKed and resent"; if (!n) fail("nothing cut") }' \
		q="$RQPN" "$LOGS/trimmed.txt"
}
check "trim NACKs: each packet cut at the T0 (trim DSCP, ICRC failed) NACKed TRIMMED with its PSN and EV, resent" trims
probes_seen() {
	tsv h1 'g("mrc.opname") ~ /^EP_/ { k = g("mrc.opname") " " g("mrc.encap") " " g("mrc.ev") " " g("mrc.ep.ev"); s[k]++ }
		END { if (!s["EP_REQUEST none (RoCEv2 over IPv6: a udp path, or no path set) " ev " " ev]) fail("no plain request with EV " ev)
			if (!s["EP_RESPONSE none (RoCEv2 over IPv6: a udp path, or no path set) " ev " " ev]) fail("no response echoing " ev)
			if (!s["EP_REQUEST usid " pe " " pe]) fail("no request on the uSID path with EV " pe)
			if (!s["EP_RESPONSE none (RoCEv2 over IPv6: a udp path, or no path set) " pe " " pe]) fail("no response echoing " pe)
			for (k in s) print s[k] " " k }' ev=0xc0051234 pe="$(jq -r '.[0].peer_ev' "$LOGS/probe.path")"
}
check "EV probes: ERTH and EETH carry the EV of the packet (0xc0051234 given; the uSID path's)" probes_seen
SEGS=$(fabric_srh_paths h1 h2 | awk '$1 == 0 { print $2; exit }')
srh() {
	tsv t1 'g("mrc.encap") == "srh" && inner("ipv6.src") == "fd00::1" { n++
			if (g("mrc.srh.segment") != segs || g("mrc.srh.segleft") != 2 || g("mrc.srh.active") != sid ||
			    g("mrc.outer.dst") != sid || g("mrc.ev.path") != 0)
				fail("frame " g("frame.number") ": path " g("mrc.ev.path") " segments " g("mrc.srh.segment") " left " g("mrc.srh.segleft") " active " g("mrc.srh.active")) }
		END { print n " packets"; if (!n) fail("none") }' segs="$SEGS" sid="fc00:0:$T1U::1"
}
check "SRH at T1 t1-p0-0: segments in visit order = path 0's list, 2 left, fc00:0:$T1U::1 active" srh
ktap_finish
