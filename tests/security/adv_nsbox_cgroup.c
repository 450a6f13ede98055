// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own cgroup (docs/security.md, route 16c).  cgroupfs
 * files are checked by their mode bits alone (kernfs), with no
 * ptrace-mode check: on a systemd host the uid owns its delegated
 * user@UID.service subtree, and a capability-less root owns every
 * cgroup.  So a confined program could kill (cgroup.kill), freeze
 * (cgroup.freeze, v1 freezer.state), move (cgroup.procs, v1 tasks) and
 * limit (pids.max, cgroup.max.descendants) a same-uid process outside its
 * session, by the cgroup's path; and, in a user and cgroup namespace of
 * its own, through a cgroup2 or v1 mount it makes itself.
 *
 *   adv_nsbox_cgroup attack PID CGPATH TRAP DIR [CTRL:PATH...]   under sysward:
 *       PID is the witness, in the cgroup2 cgroup CGPATH (its path from
 *       the cgroup2 root); TRAP a cgroup2 cgroup to move it into; each
 *       CTRL:PATH a v1 hierarchy (pids, freezer) and its cgroup there.
 *       Every write is tried through every cgroup mount the program
 *       sees, then again through mounts it makes in a user, mount and
 *       cgroup namespace of its own (DIR: a directory to mount on).
 *       Contained when no write succeeded; the caller checks the
 *       witness from outside too.
 *   adv_nsbox_cgroup own [write]   under sysward (control): its own cgroup, as
 *       /proc/self/cgroup names it under the cgroup2 mount it sees, lists
 *       it and reads; with "write", a sub-cgroup it makes takes a child
 *       of its own and goes away.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "adv.h"

static int reached;

/* Write s to path: one line of result. */
static void try_write(const char *how, const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;
	int e;

	if (fd >= 0) {
		n = write(fd, s, strlen(s));
		e = errno;
		close(fd);
	} else {
		e = errno;
	}
	if (n >= 0) {
		reached++;
		RESULT("%s: write \"%s\" to %s: REACHED", how, s, path);
	} else {
		RESULT("%s: write \"%s\" to %s: %s", how, s, path, RET(-1, e));
	}
}

/* Every mount of type fstype this process sees: point and root. */
struct mnt {
	char point[512], root[512], opts[256];
};

static int mounts_of(const char *fstype, struct mnt *out, int max)
{
	char line[2048];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		char root[512], point[512], type[64], src[256], sopts[256];
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*d %*d %*s %511s %511s", root, point) != 2 ||
		    sscanf(dash + 3, "%63s %255s %255s", type, src, sopts) != 3 ||
		    strcmp(type, fstype))
			continue;
		snprintf(out[n].point, sizeof(out[n].point), "%s", point);
		snprintf(out[n].root, sizeof(out[n].root), "%s", root);
		snprintf(out[n].opts, sizeof(out[n].opts), "%s", sopts);
		n++;
	}
	fclose(f);
	return n;
}

/* The v2 writes at mount point m (root "/" of the cgroup2 tree, as
 * the paths are given). */
static void v2_writes(const char *how, const char *m, const char *cg,
		      const char *trap, const char *pid)
{
	static const struct {
		const char *file, *value;
	} limits[] = {
		{ "cgroup.max.descendants", "0" },
		{ "pids.max", "1" },
		{ "memory.max", "1M" },
	};
	char p[2048];

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		snprintf(p, sizeof(p), "%s%s/%s", m, cg, limits[i].file);
		if (i > 0 && access(p, F_OK) < 0 && errno == ENOENT)
			continue;	/* no such controller here */
		try_write(how, p, limits[i].value);
	}
	snprintf(p, sizeof(p), "%s%s/cgroup.freeze", m, cg);
	try_write(how, p, "1");
	snprintf(p, sizeof(p), "%s%s/cgroup.procs", m, trap);
	try_write(how, p, pid);
	snprintf(p, sizeof(p), "%s%s/cgroup.kill", m, cg);
	try_write(how, p, "1");
}

/* "ctrl:path" into ctrl: path, or NULL. */
static const char *v1_split(const char *arg, char ctrl[32])
{
	const char *path = strchr(arg, ':');

	if (path)
		snprintf(ctrl, 32, "%.*s", (int)(path - arg), arg);
	return path ? path + 1 : NULL;
}

