/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A scripted fake kernel for the real engine (sysward-engine-fake, every
 * kernel call of engine/sys.h left to this file): waitpid results from a
 * queue, a register file, a PTRACE_GET_SYSCALL_INFO state and a window of
 * memory per tracee, the few syscalls the path guard's setup injects run
 * on them, a log of every request, and errors injected per request.
 *
 * The fake pids are far above any pid_max (2^22), so a call that slipped
 * past the fake would fail with ESRCH instead of touching a process.
 */
#ifndef SW_TEST_FAKE_KERNEL_H
#define SW_TEST_FAKE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <signal.h>
#include <sys/user.h>

#include "sysward/ptrace_abi.h"
#include "internal.h"

/* The log's names for the calls that are not ptrace requests. */
enum {
	FK_KILL = -1,		/* kill(pid, data) */
	FK_READV = -2,		/* process_vm_readv(pid) at addr, data bytes */
	FK_WRITEV = -3,		/* process_vm_writev(pid) at addr, data bytes */
	FK_MEMFD = -4,
	FK_PIDFD_OPEN = -5,
	FK_GETFD = -6,		/* pidfd_getfd: addr the tracee's fd */
	FK_SENDMSG = -7,	/* data: the descriptor passed */
	FK_KCMP = -8,
	FK_FOPEN = -9,
	FK_READLINK = -10,
	FK_PROC_READ = -11,	/* /proc/<pid>/...: pid */
	FK_STAT = -12,		/* stat of /proc/<pid>/...: pid */
	FK_GETPGID = -13,
	FK_OPEN = -14,		/* open of /proc/<pid>/ns/pid: pid */
	FK_SHUTDOWN = -15,	/* shutdown of the tracee pid's socket addr */
	FK_SETFL = -16,		/* F_SETFL on pid's socket addr: data the flags */
	FK_STATFS = -17,	/* statfs of /proc/<pid>/fd/<n>: pid */
	FK_MQ_UNLINK = -18,	/* the supervisor's mq_unlink: data the ino */
	FK_AFFINITY = -19,	/* sched_setaffinity(addr the tid) to one CPU,
				 * data (pid 0: not a tracee's) */
	FK_STATX = -20,		/* statx of /proc/<pid>/fd/<n>: pid, data
				 * the flags */
	FK_STATMOUNT = -21,	/* statmount: pid 0, addr the mount id, data
				 * the namespace id */
};

struct fk_call {
	long req;		/* PTRACE_* or FK_* */
	pid_t pid;
	uint64_t addr, data;
};

#define FK_MAX_CALLS 8192
extern struct fk_call fk_calls[FK_MAX_CALLS];
extern size_t fk_n_calls;

/* What the setup's recvmsg delivers. */
enum fk_recv { FK_RECV_FD, FK_RECV_CTRUNC, FK_RECV_NO_FD, FK_RECV_BAD_FD };

struct fk_task {
	pid_t pid;
	struct user_regs_struct regs;
	struct sw_ptrace_syscall_info info;	/* what GET answers */
	struct sw_ptrace_syscall_info sets[8];	/* what SET was given */
	size_t n_sets;
	struct user_regs_struct setregs[16];	/* what SETREGS was given */
	size_t n_setregs;
	uint64_t mem_base;			/* its memory: a window */
	unsigned char mem[16384];
	int next_fd;				/* its descriptor table */
	bool rval_forced;			/* the next call returns rval */
	int64_t rval;
	enum fk_recv recv;
	/* a filter of its own answers the setup's socketpair unrun: it
	 * returns 0, the pair's numbers left as its memory has them */
	bool pair_forged;
	/* the guard as the fake mm holds it */
	bool guard_sent, guard_mapped, guard_sealed;
	int guard_tfd;
	unsigned long guard_ino;
	unsigned int guard_maj, guard_min;
	char smaps[512];
	/* the signal at its delivery stop: what GETSIGINFO answers, what
	 * SETSIGINFO was given */
	siginfo_t si;
	siginfo_t set_si;
	size_t n_setsi;
	/* its blocked signals (GETSIGMASK/SETSIGMASK) */
	uint64_t sigmask;
	size_t n_setmask;
};

