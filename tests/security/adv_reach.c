// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 16: reach a process outside the sandbox with what the kernel
 * grants any process of the same uid.  Every ptrace-mode check
 * (ptrace_may_access) passes for a same-uid, dumpable target whose
 * capabilities are not above ours, so a confined program could open
 * /proc/<pid>/mem read-write, read its environment, open its descriptors
 * through /proc/<pid>/fd (a file its own policy denies), walk its cwd and
 * root, and use process_vm_readv, kcmp, get_robust_list, move_pages and,
 * with a pidfd, pidfd_getfd and process_madvise; and connect to the
 * abstract unix sockets it listens on.
 *
 *   adv_reach witness DIR [-- CMD...]  outside sysward: hold DIR/file-D
 *       open, a secret in memory and (if SW_REACH_SECRET is set) in its
 *       environment, listen on DIR/wit.sock and on an abstract socket,
 *       write what it holds to DIR/wit.info; then run CMD as its child
 *       (without the secret variable) and exit with its status, or, with
 *       no CMD, serve for at most 60 s
 *   adv_reach attack DIR       under sysward: try everything on the
 *       witness that DIR/wit.info names
 *   adv_reach attack-pid PID   under sysward: the calls that need no
 *       knowledge of the target, on PID (a daemon's client, a process of
 *       another session)
 *   adv_reach control DIR [nest]   under sysward: the same on a child of
 *       its own (which must work: the route is closed by who the target
 *       is, not by what the calls are); with "nest", after creating a
 *       Landlock domain of its own, as a program may
 *   adv_reach oom PID...   under sysward: raise each PID's oom_score_adj
 *       by one, which its file's owner may do with no ptrace-mode check
 *       (route 16, "the session's own /proc"); contained when no write
 *       reached a target
 *   adv_reach oom-child    under sysward: the same on a child of its
 *       own, which must work (exit 0)
 *
 * attack: contained when no call reached the target; control: exit 0
 * when every call reached the child.  attack also reports, as facts,
 * which /proc/<pid>/ files it could write by file ownership alone.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "adv.h"

#define KCMP_VM 1

/* Landlock's uapi (include/uapi/linux/landlock.h; Debian 12's header
 * predates "scoped", ABI 6). */
struct ll_attr {
	uint64_t handled_access_fs, handled_access_net, scoped;
};
#define LL_CREATE_RULESET_VERSION	(1U << 0)
#define LL_ACCESS_FS_MAKE_BLOCK		(1ULL << 11)
#define LL_SCOPE_SIGNAL			(1ULL << 1)

static char secret[64] = "reach-secret-in-memory";

/* What the attacker knows of its target. */
struct target {
	long pid;
	int fd;			/* a descriptor it holds (file-D), or -1 */
	unsigned long addr;	/* the secret's address, or 0 */
	char abstract[108];	/* abstract socket name (no NUL), or "" */
	char sock[256];		/* path of a socket it listens on, or "" */
	char dir[256];		/* its working directory, or "" */
};

static int served;

/* Accept (and keep) connections for ms milliseconds. */
static void serve(int s1, int s2, int ms)
{
	struct pollfd p[2] = { { s1, POLLIN, 0 }, { s2, POLLIN, 0 } };

	if (poll(p, 2, ms) <= 0)
		return;
	for (int i = 0; i < 2; i++)
		if (p[i].revents & POLLIN) {
			(void)!accept(p[i].fd, NULL, NULL);	/* kept open */
			served++;
		}
}

/* Listen on DIR/NAME.sock and on an abstract socket; hold file-D; write
 * DIR/NAME.info.  Returns 0 with *s1, *s2 listening. */
static int hold(const char *dir, const char *name, int *s1, int *s2)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct sockaddr_un b = { .sun_family = AF_UNIX };
	char path[300], tmp[300], abs[64];
	socklen_t blen;
	int d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/file-D", dir);
	d = open(path, O_RDONLY);
	*s1 = socket(AF_UNIX, SOCK_STREAM, 0);
	*s2 = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s.sock", dir, name);
	unlink(a.sun_path);
	snprintf(abs, sizeof(abs), "sysward-reach-%d", (int)getpid());
	memcpy(b.sun_path + 1, abs, strlen(abs));
	blen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(abs));
	if (d < 0 || *s1 < 0 || *s2 < 0 ||
	    bind(*s1, (void *)&a, sizeof(a)) < 0 || listen(*s1, 8) < 0 ||
	    bind(*s2, (void *)&b, blen) < 0 || listen(*s2, 8) < 0) {
		perror("adv_reach: witness setup");
		return -1;
	}
	chmod(a.sun_path, 0666);
	if (chdir(dir) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s/%s.info.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s.info", dir, name);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d %d %lx %s %s %s\n", (int)getpid(), d,
		(unsigned long)secret, abs, a.sun_path, dir);
	fclose(f);
	return rename(tmp, path);
}

