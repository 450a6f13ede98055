/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launch child's steps, its exec (exec.c), what it hands its
 * launcher (hand.c) and its report of the step that failed
 * (launchreport.c).
 */
#ifndef SW_ENGINE_CONTAIN_H
#define SW_ENGINE_CONTAIN_H

#include "internal.h"
#include "contain/clientctx.h"
#include "contain/fsrules.h"
#include "contain/hand.h"
#include "contain/nsbox.h"

/*
 * The launch child's steps, in the order it takes them: the one it failed
 * at is what its report (launchreport.c) names.
 */
enum sw_stage {
	SW_STAGE_NONE,
	SW_STAGE_HOLDER,
	SW_STAGE_PGRP,
	SW_STAGE_TTY,
	SW_STAGE_PTY,
	SW_STAGE_NICE,
	SW_STAGE_STDIO,
	SW_STAGE_FDS,
	SW_STAGE_CLIENT,
	SW_STAGE_NSBOX,
	SW_STAGE_CHDIR,
	SW_STAGE_GROUPS,
	SW_STAGE_GID,
	SW_STAGE_UID,
	SW_STAGE_KEYRING,
	SW_STAGE_BOUNDING,
	SW_STAGE_CAPS,
	SW_STAGE_NNP,
	SW_STAGE_FSRULES,
	SW_STAGE_LANDLOCK,
	SW_STAGE_SANDBOX_MOUNTS,
	SW_STAGE_SECCOMP,
	SW_STAGE_EXEC,
};

/* launchreport.c: in the launch child, report (stage, errno) on fd and
 * exit; where says which step of the session's namespaces failed
 * (SW_STAGE_NSBOX), or NULL.  Async-signal-safe. */
_Noreturn void sw_launch_fail_at(int fd, enum sw_stage stage,
				 const struct sw_nsbox_where *where);
_Noreturn void sw_launch_fail(int fd, enum sw_stage stage);
/* The same for SW_STAGE_CLIENT: where says which step of clientctx.c. */
_Noreturn void sw_launch_fail_client(int fd, const struct sw_client_where *where);
/* The same for SW_STAGE_FSRULES: where says which hierarchy, which step. */
_Noreturn void sw_launch_fail_fsrules(int fd, const struct sw_fsrules_where *where);
/* launchreport.c: in the parent, the child died before it was ready to be
 * seized: err says why, from its report on fd (nsbox names the mount,
 * client the client's context). */
int sw_launch_report_early(int fd, const char *prog,
			   const struct sw_nsbox *nsbox,
			   const struct sw_client *client,
			   struct sw_error *err);

/* exec.c: in the launch child, execute argv[0] as looked up in envp's
 * PATH (sw_exec_search; envp NULL: this process's environment), with
 * envp; listener >= 0: each execve hands it to the supervisor
 * (notif.c).  Returns only on failure: the errno of the lookup. */
int sw_exec_program(char *const *argv, char *const *envp, int listener);
/* The handoff execve's 4th argument: the listener's number follows as
 * its 5th (notif.c takes it at that stop). */
#define SW_NOTIF_MAGIC 0x73776e6f74696679ull	/* "swnotify" */

/* The session's main process died before exec: fill s->launch_err from
 * the child's report and return the exit code (launchreport.c). */
int sw_launch_failed(struct sw_session *s);

#endif
