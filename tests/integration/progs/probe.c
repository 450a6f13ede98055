// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw-probe: a small static program for sysward's integration tests.  It runs
 * the operations named on its command line, in order, and prints one line
 * per observed fact ("getuid=0", "open(/tmp/x,wronly|creat)=-EACCES"), so
 * the test runner can compare what a confined program sees with what the
 * policy says.  Built for x86_64 and, with -m32, for i386.
 *
 * Output goes straight to fd 1 with write(2), one whole line per call: no
 * stdio buffers to duplicate on fork or lose on exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/auxv.h>
#include <ucontext.h>
#include <unistd.h>

static char prefix[128];
static const char *self_path = "/proc/self/exe";

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	size_t len, off = 0;
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "%s", prefix);
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	buf[len++] = '\n';
	while (off < len) {
		ssize_t w = write(1, buf + off, len - off);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			_exit(99);
		}
		off += (size_t)w;
	}
}

/* "ok", or "-EACCES" for a failed call. */
static const char *res(long r, int err)
{
	static char buf[64];

	if (r >= 0)
		return "ok";
	snprintf(buf, sizeof(buf), "-%s", strerrorname_np(err) ?: "E?");
	return buf;
}

/* A raw syscall's value, or -ENAME. */
static const char *val(long r, int err)
{
	static char buf[64];

	if (r >= 0)
		snprintf(buf, sizeof(buf), "%ld", r);
	else
		snprintf(buf, sizeof(buf), "-%s", strerrorname_np(err) ?: "E?");
	return buf;
}

static void die(const char *what)
{
	say("probe: %s: %s", what, strerror(errno));
	_exit(98);
}

static int parse_flags(const char *s)
{
	static const struct { const char *n; int f; } tab[] = {
		{ "rdonly", O_RDONLY }, { "wronly", O_WRONLY },
		{ "rdwr", O_RDWR }, { "creat", O_CREAT }, { "excl", O_EXCL },
		{ "trunc", O_TRUNC }, { "append", O_APPEND },
		{ "directory", O_DIRECTORY },
	};
	int flags = 0;
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",|", &save); tok;
	     tok = strtok_r(NULL, ",|", &save)) {
		size_t i;

		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (strcmp(tab[i].n, tok) == 0)
				break;
		if (i == sizeof(tab) / sizeof(tab[0])) {
			say("probe: unknown open flag %s", tok);
			_exit(97);
		}
		flags |= tab[i].f;
	}
	return flags;
}

/* The number of a call without arguments, or -1. */
static long noarg_nr(const char *name)
{
	static const struct { const char *n; long nr; } tab[] = {
		{ "getuid", SYS_getuid }, { "geteuid", SYS_geteuid },
		{ "getgid", SYS_getgid }, { "getpid", SYS_getpid },
		{ "getppid", SYS_getppid }, { "gettid", SYS_gettid },
		{ "sched_yield", SYS_sched_yield }, { "sync", SYS_sync },
#ifdef SYS_getuid32
		{ "getuid32", SYS_getuid32 }, { "geteuid32", SYS_geteuid32 },
#endif
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(tab[i].n, name) == 0)
			return tab[i].nr;
	return -1;
}

static long raw_noarg(const char *name, bool *known)
{
	long nr = noarg_nr(name);
	char *end;

	if (nr >= 0) {
		*known = true;
		return syscall(nr);
	}
	/* A number: any call, even one no kernel has ("sys:1000"). */
	nr = strtol(name, &end, 0);
	*known = *name >= '0' && *name <= '9' && !*end;
	return *known ? syscall(nr, 0, 0, 0, 0, 0, 0) : -1;
}

/*
 * Call nr with the machine's syscall instruction, its number in the
 * register the kernel reads it from, and return what that register holds
 * after the call: the kernel leaves it as it was (arm64's x8, riscv64's
 * a7), and a compiler may keep a value there across the instruction
 * (glibc's inline syscalls name it an input only).  x86's is the return
 * register: *kept is -1 there.
 */
static __attribute__((noinline)) long raw_nr_kept(long nr, long *kept)
{
#if defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = 0;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory");
	__asm__ volatile("" : "+r"(x8));
	*kept = x8;
	return x0;
#elif defined(__riscv)
	register long a7 __asm__("a7") = nr;
	register long a0 __asm__("a0") = 0;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
	__asm__ volatile("" : "+r"(a7));
	*kept = a7;
	return a0;
#else
	long r = syscall(nr);

	*kept = -1;
	return r < 0 ? -errno : r;
#endif
}

