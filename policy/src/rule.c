// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One entry of "syscalls": its action, names, errno/return, argument and
 * path conditions, rewrite and when.  includes/excludes are in gate.c.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sysward/cleanup.h"

/* ------------------------------------------------------------------ */
/* rule parts */

static const char *const op_names[] = {
	[SW_CMP_NE] = "SCMP_CMP_NE",	[SW_CMP_LT] = "SCMP_CMP_LT",
	[SW_CMP_LE] = "SCMP_CMP_LE",	[SW_CMP_EQ] = "SCMP_CMP_EQ",
	[SW_CMP_GE] = "SCMP_CMP_GE",	[SW_CMP_GT] = "SCMP_CMP_GT",
	[SW_CMP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

static int get_index(struct parser *ps, const char *parent,
		     struct json_object *obj, unsigned int *ret)
{
	char kp[PATH_LEN];
	struct json_object *o;
	int64_t v;
	int r;

	sw_pol_path_key(kp, parent, "index");
	if (!json_object_object_get_ex(obj, "index", &o))
		return sw_pol_perr(ps, kp, "missing (the argument number, 0..5)");
	r = sw_pol_get_int_range(ps, kp, o, 0, 5, &v);
	if (r < 0)
		return r;
	*ret = (unsigned int)v;
	return 0;
}

/* "op", into the enum sw_cmp (dst) */
static int parse_op(struct parser *ps, const char *path, struct json_object *v,
		    void *dst)
{
	enum sw_cmp *ret = dst;
	struct sw_suggest s;
	const char *op;
	int r;

	r = sw_pol_get_string(ps, path, v, SW_POLICY_MAX_NAME_LEN, false, &op);
	if (r < 0)
		return r;
	for (int i = SW_CMP_NE; i <= SW_CMP_MASKED_EQ; i++)
		if (strcmp(op_names[i], op) == 0) {
			*ret = (enum sw_cmp)i;
			return 0;
		}
	sw_suggest_init(&s, op);
	for (int i = SW_CMP_NE; i <= SW_CMP_MASKED_EQ; i++)
		sw_suggest_feed(&s, op_names[i]);
	return sw_pol_perr_unknown(ps, path, "operator", op, sw_suggest_result(&s),
				   "expected one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ");
}

/* An argument condition's keys after "index", in the order they are
 * checked. */
static const struct field arg_fields[] = {
	{ .key = "op", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_arg_cond, op),
	  .missing = "missing (one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)",
	  .parse = parse_op },
	{ .key = "value", .kind = FIELD_OCI_VALUE,
	  .offset = offsetof(struct sw_arg_cond, value),
	  .missing = "missing (the number to compare with)" },
	{ .key = "valueTwo", .kind = FIELD_OCI_VALUE,
	  .offset = offsetof(struct sw_arg_cond, value_two) },
};

static int parse_arg(struct parser *ps, const char *path,
		     struct json_object *o, struct sw_arg_cond *a)
{
	static const char *const keys[] = { "index", "value", "valueTwo", "op",
					    NULL };
	char kp[PATH_LEN];
	int r;

	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;
	r = get_index(ps, path, o, &a->index);
	if (r < 0)
		return r;
	/* OCI/Docker: valueTwo defaults to 0; MASKED_EQ tests
	 * (arg & value) == valueTwo, so Docker's clone rule without valueTwo
	 * means "none of these flag bits set". */
	a->value_two = 0;
	r = sw_pol_read_fields(ps, path, o, arg_fields, N_ELEMENTS(arg_fields), a);
	if (r < 0)
		return r;
	if (a->op != SW_CMP_MASKED_EQ && a->value_two != 0) {
		sw_pol_path_key(kp, path, "valueTwo");
		return sw_pol_perr(ps, kp,
				   "only SCMP_CMP_MASKED_EQ uses valueTwo (it compares (arg & value) == valueTwo); remove it or set it to 0");
	}
	return 0;
}

static int parse_path_cond(struct parser *ps, const char *path,
			   struct json_object *o, struct sw_path_cond *pc)
{
	static const char *const keys[] = { "index", "exact", "prefix", "glob",
					    "not", NULL };
	static const struct {
		const char *key;
		enum sw_match m;
	} kinds[] = {
		{ "exact", SW_MATCH_EXACT },
		{ "prefix", SW_MATCH_PREFIX },
		{ "glob", SW_MATCH_GLOB },
	};
	struct json_object *v;
	char kp[PATH_LEN];
	int found = 0, r;

	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;
	r = get_index(ps, path, o, &pc->index);
	if (r < 0)
		return r;
	for (size_t i = 0; i < N_ELEMENTS(kinds); i++) {
		if (!json_object_object_get_ex(o, kinds[i].key, &v))
			continue;
		if (found++)
			return sw_pol_perr(ps, path,
					   "use only one of \"exact\", \"prefix\" and \"glob\"");
		sw_pol_path_key(kp, path, kinds[i].key);
		pc->match = kinds[i].m;
		/* "" only exactly: the empty path a call on a descriptor
		 * names (AT_EMPTY_PATH); an empty prefix or glob would be
		 * every path or a slip. */
		r = sw_pol_dup_string(ps, kp, v, PATH_MAX - 1,
				      kinds[i].m == SW_MATCH_EXACT, &pc->pattern);
		if (r < 0)
			return r;
	}
	if (!found)
		return sw_pol_perr(ps, path,
				   "missing the pattern: one of \"exact\", \"prefix\" or \"glob\"");
	if (json_object_object_get_ex(o, "not", &v)) {
		sw_pol_path_key(kp, path, "not");
		r = sw_pol_get_bool(ps, kp, v, &pc->negate);
		if (r < 0)
			return r;
	}
	return 0;
}

/* rewrite.syscall, into the new system call's name (dst) */
static int parse_rewrite_syscall(struct parser *ps, const char *path,
				 struct json_object *v, void *dst)
{
	char **new_syscall = dst;
	const char *name;
	int r;

	r = sw_pol_get_string(ps, path, v, SW_POLICY_MAX_NAME_LEN, false, &name);
	if (r < 0)
		return r;
	switch (sw_syscall_status(name, ps->check_arches, ps->n_check_arches)) {
	case SW_SYSCALL_OK:
		break;
	case SW_SYSCALL_OTHER_ARCH:
		return sw_pol_perr(ps, path,
				   "system call \"%s\" does not exist on the policy's architectures",
				   name);
	case SW_SYSCALL_NEWER:
		return sw_pol_perr(ps, path,
				   "system call \"%s\" is not known to the installed libseccomp %u.%u.%u, so sysward cannot rewrite to it",
				   name, seccomp_version()->major,
				   seccomp_version()->minor, seccomp_version()->micro);
	case SW_SYSCALL_UNKNOWN:
		return sw_pol_perr_unknown(ps, path, "system call", name,
					   sw_syscall_suggest(name), NULL);
	}
	*new_syscall = strdup(name);
	return *new_syscall ? 0 : sw_pol_oom(ps);
}

/* rewrite.args[i] (at ep); args is the list's path */
static int parse_rewrite_arg(struct parser *ps, const char *args,
			     const char *ep, struct json_object *e,
			     struct sw_rule *rule, size_t i)
{
	static const char *const keys[] = { "index", "set", "and", "or", NULL };
	static const struct {
		const char *key;
		enum sw_rewrite_op op;
	} ops[] = {
		{ "set", SW_REWRITE_SET },
		{ "and", SW_REWRITE_AND },
		{ "or", SW_REWRITE_OR },
	};
	struct sw_arg_rewrite *rw = &rule->rewrites[i];
	int found = 0, r;

	r = sw_pol_check_object(ps, ep, e, keys);
	if (r < 0)
		return r;
	r = get_index(ps, ep, e, &rw->index);
	if (r < 0)
		return r;
	for (size_t j = 0; j < i; j++)
		if (rule->rewrites[j].index == rw->index)
			return sw_pol_perr(ps, ep,
					   "argument %u is already rewritten by %s[%zu]; combine them into one",
					   rw->index, args, j);
	for (size_t j = 0; j < N_ELEMENTS(ops); j++) {
		struct json_object *ov;
		char op[PATH_LEN];

		if (!json_object_object_get_ex(e, ops[j].key, &ov))
			continue;
		if (found++)
			return sw_pol_perr(ps, ep,
					   "use only one of \"set\", \"and\" and \"or\"");
		sw_pol_path_key(op, ep, ops[j].key);
		rw->op = ops[j].op;
		r = sw_pol_get_value(ps, op, ov, &rw->value);
		if (r < 0)
			return r;
	}
	if (!found)
		return sw_pol_perr(ps, ep,
				   "missing the operation: one of \"set\", \"and\" or \"or\"");
	return 0;
}

/* rewrite.args, into the rule (dst) */
static int parse_rewrite_args(struct parser *ps, const char *path,
			      struct json_object *v, void *dst)
{
	struct sw_rule *rule = dst;
	size_t n;
	int r;

	r = sw_pol_get_array(ps, path, v, "an array", SW_POLICY_MAX_ARGS, "entries",
			     &n);
	if (r < 0)
		return r;
	rule->rewrites = calloc(n ? n : 1, sizeof(*rule->rewrites));
	if (!rule->rewrites)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = parse_rewrite_arg(ps, path, ep,
				      json_object_array_get_idx(v, i), rule, i);
		if (r < 0)
			return r;
		rule->n_rewrites++;
	}
	return 0;
}

