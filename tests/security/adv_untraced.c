// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 1: children that escape the tracer.
 *
 * strace's --seccomp-bpf mode can be escaped with clone(CLONE_UNTRACED): the
 * kernel then does not auto-attach the child, which runs unsupervised.  Run
 * under a policy that emulates getuid() as 4242 (a supervisor rule): a child
 * that is still supervised sees 4242; an untraced child with the inherited
 * filter sees -1 ENOSYS (SECCOMP_RET_TRACE without a tracer); an untraced
 * child without the filter would see its real uid.
 *
 *   adv_untraced clone    raw clone(CLONE_UNTRACED|SIGCHLD)
 *   adv_untraced clone3   raw clone3 with CLONE_UNTRACED: must be ENOSYS
 *   adv_untraced thread   pthread_create (glibc tries clone3, falls back)
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

#define EMULATED_UID 4242

#ifndef CLONE_UNTRACED
#define CLONE_UNTRACED 0x00800000
#endif

/* The v2 layout of struct clone_args (88 bytes). */
struct adv_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

/* What a child reports about itself: 0 supervised, 1 not. */
static int child_report(const char *who)
{
	char tracer[32] = "?";
	long uid;
	int e;

	adv_status_field("self", "TracerPid", tracer, sizeof(tracer));
	errno = 0;
	uid = syscall(SYS_getuid);
	e = errno;
	FACT("%s: pid %d, TracerPid %s, getuid() = %s (emulated value %d)",
	     who, getpid(), tracer, RET(uid, e), EMULATED_UID);
	return (uid == EMULATED_UID && strcmp(tracer, "0") != 0) ? 0 : 1;
}

static int wait_child(pid_t pid, const char *who)
{
	int st;

	if (waitpid(pid, &st, 0) < 0) {
		RESULT("waitpid(%d): %s", pid, strerror(errno));
		return adv_verdict(ADV_CANNOT, "waitpid failed");
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		RESULT("%s child was supervised (getuid emulated, TracerPid set)",
		       who);
		return adv_verdict(ADV_CONTAINED, "the child stayed traced");
	}
	RESULT("%s child status 0x%x: it ran unsupervised", who, st);
	return adv_verdict(ADV_ESCAPED, "child not traced");
}

static int try_clone(void)
{
	long pid;
	int e;

	TRIED("raw clone(CLONE_UNTRACED|SIGCHLD) (fork-like, no CLONE_VM)");
	pid = syscall(SYS_clone, CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0);
	e = errno;
	if (pid == 0)
		_exit(child_report("clone child"));
	RESULT("clone returned %s", RET(pid, e));
	if (pid < 0)
		return adv_verdict(ADV_CONTAINED, "clone(CLONE_UNTRACED) refused");
	return wait_child(pid, "clone");
}

static int try_clone3(void)
{
	struct adv_clone_args a = {
		.flags = CLONE_UNTRACED,
		.exit_signal = SIGCHLD,
	};
	long pid;
	int e;

	TRIED("raw clone3({flags=CLONE_UNTRACED, exit_signal=SIGCHLD}, 88)");
	pid = syscall(SYS_clone3, &a, sizeof(a));
	e = errno;
	if (pid == 0)
		_exit(child_report("clone3 child"));
	RESULT("clone3 returned %s", RET(pid, e));
	if (pid > 0) {
		wait_child(pid, "clone3");
		return adv_verdict(ADV_ESCAPED,
				   "clone3 ran (its flags are in memory: "
				   "sysward cannot vet them)");
	}
	if (e != ENOSYS)
		return adv_verdict(ADV_ESCAPED,
				   "clone3 must fail with ENOSYS so that libc "
				   "falls back to clone");
	return adv_verdict(ADV_CONTAINED, "clone3 -> ENOSYS");
}

static void *thread_main(void *arg)
{
	return (void *)(intptr_t)child_report("thread");
}

static int try_thread(void)
{
	pthread_t t;
	void *res;
	int r;

	TRIED("pthread_create (glibc tries clone3, falls back to clone)");
	r = pthread_create(&t, NULL, thread_main, NULL);
	if (r != 0) {
		RESULT("pthread_create: %s", strerror(r));
		return adv_verdict(ADV_CANNOT, "libc did not fall back to clone");
	}
	pthread_join(t, &res);
	RESULT("thread %s", res ? "ran unsupervised" : "was supervised");
	return adv_verdict(res ? ADV_ESCAPED : ADV_CONTAINED,
			   res ? "thread not traced" : "thread stayed traced");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "clone") == 0)
		return try_clone();
	if (strcmp(mode, "clone3") == 0)
		return try_clone3();
	if (strcmp(mode, "thread") == 0)
		return try_thread();
	fprintf(stderr, "usage: %s clone|clone3|thread\n", argv[0]);
	return ADV_CANNOT;
}
