# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A multi-plane 2-tier Clos of Linux SRv6 uSID switches in network
# namespaces, for mrc's multipath tests and demos. Sourced; needs root,
# iproute2 and the veth, dummy and sch_netem modules.
#
#   fabric_build HOSTS PLANES T1    (2..4 hosts, 1..8 planes, 1..4 T1/plane)
#
# The same in every mode: quick mode (MRC_QUICK) shrinks the traffic of the
# suites that use it, never the fabric.
#
# Every plane p is a separate Clos: one T0 per host, T1 switches on top,
# every T0 of the plane linked to every T1 of the plane. Each node is a
# namespace "<node>-$FABRIC_ID". Two hosts, plane p, two T1 (names in the
# boxes are netdevs):
#
#                 +-------------+             +-------------+
#                 |  t1-p<p>-0  |             |  t1-p<p>-1  |   T1 j
#                 |  d0     d1  |             |  d0     d1  |   d<i>: to T0 i
#                 +--+-------+--+             +--+-------+--+
#                    |        \_______   _______/        |
#                    |                \ /                |
#                    |         _______/ \_______         |
#                 +--+-------+--+             +--+-------+--+
#                 |  u0     u1  |             |  u0     u1  |   u<j>: to T1 j
#                 |  t0-p<p>-0  |             |  t0-p<p>-1  |   T0 i
#                 |     h1      |             |     h2      |   h<h>: to host h
#                 +------+------+             +------+------+
#                        |                           |
#                 +------+------+             +------+------+
#                 |    p<p>     |             |    p<p>     |   host h: p0..p<P-1>,
#                 |     h1      |             |     h2      |   one per plane,
#                 +-------------+             +-------------+   to T0 (h-1)
#
# Nodes: hosts h1..hN; T0 i (= host i+1's) of plane p "t0-p<p>-<i>";
# T1 j of plane p "t1-p<p>-<j>" (i, j, p from 0).
#
# Links (fabric_links lists them; both ends share the name):
#   h<h>-p<p>                host h's p<p> <-> t0-p<p>-<h-1>'s h<h>
#   t0-p<p>-<i>:t1-p<p>-<j>  t0-p<p>-<i>'s u<j> <-> t1-p<p>-<j>'s d<i>
# On every link the end nearer the hosts is fe80::1, the other fe80::2
# (static link-local next hops; no automatic link-local addresses).
#
# uSIDs (16 bit, hex), block fc00:0::/32 (F3216: lblen 32, nflen 16):
#   T0 p,i  0x1000 + p*0x100 + i      e.g. t0-p1-0 = 1100
#   T1 p,j  0x2000 + p*0x100 + j      e.g. t1-p0-1 = 2001
#   host h  0xe000 + h                e.g. h2 = e002
# Each switch ends its own fc00:0:<usid>::/48 (seg6local End, flavor
# next-csid, on a dummy "sid" that never goes down) and has static /48
# routes for the next uSIDs: T0 to its T1s and to its host, T1 to its T0s.
# A path from host a to host b on plane p via T1 j is the container
#   fc00:0:<T0 p,a-1>:<T1 p,j>:<T0 p,b-1>:<host b>::      (fabric_paths)
# which arrives at b's p<p> as fc00:0:<host b>::. Hosts have no decap route
# and do not forward: mrc takes those packets from the netdev.
# Each switch also has a classic SRv6 SID fc00:0:<usid>::1 (seg6local End,
# no flavor; the /128 wins over the /48) for explicit SRH segment lists:
#   fc00:0:<T0 p,a-1>::1,fc00:0:<T1 p,j>::1,fc00:0:<T0 p,b-1>::1,<b's plane
#   address>                                            (fabric_srh_paths)
#
# Host addresses:
#   plane address  2001:db8:<p>:<h>::1/64 on p<p>; all plane addresses are
#                  routed in their plane (plain IPv6, ECMP over the T1s)
#   node address   fd00::<h>/128 on p0, routed on plane 0 only
# Host routes: fc00::/32 via each plane's T0 with metric 1024+p and the
# plane address as source, so that a lookup with oif p<p> (mrc's
# ip6_route_output() with flowi6_oif) picks plane p; 2001:db8:<p>::/48 via
# plane p; fd00::/64 via plane 0 with source fd00::<h>. Hosts keep their
# addresses on link down (keep_addr_on_down), so the node address (mrc's
# GID) survives a flap.
#
# API:
#   fabric_build HOSTS PLANES T1  build (default 2 2 2); prints nothing but
#                                 errors, non-zero on error
#   fabric_cleanup                remove it all (safe twice; an EXIT trap)
#   fabric_ns NODE                the namespace of NODE
#   fabric_on NODE CMD...         run CMD in NODE's namespace (host or switch)
#   fabric_nodes / fabric_links   all node / link names, one a line
#   fabric_usid NODE              NODE's uSID, hex without 0x
#   fabric_node_addr H            fd00::<h>   (H is "h2" or "2")
#   fabric_plane_addr H P         2001:db8:<p>:<h>::1
#   fabric_paths A B              "<plane> <container>" for all P*S paths
#   fabric_srh_paths A B          "<plane> <seg>,<seg>,<seg>,<seg>" (the same
#                                 paths as SRH segment lists)
#   fabric_link_ends LINK         "NODE DEV NODE DEV", the link's two ends
#   fabric_netem LINK ARGS...     netem ARGS (delay, loss, rate...) on both ends
#   fabric_netem_clear LINK       remove it
#   fabric_flap LINK N UP_MS DOWN_MS
#                                 N times: drop everything on both ends for
#                                 DOWN_MS, then pass it for UP_MS; one tc
#                                 process per end, so that slow kernels keep
#                                 the pace (leaves LINK without netem)
#   fabric_link_down LINK         both ends administratively down: routes over
#                                 the link go away, as on a switch port failure
#   fabric_link_up LINK           both ends up again, addresses and routes back
#   fabric_write_desc FILE        the fabric description for mrcctl fabric load
# Variables (exported, so child scripts that source this file can use the
# functions): FABRIC_ID (default: the shell's pid; makes the names unique),
# FABRIC_HOSTS FABRIC_PLANES FABRIC_T1, FABRIC_BLOCK. fabric_build and
# fabric_cleanup set them, so call them in the main shell, not in $(...).

