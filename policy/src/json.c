// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The policy parser's value helpers: messages with the JSON path, and the
 * readers of one JSON value each (string, integer, errno, action, ...).
 * Each checks type, range and size and reports a problem through
 * sw_pol_perr(), which locates it (locate.c) and keeps it (sw_pol_record);
 * see document.c for the passes around them.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------------ */
/* messages */

int sw_pol_record(struct parser *ps, const struct sw_error *e)
{
	struct sw_policy_load_opts *o = ps->opts;

	/* The first is the error; with sw_policy_load_opts.errors, every
	 * one is kept up to its room and the rest counted. */
	if (ps->n_errors++ == 0 && ps->err)
		*ps->err = *e;
	if (o && o->errors) {
		if (o->n_errors < o->max_errors)
			o->errors[o->n_errors++] = *e;
		else
			o->n_more++;
	}
	return -e->code;
}

/* Where the value at path is (or, with key, that key of the object at
 * path); 0 0 when it cannot be said (no memory for the line index). */
static void locate(struct parser *ps, const char *path, const char *key,
		   unsigned int *line, unsigned int *col)
{
	char kp[PATH_LEN];

	*line = *col = 0;
	if (!ps->lines.start &&
	    sw_json_lines_init(&ps->lines, ps->text, ps->len) < 0)
		return;
	if (key) {
		sw_pol_path_key(kp, path, key);
		path = kp;
	}
	sw_json_lines_linecol(&ps->lines,
			      sw_pol_find(ps->text, ps->len, &ps->skim,
					  path ? path : "", key != NULL),
			      line, col);
}

/* "file:line:col: path: msg" (no path: the policy's own position) */
static int vperr(struct parser *ps, const char *path, const char *key,
		 const char *fmt, va_list ap)
{
	char msg[SW_ERROR_MSG_MAX];
	unsigned int line, col;
	struct sw_error e;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	locate(ps, path, key, &line, &col);
	if (!line)
		sw_error_set(&e, EINVAL, "%s: %s%s%s", ps->source,
			     path && *path ? path : "", path && *path ? ": " : "",
			     msg);
	else
		sw_error_set(&e, EINVAL, "%s:%u:%u: %s%s%s", ps->source,
			     line, col, path && *path ? path : "",
			     path && *path ? ": " : "", msg);
	sw_error_locate(&e, line, col, path);
	return sw_pol_record(ps, &e);
}

int sw_pol_perr(struct parser *ps, const char *path, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vperr(ps, path, NULL, fmt, ap);
	va_end(ap);
	return r;
}

int sw_pol_perr_key(struct parser *ps, const char *path, const char *key,
		    const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vperr(ps, path, key, fmt, ap);
	va_end(ap);
	return r;
}

