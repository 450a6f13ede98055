// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward-bench: the per-call cost of one cheap syscall (getppid via
 * syscall(2)) in one run, under increasingly heavy supervision:
 *
 *   a  unconfined
 *   b  a seccomp filter that allows it (BPF only, no tracer)
 *   b2 sysward, allowed by the BPF fast path (tracer attached, no stop)
 *   c  sysward, SYSWARD_ACT_REWRITE getppid -> getpid (one SECCOMP stop)
 *   c2 sysward, SYSWARD_ACT_EMULATE return 0 (stop + exit stop)
 *   d  a minimal hand-written tracer: GET/SET/CONT at each SECCOMP stop
 *      (the floor for any ptrace supervisor with one stop per call)
 *   e  strace --seccomp-bpf -e inject=getppid:retval=0 (if installed)
 *
 * and the ratios c/d (sysward's overhead over the floor) and e/c.  The
 * loop runs in a child that times itself, so process start-up and policy
 * loading are not counted.  A benchmark prints; it never passes or fails
 * on time.  It fails only when a mode does not do what it claims (e.g.
 * the emulated call did not return 0), so its figures can be trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <seccomp.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/ptrace_abi.h"

#ifndef PTRACE_EVENT_SECCOMP
#define PTRACE_EVENT_SECCOMP 7
#endif

struct loop_result {
	uint64_t ns;		/* wall time of the whole loop */
	uint64_t zero;		/* calls that returned 0 (emulated) */
	uint64_t self;		/* calls that returned our own pid (rewritten) */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct loop_result loop(uint64_t n)
{
	struct loop_result r = { 0 };
	long self = getpid();
	uint64_t t0;

	for (int i = 0; i < 100; i++)		/* warm caches and the path */
		syscall(SYS_getppid);
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		long v = syscall(SYS_getppid);

		r.zero += v == 0;
		r.self += v == self;
	}
	r.ns = now_ns() - t0;
	return r;
}

static int print_result(int fd, const struct loop_result *r)
{
	return dprintf(fd, "ns=%" PRIu64 " zero=%" PRIu64 " self=%" PRIu64 "\n",
		       r->ns, r->zero, r->self) < 0 ? -errno : 0;
}

static int parse_result(const char *buf, struct loop_result *r)
{
	return sscanf(buf, "ns=%" SCNu64 " zero=%" SCNu64 " self=%" SCNu64,
		      &r->ns, &r->zero, &r->self) == 3 ? 0 : -EINVAL;
}

/* Read a child's one-line result from fd until EOF. */
static int read_result(int fd, struct loop_result *r)
{
	char buf[256];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	return parse_result(buf, r);
}

/* ------------------------------------------------------------------ b */

static int load_filter(uint32_t getppid_action)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int r;

	if (!ctx)
		return -ENOMEM;
	/* Some denied calls, so the filter is not empty: it must walk past
	 * them to allow getppid, as a real policy's filter does. */
	static const int denied[] = {
		SCMP_SYS(reboot), SCMP_SYS(kexec_load), SCMP_SYS(init_module),
		SCMP_SYS(swapon), SCMP_SYS(mount), SCMP_SYS(umount2),
		SCMP_SYS(pivot_root), SCMP_SYS(acct), SCMP_SYS(settimeofday),
	};
	r = 0;
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]) && !r; i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), denied[i], 0);
	if (!r && getppid_action != SCMP_ACT_ALLOW)
		r = seccomp_rule_add(ctx, getppid_action, SCMP_SYS(getppid), 0);
	if (!r)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r;
}

