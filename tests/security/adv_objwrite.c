// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 20 (docs/security.md): kernel objects of the uid written through
 * an open, where no ptrace-mode check stands in the way.
 *
 *   adv_objwrite attack PID [CGROUP]  write what a same-uid process may
 *       write of another: PID's /proc files by their owner (oom_score_adj
 *       raised, coredump_filter, clear_refs, sched, autogroup), a sysctl,
 *       and, given CGROUP (a cgroup v2 directory the uid owns, as systemd
 *       delegates user@UID.service), cgroup.freeze, cgroup.kill,
 *       cgroup.procs, pids.max, memory.max.  Also by other names: a bind
 *       mount of /proc/PID in a mount namespace of the program's own, a
 *       reopen of a read-only descriptor through /proc/self/fd.
 *   adv_objwrite race PID SECONDS  one thread opens PID's oom_score_adj
 *       for writing over and over, others write "1000" into every
 *       descriptor number it may get, before the supervisor can close it.
 *   adv_objwrite race-vfork PID SECONDS  the same, the writer a child of
 *       clone(CLONE_VM | CLONE_VFORK | CLONE_FILES): another process
 *       sharing the table, its parent waiting for it in the kernel.
 *   adv_objwrite holder-killed PID ATTEMPTS  the refused open's caller
 *       killed while the supervisor checks it: process B makes A with
 *       clone(CLONE_FILES | CLONE_PARENT), so that A shares B's table and
 *       its parent is Q, which shares neither; A (PR_SET_PDEATHSIG
 *       SIGKILL) opens PID's oom_score_adj for writing, Q watches A's
 *       table (/proc/A/fd) and exits as soon as the descriptor is there:
 *       A dies before the supervisor closes it, and B, held meanwhile,
 *       looks for it in the table it shares and writes "1000" through it.
 *       Up to ATTEMPTS times.
 *   adv_objwrite control  what the program may write of its own: its
 *       oom_score_adj, a child's, a thread's comm, the uid_map of a user
 *       namespace it made, /proc/self files of a procfs it mounted in pid
 *       and user namespaces of its own, and a FIFO opened for writing by
 *       one thread while another opens it for reading later.
 *
 * Exit: 0 contained (attack, race) or all worked (control), 1 escaped or
 * failed, 2 cannot test.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adv.h"

static int written;

/* Open path for writing (flags), write value: a RESULT line; counts a
 * write that reached the file. */
static void try_write(const char *path, int flags, const char *value,
		      const char *what)
{
	long r = -1;
	int fd, e;

	TRIED("%s: open(%s, %s) and write \"%s\"", what, path,
	      (flags & O_ACCMODE) == O_RDWR ? "O_RDWR" : "O_WRONLY", value);
	fd = open(path, flags | O_CLOEXEC);
	e = errno;
	if (fd >= 0) {
		r = write(fd, value, strlen(value));
		e = errno;
		close(fd);
	}
	RESULT("%s%s = %s", fd < 0 ? "open " : "write ", path, RET(r, e));
	written += r > 0;
}

/* The same file opened under another name: /proc/PID bound elsewhere in
 * a mount namespace of the program's own (a user namespace gives it the
 * right to mount). */
static void try_bind(long pid, const char *dir)
{
	char src[64], dst[4200], file[4300];
	pid_t c = fork();
	int status;

	if (c == 0) {
		snprintf(src, sizeof(src), "/proc/%ld", pid);
		snprintf(dst, sizeof(dst), "%s/bind", dir);
		mkdir(dst, 0700);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount(src, dst, NULL, MS_BIND, NULL) < 0) {
			FACT("bind mount of %s: %s (not tried)", src, strerror(errno));
			_exit(0);
		}
		snprintf(file, sizeof(file), "%s/oom_score_adj", dst);
		try_write(file, O_WRONLY, "999", "a bind mount of /proc/PID, in a user and mount namespace of its own");
		_exit(written ? 1 : 0);
	}
	if (c > 0 && waitpid(c, &status, 0) == c && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 1)
		written++;
}

