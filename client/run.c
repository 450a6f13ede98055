// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward run: load a policy, make sure the kernel can enforce it, and run
 * the program under it (embedded supervisor, or through syswardd).
 *
 * Exit codes follow env(1) and timeout(1): the program's own status (and
 * when signal N killed it, death by N: main.c), 125 when sysward itself
 * fails, 126 when the program cannot be executed, 127 when it is not
 * found.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"

#include "commands.h"
#include "daemon_client.h"
#include "relay.h"
#include "run.h"

void cmd_run_help(FILE *f)
{
	fprintf(f,
"Usage: %s run {--policy FILE | --sandbox[=DIR]} [OPTIONS] [--] PROGRAM [ARGS...]\n"
"Run PROGRAM under the syscall policy FILE and exit with its status.\n"
"\n"
"Options:\n"
"  -p, --policy FILE        JSON policy to enforce (this or --policy-fd);\n"
"                           '-' = standard input, or a pipe (<(jq ...)),\n"
"                           read once\n"
"      --policy-fd N        the policy from descriptor N, a sealed memory\n"
"                           file (sysward-runtime's hand-off); kept open,\n"
"                           close-on-exec\n"
"      --keep-fds N         the program starts with descriptors 0 to N-1 only:\n"
"                           every other one is closed first (by default it\n"
"                           inherits all of ours)\n"
"  -l, --log FILE           append an audit record of every supervisor\n"
"                           decision to FILE ('-' = standard error)\n"
"      --log-format FORMAT  'json' (one object per line, default) or 'text'\n"
"  -c, --cap CAP            let the program keep capability CAP (repeatable;\n"
"                           'CAP_NET_RAW', 'net_raw', 'chown,kill' or 'all');\n"
"                           by default it keeps none\n"
"  -d, --daemon[=PATH]      run it through syswardd at PATH (default\n"
"                           /run/sysward.sock, or $XDG_RUNTIME_DIR/\n"
"                           sysward.sock for a user daemon): same policy,\n"
"                           exit status and signals, your own uid; PATH\n"
"                           after '=' only, as N of --gate\n"
"  -t, --tty                with --daemon: give PROGRAM a terminal of its\n"
"                           own, relayed by sysward (the default when\n"
"                           standard input, output and error are a terminal)\n"
"  -T, --no-tty             with --daemon: no terminal of its own; it gets\n"
"                           our standard streams as they are\n"
"      --kill-descendants   when PROGRAM exits, kill (SIGKILL) the processes\n"
"                           it left running instead of waiting for them\n"
"                           (embedded mode only)\n"
"      --complain           run every call the policy refuses as if it were\n"
"                           allowed, and report each (name, arguments, rule,\n"
"                           count) at exit on standard error, in --log and\n"
"                           in --report; sysward's own defences still hold\n"
"      --report FILE        write a JSON summary of the supervised calls at\n"
"                           exit (per syscall, rule and outcome, per program)\n"
"                           to FILE ('-' = standard error); sorted, so two\n"
"                           reports diff\n"
"      --gate[=N]           exit with N (default %d) if the policy refused a\n"
"                           call, or with --complain would have; for CI\n"
"      --sandbox[=DIR]      the system read-only, DIR (default: here) writable\n"
"                           but its .git/.hg/.svn, a private TMPDIR, no TCP\n"
"                           but the ports below, none of your services;\n"
"                           decided by the kernel (Landlock) on the file\n"
"                           found; a --policy narrows it further\n"
"      --sandbox-net PORTS  with --sandbox: TCP ports it may connect to\n"
"                           (443,8000-8100)\n"
"      --sandbox-bind PORTS with --sandbox: TCP ports it may bind\n"
"      --no-cache           compile the policy's filter anew, neither reading\n"
"                           nor writing the compiled-filter cache\n"
"                           (also SYSWARD_NO_CACHE=1)\n"
"  -q, --quiet              print no warnings (the policy's, --cap's), only\n"
"                           errors and what sysward did to the program\n"
"      --strict             refuse to run (status 125) a policy with a\n"
"                           warning this prints (for CI jobs)\n"
"      --policy-max-bytes BYTES\n"
"                           read a policy up to BYTES (K or M suffix; at most\n"
"                           64M) instead of 1M; SYSWARD_POLICY_MAX_BYTES in\n"
"                           the environment does the same (not with --daemon,\n"
"                           whose limit is syswardd's)\n"
"  -h, --help               show this help and exit\n"
"\n"
"The program runs with no_new_privs, only the capabilities given with --cap,\n"
"and every process and thread it starts under the same policy.  sysward run\n"
"returns when PROGRAM and every process it started have exited: background\n"
"descendants stay supervised and are waited for, unless --kill-descendants.\n"
"A policy that needs the supervisor (SYSWARD_ACT_*, paths, when, log) needs\n"
"a kernel with PTRACE_SET_SYSCALL_INFO (Linux 6.16 or the patched 6.12);\n"
"elsewhere it is refused and only plain seccomp policies run.\n"
"\n"
"With --log, --report or --gate, calls the policy refuses with an errno\n"
"stop at the supervisor (which refuses them alike) so that they are seen.\n"
"\n"
"Exit status:\n"
"  N        the program's exit status; if a signal killed it, sysward\n"
"           dies of that signal too (a shell says 128+N)\n"
"  %-3d      with --gate: the policy refused (or would have refused) a\n"
"           call; sysward says so on standard error\n"
"  125      sysward failed (bad policy, unsupported kernel, ...)\n"
"  126      PROGRAM was found but cannot be executed\n"
"  127      PROGRAM was not found\n"
"\n"
"Examples:\n"
"  %s run --policy policy/examples/fake-root.json -- id -u\n"
"  %s run --policy docker-default.json --complain --report r.json --gate -- make\n"
"  %s run --sandbox --sandbox-net 443 -- ./untrusted-build.sh\n",
		sw_program_name, SW_EXIT_GATE, SW_EXIT_GATE, sw_program_name,
		sw_program_name, sw_program_name);
}

