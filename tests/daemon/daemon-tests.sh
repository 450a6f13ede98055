#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# syswardd behaviour tests on this machine's kernel.  Each scenario starts
# its own daemon on a temporary socket and asserts what clients and their
# programs observe: exit codes, output, error text, who may see and kill
# which session, and that no confined program outlives its supervisor.
# The scenarios that are rows (a daemon, commands through it, what they
# must do) are in the table daemon-tests.rows (tests/lib/rows.sh); the
# functions t_NAME here are programs.
#
#   daemon-tests.sh --list        scenario names (one CTest test each)
#   daemon-tests.sh SCENARIO...   exit 0 pass, 1 fail, 77 skipped
#   daemon-tests.sh embedded:NAME run the integration scenario NAME of
#                                 tests/integration/run.sh through the daemon
#
# Environment (set by CTest): SYSWARD, SYSWARDD, PROBE, SWD_RAW, SRCDIR;
# SHARDS, if set, is every daemon's --shards (CTest runs the scenarios
# with the default, and with 1 and 4 tracer threads).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)

. "$HERE/../lib/common.sh"
. "$HERE/../lib/rows.sh"
. "$HERE/../lib/nsbox.sh"
. "$HERE/../lib/fsrules.sh"
. "$HERE/../lib/sandbox.sh"
W=
D_PID=
S=

# start_daemon [SYSWARDD OPTIONS...]: a private daemon on $W/sock, socket
# mode 0666 so that other users' clients can reach it; run through the
# command in the array DAEMON_AS if set (e.g. as another user).
start_daemon() {
	local i before n
	S=$W/sock
	# Up once it says so: a socket file may be there already (a stale
	# one, left by a daemon killed, which this one takes over).
	before=$(grep -c '^syswardd: listening on ' "$W/daemon.log" 2>/dev/null)
	# Its own session and process group, as under systemd: a signal to
	# a program's process group must not reach the test harness.
	# Its compiled-filter cache its own, in $W: no entry of another
	# test's (or of the machine's root) decides how long a compile is.
	XDG_CACHE_HOME=$W/cache setsid ${DAEMON_AS[@]+"${DAEMON_AS[@]}"} "$SYSWARDD" --socket "$S" --socket-mode 0666 \
		${SHARDS:+--shards "$SHARDS"} "$@" 2>>"$W/daemon.log" &
	D_PID=$!
	for ((i = 0; i < 100; i++)); do
		n=$(grep -c '^syswardd: listening on ' "$W/daemon.log" 2>/dev/null)
		[ -S "$S" ] && [ "${n:-0}" -gt "${before:-0}" ] && return 0
		kill -0 "$D_PID" 2>/dev/null || break
		sleep 0.05
	done
	fail "syswardd did not start:"
	cat "$W/daemon.log" >&2
	return 1
}

stop_daemon() {
	if [ -n "$D_PID" ] && kill -0 "$D_PID" 2>/dev/null; then
		kill -TERM "$D_PID"
		wait "$D_PID" 2>/dev/null
	fi
	D_PID=
}

# swd POLICY PROGRAM [ARGS...]: sysward run --daemon, output in $W/out,
# $W/err, status in $rc.
swd() {
	local policy=$1
	shift
	sw_capture "$SYSWARD" run --daemon="$S" --policy "$policy" -- "$@"
}

# "${NOBODY[@]}" COMMAND...: run as uid/gid 65534, no supplementary groups.
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# daemon_serves: the daemon still runs and serves a fresh client.
daemon_serves() {
	kill -0 "$D_PID" 2>/dev/null || { fail "syswardd died"; return 1; }
	swd "$(uid_policy 4242)" "$PROBE" getuid
	expect_rc 0
	expect_output "getuid=4242"
}

# term_beside WHAT CLIENT [SECONDS]: SIGTERM the daemon; it is gone within
# 10 s, and the background client CLIENT within SECONDS (10) after that.
term_beside() {
	kill -TERM "$D_PID"
	timeout 10 tail --pid="$D_PID" -f /dev/null ||
		{ fail "syswardd still runs 10 s after SIGTERM $1"; kill -9 "$D_PID"; }
	wait "$D_PID"
	D_PID=
	timeout "${3:-10}" tail --pid="$2" -f /dev/null ||
		{ fail "a client still runs ${3:-10} s after the daemon's SIGTERM $1"; kill -9 "$2"; }
	wait "$2"
}

# session_bg NAME SECS WHAT: a session (allow policy) of the probe
# sleeping SECS in the background, its client's pid in $bg; waits for the
# program's pid in $W/NAME.pid.  If it never comes: fail "WHAT did not
# start", kill the client, return 1.
session_bg() {
	"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" \
		pidfile "$W/$1.pid" sleep "$2" >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/$1.pid" 100 && return 0
	fail "$3 did not start"
	kill -9 "$bg"
	return 1
}

# run_contained WHY: last_cmd (60 s at most), its output shown; the
# adversarial program in it must exit 0 with "verdict: contained", else
# fail "WHY".
run_contained() {
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 0
	grep -q '^verdict: contained' "$W/out" || fail "$1"
}

# kill_session ID CLIENT [AS...]: "sysward kill ID" (run through the
# command AS, e.g. "${NOBODY[@]}") succeeds, and CLIENT, the pid of the
# session's client, ends with 137 (its program's SIGKILL).
kill_session() {
	last_cmd=("${@:3}" "$SYSWARD" kill --daemon="$S" "$1")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	wait "$2"
	rc=$?
	last_cmd=("the client of session $1 after kill")
	expect_rc 137
}

# ---------------------------------------------------------------- scenarios

t_run_basics() {
	start_daemon || return
	# Emulated getuid, the program's own exit status, stdin passing.
	swd "$(uid_policy 4242)" "$PROBE" getuid geteuid getgid exit 3
	expect_rc 3
	expect_output "getuid=4242
geteuid=4242
getgid=0"
	last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c 'read l; echo "got $l"; echo oops >&2')
	echo "hello daemon" | timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	expect_output "got hello daemon"
	grep -qx oops "$W/err" || { fail "stderr of the program did not reach the client's stderr"; dump_last; }
	# The program sees the client's cwd and environment.
	(cd "$W" && SW_TEST_VAR=xyz timeout 60 "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c 'pwd; echo $SW_TEST_VAR') >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	expect_output "$W
xyz"
	# ... and its umask.
	(umask 0027 && timeout 60 "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c umask) >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	expect_output "0027"
	# PROGRAM found with the client's PATH, not the daemon's.
	mkdir -p "$W/bin"
	printf '#!/bin/sh\necho from-client-path\n' >"$W/bin/sw-only-here"
	chmod 0755 "$W/bin/sw-only-here"
	PATH=$W/bin:$PATH swd "$(allow_policy)" sw-only-here
	expect_rc 0
	expect_output "from-client-path"
}

t_checks_as_client() {
	# Root could execute a 0700 root file; the daemon must check as the
	# client, so nobody gets 126 (and root still runs it).
	start_daemon || return
	chmod 0755 "$W"
	printf '#!/bin/sh\necho secret-ran\n' >"$W/rootonly"
	chmod 0700 "$W/rootonly"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$W/rootonly")
	timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 126
	expect_output ""
	expect_err "Permission denied"
	swd "$(allow_policy)" "$W/rootonly"
	expect_rc 0
	expect_output "secret-ran"
	# A working directory nobody cannot reach is refused, not entered
	# by the root part of the launch.
	mkdir -p "$W/private/inner"
	chmod 0700 "$W/private"
	chmod 0755 "$W/private/inner"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- pwd)
	(cd "$W/private/inner" && timeout 60 "${last_cmd[@]}") >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_output ""
	expect_err "cannot use the working directory $W/private/inner as uid 65534: Permission denied"
}

t_signals_forwarded() {
	# Signals to the client reach the program.  (env --default-signal:
	# a non-interactive shell starts background jobs with SIGINT and
	# SIGQUIT ignored, and an ignored signal is not forwarded, just as
	# an embedded program would inherit it ignored.)
	start_daemon || return
	local bg sig
	for sig in USR1 TERM INT HUP QUIT; do
		rm -f "$W/ready"
		last_cmd=(env --default-signal "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c "trap 'echo got-$sig; exit 5' $sig; echo ready >$W/ready; while :; do sleep 0.05; done")
		"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null &
		bg=$!
		wait_file "$W/ready" 100 || fail "program never became ready"
		kill -"$sig" "$bg"
		timeout 10 tail --pid="$bg" -f /dev/null || { fail "client still runs 10 s after SIG$sig"; kill -9 "$bg"; }
		wait "$bg"
		rc=$?
		expect_rc 5
		expect_output "got-$sig"
	done
	# A program that does not catch SIGINT dies of it: 130, as embedded.
	rm -f "$W/ready"
	last_cmd=(env --default-signal "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/ready" sleep 30)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	wait_file "$W/ready" 100 || fail "program never wrote its pid"
	kill -INT "$bg"
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "client still runs 10 s after SIGINT"; kill -9 "$bg"; }
	wait "$bg"
	rc=$?
	expect_rc 130
}

t_job_control_stop() {
	# Ctrl-Z (SIGTSTP) to the client stops the whole program, here a
	# shell's child, and the client, so that a shell sees its job
	# stopped; SIGCONT (fg) resumes them and the program finishes
	# normally.
	#
	# The client runs as a shell's job: in a process group of its own
	# whose parent is in another group of the same session.  A group
	# with no such parent is orphaned, and there the kernel discards the
	# stop of SIGTSTP for any program, confined or not: this script's
	# own group is one when CI runs it without a terminal.
	start_daemon || return
	local bg job pid i pst cst
	last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c "'$PROBE' pidfile '$W/pid' sleep 2; echo finished")
	"$PYTHON" -c '
import os, sys
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.execvp(sys.argv[2], sys.argv[2:])
try:
    os.setpgid(pid, pid)
except PermissionError:
    pass            # it made its group and exec'"'"'d first
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % pid)
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st) % 256)' "$W/client.pid" "${last_cmd[@]}" \
		>"$W/out" 2>"$W/err" </dev/null &
	job=$!
	wait_file "$W/client.pid" 100 || { fail "the job never started"; kill -9 "$job"; return; }
	bg=$(cat "$W/client.pid")
	wait_file "$W/pid" 100 || { fail "program never wrote its pid"; kill -9 "$bg"; return; }
	pid=$(cat "$W/pid")
	kill -TSTP "$bg"
	for ((i = 0; i < 100; i++)); do
		pst=$(proc_state "$pid"); cst=$(proc_state "$bg")
		[[ $pst == [Tt] && $cst == [Tt] ]] && break
		sleep 0.05
	done
	[[ $cst == [Tt] ]] || fail "the client did not stop on SIGTSTP (state '$cst')"
	[[ $pst == [Tt] ]] || fail "the program did not stop when its client got SIGTSTP (state '$pst')"
	# Stopped for longer than the program's 2 s sleep: it must still be
	# there, waiting to be continued.
	sleep 2.5
	pst=$(proc_state "$pid")
	[[ $pst == [Tt] ]] || fail "the program did not stay stopped (state '$pst')"
	kill -CONT "$bg"
	timeout 20 tail --pid="$job" -f /dev/null || { fail "client still runs 20 s after SIGCONT"; kill -9 "$bg"; }
	wait "$job"
	rc=$?
	expect_rc 0
	expect_output "finished"
}

t_signals_stay_in_session() {
	# A program's signals reach its own process tree only: its own
	# session (kill(0, ...)), never the daemon or another session of the
	# same uid; kill(-1, ...) is refused.
	start_daemon || return
	chmod 0755 "$W"
	local bg i
	# root: kill(0, SIGTERM) ends the program itself, not the daemon.
	swd "$(allow_policy)" sh -c 'kill -TERM 0; echo survived'
	expect_rc 143
	daemon_serves || return
	# root: kill(-1, SIGTERM) is refused (it would end every process).
	swd "$(allow_policy)" sh -c 'kill -TERM -1; echo "kill -1: $?"'
	expect_rc 0
	expect_output "kill -1: 1"
	daemon_serves || return
	# nobody: another session of nobody's survives kill -USR1 0 and a
	# kill -USR1 at its pid.
	mkdir -m 1777 "$W/pub"
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pub/other.pid" sleep 3 >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/pub/other.pid" 100 || { fail "the other session's program did not start"; kill -9 "$bg"; return; }
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c "trap 'echo got-USR1' USR1; kill -USR1 0; kill -USR1 $(cat "$W/pub/other.pid"); echo \"kill other: \$?\"")
	timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "got-USR1
kill other: 1"
	running "$(cat "$W/pub/other.pid")" || fail "the other session's program died of a signal from another session"
	wait "$bg"
	rc=$?
	last_cmd=("the other session's client")
	expect_rc 0
	daemon_serves
}

t_groups_stay_in_session() {
	# Every program is a process group of its own in a kernel session of
	# its own, led by its holder, its parent (so that it stops as a
	# shell's job does).  A program, as root and as uid 65534, tries to
	# join the daemon's process group and another session's with
	# setpgid(2), and signals them every other way (adv_signals targets):
	# all refused (route 11; the kernel refuses a group of another
	# session, and the supervisor checks setpgid's group besides).
	# (t_no_controlling_tty: and no terminal.)
	local bg as other
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	start_daemon || return
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pub/other.pid" sleep 20 >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/pub/other.pid" 100 || { fail "the other session's program did not start"; kill -9 "$bg"; return; }
	other=$(cat "$W/pub/other.pid")
	# Control: the layout this test assumes.
	local osid oppid
	osid=$(ps -o sid= -p "$other" | tr -d ' ')
	oppid=$(ps -o ppid= -p "$other" | tr -d ' ')
	[ "$osid" != "$(ps -o sid= -p "$D_PID" | tr -d ' ')" ] && [ "$osid" = "$oppid" ] &&
		[ "$(ps -o pgid= -p "$other" | tr -d ' ')" = "$other" ] ||
		fail "control: the other session's program is not a group of its own under its session's leader (sid $osid, ppid $oppid)"
	for as in root nobody; do
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_signals" targets "$other")
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		run_contained "a $as program reached a group outside its session"
		grep -q '^result: setpgid into the outside group = -1 EPERM' "$W/out" ||
			fail "a $as program's setpgid into another session's group was not refused with EPERM"
	done
	kill -9 "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
	daemon_serves
}

t_pidcalls_stay_in_session() {
	# Route 16: a root session lowers the limits of syswardd and of
	# another session's program with prlimit64 (RLIMIT_CPU below what
	# they used gets them killed; RLIMIT_NOFILE 3 stops the daemon
	# accepting clients).  Refused: both keep their limits and run.
	start_daemon || return
	local bg other before
	session_bg other 3 "the other session's program" || return
	other=$(cat "$W/other.pid")
	before=$(grep -E '^Max (cpu time|open files)' "/proc/$D_PID/limits" "/proc/$other/limits")
	swd "$(allow_policy)" sh -c "prlimit --pid $D_PID --cpu=1:1 --nofile=3:3; echo \"daemon: \$?\"; prlimit --pid $other --cpu=1:1; echo \"other: \$?\""
	expect_rc 0
	expect_output "daemon: 1
other: 1"
	grep -q 'Operation not permitted' "$W/err" || { fail "prlimit did not say EPERM"; dump_last; }
	[ "$(grep -E '^Max (cpu time|open files)' "/proc/$D_PID/limits" "/proc/$other/limits")" = "$before" ] ||
		fail "the limits of syswardd or of the other session's program changed"
	running "$other" || fail "the other session's program died"
	wait "$bg"
	rc=$?
	last_cmd=("the other session's client")
	expect_rc 0
	daemon_serves
}

t_client_gone_kills_session() {
	start_daemon || return
	local bg pid
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 7)" -- "$PROBE" pidfile "$W/pid" sleep 60 >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/pid" 100 || { fail "program never wrote its pid"; kill -9 $bg; return; }
	pid=$(cat "$W/pid")
	running "$pid" || fail "program $pid not running"
	kill -9 "$bg"
	wait "$bg" 2>/dev/null
	for ((i = 0; i < 20; i++)); do
		running "$pid" || break
		sleep 0.05
	done
	if running "$pid"; then
		fail "program $pid still runs 1 s after its client was SIGKILLed"
		kill -9 "$pid"
	fi
	daemon_serves
}

t_concurrent_50() {
	# 50 clients at once, each under its own policy (its own emulated
	# uid) and with its own exit status.
	start_daemon || return
	local i pids=() bad=0
	for ((i = 1; i <= 50; i++)); do
		uid_policy $((1000 + i)) >/dev/null
	done
	for ((i = 1; i <= 50; i++)); do
		timeout 60 "$SYSWARD" run --daemon="$S" --policy "$W/uid$((1000 + i)).json" -- \
			"$PROBE" getuid sleep 1 getuid exit "$i" >"$W/out.$i" 2>"$W/err.$i" </dev/null &
		pids[i]=$!
	done
	for ((i = 1; i <= 50; i++)); do
		wait "${pids[i]}"
		rc=$?
		if [ "$rc" -ne "$i" ]; then
			fail "client $i: exit status $rc, expected $i: $(cat "$W/err.$i")"
			bad=1
		fi
		if [ "$(cat "$W/out.$i")" != "getuid=$((1000 + i))
getuid=$((1000 + i))" ]; then
			fail "client $i: output '$(cat "$W/out.$i")', expected getuid=$((1000 + i)) twice"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ] && echo "50 concurrent sessions: all exit codes and outputs correct"
	daemon_serves
}

t_daemon_killed() {
	# SIGKILL the daemon: every confined program (and its children) is
	# gone within a second, every client exits 125 saying why.
	start_daemon || return
	local i pids=() prog=() child=() deadline pol
	# Written once: five background clients writing it at once race on
	# its temporary file.
	pol=$(uid_policy 5)
	for ((i = 1; i <= 5; i++)); do
		"$SYSWARD" run --daemon="$S" --policy "$pol" -- \
			"$PROBE" spawn-sleeper "$W/child.$i" pidfile "$W/main.$i" sleep 60 \
			>"$W/out.$i" 2>"$W/err.$i" </dev/null &
		pids[i]=$!
	done
	for ((i = 1; i <= 5; i++)); do
		if ! wait_file "$W/main.$i" 100 || ! wait_file "$W/child.$i" 100; then
			fail "program $i never wrote its pid files"
			kill -9 "${pids[@]}" "$D_PID"
			return
		fi
		prog[i]=$(cat "$W/main.$i")
		child[i]=$(cat "$W/child.$i")
	done
	kill -9 "$D_PID"
	wait "$D_PID" 2>/dev/null
	D_PID=
	sleep 1
	for ((i = 1; i <= 5; i++)); do
		if running "${prog[i]}"; then
			fail "program ${prog[i]} still runs 1 s after syswardd was SIGKILLed"
			kill -9 "${prog[i]}"
		fi
		if running "${child[i]}"; then
			fail "child ${child[i]} still runs 1 s after syswardd was SIGKILLed"
			kill -9 "${child[i]}"
		fi
	done
	for ((i = 1; i <= 5; i++)); do
		timeout 10 tail --pid="${pids[i]}" -f /dev/null
		wait "${pids[i]}"
		rc=$?
		[ "$rc" -eq 125 ] || fail "client $i exit status $rc after the daemon died, expected 125"
		grep -q "sysward: lost connection to syswardd: " "$W/err.$i" ||
			fail "client $i did not say it lost the daemon: $(cat "$W/err.$i")"
	done
	# With the daemon gone, a new client fails clearly.
	swd "$(uid_policy 5)" "$PROBE" getuid
	expect_rc 125
	expect_err "sysward: cannot reach syswardd:" "$S"
}

t_daemon_terminated() {
	# SIGTERM stops the daemon cleanly: programs are killed, clients
	# are told why and exit 125, the socket file is removed.
	start_daemon || return
	local bg pid
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 5)" -- "$PROBE" pidfile "$W/pid" sleep 60 >"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	wait_file "$W/pid" 100 || { fail "program never wrote its pid"; kill -9 $bg; return; }
	pid=$(cat "$W/pid")
	kill -TERM "$D_PID"
	wait "$D_PID"
	rc=$?
	D_PID=
	last_cmd=(syswardd after SIGTERM)
	expect_rc 0
	running "$pid" && { fail "program $pid survived the daemon's SIGTERM"; kill -9 "$pid"; }
	timeout 10 tail --pid="$bg" -f /dev/null
	wait "$bg"
	rc=$?
	last_cmd=(client of a stopped daemon)
	expect_rc 125
	expect_err "sysward: syswardd is shutting down; the program was killed"
	[ -e "$S" ] && fail "socket $S left behind after SIGTERM"
	grep -q "Terminated received, stopping" "$W/daemon.log" || fail "daemon log lacks the stop message"
}

