// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The descriptors a program starts with (sw_fds_place, engine/launch/fds.c), on
 * this process's own table (check runs each test in a child of its own):
 * sources that sit on one another's targets, the launch child's own
 * descriptors in the way, sources above the limit.  After the call each
 * target names its source's file without close-on-exec, each of our own
 * still names its file, and every other descriptor is close-on-exec.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"
#include "check_run.h"
#include "launch/launch.h"

/* A file named "memfd:NAME" in /proc/self/fd, at number at. */
static void file_at(const char *name, int at)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	if (fd != at) {
		ck_assert_int_eq(dup3(fd, at, O_CLOEXEC), at);
		close(fd);
	}
}

/* "NAME" if fd names memfd:NAME, else "". */
static const char *name_of(int fd)
{
	static char buf[128];
	char path[64], link[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	buf[0] = '\0';
	if (n > 0) {
		link[n] = '\0';
		if (sscanf(link, "/memfd:%127[^ ]", buf) != 1)
			buf[0] = '\0';
	}
	return buf;
}

#define MAX 4
static const struct {
	const char *what;
	int n;
	int from[MAX], to[MAX];	/* the source named "sI" sits at from[I] */
	int own_at;		/* -1: none; else a file "own" there */
	rlim_t nofile;		/* 0: unchanged */
	int err;
} cases[] = {
	{ "two sources on each other's targets", 2, { 3, 5 }, { 5, 3 }, 4, 0, 0 },
	{ "a chain of targets", 3, { 3, 4, 5 }, { 4, 5, 6 }, -1, 0, 0 },
	{ "sources high, targets 0-2", 3, { 40, 41, 42 }, { 0, 1, 2 }, 3, 0, 0 },
	{ "our own on a target", 1, { 10 }, { 3 }, 3, 0, 0 },
	{ "a target above the soft limit", 2, { 5, 6 }, { 0, 30 }, 7, 16, 0 },
	{ "two on one number", 2, { 5, 6 }, { 3, 3 }, -1, 0, EINVAL },
	{ "a negative number", 1, { 5 }, { -1 }, -1, 0, EBADF },
};

START_TEST(test_place)
{
	const __typeof__(cases[0]) *c = &cases[_i];
	struct sw_fd_place p[MAX];
	int own = -1, *owns[1] = { &own }, r;
	char name[16];	/* "s" and any int: gcc 12 counts 11 bytes */

	/* Nothing but what the row lays out: inherited and check's own
	 * descriptors are close-on-exec from here on, which the call must
	 * keep (they are not handed over). */
	for (int i = 0; i < c->n; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		file_at(name, c->from[i]);
		p[i] = (struct sw_fd_place){ c->from[i], c->to[i] };
	}
	if (c->own_at >= 0) {
		file_at("own", 100 + c->own_at);
		own = 100 + c->own_at;
		/* "own" at own_at, the source there moved off it first */
		for (int i = 0; i < c->n; i++)
			if (c->from[i] == c->own_at)
				ck_abort_msg("%s: a row's own and a source share a number", c->what);
		ck_assert_int_eq(dup3(own, c->own_at, O_CLOEXEC), c->own_at);
		close(own);
		own = c->own_at;
	}
	if (c->nofile) {
		struct rlimit rl;

		ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
		rl.rlim_cur = c->nofile;
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	}
	r = sw_fds_place(p, (size_t)c->n, owns, 1);
	ck_assert_msg(r == -c->err, "%s: %d, expected %d", c->what, r, -c->err);
	if (c->err)
		return;
	for (int i = 0; i < c->n; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		ck_assert_msg(strcmp(name_of(c->to[i]), name) == 0,
			      "%s: fd %d names \"%s\", not %s", c->what, c->to[i],
			      name_of(c->to[i]), name);
		ck_assert_msg(!(fcntl(c->to[i], F_GETFD) & FD_CLOEXEC),
			      "%s: fd %d is close-on-exec", c->what, c->to[i]);
	}
	if (c->own_at >= 0) {
		ck_assert_msg(strcmp(name_of(own), "own") == 0,
			      "%s: our own (now fd %d) names \"%s\"", c->what, own,
			      name_of(own));
		for (int i = 0; i < c->n; i++)
			ck_assert_int_ne(own, c->to[i]);
	}
	/* Everything else goes at the exec. */
	for (int fd = 0; fd < 200; fd++) {
		bool placed = false;

		for (int i = 0; i < c->n; i++)
			placed |= c->to[i] == fd;
		if (!placed && fcntl(fd, F_GETFD) >= 0)
			ck_assert_msg(fcntl(fd, F_GETFD) & FD_CLOEXEC,
				      "%s: fd %d (%s) would survive the exec", c->what,
				      fd, name_of(fd));
	}
	if (c->nofile) {
		struct rlimit rl;

		ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
		ck_assert_msg(rl.rlim_cur == c->nofile,
			      "%s: the soft limit is %llu, not put back to %llu", c->what,
			      (unsigned long long)rl.rlim_cur,
			      (unsigned long long)c->nofile);
	}
}
END_TEST

START_TEST(test_too_many)
{
	static struct sw_fd_place p[SW_LIMIT_FDS + 1];

	for (size_t i = 0; i <= SW_LIMIT_FDS; i++)
		p[i] = (struct sw_fd_place){ 0, (int)i };
	ck_assert_int_eq(sw_fds_place(p, SW_LIMIT_FDS + 1, NULL, 0), -E2BIG);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fds");
	TCase *tc = tcase_create("place");

	tcase_add_loop_test(tc, test_place, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_too_many);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
