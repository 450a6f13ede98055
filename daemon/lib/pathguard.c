// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The path guard: race-free path conditions (issue 6, route 6).
 *
 * A path condition reads a string from the tracee at a SECCOMP stop; the
 * kernel reads it again when the syscall runs.  Another thread of the
 * tracee can change the string in between and have a denied file opened
 * (tests/security: path_race measures it: dozens of escapes in 20000
 * tries without this file).  The guard closes the window: the supervisor
 * copies every string it checked into memory the tracee cannot write, and
 * rewrites the pointer argument to that copy with PTRACE_SET_SYSCALL_INFO.
 * The kernel then reads exactly the bytes the policy checked.
 *
 * The memory: one memfd per process image, mapped
 *   - in the supervisor read-write (MAP_SHARED), then sealed with
 *     F_SEAL_FUTURE_WRITE | SHRINK | GROW | SEAL: from then on no one can
 *     write it through a file descriptor, write(2), a new shared writable
 *     mapping or mprotect of a read-only one (the kernel clears VM_MAYWRITE);
 *   - in the tracee at SW_GUARD_ADDR, MAP_SHARED | PROT_READ, then
 *     mseal(2)ed (Linux 6.10): munmap, mremap, mmap(MAP_FIXED) over it,
 *     mprotect and pkey_mprotect of it all fail with EPERM.  A shared
 *     mapping is not copy-on-write, so FOLL_FORCE writes through
 *     /proc/self/mem or process_vm_writev fail too.  fork(2) children
 *     inherit mapping and seal; CLONE_VM children and threads share it.
 *
 * Mapping it: a fresh image (PTRACE_EVENT_EXEC) is single-threaded, so
 * no other thread can race the setup.  At the first syscall-entry stop
 * after the exec, the supervisor turns that syscall into memfd_create,
 * takes the new fd with pidfd_getfd(2), sizes, maps and seals it, then
 * injects mmap, mseal and close by rewinding the instruction pointer to
 * the syscall instruction at each syscall-exit stop, and finally rewinds
 * once more with the original registers so the program's own first
 * syscall runs as if nothing happened.  Each step is one stop of the
 * tracee, handled by the dispatch loop like any other (no waiting on one
 * tracee: an image that never makes a syscall holds up nobody).
 *
 * The injected calls pass through the tracee's own seccomp filter (it runs
 * after the syscall-entry stop), which the policy may have made deny them;
 * a prefix in front of the compiled filter sends memfd_create, mseal and
 * mmap(SW_GUARD_ADDR, ...) to the supervisor instead (TRACE), where the
 * tracee's own such calls are decided by the policy as usual.
 *
 * Slots: 1024 of 4 KiB (4 MiB of address space; only slots in use take
 * memory).  A checked string occupies a slot from the SECCOMP stop to the
 * syscall-exit stop of its syscall (the resume then uses PTRACE_SYSCALL,
 * one stop more per guarded syscall); a process image that has all 1024
 * in flight (say, threads blocked opening FIFOs) gets EAGAIN for the next
 * guarded call.
 *
 * Limits: i386 program images get no guard (mseal is 64-bit only); their
 * path conditions stay racy, as without this file.  A 64-bit image whose
 * first syscall is an int $0x80 one is killed (no legitimate program does
 * that, and its guard could not be set up).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "internal.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define SW_NR_MSEAL		462	/* x86_64; libseccomp 2.5 predates it */
#define SW_NR_PIDFD_GETFD	438
#define SW_NR_PIDFD_OPEN	434
#define SW_X86_64_CS		0x33	/* 64-bit user code segment */

#define SW_GUARD_SLOT		4096u
#define SW_GUARD_SLOTS		1024u
#define SW_GUARD_SIZE		(SW_GUARD_SLOT * SW_GUARD_SLOTS)

struct sw_guard {
	unsigned int refs;	/* tracees whose image maps it */
	char *map;		/* our writable view */
	uint64_t used[SW_GUARD_SLOTS / 64];
};