static int vpwarn(struct parser *ps, enum sw_policy_warning_kind kind,
		  const char *path, const char *fmt, va_list ap)
{
	char msg[SW_ERROR_MSG_MAX];
	struct sw_policy *p = ps->p;
	struct sw_policy_pos *wp;
	unsigned int line, col;
	unsigned char *k;
	char **w;
	char *s;

	if (p->n_warnings >= SW_POLICY_MAX_WARNINGS) {
		ps->dropped_warnings++;
		if (kind != SW_POLICY_WARN_SYSCALL_NEWER)
			ps->dropped_other++;
		return 0;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	locate(ps, path, NULL, &line, &col);
	if ((line ? asprintf(&s, "%s:%u:%u: %s: %s", ps->source, line, col,
			     path, msg)
		  : asprintf(&s, "%s: %s: %s", ps->source, path, msg)) < 0)
		return sw_error_set(ps->err, ENOMEM, "out of memory");
	/* warning_pos before the others, which it is never shorter than */
	wp = realloc(p->warning_pos, (p->n_warnings + 1) * sizeof(*wp));
	if (!wp) {
		free(s);
		return sw_error_set(ps->err, ENOMEM, "out of memory");
	}
	p->warning_pos = wp;
	wp[p->n_warnings] = (struct sw_policy_pos){ line, col };
	/* warning_paths and warning_kinds first: they are never shorter
	 * than warnings. */
	w = realloc(p->warning_paths, (p->n_warnings + 2) * sizeof(*w));
	if (w) {
		p->warning_paths = w;
		w[p->n_warnings] = strdup(path ? path : "");
		w[p->n_warnings + 1] = NULL;
	}
	if (!w || !w[p->n_warnings]) {
		free(s);
		return sw_error_set(ps->err, ENOMEM, "out of memory");
	}
	k = realloc(p->warning_kinds, p->n_warnings + 1);
	if (k)
		p->warning_kinds = k;
	w = k ? realloc(p->warnings, (p->n_warnings + 2) * sizeof(*w)) : NULL;
	if (!w) {
		free(p->warning_paths[p->n_warnings]);
		p->warning_paths[p->n_warnings] = NULL;
		free(s);
		return sw_error_set(ps->err, ENOMEM, "out of memory");
	}
	k[p->n_warnings] = (unsigned char)kind;
	w[p->n_warnings++] = s;
	w[p->n_warnings] = NULL;
	p->warnings = w;
	return 0;
}

int sw_pol_pwarn(struct parser *ps, const char *path, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpwarn(ps, SW_POLICY_WARN_OTHER, path, fmt, ap);
	va_end(ap);
	return r;
}

int sw_pol_pwarn_kind(struct parser *ps, enum sw_policy_warning_kind kind,
		      const char *path, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpwarn(ps, kind, path, fmt, ap);
	va_end(ap);
	return r;
}

int sw_pol_oom(struct parser *ps)
{
	return sw_error_set(ps->err, ENOMEM, "%s: out of memory", ps->source);
}

const char *sw_pol_type_desc(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a fractional number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "something else";
}

int sw_pol_type_err(struct parser *ps, const char *path, const char *want,
		    struct json_object *o)
{
	return sw_pol_perr(ps, path, "expected %s, got %s", want, sw_pol_type_desc(o));
}

/*
 * path = parent + "." + key (or just key at the top).  Policies are
 * limited in depth and name length, so PATH_LEN holds any real path; a
 * longer one is cut and ends in "...", which only shortens a message.
 */
static void path_cut(char *buf, int n)
{
	if (n < 0 || n >= PATH_LEN)
		memcpy(buf + PATH_LEN - 4, "...", 4);
}

/* What snprintf(buf, PATH_LEN, "%s%s%s%s", ...) and path_cut() would
 * make, without printf: a path is made for every element of every
 * policy, and printf was a tenth of loading Docker's profile. */
static void path_join(char *buf, const char *const parts[4])
{
	size_t n = 0;
	bool cut = false;

	for (int i = 0; i < 4 && parts[i]; i++) {
		size_t len = strlen(parts[i]);

		if (n + len >= PATH_LEN) {
			len = PATH_LEN - 1 - n;
			cut = true;
		}
		memmove(buf + n, parts[i], len);
		n += len;
	}
	buf[n] = '\0';
	if (cut)
		path_cut(buf, PATH_LEN);
}

void sw_pol_path_key(char *buf, const char *parent, const char *key)
{
	const char *parts[4] = { key, NULL };

	if (parent && *parent) {
		parts[0] = parent;
		parts[1] = ".";
		parts[2] = key;
	}
	path_join(buf, parts);
}

void sw_pol_path_index(char *buf, const char *parent, size_t i)
{
	char num[24], *p = num + sizeof(num);
	const char *parts[4] = { parent, "[", NULL, NULL };

	*--p = '\0';
	*--p = ']';
	do
		*--p = (char)('0' + i % 10);
	while ((i /= 10));
	parts[2] = p;
	path_join(buf, parts);
}

/* ------------------------------------------------------------------ */
/* generic checks */

/* "unknown what "name" (did you mean "hint"?)", else with "(otherwise)" */
int sw_pol_perr_unknown(struct parser *ps, const char *path, const char *what,
			const char *name, const char *hint, const char *otherwise)
{
	if (hint)
		return sw_pol_perr(ps, path, "unknown %s \"%s\" (did you mean \"%s\"?)",
				   what, name, hint);
	if (otherwise)
		return sw_pol_perr(ps, path, "unknown %s \"%s\" (%s)", what, name,
				   otherwise);
	return sw_pol_perr(ps, path, "unknown %s \"%s\"", what, name);
}

int sw_pol_get_array(struct parser *ps, const char *path, struct json_object *o,
		     const char *want, size_t max, const char *entries, size_t *n)
{
	if (!json_object_is_type(o, json_type_array))
		return sw_pol_type_err(ps, path, want, o);
	*n = json_object_array_length(o);
	if (*n <= max)
		return 0;
	if (entries)
		return sw_pol_perr(ps, path, "%zu %s, at most %zu are allowed", *n,
				   entries, max);
	return sw_pol_perr(ps, path, "more than %zu entries", max);
}

int sw_pol_check_keys(struct parser *ps, const char *path,
		      struct json_object *obj, const char *const *known)
{
	int ret = 0;

	json_object_object_foreach(obj, key, val) {
		struct sw_suggest s;
		const char *hint;
		bool ok = false;

		(void)val;
		for (size_t i = 0; known[i]; i++)
			if (strcmp(key, known[i]) == 0)
				ok = true;
		if (ok)
			continue;
		sw_suggest_init(&s, key);
		for (size_t i = 0; known[i]; i++)
			sw_suggest_feed(&s, known[i]);
		hint = sw_suggest_result(&s);
		if (hint) {
			ret = sw_pol_perr_key(ps, path, key,
					      "unknown key \"%.64s\" (did you mean \"%s\"?)",
					      key, hint);
		} else {
			char list[512] = "";
			size_t used = 0;

			for (size_t i = 0; known[i] && used < sizeof(list); i++)
				used += (size_t)snprintf(list + used,
							 sizeof(list) - used,
							 "%s%s", i ? ", " : "",
							 known[i]);
			ret = sw_pol_perr_key(ps, path, key,
					      "unknown key \"%.64s\" (expected one of %s)",
					      key, list);
		}
		if (!sw_pol_go_on(ps, ret))
			return ret;
	}
	return ret;
}

int sw_pol_check_object(struct parser *ps, const char *path, struct json_object *o,
			const char *const *known)
{
	if (!json_object_is_type(o, json_type_object))
		return sw_pol_type_err(ps, path, "an object", o);
	return sw_pol_check_keys(ps, path, o, known);
}

int sw_pol_get_string(struct parser *ps, const char *path,
		      struct json_object *o, size_t max, bool allow_empty,
		      const char **ret)
{
	const char *s;
	size_t n;

	if (!json_object_is_type(o, json_type_string))
		return sw_pol_type_err(ps, path, "a string", o);
	s = json_object_get_string(o);
	n = (size_t)json_object_get_string_len(o);
	if (strlen(s) != n)
		return sw_pol_perr(ps, path, "string contains a NUL character");
	if (n > max)
		return sw_pol_perr(ps, path, "string is longer than %zu bytes", max);
	if (n == 0 && !allow_empty)
		return sw_pol_perr(ps, path, "must not be empty");
	*ret = s;
	return 0;
}

int sw_pol_dup_string(struct parser *ps, const char *path,
		      struct json_object *o, size_t max, bool allow_empty,
		      char **ret)
{
	const char *s;
	int r = sw_pol_get_string(ps, path, o, max, allow_empty, &s);

	if (r < 0)
		return r;
	*ret = strdup(s);
	return *ret ? 0 : sw_pol_oom(ps);
}

int sw_pol_get_bool(struct parser *ps, const char *path, struct json_object *o,
		    bool *ret)
{
	if (!json_object_is_type(o, json_type_boolean))
		return sw_pol_type_err(ps, path, "true or false", o);
	*ret = json_object_get_boolean(o);
	return 0;
}

/* A plain JSON integer in [min, max]. */
int sw_pol_get_int_range(struct parser *ps, const char *path,
			 struct json_object *o, int64_t min, int64_t max,
			 int64_t *ret)
{
	int64_t v;

	if (!json_object_is_type(o, json_type_int))
		return sw_pol_type_err(ps, path, "an integer", o);
	v = json_object_get_int64(o);
	/* json-c keeps integers above INT64_MAX as uint64 */
	if (v == INT64_MAX && json_object_get_uint64(o) > (uint64_t)INT64_MAX)
		return sw_pol_perr(ps, path, "%" PRIu64 " is out of range %" PRId64
				   "..%" PRId64, json_object_get_uint64(o), min, max);
	if (v < min || v > max)
		return sw_pol_perr(ps, path, "%" PRId64 " is out of range %" PRId64
				   "..%" PRId64, v, min, max);
	*ret = v;
	return 0;
}

/* An argument value: integer, or a string expression ("O_RDWR|O_CREAT"). */
int sw_pol_get_value(struct parser *ps, const char *path,
		     struct json_object *o, uint64_t *ret)
{
	char why[256];
	const char *s;
	int r;

	if (json_object_is_type(o, json_type_int)) {
		int64_t v = json_object_get_int64(o);

		*ret = v < 0 ? (uint64_t)v : json_object_get_uint64(o);
		return 0;
	}
	if (!json_object_is_type(o, json_type_string))
		return sw_pol_type_err(ps, path,
				       "an integer or a string of constants (\"O_RDWR|O_CREAT\")",
				       o);
	r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_STRING, false, &s);
	if (r < 0)
		return r;
	if (sw_value_parse(s, ret, why, sizeof(why)) < 0)
		return sw_pol_perr(ps, path, "%s", why);
	return 0;
}

