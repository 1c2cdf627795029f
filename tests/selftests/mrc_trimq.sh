#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test-only trimming qdisc (tests/trimq/sch_mrc_trim.ko, kind mrc_trim)
# under real UDP traffic, IPv6, IPv4 and SRv6-encapsulated IPv6.
#
#   +------------ ns a ------------+          +------------ ns b ------------+
#   | trimq.py run: UDP sender     |          | trimq.py's packet socket     |
#   |   va (qdisc mrc_trim) -------+--veth----+-- vb                         |
#   | fd77::1 10.77.0.1            |          | fd77::2 10.77.0.2            |
#   | fd79::2 via SRv6 encap -> fd77::2       |                              |
#   +------------------------------+          +------------------------------+
#
# Each scenario (trimq.py run) plugs the qdisc (rate 1 byte/s once a packet
# has left), sends its packets, reads the qdisc's stats, unplugs it and
# records what vb received: so every packet's place in the queues, and the
# FIFO backlog it leaves with, is known exactly. trim_len is 96 bytes: the
# namespaces' own IPv6 chatter (MLD, ND: 72-76 bytes) is then control and
# never takes the FIFO places a scenario counts on. All scenarios run in one
# python3 (trimq.py batch) and are judged from one jq: each exec of either
# costs seconds on the KASAN kernel.
# Covers: stock tc adds the qdisc (under a prio qdisc), shows its stats and
# deletes it; defaults; bad options refused with a reason; as a child, its
# parent's backlog following the cuts; then as the root qdisc: overflow
# trims instead of dropping (length, DSCP, stale length fields, counters);
# trimmed and control packets overtake the FIFO; the priority queue's
# overflow drops and counts; ECN marks on the ramp between kmin and kmax
# and on every ECT packet above; high-water marks; fix_len on IPv4 and on
# SRv6 (outer header trimmed and marked, the inner one's DSCP kept); a GSO
# packet segmented; unload. No quick mode: it is short (54 s on the KASAN
# kernel under TCG, with kmemleak).
# shellcheck disable=SC2317 # helpers called through check
# shellcheck disable=SC2154 # a, b: setup_ns; the facts: facts (eval)
source "$(dirname "$0")/lib.sh"
require_root
require_tools jq tc
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TRIMQ=$REPO/tests/trimq/trimq.py
KO=$REPO/build/$(uname -r)/tests/trimq/sch_mrc_trim.ko
PY=$(command -v /usr/bin/python3 python3 | head -1)
[ -n "$PY" ] || { echo "# needs python3"; exit "$KSFT_SKIP"; }
[ -f "$KO" ] || modinfo sch_mrc_trim >/dev/null 2>&1 ||
	{ echo "# build the trimming qdisc first (tests/vm/kbuild)"; exit "$KSFT_SKIP"; }
modprobe -q veth
LOGS=$(mktemp -d /tmp/mrc_trimq.XXXXXX)

ktap_header 35
trap 'cleanup_ns; rm -rf "$LOGS"; rmmod sch_mrc_trim 2>/dev/null' EXIT
setup_ns a b
# one ip(8) a namespace (an exec costs ~0.3 s on the KASAN kernel). No
# link-local addresses: no DAD, no router solicitation, less MLD through
# the qdisc (what is left is shorter than trim_len: control). Permanent
# neighbours: no neighbour discovery through the plugged qdisc.
MACB=02:00:00:77:00:02
ip link add va netns "$a" type veth peer name vb netns "$b" address $MACB
ip -n "$a" -batch - <<-END
	addr add 10.77.0.1/24 dev va
	addr add fd77::1/64 dev va nodad
	link set va addrgenmode none up
	neigh replace fd77::2 lladdr $MACB dev va nud permanent
	neigh replace 10.77.0.2 lladdr $MACB dev va nud permanent
	route add fd79::2/128 encap seg6 mode encap segs fd77::2 dev va
