// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which part of the machine answers a rule's calls, for `sysward check
 * --routes`: the kernel's filter alone, the session's seccomp listener
 * (notif.c), or the tracer at a ptrace stop, and why.
 *
 * Read off the launch's compiled filters, not re-derived from the
 * policy: for one syscall number on the native ABI, every return the
 * BPF program can reach (walk()), with the call's number and
 * architecture known and every other word of struct seccomp_data
 * unknown (both ways of a jump on it are taken).  The kernel runs both
 * filters and keeps the return of highest precedence
 * (kernel/seccomp.c, seccomp_run_filters(): the lowest action value
 * wins), so a defence's TRACE outranks the policy's ALLOW, and the
 * policy's ERRNO or USER_NOTIF outranks a defence's TRACE.  The reasons
 * a rule stops are sw_notif_rule_why()'s (one home), and the launch's
 * without a listener prepare.c's.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "internal.h"
#include "prepare.h"

/* The returns a filter can reach, one bit per action. */
enum {
	R_KILL = 1 << 0,
	R_TRAP = 1 << 1,
	R_ERRNO = 1 << 2,
	R_NOTIF = 1 << 3,
	R_TRACE = 1 << 4,
	R_LOG = 1 << 5,
	R_ALLOW = 1 << 6,
	R_ALL = (1 << 7) - 1,
};

static unsigned int ret_bit(uint32_t k)
{
	switch (k & SECCOMP_RET_ACTION_FULL) {
	case SECCOMP_RET_KILL_PROCESS:
	case SECCOMP_RET_KILL_THREAD:
		return R_KILL;
	case SECCOMP_RET_TRAP:
		return R_TRAP;
	case SECCOMP_RET_ERRNO:
		return R_ERRNO;
	case SECCOMP_RET_USER_NOTIF:
		return R_NOTIF;
	case SECCOMP_RET_TRACE:
		return R_TRACE;
	case SECCOMP_RET_LOG:
		return R_LOG;
	case SECCOMP_RET_ALLOW:
		return R_ALLOW;
	}
	return R_KILL;	/* the kernel kills on an action it does not know */
}

struct walk_state {
	uint32_t pc;
	bool known;	/* A holds a */
	uint32_t a;
};

#define WALK_MAX_STATES 65536
#define WALK_SLOTS (2 * WALK_MAX_STATES)	/* a power of two */

/* Insert key into the open-addressing set (0 is never a key: keys
 * carry pc + 1); false if it was there. */
static bool seen_add(uint64_t *set, uint64_t key)
{
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & (WALK_SLOTS - 1);

	while (set[h]) {
		if (set[h] == key)
			return false;
		h = (h + 1) & (WALK_SLOTS - 1);
	}
	set[h] = key;
	return true;
}

/*
 * The returns filter f (n instructions, checked by the kernel's rules:
 * forward jumps only) can reach for a call of number nr on arch.  A is
 * followed while it holds a known word (nr, arch, a constant, what an
 * ALU op makes of them); X and scratch memory are not: a jump on them
 * takes both ways.  Too many states: every return (the caller says
 * less then, never something false).
 */
static unsigned int walk(const struct sock_filter *f, size_t n, uint32_t arch,
			 uint32_t nr)
{
	cleanup_free struct walk_state *stack = NULL;
	cleanup_free uint64_t *seen = NULL;
	size_t sp = 0, n_seen = 0;
	unsigned int out = 0;

	stack = malloc(sizeof(*stack) * WALK_MAX_STATES);
	seen = calloc(WALK_SLOTS, sizeof(*seen));
	if (!stack || !seen)
		return R_ALL;
	stack[sp++] = (struct walk_state){ 0, false, 0 };
	while (sp) {
		struct walk_state s = stack[--sp];

		/* A path already walked from here adds nothing. */
		if (!seen_add(seen, (uint64_t)(s.pc + 1) << 33 |
				    (uint64_t)s.known << 32 | (s.known ? s.a : 0)))
			continue;
		if (++n_seen == WALK_MAX_STATES)
			return R_ALL;
		for (;;) {
			const struct sock_filter *in;
			bool t, both = false;

			if (s.pc >= n)
				return R_ALL;	/* no valid filter ends so */
			in = &f[s.pc];
			switch (BPF_CLASS(in->code)) {
			case BPF_RET:
				out |= BPF_RVAL(in->code) == BPF_K ? ret_bit(in->k) : R_ALL;
				goto next;
			case BPF_LD:
				s.known = BPF_MODE(in->code) == BPF_IMM ||
					  (BPF_MODE(in->code) == BPF_ABS &&
					   (in->k == offsetof(struct seccomp_data, nr) ||
					    in->k == offsetof(struct seccomp_data, arch)));
				s.a = BPF_MODE(in->code) == BPF_IMM ? in->k
				      : in->k == offsetof(struct seccomp_data, nr) ? nr : arch;
				s.pc++;
				continue;
			case BPF_ALU:
				if (!s.known || BPF_SRC(in->code) != BPF_K) {
					s.known = false;
				} else {
					switch (BPF_OP(in->code)) {
					case BPF_AND: s.a &= in->k; break;
					case BPF_OR: s.a |= in->k; break;
					case BPF_XOR: s.a ^= in->k; break;
					case BPF_ADD: s.a += in->k; break;
					case BPF_SUB: s.a -= in->k; break;
					case BPF_LSH: s.a = in->k < 32 ? s.a << in->k : 0; break;
					case BPF_RSH: s.a = in->k < 32 ? s.a >> in->k : 0; break;
					case BPF_NEG: s.a = -s.a; break;
					default: s.known = false;
					}
				}
				s.pc++;
				continue;
			case BPF_JMP:
				if (BPF_OP(in->code) == BPF_JA) {
					s.pc += 1 + in->k;
					continue;
				}
				both = !s.known || BPF_SRC(in->code) != BPF_K;
				switch (BPF_OP(in->code)) {
				case BPF_JEQ: t = s.a == in->k; break;
				case BPF_JGT: t = s.a > in->k; break;
				case BPF_JGE: t = s.a >= in->k; break;
				case BPF_JSET: t = (s.a & in->k) != 0; break;
				default: return R_ALL;
				}
				if (both) {
					if (sp == WALK_MAX_STATES)
						return R_ALL;
					stack[sp++] = (struct walk_state){
						s.pc + 1 + in->jf, s.known, s.a };
					s.pc += 1 + in->jt;
				} else {
					s.pc += 1 + (t ? in->jt : in->jf);
				}
				continue;
			case BPF_MISC:
				/* TXA: A from X, which is not followed */
				if (BPF_MISCOP(in->code) == BPF_TXA)
					s.known = false;
				s.pc++;
				continue;
			default:	/* LDX, ST, STX: A unchanged */
				s.pc++;
				continue;
			}
		}
next:
		;
	}
	return out;
}

static const char *plain_name(unsigned int bit)
{
	switch (bit) {
	case R_KILL: return "a kill";
	case R_TRAP: return "SIGSYS";
	case R_ERRNO: return "an errno";
	case R_LOG: return "an allow the kernel logs";
	default: return "an allow";
	}
}

/* Where rule i's calls of syscall nr are answered, in words, into buf;
 * true if by the seccomp listener. */
static bool route_of(const struct sw_prepared *pr, size_t i, int nr,
		     char *buf, size_t size)
{
	const struct sw_program *prog = pr->prog;
	uint32_t arch = sw_abi_token(sw_abi_native());	/* an AUDIT_ARCH_* */
	unsigned int want = ret_bit(sw_filter_rule_act(prog, i, 0));
	unsigned int pol = walk(pr->insns, pr->n_insns, arch, (uint32_t)nr);
	unsigned int def = walk(pr->dinsns, pr->n_dinsns, arch, (uint32_t)nr);

	if (want != R_TRACE && (pol & want)) {
		/* answered without the tracer: below */
	} else if (pol & R_TRACE) {
		/* A stop: the rule's own, or its syscall's rules mix
		 * actions BPF cannot order (filter.c) */
		const char *why = sw_notif_rule_why(prog, i);

		if (want != R_TRACE || !why)
			why = "the syscall's rules mix actions or compare an argument at a width BPF cannot, so each call stops and the first rule that matches decides";
		snprintf(buf, size, "a ptrace stop: %s", why);
		return false;
	} else {
		snprintf(buf, size, "none: an earlier rule decides every one of its calls");
		return false;
	}
	if (want == R_NOTIF) {
		snprintf(buf, size, "the seccomp listener, no ptrace stop");
		return true;
	}
	/* The kernel's precedence: a defence's TRACE outranks an allow. */
	if ((want == R_ALLOW || want == R_LOG) && (def & R_TRACE)) {
		snprintf(buf, size, "the kernel's filter (%s), but a ptrace stop for a built-in defence's check%s (docs/security.md)",
			 plain_name(want), def & (R_ALLOW | R_LOG) ? " of some of its calls" : "");
		return false;
	}
	snprintf(buf, size, "the kernel's filter alone (%s), no stop", plain_name(want));
	return false;
}

int sw_prepared_routes(const struct sw_prepared *pr,
		       int (*fn)(const char *path, const char *msg, void *ud),
		       void *ud)
{
	const struct sw_program *prog = pr->prog;
	bool listened = false;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < prog->n_rules; i++) {
		const struct sw_prog_rule *p = &prog->rules[i];
		const struct sw_rule *rule = p->rule;
		cleanup_free char *msg = NULL;
		char main_route[512] = "", route[512];
		size_t len = 0;
		FILE *m;

		if (!rule->json_path)
			continue;
		if (!p->applies) {
			r = fn(rule->json_path, p->landlock
			       ? "the kernel's Landlock, no stop (its enforce: line says how)"
			       : "none: the rule does not apply here (includes, excludes)", ud);
			continue;
		}
		m = open_memstream(&msg, &len);
		if (!m)
			return -ENOMEM;
		/* The first name's route, then each name whose route differs.
		 * A name libseccomp knows but this architecture lacks
		 * (getuid32 on x86_64) resolves to a negative pseudo number:
		 * it has no calls to route. */
		for (size_t k = 0; k < rule->n_names; k++) {
			int nr = seccomp_syscall_resolve_name(rule->names[k]);

			if (nr < 0)
				continue;
			listened |= route_of(pr, i, nr, route, sizeof(route));
			if (!main_route[0]) {
				memcpy(main_route, route, sizeof(route));
				fputs(route, m);
			}
		}
		for (size_t k = 0; k < rule->n_names; k++) {
			int nr = seccomp_syscall_resolve_name(rule->names[k]);

			if (nr < 0)
				continue;
			route_of(pr, i, nr, route, sizeof(route));
			if (strcmp(route, main_route))
				fprintf(m, "; %s: %s", rule->names[k], route);
		}
		if (fclose(m) != 0)
			return -ENOMEM;
		r = fn(rule->json_path, main_route[0] ? msg
		       : "none: none of its names is a system call of this architecture", ud);
	}
	if (r < 0)
		return r;
	/* The launch as a whole: no listener on this machine, or the modes
	 * that go without one. */
	if (prog->no_listener_why && prog->no_listener_why != sw_listener_unasked_why) {
		cleanup_free char *msg = NULL;

		if (asprintf(&msg, "no seccomp listener here: %s; every skip and emulate rule is answered at a ptrace stop",
			     prog->no_listener_why) < 0)
			return -ENOMEM;
		return fn(NULL, msg, ud);
	}
	if (listened) {
		cleanup_free char *msg = NULL;

		if (asprintf(&msg, "the seccomp listener's rules stop instead where %s",
			     sw_listener_modes_why) < 0)
			return -ENOMEM;
		return fn(NULL, msg, ud);
	}
	return 0;
}
