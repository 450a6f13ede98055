#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Hostile-session benchmark (issue 12): with N hostile programs running
# (a spinner that never makes a syscall, a fork flood, a stop flood), the
# p99 latency of "sysward ps" and of a supervised call (an emulated
# getuid, timed inside a well-behaved syswardd session), and the time
# SIGTERM takes to stop the daemon.  Each figure is printed beside the
# same one measured with the same hostile programs running unconfined
# (so that CPU contention counts on both sides).  It prints; it never
# passes or fails on time.  Needs root (syswardd), python3.
#
#   hostile.sh SYSWARD SYSWARDD ADV_DIR [N]
#     ADV_DIR: build/tests/security (adv_spin, adv_events); N: hostile
#     programs of each kind (default 2)
set -u
SYSWARD=${1:?SYSWARD} SYSWARDD=${2:?SYSWARDD} ADV=${3:?ADV_DIR} N=${4:-2}
PY=$(command -v python3) || { echo "hostile.sh: needs python3" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "hostile.sh: run as root (syswardd)" >&2; exit 77; }
W=$(mktemp -d /tmp/sysward-hostile.XXXXXX)
S=$W/sock D=
hostile_pids=()

cleanup() {
	local p
	for p in "${hostile_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	[ -n "$D" ] && kill -9 "$D" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

cat >"$W/paths.json" <<'JSON'
{"defaultAction": "SCMP_ACT_ALLOW",
 "syscalls": [{"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
               "paths": [{"index": 1, "exact": "/nonexistent/sysward-denied"}]},
              {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
JSON
cat >"$W/stopflood.py" <<'PY'
import os, signal
pid = os.getpid()
if os.fork() == 0:
    while True:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            os._exit(0)
while True:
    os.kill(pid, signal.SIGSTOP)
PY
cat >"$W/calls.py" <<'PY'
import os, time
lat = []
for _ in range(3000):
    t = time.perf_counter_ns()
    os.getuid()
    lat.append(time.perf_counter_ns() - t)
lat.sort()
print(lat[len(lat) * 99 // 100] / 1000.0)
PY

start_daemon() {
	rm -f "$S"
	setsid "$SYSWARDD" --socket "$S" 2>>"$W/daemon.log" &
	D=$!
	for _ in $(seq 100); do [ -S "$S" ] && return 0; sleep 0.05; done
	echo "hostile.sh: syswardd did not start" >&2
	exit 1
}

# start_hostile confined|unconfined
start_hostile() {
	local pre=() i
	[ "$1" = confined ] && pre=("$SYSWARD" run --daemon="$S" --policy "$W/paths.json" --)
	for ((i = 0; i < N; i++)); do
		"${pre[@]}" "$ADV/adv_spin" >/dev/null 2>&1 </dev/null &
		hostile_pids+=($!); disown $!
		"${pre[@]}" "$ADV/adv_events" flood 1 >/dev/null 2>&1 </dev/null &
		hostile_pids+=($!); disown $!
		"${pre[@]}" "$PY" "$W/stopflood.py" >/dev/null 2>&1 </dev/null &
		hostile_pids+=($!); disown $!
	done
	sleep 2
}

stop_hostile() {
	local p
	if [ "$1" = confined ]; then
		# Their sessions end with the daemon; their clients follow.
		:
	else
		for p in "${hostile_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
		# The stop flood's child and the flood's children die with
		# their parents' group only if killed: by process name here
		# would be too broad; they exit on their own (ESRCH / exit).
	fi
	hostile_pids=()
}

# p99 in ms of "sysward ps" over 100 calls.
ps_p99() {
	local i t0 t1
	for ((i = 0; i < 100; i++)); do
		t0=$(date +%s%N)
		timeout -k 2 10 "$SYSWARD" ps --daemon="$S" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(( (t1 - t0) / 1000 ))
	done | sort -n | awk '{a[NR] = $1} END {printf "%.2f", a[int(NR * 0.99)] / 1000}'
}

# p99 in us of a supervised (emulated) getuid in a well-behaved session.
call_p99() {
	timeout -k 2 60 "$SYSWARD" run --daemon="$S" --policy "$W/paths.json" -- "$PY" "$W/calls.py" 2>/dev/null || echo "timeout"
}

sigterm_ms() {
	local t0 t1
	t0=$(date +%s%N)
	kill -TERM "$D"
	timeout 30 tail --pid="$D" -f /dev/null
	t1=$(date +%s%N)
	wait "$D" 2>/dev/null
	D=
	echo $(( (t1 - t0) / 1000000 ))
}

declare -A r
for mode in unconfined confined; do
	start_daemon
	start_hostile "$mode"
	r[$mode.ps]=$(ps_p99)
	r[$mode.call]=$(call_p99)
	r[$mode.term]=$(sigterm_ms)
	stop_hostile "$mode"
	sleep 1
done
printf '%d hostile programs of each kind (spinner, fork flood, stop flood)\n' "$N"
printf '%-34s %14s %14s %7s\n' "" "unconfined" "confined" "ratio"
for k in ps call term; do
	case $k in
	ps) name="sysward ps p99 (ms)" ;;
	call) name="supervised getuid p99 (us)" ;;
	term) name="SIGTERM to daemon gone (ms)" ;;
	esac
	awk -v n="$name" -v a="${r[unconfined.$k]}" -v b="${r[confined.$k]}" \
		'BEGIN {printf "%-34s %14s %14s %7s\n", n, a, b, (a > 0 ? sprintf("%.2fx", b / a) : "-")}'
done
