// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw_run(): the embedded mode of `sysward run`.  One supervisor, one
 * session, supervised until the whole process tree is gone.
 *
 * The program runs in a process group of its own (launchchild.c).  In the
 * foreground of a terminal (l->foreground) it gets the terminal, so that
 * Ctrl-C and Ctrl-Z reach it and not us; when it stops we take the
 * terminal back and stop ourselves, so that our shell sees the job
 * stopped; when our shell continues us (fg) we give the terminal back
 * and continue its group, as a shell in the middle would.  SIGTTOU is
 * blocked meanwhile (we write to a terminal we do not own, and
 * tcsetpgrp() from the background raises it); the child unblocks it.
 *
 * What the caller's job gets, the program's group gets: SIGINT, SIGQUIT,
 * SIGTERM and SIGHUP sent to us (kill -TERM -PGID of our job, timeout(1),
 * a CI runner, a terminal's when the program is not in its foreground,
 * or kill(1) of our pid) are forwarded to the program's whole process
 * group (sw_session_group_signal()).  The kernel cannot tell us whether a signal
 * was sent to our group or to our pid alone (si_code and si_pid are the
 * same), and a program started by its caller in the caller's job would
 * have received a group's signal in every process: so the group it is.
 * We catch them, and do not die of them, to report the program's status
 * (dying would SIGKILL it through PTRACE_O_EXITKILL before it could
 * clean up); a handler is reset by execve, and launchchild.c gives the
 * program the caller's dispositions and mask, not ours.  Without a
 * terminal that the program owns (a pipeline, the background, no
 * terminal), SIGTSTP and SIGCONT are forwarded too, and when the main
 * process stops by a job-control signal (its own kill -TSTP $$ too), we
 * stop by the same signal, so that our parent sees its job stopped; its
 * SIGCONT comes back here and continues the program's group.  The
 * program's group is in our session, its leader's parent (we) in
 * another group of it: not orphaned, so the kernel does not discard
 * SIGTSTP, SIGTTIN and SIGTTOU there, as for a shell's job.
 *
 * As the init of a pid namespace (l->init_signals: a container's process
 * 1, where sysward-runtime puts us) all of that changes: the kernel
 * drops a signal sent to an init from outside unless the init catches it
 * (SIGNAL_UNKILLABLE), and a runtime's kill is aimed at the one process
 * that would have been the init without us.  So every signal that can be
 * sent is caught and forwarded to the program's main process alone, and
 * its stops stay its own.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/syscall_nr.h"
#include "internal.h"
#include "trace/reach.h"

static volatile sig_atomic_t forward_sig;

static void on_signal(int sig)
{
	forward_sig = sig;
}

/*
 * As a pid namespace's init (sw_launch.init_signals): the signals caught,
 * bit N-1 for signal N, until the loop below forwards them.  A set, not
 * one slot: a runtime may send several before we get to them, and each
 * must arrive.
 */
static uint64_t init_pending;
static pid_t init_self;

static void on_init_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* One we raised ourselves (the kernel's SIGPIPE for a write of ours
	 * to a closed pipe names us as its sender) was sent to no one. */
	if (si && si->si_pid == init_self)
		return;
	__atomic_fetch_or(&init_pending, UINT64_C(1) << (sig - 1),
			  __ATOMIC_RELAXED);
}

/* What a container's init is sent that means something to its program:
 * every signal but those the kernel raises for a fault of our own (a
 * handler that returns would fault again), SIGCHLD (our children's),
 * SIGTTOU (blocked while we supervise), SIGKILL and SIGSTOP (which no one
 * can catch: they reach us, and our end ends the namespace, as the
 * program's end would have). */
static bool init_forwards(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP: case SIGCHLD: case SIGTTOU:
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP:
	case SIGSYS:
		return false;
	default:
		return true;
	}
}

#define INIT_NSIG 65		/* signals 1..64 */