static int bench_bpf_allow(uint64_t n, struct loop_result *res)
{
	cleanup_close int rfd = -1;
	int p[2], st;
	pid_t c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	c = fork();
	if (c < 0)
		return -errno;
	if (c == 0) {
		struct loop_result r;

		close(p[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    load_filter(SCMP_ACT_ALLOW) < 0)
			_exit(1);
		r = loop(n);
		_exit(print_result(p[1], &r) < 0 ? 1 : 0);
	}
	close(p[1]);
	rfd = p[0];
	st = read_result(rfd, res);
	waitpid(c, NULL, 0);
	return st;
}

/* ------------------------------------------------------------------ d */

/*
 * The floor: per SECCOMP stop, PTRACE_GET_SYSCALL_INFO, then
 * PTRACE_SET_SYSCALL_INFO of what was read (a rewrite to the same call),
 * then PTRACE_CONT.  Nothing else: no policy, no bookkeeping.
 */
static int bench_ptrace_floor(uint64_t n, struct loop_result *res,
			      uint64_t *ret_stops)
{
	cleanup_close int rfd = -1;
	int p[2], go[2], st, r = 0;
	uint64_t stops = 0;
	pid_t c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	c = fork();
	if (c < 0)
		return -errno;
	if (c == 0) {
		struct loop_result lr;
		char x;

		close(p[0]);
		close(go[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Wait until the parent has seized us. */
		if (read(go[0], &x, 1) != 1)
			_exit(1);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    load_filter(SCMP_ACT_TRACE(1)) < 0)
			_exit(1);
		lr = loop(n);
		_exit(print_result(p[1], &lr) < 0 ? 1 : 0);
	}
	close(p[1]);
	close(go[0]);
	rfd = p[0];
	if (ptrace(PTRACE_SEIZE, c, 0,
		   PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL) < 0) {
		r = -errno;
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
		return r;
	}
	if (write(go[1], "x", 1) != 1)
		r = -errno;
	close(go[1]);

	for (;;) {
		if (waitpid(c, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		if (!WIFSTOPPED(st))
			continue;
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			struct sw_ptrace_syscall_info info;

			memset(&info, 0, sizeof(info));
			if (ptrace(SW_PTRACE_GET_SYSCALL_INFO, c, sizeof(info),
				   &info) < 0 ||
			    ptrace(SW_PTRACE_SET_SYSCALL_INFO, c, sizeof(info),
				   &info) < 0) {
				r = -errno;
				kill(c, SIGKILL);
			}
			stops++;
			ptrace(PTRACE_CONT, c, 0, 0);
		} else {
			int sig = WSTOPSIG(st);

			/* Event stops and group-stops carry no signal. */
			if (st >> 16 || sig == SIGTRAP || sig == SIGSTOP)
				sig = 0;
			ptrace(PTRACE_CONT, c, 0, sig);
		}
	}
	if (r == 0)
		r = read_result(rfd, res);
	*ret_stops = stops;
	return r;
}

/* ------------------------------------------------------------ b2, c, c2 */

static int bench_sysward(const char *self, const char *policy_text,
			 uint64_t n, struct loop_result *res, char *why,
			 size_t why_size)
{
	struct sw_policy *policy = NULL;
	struct sw_error err = { 0 };
	cleanup_close int rfd = -1;
	char nbuf[32];
	char *argv[] = { (char *)self, "--loop", nbuf, NULL };
	struct sw_launch l = {
		.argv = argv,
		.stdio = { -1, -1, -1 },
		.uid = (uid_t)-1,
		.gid = (gid_t)-1,
	};
	int p[2], r, code = -1;

	snprintf(nbuf, sizeof(nbuf), "%" PRIu64, n);
	r = sw_policy_load_string(policy_text, strlen(policy_text),
				  "bench-policy", &policy, &err);
	if (r < 0) {
		snprintf(why, why_size, "%s", err.msg);
		return r;
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		sw_policy_free(policy);
		return -errno;
	}
	rfd = p[0];
	l.stdio[1] = p[1];
	/* The pipe must not be held open by us while we wait for EOF:
	 * sw_run blocks until the program exits, so read afterwards (the
	 * result line is far smaller than a pipe buffer). */
	r = sw_run(policy, &l, &code, &err);
	close(p[1]);
	sw_policy_free(policy);
	if (r < 0) {
		snprintf(why, why_size, "%s", err.msg);
		return r;
	}
	if (code != 0) {
		snprintf(why, why_size, "the loop exited with status %d", code);
		return -ECHILD;
	}
	r = read_result(rfd, res);
	if (r < 0)
		snprintf(why, why_size, "no result from the loop");
	return r;
}

/* ------------------------------------------------------------------ e */

static int bench_strace(const char *strace, const char *self, uint64_t n,
			struct loop_result *res, char *why, size_t why_size)
{
	cleanup_close int rfd = -1;
	char nbuf[32];
	int p[2], st;
	pid_t c;

	snprintf(nbuf, sizeof(nbuf), "%" PRIu64, n);
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	c = fork();
	if (c < 0)
		return -errno;
	if (c == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		execl(strace, strace, "-f", "--seccomp-bpf",
		      "-e", "inject=getppid:retval=0", "-e", "trace=getppid",
		      "-qq", "-o", "/dev/null", self, "--loop", nbuf,
		      (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	rfd = p[0];
	st = read_result(rfd, res);
	waitpid(c, NULL, 0);
	if (st < 0)
		snprintf(why, why_size, "%s gave no result (does it support "
			 "--seccomp-bpf with inject?)", strace);
	return st;
}

static const char *find_strace(void)
{
	static const char *const cands[] = {
		"/usr/bin/strace", "/usr/local/bin/strace", "/bin/strace",
	};
	const char *env = getenv("SYSWARD_BENCH_STRACE");

	if (env)
		return *env && access(env, X_OK) == 0 ? env : NULL;
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		if (access(cands[i], X_OK) == 0)
			return cands[i];
	return NULL;
}

static void strace_version(const char *strace, char *buf, size_t size)
{
	FILE *f;
	char cmd[PATH_MAX + 16];

	snprintf(buf, size, "?");
	snprintf(cmd, sizeof(cmd), "%s -V 2>/dev/null", strace);
	f = popen(cmd, "r");
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	pclose(f);
}

/* ------------------------------------------------------------------ main */

struct row {
	const char *key;
	const char *what;
	bool ran;
	double ns_per_call;
	char note[SW_ERROR_MSG_MAX + 256];
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: sysward-bench [-n N] [--no-strace]\n"
"Measure the per-call cost of getppid() unconfined, under a seccomp BPF\n"
"allow, under sysward (fast path, rewrite, emulate), under a minimal\n"
"GET/SET/CONT ptrace loop, and under strace --seccomp-bpf inject.\n"
"\n"
"  -n, --iterations N   calls per mode (default 50000)\n"
"      --no-strace      skip the strace row\n"
"  -h, --help           show this help\n"
"\n"
"Exit status: 0 if every mode ran and did what it claims, 1 otherwise.\n"
"Times are printed, never judged.\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "no-strace", no_argument, NULL, 'S' },
		{ "loop", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const char fast_policy[] =
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		" {\"names\": [\"getuid\"], \"action\": \"SYSWARD_ACT_EMULATE\","
		"  \"return\": 0}]}";
	static const char rewrite_policy[] =
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		" {\"names\": [\"getppid\"], \"action\": \"SYSWARD_ACT_REWRITE\","
		"  \"rewrite\": {\"syscall\": \"getpid\"}}]}";
	static const char emulate_policy[] =
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		" {\"names\": [\"getppid\"], \"action\": \"SYSWARD_ACT_EMULATE\","
		"  \"return\": 0}]}";
	struct row rows[] = {
		{ .key = "a", .what = "unconfined" },
		{ .key = "b", .what = "seccomp BPF allow (no tracer)" },
		{ .key = "b2", .what = "sysward, BPF fast path (no stop)" },
		{ .key = "c", .what = "sysward, REWRITE getppid->getpid" },
		{ .key = "c2", .what = "sysward, EMULATE return 0" },
		{ .key = "d", .what = "minimal ptrace GET/SET/CONT loop" },
		{ .key = "e", .what = "strace --seccomp-bpf inject retval=0" },
	};
	enum { A, B, B2, C, C2, D, E, NROWS };
	uint64_t n = 50000, stops = 0;
	bool no_strace = false, ok = true;
	struct loop_result lr;
	char self[PATH_MAX], why[SW_ERROR_MSG_MAX];
	const char *strace;
	ssize_t len;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "n:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n':
		case 'L': {
			char *end;

			errno = 0;
			n = strtoull(optarg, &end, 10);
			if (errno || *end || n == 0 || n > 1000000000ull) {
				fprintf(stderr, "sysward-bench: bad iteration "
					"count '%s' (1..1000000000)\n", optarg);
				return 2;
			}
			if (opt == 'L') {
				/* Child mode: run the loop, print, exit. */
				lr = loop(n);
				return print_result(1, &lr) < 0 ? 1 : 0;
			}
			break;
		}
		case 'S':
			no_strace = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0) {
		perror("sysward-bench: readlink /proc/self/exe");
		return 1;
	}
	self[len] = '\0';

	printf("sysward-bench: %" PRIu64 " getppid() calls per mode\n", n);
	fflush(stdout);

	/* a */
	lr = loop(n);
	rows[A].ran = true;
	rows[A].ns_per_call = (double)lr.ns / (double)n;

	/* b */
	r = bench_bpf_allow(n, &lr);
	if (r < 0) {
		snprintf(rows[B].note, sizeof(rows[B].note), "failed: %s",
			 strerror(-r));
	} else {
		rows[B].ran = true;
		rows[B].ns_per_call = (double)lr.ns / (double)n;
	}

	/* b2, c, c2 */
	struct {
		int row;
		const char *policy;
		uint64_t want_zero, want_self;
	} sw[] = {
		{ B2, fast_policy, 0, 0 },
		{ C, rewrite_policy, 0, n },
		{ C2, emulate_policy, n, 0 },
	};
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		struct row *row = &rows[sw[i].row];

		why[0] = '\0';
		r = bench_sysward(self, sw[i].policy, n, &lr, why, sizeof(why));
		if (r < 0) {
			snprintf(row->note, sizeof(row->note), "failed: %s",
				 why[0] ? why : strerror(-r));
			continue;
		}
		if (lr.zero != sw[i].want_zero || lr.self != sw[i].want_self) {
			snprintf(row->note, sizeof(row->note),
				 "WRONG: %" PRIu64 " calls returned 0 (want %"
				 PRIu64 "), %" PRIu64 " returned own pid (want %"
				 PRIu64 ")", lr.zero, sw[i].want_zero, lr.self,
				 sw[i].want_self);
			continue;
		}
		row->ran = true;
		row->ns_per_call = (double)lr.ns / (double)n;
	}

	/* d */
	r = bench_ptrace_floor(n, &lr, &stops);
	if (r < 0) {
		snprintf(rows[D].note, sizeof(rows[D].note), "failed: %s",
			 strerror(-r));
	} else if (stops < n) {
		snprintf(rows[D].note, sizeof(rows[D].note),
			 "WRONG: %" PRIu64 " SECCOMP stops for %" PRIu64 " calls",
			 stops, n);
	} else {
		rows[D].ran = true;
		rows[D].ns_per_call = (double)lr.ns / (double)n;
	}

	/* e */
	strace = no_strace ? NULL : find_strace();
	if (no_strace) {
		snprintf(rows[E].note, sizeof(rows[E].note),
			 "not run (--no-strace)");
	} else if (!strace) {
		snprintf(rows[E].note, sizeof(rows[E].note),
			 "not run: strace is not installed");
	} else {
		char ver[128];

		strace_version(strace, ver, sizeof(ver));
		why[0] = '\0';
		r = bench_strace(strace, self, n, &lr, why, sizeof(why));
		if (r < 0) {
			snprintf(rows[E].note, sizeof(rows[E].note),
				 "failed (%s): %s", ver, why);
		} else if (lr.zero != n) {
			snprintf(rows[E].note, sizeof(rows[E].note),
				 "WRONG (%s): inject retval=0 took effect on %"
				 PRIu64 " of %" PRIu64 " calls", ver, lr.zero, n);
		} else {
			rows[E].ran = true;
			rows[E].ns_per_call = (double)lr.ns / (double)n;
			snprintf(rows[E].note, sizeof(rows[E].note), "%s", ver);
		}
	}

	printf("\n%-4s %-40s %12s %10s\n", "mode", "", "ns/call", "x unconf.");
	for (int i = 0; i < NROWS; i++) {
		struct row *row = &rows[i];

		if (row->ran)
			printf("%-4s %-40s %12.1f %10.1f%s%s\n", row->key,
			       row->what, row->ns_per_call,
			       row->ns_per_call / rows[A].ns_per_call,
			       row->note[0] ? "  " : "", row->note);
		else
			printf("%-4s %-40s %12s %10s  %s\n", row->key,
			       row->what, "-", "-", row->note);
		/* A mode that failed makes the run fail; strace absent or
		 * skipped on request does not. */
		if (!row->ran && !(i == E && (no_strace || !strace)))
			ok = false;
	}
	printf("\nratios:\n");
	if (rows[C].ran && rows[D].ran)
		printf("  c/d  = %6.2f  (sysward rewrite / ptrace floor)\n",
		       rows[C].ns_per_call / rows[D].ns_per_call);
	else
		printf("  c/d  = -\n");
	if (rows[E].ran && rows[C].ran)
		printf("  e/c  = %6.2f  (strace inject / sysward rewrite)\n",
		       rows[E].ns_per_call / rows[C].ns_per_call);
	else
		printf("  e/c  = -\n");
	if (rows[E].ran && rows[C2].ran)
		printf("  e/c2 = %6.2f  (strace inject / sysward emulate, both "
		       "skip the call and set its return value)\n",
		       rows[E].ns_per_call / rows[C2].ns_per_call);
	else
		printf("  e/c2 = -\n");
	return ok ? 0 : 1;
}
