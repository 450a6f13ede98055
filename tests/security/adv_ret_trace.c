// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 1, the kernel behaviour sysward relies on: a process whose filter
 * returns SECCOMP_RET_TRACE while no tracer is attached does not run the
 * syscall; it fails with ENOSYS (seccomp(2): "If there is no tracer
 * present, the system call is not executed and returns a failure status
 * with errno set to ENOSYS").  So a tracee that somehow lost its tracer
 * fails closed on every syscall the policy sends to the supervisor.
 *
 * Run WITHOUT sysward: the program installs its own filter (TRACE for
 * mkdirat, mkdir and getuid) and checks the result and that the directory
 * was not created.
 */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "adv.h"

int main(int argc, char **argv)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getuid, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdir, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 7),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]),
		.filter = insns,
	};
	char tracer[32] = "?", path[256];
	struct stat st;
	long r;
	int e, v = ADV_CONTAINED;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SCRATCH-DIR\n", argv[0]);
		return ADV_CANNOT;
	}
	snprintf(path, sizeof(path), "%s/made-by-untraced-mkdir", argv[1]);
	rmdir(path);

	adv_status_field("self", "TracerPid", tracer, sizeof(tracer));
	FACT("TracerPid %s (must be 0: this test runs without a tracer)",
	     tracer);
	if (strcmp(tracer, "0") != 0)
		return adv_verdict(ADV_CANNOT, "run me without a tracer");

	TRIED("prctl(PR_SET_NO_NEW_PRIVS) + seccomp filter: getuid, mkdir, "
	      "mkdirat -> SECCOMP_RET_TRACE");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		RESULT("installing the filter: %s", strerror(errno));
		return adv_verdict(ADV_CANNOT, "no seccomp filter");
	}

	TRIED("getuid() with RET_TRACE and no tracer");
	errno = 0;
	r = syscall(SYS_getuid);
	e = errno;
	RESULT("getuid() = %s", RET(r, e));
	if (!(r == -1 && e == ENOSYS))
		v = ADV_ESCAPED;

	TRIED("mkdirat(AT_FDCWD, \"%s\") with RET_TRACE and no tracer", path);
	r = syscall(SYS_mkdirat, AT_FDCWD, path, 0700);
	e = errno;
	RESULT("mkdirat = %s", RET(r, e));
	if (!(r == -1 && e == ENOSYS))
		v = ADV_ESCAPED;

	r = stat(path, &st);
	RESULT("the directory %s", r == 0 ? "EXISTS: the syscall ran" :
	       "does not exist: the syscall did not run");
	if (r == 0) {
		v = ADV_ESCAPED;
		rmdir(path);
	}
	return adv_verdict(v, v == ADV_CONTAINED ?
			   "RET_TRACE without a tracer fails closed (ENOSYS)" :
			   "RET_TRACE without a tracer ran the syscall");
}
