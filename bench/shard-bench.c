// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * shard-bench: how syswardd's supervised calls per second grow with the
 * number of sessions and of tracer threads ("shards").  It prints
 * figures; it never passes or fails on time.
 *
 *   shard-bench --sysward PATH --syswardd PATH [--calls N] [--rounds R]
 *               [--shards K]
 *
 * For S = 1, 2, 4 and 8 sessions at once, each a program that makes N
 * emulated getuid() calls (one ptrace stop each), through a daemon with
 * one tracer thread and through one with K (default: the daemon's own
 * default, one per online CPU), it prints
 *   - calls/s: all sessions' calls over the time from the first loop's
 *     start to the last loop's end (programs time themselves, so launch
 *     is not counted);
 *   - the daemon's CPU time per call: the growth of every daemon
 *     thread's run time (/proc/PID/task/TID/schedstat, in ns) over the
 *     round, divided by the calls; a call is one stop, so this is the
 *     tracer's CPU per stop, and 1e6 / it is the most calls per second
 *     one tracer thread can serve.
 * Each round measures both daemons one after the other (alternating which
 * goes first); the figures are medians over R rounds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define MAX_S 8
#define MAX_ROUNDS 15
#define EMULATED_UID 4242

static const char *sysward, *syswardd;
static char self[PATH_MAX], dir[] = "/tmp/shard-bench.XXXXXX";
static char sock[PATH_MAX], policy[PATH_MAX];

/* The confined program: N emulated getuid(); prints "start end". */
static int mode_loop(long n)
{
	long long t0;

	for (int i = 0; i < 100; i++)		/* warm up */
		getuid();
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (getuid() != EMULATED_UID)
			return 2;	/* not supervised: the figure would lie */
	printf("%lld %lld\n", t0, now_ns());
	return 0;
}

/* Every thread's run time so far, in ns (schedstat's first field). */
static long long daemon_cpu_ns(pid_t d)
{
	char path[64];
	long long sum = 0;
	struct dirent *e;
	DIR *td;

	snprintf(path, sizeof(path), "/proc/%d/task", d);
	td = opendir(path);
	if (!td)
		die(path);
	while ((e = readdir(td))) {
		char p[320];
		long long ns;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/proc/%d/task/%s/schedstat", d, e->d_name);
		f = fopen(p, "re");
		if (!f)
			continue;	/* a thread that just ended */
		if (fscanf(f, "%lld", &ns) == 1)
			sum += ns;
		fclose(f);
	}
	closedir(td);
	return sum;
}

struct figure {
	double calls_per_s;
	double cpu_us_per_call;
};

