// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route: a pidfd of a process outside the session, then pidfd_getfd.
 * pidfd_open is checked against the session's tree (signals.c), but
 * pidfds come without it: getsockopt(SO_PEERPIDFD) on any unix
 * connection, SCM_PIDFD, and pidfs file handles (name_to_handle_at on a
 * pidfd of its own, then open_by_handle_at with nearby inode numbers;
 * pidfs needs no CAP_DAC_READ_SEARCH).  With one, pidfd_getfd copies any
 * descriptor of a same-uid process: a file the program's path rules deny.
 *
 *   adv_pidfd_getfd witness DIR    outside sysward: hold DIR/file-D open,
 *                                  listen on DIR/wit.sock, write
 *                                  "PID FD" to DIR/wit.info, sleep
 *   adv_pidfd_getfd steal DIR PID FD   under sysward (path rule denying
 *                                  openat of DIR/file-D), same uid
 *
 * Contained: every pidfd_getfd of the witness's descriptor refused.
 * Cannot-test: no pidfd of the witness obtained (a kernel without
 * SO_PEERPIDFD and pidfs handles).  Also reports, as facts, what
 * process_madvise, setns and pidfd_send_signal make of such a pidfd.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "sysward/syscall_nr.h"
#include "adv.h"

static long fd_pid(int fd)
{
	char p[64], l[128];
	long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/self/fdinfo/%d", fd);
	f = fopen(p, "re");
	if (!f)
		return -1;
	while (fgets(l, sizeof(l), f))
		if (!strncmp(l, "Pid:", 4))
			v = atol(l + 4);
	fclose(f);
	return v;
}

static int witness(const char *dir)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char path[256], tmp[256];
	int d, s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/file-D", dir);
	d = open(path, O_RDONLY);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/wit.sock", dir);
	unlink(a.sun_path);
	if (d < 0 || s < 0 || bind(s, (void *)&a, sizeof(a)) < 0 || listen(s, 8) < 0) {
		perror("witness");
		return 2;
	}
	snprintf(tmp, sizeof(tmp), "%s/wit.info.tmp", dir);
	snprintf(path, sizeof(path), "%s/wit.info", dir);
	f = fopen(tmp, "w");
	if (!f)
		return 2;
	fprintf(f, "%d %d\n", (int)getpid(), d);
	fclose(f);
	rename(tmp, path);
	for (int i = 0; i < 600; i++) {	/* at most 60 s */
		struct timeval tv = { 0, 100000 };
		fd_set rs;

		FD_ZERO(&rs);
		FD_SET(s, &rs);
		if (select(s + 1, &rs, NULL, NULL, &tv) > 0) {
			int c = accept(s, NULL, NULL);

			(void)c;	/* kept open: the peer reads no EOF */
		}
	}
	return 0;
}

static int escaped, tried;

static void use(int pidfd, long wpid, int wfd, const char *how)
{
	long r;
	int e;
	char c[16] = { 0 };

	tried++;
	TRIED("[%s] pidfd_getfd(pidfd of outside pid %ld, %d, 0)", how, wpid, wfd);
	r = syscall(SYS_pidfd_getfd, pidfd, wfd, 0);
	e = errno;
	if (r >= 0 && pread((int)r, c, sizeof(c) - 1, 0) > 0) {
		c[strcspn(c, "\n")] = '\0';
		RESULT("[%s] pidfd_getfd = %ld, and it reads \"%s\"", how, r, c);
		escaped = 1;
		close((int)r);
	} else {
		RESULT("[%s] pidfd_getfd = %s", how, RET(r, e));
	}
	/* Facts: the kernel's own checks on the other pidfd calls. */
	{
		struct iovec iov = { mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), 4096 };

		r = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
		FACT("[%s] process_madvise(MADV_COLD) = %s", how, RET(r, errno));
	}
	r = setns(pidfd, CLONE_NEWUTS);
	FACT("[%s] setns(CLONE_NEWUTS) = %s", how, RET(r, errno));
	r = syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0);
	FACT("[%s] pidfd_send_signal(0) = %s", how, RET(r, errno));
}