t_record() {
	# RECORD before RUN: the daemon keeps the session's record and sends
	# its REPORT before EXIT (a program refused everything, complaining:
	# it runs, every call a would-be refusal).  The client writes the
	# report file itself, with its own rights: a uid that cannot write
	# there is stopped before anything runs, and its file is its own.
	start_daemon || return
	local got
	got=$(timeout 20 "$SWD_RAW" "$S" record-run 2>&1)
	[[ $got == *STARTED*"REPORT refusals="[1-9]*"EXIT 0"* ]] ||
		fail "record-run: expected STARTED, a REPORT with refusals, EXIT 0; got '$got'"
	chmod 0755 "$W"
	mkdir -m 0777 "$W/pub"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4242)"
		  --complain --report "$W/r.json" -- "$PROBE" getuid)
	timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "open report $W/r.json: Permission denied"
	[ ! -s "$W/out" ] || fail "the program ran although its report cannot be written"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4242)"
		  --report "$W/pub/r.json" --gate -- "$PROBE" getuid)
	timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "getuid=4242"
	[ "$(stat -c %u "$W/pub/r.json" 2>/dev/null)" = 65534 ] ||
		fail "the report is not the client's (owner $(stat -c %u "$W/pub/r.json" 2>&1))"
	grep -q '"emulated": 1' "$W/pub/r.json" ||
		{ fail "the report does not count the emulated getuid"; cat "$W/pub/r.json" >&2; }
	daemon_serves
}

t_bad_requests() {
	# Each malformed, truncated or oversized request gets an error reply
	# (or, when the client vanished mid-request, nothing), and the daemon
	# goes on serving the next client.
	start_daemon || return
	local mode want got
	while IFS='|' read -r mode want; do
		[ -n "$mode" ] || continue
		got=$(timeout 20 "$SWD_RAW" "$S" "$mode" 2>&1)
		case "$got" in
		*"$want"*) ;;
		*) fail "$mode: reply '$got' lacks '$want'" ;;
		esac
		kill -0 "$D_PID" 2>/dev/null || { fail "syswardd died after $mode"; return; }
	done <<-'EOF'
	bad-magic|ERROR errno=EPROTO exit=125 msg=bad magic 0x20544547
	bad-version|ERROR errno=EPROTO exit=125 msg=protocol version 9 not supported
	bad-flags|ERROR errno=EPROTO exit=125 msg=reserved header flags 0x80 must be 0
	unknown-type|ERROR errno=EOPNOTSUPP exit=125 msg=unknown message type 0x42
	reply-type|ERROR errno=EOPNOTSUPP exit=125 msg=unknown message type 0x82
	oversized|ERROR errno=EMSGSIZE exit=125 msg=RUN message of 67108864 bytes exceeds the limit of 4194304 bytes
	oversized-kill|ERROR errno=EMSGSIZE exit=125 msg=KILL message of 9 bytes exceeds the limit of 8 bytes
	malformed-run|ERROR errno=E2BIG exit=125 msg=RUN request: argc 0 out of range 1..4096
	short-kill|ERROR errno=EBADMSG exit=1 msg=KILL message has 4 payload bytes (expected 8)
	run-no-fds|ERROR errno=EBADMSG exit=125 msg=RUN request carries 0 file descriptors and names 3
	run-one-fd|ERROR errno=EBADMSG exit=125 msg=RUN request carries 1 file descriptors and names 3
	ps-with-fds|ERROR errno=EBADMSG exit=125 msg=file descriptors may only come with a RUN request
	bad-policy|exit=125 msg=raw.json:1:
	truncated-header|CLOSED
	truncated-payload|CLOSED
	run-ok|STARTED
	record-bad-flags|ERROR errno=EBADMSG exit=125 msg=RECORD request: unknown flags 0x80
	record-gate-126|ERROR errno=EBADMSG exit=125 msg=RECORD request: gate status 126 is not 0..255 or is sysward's own (125, 126, 127)
	record-twice|ERROR errno=EBUSY exit=125 msg=RECORD comes once, before the connection's RUN
	record-after-run|ERROR errno=EBUSY exit=125 msg=RECORD comes once, before the connection's RUN
	EOF
	# Random bytes, 400 connections: each gets an ERROR or a hang-up
	# (a PS or SIGNAL that happens to be well-formed gets its reply).
	got=$(timeout 120 "$SWD_RAW" "$S" random:400 2>&1)
	echo "$got"
	[[ "$got" =~ ^RANDOM\ n=400\ errors=[0-9]+\ closed=[0-9]+\ other=0$ ]] ||
		fail "random requests did not all get an ERROR or a hang-up: $got"
	kill -0 "$D_PID" 2>/dev/null || { fail "syswardd died of random requests"; return; }
	daemon_serves
	# A client stuck half-way through a header does not block others.
	"$SWD_RAW" "$S" hold-partial:5 >"$W/hold" 2>&1 &
	local hold=$!
	sleep 0.2
	daemon_serves
	kill "$hold" 2>/dev/null
	wait "$hold" 2>/dev/null
	daemon_serves
}

t_request_timeout() {
	# Connections that do not complete a request in time are closed with
	# an error; a session's connection lives as long as its program.
	start_daemon --request-timeout 1 || return
	local got t0 t1
	t0=$(date +%s)
	got=$(timeout 20 "$SWD_RAW" "$S" stall 2>&1)
	t1=$(date +%s)
	[[ "$got" == "ERROR errno=ETIMEDOUT exit=125 msg=no complete request within 1 s; closing the connection" ]] ||
		fail "half a header: '$got'"
	[ $((t1 - t0)) -le 5 ] || fail "a stalled request was closed only after $((t1 - t0)) s"
	got=$(timeout 20 "$SWD_RAW" "$S" silent 2>&1)
	[[ "$got" == "ERROR errno=ETIMEDOUT"* ]] || fail "a silent connection: '$got'"
	swd "$(uid_policy 3)" "$PROBE" sleep 3 getuid
	expect_rc 0
	expect_output "getuid=3"
	daemon_serves
}

t_ps_json() {
	# ps --json: one JSON document, an array of the caller's sessions
	# with the fields of the text table, as numbers and strings.
	start_daemon || return
	local bg
	session_bg p 60 "the program" || return
	last_cmd=("$SYSWARD" ps --daemon="$S" --json)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	"$PYTHON" - "$W/out" "$(cat "$W/p.pid")" "$PROBE" <<-'EOF' || { fail "ps --json: wrong document"; dump_last; }
	import json, sys, time
	out, pid, probe = sys.argv[1:]
	got = json.load(open(out))
	assert isinstance(got, list), got
	mine = [s for s in got if s["pid"] == int(pid)]
	assert len(mine) == 1, got
	s = mine[0]
	assert sorted(s) == ["decisions", "id", "pid", "policy", "program", "started", "uid", "user"], s
	assert s["program"] == probe and s["uid"] == 0 and s["user"] == "root", s
	assert s["policy"].endswith("allow.json"), s
	assert isinstance(s["id"], int) and s["id"] > 0, s
	assert isinstance(s["decisions"], int), s
	assert abs(s["started"] - time.time()) < 120, s
	EOF
	# Control: the text table is unchanged.
	last_cmd=("$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	head -1 "$W/out" | grep -q '^ID     PID      USER       TIME    DECISIONS  POLICY               PROGRAM$' || { fail "ps header changed"; dump_last; }
	kill "$bg" 2>/dev/null
	kill -9 "$(cat "$W/p.pid")" 2>/dev/null
	wait "$bg" 2>/dev/null
	daemon_serves
}

t_other_uid() {
	# nobody cannot list or kill root's session; its own program runs as
	# nobody; root sees and may kill everything.
	start_daemon || return
	chmod 0755 "$W"
	local bg root_bg nobody_bg root_id nobody_id
	session_bg root 60 "root's program" || return
	root_bg=$bg
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c 'id -u; id -g; sleep 60' >"$W/nobody.out" 2>"$W/nobody.err" </dev/null &
	nobody_bg=$!
	# Both lines: the first alone would race the second id(1).
	for ((i = 0; i < 200; i++)); do
		[ "$(wc -l <"$W/nobody.out")" -ge 2 ] && break
		sleep 0.05
	done
	[ "$(cat "$W/nobody.out")" = "65534
65534" ] || fail "nobody's program runs as '$(cat "$W/nobody.out" | tr '\n' ' ')', not uid/gid 65534: $(cat "$W/nobody.err")"
	last_cmd=("$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	root_id=$(awk '$3 == "root" && $NF == "'"$PROBE"'" {print $1}' "$W/out")
	nobody_id=$(awk '$3 == "nobody" {print $1}' "$W/out")
	[ -n "$root_id" ] && [ -n "$nobody_id" ] || { fail "root's ps does not show both sessions"; dump_last; }
	last_cmd=("${NOBODY[@]}" "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	grep -q "root" "$W/out" && { fail "nobody's ps lists root's session"; dump_last; }
	grep -q "^$nobody_id " "$W/out" || { fail "nobody's ps lacks its own session $nobody_id"; dump_last; }
	last_cmd=("${NOBODY[@]}" "$SYSWARD" kill --daemon="$S" "$root_id")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 1
	expect_err "no session $root_id of uid 65534"
	running "$(cat "$W/root.pid")" || fail "root's program died after nobody's kill"
	# Capabilities are for root clients only.
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --cap net_raw --policy "$(allow_policy)" -- true)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "uid 65534 may not keep capabilities"
	# nobody kills its own session; root kills root's.
	kill_session "$nobody_id" "$nobody_bg" "${NOBODY[@]}"
	kill_session "$root_id" "$root_bg"
}

t_no_controlling_tty() {
	# A daemon started by hand from a terminal must not hand that
	# terminal (/dev/tty) to its clients' programs.
	command -v script >/dev/null || { echo "SKIP: no script(1)"; return 77; }
	local probe='( exec 3<>/dev/tty ) 2>/dev/null && echo TTY-OPEN || echo NO-TTY'
	cat >"$W/in-pty.sh" <<-EOF
	# control: in this pty a process does have a controlling terminal
	sh -c '$probe'
	"$SYSWARDD" --socket "$W/sock" 2>>"$W/daemon.log" &
	d=\$!
	for i in \$(seq 100); do [ -S "$W/sock" ] && break; sleep 0.05; done
	"$SYSWARD" run --daemon="$W/sock" --policy "$(allow_policy)" -- sh -c '$probe' </dev/null
	kill \$d; wait \$d
	EOF
	last_cmd=(script -qc "bash $W/in-pty.sh" /dev/null)
	timeout 60 "${last_cmd[@]}" </dev/null 2>"$W/err" | tr -d '\r' >"$W/out"
	rc=$?
	expect_rc 0
	expect_output "TTY-OPEN
NO-TTY"
}

t_root_caps_without_setpcap() {
	# syswardd in a container of runc's default spec (or drop: ALL)
	# lacks CAP_SETPCAP and cannot shrink the bounding set: a root
	# client's program still starts, with no capability (no_new_privs
	# keeps the bounding set from granting any), and one asked for.
	local DAEMON_AS=(setpriv --bounding-set=-setpcap)
	start_daemon || return
	swd "$(allow_policy)" sh -c 'grep -E "^(CapPrm|CapEff|NoNewPrivs)" /proc/self/status'
	expect_rc 0
	expect_output "CapPrm:	0000000000000000
CapEff:	0000000000000000
NoNewPrivs:	1"
	last_cmd=("$SYSWARD" run --daemon="$S" --cap CAP_NET_RAW --policy "$(allow_policy)" -- sh -c 'grep ^CapEff /proc/self/status')
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "CapEff:	0000000000002000"
	daemon_serves
}

t_root_daemon_in_default_container() {
	# syswardd as root with the capabilities of runc's default spec
	# (AUDIT_WRITE, KILL, NET_BIND_SERVICE: no CAP_SETGID, CAP_SETUID,
	# CAP_SETPCAP) and no_new_privs: setgroups(2) needs CAP_SETGID even
	# to set what the process has.  A root client of the same groups is
	# served (its program starts with exactly them); a client of another
	# uid is refused with the reason (the daemon cannot become it), and
	# nothing runs as root for it.  The root client is in the container
	# too: one holding capabilities the daemon lacks cannot be read
	# (its /proc/PID/ns: a ptrace-mode check), and is refused.
	local DAEMON_AS=(setpriv --no-new-privs --inh-caps=-all
		--bounding-set=-all,+audit_write,+kill,+net_bind_service)
	start_daemon || return
	chmod 0755 "$W"
	swd "$(uid_policy 4242)" "$PROBE" getuid
	expect_rc 125
	expect_err "a client holding capabilities the daemon lacks cannot be read"
	local SYSWARD_HOST=$SYSWARD
	local SYSWARD=$W/sysward-in-container
	# setpriv by its path: the guest's /bin/sh is busybox's, whose
	# own setpriv applet (no --bounding-set) wins over PATH.
	printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v setpriv) ${DAEMON_AS[*]:1} $SYSWARD_HOST" >"$SYSWARD"
	chmod 0755 "$SYSWARD"
	swd "$(uid_policy 4242)" "$PROBE" getuid
	expect_rc 0
	expect_output "getuid=4242"
	swd "$(allow_policy)" sh -c 'id -G; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status'
	expect_rc 0
	expect_output "$(id -G)
CapEff:	0000000000000000
NoNewPrivs:	1"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- id -u)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	[ -s "$W/out" ] && fail "a program ran for uid 65534: $(cat "$W/out")"
	grep -q "uid 65534" "$W/err" || fail "the refusal does not name the client's uid: $(cat "$W/err")"
	daemon_serves
}

# Confused deputy: a program confined by sysward that can reach the
# daemon's socket must not get a session outside its own policy, nor
# capabilities it lacks, nor have the daemon kill sessions for it.  Every
# confined process is ptrace-traced by its supervisor, so the daemon
# refuses RUN, KILL and PS from a traced client (peer_vet).
#
# nested_client OUTER...: run, confined by OUTER (an embedded "sysward run"
# or a daemon session, getuid emulated as 4242), a shell that shows it is
# confined, then asks the daemon for a session under a policy that allows
# everything, whose id -u would print the real uid 0; and, with the raw
# protocol (the client would ask only for capabilities it has), for one
# with every capability.
# uid_grant_policy: getuid emulated as 4242, and a rule granting
# connect to the daemon's socket: a confined program then reaches the
# daemon (route 19 lets it), whose own check (route 14) must refuse it.
uid_grant_policy() {
	policy uid4242grant <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid", "geteuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	              {"names": ["connect"], "action": "SCMP_ACT_ALLOW",
	               "paths": [{"index": 1, "exact": "$S"}]}]}
	EOF
}

nested_client() {
	local allow
	allow=$(allow_policy)
	last_cmd=("$@" sh -c "id -u
		'$SYSWARD' run --daemon='$S' --policy '$allow' -- id -u
		echo \"inner: \$?\"
		'$SWD_RAW' '$S' run-caps:ffffffffffffffff
		'$SWD_RAW' '$S' leader-exits:ffffffffffffffff")
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	# 4242: the shell is confined; no 0, no CapEff: no inner program ran.
	local refused="ERROR errno=EPERM exit=125 msg=syswardd refuses RUN from pid N: it is traced (by pid M); programs confined by sysward cannot start, signal or list sessions (a client under a debugger or strace is traced too: run it untraced)"
	sed -i 's/from pid [0-9]*: it is traced (by pid [0-9]*)/from pid N: it is traced (by pid M)/' "$W/out"
	expect_output "4242
inner: 125
$refused
CLOSED
$refused
CLOSED"
	expect_err "syswardd refuses RUN from pid " \
		"it is traced (by pid " \
		"programs confined by sysward cannot start, signal or list sessions"
}

t_confined_client_run() {
	# (a) from a program confined by an embedded "sysward run", of the
	# daemon's uid (root): the daemon is a service of its uid outside
	# its session, and route 19 refuses the connect first; with a rule
	# granting the daemon's socket, the daemon refuses the request.
	start_daemon --audit-log "$W/audit.jsonl" || return
	last_cmd=("$SYSWARD" run --policy "$(uid_policy 4242)" -- "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- id -u)
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "cannot reach syswardd: connect to $S: Permission denied"
	nested_client "$SYSWARD" run --policy "$(uid_grant_policy)" --
	[ "$(grep -c '"event":"request-refused".*"request":"RUN","errno":1,.*it is traced' "$W/audit.jsonl")" -eq 3 ] ||
		fail "the three refusals are not in the audit log: $(cat "$W/audit.jsonl")"
	grep -q '"event":"session-start"' "$W/audit.jsonl" &&
		fail "a session was started: $(cat "$W/audit.jsonl")"
	daemon_serves
}

t_session_client_run() {
	# (b) from a program in a daemon session of the same daemon (the
	# daemon's socket granted, as in (a)).
	start_daemon || return
	nested_client "$SYSWARD" run --daemon="$S" --policy "$(uid_grant_policy)" --
	daemon_serves
}

t_caps_beyond_client() {
	# (c) an untraced root client gets no capability it does not hold
	# itself: uid 0 is not all capabilities.
	start_daemon || return
	command -v setpriv >/dev/null || { echo "SKIP: no setpriv(1)"; return 77; }
	local nocaps=(setpriv --inh-caps=-all --bounding-set=-all)
	last_cmd=("${nocaps[@]}" "$SYSWARD" run --daemon="$S" --cap net_raw,chown --policy "$(allow_policy)" -- sh -c 'grep ^CapEff /proc/self/status')
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_output ""
	expect_err "may not keep capabilities it does not have: it lacks CAP_CHOWN, CAP_NET_RAW (its effective set is 0x0)"
	# One it holds, it gets; one more it does not, and it is refused.
	local netraw=(setpriv --inh-caps=-all --bounding-set=-all,+net_raw)
	last_cmd=("${netraw[@]}" "$SYSWARD" run --daemon="$S" --cap net_raw --policy "$(allow_policy)" -- sh -c 'grep ^CapEff /proc/self/status')
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "CapEff:	0000000000002000"
	last_cmd=("${netraw[@]}" "$SYSWARD" run --daemon="$S" --cap net_raw,kill --policy "$(allow_policy)" -- true)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "it lacks CAP_KILL (its effective set is 0x2000)"
	# Asked on the wire, whatever the client holds.
	last_cmd=("${netraw[@]}" "$SWD_RAW" "$S" run-caps:2020)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "ERROR errno=EPERM exit=125 msg=pid $(sed -n 's/.*msg=pid \([0-9]*\) .*/\1/p' "$W/out") may not keep capabilities it does not have: it lacks CAP_KILL (its effective set is 0x2000); syswardd grants no capability beyond the client's own
CLOSED"
	# --cap all is all the client has, as in embedded mode.
	last_cmd=("${netraw[@]}" "$SYSWARD" run --daemon="$S" --cap all --policy "$(allow_policy)" -- sh -c 'grep ^CapEff /proc/self/status')
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_output "CapEff:	0000000000002000"
}

t_confined_client_kill() {
	# (d) KILL (and PS) from a confined program, embedded or in a
	# session, are refused; the victim session lives.
	start_daemon || return
	local bg id outer
	session_bg victim 60 "the victim" || return
	id=$("$SYSWARD" ps --daemon="$S" | awk -v p="$PROBE" '$NF == p {print $1}')
	[ -n "$id" ] || { fail "sysward ps does not list the victim"; kill -9 "$bg"; return; }
	for outer in embedded session; do
		# (The daemon's socket granted: route 14's check, not route
		# 19's, is what this tries.)
		local wrap=("$SYSWARD" run --policy "$(uid_grant_policy)" --)
		[ "$outer" = session ] && wrap=("$SYSWARD" run --daemon="$S" --policy "$(uid_grant_policy)" --)
		last_cmd=("${wrap[@]}" sh -c "'$SYSWARD' kill --daemon='$S' $id; echo \"kill: \$?\"; '$SYSWARD' ps --daemon='$S'; echo \"ps: \$?\"")
		timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		expect_rc 0
		expect_output "kill: 1
ps: 1"
		expect_err "syswardd refuses KILL from pid " "syswardd refuses PS from pid " "it is traced (by pid "
		sleep 0.2
		running "$(cat "$W/victim.pid")" || fail "$outer: the victim session was killed by a confined program"
	done
	# The normal path: an untraced client lists and kills it.
	kill_session "$id" "$bg"
}

t_client_gone() {
	# The daemon vets the process that connected: once it has exited,
	# its pid may name another process, and the request is refused.
	start_daemon || return
	last_cmd=("$SWD_RAW" "$S" connector-exits)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	wait_file "$W/out" 50 || { fail "no reply"; dump_last; return; }
	sleep 0.2
	expect_output "ERROR errno=EPERM exit=125 msg=syswardd refuses RUN from pid $(sed -n 's/.*from pid \([0-9]*\):.*/\1/p' "$W/out"): the process that connected has exited, so whether it was confined cannot be checked"
	daemon_serves
}

t_traced_client() {
	# A client merely under a debugger is traced too, and refused, with a
	# message that says so; the same client untraced is served.
	command -v strace >/dev/null || { echo "SKIP: no strace(1)"; return 77; }
	start_daemon || return
	last_cmd=(strace -f -o /dev/null "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 1
	expect_err "refuses PS from pid " "it is traced (by pid " "a client under a debugger or strace is traced too: run it untraced"
	last_cmd=(strace -f -o /dev/null "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- true)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "refuses RUN from pid "
	last_cmd=("$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
}

t_audit_log() {
	start_daemon --audit-log "$W/audit.jsonl" || return
	local p
	p=$(policy logged <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 9},
	              {"names": ["mkdir", "mkdirat"], "action": "SYSWARD_ACT_LOG"}]}
	EOF
	)
	swd "$p" "$PROBE" getuid mkdir "$W/d1"
	expect_rc 0
	swd "$p" "$PROBE" getuid
	expect_rc 0
	[ -s "$W/audit.jsonl" ] || { fail "audit log empty"; return; }
	"$PYTHON" - "$W/audit.jsonl" <<-'EOF' || fail "audit log check failed"
	import json, sys
	lines = [json.loads(l) for l in open(sys.argv[1])]
	ev = lambda e: [l for l in lines if l.get("event") == e]
	assert len(ev("session-start")) == 2, lines
	assert len(ev("session-exit")) == 2, lines
	s1, s2 = [l["session"] for l in ev("session-start")]
	assert s1 != s2
	dec = [l for l in lines if "syscall" in l]
	assert all("session" in l for l in dec), dec
	assert sorted({l["session"] for l in dec}) == sorted([s1, s2]), dec
	assert any(l["syscall"] == "mkdir" and l["session"] == s1 for l in dec), dec
	assert [l["exit_code"] for l in ev("session-exit")] == [0, 0]
	start = ev("session-start")[0]
	assert start["uid"] == 0 and start["argv"][1] == "getuid", start
	print("audit log: %d lines, sessions %d and %d" % (len(lines), s1, s2))
	EOF
	# Appended, one line each: a second daemon adds to the same file.
	stop_daemon
	local n
	n=$(wc -l <"$W/audit.jsonl")
	start_daemon --audit-log "$W/audit.jsonl" || return
	swd "$p" "$PROBE" getuid
	[ "$(wc -l <"$W/audit.jsonl")" -gt "$n" ] || fail "second daemon did not append to the audit log"
}

t_audit_log_allows() {
	# The audit log has what an operator needs (refusals, emulations,
	# LOG rules, session start and end), not a line per plain allow by
	# a path rule (most of a real log: 614,358 newfstatat lines of
	# 942,475 in issue 35), unless --audit-allows asks for them.
	local p n how
	p=$(policy paths <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 9},
	              {"names": ["mkdir", "mkdirat"], "action": "SYSWARD_ACT_LOG"},
	              {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	               "paths": [{"index": 1, "prefix": "$W/denied"}]},
	              {"names": ["openat"], "action": "SCMP_ACT_ALLOW",
	               "paths": [{"index": 1, "prefix": "/"}]}]}
	EOF
	)
	for how in default allows; do
		rm -f "$W/audit.jsonl"
		if [ "$how" = allows ]; then
			start_daemon --audit-log "$W/audit.jsonl" --audit-allows || return
		else
			start_daemon --audit-log "$W/audit.jsonl" || return
		fi
		swd "$p" "$PROBE" getuid open /etc/hostname rdonly open "$W/denied" rdonly mkdir "$W/d-$how"
		stop_daemon
		"$PYTHON" - "$W/audit.jsonl" "$how" "$W/denied" <<-'EOF' || fail "$how: audit log check failed"
		import json, sys
		lines = [json.loads(l) for l in open(sys.argv[1])]
		how, denied = sys.argv[2], sys.argv[3]
		ev = [l.get("event") for l in lines if "event" in l]
		dec = [l for l in lines if "syscall" in l]
		assert ev == ["session-start", "session-exit"], ev
		has = lambda f: any(f(l) for l in dec)
		assert has(lambda l: l["syscall"] == "getuid" and l["action"] == "SYSWARD_ACT_EMULATE"), dec
		assert has(lambda l: l["syscall"] == "mkdir" and l["action"] == "SYSWARD_ACT_LOG"), dec
		assert has(lambda l: l.get("path") == denied and l["action"] == "SCMP_ACT_ERRNO"), dec
		allows = [l for l in dec if l["action"] == "SCMP_ACT_ALLOW"]
		print("%s: %d lines, %d plain allows" % (how, len(lines), len(allows)))
		if how == "allows":
		    assert any(l.get("path") == "/etc/hostname" for l in allows), allows
		else:
		    assert not allows, allows
		EOF
	done
}