static const struct field rewrite_fields[] = {
	{ .key = "syscall", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_rule, new_syscall),
	  .parse = parse_rewrite_syscall },
	{ .key = "args", .kind = FIELD_FUNC, .parse = parse_rewrite_args },
};

static int parse_rewrite(struct parser *ps, const char *path,
			 struct json_object *o, struct sw_rule *rule)
{
	static const char *const keys[] = { "syscall", "args", NULL };
	int r;

	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;
	r = sw_pol_read_fields(ps, path, o, rewrite_fields,
			       N_ELEMENTS(rewrite_fields), rule);
	if (r < 0)
		return r;
	if (!rule->new_syscall && rule->n_rewrites == 0)
		return sw_pol_perr(ps, path,
				   "rewrites nothing: give \"syscall\" and/or a non-empty \"args\"");
	return 0;
}

static int parse_u32_str(const char **s, uint32_t *ret)
{
	unsigned long long v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned long long)(*p - '0');
		if (v > UINT32_MAX)
			return -ERANGE;
		p++;
	}
	*ret = (uint32_t)v;
	*s = p;
	return 0;
}

/* strace's when=: "N", "N+", "N+S", "N..M", "N..M+S" */
static int parse_when_string(struct parser *ps, const char *path,
			     const char *s, struct sw_rule *rule)
{
	const char *p = s;
	uint32_t first, last = 0, step = 0;

	if (parse_u32_str(&p, &first) < 0)
		goto bad;
	if (p[0] == '.' && p[1] == '.') {
		p += 2;
		if (parse_u32_str(&p, &last) < 0)
			goto bad;
	}
	if (*p == '+') {
		p++;
		if (*p == '\0')
			step = 1;
		else if (parse_u32_str(&p, &step) < 0)
			goto bad;
		else if (step == 0)
			return sw_pol_perr(ps, path, "step must be at least 1");
	}
	if (*p)
		goto bad;
	if (first == 0)
		return sw_pol_perr(ps, path,
				   "calls are counted from 1: the first must be at least 1");
	if (last && last < first)
		return sw_pol_perr(ps, path, "last (%u) is before first (%u)", last,
				   first);
	if (last && !step)
		step = 1;
	rule->when_first = first;
	rule->when_last = last;
	rule->when_step = step;
	return 0;
bad:
	return sw_pol_perr(ps, path,
			   "cannot parse \"%.64s\" (expected \"N\", \"N+\", \"N+STEP\", \"N..M\" or \"N..M+STEP\", e.g. \"3\" for the 3rd call, \"2+2\" for every 2nd)",
			   s);
}

