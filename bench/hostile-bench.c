// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hostile-bench: does one hostile session slow down everybody else's?
 * It prints figures; it never passes or fails on time.
 *
 *   hostile-bench --sysward PATH --syswardd PATH --spin PATH
 *                 [--sessions N] [--ps-samples K] [--calls C]
 *                 [--load spinner|forkflood|stopflood]... [--shards N]
 *                 [--rounds R]
 *
 * For each hostile load -- a spinner that never makes a system call (under
 * a path rule, so the supervisor has a path guard to set up at its first
 * call), a fork flood, a stop flood (SIGSTOP/SIGCONT of a process by its
 * child) -- N copies run in two ways, one after the other:
 *   confined:   as N syswardd sessions;
 *   unconfined: as N plain processes beside an idle syswardd,
 * so that CPU contention counts on both sides.  Meanwhile it measures
 *   - the latency of "sysward ps --daemon" (K runs, p50 and p99),
 *   - the latency of one supervised call (an emulated getuid) in a
 *     well-behaved session of the same daemon (C calls, p50 and p99),
 *   - how long syswardd takes to exit after SIGTERM,
 * and prints both sides and their ratio (confined / unconfined).
 * --load (repeatable) runs only the loads named, to measure one of them
 * again and again without waiting for the others.  --shards N starts the
 * daemon with that many tracer threads (default: its own default, one per
 * CPU): the hostile sessions are started first and the well-behaved one
 * last, so with more threads than hostile sessions it has one of its own.
 * --rounds R (default 3) measures both sides R times, alternating which
 * goes first, and prints the median of each figure over the rounds (and
 * the worst SIGTERM): a round that other work on the machine disturbed
 * moves a median less than a single measurement.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MAX_SESSIONS 16
#define MAX_ROUNDS 15
#define CHILD_TIMEOUT_NS (10LL * 1000000000LL)

static const char *sysward, *syswardd, *spin;
static char *shards;			/* --shards for the daemon, or NULL */
static char self[PATH_MAX], dir[] = "/tmp/sysward-hostile.XXXXXX";
static char sock[PATH_MAX], pol_guard[PATH_MAX], pol_calls[PATH_MAX];

static long long pct(long long *v, size_t n, int p)
{
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[(n - 1) * p / 100];
}

/* ---- the programs this binary also is --------------------------------- */

/* A fork flood: children that exit at once, forever. */
static int mode_forkflood(void)
{
	for (;;) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

/* A stop flood: a child stops and continues its parent, forever. */
static int mode_stopflood(void)
{
	pid_t parent = getpid(), p = fork();

	if (p == 0) {
		for (;;) {
			kill(parent, SIGSTOP);
			kill(parent, SIGCONT);
		}
	}
	for (;;)
		pause();
	return 0;
}

/* C emulated getuid calls, each timed; prints "p50 p99" in ns. */
static int mode_calls(int n)
{
	long long *v = calloc((size_t)n, sizeof(*v));

	if (!v)
		return 1;
	for (int i = 0; i < n; i++) {
		long long t0 = now_ns();

		if (getuid() != 4242)
			return 2;	/* not supervised: the figure would lie */
		v[i] = now_ns() - t0;
	}
	printf("%lld %lld\n", pct(v, (size_t)n, 50), pct(v, (size_t)n, 99));
	return 0;
}

/* ---- running things --------------------------------------------------- */

/* Wait for p, at most CHILD_TIMEOUT_NS; on timeout kill its group.
 * Returns the wait status, or -1 on timeout. */
static int wait_bounded(pid_t p)
{
	long long end = now_ns() + CHILD_TIMEOUT_NS;
	int st;

	while (now_ns() < end) {
		pid_t w = waitpid(p, &st, WNOHANG);

		if (w == p)
			return st;
		usleep(1000);
	}
	kill(-p, SIGKILL);
	waitpid(p, &st, 0);
	return -1;
}

/* SIGTERM to the daemon; ns until it is gone (-1: not within 10 s). */
static long long daemon_stop(pid_t d)
{
	long long t0 = now_ns();

	kill(d, SIGTERM);
	if (wait_bounded(d) < 0)
		return -1;
	return now_ns() - t0;
}

enum load { SPINNER, FORKFLOOD, STOPFLOOD, N_LOADS };
static const char *const load_name[] = { "spinner", "fork flood", "stop flood" };

static pid_t start_hostile(enum load l, int confined)
{
	char dash[] = "--";
	char *prog[3] = { NULL };
	char *argv[12];
	int a = 0;

	if (l == SPINNER)
		prog[0] = (char *)spin;
	else {
		prog[0] = self;
		prog[1] = l == FORKFLOOD ? "--forkflood" : "--stopflood";
	}
	if (confined) {
		static char dopt[PATH_MAX + 16];

		snprintf(dopt, sizeof(dopt), "--daemon=%s", sock);
		argv[a++] = (char *)sysward;
		argv[a++] = "run";
		argv[a++] = dopt;
		argv[a++] = "--policy";
		argv[a++] = pol_guard;
		argv[a++] = dash;
	}
	for (int i = 0; prog[i]; i++)
		argv[a++] = prog[i];
	argv[a] = NULL;
	return spawn(argv, -1);
}

struct figures {
	long long ps_p50, ps_p99, call_p50, call_p99, term;
	int ps_timeouts;
};

static void measure(int ps_samples, int calls, struct figures *f)
{
	char dopt[PATH_MAX + 16], cnt[16];
	long long *v = calloc((size_t)ps_samples, sizeof(*v));
	size_t n = 0;
	int fds[2];

	if (!v)
		die("calloc");
	snprintf(dopt, sizeof(dopt), "--daemon=%s", sock);
	f->ps_timeouts = 0;
	for (int i = 0; i < ps_samples; i++) {
		char *argv[] = { (char *)sysward, "ps", dopt, NULL };
		long long t0 = now_ns();
		pid_t p = spawn(argv, -1);

		if (wait_bounded(p) < 0) {
			/* A daemon that does not answer in 10 s is frozen:
			 * more samples would only say so again. */
			f->ps_timeouts++;
			break;
		}
		v[n++] = now_ns() - t0;
	}
	f->ps_p50 = pct(v, n, 50);
	f->ps_p99 = pct(v, n, 99);
	free(v);

	snprintf(cnt, sizeof(cnt), "%d", calls);
	if (pipe(fds) < 0)
		die("pipe");
	{
		char *argv[] = { (char *)sysward, "run", dopt, "--policy", pol_calls,
				 "--", self, "--calls", cnt, NULL };
		pid_t p = spawn(argv, fds[1]);
		char buf[128] = "";
		ssize_t r;
		int st;

		close(fds[1]);
		st = wait_bounded(p);
		/* Whatever it printed is in the pipe by now; a frozen daemon
		 * may still hold the write end, so never wait for more. */
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		r = read(fds[0], buf, sizeof(buf) - 1);
		close(fds[0]);
		f->call_p50 = f->call_p99 = -1;
		if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && r > 0)
			sscanf(buf, "%lld %lld", &f->call_p50, &f->call_p99);
	}
}

