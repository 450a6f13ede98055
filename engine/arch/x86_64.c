// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every x86 fact the engine uses: the hooks of engine/arch.h.
 *
 * ABI slots of an x86-64 kernel: x86_64, i386 (compat, also int 0x80 from a
 * 64-bit process) and x32.  libseccomp's arch tokens are the AUDIT_ARCH_*
 * values, which is also what PTRACE_GET_SYSCALL_INFO reports in .arch.
 */
#include <elf.h>
#include <errno.h>
#include <linux/audit.h>
#include <pthread.h>
#include <stdlib.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "../arch.h"
#include "../sys.h"
#include "witness.h"

static const struct {
	uint32_t token;
	const char *name;
	unsigned int arg_bytes;
	const char *oci;
} abis[SW_ABI_COUNT] = {
	[SW_ABI_X86_64] = { SCMP_ARCH_X86_64, "x86_64", 8, "SCMP_ARCH_X86_64" },
	[SW_ABI_I386] = { SCMP_ARCH_X86, "i386", 4, "SCMP_ARCH_X86" },
	[SW_ABI_X32] = { SCMP_ARCH_X32, "x32", 4, "SCMP_ARCH_X32" },
};

uint32_t sw_abi_token(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].token : 0;
}

const char *sw_abi_name(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].name : "unknown";
}

const char *sw_abi_oci_name(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].oci : NULL;
}

unsigned int sw_abi_arg_bytes(enum sw_abi abi)
{
	return abi >= 0 && abi < SW_ABI_COUNT ? abis[abi].arg_bytes : 8;
}

bool sw_abi_clone_backwards(enum sw_abi abi)
{
	return abi == SW_ABI_I386;
}

bool sw_abi_old_mmap(enum sw_abi abi)
{
	return abi == SW_ABI_I386;
}

bool sw_abi_socketcall_words(enum sw_abi abi)
{
	return abi == SW_ABI_I386;
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

bool sw_arch_abi_unsupervised(const char *name)
{
	return false;	/* every x86 ABI has its group */
}

const char sw_arch_machine[] = "x86-64";
const char sw_arch_abi_spellings[] = "SCMP_ARCH_X86_64, SCMP_ARCH_X86 or SCMP_ARCH_X32";

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

/* i386's names of numbers 300..479, read from libseccomp once per
 * process: each of its number lookups scans its whole table, and a
 * policy names dozens of calls that i386 lacks or multiplexes (Docker's
 * profile spent ~1 ms of every launch here). */
#define I386_FALLBACK_FIRST	300
#define I386_FALLBACK_END	480
static char *i386_names[I386_FALLBACK_END - I386_FALLBACK_FIRST];
static pthread_once_t i386_names_once = PTHREAD_ONCE_INIT;

static void i386_names_read(void)
{
	for (int n = I386_FALLBACK_FIRST; n < I386_FALLBACK_END; n++)
		i386_names[n - I386_FALLBACK_FIRST] =
			seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86, n);
}

int sw_arch_resolve_fallback(enum sw_abi abi, const char *name)
{
	if (abi != SW_ABI_I386)
		return -1;
	/* libseccomp 2.5 names i386's socket family by their socketcall
	 * pseudo-numbers, but its filter also matches the direct syscalls
	 * (Linux 4.3+, e.g. socket = 359), and those are what a stop
	 * reports: find the direct number. */
	pthread_once(&i386_names_once, i386_names_read);
	for (int n = I386_FALLBACK_FIRST; n < I386_FALLBACK_END; n++) {
		const char *s = i386_names[n - I386_FALLBACK_FIRST];

		if (s && !strcmp(s, name))
			return n;
	}
	return -1;
}

bool sw_arch_in_vsyscall(enum sw_abi abi, uint64_t ip)
{
	return abi == SW_ABI_X86_64 && (ip & ~0xfffull) == SW_VSYSCALL_PAGE;
}

