// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Calls answered through a seccomp listener instead of a ptrace stop.
 *
 * A rule whose answer is a return value (skip, emulate) needs neither a
 * register nor a memory write in the tracee, nor a read of its memory:
 * the kernel can answer it from SECCOMP_RET_USER_NOTIF with the value a
 * listener sends back.  On these VMs that round trip costs a fraction of
 * a ptrace stop when caller and supervisor run on different CPUs
 * ("Where the supervisor runs", engine/README.md): the caller sleeps in
 * the seccomp hook once, and with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP the
 * kernel wakes the listener, and then the caller, on the waker's own
 * CPU (kernel/seccomp.c, seccomp_do_user_notification() and
 * seccomp_notify_send(): wake_up_poll_on_current_cpu(), WF_CURRENT_CPU).
 *
 * Which rules go there, one home: sw_notif_rule_why() (the filter
 * compiler, `sysward check` and the docs read it).  The launch's part:
 * the policy's filter, loaded last, is loaded with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER; its descriptor is close-on-exec
 * (kernel/seccomp.c, init_listener(): O_CLOEXEC) and must reach the
 * supervisor before any call the listener answers can be made, which is
 * the launch child's very next call: the exec.  So the child makes that
 * execve with two more arguments, which execve ignores (it takes
 * three on every architecture: fs/exec.c): a magic value and the
 * listener's number; a prefix of the policy's filter
 * (sw_notif_patch_filter) traces exactly that call, and the supervisor
 * takes the descriptor with pidfd_getfd at the stop (sw_notif_take), before the exec
 * closes the child's copy.  Until then no call of the child can need the
 * listener: execve is never answered there.
 *
 * The session's listener itself, taken at that stop and answered by a
 * thread of its own, is trace/listener.c.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "sysward/seccomp_abi.h"
#include "internal.h"
#include "contain/contain.h"
#include "decide/decide.h"
#include "decide/defences.h"
#include "decide/program.h"

/* ---- which rules: one home ------------------------------------------- */

const char *sw_notif_rule_why(const struct sw_program *prog, size_t i)
{
	const struct sw_rule *r = prog->rules[i].rule;

	/* The rule's own reasons first: they hold on every machine; what
	 * makes a rule need the supervisor at all (sw_rule_needs_supervisor)
	 * before its action. */
	if (r->n_paths)
		return "a path condition reads tracee memory (the path guard)";
	if (r->when_first || r->when_last || r->when_step)
		return "a when counter is the session's, kept by the tracer";
	if (r->action == SW_ACT_AUDIT ||
	    (r->audit && (r->action == SW_ACT_ALLOW || r->action == SW_ACT_KLOG)))
		return "its log line has the call's result, which only its exit stop sees";
	if (r->action == SW_ACT_REWRITE)
		return "a rewrite changes the call's registers, which only ptrace can";
	if (r->action != SW_ACT_SKIP && r->action != SW_ACT_EMULATE)
		return "its action is decided at a stop";
	for (size_t k = 0; k < r->n_names; k++)
		if (!strcmp(r->names[k], "execve") || !strcmp(r->names[k], "execveat"))
			return "exec hands the listener over and is checked at its stop";
	if (!prog->listener)
		return prog->no_listener_why ? prog->no_listener_why
					     : "the launch has no seccomp listener";
	return NULL;
}

bool sw_notif_rule(const struct sw_program *prog, size_t i)
{
	return sw_notif_rule_why(prog, i) == NULL;
}

/* ---- the filter's prefix ----------------------------------------------- */

#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_LO(i)	(uint32_t)offsetof(struct seccomp_data, args[i])
#define SD_HI(i)	(uint32_t)(offsetof(struct seccomp_data, args[i]) + 4)

struct pbuf {
	struct sock_filter f[96];
	size_t n;
	size_t to_end[32];	/* JA instructions to the original program */
	size_t n_to_end;
};

static void emit(struct pbuf *b, struct sock_filter f)
{
	b->f[b->n++] = f;
}

static void emit_to_end(struct pbuf *b)
{
	b->to_end[b->n_to_end++] = b->n;
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0));
}

/*
 * In front of the policy's filter, when the launch has a listener:
 *   - the launch child's handoff (execve with SW_NOTIF_MAGIC in its
 *     fourth argument, native ABI) -> TRACE, for sw_notif_take();
 *   - SECCOMP_LISTENER's row of sw_denials[] (seccomp() asking for a
 *     listener -> EPERM), moved here from the defences' filter: that
 *     filter is loaded first (launchchild.c) and would refuse our own
 *     listener.  A refusal of the filter loaded last outranks a
 *     program's own filters just as well (ERRNO > USER_NOTIF), and
 *     while our listener lives the kernel refuses a second one in the
 *     chain anyway (EBUSY, kernel/seccomp.c has_duplicate_listener()).
 */
int sw_notif_patch_filter(const struct sw_program *prog, void **insns,
			  size_t *n, struct sw_error *err)
{
	const uint32_t lo = (uint32_t)SW_NOTIF_MAGIC;
	const uint32_t hi = (uint32_t)(SW_NOTIF_MAGIC >> 32);
	const struct sw_denial *row = NULL;
	size_t row_i = 0;
	struct pbuf b = { .n = 0 };

	for (size_t i = 0; i < SW_DENIAL_COUNT; i++)
		if (sw_denials[i].defence == SW_DEFENCE_SECCOMP_LISTENER) {
			row = &sw_denials[i];
			row_i = i;
		}
	for (size_t g = 0; g < sw_arch_n_filter_groups; g++) {
		const struct sw_arch_filter_group *grp = &sw_arch_filter_groups[g];
		size_t test;

		emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_ARCH));
		test = b.n;
		emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      grp->audit_arch, 0, 0));
		emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_NR));
		for (unsigned int k = 0; k < grp->n_abis; k++) {
			enum sw_abi abi = grp->abis[k];
			int nr;

			if (abi == SW_ABI_GUARD) {
				/* nr == execve && args[3] == magic */
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								      __NR_execve, 0, 6));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_LO(3)));
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 3));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_HI(3)));
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 1));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
								      SECCOMP_RET_TRACE | SW_HINT_NONE));
				emit_to_end(&b);
			}
			if (!row || !(prog->defences & row->defence) ||
			    !prog->abi_enabled[abi] ||
			    (nr = prog->denial_nr[abi][row_i]) < 0)
				continue;
			/* nr == seccomp && (args[1] & NEW_LISTENER) */
			emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (uint32_t)nr, 0, 5));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							      SD_LO(row->args[0].index)));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
							      (uint32_t)row->args[0].value));
			emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (uint32_t)row->args[0].value_two, 0, 1));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							      SECCOMP_RET_ERRNO | (uint16_t)row->err));
			emit_to_end(&b);
		}
		emit_to_end(&b);
		/* Another AUDIT_ARCH: the next group. */
		b.f[test].jf = (uint8_t)(b.n - test - 1);
	}
	/* b.n is now the first instruction of the original program. */
	for (size_t i = 0; i < b.n_to_end; i++)
		b.f[b.to_end[i]].k = (uint32_t)(b.n - b.to_end[i] - 1);
	return sw_filter_prepend(insns, n, b.f, b.n,
				 "the seccomp listener's prefix", err);
}

bool sw_notif_filter_has(const void *insns, size_t n)
{
	const struct sock_filter *f = insns;

	for (size_t i = 0; i < n; i++)
		if (BPF_CLASS(f[i].code) == BPF_RET && BPF_RVAL(f[i].code) == BPF_K &&
		    (f[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF)
			return true;
	return false;
}