/* "when", into the rule (dst) */
static int parse_when(struct parser *ps, const char *path,
		      struct json_object *o, void *dst)
{
	static const char *const keys[] = { "first", "last", "step", NULL };
	struct sw_rule *rule = dst;
	struct json_object *v;
	char kp[PATH_LEN];
	int64_t first, last = 0, step = 0;
	int r;

	if (json_object_is_type(o, json_type_string)) {
		const char *s;

		r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
		if (r < 0)
			return r;
		return parse_when_string(ps, path, s, rule);
	}
	if (!json_object_is_type(o, json_type_object))
		return sw_pol_type_err(ps, path,
				       "an object {\"first\", \"last\", \"step\"} or a string like \"3\" or \"2+2\"",
				       o);
	r = sw_pol_check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	sw_pol_path_key(kp, path, "first");
	if (!json_object_object_get_ex(o, "first", &v))
		return sw_pol_perr(ps, kp,
				   "missing (the number of the first call to act on, from 1)");
	r = sw_pol_get_int_range(ps, kp, v, 1, UINT32_MAX, &first);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(o, "last", &v)) {
		sw_pol_path_key(kp, path, "last");
		r = sw_pol_get_int_range(ps, kp, v, first, UINT32_MAX, &last);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(o, "step", &v)) {
		sw_pol_path_key(kp, path, "step");
		r = sw_pol_get_int_range(ps, kp, v, 1, UINT32_MAX, &step);
		if (r < 0)
			return r;
	}
	if (last && !step)
		step = 1;
	rule->when_first = (uint32_t)first;
	rule->when_last = (uint32_t)last;
	rule->when_step = (uint32_t)step;
	return 0;
}

