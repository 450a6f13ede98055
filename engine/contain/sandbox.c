// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `sysward run --sandbox` (docs/security.md, route 21): the one home of
 * what the sandbox grants, as hierarchies with rights for fsrules.c,
 * which makes them a Landlock ruleset decided on the resolved file.
 *
 * The sandbox is a Landlock layer of its own, entered before the
 * policy's (launchchild.c): the kernel allows an access only if every
 * layer of the domain allows it (security/landlock/ruleset.c,
 * landlock_unmask_layers()), so a policy's "filesystem" and "network"
 * sections narrow the sandbox and can never widen it, whatever they say.
 *
 * What the table below grants:
 *  - "/": read and execute; nothing else anywhere unless a row says so;
 *  - /dev: read and device ioctls (terminals: tcgetattr), and writing
 *    only the harmless devices (null, zero, full, random, urandom, tty,
 *    ptmx and the pseudo-terminals): never a disk, even for a root
 *    program, and never /dev/shm, the uid's shared memory;
 *  - the workspace: every right but making device nodes;
 *  - its VCS metadata at launch (.git, .hg, .svn): read and execute
 *    only, so that a tool cannot plant a hook or rewrite history the
 *    user runs unconfined later;
 *  - the private temporary directory the caller made: every right but
 *    making device nodes.
 * A VCS directory inside the workspace leaves the workspace's own
 * directory with only the rights both have (fsrules.c): its entries at
 * launch get the workspace's rights each, but a new entry at its top
 * level cannot be made (EACCES) while the VCS metadata stays read-only;
 * the documented limit (docs/security.md, route 21).
 *
 * The network: TCP connect and bind refused (EACCES) but for the ports
 * given (--sandbox-net, --sandbox-bind); when none are given and the
 * policy has a "network" section, that section decides alone.
 */
#include <dirent.h>
#include <linux/mount.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/limits.h"
#include "internal.h"
#include "contain/fsrules.h"

#define SB_READ		(SW_FS_READ_FILE | SW_FS_READ_DIR | SW_FS_EXECUTE)
#define SB_DEVICE	(SW_FS_READ_FILE | SW_FS_WRITE_FILE | SW_FS_IOCTL_DEV | SW_FS_EXECUTE)
#define SB_OWN		(SW_FS_ALL & ~(SW_FS_MAKE_CHAR | SW_FS_MAKE_BLOCK))

enum sb_base { SB_ABS, SB_DIR, SB_TMP };

/* The sandbox's rows: where (absolute, or beneath the workspace or the
 * private temporary directory), what it gets, whether it may be absent. */
static const struct sb_row {
	enum sb_base base;
	const char *path;
	uint64_t access;
	bool optional;
	const char *what;
	bool vcs;		/* a VCS directory: sw_sandbox_mount()'s too */
} rows[] = {
	{ SB_ABS, "/", SB_READ, false, "--sandbox: the system, read-only", false },
	{ SB_ABS, "/dev", SB_READ | SW_FS_IOCTL_DEV, true, "--sandbox: /dev", false },
	{ SB_ABS, "/dev/null", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/zero", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/full", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/random", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/urandom", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/tty", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/ptmx", SB_DEVICE, true, "--sandbox: a harmless device", false },
	{ SB_ABS, "/dev/pts", SB_DEVICE | SW_FS_READ_DIR, true, "--sandbox: the terminals", false },
	{ SB_DIR, "", SB_OWN, false, "--sandbox: the workspace", false },
	{ SB_DIR, "/.git", SB_READ, true, "--sandbox: the workspace's VCS metadata", true },
	{ SB_DIR, "/.hg", SB_READ, true, "--sandbox: the workspace's VCS metadata", true },
	{ SB_DIR, "/.svn", SB_READ, true, "--sandbox: the workspace's VCS metadata", true },
	{ SB_TMP, "", SB_OWN, false, "--sandbox: its private temporary directory", false },
};