FABRIC_ID=${FABRIC_ID:-$$}
FABRIC_BLOCK=fc00:0::/32
# inherited values: a child script operates on its parent's fabric
FABRIC_HOSTS=${FABRIC_HOSTS:-0} FABRIC_PLANES=${FABRIC_PLANES:-0} FABRIC_T1=${FABRIC_T1:-0}
export FABRIC_ID FABRIC_BLOCK FABRIC_HOSTS FABRIC_PLANES FABRIC_T1

_fabric_err() { echo "fabric: $*" >&2; }

# _fabric_hex VAR N: VAR = N in hex (no fork, unlike $(printf))
_fabric_hex() { printf -v "$1" '%x' "$2"; }

fabric_nodes() {
	local h p i j
	for ((h = 1; h <= FABRIC_HOSTS; h++)); do echo "h$h"; done
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		for ((i = 0; i < FABRIC_HOSTS; i++)); do echo "t0-p$p-$i"; done
		for ((j = 0; j < FABRIC_T1; j++)); do echo "t1-p$p-$j"; done
	done
}

fabric_links() {
	local h p i j
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		for ((h = 1; h <= FABRIC_HOSTS; h++)); do echo "h$h-p$p"; done
		for ((i = 0; i < FABRIC_HOSTS; i++)); do
			for ((j = 0; j < FABRIC_T1; j++)); do echo "t0-p$p-$i:t1-p$p-$j"; done
		done
	done
}

