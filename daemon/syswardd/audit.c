// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The daemon's own lines in the audit log, beside the engine's decision
 * lines (same JSON-lines file, same "time" and "session" keys): when a
 * session starts (who, what, where, which policy), when it ends, and every
 * request refused.  Flushed per line (the FILE is line-buffered and opened
 * O_APPEND), so a daemon crash loses no completed line.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sysward/engine.h"
#include "syswardd.h"

static void begin(FILE *f, uint64_t session, const char *event)
{
	struct timespec ts;
	struct tm tm;
	char buf[64];
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%03ldZ", ts.tv_nsec / 1000000);
	/* One line at a time: the tracer threads write to the same log. */
	flockfile(f);
	fprintf(f, "{\"time\":\"%s\"", buf);
	if (session)
		fprintf(f, ",\"session\":%llu", (unsigned long long)session);
	fprintf(f, ",\"event\":\"%s\"", event);
}

static void end(FILE *f)
{
	fputs("}\n", f);
	fflush(f);
	funlockfile(f);
}

void audit_session_start(FILE *f, const struct audit_start *a)
{
	if (!f)
		return;
	begin(f, a->session, "session-start");
	fprintf(f, ",\"pid\":%d,\"uid\":%u,\"gid\":%u,\"client_pid\":%d",
		a->pid, a->peer->uid, a->peer->gid, a->peer->pid);
	fputs(",\"argv\":[", f);
	for (size_t i = 0; a->argv[i]; i++) {
		if (i)
			fputc(',', f);
		sw_json_str(f, a->argv[i]);
	}
	fputs("],\"cwd\":", f);
	sw_json_str(f, a->cwd);
	fputs(",\"policy\":", f);
	sw_json_str(f, a->policy);
	end(f);
}

void audit_session_exit(FILE *f, uint64_t session, pid_t pid, int exit_code,
			uint64_t decisions)
{
	if (!f)
		return;
	begin(f, session, "session-exit");
	fprintf(f, ",\"pid\":%d,\"exit_code\":%d,\"decisions\":%llu", pid,
		exit_code, (unsigned long long)decisions);
	end(f);
}

void audit_refused(FILE *f, const struct peer *peer, const char *request,
		   int code, const char *msg)
{
	if (!f)
		return;
	begin(f, 0, "request-refused");
	fprintf(f, ",\"uid\":%u,\"client_pid\":%d,\"request\":", peer->uid,
		peer->pid);
	sw_json_str(f, request);
	fprintf(f, ",\"errno\":%d,\"error\":", code);
	sw_json_str(f, msg);
	end(f);
}
