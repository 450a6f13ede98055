// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lints: judgements on a valid policy that point at dead rules, names
 * and conditions (policy.h, sw_policy_lint()).  Nothing here refuses a
 * policy: each is legal, and almost certainly not what the author meant
 * (a "paths" condition on no path argument is worse: it makes calls
 * fail; it stays a warning for the reasons lint_path_args gives).
 * Gates (includes/excludes) make a rule conditional here, since whether
 * it applies depends on the launch.
 */
#include <stdio.h>
#include <string.h>

#include "sysward/pathargs.h"
#include "sysward/policy.h"

bool sw_args_contradict(const struct sw_arg_cond *args, size_t n,
			size_t *ret_a, size_t *ret_b)
{
	for (size_t a = 0; a < n; a++) {
		const struct sw_arg_cond *x = &args[a];

		/* (arg & mask) == value cannot hold for bits of value that
		 * the mask clears. */
		if (x->op == SW_CMP_MASKED_EQ && (x->value_two & ~x->value)) {
			*ret_a = *ret_b = a;
			return true;
		}
		for (size_t b = a + 1; b < n; b++) {
			const struct sw_arg_cond *y = &args[b];
			bool eq_eq = x->op == SW_CMP_EQ && y->op == SW_CMP_EQ &&
				     x->value != y->value;
			bool eq_ne = ((x->op == SW_CMP_EQ && y->op == SW_CMP_NE) ||
				      (x->op == SW_CMP_NE && y->op == SW_CMP_EQ)) &&
				     x->value == y->value;

			if (x->index == y->index && (eq_eq || eq_ne)) {
				*ret_a = a;
				*ret_b = b;
				return true;
			}
		}
	}
	return false;
}

/* fnmatch(3)'s bracket expression, as glibc reads it: the offset after
 * its closing ']', or 0 if there is none. */
static size_t bracket_end(const char *s, size_t open)
{
	size_t i = open + 1;

	if (s[i] == '!' || s[i] == '^')
		i++;
	if (s[i] == ']')
		i++;		/* a member, not the end */
	for (; s[i]; i++) {
		if (s[i] == '\\' && s[i + 1]) {
			i++;
		} else if (s[i] == '[' && (s[i + 1] == ':' || s[i + 1] == '.' ||
					   s[i + 1] == '=')) {
			char kind = s[i + 1];
			const char *close = strchr(s + i + 2, kind);

			/* "[:alpha:]": its ']' does not end the set */
			if (close && close[1] == ']')
				i = (size_t)(close - s) + 1;
		} else if (s[i] == ']') {
			return i + 1;
		}
	}
	return 0;
}

long sw_glob_unclosed_bracket(const char *pattern)
{
	for (size_t i = 0; pattern[i]; i++) {
		size_t end;

		if (pattern[i] == '\\' && pattern[i + 1]) {
			i++;
			continue;
		}
		if (pattern[i] != '[')
			continue;
		end = bracket_end(pattern, i);
		if (!end)
			return (long)i;
		i = end - 1;
	}
	return -1;
}

static bool rule_is_unconditional(const struct sw_rule *r)
{
	return r->n_args == 0 && r->n_paths == 0 && r->when_first == 0 &&
	       r->when_last == 0 && r->when_step == 0 && !r->has_includes &&
	       !r->has_excludes;
}

static bool rule_names(const struct sw_rule *r, const char *name)
{
	for (size_t i = 0; i < r->n_names; i++)
		if (strcmp(r->names[i], name) == 0)
			return true;
	return false;
}

/* Index of an earlier rule that decides every call of name, or -1. */
static long shadowing_rule(const struct sw_policy *p, size_t upto,
			   const char *name)
{
	for (size_t j = 0; j < upto; j++)
		if (rule_is_unconditional(&p->rules[j]) &&
		    rule_names(&p->rules[j], name))
			return (long)j;
	return -1;
}