static int witness(const char *dir, char **cmd)
{
	int s1, s2, status;
	pid_t child;

	if (hold(dir, "wit", &s1, &s2) < 0)
		return ADV_CANNOT;
	/* Its environment block keeps the variable; the command's does not. */
	unsetenv("SW_REACH_SECRET");
	if (!cmd || !*cmd) {
		for (int i = 0; i < 600; i++)	/* at most 60 s */
			serve(s1, s2, 100);
		return 0;
	}
	child = fork();
	if (child == 0) {
		close(s1);
		close(s2);
		execvp(cmd[0], cmd);
		perror(cmd[0]);
		_exit(127);
	}
	for (;;) {
		pid_t r = waitpid(child, &status, WNOHANG);

		if (r == child)
			break;
		serve(s1, s2, 50);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int read_info(const char *path, struct target *t)
{
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%ld %d %lx %107s %255s %255s", &t->pid, &t->fd,
		   &t->addr, t->abstract, t->sock, t->dir);
	fclose(f);
	return n == 6 ? 0 : -1;
}

static int reached, tried;

/* One attempt: ok says whether the target was reached. */
static void verdict_of(const char *what, bool ok, const char *detail)
{
	tried++;
	if (ok)
		reached++;
	RESULT("%s: %s%s", what, ok ? "REACHED" : "refused", detail);
}

static void try_mem(const struct target *t)
{
	char p[64], buf[64] = { 0 }, d[160] = "";
	int fd, e;

	snprintf(p, sizeof(p), "/proc/%ld/mem", t->pid);
	TRIED("open(%s, O_RDWR), then pread/pwrite the secret", p);
	fd = open(p, O_RDWR | O_CLOEXEC);
	e = errno;
	if (fd >= 0 && t->addr) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, (off_t)t->addr);
		/* The same bytes back: a write that proves, harmlessly. */
		ssize_t w = n > 0 ? pwrite(fd, buf, (size_t)n, (off_t)t->addr) : -1;

		snprintf(d, sizeof(d), " (read \"%s\", wrote back %zd bytes)",
			 n > 0 ? buf : "", w);
	} else if (fd < 0) {
		snprintf(d, sizeof(d), " (%s)", RET(-1, e));
	}
	verdict_of("/proc/PID/mem O_RDWR", fd >= 0, d);
	if (fd >= 0)
		close(fd);
}

static void try_environ(const struct target *t)
{
	char p[64], buf[8192], d[160];
	ssize_t n = -1;
	int fd, e;

	snprintf(p, sizeof(p), "/proc/%ld/environ", t->pid);
	TRIED("read(%s)", p);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	if (n >= 0) {
		bool has = false;

		buf[n] = '\0';
		for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
			has |= !strncmp(buf + i, "SW_REACH_SECRET=", 16);
		snprintf(d, sizeof(d), " (%zd bytes%s)", n,
			 has ? ", SW_REACH_SECRET among them" : "");
	} else {
		snprintf(d, sizeof(d), " (%s)", RET(-1, e));
	}
	verdict_of("/proc/PID/environ", n >= 0, d);
	if (fd >= 0)
		close(fd);
}

static void try_fd(const struct target *t)
{
	char p[64], buf[32] = { 0 }, d[160];
	int fd, e, wfd = t->fd >= 0 ? t->fd : 0;

	snprintf(p, sizeof(p), "/proc/%ld/fd/%d", t->pid, wfd);
	TRIED("open(%s)", p);
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	e = errno;
	if (fd >= 0 && t->fd >= 0 && pread(fd, buf, sizeof(buf) - 1, 0) > 0)
		buf[strcspn(buf, "\n")] = '\0';
	snprintf(d, sizeof(d), fd >= 0 ? " (reads \"%s\")" : " (%s)",
		 fd >= 0 ? buf : RET(-1, e));
	verdict_of("/proc/PID/fd/N", fd >= 0, d);
	if (fd >= 0)
		close(fd);
}

