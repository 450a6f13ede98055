// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward check: validate policy files without running anything.  Errors
 * are printed exactly as the policy library words them, every one
 * ("file:line:col:" and, for meaning, "json.path:"), so editors and CI
 * can jump to them; our own findings are located the same way.
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

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"

#include "commands.h"

/* The errors of one policy shown; more are counted. */
#define CHECK_MAX_ERRORS 50

void cmd_check_help(FILE *f)
{
	fprintf(f,
"Usage: %s check [OPTIONS] FILE...\n"
"Validate sysward policy files (JSON, a superset of the OCI/Docker seccomp\n"
"profile).  Prints 'FILE: OK' and any warnings for a valid policy, or its\n"
"problems (every one, up to %d), each as 'FILE:LINE:COL: json.path: message',\n"
"in the order of the text.  Each policy is also compiled as 'sysward run'\n"
"would compile it on this machine (nothing is run): what run would refuse\n"
"here is an error.  FILE '-' is standard input (or any pipe, such as\n"
"<(jq ...)).\n"
"\n"
"Options:\n"
"  -q, --quiet   print only errors (no 'FILE: OK', no warnings)\n"
"  -s, --strict  a policy with a warning fails too (for CI jobs); 'grant:',\n"
"                'enforce:' and 'route:' lines, calls the installed\n"
"                libseccomp does not know yet and what only this machine\n"
"                cannot run do not count\n"
"  -r, --routes  also print, for each rule, what answers its calls on this\n"
"                machine ('route:' lines): the kernel's filter alone, the\n"
"                seccomp listener, or a ptrace stop and why\n"
"  -j, --json    print one JSON document on stdout instead: an array with,\n"
"                per FILE, {file, ok, errors, more_errors, warnings}; each\n"
"                error has message, errno, line, column, path (null when\n"
"                unknown), each warning message, line, column, path and\n"
"                kind (\"other\", \"syscall-newer\", \"not-a-path\"; all of\n"
"                them, even with -q; \"grant\": what a rule on connect's\n"
"                unix address grants, printed as 'grant:' lines;\n"
"                \"enforce\": how a file-system or network rule is\n"
"                enforced on this kernel, printed as 'enforce:' lines;\n"
"                with --routes, \"route\": 'route:' lines); ok\n"
"                is false for a policy that fails (with --strict, warnings)\n"
"      --policy-max-bytes BYTES\n"
"                read policies up to BYTES (a K or M suffix: KiB, MiB; at\n"
"                most 64M) instead of 1M; SYSWARD_POLICY_MAX_BYTES in the\n"
"                environment does the same\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 every policy is valid (with --strict: and has no warning),\n"
"1 some policy is invalid (with --strict: or has a warning), 2 usage error.\n",
		sw_program_name, CHECK_MAX_ERRORS);
}

/* One problem found in one file: the words a user sees, and where
 * (from the error object or the lint, never parsed out of the words). */
struct finding {
	char *text;		/* "file:line:col: path: message", as printed */
	char *path;		/* JSON path, NULL = none */
	unsigned int line, col;	/* 0 = unknown */
	int code;		/* errors: the errno; 0 for warnings */
	enum sw_policy_warning_kind kind;	/* warnings: what about */
	bool machine;		/* about this machine, not the policy */
	size_t seq;		/* the order found, for a stable sort */
};

struct report {
	const char *file;
	struct sw_policy_text *where;	/* the text's positions, once loaded */
	bool ok;
	struct finding *errors, *warnings;
	size_t n_errors, n_warnings;
	size_t more_errors;	/* found past CHECK_MAX_ERRORS */
};