static int attack(long pid, const char *cg, const char *dir)
{
	static const struct { const char *file, *value; } w[] = {
		{ "oom_score_adj", "1000" },
		{ "oom_adj", "15" },
		{ "coredump_filter", "0x33" },
		{ "clear_refs", "1" },
		{ "sched", "0" },
		{ "autogroup", "10" },
	};
	char path[4200];
	int fd;

	FACT("uid %d; the target, pid %ld, is outside this sandbox", (int)getuid(), pid);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		snprintf(path, sizeof(path), "/proc/%ld/%s", pid, w[i].file);
		try_write(path, O_WRONLY, w[i].value, "another process's /proc file");
	}
	/* Read-only, then reopened for writing by its descriptor. */
	snprintf(path, sizeof(path), "/proc/%ld/oom_score_adj", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char re[64];

		snprintf(re, sizeof(re), "/proc/self/fd/%d", fd);
		try_write(re, O_RDWR, "998", "a read-only descriptor reopened for writing");
		close(fd);
	}
	/* A sysctl every uid may read: writable by uid 0 with no
	 * capability at all (proc_sys_permission checks the mode bits). */
	{
		char v[64] = "0\n";
		int s = open("/proc/sys/kernel/printk_delay", O_RDONLY | O_CLOEXEC);

		if (s >= 0) {
			ssize_t n = read(s, v, sizeof(v) - 1);

			v[n > 0 ? n : 0] = '\0';
			close(s);
		}
		try_write("/proc/sys/kernel/printk_delay", O_WRONLY, v, "a sysctl (its own value back)");
	}
	if (dir)
		try_bind(pid, dir);
	if (cg) {
		static const struct { const char *file, *value; } c[] = {
			{ "cgroup.freeze", "1" },
			{ "cgroup.kill", "1" },
			{ "cgroup.procs", "0" },
			{ "pids.max", "1" },
			{ "memory.max", "1" },
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", cg, c[i].file);
			if (access(path, F_OK) == 0)
				try_write(path, O_WRONLY, c[i].value, "a cgroup the uid owns, outside the session");
		}
	}
	FACT("%d writes reached an object outside the sandbox", written);
	if (written)
		return adv_verdict(ADV_ESCAPED, "an object outside the sandbox was written");
	return adv_verdict(ADV_CONTAINED, "every write refused");
}

/* ---- race ---------------------------------------------------------------- */

static atomic_int stop, hits;
static char target[64];

static void *spray(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		for (int fd = 3; fd < 16; fd++) {
			char p[64], l[128];
			ssize_t n;

			if (write(fd, "1000", 4) != 4)
				continue;
			snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
			n = readlink(p, l, sizeof(l) - 1);
			l[n > 0 ? n : 0] = '\0';
			if (!strcmp(l, target))
				atomic_fetch_add(&hits, 1);
		}
	}
	return NULL;
}

/* Opens the target for writing over and over for seconds, then stops
 * the sprayers. */
static void open_loop(int seconds, long *opens, long *opened)
{
	time_t end = time(NULL) + seconds;

	while (time(NULL) < end) {
		int fd = open(target, O_WRONLY | O_CLOEXEC);

		(*opens)++;
		if (fd >= 0) {
			(*opened)++;
			close(fd);
		}
	}
	atomic_store(&stop, 1);
}

static int race_verdict(long opens, long opened)
{
	RESULT("%ld opens, %ld opened, %d writes through another task reached %s",
	       opens, opened, atomic_load(&hits), target);
	if (opened || atomic_load(&hits))
		return adv_verdict(ADV_ESCAPED, "the target's oom_score_adj was written");
	return adv_verdict(ADV_CONTAINED, "no write reached the target");
}

static int race(long pid, int seconds)
{
	pthread_t th[3];
	long opens = 0, opened = 0;

	snprintf(target, sizeof(target), "/proc/%ld/oom_score_adj", pid);
	FACT("uid %d; the target, pid %ld, is outside this sandbox", (int)getuid(), pid);
	TRIED("for %d s: open(%s, O_WRONLY) in a loop, 3 threads writing \"1000\" into descriptors 3-15",
	      seconds, target);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, spray, NULL);
	open_loop(seconds, &opens, &opened);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	return race_verdict(opens, opened);
}

/* race-vfork: the sprayer is no thread but a process sharing the
 * table, made by a vfork (its parent waits in the kernel meanwhile). */
static int seconds_of_race;
static long race_opens, race_opened;

static void *opener(void *arg)
{
	(void)arg;
	open_loop(seconds_of_race, &race_opens, &race_opened);
	return NULL;
}

static int spray_child(void *arg)
{
	spray(arg);
	_exit(0);
}

