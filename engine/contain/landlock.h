/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every session a Landlock domain of its own (landlock.c).
 */
#ifndef SW_ENGINE_LANDLOCK_H
#define SW_ENGINE_LANDLOCK_H

#include "internal.h"

/* The running kernel's Landlock ABI (>= 1), or -ENOSYS (not built),
 * -EOPNOTSUPP (not enabled at boot).  As the kernel says: nothing of
 * the process's (its environment) changes it. */
int sw_landlock_abi(void);
/* The session's ruleset (CLOEXEC fd in *ret_fd): handling the file
 * rights fs and network rights net (SW_FS_*, SW_NET_*; what abi does not
 * know is left out: fsrules.c says so first), scoping signals and
 * abstract sockets on ABI >= 6.  With fs and net 0 its domain changes
 * nothing the program can see but who it can reach: scopes on ABI >= 6,
 * else a right handled and granted beneath "/" (landlock.c says why). */
int sw_landlock_ruleset(int abi, uint64_t fs, uint64_t net, int *ret_fd,
			struct sw_error *err);
/* Add a rule: the hierarchy beneath parent_fd (O_PATH is enough), or a
 * TCP port, with access.  Async-signal-safe.  0 or -errno. */
int sw_landlock_allow_path(int ruleset_fd, int parent_fd, uint64_t access);
int sw_landlock_allow_port(int ruleset_fd, uint16_t port, uint64_t access);
/* In the launch child, after no_new_privs: enter a new domain from the
 * ruleset.  Async-signal-safe.  0 or -errno. */
int sw_landlock_enter(int ruleset_fd);

#endif