_Static_assert(SW_GUARD_ADDR % 4096 == 0, "page aligned");
_Static_assert(SW_GUARD_ADDR + SW_GUARD_SIZE <= 0xffffffffull,
	       "reachable by 32-bit pointers (int $0x80 from a 64-bit program)");

/* ---- pure helpers ---------------------------------------------------- */

bool sw_pathguard_wanted(const struct sw_program *prog)
{
	for (size_t i = 0; i < prog->n_rules; i++)
		if (prog->rules[i].applies && prog->rules[i].rule->n_paths)
			return true;
	return false;
}

int sw_pathguard_patch_filter(void **insns, size_t *n, struct sw_error *err)
{
	/* Jump offsets count from the next instruction; L_ORIG is the first
	 * instruction of the original program, L_TRACE the RET before it. */
	enum { L_TRACE = 10, L_ORIG = 11 };
	const uint32_t lo = (uint32_t)SW_GUARD_ADDR;
	const uint32_t hi = (uint32_t)((uint64_t)SW_GUARD_ADDR >> 32);
	const struct sock_filter prefix[] = {
		/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64,
				 0, L_ORIG - 2),
		/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
		/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_memfd_create,
				 L_TRACE - 4, 0),
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SW_NR_MSEAL,
				 L_TRACE - 5, 0),
		/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap,
				 0, L_ORIG - 6),
		/* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, args[0])),
		/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, L_ORIG - 8),
		/* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, args[0]) + 4),
		/* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, L_ORIG - 10),
		/* 10: TRACE(0): the supervisor evaluates every rule. */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 0),
	};
	const size_t np = sizeof(prefix) / sizeof(prefix[0]);
	struct sock_filter *out;

	_Static_assert(sizeof(prefix) / sizeof(prefix[0]) == L_ORIG,
		       "prefix layout");
	if (*n + np > BPF_MAXINSNS)
		return sw_error_set(err, E2BIG,
				    "the filter has %zu instructions; the path guard needs %zu more than the kernel's limit of %d allows",
				    *n, np, BPF_MAXINSNS);
	out = malloc((*n + np) * sizeof(*out));
	if (!out)
		return sw_error_set_errno(err, ENOMEM, "add the path guard to the filter");
	memcpy(out, prefix, sizeof(prefix));
	memcpy(out + np, *insns, *n * sizeof(*out));
	free(*insns);
	*insns = out;
	*n += np;
	return 0;
}

/* ---- guard objects ----------------------------------------------------- */

static void guard_unref(struct sw_guard *g)
{
	if (!g || --g->refs)
		return;
	munmap(g->map, SW_GUARD_SIZE);
	free(g);
}

void sw_pathguard_release(struct sw_tracee *t)
{
	for (unsigned int i = 0; i < t->n_pins; i++) {
		unsigned int slot = t->pins[i];

		if (t->guard && slot < SW_GUARD_SLOTS)
			t->guard->used[slot / 64] &= ~(UINT64_C(1) << (slot % 64));
	}
	t->n_pins = 0;
}

void sw_pathguard_forget(struct sw_tracee *t)
{
	sw_pathguard_release(t);
	guard_unref(t->guard);
	t->guard = NULL;
	t->guard_state = SW_GUARD_UNKNOWN;
}

void sw_pathguard_inherit(struct sw_tracee *child, struct sw_guard *g,
			  uint8_t state)
{
	if (child->guard_state != SW_GUARD_UNKNOWN)
		return;
	child->guard = g;
	child->guard_state = state;
	if (g)
		g->refs++;
}

static int slot_alloc(struct sw_guard *g)
{
	for (unsigned int w = 0; w < SW_GUARD_SLOTS / 64; w++) {
		if (g->used[w] == UINT64_MAX)
			continue;
		for (unsigned int b = 0; b < 64; b++) {
			if (!(g->used[w] & (UINT64_C(1) << b))) {
				g->used[w] |= UINT64_C(1) << b;
				return (int)(w * 64 + b);
			}
		}
	}
	return -1;
}

/* ---- reading strings once ------------------------------------------------ */