#define N_ROWS	(sizeof(rows) / sizeof(rows[0]))

int sw_sandbox_plan(const struct sw_sandbox *sb, const struct sw_policy *p,
		    int abi, bool mounts, bool enforce, struct sw_fsrules **ret,
		    struct sw_error *err)
{
	struct sw_fs_spec v[N_ROWS];
	char *paths[N_ROWS] = { 0 };
	struct sw_tcp_ports none = { 0 };
	struct sw_net_spec net = { &none, &none, true };
	size_t n = 0;
	int r = 0;

	/* TCP ports need ABI 4 (Linux 6.7), and a read-only system needs
	 * TRUNCATE (ABI 3): below, the sandbox would promise what the
	 * kernel cannot keep. */
	if (abi < 4)
		return sw_error_set(err, EOPNOTSUPP,
				    "--sandbox needs Landlock ABI 4 (Linux 6.7) to refuse truncation and TCP connections; the running kernel has ABI %d: boot a newer kernel, or write the policy's \"filesystem\" section instead",
				    abi);
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct sb_row *row = &rows[i];
		const char *base = row->base == SB_DIR ? sb->dir : sb->tmpdir;

		if (row->base == SB_TMP && !sb->tmpdir)
			continue;
		/* read-only mounts keep the VCS metadata (EROFS), and the
		 * workspace's own directory then keeps every right */
		if (mounts && row->vcs)
			continue;
		if (row->base == SB_ABS)
			paths[n] = strdup(row->path);
		else if (row->base == SB_DIR && !base)
			/* the child's working directory, relative */
			paths[n] = strdup(row->path[0] ? row->path + 1 : "");
		else if (asprintf(&paths[n], "%s%s", base, row->path) < 0)
			paths[n] = NULL;
		if (!paths[n]) {
			r = sw_error_set_errno(err, ENOMEM, "plan the sandbox");
			goto out;
		}
		v[n] = (struct sw_fs_spec){
			.path = paths[n],
			.cwd = row->base == SB_DIR && !base,
			.access = row->access,
			.optional = row->optional,
			.what = row->what,
			.written = paths[n][0] ? paths[n] : "the working directory",
		};
		n++;
	}
	if (sb->net_given) {
		/* Bounded here, where every caller passes (a daemon's
		 * client too): the kernel takes a rule per port. */
		for (int k = 0; k < 2; k++) {
			const struct sw_tcp_ports *tp = k ? &sb->bind : &sb->connect;
			size_t ports = 0;

			for (size_t i = 0; i < tp->n_ranges; i++)
				ports += (size_t)tp->ranges[i].last - tp->ranges[i].first + 1;
			if (ports > SW_LIMIT_PORTS) {
				r = sw_error_set(err, E2BIG, "--sandbox-%s: %zu TCP ports, at most %u",
						 k ? "bind" : "net", ports, SW_LIMIT_PORTS);
				goto out;
			}
		}
		net.connect = &sb->connect;
		net.bind = &sb->bind;
	}
	r = sw_fsrules_new(v, n, false, true,
			   sb->net_given || !p || !p->has_network ? &net : NULL,
			   abi, enforce, ret, err);
out:
	for (size_t i = 0; i < N_ROWS; i++)
		free(paths[i]);
	return r;
}

const char *sw_sandbox_unseen_words(bool complain)
{
	return complain
		? "--sandbox's TCP rules stay the kernel's (Landlock) in complain mode: a bind or connect they refuse fails with EACCES without reaching sysward, so it is not in the audit log or the report; its file rules are judged by sysward instead, on each open (docs/security.md, route 21b)"
		: "--sandbox's rules are the kernel's (Landlock and read-only mounts): what they refuse fails with EACCES or EROFS without reaching sysward, so it is not in the audit log, the report or the gate; run it again with --complain to have sysward judge the file rules and report each open they would refuse (docs/security.md, route 21b)";
}

