// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of the syswardd wire protocol (proto/proto.c). */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

#include "sysward/proto.h"
#include "../unit/check_run.h"

static void hdr(uint8_t *h, uint32_t magic, uint16_t ver, uint16_t type,
		uint32_t len, uint32_t flags)
{
	uint32_t v[] = { magic, (uint32_t)ver | (uint32_t)type << 16, len, flags };

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			h[i * 4 + j] = (uint8_t)(v[i] >> (8 * j));
}

static const struct {
	uint32_t magic;
	uint16_t ver, type;
	uint32_t len, flags;
	bool to_daemon;
	int code;
	const char *msg;
} header_cases[] = {
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 100, 0, true, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_PS, 0, 0, true, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_KILL, 8, 0, true, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_SIGNAL, 4, 0, true, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_EXIT, 4, 0, false, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_STOPPED, 4, 0, false, 0, "" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_STOPPED, 5, 0, false, EMSGSIZE,
	  "STOPPED message of 5 bytes exceeds the limit of 4 bytes" },
	/* A client never sends STOPPED. */
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_STOPPED, 4, 0, true, EOPNOTSUPP,
	  "unknown message type 0x86" },
	{ 0x54534547, SW_PROTO_VERSION, SW_MSG_RUN, 0, 0, true, EPROTO, "bad magic 0x54534547" },
	/* Version 1's RUN handed over 0-2 only, in another layout. */
	{ SW_PROTO_MAGIC, 1, SW_MSG_RUN, 0, 0, true, EPROTO,
	  "protocol version 1 not supported" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 0, 1, true, EPROTO,
	  "reserved header flags 0x1 must be 0" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, 0x7f, 0, 0, true, EOPNOTSUPP,
	  "unknown message type 0x7f" },
	/* A reply type sent to the daemon is outside its set. */
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_EXIT, 4, 0, true, EOPNOTSUPP,
	  "unknown message type 0x82" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, 0, 0, false, EOPNOTSUPP,
	  "unknown message type 0x1" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_RUN, SW_PROTO_MAX_RUN + 1, 0, true, EMSGSIZE,
	  "RUN message of 4194305 bytes exceeds the limit of 4194304 bytes" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_PS, 1, 0, true, EMSGSIZE,
	  "PS message of 1 bytes exceeds the limit of 0 bytes" },
	{ SW_PROTO_MAGIC, SW_PROTO_VERSION, SW_MSG_KILL, 0xffffffff, 0, true, EMSGSIZE,
	  "KILL message of 4294967295 bytes" },
};

START_TEST(test_header)
{
	uint8_t h[SW_PROTO_HEADER_SIZE];
	struct sw_msg_header out;
	struct sw_error err = { 0 };
	int r;

	hdr(h, header_cases[_i].magic, header_cases[_i].ver,
	    header_cases[_i].type, header_cases[_i].len, header_cases[_i].flags);
	r = sw_msg_header_decode(h, header_cases[_i].to_daemon, &out, &err);
	ck_assert_int_eq(r, -header_cases[_i].code);
	if (header_cases[_i].code)
		ck_assert_msg(strstr(err.msg, header_cases[_i].msg),
			      "message \"%s\" lacks \"%s\"", err.msg,
			      header_cases[_i].msg);
	else
		ck_assert_uint_eq(out.length, header_cases[_i].len);
}
END_TEST

START_TEST(test_header_roundtrip)
{
	uint8_t h[SW_PROTO_HEADER_SIZE];
	struct sw_msg_header out;

	sw_msg_header_encode(h, SW_MSG_SIGNAL, 4);
	ck_assert_int_eq(memcmp(h, "SWD1", 4), 0);
	ck_assert_int_eq(sw_msg_header_decode(h, true, &out, NULL), 0);
	ck_assert_uint_eq(out.type, SW_MSG_SIGNAL);
	ck_assert_uint_eq(out.length, 4);
}
END_TEST

static char *argv_ok[] = { "/bin/echo", "hello world", "", NULL };
static char *env_ok[] = { "PATH=/usr/bin:/bin", "LANG=C", NULL };

/* RUN's two signal masks, after the umask, and no descriptor. */
static void put_sigs(struct sw_buf *b, uint64_t ignored, uint64_t blocked)
{
	sw_buf_put_u64(b, ignored);
	sw_buf_put_u64(b, blocked);
	sw_buf_put_u32(b, 0);		/* no descriptor */
	sw_buf_put_u32(b, 0);		/* no terminal */
}

static uint32_t fds_ok[] = { 0, 1, 2, 3, 250 };

static void make_run(struct sw_buf *b, const char *policy)
{
	struct sw_run_request q = {
		.caps = 1ull << 13,
		.umask = 027,
		.sig_ignored = 1ull << (SIGHUP - 1),
		.sig_blocked = 1ull << (SIGUSR1 - 1),
		.fds = fds_ok, .n_fds = 5,
		.argv = argv_ok, .argc = 3,
		.envp = env_ok, .envc = 2,
		.cwd = "/tmp", .policy_name = "p.json",
		.policy_text = (char *)policy, .policy_len = strlen(policy),
	};

	ck_assert_int_eq(sw_run_request_encode(b, &q, NULL), 0);
}

