// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own cgroup (docs/security.md, route 16c): made by the
 * launch child below the cgroup it is in (the launcher's, or what the
 * launch joined before), handed to the launcher, and removed by the
 * supervisor when the session ends.
 *
 * Why: cgroupfs checks a write by the file's mode bits alone (kernfs),
 * with no ptrace-mode check, so a program reaches by path every cgroup
 * file its uid owns (systemd delegates user@UID.service: cgroup.kill,
 * cgroup.freeze, cgroup.procs of the user's terminals and apps) or, as a
 * capability-less root, every one.  The session's cgroup namespace
 * (nsbox.c) is rooted at the cgroup made here, and so is every cgroup2
 * mount it sees or makes: nothing outside has a path.  And the kernel
 * refuses a migration whose source or destination is outside the
 * writer's cgroup namespace (cgroup_procs_write_permission(),
 * kernel/cgroup/cgroup.c), so no process outside can be moved in.
 *
 * Two levels: SESSION/program.  The program's cgroup namespace is rooted
 * at "program"; the session's cgroup above it holds the bounds the
 * program cannot reach (cgroup.max.descendants, cgroup.max.depth), so
 * that removing what it made below is bounded work.  Where the cgroup
 * the launch child is in is its uid's (a delegated subtree: the user
 * manager's own cgroups), "program" and its files become the uid's too,
 * as a cgroup the uid made itself would be: the program manages its own
 * subtree as it did unconfined.  Else they stay root's, as the cgroup
 * it was in was.
 *
 * The child works through a cgroup2 mount of its own (fsopen; detached,
 * gone when it closes it), rooted at its cgroup namespace's root, as is
 * its /proc/self/cgroup: no mount table, whatever the launcher's mounts
 * or namespaces.  It hands the directory it made its cgroup in to the
 * launcher (SCM_RIGHTS on the ready socket, launch.c) right after the
 * mkdir, so that the launcher removes it whatever fails next.  What a
 * launcher killed by SIGKILL left, the next session to end beside it
 * removes (sweep_stale()).
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/clock.h"
#include "internal.h"
#include "contain/cgroup.h"
#include "contain/hand.h"

int sw_cgroup_plan(uid_t uid, gid_t gid, struct sw_cgroup_plan *ret,
		   struct sw_error *err)
{
	static const char *const fallback[] = { "cgroup.procs", "cgroup.threads",
						"cgroup.subtree_control" };
	static unsigned long seq;
	char buf[512];
	struct timespec ts;
	FILE *f;

