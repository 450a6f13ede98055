// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Start a program under a policy.
 *
 * Parent (before fork): compile the filter to BPF and prepare the
 * capability set, so the child only makes async-signal-safe calls (the
 * daemon may have threads).  Child: stdio, cwd, groups/gid/uid, bounding
 * set + capabilities (libcap), no_new_privs, then wait on a pipe until the
 * parent has PTRACE_SEIZEd it, load the filter and exec (a PATH search
 * in envp's PATH).  Any failure
 * is written as (stage, errno) to a CLOEXEC pipe, so the parent can say
 * "cannot execute 'foo': No such file or directory".
 *
 * The child gets a process group of its own (and a session of its own
 * when the caller asks, e.g. the daemon): kill(0, ...), a terminal's
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
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"

extern char **environ;

enum stage {
	ST_NONE,
	ST_PGRP,
	ST_TTY,
	ST_NICE,
	ST_STDIO,
	ST_CHDIR,
	ST_GROUPS,
	ST_GID,
	ST_UID,
	ST_BOUNDING,
	ST_CAPS,
	ST_NNP,
	ST_SECCOMP,
	ST_EXEC,
};

static const char *const stage_what[] = {
	[ST_NONE] = "start",
	[ST_PGRP] = "create its process group or session",
	[ST_TTY] = "become the terminal's foreground process group (tcsetpgrp)",
	[ST_NICE] = "set its nice value (setpriority)",
	[ST_STDIO] = "set up standard input/output",
	[ST_CHDIR] = "change to the working directory",
	[ST_GROUPS] = "set supplementary groups",
	[ST_GID] = "set group id",
	[ST_UID] = "set user id",
	[ST_BOUNDING] = "drop capabilities from the bounding set",
	[ST_CAPS] = "set capabilities",
	[ST_NNP] = "set no_new_privs",
	[ST_SECCOMP] = "load the seccomp filter",
	[ST_EXEC] = "execute",
};

struct report {
	int stage;
	int err;
};

static _Noreturn void child_fail(int fd, int stage)
{
	struct report r = { stage, errno };

	(void)!write(fd, &r, sizeof(r));
	_exit(SW_EXIT_SYSWARD_ERROR);
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

/*
 * execvpe() searches the PATH of our own environment, not envp's: each of
 * the daemon's clients has its own, and several tracer threads launch at
 * once, so nobody may swap the process's environment for a launch.  The
 * search as execvp() makes it: a name with a slash is used as it is;
 * otherwise each element of envp's PATH in turn (an empty one: the working
 * directory; no PATH at all: /bin:/usr/bin), going on past files that are
 * missing or not executable (EACCES is remembered and wins), stopping at
 * any other error.  Async-signal-safe: we are a child of a threaded
 * process.  Returns with errno set.
 */
static void exec_search(char *const *argv, char *const *envp)
{
	const char *file = argv[0], *path = "/bin:/usr/bin";
	size_t flen = strlen(file);
	bool eacces = false;

	if (strchr(file, '/')) {
		exec_one(file, argv, envp);
		return;
	}
	for (char *const *e = envp; *e; e++)
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
			memcpy(buf + dlen, file, flen + 1);
			exec_one(buf, argv, envp);
			switch (errno) {
			case EACCES:
				eacces = true;
				break;
			case ENOENT:
			case ENOTDIR:
			case ESTALE:
			case ENODEV:
			case ETIMEDOUT:
				break;
			default:
				return;
			}
		}
		p = end;
		if (!*p)
			break;
	}
	errno = eacces ? EACCES : ENOENT;
}

