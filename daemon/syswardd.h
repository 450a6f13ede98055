/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syswardd internals.  Module map, from the top; each file uses only
 * those below it:
 *   main.c    command line, startup and shutdown
 *   server.c  the event loop: epoll set, signals, start and shutdown
 *   requests.c RUN (checked step by step), PS, KILL, SIGNAL; sessions and
 *             the tracer threads' replies
 *   conn.c    connection framing: accept, bounded reads and replies
 *             (loop.h: what these three share)
 *   compile.c the compile stage: each RUN's policy parsed and compiled
 *             on worker threads, libseccomp in a killable process
 *   shard.c   the tracer threads: each launches and supervises the
 *             sessions it is given, and owns its side of them (ptrace
 *             ties a tracee to its thread)
 *   mail.c    what these hand each other: messages, their queues, the
 *             event loop's mailbox
 *   launch.c  what a RUN's program gets: the request a message carries,
 *             the engine's launch made from it
 *   session.c a session as the event loop knows it, shared and counted
 *   listen.c  the listening socket: systemd activation or bind()
 *   peer.c    who the client is (SO_PEERCRED, SO_PEERGROUPS), whether it
 *             is confined (traced: SO_PEERPIDFD, /proc/<pid>/status) and
 *             whether it may execute its program (its own fs creds)
 *   audit.c   the daemon's own audit lines (session start/exit/refusal)
 *   log.c     its messages on stderr
 */
#ifndef SYSWARDD_H
#define SYSWARDD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "sysward/engine.h"
#include "sysward/error.h"
#include "sysward/proto.h"

struct options {
	const char *socket_path;	/* NULL = default */
	const char *audit_path;		/* NULL = no audit log */
	bool audit_allows;		/* --audit-allows */
	unsigned int max_sessions;
	unsigned int request_timeout;	/* seconds to finish a request */
	unsigned int shards;		/* tracer threads */
	unsigned int compile_timeout;	/* seconds for libseccomp per RUN */
	unsigned int compile_queue;	/* RUNs queued or compiling, per uid */
	int socket_mode;		/* -1 = default (0666 root, 0600 user) */
};

/* ---- log.c ------------------------------------------------------------- */

/* "syswardd: " and one line on stderr, whole even between threads. */
void swd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- listen.c ---------------------------------------------------------- */

/*
 * The listening socket: the one systemd passed (LISTEN_PID/LISTEN_FDS,
 * checked by hand, no libsystemd) or a new one bound at path.
 * *ret_created says whether we made the socket file (and so remove it on
 * exit).
 */
int listen_socket(const char *path, int mode, int *ret_fd, bool *ret_activated,
		  struct sw_error *err);

/* ---- peer.c ------------------------------------------------------------ */

struct peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	gid_t *groups;
	size_t n_groups;
};

int peer_get(int fd, struct peer *ret, struct sw_error *err);
/* -ENOMEM or 0; dst is cleared with peer_clear() either way. */
int peer_copy(struct peer *dst, const struct peer *src);
void peer_clear(struct peer *p);

/* The peer as it is now, from /proc/<pid>/status. */
struct peer_state {
	pid_t pid;		/* in the daemon's pid namespace */
	pid_t tracer;		/* TracerPid */
	uint64_t cap_eff;	/* CapEff */
	bool caps_here;		/* in the daemon's user namespace */
};

/*
 * May the process that connected to fd make a request that acts (RUN,
 * KILL, PS)?  0 if it still lives, is visible in our pid namespace and is
 * not ptrace-traced, with *st filled; else -EPERM with a message that
 * names request ("RUN") and says why.  A traced client is either confined
 * by sysward (every confined process is traced) or under a debugger: both
 * are refused.  The pid is pinned by SO_PEERPIDFD, and the process checked
 * to be alive after its status was read, so a reused pid cannot pass.
 */
int peer_vet(int fd, const struct peer *p, const char *request,
	     struct peer_state *st, struct sw_error *err);
/* The same, handing the pidfd that pins the client to the caller
 * (*ret_pidfd, on success only): its context is read later, off the
 * event loop (compile.c, clientctx.c in the engine). */
int peer_vet_pinned(int fd, const struct peer *p, const char *request,
		    struct peer_state *st, int *ret_pidfd, struct sw_error *err);

/* 0 if the capability mask want is a subset of the peer's effective
 * capabilities in the daemon's user namespace, else -EPERM naming the
 * missing ones. */
