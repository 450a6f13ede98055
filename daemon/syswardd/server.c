// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syswardd event loop: the listening socket, every client connection,
 * the tracer threads' replies (shard.c, through an eventfd) and
 * SIGTERM/SIGINT (a signalfd) come through one epoll set.  The programs
 * themselves are the tracer threads' business: this thread never waits
 * for a tracee, so no program can delay "sysward ps", another client's
 * request or shutdown.  A RUN is checked here and handed, with its
 * policy and descriptors, to the least-loaded tracer thread, which
 * launches it and supervises it to its end.
 *
 * Fairness: sockets are non-blocking; a connection's input is read at most
 * READ_BUDGET bytes per wakeup and buffered only up to the bound of the
 * message type announced in its header; replies wait in a bounded output
 * buffer, so a client that floods us with bytes cannot stall the others.
 *
 * A RUN connection lives as long as its session: EXIT is its last reply,
 * SIGNAL messages on it reach the program, and its closing kills the
 * session.
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

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/proto.h"
#include "syswardd.h"

#define READ_BUDGET	(256u << 10)
/* All connections together: 16 clients may each have a full RUN in flight;
 * beyond that a big request waits for a "try again" instead of memory. */
#define BUFFERED_MAX	(16u * SW_PROTO_MAX_RUN)
#define OUT_MAX		(SW_PROTO_MAX_PS_REPLY + 64 * 1024)
#define MAX_EVENTS	64
/* Connections at once from peers that can make no request (below). */
#define IDLE_PEERS_MAX	16

enum kind { K_LISTEN, K_SIGNAL, K_MAIL, K_CONN };

struct conn {
	enum kind kind;			/* first: epoll data points here */
	int fd;
	struct peer peer;
	struct conn *prev, *next;

	uint8_t hdr[SW_PROTO_HEADER_SIZE];
	size_t hdr_got;
	struct sw_msg_header h;
	uint8_t *payload;
	size_t payload_got;
	int fds[SW_PROTO_RUN_FDS];
	size_t n_fds;
	bool too_many_fds;

	struct sw_buf out;
	size_t out_off;
	bool want_out;			/* EPOLLOUT registered */
	bool closing;			/* no more input; close once flushed */
	bool dead;			/* closed; freed after the loop turn */
	bool idle_peer;			/* failed peer_vet() when accepted */

	struct session *session;	/* RUN connections */
	long long deadline;		/* ms: finish a request by then */
};

struct server {
	int epfd;
	enum kind listen_kind;
	int listen_fd;
	enum kind signal_kind;
	int sig_fd;
	enum kind mail_kind;
	struct mailbox *mail;		/* the tracer threads' replies */
	sigset_t old_mask;
	struct shard **shards;
	unsigned int *load;		/* sessions per shard */
	unsigned int n_shards;
	FILE *audit;
	unsigned int max_sessions, n_sessions;
	unsigned int max_conns, n_conns;
	unsigned int n_idle_peers;	/* of n_conns: c->idle_peer */
	unsigned int request_timeout;	/* s */
	long long next_sweep;		/* ms */
	uint64_t next_id;
	struct conn *conns;
	struct conn *dead;		/* closed this turn, freed after it */
	struct session *sessions;	/* launching or running */
	size_t buffered;		/* payload bytes allocated, all conns */
	bool accept_paused;		/* out of fds: listen fd not watched */
	bool shutting_down;
};

#define LIST_ADD(head, x) do {			\
	(x)->prev = NULL;			\
	(x)->next = (head);			\
	if (head)				\
		(head)->prev = (x);		\
	(head) = (x);				\
} while (0)

