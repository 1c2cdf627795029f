#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrcctl fabric show/load -n: the uSID containers of a sample fabric, and the
# errors of broken fabric files. Runs on any host: no module, no root.
#
#   [ MRCCTL=PATH ] ./test-fabric.sh       (default: ./mrcctl next to it)

source "$(dirname "$0")/test-lib.sh"

# a 2-host, 4-plane fabric with 2 T0 and 2 T1 switches per plane
cat >"$tmp/ok.fab" <<'EOF'
# comment line

block fc00:0::/32		# F3216
planes 4
t0 0 1000 1001
t0 1 1100 1101
t0 2 0x1200 0X1201		# 0x is allowed, case does not matter
t0 3 1300 1301
t1 0 2000 2001
t1 1 2100 2101
t1 2 2200 2201
t1 3 2300 2301
host a node fd00::1 t0 0 usid e001 plane 0 addr 2001:db8:0:1::1
host b node fd00::2 t0 1 usid E002 plane 0 addr 2001:DB8:0:2::1 plane 2 addr 2001:db8:2:2:0:0:0:1
EOF

cat >"$tmp/a.want" <<'EOF'
mrcctl path add dev DEV peer fd00::2 plane 0 usid fc00:0:1000:2000:1001:e002:: remote 2001:db8:0:2::1
mrcctl path add dev DEV peer fd00::2 plane 0 usid fc00:0:1000:2001:1001:e002:: remote 2001:db8:0:2::1
mrcctl path add dev DEV peer fd00::2 plane 1 usid fc00:0:1100:2100:1101:e002::
mrcctl path add dev DEV peer fd00::2 plane 1 usid fc00:0:1100:2101:1101:e002::
mrcctl path add dev DEV peer fd00::2 plane 2 usid fc00:0:1200:2200:1201:e002:: remote 2001:db8:2:2::1
mrcctl path add dev DEV peer fd00::2 plane 2 usid fc00:0:1200:2201:1201:e002:: remote 2001:db8:2:2::1
mrcctl path add dev DEV peer fd00::2 plane 3 usid fc00:0:1300:2300:1301:e002::
mrcctl path add dev DEV peer fd00::2 plane 3 usid fc00:0:1300:2301:1301:e002::
# 8 paths to 1 peers
EOF
expect "show: host a's paths to b" 0 "$tmp/a.want" "" -- fabric show "$tmp/ok.fab" host a

cat >"$tmp/b.want" <<'EOF'
mrcctl path add dev mrc1 peer fd00::1 plane 0 usid fc00:0:1001:2000:1000:e001:: remote 2001:db8:0:1::1
mrcctl path add dev mrc1 peer fd00::1 plane 0 usid fc00:0:1001:2001:1000:e001:: remote 2001:db8:0:1::1
mrcctl path add dev mrc1 peer fd00::1 plane 1 usid fc00:0:1101:2100:1100:e001::
mrcctl path add dev mrc1 peer fd00::1 plane 1 usid fc00:0:1101:2101:1100:e001::
mrcctl path add dev mrc1 peer fd00::1 plane 2 usid fc00:0:1201:2200:1200:e001::
mrcctl path add dev mrc1 peer fd00::1 plane 2 usid fc00:0:1201:2201:1200:e001::
mrcctl path add dev mrc1 peer fd00::1 plane 3 usid fc00:0:1301:2300:1300:e001::
mrcctl path add dev mrc1 peer fd00::1 plane 3 usid fc00:0:1301:2301:1300:e001::
# 8 paths to 1 peers
EOF
expect "load -n: host b's paths to a, with the device" 0 "$tmp/b.want" "" -- \
	fabric load "$tmp/ok.fab" dev mrc1 host b -n
expect "load --dry-run before the arguments" 0 "$tmp/b.want" "" -- \
	fabric load "$tmp/ok.fab" --dry-run host b dev mrc1

