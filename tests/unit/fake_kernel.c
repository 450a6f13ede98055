// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fake kernel of fake_kernel.h: every sw_sys_* seam of engine/sys.h,
 * defined over scripted state.  Only kernel calls live here; the engine
 * under test is the real one (sysward-engine-fake).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/kcmp.h>
#include <linux/nsfs.h>
#include <stddef.h>
#include <sys/un.h>

#include "fake_kernel.h"
#include "trace/pathguard.h"
#include "sys.h"
#include "internal.h"
#include "decide/program.h"
#include "trace/trace.h"

#define FK_RSP		0x7ffc00100000ull
#define FK_RIP		0x401000ull
#define FK_CS		0x33

struct fk_call fk_calls[FK_MAX_CALLS];
size_t fk_n_calls;

static struct fk_task tasks[16];
static size_t n_tasks;
static struct { pid_t pid; int status; } queue[16];
static size_t n_queue;
static struct { pid_t pid; unsigned long msg; } evmsg[64];
static size_t n_evmsg;
/* The fake /proc: one entry per tid. */
struct fk_proc {
	pid_t tid, tgid, ppid, pgid;
	char state;
	char wchan[32];
	pid_t inner;		/* its number in ns, if nested */
	unsigned long ns;	/* 0: the root pid namespace only */
	int threads;
	uid_t uid;
	char syscall[64];
	unsigned long long sigpnd;	/* its own pending signals */
};
/* The tracees' sockets (fk_sock). */
static struct { pid_t tid; int fd; struct fk_sock s; } socks[8];
static size_t n_socks;
/* kcmp(KCMP_FILES) pairs that share a table. */
static struct { pid_t a, b; } shared_files[4];
static size_t n_shared_files;
/* kcmp(KCMP_FILE): a tracee's descriptor that is ours (fk_file_ours). */
static struct { pid_t pid; int fd; } our_files[4];
static size_t n_our_files;
static struct fk_proc procs[64];
static size_t n_procs;
/* The tracees' descriptors the fake /proc describes. */
static struct fk_tfd {
	pid_t tid;
	int fd;
	pid_t target;
	unsigned int flags;	/* pidfd_open's */
	bool dir;		/* /proc/<target>, not a pidfd */
} tfds[16];
static size_t n_tfds;
/* Our real descriptors standing for /proc/<pid>/ns/pid (level: which
 * namespace of pid's chain, 0 the root), as NS_GET_PARENT walks up. */
static struct { int fd; pid_t pid; int level; } nsfds[32];
static size_t n_nsfds;
/* Files the tracees' descriptors hold, and paths the fake's stat knows. */
static struct fk_fdfile {
	pid_t tid;		/* 0: a path */
	int fd;
	unsigned long fs, ino;
	char link[128];
} files[32];
static size_t n_files;
/* statx without the unique mount id (a kernel before 6.8) */
static bool old_statx;
static struct { char name[64]; unsigned long ino; } mqs[8];
static size_t n_mqs;
static struct { char kind[4]; char text[256]; } sysvipc[3];
static size_t n_sysvipc;
static struct { long req; pid_t pid; int e; bool always; } fails[8];
static size_t n_fails;
/* Our real descriptors the fake hands out, and whose they stand for:
 * a pidfd of pid (tfd -1), a copy of pid's descriptor tfd, or a peer's
 * pidfd (peer: pidfd_pid, ino). */
static struct {
	int fd;
	pid_t pid;
	int tfd;
	bool peer;
	pid_t peer_pid;
	uint64_t ino;
} fds[16];
static size_t n_fds;

static int fake_cpu;	/* what sched_getcpu() answers */
static unsigned int yield_us, readv_us;	/* fk_slow() */
static unsigned long n_yields;

void fk_reset(void)
{
	for (size_t i = 0; i < n_fds; i++)
		close(fds[i].fd);
	n_tasks = n_queue = n_evmsg = n_procs = n_fails = n_fds = fk_n_calls = 0;
	n_tfds = n_nsfds = n_files = n_mqs = n_sysvipc = n_socks = n_shared_files = 0;
	old_statx = false;
	n_our_files = 0;
	memset(tasks, 0, sizeof(tasks));
	fake_cpu = 0;
	yield_us = readv_us = 0;
	__atomic_store_n(&n_yields, 0, __ATOMIC_RELAXED);
	fk_proc(getpid(), getpid(), 1);
}

static struct fk_task *task_find(pid_t pid)
{
	for (size_t i = 0; i < n_tasks; i++)
		if (tasks[i].pid == pid)
			return &tasks[i];
	return NULL;
}

struct fk_task *fk_task(pid_t pid)
{
	struct fk_task *t = task_find(pid);

	if (t)
		return t;
	ck_assert_uint_lt(n_tasks, sizeof(tasks) / sizeof(tasks[0]));
	t = &tasks[n_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->regs.rsp = FK_RSP;
	t->regs.rip = FK_RIP;
	t->regs.cs = FK_CS;
	t->mem_base = FK_RSP - sizeof(t->mem);
	t->next_fd = 3;
	return t;
}

static struct fk_proc *proc_find(pid_t tid)
{
	for (size_t i = 0; i < n_procs; i++)
		if (procs[i].tid == tid)
			return &procs[i];
	return NULL;
}

/* An existing entry must be there: a test names who it changes. */
static struct fk_proc *proc_of(pid_t tid)
{
	struct fk_proc *p = proc_find(tid);

