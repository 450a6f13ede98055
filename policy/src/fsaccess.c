// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The "filesystem" and "network" sections (sysward extensions; an OCI
 * runtime ignores them as it ignores every key it does not know): which
 * hierarchies the program gets with which rights, and the TCP ports it
 * may bind and connect to.  The engine has the kernel enforce them
 * (Landlock: engine/contain/fsrules.c) on the file found and the port asked for.
 *
 * The one table of the words a policy names rights with (rights[]): each
 * of the kernel's rights by its own name, groups of them in words an
 * author thinks in ("write": write-file and truncate), and the named sets
 * bubblewrap's and mount's users know ("ro", "rw"); and of the Landlock
 * ABI that brought each right (Documentation/userspace-api/landlock.rst:
 * REFER 2, TRUNCATE 3, IOCTL_DEV 5; TCP ports 4), which the engine's
 * best effort and `sysward check` read.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum word_kind { W_SET, W_GROUP, W_RIGHT };

static const struct {
	const char *name;
	uint64_t bits;
	enum word_kind kind;
	int abi;		/* W_RIGHT: the Landlock ABI that brought it */
} words[] = {
	/* named sets */
	{ "none", 0, W_SET, 0 },
	{ "ro", SW_FS_READ_FILE | SW_FS_READ_DIR | SW_FS_EXECUTE, W_SET, 0 },
	{ "rw", SW_FS_ALL, W_SET, 0 },
	/* groups */
	{ "read", SW_FS_READ_FILE | SW_FS_READ_DIR, W_GROUP, 0 },
	{ "write", SW_FS_WRITE_FILE | SW_FS_TRUNCATE, W_GROUP, 0 },
	{ "create", SW_FS_MAKE_REG | SW_FS_MAKE_DIR | SW_FS_MAKE_SYM |
		    SW_FS_MAKE_FIFO | SW_FS_MAKE_SOCK, W_GROUP, 0 },
	{ "remove", SW_FS_REMOVE_FILE | SW_FS_REMOVE_DIR, W_GROUP, 0 },
	{ "move", SW_FS_REFER, W_GROUP, 0 },
	{ "ioctl", SW_FS_IOCTL_DEV, W_GROUP, 0 },
	{ "devices", SW_FS_MAKE_CHAR | SW_FS_MAKE_BLOCK, W_GROUP, 0 },
	/* the kernel's rights, in its order */
	{ "execute", SW_FS_EXECUTE, W_RIGHT, 1 },
	{ "write-file", SW_FS_WRITE_FILE, W_RIGHT, 1 },
	{ "read-file", SW_FS_READ_FILE, W_RIGHT, 1 },
	{ "read-dir", SW_FS_READ_DIR, W_RIGHT, 1 },
	{ "remove-dir", SW_FS_REMOVE_DIR, W_RIGHT, 1 },
	{ "remove-file", SW_FS_REMOVE_FILE, W_RIGHT, 1 },
	{ "make-char", SW_FS_MAKE_CHAR, W_RIGHT, 1 },
	{ "make-dir", SW_FS_MAKE_DIR, W_RIGHT, 1 },
	{ "make-reg", SW_FS_MAKE_REG, W_RIGHT, 1 },
	{ "make-sock", SW_FS_MAKE_SOCK, W_RIGHT, 1 },
	{ "make-fifo", SW_FS_MAKE_FIFO, W_RIGHT, 1 },
	{ "make-block", SW_FS_MAKE_BLOCK, W_RIGHT, 1 },
	{ "make-sym", SW_FS_MAKE_SYM, W_RIGHT, 1 },
	{ "refer", SW_FS_REFER, W_RIGHT, 2 },
	{ "truncate", SW_FS_TRUNCATE, W_RIGHT, 3 },
	{ "ioctl-dev", SW_FS_IOCTL_DEV, W_RIGHT, 5 },
};

/* The variables a path may start with, in enum sw_fs_base order. */
static const char *const bases[] = {
	[SW_FS_BASE_CWD] = "CWD",
	[SW_FS_BASE_HOME] = "HOME",
	[SW_FS_BASE_TMPDIR] = "TMPDIR",
};

/* Limits on what an author controls. */
#define MAX_FS_RULES	256	/* hierarchies of one policy */
#define MAX_WORDS	32	/* words of one "access" */
#define MAX_RANGES	256	/* port entries of one list */
#define MAX_PORTS	SW_LIMIT_PORTS	/* ports of one list, ranges
					 * expanded (one kernel rule each) */