# Route 15 (docs/security.md): what a client and its program control
# reaches syswardd's audit log (the program's paths, argv, the working
# directory, the policy's file name); newlines, escape sequences and
# bytes that are not UTF-8 in any of them leave every line valid JSON,
# one record per call, with the exact bytes recoverable.
t_audit_log_forged() {
	[ -n "${ADV:-}" ] && [ -x "$ADV/adv_audit" ] || { fail "ADV/adv_audit missing"; return; }
	start_daemon --audit-log "$W/audit.jsonl" || return
	local pol=$W/pol$'\n{"x":1}\xff'.json dir=$W/cwd$'\xe9\r\033[2J' \
		prog=$W/adv$'\xfe\n' a2=$'\xc0\xaf\n' a3=$'ok\xe2\x82\xac'
	cp "$SRCDIR/tests/security/policies/audit-paths.json" "$pol" &&
		mkdir "$dir" && ln -s "$ADV/adv_audit" "$prog" || { fail "setup"; return; }
	(cd "$dir" && swd "$pol" "$prog" /nonexistent-sysward-audit "$a2" "$a3"
	 echo "$rc" >"$W/rc")
	rc=$(cat "$W/rc")
	expect_rc 0
	hex() { printf %s "$1" | od -An -tx1 -v | tr -d ' \n'; }
	"$PYTHON" "$SRCDIR/tests/lib/audit-check.py" json "$W/audit.jsonl" "$W/out" \
		/nonexistent-sysward-audit/ || fail "a decision line was forged or broken"
	"$PYTHON" "$SRCDIR/tests/lib/audit-check.py" session "$W/audit.jsonl" \
		"argv.0=$(hex "$prog")" "argv.2=$(hex "$a2")" "argv.3=$(hex "$a3")" \
		"cwd=$(hex "$dir")" "policy=$(hex "$pol")" ||
		fail "the session-start line was broken or lost the client's bytes"
	[ "$failed" = 0 ] || head -c 4000 "$W/audit.jsonl" >&2
}

t_max_sessions() {
	start_daemon --max-sessions 2 || return
	local a b
	"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/a" sleep 30 >/dev/null 2>&1 </dev/null &
	a=$!
	"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/b" sleep 30 >/dev/null 2>&1 </dev/null &
	b=$!
	wait_file "$W/a" 100 && wait_file "$W/b" 100 || fail "two sessions did not start"
	swd "$(allow_policy)" "$PROBE" getuid
	expect_rc 125
	expect_err "syswardd already runs its limit of 2 sessions"
	kill -TERM "$a"
	wait "$a"
	rc=$?
	last_cmd=("first session after SIGTERM")
	expect_rc 143
	daemon_serves
	kill -9 "$b"
	wait "$b" 2>/dev/null
}

t_flood_does_not_stall() {
	# Two sessions that stop the supervisor on every loop iteration do
	# not keep short sessions from starting and finishing promptly.
	start_daemon || return
	local p f1 f2 i t0 t1
	p=$(policy flood <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getppid"], "action": "SYSWARD_ACT_EMULATE", "return": 1}]}
	EOF
	)
	# sw-probe's sys:getppid in an endless shell loop would fork; a tight
	# loop of supervised syscalls from one process is what floods.
	"$SYSWARD" run --daemon="$S" --policy "$p" -- "$PYTHON" -c 'import os
while True: os.getppid()' >/dev/null 2>&1 </dev/null &
	f1=$!
	"$SYSWARD" run --daemon="$S" --policy "$p" -- "$PYTHON" -c 'import os
while True: os.getppid()' >/dev/null 2>&1 </dev/null &
	f2=$!
	sleep 1
	t0=$(date +%s%N)
	for ((i = 0; i < 10; i++)); do
		swd "$(uid_policy 11)" "$PROBE" getuid
		expect_rc 0
		expect_output "getuid=11"
	done
	t1=$(date +%s%N)
	echo "10 sessions beside 2 flooding ones: $(( (t1 - t0) / 1000000 )) ms"
	[ $(( (t1 - t0) / 1000000 )) -lt 20000 ] || fail "10 short sessions took over 20 s beside flooding ones"
	last_cmd=("$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	awk 'NR > 1 && $5 > 1000 {n++} END {exit !(n >= 2)}' "$W/out" ||
		{ fail "the flooding sessions show no supervisor decisions in ps"; cat "$W/out" >&2; }
	kill -TERM "$f1" "$f2"
	wait "$f1" "$f2" 2>/dev/null
}

# A policy with a path condition: each new image gets the path guard,
# mapped at its first syscall (engine/trace/pathguard.c).
path_policy() {
	policy paths <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	               "paths": [{"index": 1, "exact": "/nonexistent/sysward-denied"}]}]}
	EOF
}

# session_of PROGRAM: the id of the (one) session running PROGRAM, after
# waiting up to 10 s for it to show in ps.
session_of() {
	local id end=$((SECONDS + 10))
	while ((SECONDS < end)); do
		id=$(timeout -k 2 5 "$SYSWARD" ps --daemon="$S" 2>/dev/null | awk -v p="$1" '$NF == p {print $1; exit}')
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}

# have_fusectl: fusectl is (or now gets) mounted at its place; the tests
# that leave a FUSE request unanswered abort its connection there.  (No
# mountpoint(1): the guest has no util-linux.)
have_fusectl() {
	grep -qs ' /sys/fs/fuse/connections fusectl ' /proc/self/mounts ||
		mount -t fusectl none /sys/fs/fuse/connections 2>/dev/null
}

# fuse_reached CLIENT PATTERN: wait up to 10 s for adv_fuse (its client
# CLIENT, output in $W/hostile.out) to print PATTERN; 77 (skip) if this
# machine cannot mount FUSE for it, 1 (failed) if it never does.
fuse_reached() {
	local t0=$((SECONDS + 10))
	until grep -q "$2" "$W/hostile.out" 2>/dev/null; do
		grep -q '^verdict: cannot-test' "$W/hostile.out" 2>/dev/null &&
			{ cat "$W/hostile.out"; wait "$1"; echo "SKIP: cannot mount FUSE here"; return 77; }
		((SECONDS < t0)) ||
			{ fail "adv_fuse never printed '$2'"; cat "$W/hostile.out"; kill -9 "$1"; return 1; }
		sleep 0.05
	done
}

# kill_session ID CLIENT_PID WHAT: "sysward kill ID" succeeds and the
# session's client (a background job) ends within 10 s.
kill_session() {
	last_cmd=(timeout -k 5 10 "$SYSWARD" kill --daemon="$S" "$1")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	timeout 10 tail --pid="$2" -f /dev/null ||
		{ fail "$3: client still runs 10 s after sysward kill"; kill -9 "$2"; }
}

# serves_beside WHAT [nobody]: with a hostile session running, another
# uid's session and root's (with "nobody": nobody's) path-checked session
# run and exit normally, ps answers: each within 10 s.
serves_beside() {
	local as=()
	[ "${2:-}" = nobody ] && as=("${NOBODY[@]}")
	last_cmd=(timeout -k 5 10 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4343)" -- "$PROBE" getuid exit 7)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	[ "$rc" -eq 7 ] && [ "$(cat "$W/out")" = "getuid=4343" ] ||
		{ fail "beside $1: nobody's session did not run normally within 10 s"; dump_last; }
	last_cmd=(timeout -k 5 10 "${as[@]}" "$SYSWARD" run --daemon="$S" --policy "$(path_policy)" -- "$PROBE" open /nonexistent/sysward-denied rdonly getuid)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	[ "$rc" -eq 0 ] && grep -q "^getuid=" "$W/out" && grep -q "EACCES" "$W/out" ||
		{ fail "beside $1: ${2:-root}'s path-checked session did not run normally within 10 s"; dump_last; }
	last_cmd=(timeout -k 5 10 "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "beside $1: ps did not answer within 10 s"; dump_last; }
}

# hostile NAME PROGRAM [ARGS...]: run it in a session under the path
# policy; other sessions, ps and kill are served meanwhile; kill ends it.
hostile() {
	local name=$1 bg id
	shift
	"$SYSWARD" run --daemon="$S" --policy "$(path_policy)" -- "$@" >/dev/null 2>"$W/hostile.err" </dev/null &
	bg=$!
	id=$(session_of "$1") || { fail "$name: its session never showed in ps"; kill -9 "$bg"; return 1; }
	sleep 0.5
	serves_beside "$name"
	kill_session "$id" "$bg" "$name"
	wait "$bg"
	rc=$?
	last_cmd=("client of the killed $name")
	expect_rc 137
	timeout -k 2 10 "$SYSWARD" ps --daemon="$S" | awk -v p="$1" '$NF == p {f = 1} END {exit f}' ||
		fail "$name: ps still lists the killed session"
	echo "$name: other sessions, ps and kill served"
}

t_hostile_never_freezes() {
	# Route 13 (docs/security.md): whatever one session's program does, other
	# sessions (another uid too), ps, kill and SIGTERM are served.
	start_daemon || return
	chmod 0755 "$W"
	local bg pid t0 t1
	# An image that never makes a syscall: its path guard waits for a
	# first syscall that never comes.
	hostile spinner "$ADV/adv_spin"
	# The same, stopped (SIGSTOP from outside) before its first syscall,
	# then continued.
	"$SYSWARD" run --daemon="$S" --policy "$(path_policy)" -- "$ADV/adv_spin" >/dev/null 2>&1 </dev/null &
	bg=$!
	session_of "$ADV/adv_spin" >/dev/null || fail "stopped spinner: no session"
	pid=$(timeout -k 2 10 "$SYSWARD" ps --daemon="$S" | awk -v p="$ADV/adv_spin" '$NF == p {print $2; exit}')
	if [ -n "$pid" ]; then
		kill -STOP "$pid"
		sleep 0.3
		[[ $(proc_state "$pid") == [Tt] ]] || fail "the spinner did not stop on SIGSTOP (state $(proc_state "$pid"))"
		serves_beside "a stopped spinner"
		kill -CONT "$pid"
		sleep 0.3
		[ "$(proc_state "$pid")" = R ] || fail "the spinner did not run again on SIGCONT (state $(proc_state "$pid"))"
		kill -9 "$pid"
	fi
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "stopped spinner: client still runs 10 s after SIGKILL"; kill -9 "$bg"; }
	wait "$bg"
	# A program that stops itself.
	hostile self-stopper sh -c 'kill -STOP $$; echo continued'
	# A program that floods forks (children and threads gone at once).
	hostile fork-flood "$ADV/adv_events" flood 4
	# SIGTERM with a spinner running: the daemon stops promptly.
	"$SYSWARD" run --daemon="$S" --policy "$(path_policy)" -- "$ADV/adv_spin" >/dev/null 2>&1 </dev/null &
	bg=$!
	session_of "$ADV/adv_spin" >/dev/null || fail "spinner for SIGTERM: no session"
	t0=$(date +%s%N)
	kill -TERM "$D_PID"
	timeout 10 tail --pid="$D_PID" -f /dev/null ||
		{ fail "syswardd still runs 10 s after SIGTERM beside a spinner"; kill -9 "$D_PID"; }
	t1=$(date +%s%N)
	wait "$D_PID"
	D_PID=
	echo "SIGTERM beside a spinner: daemon gone after $(( (t1 - t0) / 1000000 )) ms"
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "spinner's client still runs 10 s after the daemon's SIGTERM"; kill -9 "$bg"; }
	wait "$bg"
}

# idle_tracers: how many of the daemon's threads run SCHED_IDLE now (the
# policy, field 41 of /proc/PID/task/TID/stat: 5 is SCHED_IDLE).
idle_tracers() {
	local t n=0
	for t in /proc/"$D_PID"/task/*; do
		[ "$(awk '{print $41}' "$t/stat" 2>/dev/null)" = 5 ] && n=$((n + 1))
	done
	echo "$n"
}

# await_idle_tracers N WHAT: wait up to 10 s until N threads are.
await_idle_tracers() {
	local end=$((SECONDS + 10))
	until [ "$(idle_tracers)" -eq "$1" ]; do
		((SECONDS < end)) || { fail "$2: $(idle_tracers) tracer threads at SCHED_IDLE after 10 s, expected $1"; return 1; }
		sleep 0.1
	done
}

# steady_idle_tracers N WHAT: N threads are SCHED_IDLE, and still are
# over the next second (ten of the daemon's 100 ms windows).
steady_idle_tracers() {
	local i
	for ((i = 0; i < 10; i++)); do
		[ "$(idle_tracers)" -eq "$1" ] ||
			{ fail "$2: $(idle_tracers) tracer threads at SCHED_IDLE, expected $1"; return 1; }
		sleep 0.1
	done
}

# stopflood_session VAR: start $W/adv_events stopflood in a session; its
# client's pid goes in the variable named VAR.
stopflood_session() {
	"$SYSWARD" run --daemon="$S" --policy "$(path_policy)" -- "$W/adv_events" stopflood >/dev/null 2>&1 </dev/null &
	printf -v "$1" %s "$!"
}

# tags: shards-pinned needs-smp
t_signal_flood_idle() {
	# Route 13 (docs/security.md): a session whose program floods its
	# tracer thread with signal stops (a child that stops and continues
	# its parent) gets that thread at idle priority (SCHED_IDLE) while it
	# is alone on it, so other sessions' tracers and programs run first;
	# a thread that also serves a session that is not flooding stays
	# normal; a new session goes to a normal thread; kill, SIGTERM and
	# the end of the flood make the thread normal again.
	local flood normal other bg id
	# Its own copy: the id lookup by program path must see only ours.
	cp "$ADV/adv_events" "$W/adv_events" && chmod 0755 "$W" || return
	SHARDS=2 start_daemon || return
	stopflood_session flood
	id=$(session_of "$W/adv_events") || { fail "the flood's session never showed in ps"; kill -9 "$flood"; return; }
	await_idle_tracers 1 "a stop flood alone on its thread" || { kill -9 "$flood"; return; }
	# A session on the other thread, then one more: the load is even
	# (one each), and the new one goes to the normal thread, which
	# leaves the flood's idle (it would be made normal, had it to take
	# a session that is not flooding).
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 3)" -- "$PROBE" sleep 30 >/dev/null 2>&1 </dev/null &
	other=$!
	session_of "$PROBE" >/dev/null || fail "the sleeping session never showed in ps"
	last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4242)" -- "$PROBE" getuid sleep 2 getuid exit 5)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	sleep 0.3
	steady_idle_tracers 1 "a session placed while the flood runs"
	timeout 20 tail --pid="$bg" -f /dev/null || { fail "the session beside the flood still runs after 20 s"; kill -9 "$bg"; }
	wait "$bg"
	rc=$?
	expect_rc 5
	expect_output "getuid=4242
getuid=4242"
	serves_beside "a stop flood"
	# sysward kill reaches the idle thread (its message makes it normal
	# first), and the thread is normal once the flood is gone.
	kill_session "$id" "$flood" "the stop flood"
	await_idle_tracers 0 "the flood killed"
	kill -9 "$other" 2>/dev/null
	wait "$flood" "$other"
	stop_daemon

	# One thread: a session that is not flooding keeps it normal; alone
	# the flood makes it idle; SIGTERM stops the daemon beside it.
	SHARDS=1 start_daemon || return
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 3)" -- "$PROBE" sleep 30 >/dev/null 2>&1 </dev/null &
	normal=$!
	id=$(session_of "$PROBE") || fail "the sleeping session never showed in ps"
	stopflood_session flood
	session_of "$W/adv_events" >/dev/null || fail "the flood's session never showed in ps"
	steady_idle_tracers 0 "a stop flood sharing its thread with a sleeping session"
	kill_session "$id" "$normal" "the sleeping session"
	await_idle_tracers 1 "the stop flood left alone on its thread"
	term_beside "beside a stop flood" "$flood"
	wait "$normal"
}

t_fuse_never_freezes() {
	# docs/security.md route 13: a path on a page of a FUSE file the
	# program serves itself and never answers (tests/security/adv_fuse;
	# its server answers after 4 s so that nothing hangs for good).  The
	# daemon gives up the read after its 1 s deadline and kills that
	# session; a session of another uid started when the read begins
	# ends normally, within 2.5 s (undefended: about 4 s, the whole
	# stall), and ps answers.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	local bg t0 ms d=$W/fuse
	mkdir -p "$d/mnt" && chmod -R 0755 "$d"
	policy fuse >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$d/file-D"}]}]}
	EOF
	# --cap setfcap: only so that uid 0 may map itself into its user
	# namespace (tests/security/check.sh, fuse_supervisor_freeze).
	timeout -s KILL 30 "$SYSWARD" run --daemon="$S" --policy "$W/fuse.json" --cap setfcap -- \
		"$ADV/adv_fuse" "$d" >"$W/hostile.out" 2>&1 </dev/null &
	bg=$!
	fuse_reached "$bg" 'server: READ' || return
	t0=$(date +%s%N)
	last_cmd=(timeout -k 5 10 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4343)" -- "$PROBE" getuid exit 7)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "beside a stuck FUSE read: nobody's session done in $ms ms"
	[ "$rc" -eq 7 ] && [ "$(cat "$W/out")" = "getuid=4343" ] ||
		{ fail "beside a stuck FUSE read: nobody's session did not run normally"; dump_last; }
	[ "$ms" -lt 2500 ] || fail "beside a stuck FUSE read: nobody's session took $ms ms"
	serves_beside "a killed FUSE server"
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "adv_fuse's client still runs"; kill -9 "$bg"; }
	wait "$bg"
	rc=$?
	cat "$W/hostile.out"
	grep -q '^verdict: ESCAPED' "$W/hostile.out" && fail "a FUSE page stalled the daemon"
	grep -q 'session [0-9]*: reading the memory of pid [0-9]* took longer than the deadline' "$W/daemon.log" ||
		fail "no warning naming the stuck read in the daemon log (client exit $rc)"
}

# fuse_abort_of PID MOUNT-POINT: abort the FUSE connection that the
# adv_fuse process PID mounted at MOUNT-POINT (DIR/mnt of the DIR it was
# given), which fails every request it holds.  By its mount point, as
# the process sees it: a mount namespace of its own starts as a copy of
# the host's, where other tests' adv_fuse mounts are (workspace mode,
# CTest running tests side by side), so the first adv_fuse in its
# mountinfo may be another test's (aborting that one left this one's
# readers stuck for good).  Read through any live thread: a killed
# leader is a zombie.
fuse_abort_of() {
	local dev t
	for t in /proc/"$1"/task/*; do
		dev=$(awk -v mp="${2:?fuse_abort_of: which mount point}" '{for (i = 1; i < NF; i++) if ($i == "-") break}
			$(i + 1) == "fuse" && $(i + 2) == "adv_fuse" && $5 == mp {print $3; exit}' \
			"$t/mountinfo" 2>/dev/null)
		[ -n "$dev" ] && break
	done
	[ -n "$dev" ] && [ -e "/sys/fs/fuse/connections/${dev#*:}/abort" ] || return 1
	echo 1 >"/sys/fs/fuse/connections/${dev#*:}/abort"
}

# threads_live PID: a thread of process PID has not ended yet.
threads_live() {
	local t st
	for t in /proc/"$1"/task/*/stat; do
		st=$(awk '{print $3}' "$t" 2>/dev/null) || continue
		[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ] && return 0
	done
	return 1
}

