// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/proc.h"

ssize_t sw_proc_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	while (got < size - 1 &&
	       ((n = read(fd, buf + got, size - 1 - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	if (n < 0)
		n = -errno;
	close(fd);
	buf[got] = '\0';
	return n < 0 ? n : (ssize_t)got;
}

const char *sw_proc_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *l = text;

	while (l && *l) {
		if (strncmp(l, key, n) == 0 && l[n] == ':')
			return l + n + 1;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return NULL;
}

bool sw_proc_number(const char *text, const char *key, int base,
		    unsigned int index, long *ret)
{
	const char *p = sw_proc_field(text, key);
	char *end;

	if (!p)
		return false;
	for (unsigned int i = 0;; i++) {
		long v = strtol(p, &end, base);

		/* The value ends at its line's end (strtol skips '\n'). */
		if (end == p || memchr(p, '\n', (size_t)(end - p)))
			return false;
		if (i == index) {
			*ret = v;
			return true;
		}
		p = end;
	}
}

int sw_proc_count(const char *text, const char *key)
{
	const char *p = sw_proc_field(text, key);
	char *end;
	int n = 0;

	if (!p)
		return -1;
	for (;; n++, p = end) {
		strtol(p, &end, 10);
		if (end == p || memchr(p, '\n', (size_t)(end - p)))
			return n;
	}
}

int sw_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], text[SW_PROC_TEXT_MAX];
	ssize_t n;
	long t = 0, pp = 0;

	*tgid = *ppid = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	n = sw_proc_read(path, text, sizeof(text));
	if (n < 0)
		return (int)n;
	sw_proc_number(text, "Tgid", 10, 0, &t);
	sw_proc_number(text, "PPid", 10, 0, &pp);
	*tgid = (pid_t)t;
	*ppid = (pid_t)pp;
	return t ? 0 : -ESRCH;
}
