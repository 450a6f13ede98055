// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The path guard: race-free path conditions (docs/security.md, route 6).
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
 * no other thread can race the setup.  The supervisor creates the memfd
 * itself, sizes, maps and seals it, and only then hands it in: the
 * tracee's first syscall becomes socketpair(2), the supervisor takes one
 * end with pidfd_getfd(2) and sends the sealed memfd over it
 * (SCM_RIGHTS), and recvmsg, close, close, mmap, mseal and close follow,
 * injected by rewinding the instruction pointer to the syscall
 * instruction at each syscall-exit stop; a last rewind with the original
 * registers runs the program's own first syscall as if nothing happened.
 * An unsealed guard is never in the tracee's fd table: there, any process
 * allowed to open /proc/<pid>/fd/N could map it writable before the seal,
 * and F_SEAL_FUTURE_WRITE does not revoke a mapping made before it.  What
 * arrives is checked where it counts: the mapping at SW_GUARD_ADDR must be
 * our memfd, sealed (guard_intact), whatever another process did to the
 * socket meanwhile.  Each step is one stop of the tracee, handled by the
 * dispatch loop like any other (no waiting on one tracee: an image that
 * never makes a syscall holds up nobody).
 *
 * The injected calls pass through the tracee's own seccomp filter (it runs
 * after the syscall-entry stop), which the policy may have made deny them;
 * a prefix in front of the compiled filter sends socketpair and recvmsg
 * with the guard's exact arguments, mseal and mmap(SW_GUARD_ADDR, ...) to
 * the supervisor instead (TRACE), where the tracee's own such calls are
 * decided by the policy as usual.
 *
 * Slots: 1024 of 4 KiB (4 MiB of address space; only slots in use take
 * memory).  A checked string occupies a slot from the SECCOMP stop to the
 * syscall-exit stop of its syscall (the resume then uses PTRACE_SYSCALL,
 * one stop more per guarded syscall), where the program's own pointer is
 * put back into its register first: a call restarted after a signal runs
 * again from those registers, through seccomp, and is checked afresh
 * (sw_pathguard_release).  A process image that has all 1024 in flight
 * (say, threads blocked opening FIFOs) gets EAGAIN for the next guarded
 * call.
 *
 * Every address space: mseal does not stop MADV_DONTFORK on a shared
 * mapping, after which a fork child has no guard and may map its own
 * memory at SW_GUARD_ADDR.  The advice on the guard is refused (vet), and
 * a tracee that inherited its guard is trusted only once its mm is known
 * to hold it intact and sealed (verify_inherited); else its path-checked
 * calls fail with EPERM.
 *
 * Limits: i386 program images get no guard (mseal is 64-bit only); their
 * path conditions stay racy, as without this file.  A 64-bit image whose
 * first syscall is an int $0x80 one is killed (no legitimate program does
 * that, and its guard could not be set up).
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/kcmp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sysward/caps.h"
#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "sysward/proc.h"
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
#define SW_NR_PIDFD_GETFD	438
#define SW_NR_PIDFD_OPEN	434

/* The setup's socketpair type and recvmsg flags (see the filter prefix). */
#define SW_GUARD_SOCK		(SOCK_DGRAM | SOCK_CLOEXEC)
#define SW_GUARD_RECV		(MSG_CMSG_CLOEXEC | MSG_DONTWAIT)

#define SW_GUARD_SLOT		4096u
#define SW_GUARD_SLOTS		1024u
#define SW_GUARD_SIZE		(SW_GUARD_SLOT * SW_GUARD_SLOTS)

