/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A call checked on what it returns (t->rc): what its SECCOMP stop asks
 * for (objects.c: sw_rc_want()), the record resultcheck.c's steps
 * advance to its exit stop and after, and what its judges (objects.c,
 * fscomplain.c) answer there.  Below all three, so that the judges and
 * the steps that ask them need nothing of each other but this.
 */
#ifndef SW_ENGINE_CHECKED_H
#define SW_ENGINE_CHECKED_H

#include "internal.h"

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
	uint8_t step;		/* enum sw_rc_step */
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

/* Where a checked call is (sw_rc.step): resultcheck.c's steps. */
enum sw_rc_step {
	SW_RC_HOLDING,		/* in its SECCOMP stop, sharers not stopped yet */
	SW_RC_CALL,		/* the call runs, to its exit stop */
	SW_RC_FREE,		/* the call runs, the hold given up (a FIFO) */
	SW_RC_INJECTED,		/* a call injected after it runs */
};

/* At a SECCOMP stop, for a call about to run as d says: check what it
 * returns.  t->rc is set (0), or -ENOMEM. */
int sw_rc_want(struct sw_tracee *t, uint8_t kind, enum sw_abi abi,
	       const struct sw_decision *d);

#endif
