// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syswardd: the sysward supervisor daemon.  Clients ("sysward run
 * --daemon") ask it to run programs under a policy; it runs each with the
 * client's own credentials, supervises them on tracer threads (shard.c)
 * beside one event loop for the clients (server.c), and takes every
 * tracee with it if it dies (PTRACE_O_EXITKILL).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/proto.h"
#include "syswardd.h"

#ifndef SYSWARD_VERSION
#define SYSWARD_VERSION "unknown"
#endif

#define DEFAULT_MAX_SESSIONS 256
#define DEFAULT_REQUEST_TIMEOUT 30
/* Seconds libseccomp may take over one RUN's policy (compile.c): docker's
 * default profile takes under 0.1 s, 300 rules of four calls with two
 * argument conditions 3.5 s (both on an idle machine: a loaded one takes
 * twice as long); a compile that runs longer is refused. */
#define DEFAULT_COMPILE_TIMEOUT 10
/* A uid's RUNs waiting for or in their compile.  Each waits its turn
 * (one compile per uid at a time) and delays only its own uid, so the
 * bound is about memory, not fairness: well above the concurrent
 * launches a build or a test runner makes (daemon.concurrent_50). */
#define DEFAULT_COMPILE_QUEUE 64
/* Each a thread and its bell process; beyond the cores they add nothing. */
#define MAX_SHARDS 256	/* and in --shards' message */

static long default_shards(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_SHARDS ? MAX_SHARDS : n;
}

static void help(FILE *f)
{
	fprintf(f,
"Usage: syswardd [OPTIONS]\n"
"Supervise programs for sysward clients: 'sysward run --daemon' sends a\n"
"program, its policy and its stdin/stdout/stderr; syswardd runs it with the\n"
"client's own uid, gid and groups under the policy and reports its exit.\n"
"\n"
"Options:\n"
"  -s, --socket PATH       listen on PATH (default: /run/sysward.sock as\n"
"                          root, $XDG_RUNTIME_DIR/sysward.sock otherwise);\n"
"                          ignored under systemd socket activation\n"
"  -m, --socket-mode MODE  file mode of the socket (default 0666 as root,\n"
"                          so every user may ask; 0600 otherwise)\n"
"  -a, --audit-log FILE    append one JSON line per session start/exit and\n"
"                          per supervisor decision that is no plain allow\n"
"                          (refusals, emulations, rewrites, LOG rules) to FILE\n"
"      --audit-allows      ... and per plain allow too\n"
"  -n, --max-sessions N    run at most N programs at once (default %d)\n"
"  -t, --request-timeout S close a connection that has not completed a\n"
"                          request within S seconds (default %d)\n"
"  -j, --shards N          supervise with N tracer threads (default: one\n"
"                          per online CPU, here %ld; 1 to %d); each session\n"
"                          and all its processes stay on one of them\n"
"  -c, --compile-timeout S refuse a RUN whose policy takes libseccomp more\n"
"                          than S seconds to compile (default %d)\n"
"  -q, --compile-queue N   refuse a RUN of a uid that has N waiting for or\n"
"                          in their compile already (default %d)\n"
"  -h, --help              show this help and exit\n"
"  -V, --version           show the version and exit\n"
"\n"
"Clients only see and kill their own uid's sessions (root sees all); a\n"
"program keeps capabilities only if its client is root and asked for them.\n"
"SIGTERM or SIGINT stops the daemon and kills every program it runs.\n"
"\n"
"Example:\n"
"  syswardd --socket /tmp/sw.sock --audit-log /tmp/audit.jsonl &\n"
"  sysward run --daemon=/tmp/sw.sock --policy policy.json -- id -u\n"
"  sysward ps --daemon=/tmp/sw.sock\n", DEFAULT_MAX_SESSIONS,
		DEFAULT_REQUEST_TIMEOUT, default_shards(), MAX_SHARDS,
		DEFAULT_COMPILE_TIMEOUT, DEFAULT_COMPILE_QUEUE);
}