	ck_assert_ptr_nonnull(p);
	return p;
}

void fk_proc(pid_t tid, pid_t tgid, pid_t ppid)
{
	struct fk_proc *p = proc_find(tid);

	if (!p) {
		ck_assert_uint_lt(n_procs, sizeof(procs) / sizeof(procs[0]));
		p = &procs[n_procs++];
		*p = (struct fk_proc){ .tid = tid, .pgid = tgid, .state = 'S',
				       .threads = 1, .uid = 1000,
				       .syscall = "running" };
	}
	p->tgid = tgid;
	p->ppid = ppid;
}

void fk_proc_state(pid_t tid, char state, const char *syscall)
{
	struct fk_proc *p = proc_of(tid);

	p->state = state;
	snprintf(p->syscall, sizeof(p->syscall), "%s", syscall);
}

void fk_proc_threads(pid_t tid, int threads)
{
	proc_of(tid)->threads = threads;
}

void fk_proc_sigpnd(pid_t tid, unsigned long long mask)
{
	proc_of(tid)->sigpnd = mask;
}

void fk_proc_uid(pid_t tid, uid_t uid)
{
	proc_of(tid)->uid = uid;
}

void fk_files_shared(pid_t a, pid_t b)
{
	ck_assert_uint_lt(n_shared_files, sizeof(shared_files) / sizeof(shared_files[0]));
	shared_files[n_shared_files].a = a;
	shared_files[n_shared_files++].b = b;
}

void fk_file_ours(pid_t pid, int fd)
{
	ck_assert_uint_lt(n_our_files, sizeof(our_files) / sizeof(our_files[0]));
	our_files[n_our_files].pid = pid;
	our_files[n_our_files++].fd = fd;
}

void fk_sock(pid_t tid, int fd, const struct fk_sock *sk)
{
	for (size_t i = 0; i < n_socks; i++)
		if (socks[i].tid == tid && socks[i].fd == fd) {
			socks[i].s = *sk;
			return;
		}
	ck_assert_uint_lt(n_socks, sizeof(socks) / sizeof(socks[0]));
	socks[n_socks].tid = tid;
	socks[n_socks].fd = fd;
	socks[n_socks++].s = *sk;
}

void fk_proc_pgid(pid_t tid, pid_t pgid)
{
	proc_of(tid)->pgid = pgid;
}

void fk_proc_zombie(pid_t tid)
{
	proc_of(tid)->state = 'Z';
}

void fk_proc_wchan(pid_t tid, const char *wchan)
{
	snprintf(proc_of(tid)->wchan, sizeof(proc_of(tid)->wchan), "%s", wchan);
}

void fk_sysvipc(const char *kind, const int *ids, size_t n)
{
	size_t len, k = 0;

	/* A kind listed again: its list now. */
	while (k < n_sysvipc && strcmp(sysvipc[k].kind, kind))
		k++;
	ck_assert_uint_lt(k, sizeof(sysvipc) / sizeof(sysvipc[0]));
	snprintf(sysvipc[k].kind, sizeof(sysvipc[0].kind), "%s", kind);
	len = (size_t)snprintf(sysvipc[k].text, sizeof(sysvipc[0].text),
			       "       key      id  perms\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(sysvipc[k].text + len,
					sizeof(sysvipc[0].text) - len,
					"%10d %7d    600\n", 0x5000 + ids[i], ids[i]);
	if (k == n_sysvipc)
		n_sysvipc++;
}

void fk_proc_nested(pid_t tid, pid_t inner, unsigned long ns)
{
	struct fk_proc *p = proc_of(tid);

	p->inner = inner;
	p->ns = ns;
}

static void tfd(pid_t tid, int fd, pid_t target, unsigned int flags, bool dir)
{
	ck_assert_uint_lt(n_tfds, sizeof(tfds) / sizeof(tfds[0]));
	tfds[n_tfds++] = (struct fk_tfd){ tid, fd, target, flags, dir };
}

void fk_pidfd(pid_t tid, int fd, pid_t target, unsigned int flags)
{
	tfd(tid, fd, target, flags, false);
}

void fk_procdir_fd(pid_t tid, int fd, pid_t target)
{
	tfd(tid, fd, target, 0, true);
}

void fk_file(pid_t tid, int fd, unsigned long fs, const char *link,
	     unsigned long ino)
{
	ck_assert_uint_lt(n_files, sizeof(files) / sizeof(files[0]));
	files[n_files] = (struct fk_fdfile){ tid, fd, fs, ino, "" };
	snprintf(files[n_files++].link, sizeof(files[0].link), "%s", link);
}

void fk_file_gone(pid_t tid, int fd)
{
	for (size_t i = 0; i < n_files; i++)
		if (files[i].tid == tid && files[i].fd == fd) {
			files[i] = files[--n_files];
			return;
		}
}

void fk_path(const char *path, unsigned long fs, unsigned long ino)
{
	fk_file(0, -1, fs, path, ino);
}

void fk_mq(const char *name, unsigned long ino)
{
	ck_assert_uint_lt(n_mqs, sizeof(mqs) / sizeof(mqs[0]));
	snprintf(mqs[n_mqs].name, sizeof(mqs[0].name), "%s", name);
	mqs[n_mqs++].ino = ino;
}

/* The file /proc/<tid>/fd/<fd> (/proc/<tid>/cwd: fk_file()'s fd
 * AT_FDCWD), or a path fk_path named, or NULL. */
static const struct fk_fdfile *file_at(const char *path)
{
	int tid, fd, end = 0;

	if (sscanf(path, "/proc/%d/cwd%n", &tid, &end) == 1 && !path[end]) {
		for (size_t i = 0; i < n_files; i++)
			if (files[i].tid == tid && files[i].fd == AT_FDCWD)
				return &files[i];
		return NULL;
	}

	if (sscanf(path, "/proc/%d/fd/%d%n", &tid, &fd, &end) == 2 && !path[end]) {
		for (size_t i = 0; i < n_files; i++)
			if (files[i].tid == tid && files[i].fd == fd)
				return &files[i];
		return NULL;
	}
	for (size_t i = 0; i < n_files; i++)
		if (!files[i].tid && !strcmp(files[i].link, path))
			return &files[i];
	return NULL;
}

void fk_proc_gone(pid_t tid)
{
	struct fk_proc *p = proc_find(tid);

	if (p)
		*p = procs[--n_procs];
}

void fk_evmsg(pid_t pid, unsigned long msg)
{
	for (size_t i = 0; i < n_evmsg; i++)
		if (evmsg[i].pid == pid) {
			evmsg[i].msg = msg;
			return;
		}
	ck_assert_uint_lt(n_evmsg, sizeof(evmsg) / sizeof(evmsg[0]));
	evmsg[n_evmsg].pid = pid;
	evmsg[n_evmsg++].msg = msg;
}

void fk_queue(pid_t pid, int status)
{
	ck_assert_uint_lt(n_queue, sizeof(queue) / sizeof(queue[0]));
	queue[n_queue].pid = pid;
	queue[n_queue++].status = status;
}

void fk_fail(long req, pid_t pid, int e, bool always)
{
	ck_assert_uint_lt(n_fails, sizeof(fails) / sizeof(fails[0]));
	fails[n_fails].req = req;
	fails[n_fails].pid = pid;
	fails[n_fails].e = e;
	fails[n_fails++].always = always;
}

/* Log a request; true (errno set) if it is to fail. */
static bool request(long req, pid_t pid, uint64_t addr, uint64_t data)
{
	if (fk_n_calls < FK_MAX_CALLS)
		fk_calls[fk_n_calls++] = (struct fk_call){ req, pid, addr, data };
	for (size_t i = 0; i < n_fails; i++) {
		if (fails[i].req != req || fails[i].pid != pid)
			continue;
		errno = fails[i].e;
		if (!fails[i].always)
			fails[i] = fails[--n_fails];
		return true;
	}
	return false;
}

size_t fk_count(long req, pid_t pid)
{
	size_t n = 0;

	for (size_t i = 0; i < fk_n_calls; i++)
		n += fk_calls[i].req == req && fk_calls[i].pid == pid;
	return n;
}

bool fk_called(long req, pid_t pid, uint64_t data)
{
	for (size_t i = 0; i < fk_n_calls; i++)
		if (fk_calls[i].req == req && fk_calls[i].pid == pid &&
		    fk_calls[i].data == data)
			return true;
	return false;
}

long fk_last(long req, pid_t pid)
{
	for (size_t i = fk_n_calls; i-- > 0;)
		if (fk_calls[i].req == req && fk_calls[i].pid == pid)
			return (long)i;
	return -1;
}

/* ---- memory ------------------------------------------------------------ */

static void *mem_at(struct fk_task *t, uint64_t addr, size_t len)
{
	if (!t || addr < t->mem_base || addr + len > t->mem_base + sizeof(t->mem) ||
	    addr + len < addr)
		return NULL;
	return t->mem + (addr - t->mem_base);
}

static ssize_t vm_io(long req, pid_t pid, const struct iovec *local,
		     const struct iovec *remote, bool write)
{
	void *p;

	if (request(req, pid, (uint64_t)(uintptr_t)remote->iov_base, remote->iov_len))
		return -1;
	p = mem_at(task_find(pid), (uint64_t)(uintptr_t)remote->iov_base,
		   remote->iov_len);
	if (!p) {
		errno = task_find(pid) ? EFAULT : ESRCH;
		return -1;
	}
	if (write)
		memcpy(p, local->iov_base, remote->iov_len);
	else
		memcpy(local->iov_base, p, remote->iov_len);
	return (ssize_t)remote->iov_len;
}

/* ---- where the reader runs (strings.c) --------------------------------- */

void fk_cpu(int cpu)
{
	fake_cpu = cpu;
}

int sw_sys_sched_getcpu(void)
{
	return fake_cpu;
}

/* Logged, never made: the test's own threads stay where they are.
 * Only a set of one CPU is expected. */
int sw_sys_sched_setaffinity(pid_t tid, size_t size, const cpu_set_t *set)
{
	int cpu = -1;

	ck_assert_int_eq(CPU_COUNT_S(size, set), 1);
	for (int i = 0; i < (int)(size * 8) && cpu < 0; i++)
		if (CPU_ISSET_S(i, size, set))
			cpu = i;
	return request(FK_AFFINITY, 0, (uint64_t)tid, (uint64_t)cpu) ? -1 : 0;
}

void fk_slow(unsigned int y, unsigned int r)
{
	yield_us = y;
	readv_us = r;
}

unsigned long fk_yields(void)
{
	return __atomic_load_n(&n_yields, __ATOMIC_RELAXED);
}

/* Real (the reader is a real thread of the test), counted, and as slow
 * as fk_slow() says. */
int sw_sys_sched_yield(void)
{
	__atomic_add_fetch(&n_yields, 1, __ATOMIC_RELAXED);
	if (yield_us)
		usleep(yield_us);
	return sched_yield();
}

ssize_t sw_sys_process_vm_readv(pid_t pid, const struct iovec *local,
				unsigned long n_local, const struct iovec *remote,
				unsigned long n_remote, unsigned long flags)
{
	(void)n_local;
	(void)n_remote;
	(void)flags;
	if (readv_us)
		usleep(readv_us);
	return vm_io(FK_READV, pid, local, remote, false);
}

ssize_t sw_sys_process_vm_writev(pid_t pid, const struct iovec *local,
				 unsigned long n_local, const struct iovec *remote,
				 unsigned long n_remote, unsigned long flags)
{
	(void)n_local;
	(void)n_remote;
	(void)flags;
	return vm_io(FK_WRITEV, pid, local, remote, true);
}

void fk_poke(pid_t pid, uint64_t addr, const void *buf, size_t len)
{
	void *p = mem_at(fk_task(pid), addr, len);

	ck_assert_ptr_nonnull(p);
	memcpy(p, buf, len);
}

/* ---- the syscalls the guard's setup injects, emulated ------------------- */

static int64_t emulate_recvmsg(struct fk_task *t)
{
	struct msghdr *m = mem_at(t, t->regs.rsi, sizeof(*m));
	struct cmsghdr *c;
	struct iovec *iov;
	char *byte;
	int fd;

	if (!m)
		return -EFAULT;
	if (!t->guard_sent)
		return -EAGAIN;
	iov = mem_at(t, (uint64_t)(uintptr_t)m->msg_iov, sizeof(*iov));
	byte = iov ? mem_at(t, (uint64_t)(uintptr_t)iov->iov_base, 1) : NULL;
	c = mem_at(t, (uint64_t)(uintptr_t)m->msg_control, CMSG_SPACE(sizeof(int)));
	if (!byte || !c || m->msg_controllen < CMSG_SPACE(sizeof(int)))
		return -EFAULT;
	*byte = 'g';
	t->guard_sent = false;
	fd = t->guard_tfd = t->next_fd++;
	m->msg_flags = t->recv == FK_RECV_CTRUNC ? MSG_CTRUNC : 0;
	if (t->recv == FK_RECV_NO_FD) {
		m->msg_controllen = 0;
		return 1;
	}
	if (t->recv == FK_RECV_BAD_FD)
		fd = -1;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	m->msg_controllen = CMSG_SPACE(sizeof(int));
	return 1;
}

static int64_t emulate(struct fk_task *t)
{
	const struct user_regs_struct *r = &t->regs;
	int *sv;

	switch ((long)r->orig_rax) {
	case __NR_close:
		fk_file_gone(t->pid, (int)r->rdi);
		return 0;
	case __NR_socketpair:
		if (t->pair_forged)
			return 0;
		if (!(sv = mem_at(t, r->r10, 2 * sizeof(int))))
			return -EFAULT;
		sv[0] = t->next_fd++;
		sv[1] = t->next_fd++;
		/* each end's peer credentials its maker's (unix_socketpair()) */
		for (int i = 0; i < 2; i++)
			fk_sock(t->pid, sv[i], &(struct fk_sock){
				.domain = AF_UNIX, .type = SOCK_DGRAM, .cred_pid = t->pid });
		return 0;
	case __NR_recvmsg:
		return emulate_recvmsg(t);
	case __NR_mmap:
		if (r->r8 != (uint64_t)t->guard_tfd)
			return -EBADF;
		t->guard_mapped = true;
		return (int64_t)r->rdi;
	case SYS_mseal:
		t->guard_sealed = t->guard_mapped && r->rdi == SW_GUARD_ADDR;
		return t->guard_sealed ? 0 : -EINVAL;
	case -1:
		return -ENOSYS;		/* skipped: what the kernel leaves */
	default:
		return 0;
	}
}

static void syscall_stop(pid_t pid)
{
	fk_queue(pid, FK_STOPPED(SIGTRAP | 0x80, 0));
}

static void entry_info(struct fk_task *t)
{
	const struct user_regs_struct *r = &t->regs;

	memset(&t->info, 0, sizeof(t->info));
	t->info.op = SW_PTRACE_SYSCALL_INFO_ENTRY;
	t->info.arch = 0xc000003e;	/* AUDIT_ARCH_X86_64 */
	t->info.instruction_pointer = r->rip;
	t->info.stack_pointer = r->rsp;
	t->info.entry.nr = r->orig_rax;
	t->info.entry.args[0] = r->rdi;
	t->info.entry.args[1] = r->rsi;
	t->info.entry.args[2] = r->rdx;
	t->info.entry.args[3] = r->r10;
	t->info.entry.args[4] = r->r8;
	t->info.entry.args[5] = r->r9;
	syscall_stop(t->pid);
}

void fk_entry(pid_t pid, long nr, const uint64_t a[6])
{
	struct fk_task *t = fk_task(pid);
	struct user_regs_struct *r = &t->regs;

	r->rip += 16;		/* another instruction, past its syscall */
	r->orig_rax = (uint64_t)nr;
	r->rax = (uint64_t)-ENOSYS;
	r->rdi = a[0];
	r->rsi = a[1];
	r->rdx = a[2];
	r->r10 = a[3];
	r->r8 = a[4];
	r->r9 = a[5];
	entry_info(t);
}

void fk_next_entry(pid_t pid)
{
	struct fk_task *t = fk_task(pid);

	/* The syscall instruction (2 bytes) runs: nr from rax. */
	t->regs.rip += 2;
	t->regs.orig_rax = t->regs.rax;
	t->regs.rax = (uint64_t)-ENOSYS;
	entry_info(t);
}

void fk_exit(pid_t pid)
{
	struct fk_task *t = fk_task(pid);
	int64_t rv = t->rval_forced ? t->rval : emulate(t);

	t->rval_forced = false;
	t->regs.rax = (uint64_t)rv;
	memset(&t->info, 0, sizeof(t->info));
	t->info.op = SW_PTRACE_SYSCALL_INFO_EXIT;
	t->info.arch = 0xc000003e;
	t->info.instruction_pointer = t->regs.rip;
	t->info.exit.rval = rv;
	t->info.exit.is_error = rv < 0 && rv >= -4095;
	syscall_stop(pid);
}

void fk_seccomp(pid_t pid, uint32_t audit_arch, uint64_t nr,
		const uint64_t a[6], uint64_t ip)
{
	struct fk_task *t = fk_task(pid);

	memset(&t->info, 0, sizeof(t->info));
	t->info.op = SW_PTRACE_SYSCALL_INFO_SECCOMP;
	t->info.arch = audit_arch;
	t->info.instruction_pointer = ip;
	t->info.seccomp.nr = nr;
	memcpy(t->info.seccomp.args, a, sizeof(t->info.seccomp.args));
	t->regs.orig_rax = nr;
	t->regs.rip = ip;
}

/* ---- ptrace, wait, kill ------------------------------------------------- */

static void set_info(struct fk_task *t, const struct sw_ptrace_syscall_info *in)
{
	ck_assert_uint_lt(t->n_sets, sizeof(t->sets) / sizeof(t->sets[0]));
	t->sets[t->n_sets++] = *in;
	if (in->op == SW_PTRACE_SYSCALL_INFO_SECCOMP) {
		t->regs.orig_rax = in->seccomp.nr;
		t->info.seccomp = in->seccomp;
	} else if (in->op == SW_PTRACE_SYSCALL_INFO_EXIT) {
		t->regs.rax = (uint64_t)in->exit.rval;
		t->info.exit = in->exit;
	}
}

long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data)
{
	struct fk_task *t;

	if (request(req, pid, (uint64_t)(uintptr_t)addr, (uint64_t)(uintptr_t)data))
		return -1;
	t = task_find(pid);
	switch (req) {
	case PTRACE_GETEVENTMSG:
		for (size_t i = 0; i < n_evmsg; i++)
			if (evmsg[i].pid == pid) {
				*(unsigned long *)data = evmsg[i].msg;
				return 0;
			}
		break;
	case SW_PTRACE_GET_SYSCALL_INFO:
		if (!t)
			break;
		memcpy(data, &t->info, (size_t)addr < sizeof(t->info) ?
				       (size_t)addr : sizeof(t->info));
		return sizeof(t->info);
	case SW_PTRACE_SET_SYSCALL_INFO:
		ck_assert_uint_eq((size_t)addr, sizeof(struct sw_ptrace_syscall_info));
		if (!t)
			break;
		set_info(t, data);
		return 0;
	case PTRACE_GETREGS:
		if (!t)
			break;
		memcpy(data, &t->regs, sizeof(t->regs));
		return 0;
	case PTRACE_SETREGS:
		if (!t)
			break;
		memcpy(&t->regs, data, sizeof(t->regs));
		ck_assert_uint_lt(t->n_setregs, sizeof(t->setregs) / sizeof(t->setregs[0]));
		t->setregs[t->n_setregs++] = t->regs;
		return 0;
	case PTRACE_GETSIGINFO:
		if (!t)
			break;
		memcpy(data, &t->si, sizeof(t->si));
		return 0;
	case PTRACE_SETSIGINFO:
		if (!t)
			break;
		memcpy(&t->set_si, data, sizeof(t->set_si));
		t->n_setsi++;
		return 0;
	case PTRACE_POKEUSER:
		if (!t || (size_t)addr + 8 > sizeof(t->regs))
			break;
		memcpy((char *)&t->regs + (size_t)addr, &data, 8);
		return 0;
	case 0x420a:	/* PTRACE_GETSIGMASK */
		if (!t)
			break;
		ck_assert_uint_eq((size_t)addr, 8);
		memcpy(data, &t->sigmask, 8);
		return 0;
	case 0x420b:	/* PTRACE_SETSIGMASK */
		if (!t)
			break;
		ck_assert_uint_eq((size_t)addr, 8);
		memcpy(&t->sigmask, data, 8);
		t->n_setmask++;
		return 0;
	default:
		/* CONT, SYSCALL, LISTEN: logged, the script says what next. */
		return 0;
	}
	errno = ESRCH;
	return -1;
}