static int check(const char *path, void *ud)
{
	(void)ud;
	return sw_exec_check(path);
}

/* --gate=N: a status the program could exit with, but none of sysward's
 * own errors (which say the program did not run at all). */
static int parse_gate(const char *text, int *ret)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < 1 || n > 255 ||
	    n == SW_EXIT_SYSWARD_ERROR || n == SW_EXIT_CANNOT_EXEC ||
	    n == SW_EXIT_NOT_FOUND)
		return -EINVAL;
	*ret = (int)n;
	return 0;
}

/* A descriptor number, or a count of them, from min up. */
static int parse_fd(const char *text, int min, int *ret)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < min || n > (1 << 20))
		return -EINVAL;
	*ret = (int)n;
	return 0;
}

static int parse_options(int argc, char **argv, struct run_options *o)
{
	enum { OPT_LOG_FORMAT = 0x100, OPT_KILL_DESCENDANTS, OPT_COMPLAIN,
	       OPT_REPORT, OPT_GATE, OPT_POLICY_FD, OPT_KEEP_FDS, OPT_NO_CACHE,
	       OPT_STRICT, OPT_POLICY_MAX_BYTES, OPT_SANDBOX, OPT_SANDBOX_NET,
	       OPT_SANDBOX_BIND };
	static const struct option options[] = {
		{ "daemon", optional_argument, NULL, 'd' },
		{ "tty", no_argument, NULL, 't' },
		{ "no-tty", no_argument, NULL, 'T' },
		{ "policy", required_argument, NULL, 'p' },
		{ "policy-fd", required_argument, NULL, OPT_POLICY_FD },
		{ "keep-fds", required_argument, NULL, OPT_KEEP_FDS },
		{ "log", required_argument, NULL, 'l' },
		{ "log-format", required_argument, NULL, OPT_LOG_FORMAT },
		{ "cap", required_argument, NULL, 'c' },
		{ "kill-descendants", no_argument, NULL, OPT_KILL_DESCENDANTS },
		{ "complain", no_argument, NULL, OPT_COMPLAIN },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "gate", optional_argument, NULL, OPT_GATE },
		{ "sandbox", optional_argument, NULL, OPT_SANDBOX },
		{ "sandbox-net", required_argument, NULL, OPT_SANDBOX_NET },
		{ "sandbox-bind", required_argument, NULL, OPT_SANDBOX_BIND },
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "policy-max-bytes", required_argument, NULL, OPT_POLICY_MAX_BYTES },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt, r;

	/* '+': stop at PROGRAM, so its own options stay its own. */
	while ((opt = getopt_long(argc, argv, "+p:l:c:d::tTqh", options, NULL)) != -1) {
		/* A FILE's value is never an option (options.c). */
		if ((opt == 'p' || opt == 'l' || opt == OPT_REPORT) &&
		    (r = sw_cli_required_arg("run", argv, optind, optarg,
					     opt == 'p' ? "policy" : opt == 'l' ? "log" : "report",
					     "FILE")) < 0)
			return r;
		switch (opt) {
		case 'p':
			o->policy_path = optarg;
			break;
		case OPT_POLICY_FD:
			if (parse_fd(optarg, 0, &o->policy_fd) < 0)
				return -sw_cli_usage("run",
					"--policy-fd %s: expected a descriptor number",
					optarg);
			break;
		case OPT_KEEP_FDS:
			if (parse_fd(optarg, 3, &o->keep_fds) < 0)
				return -sw_cli_usage("run",
					"--keep-fds %s: expected a number of descriptors, 3 or more (stdin, stdout and stderr stay)",
					optarg);
			break;
		case 'l':
			o->log_path = optarg;
			break;
		case OPT_LOG_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o->log_format = SW_LOG_JSON;
			else if (strcmp(optarg, "text") == 0)
				o->log_format = SW_LOG_TEXT;
			else
				return -sw_cli_usage("run",
					"unknown log format '%s' (expected "
					"'json' or 'text')", optarg);
			break;
		case 'c':
			r = sw_run_cap_option("run", optarg, o);
			if (r < 0)
				return r;
			break;
		case OPT_KILL_DESCENDANTS:
			o->kill_descendants = true;
			break;
		case OPT_NO_CACHE:
			o->no_cache = true;
			break;
		case OPT_COMPLAIN:
			o->complain = true;
			break;
		case OPT_REPORT:
			o->report_path = optarg;
			break;
		case OPT_GATE:
			o->gate = SW_EXIT_GATE;
			if (!optarg) {
				char alone[64];

				snprintf(alone, sizeof(alone),
					 "exits with %d; a program named so follows '--'",
					 SW_EXIT_GATE);
				r = sw_cli_optional_arg("run", argc, argv, optind,
							"gate", SW_CLI_VALUE_NUMBER,
							alone);
				if (r < 0)
					return r;
			}
			if (optarg && parse_gate(optarg, &o->gate) < 0)
				return -sw_cli_usage("run",
					"--gate=%s: expected an exit status "
					"from 1 to 255 other than sysward's own "
					"(125, 126, 127)", optarg);
			break;
		case OPT_SANDBOX:
			if (!optarg &&
			    (r = sw_cli_optional_arg("run", argc, argv, optind, "sandbox",
						     SW_CLI_VALUE_DIR,
						     "is the working directory; a program named so follows '--'")) < 0)
				return r;
			/* fall through */
		case OPT_SANDBOX_NET:
		case OPT_SANDBOX_BIND:
			r = sw_run_sandbox_option(opt == OPT_SANDBOX ? "sandbox" :
						  opt == OPT_SANDBOX_NET ? "sandbox-net" :
									   "sandbox-bind",
						  optarg, o);
			if (r < 0)
				return r;
			break;
		case 'd':
			if (!optarg &&
			    (r = sw_cli_optional_arg("run", argc, argv, optind, "daemon",
						     SW_CLI_VALUE_SOCKET,
						     "is the default socket; a program named so follows '--'")) < 0)
				return r;
			/* "" = the default socket (daemon_client.c) */
			o->daemon_socket = optarg ? optarg : "";
			break;
		case 't':
			o->tty = SW_TTY_FORCE;
			break;
		case 'T':
			o->tty = SW_TTY_NEVER;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_POLICY_MAX_BYTES:
			o->policy_max_bytes = optarg;
			break;
		case 'h':
			cmd_run_help(stdout);
			return 1;
		default:
			fprintf(stderr, "Try '%s run --help'.\n",
				sw_program_name);
			return -SW_EXIT_USAGE;
		}
	}
	if (!o->policy_path && o->policy_fd < 0 && !o->sandbox_on)
		return -sw_cli_usage("run", "missing --policy FILE (or --sandbox)");
	if (o->policy_path && o->policy_fd >= 0)
		return -sw_cli_usage("run", "--policy and --policy-fd: give one");
	if (o->daemon_socket && (o->policy_fd >= 0 || o->keep_fds >= 0))
		return -sw_cli_usage("run", "--policy-fd and --keep-fds are not "
				     "available with --daemon (they are "
				     "sysward-runtime's, for a container's "
				     "process 1)");
	if (o->tty != SW_TTY_AUTO && !o->daemon_socket)
		return -sw_cli_usage("run", "-t/--tty and -T/--no-tty are for "
				     "--daemon: embedded, the program uses "
				     "our own terminal");
	if (o->kill_descendants && o->daemon_socket)
		return -sw_cli_usage("run", "--kill-descendants is not available "
				     "with --daemon (syswardd waits for every "
				     "process of a session)");
	if (optind >= argc)
		return -sw_cli_usage("run", "missing PROGRAM to run");
	o->argv = argv + optind;
	return 0;
}

