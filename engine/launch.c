// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Start a program under a policy.
 *
 * Parent (before fork): compile the filter to BPF and prepare the
 * capability set, so the child only makes async-signal-safe calls (the
 * daemon may have threads).  Child: stdio, cwd, groups/gid/uid, bounding
 * set + capabilities (libcap), no_new_privs, a Landlock domain of its own
 * (landlock.c: nothing outside the session is in reach; procns.c, while
 * still privileged: a /proc that shows nothing outside), then wait on a
 * pipe until the parent has PTRACE_SEIZEd it, load the filter and exec
 * (a PATH search in envp's PATH).  Any failure
 * is written as (stage, errno) to a CLOEXEC pipe, so the parent can say
 * "cannot execute 'foo': No such file or directory".
 *
 * The child gets a process group of its own (and, when the caller asks,
 * e.g. the daemon, a session of its own led by an untraced holder that
 * is its parent: become_holder()): kill(0, ...), a terminal's
 * Ctrl-C and the kernel's job-control signals then reach the program's
 * processes and no others (signals.c keeps the program from joining a
 * group outside its tree).  A caller in the foreground of a terminal
 * hands that terminal to the program's group, as a shell does.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <termios.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/clock.h"
#include "sysward/syscall_nr.h"
#include "internal.h"

extern char **environ;

enum stage {
	ST_NONE,
	ST_HOLDER,
	ST_PGRP,
	ST_TTY,
	ST_NICE,
	ST_STDIO,
	ST_PROCNS,
	ST_CHDIR,
	ST_GROUPS,
	ST_GID,
	ST_UID,
	ST_BOUNDING,
	ST_CAPS,
	ST_NNP,
	ST_LANDLOCK,
	ST_SECCOMP,
	ST_EXEC,
};

static const char *const stage_what[] = {
	[ST_NONE] = "start",
	[ST_HOLDER] = "start the process that leads its session (setsid, fork)",
	[ST_PGRP] = "create its process group (setpgid)",
	[ST_TTY] = "become the terminal's foreground process group (tcsetpgrp)",
	[ST_NICE] = "set its nice value (setpriority)",
	[ST_STDIO] = "set up standard input/output",
	[ST_PROCNS] = "give it a /proc of its own (a mount namespace, proc mounted with hidepid=ptraceable over each proc mount and the mounts beneath put back)",
	[ST_CHDIR] = "change to the working directory",
	[ST_GROUPS] = "set supplementary groups",
	[ST_GID] = "set group id",
	[ST_UID] = "set user id",
	[ST_BOUNDING] = "drop capabilities from the bounding set",
	[ST_CAPS] = "set capabilities",
	[ST_NNP] = "set no_new_privs",
	[ST_LANDLOCK] = "enter a Landlock domain of its own (landlock_restrict_self; the kernel allows 16 nested domains)",
	[ST_SECCOMP] = "load the seccomp filter",
	[ST_EXEC] = "execute",
};

struct report {
	int stage;
	int err;
	struct sw_procns_where procns;	/* ST_PROCNS: which step, which mount */
};

static _Noreturn void child_fail_at(int fd, int stage,
				    const struct sw_procns_where *where)
{
	struct report r = { stage, errno, { SW_PROCNS_NONE, -1 } };

	if (where)
		r.procns = *where;
	(void)!write(fd, &r, sizeof(r));
	_exit(SW_EXIT_SYSWARD_ERROR);
}

static _Noreturn void child_fail(int fd, int stage)
{
	child_fail_at(fd, stage, NULL);
}

/*
 * setgroups(2) to target, where the process may keep no group outside
 * bound.  The kernel asks CAP_SETGID even to set the groups a process
 * already has, and a root daemon in a container of runc's default spec
 * has none: without it the groups the process has are kept if every one
 * is in bound (then the process has no group its client lacks), else the
 * call fails (EPERM).  Async-signal-safe (the launch child).
 */
static int set_groups_within(const gid_t *target, size_t n_target,
			     const gid_t *bound, size_t n_bound)
{
	gid_t have[256];
	int n;

	if (setgroups(n_target, target) == 0)
		return 0;
	if (errno != EPERM)
		return -1;
	n = getgroups(256, have);
	for (int i = 0; i < n; i++) {
		bool in = false;

		for (size_t j = 0; j < n_bound && !in; j++)
			in = have[i] == bound[j];
		if (!in)
			n = -1;
	}
	if (n < 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* execve(), and a file the kernel cannot execute (no #! line) run by
 * /bin/sh, as POSIX says execvp() does.  Returns with errno set. */
static void exec_one(const char *path, char *const *argv, char *const *envp)
{
	size_t argc = 0;

	execve(path, argv, envp);
	if (errno != ENOEXEC)
		return;
	while (argv[argc])
		argc++;
	{
		char *sh_argv[argc + 2];

		sh_argv[0] = (char *)"/bin/sh";
		sh_argv[1] = (char *)path;
		for (size_t i = 1; i <= argc; i++)
			sh_argv[i + 1] = argv[i];
		execve("/bin/sh", sh_argv, envp);
	}
	errno = ENOEXEC;
}

int sw_exec_search(const char *name, char *const *envp,
		   int (*try)(const char *path, void *ud), void *ud)
{
	const char *path = "/bin:/usr/bin";
	size_t flen = strlen(name);
	bool eacces = false;
	int r;

	if (flen == 0)
		return ENOENT;
	if (strchr(name, '/'))
		return try(name, ud);
	for (char *const *e = envp ? envp : environ; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		size_t dlen = (size_t)(end - p);
		char buf[PATH_MAX];

		if (dlen + 1 + flen < sizeof(buf)) {
			memcpy(buf, p, dlen);
			if (dlen)
				buf[dlen++] = '/';
			memcpy(buf + dlen, name, flen + 1);
			r = try(buf, ud);
			switch (r) {
			case 0:
				return 0;
			case EACCES:
			case EISDIR:
				eacces = true;
				break;
			case ENOENT:
			case ENOTDIR:
			case ESTALE:
			case ENODEV:
			case ETIMEDOUT:
				break;
			default:
				return r;
			}
		}
		p = end;
		if (!*p)
			break;
	}
	return eacces ? EACCES : ENOENT;
}

int sw_exec_check(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	/* AT_EACCESS: as the fsuid/fsgid (a daemon acting as its client). */
	if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) < 0)
		return errno;
	return 0;
}

/*
 * In the child, the search execs each candidate: glibc's execvpe()
 * would search the PATH of the process's own environment, not envp's;
 * each of the daemon's clients has its own, and several tracer threads
 * launch at once, so nobody may swap the process's environment.
 */
struct exec_args {
	char *const *argv;
	char *const *envp;
};

static int exec_try(const char *path, void *ud)
{
	const struct exec_args *a = ud;

	exec_one(path, a->argv, a->envp);
	return errno;
}

static _Noreturn void child(const struct sw_launch *l, cap_t caps,
			    const struct sock_fprog *dprog,
			    const struct sock_fprog *fprog, int landlock_fd,
			    const struct sw_procns *procns,
			    int go_fd, int ready_fd, int rep_fd)
{
	sigset_t mask;
	char c;
	int last = cap_max_bits();

	/* Its own job, before anything can fail: a kill(0, ...) of the
	 * program must never reach the caller's process group.  In the
	 * caller's session or its holder's (become_holder()), where its
	 * parent is in another group: not orphaned (engine.h). */
	if (setpgid(0, 0) < 0)
		child_fail(rep_fd, ST_PGRP);
	if (l->foreground && l->tty_fd >= 0) {
		sigset_t ttou;

		/* From a background group tcsetpgrp() raises SIGTTOU unless
		 * it is blocked.  Before exec, so that the program never
		 * reads the terminal as a background job. */
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, NULL);
		if (tcsetpgrp(l->tty_fd, getpid()) < 0)
			child_fail(rep_fd, ST_TTY);
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
		child_fail(rep_fd, ST_NICE);

	for (int i = 0; i < 3; i++) {
		if (l->stdio[i] >= 0 && l->stdio[i] != i) {
			if (dup2(l->stdio[i], i) < 0)
				child_fail(rep_fd, ST_STDIO);
		} else if (l->stdio[i] == i) {
			int fl = fcntl(i, F_GETFD);

			if (fl >= 0)
				fcntl(i, F_SETFD, fl & ~FD_CLOEXEC);
		}
	}
	/* While it still holds CAP_SYS_ADMIN (procns.c, route 16): the
	 * Landlock domain below then hides every process outside. */
	{
		struct sw_procns_where where;

		errno = -sw_procns_enter(procns, &where);
		if (errno)
			child_fail_at(rep_fd, ST_PROCNS, &where);
	}
	if (l->set_groups &&
	    set_groups_within(l->groups, l->n_groups, l->groups, l->n_groups) < 0)
		child_fail(rep_fd, ST_GROUPS);
	if (l->gid != (gid_t)-1 && setresgid(l->gid, l->gid, l->gid) < 0)
		child_fail(rep_fd, ST_GID);
	if (l->uid != (uid_t)-1) {
		if (l->caps)
			prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
		if (setresuid(l->uid, l->uid, l->uid) < 0)
			child_fail(rep_fd, ST_UID);
	}
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
			child_fail(rep_fd, ST_BOUNDING);
		}
	}
	if (cap_set_proc(caps) < 0)
		child_fail(rep_fd, ST_CAPS);
	if (geteuid() != 0)
		for (int cap = 0; cap < last && cap < 64; cap++)
			if (l->caps & (1ull << cap))
				(void)cap_set_ambient(cap, CAP_SET);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(rep_fd, ST_NNP);
	/* A domain of its own (landlock.c, route 16): from here on the
	 * kernel refuses it ptrace-mode access, signals and abstract
	 * sockets to anything outside the session.  Before "ready", so that
	 * no program code ever runs outside it; the supervisor, outside,
	 * still seizes it (outside -> inside passes). */
	errno = -sw_landlock_enter(landlock_fd);
	if (errno)
		child_fail(rep_fd, ST_LANDLOCK);
	close(landlock_fd);
	/* We inherited the supervisor's non-dumpable flag, and any change
	 * of uid above resets it too: either forbids PTRACE_SEIZE to a
	 * supervisor without CAP_SYS_PTRACE (sysward run by a normal user).
	 * Only now may the parent seize us.  exec sets the flag anew. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	/* Our pid: under a holder the supervisor did not fork us. */
	{
		pid_t self = getpid();

		if (write(ready_fd, &self, sizeof(self)) != sizeof(self))
			_exit(SW_EXIT_SYSWARD_ERROR);
	}
	close(ready_fd);

	/* Wait until the supervisor has seized us: from here on nothing
	 * runs unsupervised. */
	if (read(go_fd, &c, 1) != 1)
		_exit(SW_EXIT_SYSWARD_ERROR);
	close(go_fd);
	/* Only as the program's own user: a daemon must not enter, for a
	 * client, a directory the client itself could not (no check-then-use
	 * race between syswardd's access check and this chdir).  After the
	 * seize: a path the client chose may block (a stalled FUSE or NFS
	 * mount), and the supervisor waits for nothing from here on. */
	if (l->cwd && chdir(l->cwd) < 0)
		child_fail(rep_fd, ST_CHDIR);
	if (l->set_umask)
		umask(l->umask);
	/* Defences first: on a tie the newer filter's TRACE data wins,
	 * and that must be the policy's rule hint (filter.c). */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, dprog) < 0)
		child_fail(rep_fd, ST_SECCOMP);
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fprog) < 0)
		child_fail(rep_fd, ST_SECCOMP);
	errno = sw_exec_search(l->argv[0], l->envp, exec_try,
			       &(struct exec_args){ l->argv,
						    l->envp ? l->envp : environ });
	child_fail(rep_fd, ST_EXEC);
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
 * Returns in the program's process only.
 */
