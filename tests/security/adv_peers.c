// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 19: a same-uid service outside the session, reached through a
 * unix socket.  Any process of a uid may connect to the path-named (and,
 * before Landlock ABI 6, abstract) unix sockets of every other process
 * of that uid: the user's tmux server, ssh-agent, systemd --user, the
 * D-Bus session bus run commands or sign with the user's keys for
 * whoever connects.
 *
 *   adv_peers serve DIR [forked]   outside sysward: the service.  Listens
 *       on DIR/stream.sock (SOCK_STREAM), DIR/seqpacket.sock
 *       (SOCK_SEQPACKET), DIR/granted.sock (SOCK_STREAM, the one a grant
 *       names) and on an abstract name (DIR/abstract.name), and receives
 *       datagrams on DIR/dgram.sock.  Every message "ping" it gets makes
 *       it create DIR/reached.KIND and answer "pong".  DIR/serve.info
 *       once it is ready; serves for at most 120 s.  With "forked" the
 *       process that listened exits once a child of its has taken the
 *       sockets (as ssh-agent does): the listener's pid is gone.
 *   adv_peers connect DIR KIND...  under sysward: connect to each KIND
 *       (stream, seqpacket, granted, abstract) and exchange ping/pong;
 *       dgram: a datagram to DIR/dgram.sock.  Contained when no message
 *       reached the service.
 *   adv_peers race DIR N     under sysward: N connects of a stream socket
 *       while two threads and a child process (holding the same socket,
 *       passed with SCM_RIGHTS before each connect) write "ping" to it in
 *       a loop: whatever the connect's check decides, nothing they write
 *       may reach the service.
 *   adv_peers tricks DIR     under sysward, with a policy granting
 *       DIR/granted.sock (exact): the grant reaches the service bound
 *       there; a symlink at that name to stream.sock, stream.sock renamed
 *       onto it, a relative path, a path through /proc/self/fd of a
 *       directory descriptor, and ".." after a granted prefix must not.
 *   adv_peers own DIR        under sysward, control: a server of the
 *       session's own (its listener exits, as ssh-agent's does), reached
 *       by path and by an abstract name: exit 0 "control: reached".
 *   adv_peers exec-server DIR   used by "own": the serving half after
 *       exec (the listener's process image changes under the check).
 *   adv_peers flap DIR       outside sysward: the service whose process
 *       never stays: every 10 ms the one holding the sockets forks, and
 *       exits, and the child executes itself again (flap-exec), so that
 *       the peer a connect finds dies or executes while it is checked.
 *   adv_peers loop DIR N     under sysward: N connects to stream.sock,
 *       each sending ping; contained when none reached the service.
 *   adv_peers backlog DIR    under sysward (or not), control: a server of
 *       the session's own whose backlog is full, and a child's blocking
 *       connect to it, which must wait for room (made while the session
 *       is held, the check returns EAGAIN and makes it again) and
 *       succeed once the server accepts: exit 0 "control: connect
 *       waited", as unconfined.
 *
 * Output: tried/result/verdict lines (adv.h).  The service's markers
 * are the ground truth, and check.sh reads them too.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>

#include "adv.h"

static const char *const kinds[] = { "stream", "seqpacket", "granted" };
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static socklen_t addr_of(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s", path);
	return (socklen_t)sizeof(*a);
}

static socklen_t abstract_of(struct sockaddr_un *a, const char *name)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int listen_at(int type, const struct sockaddr_un *a, socklen_t len)
{
	int s = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	if (a->sun_path[0])
		unlink(a->sun_path);
	if (s < 0 || bind(s, (const void *)a, len) < 0 ||
	    (type != SOCK_DGRAM && listen(s, 64) < 0)) {
		perror("adv_peers: listen");
		exit(ADV_CANNOT);
	}
	if (a->sun_path[0])
		chmod(a->sun_path, 0666);
	return s;
}

/* A socket of type listening at dir/name.sock. */
static int listen_named(const char *dir, const char *name, int type)
{
	struct sockaddr_un a;
	char p[512];

	snprintf(p, sizeof(p), "%s/%s.sock", dir, name);
	return listen_at(type, &a, addr_of(&a, p));
}

/* dir/file holding text (how check.sh learns a fact), or -1. */
static int note(const char *dir, const char *file, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	return fclose(f);
}

/* dir/file holding this process's pid: it serves now. */
static int note_pid(const char *dir, const char *file)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return note(dir, file, pid);
}

