// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The client's context (sw_launch.client, syswardd): a program started
 * for a client runs where and as the client would have run it, never
 * with the daemon's context: the client's namespaces, root directory,
 * cgroups, resource limits, scheduling, CPUs, I/O priority, OOM score,
 * core dump filter, audit login uid, personality and THP setting; and a
 * client whose restrictions the daemon cannot carry over (a seccomp
 * filter, a Landlock domain: clientprobe.c, another LSM label) is
 * refused.  docs/security.md, route 14,
 * has the table of every per-process state and what the program gets.
 *
 * Two halves.  sw_client_read(), in the daemon on any thread but its
 * event loop (a /proc read of a process can wait: its personality waits
 * for an exec in progress), with the client pinned by a pidfd: what to
 * carry over, read from /proc/<pid> and a few syscalls that take a pid,
 * and the descriptors that name the client's namespaces, root and
 * cgroups; then the pidfd is checked to be alive, so the pid was the
 * client's throughout.  The launch child then takes it, async-signal-
 * safe, at three points the kernel sets:
 *
 *   sw_client_enter_pidns()  in the holder before it forks the program:
 *                            setns(CLONE_NEWPID) applies to children
 *                            only (kernel/nsproxy.c, pidns_install());
 *   sw_client_enter()        the join point, in the program's process,
 *                            before anything the session makes for itself
 *                            (its own /proc, procns.c): everything else
 *                            but the user namespace;
 *   sw_client_enter_user()   after its uid and gid are the client's:
 *                            the user namespace, last, because once in
 *                            it the process has capabilities only over
 *                            what that namespace owns, and the steps
 *                            before (cgroup moves, the session's mounts,
 *                            its supplementary groups: setgroups is denied
 *                            in a namespace whose setgroups file says
 *                            "deny") need the daemon's; and a session
 *                            keyring of its own, empty, instead of the
 *                            daemon's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/proc.h"
#include "internal.h"
#include "contain/clientctx.h"
#include "contain/clientprobe.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef KEYCTL_GET_KEYRING_ID
#define KEYCTL_GET_KEYRING_ID 0
#endif
#ifndef KEY_SPEC_SESSION_KEYRING
#define KEY_SPEC_SESSION_KEYRING -3
#endif
#ifndef KEYCTL_JOIN_SESSION_KEYRING
#define KEYCTL_JOIN_SESSION_KEYRING 1
#endif
#define IOPRIO_WHO_PROCESS 1

/*
 * The namespaces, each as /proc/<pid>/ns shows it and as setns(2) takes
 * it.  For pid and time the namespace the client's children get (what
 * its program would be in after unshare(CLONE_NEWPID) and no fork yet),
 * compared with the one ours get.  In the order sw_client_enter() joins
 * them: the mount namespace first (its root, then the client's, is where
 * every path below resolves), the user namespace last (see above).
 */
static const struct {
	const char *name;	/* under /proc/<pid>/ns */
	int flag;
} ns_table[SW_CLIENT_NS_COUNT] = {
	[SW_CLIENT_NS_MNT] = { "mnt", CLONE_NEWNS },
	[SW_CLIENT_NS_NET] = { "net", CLONE_NEWNET },
	[SW_CLIENT_NS_IPC] = { "ipc", CLONE_NEWIPC },
	[SW_CLIENT_NS_UTS] = { "uts", CLONE_NEWUTS },
	[SW_CLIENT_NS_CGROUP] = { "cgroup", CLONE_NEWCGROUP },
	[SW_CLIENT_NS_TIME] = { "time_for_children", CLONE_NEWTIME },
	[SW_CLIENT_NS_PID] = { "pid_for_children", CLONE_NEWPID },
	[SW_CLIENT_NS_USER] = { "user", CLONE_NEWUSER },
};

/* /proc/<pid>/limits' rows, in RLIMIT_* order (fs/proc/base.c lnames[]). */
#define N_LIMITS 16

void sw_client_free(struct sw_client *c)
{
	if (!c)
		return;
	for (int i = 0; i < SW_CLIENT_FDS; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	if (c->pidfd >= 0)
		close(c->pidfd);
	for (size_t i = 0; i < c->n_cgroups; i++)
		free(c->cgroup_name[i]);
	free(c);
}

/* ---- reading, in the daemon ------------------------------------------- */

static bool same_file(const char *a, const char *b, bool *ret)
{
	struct statx sa, sb;

	if (statx(AT_FDCWD, a, 0, STATX_INO | STATX_MNT_ID, &sa) < 0 ||
	    statx(AT_FDCWD, b, 0, STATX_INO | STATX_MNT_ID, &sb) < 0)
		return false;
	*ret = sa.stx_dev_major == sb.stx_dev_major &&
	       sa.stx_dev_minor == sb.stx_dev_minor && sa.stx_ino == sb.stx_ino &&
	       sa.stx_mnt_id == sb.stx_mnt_id;
	return true;
}

static bool have_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { 0 };

	return syscall(SYS_capget, &h, d) == 0 &&
	       (d[cap / 32].effective & (1u << (cap % 32)));
}

