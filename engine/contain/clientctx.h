/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A daemon's client's context, carried over by the launch child
 * (clientctx.c, clientprobe.c; route 14).
 */
#ifndef SW_ENGINE_CLIENTCTX_H
#define SW_ENGINE_CLIENTCTX_H

#include "internal.h"

/* ---- the client's context: clientctx.c --------------------------------- */

/* The namespaces a program joins, in the order it joins them (the user
 * namespace last: clientctx.c says why). */
enum sw_client_ns {
	SW_CLIENT_NS_MNT,
	SW_CLIENT_NS_NET,
	SW_CLIENT_NS_IPC,
	SW_CLIENT_NS_UTS,
	SW_CLIENT_NS_CGROUP,
	SW_CLIENT_NS_TIME,
	SW_CLIENT_NS_PID,
	SW_CLIENT_NS_USER,
	SW_CLIENT_NS_COUNT,
};

/* Cgroup hierarchies one client may be in apart from ours (v2 and v1). */
#define SW_CLIENT_CGROUPS	16

/* The client's descriptors, in one array so that the launch child can
 * move them out of the way of those it hands over (fds.c): a namespace's
 * where it is not ours, its root, each cgroup's directory; -1: none. */
enum {
	SW_CLIENT_FD_NS = 0,
	SW_CLIENT_FD_ROOT = SW_CLIENT_NS_COUNT,
	SW_CLIENT_FD_CGROUP,
	SW_CLIENT_FDS = SW_CLIENT_FD_CGROUP + SW_CLIENT_CGROUPS,
};

struct sw_client {
	pid_t pid;			/* in our pid namespace */
	int pidfd;			/* pins it (sw_client_alive()) */
	int fd[SW_CLIENT_FDS];
	char *cgroup_name[SW_CLIENT_CGROUPS];	/* "0::/a/b", for messages */
	size_t n_cgroups;
	struct rlimit rlim[16];		/* every RLIMIT_*, /proc/<pid>/limits */
	int policy;			/* what its fork would give */
	struct sched_param sched;
	bool nice_reset;		/* SCHED_RESET_ON_FORK: nice < 0 -> 0 */
	cpu_set_t cpus;
	int ioprio;
	int oom_score_adj;
	bool oom_set;			/* differs from ours */
	unsigned long coredump_filter;
	bool coredump_set;
	uint32_t loginuid;
	bool loginuid_set;
	unsigned long personality;
	bool thp_disable;
	long seccomp_filters;		/* its filters when it was accepted */
	/* "/proc/<pid>/mountinfo" when its mounts or root are not ours:
	 * what the session's own /proc is planned from (procns.c). */
	char mountinfo[48];
};

/* Where the launch child failed to take the client's context. */
enum sw_client_step {
	SW_CLIENT_STEP_PIDNS,
	SW_CLIENT_STEP_CGROUP,		/* index: which of cgroup_name */
	SW_CLIENT_STEP_OOM,
	SW_CLIENT_STEP_COREDUMP,
	SW_CLIENT_STEP_RLIMIT,		/* index: RLIMIT_* */
	SW_CLIENT_STEP_SCHED,
	SW_CLIENT_STEP_AFFINITY,
	SW_CLIENT_STEP_IOPRIO,
	SW_CLIENT_STEP_THP,
	SW_CLIENT_STEP_PERSONALITY,
	SW_CLIENT_STEP_NS,		/* index: enum sw_client_ns */
	SW_CLIENT_STEP_ROOT,
	SW_CLIENT_STEP_CAPS,
	SW_CLIENT_STEP_USERNS,
	SW_CLIENT_STEP_KEYRING,
};

struct sw_client_where {
	int step;
	int index;
};

/* The mountinfo to plan the session's /proc from, or NULL for ours. */
const char *sw_client_mountinfo(const struct sw_client *c);
/* It is in a user namespace not ours: the launch keeps CAP_SYS_ADMIN
 * across its setresuid() for sw_client_enter_user(). */
bool sw_client_has_userns(const struct sw_client *c);
/* In the launch child, async-signal-safe, 0 or -errno (*w the step):
 * in the holder before it forks the program; at the join point; after
 * the uid and gid are set.  clientctx.c says what each takes. */
int sw_client_enter_pidns(const struct sw_client *c);
int sw_client_enter(const struct sw_client *c, struct sw_client_where *w);
int sw_client_enter_user(const struct sw_client *c, struct sw_client_where *w);
/* In the parent: what failed at *w. */
void sw_client_explain(const struct sw_client *c, const struct sw_client_where *w,
		       char *buf, size_t size);

#endif
