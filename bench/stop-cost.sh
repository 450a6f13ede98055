#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What one supervised call costs with tracer and tracee on one CPU and as
# the scheduler places them (issue 34), in one run:
#
#   bench/stop-cost.sh [-b BUILD] [-B BASE] [-n CALLS] [-r ROUNDS] [-c CPU]
#                      [-k KEYS] [-p LOOPS]
#
#   -b BUILD   build directory (default: build)
#   -B BASE    another build (e.g. of main) whose rows run unpinned beside
#              BUILD's in the same rounds: the "base" column
#   -n CALLS   getppid() calls per row and round (default: 20000)
#   -r ROUNDS  rounds (default: 5)
#   -c CPU     the one CPU of the pinned side (default: 1)
#   -k KEYS    sysward-bench rows (default: c,c2,d,df,ds,dl,di,e,u,us)
#   -p LOOPS   iterations of the path loop (default: 4000; 0: none)
#
# Each round runs build/bench/sysward-bench --only KEYS four ways, in an
# order that alternates between rounds: one calling thread and two, each
# pinned (taskset -c CPU: the bench, its supervisors, tracers and
# tracees all on one CPU) and unpinned.  It prints, per row, the median
# ns per call of each side and unpinned / pinned; with two calling
# threads also calls per second; and the machine's idle share while
# each side ran (from /proc/stat: idle vCPUs are what makes a wake-up
# cross CPUs, so a busy machine shows smaller ratios).  Rows: c sysward
# rewrite, c2 sysward emulate (the session's seccomp listener; a stop
# in builds before it, e.g. a -B BASE of main), d the hand-written 1-stop floor (GET,
# SET, CONT), df/ds/dl/di the floor with each way tried of keeping the
# tracer beside its tracee (follow its CPU, spin, short slice,
# SCHED_IDLE), e strace --seccomp-bpf inject, u/us a hand-written
# seccomp USER_NOTIF emulation (us with the listener's synchronous
# wake-up).  Then the path row: a shell loop of LOOPS x (test -e, test -r,
# a redirection from the file: newfstatat, faccessat2, openat) under
# `sysward run` with a policy whose path condition every one of those
# calls is checked against (read on the supervisor's reader thread, never
# matching), per call, with the same loop unconfined beside it.
# Prints; judges no time.  Exits 1 if a row failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
calls=20000
rounds=5
cpu=1
keys=c,c2,d,df,ds,dl,di,e,u,us
base=
loops=4000
while getopts b:B:n:r:c:k:p: o; do
	case $o in
	b) build=$(cd "$OPTARG" && pwd) ;;
	B) base=$(cd "$OPTARG" && pwd) ;;
	p) loops=$OPTARG ;;
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

policy=$out/path.json
cat >"$policy" <<'JSON'
{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
  {"names": ["newfstatat", "faccessat2", "openat"], "action": "SCMP_ACT_ERRNO",
   "errno": "EACCES", "paths": [{"index": 1, "prefix": "/nonexistent-stop-cost/"}]}]}
JSON
# shellcheck disable=SC2016
loop='i=0; while [ $i -lt '$loops' ]; do test -e /etc/passwd; test -r /etc/passwd; : </etc/passwd; i=$((i+1)); done'

# ns per call of the path loop, run by "$@" (a command prefix)
pathloop() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" sh -c "$loop" || return 1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / (3 * loops)))
}

