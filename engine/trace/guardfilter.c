// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The path guard's filter prefix (pathguard.c says what the guard is):
 * the setup's injected calls pass through the tracee's own seccomp
 * filter, which the policy may have made deny them; a prefix in front of
 * the compiled filter sends them to the supervisor instead (TRACE).
 * Called by the launch, before the fork.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/kcmp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sysward/caps.h"
#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "sysward/proc.h"
#include "sysward/syscall_nr.h"
#include "trace/pathguard.h"
#include "decide/decide.h"
#include "decide/program.h"

/* ---- pure helpers ---------------------------------------------------- */

bool sw_pathguard_wanted(const struct sw_program *prog)
{
	for (size_t i = 0; i < prog->n_rules; i++)
		if (prog->rules[i].applies && prog->rules[i].rule->n_paths)
			return true;
	return false;
}

/*
 * The guard's own rules, in front of the compiled filter (so that they
 * see every call first).  Each returns TRACE(0), which sends the call to
 * the supervisor: sw_decide() evaluates the policy as for any traced call
 * and sw_pathguard_pin() then applies the guard's own checks.
 *   - socketpair and recvmsg with the setup's arguments (int arguments,
 *     compared at 32 bits), mseal, mmap(SW_GUARD_ADDR, ...): the
 *     supervisor's own injected calls must not be denied by the policy;
 *   - madvise and process_madvise with MADV_DONTFORK: the one advice that
 *     mseal allows on the guard (a shared file mapping) and that takes it
 *     away from a fork child (route 6b);
 *   - prctl(PR_SET_DUMPABLE, 0): a non-dumpable program cannot be read by
 *     a supervisor without CAP_SYS_PTRACE (class 7).
 * For every ABI that reaches the same mm (the architecture's
 * sw_arch_filter_groups; on x86-64, x32 and i386 by int $0x80 too).
 * Values the kernel reads as int (advice, the prctl option) are compared
 * at 32 bits.
 */
struct bpf_buf {
	struct sock_filter f[96];
	size_t n;
};

struct word_eq {
	uint32_t off, val;
};

#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_LO(i)	(uint32_t)offsetof(struct seccomp_data, args[i])
#define SD_HI(i)	(uint32_t)(offsetof(struct seccomp_data, args[i]) + 4)

/* "nr == N and every word equal: TRACE(0)", else fall through. */
static void emit_trace_if(struct bpf_buf *b, uint32_t nr,
			  const struct word_eq *w, size_t nw)
{
	size_t start = b->n;

	b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_NR);
	b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 0);
	for (size_t k = 0; k < nw; k++) {
		b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, w[k].off);
		b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, w[k].val, 0, 0);
	}
	b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 0);
	/* Every mismatch goes to the instruction after this block. */
	for (size_t i = start; i < b->n; i++)
		if (BPF_CLASS(b->f[i].code) == BPF_JMP)
			b->f[i].jf = (uint8_t)(b->n - i - 1);
}

static void emit_vetted(struct bpf_buf *b, enum sw_abi abi)
{
	const struct word_eq dontfork2[] = { { SD_LO(2), SW_MADV_DONTFORK } };
	const struct word_eq dontfork3[] = { { SD_LO(3), SW_MADV_DONTFORK } };
	const struct word_eq nondump[] = {
		{ SD_LO(0), SW_PR_SET_DUMPABLE }, { SD_LO(1), 0 }, { SD_HI(1), 0 },
	};

	emit_trace_if(b, sw_arch_vetted_nr[abi].madvise, dontfork2, 1);
	emit_trace_if(b, sw_arch_vetted_nr[abi].process_madvise, dontfork3, 1);
	emit_trace_if(b, sw_arch_vetted_nr[abi].prctl, nondump, 3);
}

int sw_pathguard_patch_filter(void **insns, size_t *n, struct sw_error *err)
{
	const uint32_t lo = (uint32_t)SW_GUARD_ADDR;
	const uint32_t hi = (uint32_t)((uint64_t)SW_GUARD_ADDR >> 32);
	const struct word_eq at_guard[] = { { SD_LO(0), lo }, { SD_HI(0), hi } };
	const struct word_eq pair[] = {
		{ SD_LO(0), AF_UNIX }, { SD_LO(1), SW_GUARD_SOCK }, { SD_LO(2), 0 },
	};
	const struct word_eq recv[] = { { SD_LO(2), SW_GUARD_RECV } };
	struct bpf_buf b = { .n = 0 };
	size_t to_orig[8], n_to_orig = 0;

	_Static_assert(sizeof(to_orig) / sizeof(to_orig[0]) >= SW_ABI_COUNT,
		       "one group per ABI at most");
	b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_ARCH);
	for (size_t g = 0; g < sw_arch_n_filter_groups; g++) {
		const struct sw_arch_filter_group *grp = &sw_arch_filter_groups[g];
		size_t test = b.n;
		bool guard_abi = false;

		for (unsigned int k = 0; k < grp->n_abis; k++)
			guard_abi |= grp->abis[k] == SW_ABI_GUARD;
		b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  grp->audit_arch, 0, 0);
		if (guard_abi) {
			emit_trace_if(&b, __NR_socketpair, pair, 3);
			emit_trace_if(&b, __NR_recvmsg, recv, 1);
			emit_trace_if(&b, SYS_mseal, NULL, 0);
			emit_trace_if(&b, __NR_mmap, at_guard, 2);
		}
		for (unsigned int k = 0; k < grp->n_abis; k++)
			emit_vetted(&b, grp->abis[k]);
		if (g + 1 < sw_arch_n_filter_groups) {
			to_orig[n_to_orig++] = b.n;
			b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0);
		}
		/* Another AUDIT_ARCH: the next group (or the original). */
		b.f[test].jf = (uint8_t)(b.n - test - 1);
	}
	/* b.n is now the first instruction of the original program. */
	for (size_t i = 0; i < n_to_orig; i++)
		b.f[to_orig[i]].k = (uint32_t)(b.n - to_orig[i] - 1);

	return sw_filter_prepend(insns, n, b.f, b.n, "the path guard", err);
}
