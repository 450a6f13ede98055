// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Audit log: one line per supervisor decision, flushed per line so a
 * crashed or killed program still leaves its trail.  JSON lines (one
 * object each) for machines, or a strace-like text line for people.
 *
 * Every line is made in memory first and written whole, in one fwrite
 * under the FILE's lock (line_write): the daemon's threads share the log,
 * and what goes into a line may take long to gather (a tracee's string:
 * up to its 1 s deadline), which must never hold up the others.  The
 * daemon's own lines use the same JSON-lines writer (sw_jsonl_*).
 */
#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sysward/cleanup.h"
#include "sysward/decode.h"
#include "sysward/pathargs.h"
#include "internal.h"

/*
 * Strings in the log: one rule per format, here, for every writer (the
 * engine's decision lines and syswardd's own).  Anything the program or
 * a client controls reaches the log (paths and strings read from its
 * memory, argv, the working directory, the policy's file name), so no
 * byte of such a string may end a line, start a forged record, move a
 * terminal's cursor, or make a JSON line invalid; and the exact bytes
 * must stay recoverable, since a path that is not UTF-8 is still a path.
 *
 * JSON (RFC 8259 strings hold Unicode only): well-formed UTF-8 passes
 * through, except '"', '\\', the C0 and C1 controls, DEL, U+2028 and
 * U+2029 (line breaks to some readers), which are escaped.  A string
 * that is not well-formed UTF-8 is written lossily, each byte that does
 * not belong to a well-formed sequence as U+FFFD, and its member "k" gets
 * a sibling "k_hex" with the exact bytes in lowercase hex (an array "k":
 * an array "k_hex", null for the exact elements).  So the common case
 * stays readable and greppable, every parser reads every line, and a
 * reader who needs the bytes takes "k_hex" when present, else "k" as
 * UTF-8.  (A surrogate escape such as Python's would be unambiguous too,
 * but lone surrogates are not Unicode: strict parsers refuse them.)
 *
 * Text: the bytes as C escapes, strace-like: \\ \" \n \t \r, and \xNN
 * for every other byte outside printable ASCII (0x20-0x7e), UTF-8
 * included; so a record is one line of printable ASCII, and the exact
 * bytes come back by undoing the escapes.
 */

/*
 * The length of the well-formed UTF-8 sequence at s (Unicode, Table 3-7:
 * no overlong forms, no surrogates, nothing above U+10FFFF) and its code
 * point in *cp; 0 if the byte at s starts none.  s is NUL-terminated,
 * and NUL is no continuation byte, so nothing is read past it.
 */
static size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte's range excludes overlongs, surrogates, > U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	*cp = s[0] & (0xff >> (n + 1));
	for (size_t i = 1; i < n; i++) {
		if (i > 1 && (s[i] < 0x80 || s[i] > 0xbf))
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return n;
}

bool sw_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	for (; *p; p += n)
		if (!(n = utf8_seq(p, &cp)))
			return false;
	return true;
}

void sw_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	fputc('"', f);
	for (; *p; p += n) {
		n = utf8_seq(p, &cp);
		if (!n) {
			n = 1;
			fputs("\\ufffd", f);
		} else if (cp == '"' || cp == '\\') {
			fprintf(f, "\\%c", (char)cp);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
			   cp == 0x2028 || cp == 0x2029) {
			fprintf(f, "\\u%04x", (unsigned int)cp);
		} else {
			fwrite(p, 1, n, f);
		}
	}
	fputc('"', f);
}

static void json_hex(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, "%02x", (unsigned char)*s);
	fputc('"', f);
}

/* "key":"s" (null for NULL), preceded by a comma unless first, and
 * "key_hex" after it if s is not UTF-8. */
static void json_member(FILE *f, bool first, const char *key, const char *s)
{
	fprintf(f, "%s\"%s\":", first ? "" : ",", key);
	if (!s) {
		fputs("null", f);
		return;
	}
	sw_json_str(f, s);
	if (!sw_utf8_valid(s)) {
		fprintf(f, ",\"%s_hex\":", key);
		json_hex(f, s);
	}
}

