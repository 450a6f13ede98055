// SPDX-License-Identifier: LGPL-2.1-or-later
/* "sysward kill": end sessions in syswardd (your own; root: any). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/cleanup.h"
#include "sysward/proto.h"

#include "commands.h"
#include "daemon_client.h"

void cmd_kill_help(FILE *f)
{
	fprintf(f,
"Usage: %s kill [--daemon[=PATH]] ID...\n"
"Kill every process of the syswardd sessions ID (as listed by '%s ps').\n"
"Its client then exits with status 137 (killed by SIGKILL).  You can only\n"
"kill your own sessions; root can kill any.\n"
"\n"
"Options:\n"
"  -d, --daemon[=PATH]  syswardd's socket (see '%s ps --help')\n"
"  -h, --help           show this help and exit\n"
"\n"
"Exit status: 0 if every session was killed, 1 otherwise.\n"
"\n"
"Example:\n"
"  %s kill 12\n", sw_program_name, sw_program_name, sw_program_name,
		sw_program_name);
}

/* 0 killed, 1 refused (message printed). */
static int kill_one(int fd, uint64_t id, const char *path)
{
	cleanup_free uint8_t *payload = NULL;
	struct sw_error err = { 0 };
	struct sw_msg_header h;
	struct sw_buf msg = { 0 };
	int r;

	r = sw_msg_encode_kill(&msg, id, &err);
	r = sw_daemon_call(fd, r, &msg, &h, &payload, &err);
	if (r < 0) {
		sw_cli_error("kill %llu: syswardd at %s: %s",
			     (unsigned long long)id, path, err.msg);
		return 1;
	}
	if (h.type == SW_MSG_OK)
		return 0;
	if (sw_cli_reply_error("kill", &h, payload, &err) >= 0)
		return 1;
	sw_cli_error("kill %llu: bad reply from syswardd",
		     (unsigned long long)id);
	return 1;
}

int cmd_kill(int argc, char **argv)
{
	cleanup_close int fd = -1;
	const char *sock = NULL;
	char path[PATH_MAX];
	int rc, failed = 0;

	rc = sw_cli_daemon_options(argc, argv, "kill", cmd_kill_help, &sock, NULL);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return sw_cli_usage("kill", "missing session ID (see '%s ps')",
				    sw_program_name);
	for (int i = optind; i < argc; i++) {
		char *end;

		errno = 0;
		strtoull(argv[i], &end, 10);
		if (errno || *end || !*argv[i] || argv[i][0] == '-')
			return sw_cli_usage("kill", "invalid session ID '%s' "
					    "(expected a number from '%s ps')",
					    argv[i], sw_program_name);
	}
	fd = sw_daemon_connect(sock, path, sizeof(path));
	if (fd < 0)
		return SW_EXIT_FAIL;
	for (int i = optind; i < argc; i++)
		failed |= kill_one(fd, strtoull(argv[i], NULL, 10), path);
	return failed ? SW_EXIT_FAIL : SW_EXIT_OK;
}
