// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own namespaces (docs/security.md, route 16c): the one
 * step of the launch child that makes them, where the launcher holds
 * CAP_SYS_ADMIN (syswardd for every session, `sysward run` as root),
 * and its plan, made by the launcher before the fork (the child makes
 * only async-signal-safe calls).  Without CAP_SYS_ADMIN (unprivileged
 * `sysward run`) nothing here applies: a mount, IPC or cgroup namespace
 * needs it, or a user namespace that would change the program's view of
 * its uid and capabilities.
 *
 * Same-uid processes share kernel objects that no ptrace-mode check
 * guards, so the session's Landlock domain (landlock.c) does not keep a
 * program from them; each is the kernel's per-namespace or per-instance
 * object, so a namespace or an instance of the session's own does:
 *
 *   - System V shared memory, semaphores and message queues, and POSIX
 *     message queues, reached by key, id or name with permission bits
 *     alone (ipcperms(), ipc/util.c): an IPC namespace of its own, and a
 *     new mqueue instance (which shows the mounter's IPC namespace,
 *     ipc/mqueue.c) over every mqueue mount;
 *   - POSIX shared memory and named semaphores, files of /dev/shm: a
 *     tmpfs of its own there, with the original's size and mode;
 *   - cgroupfs, whose files are checked by mode bits alone (kernfs): a
 *     cgroup of its own (cgroup.c), a cgroup namespace rooted there, a
 *     new cgroup2 mount (rooted at the namespace's root) over every
 *     cgroup2 mount, and every cgroup v1 hierarchy mounted again, as the
 *     namespace shows it and read-only (v1 checks a migration by uid
 *     alone: __cgroup1_procs_write(), kernel/cgroup/cgroup-v1.c);
 *   - terminals: a pseudo-terminal's slave belongs to the uid that opened
 *     its master; a new devpts instance (each mount is one since Linux
 *     4.7) over every devpts mount, whose ptmx /dev/ptmx then opens
 *     (devpts_mntget() looks up "pts" beside the ptmx node), unless one
 *     of the program's standard streams is a terminal of the launcher's
 *     instance: glibc's ttyname() would then find no name for it
 *     (is_mytty(): /dev/pts/N of another instance has another st_dev),
 *     and `tty`, screen and GPG_TTY=$(tty) with it (the limit, in the
 *     docs);
 *   - for a program that runs as root or keeps a capability, the
 *     settings root owns by mode bits alone (proc_sys_permission() gives
 *     a capability-less root the owner's bits; most sysfs stores check
 *     nothing more): /sys read-only (recursively, and private, so that
 *     nothing mounted later beneath it on the host comes in writable),
 *     and /proc/sys, sysrq-trigger, irq, bus, fs and acpi read-only as
 *     runc's readonlyPaths make them.  Not for other uids: those files
 *     are root's, and a read-only submount of /proc would make the
 *     kernel refuse a proc instance of the program's own user and pid
 *     namespaces (mount_too_revealing(): a locked submount that covers
 *     more than an empty directory), which a capability-less root cannot
 *     make anyway (it cannot map uid 0 in a user namespace without
 *     CAP_SETFCAP: verify_root_map(), kernel/user_namespace.c).
 *
 * Order in the child: the /proc plan checked against what the paths
 * show (procns.c); the cgroup made and the child moved in (cgroup.c),
 * before the cgroup namespace, which is rooted at the cgroup the
 * unsharer is in; unshare; every mount a slave; the session's /proc
 * (procns.c); the read-only paths; then the new instances, whose own
 * flags are not touched by the read-only pass over /sys.
 *
 * The program cannot undo any of it: umount, mount and setns need
 * CAP_SYS_ADMIN in the initial user namespace, and what a user namespace
 * of its own copies is locked (MNT_LOCKED, MNT_LOCK_READONLY).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "contain/clientctx.h"
#include "contain/nsbox.h"

#ifndef DEVPTS_SUPER_MAGIC
#define DEVPTS_SUPER_MAGIC 0x1cd1
#endif

/* The /proc entries a root session may not write (runc's readonlyPaths,
 * and acpi, whose wakeup file takes a write from any root). */
static const char *const ro_proc[] = { "sys", "sysrq-trigger", "irq", "bus",
				       "fs", "acpi" };

/* cgroup v1 controllers (and "none"): what a hierarchy is mounted by
 * again; every other superblock option is either the hierarchy's own
 * (xattr, noprefix, clone_children, ignored on a second mount) or not
 * to be set (release_agent). */
static const char *const v1_controllers[] = {
	"cpu", "cpuacct", "cpuset", "memory", "devices", "freezer", "net_cls",
	"blkio", "perf_event", "net_prio", "hugetlb", "pids", "rdma", "misc",
	"debug", "none",
};

void sw_nsbox_free(struct sw_nsbox *p)
{
	sw_procns_free(&p->proc);
	for (size_t i = 0; i < p->n_ro; i++)
		free(p->ro[i].path);
	for (size_t i = 0; i < p->n_mounts; i++) {
		free(p->mounts[i].path);
		for (size_t k = 0; k < p->mounts[i].n_opts; k++)
			free(p->mounts[i].opts[k]);
	}
	free(p->ro);
	free(p->mounts);
	*p = (struct sw_nsbox){ 0 };
}

static unsigned int attr_of(unsigned long ms)
{
	static const struct {
		unsigned long ms;
		unsigned int attr;
	} map[] = {
		{ MS_RDONLY, MOUNT_ATTR_RDONLY },	{ MS_NOSUID, MOUNT_ATTR_NOSUID },
		{ MS_NODEV, MOUNT_ATTR_NODEV },		{ MS_NOEXEC, MOUNT_ATTR_NOEXEC },
		{ MS_NODIRATIME, MOUNT_ATTR_NODIRATIME },
	};
	unsigned int a = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (ms & map[i].ms)
			a |= map[i].attr;
	/* One atime mode; relatime is 0. */
	if (ms & MS_NOATIME)
		a |= MOUNT_ATTR_NOATIME;
	else if (ms & MS_STRICTATIME)
		a |= MOUNT_ATTR_STRICTATIME;
	return a;
}

static int add_ro(struct sw_nsbox *p, const char *path, bool bind)
{
	if (p->n_ro == SW_NSBOX_MAX_RO)
		return -E2BIG;
	p->ro[p->n_ro] = (struct sw_nsbox_ro){ strdup(path), bind };
	if (!p->ro[p->n_ro].path)
		return -ENOMEM;
	p->n_ro++;
	return 0;
}

static struct sw_nsbox_mount *add_mount(struct sw_nsbox *p, const char *path,
					const char *fstype, unsigned int attr)
{
	struct sw_nsbox_mount *m;

	if (p->n_mounts == SW_NSBOX_MAX_MOUNTS)
		return NULL;
	m = &p->mounts[p->n_mounts];
	*m = (struct sw_nsbox_mount){ .path = strdup(path), .fstype = fstype, .attr = attr };
	if (!m->path)
		return NULL;
	p->n_mounts++;
	return m;
}

/* name=value (value of len bytes) or, with value NULL, name. */
static int add_opt(struct sw_nsbox_mount *m, const char *name, const char *value,
		   size_t len)
{
	char *o;

	if (m->n_opts == SW_NSBOX_MAX_OPTS)
		return -E2BIG;
	if (value ? asprintf(&o, "%s=%.*s", name, (int)len, value) < 0 :
		    !(o = strdup(name)))
		return -ENOMEM;
	m->opts[m->n_opts++] = o;
	return 0;
}

/* The original's option name, if it has one, else dflt (NULL: none). */
static int copy_opt(struct sw_nsbox_mount *m, const char *super, const char *name,
		    const char *dflt)
{
	const char *v;
	size_t len;

	if (sw_mnt_option(super, name, &v, &len) && len)
		return add_opt(m, name, v, len);
	return dflt ? add_opt(m, name, dflt, strlen(dflt)) : 0;
}

/* Is id in a range of the user namespace map at path (/proc/self/
 * gid_map; NULL, or unreadable: every id is, as in the initial one)? */
static bool id_mapped(const char *path, unsigned long id)
{
	char line[128];
	bool found = false;
	FILE *f = path ? fopen(path, "re") : NULL;

	if (!f)
		return true;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long in, out, n;

		found = sscanf(line, "%lu %lu %lu", &in, &out, &n) == 3 &&
			id >= in && id - in < n;
	}
	fclose(f);
	return found;
}

