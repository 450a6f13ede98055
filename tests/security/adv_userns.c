// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 20 (docs/security.md): namespaces a process of the same uid made
 * outside the sandbox (rootless containers, a browser's sandbox).  The
 * uid owns such a user namespace, so the kernel grants any process of
 * the uid every capability in it (cap_capable(): the owner in the parent
 * namespace): joining it (setns CLONE_NEWUSER) needs only a handle on it,
 * and from inside, its mount and network namespaces are the program's to
 * join too (files owned by subordinate uids, services bound inside).
 *
 *   adv_userns witness DIR   outside: user, mount and network namespaces
 *       of its own (unshare -Urmn); a file only its mount namespace shows;
 *       its pid in DIR/userns.info.
 *   adv_userns attack DIR    under sysward: a handle on its namespaces by
 *       every route (pidfd_open, pidfs file handles by nearby ids,
 *       /proc/PID/ns/..., PIDFD_GET_..._NAMESPACE, nsfs file handles), then
 *       setns into its user namespace and from there into its mount
 *       namespace, reading the file only it shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adv.h"

#ifndef PIDFS_IOCTL_MAGIC
#define PIDFS_IOCTL_MAGIC 0xFF
#endif
#define SW_PIDFD_GET_MNT_NAMESPACE	_IO(PIDFS_IOCTL_MAGIC, 3)
#define SW_PIDFD_GET_USER_NAMESPACE	_IO(PIDFS_IOCTL_MAGIC, 9)
#define SECRET_FILE	"/sysward-userns-secret"

static int witness(const char *dir)
{
	char p[4200], map[64];
	int fd;
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) < 0) {
		fprintf(stderr, "witness: unshare: %s\n", strerror(errno));
		return ADV_CANNOT;
	}
	snprintf(map, sizeof(map), "0 %d 1", (int)uid);
	fd = open("/proc/self/setgroups", O_WRONLY);
	if (fd >= 0) {
		(void)!write(fd, "deny", 4);
		close(fd);
	}
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0 || write(fd, map, strlen(map)) < 0)
		return ADV_CANNOT;
	close(fd);
	snprintf(map, sizeof(map), "0 %d 1", (int)gid);
	fd = open("/proc/self/gid_map", O_WRONLY);
	if (fd < 0 || write(fd, map, strlen(map)) < 0)
		return ADV_CANNOT;
	close(fd);
	/* A file only its mount namespace shows, on a tmpfs over /mnt. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/mnt", "tmpfs", 0, NULL) < 0) {
		fprintf(stderr, "witness: mount: %s\n", strerror(errno));
		return ADV_CANNOT;
	}
	fd = open("/mnt" SECRET_FILE, O_WRONLY | O_CREAT, 0600);
	if (fd < 0 || write(fd, "inside", 6) != 6)
		return ADV_CANNOT;
	close(fd);
	snprintf(p, sizeof(p), "%s/userns.info", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return ADV_CANNOT;
	dprintf(fd, "%d\n", (int)getpid());
	close(fd);
	sleep(120);
	return 0;
}

static int reached;

/* Enter the witness's user namespace through nsfd (a user namespace's,
 * or a pidfd of the witness), then its mount namespace (mntfd, or the
 * pidfd again), and read the file only it shows; in a child, so that
 * every route starts outside. */
static void try_enter(const char *how, int userfd, int mntfd)
{
	pid_t c;
	int status;

	if (userfd < 0)
		return;
	c = fork();
	if (c == 0) {
		char buf[16] = { 0 };
		int fd;

		if (setns(userfd, mntfd == userfd ? CLONE_NEWUSER : 0) < 0) {
			RESULT("%s: setns(its user namespace) = %s", how, RET(-1, errno));
			_exit(0);
		}
		RESULT("%s: setns(its user namespace) = 0", how);
		if (mntfd < 0 || setns(mntfd, CLONE_NEWNS) < 0) {
			RESULT("%s: setns(its mount namespace) = %s", how, RET(-1, errno));
			_exit(1);
		}
		fd = open("/mnt" SECRET_FILE, O_RDONLY);
		RESULT("%s: in its mount namespace, read %s = \"%s\"", how, SECRET_FILE,
		       fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 ? buf : "");
		_exit(1);
	}
	if (c > 0 && waitpid(c, &status, 0) == c && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 1)
		reached++;
}