/* Execute self as "self MODE DIR FD1 FD2", keeping both descriptors. */
static _Noreturn void exec_with(const char *self, const char *mode,
				const char *dir, int fd1, int fd2)
{
	char f1[16], f2[16];

	fcntl(fd1, F_SETFD, 0);
	fcntl(fd2, F_SETFD, 0);
	snprintf(f1, sizeof(f1), "%d", fd1);
	snprintf(f2, sizeof(f2), "%d", fd2);
	execl(self, self, mode, dir, f1, f2, (char *)NULL);
	_exit(127);
}

static void mark(const char *dir, const char *kind)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/reached.%s", dir, kind);
	close(open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
}

/* ---- the service, outside --------------------------------------------- */

#define MAX_CONN 256

static int serve_loop(const char *dir, int ls[], const char *const lkind[],
		      size_t n_ls, int dg)
{
	struct pollfd p[MAX_CONN];
	const char *pkind[MAX_CONN];
	size_t n = 0;
	time_t end = time(NULL) + 120;

	for (size_t i = 0; i < n_ls; i++) {
		p[n] = (struct pollfd){ ls[i], POLLIN, 0 };
		pkind[n++] = lkind[i];
	}
	p[n] = (struct pollfd){ dg, POLLIN, 0 };
	pkind[n++] = "dgram";
	while (time(NULL) < end) {
		if (poll(p, n, 1000) <= 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			char buf[64];
			ssize_t r;

			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (i < n_ls) {
				int c = accept4(p[i].fd, NULL, NULL, SOCK_CLOEXEC);

				if (c >= 0 && n < MAX_CONN) {
					p[n] = (struct pollfd){ c, POLLIN, 0 };
					pkind[n++] = pkind[i];
				} else if (c >= 0) {
					close(c);
				}
				continue;
			}
			r = read(p[i].fd, buf, sizeof(buf) - 1);
			if (r > 0) {
				buf[r] = '\0';
				if (strstr(buf, "ping")) {
					mark(dir, pkind[i]);
					if (p[i].fd != dg)
						(void)!write(p[i].fd, "pong", 4);
				}
				continue;
			}
			if (p[i].fd == dg)
				continue;
			/* Closed: its slot goes to the last one. */
			close(p[i].fd);
			p[i] = p[n - 1];
			pkind[i] = pkind[n - 1];
			n--;
			i--;
		}
	}
	return 0;
}

static int serve(const char *dir, bool forked)
{
	struct sockaddr_un a;
	int ls[N_KINDS + 1], dg;
	const char *lkind[N_KINDS + 1];
	char name[128];

	/* Clients hang up before the answer: not the service's end. */
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < N_KINDS; i++) {
		ls[i] = listen_named(dir, kinds[i], strcmp(kinds[i], "seqpacket")
					 ? SOCK_STREAM : SOCK_SEQPACKET);
		lkind[i] = kinds[i];
	}
	snprintf(name, sizeof(name), "sysward-adv-peers-%d", (int)getpid());
	ls[N_KINDS] = listen_at(SOCK_STREAM, &a, abstract_of(&a, name));
	lkind[N_KINDS] = "abstract";
	dg = listen_named(dir, "dgram", SOCK_DGRAM);
	if (note(dir, "abstract.name", name) < 0)
		return ADV_CANNOT;
	if (forked) {
		/* The listener goes; its child serves (ssh-agent, daemons). */
		pid_t c = fork();

		if (c < 0)
			return ADV_CANNOT;
		if (c > 0)
			_exit(0);
	}
	if (note_pid(dir, "serve.info") < 0)
		return ADV_CANNOT;
	return serve_loop(dir, ls, lkind, N_KINDS + 1, dg);
}