/* Would the two rules decide a call the same way? */
static bool same_decision(const struct sw_rule *a, const struct sw_rule *b)
{
	return a->action == b->action && a->errno_ret == b->errno_ret &&
	       a->ret_value == b->ret_value && a->ret_is_errno == b->ret_is_errno;
}

static const char *jpath(const struct sw_rule *r)
{
	return r->json_path ? r->json_path : "rule";
}

static int describe_cond(char *buf, size_t len, const struct sw_arg_cond *c)
{
	static const char *const ops[] = {
		[SW_CMP_NE] = "!=", [SW_CMP_LT] = "<", [SW_CMP_LE] = "<=",
		[SW_CMP_EQ] = "==", [SW_CMP_GE] = ">=", [SW_CMP_GT] = ">",
	};

	if (c->op == SW_CMP_MASKED_EQ)
		return snprintf(buf, len, "(arg %u & %#llx) == %#llx", c->index,
				(unsigned long long)c->value,
				(unsigned long long)c->value_two);
	return snprintf(buf, len, "arg %u %s %llu", c->index, ops[c->op],
			(unsigned long long)c->value);
}

static int lint_args(const struct sw_rule *r, sw_lint_fn fn, void *ud)
{
	char path[128], msg[512], x[96], y[96];
	size_t a, b;

	if (!sw_args_contradict(r->args, r->n_args, &a, &b))
		return 0;
	snprintf(path, sizeof(path), "%s.args", jpath(r));
	describe_cond(x, sizeof(x), &r->args[a]);
	if (a == b) {
		snprintf(msg, sizeof(msg),
			 "never matches: args[%zu] (%s) cannot hold: the value has bits outside the mask",
			 a, x);
	} else {
		describe_cond(y, sizeof(y), &r->args[b]);
		snprintf(msg, sizeof(msg),
			 "never matches: args[%zu] (%s) and args[%zu] (%s) cannot both hold",
			 a, x, b, y);
	}
	return fn(SW_POLICY_WARN_OTHER, path, msg, ud);
}

static int lint_globs(const struct sw_rule *r, sw_lint_fn fn, void *ud)
{
	char path[128], msg[SW_ERROR_MSG_MAX];

	for (size_t i = 0; i < r->n_paths; i++) {
		const struct sw_path_cond *c = &r->paths[i];
		long off;
		int e;

		if (c->match != SW_MATCH_GLOB)
			continue;
		off = sw_glob_unclosed_bracket(c->pattern);
		if (off < 0)
			continue;
		snprintf(path, sizeof(path), "%s.paths[%zu].glob", jpath(r), i);
		snprintf(msg, sizeof(msg),
			 "\"%.*s\": the '[' at byte %ld opens no bracket expression (no closing ']'), so it matches only a literal '[' (write \"\\\\[\" to say so, or close the set)",
			 256, c->pattern, off);
		e = fn(SW_POLICY_WARN_OTHER, path, msg, ud);
		if (e < 0)
			return e;
	}
	return 0;
}