#define LIST_DEL(head, x) do {			\
	if ((x)->prev)				\
		(x)->prev->next = (x)->next;	\
	else					\
		(head) = (x)->next;		\
	if ((x)->next)				\
		(x)->next->prev = (x)->prev;	\
	(x)->prev = (x)->next = NULL;		\
} while (0)

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void logf_(const char *fmt, ...)
{
	va_list ap;

	/* One line at a time: the tracer threads log too. */
	flockfile(stderr);
	fputs("syswardd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

/* ---- output ------------------------------------------------------------ */

static void conn_close(struct server *srv, struct conn *c);
static void conn_drop_payload(struct server *srv, struct conn *c);

static void conn_events(struct server *srv, struct conn *c)
{
	struct epoll_event ev = { .data.ptr = c };

	if (c->dead)
		return;
	ev.events = (c->closing ? 0 : EPOLLIN) | (c->want_out ? EPOLLOUT : 0);
	epoll_ctl(srv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void conn_set_out(struct server *srv, struct conn *c, bool want)
{
	if (c->want_out == want || c->dead)
		return;
	c->want_out = want;
	conn_events(srv, c);
}

static void conn_flush(struct server *srv, struct conn *c)
{
	while (c->out_off < c->out.len) {
		ssize_t w = send(c->fd, c->out.data + c->out_off,
				 c->out.len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				conn_set_out(srv, c, true);
				return;
			}
			conn_close(srv, c);	/* EPIPE, ECONNRESET: gone */
			return;
		}
		c->out_off += (size_t)w;
	}
	c->out.len = c->out_off = 0;
	conn_set_out(srv, c, false);
	if (c->closing)
		conn_close(srv, c);
}

/* Queue one whole message (from sw_msg_begin/finish) and try to send. */
static void conn_queue(struct server *srv, struct conn *c,
		       const struct sw_buf *msg)
{
	if (c->dead)
		return;
	if (c->out.len - c->out_off + msg->len > OUT_MAX) {
		/* The client does not read its replies. */
		conn_close(srv, c);
		return;
	}
	sw_buf_put_bytes(&c->out, msg->data, msg->len);
	if (c->out.oom) {
		conn_close(srv, c);
		return;
	}
	conn_flush(srv, c);
}

/* Stop reading and close once the output is out. */
static void conn_finish(struct server *srv, struct conn *c)
{
	if (c->dead)
		return;
	c->closing = true;
	if (c->out_off >= c->out.len) {
		conn_close(srv, c);
		return;
	}
	conn_events(srv, c);
}

static void reply_error(struct server *srv, struct conn *c, const char *req,
			int code, int exit_code, const char *msg, bool finish)
{
	struct sw_buf b = { 0 };

	audit_refused(srv->audit, &c->peer, req, code, msg);
	if (sw_msg_encode_error(&b, code, exit_code, msg, NULL) == 0)
		conn_queue(srv, c, &b);
	sw_buf_free(&b);
	if (finish)
		conn_finish(srv, c);
}

/* ---- sessions ---------------------------------------------------------- */

static struct session *session_by_id(struct server *srv, uint64_t id)
{
	for (struct session *x = srv->sessions; x; x = x->next)
		if (x->id == id)
			return x;
	return NULL;
}

/* Hand x's tracer thread a message; false if out of memory. */
static bool session_post(struct server *srv, struct session *x,
			 enum shard_msg_kind kind, int sig)
{
	struct shard_msg *m = shard_msg_new(kind, x);

	if (!m) {
		logf_("session %llu: out of memory for a message to its "
		      "tracer thread", (unsigned long long)x->id);
		return false;
	}
	m->sig = sig;
	shard_send(srv->shards[x->shard], m);
	return true;
}

/* x has ended (or never started): the event loop lets it go. */
static void session_forget(struct server *srv, struct session *x)
{
	if (x->conn)
		x->conn->session = NULL;
	x->conn = NULL;
	LIST_DEL(srv->sessions, x);
	srv->n_sessions--;
	srv->load[x->shard]--;
	session_unref(x);
}

static void mail_started(struct server *srv, struct session *x, pid_t pid)
{
	struct sw_buf b = { 0 };

	x->pid = pid;
	if (!x->conn)
		return;		/* gone: its MSG_KILL is on its way */
	if (sw_msg_encode_started(&b, &(struct sw_started){ x->id,
				  (uint32_t)pid }, NULL) == 0)
		conn_queue(srv, x->conn, &b);
	sw_buf_free(&b);
}

static void mail_ended(struct server *srv, const struct shard_msg *m)
{
	struct session *x = m->x;
	struct conn *c = x->conn;
	struct sw_buf b = { 0 };

	if (m->kind == MSG_DONE)
		audit_session_exit(srv->audit, x->id, x->pid, m->exit_code,
				   m->decisions);
	/* Detach first: a failed send closes c, which must not try to kill
	 * this finished session. */
	if (c)
		c->session = NULL;
	x->conn = NULL;
	if (c && m->kind == MSG_FAILED) {
		reply_error(srv, c, "RUN", m->err.code, m->exit_code,
			    m->err.msg, true);
	} else if (c && m->has_err) {
		/* The launch ends at exec, on the tracer thread: a program
		 * that could not be exec'd is an ERROR after STARTED. */
		if (sw_msg_encode_error(&b, m->err.code ? m->err.code : ECHILD,
					m->exit_code, m->err.msg, NULL) == 0)
			conn_queue(srv, c, &b);
		conn_finish(srv, c);
	} else if (c) {
		if (sw_msg_encode_exit(&b, m->exit_code, NULL) == 0)
			conn_queue(srv, c, &b);
		conn_finish(srv, c);
	}
	sw_buf_free(&b);
	session_forget(srv, x);
}

/* The tracer threads' replies, in the order each thread posted them. */
static void read_mail(struct server *srv)
{
	for (struct shard_msg *m = mailbox_take(srv->mail), *next; m; m = next) {
		next = m->next;
		if (m->kind == MSG_STARTED)
			mail_started(srv, m->x, m->pid);
		else if (m->kind == MSG_FAILED || m->kind == MSG_DONE)
			mail_ended(srv, m);
		shard_msg_free(m);
	}
}

static void close_fds(struct conn *c)
{
	for (size_t i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	c->n_fds = 0;
}

static void handle_run(struct server *srv, struct conn *c)
{
	struct sw_run_request q = { 0 };
	struct sw_error err = { 0 };
	struct sw_policy *policy = NULL;
	struct session *x = NULL;
	struct launch_req *lr = NULL;
	struct shard_msg *m = NULL;
	struct peer_state pst;
	char msg[SW_ERROR_MSG_MAX];
	bool root_daemon = geteuid() == 0;
	unsigned int shard = 0;
	int r, code, client_nice;

	if (c->session) {
		reply_error(srv, c, "RUN", EBUSY, SW_EXIT_SYSWARD_ERROR,
			    "this connection already runs a session; "
			    "open a new connection for each RUN", false);
		close_fds(c);
		return;
	}
	/* Not for a confined program: see peer_vet(). */
	r = peer_vet(c->fd, &c->peer, "RUN", &pst, &err);
	if (r < 0) {
		reply_error(srv, c, "RUN", -r, SW_EXIT_SYSWARD_ERROR, err.msg,
			    true);
		goto out;
	}
	/* The program runs at its client's priority, not ours. */
	errno = 0;
	client_nice = getpriority(PRIO_PROCESS, pst.pid);
	if (client_nice == -1 && errno) {
		reply_error(srv, c, "RUN", errno, SW_EXIT_SYSWARD_ERROR,
			    "cannot read the client's nice value (getpriority)", true);
		goto out;
	}
	r = sw_run_request_decode(c->payload, c->h.length, &q, &err);
	if (r < 0) {
		reply_error(srv, c, "RUN", -r, SW_EXIT_SYSWARD_ERROR, err.msg,
			    true);
		goto out;
	}
	if (c->n_fds != SW_PROTO_RUN_FDS || c->too_many_fds) {
		snprintf(msg, sizeof(msg),
			 "RUN request carries %s%zu file descriptors (expected "
			 "%d: stdin, stdout, stderr, sent with SCM_RIGHTS)",
			 c->too_many_fds ? "more than " : "", c->n_fds,
			 SW_PROTO_RUN_FDS);
		reply_error(srv, c, "RUN", EBADMSG, SW_EXIT_SYSWARD_ERROR, msg,
			    true);
		goto out;
	}
	if (srv->n_sessions >= srv->max_sessions) {
		snprintf(msg, sizeof(msg),
			 "syswardd already runs its limit of %u sessions; try "
			 "again later (or raise syswardd --max-sessions)",
			 srv->max_sessions);
		reply_error(srv, c, "RUN", EAGAIN, SW_EXIT_SYSWARD_ERROR, msg,
			    true);
		goto out;
	}
	/* Never more privilege than the client has: no capabilities but
	 * for root, and a non-root daemon can only be its own user. */
	if (q.caps && c->peer.uid != 0) {
		snprintf(msg, sizeof(msg),
			 "uid %u may not keep capabilities (--cap): syswardd "
			 "grants them to root clients only", c->peer.uid);
		reply_error(srv, c, "RUN", EPERM, SW_EXIT_SYSWARD_ERROR, msg,
			    true);
		goto out;
	}
	/* ... and none it does not hold itself: uid 0 is not the same as
	 * root's capabilities (setpriv, capsh, a container's bounding set). */
	r = peer_check_caps(&pst, q.caps, &err);
	if (r < 0) {
		reply_error(srv, c, "RUN", -r, SW_EXIT_SYSWARD_ERROR, err.msg,
			    true);
		goto out;
	}
	if (!root_daemon && c->peer.uid != geteuid()) {
		snprintf(msg, sizeof(msg),
			 "syswardd runs as uid %u and cannot run programs as "
			 "uid %u; use the system daemon (/run/sysward.sock)",
			 geteuid(), c->peer.uid);
		reply_error(srv, c, "RUN", EPERM, SW_EXIT_SYSWARD_ERROR, msg,
			    true);
		goto out;
	}

	/* The engine's child changes directory while still root: a path
	 * the client may not traverse would let its program start inside a
	 * directory it could never reach. */
	code = peer_check_cwd(&c->peer, q.cwd);
	if (code) {
		snprintf(msg, sizeof(msg),
			 "cannot use the working directory %.512s as uid %u: "
			 "%s", q.cwd, c->peer.uid, strerror(code));
		reply_error(srv, c, "RUN", code, SW_EXIT_SYSWARD_ERROR, msg,
			    true);
		goto out;
	}

	r = sw_policy_load_string(q.policy_text, q.policy_len,
				  q.policy_name[0] ? q.policy_name : "policy",
				  &policy, &err);
	if (r < 0) {
		reply_error(srv, c, "RUN", -r, SW_EXIT_SYSWARD_ERROR, err.msg,
			    true);
		goto out;
	}

	/* Say plainly what is wrong with PROGRAM, in the words of the
	 * embedded mode, before starting anything. */
	code = peer_resolve_program(&c->peer, q.argv[0], q.envp, q.cwd);
	if (code) {
		if (code == ENOENT && !strchr(q.argv[0], '/'))
			snprintf(msg, sizeof(msg), "%.512s: command not found",
				 q.argv[0]);
		else
			snprintf(msg, sizeof(msg), "cannot run %.512s: %s",
				 q.argv[0], strerror(code));
		reply_error(srv, c, "RUN", code, sw_exec_exit_code(code), msg,
			    true);
		goto out;
	}

	x = calloc(1, sizeof(*x));
	lr = calloc(1, sizeof(*lr));
	if (x)
		x->refs = 1;	/* ours */
	m = x ? shard_msg_new(MSG_LAUNCH, x) : NULL;
	if (!x || !lr || !m || peer_copy(&lr->peer, &c->peer) < 0) {
		reply_error(srv, c, "RUN", ENOMEM, SW_EXIT_SYSWARD_ERROR,
			    "syswardd: out of memory", true);
		if (lr)
			peer_clear(&lr->peer);
		free(lr);
		shard_msg_free(m);
		session_unref(x);
		goto out;
	}
	/* The least-loaded tracer thread; the session stays on it. */
	for (unsigned int i = 1; i < srv->n_shards; i++)
		if (srv->load[i] < srv->load[shard])
			shard = i;
	x->id = ++srv->next_id;
	x->uid = c->peer.uid;
	x->started = time(NULL);
	x->shard = shard;
	snprintf(x->program, sizeof(x->program), "%s", q.argv[0]);
	snprintf(x->policy_name, sizeof(x->policy_name), "%s", q.policy_name);

	/* Everything the launch needs moves to the message: the connection
	 * may be gone before the tracer thread gets to it. */
	lr->q = q;
	q = (struct sw_run_request){ 0 };
	lr->policy = TAKE_PTR(policy);
	for (int i = 0; i < SW_PROTO_RUN_FDS; i++)
		lr->fds[i] = c->fds[i];
	c->n_fds = 0;
	lr->root_daemon = root_daemon;
	lr->nice = client_nice;
	lr->audit = srv->audit;
	m->launch = lr;

	x->conn = c;
	c->session = x;
	LIST_ADD(srv->sessions, x);
	srv->n_sessions++;
	srv->load[shard]++;
	/* STARTED, or the error, comes back through the mailbox. */
	shard_send(srv->shards[shard], m);
out:
	/* Not handed on: the daemon must not hold the client's pipes open
	 * (its reader would never see EOF). */
	close_fds(c);
	sw_policy_free(policy);
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
		reply_error(srv, c, "PS", err.code, 1, err.msg, true);
		return;
	}
	e = calloc(srv->n_sessions + 1, sizeof(*e));
	if (!e) {
		reply_error(srv, c, "PS", ENOMEM, 1, "syswardd: out of memory",
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
			.decisions = __atomic_load_n(&x->decisions,
						     __ATOMIC_RELAXED),
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
		reply_error(srv, c, "KILL", -r, 1, err.msg, true);
		return;
	}
	r = sw_msg_decode_kill(c->payload, c->h.length, &id, &err);
	if (r < 0) {
		reply_error(srv, c, "KILL", -r, 1, err.msg, true);
		return;
	}
	x = session_by_id(srv, id);
	/* Someone else's session looks exactly like no session. */
	if (!x || (c->peer.uid != 0 && x->uid != c->peer.uid)) {
		snprintf(msg, sizeof(msg),
			 "no session %llu of uid %u (see 'sysward ps')",
			 (unsigned long long)id, c->peer.uid);
		reply_error(srv, c, "KILL", ESRCH, 1, msg, false);
		return;
	}
	if (!session_post(srv, x, MSG_KILL, 0)) {
		reply_error(srv, c, "KILL", ENOMEM, 1,
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
		reply_error(srv, c, "SIGNAL", -r, SW_EXIT_SYSWARD_ERROR,
			    err.msg, false);
		return;
	}
	/* After EXIT there is nothing to signal; the client may race with
	 * it, so this is no error.  Before STARTED it reaches the program
	 * once it runs. */
	if (c->session)
		session_post(srv, c->session, MSG_SIGNAL, sig);
}

static void handle_message(struct server *srv, struct conn *c)
{
	if (c->n_fds && c->h.type != SW_MSG_RUN) {
		close_fds(c);
		reply_error(srv, c, sw_msg_type_name(c->h.type) ?: "?",
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
	}
}

/* ---- connections ------------------------------------------------------- */

static void conn_drop_payload(struct server *srv, struct conn *c)
{
	if (c->payload)
		srv->buffered -= c->h.length;
	free(c->payload);
	c->payload = NULL;
}

static void conn_close(struct server *srv, struct conn *c)
{
	if (c->dead)
		return;
	c->dead = true;
	conn_drop_payload(srv, c);
	epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	close_fds(c);
	/* The client went away: its program must not outlive it. */
	if (c->session) {
		c->session->conn = NULL;
		if (!srv->shutting_down)
			session_post(srv, c->session, MSG_KILL, 0);
		c->session = NULL;
	}
	LIST_DEL(srv->conns, c);
	srv->n_conns--;
	if (c->idle_peer)
		srv->n_idle_peers--;
	LIST_ADD(srv->dead, c);
	if (srv->accept_paused) {
		struct epoll_event ev = { .events = EPOLLIN,
					  .data.ptr = &srv->listen_kind };

		if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, srv->listen_fd, &ev) == 0)
			srv->accept_paused = false;
	}
}

static void free_dead(struct server *srv)
{
	while (srv->dead) {
		struct conn *c = srv->dead;

		LIST_DEL(srv->dead, c);
		sw_buf_free(&c->out);
		peer_clear(&c->peer);
		free(c);
	}
}

static void take_fds(struct conn *c, struct msghdr *mh)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm;
	     cm = CMSG_NXTHDR(mh, cm)) {
		size_t n;
		int *fds;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		fds = (int *)CMSG_DATA(cm);
		for (size_t i = 0; i < n; i++) {
			if (c->n_fds < SW_PROTO_RUN_FDS)
				c->fds[c->n_fds++] = fds[i];
			else {
				close(fds[i]);
				c->too_many_fds = true;
			}
		}
	}
	if (mh->msg_flags & MSG_CTRUNC)
		c->too_many_fds = true;
}

static void conn_read(struct server *srv, struct conn *c)
{
	size_t budget = READ_BUDGET;

	while (!c->dead && !c->closing && budget > 0) {
		union {
			char buf[CMSG_SPACE(sizeof(int) * 8)];
			struct cmsghdr align;
		} ctl;
		struct iovec iov;
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = ctl.buf,
				     .msg_controllen = sizeof(ctl.buf) };
		struct sw_error err = { 0 };
		ssize_t n;

		if (c->hdr_got < SW_PROTO_HEADER_SIZE) {
			iov.iov_base = c->hdr + c->hdr_got;
			iov.iov_len = SW_PROTO_HEADER_SIZE - c->hdr_got;
		} else {
			iov.iov_base = c->payload + c->payload_got;
			iov.iov_len = c->h.length - c->payload_got;
		}
		if (iov.iov_len > budget)
			iov.iov_len = budget;
		n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				conn_close(srv, c);
			return;
		}
		take_fds(c, &mh);
		if (n == 0) {
			/* EOF: the client is gone (or sent a truncated
			 * message and gave up: nobody left to tell). */
			conn_close(srv, c);
			return;
		}
		budget -= (size_t)n;
		if (c->hdr_got < SW_PROTO_HEADER_SIZE) {
			int r;

			c->hdr_got += (size_t)n;
			if (c->hdr_got < SW_PROTO_HEADER_SIZE)
				continue;
			r = sw_msg_header_decode(c->hdr, true, &c->h, &err);
			if (r < 0) {
				/* Cannot resynchronise a byte stream. */
				close_fds(c);
				reply_error(srv, c, "header", -r,
					    SW_EXIT_SYSWARD_ERROR, err.msg,
					    true);
				return;
			}
			if (srv->buffered + c->h.length > BUFFERED_MAX) {
				close_fds(c);
				reply_error(srv, c, "header", EAGAIN,
					    SW_EXIT_SYSWARD_ERROR,
					    "syswardd is busy receiving other "
					    "requests; try again", true);
				return;
			}
			free(c->payload);
			c->payload = malloc(c->h.length ? c->h.length : 1);
			c->payload_got = 0;
			if (c->payload)
				srv->buffered += c->h.length;
			if (!c->payload) {
				reply_error(srv, c, "header", ENOMEM,
					    SW_EXIT_SYSWARD_ERROR,
					    "syswardd: out of memory", true);
				return;
			}
		} else {
			c->payload_got += (size_t)n;
		}
		if (c->hdr_got == SW_PROTO_HEADER_SIZE &&
		    c->payload_got == c->h.length) {
			handle_message(srv, c);
			/* A session's connection may idle as long as its
			 * program runs; any other gets a new deadline. */
			c->deadline = c->session ? 0 :
				now_ms() + srv->request_timeout * 1000LL;
			c->hdr_got = 0;
			c->payload_got = 0;
			conn_drop_payload(srv, c);
		}
	}
}

