# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the mrc kselftests: KTAP output, network namespaces, waiting.
# Tests run as root inside the test VM (tests/vm/run) or on any 6.12 host
# with mrc installed.

KSFT_PASS=0 KSFT_FAIL=1 KSFT_SKIP=4

# shellcheck source=tests/selftests/jq.sh
source "$(dirname "${BASH_SOURCE[0]}")/jq.sh"

# MRC_QUICK=1: the quick mode of every suite (make check runs it on the
# KASAN kernel). Each scenario runs once, with small transfers; every fault
# is still injected and every code path of the full run is still reached.
MRC_QUICK=${MRC_QUICK:-0}
quick() { [ "$MRC_QUICK" = 1 ]; }
# by_mode FULL QUICK: prints the value for the current mode
by_mode() { if quick; then echo "$2"; else echo "$1"; fi; }
# tmo SECS: a hang guard of SECS (far above a healthy run) times
# MRC_TIMEOUT_SCALE, rounded up: slow kernels get longer, never shorter
tmo() {
	local s=${MRC_TIMEOUT_SCALE:-1} t
	if [[ $1 =~ ^[0-9]+$ && $s =~ ^[0-9]+$ ]]; then
		t=$(($1 * s))
		echo $((t < 1 ? 1 : t))
	else
		awk -v t="$1" -v s="$s" 'BEGIN { t = int(t * s + 0.999); print (t < 1 ? 1 : t) }'
	fi
}
# nap SECS: sleep(1) without a process, for polling loops (an exec costs
# ~0.2 s on the KASAN kernel): read times out on a pipe nobody writes to.
# Opened here, once: a process substitution sets $!.
exec {_nap_fd}<> <(:)
nap() { read -rt "$1" -u "$_nap_fd" _ || true; }
_ktap_n=0 _ktap_fail=0 _ktap_pass=0 _ktap_skip=0

ktap_header() { # ktap_header PLAN
	echo "KTAP version 1"
	echo "1..$1"
}
# each result is followed by the seconds since the one before (a
# diagnostic for finding where a suite spends its time; never judged)
_ktap_t=$SECONDS
_ktap_time() { echo "# ^ $((SECONDS - _ktap_t))s"; _ktap_t=$SECONDS; }
ktap_pass() { _ktap_n=$((_ktap_n + 1)); _ktap_pass=$((_ktap_pass + 1)); echo "ok $_ktap_n $*"; _ktap_time; }
ktap_fail() { _ktap_n=$((_ktap_n + 1)); _ktap_fail=$((_ktap_fail + 1)); echo "not ok $_ktap_n $*"; _ktap_time; }
ktap_skip() { _ktap_n=$((_ktap_n + 1)); _ktap_skip=$((_ktap_skip + 1)); echo "ok $_ktap_n $* # SKIP"; _ktap_time; }
ktap_info() { echo "# $*"; }
ktap_finish() {
	echo "# Totals: pass:$_ktap_pass fail:$_ktap_fail skip:$_ktap_skip"
	[ "$_ktap_fail" = 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

# check DESC CMD...: one test result from a command's status; its output is
# shown (as KTAP diagnostics) only when it fails
check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = 0 ]; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
		ktap_info "command: $*  (exit $rc)"
		[ -z "$out" ] || printf '%s\n' "$out" | tail -15 | sed 's/^/#   /'
	fi
	return "$rc"
}

# check_fails DESC CMD...: passes when CMD fails
check_fails() {
	local desc=$1
	shift
	if "$@" >/dev/null 2>&1; then
		ktap_fail "$desc"
		ktap_info "command unexpectedly succeeded: $*"
		return 1
	fi
	ktap_pass "$desc"
}

# wait_for SECS CMD...: poll CMD every 0.1 s until it succeeds
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $end ] || return 1
		nap 0.1
	done
}

