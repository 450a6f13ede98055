/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A call decided on what it returns (resultcheck.c), and complain mode
 * over the kernel's file rules, judged at an open's exit stop
 * (fscomplain.c).
 */
#ifndef SW_ENGINE_RESULTCHECK_H
#define SW_ENGINE_RESULTCHECK_H

#include "internal.h"
#include "trace/trace.h"

/* ---- fscomplain.c: complain mode over the kernel's file rules ---------- */

/* Does session s judge its file rules itself (complain mode over a
 * policy's "filesystem" section or --sandbox)? */
bool sw_fscomplain_on(const struct sw_session *s);
/* At the exit stop of t's open that can write (resultcheck.c), before
 * objects.c's verdict: judge what it opened against the file rules,
 * audit a refusal they would make, and record the call (its SECCOMP
 * stop left that to here). */
void sw_fscomplain_open(struct sw_supervisor *sup, struct sw_tracee *t,
			const struct sw_rc *rc, int64_t rval);


/* ---- resultcheck.c: a call decided on what it returns ------------------- */

enum sw_rc_kind {
	SW_RC_OPEN,		/* an open that can write: its descriptor */
	SW_RC_MQ_OPEN,		/* mq_open: the queue of its descriptor */
	SW_RC_IPC_GET,		/* shmget, semget, msgget: the id */
	SW_RC_IPC_RMID,		/* a removal: the id is gone */
};

/* A message queue's name as objects.c reads it: NAME_MAX and its NUL. */
#define SW_MQ_NAME_MAX	256

/* A checked call of a tracee (t->rc), from its SECCOMP stop to the end
 * of what resultcheck.c injects after it. */
struct sw_rc {
	uint8_t kind;		/* enum sw_rc_kind */
	uint8_t step;		/* resultcheck.c's */
	bool entered;		/* an injected call's entry stop seen */
	bool mask_saved;	/* sigmask holds the program's signal mask */
	uint8_t injected;	/* what runs now: close, or the call again */
	uint8_t tries;
	/* what objects.c wants remembered */
	uint8_t ipc;		/* SysV kind */
	int8_t flags_arg;	/* which argument holds the flags (-1 none,
				 * -2 in memory) */
	bool created;		/* success means the object was made now */
	bool forced;		/* an exclusive create we asked for */
	bool existed;		/* ... whose key or name named an object at
				 * the stop */
	bool read_only;		/* an open that cannot write, stopped for
				 * complain mode's file rules alone */
	bool group_killed;	/* its caller died alone, its process killed
				 * (said once) */
	uint64_t orig_flags;	/* the program's own */
	uint32_t id;		/* IPC_RMID's id; a System V get's key */
	char mq_name[SW_MQ_NAME_MAX];	/* an mq_open made exclusive: its name */
	/* the call as it runs */
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	/* at the call's exit stop */
	struct sw_arch_regs r0;
	uint64_t sigmask;
	int64_t value;		/* what the call returns in the end */
	int fd;			/* a descriptor being closed */
	long long since_ms;	/* when it was let run under a hold */
	const char *why;
};

/* What to do with a checked call's result: objects.c decides,
 * resultcheck.c does it. */
enum sw_rc_next {
	SW_RC_KEEP,		/* the result stands */
	SW_RC_RETURN,		/* the call returns out->value instead */
	SW_RC_CLOSE,		/* close out->fd in the tracee, then return
				 * out->value */
	SW_RC_INJECT,		/* run out->nr(out->args) in the tracee, then
				 * decide again on its result */
};

struct sw_rc_out {
	int64_t value;
	int fd;
	uint64_t nr;
	uint64_t args[6];
	const char *why;
};

enum sw_rc_next sw_objects_result(struct sw_supervisor *sup, struct sw_tracee *t,
				  struct sw_rc *rc, int64_t rval,
				  struct sw_rc_out *out);

/* At a SECCOMP stop, for a call about to run as d says: check what it
 * returns.  t->rc is set (0), or -ENOMEM. */
int sw_rc_want(struct sw_tracee *t, uint8_t kind, enum sw_abi abi,
	       const struct sw_decision *d);
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
/* After a status that ended a hold (sup->rc_replay): the stops it kept,
 * handled now. */
void sw_rc_replay(struct sw_supervisor *sup);
/* The dispatch loop, every millisecond while a session is held: a hold
 * whose call waits for a partner on a FIFO (which no write to a kernel
 * object does) is let go. */
void sw_rc_tick(struct sw_supervisor *sup);

#endif