int peer_check_caps(const struct peer_state *st, uint64_t want,
		    struct sw_error *err);

/* ---- audit.c ----------------------------------------------------------- */

struct audit_start {
	uint64_t session;
	pid_t pid;
	const struct peer *peer;
	char *const *argv;
	const char *cwd;
	const char *policy;
};

void audit_session_start(FILE *f, const struct audit_start *a);
void audit_session_exit(FILE *f, uint64_t session, pid_t pid, int exit_code,
			int term_sig, uint64_t decisions);
void audit_refused(FILE *f, const struct peer *peer, const char *request,
		   int code, const char *msg);

/* ---- session.c ---------------------------------------------------------- */

/*
 * A session as the event loop knows it (requests.c), shared with the
 * compile stage and the tracer thread that runs it (shard.c) through
 * messages (struct mail), which hold references: it lives until all
 * are done with it (refs).  The tracer thread's own state for a running
 * session (the engine's session, the policy, the program's group) is
 * shard.c's, never seen here.
 */
struct conn;
struct sw_policy;
struct session {
	/* Event loop only. */
	uint64_t id;
	struct conn *conn;		/* NULL once the client went away */
	uid_t uid;
	pid_t pid;			/* 0 until the program started */
	time_t started;
	unsigned int shard;
	char program[SW_PROTO_MAX_PS_STRING + 1];
	char policy_name[SW_PROTO_MAX_PS_STRING + 1];
	struct session *prev, *next;
	bool launched;			/* handed to shard (compile done) */
	bool killed;			/* KILL, or client gone, before that */
	uint64_t pending_sigs;		/* SIGNALs before that, a bit each */
	size_t fds_held;		/* its RUN's descriptors, until its
					 * program has them */
	/* Both. */
	unsigned int refs;		/* __atomic */
	uint64_t decisions;		/* __atomic: written by the tracer */
	uint64_t answered;		/* __atomic: by its listener's thread
					 * (sw_launch.listener_answers) */
};

struct session *session_ref(struct session *x);
void session_unref(struct session *x);

/* ---- launch.c ----------------------------------------------------------- */

/* What the tracer thread needs to launch a RUN: the message owns it. */
struct launch_req {
	struct sw_run_request q;
	struct sw_policy *policy;	/* compile.c: parsed */
	struct sw_prepared *prepared;	/* compile.c: compiled */
	/* The client's descriptors (ours, received), each with its number
	 * in the client: what the program starts with, and nothing else. */
	struct sw_fd_place fds[SW_PROTO_MAX_FDS];
	size_t n_fds;
	struct peer peer;		/* its groups: the client's */
	/* The client pinned (peer_vet_pinned()), and its context, read by
	 * the compile stage (sw_client_read()): what the program gets
	 * instead of the daemon's. */
	pid_t client_pid;
	int client_pidfd;
	struct sw_client *client;
	bool root_daemon;
	int nice;
	FILE *audit;
	bool audit_allows;
	/* The connection's RECORD (complain, report, gate), if any. */
	bool recording;
	struct sw_record_request record;
	/* The connection's SANDBOX, if any (the request owns the strings,
	 * sandbox points into it, for the launch). */
	bool sandboxing;
	struct sw_sandbox_request sandbox_q;
	struct sw_sandbox sandbox;
	/* A terminal of the program's own (the RUN's SW_PROTO_TTY). */
	struct sw_tty tty;
};

/* Closes its descriptors, frees the rest. */
void launch_req_free(struct launch_req *l);

/* The launch of q as session id: the one home of what the program gets
 * (credentials, capabilities, nice, umask), read by its compile and by
 * its launch.  l points into q. */
struct sw_launch;
void launch_fill(const struct launch_req *q, uint64_t id, struct sw_launch *l);

/* ---- mail.c ------------------------------------------------------------- */

enum mail_type {
	/* to the compile stage */
	MSG_COMPILE,
	/* to a tracer thread */
	MSG_LAUNCH,
	MSG_KILL,
	MSG_SIGNAL,
	MSG_STOP,	/* kill and reap everything, end the thread */
	/* to the event loop */
	MSG_COMPILED,	/* launch ready, or err, exit_code */
	MSG_STARTED,
	MSG_FAILED,	/* the launch failed: err, exit_code */
	MSG_DONE,	/* exit_code, err if it never reached exec */
	MSG_STOPPED,	/* the main process stopped by sig: the client stops */
};