START_TEST(test_run_roundtrip)
{
	struct sw_buf b = { 0 };
	struct sw_run_request q;
	struct sw_msg_header h;
	struct sw_error err = { 0 };

	make_run(&b, "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}");
	ck_assert_int_eq(sw_msg_header_decode(b.data, true, &h, &err), 0);
	ck_assert_uint_eq(h.type, SW_MSG_RUN);
	ck_assert_uint_eq(h.length, b.len - SW_PROTO_HEADER_SIZE);
	ck_assert_int_eq(sw_run_request_decode(b.data + 16, h.length, &q, &err), 0);
	ck_assert_uint_eq(q.caps, 1ull << 13);
	ck_assert_uint_eq(q.umask, 027);
	ck_assert_uint_eq(q.sig_ignored, 1ull << (SIGHUP - 1));
	ck_assert_uint_eq(q.sig_blocked, 1ull << (SIGUSR1 - 1));
	ck_assert_uint_eq(q.n_fds, 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(q.fds[i], fds_ok[i]);
	ck_assert_uint_eq(q.argc, 3);
	ck_assert_str_eq(q.argv[0], "/bin/echo");
	ck_assert_str_eq(q.argv[1], "hello world");
	ck_assert_str_eq(q.argv[2], "");
	ck_assert_ptr_null(q.argv[3]);
	ck_assert_uint_eq(q.envc, 2);
	ck_assert_str_eq(q.envp[1], "LANG=C");
	ck_assert_ptr_null(q.envp[2]);
	ck_assert_str_eq(q.cwd, "/tmp");
	ck_assert_str_eq(q.policy_name, "p.json");
	ck_assert_str_eq(q.policy_text, "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}");
	sw_run_request_clear(&q);
	sw_buf_free(&b);
}
END_TEST

/* Every strict prefix of a valid RUN payload is rejected as malformed. */
START_TEST(test_run_truncated)
{
	struct sw_buf b = { 0 };
	struct sw_run_request q;
	struct sw_error err = { 0 };
	size_t len;

	make_run(&b, "{}");
	len = b.len - SW_PROTO_HEADER_SIZE;
	for (size_t n = 0; n < len; n++) {
		int r = sw_run_request_decode(b.data + 16, n, &q, &err);

		ck_assert_msg(r == -EBADMSG, "prefix %zu: %d (%s)", n, r, err.msg);
		ck_assert_msg(strncmp(err.msg, "RUN request: ", 13) == 0,
			      "prefix %zu: %s", n, err.msg);
	}
	sw_buf_free(&b);
}
END_TEST

/*
 * Payloads built by hand: each field out of bounds, with the message.  A
 * row's payload: id 0, umask, the two signal masks, argc, envc, then
 * strs (each as sw_buf_put_str), then, if has_len, a u32 len, then bytes.
 */
#define SIG(s) (1ull << ((s) - 1))
static const struct {
	const char *what;
	uint32_t umask;
	uint64_t ignored, blocked;
	uint32_t argc, envc;
	const char *strs[3];
	bool has_len;
	uint32_t len;
	const char *bytes;
	size_t nbytes;
	int code;
	const char *msg;	/* the whole message, or NULL */
	const char *part;	/* a part of it, or NULL */
} bounds_cases[] = {
	{ "argc 0", 022, 0, 0, 0, 0, { 0 }, false, 0, NULL, 0, E2BIG,
	  "RUN request: argc 0 out of range 1..4096", NULL },
	{ "argc over the limit", 022, 0, 0, 100000, 0, { 0 }, false, 0, NULL, 0,
	  E2BIG, NULL, "argc 100000 out of range" },
	{ "a huge count that cannot fit in the payload: no allocation",
	  022, 0, 0, 4000, 4000, { 0 }, false, 0, NULL, 0, EBADMSG,
	  NULL, "do not fit" },
	{ "a string claiming more than MAX_STRING", 022, 0, 0, 1, 0, { 0 },
	  true, SW_PROTO_MAX_STRING + 1, NULL, 0, EMSGSIZE,
	  "RUN request: argv[0] is longer than 131072 bytes", NULL },
	{ "NUL inside a string", 022, 0, 0, 1, 0, { 0 }, true, 3, "a\0b", 3,
	  EBADMSG, "RUN request: argv[0] is truncated or contains a NUL byte",
	  NULL },
	{ "relative cwd", 022, 0, 0, 1, 0, { "true", "tmp" }, false, 0, NULL, 0,
	  EBADMSG, "RUN request: cwd \"tmp\" is not an absolute path", NULL },
	{ "policy over 1 MiB", 022, 0, 0, 1, 0, { "true", "/", "p" },
	  true, SW_PROTO_MAX_POLICY + 1, NULL, 0, EFBIG,
	  "RUN request: policy of 1048577 bytes exceeds the limit of 1048576 "
	  "bytes", NULL },
	{ "trailing garbage after the policy", 022, 0, 0, 1, 0,
	  { "true", "/", "p" }, true, 2, "{}xx", 4, EBADMSG,
	  "RUN request: policy length 2 but 4 bytes remain", NULL },
	{ "umask out of range", 01000, 0, 0, 1, 0, { 0 }, false, 0, NULL, 0,
	  EINVAL, "RUN request: umask 01000 out of range 0..0777", NULL },
	/* SIGKILL or SIGSTOP ignored or blocked: no process has them so */
	{ "SIGKILL ignored", 022, SIG(SIGKILL), 0, 1, 0, { 0 }, false, 0, NULL,
	  0, EINVAL, "RUN request: SIGKILL or SIGSTOP ignored or blocked (no "
	  "process can have them so)", NULL },
	{ "SIGSTOP blocked", 022, 0, SIG(SIGSTOP), 1, 0, { 0 }, false, 0, NULL,
	  0, EINVAL, "RUN request: SIGKILL or SIGSTOP ignored or blocked (no "
	  "process can have them so)", NULL },
};

START_TEST(test_run_bounds)
{
	const __typeof__(bounds_cases[0]) *c = &bounds_cases[_i];
	struct sw_buf b = { 0 };
	struct sw_run_request q;
	struct sw_error err = { 0 };
	int r;

	sw_buf_put_u64(&b, 0);
	sw_buf_put_u32(&b, c->umask);
	put_sigs(&b, c->ignored, c->blocked);
	sw_buf_put_u32(&b, c->argc);
	sw_buf_put_u32(&b, c->envc);
	for (int i = 0; i < 3 && c->strs[i]; i++)
		sw_buf_put_str(&b, c->strs[i], 100);
	if (c->has_len)
		sw_buf_put_u32(&b, c->len);
	if (c->nbytes)
		sw_buf_put_bytes(&b, c->bytes, c->nbytes);
	ck_assert(!b.oom);
	r = sw_run_request_decode(b.data, b.len, &q, &err);
	ck_assert_msg(r == -c->code, "%s: %d, expected %d (%s)", c->what, r,
		      -c->code, err.msg);
	if (c->msg)
		ck_assert_msg(!strcmp(err.msg, c->msg), "%s: \"%s\", expected "
			      "\"%s\"", c->what, err.msg, c->msg);
	if (c->part)
		ck_assert_msg(strstr(err.msg, c->part), "%s: \"%s\" lacks \"%s\"",
			      c->what, err.msg, c->part);
	sw_buf_free(&b);
}
END_TEST

/* RUN's descriptor numbers, by hand: count, numbers, then a valid rest
 * (argc 1: "true", no environment, cwd "/", no name, empty policy). */
static const struct {
	const char *what;
	uint32_t n;
	uint32_t nums[4];
	size_t given;		/* numbers actually written */
	int code;
	const char *msg;
} fds_cases[] = {
	{ "none", 0, { 0 }, 0, 0, NULL },
	{ "0-2 and 9", 4, { 0, 1, 2, 9 }, 4, 0, NULL },
	{ "the most one message carries", SW_PROTO_MAX_FDS, { 0 }, 0, 0, NULL },
	{ "one more than SCM_RIGHTS carries", SW_PROTO_MAX_FDS + 1, { 0 }, 0,
	  E2BIG, "RUN request: 254 descriptors (limit 253)" },
	{ "a number twice", 2, { 3, 3 }, 2, EBADMSG,
	  "RUN request: descriptor number 3 after 3 (increasing, at most "
	  "2147483647)" },
	{ "decreasing", 2, { 4, 3 }, 2, EBADMSG,
	  "RUN request: descriptor number 3 after 4" },
	{ "beyond an int", 1, { 0x80000000u }, 1, EBADMSG,
	  "RUN request: descriptor number 2147483648" },
	{ "count beyond the numbers", 3, { 0, 1 }, 2, EBADMSG,
	  "RUN request: truncated in the descriptor numbers" },
};

START_TEST(test_run_fds)
{
	const __typeof__(fds_cases[0]) *c = &fds_cases[_i];
	struct sw_buf b = { 0 };
	struct sw_run_request q;
	struct sw_error err = { 0 };
	int r;

	sw_buf_put_u64(&b, 0);
	sw_buf_put_u32(&b, 022);
	sw_buf_put_u64(&b, 0);
	sw_buf_put_u64(&b, 0);
	sw_buf_put_u32(&b, c->n);
	if (c->given || c->code)
		for (size_t i = 0; i < c->given; i++)
			sw_buf_put_u32(&b, c->nums[i]);
	else
		for (uint32_t i = 0; i < c->n; i++)
			sw_buf_put_u32(&b, c->given ? c->nums[i] : i);
	if (!(c->code == EBADMSG && c->given < c->n)) {
		sw_buf_put_u32(&b, 0);	/* no terminal */
		sw_buf_put_u32(&b, 1);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_str(&b, "true", 100);
		sw_buf_put_str(&b, "/", 100);
		sw_buf_put_str(&b, "", 100);
		sw_buf_put_u32(&b, 0);
	}
	ck_assert(!b.oom);
	r = sw_run_request_decode(b.data, b.len, &q, &err);
	ck_assert_msg(r == -c->code, "%s: %d, expected %d (%s)", c->what, r,
		      -c->code, err.msg);
	if (c->msg)
		ck_assert_msg(strstr(err.msg, c->msg), "%s: \"%s\" lacks \"%s\"",
			      c->what, err.msg, c->msg);
	if (!c->code) {
		ck_assert_uint_eq(q.n_fds, c->n);
		for (size_t i = 0; i < c->given; i++)
			ck_assert_uint_eq(q.fds[i], c->nums[i]);
		sw_run_request_clear(&q);
	}
	sw_buf_free(&b);
}
END_TEST

/* RUN's terminal: what round-trips, and every inconsistency refused. */
START_TEST(test_run_tty_roundtrip)
{
	static uint32_t fds_above[] = { 3, 9 };
	struct sw_buf b = { 0 };
	struct sw_run_request q = {
		.fds = fds_above, .n_fds = 2,
		.tty_flags = SW_PROTO_TTY | SW_PROTO_TTY_TERMIOS,
		.argv = argv_ok, .argc = 3, .envp = env_ok, .envc = 2,
		.cwd = "/", .policy_text = "{}", .policy_len = 2,
	}, d;
	struct termios tio = { 0 }, back;
	struct sw_error err = { 0 };

	tio.c_iflag = ICRNL | IXON;
	tio.c_oflag = OPOST | ONLCR;
	tio.c_cflag = CS8 | CREAD;
	tio.c_lflag = ISIG | ICANON | ECHO;
	tio.c_cc[VINTR] = 3;
	tio.c_cc[VEOF] = 4;
	cfsetispeed(&tio, B38400);
	cfsetospeed(&tio, B38400);
	q.tty = (struct sw_proto_tty){ .rows = 30, .cols = 120, .xpixel = 0xffff };
	sw_proto_tty_from_termios(&q.tty, &tio);
	ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), 0);
	ck_assert_int_eq(sw_run_request_decode(b.data + 16, b.len - 16, &d, &err), 0);
	ck_assert_uint_eq(d.tty_flags, SW_PROTO_TTY | SW_PROTO_TTY_TERMIOS);
	ck_assert_uint_eq(d.tty.rows, 30);
	ck_assert_uint_eq(d.tty.cols, 120);
	ck_assert_uint_eq(d.tty.xpixel, 0xffff);
	sw_proto_tty_to_termios(&d.tty, &back);
	ck_assert_uint_eq(back.c_iflag, tio.c_iflag);
	ck_assert_uint_eq(back.c_oflag, tio.c_oflag);
	ck_assert_uint_eq(back.c_cflag & ~CBAUD, tio.c_cflag & ~CBAUD);
	ck_assert_uint_eq(back.c_lflag, tio.c_lflag);
	ck_assert_uint_eq(cfgetospeed(&back), B38400);
	ck_assert_mem_eq(back.c_cc, tio.c_cc, NCCS);
	ck_assert_str_eq(d.argv[0], "/bin/echo");
	sw_run_request_clear(&d);
	sw_buf_free(&b);
}
END_TEST