int sw_pathguard_read(void *ctx, uint64_t addr, char *buf, size_t size)
{
	struct sw_pathguard_reads *rd = ctx;
	int len;

	/* One read per address per stop: two rules looking at the same
	 * argument must see the same bytes, or a flip between their reads
	 * would let each rule see what suits the attacker. */
	for (unsigned int k = 0; k < rd->n; k++) {
		if (rd->addr[k] != addr)
			continue;
		if (rd->len[k] < 0)
			return rd->len[k];
		snprintf(buf, size, "%s", rd->str[k]);
		return rd->len[k] < (int)size ? rd->len[k] : (int)size - 1;
	}
	if (rd->n == SW_PATHGUARD_MAX_READS)
		return sw_read_tracee_string(&rd->pid, addr, buf, size);
	len = sw_read_tracee_string(&rd->pid, addr, rd->str[rd->n],
				    sizeof(rd->str[rd->n]));
	rd->addr[rd->n] = addr;
	rd->len[rd->n] = len;
	rd->n++;
	if (len < 0)
		return len;
	snprintf(buf, size, "%s", rd->str[rd->n - 1]);
	return len < (int)size ? len : (int)size - 1;
}

/* A child that stopped before its parent's fork event has no guard yet:
 * take its thread group's or its parent's. */
static void adopt_from_proc(struct sw_supervisor *sup, struct sw_tracee *t)
{
	char path[64], line[128];
	pid_t ids[2] = { 0, 0 };	/* Tgid, PPid */
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", t->pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5))
			ids[0] = atoi(line + 5);
		else if (!strncmp(line, "PPid:", 5))
			ids[1] = atoi(line + 5);
	}
	fclose(f);
	for (int i = 0; i < 2; i++) {
		struct sw_tracee *o;

		if (ids[i] <= 0 || ids[i] == t->pid)
			continue;
		o = sw_tracee_find(sup, ids[i]);
		if (o && o->guard_state != SW_GUARD_UNKNOWN) {
			sw_pathguard_inherit(t, o->guard, o->guard_state);
			return;
		}
	}
}

void sw_pathguard_pin(struct sw_supervisor *sup, struct sw_session *s,
		      struct sw_tracee *t, enum sw_abi abi,
		      const struct sw_pathguard_reads *rd,
		      struct sw_decision *d)
{
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	int slot_of_read[SW_PATHGUARD_MAX_READS];
	bool pinned = false;

	if (!rd->n || (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE))
		return;
	/* Before the program's exec only the launcher (sysward's own
	 * single-threaded code) runs: nothing to race. */
	if (!s->exec_done)
		return;
	if (t->guard_state == SW_GUARD_UNKNOWN)
		adopt_from_proc(sup, t);
	if (t->guard_state == SW_GUARD_NONE)
		return;		/* i386 image: documented limit */
	if (t->guard_state != SW_GUARD_MAPPED || !t->guard) {
		d->verdict = SW_V_RETURN;
		d->retval = -EAGAIN;
		d->is_error = true;
		d->why = "path guard: this process has no guard mapped";
		return;
	}
	for (unsigned int k = 0; k < rd->n; k++)
		slot_of_read[k] = -1;
	for (unsigned int i = 0; i < 6; i++) {
		for (unsigned int k = 0; k < rd->n; k++) {
			int slot;

			if (rd->len[k] < 0 || (d->args[i] & mask) != rd->addr[k])
				continue;
			slot = slot_of_read[k];
			if (slot < 0) {
				slot = slot_alloc(t->guard);
				if (slot < 0 || t->n_pins >= SW_PATHGUARD_MAX_READS) {
					if (slot >= 0)
						t->guard->used[slot / 64] &= ~(UINT64_C(1) << (slot % 64));
					sw_pathguard_release(t);
					d->verdict = SW_V_RETURN;
					d->retval = -EAGAIN;
					d->is_error = true;
					d->why = "path guard: every slot is in flight";
					return;
				}
				t->pins[t->n_pins++] = (uint16_t)slot;
				slot_of_read[k] = slot;
				memcpy(t->guard->map + (size_t)slot * SW_GUARD_SLOT,
				       rd->str[k], (size_t)rd->len[k] + 1);
			}
			d->args[i] = SW_GUARD_ADDR + (uint64_t)slot * SW_GUARD_SLOT;
			d->pinned |= (uint8_t)(1u << i);
			pinned = true;
			break;
		}
	}
	if (pinned && d->verdict == SW_V_ALLOW)
		d->verdict = SW_V_REWRITE;	/* same nr, pinned args */
}

