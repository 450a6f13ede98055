// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Whether a procfs file is the session's (route 20): a file of a pid
 * directory of one of its tracees, in the supervisor's instance of
 * procfs or in one the program mounted itself.  Told by the file the
 * descriptor holds, never by its name alone.  For objects.c's verdict on
 * an open that can write.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "sys.h"
#include "trace/procfiles.h"
#include "trace/trace.h"

#define SW_PROC_ROOT_INO	1		/* fs/proc/root.c */

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* "/proc/<n>/<rest>": n, and rest in *rest. */
static long proc_pid_of(const char *path, const char **rest)
{
	const char *p = path;
	long n = 0;

	if (strncmp(p, "/proc/", 6))
		return -1;
	p += 6;
	if (*p < '1' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && n < INT_MAX)
		n = n * 10 + (*p++ - '0');
	if (*p != '/')
		return -1;
	*rest = p + 1;
	return n;
}

/* A file of /proc/<pid>/net is the network namespace's, not the
 * process's (the host's /proc/net, for a process in it). */
static bool of_netns(const char *rest)
{
	return !strncmp(rest, "net/", 4) ||
	       (!strncmp(rest, "task/", 5) && strstr(rest, "/net/"));
}

/* Whose pid directory is rest's under /proc/<n>: n, or the thread of
 * "task/<m>/...". */
static long owner_in(long n, const char *rest)
{
	long m = 0;

	if (strncmp(rest, "task/", 5))
		return n;
	for (rest += 5; *rest >= '0' && *rest <= '9' && m < INT_MAX; rest++)
		m = m * 10 + (*rest - '0');
	return *rest == '/' && m > 0 ? m : n;
}

/* Is candidate the very file st is, as a file of a tracee of s? */
static bool is_file(const char *candidate, const struct stat *st)
{
	struct stat c;

	return sw_sys_stat(candidate, &c) == 0 && same_file(&c, st);
}

/*
 * A procfs file (st, opened from the supervisor's instance of procfs, as
 * link names it from here): the session's if it is a file of a pid
 * directory of one of its tracees.  The name is only a hint: a bind mount
 * of /proc/<pid> names none, and a number may have been taken by another
 * process since.  What counts is that /proc/<pid>/<rest> of a tracee is
 * this very file (procfs keeps one inode per pid directory entry while it
 * is open).
 */
bool sw_proc_file_of_session(struct sw_supervisor *sup, struct sw_session *s,
			     const struct stat *st, const char *link)
{
	char cand[PATH_MAX + 64];
	const char *rest, *suffix[3];
	size_t n_suffix = 0;
	long n = proc_pid_of(link, &rest);

	if (n > 0) {
		snprintf(cand, sizeof(cand), "/proc/%ld/%s", n, rest);
		if (is_file(cand, st))
			return !of_netns(rest) &&
			       (sw_session_has(sup, s, n) || sw_session_has(sup, s, owner_in(n, rest)));
	}
	/* Another name: try the last components under each tracee's
	 * directories. */
	for (const char *p = link + strlen(link); p > link && n_suffix < 3; p--)
		if (p[-1] == '/' && *p)
			suffix[n_suffix++] = p;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *x = &sup->tab[i];
		pid_t tgid = 0, ppid;

		if (x->pid <= 0 || x->s != s)
			continue;
		(void)sw_sys_proc_ids(x->pid, &tgid, &ppid);
		for (size_t k = 0; k < n_suffix; k++) {
			if (of_netns(suffix[k]))
				continue;
			snprintf(cand, sizeof(cand), "/proc/%d/%s", x->pid, suffix[k]);
			if (is_file(cand, st))
				return true;
			snprintf(cand, sizeof(cand), "/proc/%d/task/%d/%s", tgid, x->pid,
				 suffix[k]);
			if (tgid > 0 && is_file(cand, st))
				return true;
		}
	}
	return false;
}

/*
 * A file of another instance of procfs: one the program mounted itself
 * (unshare -Urpf --mount-proc).  Mounting procfs takes CAP_SYS_ADMIN over
 * the user namespace of the caller's pid namespace, which a program has
 * only for a pid namespace it made: such an instance shows only
 * processes of the session (a process outside joins that namespace only
 * if it is given it).  Its pid directories are the session's; anything
 * else in it (its sys/ is the same sysctls) is not.  Found through the
 * tracee's root: link (as d_path() gives it from here, for a mount not in
 * our tree: the path in the tracee's mount namespace) must lead there to
 * this file, below the instance's root and a pid directory.
 */
bool sw_proc_foreign_pid_file(pid_t tid, const struct stat *st, const char *link)
{
	char root[PATH_MAX + 64];
	struct stat r;

	if (link[0] != '/')
		return false;
	snprintf(root, sizeof(root), "/proc/%d/root%s", tid, link);
	if (!is_file(root, st))
		return false;
	/* Each "<prefix>/<digits>/<rest>" split of link: is prefix the
	 * instance's root? */
	for (const char *p = link; (p = strchr(p, '/')); p++) {
		const char *d = p + 1, *e = d;

		while (*e >= '0' && *e <= '9')
			e++;
		if (e == d || *e != '/' || *d == '0')
			continue;
		snprintf(root, sizeof(root), "/proc/%d/root%.*s", tid,
			 (int)(p - link), link);
		if (sw_sys_stat(p == link ? "/" : root, &r) < 0)
			continue;
		if (p == link)
			snprintf(root, sizeof(root), "/proc/%d/root", tid);
		if (sw_sys_stat(root, &r) == 0 && r.st_dev == st->st_dev &&
		    r.st_ino == SW_PROC_ROOT_INO)
			return !of_netns(e + 1);
	}
	return false;
}
