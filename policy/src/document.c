// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * JSON policy -> struct sw_policy: the document and its top level.
 *
 * Three passes: json-c's tokener (syntax, "file:line:col: msg", the slips
 * named by skim.c), a lexical skim (duplicate keys, 64-bit integer range,
 * bare words, rule starts; skim.c), then the walk, which checks meaning
 * and reports each problem as "file:line:col: json.path: msg" (located
 * from the path by locate.c), the first, or every one when the caller
 * collects them (sw_pol_go_on): the top-level keys here, each rule in rule.c and
 * gate.c, each value with the readers in json.c.  Every key, type, range and
 * size is checked; the engine may rely on what policy.h promises without
 * re-checking.
 */
#include "sysward/policy.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"
#include "sysward/cleanup.h"
#include "sysward/sha256.h"

/* linux/seccomp.h; spelled out so old headers do not matter. */
#define FLAG_TSYNC		(1u << 0)
#define FLAG_LOG		(1u << 1)
#define FLAG_SPEC_ALLOW		(1u << 2)
#define FLAG_WAIT_KILLABLE_RECV	(1u << 5)

static int perr_at(struct parser *ps, size_t off, const char *msg)
{
	unsigned int line, col;
	struct sw_error e;

	sw_offset_to_linecol(ps->text, ps->len, off, &line, &col);
	sw_error_set(&e, EINVAL, "%s:%u:%u: %s", ps->source, line, col, msg);
	sw_error_locate(&e, line, col, NULL);
	return sw_pol_record(ps, &e);
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
			return sw_pol_perr(ps, path,
					   "unknown architecture \"%.64s\" (did you mean \"%s\"?)",
					   name, hint);
		sw_arch_list_scmp(list, sizeof(list));
		return sw_pol_perr(ps, path,
				   "unknown architecture \"%.64s\" (expected one of %s)",
				   name, list);
	}
	if (!a->token)
		return sw_pol_perr(ps, path,
				   "architecture %s is not supported by the installed libseccomp",
				   name);
	for (size_t i = 0; i < p->n_architectures; i++)
		if (p->arch_tokens[i] == a->token)
			return 0;	/* listed twice: harmless, keep one */
	if (p->n_architectures >= SW_POLICY_MAX_ARCHES)
		return sw_pol_perr(ps, path, "more than %d architectures",
				   SW_POLICY_MAX_ARCHES);
	na = realloc(p->architectures, (p->n_architectures + 2) * sizeof(*na));
	if (!na)
		return sw_pol_oom(ps);
	p->architectures = na;
	nt = realloc(p->arch_tokens, (p->n_architectures + 1) * sizeof(*nt));
	if (!nt)
		return sw_pol_oom(ps);
	p->arch_tokens = nt;
	na[p->n_architectures] = strdup(a->scmp_name);
	if (!na[p->n_architectures]) {
		na[p->n_architectures] = NULL;
		return sw_pol_oom(ps);
	}
	nt[p->n_architectures] = a->token;
	na[++p->n_architectures] = NULL;
	return 0;
}

static int parse_architectures(struct parser *ps, struct json_object *o)
{
	size_t n;
	int r;

	r = sw_pol_get_array(ps, "architectures", o, "an array of SCMP_ARCH_* names",
			     SW_POLICY_MAX_ARCHES, NULL, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];
		const char *name;

		sw_pol_path_index(ep, "architectures", i);
		r = sw_pol_get_string(ps, ep, json_object_array_get_idx(o, i),
				      SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		r = add_arch(ps, ep, name);
		if (r < 0)
			return r;
	}
	return 0;
}

