// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward check: validate policy files without running anything.  Errors
 * are printed exactly as the policy library words them ("file:line:col:"
 * or "file: json.path:"), so editors and CI can jump to them.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sysward/policy.h"

#include "commands.h"

void cmd_check_help(FILE *f)
{
	fprintf(f,
"Usage: %s check [OPTIONS] FILE...\n"
"Validate sysward policy files (JSON, a superset of the OCI/Docker seccomp\n"
"profile).  Prints 'FILE: OK' and any warnings for a valid policy, or the\n"
"first problem as 'FILE:LINE:COL: message' or 'FILE: json.path: message'.\n"
"\n"
"Options:\n"
"  -q, --quiet   print only problems and warnings\n"
"  -h, --help    show this help and exit\n"
"\n"
"Exit status: 0 all valid, 1 some policy is invalid, 2 usage error.\n",
		sw_program_name);
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

/* Legal but almost certainly not what the author meant. */
static unsigned int print_warnings(const char *file, const struct sw_policy *p)
{
	unsigned int n = 0;

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *r = &p->rules[i];
		long first = -1;
		size_t k;

		if (r->n_names == 0)
			continue;
		for (k = 0; k < r->n_names; k++) {
			long j = shadowing_rule(p, i, r->names[k]);

			if (j < 0)
				break;
			if (first < 0)
				first = j;
		}
		if (k < r->n_names)
			continue;
		fprintf(stdout,
			"warning: %s: %s: never applies: every syscall it "
			"names is already decided by %s, which comes first "
			"and has no conditions\n", file,
			r->json_path ? r->json_path : "rule",
			p->rules[first].json_path ? p->rules[first].json_path
						  : "an earlier rule");
		n++;
	}
	return n;
}

int cmd_check(int argc, char **argv)
{
	static const struct option options[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
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
		struct sw_policy *p = NULL;
		struct sw_error err = { 0 };

		if (sw_policy_load_file(argv[i], &p, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg[0] ? err.msg : argv[i]);
			rc = SW_EXIT_FAIL;
			continue;
		}
		if (!quiet)
			printf("%s: OK\n", argv[i]);
		/* The library's own ("file: path: message"), then ours. */
		for (size_t k = 0; k < p->n_warnings; k++)
			printf("warning: %s\n", p->warnings[k]);
		print_warnings(argv[i], p);
		sw_policy_free(p);
	}
	fflush(stdout);
	return rc;
}