static void try_links(const struct target *t)
{
	static const char *const what[] = { "cwd", "root" };

	for (int i = 0; i < 2; i++) {
		char p[64], l[256] = { 0 }, d[400];
		ssize_t n;
		int fd, e;

		snprintf(p, sizeof(p), "/proc/%ld/%s", t->pid, what[i]);
		TRIED("readlink(%s), open(%s/, O_DIRECTORY)", p, p);
		n = readlink(p, l, sizeof(l) - 1);
		e = errno;
		fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		snprintf(d, sizeof(d), " (readlink %s, open %s)",
			 n >= 0 ? l : RET(-1, e), RET(fd, errno));
		verdict_of(i ? "/proc/PID/root" : "/proc/PID/cwd",
			   n >= 0 || fd >= 0, d);
		if (fd >= 0)
			close(fd);
	}
}

/* The calls that take a pid.  Each checks access before it looks at
 * the address: a denied call fails with EPERM (or ESRCH), an allowed one
 * with an unknown address gets EFAULT (or a per-page status). */
static void try_pid_calls(const struct target *t)
{
	char buf[64] = { 0 }, d[160];
	struct iovec local = { buf, sizeof(buf) - 1 };
	struct iovec remote = { (void *)t->addr, sizeof(buf) - 1 };
	void *pages[1] = { (void *)(t->addr & ~4095UL) };
	int status[1] = { 0 };
	long r, head_len = 0;
	void *head = NULL;
	int e;

	TRIED("process_vm_readv(%ld, %#lx)", t->pid, t->addr);
	r = process_vm_readv((pid_t)t->pid, &local, 1, &remote, 1, 0);
	e = errno;
	snprintf(d, sizeof(d), " (%s%s%s)", RET(r, e), r > 0 ? ": " : "",
		 r > 0 ? buf : "");
	verdict_of("process_vm_readv", r > 0 || (r < 0 && e == EFAULT), d);

	TRIED("kcmp(self, %ld, KCMP_VM)", t->pid);
	r = syscall(SYS_kcmp, getpid(), (pid_t)t->pid, KCMP_VM, 0, 0);
	e = errno;
	snprintf(d, sizeof(d), " (%s)", RET(r, e));
	/* ENOSYS: a kernel without CONFIG_KCMP (the guest's): nothing to
	 * learn, as for move_pages without NUMA. */
	if (r < 0 && e == ENOSYS)
		FACT("kcmp: not in this kernel%s", d);
	else
		verdict_of("kcmp", r >= 0, d);

	TRIED("get_robust_list(%ld)", t->pid);
	r = syscall(SYS_get_robust_list, (pid_t)t->pid, &head, &head_len);
	snprintf(d, sizeof(d), " (%s)", RET(r, errno));
	verdict_of("get_robust_list", r == 0, d);

	TRIED("move_pages(%ld, 1 page, query)", t->pid);
	r = syscall(SYS_move_pages, (pid_t)t->pid, 1UL, pages, NULL, status, 0);
	e = errno;
	snprintf(d, sizeof(d), " (%s, status %d)", RET(r, e), status[0]);
	/* ENOSYS/EOPNOTSUPP: no NUMA here, nothing to learn. */
	if (r < 0 && (e == ENOSYS || e == EOPNOTSUPP))
		FACT("move_pages: %s", d);
	else
		verdict_of("move_pages", r >= 0, d);
}

static void use_pidfd(int pidfd, const struct target *t, const char *how)
{
	struct iovec iov = { (void *)(t->addr & ~4095UL), 4096 };
	char buf[32] = { 0 }, d[160];
	long r;
	int e;

	TRIED("[%s] pidfd_getfd(pidfd, %d)", how, t->fd);
	r = syscall(SYS_pidfd_getfd, pidfd, t->fd, 0);
	e = errno;
	if (r >= 0 && pread((int)r, buf, sizeof(buf) - 1, 0) > 0)
		buf[strcspn(buf, "\n")] = '\0';
	if (r >= 0)
		snprintf(d, sizeof(d), " (fd %ld reads \"%s\")", r, buf);
	else
		snprintf(d, sizeof(d), " (%s)", RET(r, e));
	verdict_of("pidfd_getfd", r >= 0, d);
	if (r >= 0)
		close((int)r);

	TRIED("[%s] process_madvise(pidfd, MADV_COLD)", how);
	r = syscall(SYS_process_madvise, pidfd, &iov, 1UL, MADV_COLD, 0U);
	e = errno;
	/* A fact only: besides the ptrace-mode check, advice to another
	 * process needs CAP_SYS_NICE (mm/madvise.c), even for a child. */
	FACT("[%s] process_madvise = %s", how, RET(r, e));
}

