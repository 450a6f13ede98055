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
#include <stdio.h>

#include "sysward/engine.h"

struct run_options {
	const char *policy_path;
	int policy_fd;			/* --policy-fd N, -1: none */
	int keep_fds;			/* --keep-fds N, -1: keep all */
	const char *log_path;		/* NULL = none, "-" = stderr */
	enum sw_log_format log_format;
	uint64_t caps;			/* capabilities the program keeps */
	bool caps_all;			/* --cap all: those we have */
	const char *daemon_socket;	/* NULL = embedded (no daemon) */
	int tty;			/* enum sw_tty_mode (relay.h): -t, -T */
	bool kill_descendants;		/* SIGKILL them when PROGRAM exits */
	bool quiet;			/* -q: print no warnings, only errors */
	bool strict;			/* --strict: a policy warning refuses */
	const char *policy_max_bytes;	/* --policy-max-bytes, or NULL */
	bool complain;			/* --complain: refusals run, reported */
	const char *report_path;	/* --report FILE, "-" = stderr */
	int gate;			/* --gate[=N]: N, 0 = no gate */
	bool record_paths;		/* learn --paths: the record keeps paths */
	bool record_files;		/* learn --filesystem: and the objects
					 * reached, the TCP ports */
	bool no_cache;			/* --no-cache: compile the filter anew */
	/* --sandbox[=DIR], --sandbox-net=PORTS, --sandbox-bind=PORTS:
	 * sandbox.dir absolute after sw_run_sandbox_begin(), NULL = the
	 * working directory; sandbox.tmpdir made there too. */
	bool sandbox_on;
	struct sw_sandbox sandbox;
	char **argv;			/* PROGRAM [ARGS...], NULL-ended */
};

/* `sysward run --gate`'s exit status when the policy refused (or, with
 * --complain, would have refused) a call: outside sysward's own
 * 125-127, the signals' 128+N and timeout(1)'s 124; --gate=N picks
 * another (sysward(1), EXIT STATUS). */
#define SW_EXIT_GATE	122

/* After a run with a record, the words shared by the embedded and the
 * daemon mode.  sw_run_say_refusals(): the line that heads the refused
 * calls (complain mode, or a tripped gate), unless -q; true if the
 * calls should follow.  sw_run_gate(): the status to end with, given
 * the policy's n refusals and how the program ended (sw_run_status()
 * unless the gate trips), and the gate's word when it trips.  sw_run_open_report(): --report's stream (stderr for
 * '-'; *ret_file, to close, for a file), or -1 with the error said. */
bool sw_run_say_refusals(const struct run_options *o, uint64_t n);
int sw_run_gate(const struct run_options *o, uint64_t n,
		const struct sw_exit *ex);
/* After a run under file rules the kernel enforces (--sandbox, or a
 * policy's "filesystem" section: policy_files) whose program failed:
 * how to find what they refused (--complain), unless -q. */
void sw_run_say_kernel_rules(const struct run_options *o, bool policy_files,
			     const struct sw_exit *ex);
/* How a run of a program that ended so ends `sysward`: its exit code, or
 * SW_EXIT_SIGNAL(N) when signal N killed it (main() dies of N). */
int sw_run_status(const struct sw_exit *ex);
int sw_run_open_report(const struct run_options *o, FILE **ret_file,
		       FILE **ret_stream);

/* --cap ARG of `sysward CMD` (run, learn) into o: 0, or the usage
 * error said and its -status. */
int sw_run_cap_option(const char *cmd, const char *arg, struct run_options *o);
/* --sandbox=DIR, --sandbox-net=PORTS, --sandbox-bind=PORTS of `sysward
 * run` into o: 0, or the usage error said and its -status. */
int sw_run_sandbox_option(const char *opt, const char *arg, struct run_options *o);

/* Before the launch, embedded or through the daemon: the workspace made
 * absolute (in our view, which a daemon's child takes: clientctx.c), the
 * private temporary directory made and put in our environment as TMPDIR
 * for the program.  sw_run_sandbox_end() removes it, after the program
 * and all it started have ended. */
/* --sandbox without --policy: every call allowed, the sandbox and the
 * built-in defences confine (its text, and a name for messages). */
#define SW_SANDBOX_POLICY	"{\"defaultAction\": \"SCMP_ACT_ALLOW\"}"
#define SW_SANDBOX_POLICY_NAME	"--sandbox (no --policy: every call allowed)"
int sw_run_sandbox_begin(struct run_options *o, struct sw_error *err);
/* The policy's text for --sandbox without --policy (SW_SANDBOX_POLICY,
 * malloc'd), and the name messages give the run's policy. */
int sw_run_sandbox_policy(char **ret_text, size_t *ret_len, struct sw_error *err);
const char *sw_run_policy_name(const struct run_options *o);
void sw_run_sandbox_end(struct run_options *o);

struct sw_error;
/* --policy-fd N: the policy's text from descriptor N, a sealed memory
 * file (sw_policy_read_sealed_fd()), *ret_name a name for it in
 * messages.  N stays open, close-on-exec. */
int sw_run_read_policy_fd(int fd, char **ret_text, size_t *ret_len,
			  char **ret_name, struct sw_error *err);
/* --keep-fds N: close every descriptor from N up but the policy's
 * (policy_fd, -1 for none), which is made close-on-exec: the program
 * starts with 0 to N-1 only. */
int sw_run_keep_fds(int keep, int policy_fd, struct sw_error *err);

struct sw_policy;
/* The policy's warnings that `sysward run` shows, embedded or through the
 * daemon: all but those about real system calls the installed libseccomp
 * does not know (runc ignores those names silently; `sysward check`
 * lists them), and of the lints those of kind SW_POLICY_WARN_NOT_A_PATH
 * (the calls fail with EFAULT; the other lints change nothing at run
 * time, `sysward check` lists them). */
/* Print the policy's warnings that matter at run time (unless o->quiet)
 * and return how many there are: with o->strict the run is then
 * refused (sw_run_load_policy). */
size_t sw_run_print_policy_warnings(const struct run_options *o,
				    const struct sw_policy *p, const char *text,
				    size_t len);

#endif