END
ip -n "$b" -batch - <<-END
	addr add 10.77.0.2/24 dev vb
	addr add fd77::2/64 dev vb nodad
	link set vb addrgenmode none up
END

eq() { [ "$1" = "$2" ] || { echo "got '$1', want '$2'"; return 1; }; }

# on the wire (qdisc_pkt_len): 1062 bytes per 1000-byte UDP payload over
# IPv6, 1042 over IPv4, 1126 over SRv6 (outer header and a one-segment
# SRH); a trimmed header 110 (trim_len 96 and Ethernet)
P6=1062 P4=1042 PS=1126 PT=110

if [ -f "$KO" ]; then check "module loads" insmod "$KO"
else check "module loads" modprobe sch_mrc_trim; fi
# first as a child (of a prio qdisc that sends everything to band 1:1), to
# see that its parent's counts follow the cuts
netns "$a" tc qdisc add dev va root handle 1: prio bands 2 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
check "tc qdisc add (stock tc, no options: the defaults), under a prio qdisc" \
	netns "$a" tc qdisc add dev va parent 1:1 handle 10: mrc_trim
tcshow=$(netns "$a" tc -s qdisc show dev va)
# the namespace's MLD reports may already have passed through it
check "tc -s qdisc show lists it with its basic stats" \
	bash -c "[[ \$1 =~ 'qdisc mrc_trim 10: parent 1:1'.*'Sent '[0-9]+' bytes '[0-9]+' pkt (dropped 0,' ]]" _ "$tcshow"

# run NAME DST GROUP...: a scenario line of the batch
run() { echo "$1 run --dev va --rx-netns /run/netns/$b --rx-dev vb --idle $(tmo 1) --dst ${*:2}"; }
{
	echo "defaults qdisc show dev va"
	echo "r_kmin qdisc change dev va parent 1:1 kmin 5000 kmax 1000"
	echo "r_dscp qdisc change dev va parent 1:1 trim_dscp 64"
	echo "r_len qdisc change dev va parent 1:1 trim_len 39"
	echo "r_limit qdisc change dev va parent 1:1 limit 0"
	echo "r_plimit qdisc change dev va parent 1:1 prio_limit 0"
	echo "r_fix qdisc change dev va parent 1:1 fix_len 2"
	echo "after_refusals qdisc show dev va"
	# under prio: 10 in the FIFO, 20 trimmed
	echo "c0 qdisc change dev va parent 1:1 limit $((10 * P6)) prio_limit 100000 trim_len 96"
	run child fd77::2 --parent 1:1 30:1000:0
	echo "child_all qdisc show dev va all"
	# then as the root qdisc, added with the defaults
	echo "del qdisc del dev va"
	echo "add qdisc add dev va handle 1:"
	# overflow trims: a 10-packet FIFO, 30 packets
	echo "c1 qdisc change dev va limit $((10 * P6)) prio_limit 100000 trim_len 96"
	run trim fd77::2 30:1000:0
	# control packets overtake the FIFO: 10 data, then 3 of the control
	# DSCP (48) and 3 at trim_len (a 48-byte payload: 96 bytes)
	run ctrl fd77::2 10:1000:0 3:1000:192 3:48:0
	# the priority queue's overflow: room for 10 trimmed headers
	echo "c2 qdisc change dev va prio_limit $((10 * PT))"
	run prio fd77::2 30:1000:0
	echo "prio_show qdisc show dev va"
	# ECN: 10 not-ECT then 60 ECT(0) packets, all in the FIFO; packet i
	# leaves with 70 - i in it. kmin 20, kmax 40 packets.
	echo "c3 qdisc change dev va prio_limit 100000 limit 100000 kmin $((20 * P6)) kmax $((40 * P6))"
	run ecn fd77::2 10:1000:0 60:1000:2
	# fix_len over IPv4: 10 fit, 2 are trimmed
	echo "c4 qdisc change dev va limit $((10 * P4)) kmax 0 fix_len 1"
	run v4 10.77.0.2 12:1000:0
	# SRv6: trim_len 128 keeps the outer header, the SRH, the inner
	# headers and the sequence number
	echo "c5 qdisc change dev va limit $((10 * PS)) trim_len 128"
	run srv6 fd79::2 12:1000:8
	echo "c6 qdisc change dev va fix_len 0"
	run srv6s fd79::2 12:1000:8
	# a GSO packet of 30 segments (UDP_SEGMENT): segmented at enqueue,
	# each segment queued or trimmed on its own
	echo "c7 qdisc change dev va limit $((10 * P6)) trim_len 96"
	run gso fd77::2 30:1000:0:gso
} >"$LOGS/batch"
netns "$a" "$PY" "$TRIMQ" batch <"$LOGS/batch" >"$LOGS/out.json"
ktap_info "batch: $(jq -r '[to_entries[] | select(.value.rc != 0) | .key] | join(" ")' \
	"$LOGS/out.json") refused as expected"