const char *sw_fs_right_name(uint64_t right)
{
	for (size_t i = 0; i < N_ELEMENTS(words); i++)
		if (words[i].kind == W_RIGHT && words[i].bits == right)
			return words[i].name;
	return NULL;
}

int sw_fs_right_abi(uint64_t right)
{
	for (size_t i = 0; i < N_ELEMENTS(words); i++)
		if (words[i].kind == W_RIGHT && words[i].bits == right)
			return words[i].abi;
	return 0;
}

uint64_t sw_fs_rights_of_abi(int abi)
{
	uint64_t m = 0;

	for (size_t i = 0; i < N_ELEMENTS(words); i++)
		if (words[i].kind == W_RIGHT && words[i].abi <= abi)
			m |= words[i].bits;
	return abi >= 1 ? m : 0;
}

/* The rights of access, by name, into buf at *used. */
static void rights_list(uint64_t access, char *buf, size_t len, size_t *used)
{
	bool first = true;

	for (size_t i = 0; i < N_ELEMENTS(words); i++) {
		int n;

		if (words[i].kind != W_RIGHT || !(access & words[i].bits))
			continue;
		n = snprintf(buf + *used, len - *used, "%s%s", first ? "" : ", ",
			     words[i].name);
		first = false;
		if (n < 0 || (size_t)n >= len - *used) {
			*used = len - 1;
			return;
		}
		*used += (size_t)n;
	}
}

void sw_fs_access_describe(uint64_t access, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!access) {
		snprintf(buf, len, "none");
		return;
	}
	for (size_t i = 0; i < N_ELEMENTS(words); i++) {
		int n;

		if (words[i].kind != W_SET || words[i].bits != access)
			continue;
		n = snprintf(buf, len, "%s: ", words[i].name);
		used = n > 0 && (size_t)n < len ? (size_t)n : len - 1;
		break;
	}
	rights_list(access, buf, len, &used);
}

bool sw_policy_key_is_extension(const char *key)
{
	return !strcmp(key, "filesystem") || !strcmp(key, "network");
}

/* ------------------------------------------------------------------ */
/* "filesystem" */

/* One word of "access" (at kp) into *bits. */
static int access_word(struct parser *ps, const char *kp, struct json_object *o,
		       uint64_t *bits)
{
	struct sw_suggest s;
	const char *w;
	int r;

	r = sw_pol_get_string(ps, kp, o, SW_POLICY_MAX_NAME_LEN, false, &w);
	if (r < 0)
		return r;
	sw_suggest_init(&s, w);
	for (size_t i = 0; i < N_ELEMENTS(words); i++) {
		if (!strcmp(words[i].name, w)) {
			*bits |= words[i].bits;
			return 0;
		}
		sw_suggest_feed(&s, words[i].name);
	}
	return sw_pol_perr_unknown(ps, kp, "access", w, sw_suggest_result(&s),
				   "expected \"none\", \"ro\", \"rw\", or words: read, write, execute, create, remove, move, ioctl, devices, or the kernel's rights: read-file, read-dir, write-file, truncate, make-reg, make-dir, make-sym, make-fifo, make-sock, make-char, make-block, remove-file, remove-dir, refer, ioctl-dev");
}

/* "access": a word, or an array of words (their union). */
static int parse_access(struct parser *ps, const char *path,
			struct json_object *o, void *dst)
{
	uint64_t *bits = dst;
	size_t n;
	int r;

	*bits = 0;
	if (json_object_is_type(o, json_type_string))
		return access_word(ps, path, o, bits);
	if (!json_object_is_type(o, json_type_array))
		return sw_pol_type_err(ps, path,
				       "a word (\"ro\", \"rw\", \"none\", \"read\", ...) or an array of words",
				       o);
	r = sw_pol_get_array(ps, path, o, "an array of words", MAX_WORDS, "words", &n);
	if (r < 0)
		return r;
	if (n == 0)
		return sw_pol_perr(ps, path,
				   "empty: write \"none\" for a hierarchy the program gets nothing of");
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = access_word(ps, ep, json_object_array_get_idx(o, i), bits);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The path's variable, "${NAME}" at its start: its base, and the length
 * of "${NAME}" in *ret_len; SW_FS_BASE_ROOT (0) for an absolute path. */
static int path_base(struct parser *ps, const char *kp, const char *s,
		     enum sw_fs_base *ret, size_t *ret_len)
{
	const char *end;
	struct sw_suggest sg;
	char name[SW_POLICY_MAX_NAME_LEN + 1];

