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
 * Files: this one holds the guard (slots, reading strings once,
 * vetting what the program does to its guard, pins); guardsetup.c maps
 * it into a fresh image; guardfilter.c builds the filter prefix.
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
#include "trace/pathguard.h"
#include "sys.h"
#include "internal.h"
#include "tracemem.h"
#include "trace/trace.h"

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

/* include/linux/errno.h: the codes with which the kernel restarts a
 * call (-ERESTARTSYS .. -ERESTART_RESTARTBLOCK). */
#define SW_ERESTART_FIRST	512
#define SW_ERESTART_LAST	516

/* Does the call at this exit stop return a restart code? */
static bool returns_restart(pid_t pid)
{
	struct sw_ptrace_syscall_info info;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) < 0 ||
	    info.op != SW_PTRACE_SYSCALL_INFO_EXIT)
		return false;
	return info.exit.rval <= -SW_ERESTART_FIRST && info.exit.rval >= -SW_ERESTART_LAST;
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
 *
 * But the return register (arm64's x0, sw_arch_args_returned) cannot be
 * put back: it holds the result, and a restart takes the first argument
 * from the kernel's copy of it (orig_x0), which names the slot and which
 * no tracer can write here.  If the call returns a restart code, its
 * slot stays taken (route 6f): the restarted call reads the string the
 * program passed, from the slot no other call could take meanwhile, and
 * is checked afresh on it; the slot is freed with the pins of the
 * thread's next exit stop.  (No restart after all, a handler's EINTR:
 * the slot waits for that stop, one per thread at most.)
 */
