// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The uid's kernel objects outside the session (docs/security.md, route
 * 19): what a confined program may reach of the objects the kernel lets
 * any process of its uid act on without a ptrace-mode check, and so
 * without its Landlock domain (route 16) standing in the way.
 *
 *   - Files written through an open of kernel objects: another process's
 *     /proc/<pid> files (oom_score_adj, coredump_filter, clear_refs,
 *     sched, autogroup: fs/proc/base.c checks the file's owner, the
 *     target's euid), sysctls (/proc/sys: proc_sys_permission() checks
 *     the mode bits against the uid alone, so uid 0 without any
 *     capability writes kernel.core_pattern), cgroupfs (systemd delegates
 *     user@UID.service to the uid: cgroup.kill, cgroup.freeze,
 *     cgroup.procs of its terminals and agents), sysfs and the other
 *     kernel file systems (kernfs and friends check the mode bits).  An
 *     open that can write is sent here by the defence filter and checked
 *     on what it opened, the descriptor it returns (resultcheck.c), not on
 *     the string: fs_rules[] says which file systems hold such objects, and
 *     a procfs file is the session's only if it is a file of a pid
 *     directory of one of its tracees.
 *
 * Where the session has a view of its own (a namespace: its own /proc,
 * ...), the defence that stands in for it is off:
 * sw_objects_defences_off(), read by program.c (the filter's rules) and
 * so by everything that reads prog->defences.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "sysward/proc.h"
#include "internal.h"
#include "sys.h"

/* Magic numbers <linux/magic.h> of this libc's kernel headers may lack. */
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC		0x74726163
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC		0xcafe4a11
#endif
#ifndef EFIVARFS_MAGIC
#define EFIVARFS_MAGIC		0xde5e81e4
#endif
#ifndef PSTOREFS_MAGIC
#define PSTOREFS_MAGIC		0x6165676C
#endif
#define SW_CONFIGFS_MAGIC	0x62656570	/* fs/configfs/mount.c */
#define SW_FUSECTL_MAGIC	0x65735543	/* fs/fuse/control.c */
#define SW_PROC_ROOT_INO	1		/* fs/proc/root.c */

/* ---- the switch ----------------------------------------------------------- */

unsigned int sw_objects_defences_off(unsigned int contained)
{
	unsigned int off = 0;
	const unsigned int views = SW_CONTAINED_PIDS | SW_CONTAINED_SYSCTL |
				   SW_CONTAINED_SYSFS | SW_CONTAINED_CGROUP;

	/* Every file system whose objects fs_rules[] refuses is the
	 * session's own: no open needs a look. */
	if ((contained & views) == views)
		off |= SW_DEFENCE_OBJECT_OPENS;
	return off;
}

/* ---- a session's objects ---------------------------------------------------- */

struct sw_objects {
	/* the device of the supervisor's /proc, read once */
	dev_t proc_dev;
	bool proc_dev_known;
};

struct sw_objects *sw_objects_new(void)
{
	return calloc(1, sizeof(struct sw_objects));
}

void sw_objects_free(struct sw_objects *o)
{
	free(o);
}

/* ---- opens that can write: the object opened ------------------------------ */

enum fs_what {
	FS_PROC,	/* a pid directory's file of the session, or refused */
	FS_KERNEL,	/* the kernel's objects: refused */
};

/*
 * The file systems whose files are kernel objects rather than the uid's
 * data, and which of the session's own views (SW_CONTAINED_*) makes them
 * its own.  Everything else (ext4, tmpfs, ...) is the uid's files: the
 * policy's path rules and the file system's permissions decide (route 16
 * says why the file system is not this defence's).
 */
static const struct fs_rule {
	unsigned long magic;
	const char *name;
	enum fs_what what;
	unsigned int contained;
	const char *why;
} fs_rules[] = {
	{ PROC_SUPER_MAGIC, "procfs", FS_PROC, 0,
	  "a write to a /proc file of no process of the session (another process's, a sysctl) refused" },
	{ CGROUP_SUPER_MAGIC, "cgroup", FS_KERNEL, SW_CONTAINED_CGROUP,
	  "a write to cgroupfs refused: its cgroups are shared with processes outside the session" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2", FS_KERNEL, SW_CONTAINED_CGROUP,
	  "a write to cgroupfs refused: its cgroups are shared with processes outside the session" },
	{ SYSFS_MAGIC, "sysfs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to sysfs refused" },
	{ DEBUGFS_MAGIC, "debugfs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to debugfs refused" },
	{ TRACEFS_MAGIC, "tracefs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to tracefs refused" },
	{ SECURITYFS_MAGIC, "securityfs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to securityfs refused" },
	{ SW_CONFIGFS_MAGIC, "configfs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to configfs refused" },
	{ BPF_FS_MAGIC, "bpf", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to the bpf file system refused" },
	{ EFIVARFS_MAGIC, "efivarfs", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to efivarfs refused" },
	{ PSTOREFS_MAGIC, "pstore", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to pstore refused" },
	{ BINFMTFS_MAGIC, "binfmt_misc", FS_KERNEL, SW_CONTAINED_SYSCTL,
	  "a write to binfmt_misc refused" },
	{ SW_FUSECTL_MAGIC, "fusectl", FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to fusectl refused: it aborts the uid's FUSE connections" },
};

static const struct fs_rule *fs_rule_of(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(fs_rules) / sizeof(fs_rules[0]); i++)
		if (fs_rules[i].magic == magic)
			return &fs_rules[i];
	return NULL;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool tracee_of(struct sw_supervisor *sup, struct sw_session *s, long pid)
{
	struct sw_tracee *x;

	if (pid <= 0 || pid > INT_MAX)
		return false;
	x = sw_tracee_find(sup, (pid_t)pid);
	return x && x->s == s;
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
static bool proc_file_of_session(struct sw_supervisor *sup, struct sw_session *s,
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
			       (tracee_of(sup, s, n) || tracee_of(sup, s, owner_in(n, rest)));
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
static bool foreign_proc_pid_file(pid_t tid, const struct stat *st,
				  const char *link)
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

static dev_t proc_dev(struct sw_objects *o)
{
	struct stat st;

	if (!o->proc_dev_known && sw_sys_stat("/proc", &st) == 0) {
		o->proc_dev = st.st_dev;
		o->proc_dev_known = true;
	}
	return o->proc_dev;
}

/*
 * The descriptor fd of tid, the result of an open that can write: 0 if
 * the session may keep it, else the errno its open fails with (*why).
 * Decided on the file the descriptor holds, which resultcheck.c keeps
 * from changing meanwhile.
 */
static int fd_verdict(struct sw_supervisor *sup, struct sw_tracee *t, int fd,
		      const char **why)
{
	struct sw_session *s = t->s;
	const struct sw_program *prog = s->prog;
	char path[64], link[PATH_MAX];
	const struct fs_rule *rule;
	struct statfs sfs;
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, fd);
	if (sw_sys_statfs(path, &sfs) < 0) {
		*why = "cannot tell what an open that can write opened (statfs of its descriptor failed)";
		return EACCES;
	}
	rule = fs_rule_of((unsigned long)sfs.f_type);
	if (!rule || (rule->contained && (prog->contained & rule->contained)))
		return 0;
	*why = rule->why;
	if (rule->what == FS_KERNEL)
		return EACCES;
	if (sw_sys_stat(path, &st) < 0) {
		*why = "cannot tell what an open that can write opened (stat of its descriptor failed)";
		return EACCES;
	}
	/* procfs */
	n = sw_sys_readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return EACCES;
	link[n] = '\0';
	if (st.st_dev == proc_dev(s->objects)) {
		if ((prog->contained & SW_CONTAINED_PIDS) &&
		    (prog->contained & SW_CONTAINED_SYSCTL))
			return 0;
		return proc_file_of_session(sup, s, &st, link) ? 0 : EACCES;
	}
	return foreign_proc_pid_file(t->pid, &st, link) ? 0 : EACCES;
}

/* ---- opens that can write ------------------------------------------------- */

static bool is(const struct sw_program *prog, enum sw_abi abi, enum sw_def_sys s,
	       uint64_t nr)
{
	return prog->sys[abi][s] >= 0 && (uint64_t)prog->sys[abi][s] == nr;
}

static bool open_can_write(uint64_t flags)
{
	if (flags & O_PATH)
		return false;
	return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

static void open_contain(struct sw_tracee *t, const struct sw_program *prog,
			 enum sw_abi abi, struct sw_decision *d)
{
	uint64_t nr = d->nr;
	int flags_arg;

	if (is(prog, abi, SW_SYS_OPEN, nr))
		flags_arg = 1;
	else if (is(prog, abi, SW_SYS_OPENAT, nr) || is(prog, abi, SW_SYS_OPEN_BY_HANDLE_AT, nr))
		flags_arg = 2;
	else if (is(prog, abi, SW_SYS_CREAT, nr))
		flags_arg = -1;		/* O_CREAT | O_WRONLY | O_TRUNC */
	else if (is(prog, abi, SW_SYS_OPENAT2, nr))
		flags_arg = -2;		/* in memory: the result's mode counts */
	else
		return;
	if (flags_arg >= 0 && !open_can_write(d->args[flags_arg]))
		return;
	/* (filter.c's exception, for a stop some other rule made) */
	if (flags_arg >= 0 && prog->excl_creates_new &&
	    (d->args[flags_arg] & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return;
	if (sw_rc_want(t, SW_RC_OPEN, abi, d) < 0) {
		sw_refuse(d, ENOMEM, "out of memory to check an open");
		return;
	}
	t->rc->flags_arg = (int8_t)flags_arg;
}

/* ---- at the SECCOMP stop -------------------------------------------------- */

void sw_objects_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d)
{
	const struct sw_program *prog = t->s->prog;

	(void)sup;
	if (!(prog->defences & SW_DEFENCE_OBJECT_OPENS) || !t->s->objects ||
	    abi == SW_ABI_NONE ||
	    (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE))
		return;
	open_contain(t, prog, abi, d);
}

/* ---- on the result ---------------------------------------------------------- */

enum sw_rc_next sw_objects_result(struct sw_supervisor *sup, struct sw_tracee *t,
				  struct sw_rc *rc, int64_t rval,
				  struct sw_rc_out *out)
{
	const char *why = NULL;
	int e;

	switch (rc->kind) {
	case SW_RC_OPEN:
		if (rval < 0)
			return SW_RC_KEEP;
		if (rc->flags_arg == -2) {
			/* openat2: the descriptor's mode, not the flags the
			 * program's memory held when read. */
			char path[64];
			long fl;

			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", t->pid, (int)rval);
			if (sw_reach_proc_field(path, "flags", 8, 0, &fl) &&
			    !open_can_write((uint64_t)fl & ~(uint64_t)(O_CREAT | O_TRUNC)))
				return SW_RC_KEEP;
		}
		e = fd_verdict(sup, t, (int)rval, &why);
		if (!e)
			return SW_RC_KEEP;
		out->fd = (int)rval;
		out->value = -e;
		out->why = why;
		return SW_RC_CLOSE;
	}
	return SW_RC_KEEP;
}