pid_t sw_sys_waitpid(pid_t pid, int *status, int options)
{
	(void)options;
	if (!n_queue) {
		errno = ECHILD;
		return -1;
	}
	*status = queue[0].status;
	pid = queue[0].pid;
	memmove(&queue[0], &queue[1], --n_queue * sizeof(queue[0]));
	return pid;
}

/* Does a process pid (> 0), or a group -pid (< 0), exist? */
static bool exists(pid_t pid)
{
	if (pid > 0)
		return proc_find(pid) || task_find(pid);
	for (size_t i = 0; i < n_procs; i++)
		if (procs[i].pgid == -pid)
			return true;
	return false;
}

int sw_sys_kill(pid_t pid, int sig)
{
	if (request(FK_KILL, pid, 0, (uint64_t)sig))
		return -1;
	/* Signal 0 asks whether the target exists (reach.c's refusal). */
	if (sig == 0 && !exists(pid)) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

int sw_sys_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	const struct fk_proc *p = proc_find(tid);

	*tgid = p ? p->tgid : 0;
	*ppid = p ? p->ppid : 0;
	return p ? 0 : -ENOENT;
}

/* ---- descriptors: real ones of ours, standing for the tracee's ---------- */

static int our_fd_of(int fd, pid_t pid, int tfd)
{
	if (fd < 0)
		return -1;
	ck_assert_uint_lt(n_fds, sizeof(fds) / sizeof(fds[0]));
	/* dup: the engine closes what it gets, fk_reset closes ours */
	fds[n_fds].fd = fd;
	fds[n_fds].tfd = tfd;
	fds[n_fds].peer = false;
	fds[n_fds++].pid = pid;
	return dup(fd);
}