/* A RUN's terminal by hand: flags, then (with SW_PROTO_TTY) the
 * window size and the modes as given, then a valid rest. */
static const struct {
	const char *what;
	uint32_t n_fds, fd;		/* 0 or 1 descriptor, its number */
	uint32_t flags;
	uint32_t iflag;			/* the first mode */
	uint32_t line;
	size_t cut;			/* the terminal's bytes left out */
	int code;
	const char *msg;
} tty_cases[] = {
	{ "a terminal, no modes", 1, 3, SW_PROTO_TTY, 0, 0, 0, 0, NULL },
	{ "a terminal with modes", 0, 0, SW_PROTO_TTY | SW_PROTO_TTY_TERMIOS,
	  ICRNL, 0, 0, 0, NULL },
	{ "unknown flags", 0, 0, 0x4, 0, 0, 0, EINVAL,
	  "RUN request: terminal flags 0x4 (known: 0x3)" },
	{ "modes without a terminal", 0, 0, SW_PROTO_TTY_TERMIOS, 0, 0, 0,
	  EBADMSG, "RUN request: a terminal's modes without a terminal" },
	{ "a terminal and the client's stdin", 1, 0, SW_PROTO_TTY, 0, 0, 0,
	  EBADMSG, "RUN request: a terminal of its own and the client's "
	  "descriptor 0 (0, 1 and 2 are the terminal's)" },
	{ "a terminal and the client's stderr", 1, 2, SW_PROTO_TTY, 0, 0, 0,
	  EBADMSG, "RUN request: a terminal of its own and the client's "
	  "descriptor 2 (0, 1 and 2 are the terminal's)" },
	{ "modes not announced", 0, 0, SW_PROTO_TTY, ICRNL, 0, 0, EBADMSG,
	  "RUN request: a terminal's modes without SW_PROTO_TTY_TERMIOS" },
	{ "a line discipline beyond a byte", 0, 0,
	  SW_PROTO_TTY | SW_PROTO_TTY_TERMIOS, 0, 256, 0, EINVAL,
	  "RUN request: line discipline 256 out of range 0..255" },
	{ "truncated in the terminal", 0, 0, SW_PROTO_TTY, 0, 0,
	  SW_PROTO_TTY_SIZE, EBADMSG, "RUN request: truncated in the terminal" },
};

