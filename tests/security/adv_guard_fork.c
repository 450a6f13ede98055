// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 6b: make the sealed path guard vanish from a child.  mseal(2)
 * forbids unmapping or replacing the guard, and "discarding" advice on
 * sealed read-only *anonymous* memory; the guard is a shared file
 * mapping, so MADV_DONTFORK is accepted on it (measured on 6.18, also
 * through process_madvise(2), which since 6.13 takes any advice for the
 * caller's own mm).  A child forked afterwards has nothing at the guard's
 * address, maps writable memory there, fills every slot with the denied
 * path and opens the allowed one: if the supervisor pins the allowed
 * string at the guard address, the kernel reads the child's bytes and
 * opens the denied file.
 *
 *   adv_guard_fork DIR madvise|process_madvise
 * DIR holds file-A ("allowed") and file-D ("denied"); the policy denies
 * openat of DIR/file-D (tests/security/policies/path-race.json.in).
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "adv.h"

#ifndef MADV_DONTFORK
#define MADV_DONTFORK 10
#endif

static char *guard;
static size_t guard_len;

static int find_guard(void)
{
	return adv_find_guard(&guard, &guard_len, NULL, 0);
}

/* In the child: 0 contained, 1 escaped. */
static int child(const char *dir)
{
	char allowed[256], denied[256], buf[64] = "";
	void *m;
	ssize_t n;
	int fd;

	snprintf(allowed, sizeof(allowed), "%s/file-A", dir);
	snprintf(denied, sizeof(denied), "%s/file-D", dir);
	TRIED("child: mmap(guard address, RW, MAP_FIXED_NOREPLACE)");
	m = mmap(guard, guard_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m != guard) {
		RESULT("child: mmap = %s (the guard is still mapped here)",
		       RET(-1, errno));
	} else {
		RESULT("child: mapped writable memory where the guard was");
		for (size_t off = 0; off < guard_len; off += 4096)
			memcpy(guard + off, denied, strlen(denied) + 1);
	}
	TRIED("child: open(\"%s\")", allowed);
	fd = open(allowed, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		RESULT("child: open = %s", RET(-1, errno));
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	RESULT("child: read \"%s\"", buf);
	return strcmp(buf, "denied") == 0;
}

int main(int argc, char **argv)
{
	const char *dir, *route;
	int st, esc;
	long r;
	pid_t c;

	if (argc != 3)
		return adv_verdict(ADV_CANNOT, "usage: adv_guard_fork DIR madvise|process_madvise");
	dir = argv[1];
	route = argv[2];
	if (find_guard() < 0)
		return adv_verdict(ADV_ESCAPED, "no path guard mapped although the policy checks paths");
	FACT("guard at %p, %zu bytes", (void *)guard, guard_len);
	if (!strcmp(route, "madvise")) {
		TRIED("madvise(guard, MADV_DONTFORK)");
		r = madvise(guard, guard_len, MADV_DONTFORK);
	} else {
		struct iovec iov = { guard, guard_len };
		int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);

		TRIED("process_madvise(pidfd of self, guard, MADV_DONTFORK)");
		r = syscall(SYS_process_madvise, pidfd, &iov, 1UL, MADV_DONTFORK, 0U);
		if (pidfd >= 0)
			close(pidfd);
	}
	RESULT("%s = %s", route, RET(r, errno));
	c = fork();
	if (c == 0)
		_exit(child(dir) ? 1 : 0);
	if (c < 0)
		return adv_verdict(ADV_CANNOT, "fork failed");
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
	esc = WIFEXITED(st) && WEXITSTATUS(st) == 1;
	RESULT("child %s %d", WIFEXITED(st) ? "exited" : "killed by signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return esc ? adv_verdict(ADV_ESCAPED, "the child opened the denied file through a guard it replaced")
		   : adv_verdict(ADV_CONTAINED, r >= 0 ? "the child's guard-less pins were refused"
						       : "the advice was refused");
}
