// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hierarchies with rights, and TCP ports, made the kernel's: rules of the
 * session's Landlock domain (landlock.c), decided on the file found and
 * the port asked for, with no stop (docs/security.md, route 21).  The one
 * home of "a set of hierarchies with rights -> a Landlock ruleset": the
 * policy's "filesystem" and "network" sections come here through
 * sw_fsrules_from_policy(), any other caller with its own sw_fs_spec list.
 *
 * Two halves.  The plan (sw_fsrules_new(), before the fork: it
 * allocates): the hierarchies copied, their rights masked to what the
 * running kernel's Landlock ABI enforces; a right newer than the kernel
 * is not handled, so nothing refuses it (best effort, said by `sysward
 * check` and `sysward info`), or, with "strict", the launch is refused.
 * The apply (sw_fsrules_apply(), in the launch child, async-signal-safe:
 * raw system calls on memory the plan allocated), after the child has
 * taken the program's root, namespaces (a client's, the session's own
 * mounts: nsbox.c), uid and working directory, so that every path is
 * looked up as the program would, and after the seize, so that a path
 * on a file system that never answers holds this session only, never
 * the supervisor (route 13; the chdir has the same reason).
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
 *    has (M below), so that no narrower one inherits more than it asks;
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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "contain/fsrules.h"

/* A node: a hierarchy's file, or a directory on the way between two. */
struct fs_node {
	uint64_t dev, ino;
	int fd;			/* O_PATH, -1 when closed */
	int parent;		/* node index, -1: none (beneath no other) */
	int spec;		/* the first hierarchy naming it, -1: a directory between */
	int origin;		/* the hierarchy whose walk found it */
	int up;			/* its level above origin's file */
	bool dir;
	bool has_children;
	uint64_t want;		/* hierarchies: their rights, together */
	uint64_t below;		/* M: every hierarchy's beneath it, in common */
	uint64_t grant;		/* the rule on its file */
	int gov;		/* the hierarchy node deciding what is beneath */
	uint32_t beside;	/* entries beside narrower ones given gov's rights */
};

/* A rule added: for the supervisor's check in complain mode and of a
 * refusal's cause, and for `sysward check`. */
struct fs_added {
	uint64_t dev, ino;
	uint64_t access;
	int32_t spec;		/* the hierarchy this file is, or -1 */
};

/* The rules added, written by the apply in the launch child.  In
 * complain mode a shared mapping made before the fork: the supervisor
 * reads there the very table the child built in the program's view
 * (the child's writes precede its exec, and the program's first stop
 * follows it); the exec drops the mapping from the program. */
struct fs_table {
	size_t n;
	struct fs_added v[];
};

#define TABLE_LEN	(sizeof(struct fs_table) + \
			 SW_FSRULES_MAX_RULES * sizeof(struct fs_added))

struct fs_spec_copy {
	char *path;
	bool cwd;
	uint64_t access;	/* asked */
	bool optional;
	char *what, *written;
	/* the apply's */
	int node;		/* -1: skipped (optional, missing) */
};

struct sw_fsrules {
	int abi;
	bool enforce;
	bool has_fs;		/* a file-system section: file rights handled */
	uint64_t handled_fs;	/* what the kernel enforces; rules are masked */
	uint64_t dropped_fs;	/* asked to be refused somewhere, not enforced */
	uint64_t handled_net;
	bool net_dropped;	/* the network section, not enforced (ABI < 4) */
	struct fs_spec_copy *specs;
	size_t n_specs;
	struct sw_port_range *bind, *connect;
	size_t n_bind, n_connect;
	/* the apply's memory, allocated by the plan */
	struct fs_node *nodes;
	size_t n_nodes, max_nodes;
	struct fs_table *table;	/* calloc'd, or mmap'd when !enforce */
	char *dents;		/* getdents64 */
	char *scratch;		/* a file's path, its links followed */
	struct stat root;
};

#define DENTS_LEN	(32 * 1024)
#define SCRATCH_LEN	(2 * 4096)

