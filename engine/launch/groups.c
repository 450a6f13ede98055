// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The program's supplementary groups, set by the launch child and by the
 * compile process (prepare.c), each as the program's user: never a
 * group outside those its client has.
 */
#include <errno.h>
#include <grp.h>
#include <unistd.h>

#include "internal.h"
#include "launch/launch.h"

/*
 * setgroups(2) to target, where the process may keep no group outside
 * bound.  The kernel asks CAP_SETGID even to set the groups a process
 * already has, and a root daemon in a container of runc's default spec
 * has none: without it the groups the process has are kept if every one
 * is in bound (then the process has no group its client lacks), else the
 * call fails (EPERM).  Async-signal-safe (the launch child).
 */
int sw_set_groups_within(const gid_t *target, size_t n_target,
			 const gid_t *bound, size_t n_bound)
{
	gid_t have[256];
	int n;

	if (setgroups(n_target, target) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	n = getgroups(256, have);
	for (int i = 0; i < n; i++) {
		bool in = false;

		for (size_t j = 0; j < n_bound && !in; j++)
			in = have[i] == bound[j];
		if (!in)
			n = -1;
	}
	if (n < 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}
