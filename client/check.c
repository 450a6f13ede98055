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
"\n"
"Options:\n"
"  -q, --quiet   print only errors (no 'FILE: OK', no warnings)\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 all valid, 1 some policy is invalid, 2 usage error.\n",
		sw_program_name);
}

/* One problem found in one file: the words a user sees, and where. */
struct finding {
	char *text;		/* "file: path: message", as printed */
};

struct report {
	const char *file;
	bool ok;
	struct finding *errors, *warnings;
	size_t n_errors, n_warnings;
};

static void report_free(struct report *rep)
{
	for (size_t i = 0; i < rep->n_errors; i++)
		free(rep->errors[i].text);
	for (size_t i = 0; i < rep->n_warnings; i++)
		free(rep->warnings[i].text);
	free(rep->errors);
	free(rep->warnings);
}

static int add_finding(struct finding **v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add_finding(struct finding **v, size_t *n, const char *fmt, ...)
{
	struct finding *nv;
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = (struct finding){ .text = s };
	*v = nv;
	return 0;
}

#define add_warning(rep, ...) \
	add_finding(&(rep)->warnings, &(rep)->n_warnings, __VA_ARGS__)
#define add_error(rep, ...) \
	add_finding(&(rep)->errors, &(rep)->n_errors, __VA_ARGS__)

/* A lint (policy.h: sw_policy_lint()) as a warning. */
static int on_lint(const char *path, const char *msg, void *ud)
{
	struct report *rep = ud;

	return add_warning(rep, "%s: %s: %s", rep->file, path, msg);
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
	int r;

	r = add_warning(c->rep,
			"%s: %s.names[%zu]: %s is refused whatever the policy "
			"(docs/security.md route %s): %s; the call fails with "
			"%s, not as this rule says%s%s%s", c->rep->file,
			rule->json_path ? rule->json_path : "rule", o->name,
			o->syscall, o->route, o->why, en ? en : "an error",
			o->opt_in ? " (" : "", o->opt_in ? o->opt_in : "",
			o->opt_in ? " leaves it to the policy)" : "");
	if (r < 0)
		c->r = r;
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
 * running kernel (EOPNOTSUPP: no seccomp filter, no Landlock, no
 * PTRACE_SET_SYSCALL_INFO for a policy that needs the supervisor) is a
 * warning: the policy is valid, and a machine that can run it may check
 * it.  Any other refusal is the policy's: an error.
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
	if (k->r < 0) {
		rep->ok = false;
		return add_error(rep, "%s: %s", rep->file, k->err.msg);
	}
	r = sw_launch_prepare(&k->ks, p, &l, 0, &pr, &err);
	if (r == -EOPNOTSUPP)
		return add_warning(rep, "%s: sysward run would refuse it on "
				   "this machine: %s", rep->file, err.msg);
	if (r < 0) {
		rep->ok = false;
		return add_error(rep, "%s", err.msg);
	}
	sw_prepared_overridden(pr, on_overridden, &oc);
	sw_prepared_free(pr);
	return oc.r;
}

static int check_file(struct report *rep, struct kernel *k)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r;

	if (sw_policy_load_file(rep->file, &p, &err) < 0) {
		rep->ok = false;
		return add_error(rep, "%s", err.msg[0] ? err.msg : rep->file);
	}
	rep->ok = true;
	/* The library's own ("file: path: message"), then ours. */
	for (size_t i = 0; i < p->n_warnings; i++) {
		r = add_warning(rep, "%s", p->warnings[i]);
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
	for (size_t i = 0; !quiet && i < rep->n_warnings; i++)
		printf("warning: %s\n", rep->warnings[i].text);
	for (size_t i = 0; i < rep->n_errors; i++)
		fprintf(stderr, "%s\n", rep->errors[i].text);
}

int cmd_check(int argc, char **argv)
{
	static const struct option options[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct kernel k = { 0 };
	bool quiet = false;
	int opt, rc = SW_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
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

	for (int i = optind; i < argc; i++) {
		struct report rep = { .file = argv[i] };

		if (check_file(&rep, &k) < 0) {
			sw_cli_error("check %s: out of memory", argv[i]);
			rep.ok = false;
		}
		if (!rep.ok)
			rc = SW_EXIT_FAIL;
		print_text(&rep, quiet);
		fflush(stdout);
		report_free(&rep);
	}
	return rc;
}
