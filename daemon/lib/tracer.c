// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The supervisor: one tracer for any number of sessions.
 *
 * Every tracee (thread or process) is in an open-addressing table keyed
 * by tid, pointing at its session.  sw_supervisor_dispatch() waits with
 * waitpid(-1, __WALL) and routes each stop:
 *   - PTRACE_EVENT_SECCOMP           -> actions.c (decide + SET)
 *   - syscall-exit stop (SIGTRAP|0x80) -> actions.c (set the return value)
 *   - PTRACE_EVENT_FORK/VFORK/CLONE  -> the new tid joins the session; its
 *     own first stop may come before or after this event (both orders are
 *     handled: SW_T_FRESH / SW_T_ORPHAN)
 *   - PTRACE_EVENT_EXEC              -> a multithreaded exec gives the
 *     execing thread the leader's tid; the former tid vanishes silently
 *   - PTRACE_EVENT_STOP              -> group-stop: PTRACE_LISTEN, so job
 *     control works as unconfined; other event stops just continue
 *   - signal-delivery stop           -> the signal is injected on resume
 *   - exit                           -> leaves the table; the session is
 *     done when its last tracee is gone
 * The waitpid(-1) means the supervisor reaps every child of its process:
 * a daemon must not run other children of its own beside it (or accept
 * that their exits are consumed here).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#define TAB_EMPTY 0
#define TAB_TOMB (-1)

static size_t slot_of(pid_t pid, size_t size)
{
	return ((uint32_t)pid * 2654435761u) & (size - 1);
}

struct sw_tracee *sw_tracee_find(struct sw_supervisor *sup, pid_t pid)
{
	size_t mask = sup->tab_size - 1;

	for (size_t i = slot_of(pid, sup->tab_size), n = 0; n < sup->tab_size;
	     i = (i + 1) & mask, n++) {
		if (sup->tab[i].pid == pid)
			return &sup->tab[i];
		if (sup->tab[i].pid == TAB_EMPTY)
			return NULL;
	}
	return NULL;
}

static int tab_grow(struct sw_supervisor *sup, size_t size)
{
	struct sw_tracee *old = sup->tab, *tab;
	size_t old_size = sup->tab_size;

	tab = calloc(size, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	sup->tab = tab;
	sup->tab_size = size;
	sup->tab_used = 0;
	for (size_t i = 0; i < old_size; i++) {
		if (old[i].pid > 0) {
			size_t j = slot_of(old[i].pid, size);

			while (tab[j].pid != TAB_EMPTY)
				j = (j + 1) & (size - 1);
			tab[j] = old[i];
			sup->tab_used++;
		}
	}
	free(old);
	return 0;
}

struct sw_tracee *sw_tracee_add(struct sw_supervisor *sup, pid_t pid)
{
	struct sw_tracee *t = sw_tracee_find(sup, pid);
	size_t i;

	if (t)
		return t;
	if ((sup->tab_used + 1) * 2 > sup->tab_size) {
		/* Rehash; grow only if live entries (not tombstones of
		 * exited tracees) need it, so a long-running daemon's table
		 * stays the size of its peak. */
		size_t live = 0, size = sup->tab_size;

		for (size_t i = 0; i < sup->tab_size; i++)
			live += sup->tab[i].pid > 0;
		while ((live + 1) * 4 > size)
			size *= 2;
		if (tab_grow(sup, size) < 0)
			return NULL;
	}
	for (i = slot_of(pid, sup->tab_size); sup->tab[i].pid > 0;
	     i = (i + 1) & (sup->tab_size - 1))
		;
	if (sup->tab[i].pid == TAB_EMPTY)
		sup->tab_used++;
	t = &sup->tab[i];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	return t;
}

void sw_tracee_del(struct sw_supervisor *sup, struct sw_tracee *t)
{
	(void)sup;
	sw_pathguard_forget(t);
	memset(t, 0, sizeof(*t));
	t->pid = TAB_TOMB;
}

void sw_warn(struct sw_session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s && s->sup->warn_fn)
		s->sup->warn_fn(s, msg, s->sup->warn_ud);
}

