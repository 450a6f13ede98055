/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every benchmark program here needs: a monotonic clock in ns, a
 * fatal error that names the program and the failed step, an order
 * for qsort of times, its own path and a work directory, policy files
 * in it, and a syswardd to start and stop.  Header-only: each benchmark
 * is one .c file.
 */
#ifndef SYSWARD_BENCH_H
#define SYSWARD_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Sort v (n times) and return its median. */
static inline long long median_ll(long long *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

/*
 * The program's own path into self (the benchmarks run themselves as the
 * confined program) and a fresh work directory from the mkdtemp template
 * dir.  Exits on failure.
 */
static inline void bench_setup(char self[PATH_MAX], char *dir)
{
	if (!realpath("/proc/self/exe", self))
		die("realpath /proc/self/exe");
	if (!mkdtemp(dir))
		die("mkdtemp");
}

/* Write the printf-formatted text to dir/name and its path into path.
 * Exits on failure. */
__attribute__((format(printf, 4, 5)))
static inline void bench_put_file(char path[PATH_MAX], const char *dir,
				  const char *name, const char *fmt, ...)
{
	va_list ap;
	FILE *f;
	int r;

	snprintf(path, PATH_MAX, "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		die(path);
	va_start(ap, fmt);
	r = vfprintf(f, fmt, ap);
	va_end(ap);
	if (fclose(f) != 0 || r < 0)
		die(path);
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

/* SIGTERM to a syswardd from start_syswardd, wait for it, remove its
 * socket. */
static inline void stop_syswardd(pid_t p, const char *sock)
{
	kill(p, SIGTERM);
	waitpid(p, NULL, 0);
	unlink(sock);
}

#endif