# every fact of every scenario as a shell assignment, from one jq
facts='
def d($s): $s.after.xstats as $x | $s.before.xstats as $b |
	reduce ($x | keys[]) as $k ({}; .[$k] = $x[$k] - $b[$k]);
def cnt(f): [f] | length;
def seqs: map(.seq | tostring) | join(",");
(.defaults.out.options | tojson) as $defaults |
{
	defaults: $defaults, unchanged: (.after_refusals.out.options | tojson == $defaults),
	r_kmin: .r_kmin.err, r_dscp: .r_dscp.err, r_len: .r_len.err,
	r_limit: .r_limit.err, r_plimit: .r_plimit.err, r_fix: .r_fix.err,
	changes: ([.c0, .del, .add, .c1, .c2, .c3, .c4, .c5, .c6, .c7] | map(.rc) | add),
	prio_drops: .prio_show.out.stats.drops
} +
(.child.out as $s | d($s) as $d | $s.rx as $rx | {
	k_trimmed: $d.trimmed, k_cut: cnt($rx[] | select(.len == 96)),
	k_whole: cnt($rx[] | select(.len == 1048)),
	k_parent: ($s.plugged_all[] | select(.kind == "prio") | .stats.backlog),
	k_own: ($s.plugged_all[] | select(.kind == "mrc_trim") | .stats.backlog),
	k_left: (.child_all.out[] | select(.kind == "prio") | "\(.stats.qlen)/\(.stats.backlog)")}) +
(.gso.out as $s | d($s) as $d | $s.rx as $rx | {
	g_trimmed: $d.trimmed, g_n: ($rx | length),
	g_cut: cnt($rx[] | select(.len == 96 and .dscp == 46)),
	g_whole: cnt($rx[] | select(.len == 1048 and .dscp == 0)),
	g_backlog: $s.plugged.xstats.fifo_backlog}) +
(.trim.out as $s | d($s) as $d | $s.rx as $rx | {
	t_trimmed: $d.trimmed, t_dropped: $d.dropped, t_n: ($rx | length),
	t_cut: cnt($rx[] | select(.len == 96 and .dscp == 46)),
	t_whole: cnt($rx[] | select(.len == 1048 and .dscp == 0)),
	t_order: ($rx | seqs),
	t_stale: cnt($rx[] | select(.len == 96 and .plen == 1008 and .ulen == 1008)),
	t_backlog: $s.plugged.xstats.fifo_backlog, t_hiwat: $s.after.xstats.fifo_hiwat,
	t_phiwat: $s.after.xstats.prio_hiwat}) +
(.ctrl.out as $s | d($s) as $d | $s.rx as $rx | {
	c_trimmed: $d.trimmed, c_order: ($rx | seqs),
	c_uncut: cnt($rx[] | select((.seq < 13 and .len == 1048) or (.seq >= 13 and .len == 96))),
	c_dscp: ([$rx[] | select(.seq >= 10) | .dscp | tostring] | join(","))}) +
