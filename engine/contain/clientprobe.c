// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Is a daemon's client in a Landlock domain?  A program the daemon starts
 * is in the daemon's domain (none) and a new one of its own; one the
 * client runs itself would be in the client's too, so a client in a
 * domain the daemon is not in must be refused (clientctx.c).
 *
 * The kernel has no query for a task's domain (up to Linux 6.18; see
 * landlock-lsm/linux issue 26, "Identify tasks' domain"): neither
 * /proc/<pid>/status nor attr/ says, and the audit records of ABI 7
 * name a domain only once it denied something.  What every domain does,
 * whatever rights and scopes its rulesets handle, is one kernel rule:
 * a task in a domain passes a ptrace-mode access check only on tasks of
 * its domain or of a domain nested below it (security/landlock/task.c,
 * hook_ptrace_access_check(), domain_scope_le()), while a task in no
 * domain passes it on anyone the other checks allow.  So the probe is a
 * ptrace-mode check made by the client itself on a task outside every
 * domain but the daemon's own, where nothing else could refuse it:
 *
 *   - the witness: a process the daemon forks in the client's pid, user
 *     and mount namespaces and root, with the client's uid and gid and
 *     no capability (no_new_privs), its standard streams /dev/null and no other
 *     descriptor, which executes a minimal image of a few bytes
 *     (sw_arch_witness_image(), from a memfd: no loader needed in the
 *     client's root) and stops at that exec, traced by its parent, so
 *     that it never runs an instruction and no one else can attach to
 *     it.  The kernel's uid and gid test passes (the client's real ids
 *     are its ids), and it is dumpable (its creds did not change at the
 *     exec, fs/exec.c): then the LSMs decide, and Landlock is the one
 *     that refuses.  Everything the client could reach through it once
 *     the check passes (/proc/<pid>/mem, root, cwd, fd) is its own or
 *     empty.  (A zombie would do without an exec, but Linux 6.18 takes
 *     a task without an mm as not dumpable: EPERM for every client of
 *     another uid than root.)  Yama checks attaching only, not reading;
 *   - the check: get_robust_list(witness, NULL, NULL), whose
 *     PTRACE_MODE_READ_REALCREDS check (kernel/futex/syscalls.c) comes
 *     before anything else it does: -EPERM if the check fails, else
 *     -EFAULT from writing its answer to NULL.  It writes nothing into
 *     the client and exists on every kernel (kcmp needs CONFIG_KCMP);
 *   - made by the client: the daemon seizes it (ptrace), interrupts it,
 *     and at its next syscall-entry stop (a client waiting for its
 *     reply is in poll(2), which restarts) replaces that call with the
 *     check, takes the result at the exit stop, rewinds the registers
 *     so that the client's own call runs again (as the path guard's
 *     setup does, arch.h), and detaches.  The client does not
 *     cooperate; what it could still do is answer the check itself,
 *     with a seccomp filter added (by another thread, TSYNC) after the
 *     daemon counted its filters: so they are counted again at the
 *     check's exit (filters_now()), and one more is a refusal.  One that
 *     makes no system call within a second cannot be checked and is
 *     refused.
 *
 * Runs on a thread that may wait (syswardd's compile stage): the waits
 * for the client are bounded (PROBE_MS each), and its stops are this
 * thread's alone (the tracer threads wait with __WNOTHREAD).  About 1 ms
 * a client (docs/security.md, route 14).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysward/clock.h"
#include "sysward/proc.h"
#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "arch.h"
#include "sys.h"
#include "contain/clientprobe.h"

#ifndef PTRACE_EVENT_STOP
#define PTRACE_EVENT_STOP 128
#endif
#define PROBE_MS 1000

/* The witness: w1 forks it (in the client's pid namespace) and traces
 * it, stopped at its exec, until we kill w1. */
struct witness {
	pid_t w1;
	pid_t vpid;		/* its number in the client's pid namespace */
};

/*
 * Killed, never told: a pipe's end of file would wait for every copy of
 * its other end, and a fork on another of our threads (a compile
 * process, which lives for seconds) holds one until it exits.  The
 * witness dies with w1 (PR_SET_PDEATHSIG), and w1 with the thread that
 * forked it.
 */
static void witness_end(struct witness *w)
{
	if (w->w1 > 0) {
		kill(w->w1, SIGKILL);
		while (waitpid(w->w1, NULL, 0) < 0 && errno == EINTR)
			;
	}
	w->w1 = 0;
}

/* The client's namespace name if it is not ours: an fd of it, -1 if it
 * is ours, -errno. */
static int ns_if_other(pid_t pid, const char *name)
{
	char path[64], self[64];
	struct stat a, b;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	snprintf(self, sizeof(self), "/proc/self/%s", name);
	if (stat(path, &a) < 0 || stat(self, &b) < 0)
		return -errno;
	if (a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return -1;
	fd = open(path, (strcmp(name, "root") == 0 ? O_PATH | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* In the witness, from fork to exec: async-signal-safe, exits on error. */
/* Set the capability sets to eff and perm (one 32-bit word each is all
 * that is used here: CAP_SYS_ADMIN, or nothing). */
static int caps_to(uint32_t eff, uint32_t perm)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { eff, perm, 0 }, { 0, 0, 0 } };

	return (int)syscall(SYS_capset, &h, d);
}

static _Noreturn void witness(int img, int userns, int mntns, int root,
			      uid_t uid, gid_t gid)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigset_t none;

	/* The SIGTRAP of its exec must stop it (a daemon's thread may block
	 * every signal, and the exec keeps the mask): its first instruction
	 * is never run. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null < 0 || ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
		_exit(1);
	/* Whatever the client could reach through it is its own: its
	 * mounts, its root (which is also the working directory). */
	if ((mntns >= 0 && setns(mntns, CLONE_NEWNS) < 0) ||
	    (root >= 0 && (fchdir(root) < 0 || chroot(".") < 0)) ||
	    chdir("/") < 0)
		_exit(2);
	for (int i = 0; i < 3; i++)
		if (dup2(null, i) < 0)
			_exit(1);
	/* Its ids only (the kernel's test compares no groups); a daemon of
	 * the client's own ids has nothing to change, and may lack the
	 * capabilities to (a container's root). */
	if (syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */) < 0 ||
	    (getgid() != gid && setresgid(gid, gid, gid) < 0) ||
	    (userns >= 0 && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0) ||
	    (getuid() != uid && setresuid(uid, uid, uid) < 0))
		_exit(3);
	/*
	 * In the client's user namespace: the kernel compares capabilities
	 * only within one (security/commoncap.c, cap_ptrace_access_check():
	 * the target's permitted set must be within the caller's, in the
	 * same namespace, else CAP_SYS_PTRACE over the target's).  And with
	 * none: no_new_privs and empty sets, so that its exec gives it none
	 * either (a root uid's exec fills the permitted set, unless NNP
	 * limits it to what it had, cap_bprm_creds_from_file()).
	 */
	if (userns >= 0 &&
	    (caps_to(1u << CAP_SYS_ADMIN, 1u << CAP_SYS_ADMIN) < 0 ||
	     setns(userns, CLONE_NEWUSER) < 0))
		_exit(5);
	/* Dead with w1.  Last: a change of ids clears it (commit_creds());
	 * w1 is killed only once it told about our stop, after this. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || caps_to(0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		_exit(3);
	syscall(SYS_execveat, img, "", (char *const[]){ NULL },
		(char *const[]){ NULL }, AT_EMPTY_PATH);
	_exit(4);
}

static int witness_start(pid_t client, uid_t uid, gid_t gid, struct witness *w,
			 struct sw_error *err)
{
	char path[64], status[SW_PROC_TEXT_MAX];
	int up[2] = { -1, -1 }, n;
	int img = -1, pidns = -1, userns = -1, mntns = -1, root = -1, r = 0;
	const unsigned char *bytes;
	pid_t got[2] = { 0, 0 };	/* its pid (ours), its wait status */
	size_t len;
	long v;

	*w = (struct witness){ 0, 0 };
	bytes = sw_arch_witness_image(&len);
	img = sw_sys_memfd_create("sysward-witness", MFD_CLOEXEC);
	if (img < 0 || write(img, bytes, len) != (ssize_t)len)
		r = sw_error_set_errno(err, errno ? errno : EIO, "make the probe's witness image (memfd)");
	if (r >= 0 && ((pidns = ns_if_other(client, "ns/pid")) < -1 ||
		       (userns = ns_if_other(client, "ns/user")) < -1 ||
		       (mntns = ns_if_other(client, "ns/mnt")) < -1 ||
		       (root = ns_if_other(client, "root")) < -1))
		r = sw_error_set_errno(err, -(pidns < -1 ? pidns : userns < -1 ? userns :
					      mntns < -1 ? mntns : root),
				       "open the client's namespaces and root (/proc/%d)", (int)client);
	if (r >= 0 && pipe2(up, O_CLOEXEC) < 0)
		r = sw_error_set_errno(err, errno, "create a pipe to the probe's witness");
	if (r >= 0 && (w->w1 = fork()) == 0) {
		/* Async-signal-safe from here: we may have threads.  Every
		 * way out writes its word, so our read never waits for an
		 * end of file. */
		int st = 1 << 8;	/* "exited 1" */

		close(up[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 &&
		    (pidns < 0 || setns(pidns, CLONE_NEWPID) == 0) &&
		    (got[0] = fork()) == 0)
			witness(img, userns, mntns, root, uid, gid);
		/* Stopped at its exec (SIGTRAP, PTRACE_TRACEME), or dead. */
		if (got[0] > 0 && waitpid(got[0], &st, __WALL) != got[0])
			st = 1 << 8;
		got[1] = st;
		(void)!write(up[1], got, sizeof(got));
		for (;;)
			pause();	/* until we kill it */
	}
	if (up[1] >= 0)
		close(up[1]);
	if (r >= 0 && w->w1 < 0) {
		w->w1 = 0;
		r = sw_error_set_errno(err, errno, "fork the probe's witness");
	}
	if (r >= 0) {
		while ((n = (int)read(up[0], got, sizeof(got))) < 0 && errno == EINTR)
			;
		if (n != sizeof(got) || !WIFSTOPPED(got[1]))
			r = sw_error_set(err, ECHILD,
				"start the probe's witness (uid %u gid %u in the client's pid "
				"and mount namespace and root): %s", (unsigned int)uid,
				(unsigned int)gid, n != sizeof(got) ? "no word from it"
				: WIFEXITED(got[1]) && WEXITSTATUS(got[1]) == 2
				? "cannot enter the client's root"
				: WIFEXITED(got[1]) && WEXITSTATUS(got[1]) == 4
				? "cannot execute its image (vm.memfd_noexec?)"
				: WIFEXITED(got[1]) && WEXITSTATUS(got[1]) == 5
				? "cannot enter the client's user namespace"
				: "it ended");
	}
	{
		int fds[] = { up[0], img, pidns, userns, mntns, root };

		for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	if (r < 0) {
		witness_end(w);
		return r;
	}
	/* Its number as the client names it: the last of its NSpid. */
	snprintf(path, sizeof(path), "/proc/%d/status", (int)got[0]);
	if (sw_proc_read(path, status, sizeof(status)) < 0 ||
	    (n = sw_proc_count(status, "NSpid")) < 1 ||
	    !sw_proc_number(status, "NSpid", 10, (unsigned int)n - 1, &v)) {
		witness_end(w);
		return sw_error_set(err, ESRCH, "read the probe's witness's pid (%s)", path);
	}
	w->vpid = (pid_t)v;
	return 0;
}

/* Wait at most until deadline (ms) for a stop or the end of pid: the
 * status, 0 on time out, -errno.  Between looks, a SIGCHLD wakes us: the
 * kernel sends one to the tracer's process for each stop of its tracee
 * (do_notify_parent_cldstop()); syswardd blocks it in every thread and
 * no one else waits for it, so taking one (or another tracee's) costs
 * nothing; elsewhere the 10 ms bound does. */
static int wait_for(pid_t pid, long long deadline, int *status)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		pid_t r = sw_sys_waitpid(pid, status, __WALL | WNOHANG);
		long long now;

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -errno;
		now = sw_mono_ms();
		if (now >= deadline)
			return 0;
		(void)sigtimedwait(&chld, NULL, &(struct timespec){ 0, 10 * 1000000L });
	}
}

/*
 * Make the seized client call get_robust_list(target, NULL, NULL) in
 * place of its next syscall: its result in *rval.  0, or -errno (the
 * client ended, stopped, made no call in time, or runs another ABI).
 */
static int inject_check(pid_t pid, pid_t target, long *rval, bool *detach)
{
	long long deadline = sw_mono_ms() + PROBE_MS;
	struct sw_arch_regs r0;
	bool injected = false;
	int st, r;

	while ((r = wait_for(pid, deadline, &st)) > 0) {
		struct sw_ptrace_syscall_info info = { 0 };
		int sig = WSTOPSIG(st), event = st >> 16, pass = 0;

		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			*detach = false;
			return -ESRCH;
		}
		if (event == PTRACE_EVENT_STOP) {
			/* A group-stop: the client is stopped (job control);
			 * running it would change what its shell sees. */
			if (sig != SIGTRAP)
				return -EAGAIN;
		} else if (sig == (SIGTRAP | 0x80)) {
			if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, pid,
					  (void *)sizeof(info), &info) < 0)
				return -errno;
			if (!injected && info.op == SW_PTRACE_SYSCALL_INFO_ENTRY) {
				uint64_t a[6] = { (uint64_t)target, 0, 0, 0, 0, 0 };

				if ((r = sw_arch_get_regs(pid, &r0)) < 0)
					return r;
				if (sw_arch_guard_entry_check(&r0) != 0)
					return -ENOEXEC;
				if ((r = sw_arch_inject(pid, &r0, true, SYS_get_robust_list, a)) < 0)
					return r;
				injected = true;
			} else if (injected && info.op == SW_PTRACE_SYSCALL_INFO_EXIT) {
				*rval = info.exit.rval;
				/* Its own call again, from its instruction. */
				return sw_arch_replay(pid, &r0);
			}
		} else {
			pass = sig;	/* a signal for it: delivered */
		}
		if (sw_sys_ptrace(PTRACE_SYSCALL, pid, 0L, (void *)(long)pass) < 0)
			return -errno;
	}
	return r < 0 ? r : -ETIMEDOUT;
}