/* optarg as a whole number in base, within [min, max]. */
static bool number_in(const char *arg, int base, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, base);
	return !errno && !*end && *arg && *v >= min && *v <= max;
}

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "syswardd: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'syswardd --help'.\n");
	return 2;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "socket-mode", required_argument, NULL, 'm' },
		{ "audit-log", required_argument, NULL, 'a' },
		{ "audit-allows", no_argument, NULL, 'A' },
		{ "max-sessions", required_argument, NULL, 'n' },
		{ "request-timeout", required_argument, NULL, 't' },
		{ "shards", required_argument, NULL, 'j' },
		{ "compile-timeout", required_argument, NULL, 'c' },
		{ "compile-queue", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	long v;
	int opt;

	while ((opt = getopt_long(argc, argv, "s:m:a:n:t:j:c:q:hV", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			o->socket_path = optarg;
			break;
		case 'm':
			if (!number_in(optarg, 8, 0, 0777, &v))
				return -usage("invalid --socket-mode '%s' "
					      "(expected octal, e.g. 0660)",
					      optarg);
			o->socket_mode = (int)v;
			break;
		case 'a':
			o->audit_path = optarg;
			break;
		case 'A':
			o->audit_allows = true;
			break;
		case 'n':
			if (!number_in(optarg, 10, 1, SW_PROTO_MAX_PS_ENTRIES, &v))
				return -usage("invalid --max-sessions '%s' "
					      "(expected 1 to 4096)", optarg);
			o->max_sessions = (unsigned int)v;
			break;
		case 't':
			if (!number_in(optarg, 10, 1, 3600, &v))
				return -usage("invalid --request-timeout '%s' "
					      "(expected 1 to 3600 seconds)",
					      optarg);
			o->request_timeout = (unsigned int)v;
			break;
		case 'j':
			if (!number_in(optarg, 10, 1, MAX_SHARDS, &v))
				return -usage("invalid --shards '%s' (expected 1 "
					      "to 256)", optarg);
			o->shards = (unsigned int)v;
			break;
		case 'c':
			if (!number_in(optarg, 10, 1, 3600, &v))
				return -usage("invalid --compile-timeout '%s' "
					      "(expected 1 to 3600 seconds)",
					      optarg);
			o->compile_timeout = (unsigned int)v;
			break;
		case 'q':
			if (!number_in(optarg, 10, 1, 65536, &v))
				return -usage("invalid --compile-queue '%s' "
					      "(expected 1 to 65536)", optarg);
			o->compile_queue = (unsigned int)v;
			break;
		case 'h':
			help(stdout);
			return 1;
		case 'V':
			printf("syswardd %s\n", SYSWARD_VERSION);
			return 1;
		default:
			fprintf(stderr, "Try 'syswardd --help'.\n");
			return -2;
		}
	}
	if (optind < argc)
		return -usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

/* O_APPEND: lines from a restarted daemon (or logrotate's copytruncate)
 * never overwrite each other; line-buffered: each line is written whole. */
static int open_audit(const char *path, FILE **ret, struct sw_error *err)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
			    O_NOCTTY, 0640);
	FILE *f;

	if (fd < 0)
		return sw_error_set_errno(err, errno, "open audit log %s", path);
	f = fdopen(fd, "a");
	if (!f) {
		close(fd);
		return sw_error_set_errno(err, errno, "open audit log %s",
					  path);
	}
	setvbuf(f, NULL, _IOLBF, 0);
	*ret = f;
	return 0;
}

/*
 * Programs inherit ignored signals across fork and exec.  A daemon started
 * from a script in the background has SIGINT and SIGQUIT ignored (POSIX
 * shells do that to asynchronous commands): give every program the clean
 * dispositions a systemd service would have, so that the SIGINT its client
 * forwards kills it as it would kill it unconfined.
 */
static void reset_signals(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };

	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
}

/*
 * Programs inherit our controlling terminal through fork: started by hand
 * from root's terminal, the daemon would let every client's program open
 * /dev/tty and read or write that terminal.  Give it up (a systemd
 * service has none).  TIOCNOTTY, not setsid(): it also works when we
 * lead our process group, and Ctrl-C to our group still stops us.
 */
