/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syswardd wire protocol (docs/protocol.md is the normative text).
 *
 * A closed set of message types, each a fixed 16-byte header followed by a
 * payload of bounded size, all integers little-endian, strings as a u32
 * length plus bytes without a NUL.  Bubblewrap's privileged helper is the
 * model: the daemon accepts nothing outside this set and bounds every
 * argument before it allocates for it.
 *
 * Pure encode/decode functions plus blocking send/receive helpers for the
 * client side.  Nothing here prints or exits.
 */
#ifndef SYSWARD_PROTO_H
#define SYSWARD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysward/error.h"
#include "sysward/limits.h"
#include "sysward/policy.h"

#define SW_PROTO_MAGIC		0x31445753u	/* bytes "SWD1" */
#define SW_PROTO_VERSION	4
#define SW_PROTO_HEADER_SIZE	16

/* Bounds on everything a client controls. */
#define SW_PROTO_MAX_ARGS	4096		/* argv entries */
#define SW_PROTO_MAX_ENV	4096		/* environment entries */
#define SW_PROTO_MAX_STRING	131072		/* one arg/env string (MAX_ARG_STRLEN) */
#define SW_PROTO_MAX_ARGV_ENV	(2u << 20)	/* all argv + env bytes */
#define SW_PROTO_MAX_CWD	4096		/* PATH_MAX */
#define SW_PROTO_MAX_NAME	1024		/* policy name */
#define SW_PROTO_MAX_POLICY	SW_LIMIT_POLICY_BYTES	/* policy text */
#define SW_PROTO_MAX_RUN	(4u << 20)	/* whole RUN payload */
#define SW_PROTO_MAX_ERROR_MSG	(SW_ERROR_MSG_MAX - 1)
#define SW_PROTO_MAX_PS_ENTRIES	4096
#define SW_PROTO_MAX_PS_STRING	256		/* program / policy in PS */
#define SW_PROTO_MAX_PS_REPLY	(4 + SW_PROTO_MAX_PS_ENTRIES * \
				 (32 + 2 * (4 + SW_PROTO_MAX_PS_STRING)))
/* RUN: the client's descriptors its program starts with (one
 * SCM_RIGHTS message, whose kernel limit this is: limits.h). */
#define SW_PROTO_MAX_FDS	SW_LIMIT_FDS
/* REPORT: the complain summary's text and the report's JSON.  The record
 * behind them has a fixed size (engine.h, SW_RECORD_*), so the JSON has a
 * bound: 1024 items of at most 4 samples, each path at most 191 bytes
 * written at most 8 bytes each (\u escapes and the _hex sibling). */
#define SW_PROTO_MAX_SUMMARY	(64u << 10)
#define SW_PROTO_MAX_REPORT	(8u << 20)
/* RUN's signal masks: bit N-1 is signal N; SIGKILL (9) and SIGSTOP (19)
 * can be neither ignored nor blocked, so their bits are refused. */
#define SW_PROTO_SIG_FIXED	((1ull << (9 - 1)) | (1ull << (19 - 1)))

enum sw_msg_type {
	/* client -> daemon */
	SW_MSG_RUN	= 0x01,
	SW_MSG_PS	= 0x02,
	SW_MSG_KILL	= 0x03,
	SW_MSG_SIGNAL	= 0x04,
	SW_MSG_RECORD	= 0x05,	/* before RUN: complain, report, gate */
	SW_MSG_SANDBOX	= 0x06,	/* before RUN: sysward run --sandbox */
	/* daemon -> client */
	SW_MSG_STARTED	= 0x81,
	SW_MSG_EXIT	= 0x82,
	SW_MSG_ERROR	= 0x83,
	SW_MSG_PS_REPLY	= 0x84,
	SW_MSG_OK	= 0x85,
	SW_MSG_STOPPED	= 0x86,
	SW_MSG_REPORT	= 0x87,	/* before EXIT, after a RECORD */
};

struct sw_msg_header {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t length;	/* payload bytes after the header */
	uint32_t flags;		/* reserved, must be 0 */
};

/* "RUN", "PS", ... or NULL for a type outside the set. */
const char *sw_msg_type_name(uint16_t type);
/* Largest payload the type may carry (0 for an unknown type). */
size_t sw_msg_max_length(uint16_t type);

