// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * When a "paths" rule is the kernel's (engine/contain/pathrules.c,
 * sw_pathrule_landlock()): one row per reason, a policy and the reason
 * its rule 0 gets, on a tree made here (the prefix a directory whose way
 * from / uid 65534 cannot write, or one it can); and the docs
 * (policy/README.md) list every reason in the words `sysward check`
 * prints, so that the table and its docs cannot drift.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "check_run.h"
#include "contain/fsrules.h"

#ifndef SW_SOURCE_DIR
#error "SW_SOURCE_DIR: the source tree, for policy/README.md"
#endif

#define DENY(names, cond) \
	"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": " names \
	", \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, \"paths\": [" cond "]}]}"

static const struct row {
	const char *what;
	const char *policy;	/* "@" in it: the closed prefix's directory */
	struct sw_pathrule_ctx ctx;
	enum sw_pathrule want;
	size_t rule;		/* the rule decided: 0 unless said */
} rows[] = {
	{ "openat EACCES beneath a closed directory",
	  DENY("[\"openat\", \"openat2\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_LANDLOCK, 0 },
	{ "execve, mkdir, unlink too",
	  DENY("[\"execve\", \"mkdir\", \"unlink\"]", "{\"index\": 0, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_LANDLOCK, 0 },
	{ "EPERM is not Landlock's",
	  "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1, \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_ACTION, 0 },
	{ "an emulation",
	  "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_EMULATE\", \"return\": 3, \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_ACTION, 0 },
	{ "counted",
	  "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, \"when\": \"2\", \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_COUNTED, 0 },
	{ "two conditions",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}, {\"index\": 1, \"glob\": \"*.c\", \"not\": true}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_CONDS, 0 },
	{ "a prefix without its slash (/etcetera)",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_SHAPE, 0 },
	{ "a glob", DENY("[\"openat\"]", "{\"index\": 1, \"glob\": \"@/*\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_SHAPE, 0 },
	{ "not", DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\", \"not\": true}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_SHAPE, 0 },
	{ "..", DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/../x/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_SHAPE, 0 },
	{ "stat is no Landlock access",
	  DENY("[\"newfstatat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_CALL, 0 },
	{ "openat's dirfd is no path",
	  DENY("[\"openat\"]", "{\"index\": 0, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_CALL, 0 },
	{ "truncate before ABI 3",
	  DENY("[\"truncate\"]", "{\"index\": 0, \"prefix\": \"@/\"}"),
	  { 2, false, false, false, false, 65534, false }, SW_PATHRULE_CALL, 0 },
	{ "an earlier allow of the call",
	  "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ALLOW\", \"paths\": [{\"index\": 1, \"prefix\": \"@/ok/\"}]}, {\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_ORDER, 1 },
	{ "a default that refuses",
	  "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}, {\"names\": [\"exit_group\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_ORDER, 0 },
	{ "a run that sees refusals: both",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, true, false, false, false, 65534, false }, SW_PATHRULE_BOTH, 0 },
	{ "complain mode",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, true, false, false, 65534, false }, SW_PATHRULE_SEEN, 0 },
	{ "a syswardd session",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, true, false, 65534, false }, SW_PATHRULE_DAEMON, 0 },
	{ "SYSWARD_PATHS_SUPERVISOR",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, true, 65534, false }, SW_PATHRULE_OFF, 0 },
	{ "a missing prefix",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/missing/\"}"),
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_MISSING, 0 },
	{ "a way the program's uid owns",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 0, false }, SW_PATHRULE_WAY, 0 },
	{ "a way CAP_DAC_OVERRIDE writes",
	  DENY("[\"openat\"]", "{\"index\": 1, \"prefix\": \"@/\"}"),
	  { 7, false, false, false, false, 65534, true }, SW_PATHRULE_WAY, 0 },
	{ "a filesystem section",
	  "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"filesystem\": {\"paths\": [{\"path\": \"/\", \"access\": \"rw\"}]}, \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, \"paths\": [{\"index\": 1, \"prefix\": \"@/\"}]}]}",
	  { 7, false, false, false, false, 65534, false }, SW_PATHRULE_FILESYSTEM, 0 },
};

/* A directory beneath / whose way uid 65534 cannot write: made in /var/lib
 * (root's, 0755), itself 0755 and root's; /tmp (1777) would not do. */
static char closed[] = "/var/lib/sw-test-pathrules.XXXXXX";

static char *with_dir(const char *s)
{
	size_t n = strlen(s) + 16 * sizeof(closed);
	char *out = malloc(n), *o = out;

	ck_assert_ptr_nonnull(out);
	for (; *s; s++)
		if (*s == '@')
			o += sprintf(o, "%s", closed);
		else
			*o++ = *s;
	*o = '\0';
	return out;
}

START_TEST(test_rows)
{
	const struct row *w = &rows[_i];
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	char *text;
	bool applies[4] = { true, true, true, true };
	uint64_t rights = 0;
	enum sw_pathrule got;

	/* the disk's rows need a way uid 65534 cannot write: root's */
	if (geteuid() != 0 && (w->want == SW_PATHRULE_LANDLOCK || w->want == SW_PATHRULE_BOTH ||
				w->want == SW_PATHRULE_WAY))
		return;
	text = with_dir(w->policy);
	ck_assert_msg(sw_policy_load_string(text, strlen(text), "t.json", &p, &err) >= 0,
		      "%s: %s", w->what, err.msg);
	got = sw_pathrule_landlock(p, w->rule, applies, &w->ctx, &rights);
	ck_assert_msg(got == w->want, "%s: %d (%s), expected %d (%s)", w->what, got,
		      sw_pathrule_words(got), w->want, sw_pathrule_words(w->want));
	if (got == SW_PATHRULE_LANDLOCK || got == SW_PATHRULE_BOTH)
		ck_assert_msg(rights, "%s: no right refused", w->what);
	sw_policy_free(p);
	free(text);
}
END_TEST

/* policy/README.md lists each reason in the words check prints. */
START_TEST(test_docs)
{
	FILE *f = fopen(SW_SOURCE_DIR "/policy/README.md", "r");
	static char doc[1 << 20];
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = '\0';
	for (int why = SW_PATHRULE_BOTH; why < SW_PATHRULE_COUNT; why++)
		if (why != SW_PATHRULE_NONE)
		ck_assert_msg(strstr(doc, sw_pathrule_words(why)),
			      "policy/README.md does not list the reason \"%s\"",
			      sw_pathrule_words(why));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pathrules");
	TCase *tc = tcase_create("decision");
	int r;

	if (geteuid() != 0)
		snprintf(closed, sizeof(closed), "/tmp/sw-test-pathrules.XXXXXX");
	if (!mkdtemp(closed))
		return EXIT_FAILURE;
	chmod(closed, 0755);
	tcase_add_loop_test(tc, test_rows, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, test_docs);
	suite_add_tcase(s, tc);
	r = sw_check_run(s);
	rmdir(closed);
	return r;
}
