// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The launch child's report: the step it failed at (enum sw_stage) and
 * its errno, written to a CLOEXEC pipe just before it exits, so that the
 * parent can say "cannot start 'foo': set user id: Operation not
 * permitted".  The one home of the report's format and of its words: the
 * child writes it (sw_launch_fail()); the launch reads it if the child
 * dies before it is seized (sw_launch_report_early()), and the dispatch
 * loop if it dies after, before its exec (sw_launch_failed()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "contain/clientctx.h"
#include "contain/contain.h"
#include "contain/fsrules.h"
#include "contain/nsbox.h"

static const char *const stage_what[] = {
	[SW_STAGE_NONE] = "start",
	[SW_STAGE_HOLDER] = "start the process that leads its session (setsid, fork)",
	[SW_STAGE_PGRP] = "create its process group (setpgid)",
	[SW_STAGE_TTY] = "become the terminal's foreground process group (tcsetpgrp)",
	[SW_STAGE_PTY] = "give it a terminal of its own (a pseudo-terminal in its session, its controlling terminal)",
	[SW_STAGE_NICE] = "set its nice value (setpriority)",
	[SW_STAGE_STDIO] = "set up standard input/output",
	[SW_STAGE_FDS] = "give it the descriptors handed over, at their numbers, and close every other one",
	[SW_STAGE_CLIENT] = "take the client's context",
	[SW_STAGE_NSBOX] = "give it namespaces of its own (cgroup, IPC, mount: its own /proc, /dev/shm, devpts, cgroupfs)",
	[SW_STAGE_CHDIR] = "change to the working directory",
	[SW_STAGE_GROUPS] = "set supplementary groups",
	[SW_STAGE_GID] = "set group id",
	[SW_STAGE_UID] = "set user id",
	[SW_STAGE_KEYRING] = "join a session keyring of its own (the uid's keyrings stay outside the session)",
	[SW_STAGE_BOUNDING] = "drop capabilities from the bounding set",
	[SW_STAGE_CAPS] = "set capabilities",
	[SW_STAGE_NNP] = "set no_new_privs",
	[SW_STAGE_FSRULES] = "set up its file rules (Landlock)",
	[SW_STAGE_SANDBOX_MOUNTS] = "make the sandbox's mounts (the system read-only, the workspace and its temporary directory writable, their VCS metadata read-only: open_tree, mount_setattr, move_mount)",
	[SW_STAGE_LANDLOCK] = "enter a Landlock domain of its own (landlock_restrict_self; the kernel allows 16 nested domains)",
	[SW_STAGE_SECCOMP] = "load the seccomp filter",
	[SW_STAGE_EXEC] = "execute",
};

struct report {
	int stage;
	int err;
	struct sw_nsbox_where nsbox;	/* SW_STAGE_NSBOX: which step, which mount */
	struct sw_client_where client;	/* SW_STAGE_CLIENT: which step */
	struct sw_fsrules_where fsrules;	/* SW_STAGE_FSRULES: which
						 * hierarchy, which step */
};

static _Noreturn void report_exit(int fd, struct report *r)
{
	(void)!write(fd, r, sizeof(*r));
	_exit(SW_EXIT_SYSWARD_ERROR);
}

_Noreturn void sw_launch_fail_at(int fd, enum sw_stage stage,
				 const struct sw_nsbox_where *where)
{
	struct report r = { (int)stage, errno, { SW_NSBOX_NONE, -1 }, { -1, -1 },
			    { SW_FSR_NONE, -1, 0, false } };

	if (where)
		r.nsbox = *where;
	report_exit(fd, &r);
}

_Noreturn void sw_launch_fail_client(int fd, const struct sw_client_where *where)
{
	struct report r = { SW_STAGE_CLIENT, errno, { SW_NSBOX_NONE, -1 }, *where,
			    { SW_FSR_NONE, -1, 0, false } };

	report_exit(fd, &r);
}

_Noreturn void sw_launch_fail_fsrules(int fd, const struct sw_fsrules_where *where)
{
	struct report r = { SW_STAGE_FSRULES, errno, { SW_NSBOX_NONE, -1 }, { -1, -1 },
			    *where };

	report_exit(fd, &r);
}

_Noreturn void sw_launch_fail(int fd, enum sw_stage stage)
{
	sw_launch_fail_at(fd, stage, NULL);
}

/* A whole report of n bytes that names a step. */
static bool has_stage(const struct report *rep, ssize_t n)
{
	return n == sizeof(*rep) && rep->stage > SW_STAGE_NONE &&
	       rep->stage <= SW_STAGE_EXEC;
}

static int stage_error(struct sw_error *err, const char *prog,
		       const struct report *rep)
{
	return sw_error_set_errno(err, rep->err, "cannot start '%s': %s", prog,
				  stage_what[rep->stage]);
}

int sw_launch_report_early(int fd, const char *prog,
			   const struct sw_nsbox *nsbox,
			   const struct sw_client *client, struct sw_error *err)
{
	struct report rep = { 0 };
	ssize_t n;

	n = read(fd, &rep, sizeof(rep));
	if (n == sizeof(rep) && rep.stage == SW_STAGE_NSBOX) {
		char what[1024];

		sw_nsbox_explain(nsbox, &rep.nsbox, what, sizeof(what));
		return sw_error_set_errno(err, rep.err, "cannot start '%s': %s",
					  prog, what);
	}
	if (n == sizeof(rep) && rep.stage == SW_STAGE_CLIENT) {
		char what[4200];

		sw_client_explain(client, &rep.client, what, sizeof(what));
		return sw_error_set_errno(err, rep.err, "cannot start '%s': %s",
					  prog, what);
	}
	if (has_stage(&rep, n))
		return stage_error(err, prog, &rep);
	return sw_error_set(err, ECHILD,
			    "cannot start '%s': the new process died while setting up",
			    prog);
}

int sw_launch_failed(struct sw_session *s)
{
	struct report rep = { 0 };
	ssize_t n = -1;
	int code = SW_EXIT_SYSWARD_ERROR;

	if (s->launch_fd >= 0) {
		/* The child wrote before it exited: no wait. */
		n = read(s->launch_fd, &rep, sizeof(rep));
		close(s->launch_fd);
		s->launch_fd = -1;
	}
	if (n != sizeof(rep) && s->signalled && s->main_exited)
		/* Killed or signalled on request before it reached exec
		 * (sysward kill, a forwarded SIGTERM): its status, as
		 * after exec, not a launch failure. */
		return s->exit_code;
	s->launch_failed = true;
	if (n == sizeof(rep) && rep.stage == SW_STAGE_EXEC) {
		sw_exec_error(&s->launch_err, s->launch_prog, rep.err);
		code = sw_exec_exit_code(rep.err);
	} else if (n == sizeof(rep) && rep.stage == SW_STAGE_CHDIR && s->launch_cwd) {
		/* Entered as the program's user (launchchild.c): a
		 * directory that user cannot reach is refused, not entered
		 * as root. */
		sw_error_set_errno(&s->launch_err, rep.err,
				   "cannot use the working directory %s as uid %u",
				   s->launch_cwd, (unsigned int)s->uid);
	} else if (n == sizeof(rep) && rep.stage == SW_STAGE_FSRULES) {
		/* After the seize, in the program's view: which hierarchy,
		 * which step (fsrules.c). */
		char what[4600];

		sw_fsrules_explain(rep.fsrules.sandbox ? s->sandbox : s->fsrules,
				   &rep.fsrules, what, sizeof(what));
		sw_error_set_errno(&s->launch_err, rep.err, "cannot start '%s': %s",
				   s->launch_prog, what);
	} else if (has_stage(&rep, n)) {
		stage_error(&s->launch_err, s->launch_prog, &rep);
	} else if (s->main_exited) {
		sw_error_set(&s->launch_err, ECHILD,
			     "cannot start '%s': the process ended before exec with status %d (does the policy deny execve or the launcher's syscalls?)",
			     s->launch_prog, s->exit_code);
	} else {
		sw_error_set(&s->launch_err, ECHILD,
			     "cannot start '%s': the process ended before exec",
			     s->launch_prog);
	}
	return code;
}