/*
 * Unknown names, decided so that an OCI/Docker profile written for a newer
 * libseccomp still loads, and a typo never silently weakens a deny rule:
 *   - known to libseccomp on some architecture: accepted (Docker lists
 *     arch-specific calls in shared rules);
 *   - a real Linux syscall this libseccomp does not know: warning, dropped
 *     (it cannot be put in the filter at all);
 *   - unknown everywhere, in an allow rule (SCMP_ACT_ALLOW/SCMP_ACT_LOG):
 *     warning, dropped: allowing less than asked fails closed;
 *   - unknown everywhere in any other rule: error, with a suggestion.
 */
static int check_syscall_name(struct parser *ps, const char *path,
			      const char *name, bool allow_rule, bool *keep)
{
	const char *hint;

	*keep = true;
	switch (sw_syscall_status(name, ps->check_arches, ps->n_check_arches)) {
	case SW_SYSCALL_OK:
	case SW_SYSCALL_OTHER_ARCH:
		return 0;
	case SW_SYSCALL_NEWER:
		*keep = false;
		if (++ps->n_unknown > SW_POLICY_MAX_UNKNOWN)
			return sw_pol_perr(ps, path,
					   "more than %d unknown system call names; is this a seccomp policy?",
					   SW_POLICY_MAX_UNKNOWN);
		return sw_pol_pwarn_kind(ps, SW_POLICY_WARN_SYSCALL_NEWER, path,
				    "system call \"%s\" is not known to the installed libseccomp %u.%u.%u; ignored (calls to it get the default action)",
				    name, seccomp_version()->major,
				    seccomp_version()->minor, seccomp_version()->micro);
	case SW_SYSCALL_UNKNOWN:
		break;
	}
	if (allow_rule) {
		/* Each unknown name costs a lookup on every architecture;
		 * real profiles have a handful. */
		if (++ps->n_unknown > SW_POLICY_MAX_UNKNOWN)
			return sw_pol_perr(ps, path,
					   "more than %d unknown system call names; is this a seccomp policy?",
					   SW_POLICY_MAX_UNKNOWN);
		*keep = false;
		/* Past the warning limit nobody sees the suggestion: do not
		 * spend time on it (a 1 MiB policy of unknown names). */
		if (ps->p->n_warnings >= SW_POLICY_MAX_WARNINGS)
			return sw_pol_pwarn(ps, path, "unknown system call");
		hint = sw_syscall_suggest(name);
		if (hint)
			return sw_pol_pwarn(ps, path,
					    "unknown system call \"%s\" ignored (did you mean \"%s\"?)",
					    name, hint);
		return sw_pol_pwarn(ps, path, "unknown system call \"%s\" ignored",
				    name);
	}
	return sw_pol_perr_unknown(ps, path, "system call", name,
				   sw_syscall_suggest(name), NULL);
}

/*
 * "name" or "names" into rule->names, NULL-ended, *n of them; kp is set to
 * the key's path.
 */