static int our_fd(int fd, pid_t pid)
{
	return our_fd_of(fd, pid, -1);
}

size_t fk_fds_held(void)
{
	return n_fds;
}

/* Which of fds[] a descriptor the engine holds (a dup) stands for. */
static int fd_index(int fd)
{
	struct stat a, b;

	if (fstat(fd, &a) < 0)
		return -1;
	for (size_t i = 0; i < n_fds; i++)
		if (fstat(fds[i].fd, &b) == 0 && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			return (int)i;
	return -1;
}

static pid_t whose(int fd)
{
	int i = fd_index(fd);

	return i < 0 ? 0 : fds[i].pid;
}

/* The tracee socket our copy fd stands for, or NULL. */
static struct fk_sock *sock_of_fd(int fd)
{
	int i = fd_index(fd);

	for (size_t k = 0; i >= 0 && k < n_socks; k++)
		if (socks[k].tid == fds[i].pid && socks[k].fd == fds[i].tfd)
			return &socks[k].s;
	return NULL;
}

int sw_sys_memfd_create(const char *name, unsigned int flags)
{
	if (request(FK_MEMFD, 0, 0, flags))
		return -1;
	/* A real one: the engine maps and writes the guard it makes. */
	return (int)syscall(SYS_memfd_create, name, flags);
}

/* A descriptor of ours standing for a pidfd: one of its own (fd_index
 * tells them apart by inode; /dev/null's is the ns fds'). */
static int fake_pidfd(void)
{
	return (int)syscall(SYS_memfd_create, "fk-pidfd", MFD_CLOEXEC);
}

int sw_sys_pidfd_open(pid_t pid, unsigned int flags)
{
	if (request(FK_PIDFD_OPEN, pid, 0, flags))
		return -1;
	if (!task_find(pid)) {
		errno = ESRCH;
		return -1;
	}
	return our_fd(fake_pidfd(), pid);
}

int sw_sys_pidfd_getfd(int pidfd, int fd, unsigned int flags)
{
	pid_t pid = whose(pidfd);

	(void)flags;
	if (request(FK_GETFD, pid, (uint64_t)fd, 0))
		return -1;
	return our_fd_of(socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), pid, fd);
}

