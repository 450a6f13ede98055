// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decision logic (engine/decide/decide.c): what the supervisor does at a
 * SECCOMP stop, from tables.  Strings "read from the tracee" come from a
 * fake reader keyed by address.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "check_run.h"
#include "decide/decide.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/execguard.h"

#define N(...) ((char *[]){ __VA_ARGS__, NULL })
#define NN(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *))
#define RULE(act, ...) .names = N(__VA_ARGS__), .n_names = NN(__VA_ARGS__), .action = (act)
#define ARG1(i, o, v) .args = (struct sw_arg_cond[]){ { (i), (o), (v), 0 } }, .n_args = 1
#define SUP_PID 4242
#define CLONE_UNTRACED_ 0x00800000ull

#define ADDR_ETC 0x1000
#define ADDR_HOME 0x2000
#define ADDR_LONG 0x3000
#define ADDR_TMPX 0x4000

static struct sw_rule rules[] = {
	/* 0 */ { RULE(SW_ACT_EMULATE, "getuid", "geteuid"), .ret_value = 0 },
	/* 1 */ { RULE(SW_ACT_ERRNO, "openat"), .errno_ret = EACCES,
		  .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_PREFIX, "/etc/", false } },
		  .n_paths = 1 },
	/* 2 */ { RULE(SW_ACT_REWRITE, "openat"),
		  .rewrites = (struct sw_arg_rewrite[]){ { 2, SW_REWRITE_AND, ~(uint64_t)O_CREAT } },
		  .n_rewrites = 1 },
	/* 3 */ { RULE(SW_ACT_SKIP, "write"), .ret_is_errno = true, .errno_ret = EIO,
		  .when_first = 3 },
	/* 4 */ { RULE(SW_ACT_ERRNO, "read"), .errno_ret = EPERM, ARG1(0, SW_CMP_EQ, 100) },
	/* 5 */ { RULE(SW_ACT_ERRNO, "read"), .errno_ret = EBADF, ARG1(0, SW_CMP_EQ, 101) },
	/* 6 */ { RULE(SW_ACT_REWRITE, "getpid"), .new_syscall = "getppid" },
	/* 7 */ { RULE(SW_ACT_KILL_PROCESS, "mkdir") },
	/* 8 */ { RULE(SW_ACT_TRAP, "uname") },
	/* 9 */ { RULE(SW_ACT_ERRNO, "close"), .errno_ret = 0 },
	/* 10 */ { RULE(SW_ACT_ERRNO, "kill"), .errno_ret = ESRCH },
	/* 11 */ { RULE(SW_ACT_SKIP, "lseek"), .ret_value = 77 },
	/* 12 */ { RULE(SW_ACT_ERRNO, "dup"), .errno_ret = EMFILE, ARG1(0, SW_CMP_EQ, 0xffffffffull) },
	/* 13 */ { RULE(SW_ACT_AUDIT, "connect") },
	/* 14 */ { RULE(SW_ACT_ERRNO, "unlink"), .errno_ret = EROFS,
		   .paths = (struct sw_path_cond[]){ { 0, SW_MATCH_GLOB, "/tmp/*", true } },
		   .n_paths = 1 },
	/* 15 */ { RULE(SW_ACT_ERRNO, "rmdir"), .errno_ret = EPERM,
		   .paths = (struct sw_path_cond[]){ { 0, SW_MATCH_EXACT, "/etc/passwd", false } },
		   .n_paths = 1 },
	/* 16 */ { RULE(SW_ACT_ALLOW, "fsync"), .audit = true, .when_first = 2,
		   .when_last = 6, .when_step = 2 },
	/* 17 */ { RULE(SW_ACT_ERRNO, "fsync"), .errno_ret = EIO },
	/* 18 */ { RULE(SW_ACT_REWRITE, "socket"), .new_syscall = "getpid" },
	/* 19 */ { RULE(SW_ACT_ERRNO, "chdir"), .errno_ret = ENOENT,
		   .has_includes = true, .includes = { .caps = 1ull << 21 } },
	/* argument widths: pid_t (32 bits), umode_t (16), i386 old_uid_t (16) */
	/* 20 */ { RULE(SW_ACT_ERRNO, "tkill"), .errno_ret = EACCES, ARG1(0, SW_CMP_EQ, 1) },
	/* 21 */ { RULE(SW_ACT_ERRNO, "fchmod"), .errno_ret = EPERM, ARG1(1, SW_CMP_EQ, 0777) },
	/* 22 */ { RULE(SW_ACT_ERRNO, "setpgid"), .errno_ret = EPERM, ARG1(0, SW_CMP_GT, 100) },
	/* 23 */ { RULE(SW_ACT_ERRNO, "setuid"), .errno_ret = EPERM, ARG1(0, SW_CMP_EQ, 0) },
	/* 24 */ { RULE(SW_ACT_ERRNO, "utimensat"), .errno_ret = EPERM,
		   .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_PREFIX, "/", false } },
		   .n_paths = 1 },
	/* 25 */ { RULE(SW_ACT_ERRNO, "statx"), .errno_ret = EACCES,
		   .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_GLOB, "/tmp/*", true } },
		   .n_paths = 1 },
};

