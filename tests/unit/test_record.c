// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session record (engine/record.c), without a kernel: decisions are
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

#include "internal.h"
#include "check_run.h"

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
	/* The raw values, and the call decoded (engine/decode.c). */
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

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("record");

	tcase_add_test(tc, test_record_bounded);
	tcase_add_test(tc, test_record_learn_paths);
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
