// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A "paths" rule made the kernel's where that is exact: a refusal by
 * prefix that Landlock can say on the files themselves (docs/security.md,
 * route 21; policy/README.md, "How a paths rule is enforced").  The one
 * home of the decision: sw_pathrule_landlock() is read by the launch
 * (prepare.c: the rule leaves the filter, its hierarchy enters the
 * session's Landlock ruleset), by `sysward check` (an "enforce:" line
 * per rule, with the reason) and, through pathrule_words[], by the docs
 * (tests/unit/test_pathrules.c checks that policy/README.md lists each).
 *
 * A rule is exact when what the string rule refuses, Landlock refuses on
 * the file found, and Landlock refuses nothing more that the program
 * could otherwise do:
 *  - its action is SCMP_ACT_ERRNO with EACCES (Landlock's errno), no
 *    "when", no "log", no argument conditions;
 *  - one condition: a "prefix" ending with "/", absolute, no "." or ".."
 *    component, not negated: a directory hierarchy (a glob, an exact
 *    string, "/etc" that also matches /etcetera, or a complement are
 *    not);
 *  - every call it names is one whose access to the file Landlock
 *    decides on this ABI, at the argument its condition reads
 *    (landlock_calls[]);
 *  - no rule before it names one of its calls (first match: an earlier
 *    allow or rewrite would be lost), every rule after it that names one
 *    is a plain allow, and the default allows them;
 *  - the run is not in complain mode (--complain lets a refused call
 *    run, and Landlock's refusals do not pass the supervisor); a run that
 *    sees refusals (--log, --report, --gate) keeps the rule at the
 *    supervisor too (SW_PATHRULE_BOTH), so that the string's refusals
 *    are logged and counted as before, and the kernel refuses the other
 *    names of the file, unseen (launch.c says so);
 *  - the launch is sysward run's own (not a syswardd client's: the
 *    daemon looks no client path up before the seize, route 13), the
 *    policy has no "filesystem" or "network" section of its own (one ruleset, whose
 *    nearest hierarchy decides), and the prefix is a directory here;
 *  - no directory on the way from "/" to it can get new entries from the
 *    program (its uid cannot write there, or the mount is read-only):
 *    Landlock's rules are on the files of the launch, so the directories
 *    on the way keep only the rights that the hierarchy keeps
 *    (fsrules.c), and a file made there later would get none of the
 *    rights the rule refuses, where the string rule refuses it nothing;
 *    and the entries of those directories, each a rule, are few enough.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "internal.h"
#include "contain/fsrules.h"

#define OPEN_RIGHTS	(SW_FS_READ_FILE | SW_FS_WRITE_FILE | SW_FS_READ_DIR | \
			 SW_FS_TRUNCATE | SW_FS_MAKE_REG)
#define MKNOD_RIGHTS	(SW_FS_MAKE_REG | SW_FS_MAKE_CHAR | SW_FS_MAKE_BLOCK | \
			 SW_FS_MAKE_FIFO | SW_FS_MAKE_SOCK)

/*
 * The calls whose access to the file their path names Landlock decides
 * (security/landlock/fs.c: hook_file_open() for opens, by the open's
 * mode; hook_path_mknod(), hook_path_mkdir(), hook_path_symlink(),
 * hook_path_unlink(), hook_path_rmdir(), hook_path_truncate(); an exec
 * opens the file with __FMODE_EXEC: EXECUTE), the argument that holds
 * the path, and the rights that refuse every use of the call beneath a
 * hierarchy.  An O_PATH open asks no right (it reads nothing; a later
 * open through it is decided): the one use of an open the kernel lets
 * through, said by `check`, the docs and route 21.
 */
static const struct landlock_call {
	const char *name;
	unsigned int index;
	uint64_t rights;
} landlock_calls[] = {
	{ "open", 0, OPEN_RIGHTS },
	{ "openat", 1, OPEN_RIGHTS },
	{ "openat2", 1, OPEN_RIGHTS },
	{ "creat", 0, OPEN_RIGHTS },
	{ "execve", 0, SW_FS_EXECUTE },
	{ "execveat", 1, SW_FS_EXECUTE },
	{ "mkdir", 0, SW_FS_MAKE_DIR },
	{ "mkdirat", 1, SW_FS_MAKE_DIR },
	{ "mknod", 0, MKNOD_RIGHTS },
	{ "mknodat", 1, MKNOD_RIGHTS },
	{ "symlink", 1, SW_FS_MAKE_SYM },
	{ "symlinkat", 2, SW_FS_MAKE_SYM },
	{ "unlink", 0, SW_FS_REMOVE_FILE },
	{ "rmdir", 0, SW_FS_REMOVE_DIR },
	{ "unlinkat", 1, SW_FS_REMOVE_FILE | SW_FS_REMOVE_DIR },
	{ "truncate", 0, SW_FS_TRUNCATE },
};

