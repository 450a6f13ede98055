// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Attacks on the path guard while it is being set up in a fresh image
 * (engine/trace/pathguard.c: the supervisor injects its calls at the image's
 * first system call).  Run under a policy that denies DIR/file-D by path.
 *
 * Each stops after ROUNDS children or SECONDS (default 60), whichever
 * comes first.
 *
 *   adv_guard_setup stop DIR ROUNDS [SECONDS]
 *	A parent floods each freshly exec'd child with SIGSTOP/SIGCONT
 *	while its guard is set up, then sends one last SIGCONT.  As
 *	unconfined, the child must end up running (the last signal was a
 *	continue), finish and be denied file-D.  Half the children are
 *	exec'd from a memfd (execveat AT_EMPTY_PATH).  Before the fix the
 *	supervisor held the signals back and sent them again after the
 *	setup: a SIGSTOP resent after the last SIGCONT stopped the child for
 *	good, and the session never ended.
 *
 *   adv_guard_setup memfd DIR ROUNDS [SECONDS]
 *	A parent races each freshly exec'd child's guard setup: it opens
 *	every fd of the child through /proc/<pid>/fd/N read-write and tries
 *	to map it shared and writable, hoping for the guard's memfd before
 *	it is sealed.  With such a mapping it would write DIR/file-D over
 *	the pinned copy of DIR/file-A that the child opens over and over,
 *	after the supervisor's check.  The guard's memfd must never be
 *	reachable unsealed: it is sealed before it enters the child.
 *
 *   adv_guard_setup victim DIR MODE (internal: the exec'd child)
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "adv.h"

#define GUARD_SIZE (4u << 20)		/* SW_GUARD_SIZE */
#define GUARD_SLOT 4096u
#define WATCHDOG_S 20

static const char *dir;
static volatile sig_atomic_t alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

/* ---- the exec'd child ------------------------------------------------- */

static int victim(const char *mode)
{
	char a[512], d[512];
	struct stat sd, st;
	int fd, opened_d = 0;

	snprintf(a, sizeof(a), "%s/file-A", dir);
	snprintf(d, sizeof(d), "%s/file-D", dir);
	if (stat(d, &sd) < 0)
		return 3;
	fd = open(d, O_RDONLY);
	if (fd >= 0)
		return 42;	/* the path rule did not hold at all */
	if (strcmp(mode, "memfd"))
		return 0;
	/* Give the parent's writable mapping, if it got one, time to
	 * overwrite the pinned file-A with file-D. */
	for (int i = 0; i < 500; i++) {
		fd = open(a, O_RDONLY);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_ino == sd.st_ino)
			opened_d++;
		close(fd);
	}
	return opened_d ? 42 : 0;
}

/* ---- the parent ---------------------------------------------------------- */

static int self_memfd(void)
{
	char buf[65536];
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int mfd = (int)syscall(SYS_memfd_create, "adv", MFD_CLOEXEC);
	ssize_t n;

	if (in < 0 || mfd < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(mfd, buf, (size_t)n) != n)
			return -1;
	close(in);
	return n < 0 ? -1 : mfd;
}

static pid_t spawn(int mfd, int round, const char *mode)
{
	char *av[] = { "adv_guard_setup", "victim", (char *)dir, (char *)mode, NULL };
	pid_t c = fork();

	if (c == 0) {
		if (round & 1)
			syscall(SYS_execveat, mfd, "", av, environ, AT_EMPTY_PATH);
		else
			execv("/proc/self/exe", av);
		_exit(127);
	}
	return c;
}

/* A writable shared mapping of a memfd of the child's (but the copy of
 * this program it may still hold between fork and exec), or MAP_FAILED;
 * the memfd, open, in *ret_fd.  Mapping it succeeds at any size (the
 * guard's may not be sized yet): writing waits until it is. */