static void become_holder(const struct sw_launch *l, int rep_fd)
{
	sigset_t all;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		child_fail(rep_fd, ST_HOLDER);
	if (pid > 0)
		_exit(0);
	if (setsid() < 0)
		child_fail(rep_fd, ST_HOLDER);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);	/* child() sets the program's */
	pid = fork();
	if (pid < 0)
		child_fail(rep_fd, ST_HOLDER);
	if (pid == 0)
		return;
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

/*
 * The capabilities the program may keep: asked for and held by us.  A
 * program that runs as root keeps a capability inheritable only if we
 * hold it so: root's permitted set after exec comes from the bounding set
 * whatever the inheritable one says, so that set only carries over what
 * the caller gave (a container runtime's process.capabilities.inheritable,
 * which sysward-runtime's programs must see as runc gives it).  Another
 * uid needs it inheritable to keep it ambient across exec.
 */
static int prepare_caps(uint64_t want, bool root_program, cap_t *ret,
			struct sw_error *err)
{
	cap_t have = cap_get_proc(), caps = cap_init();
	int last = cap_max_bits();

	if (!have || !caps) {
		cap_free(have);
		cap_free(caps);
		return sw_error_set_errno(err, errno ? errno : ENOMEM,
					  "read this process's capabilities");
	}
	for (int c = 0; c < last && c < 64; c++) {
		cap_flag_value_t v = CAP_CLEAR;
		cap_value_t cv = c;

		if (!(want & (1ull << c)))
			continue;
		if (cap_get_flag(have, cv, CAP_PERMITTED, &v) < 0 || v != CAP_SET)
			continue;
		cap_set_flag(caps, CAP_PERMITTED, 1, &cv, CAP_SET);
		cap_set_flag(caps, CAP_EFFECTIVE, 1, &cv, CAP_SET);
		if (root_program &&
		    (cap_get_flag(have, cv, CAP_INHERITABLE, &v) < 0 || v != CAP_SET))
			continue;
		cap_set_flag(caps, CAP_INHERITABLE, 1, &cv, CAP_SET);
	}
	cap_free(have);
	*ret = caps;
	return 0;
}