t_unkillable_tracee() {
	# A program can make one of its processes unkillable: a thread waits
	# for a FUSE request that the program's own server has taken and
	# never answers (tests/security/adv_fuse stuck).  SIGKILL does not end
	# it until the connection is aborted.  SIGTERM still stops the daemon
	# within 10 s (it cannot wait for a process that never ends), every
	# client hears of it, and the stuck process ends once the connection
	# is aborted.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	# fusectl's "abort" is how this test frees the stuck process.
	have_fusectl || { echo "SKIP: no fusectl to abort a FUSE connection"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	local bg bg2 pid id t0 d=$W/fuse
	mkdir -p "$d/mnt" && chmod -R 0755 "$d"
	policy fuse >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	# --cap setfcap: see t_fuse_never_freezes.
	"$SYSWARD" run --daemon="$S" --policy "$W/fuse.json" --cap setfcap -- \
		"$ADV/adv_fuse" "$d" stuck >"$W/hostile.out" 2>&1 </dev/null &
	bg=$!
	fuse_reached "$bg" 'server: LOOKUP of stuck' || return
	id=$(session_of "$ADV/adv_fuse") || { fail "adv_fuse: no session"; kill -9 "$bg"; return 1; }
	pid=$(timeout -k 2 10 "$SYSWARD" ps --daemon="$S" | awk -v i="$id" '$1 == i {print $2}')
	serves_beside "an unkillable process"
	# A second session, that must hear of the shutdown.
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 3)" -- "$PROBE" sleep 60 getuid >/dev/null 2>"$W/err2" </dev/null &
	bg2=$!
	session_of "$PROBE" >/dev/null || fail "the sleeping session never showed in ps"
	last_cmd=(timeout -k 5 10 "$SYSWARD" kill --daemon="$S" "$id")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	sleep 0.5
	threads_live "$pid" || echo "note: the stuck process ended on SIGKILL (kernel without the stuck wait?)"
	kill -TERM "$D_PID"
	if ! timeout 10 tail --pid="$D_PID" -f /dev/null; then
		fail "syswardd still runs 10 s after SIGTERM beside an unkillable process"
	fi
	timeout 10 tail --pid="$bg2" -f /dev/null ||
		{ fail "the sleeping session's client still runs 10 s after SIGTERM"; kill -9 "$bg2"; }
	wait "$bg2"
	grep -q "shutting down" "$W/err2" || fail "the sleeping session's client was not told of the shutdown: $(cat "$W/err2")"
	# Free the stuck process: it ends at once (its SIGKILL is pending).
	fuse_abort_of "$pid" "$d/mnt" || echo "note: no FUSE connection of $pid to abort"
	t0=$((SECONDS + 10))
	while threads_live "$pid" && ((SECONDS < t0)); do
		sleep 0.1
	done
	threads_live "$pid" && { fail "the stuck process $pid survived the abort of its connection"; kill -9 "$pid"; }
	timeout 10 tail --pid="$D_PID" -f /dev/null || { fail "syswardd never ended"; kill -9 "$D_PID"; }
	wait "$D_PID"
	D_PID=
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "adv_fuse's client still runs"; kill -9 "$bg"; }
	wait "$bg"
}

t_stuck_reads_stay_home() {
	# docs/security.md route 13: a read of a program's memory that passes
	# its deadline is abandoned on its reader thread, and the daemon
	# bounds how many it leaves.  A program can make the read last for
	# good (adv_fuse stuck-read: the READ never answered, and an
	# unkillable thread keeps the FUSE connection open when its session
	# is killed).  17 such programs of root's use up root's share of
	# readers, but another uid's sessions, path-checked too, still run
	# normally (before: past 16 abandoned reads, every read of every
	# session of every uid on every tracer thread failed and killed its
	# program).
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	have_fusectl || { echo "SKIP: no fusectl to abort a FUSE connection"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	local i n=17 bgs=() p t0 d=$W/fuse
	mkdir -p "$d/mnt" && chmod -R 0755 "$d"
	policy fuse >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$d/file-D"}]}]}
	EOF
	for ((i = 0; i < n; i++)); do
		"$SYSWARD" run --daemon="$S" --policy "$W/fuse.json" --cap setfcap -- \
			"$ADV/adv_fuse" "$d" stuck-read >"$W/hostile.$i.out" 2>&1 </dev/null &
		bgs+=($!)
	done
	t0=$((SECONDS + 60))
	while (($(grep -c 'took longer than the deadline' "$W/daemon.log") < n)); do
		if grep -q '^verdict: cannot-test' "$W"/hostile.*.out 2>/dev/null; then
			cat "$W"/hostile.*.out
			stuck_free "${bgs[@]}"
			echo "SKIP: cannot mount FUSE here"
			return 77
		fi
		((SECONDS < t0)) || { fail "only $(grep -c 'took longer than the deadline' "$W/daemon.log") of $n stuck reads within 60 s"; break; }
		sleep 0.1
	done
	serves_beside "$n reads that never end" nobody
	stuck_free "${bgs[@]}"
}

# stuck_free CLIENT...: abort the FUSE connection of every adv_fuse that
# printed its pid to $W/hostile.*.out (each mounted on $W/fuse/mnt in a
# namespace of its own), then wait for the CLIENTs.
stuck_free() {
	local p
	for p in $(sed -n 's/^fact: pid //p' "$W"/hostile.*.out 2>/dev/null); do
		threads_live "$p" || continue
		fuse_abort_of "$p" "$W/fuse/mnt" || { fail "no FUSE connection of stuck pid $p to abort"; kill -9 "$p"; }
	done
	for p in "$@"; do
		timeout 10 tail --pid="$p" -f /dev/null || { fail "a stuck client still runs 10 s after its connection was aborted"; kill -9 "$p"; }
		wait "$p"
	done
}

t_churn_races() {
	# Races between a client leaving, KILL, SIGNAL, the launch and the
	# program's end (swd-raw churn: RUNs closed while launched, SIGNALed
	# before STARTED, KILLed as they end, half-closed), with the session
	# limit reached while launches are in flight: every waiting client
	# gets its EXIT or an ERROR, ps lists no session once it is over, no
	# program is left, the daemon serves; then SIGTERM in the middle of
	# the same churn stops it within 10 s.
	start_daemon --max-sessions 4 || return
	local i bg
	last_cmd=(timeout -k 5 120 "$SWD_RAW" "$S" churn:30)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	grep -q '^CHURN rounds=30 .* hung=0$' "$W/out" || { fail "a churned client waited in vain"; dump_last; }
	for ((i = 0; i < 100; i++)); do
		timeout -k 2 10 "$SYSWARD" ps --daemon="$S" >"$W/out" 2>"$W/err"
		[ "$(wc -l <"$W/out")" -le 1 ] && break
		sleep 0.1
	done
	[ "$(wc -l <"$W/out")" -le 1 ] || { fail "ps still lists sessions 10 s after the churn:"; cat "$W/out" >&2; }
	pgrep -x sleep -P "$D_PID" >/dev/null && fail "a churned program outlived its client"
	daemon_serves
	"$SWD_RAW" "$S" churn:1000 >"$W/churn.out" 2>&1 &
	bg=$!
	sleep 1
	term_beside "amid the churn" "$bg" 15
}

t_session_ends_exactly() {
	# Route 12 (docs/security.md): children and threads that come and go before
	# their parent's fork event is seen, and creators killed in the
	# middle of a fork: every client gets its program's status, and ps
	# lists no finished session.  Two uids' fork storms at once, each
	# under its own emulated uid, so that a process counted in the other
	# session (a pid reused across sessions) would see the other's uid
	# and fail its program.
	start_daemon || return
	chmod 0755 "$W"
	# A copy of our own: the processes left are looked for by their
	# path, and the same scenario with other thread counts, or the
	# security suite's storms, may run adv_events at the same time.
	local adv=$W/adv_events
	cp "$ADV/adv_events" "$adv" || { fail "cannot copy adv_events"; return 1; }
	local i bad=0 a b c ra rb rc2 pa pb
	pa=$(uid_policy 4242)
	pb=$(uid_policy 4343)
	local end=$((SECONDS + 120))	# a slow guest runs fewer rounds
	for ((i = 0; i < 50 && SECONDS < end; i++)); do
		ADV_UID=4242 timeout -k 5 60 "$SYSWARD" run --daemon="$S" --policy "$pa" -- "$adv" storm 5 4 >"$W/a.out" 2>&1 </dev/null &
		a=$!
		ADV_UID=4343 timeout -k 5 60 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$pb" -- "$adv" storm 5 4 >"$W/b.out" 2>&1 </dev/null &
		b=$!
		ADV_UID=4242 timeout -k 5 60 "$SYSWARD" run --daemon="$S" --policy "$pa" -- "$adv" parentdies 5 >"$W/c.out" 2>&1 </dev/null &
		c=$!
		# A round that outlasts 45 s is about to fail: what is left,
		# before the timeouts kill it.
		( sleep 45 & sp=$!
		  trap 'kill $sp 2>/dev/null; exit 0' TERM
		  wait "$sp"
		  kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null || kill -0 "$c" 2>/dev/null || exit 0
		  echo "round $i at 45 s: sessions and processes left:"
		  timeout 10 "$SYSWARD" ps --daemon="$S"
		  for p in $(pgrep -f "^$adv"); do
			echo "  $p ppid $(awk '{print $4}' "/proc/$p/stat" 2>/dev/null) state $(proc_state "$p") wchan $(cat "/proc/$p/wchan" 2>/dev/null) syscall $(cut -d' ' -f1 "/proc/$p/syscall" 2>/dev/null)"
			grep -h '^TracerPid' "/proc/$p/status" 2>/dev/null
		  done ) >&2 &
		local dog=$!
		wait "$a"; ra=$?
		wait "$b"; rb=$?
		wait "$c"; rc2=$?
		kill "$dog" 2>/dev/null
		if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ] || [ "$rc2" -ne 0 ]; then
			bad=$((bad + 1))
			echo "round $i: storm(root) exit $ra, storm(nobody) exit $rb, parentdies exit $rc2" >&2
			cat "$W/a.out" "$W/b.out" "$W/c.out" >&2
		fi
	done
	echo "$i rounds, $bad failed"
	[ "$bad" -eq 0 ] || fail "$bad of $i rounds: a client did not get its program's status"
	# Children whose creator died before its fork event could be placed
	# in no session: none may be left stopped once the sessions ended.
	for ((i = 0; i < 50; i++)); do
		pgrep -f "^$adv" >/dev/null || break
		sleep 0.1
	done
	if pgrep -f "^$adv" >/dev/null; then
		fail "processes of finished sessions are left: $(pgrep -f "^$adv" | while read -r p; do echo "$p:$(proc_state "$p")"; done | tr '\n' ' ')"
		for p in $(pgrep -f "^$adv"); do kill -9 "$p"; done
	fi
	last_cmd=(timeout -k 5 10 "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	[ "$(wc -l <"$W/out")" -le 1 ] || { fail "ps lists finished sessions"; dump_last; }
	daemon_serves
}

t_concurrent_launches() {
	# Several tracer threads launch at once: each program gets its own
	# client's PATH lookup and umask (no launch may borrow another's
	# process-wide state), and a script without "#!" runs with /bin/sh
	# as execvp() runs it.
	start_daemon || return
	local i n=8 pids=() pol
	# Written once, here: policy() of the same name in n background
	# subshells at once would race on its temporary file.
	pol=$(allow_policy)
	for ((i = 0; i < n; i++)); do
		mkdir -p "$W/bin$i"
		printf 'echo "tag %d $(umask)"\n' "$i" >"$W/bin$i/sw-which"
		chmod 0755 "$W/bin$i/sw-which"
		(umask "00$((i % 8))$((7 - i % 8))" &&
		 PATH=$W/bin$i:/usr/bin:/bin timeout -k 5 60 "$SYSWARD" run --daemon="$S" \
			--policy "$pol" -- sw-which) >"$W/out.$i" 2>"$W/err.$i" </dev/null &
		pids+=($!)
	done
	for ((i = 0; i < n; i++)); do
		wait "${pids[i]}"
		rc=$?
		last_cmd=(client $i)
		cp "$W/out.$i" "$W/out"
		cp "$W/err.$i" "$W/err"
		expect_rc 0
		expect_output "tag $i 00$((i % 8))$((7 - i % 8))"
	done
}

# tags: shards-pinned
t_bell_killed() {
	# Each tracer thread sleeps in waitpid and is woken for new work by
	# its bell (a child it traces).  A bell killed from outside is
	# replaced: the idle thread still takes new sessions, and the busy
	# one still takes a kill for its session.
	SHARDS=2 start_daemon || return
	local bg id b
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 3)" -- "$PROBE" sleep 60 getuid >/dev/null 2>&1 </dev/null &
	bg=$!
	id=$(session_of "$PROBE") || { fail "the sleeping session never showed in ps"; kill -9 "$bg"; return; }
	for b in $(pgrep -P "$D_PID" -x syswardd-bell); do
		kill -9 "$b"
	done
	[ -n "$(pgrep -P "$D_PID" -x syswardd-bell)" ] || sleep 0.2
	# The least-loaded thread: the idle one.
	swd "$(uid_policy 5)" "$PROBE" getuid exit 3
	expect_rc 3
	expect_output "getuid=5"
	kill_session "$id" "$bg" "the session on the busy thread"
	wait "$bg"
	rc=$?
	expect_rc 137
	[ "$(pgrep -P "$D_PID" -x syswardd-bell | wc -l)" -eq 2 ] ||
		fail "expected 2 bells after the kills, found: $(pgrep -P "$D_PID" -x syswardd-bell | tr '\n' ' ')"
}

# tags: shards-pinned
t_bell_unreachable() {
	# A program of the daemon's own uid (root's, without capabilities)
	# tries every way the kernel offers a same-uid process to reach the
	# tracer threads' bells and the daemon (tests/security/adv_bell:
	# signals, pidfds, ptrace, /proc/<pid>/mem and maps), under
	# docker-default and under a policy that allows everything: all
	# fail, the bells keep their pids, the daemon serves.
	SHARDS=2 start_daemon || return
	local bells pol
	bells=$(pgrep -P "$D_PID" -x syswardd-bell | sort | tr '\n' ' ')
	[ -n "$bells" ] || { fail "no bells found"; return; }
	for pol in "$SRCDIR/policy/examples/docker-default.json" "$(allow_policy)"; do
		swd "$pol" "$ADV/adv_bell" "$D_PID" $bells
		[ "$rc" -eq 0 ] && grep -q '^verdict: contained' "$W/out" ||
			{ fail "adv_bell under $(basename "$pol")"; dump_last; }
	done
	[ "$(pgrep -P "$D_PID" -x syswardd-bell | sort | tr '\n' ' ')" = "$bells" ] ||
		fail "the bells changed: before $bells, after $(pgrep -P "$D_PID" -x syswardd-bell | tr '\n' ' ')"
	daemon_serves
	daemon_serves
}

t_cwd_never_answers() {
	# docs/security.md route 13: the event loop looks up no path a client
	# chose.  A RUN whose working directory is on a FUSE mount whose
	# server never answers (mounted here and never served: every lookup
	# waits for its INIT): ps must answer and kill end the session.
	# Before, the daemon checked the directory itself, as the client, on
	# its event loop: ps timed out.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	local d=$W/fuse bg fusefd
	mkdir -p "$d"
	exec {fusefd}<>/dev/fuse || { echo "SKIP: cannot open /dev/fuse"; return 77; }
	if ! mount -i -t fuse -o "fd=$fusefd,rootmode=40000,user_id=0,group_id=0,allow_other" \
		sw-never "$d" 2>"$W/mount.err"; then
		exec {fusefd}>&-
		echo "SKIP: cannot mount FUSE here: $(cat "$W/mount.err")"
		return 77
	fi
	"$SWD_RAW" "$S" "run-cwd:$d/sub" >"$W/raw.out" 2>&1 &
	bg=$!
	sleep 0.5
	serves_beside "a RUN whose working directory never answers"
	local id
	id=$(timeout -k 2 10 "$SYSWARD" ps --daemon="$S" | awk 'NR > 1 && $0 ~ /true/ {print $1}')
	if [ -n "$id" ]; then
		last_cmd=(timeout -k 2 10 "$SYSWARD" kill --daemon="$S" "$id")
		"${last_cmd[@]}" >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
	fi
	# Let the lookup fail: close our end (the connection aborts).
	exec {fusefd}>&-
	umount -l "$d" 2>/dev/null
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "swd-raw still waits after the mount went"; kill -9 "$bg"; }
	daemon_serves
}