(.prio.out as $s | d($s) as $d | $s.rx as $rx | {
	p_trimmed: $d.trimmed, p_dropped: $d.dropped, p_pdropped: $d.prio_dropped,
	p_cut: cnt($rx[] | select(.len == 96)), p_whole: cnt($rx[] | select(.len == 1048))}) +
(.ecn.out as $s | d($s) as $d | $s.rx as $rx | {
	e_trimmed: $d.trimmed, e_marked: $d.marked, e_n: ($rx | length),
	e_ce: cnt($rx[] | select(.ecn == 3)),
	e_above: cnt($rx[] | select(.seq >= 10 and .seq <= 30 and .ecn != 3)),
	e_below: cnt($rx[] | select(.seq >= 50 and .ecn != 2)),
	e_ramp: ([$rx[] | select(.seq > 30 and .seq < 50) | .ecn] | unique | map(tostring) | join(",")),
	e_notect: cnt($rx[] | select(.seq < 10 and .ecn != 0))}) +
(.v4.out as $s | d($s) as $d | $s.rx as $rx | {
	v_trimmed: $d.trimmed, v_n: ($rx | length),
	v_fixed: cnt($rx[] | select(.len == 96 and .dscp == 46 and .plen == 96 and .ulen == 76 and .csum_ok)),
	v_whole: cnt($rx[] | select(.len == 1028 and .dscp == 0 and .plen == 1028 and .csum_ok))}) +
(.srv6.out as $s | d($s) as $d | $s.rx as $rx | {
	s_trimmed: $d.trimmed, s_n: ($rx | length),
	s_fixed: cnt($rx[] | select(.len == 128 and .dscp == 46 and .inner_dscp == 2 and
		.plen == 88 and .inner_plen == 24 and .ulen == 24)),
	s_whole: cnt($rx[] | select(.len == 1112 and .dscp == 2 and .inner_dscp == 2))}) +
(.srv6s.out.rx as $rx | {
	s_stale: cnt($rx[] | select(.len == 128 and .dscp == 46 and .plen == 1072 and
		.inner_plen == 1008 and .ulen == 1008))})
| to_entries[] | "\(.key)=\(.value | tostring | @sh)"'
eval "$(jq -r "$facts" "$LOGS/out.json")"
has() { [[ $1 == *"$2"* ]] || { echo "got '$1', want '*$2*'"; return 1; }; }

# -- defaults and bad options
check "defaults: no rate, limit 65536, prio_limit 16384, trim_len 256, trim_dscp 46, ctrl_dscp 48, no marking, stale lengths" \
	eq "$defaults" \
	'{"rate":0,"limit":65536,"prio_limit":16384,"trim_len":256,"trim_dscp":46,"ctrl_dscp":48,"kmin":0,"kmax":0,"fix_len":0}'
check "kmin above kmax refused: kmin must not exceed kmax" has "$r_kmin" "kmin must not exceed kmax"
check "trim_dscp 64 refused (out of range)" has "$r_dscp" "out of range"
check "trim_len 39, shorter than an IPv6 header, refused (out of range)" has "$r_len" "out of range"
check "limit 0 and prio_limit 0 refused (out of range)" \
	bash -c '[[ $1 == *"out of range"* && $2 == *"out of range"* ]]' _ "$r_limit" "$r_plimit"
check "fix_len 2 refused (out of range)" has "$r_fix" "out of range"
check "the refusals changed nothing; every valid change accepted" eq "$unchanged/$changes" true/0

# -- as a child
check "under prio: 20 of 30 trimmed, all arrive" eq "$k_trimmed/$k_cut/$k_whole" 20/20/10
check "the parent's backlog follows the cuts: $((10 * P6 + 20 * PT)) bytes while plugged, as its child's" \
	bash -c "[ $k_parent = $k_own ] && [ $k_own -ge $((10 * P6 + 20 * PT)) ]"
