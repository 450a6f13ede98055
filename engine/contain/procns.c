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
 * namespace of its own with every mount a slave (the host's mounts still
 * propagate in; nothing propagates out: nsbox.c, the session's
 * namespaces, of which this is one step) and mounts a new
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
 * The mount table is read in the parent (the launch child makes only
 * async-signal-safe calls): sw_procns_plan_table().  A mount added beneath
 * /proc between that read and the child's overmount is left hidden under
 * the new instance; the child checks that each path still shows the
 * mount the plan names, so a mount added over one fails the launch
 * rather than be left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "contain/procns.h"

/* A procfs mount that shows processes: its root is "/" or a pid's. */
static bool shows_pids(const struct sw_mnt *m)
{
	return !strcmp(m->fstype, "proc") &&
	       (!strcmp(m->root, "/") || (m->root[1] >= '0' && m->root[1] <= '9'));
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

static int plan_table(const struct sw_mnt_table *tab, struct sw_procns *p,
		      struct sw_error *err)
{
	const struct sw_mnt *t = tab->m;
	size_t n = tab->n;

	for (size_t i = 0; i < n; i++) {
		struct sw_procns_proc *pp;

		/* The instances that show processes and are seen: their
		 * root is "/" and nothing is mounted over them. */
		if (strcmp(t[i].fstype, "proc") || strcmp(t[i].root, "/") ||
		    sw_mnt_covered(tab, i))
			continue;
		if (p->n_proc == SW_PROCNS_MAX)
			return sw_error_set(err, E2BIG, "more than %d proc mounts to replace", SW_PROCNS_MAX);
		pp = &p->proc[p->n_proc];
		*pp = (struct sw_procns_proc){
			.path = strdup(t[i].point),
			.flags = t[i].flags,
			.subset_pid = strstr(t[i].super, "subset=pid") != NULL,
			.first_sub = p->n_sub,
		};
		if (!pp->path)
			return -ENOMEM;
		p->n_proc++;
		/* Its submounts, in the table's (mount) order, so that one
		 * mounted over another goes back over it. */
		for (size_t j = 0; j < n; j++) {
			size_t top;

			if (t[j].parent != t[i].id || j == i || sw_mnt_hidden(tab, j))
				continue;
			/* What the path shows is what is cloned (and what
			 * the child checks): the top of a stack there. */
			top = sw_mnt_stack_top(tab, j);
			if (shows_pids(&t[top]))
				return sw_error_set(err, EPERM,
						    "%s, beneath %s, is a proc mount that shows processes (root %s); putting it back would show the session the processes outside it. Unmount it, or bind a subdirectory that is not a process's",
						    t[top].point, pp->path, t[top].root);
			if (p->n_sub == SW_PROCNS_MAX_SUB)
				return sw_error_set(err, E2BIG,
						    "more than %d mounts beneath %s to put back over the session's own /proc",
						    SW_PROCNS_MAX_SUB, pp->path);
			p->sub[p->n_sub] = (struct sw_procns_sub){
				.path = strdup(t[j].point),
				.mnt_id = t[top].id,
			};
			if (!p->sub[p->n_sub].path)
				return -ENOMEM;
			p->n_sub++;
			pp->n_sub++;
		}
	}
	return 0;
}

int sw_procns_plan_table(const struct sw_mnt_table *t, struct sw_procns *ret,
			 struct sw_error *err)
{
	struct sw_procns p = { 0 };
	int r;

	p.proc = calloc(SW_PROCNS_MAX, sizeof(*p.proc));
	p.sub = calloc(SW_PROCNS_MAX_SUB, sizeof(*p.sub));
	r = p.proc && p.sub ? plan_table(t, &p, err) : -ENOMEM;
	if (r < 0) {
		sw_procns_free(&p);
		if (r == -ENOMEM)
			return sw_error_set_errno(err, ENOMEM, "plan the session's own /proc");
		return r;
	}
	*ret = p;
	return 0;
}

int sw_procns_plan_from(const char *mountinfo, struct sw_procns *ret,
			struct sw_error *err)
{
	struct sw_mnt_table t;
	int r;

	r = sw_mnt_table_read(mountinfo, &t, err);
	if (r < 0)
		return r;
	r = sw_procns_plan_table(&t, ret, err);
	sw_mnt_table_free(&t);
	return r;
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

/* A mask whose file was unlinked after it was mounted (systemd-nspawn
 * mounts a FIFO over /proc/kmsg and removes it; a runtime may do the same
 * with any file) cannot be attached again: the kernel refuses to mount an
 * unlinked dentry anywhere (ENOENT), moved or bound.  Its copy goes in
 * its place: a node of the same type, mode and owner on a tmpfs of its
 * own that no path reaches, with the regular file's content (at most
 * SW_PROCNS_COPY_MAX bytes) and the mask's read-only, nosuid, nodev and
 * noexec flags.  It hides the proc file beneath as the original did; a
 * peer that held the original open (nspawn reads its FIFO) no longer
 * sees what the program writes there.  Any other type fails: a mask is
 * never lifted. */
/* "/proc/self/fd/N" without snprintf (not async-signal-safe). */
static const char *fd_path(int fd, char buf[static 32])
{
	char digits[12];
	size_t n = 0, o = sizeof("/proc/self/fd/") - 1;

	memcpy(buf, "/proc/self/fd/", o);
	do
		digits[n++] = (char)('0' + fd % 10);
	while ((fd /= 10) > 0 && n < sizeof(digits));
	while (n > 0)
		buf[o++] = digits[--n];
	buf[o] = '\0';
	return buf;
}

/* The directory path is in, into buf: "/proc" for "/proc/kmsg". */
static int parent_of(const char *path, char *buf, size_t size)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] != '/')
		n--;
	if (n > 1)
		n--;	/* the '/' itself, unless it is the root */
	if (n == 0 || n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n);
	buf[n] = '\0';
	return 0;
}

