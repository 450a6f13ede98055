// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's seccomp listener: taken from the launch child at its
 * handoff stop, answered by a thread of its own (decide/notif.c says
 * which rules it answers and how the child hands it over).
 *
 * The answers: a thread of the supervisor's process per session
 * (sw_notif_start), asleep in poll on the listener.  It decides on
 * nothing but the session's compiled program, which does not change
 * once launched, and the notification (nr, arch, argument registers,
 * which the caller cannot change while it waits: only ptrace writes
 * another task's registers, and the caller is in no ptrace stop), with
 * decide.c as a stop would (no strings, no counters: those rules stay
 * with ptrace); where the session has a log, it reads the strings the
 * line shows, for the line alone (log_keep()).  It never blocks on one caller: RECV only after
 * poll says a notification waits (one reader; a caller interrupted by a
 * signal meanwhile leaves RECV returning ENOENT, kernel/seccomp.c
 * seccomp_notify_recv()), SEND never waits (ENOENT: the caller was
 * interrupted, its call restarts and notifies again).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "sysward/seccomp_abi.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "contain/contain.h"
#include "decide/decide.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/listener.h"

struct sw_notif {
	int fd;			/* the listener, -1 until taken */
	int stop_fd;		/* eventfd: the thread ends */
	const struct sw_program *prog;
	struct sw_notif_log log;	/* the session's audit log, f NULL: none */
	pthread_t thread;
	bool running;
	uint64_t answered;	/* atomic: calls answered */
	uint64_t *also;		/* sw_launch.listener_answers, or NULL */
	uint64_t refused;	/* atomic: answered EPERM, not the rule's */
	pid_t stalled;		/* atomic: a caller whose read passed its
				 * deadline (strings.c), for the tracer */
	struct sw_decide_scratch scratch;	/* the thread's */
};

/* ---- the session's listener --------------------------------------------- */

struct sw_notif *sw_notif_new(const struct sw_program *prog, uint64_t *also,
			      const struct sw_notif_log *log)
{
	struct sw_notif *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->fd = -1;
	n->stop_fd = -1;
	n->prog = prog;
	n->also = also;
	if (log)
		n->log = *log;
	return n;
}

bool sw_notif_pending(const struct sw_notif *n)
{
	return n && n->fd < 0;
}

pid_t sw_notif_stalled(struct sw_notif *n)
{
	return n ? __atomic_exchange_n(&n->stalled, 0, __ATOMIC_RELAXED) : 0;
}

uint64_t sw_notif_answered(const struct sw_notif *n)
{
	return n ? __atomic_load_n(&n->answered, __ATOMIC_RELAXED) : 0;
}

/* What a session decided: at its stops, and through its listener (read
 * here, so that the session tables need nothing of the listener). */
uint64_t sw_session_decisions(const struct sw_session *s)
{
	return s->decisions + sw_notif_answered(s->notif);
}

/*
 * The audit line of an answered call, as actions.c writes it at a stop
 * (audit.c, one writer: the same bytes).  Its strings are read from the
 * caller's memory first, then the answer is sent, and the line written
 * only if that succeeded: SECCOMP_IOCTL_NOTIF_SEND finds the
 * notification only while its caller still waits for it
 * (kernel/seccomp.c, seccomp_notify_send(): find_notification() and
 * state SENT, else ENOENT; a caller that leaves its wait, killed or
 * interrupted, takes its notification off the list itself,
 * seccomp_do_user_notification()).  So req->pid named the caller,
 * alive and waiting, throughout the read, never a process that got its
 * number since; SECCOMP_IOCTL_NOTIF_ID_VALID would ask the same
 * question, and the answer asks it anyway (security.notif_log_exits:
 * with the line written whatever SEND says, lines with an unreadable
 * path for callers gone).  And a caller interrupted before its answer
 * restarts and is logged once, at its next notification, as at a stop.
 *
 * The strings are for people, never for a decision: the rules answered
 * here read no memory (sw_notif_rule_why(): a path condition stops),
 * and their calls do not run.  The kernel's own warning about
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE (include/uapi/linux/seccomp.h: the
 * caller's other threads may rewrite what a pointer argument points to
 * while it waits, so a listener "cannot be used to implement a security
 * policy") is why no call that runs is answered here, logged or not:
 * this thread never sends FLAG_CONTINUE.  A read past its deadline
 * (strings.c) kills the caller: no answer, no line (false).
 */
static bool log_keep(struct sw_notif *n, const struct seccomp_notif *req,
		     struct sw_audit_strings *kept)
{
	enum sw_abi abi = sw_abi_of(req->data.arch, req->data.nr);
	uint64_t args[6];

	if (!n->log.f || abi == SW_ABI_NONE)
		return true;
	memcpy(args, req->data.args, sizeof(args));	/* __u64 is no uint64_t */
	sw_audit_strings_keep(kept, (pid_t)req->pid, abi, req->data.nr, args);
	/* Past the deadline the caller is killed already; the tracer
	 * kills its session, which holds the fault (sw_notif_stalled). */
	pid_t stuck = sw_tracee_mem_stalled();

	if (stuck <= 0)
		return true;
	__atomic_store_n(&n->stalled, stuck, __ATOMIC_RELAXED);
	return false;
}

static void log_write(struct sw_notif *n, const struct seccomp_notif *req,
		      const struct sw_decision *d,
		      const struct sw_audit_strings *kept)
{
	struct sw_audit_rec rec = {
		.session_id = n->log.session, .pid = (pid_t)req->pid,
		.abi = sw_abi_of(req->data.arch, req->data.nr),
		.nr = req->data.nr, .d = d, .prog = n->prog,
		.has_result = true, .result = d->retval, .kept = kept,
	};

	if (!n->log.f || rec.abi == SW_ABI_NONE)
		return;
	memcpy(rec.args, req->data.args, sizeof(rec.args));
	(void)sw_audit_write(n->log.f, n->log.fmt, &rec);
}

static void answer(struct sw_notif *n)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct sw_decision d;
	struct sw_audit_strings kept
		__attribute__((cleanup(sw_audit_strings_clear))) = { 0 };
	uint64_t args[6];
	bool logged = false;

	/* SECCOMP_IOCTL_NOTIF_RECV wants a zeroed request. */
	memset(&req, 0, sizeof(req));
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return;		/* ENOENT: its caller was interrupted */
	memcpy(args, req.data.args, sizeof(args));
	sw_decide(n->prog, req.data.arch, req.data.nr, args,
		  NULL, NULL, NULL, &n->scratch, &d);
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	if (d.verdict == SW_V_RETURN && !d.signal) {
		if (d.is_error)
			resp.error = (int32_t)d.retval;
		else
			resp.val = d.retval;
		/* A caller killed for a read past its deadline gets
		 * neither an answer nor a line. */
		if (!log_keep(n, &req, &kept))
			return;
		logged = n->log.f != NULL;
	} else {
		/* Only the rules sw_notif_rule() sends here notify, and
		 * decide.c answers them with a value; anything else would
		 * need a stop: fail closed, never run it. */
		resp.error = -EPERM;
		__atomic_add_fetch(&n->refused, 1, __ATOMIC_RELAXED);
	}
	/* ENOENT: the caller was interrupted meanwhile; its call restarts
	 * (-ERESTARTSYS) and comes back as a new notification. */
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) == 0) {
		/* Sent: its caller waited throughout the read (log_keep). */
		if (logged)
			log_write(n, &req, &d, &kept);
		__atomic_add_fetch(&n->answered, 1, __ATOMIC_RELAXED);
		if (n->also)
			__atomic_add_fetch(n->also, 1, __ATOMIC_RELAXED);
	}
}

