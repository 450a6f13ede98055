/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel as the supervisor's loop and stop handlers see it: every
 * call that tracer.c, session.c, actions.c, guardsetup.c, pathguard.c,
 * execguard.c, signals.c, reach.c, peers.c, objects.c, resultcheck.c,
 * strings.c and the arch hooks (arch/x86_64.c) make to reach a tracee, or
 * to learn who a pid, a group or a descriptor of its is (/proc, stat, the
 * pid namespace walk, getpgid: signals.c's and reach.c's "is this the
 * session's?"; a socket's options, peer and name: peers.c's; statx and
 * statmount of a descriptor's mount (statfs and stat before 6.8),
 * readlink of a descriptor, a message queue opened and removed:
 * objects.c's; where strings.c's reader runs).  In the product these are
 * inline wrappers that compile to the very calls they name (no table, no
 * indirect call in the dispatch loop).  Only kernel calls are seams here,
 * never engine functions: a test replaces the kernel, not the engine.
 *
 * Why a seam at all: the tracer's bookkeeping must be exact for every
 * order in which a creation event, the child's first stop and its exit
 * reach waitpid (tracer.c, "Event order"), and real processes racing
 * cannot force a given order; and every way the kernel can refuse a
 * PTRACE_SET_SYSCALL_INFO, or one step of the guard's injection, must
 * fail closed, which a live kernel rarely shows.  The engine compiled
 * with SW_SYS_FAKE (the sysward-engine-fake library, engine/CMakeLists.txt)
 * turns these into plain declarations, which tests/unit/fake_kernel.c
 * defines as a scripted fake kernel (compile-time substitution, so
 * nothing is paid at run time).
 */
#ifndef SW_ENGINE_SYS_H
#define SW_ENGINE_SYS_H

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysward/proc.h"
#include "sysward/syscall_nr.h"

/* statmount(2): one number on every architecture (457, the unified
 * table since 6.8); this libc's headers predate it. */
#define SW_NR_STATMOUNT		457

#ifdef SW_SYS_FAKE
pid_t sw_sys_waitpid(pid_t pid, int *status, int options);
long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data);
int sw_sys_kill(pid_t pid, int sig);
int sw_sys_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid);
ssize_t sw_sys_process_vm_readv(pid_t pid, const struct iovec *local,
				unsigned long n_local, const struct iovec *remote,
				unsigned long n_remote, unsigned long flags);
ssize_t sw_sys_process_vm_writev(pid_t pid, const struct iovec *local,
				 unsigned long n_local, const struct iovec *remote,
				 unsigned long n_remote, unsigned long flags);
int sw_sys_memfd_create(const char *name, unsigned int flags);
int sw_sys_pidfd_open(pid_t pid, unsigned int flags);
int sw_sys_pidfd_getfd(int pidfd, int fd, unsigned int flags);
ssize_t sw_sys_sendmsg(int sock, const struct msghdr *msg, int flags);
long sw_sys_kcmp(pid_t a, pid_t b, int type, unsigned long x, unsigned long y);
FILE *sw_sys_fopen(const char *path, const char *mode);
ssize_t sw_sys_readlink(const char *path, char *buf, size_t size);
ssize_t sw_sys_proc_read(const char *path, char *buf, size_t size);
int sw_sys_stat(const char *path, struct stat *st);
int sw_sys_open(const char *path, int flags);
int sw_sys_fstat(int fd, struct stat *st);
int sw_sys_ioctl(int fd, unsigned long req);
pid_t sw_sys_getpgid(pid_t pid);
int sw_sys_statfs(const char *path, struct statfs *st);
int sw_sys_statx(const char *path, int flags, unsigned int mask, struct statx *stx);
int sw_sys_statmount(uint64_t mnt_id, uint64_t mnt_ns_id, uint64_t mask,
		     void *buf, size_t size);
int sw_sys_ioctl_u64(int fd, unsigned long req, uint64_t *ret);
int sw_sys_mq_open(const char *name, int flags);
int sw_sys_mq_unlink(const char *name);
int sw_sys_getsockopt(int fd, int level, int opt, void *val, socklen_t *len);
int sw_sys_getpeername(int fd, struct sockaddr *sa, socklen_t *len);
int sw_sys_shutdown(int fd, int how);
int sw_sys_fcntl(int fd, int cmd, long arg);
int sw_sys_sched_getcpu(void);
int sw_sys_sched_setaffinity(pid_t tid, size_t size, const cpu_set_t *set);
int sw_sys_sched_yield(void);
#else
static inline pid_t sw_sys_waitpid(pid_t pid, int *status, int options)
{
	return waitpid(pid, status, options);
}

static inline long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data)
{
	return ptrace((enum __ptrace_request)req, pid, addr, data);
}

static inline int sw_sys_kill(pid_t pid, int sig)
{
	return kill(pid, sig);
}

static inline int sw_sys_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	return sw_proc_ids(tid, tgid, ppid);
}

static inline ssize_t sw_sys_process_vm_readv(pid_t pid, const struct iovec *local,
					      unsigned long n_local,
					      const struct iovec *remote,
					      unsigned long n_remote, unsigned long flags)
{
	return process_vm_readv(pid, local, n_local, remote, n_remote, flags);
}

static inline ssize_t sw_sys_process_vm_writev(pid_t pid, const struct iovec *local,
					       unsigned long n_local,
					       const struct iovec *remote,
					       unsigned long n_remote, unsigned long flags)
{
	return process_vm_writev(pid, local, n_local, remote, n_remote, flags);
}