void sw_jsonl_str(FILE *m, const char *key, const char *s)
{
	json_member(m, false, key, s);
}

void sw_jsonl_strv(FILE *m, const char *key, char *const *v)
{
	bool exact = true;

	fprintf(m, ",\"%s\":[", key);
	for (size_t i = 0; v[i]; i++) {
		if (i)
			fputc(',', m);
		sw_json_str(m, v[i]);
		exact = exact && sw_utf8_valid(v[i]);
	}
	fputc(']', m);
	if (exact)
		return;
	fprintf(m, ",\"%s_hex\":[", key);
	for (size_t i = 0; v[i]; i++) {
		if (i)
			fputc(',', m);
		if (sw_utf8_valid(v[i]))
			fputs("null", m);
		else
			json_hex(m, v[i]);
	}
	fputc(']', m);
}

/* " key=\"s\"" in the text format. */
static void text_member(FILE *f, const char *key, const char *s)
{
	fprintf(f, " %s=\"", key);
	sw_text_str(f, s);
	fputc('"', f);
}

/*
 * A rewrite whose only change is the path guard's copy of a string
 * argument runs the call the policy allowed, unchanged in meaning:
 * report it as an allow, with the pinned arguments named.
 */
static bool only_pinned(const struct sw_audit_rec *r)
{
	const struct sw_decision *d = r->d;

	if (d->verdict != SW_V_REWRITE || !d->pinned || d->nr != r->nr)
		return false;
	for (int i = 0; i < 6; i++)
		if (!(d->pinned & (1u << i)) && d->args[i] != r->args[i])
			return false;
	return true;
}

bool sw_audit_plain_allow(const struct sw_audit_rec *r)
{
	const struct sw_decision *d = r->d;

	if (d->audit || d->refusal || d->lifted || r->error)
		return false;
	return d->verdict == SW_V_ALLOW || only_pinned(r);
}

static const char *verdict_name(const struct sw_audit_rec *r)
{
	switch (r->d->verdict) {
	case SW_V_ALLOW:
		return "allow";
	case SW_V_RETURN:
		return "return";
	case SW_V_REWRITE:
		return only_pinned(r) ? "allow" : "rewrite";
	case SW_V_KILL:
		return "kill";
	}
	return "?";
}

static const char *rule_action_name(const struct sw_audit_rec *r)
{
	if (sw_rule_builtin(r->d->rule))
		return "SYSWARD_DEFENCE";
	return sw_action_name(r->d->action);
}

