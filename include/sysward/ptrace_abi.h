/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ptrace syscall-info ABI as merged in Linux 6.16.
 *
 * Debian 12's <linux/ptrace.h> (6.1) predates PTRACE_SET_SYSCALL_INFO and
 * still spells the header padding as pad[3], so sysward carries its own
 * copy of the 88-byte layout.  Every field offset is checked below; a
 * mismatch is a build failure, never a silent ABI break.
 */
#ifndef SYSWARD_PTRACE_ABI_H
#define SYSWARD_PTRACE_ABI_H

#include <stddef.h>
#include <stdint.h>

#define SW_PTRACE_GET_SYSCALL_INFO	0x420e
#define SW_PTRACE_SET_SYSCALL_INFO	0x4212

#define SW_PTRACE_SYSCALL_INFO_NONE	0
#define SW_PTRACE_SYSCALL_INFO_ENTRY	1
#define SW_PTRACE_SYSCALL_INFO_EXIT	2
#define SW_PTRACE_SYSCALL_INFO_SECCOMP	3

/* What PTRACE_GET_SYSCALL_INFO returns for each op (unchanged by 6.16). */
#define SW_PTRACE_SYSCALL_INFO_SIZE_ENTRY	80
#define SW_PTRACE_SYSCALL_INFO_SIZE_EXIT	33
#define SW_PTRACE_SYSCALL_INFO_SIZE_SECCOMP	84

struct sw_ptrace_syscall_info {
	uint8_t op;
	uint8_t reserved;
	uint16_t flags;
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t stack_pointer;
	union {
		struct {
			uint64_t nr;
			uint64_t args[6];
		} entry;
		struct {
			int64_t rval;
			uint8_t is_error;
		} exit;
		struct {
			uint64_t nr;
			uint64_t args[6];
			uint32_t ret_data;
			uint32_t reserved2;
		} seccomp;
	};
};

_Static_assert(sizeof(struct sw_ptrace_syscall_info) == 88,
	       "struct ptrace_syscall_info is 88 bytes on every ABI");
_Static_assert(offsetof(struct sw_ptrace_syscall_info, flags) == 2, "flags");
_Static_assert(offsetof(struct sw_ptrace_syscall_info, arch) == 4, "arch");
_Static_assert(offsetof(struct sw_ptrace_syscall_info, entry.nr) == 24, "nr");
_Static_assert(offsetof(struct sw_ptrace_syscall_info, seccomp.ret_data) == 80,
	       "ret_data");
_Static_assert(offsetof(struct sw_ptrace_syscall_info, seccomp.reserved2) == 84,
	       "reserved2");

#endif
