#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SRv6 uSID lab fabric of fabric.sh, without mrc: 2 hosts x 2 planes x
# 2 T1 per plane.
#
#        t1-p<p>-0   t1-p<p>-1        plane p = 0, 1; uSIDs: T0 1<p>0<i>,
#            |  \   /  |              T1 2<p>0<j>, hosts e001 e002
#            |   \ /   |
#            |   / \   |
#        t0-p<p>-0   t0-p<p>-1
#            |           |
#        h1 p<p>     h2 p<p>          node addresses fd00::1, fd00::2 (plane 0)
#
# Covers: plane selection by output interface, node addresses over plane 0
# (ping, TCP), every path of fabric_paths h1 h2 (an IPv6-in-IPv6 packet to
# the uSID container leaves h1 by its plane, shows up at the path's T1 with
# the container shifted once and at h2 as fc00:0:e002::), every path of
# fabric_srh_paths h1 h2 (the same packet behind an SRH, walked by the
# switches' classic End SIDs, at h2 with no segment left), the link down/up
# and netem knobs, the description file, cleanup; and how long the demo
# size 2x4x2 takes to build (printed, not judged).
#
# MRC_QUICK=1: 3 packets per path instead of 5 (every path, knob and
# check as in the full run).
# shellcheck disable=SC2317 # send and send_srh run through capture()
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fabric.sh"
require_root
require_tools tcpdump python3 ping

ktap_header 48
TMPD=$(mktemp -d)
trap 'fabric_cleanup; rm -rf "$TMPD"' EXIT

elapsed() { awk -v a="$EPOCHREALTIME" -v b="$1" 'BEGIN { printf "%.1f", a - b }'; }

# -- build
t=$EPOCHREALTIME
if fabric_build 2 2 2; then
	ktap_pass "build 2 hosts x 2 planes x 2 T1"
	ktap_info "build time 2x2x2: $(elapsed "$t") s"
else
	ktap_fail "build 2 hosts x 2 planes x 2 T1"
	ktap_finish
fi
check "10 namespaces, one per node" \
	bash -c "[ \$(ip netns list | grep -c -- '-$FABRIC_ID\\b') = 10 ]"

# -- routing at the hosts
export -f fabric_on fabric_ns _fabric_parse _fabric_err
for p in 0 1; do
	check "h1: lookup of a plane-$p container with oif p$p leaves by p$p" \
		bash -c "fabric_on h1 ip -6 route get fc00:0:1${p}00:: oif p$p |
			grep -q 'via fe80::2 dev p$p src 2001:db8:$p:1::1 '"
done
check "h1: fd00::2 via plane 0, from node address fd00::1" \
	bash -c "fabric_on h1 ip -6 route get fd00::2 | grep -q 'via fe80::2 dev p0 src fd00::1 '"
check "h2 has no decapsulation route" \
	bash -c "! fabric_on h2 ip -6 route show table all | grep -q seg6"

# -- node addresses over plane 0
check "ping fd00::1 -> fd00::2" fabric_on h1 ping -6 -c 3 -i 0.2 -W 3 fd00::2
# shellcheck disable=SC2317 # called through check
tcp_echo() {
	fabric_on h2 timeout 60 python3 -c '
import socket
s = socket.create_server(("fd00::2", 7777), family=socket.AF_INET6)
c, a = s.accept()
c.sendall(("%s %s" % (a[0], c.recv(100).decode())).encode())
c.close()' &
	local srv=$! out
	# retry until the server listens
	out=$(fabric_on h1 python3 -c '
import socket, sys, time
for i in range(300):
    try:
        c = socket.create_connection(("fd00::2", 7777), timeout=5)
        break
    except ConnectionRefusedError:
        time.sleep(0.1)
c.sendall(b"hello")
print(c.recv(100).decode())')
	wait "$srv"
	[ "$out" = "fd00::1 hello" ] || { echo "got '$out'"; return 1; }
}
check "TCP fd00::1 -> fd00::2 (server sees source fd00::1)" tcp_echo

# -- uSID paths
mapfile -t PATHS < <(fabric_paths h1 h2)
check "fabric_paths h1 h2: P*S = 4 containers" bash -c "[ '${PATHS[*]}' = \
'0 fc00:0:1000:2000:1001:e002:: 0 fc00:0:1000:2001:1001:e002:: 1 fc00:0:1100:2100:1101:e002:: 1 fc00:0:1100:2101:1101:e002::' ]"

# send P CONTAINER N: N IPv6-in-IPv6 packets (inner: UDP fd00::1 -> fd00::2
# port 4791, as mrc sends) from h1 to CONTAINER, bound to h1's p<P>
send() {
	fabric_on h1 python3 -c '
import socket, struct, sys, time
dev, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pl = b"mrc fabric selftest"
udp = struct.pack("!HHHH", 4791, 4791, 8 + len(pl), 0) + pl
ip6 = struct.pack("!IHBB", 6 << 28, len(udp), 17, 64)
ip6 += socket.inet_pton(socket.AF_INET6, "fd00::1") + socket.inet_pton(socket.AF_INET6, "fd00::2")
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 41)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
for i in range(n):
    s.sendto(ip6 + udp, (dst, 0))
    time.sleep(0.05)' "p$1" "$2" "$3"
}