static int lint_names(const struct sw_policy *p, size_t i, sw_lint_fn fn,
		      void *ud)
{
	const struct sw_rule *r = &p->rules[i];
	long first = -1;
	size_t k;
	char path[128], msg[512];
	int e;

	for (k = 0; k < r->n_names; k++) {
		for (size_t d = 0; d < k; d++) {
			if (strcmp(r->names[d], r->names[k]) != 0)
				continue;
			snprintf(path, sizeof(path), "%s.names[%zu]", jpath(r), k);
			snprintf(msg, sizeof(msg),
				 "\"%s\" is already named by names[%zu]: the duplicate changes nothing",
				 r->names[k], d);
			e = fn(SW_POLICY_WARN_OTHER, path, msg, ud);
			if (e < 0)
				return e;
			break;
		}
	}

	/* The whole rule hidden by earlier ones: one warning for it. */
	for (k = 0; k < r->n_names; k++) {
		long j = shadowing_rule(p, i, r->names[k]);

		if (j < 0)
			break;
		if (first < 0)
			first = j;
	}
	if (r->n_names && k == r->n_names) {
		snprintf(msg, sizeof(msg),
			 "never applies: every syscall it names is already decided by %s, which comes first and has no conditions",
			 p->rules[first].json_path ? p->rules[first].json_path
						   : "an earlier rule");
		return fn(SW_POLICY_WARN_OTHER, jpath(r), msg, ud);
	}
	/* Else each hidden name that this rule would decide otherwise. */
	for (k = 0; k < r->n_names; k++) {
		long j = shadowing_rule(p, i, r->names[k]);

		if (j < 0 || same_decision(&p->rules[j], r))
			continue;
		snprintf(path, sizeof(path), "%s.names[%zu]", jpath(r), k);
		snprintf(msg, sizeof(msg),
			 "\"%s\" never reaches this rule: %s (%s), which comes first and has no conditions, decides every call of it",
			 r->names[k], jpath(&p->rules[j]),
			 sw_action_name(p->rules[j].action));
		e = fn(SW_POLICY_WARN_OTHER, path, msg, ud);
		if (e < 0)
			return e;
	}
	return 0;
}

/* The policy's ABIs (SCMP_ARCH_* tokens), or the default ones; `def`
 * holds those. */
static const uint32_t *policy_arches(const struct sw_policy *p,
				     uint32_t def[SW_DEFAULT_ARCHES_MAX], size_t *n)
{
	if (p->arch_tokens && p->n_architectures) {
		*n = p->n_architectures;
		return p->arch_tokens;
	}
	*n = sw_default_arches(def);
	return def;
}

/* The policy's ABIs' arguments of `name` a "paths" condition can read:
 * a path, or a unix socket address, on any of them. */
static uint8_t path_args(const struct sw_policy *p, const char *name)
{
	uint32_t def[SW_DEFAULT_ARCHES_MAX];
	size_t n;
	const uint32_t *tokens = policy_arches(p, def, &n);
	uint8_t args = 0;

	for (size_t i = 0; i < n; i++)
		args |= sw_string_args(tokens[i], name);
	return args;
}

/* The argument types ('l' 'i' 'h' 'p', argtypes.c) of name on the first
 * of the policy's ABIs that has it, or NULL. */
static const char *arg_types(const struct sw_policy *p, const char *name)
{
	uint32_t def[SW_DEFAULT_ARCHES_MAX];
	size_t n;
	const uint32_t *tokens = policy_arches(p, def, &n);

	for (size_t i = 0; i < n; i++) {
		const char *t = sw_syscall_arg_types(tokens[i], name);

		if (t)
			return t;
	}
	return NULL;
}

/* "open's path is argument 0", "rename's paths are arguments 0 and 1",
 * "connect's unix address is argument 1". */
static void describe_paths(char *buf, size_t len, const char *name,
			   uint8_t pargs)
{
	unsigned int idx[6], n = 0;
	struct sw_addr_arg a;
	int w;

	if (sw_addr_arg(name, &a) && pargs == (1u << a.index)) {
		snprintf(buf, len, "%s's unix address is argument %u%s", name,
			 a.index, a.kind == SW_ARG_MSGHDR ? ", in its msg_name" : "");
		return;
	}
	for (unsigned int i = 0; i < 6; i++)
		if (pargs & (1u << i))
			idx[n++] = i;
	if (n == 1) {
		snprintf(buf, len, "%s's path is argument %u", name, idx[0]);
		return;
	}
	w = snprintf(buf, len, "%s's paths are arguments", name);
	for (unsigned int i = 0; i < n && w > 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - (size_t)w, "%s %u",
			      i == 0 ? "" : i + 1 == n ? " and" : ",", idx[i]);
}

/* What is wrong with a path condition on argument idx of name, and
 * what to do (lint_path_args says when). */
