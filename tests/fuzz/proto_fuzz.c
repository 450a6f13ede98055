// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the syswardd wire protocol (proto/proto.c):
 * the input is a byte stream as a peer would send it, frames of a 16-byte
 * header and a payload.  Every frame is decoded the way syswardd (first
 * input byte even) or the client (odd) decodes it: the header, the length
 * limit of its type, then the payload by type.  Whatever the bytes:
 *   - no crash, leak, hang or read past the input (ASan, UBSan);
 *   - a refusal is -errno with the error filled in (error.h's contract);
 *   - what decodes is well formed (argv NULL-ended, cwd absolute, policy
 *     text NUL-terminated at its length, ...) and survives a round trip:
 *     encode it again, decode that, and the two agree field by field.
 * Built with -fsanitize=fuzzer,address,undefined by run-fuzz.sh -T proto.
 *
 * Built without libFuzzer and with -DSW_PROTO_FUZZ_SEEDS, the same file
 * is a program that writes one valid stream per message type into the
 * directory it is given: the seed corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/proto.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

static void check_refusal(int r, const struct sw_error *err)
{
	check(r < 0);
	check(err->code == -r);
	check(memchr(err->msg, '\0', sizeof(err->msg)) != NULL);
	check(err->msg[0] != '\0');
}

static void same_strv(char **a, size_t na, char **b, size_t nb)
{
	check(na == nb);
	check(a[na] == NULL && b[nb] == NULL);
	for (size_t i = 0; i < na; i++)
		check(strcmp(a[i], b[i]) == 0);
}

static void run_request(const uint8_t *p, size_t len)
{
	struct sw_run_request q = { 0 }, q2 = { 0 };
	struct sw_buf b = { 0 };
	struct sw_error err;
	int r;

	sw_error_clear(&err);
	r = sw_run_request_decode(p, len, &q, &err);
	if (r < 0) {
		check_refusal(r, &err);
		return;
	}
	check(q.argc >= 1 && q.argc <= SW_PROTO_MAX_ARGS);
	check(q.envc <= SW_PROTO_MAX_ENV);
	check(q.cwd && q.cwd[0] == '/');
	check(q.umask <= 0777);
	check(q.n_fds <= SW_PROTO_MAX_FDS);
	for (size_t i = 0; i < q.n_fds; i++)
		check(q.fds[i] <= 0x7fffffff && (i == 0 || q.fds[i] > q.fds[i - 1]));
	check(q.policy_text && q.policy_text[q.policy_len] == '\0');

	r = sw_run_request_encode(&b, &q, &err);
	check(r == 0);
	check(b.len == SW_PROTO_HEADER_SIZE + len);
	check(memcmp(b.data + SW_PROTO_HEADER_SIZE, p, len) == 0);
	r = sw_run_request_decode(b.data + SW_PROTO_HEADER_SIZE, len, &q2, &err);
	check(r == 0);
	check(q.caps == q2.caps && q.umask == q2.umask &&
	      q.sig_ignored == q2.sig_ignored && q.sig_blocked == q2.sig_blocked);
	check(q.n_fds == q2.n_fds &&
	      (!q.n_fds || memcmp(q.fds, q2.fds, q.n_fds * sizeof(*q.fds)) == 0));
	same_strv(q.argv, q.argc, q2.argv, q2.argc);
	same_strv(q.envp, q.envc, q2.envp, q2.envc);
	check(strcmp(q.cwd, q2.cwd) == 0);
	check(strcmp(q.policy_name, q2.policy_name) == 0);
	check(q.policy_len == q2.policy_len &&
	      memcmp(q.policy_text, q2.policy_text, q.policy_len) == 0);
	sw_buf_free(&b);
	sw_run_request_clear(&q);
	sw_run_request_clear(&q2);
}

static void ps_reply(const uint8_t *p, size_t len)
{
	struct sw_ps_entry *e = NULL, *e2 = NULL;
	size_t n = 0, n2 = 0;
	struct sw_buf b = { 0 };
	struct sw_error err;
	int r;

	sw_error_clear(&err);
	r = sw_msg_decode_ps_reply(p, len, &e, &n, &err);
	if (r < 0) {
		check_refusal(r, &err);
		check(e == NULL);
		return;
	}
	check(n <= SW_PROTO_MAX_PS_ENTRIES);
	r = sw_msg_encode_ps_reply(&b, e, n, &err);
	check(r == 0);
	r = sw_msg_decode_ps_reply(b.data + SW_PROTO_HEADER_SIZE,
				   b.len - SW_PROTO_HEADER_SIZE, &e2, &n2, &err);
	check(r == 0 && n2 == n);
	for (size_t i = 0; i < n; i++) {
		check(e[i].session_id == e2[i].session_id && e[i].pid == e2[i].pid &&
		      e[i].uid == e2[i].uid && e[i].decisions == e2[i].decisions &&
		      e[i].started == e2[i].started);
		check(strcmp(e[i].program, e2[i].program) == 0);
		check(strcmp(e[i].policy, e2[i].policy) == 0);
	}
	sw_buf_free(&b);
	free(e);
	free(e2);
}

static void small_message(uint16_t type, const uint8_t *p, size_t len)
{
	struct sw_error err;
	struct sw_error_reply er;
	struct sw_started st;
	uint64_t id;
	int v, r;

	sw_error_clear(&err);
	switch (type) {
	case SW_MSG_KILL:
		r = sw_msg_decode_kill(p, len, &id, &err);
		break;
	case SW_MSG_SIGNAL:
		r = sw_msg_decode_signal(p, len, &v, &err);
		break;
	case SW_MSG_STOPPED:
		r = sw_msg_decode_stopped(p, len, &v, &err);
		if (r == 0)
			check(v >= 1 && v <= 64);
		break;
	case SW_MSG_STARTED:
		r = sw_msg_decode_started(p, len, &st, &err);
		break;
	case SW_MSG_EXIT: {
		struct sw_exit_reply x;

		r = sw_msg_decode_exit(p, len, &x, &err);
		if (r == 0)
			check(x.exit_code <= 255 && x.signal <= 64 &&
			      (!x.signal || x.exit_code == 128 + x.signal) &&
			      (!x.core || x.signal));
		break;
	}
	case SW_MSG_ERROR:
		r = sw_msg_decode_error(p, len, &er, &err);
		if (r == 0) {
			check(memchr(er.msg, '\0', sizeof(er.msg)) != NULL);
			check(er.code > 0 && er.exit_code <= 255);
		}
		break;
	case SW_MSG_RECORD: {
		struct sw_record_request rq;

		r = sw_msg_decode_record(p, len, &rq, &err);
		if (r == 0)
			check(!(rq.flags & ~SW_PROTO_RECORD_FLAGS) && rq.gate <= 255 &&
			      (rq.gate < 125 || rq.gate > 127));
		break;
	}
	case SW_MSG_REPORT: {
		struct sw_report_reply rr = { 0 };

		r = sw_msg_decode_report(p, len, &rr, &err);
		if (r == 0)
			check(strlen(rr.summary) <= SW_PROTO_MAX_SUMMARY &&
			      strlen(rr.json) <= SW_PROTO_MAX_REPORT);
		sw_report_reply_clear(&rr);
		break;
	}
	default:
		return;
	}
	if (r < 0)
		check_refusal(r, &err);
	else
		check(r == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool to_daemon;

	if (size < 1)
		return 0;
	to_daemon = !(data[0] & 1);
	data++, size--;
	/* At most 8 frames: a stream, not just one message. */
	for (int frames = 0; frames < 8 && size >= SW_PROTO_HEADER_SIZE; frames++) {
		struct sw_msg_header h;
		struct sw_error err;
		int r;

		sw_error_clear(&err);
		r = sw_msg_header_decode(data, to_daemon, &h, &err);
		if (r < 0) {
			check_refusal(r, &err);
			return 0;
		}
		check(h.length <= sw_msg_max_length(h.type));
		data += SW_PROTO_HEADER_SIZE, size -= SW_PROTO_HEADER_SIZE;
		if (h.length > size)
			return 0;	/* the peer would wait for more */
		if (h.type == SW_MSG_RUN)
			run_request(data, h.length);
		else if (h.type == SW_MSG_PS_REPLY)
			ps_reply(data, h.length);
		else
			small_message(h.type, data, h.length);
		data += h.length, size -= h.length;
	}
	return 0;
}

#ifdef SW_PROTO_FUZZ_SEEDS
static int write_seed(const char *dir, const char *name, uint8_t dir_bit,
		      const struct sw_buf *b)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proto-%s.bin", dir, name);
	f = fopen(path, "wbe");
	if (!f)
		return -1;
	fputc(dir_bit, f);
	fwrite(b->data, 1, b->len, f);
	return fclose(f);
}

int main(int argc, char **argv)
{
	char *args[] = { "sh", "-c", "echo hi", NULL };
	char *env[] = { "PATH=/usr/bin:/bin", "LANG=C", NULL };
	char pol[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}";
	uint32_t fds[] = { 0, 1, 2, 4 };
	struct sw_run_request q = {
		.caps = 1ULL << 10, .umask = 022, .fds = fds, .n_fds = 4,
		.argv = args, .argc = 3,
		.envp = env, .envc = 2, .cwd = "/tmp", .policy_name = "p.json",
		.policy_text = pol, .policy_len = sizeof(pol) - 1,
	};
	struct sw_started st = { .session_id = 7, .pid = 4242 };
	struct sw_ps_entry e[2] = {
		{ .session_id = 1, .pid = 10, .uid = 0, .decisions = 99,
		  .started = 1700000000, .program = "make", .policy = "d.json" },
		{ .session_id = 2, .pid = 11, .uid = 65534, .program = "id",
		  .policy = "fake-root.json" },
	};
	struct sw_buf b = { 0 };
	struct sw_error err;
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
#define SEED(name, bit, enc) do {					\
		b.len = 0;						\
		bad |= (enc) < 0 || write_seed(argv[1], name, bit, &b) < 0; \
	} while (0)
	SEED("run", 0, sw_run_request_encode(&b, &q, &err));
	SEED("ps", 0, sw_msg_encode_empty(&b, SW_MSG_PS, &err));
	SEED("kill", 0, sw_msg_encode_kill(&b, 3, &err));
	SEED("signal", 0, sw_msg_encode_signal(&b, 15, &err));
	SEED("started", 1, sw_msg_encode_started(&b, &st, &err));
	SEED("exit", 1, sw_msg_encode_exit(&b, &(struct sw_exit_reply){ 137, 0, false }, &err));
	SEED("exit-signal", 1, sw_msg_encode_exit(&b, &(struct sw_exit_reply){ 139, 11, true }, &err));
	SEED("error", 1, sw_msg_encode_error(&b, 2, 127, "cannot execute 'x': No such file", &err));
	SEED("ps-reply", 1, sw_msg_encode_ps_reply(&b, e, 2, &err));
	SEED("ok", 1, sw_msg_encode_empty(&b, SW_MSG_OK, &err));
	SEED("stopped", 1, sw_msg_encode_stopped(&b, 20, &err));
	sw_buf_free(&b);
	if (bad)
		fprintf(stderr, "%s: cannot write the seeds into %s\n", argv[0], argv[1]);
	return bad ? 1 : 0;
}
#endif
