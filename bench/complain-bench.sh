#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# complain-bench: what complain mode (and a log or report, which also
# stop at refused calls) costs against a plain run of the same program
# under the same policy.  It prints figures; it never passes or fails on
# time.
#
#   complain-bench.sh SYSWARD LOOP [TREE] [ROUNDS] [CALLS]
#
# Two programs, each ROUNDS times (default 5), the sides one after the
# other within each round, medians and ratios to the plain run printed:
#   - "tar -cf OUT TREE" (default TREE /usr/include) under Docker's
#     default profile: a real program the profile refuses nothing, so
#     complain mode adds only the stops of the defences it reports
#     (clone3 and the like) and the record;
#   - LOOP (bench/refusal-loop) making CALLS (default 100000) getppid
#     calls a policy refuses with EACCES: the worst case, every call a
#     refusal, which the plain run leaves to the kernel and the other
#     sides stop at.
# Sides: plain "sysward run"; "--log /dev/null"; "--report FILE";
# "--complain --report FILE".  Then the tar again, "sysward learn"
# against the plain run: learning stops at every call.
set -u
sysward=${1:?usage: complain-bench.sh SYSWARD LOOP [TREE] [ROUNDS] [CALLS]}
loop=${2:?usage: complain-bench.sh SYSWARD LOOP [TREE] [ROUNDS] [CALLS]}
tree=${3:-/usr/include}
rounds=${4:-5}
calls=${5:-100000}
here=$(cd "$(dirname "$0")" && pwd)
docker=$here/../policy/examples/docker-default.json

for f in "$sysward" "$loop" "$docker"; do
	[ -e "$f" ] || { echo "complain-bench: $f: not found" >&2; exit 2; }
done
[ -d "$tree" ] || { echo "complain-bench: $tree: not a directory" >&2; exit 2; }
case $rounds in ''|*[!0-9]*|0) echo "complain-bench: bad ROUNDS '$rounds'" >&2; exit 2 ;; esac
case $calls in ''|*[!0-9]*|0) echo "complain-bench: bad CALLS '$calls'" >&2; exit 2 ;; esac

work=$(mktemp -d /tmp/complain-bench.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
refuse=$work/refuse.json
echo '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}]}' >"$refuse"

# One run of "sysward run --policy POLICY OPTIONS... -- PROGRAM..."; prints
# its wall time in ms.  A run that failed gives no figure: it would lie.
run() {
	local policy=$1 t0 t1
	shift
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	t0=$(date +%s%N)
	"$sysward" run --policy "$policy" ${opts[@]+"${opts[@]}"} -q -- "$@" \
		>/dev/null 2>"$work/err" </dev/null ||
		{ echo "complain-bench: sysward run ${opts[*]} -- $* failed: $(head -c 300 "$work/err")" >&2; exit 1; }
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 ))
}

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

sides=("plain" "--log /dev/null" "--report" "--complain --report")
opts_of() {
	case $1 in
	0) ;;
	1) echo "--log /dev/null" ;;
	2) echo "--report $work/r.json" ;;
	3) echo "--complain --report $work/r.json" ;;
	esac
}

bench() {
	local title=$1 policy=$2
	shift 2
	local -a t0=() t1=() t2=() t3=()
	local r s m
	for ((r = 0; r < rounds; r++)); do
		for s in 0 1 2 3; do
			# shellcheck disable=SC2046
			m=$(run "$policy" $(opts_of $s) -- "$@") || exit 1
			eval "t$s+=($m)"
		done
	done
	echo "$title ($rounds rounds, median wall ms, ratio to plain):"
	local base
	base=$(median "${t0[@]}")
	for s in 0 1 2 3; do
		eval "m=\$(median \"\${t$s[@]}\")"
		awk -v n="${sides[$s]}" -v m="$m" -v b="$base" \
			'BEGIN { printf "  %-22s %8d %8.2fx\n", n, m, b ? m / b : 0 }'
	done
}

echo "complain-bench: $rounds rounds"
bench "tar -cf of $tree under docker-default" "$docker" \
	tar -cf "$work/out.tar" -C "$(dirname "$tree")" "$(basename "$tree")"
bench "$calls refused getppid calls" "$refuse" "$loop" "$calls"

# sysward learn of the tar: every call a stop.
lt=() pt=()
for ((r = 0; r < rounds; r++)); do
	pt+=("$(run "$docker" -- tar -cf "$work/out.tar" -C "$(dirname "$tree")" "$(basename "$tree")")") || exit 1
	t0=$(date +%s%N)
	"$sysward" learn -q -o "$work/learned.json" -- \
		tar -cf "$work/out.tar" -C "$(dirname "$tree")" "$(basename "$tree")" \
		>/dev/null 2>"$work/err" </dev/null ||
		{ echo "complain-bench: sysward learn failed: $(head -c 300 "$work/err")" >&2; exit 1; }
	t1=$(date +%s%N)
	lt+=($(( (t1 - t0) / 1000000 )))
done
mp=$(median "${pt[@]}") ml=$(median "${lt[@]}")
echo "tar -cf of $tree, learned ($rounds rounds, median wall ms, ratio to plain):"
awk -v p="$mp" -v l="$ml" 'BEGIN {
	printf "  %-22s %8d %8.2fx\n", "plain (docker-default)", p, 1
	printf "  %-22s %8d %8.2fx\n", "sysward learn", l, p ? l / p : 0 }'