static int get_names(struct parser *ps, const char *path,
		     struct json_object *obj, struct sw_rule *rule, char *kp,
		     size_t *n)
{
	struct json_object *names = NULL, *name = NULL;
	int r;

	json_object_object_get_ex(obj, "names", &names);
	json_object_object_get_ex(obj, "name", &name);
	if (names && name)
		return sw_pol_perr(ps, path,
				   "both \"name\" and \"names\" given; use one (\"names\": [...])");
	if (!names && !name)
		return sw_pol_perr(ps, path,
				   "missing \"names\" (the system calls this rule is about)");
	if (name) {
		sw_pol_path_key(kp, path, "name");
		rule->names = calloc(2, sizeof(char *));
		if (!rule->names)
			return sw_pol_oom(ps);
		*n = 1;
		return sw_pol_dup_string(ps, kp, name, SW_POLICY_MAX_NAME_LEN, false,
					 &rule->names[0]);
	}
	sw_pol_path_key(kp, path, "names");
	r = sw_pol_get_strv(ps, kp, names, SW_POLICY_MAX_NAMES,
			    SW_POLICY_MAX_NAME_LEN, &rule->names, n);
	if (r < 0)
		return r;
	if (*n == 0)
		return sw_pol_perr(ps, kp,
				   "empty list (name at least one system call)");
	return 0;
}

static int parse_names(struct parser *ps, const char *path,
		       struct json_object *obj, struct sw_rule *rule)
{
	bool allow_rule = rule->action == SW_ACT_ALLOW ||
			  rule->action == SW_ACT_KLOG;
	struct json_object *names = NULL;
	cleanup_free bool *keep = NULL;
	char kp[PATH_LEN];
	size_t n = 0, kept = 0;
	int r;

	r = get_names(ps, path, obj, rule, kp, &n);
	if (r < 0)
		return r;
	json_object_object_get_ex(obj, "names", &names);
	/* Check every name before changing the list, so that on error the
	 * NULL-ended list is intact for sw_policy_free. */
	keep = calloc(n, sizeof(*keep));
	if (!keep)
		return sw_pol_oom(ps);
	for (size_t i = 0, errors = 0; i < n; i++) {
		char ep[PATH_LEN];

		if (!names)	/* "name" */
			sw_pol_path_key(ep, path, "name");
		else
			sw_pol_path_index(ep, kp, i);
		r = check_syscall_name(ps, ep, rule->names[i], allow_rule,
				       &keep[i]);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
		/* every wrong name of the list, then the rule stops */
		if (r < 0)
			errors++;
		if (errors && i == n - 1)
			return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		if (keep[i])
			rule->names[kept++] = rule->names[i];
		else
			free(rule->names[i]);
	}
	for (size_t i = kept; i < n; i++)
		rule->names[i] = NULL;
	rule->n_names = kept;
	return 0;
}

/* SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE: an errno or a return value */
static int parse_skip_result(struct parser *ps, const char *path,
			     struct json_object *errno_o,
			     struct json_object *errnoret_o,
			     struct json_object *return_o, struct sw_rule *rule)
{
	char kp[PATH_LEN];
	uint64_t rv;
	int r;

	if ((errno_o || errnoret_o) && return_o)
		return sw_pol_perr(ps, path,
				   "both \"return\" and \"%s\" given; a skipped call either returns a value or fails with an errno",
				   errnoret_o ? "errnoRet" : "errno");
	if (errno_o || errnoret_o) {
		r = sw_pol_get_errno_pair(ps, path, "errno", errno_o, "errnoRet",
					  errnoret_o, &rule->errno_ret);
		if (r < 0)
			return r;
		rule->ret_is_errno = true;
	} else if (return_o) {
		sw_pol_path_key(kp, path, "return");
		r = sw_pol_get_value(ps, kp, return_o, &rv);
		if (r < 0)
			return r;
		rule->ret_value = (int64_t)rv;
	}
	return 0;
}

/* errno / errnoRet / return, by action */
static int parse_result(struct parser *ps, const char *path,
			struct json_object *o, struct sw_rule *rule)
{
	struct json_object *errno_o = NULL, *errnoret_o = NULL,
			   *return_o = NULL;
	const char *act = sw_action_name(rule->action);
	char kp[PATH_LEN];

