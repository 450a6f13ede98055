/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's own namespaces and cgroup, planned before the fork and
 * made by the launch child: mountinfo.c, procns.c, cgroup.c, nsbox.c.
 */
#ifndef SW_ENGINE_NSBOX_H
#define SW_ENGINE_NSBOX_H

#include "internal.h"

/* ---- mountinfo.c: a mount table, for the plans below ------------------- */

/* One line of a mountinfo file; the strings point into its table. */
struct sw_mnt {
	int id, parent;
	char *root, *point, *fstype;
	char *super;		/* the superblock's options */
	unsigned long flags;	/* MS_* of the per-mount options */
};

struct sw_mnt_table {
	struct sw_mnt *m;
	size_t n;		/* in the file's order: the order of attaching */
	char *text;
};

int sw_mnt_table_read(const char *mountinfo, struct sw_mnt_table *ret,
		      struct sw_error *err);
void sw_mnt_table_free(struct sw_mnt_table *t);
/* MS_* of a per-mount option list ("rw,nosuid,relatime"). */
unsigned long sw_mnt_flags(const char *opts);
/* Option name in a comma list ("size=10M,mode=1777"): its value (not
 * NUL-terminated: *ret_len bytes; 0 for a bare flag) if present. */
bool sw_mnt_option(const char *opts, const char *name, const char **ret_value,
		   size_t *ret_len);
/* Something mounted over m at its very path. */
bool sw_mnt_covered(const struct sw_mnt_table *t, size_t m);
/* A mount of the same parent over a directory above m, or at m's path
 * after it: no path reaches m. */
bool sw_mnt_hidden(const struct sw_mnt_table *t, size_t m);
/* What a path walk sees at m's mount point: m, or the last of those
 * mounted on top of it there. */
size_t sw_mnt_stack_top(const struct sw_mnt_table *t, size_t m);
/* Neither m nor a mount it is beneath covered or hidden: a path reaches
 * it. */
bool sw_mnt_visible(const struct sw_mnt_table *t, size_t m);

/* ---- nsbox.c's steps: where the launch child failed -------------------- */

/* Where sw_nsbox_enter() failed: a step and the index of what it was
 * doing (a procns.c step: in proc[] for SW_NSBOX_PROC_MOUNT, in sub[]
 * otherwise; nsbox.c's: in its mounts[] or ro[]; -1: none). */
enum sw_nsbox_step {
	SW_NSBOX_NONE,
	SW_NSBOX_PROC_CHECK,	/* sub[i]'s path shows another mount now */
	SW_NSBOX_UNSHARE,	/* the namespaces */
	SW_NSBOX_PROC_CLONE,	/* open_tree of sub[i] */
	SW_NSBOX_PROC_MOUNT,	/* the new instance over proc[i] */
	SW_NSBOX_PROC_PUT_BACK,	/* sub[i] moved over the new instance */
	SW_NSBOX_PROC_COPY,	/* a copy of sub[i], whose file was removed */
	SW_NSBOX_CGROUP_MAKE,	/* the session's cgroup: mkdir */
	SW_NSBOX_CGROUP_HAND,	/* ... handed to the launcher */
	SW_NSBOX_CGROUP_LIMIT,	/* ... its limits */
	SW_NSBOX_CGROUP_DELEGATE, /* ... the program's cgroup, the uid's */
	SW_NSBOX_CGROUP_MOVE,	/* ... the child moved in */
	SW_NSBOX_READ_ONLY,	/* ro[i] made read-only */
	SW_NSBOX_MOUNT,		/* a new instance over mounts[i] */
};

struct sw_nsbox_where {
	int step;		/* enum sw_nsbox_step */
	int index;
};

/* ---- procns.c: the session's own /proc (route 16) ---------------------- */

#define SW_PROCNS_MAX		16	/* procfs instances replaced */
#define SW_PROCNS_MAX_SUB	64	/* mounts beneath them put back */

struct sw_procns_proc {
	char *path;		/* a procfs mount point */
	unsigned long flags;	/* its MS_* flags, for the new instance */
	bool subset_pid;
	size_t first_sub, n_sub;	/* its submounts in sw_procns.sub */
};

struct sw_procns_sub {
	char *path;
	int mnt_id;		/* mountinfo's id: the child checks it */
};