/* Forget every task, queued status, failure and logged call. */
void fk_reset(void);
/* The task pid: a 64-bit process stopped somewhere in its first image
 * (rsp, rip and cs of x86-64 user code).  Created on first use. */
struct fk_task *fk_task(pid_t pid);
/* /proc/<tid>/status shows Tgid, PPid; or the tid is gone.  A new tid
 * is in group tgid (NSpgid, getpgid), running (State S), in the root pid
 * namespace (NSpid one number, ns/pid FK_NS_ROOT).  reset() shows the
 * supervisor itself (getpid()) so: reach.c's own namespace depth. */
void fk_proc(pid_t tid, pid_t tgid, pid_t ppid);
void fk_proc_gone(pid_t tid);
void fk_proc_pgid(pid_t tid, pid_t pgid);
void fk_proc_zombie(pid_t tid);
/* tid lives in a child pid namespace ns of the root one, as inner: its
 * NS* lines have two numbers (the second those of inner processes). */
void fk_proc_nested(pid_t tid, pid_t inner, unsigned long ns);
#define FK_NS_ROOT	0xeffff001ul
/* The tracee tid's descriptor fd is a pidfd of target (-1: of a process
 * gone) with pidfd_open's flags; or /proc/<target> as a directory
 * (fdinfo shows no Pid, readlink the path, stat the directory's id). */
void fk_pidfd(pid_t tid, int fd, pid_t target, unsigned int flags);
void fk_procdir_fd(pid_t tid, int fd, pid_t target);
/* The tracee tid's descriptor fd holds a file of file system fs (the
 * statfs magic), which /proc/<tid>/fd/<fd> links to as link, with
 * identity (dev, ino) (dev 0: procfs's if fs is, else another).  The
 * same (dev, ino) at a path: fk_path.  fk_file_gone: the descriptor
 * closed.  fd AT_FDCWD: the tracee's working directory (/proc/<tid>/cwd
 * links to link). */
void fk_file(pid_t tid, int fd, unsigned long fs, const char *link,
	     unsigned long ino);
void fk_file_gone(pid_t tid, int fd);
void fk_path(const char *path, unsigned long fs, unsigned long ino);
#define FK_PROC_MAGIC	0x9fa0ul
#define FK_EXT4_MAGIC	0xef53ul
#define FK_CGROUP2_MAGIC 0x63677270ul
#define FK_MQUEUE_MAGIC	0x19800202ul
#define FK_PIPEFS_MAGIC	0x50495045ul	/* stat: a FIFO */
#define FK_FUSE_MAGIC	0x65735546ul
#define FK_FUSE_MINOR	46	/* its device: /sys/fs/fuse/connections/46 */
#define FK_TMPFS_MAGIC	0x01021994ul
/* The kernel predates statx's unique mount id (before 6.8): fk_old_statx
 * makes statx answer without it. */
void fk_old_statx(bool old);
/* A message queue the supervisor's mq_open finds by name. */
void fk_mq(const char *name, unsigned long ino);
/* /proc/sysvipc/<kind> ("shm", "sem", "msg") lists these ids, each with
 * the key 0x5000 + id (none: absent, as without CONFIG_SYSVIPC); a kind
 * given again: its list from then on. */
void fk_sysvipc(const char *kind, const int *ids, size_t n);
/* /proc/<tid>/wchan says what it sleeps in ("" by default: absent). */
void fk_proc_wchan(pid_t tid, const char *wchan);
/* A socket the tracee tid holds at fd, as getsockopt, getpeername and
 * fdinfo show our copy of it (pidfd_getfd) and its peer's pidfd. */
