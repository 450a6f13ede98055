#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What one supervised call costs with tracer and tracee on one CPU and as
# the scheduler places them (issue 34), in one run:
#
#   bench/stop-cost.sh [-b BUILD] [-n CALLS] [-r ROUNDS] [-c CPU] [-k KEYS]
#
#   -b BUILD   build directory (default: build)
#   -n CALLS   getppid() calls per row and round (default: 20000)
#   -r ROUNDS  rounds (default: 5)
#   -c CPU     the one CPU of the pinned side (default: 1)
#   -k KEYS    sysward-bench rows (default: c,c2,d,df,ds,dl,di,e,u,us)
#
# Each round runs build/bench/sysward-bench --only KEYS four ways, in an
# order that alternates between rounds: one calling thread and two, each
# pinned (taskset -c CPU: the bench, its supervisors, tracers and
# tracees all on one CPU) and unpinned.  It prints, per row, the median
# ns per call of each side and unpinned / pinned; with two calling
# threads also calls per second; and the machine's idle share while
# each side ran (from /proc/stat: idle vCPUs are what makes a wake-up
# cross CPUs, so a busy machine shows smaller ratios).  Rows: c sysward
# rewrite, c2 sysward emulate, d the hand-written 1-stop floor (GET,
# SET, CONT), df/ds/dl/di the floor with each way tried of keeping the
# tracer beside its tracee (follow its CPU, spin, short slice,
# SCHED_IDLE), e strace --seccomp-bpf inject, u/us a hand-written
# seccomp USER_NOTIF emulation (us with the listener's synchronous
# wake-up).  Prints; judges no time.  Exits 1 if a row failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
calls=20000
rounds=5
cpu=1
keys=c,c2,d,df,ds,dl,di,e,u,us
while getopts b:n:r:c:k: o; do
	case $o in
	b) build=$(cd "$OPTARG" && pwd) ;;
	n) calls=$OPTARG ;;
	r) rounds=$OPTARG ;;
	c) cpu=$OPTARG ;;
	k) keys=$OPTARG ;;
	*) sed -n '3,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
bench=$build/bench/sysward-bench
[ -x "$bench" ] || { echo "stop-cost: no $bench (build first)" >&2; exit 1; }
command -v taskset >/dev/null || { echo "stop-cost: needs taskset (util-linux)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# idle and total jiffies of the whole machine
cpustat() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print $5 + $6, t }' /proc/stat; }

fail=0
# run SIDE THREADS: one sysward-bench; its rows to $out/SIDE.THREADS
run() {
	local side=$1 t=$2 pin=() i0 t0 i1 t1 log
	[ "$side" = pinned ] && pin=(taskset -c "$cpu")
	read -r i0 t0 < <(cpustat)
	log=$("${pin[@]}" "$bench" -n "$calls" --only "$keys" --calling-threads "$t" --tsv 2>&1) || {
		echo "stop-cost: $side, $t thread(s): sysward-bench failed:" >&2
		echo "$log" >&2
		fail=1
	}
	read -r i1 t1 < <(cpustat)
	awk -F'\t' '$1 == "row" { print $2, $3 }' <<<"$log" >>"$out/$side.$t"
	awk -v i="$((i1 - i0))" -v t="$((t1 - t0))" 'BEGIN { if (t > 0) printf "%.0f\n", 100 * i / t }' >>"$out/$side.$t.idle"
}

echo "stop-cost: $rounds rounds of $calls calls per row; pinned = taskset -c $cpu; $(nproc) CPUs, $(uname -r)"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then
		order="unpinned:1 pinned:1 unpinned:2 pinned:2"
	else
		order="pinned:2 unpinned:2 pinned:1 unpinned:1"
	fi
	for s in $order; do
		run "${s%:*}" "${s#*:}"
	done
	echo "  round $r done" >&2
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
what() {
	case $1 in
	c) echo "sysward rewrite (1 stop)" ;;
	c2) echo "sysward emulate (1 stop)" ;;
	d) echo "hand-written 1-stop floor (GET, SET, CONT)" ;;
	df) echo "floor, tracer follows the tracee's CPU" ;;
	ds) echo "floor, spin before sleeping" ;;
	dl) echo "floor, tracer slice 0.1 ms" ;;
	di) echo "floor, tracer SCHED_IDLE" ;;
	e) echo "strace --seccomp-bpf inject" ;;
	u) echo "USER_NOTIF emulate round trip (hand-written)" ;;
	us) echo "USER_NOTIF, synchronous wake-up" ;;
	*) echo "$1" ;;
	esac
}
for t in 1 2; do
	echo
	echo "$t calling thread(s), medians of $rounds (machine idle while it ran: pinned $(median <"$out/pinned.$t.idle")%, unpinned $(median <"$out/unpinned.$t.idle")%):"
	printf '| %-44s | %10s | %10s | %8s |' "per call" "one CPU" "unpinned" "ratio"
	[ "$t" -gt 1 ] && printf ' %14s |' "calls/s unpin."
	echo
	IFS=, read -ra ks <<<"$keys"
	for k in "${ks[@]}"; do
		p=$(awk -v k="$k" '$1 == k { print $2 }' "$out/pinned.$t" 2>/dev/null | median)
		u=$(awk -v k="$k" '$1 == k { print $2 }' "$out/unpinned.$t" 2>/dev/null | median)
		awk -v w="$(what "$k")" -v p="$p" -v u="$u" -v t="$t" 'BEGIN {
			printf "| %-44s | %7.1f us | %7.1f us | %7.2fx |", w, p / 1000, u / 1000, (p > 0 ? u / p : 0)
			if (t > 1) printf " %14.0f |", (u > 0 ? 1e9 / u : 0)
			printf "\n" }'
	done
done
exit $fail