/*
 * How many seccomp filters a client of ours may have and still get no
 * more from us than it has: ours, where it shares our user, pid and
 * mount namespaces (a container both run in: every process of one
 * descends from its init or was started by its runtime's exec, each
 * under the container's filter, and can only add filters), else 0.
 * Our program inherits our filters, all of them (fork copies the
 * chain, kernel/seccomp.c), so such a client's are ours: the count is
 * what can be told from outside (/proc/PID/status; reading the filters
 * themselves, PTRACE_SECCOMP_GET_FILTER, needs CAP_SYS_ADMIN, which a
 * container's root lacks).  A client that added a filter of its own
 * has more than ours, and is refused.
 */
static long own_filters_shared_with(pid_t pid)
{
	static const char *const shared[] = { "user", "pid", "mnt" };
	char status[SW_PROC_TEXT_MAX];
	long mode = 0, n = 0;

	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		char theirs[64], mine[64];
		bool same = false;

		snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", (int)pid, shared[i]);
		snprintf(mine, sizeof(mine), "/proc/self/ns/%s", shared[i]);
		if (!same_file(theirs, mine, &same) || !same)
			return 0;
	}
	if (sw_proc_read("/proc/self/status", status, sizeof(status)) < 0 ||
	    !sw_proc_number(status, "Seccomp", 10, 0, &mode) || mode != 2 ||
	    !sw_proc_number(status, "Seccomp_filters", 10, 0, &n))
		return 0;
	return n;
}

/* Refusals: what a program started by the daemon could not keep. */
static int read_restrictions(struct sw_client *c, struct sw_error *err)
{
	char path[64], status[SW_PROC_TEXT_MAX], mine[256], theirs[256];
	ssize_t a, b;
	long v = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)c->pid);
	if ((a = sw_proc_read(path, status, sizeof(status))) < 0)
		return sw_error_set_errno(err, (int)-a, "read %s", path);
	/*
	 * A seccomp filter is inherited by every child and cannot be
	 * removed (kernel/seccomp.c): the client's program would run under
	 * it.  Ours is made by a daemon outside it, and copying the filters
	 * (PTRACE_SECCOMP_GET_FILTER) would not carry their meaning: a
	 * SECCOMP_RET_TRACE or USER_NOTIF of the client's would reach our
	 * supervisor or no listener at all.  So refuse, and say how to run
	 * it under the filter.
	 */
	if (sw_proc_number(status, "Seccomp", 10, 0, &v) && v != 0) {
		long n = 0;

		sw_proc_number(status, "Seccomp_filters", 10, 0, &n);
		c->seccomp_filters = n;
		if (v == 2 && n <= own_filters_shared_with(c->pid))
			goto label;
		return sw_error_set(err, EPERM,
			"pid %d runs under %s (%s: Seccomp %ld, %ld filter%s), which its "
			"program would inherit and a daemon cannot carry over; run the "
			"program embedded (sysward run without --daemon), where it "
			"inherits the filter",
			(int)c->pid, v == 1 ? "seccomp's strict mode" : "a seccomp filter",
			path, v, n, n == 1 ? "" : "s");
	}
label:
	/*
	 * THP_enabled is 0 for everyone on a kernel without transparent
	 * huge pages (task_thp_status(), fs/proc/array.c): there, where
	 * ours reads 0 too though we never disabled them, it says nothing
	 * and the program keeps what the daemon has.
	 */
	if (!sw_proc_number(status, "THP_enabled", 10, 0, &v))
		v = 1;
	c->thp_disable = v == 0;
	if (c->thp_disable && prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0) {
		char self[SW_PROC_TEXT_MAX];
		long ours = 1;

		if (sw_proc_read("/proc/self/status", self, sizeof(self)) >= 0 &&
		    sw_proc_number(self, "THP_enabled", 10, 0, &ours) && ours == 0)
			c->thp_disable = false;
	}
	/*
	 * The label of a labelling LSM (SELinux, AppArmor, Smack) says what
	 * the client may do; a program run by the daemon would have the
	 * daemon's.  Applying the client's (attr/exec) is what that LSM's
	 * own rules for a transition decide, not ours: refuse unless the
	 * two are the same.  EINVAL: no such LSM is active (attr/current).
	 */
	snprintf(path, sizeof(path), "/proc/%d/attr/current", (int)c->pid);
	a = sw_proc_read(path, theirs, sizeof(theirs));
	b = sw_proc_read("/proc/self/attr/current", mine, sizeof(mine));
	if ((a < 0) != (b < 0) || (a >= 0 && strcmp(mine, theirs) != 0)) {
		theirs[strcspn(theirs, "\n")] = '\0';
		mine[strcspn(mine, "\n")] = '\0';
		return sw_error_set(err, EPERM,
			"pid %d has the LSM label \"%s\" and syswardd \"%s\" (%s): a "
			"program the daemon starts would have the daemon's, not the "
			"client's; run the program embedded (sysward run without "
			"--daemon), or start the daemon with the client's label",
			(int)c->pid, a < 0 ? "(none)" : theirs, b < 0 ? "(none)" : mine,
			path);
	}
	return 0;
}