START_TEST(test_run_tty)
{
	const __typeof__(tty_cases[0]) *c = &tty_cases[_i];
	struct sw_buf b = { 0 };
	struct sw_run_request q;
	struct sw_error err = { 0 };
	int r;

	sw_buf_put_u64(&b, 0);
	sw_buf_put_u32(&b, 022);
	sw_buf_put_u64(&b, 0);
	sw_buf_put_u64(&b, 0);
	sw_buf_put_u32(&b, c->n_fds);
	if (c->n_fds)
		sw_buf_put_u32(&b, c->fd);
	sw_buf_put_u32(&b, c->flags);
	if ((c->flags & SW_PROTO_TTY) && !c->cut) {
		uint8_t ws[8] = { 30, 0, 120, 0 }, cc[SW_PROTO_TTY_NCC] = { 3 };

		sw_buf_put_bytes(&b, ws, sizeof(ws));
		sw_buf_put_u32(&b, c->iflag);
		for (int i = 0; i < 3; i++)
			sw_buf_put_u32(&b, 0);
		sw_buf_put_u32(&b, c->line);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_bytes(&b, cc, sizeof(cc));
	}
	if (!c->cut) {
		sw_buf_put_u32(&b, 1);
		sw_buf_put_u32(&b, 0);
		sw_buf_put_str(&b, "true", 100);
		sw_buf_put_str(&b, "/", 100);
		sw_buf_put_str(&b, "", 100);
		sw_buf_put_u32(&b, 0);
	}
	ck_assert(!b.oom);
	r = sw_run_request_decode(b.data, b.len, &q, &err);
	ck_assert_msg(r == -c->code, "%s: %d, expected %d (%s)", c->what, r,
		      -c->code, err.msg);
	if (c->msg)
		ck_assert_msg(!strcmp(err.msg, c->msg), "%s: \"%s\", expected \"%s\"",
			      c->what, err.msg, c->msg);
	if (!c->code) {
		ck_assert_uint_eq(q.tty_flags, c->flags);
		ck_assert_uint_eq(q.tty.rows, 30);
		ck_assert_uint_eq(q.tty.cols, 120);
		ck_assert_uint_eq(q.tty.iflag, c->iflag);
		sw_run_request_clear(&q);
	}
	sw_buf_free(&b);
}
END_TEST