fail=0
# run SIDE THREADS: one sysward-bench; its rows to $out/SIDE.THREADS
# (SIDE: pinned, unpinned, base: BASE's bench, unpinned)
run() {
	local side=$1 t=$2 pin=() i0 t0 i1 t1 log b=$bench sw=$build/client/sysward v
	[ "$side" = pinned ] && pin=(taskset -c "$cpu")
	[ "$side" = base ] && b=$base/bench/sysward-bench sw=$base/client/sysward
	read -r i0 t0 < <(cpustat)
	log=$("${pin[@]}" "$b" -n "$calls" --only "$keys" --calling-threads "$t" --tsv 2>&1) || {
		echo "stop-cost: $side, $t thread(s): sysward-bench failed:" >&2
		echo "$log" >&2
		fail=1
	}
	read -r i1 t1 < <(cpustat)
	awk -F'\t' '$1 == "row" { print $2, $3 }' <<<"$log" >>"$out/$side.$t"
	if [ "$t" = 1 ] && [ "$loops" -gt 0 ]; then
		if v=$(pathloop "${pin[@]}" "$sw" run --policy "$policy" --); then
			echo "path $v" >>"$out/$side.$t"
		else
			echo "stop-cost: $side: the path loop failed under sysward" >&2
			fail=1
		fi
		v=$(pathloop "${pin[@]}") && echo "path0 $v" >>"$out/$side.$t"
	fi
	awk -v i="$((i1 - i0))" -v t="$((t1 - t0))" 'BEGIN { if (t > 0) printf "%.0f\n", 100 * i / t }' >>"$out/$side.$t.idle"
}

echo "stop-cost: $rounds rounds of $calls calls per row; pinned = taskset -c $cpu; $(nproc) CPUs, $(uname -r)"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then
		order="unpinned:1 pinned:1 ${base:+base:1} unpinned:2 pinned:2 ${base:+base:2}"
	else
		order="${base:+base:2} pinned:2 unpinned:2 ${base:+base:1} pinned:1 unpinned:1"
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
	c2) echo "sysward emulate (listener)" ;;
	d) echo "hand-written 1-stop floor (GET, SET, CONT)" ;;
	df) echo "floor, tracer follows the tracee's CPU" ;;
	ds) echo "floor, spin before sleeping" ;;
	dl) echo "floor, tracer slice 0.1 ms" ;;
	di) echo "floor, tracer SCHED_IDLE" ;;
	e) echo "strace --seccomp-bpf inject" ;;
	u) echo "USER_NOTIF emulate round trip (hand-written)" ;;
	us) echo "USER_NOTIF, synchronous wake-up" ;;
	path) echo "sysward path-checked stat/faccessat2/openat" ;;
	path0) echo "the same shell loop unconfined" ;;
	*) echo "$1" ;;
	esac
}
for t in 1 2; do
	echo
	echo "$t calling thread(s), medians of $rounds (machine idle while it ran: pinned $(median <"$out/pinned.$t.idle")%, unpinned $(median <"$out/unpinned.$t.idle")%${base:+, base $(median <"$out/base.$t.idle")%}):"
	printf '| %-44s | %10s | %10s | %8s |' "per call" "one CPU" "unpinned" "ratio"
	[ "$t" -gt 1 ] && printf ' %14s |' "calls/s unpin."
	[ -n "$base" ] && printf ' %10s | %10s |' "base unp." "unp./base"
	[ -n "$base" ] && [ "$t" -gt 1 ] && printf ' %14s |' "calls/s base"
	echo
	IFS=, read -ra ks <<<"$keys"
	[ "$t" = 1 ] && [ "$loops" -gt 0 ] && ks+=(path path0)
	for k in "${ks[@]}"; do
		p=$(awk -v k="$k" '$1 == k { print $2 }' "$out/pinned.$t" 2>/dev/null | median)
		u=$(awk -v k="$k" '$1 == k { print $2 }' "$out/unpinned.$t" 2>/dev/null | median)
		b=-
		[ -n "$base" ] && b=$(awk -v k="$k" '$1 == k { print $2 }' "$out/base.$t" 2>/dev/null | median)
		awk -v w="$(what "$k")" -v p="$p" -v u="$u" -v b="$b" -v t="$t" 'BEGIN {
			printf "| %-44s | %7.1f us | %7.1f us | %7.2fx |", w, p / 1000, u / 1000, (p > 0 ? u / p : 0)
			if (t > 1) printf " %14.0f |", (u > 0 ? 1e9 / u : 0)
			if (b != "-") {
				printf " %7.1f us | %9.2fx |", b / 1000, (b > 0 ? u / b : 0)
				if (t > 1) printf " %14.0f |", (b > 0 ? 1e9 / b : 0)
			}
			printf "\n" }'
	done
done
exit $fail
