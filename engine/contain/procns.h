/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's own /proc (procns.c, route 16).
 */
#ifndef SW_ENGINE_PROCNS_H
#define SW_ENGINE_PROCNS_H

#include "internal.h"
#include "contain/mountinfo.h"
#include "contain/nsstep.h"

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

#endif