static int read_namespaces(struct sw_client *c, bool privileged,
			   struct sw_error *err)
{
	for (int i = 0; i < SW_CLIENT_NS_COUNT; i++) {
		char theirs[64], mine[64];
		bool same = false;

		snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", (int)c->pid,
			 ns_table[i].name);
		snprintf(mine, sizeof(mine), "/proc/self/ns/%s", ns_table[i].name);
		/* A kernel without the namespace type has no link for us
		 * either: nothing to join. */
		if (access(mine, F_OK) < 0 && errno == ENOENT)
			continue;
		if (!same_file(theirs, mine, &same))
			return sw_error_set_errno(err, errno,
				"compare the client's %s namespace (%s) with syswardd's%s",
				ns_table[i].name, theirs, errno == EACCES || errno == EPERM
				? " (a client holding capabilities the daemon lacks cannot "
				  "be read: run it embedded)" : "");
		if (same)
			continue;
		if (!privileged)
			return sw_error_set(err, EPERM,
				"pid %d is in another %s namespace than syswardd, which "
				"cannot join it without CAP_SYS_ADMIN; run the program "
				"embedded (sysward run without --daemon), or ask the "
				"system daemon", (int)c->pid, ns_table[i].name);
		c->fd[SW_CLIENT_FD_NS + i] = open(theirs, O_RDONLY | O_CLOEXEC);
		if (c->fd[SW_CLIENT_FD_NS + i] < 0)
			return sw_error_set_errno(err, errno, "open %s", theirs);
	}
	return 0;
}

/* Its root directory, if it is not ours: a chroot(2), or another mount
 * namespace (whose root setns() enters; the client's may be below it). */
static int read_root(struct sw_client *c, bool privileged, struct sw_error *err)
{
	char path[64];
	bool same = false;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)c->pid);
	if (!same_file(path, "/proc/self/root", &same))
		return sw_error_set_errno(err, errno, "read the client's root directory (%s)", path);
	if (same && c->fd[SW_CLIENT_FD_NS + SW_CLIENT_NS_MNT] < 0)
		return 0;
	if (!privileged)
		return sw_error_set(err, EPERM,
			"pid %d has another root directory than syswardd, which cannot "
			"enter it without CAP_SYS_CHROOT; run the program embedded",
			(int)c->pid);
	c->fd[SW_CLIENT_FD_ROOT] = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->fd[SW_CLIENT_FD_ROOT] < 0)
		return sw_error_set_errno(err, errno, "open the client's root directory (%s)", path);
	/* The session's own namespaces (nsbox.c) turn every mount of its
	 * copy of this mount namespace into a slave, from its root, so that
	 * what it mounts never propagates to the client's or the host's:
	 * MS_SLAVE takes a mount's root (fs/namespace.c, do_change_type(),
	 * EINVAL else), and a chroot into a plain directory has none there. */
	{
		struct statx st;

		if (statx(c->fd[SW_CLIENT_FD_ROOT], "", AT_EMPTY_PATH,
			  STATX_BASIC_STATS, &st) < 0)
			return sw_error_set_errno(err, errno, "read the client's root directory (%s)", path);
		if ((st.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
		    !(st.stx_attributes & STATX_ATTR_MOUNT_ROOT))
			return sw_error_set(err, EPERM,
				"pid %d's root directory is no mount point, so syswardd cannot give "
				"its program the namespaces of a session of its own there; make it "
				"one (mount --bind DIR DIR before chroot DIR, as container runtimes "
				"do) or run the program embedded", (int)c->pid);
	}
	/* procns.c must plan over its mounts, seen from its root. */
	snprintf(c->mountinfo, sizeof(c->mountinfo), "/proc/%d/mountinfo", (int)c->pid);
	return 0;
}

/* One line "N:controllers:path" of a /proc/<pid>/cgroup. */
struct cg_line {
	long id;
	char ctl[256];
	char path[4096];
};

