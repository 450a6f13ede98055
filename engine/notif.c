// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Calls answered through a seccomp listener instead of a ptrace stop.
 *
 * A rule whose answer is a return value (skip, emulate) needs neither a
 * register nor a memory write in the tracee, nor a read of its memory:
 * the kernel can answer it from SECCOMP_RET_USER_NOTIF with the value a
 * listener sends back.  On these VMs that round trip costs a fraction of
 * a ptrace stop when caller and supervisor run on different CPUs
 * ("Where the supervisor runs", engine/README.md): the caller sleeps in
 * the seccomp hook once, and with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP the
 * kernel wakes the listener, and then the caller, on the waker's own
 * CPU (kernel/seccomp.c, seccomp_do_user_notification() and
 * seccomp_notify_send(): wake_up_poll_on_current_cpu(), WF_CURRENT_CPU).
 *
 * Which rules go there, one home: sw_notif_rule_why() (the filter
 * compiler, `sysward check` and the docs read it).  The launch's part:
 * the policy's filter, loaded last, is loaded with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER; its descriptor is close-on-exec
 * (kernel/seccomp.c, init_listener(): O_CLOEXEC) and must reach the
 * supervisor before any call the listener answers can be made, which is
 * the launch child's very next call: the exec.  So the child makes that
 * execve with two more arguments, which execve ignores (it takes
 * three on every architecture: fs/exec.c): a magic value and the
 * listener's number; a prefix of the policy's filter
 * (sw_notif_patch_filter) traces exactly that call, and the supervisor
 * takes the descriptor with pidfd_getfd at the stop (sw_notif_take), before the exec
 * closes the child's copy.  Until then no call of the child can need the
 * listener: execve is never answered there.
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

/* ---- which rules: one home ------------------------------------------- */

const char *sw_notif_rule_why(const struct sw_program *prog, size_t i)
{
	const struct sw_rule *r = prog->rules[i].rule;

	/* The rule's own reasons first: they hold on every machine; what
	 * makes a rule need the supervisor at all (sw_rule_needs_supervisor)
	 * before its action. */
	if (r->n_paths)
		return "a path condition reads tracee memory (the path guard)";
	if (r->when_first || r->when_last || r->when_step)
		return "a when counter is the session's, kept by the tracer";
	if (r->action == SW_ACT_AUDIT ||
	    (r->audit && (r->action == SW_ACT_ALLOW || r->action == SW_ACT_KLOG)))
		return "its log line has the call's result, which only its exit stop sees";
	if (r->action == SW_ACT_REWRITE)
		return "a rewrite changes the call's registers, which only ptrace can";
	if (r->action != SW_ACT_SKIP && r->action != SW_ACT_EMULATE)
		return "its action is decided at a stop";
	for (size_t k = 0; k < r->n_names; k++)
		if (!strcmp(r->names[k], "execve") || !strcmp(r->names[k], "execveat"))
			return "exec hands the listener over and is checked at its stop";
	if (!prog->listener)
		return prog->no_listener_why ? prog->no_listener_why
					     : "the launch has no seccomp listener";
	return NULL;
}

bool sw_notif_rule(const struct sw_program *prog, size_t i)
{
	return sw_notif_rule_why(prog, i) == NULL;
}

/* ---- the filter's prefix ----------------------------------------------- */

#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_LO(i)	(uint32_t)offsetof(struct seccomp_data, args[i])
#define SD_HI(i)	(uint32_t)(offsetof(struct seccomp_data, args[i]) + 4)

struct pbuf {
	struct sock_filter f[96];
	size_t n;
	size_t to_end[32];	/* JA instructions to the original program */
	size_t n_to_end;
};

static void emit(struct pbuf *b, struct sock_filter f)
{
	b->f[b->n++] = f;
}

static void emit_to_end(struct pbuf *b)
{
	b->to_end[b->n_to_end++] = b->n;
	emit(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, 0, 0, 0));
}

/*
 * In front of the policy's filter, when the launch has a listener:
 *   - the launch child's handoff (execve with SW_NOTIF_MAGIC in its
 *     fourth argument, native ABI) -> TRACE, for sw_notif_take();
 *   - SECCOMP_LISTENER's row of sw_denials[] (seccomp() asking for a
 *     listener -> EPERM), moved here from the defences' filter: that
 *     filter is loaded first (launchchild.c) and would refuse our own
 *     listener.  A refusal of the filter loaded last outranks a
 *     program's own filters just as well (ERRNO > USER_NOTIF), and
 *     while our listener lives the kernel refuses a second one in the
 *     chain anyway (EBUSY, kernel/seccomp.c has_duplicate_listener()).
 */
int sw_notif_patch_filter(const struct sw_program *prog, void **insns,
			  size_t *n, struct sw_error *err)
{
	const uint32_t lo = (uint32_t)SW_NOTIF_MAGIC;
	const uint32_t hi = (uint32_t)(SW_NOTIF_MAGIC >> 32);
	const struct sw_denial *row = NULL;
	size_t row_i = 0;
	struct pbuf b = { .n = 0 };

	for (size_t i = 0; i < SW_DENIAL_COUNT; i++)
		if (sw_denials[i].defence == SW_DEFENCE_SECCOMP_LISTENER) {
			row = &sw_denials[i];
			row_i = i;
		}
	for (size_t g = 0; g < sw_arch_n_filter_groups; g++) {
		const struct sw_arch_filter_group *grp = &sw_arch_filter_groups[g];
		size_t test;

		emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_ARCH));
		test = b.n;
		emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      grp->audit_arch, 0, 0));
		emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_NR));
		for (unsigned int k = 0; k < grp->n_abis; k++) {
			enum sw_abi abi = grp->abis[k];
			int nr;

			if (abi == SW_ABI_GUARD) {
				/* nr == execve && args[3] == magic */
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
								      __NR_execve, 0, 6));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_LO(3)));
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 3));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SD_HI(3)));
				emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 1));
				emit(&b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
								      SECCOMP_RET_TRACE | SW_HINT_NONE));
				emit_to_end(&b);
			}
			if (!row || !(prog->defences & row->defence) ||
			    !prog->abi_enabled[abi] ||
			    (nr = prog->denial_nr[abi][row_i]) < 0)
				continue;
			/* nr == seccomp && (args[1] & NEW_LISTENER) */
			emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (uint32_t)nr, 0, 5));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							      SD_LO(row->args[0].index)));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
							      (uint32_t)row->args[0].value));
			emit(&b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (uint32_t)row->args[0].value_two, 0, 1));
			emit(&b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							      SECCOMP_RET_ERRNO | (uint16_t)row->err));
			emit_to_end(&b);
		}
		emit_to_end(&b);
		/* Another AUDIT_ARCH: the next group. */
		b.f[test].jf = (uint8_t)(b.n - test - 1);
	}
	/* b.n is now the first instruction of the original program. */
	for (size_t i = 0; i < b.n_to_end; i++)
		b.f[b.to_end[i]].k = (uint32_t)(b.n - b.to_end[i] - 1);
	return sw_filter_prepend(insns, n, b.f, b.n,
				 "the seccomp listener's prefix", err);
}

bool sw_notif_filter_has(const void *insns, size_t n)
{
	const struct sock_filter *f = insns;

	for (size_t i = 0; i < n; i++)
		if (BPF_CLASS(f[i].code) == BPF_RET && BPF_RVAL(f[i].code) == BPF_K &&
		    (f[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF)
			return true;
	return false;
}

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
