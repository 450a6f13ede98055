// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward check: validate policy files without running anything.  Errors
 * are printed exactly as the policy library words them ("file:line:col:"
 * or "file: json.path:"), so editors and CI can jump to them.
 *
 * A policy is loaded, then its launch is prepared with the very function
 * `sysward run` calls (sw_launch_prepare: the rules compiled for this
 * machine and kernel, the filters built by libseccomp), and nothing is
 * started.  What run would refuse here, check reports, from the same
 * code, so that the two cannot disagree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sysward/engine.h"
#include "sysward/policy.h"

#include "commands.h"

void cmd_check_help(FILE *f)
{
	fprintf(f,
"Usage: %s check [OPTIONS] FILE...\n"
"Validate sysward policy files (JSON, a superset of the OCI/Docker seccomp\n"
"profile).  Prints 'FILE: OK' and any warnings for a valid policy, or the\n"
"first problem as 'FILE:LINE:COL: message' or 'FILE: json.path: message'.\n"
"Each policy is also compiled as 'sysward run' would compile it on this\n"
"machine (nothing is run): what run would refuse here is an error.\n"
"FILE '-' is standard input (or any pipe, such as <(jq ...)).\n"
"\n"
"Options:\n"
"  -q, --quiet   print only errors (no 'FILE: OK', no warnings)\n"
"  -j, --json    print one JSON document on stdout instead: an array with,\n"
"                per FILE, {file, ok, errors, warnings}; each error has\n"
"                message, errno, line, column, path (null when unknown),\n"
"                each warning message, path and kind (\"other\",\n"
"                \"syscall-newer\", \"not-a-path\"; all of them, even with -q;\n"
"                \"grant\": what a rule on connect's unix address grants,\n"
"                printed as 'grant:' lines; \"enforce\": how a file-system\n"
"                or network rule is enforced on this kernel, printed as\n"
"                'enforce:' lines)\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 all valid, 1 some policy is invalid, 2 usage error.\n",
		sw_program_name);
}

/* One problem found in one file: the words a user sees, and where
 * (from the error object or the lint, never parsed out of the words). */
struct finding {
	char *text;		/* "file: path: message", as printed */
	char *path;		/* JSON path, NULL = none */
	unsigned int line, col;	/* 0 = unknown */
	int code;		/* errors: the errno; 0 for warnings */
	enum sw_policy_warning_kind kind;	/* warnings: what about */
};

struct report {
	const char *file;
	bool ok;
	struct finding *errors, *warnings;
	size_t n_errors, n_warnings;
};

static void report_free(struct report *rep)
{
	for (size_t i = 0; i < rep->n_errors; i++) {
		free(rep->errors[i].text);
		free(rep->errors[i].path);
	}
	for (size_t i = 0; i < rep->n_warnings; i++) {
		free(rep->warnings[i].text);
		free(rep->warnings[i].path);
	}
	free(rep->errors);
	free(rep->warnings);
}

/* Append a finding located by where (text, code and position unset). */
static int add_finding(struct finding **v, size_t *n,
		       const struct finding *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add_finding(struct finding **v, size_t *n,
		       const struct finding *where, const char *fmt, ...)
{
	struct finding f = *where, *nv;
	va_list ap;
	int r;

	f.path = where->path && *where->path ? strdup(where->path) : NULL;
	if (where->path && *where->path && !f.path)
		return -ENOMEM;
	va_start(ap, fmt);
	r = vasprintf(&f.text, fmt, ap);
	va_end(ap);
	if (r < 0) {
		free(f.path);
		return -ENOMEM;
	}
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv) {
		free(f.text);
		free(f.path);
		return -ENOMEM;
	}
	nv[(*n)++] = f;
	*v = nv;
	return 0;
}

#define add_warning(rep, where, ...) \
	add_finding(&(rep)->warnings, &(rep)->n_warnings, where, __VA_ARGS__)