static struct sw_policy pol = {
	.source = "d.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = rules, .n_rules = sizeof(rules) / sizeof(rules[0]),
};
static struct sw_policy pol_deny = {
	.source = "deny.json", .default_action = SW_ACT_ERRNO, .default_errno = ENOSYS,
	.rules = rules, .n_rules = 1,
};

static struct sw_policy pol_eperm = {	/* newest call named: rule 0's */
	.source = "eperm.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules, .n_rules = 1,
};

/* Unix socket addresses as the reader spells them (sysward/pathargs.h). */
#define ADDR_SOCK_TMP 0x5000	/* "/tmp/x.sock" */
#define ADDR_SOCK_RUN 0x6000	/* "/run/nscd/socket" */
#define ADDR_SOCK_ABS 0x7000	/* "@adv" */
#define ADDR_INET 0x8000	/* an AF_INET address: no unix one */

/* What decide.c asked the reader last. */
static struct sw_arg_read last_read;

static int fake_read(void *ctx, const struct sw_arg_read *a, char *buf,
		     size_t size)
{
	uint64_t addr = a->addr;
	const char *s;

	(void)ctx;
	last_read = *a;
	switch (addr) {
	case ADDR_SOCK_TMP: s = "/tmp/x.sock"; break;
	case ADDR_SOCK_RUN: s = "/run/nscd/socket"; break;
	case ADDR_SOCK_ABS: s = "@adv"; break;
	case ADDR_INET: return -ENODATA;
	case ADDR_ETC: s = "/etc/passwd"; break;
	case ADDR_HOME: s = "/home/x"; break;
	case ADDR_TMPX: s = "/tmp/x"; break;
	case ADDR_LONG:
		memset(buf, 'a', size - 1);
		buf[size - 1] = '\0';
		return -ENAMETOOLONG;
	default:
		return -EFAULT;
	}
	snprintf(buf, size, "%s", s);
	return (int)strlen(buf);
}

enum { X64 = SW_ABI_X86_64, I386 = SW_ABI_I386, X32 = SW_ABI_X32 };

/* "paths" conditions on unix socket addresses: connect's and sendto's
 * sockaddr, sendmsg's msghdr. */
static struct sw_rule addr_rules[] = {
	/* 0 */ { RULE(SW_ACT_ERRNO, "connect", "bind"), .errno_ret = EACCES,
		  .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_PREFIX, "/tmp/", false } },
		  .n_paths = 1 },
	/* 1 */ { RULE(SW_ACT_ERRNO, "sendmsg"), .errno_ret = EPERM,
		  .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_EXACT, "@adv", false } },
		  .n_paths = 1 },
	/* 2 */ { RULE(SW_ACT_ERRNO, "sendto"), .errno_ret = ENOENT,
		  .paths = (struct sw_path_cond[]){ { 4, SW_MATCH_GLOB, "/run/*/*", true } },
		  .n_paths = 1 },
};

static struct sw_policy pol_addr = {
	.source = "addr.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = addr_rules, .n_rules = sizeof(addr_rules) / sizeof(addr_rules[0]),
};

struct row {
	const struct sw_policy *p;
	int abi;
	const char *sys;
	uint64_t a0, a1, a2;
	enum sw_verdict verdict;
	int rule;
	int64_t retval;			/* RETURN */
	bool is_error;
	const char *new_sys;		/* REWRITE: syscall after */
	uint64_t new_a0, new_a2;	/* REWRITE: args after */
	int signal;
	bool audit;
	int line;
};

#define R(...) { __VA_ARGS__, .line = __LINE__ }

