// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw_run(): the embedded mode of `sysward run`.  One supervisor, one
 * session, supervised until the whole process tree is gone.
 *
 * While it supervises, SIGINT and SIGQUIT get a no-op handler: the
 * program shares our process group and receives Ctrl-C itself; we stay
 * alive to report its status (dying would SIGKILL it through
 * PTRACE_O_EXITKILL before it could clean up).  A handler, unlike
 * SIG_IGN, is reset by execve, so the program does not inherit it.
 * SIGTERM and SIGHUP sent to us are forwarded to the program.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "internal.h"

static volatile sig_atomic_t forward_sig;

static void on_signal(int sig)
{
	if (sig == SIGTERM || sig == SIGHUP)
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

int sw_run(const struct sw_policy *p, const struct sw_launch *l,
	   int *ret_exit, struct sw_error *err)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal }, old[4];
	struct sw_supervisor *sup = NULL;
	struct sw_session *s = NULL;
	struct run_state st = { .exit_code = SW_EXIT_SYSWARD_ERROR };
	int r;

	r = sw_supervisor_new(&sup, err);
	if (r < 0)
		return r;
	sw_supervisor_on_done(sup, on_done, &st);
	if (l->warn)
		sw_supervisor_on_warning(sup, on_warning, (void *)l);
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++)
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
			sw_session_signal(s, forward_sig);
			forward_sig = 0;
		}
	}
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	sw_supervisor_free(sup);
	if (r >= 0 && st.launch_failed) {
		/* Said as sw_session_launch() used to: the caller words
		 * "cannot execute 'P': ..." as 126/127. */
		if (err)
			*err = st.launch_err;
		return -st.launch_err.code;
	}
	if (r < 0)
		return r;
	*ret_exit = st.exit_code;
	return 0;
}