/* The reasons, in words: the table the docs list (policy/README.md). */
static const char *const pathrule_words[SW_PATHRULE_COUNT] = {
	[SW_PATHRULE_LANDLOCK] = "Landlock, no stop",
	[SW_PATHRULE_NONE] = "no \"paths\" condition",
	[SW_PATHRULE_ACTION] = "its action is not SCMP_ACT_ERRNO with EACCES, the one refusal Landlock makes",
	[SW_PATHRULE_COUNTED] = "it has \"when\", \"log\" or argument conditions, which only the supervisor keeps",
	[SW_PATHRULE_CONDS] = "more than one \"paths\" condition",
	[SW_PATHRULE_SHAPE] = "its condition is no directory hierarchy: only a \"prefix\" that is absolute, ends with \"/\" and has no \".\" or \"..\" is (a glob, an exact string, \"not\", or \"/etc\", which also matches /etcetera, are not)",
	[SW_PATHRULE_CALL] = "it names a call whose access Landlock does not decide at that argument on this kernel",
	[SW_PATHRULE_ORDER] = "another rule naming one of its calls comes before it, or after it with an action other than a plain allow, or the default does not allow them (first match)",
	[SW_PATHRULE_BOTH] = "Landlock, and the supervisor at a stop as well",
	[SW_PATHRULE_SEEN] = "this run is in complain mode, which lets a refused call run, and Landlock's refusals do not pass the supervisor",
	[SW_PATHRULE_DAEMON] = "a syswardd session: the daemon looks up no client path before the seize (route 13)",
	[SW_PATHRULE_FILESYSTEM] = "the policy has a \"filesystem\" or \"network\" section (one ruleset, whose nearest hierarchy decides): write the hierarchy there",
	[SW_PATHRULE_MISSING] = "its prefix is not a directory here",
	[SW_PATHRULE_WAY] = "a directory on the way to it can get new entries from the program, which the rule refuses nothing but Landlock would (its rules are on the files there at launch)",
	[SW_PATHRULE_MANY] = "the directories on the way to it have more entries than half the rules a launch may add (each becomes a Landlock rule of its own)",
	[SW_PATHRULE_OFF] = "SYSWARD_PATHS_SUPERVISOR is set in sysward's environment",
};

const char *sw_pathrule_words(enum sw_pathrule why)
{
	return why < SW_PATHRULE_COUNT ? pathrule_words[why] : "?";
}

static const struct landlock_call *landlock_call(const char *name)
{
	for (size_t i = 0; i < sizeof(landlock_calls) / sizeof(landlock_calls[0]); i++)
		if (!strcmp(landlock_calls[i].name, name))
			return &landlock_calls[i];
	return NULL;
}

static bool names_common(const struct sw_rule *a, const struct sw_rule *b)
{
	for (size_t i = 0; i < a->n_names; i++)
		for (size_t k = 0; k < b->n_names; k++)
			if (!strcmp(a->names[i], b->names[k]))
				return true;
	return false;
}

/* "/a/b/": absolute, ends with "/", no "//", "." or ".." component. */
static bool is_hierarchy(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || s[0] != '/' || s[n - 1] != '/')
		return false;
	for (const char *c = s; *c; c++)
		if (c[0] == '/' && (c[1] == '/' ||
		    (c[1] == '.' && (c[2] == '/' || (c[2] == '.' && c[3] == '/')))))
			return false;
	return true;
}

/* The rule's part: what the policy alone decides. */
static enum sw_pathrule static_part(const struct sw_policy *p, size_t i,
				    const bool *applies, int abi, uint64_t *ret_rights)
{
	const struct sw_rule *r = &p->rules[i];
	const struct sw_path_cond *c = r->paths;
	uint64_t rights = 0, handled = sw_fs_rights_of_abi(abi);

	if (!r->n_paths)
		return SW_PATHRULE_NONE;
	if (r->action != SW_ACT_ERRNO || r->errno_ret != EACCES)
		return SW_PATHRULE_ACTION;
	if (r->when_first || r->when_last || r->when_step || r->audit || r->n_args)
		return SW_PATHRULE_COUNTED;
	if (r->n_paths != 1)
		return SW_PATHRULE_CONDS;
	if (c->negate || c->match != SW_MATCH_PREFIX || !is_hierarchy(c->pattern))
		return SW_PATHRULE_SHAPE;
	for (size_t k = 0; k < r->n_names; k++) {
		const struct landlock_call *lc = landlock_call(r->names[k]);

		/* every right of the call on this ABI: without truncate
		 * (ABI < 3) truncate(2) is not decided; an open's O_TRUNC
		 * asks write-file with it */
		if (!lc || lc->index != c->index || !(lc->rights & handled) ||
		    (lc->rights == SW_FS_TRUNCATE && !(handled & SW_FS_TRUNCATE)))
			return SW_PATHRULE_CALL;
		rights |= lc->rights & handled;
	}
	if (p->default_action != SW_ACT_ALLOW)
		return SW_PATHRULE_ORDER;
	for (size_t j = 0; j < p->n_rules; j++) {
		const struct sw_rule *o = &p->rules[j];

		if (j == i || !applies[j] || !names_common(r, o))
			continue;
		if (j < i || o->action != SW_ACT_ALLOW || o->audit ||
		    o->when_first || o->when_last || o->when_step)
			return SW_PATHRULE_ORDER;
	}
	*ret_rights = rights;
	return SW_PATHRULE_LANDLOCK;
}