static void drop_controlling_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return;		/* none: nothing to give up */
	if (ioctl(fd, TIOCNOTTY) < 0)
		fprintf(stderr, "syswardd: warning: cannot detach from the "
			"controlling terminal (%s); programs may reach it\n",
			strerror(errno));
	close(fd);
}

/*
 * Every session's supervised calls wait on this one process.  A program
 * that keeps it busy (a stop flood) takes its CPU too: each program we
 * resume wakes up on our CPU and runs ahead of us.  So the daemon runs at
 * a higher priority than the programs it serves (which get their client's
 * nice value back, launchchild.c), as far as it may (CAP_SYS_NICE) and unless
 * it was started with a nice value of its own choosing.
 */
#define SYSWARDD_NICE (-10)

static void raise_priority(void)
{
	errno = 0;
	if (getpriority(PRIO_PROCESS, 0) != 0 || errno)
		return;		/* started niced on purpose: keep that */
	(void)setpriority(PRIO_PROCESS, 0, SYSWARDD_NICE);
}

int main(int argc, char **argv)
{
	struct options o = { .max_sessions = DEFAULT_MAX_SESSIONS,
			     .request_timeout = DEFAULT_REQUEST_TIMEOUT,
			     .compile_timeout = DEFAULT_COMPILE_TIMEOUT,
			     .compile_queue = DEFAULT_COMPILE_QUEUE,
			     .shards = (unsigned int)default_shards(),
			     .socket_mode = -1 };
	struct sw_error err = { 0 };
	struct server *srv = NULL;
	cleanup_fclose FILE *audit = NULL;
	char path[PATH_MAX];
	bool activated = false;
	int fd = -1, r;

	/* A session's holder, executed by launchchild.c: before anything else
	 * (no option parsing, no logging: it only waits). */
	if (argc >= 1 && strcmp(argv[0], SW_HOLDER_ARGV0) == 0)
		return sw_holder_main();

	r = parse_options(argc, argv, &o);
	if (r)
		return r > 0 ? 0 : -r;
	reset_signals();
	drop_controlling_tty();
	raise_priority();
	if (o.socket_path)
		snprintf(path, sizeof(path), "%s", o.socket_path);
	else if (sw_proto_default_socket(true, path, sizeof(path), &err) < 0) {
		fprintf(stderr, "syswardd: %s\n", err.msg);
		return 1;
	}
	if (o.socket_mode < 0)
		o.socket_mode = geteuid() == 0 ? 0666 : 0600;
	if (o.audit_path && open_audit(o.audit_path, &audit, &err) < 0) {
		fprintf(stderr, "syswardd: %s\n", err.msg);
		return 1;
	}
	/* Our own stdio must not be fds 0-2 of nobody: the engine dup2()s
	 * client fds onto them in children only. */
	r = listen_socket(path, o.socket_mode, &fd, &activated, &err);
	if (r < 0) {
		fprintf(stderr, "syswardd: %s\n", err.msg);
		return 1;
	}
	r = server_new(&srv, fd, audit, &o, &err);
	if (r < 0) {
		fprintf(stderr, "syswardd: %s\n", err.msg);
		if (!activated)
			unlink(path);
		close(fd);
		return 1;
	}
	if (activated)
		fprintf(stderr, "syswardd: serving the socket systemd passed "
			"(max %u sessions, %u tracer threads)\n",
			o.max_sessions, o.shards);
	else
		fprintf(stderr, "syswardd: listening on %s (max %u sessions, "
			"%u tracer threads)\n", path, o.max_sessions, o.shards);
	r = server_run(srv, &err);
	if (r < 0)
		fprintf(stderr, "syswardd: %s\n", err.msg);
	else
		fprintf(stderr, "syswardd: %s received, stopping; every "
			"program it ran is killed\n", strsignal(r));
	/* Remove the name before the last program dies, so no client
	 * connects to a daemon that is going away. */
	if (!activated)
		unlink(path);
	server_free(srv);
	close(fd);
	return r < 0 ? 1 : 0;
}
