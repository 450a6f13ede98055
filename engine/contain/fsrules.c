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
 * The apply (sw_fsrules_apply(), fsapply.c, which says how it finds
 * which hierarchy is beneath which), in the launch child,
 * async-signal-safe: raw system calls on memory the plan allocated,
 * after the child has taken the program's root, namespaces (a client's,
 * the session's own mounts: nsbox.c), uid and working directory, so that
 * every path is looked up as the program would, and after the seize, so
 * that a path on a file system that never answers holds this session
 * only, never the supervisor (route 13; the chdir has the same reason).
 * After it, the rules it added are read: by `sysward check`
 * (fscheck.c) and by complain mode's judge (here).
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
#include "contain/fsplan.h"
#include "contain/fsrules.h"

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
void sw_fsrules_rights_words(uint64_t rights, char *buf, size_t len)
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
			sw_fsrules_rights_words(fr->dropped_fs, words, sizeof(words));
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
