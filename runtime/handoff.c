// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What sysward-runtime hands the delegate for a container's process 1
 * (create, run) or for a process exec'd into one: two descriptors, placed
 * right after those the delegate was asked to pass on, and the delegate
 * asked to pass two more (--preserve-fds K+2):
 *
 *   keep = 3 + LISTEN_FDS (create and run, as runc counts them)
 *          + K (--preserve-fds): the descriptors the process keeps
 *   keep      the static sysward, a file of a detached read-only mount,
 *             executed as /proc/self/fd/<keep>
 *   keep + 1  the policy, a sealed memory file (--policy-fd)
 *
 * sysward closes both before its program starts (--keep-fds), so that
 * the program has exactly what runc was asked to give it.
 *
 * Why descriptors (issue 32): runc applies a bundle's linux.maskedPaths
 * after every mount of config.json, binding the container's /dev/null
 * over each, and /dev/null is whatever the bundle makes it (a regular
 * file, when it has no /dev of its own): a policy and a sysward
 * bind-mounted into the container became the bundle's.  A descriptor
 * names the file itself.  The path that executes it goes through the
 * proc mount that config.json gets last (spec.c): masking a directory
 * on the way only makes the start fail, and a mask over the magic link
 * itself is no mask: the kernel mounts nothing on a file of a mount in
 * no namespace, or of a memfd (measured on 6.18: ENOENT, which runc
 * takes for a path not there and skips), and the exec goes on to the
 * descriptor's file.
 *
 * Why read-only and sealed: runc's init holds both descriptors until it
 * executes process 1, and so does every hook it runs (they inherit
 * them), as root in the container; /proc/self/fd/N reopens a file for
 * writing when its inode allows (the host's sysward, mode 0755, root's).
 * A file of a read-only mount cannot be written through any of its
 * descriptors (EROFS), nor can a memory file sealed against writing,
 * shrinking and growing (EPERM).  A read-only clone of the binary's
 * mount costs nothing; a sealed copy of the binary in memory (runc's own
 * way, for runc init) would cost its size for every container's life.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

