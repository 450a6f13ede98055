/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a session's program may act on, decided at its stops: signals
 * (signals.c), pids and groups (reach.c), the uid's kernel objects
 * (objects.c).
 */
#ifndef SW_ENGINE_REACH_H
#define SW_ENGINE_REACH_H

#include "internal.h"
#include "decide/program.h"
#include "trace/checked.h"

/* ---- signals.c: signals stay inside the program's tree ---------------- */

/*
 * At a SECCOMP stop whose decision lets a call run (d->verdict ALLOW or
 * REWRITE): if the call as it will run sends a signal, or names who gets
 * one later (kill family, pidfd_*, setpgid, F_SETOWN, FIOSETOWN), keep
 * it inside t's session: refuse it (SW_V_RETURN) or rewrite it to a
 * form whose target the supervisor checked (SW_V_REWRITE).
 */
void sw_signals_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d);

/* ---- reach.c: what a session's program may act on --------------------- */

/* The kernel's reading of a pid_t or int argument: the low 32 bits. */
static inline int32_t sw_as_int(uint64_t v)
{
	return (int32_t)(uint32_t)v;
}

/* Is pid, as caller numbers it (0: as the supervisor does), a tracee of
 * s?  Is process group pgid one a tracee of s is in (so one of s's)? */
bool sw_reach_pid(struct sw_supervisor *sup, struct sw_session *s,
		  pid_t caller, int32_t pid);
int sw_reach_refusal(pid_t caller, int32_t id);
/* At a signal-delivery stop of t by a job-control signal: was it sent
 * by a process outside t's job (neither the terminal, nor the
 * supervisor forwarding its caller's, nor the session itself)? */
bool sw_stop_from_outside(struct sw_supervisor *sup, struct sw_tracee *t);
/* tracer.c: a signal was sent to the session on request (run.c). */
void sw_session_mark_signalled(struct sw_session *s);
bool sw_reach_group(struct sw_supervisor *sup, struct sw_session *s,
		    pid_t caller, int32_t pgid);
/* Does caller, caller_depth pid namespaces deep, see pid (is pid's
 * namespace at that depth the caller's)? */
bool sw_reach_sees(pid_t caller, int caller_depth, pid_t pid);
/* How many pid namespaces deep pid is ("NSpid" entries), or -1. */
int sw_reach_ns_depth(pid_t pid);
/* A number of a /proc file's field ("Tgid", "flags"; index > 0: of a
 * list, "NSpid"), or false. */
bool sw_reach_proc_field(const char *path, const char *key, int base,
			 unsigned int index, long *ret);
/* Make d a refusal by a defence: -e, with why for the audit line. */
void sw_refuse(struct sw_decision *d, int e, const char *why);
/*
 * At a SECCOMP stop whose decision lets a call run: if it is one of
 * sw_pid_calls[] and its target is not the caller's session (a process
 * outside it, a group outside it, every process of a uid), refuse it
 * with EPERM.
 */
void sw_reach_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d);

/* ---- objects.c: the uid's kernel objects outside the session ------------ */

/* The defences (SW_DEFENCE_*) a launch needs no supervisor for, from the
 * views it contains by namespaces of its own (SW_CONTAINED_*): the one
 * switch.  prepare.c adds them to the launch's defences_off. */
unsigned int sw_objects_defences_off(unsigned int contained);
/* The keyrings a session's program must not reach besides @u and @us by
 * their special ids: user, user session and persistent, by serial (0:
 * none), as its launch child learned them. */
#define SW_OBJECTS_KEYRINGS	3

struct sw_objects;
struct sw_objects *sw_objects_new(void);
void sw_objects_free(struct sw_objects *o);
void sw_objects_set_keyrings(struct sw_objects *o,
			     const int32_t serials[SW_OBJECTS_KEYRINGS]);
/* The session's main process pid was seized, before its exec: its IPC
 * namespace is the one the session's bookkeeping is for. */
void sw_objects_launched(struct sw_objects *o, pid_t pid);

/*
 * At a SECCOMP stop whose decision lets a call run (d->verdict ALLOW or
 * REWRITE), after the other containments: refuse a call that names an
 * object of the uid's outside the session (a keyring, an IPC id), cut a
 * request_key upcall, make a get exclusive, and ask resultcheck.c to
 * check what the call returns (sw_rc_want: an open that can write, a
 * get, mq_open).
 */
void sw_objects_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d);

/* At the exit stop of t's checked call (resultcheck.c): what becomes
 * of its result rval. */
enum sw_rc_next sw_objects_result(struct sw_supervisor *sup, struct sw_tracee *t,
				  struct sw_rc *rc, int64_t rval,
				  struct sw_rc_out *out);

#endif
