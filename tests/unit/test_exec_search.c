// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one program lookup (sw_exec_search, exec.c): the candidates it
 * tries and what it returns, from tables; try() is a fake that answers
 * from the table instead of the file system.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "sysward/engine.h"
#include "check_run.h"

struct answer {
	const char *path;
	int r;
};

struct fake {
	const struct answer *answers;	/* NULL-ended; unlisted: ENOENT */
	char tried[8][64];
	int n;
};

static int fake_try(const char *path, void *ud)
{
	struct fake *f = ud;

	if (f->n < 8)
		snprintf(f->tried[f->n], sizeof(f->tried[0]), "%s", path);
	f->n++;
	for (const struct answer *a = f->answers; a && a->path; a++)
		if (strcmp(a->path, path) == 0)
			return a->r;
	return ENOENT;
}

static const struct {
	const char *name;
	const char *path_env;		/* NULL: no PATH at all */
	struct answer answers[4];
	int want;
	const char *tried[8];		/* in order, NULL-ended */
} cases[] = {
	/* A slash: the one candidate, its answer as it is. */
	{ "/bin/x", "/a", { { "/bin/x", EISDIR } }, EISDIR, { "/bin/x" } },
	{ "./x", "/a", { { "./x", 0 } }, 0, { "./x" } },
	/* Each element in turn; an empty one is the working directory. */
	{ "x", "PATH=/a::/b", { { "/b/x", 0 } }, 0, { "/a/x", "x", "/b/x" } },
	{ "x", "PATH=/a:", { { 0 } }, ENOENT, { "/a/x", "x" } },
	/* No PATH: glibc's default. */
	{ "x", NULL, { { 0 } }, ENOENT, { "/bin/x", "/usr/bin/x" } },
	/* EACCES (or a directory) is remembered and the search goes on. */
	{ "x", "PATH=/a:/b:/c", { { "/a/x", EACCES }, { "/b/x", 0 } }, 0,
	  { "/a/x", "/b/x" } },
	{ "x", "PATH=/a:/b", { { "/a/x", EISDIR } }, EACCES, { "/a/x", "/b/x" } },
	/* Any other error stops it. */
	{ "x", "PATH=/a:/b", { { "/a/x", ENOTDIR }, { "/b/x", ELOOP } }, ELOOP,
	  { "/a/x", "/b/x" } },
	{ "x", "PATH=/a:/b", { { "/a/x", E2BIG } }, E2BIG, { "/a/x" } },
	/* The empty name is found nowhere. */
	{ "", "PATH=/a", { { 0 } }, ENOENT, { NULL } },
};

START_TEST(search_table)
{
	struct fake f = { .answers = cases[_i].answers };
	char *envp[] = { (char *)"HOME=/", (char *)cases[_i].path_env, NULL };
	int r, n = 0;

	if (!cases[_i].path_env)
		envp[1] = NULL;
	r = sw_exec_search(cases[_i].name, envp, fake_try, &f);
	ck_assert_msg(r == cases[_i].want, "case %d: got %d, want %d", _i, r,
		      cases[_i].want);
	while (n < 8 && cases[_i].tried[n])
		n++;
	ck_assert_int_eq(f.n, n);
	for (int k = 0; k < n; k++)
		ck_assert_str_eq(f.tried[k], cases[_i].tried[k]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("exec_search");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, search_table, 0, sizeof(cases) / sizeof(cases[0]));
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
