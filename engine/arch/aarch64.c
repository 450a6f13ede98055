// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every arm64 fact the engine uses: the hooks of engine/arch.h.
 *
 * One ABI is supervised, AArch64 (arch/aarch64.h says why not AArch32).
 * Registers: PTRACE_GETREGSET/SETREGSET NT_PRSTATUS (x0..x30, sp, pc,
 * pstate; there is no PTRACE_GETREGS on arm64).  A syscall takes its
 * number in x8 and its arguments in x0..x5 and returns in x0, which
 * thereby loses the first argument; the kernel keeps it in orig_x0 for
 * a restart (arch/arm64/kernel/syscall.c, el0_svc_common()), which no
 * regset shows.  The number the kernel runs is pt_regs->syscallno,
 * latched from x8 at entry and set by a tracer through
 * NT_ARM_SYSTEM_CALL (arch/arm64/kernel/ptrace.c, system_call_set()).
 */
#include <elf.h>
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "../internal.h"
#include "../sys.h"
#include "generic.h"
#include "witness.h"

/* The svc #0 instruction: 4 bytes; the kernel's own restart rewinds the
 * same (arch/arm64/kernel/signal.c, do_signal(): restart_addr). */
#define SW_SVC_INSN_LEN		4
/* pstate's nRW bit: set for a task in AArch32 state. */
#define SW_PSR_MODE32_BIT	0x10u

uint32_t sw_abi_token(enum sw_abi abi)
{
	return abi == SW_ABI_AARCH64 ? SCMP_ARCH_AARCH64 : 0;
}

const char *sw_abi_name(enum sw_abi abi)
{
	return abi == SW_ABI_AARCH64 ? "aarch64" : "unknown";
}

const char *sw_abi_oci_name(enum sw_abi abi)
{
	return abi == SW_ABI_AARCH64 ? "SCMP_ARCH_AARCH64" : NULL;
}

enum sw_abi sw_abi_of(uint32_t audit_arch, uint64_t nr)
{
	return audit_arch == SCMP_ARCH_AARCH64 ? SW_ABI_AARCH64 : SW_ABI_NONE;
}

enum sw_abi sw_abi_from_name(const char *name)
{
	static const char *const names[] = { "SCMP_ARCH_AARCH64", "aarch64", "arm64" };

	if (!name)
		return SW_ABI_NONE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(name, names[i]))
			return SW_ABI_AARCH64;
	return SW_ABI_NONE;
}

bool sw_arch_abi_unsupervised(const char *name)
{
	static const char *const names[] = { "SCMP_ARCH_ARM", "arm", "armhf", "armel" };

	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(name, names[i]))
			return true;
	return false;
}

const char sw_arch_machine[] = "arm64";
const char sw_arch_abi_spellings[] = "SCMP_ARCH_AARCH64 (an AArch32 program is not supervised)";

enum sw_abi sw_abi_native(void)
{
	return seccomp_arch_native() == SCMP_ARCH_AARCH64 ? SW_ABI_AARCH64 : SW_ABI_NONE;
}

/* ---- registers ---------------------------------------------------------- */

/* An AArch32 tracee's view is 18 32-bit words; the filter kills such a
 * program, but never read it as AArch64's. */
static int get_regs(pid_t pid, struct user_regs_struct *r)
{
	return prstatus_get(pid, r, sizeof(*r));
}

static int set_regs(pid_t pid, const struct user_regs_struct *r)
{
	return prstatus_set(pid, r, sizeof(*r));
}

/* pt_regs->syscallno: at an entry stop the call the kernel runs (-1: none,
 * x0 returned as it is); at an exit stop -1 keeps do_signal() from taking
 * x0 for a restart code. */
static int set_syscallno(pid_t pid, int nr)
{
	struct iovec iov = { &nr, sizeof(nr) };

	return sw_sys_ptrace(PTRACE_SETREGSET, pid, (void *)(uintptr_t)NT_ARM_SYSTEM_CALL, &iov) < 0 ?
	       -errno : 0;
}

int sw_arch_return_at_entry(pid_t pid, int64_t rval)
{
	struct user_regs_struct r;
	int e;

	/* syscallno = -1: el0_svc_common() skips the call and returns x0
	 * (syscall_trace_enter() gives NO_SYSCALL after a seccomp skip). */
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	e = set_syscallno(pid, -1);
	if (e < 0)
		return e;
	r.regs[0] = (uint64_t)rval;
	return set_regs(pid, &r);
}

