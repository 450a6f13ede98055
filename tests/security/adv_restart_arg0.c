// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 6f: a checked call whose path is its FIRST argument, interrupted
 * and restarted.  On arm64 that argument's register, x0, is also the
 * return register: the kernel keeps a copy, orig_x0, and restarts an
 * interrupted call from it (arch/arm64/kernel/signal.c, do_signal():
 * regs[0] = orig_x0), and PTRACE_SET_SYSCALL_INFO writes that copy along
 * with x0 (syscall_set_arguments()).  So when the path guard pins x0 at
 * the seccomp stop, a restart runs on the guard's slot, which the
 * supervisor frees at the exit stop: a signal handler's own checked call
 * then takes the slot, and the restarted call acts on the handler's
 * path, one the program never named for it.  Putting x0 back at the exit
 * stop instead overwrites -ERESTARTSYS, and the call returns a pointer.
 * (x86-64 keeps every argument register across a call: no such copy.)
 *
 * The blocking call: truncate(2) of a file under a read lease held by
 * the program itself waits for the lease to go (fs/locks.c,
 * __break_lease(): an interruptible wait, -ERESTARTSYS on a signal).
 * A thread signals the main thread (SA_RESTART handler: open file-B,
 * a checked and pinned openat), then drops the lease.
 *
 *   adv_restart_arg0 DIR     (DIR writable; the policy path-checks
 *                             truncate and openat: path-race.json)
 * Contained: truncate(file-A) returns 0, file-A is truncated and file-B
 * is not.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "adv.h"

static char file_a[256], file_b[256];
static volatile sig_atomic_t handled;
static pid_t main_tid;
static int lease_fd = -1;

static void on_usr1(int sig)
{
	int fd = open(file_b, O_RDONLY | O_CLOEXEC);

	(void)sig;
	if (fd >= 0)
		close(fd);
	handled = 1;
}

static void *helper(void *arg)
{
	(void)arg;
	adv_pause_ms(500);
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	/* Time for the handler and the restarted call to wait again (a
	 * TCG guest is slow), then let the truncate through. */
	adv_pause_ms(1500);
	fcntl(lease_fd, F_SETLEASE, F_UNLCK);
	return NULL;
}

static int write_new(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	long n = fd < 0 ? -1 : write(fd, s, strlen(s));

	if (fd >= 0)
		close(fd);
	return n == (long)strlen(s) ? 0 : -1;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) < 0 ? -1 : (long)st.st_size;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	pthread_t th;
	long r, size_a, size_b;
	int e;

	if (argc != 2)
		return adv_verdict(ADV_CANNOT, "usage: adv_restart_arg0 DIR");
	snprintf(file_a, sizeof(file_a), "%s/file-A", argv[1]);
	snprintf(file_b, sizeof(file_b), "%s/file-B", argv[1]);
	if (write_new(file_a, "allowed, to be truncated\n") < 0 ||
	    write_new(file_b, "never named for a truncate\n") < 0)
		return adv_verdict(ADV_CANNOT, "cannot write DIR/file-A and DIR/file-B");
	lease_fd = open(file_a, O_RDONLY | O_CLOEXEC);
	/* The lease's break notice (SIGIO to the holder, us) is not the
	 * signal of this test. */
	signal(SIGIO, SIG_IGN);
	if (lease_fd < 0 || fcntl(lease_fd, F_SETLEASE, F_RDLCK) < 0)
		return adv_verdict(ADV_CANNOT, "no read lease on DIR/file-A (leases off, or a file system without them)");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	main_tid = (pid_t)syscall(SYS_gettid);
	pthread_create(&th, NULL, helper, NULL);

	TRIED("truncate(\"%s\", 0) (blocks on our own lease), SIGUSR1 meanwhile, "
	      "whose SA_RESTART handler opens \"%s\"", file_a, file_b);
	errno = 0;
	r = syscall(SYS_truncate, file_a, 0L);
	e = errno;
	pthread_join(th, NULL);
	size_a = file_size(file_a);
	size_b = file_size(file_b);
	RESULT("truncate = %s; handler ran: %s", RET(r, e), handled ? "yes" : "no");
	RESULT("sizes after: file-A %ld, file-B %ld", size_a, size_b);
	if (!handled)
		return adv_verdict(ADV_CANNOT, "the signal did not interrupt the truncate");
	if (size_b == 0)
		return adv_verdict(ADV_ESCAPED, "the restarted truncate cut a file the program did not name for it");
	if (r != 0)
		return adv_verdict(ADV_ESCAPED, r > 0 ? "truncate returned a value no truncate returns (its restart was lost)"
				   : "truncate of the file named failed");
	if (size_a != 0)
		return adv_verdict(ADV_ESCAPED, "truncate returned 0 but the file named is intact");
	return adv_verdict(ADV_CONTAINED, "the restarted truncate cut the file it named");
}