/* Can uid (with groups unknown: any group-writable counts) make entries
 * in the directory st on a file system of flags? */
static bool entries_possible(const struct stat *st, bool ro, uid_t uid, bool dac_cap)
{
	if (ro)
		return false;
	if (dac_cap)
		return true;
	return (st->st_mode & S_IWOTH) || (st->st_mode & S_IWGRP) ||
	       (st->st_uid == uid && (st->st_mode & S_IWUSR));
}

/* The entries of directory path, at most limit + 1 counted. */
static size_t entries_of(const char *path, size_t limit)
{
	DIR *d = opendir(path);
	size_t n = 0;

	if (!d)
		return limit + 1;
	while (n <= limit && readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * The launch's part: the prefix on disk, the directories on the way.
 * The way is the one the kernel walks: from the prefix's real path (its
 * symbolic links followed, as fsrules.c opens it) up to "/".  Every
 * entry of a directory on the way becomes a rule of its own
 * (fsrules.c): a way of more entries than a launch may add would make
 * the launch fail where the string rule runs.
 */
static enum sw_pathrule disk_part(const char *prefix, uid_t uid, bool dac_cap)
{
	char buf[PATH_MAX];
	struct stat st;
	struct statvfs vfs;
	size_t entries = 0;
	char *slash;

	if (!realpath(prefix, buf) || stat(buf, &st) < 0 || !S_ISDIR(st.st_mode))
		return SW_PATHRULE_MISSING;
	while ((slash = strrchr(buf, '/'))) {
		if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(buf, &st) < 0 || statvfs(buf, &vfs) < 0)
			return SW_PATHRULE_MISSING;
		if (entries_possible(&st, vfs.f_flag & ST_RDONLY, uid, dac_cap))
			return SW_PATHRULE_WAY;
		entries += entries_of(buf, SW_FSRULES_MAX_RULES / 2);
		if (entries > SW_FSRULES_MAX_RULES / 2)
			return SW_PATHRULE_MANY;
		if (slash == buf)
			break;
	}
	return SW_PATHRULE_LANDLOCK;
}

enum sw_pathrule sw_pathrule_landlock(const struct sw_policy *p, size_t i,
				      const bool *applies,
				      const struct sw_pathrule_ctx *ctx,
				      uint64_t *ret_rights)
{
	enum sw_pathrule why;
	uint64_t rights = 0;

	why = static_part(p, i, applies, ctx->abi, &rights);
	if (why != SW_PATHRULE_LANDLOCK)
		return why;
	if (ctx->off)
		return SW_PATHRULE_OFF;
	if (ctx->complain)
		return SW_PATHRULE_SEEN;
	if (ctx->daemon)
		return SW_PATHRULE_DAEMON;
	if (p->has_filesystem || p->has_network)
		return SW_PATHRULE_FILESYSTEM;
	why = disk_part(p->rules[i].paths[0].pattern, ctx->uid, ctx->dac_cap);
	if (why == SW_PATHRULE_LANDLOCK && ret_rights)
		*ret_rights = rights;
	if (why == SW_PATHRULE_LANDLOCK && ctx->refusals_seen)
		why = SW_PATHRULE_BOTH;
	return why;
}

const char *sw_pathrules_unseen_words(void)
{
	return "the policy's \"paths\" rules that `sysward check` says are Landlock's are the kernel's too: their refusals of the strings they match are logged, reported and gated as before, but the other names of those files (relative, through a descriptor, a link, /proc/self/root, ...) fail with EACCES without reaching sysward (docs/security.md, route 21)";
}

/* ---- the plan: the rules' hierarchies as file rules -------------------- */