struct fk_sock {
	int domain, type;
	int flags;		/* its file status flags (O_NONBLOCK) */
	/* its peer, once connected: SO_PEERCRED's pid and uid, its pidfd
	 * (fdinfo Pid: the live pid, -1 once it has ended; none at all:
	 * no_pidfd), the name it is bound to */
	pid_t cred_pid;
	uid_t uid;
	pid_t pidfd_pid;
	bool no_pidfd;
	const char *name;
};
void fk_sock(pid_t tid, int fd, const struct fk_sock *s);
/* A process's pidfs inode (its pidfds' st_ino), as fk_proc makes it. */
#define FK_PIDFS_INO(pid) (0x70000000ull + (uint64_t)(pid))
/* /proc/<tid>/stat shows state (R, S, D, t, Z), /proc/<tid>/syscall
 * text ("running", "0 0x3 ..."); status Threads and Uid (all four). */
void fk_proc_state(pid_t tid, char state, const char *syscall);
void fk_proc_threads(pid_t tid, int threads);
/* tid's own pending signals (SigPnd:), a mask of bits 1 << (sig - 1). */
void fk_proc_sigpnd(pid_t tid, unsigned long long mask);
void fk_proc_uid(pid_t tid, uid_t uid);
/* kcmp(KCMP_FILES) of a and b: one descriptor table (CLONE_FILES). */
void fk_files_shared(pid_t a, pid_t b);
/* kcmp(KCMP_FILE) of ours (any descriptor) and pid's fd: the same open
 * file (the audit log's line gate, linegate.c); all others differ. */
void fk_file_ours(pid_t pid, int fd);

/* sched_getcpu() answers cpu from now on (0 after fk_reset()). */
void fk_cpu(int cpu);
/* Each sched_yield() takes yield_us (another task ran meanwhile), each
 * process_vm_readv() readv_us (0 after fk_reset()). */
void fk_slow(unsigned int yield_us, unsigned int readv_us);
/* sched_yield() calls since fk_reset() (counted apart from the log: the
 * reader thread logs its reads meanwhile). */
unsigned long fk_yields(void);

/* PTRACE_GETEVENTMSG of pid answers msg. */
void fk_evmsg(pid_t pid, unsigned long msg);
/* waitpid() returns (pid, status) next. */
void fk_queue(pid_t pid, int status);
/* The next request req (PTRACE_* or FK_*) about pid fails with errno e;
 * always: every one from now on. */
void fk_fail(long req, pid_t pid, int e, bool always);

/* Syscall stops, as PTRACE_O_TRACESYSGOOD reports them.  Entry of call
 * nr(a...) of the program (at a fresh instruction): */
void fk_entry(pid_t pid, long nr, const uint64_t a[6]);
/* Entry of whatever the registers make run next: a call injected by
 * rewinding (rip two bytes back, nr in rax), or the program's own. */
void fk_next_entry(pid_t pid);
/* The call of orig_rax runs (the guard setup's calls are emulated, the
 * rest return 0) and the task stops at its exit. */
void fk_exit(pid_t pid);
/* Write len bytes into pid's memory window at addr (the program's data). */
void fk_poke(pid_t pid, uint64_t addr, const void *buf, size_t len);
/* At a SECCOMP stop of nr(a...) of ABI audit_arch, at ip. */
void fk_seccomp(pid_t pid, uint32_t audit_arch, uint64_t nr,
		const uint64_t a[6], uint64_t ip);

/* Descriptors of ours the fake holds (standing for a pidfd or a
 * tracee's socket), open until fk_reset(). */
size_t fk_fds_held(void);

/* The log. */
size_t fk_count(long req, pid_t pid);
bool fk_called(long req, pid_t pid, uint64_t data);
/* Index of the last req about pid, or -1. */
long fk_last(long req, pid_t pid);

/* sw_supervisor_on_warning()'s callback for a test: counts the warnings
 * in the int ud points to. */
void fk_count_warning(struct sw_session *s, const char *msg, void *ud);

/* The session a launch leaves after the exec (sw_session_attach), under
 * the compiled program of policy p (NULL: allow everything). */
struct sw_session *fk_session_new(struct sw_supervisor *sup, uint64_t id,
				  pid_t pid, const struct sw_policy *p);

#define FK_STOPPED(sig, ev) (0x7f | (sig) << 8 | (ev) << 16)

#endif