struct sw_guard {
	unsigned int refs;	/* tracees whose image maps it */
	char *map;		/* our writable view */
	unsigned long ino;	/* the memfd, as /proc/<pid>/maps shows it */
	unsigned int dev_major, dev_minor;
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

/*
 * The guard's own rules, in front of the compiled filter (so that they
 * see every call first).  Each returns TRACE(0), which sends the call to
 * the supervisor: sw_decide() evaluates the policy as for any traced call
 * and sw_pathguard_pin() then applies the guard's own checks.
 *   - socketpair and recvmsg with the setup's arguments (int arguments,
 *     compared at 32 bits), mseal, mmap(SW_GUARD_ADDR, ...): the
 *     supervisor's own injected calls must not be denied by the policy;
 *   - madvise and process_madvise with MADV_DONTFORK: the one advice that
 *     mseal allows on the guard (a shared file mapping) and that takes it
 *     away from a fork child (route 6b);
 *   - prctl(PR_SET_DUMPABLE, 0): a non-dumpable program cannot be read by
 *     a supervisor without CAP_SYS_PTRACE (class 7).
 * For every ABI that reaches the same mm (the architecture's
 * sw_arch_filter_groups; on x86-64, x32 and i386 by int $0x80 too).
 * Values the kernel reads as int (advice, the prctl option) are compared
 * at 32 bits.
 */
#define SW_MADV_DONTFORK 10u
#define SW_PR_SET_DUMPABLE 4u

struct bpf_buf {
	struct sock_filter f[96];
	size_t n;
};

struct word_eq {
	uint32_t off, val;
};

#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_LO(i)	(uint32_t)offsetof(struct seccomp_data, args[i])
#define SD_HI(i)	(uint32_t)(offsetof(struct seccomp_data, args[i]) + 4)

/* "nr == N and every word equal: TRACE(0)", else fall through. */
static void emit_trace_if(struct bpf_buf *b, uint32_t nr,
			  const struct word_eq *w, size_t nw)
{
	size_t start = b->n;

	b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_NR);
	b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 0);
	for (size_t k = 0; k < nw; k++) {
		b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, w[k].off);
		b->f[b->n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, w[k].val, 0, 0);
	}
	b->f[b->n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 0);
	/* Every mismatch goes to the instruction after this block. */
	for (size_t i = start; i < b->n; i++)
		if (BPF_CLASS(b->f[i].code) == BPF_JMP)
			b->f[i].jf = (uint8_t)(b->n - i - 1);
}

static void emit_vetted(struct bpf_buf *b, enum sw_abi abi)
{
	const struct word_eq dontfork2[] = { { SD_LO(2), SW_MADV_DONTFORK } };
	const struct word_eq dontfork3[] = { { SD_LO(3), SW_MADV_DONTFORK } };
	const struct word_eq nondump[] = {
		{ SD_LO(0), SW_PR_SET_DUMPABLE }, { SD_LO(1), 0 }, { SD_HI(1), 0 },
	};

	emit_trace_if(b, sw_arch_vetted_nr[abi].madvise, dontfork2, 1);
	emit_trace_if(b, sw_arch_vetted_nr[abi].process_madvise, dontfork3, 1);
	emit_trace_if(b, sw_arch_vetted_nr[abi].prctl, nondump, 3);
}

int sw_pathguard_patch_filter(void **insns, size_t *n, struct sw_error *err)
{
	const uint32_t lo = (uint32_t)SW_GUARD_ADDR;
	const uint32_t hi = (uint32_t)((uint64_t)SW_GUARD_ADDR >> 32);
	const struct word_eq at_guard[] = { { SD_LO(0), lo }, { SD_HI(0), hi } };
	const struct word_eq pair[] = {
		{ SD_LO(0), AF_UNIX }, { SD_LO(1), SW_GUARD_SOCK }, { SD_LO(2), 0 },
	};
	const struct word_eq recv[] = { { SD_LO(2), SW_GUARD_RECV } };
	struct bpf_buf b = { .n = 0 };
	size_t to_orig[8], n_to_orig = 0;
	struct sock_filter *out;

	_Static_assert(sizeof(to_orig) / sizeof(to_orig[0]) >= SW_ABI_COUNT,
		       "one group per ABI at most");
	b.f[b.n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_ARCH);
	for (size_t g = 0; g < sw_arch_n_filter_groups; g++) {
		const struct sw_arch_filter_group *grp = &sw_arch_filter_groups[g];
		size_t test = b.n;
		bool guard_abi = false;

		for (unsigned int k = 0; k < grp->n_abis; k++)
			guard_abi |= grp->abis[k] == SW_ABI_GUARD;
		b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  grp->audit_arch, 0, 0);
		if (guard_abi) {
			emit_trace_if(&b, __NR_socketpair, pair, 3);
			emit_trace_if(&b, __NR_recvmsg, recv, 1);
			emit_trace_if(&b, SW_NR_MSEAL, NULL, 0);
			emit_trace_if(&b, __NR_mmap, at_guard, 2);
		}
		for (unsigned int k = 0; k < grp->n_abis; k++)
			emit_vetted(&b, grp->abis[k]);
		if (g + 1 < sw_arch_n_filter_groups) {
			to_orig[n_to_orig++] = b.n;
			b.f[b.n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0);
		}
		/* Another AUDIT_ARCH: the next group (or the original). */
		b.f[test].jf = (uint8_t)(b.n - test - 1);
	}
	/* b.n is now the first instruction of the original program. */
	for (size_t i = 0; i < n_to_orig; i++)
		b.f[to_orig[i]].k = (uint32_t)(b.n - to_orig[i] - 1);

	if (*n + b.n > BPF_MAXINSNS)
		return sw_error_set(err, E2BIG,
				    "the filter has %zu instructions; the path guard needs %zu more than the kernel's limit of %d allows",
				    *n, b.n, BPF_MAXINSNS);
	out = malloc((*n + b.n) * sizeof(*out));
	if (!out)
		return sw_error_set_errno(err, ENOMEM, "add the path guard to the filter");
	memcpy(out, b.f, b.n * sizeof(*out));
	memcpy(out + b.n, *insns, *n * sizeof(*out));
	free(*insns);
	*insns = out;
	*n += b.n;
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

