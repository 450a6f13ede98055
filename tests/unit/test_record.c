// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session record (engine/record/record.c), without a kernel: decisions are
 * made by hand and counted.  A record keeps at most its fixed number of
 * items and samples whatever it is fed, counts the rest exactly, and its
 * report and learned policy are the same text for the same calls, in
 * whatever order they came.
 */
#include <check.h>
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "record/record.h"
#include "check_run.h"
#include "decide/program.h"
#include "record/audit.h"

static struct sw_policy pol = {
	.source = "r.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
};

/* A decision as complain mode makes it for the default's refusal. */
static struct sw_decision lifted(uint64_t nr)
{
	struct sw_decision d = {
		.verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT,
		.action = SW_ACT_ERRNO, .nr = nr, .refusal = true, .lifted = true,
	};

	return d;
}

static void call(struct sw_record *r, struct sw_tracee *t, const char *name,
		 uint64_t a0, const char *path)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);
	uint64_t args[6] = { a0, 0x7ffd00001000ull, 0, 0, 0, 0 };
	struct sw_decision d;

	ck_assert_int_ge(nr, 0);
	d = lifted((uint64_t)nr);
	d.path = path;
	sw_record_call(r, t, SW_ABI_X86_64, (uint64_t)nr, args, &d);
}

static char *report(const struct sw_record *r)
{
	struct sw_report_info info = { .policy = &pol, .argv = (char *[]){ "p", NULL } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sw_record_write_json(r, &info, f), 0);
	fclose(f);
	return buf;
}

START_TEST(test_record_bounded)
{
	struct sw_record *r = sw_record_new(true, false);
	struct sw_tracee t = { .pid = 0 };
	struct sw_decision d;
	uint64_t args[6] = { 0 };
	char *text;

	ck_assert_ptr_nonnull(r);
	/* 5,000 distinct numbers: 1024 items, the rest counted only. */
	for (uint64_t nr = 100000; nr < 105000; nr++) {
		d = lifted(nr);
		sw_record_call(r, &t, SW_ABI_X86_64, nr, args, &d);
	}
	/* One item fed distinct arguments: four samples, then a flag. */
	for (uint64_t a = 0; a < 100; a++)
		call(r, &t, "unshare", a, NULL);
	ck_assert_uint_eq(sw_record_policy_refusals(r), 5100);
	text = report(r);
	ck_assert_msg(strstr(text, "\"calls_not_itemised\": 4076"), "%s", text + strlen(text) - 600);
	ck_assert_msg(strstr(text, "\"would_refuse\": 5100"), "totals");
	ck_assert_ptr_null(strstr(text, "\"syscall\": \"unshare\""));	/* no room left */
	free(text);
	sw_record_free(r);

	r = sw_record_new(true, false);
	for (uint64_t a = 0; a < 100; a++)
		call(r, &t, "unshare", a, NULL);
	text = report(r);
	/* The raw values, and the call decoded (engine/record/decode.c). */
	ck_assert_msg(strstr(text, "\"count\": 100, \"samples\": ["
				   "{\"args\": [\"0x0\"], \"call\": \"unshare(0)\"}, "
				   "{\"args\": [\"0x1\"], \"call\": \"unshare(0x1)\"}, "
				   "{\"args\": [\"0x2\"], \"call\": \"unshare(0x2)\"}, "
				   "{\"args\": [\"0x3\"], \"call\": \"unshare(0x3)\"}], \"more_samples\": true}"),
		      "%s", text);
	free(text);
	sw_record_free(r);
}
END_TEST

