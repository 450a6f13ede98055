// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one table of syscall argument widths, read by the filter compiler
 * (engine/filter.c) and by the supervisor's decision (decide.c via
 * program.c), so that a condition means the same in BPF and in userspace
 * and the same as in the kernel.  The table itself (argtypes.h) is
 * generated from the kernel's SYSCALL_DEFINEn prototypes by
 * scripts/gen-argtypes; re-run it for a newer kernel.
 */
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/policy.h"

/* One letter per argument (l i h p) in each ABI; NULL where the ABI has
 * no such syscall.  x32 shares the x86_64 column by name. */
struct sw_argtypes_row {
	const char *name;
	const char *x86_64;
	const char *i386;
};

#include "argtypes.h"

static int row_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sw_argtypes_row *)elem)->name);
}

const char *sw_syscall_arg_types(uint32_t arch, const char *name)
{
	const struct sw_argtypes_row *row;

	/*
	 * arm64's and riscv64's calls are the same SYSCALL_DEFINEn
	 * functions as x86_64's under the same names (include/uapi/
	 * asm-generic/unistd.h; arm64 has no call of its own that x86_64
	 * lacks, riscv64's riscv_flush_icache and riscv_hwprobe have no
	 * row, so no width), so x86_64's column is theirs: an int argument
	 * is an int there too, and a filter must compare only its low 32
	 * bits, which is all the kernel reads.
	 */
	if (arch != SCMP_ARCH_X86_64 && arch != SCMP_ARCH_X32 &&
	    arch != SCMP_ARCH_X86 && arch != SCMP_ARCH_AARCH64 &&
	    arch != SCMP_ARCH_RISCV64)
		return NULL;
	if (!name)
		return NULL;
	row = bsearch(name, argtypes, sizeof(argtypes) / sizeof(argtypes[0]),
		      sizeof(argtypes[0]), row_cmp);
	if (!row)
		return NULL;
	return arch == SCMP_ARCH_X86 ? row->i386 : row->x86_64;
}

static uint64_t type_mask(char type)
{
	switch (type) {
	case 'i':
		return 0xffffffffull;
	case 'h':
		return 0xffffull;
	default:		/* 'l', 'p' */
		return ~0ull;
	}
}

void sw_syscall_arg_masks(uint32_t arch, const char *name, uint64_t ret[6])
{
	const char *types = sw_syscall_arg_types(arch, name);
	size_t n = types ? strlen(types) : 0;

	for (size_t i = 0; i < 6; i++)
		ret[i] = i < n ? type_mask(types[i]) : ~0ull;
}

uint64_t sw_syscall_arg_mask(uint32_t arch, const char *name, unsigned int index)
{
	uint64_t m[6];

	if (index >= 6)
		return ~0ull;
	sw_syscall_arg_masks(arch, name, m);
	return m[index];
}
