// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The policy's lints (unit.policy, with test_policy.c): pure helpers,
 * from tables.
 */
#include <check.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/pathargs.h"
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
	 * (memfd_create's name, mq_unlink's queue: strings that are no
	 * path, and a call newer than the table would look the same) */
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 0 of \"write\" is not a path (it is a number): " NUMBER "; name the argument that holds the path\n" },
	{ ALLOW "{\"names\": [\"mq_unlink\", \"memfd_create\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END, "" },
	/* getxattr's path is argument 0; argument 1 is the attribute's name */
	{ ALLOW "{\"names\": [\"getxattr\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/\"}]}" END, "" },
	{ ALLOW "{\"names\": [\"getxattr\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"user.\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 1 of \"getxattr\" is not a path (getxattr's path is argument 0): the condition reads whatever it points to as a string, and a NULL there fails the call with EFAULT; use index 0\n" },
	/* fanotify_mark's path: argument 4, on i386 5 (the split mask) */
	{ ALLOW "{\"names\": [\"fanotify_mark\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 4, \"prefix\": \"/\"}]}" END, "" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"SCMP_ARCH_X86\"],"
	  " \"syscalls\": [{\"names\": [\"fanotify_mark\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 5, \"prefix\": \"/\"}]}" END, "" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
	  " \"syscalls\": [{\"names\": [\"fanotify_mark\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 5, \"prefix\": \"/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 5 of \"fanotify_mark\" is not a path (fanotify_mark's path is argument 4): " GARBAGE "; use index 4\n" },
	/* a unix address: connect's, bind's and sendto's sockaddr, sendmsg's
	 * msghdr (its msg_name) */
	{ ALLOW "{\"names\": [\"connect\", \"bind\", \"sendmsg\", \"sendmmsg\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/tmp/\"}]}" END, "" },
	/* datagrams decided by address, sendmmsg left to the default */
	{ ALLOW "{\"names\": [\"sendto\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 4, \"exact\": \"@name\"}]}" END,
	  "syscalls[0]: decides datagrams' destinations by their unix address, but sendmmsg, which no rule names, sends to addresses no condition reads (the kernel writes its array back: no pinned copy), wherever they say; give sendmmsg a rule of its own (refusing it also refuses glibc's DNS queries, sent with it)\n" },
	{ ALLOW "{\"names\": [\"sendto\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 4, \"exact\": \"@name\"}]},"
	  " {\"names\": [\"sendmmsg\"], \"action\": \"SCMP_ACT_ERRNO\"}" END, "" },
	/* what a rule letting connect run by address grants (route 19) */
	{ ALLOW "{\"names\": [\"connect\"], \"action\": \"SCMP_ACT_ALLOW\","
	  " \"paths\": [{\"index\": 1, \"exact\": \"/run/user/1000/ssh-agent\"}]}" END,
	  "(grant) syscalls[0].paths[0]: grants connect to the unix socket \"/run/user/1000/ssh-agent\", also where its service is a process of the program's uid outside its session (the name the service bound must be that too)\n" },
	{ ALLOW "{\"names\": [\"connect\"], \"action\": \"SYSWARD_ACT_LOG\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"@dbus\"}]}" END,
	  "(grant) syscalls[0].paths[0]: grants connect to every unix socket whose address matches prefix \"@dbus\", also where its service is a process of the program's uid outside its session (the name the service bound must match too); an abstract name outside the session stays refused on Landlock ABI 6 and later (Linux 6.12), whose domain scopes abstract sockets whatever the policy\n" },
	/* a refusal, or a negated condition, grants nothing */
	{ ALLOW "{\"names\": [\"connect\"], \"action\": \"SCMP_ACT_ALLOW\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/tmp/\", \"not\": true}]}" END, "" },
	{ ALLOW "{\"names\": [\"connect\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 0, \"prefix\": \"/tmp/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 0 of \"connect\" is not a path (connect's unix address is argument 1): " NUMBER "; use index 1\n" },
	{ ALLOW "{\"names\": [\"sendmsg\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 2, \"prefix\": \"/tmp/\"}]}" END,
	  "(not-a-path) syscalls[0].paths[0]: argument 2 of \"sendmsg\" is not a path (sendmsg's unix address is argument 1, in its msg_name): " NUMBER "; use index 1\n" },
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

/* sysward/pathargs.h: a sample of the table, from the kernel's
 * SYSCALL_DEFINEs (policy/src/pathargs.c says which), by libseccomp's
 * names and per ABI; 0 for strings that are no path. */
static const struct path_args_case {
	uint32_t arch;
	const char *name;
	uint8_t want;
} path_args_cases[] = {
	{ SCMP_ARCH_X86_64, "openat", 1 << 1 },
	{ SCMP_ARCH_X86_64, "getxattr", 1 << 0 },
	{ SCMP_ARCH_X86_64, "lremovexattr", 1 << 0 },
	{ SCMP_ARCH_X86_64, "fgetxattr", 0 },		/* fd and a name */
	{ SCMP_ARCH_X86_64, "getxattrat", 1 << 1 },
	{ SCMP_ARCH_X86_64, "inotify_add_watch", 1 << 1 },
	{ SCMP_ARCH_X86_64, "name_to_handle_at", 1 << 1 },
	{ SCMP_ARCH_X86_64, "move_mount", (1 << 1) | (1 << 3) },
	{ SCMP_ARCH_X86_64, "mount_setattr", 1 << 1 },
	{ SCMP_ARCH_X86_64, "open_tree", 1 << 1 },
	{ SCMP_ARCH_X86_64, "fspick", 1 << 1 },
	{ SCMP_ARCH_X86_64, "quotactl", 1 << 1 },
	{ SCMP_ARCH_X86_64, "swapoff", 1 << 0 },
	{ SCMP_ARCH_X86_64, "pivot_root", (1 << 0) | (1 << 1) },
	{ SCMP_ARCH_X86_64, "fanotify_mark", 1 << 4 },
	{ SCMP_ARCH_X32, "fanotify_mark", 1 << 4 },
	{ SCMP_ARCH_X86, "fanotify_mark", 1 << 5 },	/* mask split in two */
	{ 0, "fanotify_mark", (1 << 4) | (1 << 5) },	/* any ABI */
	{ SCMP_ARCH_X86, "chown32", 1 << 0 },
	{ SCMP_ARCH_X86, "truncate64", 1 << 0 },
	{ SCMP_ARCH_X86, "statfs64", 1 << 0 },
	{ SCMP_ARCH_X86, "oldlstat", 1 << 0 },
	{ SCMP_ARCH_X86, "umount", 1 << 0 },
	{ SCMP_ARCH_X86, "utimensat_time64", 1 << 1 },
	{ SCMP_ARCH_X86_64, "fsconfig", 0 },		/* key and value */
	{ SCMP_ARCH_X86_64, "fsopen", 0 },		/* a filesystem type */
	{ SCMP_ARCH_X86_64, "memfd_create", 0 },
	{ SCMP_ARCH_X86_64, "mq_open", 0 },		/* a queue's name */
	{ SCMP_ARCH_X86_64, "add_key", 0 },
	{ SCMP_ARCH_X86_64, NULL, 0 },
};

START_TEST(test_path_args)
{
	const struct path_args_case *c = &path_args_cases[_i];

	ck_assert_msg(sw_path_args(c->arch, c->name) == c->want,
		      "%s on %#x: %#x, want %#x", c->name, c->arch,
		      sw_path_args(c->arch, c->name), c->want);
}
END_TEST

#define FDCWD ((uint64_t)(uint32_t)-100)

/* When the kernel takes a NULL path: measured on Linux 6.18 (pathargs.c) */
static const struct path_null_case {
	uint32_t arch;
	const char *name;
	unsigned int index;
	uint64_t args[6];
	bool want;
} path_null_cases[] = {
	/* move_mount(from_dfd, from, to_dfd, to, flags): each its own flag */
	{ SCMP_ARCH_X86_64, "move_mount", 1, { 3, 0, FDCWD, 0x1000, 0x4 }, true },
	{ SCMP_ARCH_X86_64, "move_mount", 1, { 3, 0, FDCWD, 0x1000, 0x40 }, false },
	{ SCMP_ARCH_X86_64, "move_mount", 3, { 3, 0x1000, 4, 0, 0x40 }, true },
	{ SCMP_ARCH_X86_64, "move_mount", 3, { 3, 0x1000, 4, 0, 0x4 }, false },
	{ SCMP_ARCH_X86, "move_mount", 3, { 3, 0x1000, 4, 0, 0x44 }, true },
	/* fanotify_mark(fan, flags, mask, dfd, NULL): dfd's file */
	{ SCMP_ARCH_X86_64, "fanotify_mark", 4, { 3, 1, 0x20, 4, 0 }, true },
	{ SCMP_ARCH_X86, "fanotify_mark", 5, { 3, 1, 0x20, 0, 4, 0 }, true },
	{ SCMP_ARCH_X86, "fanotify_mark", 4, { 3, 1, 0x20, 0, 0, 0 }, false },
	/* quotactl(Q_SYNC, NULL, ...): every filesystem */
	{ SCMP_ARCH_X86_64, "quotactl", 1, { 0x800001, 0, 0, 0 }, true },
	/* EFAULT: the string is copied whatever the flags say */
	{ SCMP_ARCH_X86_64, "open_tree", 1, { 3, 0, 0x1000 }, false },
	{ SCMP_ARCH_X86_64, "mount_setattr", 1, { 3, 0, 0x1000 }, false },
	{ SCMP_ARCH_X86_64, "fspick", 1, { 3, 0, 0x8 }, false },
	{ SCMP_ARCH_X86_64, "name_to_handle_at", 1, { 3, 0, 0, 0, 0x1000 }, false },
	{ SCMP_ARCH_X86_64, "inotify_add_watch", 1, { 3, 0, 0x20 }, false },
	{ SCMP_ARCH_X86_64, "getxattr", 0, { 0 }, false },
	{ SCMP_ARCH_X86_64, "swapoff", 0, { 0 }, false },
	/* the rows before these, unchanged */
	{ SCMP_ARCH_X86_64, "statx", 1, { 3, 0, 0x1000 }, true },
	{ SCMP_ARCH_X86_64, "statx", 1, { 3, 0, 0 }, false },
	{ SCMP_ARCH_X86, "utimensat_time64", 1, { 3, 0, 0, 0 }, true },
	{ SCMP_ARCH_X86, "utimensat_time64", 1, { FDCWD, 0, 0, 0 }, false },
	{ SCMP_ARCH_X86_64, "acct", 0, { 0 }, true },
};

START_TEST(test_path_null)
{
	const struct path_null_case *c = &path_null_cases[_i];
	int nr = seccomp_syscall_resolve_name_arch(c->arch, c->name);

	ck_assert_msg(nr >= 0, "%s: not a call on %#x", c->name, c->arch);
	ck_assert_msg(sw_path_null_ok(c->arch, (uint64_t)nr, c->index, c->args) == c->want,
		      "%s(arg %u NULL) on %#x: want %d", c->name, c->index,
		      c->arch, c->want);
}
END_TEST

/* Unix socket addresses (pathargs.c): which argument, what kind. */
static const struct cond_kind_case {
	uint32_t arch;
	const char *name;
	unsigned int index;
	enum sw_arg_kind want;
} cond_kind_cases[] = {
	{ SCMP_ARCH_X86_64, "connect", 1, SW_ARG_SOCKADDR },
	{ SCMP_ARCH_X86_64, "connect", 2, SW_ARG_NONE },	/* its length */
	{ SCMP_ARCH_X86, "connect", 1, SW_ARG_SOCKADDR },
	{ SCMP_ARCH_X32, "bind", 1, SW_ARG_SOCKADDR },
	{ SCMP_ARCH_X86_64, "sendto", 4, SW_ARG_SOCKADDR },
	{ SCMP_ARCH_X86_64, "sendto", 1, SW_ARG_NONE },		/* the data */
	{ SCMP_ARCH_X86_64, "sendmsg", 1, SW_ARG_MSGHDR },
	/* its msg_len written back: no pin, not listed */
	{ SCMP_ARCH_X86_64, "sendmmsg", 1, SW_ARG_NONE },
	{ SCMP_ARCH_X86_64, "recvfrom", 4, SW_ARG_NONE },	/* written, not read */
	{ SCMP_ARCH_X86_64, "openat", 1, SW_ARG_PATH },
	{ 0, "fanotify_mark", 5, SW_ARG_PATH },
	{ SCMP_ARCH_X86_64, "getpid", 0, SW_ARG_NONE },
	{ SCMP_ARCH_X86_64, "connect", 6, SW_ARG_NONE },
};

START_TEST(test_cond_arg_kind)
{
	const struct cond_kind_case *c = &cond_kind_cases[_i];
	struct sw_addr_arg a;

	ck_assert_msg(sw_cond_arg_kind(c->arch, c->name, c->index) == c->want,
		      "%s arg %u on %#x: %d, want %d", c->name, c->index, c->arch,
		      sw_cond_arg_kind(c->arch, c->name, c->index), c->want);
	if (c->want == SW_ARG_SOCKADDR) {
		ck_assert(sw_addr_arg(c->name, &a));
		ck_assert_uint_eq(a.len_index, a.index + 1);
	}
}
END_TEST

/* How a condition spells a sockaddr (sw_unix_addr_spell): the kernel's
 * reading of the bytes and the length. */
static const struct spell_case {
	uint16_t family;
	const char path[110];	/* sun_path, NULs included */
	size_t len;		/* the address's length argument */
	int want_len;
	const char *want;
} spell_cases[] = {
	/* a path: up to the first NUL, or the length */
	{ 1, "/run/nscd/socket", 110, 16, "/run/nscd/socket" },
	{ 1, "/run/nscd/socket", 2 + 16, 16, "/run/nscd/socket" },
	{ 1, "/run/nscd/socketXX", 2 + 16, 16, "/run/nscd/socket" },
	{ 1, "/tmp/a\0/b", 110, 6, "/tmp/a" },
	/* abstract: "@" and every byte after the NUL, NULs as "@" */
	{ 1, "\0/tmp/.X11-unix/X0", 2 + 1 + 17, 18, "@/tmp/.X11-unix/X0" },
	{ 1, "\0a\0b", 2 + 4, 4, "@a@b" },
	{ 1, "\0", 2 + 1, 1, "@" },
	/* unnamed: the family alone (bind's autobind) */
	{ 1, "", 2, 0, "" },
	/* no unix address: another family, a length the kernel refuses */
	{ 2 /* AF_INET */, "\x1f\x90", 16, -61 /* ENODATA */, NULL },
	{ 1, "/x", 1, -61, NULL },
	{ 1, "/x", 0, -61, NULL },
	{ 1, "/x", 111, -61, NULL },	/* above a sockaddr_un: EINVAL */
};

START_TEST(test_unix_addr_spell)
{
	const struct spell_case *c = &spell_cases[_i];
	unsigned char sa[128] = { 0 };
	char buf[SW_UNIX_ADDR_MAX + 1];
	int n;

	memcpy(sa, &c->family, 2);
	memcpy(sa + 2, c->path, sizeof(c->path));
	n = sw_unix_addr_spell(sa, c->len, buf, sizeof(buf));
	ck_assert_msg(n == c->want_len, "case %d: %d, want %d", _i, n, c->want_len);
	if (c->want)
		ck_assert_str_eq(buf, c->want);
}
END_TEST

/* The error object says where, for readers that must not parse msg. */
void policy_lint_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_path_args, 0, (int)N_ELEMENTS(path_args_cases));
	tcase_add_loop_test(tc, test_path_null, 0, (int)N_ELEMENTS(path_null_cases));
	tcase_add_loop_test(tc, test_cond_arg_kind, 0, (int)N_ELEMENTS(cond_kind_cases));
	tcase_add_loop_test(tc, test_unix_addr_spell, 0, (int)N_ELEMENTS(spell_cases));
	tcase_add_loop_test(tc, test_args_contradict, 0, (int)N_ELEMENTS(contradict_cases));
	tcase_add_loop_test(tc, test_glob_unclosed_bracket, 0, (int)N_ELEMENTS(glob_cases));
	tcase_add_loop_test(tc, test_lint, 0, (int)N_ELEMENTS(lint_cases));
}
