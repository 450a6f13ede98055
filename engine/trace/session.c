// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A supervisor's tables: every tracee (thread or process) by tid, in an
 * open-addressing table, pointing at its session; the sessions' life
 * (attach, kill; the teardown, which frees what every stop handler keeps,
 * is the dispatcher's: tracer.c) and what callers read of them; the main
 * process's group-stop (job control: PTRACE_LISTEN, the caller told);
 * sw_restart(), the one function that resumes a tracee.  Below every
 * stop handler (actions.c, pathguard.c, signals.c, reach.c, peers.c,
 * resultcheck.c) and the tracer loop (tracer.c), which all find tracees
 * here: nothing here handles a stop or waits, nor calls a stop handler.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "sys.h"
#include "record/audit.h"
#include "trace/trace.h"

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

/* Is pid a tracee of s? */
bool sw_session_has(struct sw_supervisor *sup, const struct sw_session *s, long pid)
{
	struct sw_tracee *x;

	if (pid <= 0 || pid > INT_MAX)
		return false;
	x = sw_tracee_find(sup, (pid_t)pid);
	return x && x->s == s;
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
	sw_audit_strings_clear(&t->kept);
	free(t->gs);
	free(t->rc);
	memset(t, 0, sizeof(*t));
	t->pid = TAB_TOMB;
}

int sw_session_attach(struct sw_supervisor *sup, struct sw_session *s, pid_t pid)
{
	struct sw_tracee *t = sw_tracee_add(sup, pid);

	if (!t)
		return -ENOMEM;
	t->s = s;
	t->state = SW_T_RUNNING;
	t->announced = true;
	s->n_tracees = 1;
	s->pid = pid;
	if (s->record)
		sw_record_task(s->record);
	s->seq = ++sup->session_seq;
	s->next = sup->sessions;
	sup->sessions = s;
	return 0;
}

void sw_session_kill(struct sw_session *s)
{
	struct sw_supervisor *sup = s->sup;

	s->signalled = true;
	/* The main process's end is ours only if it had not ended already
	 * (--kill-descendants after it died of a signal keeps that death). */
	if (!s->main_exited)
		s->killed = true;
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s)
			sw_sys_kill(sup->tab[i].pid, SIGKILL);
}

/* The session of a tid whose creation event we have not seen, from /proc
 * (thread group, else parent), so that a creator that dies before its
 * event reaches us cannot leave the child stopped.  Also answers for a
 * zombie (an exit of a tid killed before its first stop).  *ret_prog:
 * the program that one runs (the record's), which the tid runs too. */
struct sw_session *sw_session_from_proc(struct sw_supervisor *sup, pid_t pid,
					uint16_t *ret_prog)
{
	pid_t tgid, ppid;
	struct sw_tracee *p;

	*ret_prog = 0;
	if (sw_sys_proc_ids(pid, &tgid, &ppid) < 0)
		return NULL;
	p = tgid != pid ? sw_tracee_find(sup, tgid) : NULL;
	if ((!p || !p->s) && ppid)
		p = sw_tracee_find(sup, ppid);
	if (!p || !p->s)
		return NULL;
	*ret_prog = p->rec_prog;
	return p->s;
}

bool sw_job_stop_signal(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

pid_t sw_session_pid(const struct sw_session *s)
{
	return s->pid;
}

int sw_session_take_tty(struct sw_session *s)
{
	int fd = s->tty_master;

	s->tty_master = -1;
	return fd;
}

uint64_t sw_session_stop_decisions(const struct sw_session *s)
{
	return s->decisions;
}

void *sw_session_userdata(const struct sw_session *s)
{
	return s->userdata;
}

uint64_t sw_session_signal_stops(const struct sw_session *s)
{
	return s->signal_stops;
}

void sw_session_mark_signalled(struct sw_session *s)
{
	s->signalled = true;
}

struct sw_record *sw_session_take_record(struct sw_session *s)
{
	return TAKE_PTR(s->record);
}

const struct sw_error *sw_session_launch_error(const struct sw_session *s)
{
	return s->launch_failed ? &s->launch_err : NULL;
}

int sw_session_term_signal(const struct sw_session *s, bool *ret_core)
{
	/* Killed by sysward (sysward kill, events it cannot follow): its
	 * documented 137, no signal of the program's; and a program that
	 * never ran has its launch error's status. */
	bool by_signal = s->main_exited && s->term_sig && !s->killed &&
			 !s->launch_failed;

	if (ret_core)
		*ret_core = by_signal && s->core_dumped;
	return by_signal ? s->term_sig : 0;
}

struct sw_resume sw_group_stop(struct sw_tracee *t, int sig,
			       struct sw_resume other)
{
	if (sig != SIGSTOP && !sw_job_stop_signal(sig))
		return other;	/* PTRACE_INTERRUPT or SIGCONT's re-trap */
	/* A stop sent at the program's pid from outside its job (a process
	 * monitor, another terminal) is undone at that pid, as a SIGSTOP:
	 * its caller, stopped with it, would hold up the continued program
	 * for good (nothing continues the caller). */
	if (t->s && t->pid == t->s->pid && t->s->main_stop_outside &&
	    sw_job_stop_signal(sig))
		sig = SIGSTOP;
	if (t->s && t->pid == t->s->pid) {
		t->s->main_stopped = true;
		t->s->main_stop_sig = sig;
		if (sw_job_stop_signal(sig) && t->s->sup->job_stop_fn)
			t->s->sup->job_stop_fn(t->s, sig, t->s->sup->job_stop_ud);
	}
	return SW_LISTEN;
}

struct sw_resume sw_resume_on(const struct sw_tracee *t, int sig)
{
	return t->exit_pending ? SW_SYSCALL(sig) : SW_CONT(sig);
}

static const char *const resume_req_name[] = {
	[SW_RESUME_CONT] = "PTRACE_CONT",
	[SW_RESUME_SYSCALL] = "PTRACE_SYSCALL",
	[SW_RESUME_LISTEN] = "PTRACE_LISTEN",
};

int sw_restart(struct sw_tracee *t, struct sw_resume r)
{
	static const long req[] = {
		[SW_RESUME_CONT] = PTRACE_CONT,
		[SW_RESUME_SYSCALL] = PTRACE_SYSCALL,
		[SW_RESUME_LISTEN] = PTRACE_LISTEN,
	};
	int e;

	if (r.op != SW_RESUME_CONT && r.op != SW_RESUME_SYSCALL &&
	    r.op != SW_RESUME_LISTEN)
		return 0;	/* held, or killed: nothing to resume */
	if (sw_sys_ptrace((int)req[r.op], t->pid, NULL,
			  (void *)(long)(r.op == SW_RESUME_LISTEN ? 0 : r.sig)) == 0) {
		/* Listening, it runs nothing until SIGCONT makes it stop
		 * again (peers.c need not interrupt it). */
		t->listening = r.op == SW_RESUME_LISTEN;
		return 0;
	}
	/* Killed meanwhile: SIGKILL ends a ptrace-stop, and every request
	 * then fails with ESRCH (ptrace_check_attach() in kernel/ptrace.c
	 * wants it stopped); its exit comes through waitpid like any
	 * other. */
	e = errno;
	if (e == ESRCH)
		return -ESRCH;
	/* Left stopped it would hold its session forever; fail closed. */
	sw_warn(t->s, "cannot resume pid %d (%s: %s); killing it",
		t->pid, resume_req_name[r.op], strerror(e));
	sw_sys_kill(t->pid, SIGKILL);
	return -e;
}