/* --- a trap's SIGSYS -------------------------------------------------- */

/* What a SIGSYS handler is told: the siginfo and the return register of
 * the interrupted context (which the kernel's trap leaves holding the
 * call's number). */
static volatile sig_atomic_t sigsys_seen;
static siginfo_t sigsys_info;
static long sigsys_ret_reg;

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	sigsys_info = *si;
#if defined(__x86_64__)
	sigsys_ret_reg = (long)uc->uc_mcontext.gregs[REG_RAX];
#elif defined(__i386__)
	sigsys_ret_reg = (long)uc->uc_mcontext.gregs[REG_EAX];
#elif defined(__aarch64__)
	sigsys_ret_reg = (long)uc->uc_mcontext.regs[0];
#elif defined(__riscv)
	sigsys_ret_reg = (long)uc->uc_mcontext.__gregs[REG_A0];
#endif
	sigsys_seen = 1;
}

/* --- threads ----------------------------------------------------------- */

struct thread_result {
	long uid, euid;
	long tid;
};

static void *thread_main(void *arg)
{
	struct thread_result *r = arg;

	r->uid = getuid();
	r->euid = geteuid();
	r->tid = syscall(SYS_gettid);
	return NULL;
}

static void op_threads(int n)
{
	pthread_t th[64];
	struct thread_result r[64];

	if (n < 1 || n > 64)
		n = 4;
	for (int i = 0; i < n; i++) {
		errno = pthread_create(&th[i], NULL, thread_main, &r[i]);
		if (errno)
			die("pthread_create");
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < n; i++)
		say("thread#%d getuid=%ld geteuid=%ld other-tid=%s", i + 1,
		    r[i].uid, r[i].euid,
		    r[i].tid != syscall(SYS_gettid) ? "yes" : "no");
}

static char **exec_argv;

static void *exec_thread(void *arg __attribute__((unused)))
{
	execv(self_path, exec_argv);
	say("thread-exec: execv: %s", res(-1, errno));
	_exit(96);
}

static void *sleeper_thread(void *arg __attribute__((unused)))
{
	for (;;)
		pause();
	return NULL;
}

/* exec from a thread that is not the group leader, while others run. */
static void op_thread_exec(char **rest)
{
	pthread_t th;

	exec_argv = rest;
	for (int i = 0; i < 2; i++)
		if ((errno = pthread_create(&th, NULL, sleeper_thread, NULL)))
			die("pthread_create");
	if ((errno = pthread_create(&th, NULL, exec_thread, NULL)))
		die("pthread_create");
	for (;;)
		pause();
}

/* --- signals ----------------------------------------------------------- */

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

static void op_sigusr1(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		die("sigaction");
	kill(getpid(), SIGUSR1);
	for (int i = 0; i < 1000 && !got_usr1; i++)
		usleep(1000);
	say("sigusr1 handled=%s", got_usr1 == SIGUSR1 ? "yes" : "no");
}

static volatile sig_atomic_t n_usr1;

static void count_usr1(int sig)
{
	(void)sig;
	n_usr1++;
}

/* Many emulated calls while SIGUSR1 arrives from outside: every call must
 * still see the emulated value and every handler run.  At least n calls,
 * and on until a signal has come (at most 20 s more): on a quiet machine n
 * calls may be over before the sender's first kill. */
static void op_sigstorm(long n)
{
	struct sigaction sa = { .sa_handler = count_usr1,
				.sa_flags = SA_RESTART };
	struct timespec t0, now;
	long bad = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		die("sigaction");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long k = 0;; k++) {
		if (getuid() != 4242)
			bad++;
		if (k < n || (k & 1023))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (n_usr1 > 0 || now.tv_sec - t0.tv_sec > 20)
			break;
	}
	say("sigstorm: getuid!=4242 %ld times", bad);
	say("sigstorm: handler ran: %s", n_usr1 > 0 ? "yes" : "no");
}

struct spin_arg {
	volatile int *stop;
	long bad, calls;
};

static void *spin_thread(void *arg)
{
	struct spin_arg *a = arg;

	while (!*a->stop) {
		if (getuid() != 4242)
			a->bad++;
		a->calls++;
	}
	return NULL;
}