static int race_vfork(long pid, int seconds)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	pthread_t th;
	pid_t c;

	snprintf(target, sizeof(target), "/proc/%ld/oom_score_adj", pid);
	seconds_of_race = seconds;
	FACT("uid %d; the target, pid %ld, is outside this sandbox", (int)getuid(), pid);
	TRIED("for %d s: a thread opens %s for writing in a loop; a child of "
	      "clone(CLONE_VM | CLONE_VFORK | CLONE_FILES), sharing the table, writes "
	      "\"1000\" into descriptors 3-15 while its parent waits for it", seconds, target);
	pthread_create(&th, NULL, opener, NULL);
	c = clone(spray_child, stack + sizeof(stack),
		  CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, NULL);
	if (c < 0) {
		atomic_store(&stop, 1);
		pthread_join(th, NULL);
		return adv_verdict(ADV_CANNOT, "clone(CLONE_VFORK | CLONE_FILES) failed");
	}
	waitpid(c, NULL, 0);
	pthread_join(th, NULL);
	return race_verdict(race_opens, race_opened);
}

/* ---- control --------------------------------------------------------------- */

static void *thread_comm(void *arg)
{
	char path[64];

	(void)arg;
	snprintf(path, sizeof(path), "/proc/self/task/%ld/comm", (long)syscall(SYS_gettid));
	ADV_OK("a thread's own comm", adv_write_file(path, "adv-thread"));
	return NULL;
}

static const char *fifo;

static void *fifo_reader(void *arg)
{
	char c;
	int fd;

	(void)arg;
	usleep(300000);		/* the writer opens first, and waits */
	fd = open(fifo, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!read(fd, &c, 1);
		close(fd);
	}
	return NULL;
}

/* In a child: user, pid and mount namespaces of its own, a procfs of
 * that pid namespace, and pid 1's oom_score_adj there (itself). */
static int own_procfs(void)
{
	pid_t c = fork();
	int status;

	if (c == 0) {
		pid_t g;
		char map[64];

		if (unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) < 0)
			_exit(3);
		snprintf(map, sizeof(map), "0 %d 1", (int)getuid());
		if (adv_write_file("/proc/self/setgroups", "deny") < 0 ||
		    adv_write_file("/proc/self/uid_map", map) < 0)
			_exit(4);
		g = fork();
		if (g == 0) {
			if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
			    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
				_exit(5);
			_exit(adv_write_file("/proc/1/oom_score_adj", "10") > 0 &&
			      adv_write_file("/proc/self/oom_score_adj", "11") > 0 ? 0 : 6);
		}
		if (g < 0 || waitpid(g, &status, 0) != g)
			_exit(7);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 8);
	}
	if (c < 0 || waitpid(c, &status, 0) != c || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int control(const char *dir)
{
	char path[4200];
	pthread_t th;
	pid_t c;
	int status, fd, r;

	ADV_OK("its own oom_score_adj", adv_write_file("/proc/self/oom_score_adj", "100"));
	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)c);
	ADV_OK("a child's oom_score_adj", adv_write_file(path, "200"));
	kill(c, SIGKILL);
	waitpid(c, &status, 0);
	pthread_create(&th, NULL, thread_comm, NULL);
	pthread_join(th, NULL);
	/* unshare -Ur: its own uid_map */
	c = fork();
	if (c == 0) {
		char map[64];

		snprintf(map, sizeof(map), "0 %d 1", (int)getuid());
		_exit(unshare(CLONE_NEWUSER) == 0 &&
		      adv_write_file("/proc/self/setgroups", "deny") > 0 &&
		      adv_write_file("/proc/self/uid_map", map) > 0 ? 0 : 1);
	}
	waitpid(c, &status, 0);
	adv_control("the uid_map of a user namespace of its own",
		    WIFEXITED(status) && !WEXITSTATUS(status), -1, EPERM);
	r = own_procfs();
	if (r == 3 || r == 5)
		FACT("a procfs of its own: cannot mount one here (%d)", r);
	else
		adv_control("/proc/self of a procfs in pid and user namespaces of its own",
			    r == 0, -1, r < 0 ? ECHILD : EACCES);
	/* A FIFO: the writer waits for a reader thread of the same process. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unlink(path);
	if (mkfifo(path, 0600) == 0) {
		fifo = path;
		pthread_create(&th, NULL, fifo_reader, NULL);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		adv_control("a FIFO opened for writing before another thread reads it",
			    fd >= 0, fd, errno);
		if (fd >= 0) {
			(void)!write(fd, "x", 1);
			close(fd);
		}
		pthread_join(th, NULL);
		unlink(path);
	}
	/* And a plain file, written and truncated. */
	snprintf(path, sizeof(path), "%s/plain", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	adv_control("a file of its own, made and truncated", fd >= 0, fd, errno);
	if (fd >= 0)
		close(fd);
	return adv_control_end();
}