int sw_sandbox_parse_ports(const char *text, struct sw_tcp_ports *ret,
			   struct sw_error *err)
{
	struct sw_tcp_ports tp = { 0 };
	const char *s = text;

	while (*s) {
		unsigned long first, last;
		char *end;
		void *grown;

		errno = 0;
		first = strtoul(s, &end, 10);
		last = first;
		if (end != s && *end == '-') {
			const char *t = end + 1;

			last = strtoul(t, &end, 10);
			if (end == t)
				end = (char *)s;
		}
		if (end == s || errno || first < 1 || last > 65535 || first > last ||
		    (*end && *end != ',')) {
			free(tp.ranges);
			return sw_error_set(err, EINVAL,
					    "'%s': expected TCP ports and ranges from 1 to 65535, as 443,8000-8100",
					    text);
		}
		grown = realloc(tp.ranges, (tp.n_ranges + 1) * sizeof(*tp.ranges));
		if (!grown) {
			free(tp.ranges);
			return sw_error_set_errno(err, ENOMEM, "parse the ports %s", text);
		}
		tp.ranges = grown;
		tp.ranges[tp.n_ranges++] = (struct sw_port_range){ (uint16_t)first,
								   (uint16_t)last };
		tp.n_ports += last - first + 1;
		s = *end ? end + 1 : end;
	}
	*ret = tp;
	return 0;
}

int sw_sandbox_tmp_new(const char *base, char **ret_path, struct sw_error *err)
{
	char *path;

	if (asprintf(&path, "%s/sysward-sandbox.XXXXXX", base ? base : "/tmp") < 0)
		return sw_error_set_errno(err, ENOMEM, "make the sandbox's temporary directory");
	if (!mkdtemp(path)) {
		int e = errno;

		sw_error_set_errno(err, e,
				   "make the sandbox's temporary directory %s (set TMPDIR to a writable directory)",
				   path);
		free(path);
		return -e;
	}
	*ret_path = path;
	return 0;
}

/* Everything beneath directory fd, never following a link (unlinkat on
 * the name, openat with O_NOFOLLOW); depth-bounded. */
static int remove_beneath(int fd, int depth)
{
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (depth > 512)
		return -ELOOP;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			r = r ? r : -errno;
			continue;
		}
		/* A directory the program left unreadable or unwritable:
		 * its own, and the program is gone (the session ended), so
		 * the name still names the directory unlinkat() saw. */
		(void)fchmodat(dirfd(d), e->d_name, 0700, 0);
		sub = openat(dirfd(d), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			r = r ? r : -errno;
			continue;
		}
		int k = remove_beneath(sub, depth + 1);

		if (k < 0 && !r)
			r = k;
		if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0 && !r)
			r = -errno;
	}
	closedir(d);
	return r;
}

int sw_sandbox_tmp_remove(const char *path)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	(void)fchmod(fd, 0700);
	r = remove_beneath(fd, 0);
	if (rmdir(path) < 0 && !r)
		r = -errno;
	return r;
}

/* ---- the mounts, where the session has a mount namespace of its own ---- */

void sw_sandbox_mounts_free(struct sw_sandbox_mounts *m)
{
	for (size_t i = 0; i < m->n_writable; i++)
		free(m->writable[i]);
	free(m->cwd);
	*m = (struct sw_sandbox_mounts){ 0 };
}

int sw_sandbox_mounts_plan(const struct sw_sandbox *sb, const char *cwd,
			   struct sw_sandbox_mounts *ret, struct sw_error *err)
{
	struct sw_sandbox_mounts m = { 0 };
	const char *w[2] = { sb->dir, sb->tmpdir };
	cleanup_free char *here = NULL;

