// SPDX-License-Identifier: LGPL-2.1-or-later
/* "sysward ps": list the caller's sessions in syswardd (root: all). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "sysward/cleanup.h"
#include "sysward/proto.h"

#include "commands.h"
#include "daemon_client.h"

void cmd_ps_help(FILE *f)
{
	fprintf(f,
"Usage: %s ps [--daemon[=PATH]] [--json]\n"
"List the programs syswardd runs for you: session id, pid, user, running\n"
"time, supervisor decisions so far, policy and program.  Root sees every\n"
"user's sessions; everyone else only their own.\n"
"\n"
"Options:\n"
"  -d, --daemon[=PATH]  syswardd's socket (default: /run/sysward.sock for\n"
"                       root, else $XDG_RUNTIME_DIR/sysward.sock if it\n"
"                       exists, else /run/sysward.sock)\n"
"  -j, --json           print one JSON document instead: an array of the\n"
"                       sessions, each {id, pid, uid, user, started (Unix\n"
"                       time), decisions, policy (null if none), program}\n"
"  -h, --help           show this help and exit\n"
"\n"
"Example:\n"
"  %s ps --daemon=/run/sysward.sock\n", sw_program_name, sw_program_name);
}

static void age(char *buf, size_t size, uint64_t started)
{
	time_t now = time(NULL);
	long s = now > (time_t)started ? (long)(now - (time_t)started) : 0;

	if (s < 60)
		snprintf(buf, size, "%lds", s);
	else if (s < 3600)
		snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, size, "%ldh%02ldm", s / 3600, s / 60 % 60);
}

static void user(char *buf, size_t size, uint32_t uid)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, size, "%s", pw->pw_name);
	else
		snprintf(buf, size, "%u", uid);
}

static int parse_options(int argc, char **argv, const char **sock,
			 bool *json)
{
	int r = sw_cli_daemon_options(argc, argv, "ps", cmd_ps_help, sock, json);

	if (r >= 0)
		return r;
	if (optind < argc)
		return sw_cli_usage("ps", "unexpected argument '%s'",
				    argv[optind]);
	return -1;
}

static void print_table(const struct sw_ps_entry *e, size_t n)
{
	printf("%-6s %-8s %-10s %-7s %9s  %-20s %s\n", "ID", "PID", "USER",
	       "TIME", "DECISIONS", "POLICY", "PROGRAM");
	for (size_t i = 0; i < n; i++) {
		char a[32], u[64];

		age(a, sizeof(a), e[i].started);
		user(u, sizeof(u), e[i].uid);
		printf("%-6llu %-8u %-10s %-7s %9llu  %-20s %s\n",
		       (unsigned long long)e[i].session_id, e[i].pid, u, a,
		       (unsigned long long)e[i].decisions,
		       e[i].policy[0] ? e[i].policy : "-", e[i].program);
	}
}

/* The table's fields as they are, not as the table words them: the
 * start time rather than the age, the uid beside the name. */
static void print_json(const struct sw_ps_entry *e, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		char u[64];

		user(u, sizeof(u), e[i].uid);
		json_object_object_add(o, "id",
				       json_object_new_uint64(e[i].session_id));
		json_object_object_add(o, "pid", json_object_new_int64(e[i].pid));
		json_object_object_add(o, "uid", json_object_new_int64(e[i].uid));
		json_object_object_add(o, "user", json_object_new_string(u));
		json_object_object_add(o, "started",
				       json_object_new_uint64(e[i].started));
		json_object_object_add(o, "decisions",
				       json_object_new_uint64(e[i].decisions));
		json_object_object_add(o, "policy", e[i].policy[0] ?
				       json_object_new_string(e[i].policy) : NULL);
		json_object_object_add(o, "program",
				       json_object_new_string(e[i].program));
		json_object_array_add(a, o);
	}
	printf("%s\n", json_object_to_json_string_ext(a,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(a);
}

int cmd_ps(int argc, char **argv)
{
	cleanup_free uint8_t *payload = NULL;
	cleanup_free struct sw_ps_entry *e = NULL;
	cleanup_close int fd = -1;
	struct sw_error err = { 0 };
	struct sw_msg_header h;
	struct sw_buf msg = { 0 };
	const char *sock = NULL;
	char path[PATH_MAX];
	bool json = false;
	size_t n = 0;
	int r;

	r = parse_options(argc, argv, &sock, &json);
	if (r >= 0)
		return r;
	fd = sw_daemon_connect(sock, path, sizeof(path));
	if (fd < 0)
		return SW_EXIT_FAIL;
	r = sw_msg_encode_empty(&msg, SW_MSG_PS, &err);
	r = sw_daemon_call(fd, r, &msg, &h, &payload, &err);
	if (r < 0) {
		sw_cli_error("ps: syswardd at %s: %s", path, err.msg);
		return SW_EXIT_FAIL;
	}
	if (sw_cli_reply_error("ps", &h, payload, &err) >= 0)
		return SW_EXIT_FAIL;
	if (h.type != SW_MSG_PS_REPLY ||
	    sw_msg_decode_ps_reply(payload, h.length, &e, &n, &err) < 0) {
		sw_cli_error("ps: bad reply from syswardd: %s",
			     err.msg[0] ? err.msg : "unexpected message type");
		return SW_EXIT_FAIL;
	}
	if (json)
		print_json(e, n);
	else
		print_table(e, n);
	return SW_EXIT_OK;
}