struct check_options {
	bool quiet, json, strict, routes;
	size_t max_bytes;	/* 0: the library's */
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
	f.seq = *n;
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

/* A warning of ours about path: "file:line:col: path: msg", located in
 * the text as the library locates its own. */
static int add_warning_at(struct report *rep, enum sw_policy_warning_kind kind,
			  const char *path, const char *msg)
{
	struct finding where = { .path = (char *)path, .kind = kind };

	sw_policy_text_locate(rep->where, path, false, &where.line, &where.col);
	return add_warning(rep, &where, "%s:%u:%u: %s: %s", rep->file,
			   where.line, where.col, path, msg);
}

/* A lint (policy.h: sw_policy_lint()) as a warning. */
static int on_lint(enum sw_policy_warning_kind kind, const char *path,
		   const char *msg, void *ud)
{
	return add_warning_at(ud, kind, path, msg);
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
	char path[160], *msg = NULL;
	int r;

	snprintf(path, sizeof(path), "%s.names[%zu]",
		 rule->json_path ? rule->json_path : "rule", o->name);
	r = asprintf(&msg, "%s is refused whatever the policy "
		     "(docs/security.md route %s): %s; the call fails with "
		     "%s, not as this rule says%s%s%s",
		     o->syscall, o->route, o->why, en ? en : "an error",
		     o->opt_in ? " (" : "", o->opt_in ? o->opt_in : "",
		     o->opt_in ? " leaves it to the policy)" : "");
	if (r >= 0)
		r = add_warning_at(c->rep, SW_POLICY_WARN_OTHER, path, msg);
	else
		r = -ENOMEM;
	free(msg);
	if (r < 0)
		c->r = r;
}

/* A file-system or network rule as this kernel will enforce it, at the
 * rule's place in the text as every other line check prints. */
static int on_enforce(const char *path, const char *msg, void *ud)
{
	return add_warning_at(ud, SW_POLICY_WARN_ENFORCE, path, msg);
}

/* Which part of the machine answers a rule's calls (path: the rule's
 * JSON path), or the launch as a whole (path NULL). */
static int on_route(const char *path, const char *msg, void *ud)
{
	struct report *rep = ud;

	if (!path)
		return add_warning(rep, &(struct finding){ .kind = SW_POLICY_WARN_ROUTE },
				   "%s: %s", rep->file, msg);
	return add_warning_at(rep, SW_POLICY_WARN_ROUTE, path, msg);
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
			  const struct sw_policy *p, bool routes)
{
	struct sw_launch l = {
		.stdio = { -1, -1, -1 },
		.uid = (uid_t)-1,
		.gid = (gid_t)-1,
		.tty_fd = -1,
		.listener = true,	/* as run and syswardd ask */
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
		return add_warning(rep, &(struct finding){ .machine = true },
				   "%s: sysward run would refuse it on this "
				   "machine: %s", rep->file, k->err.msg);
	r = sw_launch_prepare(&k->ks, p, &l, 0, &pr, &err);
	if (r == -EOPNOTSUPP)
		return add_warning(rep, &(struct finding){ .machine = true },
				   "%s: sysward run would refuse it on this "
				   "machine: %s", rep->file, err.msg);
	if (r < 0)
		return add_error(rep, &err);
	sw_prepared_overridden(pr, on_overridden, &oc);
	if (oc.r >= 0)
		oc.r = sw_prepared_enforcement(pr, on_enforce, rep);
	if (oc.r >= 0 && routes)
		oc.r = sw_prepared_routes(pr, on_route, rep);
	sw_prepared_free(pr);
	return oc.r;
}

/* Every error of the policy (up to CHECK_MAX_ERRORS, then a count). */
static int load(struct report *rep, const struct check_options *co,
		struct sw_policy **ret, char **text, size_t *len)
{
	struct sw_policy_load_opts lo = { .max_bytes = co->max_bytes,
					  .max_errors = CHECK_MAX_ERRORS };
	struct sw_error err = { 0 };
	int r;

	if (sw_policy_read_file_max(rep->file, co->max_bytes, text, len, &err) < 0)
		return add_error(rep, &err) < 0 ? -ENOMEM : -EINVAL;
	lo.errors = calloc(CHECK_MAX_ERRORS, sizeof(*lo.errors));
	if (!lo.errors)
		return -ENOMEM;
	r = sw_policy_load_string_opts(*text, *len, rep->file, &lo, ret, &err);
	if (r < 0 && lo.n_errors == 0)		/* not the policy's: ENOMEM, ... */
		r = add_error(rep, &err) < 0 ? -ENOMEM : -EINVAL;
	for (size_t i = 0; r < 0 && i < lo.n_errors; i++)
		if (add_error(rep, &lo.errors[i]) < 0) {
			free(lo.errors);
			return -ENOMEM;
		}
	rep->more_errors = lo.n_more;
	free(lo.errors);
	return r < 0 ? -EINVAL : 0;
}

static int check_file(struct report *rep, const struct check_options *co,
		      struct kernel *k)
{
	struct sw_policy *p = NULL;
	cleanup_free char *text = NULL;
	size_t len;
	int r;

	r = load(rep, co, &p, &text, &len);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	rep->ok = true;
	r = sw_policy_text_index(text, len, &rep->where);
	if (r < 0)
		goto out;
	/* The library's own ("file:line:col: path: message"), then ours. */
	for (size_t i = 0; i < p->n_warnings; i++) {
		struct finding where = {
			.path = p->warning_paths ? p->warning_paths[i] : NULL,
			.kind = p->warning_kinds ? p->warning_kinds[i]
						 : SW_POLICY_WARN_OTHER,
			.line = p->warning_pos ? p->warning_pos[i].line : 0,
			.col = p->warning_pos ? p->warning_pos[i].col : 0,
		};

		r = add_warning(rep, &where, "%s", p->warnings[i]);
		if (r < 0)
			goto out;
	}
	r = sw_policy_lint(p, on_lint, rep);
	if (r >= 0)
		r = compile_as_run(rep, k, p, co->routes);
out:
	sw_policy_text_free(TAKE_PTR(rep->where));
	sw_policy_free(p);
	return r;
}

/* The warnings that --strict counts: not a grant (no problem), not a
 * call this libseccomp does not know yet (nothing in the policy to fix:
 * Docker's current profile names a dozen; run does not print them), not
 * how this kernel enforces a file-system or network rule or what answers
 * a rule's calls, nor what only this machine cannot do. */
static size_t strict_warnings(const struct report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n_warnings; i++)
		n += rep->warnings[i].kind != SW_POLICY_WARN_GRANT &&
		     rep->warnings[i].kind != SW_POLICY_WARN_SYSCALL_NEWER &&
		     rep->warnings[i].kind != SW_POLICY_WARN_ENFORCE &&
		     rep->warnings[i].kind != SW_POLICY_WARN_ROUTE &&
		     !rep->warnings[i].machine;
	return n;
}

/* In the order of the text; those about no place first, as found. */
static int by_position(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void print_text(const struct report *rep, const struct check_options *co,
		       size_t failing)
{
	if (rep->ok && !failing && !co->quiet)
		printf("%s: OK\n", rep->file);
	/* A grant is no problem: what the rule reaches, said plainly. */
	for (size_t i = 0; !co->quiet && i < rep->n_warnings; i++)
		printf("%s: %s\n", rep->warnings[i].kind == SW_POLICY_WARN_GRANT
		       ? "grant" : rep->warnings[i].kind == SW_POLICY_WARN_ENFORCE
		       ? "enforce" : rep->warnings[i].kind == SW_POLICY_WARN_ROUTE
		       ? "route" : "warning", rep->warnings[i].text);
	for (size_t i = 0; i < rep->n_errors; i++)
		fprintf(stderr, "%s\n", rep->errors[i].text);
	if (rep->more_errors)
		fprintf(stderr, "%s: and %zu more errors (the first %d are shown)\n",
			rep->file, rep->more_errors, CHECK_MAX_ERRORS);
	if (failing)
		fprintf(stderr, "%s: %zu %s, which --strict makes fail\n",
			rep->file, failing, failing == 1 ? "warning" : "warnings");
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
		if (errors)
			json_object_object_add(o, "errno", json_str_or_null(en));
		json_object_object_add(o, "line", json_uint_or_null(v[i].line));
		json_object_object_add(o, "column", json_uint_or_null(v[i].col));
		json_object_object_add(o, "path", json_str_or_null(v[i].path));
		if (!errors)
			json_object_object_add(o, "kind", json_str_or_null(
				sw_policy_warning_kind_name(v[i].kind)));
		json_object_array_add(a, o);
	}
	return a;
}

static void add_json(json_object *all, const struct report *rep, bool ok)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(rep->file));
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	json_object_object_add(o, "errors",
			       json_findings(rep->errors, rep->n_errors, true));
	json_object_object_add(o, "more_errors",
			       json_object_new_int64((int64_t)rep->more_errors));
	json_object_object_add(o, "warnings",
			       json_findings(rep->warnings, rep->n_warnings,
					     false));
	json_object_array_add(all, o);
}

