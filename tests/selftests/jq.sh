# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# jq: jq 1.6's -e exits 0 when its input is empty, so "mrcctl -j ... | jq -e F"
# would pass with mrcctl failing and printing nothing. Here -e (without -n or
# -s) fails on an empty input, stdin or file; everything else is jq's own.
jq() {
	local i=1 a e=0 ns=0 pos=0 in f
	local -a files=()
	while [ "$i" -le $# ]; do
		a=${!i}
		case $a in
		--arg | --argjson | --slurpfile | --rawfile) i=$((i + 2)) ;;
		--exit-status) e=1 ;;
		--null-input | --slurp) ns=1 ;;
		--*) ;;
		-*)
			[[ $a == *[ns]* ]] && ns=1
			[[ $a == *e* ]] && e=1
			;;
		*)
			pos=$((pos + 1))
			[ "$pos" = 1 ] || files+=("$a")
			;;
		esac
		i=$((i + 1))
	done
	if [ "$e" = 0 ] || [ "$ns" = 1 ]; then
		command jq "$@"
		return
	fi
	if [ "$pos" -gt 1 ]; then
		for f in "${files[@]}"; do
			[ -s "$f" ] || { echo "jq -e: $f is empty" >&2; return 4; }
		done
		command jq "$@"
		return
	fi
	in=$(cat)
	if [ -z "$in" ]; then
		echo "jq -e: no input" >&2
		return 4
	fi
	command jq "$@" <<<"$in"
}
export -f jq
