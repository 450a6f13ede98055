// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The plan of the file rules (engine/contain/fsrules.c) on a tree made here: for
 * each policy, the rule the apply adds on each file (a dry run: no
 * ruleset), as the kernel will have it.  What the table checks is the
 * compilation of "the nearest hierarchy decides" into rules that only
 * grant: a narrower hierarchy's directories on the way carry only what
 * both have, the entries beside get the wider one's rights, a file
 * inside takes REMOVE_FILE from its directory, a symbolic link gets no
 * rule, a missing optional hierarchy is skipped, a missing one fails
 * naming it; and rights the ABI lacks are dropped or refused (strict).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "check_run.h"
#include "contain/fsrules.h"

#define RO	(SW_FS_EXECUTE | SW_FS_READ_FILE | SW_FS_READ_DIR)
#define RW	SW_FS_ALL
#define FILE_RO	RO & SW_FS_FILE_RIGHTS
#define NONE_	(1ULL << 63)	/* no rule on the file */

static char top[PATH_MAX];

/* The tree: a/ (b/ c/ f g -> f), a/b/x, a/c/y */
static void make_tree(void)
{
	char p[PATH_MAX + 32];

	snprintf(top, sizeof(top), "/tmp/sw-test-fsrules.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(p, sizeof(p), "%s/a", top);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b", top);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/c", top);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	for (const char *const *f = (const char *const[]){ "a/f", "a/b/x", "a/c/y", NULL };
	     *f; f++) {
		int fd;

		snprintf(p, sizeof(p), "%s/%s", top, *f);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/a/g", top);
	ck_assert_int_eq(symlink("f", p), 0);
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
}

/* a hierarchy, or a file and the rule expected on it */
#define H(r, a)		{ .rel = (r), .access = (a) }
#define HO(r, a)	{ .rel = (r), .access = (a), .optional = true }
#define MAX_SPECS	4
#define MAX_CHECKS	6
static const struct {
	const char *what;
	struct { const char *rel; uint64_t access; bool optional; } spec[MAX_SPECS];
	int abi;
	bool strict;
	int err;			/* of sw_fsrules_new, or else of the apply */
	struct { const char *rel; uint64_t access; } check[MAX_CHECKS];
} cases[] = {
	{ "one hierarchy: one rule on it, none beneath",
	  { H("a", RO) }, 7, false, 0,
	  { H("a", RO), { "a/b", NONE_ }, { "a/f", NONE_ } } },
	{ "a wider one inside a narrower one: both as asked",
	  { H("a", RO), H("a/b", RW) }, 7, false, 0,
	  { H("a", RO), H("a/b", RW), { "a/c", NONE_ } } },
	{ "a narrower one inside: the way keeps both's, the entries beside get the wider's",
	  { H("a", RW), H("a/b", RO) }, 7, false, 0,
	  { H("a", RO), H("a/b", RO), H("a/c", RW), { "a/f", RW & SW_FS_FILE_RIGHTS },
	    { "a/g", NONE_ } } },
	{ "none inside rw: the way keeps nothing",
	  { H("a", RW), H("a/c", 0) }, 7, false, 0,
	  { H("a/c", NONE_), H("a/b", RW), { "a/f", RW & SW_FS_FILE_RIGHTS } } },
	{ "a ro file inside rw: its directory loses the file rights and remove-file",
	  { H("a", RW), H("a/f", RO) }, 7, false, 0,
	  { H("a", (RW & ~SW_FS_FILE_RIGHTS & ~SW_FS_REMOVE_FILE) | RO), { "a/f", FILE_RO },
	    { "a/b", RW }, H("a/c", RW) } },
	{ "two levels: rw, ro, rw again",
	  { H("a", RW), H("a/b", RO), H("a/b/x", RW) }, 7, false, 0,
	  { H("a", RO), H("a/c", RW), H("a/b", RO), { "a/b/x", RW & SW_FS_FILE_RIGHTS } } },
	{ "ABI 2: truncate and ioctl-dev dropped from every rule",
	  { H("a", RW), H("a/b", RO) }, 2, false, 0,
	  { H("a/c", RW & ~SW_FS_TRUNCATE & ~SW_FS_IOCTL_DEV) } },
	{ "ABI 2, strict: refused", { H("a", RW) }, 2, true, -EOPNOTSUPP, { H(NULL, 0) } },
	{ "ABI 7, strict: every right enforced", { H("a", RW) }, 7, true, 0, { H("a", RW) } },
	{ "a missing hierarchy: the apply fails", { H("a", RO), H("nope", RW) }, 7, false,
	  -ENOENT, { H(NULL, 0) } },
	{ "a missing optional hierarchy: skipped",
	  { H("a", RO), HO("nope", RW) }, 7, false, 0, { H("a", RO) } },
	{ "two siblings: each its own rule, their directory none",
	  { H("a/b", RO), H("a/c", RW) }, 7, false, 0,
	  { H("a/b", RO), H("a/c", RW), { "a", NONE_ } } },
};

