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

struct sw_argtypes_row {
	const char *name;
	const char *types;	/* one letter per argument: l i h p */
};

#include "argtypes.h"

static int row_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct sw_argtypes_row *)elem)->name);
}

uint64_t sw_syscall_arg_mask(uint32_t arch, const char *name, unsigned int index)
{
	const struct sw_argtypes_row *tab = argtypes_x86_64, *row;
	size_t n = sizeof(argtypes_x86_64) / sizeof(argtypes_x86_64[0]);

	if (arch == SCMP_ARCH_X86) {
		tab = argtypes_i386;
		n = sizeof(argtypes_i386) / sizeof(argtypes_i386[0]);
	} else if (arch != SCMP_ARCH_X86_64 && arch != SCMP_ARCH_X32) {
		return ~0ull;
	}
	if (!name)
		return ~0ull;
	row = bsearch(name, tab, n, sizeof(*tab), row_cmp);
	if (!row || index >= strlen(row->types))
		return ~0ull;
	switch (row->types[index]) {
	case 'i':
		return 0xffffffffull;
	case 'h':
		return 0xffffull;
	default:		/* 'l', 'p' */
		return ~0ull;
	}
}