t_conn_flood() {
	# A confined program holds every connection slot it can get
	# (tests/security/adv_conn_flood: idle connections, each closed one
	# replaced at once) for 12 s.  Meanwhile ps, a kill and a new session
	# of another uid are each served within 10 s, as the daemon promises
	# whatever a confined program does.
	start_daemon --max-sessions 4 --request-timeout 2 || return
	chmod 0755 "$W"
	local bg sl id
	"$SYSWARD" run --daemon="$S" --policy "$SRCDIR/policy/examples/docker-default.json" -- \
		"$ADV/adv_conn_flood" "$S" 12 >"$W/hostile.out" 2>&1 </dev/null &
	bg=$!
	"$SYSWARD" run --daemon="$S" --policy "$(uid_policy 3)" -- "$PROBE" sleep 60 getuid >/dev/null 2>&1 </dev/null &
	sl=$!
	id=$(session_of "$PROBE") || fail "the sleeping session never showed in ps"
	t0=$((SECONDS + 10))
	until grep -q 'holding [0-9]* connections' "$W/hostile.out" 2>/dev/null &&
	      (($(sed -n 's/.*holding \([0-9]*\) connections/\1/p' "$W/hostile.out" | tail -1) >= 68)); do
		((SECONDS < t0)) || break
		sleep 0.1
	done
	sleep 1
	last_cmd=(timeout -k 2 10 "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "ps beside a connection flood"; dump_last; }
	last_cmd=(timeout -k 5 10 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4343)" -- "$PROBE" getuid exit 7)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	[ "$rc" -eq 7 ] || { fail "nobody's session beside a connection flood"; dump_last; }
	if [ -n "$id" ]; then
		last_cmd=(timeout -k 2 10 "$SYSWARD" kill --daemon="$S" "$id")
		"${last_cmd[@]}" >"$W/out" 2>"$W/err"
		rc=$?
		[ "$rc" -eq 0 ] || { fail "kill beside a connection flood"; dump_last; }
	fi
	timeout 10 tail --pid="$sl" -f /dev/null || { fail "the killed session's client still runs"; kill -9 "$sl"; }
	wait "$sl"
	timeout 20 tail --pid="$bg" -f /dev/null || { fail "adv_conn_flood's client still runs"; kill -9 "$bg"; }
	wait "$bg"
	cat "$W/hostile.out"
}

# big_policy N: N rules that libseccomp takes long to merge (each names
# four calls, with two argument conditions of its own), getuid emulated;
# the rule count is what costs (embedded: 200 rules 1.1 s, 300 3.5 s; 700: 40 s and
# refused as too big for the kernel; 4,000: minutes).
big_policy() {
	"$PYTHON" - "$1" <<-'EOF' | policy "big$1"
	import json, sys
	n = int(sys.argv[1])
	calls = ["read", "write", "openat", "close", "fstat", "lseek", "mmap",
	         "mprotect", "munmap", "brk", "ioctl", "pread64", "pwrite64",
	         "readv", "writev", "access", "pipe", "select", "sched_yield",
	         "mremap", "msync", "mincore", "madvise", "dup", "dup2", "pause",
	         "nanosleep", "getitimer", "alarm", "setitimer", "sendfile",
	         "socket", "connect", "accept", "sendto", "recvfrom", "sendmsg",
	         "recvmsg", "shutdown", "bind", "listen", "getsockname",
	         "getpeername", "socketpair", "setsockopt", "getsockopt", "fcntl",
	         "flock", "fsync", "fdatasync", "truncate", "ftruncate",
	         "getdents", "getcwd", "chdir", "fchdir", "rename", "mkdir",
	         "rmdir", "creat", "link", "unlink", "symlink", "readlink",
	         "chmod", "fchmod", "chown", "fchown", "lchown", "umask"]
	rules = [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]
	for i in range(n):
	    rules.append({"names": [calls[(i * 7 + k) % len(calls)] for k in range(4)],
	                  "action": "SCMP_ACT_ERRNO", "errno": "EPERM",
	                  "args": [{"index": 0, "value": 1000 + i, "op": "SCMP_CMP_EQ"},
	                           {"index": 1, "value": 7 * i + 3, "op": "SCMP_CMP_GT"}]})
	print(json.dumps({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": rules}))
	EOF
}

# gap_loop SECONDS: as uid 65534, a session that makes supervised calls
# (getuid, emulated) for SECONDS and prints the longest gap between two
# of them and their percentiles; "ready" once it runs.  Output: $W/gaps.
gap_loop() {
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 77)" -- \
		"$PYTHON" -c 'import os, sys, time
end = time.monotonic() + float(sys.argv[1])
gaps, last = [], time.monotonic()
print("ready", flush=True)
while last < end:
    os.getuid()
    now = time.monotonic()
    gaps.append(now - last)
    last = now
gaps.sort()
print("calls=%d p50_us=%.0f p99_us=%.0f max_gap_ms=%.1f" % (len(gaps),
      gaps[len(gaps) // 2] * 1e6, gaps[len(gaps) * 99 // 100] * 1e6, gaps[-1] * 1e3))' \
		"$1" >"$W/gaps" 2>&1 </dev/null
}

# compile_beside: a daemon with $SHARDS tracer threads; while nobody's
# session calls getuid in a loop, root RUNs a 200-rule policy: nobody's
# calls never pause for 500 ms, ps answers within 1 s, the big policy's
# program runs.
compile_beside() {
	# A compile that happens: the second run of one policy would read
	# the compiled-filter cache instead.
	local -x SYSWARD_NO_CACHE=1
	stop_daemon
	start_daemon || return
	chmod 0755 "$W"
	local big gl t0 t1 what="${SHARDS:-the default} tracer thread(s)"
	big=$(big_policy 200)
	gap_loop 6 &
	gl=$!
	wait_file "$W/gaps" 100 || { fail "the getuid loop never started"; kill "$gl"; return; }
	sleep 0.5
	"$SYSWARD" run --daemon="$S" --policy "$big" -- "$PROBE" getuid >"$W/big.out" 2>"$W/big.err" </dev/null &
	t0=$!
	sleep 0.3
	t1=$(date +%s%N)
	last_cmd=(timeout -k 2 10 "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	t1=$(( ($(date +%s%N) - t1) / 1000000 ))
	expect_rc 0
	echo "$what: ps answered in $t1 ms during the compile"
	[ "$t1" -lt 1000 ] || fail "$what: ps took $t1 ms during another client's compile"
	wait "$gl"
	timeout 60 tail --pid="$t0" -f /dev/null || { fail "the big policy's client still runs"; kill -9 "$t0"; }
	wait "$t0"
	rc=$?
	last_cmd=("big policy's client"); cp "$W/big.out" "$W/out"; cp "$W/big.err" "$W/err"
	expect_rc 0
	expect_output "getuid=4242"
	echo "$what: $(tail -1 "$W/gaps")"
	local gap
	gap=$(sed -n 's/.*max_gap_ms=\([0-9]*\).*/\1/p' "$W/gaps")
	[ -n "$gap" ] || { fail "the getuid loop printed no figures: $(cat "$W/gaps")"; return; }
	[ "$gap" -lt 500 ] ||
		fail "$what: another uid's supervised calls stalled $gap ms during a 200-rule compile"
	stop_daemon
}

t_compile_off_thread() {
	# Issue 21: a client's policy is read, parsed and compiled off the
	# tracer threads and the event loop, so no other session's calls
	# wait for it; with one tracer thread (where the compile used to run
	# beside every session), then with CTest's (or the default) count.
	SHARDS=1 compile_beside
	compile_beside
}

t_compile_limit() {
	# A policy that libseccomp would work on for minutes (4,000 rules;
	# the kernel refuses it as too big at the end) is refused at the
	# daemon's --compile-timeout, with an ERROR that names the limit;
	# the daemon serves on.  Before: no such limit, the RUN ran for
	# minutes on a tracer thread.
	start_daemon --compile-timeout 2 || return
	chmod 0755 "$W"
	local big t0
	big=$(big_policy 4000)
	t0=$(date +%s%N)
	swd "$big" "$PROBE" getuid
	t0=$(( ($(date +%s%N) - t0) / 1000000 ))
	expect_rc 125
	expect_err "compile $big: libseccomp took longer than the limit of 2000 ms" \
		"(syswardd --compile-timeout 2: a smaller policy"
	echo "4,000 rules refused after $t0 ms (limit 2 s)"
	[ "$t0" -lt 8000 ] || fail "the refusal took $t0 ms with a 2 s limit"
	daemon_serves
}

t_compile_client_gone() {
	# A client that goes away while its policy compiles: its program
	# never runs, its session leaves no trace, and a signal sent before
	# (the client's Ctrl-C) waits for the program as before.  Without
	# the compiled-filter cache: the first client's compile would make
	# the second's instant.
	local -x SYSWARD_NO_CACHE=1
	start_daemon || return
	chmod 0755 "$W"
	local big bg
	big=$(big_policy 200)
	"$SYSWARD" run --daemon="$S" --policy "$big" -- /bin/sh -c "touch $W/ran" \
		>/dev/null 2>&1 </dev/null &
	bg=$!
	sleep 0.3
	kill -9 "$bg"
	wait "$bg" 2>/dev/null
	# The compile ends (200 rules: about 1 s idle) before this does.
	sleep 8
	[ -e "$W/ran" ] && fail "the program of a client gone during its compile ran"
	last_cmd=(timeout -k 2 10 "$SYSWARD" ps --daemon="$S")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	[ "$(wc -l <"$W/out")" -le 1 ] || { fail "ps lists a session after its client went"; cat "$W/out" >&2; }
	# SIGINT during the compile is not lost: it reaches the program as
	# soon as it is launched (before its exec, as a signal sent during
	# any launch: 130; after: its trap, 3), not 20 s later.
	# (env: a background job of a script starts with SIGINT ignored, and
	# the client, as the program, keeps what it was given.)
	env --default-signal=INT "$SYSWARD" run --daemon="$S" --policy "$big" -- /bin/sh -c "trap 'echo got INT; exit 3' INT; sleep 20 & wait" \
		>"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	sleep 0.3
	kill -INT "$bg"
	timeout 30 tail --pid="$bg" -f /dev/null || { fail "the interrupted client still runs"; kill -9 "$bg"; }
	wait "$bg"
	rc=$?
	last_cmd=("client interrupted during its compile")
	[ "$rc" -eq 130 ] || [ "$rc" -eq 3 ] || { fail "SIGINT during the compile: status $rc, not 130 or 3"; dump_last; }
	daemon_serves
}

t_filter_cache_own() {
	# Route 21: syswardd compiles into its own cache (here $W/cache, its
	# XDG_CACHE_HOME), never the client's: a client of uid 65534 with a
	# home of its own gets nothing written there, the daemon's entry is
	# root's, 0600, in a 0700 directory, and the client's next RUN
	# reads it (the file is not written again); another uid's RUN of
	# the same policy gets an entry of its own (the uid is in the key).
	# With SYSWARD_NO_CACHE=1 the daemon writes none.
	[ -e /proc/keys ] || { echo "SKIP: this kernel has no keys (CONFIG_KEYS): no cache"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0700 "$W/home" && chown 65534:65534 "$W/home"
	local pol ino
	pol=$(uid_policy 4343)
	chmod 0644 "$pol"
	last_cmd=(env HOME="$W/home" "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$pol" -- "$PROBE" getuid)
	sw_capture "${last_cmd[@]}"
	expect_rc 0
	expect_output "getuid=4343"
	[ -z "$(ls -A "$W/home")" ] || fail "the daemon wrote into the client's home: $(ls -A "$W/home")"
	[ "$(ls "$W/cache/sysward" 2>/dev/null | wc -l)" -eq 1 ] || { fail "no entry in the daemon's cache"; return; }
	[ "$(stat -c '%U %a' "$W/cache/sysward")" = "root 700" ] || fail "the daemon's cache is $(stat -c '%U %a' "$W/cache/sysward")"
	[ "$(stat -c '%U %a' "$W/cache/sysward/"*)" = "root 600" ] || fail "the daemon's entry is $(stat -c '%U %a' "$W/cache/sysward/"*)"
	ino=$(stat -c %i "$W/cache/sysward/"*)
	sw_capture "${last_cmd[@]}"
	expect_rc 0
	expect_output "getuid=4343"
	[ "$(stat -c %i "$W/cache/sysward/"*)" = "$ino" ] || fail "the client's second RUN did not read the daemon's entry"
	swd "$pol" "$PROBE" getuid
	expect_rc 0
	expect_output "getuid=4343"
	[ "$(ls "$W/cache/sysward" | wc -l)" -eq 2 ] || fail "root's RUN shared uid 65534's entry"
	stop_daemon
	rm -rf "$W/cache"
	SYSWARD_NO_CACHE=1 start_daemon || return
	swd "$pol" "$PROBE" getuid
	expect_rc 0
	[ ! -e "$W/cache/sysward" ] || fail "SYSWARD_NO_CACHE=1: the daemon wrote $(ls "$W/cache/sysward")"
	daemon_serves
}

t_compile_queue_per_uid() {
	# One uid's many big RUNs hold one compile thread at a time and at
	# most --compile-queue places in the queue: a fifth of four is
	# refused at once, and another uid's session starts meanwhile,
	# without waiting for them.
	start_daemon --compile-timeout 3 --compile-queue 4 || return
	chmod 0755 "$W"
	local big i pids=() t0
	big=$(big_policy 4000)
	chmod 0644 "$big"
	for ((i = 0; i < 4; i++)); do
		"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$big" -- "$PROBE" getuid \
			>/dev/null 2>"$W/q.$i" </dev/null &
		pids+=($!)
	done
	sleep 1
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$big" -- "$PROBE" getuid)
	timeout -k 5 10 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 125
	expect_err "uid 65534 already has 4 policies waiting to be compiled by syswardd"
	t0=$(date +%s%N)
	swd "$(uid_policy 9)" "$PROBE" getuid
	t0=$(( ($(date +%s%N) - t0) / 1000000 ))
	expect_rc 0
	expect_output "getuid=9"
	echo "root's session beside nobody's 4 queued compiles: $t0 ms"
	[ "$t0" -lt 2500 ] || fail "root's session waited $t0 ms behind another uid's compiles"
	for i in "${!pids[@]}"; do
		timeout 30 tail --pid="${pids[i]}" -f /dev/null || { fail "a queued client still runs"; kill -9 "${pids[i]}"; }
		wait "${pids[i]}"
		rc=$?
		last_cmd=("queued big RUN $i"); cp "$W/q.$i" "$W/err"; : >"$W/out"
		expect_rc 125
		expect_err "syswardd --compile-timeout 3"
	done
}

t_user_daemon() {
	# A user's own syswardd (no CAP_SYS_PTRACE): it can trace its
	# threads' bells and its user's programs, and serves nobody else.
	local d DAEMON_AS=("${NOBODY[@]}")
	# Its socket goes in $W: the daemon's user must be able to create it.
	chown 65534:65534 "$W"
	chmod 0755 "$W"
	start_daemon || return
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 7)" -- "$PROBE" getuid exit 4)
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 4
	expect_output "getuid=7"
	# D_PID is setsid's pid, which exec'd setpriv, which exec'd syswardd.
	[ "$(pgrep -P "$D_PID" -x syswardd-bell | wc -l)" -ge 1 ] ||
		fail "no bell under the user's daemon (pid $D_PID)"
	for d in $(pgrep -P "$D_PID" -x syswardd-bell); do
		last_cmd=("${NOBODY[@]}" sh -c ': <"$1"' sh "/proc/$d/mem")
		"${last_cmd[@]}" >/dev/null 2>"$W/err"
		rc=$?
		[ "$rc" -ne 0 ] || fail "uid 65534 could open the bell's memory (/proc/$d/mem)"
		expect_err "Permission denied"
	done
}

t_stale_socket() {
	start_daemon || return
	# A second daemon on a live socket refuses.
	"$SYSWARDD" --socket "$S" >"$W/out" 2>"$W/err" &
	local second=$!
	timeout 10 tail --pid=$second -f /dev/null
	wait $second
	rc=$?
	last_cmd=("$SYSWARDD" --socket "$S")
	expect_rc 1
	expect_err "another syswardd is already listening on $S"
	daemon_serves
	# A daemon that died leaves its socket file: the next one takes over.
	kill -9 "$D_PID"
	wait "$D_PID" 2>/dev/null
	[ -S "$S" ] || fail "expected a stale socket file after SIGKILL"
	start_daemon || return
	daemon_serves
	# SIGTERM removes the socket.
	stop_daemon
	[ -e "$S" ] && fail "socket $S still exists after SIGTERM"
}

# tags: needs-systemd
t_socket_activation() {
	local act
	act=$(command -v systemd-socket-activate) || { echo "SKIP: no systemd-socket-activate"; return 77; }
	S=$W/sock
	"$act" -l "$S" "$SYSWARDD" 2>>"$W/daemon.log" &
	D_PID=$!
	for ((i = 0; i < 100; i++)); do
		[ -S "$S" ] && break
		sleep 0.05
	done
	# The daemon starts on the first connection.
	daemon_serves
	grep -q "serving the socket systemd passed" "$W/daemon.log" ||
		{ fail "syswardd did not take the activated socket"; cat "$W/daemon.log" >&2; }
	daemon_serves
	kill -TERM "$D_PID"
	wait "$D_PID" 2>/dev/null
	D_PID=
}

t_reach_beyond_session() {
	# Route 16: a program (uid 65534) tries ptrace-mode accesses
	# (/proc/<pid>/mem read-write, environ, fd, cwd, root,
	# process_vm_readv, kcmp, get_robust_list, move_pages) on its own
	# client, the unconfined `sysward` that asked for it, and on the
	# program of another session of its uid: each session is a Landlock
	# domain of its own, so every one is refused.
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	local bg target
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pub/other.pid" sleep 20 >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/pub/other.pid" 100 || { fail "the other session's program did not start"; kill -9 "$bg"; return; }
	for target in "its own client" "another session of its uid"; do
		if [ "$target" = "its own client" ]; then
			# sh's $$ is the client's pid once it execs sysward.
			last_cmd=("${NOBODY[@]}" sh -c 'exec "$@" "$$"' sh "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_reach" attack-pid)
		else
			last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_reach" attack-pid "$(cat "$W/pub/other.pid")")
		fi
		run_contained "the program reached $target"
	done
	kill -9 "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
	daemon_serves
}

# peers_service AS DIR MODE: adv_peers MODE DIR outside every session, as
# uid AS (nobody or root), in a session of its own (its process group
# is killed by peers_stop); waits until it serves.
peers_service() {
	mkdir -p -m 0755 "$2"
	[ "$1" = nobody ] && chown 65534:65534 "$2"
	if [ "$1" = nobody ]; then
		setsid "${NOBODY[@]}" "$ADV/adv_peers" "$3" "$2" </dev/null >/dev/null 2>&1 &
	else
		setsid "$ADV/adv_peers" "$3" "$2" </dev/null >/dev/null 2>&1 &
	fi
	PEER_PGIDS+=($!)
	wait_file "$2/serve.info" 100 || fail "the service in $2 did not start"
}
peers_stop() {
	local g
	for g in ${PEER_PGIDS[@]+"${PEER_PGIDS[@]}"}; do
		kill -- -"$g" 2>/dev/null
	done
	PEER_PGIDS=()
}
PEER_PGIDS=()

t_peers_beyond_session() {
	# Route 19: services of the program's uid outside its session --
	# the client's own (uid 65534 and root), and a server that another
	# session of the same uid runs -- are not reached through the
	# daemon either: refused with EACCES, the service gets nothing,
	# also while two threads and a child write to the socket.  A server
	# of the session's own is (control).
	start_daemon || return
	chmod 0755 "$W"
	local bg
	peers_service nobody "$W/nobody" serve
	peers_service root "$W/root" serve
	chmod 0755 "$W/root"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" connect "$W/nobody" stream seqpacket)
	run_contained "a service of uid 65534 outside was reached through the daemon"
	last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" connect "$W/root" stream seqpacket)
	run_contained "a root service outside was reached through the daemon by a root program"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" race "$W/nobody" 100)
	run_contained "a message written while the connection was checked reached the service"
	[ -e "$W/nobody/reached.stream" ] || [ -e "$W/root/reached.stream" ] &&
		fail "a service outside got a message"
	# Another session of uid 65534 serves: its sockets are not this one's.
	mkdir -m 0755 "$W/other" && chown 65534:65534 "$W/other"
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" serve "$W/other" >/dev/null 2>&1 </dev/null &
	bg=$!
	wait_file "$W/other/serve.info" 100 || fail "the other session's server did not start"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" connect "$W/other" stream)
	run_contained "a server of another session of the uid was reached"
	kill "$bg" 2>/dev/null
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_peers" own "$W/nobody")
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_rc 0
	expect_out_contains "control: reached"
	peers_stop
	wait "$bg" 2>/dev/null
	daemon_serves
}

t_peers_ssh_agent() {
	# The user's ssh-agent outside the session (uid 65534): ssh-add -l
	# through the daemon is refused; with a rule granting its socket it
	# reaches the agent.
	command -v ssh-agent >/dev/null && command -v ssh-add >/dev/null ||
		{ echo "SKIP: no ssh-agent/ssh-add (openssh-client; the QEMU guest has none)"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0755 "$W/a" && chown 65534:65534 "$W/a"
	local agent grant
	(cd / && "${NOBODY[@]}" ssh-agent -a "$W/a/agent.sock") >"$W/agent.env" || { fail "ssh-agent did not start"; return; }
	agent=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$W/agent.env")
	grant=$(policy grant <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["connect"], "action": "SCMP_ACT_ALLOW",
	   "paths": [{"index": 1, "exact": "$W/a/agent.sock"}]}]}
	EOF
	)
	sw_capture "${NOBODY[@]}" env SSH_AUTH_SOCK="$W/a/agent.sock" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- ssh-add -l
	expect_rc 2
	expect_err "Error connecting to agent: Permission denied"
	sw_capture "${NOBODY[@]}" env SSH_AUTH_SOCK="$W/a/agent.sock" "$SYSWARD" run --daemon="$S" --policy "$grant" -- ssh-add -l
	expect_rc 1
	expect_out_contains "The agent has no identities."
	kill "$agent" 2>/dev/null
	daemon_serves
}

# fd_view COMMAND...: COMMAND with the descriptors of the scenarios
# below (stdin /dev/null, 3 a file read, 7 a file appended to, stdout in
# $W/out, stderr in $W/err), status in $rc.
fd_view() {
	last_cmd=("$@")
	timeout -k 5 60 "$@" 3<"$W/three" 7>>"$W/seven" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
}

t_descriptors_exactly_clients() {
	# Route 14: a program starts with exactly what its client would
	# pass on to it, the client's descriptors without close-on-exec at
	# their numbers (here 0-2, 3 read, 7 appended, and whatever the
	# harness left), as the same program run by the client itself and
	# run embedded, and nothing of syswardd's: started from a shell
	# holding a root-only file as fd 9 (`syswardd 9<file &`), the daemon
	# gave fd 9 to every program (uid 65534 read the file), and the
	# client's fd 3 and 7 never arrived.  A closed stdin stays closed.
	local who as kind
	chmod 0755 "$W"
	echo "root's secret" >"$W/secret"
	chmod 0600 "$W/secret"
	: >"$W/three"
	: >"$W/seven"
	chmod 0666 "$W/three" "$W/seven"
	exec 9<"$W/secret"
	start_daemon
	exec 9<&-
	[ -n "$D_PID" ] || return
	# nobody first: the daemon's fd 9 is one open file, read to its end
	# by whoever reads it first.
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		: >"$W/log.$who"
		: >"$W/report.$who"
		chmod 0666 "$W/log.$who" "$W/report.$who"
		fd_view "${as[@]}" "$PROBE" fds
		cp "$W/out" "$W/fds.unconfined"
		grep -q '^fd 3=.*/three r$' "$W/out" && grep -q '^fd 7=.*/seven wa$' "$W/out" ||
			{ fail "the unconfined probe lacks fd 3 or 7"; cat "$W/out" >&2; }
		for kind in daemon embedded; do
			# Embedded with an audit log and a report: sysward's
			# own descriptors, none of them the program's.
			if [ "$kind" = daemon ]; then
				fd_view "${as[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" fds
			else
				fd_view "${as[@]}" "$SYSWARD" run --policy "$(allow_policy)" --log "$W/log.$who" \
					--report "$W/report.$who" -- "$PROBE" fds
			fi
			expect_rc 0
			diff -u "$W/fds.unconfined" "$W/out" >&2 ||
				fail "as $who, $kind: the program's descriptors differ from the same program's run by its client (diff above)"
		done
		fd_view "${as[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c 'cat <&9'
		grep -q secret "$W/out" && fail "as $who: the program read the daemon's fd 9"
		expect_err "Bad file descriptor"
		# A closed stdin, as the client has it (not /dev/null).
		last_cmd=("${as[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" fds)
		timeout 60 "${last_cmd[@]}" <&- >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
		grep -q '^fd 0=' "$W/out" && { fail "as $who: the program got an fd 0 its client did not have"; dump_last; }
	done
	daemon_serves
}

t_pipelines_as_unconfined() {
	# Fidelity through syswardd: shell pipelines with confined programs
	# at either end or in the middle, a program killed by SIGPIPE, by
	# SIGSEGV and by SIGTERM, and a program whose SIGPIPE is ignored
	# (EPIPE, its own message): the same output and the same statuses
	# ($?, PIPESTATUS) as the same command line unconfined, side by
	# side, as uid 65534 and root.  "@" marks where the command line
	# puts "sysward run --daemon" in front of a program.
	local who p c plain conf
	local -a as lines=(
		'seq 100000 | @ head -2 | wc -l; echo "${PIPESTATUS[*]}"'
		'@ yes | head -1; echo "${PIPESTATUS[*]}"'
		'trap "" PIPE; @ yes | head -1 >/dev/null; echo "${PIPESTATUS[*]}"'
		'@ sh -c "exit 7" | @ cat; echo "${PIPESTATUS[*]}"'
		'printf "b\na\n" | @ sort | @ tr a-z A-Z; echo "${PIPESTATUS[*]}"'
		'@ sh -c "kill -SEGV \$\$"; echo $?'
		'@ sh -c "kill -TERM \$\$" & wait $!; echo $?'
		'@ sh -c "echo out; echo err >&2; exit 3" 2>&1 | cat; echo "${PIPESTATUS[*]}"'
	)
	chmod 0755 "$W"
	start_daemon || return
	p=$(allow_policy)
	chmod 0644 "$p"
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		for c in "${lines[@]}"; do
			plain=$(cd / && "${as[@]}" timeout 60 bash -c "ulimit -c 0; ${c//@ /}" 2>&1 </dev/null; echo "exit $?")
			conf=$(cd / && "${as[@]}" timeout 60 bash -c "ulimit -c 0; ${c//@ /$SYSWARD run --daemon=$S --policy $p -- }" 2>&1 </dev/null; echo "exit $?")
			# bash names the dead job by pid and command line
			plain=$(sed -E 's/^bash: line [0-9]+: +[0-9]+ (.*[^ ])  +.*$/\1/' <<<"$plain")
			conf=$(sed -E 's/^bash: line [0-9]+: +[0-9]+ (.*[^ ])  +.*$/\1/' <<<"$conf")
			[ "$plain" = "$conf" ] ||
				fail "as $who, $c: unconfined printed '${plain//$'\n'/|}', through syswardd '${conf//$'\n'/|}'"
		done
	done
	daemon_serves
}

t_descriptors_bounded() {
	# A RUN carries at most 253 descriptors (one SCM_RIGHTS message):
	# a client with more to hand over is refused with the reason, never
	# cut short; 253 arrive whole, at their numbers.
	start_daemon || return
	local n
	# Nothing but 0-2 and 3..n-1 (bash -c 'exec 3<f 4<f ...' leaves
	# some out: one at a time).
	for n in 253 254; do
		last_cmd=(bash -c 'for f in /proc/$$/fd/*; do f=${f##*/}; [ "$f" -gt 2 ] && [ -e "/proc/$$/fd/$f" ] && eval "exec $f>&-"; done
				   for ((i = 3; i < $0; i++)); do eval "exec $i</dev/null"; done; exec "$@"'
			  "$n" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" fds)
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		if [ "$n" = 253 ]; then
			expect_rc 0
			[ "$(grep -c '^fd [0-9]*=/dev/null r$' "$W/out")" -ge 251 ] &&
				grep -q '^fd 252=/dev/null r$' "$W/out" ||
				{ fail "253 descriptors did not all arrive"; dump_last; }
		else
			expect_rc 125
			expect_output ""
			expect_err "254 descriptors without close-on-exec would be inherited by the program, and syswardd takes at most 253"
		fi
	done
	daemon_serves
}

t_jobserver() {
	# make's jobserver reaches a recursive make through syswardd: the
	# sub-make's two jobs run at once under -j2, as embedded and
	# unconfined, with no "jobserver unavailable" (before: the program
	# got descriptors 0-2 only, the sub-make ran its jobs one at a time
	# and each waited for the other in vain).  As root and uid 65534.
	start_daemon || return
	local who as how
	chmod 0755 "$W"
	mkdir -m 0777 "$W/mk"
	command -v make >/dev/null || { echo "SKIP: no make here"; return 77; }
	# Each job waits up to 10 s for the other to start: in parallel
	# both see each other at once; one at a time, the first gives up.
	printf '%s\n' 'all: a b' 'a b:' \
		'	@touch $@.on; for i in $$(seq 100); do [ -e $(if $(filter a,$@),b,a).on ] && exit 0; sleep 0.1; done; echo "$@ ran alone"; exit 1' \
		>"$W/mk/sub.mk"
	for who in root nobody; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		for how in unconfined embedded daemon; do
			rm -f "$W/mk/a.on" "$W/mk/b.on"
			case $how in
			unconfined) printf 'all:
	+$(MAKE) -f sub.mk
' ;;
			embedded) printf 'all:
	+%s run --policy %s -- $(MAKE) -f sub.mk
' "$SYSWARD" "$(allow_policy)" ;;
			daemon) printf 'all:
	+%s run --daemon=%s --policy %s -- $(MAKE) -f sub.mk
' "$SYSWARD" "$S" "$(allow_policy)" ;;
			esac >"$W/mk/Makefile"
			last_cmd=("${as[@]}" make -s -C "$W/mk" -j2)
			timeout -k 5 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
			rc=$?
			[ "$rc" -eq 0 ] || echo "as $who, $how: exit $rc" >&2
			expect_rc 0
			! grep -q 'jobserver unavailable' "$W/err" ||
				{ fail "as $who, $how: the sub-make had no jobserver"; dump_last; }
		done
	done
}

# context_pair NAME AS... -- SETUP...: one client, run as AS under SETUP
# (a command that sets something up and runs the rest), runs the probe's
# "context" itself ($W/ctx.NAME.unconfined) and through syswardd
# ($W/ctx.NAME); fails if the two differ.
context_pair() {
	local name=$1 as=() setup=()
	shift
	while [ "$1" != -- ]; do as+=("$1"); shift; done
	shift
	setup=("$@")
	: >"$W/ctx.$name.unconfined"
	chmod 0666 "$W/ctx.$name.unconfined"
	last_cmd=("${as[@]}" "${setup[@]}" sh -c '"$1" context >"$2" && shift 2 && exec "$@"' sh
		  "$PROBE" "$W/ctx.$name.unconfined"
		  "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" context)
	timeout -k 5 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	cp "$W/out" "$W/ctx.$name"
	expect_rc 0
	# Its cgroup is a session's own below the client's, which its cgroup
	# namespace shows as / (route 16c): t_client_cgroup looks from outside.
	diff -u <(grep -v '^cgroup ' "$W/ctx.$name.unconfined") <(grep -v '^cgroup ' "$W/ctx.$name") >&2 ||
		fail "$name: the program's context differs from its client's own run (diff above)"
}

t_client_context() {
	# Route 14: a program runs in its client's context, never the
	# daemon's: its namespaces (a uid 65534 client cut off the network
	# with `unshare -rn` got a program with the host's interfaces), its
	# resource limits (a client's hard nofile 64 became the daemon's
	# 20,000), its scheduling policy, CPUs, I/O priority, personality,
	# OOM score and core dump filter: each line of the probe's "context"
	# as the same probe run by the client itself.  As uid 65534 and as
	# root.
	start_daemon || return
	local who as
	chmod 0755 "$W"
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		context_pair "$who.plain" "${as[@]}" --
		context_pair "$who.unshare" "${as[@]}" -- unshare -rn
		grep -q '^ns net=' "$W/ctx.$who.unshare.unconfined" &&
			! cmp -s <(grep '^ns net=' "$W/ctx.$who.plain") <(grep '^ns net=' "$W/ctx.$who.unshare.unconfined") ||
			fail "$who: unshare -rn gave the client no network namespace of its own (the scenario tests nothing)"
		# What a user sees: the interfaces of a new network
		# namespace, as unconfined (lo, and sit0 or others where the
		# kernel has them built in); before: the host's.
		local ifs='tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "'
		"${as[@]}" unshare -rn sh -c "$ifs" >"$W/ifs.$who" 2>&1 ||
			fail "$who: unshare -rn unconfined failed: $(cat "$W/ifs.$who")"
		last_cmd=("${as[@]}" unshare -rn "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c "$ifs")
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
		expect_output "$(cat "$W/ifs.$who")"
		# Its own pid and mount namespaces, with a /proc of its
		# own: the program is in them, its parent (syswardd's
		# holder, outside) number 0 there, as under docker exec.
		context_pair "$who.pidns" "${as[@]}" -- unshare -rpf --mount-proc
		context_pair "$who.limits" "${as[@]}" -- sh -c 'ulimit -n 64 && ulimit -s 4096 && ulimit -c 0 && exec "$@"' sh
		grep -q '^limit Max open files *64 *64 ' "$W/ctx.$who.limits" ||
			fail "$who: the program's nofile is not its client's 64"
		# (No I/O priorities without a block layer, no core dump
		# filter without ELF core dumps: the QEMU guest's kernel.)
		if ionice -c 3 true 2>/dev/null; then
			context_pair "$who.sched" "${as[@]}" -- chrt -b 0 taskset -c 0 ionice -c 3 setarch -R
		else
			context_pair "$who.sched" "${as[@]}" -- chrt -b 0 taskset -c 0 setarch -R
		fi
		context_pair "$who.procfiles" "${as[@]}" -- sh -c 'echo 500 >/proc/self/oom_score_adj &&
			{ [ ! -e /proc/self/coredump_filter ] || echo 0x7 >/proc/self/coredump_filter; } && exec "$@"' sh
	done
	# Root's real-time policy is its program's too.
	context_pair root.rt -- chrt -r 5
	grep -qx 'sched=2/5 nice=0' "$W/ctx.root.rt" || fail "root: SCHED_RR 5 did not reach the program"
	daemon_serves
}

t_client_cgroup() {
	# Route 14: a program runs in its client's cgroups, v2 and each v1
	# hierarchy (before: the daemon's, where none of the client's limits
	# apply).  Cgroups made for the test, the client moved into them;
	# the probe's cgroup lines as the client's own run.
	start_daemon || return
	local v2 v1 who as bg name=sysward-dt-$$
	v2=$(awk '$9 == "cgroup2" {print $5; exit}' FS=' ' /proc/self/mountinfo)
	v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)pids(,|$)/ {print $5; exit}' /proc/self/mountinfo)
	# A container's cgroup mounts may be read-only (systemd-nspawn's
	# v1 ones): a hierarchy where no cgroup can be made is left out.
	[ -z "$v2" ] || [ -w "$v2" ] || v2=
	[ -z "$v1" ] || [ -w "$v1" ] || v1=
	[ -n "$v2$v1" ] || { echo "SKIP: no cgroup mounted where one can be made"; return 77; }
	chmod 0755 "$W"
	for d in ${v2:+"$v2/$name"} ${v1:+"$v1/$name"}; do
		mkdir "$d" || { fail "cannot make the cgroup $d"; return; }
	done
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		context_pair "$who.cgroup" -- sh -c 'for d in "$@"; do [ "$d" = -- ] && break; echo $$ >"$d/cgroup.procs" || exit 1; shift; done; shift; exec "$@"' \
			sh ${v2:+"$v2/$name"} ${v1:+"$v1/$name"} -- "${as[@]}"
		grep -q "^cgroup .*:/$name\$" "$W/ctx.$who.cgroup.unconfined" ||
			fail "$who: the client was not in the test's cgroup (the scenario tests nothing)"
		# Seen from outside, where the cgroup namespace of its session
		# does not hide the path: below the client's (v2: in the
		# session's own, route 16c), in the client's (v1).
		mkdir -p -m 1777 "$W/pub"
		rm -f "$W/pub/pid.$who"
		sh -c 'for d in "$@"; do [ "$d" = -- ] && break; echo $$ >"$d/cgroup.procs" || exit 1; shift; done; shift; exec "$@"' \
			sh ${v2:+"$v2/$name"} ${v1:+"$v1/$name"} -- "${as[@]}" \
			"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pub/pid.$who" sleep 3 \
			</dev/null >/dev/null 2>"$W/err" &
		bg=$!
		wait_file "$W/pub/pid.$who" 100 || { fail "$who: the program did not start"; wait $bg; continue; }
		cp "/proc/$(cat "$W/pub/pid.$who")/cgroup" "$W/cg.$who"
		wait $bg
		[ -z "$v2" ] || grep -q "^0::/$name/sysward-session-[^/]*/program\$" "$W/cg.$who" ||
			fail "$who: the program's cgroup2 cgroup is not its session's below its client's: $(grep '^0::' "$W/cg.$who")"
		[ -z "$v1" ] || grep -q "^[0-9]*:pids:/$name\$" "$W/cg.$who" ||
			fail "$who: the program is not in its client's v1 pids cgroup: $(grep ':pids:' "$W/cg.$who")"
	done
	for d in ${v2:+"$v2/$name"} ${v1:+"$v1/$name"}; do
		rmdir "$d" 2>/dev/null
	done
	daemon_serves
}

t_client_chroot() {
	# Route 14: a chrooted client's program runs in the client's root
	# (before: the daemon's, where the client's chroot did not hold).
	# The client and the probe inside a directory with what they need
	# (sysward's libraries copied, no /proc), the daemon's socket linked
	# in; the probe's context and an exists check as the client's own run.
	start_daemon || return
	local R=$W/root lib
	mkdir -p "$R/bin"
	cp "$SYSWARD" "$R/bin/sysward"
	cp "$PROBE" "$R/bin/sw-probe"
	for lib in $(ldd "$SYSWARD" | awk '/=> \// {print $3} /^\t\/lib64\// {print $1}'); do
		mkdir -p "$R${lib%/*}"
		cp "$lib" "$R$lib"
	done
	cp "$(allow_policy)" "$R/allow.json"
	echo only-in-the-chroot >"$R/only-here"
	chmod -R a+rX "$R"
	ln "$S" "$R/sock" || { fail "cannot link the daemon's socket into the chroot"; return; }
	# A root that is no mount point: the session's namespaces could not
	# keep their mounts from propagating out of it (clientctx.c): refused,
	# saying what to do.
	last_cmd=(chroot "$R" /bin/sysward run --daemon=/sock --policy /allow.json -- /bin/sw-probe getuid)
	timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 125
	expect_err "root directory is no mount point" "mount --bind DIR DIR"
	# As a container runtime makes one: a mount of its own.
	mount --bind "$R" "$R" || { fail "cannot bind the chroot onto itself"; return; }
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=(--userspec=65534:65534)
		last_cmd=(chroot "${as[@]}" "$R" /bin/sw-probe context exists /only-here exists /proc/self)
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/chroot.unconfined" 2>"$W/err"
		rc=$?
		expect_rc 0
		last_cmd=(chroot "${as[@]}" "$R" /bin/sysward run --daemon=/sock --policy /allow.json -- /bin/sw-probe context exists /only-here exists /proc/self)
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
		diff -u "$W/chroot.unconfined" "$W/out" >&2 ||
			fail "$who: the chrooted client's program is not in its root (diff above)"
		grep -qx 'exists(/only-here)=yes' "$W/out" || { fail "$who: the program did not see the chroot's file"; dump_last; }
	done
	umount "$R"
	daemon_serves
}

t_client_restricted() {
	# Route 14: a client under restrictions the daemon cannot carry over
	# is refused, with the reason and what to do: a seccomp filter that
	# refuses mkdir (before: the program made the directory), a Landlock
	# domain where no directory can be made (before: made).  The client
	# itself and its embedded run cannot make it.  As uid 65534 and
	# root.
	start_daemon || return
	local who as how n=0
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		for how in seccomp landlock; do
			n=$((n + 1))
			last_cmd=("${as[@]}" "$PROBE" "$how-deny-mkdir" exec /bin/mkdir "$W/pub/u$n")
			timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
			[ -e "$W/pub/u$n" ] && fail "$who, $how: the unconfined client made the directory (the scenario tests nothing)"
			last_cmd=("${as[@]}" "$PROBE" "$how-deny-mkdir" exec "$SYSWARD" run --policy "$(allow_policy)" -- mkdir "$W/pub/e$n")
			timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
			[ -e "$W/pub/e$n" ] && fail "$who, $how: the embedded program made the directory"
			last_cmd=("${as[@]}" "$PROBE" "$how-deny-mkdir" exec "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- mkdir "$W/pub/d$n")
			timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
			rc=$?
			expect_rc 125
			[ -e "$W/pub/d$n" ] && fail "$who, $how: the daemon's program made the directory"
			if [ "$how" = seccomp ]; then
				expect_err "runs under a seccomp filter" "run the program embedded (sysward run without --daemon)"
			else
				expect_err "is in a Landlock domain" "run the program embedded (sysward run without --daemon)"
			fi
		done
	done
	# The Landlock check is no false alarm: clients in user namespaces,
	# root without some capabilities, and a client seen through a pid
	# namespace of its own still run.
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		local swd_as=("${as[@]}" unshare -rn "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- true)
		last_cmd=("${swd_as[@]}")
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
	done
	last_cmd=(setpriv --inh-caps=-all --bounding-set=-sys_admin,-sys_ptrace "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- true)
	timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	last_cmd=(unshare -pf --mount-proc "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pid-is-ppid)
	timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	daemon_serves
}

t_client_forges_probe() {
	# Route 14: a client in a Landlock domain (no directory may be
	# made) answers the daemon's check for one itself: a thread of its
	# watches for the daemon's PTRACE_SEIZE and then installs, on every
	# thread (TSYNC), a seccomp filter that answers get_robust_list
	# EFAULT unrun (the answer of a task in no domain); the main thread
	# makes no call meanwhile (swd-raw landlock-forge).  Before: the
	# daemon ran mkdir outside the domain.  As uid 65534 and root.
	start_daemon || return
	local who as n=0
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	for who in nobody root; do
		as=()
		[ "$who" = nobody ] && as=("${NOBODY[@]}")
		n=$((n + 1))
		last_cmd=("${as[@]}" "$SWD_RAW" "$S" "landlock-forge:$W/pub/d$n")
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		grep -qx 'FORGER installed' "$W/out" ||
			{ fail "$who: the forging filter was not installed (the scenario tests nothing)"; dump_last; }
		[ -e "$W/pub/d$n" ] && { fail "$who: the daemon's program made the directory the client's domain refuses"; dump_last; }
		grep -q '^ERROR errno=EPERM exit=125 msg=syswardd refuses RUN: pid [0-9]* installed a seccomp filter while syswardd checked whether it is in a Landlock domain (1 filter, 0 when it asked)' "$W/out" ||
			{ fail "$who: not refused with the reason"; dump_last; }
	done
	daemon_serves
}

t_daemon_keyring() {
	# Nothing of the daemon's: started with a key in its session keyring
	# (a root login's, say), syswardd gave every program that keyring,
	# whose keys its possessor may read whatever their owner (a uid
	# 65534 program read root's key).  Now each program has a session
	# keyring of its own, empty.
	local DAEMON_AS=("$PROBE" keyring-new key-add sysward-dt-key "root's key" exec)
	"$PROBE" keyring-new >/dev/null 2>&1 ||
		{ echo "SKIP: no keyrings in this kernel (CONFIG_KEYS)"; return 77; }
	start_daemon || return
	local who
	chmod 0755 "$W"
	for who in nobody root; do
		if [ "$who" = nobody ]; then
			last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" keys)
		else
			last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" keys)
		fi
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		expect_rc 0
		grep -q "root's key\|sysward-dt-key" "$W/out" && { fail "$who: the program reached the daemon's session keyring"; dump_last; }
		expect_line "keys=0"
	done
	daemon_serves
}

t_shutdown_exit_records() {
	# Every session-start in the audit log has its session-exit, however
	# the session ends: here, 5 running when syswardd gets SIGTERM,
	# beside 3 that ended on their own.
	local i pids=() n
	start_daemon --audit-log "$W/audit.jsonl" || return
	for ((i = 0; i < 3; i++)); do
		swd "$(allow_policy)" true
		expect_rc 0
	done
	for ((i = 0; i < 5; i++)); do
		"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sleep 30 \
			>/dev/null 2>&1 </dev/null &
		pids+=($!)
	done
	for ((i = 0; i < 100; i++)); do
		n=$(grep -c '"session-start"' "$W/audit.jsonl" 2>/dev/null)
		[ "${n:-0}" -ge 8 ] && break
		sleep 0.1
	done
	[ "${n:-0}" -ge 8 ] || fail "only ${n:-0} of 8 sessions started"
	term_beside "with 5 sessions running" "${pids[0]}"
	wait
	"$PYTHON" - "$W/audit.jsonl" <<-'EOF' || fail "audit log check failed"
	import json, sys
	lines = [json.loads(l) for l in open(sys.argv[1])]
	ids = lambda e: sorted(l["session"] for l in lines if l.get("event") == e)
	starts, exits = ids("session-start"), ids("session-exit")
	print("session-start %d, session-exit %d" % (len(starts), len(exits)))
	assert starts == exits, (starts, exits)
	codes = sorted(l["exit_code"] for l in lines if l.get("event") == "session-exit")
	assert codes == [0] * 3 + [137] * 5, codes
	EOF
}

t_holder_out_of_reach() {
	# The program's parent under syswardd is its session's holder
	# (launch.c: it leads the session, so that the program's group is
	# not orphaned), an untraced process with the daemon's credentials.
	# Outside the tree: a program, as root and as uid 65534, tries every
	# ptrace-mode access, every signal route and its oom_score_adj on
	# it; all refused.  (Control: the parent is the session's leader.)
	start_daemon || return
	chmod 0755 "$W"
	local as attack
	for as in root nobody; do
		for attack in "adv_reach attack-pid" "adv_signals targets" "adv_reach oom"; do
			# shellcheck disable=SC2016,SC2086
			last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c '
				read -r _ _ _ ppid _ sid _ </proc/$$/stat
				[ "$ppid" = "$sid" ] || { echo "control: parent $ppid is not the session leader $sid"; exit 2; }
				exec "$@" "$ppid"' sh $ADV/$attack)
			[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
			run_contained "$attack reached its holder, as $as"
		done
	done
	daemon_serves
}

t_guard_setup_deaths_leak_nothing() {
	# A program whose children die during their path guard's setup
	# (killed between the image's first syscall and the guard's
	# handover) must leave syswardd nothing: each child's sealed memfd
	# was kept open in the daemon for good, so a hostile program could
	# exhaust its descriptors for every session.  The daemon's
	# descriptors after the sessions equal those before.  (Before the
	# fix: 11 -> 224 after 3 such runs, 213 of them memfds.)
	start_daemon || return
	local p n0 n1 k
	p=$(policy guarded <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	               "paths": [{"index": 1, "prefix": "/nonexistent-secret/"}]}]}
	EOF
	)
	n0=$(ls "/proc/$D_PID/fd" | wc -l)
	for k in 1 2 3; do
		swd "$p" sh -c 'sleep 0.2; i=0; while [ $i -lt 1000 ]; do /bin/true & kill -9 $! 2>/dev/null; i=$((i+1)); done; wait'
		expect_rc 0
	done
	# The last session's end is the daemon's to finish.
	for k in $(seq 50); do
		n1=$(ls "/proc/$D_PID/fd" | wc -l)
		[ "$n1" -le "$n0" ] && break
		sleep 0.1
	done
	echo "syswardd's descriptors: $n0 before, $n1 after 3,000 children killed"
	[ "$n1" -le "$n0" ] ||
		fail "syswardd keeps $((n1 - n0)) more descriptors ($(ls -l "/proc/$D_PID/fd" | grep -c memfd) memfds) after its sessions ended"
	stop_daemon
}

t_holders_end() {
	# Every session's holder (the program's parent, launch.c) ends with
	# its session, however it ends: the program exits, its client goes
	# away (the session is killed), or syswardd is stopped or killed
	# (its tracees die with it: PTRACE_O_EXITKILL).  None is left behind.
	local how bg pid holder holders=() i
	for how in exit client term kill; do
		start_daemon || return
		rm -f "$W/pid"
		if [ "$how" = exit ]; then
			"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pid" sleep 1 >/dev/null 2>&1 </dev/null &
		else
			"$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$PROBE" pidfile "$W/pid" sleep 60 >/dev/null 2>&1 </dev/null &
		fi
		bg=$!
		wait_file "$W/pid" 100 || { fail "$how: the program did not start"; kill -9 "$bg"; return; }
		pid=$(cat "$W/pid")
		holder=$(ps -o ppid= -p "$pid" | tr -d ' ')
		[ "$(ps -o comm= -p "$holder")" = sysward-holder ] ||
			{ fail "$how: the program's parent ($holder) is not its holder: $(ps -o pid,sid,comm -p "$holder" | tail -1)"; kill -9 "$bg"; return; }
		case $how in
		client) kill -9 "$bg" ;;
		term) kill -TERM "$D_PID" ;;
		kill) kill -9 "$D_PID" ;;
		esac
		for ((i = 0; i < 100; i++)); do
			kill -0 "$holder" 2>/dev/null || break
			sleep 0.05
		done
		kill -0 "$holder" 2>/dev/null && fail "$how: the holder $holder still runs 5 s later"
		kill -0 "$pid" 2>/dev/null && fail "$how: the program $pid still runs 5 s later"
		wait "$bg" 2>/dev/null
		[ "$how" = exit ] || [ "$how" = client ] && stop_daemon
		wait "$D_PID" 2>/dev/null
		D_PID=
	done
}

t_reach_oom_beyond_session() {
	# Route 16, the session's own /proc: a program raises, by file
	# ownership alone (no ptrace-mode check), the oom_score_adj of
	# syswardd, of its own client and of another session's program; as
	# root (syswardd's files are root's) and as uid 65534 (its client).
	# Each session sees only its own processes in /proc, so every write
	# fails; its own child's still works.
	start_daemon || return
	chmod 0755 "$W"
	local bg other as
	session_bg other 20 "the other session's program" || return
	other=$(cat "$W/other.pid")
	for as in root nobody; do
		if [ "$as" = root ]; then
			# sh's $$ is the client's pid once it execs sysward.
			last_cmd=(sh -c 'exec "$@" "$$"' sh "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_reach" oom "$D_PID" "$other")
		else
			last_cmd=("${NOBODY[@]}" sh -c 'exec "$@" "$$"' sh "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_reach" oom)
		fi
		run_contained "a $as session raised an outside process's oom_score_adj"
	done
	last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_reach" oom-child)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out"
	expect_rc 0
	grep -q "^control: own child's oom_score_adj raised" "$W/out" || fail "a root session could not raise its own child's oom_score_adj"
	kill -9 "$bg" 2>/dev/null
	wait "$bg" 2>/dev/null
	daemon_serves
}

t_keyrings_stay_outside() {
	# Route 20, every mode: a key a process of the client's uid keeps in
	# the uid's user keyring, outside the sandbox, out of reach of the
	# client's program through syswardd (the launch child joins a
	# session keyring of its own and learns the uid's serials as the
	# client's uid; the daemon refuses them), as uid 65534 and as root;
	# the program's own keys still work.
	[ -e /proc/keys ] || { echo "SKIP: this kernel has no keys (CONFIG_KEYS)"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/keys"
	local as wit
	for as in root nobody; do
		rm -f "$W/keys/keys.info" "$W/keys/keys.check"
		if [ "$as" = root ]; then
			"$ADV/adv_keys" witness "$W/keys" </dev/null >/dev/null 2>&1 &
		else
			"${NOBODY[@]}" "$ADV/adv_keys" witness "$W/keys" </dev/null >/dev/null 2>&1 &
		fi
		wit=$!
		wait_file "$W/keys/keys.info" 100 || { fail "the $as witness did not start"; kill "$wit"; continue; }
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_keys" attack "$W/keys")
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		run_contained "a $as session reached the uid's keyrings"
		kill -USR1 "$wit"
		wait_file "$W/keys/keys.check" 100
		echo "the $as witness's key: $(cat "$W/keys/keys.check" 2>/dev/null)"
		grep -qx intact "$W/keys/keys.check" 2>/dev/null || fail "the $as witness's key was touched"
		wait "$wit"
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_keys" control)
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		cat "$W/out" "$W/err"
		expect_rc 0
		grep -qx 'control: all worked' "$W/out" || fail "a $as session's own keys did not work"
	done
	daemon_serves
}

t_guard_pair_as_client() {
	# Routes 8 and 14: a uid 65534 client's program whose own filter
	# answers the path guard's injected socketpair unrun (ERRNO | 0:
	# it returns 0, and the pair's numbers stay as the fresh image's
	# stack has them: 0), descriptor 0 a datagram socket connected to
	# a witness that reads its senders' credentials (SO_PASSCRED).  The
	# daemon must not take that socket as the pair's end: it would send
	# the guard through it as root (before: "from pid <the daemon's>
	# uid 0: 1 bytes, 1 descriptors").  The program is killed, the
	# witness gets nothing, the daemon serves on.
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/pair"
	cat >"$W/pair/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$W/pair/denied"}]}]}
	EOF
	chmod 0644 "$W/pair/policy.json"
	"$ADV/adv_own_filter" pair-witness "$W/pair/wit.sock" "$W/pair/wit.log" </dev/null >/dev/null 2>&1 &
	local wit=$!
	sw_wait_until -S "$W/pair/wit.sock" 50 || { fail "the witness did not start"; kill "$wit"; return; }
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/pair/policy.json" --
		  "$ADV/adv_own_filter" forged-pair "$W/pair/wit.sock" "$ADV/adv_own_filter" forged-pair)
	timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 137
	kill "$wit"
	wait "$wit"
	echo "the witness got: $(cat "$W/pair/wit.log" 2>/dev/null)"
	grep -qx nothing "$W/pair/wit.log.check" 2>/dev/null ||
		fail "the daemon sent a datagram through the program's socket: $(cat "$W/pair/wit.log" 2>/dev/null)"
	daemon_serves
}

