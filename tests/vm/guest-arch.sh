#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Runs inside the arm64 or riscv64 QEMU guest, started by
# tests/vm/arch-suite.sh boot: the scenarios whose outcome depends on the
# architecture (engine/arch/<arch>.c: registers, return register, the
# path guard's injection, ABI tables, signals), each beside its control
# without sysward where one exists, framed as guest-run.sh frames them:
#
#   @@VM-BEGIN arch:NAME
#   ...commands and their output...
#   @@VM-END arch:NAME rc=N secs=S
#
# busybox sh only: these guests have no Debian userland (guest-rootfs is
# x86-64's).  The programs are the static ones in /extra.
#   guest-arch.sh [--list] [NAME...]      (NAMEs: only those)
set -u
S=/extra/sysward PROBE=/extra/sw-probe ADV=/extra/adv
W=/tmp/arch
NOBODY=65534

# The adversarial programs the scenarios run (scripts/build-static --arch
# reads this line), from /extra/adv.
ADV_PROGRAMS="adv_pathguard adv_guard_restart adv_restart_arg0 adv_widths adv_notif adv_peers"
# Every scenario, in the order run (arch-suite.sh list reads this line).
SCENARIOS="info abi_refusal allow errno kill skip emulate rewrite_nr nr_register rewrite_args paths guard_sealed guard_restart guard_restart_arg0 widths notif peers_backlog signals trap daemon"

# The machine's facts the scenarios check: uname -m, sysward's name of the
# machine (engine/arch: sw_arch_machine), its ABI's OCI spelling and
# AUDIT_ARCH value (<linux/audit.h>).
case $(uname -m) in
aarch64) MACHINE=aarch64 SW_MACHINE=arm64 OCI_ABI=SCMP_ARCH_AARCH64 AUDIT_ARCH=0xc00000b7 ;;
riscv64) MACHINE=riscv64 SW_MACHINE=riscv64 OCI_ABI=SCMP_ARCH_RISCV64 AUDIT_ARCH=0xc00000f3 ;;
*) MACHINE=$(uname -m) SW_MACHINE=unknown OCI_ABI=unknown AUDIT_ARCH=unknown ;;
esac

if [ "${1:-}" = --list ]; then
	for s in $SCENARIOS; do echo "arch:$s"; done
	exit 0
fi
[ $# -eq 0 ] || SCENARIOS="$*"

fail() { echo "FAIL: $*"; failed=1; }
# run OUT POLICY-JSON -- ARGS...: sysward run on a policy given inline.
run() {
	_out=$1 _pol=$2
	shift 3
	printf '%s\n' "$_pol" >"$W/policy.json"
	echo "+ sysward run --policy <$_pol> -- $*"
	"$S" run --policy "$W/policy.json" -- "$@" >"$_out" 2>&1
	_rc=$?
	sed 's/^/  | /' "$_out"
	return $_rc
}
# expect FILE LINE...: every LINE is a whole line of FILE.
expect() {
	_f=$1
	shift
	for _l in "$@"; do
		grep -qxF -- "$_l" "$_f" || fail "expected the line '$_l'"
	done
}
ALLOW='{"defaultAction": "SCMP_ACT_ALLOW"}'
# nobody ARGS...: run as nobody, uid and gid 65534 (busybox's su as
# root; its setpriv cannot change ids).  ARGS without blanks.
nobody() { su -s /bin/sh -c "exec $*" nobody; }

t_info() {
	"$S" info >"$W/o" 2>&1; echo "rc=$?"; cat "$W/o"
	grep -q "^architecture: *$MACHINE\$" "$W/o" || fail "sysward info does not say $MACHINE"
	grep -q '^PTRACE_SET_SYSCALL_INFO: *yes' "$W/o" || fail "no PTRACE_SET_SYSCALL_INFO"
	$PROBE arch >"$W/o"; expect "$W/o" "arch=$MACHINE"
}

# A policy naming an ABI this machine does not run is refused, with what
# it runs; the native spelling is taken.
t_abi_refusal() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64"]}' -- $PROBE getuid
	[ $_rc -ne 0 ] || fail "a policy for x86-64 ran on $SW_MACHINE"
	grep -q "not an ABI this $SW_MACHINE machine runs" "$W/o" || fail "no message naming the machine"
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["'$OCI_ABI'"]}' -- $PROBE getuid
	[ $_rc -eq 0 ] || fail "$OCI_ABI refused"
	expect "$W/o" "getuid=0"
	# Docker's default profile: its archMap names SCMP_ARCH_ARM beside
	# SCMP_ARCH_AARCH64 on arm64 (taken; AArch32 programs are not
	# supervised: killed at their first call), SCMP_ARCH_RISCV64 alone on
	# riscv64.
	"$S" run --policy /extra/src/policy/examples/docker-default.json -- $PROBE getuid net-unix >"$W/o" 2>&1
	echo "+ sysward run --policy docker-default.json -- sw-probe getuid net-unix: rc=$?"; cat "$W/o"
	expect "$W/o" "getuid=0" "connect(unix)=ok"
}

