// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The policy's lints (unit.policy, with test_policy.c): pure helpers,
 * from tables.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/policy.h"
#include "test_policy.h"

#define EQ(i, v) { (i), SW_CMP_EQ, (v), 0 }
#define NE(i, v) { (i), SW_CMP_NE, (v), 0 }
#define MEQ(i, m, v) { (i), SW_CMP_MASKED_EQ, (m), (v) }

static const struct contradict_case {
	struct sw_arg_cond args[4];
	size_t n;
	bool never;
	size_t a, b;
} contradict_cases[] = {
	{ { EQ(0, 1), EQ(0, 2) }, 2, true, 0, 1 },		/* fd == 1 && fd == 2 */
	{ { EQ(0, 1), EQ(1, 2) }, 2, false, 0, 0 },		/* other index */
	{ { EQ(0, 1), EQ(0, 1) }, 2, false, 0, 0 },		/* same value */
	{ { EQ(1, 5), EQ(0, 1), EQ(2, 0), EQ(0, 3) }, 4, true, 1, 3 },
	{ { EQ(0, 1), NE(0, 1) }, 2, true, 0, 1 },		/* == 1 && != 1 */
	{ { NE(0, 1), EQ(0, 1) }, 2, true, 0, 1 },
	{ { EQ(0, 1), NE(0, 2) }, 2, false, 0, 0 },
	{ { MEQ(2, 0x3, 0x4) }, 1, true, 0, 0 },		/* value outside mask */
	{ { MEQ(2, 0x3, 0x1) }, 1, false, 0, 0 },
	{ { { 0, SW_CMP_GT, 5, 0 }, EQ(0, 1) }, 2, false, 0, 0 },	/* not judged */
	{ { { 0 } }, 0, false, 0, 0 },
};

START_TEST(test_args_contradict)
{
	const struct contradict_case *c = &contradict_cases[_i];
	size_t a = 99, b = 99;
	bool never = sw_args_contradict(c->args, c->n, &a, &b);

	ck_assert_msg(never == c->never, "case %d: got %d", _i, never);
	if (c->never) {
		ck_assert_uint_eq(a, c->a);
		ck_assert_uint_eq(b, c->b);
	}
}
END_TEST

static const struct glob_case {
	const char *pattern;
	long off;
} glob_cases[] = {
	{ "[", 0 },
	{ "/tmp/[abc", 5 },
	{ "/tmp/[abc]", -1 },
	{ "/tmp/[]abc", 5 },		/* a leading ']' is a member */
	{ "/tmp/[]]", -1 },
	{ "/tmp/[!]", 5 },
	{ "/tmp/[!]x]", -1 },
	{ "/tmp/\\[abc", -1 },		/* escaped: a literal '[' */
	{ "/tmp/[[:alpha:]", 5 },	/* the class's ']' does not close it */
	{ "/tmp/[[:alpha:]]", -1 },
	{ "/a/[x]/[y", 7 },
	{ "*.conf", -1 },
	{ "", -1 },
};

START_TEST(test_glob_unclosed_bracket)
{
	const struct glob_case *c = &glob_cases[_i];

	ck_assert_msg(sw_glob_unclosed_bracket(c->pattern) == c->off,
		      "\"%s\": got %ld, want %ld", c->pattern,
		      sw_glob_unclosed_bracket(c->pattern), c->off);
}
END_TEST

struct lint_out {
	char text[4096];
};

/* "path: msg", after "(kind) " for a kind other than "other". */
static int collect_lint(enum sw_policy_warning_kind kind, const char *path,
			const char *msg, void *ud)
{
	struct lint_out *o = ud;
	size_t len = strlen(o->text);

	if (kind != SW_POLICY_WARN_OTHER)
		len += (size_t)snprintf(o->text + len, sizeof(o->text) - len,
					"(%s) ", sw_policy_warning_kind_name(kind));
	snprintf(o->text + len, sizeof(o->text) - len, "%s: %s\n", path, msg);
	return 0;
}

/* What a path condition on no path does at run time (lint.c). */
#define NUMBER "the supervisor reads a string at the number there, and the calls this rule sees fail with EFAULT (\"path argument unreadable\")"
#define GARBAGE "the supervisor reads a string at whatever the register holds: the condition compares garbage, or the call fails with EFAULT (\"path argument unreadable\")"