/* One side of one round: the daemon, the hostile programs, the figures. */
static void run_side(enum load l, int confined, int sessions, int ps_samples,
		     int calls, struct figures *f)
{
	const char *opts[] = { "--shards", shards, NULL };
	pid_t d = start_syswardd(syswardd, sock, shards ? opts : NULL), h[MAX_SESSIONS];

	for (int i = 0; i < sessions; i++)
		h[i] = start_hostile(l, confined);
	usleep(500000);	/* let them get going */
	measure(ps_samples, calls, f);
	f->term = daemon_stop(d);
	for (int i = 0; i < sessions; i++) {
		kill(-h[i], SIGKILL);
		kill(-h[i], SIGCONT);
		wait_bounded(h[i]);
	}
}

/* The median of one figure over n rounds (-1, "failed", sorts first). */
static long long median_field(const struct figures *v, int n, size_t off)
{
	long long x[MAX_ROUNDS];

	for (int i = 0; i < n; i++)
		x[i] = *(const long long *)((const char *)&v[i] + off);
	return median_ll(x, (size_t)n);
}

static void median_of(const struct figures *v, int n, struct figures *f)
{
	f->ps_p50 = median_field(v, n, offsetof(struct figures, ps_p50));
	f->ps_p99 = median_field(v, n, offsetof(struct figures, ps_p99));
	f->call_p50 = median_field(v, n, offsetof(struct figures, call_p50));
	f->call_p99 = median_field(v, n, offsetof(struct figures, call_p99));
	f->term = 0;
	f->ps_timeouts = 0;
	for (int i = 0; i < n; i++) {
		/* The worst SIGTERM; a daemon that did not stop is worst. */
		if (f->term >= 0 && (v[i].term < 0 || v[i].term > f->term))
			f->term = v[i].term;
		f->ps_timeouts += v[i].ps_timeouts;
	}
}

static void us(long long ns, char *buf, size_t size)
{
	if (ns < 0)
		snprintf(buf, size, "   n/a");
	else
		snprintf(buf, size, "%6.0f", ns / 1000.0);
}

