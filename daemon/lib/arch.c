// SPDX-License-Identifier: LGPL-2.1-or-later
/* ABI slots of an x86-64 kernel: x86_64, i386 (compat, also int 0x80 from a
 * 64-bit process) and x32.  libseccomp's arch tokens are the AUDIT_ARCH_*
 * values, which is also what PTRACE_GET_SYSCALL_INFO reports in .arch. */
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
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
