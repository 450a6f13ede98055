/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A policy compiled for one launch (program.c): the rules that apply,
 * every syscall name resolved per ABI, the defences in force; read by
 * the filters, the decision and everything that reports on them.
 */
#ifndef SW_ENGINE_PROGRAM_H
#define SW_ENGINE_PROGRAM_H

#include "internal.h"
#include "decide/defences.h"

/* ---- program.c: the compiled policy ------------------------------------ */

/* Built-in defences: SW_DEFENCE_* in sysward/engine.h. */

/* Which rule a decision came from, besides 0..n_rules-1. */
#define SW_RULE_DEFAULT		(-1)
#define SW_RULE_DEFENCE		(-2)
/* At or below: complain mode's judgement of a kernel file rule
 * (fscomplain.c), one code per layer, hierarchy and rights refused, so
 * that the record keeps each apart (its "why" names them). */
#define SW_RULE_FILES		(-1024)

static inline int sw_rule_files(bool sandbox, int spec, uint64_t refused)
{
	return SW_RULE_FILES - (int)(((uint32_t)sandbox << 27) |
				     ((uint32_t)(spec + 1) << 16) |
				     (uint32_t)(refused & 0xffff));
}

/* Is it sysward's own (a defence, a file rule's judgement), not the
 * policy's rule or default? */
static inline bool sw_rule_builtin(int rule)
{
	return rule == SW_RULE_DEFENCE || rule <= SW_RULE_FILES;
}

/* TRACE data that names no rule.  The data is a hint for the audit trail
 * only: the program's own filters can return SECCOMP_RET_TRACE with data
 * of their choosing (the newest filter's data wins a tie), so decide.c
 * derives the rule from (ABI, nr, args) itself. */
#define SW_HINT_NONE		0xffffu
#define SW_MAX_RULES		SW_LIMIT_RULES
_Static_assert(SW_LIMIT_RULES < 0xfff0u, "rule indexes must stay below the hints");

/* Syscall numbers (x32 bit removed) below this have a per-ABI lookup
 * table of the first rule naming them; larger ones are scanned. */
#define SW_NR_SPAN		1024u

/*
 * Who decides the calls the policy refuses (its errno, kill and trap
 * rules, its default action): the one switch filter.c reads.
 *   SW_REFUSALS_KERNEL   the filter, with no stop (the fast path);
 *   SW_REFUSALS_SEEN     errno refusals stop at the supervisor, which
 *                        refuses them alike and logs them (an audit
 *                        log is kept); kill and trap stay the kernel's,
 *                        and the built-in defences' refusals too;
 *   SW_REFUSALS_RECORDED a record is kept (--report, --gate, learn):
 *                        every refusal stops so that it is counted --
 *                        errno, kill and trap rules, the built-in
 *                        defences; the supervisor refuses each alike,
 *                        a kill the filter would have made through the
 *                        kernel itself (sw_filter_kernel_kill_nr), a
 *                        trap with its own SIGSYS;
 *   SW_REFUSALS_COMPLAIN every refusal stops, the built-in defences'
 *                        too, so that complain mode sees each one
 *                        (actions.c lets the policy's run, and keeps
 *                        the defences').
 * Set by prepare.c from the launch, before the filters are built.
 */
enum sw_refusals {
	SW_REFUSALS_KERNEL,
	SW_REFUSALS_SEEN,
	SW_REFUSALS_RECORDED,
	SW_REFUSALS_COMPLAIN,
};

struct sw_prog_rule {
	const struct sw_rule *rule;
	bool applies;			/* includes/excludes hold */
	bool traced;			/* needs the supervisor */
	bool landlock;			/* the kernel's Landlock decides it
					 * (pathrules.c): applies is false */
	int *nrs[SW_ABI_COUNT];		/* names resolved per ABI, -1 absent */
	int new_nr[SW_ABI_COUNT];	/* rewrite target, -1 = keep/absent */
	/* masks[abi][k * 6 + index]: the bits of argument `index` of the
	 * k-th name the kernel reads on that ABI (sw_arg_mask). */
	uint64_t *masks[SW_ABI_COUNT];
	/* kinds[abi][k * 6 + index]: what a "paths" condition reads there
	 * (enum sw_arg_kind), and for SW_ARG_SOCKADDR the argument of its
	 * length in the high four bits (sysward/pathargs.h). */
	uint8_t *kinds[SW_ABI_COUNT];
};