/* Let go of the client: it must be stopped to be detached.  One that
 * cannot be stopped in time (a sleep nothing interrupts) would stay
 * traced by a daemon thread that never waits for it again: killed. */
static void release(pid_t pid)
{
	int st;

	if (sw_sys_ptrace(PTRACE_DETACH, pid, 0L, 0L) == 0)
		return;
	sw_sys_ptrace(PTRACE_INTERRUPT, pid, 0L, 0L);
	if (wait_for(pid, sw_mono_ms() + PROBE_MS, &st) > 0 &&
	    !WIFEXITED(st) && !WIFSIGNALED(st) &&
	    sw_sys_ptrace(PTRACE_DETACH, pid, 0L, 0L) == 0)
		return;
	kill(pid, SIGKILL);
	(void)wait_for(pid, sw_mono_ms() + PROBE_MS, &st);
}

/*
 * How many seccomp filters pid has now (/proc/<pid>/status), or -1.  A
 * task's filters are only ever added (kernel/seccomp.c: no call removes
 * one, TSYNC gives a thread its caller's chain, which holds its own), so
 * a count read after a call is at least what the call ran under.
 */
static long filters_now(pid_t pid)
{
	char path[64], status[SW_PROC_TEXT_MAX];
	long mode = 0, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (sw_proc_read(path, status, sizeof(status)) < 0 ||
	    !sw_proc_number(status, "Seccomp", 10, 0, &mode))
		return -1;
	if (mode == 0)
		return 0;
	return sw_proc_number(status, "Seccomp_filters", 10, 0, &n) ? n : -1;
}