static void init_catch(struct sigaction old[INIT_NSIG])
{
	struct sigaction sa = { .sa_sigaction = on_init_signal,
				.sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	init_self = getpid();
	__atomic_store_n(&init_pending, 0, __ATOMIC_RELAXED);
	for (int sig = 1; sig < INIT_NSIG; sig++) {
		old[sig].sa_handler = SIG_ERR;
		/* glibc's own two (32, 33) refuse: they are not ours to
		 * forward anyway. */
		if (init_forwards(sig) && sigaction(sig, &sa, &old[sig]) < 0)
			old[sig].sa_handler = SIG_ERR;
	}
}

static void init_restore(const struct sigaction old[INIT_NSIG])
{
	for (int sig = 1; sig < INIT_NSIG; sig++)
		if (old[sig].sa_handler != SIG_ERR)
			sigaction(sig, &old[sig], NULL);
}

/* Forward what was caught to the main process alone, as the runtime's
 * kill(2) of the container's init would have reached it without us;
 * through its pidfd, so never to a pid reused after it. */
static void init_forward(struct sw_session *s, int main_fd)
{
	uint64_t pend = __atomic_exchange_n(&init_pending, 0, __ATOMIC_RELAXED);

	for (int sig = 1; pend && sig < INIT_NSIG; sig++) {
		if (!(pend & (UINT64_C(1) << (sig - 1))))
			continue;
		pend &= ~(UINT64_C(1) << (sig - 1));
		sw_session_mark_signalled(s);
		if (main_fd < 0 ||
		    syscall(SYS_pidfd_send_signal, main_fd, sig, NULL, 0) < 0)
			(void)kill(s->pid, sig);
	}
}

struct run_state {
	bool done;
	int exit_code;
	int term_sig;
	bool core;
	bool launch_failed;
	struct sw_error launch_err;
	struct sw_record *record;
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
	st->term_sig = sw_session_term_signal(s, &st->core);
	st->record = sw_session_take_record(s);
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

#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1u << 2)	/* Linux 6.9 */
#endif

int sw_session_group_open(const struct sw_session *s)
{
	int fd = (int)syscall(SYS_pidfd_open, s->pid, 0);

	return fd < 0 ? -errno : fd;
}

int sw_session_group_signal(struct sw_session *s, int group_fd, int sig)
{
	if (group_fd < 0 || syscall(SYS_pidfd_send_signal, group_fd, sig, NULL,
				    PIDFD_SIGNAL_PROCESS_GROUP) < 0)
		return sw_session_signal(s, sig);
	/* Sent on request: a program it kills before its exec has not
	 * failed to start (sw_launch_failed). */
	sw_session_mark_signalled(s);
	/* A stopped job acts on SIGTERM or SIGHUP only once continued:
	 * continue it after them, as sw_session_signal() does. */
	if (sig == SIGTERM || sig == SIGHUP)
		(void)syscall(SYS_pidfd_send_signal, group_fd, SIGCONT, NULL,
			      PIDFD_SIGNAL_PROCESS_GROUP);
	return 0;
}

/* Stop by sig as its default action would, whatever our handler or mask
 * for it (SIGTTOU is blocked here); back when continued. */
static void stop_self(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, prev;
	sigset_t one, prev_mask;

	sigemptyset(&one);
	sigaddset(&one, sig);
	sigaction(sig, &dfl, &prev);
	sigprocmask(SIG_UNBLOCK, &one, &prev_mask);
	raise(sig);
	sigprocmask(SIG_SETMASK, &prev_mask, NULL);
	sigaction(sig, &prev, NULL);
}

/* The program holds the terminal: l->foreground from the start, or
 * given to it in a pipeline (job_stopped()); *handed says the latter. */
struct job_tty {
	bool handed;
	pid_t pgid;		/* the program's group, while handed */
};

/* Our job is the terminal's foreground but the program, in a group of
 * its own, is not (a pipeline: "sysward run ... | cat"): the kernel
 * stops it by SIGTTOU or SIGTTIN when it sets the terminal's modes or
 * reads it (tty_check_change(), drivers/tty/tty_jobctrl.c), where
 * unconfined, in our job, it would have been let through.  Stopping
 * ourselves then leaves the rest of the pipeline running: the shell
 * never sees the job stop nor end.  So give the terminal to the
 * program's group (SIGTTOU blocked here: tcsetpgrp() is let through)
 * and continue it; from then on we stand in for it as in the
 * foreground (Ctrl-Z stops our whole job). */
static bool hand_terminal(const struct sw_launch *l, struct sw_session *s,
			  int group_fd, struct job_tty *jt)
{
	int sig = s->main_stop_sig;

	if ((sig != SIGTTOU && sig != SIGTTIN) || l->foreground ||
	    l->tty_fd < 0 || tcgetpgrp(l->tty_fd) != getpgrp() ||
	    tcsetpgrp(l->tty_fd, s->pid) < 0)
		return false;
	jt->handed = true;
	jt->pgid = s->pid;
	sw_session_group_signal(s, group_fd, SIGCONT);
	return true;
}

/* The program's main process stopped by a job-control signal (SIGTSTP,
 * SIGTTIN, SIGTTOU: "the job stops", undone by continuing the job, that
 * is us): stop as its job.  A SIGSTOP, or a job-control signal sent at
 * the program's pid from outside its job (session.c reports it as a
 * SIGSTOP), is undone at that pid: we, stopped, would hold up the
 * program's supervised calls until someone continued us too.  In a
 * terminal the program holds (Ctrl-Z), take the terminal back, stop our
 * whole job, and on fg give the terminal back and continue the
 * program's group. */
static void job_stopped(const struct sw_launch *l, struct sw_session *s,
			int group_fd, struct job_tty *jt)
{
	int sig = s->main_stop_sig;
	pid_t fg;

	s->main_stopped = false;
	if (!sw_job_stop_signal(sig))
		return;
	if (!l->foreground && !jt->handed) {
		if (hand_terminal(l, s, group_fd, jt))
			return;
		int pending = forward_sig;

		forward_sig = 0;
		stop_self(sig);
		/* Not stopped: the kernel discards a job-control stop in an
		 * orphaned group (get_signal(), is_current_pgrp_orphaned()),
		 * where the program, unconfined, would have got EIO for its
		 * terminal access or gone on.  Continuing it would have it
		 * stop again at once, for good: leave it stopped, and say
		 * so. */
		if (forward_sig != SIGCONT && sig != SIGTSTP) {
			sw_warn(s, "the program stopped by %s (terminal access from the background) in a job that cannot stop (an orphaned process group); it stays stopped until continued (kill -CONT %d)",
				sig == SIGTTIN ? "SIGTTIN" : "SIGTTOU", s->pid);
			forward_sig = pending;
			return;
		}
		sw_session_group_signal(s, group_fd, SIGCONT);
		if (forward_sig == SIGCONT)
			forward_sig = 0;	/* that one, just sent */
		return;
	}
	fg = tcgetpgrp(l->tty_fd);
	if (fg <= 0 || fg == getpgrp())
		return;		/* not the program's terminal any more */
	(void)tcsetpgrp(l->tty_fd, getpgrp());
	/* Our whole job: a script that runs us stops with us, and its
	 * shell sees the job stopped.  In a pipeline we catch SIGTSTP
	 * (to relay it): stop by its default action after the others. */
	kill(0, SIGTSTP);
	if (jt->handed) {
		stop_self(SIGTSTP);
		forward_sig = 0;	/* our own SIGTSTP, and the SIGCONT */
		/* Continued in the background (bg): the terminal is not
		 * ours to give. */
		if (tcgetpgrp(l->tty_fd) != getpgrp()) {
			sw_session_group_signal(s, group_fd, SIGCONT);
			return;
		}
	}
	/* Continued (fg): back to the program, which stays stopped until
	 * its group is continued too. */
	(void)tcsetpgrp(l->tty_fd, fg);
	kill(-fg, SIGCONT);
}

int sw_run(const struct sw_policy *p, const struct sw_launch *l,
	   struct sw_exit *ret_exit, struct sw_error *err)
{
	return sw_run_recorded(p, l, ret_exit, NULL, err);
}

int sw_run_recorded(const struct sw_policy *p, const struct sw_launch *l,
		    struct sw_exit *ret_exit, struct sw_record **ret_record,
		    struct sw_error *err)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT };
	/* Job control is ours to relay only in a job of a terminal's that
	 * the program does not lead (see above). */
	const int n_sigs = l->foreground ? 4 : 6;
	struct sigaction sa = { .sa_handler = on_signal }, old[6];
	struct sigaction init_old[INIT_NSIG];
	struct sw_supervisor *sup = NULL;
	struct sw_session *s = NULL;
	struct run_state st = { .exit_code = SW_EXIT_SYSWARD_ERROR };
	sigset_t ttou, old_mask;
	struct job_tty jt = { 0 };
	struct sw_launch ll;
	int r, group_fd = -1;

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
	if (l->init_signals)
		init_catch(init_old);
	else
		for (int i = 0; i < n_sigs; i++)
			sigaction(sigs[i], &sa, &old[i]);
	forward_sig = 0;

	/* Our process serves the session alone: its listener's thread
	 * is ours to run (notif.c). */
	ll = *l;
	ll.listener = true;
	r = sw_session_launch(sup, p, &ll, &s, err);
	if (r >= 0)
		group_fd = sw_session_group_open(s);
	while (r >= 0 && !st.done) {
		errno = 0;
		r = sw_supervisor_dispatch(sup, true, err);
		if (r == 0 && errno == ECHILD && !st.done) {
			r = sw_error_set(err, ECHILD,
					 "lost track of the program (no child processes left)");
			break;
		}
		if (l->init_signals) {
			/* group_fd is the main process's pidfd too. */
			if (!st.done)
				init_forward(s, group_fd);
			/* The program's stop is its own: an init's parent
			 * is no shell waiting to see its job stop. */
			s->main_stopped = false;
			continue;
		}
		if (forward_sig && !st.done) {
			int sig = forward_sig;

			forward_sig = 0;
			sw_session_group_signal(s, group_fd, sig);
		}
		if (!st.done && s->main_stopped)
			job_stopped(l, s, group_fd, &jt);
	}
	if (l->init_signals)
		init_restore(init_old);
	else
		for (int i = 0; i < n_sigs; i++)
			sigaction(sigs[i], &old[i], NULL);
	sw_supervisor_free(sup);
	if (group_fd >= 0)
		close(group_fd);
	/* Take the terminal back (also when the launch failed after the
	 * child took it). */
	if (l->foreground && l->tty_fd >= 0)
		(void)tcsetpgrp(l->tty_fd, getpgrp());
	/* Given to the program in a pipeline: back to our job, unless the
	 * shell has given it to another job meanwhile. */
	if (jt.handed && tcgetpgrp(l->tty_fd) == jt.pgid)
		(void)tcsetpgrp(l->tty_fd, getpgrp());
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	if (ret_record)
		*ret_record = st.launch_failed ? NULL : TAKE_PTR(st.record);
	sw_record_free(st.record);
	if (r >= 0 && st.launch_failed) {
		/* The program never ran: an error, whose exit code
		 * sw_launch_failed() chose from the failed stage. */
		if (err)
			*err = st.launch_err;
		*ret_exit = (struct sw_exit){ .code = st.exit_code };
		return -st.launch_err.code;
	}
	if (r < 0) {
		*ret_exit = (struct sw_exit){ .code = SW_EXIT_SYSWARD_ERROR };
		return r;
	}
	*ret_exit = (struct sw_exit){ .code = st.exit_code,
				      .signal = st.term_sig, .core = st.core };
	return 0;
}
