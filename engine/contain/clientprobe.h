/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whether a client is in a Landlock domain (clientprobe.c).
 */
#ifndef SW_ENGINE_CLIENTPROBE_H
#define SW_ENGINE_CLIENTPROBE_H

#include "internal.h"

/* 0 if the client pid (with these ids) is in no Landlock
 * domain but ours, -EPERM with a message if it is in one, another -errno
 * if that could not be checked.  On a thread that may wait (about 1 s at
 * most): the client is traced meanwhile. */
int sw_client_probe_domain(pid_t pid, uid_t uid, gid_t gid, long filters,
			   struct sw_error *err);

#endif