# _fabric_parse NODE: sets _k (h, t0 or t1), _h (host number), _p, _x (T0 or
# T1 index); fails on a name that is not a node of the built fabric
_fabric_parse() {
	_k='' _h=0 _p=0 _x=0
	if [[ $1 =~ ^h([0-9]+)$ ]]; then
		_k=h _h=${BASH_REMATCH[1]}
		((_h >= 1 && _h <= FABRIC_HOSTS)) && return 0
	elif [[ $1 =~ ^(t[01])-p([0-9]+)-([0-9]+)$ ]]; then
		_k=${BASH_REMATCH[1]} _p=${BASH_REMATCH[2]} _x=${BASH_REMATCH[3]}
		if [ "$_k" = t0 ]; then
			((_p < FABRIC_PLANES && _x < FABRIC_HOSTS)) && return 0
		else
			((_p < FABRIC_PLANES && _x < FABRIC_T1)) && return 0
		fi
	fi
	_fabric_err "no node '$1' in fabric $FABRIC_ID (${FABRIC_HOSTS} hosts, ${FABRIC_PLANES} planes, ${FABRIC_T1} T1)"
	return 1
}

# _fabric_host H: _h = host number of "h2" or "2"
_fabric_host() {
	_fabric_parse "h${1#h}" && _h=${1#h}
}

fabric_ns() {
	local _k _h _p _x
	_fabric_parse "$1" || return 1
	echo "$1-$FABRIC_ID"
}

fabric_on() {
	local node=$1 _k _h _p _x
	shift
	_fabric_parse "$node" || return 1
	ip netns exec "$node-$FABRIC_ID" "$@"
}

fabric_usid() {
	local u _k _h _p _x
	_fabric_parse "$1" || return 1
	case $_k in
	h) _fabric_hex u $((0xe000 + _h)) ;;
	t0) _fabric_hex u $((0x1000 + _p * 0x100 + _x)) ;;
	t1) _fabric_hex u $((0x2000 + _p * 0x100 + _x)) ;;
	esac
	echo "$u"
}

fabric_node_addr() {
	local _k _h _p _x
	_fabric_host "$1" || return 1
	echo "fd00::$_h"
}

fabric_plane_addr() {
	local _k _h _p _x
	_fabric_host "$1" || return 1
	(($2 >= 0 && $2 < FABRIC_PLANES)) || { _fabric_err "no plane '$2'"; return 1; }
	echo "2001:db8:$2:$_h::1"
}

# _fabric_path_list A B KIND: the P*S paths from host A to host B, as uSID
# containers (usid) or SRH segment lists (srh)
_fabric_path_list() {
	local a b p j t0a t1 t0b _k _h _p _x
	_fabric_host "$1" || return 1
	a=$_h
	_fabric_host "$2" || return 1
	b=$_h
	for ((p = 0; p < FABRIC_PLANES; p++)); do
		for ((j = 0; j < FABRIC_T1; j++)); do
			t0a=$((0x1000 + p * 0x100 + a - 1)) t1=$((0x2000 + p * 0x100 + j))
			t0b=$((0x1000 + p * 0x100 + b - 1))
			if [ "$3" = srh ]; then
				printf '%d fc00:0:%x::1,fc00:0:%x::1,fc00:0:%x::1,2001:db8:%d:%d::1\n' \
					"$p" "$t0a" "$t1" "$t0b" "$p" "$b"
			else
				printf '%d fc00:0:%x:%x:%x:%x::\n' "$p" "$t0a" "$t1" "$t0b" $((0xe000 + b))
			fi
		done
	done
}

fabric_paths() { _fabric_path_list "$1" "$2" usid; }
fabric_srh_paths() { _fabric_path_list "$1" "$2" srh; }