static bool filter_traces(const struct sock_filter *insns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (BPF_CLASS(insns[i].code) == BPF_RET &&
		    BPF_RVAL(insns[i].code) == BPF_K &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE)
			return true;
	return false;
}

/* What the launch prepares before it forks, so that the child makes only
 * async-signal-safe calls: a policy compiled for one launch. */
struct sw_prepared {
	struct sw_program *prog;
	struct sock_filter *insns, *dinsns;	/* the policy's, the defences' */
	size_t n_insns, n_dinsns;
	cap_t caps;
	bool can_set;		/* the kernel it was made for has SET_SYSCALL_INFO */
	int landlock_fd;	/* the session's ruleset (landlock.c), or -1 */
	struct sw_procns procns;	/* its own /proc (procns.c) */
};

void sw_prepared_free(struct sw_prepared *pr)
{
	if (!pr)
		return;
	sw_program_free(pr->prog);
	free(pr->insns);
	free(pr->dinsns);
	if (pr->caps)
		cap_free(pr->caps);
	if (pr->landlock_fd >= 0)
		close(pr->landlock_fd);
	sw_procns_free(&pr->procns);
	free(pr);
}

/* Step 1: the running kernel, probed once per supervisor. */
static int check_kernel(struct sw_supervisor *sup, struct sw_error *err)
{
	int r;

	if (!sup->probed) {
		r = sw_probe_kernel(&sup->ks, err);
		if (r < 0)
			return sw_error_wrap(err, "probe the kernel");
		sup->probed = true;
	}
	return 0;
}