int main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char path[256];
	long wpid;
	int wfd, s, me, mnt;

	if (argc == 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2]);
	if (argc != 5 || strcmp(argv[1], "steal")) {
		fprintf(stderr, "usage: adv_pidfd_getfd witness DIR | steal DIR PID FD\n");
		return ADV_CANNOT;
	}
	wpid = atol(argv[3]);
	wfd = atoi(argv[4]);
	FACT("uid %d; the witness, pid %ld outside sysward, holds file-D as fd %d",
	     (int)getuid(), wpid, wfd);
	snprintf(path, sizeof(path), "%s/file-D", argv[2]);
	TRIED("openat(file-D)");
	{
		long r = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);

		RESULT("openat(file-D) = %s", RET(r, errno));
	}
	TRIED("pidfd_open(witness)");
	{
		long r = syscall(SYS_pidfd_open, (int)wpid, 0);

		RESULT("pidfd_open(witness) = %s", RET(r, errno));
		if (r >= 0)
			use((int)r, wpid, wfd, "pidfd_open");
	}

	/* 1. SO_PEERPIDFD on a connection to the witness */
	TRIED("connect(DIR/wit.sock), getsockopt(SO_PEERPIDFD)");
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/wit.sock", argv[2]);
	if (connect(s, (void *)&a, sizeof(a)) == 0) {
		int pfd = -1;
		socklen_t l = sizeof(pfd);
		long r = getsockopt(s, SOL_SOCKET, SO_PEERPIDFD, &pfd, &l);

		RESULT("SO_PEERPIDFD = %s, pidfd %d of pid %ld", RET(r, errno), pfd,
		       pfd >= 0 ? fd_pid(pfd) : -1);
		if (r == 0 && pfd >= 0 && fd_pid(pfd) == wpid)
			use(pfd, wpid, wfd, "SO_PEERPIDFD");
	} else {
		RESULT("connect = %s", RET(-1, errno));
	}

	/* 2. pidfs file handles: a pidfd of its own, then nearby inodes */
	TRIED("name_to_handle_at(own pidfd), open_by_handle_at(nearby inode numbers)");
	me = (int)syscall(SYS_pidfd_open, getpid(), 0);
	{
		struct {
			struct file_handle h;
			unsigned char b[64];
		} fh = { .h.handle_bytes = 64 };
		long r = me < 0 ? -1 : name_to_handle_at(me, "", &fh.h, &mnt, AT_EMPTY_PATH);
		int found = -1;

		RESULT("name_to_handle_at(own pidfd) = %s, type %d, %u bytes",
		       RET(r, errno), fh.h.handle_type, fh.h.handle_bytes);
		if (r == 0 && fh.h.handle_bytes >= 8) {
			unsigned long long ino, i;

			memcpy(&ino, fh.h.f_handle, 8);
			for (i = ino; i > ino - 20000 && i > 0 && found < 0; i--) {
				int pfd;

				memcpy(fh.h.f_handle, &i, 8);
				pfd = open_by_handle_at(me, &fh.h, O_RDONLY | O_CLOEXEC);
				if (pfd < 0)
					continue;
				if (fd_pid(pfd) == wpid)
					found = pfd;
				else
					close(pfd);
			}
			RESULT("open_by_handle_at: %s",
			       found >= 0 ? "a pidfd of the witness" : "no pidfd of the witness");
			if (found >= 0)
				use(found, wpid, wfd, "pidfs handle");
		}
	}

	if (escaped)
		return adv_verdict(ADV_ESCAPED,
				   "pidfd_getfd took a descriptor of a process outside the session");
	if (!tried)
		return adv_verdict(ADV_CANNOT, "no pidfd of the witness obtained");
	return adv_verdict(ADV_CONTAINED, "pidfd_getfd refused");
}
