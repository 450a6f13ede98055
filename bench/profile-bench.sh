#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# profile-bench: does a real policy's BPF cost anything on a syscall-heavy
# real program?  It prints figures; it never passes or fails on time.
#
#   profile-bench.sh SYSWARD [TREE] [ROUNDS]
#
# Runs "tar -cf OUT TREE" (every file: openat, fstat, read, write, close;
# default TREE /usr/include) ROUNDS times (default 5) in three ways, one
# after the other within each round:
#   unconfined;
#   under "sysward run" with an allow-all policy (only sysward's built-in
#   defences in the filter);
#   under "sysward run" with Docker's default profile
#   (policy/examples/docker-default.json: ~300 rules, argument checks),
# and prints the median wall time of each and the ratios.  Every
# supervised call of either policy is a built-in defence's, so the
# difference between the last two is the BPF filter's cost.
set -u
sysward=${1:?usage: profile-bench.sh SYSWARD [TREE] [ROUNDS]}
tree=${2:-/usr/include}
rounds=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
docker=$here/../policy/examples/docker-default.json

for f in "$sysward" "$docker"; do
	[ -e "$f" ] || { echo "profile-bench: $f: not found" >&2; exit 2; }
done
[ -d "$tree" ] || { echo "profile-bench: $tree: not a directory" >&2; exit 2; }
case $rounds in ''|*[!0-9]*|0) echo "profile-bench: bad ROUNDS '$rounds'" >&2; exit 2 ;; esac

work=$(mktemp -d /tmp/profile-bench.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
allow=$work/allow-all.json
echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$allow"

# One run; prints its wall time in ms.  Fails the benchmark if tar fails
# or wrote a different archive: a figure of a run that did not do the
# work would lie.
run() {
	local t0 t1 out=$work/out.tar
	rm -f "$out"
	t0=$(date +%s%N)
	"$@" tar -cf "$out" -C "$(dirname "$tree")" "$(basename "$tree")" 2>"$work/err" ||
		{ echo "profile-bench: '$* tar' failed: $(head -c 300 "$work/err")" >&2; exit 1; }
	t1=$(date +%s%N)
	cmp -s "$out" "$work/ref.tar" ||
		{ echo "profile-bench: '$* tar' wrote a different archive" >&2; exit 1; }
	echo $(( (t1 - t0) / 1000000 ))
}

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

tar -cf "$work/ref.tar" -C "$(dirname "$tree")" "$(basename "$tree")" || exit 1
files=$(tar -tf "$work/ref.tar" | wc -l)
echo "profile-bench: tar of $tree ($files entries, $(du -sh "$work/ref.tar" | cut -f1)), $rounds rounds"
u=() a=() d=()
for ((r = 0; r < rounds; r++)); do
	u+=("$(run)") || exit 1
	a+=("$(run "$sysward" run --policy "$allow" --)") || exit 1
	d+=("$(run "$sysward" run --policy "$docker" --)") || exit 1
done
mu=$(median "${u[@]}") ma=$(median "${a[@]}") md=$(median "${d[@]}")
awk -v u="$mu" -v a="$ma" -v d="$md" 'BEGIN {
	printf "%-34s %8s %10s\n", "", "ms", "x unconf."
	printf "%-34s %8d %10.2f\n", "unconfined", u, 1
	printf "%-34s %8d %10.2f\n", "sysward run, allow-all policy", a, a / u
	printf "%-34s %8d %10.2f\n", "sysward run, docker-default", d, d / u
	printf "docker-default / allow-all = %.2f\n", d / a
}'