/* ---- mapping the guard into a fresh image --------------------------------- */

/*
 * The setup is a little state machine advanced by the tracer's dispatch
 * loop, one stop at a time: the supervisor never waits for this tracee
 * (an image that never makes a syscall, or stops, or is stopped, leaves
 * it in GS_FIRST_ENTRY while every other tracee is served; SIGKILL ends
 * it as usual).
 */
enum gs_step {
	GS_EXEC_EXIT,		/* to execve's syscall-exit stop */
	GS_FIRST_ENTRY,		/* to the image's first syscall-entry stop */
	GS_MEMFD,		/* memfd_create put in its place: to the exit */
	GS_MMAP,		/* injected by rewinding: to entry, then exit */
	GS_MSEAL,
	GS_CLOSE,
};

static const char *const gs_what[] = {
	[GS_EXEC_EXIT] = "run to the end of execve",
	[GS_FIRST_ENTRY] = "run to the first syscall",
	[GS_MEMFD] = "inject memfd_create",
	[GS_MMAP] = "inject mmap",
	[GS_MSEAL] = "inject mseal",
	[GS_CLOSE] = "inject close",
};

struct sw_guard_setup {
	uint8_t step;
	bool entered;			/* the injected call's entry stop seen */
	struct user_regs_struct r0;	/* at the first syscall-entry stop */
	int64_t tfd;			/* the memfd in the tracee */
	int sigs[8];			/* signals held back while injecting */
	unsigned int n_sigs;
};

static void gs_end(struct sw_tracee *t)
{
	free(t->gs);
	t->gs = NULL;
}

static void give_up(struct sw_session *s, struct sw_tracee *t,
		    const char *step, int e)
{
	gs_end(t);
	sw_pathguard_forget(t);
	if (e == -ESRCH)
		return;		/* it died meanwhile: its exit will come */
	sw_warn(s, "path guard: cannot set up race-free path checks in pid %d (%s: %s); killing it",
		t->pid, step, strerror(-e));
	kill(t->pid, SIGKILL);
}

static int gs_resume(pid_t pid, int sig)
{
	return ptrace(PTRACE_SYSCALL, pid, 0L, (long)sig) < 0 ? -errno : 0;
}

/*
 * Have the tracee run syscall nr(a...).  At a syscall-entry stop the
 * pending syscall is replaced; at a syscall-exit stop the instruction
 * pointer goes back to the syscall instruction, which runs again with our
 * registers.  Resumes the tracee; its entry and exit stops come later.
 */
static int inject(struct sw_tracee *t, bool at_entry, long nr,
		  const uint64_t a[6])
{
	struct user_regs_struct r = t->gs->r0;

	if (at_entry) {
		r.orig_rax = (uint64_t)nr;
	} else {
		r.rip = t->gs->r0.rip - 2;
		r.rax = (uint64_t)nr;
		r.orig_rax = (uint64_t)-1;
	}
	r.rdi = a[0];
	r.rsi = a[1];
	r.rdx = a[2];
	r.r10 = a[3];
	r.r8 = a[4];
	r.r9 = a[5];
	if (ptrace(PTRACE_SETREGS, t->pid, 0L, &r) < 0)
		return -errno;
	t->gs->entered = at_entry;
	return gs_resume(t->pid, 0);
}

/* Our side of the memfd the tracee just created: size, map, seal. */
static int take_memfd(pid_t pid, int tfd, char **ret_map)
{
	cleanup_close int pidfd = -1, fd = -1;
	char *map;

	pidfd = (int)syscall(SW_NR_PIDFD_OPEN, pid, 0);
	if (pidfd < 0)
		return -errno;
	fd = (int)syscall(SW_NR_PIDFD_GETFD, pidfd, tfd, 0);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, SW_GUARD_SIZE) < 0)
		return -errno;
	map = mmap(NULL, SW_GUARD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		   fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
			  F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		int e = errno;

		munmap(map, SW_GUARD_SIZE);
		return -e;
	}
	*ret_map = map;
	return 0;
}

