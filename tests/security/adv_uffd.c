// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route: the supervisor frozen by a userfaultfd.  A path argument on a
 * page registered with a userfaultfd that nobody serves: the
 * supervisor's process_vm_readv of the path waits in handle_userfault
 * until the fault is resolved -- and with it every stop of the session
 * (under syswardd, of every session).  Only a userfaultfd created
 * without UFFD_USER_MODE_ONLY takes faults from the kernel; root gets one
 * through userfaultfd(2) or /dev/userfaultfd's USERFAULTFD_IOC_NEW.
 *
 *   adv_uffd DIR    (as root, under a policy emulating getuid and denying
 *                   openat of DIR/file-D by path)
 *   adv_uffd DIR setown   the same with fcntl(F_SETOWN_EX, owner on the
 *                   page), which the supervisor reads under any policy
 *                   (signals.c); the witness times kill(self, 0), which
 *                   stops under any policy too
 *
 * Tries both ways to a kernel-mode userfaultfd.  Whichever works: a page
 * registered with it holds the path, an openat of it runs in a thread, a
 * witness thread times an emulated getuid (a supervisor stop) every half
 * second meanwhile.  A helper resolves the fault after 3 s (DIR/file-D), so
 * the test ends even when the supervisor is stuck; the witness's delay
 * says whether it was.  Contained: both forms refused with EPERM, or the
 * witness not delayed.  A user-mode-only userfaultfd is the policy's: the
 * same path on its page must fail fast (EFAULT), stalling no one.
 */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "adv.h"

#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

static const char *dir;
static char *page;
static long pgsz;
static int uffd = -1;
static volatile double t_open;
static double witness_delay = -1;
static long open_ret, open_err;
static double open_took;
static int done;		/* opener and witness finished */
static int started;		/* the witness runs */
static bool setown;		/* F_SETOWN_EX instead of openat */
static int pipefd[2];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Serves the fault, 3 s after the openat began. */
static void *helper(void *a)
{
	struct pollfd p = { uffd, POLLIN, 0 };
	struct uffd_msg m;
	char *src;

	/* Until a fault comes, or the others are done without one. */
	for (;;) {
		/* (A blocking userfaultfd polls EPOLLERR: hence O_NONBLOCK.) */
		if (poll(&p, 1, 100) > 0 && (p.revents & POLLIN)) {
			if (read(uffd, &m, sizeof(m)) == sizeof(m))
				break;
		} else if ((__atomic_load_n(&done, __ATOMIC_SEQ_CST) == 2) ||
			   now() - t_open > 6.0) {
			return a;
		}
	}
	FACT("a fault on the registered page %.2f s after the openat (flags %#llx)",
	     now() - t_open, (unsigned long long)m.arg.pagefault.flags);
	while (now() - t_open < 3.0)
		usleep(10000);
	src = aligned_alloc(pgsz, pgsz);
	memset(src, 0, pgsz);
	if (setown)
		memcpy(src, (int[2]){ 1 /* F_OWNER_PID */, getpid() }, 2 * sizeof(int));
	else
		snprintf(src, pgsz, "%s/file-D", dir);
	struct uffdio_copy c = { .dst = (unsigned long)page, .src = (unsigned long)src,
				 .len = pgsz };
	if (ioctl(uffd, UFFDIO_COPY, &c) < 0)
		FACT("UFFDIO_COPY: %s", strerror(errno));
	return a;
}

static void *opener(void *a)
{
	if (setown)
		open_ret = syscall(SYS_fcntl, pipefd[0], 15 /* F_SETOWN_EX */, page);
	else
		open_ret = syscall(SYS_openat, AT_FDCWD, page, O_RDONLY);
	open_err = errno;
	open_took = now() - t_open;
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	return a;
}

static void *witness(void *a)
{
	double t0;
	long u;

	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	while (now() < t_open)
		usleep(1000);
	/* Every 0.5 s while the fault is unserved: the longest wait. */
	for (int i = 0; i < 5; i++) {
		double d;

		usleep(500000);
		t0 = now();
		u = setown ? syscall(SYS_kill, getpid(), 0) : syscall(SYS_getuid);
		d = now() - t0;
		if (d > witness_delay)
			witness_delay = d;
		if (now() - t_open > 2.5)
			break;
	}
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	RESULT("witness: %s = %ld, at most %.2f s for one", setown ? "kill(self, 0)" : "getuid",
	       u, witness_delay);
	return a;
}