static void *serve(void *arg)
{
	struct sw_notif *n = arg;
	struct pollfd p[2] = { { n->fd, POLLIN, 0 }, { n->stop_fd, POLLIN, 0 } };

	/* Its reads of the program's memory are on the program's uid's
	 * account, as the tracer's (strings.c). */
	sw_tracee_mem_owner(n->log.uid);

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (p[0].revents & POLLIN)
			answer(n);
		else if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			break;	/* no task uses the filter any more */
	}
	return NULL;
}

/*
 * At a SECCOMP stop of the session's first process before its first
 * exec: the launch child's handoff (see the top).  Takes the listener
 * (pidfd_getfd, then checks that it is one), asks for synchronous
 * wake-ups and starts the thread.  0, or -errno with err set: the
 * caller kills the session (its calls that notify would fail ENOSYS
 * once the exec closes the child's copy: not what the policy says).
 */
int sw_notif_take(struct sw_notif *n, pid_t pid, const uint64_t args[6],
		  struct sw_error *err)
{
	cleanup_close int pidfd = -1, fd = -1;
	char path[64], link[64];
	sigset_t all, old;
	ssize_t len;
	int r;

	if (args[3] != SW_NOTIF_MAGIC || args[4] > INT32_MAX)
		return sw_error_set(err, EPROTO, "the launch child's exec carries no seccomp listener");
	pidfd = sw_sys_pidfd_open(pid, 0);
	if (pidfd < 0)
		return sw_error_set_errno(err, errno, "open a pidfd of the new process %d", pid);
	fd = sw_sys_pidfd_getfd(pidfd, (int)args[4], 0);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "take the seccomp listener of process %d (pidfd_getfd)", pid);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = sw_sys_readlink(path, link, sizeof(link) - 1);
	if (len < 0 || (link[len] = '\0', strcmp(link, "anon_inode:seccomp notify")))
		return sw_error_set(err, EPROTO, "descriptor %d of process %d is no seccomp listener", (int)args[4], pid);
	/* 6.6+; without it the answers are right, only slower. */
	(void)ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
	n->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (n->stop_fd < 0)
		return sw_error_set_errno(err, errno, "make the seccomp listener's stop eventfd");
	n->fd = TAKE_FD(fd);
	/* Signals are the tracer's: the thread takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&n->thread, NULL, serve, n);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return sw_error_set_errno(err, r, "start the seccomp listener's thread");
	n->running = true;
	return 0;
}

void sw_notif_free(struct sw_notif *n)
{
	if (!n)
		return;
	if (n->running) {
		/* The thread never waits on a caller: it ends at once. */
		(void)!write(n->stop_fd, &(uint64_t){ 1 }, sizeof(uint64_t));
		pthread_join(n->thread, NULL);
	}
	if (n->fd >= 0)
		close(n->fd);
	if (n->stop_fd >= 0)
		close(n->stop_fd);
	free(n);
}

