// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * connect-loop unix|seqpacket|tcp N [THREADS]: N connects to a listener
 * of the program's own (a forked child accepting and closing), each
 * followed by a one-byte exchange and a close, with THREADS idle
 * threads beside the connecting one (default 0); exit 0 if all N
 * exchanges went through.  Under sysward the per-connect cost of route
 * 19's check (engine/trace/peers.c): a unix connect stops twice (entry, exit)
 * and, when the descriptor table is shared with another task of the
 * session (THREADS > 0), every other task is held across the call; a
 * TCP connect stops once, at its entry (the address family is in
 * memory, which the seccomp filter cannot read).
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void serve(int lfd)
{
	for (;;) {
		int c = accept(lfd, NULL, NULL);
		char b;

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		if (read(c, &b, 1) == 1 && write(c, &b, 1) != 1)
			die("write to the connected client");
		close(c);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "unix";
	long n = argc > 2 ? atol(argv[2]) : 1000;
	int threads = argc > 3 ? atoi(argv[3]) : 0;
	int family = strcmp(mode, "tcp") ? AF_UNIX : AF_INET;
	int type = strcmp(mode, "seqpacket") ? SOCK_STREAM : SOCK_SEQPACKET;
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	long done = 0;
	pid_t server;
	int lfd;

	lfd = socket(family, type | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket");
	if (family == AF_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;

		un->sun_family = AF_UNIX;
		/* abstract: nothing to clean up, unique per process */
		len = offsetof(struct sockaddr_un, sun_path) + 1 +
		      snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1,
			       "connect-loop-%d", getpid());
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	}
	if (bind(lfd, (struct sockaddr *)&ss, len) < 0)
		die("bind");
	if (listen(lfd, 128) < 0)
		die("listen");
	if (getsockname(lfd, (struct sockaddr *)&ss, &len) < 0)
		die("getsockname");
	server = fork();
	if (server < 0)
		die("fork");
	if (server == 0)
		serve(lfd);
	close(lfd);

	for (int t = 0; t < threads; t++) {
		pthread_t th;

		if (pthread_create(&th, NULL, idle, NULL))
			die("pthread_create");
	}
	for (long i = 0; i < n; i++) {
		int c = socket(family, type | SOCK_CLOEXEC, 0);
		char b = 'x';

		if (c < 0)
			die("socket");
		if (connect(c, (struct sockaddr *)&ss, len) < 0)
			die("connect to the program's own listener");
		if (write(c, &b, 1) == 1 && read(c, &b, 1) == 1)
			done++;
		close(c);
	}
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	if (done != n) {
		fprintf(stderr, "connect-loop: %ld of %ld exchanges went through\n", done, n);
		return 1;
	}
	return 0;
}