static bool cg_parse(char *line, struct cg_line *ret)
{
	char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;

	if (!b)
		return false;
	*a = *b = '\0';
	ret->id = strtol(line, NULL, 10);
	snprintf(ret->ctl, sizeof(ret->ctl), "%s", a + 1);
	snprintf(ret->path, sizeof(ret->path), "%s", b + 1);
	ret->path[strcspn(ret->path, "\n")] = '\0';
	return true;
}

/* Does a cgroup v1 mount's super options (",rw,cpu,cpuacct") name every
 * controller of ctl ("cpu,cpuacct", "name=systemd")? */
static bool cg_mount_has(const char *opts, const char *ctl)
{
	char copy[256], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", ctl);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char want[280];
		const char *p;
		size_t n;

		n = (size_t)snprintf(want, sizeof(want), ",%s", t);
		for (p = strstr(opts, want); p; p = strstr(p + 1, want))
			if (p[n] == ',' || p[n] == '\0' || p[n] == '\n' || p[n] == ' ')
				break;
		if (!p)
			return false;
	}
	return true;
}

/* Where our mount namespace shows the hierarchy of l: its directory for
 * l->path, in buf.  -ENOENT if no mount shows it. */
static int cg_dir(const struct cg_line *l, char *buf, size_t size)
{
	cleanup_fclose FILE *f = fopen("/proc/self/mountinfo", "re");
	cleanup_free char *line = NULL;
	size_t cap = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char root[4096], point[4096], fstype[64], opts[1024];
		const char *dash = strstr(line, " - ");
		size_t rl;

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, opts + 1) != 2)
			continue;
		opts[0] = ',';
		if (l->id == 0 ? strcmp(fstype, "cgroup2") != 0
			       : strcmp(fstype, "cgroup") != 0 || !cg_mount_has(opts, l->ctl))
			continue;
		/* The mount shows its hierarchy from root on (a cgroup
		 * namespace's, or a bind mount of a subtree). */
		rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
		if (strncmp(l->path, root, rl) != 0 ||
		    (l->path[rl] != '/' && l->path[rl] != '\0'))
			continue;
		if ((size_t)snprintf(buf, size, "%s%s", point, l->path + rl) >= size)
			return -ENAMETOOLONG;
		return 0;
	}
	return -ENOENT;
}

/*
 * Its cgroup in each hierarchy (v2, and every v1 one) where it is not in
 * ours, as its /proc/<pid>/cgroup shows it to us (paths from our cgroup
 * namespace's root), found beneath our mounts of that hierarchy.  A
 * hierarchy we do not mount, or a path outside our view ("/.."), would
 * leave the program in our cgroup there, maybe one without the
 * client's limits: refused.
 */
static int read_cgroups(struct sw_client *c, struct sw_error *err)
{
	char path[64];
	cleanup_fclose FILE *theirs = NULL;
	cleanup_free char *line = NULL, *mine = NULL;
	size_t cap = 0;

	{
		cleanup_fclose FILE *f = fopen("/proc/self/cgroup", "re");
		size_t n = 0;

		/* A kernel without cgroups (CONFIG_CGROUPS=n) has no such
		 * file, for us or the client: no hierarchy to join. */
		if (!f && errno == ENOENT)
			return 0;
		if (!f || getdelim(&mine, &n, '\0', f) < 0)
			return sw_error_set_errno(err, errno ? errno : EIO,
						  "read /proc/self/cgroup");
	}
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)c->pid);
	theirs = fopen(path, "re");
	if (!theirs)
		return sw_error_set_errno(err, errno, "open %s", path);
	while (getline(&line, &cap, theirs) > 0) {
		struct cg_line l, o;
		char dir[4096], *ours, *copy;
		bool same = false;
		int r;

		if (!cg_parse(line, &l))
			continue;
		/* Our line of the same hierarchy. */
		copy = strdup(mine);
		if (!copy)
			return sw_error_set_errno(err, ENOMEM, "read cgroups");
		for (char *s = copy, *e; s && *s; s = e ? e + 1 : NULL) {
			e = strchr(s, '\n');
			if (e)
				*e = '\0';
			if (cg_parse(s, &o) && o.id == l.id) {
				same = strcmp(o.path, l.path) == 0;
				break;
			}
		}
		free(copy);
		if (same)
			continue;
		if (strstr(l.path, "/..") || l.path[0] != '/')
			return sw_error_set(err, EPERM,
				"pid %d is in the cgroup %ld:%s:%s, outside what syswardd's "
				"cgroup namespace shows: a program started for it would not "
				"be in the client's cgroup; run it embedded",
				(int)c->pid, l.id, l.ctl, l.path);
		r = cg_dir(&l, dir, sizeof(dir));
		if (r < 0)
			return sw_error_set_errno(err, -r,
				"find the client's cgroup %ld:%s:%s beneath syswardd's "
				"cgroup mounts (a program started for it must be in it, "
				"and a hierarchy the daemon does not mount cannot be "
				"joined; run it embedded)", l.id, l.ctl, l.path);
		if (c->n_cgroups >= SW_CLIENT_CGROUPS)
			return sw_error_set(err, E2BIG,
				"pid %d is in more than %d cgroup hierarchies", (int)c->pid,
				SW_CLIENT_CGROUPS);
		ours = NULL;
		if (asprintf(&ours, "%ld:%s:%s", l.id, l.ctl, l.path) < 0)
			return sw_error_set_errno(err, ENOMEM, "read cgroups");
		c->cgroup_name[c->n_cgroups] = ours;
		c->fd[SW_CLIENT_FD_CGROUP + c->n_cgroups] =
			open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->fd[SW_CLIENT_FD_CGROUP + c->n_cgroups] < 0)
			return sw_error_set_errno(err, errno, "open the client's cgroup %s", dir);
		c->n_cgroups++;
	}
	return 0;
}

