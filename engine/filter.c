// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compile a struct sw_program into a libseccomp filter.
 *
 * libseccomp does not evaluate rules in order: it merges all rules of a
 * syscall into one decision tree, so rules whose argument conditions
 * overlap but whose actions differ have no "first match" in BPF.  sysward's
 * policies are first-match, so for each syscall the compiler takes the
 * applicable rules that name it, in policy order (built-in defences first),
 * cut after the first rule without conditions (the rest can never match),
 * and drops trailing rules whose action is the default action anyway.
 *   - none left: the default action decides, nothing to add;
 *   - all the same action (an OR of conditions): added as plain BPF rules,
 *     which is exactly first match -- the fast path, no stop;
 *   - otherwise, or if any needs the supervisor: the syscall is traced
 *     unconditionally, SCMP_ACT_TRACE(hint) with hint = the first
 *     applicable policy rule naming it, and decide.c evaluates the rules in
 *     order in userspace.  Correct for any overlap; costs a stop per call
 *     only for syscalls whose rules really mix actions.
 * Should libseccomp refuse a rule (a 64-bit datum on a 32-bit ABI, an
 * argument filter on a multiplexed i386 socketcall, ...), the syscall is
 * traced unconditionally too and the compile starts over.
 *
 * Argument widths: BPF sees whole registers, the kernel reads each
 * argument at its declared type (kill's pid_t: 32 bits; chmod's umode_t:
 * 16), so kill(1 | 1 << 32) is kill(1) to the kernel but not to a 64-bit
 * comparison.  Every comparison is made at the width the kernel reads
 * (sw_arg_mask, one table for this file and decide.c): EQ and MASKED_EQ
 * become MASKED_EQ under the width's mask.  NE on a narrower argument is
 * an OR over its bits: (a & m) != v exactly when some bit b of m differs,
 * so the rule becomes one rule per bit, MASKED_EQ(1 << b, ~v & 1 << b),
 * all with the rule's action (32 small rules for an int; Docker's
 * "socket unless AF_VSOCK" stays in BPF, and so runs on a kernel without
 * PTRACE_SET_SYSCALL_INFO).  One such NE per rule; LT, LE, GT, GE on a
 * narrower argument, a second narrow NE, or a comparison on an argument
 * the ABIs read at different widths (i386's 16-bit uid calls) cannot be
 * written in libseccomp, so such a syscall is traced unconditionally and
 * decide.c compares truncated values.
 *
 * (libseccomp 2.5 really does not do first match: with a conditional
 * ERRNO rule and an unconditional ALLOW rule for one syscall, the ALLOW
 * wins for every argument, whatever the order they were added in; and it
 * refuses two comparisons on the same argument in one rule.)
 *
 * The built-in defences are a second, separate filter, loaded *before*
 * the policy's.  The kernel runs every filter and takes the action of
 * highest precedence (KILL > TRAP > ERRNO > USER_NOTIF > TRACE > LOG >
 * ALLOW), so a defence's ERRNO overrides whatever the policy allows, and
 * the policy's stricter actions still win; no defence rule ever mixes with
 * a policy rule.  On a tie the newest filter's data wins: the policy's
 * errno over a defence's (see clone3_enosys).  TRACE data is a hint for a
 * reader of the filter only; decide.c derives the rule itself, since the
 * program's own filters are newer still.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"


/* One candidate rule for one syscall. */
struct cand {
	int rule;			/* policy index */
	bool traced;
	uint32_t act;			/* libseccomp action if !traced */
	size_t n_args;
	const struct sw_arg_cond *args;
};

/*
 * A plain action as the filter returns it: the action itself, or a stop
 * where the launch wants the supervisor to see the policy's refusals
 * (enum sw_refusals): errno ones when it logs or records, every one in
 * complain mode.  decide.c then says what the policy says, from the same
 * rules, and actions.c refuses the call (or, complaining, lets it run).
 */
static uint32_t plain_act(const struct sw_program *prog, enum sw_action a, int e)
{
	const uint32_t stop = SCMP_ACT_TRACE(SW_HINT_NONE);
	bool seen = prog->refusals != SW_REFUSALS_KERNEL;
	bool counted = prog->refusals >= SW_REFUSALS_RECORDED;

	switch (a) {
	case SW_ACT_ALLOW:
		return SCMP_ACT_ALLOW;
	case SW_ACT_ERRNO:
		return seen ? stop : SCMP_ACT_ERRNO((uint16_t)e);
	/* Kills and traps stop too where a record counts every refusal:
	 * the supervisor has the kernel kill exactly
	 * (sw_filter_kernel_kill_nr) and raises a trap's SIGSYS itself. */
	case SW_ACT_KILL_PROCESS:
		return counted ? stop : SCMP_ACT_KILL_PROCESS;
	case SW_ACT_KILL_THREAD:
		return counted ? stop : SCMP_ACT_KILL_THREAD;
	case SW_ACT_TRAP:
		return counted ? stop : SCMP_ACT_TRAP;
	case SW_ACT_KLOG:
		return SCMP_ACT_LOG;
	default:
		return stop;
	}
}

static bool is_trace(uint32_t act)
{
	return (act & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE;
}

/* Every stop carries the same hint (the syscall's first applicable
 * rule), so that rules which all stop stay conditional BPF rules of one
 * action. */
uint32_t sw_filter_rule_act(const struct sw_program *prog, size_t i,
			    unsigned int hint)
{
	const struct sw_prog_rule *pr = &prog->rules[i];
	uint32_t act;

	if (pr->traced && sw_notif_rule(prog, i))
		return SCMP_ACT_NOTIFY;
	act = plain_act(prog, pr->rule->action, pr->rule->errno_ret);
	if (pr->traced || is_trace(act))
		return SCMP_ACT_TRACE(hint);
	return act;
}

static uint32_t default_act(const struct sw_program *prog)
{
	const struct sw_policy *p = prog->policy;

	if (sw_action_needs_supervisor(p->default_action))
		return SCMP_ACT_TRACE(SW_HINT_NONE);
	return plain_act(prog, p->default_action, p->default_errno);
}

static int native_nr(const char *name)
{
	return seccomp_syscall_resolve_name(name);
}

static bool rule_names_native(const struct sw_rule *r, int nr)
{
	for (size_t k = 0; k < r->n_names; k++)
		if (native_nr(r->names[k]) == nr)
			return true;
	return false;
}

/*
 * The mask argument `index` of syscall `name` is compared under, valid on
 * every ABI the filter covers (libseccomp adds one rule to all of them),
 * or 0 if they read it at different widths.  The 32-bit ABIs' BPF sees 32
 * bits anyway; only what the type narrows further must agree.
 */
static uint64_t filter_mask(const struct sw_program *prog, const char *name,
			    unsigned int index)
{
	enum sw_abi native = sw_abi_native();
	uint64_t m = sw_arg_mask(native, name, index);

	for (int a = 0; a < SW_ABI_COUNT; a++) {
		uint64_t cap = sw_abi_arg_bytes(a) == 4 ? 0xffffffffull : ~0ull;

		if (prog->abi_enabled[a] && sw_arg_mask(a, name, index) != (m & cap))
			return 0;
	}
	return m;
}

/* One condition at the width the kernel reads (mask m), as libseccomp
 * can express it; false if it cannot. */
static bool width_cmp(uint64_t m, unsigned int index, enum sw_cmp op,
		      uint64_t value, uint64_t value_two, struct scmp_arg_cmp *out)
{
	out->arg = index;
	out->op = (enum scmp_compare)op;
	out->datum_a = value;
	out->datum_b = op == SW_CMP_MASKED_EQ ? value_two : 0;
	if (m == ~0ull)
		return true;
	switch (op) {
	case SW_CMP_EQ:
		out->op = SCMP_CMP_MASKED_EQ;
		out->datum_a = m;
		out->datum_b = value & m;
		return m != 0;
	case SW_CMP_MASKED_EQ:
		out->datum_a = value & m;
		out->datum_b = value_two & m;
		return m != 0;
	default:
		return false;
	}
}

/* The one NE on a narrower argument that add_rule() writes bit by bit:
 * its index in args, -1 if there is none, -2 if the conditions cannot be
 * compiled at their widths at all. */
static int narrow_ne(const uint64_t masks[6], const struct sw_arg_cond *args,
		     size_t n_args)
{
	struct scmp_arg_cmp c;
	int ne = -1;

	for (size_t k = 0; k < n_args; k++) {
		uint64_t m;

		if (args[k].index >= 6)
			return -2;
		m = masks[args[k].index];
		if (args[k].op == SW_CMP_NE && m != ~0ull && m != 0) {
			if (ne != -1)
				return -2;
			ne = (int)k;
		} else if (!width_cmp(m, args[k].index, args[k].op, args[k].value,
				      args[k].value_two, &c)) {
			return -2;
		}
	}
	return ne;
}

/* Can every condition be compiled at its width? */
static bool width_ok(const uint64_t masks[6], const struct sw_arg_cond *args,
		     size_t n_args)
{
	return narrow_ne(masks, args, n_args) != -2;
}

static int add_rule(scmp_filter_ctx ctx, uint32_t act, int nr,
		    const uint64_t masks[6], const struct sw_arg_cond *args,
		    size_t n_args)
{
	struct scmp_arg_cmp cmp[6];
	int ne = narrow_ne(masks, args, n_args);
	uint64_t m;

	if (n_args > 6 || ne == -2)
		return -EINVAL;
	for (size_t k = 0; k < n_args; k++)
		if ((int)k != ne)
			width_cmp(masks[args[k].index], args[k].index, args[k].op,
				  args[k].value, args[k].value_two, &cmp[k]);
	if (ne < 0)
		return seccomp_rule_add_array(ctx, act, nr, (unsigned int)n_args, cmp);
	/* (a & m) != v: some bit of m differs from v's. */
	m = masks[args[ne].index];
	for (unsigned int b = 0; b < 64; b++) {
		uint64_t bit = 1ull << b;
		int r;

		if (!(m & bit))
			continue;
		cmp[ne] = (struct scmp_arg_cmp){ args[ne].index, SCMP_CMP_MASKED_EQ,
						 bit, ~args[ne].value & bit };
		r = seccomp_rule_add_array(ctx, act, nr, (unsigned int)n_args, cmp);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Compile one syscall (name: as the policy spells it, resolving to nr).
 * force: trace it unconditionally. */
static int compile_syscall(const struct sw_program *prog, scmp_filter_ctx ctx,
			   const char *name, int nr, bool force, struct cand *c)
{
	uint64_t masks[6];
	const struct sw_policy *p = prog->policy;
	uint32_t def = default_act(prog);
	unsigned int hint = SW_HINT_NONE;
	size_t n = 0;
	bool cut = false;
	bool mixed = false, any_traced = false;
	uint32_t act;

	for (size_t i = 0; i < prog->n_rules; i++) {
		const struct sw_prog_rule *pr = &prog->rules[i];

		if (!pr->applies || !rule_names_native(pr->rule, nr))
			continue;
		if (hint == SW_HINT_NONE)
			hint = (unsigned int)i;
		if (cut)
			break;
		c[n] = (struct cand){
			.rule = (int)i, .traced = pr->traced,
			.act = plain_act(prog, pr->rule->action, pr->rule->errno_ret),
			.n_args = pr->rule->n_args, .args = pr->rule->args };
		cut = c[n].n_args == 0;
		n++;
	}
	/* Trailing plain rules with the default action change nothing
	 * (a refusal the supervisor sees is a stop like the default's). */
	while (n && !c[n - 1].traced && c[n - 1].act == def)
		n--;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		c[i].act = sw_filter_rule_act(prog, (size_t)c[i].rule, hint);
	/* A condition BPF cannot compare at the kernel's width: decide.c
	 * does, so the syscall stops unconditionally. */
	for (unsigned int k = 0; k < 6; k++)
		masks[k] = filter_mask(prog, name, k);
	for (size_t i = 0; i < n; i++)
		if (!width_ok(masks, c[i].args, c[i].n_args))
			force = true;
	act = c[0].act;
	for (size_t i = 0; i < n; i++) {
		any_traced |= c[i].traced;
		mixed |= c[i].act != act;
	}
	(void)p;
	(void)any_traced;	/* same-action traced rules stay conditional */
	if (force || mixed) {
		act = SCMP_ACT_TRACE(hint);
		return act == def ? 0 : add_rule(ctx, act, nr, masks, NULL, 0);
	}
	if (act == def)
		return 0;
	if (c[n - 1].n_args == 0)
		return add_rule(ctx, act, nr, masks, NULL, 0);
	for (size_t i = 0; i < n; i++) {
		int r = add_rule(ctx, act, nr, masks, c[i].args, c[i].n_args);

		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * clone3 gets ENOSYS from the defence filter so that libc falls back to
 * clone(2), whose flags the filter can see.  But when both filters return
 * ERRNO the kernel keeps the newest filter's data: under a policy whose
 * default is an errno (Docker-like allow-lists, EPERM), the policy's
 * default errno would reach the program, and glibc does not fall back on
 * EPERM, so pthread_create fails.  A default speaks for every syscall and
 * for none in particular: the policy's filter also says ENOSYS for clone3
 * then.  A policy that names clone3 in an applicable rule has its say (its
 * errno, a kill; where it allows, the defence's ENOSYS still outranks it).
 */
static int clone3_enosys(const struct sw_program *prog, scmp_filter_ctx ctx)
{
	const struct sw_policy *p = prog->policy;
	int nr = native_nr("clone3");

	/* Where every refusal is counted (complain mode, a record) the
	 * defence stops; the policy's default stops too, so there is no
	 * ERRNO tie. */
	if (!(prog->defences & SW_DEFENCE_CLONE3) || nr == __NR_SCMP_ERROR ||
	    p->default_action != SW_ACT_ERRNO || p->default_errno == ENOSYS ||
	    prog->refusals >= SW_REFUSALS_RECORDED)
		return 0;
	for (size_t i = 0; i < prog->n_rules; i++)
		if (prog->rules[i].applies &&
		    rule_names_native(prog->rules[i].rule, nr))
			return 0;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
}

static int compile_once(const struct sw_program *prog, const int *force,
			size_t n_force, scmp_filter_ctx *ret_ctx, int *ret_bad,
			struct sw_error *err)
{
	scmp_filter_ctx ctx;
	int r;
	size_t cap = 64 + prog->n_rules, n_done = 0;
	cleanup_free int *done = NULL;
	cleanup_free struct cand *c = NULL;

	*ret_bad = 0;
	ctx = seccomp_init(default_act(prog));
	if (!ctx)
		return sw_error_set(err, ENOMEM, "libseccomp: cannot create a filter context");
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (r < 0)
		goto fail_attr;
	/* We set no_new_privs ourselves, before dropping capabilities. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (r < 0)
		goto fail_attr;
	/* A binary tree keeps long policies fast; optional. */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (int a = 0; a < SW_ABI_COUNT; a++) {
		if (!prog->abi_enabled[a] || (enum sw_abi)a == sw_abi_native())
			continue;
		r = seccomp_arch_add(ctx, sw_abi_token(a));
		if (r < 0 && r != -EEXIST) {
			seccomp_release(ctx);
			return sw_error_set_errno(err, -r, "libseccomp: add ABI %s",
						  sw_abi_name(a));
		}
	}

	done = malloc(sizeof(int) * cap);
	c = malloc(sizeof(*c) * (prog->n_rules + 16));
	if (!done || !c) {
		seccomp_release(ctx);
		return sw_error_set_errno(err, ENOMEM, "compile filter");
	}

	/* Every syscall any applicable rule names, once. */
	for (size_t i = 0; i < prog->n_rules; i++) {
		const char *const *names;
		size_t nn;

		if (!prog->rules[i].applies)
			continue;
		names = (const char *const *)prog->rules[i].rule->names;
		nn = prog->rules[i].rule->n_names;
		for (size_t k = 0; k < nn; k++) {
			int nr = native_nr(names[k]);
			bool seen = false, forced = false;

			if (nr == __NR_SCMP_ERROR)
				continue;	/* unknown: the policy reports it */
			for (size_t d = 0; d < n_done && !seen; d++)
				seen = done[d] == nr;
			if (seen)
				continue;
			if (n_done == cap) {
				int *nd = realloc(done, sizeof(int) * cap * 2);

				if (!nd) {
					seccomp_release(ctx);
					return sw_error_set_errno(err, ENOMEM, "compile filter");
				}
				done = nd;
				cap *= 2;
			}
			done[n_done++] = nr;
			for (size_t f = 0; f < n_force; f++)
				forced |= force[f] == nr;
			r = compile_syscall(prog, ctx, names[k], nr, forced, c);
			if (r < 0) {
				seccomp_release(ctx);
				if (forced)
					return sw_error_set_errno(err, -r,
								  "libseccomp: add a rule for %s",
								  names[k]);
				*ret_bad = nr;
				return 1;	/* retry with nr forced */
			}
		}
	}
	r = clone3_enosys(prog, ctx);
	if (r < 0) {
		seccomp_release(ctx);
		return sw_error_set_errno(err, -r, "libseccomp: add the clone3 rule");
	}
	*ret_ctx = ctx;
	return 0;

fail_attr:
	seccomp_release(ctx);
	return sw_error_set_errno(err, -r, "libseccomp: set a filter attribute");
}

int sw_filter_build(const struct sw_program *prog, void **ret_ctx,
		    struct sw_error *err)
{
	cleanup_free int *force = NULL;
	size_t n_force = 0;

	for (;;) {
		scmp_filter_ctx ctx = NULL;
		int bad, r, *nf;

		r = compile_once(prog, force, n_force, &ctx, &bad, err);
		if (r < 0)
			return r;
		if (r == 0) {
			*ret_ctx = ctx;
			return 0;
		}
		nf = realloc(force, sizeof(int) * (n_force + 1));
		if (!nf)
			return sw_error_set_errno(err, ENOMEM, "compile filter");
		force = nf;
		force[n_force++] = bad;
	}
}

void sw_filter_free(void *ctx)
{
	if (ctx)
		seccomp_release(ctx);
}

int sw_filter_export(void *ctx, void **ret_insns, size_t *ret_n,
		     struct sw_error *err)
{
	cleanup_close int fd = -1;
	struct stat st;
	void *buf;
	int r;

	fd = memfd_create("sysward-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "create a memfd for the filter");
	r = seccomp_export_bpf(ctx, fd);
	if (r < 0)
		return sw_error_set_errno(err, -r, "libseccomp: export the filter");
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "stat the exported filter");
	if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) ||
	    st.st_size / sizeof(struct sock_filter) > BPF_MAXINSNS)
		return sw_error_set(err, E2BIG,
				    "the compiled filter has %lld bytes; more than the kernel's %d instructions, or not whole",
				    (long long)st.st_size, BPF_MAXINSNS);
	buf = malloc(st.st_size);
	if (!buf)
		return sw_error_set_errno(err, ENOMEM, "allocate the filter");
	if (pread(fd, buf, st.st_size, 0) != st.st_size) {
		free(buf);
		return sw_error_set_errno(err, errno ? errno : EIO,
					  "read back the exported filter");
	}
	*ret_insns = buf;
	*ret_n = st.st_size / sizeof(struct sock_filter);
	return 0;
}

/* ---- calls newer than the policy: ENOSYS ------------------------------ */

/*
 * sw_prog_enosys() as BPF, in front of the policy's filter (a prefix,
 * like runc's stub: libseccomp cannot say "every number above N").  In
 * the policy's own filter, not a third one: there an ERRNO(ENOSYS) stands
 * where that filter would have said its default for the call (no rule
 * names a newer one), and the defence filter's ERRNO for the refusals it
 * keeps is never tied with it, since those numbers are left out here.
 * Per AUDIT_ARCH group, per ABI (x32's calls have the group's abi_bit):
 *   ld arch; jeq ARCH, 0, next group; ld nr; [jset abi_bit, abi 1, abi 0]
 *   abi k: jeq EXEMPT, out ...; jgt MAX, 0, out; ret ERRNO(ENOSYS); out: ja filter
 * Every conditional jump stays inside its group (a few dozen
 * instructions); only the ja reaches the original program.
 */
#define ENOSYS_MAX_INSNS 160

struct enosys_buf {
	struct sock_filter f[ENOSYS_MAX_INSNS];
	size_t n;
	size_t to_filter[2 * SW_ABI_COUNT];	/* the ja instructions */
	size_t n_to_filter;
};

static void enosys_abi(struct enosys_buf *b, const struct sw_program *prog,
		       enum sw_abi abi)
{
	uint32_t above = prog->enosys_above[abi];
	size_t exempt[SW_DENIAL_COUNT], n_exempt = 0;

	if (above) {
		/* The refusals in force keep their answer (sw_prog_enosys);
		 * only those above the threshold can meet the jgt. */
		for (int d = 0; d < SW_DENIAL_COUNT; d++) {
			int nr = prog->denial_nr[abi][d];
			bool dup = false;

			if (nr < 0 || (uint32_t)nr <= above ||
			    !sw_prog_denies_nr(prog, abi, (uint64_t)nr))
				continue;
			for (size_t e = 0; e < n_exempt; e++)
				dup |= b->f[exempt[e]].k == (uint32_t)nr;
			if (dup)
				continue;
			exempt[n_exempt++] = b->n;
			b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								   (uint32_t)nr, 0, 0);
		}
		b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K,
							   above, 0, 1);
		/* A refusal like the policy's others: a stop where the
		 * supervisor must see it (enum sw_refusals), decided there
		 * by the same rule (decide.c, sw_prog_enosys). */
		b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
			prog->refusals != SW_REFUSALS_KERNEL
			? SECCOMP_RET_TRACE | SW_HINT_NONE
			: SECCOMP_RET_ERRNO | ENOSYS);
	}
	for (size_t e = 0; e < n_exempt; e++)
		b->f[exempt[e]].jt = (uint8_t)(b->n - exempt[e] - 1);
	b->to_filter[b->n_to_filter++] = b->n;
	b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0);
}

/*
 * The policy's kills where a record counts them (enum sw_refusals): the
 * call stops so that it is counted, and the kernel must still kill as
 * the filter would have (SIGSYS, a core dump, one thread for
 * KILL_THREAD), which no signal sent from userspace does exactly.  After
 * a TRACE stop the kernel runs the filters again on the call as the
 * tracer left it; the supervisor sets its number to one of these, and
 * the prefix below (in front of the policy's filter, before any other
 * test) answers with the kill itself.  No ABI has a call near 2^30 (nor
 * is it x32's bit): a program that makes one itself only kills itself.
 */
#define SW_NR_KERNEL_KILL_PROCESS	0x3ffffffeu
#define SW_NR_KERNEL_KILL_THREAD	0x3ffffffdu

uint32_t sw_filter_kernel_kill_nr(const struct sw_program *prog,
				  const struct sw_decision *d)
{
	bool kernel_rule;

	if (prog->refusals != SW_REFUSALS_RECORDED || d->why || d->lifted ||
	    (d->action != SW_ACT_KILL_PROCESS && d->action != SW_ACT_KILL_THREAD))
		return 0;
	/* Only a kill the filter would have made alone: a rule the
	 * supervisor decides (paths, when, log) kills with SIGKILL as
	 * sysward-policy(5) says, with or without a record. */
	if (d->rule >= 0)
		kernel_rule = (size_t)d->rule < prog->n_rules &&
			      !prog->rules[d->rule].traced;
	else
		kernel_rule = d->rule == SW_RULE_DEFAULT &&
			      !sw_action_needs_supervisor(prog->policy->default_action);
	if (!kernel_rule)
		return 0;
	return d->action == SW_ACT_KILL_THREAD ? SW_NR_KERNEL_KILL_THREAD
					       : SW_NR_KERNEL_KILL_PROCESS;
}

int sw_filter_add_enosys(const struct sw_program *prog, void **insns, size_t *n,
			 struct sw_error *err)
{
	struct enosys_buf b = { .n = 0 };
	bool any = false, kills = prog->refusals == SW_REFUSALS_RECORDED;

	_Static_assert(ENOSYS_MAX_INSNS >= 5 + 1 + 2 * SW_ABI_COUNT * (4 + SW_DENIAL_COUNT),
		       "room for every group");
	for (int a = 0; a < SW_ABI_COUNT; a++)
		any |= prog->enosys_above[a] != 0;
	if (!any && !kills)
		return 0;
	if (kills) {
		/* ld nr; jeq KP, 0, 1; ret KILL_PROCESS; jeq KT, 0, 1;
		 * ret KILL_THREAD; then the ENOSYS groups or the filter,
		 * each of which loads what it tests. */
		b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							  offsetof(struct seccomp_data, nr));
		b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  SW_NR_KERNEL_KILL_PROCESS, 0, 1);
		b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							  SECCOMP_RET_KILL_PROCESS);
		b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  SW_NR_KERNEL_KILL_THREAD, 0, 1);
		b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							  SECCOMP_RET_KILL_THREAD);
	}
	if (any)
		b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							  offsetof(struct seccomp_data, arch));
	for (size_t g = 0; g < sw_arch_n_filter_groups; g++) {
		const struct sw_arch_filter_group *grp = &sw_arch_filter_groups[g];
		bool used = false;
		size_t test, sel = 0;

		for (unsigned int k = 0; k < grp->n_abis; k++)
			used |= prog->enosys_above[grp->abis[k]] != 0;
		if (!used)
			continue;
		test = b.n;
		b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  grp->audit_arch, 0, 0);
		b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							  offsetof(struct seccomp_data, nr));
		if (grp->n_abis > 1) {
			sel = b.n;
			b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
								  grp->abi_bit, 0, 0);
		}
		for (unsigned int k = 0; k < grp->n_abis && k < 2; k++) {
			if (k == 1)
				b.f[sel].jt = (uint8_t)(b.n - sel - 1);
			/* an ABI the filter leaves out: its own bad-arch
			 * action, as before */
			enosys_abi(&b, prog, grp->abis[k]);
		}
		/* Another AUDIT_ARCH: the next group, or the filter. */
		b.f[test].jf = (uint8_t)(b.n - test - 1);
	}
	for (size_t i = 0; i < b.n_to_filter; i++)
		b.f[b.to_filter[i]].k = (uint32_t)(b.n - b.to_filter[i] - 1);

	return sw_filter_prepend(insns, n, b.f, b.n,
				 "the ENOSYS rule for newer calls", err);
}