/* S sessions of N calls at once through the daemon d. */
static void measure(pid_t d, int s, long n, struct figure *f)
{
	char dopt[PATH_MAX + 16], nbuf[32];
	long long first = 0, last = 0, cpu0, cpu1;
	pid_t pid[MAX_S];
	int fd[MAX_S];

	snprintf(dopt, sizeof(dopt), "--daemon=%s", sock);
	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	cpu0 = daemon_cpu_ns(d);
	for (int i = 0; i < s; i++) {
		int p[2];

		if (pipe2(p, O_CLOEXEC) < 0)
			die("pipe");
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork");
		if (pid[i] == 0) {
			dup2(p[1], 1);
			execl(sysward, sysward, "run", dopt, "--policy", policy,
			      "--", self, "--loop", nbuf, (char *)NULL);
			_exit(127);
		}
		close(p[1]);
		fd[i] = p[0];
	}
	for (int i = 0; i < s; i++) {
		char buf[128] = "";
		long long t0, t1;
		ssize_t r = read(fd[i], buf, sizeof(buf) - 1);
		int st;

		close(fd[i]);
		waitpid(pid[i], &st, 0);
		if (r <= 0 || sscanf(buf, "%lld %lld", &t0, &t1) != 2 ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "shard-bench: a session failed (status 0x%x, "
				"output '%s')\n", st, buf);
			exit(1);
		}
		if (!first || t0 < first)
			first = t0;
		if (t1 > last)
			last = t1;
	}
	cpu1 = daemon_cpu_ns(d);
	f->calls_per_s = (double)s * (double)n / ((double)(last - first) / 1e9);
	f->cpu_us_per_call = (double)(cpu1 - cpu0) / 1000.0 / ((double)s * (double)n);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return v[n / 2];
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: shard-bench --sysward PATH --syswardd PATH [--calls N] [--rounds R]\n"
"                   [--shards K]\n"
"Supervised calls per second through syswardd for 1, 2, 4 and 8 sessions at\n"
"once, with one tracer thread and with K (default: syswardd's default, one\n"
"per online CPU), and the daemon's CPU time per call (= per ptrace stop).\n"
"\n"
"  --calls N    emulated getuid() calls per session (default 20000)\n"
"  --rounds R   rounds, 1..%d (default 3); medians are printed\n"
"  --shards K   tracer threads of the second daemon\n"
"Times are printed, never judged.\n", MAX_ROUNDS);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "sysward", required_argument, NULL, 's' },
		{ "syswardd", required_argument, NULL, 'd' },
		{ "calls", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "shards", required_argument, NULL, 'k' },
		{ "loop", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const int sessions[] = { 1, 2, 4, MAX_S };
	enum { N_S = sizeof(sessions) / sizeof(sessions[0]) };
	const char *shards = NULL;
	long n = 20000;
	int rounds = 3, opt;
	/* [config][S index][round] */
	struct figure fig[2][N_S][MAX_ROUNDS];

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'L':
			return mode_loop(atol(optarg));
		case 's':
			sysward = optarg;
			break;
		case 'd':
			syswardd = optarg;
			break;
		case 'n':
			n = atol(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'k':
			shards = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!sysward || !syswardd || n < 1 || rounds < 1 || rounds > MAX_ROUNDS ||
	    optind < argc) {
		usage(stderr);
		return 2;
	}
	bench_setup(self, dir);
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	bench_put_file(policy, dir, "calls.json",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
		       "[{\"names\": [\"getuid\"], \"action\": "
		       "\"SYSWARD_ACT_EMULATE\", \"return\": %d}]}\n", EMULATED_UID);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("shard-bench: %ld emulated getuid() calls per session, %ld online "
	       "CPUs, medians of %d rounds\n", n, sysconf(_SC_NPROCESSORS_ONLN),
	       rounds);

	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < 2; k++) {
			int c = (k + r) % 2;	/* alternate which goes first */
			const char *opts[] = { "--shards", c == 0 ? "1" : shards, NULL };
			pid_t d = start_syswardd(syswardd, sock, opts[1] ? opts : NULL);

			for (int i = 0; i < N_S; i++)
				measure(d, sessions[i], n, &fig[c][i][r]);
			stop_syswardd(d, sock);
		}
	}

	printf("\n%9s %16s %16s %8s %14s %14s\n", "sessions", "1 shard calls/s",
	       "K shards calls/s", "K / 1", "1: us CPU/call", "K: us CPU/call");
	for (int i = 0; i < N_S; i++) {
		double cps[2], cpu[2], v[MAX_ROUNDS];

		for (int c = 0; c < 2; c++) {
			for (int r = 0; r < rounds; r++)
				v[r] = fig[c][i][r].calls_per_s;
			cps[c] = median(v, rounds);
			for (int r = 0; r < rounds; r++)
				v[r] = fig[c][i][r].cpu_us_per_call;
			cpu[c] = median(v, rounds);
		}
		printf("%9d %16.0f %16.0f %8.2f %14.1f %14.1f\n", sessions[i],
		       cps[0], cps[1], cps[1] / cps[0], cpu[0], cpu[1]);
	}
	printf("  (K = %s; us CPU/call: the daemon's CPU per supervised call, "
	       "one ptrace stop;\n   one tracer thread serves at most 1e6 / it "
	       "calls per second)\n", shards ? shards : "syswardd's default");
	unlink(policy);
	rmdir(dir);
	return 0;
}
