/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "sysward run": options parsed once into a plain struct (strace style). */
#ifndef SYSWARD_CLIENT_RUN_H
#define SYSWARD_CLIENT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
	bool complain;			/* --complain: refusals run, reported */
	const char *report_path;	/* --report FILE, "-" = stderr */
	int gate;			/* --gate[=N]: N, 0 = no gate */
	char **argv;			/* PROGRAM [ARGS...], NULL-ended */
};

/* `sysward run --gate`'s exit status when the policy refused (or, with
 * --complain, would have refused) a call: outside sysward's own
 * 125-127, the signals' 128+N and timeout(1)'s 124; --gate=N picks
 * another (sysward(1), EXIT STATUS). */
#define SW_EXIT_GATE	122

/*
 * Daemon-mode hook: run o->argv through syswardd at o->daemon_socket and
 * return the exit code to use (the program's, or 125/126/127).  Called by
 * cmd_run() when o->daemon_socket is set; defined in daemon-client.c.
 */
int sw_run_daemon(const struct run_options *o);

struct sw_policy;
struct sw_record;
/*
 * The embedded run of o->argv under policy (loaded by the caller), as
 * `sysward run` makes it: the program checked first, o's log, caps,
 * complain mode and job control.  With record, the session's record is
 * handed over in *ret_record (NULL if the program never ran).  Returns
 * the exit code: the program's, or 125/126/127 (the error printed).
 * `sysward learn` runs its program through it too.
 */
int sw_run_embedded(const struct run_options *o, const struct sw_policy *policy,
		    bool record, struct sw_record **ret_record);

/* After a run with a record, the words shared by the embedded and the
 * daemon mode.  sw_run_say_refusals(): the line that heads the refused
 * calls (complain mode, or a tripped gate), unless -q; true if the
 * calls should follow.  sw_run_gate(): the status to exit with, given
 * the policy's n refusals and the program's code, and the gate's word
 * when it trips.  sw_run_open_report(): --report's stream (stderr for
 * '-'; *ret_file, to close, for a file), or -1 with the error said. */
bool sw_run_say_refusals(const struct run_options *o, uint64_t n);
int sw_run_gate(const struct run_options *o, uint64_t n, int code);
int sw_run_open_report(const struct run_options *o, FILE **ret_file,
		       FILE **ret_stream);

/* The policy's warnings that `sysward run` shows, embedded or through the
 * daemon: all but those about real system calls the installed libseccomp
 * does not know (runc ignores those names silently; `sysward check`
 * lists them). */
void sw_run_print_policy_warnings(const struct sw_policy *p);

/* Parse "CAP_SYS_ADMIN", "sys_admin", "net_raw,chown" or "all" into mask;
 * *all is set for "all". */
int sw_parse_caps(const char *text, uint64_t *mask, bool *all, char *bad,
		  size_t bad_size);

/* This process's effective capabilities, as a mask. */
uint64_t sw_own_effective_caps(void);

/* The capabilities in mask that defeat confinement, one per call: start
 * with *i = 0; returns why (and sets *name), or NULL when there are no
 * more.  For "sysward run --cap" to warn about. */
const char *sw_cap_danger(uint64_t mask, size_t *i, const char **name);

#endif