static int read_limits(struct sw_client *c, struct sw_error *err)
{
	char path[64], text[4096], *save = NULL, *l;
	ssize_t n;
	int i = -1;

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)c->pid);
	if ((n = sw_proc_read(path, text, sizeof(text))) < 0)
		return sw_error_set_errno(err, (int)-n, "read %s", path);
	/* A header, then a row per limit: its name in 26 columns, then the
	 * soft and hard values. */
	for (l = strtok_r(text, "\n", &save); l && i < N_LIMITS;
	     l = strtok_r(NULL, "\n", &save), i++) {
		char soft[32], hard[32];

		if (i < 0)
			continue;
		if (strlen(l) < 26 || sscanf(l + 26, "%31s %31s", soft, hard) != 2)
			return sw_error_set(err, EBADMSG, "read %s: row %d unreadable", path, i);
		c->rlim[i].rlim_cur = strcmp(soft, "unlimited") == 0
			? RLIM_INFINITY : strtoull(soft, NULL, 10);
		c->rlim[i].rlim_max = strcmp(hard, "unlimited") == 0
			? RLIM_INFINITY : strtoull(hard, NULL, 10);
	}
	if (i != N_LIMITS)
		return sw_error_set(err, EBADMSG, "read %s: %d limits, expected %d",
				    path, i, N_LIMITS);
	return 0;
}

/* A small number from /proc/<pid>/name in base; absent files (no
 * CONFIG_AUDIT: loginuid) leave *ret and say false. */
static int read_number(pid_t pid, const char *name, int base, long long *ret,
		       struct sw_error *err)
{
	char path[64], text[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	n = sw_proc_read(path, text, sizeof(text));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return sw_error_set_errno(err, (int)-n, "read %s", path);
	*ret = strtoll(text, NULL, base);
	return 1;
}

static int read_process(struct sw_client *c, struct sw_error *err)
{
	long long v, mine;
	int r;

	/* Scheduling: what the client's fork would give its child
	 * (kernel/sched/core.c, sched_fork()): with SCHED_RESET_ON_FORK a
	 * real-time or deadline policy becomes SCHED_NORMAL and a negative
	 * nice 0, and the flag is not inherited; a deadline task cannot
	 * fork at all, so its program runs SCHED_NORMAL too. */
	c->policy = sched_getscheduler(c->pid);
	if (c->policy < 0 || sched_getparam(c->pid, &c->sched) < 0)
		return sw_error_set_errno(err, errno, "read the client's scheduling policy");
	c->nice_reset = c->policy & SCHED_RESET_ON_FORK;
	c->policy &= ~SCHED_RESET_ON_FORK;
	if (c->policy == SCHED_DEADLINE ||
	    (c->nice_reset && (c->policy == SCHED_FIFO || c->policy == SCHED_RR))) {
		c->policy = SCHED_OTHER;
		c->sched.sched_priority = 0;
	}
	if (sched_getaffinity(c->pid, sizeof(c->cpus), &c->cpus) < 0)
		return sw_error_set_errno(err, errno, "read the client's CPU affinity");
	/* No I/O priorities without a block layer (CONFIG_BLOCK): -1. */
	c->ioprio = (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, c->pid);
	if (c->ioprio < 0 && errno != ENOSYS)
		return sw_error_set_errno(err, errno, "read the client's I/O priority");
	c->oom_score_adj = 0;
	if ((r = read_number(c->pid, "oom_score_adj", 10, &v, err)) < 0)
		return r;
	c->oom_score_adj = r ? (int)v : 0;
	if ((r = read_number(getpid(), "oom_score_adj", 10, &mine, err)) < 0)
		return r;
	c->oom_set = r && mine != c->oom_score_adj;
	if ((r = read_number(c->pid, "coredump_filter", 16, &v, err)) < 0)
		return r;
	c->coredump_filter = (unsigned long)v;
	if ((r = read_number(getpid(), "coredump_filter", 16, &mine, err)) < 0)
		return r;
	c->coredump_set = r && (unsigned long)mine != c->coredump_filter;
	if ((r = read_number(c->pid, "loginuid", 10, &v, err)) < 0)
		return r;
	c->loginuid = (uint32_t)v;
	if (r && (r = read_number(getpid(), "loginuid", 10, &mine, err)) < 0)
		return r;
	c->loginuid_set = r && (uint32_t)mine != c->loginuid;
	if ((r = read_number(c->pid, "personality", 16, &v, err)) < 0)
		return r;
	c->personality = r ? (unsigned long)v : PER_LINUX;
	return 0;
}

int sw_client_alive(const struct sw_client *c, struct sw_error *err)
{
	/* If the process the pidfd names lives now, it lived all along:
	 * every /proc/<pid> read so far was its own (peer.c). */
	if (syscall(SYS_pidfd_send_signal, c->pidfd, 0, NULL, 0) == 0 || errno == EPERM)
		return 0;
	return sw_error_set(err, ESRCH,
		"the client (pid %d) exited while syswardd read its context",
		(int)c->pid);
}

int sw_client_read(int pidfd, pid_t pid, uid_t uid, gid_t gid,
		   struct sw_client **ret, struct sw_error *err)
{
	struct sw_client *c = calloc(1, sizeof(*c));
	bool privileged = have_cap(CAP_SYS_ADMIN);
	int r;

