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
#include "internal.h"

void sw_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
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
	if (r->d->rule == SW_RULE_DEFENCE)
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

static const char *rule_path(const struct sw_audit_rec *r)
{
	if (r->d->rule >= 0 && (size_t)r->d->rule < r->prog->n_rules) {
		const char *jp = r->prog->rules[r->d->rule].rule->json_path;

		return jp ? jp : "";
	}
	return r->d->rule == SW_RULE_DEFENCE ? "builtin" : "defaultAction";
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
	/* Decode path arguments (the condition's string is shown as is). */
	uint8_t pargs = sw_path_args(name);
	char sbuf[4096];
	pid_t pid = r->pid;
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

	if (fmt == SW_LOG_JSON) {
		fprintf(f, ",\"pid\":%d,\"arch\":\"%s\",\"syscall\":", r->pid,
			sw_abi_name(r->abi));
		if (name)
			sw_json_str(f, name);
		else
			fprintf(f, "\"syscall_%llu\"", (unsigned long long)r->nr);
		fprintf(f, ",\"nr\":%llu,\"args\":[", (unsigned long long)r->nr);
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s\"0x%llx\"", i ? "," : "",
				(unsigned long long)(r->args[i] & mask));
		fputc(']', f);
		if (d->path) {
			fputs(",\"path\":", f);
			sw_json_str(f, d->path);
		}
		if (pargs) {
			bool first = true;

			fputs(",\"strings\":{", f);
			for (int i = 0; i < 6; i++) {
				if (!(pargs & (1 << i)))
					continue;
				fprintf(f, "%s\"arg%d\":", first ? "" : ",", i);
				first = false;
				if (sw_read_tracee_string(&pid, r->args[i] & mask, sbuf,
							  sizeof(sbuf)) >= 0)
					sw_json_str(f, sbuf);
				else
					fputs("null", f);
			}
			fputc('}', f);
		}
		fprintf(f, ",\"rule\":%d,\"rule_path\":", d->rule);
		sw_json_str(f, rule_path(r));
		fprintf(f, ",\"action\":\"%s\",\"verdict\":\"%s\"",
			rule_action_name(r), verdict_name(r));
		if (d->why) {
			fputs(",\"why\":", f);
			sw_json_str(f, d->why);
		}
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
			fputs(",\"new_syscall\":", f);
			if (new_name || d->nr == r->nr)
				sw_json_str(f, new_name ? new_name : (name ? name : "?"));
			else
				fprintf(f, "\"syscall_%llu\"", (unsigned long long)d->nr);
			fputs(",\"new_args\":[", f);
			for (int i = 0; i < 6; i++)
				fprintf(f, "%s\"0x%llx\"", i ? "," : "",
					(unsigned long long)(d->args[i] & mask));
			fputc(']', f);
		}
		if (r->has_result)
			fprintf(f, ",\"return\":%lld", (long long)r->result);
		if (r->error) {
			fputs(",\"error\":", f);
			sw_json_str(f, r->error);
		}
		ret = sw_jsonl_end(&l, out);
	} else {
		fprintf(f, "%s [pid %d] %s %s(", ts, r->pid, sw_abi_name(r->abi),
			name ? name : "?");
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s0x%llx", i ? ", " : "",
				(unsigned long long)(r->args[i] & mask));
		fputc(')', f);
		if (d->path)
			fprintf(f, " path=\"%s\"", d->path);
		for (int i = 0; i < 6; i++)
			if ((pargs & (1 << i)) &&
			    sw_read_tracee_string(&pid, r->args[i] & mask, sbuf,
						  sizeof(sbuf)) >= 0 &&
			    !(d->path && !strcmp(d->path, sbuf)))
				fprintf(f, " arg%d=\"%s\"", i, sbuf);
		fprintf(f, " rule=%d (%s) %s -> %s", d->rule, rule_path(r),
			rule_action_name(r), verdict_name(r));
		if (d->verdict == SW_V_REWRITE && new_name)
			fprintf(f, " as %s", new_name);
		else if (only_pinned(r))
			fputs(" (path pinned)", f);
		if (r->has_result)
			fprintf(f, " = %lld", (long long)r->result);
		if (d->why)
			fprintf(f, " (%s)", d->why);
		if (r->error)
			fprintf(f, " ERROR: %s", r->error);
		fputc('\n', f);
		ret = line_write(out, &l);
	}
	free(name);
	free(new_name);
	return ret;
}
