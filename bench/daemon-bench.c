// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * daemon-bench: what running through syswardd costs against the embedded
 * "sysward run".  It prints figures; it never passes or fails on time.
 *
 *   daemon-bench --sysward PATH --syswardd PATH [--runs N] [--parallel P]
 *
 * Launch latency is "request -> program running": from just before the
 * request (or the sysward process) is started to the moment the program,
 * this same binary run as "daemon-bench --stamp", reads CLOCK_MONOTONIC
 * first thing in main().  Three ways: the raw protocol (connect, RUN,
 * program running: the daemon's own cost), "sysward run --daemon" and the
 * embedded "sysward run" (both including the sysward process start).
 * Throughput: N sessions of the stamp program, P at a time, as sessions
 * per second, daemon vs embedded.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#include "sysward/proto.h"

static const char policy_text[] =
	"{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n"
	" \"syscalls\": [{\"names\": [\"getuid\"], "
	"\"action\": \"SYSWARD_ACT_EMULATE\", \"return\": 0}]}\n";

static char self[PATH_MAX], policy_path[PATH_MAX], sock[PATH_MAX];
static const char *sysward, *syswardd;

/* Read the program's stamp from a pipe: its first line. */
static long long read_stamp(int fd)
{
	char buf[64];
	size_t off = 0;
	ssize_t n;

	while (off < sizeof(buf) - 1 &&
	       (n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += (size_t)n;
	buf[off] = '\0';
	return off ? atoll(buf) : -1;
}

/* Start sysward run [--daemon=sock] ... -- self --stamp with its stdout
 * on a pipe (or /dev/null). */
static long long run_cli(bool daemon, bool to_null, pid_t *ret_pid,
			 int *ret_fd)
{
	int p[2];
	pid_t pid;
	char dopt[PATH_MAX + 16];

	if (pipe2(p, O_CLOEXEC) < 0)
		die("pipe");
	snprintf(dopt, sizeof(dopt), "--daemon=%s", sock);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(to_null ? open("/dev/null", O_WRONLY) : p[1], 1);
		if (daemon)
			execl(sysward, sysward, "run", dopt, "--policy",
			      policy_path, "--", self, "--stamp", (char *)NULL);
		else
			execl(sysward, sysward, "run", "--policy", policy_path,
			      "--", self, "--stamp", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	*ret_pid = pid;
	*ret_fd = p[0];
	return 0;
}

static long long one_cli(bool daemon)
{
	long long t0 = now_ns(), t1;
	pid_t pid;
	int fd, st;

	run_cli(daemon, false, &pid, &fd);
	t1 = read_stamp(fd);
	close(fd);
	waitpid(pid, &st, 0);
	if (t1 < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "daemon-bench: sysward run%s failed (status "
			"0x%x)\n", daemon ? " --daemon" : "", st);
		exit(1);
	}
	return t1 - t0;
}

/* The daemon's own cost: connect, RUN, program running. */
static long long one_raw(void)
{
	char *argv[] = { self, "--stamp", NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	/* The program's 0, 1 and 2: the descriptors below, in order. */
	uint32_t fd_nums[] = { 0, 1, 2 };
	struct sw_run_request q = {
		.fds = fd_nums, .n_fds = 3,
		.argv = argv, .argc = 2, .envp = envp, .envc = 1, .cwd = "/",
		.policy_name = "bench.json", .policy_text = (char *)policy_text,
		.policy_len = strlen(policy_text),
	};
	struct sw_buf b = { 0 };
	struct sw_error err = { 0 };
	struct sw_msg_header h;
	uint8_t *payload;
	long long t0, t1;
	int p[2], fd, fds[3];

	if (pipe2(p, O_CLOEXEC) < 0)
		die("pipe");
	if (sw_run_request_encode(&b, &q, &err) < 0) {
		fprintf(stderr, "daemon-bench: %s\n", err.msg);
		exit(1);
	}
	fds[0] = 0;
	fds[1] = p[1];
	fds[2] = 2;
	t0 = now_ns();
	if (sw_proto_connect(sock, &fd, &err) < 0 ||
	    sw_proto_send(fd, &b, fds, 3, &err) < 0) {
		fprintf(stderr, "daemon-bench: %s\n", err.msg);
		exit(1);
	}
	close(p[1]);
	t1 = read_stamp(p[0]);
	close(p[0]);
	/* STARTED, then EXIT */
	for (int i = 0; i < 2; i++) {
		if (sw_proto_recv(fd, &h, &payload, &err) < 0) {
			fprintf(stderr, "daemon-bench: %s\n", err.msg);
			exit(1);
		}
		free(payload);
		if (h.type == SW_MSG_ERROR) {
			fprintf(stderr, "daemon-bench: RUN refused\n");
			exit(1);
		}
	}
	close(fd);
	sw_buf_free(&b);
	return t1 - t0;
}

static void report(const char *what, long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	printf("  %-34s median %7.2f ms   p90 %7.2f ms   min %7.2f ms\n", what,
	       v[n / 2] / 1e6, v[n * 9 / 10] / 1e6, v[0] / 1e6);
}

static double throughput(bool daemon, int runs, int parallel)
{
	long long t0 = now_ns();
	int running = 0, started = 0, done = 0;

	while (done < runs) {
		pid_t pid;
		int fd, st;

		while (running < parallel && started < runs) {
			run_cli(daemon, true, &pid, &fd);
			close(fd);
			running++;
			started++;
		}
		pid = wait(&st);
		if (pid < 0)
			die("wait");
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "daemon-bench: a session failed (0x%x)\n",
				st);
			exit(1);
		}
		running--;
		done++;
	}
	return runs / ((now_ns() - t0) / 1e9);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "sysward", required_argument, NULL, 's' },
		{ "syswardd", required_argument, NULL, 'd' },
		{ "runs", required_argument, NULL, 'n' },
		{ "parallel", required_argument, NULL, 'p' },
		{ "stamp", no_argument, NULL, 'S' },
		{ 0 }
	};
	char dir[] = "/tmp/daemon-bench.XXXXXX";
	int runs = 100, parallel = 8, opt;
	long long *raw, *dcli, *ecli;
	pid_t dpid;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'S':
			printf("%lld\n", now_ns());
			return 0;
		case 's':
			sysward = optarg;
			break;
		case 'd':
			syswardd = optarg;
			break;
		case 'n':
			runs = atoi(optarg);
			break;
		case 'p':
			parallel = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!sysward || !syswardd || runs < 10 || parallel < 1) {
		fprintf(stderr, "usage: daemon-bench --sysward PATH --syswardd "
			"PATH [--runs N>=10] [--parallel P]\n");
		return 2;
	}
	bench_setup(self, dir);
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	bench_put_file(policy_path, dir, "bench.json", "%s", policy_text);

	dpid = start_syswardd(syswardd, sock,
			      (const char *[]){ "--max-sessions", "1024", NULL });

	raw = calloc(runs, sizeof(*raw));
	dcli = calloc(runs, sizeof(*dcli));
	ecli = calloc(runs, sizeof(*ecli));
	if (!raw || !dcli || !ecli)
		die("calloc");
	/* Warm up caches (binaries, libseccomp, the page cache). */
	for (int i = 0; i < 5; i++) {
		one_raw();
		one_cli(true);
		one_cli(false);
	}
	for (int i = 0; i < runs; i++) {
		raw[i] = one_raw();
		dcli[i] = one_cli(true);
		ecli[i] = one_cli(false);
	}
	printf("launch latency, request -> program running (%d runs each):\n",
	       runs);
	report("daemon, raw protocol", raw, runs);
	report("daemon, sysward run --daemon", dcli, runs);
	report("embedded, sysward run", ecli, runs);
	printf("  ratio daemon CLI / embedded (median): %.2f\n",
	       (double)dcli[runs / 2] / (double)ecli[runs / 2]);

	{
		double d1 = throughput(true, runs, 1);
		double e1 = throughput(false, runs, 1);
		double dp = throughput(true, runs, parallel);
		double ep = throughput(false, runs, parallel);

		printf("throughput, %d sessions of a short program:\n", runs);
		printf("  one at a time:   daemon %7.1f /s   embedded %7.1f /s"
		       "   ratio %.2f\n", d1, e1, d1 / e1);
		printf("  %2d at a time:    daemon %7.1f /s   embedded %7.1f /s"
		       "   ratio %.2f\n", parallel, dp, ep, dp / ep);
	}

	stop_syswardd(dpid, sock);
	unlink(policy_path);
	rmdir(dir);
	return 0;
}
