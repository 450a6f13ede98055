// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The launch child, from its fork to its exec; only async-signal-safe
 * calls (the daemon may have threads: everything that allocates was
 * prepared before the fork, prepare.c).  In order: its own process group
 * (and, when the caller asks, a session of its own led by an untraced
 * holder that is its parent: become_holder()), the caller's terminal and
 * signal state, nice, its descriptors (stdio, or exactly those handed
 * over: fds.c), a client's context (clientctx.c), its own namespaces,
 * cgroup and /proc (nsbox.c), groups/gid/uid,
 * bounding set + capabilities (libcap), no_new_privs, then wait on a
 * pipe until the parent has PTRACE_SEIZEd it, enter the working
 * directory, add the policy's file rules (fsrules.c) and enter a Landlock
 * domain of its own (landlock.c), load the filters and exec (exec.c).  Any failure is reported as (stage, errno) on a CLOEXEC
 * pipe (launchreport.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "sysward/seccomp_abi.h"
#include "launch/prepare.h"
#include "internal.h"
#include "contain/clientctx.h"
#include "contain/contain.h"
#include "contain/fsrules.h"
#include "contain/nsbox.h"
#include "launch/launch.h"
#include "trace/reach.h"

/*
 * A session keyring of the program's own (docs/security.md, route 20):
 * without it the program's session keyring is its launcher's (a login's,
 * which links the user keyring) or, with none, the user session keyring,
 * and the program possesses @u through it.  A new anonymous keyring
 * (KEYCTL_JOIN_SESSION_KEYRING with no name) owned by the program's uid:
 * after the uid changed.  Then, as that uid, the serials of the keyrings
 * the supervisor refuses by number (objects.c): the user keyring, the
 * user session keyring (both made if the uid has none yet, as any
 * reference does) and the persistent keyring (made as keyctl
 * get_persistent does, linked into ours for a moment only).  A kernel
 * without keys (ENOSYS) has nothing to keep out of reach, nor has a
 * program that inherits a filter refusing keyctl; any other failure
 * (EDQUOT: the uid's key quota full) fails the launch, rather than run
 * the program in the launcher's keyring.  A client's program has joined
 * one of its own already (clientctx.c, in the client's user namespace):
 * join false.  Async-signal-safe: raw system calls.
 */
static void own_keyring(int rep_fd, bool join, int32_t serials[SW_OBJECTS_KEYRINGS])
{
	long r = join ? syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0L, 0L, 0L, 0L) :
			syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, (long)KEY_SPEC_SESSION_KEYRING,
				0L, 0L, 0L);

	if (r < 0 && errno == ENOSYS)
		return;
	/* keyctl refused to us by a seccomp filter around the launcher (a
	 * container's default profile refuses keyctl, add_key and
	 * request_key whole, EPERM), which the program inherits: it reaches
	 * no keyring at all.  A filter that refused the join but let keyctl
	 * name our session keyring would not: that fails the launch (as
	 * clientctx.c's join). */
	if (r < 0 && errno == EPERM &&
	    syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, (long)KEY_SPEC_SESSION_KEYRING,
		    0L, 0L, 0L) < 0 && errno == EPERM)
		return;
	if (r < 0)
		sw_launch_fail(rep_fd, SW_STAGE_KEYRING);
	r = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, (long)KEY_SPEC_USER_KEYRING, 1L, 0L, 0L);
	if (r < 0)
		sw_launch_fail(rep_fd, SW_STAGE_KEYRING);
	serials[0] = (int32_t)r;
	r = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, (long)KEY_SPEC_USER_SESSION_KEYRING,
		    1L, 0L, 0L);
	if (r < 0)
		sw_launch_fail(rep_fd, SW_STAGE_KEYRING);
	serials[1] = (int32_t)r;
	/* EOPNOTSUPP: a kernel without persistent keyrings. */
	r = syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, -1L, (long)KEY_SPEC_SESSION_KEYRING,
		    0L, 0L);
	if (r > 0) {
		serials[2] = (int32_t)r;
		if (syscall(SYS_keyctl, KEYCTL_UNLINK, r, (long)KEY_SPEC_SESSION_KEYRING,
			    0L, 0L) < 0)
			sw_launch_fail(rep_fd, SW_STAGE_KEYRING);
	} else if (errno != EOPNOTSUPP) {
		sw_launch_fail(rep_fd, SW_STAGE_KEYRING);
	}
}