t_allow() {
	run "$W/o" "$ALLOW" -- $PROBE getuid mkdir $W/a exists $W/a net-unix
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "getuid=0" "mkdir($W/a)=ok" "exists($W/a)=yes" "socket(unix)=ok" "connect(unix)=ok"
}

t_errno() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["connect"], "action": "SCMP_ACT_ERRNO", "errnoRet": 101},
	  {"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 97,
	   "args": [{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}]}' -- $PROBE net-inet net-unix
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "socket(inet)=-EAFNOSUPPORT" "socket(unix)=ok" "connect(unix)=-ENETUNREACH"
	$PROBE net-unix >"$W/o"; expect "$W/o" "connect(unix)=ok"
}

t_kill() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getppid"], "action": "SCMP_ACT_KILL_PROCESS"}]}' -- $PROBE getuid sys:getppid getgid
	[ $_rc -eq 159 ] || fail "rc $_rc, expected 159 (SIGSYS)"
	expect "$W/o" "getuid=0"
	grep -q '^getgid=' "$W/o" && fail "ran on after the killing call"
}

t_skip() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["sched_yield"], "action": "SYSWARD_ACT_SKIP", "return": 7},
	  {"names": ["getppid"], "action": "SYSWARD_ACT_SKIP", "errno": "ENOTSUP"},
	  {"names": ["mkdirat"], "action": "SYSWARD_ACT_SKIP", "errno": "EROFS"},
	  {"names": ["sync"], "action": "SYSWARD_ACT_SKIP", "errnoRet": 5}]}' -- \
		$PROBE sys:sched_yield sys:getppid mkdir $W/d exists $W/d sys:sync
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "sched_yield=7" "getppid=-EOPNOTSUPP" "mkdir($W/d)=-EROFS" "exists($W/d)=no" "sync=-EIO"
	$PROBE sys:sched_yield >"$W/o"; expect "$W/o" "sched_yield=0"
}

# The listener (engine/notif.c) answers these; --log keeps them at a
# ptrace stop: both give the same.
t_emulate() {
	pol='{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid", "geteuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}'
	run "$W/o" "$pol" -- $PROBE getuid geteuid getgid sys:getuid
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "getuid=4242" "geteuid=4242" "getgid=0"
	printf '%s\n' "$pol" >"$W/p.json"
	echo "+ sysward run --log $W/log --policy ... (at ptrace stops)"
	"$S" run --log "$W/log" --policy "$W/p.json" -- $PROBE getuid getgid >"$W/o" 2>&1 || fail "rc $?"
	cat "$W/o"; expect "$W/o" "getuid=4242" "getgid=0"
	nobody $PROBE getuid >"$W/o" 2>&1
	cat "$W/o"; expect "$W/o" "getuid=$NOBODY"
}

t_rewrite_nr() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getpid"], "action": "SYSWARD_ACT_REWRITE", "rewrite": {"syscall": "getppid"}}]}' -- $PROBE pid-is-ppid
	expect "$W/o" "getpid==getppid: yes"
	$PROBE pid-is-ppid >"$W/o"; expect "$W/o" "getpid==getppid: no"
}

# A skipped, emulated or renumbered call leaves the program's number
# register (arm64's x8, riscv64's a7) as the kernel leaves it unconfined:
# kept, which code may rely on.  riscv64's kernel reads the number from a7
# itself, where a tracer's skip (-1) or new number would stay.
t_nr_register() {
	$PROBE nrreg:sched_yield nrreg:getuid nrreg:getpid >"$W/o"; cat "$W/o"
	expect "$W/o" "sched_yield=0 number-register=kept" "getuid=0 number-register=kept"
	grep -q '^getpid=[0-9]* number-register=kept$' "$W/o" || fail "unconfined: getpid's number register"
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["sched_yield"], "action": "SYSWARD_ACT_SKIP", "return": 7},
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	  {"names": ["getpid"], "action": "SYSWARD_ACT_REWRITE", "rewrite": {"syscall": "getppid"}}]}' -- \
		$PROBE nrreg:sched_yield nrreg:getuid nrreg:getpid
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "sched_yield=7 number-register=kept" "getuid=4242 number-register=kept"
	grep -q '^getpid=[0-9]* number-register=kept$' "$W/o" || fail "getpid rewritten: its number register"
}

