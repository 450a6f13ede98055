/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* arm64's types for engine/arch.h (which says what they are for). */
#ifndef SYSWARD_ENGINE_ARCH_AARCH64_H
#define SYSWARD_ENGINE_ARCH_AARCH64_H

#include <sys/user.h>
#include <stdint.h>

/*
 * The ABIs sysward supervises on an arm64 kernel: AArch64 alone.  An
 * AArch32 (compat) program is not supervised: its filter has no arm
 * group, so libseccomp's bad-arch action (SCMP_ACT_KILL_PROCESS,
 * filter.c) kills it at its first call.  Why not supervise it: a 64-bit
 * tracer reads a compat tracee's registers in the 32-bit layout
 * (arch/arm64/kernel/ptrace.c, task_user_regset_view():
 * user_aarch32_ptrace_view), the guard could not be sealed there (no
 * mseal in compat mode, as for i386 on x86-64), and arm64 kernels built
 * without CONFIG_COMPAT (the QEMU guest's, many servers') cannot run
 * one at all.
 */
enum sw_abi {
	SW_ABI_AARCH64,
	SW_ABI_COUNT,
	SW_ABI_NONE = -1,
};

/* The guard injects AArch64 calls, with sysward's own numbers and
 * structure layouts. */
#define SW_ABI_GUARD		SW_ABI_AARCH64
#if defined(__ILP32__)
#error "the path guard's setup writes LP64 structures: build sysward for AArch64 LP64"
#endif

/* The setup's scratch memory (sw_arch_scratch): a page below the stack
 * pointer (AAPCS64 has no red zone), less 16 bytes of alignment. */
#define SW_ARCH_SCRATCH_MAX	(4096u - 16u)

/* PTRACE_GETREGSET NT_PRSTATUS of an AArch64 tracee (x0..x30, sp, pc,
 * pstate), and the syscall number the kernel latched from x8 at entry
 * (NT_ARM_SYSTEM_CALL: pt_regs->syscallno), which a tracer sets apart
 * from x8. */
struct sw_arch_regs {
	struct user_regs_struct r;
};

/* No ABI flag bits in an arm64 syscall number. */
static inline uint64_t sw_arch_nr_index(uint64_t nr)
{
	return nr;
}

#endif
