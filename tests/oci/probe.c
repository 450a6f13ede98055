// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw-oci-probe: makes every x86-64 system call, and some more numbers, with
 * arguments that make the kernel fail fast or do nothing that matters
 * (fd -1, pointers -1, sizes and flags -1, a few harmless real calls), and
 * prints one line per call:
 *
 *     NAME ok              the call returned >= 0
 *     NAME -1 ERRNO        it failed (seccomp's errno or the kernel's)
 *     NAME signal N        a signal killed the process making it
 *     NAME timeout         it did not return within 5 seconds
 *
 * tests/oci/run.sh runs it in a runc container under a profile as Docker
 * or Podman hand it to runc, and under `sysward run` with the profile
 * itself, and compares the two outputs line by line.  Return values are
 * not printed (pids, fds and addresses differ between the two runs); with
 * these arguments the kernel answers the same in both, so a difference is
 * a difference of the seccomp decision.
 *
 * The calls are made by a child; if one kills it (a profile's kill or
 * trap action, a bad-architecture action), the parent prints the signal
 * and starts a new child at the next call.  Calls that would end the
 * process or block whatever the seccomp decision (exit, exit_group,
 * rt_sigreturn, pause, vfork) are not made, nor uretprobe and uprobe,
 * which pass seccomp by the kernel's design (uretprobe outside its
 * trampoline is SIGILL).
 *
 *   sw-oci-probe [-l]     -l: list the names only, one per line
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum how {
	NATIVE,		/* syscall instruction, x86-64 ABI (or x32 by the nr bit) */
	INT80,		/* int $0x80 from this 64-bit process: the i386 ABI */
	FORK,		/* fork(2) by number; the child exits at once */
};

struct call {
	const char *name;
	enum how how;
	long nr;
	unsigned long a[6];
};

/* Argument values replaced when the call is made. */
#define M1	(~0ul)			/* -1 at 64 bits: fd, pointer, size, flags */
#define BUF	0x5ead0000b0f0b0f0ul	/* a 4 KiB buffer of the probe's */
#define SELF	0x5ead00005e1f5e1ful	/* the calling process's pid */
#define ROOT	0x5ead0000002f002ful	/* the string "/" */
#define ALL_M1	{ M1, M1, M1, M1, M1, M1 }

/* The call named NAME with every argument -1. */
#define X(name)			{ #name, NATIVE, __NR_##name, ALL_M1 }
/* The same for calls newer than this machine's kernel headers, by their
 * number in arch/x86/entry/syscalls/syscall_64.tbl. */
#define XN(name, nr)		{ #name, NATIVE, nr, ALL_M1 }
/* A call with the arguments given (the others 0), as "NAME:TAG". */
#define XA(tag, name, ...)	{ tag, NATIVE, __NR_##name, { __VA_ARGS__ } }
#define XNA(tag, nr, ...)	{ tag, NATIVE, nr, { __VA_ARGS__ } }
/* A number with every argument -1, as "nrN" (decimal) or "nr0xN". */
#define R(label, nr)		{ label, NATIVE, nr, ALL_M1 }
/* The i386 ABI, through int $0x80 (five arguments, each -1). */
#define I(label, nr)		{ label, INT80, nr, ALL_M1 }

#define X32_BIT	0x40000000l

