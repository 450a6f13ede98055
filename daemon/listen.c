// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The listening socket.  systemd socket activation is checked by hand, as
 * sd_listen_fds(3) documents it: LISTEN_PID must be our pid and LISTEN_FDS
 * the number of fds passed from 3 on; we take exactly one, a listening Unix
 * stream socket.  Otherwise bind a new socket, replacing a stale file left
 * by a daemon that died, but never one a live daemon still serves.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/proto.h"
#include "syswardd.h"

#define SD_LISTEN_FDS_START 3

/* 1 and the fd if systemd passed one, 0 if not activated, or -errno. */
static int activation_fd(int *ret_fd, struct sw_error *err)
{
	const char *pid_s = getenv("LISTEN_PID"), *fds_s = getenv("LISTEN_FDS");
	char *end;
	long pid, n;
	int fd = SD_LISTEN_FDS_START, val = 0, fl;
	socklen_t len = sizeof(val);
	struct sockaddr_un sa;
	socklen_t salen = sizeof(sa);

	if (!pid_s || !fds_s)
		return 0;
	errno = 0;
	pid = strtol(pid_s, &end, 10);
	if (errno || *end || pid != getpid())
		return 0;	/* meant for another process */
	n = strtol(fds_s, &end, 10);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (*end || n < 1)
		return 0;
	if (n > 1)
		return sw_error_set(err, EINVAL,
			"systemd passed %ld sockets; syswardd takes exactly one "
			"(check ListenStream= in syswardd.socket)", n);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &val, &len) < 0 || !val)
		return sw_error_set(err, EINVAL,
			"fd 3 from systemd is not a listening socket");
	len = sizeof(val);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &val, &len) < 0 ||
	    val != SOCK_STREAM ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen) < 0 ||
	    sa.sun_family != AF_UNIX)
		return sw_error_set(err, EINVAL,
			"fd 3 from systemd is not a Unix stream socket "
			"(syswardd.socket needs ListenStream=/run/sysward.sock)");
	fl = fcntl(fd, F_GETFD);
	if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "set FD_CLOEXEC on fd 3");
	*ret_fd = fd;
	return 1;
}

static bool someone_listens(const char *path)
{
	int fd;

	if (sw_proto_connect(path, &fd, NULL) < 0)
		return false;
	close(fd);
	return true;
}

/* Remove path if it is a socket nobody listens on any more. */
static int remove_stale(const char *path, struct sw_error *err)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 :
			sw_error_set_errno(err, errno, "inspect %s", path);
	if (!S_ISSOCK(st.st_mode))
		return sw_error_set(err, EEXIST,
			"%s exists and is not a socket; remove it or choose "
			"another path with --socket", path);
	if (someone_listens(path))
		return sw_error_set(err, EADDRINUSE,
			"another syswardd is already listening on %s; stop it "
			"first or choose another path with --socket", path);
	fd = unlink(path);
	if (fd < 0 && errno != ENOENT)
		return sw_error_set_errno(err, errno, "remove stale socket %s",
					  path);
	return 0;
}

int listen_socket(const char *path, int mode, int *ret_fd, bool *ret_activated,
		  struct sw_error *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	cleanup_close int fd = -1;
	int r;

	r = activation_fd(ret_fd, err);
	if (r != 0) {
		if (r > 0)
			*ret_activated = true;
		return r < 0 ? r : 0;
	}
	*ret_activated = false;
	if (strlen(path) >= sizeof(sa.sun_path))
		return sw_error_set(err, ENAMETOOLONG,
			"socket path %s is longer than %zu bytes", path,
			sizeof(sa.sun_path) - 1);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	r = remove_stale(path, err);
	if (r < 0)
		return r;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "create socket");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return sw_error_set_errno(err, errno, "bind %s", path);
	/* Who may connect is decided per request from SO_PEERCRED; the file
	 * mode only says who may ask at all. */
	if (chmod(path, (mode_t)mode) < 0) {
		r = sw_error_set_errno(err, errno, "chmod %s to %04o", path,
				       mode);
		unlink(path);
		return r;
	}
	if (listen(fd, 128) < 0) {
		r = sw_error_set_errno(err, errno, "listen on %s", path);
		unlink(path);
		return r;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}