void sw_msg_header_encode(uint8_t out[SW_PROTO_HEADER_SIZE], uint16_t type,
			  uint32_t length);
/*
 * Decode and check a header that travels towards the daemon (to_daemon) or
 * towards a client.  Errors: -EPROTO (magic, version, flags), -EOPNOTSUPP
 * (type outside the set for that direction), -EMSGSIZE (length over the
 * type's bound).  *ret is filled even on failure, for the error reply.
 */
int sw_msg_header_decode(const uint8_t in[SW_PROTO_HEADER_SIZE],
			 bool to_daemon, struct sw_msg_header *ret,
			 struct sw_error *err);

/* ---- growable output buffer ------------------------------------------- */

struct sw_buf {
	uint8_t *data;
	size_t len, cap;
	bool oom;		/* an append failed; checked once at the end */
};

void sw_buf_put_u32(struct sw_buf *b, uint32_t v);
void sw_buf_put_u64(struct sw_buf *b, uint64_t v);
void sw_buf_put_bytes(struct sw_buf *b, const void *p, size_t n);
/* u32 length + bytes; cut to max bytes. */
void sw_buf_put_str(struct sw_buf *b, const char *s, size_t max);
void sw_buf_free(struct sw_buf *b);

/* Start a message: header with length 0, fixed up by sw_msg_finish(). */
void sw_msg_begin(struct sw_buf *b, uint16_t type);
/* Patch the length; -ENOMEM if an append failed, -EMSGSIZE if too big. */
int sw_msg_finish(struct sw_buf *b, struct sw_error *err);

/* ---- bounded reader over a received payload ---------------------------- */

struct sw_reader {
	const uint8_t *p;
	size_t left;
};

int sw_reader_u32(struct sw_reader *r, uint32_t *ret);
int sw_reader_u64(struct sw_reader *r, uint64_t *ret);
/* A string of at most max bytes with no NUL in it, as a new C string. */
int sw_reader_str(struct sw_reader *r, size_t max, char **ret, size_t *ret_len);

/* ---- the messages ------------------------------------------------------ */

/* RUN's terminal: the program gets one of its own (a pseudo-terminal in
 * its session, relayed by the client), made with the client's window
 * size and, with SW_PROTO_TTY_TERMIOS, modes (struct termios, field by
 * field).  Then the RUN carries no descriptor at 0, 1 or 2: those are
 * the terminal's. */
#define SW_PROTO_TTY		(1u << 0)
#define SW_PROTO_TTY_TERMIOS	(1u << 1)
#define SW_PROTO_TTY_FLAGS	0x3u
#define SW_PROTO_TTY_NCC	32	/* c_cc[] bytes on the wire */
#define SW_PROTO_TTY_SIZE	(4 * 2 + 7 * 4 + SW_PROTO_TTY_NCC)
struct sw_proto_tty {
	uint16_t rows, cols, xpixel, ypixel;	/* struct winsize */
	uint32_t iflag, oflag, cflag, lflag, line, ispeed, ospeed;
	uint8_t cc[SW_PROTO_TTY_NCC];		/* the rest 0 */
};
struct termios;
/* A terminal's modes on the wire and back (NCCS at most
 * SW_PROTO_TTY_NCC: a build-time check in proto.c). */
void sw_proto_tty_from_termios(struct sw_proto_tty *t, const struct termios *tio);
void sw_proto_tty_to_termios(const struct sw_proto_tty *t, struct termios *tio);

struct sw_run_request {
	uint64_t caps;		/* capabilities asked for (root clients only) */
	uint32_t umask;		/* the client's umask, 0..0777 */
	uint64_t sig_ignored;	/* the client's ignored signals (bit N-1: */
	uint64_t sig_blocked;	/* signal N) and mask: sw_launch's */
	/* The numbers, in the program, of the descriptors the RUN carries
	 * (SCM_RIGHTS, in this order): strictly increasing, at most
	 * SW_PROTO_MAX_FDS. */
	uint32_t *fds;
	size_t n_fds;
	uint32_t tty_flags;	/* SW_PROTO_TTY_* */
	struct sw_proto_tty tty;	/* with SW_PROTO_TTY */
	char **argv;		/* NULL-ended, argc >= 1 */
	size_t argc;
	char **envp;		/* NULL-ended */
	size_t envc;
	char *cwd;		/* absolute path */
	char *policy_name;	/* for messages and "ps" (client's file name) */
	char *policy_text;	/* NUL-terminated, policy_len bytes */
	size_t policy_len;
};