/* ---- the confined side -------------------------------------------------- */

static int reached;

/* Connect a new socket of type to a, send ping, wait 1 s for pong.
 * What happened in *how; 1 reached, 0 not. */
static int exchange(int type, const struct sockaddr_un *a, socklen_t len,
		    char *how, size_t n)
{
	int s = socket(AF_UNIX, type | SOCK_CLOEXEC, 0), r, e;
	struct pollfd p;
	char buf[8] = "";

	r = connect(s, (const void *)a, len);
	e = errno;
	if (r < 0) {
		snprintf(how, n, "connect = %s", RET(r, e));
		close(s);
		return 0;
	}
	(void)!write(s, "ping", 4);
	p = (struct pollfd){ s, POLLIN, 0 };
	if (poll(&p, 1, 1000) == 1 && read(s, buf, sizeof(buf) - 1) > 0 &&
	    !strncmp(buf, "pong", 4)) {
		snprintf(how, n, "connect = 0, answered pong");
		close(s);
		return 1;
	}
	snprintf(how, n, "connect = 0, no answer");
	close(s);
	return 0;
}

static int read_line(const char *dir, const char *file, char *buf, size_t n)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "re");
	if (!f || !fgets(buf, (int)n, f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int connect_kinds(const char *dir, char **kind)
{
	for (; *kind; kind++) {
		struct sockaddr_un a;
		socklen_t len;
		char how[160], path[512], name[128];
		int type = SOCK_STREAM;

		if (!strcmp(*kind, "dgram")) {
			int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
			ssize_t r;

			snprintf(path, sizeof(path), "%s/dgram.sock", dir);
			len = addr_of(&a, path);
			TRIED("sendto(%s, \"ping\")", path);
			r = sendto(s, "ping", 4, 0, (void *)&a, len);
			RESULT("dgram: sendto = %s", RET(r, errno));
			close(s);
			/* The service's marker says whether it got there. */
			usleep(200000);
			snprintf(path, sizeof(path), "%s/reached.dgram", dir);
			if (access(path, F_OK) == 0) {
				RESULT("dgram: REACHED (the service got it)");
				reached++;
			}
			continue;
		}
		if (!strcmp(*kind, "abstract")) {
			if (read_line(dir, "abstract.name", name, sizeof(name)) < 0)
				return adv_verdict(ADV_CANNOT, "no abstract.name");
			len = abstract_of(&a, name);
			snprintf(path, sizeof(path), "@%s", name);
		} else {
			if (!strcmp(*kind, "seqpacket"))
				type = SOCK_SEQPACKET;
			snprintf(path, sizeof(path), "%s/%s.sock", dir, *kind);
			len = addr_of(&a, path);
		}
		TRIED("connect(%s) (%s), send ping", path, *kind);
		if (exchange(type, &a, len, how, sizeof(how))) {
			RESULT("%s: REACHED (%s)", *kind, how);
			reached++;
		} else {
			RESULT("%s: refused (%s)", *kind, how);
		}
	}
	return reached ? adv_verdict(ADV_ESCAPED, "a same-uid service outside the session got a message")
		       : adv_verdict(ADV_CONTAINED, NULL);
}

/* ---- the race ---------------------------------------------------------- */

#define RACE_FD 200
static volatile int race_stop;

static void *race_writer(void *arg)
{
	(void)arg;
	while (!race_stop)
		(void)!send(RACE_FD, "ping", 4, MSG_NOSIGNAL | MSG_DONTWAIT);
	return NULL;
}

static void send_fd(int via, int fd)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} c = { 0 };
	char byte = 's';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.b, .msg_controllen = sizeof(c.b) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	(void)!sendmsg(via, &m, 0);
}

/* The child: takes each socket passed to it and writes to it until the
 * next one comes. */