static const struct row rows[] = {
	R(&pol, X64, "getuid", .verdict = SW_V_RETURN, .rule = 0, .retval = 0),
	R(&pol, X64, "geteuid", .verdict = SW_V_RETURN, .rule = 0, .retval = 0),
	R(&pol, I386, "getuid", .verdict = SW_V_RETURN, .rule = 0, .retval = 0),
	R(&pol, X32, "geteuid", .verdict = SW_V_RETURN, .rule = 0, .retval = 0),
	/* first match: the path rule before the rewrite rule */
	R(&pol, X64, "openat", -100, ADDR_ETC, O_RDONLY, .verdict = SW_V_RETURN,
	  .rule = 1, .retval = -EACCES, .is_error = true),
	R(&pol, X64, "openat", -100, ADDR_HOME, O_WRONLY | O_CREAT | O_TRUNC,
	  .verdict = SW_V_REWRITE, .rule = 2, .new_sys = "openat",
	  .new_a0 = (uint64_t)-100, .new_a2 = O_WRONLY | O_TRUNC),
	/* unreadable or too long path: fail closed, never run unchecked */
	R(&pol, X64, "openat", -100, 0x9999, 0, .verdict = SW_V_RETURN, .rule = 1,
	  .retval = -EFAULT, .is_error = true),
	R(&pol, X64, "openat", -100, ADDR_LONG, 0, .verdict = SW_V_RETURN, .rule = 1,
	  .retval = -ENAMETOOLONG, .is_error = true),
	/* userspace re-check of argument conditions, in order */
	R(&pol, X64, "read", 100, .verdict = SW_V_RETURN, .rule = 4, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "read", 101, .verdict = SW_V_RETURN, .rule = 5, .retval = -EBADF, .is_error = true),
	R(&pol, X64, "read", 5, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	/* syscall replaced, per ABI */
	R(&pol, X64, "getpid", .verdict = SW_V_REWRITE, .rule = 6, .new_sys = "getppid"),
	R(&pol, I386, "getpid", .verdict = SW_V_REWRITE, .rule = 6, .new_sys = "getppid"),
	R(&pol, X32, "getpid", .verdict = SW_V_REWRITE, .rule = 6, .new_sys = "getppid"),
	/* plain actions decided in userspace */
	R(&pol, X64, "mkdir", .verdict = SW_V_KILL, .rule = 7),
	R(&pol, X64, "uname", .verdict = SW_V_RETURN, .rule = 8, .retval = -ENOSYS,
	  .is_error = true, .signal = SIGSYS),
	R(&pol, X64, "close", 3, .verdict = SW_V_RETURN, .rule = 9, .retval = 0),
	R(&pol, X64, "lseek", .verdict = SW_V_RETURN, .rule = 11, .retval = 77),
	R(&pol, X64, "connect", .verdict = SW_V_ALLOW, .rule = 13, .audit = true),
	/* 32-bit ABIs compare 32-bit arguments */
	R(&pol, I386, "dup", 0xffffffffull, .verdict = SW_V_RETURN, .rule = 12,
	  .retval = -EMFILE, .is_error = true),
	/* dup(2) reads an unsigned int: the high half is not the kernel's */
	R(&pol, X64, "dup", 0xffffffffffffffffull, .verdict = SW_V_RETURN, .rule = 12,
	  .retval = -EMFILE, .is_error = true),
	R(&pol, X64, "dup", 0x1ffffffffull, .verdict = SW_V_RETURN, .rule = 12,
	  .retval = -EMFILE, .is_error = true),
	R(&pol, X64, "dup", 0xfffffffeull, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	/* every comparison at the width the kernel reads (docs/security.md, route 9) */
	R(&pol, X64, "tkill", 1 | 1ull << 32, SIGTERM, .verdict = SW_V_RETURN, .rule = 20,
	  .retval = -EACCES, .is_error = true),
	R(&pol, X64, "tkill", 1ull << 32, SIGTERM, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "fchmod", 3, 0777 | 0x10000, .verdict = SW_V_RETURN, .rule = 21,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X64, "fchmod", 3, 0755 | 0x10000, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "setpgid", 1ull << 32 | 5, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "setpgid", 200, .verdict = SW_V_RETURN, .rule = 22, .retval = -EPERM,
	  .is_error = true),
	R(&pol, X64, "setuid", 0x10000, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, I386, "setuid", 0x10000, .verdict = SW_V_RETURN, .rule = 23, .retval = -EPERM,
	  .is_error = true),
	R(&pol, X64, "setuid", 0, .verdict = SW_V_RETURN, .rule = 23, .retval = -EPERM,
	  .is_error = true),
	/* negated glob, exact */
	R(&pol, X64, "unlink", ADDR_TMPX, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "unlink", ADDR_HOME, .verdict = SW_V_RETURN, .rule = 14,
	  .retval = -EROFS, .is_error = true),
	R(&pol, X64, "rmdir", ADDR_ETC, .verdict = SW_V_RETURN, .rule = 15,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X64, "rmdir", ADDR_HOME, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	/* rewrite into a syscall some ABI lacks is fine when it exists */
	R(&pol, X64, "socket", 2, .verdict = SW_V_REWRITE, .rule = 18, .new_sys = "getpid",
	  .new_a0 = 2),
	/* capability-gated rule does not apply */
	R(&pol, X64, "chdir", .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	/* built-in defences come first */
	R(&pol, X64, "kill", SUP_PID, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "kill", 1, SIGTERM, .verdict = SW_V_RETURN, .rule = 10,
	  .retval = -ESRCH, .is_error = true),
	R(&pol, X64, "tgkill", SUP_PID, SUP_PID, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	/* ... whatever the high half of the 64-bit register holds */
	R(&pol, X64, "kill", SUP_PID | 1ull << 32, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "tkill", SUP_PID | 0xffffffff00000000ull, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "tgkill", SUP_PID | 1ull << 40, SUP_PID, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "pidfd_open", SUP_PID | 1ull << 32, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "rt_sigqueueinfo", SUP_PID | 1ull << 63, SIGSTOP, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "rt_tgsigqueueinfo", SUP_PID | 1ull << 32, SUP_PID, SIGSTOP,
	  .verdict = SW_V_RETURN, .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	/* seccomp(2) creating a user-notification listener (route 8): the
	 * flag in any combination; the same call without it, and the
	 * harmless SECCOMP_GET_NOTIF_SIZES, are the policy's */
	R(&pol, X64, "seccomp", 1, 8, .verdict = SW_V_RETURN, .rule = SW_RULE_DEFENCE,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X64, "seccomp", 1, 8 | 1 | 16 | 1ull << 32, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "seccomp", 1 | 1ull << 32, 8, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, I386, "seccomp", 1, 8, .verdict = SW_V_RETURN, .rule = SW_RULE_DEFENCE,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X32, "seccomp", 1, 8, .verdict = SW_V_RETURN, .rule = SW_RULE_DEFENCE,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X64, "seccomp", 1, 1, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "seccomp", 3, 0, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "clone", CLONE_UNTRACED_ | SIGCHLD,
	  .verdict = SW_V_REWRITE, .rule = SW_RULE_DEFAULT, .new_sys = "clone",
	  .new_a0 = SIGCHLD),
	R(&pol, I386, "clone", CLONE_UNTRACED_ | SIGCHLD,
	  .verdict = SW_V_REWRITE, .rule = SW_RULE_DEFAULT, .new_sys = "clone",
	  .new_a0 = SIGCHLD),
	R(&pol, X64, "clone", SIGCHLD, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "clone3", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -ENOSYS, .is_error = true),
	R(&pol, X64, "ptrace", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "process_vm_writev", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "io_uring_enter", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	/* userfaultfds taking kernel faults, and pidfd_getfd (program.c's
	 * sw_denials table), at the width the kernel reads the flags */
	R(&pol, X64, "userfaultfd", 0, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "userfaultfd", 1ull << 32, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, I386, "userfaultfd", 02000000, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "userfaultfd", 1, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "ioctl", 3, 0xaa00, 0, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X32, "ioctl", 3, 0xaa00 | 1ull << 32, 1ull << 32, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, X64, "ioctl", 3, 0xaa00, 1, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "pidfd_getfd", 3, 4, 0, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	R(&pol, I386, "pidfd_getfd", 3, 4, 0, .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
	/* NULL paths as the kernel takes them (policy/src/pathargs.c):
	 * where NULL names a descriptor no path condition holds, negated
	 * ones included; elsewhere the kernel's EFAULT */
	R(&pol, X64, "utimensat", 3, 0, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, I386, "utimensat", 3, 0, .verdict = SW_V_ALLOW, .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "utimensat", (uint64_t)-100, 0, .verdict = SW_V_RETURN, .rule = 24,
	  .retval = -EFAULT, .is_error = true),
	/* dirfd is an int: 0x1ffffff9c is AT_FDCWD to the kernel */
	R(&pol, X64, "utimensat", 0x1ffffff9cull, 0, .verdict = SW_V_RETURN, .rule = 24,
	  .retval = -EFAULT, .is_error = true),
	R(&pol, X64, "utimensat", 3, ADDR_HOME, .verdict = SW_V_RETURN, .rule = 24,
	  .retval = -EPERM, .is_error = true),
	R(&pol, X64, "statx", 3, 0, AT_EMPTY_PATH, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	R(&pol, X64, "statx", 3, 0, 0, .verdict = SW_V_RETURN, .rule = 25,
	  .retval = -EFAULT, .is_error = true),
	R(&pol, X64, "statx", 3, ADDR_HOME, AT_EMPTY_PATH, .verdict = SW_V_RETURN,
	  .rule = 25, .retval = -EACCES, .is_error = true),
	R(&pol, X64, "rmdir", 0, .verdict = SW_V_RETURN, .rule = 15,
	  .retval = -EFAULT, .is_error = true),
	/* unix socket addresses: read as one (its length from argument 2),
	 * matched as a path; no unix address meets no condition */
	R(&pol_addr, X64, "connect", 3, ADDR_SOCK_TMP, 110, .verdict = SW_V_RETURN,
	  .rule = 0, .retval = -EACCES, .is_error = true),
	R(&pol_addr, X32, "bind", 3, ADDR_SOCK_TMP, 110, .verdict = SW_V_RETURN,
	  .rule = 0, .retval = -EACCES, .is_error = true),
	R(&pol_addr, X64, "connect", 3, ADDR_SOCK_RUN, 20, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	R(&pol_addr, X64, "connect", 3, ADDR_INET, 16, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	R(&pol_addr, X64, "sendmsg", 3, ADDR_SOCK_ABS, 0, .verdict = SW_V_RETURN,
	  .rule = 1, .retval = -EPERM, .is_error = true),
	R(&pol_addr, X64, "sendmsg", 3, ADDR_SOCK_RUN, 0, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	/* a msghdr without a name, a NULL sockaddr: no address */
	R(&pol_addr, X64, "sendmsg", 3, ADDR_INET, 0, .verdict = SW_V_ALLOW,
	  .rule = SW_RULE_DEFAULT),
	/* default errno for anything else, e.g. ENOSYS */
	R(&pol_deny, X64, "mkdir", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFAULT, .retval = -ENOSYS, .is_error = true),
	R(&pol_deny, X64, "getuid", .verdict = SW_V_RETURN, .rule = 0, .retval = 0),
	/* a call newer than every call the policy names (one the path
	 * guard's filter prefix sends here): ENOSYS, as the filter says
	 * for the others; older ones get the default errno */
	R(&pol_eperm, X64, "process_madvise", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFAULT, .retval = -ENOSYS, .is_error = true),
	R(&pol_eperm, X64, "mkdir", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFAULT, .retval = -EPERM, .is_error = true),
	R(&pol_eperm, X64, "io_uring_setup", .verdict = SW_V_RETURN,
	  .rule = SW_RULE_DEFENCE, .retval = -EPERM, .is_error = true),
};

static void decide_row(const struct row *r, struct sw_program *prog,
		       uint32_t *counters, struct sw_decision *d)
{
	static struct sw_decide_scratch scratch;
	uint32_t tok = sw_abi_token(r->abi);
	int nr = seccomp_syscall_resolve_name_arch(tok, r->sys);
	uint64_t args[6] = { r->a0, r->a1, r->a2, 0, 0, 0 };
	uint32_t audit_arch = r->abi == X32 ? SCMP_ARCH_X86_64 : tok;

	ck_assert_msg(nr >= 0, "line %d: %s unknown on %s", r->line, r->sys, sw_abi_name(r->abi));
	sw_decide(prog, audit_arch, (uint64_t)nr, args, fake_read, NULL,
		  counters, &scratch, d);
}

static struct sw_program *program(const struct sw_policy *p)
{
	struct sw_policy_ctx ctx = { .caps = 0, .arch = SCMP_ARCH_X86_64 };
	struct sw_program *prog = NULL;
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_program_new(&prog, p, &ctx, 0, SUP_PID, &err), 0);
	return prog;
}

START_TEST(test_decide_table)
{
	const struct row *r = &rows[_i];
	struct sw_program *prog = program(r->p);
	uint32_t counters[64] = { 0 };
	struct sw_decision d;

	decide_row(r, prog, counters, &d);
	ck_assert_msg(d.verdict == r->verdict, "line %d: verdict %d, expected %d",
		      r->line, d.verdict, r->verdict);
	ck_assert_msg(d.rule == r->rule, "line %d: rule %d, expected %d", r->line,
		      d.rule, r->rule);
	ck_assert_msg(d.audit == r->audit, "line %d: audit %d", r->line, d.audit);
	if (r->verdict == SW_V_RETURN) {
		ck_assert_msg(d.retval == r->retval && d.is_error == r->is_error,
			      "line %d: return %lld/%d, expected %lld/%d", r->line,
			      (long long)d.retval, d.is_error, (long long)r->retval,
			      r->is_error);
		ck_assert_int_eq(d.signal, r->signal);
	}
	if (r->verdict == SW_V_REWRITE) {
		int want = seccomp_syscall_resolve_name_arch(sw_abi_token(r->abi), r->new_sys);

		ck_assert_msg(d.nr == (uint64_t)want, "line %d: nr %llu, expected %d (%s)",
			      r->line, (unsigned long long)d.nr, want, r->new_sys);
		ck_assert_msg(d.args[0] == (r->new_a0 ? r->new_a0 : r->a0),
			      "line %d: arg0 %#llx", r->line, (unsigned long long)d.args[0]);
		ck_assert_msg(d.args[2] == (r->new_a2 ? r->new_a2 : r->a2),
			      "line %d: arg2 %#llx", r->line, (unsigned long long)d.args[2]);
	}
	sw_program_free(prog);
}
END_TEST

/* What decide.c asks the reader for a unix address: the kind, the ABI
 * (a msghdr's layout) and a sockaddr's length, read at the kernel's
 * int width; a negated condition on no address does not hold either. */
START_TEST(test_decide_addr_reads)
{
	struct sw_program *prog = program(&pol_addr);
	static struct sw_decide_scratch scratch;
	uint64_t a[6] = { 3, 0x100, 4, 0, ADDR_SOCK_TMP, 20 | 1ull << 32 };
	struct sw_decision d;
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "sendto");

	sw_decide(prog, SCMP_ARCH_X86_64, (uint64_t)nr, a, fake_read, NULL,
		  NULL, &scratch, &d);
	ck_assert_int_eq(last_read.kind, SW_ARG_SOCKADDR);
	ck_assert_uint_eq(last_read.addr, ADDR_SOCK_TMP);
	ck_assert_int_eq(last_read.len, 20);
	/* "/tmp/x.sock" is not /run/x/y: the negated glob holds */
	ck_assert_int_eq(d.verdict, SW_V_RETURN);
	ck_assert_int_eq(d.retval, -ENOENT);
	ck_assert_str_eq(d.path, "/tmp/x.sock");
	/* a length the kernel reads as negative is passed on as such */
	a[5] = 0xffffffffull;
	sw_decide(prog, SCMP_ARCH_X86_64, (uint64_t)nr, a, fake_read, NULL,
		  NULL, &scratch, &d);
	ck_assert_int_eq(last_read.len, -1);
	/* no unix address: the negated condition does not hold */
	a[4] = ADDR_INET;
	a[5] = 16;
	sw_decide(prog, SCMP_ARCH_X86_64, (uint64_t)nr, a, fake_read, NULL,
		  NULL, &scratch, &d);
	ck_assert_int_eq(d.verdict, SW_V_ALLOW);
	ck_assert_int_eq(d.rule, SW_RULE_DEFAULT);
	/* i386's direct socket calls (libseccomp names them by socketcall
	 * pseudo-numbers; program.c resolves them): connect 362, sendmsg
	 * 370, whose msghdr has the i386 layout */
	a[1] = ADDR_SOCK_TMP;
	a[2] = 110;
	sw_decide(prog, SCMP_ARCH_X86, 362, a, fake_read, NULL, NULL, &scratch, &d);
	ck_assert_int_eq(last_read.kind, SW_ARG_SOCKADDR);
	ck_assert_int_eq(d.retval, -EACCES);
	nr = 370;
	a[1] = ADDR_SOCK_ABS;
	sw_decide(prog, SCMP_ARCH_X86, (uint64_t)nr, a, fake_read, NULL,
		  NULL, &scratch, &d);
	ck_assert_int_eq(last_read.kind, SW_ARG_MSGHDR);
	ck_assert_int_eq(last_read.abi, SW_ABI_I386);
	ck_assert_int_eq(d.retval, -EPERM);
	sw_program_free(prog);
}
END_TEST

START_TEST(test_decide_when_counter)
{
	/* write: skip with EIO on the 3rd call only */
	struct sw_program *prog = program(&pol);
	uint32_t counters[64] = { 0 };
	const struct row r = { &pol, X64, "write", 1, .line = __LINE__ };
	enum sw_verdict want[] = { SW_V_ALLOW, SW_V_ALLOW, SW_V_RETURN, SW_V_ALLOW, SW_V_ALLOW };

	for (int i = 0; i < 5; i++) {
		struct sw_decision d;

		decide_row(&r, prog, counters, &d);
		ck_assert_msg(d.verdict == want[i], "call %d: verdict %d", i + 1, d.verdict);
		if (d.verdict == SW_V_RETURN)
			ck_assert_int_eq(d.retval, -EIO);
	}
	ck_assert_uint_eq(counters[3], 5);
	sw_program_free(prog);
}
END_TEST

START_TEST(test_decide_when_falls_through)
{
	/* fsync: rule 16 (allow, audited) on calls 2,4,6; else rule 17 */
	struct sw_program *prog = program(&pol);
	uint32_t counters[64] = { 0 };
	const struct row r = { &pol, X64, "fsync", 3, .line = __LINE__ };
	int want_rule[] = { 17, 16, 17, 16, 17, 16, 17, 17 };

	for (int i = 0; i < 8; i++) {
		struct sw_decision d;

		decide_row(&r, prog, counters, &d);
		ck_assert_msg(d.rule == want_rule[i], "call %d: rule %d", i + 1, d.rule);
		ck_assert_int_eq(d.verdict, want_rule[i] == 16 ? SW_V_ALLOW : SW_V_RETURN);
	}
	sw_program_free(prog);
}
END_TEST

static const struct {
	uint32_t first, last, step;
	const char *selected;	/* calls 1..12 */
} when_rows[] = {
	{ 0, 0, 0, "111111111111" },	/* no "when" */
	{ 3, 0, 0, "001000000000" },	/* "3" */
	{ 2, 5, 0, "011110000000" },	/* "2..5" */
	{ 2, 0, 3, "010010010010" },	/* "2+3" */
	{ 1, 7, 2, "101010100000" },	/* "1..7+2" */
	{ 4, 0, 1, "000111111111" },	/* "4+" */
};

START_TEST(test_decide_when_selects)
{
	for (uint32_t n = 1; n <= 12; n++)
		ck_assert_msg(sw_when_selects(when_rows[_i].first, when_rows[_i].last,
					      when_rows[_i].step, n) ==
				      (when_rows[_i].selected[n - 1] == '1'),
			      "row %d call %u", _i, n);
}
END_TEST

START_TEST(test_decide_bad_abi)
{
	struct sw_program *prog = program(&pol);
	uint64_t args[6] = { 0 };
	struct sw_decide_scratch scratch;
	struct sw_decision d;

	sw_decide(prog, 0xc00000b7 /* AUDIT_ARCH_AARCH64 */, 172,
		  args, fake_read, NULL, NULL, &scratch, &d);
	ck_assert_int_eq(d.verdict, SW_V_KILL);
	sw_program_free(prog);
}
END_TEST

START_TEST(test_decide_defence_opt_out)
{
	struct sw_policy_ctx ctx = { .arch = SCMP_ARCH_X86_64 };
	struct sw_program *prog = NULL;
	struct sw_error err = { 0 };
	uint64_t args[6] = { 0 };
	struct sw_decide_scratch scratch;
	struct sw_decision d;
	int nr = seccomp_syscall_resolve_name("ptrace");

	ck_assert_int_eq(sw_program_new(&prog, &pol, &ctx, SW_DEFENCE_PTRACE, SUP_PID, &err), 0);
	sw_decide(prog, SCMP_ARCH_X86_64, nr, args, fake_read, NULL,
		  NULL, &scratch, &d);
	ck_assert_int_eq(d.verdict, SW_V_ALLOW);
	sw_program_free(prog);
}
END_TEST

START_TEST(test_decide_i386_socket)
{
	/* i386 reaches socket() directly (359, Linux 4.3+) or through the
	 * socketcall(2) multiplexer (102), whose arguments are in memory. */
	struct sw_program *prog = program(&pol);
	uint64_t args[6] = { 2, 1, 0, 0, 0, 0 };
	struct sw_decide_scratch scratch;
	struct sw_decision d;

	sw_decide(prog, SCMP_ARCH_X86, 359, args, fake_read, NULL, NULL, &scratch, &d);
	ck_assert_int_eq(d.verdict, SW_V_REWRITE);
	ck_assert_int_eq(d.rule, 18);
	ck_assert_uint_eq(d.nr, 20);	/* i386 getpid */
	sw_decide(prog, SCMP_ARCH_X86, 102, args, fake_read, NULL, NULL, &scratch, &d);
	ck_assert_int_eq(d.verdict, SW_V_RETURN);
	ck_assert_int_eq(d.retval, -EPERM);
	ck_assert_str_eq(d.why, "i386 socketcall multiplexer: use the direct socket syscalls");
	sw_program_free(prog);
}
END_TEST

/* execguard.c's choice among the names of an executed file: the first
 * rule in policy order that holds for one name; the default after all. */
static const struct {
	int line;
	const char *names[3];
	enum sw_verdict verdict;
	int rule;
	size_t which;
} exec_rows[] = {
	/* "/bin/sh" is the same file as /usr/bin/dash: rule 0 before 1. */
	{ __LINE__, { "/usr/bin/dash", "/bin/sh" }, SW_V_ALLOW, 0, 1 },
	{ __LINE__, { "/usr/bin/env" }, SW_V_RETURN, 1, 0 },
	{ __LINE__, { "/opt/prog", "/opt/other" }, SW_V_ALLOW, SW_RULE_DEFAULT, 0 },
	/* A later name that a rule refuses beats the default. */
	{ __LINE__, { "/opt/prog", "/usr/alias" }, SW_V_RETURN, 1, 1 },
};

START_TEST(test_decide_exec_names)
{
	static const char text[] =
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		"{\"names\": [\"execve\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"paths\": [{\"index\": 0, \"exact\": \"/bin/sh\"}]},"
		"{\"names\": [\"execve\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13,"
		" \"paths\": [{\"index\": 0, \"prefix\": \"/usr/\"}]}]}";
	const __typeof__(exec_rows[0]) *r = &exec_rows[_i];
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	struct sw_program *prog;
	struct sw_decide_scratch scratch;
	struct sw_decision d;
	uint64_t args[6] = { 0 };
	size_t n = 0, which;

	ck_assert_int_eq(sw_policy_load_string(text, sizeof(text) - 1, "t", &p, &err), 0);
	prog = program(p);
	while (n < 3 && r->names[n])
		n++;
	sw_execguard_decide(prog, SW_ABI_X86_64,
			    (uint64_t)seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "execve"),
			    args, 0, r->names, n, &scratch, &d, &which);
	ck_assert_msg(d.verdict == r->verdict && d.rule == r->rule && which == r->which,
		      "line %d: verdict %d rule %d name %zu", r->line, d.verdict,
		      d.rule, which);
	sw_program_free(prog);
	sw_policy_free(p);
}
END_TEST

/*
 * Complain mode (sw_decision_lift): exactly the policy's own refusals --
 * its errno, kill and trap rules and its default -- run, as called (or
 * with a defence's change on the way); emulations, rewrites, the
 * defences and the fail-closed cases stay.  And the outcome the record
 * counts, enforcing and complaining.
 */
static const struct {
	const struct sw_policy *p;
	const char *sys;
	uint64_t a0, a1;
	bool lifted;
	enum sw_verdict verdict;	/* after the lift */
	uint64_t new_a0;		/* REWRITE after the lift */
	enum sw_outcome enforce, complain;
	int line;
} lift_rows[] = {
#define L(...) { __VA_ARGS__, .line = __LINE__ }
	L(&pol, "mkdir", 0, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol, "uname", 0, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol, "read", 100, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol, "close", 3, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol, "openat", -100, ADDR_ETC, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol_deny, "mkdir", 0, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	/* newer than every call the policy names: ENOSYS, as runc says */
	L(&pol_eperm, "unshare", 0x10000000, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED,
	  SW_OUT_WOULD_REFUSE),
	L(&pol_eperm, "mkdir", 0, 0, true, SW_V_ALLOW, 0, SW_OUT_REFUSED,
	  SW_OUT_WOULD_REFUSE),
	/* the defence's stripped flag stays stripped */
	L(&pol_deny, "clone", CLONE_UNTRACED_ | 0x11, 0, true, SW_V_REWRITE, 0x11,
	  SW_OUT_REFUSED, SW_OUT_WOULD_REFUSE),
	L(&pol, "read", 5, 0, false, SW_V_ALLOW, 0, SW_OUT_ALLOWED, SW_OUT_ALLOWED),
	L(&pol, "getuid", 0, 0, false, SW_V_RETURN, 0, SW_OUT_EMULATED, SW_OUT_EMULATED),
	L(&pol, "lseek", 0, 0, false, SW_V_RETURN, 0, SW_OUT_EMULATED, SW_OUT_EMULATED),
	L(&pol, "getpid", 0, 0, false, SW_V_REWRITE, 0, SW_OUT_REWRITTEN, SW_OUT_REWRITTEN),
	/* an unreadable path fails closed, as the kernel would fail it */
	L(&pol, "openat", -100, 0x9999, false, SW_V_RETURN, 0, SW_OUT_DEFENCE, SW_OUT_DEFENCE),
	/* the built-in defences hold */
	L(&pol, "kill", SUP_PID, SIGSTOP, false, SW_V_RETURN, 0, SW_OUT_DEFENCE, SW_OUT_DEFENCE),
	L(&pol, "ptrace", 0, 0, false, SW_V_RETURN, 0, SW_OUT_DEFENCE, SW_OUT_DEFENCE),
	L(&pol, "process_vm_writev", 0, 0, false, SW_V_RETURN, 0, SW_OUT_DEFENCE, SW_OUT_DEFENCE),
	L(&pol_deny, "clone3", 0, 0, false, SW_V_RETURN, 0, SW_OUT_DEFENCE, SW_OUT_DEFENCE),
#undef L
};

START_TEST(test_decide_complain)
{
	struct sw_program *prog = program(lift_rows[_i].p);
	struct row r = { .p = lift_rows[_i].p, .abi = X64, .sys = lift_rows[_i].sys,
			 .a0 = lift_rows[_i].a0, .a1 = lift_rows[_i].a1,
			 .line = lift_rows[_i].line };
	uint64_t args[6] = { r.a0, r.a1, 0, 0, 0, 0 };
	uint32_t counters[64] = { 0 };
	struct sw_decision d;
	bool lifted;

	decide_row(&r, prog, counters, &d);
	/* The two answers of an EPERM default: ENOSYS above its rules. */
	if (lift_rows[_i].p == &pol_eperm)
		ck_assert_int_eq(d.retval, strcmp(r.sys, "unshare") ? -EPERM : -ENOSYS);
	ck_assert_msg(sw_outcome_of(&d) == lift_rows[_i].enforce,
		      "line %d: enforcing, outcome %s, expected %s", r.line,
		      sw_outcome_name(sw_outcome_of(&d)),
		      sw_outcome_name(lift_rows[_i].enforce));
	lifted = sw_decision_lift(&d, d.nr, args);
	ck_assert_msg(lifted == lift_rows[_i].lifted && d.lifted == lifted,
		      "line %d: lifted %d, expected %d", r.line, lifted,
		      lift_rows[_i].lifted);
	ck_assert_msg(d.verdict == lift_rows[_i].verdict,
		      "line %d: verdict %d after the lift, expected %d", r.line,
		      d.verdict, lift_rows[_i].verdict);
	if (lifted) {
		ck_assert_int_eq(d.signal, 0);
		ck_assert_int_eq(d.retval, 0);
	}
	if (lifted && d.verdict == SW_V_REWRITE)
		ck_assert_msg(d.args[0] == lift_rows[_i].new_a0,
			      "line %d: arg0 %#llx", r.line,
			      (unsigned long long)d.args[0]);
	ck_assert_msg(sw_outcome_of(&d) == lift_rows[_i].complain,
		      "line %d: complaining, outcome %s, expected %s", r.line,
		      sw_outcome_name(sw_outcome_of(&d)),
		      sw_outcome_name(lift_rows[_i].complain));
	sw_program_free(prog);
}
END_TEST

static Suite *decide_suite(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("decide");

	tcase_add_loop_test(tc, test_decide_table, 0, sizeof(rows) / sizeof(rows[0]));
	tcase_add_test(tc, test_decide_when_counter);
	tcase_add_test(tc, test_decide_addr_reads);
	tcase_add_test(tc, test_decide_when_falls_through);
	tcase_add_loop_test(tc, test_decide_when_selects, 0,
			    sizeof(when_rows) / sizeof(when_rows[0]));
	tcase_add_loop_test(tc, test_decide_complain, 0,
			    sizeof(lift_rows) / sizeof(lift_rows[0]));
	tcase_add_test(tc, test_decide_bad_abi);
	tcase_add_test(tc, test_decide_i386_socket);
	tcase_add_test(tc, test_decide_defence_opt_out);
	tcase_add_loop_test(tc, test_decide_exec_names, 0,
			    sizeof(exec_rows) / sizeof(exec_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(decide_suite());
}
