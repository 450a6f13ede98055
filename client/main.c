// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward: run programs under a syscall policy.  This file only finds the
 * command; each command lives in its own file (run.c, check.c, info.c).
 */
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "commands.h"

#ifndef SYSWARD_VERSION
#define SYSWARD_VERSION "unknown"
#endif

const char *sw_program_name = "sysward";

static int cmd_help(int argc, char **argv);
static void cmd_help_help(FILE *f);

static const struct sw_command commands[] = {
	{ "run", "run a program under a policy", cmd_run, cmd_run_help },
	{ "learn", "write a policy that allows what a program does",
	  cmd_learn, cmd_learn_help },
	{ "check", "validate policy files", cmd_check, cmd_check_help },
	{ "info", "show what the running kernel supports", cmd_info,
	  cmd_info_help },
	/* "run --daemon" goes through the hook in run.h (sw_run_daemon()). */
	{ "ps", "list your sessions in syswardd", cmd_ps, cmd_ps_help },
	{ "kill", "kill a session in syswardd", cmd_kill, cmd_kill_help },
	{ "help", "show help for a command", cmd_help, cmd_help_help },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void sw_cli_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", sw_program_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int sw_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", sw_program_name, cmd ? " " : "",
		cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s%s%s --help'.\n", sw_program_name,
		cmd ? " " : "", cmd ? cmd : "");
	return SW_EXIT_USAGE;
}

static const struct sw_command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static void main_help(FILE *f)
{
	fprintf(f,
		"Usage: %s COMMAND [OPTIONS] [ARGS...]\n"
		"Run programs with their system calls allowed, denied, skipped,\n"
		"emulated or rewritten by a JSON policy (seccomp + ptrace).\n"
		"\nCommands:\n", sw_program_name);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f,
		"\nOptions:\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n"
		"\nExamples:\n"
		"  %s run --policy policy/examples/fake-root.json -- id -u\n"
		"  %s check policy.json\n"
		"  %s info\n"
		"\n'%s help COMMAND' or '%s COMMAND --help' describes a command.\n"
		"See sysward(1).\n", sw_program_name, sw_program_name,
		sw_program_name, sw_program_name, sw_program_name);
}

static void cmd_help_help(FILE *f)
{
	fprintf(f, "Usage: %s help [COMMAND]\n"
		   "Show the help of COMMAND, or the list of commands.\n",
		sw_program_name);
}

static int cmd_help(int argc, char **argv)
{
	const struct sw_command *c;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
			 strcmp(argv[1], "--help") == 0)) {
		cmd_help_help(stdout);
		return SW_EXIT_OK;
	}
	if (argc < 2) {
		main_help(stdout);
		return SW_EXIT_OK;
	}
	if (argc > 2)
		return sw_cli_usage("help", "too many arguments");
	c = find_command(argv[1]);
	if (!c)
		return sw_cli_usage(NULL, "unknown command '%s'", argv[1]);
	c->help(stdout);
	return SW_EXIT_OK;
}

/*
 * A command's status as our end: an exit code, or, for SW_EXIT_SIGNAL(N),
 * death by the program's signal N with its default action, as timeout(1),
 * env(1) and tini end: our parent's waitpid() sees WIFSIGNALED, so that
 * a shell stops its loop at Ctrl-C and make says "Interrupt", not "Error
 * 130".  The command has returned (its files closed, the terminal given
 * back); our streams are flushed here, a default action skips exit(3),
 * with SIGPIPE ignored meanwhile: stdout may be a pipe whose reader is
 * gone, and the program's signal must be the one we die of.  No core
 * file of ours: a process that is not dumpable dumps none, whatever
 * RLIMIT_CORE or a core_pattern pipe say (fs/coredump.c, vfs_coredump()
 * gives up when __get_dumpable() is 0), so the program's "(core dumped)"
 * is not repeated.  As a pid namespace's init (sysward-runtime's process
 * 1) the kernel drops a signal we send ourselves (SIGNAL_UNKILLABLE,
 * kernel/signal.c, sig_task_ignored()): then we exit 128+N, as runc
 * reports a killed init anyway.
 */
static int end_as(int code)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t one;
	int sig;

	if (!(code & SW_EXIT_BY_SIGNAL))
		return code;
	sig = code & ~SW_EXIT_BY_SIGNAL;
	sigaction(SIGPIPE, &ign, NULL);
	fflush(NULL);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	return 128 + sig;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const struct sw_command *c;
	int opt;

	/* Stop at the first non-option: it is the command. */
	while ((opt = getopt_long(argc, argv, "+hV", options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			main_help(stdout);
			return SW_EXIT_OK;
		case 'V':
			printf("sysward %s\n", SYSWARD_VERSION);
			return SW_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help'.\n", sw_program_name);
			return SW_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		main_help(stderr);
		return SW_EXIT_USAGE;
	}
	c = find_command(argv[optind]);
	if (!c)
		return sw_cli_usage(NULL, "unknown command '%s'", argv[optind]);

	/* The command parses its own options from a fresh getopt state. */
	argc -= optind;
	argv += optind;
	optind = 0;
	return end_as(c->main(argc, argv));
}