int sw_run_request_encode(struct sw_buf *b, const struct sw_run_request *req,
			  struct sw_error *err);
/* -EBADMSG with a message naming the field on anything malformed; on
 * success the caller frees with sw_run_request_clear(). */
int sw_run_request_decode(const uint8_t *payload, size_t len,
			  struct sw_run_request *ret, struct sw_error *err);
void sw_run_request_clear(struct sw_run_request *req);

/* STARTED: flags SW_PROTO_STARTED_TTY when the master of the program's
 * terminal rides with it (SCM_RIGHTS on its first byte): after a RUN
 * with SW_PROTO_TTY, always. */
#define SW_PROTO_STARTED_TTY	(1u << 0)
struct sw_started {
	uint64_t session_id;
	uint32_t pid;
	uint32_t flags;
};

struct sw_error_reply {
	int32_t code;		/* positive errno */
	uint32_t exit_code;	/* what "sysward run" exits with: 125/126/127 */
	char msg[SW_ERROR_MSG_MAX];
};

struct sw_ps_entry {
	uint64_t session_id;
	uint32_t pid;
	uint32_t uid;
	uint64_t decisions;
	uint64_t started;	/* CLOCK_REALTIME seconds */
	char program[SW_PROTO_MAX_PS_STRING + 1];
	char policy[SW_PROTO_MAX_PS_STRING + 1];
};

/* RECORD: what the next RUN of the connection keeps and says
 * (`sysward run --complain, --report, --gate` through the daemon). */
#define SW_PROTO_RECORD_COMPLAIN	(1u << 0)	/* complain mode */
#define SW_PROTO_RECORD_REPORT		(1u << 1)	/* send the JSON */
#define SW_PROTO_RECORD_SUMMARY		(1u << 2)	/* send the text */
#define SW_PROTO_RECORD_FLAGS		0x7u
struct sw_record_request {
	uint32_t flags;		/* SW_PROTO_RECORD_* */
	uint32_t gate;		/* --gate's status, 0: none */
};

/* SANDBOX: the next RUN of the connection in `sysward run --sandbox`
 * (engine.h, struct sw_sandbox).  Paths as the client names them: its
 * program's child looks them up in the client's view, as its uid. */
#define SW_PROTO_SANDBOX_NET		(1u << 0)	/* ports given */
#define SW_PROTO_SANDBOX_FLAGS		0x1u
#define SW_PROTO_MAX_SANDBOX_RANGES	1024	/* of connect, of bind */
#define SW_PROTO_MAX_SANDBOX	(4 + 2 * (4 + SW_PROTO_MAX_CWD) + \
				 2 * (4 + 4 * SW_PROTO_MAX_SANDBOX_RANGES))
struct sw_sandbox_request {
	uint32_t flags;		/* SW_PROTO_SANDBOX_* */
	char *dir;		/* "" = the RUN's working directory */
	char *tmpdir;		/* absolute: the program's private TMPDIR */
	struct sw_port_range *connect, *bind;
	size_t n_connect, n_bind;
};

int sw_msg_encode_sandbox(struct sw_buf *b, const struct sw_sandbox_request *q,
			  struct sw_error *err);
/* On success free with sw_sandbox_request_clear(). */
int sw_msg_decode_sandbox(const uint8_t *p, size_t len,
			  struct sw_sandbox_request *ret, struct sw_error *err);
void sw_sandbox_request_clear(struct sw_sandbox_request *q);

/* EXIT: how the program ended.  signal: the one that killed it (1..64,
 * exit_code then 128+signal), which the client dies of; 0 when it
 * exited, or when sysward ended it (`sysward kill`: 137). */
#define SW_PROTO_EXIT_CORE	(1u << 0)	/* flags: it dumped core */
struct sw_exit_reply {
	uint32_t exit_code;	/* 0..255 */
	uint32_t signal;	/* 0 or 1..64 */
	bool core;
};

/* REPORT: the session's record, before its EXIT. */
struct sw_report_reply {
	uint64_t policy_refusals;	/* the gate's count */
	char *summary;			/* "" if not asked */
	char *json;			/* "" if not asked */
};

int sw_msg_encode_record(struct sw_buf *b, const struct sw_record_request *q,
			 struct sw_error *err);
