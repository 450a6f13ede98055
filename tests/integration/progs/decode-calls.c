// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The calls the decoder (engine/record/decode.c) knows, each with arguments
 * that reach its flags, constants and special cases: run once under
 * strace(1) and once under "sysward run --log" by run.sh's
 * t_decode_strace, which compares the argument lists call by call.
 * Every pointer is NULL or a fixed small address, or a path, so that
 * nothing but the decoding differs between the two runs; each call
 * fails harmlessly (bad descriptor, bad address, no such file) unless
 * it has no effect outside this process.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define S(...) syscall(__VA_ARGS__)
#define BADFD 99
#define ADDR 0x1000		/* unmapped: EFAULT, or nothing to do */

int main(void)
{
	/* Docker's profile's argument rules: personality, socket, clone. */
	S(SYS_personality, 0xffffffff);
	S(SYS_personality, 8);			/* PER_LINUX32 */
	S(SYS_personality, 0x20008);		/* PER_LINUX32|UNAME26 */
	S(SYS_personality, 0x1234567);		/* unknown persona, flags, rest */
	S(SYS_personality, 0);
	S(SYS_socket, 2, 1 | 02000000 | 04000, 0);	/* AF_INET, STREAM|CLOEXEC|NONBLOCK */
	S(SYS_socket, 10, 2, 17);			/* AF_INET6, DGRAM, UDP */
	S(SYS_socket, 1, 5, 0);				/* AF_UNIX, SEQPACKET */
	S(SYS_socket, 16, 3, 0);			/* AF_NETLINK, RAW, ROUTE */
	S(SYS_socket, 40, 1, 0);			/* AF_VSOCK */
	S(SYS_socket, 99, 77, 5);			/* unknown */
	S(SYS_socket, 17, 3, 0x300);			/* AF_PACKET, htons(ETH_P_ALL) */
	/* Invalid combinations (EINVAL): nothing is created. */
	S(SYS_clone, CLONE_NEWUSER | CLONE_NEWNS | CLONE_SIGHAND | 0x4000000000ull, 0, 0, 0, 0);
	S(SYS_clone, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		     CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |
		     CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWUSER | SIGUSR1,
	  ADDR, ADDR + 1, ADDR + 2, ADDR + 3);
	S(SYS_clone, CLONE_CHILD_SETTID | CLONE_NEWUSER | CLONE_THREAD | SIGCHLD, 0, 0, ADDR, 0);
	S(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS | 0x40);
	S(SYS_unshare, 0);
	S(SYS_clone3, 0, 88);

	/* Files. */
	S(SYS_openat, AT_FDCWD, "/nonexistent-sysward/r",
	  O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY |
	  O_APPEND | O_SYNC | O_NOATIME | O_PATH | O_DIRECT | O_ASYNC);
	S(SYS_openat, AT_FDCWD, "/nonexistent-sysward/w", O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0644);
	S(SYS_openat, BADFD, "rel", O_RDWR | O_TMPFILE, 0600);
	S(SYS_open, "/nonexistent-sysward/o", O_RDONLY | O_CLOEXEC);
	S(SYS_creat, "/nonexistent-sysward/c", 0644);
	S(SYS_mkdir, "/nonexistent-sysward/d", 0755);
	S(SYS_unlink, "/nonexistent-sysward/u");
	S(SYS_chdir, "/nonexistent-sysward");
	S(SYS_fchdir, BADFD);
	S(SYS_access, "/nonexistent-sysward/a", R_OK | W_OK | X_OK);
	S(SYS_access, "/nonexistent-sysward/a", F_OK);
	S(SYS_faccessat2, AT_FDCWD, "/nonexistent-sysward/a", X_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW);
	S(SYS_newfstatat, AT_FDCWD, "/nonexistent-sysward/s", 0, 0);
	S(SYS_newfstatat, BADFD, "", 0, AT_EMPTY_PATH);
	S(SYS_statx, AT_FDCWD, "/nonexistent-sysward/x",
	  AT_STATX_SYNC_AS_STAT | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, 0x7ff, 0);
	S(SYS_statx, BADFD, "", AT_EMPTY_PATH, 0xfff, 0);
	S(SYS_statx, BADFD, "", AT_STATX_DONT_SYNC, 0x102, 0);
	S(SYS_statfs, "/nonexistent-sysward/f", 0);
	S(SYS_fstatfs, BADFD, 0);
	S(SYS_readlink, "/nonexistent-sysward/l", 0, 4095);
	S(SYS_getxattr, "/nonexistent-sysward/g", 0, 0, 255);
	S(SYS_lgetxattr, "/nonexistent-sysward/g", 0, 0, 0);
	S(SYS_execve, "/nonexistent-sysward/e", 0, 0);
	S(SYS_read, BADFD, 0, 10);
	S(SYS_write, BADFD, 0, 10);
	S(SYS_pread64, BADFD, 0, 784, 64);
	S(SYS_lseek, BADFD, -5L, SEEK_END);
	S(SYS_lseek, BADFD, 0L, 9);
	S(SYS_getdents64, BADFD, 0, 32768);
	S(SYS_close, BADFD);
	S(SYS_close_range, 1000, ~0U, 0);
	S(SYS_close_range, 1000, 2000, 4);		/* CLOSE_RANGE_CLOEXEC */
	S(SYS_dup, BADFD);
	S(SYS_dup2, BADFD, BADFD - 1);
	S(SYS_fcntl, BADFD, F_GETFD);
	S(SYS_fcntl, BADFD, F_SETFD, FD_CLOEXEC);
	S(SYS_fcntl, BADFD, F_DUPFD_CLOEXEC, 10);
	S(SYS_fcntl, BADFD, F_SETFL, O_RDWR | O_NONBLOCK);
	S(SYS_fcntl, BADFD, F_GETFL);
	S(SYS_fcntl, BADFD, F_SETLK, 0);
	S(SYS_fcntl, BADFD, 1234, 5);
	S(SYS_ioctl, BADFD, 0x5401, 0);			/* TCGETS */
	S(SYS_ioctl, BADFD, 0x5413, 0);			/* TIOCGWINSZ */
	S(SYS_ioctl, BADFD, 0x540f, 0);			/* TIOCGPGRP */
	S(SYS_ioctl, BADFD, 0x541b, 0);			/* FIONREAD */
	S(SYS_ioctl, BADFD, 0x12345678, 7);		/* unknown */
	S(SYS_fadvise64, BADFD, 0, 0, 2);
	S(SYS_pipe2, 0, O_CLOEXEC | O_NONBLOCK);
	S(SYS_connect, BADFD, 0, 110);

	/* Memory. */
	S(SYS_mmap, 0, 4096, 7, 0x1 | 0x10 | 0x20 | 0x40 | 0x100 | 0x800 | 0x1000 | 0x2000 |
		0x4000 | 0x8000 | 0x10000 | 0x20000 | 0x40000 | 0x100000, -1, 0x1000);
	S(SYS_mmap, 0, 4096, 0, 0x3 | 0x80000, BADFD, 0);	/* SHARED_VALIDATE|SYNC */
	S(SYS_mprotect, ADDR, 4096, 0);
	S(SYS_munmap, ADDR, 4096);
	S(SYS_brk, 0);

	/* Processes, signals, limits. */
	S(SYS_wait4, -1, 0, WNOHANG | __WALL, 0);
	S(SYS_prlimit64, 0, 7, 0, 0);			/* RLIMIT_NOFILE */
	S(SYS_prlimit64, 0, 99, 0, 0);
	S(SYS_getrusage, -1, 0);			/* RUSAGE_CHILDREN, EFAULT */
	S(SYS_futex, ADDR, 1 | 128, 1, 0, 0, 0);	/* FUTEX_WAKE_PRIVATE */
	S(SYS_futex, ADDR, 9 | 128 | 256, 2, 0, 0, 0xffffffff);
	S(SYS_futex, ADDR, 0, 2, 0, 0, 0);		/* FUTEX_WAIT: EFAULT */
	S(SYS_rt_sigprocmask, SIG_BLOCK, 0, 0, 8);
	S(SYS_rt_sigaction, 40, 0, 0, 8);
	S(SYS_rt_sigaction, SIGINT, 0, 0, 8);
	S(SYS_kill, 0, 0);
	S(SYS_kill, 0x7ffffff0, SIGTERM);		/* ESRCH */
	S(SYS_getrandom, 0, 8, 1 | 2 | 4);		/* EINVAL */
	S(SYS_arch_prctl, 0x3001, 0);
	S(SYS_arch_prctl, 0x1003, 0);			/* ARCH_GET_FS: EFAULT */
	S(SYS_rseq, 0, 0x20, 0, 0x53053053);
	S(SYS_set_robust_list, 0, 24);
	S(SYS_epoll_create1, EPOLL_CLOEXEC);
	S(SYS_getcwd, 0, 4096);
	S(SYS_sysinfo, 0);
	S(SYS_uname, 0);
	S(SYS_getpid);
	S(SYS_getppid);
	S(SYS_gettid);
	S(SYS_getuid);
	S(SYS_geteuid);
	S(SYS_getgid);
	S(SYS_getegid);
	S(SYS_getpgrp);
	S(SYS_exit_group, 3);
	return 0;
}
