// SPDX-License-Identifier: LGPL-2.1-or-later
/* Routes: (a) SIGSTOP/SIGCONT storms at a process during its path-guard
 * injection (after execve, before its first own syscall runs); (b) the image
 * comes from execveat(memfd, "", AT_EMPTY_PATH).  Each victim must see the
 * emulated uid 4242 and EACCES for file-D; the supervisor must survive.  */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dir = getenv("RT_DIR") ? getenv("RT_DIR") : "/tmp/rt";
	char d[512];
	snprintf(d, sizeof d, "%s/file-D", dir);
	if (argc > 1 && !strcmp(argv[1], "victim")) {
		int fd = openat(AT_FDCWD, d, O_RDONLY);
		uid_t u = getuid();
		if ((fd >= 0 && getenv("RT_PATHRULE")) || u != 4242) {
			printf("victim: uid %u, file-D %s\n", u, fd >= 0 ? "OPENED" : "denied");
			return 42;
		}
		return 0;
	}
	printf("tried: SIGSTOP/SIGCONT storm during the guard injection, images exec'd from a memfd\n");
	/* copy ourselves into a memfd */
	int self = open("/proc/self/exe", O_RDONLY);
	int mfd = memfd_create("rt", MFD_CLOEXEC);
	char buf[65536];
	ssize_t n;
	while ((n = read(self, buf, sizeof buf)) > 0)
		(void)!write(mfd, buf, n);
	int esc = 0, killed = 0, ok = 0;
	for (int round = 0; round < 300; round++) {
		pid_t c = fork();
		if (c == 0) {
			char *av[] = { argv[0], "victim", NULL };
			if (round & 1)
				syscall(SYS_execveat, mfd, "", av, environ, AT_EMPTY_PATH);
			else
				execv("/proc/self/exe", av);
			_exit(127);
		}
		for (int k = 0; k < 50 + (round % 50) * 20; k++) {
			kill(c, SIGSTOP);
			kill(c, SIGCONT);
		}
		kill(c, SIGCONT);
		int st;
		waitpid(c, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 42) esc++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) ok++;
		else killed++;
	}
	printf("result: %d contained, %d ESCAPED, %d other (killed/127)\n", ok, esc, killed);
	printf("verdict: %s\n", esc ? "ESCAPED" : "contained");
	return esc ? 1 : 0;
}
