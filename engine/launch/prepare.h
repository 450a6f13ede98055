/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a launch prepares before it forks (prepare.c), so that the child
 * makes only async-signal-safe calls: a policy compiled for one launch,
 * read by the launch (launch.c) and its child (launchchild.c).
 */
#ifndef SYSWARD_ENGINE_PREPARE_H
#define SYSWARD_ENGINE_PREPARE_H

#include <linux/filter.h>
#include <sys/capability.h>

#include "internal.h"
#include "contain/fsrules.h"
#include "contain/nsbox.h"

struct sw_prepared {
	struct sw_program *prog;
	struct sock_filter *insns, *dinsns;	/* the policy's, the defences' */
	size_t n_insns, n_dinsns;
	cap_t caps;
	bool can_set;		/* the kernel it was made for has SET_SYSCALL_INFO */
	int landlock_fd;	/* the session's ruleset (landlock.c), or -1 */
	struct sw_fsrules *fsrules;	/* its file and network rules' plan
					 * (fsrules.c), the child applies */
	int sandbox_fd;		/* the sandbox's ruleset, or -1 */
	struct sw_fsrules *sandbox;	/* its rules' plan (sandbox.c) */
	struct sw_sandbox_mounts sandbox_mounts;	/* with a mount namespace */
	bool sandbox_mounted;
	struct sw_pathrules *pathrules;	/* "paths" rules Landlock decides */
	struct sw_nsbox nsbox;	/* its own namespaces (nsbox.c) */
	bool own_keyring;	/* the child joins a session keyring of its
				 * own and learns the uid's (objects.c) */
	bool listener;		/* the policy's filter answers calls through
				 * a seccomp listener (notif.c) */
};

/* prepare.c: why a launch that logs, records or complains has no
 * listener (what `sysward check`, which prepares no such launch, says;
 * route.c). */
extern const char sw_listener_unasked_why[];
extern const char sw_listener_modes_why[];

#endif