/*
 * An argument condition's "value" or "valueTwo", keys that runc reads too:
 * the OCI runtime spec makes them uint64 (specs-go LinuxSeccompArg), and
 * Go's encoding/json refuses a negative number there, so runc and Docker
 * refuse the profile ("cannot unmarshal number -1 into Go struct field
 * LinuxSeccompArg...value of type uint64").  A policy that sysward takes
 * and runc refuses would be two policies: refused the same way, with the
 * spellings both read.  A string ("-1", "AT_FDCWD") is sysward's own
 * syntax, which runc refuses as a string anyway.
 */
int sw_pol_get_oci_value(struct parser *ps, const char *path,
			 struct json_object *o, uint64_t *ret)
{
	if (json_object_is_type(o, json_type_int) &&
	    json_object_get_int64(o) < 0) {
		int64_t v = json_object_get_int64(o);

		return sw_pol_perr(ps, path,
				   "%" PRId64 " is negative, which runc and Docker refuse (the OCI profile's value is an unsigned 64-bit number): write %" PRIu64 ", the same 64 bits",
				   v, (uint64_t)v);
	}
	return sw_pol_get_value(ps, path, o, ret);
}

/* An errno: 0..4095 or a name ("EIO"). */
int sw_pol_get_errno(struct parser *ps, const char *path,
		     struct json_object *o, int *ret)
{
	int64_t v;
	int r;

