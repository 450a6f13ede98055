// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * compile-bench: what a big policy being compiled for one client costs
 * another session's supervised calls in syswardd.  It prints figures; it
 * never passes or fails on time.
 *
 *   compile-bench --sysward PATH --syswardd PATH [--baseline PATH]
 *                 [--rules N] [--seconds S] [--rounds R] [--shards K]
 *
 * Through a daemon with K tracer threads (default 1: the thread the
 * compile used to run on is the loop's), a session makes emulated
 * getuid() calls for S seconds (default 3) and records the time of each;
 * once quiet, once while another RUN with an N-rule policy (default 200:
 * four calls and two argument conditions per rule, what libseccomp is
 * slow at) starts 0.3 s into the loop.  Printed per daemon: the calls'
 * p99 and the longest gap, quiet and during the compile, and their
 * ratio; with --baseline (another build's syswardd, e.g. main's), both
 * side by side, rounds alternating which goes first; medians over R.
 */
#include <getopt.h>
#include <seccomp.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/wait.h>

#include "bench.h"

#define MAX_ROUNDS 15
#define EMULATED_UID 4242

static const char *sysward;
static char self[PATH_MAX], dir[] = "/tmp/compile-bench.XXXXXX";
static char uid_policy[PATH_MAX], big_policy[PATH_MAX];

/* The confined program: getuid() for s seconds; prints "p99_ns max_ns". */
static int mode_loop(double s)
{
	size_t cap = 1 << 20, n = 0;
	long long *gap = malloc(cap * sizeof(*gap)), end, last;

	if (!gap)
		die("malloc");
	last = now_ns();
	end = last + (long long)(s * 1e9);
	while (last < end) {
		long long t;

		if (getuid() != EMULATED_UID)
			return 2;	/* not supervised: the figure would lie */
		t = now_ns();
		if (n == cap && !(gap = realloc(gap, (cap *= 2) * sizeof(*gap))))
			die("realloc");
		gap[n++] = t - last;
		last = t;
	}
	qsort(gap, n, sizeof(*gap), cmp_ll);
	printf("%lld %lld\n", gap[n * 99 / 100], gap[n - 1]);
	return 0;
}

static void write_policies(int rules)
{
	/* The first 70 x86_64 calls but getuid (nr 102 anyway), by number:
	 * what matters is four names and two conditions per rule. */
	const int nc = 70;
	const char *calls[70];
	int have = 0;

	for (int nr = 0; have < nc && nr < 400; nr++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

		if (name && strcmp(name, "getuid"))
			calls[have++] = name;	/* kept: the process is short */
		else
			free(name);
	}
	if (have < nc)
		die("libseccomp names too few system calls");
	const char *emulate = "{\"names\": [\"getuid\"], \"action\": "
		"\"SYSWARD_ACT_EMULATE\", \"return\": 4242}";
	FILE *f;

	snprintf(big_policy, sizeof(big_policy), "%s/big.json", dir);
	bench_put_file(uid_policy, dir, "uid.json",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [%s]}\n", emulate);
	f = fopen(big_policy, "w");
	if (!f)
		die(big_policy);
	fprintf(f, "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [%s", emulate);
	for (int i = 0; i < rules; i++)
		fprintf(f, ", {\"names\": [\"%s\", \"%s\", \"%s\", \"%s\"], "
			"\"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EPERM\", "
			"\"args\": [{\"index\": 0, \"value\": %d, \"op\": \"SCMP_CMP_EQ\"}, "
			"{\"index\": 1, \"value\": %d, \"op\": \"SCMP_CMP_GT\"}]}",
			calls[(i * 7) % nc], calls[(i * 7 + 1) % nc],
			calls[(i * 7 + 2) % nc], calls[(i * 7 + 3) % nc],
			1000 + i, 7 * i + 3);
	fprintf(f, "]}\n");
	fclose(f);
}

/* One loop session through sock, with the big RUN beside it or not. */
static void measure(const char *sock, double s, bool big, long long *p99,
		    long long *max)
{
	char daemon_opt[PATH_MAX + 16], secs[32];
	char *loop[] = { (char *)sysward, "run", daemon_opt, "--policy", uid_policy,
			 "--", self, "--loop", secs, NULL };
	char *bigrun[] = { (char *)sysward, "run", daemon_opt, "--policy", big_policy,
			   "--", "/bin/true", NULL };
	pid_t lp, bp = 0;
	int fds[2], st;
	char buf[128] = { 0 };
	ssize_t k;

	snprintf(daemon_opt, sizeof(daemon_opt), "--daemon=%s", sock);
	snprintf(secs, sizeof(secs), "%g", s);
	if (pipe(fds) < 0)
		die("pipe");
	lp = spawn(loop, fds[1]);
	close(fds[1]);
	if (big) {
		usleep(300000);
		bp = spawn(bigrun, -1);
	}
	k = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	waitpid(lp, &st, 0);
	if (bp)
		waitpid(bp, NULL, 0);
	if (k <= 0 || sscanf(buf, "%lld %lld", p99, max) != 2) {
		fprintf(stderr, "compile-bench: the loop session printed no figures (status %d)\n", st);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sysward", required_argument, NULL, 'c' },
		{ "syswardd", required_argument, NULL, 'd' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "rules", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "shards", required_argument, NULL, 'k' },
		{ "loop", required_argument, NULL, 'L' },
		{ 0 }
	};
	const char *daemons[2] = { NULL, NULL }, *shards = "1";
	long long v[2][4][MAX_ROUNDS];	/* quiet p99, max, during p99, max */
	int rules = 200, rounds = 3, nd, opt;
	double secs = 3;
	char socks[2][PATH_MAX];
	pid_t pids[2];

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': sysward = optarg; break;
		case 'd': daemons[0] = optarg; break;
		case 'b': daemons[1] = optarg; break;
		case 'n': rules = atoi(optarg); break;
		case 's': secs = atof(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'k': shards = optarg; break;
		case 'L': return mode_loop(atof(optarg));
		default: return 2;
		}
	}
	if (!sysward || !daemons[0] || rounds < 1 || rounds > MAX_ROUNDS ||
	    rules < 1 || secs <= 0) {
		fprintf(stderr, "usage: compile-bench --sysward PATH --syswardd PATH "
			"[--baseline PATH] [--rules N] [--seconds S] [--rounds 1-%d] "
			"[--shards K]\n", MAX_ROUNDS);
		return 2;
	}
	bench_setup(self, dir);
	write_policies(rules);
	nd = daemons[1] ? 2 : 1;
	for (int d = 0; d < nd; d++) {
		const char *extra[] = { "--shards", shards, NULL };

		snprintf(socks[d], sizeof(socks[d]), "%s/sock%d", dir, d);
		pids[d] = start_syswardd(daemons[d], socks[d], extra);
	}
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < nd; i++) {
			int d = (i + r) % nd;

			measure(socks[d], secs, false, &v[d][0][r], &v[d][1][r]);
			measure(socks[d], secs, true, &v[d][2][r], &v[d][3][r]);
		}
	printf("a session's getuid loop (%g s) beside a %d-rule RUN, %s tracer thread(s), medians of %d:\n",
	       secs, rules, shards, rounds);
	for (int d = 0; d < nd; d++) {
		long long m[4];

		for (int j = 0; j < 4; j++)
			m[j] = median_ll(v[d][j], rounds);
		printf("  %-9s quiet p99 %6.1f us max %7.1f ms | compile p99 %6.1f us max %7.1f ms | x%.2f p99, x%.1f max\n",
		       d ? "baseline" : "syswardd", m[0] / 1e3, m[1] / 1e6, m[2] / 1e3,
		       m[3] / 1e6, (double)m[2] / m[0], (double)m[3] / m[1]);
	}
	for (int d = 0; d < nd; d++)
		stop_syswardd(pids[d], socks[d]);
	unlink(uid_policy);
	unlink(big_policy);
	rmdir(dir);
	return 0;
}
