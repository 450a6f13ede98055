// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The syswardd event loop: the listening socket, every client connection
 * (conn.c, requests.c), the tracer threads' replies (shard.c, through an
 * eventfd) and SIGTERM/SIGINT (a signalfd) come through one epoll set.
 * The programs themselves are the tracer threads' business: this thread
 * never waits for a tracee, so no program can delay "sysward ps", another
 * client's request or shutdown.
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
#include "loop.h"

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
	srv->audit_allows = o->audit_allows;
	srv->max_sessions = o->max_sessions;
	srv->max_conns = o->max_sessions + 64;
	{
		struct rlimit nofile;

		/* Clients' descriptors waiting for their launch take at
		 * most half of ours (requests.c). */
		srv->fds_held_max = getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
				    nofile.rlim_cur != RLIM_INFINITY
			? (size_t)nofile.rlim_cur / 2 : 65536;
	}
	srv->request_timeout = o->request_timeout;
	srv->conn_closed = requests_conn_closed;

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
	/* As many compile threads as tracer threads, and at least two: one
	 * uid's compile holds one of them at most (compile.c). */
	r = compiler_start(&srv->compiler, o->shards > 2 ? o->shards : 2,
			   o->compile_timeout * 1000, o->compile_queue,
			   srv->mail, err);
	if (r < 0)
		goto fail;
	*ret = srv;
	return 0;
fail:
	server_free(srv);
	return r;
}

/* c's requests that have arrived, READ_BUDGET bytes at most per turn. */
static void serve(struct server *srv, struct conn *c)
{
	size_t budget = READ_BUDGET;

	while (conn_read(srv, c, &budget)) {
		requests_handle(srv, c);
		conn_message_done(srv, c);
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
				conn_accept(srv);
				continue;
			}
			if (*k == K_SIGNAL) {
				if (read_signals(srv, &stop_sig))
					return stop_sig;
				continue;
			}
			if (*k == K_MAIL) {
				requests_read_mail(srv);
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
					serve(srv, c);
			}
		}
		conn_sweep(srv);
		conn_free_dead(srv);
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
	/* Its workers post to the mailbox: before that goes. */
	compiler_free(srv->compiler);
	for (unsigned int i = 0; i < srv->n_shards; i++)
		shard_free(srv->shards[i]);
	if (srv->mail)
		requests_read_last_mail(srv);
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
	conn_free_dead(srv);
	if (srv->epfd >= 0)
		close(srv->epfd);
	if (srv->sig_fd >= 0)
		close(srv->sig_fd);
	sigprocmask(SIG_SETMASK, &srv->old_mask, NULL);
	free(srv);
}