static inline int sw_sys_memfd_create(const char *name, unsigned int flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

static inline int sw_sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static inline int sw_sys_pidfd_getfd(int pidfd, int fd, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_getfd, pidfd, fd, flags);
}

static inline ssize_t sw_sys_sendmsg(int sock, const struct msghdr *msg, int flags)
{
	return sendmsg(sock, msg, flags);
}

static inline long sw_sys_kcmp(pid_t a, pid_t b, int type, unsigned long x,
			       unsigned long y)
{
	return syscall(SYS_kcmp, a, b, type, x, y);
}

/* /proc/<pid>/ files (smaps, comm, cmdline). */
static inline FILE *sw_sys_fopen(const char *path, const char *mode)
{
	return fopen(path, mode);
}

/* /proc/<pid>/exe and /proc/<pid>/fd/<n>. */
static inline ssize_t sw_sys_readlink(const char *path, char *buf, size_t size)
{
	return readlink(path, buf, size);
}

/* /proc/<pid>/status and /proc/<tid>/fdinfo/<fd>: who a pid, a tid or a
 * pidfd is (Tgid, PPid, State, NSpid/NStgid/NSpgid, Uid; Pid, flags). */
static inline ssize_t sw_sys_proc_read(const char *path, char *buf, size_t size)
{
	return sw_proc_read(path, buf, size);
}

/* Identities compared by device and inode: /proc/<pid>/ns/pid, a
 * /proc/<pid> directory, /proc/<pid>/status's owner. */
static inline int sw_sys_stat(const char *path, struct stat *st)
{
	return stat(path, st);
}

/* /proc/<pid>/ns/pid, walked up with sw_sys_ioctl(NS_GET_PARENT). */
static inline int sw_sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static inline int sw_sys_fstat(int fd, struct stat *st)
{
	return fstat(fd, st);
}

/* Argument-less requests only (NS_GET_PARENT). */
static inline int sw_sys_ioctl(int fd, unsigned long req)
{
	return ioctl(fd, req);
}

/* Which process group a tracee is in. */
static inline pid_t sw_sys_getpgid(pid_t pid)
{
	return getpgid(pid);
}

/* What file system a tracee's descriptor is on: /proc/<tid>/fd/<n>
 * (objects.c). */
static inline int sw_sys_statfs(const char *path, struct statfs *st)
{
	return statfs(path, st);
}

/* The same without a call into that file system (objects.c, route 13):
 * statx(2) of /proc/<tid>/fd/<n> with AT_STATX_DONT_SYNC (the attributes
 * the inode caches) and STATX_MNT_ID_UNIQUE (6.8+), then statmount(2)
 * of that mount (6.8+; in another mount namespace, by its id: 6.11+),
 * whose STATMOUNT_SB_BASIC is read from the superblock. */
static inline int sw_sys_statx(const char *path, int flags, unsigned int mask,
			       struct statx *stx)
{
	return statx(AT_FDCWD, path, flags, mask, stx);
}

static inline int sw_sys_statmount(uint64_t mnt_id, uint64_t mnt_ns_id,
				   uint64_t mask, void *buf, size_t size)
{
	/* struct mnt_id_req (<linux/mount.h>, 6.11: with mnt_ns_id); a
	 * 6.8 kernel takes the larger size while mnt_ns_id is 0
	 * (copy_struct_from_user). */
	struct { uint32_t size, spare; uint64_t mnt_id, param, mnt_ns_id; } req = {
		.size = sizeof(req), .mnt_id = mnt_id, .param = mask,
		.mnt_ns_id = mnt_ns_id,
	};

	return (int)syscall(SW_NR_STATMOUNT, &req, buf, size, 0);
}

/* Requests with a u64 answer: NS_GET_MNTNS_ID on /proc/<tid>/ns/mnt. */
static inline int sw_sys_ioctl_u64(int fd, unsigned long req, uint64_t *ret)
{
	return ioctl(fd, req, ret);
}

/* The message queue a tracee's mq_unlink names, opened and removed as
 * the kernel's call would (objects.c): names as the system call takes
 * them (no leading slash, unlike mq_open(3)). */
static inline int sw_sys_mq_open(const char *name, int flags)
{
	return (int)syscall(SYS_mq_open, name, flags, 0, NULL);
}

static inline int sw_sys_mq_unlink(const char *name)
{
	return (int)syscall(SYS_mq_unlink, name);
}

/* A tracee's socket, taken with pidfd_getfd (peers.c): its family,
 * type, peer's credentials and pidfd (SO_PEERCRED, SO_PEERPIDFD), the
 * peer's bound name; a refused connection shut down; its O_NONBLOCK. */
static inline int sw_sys_getsockopt(int fd, int level, int opt, void *val,
				    socklen_t *len)
{
	return getsockopt(fd, level, opt, val, len);
}

static inline int sw_sys_getpeername(int fd, struct sockaddr *sa, socklen_t *len)
{
	return getpeername(fd, sa, len);
}

static inline int sw_sys_shutdown(int fd, int how)
{
	return shutdown(fd, how);
}

static inline int sw_sys_fcntl(int fd, int cmd, long arg)
{
	return fcntl(fd, cmd, arg);
}

/* Where strings.c's reader runs: beside its tracer (the CPU the tracer
 * runs on, from rseq; the reader's affinity; the tracer's CPU yielded
 * to it). */
static inline int sw_sys_sched_getcpu(void)
{
	return sched_getcpu();
}

static inline int sw_sys_sched_setaffinity(pid_t tid, size_t size,
					   const cpu_set_t *set)
{
	return sched_setaffinity(tid, size, set);
}

static inline int sw_sys_sched_yield(void)
{
	return sched_yield();
}
#endif

#endif
