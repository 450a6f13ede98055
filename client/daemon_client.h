/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The client side of syswardd: "run --daemon", "ps" and "kill". */
#ifndef SYSWARD_CLIENT_DAEMON_CLIENT_H
#define SYSWARD_CLIENT_DAEMON_CLIENT_H

#include <stddef.h>

/*
 * Connect to syswardd at path ("" or NULL = the default socket).  On
 * failure prints why (and how to start the daemon) and returns -1.  The
 * path actually used is copied to used (for messages).
 */
int sw_daemon_connect(const char *path, char *used, size_t used_size);

#endif
