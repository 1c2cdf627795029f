#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrcctl against test-nlmock.so, a stand-in for the kernel's "mrc" family:
# what mrcctl sends (attributes), how it prints replies (text, JSON, stats
# table) and kernel errors (extack, exit 1). Runs on any host: no module,
# no root. The real family is tested by tests/selftests/mrcctl.sh in the VM.
#
#   make -C tools/mrcctl check      (or: [ MRCCTL=PATH ] ./test-mock.sh)

source "$(dirname "$0")/test-lib.sh"
MOCK=$tmp/test-nlmock.so
# shellcheck disable=SC2046
${CC:-cc} -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 -fPIC -shared \
	-I"$dir/../../include/uapi" $(pkg-config --cflags libmnl) -o "$MOCK" \
	"$dir/test-nlmock.c" $(pkg-config --libs libmnl) || exit 1
export LD_PRELOAD=$MOCK MOCK_LOG=$tmp/log

# sent DESC WANT -- ARGS...: mrcctl ARGS succeeds and sends exactly WANT
# (test-nlmock.c's log: "cmd=N [dump] ATTR=VALUE...", one line a request)
sent() {
	local desc=$1
	[ -z "$2" ] && : >"$tmp/want-log" || printf '%s\n' "$2" >"$tmp/want-log"
	shift 3
	: >"$MOCK_LOG"
	"$MRCCTL" "$@" >/dev/null 2>"$tmp/err" || { not_ok "$desc" "$(cat "$tmp/err")"; return; }
	if diff -u "$tmp/want-log" "$MOCK_LOG" >"$tmp/diff"; then
		ok "$desc"
	else
		not_ok "$desc" "$(cat "$tmp/diff")"
	fi
}

json_same() { # ARGS...: -j and -j -p print the same, valid JSON
	[ "$("$MRCCTL" -j "$@" | jq -c .)" = "$("$MRCCTL" -j -p "$@" | jq -c .)" ]
}

# the checks below pipe mrcctl -j into jq -e: empty input must fail them
check "jq -e: empty input fails (tests/selftests/jq.sh)" \
	bash -c "! printf '' | jq -e true && ! jq -e true /dev/null && echo 1 | jq -e true"

# ---- show -------------------------------------------------------------
expect_lines "dev show: planes, evs, then qps and qp_mem" \
"mrc0: index 3 netdev lo state ACTIVE node_guid 0200:aaff:fe00:0001 planes 2 evs 16 qps 3 qp_mem 4096
mrc1: index 4 netdev lo state ACTIVE node_guid 0200:aaff:fe00:0002 planes 2 evs 16 qps 4 qp_mem 5000000000" -- dev show
check "dev show -j: planes, evs, qps, qp_mem" bash -c \
	"'$MRCCTL' -j dev show mrc1 | jq -e '.[0] | .dev == \"mrc1\" and .planes == 2 and .evs == 16 and .qps == 4 and .qp_mem == 5000000000'"

expect_lines "plane show: one line a plane, 8-byte counters" \
"mrc0 plane 0 netdev lo state UP admin up tx 123 pkts 5000000000 bytes rx 12 pkts 3456 bytes retrans 0 lost 0 admin_drops 0 down_lost 0
mrc0 plane 1 ifindex 999999 state DOWN admin up tx 123 pkts 5000000000 bytes rx 12 pkts 3456 bytes retrans 0 lost 1 admin_drops 0 down_lost 5" -- \
	plane show dev mrc0
check "plane show -j: keys" bash -c \
	"'$MRCCTL' -j plane show | jq -e 'length == 4 and .[0] == {dev: \"mrc0\", plane: 0, netdev: \"lo\",
	state: \"UP\", admin: \"up\", tx_packets: 123, tx_bytes: 5000000000, rx_packets: 12,
	rx_bytes: 3456, retrans: 0, losses: 0, rx_admin_drops: 0, down_lost: 0}'"
sent "plane show dev: a filtered dump" "cmd=3 dump 2=mrc0" -- plane show dev mrc0
expect_lines "plane show: a plane's source prefixes after allow, IPv4 as such" \
"mrc1 plane 0 netdev lo state UP admin up tx 123 pkts 5000000000 bytes rx 12 pkts 3456 bytes retrans 0 lost 0 admin_drops 0 down_lost 0
mrc1 plane 1 ifindex 999999 state ADMIN_DOWN admin down tx 123 pkts 5000000000 bytes rx 12 pkts 3456 bytes retrans 0 lost 1 admin_drops 7 down_lost 5 allow 2001:db8:1::/48,10.1.0.0/16" -- \
	plane show dev mrc1
check "plane show -j: an admin-down plane" bash -c \
	"'$MRCCTL' -j plane show dev mrc1 | jq -e '.[1].state == \"ADMIN_DOWN\" and .[1].admin == \"down\" and .[1].rx_admin_drops == 7 and .[0].admin == \"up\"'"
check "plane show -j: allow, a list only where there is one" bash -c \
	"'$MRCCTL' -j plane show dev mrc1 | jq -e '.[0].allow == null and .[1].allow == [\"2001:db8:1::/48\", \"10.1.0.0/16\"]'"
sent "plane show: one dump of all" "cmd=3 dump" -- plane show

expect_lines "path show dev: usid, udp and srh lines" \
"mrc1 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: path 3 tx 100 pkts 409600 bytes
mrc1 peer fd00::2 plane 0 udp remote 2001:db8:0:2::1 path 0 tx 100 pkts 409600 bytes
mrc1 peer fd00::2 plane 1 srh fc00:0:1100::1,fc00:0:2100::1,2001:db8:1:2::1 remote 2001:db8:1:2::1 path 4 tx 100 pkts 409600 bytes" -- \
	path show dev mrc1
check "path show -j: mode, usid, remote" bash -c \
	"'$MRCCTL' -j path show dev mrc0 | jq -e '.[0].mode == \"usid\" and
	.[0].usid == \"fc00:0:1100:2100:1101:e002::\" and (.[0] | has(\"remote\") | not) and
	.[1].mode == \"udp\" and .[1].remote == \"2001:db8:0:2::1\" and .[1].path == 0'"