	json_object_object_get_ex(o, "errno", &errno_o);
	json_object_object_get_ex(o, "errnoRet", &errnoret_o);
	json_object_object_get_ex(o, "return", &return_o);
	sw_pol_path_key(kp, path, errnoret_o ? "errnoRet" : "errno");
	switch (rule->action) {
	case SW_ACT_ERRNO:
		if (return_o) {
			sw_pol_path_key(kp, path, "return");
			return sw_pol_perr(ps, kp,
					   "not used by SCMP_ACT_ERRNO (it returns -errnoRet); use SYSWARD_ACT_SKIP to return a value");
		}
		rule->errno_ret = EPERM;
		return sw_pol_get_errno_pair(ps, path, "errno", errno_o, "errnoRet",
					     errnoret_o, &rule->errno_ret);
	case SW_ACT_SKIP:
	case SW_ACT_EMULATE:
		return parse_skip_result(ps, path, errno_o, errnoret_o, return_o,
					 rule);
	default:
		if (errno_o || errnoret_o)
			return sw_pol_perr(ps, kp,
					   "not used by %s (only SCMP_ACT_ERRNO, SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE fail with an errno)",
					   act);
		if (return_o) {
			sw_pol_path_key(kp, path, "return");
			return sw_pol_perr(ps, kp,
					   "not used by %s (only SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE return a value)",
					   act);
		}
		return 0;
	}
}

/* "args", into the rule (dst) */
static int parse_args(struct parser *ps, const char *path,
		      struct json_object *v, void *dst)
{
	struct sw_rule *rule = dst;
	size_t n = 0;
	int r;

	/* Docker writes "args": null for rules without conditions */
	r = v ? sw_pol_get_array(ps, path, v, "an array", SW_POLICY_MAX_ARGS,
				 "conditions", &n) : 0;
	if (r < 0)
		return r;
	rule->args = calloc(n ? n : 1, sizeof(*rule->args));
	if (!rule->args)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = parse_arg(ps, ep, json_object_array_get_idx(v, i),
			      &rule->args[i]);
		if (r < 0)
			return r;
		rule->n_args++;
	}
	return 0;
}

/* "paths", into the rule (dst) */
static int parse_paths(struct parser *ps, const char *path,
		       struct json_object *v, void *dst)
{
	struct sw_rule *rule = dst;
	size_t n;
	int r;

	r = sw_pol_get_array(ps, path, v, "an array", SW_POLICY_MAX_ARGS,
			     "conditions", &n);
	if (r < 0)
		return r;
	rule->paths = calloc(n ? n : 1, sizeof(*rule->paths));
	if (!rule->paths)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = parse_path_cond(ps, ep, json_object_array_get_idx(v, i),
				    &rule->paths[i]);
		rule->n_paths += rule->paths[i].pattern != NULL;
		if (r < 0)
			return r;
	}
	return 0;
}

/* "rewrite": given exactly when the action is SYSWARD_ACT_REWRITE */
static int parse_rule_rewrite(struct parser *ps, const char *path,
			      struct json_object *o, struct sw_rule *rule)
{
	struct json_object *v;
	char kp[PATH_LEN];

	sw_pol_path_key(kp, path, "rewrite");
	if (json_object_object_get_ex(o, "rewrite", &v)) {
		if (rule->action != SW_ACT_REWRITE)
			return sw_pol_perr(ps, kp,
					   "only used with \"action\": \"SYSWARD_ACT_REWRITE\" (this rule's action is %s)",
					   sw_action_name(rule->action));
		return parse_rewrite(ps, kp, v, rule);
	}
	if (rule->action == SW_ACT_REWRITE)
		return sw_pol_perr(ps, kp,
				   "missing: SYSWARD_ACT_REWRITE needs {\"syscall\": NAME} and/or {\"args\": [{\"index\": N, \"set\"|\"and\"|\"or\": VALUE}]}");
	return 0;
}

/* The rule's keys after names and errno, in the order they are checked;
 * "rewrite" comes between the two tables. */
static const struct field rule_conditions[] = {
	{ .key = "args", .kind = FIELD_FUNC, .parse = parse_args },
	{ .key = "paths", .kind = FIELD_FUNC, .parse = parse_paths },
};