static void path_arg_msg(char *msg, size_t len, const struct sw_rule *r,
			 const char *name, unsigned int idx, uint8_t pargs,
			 const char *types)
{
	/* What decide.c then does: read a string at the register's value.
	 * A number (open's flags: 0 for O_RDONLY) is no address; a register
	 * the call does not read holds what the caller left there. */
	static const char number[] =
		"the supervisor reads a string at the number there, and the calls this rule sees fail with EFAULT (\"path argument unreadable\")";
	static const char garbage[] =
		"the supervisor reads a string at whatever the register holds: the condition compares garbage, or the call fails with EFAULT (\"path argument unreadable\")";
	bool has = types && idx < strlen(types);
	char what[96], todo[128];

	/* Another name of the rule may want the condition as it is. */
	if (r->n_names > 1)
		snprintf(todo, sizeof(todo), "give %s a rule of its own%s", name,
			 pargs ? "" : " without the condition");
	else
		snprintf(todo, sizeof(todo), "%s",
			 pargs ? "" : has ? "name the argument that holds the path"
					  : "drop the condition");
	if (pargs) {
		char use[160];

		describe_paths(what, sizeof(what), name, pargs);
		snprintf(use, sizeof(use), "use index %u%s%s",
			 (unsigned int)__builtin_ctz(pargs), *todo ? ", or " : "",
			 todo);
		if (has && types[idx] == 'p')
			snprintf(msg, len,
				 "argument %u of \"%s\" is not a path (%s): the condition reads whatever it points to as a string, and a NULL there fails the call with EFAULT; %s",
				 idx, name, what, use);
		else if (has)
			snprintf(msg, len,
				 "argument %u of \"%s\" is not a path (%s): %s; %s",
				 idx, name, what, number, use);
		else
			snprintf(msg, len,
				 "argument %u of \"%s\" is not a path (%s): %s; %s",
				 idx, name, what, garbage, use);
	} else if (!strchr(types, 'p')) {
		snprintf(msg, len,
			 "\"%s\" has no path argument (it takes %s): %s; %s",
			 name, *types ? "no pointer" : "no argument",
			 has ? number : garbage, todo);
	} else {
		snprintf(msg, len,
			 "argument %u of \"%s\" is not a path (%s): %s; %s",
			 idx, name, has ? "it is a number" : "the call has no such argument",
			 has ? number : garbage, todo);
	}
}

/*
 * A "paths" condition reads a NUL-terminated string at the address its
 * argument holds (decide.c).  On an argument that holds a number (open's
 * flags: 0 for O_RDONLY), there is no string: every call the condition
 * sees fails with EFAULT, "path argument unreadable".  Two tables say
 * which argument is what: the path arguments (pathargs.c) and the
 * argument types (argtypes.c).  Warned about, per name of the rule:
 *   - a call the path table lists, at an index that is none of its paths
 *     (whatever the argument is: a number, a buffer, a struct);
 *   - a call it does not list, at an index the types call a number or
 *     the call does not have (getpid: no argument at all).
 * A pointer argument of a call the path table does not list is left
 * alone: the table lists the path names of the kernel it was made from,
 * not every string a call takes (memfd_create's name) nor a newer
 * kernel's calls, and a condition there may well be right.  The path
 * table is asked per ABI of the policy: a path on any of them is one
 * (fanotify_mark's is argument 4, on i386 5).
 *
 * A warning, not a refusal: a rule that names several calls (["openat",
 * "open"] with index 1) is right for the others, the tables know the
 * kernel they were made from and a call may change (a newer kernel, a
 * call they do not have yet), and what happens is an errno, which the
 * author sees in check, at every run and in the audit log.
 */