if command -v jq >/dev/null; then
	"$MRCCTL" -j fabric show "$tmp/ok.fab" host a >"$tmp/j" 2>&1
	if jq -e 'length == 8 and .[0] == {"peer": "fd00::2", "plane": 0, "mode": "usid",
		"usid": "fc00:0:1000:2000:1001:e002::", "remote": "2001:db8:0:2::1"} and
		(.[2] | has("remote") | not)' "$tmp/j" >/dev/null; then
		ok "-j: the paths as JSON"
	else
		not_ok "-j: the paths as JSON" "$(cat "$tmp/j")"
	fi
	if [ "$("$MRCCTL" -j -p fabric show "$tmp/ok.fab" host a | jq -c .)" = \
	     "$(jq -c . "$tmp/j")" ]; then
		ok "-j -p: the same JSON"
	else
		not_ok "-j -p: the same JSON"
	fi
else
	echo "# jq missing: JSON not checked"
fi

# one T1 per plane, hosts on the same T0, a third host: 2 peers
sed -e 's/^t1 \([0-9]\) \([0-9]*\) .*/t1 \1 \2/' -e 's/ t0 1 / t0 0 /' "$tmp/ok.fab" >"$tmp/one.fab"
echo "host c node fd00::3 t0 1 usid e003" >>"$tmp/one.fab"
"$MRCCTL" fabric show "$tmp/one.fab" host c >"$tmp/out" 2>&1
if [ "$(grep -c '^mrcctl path add' "$tmp/out")" = 8 ] &&
   grep -qx 'mrcctl path add dev DEV peer fd00::1 plane 3 usid fc00:0:1301:2300:1300:e001::' "$tmp/out" &&
   grep -qx '# 8 paths to 2 peers' "$tmp/out"; then
	ok "one T1 per plane, three hosts"
else
	not_ok "one T1 per plane, three hosts" "$(cat "$tmp/out")"
fi

# broken files: "LINE|FILE CONTENT (\n-separated)|MESSAGE"; the sample's lines
B='block fc00:0::/32'
P='planes 2'
T0='t0 0 1000 1001\nt0 1 1100 1101'
T1='t1 0 2000\nt1 1 2100'
HA='host a node fd00::1 t0 0 usid e001'
HB='host b node fd00::2 t0 1 usid e002'
GOOD="$B\n$P\n$T0\n$T1\n$HA"	# 7 lines
broken=(
	"1|block fc00:0::/48|block \"fc00:0::/48\": only /32 locator blocks (F3216) are supported"
	"1|block fc00:0:1::/32|block fc00:0:1::/32 has bits set after the first 32"
	"1|block fc00:zz::/32|invalid IPv6 address \"fc00:zz::\""
	"1|block|expected \"block PREFIX/32\""
	"2|$B\n$B|second block (the first is on line 1)"
	"1|planes 0|invalid number of planes \"0\" (1..16)"
	"1|planes 17|invalid number of planes \"17\" (1..16)"
	"1|planes 2x|invalid number of planes \"2x\""
	"1|t0 0 10000|invalid uSID \"10000\""
	"1|t0 0 0|invalid uSID \"0\""
	"1|t0 0 0x|invalid uSID \"0x\""
	"1|t0 0 12g|invalid uSID \"12g\""
	"1|t0 16 1000|invalid plane \"16\" (0..15)"
	"1|t1 0|expected \"t1 PLANE USID...\""
	"2|t0 0 1\nt0 0 2|second t0 (the first is on line 1)"
	"1|spine 0 1|unknown directive \"spine\""
	"|$B\n$P\nt0 0 1000 1001\n$T1\n$HA|plane 1 has no t0 line"
	"|$B\n$P\n$T0\nt1 0 2000\n$HA|plane 1 has no t1 line"
	"7|$B\n$P\n$T0\n$T1\nt1 2 2200\n$HA|plane 2 out of range (planes 2)"
	"|$P\n$T0\n$T1\n$HA|no block line"
	"|$B\n$T0\n$T1\n$HA|no planes line"
	"8|$GOOD\nhost b node fd00::2 t0 2 usid e002|host b: t0 index 2 out of range (plane 0 has 2 T0 switches)"
	"8|$GOOD\n$HA|second host \"a\" (the first is on line 7)"
	"8|$GOOD\nhost b node fd00::1 t0 1 usid e002|host b: node fd00::1 is host a's (line 7)"
	"8|$GOOD\nhost b node fd00::2 t0 1|host b: missing \"usid\""
	"8|$GOOD\nhost b t0 1 usid e002|host b: missing \"node\""
	"8|$GOOD\nhost b node fd00::2 t0 1 usid 0|invalid uSID \"0\""
	"8|$GOOD\nhost b node fd00::2 t0 x usid e002|host b: invalid t0 index \"x\""
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 usid e003|host b: second usid"
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 rack 7|host b: unknown keyword \"rack\""
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 plane 1|expected \"host NAME node ADDR"
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 plane 1 adr ::1|expected \"host NAME node ADDR"
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 plane 1 addr ::1 plane 1 addr ::2|host b: second address on plane 1"
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 plane 2 addr ::1|host b: plane 2 out of range (planes 2)"
	"8|$GOOD\nhost b node fd00::2 t0 1 usid e002 plane 1 addr fd00::x|invalid IPv6 address \"fd00::x\""
	"8|$GOOD\nhost|expected \"host NAME node ADDR"
	"|$B\n$P\n$T0\n$T1\n$HB|no host \"a\""
)
for case in "${broken[@]}"; do
	IFS='|' read -r line content msg <<<"$case"
	printf '%b\n' "$content" >"$tmp/bad.fab"
	where="$tmp/bad.fab${line:+:$line}: "
	expect "broken: $msg" 2 /dev/null "mrcctl: $where$msg" -- \
		fabric show "$tmp/bad.fab" host a
