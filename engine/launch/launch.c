// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Start a program under a policy, step by step: the running kernel
 * (probed once per supervisor), the launch prepared before the fork
 * (prepare.c: the compiled policy, its BPF, capabilities, Landlock
 * ruleset, /proc), the session, the fork, the child's way to exec
 * (launchchild.c) up to "ready", the seize, and then "go".  A child that
 * fails on its way reports (stage, errno) on a CLOEXEC pipe
 * (launchreport.c), so the caller can say "cannot execute 'foo': No such
 * file or directory": read here if it dies before the seize, by the
 * dispatch loop after it.
 *
 * The child gets a process group of its own (and, when the caller asks,
 * e.g. the daemon, a session of its own led by an untraced holder that
 * is its parent: launchchild.c): kill(0, ...), a terminal's Ctrl-C and
 * the kernel's job-control signals then reach the program's processes
 * and no others (signals.c keeps the program from joining a group
 * outside its tree).  A caller in the foreground of a terminal hands
 * that terminal to the program's group, as a shell does.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "launch/prepare.h"
#include "internal.h"
#include "contain/clientctx.h"
#include "contain/contain.h"
#include "contain/fsrules.h"
#include "contain/nsbox.h"
#include "decide/decide.h"
#include "launch/launch.h"
#include "record/audit.h"
#include "trace/pathguard.h"
#include "trace/reach.h"
#include "trace/trace.h"
#include "trace/listener.h"

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

/* Step 2 is prepare.c's: sw_launch_prepare(). */

/* The credentials the launch gives the program, kept for execguard.c:
 * uid (s->uid), gid and groups; nothing when it keeps the supervisor's
 * (embedded sysward run).  0 or -ENOMEM. */
static int session_creds(struct sw_session *s, const struct sw_launch *l)
{
	if (l->uid == (uid_t)-1)
		return 0;
	s->creds_set = true;
	s->gid = l->gid != (gid_t)-1 ? l->gid : getegid();
	if (l->set_groups) {
		s->n_groups = l->n_groups;
		if (s->n_groups &&
		    !(s->groups = malloc(s->n_groups * sizeof(gid_t))))
			return -ENOMEM;
		if (s->n_groups)
			memcpy(s->groups, l->groups, s->n_groups * sizeof(gid_t));
		return 0;
	}
	/* The program keeps the supervisor's groups (launchchild.c). */
	int n = getgroups(0, NULL);

	if (n < 0)
		return -errno;
	if (n && !(s->groups = calloc((size_t)n, sizeof(gid_t))))
		return -ENOMEM;
	n = getgroups(n, s->groups);
	if (n < 0)
		return -errno;
	s->n_groups = (size_t)n;
	return 0;
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
	s->userdata = l->userdata;
	s->prog = TAKE_PTR(pr->prog);
	s->audit = l->audit;
	s->audit_format = l->audit_format;
	s->audit_allows = l->audit_allows;
	s->gate = s->prog->observe_stderr ? l->audit_gate : NULL;
	s->id = l->session_id;
	s->uid = l->uid != (uid_t)-1 ? l->uid : geteuid();
	s->can_set = pr->can_set;
	s->pathguard = s->can_set && sw_pathguard_wanted(s->prog);
	s->kill_descendants = l->kill_descendants;
	s->launch_fd = -1;
	s->tty_master = -1;
	s->cgroup.dir_fd = -1;
	s->complain = l->complain;
	if ((l->cwd && !(s->launch_cwd = strdup(l->cwd))) ||
	    session_creds(s, l) < 0 ||
	    (l->record && !(s->record = sw_record_new(l->complain, l->record_paths))) ||
	    (pr->listener &&
	     !(s->notif = sw_notif_new(s->prog, l->listener_answers,
				       &(struct sw_notif_log){ s->audit, s->audit_format, s->id, s->uid }))) ||
	    !(s->objects = sw_objects_new())) {
		sw_notif_free(s->notif);
		sw_objects_free(s->objects);
		sw_record_free(s->record);
		free(s->launch_cwd);
		free(s->groups);
		free(s->counters);
		free(s);
		return NULL;
	}
	if (s->record && l->record_files)
		sw_record_keep_files(s->record);
	return s;
}

/* The three channels between the launch and its child. */
struct launch_pipes {
	int go_r, go_w;		/* parent -> child: you are seized */
	int rep_r, rep_w;	/* child -> parent: (stage, errno) */
	/* child -> parent: its cgroup (SCM_RIGHTS, cgroup.c), then "seize
	 * me now" (its pid); a seqpacket socket pair */
	int ready_r, ready_w;
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
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ready) < 0)
		e = errno;
	*lp = (struct launch_pipes){ go[0], go[1], rep[0], rep[1], ready[0], ready[1] };
	if (e) {
		pipes_close(lp);
		return sw_error_set_errno(err, e, "create a pipe to the new process");
	}
	return 0;
}

/* One message of the child on the ready socket into buf (n bytes at
 * most): its length (0: the child closed it).  A descriptor it carries
 * is the session's cgroup (cgroup.c) or its terminal's master (*tty),
 * if it is the one-byte message that hands that over (*ret_handed
 * true), else closed. */
