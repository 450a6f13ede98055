/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's Landlock domain and its file and network rules:
 * landlock.c, fsrules.c (the one home of hierarchies with rights -> a
 * ruleset: the plan, complain mode's judge; the apply in fsapply.c,
 * `sysward check`'s words in fscheck.c), sandbox.c (--sandbox),
 * pathrules.c ("paths" rules made the kernel's).
 */
#ifndef SW_ENGINE_FSRULES_H
#define SW_ENGINE_FSRULES_H

#include "internal.h"
#include "contain/landlock.h"

/* ---- sandbox.c: `sysward run --sandbox`, a layer of its own ------------ */

/* The sandbox's rules for the kernel of Landlock ABI abi: its own
 * ruleset, entered before the policy's (p: its "network" section decides
 * the network when sb gives no ports).  enforce false: complain mode,
 * the file rules judged by the supervisor (sw_fsrules_new()). */
int sw_sandbox_plan(const struct sw_sandbox *sb, const struct sw_policy *p,
		    int abi, bool mounts, bool enforce, struct sw_fsrules **ret,
		    struct sw_error *err);

/* Where the session has a mount namespace of its own (nsbox.c), the
 * read-only trees are read-only mounts too, so that writes there fail
 * with EROFS, as under bubblewrap; the VCS metadata is then the mounts'
 * alone, and the workspace's own directory keeps every right. */
struct sw_sandbox_mounts {
	char *writable[2];	/* the workspace, the temporary directory */
	size_t n_writable;
	char *cwd;		/* PATH_MAX bytes: the child's, looked up again */
};
int sw_sandbox_mounts_plan(const struct sw_sandbox *sb, const char *cwd,
			   struct sw_sandbox_mounts *ret, struct sw_error *err);
void sw_sandbox_mounts_free(struct sw_sandbox_mounts *m);
/* In the launch child, in its own mount namespace, before it drops
 * CAP_SYS_ADMIN.  Async-signal-safe.  0 or -errno. */
int sw_sandbox_mount(const struct sw_sandbox_mounts *m);

/* ---- fsrules.c, fsapply.c, fscheck.c: the file and network rules ------ */

/*
 * One hierarchy with rights: the one input of "hierarchies with rights
 * -> a Landlock ruleset" (the policy's "filesystem" section is turned
 * into these by sw_fsrules_from_policy(); another caller may make its
 * own).  path: absolute, or relative to the program's working directory
 * (cwd; "" for the directory itself).  what names it in messages
 * ("filesystem.paths[2]"), written as the author wrote it ("${CWD}/.git").
 */
struct sw_fs_spec {
	const char *path;
	bool cwd;
	uint64_t access;	/* SW_FS_* */
	bool optional;		/* missing at launch: skipped */
	const char *what;
	const char *written;
};

/* The TCP ports of a launch: bind and connect, each any or the ranges. */
struct sw_net_spec {
	const struct sw_tcp_ports *bind, *connect;
	bool strict;
};

#define SW_FSRULES_MAX_SPECS	1024	/* hierarchies of one launch */
#define SW_FSRULES_MAX_NODES	4096	/* those and the directories
					 * between them, found on disk */
#define SW_FSRULES_MAX_RULES	16384	/* rules one launch adds: its
					 * hierarchies and the entries
					 * beside narrower ones */

struct sw_fsrules;

/* Where the launch child's sw_fsrules_apply() failed. */
enum sw_fsrules_step {
	SW_FSR_NONE,
	SW_FSR_OPEN,		/* the hierarchy's path (spec index) */
	SW_FSR_PARENT,		/* the directory a file is in */
	SW_FSR_WALK,		/* "..", from a hierarchy up to the root */
	SW_FSR_NODES,		/* more than SW_FSRULES_MAX_NODES directories */
	SW_FSR_LIST,		/* listing a directory beside a narrower one */
	SW_FSR_ENTRY,		/* an entry of that directory */
	SW_FSR_RULES,		/* more than SW_FSRULES_MAX_RULES rules */
	SW_FSR_ADD,		/* landlock_add_rule */
	SW_FSR_TABLE,		/* the rules' table for the supervisor */
};

struct sw_fsrules_where {
	int step;		/* enum sw_fsrules_step */
	int spec;		/* the hierarchy it was about, or -1 */
	int up;			/* SW_FSR_LIST, _ENTRY: levels above it */
	bool sandbox;		/* the sandbox's layer (sandbox.c), not the policy's */
};

/*
 * The plan, before the fork (it allocates): the specs copied and masked
 * to what the kernel of Landlock ABI abi enforces (the rest dropped, or
 * the launch refused with strict), the network's ports.  enforce:
 * the domain handles the rights (false in complain mode, where the
 * supervisor checks them instead).  NULL specs and net: a plan with
 * nothing, for the domain alone.
 */
int sw_fsrules_new(const struct sw_fs_spec *specs, size_t n, bool fs_strict,
		   bool has_fs, const struct sw_net_spec *net, int abi,
		   bool enforce, struct sw_fsrules **ret, struct sw_error *err);
/* The same from a policy's sections, its variables expanded for launch
 * l (${HOME}, ${TMPDIR} from its environment; ${CWD} is the child's). */
int sw_fsrules_from_policy(const struct sw_policy *p, const struct sw_launch *l,
			   int abi, bool enforce, struct sw_fsrules **ret,
			   struct sw_error *err);
void sw_fsrules_free(struct sw_fsrules *fr);
/* Has it hierarchies for the launch child to apply? */
bool sw_fsrules_has_paths(const struct sw_fsrules *fr);
/* Does the session's domain refuse files or ports by its rules (so that
 * their refusals never reach the supervisor)? */
bool sw_fsrules_enforced(const struct sw_fsrules *fr);
/* What a run that asked to see refusals is told then (the text of
 * sw_kernel_refusals_unseen()). */
const char *sw_fsrules_unseen_words(bool complain);
/* The session's ruleset for fr (NULL: the domain alone): the rights it
 * handles, and its TCP ports added.  *ret_fd as sw_landlock_ruleset(). */
int sw_fsrules_ruleset(const struct sw_fsrules *fr, int abi, int *ret_fd,
		       struct sw_error *err);
/*
 * In the launch child, in the program's view (its root, namespaces,
 * working directory and uid), async-signal-safe: open each hierarchy,
 * find on disk which is beneath which, and add its rules to ruleset_fd
 * (for a narrower hierarchy with fewer rights, the entries beside it get
 * the wider one's instead, fsapply.c says why).  ruleset_fd < 0: a dry
 * run, nothing added (sysward check).  0 or -errno with *where set.
 */
int sw_fsrules_apply(struct sw_fsrules *fr, int ruleset_fd,
		     struct sw_fsrules_where *where);
/* Rights as words, each with the Landlock ABI and Linux that enforce it
 * first: "truncate (Landlock ABI 3, Linux 6.2), ...". */
void sw_fsrules_rights_words(uint64_t rights, char *buf, size_t len);
/* For `sysward check`: each hierarchy and port list as this kernel
 * enforces it, from a dry run of the apply in the caller's view (fr is
 * used up): fn(json path, words).  0, or fn's first negative value. */
typedef int (*sw_fsrules_describe_fn)(const char *path, const char *msg, void *ud);
int sw_fsrules_describe(struct sw_fsrules *fr, sw_fsrules_describe_fn fn, void *ud);
/* After an apply: the rule it added on the file (dev, ino), its rights
 * in *ret_access; -ENOENT if none (the file gets what the rules on its
 * directories give).  The plan as the kernel has it, for tests and for
 * a supervisor that checks the rules itself. */
int sw_fsrules_rule_on(const struct sw_fsrules *fr, uint64_t dev, uint64_t ino,
		       uint64_t *ret_access);
/*
 * Complain mode (fr planned with enforce false): would the rules refuse
 * rights need on the file file, in directory dirfd (the supervisor's
 * O_PATH descriptor of it), as the kernel's walk decides?  *ret_refused
 * the rights no rule on the way grants, *ret_spec the nearest
 * hierarchy's index (-1: none).  0 or -errno (the walk could not go up).
 */
struct stat;
int sw_fsrules_judge(const struct sw_fsrules *fr, int dirfd,
		     const struct stat *file, uint64_t need,
		     uint64_t *ret_refused, int *ret_spec);
/* Hierarchy spec's words ("--sandbox: the workspace") and path as
 * written; NULL for none. */
const char *sw_fsrules_spec_words(const struct sw_fsrules *fr, int spec,
				  const char **ret_written);
/* Is fr a plan whose file rules the supervisor judges (complain mode)? */
bool sw_fsrules_complaining(const struct sw_fsrules *fr);
/* In the parent: what failed at *where, in words. */
void sw_fsrules_explain(const struct sw_fsrules *fr,
			const struct sw_fsrules_where *where, char *buf,
			size_t size);

/* ---- pathrules.c: "paths" rules made the kernel's where exact --------- */

struct sw_pathrules;

/* How a "paths" rule is enforced, and why: the one decision, read by the
 * launch, by `sysward check` and by the docs. */
enum sw_pathrule {
	SW_PATHRULE_LANDLOCK,	/* compiled: no stop */
	SW_PATHRULE_BOTH,	/* compiled, and kept at the supervisor for a
				 * run that sees refusals */
	SW_PATHRULE_NONE,	/* no "paths" (or the rule does not apply) */
	SW_PATHRULE_ACTION,
	SW_PATHRULE_COUNTED,
	SW_PATHRULE_CONDS,
	SW_PATHRULE_SHAPE,
	SW_PATHRULE_CALL,
	SW_PATHRULE_ORDER,
	SW_PATHRULE_SEEN,
	SW_PATHRULE_DAEMON,
	SW_PATHRULE_FILESYSTEM,
	SW_PATHRULE_MISSING,
	SW_PATHRULE_WAY,
	SW_PATHRULE_MANY,
	SW_PATHRULE_OFF,
	SW_PATHRULE_COUNT
};

struct sw_pathrule_ctx {
	int abi;		/* the kernel's Landlock ABI */
	bool refusals_seen;	/* --log, --report, --gate */
	bool complain;		/* --complain */
	bool daemon;		/* a syswardd client's launch */
	bool off;		/* SYSWARD_PATHS_SUPERVISOR: keep them all */
	uid_t uid;		/* the program's */
	bool dac_cap;		/* it keeps CAP_DAC_OVERRIDE */
};

const char *sw_pathrule_words(enum sw_pathrule why);
/* Rule i of p (applies[]: which rules apply to this launch): compiled,
 * with the rights it refuses beneath its prefix in *ret_rights, or why
 * not.  Looks the prefix and the directories above it up. */
enum sw_pathrule sw_pathrule_landlock(const struct sw_policy *p, size_t i,
				      const bool *applies,
				      const struct sw_pathrule_ctx *ctx,
				      uint64_t *ret_rights);
int sw_pathrules_plan(const struct sw_policy *p, const bool *applies,
		      const struct sw_pathrule_ctx *ctx,
		      struct sw_pathrules **ret, struct sw_error *err);
void sw_pathrules_free(struct sw_pathrules *pr);
/* What a run that sees refusals is told when rules are compiled. */
const char *sw_pathrules_unseen_words(void);
/* Rule i leaves the filter (Landlock alone decides it). */
bool sw_pathrules_compiled(const struct sw_pathrules *pr, size_t i);
/* Rule i is in the session's Landlock domain (alone, or with the
 * supervisor: SW_PATHRULE_BOTH). */
bool sw_pathrules_kernel(const struct sw_pathrules *pr, size_t i);
/* The compiled rules as a file-system layer (NULL: none compiled). */
int sw_pathrules_fsrules(const struct sw_policy *p, const struct sw_pathrules *pr,
			 int abi, struct sw_fsrules **ret, struct sw_error *err);
int sw_pathrules_describe(const struct sw_policy *p, const struct sw_pathrules *pr,
			  sw_fsrules_describe_fn fn, void *ud);

#endif