void sw_pathguard_release(struct sw_tracee *t)
{
	int held = -1;
	int e;

	if (!t->n_pins)
		return;
	for (unsigned int i = 0; i < 6; i++) {
		if (!(t->d.pinned & (1u << i)))
			continue;
		if (sw_arch_args_returned & (1u << i)) {
			uint64_t slot = (t->d.args[i] - SW_GUARD_ADDR) / SW_GUARD_SLOT;

			if (held < 0 && slot < SW_GUARD_SLOTS && returns_restart(t->pid))
				held = (int)slot;
			continue;
		}
		if ((e = sw_arch_set_arg(t->pid, t->call.abi, i, t->call.args[i])) < 0 &&
		    e != -ESRCH) {
			/* Never free a slot a live register may name. */
			sw_warn(t->s, "path guard: cannot restore the argument registers of pid %d (PTRACE_POKEUSER: %s); killing it",
				t->pid, strerror(-e));
			sw_sys_kill(t->pid, SIGKILL);
			break;
		}
	}
	drop_pins(t);
	if (held >= 0 && t->guard) {
		t->guard->used[held / 64] |= UINT64_C(1) << (held % 64);
		t->pins[t->n_pins++] = (uint16_t)held;
	}
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

int sw_pathguard_read(void *ctx, const struct sw_arg_read *a, char *buf,
		      size_t size)
{
	struct sw_pathguard_reads *rd = ctx;
	bool addr = a->kind == SW_ARG_SOCKADDR || a->kind == SW_ARG_MSGHDR;
	unsigned int k;
	int len;

	/* One read per argument per stop: two rules looking at the same
	 * argument must see the same bytes, or a flip between their reads
	 * would let each rule see what suits the attacker. */
	for (k = 0; k < rd->n; k++) {
		if (rd->addr[k] != a->addr || rd->kind[k] != a->kind ||
		    (a->kind == SW_ARG_SOCKADDR && rd->alen[k] != a->len))
			continue;
		if (rd->len[k] < 0)
			return rd->len[k];
		snprintf(buf, size, "%s", rd->str[k]);
		return rd->len[k] < (int)size ? rd->len[k] : (int)size - 1;
	}
	if (rd->n == SW_PATHGUARD_MAX_READS)
		return addr ? sw_read_tracee_arg(&rd->pid, a, buf, size)
			    : sw_read_tracee_string(&rd->pid, a->addr, buf, size);
	k = rd->n++;
	rd->addr[k] = a->addr;
	rd->kind[k] = a->kind;
	rd->alen[k] = a->len;
	rd->str[k][0] = '\0';
	len = addr ? sw_tracee_read_addr(rd->pid, a, &rd->raw[k], rd->str[k],
					 sizeof(rd->str[k]))
		   : sw_read_tracee_string(&rd->pid, a->addr, rd->str[k],
					   sizeof(rd->str[k]));
	rd->len[k] = len;
	if (len < 0)
		return len;
	snprintf(buf, size, "%s", rd->str[k]);
	return len < (int)size ? len : (int)size - 1;
}

/* A child that stopped before its parent's fork event has no guard yet:
 * take its thread group's or its parent's. */
static void adopt_from_proc(struct sw_supervisor *sup, struct sw_tracee *t)
{
	pid_t ids[2];	/* Tgid, PPid; 0 where unknown */

	(void)sw_sys_proc_ids(t->pid, &ids[0], &ids[1]);
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
/* Does the smaps file at path show a mapping now?  Past exit_mm() it
 * reads empty; once reaped it is gone. */
static bool has_mm(const char *path)
{
	char line[512];
	FILE *f = sw_sys_fopen(path, "re");
	bool any;

	if (!f)
		return false;
	any = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	return any;
}

int sw_guard_intact(pid_t pid, struct sw_guard *g)
{
	const unsigned long gs = SW_GUARD_ADDR, ge = SW_GUARD_ADDR + SW_GUARD_SIZE;
	unsigned long cover = gs;
	bool in_guard = false, sealed = false, bad = false;
	char path[64], line[512];
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = sw_sys_fopen(path, "re");
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
	/*
	 * A process that SIGKILL woke from its stop may be exiting while we
	 * read: with no mapping at all (exit_mm() ran), or with the file cut
	 * short (the kernel takes the mm again for each read(2), and the
	 * last reference went between two: exit_mmap()).  Neither is a
	 * guard removed; the call is refused all the same (the guard stays
	 * unverified) and never returns.  A live process always has
	 * mappings, so asking again tells the two apart.
	 */
	if (in_guard && !sealed)
		bad = true;
	if ((bad || cover < ge) && !has_mm(path))
		return -ESRCH;
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

	(void)sw_sys_proc_ids(t->pid, &ids[0], &ids[1]);
	for (int i = 0; i < 2; i++) {
		struct sw_tracee *o = ids[i] > 0 && ids[i] != t->pid
					      ? sw_tracee_find(sup, ids[i]) : NULL;

		if (!o || o->guard != t->guard || o->guard_state != SW_GUARD_MAPPED)
			continue;
		if (i == 0 || sw_sys_kcmp(t->pid, o->pid, KCMP_VM, 0L, 0L) == 0) {
			t->guard_state = SW_GUARD_MAPPED;
			return;
		}
	}
	e = sw_guard_intact(t->pid, t->guard);
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
	f = sw_sys_fopen(path, "re");
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

/* Did read k take bytes the kernel will read again?  A string that was
 * read; a unix address's bytes, whatever they name (another family, a
 * msghdr without a name: a thread could make them a unix address). */
static bool pinnable(const struct sw_pathguard_reads *rd, unsigned int k)
{
	if (rd->kind[k] == SW_ARG_SOCKADDR || rd->kind[k] == SW_ARG_MSGHDR)
		return rd->raw[k].hdr_len + rd->raw[k].name_len > 0;
	return rd->len[k] >= 0;
}

/* Where a msghdr's copy puts the copy of its address, in the slot. */
#define SW_PIN_NAME_OFF		64
_Static_assert(SW_PIN_NAME_OFF >= SW_MSGHDR_MAX &&
	       SW_PIN_NAME_OFF + SW_SOCKADDR_MAX <= SW_GUARD_SLOT, "fits a slot");

/* Put what read k took into the slot, as the kernel will read it: a
 * string; a sockaddr's bytes; a msghdr's, with msg_name pointing at the
 * copy of its address beside it (msg_name is the first field in every
 * ABI's layout; nothing else in the msghdr is what a condition saw). */
static void copy_read(struct sw_guard *g, int slot,
		      const struct sw_pathguard_reads *rd, unsigned int k)
{
	char *to = g->map + (size_t)slot * SW_GUARD_SLOT;
	const struct sw_addr_bytes *r = &rd->raw[k];

	if (rd->kind[k] == SW_ARG_SOCKADDR) {
		memcpy(to, r->b, r->name_len);
	} else if (rd->kind[k] == SW_ARG_MSGHDR) {
		memcpy(to, r->b, r->hdr_len);
		if (r->name_len) {
			uint64_t name = SW_GUARD_ADDR + (uint64_t)slot * SW_GUARD_SLOT +
					SW_PIN_NAME_OFF;

			memcpy(to + SW_PIN_NAME_OFF, r->b + r->hdr_len, r->name_len);
			if (r->hdr_len == SW_MSGHDR_MAX)
				memcpy(to, &name, sizeof(name));
			else
				memcpy(to, &(uint32_t){ (uint32_t)name }, sizeof(uint32_t));
		}
	} else {
		memcpy(to, rd->str[k], (size_t)rd->len[k] + 1);
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

			if (!pinnable(rd, k) || (d->args[i] & mask) != rd->addr[k])
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
				copy_read(t->guard, slot, rd, k);
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
	if (sw_sys_stat(path, &st) < 0)
		return false;
	if (sw_sys_proc_read(path, text, sizeof(text)) >= 0)
		sw_proc_number(text, "Uid", 10, 0, &uid);
	if (st.st_uid != 0 || uid == 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = sw_sys_fopen(path, "re");
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