/* The engine's warnings: what it met while supervising and what it did
 * about it (a program killed, a call refused).  Every one is printed: a
 * program that dies with 137 and no word is the worst outcome. */
static void print_engine_warning(const char *msg, void *userdata)
{
	(void)userdata;
	sw_cli_error("%s", msg);
}

/*
 * Job control for the program, as a shell would do it: in the foreground
 * of our controlling terminal, with the terminal on stdin and stdout, the
 * program's process group takes the terminal (Ctrl-C, Ctrl-Z reach it,
 * not us; a script that runs us just waits meanwhile); in a pipeline
 * (stdin or stdout not the terminal: a pager beside us must keep it) or
 * in the background, a group of its own, and sw_run() relays the
 * terminal's signals; without a controlling terminal, a group of its own
 * too, in our session: a session of its own would orphan its group, and
 * the kernel discards SIGTSTP, SIGTTIN and SIGTTOU in an orphaned group
 * (the program could not stop as a job).  Returns the terminal's fd to
 * close afterwards, or -1.
 */
static int choose_job_control(struct sw_launch *l)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	l->tty_fd = -1;
	if (fd < 0)
		return -1;
	if (tcgetpgrp(fd) != getpgrp()) {
		close(fd);
		return -1;
	}
	/* In a pipeline in the foreground the terminal is our job's: the
	 * engine gives it to the program when it needs it (engine/launch/run.c,
	 * hand_terminal()). */
	l->foreground = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	l->tty_fd = fd;
	return fd;
}