/* Our pid as the supervisor knows it.  In a client's pid namespace
 * (clientctx.c) getpid() answers in that namespace; /proc/self, still
 * the daemon's procfs before the client's mount namespace is joined,
 * names us in the daemon's (fs/proc/self.c). */
static pid_t own_pid(const struct sw_client *cl)
{
	char buf[16];
	ssize_t n;

	if (!cl || cl->fd[SW_CLIENT_FD_NS + SW_CLIENT_NS_PID] < 0)
		return getpid();
	n = readlink("/proc/self", buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

/* The holder's terminal for the program (own_terminal()): its slave,
 * and the devpts instance it is in, detached (-1: the launcher's). */
struct pty_fds {
	int slave;
	int pts;
};

/*
 * --sandbox's mounts for a daemon's client (route 13): they look the
 * client's paths up (as the client: lookups_as()), which may block for
 * ever on a file system that never answers (a FUSE server of the
 * client's), and nothing before
 * "ready" may: the daemon's tracer thread waits for it.  So a mounter,
 * forked while the child still holds CAP_SYS_ADMIN in the session's
 * mount namespace and closing every descriptor but its two pipes, waits
 * for the word, makes the mounts and says how it went; the child gives
 * the word after the seize and waits for the answer, as it waits for its
 * chdir: a look-up that never ends then holds this session only.  The
 * mounter runs our code alone, in the session's cgroup (killed with it)
 * and dies with the child (PR_SET_PDEATHSIG).
 */
struct mounter {
	pid_t pid;
	int go, result;		/* the child's ends */
};

/*
 * The mounter looks the client's paths up as the client would: with its
 * groups, and its uid and gid as the file system's (setfsuid(2)), which
 * takes CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and the other file
 * capabilities out of the effective set (security/commoncap.c,
 * cap_task_fix_setuid(), LSM_SETID_FS) and leaves CAP_SYS_ADMIN, which
 * the mounts need.  As root it looked up what the client cannot reach,
 * and the error it sent back told whether that exists (ENOENT, ENOTDIR
 * or, once its mounts were made, the child's EACCES).  Raw calls: the
 * kernel's, per task; the mounter has no other thread.
 */
static int lookups_as(const struct sw_launch *l)
{
	if (l->set_groups &&
	    sw_set_groups_within(l->groups, l->n_groups, l->groups, l->n_groups) < 0)
		return -errno;
	if (l->gid != (gid_t)-1) {
		(void)syscall(SYS_setfsgid, l->gid);
		if ((gid_t)syscall(SYS_setfsgid, (gid_t)-1) != l->gid)
			return -EPERM;
	}
	if (l->uid != (uid_t)-1) {
		(void)syscall(SYS_setfsuid, l->uid);
		if ((uid_t)syscall(SYS_setfsuid, (uid_t)-1) != l->uid)
			return -EPERM;
	}
	return 0;
}

static struct mounter start_mounter(const struct sw_launch *l,
				    const struct sw_sandbox_mounts *m, int rep_fd)
{
	int go[2], res[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_SANDBOX_MOUNTS);
	pid = fork();
	if (pid < 0)
		sw_launch_fail(rep_fd, SW_STAGE_SANDBOX_MOUNTS);
	if (pid == 0) {
		int e = 0;
		char c;

		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() == 1)
			_exit(1);
		/* nothing of the client's or the launch's held here: a
		 * mounter stuck for ever must keep no pipe open */
		{
			unsigned int a = (unsigned int)(go[0] < res[1] ? go[0] : res[1]);
			unsigned int b = (unsigned int)(go[0] < res[1] ? res[1] : go[0]);

			if (a > 0)
				(void)syscall(SYS_close_range, 0U, a - 1, 0U);
			if (b > a + 1)
				(void)syscall(SYS_close_range, a + 1, b - 1, 0U);
			(void)syscall(SYS_close_range, b + 1, ~0U, 0U);
		}
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		/* Its working directory is the daemon's, which the client
		 * may not enter (a root shell's 0700 home), and
		 * sw_sandbox_mount() enters it again by name, as the client,
		 * once the mounts are made: "/", which every client can. */
		if (chdir("/") < 0)
			_exit(1);
		e = -lookups_as(l);
		if (!e)
			e = -sw_sandbox_mount(m);
		if (write(res[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(res[1]);
	return (struct mounter){ pid, go[1], res[0] };
}

/* After the seize: the mounts made, 0 or -errno. */
static int end_mounter(struct mounter m)
{
	int e = EPROTO, status;

	if (write(m.go, "m", 1) != 1 ||
	    read(m.result, &e, sizeof(e)) != sizeof(e))
		e = e ? e : EPROTO;
	close(m.go);
	close(m.result);
	while (waitpid(m.pid, &status, 0) < 0 && errno == EINTR)
		;
	return -e;
}

static _Noreturn void child(const struct sw_launch *l, cap_t caps,
			    const struct sock_fprog *dprog,
			    const struct sock_fprog *fprog, bool listener,
			    int landlock_fd,
			    struct sw_fsrules *fsrules, int sandbox_fd,
			    struct sw_fsrules *sandbox,
			    const struct sw_sandbox_mounts *sandbox_mounts, const struct sw_nsbox *nsbox, bool pr_keyrings,
			    struct pty_fds pty, int go_fd, int ready_fd, int rep_fd)
{
	/* The terminal it takes the foreground of: its own, or the
	 * caller's (engine.h). */
	int tty = l->tty ? pty.slave : l->foreground ? l->tty_fd : -1;
	/* Ours to move out of the way of the descriptors handed over. */
	struct sw_client cl = l->client ? *l->client : (struct sw_client){ 0 };
	struct sw_client_where where = { -1, -1 };
	struct sw_launch_ready ready = { .pid = own_pid(l->client) };
	struct mounter mounter = { -1, -1, -1 };
	int self_fd = -1, listener_fd = -1;
	sigset_t mask;
	char c;
	int last = cap_max_bits();

	/* Its own job, before anything can fail: a kill(0, ...) of the
	 * program must never reach the caller's process group.  In the
	 * caller's session or its holder's (become_holder()), where its
	 * parent is in another group: not orphaned (engine.h). */
	if (setpgid(0, 0) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_PGRP);
	if (tty >= 0) {
		sigset_t ttou;

		/* From a background group tcsetpgrp() raises SIGTTOU unless
		 * it is blocked.  Before exec, so that the program never
		 * reads the terminal as a background job. */
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, NULL);
		if (tcsetpgrp(tty, getpid()) < 0)
			sw_launch_fail(rep_fd, SW_STAGE_TTY);
	}
	/* The caller's signal state, as execve keeps it unconfined: its
	 * ignored signals stay ignored (nohup, trap '' INT), every other
	 * one goes back to its default action (not ours: our handlers, or
	 * a daemon's SIG_IGN), and its mask is the program's. */
	sigemptyset(&mask);
	for (int sig = 1; sig < NSIG && sig <= 64; sig++) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		if (l->sig_ignored & (1ull << (sig - 1)))
			sa.sa_handler = SIG_IGN;
		/* SIGKILL, SIGSTOP and glibc's own two refuse: theirs stay. */
		(void)sigaction(sig, &sa, NULL);
		if (l->sig_blocked & (1ull << (sig - 1)))
			sigaddset(&mask, sig);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	/* Never run at the daemon's priority: a program that could not be
	 * given its client's fails to start rather than run above it. */
	if (l->set_nice && setpriority(PRIO_PROCESS, 0, l->nice) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_NICE);

	if (l->exact_fds) {
		/* What was handed over and nothing else of ours (fds.c):
		 * before anything below opens a descriptor of its own. */
		int *own[7 + SW_CLIENT_FDS] = { &go_fd, &ready_fd, &rep_fd, &landlock_fd,
						 &sandbox_fd, &pty.slave, &pty.pts };
		size_t n_own = 0;

		for (size_t i = 0; i < 7; i++)
			if (*own[i] >= 0)
				own[n_own++] = own[i];
		if (l->client)
			for (int i = 0; i < SW_CLIENT_FDS; i++)
				own[n_own++] = &cl.fd[i];
		errno = -sw_fds_place(l->fds, l->n_fds, own, n_own);
		if (errno)
			sw_launch_fail(rep_fd, SW_STAGE_FDS);
		/* Its terminal is its 0, 1 and 2 (none of the caller's is
		 * there: launch.c); dup2() clears close-on-exec. */
		for (int fd = 0; pty.slave >= 0 && fd < 3; fd++)
			if (dup2(pty.slave, fd) < 0)
				sw_launch_fail(rep_fd, SW_STAGE_PTY);
		if (pty.slave >= 0)
			close(pty.slave);
	} else {
		for (int i = 0; i < 3; i++) {
			if (l->stdio[i] >= 0 && l->stdio[i] != i) {
				if (dup2(l->stdio[i], i) < 0)
					sw_launch_fail(rep_fd, SW_STAGE_STDIO);
			} else if (l->stdio[i] == i) {
				int fl = fcntl(i, F_GETFD);

				if (fl >= 0)
					fcntl(i, F_SETFD, fl & ~FD_CLOEXEC);
			}
		}
	}
	/* The client's context, before anything the session makes for
	 * itself: its namespaces, root, cgroups, limits, ... (clientctx.c;
	 * its pid namespace is the holder's to enter, its user namespace
	 * comes with its uid below). */
	if (nsbox->on && l->client)
		/* Its /proc/<pid>, for its cgroup's path (cgroup.c): the
		 * client's root may have no /proc. */
		self_fd = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (l->client && sw_client_enter(&cl, &where) < 0)
		sw_launch_fail_client(rep_fd, &where);
	/* While it still holds CAP_SYS_ADMIN (nsbox.c, route 16c): its
	 * own cgroup (below the one it is in now: the client's), IPC and
	 * mount namespaces (its /proc: the Landlock domain below then
	 * hides every process outside).  Its cgroup goes to the launcher
	 * over ready_fd, to be removed with the session. */
	{
		struct sw_nsbox_where where;

		errno = -sw_nsbox_enter(nsbox, ready_fd, self_fd, pty.pts, &where);
		if (errno)
			sw_launch_fail_at(rep_fd, SW_STAGE_NSBOX, &where);
		if (self_fd >= 0)
			close(self_fd);
		if (pty.pts >= 0)
			close(pty.pts);
	}
	/* --sandbox in a mount namespace of its own: its read-only trees
	 * as mounts too (sandbox.c), while it holds CAP_SYS_ADMIN.  For a
	 * daemon's client, by a mounter that does them after the seize. */
	if (sandbox_mounts && !l->client) {
		errno = -sw_sandbox_mount(sandbox_mounts);
		if (errno)
			sw_launch_fail(rep_fd, SW_STAGE_SANDBOX_MOUNTS);
	} else if (sandbox_mounts) {
		mounter = start_mounter(l, sandbox_mounts, rep_fd);
	}
	if (l->set_groups &&
	    sw_set_groups_within(l->groups, l->n_groups, l->groups, l->n_groups) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_GROUPS);
	if (l->gid != (gid_t)-1 && setresgid(l->gid, l->gid, l->gid) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_GID);
	if (l->uid != (uid_t)-1) {
		if (l->caps || sw_client_has_userns(l->client))
			prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
		if (setresuid(l->uid, l->uid, l->uid) < 0)
			sw_launch_fail(rep_fd, SW_STAGE_UID);
	}
	/* The client's user namespace once its ids are set in ours, and a
	 * session keyring of its own (clientctx.c). */
	if (l->client && sw_client_enter_user(&cl, &where) < 0)
		sw_launch_fail_client(rep_fd, &where);
	/* A session keyring of its own, and the uid's serials (objects.c). */
	if (pr_keyrings)
		own_keyring(rep_fd, !l->client, ready.keyring);
	for (int cap = 0; cap < last; cap++) {
		if (l->caps & (1ull << cap))
			continue;
		if (!CAP_IS_SUPPORTED(cap))
			continue;
		if (cap_drop_bound(cap) < 0) {
			/* EPERM is the kernel's answer to a caller without
			 * CAP_SETPCAP (cap_prctl_drop(), whatever the cap):
			 * an unprivileged caller, or root in a container of
			 * runc's default spec or Kubernetes' drop: ALL.  The
			 * bounding set stays, and grants nothing: under
			 * no_new_privs (below, before any exec) an exec
			 * never gains a capability beyond the permitted set
			 * (cap_bprm_creds_from_file()), which cap_set_proc()
			 * empties of all but l->caps. */
			if (errno == EPERM)
				break;
			sw_launch_fail(rep_fd, SW_STAGE_BOUNDING);
		}
	}
	if (cap_set_proc(caps) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_CAPS);
	if (geteuid() != 0)
		for (int cap = 0; cap < last && cap < 64; cap++)
			if (l->caps & (1ull << cap))
				(void)cap_set_ambient(cap, CAP_SET);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_NNP);
	/* We inherited the supervisor's non-dumpable flag, and any change
	 * of uid above resets it too: either forbids PTRACE_SEIZE to a
	 * supervisor without CAP_SYS_PTRACE (sysward run by a normal user).
	 * Only now may the parent seize us.  exec sets the flag anew. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	/* Our pid: under a holder the supervisor did not fork us. */
	if (write(ready_fd, &ready, sizeof(ready)) != sizeof(ready))
		_exit(SW_EXIT_SYSWARD_ERROR);
	close(ready_fd);

	/* Wait until the supervisor has seized us: from here on nothing
	 * runs unsupervised. */
	if (read(go_fd, &c, 1) != 1)
		_exit(SW_EXIT_SYSWARD_ERROR);
	close(go_fd);
	if (mounter.pid > 0) {
		errno = -end_mounter(mounter);
		if (errno)
			sw_launch_fail(rep_fd, SW_STAGE_SANDBOX_MOUNTS);
	}
	/* Only as the program's own user: a daemon must not enter, for a
	 * client, a directory the client itself could not (no check-then-use
	 * race between syswardd's access check and this chdir).  After the
	 * seize: a path the client chose may block (a stalled FUSE or NFS
	 * mount), and the supervisor waits for nothing from here on. */
	if (l->cwd && chdir(l->cwd) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_CHDIR);
	if (l->set_umask)
		umask(l->umask);
	/* The policy's file rules, looked up as the program will look
	 * them up: in its root and mount namespace, as its uid, from its
	 * working directory (${CWD}); after the seize, for the chdir's
	 * reason (a hierarchy on a stalled mount holds this session only).
	 * Then a domain of its own (landlock.c, route 16): from here on the
	 * kernel refuses it ptrace-mode access, signals and abstract
	 * sockets to anything outside the session, and every file and port
	 * the rules do not grant.  Before any program code runs (the exec
	 * below); the supervisor, outside, has seized it already (outside
	 * -> inside passes, security/landlock/task.c). */
	if (sandbox_fd >= 0) {
		/* --sandbox first, a layer of its own: the policy's below
		 * can only narrow it (sandbox.c). */
		struct sw_fsrules_where where;

		errno = -sw_fsrules_apply(sandbox, sandbox_fd, &where);
		where.sandbox = true;
		if (errno)
			sw_launch_fail_fsrules(rep_fd, &where);
		errno = -sw_landlock_enter(sandbox_fd);
		if (errno)
			sw_launch_fail(rep_fd, SW_STAGE_LANDLOCK);
		close(sandbox_fd);
	}
	{
		struct sw_fsrules_where where;

		errno = -sw_fsrules_apply(fsrules, landlock_fd, &where);
		if (errno)
			sw_launch_fail_fsrules(rep_fd, &where);
	}
	errno = -sw_landlock_enter(landlock_fd);
	if (errno)
		sw_launch_fail(rep_fd, SW_STAGE_LANDLOCK);
	close(landlock_fd);
	/* Defences first: on a tie the newer filter's TRACE data wins,
	 * and that must be the policy's rule hint (filter.c). */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, dprog) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_SECCOMP);
	if (!listener) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fprog) < 0)
			sw_launch_fail(rep_fd, SW_STAGE_SECCOMP);
	} else {
		/* The policy's calls answered by a listener (notif.c): the
		 * exec below hands it over, and is the next call made.
		 * Once the listener has read a call, only a fatal signal
		 * ends its wait (kernel/seccomp.c should_sleep_killable()). */
		listener_fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
					   SECCOMP_FILTER_FLAG_NEW_LISTENER |
					   SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, fprog);
		if (listener_fd < 0)
			sw_launch_fail(rep_fd, SW_STAGE_SECCOMP);
	}
	errno = sw_exec_program(l->argv, l->envp, listener_fd);
	sw_launch_fail(rep_fd, SW_STAGE_EXEC);
}

