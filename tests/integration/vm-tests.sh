#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Integration scenarios that need a kernel this machine does not run, booted
# with qemu-images/run-vm (static binaries only: build with
# -DSYSWARD_STATIC=ON, which is when CMake registers these tests).
#
#   vm-tests.sh --list | SCENARIO      exit 0 pass, 1 fail
#
# Environment: SYSWARD (static sysward), PROBE, PROBE32 (static probes),
# SRCDIR (source tree, for qemu-images/run-vm); SYSWARD_VM_PATCHED and
# SYSWARD_VM_UNPATCHED: a bzImage to use instead of run-vm's "patched" and
# "unpatched" kernels (built by scripts/build-kernel when needed).
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
RUNVM=$SRCDIR/qemu-images/run-vm
. "$(dirname "$0")/../lib/common.sh"

# vm KERNEL SCRIPT: run a busybox sh script in the guest, with sysward,
# the probes and $W/*.json in /extra; sets $rc, $W/out, $W/err.
vm() {
	local kernel=$1 script=$2
	local adds=(--add "$SYSWARD" --add "$PROBE")
	[ -n "${PROBE32:-}" ] && adds+=(--add "$PROBE32")
	for f in "$W"/*.json; do adds+=(--add "$f"); done
	"$RUNVM" --kernel "$kernel" --timeout 900 "${adds[@]}" -- sh -c "$script" \
		>"$W/out" 2>"$W/err"
	rc=$?
}

show_vm() {
	echo "---- exit status: $rc" >&2
	echo "---- stdout:" >&2
	cat "$W/out" >&2
	echo "---- stderr:" >&2
	tail -40 "$W/err" >&2
}

t_i386_program() {
	# This machine's kernel has 32-bit emulation switched off; the patched
	# kernel has IA32_EMULATION.  An i386 program is confined like an
	# x86_64 one: emulated getuid32, rewritten getpid, a denied mkdir and
	# a path rule read from a 32-bit pointer, a forked child, and an
	# x86_64 -> i386 exec.
	[ -n "${PROBE32:-}" ] || { echo "SKIP: no i386 probe (gcc -m32)"; exit 77; }
	cat >"$W/i386.json" <<-EOF
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
	vm "${SYSWARD_VM_PATCHED:-patched}" '
		./sysward run --policy i386.json -- ./sw-probe32 arch getuid geteuid \
			sys:getuid pid-is-ppid mkdir /extra/d open /etc/passwd rdonly \
			open /extra rdonly fork getuid
		echo "rc=$?"
		./sw-probe32 arch getuid
		./sysward run --policy i386.json -- ./sw-probe exec ./sw-probe32 arch getuid
		echo "rc=$?"'
	local want="arch=i386
getuid=4242
geteuid=4242
getuid=4242
getpid==getppid: yes
mkdir(/extra/d)=-EROFS
open(/etc/passwd,rdonly)=-EACCES
open(/extra,rdonly)=ok
child: getuid=4242
fork: child exit=0
rc=0
arch=i386
getuid=0
arch=i386
getuid=4242
rc=0"
	[ "$rc" -eq 0 ] || { fail "run-vm exited $rc"; show_vm; return; }
	diff -u <(printf '%s\n' "$want") "$W/out" >&2 ||
		{ fail "guest output differs (diff above)"; show_vm; }
}

t_refuse_unpatched() {
	# On the same 6.12 tree without the series there is no
	# PTRACE_SET_SYSCALL_INFO: info says so and run refuses with 125 and
	# directions, instead of running the program unconfined.
	cat >"$W/uid.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	vm "${SYSWARD_VM_UNPATCHED:-unpatched}" '
		./sysward info
		./sysward run --policy uid.json -- ./sw-probe getuid
		echo "rc=$?"'
	[ "$rc" -eq 0 ] || { fail "run-vm exited $rc"; show_vm; return; }
	grep -Fxq "PTRACE_SET_SYSCALL_INFO:  no" "$W/out" || { fail "info does not say the request is missing"; show_vm; }
	grep -Fxq "PTRACE_GET_SYSCALL_INFO:  yes" "$W/out" || { fail "info does not show GET_SYSCALL_INFO"; show_vm; }
	grep -Fxq "rc=125" "$W/out" || { fail "run did not exit with 125"; show_vm; }
	grep -q "getuid=" "$W/out" && { fail "the program ran on a kernel that cannot confine it"; show_vm; }
	grep -Fq "lacks PTRACE_SET_SYSCALL_INFO" "$W/err" || { fail "no explanation on stderr"; show_vm; }
	grep -Fq "qemu-images/run-vm --kernel patched" "$W/err" || { fail "no directions to the patched kernel"; show_vm; }
}

if [ "${1:-}" = --list ]; then
	sw_scenarios
	exit 0
fi
: "${SYSWARD:?}" "${PROBE:?}"
sw_run_scenarios vm "$@"
