// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 12: signals beyond the program.  The kernel lets a process signal
 * every process of its uid; under sysward only the program's own tree may
 * be reached.  Probes use signal 0 (permission and existence checked,
 * nothing delivered), so an escape harms nobody.
 *
 *   adv_signals group          kill(0, SIGUSR1) with a handler: it must
 *                              run (and the supervisor must survive it)
 *   adv_signals all            kill(-1, 0): must be refused
 *   adv_signals targets PID    PID is a process outside the tree, leader
 *                              of its own group.  kill, tkill, tgkill,
 *                              rt_(tg)sigqueueinfo, pidfd_open,
 *                              pidfd_send_signal (/proc dir fd), F_SETOWN,
 *                              F_SETOWN_EX, FIOSETOWN at PID, at -PID,
 *                              at the supervisor, also with the pid's
 *                              high 32 bits set; setpgid into the
 *                              supervisor's group and into PID's; and the same calls
 *                              inside the tree, which must work
 *   adv_signals tiocsti        TIOCSTI on the terminal (stdin)
 *   adv_signals pidfd_race PID pidfd_send_signal(fd, SIGRTMIN+1) on a pidfd
 *                              of our own child while another thread
 *                              keeps swapping a /proc/PID directory fd
 *                              into that fd number; the driver checks
 *                              that PID (killed by SIGRTMIN+1) lives
 *   adv_signals pidns_sibling  two children, each pid 1 of a pid namespace
 *                              of its own; the second gets a pidfd of the
 *                              first and calls pidfd_send_signal(fd, 0):
 *                              the kernel says EINVAL (not in its
 *                              namespace), not a signal to its own pid 1
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <sys/wait.h>

#include "adv.h"

#define HIGH (1L << 32)

static int escaped, broken;

/* An attempt at an outside target: it must fail. */
static void out(const char *what, long r)
{
	int e = errno;

	RESULT("%s = %s", what, RET(r, e));
	if (r >= 0) {
		escaped = 1;
		FACT("^ reached a process outside the tree");
	}
}

/* The same call inside the tree: it must work. */
static void in(const char *what, long r)
{
	int e = errno;

	RESULT("inside: %s = %s", what, RET(r, e));
	if (r < 0) {
		broken = 1;
		FACT("^ refused inside the tree");
	}
}

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static int group(void)
{
	long r;

	signal(SIGUSR1, on_usr1);
	TRIED("kill(0, SIGUSR1) with a SIGUSR1 handler (pgid %d, supervisor's %d)",
	      getpgrp(), getpgid(getppid()));
	r = kill(0, SIGUSR1);
	RESULT("kill = %s, handler ran: %s", RET(r, errno), got ? "yes" : "no");
	/* The supervisor got it too if it shares our group: it dies, and
	 * PTRACE_O_EXITKILL kills us before we can say so. */
	usleep(200 * 1000);
	if (!got)
		return adv_verdict(ADV_CANNOT, "kill(0) did not reach the program itself");
	if (getpgid(getppid()) == getpgrp())
		return adv_verdict(ADV_ESCAPED, "the supervisor shares the program's process group");
	return adv_verdict(ADV_CONTAINED, "kill(0) reached the program's own group only");
}

static int all(void)
{
	TRIED("kill(-1, 0)");
	out("kill(-1, 0)", kill(-1, 0));
	TRIED("kill(-1 | 1<<32, 0)");
	out("kill(-1 | 1<<32, 0)", syscall(SYS_kill, 0xffffffffL | HIGH, 0));
	return escaped ? adv_verdict(ADV_ESCAPED, "kill(-1) was let through")
		       : adv_verdict(ADV_CONTAINED, "kill(-1) refused");
}