# Arguments rewritten: O_CREAT taken from openat's flags (arm64 and
# riscv64 have no open), mkdirat's mode set.
t_rewrite_args() {
	echo old >"$W/existing"
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat"], "action": "SYSWARD_ACT_REWRITE",
	   "rewrite": {"args": [{"index": 2, "and": "~O_CREAT"}]}},
	  {"names": ["mkdirat"], "action": "SYSWARD_ACT_REWRITE",
	   "rewrite": {"args": [{"index": 2, "set": "0700"}]}}]}' -- \
		$PROBE open $W/new wronly,creat exists $W/new open $W/existing wronly,creat mkdir $W/m
	expect "$W/o" "open($W/new,wronly,creat)=-ENOENT" "exists($W/new)=no" \
		"open($W/existing,wronly,creat)=ok" "mkdir($W/m)=ok"
	[ "$(stat -c %a $W/m)" = 700 ] || fail "mkdirat's mode is $(stat -c %a $W/m), not 700"
}

# Path conditions read the string from the tracee, and the guard pins it.
t_paths() {
	mkdir -p $W/sub; echo x >$W/secret; echo x >$W/plain
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "/etc/"}]},
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
	   "paths": [{"index": 1, "exact": "'$W'/secret"}]}]}' -- \
		$PROBE open /etc/passwd rdonly open /etcetera rdonly open $W/secret rdonly open $W/plain rdonly
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "open(/etc/passwd,rdonly)=-EACCES" "open(/etcetera,rdonly)=-ENOENT" \
		"open($W/secret,rdonly)=-EPERM" "open($W/plain,rdonly)=ok"
	$PROBE open /etc/passwd rdonly >"$W/o"; expect "$W/o" "open(/etc/passwd,rdonly)=ok"
}

# adv: the program's verdict line (tests/security/adv.h) says CONTAINED.
adv() {
	echo "+ sysward run --policy $1 -- $2 ..."
	_pol=$1; shift
	if [ -n "${adv_log:-}" ]; then
		"$S" run --log /dev/null --policy "$_pol" -- "$@" >"$W/o" 2>&1
	else
		"$S" run --policy "$_pol" -- "$@" >"$W/o" 2>&1
	fi
	_rc=$?
	sed 's/^/  | /' "$W/o"
	grep -q '^verdict: contained' "$W/o" || fail "$(basename "$1"): not contained (rc $_rc)"
}
race_policy() {
	cat >"$W/race.json" <<EOF
{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
 {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
  "paths": [{"index": 1, "exact": "$W/race/file-D"}]},
 {"names": ["truncate"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
  "paths": [{"index": 0, "exact": "$W/race/file-D"}]}]}
EOF
	rm -rf $W/race; mkdir -p $W/race
}

# The guard, whose copy is what the kernel reads, cannot be unmapped,
# remapped or written.  (adv_path_race, the race itself, needs two CPUs:
# the guest has one, as the x86 guest's needs-smp tag says.)
t_guard_sealed() {
	race_policy
	adv "$W/race.json" $ADV/adv_pathguard
}

# An interrupted, restarted open: the restart reads the program's own
# pointer, not a guard slot freed meanwhile.
t_guard_restart() {
	race_policy
	echo allowed >$W/race/file-A; echo denied >$W/race/file-D
	adv "$W/race.json" $ADV/adv_guard_restart $W/race
}

# The session's seccomp listener (engine/notif.c, route 24): the program
# holds no copy, cannot forge the handoff; an emulated call under a storm
# of signals whose handler has no SA_RESTART gives the emulated value,
# never EINTR, as at a ptrace stop (--log).
# The same with the path in the first argument: arm64's x0 (riscv64's a0),
# also the return register, whose copy orig_x0 (orig_a0) the kernel
# restarts the call from.
t_guard_restart_arg0() {
	race_policy
	adv "$W/race.json" $ADV/adv_restart_arg0 $W/race
}

