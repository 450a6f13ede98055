// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The descriptors a program starts with when its caller says exactly
 * which (sw_launch.exact_fds, syswardd: its client's): each handed over
 * at its number, and nothing else of the caller's across the exec, what
 * it opened itself or what it inherited.  Run in the launch child, so
 * async-signal-safe and without allocation.
 *
 * How: every descriptor still to be placed, and every one the child
 * itself still needs until its exec (its pipes to the launcher, the
 * Landlock ruleset, ...), is first copied above the highest number to
 * fill (F_DUPFD_CLOEXEC), so that no dup2() below overwrites one of
 * them; then every descriptor of the process is marked close-on-exec at
 * once (close_range(2) with CLOSE_RANGE_CLOEXEC, Linux 5.11, older than
 * any kernel with Landlock): the caller's own carry the flag already,
 * what it inherited need not (`syswardd 9<file` from a shell); then
 * dup2() puts each one at its number, and the copy dup2() makes has no
 * close-on-exec flag (do_dup2() in fs/file.c clears it for newfd).  The
 * kernel's exec then closes every other descriptor (do_close_on_exec()),
 * and until then the child's own keep working.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "launch/launch.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/*
 * Room for the copies: F_DUPFD fails with EINVAL at or above
 * RLIMIT_NOFILE's soft limit, which a daemon may keep below a client's
 * descriptor numbers.  The copies take the lowest free numbers from
 * floor on, so the soft limit must be above floor + copies: if it is
 * not, it is raised to the hard limit, and the hard limit too if even
 * that is short and we may (CAP_SYS_RESOURCE).  *saved gets the limits
 * to put back.
 */
static int make_room(int floor, size_t copies, struct rlimit *saved)
{
	rlim_t want = (rlim_t)floor + copies + 1;
	struct rlimit need;

	if (getrlimit(RLIMIT_NOFILE, saved) < 0)
		return -errno;
	if (want <= saved->rlim_cur)
		return 0;
	need.rlim_max = saved->rlim_max >= want ? saved->rlim_max : want;
	need.rlim_cur = need.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &need) < 0)
		return errno == EPERM ? -EMFILE : -errno;
	return 0;
}

int sw_fds_place(const struct sw_fd_place *p, size_t n, int *const own[],
		 size_t n_own)
{
	int high[SW_LIMIT_FDS];
	struct rlimit saved;
	int floor = 3, r;

	if (n > SW_LIMIT_FDS)
		return -E2BIG;
	for (size_t i = 0; i < n; i++) {
		if (p[i].from < 0 || p[i].to < 0)
			return -EBADF;
		for (size_t j = 0; j < i; j++)
			if (p[j].to == p[i].to)
				return -EINVAL;
		if (p[i].to >= floor)
			floor = p[i].to + 1;
	}
	r = make_room(floor, n + n_own, &saved);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n_own; i++) {
		int fd = *own[i];

		if (fd < 0 || fd >= floor)
			continue;
		*own[i] = fcntl(fd, F_DUPFD_CLOEXEC, floor);
		if (*own[i] < 0)
			return -errno;
		close(fd);
	}
	for (size_t i = 0; i < n; i++) {
		high[i] = p[i].from;
		if (high[i] < floor &&
		    (high[i] = fcntl(p[i].from, F_DUPFD_CLOEXEC, floor)) < 0)
			return -errno;
	}
	if (syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_CLOEXEC) < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		if (dup2(high[i], p[i].to) < 0)
			return -errno;
		if (high[i] != p[i].from)
			close(high[i]);
	}
	/* Our raised limit is no one's: the caller's, or what the client's
	 * context sets later (clientctx.c). */
	if (setrlimit(RLIMIT_NOFILE, &saved) < 0)
		return -errno;
	return 0;
}