/* The kernel runs syscallno, not the program's register. */
const bool sw_arch_nr_in_user_reg = false;

int sw_arch_restore_nr(pid_t pid, uint64_t nr)
{
	return 0;
}

int sw_arch_trap_regs(pid_t pid, uint64_t nr, const uint64_t args[6])
{
	struct user_regs_struct r;
	int e;

	/* syscall_rollback() (arch/arm64/include/asm/syscall.h): x0 =
	 * orig_x0, the call's first argument; x8 still holds nr. */
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	r.regs[0] = args[0];
	return set_regs(pid, &r);
}

/* ---- the path guard's injection ---------------------------------------- */

/* x0: the first argument and the return value; orig_x0 its restart copy
 * (el0_svc_common() saves it at entry; do_signal() restarts from it). */
const uint8_t sw_arch_args_returned = 1u << 0;

int sw_arch_set_arg(pid_t pid, enum sw_abi abi, unsigned int i, uint64_t val)
{
	struct user_regs_struct r;
	int e;

	if (i >= 6)
		return -EINVAL;
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	r.regs[i] = val;
	return set_regs(pid, &r);
}

int sw_arch_get_regs(pid_t pid, struct sw_arch_regs *r)
{
	return get_regs(pid, &r->r);
}

int sw_arch_guard_entry_check(const struct sw_arch_regs *r0)
{
	/* get_regs() refuses an AArch32 view; pstate says it too. */
	return (r0->r.pstate & SW_PSR_MODE32_BIT) ? 1 : 0;
}

/* r0 (of an entry stop: x0 is the first argument) running nr(a...) from
 * the svc again: pc back over it, the kernel reads x8 anew. */
static int rewind_to(pid_t pid, const struct sw_arch_regs *r0, uint64_t nr,
		     const uint64_t a[6], uint64_t x0_ret, bool finish)
{
	struct user_regs_struct r = r0->r;
	int e;

	if (finish) {
		r.regs[0] = x0_ret;
	} else {
		r.pc = r0->r.pc - SW_SVC_INSN_LEN;
		r.regs[8] = nr;
		for (unsigned int i = 0; i < 6; i++)
			r.regs[i] = a[i];
	}
	/* At an exit stop the kernel has finished the call: no syscallno,
	 * so that do_signal() never takes our x0 for a restart code. */
	e = set_syscallno(pid, -1);
	if (e < 0)
		return e;
	return set_regs(pid, &r);
}

int sw_arch_inject(pid_t pid, const struct sw_arch_regs *r0, bool at_entry,
		   long nr, const uint64_t a[6])
{
	struct user_regs_struct r = r0->r;
	int e;

	if (!at_entry)
		return rewind_to(pid, r0, (uint64_t)nr, a, 0, false);
	for (unsigned int i = 0; i < 6; i++)
		r.regs[i] = a[i];
	e = set_syscallno(pid, (int)nr);
	if (e < 0)
		return e;
	return set_regs(pid, &r);
}

int sw_arch_replay(pid_t pid, const struct sw_arch_regs *r0)
{
	uint64_t a[6];

	/* r0 is of the entry stop: x0..x5 are the program's arguments. */
	for (unsigned int i = 0; i < 6; i++)
		a[i] = r0->r.regs[i];
	return rewind_to(pid, r0, r0->r.regs[8], a, 0, false);
}

int sw_arch_inject_abi(pid_t pid, const struct sw_arch_regs *r0, enum sw_abi abi,
		       uint64_t nr, const uint64_t a[6])
{
	return rewind_to(pid, r0, nr, a, 0, false);
}

int sw_arch_finish(pid_t pid, const struct sw_arch_regs *r0, int64_t rval)
{
	return rewind_to(pid, r0, 0, NULL, (uint64_t)rval, true);
}

/* ---- the Landlock probe's witness ---------------------------------------- */

/* The witness: "b ." (0x14000000, little-endian). */
SW_ARCH_WITNESS(EM_AARCH64, 0x00, 0x00, 0x00, 0x14)

const struct sw_arch_vetted sw_arch_vetted_nr[SW_ABI_COUNT] = {
	[SW_ABI_AARCH64] = SW_GENERIC_VETTED_NR,
};

const struct sw_arch_filter_group sw_arch_filter_groups[] = {
	{ AUDIT_ARCH_AARCH64, 1, { SW_ABI_AARCH64 }, 0 },
};
const size_t sw_arch_n_filter_groups =
	sizeof(sw_arch_filter_groups) / sizeof(sw_arch_filter_groups[0]);