/*
 * After the run: what the record says.  In complain mode the would-be
 * refusals on standard error (unless -q), the report if asked, and the
 * gate.  Returns the status to exit with.
 */
static int after_run(const struct run_options *o, const struct sw_policy *p,
		     const struct sw_record *rec, FILE *report,
		     const struct sw_exit *ex)
{
	uint64_t n = sw_record_policy_refusals(rec);
	bool tripped = o->gate && n > 0;
	struct sw_report_info info = {
		.policy = p, .argv = o->argv, .program_exit = ex->code,
		.exit_code = tripped ? o->gate : ex->code,
		.gate = o->gate != 0, .gate_tripped = tripped,
	};

	if (sw_run_say_refusals(o, n))
		(void)sw_record_write_summary(rec, p, stderr, "  ", 40);
	if (report && sw_record_write_json(rec, &info, report) < 0) {
		sw_cli_error("write the report to %s: %s", o->report_path,
			     strerror(errno ? errno : EIO));
		return SW_EXIT_SYSWARD_ERROR;
	}
	return sw_run_gate(o, n, ex);
}

int sw_run_embedded(const struct run_options *o, const struct sw_policy *policy,
		    bool record, struct sw_record **ret_record,
		    struct sw_exit *ret_exit)
{
	struct sw_error err = { 0 };
	cleanup_fclose FILE *log_file = NULL;
	cleanup_close int tty = -1;
	char cache[PATH_MAX];
	struct sw_launch l = {
		.argv = o->argv,
		.stdio = { -1, -1, -1 },
		.uid = (uid_t)-1,
		.gid = (gid_t)-1,
		.caps = o->caps,
		.audit_format = o->log_format,
		.warn = print_engine_warning,
		.kill_descendants = o->kill_descendants,
		.complain = o->complain,
		.record = record,
		.record_paths = record && o->record_paths,
		.record_files = record && o->record_files,
		/* A container's process 1 (sysward-runtime's prefix): the
		 * kernel drops every signal from outside that we do not
		 * catch, so catch and forward them all (engine.h). */
		.init_signals = getpid() == 1,
		.sandbox = o->sandbox_on ? &o->sandbox : NULL,
		.filter_cache = o->no_cache ? NULL : sw_filter_cache_dir(cache, sizeof(cache)),
	};
	int r, code;

