// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where strings.c's reader runs (issue 34), against the fake kernel: the
 * reader is allowed on the one CPU its tracer runs on when an access is
 * handed over, set again only when that CPU changes, and a refused
 * setting costs nothing but a retry.  Every access still answers what
 * the tracee's memory holds; a yield to the reader that took long (the
 * CPU went to another task) makes the next accesses sleep at once.  The
 * reader is a real thread of this test; its affinity calls are logged,
 * never made (fake_kernel.c).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "fake_kernel.h"
#include "tracemem.h"

#define P	10000500

static const char path[] = "/etc/passwd";

static uint64_t stage(void)
{
	struct fk_task *t;

	fk_reset();
	t = fk_task(P);
	memcpy(t->mem, path, sizeof(path));
	return t->mem_base;
}

/* One access, which must answer the string. */
static void read_ok(uint64_t addr)
{
	pid_t pid = P;
	char buf[64];

	ck_assert_int_eq(sw_read_tracee_string(&pid, addr, buf, sizeof(buf)),
			 (int)strlen(path));
	ck_assert_str_eq(buf, path);
}

/* The affinity calls so far: how many, and the last one's tid and CPU. */
static size_t pins(pid_t *tid, int *cpu)
{
	size_t n = 0;

	for (size_t i = 0; i < fk_n_calls; i++) {
		if (fk_calls[i].req != FK_AFFINITY)
			continue;
		n++;
		*tid = (pid_t)fk_calls[i].addr;
		*cpu = (int)fk_calls[i].data;
	}
	return n;
}

/* A thread of this process (the reader), not the tracer itself. */
static void is_reader(pid_t tid)
{
	char p[64];

	ck_assert_int_ne(tid, gettid());
	snprintf(p, sizeof(p), "/proc/self/task/%d", tid);
	ck_assert_int_eq(access(p, F_OK), 0);
}

START_TEST(follows_tracer_cpu)
{
	uint64_t addr = stage();
	pid_t tid = 0, tid2 = 0;
	int cpu = -1;

	/* The reader is made at the first access and placed once it has
	 * started (at the first access or the second). */
	fk_cpu(0);
	for (int i = 0; i < 4; i++)
		read_ok(addr);
	ck_assert_uint_eq(pins(&tid, &cpu), 1);
	ck_assert_int_eq(cpu, 0);
	is_reader(tid);

	/* The tracer moved: the reader follows, once. */
	fk_cpu(1);
	for (int i = 0; i < 3; i++)
		read_ok(addr);
	ck_assert_uint_eq(pins(&tid2, &cpu), 2);
	ck_assert_int_eq(cpu, 1);
	ck_assert_int_eq(tid2, tid);

	/* And back. */
	fk_cpu(0);
	read_ok(addr);
	ck_assert_uint_eq(pins(&tid2, &cpu), 3);
	ck_assert_int_eq(cpu, 0);
}
END_TEST

START_TEST(refused_placement_retried)
{
	uint64_t addr = stage();
	pid_t tid = 0;
	int cpu = -1;

	fk_cpu(3);
	/* Let the reader start, so that the next access places it. */
	read_ok(addr);
	read_ok(addr);
	fk_reset();
	memcpy(fk_task(P)->mem, path, sizeof(path));
	fk_cpu(2);
	fk_fail(FK_AFFINITY, 0, EINVAL, false);
	read_ok(addr);		/* refused: the access is served all the same */
	ck_assert_uint_eq(pins(&tid, &cpu), 1);
	read_ok(addr);		/* tried again, and kept */
	read_ok(addr);
	ck_assert_uint_eq(pins(&tid, &cpu), 2);
	ck_assert_int_eq(cpu, 2);
}
END_TEST

START_TEST(no_cpu_no_placement)
{
	uint64_t addr = stage();
	pid_t tid = 0;
	int cpu = -1;

	/* sched_getcpu() failing (ENOSYS on a kernel without getcpu):
	 * the reader runs wherever the scheduler puts it. */
	fk_cpu(-1);
	for (int i = 0; i < 3; i++)
		read_ok(addr);
	ck_assert_uint_eq(pins(&tid, &cpu), 0);
}
END_TEST

START_TEST(slow_yield_backs_off)
{
	uint64_t addr = stage();
	unsigned long y;

	/* The reader takes 200 us per read, and each yield 100 us: the
	 * first access yields past the bound (another task had the CPU),
	 * and the next 64 sleep at once. */
	fk_slow(100, 200);
	read_ok(addr);
	y = fk_yields();
	ck_assert_uint_ge(y, 1);
	for (int i = 0; i < 64; i++)
		read_ok(addr);
	ck_assert_uint_eq(fk_yields(), y);
	/* Then it tries again, and backs off twice as long. */
	read_ok(addr);
	ck_assert_uint_gt(fk_yields(), y);
	y = fk_yields();
	for (int i = 0; i < 128; i++)
		read_ok(addr);
	ck_assert_uint_eq(fk_yields(), y);
}
END_TEST

static Suite *strings_suite(void)
{
	Suite *s = suite_create("strings");
	TCase *tc = tcase_create("reader placement");

	tcase_add_test(tc, follows_tracer_cpu);
	tcase_add_test(tc, refused_placement_retried);
	tcase_add_test(tc, no_cpu_no_placement);
	tcase_add_test(tc, slow_yield_backs_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(strings_suite());
}