static int copy_mask(int from, const char *path)
{
	char buf[4096], self[32], dir[PATH_MAX];
	struct statfs sfs;
	struct stat st;
	int fs = -1, mnt = -1, node = -1, src = -1, dst = -1, r = 0;
	uint64_t attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC;
	size_t total = 0;
	ssize_t n;

	/* fstatfs, not fstatvfs: glibc's may read /proc/mounts (malloc). */
	if (fstat(from, &st) < 0 || fstatfs(from, &sfs) < 0)
		return -errno;
	if (sfs.f_flags & ST_RDONLY)
		attr |= MOUNT_ATTR_RDONLY;
	if (!S_ISFIFO(st.st_mode) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return -EOPNOTSUPP;
	fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0 || fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		goto fail;
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					    MOUNT_ATTR_NOEXEC);
	if (mnt < 0)
		goto fail;
	if (S_ISFIFO(st.st_mode)) {
		if (mknodat(mnt, "m", S_IFIFO | 0600, 0) < 0)
			goto fail;
	} else if (S_ISDIR(st.st_mode)) {
		if (mkdirat(mnt, "m", 0700) < 0)
			goto fail;
	} else {
		/* The original's content, through the clone (its mount
		 * still reaches the unlinked inode).  A FIFO is never
		 * opened: that would wait for a writer. */
		src = open(fd_path(from, self), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		dst = openat(mnt, "m", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (src < 0 || dst < 0)
			goto fail;
		while ((n = read(src, buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				goto fail;
			total += (size_t)n;
			if (total > SW_PROCNS_COPY_MAX) {
				errno = EFBIG;
				goto fail;
			}
			if (write(dst, buf, (size_t)n) != n)
				goto fail;
		}
	}
	/* Owner first: chown clears the set-id bits chmod sets. */
	if (fchownat(mnt, "m", st.st_uid, st.st_gid, AT_SYMLINK_NOFOLLOW) < 0 ||
	    fchmodat(mnt, "m", st.st_mode & 07777, 0) < 0)
		goto fail;
	/* Linux before 6.15 clones only a mount of the caller's namespace
	 * (open_tree() of a detached one: EINVAL; measured on 6.12): the
	 * tmpfs is attached for a moment over the mask's parent directory,
	 * the node cloned from there, and the tmpfs taken away again. */
	if (parent_of(path, dir, sizeof(dir)) < 0)
		goto fail;
	if (move_mount(mnt, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		goto fail;
	node = open_tree(mnt, "m", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (umount2(dir, MNT_DETACH) < 0)
		goto fail;
	if (node < 0 ||
	    mount_setattr(node, "", AT_EMPTY_PATH,
			  &(struct mount_attr){ .attr_set = attr },
			  sizeof(struct mount_attr)) < 0 ||
	    move_mount(node, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		goto fail;
	goto out;
fail:
	r = -errno;
out:
	for (int *fd = (int[]){ fs, mnt, node, src, dst }, k = 0; k < 5; k++)
		if (fd[k] >= 0)
			close(fd[k]);
	return r;
}

static int put_back(int from, const char *path, int *step)
{
	struct stat st;

	*step = SW_NSBOX_PROC_PUT_BACK;
	if (move_mount(from, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH) == 0)
		return 0;
	/* ENOENT for an unlinked source (nlink 0), which is the kernel's
	 * rule; for a path missing in the new instance, a failure. */
	if (errno != ENOENT || fstat(from, &st) < 0 || st.st_nlink != 0)
		return -errno;
	*step = SW_NSBOX_PROC_COPY;
	return copy_mask(from, path);
}

int sw_procns_check(const struct sw_procns *p, struct sw_nsbox_where *where)
{
	/* Each path must still show the mount the plan names, not one
	 * mounted over it since.  Here: a new namespace renumbers them. */
	for (size_t s = 0; s < p->n_sub; s++) {
		uint64_t id = 0;
		int r;

		*where = (struct sw_nsbox_where){ SW_NSBOX_PROC_CHECK, (int)s };
		r = mount_id_of(p->sub[s].path, &id);
		if (r < 0)
			return r;
		if (id != (uint64_t)p->sub[s].mnt_id)
			return -EBUSY;
	}
	*where = (struct sw_nsbox_where){ SW_NSBOX_NONE, -1 };
	return 0;
}

int sw_procns_mount(const struct sw_procns *p, struct sw_nsbox_where *where)
{
	int fds[SW_PROCNS_MAX_SUB];
	int r = 0;

	for (size_t s = 0; s < p->n_sub; s++)
		fds[s] = -1;
	for (size_t i = 0; i < p->n_proc && r == 0; i++) {
		const struct sw_procns_proc *pp = &p->proc[i];
		size_t s, end = pp->first_sub + pp->n_sub;

		for (s = pp->first_sub; s < end && r == 0; s++) {
			*where = (struct sw_nsbox_where){ SW_NSBOX_PROC_CLONE, (int)s };
			fds[s] = open_tree(AT_FDCWD, p->sub[s].path,
					   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					   AT_RECURSIVE | AT_SYMLINK_NOFOLLOW |
					   AT_NO_AUTOMOUNT);
			if (fds[s] < 0)
				r = -errno;
		}
		if (r < 0)
			break;
		*where = (struct sw_nsbox_where){ SW_NSBOX_PROC_MOUNT, (int)i };
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
		for (s = pp->first_sub; s < end && r == 0; s++) {
			r = put_back(fds[s], p->sub[s].path, &where->step);
			where->index = (int)s;
		}
	}
	for (size_t s = 0; s < p->n_sub; s++)
		if (fds[s] >= 0)
			close(fds[s]);
	if (r == 0)
		*where = (struct sw_nsbox_where){ SW_NSBOX_NONE, -1 };
	return r;
}

/* The parent's words for where the child failed (one home: the launch
 * report carries only the step and the index): the mount's path goes
 * between the two halves. */
static const struct {
	const char *before, *after;
} step_words[] = {
	[SW_NSBOX_PROC_CHECK] = { "", " shows another mount than when the mount table was read (something was mounted there meanwhile; start it again)" },
	[SW_NSBOX_PROC_CLONE] = { "copy the mount at ", " (open_tree) to put it back over the new proc instance" },
	[SW_NSBOX_PROC_MOUNT] = { "mount a proc instance with hidepid=ptraceable over ", "" },
	[SW_NSBOX_PROC_PUT_BACK] = { "put the mount at ", " back over the new proc instance (move_mount); a mask is never lifted" },
	[SW_NSBOX_PROC_COPY] = { "put a copy of the mask at ", ", whose file was removed, over the new proc instance (a FIFO, a regular file of at most 1 MiB or a directory; a mask is never lifted)" },
};

bool sw_procns_explain(const struct sw_procns *p, const struct sw_nsbox_where *w,
		       char *buf, size_t size)
{
	const char *path = NULL;

	if (w->step <= 0 || (size_t)w->step >= sizeof(step_words) / sizeof(step_words[0]) ||
	    !step_words[w->step].before)
		return false;
	if (w->index >= 0 && w->step == SW_NSBOX_PROC_MOUNT && (size_t)w->index < p->n_proc)
		path = p->proc[w->index].path;
	else if (w->index >= 0 && w->step != SW_NSBOX_PROC_MOUNT && (size_t)w->index < p->n_sub)
		path = p->sub[w->index].path;
	snprintf(buf, size, "give it a /proc of its own: %s%s%s", step_words[w->step].before,
		 path ? path : "?", step_words[w->step].after);
	return true;
}