	if (!c)
		return sw_error_set_errno(err, ENOMEM, "read the client's context");
	for (int i = 0; i < SW_CLIENT_FDS; i++)
		c->fd[i] = -1;
	c->pid = pid;
	c->pidfd = fcntl(pidfd, F_DUPFD_CLOEXEC, 3);
	r = c->pidfd < 0 ? sw_error_set_errno(err, errno, "keep the client's pidfd") : 0;
	if (r >= 0)
		r = read_restrictions(c, err);
	if (r >= 0)
		r = read_namespaces(c, privileged, err);
	if (r >= 0)
		r = read_root(c, privileged, err);
	if (r >= 0)
		r = sw_client_probe_domain(pid, uid, gid, c->seccomp_filters, err);
	if (r >= 0)
		r = read_cgroups(c, err);
	if (r >= 0)
		r = read_limits(c, err);
	if (r >= 0)
		r = read_process(c, err);
	if (r >= 0)
		r = sw_client_alive(c, err);
	if (r < 0) {
		sw_client_free(c);
		return r;
	}
	*ret = c;
	return 0;
}

const char *sw_client_mountinfo(const struct sw_client *c)
{
	return c && c->mountinfo[0] ? c->mountinfo : NULL;
}

bool sw_client_has_userns(const struct sw_client *c)
{
	return c && c->fd[SW_CLIENT_FD_NS + SW_CLIENT_NS_USER] >= 0;
}

void sw_client_explain(const struct sw_client *c, const struct sw_client_where *w,
		       char *buf, size_t size)
{
	static const char *const what[] = {
		[SW_CLIENT_STEP_PIDNS] = "join the client's pid namespace",
		[SW_CLIENT_STEP_CGROUP] = "enter the client's cgroup",
		[SW_CLIENT_STEP_OOM] = "set the client's oom_score_adj",
		[SW_CLIENT_STEP_COREDUMP] = "set the client's coredump_filter",
		[SW_CLIENT_STEP_RLIMIT] = "set the client's resource limit",
		[SW_CLIENT_STEP_SCHED] = "set the client's scheduling policy",
		[SW_CLIENT_STEP_AFFINITY] = "set the client's CPU affinity",
		[SW_CLIENT_STEP_IOPRIO] = "set the client's I/O priority",
		[SW_CLIENT_STEP_THP] = "set the client's THP setting",
		[SW_CLIENT_STEP_PERSONALITY] = "set the client's personality",
		[SW_CLIENT_STEP_NS] = "join the client's namespace",
		[SW_CLIENT_STEP_ROOT] = "enter the client's root directory",
		[SW_CLIENT_STEP_CAPS] = "keep the capability to join its user namespace",
		[SW_CLIENT_STEP_USERNS] = "join the client's user namespace",
		[SW_CLIENT_STEP_KEYRING] = "make a session keyring of its own",
	};
	const char *s = w->step >= 0 && (size_t)w->step < sizeof(what) / sizeof(what[0]) &&
			what[w->step] ? what[w->step] : "take the client's context";

	if (w->step == SW_CLIENT_STEP_CGROUP && c && w->index >= 0 &&
	    (size_t)w->index < c->n_cgroups)
		snprintf(buf, size, "%s %s", s, c->cgroup_name[w->index]);
	else if (w->step == SW_CLIENT_STEP_NS && w->index >= 0 &&
		 w->index < SW_CLIENT_NS_COUNT)
		snprintf(buf, size, "%s %s", s, ns_table[w->index].name);
	else if (w->step == SW_CLIENT_STEP_RLIMIT)
		snprintf(buf, size, "%s %d", s, w->index);
	else
		snprintf(buf, size, "%s", s);
}

/* ---- taking it, in the launch child: async-signal-safe ------------------ */

int sw_client_enter_pidns(const struct sw_client *c)
{
	int fd = c->fd[SW_CLIENT_FD_NS + SW_CLIENT_NS_PID];

	/* Our children only (pidns_install()): the holder stays in the
	 * daemon's, out of the program's sight, as a docker exec's parent
	 * does; the program's getppid() is then 0. */
	if (fd >= 0 && setns(fd, CLONE_NEWPID) < 0)
		return -errno;
	return 0;
}

/* Write a decimal (or, with hex, hexadecimal) number to one of our own
 * /proc files; /proc/self is the daemon's procfs, so this must come
 * before the mount namespace changes. */
static int write_self(const char *name, long long v, bool hex)
{
	char path[64] = "/proc/self/", num[24], *p = num + sizeof(num);
	unsigned long long u = v < 0 && !hex ? 0ull - (unsigned long long)v
					     : (unsigned long long)v;
	size_t at = strlen(path);
	int fd, r = 0;

	for (size_t i = 0; name[i] && at < sizeof(path) - 1; i++)
		path[at++] = name[i];
	path[at] = '\0';
	*--p = '\n';
	do {
		*--p = "0123456789abcdef"[u % (hex ? 16 : 10)];
		u /= hex ? 16 : 10;
	} while (u);
	if (v < 0 && !hex)
		*--p = '-';
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, p, (size_t)(num + sizeof(num) - p)) < 0)
		r = -errno;
	close(fd);
	return r;
}

