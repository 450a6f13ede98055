/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The supervisor at its stops (engine/trace/): what its dispatch loop
 * (tracer.c), the session tables (session.c), the bell (bell.c) and the
 * SECCOMP stop (actions.c) export.  A stop handler returns its plan
 * (struct sw_resume); sw_restart() makes it, the one place a tracee is
 * resumed.
 */
#ifndef SW_ENGINE_TRACE_H
#define SW_ENGINE_TRACE_H

#include "internal.h"

enum sw_tracee_state {
	SW_T_RUNNING,
	SW_T_FRESH,		/* known from the parent's event; its first
				 * stop (PTRACE_EVENT_STOP) is still due */
	SW_T_ORPHAN,		/* first stop seen, session unknown: kept
				 * stopped until its parent's event names it */
};

/* A tid that exited before its parent's creation event was handled:
 * that event consumes it instead of adding a tracee that is gone. */
struct sw_tomb {
	pid_t pid;
	struct sw_session *s;	/* NULL: the session was unknown */
};

struct sw_tracee *sw_tracee_find(struct sw_supervisor *sup, pid_t pid);
struct sw_tracee *sw_tracee_add(struct sw_supervisor *sup, pid_t pid);
/* Is pid (as the supervisor numbers it) a tracee of s? */
bool sw_session_has(struct sw_supervisor *sup, const struct sw_session *s, long pid);
/* A seized main process and its session join the supervisor: the one
 * place a session enters the tables (launch.c's seize(); the event-order
 * unit test builds its sessions with it).  -ENOMEM, or 0. */
int sw_session_attach(struct sw_supervisor *sup, struct sw_session *s, pid_t pid);
void sw_tracee_del(struct sw_supervisor *sup, struct sw_tracee *t);
/* The session of a tid whose creation event has not been seen,
 * from /proc (its thread group, else its parent): NULL if none; what the
 * record says that one runs in *ret_prog. */
struct sw_session *sw_session_from_proc(struct sw_supervisor *sup, pid_t pid,
					uint16_t *ret_prog);
/* bell.c: true if pid is the bell (its status is handled): a wake, its
 * alarm ringing or being armed. */
bool sw_bell_status(struct sw_supervisor *sup, pid_t pid, int status);
/* bell.c: ring this tracer thread in about SW_BELL_ALARM_MS (the bell
 * started here if it was not; one alarm at a time). */
#define SW_BELL_ALARM_MS	20
void sw_bell_alarm(struct sw_supervisor *sup);
void sw_bell_stop(struct sw_supervisor *sup);
/* tracer.c: the one teardown of a session the supervisor no longer lists. */
void sw_session_free(struct sw_session *s);
/* Handle one waitpid status. */
void sw_handle_status(struct sw_supervisor *sup, pid_t pid, int status);
/*
 * What a stop handler wants done with its tracee: strace's {restart_op,
 * restart_sig}.  Handlers return it; the dispatcher (tracer.c) makes it
 * in one place, sw_restart(), which is the only code that resumes a
 * tracee (also a tracee other than the one whose stop is handled: a
 * hold's holder let go, an orphan adopted).
 */
enum sw_resume_op {
	SW_RESUME_CONT,		/* PTRACE_CONT */
	SW_RESUME_SYSCALL,	/* PTRACE_SYSCALL: its next syscall stop comes */
	SW_RESUME_LISTEN,	/* PTRACE_LISTEN: a group-stop, SIGCONT re-traps */
	SW_RESUME_HELD,		/* stays stopped: held, an orphan, or resumed
				 * by a later event (a hold's end) */
	SW_RESUME_NONE,		/* killed (or found dead): its exit comes */
};

struct sw_resume {
	enum sw_resume_op op;
	int sig;		/* CONT, SYSCALL: the signal delivered */
};

#define SW_RESUME(o, s)	((struct sw_resume){ .op = (o), .sig = (s) })
#define SW_CONT(s)	SW_RESUME(SW_RESUME_CONT, (s))
#define SW_SYSCALL(s)	SW_RESUME(SW_RESUME_SYSCALL, (s))
#define SW_LISTEN	SW_RESUME(SW_RESUME_LISTEN, 0)
#define SW_HELD		SW_RESUME(SW_RESUME_HELD, 0)
#define SW_DEAD		SW_RESUME(SW_RESUME_NONE, 0)
/* A plan dropped is a tracee left stopped for good: the compiler says so. */
#define SW_PLAN		__attribute__((warn_unused_result)) struct sw_resume

/* On, to the exit stop its SECCOMP stop asked for (t->exit_pending) or
 * further, delivering sig. */
SW_PLAN sw_resume_on(const struct sw_tracee *t, int sig);
/*
 * Make plan r for t (stopped): the one place a tracee is resumed.  0 (HELD
 * and NONE: nothing to do); -ESRCH if it was killed meanwhile (its exit
 * comes through waitpid); any other failure is warned about and the
 * tracee killed: left stopped it would hold its session forever.
 */
int sw_restart(struct sw_tracee *t, struct sw_resume r);
/* At a PTRACE_EVENT_STOP of t with signal sig: a group-stop (a stop
 * signal) stays stopped, as unconfined, but listening, so that SIGCONT
 * re-traps it: SW_LISTEN.  Any other (SIGCONT's re-trap, an interrupt):
 * other, the caller's way on. */
SW_PLAN sw_group_stop(struct sw_tracee *t, int sig,
		      struct sw_resume other);

/* actions.c: at a SECCOMP stop of t (stopped): capture the call, decide,
 * pin, contain, record, apply; what to do with t. */
SW_PLAN sw_seccomp_stop(struct sw_supervisor *sup, struct sw_tracee *t);
/* actions.c: at a syscall-exit stop; what to do with t. */
SW_PLAN sw_exit_stop(struct sw_supervisor *sup, struct sw_tracee *t);
/* actions.c: at the delivery stop of a SIGSYS, before it is delivered:
 * if it is a trap the supervisor raised, make its siginfo and registers
 * the kernel's. */
void sw_trap_signal_stop(struct sw_tracee *t);

/* Wait for a child that is ending (SIGKILLed, or exiting on its own):
 * bounded, whatever it did. */
static inline void sw_reap(pid_t pid)
{
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

#endif