t_sandbox_inherited_dir() {
	# Route 21, --sandbox through syswardd: a directory outside the
	# workspace, writable by the client, passed by the client as
	# descriptor 3.  The descriptor is the client's (route 14: exactly
	# the client's descriptors), and it names a directory of the
	# client's mount namespace, where the session's read-only mounts do
	# not reach: Landlock, which judges a file by its place in the
	# tree wherever its name came from, refuses a file made through it
	# (by /proc/self/fd/3/NAME, and from a working directory entered
	# through it).  Embedded, the same.
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0755 "$W/sbd" && mkdir -m 0777 "$W/sbd/ws" "$W/sbd/out"
	local mode via prog='echo x >/proc/self/fd/3/by-fd; cd /proc/self/fd/3 && echo x >by-cwd; ls /proc/self/fd/3 >/dev/null && echo listed'
	for mode in daemon embedded; do
		via=()
		[ "$mode" = daemon ] && via=(--daemon="$S")
		last_cmd=("${NOBODY[@]}" "$SYSWARD" run ${via[@]+"${via[@]}"} --sandbox="$W/sbd/ws" -- /bin/sh -c "$prog")
		(cd "$W/sbd/ws" && timeout -k 5 60 "${last_cmd[@]}" 3<"$W/sbd/out" </dev/null >"$W/out" 2>"$W/err")
		rc=$?
		cat "$W/out" "$W/err"
		grep -qx listed "$W/out" || fail "$mode: the inherited directory could not be read (fidelity)"
		[ -z "$(ls -A "$W/sbd/out")" ] ||
			fail "$mode: a file was made outside the workspace through an inherited descriptor: $(ls -A "$W/sbd/out")"
	done
	daemon_serves
}