START_TEST(test_plan)
{
	struct sw_fs_spec specs[MAX_SPECS];
	char paths[MAX_SPECS][PATH_MAX + 16];
	struct sw_fsrules *fr = NULL;
	struct sw_fsrules_where w;
	struct sw_error err = { 0 };
	size_t n = 0;
	int r;

	make_tree();
	for (; n < MAX_SPECS && cases[_i].spec[n].rel; n++) {
		snprintf(paths[n], sizeof(paths[n]), "%s/%s", top, cases[_i].spec[n].rel);
		specs[n] = (struct sw_fs_spec){ .path = paths[n],
						.access = cases[_i].spec[n].access,
						.optional = cases[_i].spec[n].optional,
						.what = cases[_i].spec[n].rel };
	}
	r = sw_fsrules_new(specs, n, cases[_i].strict, true, NULL, cases[_i].abi, true, &fr,
			   &err);
	if (r >= 0)
		r = sw_fsrules_apply(fr, -1, &w);
	ck_assert_msg(r == cases[_i].err, "%s: %d, expected %d", cases[_i].what, r,
		      cases[_i].err);
	for (size_t k = 0; r >= 0 && k < MAX_CHECKS && cases[_i].check[k].rel; k++) {
		char p[PATH_MAX + 16];
		struct stat st;
		uint64_t got = NONE_, want = cases[_i].check[k].access;

		snprintf(p, sizeof(p), "%s/%s", top, cases[_i].check[k].rel);
		ck_assert_int_eq(lstat(p, &st), 0);
		(void)sw_fsrules_rule_on(fr, (uint64_t)st.st_dev, (uint64_t)st.st_ino, &got);
		if (want != NONE_)
			want &= sw_fs_rights_of_abi(cases[_i].abi);
		ck_assert_msg(got == want, "%s: %s: rule 0x%llx, expected 0x%llx",
			      cases[_i].what, cases[_i].check[k].rel,
			      (unsigned long long)got, (unsigned long long)want);
	}
	sw_fsrules_free(fr);
	sw_error_clear(&err);
	remove_tree();
}
END_TEST

/* The launch's message for a hierarchy it could not open names it. */
START_TEST(test_explain)
{
	struct sw_fs_spec spec = { .path = "/nonexistent/sw-test", .access = RO,
				   .what = "filesystem.paths[3]", .written = "${HOME}/x" };
	struct sw_fsrules *fr = NULL;
	struct sw_fsrules_where w;
	struct sw_error err = { 0 };
	char buf[8192];

	ck_assert_int_eq(sw_fsrules_new(&spec, 1, false, true, NULL, 7, true, &fr, &err), 0);
	ck_assert_int_eq(sw_fsrules_apply(fr, -1, &w), -ENOENT);
	sw_fsrules_explain(fr, &w, buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "set up its file rules: filesystem.paths[3] (${HOME}/x: /nonexistent/sw-test): the path cannot be opened when the program starts (\"optional\": true skips a path that does not exist)");
	sw_fsrules_free(fr);
}
END_TEST

/*
 * --sandbox's plan (engine/contain/sandbox.c) on the tree, a/ the workspace and
 * a/b its .git stand-in (named .git below): the workspace's entries get
 * its rights, .git read-only; with mounts (a mount namespace of its own)
 * .git is the mounts' and the workspace's own directory keeps every right.
 */