static void ratio(long long a, long long b, char *buf, size_t size)
{
	if (a < 0 || b <= 0)
		snprintf(buf, size, "  n/a");
	else
		snprintf(buf, size, "%5.2f", (double)a / (double)b);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysward", required_argument, NULL, 's' },
		{ "syswardd", required_argument, NULL, 'd' },
		{ "spin", required_argument, NULL, 'S' },
		{ "sessions", required_argument, NULL, 'n' },
		{ "ps-samples", required_argument, NULL, 'k' },
		{ "calls", required_argument, NULL, 'c' },
		{ "forkflood", no_argument, NULL, 'F' },
		{ "stopflood", no_argument, NULL, 'T' },
		{ "load", required_argument, NULL, 'l' },
		{ "shards", required_argument, NULL, 'j' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const char *const load_opt[] = { "spinner", "forkflood", "stopflood" };
	int sessions = 2, ps_samples = 100, calls = 2000, rounds = 3, o;
	unsigned int loads = 0;		/* bit l: run load l; none: all */

	if (argc == 3 && !strcmp(argv[1], "--calls"))
		return mode_calls(atoi(argv[2]));
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 's': sysward = optarg; break;
		case 'd': syswardd = optarg; break;
		case 'S': spin = optarg; break;
		case 'n': sessions = atoi(optarg); break;
		case 'k': ps_samples = atoi(optarg); break;
		case 'c': calls = atoi(optarg); break;
		case 'l':
			for (o = 0; o < N_LOADS && strcmp(optarg, load_opt[o]); o++)
				;
			if (o == N_LOADS) {
				fprintf(stderr, "hostile-bench: unknown load %s\n", optarg);
				return 2;
			}
			loads |= 1u << o;
			break;
		case 'j': shards = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'F': return mode_forkflood();
		case 'T': return mode_stopflood();
		default:
			fprintf(stderr, "usage: %s --sysward PATH --syswardd PATH --spin PATH "
				"[--sessions N] [--ps-samples K] [--calls C] "
				"[--load spinner|forkflood|stopflood]... [--shards N] [--rounds R]\n", argv[0]);
			return o == 'h' ? 0 : 2;
		}
	}
	if (!sysward || !syswardd || !spin || sessions < 1 || sessions > MAX_SESSIONS ||
	    ps_samples < 1 || calls < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "hostile-bench: --sysward, --syswardd and --spin are required; "
			"1 <= --sessions <= %d, 1 <= --rounds <= %d (see --help)\n",
			MAX_SESSIONS, MAX_ROUNDS);
		return 2;
	}
	bench_setup(self, dir);
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	/* The hostile sessions run under a path rule (a path guard to set
	 * up at the first call after exec); the measured one emulates. */
	bench_put_file(pol_guard, dir, "guard.json", "%s",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [\n"
		   " {\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\",\n"
		   "  \"errnoRet\": 13, \"paths\": [{\"index\": 1, \"prefix\": \"/etc/shadow\"}]}]}\n");
	bench_put_file(pol_calls, dir, "calls.json", "%s",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [\n"
		   " {\"names\": [\"getuid\"], \"action\": \"SYSWARD_ACT_EMULATE\", \"return\": 4242}]}\n");
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("hostile-bench: %d hostile sessions, %d ps runs, %d supervised calls per side "
	       "and round; medians of %d rounds, worst SIGTERM\n",
	       sessions, ps_samples, calls, rounds);
	printf("%-11s %-11s %8s %8s %9s %9s %10s %8s\n", "load", "side", "ps p50us",
	       "ps p99us", "call p50us", "call p99us", "SIGTERM ms", "ps t/o");
	if (!loads)
		loads = (1u << N_LOADS) - 1;
	for (int l = 0; l < N_LOADS; l++) {
		struct figures side[2], rounds_of[2][MAX_ROUNDS];

		if (!(loads & (1u << l)))
			continue;

		for (int r = 0; r < rounds; r++)
			for (int k = 0; k < 2; k++) {
				/* Alternate which side goes first. */
				int confined = (r + k) % 2 == 0;

				run_side((enum load)l, confined, sessions, ps_samples,
					 calls, &rounds_of[confined][r]);
			}
		for (int confined = 1; confined >= 0; confined--) {
			struct figures *f = &side[confined];
			char a[16], b[16], c[16], e[16];

			median_of(rounds_of[confined], rounds, f);
			us(f->ps_p50, a, sizeof(a));
			us(f->ps_p99, b, sizeof(b));
			us(f->call_p50, c, sizeof(c));
			us(f->call_p99, e, sizeof(e));
			printf("%-11s %-11s %8s %8s %9s %9s %10.1f %8d\n", load_name[l],
			       confined ? "confined" : "unconfined", a, b, c, e,
			       f->term < 0 ? -1.0 : f->term / 1e6, f->ps_timeouts);
		}
		{
			char r1[16], r2[16];

			ratio(side[1].ps_p99, side[0].ps_p99, r1, sizeof(r1));
			ratio(side[1].call_p99, side[0].call_p99, r2, sizeof(r2));
			printf("%-11s %-11s %8s %8s %9s %9s\n", load_name[l], "ratio", "",
			       r1, "", r2);
		}
	}
	unlink(pol_guard);
	unlink(pol_calls);
	unlink(sock);
	rmdir(dir);
	return 0;
}
