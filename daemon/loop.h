/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event loop's state, shared by its three files, each using only
 * those below it:
 *   server.c    the loop itself: epoll set, signals, start and shutdown;
 *               hands each complete message to requests.c
 *   requests.c  the requests (RUN, PS, KILL, SIGNAL) and the tracer
 *               threads' replies
 *   conn.c      connection framing: accept, bounded reads and replies,
 *               deadlines, close; knows no request
 */
#ifndef SYSWARDD_LOOP_H
#define SYSWARDD_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

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
/* Descriptors of RUNs whose programs have not started yet, per uid
 * (requests.c): four RUNs of the most a RUN may carry. */
#define FDS_HELD_PER_UID	(4u * SW_PROTO_MAX_FDS)

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
	int fds[SW_PROTO_MAX_FDS];	/* a RUN's, as received */
	size_t n_fds;
	bool too_many_fds;

	struct sw_buf out;
	size_t out_off;
	/* A descriptor that rides with the byte of out at out_fd_at (the
	 * STARTED of a program with a terminal of its own: its master), or
	 * -1; ours until sent. */
	int out_fd;
	size_t out_fd_at;
	bool want_out;			/* EPOLLOUT registered */
	bool closing;			/* no more input; close once flushed */
	bool dead;			/* closed; freed after the loop turn */
	bool idle_peer;			/* failed peer_vet() when accepted */

	struct session *session;	/* RUN connections */
	bool recording;			/* a RECORD came, for the RUN */
	struct sw_record_request record;
	bool sandboxing;		/* a SANDBOX came, for the RUN */
	struct sw_sandbox_request sandbox;
	long long deadline;		/* ms: finish a request by then */
};

struct server {
	int epfd;
	enum kind listen_kind;
	int listen_fd;
	enum kind signal_kind;
	int sig_fd;
	enum kind mail_kind;
	struct mailbox *mail;		/* the tracer threads' and the
					 * compile stage's replies */
	struct compiler *compiler;	/* compile.c */
	sigset_t old_mask;
	struct shard **shards;
	unsigned int *load;		/* sessions per shard */
	unsigned int n_shards;
	FILE *audit;
	bool audit_allows;		/* --audit-allows */
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
	size_t fds_held;		/* RUNs' descriptors not handed on yet */
	size_t fds_held_max;		/* half our RLIMIT_NOFILE */
	bool accept_paused;		/* out of fds: listen fd not watched */
	bool shutting_down;
	/* A connection closed (conn_close()): what it was for goes too
	 * (requests.c: a RUN's session is killed).  Set by server.c. */
	void (*conn_closed)(struct server *srv, struct conn *c);
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

/* conn.c */
void conn_queue(struct server *srv, struct conn *c, const struct sw_buf *msg);
/* The same with descriptor fd (ours, taken in any case) on the message's
 * first byte (SCM_RIGHTS). */
void conn_queue_fd(struct server *srv, struct conn *c, const struct sw_buf *msg,
		   int fd);
/* Read from c, at most *budget bytes (what is read is taken off it),
 * until a whole message is in c (true: c->h, c->payload, c->fds; call
 * conn_message_done() after handling it) or no more can be read now. */
bool conn_read(struct server *srv, struct conn *c, size_t *budget);
void conn_message_done(struct server *srv, struct conn *c);
void conn_finish(struct server *srv, struct conn *c);
void conn_close(struct server *srv, struct conn *c);
void conn_reply_error(struct server *srv, struct conn *c, const char *req,
		 int code, int exit_code, const char *msg, bool finish);
void conn_close_fds(struct conn *c);
void conn_flush(struct server *srv, struct conn *c);
void conn_accept(struct server *srv);
void conn_sweep(struct server *srv);
void conn_free_dead(struct server *srv);

/* requests.c */
/* The whole message in c (conn_read()). */
void requests_handle(struct server *srv, struct conn *c);
/* c closed: a RUN's session is killed (server.conn_closed). */
void requests_conn_closed(struct server *srv, struct conn *c);
void requests_read_mail(struct server *srv);
/* At shutdown, after the tracer threads ended: the last mail, and a
 * session-exit for every started session without one. */
void requests_read_last_mail(struct server *srv);

#endif /* SYSWARDD_LOOP_H */