/* The client never asks for what the daemon refuses. */
START_TEST(test_run_tty_encode)
{
	static uint32_t fds_low[] = { 1 };
	struct sw_buf b = { 0 };
	struct sw_error err = { 0 };
	struct sw_run_request q = {
		.fds = fds_low, .n_fds = 1, .tty_flags = SW_PROTO_TTY,
		.argv = argv_ok, .argc = 3, .cwd = "/", .policy_text = "{}",
		.policy_len = 2,
	};

	ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "RUN request: a terminal of its own and the "
			 "client's descriptor 1 (0, 1 and 2 are the terminal's)");
	sw_buf_free(&b);
}
END_TEST

START_TEST(test_run_encode_limits)
{
	struct sw_buf b = { 0 };
	struct sw_error err = { 0 };
	struct sw_run_request q = {
		.argv = argv_ok, .argc = 1, .cwd = "/",
		.policy_text = "", .policy_len = SW_PROTO_MAX_POLICY + 1,
	};

	ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), -EFBIG);
	ck_assert_str_eq(err.msg, "policy is 1048577 bytes (limit 1048576)");
	q.policy_len = 0;
	q.argc = 0;
	ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), -E2BIG);
	/* The client's own checks: no more than one message carries, in
	 * the order the daemon takes them. */
	{
		static uint32_t many[SW_PROTO_MAX_FDS + 1], twice[] = { 1, 1 };

		q.argc = 1;
		q.fds = many;
		q.n_fds = SW_PROTO_MAX_FDS + 1;
		ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), -E2BIG);
		ck_assert_str_eq(err.msg, "254 descriptors to hand over (limit "
				 "253, the kernel's SCM_RIGHTS limit per message)");
		q.fds = twice;
		q.n_fds = 2;
		ck_assert_int_eq(sw_run_request_encode(&b, &q, &err), -EINVAL);
	}
	sw_buf_free(&b);
}
END_TEST

