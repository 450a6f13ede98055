/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A call decided on what it returns (resultcheck.c): run to its exit
 * stop, where its judges (objects.c, fscomplain.c) say what becomes of
 * its result; the checked call itself is checked.h's.
 */
#ifndef SW_ENGINE_RESULTCHECK_H
#define SW_ENGINE_RESULTCHECK_H

#include "internal.h"
#include "trace/checked.h"
#include "trace/trace.h"

/* ---- resultcheck.c: a call decided on what it returns ------------------- */

/* From the SECCOMP stop of t's checked call, to its exit stop: at once
 * (SW_SYSCALL), or for a call that returns a descriptor once every other
 * task sharing t's descriptor table is stopped (SW_HELD: the last of
 * their stops lets t go; they are held until the result is decided). */
SW_PLAN sw_rc_go(struct sw_supervisor *sup, struct sw_tracee *t);
/* A syscall stop (entry or exit) of t while t->rc is set: true if handled
 * here, *plan what to do with t (SW_DEAD: killed). */
bool sw_rc_syscall_stop(struct sw_supervisor *sup, struct sw_tracee *t,
			struct sw_resume *plan);
/* A SECCOMP stop of t while it runs a call injected here: true if
 * handled (it is ours: let through, *plan). */
bool sw_rc_seccomp_stop(struct sw_tracee *t, struct sw_resume *plan);
/* tracer.c, for each status while some session is held: true if the
 * status is kept for later (a stop of a tracee of a held session other
 * than its holder, or the first stop of a new tid of one). */
bool sw_rc_hold_status(struct sw_supervisor *sup, pid_t pid, int status);
/* t goes (exited, or replaced by a multithreaded exec's thread): its
 * checked call and any hold it made end with it. */
void sw_rc_forget(struct sw_supervisor *sup, struct sw_tracee *t);
/* A creation event: does the child share its creator's descriptor table
 * as another process (clone(CLONE_FILES) without CLONE_THREAD)? */
void sw_rc_new_child(struct sw_supervisor *sup, struct sw_session *s,
		     pid_t parent, pid_t child, int ev);
/* After a status that ended a hold (sup->rc_replay): the next stop it
 * kept, for the dispatcher to handle now, in the order they came; false
 * once none is left. */
bool sw_rc_replay_next(struct sw_supervisor *sup, pid_t *ret_pid, int *ret_status);
/* The dispatch loop, every millisecond while a session is held: a hold
 * whose call waits for a partner on a FIFO (which no write to a kernel
 * object does) is let go. */
void sw_rc_tick(struct sw_supervisor *sup);

#endif