/*
 * sw_launch.tty, in the holder, the leader of the program's session,
 * before it forks the program: a controlling terminal is a process's
 * own, taken by a session leader (tiocsctty() sets current's
 * signal->tty alone, drivers/tty/tty_jobctrl.c) and inherited at fork
 * (copy_signal()), so only a terminal the holder has when it forks
 * becomes the program's; and only a group with a parent in another
 * group of the session stops at Ctrl-Z (become_holder()), which a
 * program leading its own session would not be.  The pseudo-terminal
 * is made in the devpts instance the program's mount namespace will
 * show at /dev/pts (nsbox.c, detached until then: a slave of another
 * instance has no name there, is_mytty() in glibc's ttyname()), or
 * where the plan makes none, in the launcher's (/dev/ptmx).  Its slave
 * is the program's uid's, as the terminal a user opens is theirs; it
 * gets the caller's modes and window size before anything reads it.
 * The master goes to the launcher on the ready socket and is closed
 * here: neither the holder nor the program ever holds it.
 */
static struct pty_fds own_terminal(const struct sw_launch *l,
				   const struct sw_nsbox *nsbox, int ready_fd,
				   int rep_fd)
{
	struct pty_fds pty = { -1, sw_nsbox_pts_instance(nsbox) };
	int master, unlock = 0;

	if (pty.pts < 0 && pty.pts != -ENOENT) {
		errno = -pty.pts;
		sw_launch_fail(rep_fd, SW_STAGE_PTY);
	}
	master = pty.pts >= 0 ? openat(pty.pts, "ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
			      : open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || ioctl(master, TIOCSPTLCK, &unlock) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_PTY);
	/* Its own slave, whatever the paths show (Linux 4.13). */
	pty.slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (pty.slave < 0 ||
	    (l->uid != (uid_t)-1 && fchown(pty.slave, l->uid, (gid_t)-1) < 0) ||
	    (l->tty->set_termios && tcsetattr(pty.slave, TCSANOW, &l->tty->tio) < 0) ||
	    ioctl(pty.slave, TIOCSWINSZ, &l->tty->ws) < 0 ||
	    ioctl(pty.slave, TIOCSCTTY, 0) < 0)
		sw_launch_fail(rep_fd, SW_STAGE_PTY);
	errno = -sw_launch_hand(ready_fd, SW_HAND_TTY, master);
	if (errno)
		sw_launch_fail(rep_fd, SW_STAGE_PTY);
	close(master);
	return pty;
}