/* A tracee socket's options (fk_sock); another descriptor is none. */
int sw_sys_getsockopt(int fd, int level, int opt, void *val, socklen_t *len)
{
	struct fk_sock *sk = sock_of_fd(fd);
	int v;

	if (!sk || level != SOL_SOCKET) {
		errno = ENOTSOCK;
		return -1;
	}
	switch (opt) {
	case SO_DOMAIN:
		v = sk->domain;
		break;
	case SO_TYPE:
		v = sk->type;
		break;
	case SO_PEERCRED: {
		struct ucred cr = { sk->cred_pid, sk->uid, sk->uid };

		ck_assert_uint_ge(*len, sizeof(cr));
		memcpy(val, &cr, sizeof(cr));
		*len = sizeof(cr);
		return 0;
	}
	case 77 /* SO_PEERPIDFD */:
		if (sk->no_pidfd) {
			errno = EINVAL;
			return -1;
		}
		v = our_fd(fake_pidfd(), 0);
		ck_assert_int_ge(v, 0);
		fds[n_fds - 1].peer = true;
		fds[n_fds - 1].peer_pid = sk->pidfd_pid;
		fds[n_fds - 1].ino = FK_PIDFS_INO(sk->cred_pid);
		break;
	default:
		errno = ENOPROTOOPT;
		return -1;
	}
	ck_assert_uint_ge(*len, sizeof(v));
	memcpy(val, &v, sizeof(v));
	*len = sizeof(v);
	return 0;
}

