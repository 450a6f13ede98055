// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON policy -> struct sw_policy.
 *
 * Three passes: json-c's tokener (syntax, "file:line:col: msg"), a lexical
 * skim (duplicate keys, 64-bit integer range, rule line numbers; skim.c),
 * then the walk below, which checks meaning and reports the first problem as
 * "file: json.path: msg".  Every key, type, range and size is checked here;
 * the engine may rely on what policy.h promises without re-checking.
 */
#include "sysward/policy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "skim.h"
#include "sysward/cleanup.h"

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

/* linux/seccomp.h; spelled out so old headers do not matter. */
#define FLAG_TSYNC		(1u << 0)
#define FLAG_LOG		(1u << 1)
#define FLAG_SPEC_ALLOW		(1u << 2)
#define FLAG_WAIT_KILLABLE_RECV	(1u << 5)

static int perr_at(struct parser *ps, size_t off, const char *msg)
{
	unsigned int line, col;

	sw_offset_to_linecol(ps->text, ps->len, off, &line, &col);
	return sw_error_set(ps->err, EINVAL, "%s:%u:%u: %s", ps->source, line,
			    col, msg);
}

/* ------------------------------------------------------------------ */
/* architectures */

static int add_arch(struct parser *ps, const char *path, const char *name)
{
	struct sw_policy *p = ps->p;
	const struct sw_arch_info *a = sw_arch_by_scmp_name(name);
	char **na;
	uint32_t *nt;

	if (!a) {
		struct sw_suggest s;
		const char *hint;
		char list[600];

		sw_suggest_init(&s, name);
		sw_arch_suggest_scmp(&s);
		hint = sw_suggest_result(&s);
		if (hint)
			return perr(ps, path,
				    "unknown architecture \"%.64s\" (did you mean \"%s\"?)",
				    name, hint);
		sw_arch_list_scmp(list, sizeof(list));
		return perr(ps, path,
			    "unknown architecture \"%.64s\" (expected one of %s)",
			    name, list);
	}
	if (!a->token)
		return perr(ps, path,
			    "architecture %s is not supported by the installed libseccomp",
			    name);
	for (size_t i = 0; i < p->n_architectures; i++)
		if (p->arch_tokens[i] == a->token)
			return 0;	/* listed twice: harmless, keep one */
	if (p->n_architectures >= SW_POLICY_MAX_ARCHES)
		return perr(ps, path, "more than %d architectures",
			    SW_POLICY_MAX_ARCHES);
	na = realloc(p->architectures, (p->n_architectures + 2) * sizeof(*na));
	if (!na)
		return oom(ps);
	p->architectures = na;
	nt = realloc(p->arch_tokens, (p->n_architectures + 1) * sizeof(*nt));
	if (!nt)
		return oom(ps);
	p->arch_tokens = nt;
	na[p->n_architectures] = strdup(a->scmp_name);
	if (!na[p->n_architectures]) {
		na[p->n_architectures] = NULL;
		return oom(ps);
	}
	nt[p->n_architectures] = a->token;
	na[++p->n_architectures] = NULL;
	return 0;
}

