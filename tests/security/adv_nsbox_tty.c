// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The user's other terminals (docs/security.md, route 16c).  A
 * pseudo-terminal's slave, /dev/pts/N, belongs to the uid that opened
 * its master, mode 0620 or 0600 (devpts' mode= option): any process of
 * that uid opens it read-write by its mode bits, reads what is typed
 * there (before the shell does) and writes to the screen as if the
 * terminal's program had.
 *
 *   adv_nsbox_tty witness DIR   outside sysward: a pseudo-terminal whose
 *       slave it names in DIR/wit.info; "typed-secret" typed into it;
 *       whatever reaches its screen containing "SPOOF" makes DIR/wit.seen;
 *       at most 120 s
 *   adv_nsbox_tty attack DIR    under sysward: open that slave, read what was
 *       typed, write "SPOOF"; contained when it cannot be opened
 *   adv_nsbox_tty own           under sysward (control): a pseudo-terminal of
 *       its own (posix_openpt), its name (ptsname, ttyname) and a line
 *       through it
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>

#include "adv.h"

static int witness(const char *dir)
{
	char path[4096], tmp[4096], buf[512];
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	const char *name;
	FILE *f;

	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 || !(name = ptsname(m)))
		return perror("posix_openpt"), 2;
	if (write(m, "typed-secret\n", 13) != 13)
		return perror("write"), 2;
	snprintf(tmp, sizeof(tmp), "%s/wit.info.tmp", dir);
	snprintf(path, sizeof(path), "%s/wit.info", dir);
	f = fopen(tmp, "we");
	if (!f)
		return perror(tmp), 2;
	fprintf(f, "%s\n", name);
	fclose(f);
	rename(tmp, path);
	for (int i = 0; i < 1200; i++) {
		struct pollfd p = { m, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(m, buf, sizeof(buf) - 1);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (strstr(buf, "SPOOF")) {
			snprintf(path, sizeof(path), "%s/wit.seen", dir);
			f = fopen(path, "we");
			if (f)
				fclose(f);
		}
	}
	return 0;
}

static int attack(const char *dir)
{
	char path[4096], name[256] = "", buf[256];
	struct dirent *d;
	ssize_t n;
	DIR *dp;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/wit.info", dir);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%255s", name) != 1)
		return adv_verdict(ADV_CANNOT, "no witness info");
	fclose(f);
	dp = opendir("/dev/pts");
	if (dp) {
		char list[512] = "";

		while ((d = readdir(dp)))
			if (d->d_name[0] != '.' && strlen(list) + strlen(d->d_name) + 2 < sizeof(list)) {
				strcat(list, " ");
				strcat(list, d->d_name);
			}
		closedir(dp);
		FACT("/dev/pts holds:%s", list);
	}
	TRIED("open %s (the witness's terminal) read-write, read what was typed, write SPOOF", name);
	fd = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		RESULT("open %s: %s", name, RET(-1, errno));
		return adv_verdict(ADV_CONTAINED, "the terminal outside the session is out of reach");
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	RESULT("read: %s", n > 0 ? buf : RET(n, errno));
	n = write(fd, "SPOOF\n", 6);
	RESULT("write SPOOF: %s", RET(n, errno));
	close(fd);
	return adv_verdict(ADV_ESCAPED, "a terminal outside the session was opened");
}

static int own(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), s;
	char buf[64], *name;
	ssize_t n;

	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 || !(name = ptsname(m)))
		return adv_verdict(ADV_ESCAPED, "no pseudo-terminal of its own");
	TRIED("posix_openpt, open %s, a line through it", name);
	s = open(name, O_RDWR | O_NOCTTY);
	if (s < 0) {
		RESULT("open %s: %s", name, RET(-1, errno));
		return adv_verdict(ADV_ESCAPED, "its own terminal cannot be opened");
	}
	if (!ttyname(s) || strcmp(ttyname(s), name)) {
		RESULT("ttyname: %s", ttyname(s) ?: strerror(errno));
		return adv_verdict(ADV_ESCAPED, "its own terminal has no name");
	}
	if (write(m, "own-line\n", 9) != 9 || (n = read(s, buf, sizeof(buf) - 1)) <= 0)
		return adv_verdict(ADV_ESCAPED, "no line through its own terminal");
	buf[n] = '\0';
	RESULT("%s: read \"%.*s\", ttyname %s", name, (int)strcspn(buf, "\n"), buf, ttyname(s));
	printf("control: own pty works\n");
	return adv_verdict(ADV_CONTAINED, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "attack"))
		return attack(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "own"))
		return own();
	fprintf(stderr, "usage: adv_nsbox_tty witness DIR | attack DIR | own\n");
	return 2;
}