t_sandbox_in_session() {
	# Route 21, sysward run --daemon --sandbox: adv_sandbox in a root
	# client's session and in uid 65534's: every other name for a file
	# outside the workspace, its .git, a TCP connect and a unix service
	# of the uid outside refused (EROFS for writes: a daemon's session
	# has the sandbox's read-only mounts, made after the seize), the
	# workspace and TMPDIR work; the workspace looked up in the client's
	# view.  The same program through the daemon and embedded (as root)
	# sees the same errors.  A client that asked for a report is told
	# that the sandbox's refusals are not in it.
	[ -x /usr/bin/python3 ] || { echo "SKIP: /usr/bin/python3 is missing"; return 77; }
	start_daemon || return
	chmod 0755 "$W"
	local as sb=$W/sb SB_KEEP_TRAP=1 skip
	skip() { fail "$*"; }
	cp "$ADV/adv_sandbox" "$W/adv_sandbox" && chmod 755 "$W/adv_sandbox"
	for as in root nobody; do
		rm -rf "$sb"
		sandbox_stage "$sb" $([ "$as" = nobody ] && echo 65534)
		last_cmd=("$SYSWARD" run --daemon="$S" --sandbox="$sb/ws" -- "$W/adv_sandbox" "$sb/ws" "$sb/out" "$SB_PORT" "$SB_SOCK")
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		run_contained "a $as session under --sandbox reached a file, a port or a service outside"
		grep -q "^result: write WS/.git/HEAD = -1 EROFS " "$W/out" ||
			fail "$as: .git/HEAD not refused with EROFS"
		kill "$sb_listener" 2>/dev/null
	done
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --report="$sb/ws/report.json" --sandbox="$sb/ws" -- true >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 0
	grep -q "^sysward: --sandbox's rules are the kernel's (Landlock and read-only mounts): what they refuse" "$W/err" ||
		fail "the client was not told that the sandbox's refusals are not in its report"
	# side by side, as root: the same writes through syswardd and embedded
	rm -rf "$sb"
	sandbox_stage "$sb"
	kill "$sb_listener" 2>/dev/null
	local prog='echo y >sub/g; echo x >"$1/target"; echo x >.git/HEAD; touch newtop; cat sub/g'
	for how in daemon embedded; do
		(cd "$sb/ws" && "$SYSWARD" run -q $([ $how = daemon ] && echo --daemon="$S") --sandbox -- \
			sh -c "$prog" sh "$sb/out") >"$W/side.$how" 2>&1 </dev/null
		sed -i "s|$sb|SB|g" "$W/side.$how"
		echo "+ $how:"; cat "$W/side.$how"
	done
	# dash says "cannot create", busybox's sh (the guest's) "can't create"
	grep -Eq "(cannot|can't) create SB/out/target: Read-only file system" "$W/side.daemon" &&
		cmp -s "$W/side.daemon" "$W/side.embedded" ||
		fail "through syswardd the program saw other errors than embedded"
	daemon_serves
}

t_sandbox_daemon_cwd_private() {
	# Route 13: syswardd started from a directory its clients cannot
	# enter (root's home, 0700, as in a root shell's "cd; syswardd"):
	# a uid 65534 client's --sandbox works as from "/". The mounts are
	# made by a mounter forked from the daemon, as the client's fsuid;
	# it re-entered the daemon's working directory by name after them,
	# and every such session failed at the mounts with EACCES.
	local priv=$W/private ws=$W/ws
	chmod 0755 "$W"
	mkdir -m 0700 "$priv" && mkdir -m 0755 "$ws" && chown 65534:65534 "$ws" || { fail staging; return; }
	pushd "$priv" >/dev/null || return
	start_daemon
	popd >/dev/null || return
	[ -n "$D_PID" ] || return
	(cd "$ws" && "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --sandbox -- sh -c 'echo in >f && cat f') \
		>"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 0
	grep -qx in "$W/out" || fail "the program did not run in its workspace"
	daemon_serves
}

t_sandbox_paths_as_client() {
	# Route 14: --sandbox's workspace as the client names it, sent as
	# is (swd-raw: the sysward client looks first, as its uid): the
	# mounter looked it up as root, and its error told a uid 65534
	# client what a root-only directory holds (before: ENOENT for an
	# absent name, ENOTDIR for a file, the child's EACCES for a
	# directory).  Now every one is the client's own EACCES; a root
	# client's workspace there still works.
	local name errs=""
	chmod 0755 "$W"
	mkdir -m 0700 "$W/private" "$W/private/dir"
	: >"$W/private/file"
	start_daemon || return
	for name in absent dir file; do
		last_cmd=("${NOBODY[@]}" "$SWD_RAW" "$S" "sandbox:$W/private/$name")
		timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
		rc=$?
		errs="$errs $(sed -n 's/^ERROR errno=\([A-Z]*\) .*/\1/p' "$W/out")"
		grep -q '^EXIT' "$W/out" && { fail "uid 65534 ran with a workspace it cannot reach ($name)"; dump_last; }
	done
	[ "$errs" = " EACCES EACCES EACCES" ] ||
		fail "the daemon told uid 65534 what $W/private (0700, root's) holds:$errs (absent, a directory, a file)"
	last_cmd=("$SWD_RAW" "$S" "sandbox:$W/private/dir")
	timeout 60 "${last_cmd[@]}" </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	grep -qx 'EXIT 0' "$W/out" || { fail "root's sandbox in its own directory did not run"; dump_last; }
	daemon_serves
}

# fuse_workspace_start DIR: adv_fuse's workspace server on DIR/mnt (in
# the host's mount namespace), its pid in srv, once mounted; 77 (skip)
# where it cannot mount.
fuse_workspace_start() {
	mkdir -p "$1/mnt" && chmod -R 0755 "$1"
	"$ADV/adv_fuse" "$1" workspace >"$W/fuse.out" 2>&1 </dev/null &
	srv=$!
	for _ in $(seq 100); do grep -q 'server: mounted' "$W/fuse.out" && break; sleep 0.05; done
	grep -q 'server: mounted' "$W/fuse.out" ||
		{ cat "$W/fuse.out"; kill "$srv"; echo "SKIP: cannot mount FUSE here"; return 77; }
}

t_sandbox_mounts_never_block() {
	# Route 13 and 21: --sandbox's read-only mounts look the client's
	# workspace up (as the client, its VCS metadata too).  A workspace
	# on a FUSE file system whose server never answers the look-up of
	# its .git (tests/security/adv_fuse workspace: only the mounts look
	# it up) holds that session only: they are made after the seize,
	# and another session on the same tracer thread runs meanwhile.  The
	# held session ends when its client goes.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	SHARDS=1 start_daemon || return
	chmod 0755 "$W"
	local d=$W/fz srv bg t0 ms
	fuse_workspace_start "$d" || return
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --sandbox="$d/mnt/ws" -- true \
		>"$W/hostile.out" 2>&1 </dev/null &
	bg=$!
	for _ in $(seq 200); do grep -q 'LOOKUP of ws/.git by uid 65534' "$W/fuse.out" && break; sleep 0.05; done
	cat "$W/fuse.out"
	grep -q 'LOOKUP of ws/.git by uid 65534' "$W/fuse.out" ||
		fail "the sandbox's mounts never looked the workspace's .git up as the client"
	t0=$(date +%s%N)
	timeout -k 2 10 "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4242)" -- "$PROBE" getuid \
		>"$W/out" 2>"$W/err" </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	cat "$W/out" "$W/err"
	echo "beside a launch held by a workspace that never answers: another session done in $ms ms (exit $rc)"
	expect_rc 0
	expect_output "getuid=4242"
	[ "$ms" -lt 5000 ] || fail "another session waited $ms ms for the held launch"
	kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null
	# The mounter waits uninterruptibly once the server has read its
	# look-up (fs/fuse/dev.c request_wait_answer()), and the server's
	# stuck thread keeps /dev/fuse open: without the abort both stay,
	# unkillable, after the test (35 of each were left on this machine).
	fuse_abort_of "$srv" "$d/mnt" || echo "note: no FUSE connection of $srv to abort"
	kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
	umount -l "$d/mnt" 2>/dev/null
	daemon_serves
}

t_exec_rules_resolve_as_client() {
	# Route 17: the exec-time check resolves an exec rule's path pattern
	# to the file it names.  It does so as the client, with the client's
	# uid, gid and groups: resolved as the root daemon, a policy naming
	# a path under a directory only root can search would tell a client
	# of uid 65534 whether that name is a file it runs (killed) or not
	# (runs): an oracle on a directory it cannot list.  One directory,
	# 0700 root, holds "yes", a symlink to the probe; "no" is not there.
	# The client must see the same either way; a group it is in opens
	# a 0710 directory to it, and there the rule holds; root's embedded
	# run still resolves the 0700 one.
	SHARDS=1 start_daemon || return
	chmod 0755 "$W"
	local sec=$W/sec grp=$W/grp name rc_yes rc_no
	mkdir -m 0700 "$sec" && ln -s "$PROBE" "$sec/yes" || return
	mkdir -m 0710 "$grp" && chgrp 4711 "$grp" && ln -s "$PROBE" "$grp/yes" || return
	for name in yes no; do
		policy "deny-$name" >/dev/null <<-EOF
		{"defaultAction": "SCMP_ACT_ALLOW",
		 "syscalls": [{"names": ["execve"], "action": "SCMP_ACT_ERRNO",
		               "paths": [{"index": 0, "exact": "$sec/$name"}]}]}
		EOF
		chmod 0644 "$W/deny-$name.json"
	done
	policy deny-grp >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["execve"], "action": "SCMP_ACT_ERRNO",
	               "paths": [{"index": 0, "exact": "$grp/yes"}]}]}
	EOF
	chmod 0644 "$W/deny-grp.json"
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/deny-yes.json" -- "$PROBE" exit 0 \
		>"$W/out" 2>"$W/err" </dev/null
	rc_yes=$?
	cat "$W/err"
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/deny-no.json" -- "$PROBE" exit 0 \
		>"$W/out" 2>"$W/err" </dev/null
	rc_no=$?
	cat "$W/err"
	echo "uid 65534, a rule naming $sec/yes (the probe, in root's 0700 directory): exit $rc_yes; naming $sec/no (not there): exit $rc_no"
	[ "$rc_yes" -eq "$rc_no" ] ||
		fail "the client told a name in a directory it cannot search from one that is not there (exit $rc_yes vs $rc_no)"
	[ "$rc_yes" -eq 0 ] || fail "the probe, run by a name the rule does not name for the client, did not run (exit $rc_yes)"
	setpriv --reuid=65534 --regid=65534 --groups=4711 \
		"$SYSWARD" run --daemon="$S" --policy "$W/deny-grp.json" -- "$PROBE" exit 0 \
		>"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/err"
	echo "uid 65534 in group 4711, a rule naming $grp/yes (0710, group 4711): exit $rc"
	expect_rc 137
	"$SYSWARD" run --policy "$W/deny-yes.json" -- "$PROBE" exit 0 >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/err"
	echo "root, embedded, a rule naming $sec/yes: exit $rc"
	expect_rc 137
	daemon_serves
}