/* holder-killed: what the processes share (MAP_SHARED). */
struct hk {
	volatile pid_t a;	/* A, once it runs */
	volatile int go;	/* Q watches: A may open */
	volatile int hit;	/* B wrote through the descriptor */
	char target[64];
	char link[256];
};

static struct hk *hk;

static int hk_a(void *arg)
{
	(void)arg;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	hk->a = getpid();
	while (!hk->go)
		;
	_exit(open(hk->target, O_WRONLY) < 0 ? 0 : 1);
}

/* B: A made sharing our table, its parent ours (Q); then, once A is
 * gone and the hold with it, the descriptor looked for in our table. */
static void hk_b(void)
{
	static char stack[65536] __attribute__((aligned(16)));
	char path[64], link[256];
	int n = dup(0);
	ssize_t l;

	if (n < 0 || close(n) < 0)
		_exit(2);
	if (clone(hk_a, stack + sizeof(stack), CLONE_FILES | CLONE_PARENT | SIGCHLD, NULL) < 0)
		_exit(2);
	usleep(100000);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", n);
	l = readlink(path, link, sizeof(link) - 1);
	if (l > 0 && (link[l] = '\0', !strcmp(link, hk->target))) {
		snprintf(hk->link, sizeof(hk->link), "descriptor %d -> %.200s", n, link);
		hk->hit = write(n, "1000", 4) > 0 ? 1 : -1;
	}
	_exit(0);
}

/* Q: A's parent; exits the moment A's table holds the descriptor. */
static void hk_q(void)
{
	char path[64], link[256];

	if (fork() == 0)
		hk_b();
	while (!hk->a)
		;
	hk->go = 1;
	/* until A has gone its own way (its open refused and closed) */
	while (waitpid(hk->a, NULL, WNOHANG) == 0)
		for (int fd = 3; fd < 8; fd++) {
			ssize_t l;

			snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)hk->a, fd);
			l = readlink(path, link, sizeof(link) - 1);
			if (l > 0 && (link[l] = '\0', !strcmp(link, hk->target)))
				_exit(0);
		}
	_exit(1);
}

static int holder_killed(long pid, int attempts)
{
	int i;

	hk = mmap(NULL, sizeof(*hk), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hk == MAP_FAILED || prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return adv_verdict(ADV_CANNOT, "mmap or PR_SET_CHILD_SUBREAPER");
	snprintf(hk->target, sizeof(hk->target), "/proc/%ld/oom_score_adj", pid);
	TRIED("open(%s, O_WRONLY) by A, killed (its parent's PR_SET_PDEATHSIG) while the supervisor checks it; B, sharing A's table (CLONE_FILES), then writes through the descriptor; up to %d times",
	      hk->target, attempts);
	for (i = 0; i < attempts && !hk->hit; i++) {
		hk->a = 0;
		hk->go = 0;
		if (fork() == 0)
			hk_q();
		while (waitpid(-1, NULL, 0) > 0)
			;
	}
	if (hk->hit) {
		RESULT("attempt %d: B's %s, write %s", i, hk->link, hk->hit > 0 ? "made" : "refused");
		if (hk->hit > 0)
			return adv_verdict(ADV_ESCAPED, "an outsider's oom_score_adj written through a descriptor whose check died with its caller");
	}
	RESULT("%d attempts: no descriptor left to B", i);
	return adv_verdict(ADV_CONTAINED, "no descriptor outlived its check");
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "attack"))
		return attack(atol(argv[2]), argc > 3 && *argv[3] ? argv[3] : NULL,
			      argc > 4 ? argv[4] : NULL);
	if (argc == 4 && !strcmp(argv[1], "race"))
		return race(atol(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "race-vfork"))
		return race_vfork(atol(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "control"))
		return control(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "holder-killed"))
		return holder_killed(atol(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: adv_objwrite attack PID [CGROUP [DIR]] | race PID SECONDS | race-vfork PID SECONDS | holder-killed PID ATTEMPTS | control DIR\n");
	return ADV_CANNOT;
}