static int lint_path_args(const struct sw_policy *p, const struct sw_rule *r,
			  sw_lint_fn fn, void *ud)
{
	char path[128], msg[SW_ERROR_MSG_MAX];

	for (size_t i = 0; i < r->n_paths; i++) {
		unsigned int idx = r->paths[i].index;

		for (size_t k = 0; k < r->n_names; k++) {
			const char *name = r->names[k];
			uint8_t pargs = path_args(p, name);
			const char *types = arg_types(p, name);
			int e;

			if (pargs & (1u << idx))
				continue;
			/* Not listed: only a number or no argument is sure. */
			if (!pargs && (!types || (idx < strlen(types) &&
						  types[idx] == 'p')))
				continue;
			snprintf(path, sizeof(path), "%s.paths[%zu]", jpath(r), i);
			path_arg_msg(msg, sizeof(msg), r, name, idx, pargs, types);
			e = fn(SW_POLICY_WARN_NOT_A_PATH, path, msg, ud);
			if (e < 0)
				return e;
		}
	}
	return 0;
}

/* Does rule r let its calls run (a grant, where it names an address)? */
static bool lets_run(const struct sw_rule *r)
{
	return r->action == SW_ACT_ALLOW || r->action == SW_ACT_KLOG ||
	       r->action == SW_ACT_AUDIT;
}

static const char *match_name(enum sw_match m)
{
	return m == SW_MATCH_EXACT ? "exact" : m == SW_MATCH_PREFIX ? "prefix" : "glob";
}

/*
 * Unix socket addresses (docs/security.md, route 19).  A rule that lets
 * connect run when its address matches grants the service bound there,
 * were it a process of the program's uid outside its session, which the
 * engine otherwise refuses: say what each such condition reaches (kind
 * SW_POLICY_WARN_GRANT: no problem, a fact for the author), and where
 * it cannot reach as written: an abstract name outside the session is
 * refused by the session's Landlock domain on ABI 6 and later whatever
 * the policy (the engine's rule, not the policy's), and a negated
 * condition names no service.
 */
static int lint_grants(const struct sw_rule *r, sw_lint_fn fn, void *ud)
{
	static const char abstract_note[] =
		"; an abstract name outside the session stays refused on Landlock ABI 6 and later (Linux 6.12), whose domain scopes abstract sockets whatever the policy";
	char path[128], msg[SW_ERROR_MSG_MAX];
	bool connect = false;
	struct sw_addr_arg a;

	for (size_t k = 0; k < r->n_names; k++)
		connect |= !strcmp(r->names[k], "connect");
	if (!connect || !lets_run(r) || !sw_addr_arg("connect", &a))
		return 0;
	for (size_t i = 0; i < r->n_paths; i++) {
		const struct sw_path_cond *c = &r->paths[i];
		bool abstract = c->pattern[0] == '@';
		int e;

		if (c->index != a.index || c->negate)
			continue;
		snprintf(path, sizeof(path), "%s.paths[%zu]", jpath(r), i);
		if (c->match == SW_MATCH_EXACT)
			snprintf(msg, sizeof(msg),
				 "grants connect to the unix socket \"%.*s\", also where its service is a process of the program's uid outside its session (the name the service bound must be that too)%s",
				 256, c->pattern, abstract ? abstract_note : "");
		else
			snprintf(msg, sizeof(msg),
				 "grants connect to every unix socket whose address matches %s \"%.*s\", also where its service is a process of the program's uid outside its session (the name the service bound must match too)%s",
				 match_name(c->match), 256, c->pattern,
				 abstract ? abstract_note : "");
		e = fn(SW_POLICY_WARN_GRANT, path, msg, ud);
		if (e < 0)
			return e;
	}
	return 0;
}

/*
 * sendmmsg(2) sends to addresses no condition reads: the kernel writes
 * each message's msg_len back into its array, which the path guard's
 * read-only copy cannot take (pathargs.c), so its destinations are not
 * checked.  A policy that decides sendto's or sendmsg's destinations by
 * address and lets sendmmsg run by default leaves that way open.
 */