	if (json_object_is_type(o, json_type_string)) {
		const char *s;
		struct sw_suggest sg;
		int e;

		r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
		if (r < 0)
			return r;
		e = sw_errno_from_name(s);
		if (e >= 0) {
			*ret = e;
			return 0;
		}
		/* Podman reads a decimal number in a string too ("38"). */
		if (*s && strspn(s, "0123456789") == strlen(s)) {
			unsigned long v = strlen(s) <= 4 ? strtoul(s, NULL, 10) : 4096;

			if (v > 4095)
				return sw_pol_perr(ps, path, "%s is out of range 0..4095", s);
			*ret = (int)v;
			return 0;
		}
		sw_suggest_init(&sg, s);
		for (int i = 1; i < 200; i++)
			sw_suggest_feed(&sg, sw_errno_name(i));
		return sw_pol_perr_unknown(ps, path, "errno name", s,
					   sw_suggest_result(&sg),
					   "use a name such as \"EPERM\" or a number 0..4095");
	}
	if (!json_object_is_type(o, json_type_int))
		return sw_pol_type_err(ps, path, "an errno name (\"EPERM\") or number",
				       o);
	r = sw_pol_get_int_range(ps, path, o, 0, 4095, &v);
	if (r < 0)
		return r;
	*ret = (int)v;
	return 0;
}

/* "EIO (5)", or "4001" for a number without a name */
static const char *errno_desc(int e, char *buf, size_t len)
{
	const char *name = sw_errno_name(e);

	if (name)
		snprintf(buf, len, "%s (%d)", name, e);
	else
		snprintf(buf, len, "%d", e);
	return buf;
}