/* An error, located by what the error object says. */
static int add_error(struct report *rep, const struct sw_error *err)
{
	struct finding where = {
		.path = (char *)err->path, .line = err->line, .col = err->col,
		.code = err->code,
	};

	rep->ok = false;
	return add_finding(&rep->errors, &rep->n_errors, &where, "%s",
			   err->msg[0] ? err->msg : rep->file);
}

/* A lint (policy.h: sw_policy_lint()) as a warning. */
static int on_lint(enum sw_policy_warning_kind kind, const char *path,
		   const char *msg, void *ud)
{
	struct report *rep = ud;

	return add_warning(rep, &(struct finding){ .path = (char *)path,
						   .kind = kind },
			   "%s: %s: %s", rep->file, path, msg);
}

struct overridden_ctx {
	struct report *rep;
	const struct sw_policy *p;
	int r;
};

static void on_overridden(const struct sw_overridden *o, void *ud)
{
	struct overridden_ctx *c = ud;
	const struct sw_rule *rule = &c->p->rules[o->rule];
	const char *en = strerrorname_np(o->err);
	char path[160];
	int r;

	snprintf(path, sizeof(path), "%s.names[%zu]",
		 rule->json_path ? rule->json_path : "rule", o->name);
	r = add_warning(c->rep, &(struct finding){ .path = path },
			"%s: %s: %s is refused whatever the policy "
			"(docs/security.md route %s): %s; the call fails with "
			"%s, not as this rule says%s%s%s", c->rep->file, path,
			o->syscall, o->route, o->why, en ? en : "an error",
			o->opt_in ? " (" : "", o->opt_in ? o->opt_in : "",
			o->opt_in ? " leaves it to the policy)" : "");
	if (r < 0)
		c->r = r;
}

/* A file-system or network rule as this kernel will enforce it. */
static int on_enforce(const char *path, const char *msg, void *ud)
{
	struct report *rep = ud;

	return add_warning(rep, &(struct finding){ .path = (char *)path,
						   .kind = SW_POLICY_WARN_ENFORCE },
			   "%s: %s: %s", rep->file, path, msg);
}

/* The kernel, probed once, as `sysward run` probes it. */
struct kernel {
	bool probed;
	int r;
	struct sw_kernel_support ks;
	struct sw_error err;
};

/*
 * Prepare the launch as `sysward run` does (no --cap: the program would
 * keep no capability), then drop it.  A refusal that depends only on the
 * machine (a kernel that cannot be probed; EOPNOTSUPP: no seccomp
 * filter, no Landlock, no PTRACE_SET_SYSCALL_INFO for a policy that
 * needs the supervisor) is a warning: the policy is valid, and a machine
 * that cannot run it may still check it (tests/vm/guest-unpatched.sh).
 * Any other refusal is the policy's: an error.
 */
static int compile_as_run(struct report *rep, struct kernel *k,
			  const struct sw_policy *p)
{
	struct sw_launch l = {
		.stdio = { -1, -1, -1 },
		.uid = (uid_t)-1,
		.gid = (gid_t)-1,
		.tty_fd = -1,
	};
	struct overridden_ctx oc = { rep, p, 0 };
	struct sw_prepared *pr = NULL;
	struct sw_error err = { 0 };
	int r;

	if (!k->probed) {
		k->r = sw_probe_kernel(&k->ks, &k->err);
		if (k->r < 0)
			sw_error_wrap(&k->err, "probe the kernel");
		k->probed = true;
	}
	/* Without a probe (ptrace forbidden: a CI container, Yama), run
	 * would refuse everything here; the policy is no less valid. */
	if (k->r < 0)
		return add_warning(rep, &(struct finding){ 0 },
				   "%s: sysward run would refuse it on this "
				   "machine: %s", rep->file, k->err.msg);
	r = sw_launch_prepare(&k->ks, p, &l, 0, &pr, &err);
	if (r == -EOPNOTSUPP)
		return add_warning(rep, &(struct finding){ 0 },
				   "%s: sysward run would refuse it on this "
				   "machine: %s", rep->file, err.msg);
	if (r < 0)
		return add_error(rep, &err);
	sw_prepared_overridden(pr, on_overridden, &oc);
	if (oc.r >= 0)
		oc.r = sw_prepared_enforcement(pr, on_enforce, rep);
	sw_prepared_free(pr);
	return oc.r;
}