/* What the launch child mounts (part of nsbox.c's plan).  Made before
 * fork (it allocates). */
struct sw_procns {
	struct sw_procns_proc *proc;
	size_t n_proc;
	struct sw_procns_sub *sub;
	size_t n_sub;
};

int sw_procns_plan_table(const struct sw_mnt_table *t, struct sw_procns *ret,
			 struct sw_error *err);
/* The same from a mountinfo file (for tests). */
int sw_procns_plan_from(const char *mountinfo, struct sw_procns *ret,
			struct sw_error *err);
void sw_procns_free(struct sw_procns *p);
/* A mask whose file was removed is put back as a copy; a regular
 * file's content is copied up to this size (procns.c, copy_mask). */
#define SW_PROCNS_COPY_MAX	(1 << 20)	/* "1 MiB" in sw_procns_explain() */

/* In the launch child, async-signal-safe, 0 or -errno with *where set:
 * before its mount namespace, that each path still shows the mount the
 * plan names; in it (nsbox.c made it), the plan's instances. */
int sw_procns_check(const struct sw_procns *p, struct sw_nsbox_where *where);
int sw_procns_mount(const struct sw_procns *p, struct sw_nsbox_where *where);
/* In the parent: what failed at *where (a procns step), naming the
 * mount; false if *where is not one of its steps. */
bool sw_procns_explain(const struct sw_procns *p, const struct sw_nsbox_where *w,
		       char *buf, size_t size);

/* ---- cgroup.c: the session's own cgroup (route 16c) ------------------- */

#define SW_CGROUP_DELEGATE_MAX	8
/* Bounds the launch child sets on the session's cgroup, above the
 * program's (out of its reach), so that removing what the program made
 * below is bounded work: cgroup.max.descendants and cgroup.max.depth.
 * The program's cgroup counts as one. */
#define SW_CGROUP_MAX_DESCENDANTS	1024
#define SW_CGROUP_MAX_DEPTH		32
/* The program's cgroup, below the session's. */
#define SW_CGROUP_PROGRAM	"program"
/* Session cgroups left for a later removal, per supervisor. */
#define SW_CGROUP_PENDING_MAX	64

struct sw_cgroup_plan {
	bool on;		/* make one (the kernel has cgroup namespaces) */
	char name[SW_CGROUP_NAME_MAX];	/* "sysward-session-..." */
	uid_t uid;		/* the program's: its cgroup is the uid's
				 * where the launcher's is (delegated) */
	gid_t gid;
	/* /sys/kernel/cgroup/delegate: the files a delegation hands over */
	char delegate[SW_CGROUP_DELEGATE_MAX][32];
	size_t n_delegate;
};

/* In the parent: the plan (no allocation). */
int sw_cgroup_plan(uid_t uid, gid_t gid, struct sw_cgroup_plan *ret,
		   struct sw_error *err);
/* In the launch child, async-signal-safe: make the session's cgroup
 * below the cgroup the child is in, hand the directory it is in to the
 * launcher over hand_fd (SCM_RIGHTS, before anything else can fail, so
 * that the launcher removes it whatever happens next), and move the
 * child into its program cgroup.  self_fd: its /proc/<pid> directory,
 * opened before it entered a client's root, where /proc may be none
 * (-1: /proc/self).  0, or -errno with *step set (enum sw_nsbox_step). */
int sw_cgroup_enter(const struct sw_cgroup_plan *p, int hand_fd, int self_fd,
		    int *step);

struct msghdr;
/* In the launcher: take the handed-over directory from a message of the
 * launch child (a control message with SCM_RIGHTS): true if it was one. */
bool sw_cgroup_take(struct sw_cgroup *cg, const char *name, struct msghdr *msg);
/* When the session ends (its processes gone): remove its cgroup and what
 * the program made below it.  What holds processes still (none of the
 * session's: something that moved itself in) is killed (cgroup.kill)
 * and the removal retried later by sw_cgroup_retry().  Never blocks. */
void sw_cgroup_release(struct sw_supervisor *sup, struct sw_cgroup *cg);
/* Retry the removals left pending; with wait_ms, until they are done or
 * that much time has passed (the supervisor's end). */
void sw_cgroup_retry(struct sw_supervisor *sup, int wait_ms);

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