int sw_pol_get_errno_pair(struct parser *ps, const char *path,
			  const char *name_key, struct json_object *name_o,
			  const char *ret_key, struct json_object *ret_o,
			  int *ret)
{
	char kp[PATH_LEN], a[48], b[48];
	int e_name = 0, e_ret = 0, r;

	if (name_o) {
		sw_pol_path_key(kp, path, name_key);
		r = sw_pol_get_errno(ps, kp, name_o, &e_name);
		if (r < 0)
			return r;
	}
	if (ret_o) {
		sw_pol_path_key(kp, path, ret_key);
		r = sw_pol_get_errno(ps, kp, ret_o, &e_ret);
		if (r < 0)
			return r;
	}
	/* Podman reads the name and ignores the number, runc the number
	 * alone: two that differ would mean two different policies. */
	if (name_o && ret_o && e_name != e_ret)
		return sw_pol_perr_key(ps, path, ret_key,
				   "\"%s\" is %s but \"%s\" is %s; give the same errno in both keys, or only one",
				   name_key, errno_desc(e_name, a, sizeof(a)),
				   ret_key, errno_desc(e_ret, b, sizeof(b)));
	if (name_o || ret_o)
		*ret = name_o ? e_name : e_ret;
	return 0;
}

/* Array of non-empty strings, at most max, into a NULL-ended copy. */
int sw_pol_get_strv(struct parser *ps, const char *path, struct json_object *o,
		    size_t max, size_t max_len, char ***ret, size_t *ret_n)
{
	size_t n;
	char **v;

	int r;

	r = sw_pol_get_array(ps, path, o, "an array of strings", max, "entries", &n);
	if (r < 0)
		return r;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = sw_pol_dup_string(ps, ep, json_object_array_get_idx(o, i), max_len,
				      false, &v[i]);
		if (r < 0) {
			for (size_t j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return r;
		}
	}
	*ret = v;
	if (ret_n)
		*ret_n = n;
	return 0;
}

void sw_pol_strv_free(char **v)
{
	if (!v)
		return;
	for (char **s = v; *s; s++)
		free(*s);
	free(v);
}

/* ------------------------------------------------------------------ */
/* field-descriptor tables */

static int read_field(struct parser *ps, const char *path,
		      const struct field *f, struct json_object *v, void *dst)
{
	const char *s;
	bool set = false;
	int r = -EINVAL;

	switch (f->kind) {
	case FIELD_BOOL:
		r = sw_pol_get_bool(ps, path, v, dst);
		set = r == 0 && *(bool *)dst;
		break;
	case FIELD_STRING:
		r = sw_pol_get_string(ps, path, v, f->max_len, f->allow_empty, &s);
		set = r == 0 && *s;
		break;
	case FIELD_STRDUP:
		r = sw_pol_dup_string(ps, path, v, f->max_len, f->allow_empty, dst);
		set = r == 0 && **(char **)dst;
		break;
	case FIELD_VALUE:
		r = sw_pol_get_value(ps, path, v, dst);
		break;
	case FIELD_OCI_VALUE:
		r = sw_pol_get_oci_value(ps, path, v, dst);
		break;
	case FIELD_FUNC:
		r = f->parse(ps, path, v, dst);
		break;
	}
	if (r < 0)
		return r;
	if (f->warn && set)
		return sw_pol_pwarn(ps, path, "%s", f->warn);
	return 0;
}

int sw_pol_read_fields(struct parser *ps, const char *path, struct json_object *obj,
		       const struct field *fields, size_t n, void *target)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		const struct field *f = &fields[i];
		struct json_object *v;
		char kp[PATH_LEN];
		int r;

		sw_pol_path_key(kp, path, f->key);
		if (!json_object_object_get_ex(obj, f->key, &v) ||
		    (f->null_absent && !v)) {
			if (f->missing) {
				ret = sw_pol_perr(ps, kp, "%s", f->missing);
				if (!sw_pol_go_on(ps, ret))
					return ret;
			}
			continue;
		}
		r = read_field(ps, kp, f, v, (char *)target + f->offset);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
		ret = r < 0 ? r : ret;
	}
	return ret;
}

/* ------------------------------------------------------------------ */
/* actions */