static int check_file(struct report *rep, struct kernel *k)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r;

	if (sw_policy_load_file(rep->file, &p, &err) < 0)
		return add_error(rep, &err);
	rep->ok = true;
	/* The library's own ("file: path: message"), then ours. */
	for (size_t i = 0; i < p->n_warnings; i++) {
		struct finding where = {
			.path = p->warning_paths ? p->warning_paths[i] : NULL,
			.kind = p->warning_kinds ? p->warning_kinds[i]
						 : SW_POLICY_WARN_OTHER,
		};

		r = add_warning(rep, &where, "%s", p->warnings[i]);
		if (r < 0)
			goto out;
	}
	r = sw_policy_lint(p, on_lint, rep);
	if (r >= 0)
		r = compile_as_run(rep, k, p);
out:
	sw_policy_free(p);
	return r;
}

static void print_text(const struct report *rep, bool quiet)
{
	if (rep->ok && !quiet)
		printf("%s: OK\n", rep->file);
	/* A grant is no problem: what the rule reaches, said plainly. */
	for (size_t i = 0; !quiet && i < rep->n_warnings; i++)
		printf("%s: %s\n", rep->warnings[i].kind == SW_POLICY_WARN_GRANT
		       ? "grant" : rep->warnings[i].kind == SW_POLICY_WARN_ENFORCE
		       ? "enforce" : "warning", rep->warnings[i].text);
	for (size_t i = 0; i < rep->n_errors; i++)
		fprintf(stderr, "%s\n", rep->errors[i].text);
}

static json_object *json_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *json_uint_or_null(unsigned int v)
{
	return v ? json_object_new_int64(v) : NULL;
}

static json_object *json_findings(const struct finding *v, size_t n,
				  bool errors)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		const char *en = v[i].code ? strerrorname_np(v[i].code) : NULL;

		json_object_object_add(o, "message",
				       json_object_new_string(v[i].text));
		if (errors) {
			json_object_object_add(o, "errno", json_str_or_null(en));
			json_object_object_add(o, "line",
					       json_uint_or_null(v[i].line));
			json_object_object_add(o, "column",
					       json_uint_or_null(v[i].col));
		}
		json_object_object_add(o, "path", json_str_or_null(v[i].path));
		if (!errors)
			json_object_object_add(o, "kind", json_str_or_null(
				sw_policy_warning_kind_name(v[i].kind)));
		json_object_array_add(a, o);
	}
	return a;
}

static void add_json(json_object *all, const struct report *rep)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(rep->file));
	json_object_object_add(o, "ok", json_object_new_boolean(rep->ok));
	json_object_object_add(o, "errors",
			       json_findings(rep->errors, rep->n_errors, true));
	json_object_object_add(o, "warnings",
			       json_findings(rep->warnings, rep->n_warnings,
					     false));
	json_object_array_add(all, o);
}

int cmd_check(int argc, char **argv)
{
	static const struct option options[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct kernel k = { 0 };
	json_object *all = NULL;
	bool quiet = false, json = false;
	int opt, rc = SW_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "qjh", options, NULL)) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			cmd_check_help(stdout);
			return SW_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s check --help'.\n",
				sw_program_name);
			return SW_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return sw_cli_usage("check", "missing policy FILE to check");
	if (json)
		all = json_object_new_array();

	for (int i = optind; i < argc; i++) {
		struct report rep = { .file = argv[i] };

		if (check_file(&rep, &k) < 0) {
			sw_cli_error("check %s: out of memory", argv[i]);
			rep.ok = false;
		}
		if (!rep.ok)
			rc = SW_EXIT_FAIL;
		if (json)
			add_json(all, &rep);
		else
			print_text(&rep, quiet);
		fflush(stdout);
		report_free(&rep);
	}
	if (json) {
		printf("%s\n", json_object_to_json_string_ext(all,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(all);
	}
	return rc;
}