struct sw_pathrules {
	size_t n_rules;
	enum sw_pathrule *why;		/* per policy rule */
	uint64_t *rights;		/* refused beneath, when compiled */
	int abi;
};

void sw_pathrules_free(struct sw_pathrules *pr)
{
	if (!pr)
		return;
	free(pr->why);
	free(pr->rights);
	free(pr);
}

bool sw_pathrules_compiled(const struct sw_pathrules *pr, size_t i)
{
	return pr && i < pr->n_rules && pr->why[i] == SW_PATHRULE_LANDLOCK;
}

bool sw_pathrules_kernel(const struct sw_pathrules *pr, size_t i)
{
	return pr && i < pr->n_rules &&
	       (pr->why[i] == SW_PATHRULE_LANDLOCK || pr->why[i] == SW_PATHRULE_BOTH);
}

int sw_pathrules_plan(const struct sw_policy *p, const bool *applies,
		      const struct sw_pathrule_ctx *ctx,
		      struct sw_pathrules **ret, struct sw_error *err)
{
	struct sw_pathrules *pr = calloc(1, sizeof(*pr));

	if (!pr || !(pr->why = calloc(p->n_rules + 1, sizeof(*pr->why))) ||
	    !(pr->rights = calloc(p->n_rules + 1, sizeof(*pr->rights)))) {
		sw_pathrules_free(pr);
		return sw_error_set_errno(err, ENOMEM, "plan the paths rules");
	}
	pr->n_rules = p->n_rules;
	pr->abi = ctx->abi;
	for (size_t i = 0; i < p->n_rules; i++)
		pr->why[i] = applies[i]
			? sw_pathrule_landlock(p, i, applies, ctx, &pr->rights[i])
			: SW_PATHRULE_NONE;
	*ret = pr;
	return 0;
}

/*
 * The compiled rules as hierarchies: "/" with every right, and each
 * prefix with every right but those its rule refuses (the rights of the
 * rules on one prefix together).  fsrules.c compiles "fewer inside more"
 * by granting the entries beside the way; the way is closed to new
 * entries (disk_part()), so nothing is refused that the strings allow.
 */
int sw_pathrules_fsrules(const struct sw_policy *p, const struct sw_pathrules *pr,
			 int abi, struct sw_fsrules **ret, struct sw_error *err)
{
	struct sw_fs_spec *v;
	size_t n = 0;
	int r;

	*ret = NULL;
	v = calloc(p->n_rules + 1, sizeof(*v));
	if (!v)
		return sw_error_set_errno(err, ENOMEM, "plan the paths rules");
	v[n++] = (struct sw_fs_spec){ .path = "/", .access = SW_FS_ALL,
				      .what = "syscalls", .written = "/" };
	for (size_t i = 0; i < pr->n_rules; i++) {
		const char *pat;
		size_t k;

		if (!sw_pathrules_kernel(pr, i))
			continue;
		pat = p->rules[i].paths[0].pattern;
		for (k = 1; k < n; k++)
			if (!strcmp(v[k].written, pat))
				break;
		if (k == n)
			v[n++] = (struct sw_fs_spec){ .path = pat, .access = SW_FS_ALL,
						      .what = p->rules[i].json_path,
						      .written = pat };
		v[k].access &= ~pr->rights[i];
	}
	r = n > 1 ? sw_fsrules_new(v, n, false, true, NULL, abi, true, ret, err) : 0;
	free(v);
	return r;
}

/* `sysward check`: one line per "paths" rule. */
int sw_pathrules_describe(const struct sw_policy *p, const struct sw_pathrules *pr,
			  sw_fsrules_describe_fn fn, void *ud)
{
	char msg[1024], rights[256];
	int r;

	for (size_t i = 0; pr && i < pr->n_rules; i++) {
		if (!p->rules[i].n_paths || pr->why[i] == SW_PATHRULE_NONE)
			continue;
		if (sw_pathrules_kernel(pr, i)) {
			sw_fs_access_describe(pr->rights[i], rights, sizeof(rights));
			snprintf(msg, sizeof(msg),
				 "paths: Landlock ABI %d, %s: %s refused beneath %s on the file found, whatever string names it (EACCES; an O_PATH open, which reads nothing, is not refused)",
				 pr->abi,
				 pr->why[i] == SW_PATHRULE_BOTH
				 ? "and the supervisor at a stop for this run's log, report or gate (the other names' refusals unseen)"
				 : "no stop",
				 rights, p->rules[i].paths[0].pattern);
		} else {
			snprintf(msg, sizeof(msg), "paths: the supervisor, at a stop: %s",
				 pathrule_words[pr->why[i]]);
		}
		r = fn(p->rules[i].json_path, msg, ud);
		if (r < 0)
			return r;
	}
	return 0;
}