struct mail {
	enum mail_type kind;
	struct session *x;		/* a reference of the message's */
	struct mail *next;
	struct launch_req *launch;	/* MSG_COMPILE, _COMPILED, _LAUNCH */
	int sig;			/* MSG_SIGNAL, MSG_STOPPED */
	pid_t pid;			/* MSG_STARTED */
	int tty;			/* MSG_STARTED: its terminal's master, -1 */
	int exit_code;			/* MSG_FAILED, MSG_DONE */
	int term_sig;			/* MSG_DONE: killed by it (0: not) */
	bool core;			/* ... and dumped core */
	bool has_err;
	struct sw_error err;
	uint64_t decisions;		/* MSG_DONE */
	/* MSG_DONE of a session with a RECORD: the REPORT to send. */
	bool has_report;
	struct sw_report_reply report;
};

/* A queue of messages under a lock (mail.c).  mailq_put() is called with
 * mu held and returns whether the queue was empty; mailq_take() takes mu
 * and returns the whole queue, in order. */
struct mailq {
	pthread_mutex_t mu;
	struct mail *head, *tail;
};
void mailq_init(struct mailq *q);
bool mailq_put(struct mailq *q, struct mail *m);
struct mail *mailq_take(struct mailq *q);
/* Frees every message left, and the lock. */
void mailq_drop(struct mailq *q);

/* A message for x of kind k, holding a new reference to x. */
struct mail *mail_new(enum mail_type k, struct session *x);
void mail_free(struct mail *m);

/* Where a tracer thread's replies go: the event loop's mailbox, which
 * wakes it through an eventfd. */
struct mailbox;
int mailbox_new(struct mailbox **ret, struct sw_error *err);
int mailbox_fd(const struct mailbox *mb);
/* Post m (any thread); wakes the event loop. */
void mailbox_post(struct mailbox *mb, struct mail *m);
/* All messages in the order they were posted (clears the eventfd). */
struct mail *mailbox_take(struct mailbox *mb);
void mailbox_free(struct mailbox *mb);

/* ---- shard.c ------------------------------------------------------------ */

struct shard;
/* Start tracer thread idx; replies go to mb.  Warnings are logged. */
int shard_start(struct shard **ret, unsigned int idx, struct mailbox *mb,
		struct sw_error *err);
/* Hand m to the tracer thread (which frees it); never blocks on it.  A
 * thread at idle priority is made a normal one first. */
void shard_send(struct shard *sh, struct mail *m);
/* Whether the thread serves nothing but signal floods now, at idle
 * priority (shard.c): a new session goes to another one if it can. */
bool shard_idle(const struct shard *sh);
/* The thread for a new session, of n with load[i] sessions each: the
 * least loaded of those not idle (shard_idle()), if any. */
unsigned int shard_pick(struct shard *const *shards, const unsigned int *load,
			unsigned int n);
/* Have the thread kill and reap every program of the shard and end. */
void shard_stop(struct shard *sh);
/* Stop (if not yet), wait for the thread, free. */
void shard_free(struct shard *sh);

/* ---- compile.c --------------------------------------------------------- */

struct compiler;
/* n_workers threads; a compile's libseccomp step is killed after
 * timeout_ms; results (MSG_COMPILED) go to out.  Probes the kernel. */
int compiler_start(struct compiler **ret, unsigned int n_workers,
		   unsigned int timeout_ms, unsigned int per_uid,
		   struct mailbox *out, struct sw_error *err);
/* Queue m (MSG_COMPILE, its launch with the request); -EAGAIN if its
 * uid has compiler_per_uid() compiles queued or running already. */
int compiler_submit(struct compiler *cc, struct mail *m);
unsigned int compiler_per_uid(const struct compiler *cc);
/* Waits for running compiles (each at most its limit); drops the queue. */
void compiler_free(struct compiler *cc);

/* ---- server.c ---------------------------------------------------------- */

struct server;


int server_new(struct server **ret, int listen_fd, FILE *audit,
	       const struct options *o, struct sw_error *err);
/* Serve until SIGTERM or SIGINT; returns the signal number, or -errno. */
int server_run(struct server *srv, struct sw_error *err);
/* Tell the clients, kill every session, close everything. */
void server_free(struct server *srv);

#endif
