#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Driver for the adversarial tests: runs one adversarial program (see
# adv_*.c) under "sysward run" and asserts that the escape failed.  One
# CTest per route, named after the function below:
#
#   check.sh TEST        run one test
#   check.sh --list      the tests
#
# Environment (set by CMakeLists.txt): SYSWARD (the CLI), ADV (directory of
# the adversarial programs), POL (policies), GEN (generated policies and
# scratch space).  Exit 0: contained; 1: escaped or wrong; 77: this kernel
# cannot run the test (reported by CTest as skipped, never as passed).
set -uo pipefail

test=${1:?usage: check.sh TEST | --list}
if [ "$test" = --list ]; then
	# The tests are the labels of the case below.
	awk '/^case \$test in$/ {on = 1; next} on && /^esac$/ {exit}
	     on && /^[a-z0-9_]+\)$/ {sub(/\)$/, ""); print}' "$0"
	exit 0
fi
: "${SYSWARD:?}" "${ADV:?}" "${POL:?}" "${GEN:?}"
scratch=$GEN/scratch.$test
rm -rf "$scratch" && mkdir -p "$scratch"
out=$scratch/out

fail() { echo "FAIL [$test]: $*" >&2; exit 1; }
skip() { echo "SKIP [$test]: $*" >&2; exit 77; }

# run POLICY [SYSWARD-OPTIONS...] -- PROGRAM ARGS...: output in $out,
# status in $rc, and both echoed for the test log.
run() {
	local policy=$1; shift
	echo "+ sysward run --policy $policy $*"
	"$SYSWARD" run --policy "$policy" "$@" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

expect_contained() {
	[ "$rc" -eq 0 ] && grep -q '^verdict: contained' "$out" ||
		fail "${1:-the escape was not contained} (exit $rc)"
}

# i386 syscalls exist only if the kernel runs 32-bit code for this machine
# (ia32_emulation); probe with an unconfined int $0x80.
ia32_works() { "$ADV/adv_int80_probe" >/dev/null 2>&1; }

case $test in
untraced_clone)
	run "$POL/emulate-uid.json" -- "$ADV/adv_untraced" clone
	expect_contained "a CLONE_UNTRACED child ran outside supervision" ;;
untraced_clone3)
	run "$POL/emulate-uid.json" -- "$ADV/adv_untraced" clone3
	expect_contained "clone3 did not fail with ENOSYS" ;;
untraced_thread)
	run "$POL/emulate-uid.json" -- "$ADV/adv_untraced" thread
	expect_contained "a thread (clone3 -> clone fallback) was not traced" ;;
ret_trace_no_tracer)
	echo "+ $ADV/adv_ret_trace $scratch   (no sysward: kernel behaviour)"
	"$ADV/adv_ret_trace" "$scratch" >"$out" 2>&1; rc=$?
	cat "$out"
	expect_contained "SECCOMP_RET_TRACE without a tracer ran the syscall" ;;
io_uring_denied)
	run "$POL/emulate-uid.json" -- "$ADV/adv_io_uring" deny
	expect_contained "io_uring is reachable under a restrictive policy" ;;
io_uring_unrestricted)
	# Control: a policy that restricts nothing has nothing to bypass, so
	# the defence is off and the probe must see io_uring working (this
	# proves io_uring_denied can fail).
	run "$POL/log-only.json" -- "$ADV/adv_io_uring" allow
	expect_contained "io_uring unusable although the policy restricts nothing" ;;
io_uring_opt_in)
	# "allowIoUring": true under a policy that restricts (emulates getuid,
	# denies mkdir): io_uring is the policy's to decide, so it must work;
	# sysward check and sysward run must warn; the other defences stay.
	p=$POL/io-uring-opt-in.json
	warning="$p: allowIoUring: io_uring operations bypass seccomp and sysward: io_uring_setup, io_uring_enter and io_uring_register are left to this policy, and what the program submits through a ring (open, read, write, connect, ...) is checked by no rule"
	echo "+ sysward check $p"
	"$SYSWARD" check "$p" >"$out" 2>&1; rc=$?
	cat "$out"
	[ "$rc" -eq 0 ] || fail "sysward check rejected the opt-in policy (exit $rc)"
	grep -qxF "warning: $warning" "$out" || fail "sysward check did not print the io_uring warning"
	run "$p" -- "$ADV/adv_io_uring" allow
	grep -qxF "sysward: warning: $warning" "$out" || fail "sysward run did not print the io_uring warning"
	grep -qx 'result: io_uring_setup = [0-9][0-9]*' "$out" || fail "io_uring_setup did not succeed despite the opt-in"
	expect_contained "io_uring unusable although the policy opts in"
	run "$p" -- "$ADV/adv_untraced" clone3
	expect_contained "the opt-in turned off another defence (clone3 not ENOSYS)"
	run "$p" -- "$ADV/adv_supervisor" memory
	expect_contained "the opt-in turned off another defence (the tracee reached its supervisor)" ;;
