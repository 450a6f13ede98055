// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The bundle directory.  We write two files there, config.json and the
 * policy's copy, and nowhere else, whatever the bundle holds: every
 * write is a new file created in the directory we opened (O_EXCL, so no
 * planted symbolic link is followed) and renamed over the old name
 * (rename replaces a link, it never writes through one).  Readers never
 * see half a file: the delegate reads config.json while another create
 * of the same bundle may be rewriting it.
 *
 * No fsync: a bundle lives as long as its container (Podman's and
 * containerd's are under /run or recreated at every start), and a
 * config.json a crash left empty fails the next create rather than
 * running anything unconfined.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

int rt_read_fd(int fd, const char *name, size_t max, char **ret,
	       size_t *ret_len, struct sw_error *err)
{
	cleanup_free char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > max)
				return sw_error_set(err, EFBIG,
						    "%s is larger than %zu bytes",
						    name, max);
			cap = cap ? cap * 2 : 16384;
			nb = realloc(buf, cap + 1);
			if (!nb)
				return sw_error_set(err, ENOMEM, "out of memory");
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sw_error_set_errno(err, errno, "read %s", name);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max)
		return sw_error_set(err, EFBIG, "%s is larger than %zu bytes",
				    name, max);
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

int rt_bundle_open(const char *path, struct rt_bundle *b, struct sw_error *err)
{
	char proc[64], real[PATH_MAX], name[PATH_MAX + 16];
	cleanup_close int cfd = -1;
	struct stat st;
	ssize_t n;
	int r;

	memset(b, 0, sizeof(*b));
	b->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (b->fd < 0)
		return sw_error_set_errno(err, errno, "open the bundle %s", path);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", b->fd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n < 0)
		return sw_error_set_errno(err, errno, "find the bundle %s's real path",
					  path);
	real[n] = '\0';
	b->path = strdup(real);
	if (!b->path)
		return sw_error_set(err, ENOMEM, "out of memory");
	snprintf(name, sizeof(name), "%s/config.json", real);
	/* Followed if a link, as runc reads it; O_NONBLOCK: a FIFO there
	 * must not hang us (refused below). */
	cfd = openat(b->fd, "config.json",
		     O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (cfd < 0)
		return sw_error_set_errno(err, errno, "open %s", name);
	if (fstat(cfd, &st) < 0)
		return sw_error_set_errno(err, errno, "stat %s", name);
	if (!S_ISREG(st.st_mode))
		return sw_error_set(err, EINVAL, "%s is not a regular file", name);
	b->config_meta.mode = st.st_mode & 07777;
	b->config_meta.uid = st.st_uid;
	b->config_meta.gid = st.st_gid;
	r = rt_read_fd(cfd, name, RT_LIMIT_SPEC_BYTES, &b->config_text,
		       &b->config_len, err);
	return r;
}

void rt_bundle_close(struct rt_bundle *b)
{
	if (b->fd >= 0)
		close(b->fd);
	free(b->path);
	free(b->config_text);
	memset(b, 0, sizeof(*b));
	b->fd = -1;
}

int rt_bundle_write(struct rt_bundle *b, const char *name, const char *text,
		    size_t len, const struct rt_file_meta *meta,
		    struct sw_error *err)
{
	char tmp[NAME_MAX + 1];
	cleanup_close int fd = -1;
	size_t off = 0;
	int e;

	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		unsigned char rnd[6];

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return sw_error_set_errno(err, errno, "getrandom");
		snprintf(tmp, sizeof(tmp), ".%s.sysward-%02x%02x%02x%02x%02x%02x",
			 name, rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
		fd = openat(b->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
		return sw_error_set_errno(err, errno,
					  "create a file in the bundle %s (sysward-runtime writes %s there)",
					  b->path, name);
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		off += (size_t)n;
	}
	if (fchmod(fd, meta->mode & 07777) < 0)
		goto fail;
	/* A bundle's config.json that belongs to someone else (a user's
	 * own bundle, run by root) stays theirs. */
	if (meta->uid != (unsigned int)-1 && geteuid() == 0 &&
	    fchown(fd, meta->uid, meta->gid) < 0)
		goto fail;
	if (close(TAKE_FD(fd)) < 0)
		goto fail;
	if (renameat(b->fd, tmp, b->fd, name) < 0)
		goto fail;
	return 0;
fail:
	e = errno;
	unlinkat(b->fd, tmp, 0);
	return sw_error_set_errno(err, e, "write %s/%s", b->path, name);
}

int rt_bundle_read(struct rt_bundle *b, const char *name, size_t max,
		   char **ret, size_t *ret_len, struct sw_error *err)
{
	cleanup_close int fd = openat(b->fd, name, O_RDONLY | O_NOFOLLOW |
				      O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char full[PATH_MAX + NAME_MAX + 2];

	snprintf(full, sizeof(full), "%s/%s", b->path, name);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "open %s", full);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return sw_error_set(err, EINVAL, "%s is not a regular file", full);
	return rt_read_fd(fd, full, max, ret, ret_len, err);
}

int rt_bundle_private(struct rt_bundle *b, const char *id,
		      struct rt_bundle *ret, struct sw_error *err)
{
	char name[NAME_MAX + 1];
	cleanup_close int fd = -1;
	struct stat st;

	/* runc's ids are [A-Za-z0-9_+.-]+ (it refuses others itself):
	 * one name in the bundle, never a path out of it. */
	if (!*id || strchr(id, '/') || strlen(id) > NAME_MAX - strlen(RT_PRIVATE_PREFIX))
		return sw_error_set(err, EINVAL,
				    "the container id '%s' cannot name a directory in the bundle",
				    id);
	snprintf(name, sizeof(name), RT_PRIVATE_PREFIX "%s", id);
	if (mkdirat(b->fd, name, 0700) < 0 && errno != EEXIST)
		return sw_error_set_errno(err, errno,
					  "create %s/%s (sysward-runtime hands runc the wrapped config.json there, the bundle's own stays as it is)",
					  b->path, name);
	/* A link planted there is not followed: ELOOP. */
	fd = openat(b->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "open %s/%s (a link, or not a directory: remove it)",
					  b->path, name);
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "stat %s/%s", b->path, name);
	if (st.st_uid != geteuid())
		return sw_error_set(err, EPERM,
				    "%s/%s belongs to uid %u, not to us: remove it",
				    b->path, name, (unsigned int)st.st_uid);
	memset(ret, 0, sizeof(*ret));
	if (asprintf(&ret->path, "%s/%s", b->path, name) < 0) {
		ret->path = NULL;
		ret->fd = -1;
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	ret->fd = TAKE_FD(fd);
	return 0;
}
