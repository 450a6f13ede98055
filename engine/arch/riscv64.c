// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every riscv64 fact the engine uses: the hooks of engine/arch.h.
 *
 * One ABI is supervised, RV64 (arch/riscv64.h says why not RV32).
 * Registers: PTRACE_GETREGSET/SETREGSET NT_PRSTATUS (pc, x1..x31; no
 * PTRACE_GETREGS).  A call takes its number in a7 and its arguments in
 * a0..a5 and returns in a0.  What the kernel reads is not arm64's
 * (Linux 6.12, arch/riscv/kernel/traps.c, do_trap_ecall_u();
 * include/asm/syscall.h and syscall_wrapper.h):
 *   - the number is a7 itself (syscall_get_nr(), syscall_set_nr(): no
 *     field like arm64's syscallno), so a tracer's skip (a7 = -1) or
 *     rewrite of the number is left in the program's a7;
 *   - the first argument is orig_a0, copied from a0 at the ecall before
 *     any stop, with a0 set to -ENOSYS; no regset shows or writes
 *     orig_a0, so it is read and written with PTRACE_GET/SET_SYSCALL_INFO
 *     (syscall_get_arguments(), syscall_set_arguments()), and a rewind to
 *     the ecall has the kernel copy a0 again.
 */
#include <elf.h>
#include <errno.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "sysward/ptrace_abi.h"
#include "../internal.h"
#include "../sys.h"
#include "generic.h"
#include "witness.h"

/* ecall: 4 bytes, there is no compressed form; the kernel's own restart
 * rewinds the same (arch/riscv/kernel/signal.c,
 * arch_do_signal_or_restart(): restart_addr = epc - 4). */
#define SW_ECALL_INSN_LEN	4
#define SW_A_NR			7	/* a7 */

uint32_t sw_abi_token(enum sw_abi abi)
{
	return abi == SW_ABI_RISCV64 ? SCMP_ARCH_RISCV64 : 0;
}

const char *sw_abi_name(enum sw_abi abi)
{
	return abi == SW_ABI_RISCV64 ? "riscv64" : "unknown";
}

const char *sw_abi_oci_name(enum sw_abi abi)
{
	return abi == SW_ABI_RISCV64 ? "SCMP_ARCH_RISCV64" : NULL;
}

enum sw_abi sw_abi_of(uint32_t audit_arch, uint64_t nr)
{
	return audit_arch == SCMP_ARCH_RISCV64 ? SW_ABI_RISCV64 : SW_ABI_NONE;
}

enum sw_abi sw_abi_from_name(const char *name)
{
	static const char *const names[] = { "SCMP_ARCH_RISCV64", "riscv64" };

	if (!name)
		return SW_ABI_NONE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(name, names[i]))
			return SW_ABI_RISCV64;
	return SW_ABI_NONE;
}

/* No other ABI a policy may name here: libseccomp has no RV32 token and
 * Docker's archMap gives riscv64 no subarchitecture. */
bool sw_arch_abi_unsupervised(const char *name)
{
	return false;
}

const char sw_arch_machine[] = "riscv64";
const char sw_arch_abi_spellings[] = "SCMP_ARCH_RISCV64";

enum sw_abi sw_abi_native(void)
{
	return seccomp_arch_native() == SCMP_ARCH_RISCV64 ? SW_ABI_RISCV64 : SW_ABI_NONE;
}

/* ---- registers ---------------------------------------------------------- */

/* An RV32 tracee's view is 32 32-bit words (arch/riscv/kernel/ptrace.c,
 * riscv_compat_user_view); never read it as RV64's. */
static int get_regs(pid_t pid, struct sw_rv_gregs *r)
{
	return prstatus_get(pid, r, sizeof(*r));
}

static int set_regs(pid_t pid, const struct sw_rv_gregs *r)
{
	return prstatus_set(pid, r, sizeof(*r));
}

/* The stop's call as PTRACE_GET_SYSCALL_INFO reports it: 1 at an entry
 * or seccomp stop (nr and args, args[0] being orig_a0), 0 at another. */
static int get_info(pid_t pid, struct sw_ptrace_syscall_info *info)
{
	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(*info), info) < 0)
		return -errno;
	return info->op == SW_PTRACE_SYSCALL_INFO_ENTRY ||
	       info->op == SW_PTRACE_SYSCALL_INFO_SECCOMP;
}

/*
 * At an entry or seccomp stop: the call the kernel runs becomes nr(a...),
 * or only its argument i (i < 6; nr ignored), written through
 * PTRACE_SET_SYSCALL_INFO, the one interface that reaches orig_a0
 * (syscall_set_arguments(); syscall_set_nr() writes a7).  Its entry and
 * seccomp layouts put nr and args at the same offsets.
 */
static int set_call(pid_t pid, uint64_t nr, const uint64_t a[6], unsigned int only)
{
	struct sw_ptrace_syscall_info info;
	int e = get_info(pid, &info);

	if (e < 0)
		return e;
	if (e == 0)
		return -EINVAL;		/* not a stop where a call is pending */
	if (only == 6)
		info.entry.nr = nr;
	for (unsigned int i = 0; i < 6; i++)
		if (only == 6 || only == i)
			info.entry.args[i] = a[i];
	info.flags = 0;
	info.reserved = 0;
	if (sw_sys_ptrace(SW_PTRACE_SET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) < 0)
		return -errno;
	return 0;
}