int sw_arch_return_at_entry(pid_t pid, int64_t rval)
{
	/* orig_rax = -1 is the skip; rax
	 * is what the program gets, as the kernel leaves it for a skipped
	 * call. */
	if (sw_sys_ptrace(PTRACE_POKEUSER, pid,
			  (void *)offsetof(struct user_regs_struct, orig_rax), (void *)-1L) < 0 ||
	    sw_sys_ptrace(PTRACE_POKEUSER, pid,
			  (void *)offsetof(struct user_regs_struct, rax), (void *)rval) < 0)
		return -errno;
	return 0;
}

/* The kernel runs orig_rax, not the program's register. */
const bool sw_arch_nr_in_user_reg = false;

int sw_arch_restore_nr(pid_t pid, uint64_t nr)
{
	return 0;
}

int sw_arch_trap_regs(pid_t pid, uint64_t nr, const uint64_t args[6])
{
	/* syscall_rollback(): ax = orig_ax, the call's number.  orig_rax
	 * itself is in no signal frame, and with rax not an -ERESTART*
	 * value no restart is made of it. */
	if (sw_sys_ptrace(PTRACE_POKEUSER, pid,
			  (void *)offsetof(struct user_regs_struct, rax), (void *)nr) < 0)
		return -errno;
	return 0;
}

/* ---- the path guard's injection ---------------------------------------- */

#define SW_X86_64_CS		0x33	/* 64-bit user code segment */
#define SW_SYSCALL_INSN_LEN	2	/* syscall (0f 05), as int $0x80 (cd 80) */

/*
 * The registers that carry syscall arguments, per ABI (i386: int $0x80
 * from a 64-bit program, whose 32-bit pointers can name the guard).
 */
static const unsigned int arg_reg[2][6] = {
	{ offsetof(struct user_regs_struct, rdi), offsetof(struct user_regs_struct, rsi),
	  offsetof(struct user_regs_struct, rdx), offsetof(struct user_regs_struct, r10),
	  offsetof(struct user_regs_struct, r8), offsetof(struct user_regs_struct, r9) },
	{ offsetof(struct user_regs_struct, rbx), offsetof(struct user_regs_struct, rcx),
	  offsetof(struct user_regs_struct, rdx), offsetof(struct user_regs_struct, rsi),
	  offsetof(struct user_regs_struct, rdi), offsetof(struct user_regs_struct, rbp) },
};

/* rax returns; no argument register does, and the kernel restarts a call
 * from the argument registers themselves. */
const uint8_t sw_arch_args_returned = 0;

int sw_arch_set_arg(pid_t pid, enum sw_abi abi, unsigned int i, uint64_t val)
{
	if (i >= 6)
		return -EINVAL;
	if (sw_sys_ptrace(PTRACE_POKEUSER, pid, (void *)(uintptr_t)arg_reg[abi == SW_ABI_I386][i],
			  (void *)(uintptr_t)val) < 0)
		return -errno;
	return 0;
}

/* include/linux/errno.h: the kernel's own restart codes. */
#define SW_ERESTARTSYS		512
#define SW_ERESTARTNOINTR	513

int sw_arch_interrupted_call(pid_t pid, enum sw_abi abi, uint64_t *nr,
			     uint64_t args[6])
{
	struct user_regs_struct r;

	if (sw_sys_ptrace(PTRACE_GETREGS, pid, 0L, &r) < 0)
		return -errno;
	/* handle_signal() (arch/x86/kernel/signal.c) looks at orig_ax and
	 * ax the same way: a call (orig_ax != -1) whose result is
	 * -ERESTARTSYS. */
	if ((long)r.orig_rax == -1 || (long)r.rax != -SW_ERESTARTSYS)
		return 0;
	*nr = abi == SW_ABI_I386 ? (uint32_t)r.orig_rax : r.orig_rax;
	for (unsigned int i = 0; i < 6; i++) {
		uint64_t v;

		memcpy(&v, (char *)&r + arg_reg[abi == SW_ABI_I386][i], sizeof(v));
		args[i] = abi == SW_ABI_I386 ? (uint32_t)v : v;
	}
	return 1;
}