/* devpts's gid= of the original (the tty group), where it names a gid
 * this user namespace maps: devpts_parse_param() refuses an unmapped
 * one (EINVAL), as in `unshare -Ur sysward run` on a host whose devpts
 * says gid=5 (systemd's).  Left out, the session's terminals get the
 * opener's gid. */
static int devpts_gid(struct sw_nsbox_mount *m, const char *super, const char *gid_map)
{
	const char *v;
	size_t len;
	char num[24];

	if (!sw_mnt_option(super, "gid", &v, &len) || !len || len >= sizeof(num))
		return 0;
	memcpy(num, v, len);
	num[len] = '\0';
	if (!id_mapped(gid_map, strtoul(num, NULL, 10)))
		return 0;
	return add_opt(m, "gid", v, len);
}

/* A v1 hierarchy, mounted again by what names it. */
static int v1_opts(struct sw_nsbox_mount *m, const char *super)
{
	const char *v;
	size_t len;
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(v1_controllers) / sizeof(v1_controllers[0]); i++)
		if (sw_mnt_option(super, v1_controllers[i], &v, &len) && !len)
			r = add_opt(m, v1_controllers[i], NULL, 0);
	if (r == 0 && sw_mnt_option(super, "name", &v, &len) && len)
		r = add_opt(m, "name", v, len);
	return r;
}