static int parse_architectures(struct parser *ps, struct json_object *o)
{
	size_t n;

	if (!json_object_is_type(o, json_type_array))
		return type_err(ps, "architectures",
				"an array of SCMP_ARCH_* names", o);
	n = json_object_array_length(o);
	if (n > SW_POLICY_MAX_ARCHES)
		return perr(ps, "architectures", "more than %d entries",
			    SW_POLICY_MAX_ARCHES);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];
		const char *name;
		int r;

		path_index(ep, "architectures", i);
		r = get_string(ps, ep, json_object_array_get_idx(o, i),
			       SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		r = add_arch(ps, ep, name);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * archMap, as Docker reads it: only the entry whose "architecture" is the
 * native one counts; it and its subArchitectures become the filter's
 * architectures.  Every entry is still checked.
 */
static int parse_arch_map(struct parser *ps, struct json_object *o)
{
	static const char *const keys[] = { "architecture", "subArchitectures",
					    NULL };
	const struct sw_arch_info *native = sw_arch_by_token(seccomp_arch_native());
	size_t n;

	if (!json_object_is_type(o, json_type_array))
		return type_err(ps, "archMap", "an array", o);
	n = json_object_array_length(o);
	if (n > SW_POLICY_MAX_ARCHES)
		return perr(ps, "archMap", "more than %d entries",
			    SW_POLICY_MAX_ARCHES);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(o, i);
		struct json_object *a, *subs;
		char ep[PATH_LEN], kp[PATH_LEN];
		const char *name;
		bool is_native;
		size_t ns = 0;
		int r;

		path_index(ep, "archMap", i);
		if (!json_object_is_type(e, json_type_object))
			return type_err(ps, ep, "an object", e);
		r = check_keys(ps, ep, e, keys);
		if (r < 0)
			return r;
		path_key(kp, ep, "architecture");
		if (!json_object_object_get_ex(e, "architecture", &a))
			return perr(ps, kp, "missing (an SCMP_ARCH_* name)");
		r = get_string(ps, kp, a, SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		if (!sw_arch_by_scmp_name(name))
			return add_arch(ps, kp, name);	/* reports it */
		is_native = native && strcmp(native->scmp_name, name) == 0;
		if (is_native) {
			r = add_arch(ps, kp, name);
			if (r < 0)
				return r;
		}
		path_key(kp, ep, "subArchitectures");
		if (!json_object_object_get_ex(e, "subArchitectures", &subs) ||
		    !subs)
			continue;	/* Docker writes null */
		if (!json_object_is_type(subs, json_type_array))
			return type_err(ps, kp, "an array of SCMP_ARCH_* names",
					subs);
		ns = json_object_array_length(subs);
		if (ns > SW_POLICY_MAX_ARCHES)
			return perr(ps, kp, "more than %d entries",
				    SW_POLICY_MAX_ARCHES);
		for (size_t j = 0; j < ns; j++) {
			char sp[PATH_LEN];
			const char *sub;

			path_index(sp, kp, j);
			r = get_string(ps, sp, json_object_array_get_idx(subs, j),
				       SW_POLICY_MAX_NAME_LEN, false, &sub);
			if (r < 0)
				return r;
			if (!sw_arch_by_scmp_name(sub) || is_native) {
				r = add_arch(ps, sp, sub);
				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

static int parse_flags(struct parser *ps, struct json_object *o)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} flags[] = {
		{ "SECCOMP_FILTER_FLAG_TSYNC", FLAG_TSYNC },
		{ "SECCOMP_FILTER_FLAG_LOG", FLAG_LOG },
		{ "SECCOMP_FILTER_FLAG_SPEC_ALLOW", FLAG_SPEC_ALLOW },
		{ "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
		  FLAG_WAIT_KILLABLE_RECV },
	};
	size_t n;

	if (!json_object_is_type(o, json_type_array))
		return type_err(ps, "flags", "an array of SECCOMP_FILTER_FLAG_* names", o);
	n = json_object_array_length(o);
	if (n > 16)
		return perr(ps, "flags", "more than 16 entries");
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];
		const char *name, *hint;
		struct sw_suggest s;
		bool found = false;
		int r;

		path_index(ep, "flags", i);
		r = get_string(ps, ep, json_object_array_get_idx(o, i),
			       SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		sw_suggest_init(&s, name);
		for (size_t j = 0; j < N_ELEMENTS(flags); j++) {
			sw_suggest_feed(&s, flags[j].name);
			if (strcmp(flags[j].name, name) == 0) {
				ps->p->filter_flags |= flags[j].bit;
				found = true;
			}
		}
		if (found)
			continue;
		if (strcmp(name, "SECCOMP_FILTER_FLAG_NEW_LISTENER") == 0)
			return perr(ps, ep,
				    "SECCOMP_FILTER_FLAG_NEW_LISTENER is not supported: sysward supervises the program itself");
		hint = sw_suggest_result(&s);
		if (hint)
			return perr(ps, ep,
				    "unknown flag \"%s\" (did you mean \"%s\"?)",
				    name, hint);
		return perr(ps, ep,
			    "unknown flag \"%s\" (expected one of SECCOMP_FILTER_FLAG_TSYNC, SECCOMP_FILTER_FLAG_LOG, SECCOMP_FILTER_FLAG_SPEC_ALLOW, SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)",
			    name);
	}
	return 0;
}

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

	path_key(kp, parent, "index");
	if (!json_object_object_get_ex(obj, "index", &o))
		return perr(ps, kp, "missing (the argument number, 0..5)");
	r = get_int_range(ps, kp, o, 0, 5, &v);
	if (r < 0)
		return r;
	*ret = (unsigned int)v;
	return 0;
}

static int parse_arg(struct parser *ps, const char *path,
		     struct json_object *o, struct sw_arg_cond *a)
{
	static const char *const keys[] = { "index", "value", "valueTwo", "op",
					    NULL };
	struct json_object *v;
	char kp[PATH_LEN];
	const char *op;
	bool found = false;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path, "an object", o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	r = get_index(ps, path, o, &a->index);
	if (r < 0)
		return r;

	path_key(kp, path, "op");
	if (!json_object_object_get_ex(o, "op", &v))
		return perr(ps, kp, "missing (one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)");
	r = get_string(ps, kp, v, SW_POLICY_MAX_NAME_LEN, false, &op);
	if (r < 0)
		return r;
	for (int i = SW_CMP_NE; i <= SW_CMP_MASKED_EQ; i++)
		if (strcmp(op_names[i], op) == 0) {
			a->op = (enum sw_cmp)i;
			found = true;
		}
	if (!found) {
		struct sw_suggest s;
		const char *hint;

		sw_suggest_init(&s, op);
		for (int i = SW_CMP_NE; i <= SW_CMP_MASKED_EQ; i++)
			sw_suggest_feed(&s, op_names[i]);
		hint = sw_suggest_result(&s);
		if (hint)
			return perr(ps, kp,
				    "unknown operator \"%s\" (did you mean \"%s\"?)",
				    op, hint);
		return perr(ps, kp,
			    "unknown operator \"%s\" (expected one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)",
			    op);
	}

	path_key(kp, path, "value");
	if (!json_object_object_get_ex(o, "value", &v))
		return perr(ps, kp, "missing (the number to compare with)");
	r = get_value(ps, kp, v, &a->value);
	if (r < 0)
		return r;

	/* OCI/Docker: valueTwo defaults to 0; MASKED_EQ tests
	 * (arg & value) == valueTwo, so Docker's clone rule without valueTwo
	 * means "none of these flag bits set". */
	a->value_two = 0;
	if (json_object_object_get_ex(o, "valueTwo", &v)) {
		path_key(kp, path, "valueTwo");
		r = get_value(ps, kp, v, &a->value_two);
		if (r < 0)
			return r;
		if (a->op != SW_CMP_MASKED_EQ && a->value_two != 0)
			return perr(ps, kp,
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

	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path, "an object", o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	r = get_index(ps, path, o, &pc->index);
	if (r < 0)
		return r;
	for (size_t i = 0; i < N_ELEMENTS(kinds); i++) {
		if (!json_object_object_get_ex(o, kinds[i].key, &v))
			continue;
		if (found++)
			return perr(ps, path,
				    "use only one of \"exact\", \"prefix\" and \"glob\"");
		path_key(kp, path, kinds[i].key);
		pc->match = kinds[i].m;
		r = dup_string(ps, kp, v, PATH_MAX - 1, false, &pc->pattern);
		if (r < 0)
			return r;
	}
	if (!found)
		return perr(ps, path,
			    "missing the pattern: one of \"exact\", \"prefix\" or \"glob\"");
	if (json_object_object_get_ex(o, "not", &v)) {
		path_key(kp, path, "not");
		r = get_bool(ps, kp, v, &pc->negate);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_rewrite(struct parser *ps, const char *path,
			 struct json_object *o, struct sw_rule *rule)
{
	static const char *const keys[] = { "syscall", "args", NULL };
	static const char *const akeys[] = { "index", "set", "and", "or", NULL };
	static const struct {
		const char *key;
		enum sw_rewrite_op op;
	} ops[] = {
		{ "set", SW_REWRITE_SET },
		{ "and", SW_REWRITE_AND },
		{ "or", SW_REWRITE_OR },
	};
	struct json_object *v;
	char kp[PATH_LEN];
	size_t n;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path, "an object", o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(o, "syscall", &v)) {
		enum sw_syscall_status st;
		const char *name, *hint;

		path_key(kp, path, "syscall");
		r = get_string(ps, kp, v, SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		st = sw_syscall_status(name, ps->check_arches,
				       ps->n_check_arches);
		switch (st) {
		case SW_SYSCALL_OK:
			break;
		case SW_SYSCALL_OTHER_ARCH:
			return perr(ps, kp,
				    "system call \"%s\" does not exist on the policy's architectures",
				    name);
		case SW_SYSCALL_NEWER:
			return perr(ps, kp,
				    "system call \"%s\" is not known to the installed libseccomp %u.%u.%u, so sysward cannot rewrite to it",
				    name, seccomp_version()->major,
				    seccomp_version()->minor,
				    seccomp_version()->micro);
		case SW_SYSCALL_UNKNOWN:
			hint = sw_syscall_suggest(name);
			if (hint)
				return perr(ps, kp,
					    "unknown system call \"%s\" (did you mean \"%s\"?)",
					    name, hint);
			return perr(ps, kp, "unknown system call \"%s\"", name);
		}
		rule->new_syscall = strdup(name);
		if (!rule->new_syscall)
			return oom(ps);
	}
	if (json_object_object_get_ex(o, "args", &v)) {
		path_key(kp, path, "args");
		if (!json_object_is_type(v, json_type_array))
			return type_err(ps, kp, "an array", v);
		n = json_object_array_length(v);
		if (n > SW_POLICY_MAX_ARGS)
			return perr(ps, kp, "%zu entries, at most %d are allowed",
				    n, SW_POLICY_MAX_ARGS);
		rule->rewrites = calloc(n ? n : 1, sizeof(*rule->rewrites));
		if (!rule->rewrites)
			return oom(ps);
		for (size_t i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(v, i);
			struct sw_arg_rewrite *rw = &rule->rewrites[i];
			char ep[PATH_LEN];
			int found = 0;

			path_index(ep, kp, i);
			if (!json_object_is_type(e, json_type_object))
				return type_err(ps, ep, "an object", e);
			r = check_keys(ps, ep, e, akeys);
			if (r < 0)
				return r;
			r = get_index(ps, ep, e, &rw->index);
			if (r < 0)
				return r;
			for (size_t j = 0; j < i; j++)
				if (rule->rewrites[j].index == rw->index)
					return perr(ps, ep,
						    "argument %u is already rewritten by %s[%zu]; combine them into one",
						    rw->index, kp, j);
			for (size_t j = 0; j < N_ELEMENTS(ops); j++) {
				struct json_object *ov;
				char op[PATH_LEN];

				if (!json_object_object_get_ex(e, ops[j].key, &ov))
					continue;
				if (found++)
					return perr(ps, ep,
						    "use only one of \"set\", \"and\" and \"or\"");
				path_key(op, ep, ops[j].key);
				rw->op = ops[j].op;
				r = get_value(ps, op, ov, &rw->value);
				if (r < 0)
					return r;
			}
			if (!found)
				return perr(ps, ep,
					    "missing the operation: one of \"set\", \"and\" or \"or\"");
			rule->n_rewrites++;
		}
	}
	if (!rule->new_syscall && rule->n_rewrites == 0)
		return perr(ps, path,
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
			return perr(ps, path, "step must be at least 1");
	}
	if (*p)
		goto bad;
	if (first == 0)
		return perr(ps, path,
			    "calls are counted from 1: the first must be at least 1");
	if (last && last < first)
		return perr(ps, path, "last (%u) is before first (%u)", last,
			    first);
	if (last && !step)
		step = 1;
	rule->when_first = first;
	rule->when_last = last;
	rule->when_step = step;
	return 0;
bad:
	return perr(ps, path,
		    "cannot parse \"%.64s\" (expected \"N\", \"N+\", \"N+STEP\", \"N..M\" or \"N..M+STEP\", e.g. \"3\" for the 3rd call, \"2+2\" for every 2nd)",
		    s);
}

static int parse_when(struct parser *ps, const char *path,
		      struct json_object *o, struct sw_rule *rule)
{
	static const char *const keys[] = { "first", "last", "step", NULL };
	struct json_object *v;
	char kp[PATH_LEN];
	int64_t first, last = 0, step = 0;
	int r;

	if (json_object_is_type(o, json_type_string)) {
		const char *s;

		r = get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
		if (r < 0)
			return r;
		return parse_when_string(ps, path, s, rule);
	}
	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path,
				"an object {\"first\", \"last\", \"step\"} or a string like \"3\" or \"2+2\"",
				o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	path_key(kp, path, "first");
	if (!json_object_object_get_ex(o, "first", &v))
		return perr(ps, kp,
			    "missing (the number of the first call to act on, from 1)");
	r = get_int_range(ps, kp, v, 1, UINT32_MAX, &first);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(o, "last", &v)) {
		path_key(kp, path, "last");
		r = get_int_range(ps, kp, v, first, UINT32_MAX, &last);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(o, "step", &v)) {
		path_key(kp, path, "step");
		r = get_int_range(ps, kp, v, 1, UINT32_MAX, &step);
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

static int parse_kernel(struct parser *ps, const char *path,
			struct json_object *o, unsigned int *ret)
{
	unsigned int a, b, c = 0;
	const char *s;
	int n = 0, r;

	r = get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
	if (r < 0)
		return r;
	/* "4.8", "5.10.3", "6.1.0-13-amd64" */
	if (sscanf(s, "%3u.%3u%n", &a, &b, &n) != 2 || n == 0)
		goto bad;
	if (s[n] == '.') {
		int m = 0;

		if (sscanf(s + n, ".%3u%n", &c, &m) != 1 || m == 0)
			goto bad;
		n += m;
	}
	if (s[n] != '\0' && s[n] != '-')
		goto bad;
	if (a > 255 || b > 255)
		goto bad;
	*ret = KERNEL_VERSION(a, b, c);
	return 0;
bad:
	return perr(ps, path,
		    "cannot parse kernel version \"%.64s\" (expected \"MAJOR.MINOR\", e.g. \"4.8\")",
		    s);
}

static int parse_gate(struct parser *ps, const char *path,
		      struct json_object *o, struct sw_gate *g)
{
	static const char *const keys[] = { "caps", "arches", "minKernel", NULL };
	struct json_object *v;
	char kp[PATH_LEN];
	int r;

	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path, "an object", o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(o, "caps", &v)) {
		size_t n;

		path_key(kp, path, "caps");
		if (!json_object_is_type(v, json_type_array))
			return type_err(ps, kp, "an array of CAP_* names", v);
		n = json_object_array_length(v);
		if (n > SW_POLICY_MAX_CAPS)
			return perr(ps, kp, "more than %d entries",
				    SW_POLICY_MAX_CAPS);
		for (size_t i = 0; i < n; i++) {
			char ep[PATH_LEN];
			const char *name;
			cap_value_t cap;

			path_index(ep, kp, i);
			r = get_string(ps, ep, json_object_array_get_idx(v, i),
				       SW_POLICY_MAX_NAME_LEN, false, &name);
			if (r < 0)
				return r;
			if (cap_from_name(name, &cap) < 0 || cap < 0 ||
			    cap > 63) {
				struct sw_suggest s;
				const char *hint;
				char *names[64] = { 0 };

				sw_suggest_init(&s, name);
				for (int c = 0; c < 64; c++) {
					names[c] = cap_to_name(c);
					if (names[c]) {
						/* libcap spells them in
						 * lower case, Docker upper */
						for (char *q = names[c]; *q; q++)
							*q = (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
						sw_suggest_feed(&s, names[c]);
					}
				}
				hint = sw_suggest_result(&s);
				if (hint)
					r = perr(ps, ep,
						 "unknown capability \"%s\" (did you mean \"%s\"?)",
						 name, hint);
				else
					r = perr(ps, ep,
						 "unknown capability \"%s\" (expected a name such as \"CAP_SYS_ADMIN\")",
						 name);
				for (int c = 0; c < 64; c++)
					cap_free(names[c]);
				return r;
			}
			g->caps |= UINT64_C(1) << cap;
		}
	}
	if (json_object_object_get_ex(o, "arches", &v)) {
		path_key(kp, path, "arches");
		r = get_strv(ps, kp, v, SW_POLICY_MAX_ARCHES,
			     SW_POLICY_MAX_NAME_LEN, &g->arches, NULL);
		if (r < 0)
			return r;
		for (size_t i = 0; g->arches[i]; i++) {
			char ep[PATH_LEN];
			struct sw_suggest s;
			const char *hint;

			if (sw_oci_arch_known(g->arches[i]))
				continue;
			path_index(ep, kp, i);
			sw_suggest_init(&s, g->arches[i]);
			sw_arch_suggest_oci(&s);
			hint = sw_suggest_result(&s);
			if (hint)
				return perr(ps, ep,
					    "unknown architecture \"%s\" (did you mean \"%s\"?)",
					    g->arches[i], hint);
			return perr(ps, ep,
				    "unknown architecture \"%s\" (expected Docker's spelling: amd64, x86, x32, arm64, arm, ppc64le, s390x, riscv64, ...)",
				    g->arches[i]);
		}
	}
	if (json_object_object_get_ex(o, "minKernel", &v)) {
		path_key(kp, path, "minKernel");
		r = parse_kernel(ps, kp, v, &g->min_kernel);
		if (r < 0)
			return r;
	}
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
			return perr(ps, path,
				    "more than %d unknown system call names; is this a seccomp policy?",
				    SW_POLICY_MAX_UNKNOWN);
		return pwarn(ps, path,
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
			return perr(ps, path,
				    "more than %d unknown system call names; is this a seccomp policy?",
				    SW_POLICY_MAX_UNKNOWN);
		*keep = false;
		/* Past the warning limit nobody sees the suggestion: do not
		 * spend time on it (a 1 MiB policy of unknown names). */
		if (ps->p->n_warnings >= SW_POLICY_MAX_WARNINGS)
			return pwarn(ps, path, "unknown system call");
		hint = sw_syscall_suggest(name);
		if (hint)
			return pwarn(ps, path,
				     "unknown system call \"%s\" ignored (did you mean \"%s\"?)",
				     name, hint);
		return pwarn(ps, path, "unknown system call \"%s\" ignored",
			     name);
	}
	hint = sw_syscall_suggest(name);
	if (hint)
		return perr(ps, path,
			    "unknown system call \"%s\" (did you mean \"%s\"?)",
			    name, hint);
	return perr(ps, path, "unknown system call \"%s\"", name);
}

static int parse_names(struct parser *ps, const char *path,
		       struct json_object *obj, struct sw_rule *rule)
{
	struct json_object *names = NULL, *name = NULL;
	bool allow_rule = rule->action == SW_ACT_ALLOW ||
			  rule->action == SW_ACT_KLOG;
	cleanup_free bool *keep = NULL;
	char kp[PATH_LEN];
	size_t n, kept = 0;
	int r;

	json_object_object_get_ex(obj, "names", &names);
	json_object_object_get_ex(obj, "name", &name);
	if (names && name)
		return perr(ps, path,
			    "both \"name\" and \"names\" given; use one (\"names\": [...])");
	if (!names && !name)
		return perr(ps, path,
			    "missing \"names\" (the system calls this rule is about)");
	if (name) {
		path_key(kp, path, "name");
		rule->names = calloc(2, sizeof(char *));
		if (!rule->names)
			return oom(ps);
		r = dup_string(ps, kp, name, SW_POLICY_MAX_NAME_LEN, false,
			       &rule->names[0]);
		if (r < 0)
			return r;
		n = 1;
	} else {
		path_key(kp, path, "names");
		r = get_strv(ps, kp, names, SW_POLICY_MAX_NAMES,
			     SW_POLICY_MAX_NAME_LEN, &rule->names, &n);
		if (r < 0)
			return r;
		if (n == 0)
			return perr(ps, kp,
				    "empty list (name at least one system call)");
	}
	/* Check every name before changing the list, so that on error the
	 * NULL-ended list is intact for sw_policy_free. */
	keep = calloc(n, sizeof(*keep));
	if (!keep)
		return oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		if (name)
			path_key(ep, path, "name");
		else
			path_index(ep, kp, i);
		r = check_syscall_name(ps, ep, rule->names[i], allow_rule,
				       &keep[i]);
		if (r < 0)
			return r;
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

static int parse_rule(struct parser *ps, size_t idx, struct json_object *o,
		      struct sw_rule *rule)
{
	static const char *const keys[] = {
		"names", "name", "action", "errnoRet", "errno", "return",
		"args", "paths", "rewrite", "when", "log", "comment",
		"includes", "excludes", NULL
	};
	struct json_object *v, *errno_o = NULL, *errnoret_o = NULL,
			       *return_o = NULL;
	char path[PATH_LEN], kp[PATH_LEN];
	const char *act;
	int r;

	path_index(path, "syscalls", idx);
	rule->json_path = strdup(path);
	if (!rule->json_path)
		return oom(ps);
	if (idx < ps->skim.n_rules)
		rule->line = ps->skim.rule_line[idx];
	if (!json_object_is_type(o, json_type_object))
		return type_err(ps, path, "an object", o);
	r = check_keys(ps, path, o, keys);
	if (r < 0)
		return r;

	path_key(kp, path, "action");
	if (!json_object_object_get_ex(o, "action", &v))
		return perr(ps, kp, "missing (e.g. \"SCMP_ACT_ERRNO\")");
	r = get_action(ps, kp, v, false, &rule->action);
	if (r < 0)
		return r;
	act = sw_action_name(rule->action);

	r = parse_names(ps, path, o, rule);
	if (r < 0)
		return r;

	/* errno / errnoRet / return, by action */
	json_object_object_get_ex(o, "errno", &errno_o);
	json_object_object_get_ex(o, "errnoRet", &errnoret_o);
	json_object_object_get_ex(o, "return", &return_o);
	if (errno_o && errnoret_o)
		return perr(ps, path,
			    "both \"errno\" and \"errnoRet\" given; use one");
	if (!errno_o)
		errno_o = errnoret_o;
	path_key(kp, path, errnoret_o ? "errnoRet" : "errno");
	switch (rule->action) {
	case SW_ACT_ERRNO:
		if (return_o) {
			path_key(kp, path, "return");
			return perr(ps, kp,
				    "not used by SCMP_ACT_ERRNO (it returns -errnoRet); use SYSWARD_ACT_SKIP to return a value");
		}
		rule->errno_ret = EPERM;
		if (errno_o) {
			r = get_errno(ps, kp, errno_o, &rule->errno_ret);
			if (r < 0)
				return r;
		}
		break;
	case SW_ACT_SKIP:
	case SW_ACT_EMULATE:
		if (errno_o && return_o)
			return perr(ps, path,
				    "both \"return\" and \"%s\" given; a skipped call either returns a value or fails with an errno",
				    errnoret_o ? "errnoRet" : "errno");
		if (errno_o) {
			r = get_errno(ps, kp, errno_o, &rule->errno_ret);
			if (r < 0)
				return r;
			rule->ret_is_errno = true;
		} else if (return_o) {
			uint64_t rv;

			path_key(kp, path, "return");
			r = get_value(ps, kp, return_o, &rv);
			if (r < 0)
				return r;
			rule->ret_value = (int64_t)rv;
		}
		break;
	default:
		if (errno_o)
			return perr(ps, kp,
				    "not used by %s (only SCMP_ACT_ERRNO, SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE fail with an errno)",
				    act);
		if (return_o) {
			path_key(kp, path, "return");
			return perr(ps, kp,
				    "not used by %s (only SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE return a value)",
				    act);
		}
		break;
	}

	if (json_object_object_get_ex(o, "args", &v)) {
		size_t n;

		path_key(kp, path, "args");
		/* Docker writes "args": null for rules without conditions */
		if (v && !json_object_is_type(v, json_type_array))
			return type_err(ps, kp, "an array", v);
		n = v ? json_object_array_length(v) : 0;
		if (n > SW_POLICY_MAX_ARGS)
			return perr(ps, kp, "%zu conditions, at most %d are allowed",
				    n, SW_POLICY_MAX_ARGS);
		rule->args = calloc(n ? n : 1, sizeof(*rule->args));
		if (!rule->args)
			return oom(ps);
		for (size_t i = 0; i < n; i++) {
			char ep[PATH_LEN];

			path_index(ep, kp, i);
			r = parse_arg(ps, ep, json_object_array_get_idx(v, i),
				      &rule->args[i]);
			if (r < 0)
				return r;
			rule->n_args++;
		}
	}

	if (json_object_object_get_ex(o, "paths", &v)) {
		size_t n;

		path_key(kp, path, "paths");
		if (!json_object_is_type(v, json_type_array))
			return type_err(ps, kp, "an array", v);
		n = json_object_array_length(v);
		if (n > SW_POLICY_MAX_ARGS)
			return perr(ps, kp, "%zu conditions, at most %d are allowed",
				    n, SW_POLICY_MAX_ARGS);
		rule->paths = calloc(n ? n : 1, sizeof(*rule->paths));
		if (!rule->paths)
			return oom(ps);
		for (size_t i = 0; i < n; i++) {
			char ep[PATH_LEN];

			path_index(ep, kp, i);
			r = parse_path_cond(ps, ep,
					    json_object_array_get_idx(v, i),
					    &rule->paths[i]);
			rule->n_paths += rule->paths[i].pattern != NULL;
			if (r < 0)
				return r;
		}
	}

	path_key(kp, path, "rewrite");
	if (json_object_object_get_ex(o, "rewrite", &v)) {
		if (rule->action != SW_ACT_REWRITE)
			return perr(ps, kp,
				    "only used with \"action\": \"SYSWARD_ACT_REWRITE\" (this rule's action is %s)",
				    act);
		r = parse_rewrite(ps, kp, v, rule);
		if (r < 0)
			return r;
	} else if (rule->action == SW_ACT_REWRITE) {
		return perr(ps, kp,
			    "missing: SYSWARD_ACT_REWRITE needs {\"syscall\": NAME} and/or {\"args\": [{\"index\": N, \"set\"|\"and\"|\"or\": VALUE}]}");
	}

	if (json_object_object_get_ex(o, "when", &v)) {
		path_key(kp, path, "when");
		r = parse_when(ps, kp, v, rule);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(o, "log", &v)) {
		path_key(kp, path, "log");
		r = get_bool(ps, kp, v, &rule->audit);
		if (r < 0)
			return r;
	}
	if (rule->action == SW_ACT_AUDIT)
		rule->audit = true;
	if (json_object_object_get_ex(o, "comment", &v)) {
		path_key(kp, path, "comment");
		r = dup_string(ps, kp, v, SW_POLICY_MAX_STRING, true,
			       &rule->comment);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(o, "includes", &v)) {
		path_key(kp, path, "includes");
		r = parse_gate(ps, kp, v, &rule->includes);
		if (r < 0)
			return r;
		rule->has_includes = true;
	}
	if (json_object_object_get_ex(o, "excludes", &v)) {
		path_key(kp, path, "excludes");
		r = parse_gate(ps, kp, v, &rule->excludes);
		if (r < 0)
			return r;
		rule->has_excludes = true;
	}
	rule->needs_supervisor = sw_rule_needs_supervisor(rule);
	/* The engine refuses pidfd_getfd unless a rule lets it run: say
	 * what such a rule gives the program.  Not for a rule that applies
	 * only to a program given capabilities (Docker's "pidfd_getfd with
	 * CAP_SYS_PTRACE"): whoever grants CAP_SYS_PTRACE means it to reach
	 * other processes. */
	if ((rule->action == SW_ACT_ALLOW || rule->action == SW_ACT_KLOG ||
	     rule->action == SW_ACT_AUDIT) &&
	    !(rule->has_includes && rule->includes.caps)) {
		for (size_t k = 0; k < rule->n_names; k++) {
			if (strcmp(rule->names[k], "pidfd_getfd"))
				continue;
			path_key(kp, path, "names");
			r = pwarn(ps, kp,
				  "pidfd_getfd is left to this policy: the program may take "
				  "open descriptors from any process of its uid it holds a pidfd of, "
				  "and pidfds of processes outside the sandbox come without "
				  "pidfd_open (SO_PEERPIDFD, SCM_PIDFD, open_by_handle_at); "
				  "no path rule checked what such a descriptor opened");
			if (r < 0)
				return r;
			break;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* top level */

static void set_check_arches(struct parser *ps)
{
	struct sw_policy *p = ps->p;

	ps->n_check_arches = 0;
	if (p->n_architectures) {
		for (size_t i = 0; i < p->n_architectures; i++)
			ps->check_arches[ps->n_check_arches++] = p->arch_tokens[i];
		return;
	}
	/* No list: those the engine filters. */
	ps->n_check_arches = sw_default_arches(ps->check_arches);
}

static int parse_top(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = {
		"$schema", "comment", "defaultAction", "defaultErrnoRet",
		"architectures", "archMap", "flags", "listenerPath",
		"listenerMetadata", "syscalls", "allowIoUring", NULL
	};
	struct sw_policy *p = ps->p;
	struct json_object *v, *arch = NULL, *map = NULL;
	size_t n;
	int r;

	if (!json_object_is_type(root, json_type_object))
		return perr(ps, NULL,
			    "expected a JSON object at the top level, got %s",
			    type_desc(root));
	r = check_keys(ps, NULL, root, keys);
	if (r < 0)
		return r;

	if (!json_object_object_get_ex(root, "defaultAction", &v))
		return perr(ps, "defaultAction",
			    "missing (what happens to system calls no rule matches, e.g. \"SCMP_ACT_ALLOW\")");
	r = get_action(ps, "defaultAction", v, true, &p->default_action);
	if (r < 0)
		return r;
	p->default_errno = EPERM;
	if (json_object_object_get_ex(root, "defaultErrnoRet", &v)) {
		if (p->default_action != SW_ACT_ERRNO)
			return perr(ps, "defaultErrnoRet",
				    "only used when defaultAction is SCMP_ACT_ERRNO (it is %s)",
				    sw_action_name(p->default_action));
		r = get_errno(ps, "defaultErrnoRet", v, &p->default_errno);
		if (r < 0)
			return r;
	}

	json_object_object_get_ex(root, "architectures", &arch);
	json_object_object_get_ex(root, "archMap", &map);
	if (arch && map)
		return perr(ps, "archMap",
			    "both \"architectures\" and \"archMap\" given; use one");
	if (arch) {
		r = parse_architectures(ps, arch);
		if (r < 0)
			return r;
	} else if (map) {
		r = parse_arch_map(ps, map);
		if (r < 0)
			return r;
	}
	set_check_arches(ps);

	if (json_object_object_get_ex(root, "flags", &v) && v) {
		r = parse_flags(ps, v);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(root, "listenerPath", &v)) {
		const char *s;

		r = get_string(ps, "listenerPath", v, PATH_MAX, true, &s);
		if (r < 0)
			return r;
		if (*s) {
			r = pwarn(ps, "listenerPath",
				  "ignored: sysward supervises the program itself (SCMP_ACT_NOTIFY is not supported)");
			if (r < 0)
				return r;
		}
	}
	if (json_object_object_get_ex(root, "allowIoUring", &v)) {
		r = get_bool(ps, "allowIoUring", v, &p->allow_io_uring);
		if (r < 0)
			return r;
		if (p->allow_io_uring) {
			r = pwarn(ps, "allowIoUring",
				  "io_uring operations bypass seccomp and sysward: "
				  "io_uring_setup, io_uring_enter and io_uring_register "
				  "are left to this policy, and what the program submits "
				  "through a ring (open, read, write, connect, ...) is "
				  "checked by no rule");
			if (r < 0)
				return r;
		}
	}
	if (json_object_object_get_ex(root, "listenerMetadata", &v)) {
		const char *s;

		r = get_string(ps, "listenerMetadata", v, SW_POLICY_MAX_STRING,
			       true, &s);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(root, "comment", &v)) {
		const char *s;

		r = get_string(ps, "comment", v, SW_POLICY_MAX_STRING, true, &s);
		if (r < 0)
			return r;
	}
	if (json_object_object_get_ex(root, "$schema", &v)) {
		const char *s;

		r = get_string(ps, "$schema", v, SW_POLICY_MAX_STRING, true, &s);
		if (r < 0)
			return r;
	}

	if (!json_object_object_get_ex(root, "syscalls", &v) || !v)
		return 0;	/* only a default action: valid */
	if (!json_object_is_type(v, json_type_array))
		return type_err(ps, "syscalls", "an array of rules", v);
	n = json_object_array_length(v);
	if (n > SW_POLICY_MAX_RULES)
		return perr(ps, "syscalls", "%zu rules, at most %d are allowed",
			    n, SW_POLICY_MAX_RULES);
	p->rules = calloc(n ? n : 1, sizeof(*p->rules));
	if (!p->rules)
		return oom(ps);
	for (size_t i = 0; i < n; i++) {
		/* count it first so that sw_policy_free frees a half-parsed
		 * rule */
		p->n_rules++;
		r = parse_rule(ps, i, json_object_array_get_idx(v, i),
			       &p->rules[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static const char *tokener_msg(enum json_tokener_error e, char c, char *buf,
			       size_t len)
{
	switch (e) {
	case json_tokener_error_depth:
		snprintf(buf, len, "nesting deeper than %d levels",
			 SW_POLICY_MAX_DEPTH);
		break;
	case json_tokener_error_parse_eof:
		snprintf(buf, len, "unexpected end of input");
		break;
	case json_tokener_error_parse_utf8_string:
		snprintf(buf, len, "invalid UTF-8");
		break;
	case json_tokener_error_parse_object_key_sep:
		snprintf(buf, len, "expected ':' after the key");
		break;
	case json_tokener_error_parse_object_value_sep:
		snprintf(buf, len, "expected ',' or '}' after the value");
		break;
	case json_tokener_error_parse_array:
		snprintf(buf, len, "expected ',' or ']' after the value");
		break;
	case json_tokener_error_parse_string:
		snprintf(buf, len,
			 "invalid string (bad escape or control character)");
		break;
	case json_tokener_error_parse_unexpected:
		if (c >= 0x21 && c < 0x7f)
			snprintf(buf, len, "unexpected '%c'", c);
		else
			snprintf(buf, len, "unexpected character");
		break;
	case json_tokener_error_parse_object_key_name:
		snprintf(buf, len, "expected a \"quoted\" key");
		break;
	default:
		if (c >= 0x21 && c < 0x7f)
			snprintf(buf, len, "%s at '%c'",
				 json_tokener_error_desc(e), c);
		else
			snprintf(buf, len, "%s", json_tokener_error_desc(e));
		break;
	}
	return buf;
}

int sw_policy_load_string(const char *text, size_t len, const char *name,
			  struct sw_policy **ret, struct sw_error *err)
{
	struct parser ps = {
		.source = name && *name ? name : "<policy>",
		.text = text,
		.len = len,
		.err = err,
	};
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	struct sw_policy *p = NULL;
	const char *nul;
	char why[256];
	size_t off;
	int r;

	if (!ret || (!text && len))
		return sw_error_set(err, EINVAL, "%s: invalid arguments",
				    ps.source);
	if (len > SW_POLICY_MAX_FILE)
		return sw_error_set(err, EFBIG,
				    "%s: policy is %zu bytes, larger than the %u byte limit",
				    ps.source, len, SW_POLICY_MAX_FILE);
	nul = len ? memchr(text, '\0', len) : NULL;
	if (nul)
		return perr_at(&ps, (size_t)(nul - text), "NUL byte in policy");

	tok = json_tokener_new_ex(SW_POLICY_MAX_DEPTH);
	if (!tok)
		return oom(&ps);
	/* Trailing data is reported below, with a clearer message. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, len ? text : "", (int)len);
	off = json_tokener_get_parse_end(tok);
	if (!root) {
		enum json_tokener_error je = json_tokener_get_error(tok);

		if (je == json_tokener_continue) {
			/* all input consumed but the value is not complete */
			je = json_tokener_error_parse_eof;
			off = len;
		}
		size_t ws = 0;

		while (ws < len && strchr(" \t\r\n", text[ws]))
			ws++;
		if (ws == len) {
			r = perr_at(&ps, len, "empty policy (expected a JSON object)");
			goto out;
		}
		r = perr_at(&ps, off,
			    tokener_msg(je, off < len ? text[off] : 0, why,
					sizeof(why)));
		goto out;
	}
	for (; off < len; off++)
		if (!strchr(" \t\r\n", text[off])) {
			r = perr_at(&ps, off,
				    "unexpected data after the policy object");
			goto out;
		}

	r = sw_skim(text, len, &ps.skim, why, sizeof(why), &off);
	if (r == -EINVAL) {
		r = perr_at(&ps, off, why);
		goto out;
	}
	if (r < 0) {
		r = oom(&ps);
		goto out;
	}

	p = calloc(1, sizeof(*p));
	if (!p) {
		r = oom(&ps);
		goto out;
	}
	ps.p = p;
	p->source = strdup(ps.source);
	if (!p->source) {
		r = oom(&ps);
		goto out;
	}
	r = parse_top(&ps, root);
	if (r < 0)
		goto out;
	if (ps.dropped_warnings) {
		/* the limit leaves room: replace the last one with a count */
		free(p->warnings[p->n_warnings - 1]);
		p->n_warnings--;
		if (asprintf(&p->warnings[p->n_warnings],
			     "%s: %zu more warnings not shown", ps.source,
			     ps.dropped_warnings + 1) < 0) {
			p->warnings[p->n_warnings] = NULL;
			r = oom(&ps);
			goto out;
		}
		p->n_warnings++;
	}
	*ret = TAKE_PTR(p);
	sw_error_clear(err);
	r = 0;
out:
	sw_policy_free(p);
	sw_skim_done(&ps.skim);
	json_object_put(root);
	json_tokener_free(tok);
	return r;
}

int sw_policy_read_file(const char *path, char **ret, size_t *ret_len,
			struct sw_error *err)
{
	cleanup_close int fd = -1;
	cleanup_free char *buf = NULL;
	size_t used = 0;
	struct stat st;

	if (!path)
		return sw_error_set(err, EINVAL, "no policy file given");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "open policy %s", path);
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "stat policy %s", path);
	if (S_ISDIR(st.st_mode))
		return sw_error_set(err, EISDIR,
				    "read policy %s: is a directory", path);
	/* Read at most one byte more than the limit, whatever st_size says
	 * (pipes, /proc files). */
	buf = malloc(SW_POLICY_MAX_FILE + 1);
	if (!buf)
		return sw_error_set(err, ENOMEM, "read policy %s: out of memory",
				    path);
	for (;;) {
		ssize_t n = read(fd, buf + used, SW_POLICY_MAX_FILE + 1 - used);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sw_error_set_errno(err, errno, "read policy %s",
						  path);
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > SW_POLICY_MAX_FILE)
			return sw_error_set(err, EFBIG,
					    "%s: policy is larger than the %u byte limit",
					    path, SW_POLICY_MAX_FILE);
	}
	buf[used] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = used;
	return 0;
}

int sw_policy_load_file(const char *path, struct sw_policy **ret,
			struct sw_error *err)
{
	cleanup_free char *text = NULL;
	size_t len;
	int r;

	r = sw_policy_read_file(path, &text, &len, err);
	if (r < 0)
		return r;
	return sw_policy_load_string(text, len, path, ret, err);
}

static void gate_free(struct sw_gate *g)
{
	strv_free(g->arches);
}

void sw_policy_free(struct sw_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rules; i++) {
		struct sw_rule *r = &p->rules[i];

		strv_free(r->names);
		free(r->args);
		for (size_t j = 0; j < r->n_paths; j++)
			free(r->paths[j].pattern);
		free(r->paths);
		free(r->new_syscall);
		free(r->rewrites);
		gate_free(&r->includes);
		gate_free(&r->excludes);
		free(r->comment);
		free(r->json_path);
	}
	free(p->rules);
	strv_free(p->architectures);
	free(p->arch_tokens);
	strv_free(p->warnings);
	free(p->source);
	free(p);
}

/* ------------------------------------------------------------------ */
/* includes / excludes, with Docker's semantics (moby
 * profiles/seccomp/seccomp_linux.go): a rule is skipped if any excluded cap
 * is held, the native arch is excluded, or the kernel is at least
 * excludes.minKernel; it applies only if every included cap is held, the
 * native arch is listed and the kernel is at least includes.minKernel. */

static bool arch_listed(char *const *arches, uint32_t token)
{
	const struct sw_arch_info *a = sw_arch_by_token(token);

	if (!a)
		return false;
	for (size_t i = 0; arches[i]; i++)
		if (strcmp(arches[i], a->oci) == 0 ||
		    (a->oci_alt && strcmp(arches[i], a->oci_alt) == 0))
			return true;
	return false;
}

bool sw_rule_applies(const struct sw_rule *r, const struct sw_policy_ctx *ctx)
{
	const struct sw_gate *in = &r->includes, *ex = &r->excludes;

	if (r->has_excludes) {
		if (ex->caps & ctx->caps)
			return false;
		if (ex->arches && ex->arches[0] &&
		    arch_listed(ex->arches, ctx->arch))
			return false;
		if (ex->min_kernel && ctx->kernel >= ex->min_kernel)
			return false;
	}
	if (r->has_includes) {
		if ((in->caps & ctx->caps) != in->caps)
			return false;
		if (in->arches && in->arches[0] &&
		    !arch_listed(in->arches, ctx->arch))
			return false;
		if (in->min_kernel && ctx->kernel < in->min_kernel)
			return false;
	}
	return true;
}