# _fabric_ends LINK: sets _na _da _nb _db (node and netdev of both ends)
_fabric_ends() {
	local h p i j q
	if [[ $1 =~ ^h([0-9]+)-p([0-9]+)$ ]]; then
		h=${BASH_REMATCH[1]} p=${BASH_REMATCH[2]}
		if ((h >= 1 && h <= FABRIC_HOSTS && p < FABRIC_PLANES)); then
			_na=h$h _da=p$p _nb=t0-p$p-$((h - 1)) _db=h$h
			return 0
		fi
	elif [[ $1 =~ ^t0-p([0-9]+)-([0-9]+):t1-p([0-9]+)-([0-9]+)$ ]]; then
		p=${BASH_REMATCH[1]} i=${BASH_REMATCH[2]} q=${BASH_REMATCH[3]} j=${BASH_REMATCH[4]}
		if ((p == q && p < FABRIC_PLANES && i < FABRIC_HOSTS && j < FABRIC_T1)); then
			_na=t0-p$p-$i _da=u$j _nb=t1-p$p-$j _db=d$i
			return 0
		fi
	fi
	_fabric_err "no link '$1' in fabric $FABRIC_ID (see fabric_links)"
	return 1
}

fabric_link_ends() {
	local _na _da _nb _db
	_fabric_ends "$1" || return 1
	echo "$_na $_da $_nb $_db"
}