static void race_child(int via)
{
	int cur = -1;

	fcntl(via, F_SETFL, O_NONBLOCK);
	for (;;) {
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(sizeof(int))];
		} c;
		char byte;
		struct iovec iov = { &byte, 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = c.b, .msg_controllen = sizeof(c.b) };
		ssize_t r = recvmsg(via, &m, 0);

		if (r == 0)
			_exit(0);
		if (r > 0) {
			struct cmsghdr *h = CMSG_FIRSTHDR(&m);

			if (cur >= 0)
				close(cur);
			cur = -1;
			if (h && h->cmsg_type == SCM_RIGHTS)
				memcpy(&cur, CMSG_DATA(h), sizeof(int));
		}
		if (cur >= 0)
			(void)!send(cur, "ping", 4, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
}

static int race(const char *dir, int n)
{
	struct sockaddr_un a;
	socklen_t len;
	char path[512];
	pthread_t th[2];
	int sv[2], ok = 0, refused = 0;
	pid_t child;

	snprintf(path, sizeof(path), "%s/stream.sock", dir);
	len = addr_of(&a, path);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return adv_verdict(ADV_CANNOT, "socketpair");
	child = fork();
	if (child == 0) {
		close(sv[0]);
		race_child(sv[1]);
	}
	close(sv[1]);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, race_writer, NULL);
	TRIED("%d x connect(%s) while two threads and a child write to the socket", n, path);
	for (int i = 0; i < n; i++) {
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		dup2(s, RACE_FD);
		send_fd(sv[0], s);
		if (connect(s, (void *)&a, len) == 0)
			ok++;
		else
			refused++;
		close(s);
	}
	race_stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	close(sv[0]);
	waitpid(child, NULL, 0);
	usleep(300000);
	snprintf(path, sizeof(path), "%s/reached.stream", dir);
	reached = access(path, F_OK) == 0;
	RESULT("connects: %d succeeded, %d refused; the service %s", ok, refused,
	       reached ? "got a message: REACHED" : "got nothing");
	return reached ? adv_verdict(ADV_ESCAPED, "a writer got a message through before the check")
		       : adv_verdict(ADV_CONTAINED, NULL);
}

/* ---- tricks against a grant ------------------------------------------- */

static int try_path(const char *label, const char *path)
{
	struct sockaddr_un a;
	char how[160];
	int r;

	TRIED("%s: connect(%s), send ping", label, path);
	r = exchange(SOCK_STREAM, &a, addr_of(&a, path), how, sizeof(how));
	RESULT("%s: %s (%s)", label, r ? "REACHED" : "refused", how);
	return r;
}

static int tricks(const char *dir)
{
	char granted[512], stream[512], link[512], p[600], rel[64];
	int d, hits = 0, control;

	snprintf(granted, sizeof(granted), "%s/granted.sock", dir);
	snprintf(stream, sizeof(stream), "%s/stream.sock", dir);
	/* Control: the grant itself. */
	control = try_path("granted", granted);
	unlink(granted);	/* the service keeps its socket */

	if (symlink(stream, granted) == 0) {
		hits += try_path("symlink at the granted name", granted);
		unlink(granted);
	}
	if (rename(stream, granted) == 0) {
		hits += try_path("stream.sock renamed to the granted name", granted);
		(void)!rename(granted, stream);
	}
	if (chdir(dir) == 0) {
		snprintf(rel, sizeof(rel), "stream.sock");
		hits += try_path("relative path", rel);
	}
	d = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d/stream.sock", d);
		hits += try_path("through a directory descriptor", p);
		close(d);
	}
	/* A prefix grant (DIR/granted.d/) and a name that starts with it. */
	snprintf(link, sizeof(link), "%s/granted.d", dir);
	mkdir(link, 0755);
	snprintf(p, sizeof(p), "%s/granted.d/../stream.sock", dir);
	hits += try_path("\"..\" after a granted prefix", p);
	reached = hits;
	if (!control)
		return adv_verdict(ADV_CANNOT, "the grant itself did not reach the service");
	return hits ? adv_verdict(ADV_ESCAPED, "a trick borrowed the grant")
		    : adv_verdict(ADV_CONTAINED, NULL);
}