START_TEST(test_sandbox_plan)
{
	static const uint64_t own = SW_FS_ALL & ~(SW_FS_MAKE_CHAR | SW_FS_MAKE_BLOCK);
	char ws[PATH_MAX + 8], git[PATH_MAX + 16], p[PATH_MAX + 16];
	struct sw_sandbox sb = { 0 };
	struct sw_fsrules *fr = NULL;
	struct sw_fsrules_where w;
	struct sw_error err = { 0 };
	struct stat st;
	uint64_t got;

	make_tree();
	snprintf(ws, sizeof(ws), "%s/a", top);
	snprintf(git, sizeof(git), "%s/a/.git", top);
	ck_assert_int_eq(mkdir(git, 0755), 0);
	sb.dir = ws;
	for (int mounts = 0; mounts < 2; mounts++) {
		ck_assert_int_eq(sw_sandbox_plan(&sb, NULL, 7, mounts, true, &fr, &err), 0);
		ck_assert_int_eq(sw_fsrules_apply(fr, -1, &w), 0);
		ck_assert_int_eq(stat(ws, &st), 0);
		ck_assert_int_eq(sw_fsrules_rule_on(fr, st.st_dev, st.st_ino, &got), 0);
		ck_assert_msg(got == (mounts ? own : RO), "mounts %d: workspace 0x%llx",
			      mounts, (unsigned long long)got);
		snprintf(p, sizeof(p), "%s/a/c", top);
		ck_assert_int_eq(stat(p, &st), 0);
		got = NONE_;
		(void)sw_fsrules_rule_on(fr, st.st_dev, st.st_ino, &got);
		/* beside .git: the workspace's rights (without mounts) */
		ck_assert_msg(got == (mounts ? NONE_ : own), "mounts %d: a/c 0x%llx",
			      mounts, (unsigned long long)got);
		ck_assert_int_eq(stat(git, &st), 0);
		got = NONE_;
		(void)sw_fsrules_rule_on(fr, st.st_dev, st.st_ino, &got);
		ck_assert_msg(got == (mounts ? NONE_ : RO), "mounts %d: .git 0x%llx",
			      mounts, (unsigned long long)got);
		ck_assert_int_eq(stat("/", &st), 0);
		ck_assert_int_eq(sw_fsrules_rule_on(fr, st.st_dev, st.st_ino, &got), 0);
		ck_assert_int_eq(got & SW_FS_WRITES, 0);
		sw_fsrules_free(fr);
		fr = NULL;
	}
	/* a rule per port: bounded where every caller passes */
	{
		struct sw_port_range all = { 1, 65535 };

		sb.net_given = true;
		sb.connect = (struct sw_tcp_ports){ .ranges = &all, .n_ranges = 1 };
		ck_assert_int_eq(sw_sandbox_plan(&sb, NULL, 7, false, true, &fr, &err), -E2BIG);
		ck_assert_str_eq(err.msg, "--sandbox-net: 65535 TCP ports, at most 4096");
		sb.net_given = false;
		sb.connect = (struct sw_tcp_ports){ 0 };
	}
	/* below ABI 4 the sandbox cannot keep its promise: refused */
	ck_assert_int_eq(sw_sandbox_plan(&sb, NULL, 3, false, true, &fr, &err), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err.msg, "--sandbox needs Landlock ABI 4"));
	rmdir(git);
	remove_tree();
}
END_TEST

/*
 * Complain mode (enforce false): the apply's table is the supervisor's,
 * and sw_fsrules_judge() walks up from a file as the kernel would, the
 * nearest hierarchy naming the rule.  "/" ro, a/ rw, a/b ro inside it.
 */