int sw_supervisor_new(struct sw_supervisor **ret, struct sw_error *err)
{
	struct sw_supervisor *sup = calloc(1, sizeof(*sup));

	if (!sup)
		return sw_error_set_errno(err, ENOMEM, "allocate the supervisor");
	sup->tab_size = 64;
	sup->tab = calloc(sup->tab_size, sizeof(*sup->tab));
	if (!sup->tab) {
		free(sup);
		return sw_error_set_errno(err, ENOMEM, "allocate the supervisor");
	}
	sup->self = getpid();
	/* A same-uid tracee must not ptrace us or open /proc/<us>/mem. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		int e = errno;

		free(sup->tab);
		free(sup);
		return sw_error_set_errno(err, e, "make the supervisor non-dumpable (prctl PR_SET_DUMPABLE)");
	}
	*ret = sup;
	return 0;
}

static void session_free(struct sw_session *s)
{
	if (!s)
		return;
	sw_program_free(s->prog);
	free(s->counters);
	free(s);
}

static void session_unlink(struct sw_supervisor *sup, struct sw_session *s)
{
	for (struct sw_session **pp = &sup->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			return;
		}
	}
}

void sw_supervisor_free(struct sw_supervisor *sup)
{
	if (!sup)
		return;
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0)
			kill(sup->tab[i].pid, SIGKILL);
	for (size_t i = 0; i < sup->tab_size; i++) {
		if (sup->tab[i].pid > 0)
			while (waitpid(sup->tab[i].pid, NULL, __WALL) < 0 &&
			       errno == EINTR)
				;
	}
	while (sup->sessions) {
		struct sw_session *s = sup->sessions;

		sup->sessions = s->next;
		session_free(s);
	}
	free(sup->tab);
	free(sup);
}

void sw_supervisor_on_done(struct sw_supervisor *sup, sw_session_done_fn fn,
			   void *userdata)
{
	sup->done_fn = fn;
	sup->done_ud = userdata;
}

void sw_supervisor_on_warning(struct sw_supervisor *sup, sw_warning_fn fn,
			      void *userdata)
{
	sup->warn_fn = fn;
	sup->warn_ud = userdata;
}

pid_t sw_session_pid(const struct sw_session *s)
{
	return s->pid;
}

uint64_t sw_session_decisions(const struct sw_session *s)
{
	return s->decisions;
}

void sw_session_kill(struct sw_session *s)
{
	struct sw_supervisor *sup = s->sup;

	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s)
			kill(sup->tab[i].pid, SIGKILL);
}

/* Send sig to every process (and thread) of the session. */
static void session_signal_all(struct sw_session *s, int sig)
{
	struct sw_supervisor *sup = s->sup;

	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s)
			kill(sup->tab[i].pid, sig);
}

int sw_session_signal(struct sw_session *s, int sig)
{
	/*
	 * Job control acts on the whole job, as a terminal's does on its
	 * foreground process group.  The daemon's programs are in a session
	 * of their own (launch.c), with no terminal: their group is orphaned,
	 * and the kernel discards SIGTSTP, SIGTTIN and SIGTTOU there:
	 * stop them with SIGSTOP, and continue them all with SIGCONT.
	 */
	if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
		session_signal_all(s, SIGSTOP);
		return 0;
	}
	if (sig == SIGCONT) {
		session_signal_all(s, SIGCONT);
		return 0;
	}
	if (kill(s->pid, sig) < 0)
		return -errno;
	return 0;
}

static void session_check_done(struct sw_supervisor *sup, struct sw_session *s)
{
	if (s->n_tracees || s->launching)
		return;
	session_unlink(sup, s);
	if (sup->done_fn)
		sup->done_fn(s, s->main_exited ? s->exit_code : SW_EXIT_SYSWARD_ERROR,
			     sup->done_ud);
	session_free(s);
}

static void join(struct sw_tracee *t, struct sw_session *s)
{
	t->s = s;
	s->n_tracees++;
}

/* A stop from a tid whose parent's event we have not seen: find its
 * session from /proc (thread group, else parent), so that a parent that
 * dies before reporting the event cannot leave the child stopped. */
static struct sw_session *session_from_proc(struct sw_supervisor *sup, pid_t pid)
{
	char path[64], line[128];
	FILE *f;
	pid_t tgid = 0, ppid = 0;
	struct sw_tracee *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5))
			tgid = atoi(line + 5);
		else if (!strncmp(line, "PPid:", 5))
			ppid = atoi(line + 5);
	}
	fclose(f);
	if (tgid && tgid != pid && (p = sw_tracee_find(sup, tgid)) && p->s)
		return p->s;
	if (ppid && (p = sw_tracee_find(sup, ppid)) && p->s)
		return p->s;
	return NULL;
}

static void new_child(struct sw_supervisor *sup, struct sw_tracee *parent)
{
	unsigned long msg = 0;
	struct sw_tracee *c;
	struct sw_session *ps = parent->s;
	struct sw_guard *pg = parent->guard;
	uint8_t pgs = parent->guard_state;

	/* Careful: adding to the table may move it; parent is not used
	 * after sw_tracee_add(). */
	if (ptrace(PTRACE_GETEVENTMSG, parent->pid, 0L, &msg) < 0 || !msg)
		return;
	c = sw_tracee_find(sup, (pid_t)msg);
	if (c) {
		sw_pathguard_inherit(c, pg, pgs);
		if (c->state == SW_T_ORPHAN) {
			if (!c->s)
				join(c, ps);
			c->state = SW_T_RUNNING;
			ptrace(PTRACE_CONT, c->pid, 0L, 0L);
		}
		return;
	}
	c = sw_tracee_add(sup, (pid_t)msg);
	if (!c) {
		/* No memory to track it: it must not run unsupervised. */
		sw_warn(ps, "cannot track new process %lu (out of memory); killing it", msg);
		kill((pid_t)msg, SIGKILL);
		return;
	}
	c->state = SW_T_FRESH;
	sw_pathguard_inherit(c, pg, pgs);
	join(c, ps);
}