check "path show -j: srh mode, segs an array, first segment first" bash -c \
	"'$MRCCTL' -j path show dev mrc0 | jq -e '.[2] | .mode == \"srh\" and
	.segs == [\"fc00:0:1100::1\", \"fc00:0:2100::1\", \"2001:db8:1:2::1\"] and
	.remote == \"2001:db8:1:2::1\" and .path == 4 and (has(\"usid\") | not)'"
sent "path show dev peer: filtered dump" "cmd=6 dump 2=mrc0 3=fd00::2" -- \
	path show dev mrc0 peer fd00:0::2
sent "path show: one dump of all devices" "cmd=6 dump" -- path show
sent "path show peer: one dump, filtered" "cmd=6 dump 3=fd00::2" -- path show peer fd00::2

expect_lines "ev show: the device from the request; slot, \"slot -\" out of the rotation" \
"mrc0 qpn 17 ev 5 value 0x1230a064 plane 1 path 3 state GOOD slot 2 tx 10 pkts 40960 bytes retrans 0 lost 0 ecn 7 trims 0 penalty 0 probes 0 srtt 25us
mrc0 qpn 17 ev 6 value 0x1230a065 plane 1 path 3 state ASSUMED_BAD slot - tx 10 pkts 40960 bytes retrans 0 lost 0 ecn 7 trims 3 penalty 1 probes 5000000000 srtt 50us" -- \
	ev show dev mrc0 qpn 17
MOCK_OLD_EV=1 expect_lines "ev show: a kernel without slot, probes, srtt, trims, penalty: no \"slot -\"" \
"mrc0 qpn 17 ev 5 value 0x1230a064 plane 1 path 3 state GOOD tx 10 pkts 40960 bytes retrans 0 lost 0 ecn 7
mrc0 qpn 17 ev 6 value 0x1230a065 plane 1 path 3 state ASSUMED_BAD tx 10 pkts 40960 bytes retrans 0 lost 0 ecn 7" -- \
	ev show dev mrc0 qpn 17
sent "ev show: dev and qpn" "cmd=9 dump 2=mrc0 3=17" -- ev show qpn 17 dev mrc0
check "ev show -j: value as a hex string" bash -c \
	"'$MRCCTL' -j ev show dev mrc0 qpn 17 | jq -e '.[1] | .dev == \"mrc0\" and .ev == 6 and
	.value == \"0x1230a065\" and .state == \"ASSUMED_BAD\" and .ecn == 7'"
check "ev show -j: slot, trims, penalty, probes, srtt_us; no slot out of the rotation" bash -c \
	"'$MRCCTL' -j ev show dev mrc0 qpn 17 | jq -e '.[0] == {dev: \"mrc0\", qpn: 17, ev: 5,
	value: \"0x1230a064\", plane: 1, path: 3, state: \"GOOD\", slot: 2, tx_packets: 10,
	tx_bytes: 40960, retrans: 0, losses: 0, ecn: 7, trims: 0, penalty: 0, probes: 0,
	srtt_us: 25} and (.[1] | (has(\"slot\") | not) and .trims == 3 and .penalty == 1 and
	.probes == 5000000000 and .srtt_us == 50)'"

check "stats: the plane table" bash -c \
	"'$MRCCTL' stats dev mrc0 | grep -Eq '^mrc0 +0 +lo +UP +123 +5000000000 +12 +3456 +0 +0$'"
check "stats: the path table" bash -c \
	"'$MRCCTL' stats dev mrc0 | grep -Eq '^mrc0 +fd00::2 +0 +0 +udp +100 +409600$'"
check "stats: an srh path's mode" bash -c \
	"'$MRCCTL' stats dev mrc0 | grep -Eq '^mrc0 +fd00::2 +1 +4 +srh +100 +409600$'"
sent "stats dev: two dumps" "cmd=3 dump 2=mrc0
cmd=6 dump 2=mrc0" -- stats dev mrc0
check "stats -j: planes and paths" bash -c \
	"'$MRCCTL' -j stats | jq -e '(.planes | length) == 4 and (.paths | length) == 6'"
for cmd in "dev show" "plane show" "path show" "ev show dev mrc0 qpn 1" "stats"; do
	# shellcheck disable=SC2086
	check "-j -p $cmd: valid, same as -j" json_same $cmd
done

# ---- changes ------------------------------------------------------------
sent "dev set" "cmd=2 2=mrc0 6=64" -- dev set mrc0 evs 64
sent "cc show dev DEV qpn N: one QP's state" "cmd=17 2=mrc0 20=7" -- cc show dev mrc0 qpn 7
expect "cc show qpn N without dev: refused, nothing sent" 2 /dev/null \
	'mrcctl: cc show: missing "dev"' -- cc show qpn 7
sent "dev set: the trimming DSCPs" "cmd=2 2=mrc0 8=40 9=41" -- \
	dev set mrc0 trim_dscp 40 trim_lasthop_dscp 41
sent "dev set: no last-hop DSCP (64)" "cmd=2 2=mrc0 9=64" -- \
	dev set mrc0 trim_lasthop_dscp none
expect "dev set trim_dscp 64: refused, nothing sent" 2 /dev/null \
	'invalid trim_dscp "64" (0..63)' -- dev set mrc0 trim_dscp 64
expect "dev set trim_lasthop_dscp 64: refused, nothing sent" 2 /dev/null \
	'invalid trim_lasthop_dscp "64" (0..63 or none)' -- dev set mrc0 trim_lasthop_dscp 64
sent "plane add: ifindex, id" "cmd=4 2=mrc0 4=1 3=3" -- plane add dev mrc0 netdev lo id 3
sent "plane add without id" "cmd=4 2=mrc0 4=1" -- plane add netdev lo dev mrc0
sent "plane set allow: IPv6 and IPv4 prefixes, a bare address" \
	"cmd=14 2=mrc0 3=1 12=2001:db8:1::/48 12=::ffff:10.1.0.0/112 12=fd00::2/128" -- \
	plane set dev mrc0 plane 1 allow 2001:db8:1::/48,10.1.0.0/16,fd00::2
sent "plane set allow any: no prefix" "cmd=14 2=mrc0 3=0" -- plane set dev mrc0 id 0 allow any
for bad in "2001:db8::/129" "10.0.0.0/33" "nonsense/8" "10.0.0.0/" "" \
	"$(printf '10.0.0.%d,' $(seq 1 17))"; do
	expect "plane set allow \"${bad:0:20}\": refused, nothing sent" 2 /dev/null "plane set" -- \
		plane set dev mrc0 id 1 allow "$bad"
done
expect "plane set without allow or admin: refused" 2 /dev/null 'nothing to set (allow or admin)' -- \
	plane set dev mrc0 id 1
sent "plane set admin down: admin 0, no prefix" "cmd=14 2=mrc0 3=1 13=0" -- plane set dev mrc0 id 1 admin down
sent "plane set admin up" "cmd=14 2=mrc0 3=1 13=1" -- plane set dev mrc0 plane 1 admin up
sent "plane set allow and admin: both in one request" \
	"cmd=14 2=mrc0 3=1 12=2001:db8:1::/48 13=0" -- plane set dev mrc0 id 1 allow 2001:db8:1::/48 admin down
expect "plane set admin sideways: refused, nothing sent" 2 /dev/null 'admin is up or down, not "sideways"' -- \
	plane set dev mrc0 id 1 admin sideways
expect "plane set allow any with admin: refused, nothing sent" 2 /dev/null "allow any and admin in two commands" -- \
	plane set dev mrc0 id 1 allow any admin up
expect "plane set with id and plane: refused" 2 /dev/null "same argument" -- \
	plane set dev mrc0 id 1 plane 1 allow any
expect "plane add of a missing netdev: exit 1, nothing sent" 1 /dev/null \
	'mrcctl: Error: no such netdev "nosuch0"' -- plane add dev mrc0 netdev nosuch0
expect "plane del of a missing netdev: exit 1" 1 /dev/null \
	'mrcctl: Error: no such netdev "nosuch0"' -- plane del dev mrc0 netdev nosuch0
sent "plane del id" "cmd=5 2=mrc0 3=2" -- plane del dev mrc0 id 2
sent "plane del netdev" "cmd=5 2=mrc0 4=1" -- plane del dev mrc0 netdev lo
sent "path add usid remote" "cmd=7 2=mrc0 3=fd00::2 4=1 7=fc00:0:1100:2100:1101:e002:: 6=2001:db8::1" -- \
	path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: remote 2001:db8::1
sent "path add remote (udp)" "cmd=7 2=mrc0 3=fd00::2 4=0 6=2001:db8::1" -- \
	path add dev mrc0 peer fd00::2 plane 0 remote 2001:db8::1
sent "path del: a peer" "cmd=8 2=mrc0 3=fd00::2" -- path del dev mrc0 peer fd00::2
sent "path del: a plane" "cmd=8 2=mrc0 3=fd00::2 4=2" -- path del dev mrc0 peer fd00::2 plane 2
sent "path del: one path" "cmd=8 2=mrc0 3=fd00::2 4=2 6=::1" -- \
	path del dev mrc0 peer fd00::2 plane 2 remote ::1

# ---- ev deny / allow: MRC_CMD_EV_SET (12), state DENIED (3) or GOOD (0) ----
sent "ev deny: EV_SET, state DENIED" "cmd=12 2=mrc0 3=17 4=5 8=3" -- \
	ev deny dev mrc0 qpn 17 index 5
sent "ev allow: EV_SET, state GOOD" "cmd=12 2=mrc0 3=17 4=255 8=0" -- \
	ev allow index 255 qpn 17 dev mrc0
sent "ev deny: \"ev I\" is \"index I\"" "cmd=12 2=mrc1 3=16777215 4=0 8=3" -- \
	ev deny dev mrc1 qpn 16777215 ev 0
expect "ev deny: prints nothing" 0 /dev/null "" -- ev deny dev mrc0 qpn 17 index 5
MOCK_ERR="22:EV index out of range" expect "ev allow: the kernel's message, exit 1" 1 /dev/null \
	"mrcctl: Error: mrc0: EV index out of range (Invalid argument)" -- \
	ev allow dev mrc0 qpn 17 index 200
: >"$MOCK_LOG"
expect "ev deny: no index" 2 /dev/null 'mrcctl: ev deny: missing "index"' -- \
	ev deny dev mrc0 qpn 17
expect "ev allow: no qpn" 2 /dev/null 'mrcctl: ev allow: missing "qpn"' -- \
	ev allow dev mrc0 index 5
expect "ev deny: no dev" 2 /dev/null 'mrcctl: ev deny: missing "dev"' -- \
	ev deny qpn 17 index 5
expect "ev deny: index and ev" 2 /dev/null \
	'mrcctl: ev deny: "index" and "ev" are the same argument, give one' -- \
	ev deny dev mrc0 qpn 17 index 5 ev 5
expect "ev deny: index 256" 2 /dev/null 'mrcctl: ev deny: invalid index "256" (0..255)' -- \
	ev deny dev mrc0 qpn 17 index 256
expect "ev allow: ev -1" 2 /dev/null 'mrcctl: ev allow: invalid ev "-1" (0..255)' -- \
	ev allow dev mrc0 qpn 17 ev -1
expect "ev deny: qpn too big" 2 /dev/null 'mrcctl: ev deny: invalid qpn "16777216"' -- \
	ev deny dev mrc0 qpn 16777216 index 5
expect "ev deny: missing value" 2 /dev/null 'mrcctl: ev deny: missing value after "index"' -- \
	ev deny dev mrc0 qpn 17 index
expect "ev allow: unknown argument" 2 /dev/null 'mrcctl: ev allow: unknown argument "state"' -- \
	ev allow dev mrc0 qpn 17 index 5 state GOOD
expect "ev: unknown command" 2 /dev/null 'mrcctl: ev: unknown command "frob"' -- \
	ev frob dev mrc0 qpn 17 index 5
check "ev usage errors: nothing sent" test ! -s "$MOCK_LOG"

# ---- EV format profiles and exp/gen EV profiles: ev-fmt-get (24), ev-fmt-set
# (25), ev-profile-get (20), ev-profile-set (21), ev-set (12) and ev-get (9) by
# a profile's EV. Attributes (the "ev" set): 23 profile-id, 24 profile-state,
# 25 profile-mode, 26 profile-count, 30 fmt-id, 31 fmt-mode, 32 fmt-width,
# 34 field {1 width, 2 init-val, 3 min-val, 4 max-val, 5 mask}, 35 entry
# {2 ev-bytes, 3 port, 4 state, 5 new-bytes, 6 new-port, 7 all-copies},
# 36 entries, 37 ev-bytes (HEX/LEN: test-nlmock.c's log)
expect_lines "ev fmt show: a line a format profile, widths in order, none before they are set" \
"mrc0 fmt 3 online users 1 mode srv6 widths 32,16,80
mrc0 fmt 4 offline users 0 mode stev" -- ev fmt show dev mrc0
check "ev fmt show -j: id, state, users, mode, widths an array of numbers" bash -c \
	"'$MRCCTL' -j ev fmt show dev mrc0 | jq -e '. == [{dev: \"mrc0\", id: 3, state: \"online\",
	users: 1, mode: \"srv6\", widths: [32, 16, 80]}, {dev: \"mrc0\", id: 4, state: \"offline\",
	users: 0, mode: \"stev\"}]'"
sent "ev fmt show dev: a dump of the device" "cmd=24 dump 2=mrc0" -- ev fmt show dev mrc0
sent "ev fmt show: a dump of all" "cmd=24 dump" -- ev fmt list
sent "ev fmt show id: a get of fmt-id (u64)" "cmd=24 2=mrc0 30=3" -- ev fmt show dev mrc0 id 3
expect_lines "ev fmt show id: that one" "mrc0 fmt 3 online users 1 mode srv6 widths 32,16,80" -- \
	ev fmt show dev mrc0 id 3
expect "ev fmt show id of a format in init: the kernel's ENOENT, exit 1" 1 /dev/null \
	"mrcctl: Error: mrc0: EV format profile 8 is in init (No such file or directory)" -- \
	ev fmt show dev mrc0 id 8

expect_lines "ev profile show: an exp or gen profile's fmt and fields, as ev profile set takes them" \
"mrc0 profile 9 online qps 1 mode auto count 8 min_active 2 events assumed_bad
mrc0 profile 5 online qps 0 mode exp count 4 min_active 1 events good,assumed_bad fmt 3 field 16:0:0:0:0xffff field 16:0:0:0:0xffff
mrc0 profile 6 offline qps 0 mode gen count 8 fmt 4 field 8:16:1:4:0x7 field 8:254:0:0:0x0" -- \
	ev profile show dev mrc0
check "ev profile show -j: fmt, fields an array of objects (exp, gen), mask in hex; none for auto" bash -c \
	"'$MRCCTL' -j ev profile show dev mrc0 | jq -e '(.[0] | has(\"fields\") or has(\"fmt\") | not) and
	.[1].fmt == 3 and .[1].fields == [{width: 16, init: 0, min: 0, max: 0, mask: \"0xffff\"},
	{width: 16, init: 0, min: 0, max: 0, mask: \"0xffff\"}] and
	.[2].fields[0] == {width: 8, init: 16, min: 1, max: 4, mask: \"0x7\"} and
	(.[1] | has(\"entries\") | not)'"
sent "ev profile show: no entries flag without entries" "cmd=20 dump 2=mrc0" -- ev profile show dev mrc0
sent "ev profile show id entries: a get with the entries flag" "cmd=20 2=mrc0 23=5 36=" -- \
	ev profile show dev mrc0 id 5 entries
sent "ev profile show entries id: the flag anywhere" "cmd=20 2=mrc0 23=5 36=" -- \
	ev profile show entries dev mrc0 id 5
expect_lines "ev profile show entries: a line a place, EV without its zero bytes, - unpopulated" \
"mrc0 profile 5 online qps 0 mode exp count 4 min_active 1 events good,assumed_bad fmt 3 field 16:0:0:0:0xffff field 16:0:0:0:0xffff
    entry 0 ev c0011234 port 1 state GOOD
    entry 1 ev c0025678 port 2 state DENIED
    entry 2 ev - port 0 state GOOD
    entry 3 ev 00 port 1 state GOOD" -- ev profile show dev mrc0 id 5 entries
check "ev profile show -j entries: entry, all 32 ev_bytes, port, state" bash -c \
	"'$MRCCTL' -j ev profile show dev mrc0 id 5 entries | jq -e 'length == 1 and (.[0].entries | length == 4) and
	.[0].entries[0] == {entry: 0, ev_bytes: \"c001123400000000000000000000000000000000000000000000000000000000\",
	port: 1, state: \"GOOD\"} and .[0].entries[2] == {entry: 2, ev_bytes: \"$(printf '0%.0s' {1..64})\",
	port: 0, state: \"GOOD\"} and .[0].entries[1].state == \"DENIED\" and (.[0].fields | length == 2)'"
check "ev profile show -j -p entries: valid, the same as -j" json_same ev profile show dev mrc0 id 5 entries
check "ev profile show entries: 256 places in one 17 KB reply" bash -c \
	"'$MRCCTL' ev profile show dev mrc0 id 7 entries >'$tmp/big' && [ \$(wc -l <'$tmp/big') = 257 ] &&
	tail -1 '$tmp/big' | grep -qx '    entry 255 ev 0aff port 2 state GOOD'"
sent "ev profile show entries without id: a dump, then a get of each with entries" \
"cmd=20 dump 2=mrc0
cmd=20 2=mrc0 23=9 36=
cmd=20 2=mrc0 23=5 36=
cmd=20 2=mrc0 23=6 36=" -- ev profile show dev mrc0 entries
check "ev profile show -j entries without id: one array, entries of each (empty: none)" bash -c \
	"'$MRCCTL' -j ev profile show entries | jq -e 'length == 6 and [.[].dev] == [\"mrc0\", \"mrc0\", \"mrc0\",
	\"mrc1\", \"mrc1\", \"mrc1\"] and [.[].entries | length] == [0, 4, 0, 0, 4, 0]'"
MOCK_ERR="19:no such device" expect "ev profile show entries, the dump fails: exit 1, JSON still an array" 1 \
	<(echo "[]") "mrcctl: Error: mrc0: no such device" -- -j ev profile show dev mrc0 entries
expect "ev profile show id of a profile in init: the kernel's ENOENT" 1 /dev/null \
	"mrcctl: Error: mrc0: EV profile 8 is in init" -- ev profile show dev mrc0 id 8 entries

sent "ev fmt set: state, mode, then the widths in order" "cmd=25 2=mrc0 30=3 24=1 31=1 32=32 32=16 32=80" -- \
	ev fmt set dev mrc0 id 3 widths 32,16,80 mode srv6 state offline
sent "ev fmt set: mode udp, one width" "cmd=25 2=mrc1 30=18446744073709551615 31=2 32=16" -- \
	ev fmt set dev mrc1 id 0xffffffffffffffff mode udp widths 16
sent "ev fmt set: state online" "cmd=25 2=mrc0 30=3 24=2" -- ev fmt set dev mrc0 id 3 state online
sent "ev fmt set: state init" "cmd=25 2=mrc0 30=3 24=0" -- ev fmt set dev mrc0 id 3 state init
sent "ev fmt set: 16 widths of 1..128" "cmd=25 2=mrc0 30=4 32=128 $(printf '32=1 %.0s' {1..14})32=128" -- \
	ev fmt set dev mrc0 id 4 widths "128,$(printf '1,%.0s' {1..14})128"
MOCK_ERR="22:widths add up to 40 bits, more than stev's 32" expect "ev fmt set: the kernel's reason, exit 1" 1 \
	/dev/null "mrcctl: Error: mrc0: widths add up to 40 bits, more than stev's 32 (Invalid argument)" -- \
	ev fmt set dev mrc0 id 4 widths 20,20 state online

sent "ev profile set exp: mode 1, fmt-id, two fields (nests, in order)" \
	"cmd=21 2=mrc0 23=5 24=1 25=1 26=4 30=3 34={1=16 2=0 3=0 4=0 5=65535} 34={1=8 2=255 3=0 4=0 5=15}" -- \
	ev profile set dev mrc0 id 5 state offline mode exp count 4 fmt 3 field 16:0:0:0:0xffff field 8:0xff:0:0:0xF
sent "ev profile set gen: mode 2, fields decimal or hex" \
	"cmd=21 2=mrc0 23=6 25=2 30=4 34={1=8 2=16 3=1 4=4 5=7} 34={1=32 2=4294967295 3=0 4=0 5=0}" -- \
	ev profile set dev mrc0 id 6 field 8:16:1:4:7 mode gen field 32:0xffffffff:0:0:0 fmt 4
sent "ev profile set: replace - (unpopulated: zero bytes, port 0) by an EV on port 1" \
	"cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=c0011234/32 6=1}" -- \
	ev profile set dev mrc0 id 5 replace - c0011234@1
sent "ev profile set: replacements in order; 0@0 is -, denied (state 3), all (flag), 0x" \
	"cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=c002/32 6=2 4=3 7=} 35={2=c0011234/32 3=1 5=0a/32 6=16 4=3} 35={2=0a/32 3=16 5=ff/32 6=3 7=}" -- \
	ev profile set dev mrc0 id 5 replace 0@0 c002@2 denied all replace 0xC0011234@1 0a@16 denied \
	replace 0a@16 ff@3 all
sent "ev profile set: HEX is the EV's first bits, an odd digit the high half of a byte" \
	"cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=abc0/32 6=1}" -- ev profile set dev mrc0 id 5 replace - abc@1
sent "ev profile set: 64 hex digits, all 32 bytes" \
	"cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=$(printf '1%.0s' {1..64})/32 6=1}" -- \
	ev profile set dev mrc0 id 5 replace - "$(printf '1%.0s' {1..64})@1"
sent "ev profile set: with the rest, the replacements last" \
	"cmd=21 2=mrc0 23=5 24=2 27=1 28=2 35={2=00/32 3=0 5=01/32 6=1}" -- \
	ev profile set dev mrc0 id 5 replace - 01@1 state online min_active 1 events assumed_bad
# a request larger than a page: 256 replacements
check "ev profile set: 256 replacements in one request" bash -c \
	": >'$MOCK_LOG' && '$MRCCTL' ev profile set dev mrc0 id 7 $(for i in $(seq 0 255); do printf 'replace - 0a%02x@1 ' "$i"; done) &&
	grep -o '35={[^}]*}' '$MOCK_LOG' | wc -l | grep -qx 256 && grep -q '5=0aff/32 6=1}\$' '$MOCK_LOG'"
MOCK_ERR="2:replacement 1: no place holds c002@2" expect "ev profile set: the kernel's replacement error, exit 1" 1 \
	/dev/null "mrcctl: Error: mrc0: replacement 1: no place holds c002@2 (No such file or directory)" -- \
	ev profile set dev mrc0 id 5 replace - c001@1 replace c002@2 c003@2

sent "ev set profile ev: profile-id, 32 ev-bytes, plane, state DENIED" "cmd=12 2=mrc0 23=5 37=c0025678/32 6=1 8=3" -- \
	ev set dev mrc0 profile 5 ev c0025678 plane 1 state denied
sent "ev set profile value (auto): profile-id, value, plane, state GOOD" "cmd=12 2=mrc0 23=9 5=3288858629 6=1 8=0" -- \
	ev set state good plane 1 value 0xc4080005 profile 9 dev mrc0
sent "ev set qpn index: as ev deny" "cmd=12 2=mrc0 3=17 4=5 8=3" -- ev set dev mrc0 qpn 17 index 5 state denied
expect "ev set: prints nothing" 0 /dev/null "" -- ev set dev mrc0 profile 5 ev c0025678 plane 1 state denied
MOCK_ERR="2:no EV c0025678 on port 2 in EV profile 5" expect "ev set profile ev: the kernel's ENOENT, exit 1" 1 \
	/dev/null "mrcctl: Error: mrc0: no EV c0025678 on port 2 in EV profile 5 (No such file or directory)" -- \
	ev set dev mrc0 profile 5 ev c0025678 plane 1 state denied
sent "ev show profile ev: a dump of profile-id, ev-bytes, plane" "cmd=9 dump 2=mrc0 23=5 37=c0025678/32 6=1" -- \
	ev show dev mrc0 profile 5 ev c0025678 plane 1
sent "ev show profile value: a dump of profile-id, value, plane" "cmd=9 dump 2=mrc0 23=9 5=3288858629 6=1" -- \
	ev show dev mrc0 profile 9 value 3288858629 plane 1
expect_lines "ev show profile ev: a line a QP, the entry its EV was made from" \
"mrc0 qpn 17 ev 2 value 0xc0025678 plane 1 entry 1 state DENIED tx 0 pkts 0 bytes
mrc0 qpn 18 ev 0 value 0xc0025678 plane 1 entry 1 state DENIED tx 0 pkts 0 bytes" -- \
	ev show dev mrc0 profile 5 ev c0025678 plane 1
check "ev show -j profile ev: entry" bash -c \
	"'$MRCCTL' -j ev show dev mrc0 profile 5 ev c0025678 plane 1 | jq -e '[.[].entry] == [1, 1] and .[1].qpn == 18'"

# usage errors: exit 2, nothing sent
: >"$MOCK_LOG"
while IFS='|' read -r args err; do
	# shellcheck disable=SC2086 # $args: the words
	expect "usage: ${args:0:60}" 2 /dev/null "$err" -- $args
done <<'EOF'
ev fmt set dev mrc0 id 3|mrcctl: ev fmt set: nothing to set
ev fmt set dev mrc0 id 0 state online|mrcctl: ev fmt set: invalid id "0" (1 .. 2^64 - 1)
ev fmt set dev mrc0 id 3 mode vxlan|mrcctl: ev fmt set: invalid mode "vxlan" (stev, srv6 or udp)
ev fmt set dev mrc0 id 3 state up|mrcctl: ev fmt set: invalid state "up" (init, offline or online)
ev fmt set dev mrc0 id 3 widths 0|mrcctl: ev fmt set: invalid width "0" (1..128 bits)
ev fmt set dev mrc0 id 3 widths 16,129|mrcctl: ev fmt set: invalid width "129" (1..128 bits)
ev fmt set dev mrc0 id 3 widths 16,,16|mrcctl: ev fmt set: invalid width "" (1..128 bits)
ev fmt set dev mrc0 id 3 widths 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1|mrcctl: ev fmt set: more than 16 widths
ev fmt set id 3 state online|mrcctl: ev fmt set: missing "dev"
ev fmt set dev mrc0 state online|mrcctl: ev fmt set: missing "id"
ev fmt show id 3|mrcctl: ev fmt show: missing "dev"
ev fmt frob|mrcctl: ev fmt: unknown command "frob"
ev profile set dev mrc0 id 5 mode foo|mrcctl: ev profile set: invalid mode "foo" (auto, exp or gen)
ev profile set dev mrc0 id 5 fmt 0|mrcctl: ev profile set: invalid fmt "0" (1 .. 2^64 - 1)
ev profile set dev mrc0 id 5 field 33:0:0:0:1|mrcctl: ev profile set: invalid field "33:0:0:0:1" (WIDTH:INIT:MIN:MAX:MASK, width 1..32)
ev profile set dev mrc0 id 5 field 0:0:0:0:1|invalid field "0:0:0:0:1"
ev profile set dev mrc0 id 5 field 16:0:0:0|invalid field "16:0:0:0"
ev profile set dev mrc0 id 5 field 16:0:0:0:1:2|invalid field "16:0:0:0:1:2"
ev profile set dev mrc0 id 5 field 16:x:0:0:1|invalid field "16:x:0:0:1"
ev profile set dev mrc0 id 5 field 16:0:0:0:0x100000000|invalid field "16:0:0:0:0x100000000"
ev profile set dev mrc0 id 5 field|mrcctl: ev profile set: missing value after "field"
ev profile set dev mrc0 id 5 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1 field 1:0:0:0:1|mrcctl: ev profile set: more than 16 fields
ev profile set dev mrc0 id 5 replace -|mrcctl: ev profile set: replace needs the EV replaced and its replacement (OLDHEX@PORT NEWHEX@PORT)
ev profile set dev mrc0 id 5 replace - -|mrcctl: ev profile set: invalid replace EV "-" (HEX@PORT: 1 to 64 hex digits, port 1..16)
ev profile set dev mrc0 id 5 replace - ab@0|invalid replace EV "ab@0" (HEX@PORT: 1 to 64 hex digits, port 1..16)
ev profile set dev mrc0 id 5 replace - @1|invalid replace EV "@1"
ev profile set dev mrc0 id 5 replace ab ab@1|invalid replace EV "ab" (HEX@PORT: 1 to 64 hex digits, port 0..16; - for an unpopulated place)
ev profile set dev mrc0 id 5 replace ab@17 ab@1|invalid replace EV "ab@17"
ev profile set dev mrc0 id 5 replace zz@1 ab@1|invalid replace EV "zz@1"
ev profile set dev mrc0 id 5 replace - 0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@1|invalid replace EV "0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@1"
ev profile set dev mrc0 id 5 replace - ab@1 denied denied|mrcctl: ev profile set: unknown argument "denied"
ev profile set dev mrc0 id 5|mrcctl: ev profile set: nothing to set
ev profile show dev mrc0 entries entries|mrcctl: ev profile show: "entries" given twice
ev profile show id 5 entries|mrcctl: ev profile show: missing "dev"
ev set dev mrc0 profile 5 ev zz plane 1 state denied|mrcctl: ev set: invalid ev "zz" (1 to 64 hex digits, the EV's first bits first)
ev set dev mrc0 profile 5 ev ab state denied|mrcctl: ev set: missing "plane"
ev set dev mrc0 profile 5 ev ab value 1 plane 1 state denied|mrcctl: ev set: give value V (an auto profile's EV) or ev HEX (an exp or gen profile's)
ev set dev mrc0 profile 5 plane 1 state denied|mrcctl: ev set: give value V
ev set dev mrc0 profile 5 ev ab plane 1|mrcctl: ev set: missing "state"
ev set dev mrc0 profile 5 ev ab plane 1 state bad|mrcctl: ev set: invalid state "bad" (good or denied)
ev set dev mrc0 profile 5 ev ab plane 16 state good|mrcctl: ev set: invalid plane "16" (0..15)
ev set dev mrc0 profile 5 value 0x123456789 plane 1 state good|mrcctl: ev set: invalid value "0x123456789" (32 bits, decimal or 0x hex)
ev set dev mrc0 qpn 1 ev 5 state denied|mrcctl: ev set: value, ev and plane name an EV of a profile, not of a QP
ev set dev mrc0 qpn 1 state denied|mrcctl: ev set: missing "index"
ev set dev mrc0 qpn 1 profile 5 index 1 state denied|mrcctl: ev set: give qpn N index I, or profile ID with value V or ev HEX and plane N
ev set dev mrc0 profile 5 index 1 ev ab plane 1 state good|mrcctl: ev set: index names an EV of a QP, not of a profile
ev set profile 5 ev ab plane 1 state good|mrcctl: ev set: missing "dev"
ev show dev mrc0|mrcctl: ev show: give qpn N, or profile ID with value V or ev HEX and plane N
ev show dev mrc0 qpn 1 plane 1|mrcctl: ev show: value, ev and plane name an EV of a profile, not of a QP
ev show dev mrc0 profile x ev ab plane 1|mrcctl: ev show: invalid profile "x" (1 .. 2^64 - 1)
ev show dev mrc0 profile 5 ev ab plane 1 index 2|mrcctl: ev show: unknown argument "index"
EOF
check "EV format and profile usage errors: nothing sent" test ! -s "$MOCK_LOG"
check "help: ev fmt, ev set, ev profile set's exp and gen" bash -c \
	"'$MRCCTL' help | grep -q '^mrcctl ev fmt set dev DEV id F ' &&
	'$MRCCTL' help | grep -q '^mrcctl ev set dev DEV { qpn N index I | profile ID EV_OF plane N } state { good | denied }$' &&
	'$MRCCTL' help | grep -q 'mode { auto | exp | gen }' && '$MRCCTL' help | grep -q 'replace { OLD@PORT | - } NEW@PORT'"
for cmd in "ev fmt show" "ev profile show" "ev profile show dev mrc0 id 5 entries" \
	"ev show dev mrc0 profile 5 ev c0025678 plane 1"; do
	# shellcheck disable=SC2086
	check "-j -p $cmd: valid, same as -j" json_same $cmd
done

# ---- srh paths: MRC_A_PATH_SEGS (13), 16 bytes a segment, first first ----
sent "path add srh: the segment list" \
	"cmd=7 2=mrc0 3=fd00::2 4=1 13=fc00:0:1100::1,fc00:0:2100::1,2001:db8:1:2::1" -- \
	path add dev mrc0 peer fd00::2 plane 1 srh fc00:0:1100::1,fc00:0:2100::1,2001:db8:1:2::1
sent "path add srh: one segment" "cmd=7 2=mrc0 3=fd00::2 4=0 13=2001:db8::1" -- \
	path add dev mrc0 peer fd00::2 plane 0 srh 2001:db8:0:0::1
sent "path add segs (= srh): 6 segments, with remote" \
	"cmd=7 2=mrc0 3=fd00::2 4=1 13=fc00::1,fc00::2,fc00::3,fc00::4,fc00::5,fc00::6 6=2001:db8::1" -- \
	path add dev mrc0 peer fd00::2 plane 1 remote 2001:db8::1 segs fc00::1,fc00::2,fc00::3,fc00::4,fc00::5,fc00::6
sent "path del: one srh path" "cmd=8 2=mrc0 3=fd00::2 4=1 13=fc00::1,fc00::2" -- \
	path del dev mrc0 peer fd00::2 plane 1 srh fc00::1,fc00::2
: >"$MOCK_LOG"
expect "path add srh: 7 segments" 2 /dev/null "mrcctl: path add: srh: 7 segments, at most 6" -- \
	path add dev mrc0 peer fd00::2 plane 1 srh fc00::1,fc00::2,fc00::3,fc00::4,fc00::5,fc00::6,fc00::7
expect "path add srh: a bad address" 2 /dev/null 'mrcctl: path add: srh: invalid IPv6 address "fc00::zz"' -- \
	path add dev mrc0 peer fd00::2 plane 1 srh fc00::1,fc00::zz
expect "path add segs: an IPv4 address" 2 /dev/null 'mrcctl: path add: segs: invalid IPv6 address "10.0.0.1"' -- \
	path add dev mrc0 peer fd00::2 plane 1 segs 10.0.0.1
expect "path add srh: an empty segment" 2 /dev/null 'mrcctl: path add: srh: empty segment in "fc00::1,"' -- \
	path add dev mrc0 peer fd00::2 plane 1 srh fc00::1,
expect "path add: srh and usid" 2 /dev/null "mrcctl: path add: give usid CONTAINER or srh SEGS, not both" -- \
	path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: srh fc00::1
expect "path add: srh and segs" 2 /dev/null 'mrcctl: path add: "srh" and "segs" are the same argument' -- \
	path add dev mrc0 peer fd00::2 plane 1 srh fc00::1 segs fc00::1
expect "path del: srh and remote" 2 /dev/null \
	"mrcctl: path del: give usid CONTAINER, srh SEGS or remote ADDR, not two" -- \
	path del dev mrc0 peer fd00::2 plane 1 srh fc00::1 remote ::1
expect "path del: srh without plane" 2 /dev/null 'mrcctl: path del: "srh" needs "plane N"' -- \
	path del dev mrc0 peer fd00::2 srh fc00::1
check "srh usage errors: nothing sent" test ! -s "$MOCK_LOG"

# ---- kernel errors --------------------------------------------------------
export MOCK_ERR="22:uSID container has a hole"
expect "do: extack, exit 1" 1 /dev/null "mrcctl: Error: mrc0: uSID container has a hole (Invalid argument)" -- \
	path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100::2100
expect "dump: the error in NLMSG_DONE, exit 1" 1 /dev/null "mrcctl: Error: mrc0: uSID container has a hole" -- \
	ev show dev mrc0 qpn 3
check "dump error with -j: still a JSON array" bash -c \
	"'$MRCCTL' -j ev show dev mrc0 qpn 3 2>/dev/null | jq -e '. == []'"
MOCK_ERR=1 expect "no extack: strerror only" 1 /dev/null "mrcctl: Error: mrc0: Operation not permitted" -- \
	dev set mrc0 evs 8
unset MOCK_ERR
expect "unknown device: the kernel's message" 1 /dev/null "mrcctl: Error: nosuch: no such mrc device (No such device)" -- \
	plane show dev nosuch

# ---- monitor: test-nlmock.c's notifications when the config group is
# joined, then those of the ev group
mon_config="plane dev mrc0 plane 1 netdev lo UP
path dev mrc1 peer fd00::3 changed
plane dev mrc0 plane 1 ifindex 999999 DOWN
plane dev mrc0 plane 2 REMOVED
path dev mrc0 peer fd00::2 changed"
mon_all="$mon_config
ev dev mrc0 qpn 17 ev 5 value 0xc4080005 plane 1 path 2 GOOD -> ASSUMED_BAD (loss) backup 133
ev dev mrc1 qpn 18 ev 133 value 0xc40bc085 plane 1 path 2 ASSUMED_BAD -> GOOD (probe)
ev dev mrc0 qpn 17 ev 6 value 0xc0040006 plane 0 path 1 GOOD -> DENIED (deny)
ev dev mrc0 qpn 19 ev 1 value 0xc0025678 plane 1 entry 1 ev_bytes c0025678 GOOD -> DENIED (deny) profile 5"
expect_lines "monitor: a line an event, unknown commands skipped; an exp profile's EV: entry, ev_bytes" \
	"$mon_all" -- monitor count 9
sent "monitor: joins the config and ev groups, sends nothing" "join=7
join=8" -- monitor count 1
expect_lines "monitor count: stops after N" "$(head -2 <<<"$mon_all")" -- monitor count 2
expect_lines "monitor dev: that device's events" "$(grep 'dev mrc0' <<<"$mon_all")" -- \
	monitor dev mrc0 count 7
MOCK_NO_EV_MCGRP=1 expect_lines "monitor: a kernel without the ev group: config events only" \
	"$mon_config" -- monitor count 5
MOCK_NO_EV_MCGRP=1 sent "monitor: a kernel without the ev group: joins config only" "join=7" -- \
	monitor count 1
MOCK_EV_EPERM=1 expect "monitor without CAP_NET_ADMIN: says so, config events only" 0 \
	<(printf '%s\n' "$mon_config") "EV changes need CAP_NET_ADMIN; showing plane and path" -- \
	monitor count 5
cat >"$tmp/mon-ev.json" <<'EOF'
{"event":"ev","dev":"mrc0","qpn":17,"ev":5,"value":"0xc4080005","plane":1,"path":2,"old_state":"GOOD","state":"ASSUMED_BAD","cause":"loss","backup":133,"time_ns":1700000000123456789}
{"event":"ev","dev":"mrc1","qpn":18,"ev":133,"value":"0xc40bc085","plane":1,"path":2,"old_state":"ASSUMED_BAD","state":"GOOD","cause":"probe","time_ns":1700000001000000000}
{"event":"ev","dev":"mrc0","qpn":17,"ev":6,"value":"0xc0040006","plane":0,"path":1,"old_state":"GOOD","state":"DENIED","cause":"deny","time_ns":1700000002000000000}
{"event":"ev","dev":"mrc0","qpn":19,"ev":1,"value":"0xc0025678","plane":1,"entry":1,"ev_bytes":"c002567800000000000000000000000000000000000000000000000000000000","old_state":"GOOD","state":"DENIED","cause":"deny","profile":5,"time_ns":1700000003000000000}
EOF
check "monitor -j: ev events: old_state, state, cause, backup if any, time_ns; entry, all 32 ev_bytes" bash -c \
	"'$MRCCTL' -j monitor count 9 | tail -4 | diff -u '$tmp/mon-ev.json' -"
check "monitor -j: ev events are valid JSON" bash -c \
	"'$MRCCTL' -j monitor count 9 | jq -s -e '[.[] | select(.event == \"ev\")] | length == 4 and
	(.[0] | .backup == 133 and .time_ns == 1700000000123456789) and (.[1] | has(\"backup\") | not)'"
expect_lines "monitor -j: an object a line" \
'{"event":"plane","dev":"mrc0","plane":1,"netdev":"lo","state":"UP"}
{"event":"path","dev":"mrc1","peer":"fd00::3"}
{"event":"plane","dev":"mrc0","plane":1,"ifindex":999999,"state":"DOWN"}
{"event":"plane","dev":"mrc0","plane":2,"state":"REMOVED"}
{"event":"path","dev":"mrc0","peer":"fd00::2"}' -- -j monitor count 5
expect_lines "monitor -j -p: still an object a line" \
	'{"event":"plane","dev":"mrc0","plane":1,"netdev":"lo","state":"UP"}' -- -j -p monitor count 1
check "monitor -j: valid JSON" bash -c \
	"'$MRCCTL' -j monitor count 5 | jq -s -e 'length == 5 and
	.[3] == {event: \"plane\", dev: \"mrc0\", plane: 2, state: \"REMOVED\"}'"

# mon_signal SIG: without count, the events are flushed as they come and SIG
# ends monitor with 0
mon_signal() {
	local desc="monitor: flushed lines, SIG$1 exits 0" pid rc
	"$MRCCTL" monitor >"$tmp/mon" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 50); do
		[ "$(wc -l <"$tmp/mon")" = 9 ] && break
		sleep 0.1
	done
	kill -"$1" "$pid"
	wait "$pid" && rc=0 || rc=$?
	if [ "$rc" != 0 ]; then
		not_ok "$desc" "exit $rc" "$(cat "$tmp/err")"
	elif [ "$(cat "$tmp/mon")" != "$mon_all" ]; then
		not_ok "$desc" "got:" "$(cat "$tmp/mon")"
	else
		ok "$desc"
	fi
}
mon_signal TERM
mon_signal INT
MOCK_NO_MCGRP=1 expect "monitor: no config group, exit 1" 1 /dev/null \
	'mrcctl: Error: the "mrc" family has no "config" multicast group' -- monitor
expect "monitor count 0: a usage error" 2 /dev/null 'mrcctl: monitor: invalid count "0"' -- \
	monitor count 0
expect "monitor: unknown argument" 2 /dev/null 'mrcctl: monitor: unknown argument "peer"' -- \
	monitor peer fd00::2
check "help: srh and monitor" bash -c \
	"'$MRCCTL' help | grep -q 'srh SEGS' && '$MRCCTL' help | grep -q '^mrcctl monitor'"
check "help: ev deny and allow" bash -c \
	"'$MRCCTL' help | grep -q '^mrcctl ev { deny | allow } dev DEV qpn N index I$'"

# ---- fabric load ------------------------------------------------------------
cat >"$tmp/f" <<'EOF'
block fc00:0::/32
planes 2
t0 0 1000 1001
t0 1 1100 1101
t1 0 2000 2001
t1 1 2100
host a node fd00::1 t0 0 usid e001
host b node fd00::2 t0 1 usid e002 plane 1 addr 2001:db8:1:2::1
host c node fd00::3 t0 1 usid e003
EOF
sent "fabric load: one path add a path" \
"cmd=7 2=mrc0 3=fd00::2 4=0 7=fc00:0:1000:2000:1001:e002::
cmd=7 2=mrc0 3=fd00::2 4=0 7=fc00:0:1000:2001:1001:e002::
cmd=7 2=mrc0 3=fd00::2 4=1 7=fc00:0:1100:2100:1101:e002:: 6=2001:db8:1:2::1
cmd=7 2=mrc0 3=fd00::3 4=0 7=fc00:0:1000:2000:1001:e003::
cmd=7 2=mrc0 3=fd00::3 4=0 7=fc00:0:1000:2001:1001:e003::
cmd=7 2=mrc0 3=fd00::3 4=1 7=fc00:0:1100:2100:1101:e003::" -- fabric load "$tmp/f" dev mrc0 host a
expect_lines "fabric load: summary" "loaded 6 paths to 2 peers" -- fabric load "$tmp/f" dev mrc0 host a
expect_lines "fabric load -j: summary object" '{"paths":6,"peers":2}' -- -j fabric load "$tmp/f" dev mrc0 host a
sent "fabric load -n: nothing sent" "" -- fabric load "$tmp/f" dev mrc0 host a -n
: >"$MOCK_LOG"
MOCK_ERR="17:path exists" MOCK_FAIL_AT=3 expect "fabric load: a kernel error stops the load" 1 /dev/null \
	'mrcctl: Error: "path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: remote 2001:db8:1:2::1": path exists (File exists)' -- \
	fabric load "$tmp/f" dev mrc0 host a
check "fabric load: says how many were added" grep -qx "mrcctl: 2 of 6 paths were added before the error" "$tmp/err"
check "fabric load: nothing sent after the error" bash -c "[ \$(wc -l <'$MOCK_LOG') = 3 ]"

# ---- probe: MRC_CMD_EP_PROBE (20), then one ep-probe-ntf a probe --------
# (test-nlmock.c: answered, but even request ids with timeout 1 ms; the end
# of id 1 comes before its ack)
sent "probe: peer, request id, timeout in ns (default 1 s)" \
"cmd=22 2=mrc0 3=fd00::2 7=1 9=1000000000" -- probe dev mrc0 peer fd00::2
sent "probe: plane, path, dscp, count: one request a probe" \
"cmd=22 2=mrc0 3=fd00::2 4=1 5=3 8=46 7=1 9=250000000
cmd=22 2=mrc0 3=fd00::2 4=1 5=3 8=46 7=2 9=250000000" -- \
	probe dev mrc0 peer fd00::2 plane 1 path 3 dscp 46 count 2 timeout 250
sent "probe: an IPv4 peer as a v4-mapped GID, ev in hex" \
"cmd=22 2=mrc0 3=::ffff:10.0.0.2 6=3221295666 7=1 9=1000000000" -- \
	probe dev mrc0 peer 10.0.0.2 ev 0xc0011232
expect_lines "probe: one line a probe, RTT and the peer's plane" \
"mrc0 probe 1 peer fd00::2 plane 1 rtt 1.234 ms arrival_plane 1 service 2.500 us ev 0xc0011234" -- \
	probe dev mrc0 peer fd00::2 plane 1
expect "probe: a probe not answered: its line says timeout, exit 1" 1 "" \
	"3 probes, 2 answered" -- probe dev mrc0 peer 10.0.0.2 count 3 timeout 1
check "probe: ... and the lines in the order the ends came" bash -c \
	"'$MRCCTL' probe dev mrc0 peer 10.0.0.2 count 3 timeout 1 2>/dev/null |
	awk '{print \$3, \$5, \$NF}' | paste -sd, | grep -qx '1 10.0.0.2 0xc0011234,2 10.0.0.2 timeout,3 10.0.0.2 0xc0011234'"
check "probe -j: status, rtt_ns, arrival_plane, service_ns, peer_ev" bash -c \
	"'$MRCCTL' -j probe dev mrc0 peer fd00::2 count 2 timeout 1 | jq -e 'length == 2 and
	.[0] == {dev: \"mrc0\", probe: 1, peer: \"fd00::2\", plane: 0, status: \"answered\",
	rtt_ns: 1234567, arrival_plane: 0, service_ns: 2500, peer_ev: \"0xc0011234\"} and
	.[1] == {dev: \"mrc0\", probe: 2, peer: \"fd00::2\", plane: 0, status: \"timeout\"}'"
check "probe -j -p: the same JSON" json_same probe dev mrc0 peer fd00::2 count 2 timeout 1
: >"$MOCK_LOG"
expect "probe: path and ev: a usage error" 2 /dev/null "path and ev exclude each other" -- \
	probe dev mrc0 peer fd00::2 path 1 ev 0xc0000001
expect "probe: an ev of UDP source port 0: a usage error" 2 /dev/null "invalid ev" -- \
	probe dev mrc0 peer fd00::2 ev 0x1234
expect "probe: count 257: a usage error" 2 /dev/null "invalid count" -- \
	probe dev mrc0 peer fd00::2 count 257
expect "probe: no peer: a usage error" 2 /dev/null "peer" -- probe dev mrc0
expect "probe: a bad peer address: a usage error" 2 /dev/null "invalid peer address" -- \
	probe dev mrc0 peer fd00::x
check "probe usage errors: nothing sent" test ! -s "$MOCK_LOG"
MOCK_ERR="11:too many probes outstanding" expect "probe: a kernel error: its message, exit 1" 1 \
	/dev/null "mrcctl: Error: mrc0: too many probes outstanding (Resource temporarily unavailable)" -- \
	probe dev mrc0 peer fd00::2

# ---- dev add and dev del: RDMA netlink (rdma cmd=3 NEWLINK, 4 DELLINK;
# attributes 1 dev index, 2 dev name, 51 netdev name, 65 link type) --------
MOCK_NO_FAMILY=1 sent "dev add without the module: straight to newlink, which loads it" \
	"rdma cmd=3 2=mrc5 65=mrc 51=lo" -- dev add mrc5 netdev lo
MOCK_DEV_IFINDEX=999998 sent "dev add: no such device, the netdev no plane: newlink" \
"cmd=1 2=mrc5
cmd=3 dump
rdma cmd=3 2=mrc5 65=mrc 51=lo" -- dev add mrc5 netdev lo
: >"$MOCK_LOG"
expect "dev add: a netdev that is a plane: says whose, exit 1" 1 /dev/null \
	"mrcctl: Error: dev add mrc5 netdev lo: lo is plane 0 of mrc0" -- dev add mrc5 netdev lo
check "dev add: ... and no newlink sent" bash -c "! grep -q rdma '$MOCK_LOG'"
expect "dev add: the device exists: an error without apply" 1 /dev/null \
	"mrcctl: Error: dev add mrc0: it exists (on netdev lo)" -- dev add mrc0 netdev lo
MOCK_DEV_IFINDEX=999999 expect "dev add: the device exists on another netdev: says which" 1 /dev/null \
	"mrcctl: Error: dev add mrc0 netdev lo: mrc0 exists on netdev ifindex 999999" -- \
	dev add mrc0 netdev lo
MOCK_NO_FAMILY=1 MOCK_RDMA_ERR=16 expect "dev add: EBUSY from newlink: why" 1 /dev/null \
	"mrcctl: Error: dev add mrc5 netdev lo: the netdev carries an rxe device, or is a bridge, bond or macvlan port (Device or resource busy)" -- \
	dev add mrc5 netdev lo
MOCK_NO_FAMILY=1 MOCK_RDMA_ERR=22 expect "dev add: EINVAL without the module: the module is missing" 1 /dev/null \
	'no "mrc" RDMA link type: the mrc module is not installed (modprobe mrc) (Invalid argument)' -- \
	dev add mrc5 netdev lo
MOCK_DEV_IFINDEX=999998 MOCK_RDMA_ERR=22 expect "dev add: EINVAL with the module: not Ethernet" 1 /dev/null \
	"the netdev is not an Ethernet device (VLAN devices cannot be planes) (Invalid argument)" -- \
	dev add mrc5 netdev lo
MOCK_DEV_IFINDEX=999998 MOCK_RDMA_ERR=17 expect "dev add: EEXIST: another RDMA device of that name" 1 /dev/null \
	"another RDMA device has that name (see rdma dev show) (File exists)" -- dev add mrc5 netdev lo
: >"$MOCK_LOG"
expect "dev add: no such netdev, exit 1" 1 /dev/null 'mrcctl: Error: no such netdev "mrcctl-nosuch"' -- \
	dev add mrc5 netdev mrcctl-nosuch
expect "dev add without netdev: usage" 2 /dev/null 'dev add: missing "netdev"' -- dev add mrc5
expect "dev add without DEV: usage" 2 /dev/null 'dev add: missing DEV' -- dev add netdev lo
expect "dev add: a name with %: usage" 2 /dev/null 'dev add: invalid device name "mrc%d"' -- \
	dev add mrc%d netdev lo
check "dev add errors before the kernel: nothing sent" test ! -s "$MOCK_LOG"
sent "dev del: the device's index, then dellink" "cmd=1 2=mrc1
rdma cmd=4 1=4" -- dev del mrc1
expect "dev del: no such device, exit 1" 1 /dev/null "mrcctl: Error: mrc7: no such mrc device" -- \
	dev del mrc7
MOCK_RDMA_ERR=1 expect "dev del: dellink refused: why" 1 /dev/null \
	"mrcctl: Error: dev del mrc0: Operation not permitted" -- dev del mrc0
expect "dev del: one device" 2 /dev/null 'dev del: unexpected argument "mrc1"' -- dev del mrc0 mrc1

# ---- -batch FILE ------------------------------------------------------
printf '%s\n' "# a comment, then a blank line" "" \
	"dev set mrc0 evs 64	# a comment after a command" \
	"  plane add dev \"mrc0\" netdev 'lo' id 3" \
	"path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002::" >"$tmp/b"
sent "-batch: one request a command, comments and blanks skipped, quotes" \
"cmd=2 2=mrc0 6=64
cmd=4 2=mrc0 4=1 3=3
cmd=7 2=mrc0 3=fd00::2 4=1 7=fc00:0:1100:2100:1101:e002::" -- -batch "$tmp/b"
sent "-batch -: from stdin" "cmd=2 2=mrc0 6=64" -- -batch - <<<"dev set mrc0 evs 64"
check "-batch -j: each command's JSON" bash -c \
	"printf 'dev show mrc0\ndev show mrc1\n' | '$MRCCTL' -j -batch - | jq -se 'length == 2 and .[1][0].dev == \"mrc1\"'"
printf '%s\n' "dev set mrc0 evs 64" "dev show mrc0" "plane add dev mrc0 netdevv lo" \
	"dev set mrc0 evs 32" >"$tmp/b"
: >"$MOCK_LOG"
expect "-batch: a usage error names the file and line, exit 2" 2 "" \
	"mrcctl: $tmp/b:3: plane add: unknown argument \"netdevv\"" -- -batch "$tmp/b"
check "-batch: ... and stops there" grep -qx "mrcctl: $tmp/b: stopped at line 3; -force runs every line" "$tmp/err"
check "-batch: ... the lines after it not run" bash -c "[ \"\$(grep -c '^cmd=2 ' '$MOCK_LOG')\" = 1 ]"
: >"$MOCK_LOG"
expect "-force -batch: runs every line, the first failure's status" 2 "" \
	"mrcctl: $tmp/b: 1 of 4 commands failed" -- -force -batch "$tmp/b"
check "-force: ... the lines after the failed one ran" grep -qx "cmd=2 2=mrc0 6=32" "$MOCK_LOG"
printf '%s\n' "dev set mrc0 evs 64" "dev show nosuch" >"$tmp/b"
expect "-batch: a kernel error names the file and line, exit 1" 1 /dev/null \
	"mrcctl: $tmp/b:2: Error: nosuch: no such mrc device (No such device)" -- -batch "$tmp/b"
printf '%s\n' "dev set mrc0 evs 64" "" "plane add dev mrc0 netdev \"lo" >"$tmp/b"
: >"$MOCK_LOG"
expect "-batch: an unterminated quote: its line, exit 2" 2 /dev/null \
	"mrcctl: $tmp/b:3: unterminated quote" -- -batch "$tmp/b"
check "-batch: ... and no line ran" test ! -s "$MOCK_LOG"
expect "-batch: no such file, exit 2" 2 /dev/null \
	"mrcctl: $tmp/nosuch: No such file or directory" -- -batch "$tmp/nosuch"
expect "-batch: an option in a line is refused" 2 /dev/null \
	"mrcctl: stdin:1: \"-j\": options go on mrcctl's command line" -- -batch - <<<"-j dev show"
expect "-batch: apply in a line is refused" 2 /dev/null \
	"mrcctl: stdin:1: apply runs a file of its own, not in a batch" -- -batch - <<<"apply $tmp/b"
expect "-batch FILE and a command: usage" 2 /dev/null '-batch FILE: unexpected argument "dev"' -- \
	-batch "$tmp/b" dev show
expect "-force alone: usage" 2 /dev/null "-force goes with -batch FILE or apply FILE" -- -force dev show
sent "-batch: an empty file runs nothing, succeeds" "" -- -batch /dev/null

# ---- apply FILE: an add of what is there succeeds, a conflict says what is
# there (test-nlmock.c: mrc0 and mrc1 on lo, ifindex 1, as plane 0; plane 1
# on ifindex 999999; peer fd00::2's usid path 3 on plane 1 has no remote,
# its srh path 4 has one)
printf 'dev add mrc0 netdev lo\n' >"$tmp/apply"
sent "apply: dev add of the device there on that netdev: succeeds, no newlink" "cmd=1 2=mrc0" -- \
	apply "$tmp/apply"
MOCK_DEV_IFINDEX=999999 expect "apply: dev add of the device there on another netdev: fails, says which" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: dev add mrc0 netdev lo: mrc0 exists on netdev ifindex 999999" -- \
	apply "$tmp/apply"
export MOCK_ERR="17:the netdev is already a plane of an mrc device" MOCK_FAIL_AT=1
printf 'plane add dev mrc0 netdev lo\n' >"$tmp/apply"
sent "apply: plane add of a plane there (EEXIST): a dump, and success" \
"cmd=4 2=mrc0 4=1
cmd=3 dump" -- apply "$tmp/apply"
printf 'plane add dev mrc0 netdev lo id 0\n' >"$tmp/apply"
sent "apply: ... with its id: success" \
"cmd=4 2=mrc0 4=1 3=0
cmd=3 dump" -- apply "$tmp/apply"
printf 'plane add dev mrc0 netdev lo id 2\n' >"$tmp/apply"
expect "apply: plane add of a plane there under another id: says which" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: plane add dev mrc0 netdev lo id 2: lo is plane 0 of mrc0" -- \
	apply "$tmp/apply"
printf '# mrc1\nplane add dev mrc1 netdev lo\n' >"$tmp/apply"
expect "apply: plane add of another device's plane: says whose" 1 /dev/null \
	"mrcctl: $tmp/apply:2: Error: plane add dev mrc1 netdev lo: lo is plane 0 of mrc0" -- \
	apply "$tmp/apply"
printf 'plane add dev mrc0 netdev lo id 1\n' >"$tmp/apply"
MOCK_DEV_IFINDEX=999998 expect "apply: plane add of a number another netdev has: says which" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: plane add dev mrc0 netdev lo id 1: plane 1 of mrc0 is ifindex 999999" -- \
	apply "$tmp/apply"
printf 'plane add dev mrc0 netdev lo\n' >"$tmp/apply"
MOCK_DEV_IFINDEX=999998 expect "apply: EEXIST with nothing to see: the kernel's reason" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: plane add dev mrc0 netdev lo: the netdev is already a plane of an mrc device (File exists)" -- \
	apply "$tmp/apply"
: >"$MOCK_LOG"
expect "plane add without apply: EEXIST is an error" 1 /dev/null \
	"mrcctl: Error: mrc0: the netdev is already a plane of an mrc device (File exists)" -- \
	plane add dev mrc0 netdev lo
check "plane add without apply: ... and no dump" bash -c "[ \"\$(wc -l <'$MOCK_LOG')\" = 1 ]"
export MOCK_ERR="17:the peer already has this path"
printf 'path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002::\n' >"$tmp/apply"
sent "apply: path add of a path there (EEXIST): a dump of the peer, and success" \
"cmd=7 2=mrc0 3=fd00::2 4=1 7=fc00:0:1100:2100:1101:e002::
cmd=6 dump 2=mrc0 3=fd00::2" -- apply "$tmp/apply"
printf '%s\n' "path add dev mrc0 peer fd00::2 plane 1 srh fc00:0:1100::1,fc00:0:2100::1,2001:db8:1:2::1 remote 2001:db8:1:2::1" \
	"path add dev mrc0 peer fd00::2 plane 0 remote 2001:db8:0:2::1" >"$tmp/apply"
check "apply: path add of an srh and a udp path there: success" "$MRCCTL" apply "$tmp/apply"
printf 'path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: remote 2001:db8::9\n' >"$tmp/apply"
expect "apply: path add of a path there with another remote: says so" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: mrc0: the peer has this path (path 3) without a remote" -- apply "$tmp/apply"
printf 'path add dev mrc0 peer fd00::2 plane 1 srh fc00:0:1100::1,fc00:0:2100::1,2001:db8:1:2::1\n' >"$tmp/apply"
expect "apply: ... or without one: says which" 1 /dev/null \
	"Error: mrc0: the peer has this path (path 4) with remote 2001:db8:1:2::1" -- apply "$tmp/apply"
unset MOCK_ERR MOCK_FAIL_AT
printf 'fabric load %s dev mrc0 host a\n' "$tmp/f" >"$tmp/apply"
MOCK_PATH_EXISTS=1 expect_lines "apply: fabric load, every path there: success, counted" \
	"loaded 6 paths to 2 peers (6 there already)" -- apply "$tmp/apply"
MOCK_PATH_EXISTS=1 expect_lines "apply -j: fabric load's present" \
	'{"paths":6,"peers":2,"present":6}' -- -j apply "$tmp/apply"
expect_lines "apply: fabric load, no path there" "loaded 6 paths to 2 peers (0 there already)" -- \
	apply "$tmp/apply"
MOCK_ERR="17:the peer already has this path" MOCK_FAIL_AT=3 expect "apply: fabric load, a conflicting path: stops, says so" 1 /dev/null \
	"mrcctl: $tmp/apply:1: Error: \"path add dev mrc0 peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002:: remote 2001:db8:1:2::1\": the peer has this path (path 3) without a remote" -- \
	apply "$tmp/apply"
check "apply: ... and how many were added" grep -q "2 of 6 paths were added, 0 there already, before the error" "$tmp/err"
printf '%s\n' "dev set mrc0 evs 64" "plane add dev mrc0 netdevv lo" "dev set mrc0 evs 32" >"$tmp/apply"
: >"$MOCK_LOG"
expect "apply: a usage error: its line, stops" 2 /dev/null \
	"mrcctl: $tmp/apply:2: plane add: unknown argument \"netdevv\"" -- apply "$tmp/apply"
check "apply: ... the line after it not run" bash -c "[ \"\$(grep -c '^cmd=2 ' '$MOCK_LOG')\" = 1 ]"
: >"$MOCK_LOG"
expect "-force apply: runs every line" 2 /dev/null "1 of 3 commands failed" -- -force apply "$tmp/apply"
check "-force apply: ... the line after it ran" grep -qx "cmd=2 2=mrc0 6=32" "$MOCK_LOG"
expect "apply without FILE: usage" 2 /dev/null "apply: missing FILE" -- apply
expect "apply: one FILE" 2 /dev/null 'apply: unexpected argument "x"' -- apply "$tmp/apply" x

# ---- apply's profile lines (test-nlmock.c: cc profile 3, format 3 and EV
# profile 5 online; MOCK_PROFILES_INIT=1 finds them in init): a file that
# brings them online sends its sets on the first run, and on the second,
# finding them online as its lines ask, only gets
cat >"$tmp/apply" <<'EOF'
cc profile set dev mrc0 id 3 state offline algo nscc base_rtt 12000 gamma 800 qa_gate 3
cc profile set dev mrc0 id 3 state online
ev fmt set dev mrc0 id 3 state offline mode srv6 widths 32,16,80
ev fmt set dev mrc0 id 3 state online
ev profile set dev mrc0 id 5 state offline mode exp count 4 fmt 3 field 16:0:0:0:0xffff field 16:0:0:0:0xffff
ev profile set dev mrc0 id 5 replace - c0011234@1 replace - c0025678@2 denied replace - 0@1
ev profile set dev mrc0 id 5 state online min_active 1 events good,assumed_bad
EOF
MOCK_PROFILES_INIT=1 sent "apply, profiles in init: a get, then the set, a line" \
"cmd=18 2=mrc0 26=3
cmd=19 2=mrc0 26=3 27=1 3=1 4=12000 10=800 12=3
cmd=18 2=mrc0 26=3
cmd=19 2=mrc0 26=3 27=2
cmd=24 2=mrc0 30=3
cmd=25 2=mrc0 30=3 24=1 31=1 32=32 32=16 32=80
cmd=24 2=mrc0 30=3
cmd=25 2=mrc0 30=3 24=2
cmd=20 2=mrc0 23=5
cmd=21 2=mrc0 23=5 24=1 25=1 26=4 30=3 34={1=16 2=0 3=0 4=0 5=65535} 34={1=16 2=0 3=0 4=0 5=65535}
cmd=20 2=mrc0 23=5 36=
cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=c0011234/32 6=1} 35={2=00/32 3=0 5=c0025678/32 6=2 4=3} 35={2=00/32 3=0 5=00/32 6=1}
cmd=20 2=mrc0 23=5
cmd=21 2=mrc0 23=5 24=2 27=1 28=3" -- apply "$tmp/apply"
sent "apply, profiles online as the lines ask: gets only (the EV array's with replacements), exit 0" \
"cmd=18 2=mrc0 26=3
cmd=18 2=mrc0 26=3
cmd=24 2=mrc0 30=3
cmd=24 2=mrc0 30=3
cmd=20 2=mrc0 23=5
cmd=20 2=mrc0 23=5 36=
cmd=20 2=mrc0 23=5" -- apply "$tmp/apply"
sed -n '1p;3p;5,7p' "$tmp/apply" >"$tmp/apply2"
sent "-batch of the same: the sets, no gets" \
"cmd=19 2=mrc0 26=3 27=1 3=1 4=12000 10=800 12=3
cmd=25 2=mrc0 30=3 24=1 31=1 32=32 32=16 32=80
cmd=21 2=mrc0 23=5 24=1 25=1 26=4 30=3 34={1=16 2=0 3=0 4=0 5=65535} 34={1=16 2=0 3=0 4=0 5=65535}
cmd=21 2=mrc0 23=5 35={2=00/32 3=0 5=c0011234/32 6=1} 35={2=00/32 3=0 5=c0025678/32 6=2 4=3} 35={2=00/32 3=0 5=00/32 6=1}
cmd=21 2=mrc0 23=5 24=2 27=1 28=3" -- -batch "$tmp/apply2"
printf 'cc profile set dev mrc0 id 3 state offline\n' >"$tmp/apply2"
sent "apply: state offline without a later line bringing it online: sent, the kernel's to refuse" \
"cmd=19 2=mrc0 26=3 27=1" -- apply "$tmp/apply2"
# apply_differs DESC LINE WANT_STDERR: LINE alone fails, exit 1, sending no set
apply_differs() {
	printf '# an online profile\n%s\n' "$2" >"$tmp/apply2"
	: >"$MOCK_LOG"
	expect "apply: $1" 1 /dev/null "mrcctl: $tmp/apply2:2: Error: mrc0: $3; take it offline first" -- \
		apply "$tmp/apply2"
	grep -q '^cmd=\(19\|21\|25\) ' "$MOCK_LOG" && not_ok "apply: $1: no set" "$(cat "$MOCK_LOG")"
}
apply_differs "cc profile, another knob: names it, both values" "cc profile set dev mrc0 id 3 gamma 500" \
	"cc profile 3 is online with gamma 800, the line wants 500"
apply_differs "cc profile, a knob it has not" "cc profile set dev mrc0 id 3 state online max_cwnd 5000" \
	"cc profile 3 is online without max_cwnd, the line wants 5000"
apply_differs "cc profile, another algo" "cc profile set dev mrc0 id 3 algo none" \
	"cc profile 3 is online with algo nscc, the line wants none"
apply_differs "ev fmt, other widths" "ev fmt set dev mrc0 id 3 widths 32,16" \
	"ev fmt 3 is online with widths 32,16,80, the line wants 32,16"
apply_differs "ev fmt, another mode" "ev fmt set dev mrc0 id 3 mode stev state online" \
	"ev fmt 3 is online with mode srv6, the line wants stev"
apply_differs "ev profile, another count" "ev profile set dev mrc0 id 5 count 8" \
	"ev profile 5 is online with count 4, the line wants 8"
apply_differs "ev profile, other events" "ev profile set dev mrc0 id 5 events good" \
	"ev profile 5 is online with events good,assumed_bad, the line wants good"
apply_differs "ev profile, another fmt" "ev profile set dev mrc0 id 5 fmt 4" \
	"ev profile 5 is online with fmt 3, the line wants 4"
apply_differs "ev profile, other fields" "ev profile set dev mrc0 id 5 field 16:0:0:0:0xff" \
	"ev profile 5 is online with fields 16:0:0:0:0xffff 16:0:0:0:0xffff, the line wants 16:0:0:0:0xff"
apply_differs "ev profile, a replacement not done" "ev profile set dev mrc0 id 5 replace - c0099999@1" \
	"ev profile 5 is online and no place of its EV array holds c0099999@1 (replace - c0099999@1)"
apply_differs "ev profile, a replacement after one done: undone in turn" \
	"ev profile set dev mrc0 id 5 replace - c0011234@1 replace c0011234@1 c0011235@1" \
	"ev profile 5 is online and no place of its EV array holds c0011235@1 (replace c0011234@1 c0011235@1)"
apply_differs "ev profile, one copy more than the array holds" \
	"ev profile set dev mrc0 id 5 replace - c0011234@1 replace - c0011234@1" \
	"ev profile 5 is online and no place of its EV array holds c0011234@1 (replace - c0011234@1)"
printf 'ev profile set dev mrc0 id 5 replace - aa@1 replace aa@1 c0011234@1 all\n' >"$tmp/apply2"
sent "apply: a chain of replacements, done: undone from the last" "cmd=20 2=mrc0 23=5 36=" -- apply "$tmp/apply2"
printf 'ev profile set dev mrc0 id 5 replace - aa@1\nev profile set dev mrc0 id 5 replace aa@1 c0011234@1\n' >"$tmp/apply2"
expect "apply: ... but not across lines: the EV a later line replaces is not found (mrcctl(8))" 1 /dev/null \
	"mrcctl: $tmp/apply2:1: Error: mrc0: ev profile 5 is online and no place of its EV array holds aa@1 (replace - aa@1)" -- \
	apply "$tmp/apply2"

# ---- -n NETNS ----------------------------------------------------------
: >"$MOCK_LOG"
expect "-n: an unknown namespace: a clear error, exit 1" 1 /dev/null \
	'mrcctl: network namespace "mrcctl-test-nosuch": No such file or directory' -- \
	-n mrcctl-test-nosuch dev show
expect "-netns ../x: not a name, a usage error" 2 /dev/null \
	'mrcctl: -n "../x": not a network namespace name' -- -netns ../x dev show
expect "-n without a name: a usage error" 2 /dev/null "" -- -n
check "-n errors: nothing sent" test ! -s "$MOCK_LOG"

finish mock