/* ---- the built-in defences ------------------------------------------- */

/* A defence rule with n conditions (all must hold), compared at the width
 * the kernel reads each argument (like the policy's, see add_rule). */
static int def_rule_n(const struct sw_program *prog, scmp_filter_ctx ctx,
		      uint32_t act, const char *name, const struct sw_arg_cond *c,
		      size_t n)
{
	int nr = seccomp_syscall_resolve_name(name);
	uint64_t masks[6];

	if (nr == __NR_SCMP_ERROR)
		return 0;	/* this libseccomp does not know it */
	for (unsigned int k = 0; k < 6; k++)
		masks[k] = filter_mask(prog, name, k);
	return add_rule(ctx, act, nr, masks, n ? c : NULL, n);
}

static int def_rule(const struct sw_program *prog, scmp_filter_ctx ctx,
		    uint32_t act, const char *name, const struct sw_arg_cond *c)
{
	return def_rule_n(prog, ctx, act, name, c, c ? 1 : 0);
}

int sw_filter_build_defences(const struct sw_program *prog, void **ret_ctx,
			     struct sw_error *err)
{
	unsigned int on = prog->defences;
	scmp_filter_ctx ctx;
	int r = 0;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return sw_error_set(err, ENOMEM, "libseccomp: cannot create a filter context");
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (!r)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	for (int a = 0; !r && a < SW_ABI_COUNT; a++) {
		if (!prog->abi_enabled[a] || (enum sw_abi)a == sw_abi_native())
			continue;
		r = seccomp_arch_add(ctx, sw_abi_token(a));
		if (r == -EEXIST)
			r = 0;
	}
	/* The refusals (program.c's table): an ERRNO outranks the policy's
	 * TRACE and ALLOW, whichever filter says them.  Where every
	 * refusal is counted (complain mode, a record: enum sw_refusals) a
	 * stop instead, so that each one is reported: decide.c checks the
	 * same table first at every stop, and actions.c never lets a
	 * defence's refusal run (a failed SET kills the program).  The
	 * stop outranks the policy's ALLOW and the program's own filters'
	 * ALLOW and LOG alike; what outranks it only fails the call. */
	for (size_t b = 0; !r && b < SW_DENIAL_COUNT; b++)
		/* With a listener of ours, the policy's filter says this
		 * one (sw_notif_patch_filter): this filter, loaded first,
		 * would refuse our own. */
		if (prog->listener &&
		    sw_denials[b].defence == SW_DEFENCE_SECCOMP_LISTENER &&
		    prog->refusals < SW_REFUSALS_RECORDED)
			continue;
		else if (on & sw_denials[b].defence)
			r = def_rule_n(prog, ctx,
				       prog->refusals >= SW_REFUSALS_RECORDED
				       ? SCMP_ACT_TRACE(SW_HINT_NONE)
				       : SCMP_ACT_ERRNO((uint16_t)sw_denials[b].err),
				       sw_denials[b].name, sw_denials[b].args,
				       sw_denials[b].n_args);
	if (on & SW_DEFENCE_SIGNAL_SUPERVISOR) {
		/* Every call that aims a signal, or names who gets one
		 * later, goes to signals.c, which checks its target against
		 * the session's tracees (rare calls: no fast path lost).
		 * fcntl and ioctl only for the commands that set an owner
		 * (compared at the width of the kernel's unsigned int cmd,
		 * by the argument-width table). */
		static const char *const sig[] = {
			"kill", "tkill", "tgkill", "pidfd_open", "pidfd_send_signal",
			"rt_sigqueueinfo", "rt_tgsigqueueinfo", "setpgid" };
		static const struct { const char *name; uint32_t cmd; } own[] = {
			{ "fcntl", F_SETOWN }, { "fcntl", 15 /* F_SETOWN_EX */ },
			{ "fcntl64", F_SETOWN }, { "fcntl64", 15 },
			{ "ioctl", 0x8901 /* FIOSETOWN */ }, { "ioctl", 0x8902 /* SIOCSPGRP */ } };

		for (size_t i = 0; !r && i < sizeof(sig) / sizeof(sig[0]); i++)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), sig[i], NULL);
		for (size_t i = 0; !r && i < sizeof(own) / sizeof(own[0]); i++) {
			struct sw_arg_cond c = { 1, SW_CMP_EQ, own[i].cmd, 0 };

			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), own[i].name, &c);
		}
	}
	for (size_t i = 0; !r && (on & SW_DEFENCE_PID_CALLS) && i < SW_PID_CALL_COUNT; i++) {
		/* reach.c checks the target of a call that names another
		 * process than the caller: target argument != 0 (or a "which"
		 * that means every process of a uid).  Compared with 0 at
		 * 64 bits, not at the pid_t's 32: every value the kernel
		 * reads as non-zero is non-zero at 64 bits, so no call that
		 * matters passes; one whose low bits are 0 and high bits are
		 * not stops for nothing (reach.c reads it as 0).  One
		 * comparison instead of 32 (an NE at 32 bits is a rule per
		 * bit, see add_rule): glibc's getrlimit and setrlimit are
		 * prlimit64(0, ...) and walk this test. */
		const struct sw_pid_call *c = &sw_pid_calls[i];
		int nr = seccomp_syscall_resolve_name(c->name);

		if (nr == __NR_SCMP_ERROR)
			continue;
		r = seccomp_rule_add(ctx, SCMP_ACT_TRACE(SW_HINT_NONE), nr, 1,
				     SCMP_CMP(c->target, SCMP_CMP_NE, 0));
		if (!r && c->which >= 0) {
			struct sw_arg_cond w = { (unsigned int)c->which, SW_CMP_EQ,
						 (uint64_t)c->which_val[SW_PID_USER], 0 };

			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), c->name, &w);
		}
	}
	if (!r && (on & SW_DEFENCE_OBJECT_OPENS)) {
		/* objects.c checks what an open that can write opened: one
		 * with a write access mode, O_CREAT or O_TRUNC (flags are an
		 * int: compared at 32 bits); openat2's flags are in memory,
		 * creat always writes.  For a program that can never be uid
		 * 0, an exclusive create (O_CREAT | O_EXCL: tar's, and every
		 * new file's) opens a file it has just made, which no file
		 * system of kernel objects lets a user make (only efivarfs,
		 * whose directory is root's, and mqueue, a queue of its own):
		 * no stop. */
		static const struct { const char *name; unsigned int arg; } op[] = {
			{ "open", 1 }, { "openat", 2 }, { "open_by_handle_at", 2 } };
		static const uint64_t wr[][2] = {
			{ O_ACCMODE, O_WRONLY }, { O_ACCMODE, O_RDWR }, { O_ACCMODE, O_ACCMODE },
			{ O_CREAT, O_CREAT }, { O_TRUNC, O_TRUNC } };
		/* the same, but for an exclusive create */
		static const uint64_t wr_excl[][2] = {
			{ O_CREAT | O_ACCMODE, O_WRONLY }, { O_CREAT | O_ACCMODE, O_RDWR },
			{ O_CREAT | O_ACCMODE, O_ACCMODE }, { O_CREAT | O_EXCL, O_CREAT },
			{ O_CREAT | O_TRUNC, O_TRUNC } };
		const uint64_t (*w)[2] = prog->excl_creates_new ? wr_excl : wr;

		for (size_t i = 0; !r && i < sizeof(op) / sizeof(op[0]); i++)
			for (size_t k = 0; !r && k < sizeof(wr) / sizeof(wr[0]); k++) {
				struct sw_arg_cond c = { op[i].arg, SW_CMP_MASKED_EQ,
							 w[k][0], w[k][1] };

				r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), op[i].name, &c);
			}
		if (!r)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "creat", NULL);
		if (!r)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "openat2", NULL);
		/* Complain mode over the kernel's file rules judges reads
		 * too (fscomplain.c): every open stops. */
		for (size_t i = 0; !r && prog->fs_complain && i < sizeof(op) / sizeof(op[0]); i++)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), op[i].name, NULL);
	}
	if (!r && (on & SW_DEFENCE_IPC)) {
		/* Every call on a System V object or a message queue, and the
		 * calls that can leave the launch's IPC namespace (objects.c). */
		static const char *const ipc[] = {
			"shmget", "shmat", "shmctl", "semget", "semop", "semtimedop",
			"semtimedop_time64", "semctl", "msgget", "msgsnd", "msgrcv",
			"msgctl", "ipc", "mq_open", "mq_unlink", "mq_timedsend",
			"mq_timedsend_time64", "mq_timedreceive",
			"mq_timedreceive_time64", "mq_notify", "mq_getsetattr",
			"setns" };
		struct sw_arg_cond newipc = { 0, SW_CMP_MASKED_EQ, CLONE_NEWIPC, CLONE_NEWIPC };

		for (size_t i = 0; !r && i < sizeof(ipc) / sizeof(ipc[0]); i++)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), ipc[i], NULL);
		if (!r)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "unshare", &newipc);
		if (!r)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "clone", &newipc);
	}
	if (!r && (on & SW_DEFENCE_KEYRINGS)) {
		static const char *const keys[] = { "keyctl", "add_key", "request_key" };

		for (size_t i = 0; !r && i < sizeof(keys) / sizeof(keys[0]); i++)
			r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), keys[i], NULL);
	}
	/* peers.c: every connect, whose socket (never its address, which
	 * the program's threads may change) says whether its peer is
	 * checked; every listen, whose process is then the session's
	 * listener.  On i386 libseccomp adds socketcall with the subcall's
	 * number too. */
	if (!r && (on & SW_DEFENCE_UNIX_PEERS))
		r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "connect", NULL);
	if (!r && (on & SW_DEFENCE_UNIX_PEERS))
		r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "listen", NULL);
	if (!r && (on & SW_DEFENCE_CLONE_UNTRACED)) {
		struct sw_arg_cond c = { 0, SW_CMP_MASKED_EQ, CLONE_UNTRACED,
					 CLONE_UNTRACED };

		r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), "clone", &c);
	}
	if (!r && prog->observe_stderr) {
		/* linegate.c: the program's writes to descriptors 1 and 2
		 * (a shell's "printf ... >&2" writes to 1, a dup of 2), so
		 * that audit records on its standard error go between its
		 * lines; linegate.c keeps those to our log's file. */
		static const char *const wr[] = {
			"write", "writev", "pwrite64", "pwritev", "pwritev2" };
		for (size_t i = 0; !r && i < sizeof(wr) / sizeof(wr[0]); i++)
			for (uint64_t fd = 1; !r && fd <= 2; fd++) {
				struct sw_arg_cond c = { 0, SW_CMP_EQ, fd, 0 };

				r = def_rule(prog, ctx, SCMP_ACT_TRACE(SW_HINT_NONE), wr[i], &c);
			}
	}
	if (r < 0) {
		seccomp_release(ctx);
		return sw_error_set_errno(err, -r, "libseccomp: compile the built-in defences");
	}
	*ret_ctx = ctx;
	return 0;
}