int sw_sys_getpeername(int fd, struct sockaddr *sa, socklen_t *len)
{
	struct fk_sock *sk = sock_of_fd(fd);
	struct sockaddr_un u = { .sun_family = AF_UNIX };
	socklen_t n;

	if (!sk || !sk->name) {
		errno = ENOTCONN;
		return -1;
	}
	snprintf(u.sun_path, sizeof(u.sun_path), "%s", sk->name);
	n = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(sk->name) + 1);
	memcpy(sa, &u, *len < n ? *len : n);
	*len = n;
	return 0;
}

int sw_sys_shutdown(int fd, int how)
{
	int i = fd_index(fd);

	(void)how;
	if (request(FK_SHUTDOWN, i < 0 ? 0 : fds[i].pid,
		    i < 0 ? 0 : (uint64_t)fds[i].tfd, 0))
		return -1;
	return 0;
}

int sw_sys_fcntl(int fd, int cmd, long arg)
{
	struct fk_sock *sk = sock_of_fd(fd);
	int i = fd_index(fd);

	if (!sk) {
		errno = EBADF;
		return -1;
	}
	if (cmd == F_GETFL)
		return sk->flags;
	if (request(FK_SETFL, fds[i].pid, (uint64_t)fds[i].tfd, (uint64_t)arg))
		return -1;
	sk->flags = (int)arg;
	return 0;
}

ssize_t sw_sys_sendmsg(int sock, const struct msghdr *msg, int flags)
{
	struct cmsghdr *c = CMSG_FIRSTHDR(msg);
	struct fk_task *t = task_find(whose(sock));
	struct stat st;
	int fd = -1;

	(void)flags;
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (request(FK_SENDMSG, t ? t->pid : 0, 0, (uint64_t)fd))
		return -1;
	if (!t || fstat(fd, &st) < 0) {
		errno = EBADF;
		return -1;
	}
	t->guard_sent = true;
	t->guard_ino = (unsigned long)st.st_ino;
	t->guard_maj = major(st.st_dev);
	t->guard_min = minor(st.st_dev);
	return 1;
}

long sw_sys_kcmp(pid_t a, pid_t b, int type, unsigned long x, unsigned long y)
{
	(void)x;
	if (request(FK_KCMP, a, 0, (uint64_t)b))
		return -1;
	if (type == KCMP_FILE)
		for (size_t i = 0; i < n_our_files; i++)
			if (a == getpid() && our_files[i].pid == b &&
			    our_files[i].fd == (int)y)
				return 0;
	if (type == KCMP_FILES)
		for (size_t i = 0; i < n_shared_files; i++)
			if ((shared_files[i].a == a && shared_files[i].b == b) ||
			    (shared_files[i].a == b && shared_files[i].b == a))
				return 0;
	return 1;	/* two mms, two descriptor tables */
}

/* /proc/<pid>/smaps as the guard's mapping leaves it; nothing else. */
FILE *sw_sys_fopen(const char *path, const char *mode)
{
	struct fk_task *t;
	int pid = 0;
	char name[16] = "";

	if (sscanf(path, "/proc/%d/%15s", &pid, name) != 2)
		pid = 0;
	if (request(FK_FOPEN, pid, 0, 0))
		return NULL;
	if (!strncmp(path, "/proc/sysvipc/", 14)) {
		for (size_t i = 0; i < n_sysvipc; i++)
			if (!strcmp(sysvipc[i].kind, path + 14))
				return fmemopen(sysvipc[i].text, strlen(sysvipc[i].text), "r");
		errno = ENOENT;
		return NULL;
	}
	t = task_find(pid);
	if (!t || strcmp(name, "smaps")) {
		errno = ENOENT;
		return NULL;
	}
	if (t->guard_mapped)
		snprintf(t->smaps, sizeof(t->smaps),
			 "%llx-%llx r--s 00000000 %02x:%02x %lu /memfd:sysward-pathguard (deleted)\n"
			 "Size: %u kB\nVmFlags: rd sh mr%s\n",
			 SW_GUARD_ADDR, SW_GUARD_ADDR + SW_GUARD_SIZE, t->guard_maj,
			 t->guard_min, t->guard_ino, SW_GUARD_SIZE / 1024,
			 t->guard_sealed ? " sl" : "");
	else
		snprintf(t->smaps, sizeof(t->smaps), "%s", "00400000-00401000 r-xp 00000000 08:01 12 /bin/x\n");
	return fmemopen(t->smaps, strlen(t->smaps), mode[0] == 'r' ? "r" : mode);
}

/* ---- the fake /proc ------------------------------------------------------ */

/* The tracee's descriptor /proc/<tid>/<kind>/<fd> names, or NULL. */
static const struct fk_tfd *tfd_path(const char *path, const char *kind, bool dir)
{
	char k[16];
	int tid, fd, end = 0;

	if (sscanf(path, "/proc/%d/%15[a-z]/%d%n", &tid, k, &fd, &end) != 3 ||
	    path[end] || strcmp(k, kind))
		return NULL;
	for (size_t i = 0; i < n_tfds; i++)
		if (tfds[i].tid == tid && tfds[i].fd == fd && tfds[i].dir == dir)
			return &tfds[i];
	return NULL;
}

/* The pid a /proc path is about; 0 if none. */
static pid_t path_pid(const char *path)
{
	int pid;

	return sscanf(path, "/proc/%d", &pid) == 1 ? pid : 0;
}

/* "key:\tN[\tM]": pid's number, and its inner one if it is nested. */
static int ns_line(char *buf, size_t size, const char *key, const struct fk_proc *p,
		   pid_t of)
{
	const struct fk_proc *o = proc_find(of);

	if (!p->ns)
		return snprintf(buf, size, "%s:\t%d\n", key, of);
	return snprintf(buf, size, "%s:\t%d\t%d\n", key, of, o ? o->inner : 0);
}

static ssize_t status_text(const struct fk_proc *p, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "State:\t%c\nTgid:\t%d\nPPid:\t%d\n"
				    "Uid:\t%u\t%u\t%u\t%u\nThreads:\t%d\nSigPnd:\t%016llx\n",
				    p->state, p->tgid, p->ppid, p->uid, p->uid,
				    p->uid, p->uid, p->threads, p->sigpnd);

	n += (size_t)ns_line(buf + n, size - n, "NStgid", p, p->tgid);
	n += (size_t)ns_line(buf + n, size - n, "NSpid", p, p->tid);
	n += (size_t)ns_line(buf + n, size - n, "NSpgid", p, p->pgid);
	ck_assert_uint_lt(n, size);
	return (ssize_t)n;
}