/* Register a fresh page with fd (UFFDIO_API first), or -1. */
static int setup(int fd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register r;

	if (ioctl(fd, UFFDIO_API, &api) < 0) {
		FACT("UFFDIO_API: %s", strerror(errno));
		return -1;
	}
	page = mmap(NULL, pgsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	r = (struct uffdio_register){ .range = { (unsigned long)page, pgsz },
				      .mode = UFFDIO_REGISTER_MODE_MISSING };
	if (ioctl(fd, UFFDIO_REGISTER, &r) < 0) {
		FACT("UFFDIO_REGISTER: %s", strerror(errno));
		return -1;
	}
	uffd = fd;
	return 0;
}

/* The openat of a path on the unserved page, with helper and witness. */
static void attempt(const char *how)
{
	pthread_t h, o, w;

	TRIED("%s on a page of a %s userfaultfd nobody serves for 3 s), %s in another thread every 0.5 s",
	      setown ? "fcntl(F_SETOWN_EX, owner" : "openat(path", how,
	      setown ? "kill(self, 0)" : "getuid");
	witness_delay = -1;
	done = 0;
	started = 0;
	t_open = now() + 3600;
	/* Helper and witness run before the openat: once the supervisor
	 * waits, no new thread starts (its clone event waits too). */
	pthread_create(&h, NULL, helper, NULL);
	pthread_create(&w, NULL, witness, NULL);
	while (!__atomic_load_n(&started, __ATOMIC_SEQ_CST))
		usleep(1000);
	t_open = now();
	pthread_create(&o, NULL, opener, NULL);
	pthread_join(o, NULL);
	pthread_join(w, NULL);
	pthread_join(h, NULL);
	RESULT("%s = %s after %.2f s", setown ? "fcntl" : "openat",
	       RET(open_ret, open_err), open_took);
	if (open_ret > 0 && !setown)
		close(open_ret);
}

int main(int argc, char **argv)
{
	long r, r2 = -1;
	int e, e2 = 0, dev;

	if (argc < 2) {
		fprintf(stderr, "usage: adv_uffd DIR\n");
		return ADV_CANNOT;
	}
	dir = argv[1];
	setown = argc > 2 && !strcmp(argv[2], "setown");
	if (pipe(pipefd) < 0)
		return ADV_CANNOT;
	pgsz = sysconf(_SC_PAGESIZE);
	FACT("uid %d", (int)geteuid());

	TRIED("userfaultfd(O_CLOEXEC | O_NONBLOCK) (faults from the kernel too)");
	r = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	e = errno;
	RESULT("userfaultfd = %s", RET(r, e));

	TRIED("ioctl(open(/dev/userfaultfd), USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK)");
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		RESULT("open(/dev/userfaultfd) = %s", RET(-1, errno));
	} else {
		r2 = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
		e2 = errno;
		RESULT("USERFAULTFD_IOC_NEW = %s", RET(r2, e2));
		close(dev);
	}

	if (r < 0 && r2 < 0) {
		/* The control: a user-mode-only userfaultfd is allowed, and a
		 * kernel read of its pages fails instead of waiting. */
		long u = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);

		RESULT("userfaultfd(UFFD_USER_MODE_ONLY) = %s", RET(u, errno));
		if (u >= 0 && setup((int)u) == 0) {
			attempt("user-mode-only");
			if (witness_delay < 0 || witness_delay > 1.0)
				return adv_verdict(ADV_ESCAPED,
						   "a user-mode-only userfaultfd stalled the supervisor");
		}
		if (e != EPERM || (dev >= 0 && e2 != EPERM))
			return adv_verdict(ADV_CANNOT,
					   "refused, but not with EPERM (a kernel without userfaultfd?)");
		return adv_verdict(ADV_CONTAINED,
				   "both ways to a kernel-mode userfaultfd refused (EPERM)");
	}
	if (r >= 0 && r2 >= 0)
		close((int)r2);
	if (setup(r >= 0 ? (int)r : (int)r2) < 0)
		return adv_verdict(ADV_CANNOT, "cannot register a page");
	attempt(r >= 0 ? "userfaultfd(2)" : "USERFAULTFD_IOC_NEW");
	if (witness_delay < 0 || witness_delay > 1.0)
		return adv_verdict(ADV_ESCAPED,
				   "a kernel-mode userfaultfd froze the supervisor");
	return adv_verdict(ADV_CONTAINED, "the supervisor was not delayed");
}