static void drop_pins(struct sw_tracee *t)
{
	for (unsigned int i = 0; i < t->n_pins; i++) {
		unsigned int slot = t->pins[i];

		if (t->guard && slot < SW_GUARD_SLOTS)
			t->guard->used[slot / 64] &= ~(UINT64_C(1) << (slot % 64));
	}
	t->n_pins = 0;
}

/*
 * At the exit stop of a call whose path arguments were pinned.  The
 * kernel keeps every argument register across a syscall, and restarts an
 * interrupted one (-ERESTARTSYS and kin, after a signal handler or none)
 * by running the syscall instruction again with those registers, through
 * seccomp again.  Left pointing into the guard, a restarted call would
 * read whatever string the slot holds by then (another call may have
 * taken it: route 6c), and code that reuses the register it passed (an
 * EINTR retry loop) likewise.  So the program gets its own pointers back
 * here, exactly as unconfined: a restart is a new call, checked and
 * pinned afresh on what the program's memory then says.  Only then is no
 * register of the program naming the slots, and they are freed.
 */
void sw_pathguard_release(struct sw_tracee *t)
{
	int e;

	if (!t->n_pins)
		return;
	for (unsigned int i = 0; i < 6; i++) {
		if (!(t->d.pinned & (1u << i)))
			continue;
		if ((e = sw_arch_set_arg(t->pid, t->abi, i, t->args[i])) < 0 &&
		    e != -ESRCH) {
			/* Never free a slot a live register may name. */
			sw_warn(t->s, "path guard: cannot restore the argument registers of pid %d (PTRACE_POKEUSER: %s); killing it",
				t->pid, strerror(-e));
			kill(t->pid, SIGKILL);
			break;
		}
	}
	drop_pins(t);
}

void sw_pathguard_forget(struct sw_tracee *t)
{
	drop_pins(t);
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
	/* Mapped in the parent's mm; whether this tracee's mm (a thread's
	 * is the same, a fork child's a copy that may lack it) has it is
	 * checked at its first pin. */
	child->guard_state = state == SW_GUARD_MAPPED ? SW_GUARD_INHERITED : state;
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
	pid_t ids[2];	/* Tgid, PPid; 0 where unknown */

	(void)sw_proc_ids(t->pid, &ids[0], &ids[1]);
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

/* ---- is the guard intact in this address space? -------------------------- */

/*
 * Does pid's mm map the whole guard, read-only, shared, from our memfd at
 * the right offsets, and sealed?  Then nothing the program does can take
 * it away or change it (mseal), and a pin there is what the kernel reads.
 * Read from /proc/<pid>/smaps (the only place that shows the seal, as
 * "sl" in VmFlags), stopping at the first mapping past the guard.
 * 0: intact; -ENOENT: missing or altered; else an error reading.
 */
static int guard_intact(pid_t pid, struct sw_guard *g)
{
	const unsigned long gs = SW_GUARD_ADDR, ge = SW_GUARD_ADDR + SW_GUARD_SIZE;
	unsigned long cover = gs;
	bool in_guard = false, sealed = false, bad = false;
	char path[64], line[512];
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!bad && fgets(line, sizeof(line), f)) {
		unsigned long start, end, off, ino;
		unsigned int maj, min;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &start, &end, perms,
			   &off, &maj, &min, &ino) == 7) {
			if (in_guard && !sealed)
				bad = true;
			if (bad || start >= ge)
				break;
			in_guard = end > gs;
			sealed = false;
			if (!in_guard)
				continue;
			bad = start != cover || strcmp(perms, "r--s") ||
			      off != start - gs || maj != g->dev_major ||
			      min != g->dev_minor || ino != g->ino;
			cover = end;
		} else if (in_guard && !strncmp(line, "VmFlags:", 8)) {
			char *save = NULL;

			/* strtok_r: strtok's position is one for the whole
			 * process, and each tracer thread checks guards. */
			for (char *tok = strtok_r(line + 8, " \n", &save); tok;
			     tok = strtok_r(NULL, " \n", &save))
				if (!strcmp(tok, "sl"))
					sealed = true;
		}
	}
	if (ferror(f) && !bad) {
		e = errno ? -errno : -EIO;
		fclose(f);
		return e;
	}
	fclose(f);
	if (in_guard && !sealed)
		bad = true;
	return bad || cover < ge ? -ENOENT : 0;
}