/* N threads making emulated calls for SECONDS of wall time. */
static void op_spin_threads(int n, int seconds)
{
	static volatile int stop;
	pthread_t th[64];
	struct spin_arg a[64];
	long bad = 0, zero = 0;

	if (n < 1 || n > 64)
		n = 4;
	for (int k = 0; k < n; k++) {
		a[k] = (struct spin_arg){ .stop = &stop };
		if ((errno = pthread_create(&th[k], NULL, spin_thread, &a[k])))
			die("pthread_create");
	}
	sleep(seconds);
	stop = 1;
	for (int k = 0; k < n; k++) {
		pthread_join(th[k], NULL);
		bad += a[k].bad;
		zero += a[k].calls == 0;
	}
	say("spin: threads=%d getuid!=4242 %ld times, idle threads %ld", n,
	    bad, zero);
}

/* Job control seen by a (confined) parent of a (confined) child. */
static void op_stopcont(void)
{
	int st;
	pid_t c = fork();

	if (c < 0)
		die("fork");
	if (c == 0) {
		for (;;)
			pause();
	}
	alarm(20);
	kill(c, SIGSTOP);
	if (waitpid(c, &st, WUNTRACED) != c)
		die("waitpid WUNTRACED");
	say("child stopped=%s sig=%s", WIFSTOPPED(st) ? "yes" : "no",
	    WIFSTOPPED(st) ? sigabbrev_np(WSTOPSIG(st)) : "-");
	kill(c, SIGCONT);
	if (waitpid(c, &st, WCONTINUED) != c)
		die("waitpid WCONTINUED");
	say("child continued=%s", WIFCONTINUED(st) ? "yes" : "no");
	kill(c, SIGTERM);
	if (waitpid(c, &st, 0) != c)
		die("waitpid");
	say("child killed by=%s",
	    WIFSIGNALED(st) ? sigabbrev_np(WTERMSIG(st)) : "none");
	alarm(0);
}

/* --- network ----------------------------------------------------------- */

/* A sockaddr_un for NAME: a path, or "@name" an abstract one. */
static socklen_t unix_addr(struct sockaddr_un *a, const char *name)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (n >= sizeof(a->sun_path))
		n = sizeof(a->sun_path) - 1;
	memcpy(a->sun_path, name, n);
	if (name[0] == '@')
		a->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
			   (name[0] == '@' ? 0 : 1));
}

/* connect-unix NAME: a stream socket connected to NAME, "hi" sent
 * (connect-abstract NAME: to @NAME, served by whoever listens on it,
 * outside for route 16's scope); sendto-unix NAME: a datagram "hi" sent
 * to NAME. */
static void op_unix(const char *name, bool stream)
{
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name);
	int s = socket(AF_UNIX, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	ssize_t r;

	if (s < 0)
		die("socket");
	if (stream) {
		r = connect(s, (struct sockaddr *)&a, len);
		say("connect(%s)=%s", name, res((int)r, errno));
		if (r == 0)
			(void)!write(s, "hi\n", 3);
	} else {
		r = sendto(s, "hi\n", 3, 0, (struct sockaddr *)&a, len);
		say("sendto(%s)=%s", name, res(r < 0 ? -1 : 0, errno));
	}
	close(s);
}

static void op_net(bool inet)
{
	const char *fam = inet ? "inet" : "unix";
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int l, c, r;

	l = socket(inet ? AF_INET : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	say("socket(%s)=%s", fam, res(l, errno));
	if (l < 0)
		return;
	if (inet) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*sin);
	} else {
		struct sockaddr_un *sun = (struct sockaddr_un *)&ss;

		sun->sun_family = AF_UNIX;
		/* abstract name, nothing on disk */
		len = offsetof(struct sockaddr_un, sun_path) + 1 +
		      snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1,
			       "sw-probe-%d", getpid());
	}
	if (bind(l, (struct sockaddr *)&ss, len) < 0 || listen(l, 1) < 0)
		die("bind/listen");
	len = sizeof(ss);
	if (getsockname(l, (struct sockaddr *)&ss, &len) < 0)
		die("getsockname");
	c = socket(inet ? AF_INET : AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0)
		die("socket");
	r = connect(c, (struct sockaddr *)&ss, len);
	say("connect(%s)=%s", fam, res(r, errno));
	close(c);
	close(l);
}

/* fd-names: every descriptor open at this point, one line each, "fd N:
 * WHAT" (its /proc/self/fd link, a pipe's and a socket's without their
 * inode numbers, which differ run to run; "anon_inode:..." and
 * "memfd:..." name what a runtime or a supervisor could have left). */