ssize_t sw_sys_proc_read(const char *path, char *buf, size_t size)
{
	const struct fk_proc *p = proc_find(path_pid(path));
	const struct fk_tfd *f;
	char name[16] = "";

	buf[0] = '\0';
	if (request(FK_PROC_READ, path_pid(path), 0, 0))
		return -errno;
	if ((f = tfd_path(path, "fdinfo", false)))
		return snprintf(buf, size, "pos:\t0\nflags:\t%o\nmnt_id:\t15\nino:\t1\nPid:\t%d\n",
				f->flags | O_RDWR, f->target);
	if ((f = tfd_path(path, "fdinfo", true)))
		return snprintf(buf, size, "pos:\t0\nflags:\t%o\n", O_DIRECTORY);
	if (p && sscanf(path, "/proc/%*d/%15s", name) == 1 && !strcmp(name, "status"))
		return status_text(p, buf, size);
	if (p && !strcmp(name, "wchan") && p->wchan[0])
		return snprintf(buf, size, "%s", p->wchan);
	if (p && !strcmp(name, "stat"))
		return snprintf(buf, size, "%d (fake) %c 1 1 1 0 -1\n", p->tid, p->state);
	if (p && !strcmp(name, "syscall"))
		return snprintf(buf, size, "%s\n", p->syscall);
	{
		/* our own pidfds: a peer's (peers.c) */
		int fd, end = 0;

		if (sscanf(path, "/proc/self/fdinfo/%d%n", &fd, &end) == 1 && !path[end]) {
			int i = fd_index(fd);

			if (i >= 0 && fds[i].peer)
				return snprintf(buf, size, "pos:\t0\nflags:\t02000002\nPid:\t%d\n",
						fds[i].peer_pid);
		}
	}
	return -ENOENT;
}

/* The id of pid's pid namespace level (0 the root one). */
static unsigned long ns_id(const struct fk_proc *p, int level)
{
	return level > 0 ? p->ns : FK_NS_ROOT;
}

/* The level of p's own pid namespace. */
static int own_level(const struct fk_proc *p)
{
	return p->ns ? 1 : 0;
}

/* What follows /proc/<pid> in path ("" for the directory itself). */
static void proc_rest(const char *path, char rest[32])
{
	rest[0] = '\0';
	sscanf(path, "/proc/%*d%31s", rest);
}

#define FK_NSFS_DEV	0xfe01
#define FK_PROC_DEV	0xfe02

static void ident(struct stat *st, dev_t dev, unsigned long ino, mode_t mode)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = dev;
	st->st_ino = ino;
	st->st_mode = mode;
}

static dev_t fs_dev(unsigned long fs)
{
	/* FUSE: an anonymous device, as fusectl names its connection */
	if (fs == FK_FUSE_MAGIC)
		return makedev(0, FK_FUSE_MINOR);
	return fs == FK_PROC_MAGIC ? FK_PROC_DEV : (dev_t)(0xfd00 + (fs & 0xff));
}

int sw_sys_stat(const char *path, struct stat *st)
{
	const struct fk_proc *p = proc_find(path_pid(path));
	const struct fk_tfd *f = tfd_path(path, "fd", true);
	const struct fk_fdfile *ff = file_at(path);
	char rest[32] = "";

	if (request(FK_STAT, path_pid(path), 0, 0))
		return -1;
	if (ff) {
		/* pipefs: a FIFO's */
		ident(st, fs_dev(ff->fs), ff->ino,
		      ff->fs == FK_PIPEFS_MAGIC ? S_IFIFO | 0600 : S_IFREG | 0644);
		return 0;
	}
	if (!strcmp(path, "/proc")) {
		ident(st, FK_PROC_DEV, 1, S_IFDIR | 0555);
		return 0;
	}
	if (f)
		p = proc_find(f->target);
	else
		proc_rest(path, rest);
	errno = ENOENT;
	if (!p)
		return -1;
	if (!rest[0])		/* /proc/<pid>, or a descriptor of it */
		ident(st, FK_PROC_DEV, (unsigned long)p->tid, S_IFDIR | 0555);
	else if (!strcmp(rest, "/ns/pid"))
		ident(st, FK_NSFS_DEV, ns_id(p, own_level(p)), S_IFREG | 0444);
	else if (!strcmp(rest, "/status"))
		ident(st, FK_PROC_DEV, (unsigned long)p->tid << 8, S_IFREG | 0444);
	else
		return -1;
	return 0;
}

static int ns_fd(pid_t pid, int level)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	/* The engine closes it; its number may come back. */
	for (size_t i = 0; i < n_nsfds; i++)
		if (nsfds[i].fd == fd) {
			nsfds[i].pid = pid;
			nsfds[i].level = level;
			return fd;
		}
	ck_assert_uint_lt(n_nsfds, sizeof(nsfds) / sizeof(nsfds[0]));
	nsfds[n_nsfds].fd = fd;
	nsfds[n_nsfds].pid = pid;
	nsfds[n_nsfds++].level = level;
	return fd;
}

static int ns_find(int fd)
{
	for (size_t i = 0; i < n_nsfds; i++)
		if (nsfds[i].fd == fd && proc_find(nsfds[i].pid))
			return (int)i;
	errno = EBADF;
	return -1;
}

/* /proc/<pid>/ns/pid only. */
int sw_sys_open(const char *path, int flags)
{
	const struct fk_proc *p = proc_find(path_pid(path));
	char rest[32] = "";

	(void)flags;
	if (request(FK_OPEN, path_pid(path), 0, 0))
		return -1;
	proc_rest(path, rest);
	if (!p || strcmp(rest, "/ns/pid")) {
		errno = ENOENT;
		return -1;
	}
	return ns_fd(p->tid, own_level(p));
}