static long pidfd_open_(long pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static long sigqueue_(long pid, long tid)
{
	siginfo_t si = { .si_signo = 0, .si_code = SI_QUEUE };

	return tid ? syscall(SYS_rt_tgsigqueueinfo, pid, tid, 0, &si)
		   : syscall(SYS_rt_sigqueueinfo, pid, 0, &si);
}

/* Every route at one outside pid (and its group when group). */
static void probe(const char *who, long pid, bool grp)
{
	char w[128];
	int fd, pfd[2], sk[2];
	struct { int type, pid; } owner;

	for (int high = 0; high < 2; high++) {
		long p = pid | (high ? HIGH : 0);
		const char *h = high ? " | 1<<32" : "";

		TRIED("signal 0 at %s %ld%s", who, pid, h);
		snprintf(w, sizeof(w), "kill(%s%s, 0)", who, h);
		out(w, syscall(SYS_kill, p, 0));
		if (grp) {
			snprintf(w, sizeof(w), "kill(-%s%s, 0)", who, h);
			out(w, syscall(SYS_kill, (-pid & 0xffffffffL) | (high ? HIGH : 0), 0));
		}
		snprintf(w, sizeof(w), "tkill(%s%s, 0)", who, h);
		out(w, syscall(SYS_tkill, p, 0));
		snprintf(w, sizeof(w), "tgkill(%s%s, %s%s, 0)", who, h, who, h);
		out(w, syscall(SYS_tgkill, p, p, 0));
		snprintf(w, sizeof(w), "rt_sigqueueinfo(%s%s, 0)", who, h);
		out(w, sigqueue_(p, 0));
		snprintf(w, sizeof(w), "rt_tgsigqueueinfo(%s%s, %s%s, 0)", who, h, who, h);
		out(w, sigqueue_(p, p));
		snprintf(w, sizeof(w), "pidfd_open(%s%s)", who, h);
		fd = pidfd_open_(p);
		out(w, fd);
		if (fd >= 0)
			close(fd);
		if (pipe2(pfd, O_CLOEXEC) == 0) {
			snprintf(w, sizeof(w), "fcntl(F_SETOWN%s, %s)", h, who);
			out(w, syscall(SYS_fcntl, pfd[0], F_SETOWN | (high ? HIGH : 0), pid));
			if (grp) {
				snprintf(w, sizeof(w), "fcntl(F_SETOWN, -%s%s)", who, h);
				out(w, syscall(SYS_fcntl, pfd[0], F_SETOWN,
					       (-pid & 0xffffffffL) | (high ? HIGH : 0)));
			}
			owner.type = F_OWNER_PID;
			owner.pid = (int)pid;
			snprintf(w, sizeof(w), "fcntl(F_SETOWN_EX%s, {F_OWNER_PID, %s})", h, who);
			out(w, syscall(SYS_fcntl, pfd[0], F_SETOWN_EX | (high ? HIGH : 0), &owner));
			close(pfd[0]);
			close(pfd[1]);
		}
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sk) == 0) {
			int v = (int)pid;

			snprintf(w, sizeof(w), "ioctl(socket, FIOSETOWN%s, &%s)", h, who);
			out(w, syscall(SYS_ioctl, sk[0], FIOSETOWN | (high ? HIGH : 0), &v));
			close(sk[0]);
			close(sk[1]);
		}
	}
	snprintf(w, sizeof(w), "/proc/%ld", pid);
	TRIED("pidfd_send_signal(open(\"%s\", O_DIRECTORY), 0)", w);
	fd = open(w, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		out("pidfd_send_signal(/proc dir fd, 0)",
		    syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0));
		close(fd);
	}
}