/*
 * First pin of a tracee that inherited its guard (SW_GUARD_INHERITED).
 * A thread shares its group's mm; a CLONE_VM child (vfork, posix_spawn)
 * its parent's (kcmp(2) tells); a fork child has a copy of its parent's
 * mm, which lacks the guard if the parent marked it MADV_DONTFORK, and
 * may then have the child's own memory at the guard's address.  So a
 * tracee is trusted only once its mm is known to be one whose guard was
 * seen intact.
 */
static void verify_inherited(struct sw_supervisor *sup, struct sw_tracee *t)
{
	pid_t ids[2];	/* Tgid, PPid; 0 where unknown */
	int e;

	(void)sw_proc_ids(t->pid, &ids[0], &ids[1]);
	for (int i = 0; i < 2; i++) {
		struct sw_tracee *o = ids[i] > 0 && ids[i] != t->pid
					      ? sw_tracee_find(sup, ids[i]) : NULL;

		if (!o || o->guard != t->guard || o->guard_state != SW_GUARD_MAPPED)
			continue;
		if (i == 0 || syscall(SYS_kcmp, t->pid, o->pid, KCMP_VM, 0L, 0L) == 0) {
			t->guard_state = SW_GUARD_MAPPED;
			return;
		}
	}
	e = guard_intact(t->pid, t->guard);
	if (e == 0)
		t->guard_state = SW_GUARD_MAPPED;
	else if (e == -ENOENT)
		t->guard_state = SW_GUARD_LOST;
	/* Else (cannot read smaps): stays unverified; the call fails. */
}

/* ---- what the program may not do to its guard ------------------------------ */

/* Warnings said once per session (struct sw_session.guard_warned). */
enum {
	WARNED_DUMPABLE = 1u << 0,
	WARNED_UNREADABLE = 1u << 1,
	WARNED_LOST = 1u << 2,
};

static bool warn_once(struct sw_session *s, unsigned int bit)
{
	if (s->guard_warned & bit)
		return false;
	s->guard_warned |= bit;
	return true;
}

static void refuse(struct sw_decision *d, int e, const char *why)
{
	d->verdict = SW_V_RETURN;
	d->retval = -e;
	d->is_error = true;
	d->why = why;
}

/* Can we read a non-dumpable tracee (CAP_SYS_PTRACE, as root has)? */
static bool reads_nondumpable(void)
{
	/* __atomic: each tracer thread may be the first to ask; all find
	 * the same answer. */
	static int known = -1;
	int k = __atomic_load_n(&known, __ATOMIC_RELAXED);

	if (k < 0) {
		k = sw_cap_effective(CAP_SYS_PTRACE);
		__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	}
	return k;
}

