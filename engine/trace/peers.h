/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unix peers outside the session (peers.c, route 19).
 */
#ifndef SW_ENGINE_PEERS_H
#define SW_ENGINE_PEERS_H

#include "internal.h"
#include "trace/trace.h"

/* ---- peers.c: unix peers outside the session (route 19) ---------------- */

struct sw_peer_check;
struct sw_peers;
struct sw_ptrace_syscall_info;

/* Where a tracee stands while a connect of its session holds the others
 * (struct sw_tracee's hold). */
enum sw_hold {
	SW_HOLD_NONE,
	SW_HOLD_WAIT,		/* interrupted; its stop is awaited */
	SW_HOLD_QUIET,		/* runs no code of the program before a stop
				 * (a first stop due, a group-stop, a call
				 * that sends nothing): not awaited */
	SW_HOLD_HELD,		/* stopped; its stop kept in held_status */
	SW_HOLD_REPLAY,		/* released: its stop is handled next */
};

/*
 * At a SECCOMP stop of i386's socketcall(2) carrying connect or listen:
 * the call as its direct form, with the arguments read from memory
 * once, into info (the decision then runs it as that, SET).  True if
 * it did.
 */
bool sw_peers_socketcall(struct sw_session *s, struct sw_tracee *t,
			 enum sw_abi abi, struct sw_ptrace_syscall_info *info);
/*
 * At a SECCOMP stop whose decision lets a call run: a listen is
 * remembered (its process's pid, the session's listener); a connect of
 * a unix socket is checked at its exit stop (t->pc; the caller resumes
 * t to its exit stop through sw_peers_go()); a connect the supervisor
 * cannot check is refused (d).
 */
void sw_peers_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d);
/* t (with t->pc) into its connect once the session is held: SW_SYSCALL,
 * or SW_HELD while stops of the others are awaited (the last of them
 * lets t go). */
SW_PLAN sw_peers_go(struct sw_supervisor *sup, struct sw_tracee *t);
/* At t's exit stop of its checked connect: judge its peer, undo a
 * refused connection, end the hold.  True if it chose t's way itself
 * (*plan: the connect made again). */
bool sw_peers_exit(struct sw_supervisor *sup, struct sw_tracee *t,
		   struct sw_resume *plan);
/* A stop of a tracee whose session is held: kept (true) until the
 * hold ends, when sw_peers_replay() gives it back. */
bool sw_peers_held(struct sw_supervisor *sup, struct sw_tracee *t, int status);
/* The next held stop to handle (after the current one), or false. */
bool sw_peers_replay(struct sw_supervisor *sup, pid_t *pid, int *status);
/* t is gone (exited, or replaced by an exec): its check and hold. */
void sw_peers_gone(struct sw_supervisor *sup, struct sw_tracee *t);
void sw_peers_free(struct sw_peers *p);

#endif
