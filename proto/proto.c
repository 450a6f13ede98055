// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syswardd wire protocol: encode, decode and bound every message.  See
 * docs/protocol.md.  Pure functions first, then the blocking transport the
 * client uses.
 */
#include "sysward/proto.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "sysward/cleanup.h"

/* ---- little-endian helpers -------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* ---- types and bounds -------------------------------------------------- */

static const struct {
	uint16_t type;
	const char *name;
	bool to_daemon;
	size_t max;
} types[] = {
	{ SW_MSG_RUN, "RUN", true, SW_PROTO_MAX_RUN },
	{ SW_MSG_PS, "PS", true, 0 },
	{ SW_MSG_KILL, "KILL", true, 8 },
	{ SW_MSG_SIGNAL, "SIGNAL", true, 4 },
	{ SW_MSG_RECORD, "RECORD", true, 8 },
	{ SW_MSG_SANDBOX, "SANDBOX", true, SW_PROTO_MAX_SANDBOX },
	{ SW_MSG_STARTED, "STARTED", false, 16 },
	{ SW_MSG_EXIT, "EXIT", false, 12 },
	{ SW_MSG_ERROR, "ERROR", false, 12 + SW_PROTO_MAX_ERROR_MSG },
	{ SW_MSG_PS_REPLY, "PS_REPLY", false, SW_PROTO_MAX_PS_REPLY },
	{ SW_MSG_OK, "OK", false, 0 },
	{ SW_MSG_STOPPED, "STOPPED", false, 4 },
	{ SW_MSG_REPORT, "REPORT", false,
	  8 + 4 + SW_PROTO_MAX_SUMMARY + 4 + SW_PROTO_MAX_REPORT },
};

#define N_TYPES (sizeof(types) / sizeof(types[0]))

static int type_index(uint16_t type)
{
	for (size_t i = 0; i < N_TYPES; i++)
		if (types[i].type == type)
			return (int)i;
	return -1;
}

const char *sw_msg_type_name(uint16_t type)
{
	int i = type_index(type);

	return i < 0 ? NULL : types[i].name;
}

size_t sw_msg_max_length(uint16_t type)
{
	int i = type_index(type);

	return i < 0 ? 0 : types[i].max;
}

void sw_msg_header_encode(uint8_t out[SW_PROTO_HEADER_SIZE], uint16_t type,
			  uint32_t length)
{
	put_le32(out, SW_PROTO_MAGIC);
	out[4] = SW_PROTO_VERSION & 0xff;
	out[5] = SW_PROTO_VERSION >> 8;
	out[6] = type & 0xff;
	out[7] = type >> 8;
	put_le32(out + 8, length);
	put_le32(out + 12, 0);
}

int sw_msg_header_decode(const uint8_t in[SW_PROTO_HEADER_SIZE],
			 bool to_daemon, struct sw_msg_header *ret,
			 struct sw_error *err)
{
	struct sw_msg_header h = {
		.magic = get_le32(in),
		.version = get_le16(in + 4),
		.type = get_le16(in + 6),
		.length = get_le32(in + 8),
		.flags = get_le32(in + 12),
	};
	int i;

	*ret = h;
	if (h.magic != SW_PROTO_MAGIC)
		return sw_error_set(err, EPROTO,
			"bad magic 0x%08x (expected 0x%08x, \"SWD1\"): not a "
			"sysward client or daemon", h.magic, SW_PROTO_MAGIC);
	if (h.version != SW_PROTO_VERSION)
		return sw_error_set(err, EPROTO,
			"protocol version %u not supported (this side speaks "
			"version %u); use sysward and syswardd of the same "
			"release", h.version, SW_PROTO_VERSION);
	if (h.flags != 0)
		return sw_error_set(err, EPROTO,
			"reserved header flags 0x%x must be 0", h.flags);
	i = type_index(h.type);
	if (i < 0 || types[i].to_daemon != to_daemon)
		return sw_error_set(err, EOPNOTSUPP,
			"unknown message type 0x%x (expected %s)", h.type,
			to_daemon ? "RUN, PS, KILL, SIGNAL or RECORD"
				  : "STARTED, EXIT, ERROR, PS_REPLY, OK, STOPPED or REPORT");
	if (h.length > types[i].max)
		return sw_error_set(err, EMSGSIZE,
			"%s message of %u bytes exceeds the limit of %zu bytes",
			types[i].name, h.length, types[i].max);
	return 0;
}

/* ---- output buffer ------------------------------------------------------ */