/* archMap[i] (at ep); native is the machine's own architecture */
static int parse_arch_map_entry(struct parser *ps, const char *ep,
				struct json_object *e,
				const struct sw_arch_info *native)
{
	static const char *const keys[] = { "architecture", "subArchitectures",
					    NULL };
	struct json_object *a, *subs;
	char kp[PATH_LEN];
	const char *name;
	bool is_native;
	size_t ns = 0;
	int r;

	r = sw_pol_check_object(ps, ep, e, keys);
	if (r < 0)
		return r;
	sw_pol_path_key(kp, ep, "architecture");
	if (!json_object_object_get_ex(e, "architecture", &a))
		return sw_pol_perr(ps, kp, "missing (an SCMP_ARCH_* name)");
	r = sw_pol_get_string(ps, kp, a, SW_POLICY_MAX_NAME_LEN, false, &name);
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
	sw_pol_path_key(kp, ep, "subArchitectures");
	if (!json_object_object_get_ex(e, "subArchitectures", &subs) || !subs)
		return 0;	/* Docker writes null */
	r = sw_pol_get_array(ps, kp, subs, "an array of SCMP_ARCH_* names",
			     SW_POLICY_MAX_ARCHES, NULL, &ns);
	if (r < 0)
		return r;
	for (size_t j = 0; j < ns; j++) {
		char sp[PATH_LEN];
		const char *sub;

		sw_pol_path_index(sp, kp, j);
		r = sw_pol_get_string(ps, sp, json_object_array_get_idx(subs, j),
				      SW_POLICY_MAX_NAME_LEN, false, &sub);
		if (r < 0)
			return r;
		if (!sw_arch_by_scmp_name(sub) || is_native) {
			r = add_arch(ps, sp, sub);
			if (r < 0)
				return r;
		}
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
	const struct sw_arch_info *native = sw_arch_by_token(seccomp_arch_native());
	size_t n;
	int r;

	r = sw_pol_get_array(ps, "archMap", o, "an array", SW_POLICY_MAX_ARCHES, NULL,
			     &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, "archMap", i);
		r = parse_arch_map_entry(ps, ep,
					 json_object_array_get_idx(o, i), native);
		if (r < 0)
			return r;
	}
	return 0;
}