static char *grab(pid_t c, bool *sealed, int *ret_fd)
{
	for (int n = 3; n < 16; n++) {
		char path[64], target[256];
		ssize_t len;
		char *w;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", c, n);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strncmp(target, "/memfd:", 7) || !strncmp(target, "/memfd:adv ", 11))
			continue;
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		w = mmap(NULL, GUARD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (w == MAP_FAILED) {
			if (errno == EPERM)
				*sealed = true;	/* the guard, sealed: as it must be */
			close(fd);
			continue;
		}
		*ret_fd = fd;
		return w;
	}
	return MAP_FAILED;
}

/* Write file-D's name over the first slots until the child is gone;
 * its status in *st. */
static void scribble(char *w, int fd, pid_t c, int *st)
{
	char d[512];
	struct stat sb;

	snprintf(d, sizeof(d), "%s/file-D", dir);
	while (waitpid(c, st, WNOHANG) == 0) {
		if (fstat(fd, &sb) < 0 || sb.st_size < (off_t)GUARD_SIZE)
			continue;
		for (unsigned int s = 0; s < 64; s++)
			memcpy(w + s * GUARD_SLOT, d, strlen(d) + 1);
	}
}

static int attack(const char *mode, int rounds, int max_s)
{
	time_t end = time(NULL) + max_s;
	bool memfd_mode = !strcmp(mode, "memfd");
	int mfd = self_memfd(), stuck = 0, escaped = 0, bad = 0, grabbed = 0;
	int saw_sealed = 0;
	struct sigaction sa = { .sa_handler = on_alarm };

	if (mfd < 0) {
		RESULT("cannot copy the program into a memfd: %s", strerror(errno));
		return adv_verdict(ADV_CANNOT, "no memfd");
	}
	sigaction(SIGALRM, &sa, NULL);
	if (memfd_mode)
		TRIED("%d children: map the guard's memfd writable through /proc/<pid>/fd before it is sealed, then rewrite pinned paths", rounds);
	else
		TRIED("%d children: SIGSTOP/SIGCONT storm during the path guard's setup, then one SIGCONT", rounds);
	for (int round = 0; round < rounds; round++) {
		pid_t c;

		if (time(NULL) > end) {
			RESULT("stopped after %d rounds (%d s)", round, max_s);
			rounds = round;
			break;
		}
		c = spawn(mfd, round, mode);
		bool sealed = false, reaped = false;
		int st = 0;

		if (c < 0)
			return adv_verdict(ADV_CANNOT, "fork failed");
		if (memfd_mode) {
			char *w = MAP_FAILED;
			int wfd = -1;

			for (int spin = 0; spin < 2000 && w == MAP_FAILED && !sealed; spin++)
				w = grab(c, &sealed, &wfd);
			saw_sealed += sealed;
			if (w != MAP_FAILED) {
				grabbed++;
				scribble(w, wfd, c, &st);
				munmap(w, GUARD_SIZE);
				close(wfd);
				reaped = true;
			}
		} else {
			for (int k = 0; k < 50 + (round % 50) * 20; k++) {
				kill(c, SIGSTOP);
				kill(c, SIGCONT);
			}
			kill(c, SIGCONT);
		}
		alarmed = 0;
		alarm(WATCHDOG_S);
		while (!reaped && waitpid(c, &st, 0) < 0 && !alarmed)
			;
		alarm(0);
		if (alarmed) {
			stuck++;
			RESULT("round %d: child %d still not finished %d s after its last SIGCONT", round, c, WATCHDOG_S);
			kill(c, SIGKILL);
			waitpid(c, &st, 0);
			break;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 42)
			escaped++;
		else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			bad++;
			RESULT("round %d: child status 0x%x", round, st);
		}
	}
	RESULT("%d rounds: %d opened file-D, %d stuck, %d other statuses; %d writable mappings of a child's fd, %d refused as sealed",
	       rounds, escaped, stuck, bad, grabbed, saw_sealed);
	if (escaped)
		return adv_verdict(ADV_ESCAPED, "a child opened file-D");
	if (stuck)
		return adv_verdict(ADV_ESCAPED, "a child stayed stopped after its last SIGCONT");
	if (bad)
		return adv_verdict(ADV_ESCAPED, "a child did not finish as unconfined");
	if (grabbed)
		return adv_verdict(ADV_ESCAPED, "a child's fd was mapped writable (the guard before its seal?)");
	return adv_verdict(ADV_CONTAINED, NULL);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: adv_guard_setup stop|memfd DIR ROUNDS [SECONDS]\n");
		return ADV_CANNOT;
	}
	dir = argv[2];
	if (!strcmp(argv[1], "victim"))
		return victim(argv[3]);
	return attack(argv[1], atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 60);
}