/* Done (or no guard for this image): the program's call goes on, with
 * the signals that came meanwhile. */
static void gs_finish(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	pid_t pid = t->pid;

	ptrace(PTRACE_CONT, pid, 0L, (long)(gs->n_sigs ? gs->sigs[0] : 0));
	for (unsigned int i = 1; i < gs->n_sigs; i++)
		syscall(SYS_tgkill, pid, pid, gs->sigs[i]);
	gs_end(t);
}

/* At the first syscall-entry stop of the image: start injecting. */
static int gs_first_entry(struct sw_tracee *t)
{
	static const char name[] = "sysward-pathguard";
	struct sw_guard_setup *gs = t->gs;
	uint64_t a[6] = { 0 };

	if (ptrace(PTRACE_GETREGS, t->pid, 0L, &gs->r0) < 0)
		return -errno;
	if (gs->r0.cs != SW_X86_64_CS) {
		/* An i386 image: no mseal in compat mode, no guard.  From
		 * the entry stop its call goes on through its filter. */
		t->guard_state = SW_GUARD_NONE;
		gs_finish(t);
		return 1;
	}
	if ((long)gs->r0.orig_rax < 0 || gs->r0.orig_rax > 0x3fffffff)
		/* 64-bit code whose first syscall is int $0x80 (or x32):
		 * the rewinds below would replay the wrong instruction. */
		return -ENOEXEC;
	/* The memfd's name, written below the stack pointer (far below
	 * the 128-byte red zone: nothing live is there during a syscall). */
	{
		struct iovec l = { (void *)name, sizeof(name) };
		struct iovec rem = { (void *)(uintptr_t)(gs->r0.rsp - 4096), sizeof(name) };

		if (process_vm_writev(t->pid, &l, 1, &rem, 1, 0) != (ssize_t)sizeof(name))
			return errno ? -errno : -EIO;
	}
	a[0] = gs->r0.rsp - 4096;
	a[1] = MFD_CLOEXEC | MFD_ALLOW_SEALING;
	gs->step = GS_MEMFD;
	return inject(t, true, __NR_memfd_create, a);
}

/* At the exit stop of an injected call, with its return value. */
static int gs_injected_exit(struct sw_tracee *t, int64_t rv)
{
	struct sw_guard_setup *gs = t->gs;
	struct user_regs_struct r;
	struct sw_guard *g;
	uint64_t a[6] = { 0 };
	int e;

	switch (gs->step) {
	case GS_MEMFD:
		if (rv < 0)
			return (int)rv;
		gs->tfd = rv;
		g = calloc(1, sizeof(*g));
		if (!g)
			return -ENOMEM;
		if ((e = take_memfd(t->pid, (int)rv, &g->map)) < 0) {
			free(g);
			return e;
		}
		g->refs = 1;
		t->guard = g;
		t->guard_state = SW_GUARD_MAPPED;	/* undone by forget on failure */
		a[0] = SW_GUARD_ADDR;
		a[1] = SW_GUARD_SIZE;
		a[2] = PROT_READ;
		a[3] = MAP_SHARED | MAP_FIXED_NOREPLACE;
		a[4] = (uint64_t)gs->tfd;
		gs->step = GS_MMAP;
		return inject(t, false, __NR_mmap, a);
	case GS_MMAP:
		if ((uint64_t)rv != SW_GUARD_ADDR)
			return rv < 0 ? (int)rv : -EEXIST;
		a[0] = SW_GUARD_ADDR;
		a[1] = SW_GUARD_SIZE;
		gs->step = GS_MSEAL;
		return inject(t, false, SW_NR_MSEAL, a);
	case GS_MSEAL:
		if (rv != 0)
			return (int)rv;
		/* A policy may deny close(2); the fd is harmless (sealed). */
		a[0] = (uint64_t)gs->tfd;
		gs->step = GS_CLOSE;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE:
		/* Replay the program's own first syscall from its
		 * instruction. */
		r = gs->r0;
		r.rip = gs->r0.rip - 2;
		r.rax = gs->r0.orig_rax;
		if (ptrace(PTRACE_SETREGS, t->pid, 0L, &r) < 0)
			return -errno;
		gs_finish(t);
		return 1;
	default:
		return -EPROTO;
	}
}

