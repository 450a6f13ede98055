/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What launch/ shares between its files: the kernel's version (probe.c),
 * the launch child (launchchild.c), its descriptors (fds.c) and groups
 * (groups.c).
 */
#ifndef SW_ENGINE_LAUNCH_H
#define SW_ENGINE_LAUNCH_H

#include "internal.h"
#include "trace/reach.h"

/* ---- probe.c: policy context helpers ---------------------------------- */

unsigned int sw_kernel_version_now(void);


/* What the launch child tells its parent when it is ready to be seized:
 * its pid (under a holder the parent did not fork it), and the serials
 * of the uid's keyrings it learned as the program's uid (objects.c). */
struct sw_launch_ready {
	pid_t pid;
	int32_t keyring[SW_OBJECTS_KEYRINGS];
};

/* launchchild.c: the launch child from its fork to its exec (its holder
 * first, with l->new_session): go_fd says it is seized, ready_fd takes
 * its struct sw_launch_ready, rep_fd a failure's report (then it exits). */
struct sw_prepared;
_Noreturn void sw_launch_child(const struct sw_launch *l,
			       const struct sw_prepared *pr, int go_fd,
			       int ready_fd, int rep_fd);

/* fds.c: in the launch child (async-signal-safe): the n descriptors of p
 * at their numbers, and every other descriptor of the process marked
 * close-on-exec, so that the exec passes on p's and nothing else.  own
 * are the child's own descriptors it needs until then: each is moved
 * above the numbers placed if it is below one (*own[i] updated; -1
 * skipped).  0 or -errno. */
int sw_fds_place(const struct sw_fd_place *p, size_t n, int *const own[],
		 size_t n_own);

/* groups.c: setgroups(2) to target, where the process may keep no group
 * outside bound (groups.c says why).  Async-signal-safe: -1 with errno. */
int sw_set_groups_within(const gid_t *target, size_t n_target,
			 const gid_t *bound, size_t n_bound);

#endif