static const struct call calls[] = {
	X(read), X(write), X(open), X(close), X(stat), X(fstat), X(lstat),
	X(poll), X(lseek), X(mmap), X(mprotect), X(munmap), X(brk),
	X(rt_sigaction), X(rt_sigprocmask), X(ioctl), X(pread64),
	X(pwrite64), X(readv), X(writev), X(access), X(pipe), X(select),
	X(sched_yield), X(mremap), X(msync), X(mincore), X(madvise),
	/* IPC_CREAT is among -1's bits: ask for a key that does not exist */
	XA("shmget", shmget, M1, 0, 0),
	X(shmat), X(shmctl), X(dup), X(dup2), X(nanosleep), X(getitimer),
	/* alarm(-1) would arm a timer */
	XA("alarm", alarm, 0),
	X(setitimer), X(getpid), X(sendfile), X(socket), X(connect),
	X(accept), X(sendto), X(recvfrom), X(sendmsg), X(recvmsg),
	X(shutdown), X(bind), X(listen), X(getsockname), X(getpeername),
	X(socketpair), X(setsockopt), X(getsockopt), X(clone),
	{ "fork", FORK, __NR_fork, { 0 } },
	X(execve), X(wait4), X(kill), X(uname), X(semget), X(semop),
	X(semctl), X(shmdt),
	XA("msgget", msgget, M1, 0),
	X(msgsnd), X(msgrcv), X(msgctl), X(fcntl), X(flock), X(fsync),
	X(fdatasync), X(truncate), X(ftruncate), X(getdents), X(getcwd),
	X(chdir), X(fchdir), X(rename), X(mkdir), X(rmdir), X(creat),
	X(link), X(unlink), X(symlink), X(readlink), X(chmod), X(fchmod),
	X(chown), X(fchown), X(lchown),
	/* umask(-1) would make it 0777 */
	XA("umask", umask, 022),
	X(gettimeofday), X(getrlimit), X(getrusage), X(sysinfo), X(times),
	X(ptrace), X(getuid), X(syslog), X(getgid), X(setuid), X(setgid),
	X(geteuid), X(getegid), X(setpgid), X(getppid), X(getpgrp),
	X(setsid), X(setreuid), X(setregid), X(getgroups), X(setgroups),
	X(setresuid), X(getresuid), X(setresgid), X(getresgid), X(getpgid),
	X(setfsuid), X(setfsgid), X(getsid), X(capget), X(capset),
	X(rt_sigpending), X(rt_sigtimedwait), X(rt_sigqueueinfo),
	X(rt_sigsuspend), X(sigaltstack), X(utime), X(mknod), X(uselib),
	/* 0xffffffff (a query) as programs pass it; -1 at 64 bits below */
	XA("personality", personality, 0xffffffff),
	X(ustat), X(statfs), X(fstatfs), X(sysfs), X(getpriority),
	X(setpriority), X(sched_setparam), X(sched_getparam),
	X(sched_setscheduler), X(sched_getscheduler),
	X(sched_get_priority_max), X(sched_get_priority_min),
	X(sched_rr_get_interval), X(mlock), X(munlock), X(mlockall),
	X(munlockall), X(vhangup), X(modify_ldt), X(pivot_root), X(_sysctl),
	X(prctl), X(arch_prctl), X(adjtimex), X(setrlimit), X(chroot),
	X(sync), X(acct), X(settimeofday), X(mount), X(umount2), X(swapon),
	X(swapoff), X(reboot), X(sethostname), X(setdomainname), X(iopl),
	X(ioperm), X(create_module), X(init_module), X(delete_module),
	X(get_kernel_syms), X(query_module), X(quotactl), X(nfsservctl),
	X(getpmsg), X(putpmsg), X(afs_syscall), X(tuxcall), X(security),
	X(gettid), X(readahead), X(setxattr), X(lsetxattr), X(fsetxattr),
	X(getxattr), X(lgetxattr), X(fgetxattr), X(listxattr),
	X(llistxattr), X(flistxattr), X(removexattr), X(lremovexattr),
	X(fremovexattr), X(tkill), X(time), X(futex), X(sched_setaffinity),
	X(sched_getaffinity), X(set_thread_area), X(io_setup),
	X(io_destroy), X(io_getevents), X(io_submit), X(io_cancel),
	X(get_thread_area), X(lookup_dcookie), X(epoll_create),
	X(epoll_ctl_old), X(epoll_wait_old), X(remap_file_pages),
	X(getdents64), X(set_tid_address), X(restart_syscall),
	X(semtimedop), X(fadvise64), X(timer_create), X(timer_settime),
	X(timer_gettime), X(timer_getoverrun), X(timer_delete),
	X(clock_settime), X(clock_gettime), X(clock_getres),
	X(clock_nanosleep), X(epoll_wait), X(epoll_ctl), X(tgkill),
	X(utimes), X(vserver), X(mbind), X(set_mempolicy), X(get_mempolicy),
	X(mq_open), X(mq_unlink), X(mq_timedsend), X(mq_timedreceive),
	X(mq_notify), X(mq_getsetattr), X(kexec_load), X(waitid),
	X(add_key), X(request_key), X(keyctl), X(ioprio_set), X(ioprio_get),
	X(inotify_init), X(inotify_add_watch), X(inotify_rm_watch),
	X(migrate_pages), X(openat), X(mkdirat), X(mknodat), X(fchownat),
	X(futimesat), X(newfstatat), X(unlinkat), X(renameat), X(linkat),
	X(symlinkat), X(readlinkat), X(fchmodat), X(faccessat), X(pselect6),
	X(ppoll), X(unshare), X(set_robust_list), X(get_robust_list),
	X(splice), X(tee), X(sync_file_range), X(vmsplice), X(move_pages),
	X(utimensat), X(epoll_pwait), X(signalfd), X(timerfd_create),
	X(eventfd), X(fallocate), X(timerfd_settime), X(timerfd_gettime),
	X(accept4), X(signalfd4), X(eventfd2), X(epoll_create1), X(dup3),
	X(pipe2), X(inotify_init1), X(preadv), X(pwritev),
	X(rt_tgsigqueueinfo), X(perf_event_open), X(recvmmsg),
	X(fanotify_init), X(fanotify_mark), X(prlimit64),
	X(name_to_handle_at), X(open_by_handle_at), X(clock_adjtime),
	X(syncfs), X(sendmmsg), X(setns), X(getcpu), X(process_vm_readv),
	X(process_vm_writev), X(kcmp), X(finit_module), X(sched_setattr),
	X(sched_getattr), X(renameat2), X(seccomp), X(getrandom),
	X(memfd_create), X(kexec_file_load), X(bpf), X(execveat),
	X(userfaultfd), X(membarrier), X(mlock2), X(copy_file_range),
	X(preadv2), X(pwritev2), X(pkey_mprotect), X(pkey_alloc),
	X(pkey_free), X(statx), X(io_pgetevents), X(rseq),
	X(pidfd_send_signal), X(io_uring_setup), X(io_uring_enter),
	X(io_uring_register), X(open_tree), X(move_mount), X(fsopen),
	X(fsconfig), X(fsmount), X(fspick), X(pidfd_open), X(clone3),
	X(close_range), X(openat2), X(pidfd_getfd), X(faccessat2),
	X(process_madvise), X(epoll_pwait2), X(mount_setattr),
	X(quotactl_fd), X(landlock_create_ruleset), X(landlock_add_rule),
	X(landlock_restrict_self), X(memfd_secret), X(process_mrelease),
	X(futex_waitv), X(set_mempolicy_home_node),
	XN(cachestat, 451), XN(fchmodat2, 452), XN(map_shadow_stack, 453),
	XN(futex_wake, 454), XN(futex_wait, 455), XN(futex_requeue, 456),
	XN(statmount, 457), XN(listmount, 458), XN(lsm_get_self_attr, 459),
	XN(lsm_set_self_attr, 460), XN(lsm_list_modules, 461),
	XN(mseal, 462), XN(setxattrat, 463), XN(getxattrat, 464),
	XN(listxattrat, 465), XN(removexattrat, 466),
	XN(open_tree_attr, 467), XN(file_getattr, 468),
	XN(file_setattr, 469),

	/* Arguments that profiles' conditions look at, and calls that
	 * succeed (a real answer, not only an error). */
	XA("personality:0", personality, 0),
	XA("personality:0x8", personality, 8),
	XA("personality:0x20000", personality, 0x20000),
	XA("personality:0x20008", personality, 0x20008),
	XA("personality:0x40000", personality, 0x40000),	/* ADDR_NO_RANDOMIZE */
	XA("personality:hi", personality, M1),	/* 0xffffffff, high bits set */
	XA("personality:reset", personality, 0),
	XA("clone:sighand", clone, CLONE_SIGHAND),	/* EINVAL without CLONE_VM */
	XA("clone:newuser", clone, CLONE_NEWUSER | CLONE_SIGHAND),
	XA("socket:unix", socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0),
	XA("socket:vsock", socket, 40, SOCK_STREAM | SOCK_CLOEXEC, 0),
	XA("socket:netlink_audit", socket, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 9),
	XA("ioctl:TIOCSTI", ioctl, M1, TIOCSTI, 0),
	XA("ioctl:USERFAULTFD_IOC_NEW", ioctl, M1, USERFAULTFD_IOC_NEW, 0),
	XA("seccomp:new_listener", seccomp, SECCOMP_SET_MODE_FILTER,
	   SECCOMP_FILTER_FLAG_NEW_LISTENER, 0),
	XA("seccomp:get_notif_sizes", seccomp, SECCOMP_GET_NOTIF_SIZES, 0, BUF),
	XA("userfaultfd:user_mode", userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY),
	XA("kill:self", kill, SELF, 0),
	XA("tgkill:self", tgkill, SELF, SELF, 0),
	XA("prlimit64:self", prlimit64, 0, RLIMIT_NOFILE, 0, BUF),
	XA("setpriority:self", setpriority, PRIO_PROCESS, 0, 0),
	XA("sched_getaffinity:self", sched_getaffinity, 0, 128, BUF),
	XA("getcwd:buf", getcwd, BUF, 4096),
	XA("uname:buf", uname, BUF),
	XA("openat:root", openat, AT_FDCWD, ROOT, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
	XA("newfstatat:root", newfstatat, AT_FDCWD, ROOT, BUF, 0),
	XA("mmap:anon", mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, M1, 0),
	XA("getrandom:buf", getrandom, BUF, 16, 0),
	XA("clock_gettime:monotonic", clock_gettime, CLOCK_MONOTONIC, BUF),
	XA("fcntl:getfd", fcntl, 1, F_GETFD),
	XA("prctl:get_dumpable", prctl, PR_GET_DUMPABLE),
	XA("wait4:nochild", wait4, M1, 0, WNOHANG, 0),
	XA("setpgid:self", setpgid, 0, 0),
	XA("pidfd_open:self", pidfd_open, SELF, 0),
	XA("close_range:cloexec_unused", close_range, 1000, 1000, CLOSE_RANGE_CLOEXEC),
	XNA("mseal:none", 462, 0, 0, 0),	/* nothing to seal: 0 */

	/* Numbers: holes of the x86-64 table (not 335 and 336, above),
	 * the x32 ABI by its bit, and numbers no kernel has. */
#define HOLE(n)	R("nr" #n, n)
	HOLE(337), HOLE(338), HOLE(339), HOLE(340), HOLE(350), HOLE(360),
	HOLE(380), HOLE(400), HOLE(410), HOLE(420), HOLE(423),
	R("nr470", 470), R("nr471", 471), R("nr472", 472), R("nr480", 480),
	R("nr500", 500), R("nr511", 511),
	/* x32's own numbers, made without the x32 bit */
	R("nr512", 512), R("nr520", 520), R("nr547", 547), R("nr548", 548),
	R("nr1000", 1000), R("nr4095", 4095), R("nr0x3fffffff", 0x3fffffff),
	R("nr0x80000000", 0x80000000l), R("nr0xbfffffff", 0xbfffffffl),
	R("x32:getpid", X32_BIT | 39), R("x32:read", X32_BIT | 0),
	R("x32:ptrace", X32_BIT | 521), R("x32:io_uring_setup", X32_BIT | 425),
	R("x32:mseal", X32_BIT | 462), R("x32:nr1000", X32_BIT | 1000),
	R("nr0x7fffffff", 0x7fffffffl), R("nr-1", -1l),

	/* The i386 ABI. */
	I("i386:getpid", 20), I("i386:read", 3), I("i386:socketcall", 102),
	I("i386:socket", 359), I("i386:ptrace", 26), I("i386:clone3", 435),
	I("i386:io_uring_setup", 425), I("i386:pidfd_getfd", 438),
	I("i386:set_mempolicy_home_node", 450), I("i386:cachestat", 451),
	I("i386:statmount", 457), I("i386:mseal", 462), I("i386:nr1000", 1000),
	I("i386:nr0x3fffffff", 0x3fffffff),
};

#define N_CALLS (sizeof(calls) / sizeof(calls[0]))

static char buf[4096] __attribute__((aligned(64)));

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t len, off = 0;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	len = strlen(line);
	line[len++] = '\n';
	while (off < len) {
		/* write(2) by number: no stdio buffer to copy into a child */
		long w = syscall(__NR_write, 1, line + off, len - off);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			_exit(3);
		}
		off += (size_t)w;
	}
}

