// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 6c: a checked call that is interrupted and restarted.  The path
 * guard points a checked path argument at a sealed copy.  A blocking open
 * of a FIFO interrupted by a signal returns -ERESTARTSYS to the kernel's
 * signal code, which rewinds the call to run again after the handler,
 * with the same registers (the kernel restarts a syscall by re-entering
 * it, through seccomp again).  If the supervisor freed the copy's slot
 * at that exit stop, an open in the handler takes the slot, and the
 * restarted call reads the handler's path: it opens a file the program
 * never named for it.  The kernel also keeps every argument register
 * across a syscall, so code may reuse the pointer it passed (an EINTR
 * retry loop); it must get its own pointer back, not one into the guard.
 *
 *   adv_guard_restart DIR        (DIR/file-A exists; DIR is writable)
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "adv.h"

static char fifo[256], other[256];
static volatile sig_atomic_t handled;
static pid_t main_tid;
static int returned;	/* the main thread's open is back */

static void on_usr1(int sig)
{
	int fd = open(other, O_RDONLY | O_CLOEXEC);

	(void)sig;
	if (fd >= 0)
		close(fd);
	handled = 1;
}

static void *helper(void *arg)
{
	(void)arg;
	adv_pause_ms(300);
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	adv_pause_ms(300);
	/* Let the FIFO open finish: a writer (non-blocking: ENXIO while
	 * no reader waits, which is what happens if the restarted open
	 * opened something else), until the open has returned: a slow
	 * machine (a VM under TCG, one vCPU) takes seconds to get the
	 * restarted call back to the FIFO, and a writer that gave up would
	 * leave it blocked for good. */
	while (!__atomic_load_n(&returned, __ATOMIC_ACQUIRE)) {
		int fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

		if (fd >= 0) {
			adv_pause_ms(50);
			close(fd);
			return NULL;
		}
		adv_pause_ms(50);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	const char *path = fifo, *after;
	struct stat st;
	pthread_t th;
	long fd;
	int bad = 0;

	if (argc != 2)
		return adv_verdict(ADV_CANNOT, "usage: adv_guard_restart DIR");
	snprintf(fifo, sizeof(fifo), "%s/fifo.%d", argv[1], getpid());
	snprintf(other, sizeof(other), "%s/file-A", argv[1]);
	unlink(fifo);
	if (mkfifo(fifo, 0600) < 0)
		return adv_verdict(ADV_CANNOT, "mkfifo failed");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	main_tid = (pid_t)syscall(SYS_gettid);
	pthread_create(&th, NULL, helper, NULL);

	TRIED("openat(AT_FDCWD, \"%s\", O_RDONLY) (blocks), SIGUSR1 meanwhile, "
	      "whose SA_RESTART handler opens \"%s\"", fifo, other);
#if defined(__x86_64__)
	{
		register long r10 __asm__("r10") = 0;

		__asm__ volatile("syscall\n\tmov %%rsi, %1"
				 : "=a"(fd), "=r"(after)
				 : "0"((long)SYS_openat), "D"((long)AT_FDCWD),
				   "S"(path), "d"((long)O_RDONLY), "r"(r10)
				 : "rcx", "r11", "memory");
	}
#elif defined(__aarch64__)
	{
		/* x0 is the return register; the path is x1, which the
		 * kernel keeps across the call as x86's rsi. */
		register long x8 __asm__("x8") = SYS_openat;
		register long x0 __asm__("x0") = AT_FDCWD;
		register const char *x1 __asm__("x1") = path;
		register long x2 __asm__("x2") = O_RDONLY;
		register long x3 __asm__("x3") = 0;

		__asm__ volatile("svc #0\n\tmov %1, x1"
				 : "+r"(x0), "=&r"(after)
				 : "r"(x8), "r"(x1), "r"(x2), "r"(x3)
				 : "memory");
		fd = x0;
	}
#elif defined(__riscv)
	{
		/* a0 is the return register; the path is a1, which the
		 * kernel keeps across the call as x86's rsi. */
		register long a7 __asm__("a7") = SYS_openat;
		register long a0 __asm__("a0") = AT_FDCWD;
		register const char *a1 __asm__("a1") = path;
		register long a2 __asm__("a2") = O_RDONLY;
		register long a3 __asm__("a3") = 0;

		__asm__ volatile("ecall\n\tmv %1, a1"
				 : "+r"(a0), "=&r"(after)
				 : "r"(a7), "r"(a1), "r"(a2), "r"(a3)
				 : "memory");
		fd = a0;
	}
#else
#error "adv_guard_restart: no syscall instruction for this machine"
#endif
	__atomic_store_n(&returned, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	unlink(fifo);
	if (!handled)
		return adv_verdict(ADV_CANNOT, "the signal did not interrupt the open");
	if (fd < 0)
		return adv_verdict(ADV_CANNOT, "the open failed");
	fstat((int)fd, &st);
	RESULT("openat = %ld, a %s", fd, S_ISFIFO(st.st_mode) ? "FIFO (the file named)"
		: S_ISREG(st.st_mode) ? "regular file (not the FIFO named)" : "?");
	if (!S_ISFIFO(st.st_mode))
		bad = 1;
	RESULT("argument register after the call: %p (passed %p)%s", (void *)after,
	       (void *)path, after == path ? "" : ": CHANGED");
	if (after != path)
		bad = 1;
	return bad ? adv_verdict(ADV_ESCAPED, S_ISFIFO(st.st_mode)
				 ? "the program's argument register came back pointing elsewhere"
				 : "the restarted call opened a file the program did not name for it")
		   : adv_verdict(ADV_CONTAINED, "the restarted call opened the FIFO it named, "
				 "with the program's own registers");
}
