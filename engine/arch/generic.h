/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What arm64 and riscv64 share: the generic syscall table (include/uapi/
 * asm-generic/unistd.h) number for number, one supervised LP64 ABI, and a
 * psABI without a red zone.  So the hooks of engine/arch.h that follow
 * from those alone are the same on both and live here: the ABI's shape
 * (8-byte arguments; clone's order not backwards, neither built with
 * CONFIG_CLONE_BACKWARDS*; no old_mmap, socketcall, multiplexer, nor
 * vsyscall page), their NT_PRSTATUS access, interrupted calls rolled
 * back before the tracer sees them, the guard's scratch memory, the
 * quiet calls and the vetted numbers.  Included by one arch/<arch>.c of
 * a build, after its struct sw_arch_regs (whose r.sp it reads).
 */
#ifndef SYSWARD_ENGINE_ARCH_GENERIC_H
#define SYSWARD_ENGINE_ARCH_GENERIC_H

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "../sys.h"

/* The general registers (PTRACE_GETREGSET NT_PRSTATUS) of a tracee of
 * the ABI: -ENOEXEC for a view of another size (a compat task's, 32-bit
 * words: task_user_regset_view()), never read as the ABI's. */
static int prstatus_get(pid_t pid, void *r, size_t len)
{
	struct iovec iov = { r, len };

	if (sw_sys_ptrace(PTRACE_GETREGSET, pid, (void *)(uintptr_t)NT_PRSTATUS, &iov) < 0)
		return -errno;
	return iov.iov_len == len ? 0 : -ENOEXEC;
}

static int prstatus_set(pid_t pid, const void *r, size_t len)
{
	struct iovec iov = { (void *)r, len };

	return sw_sys_ptrace(PTRACE_SETREGSET, pid, (void *)(uintptr_t)NT_PRSTATUS, &iov) < 0 ?
	       -errno : 0;
}

unsigned int sw_abi_arg_bytes(enum sw_abi abi)
{
	return 8;
}

/* kernel/fork.c: clone's order is x86-64's (flags, stack, parent_tid,
 * child_tid, tls). */
bool sw_abi_clone_backwards(enum sw_abi abi)
{
	return false;
}

bool sw_abi_old_mmap(enum sw_abi abi)
{
	return false;
}

bool sw_abi_socketcall_words(enum sw_abi abi)
{
	return false;
}

int sw_arch_resolve_fallback(enum sw_abi abi, const char *name)
{
	return -1;	/* no multiplexer: libseccomp's numbers are the stops' */
}

bool sw_arch_in_vsyscall(enum sw_abi abi, uint64_t ip)
{
	return false;	/* no vsyscall page */
}

/*
 * Interrupted calls: arm64's do_signal() (arch/arm64/kernel/signal.c)
 * and riscv64's arch_do_signal_or_restart() (arch/riscv/kernel/signal.c)
 * roll an interrupted call back (x0 = orig_x0, a0 = orig_a0; the pc back
 * on the svc or ecall) before get_signal(), so at the delivery stop no
 * register shows -ERESTARTSYS, and the choice between a restart and
 * EINTR is made after the stop, on a local variable and the handler's
 * SA_RESTART.  No tracer can change it: a call waiting for a seccomp
 * listener that such a signal interrupts keeps its EINTR (measured in
 * both guests: vm.arm64.arch.notif, vm.riscv64.arch.notif).
 */
int sw_arch_interrupted_call(pid_t pid, enum sw_abi abi, uint64_t *nr,
			     uint64_t args[6])
{
	return -EOPNOTSUPP;
}

int sw_arch_restart_always(pid_t pid)
{
	return -EOPNOTSUPP;
}

bool sw_arch_restarts_interrupted(void)
{
	return false;	/* so no session has a listener (prepare.c) */
}

/*
 * The guard's scratch memory: a page below sp, 16-byte aligned: neither
 * AAPCS64 nor the RISC-V psABI has a red zone (nothing live below sp
 * during a call), and a fresh image's stack is set up 128 KiB deep
 * (fs/exec.c, setup_arg_pages(): stack_expand), so the page is mapped.
 */
#define SW_SCRATCH_BELOW_SP	4096u
_Static_assert(SW_ARCH_SCRATCH_MAX <= SW_SCRATCH_BELOW_SP - 16, "below sp");

uint64_t sw_arch_scratch(const struct sw_arch_regs *r0)
{
	return (r0->r.sp - SW_SCRATCH_BELOW_SP) & ~(uint64_t)15;
}

/*
 * Calls that wait and can send nothing on a socket (peers.c): a task
 * blocked in one stops next.  One ABI, so /proc/<tid>/syscall's number
 * means one call.
 */
static const uint16_t sw_generic_quiet_calls[] = {
	__NR_read, __NR_close, __NR_mmap, __NR_mprotect, __NR_munmap,
	__NR_pread64, __NR_readv, __NR_madvise, __NR_nanosleep, __NR_connect,
	__NR_accept, __NR_recvfrom, __NR_recvmsg, __NR_clone, __NR_execve,
	__NR_exit, __NR_wait4, __NR_semop, __NR_msgrcv, __NR_fcntl,
	__NR_flock, __NR_fsync, __NR_fdatasync, __NR_rt_sigtimedwait,
	__NR_rt_sigsuspend, __NR_futex, __NR_io_getevents, __NR_getdents64,
	__NR_semtimedop, __NR_clock_nanosleep, __NR_exit_group,
	__NR_mq_timedreceive, __NR_waitid, __NR_openat, __NR_newfstatat,
	__NR_pselect6, __NR_ppoll, __NR_epoll_pwait, __NR_accept4,
	__NR_preadv, __NR_recvmmsg, __NR_execveat, __NR_preadv2, __NR_statx,
	__NR_io_pgetevents, __NR_clone3, __NR_openat2, __NR_epoll_pwait2,
	__NR_futex_waitv,
};

bool sw_arch_quiet_call(uint64_t nr)
{
	for (size_t i = 0; i < sizeof(sw_generic_quiet_calls) / sizeof(sw_generic_quiet_calls[0]); i++)
		if (sw_generic_quiet_calls[i] == nr)
			return true;
	return false;
}

/* The guard's vetted calls (pathguard.c) of the one generic ABI. */
#define SW_GENERIC_VETTED_NR	{ __NR_madvise, __NR_process_madvise, __NR_prctl }

#endif