check "the parent is empty once the child drained" eq "$k_left" 0/0

# -- overflow trims
check "FIFO overflow trims instead of dropping: trimmed 20, dropped 0" \
	eq "$t_trimmed/$t_dropped" 20/0
check "all 30 arrive: 20 cut to trim_len 96 with DSCP 46, 10 whole with DSCP 0" \
	eq "$t_n/$t_cut/$t_whole" 30/20/10
check "trimmed headers overtake the FIFO (seq 10-29, then 0-9)" \
	eq "$t_order" "$(seq -s, 10 29),$(seq -s, 0 9)"
check "length fields left stale by default (IPv6 payload and UDP length 1008)" eq "$t_stale" 20
check "high-water marks: FIFO full ($((10 * P6)) bytes), 20 trimmed headers in the priority queue" \
	bash -c "[ $t_backlog = $((10 * P6)) ] && [ $t_hiwat = $((10 * P6)) ] && [ $t_phiwat -ge $((20 * PT)) ]"

# -- control packets
check "control packets (DSCP 48, or no longer than trim_len) overtake the FIFO" \
	eq "$c_order" "$(seq -s, 10 15),$(seq -s, 0 9)"
check "control packets are neither trimmed nor re-marked" \
	eq "$c_trimmed/$c_uncut/$c_dscp" 0/16/48,48,48,0,0,0

# -- the priority queue's overflow (the namespaces' chatter may take a place)
check "a full priority queue drops trimmed headers, counted (trimmed 20, dropped = prio_dropped, about 10)" \
	bash -c "[ $p_trimmed = 20 ] && [ $p_dropped = $p_pdropped ] && [ $p_pdropped -ge 9 ] && [ $p_pdropped -le 10 ]"
check "what it did not drop arrives: 10 whole, 20 - dropped trimmed" \
	eq "$p_whole/$p_cut" "10/$((20 - p_pdropped))"

# -- ECN
check "all 70 arrive, none trimmed" eq "$e_n/$e_trimmed" 70/0
check "every ECT packet leaving at or above kmax is marked CE" eq "$e_above" 0
check "no packet leaving at or below kmin is marked" eq "$e_below" 0
check "between kmin and kmax some are marked and some not" eq "$e_ramp" 2,3
check "not-ECT packets are never marked, even above kmax" eq "$e_notect" 0
check "the marked counter counts the CE packets received" \
	bash -c "[ $e_marked = $e_ce ] && [ $e_ce -ge 21 ]"

# -- IPv4 and SRv6
check "IPv4: trimmed with DSCP 46, total length, header checksum and UDP length fixed (fix_len 1)" \
	eq "$v_trimmed/$v_n/$v_fixed/$v_whole" 2/12/2/10
check "SRv6: trimmed to 128 bytes, outer DSCP 46, inner DSCP kept, every length fixed" \
	eq "$s_trimmed/$s_n/$s_fixed/$s_whole" 2/12/2/10
check "SRv6 with fix_len 0: both IPv6 payload lengths and the UDP length stale" eq "$s_stale" 2

# -- GSO
check "a GSO packet is segmented: 10 segments queued, 20 trimmed, all 30 arrive" \
	eq "$g_trimmed/$g_n/$g_cut/$g_whole/$g_backlog" "20/30/20/10/$((10 * P6))"

# -- stock tc, unload
tcdrops=$(netns "$a" tc -s qdisc show dev va)
check "tc -s qdisc show counts the drops ($prio_drops after the priority queue's overflow)" \
	has "$tcdrops" "(dropped $prio_drops,"
check "qdisc deleted" netns "$a" tc qdisc del dev va root
check "module unloads" rmmod sch_mrc_trim
ktap_finish
