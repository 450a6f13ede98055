/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every benchmark program here needs: a monotonic clock in ns, a
 * fatal error that names the program and the failed step, and an order
 * for qsort of times.  Header-only: each benchmark is one .c file.
 */
#ifndef SYSWARD_BENCH_H
#define SYSWARD_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* "PROGRAM: what: strerror(errno)", exit 1. */
static inline _Noreturn void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(1);
}

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Run argv (argv[0] a path) with stdin and stderr on /dev/null and
 * stdout on out_fd (-1: /dev/null), in a session of its own, as syswardd
 * gives every program: with the scheduler's autogroups (one per session)
 * programs then compete alike confined and unconfined.  Exits on failure.
 */
static inline pid_t spawn(char *const argv[], int out_fd)
{
	pid_t p = fork();

	if (p < 0)
		die("fork");
	if (p == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(out_fd >= 0 ? out_fd : null, 1);
		dup2(null, 2);
		setsid();
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

/*
 * Start syswardd on socket sock (mode 0600), with the options in extra
 * (NULL-terminated, at most 8; or NULL), its standard streams on
 * /dev/null, in a session of its own (as it gives every program: with
 * the scheduler's autogroups, one per session, it competes like anything
 * else); wait up to 5 s for the socket.  Exits on failure.
 */
static inline pid_t start_syswardd(const char *syswardd, const char *sock,
				   const char *const *extra)
{
	const char *argv[16] = { syswardd, "--socket", sock, "--socket-mode", "0600" };
	size_t n = 5;
	pid_t p;

	for (; extra && *extra && n < 13; extra++)
		argv[n++] = *extra;

	unlink(sock);
	p = fork();
	if (p < 0)
		die("fork");
	if (p == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		setsid();
		execv(syswardd, (char *const *)argv);
		_exit(127);
	}
	for (int i = 0; i < 500; i++) {
		if (access(sock, F_OK) == 0)
			return p;
		usleep(10000);
	}
	fprintf(stderr, "%s: %s did not create %s\n",
		program_invocation_short_name, syswardd, sock);
	kill(p, SIGKILL);
	exit(1);
}

#endif