START_TEST(test_record_grows_on_demand)
{
	/* A session of a few calls costs a few KiB; a flood grows the
	 * tables to their bounds and no further (issue 25: 1.2 MiB each,
	 * whatever the program did, for every syswardd session with a
	 * report). */
	struct sw_record *r = sw_record_new(true, true);
	struct sw_tracee t = { .pid = 0 };
	static const char *const few[] = { "unshare", "mount", "chroot", "setns", "mkdir" };
	struct sw_decision d;
	uint64_t args[6] = { 0 };
	size_t small, big;

	ck_assert_ptr_nonnull(r);
	for (size_t i = 0; i < sizeof(few) / sizeof(few[0]); i++)
		for (uint64_t a = 0; a < 3; a++)
			call(r, &t, few[i], a, "/tmp/x");
	small = sw_record_bytes(r);
	fprintf(stderr, "record: %zu bytes after 5 kinds of call\n", small);
	ck_assert_uint_lt(small, 16 * 1024);
	for (uint64_t nr = 100000; nr < 105000; nr++) {
		d = lifted(nr);
		d.why = "a reason";
		sw_record_call(r, &t, SW_ABI_X86_64, nr, args, &d);
		sw_record_call(r, &t, SW_ABI_X86_64, nr, args, &d);
	}
	big = sw_record_bytes(r);
	fprintf(stderr, "record: %zu bytes after 5,000 distinct numbers\n", big);
	ck_assert_uint_le(big, 1536 * 1024);
	for (uint64_t nr = 200000; nr < 201000; nr++) {
		d = lifted(nr);
		sw_record_call(r, &t, SW_ABI_X86_64, nr, args, &d);
	}
	ck_assert_uint_eq(sw_record_bytes(r), big);	/* full: only counted */
	sw_record_free(r);
}
END_TEST

START_TEST(test_record_deterministic)
{
	/* The same calls in two orders, from two programs' worth of pids:
	 * the same report, sorted by name, no pointer in it. */
	struct sw_record *a = sw_record_new(true, false), *b = sw_record_new(true, false);
	struct sw_tracee t1 = { .pid = 0 }, t2 = { .pid = 0 };
	static const char *const names[] = { "unshare", "mkdir", "getppid", "chroot" };
	char *ta, *tb;

	for (size_t i = 0; i < 4; i++)
		call(a, &t1, names[i], i, i == 1 ? "/tmp/d" : NULL);
	for (size_t i = 4; i-- > 0;)
		call(b, &t2, names[i], i, i == 1 ? "/tmp/d" : NULL);
	ta = report(a);
	tb = report(b);
	ck_assert_str_eq(ta, tb);
	ck_assert_ptr_nonnull(strstr(ta, "\"path\":\"/tmp/d\""));
	ck_assert_ptr_null(strstr(ta, "7ffd"));
	ck_assert(strstr(ta, "\"chroot\"") < strstr(ta, "\"getppid\"") &&
		  strstr(ta, "\"getppid\"") < strstr(ta, "\"mkdir\"") &&
		  strstr(ta, "\"mkdir\"") < strstr(ta, "\"unshare\""));
	free(ta);
	free(tb);
	sw_record_free(a);
	sw_record_free(b);
}
END_TEST

START_TEST(test_record_policy)
{
	/* A learned policy: the calls that ran, sorted, once each; what a
	 * defence refused is not learned; clone3 gets ENOSYS. */
	struct sw_record *r = sw_record_new(true, false);
	struct sw_tracee t = { .pid = 0 };
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "ptrace");
	struct sw_decision d = { .verdict = SW_V_RETURN, .rule = SW_RULE_DEFENCE,
				 .retval = -EPERM, .is_error = true, .why = "no" };
	uint64_t args[6] = { 0 }, unnamed = 7;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	call(r, &t, "write", 1, NULL);
	call(r, &t, "read", 0, NULL);
	call(r, &t, "write", 2, NULL);
	sw_record_call(r, &t, SW_ABI_X86_64, (uint64_t)nr, args, &d);
	d = lifted(100000);
	sw_record_call(r, &t, SW_ABI_X86_64, 100000, args, &d);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(sw_record_write_policy(r, f, 0, &unnamed, NULL), 0);
	fclose(f);
	ck_assert_uint_eq(unnamed, 1);
	ck_assert_str_eq(buf,
		"{\n"
		"  \"defaultAction\": \"SCMP_ACT_ERRNO\",\n"
		"  \"defaultErrnoRet\": 1,\n"
		"  \"architectures\": [\"SCMP_ARCH_X86_64\"],\n"
		"  \"syscalls\": [\n"
		"    {\n"
		"      \"names\": [\n"
		"        \"read\",\n"
		"        \"write\"\n"
		"      ],\n"
		"      \"action\": \"SCMP_ACT_ALLOW\"\n"
		"    },\n"
		"    {\n"
		"      \"names\": [\"clone3\"],\n"
		"      \"action\": \"SCMP_ACT_ERRNO\",\n"
		"      \"errnoRet\": 38\n"
		"    }\n"
		"  ]\n"
		"}\n");
	free(buf);
	/* Past the table a policy would miss calls: none is written. */
	for (uint64_t n = 200000; n < 201100; n++) {
		d = lifted(n);
		sw_record_call(r, &t, SW_ABI_X86_64, n, args, &d);
	}
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(sw_record_write_policy(r, f, 0, &unnamed, NULL), -E2BIG);
	fclose(f);
	free(buf);
	sw_record_free(r);
}
END_TEST

