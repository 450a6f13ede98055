/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the launch child failed while it made the session's own
 * namespaces and cgroup: a step of nsbox.c, procns.c or cgroup.c, for
 * its report (launchreport.c) and nsbox.c's words.
 */
#ifndef SW_ENGINE_NSSTEP_H
#define SW_ENGINE_NSSTEP_H

#include "internal.h"

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

#endif