START_TEST(test_judge)
{
	static const struct {
		const char *file;
		uint64_t need, refused;
		int spec;
	} rows[] = {
		{ "a/f", SW_FS_WRITE_FILE | SW_FS_TRUNCATE, 0, 1 },
		{ "a/c/y", SW_FS_WRITE_FILE, 0, 1 },
		{ "a/b/x", SW_FS_READ_FILE, 0, 2 },
		{ "a/b/x", SW_FS_WRITE_FILE | SW_FS_TRUNCATE,
		  SW_FS_WRITE_FILE | SW_FS_TRUNCATE, 2 },
		{ "a/b/x", SW_FS_MAKE_REG, SW_FS_MAKE_REG, 2 },
		{ "a/b", SW_FS_READ_DIR, 0, 2 },
		{ "", SW_FS_WRITE_FILE, SW_FS_WRITE_FILE, 0 },
	};
	char a[PATH_MAX + 8], b[PATH_MAX + 8], p[PATH_MAX + 16];
	struct sw_fs_spec specs[3] = {
		{ .path = "/", .access = RO, .what = "filesystem.paths[0]" },
		{ .path = a, .access = RW, .what = "filesystem.paths[1]" },
		{ .path = b, .access = RO, .what = "filesystem.paths[2]" },
	};
	struct sw_fsrules *fr = NULL;
	struct sw_fsrules_where w;
	struct sw_error err = { 0 };

	make_tree();
	snprintf(a, sizeof(a), "%s/a", top);
	snprintf(b, sizeof(b), "%s/a/b", top);
	ck_assert_int_eq(sw_fsrules_new(specs, 3, false, true, NULL, 7, false, &fr, &err), 0);
	ck_assert(sw_fsrules_complaining(fr));
	/* in a child, as the launch child does: the table is shared */
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(sw_fsrules_apply(fr, -1, &w) == 0 ? 0 : 1);
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *what, *written;
		struct stat st;
		uint64_t refused;
		int dfd, spec;
		char *slash;

		snprintf(p, sizeof(p), "%s/%s", top, rows[i].file);
		ck_assert_int_eq(stat(p, &st), 0);
		slash = strrchr(p, '/');
		*slash = '\0';
		dfd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
		ck_assert_int_ge(dfd, 0);
		ck_assert_int_eq(sw_fsrules_judge(fr, dfd, &st, rows[i].need, &refused, &spec), 0);
		close(dfd);
		/* the rule is looked for only as far as a refusal needs */
		ck_assert_msg(refused == rows[i].refused &&
			      (!refused || spec == rows[i].spec),
			      "%s: refused 0x%llx (want 0x%llx), rule %d (want %d)",
			      rows[i].file, (unsigned long long)refused,
			      (unsigned long long)rows[i].refused, spec, rows[i].spec);
		if (!refused)
			continue;
		what = sw_fsrules_spec_words(fr, spec, &written);
		ck_assert_str_eq(what, specs[spec].what);
	}
	sw_fsrules_free(fr);
	remove_tree();
}
END_TEST

/* --sandbox-net's ports: the code and the message, case by case. */
static const struct {
	const char *text;
	int r;
	size_t n_ranges, n_ports;
} ports[] = {
	{ "", 0, 0, 0 },
	{ "443", 0, 1, 1 },
	{ "80,443,8000-8100", 0, 3, 103 },
	{ "65535", 0, 1, 1 },
	{ "0", -EINVAL, 0, 0 },
	{ "65536", -EINVAL, 0, 0 },
	{ "10-5", -EINVAL, 0, 0 },
	{ "80,", 0, 1, 1 },
	{ "80;443", -EINVAL, 0, 0 },
	{ "http", -EINVAL, 0, 0 },
	{ "1-", -EINVAL, 0, 0 },
};

START_TEST(test_sandbox_ports)
{
	struct sw_tcp_ports tp = { 0 };
	struct sw_error err = { 0 };
	int r = sw_sandbox_parse_ports(ports[_i].text, &tp, &err);

	ck_assert_msg(r == ports[_i].r, "'%s': %d", ports[_i].text, r);
	if (r < 0) {
		ck_assert_ptr_nonnull(strstr(err.msg, "expected TCP ports and ranges from 1 to 65535"));
		return;
	}
	ck_assert_uint_eq(tp.n_ranges, ports[_i].n_ranges);
	ck_assert_uint_eq(tp.n_ports, ports[_i].n_ports);
	free(tp.ranges);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fsrules");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, test_sandbox_plan);
	tcase_add_test(tc, test_judge);
	tcase_add_loop_test(tc, test_sandbox_ports, 0, (int)(sizeof(ports) / sizeof(ports[0])));
	tcase_add_loop_test(tc, test_plan, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_explain);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
