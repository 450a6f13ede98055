// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own /proc (docs/security.md, route 16).
 *
 * The session's Landlock domain (landlock.c) refuses every ptrace-mode
 * access to a task outside it, but some /proc/<pid>/ files of a same-uid
 * task are writable by file ownership alone, with no ptrace-mode check
 * (fs/proc/base.c: oom_score_adj, oom_adj, coredump_filter, sched,
 * autogroup; task_mmu.c: clear_refs).  A procfs instance mounted with
 * hidepid=ptraceable (Linux 5.8+; each mount of procfs is a superblock
 * of its own, with its own options) shows /proc/<pid> only where
 * ptrace_may_access(PTRACE_MODE_READ_FSCREDS) holds, which the domain
 * refuses for every task outside the session: those directories vanish
 * (ENOENT) and the session's own stay as they were.
 *
 * Where the launcher holds CAP_SYS_ADMIN (syswardd, `sysward run` as
 * root), the launch child, before it drops its privileges, makes a mount
 * namespace of its own, turns every mount into a slave (the host's
 * mounts still propagate in; nothing propagates out) and mounts a new
 * proc instance with hidepid=ptraceable over every procfs mount point,
 * with the original's nosuid/nodev/noexec/ro/atime flags.  What was
 * mounted beneath the old instance (binfmt_misc, and in a container the
 * runtime's masks: /dev/null over /proc/kcore, a read-only /proc/sys) is
 * cloned (open_tree OPEN_TREE_CLONE|AT_RECURSIVE) before the overmount
 * and moved back to the same path in the new instance; a mount that
 * cannot be put back fails the launch: a mask is never lifted.
 *
 * The program cannot undo it: umount needs CAP_SYS_ADMIN in the initial
 * user namespace (unless the policy grants it --cap sys_admin), and the
 * mounts a user namespace of its own copies are locked together
 * (MNT_LOCKED).  Without CAP_SYS_ADMIN (unprivileged `sysward run`), or
 * where the kernel refuses a new instance (a container's user namespace:
 * mount_too_revealing), the program keeps the launcher's /proc: the
 * documented limit.
 *
 * The mount table is read here, in the parent (the launch child makes
 * only async-signal-safe calls): sw_procns_plan().  A mount added beneath
 * /proc between that read and the child's overmount is left hidden under
 * the new instance; the child checks that each path still shows the
 * mount the plan names, so a mount added over one fails the launch
 * rather than be left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#define SYS_move_mount 429
#endif

/* One line of /proc/self/mountinfo, the fields we use. */
struct mnt {
	int id, parent;
	char *root, *point, *fstype;
	unsigned long flags;	/* MS_* of the per-mount options */
	bool subset_pid;	/* the superblock shows only pid directories */
};

/* "\040" (space), "\011", "\012", "\134" in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static unsigned long mount_flags(const char *opts)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} f[] = {
		{ "ro", MS_RDONLY },         { "nosuid", MS_NOSUID },
		{ "nodev", MS_NODEV },       { "noexec", MS_NOEXEC },
		{ "noatime", MS_NOATIME },   { "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
	};
	unsigned long flags = 0;
	size_t len;

	for (const char *p = opts; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (strlen(f[i].name) == len && !strncmp(p, f[i].name, len))
				flags |= f[i].flag;
	}
	return flags;
}

/* Parse one mountinfo line (modified in place; m points into it). */
static int parse_line(char *line, struct mnt *m)
{
	char *field[16], *save = NULL;
	int total = 0, n;

	for (char *t = strtok_r(line, " \n", &save); t && total < 16;
	     t = strtok_r(NULL, " \n", &save))
		field[total++] = t;
	/* id parent major:minor root point options [optional...] - type
	 * source superoptions: n, the type's index */
	for (n = 6; n < total && strcmp(field[n], "-"); n++)
		;
	n++;
	if (n + 2 >= total)
		return -EINVAL;
	m->id = atoi(field[0]);
	m->parent = atoi(field[1]);
	m->root = field[3];
	m->point = field[4];
	m->flags = mount_flags(field[5]);
	m->fstype = field[n];
	m->subset_pid = strstr(field[n + 2], "subset=pid") != NULL;
	unescape(m->root);
	unescape(m->point);
	return 0;
}

/* A procfs mount that shows processes: its root is "/" or a pid's. */
static bool shows_pids(const struct mnt *m)
{
	return !strcmp(m->fstype, "proc") &&
	       (!strcmp(m->root, "/") || (m->root[1] >= '0' && m->root[1] <= '9'));
}

static bool covered(const struct mnt *t, size_t n, const struct mnt *m)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].parent == m->id && !strcmp(t[i].point, m->point))
			return true;
	return false;
}