int sw_sys_fstat(int fd, struct stat *st)
{
	int i, k = fd_index(fd);

	/* a message queue the supervisor opened (sw_sys_mq_open) */
	for (size_t f = 0; f < n_files; f++)
		if (files[f].tid == -fd - 1 && files[f].fd == fd) {
			ident(st, fs_dev(files[f].fs), files[f].ino, S_IFREG | 0600);
			return 0;
		}

	/* A pidfd: its process's pidfs inode. */
	if (k >= 0 && (fds[k].peer || fds[k].tfd < 0)) {
		ident(st, FK_PROC_DEV + 1,
		      fds[k].peer ? fds[k].ino : FK_PIDFS_INO(fds[k].pid),
		      S_IFREG | 0600);
		return 0;
	}
	i = ns_find(fd);
	if (i < 0)
		return -1;
	ident(st, FK_NSFS_DEV, ns_id(proc_find(nsfds[i].pid), nsfds[i].level),
	      S_IFREG | 0444);
	return 0;
}

/* NS_GET_PARENT: the root namespace has none (the kernel: EPERM). */
int sw_sys_ioctl(int fd, unsigned long req)
{
	int i = ns_find(fd);

	ck_assert_uint_eq(req, NS_GET_PARENT);
	if (i < 0)
		return -1;
	if (nsfds[i].level == 0) {
		errno = EPERM;
		return -1;
	}
	return ns_fd(nsfds[i].pid, nsfds[i].level - 1);
}

pid_t sw_sys_getpgid(pid_t pid)
{
	const struct fk_proc *p = proc_find(pid);

	if (request(FK_GETPGID, pid, 0, 0))
		return -1;
	if (!p) {
		errno = ESRCH;
		return -1;
	}
	return p->pgid;
}

int sw_sys_statfs(const char *path, struct statfs *st)
{
	const struct fk_fdfile *ff = file_at(path);

	if (request(FK_STATFS, path_pid(path), 0, 0))
		return -1;
	if (!ff) {
		errno = ENOENT;
		return -1;
	}
	memset(st, 0, sizeof(*st));
	st->f_type = (__fsword_t)ff->fs;
	return 0;
}

/* statx: a file fk_file named, on a mount whose unique id is its file
 * system's magic (what statmount then answers). */

void fk_old_statx(bool old)
{
	old_statx = old;
}

int sw_sys_statx(const char *path, int flags, unsigned int mask, struct statx *stx)
{
	const struct fk_fdfile *ff = file_at(path);
	struct stat st;

	(void)mask;
	if (request(FK_STATX, path_pid(path), 0, (uint64_t)flags))
		return -1;
	if (!ff) {
		errno = ENOENT;
		return -1;
	}
	/* as the fake's stat answers */
	ident(&st, fs_dev(ff->fs), ff->ino,
	      ff->fs == FK_PIPEFS_MAGIC ? S_IFIFO | 0600 : S_IFREG | 0644);
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_TYPE | STATX_MODE | STATX_INO | (old_statx ? 0 : 0x4000u);
	stx->stx_dev_major = major(st.st_dev);
	stx->stx_dev_minor = minor(st.st_dev);
	stx->stx_ino = st.st_ino;
	stx->stx_mode = (uint16_t)st.st_mode;
	stx->stx_mnt_id = old_statx ? 1 : ff->fs;
	return 0;
}

int sw_sys_statmount(uint64_t mnt_id, uint64_t mnt_ns_id, uint64_t mask,
		     void *buf, size_t size)
{
	uint64_t *w = buf;

	if (request(FK_STATMOUNT, 0, mnt_id, mnt_ns_id))
		return -1;
	memset(buf, 0, size);
	w[1] = mask;		/* struct statmount: mask at 8, sb_magic at 24 */
	w[3] = mnt_id;
	return 0;
}

int sw_sys_ioctl_u64(int fd, unsigned long req, uint64_t *ret)
{
	(void)fd;
	(void)req;
	*ret = 0x4242;
	return 0;
}

int sw_sys_mq_open(const char *name, int flags)
{
	(void)flags;
	for (size_t i = 0; i < n_mqs; i++)
		if (!strcmp(mqs[i].name, name)) {
			/* a descriptor of ours whose fstat the fake answers */
			int fd = our_fd(open("/dev/null", O_RDONLY | O_CLOEXEC), 0);

			fk_file(-fd - 1, fd, FK_MQUEUE_MAGIC, name, mqs[i].ino);
			return fd;
		}
	errno = ENOENT;
	return -1;
}

int sw_sys_mq_unlink(const char *name)
{
	for (size_t i = 0; i < n_mqs; i++)
		if (!strcmp(mqs[i].name, name)) {
			request(FK_MQ_UNLINK, 0, 0, mqs[i].ino);
			mqs[i] = mqs[--n_mqs];
			return 0;
		}
	errno = ENOENT;
	return -1;
}

/* /proc/<tid>/fd/<n> of a /proc/<pid> directory or of a file fk_file
 * named; nothing else. */
ssize_t sw_sys_readlink(const char *path, char *buf, size_t size)
{
	const struct fk_tfd *f = tfd_path(path, "fd", true);
	const struct fk_fdfile *ff = file_at(path);

	if (request(FK_READLINK, path_pid(path), 0, 0))
		return -1;
	if (ff && ff->tid)
		return snprintf(buf, size, "%s", ff->link);
	if (!f) {
		errno = ENOENT;
		return -1;
	}
	return snprintf(buf, size, "/proc/%d", f->target);
}

/* ---- the session a launch leaves ---------------------------------------- */

void fk_count_warning(struct sw_session *s, const char *msg, void *ud)
{
	(void)s;
	(void)msg;
	++*(int *)ud;
}

static const struct sw_policy allow_all = {
	.source = "fake.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
};

struct sw_session *fk_session_new(struct sw_supervisor *sup, uint64_t id,
				  pid_t pid, const struct sw_policy *p)
{
	struct sw_policy_ctx ctx = { .arch = 0xc000003e, .kernel = 0x61000 };
	struct sw_session *s = calloc(1, sizeof(*s));
	struct sw_error err = { 0 };

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(sw_program_new(&s->prog, p ? p : &allow_all, &ctx, 0,
				     getpid(), &err) == 0, "%s", err.msg);
	s->counters = calloc(s->prog->n_rules ? s->prog->n_rules : 1,
			     sizeof(*s->counters));
	ck_assert_ptr_nonnull(s->counters);
	s->sup = sup;
	s->id = id;
	s->launch_fd = -1;
	s->tty_master = -1;
	s->exec_done = true;
	s->can_set = true;
	ck_assert_int_eq(sw_session_attach(sup, s, pid), 0);
	fk_proc(pid, pid, 1);
	return s;
}