/* One of fds is a terminal of a devpts instance: its name must stay. */
static bool has_terminal(const int fds[4])
{
	for (int i = 0; i < 4; i++) {
		struct statfs sf;

		if (fds[i] >= 0 && fstatfs(fds[i], &sf) == 0 &&
		    sf.f_type == DEVPTS_SUPER_MAGIC)
			return true;
	}
	return false;
}

/* A word of /proc/filesystems ("nodev\tmqueue"). */
static bool has_fs(const char *filesystems, const char *name)
{
	char line[128];
	bool found = false;
	FILE *f = fopen(filesystems, "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *w = strrchr(line, '\t');

		w = w ? w + 1 : line;
		w[strcspn(w, "\n")] = '\0';
		found = !strcmp(w, name);
	}
	if (f)
		fclose(f);
	return found;
}

static bool has_ns(const char *ns_dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", ns_dir, name);
	return access(path, F_OK) == 0;
}

static int plan_mounts(const struct sw_mnt_table *t, const struct sw_nsbox_ctx *ctx,
		       struct sw_nsbox *p)
{
	bool shm_seen = false, devpts = !has_terminal(ctx->fds);
	struct stat st;
	int r = 0;

	for (size_t i = 0; r == 0 && i < t->n; i++) {
		const struct sw_mnt *m = &t->m[i];
		unsigned int attr = attr_of(m->flags);
		struct sw_nsbox_mount *nm = NULL;

		if (!sw_mnt_visible(t, i))
			continue;
		if (!strcmp(m->fstype, "cgroup2") && (p->unshare & CLONE_NEWCGROUP)) {
			nm = add_mount(p, m->point, "cgroup2", attr);
		} else if (!strcmp(m->fstype, "cgroup") && (p->unshare & CLONE_NEWCGROUP)) {
			nm = add_mount(p, m->point, "cgroup", attr | MOUNT_ATTR_RDONLY);
			r = nm ? v1_opts(nm, m->super) : r;
		} else if (!strcmp(m->fstype, "mqueue") && (p->unshare & CLONE_NEWIPC)) {
			nm = add_mount(p, m->point, "mqueue", attr);
		} else if (!strcmp(m->fstype, "devpts") && devpts) {
			nm = add_mount(p, m->point, "devpts", attr);
			/* ptmxmode: /dev/ptmx may be a link to it. */
			if (nm)
				r = devpts_gid(nm, m->super, ctx->gid_map) ?:
				    copy_opt(nm, m->super, "mode", "620") ?:
				    add_opt(nm, "ptmxmode", "0666", 4);
		} else if (!strcmp(m->point, "/dev/shm") && !strcmp(m->fstype, "tmpfs")) {
			shm_seen = true;
			nm = add_mount(p, m->point, "tmpfs", attr);
			if (nm)
				r = copy_opt(nm, m->super, "size", NULL) ?:
				    copy_opt(nm, m->super, "nr_inodes", NULL) ?:
				    copy_opt(nm, m->super, "mode", "1777");
		} else {
			continue;
		}
		if (!nm)
			return p->n_mounts == SW_NSBOX_MAX_MOUNTS ? -E2BIG : -ENOMEM;
	}
	/* glibc's shm_open and sem_open use /dev/shm, mounted or not. */
	if (r == 0 && !shm_seen && ctx->shm_dir && stat(ctx->shm_dir, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		struct sw_nsbox_mount *nm = add_mount(p, ctx->shm_dir, "tmpfs",
						      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);

		r = nm ? add_opt(nm, "mode", "1777", 4) : -ENOMEM;
	}
	return r;
}

static int plan_ro(const struct sw_mnt_table *t, struct sw_nsbox *p)
{
	char path[4096];
	int r = 0;

	for (size_t i = 0; r == 0 && i < t->n; i++)
		if (!strcmp(t->m[i].fstype, "sysfs") && sw_mnt_visible(t, i))
			r = add_ro(p, t->m[i].point, false);
	for (size_t i = 0; r == 0 && i < p->proc.n_proc; i++)
		for (size_t k = 0; r == 0 && k < sizeof(ro_proc) / sizeof(ro_proc[0]); k++) {
			snprintf(path, sizeof(path), "%s/%s", p->proc.proc[i].path, ro_proc[k]);
			if (access(path, F_OK) == 0)
				r = add_ro(p, path, true);
		}
	return r;
}

/* Is path at or beneath top? */
static bool beneath(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (n == 1 && top[0] == '/')
		return true;
	return !strncmp(path, top, n) && (path[n] == '/' || path[n] == '\0');
}

/*
 * The views of its own the plan gives the session (SW_CONTAINED_*): its
 * /proc, IPC and cgroup namespaces; and the kernel's settings (sysfs,
 * /proc/sys and the file systems of kernel settings mounted in them)
 * only if every visible mount of those types lies beneath a path made
 * read-only (AT_RECURSIVE: make_ro()), which plan_ro() does for a root
 * program only.  For any other uid those files are root's, but not all
 * of them: fusectl's abort files belong to the uid that mounted the
 * FUSE file system (fs/fuse/control.c), udev rules give a user or group
 * sysfs attributes; objects.c keeps checking them there.
 */
static unsigned int contained_of(const struct sw_mnt_table *t, const struct sw_nsbox *p)
{
	static const char *const settings[] = {
		"sysfs", "debugfs", "tracefs", "securityfs", "configfs", "bpf",
		"efivarfs", "pstore", "fusectl", "binfmt_misc",
	};
	unsigned int c = 0;

	if (p->proc.n_proc)
		c |= SW_CONTAINED_PIDS;
	if (p->unshare & CLONE_NEWIPC)
		c |= SW_CONTAINED_IPC;
	if (p->unshare & CLONE_NEWCGROUP)
		c |= SW_CONTAINED_CGROUP;
	if (!p->n_ro)
		return c;
	for (size_t i = 0; i < t->n; i++) {
		bool setting = false, covered = false;

		for (size_t k = 0; k < sizeof(settings) / sizeof(settings[0]); k++)
			setting = setting || !strcmp(t->m[i].fstype, settings[k]);
		if (!setting || !sw_mnt_visible(t, i))
			continue;
		for (size_t k = 0; !covered && k < p->n_ro; k++)
			covered = beneath(t->m[i].point, p->ro[k].path);
		if (!covered)
			return c;
	}
	return c | SW_CONTAINED_SYSFS | SW_CONTAINED_SYSCTL;
}

int sw_nsbox_plan_table(const struct sw_mnt_table *t, const struct sw_nsbox_ctx *ctx,
			struct sw_nsbox *ret, struct sw_error *err)
{
	struct sw_nsbox p = { .on = true, .unshare = CLONE_NEWNS };
	int r;

