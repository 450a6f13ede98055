// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program given a terminal of its own through syswardd (`sysward run
 * -t --daemon`, docs/security.md route 11c) reaches for its client's
 * terminal and for its own terminal's master.
 *
 *   adv_pty attack DEV:INO   DEV:INO: st_dev and st_ino of the client's
 *       terminal (stat -L -c %d:%i /dev/stdin where the client runs).
 *       Facts: its 0-2, /dev/tty, its session and foreground.  Escaped
 *       when a descriptor of its holds the client's terminal or any
 *       terminal's master (/dev/ptmx, devpts' ptmx), or /dev/tty is not
 *       the terminal of its 0.
 */
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>

#include "adv.h"

static bool is_master(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 5 && minor(st->st_rdev) == 2;
}

int main(int argc, char **argv)
{
	unsigned long long cdev, cino;
	struct stat st0, st;
	bool escaped = false;
	DIR *d;
	struct dirent *e;
	int tty;

	if (argc != 3 || strcmp(argv[1], "attack") ||
	    sscanf(argv[2], "%llu:%llu", &cdev, &cino) != 2) {
		fprintf(stderr, "usage: adv_pty attack DEV:INO\n");
		return ADV_CANNOT;
	}
	if (fstat(0, &st0) < 0 || !isatty(0)) {
		RESULT("its stdin is no terminal");
		adv_line("verdict", "cannot-test (no terminal of its own)");
		return ADV_CANNOT;
	}
	FACT("tty %s", ttyname(0) ?: "(no name)");
	FACT("foreground %s", tcgetpgrp(0) == getpgrp() ? "yes" : "no");
	FACT("session leader %s", getsid(0) == getpid() ? "yes" : "no");
	TRIED("open /dev/tty");
	tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (tty < 0) {
		RESULT("%s", strerror(errno));
		escaped = true;	/* not contained in its own terminal */
	} else {
		/* /dev/tty's file is /dev/tty's inode: the same terminal
		 * is the one that shows a window size set through 0. */
		struct winsize was, mark = { 77, 33, 0, 0 }, seen = { 0 };
		bool same;

		ioctl(0, TIOCGWINSZ, &was);
		ioctl(0, TIOCSWINSZ, &mark);
		ioctl(tty, TIOCGWINSZ, &seen);
		ioctl(0, TIOCSWINSZ, &was);
		same = seen.ws_row == 77 && seen.ws_col == 33;
		RESULT("%s", same ? "its own terminal" : "ANOTHER terminal");
		escaped |= !same;
		close(tty);
	}
	TRIED("find the client's terminal or a master among its descriptors");
	d = opendir("/proc/self/fd");
	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] == '.' || fd == dirfd(d) || fstat(fd, &st) < 0)
			continue;
		if (st.st_dev == cdev && st.st_ino == cino) {
			RESULT("descriptor %d is the client's terminal", fd);
			escaped = true;
		}
		if (is_master(&st)) {
			RESULT("descriptor %d is a terminal's master", fd);
			escaped = true;
		}
	}
	if (d)
		closedir(d);
	adv_line("verdict", "%s", escaped ? "ESCAPED" : "contained");
	return escaped ? ADV_ESCAPED : ADV_CONTAINED;
}