static const struct lint_case {
	const char *json;
	const char *want;
} lint_cases[] = {
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\"}" END, "" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"},"
	  " {\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "syscalls[0].args: never matches: args[0] (arg 0 == 1) and args[1] (arg 0 == 2) cannot both hold\n" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"args\": [{\"index\": 1, \"value\": 4, \"valueTwo\": 8, \"op\": \"SCMP_CMP_MASKED_EQ\"}]}" END,
	  "syscalls[0].args: never matches: args[0] ((arg 1 & 0x4) == 0x8) cannot hold: the value has bits outside the mask\n" },
	{ ALLOW "{\"names\": [\"read\", \"write\", \"read\"], \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "syscalls[0].names[2]: \"read\" is already named by names[0]: the duplicate changes nothing\n" },
	{ ALLOW "{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\"},"
	  " {\"names\": [\"mkdir\", \"rmdir\"], \"action\": \"SCMP_ACT_ALLOW\"}" END,
	  "syscalls[1].names[0]: \"mkdir\" never reaches this rule: syscalls[0] (SCMP_ACT_ERRNO), which comes first and has no conditions, decides every call of it\n" },
	/* the same action: redundant, harmless, not reported */
	{ ALLOW "{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\"},"
	  " {\"names\": [\"mkdir\", \"rmdir\"], \"action\": \"SCMP_ACT_ERRNO\"}" END, "" },
	/* an earlier rule with a condition decides only some calls */
	{ ALLOW "{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 1, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]},"
	  " {\"names\": [\"mkdir\", \"rmdir\"], \"action\": \"SCMP_ACT_ALLOW\"}" END, "" },
	/* a whole rule shadowed: one warning for the rule */
	{ ALLOW "{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\"},"
	  " {\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ALLOW\"}" END,
	  "syscalls[1]: never applies: every syscall it names is already decided by syscalls[0], which comes first and has no conditions\n" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"glob\": \"/etc/[ab\"}]}" END,
	  "syscalls[0].paths[0].glob: \"/etc/[ab\": the '[' at byte 5 opens no bracket expression (no closing ']'), so it matches only a literal '[' (write \"\\\\[\" to say so, or close the set)\n" },
	/* "paths" on an argument that is no path (sysward/pathargs.h) */
	{ ALLOW "{\"names\": [\"open\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13,"
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/etc/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 1 of \"open\" is not a path (open's path is argument 0): " NUMBER "; use index 0\n" },
	{ ALLOW "{\"names\": [\"open\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13,"
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/etc/\"}]}" END, "" },
	/* right for openat, wrong for open: one warning, for open */
	{ ALLOW "{\"names\": [\"openat\", \"open\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13,"
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/etc/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 1 of \"open\" is not a path (open's path is argument 0): " NUMBER "; use index 0, or give open a rule of its own\n" },
	/* rename's second path; its third argument is none */
	{ ALLOW "{\"names\": [\"rename\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/etc/\"}]}" END, "" },
	{ ALLOW "{\"names\": [\"rename\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 2, \"prefix\": \"/etc/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 2 of \"rename\" is not a path (rename's paths are arguments 0 and 1): " GARBAGE "; use index 0\n" },
	/* a call with no path argument at all */
	{ ALLOW "{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: \"getpid\" has no path argument (it takes no argument): " GARBAGE "; drop the condition\n" },
	{ ALLOW "{\"names\": [\"kill\", \"unlink\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: \"kill\" has no path argument (it takes no pointer): " NUMBER "; give kill a rule of its own without the condition\n" },
	/* a path the kernel may take as NULL (utimensat(fd, NULL)) is one */
	{ ALLOW "{\"names\": [\"utimensat\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/etc/\"}]}" END, "" },
	/* a pointer that is no path of a listed call: its bytes as a string */
	{ ALLOW "{\"names\": [\"openat2\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 2, \"prefix\": \"/etc/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 2 of \"openat2\" is not a path (openat2's path is argument 1): the condition reads whatever it points to as a string, and a NULL there fails the call with EFAULT; use index 1\n" },
	/* a call the table does not list: a number is sure, a pointer not
	 * (getxattr's path, memfd_create's name: strings the table lacks) */
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 0 of \"write\" is not a path (it is a number): " NUMBER "; name the argument that holds the path\n" },
	{ ALLOW "{\"names\": [\"getxattr\", \"memfd_create\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END, "" },
	/* several conditions, several names: each wrong pair once */
	{ ALLOW "{\"names\": [\"unlink\", \"unlinkat\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}, {\"index\": 1, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 0 of \"unlinkat\" is not a path (unlinkat's path is argument 1): " NUMBER "; use index 1, or give unlinkat a rule of its own\n"
	  "(not-a-path) syscalls[0].paths[1]: argument 1 of \"unlink\" is not a path (unlink's path is argument 0): " GARBAGE "; use index 0, or give unlink a rule of its own\n" },
};

START_TEST(test_lint)
{
	const struct lint_case *c = &lint_cases[_i];
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	struct lint_out o = { "" };

	ck_assert_msg(sw_policy_load_string(c->json, strlen(c->json), "t.json",
					    &p, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sw_policy_lint(p, collect_lint, &o), 0);
	ck_assert_msg(strcmp(o.text, c->want) == 0, "case %d:\n got: %s\nwant: %s",
		      _i, o.text, c->want);
	sw_policy_free(p);
}
END_TEST

/* The error object says where, for readers that must not parse msg. */
void policy_lint_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_args_contradict, 0, (int)N_ELEMENTS(contradict_cases));
	tcase_add_loop_test(tc, test_glob_unclosed_bracket, 0, (int)N_ELEMENTS(glob_cases));
	tcase_add_loop_test(tc, test_lint, 0, (int)N_ELEMENTS(lint_cases));
}