/* A submount of the same parent over a directory above m (a recursive
 * read-only bind of /proc/sys over binfmt_misc, as systemd's
 * ProtectKernelTunables makes; systemd-nspawn's /proc/sys over its own
 * boot_id file) hides m from every path, whichever was attached first:
 * a path walk enters the upper one first.  At m's very path the later
 * one hides it (the table lists a namespace's mounts in the order they
 * were attached).  A hidden mount is cloned with the one that hides it,
 * or not at all. */
static bool hidden(const struct mnt *t, size_t n, size_t m)
{
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(t[k].point);

		if (k == m || t[k].parent != t[m].parent ||
		    strncmp(t[m].point, t[k].point, len))
			continue;
		if (t[m].point[len] == '/' || (t[m].point[len] == '\0' && k > m))
			return true;
	}
	return false;
}

void sw_procns_free(struct sw_procns *p)
{
	for (size_t i = 0; i < p->n_proc; i++)
		free(p->proc[i].path);
	for (size_t i = 0; i < p->n_sub; i++)
		free(p->sub[i].path);
	free(p->proc);
	free(p->sub);
	*p = (struct sw_procns){ 0 };
}

static int plan_table(struct mnt *t, size_t n, struct sw_procns *p,
		      struct sw_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct sw_procns_proc *pp;

		/* The instances that show processes and are seen: their
		 * root is "/" and nothing is mounted over them. */
		if (strcmp(t[i].fstype, "proc") || strcmp(t[i].root, "/") ||
		    covered(t, n, &t[i]))
			continue;
		if (p->n_proc == SW_PROCNS_MAX)
			return sw_error_set(err, E2BIG, "more than %d proc mounts to replace", SW_PROCNS_MAX);
		pp = &p->proc[p->n_proc];
		*pp = (struct sw_procns_proc){
			.path = strdup(t[i].point),
			.flags = t[i].flags,
			.subset_pid = t[i].subset_pid,
			.first_sub = p->n_sub,
		};
		if (!pp->path)
			return -ENOMEM;
		p->n_proc++;
		/* Its submounts, in the table's (mount) order, so that one
		 * mounted over another goes back over it. */
		for (size_t j = 0; j < n; j++) {
			if (t[j].parent != t[i].id || j == i || hidden(t, n, j))
				continue;
			if (shows_pids(&t[j]))
				return sw_error_set(err, EPERM,
						    "%s, beneath %s, is a proc mount that shows processes (root %s); putting it back would show the session the processes outside it. Unmount it, or bind a subdirectory that is not a process's",
						    t[j].point, pp->path, t[j].root);
			if (p->n_sub == SW_PROCNS_MAX_SUB)
				return sw_error_set(err, E2BIG,
						    "more than %d mounts beneath %s to put back over the session's own /proc",
						    SW_PROCNS_MAX_SUB, pp->path);
			p->sub[p->n_sub] = (struct sw_procns_sub){
				.path = strdup(t[j].point),
				.mnt_id = t[j].id,
			};
			if (!p->sub[p->n_sub].path)
				return -ENOMEM;
			p->n_sub++;
			pp->n_sub++;
		}
	}
	return 0;
}

int sw_procns_plan_from(const char *mountinfo, struct sw_procns *ret,
			struct sw_error *err)
{
	cleanup_fclose FILE *f = fopen(mountinfo, "re");
	cleanup_free struct mnt *t = NULL;
	cleanup_free char *lines = NULL;
	struct sw_procns p = { 0 };
	size_t n = 0, used = 0, lcap = 0;
	char *line = NULL;
	size_t llen = 0;
	ssize_t len;
	int r;