static void reap(pid_t pid)
{
	/* SIGKILL ends a tracee whatever it does: bounded. */
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

/* The libseccomp step: the policy's filter and the defences' as BPF. */
static int build_filters(const struct sw_program *prog, struct sw_prepared *pr,
			 struct sw_error *err)
{
	void *fctx = NULL;
	int r;

	r = sw_filter_build(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&pr->insns, &pr->n_insns, err);
	if (r >= 0)
		r = sw_filter_add_enosys(prog, (void **)&pr->insns, &pr->n_insns, err);
	sw_filter_free(fctx);
	fctx = NULL;
	if (r >= 0)
		r = sw_filter_build_defences(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&pr->dinsns, &pr->n_dinsns, err);
	sw_filter_free(fctx);
	return r;
}

/* What a compile process sends back: this, then the two programs. */
struct bpf_reply {
	int r;
	uint32_t n_insns, n_dinsns;
	struct sw_error err;
};

static _Noreturn void compile_child(const struct sw_program *prog,
				    const struct sw_launch *l, int fd)
{
	struct sw_prepared pr = { 0 };
	struct bpf_reply rep = { 0 };

	/* Never outlive the thread that waits for us; and never hold the
	 * caller's other descriptors (a client's pipes) open meanwhile. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (dup2(fd, 3) < 0)
		_exit(SW_EXIT_SYSWARD_ERROR);
	close_range(4, ~0u, 0);
	/* The caller's CPU, at the program's priority, not a daemon's; and
	 * the program's credentials, so that a policy crafted against
	 * libseccomp works as its client at most (one thread here: the
	 * set*id calls need no broadcast). */
	if (l->set_nice)
		(void)setpriority(PRIO_PROCESS, 0, l->nice);
	if ((l->set_groups &&
	     set_groups_within(NULL, 0, l->groups, l->n_groups) < 0) ||
	    (l->gid != (gid_t)-1 && setresgid(l->gid, l->gid, l->gid) < 0) ||
	    (l->uid != (uid_t)-1 && setresuid(l->uid, l->uid, l->uid) < 0))
		_exit(SW_EXIT_SYSWARD_ERROR);
	rep.r = build_filters(prog, &pr, &rep.err);
	rep.n_insns = (uint32_t)pr.n_insns;
	rep.n_dinsns = (uint32_t)pr.n_dinsns;
	if (write(3, &rep, sizeof(rep)) != sizeof(rep) ||
	    (rep.r >= 0 &&
	     (write(3, pr.insns, pr.n_insns * sizeof(*pr.insns)) !=
		      (ssize_t)(pr.n_insns * sizeof(*pr.insns)) ||
	      write(3, pr.dinsns, pr.n_dinsns * sizeof(*pr.dinsns)) !=
		      (ssize_t)(pr.n_dinsns * sizeof(*pr.dinsns)))))
		_exit(SW_EXIT_SYSWARD_ERROR);
	_exit(0);
}

/* Read n bytes from fd by deadline (CLOCK_MONOTONIC ms): 0, -ETIME, or
 * -EPIPE if the writer is gone first. */
static int read_by(int fd, void *buf, size_t n, long long deadline)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		long long now = sw_mono_ms();
		ssize_t k;
		int p;

		if (now >= deadline)
			return -ETIME;
		p = poll(&pfd, 1, (int)(deadline - now));
		if (p < 0 && errno != EINTR)
			return -errno;
		if (p <= 0)
			continue;
		k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (k == 0)
			return -EPIPE;
		if (k > 0)
			got += (size_t)k;
	}
	return 0;
}