# container_up: a user namespace (root mapped to root) owning a network
# namespace, held by a sleeping process whose pid goes in CPID. Returns once
# that process runs sleep: before the exec, unshare may still be in the
# host's namespaces or not have written its uid map.
container_up() {
	unshare --user --map-root-user --net sleep 100000 &
	CPID=$!
	wait_for "$(tmo 10)" grep -qx sleep "/proc/$CPID/comm"
}

# netns NS CMD...: CMD in network namespace NS, for tools that only speak
# netlink (ip, tc, ss, rdma, mrcctl). ip netns exec also gives CMD a sysfs
# of the namespace (needed to read /sys/class/net), which costs ~0.7 s a
# call on the KASAN kernel.
netns() { nsenter --net="/run/netns/$1" "${@:2}"; }
export -f netns

# wait_listen NS tcp|cm PORT [PID]: until a server in NS (empty: this
# namespace) listens on PORT (a TCP socket, or an rdma_cm ID), a hang guard
# of 30 s (tmo); gives up early when the server PID has exited. A fixed
# sleep loses the race on a loaded machine. A PID that is itself in NS (ip
# netns exec NS timeout ... &, once exec'd) has its TCP sockets read from
# /proc, without a process per poll: a fork and exec cost ~0.3 s on the
# KASAN kernel, and polls that spawn them slow the server they wait for.
wait_listen() {
	local ns=$1 kind=$2 port=$3 pid=${4:-} end out
	end=$((SECONDS + $(tmo 30)))
	until if [ "$kind" = cm ]; then
		if [ -n "$ns" ]; then out=$(netns "$ns" rdma res show cm_id 2>/dev/null)
		else out=$(rdma res show cm_id 2>/dev/null); fi
		[[ $out =~ LISTEN[^$'\n']*:$port($|[^0-9]) ]]
	elif [ -n "$pid" ]; then
		{ [ -z "$ns" ] || [ "/proc/$pid/ns/net" -ef "/run/netns/$ns" ]; } &&
			_tcp_listens "$pid" "$port"
	else
		[ -n "$(netns "$ns" ss -Hltn "sport = :$port")" ]
	fi; do
		[ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || return 1
		[ $SECONDS -lt $end ] || return 1
		nap 0.1
	done
}

# _tcp_listens PID PORT: a TCP socket of PID's namespace listens on PORT
# (state 0A in /proc/net/tcp and tcp6)
_tcp_listens() {
	local hex f laddr st
	printf -v hex ':%04X' "$2"
	for f in "/proc/$1/net/tcp" "/proc/$1/net/tcp6"; do
		while read -r _ laddr _ st _; do
			[[ $laddr == *"$hex" && $st == 0A ]] && return 0
		done <"$f"
	done 2>/dev/null
	return 1
}

# setup_ns NAME...: fresh namespaces NAME-<pid> with lo up; sets $NAME
NS_LIST=()
setup_ns() {
	local n ns
	for n in "$@"; do
		ns=$n-$$
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
		NS_LIST+=("$ns")
		printf -v "$n" '%s' "$ns"
	done
}
cleanup_ns() {
	local ns
	for ns in ${NS_LIST[@]+"${NS_LIST[@]}"}; do
		ip netns del "$ns" 2>/dev/null
	done
	NS_LIST=()
}

require_root() {
	[ "$(id -u)" = 0 ] || { echo "# needs root"; exit $KSFT_SKIP; }
}

# require_tools TOOL...: skip the suite, naming the first one missing
require_tools() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || { echo "# $t missing (make setup installs it)"; exit "$KSFT_SKIP"; }
	done
}

# require_mrcctl: skip the suite unless topo.sh's mrcctl is built
require_mrcctl() {
	[ -x "$TOPO_MRCCTL" ] || { echo "# build mrcctl first (make mrcctl)"; exit "$KSFT_SKIP"; }
}

# the mrc device names rdma(8) knows, one per line
rdma_devs() { rdma -j dev show | jq -r '.[].ifname'; }
has_rdma_dev() { rdma_devs | grep -qx "$1"; }