# send_srh P SEGS N: the same packets behind an SRH of SEGS (comma
# separated, first segment first), IPv6 next header 43 to the first segment
send_srh() {
	fabric_on h1 python3 -c '
import socket, struct, sys, time
dev, segs, n = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
pl = b"mrc fabric selftest"
udp = struct.pack("!HHHH", 4791, 4791, 8 + len(pl), 0) + pl
ip6 = struct.pack("!IHBB", 6 << 28, len(udp), 17, 64)
ip6 += socket.inet_pton(socket.AF_INET6, "fd00::1") + socket.inet_pton(socket.AF_INET6, "fd00::2")
k = len(segs)
srh = struct.pack("!BBBBBBH", 41, 2 * k, 4, k - 1, k - 1, 0, 0)
srh += b"".join(socket.inet_pton(socket.AF_INET6, a) for a in reversed(segs))
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 43)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
for i in range(n):
    s.sendto(srh + ip6 + udp, (segs[0], 0))
    time.sleep(0.05)' "p$1" "$2" "$3"
}

# cap_start NAME NODE DEV FILTER: tcpdump into $TMPD/NAME until cap_stop
declare -A CAP_PID
cap_start() {
	local f=$TMPD/$1
	ip netns exec "$(fabric_ns "$2")" timeout 60 tcpdump -l -nn -i "$3" "$4" >"$f" 2>"$f.err" &
	CAP_PID[$1]=$!
	wait_for 15 grep -q "listening on" "$f.err"
}
cap_stop() {
	kill "${CAP_PID[$1]}" 2>/dev/null
	wait "${CAP_PID[$1]}" 2>/dev/null
	return 0
}

if quick; then N=3; else N=5; fi
# capture P J WAIT H2_FILTER T1_FILTER CMD...: tcpdump at h2's p<P> (into
# $TMPD/h2) and at t1-p<P>-<J>'s d0 ($TMPD/t1) while CMD sends N packets,
# until all N are at h2 or WAIT s passed (not long when none will come)
capture() {
	local p=$1 j=$2 end
	cap_start h2 h2 "p$p" "$4"
	cap_start t1 "t1-p$p-$j" d0 "$5"
	"${@:6}"
	end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ] && [ "$(grep -c . "$TMPD/h2")" -lt $N ]; do nap 0.2; done
	cap_stop h2
	cap_stop t1
}