static int read_bpf(int fd, struct sock_filter **ret, size_t n,
		    long long deadline)
{
	struct sock_filter *f;
	int r;

	if (n == 0 || n > BPF_MAXINSNS)
		return -EBADMSG;
	f = calloc(n, sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = read_by(fd, f, n * sizeof(*f), deadline);
	if (r < 0) {
		free(f);
		return r;
	}
	*ret = f;
	return 0;
}

/*
 * The libseccomp step in a process of its own, killed at the deadline:
 * libseccomp's time grows much faster than the policy (measured: 100
 * rules of four calls with two argument conditions 0.2 s, 300 rules 3.6
 * s, 700 rules 40 s, before its refusal as too big), it cannot be
 * interrupted, and a thread cannot be killed.  The child is forked from
 * the calling thread, so only that thread waits for it (and reaps it: a
 * tracer thread's waitpid(-1, __WNOTHREAD) never sees it).
 */
static int build_filters_bounded(const struct sw_program *prog,
				 const struct sw_launch *l,
				 struct sw_prepared *pr, unsigned int timeout_ms,
				 struct sw_error *err)
{
	cleanup_close int rfd = -1;
	struct bpf_reply rep = { 0 };
	bool child_failed = false;
	long long deadline;
	int fds[2], r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "create a pipe to the compile process");
	deadline = sw_mono_ms() + timeout_ms;
	pid = fork();
	if (pid < 0) {
		r = errno;
		close(fds[0]);
		close(fds[1]);
		return sw_error_set_errno(err, r, "fork a compile process");
	}
	if (pid == 0)
		compile_child(prog, l, fds[1]);
	close(fds[1]);
	rfd = fds[0];
	r = read_by(rfd, &rep, sizeof(rep), deadline);
	if (r >= 0 && rep.r < 0) {
		*err = rep.err;
		r = rep.r;
		child_failed = true;
	} else if (r >= 0) {
		r = read_bpf(rfd, &pr->insns, rep.n_insns, deadline);
		if (r >= 0) {
			pr->n_insns = rep.n_insns;
			r = read_bpf(rfd, &pr->dinsns, rep.n_dinsns, deadline);
		}
		if (r >= 0)
			pr->n_dinsns = rep.n_dinsns;
	}
	/* Done or not, it goes: bounded, SIGKILL ends a process that is
	 * not traced whatever it does. */
	kill(pid, SIGKILL);
	reap(pid);
	if (r == -ETIME)
		return sw_error_set(err, ETIME,
				    "libseccomp took longer than the limit of %u ms to compile the filter",
				    timeout_ms);
	if (r < 0 && !child_failed)
		return sw_error_set_errno(err, -r, "read the filter from the compile process");
	return r;
}

/*
 * Who decides the policy's refusals for this launch (enum sw_refusals):
 * complain mode must see every one; an audit log or a record wants the
 * errno ones (a stop each: bench/complain-bench.sh measures it), where
 * the kernel lets the supervisor refuse them (PTRACE_SET_SYSCALL_INFO);
 * elsewhere an audit log goes without them, as it did before, and the
 * program still runs under its policy.
 */
static int refusals_for(const struct sw_launch *l,
			const struct sw_kernel_support *ks,
			const struct sw_policy *p, enum sw_refusals *ret,
			struct sw_error *err)
{
	const char *src = p->source ? p->source : "the policy";

	*ret = SW_REFUSALS_KERNEL;
	if ((l->complain || l->record) && !ks->set_syscall_info)
		return sw_error_set(err, EOPNOTSUPP,
				    "%s of %s needs the supervisor to see every call the policy refuses, but the running kernel %s lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16 or later). Boot the patched kernel: `qemu-images/run-vm --kernel patched ...`",
				    l->complain ? "complain mode" : "a report or gate",
				    src, ks->release);
	if (l->complain)
		*ret = SW_REFUSALS_COMPLAIN;
	else if (l->record)
		*ret = SW_REFUSALS_RECORDED;	/* every refusal counted */
	else if (l->audit && ks->set_syscall_info)
		*ret = SW_REFUSALS_SEEN;
	return 0;
}

int sw_launch_prepare(const struct sw_kernel_support *ks,
		      const struct sw_policy *p, const struct sw_launch *l,
		      unsigned int timeout_ms, struct sw_prepared **ret,
		      struct sw_error *err)
{
	struct sw_policy_ctx ctx = {
		.caps = l->caps,
		.arch = seccomp_arch_native(),
		.kernel = sw_kernel_version_now(),
	};
	struct sw_prepared *pr;
	int r;

