/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* x86_64's types for engine/arch.h (which says what they are for). */
#ifndef SYSWARD_ENGINE_ARCH_X86_64_H
#define SYSWARD_ENGINE_ARCH_X86_64_H

#include <stdint.h>
#include <sys/user.h>

/* The ABIs an x86-64 kernel may run for one process. */
enum sw_abi {
	SW_ABI_X86_64,
	SW_ABI_I386,
	SW_ABI_X32,
	SW_ABI_COUNT,
	SW_ABI_NONE = -1,
};

/* The guard injects 64-bit calls (no mseal in compat mode), with the
 * numbers and structure layouts of sysward's own x86_64 build. */
#define SW_ABI_GUARD		SW_ABI_X86_64
#if defined(__ILP32__)
#error "the path guard's setup writes x86_64 structures: build sysward for x86_64, not x32"
#endif

/* The setup's scratch memory (sw_arch_scratch): a page below the stack
 * pointer, less the red zone. */
#define SW_ARCH_SCRATCH_MAX	(4096u - 128u)

#define SW_X32_SYSCALL_BIT	0x40000000u

/* A 64-bit tracer sees every tracee (i386 and x32 too) through the 64-bit
 * struct user_regs_struct. */
struct sw_arch_regs {
	struct user_regs_struct r;
};

/* A stop's nr without the x32 bit. */
static inline uint64_t sw_arch_nr_index(uint64_t nr)
{
	return nr & ~(uint64_t)SW_X32_SYSCALL_BIT;
}

#endif
