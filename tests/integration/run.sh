#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sysward integration tests: run small static programs (progs/probe.c) under
# policies with "sysward run" on this machine's kernel and assert what the
# program observes, its exit status, and what sysward prints.  The
# scenarios that are a policy, a command and what it must do are rows of
# the table run.rows (tests/lib/rows.sh runs them); the ones here, t_NAME,
# are programs: more processes, signals, timing, reports read by python.
#
#   run.sh --list          print the scenario names (one CTest test each),
#                          the functions' and the rows'
#   run.sh SCENARIO...     run scenarios; exit 0 pass, 1 fail, 77 skipped
#
# Environment (set by CTest, see CMakeLists.txt):
#   SYSWARD   the sysward binary          PROBE    sw-probe (x86_64, static)
#   PROBE32   sw-probe32 (i386) or empty  SRCDIR   the source tree
#   DECODE_CALLS sw-decode-calls (the calls the decoder knows)
#
# Scenarios declare what they need with a "# tags:" line above them
# (tests/lib/common.sh lists the tags); the daemon tests, which rerun these
# scenarios through syswardd, skip those tagged with what the daemon does
# not do (needs-log: "sysward run --log", ...).
#
# Every scenario checks a positive and a negative case where one exists, so
# that a broken feature fails the test instead of passing by accident.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)

# ---------------------------------------------------------------- helpers

. "$HERE/../lib/common.sh"
. "$HERE/../lib/rows.sh"
EXAMPLES=$SRCDIR/policy/examples
W=

# sw and cli: common.sh's.

# start_bg PIDFILE CMD...: CMD, the last command, in the background (its
# pid in $bg, stdout in $W/out, stderr in $W/err), then up to 10 s for
# PIDFILE (where the probe's "pidfile" puts the program's pid).  If it
# never comes: fail, kill CMD, return 1.
start_bg() {
	local pidfile=$1
	shift
	last_cmd=("$@")
	"$@" >"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	wait_file "$pidfile" 100 && return 0
	fail "the program never wrote its pid file"
	kill -9 "$bg"; wait "$bg"
	return 1
}

# ---------------------------------------------------------------- scenarios

t_stop_from_outside() {
	# SIGSTOP from outside really stops the program (group-stop kept by
	# the tracer) until SIGCONT.
	local pidfile=$W/pid pid state i bg
	start_bg "$pidfile" timeout -k 5 60 "$SYSWARD" run --policy "$(uid_policy)" -- \
		"$PROBE" pidfile "$pidfile" sleep 1 getuid || return
	pid=$(cat "$pidfile")
	kill -STOP "$pid"
	for ((i = 0; i < 50; i++)); do
		state=$(proc_state "$pid")
		[ "$state" = T ] || [ "$state" = t ] && break
		sleep 0.1
	done
	[ "$state" = T ] || [ "$state" = t ] || fail "after SIGSTOP the program's state is '$state', not stopped"
	# Well past the program's 1 s sleep: a stopped program has not exited.
	sleep 2
	running "$pid" || fail "the program ran on (and exited) while it should be stopped"
	state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
	[ "$state" = T ] || [ "$state" = t ] || fail "2 s after SIGSTOP the program's state is '$state', not stopped"
	kill -CONT "$pid"
	wait $bg
	rc=$?
	expect_rc 0
	expect_output "getuid=4242"
}

t_signal_storm() {
	# SIGUSR1 from outside, over and over, while the program makes
	# emulated calls: no call may escape the emulation (a signal
	# interrupting a stop must not lose the tampering), and the
	# handler runs.
	local pidfile=$W/pid pid bg i
	start_bg "$pidfile" timeout -k 5 100 "$SYSWARD" run --policy "$(uid_policy)" -- \
		"$PROBE" pidfile "$pidfile" sigstorm 20000 || return
	pid=$(cat "$pidfile")
	for ((i = 0; i < 200; i++)); do
		kill -USR1 "$pid" 2>/dev/null || break
		sleep 0.005
	done
	wait $bg
	rc=$?
	expect_rc 0
	expect_output "sigstorm: getuid!=4242 0 times
sigstorm: handler ran: yes"
}

