/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* riscv64's types for engine/arch.h (which says what they are for). */
#ifndef SYSWARD_ENGINE_ARCH_RISCV64_H
#define SYSWARD_ENGINE_ARCH_RISCV64_H

#include <stdint.h>

/*
 * The ABIs sysward supervises on a riscv64 kernel: RV64 alone.  An RV32
 * (compat) program is not supervised: libseccomp has no RISCV32 token,
 * the filter has no group for AUDIT_ARCH_RISCV32, so its bad-arch action
 * (SCMP_ACT_KILL_PROCESS, filter.c) kills it at its first call; the
 * guest's kernel, like most, is built without CONFIG_COMPAT anyway.
 */
enum sw_abi {
	SW_ABI_RISCV64,
	SW_ABI_COUNT,
	SW_ABI_NONE = -1,
};

/* The guard injects RV64 calls, with sysward's own numbers and
 * structure layouts. */
#define SW_ABI_GUARD		SW_ABI_RISCV64
#if __riscv_xlen != 64
#error "the path guard's setup writes LP64 structures: build sysward for RV64"
#endif

/* The setup's scratch memory (sw_arch_scratch): a page below the stack
 * pointer (the RISC-V psABI has no red zone), less 16 bytes of
 * alignment. */
#define SW_ARCH_SCRATCH_MAX	(4096u - 16u)

/*
 * PTRACE_GETREGSET NT_PRSTATUS of an RV64 tracee (<asm/ptrace.h>'s
 * struct user_regs_struct: pc, then x1..x31 by ABI name; glibc's
 * <sys/user.h> has nothing for riscv), and the call's first argument.
 * The kernel runs a call on orig_a0, not a0 (arch/riscv/include/asm/
 * syscall_wrapper.h; do_trap_ecall_u() copies a0 there and sets a0 to
 * -ENOSYS before any stop), and no regset shows orig_a0: it is read with
 * PTRACE_GET_SYSCALL_INFO (syscall_get_arguments()) at an entry or
 * seccomp stop; at an exit stop it is a0 as the regset shows it.
 */
struct sw_rv_gregs {
	uint64_t pc, ra, sp, gp, tp, t0, t1, t2, s0, s1;
	uint64_t a[8];
	uint64_t s2_11[10];
	uint64_t t3, t4, t5, t6;
};
_Static_assert(sizeof(struct sw_rv_gregs) == 32 * 8, "NT_PRSTATUS of RV64");

struct sw_arch_regs {
	struct sw_rv_gregs r;
	uint64_t arg0;
};

/* No ABI flag bits in a riscv64 syscall number. */
static inline uint64_t sw_arch_nr_index(uint64_t nr)
{
	return nr;
}

#endif
