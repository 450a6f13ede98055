// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward-bench: what supervision costs per system call, in one run.
 *
 * Part 1, per action: one cheap syscall (getppid via syscall(2)) in a
 * loop, under increasingly heavy supervision:
 *
 *   a  unconfined
 *   b  a seccomp filter that allows it (BPF only, no tracer)
 *   b3 a seccomp filter that fails it with EPERM (BPF only)
 *   b2 sysward, allowed by the BPF fast path (tracer attached, no stop)
 *   c  sysward, SYSWARD_ACT_REWRITE getppid -> getpid
 *   c2 sysward, SYSWARD_ACT_EMULATE return 0 (answered by the session's
 *      seccomp listener since engine/trace/listener.c; a stop in older builds)
 *   c3 sysward, SYSWARD_ACT_SKIP errno EIO (fault injection)
 *   c4 sysward, SKIP errno EIO on every 2nd call ("when": a counter)
 *   c5 sysward, SYSWARD_ACT_LOG (the call runs; an audit line)
 *   c6 sysward, EMULATE with an audit log (the line records the result)
 *   d  a minimal hand-written tracer: GET/SET/CONT at each SECCOMP stop
 *      (the floor for any ptrace supervisor with one stop per call)
 *   e  strace --seccomp-bpf -e inject=getppid:retval=0 (if installed)
 *
 * For each sysward row it also prints the ptrace stops the supervisor
 * took per call and its CPU time per stop (waitpid, GET, SET, CONT and
 * its bookkeeping: what bounds the calls per second one tracer thread
 * can serve), and the ratios the design is judged by.
 *
 * Part 2, threads: one session whose program runs T threads (1, 100,
 * 1000), all in an emulated-getppid loop at once: the per-call cost, and
 * the supervisor's peak RSS, whose growth from 1 to T threads divided by
 * T - 1 is its memory per tracee.
 *
 * The loops run in a child that times itself, so process start-up and
 * policy loading are not counted; each sysward row is supervised by a
 * process of its own (so its peak RSS is its own).  A benchmark prints;
 * it never passes or fails on time.  It fails only when a mode does not
 * do what it claims (e.g. the emulated call did not return 0), so its
 * figures can be trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/seccomp.h>
#include <time.h>
#include <unistd.h>

#include <seccomp.h>

#include "bench.h"

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "sysward/ptrace_abi.h"
#include "sysward/seccomp_abi.h"

#ifndef PTRACE_EVENT_SECCOMP
#define PTRACE_EVENT_SECCOMP 7
#endif

struct loop_result {
	uint64_t ns;		/* wall time of the whole loop */
	uint64_t zero;		/* calls that returned 0 (emulated) */
	uint64_t self;		/* calls that returned our own pid (rewritten) */
	uint64_t neg;		/* calls that failed (skipped with an errno) */
	uint64_t calls;		/* calls made in all, warm-up included */
};

#define WARM_UP 100

/* n calls, counted by what they returned. */
static void calls(uint64_t n, long self, struct loop_result *r)
{
	for (uint64_t i = 0; i < n; i++) {
		long v = syscall(SYS_getppid);

		r->zero += v == 0;
		r->self += v == self;
		r->neg += v == -1;
	}
	r->calls += n;
}

static struct loop_result loop(uint64_t n)
{
	struct loop_result r = { 0 }, warm = { 0 };
	uint64_t t0;

	calls(WARM_UP, getpid(), &warm);	/* warm caches and the path */
	t0 = (uint64_t)now_ns();
	calls(n, getpid(), &r);
	r.ns = (uint64_t)now_ns() - t0;
	r.calls += warm.calls;
	return r;
}

/* Part 2's program: T threads, n calls in all, started together. */
struct worker {
	pthread_barrier_t *go;
	uint64_t n;
	struct loop_result r;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(w->go);
	calls(w->n, getpid(), &w->r);
	return NULL;
}