int cmd_check(int argc, char **argv)
{
	enum { OPT_POLICY_MAX_BYTES = 0x100 };
	static const struct option options[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "routes", no_argument, NULL, 'r' },
		{ "policy-max-bytes", required_argument, NULL, OPT_POLICY_MAX_BYTES },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct check_options co = { 0 };
	const char *max_bytes = NULL;
	struct kernel k = { 0 };
	json_object *all = NULL;
	int opt, rc = SW_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "qsjrh", options, NULL)) != -1) {
		switch (opt) {
		case 'q':
			co.quiet = true;
			break;
		case 's':
			co.strict = true;
			break;
		case 'j':
			co.json = true;
			break;
		case 'r':
			co.routes = true;
			break;
		case OPT_POLICY_MAX_BYTES:
			max_bytes = optarg;
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
	if (sw_cli_policy_max_bytes(max_bytes, &co.max_bytes) < 0)
		return SW_EXIT_USAGE;
	if (optind >= argc)
		return sw_cli_usage("check", "missing policy FILE to check");
	if (co.json)
		all = json_object_new_array();

	for (int i = optind; i < argc; i++) {
		struct report rep = { .file = argv[i] };
		size_t failing = 0;

		if (check_file(&rep, &co, &k) < 0) {
			sw_cli_error("check %s: out of memory", argv[i]);
			rep.ok = false;
		}
		qsort(rep.errors, rep.n_errors, sizeof(*rep.errors), by_position);
		qsort(rep.warnings, rep.n_warnings, sizeof(*rep.warnings),
		      by_position);
		if (rep.ok && co.strict)
			failing = strict_warnings(&rep);
		if (!rep.ok || failing)
			rc = SW_EXIT_FAIL;
		if (co.json)
			add_json(all, &rep, rep.ok && !failing);
		else
			print_text(&rep, &co, failing);
		fflush(stdout);
		report_free(&rep);
	}
	if (co.json) {
		printf("%s\n", json_object_to_json_string_ext(all,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(all);
	}
	return rc;
}