static void do_accept(struct server *srv)
{
	for (int i = 0; i < 64; i++) {
		struct epoll_event ev = { .events = EPOLLIN };
		struct sw_error err = { 0 };
		struct conn *c;
		int fd;

		fd = accept4(srv->listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE) {
				/* The pending connection would wake us again
				 * at once: stop watching the listening socket
				 * until a connection closes. */
				logf_("accept: %s; pausing new connections "
				      "until one closes (raise LimitNOFILE or "
				      "lower --max-sessions)", strerror(errno));
				epoll_ctl(srv->epfd, EPOLL_CTL_DEL,
					  srv->listen_fd, NULL);
				srv->accept_paused = true;
			} else if (errno != EAGAIN) {
				logf_("accept: %s", strerror(errno));
			}
			return;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->kind = K_CONN;
		c->fd = fd;
		c->deadline = now_ms() + srv->request_timeout * 1000LL;
		LIST_ADD(srv->conns, c);
		srv->n_conns++;
		if (peer_get(fd, &c->peer, &err) < 0) {
			logf_("%s", err.msg);
			conn_close(srv, c);
			continue;
		}
		ev.data.ptr = c;
		if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			logf_("epoll_ctl: %s", strerror(errno));
			c->dead = true;	/* not in the set: plain close */
			close(fd);
			LIST_DEL(srv->conns, c);
			srv->n_conns--;
			LIST_ADD(srv->dead, c);
			continue;
		}
		/*
		 * Connection slots are for clients.  A peer that fails
		 * peer_vet() now (traced: a confined program, or a client
		 * under a debugger; or gone, or not in our pid namespace)
		 * can make no request that is not refused: RUN, PS and KILL
		 * vet it, SIGNAL needs a RUN.  Yet it could hold every slot
		 * by idling, and keep ps, kill and every new session out.
		 * Such peers share IDLE_PEERS_MAX slots of their own (beyond
		 * the others'): each still gets its refusal for what it asks.
		 */
		{
			struct peer_state st;

			if (peer_vet(fd, &c->peer, "connect", &st, &err) < 0) {
				c->idle_peer = true;
				srv->n_idle_peers++;
			}
		}
		if (c->idle_peer ? srv->n_idle_peers > IDLE_PEERS_MAX
				 : srv->n_conns - srv->n_idle_peers > srv->max_conns) {
			char msg[160];

			if (c->idle_peer)
				snprintf(msg, sizeof(msg),
					 "syswardd has too many connections "
					 "from programs that cannot use it "
					 "(confined or traced; limit %u)",
					 IDLE_PEERS_MAX);
			else
				snprintf(msg, sizeof(msg),
					 "syswardd has too many connections "
					 "(limit %u); try again later",
					 srv->max_conns);
			reply_error(srv, c, "connect", EAGAIN,
				    SW_EXIT_SYSWARD_ERROR, msg, true);
		}
	}
}