abi_x32_filtered)
	run "$POL/abi-all.json" -- "$ADV/adv_abi" x32 "$scratch"
	expect_contained "an x32 syscall bypassed the policy" ;;
abi_x32_unnamed_killed)
	run "$POL/abi-no-x32.json" -- "$ADV/adv_abi" x32 "$scratch"
	[ "$rc" -eq 159 ] || fail "x32 is not named by the policy: expected death by SIGSYS (exit 159), got $rc"
	grep -q '^result: x32' "$out" && fail "an x32 syscall returned instead of killing the process"
	[ -e "$scratch/made-by-x32-mkdir" ] && fail "x32 mkdir ran"
	true ;;
abi_int80_filtered)
	ia32_works || skip "this kernel runs no 32-bit code (ia32_emulation off): int \$0x80 faults before seccomp; the i386 filter is checked at BPF level by tests/unit test_filter (I386 rows)"
	run "$POL/abi-all.json" -- "$ADV/adv_abi" int80 "$scratch"
	expect_contained "an int \$0x80 syscall bypassed the policy" ;;
abi_int80_unnamed_killed)
	ia32_works || skip "this kernel runs no 32-bit code (ia32_emulation off): int \$0x80 faults before seccomp; the i386 filter is checked at BPF level by tests/unit test_filter (I386 rows)"
	run "$POL/abi-no-x86.json" -- "$ADV/adv_abi" int80 "$scratch"
	[ "$rc" -eq 159 ] || fail "i386 is not named by the policy: expected death by SIGSYS (exit 159), got $rc"
	grep -q '^result: i386' "$out" && fail "an int \$0x80 syscall returned instead of killing the process"
	true ;;
supervisor_memory)
	run "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" memory
	expect_contained "the tracee reached its supervisor" ;;
supervisor_ptrace_with_cap)
	# Even a program granted CAP_SYS_PTRACE must not trace its supervisor.
	run "$POL/emulate-uid.json" --cap CAP_SYS_PTRACE -- "$ADV/adv_supervisor" ptrace
	expect_contained "with CAP_SYS_PTRACE the tracee reached its supervisor" ;;
supervisor_signal)
	echo "+ sysward run --policy $POL/emulate-uid.json -- adv_supervisor signal"
	"$SYSWARD" run --policy "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" signal >"$out" 2>&1 </dev/null &
	pid=$!
	stopped=0
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
		if [ "$state" = T ]; then
			stopped=1
			echo "+ sysward (pid $pid) is STOPPED: sending SIGCONT"
			kill -CONT "$pid"
		fi
		sleep 0.1
	done
	wait "$pid"; rc=$?
	cat "$out"; echo "+ exit status $rc"
	[ $stopped -eq 0 ] || fail "the tracee signal-stopped its supervisor"
	expect_contained "a signal reached the supervisor" ;;
supervisor_stopped_fails_closed)
	# SIGSTOP through a /proc/<pid> directory fd (a pidfd that sysward
	# cannot attribute) is not denied: while the supervisor is stopped, a
	# supervised syscall must wait, not run.
	echo "+ sysward run --policy $POL/emulate-uid.json -- adv_supervisor procfd"
	"$SYSWARD" run --policy "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" procfd >"$out" 2>&1 </dev/null &
	pid=$!
	stopped=0
	for _ in $(seq 50); do
		[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = T ] && { stopped=1; break; }
		sleep 0.1
	done
	if [ $stopped -eq 1 ]; then
		sleep 1
		cat "$out"
		if grep -q '^result: getuid' "$out"; then
			kill -CONT "$pid"; wait "$pid"
			fail "a supervised syscall returned while the supervisor was stopped"
		fi
		echo "+ supervisor stopped, getuid() still waiting after 1 s: sending SIGCONT"
		kill -CONT "$pid"
	fi
	wait "$pid"; rc=$?
	cat "$out"; echo "+ exit status $rc"
	expect_contained "a supervised call ran without its supervisor" ;;
