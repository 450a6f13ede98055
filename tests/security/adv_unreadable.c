// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Routes 6d and 6e (docs/security.md): programs the supervisor must be
 * able to read, and path arguments that are no paths.  Not escapes but a
 * policy applied wrongly;
 * a wrong result prints "verdict: WRONG" (exit 1).
 *
 *   adv_unreadable nondumpable DIR
 *       prctl(PR_SET_DUMPABLE, 0), then open DIR/file-A (allowed) and
 *       DIR/file-D (denied by the policy).  A supervisor without
 *       CAP_SYS_PTRACE cannot read a non-dumpable program: the prctl must
 *       be refused, and the opens decided as the policy says.
 *   adv_unreadable plain DIR
 *       the opens only (run from an execute-only copy: never gets here).
 *   adv_unreadable nullpaths DIR
 *       utimensat(fd, NULL), futimesat(fd, NULL), newfstatat and statx
 *       (fd, NULL, AT_EMPTY_PATH) under rules that deny those calls for
 *       every path: NULL names the descriptor, so they must work; with
 *       AT_FDCWD or without AT_EMPTY_PATH they must fail with EFAULT, as
 *       the kernel's own answer; a real path must be denied.
 */
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "adv.h"

static int wrong;

/* The call runs before errno is read (argument order is unspecified). */
#define EXPECT(what, call, want) do {				\
		long r_ = (call);				\
		expect((what), r_, errno, (want));		\
	} while (0)

static void expect(const char *what, long r, int e, int want_errno)
{
	bool ok = want_errno ? r == -1 && e == want_errno : r >= 0;

	RESULT("%s = %s%s", what, RET(r, e), ok ? "" : "  <-- WRONG");
	if (!ok)
		wrong = 1;
}

static void opens(const char *dir)
{
	char p[512];
	long r;

	snprintf(p, sizeof(p), "%s/file-A", dir);
	TRIED("open(\"%s\") (allowed)", p);
	r = open(p, O_RDONLY | O_CLOEXEC);
	expect("open file-A", r, errno, 0);
	if (r >= 0)
		close((int)r);
	snprintf(p, sizeof(p), "%s/file-D", dir);
	TRIED("open(\"%s\") (denied)", p);
	r = open(p, O_RDONLY | O_CLOEXEC);
	expect("open file-D", r, errno, EACCES);
	if (r >= 0)
		close((int)r);
}

static void nullpaths(const char *dir)
{
	char p[512];
	struct statx stx;
	struct stat st;
	int fd;

	snprintf(p, sizeof(p), "%s/file-A", dir);
	fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		wrong = 1;
		RESULT("open %s = %s", p, RET(-1, errno));
		return;
	}
	TRIED("utimensat(fd, NULL, NULL, 0) (futimens, touch)");
	EXPECT("utimensat(fd, NULL)", syscall(SYS_utimensat, fd, NULL, NULL, 0), 0);
	TRIED("futimesat(fd, NULL, NULL)");
	EXPECT("futimesat(fd, NULL)", syscall(SYS_futimesat, fd, NULL, NULL), 0);
	TRIED("newfstatat(fd, NULL, &st, AT_EMPTY_PATH)");
	EXPECT("newfstatat(fd, NULL, AT_EMPTY_PATH)", syscall(SYS_newfstatat, fd, NULL, &st, AT_EMPTY_PATH), 0);
	TRIED("statx(fd, NULL, AT_EMPTY_PATH, ...)");
	EXPECT("statx(fd, NULL, AT_EMPTY_PATH)", syscall(SYS_statx, fd, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, &stx), 0);
	TRIED("the same calls where the kernel reads a string at NULL");
	EXPECT("utimensat(AT_FDCWD, NULL)", syscall(SYS_utimensat, AT_FDCWD, NULL, NULL, 0), EFAULT);
	EXPECT("newfstatat(fd, NULL, 0)", syscall(SYS_newfstatat, fd, NULL, &st, 0), EFAULT);
	EXPECT("statx(fd, NULL, 0)", syscall(SYS_statx, fd, NULL, 0, STATX_BASIC_STATS, &stx), EFAULT);
	TRIED("a real path (denied by the policy)");
	EXPECT("utimensat(AT_FDCWD, path)", syscall(SYS_utimensat, AT_FDCWD, p, NULL, 0), EACCES);
	EXPECT("statx(AT_FDCWD, path)", syscall(SYS_statx, AT_FDCWD, p, 0, STATX_BASIC_STATS, &stx), EACCES);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return adv_verdict(ADV_CANNOT, "usage: adv_unreadable nondumpable|plain|nullpaths DIR");
	if (!strcmp(argv[1], "nondumpable")) {
		long r;

		TRIED("prctl(PR_SET_DUMPABLE, 0) as uid %d", (int)getuid());
		r = prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
		RESULT("prctl = %s, dumpable now %d", RET(r, errno),
		       prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L));
		opens(argv[2]);
	} else if (!strcmp(argv[1], "plain")) {
		opens(argv[2]);
	} else {
		nullpaths(argv[2]);
	}
	if (wrong) {
		adv_line("verdict", "WRONG: the policy was not applied as written");
		return 1;
	}
	return adv_verdict(ADV_CONTAINED, "every call decided as the policy says");
}