	if (s[0] == '/') {
		*ret = SW_FS_BASE_ROOT;
		*ret_len = 0;
		return 0;
	}
	if (s[0] == '~')
		return sw_pol_perr(ps, kp,
				   "\"~\" is not expanded here: write \"${HOME}%s\"",
				   s[1] == '/' ? s + 1 : "");
	if (s[0] != '$')
		return sw_pol_perr(ps, kp,
				   "\"%.64s\" is relative: a path is absolute (\"/...\") or starts with ${CWD}, ${HOME} or ${TMPDIR} (\"${CWD}/%.64s\": the program's working directory)",
				   s, s);
	end = strchr(s, '}');
	if (s[1] != '{' || !end)
		return sw_pol_perr(ps, kp,
				   "a variable is written \"${NAME}\": one of ${CWD}, ${HOME}, ${TMPDIR}");
	if ((size_t)(end - s - 2) >= sizeof(name))
		return sw_pol_perr(ps, kp,
				   "unknown variable (expected ${CWD}, ${HOME} or ${TMPDIR})");
	memcpy(name, s + 2, (size_t)(end - s - 2));
	name[end - s - 2] = '\0';
	sw_suggest_init(&sg, name);
	for (int b = SW_FS_BASE_CWD; b <= SW_FS_BASE_TMPDIR; b++) {
		if (!strcmp(bases[b], name)) {
			if (end[1] != '\0' && end[1] != '/')
				return sw_pol_perr(ps, kp,
						   "${%s} must be followed by \"/\" or end the path",
						   name);
			*ret = (enum sw_fs_base)b;
			*ret_len = (size_t)(end - s) + 1;
			return 0;
		}
		sw_suggest_feed(&sg, bases[b]);
	}
	/* ${PWD} is the shell's name for it */
	if (!strcmp(name, "PWD"))
		return sw_pol_perr(ps, kp,
				   "unknown variable ${PWD} (did you mean ${CWD}?)");
	if (sw_suggest_result(&sg))
		return sw_pol_perr(ps, kp,
				   "unknown variable ${%s} (did you mean ${%s}?)", name,
				   sw_suggest_result(&sg));
	return sw_pol_perr(ps, kp,
			   "unknown variable ${%s} (expected ${CWD}, ${HOME} or ${TMPDIR})",
			   name);
}

/* "${" among the n bytes at p. */
static bool has_variable(const char *p, size_t n)
{
	for (size_t k = 0; k + 1 < n; k++)
		if (p[k] == '$' && p[k + 1] == '{')
			return true;
	return false;
}

/*
 * "path": a path as the kernel will look it up at launch, written so
 * that two rules can be compared as strings: absolute or after a
 * variable, without "." or ".." (a rule is on the file the path names
 * when the program starts: ".." after a symbolic link is not the
 * parent a reader sees), "//" and a trailing "/" dropped.
 */
static int parse_path(struct parser *ps, const char *path, struct json_object *o,
		      void *dst)
{
	struct sw_fs_rule *fr = dst;
	enum sw_fs_base base = SW_FS_BASE_ROOT;
	const char *s, *p;
	size_t vlen = 0, out = 0;
	char *norm;
	int r;

	r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_STRING - 1, false, &s);
	if (r < 0)
		return r;
	r = path_base(ps, path, s, &base, &vlen);
	if (r < 0)
		return r;
	norm = malloc(strlen(s) + 2);
	if (!norm)
		return sw_pol_oom(ps);
	memcpy(norm, s, vlen);
	out = vlen;
	for (p = s + vlen; *p;) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			free(norm);
			return sw_pol_perr(ps, path,
					   "\"%.*s\" in \"%.64s\": name the directory itself (a rule holds for the file the path names when the program starts)",
					   (int)n, p, s);
		}
		if (has_variable(p, n)) {
			free(norm);
			return sw_pol_perr(ps, path,
					   "a variable may only start the path (\"%.64s\")", s);
		}
		norm[out++] = '/';
		memcpy(norm + out, p, n);
		out += n;
		p += n;
	}
	if (out == 0)
		norm[out++] = '/';
	norm[out] = '\0';
	fr->path = norm;
	fr->base = base;
	fr->rest = norm + (base == SW_FS_BASE_ROOT ? 0 : vlen);
	return 0;
}