static bool buf_reserve(struct sw_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->oom)
		return false;
	if (n > SIZE_MAX - b->len) {
		b->oom = true;
		return false;
	}
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void sw_buf_put_bytes(struct sw_buf *b, const void *p, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void sw_buf_put_u32(struct sw_buf *b, uint32_t v)
{
	uint8_t le[4];

	put_le32(le, v);
	sw_buf_put_bytes(b, le, sizeof(le));
}

void sw_buf_put_u64(struct sw_buf *b, uint64_t v)
{
	sw_buf_put_u32(b, (uint32_t)v);
	sw_buf_put_u32(b, (uint32_t)(v >> 32));
}

void sw_buf_put_str(struct sw_buf *b, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	sw_buf_put_u32(b, (uint32_t)n);
	sw_buf_put_bytes(b, s, n);
}

void sw_buf_free(struct sw_buf *b)
{
	free(b->data);
	*b = (struct sw_buf){ 0 };
}

void sw_msg_begin(struct sw_buf *b, uint16_t type)
{
	uint8_t h[SW_PROTO_HEADER_SIZE];

	b->len = 0;
	b->oom = false;
	sw_msg_header_encode(h, type, 0);
	sw_buf_put_bytes(b, h, sizeof(h));
}

int sw_msg_finish(struct sw_buf *b, struct sw_error *err)
{
	size_t payload;
	uint16_t type;

	if (b->oom || b->len < SW_PROTO_HEADER_SIZE)
		return sw_error_set(err, ENOMEM, "build message: out of memory");
	payload = b->len - SW_PROTO_HEADER_SIZE;
	type = get_le16(b->data + 6);
	if (payload > sw_msg_max_length(type))
		return sw_error_set(err, EMSGSIZE,
			"%s message of %zu bytes exceeds the limit of %zu bytes",
			sw_msg_type_name(type) ?: "?", payload,
			sw_msg_max_length(type));
	put_le32(b->data + 8, (uint32_t)payload);
	return 0;
}

/* ---- reader ------------------------------------------------------------- */

int sw_reader_u32(struct sw_reader *r, uint32_t *ret)
{
	if (r->left < 4)
		return -EBADMSG;
	*ret = get_le32(r->p);
	r->p += 4;
	r->left -= 4;
	return 0;
}

int sw_reader_u64(struct sw_reader *r, uint64_t *ret)
{
	uint32_t lo, hi;

	if (r->left < 8)
		return -EBADMSG;
	sw_reader_u32(r, &lo);
	sw_reader_u32(r, &hi);
	*ret = (uint64_t)hi << 32 | lo;
	return 0;
}

/* -EBADMSG: truncated or contains NUL; -EMSGSIZE: longer than max. */
int sw_reader_str(struct sw_reader *r, size_t max, char **ret, size_t *ret_len)
{
	struct sw_reader save = *r;
	uint32_t n;
	char *s;

	if (sw_reader_u32(r, &n) < 0)
		return -EBADMSG;
	if (n > max) {
		*r = save;
		return -EMSGSIZE;
	}
	if (n > r->left || memchr(r->p, '\0', n)) {
		*r = save;
		return -EBADMSG;
	}
	s = malloc((size_t)n + 1);
	if (!s) {
		*r = save;
		return -ENOMEM;
	}
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	r->left -= n;
	*ret = s;
	if (ret_len)
		*ret_len = n;
	return 0;
}

/* ---- RUN ---------------------------------------------------------------- */

/* ---- RUN ---------------------------------------------------------------- */

_Static_assert(NCCS <= SW_PROTO_TTY_NCC, "struct termios' c_cc[] fits the wire");

void sw_proto_tty_from_termios(struct sw_proto_tty *t, const struct termios *tio)
{
	t->iflag = tio->c_iflag;
	t->oflag = tio->c_oflag;
	t->cflag = tio->c_cflag;
	t->lflag = tio->c_lflag;
	t->line = tio->c_line;
	t->ispeed = cfgetispeed(tio);
	t->ospeed = cfgetospeed(tio);
	memset(t->cc, 0, sizeof(t->cc));
	memcpy(t->cc, tio->c_cc, NCCS);
}

void sw_proto_tty_to_termios(const struct sw_proto_tty *t, struct termios *tio)
{
	memset(tio, 0, sizeof(*tio));
	tio->c_iflag = t->iflag;
	tio->c_oflag = t->oflag;
	tio->c_cflag = t->cflag;
	tio->c_lflag = t->lflag;
	tio->c_line = (cc_t)t->line;
	memcpy(tio->c_cc, t->cc, NCCS);
	cfsetispeed(tio, t->ispeed);
	cfsetospeed(tio, t->ospeed);
}

/* What a RUN's terminal may be: known flags, modes only with a terminal,
 * and then no descriptor of the client's at 0, 1 or 2 (the terminal's). */
static int tty_check(uint32_t flags, const uint32_t *fds, size_t n_fds,
		     struct sw_error *err)
{
	if (flags & ~SW_PROTO_TTY_FLAGS)
		return sw_error_set(err, EINVAL,
			"RUN request: terminal flags %#x (known: %#x)", flags,
			SW_PROTO_TTY_FLAGS);
	if ((flags & SW_PROTO_TTY_TERMIOS) && !(flags & SW_PROTO_TTY))
		return sw_error_set(err, EBADMSG,
			"RUN request: a terminal's modes without a terminal");
	if ((flags & SW_PROTO_TTY) && n_fds && fds[0] <= 2)
		return sw_error_set(err, EBADMSG,
			"RUN request: a terminal of its own and the client's "
			"descriptor %u (0, 1 and 2 are the terminal's)", fds[0]);
	return 0;
}

static void put_tty(struct sw_buf *b, const struct sw_proto_tty *t)
{
	uint8_t ws[8];

	put_le16(ws, t->rows);
	put_le16(ws + 2, t->cols);
	put_le16(ws + 4, t->xpixel);
	put_le16(ws + 6, t->ypixel);
	sw_buf_put_bytes(b, ws, sizeof(ws));
	sw_buf_put_u32(b, t->iflag);
	sw_buf_put_u32(b, t->oflag);
	sw_buf_put_u32(b, t->cflag);
	sw_buf_put_u32(b, t->lflag);
	sw_buf_put_u32(b, t->line);
	sw_buf_put_u32(b, t->ispeed);
	sw_buf_put_u32(b, t->ospeed);
	sw_buf_put_bytes(b, t->cc, sizeof(t->cc));
}

static int get_tty(struct sw_reader *rd, uint32_t flags, struct sw_proto_tty *t,
		   struct sw_error *err)
{
	uint32_t *f[] = { &t->iflag, &t->oflag, &t->cflag, &t->lflag, &t->line,
			  &t->ispeed, &t->ospeed };

	if (rd->left < SW_PROTO_TTY_SIZE)
		return sw_error_set(err, EBADMSG, "RUN request: truncated in the terminal");
	t->rows = get_le16(rd->p);
	t->cols = get_le16(rd->p + 2);
	t->xpixel = get_le16(rd->p + 4);
	t->ypixel = get_le16(rd->p + 6);
	rd->p += 8;
	rd->left -= 8;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		sw_reader_u32(rd, f[i]);
	memcpy(t->cc, rd->p, sizeof(t->cc));
	rd->p += sizeof(t->cc);
	rd->left -= sizeof(t->cc);
	/* Without modes, none: a fresh terminal's own. */
	if (!(flags & SW_PROTO_TTY_TERMIOS) &&
	    (t->iflag | t->oflag | t->cflag | t->lflag | t->line | t->ispeed | t->ospeed))
		return sw_error_set(err, EBADMSG,
			"RUN request: a terminal's modes without SW_PROTO_TTY_TERMIOS");
	if (t->line > 255)
		return sw_error_set(err, EINVAL,
			"RUN request: line discipline %u out of range 0..255", t->line);
	return 0;
}

int sw_run_request_encode(struct sw_buf *b, const struct sw_run_request *req,
			  struct sw_error *err)
{
	size_t total = 0;

	if (req->argc < 1 || req->argc > SW_PROTO_MAX_ARGS)
		return sw_error_set(err, E2BIG,
			"%zu arguments (expected 1 to %d)", req->argc,
			SW_PROTO_MAX_ARGS);
	if (req->envc > SW_PROTO_MAX_ENV)
		return sw_error_set(err, E2BIG,
			"%zu environment variables (limit %d)", req->envc,
			SW_PROTO_MAX_ENV);
	for (size_t i = 0; i < req->argc + req->envc; i++) {
		const char *s = i < req->argc ? req->argv[i]
					      : req->envp[i - req->argc];
		size_t n = strlen(s);

		if (n > SW_PROTO_MAX_STRING)
			return sw_error_set(err, E2BIG,
				"%s %zu is %zu bytes long (limit %d)",
				i < req->argc ? "argument" : "environment "
				"variable", i < req->argc ? i : i - req->argc,
				n, SW_PROTO_MAX_STRING);
		total += n;
	}
	if (total > SW_PROTO_MAX_ARGV_ENV)
		return sw_error_set(err, E2BIG,
			"arguments and environment take %zu bytes (limit %u)",
			total, SW_PROTO_MAX_ARGV_ENV);
	if (!req->cwd || strlen(req->cwd) > SW_PROTO_MAX_CWD)
		return sw_error_set(err, ENAMETOOLONG,
			"working directory is longer than %d bytes",
			SW_PROTO_MAX_CWD);
	if (req->policy_len > SW_PROTO_MAX_POLICY)
		return sw_error_set(err, EFBIG,
			"policy is %zu bytes (limit %u)", req->policy_len,
			SW_PROTO_MAX_POLICY);
	if (req->n_fds > SW_PROTO_MAX_FDS)
		return sw_error_set(err, E2BIG,
			"%zu descriptors to hand over (limit %u, the kernel's "
			"SCM_RIGHTS limit per message)", req->n_fds,
			SW_PROTO_MAX_FDS);
	for (size_t i = 0; i < req->n_fds; i++)
		if (req->fds[i] > INT_MAX || (i && req->fds[i] <= req->fds[i - 1]))
			return sw_error_set(err, EINVAL,
				"descriptor numbers must be increasing, each at "
				"most %d", INT_MAX);
	if (tty_check(req->tty_flags, req->fds, req->n_fds, err) < 0)
		return -err->code;

	sw_msg_begin(b, SW_MSG_RUN);
	sw_buf_put_u64(b, req->caps);
	sw_buf_put_u32(b, req->umask & 0777);
	sw_buf_put_u64(b, req->sig_ignored & ~SW_PROTO_SIG_FIXED);
	sw_buf_put_u64(b, req->sig_blocked & ~SW_PROTO_SIG_FIXED);
	sw_buf_put_u32(b, (uint32_t)req->n_fds);
	for (size_t i = 0; i < req->n_fds; i++)
		sw_buf_put_u32(b, req->fds[i]);
	sw_buf_put_u32(b, req->tty_flags);
	if (req->tty_flags & SW_PROTO_TTY)
		put_tty(b, &req->tty);
	sw_buf_put_u32(b, (uint32_t)req->argc);
	sw_buf_put_u32(b, (uint32_t)req->envc);
	for (size_t i = 0; i < req->argc; i++)
		sw_buf_put_str(b, req->argv[i], SW_PROTO_MAX_STRING);
	for (size_t i = 0; i < req->envc; i++)
		sw_buf_put_str(b, req->envp[i], SW_PROTO_MAX_STRING);
	sw_buf_put_str(b, req->cwd, SW_PROTO_MAX_CWD);
	sw_buf_put_str(b, req->policy_name ?: "", SW_PROTO_MAX_NAME);
	sw_buf_put_u32(b, (uint32_t)req->policy_len);
	sw_buf_put_bytes(b, req->policy_text, req->policy_len);
	return sw_msg_finish(b, err);
}

void sw_run_request_clear(struct sw_run_request *req)
{
	if (req->argv)
		for (size_t i = 0; i < req->argc; i++)
			free(req->argv[i]);
	if (req->envp)
		for (size_t i = 0; i < req->envc; i++)
			free(req->envp[i]);
	free(req->argv);
	free(req->envp);
	free(req->fds);
	free(req->cwd);
	free(req->policy_name);
	free(req->policy_text);
	*req = (struct sw_run_request){ 0 };
}

static int bad_field(struct sw_error *err, int r, const char *field,
		     size_t index, size_t max)
{
	if (r == -ENOMEM)
		return sw_error_set(err, ENOMEM, "RUN request: out of memory");
	if (r == -EMSGSIZE)
		return sw_error_set(err, EMSGSIZE,
			"RUN request: %s[%zu] is longer than %zu bytes", field,
			index, max);
	return sw_error_set(err, EBADMSG,
		"RUN request: %s[%zu] is truncated or contains a NUL byte",
		field, index);
}

int sw_run_request_decode(const uint8_t *payload, size_t len,
			  struct sw_run_request *ret, struct sw_error *err)
{
	struct sw_reader rd = { payload, len };
	struct sw_run_request q = { 0 };
	uint32_t argc, envc, plen, nfds;
	size_t total = 0, n;
	int r;

	if (sw_reader_u64(&rd, &q.caps) < 0 || sw_reader_u32(&rd, &q.umask) < 0 ||
	    sw_reader_u64(&rd, &q.sig_ignored) < 0 ||
	    sw_reader_u64(&rd, &q.sig_blocked) < 0 ||
	    sw_reader_u32(&rd, &nfds) < 0)
		return sw_error_set(err, EBADMSG,
			"RUN request: truncated before the descriptor count");
	if (q.umask > 0777)
		return sw_error_set(err, EINVAL,
			"RUN request: umask %#o out of range 0..0777", q.umask);
	if ((q.sig_ignored | q.sig_blocked) & SW_PROTO_SIG_FIXED)
		return sw_error_set(err, EINVAL,
			"RUN request: SIGKILL or SIGSTOP ignored or blocked "
			"(no process can have them so)");
	if (nfds > SW_PROTO_MAX_FDS)
		return sw_error_set(err, E2BIG,
			"RUN request: %u descriptors (limit %u)", nfds,
			SW_PROTO_MAX_FDS);
	q.fds = calloc(nfds ? nfds : 1, sizeof(*q.fds));
	if (!q.fds)
		return sw_error_set(err, ENOMEM, "RUN request: out of memory");
	for (; q.n_fds < nfds; q.n_fds++) {
		uint32_t v;

		if (sw_reader_u32(&rd, &v) < 0) {
			r = sw_error_set(err, EBADMSG,
				"RUN request: truncated in the descriptor numbers");
			goto fail;
		}
		if (v > INT_MAX || (q.n_fds && v <= q.fds[q.n_fds - 1])) {
			r = sw_error_set(err, EBADMSG,
				"RUN request: descriptor number %u after %u "
				"(increasing, at most %d)", v,
				q.n_fds ? q.fds[q.n_fds - 1] : 0, INT_MAX);
			goto fail;
		}
		q.fds[q.n_fds] = v;
	}
	if (sw_reader_u32(&rd, &q.tty_flags) < 0) {
		r = sw_error_set(err, EBADMSG,
			"RUN request: truncated before the terminal flags");
		goto fail;
	}
	r = tty_check(q.tty_flags, q.fds, q.n_fds, err);
	if (r == 0 && (q.tty_flags & SW_PROTO_TTY))
		r = get_tty(&rd, q.tty_flags, &q.tty, err);
	if (r < 0)
		goto fail;
	if (sw_reader_u32(&rd, &argc) < 0 || sw_reader_u32(&rd, &envc) < 0) {
		r = sw_error_set(err, EBADMSG,
			"RUN request: truncated before the argument counts");
		goto fail;
	}
	if (argc < 1 || argc > SW_PROTO_MAX_ARGS) {
		r = sw_error_set(err, E2BIG,
			"RUN request: argc %u out of range 1..%d", argc,
			SW_PROTO_MAX_ARGS);
		goto fail;
	}
	if (envc > SW_PROTO_MAX_ENV) {
		r = sw_error_set(err, E2BIG,
			"RUN request: envc %u over the limit %d", envc,
			SW_PROTO_MAX_ENV);
		goto fail;
	}
	/* Each string costs at least its 4-byte length: reject impossible
	 * counts before allocating for them. */
	if ((size_t)argc + envc > rd.left / 4) {
		r = sw_error_set(err, EBADMSG,
			"RUN request: argc %u + envc %u do not fit in %zu bytes",
			argc, envc, rd.left);
		goto fail;
	}
	q.argv = calloc((size_t)argc + 1, sizeof(char *));
	q.envp = calloc((size_t)envc + 1, sizeof(char *));
	if (!q.argv || !q.envp) {
		r = sw_error_set(err, ENOMEM, "RUN request: out of memory");
		goto fail;
	}
	for (; q.argc < argc; q.argc++) {
		r = sw_reader_str(&rd, SW_PROTO_MAX_STRING, &q.argv[q.argc], &n);
		if (r < 0) {
			r = bad_field(err, r, "argv", q.argc, SW_PROTO_MAX_STRING);
			goto fail;
		}
		total += n;
	}
	for (; q.envc < envc; q.envc++) {
		r = sw_reader_str(&rd, SW_PROTO_MAX_STRING, &q.envp[q.envc], &n);
		if (r < 0) {
			r = bad_field(err, r, "env", q.envc, SW_PROTO_MAX_STRING);
			goto fail;
		}
		total += n;
	}
	if (total > SW_PROTO_MAX_ARGV_ENV) {
		r = sw_error_set(err, E2BIG,
			"RUN request: arguments and environment take %zu bytes "
			"(limit %u)", total, SW_PROTO_MAX_ARGV_ENV);
		goto fail;
	}
	r = sw_reader_str(&rd, SW_PROTO_MAX_CWD, &q.cwd, &n);
	if (r < 0) {
		r = bad_field(err, r, "cwd", 0, SW_PROTO_MAX_CWD);
		goto fail;
	}
	if (q.cwd[0] != '/') {
		r = sw_error_set(err, EBADMSG,
			"RUN request: cwd \"%.256s\" is not an absolute path",
			q.cwd);
		goto fail;
	}
	r = sw_reader_str(&rd, SW_PROTO_MAX_NAME, &q.policy_name, NULL);
	if (r < 0) {
		r = bad_field(err, r, "policy_name", 0, SW_PROTO_MAX_NAME);
		goto fail;
	}
	/* The policy text may hold any bytes the JSON parser then judges,
	 * but is NUL-terminated here for it. */
	if (sw_reader_u32(&rd, &plen) < 0) {
		r = sw_error_set(err, EBADMSG,
			"RUN request: truncated before the policy length");
		goto fail;
	}
	if (plen > SW_PROTO_MAX_POLICY) {
		r = sw_error_set(err, EFBIG,
			"RUN request: policy of %u bytes exceeds the limit of "
			"%u bytes", plen, SW_PROTO_MAX_POLICY);
		goto fail;
	}
	if (plen != rd.left) {
		r = sw_error_set(err, EBADMSG,
			"RUN request: policy length %u but %zu bytes remain",
			plen, rd.left);
		goto fail;
	}
	q.policy_text = malloc((size_t)plen + 1);
	if (!q.policy_text) {
		r = sw_error_set(err, ENOMEM, "RUN request: out of memory");
		goto fail;
	}
	memcpy(q.policy_text, rd.p, plen);
	q.policy_text[plen] = '\0';
	q.policy_len = plen;
	*ret = q;
	return 0;
fail:
	sw_run_request_clear(&q);
	return r;
}

/* ---- small messages ----------------------------------------------------- */

int sw_msg_encode_empty(struct sw_buf *b, uint16_t type, struct sw_error *err)
{
	sw_msg_begin(b, type);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_record(struct sw_buf *b, const struct sw_record_request *q,
			 struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_RECORD);
	sw_buf_put_u32(b, q->flags);
	sw_buf_put_u32(b, q->gate);
	return sw_msg_finish(b, err);
}

static void put_ranges(struct sw_buf *b, const struct sw_port_range *v, size_t n)
{
	sw_buf_put_u32(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		sw_buf_put_u32(b, (uint32_t)v[i].first << 16 | v[i].last);
}

int sw_msg_encode_sandbox(struct sw_buf *b, const struct sw_sandbox_request *q,
			  struct sw_error *err)
{
	if (q->n_connect > SW_PROTO_MAX_SANDBOX_RANGES ||
	    q->n_bind > SW_PROTO_MAX_SANDBOX_RANGES)
		return sw_error_set(err, E2BIG, "SANDBOX: more than %d port ranges",
				    SW_PROTO_MAX_SANDBOX_RANGES);
	sw_msg_begin(b, SW_MSG_SANDBOX);
	sw_buf_put_u32(b, q->flags);
	sw_buf_put_str(b, q->dir ? q->dir : "", SW_PROTO_MAX_CWD);
	sw_buf_put_str(b, q->tmpdir ? q->tmpdir : "", SW_PROTO_MAX_CWD);
	put_ranges(b, q->connect, q->n_connect);
	put_ranges(b, q->bind, q->n_bind);
	return sw_msg_finish(b, err);
}

static int get_ranges(struct sw_reader *rd, struct sw_port_range **ret,
		      size_t *ret_n, struct sw_error *err)
{
	uint32_t n, v;

	if (sw_reader_u32(rd, &n) < 0 || n > SW_PROTO_MAX_SANDBOX_RANGES)
		return sw_error_set(err, EBADMSG,
				    "SANDBOX request: truncated, or more than %d port ranges",
				    SW_PROTO_MAX_SANDBOX_RANGES);
	*ret = calloc(n ? n : 1, sizeof(**ret));
	if (!*ret)
		return sw_error_set(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		if (sw_reader_u32(rd, &v) < 0)
			return sw_error_set(err, EBADMSG, "SANDBOX request: truncated");
		(*ret)[i] = (struct sw_port_range){ (uint16_t)(v >> 16), (uint16_t)v };
		if ((*ret)[i].first < 1 || (*ret)[i].first > (*ret)[i].last)
			return sw_error_set(err, EBADMSG,
					    "SANDBOX request: port range %u-%u",
					    (*ret)[i].first, (*ret)[i].last);
	}
	*ret_n = n;
	return 0;
}

void sw_sandbox_request_clear(struct sw_sandbox_request *q)
{
	free(q->dir);
	free(q->tmpdir);
	free(q->connect);
	free(q->bind);
	*q = (struct sw_sandbox_request){ 0 };
}

int sw_msg_decode_sandbox(const uint8_t *p, size_t len,
			  struct sw_sandbox_request *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	struct sw_sandbox_request q = { 0 };
	int r = -EBADMSG;

	if (sw_reader_u32(&rd, &q.flags) < 0 ||
	    sw_reader_str(&rd, SW_PROTO_MAX_CWD, &q.dir, NULL) < 0 ||
	    sw_reader_str(&rd, SW_PROTO_MAX_CWD, &q.tmpdir, NULL) < 0) {
		sw_error_set(err, EBADMSG, "SANDBOX request: truncated");
		goto fail;
	}
	if (q.flags & ~SW_PROTO_SANDBOX_FLAGS) {
		sw_error_set(err, EBADMSG, "SANDBOX request: unknown flags 0x%x", q.flags);
		goto fail;
	}
	if ((q.dir[0] && q.dir[0] != '/') || (q.tmpdir[0] && q.tmpdir[0] != '/')) {
		sw_error_set(err, EBADMSG,
			     "SANDBOX request: the workspace and the temporary directory must be absolute paths");
		goto fail;
	}
	r = get_ranges(&rd, &q.connect, &q.n_connect, err);
	if (r >= 0)
		r = get_ranges(&rd, &q.bind, &q.n_bind, err);
	if (r >= 0 && rd.left) {
		r = sw_error_set(err, EBADMSG, "SANDBOX request: %zu bytes after its end", rd.left);
	}
	if (r < 0)
		goto fail;
	*ret = q;
	return 0;
fail:
	sw_sandbox_request_clear(&q);
	return r < 0 ? r : -EBADMSG;
}

int sw_msg_encode_report(struct sw_buf *b, const struct sw_report_reply *r,
			 struct sw_error *err)
{
	size_t ls = strlen(r->summary), lj = strlen(r->json);

	/* Cut, a JSON document would be no report: refuse instead. */
	if (ls > SW_PROTO_MAX_SUMMARY || lj > SW_PROTO_MAX_REPORT)
		return sw_error_set(err, EMSGSIZE,
			"REPORT: summary of %zu bytes or report of %zu bytes over "
			"the limits (%u, %u)", ls, lj, SW_PROTO_MAX_SUMMARY,
			SW_PROTO_MAX_REPORT);
	sw_msg_begin(b, SW_MSG_REPORT);
	sw_buf_put_u64(b, r->policy_refusals);
	sw_buf_put_str(b, r->summary, SW_PROTO_MAX_SUMMARY);
	sw_buf_put_str(b, r->json, SW_PROTO_MAX_REPORT);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_kill(struct sw_buf *b, uint64_t session_id,
		       struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_KILL);
	sw_buf_put_u64(b, session_id);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_signal(struct sw_buf *b, int sig, struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_SIGNAL);
	sw_buf_put_u32(b, (uint32_t)sig);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_stopped(struct sw_buf *b, int sig, struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_STOPPED);
	sw_buf_put_u32(b, (uint32_t)sig);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_started(struct sw_buf *b, const struct sw_started *s,
			  struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_STARTED);
	sw_buf_put_u64(b, s->session_id);
	sw_buf_put_u32(b, s->pid);
	sw_buf_put_u32(b, s->flags);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_exit(struct sw_buf *b, const struct sw_exit_reply *x,
		       struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_EXIT);
	sw_buf_put_u32(b, x->exit_code);
	sw_buf_put_u32(b, x->signal);
	sw_buf_put_u32(b, x->core ? SW_PROTO_EXIT_CORE : 0);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_error(struct sw_buf *b, int code, int exit_code,
			const char *msg, struct sw_error *err)
{
	sw_msg_begin(b, SW_MSG_ERROR);
	sw_buf_put_u32(b, (uint32_t)code);
	sw_buf_put_u32(b, (uint32_t)exit_code);
	sw_buf_put_str(b, msg, SW_PROTO_MAX_ERROR_MSG);
	return sw_msg_finish(b, err);
}

int sw_msg_encode_ps_reply(struct sw_buf *b, const struct sw_ps_entry *e,
			   size_t n, struct sw_error *err)
{
	if (n > SW_PROTO_MAX_PS_ENTRIES)
		n = SW_PROTO_MAX_PS_ENTRIES;
	sw_msg_begin(b, SW_MSG_PS_REPLY);
	sw_buf_put_u32(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		sw_buf_put_u64(b, e[i].session_id);
		sw_buf_put_u32(b, e[i].pid);
		sw_buf_put_u32(b, e[i].uid);
		sw_buf_put_u64(b, e[i].decisions);
		sw_buf_put_u64(b, e[i].started);
		sw_buf_put_str(b, e[i].program, SW_PROTO_MAX_PS_STRING);
		sw_buf_put_str(b, e[i].policy, SW_PROTO_MAX_PS_STRING);
	}
	return sw_msg_finish(b, err);
}

static int exact_len(const char *what, size_t len, size_t want,
		     struct sw_error *err)
{
	if (len != want)
		return sw_error_set(err, EBADMSG,
			"%s message has %zu payload bytes (expected %zu)",
			what, len, want);
	return 0;
}

int sw_msg_decode_record(const uint8_t *p, size_t len,
			 struct sw_record_request *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	struct sw_record_request q = { 0 };
	int r = exact_len("RECORD", len, 8, err);

	if (r < 0)
		return r;
	sw_reader_u32(&rd, &q.flags);
	sw_reader_u32(&rd, &q.gate);
	if (q.flags & ~SW_PROTO_RECORD_FLAGS)
		return sw_error_set(err, EBADMSG,
			"RECORD request: unknown flags 0x%x", q.flags);
	/* sysward's own statuses must keep their meaning (the program
	 * did not run). */
	if (q.gate > 255 || (q.gate >= 125 && q.gate <= 127))
		return sw_error_set(err, EBADMSG,
			"RECORD request: gate status %u is not 0..255 or is "
			"sysward's own (125, 126, 127)", q.gate);
	*ret = q;
	return 0;
}

void sw_report_reply_clear(struct sw_report_reply *r)
{
	free(r->summary);
	free(r->json);
	r->summary = r->json = NULL;
}

int sw_msg_decode_report(const uint8_t *p, size_t len,
			 struct sw_report_reply *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	struct sw_report_reply r = { 0 };

	if (sw_reader_u64(&rd, &r.policy_refusals) < 0 ||
	    sw_reader_str(&rd, SW_PROTO_MAX_SUMMARY, &r.summary, NULL) < 0 ||
	    sw_reader_str(&rd, SW_PROTO_MAX_REPORT, &r.json, NULL) < 0 ||
	    rd.left != 0) {
		sw_report_reply_clear(&r);
		return sw_error_set(err, EBADMSG,
			"REPORT message of %zu bytes is malformed", len);
	}
	*ret = r;
	return 0;
}

int sw_msg_decode_kill(const uint8_t *p, size_t len, uint64_t *ret,
		       struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	int r = exact_len("KILL", len, 8, err);

	if (r < 0)
		return r;
	return sw_reader_u64(&rd, ret);
}

/* A signal number, 1..64: signal 0 only probes, above 64 there is none. */
static int decode_sig(const char *what, const uint8_t *p, size_t len,
		      int *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	uint32_t sig = 0;
	int r = exact_len(what, len, 4, err);

	if (r < 0)
		return r;
	sw_reader_u32(&rd, &sig);
	if (sig < 1 || sig > 64)
		return sw_error_set(err, EINVAL,
			"%s message: signal %u out of range 1..64", what, sig);
	*ret = (int)sig;
	return 0;
}

int sw_msg_decode_signal(const uint8_t *p, size_t len, int *ret,
			 struct sw_error *err)
{
	return decode_sig("SIGNAL", p, len, ret, err);
}

int sw_msg_decode_stopped(const uint8_t *p, size_t len, int *ret,
			  struct sw_error *err)
{
	return decode_sig("STOPPED", p, len, ret, err);
}

int sw_msg_decode_started(const uint8_t *p, size_t len, struct sw_started *ret,
			  struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	int r = exact_len("STARTED", len, 16, err);

	if (r < 0)
		return r;
	sw_reader_u64(&rd, &ret->session_id);
	sw_reader_u32(&rd, &ret->pid);
	sw_reader_u32(&rd, &ret->flags);
	if (ret->flags & ~SW_PROTO_STARTED_TTY)
		return sw_error_set(err, EBADMSG, "STARTED: flags %#x (known: %#x)",
				    ret->flags, SW_PROTO_STARTED_TTY);
	return 0;
}

int sw_msg_decode_exit(const uint8_t *p, size_t len,
		       struct sw_exit_reply *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	uint32_t code = 0, sig = 0, flags = 0;
	int r = exact_len("EXIT", len, 12, err);

	if (r < 0)
		return r;
	sw_reader_u32(&rd, &code);
	sw_reader_u32(&rd, &sig);
	sw_reader_u32(&rd, &flags);
	if (code > 255)
		return sw_error_set(err, EBADMSG,
			"EXIT message: exit code %u out of range 0..255", code);
	/* A death by a signal is one the client can die of, and its code
	 * is the number a shell would say for it. */
	if (sig > 64 || (sig && code != 128 + sig))
		return sw_error_set(err, EBADMSG,
			"EXIT message: signal %u with exit code %u (expected 0, or 1..64 with exit code 128+signal)",
			sig, code);
	if ((flags & ~SW_PROTO_EXIT_CORE) || ((flags & SW_PROTO_EXIT_CORE) && !sig))
		return sw_error_set(err, EBADMSG,
			"EXIT message: flags 0x%x (expected 0, or 0x%x with a signal)",
			flags, SW_PROTO_EXIT_CORE);
	*ret = (struct sw_exit_reply){
		.exit_code = code, .signal = sig,
		.core = flags & SW_PROTO_EXIT_CORE,
	};
	return 0;
}

int sw_msg_decode_error(const uint8_t *p, size_t len,
			struct sw_error_reply *ret, struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	uint32_t code, exit_code;
	cleanup_free char *msg = NULL;

	if (sw_reader_u32(&rd, &code) < 0 || sw_reader_u32(&rd, &exit_code) < 0 ||
	    sw_reader_str(&rd, SW_PROTO_MAX_ERROR_MSG, &msg, NULL) < 0 ||
	    rd.left != 0)
		return sw_error_set(err, EBADMSG,
			"ERROR message of %zu bytes is malformed", len);
	/* The errno travels on as a positive int (sw_error.code): a value
	 * that is not one would read as success or as a -errno return. */
	if (code < 1 || code > 4095)
		return sw_error_set(err, EBADMSG,
			"ERROR message carries errno %u, not one of 1..4095",
			code);
	if (exit_code > 255)
		exit_code = 125;
	ret->code = (int32_t)code;
	ret->exit_code = exit_code;
	snprintf(ret->msg, sizeof(ret->msg), "%s", msg);
	return 0;
}

int sw_msg_decode_ps_reply(const uint8_t *p, size_t len,
			   struct sw_ps_entry **ret, size_t *ret_n,
			   struct sw_error *err)
{
	struct sw_reader rd = { p, len };
	cleanup_free struct sw_ps_entry *e = NULL;
	uint32_t n;

	if (sw_reader_u32(&rd, &n) < 0 || n > SW_PROTO_MAX_PS_ENTRIES)
		return sw_error_set(err, EBADMSG,
			"PS_REPLY message: bad entry count");
	e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return sw_error_set(err, ENOMEM, "PS_REPLY: out of memory");
	for (uint32_t i = 0; i < n; i++) {
		cleanup_free char *prog = NULL, *pol = NULL;

		if (sw_reader_u64(&rd, &e[i].session_id) < 0 ||
		    sw_reader_u32(&rd, &e[i].pid) < 0 ||
		    sw_reader_u32(&rd, &e[i].uid) < 0 ||
		    sw_reader_u64(&rd, &e[i].decisions) < 0 ||
		    sw_reader_u64(&rd, &e[i].started) < 0 ||
		    sw_reader_str(&rd, SW_PROTO_MAX_PS_STRING, &prog, NULL) < 0 ||
		    sw_reader_str(&rd, SW_PROTO_MAX_PS_STRING, &pol, NULL) < 0)
			return sw_error_set(err, EBADMSG,
				"PS_REPLY message: entry %u is malformed", i);
		snprintf(e[i].program, sizeof(e[i].program), "%s", prog);
		snprintf(e[i].policy, sizeof(e[i].policy), "%s", pol);
	}
	if (rd.left != 0)
		return sw_error_set(err, EBADMSG,
			"PS_REPLY message: %zu trailing bytes", rd.left);
	*ret = TAKE_PTR(e);
	*ret_n = n;
	return 0;
}

/* ---- blocking transport ------------------------------------------------- */

int sw_proto_default_socket(bool for_daemon, char *buf, size_t size,
			    struct sw_error *err)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (geteuid() == 0 || !xdg || xdg[0] != '/') {
		if (for_daemon && geteuid() != 0)
			return sw_error_set(err, ENOENT,
				"XDG_RUNTIME_DIR is not set; give the socket "
				"path with --socket PATH");
		snprintf(buf, size, "/run/sysward.sock");
		return 0;
	}
	if ((size_t)snprintf(buf, size, "%s/sysward.sock", xdg) >= size)
		return sw_error_set(err, ENAMETOOLONG,
			"XDG_RUNTIME_DIR is too long for a socket path");
	/* A client without a per-user daemon talks to the system one. */
	if (!for_daemon && stat(buf, &st) < 0)
		snprintf(buf, size, "/run/sysward.sock");
	return 0;
}

int sw_proto_connect(const char *path, int *ret_fd, struct sw_error *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	cleanup_close int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return sw_error_set(err, ENAMETOOLONG,
			"socket path %s is longer than %zu bytes", path,
			sizeof(sa.sun_path) - 1);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "create Unix socket");
	while (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno == EINTR)
			continue;
		return sw_error_set_errno(err, errno, "connect to %s", path);
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int sw_proto_send(int fd, const struct sw_buf *msg, const int *fds,
		  size_t n_fds, struct sw_error *err)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SW_PROTO_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	size_t off = 0;

	if (n_fds > SW_PROTO_MAX_FDS)
		return sw_error_set(err, E2BIG,
			"%zu descriptors to pass (limit %u per message)",
			n_fds, SW_PROTO_MAX_FDS);
	while (off < msg->len) {
		struct iovec iov = { msg->data + off, msg->len - off };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t w;

		/* The fds ride with the first byte of the message. */
		if (off == 0 && n_fds > 0) {
			struct cmsghdr *c;

			memset(&ctl, 0, sizeof(ctl));
			mh.msg_control = ctl.buf;
			mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
			c = CMSG_FIRSTHDR(&mh);
			c->cmsg_level = SOL_SOCKET;
			c->cmsg_type = SCM_RIGHTS;
			c->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
			memcpy(CMSG_DATA(c), fds, sizeof(int) * n_fds);
		}
		w = sendmsg(fd, &mh, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return sw_error_set_errno(err, errno, "send request");
		}
		off += (size_t)w;
	}
	return 0;
}

/* n bytes; a descriptor that comes with them into *got_fd (the first:
 * others are closed), or closed without got_fd. */
static int read_full(int fd, uint8_t *p, size_t n, int *got_fd,
		     struct sw_error *err)
{
	size_t off = 0;

	while (off < n) {
		union {
			char buf[CMSG_SPACE(sizeof(int) * SW_PROTO_MAX_FDS)];
			struct cmsghdr align;
		} ctl;
		struct iovec iov = { p + off, n - off };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = ctl.buf,
				     .msg_controllen = sizeof(ctl.buf) };
		ssize_t r = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return sw_error_set_errno(err, errno, "receive reply");
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			for (size_t k = 0; k < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); k++) {
				int got;

				memcpy(&got, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
				if (got_fd && *got_fd < 0)
					*got_fd = got;
				else
					close(got);
			}
		}
		if (r == 0)
			return sw_error_set(err, ECONNRESET,
				off == 0 ? "connection closed"
					 : "connection closed in the middle of "
					   "a reply");
		off += (size_t)r;
	}
	return 0;
}

int sw_proto_recv_fd(int fd, struct sw_msg_header *ret_hdr,
		     uint8_t **ret_payload, int *ret_fd, struct sw_error *err)
{
	uint8_t h[SW_PROTO_HEADER_SIZE];
	cleanup_free uint8_t *payload = NULL;
	cleanup_close int got = -1;
	struct sw_msg_header hdr;
	int r;

	r = read_full(fd, h, sizeof(h), &got, err);
	if (r < 0)
		return r;
	r = sw_msg_header_decode(h, false, &hdr, err);
	if (r < 0)
		return r;
	payload = malloc(hdr.length ? hdr.length : 1);
	if (!payload)
		return sw_error_set(err, ENOMEM, "receive reply: out of memory");
	r = read_full(fd, payload, hdr.length, NULL, err);
	if (r < 0)
		return r;
	*ret_hdr = hdr;
	*ret_payload = TAKE_PTR(payload);
	if (ret_fd)
		*ret_fd = TAKE_FD(got);
	return 0;
}

int sw_proto_recv(int fd, struct sw_msg_header *ret_hdr, uint8_t **ret_payload,
		  struct sw_error *err)
{
	return sw_proto_recv_fd(fd, ret_hdr, ret_payload, NULL, err);
}