int sw_arch_restart_always(pid_t pid)
{
	/* handle_signal(): -ERESTARTNOINTR restarts the call (ax =
	 * orig_ax, ip back over the syscall instruction) with or without
	 * SA_RESTART, as it does for a call no handler interrupted. */
	if (sw_sys_ptrace(PTRACE_POKEUSER, pid,
			  (void *)offsetof(struct user_regs_struct, rax),
			  (void *)(long)-SW_ERESTARTNOINTR) < 0)
		return -errno;
	return 0;
}

bool sw_arch_restarts_interrupted(void)
{
	return true;
}

int sw_arch_get_regs(pid_t pid, struct sw_arch_regs *r)
{
	return sw_sys_ptrace(PTRACE_GETREGS, pid, 0L, &r->r) < 0 ? -errno : 0;
}

int sw_arch_guard_entry_check(const struct sw_arch_regs *r0)
{
	if (r0->r.cs != SW_X86_64_CS)
		return 1;	/* an i386 image: no mseal in compat mode */
	if ((long)r0->r.orig_rax < 0 || r0->r.orig_rax > 0x3fffffff)
		/* 64-bit code whose first syscall is int $0x80 (or x32):
		 * the rewinds would replay the wrong instruction. */
		return -ENOEXEC;
	return 0;
}

/*
 * A page below rsp, 16-byte aligned: the System V ABI lets a leaf
 * function keep data in the 128 bytes below rsp (the red zone) without
 * moving it, nothing else is live below that during a syscall, and a
 * fresh image's stack is set up 128 KiB deep (so the page is mapped).
 * The area [scratch, scratch + SW_ARCH_SCRATCH_MAX) ends below the red
 * zone.
 */
#define SW_RED_ZONE		128u
#define SW_SCRATCH_BELOW_SP	4096u
_Static_assert(SW_ARCH_SCRATCH_MAX <= SW_SCRATCH_BELOW_SP - SW_RED_ZONE, "below the red zone");

uint64_t sw_arch_scratch(const struct sw_arch_regs *r0)
{
	return (r0->r.rsp - SW_SCRATCH_BELOW_SP) & ~(uint64_t)15;
}

int sw_arch_inject(pid_t pid, const struct sw_arch_regs *r0, bool at_entry,
		   long nr, const uint64_t a[6])
{
	struct user_regs_struct r = r0->r;

	if (at_entry) {
		r.orig_rax = (uint64_t)nr;
	} else {
		r.rip = r0->r.rip - SW_SYSCALL_INSN_LEN;
		r.rax = (uint64_t)nr;
		r.orig_rax = (uint64_t)-1;
	}
	r.rdi = a[0];
	r.rsi = a[1];
	r.rdx = a[2];
	r.r10 = a[3];
	r.r8 = a[4];
	r.r9 = a[5];
	return sw_sys_ptrace(PTRACE_SETREGS, pid, 0L, &r) < 0 ? -errno : 0;
}

int sw_arch_replay(pid_t pid, const struct sw_arch_regs *r0)
{
	struct user_regs_struct r = r0->r;

	r.rip = r0->r.rip - SW_SYSCALL_INSN_LEN;
	r.rax = r0->r.orig_rax;
	return sw_sys_ptrace(PTRACE_SETREGS, pid, 0L, &r) < 0 ? -errno : 0;
}

int sw_arch_inject_abi(pid_t pid, const struct sw_arch_regs *r0, enum sw_abi abi,
		       uint64_t nr, const uint64_t a[6])
{
	struct user_regs_struct r = r0->r;
	bool i386 = abi == SW_ABI_I386;

	/* syscall, int $0x80 and sysenter's landing (the vDSO's int $0x80)
	 * are all two bytes: the kernel's own restart rewinds the same. */
	r.rip = r0->r.rip - SW_SYSCALL_INSN_LEN;
	r.rax = nr;
	r.orig_rax = (uint64_t)-1;
	for (unsigned int i = 0; i < 6; i++) {
		uint64_t v = i386 ? (uint32_t)a[i] : a[i];

		memcpy((char *)&r + arg_reg[i386][i], &v, sizeof(v));
	}
	return sw_sys_ptrace(PTRACE_SETREGS, pid, 0L, &r) < 0 ? -errno : 0;
}