void sw_fsrules_free(struct sw_fsrules *fr)
{
	if (!fr)
		return;
	for (size_t i = 0; i < fr->n_specs; i++) {
		free(fr->specs[i].path);
		free(fr->specs[i].what);
		free(fr->specs[i].written);
	}
	for (size_t i = 0; fr->nodes && i < fr->n_nodes; i++)
		if (fr->nodes[i].fd >= 0)
			close(fr->nodes[i].fd);
	free(fr->specs);
	free(fr->bind);
	free(fr->connect);
	free(fr->nodes);
	if (fr->table && !fr->enforce)
		munmap(fr->table, TABLE_LEN);
	else
		free(fr->table);
	free(fr->dents);
	free(fr->scratch);
	free(fr);
}

bool sw_fsrules_has_paths(const struct sw_fsrules *fr)
{
	return fr && fr->has_fs;
}

const char *sw_kernel_refusals_unseen(const struct sw_policy *p, bool complain)
{
	if (!p || (!p->has_network && (complain || !p->has_filesystem)))
		return NULL;
	return sw_fsrules_unseen_words(complain);
}

const char *sw_fsrules_unseen_words(bool complain)
{
	return complain
		? "the policy's \"network\" rules stay the kernel's (Landlock) in complain mode: a TCP bind or connect they refuse fails with EACCES without reaching sysward, so it is not in the audit log or the report; its \"filesystem\" rules are judged by sysward instead, on each open (docs/security.md, route 21b)"
		: "the policy's \"filesystem\" and \"network\" rules are the kernel's (Landlock): what they refuse fails with EACCES without reaching sysward, so it is not in the audit log, the report or the gate; run it again with --complain to have sysward judge the file rules and report each open they would refuse (docs/security.md, route 21b)";
}

bool sw_fsrules_enforced(const struct sw_fsrules *fr)
{
	return fr && ((fr->enforce && fr->has_fs) || fr->handled_net);
}

static int copy_ports(const struct sw_tcp_ports *tp, struct sw_port_range **ret,
		      size_t *ret_n)
{
	if (!tp || tp->any || !tp->n_ranges)
		return 0;
	*ret = calloc(tp->n_ranges, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	memcpy(*ret, tp->ranges, tp->n_ranges * sizeof(**ret));
	*ret_n = tp->n_ranges;
	return 0;
}

/* "truncate (Landlock ABI 3, Linux 6.2), ioctl-dev (ABI 5, Linux 6.10)" */
static void rights_with_abi(uint64_t rights, char *buf, size_t len)
{
	static const char *const linux_of[] = { "", "5.13", "5.19", "6.2", "6.7",
						"6.10", "6.12", "6.15" };
	size_t used = 0;

	buf[0] = '\0';
	for (int b = 0; b < 64 && used < len; b++) {
		int abi;

		if (!(rights & (1ULL << b)))
			continue;
		abi = sw_fs_right_abi(1ULL << b);
		used += (size_t)snprintf(buf + used, len - used, "%s%s (Landlock ABI %d, Linux %s)",
					 used ? ", " : "", sw_fs_right_name(1ULL << b),
					 abi, abi < 8 ? linux_of[abi] : "?");
	}
}

/*
 * The rights some hierarchy leaves out somewhere, that this kernel cannot
 * refuse: what a policy loses on it.  Everything outside every hierarchy
 * gets nothing, so a right is left out somewhere unless a hierarchy at
 * "/" grants it and none inside lacks it (which the strings can tell;
 * the disk could only add).
 */
static uint64_t dropped_rights(const struct fs_spec_copy *v, size_t n,
			       uint64_t handled)
{
	uint64_t everywhere = 0, lacking = 0;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].cwd && !strcmp(v[i].path, "/"))
			everywhere |= v[i].access;
		else
			lacking |= ~v[i].access;
	}
	return SW_FS_ALL & ~handled & (~everywhere | lacking);
}

static void fsrules_freep(struct sw_fsrules **fr)
{
	sw_fsrules_free(*fr);
}