	*ret_record = NULL;
	*ret_exit = (struct sw_exit){ .code = SW_EXIT_SYSWARD_ERROR };
	/* The engine checks the kernel: it refuses a policy that needs the
	 * supervisor where PTRACE_SET_SYSCALL_INFO is missing, and runs one
	 * the kernel enforces alone, exactly as syswardd does. */
	/* Say plainly what is wrong with PROGRAM before starting anything. */
	code = sw_exec_search(o->argv[0], NULL, check, NULL);
	if (code) {
		sw_exec_error(&err, o->argv[0], code);
		sw_cli_error("%s", err.msg);
		ret_exit->code = sw_exec_exit_code(code);
		return ret_exit->code;
	}

	if (o->log_path) {
		if (strcmp(o->log_path, "-") == 0) {
			/* The program's standard error too: records go
			 * between its lines (engine/record/linegate.c). */
			r = sw_line_gate_open(STDERR_FILENO, &log_file, &l.audit_gate);
			if (r < 0) {
				sw_cli_error("--log -: share standard error with the program: %s",
					     strerror(-r));
				return ret_exit->code;
			}
			l.audit = log_file;
		} else {
			log_file = fopen(o->log_path, "ae");
			if (!log_file) {
				sw_cli_error("open audit log %s: %s",
					     o->log_path, strerror(errno));
				return ret_exit->code;
			}
			/* Whole lines reach the file even if we are killed. */
			setvbuf(log_file, NULL, _IOLBF, 0);
			l.audit = log_file;
		}
	}