# Argument widths (route 9): the filter compares 64 bits, the kernel reads
# an int's 32: bits above them must not slip a call past a rule, nor a
# signal to the supervisor.
t_widths() {
	adv /extra/src/tests/security/policies/widths.json $ADV/adv_widths rule
	adv /extra/src/tests/security/policies/emulate-uid.json $ADV/adv_widths supervisor
}

t_notif() {
	pol=/extra/src/tests/security/policies/emulate-uid.json
	adv $pol $ADV/adv_notif fds
	adv $pol $ADV/adv_notif own
	adv $pol $ADV/adv_notif spoof
	adv $pol $ADV/adv_notif storm 4
	adv_log=1 adv $pol $ADV/adv_notif storm 4
}

# A blocking connect to the session's own server with a full backlog
# waits for room, as unconfined: the peer check (route 19) holds the
# session, makes the connect non-blocking and, on EAGAIN, makes it again
# from its instruction at the exit stop, where the first argument's
# register (x0, a0) holds the result, not the descriptor.
t_peers_backlog() {
	echo "+ adv_peers backlog (unconfined)"
	$ADV/adv_peers backlog $W >"$W/o" 2>&1; _rc=$?
	sed 's/^/  | /' "$W/o"
	[ $_rc -eq 0 ] || fail "unconfined: rc $_rc"
	run "$W/o" "$ALLOW" -- $ADV/adv_peers backlog $W
	[ $_rc -eq 0 ] && grep -qx 'control: connect waited' "$W/o" || fail "the connect did not wait (rc $_rc)"
}

t_signals() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}' -- \
		$PROBE sigusr1 getuid
	[ $_rc -eq 0 ] || fail "rc $_rc"
	expect "$W/o" "sigusr1 handled=yes" "getuid=4242"
	for sig in 9 15 11; do
		run "$W/o" "$ALLOW" -- $PROBE raise $sig
		[ $_rc -eq $((128 + sig)) ] || fail "raise $sig: rc $_rc, expected $((128 + sig))"
	done
	run "$W/o" "$ALLOW" -- $PROBE stopcont
	[ $_rc -eq 0 ] || fail "stopcont: rc $_rc"
}

# A trap: the SIGSYS handler is told the call and the machine's AUDIT_ARCH.
t_trap() {
	run "$W/o" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getppid"], "action": "SCMP_ACT_TRAP"}]}' -- $PROBE sigsys:getppid
	grep -q "^sigsys(getppid)=.* code=1 errno=0 syscall=$(syscall_nr getppid) arch=$AUDIT_ARCH " "$W/o" ||
		fail "the handler was not told getppid on $MACHINE"
}
syscall_nr() { echo 173; }	# getppid, include/uapi/asm-generic/unistd.h (both)

# syswardd launches the program for a client (sysward run --daemon): the
# same answers as embedded, and for an unprivileged client.
t_daemon() {
	/extra/syswardd --socket $W/sock --socket-mode 0666 2>$W/daemon.log &
	dpid=$!
	i=0
	while [ ! -S $W/sock ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	printf '%s\n' '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "/etc/"}]}]}' >$W/d.json
	chmod 644 $W/d.json
	echo "+ sysward run --daemon=$W/sock --policy d.json -- sw-probe getuid open /etc/passwd rdonly"
	"$S" run --daemon=$W/sock --policy $W/d.json -- $PROBE getuid getgid open /etc/passwd rdonly >$W/o 2>&1
	echo "rc=$?"; cat $W/o
	expect "$W/o" "getuid=4242" "getgid=0" "open(/etc/passwd,rdonly)=-EACCES"
	echo "+ (as $NOBODY) the same"
	nobody "$S" run --daemon=$W/sock --policy $W/d.json -- $PROBE getuid getgid >$W/o 2>&1
	echo "rc=$?"; cat $W/o
	expect "$W/o" "getuid=4242" "getgid=$NOBODY"
	kill $dpid; wait $dpid 2>/dev/null
	sed 's/^/  daemon: /' $W/daemon.log
}

mkdir -p $W
failed_any=0
for s in $SCENARIOS; do
	echo "@@VM-BEGIN arch:$s"
	rm -rf $W; mkdir -p $W; chmod 777 $W
	failed=0
	t0=$(date +%s)
	t_$s
	echo "@@VM-END arch:$s rc=$failed secs=$(( $(date +%s) - t0 ))"
	[ $failed -eq 0 ] || failed_any=1
done
exit 0
