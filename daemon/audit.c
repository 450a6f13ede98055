// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The daemon's own lines in the audit log, beside the engine's decision
 * lines (same JSON-lines file, same "time" and "session" keys): when a
 * session starts (who, what, where, which policy), when it ends, and every
 * request refused.  Written whole and flushed per line (the FILE is opened
 * O_APPEND), so a daemon crash loses no completed line.
 */
#include <stdio.h>

#include "sysward/engine.h"
#include "syswardd.h"

/* A line of the engine's JSON-lines writer, with its "event". */
static FILE *begin(struct sw_jsonl *l, uint64_t session, const char *event)
{
	FILE *m = sw_jsonl_begin(l, session);

	if (m)
		fprintf(m, ",\"event\":\"%s\"", event);
	return m;
}

void audit_session_start(FILE *f, const struct audit_start *a)
{
	struct sw_jsonl l;
	FILE *m;

	if (!f || !(m = begin(&l, a->session, "session-start")))
		return;
	fprintf(m, ",\"pid\":%d,\"uid\":%u,\"gid\":%u,\"client_pid\":%d",
		a->pid, a->peer->uid, a->peer->gid, a->peer->pid);
	/* All three are the client's: argv_hex, cwd_hex, policy_hex carry
	 * their exact bytes when they are not UTF-8 (engine/record/audit.c). */
	sw_jsonl_strv(m, "argv", a->argv);
	sw_jsonl_str(m, "cwd", a->cwd);
	sw_jsonl_str(m, "policy", a->policy);
	(void)sw_jsonl_end(&l, f);
}

void audit_session_exit(FILE *f, uint64_t session, pid_t pid, int exit_code,
			int term_sig, uint64_t decisions)
{
	struct sw_jsonl l;
	FILE *m;

	if (!f || !(m = begin(&l, session, "session-exit")))
		return;
	fprintf(m, ",\"pid\":%d,\"exit_code\":%d", pid, exit_code);
	/* A signal's death is the signal's (128+N may be an exit). */
	if (term_sig)
		fprintf(m, ",\"signal\":%d", term_sig);
	fprintf(m, ",\"decisions\":%llu", (unsigned long long)decisions);
	(void)sw_jsonl_end(&l, f);
}

void audit_refused(FILE *f, const struct peer *peer, const char *request,
		   int code, const char *msg)
{
	struct sw_jsonl l;
	FILE *m;

	if (!f || !(m = begin(&l, 0, "request-refused")))
		return;
	fprintf(m, ",\"uid\":%u,\"client_pid\":%d", peer->uid, peer->pid);
	sw_jsonl_str(m, "request", request);
	fprintf(m, ",\"errno\":%d", code);
	/* It may quote what the client sent. */
	sw_jsonl_str(m, "error", msg);
	(void)sw_jsonl_end(&l, f);
}