t_stop_threads_from_outside() {
	# SIGSTOP stops every thread of a busy multithreaded program (each
	# thread's group-stop is kept by the tracer), SIGCONT resumes them
	# all; no call escapes the emulation meanwhile.
	local pidfile=$W/pid pid bg i states stopped
	start_bg "$pidfile" timeout -k 5 60 "$SYSWARD" run --policy "$(uid_policy)" -- \
		"$PROBE" pidfile "$pidfile" spin-threads 4 3 || return
	pid=$(cat "$pidfile")
	sleep 0.5
	kill -STOP "$pid"
	for ((i = 0; i < 50; i++)); do
		states=$(cat /proc/"$pid"/task/*/stat 2>/dev/null | awk '{print $3}' | sort | uniq -c | tr -s ' \n' ' ')
		stopped=$(cat /proc/"$pid"/task/*/stat 2>/dev/null | awk '$3 != "T" && $3 != "t"' | wc -l)
		[ "$stopped" -eq 0 ] && break
		sleep 0.1
	done
	[ "$stopped" -eq 0 ] || fail "after SIGSTOP not every thread is stopped: states $states"
	local n
	n=$(ls /proc/"$pid"/task | wc -l)
	[ "$n" -eq 5 ] || fail "expected 5 threads, /proc shows $n"
	sleep 1
	stopped=$(cat /proc/"$pid"/task/*/stat 2>/dev/null | awk '$3 != "T" && $3 != "t"' | wc -l)
	[ "$stopped" -eq 0 ] || fail "1 s after SIGSTOP some threads run again"
	kill -CONT "$pid"
	wait $bg
	rc=$?
	expect_rc 0
	expect_output "spin: threads=4 getuid!=4242 0 times, idle threads 0"
}

# tags: client-group
t_ctrl_c_and_term() {
	# Ctrl-C reaches the whole foreground process group: the program
	# dies of SIGINT and sysward survives to report 130.  SIGTERM sent
	# to sysward alone is forwarded to the program: 143.
	local pidfile=$W/pid bg pgid
	# env: bash starts a background command with SIGINT ignored, which
	# the program now inherits, as it would unconfined.
	start_bg "$pidfile" env --default-signal=INT setsid -w "$SYSWARD" run \
		--policy "$(uid_policy)" -- "$PROBE" pidfile "$pidfile" sleep 30 || return
	pgid=$(ps -o pgid= -p "$(cat "$pidfile")" | tr -d ' ')
	kill -INT -- "-$pgid"
	wait $bg
	rc=$?
	expect_rc 130
	rm -f "$pidfile"
	start_bg "$pidfile" "$SYSWARD" run --policy "$(uid_policy)" -- \
		"$PROBE" pidfile "$pidfile" sleep 30 || return
	kill -TERM $bg
	wait $bg
	rc=$?
	expect_rc 143
	running "$(cat "$pidfile")" && fail "the program survived SIGTERM to sysward"
}

t_stdio_env_cwd() {
	# stdin, stdout, environment and working directory reach the program
	# unchanged.
	last_cmd=("$SYSWARD" run --policy "$(uid_policy)" -- "$PROBE" env SW_TEST_VAR cwd cat)
	(cd "$W" && printf 'line one\nline two\n' |
		SW_TEST_VAR='a b=c' timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err")
	rc=$?
	expect_rc 0
	expect_output "env SW_TEST_VAR=a b=c
cwd=$W
line one
line two"
	# stderr too, and a large stream through a pipe.
	sw "$(uid_policy)" -- /bin/sh -c 'echo to-stderr >&2; seq 1 100000'
	expect_rc 0
	expect_err "to-stderr"
	[ "$(wc -l <"$W/out")" -eq 100000 ] || fail "seq output truncated: $(wc -l <"$W/out") lines"
}

t_tracer_killed() {
	# SIGKILL sysward: the program and its child must die with it
	# (PTRACE_O_EXITKILL) instead of running on unsupervised.
	local p1=$W/main.pid p2=$W/child.pid bg pid1 pid2 i
	last_cmd=("$SYSWARD" run --policy "$(uid_policy)" -- "$PROBE" spawn-sleeper "$p2" pidfile "$p1" sleep 60)
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null &
	bg=$!
	if ! wait_file "$p1" 100 || ! wait_file "$p2" 100; then
		fail "the program never wrote its pid files"
		kill -9 $bg; wait $bg
		return
	fi
	pid1=$(cat "$p1")
	pid2=$(cat "$p2")
	running "$pid1" || fail "main program $pid1 not running before the kill"
	running "$pid2" || fail "child $pid2 not running before the kill"
	kill -9 $bg
	wait $bg
	for ((i = 0; i < 50; i++)); do
		running "$pid1" || running "$pid2" || break
		sleep 0.1
	done
	if running "$pid1"; then
		fail "main program $pid1 still runs after sysward was SIGKILLed"
		kill -9 "$pid1"
	fi
	if running "$pid2"; then
		fail "child $pid2 still runs after sysward was SIGKILLed"
		kill -9 "$pid2"
	fi
}

# tags: needs-ia32
t_i386_program() {
	if [ -z "${PROBE32:-}" ] || [ ! -x "$PROBE32" ]; then
		echo "SKIP: no i386 probe was built (gcc -m32 unavailable)"
		exit 77
	fi
	# This kernel may have 32-bit emulation switched off
	# (ia32_emulation=off): then no i386 program runs at all here.
	if ! "$PROBE32" arch >/dev/null 2>&1; then
		echo "SKIP: this kernel cannot execute i386 programs (ia32_emulation off?): $("$PROBE32" arch 2>&1 | head -1)"
		exit 77
	fi
	local p
	p=$(policy i386 <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86"],
	 "syscalls": [
	   {"names": ["getuid32", "geteuid32", "getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	   {"names": ["getpid"], "action": "SYSWARD_ACT_REWRITE", "rewrite": {"syscall": "getppid"}},
	   {"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 30},
	   {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	    "paths": [{"index": 1, "prefix": "/etc/"}]},
	   {"names": ["open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	    "paths": [{"index": 0, "prefix": "/etc/"}]}]}
	EOF
	)
	# Two rules: each call's path is its own argument (openat's 1,
	# open's 0; `sysward check` warns about one rule with index 1 for
	# both, which fails every open with EFAULT).
	sw "$p" -- "$PROBE32" arch getuid geteuid sys:getuid pid-is-ppid mkdir "$W/d" \
		open /etc/passwd rdonly open "$W" rdonly fork getuid
	expect_rc 0
	expect_output "arch=i386
getuid=4242
geteuid=4242
getuid=4242
getpid==getppid: yes
mkdir($W/d)=-EROFS
open(/etc/passwd,rdonly)=-EACCES
open($W,rdonly)=ok
child: getuid=4242
fork: child exit=0"
	# x86_64 -> execve -> i386: the compat image is confined too.
	sw "$p" -- "$PROBE" exec "$PROBE32" arch getuid
	expect_rc 0
	expect_output "arch=i386
getuid=4242"
}

# Check each audit line with python's json module; print the field names.
# The fields docs/sysward.1 documents as always present.
AUDIT_FIELDS="time pid arch syscall nr args rule rule_path action verdict"
check_audit_json() {
	"$PYTHON" - "$1" $AUDIT_FIELDS <<-'EOF'
	import json, sys
	path, fields = sys.argv[1], sys.argv[2:]
	n = 0
	bad = 0
	for lineno, line in enumerate(open(path), 1):
	    try:
	        o = json.loads(line)
	    except ValueError as e:
	        print(f"line {lineno}: not JSON ({e}): {line!r}")
	        bad += 1
	        continue
	    if not isinstance(o, dict):
	        print(f"line {lineno}: not a JSON object: {line!r}")
	        bad += 1
	        continue
	    missing = [f for f in fields if f not in o]
	    if missing:
	        print(f"line {lineno}: missing fields {missing}: {line!r}")
	        bad += 1
	    n += 1
	    print("RECORD", o.get("syscall"), o.get("action"), o.get("arch"),
	          o.get("verdict"), o.get("return"), sep="\t")
	sys.exit(1 if bad or n == 0 else 0)
	EOF
}

# tags: needs-log
t_listener_log_same_as_ptrace() {
	# The calls the session's seccomp listener answers are logged by its
	# thread (engine/trace/listener.c): the same program under the same policy,
	# once with the listener and once with every call at a ptrace stop
	# (--report keeps the listener away), writes the same lines, text
	# and JSON, but for the time and the pid: a logged skip with a path
	# to decode (and a quote to escape), an emulate, a skip with an
	# errno, with --log's own lines of the launch around them.  Run
	# without address randomization, so that the registers a call does
	# not read (its "args") are the same in both; where setarch cannot,
	# those are left out of the comparison.
	local p fmt a b norm
	p=$(policy logged <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [
	   {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	   {"names": ["mkdir"], "action": "SYSWARD_ACT_SKIP", "errno": "EROFS", "log": true},
	   {"names": ["getppid"], "action": "SYSWARD_ACT_SKIP", "errno": "ENOTSUP"}]}
	EOF
	)
	local norand=(setarch "$(uname -m)" -R)
	"${norand[@]}" true 2>/dev/null || norand=()
	norm='s/^[0-9TZ:.-]+ \[pid [0-9]+\]//; s/"time":"[^"]*","pid":[0-9]+,//'
	[ ${#norand[@]} -gt 0 ] || norm="$norm"'; s/"args":\[[^]]*\],//'
	for fmt in text json; do
		a=$W/listener.$fmt b=$W/ptrace.$fmt
		sw_capture "${norand[@]}" "$SYSWARD" run --policy "$p" --log "$a" --log-format $fmt -- \
			"$PROBE" getuid mkdir "$W/d\"q" sys:getppid getuid
		expect_rc 0
		sw_capture "${norand[@]}" "$SYSWARD" run --policy "$p" --log "$b" --log-format $fmt \
			--report "$W/r.json" -- "$PROBE" getuid mkdir "$W/d\"q" sys:getppid getuid
		expect_rc 0
		[ "$(grep -c . "$a")" -eq 4 ] || { fail "$fmt: 4 lines expected with the listener"; cat "$a" >&2; }
		diff <(sed -E "$norm" "$a") <(sed -E "$norm" "$b") >&2 ||
			fail "$fmt: the listener's lines differ from the stops'"
	done
	grep -q 'mkdir("'"$W"'/d\\"q", 0755) rule=1 (syscalls\[1\]) SYSWARD_ACT_SKIP -> return = -1 EROFS' "$W/listener.text" ||
		{ fail "no decoded mkdir line"; cat "$W/listener.text" >&2; }
	[ ! -e "$W/d\"q" ] || fail "the skipped mkdir ran"
}

# tags: needs-log
t_audit_log_json() {
	local p log=$W/audit.log
	p=$(policy audit <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [
	   {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242, "log": true},
	   {"names": ["mkdir"], "action": "SYSWARD_ACT_LOG"},
	   {"names": ["getpid"], "action": "SYSWARD_ACT_REWRITE",
	    "rewrite": {"syscall": "getppid"}, "log": true}]}
	EOF
	)
	sw "$p" --log "$log" -- "$PROBE" getuid mkdir "$W/logged" pid-is-ppid
	expect_rc 0
	expect_output "getuid=4242
mkdir($W/logged)=ok
getpid==getppid: yes"
	[ -s "$log" ] || { fail "--log $log is empty or missing"; return; }
	local summary
	if ! summary=$(check_audit_json "$log"); then
		fail "audit log is not valid JSON lines with fields $AUDIT_FIELDS:"
		echo "$summary" >&2
		cat "$log" >&2
		return
	fi
	grep -q $'^RECORD\tgetuid\tSYSWARD_ACT_EMULATE\tx86_64\treturn\t4242$' <<<"$summary" ||
		{ fail "no audit record for the emulated getuid"; echo "$summary" >&2; }
	grep -q $'^RECORD\tmkdir\tSYSWARD_ACT_LOG\tx86_64\tallow\t0$' <<<"$summary" ||
		{ fail "no audit record for the logged mkdir"; echo "$summary" >&2; }
	grep -q $'^RECORD\tgetpid\tSYSWARD_ACT_REWRITE\tx86_64\trewrite' <<<"$summary" ||
		{ fail "no audit record for the rewritten getpid"; echo "$summary" >&2; }
	# Unlogged rules leave no record: nothing but these three calls.
	local n
	n=$(wc -l <"$log")
	[ "$n" -eq 3 ] || { fail "expected 3 audit records, got $n"; cat "$log" >&2; }
	# --log appends.
	sw "$p" --log "$log" -- "$PROBE" getuid
	n=$(wc -l <"$log")
	[ "$n" -eq 4 ] || fail "--log should append: expected 4 records, got $n"
}

# tags: needs-log
t_audit_log_exec_path() {
	# An execve that succeeds has replaced the memory its path was in by
	# its exit stop, where the line with its result is written: the path
	# is read at entry.  From the main thread and from a thread that is
	# not the leader (its tid becomes the leader's).
	local p log=$W/audit.log n
	p=$(policy audit <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["execve"], "action": "SYSWARD_ACT_LOG"}]}
	EOF
	)
	sw "$p" --log "$log" -- "$PROBE" thread-exec exec "$PROBE" getuid
	expect_rc 0
	# sysward's exec of the probe, the thread's (of /proc/self/exe), the
	# probe's own exec: each with its path and its result.
	n=$(python3 -c 'import json, sys
print(" ".join("%s=%s" % (r["strings"]["arg0"], r.get("return"))
               for r in map(json.loads, open(sys.argv[1]))))' "$log")
	[ "$n" = "$PROBE=0 /proc/self/exe=0 $PROBE=0" ] ||
		{ fail "execve records: expected \"$PROBE=0 /proc/self/exe=0 $PROBE=0\", got \"$n\""; cat "$log" >&2; }
	sw "$p" --log - --log-format text -- "$PROBE" exec /nonexistent-sysward
	expect_err "execve(\"/nonexistent-sysward\", 0x" "= -1 ENOENT (No such file or directory)"
}

# tags: needs-log
t_audit_log_stderr_text() {
	local p
	p=$(policy audit <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["mkdir"], "action": "SYSWARD_ACT_LOG"}]}
	EOF
	)
	sw "$p" --log - --log-format text -- "$PROBE" mkdir "$W/t"
	expect_rc 0
	expect_output "mkdir($W/t)=ok"
	expect_err " mkdir(" "SYSWARD_ACT_LOG"
	if grep -q '^{' "$W/err"; then
		fail "--log-format text wrote JSON"
		dump_last
	fi
	sw "$p" --log - -- "$PROBE" mkdir "$W/j"
	expect_rc 0
	head -1 "$W/err" | "$PYTHON" -c 'import json,sys; json.loads(sys.stdin.readline())' ||
		{ fail "--log - (json) did not write a JSON line to stderr"; dump_last; }
	sw "$p" --log-format xml -- "$PROBE" getuid
	expect_rc 2
	expect_err "xml"
}

# The text log's arguments are strace's (engine/record/decode.c): the same
# programs run under strace(1) and under a policy that logs every call
# the decoder knows, and tests/lib/strace-diff.py compares the argument
# lists call by call (normalising only what sysward does not read:
# structures, buffers, addresses that change between runs).  The
# programs: sw-decode-calls (every decoded call, its flags, constants
# and special cases, Docker's personality/socket/clone rules included)
# and real ones (ls, a shell pipeline, python3).  Left out: clone3
# (sysward's own filter answers ENOSYS: no stop, no record) and
# exit_group (it never returns, so no record is written).  Not in the
# QEMU guest: it has neither python nor strace.
# tags: needs-log needs-python
t_decode_strace() {
	local calls p prog n=0
	command -v strace >/dev/null || { echo "SKIP: no strace here (scripts/install-deps installs it)"; exit 77; }
	[ -x "${DECODE_CALLS:-}" ] || { fail "DECODE_CALLS (sw-decode-calls) is not set"; return; }
	calls=$("$PYTHON" -c 'import re, sys
s = open(sys.argv[1]).read()
print(",".join(sorted(set(re.findall(r"(?:ROW0?|SPECIAL)\(\x22(\w+)\x22", s)) - {"clone3", "exit_group"})))' \
		"$SRCDIR/engine/record/decode.c")
	[ "$(echo "$calls" | tr , '\n' | wc -l)" -ge 63 ] ||
		{ fail "the decoder's table lists too few calls: $calls"; return; }
	p=$(policy decode <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": $("$PYTHON" -c 'import json, sys; print(json.dumps(sys.argv[1].split(",")))' "$calls"),
	               "action": "SCMP_ACT_ALLOW", "log": true}]}
	EOF
	)
	mkdir -p "$W/dir" && touch "$W/dir/a" "$W/dir/b"
	for prog in "$DECODE_CALLS" "/bin/ls -la $W/dir" "/bin/sh -c 'cat /etc/hostname | wc -c'" \
		    "/usr/bin/python3 -c 'import socket, os; socket.socket(); os.listdir(\"/\")'"; do
		n=$((n + 1))
		rm -f "$W/strace.$n" "$W/log.$n"
		eval strace -f -qq -e signal=none -e trace="$calls" -o "$W/strace.$n" "$prog" >"$W/strace-out.$n" 2>&1 </dev/null
		# The same standard streams as sw gives (files, no terminal).
		eval sw "$p" --log "$W/log.$n" --log-format text -- "$prog"
		echo "+ strace-diff.py $W/strace.$n $W/log.$n ($prog)"
		"$PYTHON" "$SRCDIR/tests/lib/strace-diff.py" "$W/strace.$n" "$W/log.$n" 50 ||
			fail "$prog: the log's arguments differ from strace's"
	done
}

# --log - shares the program's standard error: each record is a line of
# its own between the program's lines, never inside one, also when the
# program writes a line in several writes with a logged call between
# them (as glibc's error() does: "cat: ", the name, then strerror's
# text, whose locale file the policy may refuse).  To a file, and
# through a pipe; a control without --log has the same program lines.
# tags: needs-log
t_audit_log_stderr_lines() {
	local p n=150 prog
	p=$(policy chdir <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["chdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}]}
	EOF
	)
	prog='i=0; while [ $i -lt '$n' ]; do printf "line-$i-%0600d " 0 >&2; cd /nonexistent-$i 2>/dev/null; printf "end-$i\n" >&2; i=$((i+1)); done'
	check_lines() {
		"$PYTHON" - "$1" "$n" "$2" <<-'EOF'
		import json, re, sys
		path, n, want_records = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes"
		prog, recs, bad = 0, 0, []
		for line in open(path, errors="replace").read().split("\n")[:-1]:
		    m = re.fullmatch(r"line-(\d+)-0{600} end-(\d+)", line)
		    if m and m.group(1) == m.group(2):
		        prog += 1
		        continue
		    try:
		        # (other records, whole, may come: the VM guest's root
		        # session has write-opens checked, logged as allowed)
		        r = json.loads(line)
		        recs += r["syscall"] == "chdir"
		    except Exception:
		        bad.append(line[:120])
		if bad or prog != n or (recs < n if want_records else recs):
		    print("%s: %d whole program lines of %d, %d records, %d broken lines, first: %s"
		          % (path, prog, n, recs, len(bad), bad[:3]))
		    sys.exit(1)
		EOF
	}
	sw "$p" -- sh -c "$prog"
	expect_rc 0
	check_lines "$W/err" no || fail "the program's lines without --log"
	sw "$p" --log - -- sh -c "$prog"
	expect_rc 0
	check_lines "$W/err" yes || fail "--log - split the program's lines (a file)"
	("$SYSWARD" run --policy "$p" --log - -- sh -c "$prog" 2>&1 >/dev/null | cat >"$W/piped")
	check_lines "$W/piped" yes || fail "--log - split the program's lines (a pipe)"
	# A line that never ends holds no record back for ever: they come
	# out when the run ends, none lost.
	sw "$p" --log - -- sh -c 'printf "no end" >&2; cd /a; cd /b; cd /c; true'
	expect_rc 0
	[ "$(grep -o '"syscall":"chdir"' "$W/err" | wc -l)" -eq 3 ] ||
		{ fail "records behind a line that never ends were lost"; dump_last; }
}

docker_profile() {
	local f=$EXAMPLES/docker-default.json
	if [ ! -f "$f" ]; then
		fail "$f is missing"
		exit 1
	fi
	echo "$f"
}

# report_calls FILE: one line "SYSCALL OUTCOME RULE ACTION COUNT" per
# itemised call of the --report FILE, then "gate POLICY_REFUSALS TRIPPED",
# "mode MODE", "exit PROGRAM_EXIT EXIT".
report_calls() {
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
for c in r["calls"]:
    print(c["syscall"], c["outcome"], c["rule"], c["action"], c["count"])
print("gate", r["gate"]["policy_refusals"], str(r["gate"]["tripped"]).lower())
print("mode", r["mode"])
print("exit", r["program_exit"], r["exit"])' "$1"
}

# report_has FILE LINE...: each LINE is a line of report_calls FILE.
report_has() {
	local f=$1 l calls
	shift
	calls=$(report_calls "$f") || { fail "$f is not a report"; cat "$f" >&2; return; }
	for l in "$@"; do
		grep -Fxq -- "$l" <<<"$calls" ||
			{ fail "report $f: expected the line '$l' in:"; echo "$calls" >&2; }
	done
}

t_complain_docker_unshare() {
	# Issue 25: under Docker's default profile unshare -U true fails; in
	# complain mode it completes, and what the profile would have refused
	# is said on stderr and in the report.  The gate turns a refusal,
	# would-be or real, into its own exit status.
	local p
	p=$(docker_profile)
	sw "$p" -- unshare -U true
	[ "$rc" -ne 0 ] || { fail "control: unshare -U true succeeded under the Docker profile"; dump_last; }
	sw "$p" --complain --report "$W/r.json" -- unshare -U true
	expect_rc 0
	expect_err "sysward: complain: the policy would have refused 1 call:" \
		"  unshare (x86_64): 1 call would be refused by defaultAction (SCMP_ACT_ERRNO), e.g. unshare(CLONE_NEWUSER)"
	report_has "$W/r.json" "unshare would_refuse defaultAction SCMP_ACT_ERRNO 1" \
		"gate 1 false" "mode complain" "exit 0 0"
	# The gate: 122, or the status asked for, whatever the program's.
	sw "$p" --complain --gate -- unshare -U true
	expect_rc 122
	expect_err "sysward: gate: exit status 122 instead of the program's 0: the policy would have refused 1 call"
	sw "$p" --complain --gate=3 -q -- unshare -U true
	expect_rc 3
	grep -q "would be refused" "$W/err" && { fail "-q printed the complain summary"; dump_last; }
	# Enforcing, the gate says the policy refused; the report keeps the
	# program's own status.
	sw "$p" --gate --report "$W/e.json" -- unshare -U true
	expect_rc 122
	expect_err "unshare failed: Operation not permitted" \
		"  unshare (x86_64): 1 call refused by defaultAction (SCMP_ACT_ERRNO)"
	report_has "$W/e.json" "unshare refused defaultAction SCMP_ACT_ERRNO 1" \
		"gate 1 true" "mode enforce" "exit 1 122"
	# Nothing refused: the gate passes the program's status through.
	sw "$p" --gate -- "$PROBE" getuid exit 3
	expect_rc 3
	expect_output "getuid=0"
}

t_complain_allowlist() {
	# An allow-list whose default is ENOSYS, with a kill and a trap rule:
	# enforcing, the program sees ENOSYS and dies of SIGSYS; complaining,
	# every call runs and the report itemises each would-be refusal with
	# its rule, arguments (pointers left out) and path.  Two runs give
	# the same report, byte for byte.
	local p
	p=$(policy allowlist <<-EOF
	{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38,
	 "syscalls": [{"names": ["execve", "brk", "arch_prctl", "set_tid_address",
	   "set_robust_list", "rseq", "prlimit64", "readlink", "readlinkat", "getrandom",
	   "mprotect", "write", "exit_group", "exit", "getuid", "uname", "openat", "close"],
	   "action": "SCMP_ACT_ALLOW"},
	  {"names": ["sched_yield"], "action": "SCMP_ACT_KILL_PROCESS"},
	  {"names": ["getppid"], "action": "SCMP_ACT_TRAP"}]}
	EOF
	)
	sw "$p" -- "$PROBE" getuid sys:geteuid mkdir "$W/d"
	expect_rc 0
	expect_output "getuid=0
geteuid=-ENOSYS
mkdir($W/d)=-ENOSYS"
	sw "$p" -- "$PROBE" sys:sched_yield
	expect_rc 159
	sw "$p" --complain --report "$W/r1.json" -- "$PROBE" getuid sys:geteuid mkdir "$W/d" sys:sched_yield sys:getppid
	expect_rc 0
	expect_line "geteuid=0" "mkdir($W/d)=ok" "sched_yield=0"
	[ -d "$W/d" ] || fail "complain mode did not let mkdir run"
	report_has "$W/r1.json" "geteuid would_refuse defaultAction SCMP_ACT_ERRNO 1" \
		"mkdir would_refuse defaultAction SCMP_ACT_ERRNO 1" \
		"sched_yield would_refuse syscalls[1] SCMP_ACT_KILL_PROCESS 1" \
		"getppid would_refuse syscalls[2] SCMP_ACT_TRAP 1"
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
m = [c for c in r["calls"] if c["syscall"] == "mkdir"][0]
assert m["samples"] == [{"args": [None, "0x1ed"], "call": "mkdir(\"%s\", 0755)" % sys.argv[2],
                         "path": sys.argv[2]}], m["samples"]' "$W/r1.json" "$W/d" ||
		{ fail "the mkdir item does not show its path and mode"; cat "$W/r1.json" >&2; }
	rm -rf "$W/d"
	sw "$p" --complain --report "$W/r2.json" -- "$PROBE" getuid sys:geteuid mkdir "$W/d" sys:sched_yield sys:getppid
	expect_rc 0
	diff -u "$W/r1.json" "$W/r2.json" >&2 || fail "two runs of one program gave different reports (diff above)"
}

t_complain_sh_c() {
	# A shell script whose mkdir a rule refuses: it fails enforcing,
	# completes complaining, and the report puts the refusal on the
	# program that made it (the probe the script runs, not the shell),
	# with its path.
	local p script='"$0" mkdir "$1" && test -d "$1" && echo made'
	p=$(policy nomkdir <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13}]}
	EOF
	)
	sw "$p" -- sh -c "$script" "$PROBE" "$W/d"
	[ "$rc" -ne 0 ] || { fail "control: mkdir succeeded under a rule that refuses it"; dump_last; }
	expect_output "mkdir($W/d)=-EACCES"
	sw "$p" --complain --gate --report "$W/r.json" -- sh -c "$script" "$PROBE" "$W/d"
	expect_rc 122
	expect_output "mkdir($W/d)=ok
made"
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
calls = [c for c in r["calls"] if c["outcome"] == "would_refuse"]
assert len(calls) == 1 and calls[0]["syscall"] in ("mkdir", "mkdirat"), calls
assert calls[0]["rule"] == "syscalls[0]" and calls[0]["samples"][0]["path"] == sys.argv[2], calls
progs = [p for p in r["programs"] if p["would_refuse"]]
assert [(p["program"], p["would_refuse"]) for p in progs] == [(sys.argv[3], 1)], (progs, sys.argv[3])
assert any(p["program"] == sys.argv[4] for p in r["programs"]), (r["programs"], sys.argv[4])
' "$W/r.json" "$W/d" "$(readlink -f "$PROBE")" "$(readlink -f "$(command -v sh)")" ||
		{ fail "the report does not put one refused mkdir on the probe, beside the shell"; cat "$W/r.json" >&2; }
}

# tags: needs-python
t_complain_python_subprocess() {
	# python3 with a thread and a subprocess that runs unshare -U true,
	# under Docker's profile: the subprocess fails enforcing and succeeds
	# complaining; the report has the unshare on the unshare program and
	# the clone3 of the thread as the built-in defence it stays.
	local p script='import subprocess, threading
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("unshare:", subprocess.run(["unshare", "-U", "true"]).returncode)'
	p=$(docker_profile)
	sw "$p" -- "$PYTHON" -c "$script"
	expect_rc 0
	expect_output "unshare: 1"
	sw "$p" --complain --report "$W/r.json" -- "$PYTHON" -c "$script"
	expect_rc 0
	expect_output "unshare: 0"
	report_has "$W/r.json" "unshare would_refuse defaultAction SCMP_ACT_ERRNO 1" "gate 1 false"
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
c3 = [c for c in r["calls"] if c["syscall"] == "clone3"]
assert c3 and all(c["outcome"] == "defence" for c in c3), c3
u = [p for p in r["programs"] if p["program"].endswith("/unshare")]
assert len(u) == 1 and u[0]["would_refuse"] == 1, r["programs"]
assert r["tasks"] >= 3, r["tasks"]' "$W/r.json" ||
		{ fail "the report lacks the clone3 defence or the unshare program"; cat "$W/r.json" >&2; }
}

# tags: other-command
t_learn_under_policy() {
	# learn --policy BASE: the run is under BASE (its emulation applies:
	# getuid says 4242), what BASE would refuse is recorded instead of
	# refused (mkdir runs), and the policy written is BASE with the
	# learned rules merged: the same run then passes the gate.
	cat >"$W/base.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	cli learn --policy "$W/base.json" -o "$W/p.json" -- "$PROBE" getuid mkdir "$W/d1"
	expect_rc 0
	expect_output "getuid=4242
mkdir($W/d1)=ok"
	grep -q '"SYSWARD_ACT_EMULATE"' "$W/p.json" || { fail "BASE's emulation rule was lost:"; cat "$W/p.json" >&2; }
	sw "$W/p.json" --gate -- "$PROBE" getuid mkdir "$W/d2"
	expect_rc 0
	expect_output "getuid=4242
mkdir($W/d2)=ok"
	# Control: BASE alone refuses even the exec.
	sw "$W/base.json" --gate -- "$PROBE" getuid mkdir "$W/d3"
	expect_rc 125
	[ -e "$W/d3" ] && fail "control: the program ran under BASE alone"
	true
}

# tags: other-command
t_learn_merge() {
	# learn --merge BASE adds what the run made to BASE without widening
	# what BASE denies: its mkdir rule (EACCES) stays first and alone,
	# getuid (left to BASE's default) is allowed; the run under the
	# merged policy passes the gate but for mkdir; BASE may be the
	# output file; a BASE that does not load is refused before the run.
	cat >"$W/base.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
	 "syscalls": [{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "comment": "no new directories"}]}
	EOF
	cp "$W/base.json" "$W/same.json"
	cli learn --merge "$W/base.json" -o "$W/m.json" -- "$PROBE" getuid mkdir "$W/d1"
	expect_rc 0
	[ "$(grep -c '"mkdir"' "$W/m.json")" -eq 1 ] || { fail "mkdir named twice in the merged policy:"; cat "$W/m.json" >&2; }
	grep -q '"no new directories"' "$W/m.json" || fail "BASE's rule was not kept"
	cli check "$W/m.json"
	expect_rc 0
	sw "$W/m.json" --gate -- "$PROBE" getuid
	expect_rc 0
	expect_output "getuid=0"
	sw "$W/m.json" --gate -- "$PROBE" getuid mkdir "$W/d2"
	expect_rc 122
	expect_line "mkdir($W/d2)=-EACCES"
	cli learn --merge "$W/same.json" -o "$W/same.json" -- "$PROBE" getuid
	expect_rc 0
	grep -q '"getuid"' "$W/same.json" && grep -q '"no new directories"' "$W/same.json" ||
		{ fail "merging into BASE itself lost BASE or the learned rules:"; cat "$W/same.json" >&2; }
	echo '{"defaultAction": "SCMP_ACT_NOPE"}' >"$W/bad.json"
	cli learn --merge "$W/bad.json" -o "$W/x.json" -- "$PROBE" mkdir "$W/d3"
	expect_rc 125
	expect_err "--merge: "
	[ -e "$W/d3" ] && fail "the program ran although --merge's BASE does not load"
	[ -e "$W/x.json" ] && fail "an output file was left for a refused --merge"
	true
}

# tags: other-command
t_learn_paths() {
	# learn --paths: a call's path learned as its directory as written
	# (sysward-policy's prefix): another file of the same directory
	# passes the gate, a file elsewhere is refused (122); check accepts
	# the policy; deterministic; not with --format oci (runc has no
	# path conditions).
	mkdir -p "$W/d" && echo a >"$W/d/a.txt" && echo b >"$W/d/b.txt"
	cli learn --paths -o "$W/p.json" -- "$PROBE" open "$W/d/a.txt" rdonly
	expect_rc 0
	grep -Fq "\"prefix\": \"$W/d/\"" "$W/p.json" || { fail "no prefix rule for $W/d/:"; cat "$W/p.json" >&2; }
	cli check "$W/p.json"
	expect_rc 0
	sw "$W/p.json" --gate -- "$PROBE" open "$W/d/b.txt" rdonly
	expect_rc 0
	expect_output "open($W/d/b.txt,rdonly)=ok"
	sw "$W/p.json" --gate -- "$PROBE" open /etc/hostname rdonly
	expect_rc 122
	expect_output "open(/etc/hostname,rdonly)=-EPERM"
	cli learn --paths -o "$W/p2.json" -- "$PROBE" open "$W/d/a.txt" rdonly
	diff -u "$W/p.json" "$W/p2.json" >&2 || fail "two policies learned with --paths differ (diff above)"
	cli learn --paths --format oci -o "$W/x.json" -- "$PROBE" getuid
	expect_rc 2
	expect_err "not with --format oci"
}

# tags: other-command
t_learn_args() {
	# learn --args: a call's selector argument (socket's family here)
	# is learned with the values the run used: a Unix socket learned,
	# an Internet one refused (the gate says so); learned by name only,
	# both pass.  Deterministic, and check accepts it.
	cli learn --args -o "$W/a.json" -- "$PROBE" net-unix
	expect_rc 0
	grep -q '"args": \[{"index": 0, "value": 1, "op": "SCMP_CMP_EQ"}\]' "$W/a.json" ||
		{ fail "no rule for socket(AF_UNIX):"; cat "$W/a.json" >&2; }
	cli check "$W/a.json"
	expect_rc 0
	sw "$W/a.json" --gate -- "$PROBE" net-unix
	expect_rc 0
	sw "$W/a.json" --gate -- "$PROBE" net-inet
	expect_rc 122
	expect_line "socket(inet)=-EPERM"
	cli learn -o "$W/b.json" -- "$PROBE" net-unix
	expect_rc 0
	sw "$W/b.json" --gate -- "$PROBE" net-inet
	expect_rc 0
	cli learn --args -o "$W/c.json" -- "$PROBE" net-unix
	diff -u "$W/a.json" "$W/c.json" >&2 || fail "two policies learned with --args differ (diff above)"
}

# tags: other-command needs-python
t_learn_http() {
	# Issue 25's last real program: a local HTTP server and client
	# (Python's http.server and urllib), each learned while talking to
	# the other unconfined, then both under their learned policies with
	# --gate: the page arrives and neither gate trips.
	cat >"$W/server.py" <<-'EOF'
	import http.server, sys
	class H(http.server.BaseHTTPRequestHandler):
	    def do_GET(self):
	        self.send_response(200); self.end_headers(); self.wfile.write(b"hello\n")
	    def log_message(self, *a):
	        pass
	s = http.server.HTTPServer(("127.0.0.1", 0), H)
	open(sys.argv[1] + ".tmp", "w").write(str(s.server_address[1]))
	__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
	s.handle_request()
	EOF
	cat >"$W/client.py" <<-'EOF'
	import sys, urllib.request
	port = open(sys.argv[1]).read()
	print(urllib.request.urlopen("http://127.0.0.1:%s/" % port, timeout=20).read().decode().strip())
	EOF
	local bg
	# serve SIDE PORTFILE [SYSWARD-ARGS...]: the server in the background.
	serve() {
		local portfile=$1
		shift
		rm -f "$portfile"
		timeout -k 5 60 "$@" "$PYTHON" "$W/server.py" "$portfile" >"$W/server.out" 2>&1 </dev/null &
		bg=$!
		wait_file "$portfile" 100 || { fail "the server did not start: $(cat "$W/server.out")"; kill "$bg"; return 1; }
	}
	serve "$W/p1" "$SYSWARD" learn -o "$W/srv.json" -- || return
	"$PYTHON" "$W/client.py" "$W/p1" >"$W/out" 2>&1
	expect_output "hello"
	wait "$bg" || fail "learning the server: exit $? ($(cat "$W/server.out"))"
	serve "$W/p2" || return
	cli learn -o "$W/cli.json" -- "$PYTHON" "$W/client.py" "$W/p2"
	expect_rc 0
	expect_output "hello"
	wait "$bg"
	serve "$W/p3" "$SYSWARD" run --gate --policy "$W/srv.json" -- || return
	sw "$W/cli.json" --gate -- "$PYTHON" "$W/client.py" "$W/p3"
	expect_rc 0
	expect_output "hello"
	wait "$bg" || fail "the server under its learned policy: exit $? ($(cat "$W/server.out"))"
}

# tags: other-command
t_learn_real_programs() {
	# Issue 25 on real programs: tar of a source tree, a make -j2 build
	# (two compilers at once), git on a scratch repository.  Each is
	# learned, runs again under its learned policy with the gate quiet,
	# and a run that does something new (tar through gzip, a fork and
	# exec tar never made) fails the gate.
	local need
	for need in tar make cc git gzip; do
		command -v "$need" >/dev/null || { echo "SKIP: no $need here"; exit 77; }
	done
	mkdir -p "$W/src" && echo 'int main(void) { return 0; }' >"$W/src/a.c"
	printf 'all: a b\na: src/a.c\n\tcc -o a src/a.c\nb: src/a.c\n\tcc -o b src/a.c\n' >"$W/Makefile"
	cd "$W" || return
	cli learn -o "$W/tar.json" -- tar cf "$W/x.tar" src
	expect_rc 0
	sw "$W/tar.json" --gate -- tar cf "$W/y.tar" src
	expect_rc 0
	cmp -s "$W/x.tar" "$W/y.tar" || fail "tar under its learned policy wrote another archive"
	sw "$W/tar.json" --gate -- tar czf "$W/z.tgz" src
	[ "$rc" -eq 122 ] || [ "$rc" -ne 0 ] || fail "tar through gzip passed the gate of a policy learned without it"
	[ "$rc" -ne 0 ] || fail "tar czf: exit 0 under a policy that never saw gzip"
	cli learn -o "$W/make.json" -- make -j2
	expect_rc 0
	rm -f "$W/a" "$W/b"
	sw "$W/make.json" --gate -- make -j2
	expect_rc 0
	[ -x "$W/a" ] && [ -x "$W/b" ] || fail "make -j2 under its learned policy built nothing"
	# The same run from the same state: a new repository each time (a
	# second "git add" of an object git has already freshens it with
	# utimensat instead, which the first run never did).
	git init -q "$W/g" && echo x >"$W/g/f" || { fail "cannot make a scratch repository"; return; }
	cd "$W/g" || return
	cli learn -o "$W/git.json" -- git add f
	expect_rc 0
	cd "$W" && rm -rf "$W/g" && git init -q "$W/g" && echo x >"$W/g/f" && cd "$W/g" ||
		{ fail "cannot make the second scratch repository"; return; }
	sw "$W/git.json" --gate -- git add f
	expect_rc 0
	[ -n "$(git diff --cached --name-only)" ] || fail "git add under its learned policy staged nothing"
	cd "$W" || return
}

# tags: other-command
t_learn_roundtrip() {
	# Issue 25: sysward learn writes a policy that allows exactly what a
	# run did; the same run then passes under it (the gate stays quiet),
	# a run that does something new fails the gate, sysward check
	# accepts it, and two learned policies of one run are the same text.
	local p=$W/p.json
	cli learn -o "$p" -- "$PROBE" getuid mkdir "$W/d1"
	expect_rc 0
	expect_output "getuid=0
mkdir($W/d1)=ok"
	grep -Fxq '        "mkdir",' "$p" || { fail "the learned policy does not allow mkdir:"; cat "$p" >&2; }
	grep -Fq '"geteuid"' "$p" && { fail "the learned policy allows geteuid, which the run never made:"; cat "$p" >&2; }
	cli check "$p"
	expect_rc 0
	expect_output "$p: OK"
	sw "$p" --gate -- "$PROBE" getuid mkdir "$W/d2"
	expect_rc 0
	expect_output "getuid=0
mkdir($W/d2)=ok"
	# Something new: refused, and the gate says so.
	sw "$p" --gate -- "$PROBE" getuid mkdir "$W/d3" sys:geteuid
	expect_rc 122
	expect_line "geteuid=-EPERM"
	expect_err "  geteuid (x86_64): 1 call refused by defaultAction (SCMP_ACT_ERRNO)"
	# Deterministic.
	rm -rf "$W/d1"
	cli learn -o "$W/p2.json" -- "$PROBE" getuid mkdir "$W/d1"
	expect_rc 0
	diff -u "$p" "$W/p2.json" >&2 || fail "two learned policies of one run differ (diff above)"
	# A shell script and the programs it runs, learned as a whole tree.
	cli learn -o "$W/sh.json" -- sh -c 'ls "$1" >/dev/null && "$2" getuid' sh "$W" "$PROBE"
	expect_rc 0
	expect_output "getuid=0"
	sw "$W/sh.json" --gate -- sh -c 'ls "$1" >/dev/null && "$2" getuid' sh "$W" "$PROBE"
	expect_rc 0
	expect_output "getuid=0"
	# Usage, and a program that never ran leaves no file.
	cli learn -- "$PROBE" getuid
	expect_rc 2
	expect_err "missing --output FILE"
	cli learn -o "$W/x.json" --format docker -- "$PROBE" getuid
	expect_rc 2
	expect_err "unknown format 'docker' (expected 'sysward' or 'oci')"
	cli learn -o "$W/x.json" -- /nonexistent-sysward
	expect_rc 127
	[ ! -e "$W/x.json" ] || fail "learn left a policy of a program that never ran"
}

# unix_service_script: $W/service.py, a stand-in service: python3
# service.py OUT PATH... accepts stream connections at each PATH
# ("dgram:PATH": datagrams), writes "PATH got MESSAGE" to OUT.log for
# each message (a connection that sends none: nothing), OUT.ready once it
# listens; ends when killed, or in 60 s.
unix_service_script() {
	cat >"$W/service.py" <<-'EOF'
	import os, select, socket, sys, time
	out, socks = sys.argv[1], {}
	for spec in sys.argv[2:]:
	    dgram = spec.startswith("dgram:")
	    path = spec[6:] if dgram else spec
	    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM if dgram else socket.SOCK_STREAM)
	    try: os.unlink(path)
	    except OSError: pass
	    s.bind(path); os.chmod(path, 0o666)
	    if not dgram: s.listen(8)
	    socks[s] = (path, dgram)
	open(out + ".ready", "w").close()
	end = time.time() + 60
	while time.time() < end:
	    for s in select.select(list(socks), [], [], 1)[0]:
	        path, dgram = socks[s]
	        if dgram:
	            msg = s.recv(64)
	        else:
	            c = s.accept()[0]; c.settimeout(1)
	            try: msg = c.recv(64)
	            except OSError: msg = b""
	            c.close()
	        if msg:
	            with open(out + ".log", "a") as f:
	                f.write("%s got %s\n" % (path, msg.decode().strip()))
	EOF
}

# unix_service [AS...] -- PATH...: the stand-in service (run through the
# command AS, e.g. setpriv to another uid) in the background, its pid in
# $svc, its log service.log beside the first PATH; waits until it
# listens.
unix_service() {
	local as=() out
	while [ "$1" != -- ]; do as+=("$1"); shift; done
	shift
	out=$(dirname "${1#dgram:}")/service
	unix_service_script
	rm -f "$out.ready" "$out.log"
	${as[@]+"${as[@]}"} "$PYTHON" "$W/service.py" "$out" "$@" </dev/null &
	svc=$!
	sw_wait_until -e "$out.ready" 100 || { fail "the stand-in service did not start"; kill "$svc"; return 1; }
}

# tags: other-command needs-python
t_example_journal_nscd() {
	# policy/examples/journal-nscd.json as root: journald's and nscd's
	# sockets, root's (the program's uid), are granted; a root service
	# elsewhere is refused (route 19); datagrams go to the journal's
	# addresses only.  Stand-ins bound at the real names in a mount
	# namespace of the test's own (a tmpfs on /run; /var/run is /run).
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (journald and nscd are root's)"; exit 77; }
	[ -L /var/run ] || { echo "SKIP: /var/run is no link to /run here"; exit 77; }
	unix_service_script
	unshare -m --propagation private "$BASH" -c '
		W=$1 PYTHON=$2 SYSWARD=$3 PROBE=$4 EX=$5
		mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/journal /run/nscd || exit
		"$PYTHON" "$W/service.py" "$W/service" /run/systemd/journal/stdout \
			dgram:/run/systemd/journal/socket /var/run/nscd/socket \
			"$W/other.sock" "dgram:$W/d.sock" </dev/null &
		svc=$!
		for i in $(seq 100); do [ -e "$W/service.ready" ] && break; sleep 0.1; done
		"$SYSWARD" run --policy "$EX/journal-nscd.json" -- "$PROBE" \
			connect-unix /run/systemd/journal/stdout connect-unix /var/run/nscd/socket \
			connect-unix "$W/other.sock" sendto-unix /run/systemd/journal/socket \
			sendto-unix "$W/d.sock" >"$W/out" 2>"$W/err"
		echo "rc=$?" >>"$W/out"
		sleep 0.3
		kill "$svc"
	' sh "$W" "$PYTHON" "$SYSWARD" "$PROBE" "$EXAMPLES"
	last_cmd=("sysward run --policy journal-nscd.json (in a mount namespace of its own)")
	rc=0
	expect_output "connect(/run/systemd/journal/stdout)=ok
connect(/var/run/nscd/socket)=ok
connect($W/other.sock)=-EACCES
sendto(/run/systemd/journal/socket)=ok
sendto($W/d.sock)=-EACCES
rc=0"
	expect_err "connect to $W/other.sock refused with EACCES"
	sort "$W/service.log" >"$W/got"
	diff -u - "$W/got" <<-EOF >&2 || fail "the services got other messages than the policy lets through (diff above)"
	/run/systemd/journal/socket got hi
	/run/systemd/journal/stdout got hi
	/var/run/nscd/socket got hi
	EOF
}

# tags: other-command needs-python
t_learn_unix_addresses() {
	# learn --paths records the unix addresses the program connected to,
	# exact, each a rule of its own (a grant), then connect by name; check
	# shows each grant; the program runs under the learned policy, gate
	# quiet.  The service is uid 65534's, reached by root.
	chmod 0755 "$W"
	mkdir -m 0755 "$W/pub" && chown 65534:65534 "$W/pub"
	local p=$W/p.json i
	unix_service setpriv --reuid=65534 --regid=65534 --clear-groups -- "$W/pub/svc.sock" || return
	cli learn --paths -o "$p" -- "$PROBE" connect-unix "$W/pub/svc.sock" net-inet
	expect_rc 0
	expect_line "connect($W/pub/svc.sock)=ok"
	"$PYTHON" - "$p" "$W/pub/svc.sock" <<-'EOF' || { fail "the learned policy has no grant of the address:"; cat "$p" >&2; }
	import json, sys
	rules = [r for r in json.load(open(sys.argv[1]))["syscalls"] if r["names"] == ["connect"]]
	assert rules[0]["paths"] == [{"index": 1, "exact": sys.argv[2]}], rules
	assert "paths" not in rules[-1], rules
	EOF
	i=$("$PYTHON" -c 'import json, sys; print([i for i, r in enumerate(json.load(open(sys.argv[1]))["syscalls"]) if r.get("paths")][0])' "$p")
	cli check "$p"
	expect_rc 0
	# at the line and column of the learned rule's condition
	grep -q "^grant: $p:[0-9]*:[0-9]*: syscalls\[$i\]\.paths\[0\]: " "$W/out" ||
		fail "no grant line with a position for syscalls[$i].paths[0]"
	expect_out_contains ": syscalls[$i].paths[0]: grants connect to the unix socket \"$W/pub/svc.sock\", also where its service is a process of the program's uid outside its session (the name the service bound must be that too)"
	sw "$p" --gate -- "$PROBE" connect-unix "$W/pub/svc.sock" net-inet
	expect_rc 0
	expect_line "connect($W/pub/svc.sock)=ok"
	kill "$svc"
}

# tags: other-command
t_learn_runc() {
	# Issue 25: a learned --format oci policy loads and enforces in runc
	# unchanged: a container of static busybox runs the learned script,
	# and a call the learning run never made (mkdir) gets EPERM.  The
	# sysward format lacks the runtime's own calls: runc cannot start the
	# program under it (the control that the oci format's rule matters).
	local bb=/bin/busybox b=$W/bundle
	# Skipped unless runc can run a container here at all (not in every
	# container: systemd-nspawn's read-only cgroup tree stops it).
	. "$HERE/../oci/lib.sh" || exit 1
	oci_skip_unless_runc "$W" "$PROBE" getuid
	[ -x "$bb" ] && ! LC_ALL=C readelf -l "$bb" 2>/dev/null | grep -q interpreter ||
		{ echo "SKIP: no static busybox ($bb)"; exit 77; }
	mkdir -p "$b/rootfs/bin" "$b/rootfs/tmp" "$b/rootfs/proc"
	cp "$bb" "$b/rootfs/bin/busybox"
	cli learn --format oci -o "$W/oci.json" -- "$b/rootfs/bin/busybox" sh -c 'echo hi'
	expect_rc 0
	expect_output "hi"
	cli learn -o "$W/sw.json" -- "$b/rootfs/bin/busybox" sh -c 'echo hi'
	expect_rc 0
	(cd "$b" && runc spec) || { fail "runc spec failed"; return; }
	# runc_with POLICY ARGS...: the bundle's config with the policy and
	# the command, then runc run; sets $rc, $W/out, $W/err.
	runc_with() {
		local policy=$1
		shift
		"$PYTHON" - "$b/config.json" "$policy" "$@" <<-'EOF'
		import json, sys
		c = json.load(open(sys.argv[1]))
		c["process"]["terminal"] = False
		c["process"]["args"] = sys.argv[3:]
		c["root"] = {"path": "rootfs", "readonly": False}
		c["linux"]["seccomp"] = json.load(open(sys.argv[2]))
		json.dump(c, open(sys.argv[1], "w"))
		EOF
		last_cmd=(runc run --bundle "$b" "sw-learn-$$-$RANDOM")
		timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
	}
	runc_with "$W/oci.json" /bin/busybox sh -c 'echo hi'
	expect_rc 0
	expect_output "hi"
	runc_with "$W/oci.json" /bin/busybox mkdir /tmp/x
	expect_rc 1
	expect_err "can't create directory '/tmp/x': Operation not permitted"
	runc_with "$W/sw.json" /bin/busybox sh -c 'echo hi'
	[ "$rc" -ne 0 ] || { fail "control: runc started the program under the sysward format"; dump_last; }
}

# tags: other-command needs-python
t_learn_python() {
	# python3 with threads and a subprocess: the learned policy lets the
	# same run succeed, the gate quiet.
	local script='import subprocess, threading
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("rc", subprocess.run(["true"]).returncode)'
	cli learn -o "$W/py.json" -- "$PYTHON" -c "$script"
	expect_rc 0
	expect_output "rc 0"
	sw "$W/py.json" --gate -- "$PYTHON" -c "$script"
	expect_rc 0
	expect_output "rc 0"
}

# tags: other-command
t_bash_completion() {
	# client/completion/sysward.bash, as bash-completion loads it:
	# commands, options, policy files for --policy and check, the
	# program's own completion after PROGRAM.
	local bc=/usr/share/bash-completion/bash_completion
	if [ ! -r "$bc" ]; then
		echo "SKIP: bash-completion is not installed ($bc)"
		exit 77
	fi
	mkdir "$W/d"
	: >"$W/d/a.json"
	: >"$W/d/b.json"
	: >"$W/d/notes.txt"
	mkdir "$W/d/sub"
	last_cmd=(bash completion)
	# complete LINE: the words bash would offer at the end of LINE.
	(cd "$W/d" && bash --norc -c '
		. "$1"; . "$2"
		complete() {
			local line=$1
			COMP_LINE=$line COMP_POINT=${#line}
			read -ra COMP_WORDS <<<"$line"
			[[ $line == *" " ]] && COMP_WORDS+=("")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMPREPLY=()
			_sysward sysward "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
			printf "%s|" "$line"; printf "%s\n" "${COMPREPLY[@]}" | sort -u | tr "\n" " "; echo
		}
		complete "sysward "
		complete "sysward ch"
		complete "sysward check --"
		complete "sysward check "
		complete "sysward run --policy "
		complete "sysward run -p a"
		complete "sysward run --log-format "
		complete "sysward run --policy a.json --q"
		complete "sysward ps --"
		complete "sysward help "
		complete "sysward run --policy a.json -- ech"
		complete "sysward run --policy a.json --co"
		complete "sysward run --policy a.json --report "
		complete "sysward run --policy a.json --report r.json ech"
		complete "sysward run --policy a.json --ga"
		complete "sysward learn --"
		complete "sysward learn -o "
		complete "sysward learn --format "
		complete "sysward learn -o p.json ech"
		complete "sysward learn --cap CAP_SYS_T"
		complete "sysward run --cap CAP_SYS_T"
		complete "sysward ps --daemon=s"
		complete "sysward run --daemon=s"
		complete "sysward run --policy=a"
	' sh "$bc" "$SRCDIR/client/completion/sysward.bash") >"$W/out" 2>"$W/err"
	rc=$?
	expect_rc 0
	expect_output "sysward |check help info kill learn ps run 
sysward ch|check 
sysward check --|--help --json --policy-max-bytes --quiet --routes --strict 
sysward check |a.json b.json sub 
sysward run --policy |a.json b.json sub 
sysward run -p a|a.json 
sysward run --log-format |json text 
sysward run --policy a.json --q|--quiet 
sysward ps --|--daemon --daemon= --help --json 
sysward help |check help info kill learn ps run 
sysward run --policy a.json -- ech|echo 
sysward run --policy a.json --co|--complain 
sysward run --policy a.json --report |a.json b.json notes.txt sub 
sysward run --policy a.json --report r.json ech|echo 
sysward run --policy a.json --ga|--gate --gate= 
sysward learn --|--args --cap --catch-all --filesystem --format --help --merge --output --paths --policy --quiet --strict 
sysward learn -o |a.json b.json notes.txt sub 
sysward learn --format |oci sysward 
sysward learn -o p.json ech|echo 
sysward learn --cap CAP_SYS_T|CAP_SYS_TIME CAP_SYS_TTY_CONFIG 
sysward run --cap CAP_SYS_T|CAP_SYS_TIME CAP_SYS_TTY_CONFIG 
sysward ps --daemon=s|sub 
sysward run --daemon=s|sub 
sysward run --policy=a|a.json "
	# Installed where bash-completion looks for it.
	grep -q 'share/bash-completion/completions' "$SRCDIR/client/CMakeLists.txt" ||
		fail "client/CMakeLists.txt does not install the completion"
}

# tags: other-command
t_check_json() {
	# --json: one JSON document on stdout, an array with one object per
	# file; the positions and paths come from the error object, every
	# error and warning has both.
	local good syntax meaning
	good=$(policy good <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuidd"], "action": "SCMP_ACT_ALLOW"},
	              {"names": ["write"], "action": "SCMP_ACT_ERRNO",
	               "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_EQ"},
	                        {"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]},
	              {"names": ["open"], "action": "SCMP_ACT_ERRNO",
	               "paths": [{"index": 1, "prefix": "/etc/"}]}]}
	EOF
	)
	syntax=$(policy syntax <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [}
	EOF
	)
	meaning=$(policy meaning <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ERRNO",
	               "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_FOO"}]}]}
	EOF
	)
	cli check --json "$good" "$syntax" "$meaning"
	expect_rc 1
	[ ! -s "$W/err" ] || { fail "check --json printed on stderr"; dump_last; }
	"$PYTHON" - "$W/out" "$good" "$syntax" "$meaning" <<-'EOF' || { fail "check --json: wrong document"; dump_last; }
	import json, sys
	out, good, syntax, meaning = sys.argv[1:]
	got = json.load(open(out))
	want = [
	    {"file": good, "ok": True, "errors": [], "more_errors": 0, "warnings": [
	        {"path": "syscalls[0].names[0]", "kind": "other", "line": 2, "column": 26, "message": good + ':2:26: syscalls[0].names[0]: unknown system call "getuidd" ignored (did you mean "getuid"?)'},
	        {"path": "syscalls[1].args", "kind": "other", "line": 4, "column": 24, "message": good + ":4:24: syscalls[1].args: never matches: args[0] (arg 0 == 1) and args[1] (arg 0 == 2) cannot both hold"},
	        {"path": "syscalls[2]", "kind": "enforce", "line": 6, "column": 15, "message": good + ":6:15: syscalls[2]: paths: the supervisor, at a stop: its action is not SCMP_ACT_ERRNO with EACCES, the one refusal Landlock makes"},
	        {"path": "syscalls[2].paths[0]", "kind": "not-a-path", "line": 7, "column": 26, "message": good + ':7:26: syscalls[2].paths[0]: argument 1 of "open" is not a path (open\'s path is argument 0): the supervisor reads a string at the number there, and the calls this rule sees fail with EFAULT ("path argument unreadable"); use index 0'}]},
	    {"file": syntax, "ok": False, "more_errors": 0, "warnings": [], "errors": [
	        {"errno": "EINVAL", "line": 2, "column": 15, "path": None,
	         "message": syntax + ":2:15: unexpected '}'"}]},
	    {"file": meaning, "ok": False, "more_errors": 0, "warnings": [], "errors": [
	        {"errno": "EINVAL", "line": 3, "column": 56, "path": "syscalls[0].args[0].op",
	         "message": meaning + ':3:56: syscalls[0].args[0].op: unknown operator "SCMP_CMP_FOO" (expected one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)'}]},
	]
	if got != want:
	    print("got: ", json.dumps(got, indent=1), file=sys.stderr)
	    print("want:", json.dumps(want, indent=1), file=sys.stderr)
	    sys.exit(1)
	EOF
	# Control: the text output is unchanged by the option's existence.
	cli check "$good"
	expect_rc 0
	expect_output "$good: OK
warning: $good:2:26: syscalls[0].names[0]: unknown system call \"getuidd\" ignored (did you mean \"getuid\"?)
warning: $good:4:24: syscalls[1].args: never matches: args[0] (arg 0 == 1) and args[1] (arg 0 == 2) cannot both hold
enforce: $good:6:15: syscalls[2]: paths: the supervisor, at a stop: its action is not SCMP_ACT_ERRNO with EACCES, the one refusal Landlock makes
warning: $good:7:26: syscalls[2].paths[0]: argument 1 of \"open\" is not a path (open's path is argument 0): the supervisor reads a string at the number there, and the calls this rule sees fail with EFAULT (\"path argument unreadable\"); use index 0"
}

# tags: other-command
t_info_command() {
	cli info
	expect_rc 0
	expect_line "PTRACE_GET_SYSCALL_INFO:  yes" "PTRACE_SET_SYSCALL_INFO:  yes" \
		"seccomp filter:           yes" "architecture:             $(uname -m)" \
		"kernel:                   $(uname -r)"
	expect_out_contains "libseccomp:"
	cli info --json
	expect_rc 0
	"$PYTHON" -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["ptrace_set_syscall_info"] is True, o
assert o["ptrace_get_syscall_info"] is True, o
assert o["seccomp_filter"] is True, o
assert o["kernel"] == sys.argv[2], o
assert o["arch"] == sys.argv[3], o
assert o["libseccomp"].count(".") == 2, o
' "$W/out" "$(uname -r)" "$(uname -m)" || { fail "info --json"; dump_last; }
}

# ---------------------------------------------------------------- main

t_background_descendants() {
	# sysward run returns when the program and every process it started
	# have exited: a background child is waited for, still supervised
	# (its getuid emulated), and the status is the main program's.
	local p t0 t1
	p=$(policy bguid <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	)
	t0=$(date +%s%N)
	sw "$p" sh -c "(sleep 1; '$PROBE' getuid) & echo main-done; exit 3"
	t1=$(date +%s%N)
	expect_rc 3
	expect_line "main-done" "getuid=4242"
	[ $(( (t1 - t0) / 1000000 )) -ge 900 ] || fail "sysward run returned before the background child ended"
}

# tags: needs-kill-descendants
t_kill_descendants() {
	# --kill-descendants: when the program exits, what it left running
	# is killed; sysward returns at once with the program's status.
	local p
	p=$(policy kduid <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	)
	local t0 t1
	t0=$(date +%s%N)
	sw "$p" --kill-descendants -- sh -c "'$PROBE' pidfile '$W/bg.pid' sleep 30 & while [ ! -s '$W/bg.pid' ]; do sleep 0.05; done; echo main-done; exit 4"
	t1=$(date +%s%N)
	expect_rc 4
	[ $(( (t1 - t0) / 1000000 )) -lt 20000 ] || fail "sysward run waited for the background child despite --kill-descendants"

	expect_line "main-done"
	[ -s "$W/bg.pid" ] || fail "the background child never started"
	running "$(cat "$W/bg.pid")" && { fail "the background child survived --kill-descendants"; kill -9 "$(cat "$W/bg.pid")"; }

	# A program that dies of a signal ends sysward with it, also when
	# sysward then kills what it left (that kill is not its death).
	fid_job
	last_cmd=(timeout -k 5 60 "$PYTHON" "$W/job.py" status "$SYSWARD" run --policy "$p" --kill-descendants -- \
		sh -c "'$PROBE' pidfile '$W/bg2.pid' sleep 30 & while [ ! -s '$W/bg2.pid' ]; do sleep 0.05; done; kill -INT \$\$")
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	expect_line "status killed by SIGINT"
	running "$(cat "$W/bg2.pid")" && { fail "the background child survived --kill-descendants"; kill -9 "$(cat "$W/bg2.pid")"; }
	true
}

# ------------------------------------------------ fidelity: signals, stops
#
# Differential scenarios: the same command runs unconfined and under
# sysward, and what the program (or its parent) observes must be the same.

FID_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# fid_job: writes $W/job.py, a parent that runs one job as a shell does:
# itself in a session of its own (setsid -w), the job in a process group
# of its own, so that the job's group is not orphaned.  Actions:
#   job.py status CMD...        the job's status as $? would say it
#   job.py stop CMD...          waitpid(WUNTRACED): "stopped SIG", then
#                               SIGCONT to the job's group, and its status
#   job.py term-group FILE CMD... once FILE exists, SIGTERM to the job's
#                               group (kill -TERM -PGID); status, and
#                               whether it took less than 10 s
#   job.py stop-group FILE CMD... once FILE exists, SIGTSTP to the job's
#                               group, then as "stop", and whether
#                               FILE.done appeared while it was stopped
#   job.py signal-group FILE SIG CMD... once FILE exists, SIG to the job's
#                               group; its status
#   job.py signal-pid FILE SIG CMD... once FILE has a pid (the program's
#                               $$), SIG to that process; its status
# The status is the parent's view, as waitpid() gives it: "exited N" or
# "killed by SIGNAME" (a shell's $? says 128+N for both).  The job starts
# as a shell starts it: SIGPIPE at its default action (python ignores
# it), and no core file (RLIMIT_CORE 0; "(core dumped)" is not compared:
# docs/security.md, route 11b).
fid_job() {
	cat >"$W/job.py" <<-'EOF'
	import os, resource, signal, sys, time
	act, args = sys.argv[1], sys.argv[2:]
	ready = sig = None
	if act in ("term-group", "stop-group"):
	    ready, args = args[0], args[1:]
	if act in ("signal-group", "signal-pid"):
	    ready, sig, args = args[0], signal.Signals["SIG" + args[1]], args[2:]
	pid = os.fork()
	if pid == 0:
	    os.setpgid(0, 0)
	    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
	    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
	    os.execvp(args[0], args)
	try:
	    os.setpgid(pid, pid)
	except PermissionError:
	    pass    # EACCES: the child made its group and exec'd first, as a shell allows
	t0 = time.monotonic()
	if ready:
	    while not os.path.exists(ready) and time.monotonic() - t0 < 30:
	        time.sleep(0.05)
	if act == "stop-group":
	    os.killpg(pid, signal.SIGTSTP)
	if act in ("stop", "stop-group"):
	    _, st = os.waitpid(pid, os.WUNTRACED)
	    if os.WIFSTOPPED(st):
	        print("stopped", signal.Signals(os.WSTOPSIG(st)).name, flush=True)
	        if ready:
	            time.sleep(2)
	            print("ran on while stopped:", os.path.exists(ready + ".done"))
	        os.killpg(pid, signal.SIGCONT)
	        _, st = os.waitpid(pid, 0)
	elif act == "term-group":
	    os.killpg(pid, signal.SIGTERM)
	    _, st = os.waitpid(pid, 0)
	    print("within 10 s:", time.monotonic() - t0 < 10)
	elif act == "signal-group":
	    os.killpg(pid, sig)
	    _, st = os.waitpid(pid, 0)
	elif act == "signal-pid":
	    target = ""
	    while not target and time.monotonic() - t0 < 30:
	        time.sleep(0.05)
	        if os.path.exists(ready):
	            with open(ready) as f:
	                target = f.read().strip()
	    os.kill(int(target), sig)
	    _, st = os.waitpid(pid, 0)
	else:
	    _, st = os.waitpid(pid, 0)
	print("status", "exited %d" % os.WEXITSTATUS(st) if os.WIFEXITED(st)
	      else "killed by " + signal.Signals(os.WTERMSIG(st)).name)
	EOF
	chmod 0644 "$W/job.py"
}

# fid_same WHAT [PREFIX...] -- CMD...: run CMD unconfined and under
# sysward (the uid policy, then Docker's default profile), each after
# PREFIX (a user switch, a wrapper); stdout must be the same.  Each run
# starts without $W/pub/ready (term-group's "the job is ready" file).
fid_same() {
	local what=$1 prefix=() p
	shift
	while [ "$1" != -- ]; do prefix+=("$1"); shift; done
	shift
	last_cmd=("${prefix[@]}" "$@")
	rm -f "$W/pub/ready" "$W/pub/ready.done"
	timeout -k 5 60 "${last_cmd[@]}" >"$W/plain" 2>"$W/err" </dev/null
	for p in "$(uid_policy)" "$(docker_profile)"; do
		last_cmd=("${prefix[@]}" "$SYSWARD" run --policy "$p" -- "$@")
		rm -f "$W/pub/ready" "$W/pub/ready.done"
		timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
		rc=$?
		if ! diff -u "$W/plain" "$W/out" >&2; then
			fail "$what: confined ($(basename "$p")) differs from unconfined (diff above: - unconfined, + confined)"
			dump_last
		fi
	done
}

t_fidelity_dispositions() {
	# Signals ignored by the caller stay ignored in the program and the
	# caller's blocked signals stay blocked (execve keeps both), as
	# nohup, "trap '' INT" and a caller's sigprocmask mean them to.
	local wrap=("$PYTHON" -c '
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1, signal.SIGWINCH})
for s in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
    signal.signal(s, signal.SIG_IGN)
os.execvp(sys.argv[1], sys.argv[1:])' )
	local show=(grep -E '^Sig(Ign|Blk):' /proc/self/status)
	chmod 0755 "$W"
	fid_same "ignored and blocked signals" "${wrap[@]}" -- "${show[@]}"
	grep -q '^SigIgn:.*[1-9a-f]' "$W/plain" || fail "the control ignores nothing: $(cat "$W/plain")"
	fid_same "ignored and blocked signals as uid 65534" "${FID_NOBODY[@]}" "${wrap[@]}" -- "${show[@]}"
	# ... and nothing ignored or blocked stays so.
	fid_same "default signal state" -- "${show[@]}"
	fid_same "nohup" nohup -- sh -c 'kill -HUP $$; echo survived SIGHUP'
	grep -qx 'survived SIGHUP' "$W/plain" || fail "control: nohup sh did not survive SIGHUP"
}

t_fidelity_signal_targets() {
	# What a program's signals to its own processes return, as
	# unconfined: a child that exited and is not reaped yet (kill
	# returns 0), a pid that is gone (ESRCH), its own /proc/<pid>
	# directory as a pidfd (the signal is delivered), and its own
	# thread; outside its tree route 11 still answers EPERM (checked in
	# tests/security).  Targets that name no process, and flags the
	# kernel refuses, get the kernel's answer in the kernel's order
	# (a bad siginfo pointer is EFAULT before the pid is looked at), as
	# under runc (tests/oci).
	local prog='
import ctypes, os, signal, threading, time
libc = ctypes.CDLL(None, use_errno=True)
def raw(*a):
    r = libc.syscall(*[ctypes.c_long(x) for x in a])
    return "0" if r >= 0 else os.strerror(ctypes.get_errno())
def res(f):
    try:
        f(); return "0"
    except OSError as e:
        return e.strerror
child = os.fork()
if child == 0:
    os._exit(0)
time.sleep(0.3)
print("zombie kill 0:", res(lambda: os.kill(child, 0)))
print("zombie kill TERM:", res(lambda: os.kill(child, signal.SIGTERM)))
os.waitpid(child, 0)
print("reaped kill 0:", res(lambda: os.kill(child, 0)))
print("reaped group kill 0:", res(lambda: os.killpg(child, 0)))
got = []
signal.signal(signal.SIGUSR1, lambda *a: got.append(1))
fd = os.open("/proc/%d" % os.getpid(), os.O_DIRECTORY)
print("own /proc dir fd:", res(lambda: signal.pidfd_send_signal(fd, signal.SIGUSR1)), len(got))
print("rt_sigqueueinfo(-1, 0, NULL):", raw(129, -1, 0, 0))
print("rt_sigqueueinfo(0, 0, NULL):", raw(129, 0, 0, 0))
print("rt_tgsigqueueinfo(0, -1, 0, NULL):", raw(297, 0, -1, 0, 0))
print("pidfd_send_signal(-1, 0, NULL, 1 << 5):", raw(424, -1, 0, 0, 1 << 5))
print("pidfd_send_signal(fd, 0, NULL, THREAD | THREAD_GROUP):", raw(424, fd, 0, 0, 3))
t = threading.Thread(target=time.sleep, args=(0.5,)); t.start()
print("own thread:", res(lambda: signal.pthread_kill(t.ident, 0)))
t.join()'
	chmod 0755 "$W"
	fid_same "signals to the program's own processes" -- "$PYTHON" -c "$prog"
	grep -qx 'zombie kill 0: 0' "$W/plain" || fail "control: $(cat "$W/plain")"
	fid_same "... as uid 65534" "${FID_NOBODY[@]}" -- "$PYTHON" -c "$prog"
}

t_fidelity_group_term() {
	# What signals the caller's process group (timeout(1), kill -TERM
	# -PGID, a CI runner) ends the program's whole tree, not only its
	# first process: sysward must not outlive it by 20 s.
	local t0 t1
	local ready=$W/pub/ready
	fid_job
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	t0=$(date +%s%N)
	last_cmd=(timeout 2 "$SYSWARD" run --policy "$(uid_policy)" -- sh -c 'sleep 20 & wait')
	"${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	t1=$(date +%s%N)
	expect_rc 124
	[ $(( (t1 - t0) / 1000000 )) -lt 10000 ] ||
		fail "timeout 2 sysward run took $(( (t1 - t0) / 1000000 )) ms (unconfined: 2 s)"
	fid_same "kill -TERM -PGID of the job" setsid -w "$PYTHON" "$W/job.py" term-group "$ready" -- \
		sh -c "sleep 20 & : >'$ready'; wait"
	grep -qx 'within 10 s: True' "$W/plain" || fail "control: the unconfined job did not end at once: $(cat "$W/plain")"
	fid_same "kill -TERM -PGID of the job as uid 65534" "${FID_NOBODY[@]}" setsid -w "$PYTHON" "$W/job.py" term-group "$ready" -- \
		sh -c "sleep 20 & : >'$ready'; wait"
}

t_fidelity_stop_group() {
	# The parent stops its job (kill -TSTP -PGID, as a shell's Ctrl-Z
	# without a terminal), sees it stopped by SIGTSTP, and continues it.
	# Ready once in "wait": a process waiting in vfork() for its child's
	# exec cannot stop, unconfined too, and its parent would wait.
	local ready=$W/pub/ready
	fid_job
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	fid_same "a job stopped by its parent" setsid -w "$PYTHON" "$W/job.py" stop-group "$ready" -- \
		sh -c "sleep 1 & : >'$ready'; wait; : >'$ready.done'; echo resumed"
	grep -qx 'ran on while stopped: False' "$W/plain" || fail "control: the unconfined job did not stop: $(cat "$W/plain")"
	# A job whose processes ignore SIGTSTP does not stop, and its
	# parent sees no stop: neither the program nor sysward stops.
	fid_same "a job that ignores SIGTSTP, stopped by its parent" setsid -w "$PYTHON" "$W/job.py" stop-group "$ready" -- \
		sh -c "trap '' TSTP; sleep 1 & : >'$ready'; wait; echo finished"
	grep -qx 'finished' "$W/plain" && ! grep -q '^stopped' "$W/plain" ||
		fail "control: the unconfined job that ignores SIGTSTP stopped: $(cat "$W/plain")"
}

t_fidelity_stop() {
	# A program that stops itself (SIGTSTP to itself, no terminal)
	# stops, and its parent sees the job stopped by SIGTSTP; continued,
	# it goes on.  Unconfined in a shell's job that is so; under sysward
	# the program's group must not be orphaned (the kernel discards
	# SIGTSTP there) and sysward must stop as the job: embedded, and
	# through syswardd (the client stops when the daemon says so).
	fid_job
	chmod 0755 "$W"
	fid_same "a job that stops itself" setsid -w "$PYTHON" "$W/job.py" stop -- \
		sh -c 'kill -TSTP $$; echo resumed'
	grep -qx 'stopped SIGTSTP' "$W/plain" || fail "control: the unconfined job did not stop: $(cat "$W/plain")"
	fid_same "a job that stops itself, as uid 65534" "${FID_NOBODY[@]}" setsid -w "$PYTHON" "$W/job.py" stop -- \
		sh -c 'kill -TSTP $$; echo resumed'
}

t_fidelity_death_by_signal() {
	# The job's parent sees the program's death by a signal as its own
	# (WIFSIGNALED, WTERMSIG), not an exit with 128+N: a shell stops its
	# loop at Ctrl-C and make says "Interrupt" only so.  Deaths the
	# program causes itself, faults, a signal to the job's group
	# (forwarded) and one to the program's pid from outside; an exit
	# with 130 stays an exit.  Embedded, and through syswardd (the
	# client dies of the signal the daemon's EXIT names).
	local ready=$W/pub/ready sig
	fid_job
	chmod 0755 "$W"
	mkdir -m 1777 "$W/pub"
	for sig in INT TERM KILL SEGV ABRT PIPE; do
		fid_same "a job that sends itself SIG$sig" setsid -w "$PYTHON" "$W/job.py" status -- \
			sh -c "kill -$sig \$\$"
		grep -qx "status killed by SIG$sig" "$W/plain" || fail "control: $(cat "$W/plain")"
	done
	fid_same "a job that faults (SIGSEGV)" setsid -w "$PYTHON" "$W/job.py" status -- \
		"$PYTHON" -c 'import ctypes; ctypes.string_at(0)'
	grep -qx "status killed by SIGSEGV" "$W/plain" || fail "control: $(cat "$W/plain")"
	fid_same "a job that aborts (SIGABRT)" setsid -w "$PYTHON" "$W/job.py" status -- \
		"$PYTHON" -c 'import os; os.abort()'
	grep -qx "status killed by SIGABRT" "$W/plain" || fail "control: $(cat "$W/plain")"
	fid_same "a job that writes to a pipe nobody reads (SIGPIPE)" setsid -w "$PYTHON" "$W/job.py" status -- \
		"$PYTHON" -c 'import os, signal
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
r, w = os.pipe()
os.close(r)
os.write(w, b"x")'
	grep -qx "status killed by SIGPIPE" "$W/plain" || fail "control: $(cat "$W/plain")"
	fid_same "a job that exits 130" setsid -w "$PYTHON" "$W/job.py" status -- sh -c 'exit 130'
	grep -qx "status exited 130" "$W/plain" || fail "control: $(cat "$W/plain")"
	for sig in INT TERM; do
		fid_same "SIG$sig to the job's group" setsid -w "$PYTHON" "$W/job.py" signal-group "$ready" "$sig" -- \
			sh -c ": >'$ready'; exec sleep 20"
		grep -qx "status killed by SIG$sig" "$W/plain" || fail "control: $(cat "$W/plain")"
	done
	for sig in KILL TERM SEGV; do
		fid_same "SIG$sig to the program from outside" setsid -w "$PYTHON" "$W/job.py" signal-pid "$ready" "$sig" -- \
			sh -c "echo \$\$ >'$ready'; exec sleep 20"
		grep -qx "status killed by SIG$sig" "$W/plain" || fail "control: $(cat "$W/plain")"
	done
	fid_same "a job that sends itself SIGINT, as uid 65534" "${FID_NOBODY[@]}" setsid -w "$PYTHON" "$W/job.py" status -- \
		sh -c 'kill -INT $$'
}

sw_rows "$HERE/run.rows" || exit 2
sw_command_line "$@"
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${PROBE:?PROBE must name the sw-probe binary}"
sw_skip_unless_root "integration tests trace programs and switch users"

# Scenarios that drop to uid 65534 need the binaries and the examples
# where that uid can reach them, wherever the checkout is.
. "$HERE/../lib/stage.sh"
sw_stage_for_others SYSWARD PROBE PROBE32 EXAMPLES || exit 1

sw_run_scenarios it "$@"
sw_stage_cleanup
exit $failed