/*
 * new_session (engine.h): the program's parent leads a session of its
 * own and does nothing but wait for it, so that the program's group is a
 * job of that session, not orphaned: the kernel discards SIGTSTP, SIGTTIN
 * and SIGTTOU sent to an orphaned group (will_become_orphaned_pgrp(): no
 * member has a parent in another group of the same session), where the
 * same program in a shell's job stops.  The supervisor's thread forks an
 * intermediate process, which forks the holder and exits (the caller
 * reaps it at once), so that the holder, reparented, is never a child of
 * the tracer thread, whose waitpid(-1) takes every child's status as a
 * tracee's (tracer.c).  The holder keeps the daemon's credentials
 * (whoever could signal or trace it could signal or trace the daemon)
 * and stays out of the program's Landlock domain, which scopes the
 * program's signals and ptrace to the domain; it blocks every signal it
 * can, closes every descriptor and, with holder_exec, executes a fresh
 * image (sw_holder_main()): a fork of a daemon would keep a copy of every
 * page the daemon writes afterwards, for as long as the session lives.
 * It ends when the program has ended and been reaped (by the supervisor
 * first: a tracee's exit goes to its tracer before its parent).
 * With sw_launch.tty it makes the program's terminal first
 * (own_terminal()).  Returns in the program's process only, with that
 * terminal.
 */