static void try_pidfds(const struct target *t)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	long r;
	int s;

	TRIED("pidfd_open(%ld)", t->pid);
	r = syscall(SYS_pidfd_open, (pid_t)t->pid, 0U);
	RESULT("pidfd_open = %s", RET(r, errno));
	if (r >= 0) {
		use_pidfd((int)r, t, "pidfd_open");
		close((int)r);
	}
	if (!t->sock[0])
		return;
	/* A pidfd without pidfd_open: the peer of a connection. */
	TRIED("connect(%s), getsockopt(SO_PEERPIDFD)", t->sock);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (strlen(t->sock) >= sizeof(a.sun_path)) {
		RESULT("socket path too long: %s", t->sock);
		close(s);
		return;
	}
	memcpy(a.sun_path, t->sock, strlen(t->sock));
	if (connect(s, (void *)&a, sizeof(a)) == 0) {
		int pfd = -1;
		socklen_t l = sizeof(pfd);

		/* The peer is the target: it made the socket and accepts. */
		r = getsockopt(s, SOL_SOCKET, SO_PEERPIDFD, &pfd, &l);
		RESULT("SO_PEERPIDFD = %s, pidfd %d", RET(r, errno), pfd);
		if (r == 0 && pfd >= 0)
			use_pidfd(pfd, t, "SO_PEERPIDFD");
	} else {
		RESULT("connect = %s", RET(-1, errno));
	}
	close(s);
}

static void try_abstract(const struct target *t)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	size_t n = strlen(t->abstract);
	char d[160];
	int s, r;

	if (!n)
		return;
	TRIED("connect(@%s)", t->abstract);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memcpy(a.sun_path + 1, t->abstract, n);
	r = connect(s, (void *)&a,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n));
	snprintf(d, sizeof(d), " (%s)", RET(r, errno));
	verdict_of("abstract unix connect", r == 0, d);
	close(s);
}

/*
 * Facts, no verdict: files of /proc/<pid>/ that a same-uid process may
 * write by file ownership alone (the inode's owner is the target's euid
 * while it is dumpable), with no ptrace-mode check for Landlock to
 * refuse.  Each write names a value that changes little; the kernel's
 * check for each (fs/proc/base.c, task_mmu.c, Linux 6.12) is in the
 * table.  Reported, not judged: route 15's "Limits" in docs/security.md.
 */
static void try_owner_writes(const struct target *t)
{
	static const struct {
		const char *file, *value, *check;
	} w[] = {
		{ "oom_score_adj", "1000", "raise: none; lower: CAP_SYS_RESOURCE" },
		{ "oom_adj", "15", "raise: none; lower: CAP_SYS_RESOURCE" },
		{ "coredump_filter", "0x33", "none" },
		{ "clear_refs", "1", "none" },
		{ "sched", "0", "none (resets its statistics)" },
		{ "autogroup", "0", "can_nice() of the writer for nice < 0" },
		{ "timerslack_ns", "50000", "CAP_SYS_NICE for another task" },
		{ "comm", "x", "same thread group only" },
		{ "loginuid", "0", "current task only" },
		{ "attr/current", "x", "current task only" },
		{ "uid_map", "0 0 1", "map_write(): namespace and capability rules" },
		{ "timens_offsets", "monotonic 0 0", "CAP_SYS_TIME over its time namespace" },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		char p[96];
		long r = -1;
		int fd, e;

		snprintf(p, sizeof(p), "/proc/%ld/%s", t->pid, w[i].file);
		fd = open(p, O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			r = write(fd, w[i].value, strlen(w[i].value));
		e = errno;
		if (fd >= 0)
			close(fd);
		n += r > 0;
		FACT("write %s \"%s\" = %s%s (kernel check: %s)", p, w[i].value,
		     fd < 0 ? "open " : "", RET(r, e), w[i].check);
	}
	FACT("%d /proc/PID writes reached the target by file ownership", n);
}

static void attack(const struct target *t)
{
	try_mem(t);
	try_environ(t);
	try_fd(t);
	try_links(t);
	try_pid_calls(t);
	if (t->fd >= 0)
		try_pidfds(t);
	try_abstract(t);
}

/* A domain of the program's own, as a program that uses Landlock makes:
 * scoped signals on ABI >= 6, else a right handled and granted below /. */
static int own_domain(void)
{
	int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			       LL_CREATE_RULESET_VERSION);
	struct ll_attr attr = { 0 };
	long fd;

	if (abi < 0)
		return -1;
	if (abi >= 6)
		attr.scoped = LL_SCOPE_SIGNAL;
	else
		attr.handled_access_fs = LL_ACCESS_FS_MAKE_BLOCK;
	fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0U);
	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, (int)fd, 0U) < 0)
		return -1;
	close((int)fd);
	return abi;
}

