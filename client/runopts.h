/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What "sysward run" has decided before it runs anything, shared by its
 * two ways of running (embedded: run.c; through syswardd:
 * daemon_client.c): the options, and the policy's warnings it shows.
 */
#ifndef SYSWARD_CLIENT_RUNOPTS_H
#define SYSWARD_CLIENT_RUNOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "sysward/engine.h"

struct run_options {
	const char *policy_path;
	const char *log_path;		/* NULL = none, "-" = stderr */
	enum sw_log_format log_format;
	uint64_t caps;			/* capabilities the program keeps */
	bool caps_all;			/* --cap all: those we have */
	const char *daemon_socket;	/* NULL = embedded (no daemon) */
	bool kill_descendants;		/* SIGKILL them when PROGRAM exits */
	bool quiet;			/* -q: print no warnings, only errors */
	char **argv;			/* PROGRAM [ARGS...], NULL-ended */
};

struct sw_policy;
/* The policy's warnings that `sysward run` shows, embedded or through the
 * daemon: all but those about real system calls the installed libseccomp
 * does not know (runc ignores those names silently; `sysward check`
 * lists them). */
void sw_run_print_policy_warnings(const struct sw_policy *p);

#endif
