/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A call in flight and what was decided of it: the language between the
 * decision (decide/), the stops that apply it (trace/) and the log and
 * record that report it (record/).  Pure types.
 */
#ifndef SW_ENGINE_CALL_H
#define SW_ENGINE_CALL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/policy.h"
#include "arch.h"

enum sw_verdict {
	SW_V_ALLOW,		/* run unchanged */
	SW_V_RETURN,		/* do not run; return retval */
	SW_V_REWRITE,		/* run nr(args) instead */
	SW_V_KILL,		/* SIGKILL the process */
};

struct sw_decision {
	enum sw_verdict verdict;
	int rule;			/* index, SW_RULE_DEFAULT/_DEFENCE */
	enum sw_action action;		/* what the rule said */
	int64_t retval;			/* SW_V_RETURN: -errno or a value */
	bool is_error;			/* retval is -errno */
	uint64_t nr;			/* SW_V_REWRITE (also filled else) */
	uint64_t args[6];
	bool audit;			/* write an audit line */
	int signal;			/* SW_V_RETURN + raise this (TRAP) */
	const char *path;		/* a string read for a condition */
	const char *why;		/* defence name, or NULL */
	uint8_t pinned;			/* args the path guard replaced */
	/* The policy itself refuses the call: its rule's (or default)
	 * action is errno, kill or trap (not a defence, not a fail-closed
	 * case).  Complain mode lets exactly these run. */
	bool refusal;
	bool lifted;			/* complain mode let it run */
};

/*
 * What a "paths" condition reads at an argument (sysward/pathargs.h says
 * which kind each argument is): the path name at addr, or a unix socket
 * address -- a sockaddr of len bytes at addr (len: its length argument,
 * the kernel's int), or a msghdr at addr laid out as abi's, whose
 * msg_name is the address.
 */
struct sw_arg_read {
	uint8_t kind;		/* enum sw_arg_kind; SW_ARG_NONE: a string */
	enum sw_abi abi;
	uint64_t addr;
	int64_t len;		/* SW_ARG_SOCKADDR */
};

/* Reads what a condition sees at an argument, spelled into buf (size >
 * SW_UNIX_ADDR_MAX): its length (truncated to size-1); -ENODATA for no
 * unix address (another family, NULL, a length the kernel refuses),
 * which meets no condition; or -errno. */
typedef int (*sw_read_arg_fn)(void *ctx, const struct sw_arg_read *a,
			      char *buf, size_t size);

/* Scratch a decision may keep path strings in (one per path condition
 * checked last; reused from stop to stop, no allocation). */
struct sw_decide_scratch {
	char path[4096];
};

/* The string arguments of a call whose audit line waits for its exit
 * stop, read at its entry: an execve that succeeds has replaced the
 * memory they were in by then, and another thread may rewrite them
 * meanwhile.  Bit i of kept: s[i] stands for argument i (NULL: it could
 * not be read). */
struct sw_audit_strings {
	uint8_t kept;
	char *s[6];
};

static inline void sw_audit_strings_clear(struct sw_audit_strings *k)
{
	for (int i = 0; i < 6; i++)
		free(k->s[i]);
	memset(k, 0, sizeof(*k));
}

/* A call in flight: what the kernel said of it at its SECCOMP stop
 * (PTRACE_GET_SYSCALL_INFO's op SECCOMP; ptrace_get_syscall_info_seccomp()
 * in kernel/ptrace.c), its ABI derived once. */
struct sw_call {
	uint32_t arch;			/* AUDIT_ARCH_* */
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	uint64_t ip;			/* instruction pointer */
};


#endif