static unsigned long arg(unsigned long v)
{
	switch (v) {
	case BUF:
		return (unsigned long)buf;
	case SELF:
		return (unsigned long)getpid();
	case ROOT:
		return (unsigned long)"/";
	}
	return v;
}

static long int80(long nr, const unsigned long a[6])
{
	long r;

	/* Five arguments (ebx, ecx, edx, esi, edi): ebp is the frame. */
	asm volatile("int $0x80"
		     : "=a"(r)
		     : "a"(nr), "b"(a[0]), "c"(a[1]), "d"(a[2]), "S"(a[3]), "D"(a[4])
		     : "memory");
	return (int)r;	/* the i386 ABI's int, sign-extended */
}

static void report(const struct call *c, long r, int err)
{
	if (r >= 0)
		out("%s ok", c->name);
	else
		out("%s -1 %s", c->name, strerrorname_np(err) ?: "?");
}

static void make(const struct call *c)
{
	unsigned long a[6];
	long r;
	int err = 0;

	for (int i = 0; i < 6; i++)
		a[i] = arg(c->a[i]);
	switch (c->how) {
	case NATIVE:
		errno = 0;
		r = syscall(c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		err = errno;
		break;
	case INT80:
		r = int80(c->nr, a);
		if (r < 0 && r >= -4095) {
			err = (int)-r;
			r = -1;
		}
		break;
	case FORK:
		errno = 0;
		r = syscall(c->nr);
		err = errno;
		if (r == 0)
			syscall(__NR_exit_group, 0);
		if (r > 0)
			waitpid((pid_t)r, NULL, 0);
		break;
	default:
		abort();
	}
	report(c, r, err);
}

/* The child's progress, shared with the parent: the call it is making. */
static volatile size_t *progress;

static void child(size_t from)
{
	for (size_t i = from; i < N_CALLS; i++) {
		*progress = i;
		make(&calls[i]);
	}
	*progress = N_CALLS;
	_exit(0);
}

int main(int argc, char **argv)
{
	size_t from = 0;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		for (size_t i = 0; i < N_CALLS; i++)
			out("%s", calls[i].name);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: %s [-l]\n", argv[0]);
		return 2;
	}
	progress = mmap(NULL, sizeof(*progress), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (progress == MAP_FAILED) {
		perror("sw-oci-probe: mmap");
		return 1;
	}
	while (from < N_CALLS) {
		size_t seen = from;
		int status, waited = 0;
		pid_t pid, w;

		*progress = from;
		pid = fork();
		if (pid < 0) {
			perror("sw-oci-probe: fork");
			return 1;
		}
		if (pid == 0)
			child(from);
		/* Wait, and give up on a call that has not returned in 5 s
		 * (polled: the profile decides which waiting calls exist). */
		for (;;) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			w = waitpid(pid, &status, WNOHANG);
			if (w == pid)
				break;
			if (w < 0) {
				perror("sw-oci-probe: waitpid");
				return 1;
			}
			if (*progress != seen) {
				seen = *progress;
				waited = 0;
			} else if (++waited == 250) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				out("%s timeout", calls[*progress].name);
				status = -1;
				break;
			}
			nanosleep(&ts, NULL);
		}
		if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		    *progress == N_CALLS)
			break;
		if (status != -1 && WIFSIGNALED(status))
			out("%s signal %d", calls[*progress].name, WTERMSIG(status));
		else if (status != -1)
			out("%s exit %d", calls[*progress].name, WEXITSTATUS(status));
		from = *progress + 1;
	}
	return 0;
}
