// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Event order (docs/security.md, route 12): processes and threads that are created
 * and gone before the supervisor sees their parent's PTRACE_EVENT_FORK /
 * CLONE, and creators that die in the middle of a fork.
 *
 *   adv_events storm N [W]   (W workers at once, each doing) N rounds of: fork + exit, vfork + exit, a
 *                            joined and a detached thread, fork + SIGKILL
 *                            at once, clone(CLONE_PARENT) + exit.  Every
 *                            child asks getuid (emulated as 4242 by
 *                            emulate-uid.json) and reports what it got.
 *   adv_events flood W       W processes that fork children that exit,
 *                            forever (a hostile load, for tests/daemon)
 *   adv_events stopflood     a child that stops and continues its parent,
 *                            forever: signal stops without end, at the
 *                            cost of two kill() calls each (tests/daemon)
 *   adv_events parentdies N  N helpers whose one thread forks in a loop
 *                            while another ends the process (exit_group):
 *                            some fork's creation event is never reported.
 *
 * The supervisor's bookkeeping is invisible from inside; the program
 * checks that every child was supervised (getuid == 4242), and check.sh
 * that sysward returns this program's status, every time, in bounded time.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

/* The uid the policy emulates: 4242, or $ADV_UID (tests/daemon runs two
 * sessions with two policies: a process counted in the wrong session
 * sees the other's). */
static long emulated_uid = 4242;

static volatile int bad;

static int child_check(void)
{
	return syscall(SYS_getuid) == emulated_uid ? 0 : 3;
}

static void *thread_fn(void *arg)
{
	if (syscall(SYS_getuid) != emulated_uid)
		bad = 1;
	return arg;
}

static int clone_parent_fn(void *arg)
{
	(void)arg;
	_exit(child_check());
}

static void reap(pid_t pid, int want, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) != pid) {
		RESULT("%s: waitpid: %s", what, strerror(errno));
		bad = 1;
		return;
	}
	if (want >= 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == want)) {
		RESULT("%s: status %#x, wanted exit %d", what, st, want);
		bad = 1;
	}
	if (want < 0 && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) &&
	    !WIFEXITED(st)) {
		RESULT("%s: status %#x", what, st);
		bad = 1;
	}
}

static int storm(int n)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	pthread_attr_t det;
	pthread_t th;
	pid_t pid;

	pthread_attr_init(&det);
	pthread_attr_setdetachstate(&det, PTHREAD_CREATE_DETACHED);
	TRIED("%d rounds of children and threads that exit at once", n);
	for (int i = 0; i < n && !bad; i++) {
		/* Gone within microseconds of its first stop: its exit
		 * races its parent's fork event. */
		pid = fork();
		if (pid == 0)
			syscall(SYS_exit_group, 0);
		reap(pid, 0, "fork");

		pid = fork();
		if (pid == 0)
			_exit(child_check());
		reap(pid, 0, "fork");

		pid = vfork();
		if (pid == 0)
			_exit(child_check());
		reap(pid, 0, "vfork");

		if (pthread_create(&th, NULL, thread_fn, NULL) == 0)
			pthread_join(th, NULL);
		if (pthread_create(&th, &det, thread_fn, NULL) != 0)
			bad = 1;

		/* Killed before (or while) its first stop is reported. */
		pid = fork();
		if (pid == 0) {
			pause();
			_exit(0);
		}
		kill(pid, SIGKILL);
		reap(pid, -1, "fork+kill");

		/* Its parent is our parent (sysward): we cannot wait. */
		if (clone(clone_parent_fn, stack + sizeof(stack),
			  CLONE_PARENT | SIGCHLD, NULL) < 0 && errno != EINVAL) {
			RESULT("clone(CLONE_PARENT): %s", strerror(errno));
			bad = 1;
		}
	}
	RESULT("%s", bad ? "a child was not supervised or failed" : "every child supervised");
	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "a child ran outside the policy" : NULL);
}

static void *forker(void *arg)
{
	(void)arg;
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(child_check());
	}
	return NULL;
}

static int parentdies(int n)
{
	TRIED("%d helpers that exit_group while a thread forks", n);
	for (int i = 0; i < n; i++) {
		pid_t h = fork();

		if (h == 0) {
			pthread_t th;

			pthread_create(&th, NULL, forker, NULL);
			/* Let a few forks go through, then end it all. */
			for (volatile int k = 0; k < 20000 * (i % 7 + 1); k++)
				;
			syscall(SYS_exit_group, 0);
		}
		reap(h, 0, "helper");
	}
	RESULT("%s", bad ? "a helper failed" : "every helper ended");
	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "a helper did not end normally" : NULL);
}

/* Several storms at once: the supervisor has more than one stop pending
 * more often, which is when the orders mix. */
static int storms(int n, int workers)
{
	pid_t pids[16];
	int v = ADV_CONTAINED;

	if (workers > 16)
		workers = 16;
	for (int w = 0; w < workers; w++) {
		pids[w] = fork();
		if (pids[w] == 0) {
			int fd = open("/dev/null", O_WRONLY);

			/* One verdict line: the workers report by status. */
			dup2(fd, STDOUT_FILENO);
			_exit(storm(n));
		}
	}
	for (int w = 0; w < workers; w++) {
		int st;

		if (waitpid(pids[w], &st, 0) != pids[w] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			v = ADV_ESCAPED;
	}
	TRIED("%d workers of %d rounds each", workers, n);
	return adv_verdict(v, v ? "a worker's child ran outside the policy" : NULL);
}

/* Hostile load (tests/daemon, bench): fork and exit, forever. */
static _Noreturn void flood(int workers)
{
	for (int w = 1; w < workers; w++)
		if (fork() == 0)
			break;
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			syscall(SYS_exit_group, 0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/* Hostile load (tests/daemon): SIGSTOP and SIGCONT of the parent by its
 * child, forever; the parent waits.  Neither makes another system call. */
static _Noreturn void stopflood(void)
{
	pid_t parent = getpid();

	if (fork() == 0) {
		for (;;) {
			kill(parent, SIGSTOP);
			kill(parent, SIGCONT);
		}
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 100;

	if (getenv("ADV_UID"))
		emulated_uid = atol(getenv("ADV_UID"));

	if (argc > 1 && !strcmp(argv[1], "storm"))
		return argc > 3 ? storms(n, atoi(argv[3])) : storm(n);
	if (argc > 1 && !strcmp(argv[1], "flood"))
		flood(n);
	if (argc > 1 && !strcmp(argv[1], "parentdies"))
		return parentdies(n);
	if (argc > 1 && !strcmp(argv[1], "stopflood"))
		stopflood();
	fprintf(stderr, "usage: adv_events storm N [W] | flood W | parentdies N | stopflood\n");
	return ADV_CANNOT;
}
