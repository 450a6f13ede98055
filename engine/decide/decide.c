// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The supervisor's decision at one SECCOMP stop.  Pure: the only outside
 * effects are the string reader (process_vm_readv in production, a table
 * in the unit tests) and the per-rule "when" counters.
 *
 * First match wins.  The filter (filter.c) stops a syscall here only if
 * BPF alone cannot decide it with first-match semantics, and then it stops
 * it unconditionally.  Evaluation starts at the first applicable rule that
 * names the syscall (program.c's table; rules before it cannot match) and
 * goes through the rest in policy order, re-checking argument conditions
 * in userspace, each at the width the kernel reads the argument.
 *
 * The stop's TRACE data is not trusted: the program may install filters of
 * its own, and on a TRACE tie the kernel keeps the newest filter's data,
 * so a program can stop any syscall here with data of its choosing.  The
 * decision therefore depends on (ABI, nr, args) alone, and a syscall that
 * sysward's filter would not have stopped at all gets exactly what that
 * filter would have given it (the policy's first match or its default).
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>

#include "sysward/pathargs.h"
#include "internal.h"
#include "decide/decide.h"
#include "decide/defences.h"
#include "decide/program.h"


bool sw_when_selects(uint32_t first, uint32_t last, uint32_t step, uint32_t n)
{
	if (first == 0 && last == 0 && step == 0)
		return true;
	if (first == 0)
		first = 1;
	if (n < first)
		return false;
	if (last && n > last)
		return false;
	if (step == 0)
		return last ? true : n == first;
	return (n - first) % step == 0;
}

/* mask: the bits of the argument the kernel reads (sw_arg_mask); both
 * sides are truncated to them, as filter.c does in BPF. */
static bool cmp_holds(const struct sw_arg_cond *c, uint64_t arg, uint64_t mask)
{
	uint64_t a = arg & mask, v = c->value & mask, v2 = c->value_two & mask;

	switch (c->op) {
	case SW_CMP_NE:
		return a != v;
	case SW_CMP_LT:
		return a < v;
	case SW_CMP_LE:
		return a <= v;
	case SW_CMP_EQ:
		return a == v;
	case SW_CMP_GE:
		return a >= v;
	case SW_CMP_GT:
		return a > v;
	case SW_CMP_MASKED_EQ:
		return (a & v) == v2;
	}
	return false;
}

static bool path_holds(const struct sw_path_cond *c, const char *s)
{
	bool m;

	switch (c->match) {
	case SW_MATCH_EXACT:
		m = strcmp(s, c->pattern) == 0;
		break;
	case SW_MATCH_PREFIX:
		m = strncmp(s, c->pattern, strlen(c->pattern)) == 0;
		break;
	case SW_MATCH_GLOB:
		m = fnmatch(c->pattern, s, FNM_PATHNAME) == 0;
		break;
	default:
		m = false;
	}
	return c->negate ? !m : m;
}

static void set_return(struct sw_decision *d, int64_t v, bool is_error)
{
	d->verdict = SW_V_RETURN;
	d->retval = v;
	d->is_error = is_error;
}

static void set_errno(struct sw_decision *d, int e)
{
	/* SCMP_ACT_ERRNO(0) makes the call "succeed" with 0. */
	set_return(d, e ? -(int64_t)e : 0, e != 0);
}

/* Apply a plain or sysward action to the decision. */
static void apply_action(const struct sw_program *prog, enum sw_abi abi,
			 const struct sw_rule *r, enum sw_action a, int errno_ret,
			 uint64_t mask, struct sw_decision *d)
{
	d->action = a;
	if (!r && (a == SW_ACT_SKIP || a == SW_ACT_EMULATE ||
		   a == SW_ACT_REWRITE)) {
		/* A default action needs a rule's data; fail closed. */
		set_errno(d, errno_ret ? errno_ret : EPERM);
		return;
	}
	switch (a) {
	case SW_ACT_ALLOW:
	case SW_ACT_KLOG:
		d->verdict = SW_V_ALLOW;
		break;
	case SW_ACT_AUDIT:
		d->verdict = SW_V_ALLOW;
		d->audit = true;
		break;
	case SW_ACT_ERRNO:
		set_errno(d, errno_ret);
		d->refusal = true;
		break;
	case SW_ACT_KILL_PROCESS:
	case SW_ACT_KILL_THREAD:
		/* Userspace cannot kill one thread with the kernel's SIGSYS
		 * semantics; SIGKILL the process (fail closed). */
		d->verdict = SW_V_KILL;
		d->refusal = true;
		break;
	case SW_ACT_TRAP:
		set_return(d, -ENOSYS, true);
		d->signal = SIGSYS;
		d->refusal = true;
		break;
	case SW_ACT_SKIP:
	case SW_ACT_EMULATE:
		if (r->ret_is_errno)
			set_errno(d, r->errno_ret);
		else
			set_return(d, r->ret_value, false);
		break;
	case SW_ACT_REWRITE: {
		const struct sw_prog_rule *pr = &prog->rules[d->rule];

		if (r->new_syscall) {
			if (pr->new_nr[abi] < 0) {
				/* The target does not exist on this ABI. */
				set_return(d, -ENOSYS, true);
				return;
			}
			d->nr = (uint64_t)pr->new_nr[abi];
		}
		for (size_t k = 0; k < r->n_rewrites; k++) {
			const struct sw_arg_rewrite *w = &r->rewrites[k];

			if (w->index >= 6)
				continue;
			switch (w->op) {
			case SW_REWRITE_SET:
				d->args[w->index] = w->value;
				break;
			case SW_REWRITE_AND:
				d->args[w->index] &= w->value;
				break;
			case SW_REWRITE_OR:
				d->args[w->index] |= w->value;
				break;
			}
			d->args[w->index] &= mask;
		}
		d->verdict = SW_V_REWRITE;
		break;
	}
	}
}

static bool is_sys(const struct sw_program *prog, enum sw_abi abi,
		   enum sw_def_sys s, uint64_t nr)
{
	return prog->sys[abi][s] >= 0 && (uint64_t)prog->sys[abi][s] == nr;
}

/* Built-in defences, checked before any policy rule.  Returns true if
 * the decision is final. */
static bool defences(const struct sw_program *prog, enum sw_abi abi,
		     uint64_t nr, uint64_t mask, struct sw_decision *d)
{
	static const enum sw_def_sys sig[] = {
		SW_SYS_KILL, SW_SYS_TKILL, SW_SYS_TGKILL, SW_SYS_PIDFD_OPEN,
		SW_SYS_RT_SIGQUEUEINFO, SW_SYS_RT_TGSIGQUEUEINFO,
	};
	unsigned int on = prog->defences;
	uint64_t sup = (uint64_t)prog->supervisor_pid;

	for (size_t b = 0; b < SW_DENIAL_COUNT; b++) {
		const struct sw_denial *dn = &sw_denials[b];
		bool hit = (on & dn->defence) && prog->denial_nr[abi][b] >= 0 &&
			   (uint64_t)prog->denial_nr[abi][b] == nr;

		for (size_t k = 0; hit && k < dn->n_args; k++) {
			unsigned int i = dn->args[k].index;

			hit = cmp_holds(&dn->args[k], d->args[i],
					prog->denial_mask[abi][b][i]);
		}
		if (hit) {
			d->why = dn->why;
			d->rule = SW_RULE_DEFENCE;
			set_errno(d, dn->err);
			return true;
		}
	}
	if (on & SW_DEFENCE_SIGNAL_SUPERVISOR) {
		/* kill(2) and tkill(2) take the target first, tgkill(2) the
		 * thread group first, pidfd_open(2) the pid: a pid_t, of
		 * which the kernel reads 32 bits. */
		for (size_t i = 0; i < sizeof(sig) / sizeof(sig[0]); i++) {
			uint64_t m = prog->sys_mask[abi][sig[i]][0];

			if (is_sys(prog, abi, sig[i], nr) &&
			    (d->args[0] & m) == (sup & m)) {
				d->why = "signals to the supervisor denied";
				goto eperm;
			}
		}
	}
	if ((on & SW_DEFENCE_CLONE_UNTRACED) &&
	    is_sys(prog, abi, SW_SYS_CLONE, nr) &&
	    (d->args[0] & CLONE_UNTRACED)) {
		/* Not final: strip the flag and let the policy decide on
		 * the call as it will run. */
		d->args[0] &= ~(uint64_t)CLONE_UNTRACED;
		d->why = "CLONE_UNTRACED stripped";
	}
	return false;

eperm:
	d->rule = SW_RULE_DEFENCE;
	set_errno(d, EPERM);
	return true;
}

void sw_decide(const struct sw_program *prog, uint32_t audit_arch, uint64_t nr, const uint64_t args[6],
	       sw_read_arg_fn read_arg, void *read_ctx, uint32_t *counters,
	       struct sw_decide_scratch *scratch, struct sw_decision *d)
{
	const struct sw_policy *p = prog->policy;
	enum sw_abi abi = sw_abi_of(audit_arch, nr);
	uint64_t mask;
	uint64_t orig0 = args[0];
	unsigned int first;

	memset(d, 0, sizeof(*d));
	d->rule = SW_RULE_DEFAULT;
	d->nr = nr;
	memcpy(d->args, args, sizeof(d->args));

	if (abi == SW_ABI_NONE || !prog->abi_enabled[abi]) {
		/* The filter kills these (ACT_BADARCH); never let one by. */
		d->verdict = SW_V_KILL;
		d->action = SW_ACT_KILL_PROCESS;
		d->why = "syscall from an ABI the policy does not name";
		return;
	}
	mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;

	if (defences(prog, abi, nr, mask, d))
		return;
	first = sw_prog_first_rule(prog, abi, nr);
	if (is_sys(prog, abi, SW_SYS_SOCKETCALL, nr) && first == SW_HINT_NONE) {
		/* i386 socketcall(2) that no rule names: sysward's filter stops
		 * it only when it carries a call a supervisor rule names
		 * (libseccomp sends socketcall(SYS_SOCKET, ...) here for a
		 * "socket" rule).  Its arguments are in tracee memory, which
		 * cannot be checked race-free.  Fail closed. */
		d->rule = SW_RULE_DEFENCE;
		d->why = "i386 socketcall multiplexer: use the direct socket syscalls";
		set_errno(d, EPERM);
		return;
	}

	for (size_t i = first < prog->n_rules ? first : prog->n_rules;
	     i < prog->n_rules; i++) {
		const struct sw_prog_rule *pr = &prog->rules[i];
		const struct sw_rule *r = pr->rule;
		const uint64_t *m;
		bool ok = true;
		int at;

		if (!pr->applies || (at = sw_prog_rule_name_at(prog, i, abi, nr)) < 0)
			continue;
		m = &pr->masks[abi][at * 6];
		for (size_t k = 0; k < r->n_args && ok; k++) {
			const struct sw_arg_cond *c = &r->args[k];

			ok = c->index < 6 && cmp_holds(c, d->args[c->index], m[c->index]);
		}
		for (size_t k = 0; k < r->n_paths && ok; k++) {
			const struct sw_path_cond *c = &r->paths[k];
			int len = -EINVAL;

			if (c->index < 6 && !(d->args[c->index] & mask) &&
			    sw_path_null_ok(sw_abi_token(abi), nr, c->index,
					    d->args)) {
				/* NULL where the kernel acts on a descriptor
				 * instead (utimensat(fd, NULL), statx with
				 * AT_EMPTY_PATH, ...): no name, so no path
				 * condition holds, negated ones included. */
				ok = false;
				break;
			}
			if (c->index < 6 && read_arg) {
				uint8_t kind = pr->kinds[abi][at * 6 + c->index];
				struct sw_arg_read a = {
					.kind = kind & 0xf, .abi = abi,
					.addr = d->args[c->index] & m[c->index],
				};

				/* A sockaddr's length is the kernel's int. */
				if (a.kind == SW_ARG_SOCKADDR)
					a.len = (int32_t)d->args[kind >> 4];
				len = read_arg(read_ctx, &a, scratch->path,
					       sizeof(scratch->path));
			}
			if (len == -ENODATA) {
				/* No unix address (another family, NULL, a
				 * length the kernel refuses): as a NULL path,
				 * no condition holds, negated ones included;
				 * the kernel has the last word on the call. */
				ok = false;
				break;
			}
			if (len < 0) {
				/* Unreadable string: the kernel would fail
				 * with EFAULT too; never run it unchecked. */
				d->rule = (int)i;
				d->action = r->action;
				d->audit = r->audit;
				d->why = "path argument unreadable";
				set_errno(d, len == -EFAULT || len == -EIO ||
						     len == -ESRCH || len == -EINVAL
					     ? EFAULT : -len);
				return;
			}
			d->path = scratch->path;
			ok = path_holds(c, scratch->path);
		}
		if (!ok)
			continue;
		if (r->when_first || r->when_last || r->when_step) {
			uint32_t n = counters ? ++counters[i] : 1;

			if (!sw_when_selects(r->when_first, r->when_last,
					     r->when_step, n))
				continue;
		}
		d->rule = (int)i;
		d->audit = r->audit;
		apply_action(prog, abi, r, r->action, r->errno_ret, mask, d);
		goto out;
	}
	if (sw_prog_enosys(prog, abi, nr)) {
		/* As the filter's prefix answers the calls it decides. */
		d->action = SW_ACT_ERRNO;
		d->why = "newer than every call the policy names (ENOSYS, as runc)";
		set_errno(d, ENOSYS);
		/* The policy's answer, as runc gives it: complain mode lets
		 * such a call run too. */
		d->refusal = true;
		goto out;
	}
	apply_action(prog, abi, NULL, p->default_action, p->default_errno,
		     mask, d);
out:
	/* A stripped CLONE_UNTRACED must reach the kernel even when the
	 * policy simply allows the call. */
	if (d->verdict == SW_V_ALLOW && d->args[0] != orig0)
		d->verdict = SW_V_REWRITE;
}

bool sw_rule_grants(const struct sw_program *prog, int rule, enum sw_abi abi,
		    uint64_t nr, const char *name)
{
	const struct sw_prog_rule *pr;
	const struct sw_rule *r;
	unsigned int n = 0;
	int at;

	if (rule < 0 || (size_t)rule >= prog->n_rules)
		return false;
	pr = &prog->rules[rule];
	r = pr->rule;
	if (!pr->applies || (r->action != SW_ACT_ALLOW && r->action != SW_ACT_KLOG &&
			     r->action != SW_ACT_AUDIT) ||
	    (at = sw_prog_rule_name_at(prog, (size_t)rule, abi, nr)) < 0)
		return false;
	/* Every condition on the address, as for the address the call
	 * named; the rule's others held at the stop. */
	for (size_t k = 0; k < r->n_paths; k++) {
		const struct sw_path_cond *c = &r->paths[k];
		uint8_t kind = c->index < 6 ? pr->kinds[abi][at * 6 + c->index] & 0xf : 0;

		if (kind != SW_ARG_SOCKADDR && kind != SW_ARG_MSGHDR)
			continue;
		n++;
		if (!path_holds(c, name))
			return false;
	}
	return n > 0;
}

bool sw_decision_lift(struct sw_decision *d, uint64_t nr, const uint64_t args[6])
{
	if (!d->refusal || d->rule == SW_RULE_DEFENCE)
		return false;
	d->lifted = true;
	d->retval = 0;
	d->is_error = false;
	d->signal = 0;
	/* d->nr and d->args are the call as decide() would let it run: the
	 * program's, but for a defence's change on the way. */
	d->verdict = d->nr != nr || memcmp(d->args, args, sizeof(d->args))
		     ? SW_V_REWRITE : SW_V_ALLOW;
	return true;
}