/* openat(AT_FDCWD, path) as the supervisor saw it, its path pinned. */
static void open_call(struct sw_record *r, struct sw_tracee *t, const char *name,
		      const char *path, uint64_t flags_arg)
{
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);
	uint64_t args[6] = { (uint64_t)-100, path ? 0x7ffd00001000ull : 0, 0, flags_arg, 0, 0 };
	struct sw_decision d;

	ck_assert_int_ge(nr, 0);
	d = lifted((uint64_t)nr);
	d.path = path;
	d.pinned = path ? 1u << 1 : 0;
	sw_record_call(r, t, SW_ABI_X86_64, (uint64_t)nr, args, &d);
}

static char *learned(const struct sw_record *r, unsigned int flags,
		     struct sw_learn_notes *notes)
{
	uint64_t unnamed;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sw_record_write_policy(r, f, SW_LEARN_PATHS | flags,
						&unnamed, notes), 0);
	fclose(f);
	return buf;
}

START_TEST(test_record_learn_paths)
{
	/* learn --paths never widens silently: every directory is a rule
	 * (no cap: 40 here), a path no rule can say is a note and, only
	 * with SW_LEARN_CATCH_ALL, one commented rule allowing every path
	 * after the others; "" is learned exactly, NULL as the argument 0
	 * (AT_EMPTY_PATH: 0x1000). */
	struct sw_record *r = sw_record_new(true, true);
	struct sw_tracee t = { .pid = 0 };
	struct sw_learn_notes notes;
	char path[64], *p;

	open_call(r, &t, "openat", "/a/b/f", 0);
	open_call(r, &t, "openat", "/a/b/g", 0);
	open_call(r, &t, "openat", "/a/\xff/g", 0);
	open_call(r, &t, "openat", "/a/\xfe/g", 0);
	open_call(r, &t, "openat", "a.c", 0);
	open_call(r, &t, "newfstatat", "", 0x1000);
	open_call(r, &t, "newfstatat", NULL, 0x1000);
	for (int i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "/d/%02d/x", i);
		open_call(r, &t, "statx", path, 0);
	}
	p = learned(r, 0, &notes);
	ck_assert_ptr_nonnull(strstr(p, "\"paths\": [{\"index\": 1, \"prefix\": \"/a/b/\"}]"));
	ck_assert_ptr_nonnull(strstr(p, "\"paths\": [{\"index\": 1, \"exact\": \"a.c\"}]"));
	ck_assert_ptr_nonnull(strstr(p, "\"paths\": [{\"index\": 1, \"exact\": \"\"}]"));
	ck_assert_ptr_nonnull(strstr(p, "\"args\": [{\"index\": 1, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]"));
	ck_assert_ptr_nonnull(strstr(p, "\"prefix\": \"/d/00/\""));
	ck_assert_ptr_nonnull(strstr(p, "\"prefix\": \"/d/39/\""));
	ck_assert_ptr_null(strstr(p, "catch-all"));
	/* No rule names a call by itself: it would allow every path. */
	ck_assert_ptr_null(strstr(p, "\"openat\"\n"));
	ck_assert_ptr_null(strstr(p, "\"statx\"\n"));
	ck_assert_uint_eq(notes.n, 1);
	ck_assert_str_eq(notes.v[0].call, "openat");
	ck_assert_int_eq(notes.v[0].why, SW_LEARN_NOT_UTF8);
	ck_assert_uint_eq(notes.v[0].calls, 2);
	ck_assert(!notes.v[0].catch_all);
	free(p);
	p = learned(r, SW_LEARN_CATCH_ALL, &notes);
	ck_assert_ptr_nonnull(strstr(p,
		"      \"names\": [\"openat\"],\n"
		"      \"action\": \"SCMP_ACT_ALLOW\",\n"
		"      \"comment\": \"catch-all (sysward learn --catch-all): every path, since 2 paths were not learned: not UTF-8, which a policy (UTF-8 JSON) cannot say\"\n"));
	ck_assert(strstr(p, "catch-all") > strstr(p, "\"prefix\": \"/a/b/\""));
	ck_assert_uint_eq(notes.n, 1);
	ck_assert(notes.v[0].catch_all);
	free(p);
	/* Past the record's paths: the rest is a note, never a widening. */
	for (int i = 0; i < SW_RECORD_PATHS + 10; i++) {
		snprintf(path, sizeof(path), "/e/%04d/x", i);
		open_call(r, &t, "mkdirat", path, 0);
	}
	p = learned(r, 0, &notes);
	ck_assert_ptr_nonnull(strstr(p, "\"prefix\": \"/e/0000/\""));
	ck_assert_uint_eq(notes.n, 2);
	ck_assert_str_eq(notes.v[0].call, "mkdirat");
	ck_assert_int_eq(notes.v[0].why, SW_LEARN_TABLE_FULL);
	ck_assert_uint_ge(notes.v[0].calls, 10);
	free(p);
	sw_record_free(r);
}
END_TEST