/* Go's strconv.Atoi: an optional sign, then decimal digits. */
static bool go_atoi(const char *s, long *ret)
{
	char *end;

	if (!s || !*s || !(s[0] == '+' || s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
		return false;
	errno = 0;
	*ret = strtol(s, &end, 10);
	return !errno && !*end && end != s && !(end == s + 1 && (s[0] == '+' || s[0] == '-'));
}

int rt_listen_fds(void)
{
	long pid, n;

	/* runc's create and run: if LISTEN_FDS is not empty, go-systemd's
	 * activation.Files(): the descriptors 3.. when LISTEN_PID is runc's
	 * pid (ours: we execute it) and LISTEN_FDS a positive number. */
	if (!getenv("LISTEN_FDS") || !*getenv("LISTEN_FDS"))
		return 0;
	if (!go_atoi(getenv("LISTEN_PID"), &pid) || pid != getpid())
		return 0;
	if (!go_atoi(getenv("LISTEN_FDS"), &n) || n <= 0)
		return 0;
	return n > RT_MAX_PRESERVE ? -E2BIG : (int)n;
}

int rt_preserve_count(const char *value, int *ret, struct sw_error *err)
{
	char *end;
	long n;

	*ret = 0;
	if (!value)
		return 0;
	/* runc reads it with Go's flag package (strconv.ParseInt, base 0:
	 * also 0x10, 1_0, -1); engines write a plain count. */
	errno = 0;
	n = strtol(value, &end, 10);
	if (errno || end == value || *end || !(value[0] >= '0' && value[0] <= '9') ||
	    n > RT_MAX_PRESERVE)
		return sw_error_set(err, EINVAL,
				    "--preserve-fds %s: sysward-runtime takes a decimal count from 0 to %d",
				    value, RT_MAX_PRESERVE);
	*ret = (int)n;
	return 0;
}

int rt_open_sysward(const char *path, int *ret_fd, struct sw_error *err)
{
	cleanup_close int tree = -1, fd = -1;
	char proc[64];
	int r;

	/* A clone of the mount the binary is on, detached (in no
	 * namespace) and read-only: no descriptor of the file opened
	 * through it writes, truncates, chmods or reopens it for writing
	 * (mnt_want_write(): EROFS), whoever holds one. */
	tree = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0 && (errno == ENOENT || errno == ENOTDIR || errno == EACCES))
		return sw_error_set_errno(err, errno,
					  "open the static sysward %s (SYSWARD_RUNTIME_SYSWARD, sysward-runtime(8))",
					  path);
	if (tree < 0)
		return sw_error_set_errno(err, errno,
					  "make a read-only copy of the mount of the static sysward %s (open_tree; sysward-runtime needs CAP_SYS_ADMIN in its mount namespace's user namespace, as root or rootless Podman has it)",
					  path);
	if (mount_setattr(tree, "", AT_EMPTY_PATH,
			  &(struct mount_attr){ .attr_set = MOUNT_ATTR_RDONLY |
						MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV },
			  sizeof(struct mount_attr)) < 0)
		return sw_error_set_errno(err, errno,
					  "make the copy of the mount of %s read-only (mount_setattr)",
					  path);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", tree);
	fd = open(proc, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "open the static sysward %s", path);
	/* Checked on the very file handed over. */
	r = rt_check_static_fd(fd, path, err);
	if (r < 0)
		return r;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int rt_memfd(const char *name, const char *text, size_t len, bool seal,
	     int *ret_fd, struct sw_error *err)
{
	cleanup_close int fd = memfd_create(name, MFD_CLOEXEC |
					    (seal ? MFD_ALLOW_SEALING : 0));
	size_t off = 0;

	if (fd < 0)
		return sw_error_set_errno(err, errno, "memfd_create for %s", name);
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sw_error_set_errno(err, errno, "write %s into a memfd", name);
		off += (size_t)n;
	}
	if (seal && fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK |
			  F_SEAL_GROW | F_SEAL_SEAL) < 0)
		return sw_error_set_errno(err, errno, "seal the memfd of %s", name);
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* A sealed memory file, as sysward requires for --policy-fd. */
static bool sealed(int fd)
{
	const int want = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW;
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 && (seals & want) == want;
}

int rt_policy_of_init(pid_t pid, int *ret_fd, struct sw_error *err)
{
	char path[64], buf[4096], exe[64];
	const char *arg[64];
	cleanup_close int cfd = -1, fd = -1;
	size_t len = 0, n_arg = 0;
	long policy_fd = -1;
	int keep = -1;

	/* Its command line, as rt_process_wrap() wrote it: sysward's own
	 * memory, which its program cannot write (sysward is no tracee, and
	 * the program's Landlock domain refuses it ptrace-mode access). */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	cfd = open(path, O_RDONLY | O_CLOEXEC);
	if (cfd < 0)
		return sw_error_set_errno(err, errno, "open %s", path);
	while (len < sizeof(buf) - 1) {
		ssize_t n = read(cfd, buf + len, sizeof(buf) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	for (size_t i = 0; i < len && n_arg < sizeof(arg) / sizeof(arg[0]);
	     i += strlen(buf + i) + 1)
		arg[n_arg++] = buf + i;
	if (n_arg >= 2 && sscanf(arg[0], RT_EXE_FMT, &keep) == 1) {
		snprintf(exe, sizeof(exe), RT_EXE_FMT, keep);
		if (strcmp(arg[0], exe) != 0 || strcmp(arg[1], "run") != 0)
			keep = -1;
	}
	for (size_t i = 2; keep >= 0 && i + 1 < n_arg; i++) {
		char *end;

		if (strcmp(arg[i], "--") == 0)
			break;
		if (strcmp(arg[i], "--policy-fd") == 0) {
			policy_fd = strtol(arg[i + 1], &end, 10);
			if (*end || end == arg[i + 1])
				policy_fd = -1;
			break;
		}
	}
	if (keep < 0 || policy_fd < 0)
		return sw_error_set(err, ESRCH,
				    "the container's process 1 (pid %d) is not sysward as this sysward-runtime starts it (not started yet, or started by an older sysward-runtime: recreate the container)",
				    (int)pid);
	snprintf(path, sizeof(path), "/proc/%d/fd/%ld", (int)pid, policy_fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sw_error_set_errno(err, errno,
					  "open the policy of the container's process 1 (%s)",
					  path);
	if (!sealed(fd))
		return sw_error_set(err, EPERM,
				    "%s, the policy of the container's process 1, is not a sealed memory file",
				    path);
	*ret_fd = TAKE_FD(fd);
	return 0;
}

int rt_handoff_place(int *sysward_fd, int *policy_fd, int keep,
		     struct sw_error *err)
{
	int park[2], *fds[2] = { sysward_fd, policy_fd };

	/* Above both slots first: one of ours may sit on the other's. */
	for (int i = 0; i < 2; i++) {
		park[i] = fcntl(*fds[i], F_DUPFD_CLOEXEC, keep + 2);
		if (park[i] < 0)
			return sw_error_set_errno(err, errno,
						  "move a descriptor above %d (the descriptors the delegate passes on end at %d)",
						  keep + 1, keep - 1);
	}
	for (int i = 0; i < 2; i++) {
		close(*fds[i]);
		*fds[i] = -1;
	}
	/* Whatever the caller had there is not among the descriptors it
	 * asked the delegate to pass on (those end below keep). */
	for (int i = 0; i < 2; i++) {
		if (dup2(park[i], keep + i) < 0)
			return sw_error_set_errno(err, errno,
						  "place a descriptor at %d", keep + i);
		close(park[i]);
	}
	return 0;
}

int rt_handoff_argv(struct rt_cmd *c, struct rt_args *a, int id,
		    int count, struct sw_error *err)
{
	char *value;

	if (asprintf(&value, "%d", count + RT_HANDOFF_FDS) < 0)
		return sw_error_set(err, ENOMEM, "out of memory");
	/* argv keeps it until the delegate is executed. */
	return rt_args_set(c, a, id, "preserve-fds", value, err);
}