#define FAIL(st, idx) do { w->step = (st); w->index = (idx); return -errno; } while (0)

int sw_client_enter(const struct sw_client *c, struct sw_client_where *w)
{
	/* Its cgroups, while ours are still what /proc/self and the
	 * descriptors name: writing "0" to cgroup.procs moves the writer's
	 * whole process (kernel/cgroup/cgroup.c, cgroup_procs_write()). */
	for (size_t i = 0; i < c->n_cgroups; i++) {
		int fd = openat(c->fd[SW_CLIENT_FD_CGROUP + i], "cgroup.procs",
				O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, "0\n", 2) != 2) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			errno = e;
			FAIL(SW_CLIENT_STEP_CGROUP, (int)i);
		}
		close(fd);
	}
	/* Lowering oom_score_adj needs CAP_SYS_RESOURCE
	 * (fs/proc/base.c, __set_oom_adj()), which root in a container or
	 * here lacks: then ours stays, higher, more likely killed than the
	 * client's, never less. */
	if (c->oom_set) {
		int r = write_self("oom_score_adj", c->oom_score_adj, false);

		if (r < 0 && r != -EACCES && r != -EPERM) {
			errno = -r;
			FAIL(SW_CLIENT_STEP_OOM, 0);
		}
	}
	if (c->coredump_set && (errno = -write_self("coredump_filter", (long long)c->coredump_filter, true)))
		FAIL(SW_CLIENT_STEP_COREDUMP, 0);
	/* The login uid the audit subsystem charges the program's actions
	 * to.  Unset in the daemon (a service), it may be set without
	 * privilege (kernel/audit.c, audit_set_loginuid_perm()); set to
	 * another, only with CAP_AUDIT_CONTROL: then the daemon's stays
	 * (docs/security.md, route 14). */
	if (c->loginuid_set)
		(void)write_self("loginuid", (long long)c->loginuid, false);
	/* Its limits, all of them.  Above our hard limit only with
	 * CAP_SYS_RESOURCE: else ours, which is lower, so never higher
	 * than the client's. */
	for (int i = 0; i < N_LIMITS; i++) {
		struct rlimit cur, want = c->rlim[i];

		if (setrlimit(i, &want) == 0)
			continue;
		if (errno != EPERM || getrlimit(i, &cur) < 0)
			FAIL(SW_CLIENT_STEP_RLIMIT, i);
		if (want.rlim_max > cur.rlim_max)
			want.rlim_max = cur.rlim_max;
		if (want.rlim_cur > want.rlim_max)
			want.rlim_cur = want.rlim_max;
		if (setrlimit(i, &want) < 0)
			FAIL(SW_CLIENT_STEP_RLIMIT, i);
	}
	/* Its policy and real-time priority; its nice value is set by the
	 * launch (sw_launch.nice), and put back to 0 if negative where the
	 * client's fork would. */
	if (sched_getscheduler(0) != c->policy || c->sched.sched_priority) {
		if (sched_setscheduler(0, c->policy, &c->sched) < 0)
			FAIL(SW_CLIENT_STEP_SCHED, 0);
	}
	errno = 0;
	if (c->nice_reset && getpriority(PRIO_PROCESS, 0) < 0 && !errno &&
	    setpriority(PRIO_PROCESS, 0, 0) < 0)
		FAIL(SW_CLIENT_STEP_SCHED, 0);
	if (sched_setaffinity(0, sizeof(c->cpus), &c->cpus) < 0)
		FAIL(SW_CLIENT_STEP_AFFINITY, 0);
	if (c->ioprio >= 0 && syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0) != c->ioprio &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, c->ioprio) < 0)
		FAIL(SW_CLIENT_STEP_IOPRIO, 0);
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) != (int)c->thp_disable &&
	    prctl(PR_SET_THP_DISABLE, c->thp_disable ? 1 : 0, 0, 0, 0) < 0)
		FAIL(SW_CLIENT_STEP_THP, 0);
	if (personality(0xffffffff) != (int)c->personality &&
	    personality(c->personality) < 0)
		FAIL(SW_CLIENT_STEP_PERSONALITY, 0);
	/* Its namespaces but the user one; the mount namespace first, which
	 * puts our root and working directory at its root
	 * (fs/namespace.c, mntns_install()), then its root directory. */
	for (int i = 0; i < SW_CLIENT_NS_COUNT; i++) {
		int fd = c->fd[SW_CLIENT_FD_NS + i];

		if (i == SW_CLIENT_NS_PID || i == SW_CLIENT_NS_USER || fd < 0)
			continue;
		if (setns(fd, ns_table[i].flag) < 0)
			FAIL(SW_CLIENT_STEP_NS, i);
	}
	if (c->fd[SW_CLIENT_FD_ROOT] >= 0 &&
	    (fchdir(c->fd[SW_CLIENT_FD_ROOT]) < 0 || chroot(".") < 0))
		FAIL(SW_CLIENT_STEP_ROOT, 0);
	return 0;
}

