// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The /proc "Key:<tab>value" parser (common/proc.c), on texts shaped as
 * the kernel writes status and fdinfo, and on the live /proc/self.
 */
#include <check.h>
#include <unistd.h>

#include "sysward/proc.h"
#include "check_run.h"

static const char text[] =
	"Name:\tsw\nTgid:\t12\nPPid:\t1\nGroups:\t\n"
	"NSpid:\t5 3 1\nflags:\t02000002\nEmpty:\t\nNext:\t7\n";

static const struct {
	const char *key;
	int base;
	unsigned int index;
	bool found;
	long value;
} numbers[] = {
	{ "Tgid", 10, 0, true, 12 },
	{ "NSpid", 10, 0, true, 5 },
	{ "NSpid", 10, 2, true, 1 },
	{ "NSpid", 10, 3, false, 0 },	/* not the next line's number */
	{ "flags", 8, 0, true, 02000002 },
	{ "Empty", 10, 0, false, 0 },	/* not "Next:"'s 7 */
	{ "Groups", 10, 0, false, 0 },
	{ "Nam", 10, 0, false, 0 },	/* a key is whole */
	{ "Nope", 10, 0, false, 0 },
};

START_TEST(number_table)
{
	long v = -1;

	ck_assert_int_eq(sw_proc_number(text, numbers[_i].key, numbers[_i].base,
					numbers[_i].index, &v),
			 numbers[_i].found);
	if (numbers[_i].found)
		ck_assert_int_eq(v, numbers[_i].value);
}
END_TEST

START_TEST(counts)
{
	ck_assert_int_eq(sw_proc_count(text, "NSpid"), 3);
	ck_assert_int_eq(sw_proc_count(text, "Empty"), 0);
	ck_assert_int_eq(sw_proc_count(text, "Nope"), -1);
	ck_assert_str_eq(sw_proc_field(text, "Name"), "\tsw\nTgid:\t12\nPPid:\t1\nGroups:\t\n"
			 "NSpid:\t5 3 1\nflags:\t02000002\nEmpty:\t\nNext:\t7\n");
}
END_TEST

START_TEST(live_self)
{
	pid_t tgid, ppid;
	char buf[4];

	ck_assert_int_eq(sw_proc_ids(getpid(), &tgid, &ppid), 0);
	ck_assert_int_eq(tgid, getpid());
	ck_assert_int_eq(ppid, getppid());
	ck_assert_int_lt(sw_proc_ids(-1, &tgid, &ppid), 0);
	/* a short buffer: cut, terminated */
	ck_assert_int_eq(sw_proc_read("/proc/self/status", buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "Nam");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("proc");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, number_table, 0, sizeof(numbers) / sizeof(numbers[0]));
	tcase_add_test(tc, counts);
	tcase_add_test(tc, live_self);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
