// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw_run(): the embedded mode of `sysward run`.  One supervisor, one
 * session, supervised until the whole process tree is gone.
 *
 * The program runs in a process group of its own (launch.c).  In the
 * foreground of a terminal (l->foreground) it gets the terminal, so that
 * Ctrl-C and Ctrl-Z reach it and not us; when it stops we take the
 * terminal back and stop ourselves, so that our shell sees the job
 * stopped; when our shell continues us (fg) we give the terminal back
 * and continue its group, as a shell in the middle would.  SIGTTOU is
 * blocked meanwhile (we write to a terminal we do not own, and
 * tcsetpgrp() from the background raises it); the child unblocks it.
 *
 * SIGINT, SIGQUIT, SIGTERM and SIGHUP sent to us (a terminal's, when the
 * program is not in its foreground, or kill(1)) are forwarded to the
 * program: a handler, unlike SIG_IGN, is reset by execve, so the program
 * does not inherit it; we stay alive to report its status (dying would
 * SIGKILL it through PTRACE_O_EXITKILL before it could clean up).  With a
 * controlling terminal that the program does not own (we share our job
 * with a pipeline, or run in the background), SIGTSTP stops the program's
 * processes (SIGSTOP) and then us, and SIGCONT continues them.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "internal.h"

static volatile sig_atomic_t forward_sig;

static void on_signal(int sig)
{
	forward_sig = sig;
}

struct run_state {
	bool done;
	int exit_code;
	bool launch_failed;
	struct sw_error launch_err;
};

static void on_warning(struct sw_session *s, const char *msg, void *ud)
{
	const struct sw_launch *l = ud;

	(void)s;
	l->warn(msg, l->warn_userdata);
}

static void on_done(struct sw_session *s, int exit_code, void *ud)
{
	struct run_state *st = ud;
	const struct sw_error *le = sw_session_launch_error(s);

	st->done = true;
	st->exit_code = exit_code;
	if (le) {
		st->launch_failed = true;
		st->launch_err = *le;
	}
}

void sw_signals_of_caller(uint64_t *ret_ignored, uint64_t *ret_blocked)
{
	uint64_t ign = 0, blk = 0;
	sigset_t cur;

	sigprocmask(SIG_SETMASK, NULL, &cur);
	for (int sig = 1; sig < NSIG && sig <= 64; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			ign |= 1ull << (sig - 1);
		if (sigismember(&cur, sig) == 1)
			blk |= 1ull << (sig - 1);
	}
	*ret_ignored = ign;
	*ret_blocked = blk;
}

/* The program's main process stopped (Ctrl-Z, or a signal): stop as its
 * job, and continue it when we are continued. */
static void job_stopped(const struct sw_launch *l, struct sw_session *s)
{
	pid_t fg = tcgetpgrp(l->tty_fd);

	s->main_stopped = false;
	if (fg <= 0 || fg == getpgrp())
		return;		/* not the program's terminal any more */
	(void)tcsetpgrp(l->tty_fd, getpgrp());
	/* Our whole job: a script that runs us stops with us, and its
	 * shell sees the job stopped. */
	kill(0, SIGTSTP);
	/* Continued (fg): back to the program, which stays stopped until
	 * its group is continued too. */
	(void)tcsetpgrp(l->tty_fd, fg);
	kill(-fg, SIGCONT);
}

int sw_run(const struct sw_policy *p, const struct sw_launch *l,
	   int *ret_exit, struct sw_error *err)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT };
	/* Job control is ours to relay only in a job of a terminal's that
	 * the program does not lead (see above). */
	const int n_sigs = l->foreground || l->new_session ? 4 : 6;
	struct sigaction sa = { .sa_handler = on_signal }, old[6];
	struct sw_supervisor *sup = NULL;
	struct sw_session *s = NULL;
	struct run_state st = { .exit_code = SW_EXIT_SYSWARD_ERROR };
	sigset_t ttou, old_mask;
	int r;

	r = sw_supervisor_new(&sup, err);
	if (r < 0)
		return r;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old_mask);
	sw_supervisor_on_done(sup, on_done, &st);
	if (l->warn)
		sw_supervisor_on_warning(sup, on_warning, (void *)l);
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < n_sigs; i++)
		sigaction(sigs[i], &sa, &old[i]);
	forward_sig = 0;

	r = sw_session_launch(sup, p, l, &s, err);
	while (r >= 0 && !st.done) {
		errno = 0;
		r = sw_supervisor_dispatch(sup, true, err);
		if (r == 0 && errno == ECHILD && !st.done) {
			r = sw_error_set(err, ECHILD,
					 "lost track of the program (no child processes left)");
			break;
		}
		if (forward_sig && !st.done) {
			int sig = forward_sig;

			forward_sig = 0;
			if ((sig == SIGINT || sig == SIGQUIT) && n_sigs == 6 &&
			    getpgid(s->pid) > 0)
				/* A terminal's Ctrl-C or Ctrl-\ of our job:
				 * the program's whole group gets it, as it
				 * would in the job unconfined. */
				kill(-getpgid(s->pid), sig);
			else
				sw_session_signal(s, sig);
			if (sig == SIGTSTP) {
				/* Then stop ourselves: our shell sees the job
				 * stopped; its SIGCONT comes back here. */
				sigaction(SIGTSTP, &old[4], NULL);
				raise(SIGTSTP);
				sigaction(SIGTSTP, &sa, NULL);
				/* Continued: the program now, not after the
				 * next ptrace event (there may be none). */
				if (forward_sig == SIGCONT) {
					forward_sig = 0;
					sw_session_signal(s, SIGCONT);
				}
			}
		}
		if (l->foreground && !st.done && s->main_stopped)
			job_stopped(l, s);
	}
	for (int i = 0; i < n_sigs; i++)
		sigaction(sigs[i], &old[i], NULL);
	sw_supervisor_free(sup);
	/* Take the terminal back (also when the launch failed after the
	 * child took it). */
	if (l->foreground && l->tty_fd >= 0)
		(void)tcsetpgrp(l->tty_fd, getpgrp());
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (r >= 0 && st.launch_failed) {
		/* The program never ran: an error, whose exit code
		 * sw_launch_failed() chose from the failed stage. */
		if (err)
			*err = st.launch_err;
		*ret_exit = st.exit_code;
		return -st.launch_err.code;
	}
	*ret_exit = r < 0 ? SW_EXIT_SYSWARD_ERROR : st.exit_code;
	return r < 0 ? r : 0;
}