	if (!ks->seccomp_filter)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel (%s) has no seccomp filter support (CONFIG_SECCOMP_FILTER)",
				    ks->release);
	/* Fail closed: without a domain of its own a program reaches every
	 * process of its uid (route 16); no policy can say otherwise. */
	if (ks->landlock_abi < 1)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel (%s) has no Landlock: %s. sysward needs it to keep a program from reaching processes outside its session (/proc/PID/mem, /proc/PID/fd, process_vm_readv, ...). Boot a kernel built with CONFIG_SECURITY_LANDLOCK=y with landlock in its LSM list (e.g. lsm=landlock,... on the kernel command line, or CONFIG_LSM)",
				    ks->release, sw_landlock_missing_why(ks->landlock_err));
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return sw_error_set_errno(err, ENOMEM, "compile %s",
					  p->source ? p->source : "the policy");
	pr->landlock_fd = -1;
	pr->can_set = ks->set_syscall_info;
	r = sw_program_new(&pr->prog, p, &ctx, l->defences_off, getpid(), err);
	if (r < 0) {
		sw_prepared_free(pr);
		return r;
	}
	r = refusals_for(l, ks, p, &pr->prog->refusals, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return r;
	}
	r = timeout_ms ? build_filters_bounded(pr->prog, l, pr, timeout_ms, err)
			       : build_filters(pr->prog, pr, err);
	/* The policy needs the supervisor if its rules do, or if the
	 * compiler had to trace a syscall to keep first-match semantics:
	 * either way its filter returns SECCOMP_RET_TRACE somewhere. */
	if (r >= 0 && (pr->prog->needs_supervisor || filter_traces(pr->insns, pr->n_insns)) &&
	    !ks->set_syscall_info && !l->allow_without_set_syscall_info)
		r = sw_error_set(err, EOPNOTSUPP,
				 "%s needs the supervisor (to skip, emulate, rewrite, log or check paths), but the running kernel %s lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16 or later): only policies of plain seccomp actions run on it. Boot the patched kernel: `qemu-images/run-vm --kernel patched ...`",
				 p->source ? p->source : "the policy", ks->release);
	/* Race-free path conditions (pathguard.c) need PTRACE_SET_SYSCALL_INFO
	 * to point arguments at the sealed copies. */
	else if (r >= 0 && ks->set_syscall_info && sw_pathguard_wanted(pr->prog))
		r = sw_pathguard_patch_filter((void **)&pr->insns, &pr->n_insns, err);
	if (r >= 0)
		r = prepare_caps(l->caps,
				 (l->uid == (uid_t)-1 ? geteuid() : l->uid) == 0,
				 &pr->caps, err);
	if (r < 0) {
		sw_prepared_free(pr);
		if (r == -EOPNOTSUPP)
			return r;
		return sw_error_wrap(err, "compile %s", p->source ? p->source : "the policy");
	}
	/* One ruleset per launch; each restrict_self makes a new domain. */
	r = sw_landlock_ruleset(ks->landlock_abi, &pr->landlock_fd, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return sw_error_wrap(err, "prepare the session's Landlock domain");
	}
	r = sw_procns_plan(&pr->procns, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return sw_error_wrap(err, "prepare the session's own /proc");
	}
	*ret = pr;
	return 0;
}

void sw_prepared_overridden(const struct sw_prepared *pr, sw_overridden_fn fn,
			    void *ud)
{
	sw_program_overridden(pr->prog, fn, ud);
}

/* Step 3: the session, owning the program from here on. */
static struct sw_session *session_new(struct sw_supervisor *sup,
				      const struct sw_launch *l,
				      struct sw_prepared *pr)
{
	struct sw_session *s = calloc(1, sizeof(*s));

	if (s)
		s->counters = calloc(pr->prog->n_rules ? pr->prog->n_rules : 1,
				     sizeof(uint32_t));
	if (!s || !s->counters) {
		free(s);
		return NULL;
	}
	s->sup = sup;
	s->prog = TAKE_PTR(pr->prog);
	s->audit = l->audit;
	s->audit_format = l->audit_format;
	s->id = l->session_id;
	s->uid = l->uid != (uid_t)-1 ? l->uid : geteuid();
	s->can_set = pr->can_set;
	s->pathguard = s->can_set && sw_pathguard_wanted(s->prog);
	s->kill_descendants = l->kill_descendants;
	s->launch_fd = -1;
	s->complain = l->complain;
	if ((l->cwd && !(s->launch_cwd = strdup(l->cwd))) ||
	    (l->record && !(s->record = sw_record_new(l->complain, l->record_paths)))) {
		sw_record_free(s->record);
		free(s->launch_cwd);
		free(s->counters);
		free(s);
		return NULL;
	}
	return s;
}

/* The three pipes between the launch and its child. */
struct launch_pipes {
	int go_r, go_w;		/* parent -> child: you are seized */
	int rep_r, rep_w;	/* child -> parent: (stage, errno) */
	int ready_r, ready_w;	/* child -> parent: seize me now */
};

