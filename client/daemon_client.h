/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The client side of syswardd: "run --daemon", "ps" and "kill". */
#ifndef SYSWARD_CLIENT_DAEMON_CLIENT_H
#define SYSWARD_CLIENT_DAEMON_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sysward/error.h"
#include "sysward/proto.h"
#include "runopts.h"

/*
 * The options of "ps" and "kill": -d/--daemon[=PATH] (*sock, else left
 * NULL), --json/-j when json is not NULL (*json set), and -h/--help
 * (help(stdout)).  Returns -1 to go on, with optind
 * at the first operand, or the exit code: 0 after the help, 2 (usage)
 * after an unknown option, with a hint to try "cmd --help".
 */
int sw_cli_daemon_options(int argc, char **argv, const char *cmd,
			  void (*help)(FILE *f), const char **sock, bool *json);

/*
 * Connect to syswardd at path ("" or NULL = the default socket).  On
 * failure prints why (and how to start the daemon) and returns -1.  The
 * path actually used is copied to used (for messages).
 */
int sw_daemon_connect(const char *path, char *used, size_t used_size);

/*
 * Send msg (freed in any case) on fd and receive the reply: its header in
 * *h and its payload in *payload (free()d by the caller).  encoded is what
 * encoding msg returned: a -errno there (err filled) is returned as is,
 * nothing sent.  0 or -errno with err filled.
 */
int sw_daemon_call(int fd, int encoded, struct sw_buf *msg,
		   struct sw_msg_header *h, uint8_t **payload,
		   struct sw_error *err);

/*
 * A daemon command's answer to an ERROR reply, in one place: if h is one,
 * print its message, after "what: " unless what is NULL, and return the
 * exit code the daemon chose (0..255).  Otherwise -1, nothing printed: h
 * is another reply, or (err filled) an ERROR that does not decode.
 */
int sw_cli_reply_error(const char *what, const struct sw_msg_header *h,
		       const uint8_t *payload, struct sw_error *err);

/*
 * Daemon-mode hook: run o->argv through syswardd at o->daemon_socket and
 * return the exit code to use (the program's, or 125/126/127).  Called by
 * cmd_run() when o->daemon_socket is set; defined in daemon_client.c.
 */
int sw_run_daemon(const struct run_options *o);

#endif