int sw_arch_finish(pid_t pid, const struct sw_arch_regs *r0, int64_t rval)
{
	struct user_regs_struct r = r0->r;

	r.rax = (uint64_t)rval;
	return sw_sys_ptrace(PTRACE_SETREGS, pid, 0L, &r) < 0 ? -errno : 0;
}

/*
 * Calls that wait and can send nothing on a socket: what a task blocked
 * in one does next, after the PTRACE_INTERRUPT peers.c sent it, is
 * stop.  x86_64 numbers; /proc/<tid>/syscall does not say the ABI, so
 * none is listed that an i386 task could mean as a call that sends: 4
 * (x86_64 stat, i386 write) is left out, and x32's own numbers (512 and
 * up, its bit set) are not listed.  Sorted.
 */
static const uint16_t quiet_calls[] = {
	0 /* read */, 2 /* open */, 3 /* close */, 7 /* poll */,
	9 /* mmap */, 10 /* mprotect */, 11 /* munmap */, 17 /* pread64 */,
	19 /* readv */, 23 /* select */, 28 /* madvise */, 34 /* pause */,
	35 /* nanosleep */, 42 /* connect */, 43 /* accept */,
	45 /* recvfrom */, 47 /* recvmsg */, 56 /* clone */, 57 /* fork */,
	58 /* vfork */, 59 /* execve */, 60 /* exit */, 61 /* wait4 */,
	65 /* semop */, 70 /* msgrcv */, 72 /* fcntl */, 73 /* flock */,
	74 /* fsync */, 75 /* fdatasync */, 128 /* rt_sigtimedwait */,
	130 /* rt_sigsuspend */, 202 /* futex */, 208 /* io_getevents */,
	217 /* getdents64 */, 220 /* semtimedop */, 230 /* clock_nanosleep */,
	231 /* exit_group */, 232 /* epoll_wait */, 243 /* mq_timedreceive */,
	247 /* waitid */, 257 /* openat */, 262 /* newfstatat */,
	270 /* pselect6 */, 271 /* ppoll */, 281 /* epoll_pwait */,
	288 /* accept4 */, 295 /* preadv */, 299 /* recvmmsg */,
	322 /* execveat */, 327 /* preadv2 */, 332 /* statx */,
	333 /* io_pgetevents */, 435 /* clone3 */, 437 /* openat2 */,
	441 /* epoll_pwait2 */, 449 /* futex_waitv */,
};

bool sw_arch_quiet_call(uint64_t nr)
{
	size_t lo = 0, hi = sizeof(quiet_calls) / sizeof(quiet_calls[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (quiet_calls[mid] == nr)
			return true;
		if (quiet_calls[mid] < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* ---- the Landlock probe's witness ---------------------------------------- */

/* The witness: "jmp ." (eb fe). */
SW_ARCH_WITNESS(EM_X86_64, 0xeb, 0xfe)

/* x32 calls report AUDIT_ARCH_X86_64 with nr | 0x40000000; i386 (int
 * $0x80 from a 64-bit program) reaches the same mm. */
const struct sw_arch_vetted sw_arch_vetted_nr[SW_ABI_COUNT] = {
	[SW_ABI_X86_64] = { 28, 440, 157 },
	[SW_ABI_I386] = { 219, 440, 172 },
	[SW_ABI_X32] = { SW_X32_SYSCALL_BIT | 28, SW_X32_SYSCALL_BIT | 440,
			 SW_X32_SYSCALL_BIT | 157 },
};

const struct sw_arch_filter_group sw_arch_filter_groups[] = {
	{ AUDIT_ARCH_X86_64, 2, { SW_ABI_X86_64, SW_ABI_X32 }, SW_X32_SYSCALL_BIT },
	{ AUDIT_ARCH_I386, 1, { SW_ABI_I386 }, 0 },
};
const size_t sw_arch_n_filter_groups =
	sizeof(sw_arch_filter_groups) / sizeof(sw_arch_filter_groups[0]);