supervisor_kill_inside)
	run "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" kill "$scratch/survived"
	sleep 1
	[ -e "$scratch/survived" ] && grep -q '^result: kill = 0' "$out" &&
		fail "the tracee killed its supervisor and kept running"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 137 ] || fail "unexpected exit $rc"
	[ "$rc" -eq 137 ] || expect_contained "SIGKILL to the supervisor" ;;
supervisor_killed_outside)
	echo "+ sysward run --policy $POL/emulate-uid.json -- adv_tree &; SIGKILL sysward"
	"$SYSWARD" run --policy "$POL/emulate-uid.json" -- "$ADV/adv_tree" >"$out" 2>&1 </dev/null &
	pid=$!
	for _ in $(seq 50); do grep -q '^ready' "$out" && break; sleep 0.1; done
	cat "$out"
	grep -q '^ready' "$out" || { kill -9 $pid; fail "adv_tree never got ready"; }
	pids=$(sed -n 's/^fact: pid //p' "$out")
	[ "$(echo "$pids" | wc -w)" -eq 4 ] || fail "expected 4 confined processes, saw: $pids"
	kill -9 "$pid"; wait "$pid" 2>/dev/null
	t0=$(date +%s%N)
	sleep 1
	for p in $pids; do
		st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null || true)
		if [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]; then
			kill -9 "$p"
			fail "confined pid $p still alive (state $st) 1 s after its supervisor was SIGKILLed"
		fi
	done
	echo "+ all of $pids gone within $(( ($(date +%s%N) - t0) / 1000000 )) ms of SIGKILL" ;;
privs_no_caps)
	run "$POL/emulate-uid.json" -- "$ADV/adv_privs"
	[ "$rc" -eq 0 ] || fail "adv_privs failed"
	for f in CapInh CapPrm CapEff CapBnd CapAmb; do
		grep -qx "fact: $f 0000000000000000" "$out" || fail "$f is not empty without --cap"
	done
	grep -qx 'fact: NoNewPrivs 1' "$out" || fail "no_new_privs is not set"
	grep -qx 'fact: Seccomp 2' "$out" || fail "no seccomp filter" ;;
privs_one_cap)
	run "$POL/emulate-uid.json" --cap CAP_NET_BIND_SERVICE -- "$ADV/adv_privs"
	[ "$rc" -eq 0 ] || fail "adv_privs failed"
	for f in CapPrm CapEff CapBnd; do
		grep -qx "fact: $f 0000000000000400" "$out" || fail "$f is not exactly CAP_NET_BIND_SERVICE (0x400)"
	done
	grep -qx 'fact: CapAmb 0000000000000000' "$out" || fail "ambient capabilities set"
	grep -qx 'fact: NoNewPrivs 1' "$out" || fail "no_new_privs is not set" ;;
privs_setuid)
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a setuid-root binary"
	# Everything nobody needs must be reachable by nobody: a private copy.
	d=$(mktemp -d /tmp/sysward-setuid.XXXXXX)
	trap 'rm -rf "$d"' EXIT
	chmod 755 "$d"
	cp "$ADV/adv_privs" "$d/suid-privs" && chmod 4755 "$d/suid-privs"
	cp "$SYSWARD" "$d/sysward" && chmod 755 "$d/sysward"
	cp "$POL/emulate-uid.json" "$d/policy.json" && chmod 644 "$d/policy.json"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	echo "+ control, unconfined as nobody: $d/suid-privs"
	as_nobody "$d/suid-privs" | tee "$out"
	grep -qx 'fact: euid 0' "$out" ||
		skip "setuid bit not honoured even unconfined (nosuid mount?): cannot test"
	echo "+ as nobody: sysward run -- $d/suid-privs"
	as_nobody "$d/sysward" run --policy "$d/policy.json" -- "$d/suid-privs" >"$out" 2>&1 </dev/null
	rc=$?; cat "$out"; echo "+ exit status $rc"
	[ "$rc" -eq 0 ] || fail "sysward as nobody failed (exit $rc)"
	grep -qx 'fact: euid 65534' "$out" || fail "the setuid-root binary gained privilege inside the sandbox"
	grep -qx 'fact: CapEff 0000000000000000' "$out" || fail "the setuid-root binary gained capabilities" ;;
