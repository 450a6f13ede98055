/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syswardd internals.  Module map:
 *   main.c    command line, startup and shutdown
 *   listen.c  the listening socket: systemd activation or bind()
 *   peer.c    who the client is (SO_PEERCRED, SO_PEERGROUPS), whether it
 *             is confined (traced: SO_PEERPIDFD, /proc/<pid>/status) and
 *             whether it may execute its program (its own fs creds)
 *   server.c  the event loop: connections, requests, sessions, replies
 *   audit.c   the daemon's own audit lines (session start/exit/refusal)
 */
#ifndef SYSWARDD_H
#define SYSWARDD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "sysward/error.h"

struct options {
	const char *socket_path;	/* NULL = default */
	const char *audit_path;		/* NULL = no audit log */
	unsigned int max_sessions;
	unsigned int request_timeout;	/* seconds to finish a request */
	int socket_mode;		/* -1 = default (0666 root, 0600 user) */
};

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

/* 0 if the capability mask want is a subset of the peer's effective
 * capabilities in the daemon's user namespace, else -EPERM naming the
 * missing ones. */
int peer_check_caps(const struct peer_state *st, uint64_t want,
		    struct sw_error *err);

/*
 * Find name like execvp would with the client's PATH and cwd, checking
 * with the client's filesystem credentials (so a root daemon neither
 * reveals nor grants what the client could not see or run).  Returns 0 or
 * a positive errno (ENOENT, EACCES, EISDIR, ...).
 */
int peer_resolve_program(const struct peer *p, const char *name,
			 char *const *envp, const char *cwd);

/*
 * Can the client use dir as its working directory (a directory it may
 * search, reached by a path it may traverse)?  Checked with its fs
 * credentials, because the engine's child changes directory before it
 * drops root.  0 or a positive errno.
 */
int peer_check_cwd(const struct peer *p, const char *dir);

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
			uint64_t decisions);
void audit_refused(FILE *f, const struct peer *peer, const char *request,
		   int code, const char *msg);

/* ---- server.c ---------------------------------------------------------- */

struct server;

int server_new(struct server **ret, int listen_fd, FILE *audit,
	       unsigned int max_sessions, unsigned int request_timeout,
	       struct sw_error *err);
/* Serve until SIGTERM or SIGINT; returns the signal number, or -errno. */
int server_run(struct server *srv, struct sw_error *err);
/* Tell the clients, kill every session, close everything. */
void server_free(struct server *srv);

#endif