/* EXITs a decoder refuses, and its words. */
static const struct {
	struct sw_exit_reply x;
	const char *msg;
} bad_exits[] = {
	{ { 256, 0, false }, "EXIT message: exit code 256 out of range 0..255" },
	{ { 130, 65, false }, "EXIT message: signal 65 with exit code 130 (expected 0, or 1..64 with exit code 128+signal)" },
	{ { 130, 15, false }, "EXIT message: signal 15 with exit code 130 (expected 0, or 1..64 with exit code 128+signal)" },
	{ { 1, 0, true }, "EXIT message: flags 0x1 (expected 0, or 0x1 with a signal)" },
};

START_TEST(test_small_messages)
{
	struct sw_buf b = { 0 };
	struct sw_msg_header h;
	struct sw_exit_reply x;
	struct sw_started st;
	struct sw_error_reply er;
	struct sw_error err = { 0 };
	uint64_t id;
	int v;

	ck_assert_int_eq(sw_msg_encode_kill(&b, 0x1122334455667788ull, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, true, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_kill(b.data + 16, h.length, &id, NULL), 0);
	ck_assert_uint_eq(id, 0x1122334455667788ull);

	ck_assert_int_eq(sw_msg_encode_signal(&b, 15, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_signal(b.data + 16, 4, &v, NULL), 0);
	ck_assert_int_eq(v, 15);
	ck_assert_int_eq(sw_msg_encode_signal(&b, 0, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_signal(b.data + 16, 4, &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "SIGNAL message: signal 0 out of range 1..64");
	ck_assert_int_eq(sw_msg_decode_signal(b.data + 16, 3, &v, &err), -EBADMSG);
	ck_assert_str_eq(err.msg,
		"SIGNAL message has 3 payload bytes (expected 4)");

	ck_assert_int_eq(sw_msg_encode_stopped(&b, SIGTSTP, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_stopped(b.data + 16, h.length, &v, NULL), 0);
	ck_assert_int_eq(v, SIGTSTP);
	ck_assert_int_eq(sw_msg_encode_stopped(&b, 65, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_stopped(b.data + 16, 4, &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "STOPPED message: signal 65 out of range 1..64");

	ck_assert_int_eq(sw_msg_encode_started(&b,
		&(struct sw_started){ 42, 1234, SW_PROTO_STARTED_TTY }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(h.length, 16);
	ck_assert_int_eq(sw_msg_decode_started(b.data + 16, h.length, &st, NULL), 0);
	ck_assert_uint_eq(st.session_id, 42);
	ck_assert_uint_eq(st.pid, 1234);
	ck_assert_uint_eq(st.flags, SW_PROTO_STARTED_TTY);
	ck_assert_int_eq(sw_msg_encode_started(&b,
		&(struct sw_started){ 42, 1234, 2 }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_started(b.data + 16, 16, &st, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "STARTED: flags 0x2 (known: 0x1)");

	ck_assert_int_eq(sw_msg_encode_exit(&b, &(struct sw_exit_reply){
		.exit_code = 137 }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(h.length, 12);
	ck_assert_int_eq(sw_msg_decode_exit(b.data + 16, 12, &x, NULL), 0);
	ck_assert_uint_eq(x.exit_code, 137);
	ck_assert_uint_eq(x.signal, 0);
	ck_assert(!x.core);
	ck_assert_int_eq(sw_msg_encode_exit(&b, &(struct sw_exit_reply){
		.exit_code = 139, .signal = 11, .core = true }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_exit(b.data + 16, 12, &x, NULL), 0);
	ck_assert_uint_eq(x.exit_code, 139);
	ck_assert_uint_eq(x.signal, 11);
	ck_assert(x.core);
	/* What a client could not die of, or says two things. */
	for (size_t i = 0; i < sizeof(bad_exits) / sizeof(bad_exits[0]); i++) {
		ck_assert_int_eq(sw_msg_encode_exit(&b, &bad_exits[i].x, NULL), 0);
		ck_assert_int_eq(sw_msg_decode_exit(b.data + 16, 12, &x, &err),
				 -EBADMSG);
		ck_assert_str_eq(err.msg, bad_exits[i].msg);
	}
	ck_assert_int_eq(sw_msg_decode_exit(b.data + 16, 4, &x, &err), -EBADMSG);

	ck_assert_int_eq(sw_msg_encode_error(&b, ENOENT, 127,
		"foo: command not found", NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_error(b.data + 16, h.length, &er, NULL), 0);
	ck_assert_int_eq(er.code, ENOENT);
	ck_assert_uint_eq(er.exit_code, 127);
	ck_assert_str_eq(er.msg, "foo: command not found");
	sw_buf_free(&b);
}
END_TEST

/* SANDBOX (client -> daemon): a round trip, the closed set of flags,
 * absolute paths only, port ranges checked, nothing after its end. */
START_TEST(test_sandbox)
{
	struct sw_port_range c[2] = { { 443, 443 }, { 8000, 8100 } }, bad = { 9, 8 };
	struct sw_buf b = { 0 };
	struct sw_msg_header h;
	struct sw_error err = { 0 };
	struct sw_sandbox_request q = { 0 };

	ck_assert_int_eq(sw_msg_encode_sandbox(&b, &(struct sw_sandbox_request){
		.flags = SW_PROTO_SANDBOX_NET, .dir = "/w", .tmpdir = "/tmp/t",
		.connect = c, .n_connect = 2 }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, true, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, &err), -EOPNOTSUPP);
	ck_assert_int_eq(sw_msg_decode_sandbox(b.data + 16, h.length, &q, NULL), 0);
	ck_assert_str_eq(q.dir, "/w");
	ck_assert_str_eq(q.tmpdir, "/tmp/t");
	ck_assert_uint_eq(q.n_connect, 2);
	ck_assert_uint_eq(q.connect[1].first, 8000);
	ck_assert_uint_eq(q.connect[1].last, 8100);
	ck_assert_uint_eq(q.n_bind, 0);
	sw_sandbox_request_clear(&q);
	ck_assert_int_eq(sw_msg_decode_sandbox(b.data + 16, h.length - 1, &q, &err), -EBADMSG);
	ck_assert_ptr_null(q.dir);

	ck_assert_int_eq(sw_msg_encode_sandbox(&b, &(struct sw_sandbox_request){
		.flags = 0x2, .dir = "/w" }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_sandbox(b.data + 16, b.len - 16, &q, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "SANDBOX request: unknown flags 0x2");
	ck_assert_int_eq(sw_msg_encode_sandbox(&b, &(struct sw_sandbox_request){
		.dir = "w" }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_sandbox(b.data + 16, b.len - 16, &q, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "SANDBOX request: the workspace and the temporary directory must be absolute paths");
	ck_assert_int_eq(sw_msg_encode_sandbox(&b, &(struct sw_sandbox_request){
		.dir = "", .bind = &bad, .n_bind = 1 }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_sandbox(b.data + 16, b.len - 16, &q, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "SANDBOX request: port range 9-8");
	sw_buf_free(&b);
}
END_TEST

/* RECORD (client -> daemon) and REPORT (daemon -> client): round trips,
 * directions, the closed set of flags, the gate's range, the bounds. */
START_TEST(test_record_report)
{
	struct sw_buf b = { 0 };
	struct sw_msg_header h;
	struct sw_error err = { 0 };
	struct sw_record_request rq;
	struct sw_report_reply rr = { 0 };
	char *big;

	ck_assert_int_eq(sw_msg_encode_record(&b, &(struct sw_record_request){
		SW_PROTO_RECORD_COMPLAIN | SW_PROTO_RECORD_REPORT, 122 }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, true, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, &err), -EOPNOTSUPP);
	ck_assert_int_eq(sw_msg_decode_record(b.data + 16, h.length, &rq, NULL), 0);
	ck_assert_uint_eq(rq.flags, SW_PROTO_RECORD_COMPLAIN | SW_PROTO_RECORD_REPORT);
	ck_assert_uint_eq(rq.gate, 122);
	ck_assert_int_eq(sw_msg_decode_record(b.data + 16, 7, &rq, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "RECORD message has 7 payload bytes (expected 8)");
	for (uint32_t gate = 125; gate <= 256; gate += gate == 127 ? 129 : 1) {
		ck_assert_int_eq(sw_msg_encode_record(&b, &(struct sw_record_request){
			0, gate }, NULL), 0);
		ck_assert_int_eq(sw_msg_decode_record(b.data + 16, 8, &rq, &err), -EBADMSG);
	}
	ck_assert_int_eq(sw_msg_encode_record(&b, &(struct sw_record_request){
		0x8, 0 }, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_record(b.data + 16, 8, &rq, &err), -EBADMSG);
	ck_assert_str_eq(err.msg, "RECORD request: unknown flags 0x8");

	ck_assert_int_eq(sw_msg_encode_report(&b, &(struct sw_report_reply){
		3, "  unshare ...\n", "{\"sysward_report\": 1}\n" }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, true, &h, &err), -EOPNOTSUPP);
	ck_assert_int_eq(sw_msg_decode_report(b.data + 16, h.length, &rr, NULL), 0);
	ck_assert_uint_eq(rr.policy_refusals, 3);
	ck_assert_str_eq(rr.summary, "  unshare ...\n");
	ck_assert_str_eq(rr.json, "{\"sysward_report\": 1}\n");
	sw_report_reply_clear(&rr);
	ck_assert_int_eq(sw_msg_decode_report(b.data + 16, h.length - 1, &rr, &err), -EBADMSG);
	ck_assert_ptr_null(rr.summary);
	/* A report over the bound is refused whole, never cut. */
	big = malloc(SW_PROTO_MAX_REPORT + 2);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', SW_PROTO_MAX_REPORT + 1);
	big[SW_PROTO_MAX_REPORT + 1] = '\0';
	ck_assert_int_eq(sw_msg_encode_report(&b, &(struct sw_report_reply){
		0, "", big }, &err), -EMSGSIZE);
	big[SW_PROTO_MAX_REPORT] = '\0';
	ck_assert_int_eq(sw_msg_encode_report(&b, &(struct sw_report_reply){
		0, "", big }, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	free(big);
	sw_buf_free(&b);
}
END_TEST

/* An error message longer than the cap is cut, never overflows. */
START_TEST(test_error_capped)
{
	struct sw_buf b = { 0 };
	struct sw_msg_header h;
	struct sw_error_reply er;
	char big[5000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(sw_msg_encode_error(&b, EIO, 125, big, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_uint_eq(h.length, 12 + SW_PROTO_MAX_ERROR_MSG);
	ck_assert_int_eq(sw_msg_decode_error(b.data + 16, h.length, &er, NULL), 0);
	ck_assert_uint_eq(strlen(er.msg), SW_PROTO_MAX_ERROR_MSG);
	sw_buf_free(&b);
}
END_TEST

/* The errno of an ERROR reply is a positive errno or the message is
 * malformed (found by tests/fuzz/proto_fuzz.c: 0x80000002 decoded as a
 * negative "errno"). */
START_TEST(test_error_errno_range)
{
	static const uint32_t bad[] = { 0, 4096, 0x80000002u, 0xffffffffu };
	static const uint32_t good[] = { 1, EPERM, 4095 };
	struct sw_error_reply er;
	struct sw_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]) + sizeof(good) / sizeof(good[0]); i++) {
		bool ok = i >= sizeof(bad) / sizeof(bad[0]);
		uint32_t code = ok ? good[i - sizeof(bad) / sizeof(bad[0])] : bad[i];
		struct sw_buf b = { 0 };

		sw_buf_put_u32(&b, code);
		sw_buf_put_u32(&b, 125);
		sw_buf_put_str(&b, "m", SW_PROTO_MAX_ERROR_MSG);
		ck_assert(!b.oom);
		sw_error_clear(&err);
		if (ok) {
			ck_assert_int_eq(sw_msg_decode_error(b.data, b.len, &er, &err), 0);
			ck_assert_int_eq(er.code, (int)code);
		} else {
			ck_assert_int_eq(sw_msg_decode_error(b.data, b.len, &er, &err), -EBADMSG);
			ck_assert_ptr_nonnull(strstr(err.msg, "not one of 1..4095"));
		}
		sw_buf_free(&b);
	}
}
END_TEST

START_TEST(test_ps_roundtrip)
{
	struct sw_buf b = { 0 };
	struct sw_msg_header h;
	struct sw_ps_entry in[2] = {
		{ 1, 100, 0, 5, 1700000000, "/bin/true", "allow.json" },
		{ 2, 200, 65534, 0, 1700000001, "sleep", "" },
	};
	struct sw_ps_entry *out = NULL;
	size_t n = 0;

	ck_assert_int_eq(sw_msg_encode_ps_reply(&b, in, 2, NULL), 0);
	ck_assert_int_eq(sw_msg_header_decode(b.data, false, &h, NULL), 0);
	ck_assert_int_eq(sw_msg_decode_ps_reply(b.data + 16, h.length, &out,
						&n, NULL), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(out[1].uid, 65534);
	ck_assert_uint_eq(out[0].decisions, 5);
	ck_assert_str_eq(out[0].program, "/bin/true");
	ck_assert_str_eq(out[0].policy, "allow.json");
	ck_assert_str_eq(out[1].policy, "");
	/* truncated reply */
	ck_assert_int_eq(sw_msg_decode_ps_reply(b.data + 16, h.length - 1,
						&out, &n, NULL), -EBADMSG);
	free(out);
	sw_buf_free(&b);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("messages");

	tcase_add_loop_test(tc, test_header, 0,
		sizeof(header_cases) / sizeof(header_cases[0]));
	tcase_add_test(tc, test_header_roundtrip);
	tcase_add_test(tc, test_run_roundtrip);
	tcase_add_test(tc, test_run_truncated);
	tcase_add_loop_test(tc, test_run_bounds, 0,
			    sizeof(bounds_cases) / sizeof(bounds_cases[0]));
	tcase_add_loop_test(tc, test_run_fds, 0,
			    sizeof(fds_cases) / sizeof(fds_cases[0]));
	tcase_add_test(tc, test_run_tty_roundtrip);
	tcase_add_loop_test(tc, test_run_tty, 0,
			    sizeof(tty_cases) / sizeof(tty_cases[0]));
	tcase_add_test(tc, test_run_tty_encode);
	tcase_add_test(tc, test_run_encode_limits);
	tcase_add_test(tc, test_small_messages);
	tcase_add_test(tc, test_record_report);
	tcase_add_test(tc, test_sandbox);
	tcase_add_test(tc, test_error_capped);
	tcase_add_test(tc, test_error_errno_range);
	tcase_add_test(tc, test_ps_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(proto_suite());
}