/* At a SECCOMP stop of the session's first process before its first
 * exec (actions.c): the handoff, if this is it (true).  A listener that
 * cannot be taken ends the session: the calls it answers would fail
 * ENOSYS once the exec closes the child's copy, which is not what the
 * policy says. */
bool sw_notif_handoff(struct sw_session *s, struct sw_tracee *t,
		      uint32_t audit_arch, uint64_t nr, const uint64_t args[6])
{
	struct sw_error e = { 0 };

	if (args[3] != SW_NOTIF_MAGIC || nr != __NR_execve ||
	    sw_abi_of(audit_arch, nr) != SW_ABI_GUARD)
		return false;
	if (sw_notif_take(s->notif, t->pid, args, &e) < 0) {
		sw_warn(s, "%s; killing the session", e.msg);
		sw_sys_kill(t->pid, SIGKILL);
	}
	return true;
}

/* At the session's first exec event (tracer.c): the listener must be
 * ours by now. */
bool sw_notif_exec_check(struct sw_session *s, struct sw_tracee *t)
{
	if (!sw_notif_pending(s->notif))
		return true;
	sw_warn(s, "the new process %d exec'd without handing its seccomp listener over; killing the session", t->pid);
	sw_sys_kill(t->pid, SIGKILL);
	return false;
}

/*
 * At a signal-delivery stop of a session with a listener (tracer.c).
 * A call waiting for the listener that a signal interrupts before the
 * listener has read it returns -ERESTARTSYS (kernel/seccomp.c,
 * seccomp_do_user_notification(): its wait is interruptible until then,
 * killable only once read, SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV), and
 * a handler without SA_RESTART turns that into EINTR: what no program
 * sees from getuid unconfined, nor from the same rule at a ptrace stop
 * (a stopped tracee takes the signal after the call).  Such a call has
 * not run (an answered one returns its answer), so it restarts, as with
 * no handler.  Only a call the listener answers (decided on its
 * registers as its notification was: the filter's BPF compares the same
 * registers), never one of the program's own waits, which keep their
 * EINTR.  Failures change nothing: the program sees EINTR.
 */
void sw_notif_signal_stop(struct sw_session *s, struct sw_tracee *t)
{
	struct sw_ptrace_syscall_info info;
	static __thread struct sw_decide_scratch scratch;
	struct sw_decision d;
	uint64_t nr, args[6];
	enum sw_abi abi;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid,
			  (void *)sizeof(info), &info) < 0)
		return;
	abi = sw_abi_of(info.arch, 0);
	if (abi == SW_ABI_NONE ||
	    sw_arch_interrupted_call(t->pid, abi, &nr, args) != 1)
		return;
	abi = sw_abi_of(info.arch, nr);
	if (abi == SW_ABI_NONE)
		return;
	sw_decide(s->prog, info.arch, nr, args, NULL, NULL, NULL, &scratch, &d);
	if (d.verdict != SW_V_RETURN || d.rule < 0 ||
	    !sw_notif_rule(s->prog, (size_t)d.rule))
		return;
	(void)sw_arch_restart_always(t->pid);
}
