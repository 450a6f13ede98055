// SPDX-License-Identifier: LGPL-2.1-or-later
/* ABI slots of an x86-64 kernel: x86_64, i386 (compat, also int 0x80 from a
 * 64-bit process) and x32.  libseccomp's arch tokens are the AUDIT_ARCH_*
 * values, which is also what PTRACE_GET_SYSCALL_INFO reports in .arch. */
#include <errno.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/utsname.h>

#include "internal.h"

static const struct {
	uint32_t token;
	const char *name;
	unsigned int arg_bytes;
} abis[SW_ABI_COUNT] = {
	[SW_ABI_X86_64] = { SCMP_ARCH_X86_64, "x86_64", 8 },
	[SW_ABI_I386] = { SCMP_ARCH_X86, "i386", 4 },
	[SW_ABI_X32] = { SCMP_ARCH_X32, "x32", 4 },
};

uint32_t sw_abi_token(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].token : 0;
}

const char *sw_abi_name(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].name : "unknown";
}

unsigned int sw_abi_arg_bytes(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].arg_bytes : 8;
}

enum sw_abi sw_abi_of(uint32_t audit_arch, uint64_t nr)
{
	/* The kernel reports x32 calls as AUDIT_ARCH_X86_64 and keeps
	 * __X32_SYSCALL_BIT in the number (orig_ax). */
	if (audit_arch == SCMP_ARCH_X86_64)
		return (nr & SW_X32_SYSCALL_BIT) ? SW_ABI_X32 : SW_ABI_X86_64;
	if (audit_arch == SCMP_ARCH_X86)
		return SW_ABI_I386;
	return SW_ABI_NONE;
}

enum sw_abi sw_abi_from_name(const char *name)
{
	static const struct {
		const char *name;
		enum sw_abi abi;
	} names[] = {
		{ "SCMP_ARCH_X86_64", SW_ABI_X86_64 },
		{ "x86_64", SW_ABI_X86_64 },
		{ "amd64", SW_ABI_X86_64 },
		{ "SCMP_ARCH_X86", SW_ABI_I386 },
		{ "x86", SW_ABI_I386 },
		{ "i386", SW_ABI_I386 },
		{ "i686", SW_ABI_I386 },
		{ "386", SW_ABI_I386 },
		{ "SCMP_ARCH_X32", SW_ABI_X32 },
		{ "x32", SW_ABI_X32 },
	};

	if (!name)
		return SW_ABI_NONE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].abi;
	return SW_ABI_NONE;
}

enum sw_abi sw_abi_native(void)
{
	switch (seccomp_arch_native()) {
	case SCMP_ARCH_X86_64:
		return SW_ABI_X86_64;
	case SCMP_ARCH_X86:
		return SW_ABI_I386;
	case SCMP_ARCH_X32:
		return SW_ABI_X32;
	default:
		return SW_ABI_NONE;
	}
}

unsigned int sw_kernel_version_now(void)
{
	struct utsname u;
	unsigned int a = 0, b = 0, c = 0;

	if (uname(&u) < 0)
		return 0;
	if (sscanf(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	if (c > 255)
		c = 255;
	return (a << 16) + (b << 8) + c;
}

/*
 * The legacy vsyscall page (x86_64, vsyscall=xonly or emulate): calling
 * 0xffffffffff600000 (gettimeofday), ...400 (time) or ...800 (getcpu)
 * faults, and the kernel emulates the call, running the seccomp filters
 * for it with the instruction pointer still in the page.  The emulation
 * (arch/x86/entry/vsyscall/vsyscall_64.c) accepts from a tracer only a
 * skip decided at the seccomp stop, returning whatever the return
 * register then holds; it makes no syscall-exit stop, and a changed
 * syscall number or instruction pointer gets the process killed.
 */
#define SW_VSYSCALL_PAGE 0xffffffffff600000ull

bool sw_arch_in_vsyscall(enum sw_abi abi, uint64_t ip)
{
	return abi == SW_ABI_X86_64 && (ip & ~0xfffull) == SW_VSYSCALL_PAGE;
}

int sw_arch_return_at_entry(pid_t pid, int64_t rval)
{
	/* A 64-bit tracer sees every tracee (i386 and x32 too) through the
	 * 64-bit struct user_regs_struct.  orig_rax = -1 is the skip; rax
	 * is what the program gets, as the kernel leaves it for a skipped
	 * call. */
	if (ptrace(PTRACE_POKEUSER, pid,
		   (void *)offsetof(struct user_regs_struct, orig_rax), (void *)-1L) < 0 ||
	    ptrace(PTRACE_POKEUSER, pid,
		   (void *)offsetof(struct user_regs_struct, rax), (void *)rval) < 0)
		return -errno;
	return 0;
}