static void inside(void)
{
	pid_t child, me = getpid();
	int fd, pfd[2], sk[2];
	struct { int type, pid; } owner = { F_OWNER_PID, me };

	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	TRIED("the same calls inside the tree (self %d, child %d)", me, child);
	in("kill(child, 0)", kill(child, 0));
	in("kill(0, 0)", kill(0, 0));
	in("kill(-own group, 0)", kill(-getpgrp(), 0));
	in("tkill(child, 0)", syscall(SYS_tkill, child, 0));
	in("tgkill(child, child, 0)", syscall(SYS_tgkill, child, child, 0));
	in("rt_sigqueueinfo(child, 0)", sigqueue_(child, 0));
	in("rt_tgsigqueueinfo(child, child, 0)", sigqueue_(child, child));
	in("setpgid(child, child)", setpgid(child, child));
	in("kill(-child's new group, 0)", kill(-child, 0));
	in("setpgid(child, own group)", setpgid(child, getpgrp()));
	fd = pidfd_open_(child);
	in("pidfd_open(child)", fd);
	if (fd >= 0) {
		in("pidfd_send_signal(child's pidfd, 0)",
		   syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0));
		in("pidfd_send_signal(child's pidfd, 0, PIDFD_SIGNAL_PROCESS_GROUP)",
		   syscall(SYS_pidfd_send_signal, fd, 0, NULL, 4));
		close(fd);
	}
	if (pipe2(pfd, O_CLOEXEC) == 0) {
		in("fcntl(F_SETOWN, self)", fcntl(pfd[0], F_SETOWN, me));
		in("fcntl(F_SETOWN, -own group)", fcntl(pfd[0], F_SETOWN, -getpgrp()));
		in("fcntl(F_SETOWN_EX, {F_OWNER_PID, self})", fcntl(pfd[0], F_SETOWN_EX, &owner));
		RESULT("inside: F_GETOWN = %d", fcntl(pfd[0], F_GETOWN));
		if (fcntl(pfd[0], F_GETOWN) != me)
			broken = 1;
		close(pfd[0]);
		close(pfd[1]);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sk) == 0) {
		int v = me;

		in("ioctl(socket, FIOSETOWN, &self)", ioctl(sk[0], FIOSETOWN, &v));
		RESULT("inside: F_GETOWN = %d", fcntl(sk[0], F_GETOWN));
		close(sk[0]);
		close(sk[1]);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

static int targets(long witness)
{
	pid_t sup = getppid(), sup_pgid = getpgid(sup);
	long r;

	FACT("self %d (pgid %d, sid %d); supervisor %d (pgid %d); outside %ld",
	     getpid(), getpgrp(), getsid(0), sup, sup_pgid, witness);
	probe("outside", witness, true);
	probe("supervisor", sup, false);
	TRIED("setpgid(0, supervisor's group %d), then kill(0, 0)", sup_pgid);
	r = setpgid(0, sup_pgid);
	out("setpgid", r);
	if (r == 0)
		out("kill(0, 0) from the supervisor's group", kill(0, 0));
	/* Under syswardd every session's program is in the daemon's kernel
	 * session, where the kernel lets any process join any group. */
	TRIED("setpgid(0, outside's group %ld), then kill(0, 0)", witness);
	r = setpgid(0, (pid_t)witness);
	out("setpgid into the outside group", r);
	if (r == 0)
		out("kill(0, 0) from the outside group", kill(0, 0));
	inside();
	if (escaped)
		return adv_verdict(ADV_ESCAPED, "a signal could reach a process outside the tree");
	if (broken)
		return adv_verdict(ADV_CANNOT, "a signal inside the tree was refused");
	return adv_verdict(ADV_CONTAINED, "signals reach the program's tree only");
}

static int tiocsti(void)
{
	const char *s = "#sysward-tiocsti\n";
	long r = 0;

	if (!isatty(0))
		return adv_verdict(ADV_CANNOT, "stdin is not a terminal");
	TRIED("ioctl(0, TIOCSTI) of \"%.16s\\n\"", s);
	for (const char *c = s; *c && r == 0; c++)
		r = ioctl(0, TIOCSTI, c);
	out("ioctl(TIOCSTI)", r);
	return escaped ? adv_verdict(ADV_ESCAPED, "typed into the user's terminal")
		       : adv_verdict(ADV_CONTAINED, "TIOCSTI refused");
}

static int race_fd, race_inside, race_outside;
static volatile int race_stop;

static void *swapper(void *arg)
{
	(void)arg;
	while (!race_stop) {
		dup2(race_outside, race_fd);
		dup2(race_inside, race_fd);
	}
	return NULL;
}

static int pidfd_race(long witness)
{
	char path[64];
	pthread_t th;
	pid_t child;
	long ok = 0, ebadf = 0, other = 0;

	signal(SIGRTMIN + 1, SIG_IGN);	/* inherited: the child ignores it */
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%ld", witness);
	race_inside = pidfd_open_(child);
	race_outside = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (race_outside < 0 && errno == ENOENT) {
		/* The session's own /proc (route 16) hides the witness:
		 * nothing outside to swap in. */
		RESULT("open %s: %s", path, strerror(errno));
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return adv_verdict(ADV_CONTAINED, "the witness is not in this session's /proc");
	}
	race_fd = dup(race_inside);
	if (race_inside < 0 || race_outside < 0 || race_fd < 0) {
		kill(child, SIGKILL);
		return adv_verdict(ADV_CANNOT, "no pidfd or /proc fd");
	}
	TRIED("20000 x pidfd_send_signal(fd %d, SIGRTMIN+1) while a thread swaps %s into fd %d",
	      race_fd, path, race_fd);
	pthread_create(&th, NULL, swapper, NULL);
	for (int i = 0; i < 20000; i++) {
		long r = syscall(SYS_pidfd_send_signal, race_fd, SIGRTMIN + 1, NULL, 0);

		if (r == 0)
			ok++;
		else if (errno == EBADF)
			ebadf++;
		else
			other++;
	}
	race_stop = 1;
	pthread_join(th, NULL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	RESULT("sent %ld (to the child, or beyond), EBADF %ld, other errors %ld", ok, ebadf, other);
	/* Whether the witness got one only the driver can tell. */
	return adv_verdict(ADV_CONTAINED, "the driver checks that the witness lives");
}

/* Wait for a byte on fd (or its end). */
static void await(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static int pidns_sibling(void)
{
	int go[2], done[2], pidfd;
	pid_t b, c;
	int st;

	if (pipe(go) < 0 || pipe(done) < 0)
		return adv_verdict(ADV_CANNOT, "pipe");
	TRIED("pidfd_send_signal(pidfd, 0) on pid 1 of a sibling pid namespace, from pid 1 of another");
	b = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
	if (b == 0) {
		close(go[1]);
		await(go[0]);	/* until the test ends */
		_exit(0);
	}
	if (b < 0) {
		RESULT("clone(CLONE_NEWUSER | CLONE_NEWPID): %s", strerror(errno));
		return adv_verdict(ADV_CANNOT, "no pid namespaces here");
	}
	pidfd = (int)syscall(SYS_pidfd_open, b, 0);
	if (pidfd < 0) {
		kill(b, SIGKILL);
		return adv_verdict(ADV_CANNOT, "pidfd_open of our own child failed");
	}
	c = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
	if (c == 0) {
		long r = syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0);
		int e = errno;

		RESULT("pid %d of its namespace: pidfd_send_signal(sibling's pid 1, 0) = %s",
		       (int)getpid(), RET(r, e));
		_exit(r == -1 && e == EINVAL ? 0 : 1);
	}
	if (c < 0) {
		kill(b, SIGKILL);
		return adv_verdict(ADV_CANNOT, "second clone(CLONE_NEWUSER | CLONE_NEWPID) failed");
	}
	waitpid(c, &st, 0);
	close(go[1]);
	waitpid(b, NULL, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return adv_verdict(ADV_ESCAPED, "the pidfd was turned into a signal to the caller's own namespace (unconfined: EINVAL)");
	return adv_verdict(ADV_CONTAINED, "EINVAL, as unconfined");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "group") == 0)
		return group();
	if (strcmp(mode, "all") == 0)
		return all();
	if (strcmp(mode, "targets") == 0 && argc > 2)
		return targets(atol(argv[2]));
	if (strcmp(mode, "tiocsti") == 0)
		return tiocsti();
	if (strcmp(mode, "pidfd_race") == 0 && argc > 2)
		return pidfd_race(atol(argv[2]));
	if (strcmp(mode, "pidns_sibling") == 0)
		return pidns_sibling();
	fprintf(stderr, "usage: %s group|all|targets PID|tiocsti|pidfd_race PID|pidns_sibling\n", argv[0]);
	return ADV_CANNOT;
}