	/* --log is the run's trace: every decision, plain allows too. */
	l.audit_allows = true;
	tty = choose_job_control(&l);
	/* Before sw_run() installs its handlers and blocks SIGTTOU. */
	sw_signals_of_caller(&l.sig_ignored, &l.sig_blocked);
	r = sw_run_recorded(policy, &l, ret_exit, ret_record, &err);
	/* *ret_exit is set either way: on error, 126/127 if the program
	 * could not be exec'd, else 125. */
	if (r < 0)
		sw_cli_error("%s", err.msg);
	else
		sw_run_say_kernel_rules(o, policy && policy->has_filesystem, ret_exit);
	return sw_run_status(ret_exit);
}

static int run_embedded(const struct run_options *o)
{
	struct sw_policy *policy = NULL;
	struct sw_error err = { 0 };
	cleanup_fclose FILE *report_file = NULL;
	FILE *report = NULL;
	struct sw_record *rec = NULL;
	struct sw_exit ex;
	int exit_code = SW_EXIT_SYSWARD_ERROR;

	/* First: nothing of ours is open yet that the program must keep. */
	if (o->keep_fds >= 0 && sw_run_keep_fds(o->keep_fds, o->policy_fd, &err) < 0) {
		sw_cli_error("%s", err.msg);
		return SW_EXIT_SYSWARD_ERROR;
	}
	{
		cleanup_free char *text = NULL, *name = NULL;
		struct sw_policy_load_opts lo = { 0 };
		size_t len;

		if (sw_cli_policy_max_bytes(o->policy_max_bytes, &lo.max_bytes) < 0)
			return SW_EXIT_SYSWARD_ERROR;
		if ((o->policy_fd >= 0
		     ? sw_run_read_policy_fd(o->policy_fd, &text, &len, &name, &err)
		     : !o->policy_path
		     /* --sandbox alone: every call allowed (runopts.h) */
		     ? sw_run_sandbox_policy(&text, &len, &err)
		     : sw_policy_read_file_max(o->policy_path, lo.max_bytes, &text,
					       &len, &err)) < 0 ||
		    sw_policy_load_string_opts(text, len,
					       name ? name : sw_run_policy_name(o),
					       &lo,
					       &policy, &err) < 0) {
			sw_cli_error("%s", err.msg);
			return SW_EXIT_SYSWARD_ERROR;
		}
		if (sw_run_print_policy_warnings(o, policy, text, len) &&
		    o->strict) {
			sw_policy_free(policy);
			return SW_EXIT_SYSWARD_ERROR;
		}
	}

	/* Opened now: a report that cannot be written is said before the
	 * program runs, not after. */
	if (sw_run_open_report(o, &report_file, &report) < 0)
		goto out;

	exit_code = sw_run_embedded(o, policy, o->complain || o->report_path || o->gate,
				    &rec, &ex);
	if (rec)
		exit_code = after_run(o, policy, rec, report, &ex);
out:
	sw_record_free(rec);
	sw_policy_free(policy);
	return exit_code;
}

/* Say which granted capabilities leave the sandbox (docs/security.md). */
static void warn_caps(uint64_t caps)
{
	const char *name, *why;
	size_t i = 0;

	while ((why = sw_cap_danger(caps, &i, &name)))
		sw_cli_error("warning: --cap %s defeats confinement: %s", name,
			     why);
}

int cmd_run(int argc, char **argv)
{
	struct run_options o = {
		.log_format = SW_LOG_JSON, .policy_fd = -1, .keep_fds = -1,
	};
	int r;

	r = parse_options(argc, argv, &o);
	if (r)
		return r > 0 ? SW_EXIT_OK : -r;
	if (!o.quiet)
		warn_caps(o.caps);
	if (o.sandbox_on) {
		struct sw_error err = { 0 };

		if (sw_run_sandbox_begin(&o, &err) < 0) {
			sw_cli_error("%s", err.msg);
			return SW_EXIT_SYSWARD_ERROR;
		}
	}
	r = o.daemon_socket ? sw_run_daemon(&o) : run_embedded(&o);
	/* After every process of the session has ended (sw_run(), and
	 * syswardd's EXIT, wait for them all). */
	sw_run_sandbox_end(&o);
	return r;
}