cap_warning)
	# --cap with a capability that defeats confinement: a warning naming
	# it and why, one line per capability; harmless ones draw none; the
	# program still runs.
	run "$POL/emulate-uid.json" --cap CAP_SYS_PTRACE,net_bind_service,bpf -- "$ADV/adv_privs"
	grep -qxF "sysward: warning: --cap CAP_SYS_PTRACE defeats confinement: the program can write the supervisor's memory through /proc/PID/mem and take it over (ptrace itself stays denied, which is no boundary)" "$out" ||
		fail "no warning for --cap CAP_SYS_PTRACE"
	grep -qx "sysward: warning: --cap CAP_BPF defeats confinement: the program can load BPF programs into the kernel; .*" "$out" ||
		fail "no warning for --cap CAP_BPF"
	[ "$(grep -c 'defeats confinement' "$out")" -eq 2 ] || fail "expected exactly 2 capability warnings"
	[ "$(id -u)" -ne 0 ] || [ "$rc" -eq 0 ] || fail "the program did not run after the warnings (exit $rc)"
	run "$POL/emulate-uid.json" --cap CAP_NET_BIND_SERVICE -- "$ADV/adv_privs"
	grep -q 'defeats confinement' "$out" && fail "a warning for CAP_NET_BIND_SERVICE, which does not defeat confinement"
	run "$POL/emulate-uid.json" -- "$ADV/adv_privs"
	grep -q '^sysward: warning' "$out" && fail "a warning without --cap"
	true ;;
path_race)
	d=$GEN/race
	mkdir -p "$d" && echo allowed >"$d/file-A" && echo denied >"$d/file-D"
	run "$GEN/path-race.json" -- "$ADV/adv_path_race" "$d" "${SW_RACE_TRIES:-20000}"
	expect_contained "the denied file was opened through a path race" ;;
path_guard_sealed)
	d=$GEN/race
	mkdir -p "$d" && echo allowed >"$d/file-A" && echo denied >"$d/file-D"
	run "$GEN/path-race.json" -- "$ADV/adv_pathguard"
	expect_contained "the program could write or replace its path guard" ;;
events_fork_storm)
	# Issue 12, class 4: children and threads that are gone (or killed)
	# before their parent's fork event is seen.  100 programs of 4
	# workers each; every one must return the program's own status (0),
	# never "lost track" (125) nor a hang.
	# At most 90 s (a slow guest runs fewer; at least 10).
	bad=0 runs=0 end=$((SECONDS + 90))
	echo "+ 100 x sysward run --policy $POL/emulate-uid.json -- adv_events storm 5 4"
	for i in $(seq 100); do
		[ "$SECONDS" -lt "$end" ] || break
		runs=$i
		timeout -k 5 30 "$SYSWARD" run --policy "$POL/emulate-uid.json" -- \
			"$ADV/adv_events" storm 5 4 >"$out" 2>&1 </dev/null
		rc=$?
		if [ "$rc" -ne 0 ] || ! grep -q '^verdict: contained' "$out"; then
			bad=$((bad + 1))
			echo "run $i: exit status $rc"
			cat "$out"
		fi
	done
	echo "+ $bad of $runs runs failed"
	[ "$runs" -ge 10 ] || fail "only $runs runs in 90 s"
	[ "$bad" -eq 0 ] || fail "$bad of $runs runs did not return the program's status" ;;
events_parent_dies)
	# Creators killed (exit_group of their process) in the middle of a
	# fork: the fork event never comes; their children must neither run
	# unsupervised nor stay stopped forever (the run must end).
	bad=0
	echo "+ 30 x sysward run --policy $POL/emulate-uid.json -- adv_events parentdies 10"
	for i in $(seq 30); do
		timeout -k 5 30 "$SYSWARD" run --policy "$POL/emulate-uid.json" -- \
			"$ADV/adv_events" parentdies 10 >"$out" 2>&1 </dev/null
		rc=$?
		if [ "$rc" -ne 0 ] || ! grep -q '^verdict: contained' "$out"; then
			bad=$((bad + 1))
			echo "run $i: exit status $rc"
			cat "$out"
		fi
	done
	[ "$bad" -eq 0 ] || fail "$bad of 30 runs did not return the program's status" ;;
unknown_syscall_eperm)
	run "$POL/unknown-errno1.json" -- "$ADV/adv_unknown" 1
	expect_contained "unknown syscalls did not get defaultErrnoRet (EPERM)" ;;
unknown_syscall_enosys)
	run "$POL/unknown-errno38.json" -- "$ADV/adv_unknown" 38
	expect_contained "unknown syscalls did not get defaultErrnoRet (ENOSYS)" ;;
*)
	echo "check.sh: unknown test '$test'" >&2; exit 2 ;;
esac
echo "PASS [$test]"
