/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the policy parser's files; not part of the API. */
#ifndef SW_POLICY_INTERNAL_H
#define SW_POLICY_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skim.h"
#include "sysward/limits.h"
#include "sysward/policy.h"

/* ---- limits on everything a policy author controls ---- */
#define SW_POLICY_MAX_FILE	SW_LIMIT_POLICY_BYTES	/* bytes of JSON */
#define SW_POLICY_MAX_DEPTH	16		/* JSON nesting */
#define SW_POLICY_MAX_RULES	SW_LIMIT_RULES
#define SW_POLICY_MAX_NAMES	1024		/* names per rule */
#define SW_POLICY_MAX_NAME_LEN	64		/* syscall, constant names */
#define SW_POLICY_MAX_ARGS	6		/* args, paths, rewrites */
#define SW_POLICY_MAX_ARCHES	32
#define SW_POLICY_MAX_CAPS	64
#define SW_POLICY_MAX_STRING	4096		/* patterns, comments, values */
#define SW_POLICY_MAX_WARNINGS	64
#define SW_POLICY_MAX_UNKNOWN	256		/* dropped unknown names */

/* ---- suggestions ("did you mean ...?") ---- */
struct sw_suggest {
	const char *word;
	const char *best;
	size_t best_dist;
};
void sw_suggest_init(struct sw_suggest *s, const char *word);
void sw_suggest_feed(struct sw_suggest *s, const char *candidate);
/* The closest candidate if it is close enough to be a likely typo. */
const char *sw_suggest_result(const struct sw_suggest *s);

/* ---- constants and value expressions (values.c) ---- */
/*
 * Parse "O_WRONLY|O_CREAT", "~O_CREAT", "0x40", "0644", "-100".  On failure
 * return -EINVAL and write the reason (without path) into why.
 */
int sw_value_parse(const char *s, uint64_t *ret, char *why, size_t why_len);
/* errno by name ("EIO") or -1. */
int sw_errno_from_name(const char *name);
/* "EIO" for 5, NULL if unknown. */
const char *sw_errno_name(int e);

/* ---- architectures and system calls (syscalls.c) ---- */
struct sw_arch_info {
	const char *scmp_name;	/* "SCMP_ARCH_X86_64" */
	uint32_t token;		/* 0 if this libseccomp lacks it */
	const char *oci;	/* "amd64", for includes.arches */
	const char *oci_alt;	/* another spelling Docker uses, or NULL */
};
const struct sw_arch_info *sw_arch_by_scmp_name(const char *name);
const struct sw_arch_info *sw_arch_by_token(uint32_t token);
bool sw_oci_arch_known(const char *name);
void sw_arch_suggest_scmp(struct sw_suggest *s);
void sw_arch_suggest_oci(struct sw_suggest *s);
/* "SCMP_ARCH_X86, SCMP_ARCH_X86_64, ..." for messages. */
void sw_arch_list_scmp(char *buf, size_t len);

enum sw_syscall_status {
	SW_SYSCALL_UNKNOWN,		/* not a syscall we know of */
	SW_SYSCALL_NEWER,		/* a Linux syscall this libseccomp lacks */
	SW_SYSCALL_OTHER_ARCH,		/* libseccomp knows it, not on these arches */
	SW_SYSCALL_OK,			/* exists on one of the arches */
};
enum sw_syscall_status sw_syscall_status(const char *name,
					 const uint32_t *arches, size_t n);

/* The closest known syscall name if it looks like a typo of name. */
const char *sw_syscall_suggest(const char *name);

/* ---- the parser's state and value helpers (json.c) ---- */
struct json_object;

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))
#define PATH_LEN 160

struct parser {
	const char *source;
	const char *text;
	size_t len;
	struct sw_error *err;
	struct sw_policy *p;
	struct sw_skim skim;
	size_t dropped_warnings;
	size_t dropped_other;	/* of those, not SW_POLICY_WARN_SYSCALL_NEWER */
	size_t n_unknown;	/* names dropped so far */
	uint32_t check_arches[SW_POLICY_MAX_ARCHES + 2];
	size_t n_check_arches;
	struct sw_json_lines lines;	/* built at the first diagnostic */
	struct sw_policy_load_opts *opts;	/* NULL: stop at the first error */
	size_t n_errors;
};

/* After r from one part of the policy (a rule, a name, a top-level key):
 * true if the parse goes on with the next part, which it does for an
 * error of meaning when the caller collects every error. */
static inline bool sw_pol_go_on(const struct parser *ps, int r)
{
	return r == -EINVAL && ps->opts && ps->opts->errors;
}

/* The offset of path's value (or key) in the policy text, from the
 * skim's rule starts (locate.c). */
size_t sw_pol_find(const char *text, size_t len, const struct sw_skim *skim,
		   const char *path, bool key);

/* The error e of the policy: the first into ps->err, and into the
 * caller's list (sw_policy_load_opts); returns -e->code. */
int sw_pol_record(struct parser *ps, const struct sw_error *e);
/* "file:line:col: path: msg" into ps->err, the position of path's value;
 * returns -EINVAL. */
