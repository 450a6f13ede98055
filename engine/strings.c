// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one home of every access to a tracee's memory (process_vm_readv,
 * process_vm_writev): NUL-terminated strings, fixed-size values, the path
 * guard's scratch.
 *
 * Strings: reads never cross a page boundary in one iovec, so a string
 * that ends just before an unmapped page is still read (a single large
 * read would fail with EFAULT as a whole).  The string is read while the
 * calling thread is stopped, but other threads of the tracee may change it
 * before the kernel reads it again (TOCTOU); see docs/security.md for what
 * sysward promises about that.
 *
 * No unbounded wait (docs/security.md, route 13): the memory is the
 * program's, and a page of it can be a mapping of a file on a FUSE file
 * system that the program serves itself and never answers.  A fault on
 * that page waits for the FUSE server, in whichever task faults: here the
 * supervisor, which serves every stop of every session.  So the access
 * runs on a reader thread and the supervisor waits for it with a deadline
 * (SW_MEM_DEADLINE_MS).  Past it, the tracee is killed, its pid is left
 * for sw_tracee_mem_stalled() (tracer.c kills its session: the FUSE server
 * is one of its processes, and killing it fails the stuck fault), the
 * access fails with -ETIMEDOUT, and the reader is abandoned: it ends by
 * itself when the fault fails.
 *
 * Abandoned readers are bounded, so that hostile programs cannot make the
 * supervisor pile up threads; beyond the bound every access fails the
 * same way at once.  The fault need not ever fail: a program can keep its
 * FUSE connection open after its session is killed (a thread of its own
 * waiting uninterruptibly on a request its server took, whose descriptor
 * table holds /dev/fuse), so an abandoned reader may stay for good.  The
 * bound must then hurt nobody but the programs that caused it: each
 * abandoned reader is charged to the uid its tracee runs as (the
 * caller's, sw_tracee_mem_owner()), at most SW_MEM_MAX_ABANDONED_UID per
 * uid, and only that uid's reads fail past it.  SW_MEM_MAX_ABANDONED is
 * the whole process's, well above one uid's share.
 *
 * A direct read on the supervisor's thread would be cheaper, but there is
 * no race-free way to know that it cannot fault into FUSE: whether a page
 * is present (/proc/pid/pagemap) can change right after the check (another
 * thread's MADV_DONTNEED), and any mapping may be of a FUSE file.
 *
 * The reader runs beside its tracer (issue 34).  Handing an access over
 * and taking the answer back are two wake-ups, and the scheduler sends a
 * wakee to an idle CPU rather than to its waker's busy one
 * (kernel/sched/fair.c, select_idle_sibling(): the waker's CPU runs the
 * waker; the wakee's previous CPU, or any idle one of the LLC, wins): on
 * a machine with an idle CPU both cross CPUs, and on a virtual machine
 * each wakes a halted vCPU (bench/stop-cost.sh, the path row: several
 * times the cost of the same loop on one CPU).  So the reader may run on
 * one CPU only, the one its tracer runs on when it hands an access over
 * (sched_getcpu(): rseq, no system call; sched_setaffinity() of the
 * reader only when that changed), which makes the kernel queue it there
 * (select_task_rq(): a task allowed on one CPU goes to that CPU); and
 * the tracer, rather than sleeping at once, yields its CPU for at most
 * SW_MEM_YIELD_NS (yield_task_fair(): the yielder's deadline moves back
 * a slice, so the reader, eligible and queued here, runs next), so that
 * the answer needs no wake-up of the tracer either.  Past that bound
 * (the reader blocked in a fault, or not queued here, or another task
 * took the CPU) the tracer sleeps as before, under the same deadline,
 * and the next accesses do not yield (SW_MEM_YIELD_BACKOFF_*).  Only the
 * supervisor's own threads are placed: the program's affinity, cgroup
 * and scheduling are not touched.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "abandon.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"

#define SW_PAGE 4096u

/* The longest the supervisor waits for one access.  A page of the
 * program's memory is either resident, swapped in, or read from a file:
 * even a disk under load answers well within it, and a session paused for
 * it stalls every other session of the daemon meanwhile. */
#define SW_MEM_DEADLINE_MS 1000
/* Readers left waiting on faults that did not end by the deadline: one
 * uid's, and everybody's. */
#define SW_MEM_MAX_ABANDONED_UID 16
#define SW_MEM_MAX_ABANDONED 256
/* The largest access (a string buffer, the guard's scratch). */
#define SW_MEM_MAX 4096u
/* How long the tracer yields its CPU to its reader before it sleeps: a
 * few accesses' worth (one measured about 1 us), short against the
 * wake-ups it saves. */
#define SW_MEM_YIELD_NS 20000
/* A yield that took longer gave the CPU to another task (a CPU-bound
 * one can keep it for a whole slice, milliseconds): the next accesses,
 * 64 at first, twice as many after each such yield up to 4096 (halved
 * again by each quick one), sleep at once, as without yielding.
 * Measured with two CPU-bound loops beside a path-checked loop: without
 * this back-off the loop took 1.6x as long as with no yield at all. */
#define SW_MEM_YIELD_BACKOFF_MIN 64u
#define SW_MEM_YIELD_BACKOFF_MAX 4096u

enum mem_op { MEM_STRING, MEM_READ, MEM_WRITE };
enum mem_state { MEM_IDLE, MEM_BUSY, MEM_DONE, MEM_ABANDONED };

struct reader {
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* CLOCK_MONOTONIC */
	enum mem_state state;
	enum mem_op op;
	pid_t pid;
	uid_t owner;			/* charged with it once abandoned */
	bool charged;
	uint64_t addr;
	size_t len;
	int ret;
	pid_t tid;			/* the reader's, once it has started */
	int cpu;			/* the one CPU it may run on, or -1 */
	unsigned int no_yield;		/* accesses left that sleep at once */
	unsigned int backoff;		/* the last no_yield set, or 0 */
	char buf[SW_MEM_MAX];
};

/* A reader per tracer thread: one tracer's stuck access must not hold up
 * another's (syswardd's shards).  The count of abandoned readers is the
 * process's, by uid. */
static _Thread_local struct reader *cur;	/* the live reader, or NULL */
static _Thread_local pid_t stalled;
static _Thread_local uid_t owner = (uid_t)-1;	/* of the next accesses */

static struct sw_abandoned_uid abandoned_by_uid[SW_MEM_MAX_ABANDONED];
static struct sw_abandoned abandoned =
	SW_ABANDONED_INIT(abandoned_by_uid, SW_MEM_MAX_ABANDONED,
			  SW_MEM_MAX_ABANDONED_UID);

void sw_tracee_mem_owner(uid_t uid)
{
	owner = uid;
}

static int read_string(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size - 1) {
		size_t chunk = SW_PAGE - ((addr + got) & (SW_PAGE - 1));
		struct iovec local, remote;
		ssize_t n;
		char *nul;

		if (chunk > size - 1 - got)
			chunk = size - 1 - got;
		local = (struct iovec){ buf + got, chunk };
		remote = (struct iovec){ (void *)(uintptr_t)(addr + got), chunk };
		n = sw_sys_process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return n < 0 ? -errno : -EFAULT;
		nul = memchr(buf + got, '\0', (size_t)n);
		if (nul)
			return (int)(nul - buf);
		got += (size_t)n;
	}
	/* Longer than the buffer: report truncated, so a prefix of the
	 * real path is never mistaken for the whole path by an exact match. */
	buf[size - 1] = '\0';
	return -ENAMETOOLONG;
}

/* The access itself, on the reader thread. */
static int mem_access(struct reader *r)
{
	struct iovec l = { r->buf, r->len };
	struct iovec rm = { (void *)(uintptr_t)r->addr, r->len };
	ssize_t n;

	if (r->op == MEM_STRING)
		return read_string(r->pid, r->addr, r->buf, r->len);
	n = r->op == MEM_WRITE ? sw_sys_process_vm_writev(r->pid, &l, 1, &rm, 1, 0)
			       : sw_sys_process_vm_readv(r->pid, &l, 1, &rm, 1, 0);
	return n < 0 ? -errno : (int)n;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	pthread_mutex_lock(&r->mu);
	r->tid = gettid();
	for (;;) {
		while (r->state == MEM_IDLE || r->state == MEM_DONE)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->state == MEM_ABANDONED)
			break;
		pthread_mutex_unlock(&r->mu);
		r->ret = mem_access(r);
		pthread_mutex_lock(&r->mu);
		if (r->state == MEM_ABANDONED)
			break;
		/* Also read without the lock, by a yielding tracer. */
		__atomic_store_n(&r->state, MEM_DONE, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	/* Nobody else holds r once it is abandoned. */
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
	if (r->charged)
		sw_abandoned_release(&abandoned, r->owner);
	free(r);
	return NULL;
}

static struct reader *reader_new(void)
{
	struct reader *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;
	pthread_attr_t ta;
	pthread_t th;
	sigset_t all, old;
	int e;

	if (!r)
		return NULL;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cv, &ca);
	pthread_condattr_destroy(&ca);
	r->state = MEM_IDLE;
	r->cpu = -1;
	pthread_attr_init(&ta);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	/* Every __thread variable of the process comes out of this stack
	 * too (glibc's static TLS): keep them small (a 40 KiB one made
	 * this pthread_create() fail with EINVAL, and every read of a
	 * tracee's memory with it). */
	pthread_attr_setstacksize(&ta, 64 * 1024);
	/* Signals stay with the supervisor's thread (signalfd, sigwait). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&th, &ta, reader_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (e) {
		pthread_cond_destroy(&r->cv);
		pthread_mutex_destroy(&r->mu);
		free(r);
		errno = e;
		return NULL;
	}
	return r;
}

/*
 * The reader allowed on the CPU its tracer runs on now (r->mu held).  A
 * reader that has not started yet (no tid) is placed at the next access;
 * a refusal (a CPU going offline, a cpuset that shrank) leaves it where
 * it may run, and is tried again at the next access.
 */
static void reader_follow(struct reader *r)
{
	int cpu = sw_sys_sched_getcpu();
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE || cpu == r->cpu || r->tid <= 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sw_sys_sched_setaffinity(r->tid, sizeof(set), &set) == 0)
		r->cpu = cpu;
}

/* Yield the CPU to the reader until it answers, for SW_MEM_YIELD_NS at
 * most (r->mu not held); back off if that took longer. */
static void reader_yield(struct reader *r)
{
	struct timespec t0, t;
	long long ns = 0;

	if (r->no_yield) {
		r->no_yield--;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == MEM_BUSY &&
	       ns <= SW_MEM_YIELD_NS) {
		sw_sys_sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
		ns = (t.tv_sec - t0.tv_sec) * 1000000000LL + t.tv_nsec - t0.tv_nsec;
	}
	if (ns <= SW_MEM_YIELD_NS) {
		r->backoff /= 2;	/* eager again after a few */
		return;
	}
	r->backoff *= 2;
	if (r->backoff < SW_MEM_YIELD_BACKOFF_MIN)
		r->backoff = SW_MEM_YIELD_BACKOFF_MIN;
	if (r->backoff > SW_MEM_YIELD_BACKOFF_MAX)
		r->backoff = SW_MEM_YIELD_BACKOFF_MAX;
	r->no_yield = r->backoff;
}

/* The tracee did not answer: kill it (any tid takes its thread group) and
 * leave its pid for the dispatch loop, which kills its session. */
static int stall(pid_t pid)
{
	sw_sys_kill(pid, SIGKILL);
	stalled = pid;
	return -ETIMEDOUT;
}

/*
 * Run one access on the reader with the deadline.  For MEM_WRITE, buf
 * holds the bytes; for the reads, the result is copied to buf.  Returns
 * what mem_access returned, or -ETIMEDOUT (the tracee killed).
 */
static int mem_do(enum mem_op op, pid_t pid, uint64_t addr, void *buf,
		  size_t len)
{
	struct timespec dl;
	struct reader *r;
	int ret, e = 0;

	if (len == 0 || len > SW_MEM_MAX)
		return -EINVAL;
	if (!sw_abandoned_allowed(&abandoned, owner))
		return stall(pid);
	if (!cur && !(cur = reader_new()))
		return -errno;
	r = cur;
	pthread_mutex_lock(&r->mu);
	r->op = op;
	r->pid = pid;
	r->addr = addr;
	r->len = len;
	if (op == MEM_WRITE)
		memcpy(r->buf, buf, len);
	reader_follow(r);
	r->state = MEM_BUSY;
	pthread_cond_broadcast(&r->cv);
	clock_gettime(CLOCK_MONOTONIC, &dl);
	pthread_mutex_unlock(&r->mu);
	reader_yield(r);
	pthread_mutex_lock(&r->mu);
	dl.tv_sec += SW_MEM_DEADLINE_MS / 1000;
	dl.tv_nsec += (SW_MEM_DEADLINE_MS % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	while (r->state == MEM_BUSY && e != ETIMEDOUT)
		e = pthread_cond_timedwait(&r->cv, &r->mu, &dl);
	if (r->state != MEM_DONE) {
		/* The reader frees itself when its access ends: charged
		 * before it can (under r->mu, which it takes to see this). */
		r->state = MEM_ABANDONED;
		r->owner = owner;
		r->charged = sw_abandoned_charge(&abandoned, owner);
		pthread_mutex_unlock(&r->mu);
		cur = NULL;
		return stall(pid);
	}
	ret = r->ret;
	r->state = MEM_IDLE;
	if (op == MEM_READ && ret > 0)
		memcpy(buf, r->buf, (size_t)ret);
	else if (op == MEM_STRING)
		memcpy(buf, r->buf, len);
	pthread_mutex_unlock(&r->mu);
	return ret;
}

int sw_read_tracee_string(void *pidp, uint64_t addr, char *buf, size_t size)
{
	pid_t pid = *(pid_t *)pidp;

	if (size == 0)
		return -EINVAL;
	if (addr == 0)
		return -EFAULT;
	if (size > SW_MEM_MAX)
		size = SW_MEM_MAX;
	return mem_do(MEM_STRING, pid, addr, buf, size);
}

int sw_tracee_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	return mem_do(MEM_READ, pid, addr, buf, len);
}

/* All len bytes at addr, or -EFAULT (as the kernel's copy_from_user),
 * or another -errno. */
static int read_all(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	int n = mem_do(MEM_READ, pid, addr, buf, len);

	if (n < 0)
		return n == -ESRCH || n == -ETIMEDOUT || n == -EPERM ? n : -EFAULT;
	return (size_t)n == len ? 0 : -EFAULT;
}

/* msg_name and msg_namelen, the first two fields of a msghdr: a pointer
 * and an int of the ABI's width (x86_64's struct msghdr; i386 and x32
 * have the kernel's compat_msghdr, 32-bit pointers). */
static size_t msghdr_len(enum sw_abi abi)
{
	return sw_abi_arg_bytes(abi) == 4 ? 28 : SW_MSGHDR_MAX;
}

int sw_tracee_read_addr(pid_t pid, const struct sw_arg_read *a,
			struct sw_addr_bytes *raw, char *buf, size_t size)
{
	uint64_t name = a->addr;
	int64_t len = a->len;
	int e;

	raw->hdr_len = raw->name_len = 0;
	if (a->kind == SW_ARG_MSGHDR) {
		size_t hl = msghdr_len(a->abi);

		/* The kernel copies the whole msghdr: unreadable, EFAULT. */
		if (!a->addr)
			return -ENODATA;
		if ((e = read_all(pid, a->addr, raw->b, hl)) < 0)
			return e;
		raw->hdr_len = (uint8_t)hl;
		{
			/* msg_name, a pointer of the ABI's width, then
			 * msg_namelen, an int. */
			size_t pw = hl == SW_MSGHDR_MAX ? 8 : 4;
			uint32_t p32;
			int32_t l;

			if (pw == 8) {
				memcpy(&name, raw->b, sizeof(name));
			} else {
				memcpy(&p32, raw->b, sizeof(p32));
				name = p32;
			}
			memcpy(&l, raw->b + pw, sizeof(l));
			len = l;
		}
		/* copy_msghdr_from_user(): a longer name is cut to a
		 * sockaddr_storage; a NULL one or 0 bytes is none (the
		 * connected peer's). */
		if (len > SW_SOCKADDR_MAX)
			len = SW_SOCKADDR_MAX;
	}
	/* move_addr_to_kernel(): a length outside 0..128 is EINVAL and
	 * reads nothing; NULL with bytes to read is the kernel's EFAULT:
	 * no address either way, and nothing to pin. */
	if (!name || len <= 0 || len > SW_SOCKADDR_MAX)
		return -ENODATA;
	if ((e = read_all(pid, name, raw->b + raw->hdr_len, (size_t)len)) < 0)
		return e;
	raw->name_len = (uint8_t)len;
	return sw_unix_addr_spell(raw->b + raw->hdr_len, (size_t)len, buf, size);
}

int sw_read_tracee_string_arg(pid_t pid, enum sw_abi abi, const char *name,
			      unsigned int i, const uint64_t args[6], char *buf,
			      size_t size)
{
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	struct sw_arg_read a = { .kind = SW_ARG_PATH, .abi = abi,
				 .addr = args[i] & mask };
	struct sw_addr_arg aa;

	if (sw_addr_arg(name, &aa) && aa.index == i) {
		a.kind = aa.kind;
		/* The kernel's int. */
		a.len = (int32_t)args[aa.len_index];
	}
	return sw_read_tracee_arg(&pid, &a, buf, size);
}

int sw_read_tracee_arg(void *pidp, const struct sw_arg_read *a, char *buf,
		       size_t size)
{
	struct sw_addr_bytes raw;

	if (a->kind == SW_ARG_SOCKADDR || a->kind == SW_ARG_MSGHDR)
		return sw_tracee_read_addr(*(pid_t *)pidp, a, &raw, buf, size);
	return sw_read_tracee_string(pidp, a->addr, buf, size);
}

int sw_tracee_write(pid_t pid, uint64_t addr, const void *buf, size_t len)
{
	return mem_do(MEM_WRITE, pid, addr, (void *)buf, len);
}

void sw_tracee_mem_release(void)
{
	struct reader *r = cur;

	if (!r)
		return;
	cur = NULL;
	/* The idle reader sees it and frees itself; nothing is stuck, so
	 * nothing is charged (r->charged stays false). */
	pthread_mutex_lock(&r->mu);
	r->state = MEM_ABANDONED;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

pid_t sw_tracee_mem_stalled(void)
{
	pid_t pid = stalled;

	stalled = 0;
	return pid;
}