static void op_fd_names(void)
{
	for (int fd = 0; fd < 1024; fd++) {
		char path[64], target[512];
		ssize_t n;

		if (fcntl(fd, F_GETFD) < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			snprintf(target, sizeof(target), "? (%s)", strerror(errno));
		else
			target[n] = '\0';
		/* A pipe's or socket's inode number differs run to run. */
		if (strncmp(target, "pipe:", 5) == 0)
			snprintf(target, sizeof(target), "pipe");
		else if (strncmp(target, "socket:", 7) == 0)
			snprintf(target, sizeof(target), "socket");
		say("fd %d: %s", fd, target);
	}
}

/* Every descriptor open in this process, by number: "fd N=TARGET MODE"
 * with the file it names and its access mode and O_APPEND, and whether
 * it is close-on-exec ("cloexec"), the reader's own left out. */
static void op_fds(void)
{
	int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char buf[8192];
	long n;

	if (dfd < 0)
		die("open /proc/self/fd");
	/* Numbers in increasing order: /proc lists them so. */
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			char link[64], target[512];
			int fd, fl, fdfl;
			ssize_t len;

			off += d->reclen;
			if (d->name[0] == '.')
				continue;
			fd = atoi(d->name);
			if (fd == dfd)
				continue;
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			len = readlink(link, target, sizeof(target) - 1);
			target[len < 0 ? 0 : len] = '\0';
			fl = fcntl(fd, F_GETFL);
			fdfl = fcntl(fd, F_GETFD);
			say("fd %d=%s %s%s%s", fd, target,
			    (fl & O_ACCMODE) == O_RDONLY ? "r" :
			    (fl & O_ACCMODE) == O_WRONLY ? "w" : "rw",
			    fl & O_APPEND ? "a" : "",
			    fdfl >= 0 && (fdfl & FD_CLOEXEC) ? " cloexec" : "");
		}
	}
	close(dfd);
}

/* What a process gets from whoever starts it, one line each, for
 * comparing a program run by its client with the same run by syswardd:
 * its namespaces (but mnt, ipc and cgroup: a session may get its own),
 * root, cgroups, limits, scheduling, CPUs, I/O priority, OOM score, core
 * dump filter, personality, THP setting, audit login uid. */
static void op_context(void)
{
	static const char *const ns[] = { "net", "uts", "user", "pid", "time" };
	static const char *const files[] = { "oom_score_adj", "coredump_filter",
					     "loginuid", "personality" };
	char path[64], buf[4096], line[512];
	struct sched_param sp;
	struct stat st;
	cpu_set_t cpus;
	FILE *f;

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns[i]);
		if (stat(path, &st) == 0)
			say("ns %s=%lu", ns[i], (unsigned long)st.st_ino);
	}
	if (stat("/", &st) == 0)
		say("root=%lu:%lu", (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	f = fopen("/proc/self/cgroup", "re");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		say("cgroup %s", line);
	}
	if (f)
		fclose(f);
	f = fopen("/proc/self/limits", "re");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (char *e = line + strlen(line); e > line && e[-1] == ' '; )
			*--e = '\0';
		say("limit %s", line);
	}
	if (f)
		fclose(f);
	sched_getparam(0, &sp);
	say("sched=%d/%d nice=%d", sched_getscheduler(0), sp.sched_priority,
	    getpriority(PRIO_PROCESS, 0));
	CPU_ZERO(&cpus);
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0) {
		int n = 0;

		buf[0] = '\0';
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cpus))
				n += snprintf(buf + n, sizeof(buf) - n, "%s%d", n ? "," : "", c);
		say("cpus=%s", buf);
	}
	say("ioprio=%ld", syscall(SYS_ioprio_get, 1, 0));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/%s", files[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		buf[n < 0 ? 0 : n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		say("%s=%s", files[i], n < 0 ? "?" : buf);
	}
	say("thp_disable=%d", prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));
}

/* A filter of our own refusing mkdir and mkdirat with EPERM (the
 * client of a scenario under a seccomp filter). */
static void op_seccomp_deny_mkdir(void)
{
#if defined(__x86_64__)
	const unsigned int arch = AUDIT_ARCH_X86_64;
	const unsigned int nr_a = SYS_mkdir, nr_b = SYS_mkdirat;
#elif defined(__aarch64__)
	/* no mkdir on arm64: mkdirat alone */
	const unsigned int arch = AUDIT_ARCH_AARCH64;
	const unsigned int nr_a = SYS_mkdirat, nr_b = SYS_mkdirat;
#elif defined(__riscv)
	/* nor on riscv64 */
	const unsigned int arch = AUDIT_ARCH_RISCV64;
	const unsigned int nr_a = SYS_mkdirat, nr_b = SYS_mkdirat;
#else
	const unsigned int arch = AUDIT_ARCH_I386;
	const unsigned int nr_a = SYS_mkdir, nr_b = SYS_mkdirat;
#endif
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr_a, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr_b, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		die("seccomp filter");
}