START_TEST(test_record_join_clean)
{
	/* The name the kernel walks, from a directory (/proc/<pid>/cwd's
	 * or a dirfd's link) and the string: "." and ".." away. */
	static const struct {
		const char *base, *name, *want;
	} rows[] = {
		{ "/a/b", "../c", "/a/c" },
		{ "/a/b", "./d//e/.", "/a/b/d/e" },
		{ "/", "..", "/" },
		{ "/a", "../../..", "/" },
		{ "", "/x/../../y", "/y" },
		{ "/w", "", "/w" },
	};
	char out[64], big[200];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_int_eq(rec_join_clean(rows[i].base, rows[i].name, out, sizeof(out)), 0);
		ck_assert_str_eq(out, rows[i].want);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(rec_join_clean("/a", big, out, sizeof(out)), -ENAMETOOLONG);
}
END_TEST

static char *learned_fs(const struct sw_record *r)
{
	uint64_t unnamed;
	char *buf = NULL, *fs, *end;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sw_record_write_policy(r, f, SW_LEARN_FILESYSTEM, &unnamed, NULL), 0);
	fclose(f);
	fs = strstr(buf, "  \"filesystem\"");
	ck_assert_ptr_nonnull(fs);
	end = strstr(fs, "  \"syscalls\"");
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	fs = strdup(fs);
	free(buf);
	return fs;
}