static const struct field fs_rule_fields[] = {
	{ .key = "path", .kind = FIELD_FUNC,
	  .missing = "missing (the hierarchy: \"/usr\", \"${CWD}\", \"${HOME}/.ssh\", ...)",
	  .parse = parse_path },
	{ .key = "access", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_fs_rule, access),
	  .missing = "missing (what the program gets there: \"ro\", \"rw\", \"none\", or words such as [\"read\", \"write\"])",
	  .parse = parse_access },
	{ .key = "optional", .kind = FIELD_BOOL,
	  .offset = offsetof(struct sw_fs_rule, optional) },
	{ .key = "comment", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
};

static int parse_fs_rule(struct parser *ps, const char *ep, struct json_object *o,
			 size_t i)
{
	static const char *const keys[] = { "path", "access", "optional", "comment",
					    NULL };
	struct sw_policy *p = ps->p;
	struct sw_fs_rule *fr = &p->fs_rules[i];
	int r;

	fr->json_path = strdup(ep);
	if (!fr->json_path)
		return sw_pol_oom(ps);
	r = sw_pol_check_object(ps, ep, o, keys);
	if (r < 0)
		return r;
	r = sw_pol_read_fields(ps, ep, o, fs_rule_fields, N_ELEMENTS(fs_rule_fields), fr);
	if (r < 0)
		return r;
	for (size_t j = 0; j < i; j++)
		if (p->fs_rules[j].path &&	/* NULL: an entry in error */
		    !strcmp(p->fs_rules[j].path, fr->path)) {
			char kp[PATH_LEN];

			sw_pol_path_key(kp, ep, "path");
			return sw_pol_perr(ps, kp,
					   "%s is named by %s too: give each hierarchy one entry",
					   fr->path, p->fs_rules[j].json_path);
		}
	return 0;
}

/* "filesystem.paths" */
static int parse_fs_paths(struct parser *ps, const char *path,
			  struct json_object *o, void *dst)
{
	struct sw_policy *p = ps->p;
	size_t n;
	int r;

	(void)dst;
	r = sw_pol_get_array(ps, path, o, "an array of {\"path\", \"access\"}",
			     MAX_FS_RULES, "entries", &n);
	if (r < 0)
		return r;
	p->fs_rules = calloc(n ? n : 1, sizeof(*p->fs_rules));
	if (!p->fs_rules)
		return sw_pol_oom(ps);
	for (size_t i = 0, errors = 0; i < n; i++) {
		char ep[PATH_LEN];

		/* counted first: sw_policy_free frees a half-parsed entry */
		p->n_fs_rules++;
		sw_pol_path_index(ep, path, i);
		r = parse_fs_rule(ps, ep, json_object_array_get_idx(o, i), i);
		if (r < 0 && !sw_pol_go_on(ps, r))
			return r;
		/* every wrong entry, as every wrong rule of "syscalls" */
		if (r < 0)
			errors++;
		if (errors && i == n - 1)
			return -EINVAL;
	}
	return 0;
}

