// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route: keep "sysward ps", "sysward kill" and new sessions out of
 * syswardd by holding every connection slot it has (--max-sessions + 64).
 * A confined program may not RUN, PS or KILL (the daemon vets the peer),
 * but it can connect to the daemon's socket if it can reach it, and idle:
 * each such connection holds a slot until the request timeout, and a
 * closed one is replaced at once.
 *
 *   adv_conn_flood SOCKET SECONDS
 *
 * Holds as many connections as it can (up to 4000) for SECONDS, replacing
 * each one the daemon closes, and prints how many it held at most.  The
 * verdict is the test's (tests/daemon t_conn_flood): whether other
 * clients were served meanwhile.
 */
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "adv.h"

#define MAX_CONNS 4000

static struct sockaddr_un sa;

static int conn(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 &&
	    errno != EINPROGRESS && errno != EAGAIN) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	static struct pollfd p[MAX_CONNS];
	struct rlimit rl;
	time_t end;
	int n = 0, held = 0, most = 0, max;

	if (argc != 3) {
		fprintf(stderr, "usage: adv_conn_flood SOCKET SECONDS\n");
		return ADV_CANNOT;
	}
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	end = time(NULL) + atoi(argv[2]);
	max = MAX_CONNS;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max && rl.rlim_max != RLIM_INFINITY) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur != RLIM_INFINITY && (int)rl.rlim_cur - 16 < max)
			max = (int)rl.rlim_cur - 16;
	}
	TRIED("hold up to %d connections to %s for %s s, replacing closed ones",
	      max, argv[1], argv[2]);
	for (int i = 0; i < max; i++)
		p[i].fd = -1;
	while (time(NULL) < end) {
		held = 0;
		for (int i = 0; i < max; i++) {
			if (p[i].fd < 0) {
				p[i].fd = conn();
				p[i].events = POLLIN;
			}
			if (p[i].fd >= 0)
				held++;
		}
		if (held > most) {
			most = held;
			FACT("holding %d connections", held);
		}
		n = poll(p, (nfds_t)max, 10);
		for (int i = 0; n > 0 && i < max; i++) {
			if (p[i].fd >= 0 && p[i].revents) {
				/* An error reply or a hang-up: the slot is
				 * free again, take it back. */
				close(p[i].fd);
				p[i].fd = -1;
			}
		}
	}
	RESULT("held at most %d connections", most);
	return adv_verdict(ADV_CONTAINED, "the test judges whether others were served");
}
