/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The calls of the generic syscall table (include/uapi/asm-generic/
 * unistd.h), which arm64 and riscv64 share number for number: what
 * engine/arch.h's sw_arch_quiet_call() and sw_arch_vetted_nr[] say about
 * them is the same on both.  Included by one arch/<arch>.c of a build.
 */
#ifndef SYSWARD_ENGINE_ARCH_GENERIC_UNISTD_H
#define SYSWARD_ENGINE_ARCH_GENERIC_UNISTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

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