static struct pty_fds become_holder(const struct sw_launch *l,
				    const struct sw_nsbox *nsbox, int ready_fd,
				    int rep_fd)
{
	struct pty_fds pty = { -1, -1 };
	sigset_t all;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		sw_launch_fail(rep_fd, SW_STAGE_HOLDER);
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		sw_launch_fail(rep_fd, SW_STAGE_HOLDER);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);	/* child() sets the program's */
	if (l->tty)
		pty = own_terminal(l, nsbox, ready_fd, rep_fd);
	/* The program is born in the client's pid namespace; the holder
	 * stays in ours (clientctx.c). */
	if (l->client && sw_client_enter_pidns(l->client) < 0)
		sw_launch_fail_client(rep_fd, &(struct sw_client_where){
					      SW_CLIENT_STEP_PIDNS, 0 });
	pid = fork();
	if (pid < 0)
		sw_launch_fail(rep_fd, SW_STAGE_HOLDER);
	if (pid == 0)
		return pty;
	/* Its terminal stays the holder's controlling terminal, not a
	 * descriptor of it (one of 0-2 when the launcher has those shut). */
	if (pty.slave >= 0)
		close(pty.slave);
	if (syscall(SYS_close_range, 3u, ~0u, 0u) < 0)
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
	if (l->holder_exec)
		execve("/proc/self/exe",
		       (char *const[]){ (char *)SW_HOLDER_ARGV0, NULL },
		       (char *const[]){ NULL });
	/* No /proc here: wait in the fork (costs memory, not behaviour). */
	_exit(sw_holder_main());
}

