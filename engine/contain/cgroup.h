/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's own cgroup (cgroup.c, route 16c).
 */
#ifndef SW_ENGINE_CGROUP_H
#define SW_ENGINE_CGROUP_H

#include "internal.h"
#include "contain/nsstep.h"

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

#endif