	*ret = (struct sw_cgroup_plan){ .on = true, .uid = uid, .gid = gid };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* Unique among live launchers (pid) and over time (a pid reused
	 * later meets no leftover of the same name). */
	snprintf(ret->name, sizeof(ret->name), "sysward-session-%d-%lx-%llx",
		 (int)getpid(), __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED),
		 (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
	/* The files a delegation hands over (Linux 4.15+ lists them). */
	f = fopen("/sys/kernel/cgroup/delegate", "re");
	while (f && ret->n_delegate < SW_CGROUP_DELEGATE_MAX && fgets(buf, sizeof(buf), f)) {
		size_t n = strcspn(buf, "\n");

		/* A name that does not fit is one we do not know: left out
		 * (memcpy: gcc 12 cannot see the bound and warns on "%s"). */
		if (n && n < sizeof(ret->delegate[0])) {
			memcpy(ret->delegate[ret->n_delegate], buf, n);
			ret->delegate[ret->n_delegate++][n] = '\0';
		}
	}
	if (f)
		fclose(f);
	for (size_t i = 0; !ret->n_delegate && i < 3; i++)
		snprintf(ret->delegate[i], sizeof(ret->delegate[0]), "%s", fallback[i]);
	if (!ret->n_delegate)
		ret->n_delegate = 3;
	(void)err;
	return 0;
}

/* Async-signal-safe from here to sw_cgroup_enter(): the launch child. */

static int write_at(int dfd, const char *file, const char *s)
{
	int fd = openat(dfd, file, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	return n < 0 ? -e : 0;
}

/* The child's cgroup2 path from /proc/self/cgroup ("0::/a/b"), relative
 * to its cgroup namespace's root, into buf without the leading '/'. */
static int own_path(int self_fd, char *buf, size_t size)
{
	char data[4096];
	const char *p, *end;
	ssize_t n;
	size_t len;
	int fd = self_fd >= 0 ? openat(self_fd, "cgroup", O_RDONLY | O_CLOEXEC)
			      : open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, data, sizeof(data) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	data[n] = '\0';
	for (p = data; p && strncmp(p, "0::", 3); p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		;
	/* No unified line (cgroup2 not in this kernel), or a path outside
	 * its namespace ("/.."): no cgroup of its own can be made. */
	if (!p || p[3] != '/' || !strncmp(p + 3, "/..", 3))
		return -ENOENT;
	p += 4;
	end = strchr(p, '\n');
	len = end ? (size_t)(end - p) : strlen(p);
	if (len + 2 > size)
		return -ENAMETOOLONG;
	if (len == 0)
		buf[len++] = '.';
	else
		memcpy(buf, p, len);
	buf[len] = '\0';
	return 0;
}

/* What a uid makes is its own, files and all (cgroup_kn_set_ugid():
 * the creator's fsuid): every entry of the program's new cgroup. */
static int give(int dfd, uid_t uid, gid_t gid)
{
	char buf[4096];
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return -errno;
	if (fchownat(fd, "", uid, gid, AT_EMPTY_PATH) < 0)
		goto fail;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (d->d_type == DT_REG &&
			    fchownat(fd, d->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
				goto fail;
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	n = -errno;
	close(fd);
	return (int)n;
}

#define STR_(x) #x
#define STR(x) STR_(x)

int sw_cgroup_enter(const struct sw_cgroup_plan *p, int hand_fd, int self_fd,
		    int *step)
{
	cleanup_close int fs = -1, mnt = -1, dir = -1, s = -1, pg = -1;
	char path[PATH_MAX];
	struct stat st;
	int r;

	*step = SW_NSBOX_CGROUP_MAKE;
	if (!p->on)
		return 0;
	fs = fsopen("cgroup2", FSOPEN_CLOEXEC);
	if (fs < 0 || fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -errno;
	mnt = fsmount(fs, FSMOUNT_CLOEXEC,
		      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mnt < 0)
		return -errno;
	r = own_path(self_fd, path, sizeof(path));
	if (r < 0)
		return r;
	dir = openat(mnt, path, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dir < 0 || fstat(dir, &st) < 0 || mkdirat(dir, p->name, 0755) < 0)
		return -errno;
	*step = SW_NSBOX_CGROUP_HAND;
	r = sw_launch_hand(hand_fd, SW_HAND_CGROUP, dir);
	if (r < 0)
		return r;
	*step = SW_NSBOX_CGROUP_LIMIT;
	s = openat(dir, p->name, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (s < 0)
		return -errno;
	r = write_at(s, "cgroup.max.descendants", STR(SW_CGROUP_MAX_DESCENDANTS));
	if (r == 0)
		r = write_at(s, "cgroup.max.depth", STR(SW_CGROUP_MAX_DEPTH));
	if (r < 0)
		return r;
	*step = SW_NSBOX_CGROUP_MAKE;
	if (mkdirat(s, SW_CGROUP_PROGRAM, 0755) < 0)
		return -errno;
	pg = openat(s, SW_CGROUP_PROGRAM, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (pg < 0)
		return -errno;
	/* The cgroup it was in was its uid's: so is its own. */
	*step = SW_NSBOX_CGROUP_DELEGATE;
	if (p->uid != 0 && st.st_uid == p->uid) {
		r = give(pg, p->uid, p->gid);
		if (r < 0)
			return r;
	}
	*step = SW_NSBOX_CGROUP_MOVE;
	return write_at(pg, "cgroup.procs", "0");
}

/* The launcher's side. */

bool sw_cgroup_take(struct sw_cgroup *cg, const char *name, struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
		if (cg->dir_fd >= 0)
			close(cg->dir_fd);
		cg->dir_fd = fd;
		snprintf(cg->name, sizeof(cg->name), "%s", name);
		return true;
	}
	return false;
}

/*
 * name below dfd and every cgroup below it, deepest first: 0, or the
 * -errno of the first rmdir that failed (-EBUSY: processes in it).
 * *budget bounds the directories visited: the launch child set the
 * session's cgroup.max.descendants and cgroup.max.depth, out of the
 * program's reach.
 */
static int remove_tree(int dfd, const char *name, int depth, int *budget)
{
	cleanup_close int fd = -1;
	struct dirent *d;
	DIR *dp;
	int r = 0;

	if (--*budget < 0 || depth > SW_CGROUP_MAX_DEPTH + 1)
		return -ELOOP;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	dp = fdopendir(fd);
	if (!dp)
		return -errno;
	fd = -1;	/* the stream's now */
	while (r == 0 && (d = readdir(dp)))
		if (d->d_type == DT_DIR && strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			r = remove_tree(dirfd(dp), d->d_name, depth + 1, budget);
	closedir(dp);
	if (r == 0 && unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		r = -errno;
	return r;
}

static void warn_sup(struct sw_supervisor *sup, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_sup(struct sw_supervisor *sup, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!sup->warn_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sup->warn_fn(NULL, msg, sup->warn_ud);
}

static int try_remove(struct sw_cgroup *cg)
{
	int budget = SW_CGROUP_MAX_DESCENDANTS + 2;

	return remove_tree(cg->dir_fd, cg->name, 0, &budget);
}

static void drop(struct sw_cgroup *cg)
{
	if (cg->dir_fd >= 0)
		close(cg->dir_fd);
	cg->dir_fd = -1;
}

/*
 * Session cgroups a supervisor killed by SIGKILL left beside ours (its
 * tracees died with it: PTRACE_O_EXITKILL): empty, named by a launcher
 * pid that is gone and made more than a minute ago
 * ("sysward-session-PID-N-MONOTONIC_NS", sw_cgroup_plan()).  A live
 * launcher's are never touched, whatever their state; a pid of another
 * pid namespace that this one does not see passes for gone, but its
 * session's cgroup is populated from the child's move on, and older
 * than a minute it has moved.  At most a few per call.
 */
static void sweep_stale(int dir_fd)
{
	cleanup_close int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned long long now = (unsigned long long)sw_mono_ms() * 1000000ULL;
	char names[4][SW_CGROUP_NAME_MAX];
	struct dirent *d;
	size_t n = 0;
	DIR *dp;

	if (fd < 0 || !(dp = fdopendir(fd)))
		return;
	fd = -1;
	while (n < 4 && (d = readdir(dp))) {
		unsigned long long made;
		unsigned long seq;
		char events[64];
		int pid, efd;
		ssize_t len;

		if (d->d_type != DT_DIR ||
		    sscanf(d->d_name, "sysward-session-%d-%lx-%llx", &pid, &seq, &made) != 3 ||
		    strlen(d->d_name) >= SW_CGROUP_NAME_MAX || pid <= 0 ||
		    made + 60ULL * 1000000000ULL > now ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(events, sizeof(events), "%.40s/cgroup.events", d->d_name);
		efd = openat(dirfd(dp), events, O_RDONLY | O_CLOEXEC);
		len = efd >= 0 ? read(efd, events, sizeof(events) - 1) : -1;
		if (efd >= 0)
			close(efd);
		if (len <= 0)
			continue;
		events[len] = '\0';
		/* shorter than SW_CGROUP_NAME_MAX, above (memcpy: gcc 12
		 * cannot see that bound and warns on "%s") */
		if (strstr(events, "populated 0"))
			memcpy(names[n++], d->d_name, strlen(d->d_name) + 1);
	}
	for (size_t i = 0; i < n; i++) {
		int budget = SW_CGROUP_MAX_DESCENDANTS + 2;

		(void)remove_tree(dirfd(dp), names[i], 0, &budget);
	}
	closedir(dp);
}

void sw_cgroup_release(struct sw_supervisor *sup, struct sw_cgroup *cg)
{
	char kill_path[SW_CGROUP_NAME_MAX + 16];
	int r;

	/* None was handed over (no name: a session made by hand, as the
	 * unit tests make them, holds no descriptor either). */
	if (!cg->name[0] || cg->dir_fd < 0 || !sup)
		return;
	r = try_remove(cg);
	if (r == 0) {
		sweep_stale(cg->dir_fd);
		drop(cg);
		return;
	}
	/* Every process of the session is gone: what is left moved itself
	 * in (its uid could write the program's cgroup.procs) or was never
	 * traced.  It ends with the session, as a unit's processes end with
	 * their unit; the kernel kills asynchronously, so the removal waits
	 * (cgroup_kill(), kernel/cgroup/cgroup.c). */
	if (r == -EBUSY || r == -ENOTEMPTY) {
		snprintf(kill_path, sizeof(kill_path), "%s/cgroup.kill", cg->name);
		(void)write_at(cg->dir_fd, kill_path, "1");
		if (!sup->cg_pending)
			sup->cg_pending = calloc(SW_CGROUP_PENDING_MAX, sizeof(*sup->cg_pending));
		if (sup->cg_pending && sup->n_cg_pending < SW_CGROUP_PENDING_MAX) {
			sup->cg_pending[sup->n_cg_pending++] = *cg;
			cg->dir_fd = -1;
			return;
		}
	}
	warn_sup(sup, "cannot remove the session's cgroup %s: %s; it holds no process of the session (remove it with rmdir)",
		 cg->name, strerror(-r));
	drop(cg);
}

void sw_cgroup_retry(struct sw_supervisor *sup, int wait_ms)
{
	long long now = sw_mono_ms(), end = now + wait_ms;

	/* From the dispatch loop: at most every 50 ms. */
	if (!wait_ms && now - sup->cg_retry_ms < 50)
		return;
	sup->cg_retry_ms = now;
	for (;;) {
		size_t kept = 0;

		for (size_t i = 0; i < sup->n_cg_pending; i++) {
			struct sw_cgroup *cg = &sup->cg_pending[i];

			if (try_remove(cg) == 0)
				drop(cg);
			else
				sup->cg_pending[kept++] = *cg;
		}
		sup->n_cg_pending = kept;
		if (!kept || sw_mono_ms() >= end)
			break;
		nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
	}
	if (!wait_ms)
		return;
	for (size_t i = 0; i < sup->n_cg_pending; i++) {
		warn_sup(sup, "the session's cgroup %s still holds processes that were sent SIGKILL %d ms ago; not waiting for them (remove it with rmdir once they are gone)",
			 sup->cg_pending[i].name, wait_ms);
		drop(&sup->cg_pending[i]);
	}
	sup->n_cg_pending = 0;
	free(sup->cg_pending);
	sup->cg_pending = NULL;
}