/* A Landlock domain of our own in which no directory can be made (the
 * client of a scenario in a domain). */
static void op_landlock_deny_mkdir(void)
{
	struct landlock_ruleset_attr a = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_MAKE_DIR,
	};
	int fd = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof(a), 0);

	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, fd, 0) < 0)
		die("landlock");
	close(fd);
}

/* Session keyrings: a new one joined, a user key added to it, and what
 * the session keyring holds (each key's description and payload, or
 * why it cannot be read). */
#define KEYCTL_JOIN_SESSION_KEYRING_ 1
#define KEYCTL_DESCRIBE_ 6
#define KEYCTL_READ_ 11
#define KEY_SPEC_SESSION_KEYRING_ -3
static void op_keys(void)
{
	int32_t ids[64];
	long n = syscall(SYS_keyctl, KEYCTL_READ_, KEY_SPEC_SESSION_KEYRING_,
			 ids, sizeof(ids));

	if (n < 0) {
		say("keys=%s", res(n, errno));
		return;
	}
	say("keys=%ld", n / 4);
	for (long i = 0; i < n / 4 && i < 64; i++) {
		char d[256] = "", v[256] = "";
		long dn = syscall(SYS_keyctl, KEYCTL_DESCRIBE_, ids[i], d, sizeof(d) - 1);
		long vn = syscall(SYS_keyctl, KEYCTL_READ_, ids[i], v, sizeof(v) - 1);

		if (vn >= 0 && vn < (long)sizeof(v))
			v[vn] = '\0';
		say("key %s read=%s%s", dn < 0 ? "?" : d, vn < 0 ? res(vn, errno) : "ok ",
		    vn < 0 ? "" : v);
	}
}