static void pipes_close(struct launch_pipes *lp)
{
	int *fds[] = { &lp->go_r, &lp->go_w, &lp->rep_r, &lp->rep_w,
		       &lp->ready_r, &lp->ready_w };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

static int pipes_open(struct launch_pipes *lp, struct sw_error *err)
{
	int go[2] = { -1, -1 }, rep[2] = { -1, -1 }, ready[2] = { -1, -1 };
	int e = 0;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(rep, O_CLOEXEC) < 0 ||
	    pipe2(ready, O_CLOEXEC) < 0)
		e = errno;
	*lp = (struct launch_pipes){ go[0], go[1], rep[0], rep[1], ready[0], ready[1] };
	if (e) {
		pipes_close(lp);
		return sw_error_set_errno(err, e, "create a pipe to the new process");
	}
	return 0;
}

/*
 * Step 4, in the parent after the fork: wait until the child has its
 * final credentials and is dumpable again (or has failed on the way).  A
 * blocking wait, but bounded independently of the program and of the
 * client: until "ready" the child runs only our own code on its own state
 * (sigprocmask, dup2 of descriptors we hold, set*id, capability and prctl
 * calls), touching no path the caller chose (the chdir comes after the
 * seize) and no program code: the program does not exist yet.
 */
static int wait_ready(pid_t *pid, bool holder, const char *prog,
		      struct launch_pipes *lp, const struct sw_procns *procns,
		      struct sw_error *err)
{
	struct report rep = { 0 };
	pid_t ready = 0;
	ssize_t n;

	while ((n = read(lp->ready_r, &ready, sizeof(ready))) < 0 && errno == EINTR)
		;
	/* Under a holder the program is its child, else ours. */
	if (n == sizeof(ready) && ready > 0 && (holder || ready == *pid)) {
		*pid = ready;
		return 0;
	}
	/* It is exiting (child_fail): bounded likewise.  (Under a holder,
	 * the holder reaps it; ours, the intermediate, is reaped.) */
	if (!holder)
		reap(*pid);
	n = read(lp->rep_r, &rep, sizeof(rep));
	if (n == sizeof(rep) && rep.stage == ST_PROCNS) {
		char what[512];

		sw_procns_explain(procns, &rep.procns, what, sizeof(what));
		return sw_error_set_errno(err, rep.err,
					  "cannot start '%s': give it a /proc of its own: %s",
					  prog, what);
	}
	if (n == sizeof(rep) && rep.stage > ST_NONE && rep.stage <= ST_EXEC)
		return sw_error_set_errno(err, rep.err, "cannot start '%s': %s",
					  prog, stage_what[rep.stage]);
	return sw_error_set(err, ECHILD,
			    "cannot start '%s': the new process died while setting up",
			    prog);
}

/* Step 5: seize the ready child and make it the session's first tracee. */
static int seize(struct sw_supervisor *sup, struct sw_session *s, pid_t pid,
		 const char *prog, struct sw_error *err)
{
	if (ptrace(PTRACE_SEIZE, pid, 0L,
		   (long)(PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP |
			  PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			  PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
			  PTRACE_O_TRACESYSGOOD)) < 0) {
		int e = errno;

		kill(pid, SIGKILL);
		reap(pid);
		return sw_error_set_errno(err, e, "trace the new process %d (PTRACE_SEIZE)", pid);
	}
	if (sw_session_attach(sup, s, pid) < 0) {
		kill(pid, SIGKILL);
		reap(pid);
		return sw_error_set_errno(err, ENOMEM, "track the new process");
	}
	snprintf(s->launch_prog, sizeof(s->launch_prog), "%s", prog);
	return 0;
}

int sw_session_launch(struct sw_supervisor *sup, const struct sw_policy *p,
		      const struct sw_launch *l, struct sw_session **ret,
		      struct sw_error *err)
{
	struct sw_prepared *pr = NULL;
	int r;

	if (!l || !l->argv || !l->argv[0] || !l->argv[0][0])
		return sw_error_set(err, EINVAL, "no program to run");
	r = check_kernel(sup, err);
	if (r >= 0)
		r = sw_launch_prepare(&sup->ks, p, l, 0, &pr, err);
	if (r >= 0)
		r = sw_session_launch_prepared(sup, &pr, l, ret, err);
	return r;
}

int sw_session_launch_prepared(struct sw_supervisor *sup,
			       struct sw_prepared **prp,
			       const struct sw_launch *l, struct sw_session **ret,
			       struct sw_error *err)
{
	struct sw_prepared *pr = prp ? TAKE_PTR(*prp) : NULL;
	struct launch_pipes lp;
	struct sock_fprog fprog, dprog;
	struct sw_session *s;
	struct sw_tracee *t;
	pid_t pid;
	int r;