static const struct field rule_fields[] = {
	{ .key = "when", .kind = FIELD_FUNC, .parse = parse_when },
	{ .key = "log", .kind = FIELD_BOOL,
	  .offset = offsetof(struct sw_rule, audit) },
	{ .key = "comment", .kind = FIELD_STRDUP,
	  .offset = offsetof(struct sw_rule, comment),
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
	{ .key = "includes", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_rule, includes), .parse = sw_pol_parse_gate },
	{ .key = "excludes", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_rule, excludes), .parse = sw_pol_parse_gate },
};

/*
 * The engine refuses pidfd_getfd unless a rule lets it run: say what such
 * a rule gives the program.  Not for a rule that applies only to a program
 * given capabilities (Docker's "pidfd_getfd with CAP_SYS_PTRACE"): whoever
 * grants CAP_SYS_PTRACE means it to reach other processes.
 */
static int warn_pidfd_getfd(struct parser *ps, const char *path,
			    const struct sw_rule *rule)
{
	char kp[PATH_LEN];

	if ((rule->action != SW_ACT_ALLOW && rule->action != SW_ACT_KLOG &&
	     rule->action != SW_ACT_AUDIT) ||
	    (rule->has_includes && rule->includes.caps))
		return 0;
	for (size_t k = 0; k < rule->n_names; k++) {
		if (strcmp(rule->names[k], "pidfd_getfd"))
			continue;
		sw_pol_path_key(kp, path, "names");
		return sw_pol_pwarn(ps, kp,
				    "pidfd_getfd is left to this policy: the program may take "
				    "open descriptors from any process of its uid it holds a pidfd of, "
				    "and pidfds of processes outside the sandbox come without "
				    "pidfd_open (SO_PEERPIDFD, SCM_PIDFD, open_by_handle_at); "
				    "no path rule checked what such a descriptor opened");
	}
	return 0;
}

/* The keys of a rule that sysward reads and an OCI runtime does not: all
 * of them belong to the supervisor's actions and conditions. */
static const char *const extension_keys[] = {
	"return", "paths", "rewrite", "when", "log",
};

bool sw_rule_key_is_extension(const char *key)
{
	for (size_t i = 0; i < sizeof(extension_keys) / sizeof(extension_keys[0]); i++)
		if (strcmp(extension_keys[i], key) == 0)
			return true;
	return false;
}

int sw_pol_parse_rule(struct parser *ps, size_t idx, struct json_object *o,
		      struct sw_rule *rule)
{
	static const char *const keys[] = {
		"names", "name", "action", "errnoRet", "errno", "return",
		"args", "paths", "rewrite", "when", "log", "comment",
		"includes", "excludes", NULL
	};
	struct json_object *v;
	char path[PATH_LEN], kp[PATH_LEN];
	int r;

	sw_pol_path_index(path, "syscalls", idx);
	rule->json_path = strdup(path);
	if (!rule->json_path)
		return sw_pol_oom(ps);
	if (idx < ps->skim.n_rules)
		rule->line = ps->skim.rule_line[idx];
	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;

	sw_pol_path_key(kp, path, "action");
	if (!json_object_object_get_ex(o, "action", &v))
		return sw_pol_perr(ps, kp, "missing (e.g. \"SCMP_ACT_ERRNO\")");
	r = sw_pol_get_action(ps, kp, v, false, &rule->action);
	if (r < 0)
		return r;
	r = parse_names(ps, path, o, rule);
	if (r < 0)
		return r;
	r = parse_result(ps, path, o, rule);
	if (r < 0)
		return r;
	r = sw_pol_read_fields(ps, path, o, rule_conditions,
			       N_ELEMENTS(rule_conditions), rule);
	if (r < 0)
		return r;
	r = parse_rule_rewrite(ps, path, o, rule);
	if (r < 0)
		return r;
	r = sw_pol_read_fields(ps, path, o, rule_fields, N_ELEMENTS(rule_fields),
			       rule);
	if (r < 0)
		return r;
	if (rule->action == SW_ACT_AUDIT)
		rule->audit = true;
	/* present and, having got here, parsed */
	rule->has_includes = json_object_object_get_ex(o, "includes", NULL);
	rule->has_excludes = json_object_object_get_ex(o, "excludes", NULL);
	rule->needs_supervisor = sw_rule_needs_supervisor(rule);
	return warn_pidfd_getfd(ps, path, rule);
}