static void exec_event(struct sw_supervisor *sup, struct sw_tracee *t)
{
	unsigned long former = 0;

	if (ptrace(PTRACE_GETEVENTMSG, t->pid, 0L, &former) == 0 &&
	    (pid_t)former != t->pid) {
		struct sw_tracee *f = sw_tracee_find(sup, (pid_t)former);

		/* The execing thread took over the leader's tid; the former
		 * tid reports no exit of its own.  The leader's entry now
		 * stands for the execing thread: give it that thread's
		 * syscall state (the old leader's, say an exit stop it was
		 * owed, died with it). */
		if (f) {
			t->exit_pending = f->exit_pending;
			t->exit_set = f->exit_set;
			t->exit_audit = f->exit_audit;
			t->is_error = f->is_error;
			t->inject_sig = f->inject_sig;
			t->rval = f->rval;
			t->abi = f->abi;
			t->nr = f->nr;
			memcpy(t->args, f->args, sizeof(t->args));
			t->d = f->d;
			if (f->s)
				f->s->n_tracees--;
			sw_tracee_del(sup, f);
		} else {
			t->exit_pending = false;
			t->inject_sig = 0;
		}
		t = sw_tracee_find(sup, (pid_t)t->pid);
	}
	if (t && t->s && !t->s->exec_done) {
		t->s->exec_done = true;
		/* "when" counters count the program's calls, not the
		 * launcher's PATH search. */
		memset(t->s->counters, 0,
		       sizeof(uint32_t) * (t->s->prog->n_rules ? t->s->prog->n_rules : 1));
	}
}

void sw_handle_status(struct sw_supervisor *sup, pid_t pid, int status)
{
	struct sw_tracee *t = sw_tracee_find(sup, pid);
	int sig, ev;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		struct sw_session *s;

		if (!t)
			return;
		s = t->s;
		sw_tracee_del(sup, t);
		if (!s)
			return;
		if (pid == s->pid) {
			s->main_exited = true;
			s->exit_code = WIFEXITED(status) ? WEXITSTATUS(status)
							 : 128 + WTERMSIG(status);
		}
		s->n_tracees--;
		session_check_done(sup, s);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	sig = WSTOPSIG(status);
	ev = (unsigned int)status >> 16;

	if (!t) {
		/* An auto-attached child stopped before its parent's
		 * PTRACE_EVENT_FORK/CLONE reached us. */
		struct sw_session *s = session_from_proc(sup, pid);

		t = sw_tracee_add(sup, pid);
		if (!t) {
			kill(pid, SIGKILL);
			return;
		}
		if (s) {
			join(t, s);
			t->state = SW_T_RUNNING;
			ptrace(PTRACE_CONT, pid, 0L, 0L);
		} else {
			t->state = SW_T_ORPHAN;
		}
		return;
	}
	if (t->state == SW_T_FRESH) {
		t->state = SW_T_RUNNING;
		if (ev == PTRACE_EVENT_STOP) {
			ptrace(PTRACE_CONT, pid, 0L, 0L);
			return;
		}
	}
	if (!t->s) {
		/* An orphan's further stop (cannot happen: it stays
		 * stopped until adopted); keep it stopped. */
		return;
	}

	if (sig == (SIGTRAP | 0x80)) {
		sw_exit_stop(sup, t);
		return;
	}
	switch (ev) {
	case PTRACE_EVENT_SECCOMP:
		sw_seccomp_stop(sup, t);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		new_child(sup, t);
		t = sw_tracee_find(sup, pid);
		if (t)
			sw_resume(t, 0);
		return;
	case PTRACE_EVENT_EXEC:
		exec_event(sup, t);
		t = sw_tracee_find(sup, pid);
		if (t && !sw_pathguard_exec(sup, t))
			sw_resume(t, 0);
		return;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU) {
			/* Group-stop: stay stopped, but let us see SIGCONT. */
			if (pid == t->s->pid)
				t->s->main_stopped = true;
			ptrace(PTRACE_LISTEN, pid, 0L, 0L);
			return;
		}
		sw_resume(t, 0);
		return;
	case 0:
		/* Signal-delivery stop: deliver it. */
		sw_resume(t, sig);
		return;
	default:
		sw_resume(t, 0);
		return;
	}
}

int sw_supervisor_dispatch(struct sw_supervisor *sup, bool block,
			   struct sw_error *err)
{
	int handled = 0;

	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status,
				    __WALL | (block && !handled ? 0 : WNOHANG));

		if (pid == 0)
			return handled;
		if (pid < 0) {
			if (errno == ECHILD || errno == EINTR)
				return handled;
			return sw_error_set_errno(err, errno, "waitpid for traced programs");
		}
		sw_handle_status(sup, pid, status);
		handled++;
		/* Let the caller attend to its sockets now and then. */
		if (handled >= 256)
			return handled;
	}
}