static ssize_t ready_message(int fd, void *buf, size_t n, const char *cg_name,
			     struct sw_cgroup *cg, int *tty, bool *ret_handed)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { buf, n };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t len;
	char what;

	while ((len = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	what = len == 1 ? ((char *)buf)[0] : 0;
	*ret_handed = what == SW_HAND_CGROUP && sw_cgroup_take(cg, cg_name, &msg);
	if (*ret_handed)
		return len;
	for (c = len >= 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int *fds = (int *)CMSG_DATA(c);

				if (what == SW_HAND_TTY && tty && *tty < 0 &&
				    c->cmsg_len == CMSG_LEN(sizeof(int))) {
					*tty = fds[k];
					*ret_handed = true;
				} else {
					close(fds[k]);
				}
			}
	return len;
}

/*
 * Step 4, in the parent after the fork: wait until the child has its
 * final credentials and is dumpable again (or has failed on the way).  A
 * blocking wait, but bounded independently of the program and of the
 * client: until "ready" the child runs only our own code on its own state
 * (sigprocmask, dup2 of descriptors we hold, its namespaces and mounts,
 * set*id, capability and prctl calls), touching no path the caller chose
 * (the chdir comes after the seize) and no program code: the program
 * does not exist yet.  On the way it may hand over its cgroup (cgroup.c),
 * which the session then owns, launched or not.
 */
static int wait_ready(pid_t *pid, bool holder, const char *prog,
		      struct launch_pipes *lp, const struct sw_nsbox *nsbox,
		      struct sw_session *s, const struct sw_client *client,
		      bool tty, struct sw_error *err)
{
	struct sw_launch_ready ready;
	bool handed;
	ssize_t n;

	do {
		ready = (struct sw_launch_ready){ 0 };
		n = ready_message(lp->ready_r, &ready, sizeof(ready),
				  nsbox->cg.name, &s->cgroup,
				  tty ? &s->tty_master : NULL, &handed);
	} while (handed);
	/* Under a holder the program is its child, else ours. */
	if (n == sizeof(ready) && ready.pid > 0 && (holder || ready.pid == *pid)) {
		*pid = ready.pid;
		sw_objects_set_keyrings(s->objects, ready.keyring);
		return 0;
	}
	/* It is exiting (sw_launch_fail): bounded likewise.  (Under a
	 * holder, the holder reaps it; ours, the intermediate, is reaped.) */
	if (!holder)
		sw_reap(*pid);
	return sw_launch_report_early(lp->rep_r, prog, nsbox, client, err);
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
		sw_reap(pid);
		return sw_error_set_errno(err, e, "trace the new process %d (PTRACE_SEIZE)", pid);
	}
	if (sw_session_attach(sup, s, pid) < 0) {
		kill(pid, SIGKILL);
		sw_reap(pid);
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

static bool tty_fits(const struct sw_launch *l)
{
	if (!l->new_session || !l->exact_fds)
		return false;
	for (size_t i = 0; i < l->n_fds; i++)
		if (l->fds[i].to <= 2)
			return false;
	return true;
}

int sw_session_launch_prepared(struct sw_supervisor *sup,
			       struct sw_prepared **prp,
			       const struct sw_launch *l, struct sw_session **ret,
			       struct sw_error *err)
{
	struct sw_prepared *pr = prp ? TAKE_PTR(*prp) : NULL;
	struct launch_pipes lp;
	struct sw_session *s;
	struct sw_tracee *t;
	pid_t pid;
	int r;

	if (!pr || !l || !l->argv || !l->argv[0] || !l->argv[0][0]) {
		sw_prepared_free(pr);
		return sw_error_set(err, EINVAL, pr ? "no program to run" : "no compiled policy");
	}
	/* Its pid namespace is for the holder to enter (launchchild.c). */
	if (l->client && !l->new_session) {
		sw_prepared_free(pr);
		return sw_error_set(err, EINVAL, "a client's context needs a session of its own");
	}
	/* Its terminal is its holder's to make and its slave its 0-2. */
	if (l->tty && !tty_fits(l)) {
		sw_prepared_free(pr);
		return sw_error_set(err, EINVAL, "a terminal of its own needs a session of its own and no descriptor of the caller's at 0, 1 or 2");
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

	pid = fork();
	if (pid < 0) {
		r = sw_error_set_errno(err, errno, "fork");
		goto fail;
	}
	if (pid == 0) {
		close(lp.go_w);
		close(lp.rep_r);
		close(lp.ready_r);
		sw_launch_child(l, pr, lp.go_r, lp.ready_w, lp.rep_w);
	}
	/* Its hierarchies' names, should the child fail to apply them. */
	s->fsrules = TAKE_PTR(pr->fsrules);
	s->sandbox = TAKE_PTR(pr->sandbox);
	/* What the kernel refuses never stops here: a caller who asked to
	 * see refusals is told which ones it will not see (route 21). */
	if (l->audit || l->record || l->complain) {
		if (sw_fsrules_enforced(s->fsrules))
			sw_warn(s, "%s", s->prog->needs_landlock_paths
				? sw_pathrules_unseen_words()
				: sw_fsrules_unseen_words(l->complain));
		if (s->sandbox)
			sw_warn(s, "%s", sw_sandbox_unseen_words(l->complain));
	}
	close(TAKE_FD(lp.go_r));
	close(TAKE_FD(lp.rep_w));
	close(TAKE_FD(lp.ready_w));
	if (l->new_session)
		sw_reap(pid);	/* the intermediate: it exits at once */

	r = wait_ready(&pid, l->new_session, l->argv[0], &lp, &pr->nsbox,
		       s, l->client, l->tty != NULL, err);
	/* Launched with a terminal: the program has it as its standard
	 * streams, the caller its master. */
	if (r >= 0 && l->tty && s->tty_master < 0) {
		kill(pid, SIGKILL);
		r = sw_error_set(err, EPROTO, "the new process handed over no terminal");
	}
	if (r >= 0)
		r = seize(sup, s, pid, l->argv[0], err);
	if (r < 0)
		goto fail;
	sw_objects_launched(s->objects, pid);

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