static int lint_sendmmsg(const struct sw_policy *p, sw_lint_fn fn, void *ud)
{
	const struct sw_rule *by_addr = NULL;
	struct sw_addr_arg a;

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *r = &p->rules[i];

		for (size_t k = 0; k < r->n_names; k++) {
			if (!strcmp(r->names[k], "sendmmsg"))
				return 0;	/* decided by a rule of its own */
			if (by_addr || !sw_addr_arg(r->names[k], &a) ||
			    (strcmp(r->names[k], "sendto") && strcmp(r->names[k], "sendmsg")))
				continue;
			for (size_t c = 0; c < r->n_paths && !by_addr; c++)
				if (r->paths[c].index == a.index)
					by_addr = r;
		}
	}
	if (!by_addr || p->default_action != SW_ACT_ALLOW)
		return 0;
	return fn(SW_POLICY_WARN_OTHER, jpath(by_addr),
		  "decides datagrams' destinations by their unix address, but sendmmsg, which no rule names, sends to addresses no condition reads (the kernel writes its array back: no pinned copy), wherever they say; give sendmmsg a rule of its own (refusing it also refuses glibc's DNS queries, sent with it)",
		  ud);
}

/* The nearest rule of the same base whose path holds rule i's (an
 * ancestor by the strings: the launch finds the others on disk), or -1. */
static long fs_outer(const struct sw_policy *p, size_t i)
{
	const struct sw_fs_rule *in = &p->fs_rules[i];
	size_t best_len = 0;
	long best = -1;

	for (size_t j = 0; j < p->n_fs_rules; j++) {
		const struct sw_fs_rule *out = &p->fs_rules[j];
		size_t n = strlen(out->rest);

		if (j == i || out->base != in->base)
			continue;
		/* "/" holds everything; "/a" holds "/a/b", not "/ab" */
		if (!(n == 1 && out->rest[0] == '/') &&
		    !(n == 0 && in->rest[0]) &&
		    !(strncmp(out->rest, in->rest, n) == 0 && in->rest[n] == '/'))
			continue;
		if (best < 0 || n >= best_len) {
			best = (long)j;
			best_len = n;
		}
	}
	return best;
}

/*
 * A hierarchy inside another with fewer rights.  The kernel's rules only
 * grant (a file gets what the rules on the way from it to the root
 * grant, together), so the engine (engine/contain/fsrules.c) gives the outer
 * rights to each entry beside the inner hierarchy instead of to the
 * outer directory, as it finds them when the program starts: what the
 * author should know is what that leaves the directories on the way.
 */