int sw_pol_perr(struct parser *ps, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same about key of the object at path: located at the key. */
int sw_pol_perr_key(struct parser *ps, const char *path, const char *key,
		    const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Adds a warning to the policy (at most SW_POLICY_MAX_WARNINGS), of kind
 * SW_POLICY_WARN_OTHER, or of the kind given. */
int sw_pol_pwarn(struct parser *ps, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sw_pol_pwarn_kind(struct parser *ps, enum sw_policy_warning_kind kind,
		      const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int sw_pol_oom(struct parser *ps);
const char *sw_pol_type_desc(struct json_object *o);
int sw_pol_type_err(struct parser *ps, const char *path, const char *want,
		    struct json_object *o);
/* buf (PATH_LEN bytes) = parent.key, or parent[i]. */
void sw_pol_path_key(char *buf, const char *parent, const char *key);
void sw_pol_path_index(char *buf, const char *parent, size_t i);

/* "unknown what "name" (did you mean "hint"?)", or "(otherwise)" if there
 * is no hint, or nothing more if otherwise is NULL too. */
int sw_pol_perr_unknown(struct parser *ps, const char *path, const char *what,
			const char *name, const char *hint, const char *otherwise);
/* The length of an array of at most max entries (want: what o should be,
 * for the type error).  entries names them in "N entries, at most M are
 * allowed"; NULL says "more than M entries". */
int sw_pol_get_array(struct parser *ps, const char *path, struct json_object *o,
		     const char *want, size_t max, const char *entries, size_t *n);
/* Every key of obj is one of the NULL-ended known, or an error. */
int sw_pol_check_keys(struct parser *ps, const char *path, struct json_object *obj,
		      const char *const *known);
/* o is an object (or a type error) and sw_pol_check_keys holds. */
int sw_pol_check_object(struct parser *ps, const char *path, struct json_object *o,
			const char *const *known);
int sw_pol_get_string(struct parser *ps, const char *path, struct json_object *o,
		      size_t max, bool allow_empty, const char **ret);
int sw_pol_dup_string(struct parser *ps, const char *path, struct json_object *o,
		      size_t max, bool allow_empty, char **ret);
int sw_pol_get_bool(struct parser *ps, const char *path, struct json_object *o,
		    bool *ret);
int sw_pol_get_int_range(struct parser *ps, const char *path, struct json_object *o,
			 int64_t min, int64_t max, int64_t *ret);
int sw_pol_get_value(struct parser *ps, const char *path, struct json_object *o,
		     uint64_t *ret);
/* sw_pol_get_value() without the negative integers runc refuses. */
int sw_pol_get_oci_value(struct parser *ps, const char *path,
			 struct json_object *o, uint64_t *ret);
int sw_pol_get_errno(struct parser *ps, const char *path, struct json_object *o,
		     int *ret);
/*
 * One errno that a profile may give twice, as Podman writes it: "errno"
 * (a name) beside "errnoRet" (a number), "defaultErrno" beside
 * "defaultErrnoRet".  Either or both (NULL: absent); both must say the
 * same errno.  *ret is left alone when both are absent.
 */
int sw_pol_get_errno_pair(struct parser *ps, const char *path,
			  const char *name_key, struct json_object *name_o,
			  const char *ret_key, struct json_object *ret_o,
			  int *ret);
int sw_pol_get_strv(struct parser *ps, const char *path, struct json_object *o,
		    size_t max, size_t max_len, char ***ret, size_t *ret_n);
void sw_pol_strv_free(char **v);
int sw_pol_get_action(struct parser *ps, const char *path, struct json_object *o,
		      bool is_default, enum sw_action *ret);

/*
 * Field-descriptor tables: the keys of one object that are read the same
 * way, each described once.  sw_pol_read_fields() reads them in table order, so
 * the order of a table is the order in which problems are reported.
 */
enum field_kind {
	FIELD_BOOL,	/* bool at offset */
	FIELD_STRING,	/* a string that is checked, not kept */
	FIELD_STRDUP,	/* char * at offset: a copy of the string */
	FIELD_VALUE,	/* uint64_t at offset: sw_pol_get_value() */
	FIELD_OCI_VALUE,	/* the same, for a key runc reads too:
				 * sw_pol_get_oci_value() */
	FIELD_FUNC,	/* parse(ps, path, value, target + offset) */
};

struct field {
	const char *key;
	enum field_kind kind;
	size_t offset;
	const char *missing;	/* if set the key is required: the message */
	bool null_absent;	/* JSON null counts as absent (Docker writes it) */
	size_t max_len;		/* FIELD_STRING, FIELD_STRDUP */
	bool allow_empty;	/* FIELD_STRING, FIELD_STRDUP */
	const char *warn;	/* a warning if the value is true or non-empty */
	int (*parse)(struct parser *ps, const char *path, struct json_object *o,
		     void *dst);
};

int sw_pol_read_fields(struct parser *ps, const char *path, struct json_object *obj,
		       const struct field *fields, size_t n, void *target);

/* ---- rules (rule.c) and their includes/excludes (gate.c) ---- */
/* syscalls[idx] into rule; on error rule is left for sw_policy_free. */
int sw_pol_parse_rule(struct parser *ps, size_t idx, struct json_object *o,
		      struct sw_rule *rule);
/* The "filesystem" and "network" sections (fsaccess.c), into ps->p;
 * sw_pol_fs_free() frees what they hold. */
int sw_pol_parse_filesystem(struct parser *ps, struct json_object *o);
int sw_pol_parse_network(struct parser *ps, struct json_object *o);
void sw_pol_fs_free(struct sw_policy *p);

/* dst: the struct sw_gate; a field-table parse function */
int sw_pol_parse_gate(struct parser *ps, const char *path, struct json_object *o,
		      void *dst);

#endif