/* A pidfd of pid from pidfs file handles of nearby ids (pidfs grants
 * them without CAP_DAC_READ_SEARCH): -1 if none. */
static int pidfs_handle(pid_t pid)
{
	struct {
		struct file_handle fh;
		unsigned char buf[64];
	} h = { .fh.handle_bytes = 64 };
	int self = (int)syscall(SYS_pidfd_open, getpid(), 0), mnt;
	unsigned long long id;

	if (self < 0 || name_to_handle_at(self, "", &h.fh, &mnt, AT_EMPTY_PATH) < 0) {
		FACT("pidfs file handles: %s", strerror(errno));
		return -1;
	}
	memcpy(&id, h.fh.f_handle, sizeof(id));
	for (unsigned long long k = 1; k < 4000 && k < id; k++) {
		unsigned long long n = id - k;
		char p[64], text[512];
		int fd, f;
		ssize_t len;

		memcpy(h.fh.f_handle, &n, sizeof(n));
		fd = open_by_handle_at(self, &h.fh, O_RDONLY);
		if (fd < 0)
			continue;
		snprintf(p, sizeof(p), "/proc/self/fdinfo/%d", fd);
		f = open(p, O_RDONLY);
		len = f >= 0 ? read(f, text, sizeof(text) - 1) : -1;
		if (f >= 0)
			close(f);
		text[len > 0 ? len : 0] = '\0';
		snprintf(p, sizeof(p), "\nPid:\t%d\n", (int)pid);
		if (strstr(text, p))
			return fd;
		close(fd);
	}
	return -1;
}

static int attack(const char *dir)
{
	char p[4200];
	int pidfd, fd, mfd;
	long pid;
	FILE *f;
	struct {
		struct file_handle fh;
		unsigned char buf[64];
	} h = { .fh.handle_bytes = 64 };

	snprintf(p, sizeof(p), "%s/userns.info", dir);
	f = fopen(p, "re");
	if (!f || fscanf(f, "%ld", &pid) != 1)
		return adv_verdict(ADV_CANNOT, "no witness (userns.info)");
	fclose(f);
	FACT("uid %d; pid %ld, outside this sandbox, has user, mount and network namespaces of its own",
	     (int)getuid(), pid);
	TRIED("a handle on its namespaces, setns into its user namespace, then its mount namespace");
	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	RESULT("pidfd_open(%ld) = %s", pid, RET(pidfd, errno));
	try_enter("pidfd_open", pidfd, pidfd);
	fd = pidfs_handle((pid_t)pid);
	RESULT("a pidfd from pidfs file handles = %s", fd >= 0 ? "found" : "none");
	try_enter("pidfs handle", fd, fd);
	if (fd >= 0) {
		int u = ioctl(fd, SW_PIDFD_GET_USER_NAMESPACE, 0);
		int m = ioctl(fd, SW_PIDFD_GET_MNT_NAMESPACE, 0);

		RESULT("ioctl(PIDFD_GET_USER_NAMESPACE) = %s", RET(u, errno));
		try_enter("PIDFD_GET_USER_NAMESPACE", u, m);
	}
	snprintf(p, sizeof(p), "/proc/%ld/ns/user", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	RESULT("open(%s) = %s", p, RET(fd, errno));
	snprintf(p, sizeof(p), "/proc/%ld/ns/mnt", pid);
	mfd = open(p, O_RDONLY | O_CLOEXEC);
	try_enter("/proc/PID/ns", fd, mfd);
	mfd = name_to_handle_at(AT_FDCWD, "/proc/self/ns/user", &h.fh, &fd, 0);
	FACT("nsfs file handles (name_to_handle_at of /proc/self/ns/user) = %s (another namespace's by id needs one)",
	     RET(mfd, errno));
	FACT("%d routes entered its mount namespace", reached);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "a namespace of a process outside the sandbox was entered");
	return adv_verdict(ADV_CONTAINED, "no namespace outside entered");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "attack"))
		return attack(argv[2]);
	fprintf(stderr, "usage: adv_userns witness DIR | attack DIR\n");
	return ADV_CANNOT;
}
