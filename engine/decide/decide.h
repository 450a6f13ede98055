/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What decide/ exports besides the compiled program (program.h): the
 * filters (filter.c, bpfprefix.c), the pure decision at a SECCOMP stop
 * (decide.c), the calls a seccomp listener answers (notif.c).
 */
#ifndef SW_ENGINE_DECIDE_H
#define SW_ENGINE_DECIDE_H

#include "internal.h"

/* ---- filter.c ------------------------------------------------------- */

/* Opaque libseccomp context (scmp_filter_ctx).  The policy's filter: */
/* The action the policy's filter gives rule i's calls where no other
 * rule of the syscall mixes in: a plain action, USER_NOTIF for a rule
 * the listener answers (notif.c), or TRACE(hint). */
uint32_t sw_filter_rule_act(const struct sw_program *prog, size_t i,
			    unsigned int hint);
int sw_filter_build(const struct sw_program *prog, void **ret_ctx,
		    struct sw_error *err);
/* The built-in defences, a filter of their own loaded before the
 * policy's (see filter.c for why that order). */
int sw_filter_build_defences(const struct sw_program *prog, void **ret_ctx,
			     struct sw_error *err);
void sw_filter_free(void *ctx);
/* Export as classic BPF into a malloc'ed array of struct sock_filter. */
/* Put the ENOSYS rule (sw_prog_enosys) in front of the policy's exported
 * filter; nothing if it has none.  0 or -errno. */
int sw_filter_add_enosys(const struct sw_program *prog, void **insns, size_t *n,
			 struct sw_error *err);
/* Put the n_pre instructions at pre in front of the BPF program *insns
 * (*n of them), as a prefix that falls through to it; what names the
 * prefix in err.  0 or -errno (E2BIG past the kernel's limit). */
int sw_filter_prepend(void **insns, size_t *n, const void *pre, size_t n_pre,
		      const char *what, struct sw_error *err);
/* At the SECCOMP stop of a call decision d kills: where the refusals
 * are seen and the filter alone would have killed it, the number to set
 * the call to so that the kernel kills it on its recheck after the stop,
 * as it would have without the stop (SIGSYS; the prefix of
 * sw_filter_add_enosys answers it); else 0: kill it some other way. */
struct sw_decision;
uint32_t sw_filter_kernel_kill_nr(const struct sw_program *prog,
				  const struct sw_decision *d);
int sw_filter_export(void *ctx, void **ret_insns, size_t *ret_n,
		     struct sw_error *err);


/*
 * The supervisor's decision for one SECCOMP stop: pure apart from the
 * string reader and the per-rule counters (one per rule, counting calls
 * that met the rule's other conditions).  It takes no TRACE data: that is
 * the program's to forge (see decide.c).
 */
void sw_decide(const struct sw_program *prog, uint32_t audit_arch, uint64_t nr, const uint64_t args[6],
	       sw_read_arg_fn read_arg, void *read_ctx, uint32_t *counters,
	       struct sw_decide_scratch *scratch, struct sw_decision *ret);

/*
 * Complain mode, at a stop whose decision is a refusal by the policy
 * (d->refusal): let the call run as if allowed -- as called, or with
 * what the decision changed on the way (a stripped CLONE_UNTRACED) --
 * and mark it lifted.  What the policy says stays decide's to say; this
 * only changes what is done with a refusal.  nr and args: the call as
 * the program made it.  False (d untouched) for any other decision.
 */
bool sw_decision_lift(struct sw_decision *d, uint64_t nr,
		      const uint64_t args[6]);

/* Does rule i (it let the call nr run) grant a unix peer whose bound
 * name is name: a rule whose action lets it run, with a condition on
 * the call's address, each of which holds for name (decide.c)? */
bool sw_rule_grants(const struct sw_program *prog, int rule, enum sw_abi abi,
		    uint64_t nr, const char *name);
/* Does a strace-style when=first..last+step select call number n (1-based)? */
bool sw_when_selects(uint32_t first, uint32_t last, uint32_t step,
		     uint32_t n);

/*
 * notif.c: calls answered through a seccomp listener.  Which rules
 * (sw_notif_rule_why: NULL, or why not; one home for filter.c, `sysward
 * check` and the docs); the policy filter's prefix for the launch
 * child's handoff (execve with SW_NOTIF_MAGIC and the listener's number
 * as its 4th and 5th arguments) and for the SECCOMP_LISTENER refusal.
 * The handoff's magic is exec.c's (contain/contain.h); the session's
 * listener, taken at that stop, trace/listener.h's.
 */
const char *sw_notif_rule_why(const struct sw_program *prog, size_t i);
bool sw_notif_rule(const struct sw_program *prog, size_t i);
int sw_notif_patch_filter(const struct sw_program *prog, void **insns,
			  size_t *n, struct sw_error *err);
bool sw_notif_filter_has(const void *insns, size_t n);

#endif
