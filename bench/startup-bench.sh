#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# startup-bench: what a launch costs with Docker's profile against a
# one-rule policy, without the compiled-filter cache, on a cold cache and
# on a warm one (engine/decide/filtercache.c).  It prints figures; it never
# passes or fails on time.
#
#   startup-bench.sh SYSWARD [ROUNDS]
#
# "sysward run --policy P -- /bin/true", ROUNDS times (default 20) for
# each of the six (policy, cache) pairs, the two policies in turn within
# a round so that a drift of the machine's speed hits both alike:
#   no cache   sysward run --no-cache;
#   cold       an empty cache directory for every run (compile, write);
#   warm       a cache that already holds the entry (read, verify).
# Prints the median wall and CPU (user + system, the whole process tree)
# of each in ms, and docker/one-rule per row.  The rows to quote are the
# warm ones: a CI suite's second run onwards.
set -u
sysward=${1:?usage: startup-bench.sh SYSWARD [ROUNDS]}
rounds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
docker=$here/../policy/examples/docker-default.json

for f in "$sysward" "$docker"; do
	[ -e "$f" ] || { echo "startup-bench: $f: not found" >&2; exit 2; }
done
case $rounds in ''|*[!0-9]*|0) echo "startup-bench: bad ROUNDS '$rounds'" >&2; exit 2 ;; esac

work=$(mktemp -d /tmp/startup-bench.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
one=$work/one-rule.json
echo '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getpid"], "action": "SCMP_ACT_ERRNO"}]}' >"$one"

# One run: "wall cpu" in ms.  The cache is $XDG_CACHE_HOME/sysward;
# CACHE_DIRECTORY (a service's) would win over it, so it goes.
TIMEFORMAT='%3R %3U %3S'
run() {
	local cache=$1 policy=$2 t
	shift 2
	t=$( { time env -u CACHE_DIRECTORY -u SYSWARD_NO_CACHE XDG_CACHE_HOME="$cache" \
		"$sysward" run "$@" --policy "$policy" -- /bin/true >/dev/null 2>"$work/err"; } 2>&1 ) ||
		{ echo "startup-bench: sysward run --policy $policy failed: $(head -c 300 "$work/err")" >&2; exit 1; }
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

declare -A wall cpu
mkdir -m 700 "$work/warm"
run "$work/warm" "$docker" >/dev/null || exit 1
run "$work/warm" "$one" >/dev/null || exit 1
for ((r = 0; r < rounds; r++)); do
	for mode in none cold warm; do
		for p in docker one; do
			policy=$docker
			[ $p = one ] && policy=$one
			case $mode in
			none) out=$(run "$work/warm" "$policy" --no-cache) ;;
			cold) rm -rf "$work/cold" && mkdir -m 700 "$work/cold" &&
				out=$(run "$work/cold" "$policy") ;;
			warm) out=$(run "$work/warm" "$policy") ;;
			esac || exit 1
			wall[$mode.$p]+="${out% *} "
			cpu[$mode.$p]+="${out#* } "
		done
	done
done

echo "startup-bench: sysward run -- /bin/true, $rounds rounds, medians in ms"
printf '%-10s %14s %14s %14s %14s %9s %9s\n' cache "docker wall" "docker cpu" \
	"one-rule wall" "one-rule cpu" "wall x" "cpu x"
for mode in none cold warm; do
	# shellcheck disable=SC2086
	dw=$(median ${wall[$mode.docker]}) dc=$(median ${cpu[$mode.docker]})
	# shellcheck disable=SC2086
	ow=$(median ${wall[$mode.one]}) oc=$(median ${cpu[$mode.one]})
	awk -v m="$mode" -v dw="$dw" -v dc="$dc" -v ow="$ow" -v oc="$oc" 'BEGIN {
		printf "%-10s %14d %14d %14d %14d %9.2f %9.2f\n", m, dw, dc, ow, oc,
		       ow ? dw / ow : 0, oc ? dc / oc : 0 }'
done