static const struct {
	const char *name;
	enum sw_action action;
} actions[] = {
	{ "SCMP_ACT_ALLOW", SW_ACT_ALLOW },
	{ "SCMP_ACT_ERRNO", SW_ACT_ERRNO },
	{ "SCMP_ACT_KILL", SW_ACT_KILL_THREAD },
	{ "SCMP_ACT_KILL_THREAD", SW_ACT_KILL_THREAD },
	{ "SCMP_ACT_KILL_PROCESS", SW_ACT_KILL_PROCESS },
	{ "SCMP_ACT_TRAP", SW_ACT_TRAP },
	{ "SCMP_ACT_LOG", SW_ACT_KLOG },
	{ "SYSWARD_ACT_SKIP", SW_ACT_SKIP },
	{ "SYSWARD_ACT_EMULATE", SW_ACT_EMULATE },
	{ "SYSWARD_ACT_REWRITE", SW_ACT_REWRITE },
	{ "SYSWARD_ACT_LOG", SW_ACT_AUDIT },
};

bool sw_action_is_extension(const char *name)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (strcmp(actions[i].name, name) == 0)
			return sw_action_needs_supervisor(actions[i].action);
	return false;
}

const char *sw_policy_warning_kind_name(enum sw_policy_warning_kind kind)
{
	switch (kind) {
	case SW_POLICY_WARN_OTHER:
		return "other";
	case SW_POLICY_WARN_SYSCALL_NEWER:
		return "syscall-newer";
	case SW_POLICY_WARN_NOT_A_PATH:
		return "not-a-path";
	case SW_POLICY_WARN_GRANT:
		return "grant";
	case SW_POLICY_WARN_ENFORCE:
		return "enforce";
	case SW_POLICY_WARN_ROUTE:
		return "route";
	}
	return NULL;
}

const char *sw_action_name(enum sw_action a)
{
	switch (a) {
	case SW_ACT_ALLOW:
		return "SCMP_ACT_ALLOW";
	case SW_ACT_ERRNO:
		return "SCMP_ACT_ERRNO";
	case SW_ACT_KILL_PROCESS:
		return "SCMP_ACT_KILL_PROCESS";
	case SW_ACT_KILL_THREAD:
		return "SCMP_ACT_KILL_THREAD";
	case SW_ACT_TRAP:
		return "SCMP_ACT_TRAP";
	case SW_ACT_KLOG:
		return "SCMP_ACT_LOG";
	case SW_ACT_SKIP:
		return "SYSWARD_ACT_SKIP";
	case SW_ACT_EMULATE:
		return "SYSWARD_ACT_EMULATE";
	case SW_ACT_REWRITE:
		return "SYSWARD_ACT_REWRITE";
	case SW_ACT_AUDIT:
		return "SYSWARD_ACT_LOG";
	}
	return "unknown";
}

int sw_pol_get_action(struct parser *ps, const char *path,
		      struct json_object *o, bool is_default,
		      enum sw_action *ret)
{
	struct sw_suggest s;
	const char *name;
	int r;

	r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &name);
	if (r < 0)
		return r;
	if (strcmp(name, "SCMP_ACT_TRACE") == 0)
		return sw_pol_perr(ps, path,
				   "SCMP_ACT_TRACE is not supported: sysward is itself the program's tracer; use SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE or SYSWARD_ACT_LOG");
	if (strcmp(name, "SCMP_ACT_NOTIFY") == 0)
		return sw_pol_perr(ps, path,
				   "SCMP_ACT_NOTIFY is not supported: sysward supervises the program itself, there is no separate listener; use SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE or SYSWARD_ACT_LOG");
	for (size_t i = 0; i < N_ELEMENTS(actions); i++) {
		if (strcmp(actions[i].name, name) != 0)
			continue;
		if (is_default && sw_action_needs_supervisor(actions[i].action))
			return sw_pol_perr(ps, path,
					   "%s cannot be the default action (the kernel filter decides the default without a stop); use an SCMP_ACT_* action and add a rule instead",
					   name);
		*ret = actions[i].action;
		return 0;
	}
	sw_suggest_init(&s, name);
	for (size_t i = 0; i < N_ELEMENTS(actions); i++)
		sw_suggest_feed(&s, actions[i].name);
	return sw_pol_perr_unknown(ps, path, "action", name, sw_suggest_result(&s),
				   "expected one of SCMP_ACT_ALLOW, SCMP_ACT_ERRNO, SCMP_ACT_KILL_PROCESS, SCMP_ACT_KILL_THREAD, SCMP_ACT_KILL, SCMP_ACT_TRAP, SCMP_ACT_LOG, SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE, SYSWARD_ACT_LOG");
}