static _Noreturn void child(const struct sw_launch *l, cap_t caps,
			    const struct sock_fprog *dprog,
			    const struct sock_fprog *fprog, int go_fd,
			    int ready_fd, int rep_fd)
{
	sigset_t none;
	char c;
	int last = cap_max_bits();

	/* Its own job, before anything can fail: a kill(0, ...) of the
	 * program must never reach the caller's process group. */
	if (l->new_session ? setsid() < 0 : setpgid(0, 0) < 0)
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
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
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
	if (l->set_groups && setgroups(l->n_groups, l->groups) < 0)
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
			/* Without CAP_SETPCAP (an unprivileged caller) the
			 * bounding set cannot shrink, but such a program
			 * cannot gain capabilities under no_new_privs. */
			if (errno == EPERM && geteuid() != 0)
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
	/* We inherited the supervisor's non-dumpable flag, and any change
	 * of uid above resets it too: either forbids PTRACE_SEIZE to a
	 * supervisor without CAP_SYS_PTRACE (sysward run by a normal user).
	 * Only now may the parent seize us.  exec sets the flag anew. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (write(ready_fd, "r", 1) != 1)
		_exit(SW_EXIT_SYSWARD_ERROR);
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
	exec_search(l->argv, l->envp ? l->envp : environ);
	child_fail(rep_fd, ST_EXEC);
}

/* The capabilities the program may keep: asked for and held by us. */
static int prepare_caps(uint64_t want, cap_t *ret, struct sw_error *err)
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

static void caps_freep(cap_t *c)
{
	if (*c)
		cap_free(*c);
}

int sw_session_launch(struct sw_supervisor *sup, const struct sw_policy *p,
		      const struct sw_launch *l, struct sw_session **ret,
		      struct sw_error *err)
{
	struct sw_policy_ctx ctx = { 0 };
	struct sw_program *prog = NULL;
	void *fctx = NULL;
	cleanup_free struct sock_filter *insns = NULL, *dinsns = NULL;
	size_t n_insns = 0, n_dinsns = 0;
	__attribute__((cleanup(caps_freep))) cap_t caps = NULL;
	cleanup_close int go_r = -1, go_w = -1, rep_r = -1, rep_w = -1;
	cleanup_close int ready_r = -1, ready_w = -1;
	struct sock_fprog fprog, dprog;
	struct sw_session *s;
	struct sw_tracee *t;
	struct report rep = { 0 };
	pid_t pid;
	int r;

	if (!l || !l->argv || !l->argv[0] || !l->argv[0][0])
		return sw_error_set(err, EINVAL, "no program to run");
	if (!sup->probed) {
		r = sw_probe_kernel(&sup->ks, err);
		if (r < 0)
			return sw_error_wrap(err, "probe the kernel");
		sup->probed = true;
	}
	if (!sup->ks.seccomp_filter)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel (%s) has no seccomp filter support (CONFIG_SECCOMP_FILTER)",
				    sup->ks.release);

	ctx.caps = l->caps;
	ctx.arch = seccomp_arch_native();
	ctx.kernel = sw_kernel_version_now();
	r = sw_program_new(&prog, p, &ctx, l->defences_off, sup->self, err);
	if (r < 0)
		return r;
	r = sw_filter_build(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&insns, &n_insns, err);
	/* The policy needs the supervisor if its rules do, or if the
	 * compiler had to trace a syscall to keep first-match semantics:
	 * either way its filter returns SECCOMP_RET_TRACE somewhere. */
	if (r >= 0 && (prog->needs_supervisor || filter_traces(insns, n_insns)) &&
	    !sup->ks.set_syscall_info && !l->allow_without_set_syscall_info) {
		sw_filter_free(fctx);
		sw_program_free(prog);
		return sw_error_set(err, EOPNOTSUPP,
				    "%s needs the supervisor (to skip, emulate, rewrite, log or check paths), but the running kernel %s lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16 or later): only policies of plain seccomp actions run on it. Boot the patched kernel: `qemu-images/run-vm --kernel patched ...`",
				    p->source ? p->source : "the policy", sup->ks.release);
	}
	sw_filter_free(fctx);
	fctx = NULL;
	if (r >= 0)
		r = sw_filter_build_defences(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&dinsns, &n_dinsns, err);
	sw_filter_free(fctx);
	/* Race-free path conditions (pathguard.c) need PTRACE_SET_SYSCALL_INFO
	 * to point arguments at the sealed copies. */
	if (r >= 0 && sup->ks.set_syscall_info && sw_pathguard_wanted(prog))
		r = sw_pathguard_patch_filter((void **)&insns, &n_insns, err);
	if (r >= 0)
		r = prepare_caps(l->caps, &caps, err);
	if (r < 0) {
		sw_program_free(prog);
		return sw_error_wrap(err, "compile %s", p->source ? p->source : "the policy");
	}
	fprog.len = (unsigned short)n_insns;
	fprog.filter = insns;
	dprog.len = (unsigned short)n_dinsns;
	dprog.filter = dinsns;

	s = calloc(1, sizeof(*s));
	if (s)
		s->counters = calloc(prog->n_rules ? prog->n_rules : 1, sizeof(uint32_t));
	if (!s || !s->counters) {
		free(s);
		sw_program_free(prog);
		return sw_error_set_errno(err, ENOMEM, "allocate a session");
	}
	s->sup = sup;
	s->prog = prog;
	s->audit = l->audit;
	s->audit_format = l->audit_format;
	s->id = l->session_id;
	s->uid = l->uid != (uid_t)-1 ? l->uid : geteuid();
	s->can_set = sup->ks.set_syscall_info;
	s->pathguard = s->can_set && sw_pathguard_wanted(prog);
	s->kill_descendants = l->kill_descendants;
	s->launch_fd = -1;

	{
		int go[2] = { -1, -1 }, rep_p[2] = { -1, -1 }, ready[2] = { -1, -1 };
		int e = 0;

		if (pipe2(go, O_CLOEXEC) < 0 || pipe2(rep_p, O_CLOEXEC) < 0 ||
		    pipe2(ready, O_CLOEXEC) < 0)
			e = errno;
		go_r = go[0], go_w = go[1], rep_r = rep_p[0], rep_w = rep_p[1];
		ready_r = ready[0], ready_w = ready[1];
		if (e) {
			r = sw_error_set_errno(err, e, "create a pipe to the new process");
			goto fail;
		}
	}
	t = sw_tracee_add(sup, 0x7fffffff);	/* reserve room before fork */
	if (t)
		sw_tracee_del(sup, t);

	pid = fork();
	if (pid < 0) {
		r = sw_error_set_errno(err, errno, "fork");
		goto fail;
	}
	if (pid == 0) {
		close(go_w);
		close(rep_r);
		close(ready_r);
		child(l, caps, &dprog, &fprog, go_r, ready_w, rep_w);
	}
	close(TAKE_FD(go_r));
	close(TAKE_FD(rep_w));
	close(TAKE_FD(ready_w));

	/* Wait until the child has its final credentials and is dumpable
	 * again (or has failed on the way).  A blocking wait, but bounded
	 * independently of the program and of the client: until "ready"
	 * the child runs only our own code on its own state (sigprocmask,
	 * dup2 of descriptors we hold, set*id, capability and prctl calls),
	 * touching no path the caller chose (the chdir comes after the
	 * seize) and no program code: the program does not exist yet. */
	{
		char c;
		ssize_t n;

		while ((n = read(ready_r, &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1) {
			/* It is exiting (child_fail): bounded likewise. */
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			n = read(rep_r, &rep, sizeof(rep));
			if (n == sizeof(rep) && rep.stage > ST_NONE && rep.stage <= ST_EXEC)
				r = sw_error_set_errno(err, rep.err, "cannot start '%s': %s",
						       l->argv[0], stage_what[rep.stage]);
			else
				r = sw_error_set(err, ECHILD,
						 "cannot start '%s': the new process died while setting up",
						 l->argv[0]);
			goto fail;
		}
	}

	if (ptrace(PTRACE_SEIZE, pid, 0L,
		   (long)(PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP |
			  PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			  PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
			  PTRACE_O_TRACESYSGOOD)) < 0) {
		r = sw_error_set_errno(err, errno, "trace the new process %d (PTRACE_SEIZE)", pid);
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		goto fail;
	}
	t = sw_tracee_add(sup, pid);
	if (!t) {
		r = sw_error_set_errno(err, ENOMEM, "track the new process");
		kill(pid, SIGKILL);
		/* Reaps the kill: SIGKILL ends a tracee whatever it does. */
		while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
			;
		goto fail;
	}
	t->s = s;
	t->state = SW_T_RUNNING;
	t->announced = true;
	s->n_tracees = 1;
	s->pid = pid;
	s->seq = ++sup->session_seq;
	snprintf(s->launch_prog, sizeof(s->launch_prog), "%s", l->argv[0]);
	s->next = sup->sessions;
	sup->sessions = s;

	/* From here on the dispatch loop supervises the launch: the chdir,
	 * the filters and the exec (which may block on a path the caller
	 * chose, or fail); the session ends with the child's report if it
	 * does not reach exec (sw_launch_failed). */
	s->launch_fd = TAKE_FD(rep_r);
	(void)fcntl(s->launch_fd, F_SETFL, O_NONBLOCK);
	if (write(go_w, "g", 1) != 1)
		kill(pid, SIGKILL);	/* reported as the session's end */
	*ret = s;
	return 0;

fail:
	sw_program_free(s->prog);
	free(s->counters);
	free(s);
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
		sw_error_set_errno(&s->launch_err, rep.err, "cannot execute '%s'",
				   s->launch_prog);
		code = sw_exec_exit_code(rep.err);
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