/* ctrl:path: pids.max, freezer.state and tasks of a v1 cgroup. */
static void v1_writes(const char *how, const char *m, const char *ctrl,
		      const char *cg, const char *pid)
{
	char p[2048];

	if (!strcmp(ctrl, "pids")) {
		snprintf(p, sizeof(p), "%s%s/pids.max", m, cg);
		try_write(how, p, "1");
	} else if (!strcmp(ctrl, "freezer")) {
		snprintf(p, sizeof(p), "%s%s/freezer.state", m, cg);
		try_write(how, p, "FROZEN");
	}
	snprintf(p, sizeof(p), "%s/tasks", m);
	try_write(how, p, pid);
}

/* Through the mounts this process sees: the cgroup2 ones, and the v1
 * ones of each CTRL:PATH.  A mount whose root is not "/" (a cgroup
 * namespace's) is tried all the same: the path simply is not there. */
static void through_mounts(const char *how, const char *pid, const char *cg,
			   const char *trap, int nv1, char **v1)
{
	struct mnt m[16];
	int n = mounts_of("cgroup2", m, 16);

	for (int i = 0; i < n; i++) {
		TRIED("%s: cgroup2 at %s (root %s): limit, freeze, move and kill the witness's cgroup %s",
		      how, m[i].point, m[i].root, cg);
		v2_writes(how, m[i].point, cg, trap, pid);
	}
	n = mounts_of("cgroup", m, 16);
	for (int k = 0; k < nv1; k++) {
		char ctrl[32];
		const char *path = v1_split(v1[k], ctrl);

		for (int i = 0; path && i < n; i++) {
			char want[40];

			snprintf(want, sizeof(want), ",%s", ctrl);
			if (!strstr(m[i].opts, want))
				continue;
			TRIED("%s: cgroup v1 %s at %s (root %s): limit or freeze %s, move the witness",
			      how, ctrl, m[i].point, m[i].root, path);
			v1_writes(how, m[i].point, ctrl, path, pid);
		}
	}
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? write(fd, s, strlen(s)) : -1;

	if (fd >= 0)
		close(fd);
	return n < 0 ? -1 : 0;
}

/* A child in a user, mount and cgroup namespace of its own (uid 0
 * there: the program's uid outside) mounts cgroup2 and each v1 hierarchy
 * named on DIR and tries again.  The new cgroup namespace is rooted at
 * the cgroup the program is in: its own session's, or the launcher's. */
static int through_own_mounts(const char *pid, const char *cg, const char *trap,
			      const char *dir, int nv1, char **v1)
{
	int st, p[2];
	pid_t c;

	if (pipe(p) < 0)
		return -1;
	c = fork();
	if (c == 0) {
		char map[64];
		uid_t uid = getuid();
		gid_t gid = getgid();

		close(p[0]);
		dup2(p[1], STDOUT_FILENO);
		TRIED("unshare(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWCGROUP), map uid 0 to %u, mount cgroup2 and v1 on %s",
		      (unsigned)uid, dir);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP) < 0) {
			RESULT("own namespaces: unshare: %s", RET(-1, errno));
			_exit(0);
		}
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)uid);
		if (write_file("/proc/self/uid_map", map) < 0) {
			RESULT("own namespaces: uid_map: %s (a capability-less root cannot map uid 0: CAP_SETFCAP)",
			       RET(-1, errno));
			_exit(0);
		}
		write_file("/proc/self/setgroups", "deny");
		snprintf(map, sizeof(map), "0 %u 1", (unsigned)gid);
		write_file("/proc/self/gid_map", map);
		mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
		if (mount("none", dir, "cgroup2", 0, NULL) < 0) {
			RESULT("own namespaces: mount cgroup2: %s", RET(-1, errno));
		} else {
			TRIED("own cgroup2 mount: limit, freeze, move and kill the witness's cgroup %s", cg);
			v2_writes("own cgroup2", dir, cg, trap, pid);
			/* Its root is its own cgroup: move the witness in. */
			{
				char path[1024];

				snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
				try_write("own cgroup2", path, pid);
			}
			umount2(dir, MNT_DETACH);
		}
		for (int k = 0; k < nv1; k++) {
			char ctrl[32];
			const char *path = v1_split(v1[k], ctrl);

			if (!path)
				continue;
			if (mount("none", dir, "cgroup", 0, ctrl) < 0) {
				RESULT("own namespaces: mount cgroup v1 %s: %s", ctrl, RET(-1, errno));
				continue;
			}
			TRIED("own cgroup v1 %s mount: limit or freeze %s, move the witness", ctrl, path);
			v1_writes("own v1", dir, ctrl, path, pid);
			umount2(dir, MNT_DETACH);
		}
		_exit(0);
	}
	close(p[1]);
	{
		char buf[4096];
		ssize_t n;

		/* Its lines, counted here: "REACHED" in any is a reach. */
		while ((n = read(p[0], buf, sizeof(buf) - 1)) > 0) {
			buf[n] = '\0';
			for (char *s = buf; (s = strstr(s, ": REACHED")); s++)
				reached++;
			(void)!write(STDOUT_FILENO, buf, (size_t)n);
		}
	}
	close(p[0]);
	waitpid(c, &st, 0);
	return 0;
}