static int lint_fs_nested(const struct sw_policy *p, size_t i, sw_lint_fn fn,
			  void *ud)
{
	/* What a directory needs for itself: listing it, its entries. */
	const uint64_t dir_rights = SW_FS_ALL & ~SW_FS_FILE_RIGHTS;
	const struct sw_fs_rule *in = &p->fs_rules[i], *out;
	char keep[256], dirs[512], effect[256], msg[SW_ERROR_MSG_MAX];
	long j = fs_outer(p, i);
	size_t used, n_dirs = 1, skip;
	uint64_t lost;

	if (j < 0)
		return 0;
	out = &p->fs_rules[j];
	lost = out->access & ~in->access;
	/* A file right the inner hierarchy lacks only narrows what entries
	 * made later on the way get (/dev/null "read, write" in a tree
	 * "ro" needs no word); a directory's own rights are felt at once. */
	if (!(lost & dir_rights))
		return 0;
	sw_fs_access_describe(out->access & in->access, keep, sizeof(keep));
	/* The directories on the way: the outer one, then each below it
	 * down to the inner one's parent.  c starts at the "/" that ends
	 * the outer path in the inner one, or, below "/" (whose "/" is its
	 * whole rest), at the first letter after it: either way the next
	 * "/" after c ends the first directory below the outer one, and c
	 * never passes the inner path's end ("/a" below "/"). */
	used = (size_t)snprintf(dirs, sizeof(dirs), "%s", out->path);
	skip = strlen(out->rest);
	for (const char *c = in->rest + skip; used < sizeof(dirs);) {
		const char *next = strchr(c + 1, '/');

		if (!next)
			break;
		used += (size_t)snprintf(dirs + used, sizeof(dirs) - used, ", %.*s",
					 (int)(next - in->path), in->path);
		n_dirs++;
		c = next;
	}
	snprintf(effect, sizeof(effect), "%s%s%s%s",
		 lost & SW_FS_READ_DIR ? "listing " : "",
		 lost & SW_FS_READ_DIR ? (n_dirs > 1 ? "them fails with EACCES" : "it fails with EACCES") : "",
		 (lost & SW_FS_READ_DIR) && (lost & dir_rights & ~SW_FS_READ_DIR)
			 ? ", " : "",
		 lost & dir_rights & ~SW_FS_READ_DIR
			 ? (n_dirs > 1 ? "making, removing or moving entries directly in them fails with EACCES"
				       : "making, removing or moving entries directly in it fails with EACCES")
			 : "");
	snprintf(msg, sizeof(msg),
		 "%s is inside %s (%s) with fewer rights, and the kernel's rules only grant: sysward gives %s's rights to each entry beside %s instead, as the entries are when the program starts. The director%s on the way (%.300s) keep%s %s%.200s: %s; an entry made in %s later gets only those rights",
		 in->path, out->path, out->json_path, out->json_path, in->path,
		 n_dirs > 1 ? "ies" : "y", dirs, n_dirs > 1 ? "" : "s",
		 out->access & in->access ? "only " : "",
		 out->access & in->access ? keep : "nothing", effect,
		 n_dirs > 1 ? "them" : "it");
	return fn(SW_POLICY_WARN_OTHER, in->json_path, msg, ud);
}

/* Does some rule refuse socket(2) (any of its conditions)? */
static bool socket_refused(const struct sw_policy *p)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (rule_names(&p->rules[i], "socket") && !lets_run(&p->rules[i]))
			return true;
	return p->default_action != SW_ACT_ALLOW && p->default_action != SW_ACT_KLOG;
}

static int lint_fs(const struct sw_policy *p, sw_lint_fn fn, void *ud)
{
	bool execute = false;
	int e;

	for (size_t i = 0; i < p->n_fs_rules; i++) {
		execute |= p->fs_rules[i].access & SW_FS_EXECUTE;
		e = lint_fs_nested(p, i, fn, ud);
		if (e < 0)
			return e;
	}
	if (p->has_filesystem && !execute) {
		e = fn(SW_POLICY_WARN_OTHER, "filesystem",
		       "no hierarchy grants execute: not even the program can be started (it is executed under these rules), nor its dynamic loader",
		       ud);
		if (e < 0)
			return e;
	}
	if (p->has_network && !socket_refused(p))
		return fn(SW_POLICY_WARN_OTHER, "network",
			  "only TCP binds and connects are the kernel's to refuse by port (Landlock); UDP, raw and other sockets are the syscall rules' to decide, and they let socket(2) run: refuse it for the families the program must not use (policy/README.md, Network)",
			  ud);
	return 0;
}

int sw_policy_lint(const struct sw_policy *p, sw_lint_fn fn, void *ud)
{
	int e;

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *r = &p->rules[i];

		e = lint_names(p, i, fn, ud);
		if (e >= 0)
			e = lint_args(r, fn, ud);
		if (e >= 0)
			e = lint_globs(r, fn, ud);
		if (e >= 0)
			e = lint_path_args(p, r, fn, ud);
		if (e >= 0)
			e = lint_grants(r, fn, ud);
		if (e < 0)
			return e;
	}
	e = lint_sendmmsg(p, fn, ud);
	if (e >= 0)
		e = lint_fs(p, fn, ud);
	return e < 0 ? e : 0;
}