/* ---- the session's own server ------------------------------------------ */

static int own(const char *dir, const char *self)
{
	struct sockaddr_un a;
	socklen_t len;
	char path[512], name[128], how[160], ready[600], pid[16];
	int good = 0;
	pid_t p;

	snprintf(path, sizeof(path), "%s/own.sock", dir);
	snprintf(name, sizeof(name), "sysward-adv-own-%d", (int)getpid());
	snprintf(ready, sizeof(ready), "%s/own.ready", dir);
	unlink(ready);
	pid[0] = '\0';
	p = fork();
	if (p == 0) {
		/* The listener: binds, listens, hands both to a child that
		 * executes the server, and exits (as ssh-agent does). */
		int s1, s2;

		s1 = listen_at(SOCK_STREAM, &a, addr_of(&a, path));
		s2 = listen_at(SOCK_STREAM, &a, abstract_of(&a, name));
		if (fork() == 0)
			exec_with(self, "exec-server", dir, s1, s2);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	for (int i = 0; i < 100 && read_line(dir, "own.ready", pid, sizeof(pid)) < 0; i++)
		usleep(20000);
	TRIED("connect to a server of the session's own (its listener gone): %s", path);
	len = addr_of(&a, path);
	if (exchange(SOCK_STREAM, &a, len, how, sizeof(how)))
		good++;
	RESULT("own path socket: %s", how);
	TRIED("the same by an abstract name: @%s", name);
	len = abstract_of(&a, name);
	if (exchange(SOCK_STREAM, &a, len, how, sizeof(how)))
		good++;
	RESULT("own abstract socket: %s", how);
	/* Its server, no longer needed (its pid in own.ready). */
	if (atoi(pid) > 0)
		kill(atoi(pid), SIGTERM);
	if (good == 2) {
		printf("control: reached\n");
		return 0;
	}
	printf("control: NOT reached\n");
	return 1;
}

static int exec_server(const char *dir, int s1, int s2)
{
	int ls[2] = { s1, s2 };
	const char *lk[2] = { "own", "own-abstract" };

	if (note_pid(dir, "own.ready") < 0)
		return ADV_CANNOT;
	/* Until the caller ends it, for a little while at most. */
	alarm(10);
	return serve_loop(dir, ls, lk, 2, socket(AF_UNIX, SOCK_DGRAM, 0));
}

/* ---- a service whose processes die and execute under the check ------- */

static int flap(const char *self, const char *dir, int ls, int dg)
{
	struct pollfd p[2] = { { ls, POLLIN, 0 }, { dg, POLLIN, 0 } };
	time_t end = time(NULL) + 120;
	char buf[16];

	signal(SIGPIPE, SIG_IGN);
	while (time(NULL) < end) {
		pid_t c;

		if (poll(p, 2, 10) > 0) {
			if (p[0].revents & POLLIN) {
				int c2 = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
				ssize_t r;

				/* A message already there, or within 10 ms. */
				if (c2 >= 0 && poll(&(struct pollfd){ c2, POLLIN, 0 }, 1, 10) > 0 &&
				    (r = read(c2, buf, sizeof(buf) - 1)) > 0) {
					buf[r] = '\0';
					if (strstr(buf, "ping"))
						mark(dir, "stream");
				}
				if (c2 >= 0)
					close(c2);
			}
			if ((p[1].revents & POLLIN) && read(dg, buf, sizeof(buf)) > 0)
				mark(dir, "dgram");
		}
		c = fork();
		if (c < 0)
			continue;
		if (c > 0)
			_exit(0);
		/* The child: the same sockets, a new image. */
		exec_with(self, "flap-exec", dir, ls, dg);
	}
	return 0;
}

static int flap_start(const char *self, const char *dir)
{
	int ls = listen_named(dir, "stream", SOCK_STREAM);
	int dg = listen_named(dir, "dgram", SOCK_DGRAM);

	if (note_pid(dir, "serve.info") < 0)
		return ADV_CANNOT;
	return flap(self, dir, ls, dg);
}

static int loop(const char *dir, int n)
{
	struct sockaddr_un a;
	char path[512], how[160];
	socklen_t len;
	int ok = 0;

	snprintf(path, sizeof(path), "%s/stream.sock", dir);
	len = addr_of(&a, path);
	TRIED("%d x connect(%s), send ping", n, path);
	for (int i = 0; i < n; i++)
		ok += exchange(SOCK_STREAM, &a, len, how, sizeof(how)) ||
		      strncmp(how, "connect = -1", 12);
	usleep(100000);
	snprintf(path, sizeof(path), "%s/reached.stream", dir);
	reached = access(path, F_OK) == 0;
	RESULT("%d connected; the service %s", ok,
	       reached ? "got a message: REACHED" : "got nothing");
	return reached || ok ? adv_verdict(ADV_ESCAPED, "a connect reached the service")
			     : adv_verdict(ADV_CONTAINED, NULL);
}

static int backlog(const char *dir)
{
	struct sockaddr_un a;
	socklen_t len;
	char path[PATH_MAX];
	int ls, n = 0, st = 0;
	pid_t child;

	snprintf(path, sizeof(path), "%s/backlog.sock", dir);
	len = addr_of(&a, path);
	unlink(path);
	ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ls < 0 || bind(ls, (const void *)&a, len) < 0 || listen(ls, 0) < 0)
		return adv_verdict(ADV_CANNOT, "cannot listen");
	/* Full: non-blocking connects until one would wait. */
	for (;;) {
		int c = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

		if (c < 0)
			return adv_verdict(ADV_CANNOT, "socket");
		if (connect(c, (const void *)&a, len) < 0) {
			close(c);
			if (errno != EAGAIN)
				return adv_verdict(ADV_CANNOT, "filling the backlog failed");
			break;
		}
		if (++n > 64)
			return adv_verdict(ADV_CANNOT, "the backlog never filled");
	}
	TRIED("a blocking connect to %s, whose backlog %d connects fill, "
	      "accepted 300 ms later", path, n);
	child = fork();
	if (child == 0) {
		int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int r = connect(c, (const void *)&a, len);

		RESULT("child: connect = %d%s%s", r, r < 0 ? " " : "",
		       r < 0 ? strerror(errno) : "");
		_exit(r == 0 ? 0 : 1);
	}
	adv_pause_ms(300);
	/* Room for the child's: the queued ones taken, without waiting for
	 * one the child may never make. */
	fcntl(ls, F_SETFL, O_NONBLOCK);
	for (int i = 0; i <= n; i++) {
		int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0)
			break;
	}
	if (child < 0 || waitpid(child, &st, 0) < 0)
		return adv_verdict(ADV_CANNOT, "fork");
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		printf("control: connect waited\n");
		return 0;
	}
	printf("control: the connect did not wait for room (unconfined it does)\n");
	return 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "serve"))
		return serve(argv[2], argc > 3 && !strcmp(argv[3], "forked"));
	if (argc >= 4 && !strcmp(argv[1], "connect"))
		return connect_kinds(argv[2], argv + 3);
	if (argc == 4 && !strcmp(argv[1], "race"))
		return race(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "tricks"))
		return tricks(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "own"))
		return own(argv[2], argv[0]);
	if (argc == 5 && !strcmp(argv[1], "exec-server"))
		return exec_server(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "flap"))
		return flap_start(argv[0], argv[2]);
	if (argc == 5 && !strcmp(argv[1], "flap-exec"))
		return flap(argv[0], argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "loop"))
		return loop(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "backlog"))
		return backlog(argv[2]);
	fprintf(stderr, "usage: adv_peers serve DIR [forked] | connect DIR KIND... | race DIR N | tricks DIR | own DIR | flap DIR | loop DIR N | backlog DIR\n");
	return ADV_CANNOT;
}