static int threads_loop(unsigned int t, uint64_t n, struct loop_result *r)
{
	struct worker *w = calloc(t, sizeof(*w));
	pthread_t *tid = calloc(t, sizeof(*tid));
	pthread_barrier_t go;
	pthread_attr_t attr;
	struct loop_result warm = { 0 };
	unsigned int started = 0;
	uint64_t t0;
	int e = 0;

	if (!w || !tid) {
		free(w);
		free(tid);
		return -ENOMEM;
	}
	memset(r, 0, sizeof(*r));
	calls(WARM_UP, getpid(), &warm);
	pthread_barrier_init(&go, NULL, t + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (; started < t && !e; started++) {
		w[started].go = &go;
		w[started].n = n / t + (started < n % t);
		e = pthread_create(&tid[started], &attr, worker_main, &w[started]);
	}
	if (e) {
		/* The barrier would never open: nothing to measure. */
		fprintf(stderr, "sysward-bench: pthread_create: %s\n", strerror(e));
		_exit(1);
	}
	pthread_barrier_wait(&go);
	t0 = (uint64_t)now_ns();
	for (unsigned int i = 0; i < t; i++) {
		pthread_join(tid[i], NULL);
		r->zero += w[i].r.zero;
		r->self += w[i].r.self;
		r->neg += w[i].r.neg;
		r->calls += w[i].r.calls;
	}
	r->ns = (uint64_t)now_ns() - t0;
	r->calls += warm.calls;
	pthread_attr_destroy(&attr);
	free(w);
	free(tid);
	return 0;
}

/* Threads that make each row's calls (--calling-threads; 1: the main
 * thread alone). */
static unsigned int calling = 1;

/* A row's loop: n calls in all, made by `calling` threads. */
static struct loop_result run_loop(uint64_t n)
{
	struct loop_result r;

	if (calling == 1)
		return loop(n);
	if (threads_loop(calling, n, &r) < 0)
		_exit(1);
	return r;
}

static int print_result(int fd, const struct loop_result *r)
{
	return dprintf(fd, "ns=%" PRIu64 " zero=%" PRIu64 " self=%" PRIu64
		       " neg=%" PRIu64 " calls=%" PRIu64 "\n",
		       r->ns, r->zero, r->self, r->neg, r->calls) < 0 ? -errno : 0;
}

static int parse_result(const char *buf, struct loop_result *r)
{
	return sscanf(buf, "ns=%" SCNu64 " zero=%" SCNu64 " self=%" SCNu64
		      " neg=%" SCNu64 " calls=%" SCNu64,
		      &r->ns, &r->zero, &r->self, &r->neg, &r->calls) == 5 ? 0 : -EINVAL;
}

/* Read fd until EOF (or size - 1 bytes) into buf, NUL-terminated. */
static int read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1 &&
	       (n = read(fd, buf + len, size - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf[len] = '\0';
			return -errno;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	return 0;
}

/* Read a child's one-line result from fd until EOF. */
static int read_result(int fd, struct loop_result *r)
{
	char buf[256];
	int e = read_all(fd, buf, sizeof(buf));

	return e < 0 ? e : parse_result(buf, r);
}

/*
 * pipe + fork for a child that reports on the pipe: in the child
 * (returns 0) *fd is the write end, in the parent (returns the child's
 * pid) the read end; the other end is closed.  -errno on failure.
 */
static pid_t fork_reporting(int *fd)
{
	int p[2];
	pid_t c;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	c = fork();
	if (c < 0) {
		c = -errno;
		close(p[0]);
		close(p[1]);
		return c;
	}
	close(p[c == 0 ? 0 : 1]);
	*fd = p[c == 0 ? 1 : 0];
	return c;
}

/* The parent's side: the child's result from rfd, then reap it. */
static int reap_result(pid_t c, int rfd, struct loop_result *res)
{
	int st = read_result(rfd, res);

	waitpid(c, NULL, 0);
	return st;
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

static int bench_bpf(uint32_t getppid_action, uint64_t n,
		     struct loop_result *res)
{
	cleanup_close int rfd = -1;
	pid_t c = fork_reporting(&rfd);

	if (c < 0)
		return c;
	if (c == 0) {
		struct loop_result r;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    load_filter(getppid_action) < 0)
			_exit(1);
		r = run_loop(n);
		_exit(print_result(rfd, &r) < 0 ? 1 : 0);
	}
	return reap_result(c, rfd, res);
}

/* ------------------------------------------------------------------ d */

/*
 * The floor: per SECCOMP stop, PTRACE_GET_SYSCALL_INFO, then
 * PTRACE_SET_SYSCALL_INFO of what was read (a rewrite to the same call),
 * then PTRACE_CONT.  Nothing else: no policy, no bookkeeping.
 *
 * The same loop with each candidate way of keeping the tracer on the
 * CPU where its tracee runs (issue 34), so that each is measured
 * against the floor it would improve, in the same run:
 */
enum floor_mode {
	FLOOR_PLAIN,
	/* At each stop, the tracee's CPU from the "processor" field of
	 * /proc/TID/stat (a descriptor kept per tid, pread), and the
	 * tracer's affinity set to that CPU alone when it differs. */
	FLOOR_FOLLOW,
	/* waitpid(WNOHANG) for up to spin_ns before a blocking waitpid. */
	FLOOR_SPIN,
	/* sched_setattr: the shortest custom slice EEVDF takes (0.1 ms). */
	FLOOR_SLICE,
	/* SCHED_IDLE: a CPU that runs only the tracer counts as idle when
	 * the tracee is woken (kernel/sched/fair.c sched_idle_cpu()). */
	FLOOR_IDLE,
};

static uint64_t spin_ns = 5000;

struct floor_stats {
	uint64_t stops;		/* SECCOMP stops */
	uint64_t moves;		/* FOLLOW: affinity changes */
	uint64_t spun;		/* SPIN: stops found while spinning */
};

#define FOLLOW_FDS 16

struct follow {
	pid_t tid[FOLLOW_FDS];
	int fd[FOLLOW_FDS];
	int cpu;		/* the tracer's one CPU, -1: not yet set */
};

/* The CPU tid last ran on: field 39 of /proc/TID/stat, or -errno. */
static int follow_cpu(struct follow *f, pid_t tid)
{
	char buf[1024], path[64], *p;
	size_t slot = (size_t)tid % FOLLOW_FDS;
	ssize_t len;
	int field = 2;

	if (f->tid[slot] != tid) {
		if (f->fd[slot] >= 0)
			close(f->fd[slot]);
		snprintf(path, sizeof(path), "/proc/%d/stat", tid);
		f->fd[slot] = open(path, O_RDONLY | O_CLOEXEC);
		f->tid[slot] = f->fd[slot] >= 0 ? tid : 0;
		if (f->fd[slot] < 0)
			return -errno;
	}
	len = pread(f->fd[slot], buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return len < 0 ? -errno : -ESRCH;
	buf[len] = '\0';
	/* comm may hold spaces and ')': count fields after the last ')'. */
	p = strrchr(buf, ')');
	for (; p && *p; p++)
		if (*p == ' ' && ++field == 39)
			return atoi(p + 1);
	return -EINVAL;
}

static void follow_stop(struct follow *f, pid_t tid, struct floor_stats *fs)
{
	int cpu = follow_cpu(f, tid);
	cpu_set_t set;

	if (cpu < 0 || cpu == f->cpu || cpu >= CPU_SETSIZE)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) == 0) {
		f->cpu = cpu;
		fs->moves++;
	}
}

static pid_t floor_wait(enum floor_mode mode, int *st, struct floor_stats *fs)
{
	if (mode == FLOOR_SPIN) {
		long long t0 = now_ns();
		pid_t p;

		do {
			p = waitpid(-1, st, __WALL | WNOHANG);
			if (p != 0) {
				fs->spun += p > 0;
				return p;
			}
		} while ((uint64_t)(now_ns() - t0) < spin_ns);
	}
	return waitpid(-1, st, __WALL);
}

/* SCHED_OTHER with a custom slice (EEVDF, 6.12+), or SCHED_IDLE. */
static int floor_sched(enum floor_mode mode)
{
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
		uint32_t util_min, util_max;
	} attr = { .size = sizeof(attr) };

	if (mode == FLOOR_SLICE) {
		attr.policy = SCHED_OTHER;
		attr.runtime = 100 * 1000;
	} else if (mode == FLOOR_IDLE) {
		attr.policy = SCHED_IDLE;
	} else {
		return 0;
	}
	return syscall(SYS_sched_setattr, 0, &attr, 0) < 0 ? -errno : 0;
}