	*ret = (struct sw_nsbox){ 0 };
	if (has_ns(ctx->ns_dir, "ipc"))
		p.unshare |= CLONE_NEWIPC;
	else if (has_fs(ctx->filesystems, "mqueue") || access("/proc/sysvipc", F_OK) == 0)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel has System V IPC or POSIX message queues but no IPC namespaces (CONFIG_IPC_NS): a program could reach the IPC objects of every process of its uid. Boot a kernel built with CONFIG_IPC_NS=y");
	/* No cgroup namespaces: no cgroups (CONFIG_CGROUPS), none to
	 * reach. */
	if (has_ns(ctx->ns_dir, "cgroup") && has_fs(ctx->filesystems, "cgroup2") &&
	    !ctx->no_cgroup_privilege)
		p.unshare |= CLONE_NEWCGROUP;
	p.ro = calloc(SW_NSBOX_MAX_RO, sizeof(*p.ro));
	p.mounts = calloc(SW_NSBOX_MAX_MOUNTS, sizeof(*p.mounts));
	if (!p.ro || !p.mounts) {
		sw_nsbox_free(&p);
		return sw_error_set_errno(err, ENOMEM, "plan the session's namespaces");
	}
	r = sw_procns_plan_table(t, &p.proc, err);
	if (r < 0) {
		sw_nsbox_free(&p);
		return r;
	}
	if (p.unshare & CLONE_NEWCGROUP)
		r = sw_cgroup_plan(ctx->uid, ctx->gid, &p.cg, err);
	if (r == 0 && (ctx->uid == 0 || ctx->caps))
		r = plan_ro(t, &p);
	if (r == 0)
		r = plan_mounts(t, ctx, &p);
	if (r < 0) {
		sw_nsbox_free(&p);
		if (r == -E2BIG)
			return sw_error_set(err, E2BIG,
					    "more than %d mounts to replace or %d paths to make read-only for the session's namespaces",
					    SW_NSBOX_MAX_MOUNTS, SW_NSBOX_MAX_RO);
		return sw_error_set_errno(err, -r, "plan the session's namespaces");
	}
	p.contained = contained_of(t, &p);
	*ret = p;
	return 0;
}

/*
 * Whether this process may mount cgroup2 (which the launch child does
 * to make the session's cgroup): CAP_SYS_ADMIN over the user namespace
 * that owns its cgroup namespace (cgroup_get_tree(),
 * kernel/cgroup/cgroup.c).  Not so for a launcher that is root only in a
 * user namespace of its own (`unshare -Ur sysward run`, a rootless
 * container without a cgroup namespace of its own): it has no more
 * authority over cgroups than an unprivileged launcher, and is treated
 * as one there (no session cgroup; the limit in the docs).  A detached
 * mount, made and dropped.
 */
static bool can_mount_cgroup2(void)
{
	int fs = fsopen("cgroup2", FSOPEN_CLOEXEC), mnt = -1;

	if (fs >= 0 && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
	if (mnt >= 0)
		close(mnt);
	if (fs >= 0)
		close(fs);
	return mnt >= 0 || (fs < 0 && errno == ENODEV);
}

/* The descriptor that becomes the program's fd, or -1 (none). */
static int program_fd(const struct sw_launch *l, int fd)
{
	if (!l->exact_fds)
		return l->stdio[fd] >= 0 ? l->stdio[fd] : fd;
	for (size_t i = 0; i < l->n_fds; i++)
		if (l->fds[i].to == fd)
			return l->fds[i].from;
	return -1;
}

int sw_nsbox_plan(const struct sw_launch *l, struct sw_nsbox *ret,
		  struct sw_error *err)
{
	/* A client's program sees the client's mounts from its root
	 * (clientctx.c): planned from them. */
	const char *mountinfo = sw_client_mountinfo(l->client);
	struct sw_nsbox_ctx ctx = {
		.uid = l->uid != (uid_t)-1 ? l->uid : geteuid(),
		.gid = l->gid != (gid_t)-1 ? l->gid : getegid(),
		.caps = l->caps,
		.fds = { program_fd(l, 0), program_fd(l, 1), program_fd(l, 2),
			 l->foreground ? l->tty_fd : -1 },
		.filesystems = "/proc/filesystems",
		.ns_dir = "/proc/self/ns",
		.gid_map = "/proc/self/gid_map",
		/* Where it is no mount point, only in our own file system:
		 * a client's /dev/shm is another path of ours. */
		.shm_dir = mountinfo ? NULL : "/dev/shm",
	};
	struct sw_mnt_table t;
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;
	int r;

	*ret = (struct sw_nsbox){ 0 };
	if (!caps)
		return sw_error_set_errno(err, errno, "read this process's capabilities");
	(void)cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &v);
	cap_free(caps);
	/* Without it no namespace can be made: the launcher's. */
	if (v != CAP_SET)
		return 0;
	ctx.no_cgroup_privilege = !can_mount_cgroup2();
	r = sw_mnt_table_read(mountinfo ? mountinfo : "/proc/self/mountinfo", &t, err);
	if (r < 0)
		return r;
	r = sw_nsbox_plan_table(&t, &ctx, ret, err);
	sw_mnt_table_free(&t);
	return r;
}

/* Async-signal-safe from here on: the launch child. */

static int make_ro(const struct sw_nsbox_ro *ro)
{
	struct mount_attr a = { .attr_set = MOUNT_ATTR_RDONLY };
	int fd, r = 0;

	if (!ro->bind) {
		/* The mount and all beneath it, in this namespace only;
		 * private: a mount the host adds beneath later does not
		 * come in writable. */
		a.propagation = MS_PRIVATE;
		return mount_setattr(AT_FDCWD, ro->path, AT_RECURSIVE | AT_SYMLINK_NOFOLLOW,
				     &a, sizeof(a)) < 0 ? -errno : 0;
	}
	fd = open_tree(AT_FDCWD, ro->path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			       AT_RECURSIVE | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT);
	if (fd < 0)
		return -errno;
	if (mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a)) < 0 ||
	    move_mount(fd, "", AT_FDCWD, ro->path, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* m's file system, a new instance with m's options, mounted detached
 * (fsmount()): its descriptor, or -errno. */
static int detached_instance(const struct sw_nsbox_mount *m)
{
	int fs, mnt = -1, r = 0, e;

	fs = fsopen(m->fstype, FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	for (size_t k = 0; r == 0 && k < m->n_opts; k++) {
		char key[64];
		const char *eq = strchr(m->opts[k], '=');
		size_t len = eq ? (size_t)(eq - m->opts[k]) : 0;

		if (!eq) {
			r = fsconfig(fs, FSCONFIG_SET_FLAG, m->opts[k], NULL, 0);
		} else if (len < sizeof(key)) {
			memcpy(key, m->opts[k], len);
			key[len] = '\0';
			r = fsconfig(fs, FSCONFIG_SET_STRING, key, eq + 1, 0);
		} else {
			errno = EINVAL;
			r = -1;
		}
	}
	if (r == 0 && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, m->attr);
	e = errno;
	close(fs);
	return mnt >= 0 ? mnt : -e;
}

/* m in place: a new instance, or the detached one given (mnt >= 0,
 * still the caller's to close). */
static int new_instance(const struct sw_nsbox_mount *m, int mnt)
{
	int own = mnt < 0 ? detached_instance(m) : -1;
	int r = 0;

	if (mnt < 0 && own < 0)
		return own;
	if (move_mount(own >= 0 ? own : mnt, "", AT_FDCWD, m->path,
		       MOVE_MOUNT_F_EMPTY_PATH) < 0)
		r = -errno;
	if (own >= 0)
		close(own);
	return r;
}

/* The plan's first devpts mount, or -1. */
static int pts_mount(const struct sw_nsbox *p)
{
	for (size_t i = 0; p->on && i < p->n_mounts; i++)
		if (!strcmp(p->mounts[i].fstype, "devpts"))
			return (int)i;
	return -1;
}

int sw_nsbox_pts_instance(const struct sw_nsbox *p)
{
	int i = pts_mount(p);

	return i < 0 ? -ENOENT : detached_instance(&p->mounts[i]);
}

int sw_nsbox_enter(const struct sw_nsbox *p, int hand_fd, int self_fd,
		   int pts_fd, struct sw_nsbox_where *where)
{
	int pts = pts_fd >= 0 ? pts_mount(p) : -1;
	int r;

	*where = (struct sw_nsbox_where){ SW_NSBOX_NONE, -1 };
	if (!p->on)
		return 0;
	r = sw_procns_check(&p->proc, where);
	if (r < 0)
		return r;
	/* Before the cgroup namespace: rooted where the unsharer is. */
	r = sw_cgroup_enter(&p->cg, hand_fd, self_fd, &where->step);
	if (r < 0)
		return r;
	*where = (struct sw_nsbox_where){ SW_NSBOX_UNSHARE, -1 };
	if (unshare(p->unshare) < 0)
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return -errno;
	r = sw_procns_mount(&p->proc, where);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->n_ro; i++) {
		*where = (struct sw_nsbox_where){ SW_NSBOX_READ_ONLY, (int)i };
		r = make_ro(&p->ro[i]);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < p->n_mounts; i++) {
		*where = (struct sw_nsbox_where){ SW_NSBOX_MOUNT, (int)i };
		/* The instance the program's terminal was made in
		 * (launchchild.c): its /dev/pts/N there is the one
		 * ttyname() finds (is_mytty(): same st_dev). */
		r = new_instance(&p->mounts[i], (int)i == pts ? pts_fd : -1);
		if (r < 0)
			return r;
	}
	*where = (struct sw_nsbox_where){ SW_NSBOX_NONE, -1 };
	return 0;
}

/* The cgroup this process is in (the launch child was, before it made
 * its own: the same, unless the launch moved it first). */
static void own_cgroup(char *buf, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "re");

	snprintf(buf, size, "?");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%.480s", line + 3);
		}
	if (f)
		fclose(f);
}