static void comm_of(pid_t pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* Say once per session (bit) what the guard did to pid, as
 * "pid N (comm): ...". */
static void __attribute__((format(printf, 4, 5)))
warn_about_once(struct sw_session *s, unsigned int bit, pid_t pid, const char *fmt, ...)
{
	char comm[32], msg[SW_ERROR_MSG_MAX];
	va_list ap;

	if (!warn_once(s, bit))
		return;
	comm_of(pid, comm, sizeof(comm));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sw_warn(s, "pid %d (%s): %s", pid, comm, msg);
}

/* Does [start, start + len) (as madvise rounds it) touch the guard? */
static bool overlaps_guard(uint64_t start, uint64_t len)
{
	unsigned __int128 s = start & ~(uint64_t)4095;
	unsigned __int128 e = (unsigned __int128)start + len + 4095;

	e &= ~(unsigned __int128)4095;
	return s < SW_GUARD_ADDR + SW_GUARD_SIZE && e > SW_GUARD_ADDR;
}

/* The calls the filter prefix sends here (sw_pathguard_patch_filter). */
static void vet(struct sw_session *s, struct sw_tracee *t, enum sw_abi abi,
		uint64_t mask, struct sw_decision *d)
{
	if (abi == SW_ABI_NONE)
		return;
	if (d->nr == sw_arch_vetted_nr[abi].madvise &&
	    (uint32_t)d->args[2] == SW_MADV_DONTFORK &&
	    overlaps_guard(d->args[0] & mask, d->args[1] & mask)) {
		/* What mseal does for the other ways to lose the region. */
		refuse(d, EPERM, "path guard: MADV_DONTFORK would take the sealed guard from fork children");
	} else if (d->nr == sw_arch_vetted_nr[abi].process_madvise &&
		   (uint32_t)d->args[3] == SW_MADV_DONTFORK) {
		/* Its ranges are in memory, which another thread can change
		 * after we read it: refuse the advice outright. */
		refuse(d, EPERM, "path guard: process_madvise MADV_DONTFORK (ranges in memory cannot be checked)");
	} else if (d->nr == sw_arch_vetted_nr[abi].prctl &&
		   (uint32_t)d->args[0] == SW_PR_SET_DUMPABLE &&
		   (d->args[1] & mask) == 0 && !reads_nondumpable()) {
		/*
		 * Non-dumpable, the program could no longer be read by us
		 * (process_vm_readv checks dumpability, CAP_SYS_PTRACE aside)
		 * and every path-checked call would fail.  Refuse, as the
		 * kernel refuses what a caller may not do; the program stays
		 * dumpable and says so by the error (ssh-agent, gpg-agent and
		 * others go on without).  Pretending success would leave a
		 * program believing itself protected from same-uid processes
		 * when it is not.
		 */
		refuse(d, EPERM, "path guard: PR_SET_DUMPABLE 0 would hide the program from the supervisor");
		warn_about_once(s, WARNED_DUMPABLE, t->pid, "%s",
				"prctl(PR_SET_DUMPABLE, 0) refused with EPERM: the policy has path conditions, and the supervisor (without CAP_SYS_PTRACE) could not read a non-dumpable program's path arguments; run sysward as root to let programs make themselves non-dumpable");
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

	/* Before the program's exec only the launcher (sysward's own
	 * single-threaded code) runs: nothing to race. */
	if (!s->exec_done)
		return;
	for (unsigned int k = 0; k < rd->n; k++) {
		if (rd->len[k] == -EPERM)
			warn_about_once(s, WARNED_UNREADABLE, t->pid,
					"cannot read its path arguments (process_vm_readv: %s): it is not dumpable (it changed credentials, or runs a program file its user cannot read), so its path-checked calls fail with EPERM; run sysward as root, or make the program readable",
					strerror(EPERM));
	}
	if (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE)
		return;
	vet(s, t, abi, mask, d);
	if (!rd->n || (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE))
		return;
	if (t->guard_state == SW_GUARD_UNKNOWN)
		adopt_from_proc(sup, t);
	if (t->guard_state == SW_GUARD_INHERITED)
		verify_inherited(sup, t);
	if (t->guard_state == SW_GUARD_NONE)
		return;		/* i386 image: documented limit */
	if (t->guard_state == SW_GUARD_LOST) {
		refuse(d, EPERM, "path guard: this address space has no intact guard");
		warn_about_once(s, WARNED_LOST, t->pid, "%s",
				"its address space lacks the sealed path guard (removed before a fork?); its path-checked calls fail with EPERM");
		return;
	}
	if (t->guard_state != SW_GUARD_MAPPED || !t->guard) {
		refuse(d, EAGAIN, "path guard: this process has no guard mapped");
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
					drop_pins(t);
					refuse(d, EAGAIN, "path guard: every slot is in flight");
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

/*
 * Setting up the guard in a fresh image failed with EPERM.  For a
 * supervisor without CAP_SYS_PTRACE that means the image is not dumpable:
 * the kernel makes a process non-dumpable when it execs a file its user
 * cannot read (chmod 111), and then neither process_vm_readv/writev nor
 * pidfd_getfd reach it.  Its path arguments can never be checked.
 */
bool sw_pathguard_explain_unreadable(struct sw_session *s, pid_t pid)
{
	char path[64], arg0[256] = "", text[SW_PROC_TEXT_MAX];
	struct stat st;
	FILE *f;
	long uid = 0;

	if (reads_nondumpable())
		return false;
	/* The files of /proc/<pid> (not the directory) of a non-dumpable
	 * process belong to root. */
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (stat(path, &st) < 0)
		return false;
	if (sw_proc_read(path, text, sizeof(text)) >= 0)
		sw_proc_number(text, "Uid", 10, 0, &uid);
	if (st.st_uid != 0 || uid == 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = fopen(path, "re");
	if (f) {
		size_t n = fread(arg0, 1, sizeof(arg0) - 1, f);

		arg0[n] = '\0';
		fclose(f);
	}
	if (!arg0[0])
		comm_of(pid, arg0, sizeof(arg0));
	s->guard_warned |= WARNED_UNREADABLE;
	sw_warn(s, "cannot run '%s' (pid %d) under this policy: uid %u cannot read the program file, so the kernel made the process non-dumpable, and the supervisor (without CAP_SYS_PTRACE) cannot read the path arguments the policy's path conditions check; make the file readable (chmod a+r) or run sysward as root; killing it",
		arg0, pid, (unsigned int)uid);
	return true;
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
	GS_SOCKETPAIR,		/* socketpair put in its place: to the exit */
	GS_RECVMSG,		/* injected by rewinding: to entry, then exit */
	GS_CLOSE_SOCK0,
	GS_CLOSE_SOCK1,
	GS_MMAP,
	GS_MSEAL,
	GS_CLOSE,
};

static const char *const gs_what[] = {
	[GS_EXEC_EXIT] = "run to the end of execve",
	[GS_FIRST_ENTRY] = "run to the first syscall",
	[GS_SOCKETPAIR] = "inject socketpair",
	[GS_RECVMSG] = "inject recvmsg",
	[GS_CLOSE_SOCK0] = "inject close",
	[GS_CLOSE_SOCK1] = "inject close",
	[GS_MMAP] = "inject mmap",
	[GS_MSEAL] = "inject mseal",
	[GS_CLOSE] = "inject close",
};

/*
 * What the injected socketpair and recvmsg read and write, in the
 * tracee's memory (as the same x86_64 layout: only 64-bit images get a
 * guard), well below its stack pointer: far below the 128-byte red zone,
 * nothing live is there during a syscall, and a fresh image's stack is
 * set up 128 KiB deep.
 */
struct gs_scratch {
	int sv[2];
	struct msghdr msg;
	struct iovec iov;
	char byte;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
};

#define GS_SCRATCH_BELOW_SP 4096u
_Static_assert(sizeof(struct gs_scratch) < GS_SCRATCH_BELOW_SP - 128, "below the red zone");

struct sw_guard_setup {
	uint8_t step;
	bool entered;			/* the injected call's entry stop seen */
	struct sw_arch_regs r0;		/* at the first syscall-entry stop */
	int mfd;			/* our memfd, until it is sent */
	int sv[2];			/* the socket pair in the tracee */
	int64_t tfd;			/* the memfd, received in the tracee */
};

static void gs_end(struct sw_tracee *t)
{
	if (t->gs && t->gs->mfd >= 0)
		close(t->gs->mfd);
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
	if (e == -EPERM && sw_pathguard_explain_unreadable(s, t->pid)) {
		kill(t->pid, SIGKILL);
		return;
	}
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
	int e = sw_arch_inject(t->pid, &t->gs->r0, at_entry, nr, a);

	if (e < 0)
		return e;
	t->gs->entered = at_entry;
	return gs_resume(t->pid, 0);
}

static uint64_t scratch_addr(const struct sw_guard_setup *gs)
{
	return (sw_arch_stack_pointer(&gs->r0) - GS_SCRATCH_BELOW_SP) & ~(uint64_t)15;
}

static int scratch_io(pid_t pid, uint64_t at, struct gs_scratch *sc, bool write)
{
	int n = write ? sw_tracee_write(pid, at, sc, sizeof(*sc))
		      : sw_tracee_read(pid, at, sc, sizeof(*sc));

	if (n == (int)sizeof(*sc))
		return 0;
	return n < 0 ? n : -EIO;
}

/*
 * A new guard, ours alone until sealed: sized, mapped writable here, then
 * sealed against every other writer (F_SEAL_FUTURE_WRITE: no write(2), no
 * new writable mapping, VM_MAYWRITE cleared on read-only ones).  Its fd
 * in *ret_fd, to be handed to the tracee.
 */
static int guard_new(struct sw_guard **ret, int *ret_fd)
{
	cleanup_close int fd = -1;
	struct sw_guard *g;
	struct stat st;
	int e;

	fd = (int)syscall(SYS_memfd_create, "sysward-pathguard",
			  MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, SW_GUARD_SIZE) < 0 || fstat(fd, &st) < 0)
		return -errno;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->map = mmap(NULL, SW_GUARD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	if (g->map == MAP_FAILED) {
		e = -errno;
		free(g);
		return e;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
			  F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		e = -errno;
		munmap(g->map, SW_GUARD_SIZE);
		free(g);
		return e;
	}
	g->refs = 1;
	g->ino = (unsigned long)st.st_ino;
	g->dev_major = major(st.st_dev);
	g->dev_minor = minor(st.st_dev);
	*ret = g;
	*ret_fd = fd;
	fd = -1;
	return 0;
}

/* Send our sealed memfd to the tracee's end sv[0], through its other end
 * sv[1], which we take with pidfd_getfd(2) (as its tracer we may). */
static int send_guard(pid_t pid, int tsock, int mfd)
{
	cleanup_close int pidfd = -1, sock = -1;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte = 'g';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *c;

	pidfd = (int)syscall(SW_NR_PIDFD_OPEN, pid, 0);
	if (pidfd < 0)
		return -errno;
	sock = (int)syscall(SW_NR_PIDFD_GETFD, pidfd, tsock, 0);
	if (sock < 0)
		return -errno;
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &mfd, sizeof(int));
	if (sendmsg(sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) != 1)
		return errno ? -errno : -EIO;
	return 0;
}

/* Done (or no guard for this image): the program's call goes on. */
static void gs_finish(struct sw_tracee *t)
{
	(void)sw_tracee_resume(t, false, 0);
	gs_end(t);
}

/* At the first syscall-entry stop of the image: start injecting. */
static int gs_first_entry(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t a[6] = { 0 };
	int e;

	if ((e = sw_arch_get_regs(t->pid, &gs->r0)) < 0)
		return e;
	if ((e = sw_arch_guard_entry_check(&gs->r0)) > 0) {
		/* An image of another ABI (i386: no mseal in compat mode),
		 * no guard.  From the entry stop its call goes on through
		 * its filter. */
		t->guard_state = SW_GUARD_NONE;
		gs_finish(t);
		return 1;
	}
	if (e < 0)
		/* An ABI whose syscall instruction the rewinds below
		 * would not replay (x86: int $0x80 or x32 from 64-bit
		 * code). */
		return e;
	if ((e = guard_new(&t->guard, &gs->mfd)) < 0)
		return e;
	/* Trusted only once seen mapped and sealed (GS_MSEAL). */
	t->guard_state = SW_GUARD_INHERITED;
	a[0] = AF_UNIX;
	a[1] = SW_GUARD_SOCK;
	a[2] = 0;
	a[3] = scratch_addr(gs) + offsetof(struct gs_scratch, sv);
	gs->step = GS_SOCKETPAIR;
	return inject(t, true, __NR_socketpair, a);
}

/* The tracee's socket pair exists: send the memfd, have it received. */
static int gs_receive(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t at = scratch_addr(gs), a[6] = { 0 };
	struct gs_scratch sc;
	int e;

	if ((e = scratch_io(t->pid, at, &sc, false)) < 0)
		return e;
	gs->sv[0] = sc.sv[0];
	gs->sv[1] = sc.sv[1];
	if ((e = send_guard(t->pid, gs->sv[1], gs->mfd)) < 0)
		return e;
	close(gs->mfd);
	gs->mfd = -1;
	memset(&sc, 0, sizeof(sc));
	sc.sv[0] = gs->sv[0];
	sc.sv[1] = gs->sv[1];
	sc.iov.iov_base = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, byte));
	sc.iov.iov_len = 1;
	sc.msg.msg_iov = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, iov));
	sc.msg.msg_iovlen = 1;
	sc.msg.msg_control = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, ctl));
	sc.msg.msg_controllen = sizeof(sc.ctl.buf);
	if ((e = scratch_io(t->pid, at, &sc, true)) < 0)
		return e;
	a[0] = (uint64_t)gs->sv[0];
	a[1] = at + offsetof(struct gs_scratch, msg);
	a[2] = SW_GUARD_RECV;
	gs->step = GS_RECVMSG;
	return inject(t, false, __NR_recvmsg, a);
}