	/* The child enters the program's working directory only after
	 * its mounts (launchchild.c): the workspace by its full name. */
	if (!w[0]) {
		here = cwd ? strdup(cwd) : getcwd(NULL, 0);
		if (!here)
			return sw_error_set_errno(err, errno ? errno : ENOMEM,
						  "--sandbox: find the working directory");
		w[0] = here;
	}
	for (int i = 0; i < 2; i++) {
		if (!w[i])
			continue;
		if (w[i][0] != '/') {
			sw_sandbox_mounts_free(&m);
			return sw_error_set(err, EINVAL, "--sandbox: %s is not an absolute path", w[i]);
		}
		m.writable[m.n_writable] = strdup(w[i]);
		if (!m.writable[m.n_writable]) {
			sw_sandbox_mounts_free(&m);
			return sw_error_set_errno(err, ENOMEM, "plan the sandbox's mounts");
		}
		m.n_writable++;
	}
	m.cwd = malloc(PATH_MAX);
	if (!m.cwd) {
		sw_sandbox_mounts_free(&m);
		return sw_error_set_errno(err, ENOMEM, "plan the sandbox's mounts");
	}
	*ret = m;
	return 0;
}

/* fd's tree read-only: a copy bound on itself.  Skipped when missing. */
static int vcs_read_only(int dir, const char *name)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	int fd, tree, r = 0;

	fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 0 : -errno;
	tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE |
				    AT_EMPTY_PATH);
	if (tree < 0 ||
	    mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &ro, sizeof(ro)) < 0 ||
	    move_mount(tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = -errno;
	if (tree >= 0)
		close(tree);
	close(fd);
	return r;
}

/*
 * Every mount read-only (mount_setattr() of "/", AT_RECURSIVE), but the
 * writable trees: each a copy of itself, taken before (open_tree()
 * OPEN_TREE_CLONE: a detached tree keeps its mounts' flags whatever is
 * done to the namespace's) and bound on the very directory it was taken
 * from (move_mount() onto the descriptor, not a name looked up again),
 * so that no tree is shown anywhere it was not: the mounts only take
 * write access away, and Landlock and the files' modes still decide.
 * Their VCS directories then a read-only copy each, bound on
 * themselves.  The program cannot undo it: it holds no CAP_SYS_ADMIN
 * here, and what a user namespace of its own copies is locked
 * (MNT_LOCK_READONLY, fs/namespace.c).  Writes to read-only files then
 * fail with EROFS before Landlock is asked (fs/namei.c, open_last_lookups()
 * and filename_create() take mnt_want_write() first).
 */
int sw_sandbox_mount(const struct sw_sandbox_mounts *m)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };
	int at[2] = { -1, -1 }, tree[2] = { -1, -1 }, r = 0;

	for (size_t i = 0; i < m->n_writable && r >= 0; i++) {
		at[i] = open(m->writable[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (at[i] >= 0)
			tree[i] = open_tree(at[i], "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						       AT_RECURSIVE | AT_EMPTY_PATH);
		if (at[i] < 0 || tree[i] < 0)
			r = -errno;
	}
	/* The working directory is a dentry of the mount it was entered
	 * on: one covered below keeps pointing there (fs/namei.c follows
	 * mounts only when a name is looked up), so it is entered again by
	 * its name afterwards. */
	if (r >= 0 && !getcwd(m->cwd, PATH_MAX))
		m->cwd[0] = '\0';
	if (r >= 0 && mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof(ro)) < 0)
		r = -errno;
	for (size_t i = 0; i < m->n_writable && r >= 0; i++) {
		if (move_mount(tree[i], "", at[i], "",
			       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
			r = -errno;
			break;
		}
		if (i == 0)	/* the workspace's, by the tree now there */
			for (size_t k = 0; k < N_ROWS && r >= 0; k++)
				if (rows[k].vcs)
					r = vcs_read_only(tree[i], rows[k].path + 1);
	}
	if (r >= 0 && m->cwd[0] == '/' && chdir(m->cwd) < 0)
		r = -errno;
	for (int i = 0; i < 2; i++) {
		if (tree[i] >= 0)
			close(tree[i]);
		if (at[i] >= 0)
			close(at[i]);
	}
	return r;
}