void sw_nsbox_explain(const struct sw_nsbox *p, const struct sw_nsbox_where *w,
		      char *buf, size_t size)
{
	static const char what_to_do[] =
		"; a session runs only in a cgroup of its own (docs/security.md, route 16c): start the launcher in a cgroup2 cgroup where it may make one (systemd: Delegate=yes)";
	char where[512];
	const char *path = "?";

	if (sw_procns_explain(&p->proc, w, buf, size))
		return;
	own_cgroup(where, sizeof(where));
	if (w->step == SW_NSBOX_READ_ONLY && w->index >= 0 && (size_t)w->index < p->n_ro)
		path = p->ro[w->index].path;
	if (w->step == SW_NSBOX_MOUNT && w->index >= 0 && (size_t)w->index < p->n_mounts)
		path = p->mounts[w->index].path;
	switch (w->step) {
	case SW_NSBOX_CGROUP_MAKE:
		snprintf(buf, size, "give it a cgroup of its own: make the cgroup %s below %s (cgroup2, as /proc/self/cgroup names it) with %s below it%s",
			 p->cg.name, where, SW_CGROUP_PROGRAM, what_to_do);
		break;
	case SW_NSBOX_CGROUP_HAND:
		snprintf(buf, size, "give it a cgroup of its own: hand the cgroup %s over to the launcher (sendmsg)", p->cg.name);
		break;
	case SW_NSBOX_CGROUP_LIMIT:
		snprintf(buf, size, "give it a cgroup of its own: set cgroup.max.descendants and cgroup.max.depth of %s below %s%s",
			 p->cg.name, where, what_to_do);
		break;
	case SW_NSBOX_CGROUP_DELEGATE:
		snprintf(buf, size, "give it a cgroup of its own: give %s/%s and its files to uid %u, as the cgroup %s it was in is",
			 p->cg.name, SW_CGROUP_PROGRAM, (unsigned int)p->cg.uid, where);
		break;
	case SW_NSBOX_CGROUP_MOVE:
		snprintf(buf, size, "give it a cgroup of its own: move it into %s/%s below %s (cgroup.procs)%s",
			 p->cg.name, SW_CGROUP_PROGRAM, where, what_to_do);
		break;
	case SW_NSBOX_UNSHARE:
		snprintf(buf, size, "give it namespaces of its own: unshare (mount%s%s) with every mount a slave",
			 p->unshare & CLONE_NEWIPC ? ", IPC" : "",
			 p->unshare & CLONE_NEWCGROUP ? ", cgroup" : "");
		break;
	case SW_NSBOX_READ_ONLY:
		snprintf(buf, size, "give it namespaces of its own: make %s read-only (a root session writes no host setting)", path);
		break;
	case SW_NSBOX_MOUNT:
		snprintf(buf, size, "give it namespaces of its own: mount a new %s instance over %s",
			 w->index >= 0 && (size_t)w->index < p->n_mounts ? p->mounts[w->index].fstype : "?",
			 path);
		break;
	default:
		snprintf(buf, size, "give it namespaces of its own");
	}
}