static const struct field fs_fields[] = {
	{ .key = "paths", .kind = FIELD_FUNC, .null_absent = true,
	  .parse = parse_fs_paths },
	{ .key = "strict", .kind = FIELD_BOOL,
	  .offset = offsetof(struct sw_policy, fs_strict) },
	{ .key = "comment", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
};

int sw_pol_parse_filesystem(struct parser *ps, struct json_object *o)
{
	static const char *const keys[] = { "paths", "strict", "comment", NULL };
	int r;

	r = sw_pol_check_object(ps, "filesystem", o, keys);
	if (r < 0)
		return r;
	ps->p->has_filesystem = true;
	return sw_pol_read_fields(ps, "filesystem", o, fs_fields,
				  N_ELEMENTS(fs_fields), ps->p);
}

/* ------------------------------------------------------------------ */
/* "network" */

/* A port: an integer 0..65535, or "FIRST-LAST". */
static int parse_port(struct parser *ps, const char *ep, struct json_object *o,
		      struct sw_port_range *ret)
{
	unsigned long a, b;
	const char *s;
	char *end;
	int64_t v;
	int r;

	if (json_object_is_type(o, json_type_int)) {
		r = sw_pol_get_int_range(ps, ep, o, 0, 65535, &v);
		if (r < 0)
			return r;
		ret->first = ret->last = (uint16_t)v;
		return 0;
	}
	if (!json_object_is_type(o, json_type_string))
		return sw_pol_type_err(ps, ep, "a port (0..65535) or a range \"FIRST-LAST\"", o);
	r = sw_pol_get_string(ps, ep, o, SW_POLICY_MAX_NAME_LEN, false, &s);
	if (r < 0)
		return r;
	if (s[0] < '0' || s[0] > '9')
		goto bad;
	a = strtoul(s, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		goto bad;
	b = strtoul(end + 1, &end, 10);
	if (*end)
		goto bad;
	if (a > 65535 || b > 65535)
		return sw_pol_perr(ps, ep, "\"%s\": a port is 0..65535", s);
	if (b < a)
		return sw_pol_perr(ps, ep, "\"%s\": the range ends before it starts", s);
	ret->first = (uint16_t)a;
	ret->last = (uint16_t)b;
	return 0;
bad:
	return sw_pol_perr(ps, ep,
			   "cannot parse \"%.64s\" (expected a port such as 443, or a range such as \"8000-8080\")",
			   s);
}

/* "bind" or "connect": "any", or an array of ports and ranges. */
static int parse_ports(struct parser *ps, const char *path, struct json_object *o,
		       void *dst)
{
	struct sw_tcp_ports *tp = dst;
	size_t n;
	int r;

	if (json_object_is_type(o, json_type_string)) {
		const char *s;

		r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
		if (r < 0)
			return r;
		if (strcmp(s, "any"))
			return sw_pol_perr(ps, path,
					   "expected \"any\" (not restricted) or an array of ports, got \"%.64s\"",
					   s);
		tp->any = true;
		return 0;
	}
	r = sw_pol_get_array(ps, path, o, "an array of ports, or \"any\"", MAX_RANGES,
			     "entries", &n);
	if (r < 0)
		return r;
	tp->ranges = calloc(n ? n : 1, sizeof(*tp->ranges));
	if (!tp->ranges)
		return sw_pol_oom(ps);
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];

		sw_pol_path_index(ep, path, i);
		r = parse_port(ps, ep, json_object_array_get_idx(o, i), &tp->ranges[i]);
		if (r < 0)
			return r;
		tp->n_ranges++;
		tp->n_ports += (size_t)tp->ranges[i].last - tp->ranges[i].first + 1;
		if (tp->n_ports > MAX_PORTS)
			return sw_pol_perr(ps, path,
					   "more than %d ports (the kernel takes a rule per port): write \"any\" if the program may use every port",
					   MAX_PORTS);
	}
	return 0;
}

static const struct field tcp_fields[] = {
	{ .key = "bind", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_policy, tcp_bind), .parse = parse_ports },
	{ .key = "connect", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_policy, tcp_connect), .parse = parse_ports },
};

static int parse_tcp(struct parser *ps, const char *path, struct json_object *o,
		     void *dst)
{
	static const char *const keys[] = { "bind", "connect", NULL };
	int r;

	(void)dst;
	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;
	return sw_pol_read_fields(ps, path, o, tcp_fields, N_ELEMENTS(tcp_fields), ps->p);
}

static const struct field net_fields[] = {
	{ .key = "tcp", .kind = FIELD_FUNC, .parse = parse_tcp },
	{ .key = "strict", .kind = FIELD_BOOL,
	  .offset = offsetof(struct sw_policy, net_strict) },
	{ .key = "comment", .kind = FIELD_STRING,
	  .max_len = SW_POLICY_MAX_STRING, .allow_empty = true },
};

int sw_pol_parse_network(struct parser *ps, struct json_object *o)
{
	static const char *const keys[] = { "tcp", "strict", "comment", NULL };
	int r;

	r = sw_pol_check_object(ps, "network", o, keys);
	if (r < 0)
		return r;
	ps->p->has_network = true;
	return sw_pol_read_fields(ps, "network", o, net_fields, N_ELEMENTS(net_fields),
				  ps->p);
}

void sw_pol_fs_free(struct sw_policy *p)
{
	for (size_t i = 0; i < p->n_fs_rules; i++) {
		free(p->fs_rules[i].path);
		free(p->fs_rules[i].json_path);
	}
	free(p->fs_rules);
	free(p->tcp_bind.ranges);
	free(p->tcp_connect.ranges);
}