# exec_root_resolved WHEN: root's exec rule naming the probe by the
# symlink $W/alias is resolved (t_exec_resolvers_stuck): the probe is
# killed at its exec, another program runs.
exec_root_resolved() {
	local prog
	for prog in "$PROBE" /bin/true; do
		timeout -k 2 20 "$SYSWARD" run --daemon="$S" --policy "$W/alias.json" -- "$prog" exit 0 \
			>"$W/out" 2>"$W/err" </dev/null
		rc=$?
		echo "root, $1, a rule naming the probe by a symlink, running $prog: exit $rc"
		if [ "$prog" = /bin/true ]; then expect_rc 0; else expect_rc 137; fi
	done
}

# tags: shards-pinned
t_exec_resolvers_stuck() {
	# Route 17 and 13: an exec rule's path on a file system that never
	# answers (tests/security/adv_fuse workspace: the look-up of ws/.git
	# is read and never answered) leaves its resolver thread behind.
	# Such a session's exec-time check cannot be made: it fails closed
	# (its program is killed at its exec, with a message), never by the
	# rule's string only.  17 such sessions of uid 65534 exhaust that
	# uid's resolvers, not another uid's: a root session beside them,
	# whose rule names the probe through a symlink, is still resolved
	# (the probe killed, another program runs), and not delayed past
	# one resolver's deadline.  Aborting the connection lets the
	# resolvers end, and the uid resolves again.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	have_fusectl || { echo "SKIP: no fusectl to abort a FUSE connection"; return 77; }
	SHARDS=1 start_daemon || return
	chmod 0755 "$W"
	local d=$W/fz srv bg i rcs="" t0 ms
	fuse_workspace_start "$d" || return
	policy stuck >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["execve"], "action": "SCMP_ACT_ERRNO",
	               "paths": [{"index": 0, "exact": "$d/mnt/ws/.git/hooks/x"}]}]}
	EOF
	ln -s "$PROBE" "$W/alias"
	policy alias >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["execve"], "action": "SCMP_ACT_ERRNO",
	               "paths": [{"index": 0, "exact": "$W/alias"}]}]}
	EOF
	chmod 0644 "$W/stuck.json" "$W/alias.json"
	# Beside the first of them (on the one tracer thread, held up to
	# one deadline: the bound on the stall), root's session.
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/stuck.json" -- "$PROBE" exit 0 \
		>/dev/null 2>&1 </dev/null &
	bg=$!
	sleep 0.1
	t0=$(date +%s%N)
	exec_root_resolved beside
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "root's two sessions beside it: $ms ms"
	[ "$ms" -lt 2500 ] || fail "root's session waited $ms ms beside uid 65534's"
	for i in $(seq 2 17); do
		timeout -k 2 20 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/stuck.json" -- "$PROBE" exit 0 \
			>"$W/out" 2>"$W/err.$i" </dev/null
		rcs="$rcs $?"
	done
	wait "$bg"
	rcs="$? $rcs"
	echo "uid 65534, 17 sessions whose exec rule's path never resolves: exits $rcs"
	grep -c 'cannot be checked' "$W/daemon.log" || true
	case " $rcs " in
	*" 0 "*) fail "a session whose exec rule's path never resolved ran its program (matched by the rule's string only)" ;;
	esac
	# uid 65534's resolvers are exhausted, not root's.
	exec_root_resolved after
	fuse_abort_of "$srv" "$d/mnt" || fail "no FUSE connection of $srv to abort"
	sleep 0.5
	timeout -k 2 20 "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$W/stuck.json" -- "$PROBE" exit 0 \
		>"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/err"
	echo "uid 65534 after the connection's abort: exit $rc"
	expect_rc 0
	kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
	umount -l "$d/mnt" 2>/dev/null
	daemon_serves
}

# tags: needs-kcmp
t_fuse_complain_never_blocks() {
	# Route 13: the daemon's look at what an open opened, in a root
	# client's session under complain mode over "filesystem" rules
	# (fscomplain.c, objects.c), on a FUSE file the program serves in
	# its own user namespace and whose server never answers STATFS or
	# GETATTR (tests/security/adv_fuse write-open).  The daemon's tracer
	# is of the mounter's uid (0): a statfs(2), stat(2) or look-up of
	# the file would wait for that server, and with it the one tracer
	# thread, which also serves another session here.  That session
	# runs in milliseconds; the hostile one ends contained.
	[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse"; return 77; }
	SHARDS=1 start_daemon || return
	chmod 0755 "$W"
	local bg t0 ms p d=$W/fw
	mkdir -p "$d/mnt" && chmod -R 0755 "$d"
	policy fusefs >/dev/null <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "filesystem": {"paths": [{"path": "/", "access": "ro"},
	                          {"path": "$d", "access": "rw"}]}}
	EOF
	timeout -s KILL 30 "$SYSWARD" run --daemon="$S" --complain --policy "$W/fusefs.json" --cap setfcap -- \
		"$ADV/adv_fuse" "$d" write-open >"$W/hostile.out" 2>&1 </dev/null &
	bg=$!
	# held (undefended) or done (defended): either way, now
	fuse_reached "$bg" 'never answered\|^result: open = ' || return
	t0=$(date +%s%N)
	last_cmd=(timeout -k 2 10 "$SYSWARD" run --daemon="$S" --policy "$(uid_policy 4242)" -- "$PROBE" getuid)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	cat "$W/out" "$W/err"
	echo "beside an open of a FUSE file that never answers: another session done in $ms ms (exit $rc)"
	if [ "$rc" -ne 0 ]; then
		# undefended: the tracer waits in a request its server has
		# read, which no signal ends; abort the connection
		for p in $(pgrep -f "$ADV/adv_fuse $d write-open"); do fuse_abort_of "$p" "$d/mnt"; done
	fi
	expect_rc 0
	expect_output "getuid=4242"
	[ "$ms" -lt 3000 ] || fail "another session waited $ms ms for the FUSE server"
	timeout 10 tail --pid="$bg" -f /dev/null || { fail "adv_fuse's client still runs"; kill -9 "$bg"; }
	wait "$bg"
	rc=$?
	cat "$W/hostile.out"
	grep -q '^verdict: contained' "$W/hostile.out" ||
		fail "the daemon asked the program's FUSE server (client exit $rc)"
	daemon_serves
}

t_fsrules_in_session() {
	# Route 21 through syswardd: a file the policy's "filesystem" rules
	# refuse, named by every other string (relative, dirfd, "..",
	# symbolic and hard links, /proc/self/fd and /proc/self/root,
	# openat2, a #! interpreter, execveat, a bind mount in a user
	# namespace of its own), writes to read-only trees, TCP ports not
	# granted: refused by the kernel in a root client's session and in
	# uid 65534's, the rules looked up in the session's own view (its
	# mount namespace, the client's working directory); what they grant
	# works.  The same rule by strings: the names get through.
	start_daemon || return
	chmod 0755 "$W"
	local as fs=$W/fs
	for as in root nobody; do
		rm -rf "$fs"
		fsrules_stage "$fs" $([ "$as" = nobody ] && echo 65534)
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$fs/fs.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO)
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		run_contained "a $as session reached a file or port its kernel-enforced rules refuse"
		rm -rf "$fs"
		fsrules_stage "$fs" $([ "$as" = nobody ] && echo 65534)
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$fs/strings.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO)
		[ "$as" = nobody ] && last_cmd=("${NOBODY[@]}" "${last_cmd[@]}")
		timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		grep -q 'ESCAPE: open(rw/sub/hard)' "$W/out" && grep -q 'ESCAPE: open(rw/ro-link' "$W/out" ||
			{ cat "$W/out" "$W/err"; fail "$as: the string rules' control did not show the names getting through"; }
	done
	# A client that asked for a report is told that the kernel's
	# refusals are not in it.
	rm -rf "$fs"
	fsrules_stage "$fs" 65534
	"${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --report="$W/fs/report.json" --policy "$fs/fs.json" -- cat "$fs/ro/secret/key" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 1
	grep -q "^sysward: the policy's \"filesystem\" and \"network\" rules are the kernel's (Landlock)" "$W/err" ||
		fail "the client was not told that the kernel's refusals are not in its report"
	daemon_serves
}

# Route 16c: the session's own namespaces, which syswardd (a privileged
# launcher) gives every session.  nsbox_attack WHY PROGRAM ARGS...: the
# adversarial program as a client of uid 65534, under allow-all and
# Docker's default profile; contained under both.
nsbox_attack() {
	local why=$1 p
	shift
	for p in "$(allow_policy)" "$(example_policy docker-default)"; do
		last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$p" -- "$@")
		run_contained "$why (${p##*/})"
	done
}

t_nsbox_ipc_beyond_session() {
	# A witness of uid 65534 outside the session holds one IPC object of
	# each kind (SysV shm, sem, msg; POSIX mq, shm, named semaphore),
	# mode 0600; a session of the same uid may reach none of them, and
	# its own objects still work.
	local wit
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/ipc"
	"${NOBODY[@]}" "$ADV/adv_nsbox_ipc" witness "$W/ipc" $$ </dev/null >/dev/null 2>&1 &
	wit=$!
	wait_file "$W/ipc/wit.info" 100 || { fail "the witness did not start"; kill "$wit"; return; }
	nsbox_attack "an IPC object of the uid outside the session was reached" "$ADV/adv_nsbox_ipc" attack "$W/ipc"
	"${NOBODY[@]}" "$ADV/adv_nsbox_ipc" check "$W/ipc" || fail "the witness's IPC objects were changed from inside the session"
	kill "$wit"
	"${NOBODY[@]}" "$ADV/adv_nsbox_ipc" remove "$W/ipc"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_nsbox_ipc" own)
	run_contained "the session's own IPC objects do not work"
	daemon_serves
}

t_nsbox_cgroup_beyond_session() {
	# A witness of uid 65534 in a cgroup delegated to that uid as
	# systemd delegates user@UID.service (and in v1 pids and freezer
	# cgroups, root's as systemd leaves them, where the host mounts
	# them): a session of the
	# same uid may not limit, freeze, move or kill it through any cgroup
	# file, also through cgroup2 and v1 mounts made in a user and cgroup
	# namespace of its own; its own cgroup still reads.
	local r before after p
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/mnt"
	nsbox_cg_stage 65534; r=$?
	[ "$r" -eq 77 ] && { nsbox_cg_cleanup; return 77; }
	[ "$r" -eq 0 ] || { fail "cannot make the witness's cgroups"; nsbox_cg_cleanup; return; }
	nsbox_cg_witness 65534 || { fail "cannot place the witness"; nsbox_cg_cleanup; return; }
	before=$(nsbox_cg_state)
	for p in "$(allow_policy)" "$(example_policy docker-default)"; do
		last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$p" -- "$ADV/adv_nsbox_cgroup" attack "$nsbox_wit" "$NSBOX_CG" "$NSBOX_TRAP" "$W/mnt" $NSBOX_V1)
		run_contained "a cgroup outside the session was written (${p##*/})"
		after=$(nsbox_cg_state)
		printf 'witness %s before:\n%s\nafter:\n%s\n' "$nsbox_wit" "$before" "$after"
		[ "$before" = "$after" ] || fail "the witness outside the session was changed through its cgroup (${p##*/})"
	done
	nsbox_cg_cleanup
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_nsbox_cgroup" own)
	run_contained "the session's own cgroup does not read"
	daemon_serves
}

t_nsbox_hostwrite_root_session() {
	# A root client's program (no capability) writes no host setting
	# (sysctl, sysfs, /proc) by mode bits.
	local p
	start_daemon || return
	for p in "$(allow_policy)" "$(example_policy docker-default)"; do
		last_cmd=("$SYSWARD" run --daemon="$S" --policy "$p" -- "$ADV/adv_nsbox_hostwrite" attack)
		run_contained "a root session wrote a host setting (${p##*/})"
	done
	daemon_serves
}

t_nsbox_tty_beyond_session() {
	# A terminal of uid 65534 outside the session (a pty it opened):
	# the session has a devpts instance of its own, and its own
	# pseudo-terminals work.
	local wit
	"$ADV/adv_nsbox_tty" own >/dev/null 2>&1 || return 77	# no pseudo-terminals here
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/tty"
	"${NOBODY[@]}" "$ADV/adv_nsbox_tty" witness "$W/tty" </dev/null >/dev/null 2>&1 &
	wit=$!
	wait_file "$W/tty/wit.info" 100 || { fail "the witness did not start"; kill "$wit"; return; }
	nsbox_attack "a terminal of the uid outside the session was opened" "$ADV/adv_nsbox_tty" attack "$W/tty"
	sleep 0.3
	[ -e "$W/tty/wit.seen" ] && fail "SPOOF reached the witness's terminal"
	kill "$wit"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- "$ADV/adv_nsbox_tty" own)
	run_contained "the session's own pseudo-terminal does not work"
	daemon_serves
}

# tags: needs-python
t_nsbox_programs_beyond_session() {
	# Compatibility, as uid 65534 through syswardd: ps lists the
	# session; unshare -Ur gives uid 0; a cgroup2 mount in a user and
	# cgroup namespace of its own works (rooted at the session); Python's
	# multiprocessing (named semaphores in /dev/shm) works; script gets a
	# terminal of the session's devpts.
	local py n
	py=$(command -v /usr/bin/python3 || command -v python3) || return 77
	start_daemon || return
	chmod 0755 "$W"
	mkdir -m 0777 "$W/mnt"
	last_cmd=("${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sh -c '
		echo "ps: $(ps -e -o pid= | wc -l) processes"
		unshare -Ur id -u
		unshare -Urm --cgroup sh -c "mount -t cgroup2 none \"\$0\" && grep -c . \"\$0/cgroup.procs\" >/dev/null && echo own-cgroup2" "$2"
		grep "^0::" /proc/self/cgroup
		"$1" -c "
import multiprocessing as mp
def sq(x): return x * x
if __name__ == \"__main__\":
    with mp.Pool(2) as p: print(\"multiprocessing\", sum(p.map(sq, range(10))))
"
		script -qec "tty; echo script-ran" /dev/null </dev/null | tr -d "\r"' sh "$py" "$W/mnt")
	timeout 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	cat "$W/out" "$W/err"
	expect_rc 0
	expect_line 0 own-cgroup2 "multiprocessing 285" script-ran
	[ -z "$(nsbox_cg2)" ] || expect_line "0::/"
	grep -qx '/dev/pts/[0-9]*' "$W/out" || fail "script's terminal has no name in the session's devpts"
	n=$(sed -n 's/^ps: \([0-9]*\) processes$/\1/p' "$W/out")
	[ -n "$n" ] && [ "$n" -le 8 ] || fail "ps lists processes outside the session ($n)"
	daemon_serves
}

t_nsbox_cgroups_left() {
	# Each session's cgroup goes with it: 60 sessions as root and as uid
	# 65534, then 4 running when the daemon gets SIGTERM: no session
	# cgroup left below the clients' (a test cgroup of root's, where the
	# clients and the daemon run, so that concurrent tests do not count;
	# a session's cgroup is made below its client's, route 14).
	local cg2 t i pids=()
	cg2=$(nsbox_cg2)
	[ -n "$cg2" ] || return 77
	t=/sysward-test.$$
	mkdir "$cg2$t" || { fail "mkdir $cg2$t"; return; }
	local in_t=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg2$t")
	local DAEMON_AS=("${in_t[@]}")
	start_daemon || { rmdir "$cg2$t"; return; }
	chmod 0755 "$W"
	for ((i = 0; i < 30; i++)); do
		last_cmd=("${in_t[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- true)
		"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		expect_rc 0
		last_cmd=("${in_t[@]}" "${NOBODY[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- true)
		"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		expect_rc 0
	done
	echo "session cgroups left after 60 sessions: $(nsbox_session_cgroups "$t" | wc -l)"
	[ -z "$(nsbox_session_cgroups "$t")" ] || fail "session cgroups left behind: $(nsbox_session_cgroups "$t")"
	for ((i = 0; i < 4; i++)); do
		"${in_t[@]}" "$SYSWARD" run --daemon="$S" --policy "$(allow_policy)" -- sleep 30 >/dev/null 2>&1 </dev/null &
		pids+=($!)
	done
	for ((i = 0; i < 100; i++)); do
		[ "$(nsbox_session_cgroups "$t" | wc -l)" -ge 4 ] && break
		sleep 0.1
	done
	[ "$i" -lt 100 ] || fail "the 4 sessions did not start"
	term_beside "with 4 sessions running" "${pids[0]}"
	wait
	echo "session cgroups left after the daemon's SIGTERM: $(nsbox_session_cgroups "$t" | wc -l)"
	[ -z "$(nsbox_session_cgroups "$t")" ] || fail "session cgroups left behind after SIGTERM: $(nsbox_session_cgroups "$t")"
	rmdir "$cg2$t" 2>/dev/null
}

# The integration scenarios replayed through the daemon: all but those
# tagged (tests/lib/common.sh) with what the daemon does not do.
EMBEDDED_ONLY_TAGS="needs-log needs-pretend needs-kill-descendants other-command client-group"

embedded_list() {
	local s list rs=$SRCDIR/tests/integration/run.sh
	[ -r "$rs" ] || return 0
	list=$(sw_untagged "$rs" $EMBEDDED_ONLY_TAGS) || return 1
	for s in $list; do
		echo "embedded:$s"
	done
}

# Run the integration scenario through a private daemon: "sysward run"
# becomes "sysward run --daemon=SOCK" by a wrapper; the rest is unchanged.
run_embedded() {
	local name=$1 real=$SYSWARD
	start_daemon || return
	chmod 0755 "$W"
	cat >"$W/sysward" <<-EOF
	#!/bin/sh
	if [ "\$1" = run ]; then
		shift
		exec "$real" run --daemon="$S" "\$@"
	fi
	exec "$real" "\$@"
	EOF
	chmod 0755 "$W/sysward"
	SYSWARD=$W/sysward bash "$SRCDIR/tests/integration/run.sh" "$name"
	rc=$?
	[ "$rc" -eq 77 ] && return 77
	[ "$rc" -eq 0 ] || failed=1
	kill -0 "$D_PID" 2>/dev/null || fail "syswardd died during $name"
	return 0
}

sw_rows "$HERE/daemon-tests.rows" || exit 2
sw_command_line --list-also embedded_list "$@"
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${SYSWARDD:?SYSWARDD must name the syswardd binary}"
: "${PROBE:?PROBE must name the sw-probe binary}"
sw_skip_unless_root "daemon tests trace programs and switch users"

# Clients run as uid 65534 need the binaries where that uid can reach
# them, wherever the checkout is.
. "$HERE/../lib/stage.sh"
sw_stage_for_others SYSWARD PROBE || exit 1
sw_stage_files_for_others ADV 'adv_*' || exit 1
# The daemon refuses a client whose working directory the client's uid
# cannot use, and CTest starts us in the build tree, which may be private
# to root (a checkout in /root): run from a directory every uid can use.
cd "${TMPDIR:-/tmp}" || exit 1

skipped=0
for name in "$@"; do
	W=$(mktemp -d "${TMPDIR:-/tmp}/sysward-dt.${name//[:\/]/_}.XXXXXX")
	trap 'stop_daemon; sw_stage_cleanup' EXIT
	case "$name" in
	embedded:*)
		run_embedded "${name#embedded:}"
		r=$?
		;;
	*)
		if ! declare -F "t_$name" >/dev/null; then
			echo "unknown scenario '$name' (see $0 --list)" >&2
			exit 2
		fi
		"t_$name"
		r=$?
		;;
	esac
	stop_daemon
	if [ "$r" -eq 77 ]; then
		skipped=1
		rm -rf "$W"
	elif [ "$failed" -eq 0 ]; then
		rm -rf "$W"
		echo "PASS: $name"
	else
		echo "---- daemon log:" >&2
		cat "$W/daemon.log" >&2 2>/dev/null
		echo "FAIL: $name (work directory kept: $W)"
	fi
done
[ "$failed" -eq 0 ] && [ "$skipped" -eq 1 ] && exit 77
exit $failed
