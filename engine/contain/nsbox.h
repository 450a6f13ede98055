/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's own namespaces and cgroup, planned before the fork and
 * made by the launch child (nsbox.c), and what it plans them with: the
 * mount table (mountinfo.h), its /proc (procns.h), its cgroup
 * (cgroup.h), where a step failed (nsstep.h).
 */
#ifndef SW_ENGINE_NSBOX_H
#define SW_ENGINE_NSBOX_H

#include "internal.h"
#include "contain/cgroup.h"
#include "contain/mountinfo.h"
#include "contain/nsstep.h"
#include "contain/procns.h"

/* ---- nsbox.c: the session's own namespaces (route 16c) ---------------- */

#define SW_NSBOX_MAX_MOUNTS	32	/* new instances over mount points */
#define SW_NSBOX_MAX_RO		32	/* paths made read-only */
#define SW_NSBOX_MAX_OPTS	4	/* options of one new instance */

/* A new instance of fstype mounted over path. */
struct sw_nsbox_mount {
	char *path;
	const char *fstype;	/* a string of nsbox.c's */
	char *opts[SW_NSBOX_MAX_OPTS];	/* "key=value" or "flag" */
	size_t n_opts;
	unsigned int attr;	/* MOUNT_ATTR_* */
};

/* A path made read-only, with everything beneath it: a mount point
 * (sysfs: its own mount, made private too) or a file or directory of
 * /proc (a recursive bind of it, over it). */
struct sw_nsbox_ro {
	char *path;
	bool bind;
};

/* What the launch child makes.  on is false where the launcher lacks
 * CAP_SYS_ADMIN (unprivileged `sysward run`): nothing is made. */
struct sw_nsbox {
	bool on;
	int unshare;		/* CLONE_NEW* */
	struct sw_procns proc;
	struct sw_cgroup_plan cg;
	struct sw_nsbox_ro *ro;
	size_t n_ro;
	struct sw_nsbox_mount *mounts;
	size_t n_mounts;
	/* SW_CONTAINED_* (engine.h): the views of its own this gives the
	 * session, for objects.c's switch (sw_objects_defences_off()) */
	unsigned int contained;
};

/* What the plan takes from the launch. */
struct sw_nsbox_ctx {
	uid_t uid;		/* the program's */
	gid_t gid;
	uint64_t caps;		/* it keeps */
	/* Its standard streams and terminal: a terminal of the launcher's
	 * devpts instance among them keeps that instance (nsbox.c). */
	int fds[4];
	const char *filesystems;	/* /proc/filesystems (tests: a file) */
	const char *ns_dir;	/* /proc/self/ns: the namespaces it has */
	const char *gid_map;	/* /proc/self/gid_map (NULL: all mapped) */
	/* /dev/shm: given a tmpfs of the session's even where it is no
	 * mount point (NULL: not) */
	const char *shm_dir;
	/* The launcher's CAP_SYS_ADMIN is not over its cgroup namespace (a
	 * user namespace's only): no cgroup of the session's, as for an
	 * unprivileged launcher. */
	bool no_cgroup_privilege;
};

/* In the parent, before fork. */
int sw_nsbox_plan(const struct sw_launch *l, struct sw_nsbox *ret,
		  struct sw_error *err);
/* The same from a mount table, whatever this process's capabilities
 * (for tests). */
int sw_nsbox_plan_table(const struct sw_mnt_table *t, const struct sw_nsbox_ctx *ctx,
			struct sw_nsbox *ret, struct sw_error *err);
void sw_nsbox_free(struct sw_nsbox *p);
/* In the launch child, before privileges are dropped: the one entry.
 * Async-signal-safe.  self_fd: sw_cgroup_enter()'s.  0 or -errno with
 * *where set. */
int sw_nsbox_enter(const struct sw_nsbox *p, int hand_fd, int self_fd,
		   int pts_fd, struct sw_nsbox_where *where);
/* The devpts instance of the plan (its first devpts mount), detached
 * (fsmount()): the one the program's terminal is made in, which
 * sw_nsbox_enter() then puts in place of that mount (pts_fd).  -ENOENT
 * when the plan mounts none; else the descriptor or -errno.
 * Async-signal-safe. */
int sw_nsbox_pts_instance(const struct sw_nsbox *p);
/* In the parent: what failed at *where, naming what it was doing. */
void sw_nsbox_explain(const struct sw_nsbox *p, const struct sw_nsbox_where *w,
		      char *buf, size_t size);

#endif