static int control(const char *dir, bool nest)
{
	struct target t = { 0 };
	char info[300];
	int s1, s2, status, ready[2];
	pid_t child;

	if (nest) {
		int abi = own_domain();

		TRIED("landlock_restrict_self (a domain of the program's own)");
		RESULT("landlock_restrict_self = %s", abi < 0 ? RET(-1, errno) : "0");
		if (abi < 0)
			return adv_verdict(ADV_CANNOT, "no domain of its own");
	}
	if (pipe(ready) < 0)
		return ADV_CANNOT;
	child = fork();
	if (child == 0) {
		close(ready[0]);
		if (hold(dir, "own", &s1, &s2) < 0)
			_exit(2);
		(void)!write(ready[1], "r", 1);
		for (int i = 0; i < 600 && served < 2; i++)
			serve(s1, s2, 100);
		sleep(1);
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], info, 1) != 1)
		return adv_verdict(ADV_CANNOT, "the child did not start");
	snprintf(info, sizeof(info), "%s/own.info", dir);
	if (read_info(info, &t) < 0)
		return adv_verdict(ADV_CANNOT, "own.info unreadable");
	FACT("control: the target is the program's own child %ld", t.pid);
	attack(&t);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	dprintf(STDOUT_FILENO, "control: reached %d of %d\n", reached, tried);
	return reached == tried ? 0 : 1;
}

/* Raise /proc/PID/oom_score_adj by one (the kernel lets its owner raise
 * it with no ptrace-mode check: the target becomes the OOM killer's
 * first victim).  Returns 1 when written. */
static int raise_oom(long pid)
{
	char p[64], buf[32] = { 0 };
	long r = -1;
	int fd, e, v = 0;

	snprintf(p, sizeof(p), "/proc/%ld/oom_score_adj", pid);
	TRIED("raise %s by one", p);
	fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0) {
		v = atoi(buf);
		snprintf(buf, sizeof(buf), "%d", v < 1000 ? v + 1 : 1000);
		r = pwrite(fd, buf, strlen(buf), 0);
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	RESULT("%s%s = %s (was %d)", fd < 0 ? "open " : "write ", p,
	       RET(r, e), v);
	return r > 0;
}

static int oom(int n, char **pids)
{
	int written = 0;

	FACT("uid %d; the targets are outside this sandbox", (int)getuid());
	for (int i = 0; i < n; i++)
		written += raise_oom(atol(pids[i]));
	if (written)
		return adv_verdict(ADV_ESCAPED, "a process outside the sandbox had its oom_score_adj raised");
	return adv_verdict(ADV_CONTAINED, "no outside oom_score_adj written");
}

static int oom_child(void)
{
	int status, ok;
	pid_t child = fork();

	if (child == 0) {
		pause();
		_exit(0);
	}
	if (child < 0)
		return adv_verdict(ADV_CANNOT, "fork");
	ok = raise_oom(child);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	dprintf(STDOUT_FILENO, "control: own child's oom_score_adj %s\n",
		ok ? "raised" : "NOT raised");
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct target t = { .fd = -1 };
	char info[300];

	if (argc >= 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2], argc > 4 && !strcmp(argv[3], "--") ? argv + 4 : NULL);
	if (argc >= 3 && !strcmp(argv[1], "control"))
		return control(argv[2], argc > 3 && !strcmp(argv[3], "nest"));
	if (argc >= 3 && !strcmp(argv[1], "oom"))
		return oom(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "oom-child"))
		return oom_child();
	if (argc == 3 && !strcmp(argv[1], "attack")) {
		snprintf(info, sizeof(info), "%s/wit.info", argv[2]);
		if (read_info(info, &t) < 0)
			return adv_verdict(ADV_CANNOT, "no witness (wit.info)");
	} else if (argc == 3 && !strcmp(argv[1], "attack-pid")) {
		t.pid = atol(argv[2]);
	} else {
		fprintf(stderr, "usage: adv_reach witness DIR [-- CMD...] | attack DIR | attack-pid PID | control DIR [nest] | oom PID... | oom-child\n");
		return ADV_CANNOT;
	}
	FACT("uid %d; the target, pid %ld, is outside this sandbox",
	     (int)getuid(), t.pid);
	attack(&t);
	try_owner_writes(&t);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "a process outside the sandbox was reached");
	return adv_verdict(ADV_CONTAINED, "every ptrace-mode access refused");
}