/* 1 if asked to stop (SIGTERM/SIGINT), with the signal in *sig. */
static int read_signals(struct server *srv, int *sig)
{
	struct signalfd_siginfo si[16];
	ssize_t n;
	int stop = 0;

	while ((n = read(srv->sig_fd, si, sizeof(si))) > 0) {
		for (size_t i = 0; i < (size_t)n / sizeof(si[0]); i++) {
			if (si[i].ssi_signo == SIGTERM ||
				 si[i].ssi_signo == SIGINT) {
				*sig = (int)si[i].ssi_signo;
				stop = 1;
			}
		}
	}
	return stop;
}

int server_new(struct server **ret, int listen_fd, FILE *audit,
	       const struct options *o, struct sw_error *err)
{
	struct server *srv;
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t mask;
	int r;

	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return sw_error_set(err, ENOMEM, "out of memory");
	srv->epfd = srv->sig_fd = -1;
	srv->listen_fd = listen_fd;
	srv->listen_kind = K_LISTEN;
	srv->signal_kind = K_SIGNAL;
	srv->mail_kind = K_MAIL;
	srv->audit = audit;
	srv->max_sessions = o->max_sessions;
	srv->max_conns = o->max_sessions + 64;
	srv->request_timeout = o->request_timeout;

	/* SIGPIPE stays blocked too: a dead journal on stderr must not
	 * kill the supervisor (and with it every program).  SIGCHLD is
	 * nobody's: each tracer thread waits for its own tracees, and
	 * blocked it interrupts no call.  The engine's child empties its
	 * signal mask before exec. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGPIPE);
	sigprocmask(SIG_BLOCK, &mask, &srv->old_mask);
	sigdelset(&mask, SIGPIPE);
	sigdelset(&mask, SIGCHLD);
	srv->sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (srv->sig_fd < 0) {
		r = sw_error_set_errno(err, errno, "create signalfd");
		goto fail;
	}
	srv->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (srv->epfd < 0) {
		r = sw_error_set_errno(err, errno, "create epoll set");
		goto fail;
	}
	fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	ev.data.ptr = &srv->listen_kind;
	if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, listen_fd, &ev) < 0) {
		r = sw_error_set_errno(err, errno, "watch listening socket");
		goto fail;
	}
	ev.data.ptr = &srv->signal_kind;
	if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, srv->sig_fd, &ev) < 0) {
		r = sw_error_set_errno(err, errno, "watch signalfd");
		goto fail;
	}
	r = mailbox_new(&srv->mail, err);
	if (r < 0)
		goto fail;
	ev.data.ptr = &srv->mail_kind;
	if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, mailbox_fd(srv->mail), &ev) < 0) {
		r = sw_error_set_errno(err, errno, "watch the tracer threads' eventfd");
		goto fail;
	}
	srv->shards = calloc(o->shards, sizeof(*srv->shards));
	srv->load = calloc(o->shards, sizeof(*srv->load));
	if (!srv->shards || !srv->load) {
		r = sw_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (; srv->n_shards < o->shards; srv->n_shards++) {
		r = shard_start(&srv->shards[srv->n_shards], srv->n_shards,
				srv->mail, err);
		if (r < 0)
			goto fail;
	}
	*ret = srv;
	return 0;
fail:
	server_free(srv);
	return r;
}

/*
 * A connection holds a slot of --max-sessions + 64: one that dawdles over
 * a request (or idles after PS/KILL) is closed, so that slow or silent
 * clients cannot keep everybody else out.
 */
static void sweep(struct server *srv)
{
	long long now = now_ms();
	char msg[128];

	if (now < srv->next_sweep)
		return;
	srv->next_sweep = now + 1000;
	for (struct conn *c = srv->conns, *next; c; c = next) {
		next = c->next;
		if (c->dead || c->session || !c->deadline || now < c->deadline)
			continue;
		if (c->closing) {
			conn_close(srv, c);	/* its reply is not read */
			continue;
		}
		snprintf(msg, sizeof(msg),
			 "no complete request within %u s; closing the "
			 "connection", srv->request_timeout);
		close_fds(c);
		reply_error(srv, c, "timeout", ETIMEDOUT,
			    SW_EXIT_SYSWARD_ERROR, msg, true);
	}
}

int server_run(struct server *srv, struct sw_error *err)
{
	struct epoll_event evs[MAX_EVENTS];
	int stop_sig = 0;

	for (;;) {
		int n = epoll_wait(srv->epfd, evs, MAX_EVENTS,
				   srv->conns ? 1000 : -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sw_error_set_errno(err, errno, "epoll_wait");
		}
		for (int i = 0; i < n; i++) {
			enum kind *k = evs[i].data.ptr;
			struct conn *c;

			if (*k == K_LISTEN) {
				do_accept(srv);
				continue;
			}
			if (*k == K_SIGNAL) {
				if (read_signals(srv, &stop_sig))
					return stop_sig;
				continue;
			}
			if (*k == K_MAIL) {
				read_mail(srv);
				continue;
			}
			c = (struct conn *)k;
			if (c->dead)
				continue;
			if (evs[i].events & EPOLLOUT)
				conn_flush(srv, c);
			if (c->dead)
				continue;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
				if (c->closing)
					/* Only waiting to flush; a hang-up
					 * means nobody will read it. */
					conn_close(srv, c);
				else
					conn_read(srv, c);
			}
		}
		sweep(srv);
		free_dead(srv);
	}
}