int sw_holder_main(void)
{
	/* Every signal it can block stays blocked (execve keeps the mask):
	 * only SIGKILL and SIGSTOP reach it, from the daemon's uid.  Its
	 * name for ps(1), whether executed or not. */
	prctl(PR_SET_NAME, SW_HOLDER_ARGV0, 0, 0, 0);
	while (wait(NULL) >= 0 || errno == EINTR)
		;
	return 0;
}

_Noreturn void sw_launch_child(const struct sw_launch *l,
			       const struct sw_prepared *pr, int go_fd,
			       int ready_fd, int rep_fd)
{
	const struct sock_fprog fprog = { (unsigned short)pr->n_insns, pr->insns };
	const struct sock_fprog dprog = { (unsigned short)pr->n_dinsns, pr->dinsns };

	struct pty_fds pty = { -1, -1 };

	if (l->new_session)
		pty = become_holder(l, &pr->nsbox, ready_fd, rep_fd);
	child(l, pr->caps, &dprog, &fprog, pr->listener, pr->landlock_fd, pr->fsrules,
	      pr->sandbox_fd, pr->sandbox,
	      pr->sandbox_mounted ? &pr->sandbox_mounts : NULL, &pr->nsbox,
	      pr->own_keyring, pty, go_fd, ready_fd, rep_fd);
}
