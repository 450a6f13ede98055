// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lints: judgements on a valid policy that point at dead rules, names
 * and conditions (policy.h, sw_policy_lint()).  Nothing here refuses a
 * policy: each is legal, and almost certainly not what the author meant.
 * Gates (includes/excludes) make a rule conditional here, since whether
 * it applies depends on the launch.
 */
#include <stdio.h>
#include <string.h>

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

int sw_policy_lint(const struct sw_policy *p, sw_lint_fn fn, void *ud)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *r = &p->rules[i];
		int e;

		e = lint_names(p, i, fn, ud);
		if (e >= 0)
			e = lint_args(r, fn, ud);
		if (e >= 0)
			e = lint_globs(r, fn, ud);
		if (e < 0)
			return e;
	}
	return 0;
}