/*
 * The tracer of one floor row, in a process of its own (so that its
 * affinity and scheduling end with it): trace child c until it exits.
 */
static int floor_trace(pid_t c, enum floor_mode mode, struct floor_stats *fs)
{
	struct follow f = { .cpu = -1 };
	int st, r;

	for (size_t i = 0; i < FOLLOW_FDS; i++)
		f.fd[i] = -1;
	r = floor_sched(mode);
	if (r < 0)
		return r;
	for (;;) {
		pid_t p = floor_wait(mode, &st, fs);

		if (p < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (p == c)
				return 0;
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			struct sw_ptrace_syscall_info info;

			if (mode == FLOOR_FOLLOW)
				follow_stop(&f, p, fs);
			memset(&info, 0, sizeof(info));
			if (ptrace(SW_PTRACE_GET_SYSCALL_INFO, p, sizeof(info),
				   &info) < 0 ||
			    ptrace(SW_PTRACE_SET_SYSCALL_INFO, p, sizeof(info),
				   &info) < 0) {
				r = -errno;
				kill(c, SIGKILL);
				return r;
			}
			fs->stops++;
			ptrace(PTRACE_CONT, p, 0, 0);
		} else {
			int sig = WSTOPSIG(st);

			/* Event stops and group-stops carry no signal. */
			if (st >> 16 || sig == SIGTRAP || sig == SIGSTOP)
				sig = 0;
			ptrace(PTRACE_CONT, p, 0, sig);
		}
	}
}

static int bench_ptrace_floor(enum floor_mode mode, uint64_t n,
			      struct loop_result *res, struct floor_stats *ret)
{
	cleanup_close int rfd = -1, sfd = -1;
	struct floor_stats fs = { 0 };
	char buf[256];
	pid_t t;
	int r;

	t = fork_reporting(&sfd);
	if (t < 0)
		return t;
	if (t == 0) {
		int go[2];
		pid_t c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pipe2(go, O_CLOEXEC) < 0)
			_exit(1);
		c = fork_reporting(&rfd);
		if (c < 0)
			_exit(1);
		if (c == 0) {
			struct loop_result lr;
			char x;

			close(go[1]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			/* Wait until the parent has seized us. */
			if (read(go[0], &x, 1) != 1)
				_exit(1);
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
			    load_filter(SCMP_ACT_TRACE(1)) < 0)
				_exit(1);
			lr = run_loop(n);
			_exit(print_result(rfd, &lr) < 0 ? 1 : 0);
		}
		close(go[0]);
		if (ptrace(PTRACE_SEIZE, c, 0, PTRACE_O_TRACESECCOMP |
			   PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL) < 0 ||
		    write(go[1], "x", 1) != 1) {
			kill(c, SIGKILL);
			_exit(1);
		}
		close(go[1]);
		r = floor_trace(c, mode, &fs);
		if (r == 0)
			r = read_all(rfd, buf, sizeof(buf));
		if (r < 0 || buf[0] == '\0')
			_exit(1);
		_exit(dprintf(sfd, "%s stops=%" PRIu64 " moves=%" PRIu64
			      " spun=%" PRIu64 "\n", strtok(buf, "\n"), fs.stops,
			      fs.moves, fs.spun) < 0);
	}
	r = read_all(sfd, buf, sizeof(buf));
	waitpid(t, NULL, 0);
	if (r < 0)
		return r;
	r = parse_result(buf, res);
	if (r < 0)
		return r;
	if (sscanf(strstr(buf, " stops=") ?: "", " stops=%" SCNu64 " moves=%"
		   SCNu64 " spun=%" SCNu64, &ret->stops, &ret->moves,
		   &ret->spun) != 3)
		return -EIO;
	return 0;
}

