// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Probe the running kernel once, as strace does: a short-lived child
 * stops itself under PTRACE_TRACEME and then calls getppid(); at its
 * syscall-entry stop we GET the call and SET it to getpid().  The child
 * exits 0 only if the call it made returned its own pid, i.e. the SET
 * really changed the syscall, not merely returned success.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "sysward/syscall_nr.h"
#include "internal.h"
#include "contain/fsrules.h"
#include "launch/launch.h"

static _Noreturn void probe_child(void)
{
	if (ptrace(PTRACE_TRACEME, 0L, 0L, 0L) < 0)
		_exit(3);
	raise(SIGSTOP);
	_exit(syscall(SYS_getppid) == syscall(SYS_getpid) ? 0 : 1);
}

static bool wait_stopped(pid_t pid, int *status)
{
	while (waitpid(pid, status, __WALL) < 0)
		if (errno != EINTR)
			return false;
	return WIFSTOPPED(*status);
}

/*
 * May we take a descriptor of the traced child pid?  EBADF (it has no
 * descriptor 0) says the call itself is allowed; EPERM comes from a
 * seccomp profile of the container we run in (Docker's refuses
 * pidfd_getfd without CAP_SYS_PTRACE) or an LSM, ENOSYS from a kernel
 * before 5.6.
 */
static bool probe_pidfd_getfd(pid_t pid)
{
	cleanup_close int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int fd;

	if (pidfd < 0)
		return false;
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return errno == EBADF;
}

int sw_probe_kernel(struct sw_kernel_support *ret, struct sw_error *err)
{
	struct sw_kernel_support ks = { 0 };
	struct sw_ptrace_syscall_info info;
	struct utsname u;
	uint32_t act = SECCOMP_RET_TRACE;
	cleanup_pid pid_t pid = 0;
	int status;

	if (uname(&u) == 0) {
		snprintf(ks.release, sizeof(ks.release), "%s", u.release);
		snprintf(ks.machine, sizeof(ks.machine), "%s", u.machine);
	}
	ks.seccomp_filter = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act) == 0 ||
			    (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && errno != EINVAL);
	ks.landlock_abi = sw_landlock_abi();
	if (ks.landlock_abi < 0) {
		ks.landlock_err = -ks.landlock_abi;
		ks.landlock_abi = 0;
	}

	pid = fork();
	if (pid < 0)
		return sw_error_set_errno(err, errno, "fork a probe process");
	if (pid == 0)
		probe_child();
	if (!wait_stopped(pid, &status))
		return sw_error_set(err, EPERM,
				    "probe process could not be traced (is ptrace forbidden here, e.g. by Yama or a seccomp filter?)");
	if (ptrace(PTRACE_SETOPTIONS, pid, 0L,
		   (long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)) < 0)
		return sw_error_set_errno(err, errno, "probe: PTRACE_SETOPTIONS");
	ks.pidfd_getfd = probe_pidfd_getfd(pid);

	/* Run to the entry of getppid. */
	for (int guard = 0; guard < 64; guard++) {
		long r;

		if (ptrace(PTRACE_SYSCALL, pid, 0L, 0L) < 0 ||
		    !wait_stopped(pid, &status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		r = ptrace((enum __ptrace_request)SW_PTRACE_GET_SYSCALL_INFO, pid,
			   (void *)sizeof(info), &info);
		if (r <= 0)
			break;
		ks.get_syscall_info = true;
		if (info.op != SW_PTRACE_SYSCALL_INFO_ENTRY ||
		    info.entry.nr != SYS_getppid)
			continue;
		info.entry.nr = SYS_getpid;
		info.flags = 0;
		info.reserved = 0;
		if (ptrace((enum __ptrace_request)SW_PTRACE_SET_SYSCALL_INFO, pid,
			   (void *)sizeof(info), &info) < 0)
			break;
		if (ptrace(PTRACE_CONT, pid, 0L, 0L) < 0)
			break;
		while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
			;
		ks.set_syscall_info = WIFEXITED(status) && WEXITSTATUS(status) == 0;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			pid = 0;
		break;
	}
	*ret = ks;
	return 0;
}

unsigned int sw_kernel_version_now(void)
{
	struct utsname u;
	unsigned int a = 0, b = 0, c = 0;

	if (uname(&u) < 0)
		return 0;
	if (sscanf(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	if (c > 255)
		c = 255;
	return (a << 16) + (b << 8) + c;
}
