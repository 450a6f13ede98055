/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysward CLI: one file per command, dispatched from the table in
 * main.c.  A command gets argv with argv[0] = its own name (so getopt_long
 * works as in a standalone program) and returns the process exit code.
 * Commands print; nothing below them does.
 */
#ifndef SYSWARD_CLIENT_COMMANDS_H
#define SYSWARD_CLIENT_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes of the commands themselves (run passes the program's on). */
#define SW_EXIT_OK	0
#define SW_EXIT_FAIL	1	/* check: some policy is invalid */
#define SW_EXIT_USAGE	2	/* bad command line */

/* A command's status that says "end as the program did: killed by signal
 * N" (run, learn): out of the range of exit statuses; main() then dies
 * of N itself (sw_cli_exit()).  Whoever only reports a number uses
 * 128+N. */
#define SW_EXIT_BY_SIGNAL	0x1000
#define SW_EXIT_SIGNAL(n)	(SW_EXIT_BY_SIGNAL | (n))

struct sw_command {
	const char *name;
	const char *summary;		/* one line for "sysward --help" */
	int (*main)(int argc, char **argv);
	void (*help)(FILE *f);		/* full usage of the command */
};

int cmd_run(int argc, char **argv);
void cmd_run_help(FILE *f);
int cmd_learn(int argc, char **argv);		/* learn.c: write a policy */
void cmd_learn_help(FILE *f);
int cmd_check(int argc, char **argv);
void cmd_check_help(FILE *f);
int cmd_info(int argc, char **argv);
void cmd_info_help(FILE *f);
int cmd_ps(int argc, char **argv);		/* ps.c: syswardd sessions */
void cmd_ps_help(FILE *f);
int cmd_kill(int argc, char **argv);		/* kill.c: end a session */
void cmd_kill_help(FILE *f);

/* Print "sysward: <message>" to stderr. */
void sw_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a usage error and "Try 'sysward CMD --help'.", return SW_EXIT_USAGE. */
int sw_cli_usage(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* policyopts.c: the policy size limit from --policy-max-bytes (option,
 * NULL if not given) or SYSWARD_POLICY_MAX_BYTES, 0 for the default;
 * a bad value is said (sw_cli_error) and -EINVAL returned. */
int sw_cli_policy_max_bytes(const char *option, size_t *ret);
/* "1048576", "10M", "512K": 1..SW_LIMIT_POLICY_BYTES_MAX, else -EINVAL
 * (not a number) or -ERANGE. */
int sw_cli_parse_policy_max_bytes(const char *text, size_t *ret);

extern const char *sw_program_name;

/* What the next word of an option looks like when it is the option's
 * value (options.c). */
enum sw_cli_value {
	SW_CLI_VALUE_SOCKET,	/* a Unix socket, or "sock" in its name */
	SW_CLI_VALUE_PATH,	/* that, or any word with a '/' */
	SW_CLI_VALUE_NUMBER,	/* 1 to 3 digits */
	SW_CLI_VALUE_DIR,	/* a directory, which no PROGRAM is */
};

/*
 * After the option --name with an optional argument given without one
 * (optarg NULL), next = optind: if argv[next] looks like its value
 * (kind), refuse the line, saying to write --name=VALUE and what --name
 * alone means (alone: "is the default socket").  0 to go on, or
 * -SW_EXIT_USAGE with the usage error said.
 */
int sw_cli_optional_arg(const char *cmd, int argc, char **argv, int next,
			const char *name, enum sw_cli_value kind,
			const char *alone);

/*
 * After the option --name with a required argument, next = optind: its
 * value (optarg) refused when it was a word of its own that is an
 * option ("--report -- true"), saying that WHAT ("FILE") is missing.
 * 0, or -SW_EXIT_USAGE with the usage error said.
 */
int sw_cli_required_arg(const char *cmd, char **argv, int next,
			const char *value, const char *name, const char *what);

#endif