int sw_fsrules_new(const struct sw_fs_spec *specs, size_t n, bool fs_strict,
		   bool has_fs, const struct sw_net_spec *net, int abi,
		   bool enforce, struct sw_fsrules **ret, struct sw_error *err)
{
	__attribute__((cleanup(fsrules_freep))) struct sw_fsrules *fr = NULL;
	char words[512];

	if (n > SW_FSRULES_MAX_SPECS)
		return sw_error_set(err, E2BIG, "%zu hierarchies, at most %d", n,
				    SW_FSRULES_MAX_SPECS);
	fr = calloc(1, sizeof(*fr));
	if (!fr)
		return sw_error_set_errno(err, ENOMEM, "plan the file rules");
	fr->abi = abi;
	fr->enforce = enforce;
	fr->has_fs = has_fs;
	if (has_fs) {
		fr->specs = calloc(n ? n : 1, sizeof(*fr->specs));
		if (!fr->specs)
			return sw_error_set_errno(err, ENOMEM, "plan the file rules");
		for (size_t i = 0; i < n; i++) {
			struct fs_spec_copy *c = &fr->specs[i];

			fr->n_specs++;
			c->path = strdup(specs[i].path);
			c->what = strdup(specs[i].what ? specs[i].what : "a hierarchy");
			c->written = strdup(specs[i].written ? specs[i].written : specs[i].path);
			if (!c->path || !c->what || !c->written)
				return sw_error_set_errno(err, ENOMEM, "plan the file rules");
			c->cwd = specs[i].cwd;
			c->access = specs[i].access & SW_FS_ALL;
			c->optional = specs[i].optional;
			c->node = -1;
		}
		fr->handled_fs = sw_fs_rights_of_abi(abi);
		fr->dropped_fs = dropped_rights(fr->specs, fr->n_specs, fr->handled_fs);
		if (fs_strict && fr->dropped_fs) {
			rights_with_abi(fr->dropped_fs, words, sizeof(words));
			return sw_error_set(err, EOPNOTSUPP,
					    "filesystem: \"strict\": the running kernel's Landlock (ABI %d) cannot refuse %s; boot a newer kernel, or remove \"strict\" to run with those rights left to the program",
					    abi, words);
		}
		/* The apply's memory: a walk adds at most one node per
		 * directory level; far fewer in practice. */
		fr->max_nodes = SW_FSRULES_MAX_NODES;
		fr->nodes = calloc(fr->max_nodes, sizeof(*fr->nodes));
		if (enforce) {
			fr->table = calloc(1, TABLE_LEN);
		} else {
			fr->table = mmap(NULL, TABLE_LEN, PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
			if (fr->table == MAP_FAILED)
				fr->table = NULL;
		}
		fr->dents = malloc(DENTS_LEN);
		fr->scratch = malloc(SCRATCH_LEN);
		if (!fr->nodes || !fr->table || !fr->dents || !fr->scratch)
			return sw_error_set_errno(err, ENOMEM, "plan the file rules");
	}
	if (net) {
		if (abi < 4) {
			if (net->strict)
				return sw_error_set(err, EOPNOTSUPP,
						    "network: \"strict\": the running kernel's Landlock (ABI %d) has no network rights (ABI 4, Linux 6.7); boot a newer kernel, or remove \"strict\" to run with the network as it is",
						    abi);
			fr->net_dropped = true;
		} else {
			fr->handled_net = (net->bind && net->bind->any ? 0 : SW_NET_BIND_TCP) |
					  (net->connect && net->connect->any ? 0 : SW_NET_CONNECT_TCP);
			if (copy_ports(net->bind, &fr->bind, &fr->n_bind) < 0 ||
			    copy_ports(net->connect, &fr->connect, &fr->n_connect) < 0)
				return sw_error_set_errno(err, ENOMEM, "plan the network rules");
		}
	}
	*ret = TAKE_PTR(fr);
	return 0;
}

/* The value of name in envp (NULL: none). */
static const char *env_of(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

int sw_fsrules_from_policy(const struct sw_policy *p, const struct sw_launch *l,
			   int abi, bool enforce, struct sw_fsrules **ret,
			   struct sw_error *err)
{
	extern char **environ;
	char *const *envp = l->envp ? l->envp : environ;
	struct sw_fs_spec *v = NULL;
	char **paths = NULL;
	struct sw_net_spec net = { &p->tcp_bind, &p->tcp_connect, p->net_strict };
	int r = 0;

	if (p->n_fs_rules) {
		v = calloc(p->n_fs_rules, sizeof(*v));
		paths = calloc(p->n_fs_rules, sizeof(*paths));
		if (!v || !paths) {
			r = sw_error_set_errno(err, ENOMEM, "plan the file rules");
			goto out;
		}
	}
	for (size_t i = 0; r >= 0 && i < p->n_fs_rules; i++) {
		const struct sw_fs_rule *fr = &p->fs_rules[i];
		const char *base = NULL, *var = NULL;

		switch (fr->base) {
		case SW_FS_BASE_ROOT:
			base = "";
			break;
		case SW_FS_BASE_CWD:
			/* the child's working directory, relative */
			base = NULL;
			break;
		case SW_FS_BASE_HOME:
			var = "HOME";
			base = env_of(envp, "HOME");
			break;
		case SW_FS_BASE_TMPDIR:
			var = "TMPDIR";
			base = env_of(envp, "TMPDIR");
			if (!base || !*base)
				base = "/tmp";	/* as mktemp(1) and glibc's tmpfile */
			break;
		}
		if (var && (!base || base[0] != '/')) {
			r = sw_error_set(err, EINVAL,
					 "%s: ${%s} is %s in the program's environment; a hierarchy must be an absolute path",
					 fr->json_path, var, base ? "not absolute" : "not set");
			break;
		}
		if (fr->base == SW_FS_BASE_CWD) {
			/* "/x" -> "x", "" -> "" (the directory itself) */
			paths[i] = strdup(fr->rest[0] == '/' ? fr->rest + 1 : fr->rest);
		} else if (asprintf(&paths[i], "%s%s", base,
				    fr->base == SW_FS_BASE_ROOT ? fr->path : fr->rest) < 0) {
			paths[i] = NULL;
		}
		if (!paths[i]) {
			r = sw_error_set_errno(err, ENOMEM, "plan the file rules");
			break;
		}
		v[i] = (struct sw_fs_spec){
			.path = paths[i],
			.cwd = fr->base == SW_FS_BASE_CWD,
			.access = fr->access,
			.optional = fr->optional,
			.what = fr->json_path,
			.written = fr->path,
		};
	}
	if (r >= 0)
		r = sw_fsrules_new(v, p->n_fs_rules, p->fs_strict, p->has_filesystem,
				   p->has_network ? &net : NULL, abi, enforce, ret, err);
out:
	for (size_t i = 0; paths && i < p->n_fs_rules; i++)
		free(paths[i]);
	free(paths);
	free(v);
	return r;
}

int sw_fsrules_ruleset(const struct sw_fsrules *fr, int abi, int *ret_fd,
		       struct sw_error *err)
{
	uint64_t fs = 0, net = 0;
	cleanup_close int fd = -1;
	int r;

	/* Complain mode leaves the file rights to the supervisor
	 * (sw_fsrules_judge()); the ports stay the kernel's. */
	if (fr) {
		fs = fr->enforce && fr->has_fs ? fr->handled_fs : 0;
		net = fr->handled_net;
	}
	r = sw_landlock_ruleset(abi, fs, net, &fd, err);
	if (r < 0)
		return r;
	for (int k = 0; fr && net && k < 2; k++) {
		const struct sw_port_range *v = k ? fr->connect : fr->bind;
		size_t nv = k ? fr->n_connect : fr->n_bind;
		uint64_t right = k ? SW_NET_CONNECT_TCP : SW_NET_BIND_TCP;

		if (!(net & right))
			continue;
		for (size_t i = 0; i < nv; i++)
			for (uint32_t port = v[i].first; port <= v[i].last; port++) {
				r = sw_landlock_allow_port(fd, (uint16_t)port, right);
				if (r < 0)
					return sw_error_set_errno(err, -r,
								  "add the rule for TCP port %u (%s) to the Landlock ruleset",
								  port, k ? "connect" : "bind");
			}
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* ---- the apply: in the launch child, async-signal-safe --------------------- */

#define FAIL(w, st, sp, lv) \
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
			return FAIL(w, SW_FSR_OPEN, (int)i, 0);
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
			return FAIL(w, SW_FSR_NODES, (int)i, 0);
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
			return FAIL(w, fr->nodes[i].dir ? SW_FSR_WALK : SW_FSR_PARENT, spec, 1);
		for (;;) {
			struct stat st;
			int k;

			up++;
			if (fstat(dfd, &st) < 0) {
				close(dfd);
				return FAIL(w, SW_FSR_WALK, spec, up);
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
				return FAIL(w, SW_FSR_NODES, spec, up);
			}
			fr->nodes[cur].parent = k;
			fr->nodes[k].has_children = true;
			cur = k;
			dfd = openat(fr->nodes[k].fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (dfd < 0)
				return FAIL(w, SW_FSR_WALK, spec, up + 1);
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
		return FAIL(w, SW_FSR_LIST, n->origin, n->up);
	for (;;) {
		long len = syscall(SYS_getdents64, dfd, fr->dents, DENTS_LEN);

		if (len < 0) {
			int e = errno;

			close(dfd);
			errno = e;
			return FAIL(w, SW_FSR_LIST, n->origin, n->up);
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
				return FAIL(w, SW_FSR_ENTRY, n->origin, n->up);
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
				return FAIL(w, e == E2BIG ? SW_FSR_RULES : SW_FSR_ADD,
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
			return FAIL(w, errno == E2BIG ? SW_FSR_RULES : SW_FSR_ADD,
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

/* ---- what `sysward check` says: each rule as this kernel enforces it ---- */

/* Rules the apply added beside the way down from hierarchy node g. */
static uint32_t beside_of(const struct sw_fsrules *fr, int g)
{
	uint32_t k = 0;

	for (size_t i = 0; i < fr->n_nodes; i++)
		if (fr->nodes[i].gov == g)
			k += fr->nodes[i].beside;
	return k;
}

int sw_fsrules_describe(struct sw_fsrules *fr, sw_fsrules_describe_fn fn, void *ud)
{
	struct sw_fsrules_where w;
	char msg[6144], asked[256], got[256], dropped[512];
	int r;

	if (!fr)
		return 0;
	if (fr->has_fs) {
		r = sw_fsrules_apply(fr, -1, &w);
		if (r < 0) {
			char why[4600];

			sw_fsrules_explain(fr, &w, why, sizeof(why));
			snprintf(msg, sizeof(msg),
				 "sysward run would refuse it here (in this working directory and environment): cannot %s: %s",
				 why, strerror(-r));
			return fn("filesystem", msg, ud);
		}
		if (fr->dropped_fs) {
			rights_with_abi(fr->dropped_fs, dropped, sizeof(dropped));
			snprintf(msg, sizeof(msg),
				 "this kernel's Landlock (ABI %d) cannot refuse %s: the program keeps %s everywhere (best effort; \"strict\": true refuses the launch instead)",
				 fr->abi, dropped, fr->dropped_fs & (fr->dropped_fs - 1) ? "them" : "it");
			r = fn("filesystem", msg, ud);
			if (r < 0)
				return r;
		}
		for (size_t i = 0; i < fr->n_specs; i++) {
			const struct fs_spec_copy *c = &fr->specs[i];
			const struct fs_node *n = c->node >= 0 ? &fr->nodes[c->node] : NULL;
			size_t used;

			sw_fs_access_describe(c->access, asked, sizeof(asked));
			if (!n) {
				snprintf(msg, sizeof(msg),
					 "%s (%s): missing here, skipped (\"optional\")",
					 c->written, asked);
				r = fn(c->what, msg, ud);
				if (r < 0)
					return r;
				continue;
			}
			sw_fs_access_describe(n->grant, got, sizeof(got));
			used = (size_t)snprintf(msg, sizeof(msg),
						"%s (%s): Landlock ABI %d, no stop: %s on %s itself",
						c->written, asked, fr->abi,
						n->grant == (c->access & fr->handled_fs &
							     (n->dir ? SW_FS_ALL : SW_FS_FILE_RIGHTS))
						? "the rule" : "only",
						n->dir ? "the directory" : "the file");
			if (n->grant != (c->access & fr->handled_fs &
					 (n->dir ? SW_FS_ALL : SW_FS_FILE_RIGHTS)))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 " (%s: the way to narrower hierarchies inside)",
							 got);
			if (c->node >= 0 && fr->nodes[c->node].spec == (int)i && beside_of(fr, c->node))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 "; its rights given to the %u entr%s beside those hierarchies, as they are now",
							 beside_of(fr, c->node),
							 beside_of(fr, c->node) == 1 ? "y" : "ies");
			if (!n->dir && (c->access & ~SW_FS_FILE_RIGHTS))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 "; a file takes only a file's rights");
			if (c->access & ~fr->handled_fs) {
				rights_with_abi(c->access & ~fr->handled_fs, dropped, sizeof(dropped));
				snprintf(msg + used, sizeof(msg) - used,
					 "; not enforced here: %s", dropped);
			}
			r = fn(c->what, msg, ud);
			if (r < 0)
				return r;
		}
	}
	if (fr->net_dropped)
		return fn("network",
			  "this kernel's Landlock has no network rights (ABI 4, Linux 6.7): TCP binds and connects are not restricted (best effort; \"strict\": true refuses the launch instead)",
			  ud);
	for (int k = 0; k < 2; k++) {
		const struct sw_port_range *v = k ? fr->connect : fr->bind;
		size_t nv = k ? fr->n_connect : fr->n_bind, used;
		uint64_t right = k ? SW_NET_CONNECT_TCP : SW_NET_BIND_TCP;

		if (!(fr->handled_net & right))
			continue;
		used = (size_t)snprintf(msg, sizeof(msg),
					"TCP %s: Landlock ABI %d, no stop: ", k ? "connect" : "bind",
					fr->abi);
		if (!nv)
			snprintf(msg + used, sizeof(msg) - used, "none (EACCES)");
		for (size_t i = 0; i < nv && used < sizeof(msg); i++)
			used += (size_t)snprintf(msg + used, sizeof(msg) - used,
						 v[i].first == v[i].last ? "%s%u" : "%s%u-%u",
						 i ? ", " : "", v[i].first, v[i].last);
		r = fn(k ? "network.tcp.connect" : "network.tcp.bind", msg, ud);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- complain mode: the rules judged by the supervisor -------------------- */

/*
 * As the kernel's walk (security/landlock/fs.c,
 * is_access_to_paths_allowed()): the rights on the file and on every
 * directory from dirfd up, ".." opened as the kernel follows it (a
 * mount's root leaves the mount, fs/namei.c follow_dotdot()), until the
 * root, where ".." is the directory itself.  The nearest hierarchy met
 * names the rule.
 */
int sw_fsrules_judge(const struct sw_fsrules *fr, int dirfd,
		     const struct stat *file, uint64_t need,
		     uint64_t *ret_refused, int *ret_spec)
{
	struct stat st = *file;
	uint64_t granted = 0;
	int spec = -1, fd = -1;

	*ret_refused = 0;
	*ret_spec = -1;
	if (!fr || !fr->has_fs || !fr->table)
		return 0;
	need &= fr->handled_fs;
	for (int depth = 0; need & ~granted; depth++) {
		struct stat up;
		int next;

		for (size_t i = 0; i < fr->table->n; i++) {
			const struct fs_added *a = &fr->table->v[i];

			if (a->dev != (uint64_t)st.st_dev || a->ino != (uint64_t)st.st_ino)
				continue;
			granted |= a->access;
			if (spec < 0 && a->spec >= 0)
				spec = a->spec;
		}
		if (depth > 4096)
			break;
		next = openat(fd >= 0 ? fd : dirfd, depth ? ".." : ".",
			      O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up) < 0) {
			int e = errno;

			if (next >= 0)
				close(next);
			if (fd >= 0)
				close(fd);
			return -e;
		}
		if (fd >= 0)
			close(fd);
		fd = next;
		if (depth && up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break;		/* the root */
		st = up;
	}
	if (fd >= 0)
		close(fd);
	*ret_refused = need & ~granted;
	*ret_spec = spec;
	return 0;
}

const char *sw_fsrules_spec_words(const struct sw_fsrules *fr, int spec,
				  const char **ret_written)
{
	if (!fr || spec < 0 || (size_t)spec >= fr->n_specs) {
		*ret_written = NULL;
		return NULL;
	}
	*ret_written = fr->specs[spec].written;
	return fr->specs[spec].what;
}

bool sw_fsrules_complaining(const struct sw_fsrules *fr)
{
	return fr && !fr->enforce && fr->has_fs;
}
