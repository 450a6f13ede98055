// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The apply of a launch's file rules (fsrules.c makes the plan): in the
 * launch child, in the program's view, async-signal-safe.
 *
 * The kernel's rules only grant (security/landlock/fs.c,
 * is_access_to_paths_allowed()): an access to a file is allowed if the
 * rules on the file and on every directory from it up to the root grant
 * it together, where a mount's root counts and the directory it is
 * mounted on does not.  A policy says "the nearest hierarchy decides"
 * (this tree writable, its .git read-only; this tree readable, its
 * secrets not), so a narrower hierarchy with fewer rights than a wider
 * one around it cannot be a rule beside the wider one's.  Instead:
 *
 *  - which hierarchy is inside which is found on disk, not in the
 *    strings: each one's ".." is opened up to the root (as the kernel's
 *    walk goes, ".." of a mount's root leaves the mount), and a
 *    directory met that is another hierarchy's (same st_dev, st_ino) is
 *    its parent; the directories met on the way are nodes too;
 *  - each node may carry only the rights that every hierarchy beneath it
 *    has (M: a node's below, fsplan.h), so that no narrower one inherits more than it asks;
 *  - every entry beside the way down to a narrower hierarchy (listed
 *    with getdents64, found with fstatat) gets the governing hierarchy's
 *    rights itself, as a rule of its own.
 *
 * What that leaves: the directories on the way keep only the rights both
 * have (listing them, making and removing their entries), and an entry
 * made there after the launch gets only those (policy lint, and
 * docs/security.md say it to the author).  Entries are skipped when they
 * are symbolic links (what one names is judged where it leads).  Rules on
 * a file may hold only the file's rights (EINVAL otherwise).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "contain/fsplan.h"
#include "contain/fsrules.h"

/* Say where the apply failed in *w; -errno. */
#define FAIL_AT(w, st, sp, lv) \
	((w)->step = (st), (w)->spec = (sp), (w)->up = (lv), -errno)

static int find_node(const struct sw_fsrules *fr, const struct stat *st)
{
	for (size_t i = 0; i < fr->n_nodes; i++)
		if (fr->nodes[i].dev == (uint64_t)st->st_dev &&
		    fr->nodes[i].ino == (uint64_t)st->st_ino)
			return (int)i;
	return -1;
}

static int add_node(struct sw_fsrules *fr, int fd, const struct stat *st,
		    int spec, int origin, int up)
{
	struct fs_node *n;

	if (fr->n_nodes == fr->max_nodes) {
		errno = E2BIG;
		return -1;
	}
	n = &fr->nodes[fr->n_nodes];
	*n = (struct fs_node){
		.dev = (uint64_t)st->st_dev, .ino = (uint64_t)st->st_ino,
		.fd = fd, .parent = -1, .spec = spec, .origin = origin, .up = up,
		.dir = S_ISDIR(st->st_mode), .below = SW_FS_ALL, .gov = -1,
	};
	return (int)fr->n_nodes++;
}

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/*
 * The directory a file is in, as the kernel's walk goes up from it: the
 * directory its path names, after a symbolic link at its end is followed
 * by hand (readlinkat; an earlier component's links are the lookup's).
 * The file's name in it must be the file itself.  An O_PATH descriptor,
 * or -1 with errno.
 */
static int file_parent(struct sw_fsrules *fr, const struct fs_spec_copy *c,
		       const struct fs_node *n)
{
	char *p = fr->scratch, *slash;
	size_t len = str_len(c->path);
	struct stat st;
	int dfd, fd;

	if (len >= SCRATCH_LEN / 2) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, c->path, len + 1);
	for (int hops = 0; hops < 40; hops++) {
		ssize_t k;

		fd = openat(AT_FDCWD, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) < 0 || !S_ISLNK(st.st_mode)) {
			close(fd);
			break;
		}
		slash = strrchr(p, '/');
		/* the link's target, relative to the link's directory */
		len = slash ? (size_t)(slash - p) + 1 : 0;
		k = readlinkat(fd, "", p + SCRATCH_LEN / 2, SCRATCH_LEN / 2 - 1);
		close(fd);
		if (k <= 0 || len + (size_t)k >= SCRATCH_LEN / 2) {
			errno = k < 0 ? errno : ENAMETOOLONG;
			return -1;
		}
		if (p[SCRATCH_LEN / 2] == '/')
			len = 0;
		memmove(p + len, p + SCRATCH_LEN / 2, (size_t)k);
		p[len + (size_t)k] = '\0';
	}
	slash = strrchr(p, '/');
	if (!slash) {
		dfd = openat(AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		slash = p - 1;
	} else if (slash == p) {
		dfd = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	} else {
		*slash = '\0';
		dfd = openat(AT_FDCWD, p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (dfd < 0)
		return -1;
	if (fstatat(dfd, slash + 1, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    (uint64_t)st.st_dev != n->dev || (uint64_t)st.st_ino != n->ino) {
		close(dfd);
		errno = ESTALE;
		return -1;
	}
	return dfd;
}

/* Open each hierarchy; one node per file (the rights of those that name
 * the same file go together). */
static int open_specs(struct sw_fsrules *fr, struct sw_fsrules_where *w)
{
	for (size_t i = 0; i < fr->n_specs; i++) {
		struct fs_spec_copy *c = &fr->specs[i];
		const char *path = c->cwd && !c->path[0] ? "." : c->path;
		struct stat st;
		int fd, k;

		fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
		if (fd < 0 && c->optional && (errno == ENOENT || errno == ENOTDIR))
			continue;
		if (fd < 0 || fstat(fd, &st) < 0)
			return FAIL_AT(w, SW_FSR_OPEN, (int)i, 0);
		k = find_node(fr, &st);
		if (k >= 0) {
			fr->nodes[k].want |= c->access;
			c->node = k;
			close(fd);
			continue;
		}
		k = add_node(fr, fd, &st, (int)i, (int)i, 0);
		if (k < 0) {
			close(fd);
			return FAIL_AT(w, SW_FSR_NODES, (int)i, 0);
		}
		fr->nodes[k].want = c->access;
		c->node = k;
	}
	return 0;
}

/* From each hierarchy up to the root, or to the first node met: the
 * nodes' parents, and the directories between as nodes. */
static int walk_up(struct sw_fsrules *fr, struct sw_fsrules_where *w)
{
	size_t n_spec_nodes = fr->n_nodes;

	for (size_t i = 0; i < n_spec_nodes; i++) {
		int cur = (int)i, spec = fr->nodes[i].spec, up = 0;
		int dfd;

		dfd = fr->nodes[i].dir
			? openat(fr->nodes[i].fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC)
			: file_parent(fr, &fr->specs[spec], &fr->nodes[i]);
		if (dfd < 0)
			return FAIL_AT(w, fr->nodes[i].dir ? SW_FSR_WALK : SW_FSR_PARENT, spec, 1);
		for (;;) {
			struct stat st;
			int k;

			up++;
			if (fstat(dfd, &st) < 0) {
				close(dfd);
				return FAIL_AT(w, SW_FSR_WALK, spec, up);
			}
			/* ".." of the root is the root itself */
			if ((uint64_t)st.st_dev == fr->nodes[cur].dev &&
			    (uint64_t)st.st_ino == fr->nodes[cur].ino) {
				close(dfd);
				break;
			}
			k = find_node(fr, &st);
			if (k >= 0) {
				close(dfd);
				fr->nodes[cur].parent = k;
				fr->nodes[k].has_children = true;
				break;
			}
			k = add_node(fr, dfd, &st, -1, spec, up);
			if (k < 0) {
				close(dfd);
				return FAIL_AT(w, SW_FSR_NODES, spec, up);
			}
			fr->nodes[cur].parent = k;
			fr->nodes[k].has_children = true;
			cur = k;
			dfd = openat(fr->nodes[k].fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (dfd < 0)
				return FAIL_AT(w, SW_FSR_WALK, spec, up + 1);
		}
	}
	return 0;
}

/*
 * What each node's rule grants.  gov: the nearest hierarchy at or above
 * it, which decides what is beneath it but not beneath another.  below
 * (M): what every hierarchy beneath it asks, in common: all its node may
 * carry, since everything beneath inherits it.  grant = gov's rights
 * within M.  A hierarchy with nothing beneath it gets its own rights.
 */
static void grants(struct sw_fsrules *fr)
{
	for (size_t i = 0; i < fr->n_nodes; i++) {
		struct fs_node *n = &fr->nodes[i];
		int g = (int)i;

		while (g >= 0 && fr->nodes[g].spec < 0)
			g = fr->nodes[g].parent;
		n->gov = g;
		if (n->spec < 0)
			continue;
		/* A file has no entries: of the directory rights above it
		 * only REMOVE_FILE reaches it, as an entry of its directory:
		 * unlink, and rename away from it or onto it, are checked
		 * on the directories (security/landlock/fs.c,
		 * current_check_refer_path(): maybe_remove() of the source
		 * and of a target replaced), and a file removed can be made
		 * again with other bytes. */
		for (int a = n->parent; a >= 0; a = fr->nodes[a].parent)
			fr->nodes[a].below &= n->want |
					      (n->dir ? 0 : SW_FS_ALL & ~SW_FS_FILE_RIGHTS &
							    ~SW_FS_REMOVE_FILE);
	}
	for (size_t i = 0; i < fr->n_nodes; i++) {
		struct fs_node *n = &fr->nodes[i];
		uint64_t mask = fr->handled_fs & (n->dir ? SW_FS_ALL : SW_FS_FILE_RIGHTS);

		n->grant = n->gov >= 0 ? fr->nodes[n->gov].want & n->below & mask : 0;
	}
}

/* What the rules on node i and the nodes above it grant together. */
static uint64_t inherited(const struct sw_fsrules *fr, int i)
{
	uint64_t g = 0;

	for (; i >= 0; i = fr->nodes[i].parent)
		g |= fr->nodes[i].grant;
	return g;
}

static int add_rule(struct sw_fsrules *fr, int ruleset_fd, int fd,
		    const struct stat *st, uint64_t access, int spec)
{
	if (fr->table->n == SW_FSRULES_MAX_RULES) {
		errno = E2BIG;
		return -1;
	}
	if (ruleset_fd >= 0) {
		int r = sw_landlock_allow_path(ruleset_fd, fd, access);

		if (r < 0) {
			errno = -r;
			return -1;
		}
	}
	fr->table->v[fr->table->n++] = (struct fs_added){
		(uint64_t)st->st_dev, (uint64_t)st->st_ino, access, spec };
	return 0;
}

static bool is_child(const struct sw_fsrules *fr, int parent, const struct stat *st)
{
	for (size_t i = 0; i < fr->n_nodes; i++)
		if (fr->nodes[i].parent == parent &&
		    fr->nodes[i].dev == (uint64_t)st->st_dev &&
		    fr->nodes[i].ino == (uint64_t)st->st_ino)
			return true;
	return false;
}

/* The entries of directory node i beside the nodes beneath it: each gets
 * the governing hierarchy's rights (those it lacks from above). */
static int beside(struct sw_fsrules *fr, int i, int ruleset_fd,
		  struct sw_fsrules_where *w)
{
	struct fs_node *n = &fr->nodes[i];
	uint64_t want = fr->nodes[n->gov].want & fr->handled_fs;
	int dfd;

	dfd = openat(n->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return FAIL_AT(w, SW_FSR_LIST, n->origin, n->up);
	for (;;) {
		long len = syscall(SYS_getdents64, dfd, fr->dents, DENTS_LEN);

		if (len < 0) {
			int e = errno;

			close(dfd);
			errno = e;
			return FAIL_AT(w, SW_FSR_LIST, n->origin, n->up);
		}
		if (len == 0)
			break;
		for (long off = 0; off < len;) {
			struct linux_dirent64 {
				uint64_t d_ino;
				int64_t d_off;
				unsigned short d_reclen;
				unsigned char d_type;
				char d_name[];
			} *d = (void *)(fr->dents + off);
			struct stat st;
			int efd;

			off += d->d_reclen;
			if (d->d_name[0] == '.' && (!d->d_name[1] ||
			    (d->d_name[1] == '.' && !d->d_name[2])))
				continue;
			efd = openat(dfd, d->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			if (efd < 0 && (errno == ENOENT || errno == ENOTDIR))
				continue;	/* gone meanwhile */
			if (efd < 0 || fstat(efd, &st) < 0) {
				int e = errno;

				if (efd >= 0)
					close(efd);
				close(dfd);
				errno = e;
				return FAIL_AT(w, SW_FSR_ENTRY, n->origin, n->up);
			}
			/* a link is judged where it leads; a node has its own */
			if (S_ISLNK(st.st_mode) || is_child(fr, i, &st)) {
				close(efd);
				continue;
			}
			if (add_rule(fr, ruleset_fd, efd, &st,
				     want & (S_ISDIR(st.st_mode) ? SW_FS_ALL
								 : SW_FS_FILE_RIGHTS), -1) < 0) {
				int e = errno;

				close(efd);
				close(dfd);
				errno = e;
				return FAIL_AT(w, e == E2BIG ? SW_FSR_RULES : SW_FSR_ADD,
					    n->origin, n->up);
			}
			n->beside++;
			close(efd);
		}
	}
	close(dfd);
	return 0;
}

int sw_fsrules_apply(struct sw_fsrules *fr, int ruleset_fd,
		     struct sw_fsrules_where *w)
{
	int r;

	*w = (struct sw_fsrules_where){ .step = SW_FSR_NONE, .spec = -1 };
	if (!fr || !fr->has_fs)
		return 0;
	if (!fr->enforce)
		ruleset_fd = -1;	/* the supervisor checks instead */
	r = open_specs(fr, w);
	if (r >= 0)
		r = walk_up(fr, w);
	if (r < 0)
		return r;
	grants(fr);
	for (size_t i = 0; i < fr->n_nodes; i++) {
		struct fs_node *n = &fr->nodes[i];
		struct stat st = { .st_dev = (dev_t)n->dev, .st_ino = (ino_t)n->ino };

		/* complain mode: every hierarchy in the table, to name the
		 * one that decides (sw_fsrules_judge) */
		if ((n->grant || (!fr->enforce && n->spec >= 0)) &&
		    add_rule(fr, ruleset_fd, n->fd, &st, n->grant, n->spec) < 0)
			return FAIL_AT(w, errno == E2BIG ? SW_FSR_RULES : SW_FSR_ADD,
				    n->spec >= 0 ? n->spec : n->origin,
				    n->spec >= 0 ? 0 : n->up);
		/* beside the way down to a narrower hierarchy, where the
		 * rules above do not already grant what gov asks */
		if (n->has_children && n->gov >= 0 && n->dir &&
		    (fr->nodes[n->gov].want & fr->handled_fs & ~inherited(fr, (int)i))) {
			r = beside(fr, (int)i, ruleset_fd, w);
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < fr->n_nodes; i++) {
		close(fr->nodes[i].fd);
		fr->nodes[i].fd = -1;
	}
	return 0;
}

int sw_fsrules_rule_on(const struct sw_fsrules *fr, uint64_t dev, uint64_t ino,
		       uint64_t *ret_access)
{
	for (size_t i = 0; fr && fr->table && i < fr->table->n; i++)
		if (fr->table->v[i].dev == dev && fr->table->v[i].ino == ino) {
			*ret_access = fr->table->v[i].access;
			return 0;
		}
	return -ENOENT;
}

void sw_fsrules_explain(const struct sw_fsrules *fr,
			const struct sw_fsrules_where *w, char *buf, size_t size)
{
	const struct fs_spec_copy *c = fr && w->spec >= 0 && (size_t)w->spec < fr->n_specs
				       ? &fr->specs[w->spec] : NULL;
	char name[4200], at[64] = "";

	if (!c) {
		snprintf(buf, size, "set up its file rules (Landlock)");
		return;
	}
	if (strcmp(c->written, c->path) && !(c->cwd && !c->path[0]))
		snprintf(name, sizeof(name), "%s (%s: %s%s)", c->what, c->written,
			 c->cwd ? "in the working directory, " : "", c->path);
	else
		snprintf(name, sizeof(name), "%s (%s)", c->what, c->written);
	if (w->up > 0)
		snprintf(at, sizeof(at), "%d level%s above ", w->up, w->up > 1 ? "s" : "");
	switch (w->step) {
	case SW_FSR_OPEN:
		snprintf(buf, size,
			 "set up its file rules: %s: the path cannot be opened when the program starts%s",
			 name, c->optional ? "" : " (\"optional\": true skips a path that does not exist)");
		break;
	case SW_FSR_PARENT:
		snprintf(buf, size, "set up its file rules: %s: find the directory the file is in", name);
		break;
	case SW_FSR_WALK:
		snprintf(buf, size, "set up its file rules: %s: open the directory %s it (\"..\")", name, at);
		break;
	case SW_FSR_NODES:
		snprintf(buf, size,
			 "set up its file rules: %s: more than %d hierarchies and directories between them",
			 name, SW_FSRULES_MAX_NODES);
		break;
	case SW_FSR_LIST:
		snprintf(buf, size,
			 "set up its file rules: list the directory %s%s, whose entries beside it get the rights of a wider hierarchy around it (the program's uid must be able to read that directory)",
			 at, name);
		break;
	case SW_FSR_ENTRY:
		snprintf(buf, size, "set up its file rules: an entry of the directory %s%s", at, name);
		break;
	case SW_FSR_RULES:
		snprintf(buf, size,
			 "set up its file rules: %s: more than %d rules (a narrower hierarchy in a directory of that many entries gives each entry beside it a rule of its own); name fewer, or a narrower outer one",
			 name, SW_FSRULES_MAX_RULES);
		break;
	case SW_FSR_ADD:
		snprintf(buf, size, "set up its file rules: %s: add its rule (landlock_add_rule)", name);
		break;
	default:
		snprintf(buf, size, "set up its file rules: %s", name);
		break;
	}
}