static int attack(int argc, char **argv)
{
	const char *pid = argv[2], *cg = argv[3], *trap = argv[4], *dir = argv[5];

	through_mounts("as mounted", pid, cg, trap, argc - 6, argv + 6);
	through_own_mounts(pid, cg, trap, dir, argc - 6, argv + 6);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "a cgroup outside the session was written");
	return adv_verdict(ADV_CONTAINED, "no cgroup outside the session written");
}

/* The directory of this process's cgroup2 cgroup under the mount it
 * sees, from /proc/self/cgroup and the mount's root: the last such mount
 * listed (an earlier one at the same place is covered). */
static int own_dir(char *out, size_t n)
{
	char line[1024], path[1024] = "";
	struct mnt m[16];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int found = -1, k;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s", line + 3);
		}
	fclose(f);
	FACT("/proc/self/cgroup: 0::%s", path);
	k = path[0] ? mounts_of("cgroup2", m, 16) : 0;
	for (int i = 0; i < k; i++) {
		size_t rl = strcmp(m[i].root, "/") ? strlen(m[i].root) : 0;

		if (!strncmp(path, m[i].root, rl) && (path[rl] == '/' || !path[rl]))
			found = i;
	}
	if (found < 0)
		return -1;	/* not beneath a mount: no path to it */
	{
		size_t rl = strcmp(m[found].root, "/") ? strlen(m[found].root) : 0;

		snprintf(out, n, "%s%s", m[found].point, path + rl);
	}
	return 0;
}

/* A cgroup.procs text lists pid. */
static bool lists(const char *procs, pid_t pid)
{
	for (const char *s = procs; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] != '\0'))
		if (atoi(s) == pid)
			return true;
	return false;
}

static int own(bool wr)
{
	static const char *const files[] = { "cgroup.stat", "cpu.stat",
		"memory.current", "pids.current" };
	char dir[2048], p[2100], buf[4096], me[32];
	int fd, fails = 0;
	ssize_t n;

	if (own_dir(dir, sizeof(dir)) < 0)
		return adv_verdict(ADV_CANNOT, "no cgroup2 mount that shows this process's cgroup");
	TRIED("read its own cgroup %s", dir);
	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (n < 0 || !lists(buf, getpid())) {
		RESULT("own cgroup.procs: does not list pid %d", (int)getpid());
		fails++;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && i > 0 && errno == ENOENT)
			continue;	/* no such controller here */
		n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			RESULT("own %s: %s", files[i], RET(-1, errno));
			fails++;
		} else {
			buf[n] = '\0';
			RESULT("own %s: %.*s", files[i], (int)strcspn(buf, "\n"), buf);
		}
	}
	if (wr) {
		pid_t c;
		int st;

		TRIED("make a sub-cgroup of its own, move a child of its own there, remove it");
		snprintf(p, sizeof(p), "%s/sysward-own-sub", dir);
		if (mkdir(p, 0755) < 0) {
			RESULT("own mkdir %s: %s", p, RET(-1, errno));
			fails++;
		} else {
			c = fork();
			if (c == 0) {
				pause();
				_exit(0);
			}
			snprintf(p, sizeof(p), "%s/sysward-own-sub/cgroup.procs", dir);
			snprintf(me, sizeof(me), "%d", (int)c);
			if (write_file(p, me) < 0) {
				RESULT("own move: %s", RET(-1, errno));
				fails++;
			}
			kill(c, SIGKILL);
			waitpid(c, &st, 0);
			snprintf(p, sizeof(p), "%s/sysward-own-sub", dir);
			if (rmdir(p) < 0) {
				RESULT("own rmdir: %s", RET(-1, errno));
				fails++;
			}
		}
	}
	if (fails)
		return adv_verdict(ADV_ESCAPED, "the program's own cgroup does not work as it did");
	printf("control: own cgroup works\n");
	return adv_verdict(ADV_CONTAINED, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 6 && !strcmp(argv[1], "attack"))
		return attack(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "own"))
		return own(argc > 2 && !strcmp(argv[2], "write"));
	fprintf(stderr, "usage: adv_nsbox_cgroup attack PID CGPATH TRAP DIR [CTRL:PATH...] | own [write]\n");
	return 2;
}
