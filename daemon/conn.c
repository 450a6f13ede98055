// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syswardd's connections: accept, framing and bounded buffers.
 *
 * Fairness: sockets are non-blocking; a connection's input is read at most
 * READ_BUDGET bytes per wakeup and buffered only up to the bound of the
 * message type announced in its header; replies wait in a bounded output
 * buffer, so a client that floods us with bytes cannot stall the others.
 * A connection without a running session must complete each request
 * within --request-timeout (sweep).
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
#include "sysward/clock.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/proto.h"
#include "syswardd.h"
#include "loop.h"

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

/* Up to the byte a descriptor rides with, then it with the rest: the
 * kernel keeps SCM_RIGHTS with the bytes of the sendmsg() that carried
 * it, which the client's recvmsg() of that message's header gets. */
static ssize_t send_out(struct conn *c)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl = { 0 };
	struct iovec iov = { c->out.data + c->out_off, c->out.len - c->out_off };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t w;

	if (c->out_fd >= 0 && c->out_off < c->out_fd_at)
		iov.iov_len = c->out_fd_at - c->out_off;
	else if (c->out_fd >= 0) {
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &c->out_fd, sizeof(int));
	}
	w = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (w > 0 && mh.msg_control) {
		close(c->out_fd);
		c->out_fd = -1;
	}
	return w;
}

void conn_flush(struct server *srv, struct conn *c)
{
	while (c->out_off < c->out.len) {
		ssize_t w = send_out(c);

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
void conn_queue(struct server *srv, struct conn *c,
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

void conn_queue_fd(struct server *srv, struct conn *c, const struct sw_buf *msg,
		   int fd)
{
	/* One at a time: a connection runs one program. */
	if (c->dead || c->out_fd >= 0) {
		close(fd);
		return;
	}
	c->out_fd = fd;
	c->out_fd_at = c->out.len;
	conn_queue(srv, c, msg);
}

/* Stop reading and close once the output is out. */
void conn_finish(struct server *srv, struct conn *c)
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

void conn_reply_error(struct server *srv, struct conn *c, const char *req,
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

void conn_close_fds(struct conn *c)
{
	for (size_t i = 0; i < c->n_fds; i++)
		close(c->fds[i]);
	c->n_fds = 0;
}

static void conn_drop_payload(struct server *srv, struct conn *c)
{
	if (c->payload)
		srv->buffered -= c->h.length;
	free(c->payload);
	c->payload = NULL;
}

void conn_close(struct server *srv, struct conn *c)
{
	if (c->dead)
		return;
	c->dead = true;
	conn_drop_payload(srv, c);
	epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	if (c->out_fd >= 0)
		close(c->out_fd);
	c->out_fd = -1;
	conn_close_fds(c);
	if (srv->conn_closed)
		srv->conn_closed(srv, c);
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

void conn_free_dead(struct server *srv)
{
	while (srv->dead) {
		struct conn *c = srv->dead;

		LIST_DEL(srv->dead, c);
		sw_buf_free(&c->out);
		sw_sandbox_request_clear(&c->sandbox);
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
			if (c->n_fds < SW_PROTO_MAX_FDS)
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

bool conn_read(struct server *srv, struct conn *c, size_t *budget)
{
	while (!c->dead && !c->closing && *budget > 0) {
		/* Room for a whole RUN's descriptors: beyond it the kernel
		 * closes the rest and says MSG_CTRUNC (refused below). */
		union {
			char buf[CMSG_SPACE(sizeof(int) * SW_PROTO_MAX_FDS)];
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
		if (iov.iov_len > *budget)
			iov.iov_len = *budget;
		n = recvmsg(c->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				conn_close(srv, c);
			return false;
		}
		take_fds(c, &mh);
		if (n == 0) {
			/* EOF: the client is gone (or sent a truncated
			 * message and gave up: nobody left to tell). */
			conn_close(srv, c);
			return false;
		}
		*budget -= (size_t)n;
		if (c->hdr_got < SW_PROTO_HEADER_SIZE) {
			int r;

			c->hdr_got += (size_t)n;
			if (c->hdr_got < SW_PROTO_HEADER_SIZE)
				continue;
			r = sw_msg_header_decode(c->hdr, true, &c->h, &err);
			if (r < 0) {
				/* Cannot resynchronise a byte stream. */
				conn_close_fds(c);
				conn_reply_error(srv, c, "header", -r,
					    SW_EXIT_SYSWARD_ERROR, err.msg,
					    true);
				return false;
			}
			if (srv->buffered + c->h.length > BUFFERED_MAX) {
				conn_close_fds(c);
				conn_reply_error(srv, c, "header", EAGAIN,
					    SW_EXIT_SYSWARD_ERROR,
					    "syswardd is busy receiving other "
					    "requests; try again", true);
				return false;
			}
			free(c->payload);
			c->payload = malloc(c->h.length ? c->h.length : 1);
			c->payload_got = 0;
			if (c->payload)
				srv->buffered += c->h.length;
			if (!c->payload) {
				conn_reply_error(srv, c, "header", ENOMEM,
					    SW_EXIT_SYSWARD_ERROR,
					    "syswardd: out of memory", true);
				return false;
			}
		} else {
			c->payload_got += (size_t)n;
		}
		if (c->hdr_got == SW_PROTO_HEADER_SIZE &&
		    c->payload_got == c->h.length)
			return true;
	}
	return false;
}

void conn_message_done(struct server *srv, struct conn *c)
{
	/* A session's connection may idle as long as its program runs;
	 * any other gets a new deadline. */
	c->deadline = c->session ? 0 :
		sw_mono_ms() + srv->request_timeout * 1000LL;
	c->hdr_got = 0;
	c->payload_got = 0;
	conn_drop_payload(srv, c);
}

void conn_accept(struct server *srv)
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
				swd_log("accept: %s; pausing new connections "
				      "until one closes (raise LimitNOFILE or "
				      "lower --max-sessions)", strerror(errno));
				epoll_ctl(srv->epfd, EPOLL_CTL_DEL,
					  srv->listen_fd, NULL);
				srv->accept_paused = true;
			} else if (errno != EAGAIN) {
				swd_log("accept: %s", strerror(errno));
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
		c->out_fd = -1;
		c->deadline = sw_mono_ms() + srv->request_timeout * 1000LL;
		LIST_ADD(srv->conns, c);
		srv->n_conns++;
		if (peer_get(fd, &c->peer, &err) < 0) {
			swd_log("%s", err.msg);
			conn_close(srv, c);
			continue;
		}
		ev.data.ptr = c;
		if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			swd_log("epoll_ctl: %s", strerror(errno));
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
			conn_reply_error(srv, c, "connect", EAGAIN,
				    SW_EXIT_SYSWARD_ERROR, msg, true);
		}
	}
}

/*
 * A connection holds a slot of --max-sessions + 64: one that dawdles over
 * a request (or idles after PS/KILL) is closed, so that slow or silent
 * clients cannot keep everybody else out.
 */
void conn_sweep(struct server *srv)
{
	long long now = sw_mono_ms();
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
		conn_close_fds(c);
		conn_reply_error(srv, c, "timeout", ETIMEDOUT,
			    SW_EXIT_SYSWARD_ERROR, msg, true);
	}
}