/*
 * keyctl refused to us by a seccomp filter around the daemon (a
 * container's default profile refuses keyctl, add_key and request_key
 * whole, EPERM), which the program inherits: it reaches no keyring at
 * all, ours included.  A filter that refused the join but let keyctl
 * name our session keyring would not: that one fails the launch.
 */
static bool keyctl_refused(void)
{
	int saved = errno;
	bool refused = saved == EPERM &&
		       syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID,
			       KEY_SPEC_SESSION_KEYRING, 0) < 0 &&
		       errno == EPERM;

	errno = saved;
	return refused;
}

int sw_client_enter_user(const struct sw_client *c, struct sw_client_where *w)
{
	int fd = c->fd[SW_CLIENT_FD_NS + SW_CLIENT_NS_USER];

	if (fd >= 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2] = { 0 };

		/*
		 * setns() into a user namespace needs CAP_SYS_ADMIN over it
		 * (kernel/user_namespace.c, userns_install()): the launch
		 * kept it permitted across its setresuid() (PR_SET_KEEPCAPS,
		 * launchchild.c), here it is made effective.  Once in, the
		 * process has a full set in that namespace and nothing
		 * outside it (set_cred_user_ns()), which the launch then
		 * drops to what the program keeps.
		 */
		if (syscall(SYS_capget, &h, d) < 0)
			FAIL(SW_CLIENT_STEP_CAPS, 0);
		d[CAP_SYS_ADMIN / 32].effective |= 1u << (CAP_SYS_ADMIN % 32);
		if (syscall(SYS_capset, &h, d) < 0)
			FAIL(SW_CLIENT_STEP_CAPS, 0);
		if (setns(fd, CLONE_NEWUSER) < 0)
			FAIL(SW_CLIENT_STEP_USERNS, 0);
	}
	/*
	 * Not the daemon's session keyring: a fork shares it, and its
	 * keys are the possessor's (security/keys/permission.c), whatever
	 * their owner, so a program of any uid could read what the daemon
	 * kept there.  The client's cannot be joined from outside; one of
	 * its own, empty, owned by its uid.
	 */
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 &&
	    errno != ENOSYS && !keyctl_refused())
		FAIL(SW_CLIENT_STEP_KEYRING, 0);
	return 0;
}