/* ------------------------------------------------------------------ u */

/* The child's listener, copied from it (its number comes on sock). */
static int take_listener(pid_t c, int sock)
{
	int fd, pidfd, r;

	if (read(sock, &fd, sizeof(fd)) != sizeof(fd))
		return -EIO;
	pidfd = (int)syscall(SYS_pidfd_open, c, 0);
	if (pidfd < 0)
		return -errno;
	r = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	r = r < 0 ? -errno : r;
	close(pidfd);
	return r;
}

/*
 * The other way to build this sandbox, for reference: a seccomp
 * USER_NOTIF filter for getppid and a hand-written supervisor that
 * answers every notification "return 0" (an emulation), waiting with
 * poll() as an event-loop supervisor does (the listener copied from the
 * child with pidfd_getfd).  sync: the listener's
 * SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP flag (6.6+), with which the kernel
 * wakes the caller on the supervisor's CPU (kernel/seccomp.c,
 * seccomp_notify_send: wake_up_poll_on_current_cpu).
 */
static int bench_user_notif(bool sync, uint64_t n, struct loop_result *res)
{
	cleanup_close int rfd = -1, listener = -1;
	int sp[2], r = 0;
	pid_t c;

	if (pipe2(sp, O_CLOEXEC) < 0)
		return -errno;
	c = fork_reporting(&rfd);
	if (c < 0) {
		close(sp[0]);
		close(sp[1]);
		return c;
	}
	if (c == 0) {
		scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
		struct loop_result lr;
		int fd;

		close(sp[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(getppid), 0) < 0 ||
		    seccomp_load(ctx) < 0)
			_exit(1);
		fd = seccomp_notify_fd(ctx);
		if (write(sp[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(1);
		close(sp[1]);
		lr = run_loop(n);
		_exit(print_result(rfd, &lr) < 0 ? 1 : 0);
	}
	close(sp[1]);
	listener = take_listener(c, sp[0]);
	close(sp[0]);
	if (listener < 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
		return listener;
	}
	if (sync && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			  SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) < 0) {
		r = -errno;
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
		return r;
	}
	for (;;) {
		struct pollfd pfd = { .fd = listener, .events = POLLIN };
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		if (poll(&pfd, 1, 10000) <= 0 || !(pfd.revents & POLLIN))
			break;		/* POLLHUP: no task left under the filter */
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			continue;	/* the caller died, or a signal */
		resp = (struct seccomp_notif_resp){ .id = req.id };
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	return reap_result(c, rfd, res);
}

/* ---------------------------------------------------- b2, c*, threads */

struct sup_result {
	struct loop_result lr;
	uint64_t events;	/* ptrace events the supervisor handled */
	uint64_t cpu_ns;	/* its CPU time while handling them */
	uint64_t hwm_kib;	/* its peak RSS */
};

struct sup_state {
	bool done;
	int code;
};

static void on_done(struct sw_session *s, int exit_code, void *ud)
{
	struct sup_state *st = ud;

	(void)s;
	st->done = true;
	st->code = exit_code;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t peak_rss_kib(void)
{
	char line[256];
	uint64_t kib = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %" SCNu64, &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * The supervisor of one sysward row, in a process of its own (forked by
 * bench_sysward): the engine's own loop (sw_run() is the same, plus
 * terminal and signal handling), counting the events it handles and
 * timing its CPU.  Writes "<result line> events=E cpu=C hwm=H" or
 * "error: why" to out.
 */
static int supervise(const char *policy_text, char *const *argv, bool audit,
		     int out)
{
	struct sw_policy *policy = NULL;
	struct sw_supervisor *sup = NULL;
	struct sw_session *s = NULL;
	struct sw_error err = { 0 };
	struct sup_state st = { 0 };
	struct loop_result lr;
	cleanup_close int rfd = -1;
	uint64_t events = 0, c0, c1, hwm;
	struct sw_launch l = {
		.argv = argv,
		.stdio = { -1, -1, -1 },
		.uid = (uid_t)-1,
		.gid = (gid_t)-1,
		/* As sw_run() launches: emulate rules answered by the
		 * session's seccomp listener (engine/trace/listener.c). */
		.listener = true,
	};
	int p[2], r;

	r = sw_policy_load_string(policy_text, strlen(policy_text),
				  "bench-policy", &policy, &err);
	if (r < 0)
		goto fail;
	if (pipe2(p, O_CLOEXEC) < 0) {
		r = sw_error_set_errno(&err, errno, "pipe");
		goto fail;
	}
	rfd = p[0];
	l.stdio[1] = p[1];
	if (audit) {
		l.audit = fopen("/dev/null", "we");
		if (!l.audit) {
			r = sw_error_set_errno(&err, errno, "open /dev/null");
			goto fail;
		}
	}
	r = sw_supervisor_new(&sup, &err);
	if (r < 0)
		goto fail;
	sw_supervisor_on_done(sup, on_done, &st);
	r = sw_session_launch(sup, policy, &l, &s, &err);
	close(p[1]);		/* the program has its copy */
	c0 = cpu_ns();
	while (r >= 0 && !st.done) {
		r = sw_supervisor_dispatch(sup, true, &err);
		if (r > 0)
			events += (uint64_t)r;
	}
	c1 = cpu_ns();
	hwm = peak_rss_kib();
	sw_supervisor_free(sup);
	if (r < 0)
		goto fail;
	if (st.code != 0) {
		r = sw_error_set(&err, ECHILD, "the loop exited with status %d", st.code);
		goto fail;
	}
	r = read_result(rfd, &lr);
	if (r < 0) {
		sw_error_set(&err, -r, "no result from the loop");
		goto fail;
	}
	sw_policy_free(policy);
	return dprintf(out, "ns=%" PRIu64 " zero=%" PRIu64 " self=%" PRIu64
		       " neg=%" PRIu64 " calls=%" PRIu64 " events=%" PRIu64
		       " cpu=%" PRIu64 " hwm=%" PRIu64 "\n", lr.ns, lr.zero,
		       lr.self, lr.neg, lr.calls, events, c1 - c0, hwm) < 0 ? 1 : 0;
fail:
	sw_policy_free(policy);
	dprintf(out, "error: %s\n", err.msg[0] ? err.msg : strerror(-r));
	return 1;
}

static int bench_sysward(const char *policy_text, char *const *argv,
			 bool audit, struct sup_result *res, char *why,
			 size_t why_size)
{
	cleanup_close int rfd = -1;
	char buf[SW_ERROR_MSG_MAX + 64];
	pid_t c;

	fflush(stdout);
	c = fork_reporting(&rfd);
	if (c < 0)
		return c;
	if (c == 0)
		_exit(supervise(policy_text, argv, audit, rfd));
	read_all(rfd, buf, sizeof(buf));
	waitpid(c, NULL, 0);
	if (!strncmp(buf, "error: ", 7)) {
		size_t m = strcspn(buf + 7, "\n");

		if (m >= why_size)
			m = why_size - 1;
		memcpy(why, buf + 7, m);
		why[m] = '\0';
		return -EIO;
	}
	if (sscanf(buf, "ns=%" SCNu64 " zero=%" SCNu64 " self=%" SCNu64
		   " neg=%" SCNu64 " calls=%" SCNu64 " events=%" SCNu64
		   " cpu=%" SCNu64 " hwm=%" SCNu64, &res->lr.ns, &res->lr.zero,
		   &res->lr.self, &res->lr.neg, &res->lr.calls, &res->events,
		   &res->cpu_ns, &res->hwm_kib) != 8) {
		snprintf(why, why_size, "the supervisor gave no result");
		return -EIO;
	}
	return 0;
}

/* ------------------------------------------------------------------ e */

/* argv (6 slots) for self's child mode: n calls made by `calling`
 * threads ("--threads T" only when T > 1: one thread is the main one). */
static void loop_argv(char **argv, char *self, uint64_t n, char nbuf[32],
		      char tbuf[16])
{
	size_t a = 0;

	snprintf(nbuf, 32, "%" PRIu64, n);
	snprintf(tbuf, 16, "%u", calling);
	argv[a++] = self;
	if (calling > 1) {
		argv[a++] = "--threads";
		argv[a++] = tbuf;
	}
	argv[a++] = "--loop";
	argv[a++] = nbuf;
	argv[a] = NULL;
}

static int bench_strace(const char *strace, const char *self, uint64_t n,
			struct loop_result *res, char *why, size_t why_size)
{
	cleanup_close int rfd = -1;
	char nbuf[32], tbuf[16];
	int st;
	pid_t c;

	c = fork_reporting(&rfd);
	if (c < 0)
		return c;
	if (c == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(rfd, 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		char *argv[16] = {
			(char *)strace, "-f", "--seccomp-bpf",
			"-e", "inject=getppid:retval=0", "-e", "trace=getppid",
			"-qq", "-o", "/dev/null",
		};

		loop_argv(argv + 10, (char *)self, n, nbuf, tbuf);
		execv(strace, argv);
		_exit(127);
	}
	st = reap_result(c, rfd, res);
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
	const char *policy;	/* sysward rows */
	bool audit;
	bool ran;
	double ns_per_call;
	double stops_per_call;	/* sysward rows and d; < 0: not counted */
	double cpu_us_per_stop;	/* sysward rows */
	char note[SW_ERROR_MSG_MAX + 256];
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: sysward-bench [-n N] [--no-strace] [--no-threads] [--only KEYS]\n"
"                     [--calling-threads T] [--spin-us US] [--tsv]\n"
"Measure the per-call cost of getppid() unconfined, under seccomp BPF,\n"
"under each sysward action (with the ptrace stops it took and the\n"
"supervisor's CPU per stop), under a minimal GET/SET/CONT ptrace loop and\n"
"under strace --seccomp-bpf inject; then with 1, 100 and 1000 threads in\n"
"one session (per-call cost and the supervisor's memory per tracee).\n"
"Rows df..di are the floor with each way tried of keeping the tracer on\n"
"its tracee's CPU; u and us a seccomp USER_NOTIF supervisor for reference.\n"
"\n"
"  -n, --iterations N   calls per mode (default 50000)\n"
"      --no-strace      skip the strace row\n"
"      --no-threads     skip the threads table\n"
"      --only KEYS      only these rows (comma-separated keys, e.g. c,c2,d,u;\n"
"                       no threads table)\n"
"      --calling-threads T  every row's calls made by T threads at once\n"
"                       (default 1; ns/call is then wall time / calls)\n"
"      --spin-us US     row ds: spin this long before sleeping (default 5)\n"
"      --tsv            also print \"row<TAB>key<TAB>ns/call\" lines\n"
"  -h, --help           show this help\n"
"\n"
"Exit status: 0 if every mode ran and did what it claims, 1 otherwise.\n"
"Times are printed, never judged.\n");
}

#define POLICY(rule) \
	"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [" rule "]}"

/* Does a row's loop show the action it claims? */
static bool row_checks(const char *key, const struct loop_result *lr,
		       uint64_t n, char *note, size_t size)
{
	uint64_t want_zero = 0, want_self = 0, want_neg = 0;

	if (!strcmp(key, "c"))
		want_self = n;
	else if (!strcmp(key, "c2") || !strcmp(key, "c6") || !strcmp(key, "t"))
		want_zero = n;
	else if (!strcmp(key, "c3") || !strcmp(key, "b3"))
		want_neg = n;
	else if (!strcmp(key, "c4"))
		want_neg = n / 2;	/* timed calls WARM_UP+1.. : even ones */
	if (lr->zero == want_zero && lr->self == want_self && lr->neg == want_neg)
		return true;
	snprintf(note, size, "WRONG: of %" PRIu64 " calls %" PRIu64 " returned 0 "
		 "(want %" PRIu64 "), %" PRIu64 " our pid (want %" PRIu64 "), %"
		 PRIu64 " failed (want %" PRIu64 ")", n, lr->zero, want_zero,
		 lr->self, want_self, lr->neg, want_neg);
	return false;
}

static void run_sysward_row(struct row *row, char *self, uint64_t n)
{
	char nbuf[32], tbuf[16], why[SW_ERROR_MSG_MAX];
	char *argv[6];
	struct sup_result sr;
	int r;

	loop_argv(argv, self, n, nbuf, tbuf);
	why[0] = '\0';
	r = bench_sysward(row->policy, argv, row->audit, &sr, why, sizeof(why));
	if (r < 0) {
		snprintf(row->note, sizeof(row->note), "failed: %s",
			 why[0] ? why : strerror(-r));
		return;
	}
	if (!row_checks(row->key, &sr.lr, n, row->note, sizeof(row->note)))
		return;
	row->ran = true;
	row->ns_per_call = (double)sr.lr.ns / (double)n;
	row->stops_per_call = (double)sr.events / (double)sr.lr.calls;
	row->cpu_us_per_stop = sr.events ? (double)sr.cpu_ns / 1000.0 /
					   (double)sr.events : 0;
}

/* Part 2: T threads in one session, emulated getppid. */
static bool threads_table(char *self, uint64_t n)
{
	static const unsigned int counts[] = { 1, 100, 1000 };
	struct sup_result sr[3];
	bool ran[3] = { false }, ok = true;

	printf("\none session, T threads calling at once, %" PRIu64 " emulated "
	       "getppid() calls in all:\n", n);
	printf("%6s %12s %10s %14s %16s\n", "T", "ns/call", "x T=1",
	       "sup. peak KiB", "sup. B/tracee");
	for (size_t i = 0; i < 3; i++) {
		char nbuf[32], tbuf[16], why[SW_ERROR_MSG_MAX] = "";
		char note[SW_ERROR_MSG_MAX + 256];
		char *argv[] = { self, "--threads", tbuf, "--loop", nbuf, NULL };
		int r;

		snprintf(nbuf, sizeof(nbuf), "%" PRIu64, n);
		snprintf(tbuf, sizeof(tbuf), "%u", counts[i]);
		r = bench_sysward(POLICY("{\"names\": [\"getppid\"], \"action\": "
					 "\"SYSWARD_ACT_EMULATE\", \"return\": 0}"),
				  argv, false, &sr[i], why, sizeof(why));
		if (r < 0) {
			printf("%6u failed: %s\n", counts[i], why[0] ? why : strerror(-r));
			ok = false;
			continue;
		}
		if (!row_checks("t", &sr[i].lr, n, note, sizeof(note))) {
			printf("%6u %s\n", counts[i], note);
			ok = false;
			continue;
		}
		ran[i] = true;
		printf("%6u %12.1f", counts[i], (double)sr[i].lr.ns / (double)n);
		if (ran[0])
			printf(" %10.2f", (double)sr[i].lr.ns / (double)sr[0].lr.ns);
		else
			printf(" %10s", "-");
		printf(" %14" PRIu64, sr[i].hwm_kib);
		if (i > 0 && ran[0])
			printf(" %16.0f", ((double)sr[i].hwm_kib - (double)sr[0].hwm_kib) *
			       1024.0 / (counts[i] - 1));
		printf("\n");
	}
	printf("  (B/tracee: growth of the supervisor's peak RSS from 1 thread, "
	       "per added thread)\n");
	return ok;
}

/* Is key one of the comma-separated keys in only (NULL: every row)? */
static bool selected(const char *only, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = only; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == k && !strncmp(p, key, k))
			return true;
	return !only;
}

/* Rows d..di: the floor, plain and with each candidate. */
static void run_floor_row(struct row *row, enum floor_mode mode, uint64_t n)
{
	struct floor_stats fs = { 0 };
	struct loop_result lr;
	int r = bench_ptrace_floor(mode, n, &lr, &fs);

	if (r < 0) {
		snprintf(row->note, sizeof(row->note), "failed: %s", strerror(-r));
		return;
	}
	if (fs.stops < n) {
		snprintf(row->note, sizeof(row->note), "WRONG: %" PRIu64
			 " SECCOMP stops for %" PRIu64 " calls", fs.stops, n);
		return;
	}
	row->ran = true;
	row->ns_per_call = (double)lr.ns / (double)n;
	row->stops_per_call = (double)fs.stops / (double)lr.calls;
	if (mode == FLOOR_FOLLOW)
		snprintf(row->note, sizeof(row->note), "%.3f moves/stop",
			 (double)fs.moves / (double)fs.stops);
	else if (mode == FLOOR_SPIN)
		snprintf(row->note, sizeof(row->note), "%.0f%% of stops found "
			 "spinning (%" PRIu64 " us)", 100.0 * (double)fs.spun /
			 (double)fs.stops, spin_ns / 1000);
}

static void run_notif_row(struct row *row, bool sync, uint64_t n)
{
	struct loop_result lr;
	int r = bench_user_notif(sync, n, &lr);

	if (r < 0)
		snprintf(row->note, sizeof(row->note), "failed: %s", strerror(-r));
	else if (row_checks("t", &lr, n, row->note, sizeof(row->note))) {
		row->ran = true;
		row->ns_per_call = (double)lr.ns / (double)n;
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "no-strace", no_argument, NULL, 'S' },
		{ "no-threads", no_argument, NULL, 'N' },
		{ "only", required_argument, NULL, 'O' },
		{ "calling-threads", required_argument, NULL, 'C' },
		{ "spin-us", required_argument, NULL, 'P' },
		{ "tsv", no_argument, NULL, 'V' },
		{ "loop", required_argument, NULL, 'L' },
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct row rows[] = {
		{ .key = "a", .what = "unconfined" },
		{ .key = "b", .what = "seccomp BPF allow (no tracer)" },
		{ .key = "b3", .what = "seccomp BPF errno (no tracer)" },
		{ .key = "b2", .what = "sysward, BPF fast path (no stop)",
		  .policy = POLICY("{\"names\": [\"getuid\"], \"action\": "
				   "\"SYSWARD_ACT_EMULATE\", \"return\": 0}") },
		{ .key = "c", .what = "sysward, REWRITE getppid->getpid",
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_REWRITE\", \"rewrite\": "
				   "{\"syscall\": \"getpid\"}}") },
		{ .key = "c2", .what = "sysward, EMULATE return 0",
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_EMULATE\", \"return\": 0}") },
		{ .key = "c3", .what = "sysward, SKIP errno EIO",
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_SKIP\", \"errno\": \"EIO\"}") },
		{ .key = "c4", .what = "sysward, SKIP EIO every 2nd call (when)",
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_SKIP\", \"errno\": \"EIO\", "
				   "\"when\": \"2+2\"}") },
		{ .key = "c5", .what = "sysward, LOG (audit line)", .audit = true,
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_LOG\"}") },
		{ .key = "c6", .what = "sysward, EMULATE + audit log", .audit = true,
		  .policy = POLICY("{\"names\": [\"getppid\"], \"action\": "
				   "\"SYSWARD_ACT_EMULATE\", \"return\": 0}") },
		{ .key = "d", .what = "minimal ptrace GET/SET/CONT loop" },
		{ .key = "df", .what = "d, tracer follows tracee's CPU" },
		{ .key = "ds", .what = "d, spin before sleeping" },
		{ .key = "dl", .what = "d, tracer slice 0.1 ms (sched_setattr)" },
		{ .key = "di", .what = "d, tracer SCHED_IDLE" },
		{ .key = "e", .what = "strace --seccomp-bpf inject retval=0" },
		{ .key = "u", .what = "USER_NOTIF emulate round trip (hand)" },
		{ .key = "us", .what = "u, with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP" },
	};
	enum { A, B, B3, B2, C, C2, C3, C4, C5, C6, D, DF, DS, DL, DI, E, U, US,
	       NROWS };
	uint64_t n = 50000;
	bool no_strace = false, no_threads = false, tsv = false, ok = true;
	unsigned int threads = 0;
	const char *only = NULL;
	struct loop_result lr;
	char self[PATH_MAX], why[SW_ERROR_MSG_MAX];
	const char *strace = NULL;
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
				if (!threads)
					lr = loop(n);
				else if (threads_loop(threads, n, &lr) < 0)
					return 1;
				return print_result(1, &lr) < 0 ? 1 : 0;
			}
			break;
		}
		case 'S':
			no_strace = true;
			break;
		case 'N':
			no_threads = true;
			break;
		case 'O':
			only = optarg;
			no_threads = true;
			break;
		case 'V':
			tsv = true;
			break;
		case 'C':
		case 'T': {
			unsigned long t = strtoul(optarg, NULL, 10);

			if (t < 1 || t > 10000) {
				fprintf(stderr, "sysward-bench: bad thread count '%s' "
					"(1..10000)\n", optarg);
				return 2;
			}
			if (opt == 'C')
				calling = (unsigned int)t;
			else
				threads = (unsigned int)t;
			break;
		}
		case 'P':
			spin_ns = strtoull(optarg, NULL, 10) * 1000;
			if (spin_ns == 0 || spin_ns > 1000000000ull) {
				fprintf(stderr, "sysward-bench: bad spin '%s' "
					"(1..1000000 us)\n", optarg);
				return 2;
			}
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

	printf("sysward-bench: %" PRIu64 " getppid() calls per mode", n);
	if (calling > 1)
		printf(", made by %u threads at once", calling);
	printf("\n");
	fflush(stdout);

	for (int i = 0; i < NROWS; i++) {
		struct row *row = &rows[i];

		if (!selected(only, row->key))
			continue;
		switch (i) {
		case A:
			lr = run_loop(n);
			row->ran = true;
			row->ns_per_call = (double)lr.ns / (double)n;
			break;
		case B:
		case B3:
			r = bench_bpf(i == B ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(EPERM),
				      n, &lr);
			if (r < 0)
				snprintf(row->note, sizeof(row->note),
					 "failed: %s", strerror(-r));
			else if (row_checks(row->key, &lr, n, row->note,
					    sizeof(row->note))) {
				row->ran = true;
				row->ns_per_call = (double)lr.ns / (double)n;
			}
			break;
		case D:
		case DF:
		case DS:
		case DL:
		case DI:
			run_floor_row(row, (enum floor_mode)(i - D), n);
			break;
		case U:
		case US:
			run_notif_row(row, i == US, n);
			break;
		case E:
			strace = no_strace ? NULL : find_strace();
			if (no_strace) {
				snprintf(row->note, sizeof(row->note),
					 "not run (--no-strace)");
			} else if (!strace) {
				snprintf(row->note, sizeof(row->note),
					 "not run: strace is not installed");
			} else {
				char ver[128];

				strace_version(strace, ver, sizeof(ver));
				why[0] = '\0';
				r = bench_strace(strace, self, n, &lr, why, sizeof(why));
				if (r < 0) {
					snprintf(row->note, sizeof(row->note),
						 "failed (%s): %s", ver, why);
				} else if (lr.zero != n) {
					snprintf(row->note, sizeof(row->note),
						 "WRONG (%s): inject retval=0 took "
						 "effect on %" PRIu64 " of %" PRIu64
						 " calls", ver, lr.zero, n);
				} else {
					row->ran = true;
					row->ns_per_call = (double)lr.ns / (double)n;
					snprintf(row->note, sizeof(row->note),
						 "%s", ver);
				}
			}
			break;
		default:
			run_sysward_row(row, self, n);
			break;
		}
	}

	printf("\n%-4s %-44s %10s %9s %10s %12s\n", "mode", "", "ns/call",
	       "x unconf.", "stops/call", "sup. us/stop");
	for (int i = 0; i < NROWS; i++) {
		struct row *row = &rows[i];

		if (!selected(only, row->key))
			continue;
		if (!row->ran) {
			printf("%-4s %-44s %10s %9s  %s\n", row->key, row->what,
			       "-", "-", row->note);
			/* A mode that failed makes the run fail; strace
			 * absent or skipped on request does not. */
			if (!(i == E && (no_strace || !strace)))
				ok = false;
			continue;
		}
		printf("%-4s %-44s %10.1f", row->key, row->what, row->ns_per_call);
		if (rows[A].ran)
			printf(" %9.1f", row->ns_per_call / rows[A].ns_per_call);
		else
			printf(" %9s", "");
		if (row->policy || (i >= D && i <= DI))
			printf(" %10.2f", row->stops_per_call);
		else
			printf(" %10s", "");
		if (row->policy && row->stops_per_call >= 0.5)
			printf(" %12.1f", row->cpu_us_per_stop);
		else
			printf(" %12s", "");
		printf("%s%s\n", row->note[0] ? "  " : "", row->note);
	}
	printf("  (stops/call: ptrace events the supervisor handled per call; "
	       "sup. us/stop: its CPU per event,\n"
	       "   so one tracer thread serves at most 1e6 / (us/stop) such "
	       "calls per second)\n");

	static const struct {
		int num, den;
		const char *what;
	} ratios[] = {
		{ C, D, "sysward rewrite / ptrace floor" },
		{ C2, C, "sysward emulate / rewrite" },
		{ C3, C, "sysward skip / rewrite" },
		{ E, C, "strace inject / sysward rewrite" },
		{ E, C2, "strace inject / sysward emulate (both skip the call "
			 "and set its return value)" },
		{ C2, U, "sysward emulate / USER_NOTIF emulate" },
		{ DF, D, "floor following the tracee's CPU / floor" },
		{ DS, D, "floor spinning / floor" },
		{ DL, D, "floor with a short slice / floor" },
		{ DI, D, "floor SCHED_IDLE / floor" },
	};
	printf("\nratios:\n");
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		char name[8];

		if (!selected(only, rows[ratios[i].num].key) ||
		    !selected(only, rows[ratios[i].den].key))
			continue;
		snprintf(name, sizeof(name), "%s/%s", rows[ratios[i].num].key,
			 rows[ratios[i].den].key);
		if (rows[ratios[i].num].ran && rows[ratios[i].den].ran)
			printf("  %-5s = %6.2f  (%s)\n", name,
			       rows[ratios[i].num].ns_per_call /
			       rows[ratios[i].den].ns_per_call, ratios[i].what);
		else
			printf("  %-5s = -\n", name);
	}
	if (tsv)
		for (int i = 0; i < NROWS; i++)
			if (rows[i].ran)
				printf("row\t%s\t%.1f\n", rows[i].key,
				       rows[i].ns_per_call);
	if (!no_threads && calling == 1 && !threads_table(self, n))
		ok = false;
	return ok ? 0 : 1;
}
