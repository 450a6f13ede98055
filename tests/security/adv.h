/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the adversarial programs of tests/security.  Each program tries
 * one route out of sysward's confinement and prints one line per fact:
 *
 *   tried: <what it did>
 *   result: <what the kernel or sysward answered>
 *   verdict: contained | ESCAPED | cannot-test (<why>)
 *
 * Exit status: 0 contained, 1 escaped, 2 the test could not run.  Output
 * is flushed line by line so that a program killed half-way (SIGSYS from a
 * KILL_PROCESS filter, SIGKILL) still shows what it was doing.
 */
#ifndef SW_ADV_H
#define SW_ADV_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* Newer than some build hosts' headers (include adv.h after the system
 * headers, so that theirs, the same values, come first). */
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef MADV_COLD
#define MADV_COLD 20
#endif

#define ADV_CONTAINED	0
#define ADV_ESCAPED	1
#define ADV_CANNOT	2

static inline void adv_line(const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void adv_line(const char *kind, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One write(2) per line: lines of concurrent processes never mix. */
	dprintf(STDOUT_FILENO, "%s: %s\n", kind, buf);
}

#define TRIED(...)	adv_line("tried", __VA_ARGS__)
#define RESULT(...)	adv_line("result", __VA_ARGS__)
#define FACT(...)	adv_line("fact", __VA_ARGS__)

/* A TCP bind or connect to 127.0.0.1:port: 0, or -1 with errno. */
static inline long adv_tcp(int port, bool do_bind)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), e;
	long r;

	if (s < 0)
		return -1;
	r = do_bind ? bind(s, (struct sockaddr *)&a, sizeof(a))
		    : connect(s, (struct sockaddr *)&a, sizeof(a));
	e = errno;
	close(s);
	errno = e;
	return r;
}

/* openat(dfd, path, O_WRONLY | flags) and a write: the bytes written,
 * or -1 with errno (a write refused after the open is no escape). */
static inline long adv_write_at(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, O_WRONLY | O_CLOEXEC | flags, 0644), e;
	long n;

	if (fd < 0)
		return -1;
	n = write(fd, "x\n", 2);
	e = errno;
	close(fd);
	errno = e;
	return n;
}

/* "-1 EPERM (Operation not permitted)" or "42". */
static inline const char *adv_ret(long r, int e, char *buf, size_t n)
{
	if (r == -1)
		snprintf(buf, n, "-1 %s (%s)", strerrorname_np(e) ?: "?",
			 strerror(e));
	else
		snprintf(buf, n, "%ld", r);
	return buf;
}
#define RET(r, e) adv_ret((r), (e), (char[96]){0}, 96)

/* Sleep ms milliseconds, whatever signals come meanwhile. */
static inline void adv_pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static inline int adv_verdict(int v, const char *why)
{
	if (v == ADV_CONTAINED)
		adv_line("verdict", "contained%s%s", why ? ": " : "",
			 why ? why : "");
	else if (v == ADV_ESCAPED)
		adv_line("verdict", "ESCAPED: %s", why ? why : "?");
	else
		adv_line("verdict", "cannot-test: %s", why ? why : "?");
	return v;
}

/* open(path, O_WRONLY), write s, close: the bytes written, or -1 (errno
 * the failing call's). */
static inline long adv_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	long r;
	int e;

	if (fd < 0)
		return -1;
	r = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return r;
}

/* Controls: "control: WHAT: ok", or what the call gave; the failures
 * counted in adv_control_failed.  ADV_OK runs the call before it reads
 * errno (a function's arguments have no order); ADV_ERR wants errno E. */
static int adv_control_failed;

static inline void adv_control(const char *what, bool good, long r, int e)
{
	dprintf(STDOUT_FILENO, "control: %s: %s\n", what, good ? "ok" : adv_ret(r, e, (char[96]){0}, 96));
	adv_control_failed += !good;
}

#define ADV_OK(what, call) \
	do { long r_ = (long)(call); adv_control((what), r_ >= 0, r_, errno); } while (0)
#define ADV_ERR(what, call, e) \
	do { long r_ = (long)(call); int e_ = errno; \
	     adv_control((what), r_ < 0 && e_ == (e), r_, e_); } while (0)

/* The controls' last line: 0 if every one worked. */
static inline int adv_control_end(void)
{
	dprintf(STDOUT_FILENO, "control: %s\n", adv_control_failed ? "FAILED" : "all worked");
	return adv_control_failed ? 1 : 0;
}

/* A field of /proc/<pid>/status ("TracerPid", "CapEff"), or NULL. */
static inline char *adv_status_field(const char *pid, const char *name,
				     char *out, size_t n)
{
	char path[64], line[256];
	size_t len = strlen(name);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, len) == 0 && line[len] == ':') {
			char *v = line + len + 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(out, n, "%s", v);
			fclose(f);
			return out;
		}
	}
	fclose(f);
	return NULL;
}

/* The path guard's mapping in this process (its /proc/self/maps line in
 * line, if not NULL): 0 with *start and *len set, or -1. */
static inline int adv_find_guard(char **start, size_t *len, char *line,
				 size_t n)
{
	char buf[512];
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long a, b;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		if (strstr(buf, "sysward-pathguard") &&
		    sscanf(buf, "%lx-%lx", &a, &b) == 2) {
			*start = (char *)a;
			*len = b - a;
			if (line)
				snprintf(line, n, "%s", strtok(buf, "\n"));
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

#endif
