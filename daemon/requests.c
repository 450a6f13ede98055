// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syswardd's requests and sessions.  A RUN is checked here, step by step
 * (the client, the request, its privilege), and handed with its
 * descriptors to the compile stage (compile.c), which parses and compiles
 * its policy off this thread; the ready launch (COMPILED) goes to the
 * least-loaded tracer thread, which forks and seizes it and supervises it
 * to its end; all replies (COMPILED, STARTED, FAILED, DONE) come back
 * through the mailbox.  A RUN connection lives as long as its session:
 * EXIT is its last reply, SIGNAL messages on it reach the program, and
 * its closing kills the session.  PS and KILL see only the client's own sessions
 * (root's: all).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>

#include "sysward/caps.h"
#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/proto.h"
#include "syswardd.h"
#include "loop.h"

static struct session *session_by_id(struct server *srv, uint64_t id)
{
	for (struct session *x = srv->sessions; x; x = x->next)
		if (x->id == id)
			return x;
	return NULL;
}

/* Hand x's tracer thread a message; false if out of memory.  Before its
 * compile is done x has no thread: a kill or signal waits in x. */
static bool session_post(struct server *srv, struct session *x,
			 enum mail_type kind, int sig)
{
	struct mail *m;

	if (!x->launched) {
		if (kind == MSG_KILL)
			x->killed = true;
		else if (kind == MSG_SIGNAL && sig > 0 && sig < 64)
			x->pending_sigs |= 1ull << sig;
		return true;
	}
	m = mail_new(kind, x);

	if (!m) {
		swd_log("session %llu: out of memory for a message to its "
		      "tracer thread", (unsigned long long)x->id);
		return false;
	}
	m->sig = sig;
	shard_send(srv->shards[x->shard], m);
	return true;
}

/* The program has its descriptors (or never will): they no longer count
 * against the daemon's. */
static void session_fds_released(struct server *srv, struct session *x)
{
	srv->fds_held -= x->fds_held;
	x->fds_held = 0;
}

void requests_conn_closed(struct server *srv, struct conn *c)
{
	/* The client went away: its program must not outlive it. */
	if (!c->session)
		return;
	c->session->conn = NULL;
	if (!srv->shutting_down)
		session_post(srv, c->session, MSG_KILL, 0);
	c->session = NULL;
}

/* x has ended (or never started): the event loop lets it go. */
static void session_forget(struct server *srv, struct session *x)
{
	if (x->conn)
		x->conn->session = NULL;
	x->conn = NULL;
	session_fds_released(srv, x);
	LIST_DEL(srv->sessions, x);
	srv->n_sessions--;
	if (x->launched)
		srv->load[x->shard]--;
	session_unref(x);
}

/* What "sysward ps" shows: the decisions its tracer made at stops (as
 * last published) and those its listener's thread answered (live). */
static uint64_t session_decisions(const struct session *x)
{
	return __atomic_load_n(&x->decisions, __ATOMIC_RELAXED) +
	       __atomic_load_n(&x->answered, __ATOMIC_RELAXED);
}

/* tty: the master of the program's terminal, or -1; taken.  It goes to
 * the client with STARTED, which the client reads before anything else
 * of its session: the daemon never reads or writes the terminal, so a
 * program that floods it or never reads it waits on its client alone. */
static void mail_started(struct server *srv, struct session *x, pid_t pid,
			 int tty)
{
	struct sw_buf b = { 0 };

	x->pid = pid;
	session_fds_released(srv, x);
	if (!x->conn) {
		if (tty >= 0)
			close(tty);
		return;		/* gone: its MSG_KILL is on its way */
	}
	if (sw_msg_encode_started(&b, &(struct sw_started){ x->id, (uint32_t)pid,
				  tty >= 0 ? SW_PROTO_STARTED_TTY : 0 }, NULL) == 0) {
		if (tty >= 0)
			conn_queue_fd(srv, x->conn, &b, TAKE_FD(tty));
		else
			conn_queue(srv, x->conn, &b);
	}
	if (tty >= 0)
		close(tty);
	sw_buf_free(&b);
}

static void mail_stopped(struct server *srv, struct session *x, int sig)
{
	struct sw_buf b = { 0 };

	if (!x->conn)
		return;
	if (sw_msg_encode_stopped(&b, sig, NULL) == 0)
		conn_queue(srv, x->conn, &b);
	sw_buf_free(&b);
}

static void mail_ended(struct server *srv, const struct mail *m)
{
	struct session *x = m->x;
	struct conn *c = x->conn;
	struct sw_buf b = { 0 };

	/* A session killed while it compiled never started (no pid). */
	if (m->kind == MSG_DONE && x->pid)
		audit_session_exit(srv->audit, x->id, x->pid, m->exit_code,
				   m->term_sig, m->decisions);
	/* Detach first: a failed send closes c, which must not try to kill
	 * this finished session. */
	if (c)
		c->session = NULL;
	x->conn = NULL;
	if (c && (m->kind == MSG_FAILED || m->kind == MSG_COMPILED)) {
		conn_reply_error(srv, c, "RUN", m->err.code, m->exit_code,
			    m->err.msg, true);
	} else if (c && m->has_err) {
		/* The launch ends at exec, on the tracer thread: a program
		 * that could not be exec'd is an ERROR after STARTED. */
		if (sw_msg_encode_error(&b, m->err.code ? m->err.code : ECHILD,
					m->exit_code, m->err.msg, NULL) == 0)
			conn_queue(srv, c, &b);
		conn_finish(srv, c);
	} else if (c) {
		/* The record first: the client acts on it at EXIT. */
		if (m->has_report &&
		    sw_msg_encode_report(&b, &m->report, NULL) == 0)
			conn_queue(srv, c, &b);
		sw_buf_free(&b);
		if (sw_msg_encode_exit(&b, &(struct sw_exit_reply){
					.exit_code = (uint32_t)m->exit_code,
					.signal = (uint32_t)m->term_sig,
					.core = m->core }, NULL) == 0)
			conn_queue(srv, c, &b);
		conn_finish(srv, c);
	}
	sw_buf_free(&b);
	session_forget(srv, x);
}

/*
 * Shutdown, once every tracer thread has ended: each killed and reaped
 * its programs with no done callback.  Take the mail they left, then
 * write a session-exit for every session that started and has none
 * (SIGKILLed: 128 + 9), so that every session-start in the audit log has
 * its exit, whatever ended the session.
 */
void requests_read_last_mail(struct server *srv)
{
	for (struct mail *m = mailbox_take(srv->mail), *next; m; m = next) {
		next = m->next;
		if (m->kind == MSG_STARTED) {
			m->x->pid = m->pid;
		} else if (m->kind == MSG_DONE) {
			audit_session_exit(srv->audit, m->x->id, m->x->pid,
					   m->exit_code, m->term_sig,
					   m->decisions);
			m->x->pid = 0;	/* recorded */
		}
		mail_free(m);
	}
	for (struct session *x = srv->sessions; x; x = x->next)
		if (x->pid)
			audit_session_exit(srv->audit, x->id, x->pid,
					   128 + SIGKILL, 0, session_decisions(x));
}

/*
 * x's launch is compiled (m, which goes on as MSG_LAUNCH): to the
 * least-loaded tracer thread (of those not serving a signal flood, if
 * any), unless the client went away or killed it meanwhile (its EXIT:
 * killed, 137, as a program killed at once); signals sent meanwhile
 * follow it.
 */
static void mail_compiled(struct server *srv, struct mail *m)
{
	struct session *x = m->x;
	unsigned int shard;

	if (!x->conn || x->killed) {
		struct mail done = { .kind = MSG_DONE, .x = x,
				     .exit_code = 128 + SIGKILL };

		mail_ended(srv, &done);
		mail_free(m);
		return;
	}
	shard = shard_pick(srv->shards, srv->load, srv->n_shards);
	x->shard = shard;
	x->launched = true;
	srv->load[shard]++;
	m->kind = MSG_LAUNCH;
	shard_send(srv->shards[shard], m);
	for (int sig = 1; sig < 64; sig++)
		if (x->pending_sigs & (1ull << sig))
			session_post(srv, x, MSG_SIGNAL, sig);
	x->pending_sigs = 0;
}

/* The tracer threads' and the compile stage's replies, in the order each
 * thread posted them. */
void requests_read_mail(struct server *srv)
{
	for (struct mail *m = mailbox_take(srv->mail), *next; m; m = next) {
		next = m->next;
		if (m->kind == MSG_COMPILED && !m->has_err) {
			mail_compiled(srv, m);
			continue;	/* on its way to a tracer thread */
		}
		if (m->kind == MSG_STARTED)
			mail_started(srv, m->x, m->pid, TAKE_FD(m->tty));
		else if (m->kind == MSG_STOPPED)
			mail_stopped(srv, m->x, m->sig);
		else if (m->kind == MSG_FAILED || m->kind == MSG_DONE ||
			 m->kind == MSG_COMPILED)
			mail_ended(srv, m);
		mail_free(m);
	}
}

/* Why a RUN is refused: one reply, made by handle_run(). */
struct refusal {
	struct sw_error err;
	int exit_code;
};

static int refuse(struct refusal *rf, int code, int exit_code,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int refuse(struct refusal *rf, int code, int exit_code,
		  const char *fmt, ...)
{
	va_list ap;

	rf->exit_code = exit_code;
	va_start(ap, fmt);
	sw_error_vset(&rf->err, code, fmt, ap);
	va_end(ap);
	return -1;
}

/* The client: not a confined program (peer_vet()), pinned by *pidfd for
 * the compile stage to read its context (clientctx.c in the engine), and
 * its nice value, which its program gets instead of ours. */
static int run_vet_client(struct conn *c, struct peer_state *pst,
			  int *pidfd, int *client_nice, struct refusal *rf)
{
	struct sw_error err = { 0 };
	int r;

	r = peer_vet_pinned(c->fd, &c->peer, "RUN", pst, pidfd, &err);
	if (r < 0)
		return refuse(rf, -r, SW_EXIT_SYSWARD_ERROR, "%s", err.msg);
	errno = 0;
	*client_nice = getpriority(PRIO_PROCESS, pst->pid);
	if (*client_nice == -1 && errno)
		return refuse(rf, errno, SW_EXIT_SYSWARD_ERROR,
			      "cannot read the client's nice value (getpriority)");
	return 0;
}

/*
 * A RUN's descriptors stay open in the daemon from its request until its
 * program has them (its compile may take --compile-timeout, and a uid
 * may queue --compile-queue of them): at most FDS_HELD_PER_UID for one
 * uid and fds_held_max in all (half the daemon's RLIMIT_NOFILE), so that
 * no client runs the daemon out of descriptors for the others.
 */
static int run_check_fds_held(struct server *srv, const struct conn *c,
			      struct refusal *rf)
{
	size_t uid_held = 0;

	for (const struct session *x = srv->sessions; x; x = x->next)
		if (x->uid == c->peer.uid)
			uid_held += x->fds_held;
	if (uid_held + c->n_fds > FDS_HELD_PER_UID ||
	    srv->fds_held + c->n_fds > srv->fds_held_max)
		return refuse(rf, EAGAIN, SW_EXIT_SYSWARD_ERROR,
			      "syswardd holds %zu descriptors for programs of "
			      "uid %u that have not started yet (%zu in all) and "
			      "cannot take %zu more (limits %u per uid, %zu in "
			      "all); try again once they started",
			      uid_held, c->peer.uid, srv->fds_held, c->n_fds,
			      FDS_HELD_PER_UID, srv->fds_held_max);
	return 0;
}

/* The request itself, its descriptors, and room for one more session. */
static int run_decode(struct server *srv, struct conn *c,
		      struct sw_run_request *q, struct refusal *rf)
{
	struct sw_error err = { 0 };
	int r;

	r = sw_run_request_decode(c->payload, c->h.length, q, &err);
	if (r < 0)
		return refuse(rf, -r, SW_EXIT_SYSWARD_ERROR, "%s", err.msg);
	if (c->n_fds != q->n_fds || c->too_many_fds)
		return refuse(rf, EBADMSG, SW_EXIT_SYSWARD_ERROR,
			      "RUN request carries %s%zu file descriptors and names "
			      "%zu (the client's descriptors its program starts "
			      "with, sent with SCM_RIGHTS, at most %u)",
			      c->too_many_fds ? "more than " : "", c->n_fds,
			      q->n_fds, SW_PROTO_MAX_FDS);
	if (srv->n_sessions >= srv->max_sessions)
		return refuse(rf, EAGAIN, SW_EXIT_SYSWARD_ERROR,
			      "syswardd already runs its limit of %u sessions; try "
			      "again later (or raise syswardd --max-sessions)",
			      srv->max_sessions);
	return run_check_fds_held(srv, c, rf);
}

/* Never more privilege than the client has. */
static int run_check_privilege(struct conn *c, const struct peer_state *pst,
			       const struct sw_run_request *q,
			       struct refusal *rf)
{
	struct sw_error err = { 0 };
	int r;

	/* No capabilities but for root... */
	if (q->caps && c->peer.uid != 0)
		return refuse(rf, EPERM, SW_EXIT_SYSWARD_ERROR,
			      "uid %u may not keep capabilities (--cap): syswardd "
			      "grants them to root clients only", c->peer.uid);
	/* ... and none it does not hold itself: uid 0 is not the same as
	 * root's capabilities (setpriv, capsh, a container's bounding set). */
	r = peer_check_caps(pst, q->caps, &err);
	if (r < 0)
		return refuse(rf, -r, SW_EXIT_SYSWARD_ERROR, "%s", err.msg);
	/* A non-root daemon can only be its own user. */
	if (geteuid() != 0 && c->peer.uid != geteuid())
		return refuse(rf, EPERM, SW_EXIT_SYSWARD_ERROR,
			      "syswardd runs as uid %u and cannot run programs as "
			      "uid %u; use the system daemon (/run/sysward.sock)",
			      geteuid(), c->peer.uid);
	/* Nor can root without the capabilities to change credentials (a
	 * container of runc's default spec, Kubernetes' drop: ALL): the
	 * kernel would refuse the launch's setresuid/setresgid; say why
	 * now.  Its own uid and gid it keeps without them. */
	if (geteuid() == 0 &&
	    (c->peer.uid != 0 || c->peer.gid != getegid()) &&
	    !(sw_cap_effective(CAP_SETUID) && sw_cap_effective(CAP_SETGID)))
		return refuse(rf, EPERM, SW_EXIT_SYSWARD_ERROR,
			      "syswardd lacks CAP_SETUID and CAP_SETGID (a "
			      "container's capability set?) and cannot run "
			      "programs as uid %u gid %u; run the client as uid "
			      "0 gid %u, or give syswardd those capabilities",
			      c->peer.uid, c->peer.gid, (unsigned int)getegid());
	return 0;
}

/*
 * Hand the checked RUN to the compile stage (compile.c): its policy is
 * parsed and compiled there, off this thread, and comes back as
 * MSG_COMPILED (mail_compiled).  Nothing on this thread looks up a path
 * the client chose either (its working directory, PROGRAM): a file system
 * that never answers a lookup would stall every client with it.  The
 * engine's child enters the directory and searches PATH as the program's
 * user, after the seize, and a failure ends the session with the words
 * of its stage (sw_launch_failed), the embedded mode's.  Everything the
 * launch needs moves to the message: the connection may be gone before
 * a thread gets to it.
 */
static int run_hand_off(struct server *srv, struct conn *c,
			struct sw_run_request *q, const struct peer_state *pst,
			int *pidfd, int client_nice, struct refusal *rf)
{
	struct session *x = calloc(1, sizeof(*x));
	struct launch_req *lr = calloc(1, sizeof(*lr));
	struct mail *m = NULL;

	if (x) {
		x->refs = 1;	/* ours */
		x->uid = c->peer.uid;
	}
	m = x ? mail_new(MSG_COMPILE, x) : NULL;
	if (!x || !lr || !m || peer_copy(&lr->peer, &c->peer) < 0) {
		if (lr)
			peer_clear(&lr->peer);
		free(lr);
		mail_free(m);
		session_unref(x);
		return refuse(rf, ENOMEM, SW_EXIT_SYSWARD_ERROR,
			      "syswardd: out of memory");
	}
	x->id = srv->next_id + 1;
	lr->client_pid = pst->pid;
	lr->client_pidfd = TAKE_FD(*pidfd);
	lr->q = *q;
	lr->root_daemon = geteuid() == 0;
	lr->nice = client_nice;
	lr->audit = srv->audit;
	lr->audit_allows = srv->audit_allows;
	lr->recording = c->recording;
	lr->record = c->record;
	if (c->sandboxing) {
		/* The workspace in the client's view: its child looks it
		 * up there, as its uid (engine/launch/launchchild.c). */
		lr->sandboxing = true;
		lr->sandbox_q = c->sandbox;
		c->sandbox = (struct sw_sandbox_request){ 0 };
		lr->sandbox = (struct sw_sandbox){
			.dir = lr->sandbox_q.dir[0] ? lr->sandbox_q.dir : NULL,
			.tmpdir = lr->sandbox_q.tmpdir[0] ? lr->sandbox_q.tmpdir : NULL,
			.net_given = lr->sandbox_q.flags & SW_PROTO_SANDBOX_NET,
			.connect = { .ranges = lr->sandbox_q.connect,
				     .n_ranges = lr->sandbox_q.n_connect },
			.bind = { .ranges = lr->sandbox_q.bind,
				  .n_ranges = lr->sandbox_q.n_bind },
		};
	}
	if (q->tty_flags & SW_PROTO_TTY) {
		lr->tty.ws = (struct winsize){ q->tty.rows, q->tty.cols,
					       q->tty.xpixel, q->tty.ypixel };
		lr->tty.set_termios = q->tty_flags & SW_PROTO_TTY_TERMIOS;
		if (lr->tty.set_termios)
			sw_proto_tty_to_termios(&q->tty, &lr->tty.tio);
	}
	/* Each at the client's number: what its program would have
	 * inherited from it (run_decode() matched the counts). */
	for (size_t i = 0; i < c->n_fds; i++)
		lr->fds[i] = (struct sw_fd_place){ c->fds[i], (int)q->fds[i] };
	lr->n_fds = c->n_fds;
	m->launch = lr;
	if (compiler_submit(srv->compiler, m) < 0) {
		/* The request and descriptors are still the caller's. */
		lr->q = (struct sw_run_request){ 0 };
		lr->n_fds = 0;
		*pidfd = TAKE_FD(lr->client_pidfd);
		mail_free(m);
		session_unref(x);
		return refuse(rf, EAGAIN, SW_EXIT_SYSWARD_ERROR,
			      "uid %u already has %u policies waiting to be "
			      "compiled by syswardd; try again once they "
			      "started (syswardd --compile-queue)", c->peer.uid,
			      compiler_per_uid(srv->compiler));
	}
	/* Queued: from here on the request and descriptors are the
	 * launch's; a compile thread only reads them. */
	*q = (struct sw_run_request){ 0 };
	x->fds_held = c->n_fds;
	srv->fds_held += c->n_fds;
	c->n_fds = 0;
	++srv->next_id;
	x->started = time(NULL);
	snprintf(x->program, sizeof(x->program), "%s", lr->q.argv[0]);
	snprintf(x->policy_name, sizeof(x->policy_name), "%s", lr->q.policy_name);
	x->conn = c;
	c->session = x;
	LIST_ADD(srv->sessions, x);
	srv->n_sessions++;
	return 0;
}

static void handle_run(struct server *srv, struct conn *c)
{
	struct sw_run_request q = { 0 };
	cleanup_close int pidfd = -1;
	struct peer_state pst;
	struct refusal rf;
	int client_nice;

	if (c->session) {
		conn_reply_error(srv, c, "RUN", EBUSY, SW_EXIT_SYSWARD_ERROR,
			    "this connection already runs a session; "
			    "open a new connection for each RUN", false);
		conn_close_fds(c);
		return;
	}
	if (run_vet_client(c, &pst, &pidfd, &client_nice, &rf) < 0 ||
	    run_decode(srv, c, &q, &rf) < 0 ||
	    run_check_privilege(c, &pst, &q, &rf) < 0 ||
	    run_hand_off(srv, c, &q, &pst, &pidfd, client_nice, &rf) < 0)
		conn_reply_error(srv, c, "RUN", rf.err.code, rf.exit_code, rf.err.msg, true);
	/* Not handed on: the daemon must not hold the client's pipes open
	 * (its reader would never see EOF). */
	conn_close_fds(c);
	sw_run_request_clear(&q);
}

static void handle_ps(struct server *srv, struct conn *c)
{
	cleanup_free struct sw_ps_entry *e = NULL;
	struct sw_error err = { 0 };
	struct peer_state st;
	struct sw_buf b = { 0 };
	size_t n = 0;

	/*
	 * PS only reads, but what it reads is the daemon's, not /proc's:
	 * other sandboxes' session ids (what KILL takes), policy names and
	 * decision counters that move with each supervised call of another
	 * session (root: of every user's).  No confined program needs
	 * that, so it is refused the same way.
	 */
	if (peer_vet(c->fd, &c->peer, "PS", &st, &err) < 0) {
		conn_reply_error(srv, c, "PS", err.code, 1, err.msg, true);
		return;
	}
	e = calloc(srv->n_sessions + 1, sizeof(*e));
	if (!e) {
		conn_reply_error(srv, c, "PS", ENOMEM, 1, "syswardd: out of memory",
			    true);
		return;
	}
	for (struct session *x = srv->sessions; x; x = x->next) {
		if (c->peer.uid != 0 && x->uid != c->peer.uid)
			continue;
		if (!x->pid)
			continue;	/* not started yet */
		if (n >= SW_PROTO_MAX_PS_ENTRIES)
			break;
		e[n] = (struct sw_ps_entry){
			.session_id = x->id,
			.pid = (uint32_t)x->pid,
			.uid = x->uid,
			.decisions = session_decisions(x),
			.started = (uint64_t)x->started,
		};
		memcpy(e[n].program, x->program, sizeof(x->program));
		memcpy(e[n].policy, x->policy_name, sizeof(x->policy_name));
		n++;
	}
	/* Newest first in the list: show oldest first. */
	for (size_t i = 0; i < n / 2; i++) {
		struct sw_ps_entry t = e[i];

		e[i] = e[n - 1 - i];
		e[n - 1 - i] = t;
	}
	if (sw_msg_encode_ps_reply(&b, e, n, NULL) == 0)
		conn_queue(srv, c, &b);
	sw_buf_free(&b);
}

static void handle_kill(struct server *srv, struct conn *c)
{
	struct sw_error err = { 0 };
	struct session *x;
	struct sw_buf b = { 0 };
	char msg[256];
	struct peer_state st;
	uint64_t id;
	int r;

	/* A confined program's signals reach its own tree only (route 11):
	 * it may not have the daemon kill sessions for it either. */
	r = peer_vet(c->fd, &c->peer, "KILL", &st, &err);
	if (r < 0) {
		conn_reply_error(srv, c, "KILL", -r, 1, err.msg, true);
		return;
	}
	r = sw_msg_decode_kill(c->payload, c->h.length, &id, &err);
	if (r < 0) {
		conn_reply_error(srv, c, "KILL", -r, 1, err.msg, true);
		return;
	}
	x = session_by_id(srv, id);
	/* Someone else's session looks exactly like no session. */
	if (!x || (c->peer.uid != 0 && x->uid != c->peer.uid)) {
		snprintf(msg, sizeof(msg),
			 "no session %llu of uid %u (see 'sysward ps')",
			 (unsigned long long)id, c->peer.uid);
		conn_reply_error(srv, c, "KILL", ESRCH, 1, msg, false);
		return;
	}
	if (!session_post(srv, x, MSG_KILL, 0)) {
		conn_reply_error(srv, c, "KILL", ENOMEM, 1,
			    "syswardd: out of memory", false);
		return;
	}
	if (sw_msg_encode_empty(&b, SW_MSG_OK, NULL) == 0)
		conn_queue(srv, c, &b);
	sw_buf_free(&b);
}

static void handle_signal(struct server *srv, struct conn *c)
{
	struct sw_error err = { 0 };
	int sig, r;

	r = sw_msg_decode_signal(c->payload, c->h.length, &sig, &err);
	if (r < 0) {
		conn_reply_error(srv, c, "SIGNAL", -r, SW_EXIT_SYSWARD_ERROR,
			    err.msg, false);
		return;
	}
	/* After EXIT there is nothing to signal; the client may race with
	 * it, so this is no error.  Before STARTED it reaches the program
	 * once it runs. */
	if (c->session)
		session_post(srv, c->session, MSG_SIGNAL, sig);
}

/* RECORD: what the connection's RUN keeps and sends back (complain
 * mode, its report, the gate).  Before the RUN, once. */
static void handle_record(struct server *srv, struct conn *c)
{
	struct sw_error err = { 0 };
	int r;

	if (c->session || c->recording) {
		conn_reply_error(srv, c, "RECORD", EBUSY, SW_EXIT_SYSWARD_ERROR,
			    "RECORD comes once, before the connection's RUN",
			    true);
		return;
	}
	r = sw_msg_decode_record(c->payload, c->h.length, &c->record, &err);
	if (r < 0) {
		conn_reply_error(srv, c, "RECORD", -r, SW_EXIT_SYSWARD_ERROR,
			    err.msg, true);
		return;
	}
	c->recording = true;
}

/* SANDBOX: the connection's RUN in `sysward run --sandbox`.  Before the
 * RUN, once.  It only takes rights away: its paths are looked up as the
 * client's uid in the client's view, and Landlock grants nothing the
 * uid lacks. */
static void handle_sandbox(struct server *srv, struct conn *c)
{
	struct sw_error err = { 0 };
	int r;

	if (c->session || c->sandboxing) {
		conn_reply_error(srv, c, "SANDBOX", EBUSY, SW_EXIT_SYSWARD_ERROR,
			    "SANDBOX comes once, before the connection's RUN",
			    true);
		return;
	}
	r = sw_msg_decode_sandbox(c->payload, c->h.length, &c->sandbox, &err);
	if (r < 0) {
		conn_reply_error(srv, c, "SANDBOX", -r, SW_EXIT_SYSWARD_ERROR,
			    err.msg, true);
		return;
	}
	c->sandboxing = true;
}

void requests_handle(struct server *srv, struct conn *c)
{
	if (c->n_fds && c->h.type != SW_MSG_RUN) {
		conn_close_fds(c);
		conn_reply_error(srv, c, sw_msg_type_name(c->h.type) ?: "?",
			    EBADMSG, SW_EXIT_SYSWARD_ERROR,
			    "file descriptors may only come with a RUN request",
			    true);
		return;
	}
	switch (c->h.type) {
	case SW_MSG_RUN:
		handle_run(srv, c);
		break;
	case SW_MSG_PS:
		handle_ps(srv, c);
		break;
	case SW_MSG_KILL:
		handle_kill(srv, c);
		break;
	case SW_MSG_SIGNAL:
		handle_signal(srv, c);
		break;
	case SW_MSG_RECORD:
		handle_record(srv, c);
		break;
	case SW_MSG_SANDBOX:
		handle_sandbox(srv, c);
		break;
	}
}