int sw_arch_return_at_entry(pid_t pid, int64_t rval)
{
	struct sw_rv_gregs r;
	int e;

	/* Used by no call here (sw_arch_nr_in_user_reg: a skip takes its
	 * exit stop, which gives a7 back), but correct: a7 = -1, which
	 * __seccomp_filter() rereads after the stop, skips the call and
	 * leaves a0 as it is (do_trap_ecall_u() runs none for < 0). */
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	r.a[SW_A_NR] = (uint64_t)-1;
	r.a[0] = (uint64_t)rval;
	return set_regs(pid, &r);
}

/* a7 is the number the kernel runs (syscall_set_nr() writes it) and the
 * program's register, which the kernel otherwise leaves as it was and
 * code may keep a value in across the ecall (glibc's inline syscalls
 * name it an input only). */
const bool sw_arch_nr_in_user_reg = true;

int sw_arch_restore_nr(pid_t pid, uint64_t nr)
{
	struct sw_rv_gregs r;
	int e = get_regs(pid, &r);

	if (e < 0)
		return e;
	if (r.a[SW_A_NR] == nr)
		return 0;
	r.a[SW_A_NR] = nr;
	return set_regs(pid, &r);
}

int sw_arch_trap_regs(pid_t pid, uint64_t nr, const uint64_t args[6])
{
	struct sw_rv_gregs r;
	int e;

	/* syscall_rollback(): a0 = orig_a0, the call's first argument; a7
	 * holds nr, as before the ecall (the skip that stands in for the
	 * trap set it to -1). */
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	r.a[0] = args[0];
	r.a[SW_A_NR] = nr;
	return set_regs(pid, &r);
}

/* ---- the path guard's injection ---------------------------------------- */

/* a0: the return value, and orig_a0, what the call and a restart of it
 * read (arch_do_signal_or_restart(): a0 = orig_a0), which follows only
 * syscall_set_arguments() at an entry or seccomp stop and which nothing
 * writes at the exit stop. */
const uint8_t sw_arch_args_returned = 1u << 0;

int sw_arch_set_arg(pid_t pid, enum sw_abi abi, unsigned int i, uint64_t val)
{
	struct sw_rv_gregs r;
	uint64_t a[6] = { 0 };
	int e;

	if (i >= 6)
		return -EINVAL;
	if (i == 0) {
		/* orig_a0, at a stop where a call is pending */
		a[0] = val;
		return set_call(pid, 0, a, 0);
	}
	e = get_regs(pid, &r);
	if (e < 0)
		return e;
	r.a[i] = val;
	return set_regs(pid, &r);
}

int sw_arch_get_regs(pid_t pid, struct sw_arch_regs *r)
{
	struct sw_ptrace_syscall_info info;
	int e = get_regs(pid, &r->r);

	if (e < 0)
		return e;
	/* orig_a0 where a call is pending; at an exit stop the call is
	 * done and a0 holds its result. */
	e = get_info(pid, &info);
	if (e < 0)
		return e;
	r->arg0 = e ? info.entry.args[0] : r->r.a[0];
	return 0;
}

int sw_arch_guard_entry_check(const struct sw_arch_regs *r0)
{
	return 0;	/* get_regs() refuses an RV32 view */
}

/* At an exit stop: r0 running nr(a...) from the ecall again (pc back
 * over it; the kernel copies a0 to orig_a0 and reads a7 anew), or, with
 * finish, r0 returning a0_ret. */
static int rewind_to(pid_t pid, const struct sw_arch_regs *r0, uint64_t nr,
		     const uint64_t a[6], uint64_t a0_ret, bool finish)
{
	struct sw_rv_gregs r = r0->r;

	if (finish) {
		r.a[0] = a0_ret;
	} else {
		r.pc = r0->r.pc - SW_ECALL_INSN_LEN;
		r.a[SW_A_NR] = nr;
		for (unsigned int i = 0; i < 6; i++)
			r.a[i] = a[i];
	}
	return set_regs(pid, &r);
}

int sw_arch_inject(pid_t pid, const struct sw_arch_regs *r0, bool at_entry,
		   long nr, const uint64_t a[6])
{
	/* At an entry stop a0 was already copied to orig_a0: the regset
	 * cannot give the call its first argument. */
	if (at_entry)
		return set_call(pid, (uint64_t)nr, a, 6);
	return rewind_to(pid, r0, (uint64_t)nr, a, 0, false);
}

int sw_arch_replay(pid_t pid, const struct sw_arch_regs *r0)
{
	uint64_t a[6];

	/* r0 is of the entry stop: a1..a5 and a7 are the program's, its a0
	 * was orig_a0 (arg0). */
	a[0] = r0->arg0;
	for (unsigned int i = 1; i < 6; i++)
		a[i] = r0->r.a[i];
	return rewind_to(pid, r0, r0->r.a[SW_A_NR], a, 0, false);
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

/* The witness: "j ." (jal x0, 0: 0x0000006f, little-endian). */
SW_ARCH_WITNESS(EM_RISCV, 0x6f, 0x00, 0x00, 0x00)

const struct sw_arch_vetted sw_arch_vetted_nr[SW_ABI_COUNT] = {
	[SW_ABI_RISCV64] = SW_GENERIC_VETTED_NR,
};

const struct sw_arch_filter_group sw_arch_filter_groups[] = {
	{ AUDIT_ARCH_RISCV64, 1, { SW_ABI_RISCV64 }, 0 },
};
const size_t sw_arch_n_filter_groups =
	sizeof(sw_arch_filter_groups) / sizeof(sw_arch_filter_groups[0]);