static void timestamp(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* The line made in l, written to f at once and flushed. */
static int line_write(FILE *f, struct sw_jsonl *l)
{
	bool ok = false;

	/* Closing the stream sets l->buf and l->len. */
	if (fclose(TAKE_PTR(l->m)) == 0 && l->buf) {
		flockfile(f);
		ok = fwrite(l->buf, 1, l->len, f) == l->len &&
		     fflush(f) != EOF && !ferror(f);
		funlockfile(f);
	}
	free(TAKE_PTR(l->buf));
	return ok ? 0 : -EIO;
}

FILE *sw_jsonl_begin(struct sw_jsonl *l, uint64_t session)
{
	char ts[64];

	l->buf = NULL;
	l->len = 0;
	l->m = open_memstream(&l->buf, &l->len);
	if (!l->m)
		return NULL;
	timestamp(ts, sizeof(ts));
	fprintf(l->m, "{\"time\":\"%s\"", ts);
	if (session)
		fprintf(l->m, ",\"session\":%llu", (unsigned long long)session);
	return l->m;
}

int sw_jsonl_end(struct sw_jsonl *l, FILE *f)
{
	fputs("}\n", l->m);
	return line_write(f, l);
}

/* String argument i of the record: kept at entry, or read now. */
static const char *arg_string(const struct sw_audit_rec *r, const char *name,
			      int i, char *buf, size_t size)
{
	if (r->kept && (r->kept->kept & (1u << i)))
		return r->kept->s[i];
	return sw_read_tracee_string_arg(r->pid, r->abi, name, i, r->args, buf, size) >= 0
	       ? buf : NULL;
}

void sw_audit_strings_keep(struct sw_audit_strings *k, pid_t pid,
			   enum sw_abi abi, uint64_t nr, const uint64_t args[6])
{
	char *name = seccomp_syscall_resolve_num_arch(sw_abi_token(abi), (int)nr);
	uint8_t pargs = sw_string_args(sw_abi_token(abi), name);
	char buf[4096];

	sw_audit_strings_clear(k);
	for (int i = 0; i < 6; i++) {
		if (!(pargs & (1 << i)))
			continue;
		k->kept |= 1u << i;
		/* Out of memory: the line says null, as for an unreadable
		 * string, rather than read the memory at exit. */
		if (sw_read_tracee_string_arg(pid, abi, name, i, args, buf, sizeof(buf)) >= 0)
			k->s[i] = strdup(buf);
	}
	free(name);
}

static const char *rule_path(const struct sw_audit_rec *r)
{
	if (r->d->rule >= 0 && (size_t)r->d->rule < r->prog->n_rules) {
		const char *jp = r->prog->rules[r->d->rule].rule->json_path;

		return jp ? jp : "";
	}
	return sw_rule_builtin(r->d->rule) ? "builtin" : "defaultAction";
}

/* The decoded call written at the end of l's line, copied out, and the
 * line's end put back where it was; NULL without memory. */
static char *decode_in_place(struct sw_jsonl *l, uint32_t tok, const char *name,
			     const uint64_t args[6], const char *const strs[6])
{
	off_t off = ftello(l->m);
	char *s = NULL;

	if (off < 0)
		return NULL;
	sw_decode_call_write(l->m, tok, name, args, strs, 0);
	/* A memory stream's flush sets l->buf and l->len (its position). */
	if (fflush(l->m) == 0 && l->buf && l->len >= (size_t)off)
		s = strndup(l->buf + off, l->len - (size_t)off);
	if (fseeko(l->m, off, SEEK_SET) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

int sw_audit_write(FILE *out, enum sw_log_format fmt, const struct sw_audit_rec *r)
{
	struct sw_jsonl l = { 0 };
	FILE *f;
	const struct sw_decision *d = r->d;
	uint32_t tok = sw_abi_token(r->abi);
	char *name = seccomp_syscall_resolve_num_arch(tok, (int)r->nr);
	char *new_name = NULL;
	char ts[64];
	unsigned int width = sw_abi_arg_bytes(r->abi);
	uint64_t mask = width == 4 ? 0xffffffffull : ~0ull;
	/* Decode path and address arguments (the condition's string is
	 * shown as is). */
	uint8_t pargs = sw_string_args(tok, name);
	char sbuf[6][4096];
	const char *strs[6] = { 0 };
	char *call = NULL;
	int ret;

	if (fmt == SW_LOG_JSON) {
		f = sw_jsonl_begin(&l, r->session_id);
	} else {
		timestamp(ts, sizeof(ts));
		f = l.m = open_memstream(&l.buf, &l.len);
	}
	if (!f) {
		free(name);
		return -ENOMEM;
	}
	if (d->verdict == SW_V_REWRITE && d->nr != r->nr)
		new_name = seccomp_syscall_resolve_num_arch(tok, (int)d->nr);
	/* The strings the supervisor read (kept at entry, or read now), for
	 * both formats and the decoded call (decode.c) in place of their
	 * pointers.  NULL: unreadable, or out of memory. */
	for (int i = 0; i < 6; i++)
		if (pargs & (1 << i))
			strs[i] = arg_string(r, name, i, sbuf[i], sizeof(sbuf[i]));

	if (fmt == SW_LOG_JSON) {
		fprintf(f, ",\"pid\":%d,\"arch\":\"%s\"", r->pid,
			sw_abi_name(r->abi));
		if (name)
			sw_jsonl_str(f, "syscall", name);
		else
			fprintf(f, ",\"syscall\":\"syscall_%llu\"",
				(unsigned long long)r->nr);
		fprintf(f, ",\"nr\":%llu,\"args\":[", (unsigned long long)r->nr);
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s\"0x%llx\"", i ? "," : "",
				(unsigned long long)(r->args[i] & mask));
		fputc(']', f);
		if (d->path)
			sw_jsonl_str(f, "path", d->path);
		if (pargs) {
			bool first = true;

			fputs(",\"strings\":{", f);
			for (int i = 0; i < 6; i++) {
				char key[8];

				if (!(pargs & (1 << i)))
					continue;
				snprintf(key, sizeof(key), "arg%d", i);
				json_member(f, first, key, strs[i]);
				first = false;
			}
			fputc('}', f);
		}
		/* The raw values above, decoded for people as in the text:
		 * written at the line's end, read back and written over as
		 * a JSON string.  A stream of its own (sw_decode_call) cost
		 * an 8 KiB calloc and a consolidation of the heap per line
		 * (glibc's open_memstream): 3% of the supervisor's user CPU
		 * on sysward-bench's LOG row (perf, 6.18). */
		call = decode_in_place(&l, tok, name, r->args, strs);
		if (call)
			sw_jsonl_str(f, "call", call);
		fprintf(f, ",\"rule\":%d", d->rule);
		sw_jsonl_str(f, "rule_path", rule_path(r));
		fprintf(f, ",\"action\":\"%s\",\"verdict\":\"%s\"",
			rule_action_name(r), verdict_name(r));
		if (d->why)
			sw_jsonl_str(f, "why", d->why);
		/* Complain mode let a refusal of the policy's run. */
		if (d->lifted)
			fputs(",\"would_refuse\":true", f);
		if (only_pinned(r)) {
			bool first = true;

			fputs(",\"pinned\":[", f);
			for (int i = 0; i < 6; i++) {
				if (!(d->pinned & (1u << i)))
					continue;
				fprintf(f, "%s%d", first ? "" : ",", i);
				first = false;
			}
			fputc(']', f);
		} else if (d->verdict == SW_V_REWRITE) {
			if (new_name || d->nr == r->nr)
				sw_jsonl_str(f, "new_syscall",
					     new_name ? new_name : (name ? name : "?"));
			else
				fprintf(f, ",\"new_syscall\":\"syscall_%llu\"",
					(unsigned long long)d->nr);
			fputs(",\"new_args\":[", f);
			for (int i = 0; i < 6; i++)
				fprintf(f, "%s\"0x%llx\"", i ? "," : "",
					(unsigned long long)(d->args[i] & mask));
			fputc(']', f);
		}
		if (r->has_result)
			fprintf(f, ",\"return\":%lld", (long long)r->result);
		if (r->error)
			sw_jsonl_str(f, "error", r->error);
		ret = sw_jsonl_end(&l, out);
	} else {
		bool shown = false;

		for (int i = 0; i < 6; i++)
			shown = shown || (strs[i] && d->path && !strcmp(d->path, strs[i]));
		fprintf(f, "%s [pid %d] %s ", ts, r->pid, sw_abi_name(r->abi));
		sw_decode_call_write(f, tok, name, r->args, strs, 0);
		/* The condition's string, when it is not an argument shown
		 * (the path guard's pinned copy, a unix address). */
		if (d->path && !shown)
			text_member(f, "path", d->path);
		fprintf(f, " rule=%d (", d->rule);
		sw_text_str(f, rule_path(r));
		fprintf(f, ") %s -> %s", rule_action_name(r), verdict_name(r));
		if (d->lifted)
			fputs(" (complain: would refuse)", f);
		if (d->verdict == SW_V_REWRITE && new_name)
			fprintf(f, " as %s", new_name);
		else if (only_pinned(r))
			fputs(" (path pinned)", f);
		if (r->has_result) {
			fputs(" = ", f);
			sw_decode_return(f, tok, name, r->result);
		}
		if (d->why) {
			fputs(" (", f);
			sw_text_str(f, d->why);
			fputc(')', f);
		}
		if (r->error) {
			fputs(" ERROR: ", f);
			sw_text_str(f, r->error);
		}
		fputc('\n', f);
		ret = line_write(out, &l);
	}
	free(name);
	free(new_name);
	free(call);
	return ret;
}
