// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Audit log: one line per supervisor decision, flushed per line so a
 * crashed or killed program still leaves its trail.  JSON lines (one
 * object each) for machines, or a strace-like text line for people.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static void json_str(FILE *f, const char *s)
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

static const char *verdict_name(const struct sw_decision *d)
{
	switch (d->verdict) {
	case SW_V_ALLOW:
		return "allow";
	case SW_V_RETURN:
		return "return";
	case SW_V_REWRITE:
		return "rewrite";
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

static const char *rule_path(const struct sw_audit_rec *r)
{
	if (r->d->rule >= 0 && (size_t)r->d->rule < r->prog->n_rules) {
		const char *jp = r->prog->rules[r->d->rule].rule->json_path;

		return jp ? jp : "";
	}
	return r->d->rule == SW_RULE_DEFENCE ? "builtin" : "defaultAction";
}

int sw_audit_write(FILE *f, enum sw_log_format fmt, const struct sw_audit_rec *r)
{
	const struct sw_decision *d = r->d;
	uint32_t tok = sw_abi_token(r->abi);
	char *name = seccomp_syscall_resolve_num_arch(tok, (int)r->nr);
	char *new_name = NULL;
	char ts[64];
	unsigned int width = sw_abi_arg_bytes(r->abi);
	uint64_t mask = width == 4 ? 0xffffffffull : ~0ull;

	if (d->verdict == SW_V_REWRITE && d->nr != r->nr)
		new_name = seccomp_syscall_resolve_num_arch(tok, (int)d->nr);
	timestamp(ts, sizeof(ts));

	if (fmt == SW_LOG_JSON) {
		fprintf(f, "{\"time\":\"%s\"", ts);
		if (r->session_id)
			fprintf(f, ",\"session\":%llu", (unsigned long long)r->session_id);
		fprintf(f, ",\"pid\":%d,\"arch\":\"%s\",\"syscall\":", r->pid,
			sw_abi_name(r->abi));
		if (name)
			json_str(f, name);
		else
			fprintf(f, "\"syscall_%llu\"", (unsigned long long)r->nr);
		fprintf(f, ",\"nr\":%llu,\"args\":[", (unsigned long long)r->nr);
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s\"0x%llx\"", i ? "," : "",
				(unsigned long long)(r->args[i] & mask));
		fputc(']', f);
		if (d->path) {
			fputs(",\"path\":", f);
			json_str(f, d->path);
		}
		fprintf(f, ",\"rule\":%d,\"rule_path\":", d->rule);
		json_str(f, rule_path(r));
		fprintf(f, ",\"action\":\"%s\",\"verdict\":\"%s\"",
			rule_action_name(r), verdict_name(d));
		if (d->why) {
			fputs(",\"why\":", f);
			json_str(f, d->why);
		}
		if (d->verdict == SW_V_REWRITE) {
			fputs(",\"new_syscall\":", f);
			if (new_name || d->nr == r->nr)
				json_str(f, new_name ? new_name : (name ? name : "?"));
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
			json_str(f, r->error);
		}
		fputs("}\n", f);
	} else {
		fprintf(f, "%s [pid %d] %s %s(", ts, r->pid, sw_abi_name(r->abi),
			name ? name : "?");
		for (int i = 0; i < 6; i++)
			fprintf(f, "%s0x%llx", i ? ", " : "",
				(unsigned long long)(r->args[i] & mask));
		fputc(')', f);
		if (d->path)
			fprintf(f, " path=\"%s\"", d->path);
		fprintf(f, " rule=%d (%s) %s -> %s", d->rule, rule_path(r),
			rule_action_name(r), verdict_name(d));
		if (d->verdict == SW_V_REWRITE && new_name)
			fprintf(f, " as %s", new_name);
		if (r->has_result)
			fprintf(f, " = %lld", (long long)r->result);
		if (d->why)
			fprintf(f, " (%s)", d->why);
		if (r->error)
			fprintf(f, " ERROR: %s", r->error);
		fputc('\n', f);
	}
	free(name);
	free(new_name);
	if (fflush(f) == EOF || ferror(f))
		return -EIO;
	return 0;
}