struct sw_program {
	const struct sw_policy *policy;
	struct sw_policy_ctx ctx;
	bool abi_enabled[SW_ABI_COUNT];
	unsigned int defences;		/* SW_DEFENCE_* in force */
	unsigned int contained;		/* SW_CONTAINED_*: the launch's own views */
	bool fs_complain;		/* complain mode over the kernel's file
					 * rules: every open stops, judged at
					 * its exit (fscomplain.c) */
	bool excl_creates_new;		/* the program can never be uid 0: an
					 * exclusive create needs no check
					 * (filter.c, objects.c) */
	bool observe_stderr;		/* writes to descriptor 2 stop for the
					 * audit's line gate (linegate.c) */
	pid_t supervisor_pid;		/* for SW_DEFENCE_SIGNAL_SUPERVISOR */
	int sys[SW_ABI_COUNT][SW_SYS_COUNT];
	uint64_t sys_mask[SW_ABI_COUNT][SW_SYS_COUNT][6];
	/* sw_denials[i]'s syscall number and argument masks per ABI */
	int denial_nr[SW_ABI_COUNT][SW_DENIAL_COUNT];
	uint64_t denial_mask[SW_ABI_COUNT][SW_DENIAL_COUNT][6];
	/* first[abi][nr]: the first applicable rule naming nr, or
	 * SW_HINT_NONE (nr with the x32 bit removed, < SW_NR_SPAN). */
	uint16_t *first[SW_ABI_COUNT];
	size_t n_rules;
	struct sw_prog_rule *rules;
	bool needs_supervisor;		/* a policy rule (not a defence) traces */
	bool restricts;			/* policy is not "allow everything" */
	/* enosys_above[abi]: calls of this ABI with a greater number get
	 * ENOSYS (sw_prog_enosys); 0: no such rule on this ABI */
	uint32_t enosys_above[SW_ABI_COUNT];
	enum sw_refusals refusals;	/* who decides a refusal (filter.c) */
	bool needs_landlock_paths;	/* "paths" rules Landlock decides */
	/* The launch can answer sw_notif_rule()'s rules through a seccomp
	 * listener (notif.c): filter.c compiles them to USER_NOTIF. */
	bool listener;
	const char *no_listener_why;	/* why not (prepare.c), or NULL */
};

/*
 * Build the program for a policy in a launch context.  abis: the ABIs to
 * filter (NULL-free bool array) or NULL for the policy's "architectures"
 * (default: every x86 ABI).  defences_off: SW_DEFENCE_* to leave out.
 */
int sw_program_new(struct sw_program **ret, const struct sw_policy *p,
		   const struct sw_policy_ctx *ctx, unsigned int defences_off,
		   pid_t supervisor_pid, struct sw_error *err);
void sw_program_free(struct sw_program *prog);
struct sw_pathrules;
/* The rules the launch compiled to Landlock (pathrules.c) leave the
 * program: the filter and the stops no longer see them. */
void sw_program_landlock_rules(struct sw_program *prog, const struct sw_pathrules *lr);
/* sw_prepared_overridden() for one compiled program. */
void sw_program_overridden(const struct sw_program *prog,
			   sw_overridden_fn fn, void *ud);

/* Does rule i name syscall nr on this ABI? */
bool sw_prog_rule_names(const struct sw_program *prog, size_t i,
			enum sw_abi abi, uint64_t nr);
/* Which of rule i's names is syscall nr on this ABI (its index), or -1. */
int sw_prog_rule_name_at(const struct sw_program *prog, size_t i,
			 enum sw_abi abi, uint64_t nr);
/*
 * Calls newer than every call the policy names fail with ENOSYS, as under
 * runc (libcontainer/seccomp/patchbpf): a program that tries a new call
 * first (glibc, Go, Rust) then falls back to an old one instead of taking
 * the default's EPERM for a refusal.  The rule, per ABI: when the default
 * action does not allow (SCMP_ACT_ERRNO other than ENOSYS, a kill, a
 * trap), a call whose number is above the greatest number an applicable
 * rule names on that ABI gets ENOSYS, whatever the rest of the policy;
 * an ABI on which the policy names nothing has no such rule.  Unlike
 * runc, a call that one of sysward's refusals in force covers
 * (sw_denials: io_uring_*, pidfd_getfd, ...) keeps that refusal.
 * The filter (sw_filter_add_enosys) and the supervisor ask this.
 */
bool sw_prog_enosys(const struct sw_program *prog, enum sw_abi abi, uint64_t nr);
/* Does one of the refusals in force (sw_denials) cover syscall nr on this
 * ABI, under some arguments? */
bool sw_prog_denies_nr(const struct sw_program *prog, enum sw_abi abi, uint64_t nr);
/* The first applicable rule naming nr on this ABI, or SW_HINT_NONE. */
unsigned int sw_prog_first_rule(const struct sw_program *prog, enum sw_abi abi,
				uint64_t nr);
/* The bits of argument `index` of syscall `name` that the kernel reads on
 * this ABI: the argument's type (sw_syscall_arg_mask) within the ABI's
 * register width.  The one rule for filter.c and decide.c alike. */
uint64_t sw_arg_mask(enum sw_abi abi, const char *name, unsigned int index);
/* sw_arg_mask() of the six arguments at once, into ret. */
void sw_arg_masks(enum sw_abi abi, const char *name, uint64_t ret[6]);

#endif