void server_free(struct server *srv)
{
	if (!srv)
		return;
	srv->shutting_down = true;
	/* Tell each client why its program is going away: without this
	 * they would only see the connection drop. */
	for (struct session *x = srv->sessions; x; x = x->next) {
		if (!x->conn)
			continue;
		struct sw_buf b = { 0 };

		if (sw_msg_encode_error(&b, ESHUTDOWN, SW_EXIT_SYSWARD_ERROR,
					"syswardd is shutting down; the program "
					"was killed", NULL) == 0)
			(void)!send(x->conn->fd, b.data, b.len,
				    MSG_NOSIGNAL | MSG_DONTWAIT);
		sw_buf_free(&b);
	}
	/* Each SIGKILLs and reaps its tracees: together, so that no
	 * program outlives another by a thread's turn. */
	for (unsigned int i = 0; i < srv->n_shards; i++)
		shard_stop(srv->shards[i]);
	for (unsigned int i = 0; i < srv->n_shards; i++)
		shard_free(srv->shards[i]);
	free(srv->shards);
	free(srv->load);
	mailbox_free(srv->mail);
	while (srv->sessions) {
		struct session *x = srv->sessions;

		if (x->conn)
			x->conn->session = NULL;
		x->conn = NULL;
		LIST_DEL(srv->sessions, x);
		session_unref(x);
	}
	while (srv->conns)
		conn_close(srv, srv->conns);
	free_dead(srv);
	if (srv->epfd >= 0)
		close(srv->epfd);
	if (srv->sig_fd >= 0)
		close(srv->sig_fd);
	sigprocmask(SIG_SETMASK, &srv->old_mask, NULL);
	free(srv);
}
