/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the policy parser's unit tests share (test_policy.c registers
 * them all in one suite, unit.policy; test_policy_files.c and
 * test_policy_lint.c add theirs to its test case).
 */
#ifndef SW_TEST_POLICY_H
#define SW_TEST_POLICY_H

#include <check.h>

#include "sysward/policy.h"

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))
#define KV(a, b) (((a) << 16) + ((b) << 8))
/* A policy that allows by default, with the rules in between. */
#define ALLOW "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
#define END "]}"
/* A capability's bit in a rule's caps mask, by the kernel's numbers. */
#define CAP(n) (1ull << (n))
#define SYS_ADMIN 21
#define NET_ADMIN 12
#define SYS_PTRACE 19

/* json parsed: the policy, or the test fails with the parser's message. */
struct sw_policy *load_ok(const char *json);

/* test_policy_files.c: the shipped examples, files, damaged files,
 * action names, argument widths. */
void policy_file_tests(TCase *tc);
/* test_policy_lint.c: the lints, pure helpers from tables. */
void policy_lint_tests(TCase *tc);
/* test_policy_fs.c: the "filesystem" and "network" sections. */
void policy_fs_tests(TCase *tc);

#endif