START_TEST(test_record_learn_filesystem)
{
	/* The objects a run reached, generalised (reclearnfs.c): a tree
	 * read as ${CWD}'s child, a directory written with what was done
	 * in it and read, what the run made and removed as the directory
	 * it made it in, the system trees "ro", a device exactly with
	 * ioctl, /proc as itself (never resolved: it would be learn's
	 * own), a name missing after the run not at all; the same text
	 * whatever the order the objects came in. */
	static const struct {
		const char *path;	/* beneath the work directory if relative */
		bool in_dir;
		uint8_t kinds;
	} objs[] = {
		{ "tree/a/1", false, REC_K_READ },
		{ "tree/b/2", false, REC_K_READ },
		{ "tree/b", false, REC_K_READ },
		{ "work", true, REC_K_CREATE },
		{ "work/gone/f", false, REC_K_WRITE },
		{ "work/gone", true, REC_K_CREATE | REC_K_REMOVE },
		{ "missing/x", false, REC_K_READ },
		{ "/usr/bin/sh", false, REC_K_EXEC },
		{ "/etc/passwd", false, REC_K_READ },
		{ "/dev/null", false, REC_K_WRITE },
		{ "/dev/pts/ptmx", false, REC_K_READ | REC_K_WRITE },
		{ "/proc/self/status", false, REC_K_READ },
	};
	static const char want[] =
		"  \"filesystem\": {\n    \"paths\": [\n"
		"      {\"path\": \"/dev/null\", \"access\": [\"write\", \"ioctl\"]},\n"
		"      {\"path\": \"/dev/pts\", \"access\": [\"read\", \"write\", \"ioctl\"]},\n"
		"      {\"path\": \"/etc\", \"access\": \"ro\"},\n"
		"      {\"path\": \"/proc\", \"access\": [\"read\"]},\n"
		"      {\"path\": \"${CWD}/tree\", \"access\": [\"read\"]},\n"
		"      {\"path\": \"${CWD}/work\", \"access\": [\"read\", \"write\", \"create\", \"remove\"]},\n"
		"      {\"path\": \"/usr\", \"access\": \"ro\"}\n"
		"    ]\n  },\n";
	char dir[] = "/tmp/sw-unit-learnfs.XXXXXX", old[PATH_MAX], path[PATH_MAX];
	char *text[2];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tree/a", dir);
	snprintf(old, sizeof(old), "%s/tree", dir);
	ck_assert_int_eq(mkdir(old, 0755), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/tree/b", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/work", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	fclose(fopen(strcat(strcpy(path, dir), "/tree/a/1"), "w"));
	fclose(fopen(strcat(strcpy(path, dir), "/tree/b/2"), "w"));
	ck_assert_ptr_nonnull(getcwd(old, sizeof(old)));
	ck_assert_int_eq(chdir(dir), 0);
	for (int order = 0; order < 2; order++) {
		struct sw_record *r = sw_record_new(true, false);

		ck_assert_ptr_nonnull(r);
		sw_record_keep_files(r);
		for (size_t k = 0; k < sizeof(objs) / sizeof(objs[0]); k++) {
			size_t i = order ? sizeof(objs) / sizeof(objs[0]) - 1 - k : k;

			if (objs[i].path[0] == '/')
				snprintf(path, sizeof(path), "%s", objs[i].path);
			else
				snprintf(path, sizeof(path), "%s/%s", dir, objs[i].path);
			rec_files_add(r, path, objs[i].in_dir, objs[i].kinds);
		}
		text[order] = learned_fs(r);
		sw_record_free(r);
	}
	{
		/* Past three quarters of the record's objects, an object is
		 * kept as its directory: 5000 names in tree/b, which the
		 * run removed, still learn that directory; none is lost. */
		struct sw_record *r = sw_record_new(true, false);
		bool ports_lost;
		char *t;

		sw_record_keep_files(r);
		for (int i = 0; i < 5000; i++) {
			snprintf(path, sizeof(path), "%s/tree/b/gone%d", dir, i);
			rec_files_add(r, path, false, REC_K_READ);
		}
		ck_assert_uint_eq(sw_record_files_lost(r, &ports_lost), 0);
		t = learned_fs(r);
		ck_assert_ptr_nonnull(strstr(t, "{\"path\": \"${CWD}/tree\", \"access\": [\"read\"]}"));
		free(t);
		sw_record_free(r);
	}
	ck_assert_int_eq(chdir(old), 0);
	ck_assert_str_eq(text[0], want);
	ck_assert_str_eq(text[1], want);
	free(text[0]);
	free(text[1]);
	ck_assert_int_eq(system(strcat(strcpy(path, "rm -rf "), dir)), 0);
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("record");

	tcase_add_test(tc, test_record_bounded);
	tcase_add_test(tc, test_record_learn_paths);
	tcase_add_test(tc, test_record_join_clean);
	tcase_add_test(tc, test_record_learn_filesystem);
	tcase_add_test(tc, test_record_grows_on_demand);
	tcase_add_test(tc, test_record_deterministic);
	tcase_add_test(tc, test_record_policy);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(record_suite());
}