	if (!pr || !l || !l->argv || !l->argv[0] || !l->argv[0][0]) {
		sw_prepared_free(pr);
		return sw_error_set(err, EINVAL, pr ? "no program to run" : "no compiled policy");
	}
	s = session_new(sup, l, pr);
	if (!s) {
		sw_prepared_free(pr);
		return sw_error_set_errno(err, ENOMEM, "allocate a session");
	}
	r = pipes_open(&lp, err);
	if (r < 0)
		goto fail;
	t = sw_tracee_add(sup, 0x7fffffff);	/* reserve room before fork */
	if (t)
		sw_tracee_del(sup, t);
	fprog = (struct sock_fprog){ (unsigned short)pr->n_insns, pr->insns };
	dprog = (struct sock_fprog){ (unsigned short)pr->n_dinsns, pr->dinsns };

	pid = fork();
	if (pid < 0) {
		r = sw_error_set_errno(err, errno, "fork");
		goto fail;
	}
	if (pid == 0) {
		close(lp.go_w);
		close(lp.rep_r);
		close(lp.ready_r);
		if (l->new_session)
			become_holder(l, lp.rep_w);
		child(l, pr->caps, &dprog, &fprog, pr->landlock_fd, &pr->procns,
		      lp.go_r, lp.ready_w, lp.rep_w);
	}
	close(TAKE_FD(lp.go_r));
	close(TAKE_FD(lp.rep_w));
	close(TAKE_FD(lp.ready_w));
	if (l->new_session)
		reap(pid);	/* the intermediate: it exits at once */

	r = wait_ready(&pid, l->new_session, l->argv[0], &lp, &pr->procns, err);
	if (r >= 0)
		r = seize(sup, s, pid, l->argv[0], err);
	if (r < 0)
		goto fail;

	/* From here on the dispatch loop supervises the launch: the chdir,
	 * the filters and the exec (which may block on a path the caller
	 * chose, or fail); the session ends with the child's report if it
	 * does not reach exec (sw_launch_failed). */
	s->launch_fd = TAKE_FD(lp.rep_r);
	(void)fcntl(s->launch_fd, F_SETFL, O_NONBLOCK);
	if (write(lp.go_w, "g", 1) != 1)
		kill(pid, SIGKILL);	/* reported as the session's end */
	pipes_close(&lp);
	sw_prepared_free(pr);
	*ret = s;
	return 0;

fail:
	pipes_close(&lp);
	sw_prepared_free(pr);
	sw_session_free(s);
	return r;
}

int sw_launch_failed(struct sw_session *s)
{
	struct report rep = { 0 };
	ssize_t n = -1;
	int code = SW_EXIT_SYSWARD_ERROR;

	if (s->launch_fd >= 0) {
		/* The child wrote before it exited: no wait. */
		n = read(s->launch_fd, &rep, sizeof(rep));
		close(s->launch_fd);
		s->launch_fd = -1;
	}
	if (n != sizeof(rep) && s->signalled && s->main_exited)
		/* Killed or signalled on request before it reached exec
		 * (sysward kill, a forwarded SIGTERM): its status, as
		 * after exec, not a launch failure. */
		return s->exit_code;
	s->launch_failed = true;
	if (n == sizeof(rep) && rep.stage == ST_EXEC) {
		sw_exec_error(&s->launch_err, s->launch_prog, rep.err);
		code = sw_exec_exit_code(rep.err);
	} else if (n == sizeof(rep) && rep.stage == ST_CHDIR && s->launch_cwd) {
		/* Entered as the program's user (child()): a directory that
		 * user cannot reach is refused, not entered as root. */
		sw_error_set_errno(&s->launch_err, rep.err,
				   "cannot use the working directory %s as uid %u",
				   s->launch_cwd, (unsigned int)s->uid);
	} else if (n == sizeof(rep) && rep.stage > ST_NONE && rep.stage <= ST_EXEC) {
		sw_error_set_errno(&s->launch_err, rep.err, "cannot start '%s': %s",
				   s->launch_prog, stage_what[rep.stage]);
	} else if (s->main_exited) {
		sw_error_set(&s->launch_err, ECHILD,
			     "cannot start '%s': the process ended before exec with status %d (does the policy deny execve or the launcher's syscalls?)",
			     s->launch_prog, s->exit_code);
	} else {
		sw_error_set(&s->launch_err, ECHILD,
			     "cannot start '%s': the process ended before exec",
			     s->launch_prog);
	}
	return code;
}

int sw_exec_error(struct sw_error *err, const char *prog, int e)
{
	if (e == ENOENT && !strchr(prog, '/'))
		return sw_error_set(err, e, "%s: command not found", prog);
	return sw_error_set_errno(err, e, "cannot run %s", prog);
}

int sw_exec_exit_code(int code)
{
	switch (code) {
	case ENOENT:
		return SW_EXIT_NOT_FOUND;
	case EACCES:
	case EPERM:
	case ENOEXEC:
	case EISDIR:
	case ENOTDIR:
	case ELOOP:
	case ETXTBSY:
	case E2BIG:
	case ENAMETOOLONG:
		return SW_EXIT_CANNOT_EXEC;
	default:
		return SW_EXIT_SYSWARD_ERROR;
	}
}
