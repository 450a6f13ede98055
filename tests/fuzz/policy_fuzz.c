// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the policy loader: any byte string given to
 * sw_policy_load_string() must either load (and free cleanly) or fail with
 * a well-formed error -- never crash, leak, hang or read past the input.
 * Built with -fsanitize=fuzzer,address,undefined by run-fuzz.sh.
 *
 * The input is NOT NUL-terminated: the loader takes (text, len) and must
 * not read text[len].  A fuzzer-side check aborts (a "crash") when the
 * error contract of include/sysward/error.h is broken.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/policy.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

/* Every error, as sysward check asks: the parse goes on after one, over
 * half-read rules; the list must agree with the first error, and the
 * policy is freed as usual.  Then the first error only, below. */
static void every_error(const uint8_t *data, size_t size)
{
	struct sw_error errors[4], first;
	struct sw_policy_load_opts o = { .errors = errors, .max_errors = 4 };
	struct sw_policy *p = NULL;
	int r = sw_policy_load_string_opts((const char *)data, size, "fuzz.json",
					   &o, &p, &first);

	if (r == 0) {
		check(p != NULL && o.n_errors == 0 && o.n_more == 0);
		sw_policy_free(p);
		return;
	}
	check(p == NULL && o.n_errors <= 4 && (o.n_errors > 0 || r == -ENOMEM));
	check(o.n_more == 0 || o.n_errors == 4);
	for (size_t i = 0; i < o.n_errors; i++)
		check(errors[i].code == EINVAL || errors[i].code == EFBIG);
	check(o.n_errors == 0 || strcmp(errors[0].msg, first.msg) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_policy *p = NULL;
	struct sw_error err;
	int r;

	every_error(data, size);
	memset(&err, 0x5a, sizeof(err));	/* the loader must set it */
	sw_error_clear(&err);
	r = sw_policy_load_string((const char *)data, size, "fuzz.json", &p,
				  &err);
	if (r < 0) {
		/* -errno, err filled, *ret untouched, message terminated. */
		check(p == NULL);
		check(err.code == -r);
		check(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		check(err.msg[0] != '\0');
		return 0;
	}
	check(r == 0 && p != NULL);
	/* Walk what the engine will read, so ASan sees every pointer. */
	struct sw_policy_ctx ctx = { .caps = ~0ULL, .arch = 0xc000003e,
				     .kernel = (6 << 16) | (18 << 8) };
	size_t total = 0;

	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *rule = &p->rules[i];

		(void)sw_rule_applies(rule, &ctx);
		check(sw_action_name(rule->action) != NULL);
		for (size_t k = 0; k < rule->n_names; k++)
			total += strlen(rule->names[k]);
		check(rule->n_names == 0 || rule->names[rule->n_names] == NULL);
		for (size_t k = 0; k < rule->n_paths; k++) {
			check(rule->paths[k].pattern != NULL);
			total += strlen(rule->paths[k].pattern);
		}
		for (size_t k = 0; k < rule->n_args; k++)
			check(rule->args[k].index < 6);
		for (size_t k = 0; k < rule->n_rewrites; k++)
			check(rule->rewrites[k].index < 6);
	}
	for (size_t k = 0; k < p->n_architectures; k++)
		total += strlen(p->architectures[k]);
	(void)total;
	sw_policy_free(p);
	return 0;
}