/* The one descriptor recvmsg delivered, or -EPROTO. */
static int received_fd(pid_t pid, uint64_t at)
{
	struct gs_scratch sc;
	struct cmsghdr *c;
	int fd, e;

	if ((e = scratch_io(pid, at, &sc, false)) < 0)
		return e;
	if (sc.msg.msg_flags & MSG_CTRUNC || sc.msg.msg_controllen < CMSG_LEN(sizeof(int)))
		return -EPROTO;
	c = &sc.ctl.h;
	if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd >= 0 ? fd : -EPROTO;
}

/* At the exit stop of an injected call, with its return value. */
static int gs_injected_exit(struct sw_tracee *t, int64_t rv)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t a[6] = { 0 };
	int e;

	switch (gs->step) {
	case GS_SOCKETPAIR:
		if (rv != 0)
			return rv < 0 ? (int)rv : -EPROTO;
		return gs_receive(t);
	case GS_RECVMSG:
		if (rv != 1)
			return rv < 0 ? (int)rv : -EPROTO;
		if ((e = received_fd(t->pid, scratch_addr(gs))) < 0)
			return e;
		gs->tfd = e;
		/* A policy may deny close(2): the sockets are then left
		 * behind, harmless (empty, nobody else's). */
		a[0] = (uint64_t)gs->sv[0];
		gs->step = GS_CLOSE_SOCK0;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE_SOCK0:
		a[0] = (uint64_t)gs->sv[1];
		gs->step = GS_CLOSE_SOCK1;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE_SOCK1:
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
		/*
		 * Whatever came through the socket (another process able to
		 * take the tracee's fds could have stolen ours or slipped in
		 * its own), what counts is what is mapped: our memfd,
		 * read-only, whole, sealed.
		 */
		if ((e = guard_intact(t->pid, t->guard)) < 0)
			return e == -ENOENT ? -EBADMSG : e;
		t->guard_state = SW_GUARD_MAPPED;
		/* A policy may deny close(2); the fd is harmless (sealed). */
		a[0] = (uint64_t)gs->tfd;
		gs->step = GS_CLOSE;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE:
		/* Replay the program's own first syscall from its
		 * instruction. */
		if ((e = sw_arch_replay(t->pid, &gs->r0)) < 0)
			return e;
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
	uint8_t step = gs->step;
	int e;

	/*
	 * Signals go on as the kernel would deliver them, injecting or not.
	 * The setup runs before the image's first system call, and execve
	 * reset every handler to SIG_DFL (SIG_IGN stays): no code of the
	 * program can run on a signal, only the kernel's default action
	 * (ignore, stop, terminate), and none of those touches the
	 * registers of the call being injected.  Holding signals back to
	 * send them again afterwards would reorder them against the ones
	 * sent meanwhile: a SIGSTOP overtaken by a SIGCONT would stop the
	 * program after it had been continued, for good (the kernel drops a
	 * dequeued stop that a later SIGCONT cancels, JOBCTL_STOP_DEQUEUED;
	 * a resent one it cannot know about).
	 */
	(void)sup;
	if (sig == (SIGTRAP | 0x80)) {
		e = gs_syscall_stop(t);
	} else if (ev == PTRACE_EVENT_SECCOMP) {
		/* Our injected calls, sent to us by the filter's prefix.
		 * Before the first entry stop no syscall can have run. */
		e = step >= GS_SOCKETPAIR ? gs_resume(t->pid, 0) : -EPROTO;
	} else if (ev == PTRACE_EVENT_STOP) {
		/* A group-stop stays stopped; SIGCONT's re-trap comes here
		 * again and the setup goes on where it was. */
		e = sw_group_stop(t, sig);
		if (e == 0)
			e = gs_resume(t->pid, 0);
	} else if (ev == 0) {
		e = gs_resume(t->pid, sig);	/* signal-delivery stop */
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
	t->gs->mfd = -1;
	if ((e = gs_resume(t->pid, 0)) < 0)
		give_up(s, t, gs_what[GS_EXEC_EXIT], e);
	return true;
}