/* "flags", into the filter flags (dst) */
static int parse_flags(struct parser *ps, const char *path,
		       struct json_object *o, void *dst)
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
	uint32_t *filter_flags = dst;
	size_t n;
	int r;

	r = sw_pol_get_array(ps, path, o, "an array of SECCOMP_FILTER_FLAG_* names",
			     16, NULL, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];
		struct sw_suggest s;
		const char *name;
		bool found = false;

		sw_pol_path_index(ep, path, i);
		r = sw_pol_get_string(ps, ep, json_object_array_get_idx(o, i),
				      SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		sw_suggest_init(&s, name);
		for (size_t j = 0; j < N_ELEMENTS(flags); j++) {
			sw_suggest_feed(&s, flags[j].name);
			if (strcmp(flags[j].name, name) == 0) {
				*filter_flags |= flags[j].bit;
				found = true;
			}
		}
		if (found)
			continue;
		if (strcmp(name, "SECCOMP_FILTER_FLAG_NEW_LISTENER") == 0)
			return sw_pol_perr(ps, ep,
					   "SECCOMP_FILTER_FLAG_NEW_LISTENER is not supported: sysward supervises the program itself");
		return sw_pol_perr_unknown(ps, ep, "flag", name, sw_suggest_result(&s),
					   "expected one of SECCOMP_FILTER_FLAG_TSYNC, SECCOMP_FILTER_FLAG_LOG, SECCOMP_FILTER_FLAG_SPEC_ALLOW, SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV");
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

/* defaultAction, and defaultErrnoRet (or Podman's defaultErrno, or both)
 * that only SCMP_ACT_ERRNO uses */
static int parse_default(struct parser *ps, struct json_object *root)
{
	struct sw_policy *p = ps->p;
	struct json_object *v, *name = NULL, *num = NULL;
	int r;

	if (!json_object_object_get_ex(root, "defaultAction", &v))
		return sw_pol_perr(ps, "defaultAction",
				   "missing (what happens to system calls no rule matches, e.g. \"SCMP_ACT_ALLOW\")");
	r = sw_pol_get_action(ps, "defaultAction", v, true, &p->default_action);
	if (r < 0)
		return r;
	p->default_errno = EPERM;
	json_object_object_get_ex(root, "defaultErrno", &name);
	json_object_object_get_ex(root, "defaultErrnoRet", &num);
	if (!name && !num)
		return 0;
	if (p->default_action != SW_ACT_ERRNO)
		return sw_pol_perr(ps, num ? "defaultErrnoRet" : "defaultErrno",
				   "only used when defaultAction is SCMP_ACT_ERRNO (it is %s)",
				   sw_action_name(p->default_action));
	return sw_pol_get_errno_pair(ps, NULL, "defaultErrno", name,
				     "defaultErrnoRet", num, &p->default_errno);
}

/* architectures or archMap; then the architectures names are checked on */
static int parse_top_arches(struct parser *ps, struct json_object *root)
{
	struct json_object *arch = NULL, *map = NULL;
	int r = 0;

	json_object_object_get_ex(root, "architectures", &arch);
	json_object_object_get_ex(root, "archMap", &map);
	if (arch && map)
		return sw_pol_perr(ps, "archMap",
				   "both \"architectures\" and \"archMap\" given; use one");
	if (arch)
		r = parse_architectures(ps, arch);
	else if (map)
		r = parse_arch_map(ps, map);
	if (r < 0)
		return r;
	set_check_arches(ps);
	return 0;
}

/* The top-level keys after the default action and the architectures, in
 * the order they are checked. */
static const struct field top_fields[] = {
	{ .key = "flags", .kind = FIELD_FUNC, .null_absent = true,
	  .offset = offsetof(struct sw_policy, filter_flags),
	  .parse = parse_flags },
	{ .key = "listenerPath", .kind = FIELD_STRING, .max_len = PATH_MAX,
	  .allow_empty = true,
	  .warn = "ignored: sysward supervises the program itself (SCMP_ACT_NOTIFY is not supported)" },
	{ .key = "allowIoUring", .kind = FIELD_BOOL,
	  .offset = offsetof(struct sw_policy, allow_io_uring),
	  .warn = "io_uring operations bypass seccomp and sysward: "
		  "io_uring_setup, io_uring_enter and io_uring_register "
		  "are left to this policy, and what the program submits "
		  "through a ring (open, read, write, connect, ...) is "
		  "checked by no rule" },
	{ .key = "listenerMetadata", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
	{ .key = "comment", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
	{ .key = "$schema", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
};

static int parse_rules(struct parser *ps, struct json_object *root)
{
	struct sw_policy *p = ps->p;
	struct json_object *v;
	size_t n;
	int r;

	if (!json_object_object_get_ex(root, "syscalls", &v) || !v)
		return 0;	/* only a default action: valid */
	r = sw_pol_get_array(ps, "syscalls", v, "an array of rules",
			     SW_POLICY_MAX_RULES, "rules", &n);
	if (r < 0)
		return r;
	p->rules = calloc(n ? n : 1, sizeof(*p->rules));
	if (!p->rules)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		/* count it first so that sw_policy_free frees a half-parsed
		 * rule */
		p->n_rules++;
		r = sw_pol_parse_rule(ps, i, json_object_array_get_idx(v, i),
				      &p->rules[i]);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
	}
	return ps->n_errors ? -EINVAL : 0;
}

static int parse_top(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = {
		"$schema", "comment", "defaultAction", "defaultErrnoRet",
		"defaultErrno", "architectures", "archMap", "flags", "listenerPath",
		"listenerMetadata", "syscalls", "allowIoUring", "filesystem",
		"network", NULL
	};
	struct json_object *v;
	int r;

	if (!json_object_is_type(root, json_type_object))
		return sw_pol_perr(ps, NULL,
				   "expected a JSON object at the top level, got %s",
				   sw_pol_type_desc(root));
	/* Each part on its own: with every error wanted, a problem in one
	 * does not hide those of the next. */
	r = sw_pol_check_keys(ps, NULL, root, keys);
	if (r < 0 && !sw_pol_go_on(ps, r))
		return r;
	r = parse_default(ps, root);
	if (r < 0 && !sw_pol_go_on(ps, r))
		return r;
	r = parse_top_arches(ps, root);
	if (r < 0 && !sw_pol_go_on(ps, r))
		return r;
	if (r < 0)	/* the rules' names are checked on the default ones */
		ps->n_check_arches = sw_default_arches(ps->check_arches);
	r = sw_pol_read_fields(ps, NULL, root, top_fields, N_ELEMENTS(top_fields),
			       ps->p);
	if (r < 0 && !sw_pol_go_on(ps, r))
		return r;
	r = parse_rules(ps, root);
	if (r < 0 && !sw_pol_go_on(ps, r))
		return r;
	if (json_object_object_get_ex(root, "filesystem", &v)) {
		r = sw_pol_parse_filesystem(ps, v);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
	}
	if (json_object_object_get_ex(root, "network", &v)) {
		r = sw_pol_parse_network(ps, v);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
	}
	return ps->n_errors ? -EINVAL : 0;
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

/* What json-c was looking for when it stopped, for sw_json_slip(). */
static enum sw_json_expect slip_expect(enum json_tokener_error e)
{
	switch (e) {
	case json_tokener_error_parse_object_value_sep:
	case json_tokener_error_parse_array:
		return SW_JSON_EXPECT_SEPARATOR;
	case json_tokener_error_parse_object_key_name:
		return SW_JSON_EXPECT_KEY;
	default:
		return SW_JSON_EXPECT_ANY;
	}
}

/* The text as JSON: the root, or the tokener's problem as file:line:col */
static int parse_json(struct parser *ps, struct json_tokener *tok,
		      struct json_object **ret)
{
	const char *text = ps->text;
	size_t len = ps->len, off, ws = 0, slip_off;
	enum json_tokener_error je;
	char why[256];

	/* Trailing data is reported below, with a clearer message. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	*ret = json_tokener_parse_ex(tok, len ? text : "", (int)len);
	off = json_tokener_get_parse_end(tok);
	if (*ret) {
		for (; off < len; off++)
			if (!strchr(" \t\r\n", text[off]))
				return perr_at(ps, off,
					       "unexpected data after the policy object");
		return 0;
	}
	je = json_tokener_get_error(tok);
	if (je == json_tokener_continue) {
		/* all input consumed but the value is not complete */
		je = json_tokener_error_parse_eof;
		off = len;
	}
	while (ws < len && strchr(" \t\r\n", text[ws]))
		ws++;
	if (ws == len)
		return perr_at(ps, len, "empty policy (expected a JSON object)");
	if (sw_json_slip(text, len, off, slip_expect(je), &slip_off, why,
			 sizeof(why)))
		return perr_at(ps, slip_off, why);
	return perr_at(ps, off, tokener_msg(je, off < len ? text[off] : 0, why,
					    sizeof(why)));
}

/* Past the limit, the last warning becomes a count of those not shown. */
static int count_dropped_warnings(struct parser *ps)
{
	struct sw_policy *p = ps->p;

	if (!ps->dropped_warnings)
		return 0;
	/* the limit leaves room: replace the last one with a count */
	free(p->warnings[p->n_warnings - 1]);
	free(p->warning_paths[p->n_warnings - 1]);
	p->n_warnings--;
	p->warning_paths[p->n_warnings] = strdup("");
	if (!p->warning_paths[p->n_warnings]) {
		p->warnings[p->n_warnings] = NULL;
		return sw_pol_oom(ps);
	}
	if (p->warning_kinds[p->n_warnings] != SW_POLICY_WARN_SYSCALL_NEWER)
		ps->dropped_other++;
	p->warning_pos[p->n_warnings] = (struct sw_policy_pos){ 0, 0 };
	p->warning_kinds[p->n_warnings] = ps->dropped_other
		? SW_POLICY_WARN_OTHER : SW_POLICY_WARN_SYSCALL_NEWER;
	if (asprintf(&p->warnings[p->n_warnings],
		     "%s: %zu more warnings not shown", ps->source,
		     ps->dropped_warnings + 1) < 0) {
		p->warnings[p->n_warnings] = NULL;
		return sw_pol_oom(ps);
	}
	p->n_warnings++;
	return 0;
}

/* Meaning, after the syntax: the skim, then the walk from parse_top. */
static int parse_policy(struct parser *ps, struct json_object *root,
			struct sw_policy **ret)
{
	char why[256];
	size_t off;
	int r;

	r = sw_skim(ps->text, ps->len, &ps->skim, why, sizeof(why), &off);
	if (r == -EINVAL)
		return perr_at(ps, off, why);
	if (r < 0)
		return sw_pol_oom(ps);
	ps->p = calloc(1, sizeof(*ps->p));
	*ret = ps->p;	/* the caller frees it, also half-parsed */
	if (!ps->p)
		return sw_pol_oom(ps);
	ps->p->source = strdup(ps->source);
	if (!ps->p->source)
		return sw_pol_oom(ps);
	r = parse_top(ps, root);
	if (r < 0)
		return r;
	return count_dropped_warnings(ps);
}

/* "policy is too big", and how to get past the limit (size: 0 when
 * it is only known to be larger). */
static int too_big(struct sw_error *err, const char *name, size_t size,
		   size_t limit)
{
	char is[64] = "is larger";

	if (size)
		snprintf(is, sizeof(is), "is %zu bytes, larger", size);
	if (limit >= SW_LIMIT_POLICY_BYTES_MAX)
		return sw_error_set(err, EFBIG,
				    "%s: policy %s than %zu bytes, the most sysward reads",
				    name, is, limit);
	return sw_error_set(err, EFBIG,
			    "%s: policy %s than the %zu byte limit (--policy-max-bytes BYTES or SYSWARD_POLICY_MAX_BYTES=BYTES raises it, up to %u)",
			    name, is, limit, SW_LIMIT_POLICY_BYTES_MAX);
}

/* The size limit that opts ask for, within the one bound. */
static size_t max_bytes(size_t want)
{
	if (want == 0)
		return SW_POLICY_MAX_FILE;
	return want < SW_LIMIT_POLICY_BYTES_MAX ? want : SW_LIMIT_POLICY_BYTES_MAX;
}

int sw_policy_load_string(const char *text, size_t len, const char *name,
			  struct sw_policy **ret, struct sw_error *err)
{
	return sw_policy_load_string_opts(text, len, name, NULL, ret, err);
}

int sw_policy_load_string_opts(const char *text, size_t len, const char *name,
			       struct sw_policy_load_opts *opts,
			       struct sw_policy **ret, struct sw_error *err)
{
	struct parser ps = {
		.source = name && *name ? name : "<policy>",
		.text = text,
		.len = len,
		.err = err,
		.opts = opts,
	};
	size_t limit = max_bytes(opts ? opts->max_bytes : 0);
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	struct sw_policy *p = NULL;
	const char *nul;
	int r;

	if (!ret || (!text && len))
		return sw_error_set(err, EINVAL, "%s: invalid arguments",
				    ps.source);
	if (len > limit) {
		struct sw_error e;

		too_big(&e, ps.source, len, limit);
		return sw_pol_record(&ps, &e);
	}
	/* A UTF-8 byte-order mark, as editors on Windows write one: skipped
	 * as JSON parsers commonly do (RFC 8259 lets them).  Lines and
	 * columns then count from after it, as the editor shows them. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		ps.text = text += 3;
		ps.len = len -= 3;
	}
	nul = len ? memchr(text, '\0', len) : NULL;
	if (nul)
		return perr_at(&ps, (size_t)(nul - text), "NUL byte in policy");

	tok = json_tokener_new_ex(SW_POLICY_MAX_DEPTH);
	if (!tok)
		return sw_pol_oom(&ps);
	r = parse_json(&ps, tok, &root);
	if (r >= 0)
		r = parse_policy(&ps, root, &p);
	if (r >= 0) {
		sw_sha256(text, len, p->text_digest);
		p->has_text_digest = true;
		*ret = TAKE_PTR(p);
		sw_error_clear(err);
		r = 0;
	}
	sw_policy_free(p);
	sw_skim_done(&ps.skim);
	sw_json_lines_done(&ps.lines);
	json_object_put(root);
	json_tokener_free(tok);
	return r;
}

static const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return "a FIFO (named pipe)";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	default:
		return "not a file";
	}
}

/* The policy text of fd (name: for messages), at most limit bytes: a
 * file from offset 0 whatever its offset (a descriptor may be shared);
 * a stream (a pipe, a terminal) once, from where it is, to its end. */
static int read_policy(int fd, const char *name, size_t limit, bool stream,
		       char **ret, size_t *ret_len, struct sw_error *err)
{
	cleanup_free char *buf = NULL;
	size_t used = 0, size = 0;

	/* Read at most one byte more than the limit, whatever st_size says
	 * (/proc files), into a buffer that grows as the text comes: a
	 * raised limit costs only the policies that need it. */
	for (;;) {
		ssize_t n;

		if (used == size) {
			size_t nsize = size ? size * 2 : 64 * 1024;
			char *nbuf;

			if (nsize > limit + 1)
				nsize = limit + 1;
			nbuf = realloc(buf, nsize + 1);
			if (!nbuf)
				return sw_error_set(err, ENOMEM,
						    "read policy %s: out of memory",
						    name);
			buf = nbuf;
			size = nsize;
		}
		n = stream ? read(fd, buf + used, size - used)
			   : pread(fd, buf + used, size - used, (off_t)used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sw_error_set_errno(err, errno, "read policy %s",
						  name);
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > limit)
			return too_big(err, name, 0, limit);
	}
	buf[used] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = used;
	return 0;
}

const char *sw_policy_file_name(const char *path)
{
	return path && strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* "-": our standard input, a file (read from offset 0) or anything
 * else read once as a stream ("sysward run --policy - < p.json", "jq
 * ... | sysward run --policy -").  Left open: it is the program's too,
 * at its end now. */
static int read_stdin(size_t limit, char **ret, size_t *ret_len,
		      struct sw_error *err)
{
	const char *name = sw_policy_file_name("-");
	struct stat st;

	if (fstat(STDIN_FILENO, &st) < 0)
		return sw_error_set_errno(err, errno, "read policy from %s", name);
	if (S_ISDIR(st.st_mode))
		return sw_error_set(err, EISDIR, "read policy %s: is a directory", name);
	return read_policy(STDIN_FILENO, name, limit, !S_ISREG(st.st_mode),
			   ret, ret_len, err);
}

int sw_policy_read_file(const char *path, char **ret, size_t *ret_len,
			struct sw_error *err)
{
	return sw_policy_read_file_max(path, 0, ret, ret_len, err);
}

int sw_policy_read_file_max(const char *path, size_t limit, char **ret,
			    size_t *ret_len, struct sw_error *err)
{
	cleanup_close int fd = -1;
	struct statfs sfs;
	struct stat st;

	if (!path)
		return sw_error_set(err, EINVAL, "no policy file given");
	if (strcmp(path, "-") == 0)
		return read_stdin(max_bytes(limit), ret, ret_len, err);
	/* O_NONBLOCK: opening a named FIFO blocks until a writer comes,
	 * and a device's open may do anything; neither is a policy. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "open policy %s", path);
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "stat policy %s", path);
	if (S_ISDIR(st.st_mode))
		return sw_error_set(err, EISDIR,
				    "read policy %s: is a directory", path);
	if (S_ISFIFO(st.st_mode) && fstatfs(fd, &sfs) == 0 &&
	    sfs.f_type == PIPEFS_MAGIC) {
		/* A pipe ("<(jq ...)", /dev/fd/N), read once to its end,
		 * blocking: its writer is there, or has gone and left what
		 * it wrote.  A named FIFO (a file system's inode, not
		 * pipefs) stays refused below: its open found no writer
		 * (O_NONBLOCK), and waiting for one could be for ever. */
		int fl = fcntl(fd, F_GETFL);

		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
			return sw_error_set_errno(err, errno, "read policy %s", path);
		return read_policy(fd, path, max_bytes(limit), true, ret,
				   ret_len, err);
	}
	if (!S_ISREG(st.st_mode))
		return sw_error_set(err, EINVAL,
				    "read policy %s: is %s, not a regular file: give the path of a policy file, a pipe, or '-' for standard input",
				    path, file_kind(st.st_mode));
	return read_policy(fd, path, max_bytes(limit), false, ret, ret_len,
			   err);
}

/*
 * sysward-runtime hands a container's processes their policy as a memory
 * file sealed against writing, shrinking and growing (memfd_create(2),
 * F_ADD_SEALS): what it holds is what its maker wrote, whoever else
 * holds the descriptor (a hook runc runs before process 1 inherits it),
 * and no path of the container's file system, which the bundle's mounts
 * and masks decide, is involved (issue 32: a masked policy file became
 * the bundle's /dev/null).  Anything else is refused, not read: a policy
 * that can still change is no policy.  Seals belong to the inode
 * (mm/memfd.c): they hold for every descriptor and every open of it.
 */
int sw_policy_read_sealed_fd(int fd, char **ret, size_t *ret_len,
			     struct sw_error *err)
{
	const int want = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW;
	char name[48];
	struct stat st;
	int seals;

	snprintf(name, sizeof(name), "descriptor %d", fd);
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "policy %s", name);
	seals = fcntl(fd, F_GET_SEALS);
	if (!S_ISREG(st.st_mode) || seals < 0 || (seals & want) != want)
		return sw_error_set(err, EPERM,
				    "policy %s: not a sealed memory file (memfd_create(2) with F_SEAL_WRITE, F_SEAL_SHRINK and F_SEAL_GROW): a policy that can still change is not read",
				    name);
	return read_policy(fd, name, SW_POLICY_MAX_FILE, false, ret, ret_len,
			   err);
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
	return sw_policy_load_string(text, len, sw_policy_file_name(path), ret,
				     err);
}

static void gate_free(struct sw_gate *g)
{
	sw_pol_strv_free(g->arches);
}

void sw_policy_free(struct sw_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rules; i++) {
		struct sw_rule *r = &p->rules[i];

		sw_pol_strv_free(r->names);
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
	sw_pol_fs_free(p);
	sw_pol_strv_free(p->architectures);
	free(p->arch_tokens);
	sw_pol_strv_free(p->warnings);
	sw_pol_strv_free(p->warning_paths);
	free(p->warning_kinds);
	free(p->warning_pos);
	free(p->source);
	free(p);
}