static int gs_syscall_stop(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	struct sw_ptrace_syscall_info info;

	if (ptrace((enum __ptrace_request)SW_PTRACE_GET_SYSCALL_INFO, t->pid,
		   (void *)sizeof(info), &info) < 0)
		return -errno;
	switch (gs->step) {
	case GS_EXEC_EXIT:
		if (info.op == SW_PTRACE_SYSCALL_INFO_EXIT)
			gs->step = GS_FIRST_ENTRY;
		return gs_resume(t->pid, 0);
	case GS_FIRST_ENTRY:
		if (info.op != SW_PTRACE_SYSCALL_INFO_ENTRY)
			return gs_resume(t->pid, 0);
		return gs_first_entry(t);
	default:
		if (!gs->entered) {
			gs->entered = info.op == SW_PTRACE_SYSCALL_INFO_ENTRY;
			return gs_resume(t->pid, 0);
		}
		if (info.op != SW_PTRACE_SYSCALL_INFO_EXIT)
			return gs_resume(t->pid, 0);
		return gs_injected_exit(t, info.exit.rval);
	}
}

void sw_pathguard_setup_stop(struct sw_supervisor *sup, struct sw_tracee *t,
			     int sig, int ev)
{
	struct sw_guard_setup *gs = t->gs;
	/* Once a call is injected nothing may run in between: signals are
	 * held back.  Before, the image is the program's: it gets its
	 * signals (a handler's first syscall is as good as any) and job
	 * control works, so a program that stops before its first syscall
	 * stops as unconfined. */
	bool injecting = gs->step >= GS_MEMFD;
	uint8_t step = gs->step;
	int e;

	(void)sup;
	if (sig == (SIGTRAP | 0x80)) {
		e = gs_syscall_stop(t);
	} else if (ev == PTRACE_EVENT_SECCOMP) {
		/* Our injected calls, sent to us by the filter's prefix.
		 * Before the first entry stop no syscall can have run. */
		e = injecting ? gs_resume(t->pid, 0) : -EPROTO;
	} else if (ev == PTRACE_EVENT_STOP) {
		if (!injecting && (sig == SIGSTOP || sig == SIGTSTP ||
				   sig == SIGTTIN || sig == SIGTTOU))
			e = ptrace(PTRACE_LISTEN, t->pid, 0L, 0L) < 0 ? -errno : 0;
		else
			e = gs_resume(t->pid, 0);
	} else if (ev == 0) {
		if (!injecting) {
			e = gs_resume(t->pid, sig);
		} else {
			if (gs->n_sigs < sizeof(gs->sigs) / sizeof(gs->sigs[0]))
				gs->sigs[gs->n_sigs++] = sig;
			e = gs_resume(t->pid, 0);
		}
	} else {
		/* Fork, clone, exec: impossible before the first syscall. */
		e = -EPROTO;
	}
	if (e < 0)
		give_up(t->s, t, gs_what[step], e);
}

bool sw_pathguard_exec(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;
	int e;

	(void)sup;
	if (!s || !s->pathguard)
		return false;
	/* The old image's guard went with the old mm. */
	sw_pathguard_forget(t);
	t->exit_pending = false;	/* execve's exit stop is consumed here */
	free(t->gs);
	t->gs = calloc(1, sizeof(*t->gs));
	if (!t->gs) {
		give_up(s, t, gs_what[GS_EXEC_EXIT], -ENOMEM);
		return true;
	}
	t->gs->step = GS_EXEC_EXIT;
	if ((e = gs_resume(t->pid, 0)) < 0)
		give_up(s, t, gs_what[GS_EXEC_EXIT], e);
	return true;
}