	if (!f)
		return sw_error_set_errno(err, errno, "open %s (to give the session its own /proc)", mountinfo);
	/* Read it whole first: the struct mnt fields point into lines. */
	while ((len = getline(&line, &llen, f)) > 0) {
		if (used + (size_t)len + 1 > lcap) {
			char *nl = realloc(lines, lcap = 2 * (used + (size_t)len + 1));

			if (!nl) {
				free(line);
				return sw_error_set_errno(err, ENOMEM, "read %s", mountinfo);
			}
			lines = nl;
		}
		memcpy(lines + used, line, (size_t)len + 1);
		used += (size_t)len + 1;
		n++;
	}
	free(line);
	t = calloc(n ? n : 1, sizeof(*t));
	p.proc = calloc(SW_PROCNS_MAX, sizeof(*p.proc));
	p.sub = calloc(SW_PROCNS_MAX_SUB, sizeof(*p.sub));
	if (!t || !p.proc || !p.sub) {
		sw_procns_free(&p);
		return sw_error_set_errno(err, ENOMEM, "plan the session's own /proc");
	}
	for (size_t off = 0, i = 0; i < n; i++) {
		char *l = lines + off;

		off += strlen(l) + 1;
		if (parse_line(l, &t[i]) < 0) {
			sw_procns_free(&p);
			return sw_error_set(err, EINVAL, "%s: cannot parse line %zu", mountinfo, i + 1);
		}
	}
	r = plan_table(t, n, &p, err);
	if (r < 0) {
		sw_procns_free(&p);
		if (r == -ENOMEM)
			return sw_error_set_errno(err, ENOMEM, "plan the session's own /proc");
		return r;
	}
	*ret = p;
	return 0;
}

int sw_procns_plan(struct sw_procns *ret, struct sw_error *err)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	*ret = (struct sw_procns){ 0 };
	if (!caps)
		return sw_error_set_errno(err, errno, "read this process's capabilities");
	(void)cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &v);
	cap_free(caps);
	/* Without it no mount namespace can be made: today's /proc. */
	if (v != CAP_SET)
		return 0;
	return sw_procns_plan_from("/proc/self/mountinfo", ret, err);
}

/* Async-signal-safe from here on: the launch child. */

static int mount_id_of(const char *path, uint64_t *ret)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		  STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	*ret = stx.stx_mnt_id;
	return 0;
}

int sw_procns_enter(const struct sw_procns *p)
{
	int fds[SW_PROCNS_MAX_SUB];
	int r = 0;

	if (!p->n_proc)
		return 0;
	/* Each path must still show the mount the plan names, not one
	 * mounted over it since.  Here: a new namespace renumbers them. */
	for (size_t s = 0; s < p->n_sub; s++) {
		uint64_t id = 0;

		r = mount_id_of(p->sub[s].path, &id);
		if (r < 0)
			return r;
		if (id != (uint64_t)p->sub[s].mnt_id)
			return -EBUSY;
	}
	if (unshare(CLONE_NEWNS) < 0)
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return -errno;
	for (size_t s = 0; s < p->n_sub; s++)
		fds[s] = -1;
	for (size_t i = 0; i < p->n_proc && r == 0; i++) {
		const struct sw_procns_proc *pp = &p->proc[i];
		size_t s, end = pp->first_sub + pp->n_sub;

		for (s = pp->first_sub; s < end && r == 0; s++) {
			fds[s] = (int)syscall(SYS_open_tree, AT_FDCWD, p->sub[s].path,
					      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					      AT_RECURSIVE | AT_SYMLINK_NOFOLLOW |
					      AT_NO_AUTOMOUNT);
			if (fds[s] < 0)
				r = -errno;
		}
		if (r < 0)
			break;
		if (mount("proc", pp->path, "proc", pp->flags,
			  pp->subset_pid ? "hidepid=ptraceable,subset=pid"
					 : "hidepid=ptraceable") < 0) {
			r = -errno;
			/* The kernel will not give us an instance (a
			 * container's user namespace: mount_too_revealing):
			 * today's /proc, as without CAP_SYS_ADMIN. */
			if (r == -EPERM && i == 0)
				r = 0;
			break;
		}
		for (s = pp->first_sub; s < end && r == 0; s++)
			if (syscall(SYS_move_mount, fds[s], "", AT_FDCWD,
				    p->sub[s].path, MOVE_MOUNT_F_EMPTY_PATH) < 0)
				r = -errno;
	}
	for (size_t s = 0; s < p->n_sub; s++)
		if (fds[s] >= 0)
			close(fds[s]);
	return r;
}