# _fabric_nh VAR DOWN DEV...: VAR = the route's next hops over those of the
# DEVs (uplinks, gateway fe80::2) not listed in DOWN; empty if none is left
_fabric_nh() {
	local -n _out=$1
	local down=$2 d n=0 s=''
	shift 2
	for d; do
		[[ $down == *" $d "* ]] && continue
		s+=" nexthop via fe80::2 dev $d"
		n=$((n + 1))
	done
	# one next hop: a plain route (a one-hop multipath would do, but reads worse)
	[ $n = 1 ] && s=${s# nexthop}
	_out=$s
}

# _fabric_cfg NODE [DOWN [NEW]]: appends to $_cfg (the caller's) NODE's
# addresses and routes as "ip -6 -batch" commands, idempotent (replace),
# leaving out the netdevs in DOWN (" d0 u1 ", the administratively down ones):
# fabric_link_up reapplies it after a link down removed the link's routes
# and link-local address. NEW: the first time, also create the dummy and
# turn automatic link-locals off (no DAD, no router solicitations).
# Appending to a variable rather than printing saves a fork per node.
_fabric_c() { _cfg+=$1$'\n'; }
_fabric_up() { # DEV: set it up (the first time without automatic link-locals)
	[ -z "$_new" ] || _fabric_c "link set $1 addrgenmode none"
	_fabric_c "link set $1 up"
}
_fabric_cfg() {
	local node=$1 down=${2:- } _new=${3:-} _k _h _p _x p h i j u a ups=()
	_fabric_parse "$node" || return 1
	_fabric_c "link set lo up"
	if [ "$_k" != h ]; then
		[ -z "$_new" ] || _fabric_c "link add sid type dummy"
		_fabric_up sid
	fi
	case $_k in
	h)
		h=$_h
		for ((p = 0; p < FABRIC_PLANES; p++)); do
			[[ $down == *" p$p "* ]] && continue
			a=2001:db8:$p:$h::1
			_fabric_up "p$p"
			_fabric_c "addr replace fe80::1/64 dev p$p nodad"
			_fabric_c "addr replace $a/64 dev p$p nodad"
			# metric: without an oif plane 0 wins; with one, its plane
			_fabric_c "route replace fc00::/32 via fe80::2 dev p$p metric $((1024 + p)) src $a"
			_fabric_c "route replace 2001:db8:$p::/48 via fe80::2 dev p$p src $a"
			if [ "$p" = 0 ]; then
				_fabric_c "addr replace fd00::$h/128 dev p0 nodad"
				_fabric_c "route replace fd00::/64 via fe80::2 dev p0 src fd00::$h"
			fi
		done
		;;
	t0)
		p=$_p i=$_x h=$((_x + 1))
		_fabric_hex u $((0x1000 + p * 0x100 + i))
		_fabric_c "route replace fc00:0:$u::/48 encap seg6local action End flavors next-csid lblen 32 nflen 16 count dev sid"
		_fabric_c "route replace fc00:0:$u::1/128 encap seg6local action End count dev sid"
		if [[ $down != *" h$h "* ]]; then
			_fabric_hex u $((0xe000 + h))
			_fabric_up "h$h"
			_fabric_c "addr replace fe80::2/64 dev h$h nodad"
			_fabric_c "route replace fc00:0:$u::/48 via fe80::1 dev h$h"
			_fabric_c "route replace 2001:db8:$p:$h::/64 via fe80::1 dev h$h"
			[ "$p" != 0 ] || _fabric_c "route replace fd00::$h/128 via fe80::1 dev h$h"
		fi
		for ((j = 0; j < FABRIC_T1; j++)); do
			ups+=("u$j")
			[[ $down == *" u$j "* ]] && continue
			_fabric_hex u $((0x2000 + p * 0x100 + j))
			_fabric_up "u$j"
			_fabric_c "addr replace fe80::1/64 dev u$j nodad"
			_fabric_c "route replace fc00:0:$u::/48 via fe80::2 dev u$j"
		done
		# the other hosts' plain addresses: ECMP over the live uplinks
		_fabric_nh a "$down" "${ups[@]}"
		if [ -n "$a" ]; then
			_fabric_c "route replace 2001:db8:$p::/48$a"
			[ "$p" != 0 ] || _fabric_c "route replace fd00::/64$a"
		fi
		;;
	t1)
		p=$_p j=$_x
		_fabric_hex u $((0x2000 + p * 0x100 + j))
		_fabric_c "route replace fc00:0:$u::/48 encap seg6local action End flavors next-csid lblen 32 nflen 16 count dev sid"
		_fabric_c "route replace fc00:0:$u::1/128 encap seg6local action End count dev sid"
		for ((i = 0; i < FABRIC_HOSTS; i++)); do
			[[ $down == *" d$i "* ]] && continue
			h=$((i + 1))
			_fabric_hex u $((0x1000 + p * 0x100 + i))
			_fabric_up "d$i"
			_fabric_c "addr replace fe80::2/64 dev d$i nodad"
			_fabric_c "route replace fc00:0:$u::/48 via fe80::1 dev d$i"
			_fabric_c "route replace 2001:db8:$p:$h::/64 via fe80::1 dev d$i"
			[ "$p" != 0 ] || _fabric_c "route replace fd00::$h/128 via fe80::1 dev d$i"
		done
		;;
	esac
}