int sw_client_probe_domain(pid_t pid, uid_t uid, gid_t gid, long filters,
			   struct sw_error *err)
{
	struct witness w;
	bool detach = true;
	long rval = 0, after = -1;
	int r;

	/* No Landlock, no domain. */
	if (syscall(SYS_landlock_create_ruleset, NULL, 0, 1u /* VERSION */) < 0)
		return 0;
	r = witness_start(pid, uid, gid, &w, err);
	if (r < 0)
		return sw_error_wrap(err, "check whether pid %d is in a Landlock domain", (int)pid);
	if (sw_sys_ptrace(PTRACE_SEIZE, pid, 0L, (void *)(long)PTRACE_O_TRACESYSGOOD) < 0) {
		r = -errno;
		witness_end(&w);
		return sw_error_set_errno(err, -r,
			"check whether pid %d is in a Landlock domain: trace it (PTRACE_SEIZE; "
			"under Yama the client must allow it, as sysward run does)", (int)pid);
	}
	if (sw_sys_ptrace(PTRACE_INTERRUPT, pid, 0L, 0L) < 0)
		r = -errno;
	else
		r = inject_check(pid, w.vpid, &rval, &detach);
	/*
	 * The answer is the kernel's only if no filter but those the client
	 * was accepted with (clientctx.c) saw the check: one it added since
	 * (another thread of its, TSYNC) outranks everything and answers
	 * get_robust_list as it likes, EFAULT included, without running it
	 * (kernel/seccomp.c, __seccomp_filter()).  Read while the client
	 * still stops at the check's exit.
	 */
	if (r >= 0)
		after = filters_now(pid);
	if (detach)
		release(pid);
	witness_end(&w);
	if (r < 0)
		return sw_error_set_errno(err, -r,
			"check whether pid %d is in a Landlock domain (it must make a system "
			"call within %d ms, in 64-bit code, and not be stopped)", (int)pid,
			PROBE_MS);
	if (after < 0 || after > filters)
		return sw_error_set(err, EPERM,
			"pid %d installed a seccomp filter while syswardd checked whether it "
			"is in a Landlock domain (%ld filter%s, %ld when it asked): its "
			"filter, not the kernel, may have answered the check; a program the "
			"daemon starts would have neither",
			(int)pid, after, after == 1 ? "" : "s", filters);
	if (rval == -EPERM)
		return sw_error_set(err, EPERM,
			"pid %d is in a Landlock domain (it may not read a process of its own "
			"uid outside it), which its program would inherit and a daemon cannot "
			"carry over; run the program embedded (sysward run without --daemon), "
			"where it inherits the domain", (int)pid);
	if (rval != -EFAULT)
		return sw_error_set(err, EPROTO,
			"check whether pid %d is in a Landlock domain: the check answered %ld, "
			"neither EPERM nor EFAULT", (int)pid, rval);
	return 0;
}