/* --- main ---------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
"usage: sw-probe OP...\n"
"  getuid geteuid getgid arch pid-is-ppid sys:NAME sys:NUMBER sigsys:NAME\n"
"  nrreg:NAME (the call, and its number register after it)\n"
"  open PATH FLAGS   openwrite PATH FLAGS   open-badptr   fstat-null\n"
"  exists PATH   mkdir PATH\n"
"  chown PATH UID GID   owner PATH   writes N   net-inet net-unix\n"
"  connect-unix NAME   sendto-unix NAME (NAME a path, or @name)\n"
"  connect-abstract NAME   fd-names\n"
"  unshare-user   threads N   fork (rest runs in the child)   detach\n"
"  vfork (rest runs in an exec'd child)   exec PATH ARGS...   thread-exec OPS...\n"
"  sigusr1   stopcont   raise SIG   exit N   sleep SECONDS   sigstorm N\n"
"  spin-threads N SECONDS   cat   env NAME   cwd   caps   fds   context\n"
"  seccomp-deny-mkdir   landlock-deny-mkdir   keyring-new   key-add NAME VALUE\n"
"  keys\n"
"  pidfile PATH   spawn-sleeper PIDFILE   prefix:TEXT\n");
	exit(2);
}

static void write_pidfile(const char *path, pid_t pid)
{
	char tmp[4096], buf[32];
	int fd, n;

	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)pid);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("open pidfile");
	n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	if (write(fd, buf, n) != n || close(fd) < 0)
		die("write pidfile");
	if (rename(tmp, path) < 0)
		die("rename pidfile");
}

/* Build argv for re-executing ourselves with the remaining operations. */
static char **self_argv(const char *pfx, char **rest)
{
	size_t n = 0;
	char **v;

	while (rest[n])
		n++;
	v = calloc(n + 3, sizeof(*v));
	if (!v)
		die("calloc");
	v[0] = "sw-probe";
	if (asprintf(&v[1], "prefix:%s", pfx) < 0)
		die("asprintf");
	memcpy(v + 2, rest, n * sizeof(*v));
	return v;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2)
		usage();
	for (i = 1; i < argc; i++) {
		const char *op = argv[i];
		const char *a1 = i + 1 < argc ? argv[i + 1] : NULL;
		const char *a2 = i + 2 < argc ? argv[i + 2] : NULL;
		long r;

#define NEED(n) do { if (i + (n) >= argc) usage(); } while (0)
		if (strncmp(op, "prefix:", 7) == 0) {
			snprintf(prefix, sizeof(prefix), "%s", op + 7);
		} else if (strcmp(op, "getuid") == 0) {
			say("getuid=%ld", (long)getuid());
		} else if (strcmp(op, "geteuid") == 0) {
			say("geteuid=%ld", (long)geteuid());
		} else if (strcmp(op, "getgid") == 0) {
			say("getgid=%ld", (long)getgid());
		} else if (strcmp(op, "arch") == 0) {
#if defined(__x86_64__)
			say("arch=x86_64");
#elif defined(__i386__)
			say("arch=i386");
#elif defined(__aarch64__)
			say("arch=aarch64");
#elif defined(__riscv) && __riscv_xlen == 64
			say("arch=riscv64");
#else
			say("arch=other");
#endif
		} else if (strcmp(op, "pid-is-ppid") == 0) {
			long pid = syscall(SYS_getpid);
			long ppid = syscall(SYS_getppid);

			say("getpid==getppid: %s", pid == ppid ? "yes" : "no");
		} else if (strncmp(op, "sys:", 4) == 0) {
			bool known;

			errno = 0;
			r = raw_noarg(op + 4, &known);
			if (!known) {
				say("probe: unknown syscall %s", op + 4);
				_exit(97);
			}
			say("%s=%s", op + 4, val(r, errno));
		} else if (strncmp(op, "nrreg:", 6) == 0) {
			long nr = noarg_nr(op + 6), kept;

			if (nr < 0) {
				say("probe: unknown syscall %s", op + 6);
				_exit(97);
			}
			r = raw_nr_kept(nr, &kept);
			say("%s=%s number-register=%s", op + 6,
			    val(r, r < 0 && r >= -4095 ? (int)-r : 0),
			    kept == nr ? "kept" : kept == -1 ? "-1" : "changed");
		} else if (strncmp(op, "sigsys:", 7) == 0) {
			/* sys:NAME with a SIGSYS handler: what it is told */
			struct sigaction sa = { .sa_sigaction = on_sigsys,
						.sa_flags = SA_SIGINFO };
			bool known;

			sigaction(SIGSYS, &sa, NULL);
			sigsys_seen = 0;
			errno = 0;
			r = raw_noarg(op + 7, &known);
			if (!known) {
				say("probe: unknown syscall %s", op + 7);
				_exit(97);
			}
			if (!sigsys_seen) {
				say("sigsys(%s)=%s no signal", op + 7, val(r, errno));
			} else {
				/* The call's address, where it is the same in
				 * every run: in libc's syscall(), or (i386) in
				 * the vDSO's entry. */
				uintptr_t at = (uintptr_t)sigsys_info.si_call_addr;
				uintptr_t sc = (uintptr_t)syscall;
				uintptr_t vdso = getauxval(AT_SYSINFO_EHDR);
				char where[64];

				if (at - sc < 0x10000)
					snprintf(where, sizeof(where), "syscall+%#lx",
						 (unsigned long)(at - sc));
				else if (vdso && at - vdso < 0x10000)
					snprintf(where, sizeof(where), "vdso+%#lx",
						 (unsigned long)(at - vdso));
				else
					snprintf(where, sizeof(where), "%s", at ? "elsewhere" : "0");
				say("sigsys(%s)=%s code=%d errno=%d syscall=%d arch=%#x addr=%s ret_reg=%ld",
				    op + 7, val(r, errno), sigsys_info.si_code,
				    sigsys_info.si_errno, sigsys_info.si_syscall,
				    sigsys_info.si_arch, where, sigsys_ret_reg);
			}
			signal(SIGSYS, SIG_DFL);
		} else if (strcmp(op, "open") == 0) {
			NEED(2);
			r = openat(AT_FDCWD, a1, parse_flags(a2) | O_CLOEXEC,
				   0644);
			say("open(%s,%s)=%s", a1, a2, res(r, errno));
			if (r >= 0)
				close(r);
			i += 2;
		} else if (strcmp(op, "open-badptr") == 0) {
			/* a path the kernel cannot read: EFAULT */
			r = syscall(SYS_openat, AT_FDCWD, (const char *)1,
				    O_RDONLY | O_CLOEXEC);
			say("open(badptr)=%s", res(r, errno));
		} else if (strcmp(op, "fstat-null") == 0) {
			/* newfstatat(0, NULL, AT_EMPTY_PATH): the descriptor
			 * itself (Linux 6.11+) */
			struct stat st;

#ifdef SYS_newfstatat
			r = syscall(SYS_newfstatat, 0, NULL, &st, AT_EMPTY_PATH);
#else
			r = syscall(SYS_fstatat64, 0, NULL, &st, AT_EMPTY_PATH);
#endif
			say("fstat-null=%s", res(r, errno));
		} else if (strcmp(op, "exists") == 0) {
			struct stat st;

			NEED(1);
			say("exists(%s)=%s", a1,
			    stat(a1, &st) == 0 ? "yes" : "no");
			i++;
		} else if (strcmp(op, "openwrite") == 0) {
			NEED(2);
			r = openat(AT_FDCWD, a1, parse_flags(a2) | O_CLOEXEC,
				   0644);
			if (r < 0) {
				say("open(%s,%s)=%s", a1, a2, res(r, errno));
			} else {
				long w = write((int)r, "new\n", 4);
				char wres[64];

				snprintf(wres, sizeof(wres), "%s",
					 w == 4 ? "ok" : res(-1, errno));
				say("open(%s,%s)=ok write=%s", a1, a2, wres);
				close(r);
			}
			i += 2;
		} else if (strcmp(op, "chown") == 0) {
			NEED(3);
			r = chown(a1, (uid_t)atol(a2), (gid_t)atol(argv[i + 3]));
			say("chown(%s,%s,%s)=%s", a1, a2, argv[i + 3],
			    res(r, errno));
			i += 3;
		} else if (strcmp(op, "owner") == 0) {
			struct stat st;

			NEED(1);
			if (stat(a1, &st) < 0)
				say("owner(%s)=%s", a1, res(-1, errno));
			else
				say("owner(%s)=%ld:%ld", a1, (long)st.st_uid,
				    (long)st.st_gid);
			i++;
		} else if (strcmp(op, "mkdir") == 0) {
			NEED(1);
			r = mkdir(a1, 0755);
			say("mkdir(%s)=%s", a1, res(r, errno));
			i++;
		} else if (strcmp(op, "writes") == 0) {
			/* On fd 9, so a policy can target these writes and
			 * not the ones that print results on fd 1. */
			char results[64][32];
			int n, fd;

			NEED(1);
			n = atoi(a1);
			if (n < 1 || n > 64)
				usage();
			fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
			if (fd < 0 || dup2(fd, 9) < 0)
				die("open /dev/null as fd 9");
			close(fd);
			for (int k = 0; k < n; k++) {
				r = write(9, "x", 1);
				snprintf(results[k], sizeof(results[k]), "%s",
					 r == 1 ? "ok" : res(r < 0 ? -1 : 0,
							     r < 0 ? errno : 0));
			}
			close(9);
			for (int k = 0; k < n; k++)
				say("write#%d=%s", k + 1, results[k]);
			i++;
		} else if (strcmp(op, "net-inet") == 0) {
			op_net(true);
		} else if (strcmp(op, "net-unix") == 0) {
			op_net(false);
		} else if (strcmp(op, "connect-unix") == 0) {
			NEED(1);
			op_unix(a1, true);
			i++;
		} else if (strcmp(op, "sendto-unix") == 0) {
			NEED(1);
			op_unix(a1, false);
			i++;
		} else if (strcmp(op, "unshare-user") == 0) {
			r = unshare(CLONE_NEWUSER);
			say("unshare(CLONE_NEWUSER)=%s", res(r, errno));
		} else if (strcmp(op, "threads") == 0) {
			NEED(1);
			op_threads(atoi(a1));
			i++;
		} else if (strcmp(op, "fork") == 0) {
			int st;
			pid_t c = fork();

			if (c < 0)
				die("fork");
			if (c == 0) {
				snprintf(prefix, sizeof(prefix), "child: ");
				continue;	/* the child runs the rest */
			}
			if (waitpid(c, &st, 0) != c)
				die("waitpid");
			say("fork: child exit=%d", WIFEXITED(st) ?
			    WEXITSTATUS(st) : 128 + WTERMSIG(st));
			return 0;
		} else if (strcmp(op, "detach") == 0) {
			/* The rest runs in a child whose parent has exited. */
			pid_t c = fork();

			if (c < 0)
				die("fork");
			if (c > 0)
				_exit(0);
			usleep(300000);
			snprintf(prefix, sizeof(prefix), "orphan: ");
		} else if (strcmp(op, "vfork") == 0) {
			char **v = self_argv("vfork-child: ", argv + i + 1);
			int st;
			pid_t c = vfork();

			if (c < 0)
				die("vfork");
			if (c == 0) {
				execv(self_path, v);
				_exit(127);
			}
			if (waitpid(c, &st, 0) != c)
				die("waitpid");
			say("vfork: child exit=%d", WIFEXITED(st) ?
			    WEXITSTATUS(st) : 128 + WTERMSIG(st));
			return 0;
		} else if (strcmp(op, "exec") == 0) {
			NEED(1);
			execv(a1, argv + i + 1);
			say("exec(%s)=%s", a1, res(-1, errno));
			return 96;
		} else if (strcmp(op, "thread-exec") == 0) {
			op_thread_exec(self_argv("after-thread-exec: ",
						 argv + i + 1));
		} else if (strcmp(op, "sigstorm") == 0) {
			NEED(1);
			op_sigstorm(atol(a1));
			i++;
		} else if (strcmp(op, "spin-threads") == 0) {
			NEED(2);
			op_spin_threads(atoi(a1), atoi(a2));
			i += 2;
		} else if (strcmp(op, "connect-abstract") == 0) {
			char at[sizeof(((struct sockaddr_un *)0)->sun_path)];

			NEED(1);
			snprintf(at, sizeof(at), "@%s", a1);
			op_unix(at, true);
			i++;
		} else if (strcmp(op, "fd-names") == 0) {
			op_fd_names();
		} else if (strcmp(op, "cat") == 0) {
			/* stdin to stdout, to check the plumbing */
			char buf[4096];
			ssize_t n;

			while ((n = read(0, buf, sizeof(buf))) > 0)
				if (write(1, buf, (size_t)n) != n)
					die("write");
		} else if (strcmp(op, "env") == 0) {
			const char *v;

			NEED(1);
			v = getenv(a1);
			say("env %s=%s", a1, v ? v : "(unset)");
			i++;
		} else if (strcmp(op, "caps") == 0) {
			/* The capability sets, as /proc shows them. */
			char line[256];
			FILE *f = fopen("/proc/self/status", "re");

			if (!f)
				die("open /proc/self/status");
			while (fgets(line, sizeof(line), f))
				if (strncmp(line, "Cap", 3) == 0 ||
				    strncmp(line, "NoNewPrivs", 10) == 0) {
					line[strcspn(line, "\n")] = '\0';
					for (char *c = line; *c; c++)
						if (*c == '\t')
							*c = ' ';
					say("%s", line);
				}
			fclose(f);
		} else if (strcmp(op, "fds") == 0) {
			op_fds();
		} else if (strcmp(op, "context") == 0) {
			op_context();
		} else if (strcmp(op, "seccomp-deny-mkdir") == 0) {
			op_seccomp_deny_mkdir();
		} else if (strcmp(op, "landlock-deny-mkdir") == 0) {
			op_landlock_deny_mkdir();
		} else if (strcmp(op, "keyring-new") == 0) {
			if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING_, NULL) < 0)
				die("join a new session keyring");
		} else if (strcmp(op, "key-add") == 0) {
			NEED(2);
			if (syscall(SYS_add_key, "user", a1, a2, strlen(a2),
				    KEY_SPEC_SESSION_KEYRING_) < 0)
				die("add_key");
			i += 2;
		} else if (strcmp(op, "keys") == 0) {
			op_keys();
		} else if (strcmp(op, "cwd") == 0) {
			char buf[4096];

			say("cwd=%s", getcwd(buf, sizeof(buf)) ? buf : "?");
		} else if (strcmp(op, "sigusr1") == 0) {
			op_sigusr1();
		} else if (strcmp(op, "stopcont") == 0) {
			op_stopcont();
		} else if (strcmp(op, "raise") == 0) {
			NEED(1);
			kill(getpid(), atoi(a1));
			usleep(100000);
			say("raise(%s): still alive", a1);
			i++;
		} else if (strcmp(op, "exit") == 0) {
			NEED(1);
			return atoi(a1);
		} else if (strcmp(op, "sleep") == 0) {
			struct timespec ts = { 0 };

			NEED(1);
			ts.tv_sec = atoi(a1);
			while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
				;
			i++;
		} else if (strcmp(op, "pidfile") == 0) {
			NEED(1);
			write_pidfile(a1, getpid());
			i++;
		} else if (strcmp(op, "spawn-sleeper") == 0) {
			pid_t c;

			NEED(1);
			c = fork();
			if (c < 0)
				die("fork");
			if (c == 0) {
				struct timespec ts = { .tv_sec = 60 };

				write_pidfile(a1, getpid());
				while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
					;
				_exit(0);
			}
			i++;
		} else {
			fprintf(stderr, "sw-probe: unknown operation '%s'\n", op);
			usage();
		}
		(void)a2;
	}
	return 0;
}