# _fabric_sysctls: switches forward; hosts do not (a packet for a host's
# uSID is mrc's or dropped) and keep their addresses on link down. One
# python process enters all namespaces: an exec per namespace costs ~0.1 s
# under TCG.
_fabric_sysctls() {
	local node args=()
	for node in $(fabric_nodes); do
		if [[ $node == h* ]]; then
			args+=("$node-$FABRIC_ID" keep_addr_on_down)
		else
			args+=("$node-$FABRIC_ID" forwarding)
		fi
	done
	if command -v python3 >/dev/null; then
		python3 -S -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a = sys.argv[1:]
for ns, knob in zip(a[::2], a[1::2]):
    fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    if libc.setns(fd, 0x40000000):  # CLONE_NEWNET
        sys.exit("setns %s: %s" % (ns, os.strerror(ctypes.get_errno())))
    os.close(fd)
    with open("/proc/sys/net/ipv6/conf/all/" + knob, "w") as f:
        f.write("1")
' "${args[@]}"
	else
		set -- "${args[@]}"
		while [ $# -gt 0 ]; do
			ip netns exec "$1" sh -c "echo 1 >/proc/sys/net/ipv6/conf/all/$2" || return 1
			shift 2
		done
	fi
}

fabric_build() {
	local n=${1:-2} p=${2:-2} s=${3:-2} node pids=() rc=0 pid link jobs _cfg
	local _na _da _nb _db
	if [ "$FABRIC_HOSTS" != 0 ]; then
		_fabric_err "fabric $FABRIC_ID is built already (fabric_cleanup first)"
		return 1
	fi
	if ! [[ $n =~ ^[2-4]$ && $p =~ ^[1-8]$ && $s =~ ^[1-4]$ ]]; then
		_fabric_err "usage: fabric_build HOSTS(2..4) PLANES(1..8) T1(1..4)"
		return 1
	fi
	FABRIC_HOSTS=$n FABRIC_PLANES=$p FABRIC_T1=$s
	# no udev in the test VM
	modprobe -q veth 2>/dev/null
	modprobe -q dummy 2>/dev/null
	modprobe -q sch_netem 2>/dev/null
	# namespaces and veth pairs: one ip process (an exec is ~0.1 s in TCG)
	{
		for node in $(fabric_nodes); do echo "netns add $node-$FABRIC_ID"; done
		for link in $(fabric_links); do
			_fabric_ends "$link"
			echo "link add $_da netns $_na-$FABRIC_ID type veth peer name $_db netns $_nb-$FABRIC_ID"
		done
	} | ip -batch - || { _fabric_err "creating namespaces and links failed"; return 1; }
	# then every node, a few at a time; the sysctls meanwhile
	_fabric_sysctls &
	pids=($!)
	jobs=$((2 * $(nproc)))
	for node in $(fabric_nodes); do
		_cfg=''
		_fabric_cfg "$node" ' ' new
		ip -6 -n "$node-$FABRIC_ID" -batch - <<<"$_cfg" &
		pids+=($!)
		if [ ${#pids[@]} -ge "$jobs" ]; then
			wait "${pids[0]}" || rc=1
			pids=("${pids[@]:1}")
		fi
	done
	for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
	[ "$rc" = 0 ] || _fabric_err "configuring the nodes failed"
	return "$rc"
}

fabric_cleanup() {
	local ns
	# every namespace of ours, even of a build that failed half-way
	ip netns list 2>/dev/null | while read -r ns _; do
		[[ $ns =~ ^(h[0-9]+|t[01]-p[0-9]+-[0-9]+)-$FABRIC_ID$ ]] && echo "netns del $ns"
	done | ip -force -batch - 2>/dev/null
	FABRIC_HOSTS=0 FABRIC_PLANES=0 FABRIC_T1=0
	return 0
}

fabric_netem() {
	local link=$1 _na _da _nb _db
	shift
	_fabric_ends "$link" || return 1
	tc -n "$_na-$FABRIC_ID" qdisc replace dev "$_da" root netem "$@" &&
		tc -n "$_nb-$FABRIC_ID" qdisc replace dev "$_db" root netem "$@"
}

fabric_netem_clear() {
	local _na _da _nb _db
	_fabric_ends "$1" || return 1
	tc -n "$_na-$FABRIC_ID" qdisc del dev "$_da" root 2>/dev/null
	tc -n "$_nb-$FABRIC_ID" qdisc del dev "$_db" root 2>/dev/null
	return 0
}

# _fabric_flaps DEV N UP_MS DOWN_MS: tc batch commands, paced by read -t
# on a FIFO nobody writes to (builtins only: no process per flap)
_fabric_flaps() {
	local dev=$1 n=$2 up fifo z i down
	printf -v up '0.%03d' "$3"
	printf -v down '0.%03d' "$4"
	fifo=$(mktemp -u /tmp/fabric_flap.XXXXXX)
	mkfifo "$fifo" || return 1
	exec {z}<>"$fifo"
	rm -f "$fifo"
	for ((i = 0; i < n; i++)); do
		echo "qdisc change dev $dev root netem loss 100%"
		read -r -t "$down" -u "$z"
		echo "qdisc change dev $dev root netem loss 0%"
		read -r -t "$up" -u "$z"
	done
	exec {z}<&-
}

fabric_flap() {
	local link=$1 n=$2 up=$3 down=$4 _na _da _nb _db rc=0 pid
	[ "$up" -lt 1000 ] && [ "$down" -lt 1000 ] || return 1
	_fabric_ends "$link" || return 1
	tc -n "$_na-$FABRIC_ID" qdisc replace dev "$_da" root netem loss 0% &&
		tc -n "$_nb-$FABRIC_ID" qdisc replace dev "$_db" root netem loss 0% || return 1
	_fabric_flaps "$_da" "$n" "$up" "$down" | tc -n "$_na-$FABRIC_ID" -batch - &
	pid=$!
	_fabric_flaps "$_db" "$n" "$up" "$down" | tc -n "$_nb-$FABRIC_ID" -batch - || rc=1
	wait "$pid" || rc=1
	fabric_netem_clear "$link"
	return "$rc"
}

fabric_link_down() {
	local _na _da _nb _db
	_fabric_ends "$1" || return 1
	ip -n "$_na-$FABRIC_ID" link set "$_da" down &&
		ip -n "$_nb-$FABRIC_ID" link set "$_db" down
}

# _fabric_down NODE: " dev dev ", NODE's administratively down netdevs (the
# kernel's state is the truth: no bookkeeping to lose in a subshell)
_fabric_down() {
	local _ name flags rest down=' ' up='[<,]UP[,>]'
	while read -r _ name flags rest; do
		name=${name%:} name=${name%@*}
		[[ $flags =~ $up ]] || down+="$name "
	done < <(ip -n "$1-$FABRIC_ID" -o link show)
	echo "$down"
}

fabric_link_up() {
	local _na _da _nb _db node _cfg
	_fabric_ends "$1" || return 1
	ip -n "$_na-$FABRIC_ID" link set "$_da" up &&
		ip -n "$_nb-$FABRIC_ID" link set "$_db" up || return 1
	# the link's routes (and link-local addresses) went with it: reapply
	# both ends' configuration, minus their other links that are down
	for node in "$_na" "$_nb"; do
		_cfg=''
		_fabric_cfg "$node" "$(_fabric_down "$node")"
		ip -6 -n "$node-$FABRIC_ID" -batch - <<<"$_cfg" || return 1
	done
}

fabric_write_desc() {
	local f=$1 p i h line
	[ "$FABRIC_HOSTS" != 0 ] || { _fabric_err "no fabric built"; return 1; }
	{
		echo "# mrc fabric $FABRIC_ID: $FABRIC_HOSTS hosts, $FABRIC_PLANES planes," \
			"$FABRIC_T1 T1 per plane (tests/selftests/fabric.sh)"
		echo "block $FABRIC_BLOCK"
		echo "planes $FABRIC_PLANES"
		for ((p = 0; p < FABRIC_PLANES; p++)); do
			line="t0 $p"
			for ((i = 0; i < FABRIC_HOSTS; i++)); do line+=$(printf ' %x' $((0x1000 + p * 0x100 + i))); done
			echo "$line"
			line="t1 $p"
			for ((i = 0; i < FABRIC_T1; i++)); do line+=$(printf ' %x' $((0x2000 + p * 0x100 + i))); done
			echo "$line"
		done
		for ((h = 1; h <= FABRIC_HOSTS; h++)); do
			line=$(printf 'host h%d node fd00::%d t0 %d usid %x' "$h" "$h" $((h - 1)) $((0xe000 + h)))
			for ((p = 0; p < FABRIC_PLANES; p++)); do line+=" plane $p addr 2001:db8:$p:$h::1"; done
			echo "$line"
		done
	} >"$f"
}