done

# 17 T1 switches on each of 16 planes: 272 paths per peer, more than 256
{
	echo "$B"
	echo "planes 16"
	for p in $(seq 0 15); do
		echo "t0 $p 1000"
		echo "t1 $p $(seq -s ' ' 2000 2016)"
	done
	echo "$HA"
} >"$tmp/big.fab"
expect "too many paths per peer" 2 /dev/null \
	"mrcctl: $tmp/big.fab: 272 paths per peer (one per T1 switch of every plane), more than 256" -- \
	fabric show "$tmp/big.fab" host a

# usage
expect "no such file: exit 2" 2 /dev/null "mrcctl: $tmp/nosuch: No such file or directory" -- \
	fabric show "$tmp/nosuch" host a
expect "show without host: usage error" 2 /dev/null 'Try "mrcctl help"' -- \
	fabric show "$tmp/ok.fab"
expect "load without dev: usage error" 2 /dev/null 'fabric load: missing "dev"' -- \
	fabric load "$tmp/ok.fab" host a -n
expect "load, unknown keyword: usage error" 2 /dev/null 'fabric load: unknown argument "hots"' -- \
	fabric load "$tmp/ok.fab" dev mrc0 hots a
expect "fabric without command: usage error" 2 /dev/null 'fabric: missing command' -- fabric
expect "fabric frob: usage error" 2 /dev/null 'fabric: unknown command "frob"' -- fabric frob
# a broken file is reported before anything is sent (no module needed)
cp "$tmp/ok.fab" "$tmp/bad.fab"
echo "t1 5 2500" >>"$tmp/bad.fab"
expect "load of a broken file: nothing sent, exit 2" 2 /dev/null \
	"mrcctl: $tmp/bad.fab:15: plane 5 out of range (planes 4)" -- \
	fabric load "$tmp/bad.fab" dev mrc0 host a

# "mrcctl help" and the man page's synopsis list the same commands
if command -v man >/dev/null; then
	help=$("$MRCCTL" help | grep '^mrcctl ' | tr -s ' ')
	synopsis=$(MANWIDTH=300 man -l "$dir/mrcctl.8" 2>/dev/null |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | grep '^ *mrcctl [a-z]' | sed 's/^ *//' | tr -s ' ')
	if [ "$help" = "$synopsis" ]; then
		ok "help: the commands of mrcctl(8)"
	else
		not_ok "help: the commands of mrcctl(8)" "$(diff <(echo "$help") <(echo "$synopsis"))"
	fi
else
	echo "# man missing: help not compared with mrcctl(8)"
fi

finish fabric