# run_path P J CONTAINER [WAIT]: send N packets along the path, wait up to
# WAIT s (default 10) for them at h2; sets AT_H2 (packets
# at h2's p<P> with outer DA fc00:0:e002:: from h1's plane-P address) and
# AT_T1 (at t1-p<P>-<J>, from t0-p<P>-0, with the container shifted once)
run_path() {
	local p=$1 j=$2 c=$3 shifted
	shifted=fc00:0:${c#fc00:0:*:}		# drop the first uSID
	capture "$p" "$j" "${4:-10}" "ip6 dst fc00:0:e002:: and ip6 proto 41" \
		"ip6 dst $shifted and ip6 proto 41" send "$p" "$c" $N
	AT_H2=$(grep -c "IP6 2001:db8:$p:1::1 > fc00:0:e002::: IP6 fd00::1.4791 > fd00::2.4791: UDP" "$TMPD/h2")
	AT_T1=$(grep -c "IP6 2001:db8:$p:1::1 > $shifted: IP6 fd00::1.4791 > fd00::2.4791: UDP" "$TMPD/t1")
	ktap_info "$c: at h2 $AT_H2 of $N, at t1-p$p-$j $AT_T1"
}

for path in "${PATHS[@]}"; do
	p=${path%% *} c=${path#* }
	j=$(($(printf '%d' "0x$(cut -d: -f4 <<<"$c")") - 0x2000 - p * 0x100))
	run_path "$p" "$j" "$c"
	check "plane $p via t1-p$p-$j: $c arrives at h2 p$p as fc00:0:e002::" \
		[ "$AT_H2" -ge $((N - 1)) ]
	check "plane $p via t1-p$p-$j: t1 sees it shifted to fc00:0:${c#fc00:0:*:}" \
		[ "$AT_T1" -ge $((N - 1)) ]
done

# -- the same paths as SRH segment lists (classic End at every switch)
mapfile -t SRH < <(fabric_srh_paths h1 h2)
check "fabric_srh_paths h1 h2: P*S = 4 segment lists" bash -c "[ '${SRH[0]}' = \
'0 fc00:0:1000::1,fc00:0:2000::1,fc00:0:1001::1,2001:db8:0:2::1' ] && [ ${#SRH[@]} = 4 ]"
for path in "${SRH[@]}"; do
	p=${path%% *} segs=${path#* }
	IFS=, read -r _ t1 _ last <<<"$segs"
	j=$(($(printf '%d' "0x$(cut -d: -f3 <<<"$t1")") - 0x2000 - p * 0x100))
	capture "$p" "$j" 10 "ip6 dst $last and ip6 proto 43" \
		"ip6 dst $t1 and ip6 proto 43" send_srh "$p" "$segs" $N
	AT_H2=$(grep -c "IP6 2001:db8:$p:1::1 > $last: RT6 (.*segleft=0.*) IP6 fd00::1.4791 > fd00::2.4791: UDP" "$TMPD/h2")
	AT_T1=$(grep -c "IP6 2001:db8:$p:1::1 > $t1: RT6 (.*segleft=2.*) IP6 fd00::1.4791 > fd00::2.4791: UDP" "$TMPD/t1")
	ktap_info "srh $segs: at h2 $AT_H2 of $N, at t1-p$p-$j $AT_T1"
	check "srh plane $p via t1-p$p-$j: arrives at h2 p$p as $last, no segment left" \
		[ "$AT_H2" -ge $((N - 1)) ]
	check "srh plane $p via t1-p$p-$j: t1 sees DA $t1, 2 segments left" \
		[ "$AT_T1" -ge $((N - 1)) ]
done

# -- knobs, on the path plane 0 via t1-p0-1
C01=${PATHS[1]#* } C00=${PATHS[0]#* }
L=t0-p0-0:t1-p0-1
check "fabric_link_ends $L" bash -c "[ '$(fabric_link_ends $L)' = 't0-p0-0 u1 t1-p0-1 d0' ]"
routes() { # NODE...: their IPv6 routes, sorted (link up may reorder them)
	local n
	for n; do fabric_on "$n" ip -6 route | sed "s/^/$n: /"; done | sort
}
routes_before=$(routes t0-p0-0 t1-p0-1)
fabric_link_down $L
check "link $L down: both ends down" bash -c "
	fabric_on t0-p0-0 ip link show u1 | grep -q 'state DOWN' &&
	fabric_on t1-p0-1 ip link show d0 | grep -q 'state DOWN'"
run_path 0 1 "$C01" 2
check "link $L down: its path delivers nothing" [ "$AT_H2" = 0 ]
run_path 0 0 "$C00"
check "link $L down: plane 0 via t1-p0-0 still delivers" [ "$AT_H2" -ge $((N - 1)) ]
check "fabric_link_up $L" fabric_link_up $L
check "link up: both ends' routes as before" diff -u <(echo "$routes_before") <(routes t0-p0-0 t1-p0-1)
run_path 0 1 "$C01"
check "link $L up: its path delivers again" [ "$AT_H2" -ge $((N - 1)) ]

check "netem loss 100% on $L" fabric_netem $L loss 100%
run_path 0 1 "$C01" 2
check "netem loss 100%: its path delivers nothing" [ "$AT_H2" = 0 ]
fabric_netem_clear $L
run_path 0 1 "$C01"
check "netem cleared: its path delivers again" [ "$AT_H2" -ge $((N - 1)) ]

# a host link flap: the node address (mrc's GID) stays, the rest comes back
routes_before=$(routes h1 t0-p0-0)
fabric_link_down h1-p0
check "link h1-p0 down: h1 keeps its node address" \
	bash -c "fabric_on h1 ip -6 addr show dev p0 | grep -q 'inet6 fd00::1/128'"
fabric_link_up h1-p0
check "link h1-p0 up: h1's and t0-p0-0's routes as before" \
	diff -u <(echo "$routes_before") <(routes h1 t0-p0-0)
check "link h1-p0 up: ping fd00::1 -> fd00::2 again" fabric_on h1 ping -6 -c 3 -i 0.2 -W 3 fd00::2

rtt_min() { # prints the minimum RTT of a few pings h1 -> h2, in ms
	fabric_on h1 ping -6 -c 3 -i 0.2 -W 3 fd00::2 | sed -n 's|^rtt [^=]*= \([0-9.]*\)/.*|\1|p'
}
fabric_netem h1-p0 delay 30ms
rtt=$(rtt_min)
# a lower bound that netem guarantees: a slow machine only adds to it
ktap_info "ping RTT with netem delay 30ms on both ends: ${rtt:-?} ms"
check "netem delay 30ms on h1-p0 (both ends): ping RTT >= 60 ms" \
	awk -v r="${rtt:-0}" 'BEGIN { exit !(r >= 60) }'
fabric_netem_clear h1-p0
check_fails "link knobs refuse an unknown link" fabric_link_down t0-p0-0:t1-p1-0

# -- description file
fabric_write_desc "$TMPD/desc"
check "fabric_write_desc" diff -u - <(grep -v '^#' "$TMPD/desc") <<'EOF'
block fc00:0::/32
planes 2
t0 0 1000 1001
t1 0 2000 2001
t0 1 1100 1101
t1 1 2100 2101
host h1 node fd00::1 t0 0 usid e001 plane 0 addr 2001:db8:0:1::1 plane 1 addr 2001:db8:1:1::1
host h2 node fd00::2 t0 1 usid e002 plane 0 addr 2001:db8:0:2::1 plane 1 addr 2001:db8:1:2::1
EOF

MRCCTL=$(cd "$(dirname "$0")/../../tools/mrcctl" && pwd)/mrcctl
if [ -x "$MRCCTL" ]; then
	check "mrcctl fabric show: h1's containers are fabric_paths h1 h2" diff -u <(fabric_paths h1 h2) \
		<("$MRCCTL" fabric show "$TMPD/desc" host h1 | sed -n 's/.* plane \([0-9]*\) usid \([^ ]*\).*/\1 \2/p')
else
	ktap_skip "mrcctl fabric show cross-check (build mrcctl first)"
fi

# -- cleanup
check_fails "a second fabric_build is refused" fabric_build 2 2 2
id=$FABRIC_ID
fabric_cleanup
check "fabric_cleanup removes every namespace" bash -c "! ip netns list | grep -q -- '-$id\\b'"
check "fabric_cleanup again is harmless" fabric_cleanup

# -- the demo size
FABRIC_ID=${id}d
t=$EPOCHREALTIME
if fabric_build 2 4 2; then
	secs=$(elapsed "$t")
	ktap_pass "build 2 hosts x 4 planes x 2 T1 (demo size)"
	ktap_info "build time 2x4x2: $secs s (18 namespaces, 24 links)"
else
	ktap_fail "build 2 hosts x 4 planes x 2 T1 (demo size)"
fi
c=$(fabric_paths h2 h1 | tail -1)
cap_start h1 h1 p3 "ip6 dst fc00:0:e001:: and ip6 proto 41"
fabric_on h2 python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 41)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"p3")
for i in range(3): s.sendto(bytes(40), (sys.argv[1], 0))' "${c#* }"
wait_for 10 grep -q . "$TMPD/h1"
cap_stop h1
check "2x4x2: h2 -> h1 on plane 3 via t1-p3-1 (${c#* })" grep -q 'IP6 2001:db8:3:2::1 > fc00:0:e001::' "$TMPD/h1"
t=$EPOCHREALTIME
fabric_cleanup
ktap_info "cleanup 2x4x2: $(elapsed "$t") s"

ktap_finish