int sw_msg_decode_record(const uint8_t *p, size_t len,
			 struct sw_record_request *ret, struct sw_error *err);
int sw_msg_encode_report(struct sw_buf *b, const struct sw_report_reply *r,
			 struct sw_error *err);
/* On success free ret's strings with sw_report_reply_clear(). */
int sw_msg_decode_report(const uint8_t *p, size_t len,
			 struct sw_report_reply *ret, struct sw_error *err);
void sw_report_reply_clear(struct sw_report_reply *r);

/* Fixed-size payloads: encode a whole message into b. */
int sw_msg_encode_kill(struct sw_buf *b, uint64_t session_id, struct sw_error *err);
int sw_msg_encode_signal(struct sw_buf *b, int sig, struct sw_error *err);
/* The program's main process stopped by a job-control signal: the client
 * stops by it too, as the shell's job (docs/protocol.md, STOPPED). */
int sw_msg_encode_stopped(struct sw_buf *b, int sig, struct sw_error *err);
int sw_msg_encode_started(struct sw_buf *b, const struct sw_started *s,
			  struct sw_error *err);
int sw_msg_encode_exit(struct sw_buf *b, const struct sw_exit_reply *x,
		       struct sw_error *err);
int sw_msg_encode_error(struct sw_buf *b, int code, int exit_code,
			const char *msg, struct sw_error *err);
int sw_msg_encode_empty(struct sw_buf *b, uint16_t type, struct sw_error *err);
int sw_msg_encode_ps_reply(struct sw_buf *b, const struct sw_ps_entry *e,
			   size_t n, struct sw_error *err);

int sw_msg_decode_kill(const uint8_t *p, size_t len, uint64_t *ret,
		       struct sw_error *err);
int sw_msg_decode_signal(const uint8_t *p, size_t len, int *ret,
			 struct sw_error *err);
int sw_msg_decode_stopped(const uint8_t *p, size_t len, int *ret,
			  struct sw_error *err);
int sw_msg_decode_started(const uint8_t *p, size_t len, struct sw_started *ret,
			  struct sw_error *err);
int sw_msg_decode_exit(const uint8_t *p, size_t len,
		       struct sw_exit_reply *ret, struct sw_error *err);
int sw_msg_decode_error(const uint8_t *p, size_t len,
			struct sw_error_reply *ret, struct sw_error *err);
/* *ret is a new array of *ret_n entries (free() it). */
int sw_msg_decode_ps_reply(const uint8_t *p, size_t len,
			   struct sw_ps_entry **ret, size_t *ret_n,
			   struct sw_error *err);

/* ---- blocking transport (client side) ---------------------------------- */

/* The socket path to use when none is given: /run/sysward.sock for root,
 * else $XDG_RUNTIME_DIR/sysward.sock (daemon) or, for a client, that path
 * if it exists and /run/sysward.sock otherwise.  -ENOENT without
 * XDG_RUNTIME_DIR for a non-root daemon. */
int sw_proto_default_socket(bool for_daemon, char *buf, size_t size,
			    struct sw_error *err);

/* Connect a SOCK_STREAM|SOCK_CLOEXEC Unix socket to path. */
int sw_proto_connect(const char *path, int *ret_fd, struct sw_error *err);

/* Send a whole message (from sw_msg_begin/finish), with fds attached to
 * its first byte when n_fds > 0.  Retries on EINTR, never raises SIGPIPE. */
int sw_proto_send(int fd, const struct sw_buf *msg, const int *fds,
		  size_t n_fds, struct sw_error *err);

/*
 * Receive one message from the daemon: header checked (direction towards
 * the client), payload in *ret_payload (malloc'd, free it).  -ECONNRESET
 * with "connection closed" when the peer closed (also in the middle of
 * a message).  Retries on EINTR: callers wait with poll() first.
 */
int sw_proto_recv(int fd, struct sw_msg_header *ret_hdr, uint8_t **ret_payload,
		  struct sw_error *err);
/* The same, and the descriptor a message carried (SCM_RIGHTS) in
 * *ret_fd, close-on-exec, or -1; any other is closed. */
int sw_proto_recv_fd(int fd, struct sw_msg_header *ret_hdr,
		     uint8_t **ret_payload, int *ret_fd, struct sw_error *err);

#endif
