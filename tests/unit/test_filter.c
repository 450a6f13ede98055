// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Filter compiler (engine/decide/filter.c): policies built by hand are
 * compiled and exported as BPF, then run by a small interpreter over
 * struct seccomp_data.  Each table row says: on this ABI, this syscall
 * with these arguments gets this SECCOMP_RET_* action (and data).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "test_filter_bpf.h"
#include "check_run.h"
#include "decide/decide.h"
#include "decide/program.h"

#define N(...) ((char *[]){ __VA_ARGS__, NULL })
#define NN(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *))
#define RULE(act, ...) .names = N(__VA_ARGS__), .n_names = NN(__VA_ARGS__), .action = (act)
#define ARG1(i, o, v) .args = (struct sw_arg_cond[]){ { (i), (o), (v), 0 } }, .n_args = 1
#define SUP_PID 4242

/* Rules shared by the policies below. */
static struct sw_rule rules_a[] = {
	/* 0 */ { RULE(SW_ACT_EMULATE, "getuid"), .ret_value = 0 },
	/* 1 */ { RULE(SW_ACT_ERRNO, "socket"), .errno_ret = EACCES, ARG1(0, SW_CMP_EQ, 2) },
	/* 2 */ { RULE(SW_ACT_ERRNO, "openat"), .errno_ret = EPERM,
		  .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_PREFIX, "/etc/", false } },
		  .n_paths = 1 },
	/* 3 */ { RULE(SW_ACT_ERRNO, "write"), .errno_ret = EIO, .when_first = 3 },
	/* 4 */ { RULE(SW_ACT_ALLOW, "personality"), ARG1(0, SW_CMP_EQ, 0) },
	/* 5 */ { RULE(SW_ACT_ALLOW, "personality"), ARG1(0, SW_CMP_EQ, 8) },
	/* 6 */ { RULE(SW_ACT_KILL_PROCESS, "mkdir", "mkdirat") },
	/* 7 */ { RULE(SW_ACT_ERRNO, "kill"), .errno_ret = ESRCH },
	/* 8 */ { RULE(SW_ACT_ALLOW, "socket") },
	/* 9 */ { RULE(SW_ACT_ERRNO, "read"), .errno_ret = EPERM, ARG1(0, SW_CMP_EQ, 100) },
	/* 10 */ { RULE(SW_ACT_ERRNO, "read"), .errno_ret = EBADF, ARG1(0, SW_CMP_EQ, 101) },
	/* 11 */ { RULE(SW_ACT_ERRNO, "close"), .errno_ret = EBADF,
		   .args = (struct sw_arg_cond[]){ { 0, SW_CMP_MASKED_EQ, 0xf0, 0x30 } }, .n_args = 1 },
	/* 12 */ { RULE(SW_ACT_TRAP, "uname") },
	/* 13 */ { RULE(SW_ACT_ERRNO, "getuid"), .errno_ret = EPERM },	/* shadowed by 0 */
	/* 14 */ { RULE(SW_ACT_AUDIT, "connect") },
	/* 15 */ { RULE(SW_ACT_ERRNO, "chdir"), .errno_ret = ENOENT,
		   .has_includes = true, .includes = { .caps = 1ull << 21 } },	/* CAP_SYS_ADMIN */
	/* 16 */ { RULE(SW_ACT_ALLOW, "fchdir"), .audit = true },
	/* argument widths: pid_t (32 bits), umode_t (16), i386 old_uid_t (16) */
	/* 17 */ { RULE(SW_ACT_ERRNO, "tkill"), .errno_ret = EACCES, ARG1(0, SW_CMP_EQ, 1) },
	/* 18 */ { RULE(SW_ACT_ERRNO, "setpgid"), .errno_ret = EPERM, ARG1(0, SW_CMP_GT, 100) },
	/* 19 */ { RULE(SW_ACT_ERRNO, "fchmod"), .errno_ret = EPERM,
		   .args = (struct sw_arg_cond[]){ { 1, SW_CMP_MASKED_EQ, 07000, 04000 } }, .n_args = 1 },
	/* 20 */ { RULE(SW_ACT_ERRNO, "setuid"), .errno_ret = EPERM, ARG1(0, SW_CMP_EQ, 0) },
	/* 21 */ { RULE(SW_ACT_ERRNO, "lseek"), .errno_ret = EPERM, ARG1(1, SW_CMP_EQ, 1ull << 32) },
};

static struct sw_rule rules_c[] = {
	/* 0 */ { RULE(SW_ACT_ALLOW, "read", "write", "exit_group", "getpid") },
	/* 1 */ { RULE(SW_ACT_ERRNO, "socket"), .errno_ret = EACCES, ARG1(0, SW_CMP_EQ, 2) },
	/* 2 */ { RULE(SW_ACT_ALLOW, "socket") },
	/* 3 */ { RULE(SW_ACT_ALLOW, "clone"), ARG1(0, SW_CMP_MASKED_EQ, 0) },
	/* 4 */ { RULE(SW_ACT_ALLOW, "io_uring_setup") },
	/* 5 */ { RULE(SW_ACT_ALLOW, "kill") },
	/* 6: Docker's "socket unless AF_VSOCK" shape, on an int */
	/* 6 */ { RULE(SW_ACT_ALLOW, "socketpair"), ARG1(0, SW_CMP_NE, 40) },
};

static struct sw_policy pol_a = {
	.source = "a.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = rules_a, .n_rules = sizeof(rules_a) / sizeof(rules_a[0]),
};
static struct sw_policy pol_b = {	/* x86_64 only */
	.source = "b.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.architectures = N("SCMP_ARCH_X86_64"), .n_architectures = 1,
	.rules = rules_a, .n_rules = 1,
};
static struct sw_policy pol_c = {	/* allow-list, default EPERM */
	.source = "c.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_c, .n_rules = sizeof(rules_c) / sizeof(rules_c[0]),
};
static struct sw_policy pol_f = {	/* pol_c with "allowIoUring": true */
	.source = "f.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_c, .n_rules = sizeof(rules_c) / sizeof(rules_c[0]),
	.allow_io_uring = true,
};
static struct sw_policy pol_g = {	/* pol_a with "allowIoUring": true */
	.source = "g.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = rules_a, .n_rules = sizeof(rules_a) / sizeof(rules_a[0]),
	.allow_io_uring = true,
};
static struct sw_rule rules_i[] = {
	/* 0 */ { RULE(SW_ACT_EMULATE, "getuid"), .ret_value = 0 },
	/* 1 */ { RULE(SW_ACT_ALLOW, "pidfd_getfd") },
};
static struct sw_policy pol_i = {	/* restricts, and lets pidfd_getfd run */
	.source = "i.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = rules_i, .n_rules = 2,
};
static struct sw_policy pol_d = {	/* allows everything */
	.source = "d.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
};
static struct sw_rule rules_h[] = {
	/* 0 */ { RULE(SW_ACT_ERRNO, "clone3"), .errno_ret = EPERM },
	/* 1 */ { RULE(SW_ACT_ERRNO, "getpid"), .errno_ret = EACCES, ARG1(0, SW_CMP_NE, 5) },
};
static struct sw_policy pol_h = {	/* default EACCES, names clone3 */
	.source = "h.json", .default_action = SW_ACT_ERRNO, .default_errno = EACCES,
	.rules = rules_h, .n_rules = 2,
};
static struct sw_policy pol_e = {	/* default ENOSYS: unknown syscalls */
	.source = "e.json", .default_action = SW_ACT_ERRNO, .default_errno = ENOSYS,
	.rules = rules_c, .n_rules = 1,
};

/* Calls newer than the newest one a policy names (runc's ENOSYS rule):
 * a Docker/Podman-style allow-list whose newest call is epoll_pwait2
 * (441 on x86_64 and i386, 0x40000000 | 441 on x32) */
static struct sw_rule rules_n[] = {
	/* 0 */ { RULE(SW_ACT_ALLOW, "read", "write", "exit_group", "getpid", "epoll_pwait2") },
	/* 1 */ { RULE(SW_ACT_ERRNO, "mkdir"), .errno_ret = EACCES },
};
static struct sw_policy pol_n = {
	.source = "n.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_n, .n_rules = 2,
};
static struct sw_policy pol_p = {	/* pol_n on x86_64 alone */
	.source = "p.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.architectures = N("SCMP_ARCH_X86_64"), .n_architectures = 1,
	.rules = rules_n, .n_rules = 2,
};
static struct sw_policy pol_k = {	/* pol_n killing by default */
	.source = "k.json", .default_action = SW_ACT_KILL_PROCESS, .default_errno = EPERM,
	.rules = rules_n, .n_rules = 2,
};
/* i386's socket calls: libseccomp names them by socketcall
 * pseudo-numbers, so runc counts only getpid (20) there */
static struct sw_rule rules_s[] = {
	/* 0 */ { RULE(SW_ACT_ALLOW, "getpid", "socket", "exit_group") },
};
static struct sw_policy pol_s = {
	.source = "s.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_s, .n_rules = 1,
};
static struct sw_policy pol_q = {	/* an errno default and no rule */
	.source = "q.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
};
/* newest call exit_group (231): the defences' calls are newer */
static struct sw_rule rules_o[] = {
	/* 0 */ { RULE(SW_ACT_ALLOW, "read", "write", "exit_group", "getpid") },
	/* 1: does not apply (no CAP_SYS_ADMIN), so it does not count */
	/* 1 */ { RULE(SW_ACT_ALLOW, "futex_waitv"),
		  .has_includes = true, .includes = { .caps = 1ull << 21 } },
};
static struct sw_policy pol_o = {
	.source = "o.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_o, .n_rules = 2,
};
static struct sw_policy pol_oi = {	/* pol_o with "allowIoUring": true */
	.source = "oi.json", .default_action = SW_ACT_ERRNO, .default_errno = EPERM,
	.rules = rules_o, .n_rules = 2, .allow_io_uring = true,
};

enum { X64 = SW_ABI_X86_64, I386 = SW_ABI_I386, X32 = SW_ABI_X32, AARCH64 = 99 };

struct row {
	const struct sw_policy *p;
	unsigned int defences_off;
	int abi;
	const char *sys;		/* name, or NULL: use nr */
	int nr;
	uint64_t a0, a1;
	uint32_t expect;
	int line;
	uint64_t a2;
	enum sw_refusals refusals;	/* who decides the policy's refusals */
	bool non_root;			/* the program can never be uid 0 */
};

#define TRACE(i) (SECCOMP_RET_TRACE | (i))
#define ERRNO(e) (SECCOMP_RET_ERRNO | (e))
#define ALLOW SECCOMP_RET_ALLOW
#define KILLP SECCOMP_RET_KILL_PROCESS
#define R(...) { __VA_ARGS__, .line = __LINE__ }

static const struct row rows[] = {
	/* sysward actions and conditions the kernel cannot decide: TRACE */
	R(&pol_a, 0, X64, "getuid", 0, 0, 0, TRACE(0)),
	R(&pol_a, 0, X64, "openat", 0, 0, 0, TRACE(2)),
	R(&pol_a, 0, X64, "write", 0, 1, 0, TRACE(3)),
	R(&pol_a, 0, X64, "connect", 0, 3, 0, TRACE(14)),
	R(&pol_a, 0, X64, "fchdir", 0, 3, 0, TRACE(16)),
	/* plain rules: no stop at all */
	R(&pol_a, 0, X64, "socket", 0, 2, 0, ERRNO(EACCES)),
	R(&pol_a, 0, X64, "socket", 0, 10, 0, ALLOW),
	R(&pol_a, 0, X64, "personality", 0, 0, 0, ALLOW),
	R(&pol_a, 0, X64, "personality", 0, 123, 0, ALLOW),
	R(&pol_a, 0, X64, "mkdir", 0, 0, 0, KILLP),
	R(&pol_a, 0, X64, "mkdirat", 0, 0, 0, KILLP),
	R(&pol_a, 0, X64, "close", 0, 0x35, 0, ERRNO(EBADF)),
	R(&pol_a, 0, X64, "close", 0, 0x45, 0, ALLOW),
	R(&pol_a, 0, X64, "uname", 0, 0, 0, SECCOMP_RET_TRAP),
	R(&pol_a, 0, X64, "getpid", 0, 0, 0, ALLOW),
	/* capability-gated rule: the launch has no CAP_SYS_ADMIN */
	R(&pol_a, 0, X64, "chdir", 0, 0, 0, ALLOW),
	/* mixed actions on one syscall: traced, decided in order */
	R(&pol_a, 0, X64, "read", 0, 100, 0, TRACE(9)),
	R(&pol_a, 0, X64, "read", 0, 5, 0, TRACE(9)),
	/* kill: the policy's rule, and the supervisor defence beside it */
	R(&pol_a, 0, X64, "kill", 0, 1, 9, ERRNO(ESRCH)),
	/* both deny: on a tie the policy (newest filter) gives the errno */
	R(&pol_a, 0, X64, "kill", 0, SUP_PID, 19, ERRNO(ESRCH)),
	/* built-in defences */
	R(&pol_a, 0, X64, "clone", 0, 0x11, 0, ALLOW),
	R(&pol_a, 0, X64, "clone", 0, 0x00800011, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_a, 0, X64, "ptrace", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "process_vm_writev", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "io_uring_enter", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "io_uring_register", 0, 0, 0, ERRNO(EPERM)),
	/* signals: every target is checked by the supervisor (signals.c) */
	R(&pol_a, 0, X64, "tgkill", 0, SUP_PID, 1, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "tgkill", 0, 77, 1, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "tgkill", 0, SUP_PID | 1ull << 32, 1, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "pidfd_open", 0, SUP_PID, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "pidfd_send_signal", 0, 3, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "setpgid", 0, 0, 0, TRACE(18)),
	R(&pol_a, 0, X64, "fcntl", 0, 3, 8 /* F_SETOWN */, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "fcntl", 0, 3, 8 | 1ull << 32, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "fcntl", 0, 3, 15 /* F_SETOWN_EX */, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "fcntl", 0, 3, 3 /* F_GETFL */, ALLOW),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0x8901 /* FIOSETOWN */, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "ioctl", 0, 0, 0x5412 /* TIOCSTI */, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "ioctl", 0, 0, 0x5412 | 1ull << 32, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "ioctl", 0, 0, 0x541b /* FIONREAD */, ALLOW),
	R(&pol_a, 0, I386, "fcntl64", 0, 3, 8, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "tkill", 0, 77, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, SW_DEFENCE_SIGNAL_SUPERVISOR, X64, "tgkill", 0, SUP_PID, 1, ALLOW),
	R(&pol_a, SW_DEFENCE_PTRACE, X64, "ptrace", 0, 0, 0, ALLOW),
	R(&pol_a, SW_DEFENCE_CLONE3, X64, "clone3", 0, 0, 0, ALLOW),
	R(&pol_a, SW_DEFENCE_CLONE_UNTRACED, X64, "clone", 0, 0x00800011, 0, ALLOW),
	/* i386 (compat, int 0x80) and x32 are filtered by the same rules */
	R(&pol_a, 0, I386, "getuid", 0, 0, 0, TRACE(0)),
	R(&pol_a, 0, I386, "mkdir", 0, 0, 0, KILLP),
	R(&pol_a, 0, I386, "ptrace", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, I386, "clone", 0, 0x00800011, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "getpid", 0, 0, 0, ALLOW),
	R(&pol_a, 0, X32, "getuid", 0, 0, 0, TRACE(0)),
	R(&pol_a, 0, X32, "mkdir", 0, 0, 0, KILLP),
	R(&pol_a, 0, X32, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	/* an ABI the filter does not cover is killed */
	R(&pol_a, 0, AARCH64, NULL, 172, 0, 0, KILLP),
	R(&pol_b, 0, I386, "getpid", 0, 0, 0, KILLP),
	R(&pol_b, 0, X32, "getpid", 0, 0, 0, KILLP),
	R(&pol_b, 0, X64, "getpid", 0, 0, 0, ALLOW),
	R(&pol_b, 0, X64, "getuid", 0, 0, 0, TRACE(0)),
	/* allow-list policy */
	R(&pol_c, 0, X64, "getpid", 0, 0, 0, ALLOW),
	R(&pol_c, 0, X64, "mkdir", 0, 0, 0, ERRNO(EPERM)),
	/* NE on a 32-bit argument stays in BPF, bit by bit: the kernel's
	 * int decides, whatever the high half holds */
	R(&pol_c, 0, X64, "socketpair", 0, 1, 0, ALLOW),
	R(&pol_c, 0, X64, "socketpair", 0, 41, 0, ALLOW),
	R(&pol_c, 0, X64, "socketpair", 0, 40, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "socketpair", 0, 40 | 1ull << 32, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "socketpair", 0, 40 | 0xffffffff00000000ull, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "socketpair", 0, 1 | 1ull << 32, 0, ALLOW),
	R(&pol_c, 0, X32, "socketpair", 0, 40 | 1ull << 32, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X32, "socketpair", 0, 2, 0, ALLOW),
	R(&pol_c, 0, X64, "socket", 0, 2, 0, TRACE(1)),
	R(&pol_c, 0, X64, "socket", 0, 1, 0, TRACE(1)),
	R(&pol_c, 0, X64, "clone", 0, 0x11, 0, ALLOW),
	R(&pol_c, 0, X64, "clone", 0, 0x00800011, 0, TRACE(SW_HINT_NONE)),
	R(&pol_c, 0, X64, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "kill", 0, SUP_PID, 0, TRACE(SW_HINT_NONE)),
	R(&pol_c, 0, X64, "kill", 0, 1, 0, TRACE(SW_HINT_NONE)),
	R(&pol_c, SW_DEFENCE_IO_URING, X64, "io_uring_setup", 0, 0, 0, ALLOW),
	R(&pol_c, 0, I386, "mkdir", 0, 0, 0, ERRNO(EPERM)),
	/* "allowIoUring": the policy decides io_uring; every other defence stays */
	R(&pol_f, 0, X64, "io_uring_setup", 0, 0, 0, ALLOW),
	R(&pol_f, 0, X32, "io_uring_setup", 0, 0, 0, ALLOW),
	/* newer than io_uring_setup, the newest call f.json names: ENOSYS */
	R(&pol_f, 0, X64, "io_uring_enter", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_f, 0, X64, "mkdir", 0, 0, 0, ERRNO(EPERM)),	/* default */
	R(&pol_f, 0, X64, "clone", 0, 0x00800011, 0, TRACE(SW_HINT_NONE)),
	R(&pol_f, 0, X64, "kill", 0, SUP_PID, 0, TRACE(SW_HINT_NONE)),
	R(&pol_g, 0, X64, "io_uring_enter", 0, 0, 0, ALLOW),
	R(&pol_g, 0, X64, "io_uring_register", 0, 0, 0, ALLOW),
	R(&pol_g, 0, X64, "ptrace", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_g, 0, X64, "process_vm_writev", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_g, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_g, 0, X64, "getuid", 0, 0, 0, TRACE(0)),
	/* a policy that restricts nothing: a connection's peer is still
	 * checked (route 19), which IORING_OP_CONNECT would pass by, so no
	 * io_uring; without that check it keeps io_uring, never ptrace */
	R(&pol_d, 0, X64, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_d, SW_DEFENCE_UNIX_PEERS, X64, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	/* nor where opens are checked (route 20: IORING_OP_OPENAT would
	 * not be); without either check it keeps io_uring */
	R(&pol_d, SW_DEFENCE_UNIX_PEERS | SW_DEFENCE_OBJECT_OPENS, X64, "io_uring_setup",
	  0, 0, 0, ALLOW),
	R(&pol_d, 0, X64, "ptrace", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_d, 0, X64, "getpid", 0, 0, 0, ALLOW),
	/* every connect and listen goes to peers.c, on every ABI (i386: its
	 * socketcall with the subcall's number) */
	R(&pol_d, 0, X64, "connect", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X32, "connect", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "listen", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, I386, NULL, 102, 3, 0, TRACE(SW_HINT_NONE)),	/* SYS_CONNECT */
	R(&pol_d, 0, I386, NULL, 102, 4, 0, TRACE(SW_HINT_NONE)),	/* SYS_LISTEN */
	R(&pol_d, 0, I386, NULL, 102, 9, 0, ALLOW),			/* SYS_SEND */
	R(&pol_d, 0, X64, "bind", 0, 0, 0, ALLOW),
	R(&pol_d, SW_DEFENCE_UNIX_PEERS, X64, "connect", 0, 0, 0, ALLOW),
	/* objects.c (route 20): an open that can write stops, to be
	 * checked on what it opened; one that only reads does not */
	R(&pol_d, 0, X64, "openat", 0, 3, 0, ALLOW, .a2 = O_RDONLY | O_CLOEXEC),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_RDWR | O_CLOEXEC),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_RDONLY | O_CREAT),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_RDONLY | O_TRUNC),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, ALLOW, .a2 = O_RDONLY | (1ull << 32)),
	R(&pol_d, 0, X64, "open", 0, 0, O_WRONLY | O_APPEND, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "open", 0, 0, O_RDONLY | O_DIRECTORY, ALLOW),
	R(&pol_d, 0, X64, "creat", 0, 0, 0644, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "openat2", 0, 3, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "open_by_handle_at", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY),
	R(&pol_d, 0, I386, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY),
	R(&pol_d, 0, X32, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY),
	R(&pol_d, SW_DEFENCE_OBJECT_OPENS, X64, "openat", 0, 3, 0, ALLOW, .a2 = O_WRONLY),
	/* a program that can never be root: an exclusive create makes a
	 * new file, no kernel object; root's is checked */
	R(&pol_d, 0, X64, "openat", 0, 3, 0, ALLOW, .a2 = O_WRONLY | O_CREAT | O_EXCL, .non_root = true),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY | O_CREAT, .non_root = true),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_RDWR, .non_root = true),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_RDONLY | O_TRUNC, .non_root = true),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, ALLOW, .a2 = O_RDONLY, .non_root = true),
	R(&pol_d, 0, X64, "open", 0, 0, O_RDWR | O_CREAT | O_EXCL, ALLOW, .non_root = true),
	R(&pol_d, 0, X64, "openat", 0, 3, 0, TRACE(SW_HINT_NONE), .a2 = O_WRONLY | O_CREAT | O_EXCL),
	/* System V IPC and message queues: every call on one stops; so do
	 * the calls that can leave the launch's IPC namespace */
	R(&pol_d, 0, X64, "shmget", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "semop", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "msgrcv", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "mq_open", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "mq_unlink", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, I386, NULL, 117 /* ipc */, 23, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, I386, NULL, 395 /* shmget */, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, I386, NULL, 420 /* semtimedop_time64 */, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "unshare", 0, 0x08000000 /* CLONE_NEWIPC */, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "unshare", 0, 0x00020000 /* CLONE_NEWNS */, 0, ALLOW),
	R(&pol_d, 0, X64, "setns", 0, 3, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, SW_DEFENCE_IPC, X64, "shmget", 0, 0, 0, ALLOW),
	/* keyrings: every keyring call stops */
	R(&pol_d, 0, X64, "keyctl", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "add_key", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, 0, X64, "request_key", 0, 0, 0, TRACE(SW_HINT_NONE)),
	R(&pol_d, SW_DEFENCE_KEYRINGS, X64, "keyctl", 0, 0, 0, ALLOW),
	/* argument widths (docs/security.md, route 9): EQ and MASKED_EQ compare the
	 * bits the kernel reads; other operators on a narrow argument, or an
	 * argument ABIs read at different widths, go to the supervisor */
	R(&pol_a, 0, X64, "tkill", 0, 1, 9, ERRNO(EACCES)),
	R(&pol_a, 0, X64, "tkill", 0, 1 | 1ull << 32, 9, ERRNO(EACCES)),
	R(&pol_a, 0, X64, "tkill", 0, 0xffffffff00000001ull, 9, ERRNO(EACCES)),
	R(&pol_a, 0, X64, "tkill", 0, 2, 9, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "tkill", 0, 1ull << 32, 9, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "tkill", 0, 1, 9, ERRNO(EACCES)),
	R(&pol_a, 0, X64, "setpgid", 0, 5, 0, TRACE(18)),
	R(&pol_a, 0, X64, "setpgid", 0, 1ull << 32 | 5, 0, TRACE(18)),
	R(&pol_a, 0, X64, "fchmod", 0, 3, 04755 | 1 << 16, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "fchmod", 0, 3, 0755 | 1 << 16, ALLOW),
	R(&pol_a, 0, X64, "setuid", 0, 0x10000, 0, TRACE(20)),
	R(&pol_a, 0, I386, "setuid", 0, 0x10000, 0, TRACE(20)),
	R(&pol_a, 0, X64, "lseek", 0, 3, 1ull << 32, ERRNO(EPERM)),	/* off_t: 64 bits */
	R(&pol_a, 0, X64, "lseek", 0, 3, 0, ALLOW),
	R(&pol_a, 0, X64, "kill", 0, SUP_PID | 1ull << 32, 19, ERRNO(ESRCH)),
	R(&pol_c, 0, X64, "kill", 0, SUP_PID | 1ull << 32, 19, TRACE(SW_HINT_NONE)),
	R(&pol_c, 0, X64, "kill", 0, SUP_PID | 0xffffffff00000000ull, 19, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "tgkill", 0, SUP_PID | 1ull << 32, 1, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "pidfd_open", 0, SUP_PID | 1ull << 32, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "rt_sigqueueinfo", 0, SUP_PID | 1ull << 32, 19, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "rt_tgsigqueueinfo", 0, SUP_PID | 1ull << 32, 1, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X32, "kill", 0, SUP_PID, 19, ERRNO(ESRCH)),
	R(&pol_c, 0, X32, "kill", 0, SUP_PID | 1ull << 32, 19, TRACE(SW_HINT_NONE)),
	R(&pol_c, 0, I386, "kill", 0, SUP_PID, 19, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X32, "tkill", 0, 1 | 1ull << 32, 9, ERRNO(EACCES)),
	/* seccomp(2) creating a user-notification listener (route 8) */
	R(&pol_a, 0, X64, "seccomp", 0, 1, 8, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "seccomp", 0, 1, 8 | 1 | 16 | 1ull << 32, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "seccomp", 0, 1 | 1ull << 32, 8, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "seccomp", 0, 3, 8, ERRNO(EPERM)),
	R(&pol_a, 0, I386, "seccomp", 0, 1, 8, ERRNO(EPERM)),
	R(&pol_a, 0, X32, "seccomp", 0, 1, 8, ERRNO(EPERM)),
	R(&pol_d, 0, X64, "seccomp", 0, 1, 8, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "seccomp", 0, 1, 1, ALLOW),
	R(&pol_a, 0, X64, "seccomp", 0, 3, 0, ALLOW),
	R(&pol_a, SW_DEFENCE_SECCOMP_LISTENER, X64, "seccomp", 0, 1, 8, ALLOW),
	/* clone3 under an errno default (route 10): ENOSYS, not the default's
	 * errno, so that libc falls back to clone; a policy naming clone3
	 * keeps its own word; without the defence the default decides */
	R(&pol_c, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_c, 0, I386, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_e, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_h, 0, X64, "clone3", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_h, 0, X64, "getpid", 0, 0, 0, ERRNO(EACCES)),
	/* rule 1 says what the default says: its NE on an int costs no stop */
	R(&pol_h, 0, X64, "getpid", 0, 5 | 1ull << 32, 0, ERRNO(EACCES)),
	R(&pol_n, SW_DEFENCE_CLONE3, X64, "clone3", 0, 0, 0, ERRNO(EPERM)),
	/* ... unless it is newer than every call the policy names */
	R(&pol_c, SW_DEFENCE_CLONE3, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	/* userfaultfds that take faults from the kernel (the supervisor's
	 * process_vm_readv) are refused, on every ABI, under any policy while
	 * a supervisor reads the program's memory; UFFD_USER_MODE_ONLY
	 * (bit 0 of an int) ones are the policy's */
	R(&pol_a, 0, X64, "userfaultfd", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "userfaultfd", 0, 02000000 /* O_CLOEXEC */, 0, ERRNO(EPERM)),
	R(&pol_a, 0, X64, "userfaultfd", 0, 1, 0, ALLOW),
	R(&pol_a, 0, X64, "userfaultfd", 0, 1 | 02000000, 0, ALLOW),
	R(&pol_a, 0, X64, "userfaultfd", 0, 1ull << 32, 0, ERRNO(EPERM)),
	R(&pol_a, 0, I386, "userfaultfd", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_a, 0, I386, "userfaultfd", 0, 1, 0, ALLOW),
	R(&pol_a, 0, X32, "userfaultfd", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_d, 0, X64, "userfaultfd", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "userfaultfd", 0, 1, 0, ERRNO(EPERM)),	/* the default */
	R(&pol_a, SW_DEFENCE_USERFAULTFD, X64, "userfaultfd", 0, 0, 0, ALLOW),
	/* /dev/userfaultfd: ioctl(fd, USERFAULTFD_IOC_NEW, flags) */
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 0),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 02000000),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa00 | 1ull << 32, ERRNO(EPERM), .a2 = 0),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 1ull << 32),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa00, ALLOW, .a2 = 1),
	R(&pol_a, 0, X64, "ioctl", 0, 3, 0xaa01, ALLOW, .a2 = 0),
	R(&pol_a, 0, I386, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 0),
	R(&pol_a, 0, I386, "ioctl", 0, 3, 0xaa00, ALLOW, .a2 = 1),
	R(&pol_a, 0, X32, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 0),
	R(&pol_d, 0, X64, "ioctl", 0, 3, 0xaa00, ERRNO(EPERM), .a2 = 0),
	R(&pol_a, SW_DEFENCE_USERFAULTFD, X64, "ioctl", 0, 3, 0xaa00, ALLOW, .a2 = 0),
	/* pidfd_getfd: its pidfd may name a process outside the session */
	R(&pol_a, 0, X64, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_a, 0, I386, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_a, 0, X32, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_c, 0, X64, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_i, 0, X64, "pidfd_getfd", 0, 3, 4, ALLOW),	/* named, allowed */
	R(&pol_i, 0, X64, "ptrace", 0, 0, 0, ERRNO(EPERM)),
	/* restricts nothing, no open checked */
	R(&pol_d, SW_DEFENCE_OBJECT_OPENS, X64, "pidfd_getfd", 0, 3, 4, ALLOW),
	/* opens checked: a refused descriptor must not be copied meanwhile */
	R(&pol_d, 0, X64, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_a, SW_DEFENCE_PIDFD_GETFD, X64, "pidfd_getfd", 0, 3, 4, ALLOW),
	/* pid-taking calls (reach.c): the caller itself (0) never stops;
	 * any other target does, and so does a "which" meaning a uid */
	R(&pol_a, 0, X64, "prlimit64", 0, 0, 7, ALLOW),
	R(&pol_a, 0, X64, "prlimit64", 0, 77, 7, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "prlimit64", 0, 77 | 1ull << 32, 7, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "prlimit64", 0, 1ull << 32, 7, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "prlimit64", 0, 77, 7, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "prlimit64", 0, 0, 7, ALLOW),
	R(&pol_a, 0, X32, "prlimit64", 0, 77, 7, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "sched_setaffinity", 0, 0, 8, ALLOW),
	R(&pol_a, 0, X64, "sched_setaffinity", 0, 77, 8, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "sched_setscheduler", 0, 77, 3, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "sched_setparam", 0, 77, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "sched_setattr", 0, 77, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "sched_setattr", 0, 0, 0, ALLOW),
	R(&pol_a, 0, X64, "setpriority", 0, 0 /* PRIO_PROCESS */, 0, ALLOW),
	R(&pol_a, 0, X64, "setpriority", 0, 1 /* PRIO_PGRP */, 0, ALLOW),
	R(&pol_a, 0, X64, "setpriority", 0, 0, 77, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "setpriority", 0, 2 /* PRIO_USER */, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "setpriority", 0, 2 | 1ull << 32, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, I386, "setpriority", 0, 2, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "ioprio_set", 0, 1 /* WHO_PROCESS */, 0, ALLOW),
	R(&pol_a, 0, X64, "ioprio_set", 0, 2 /* WHO_PGRP */, 77, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "ioprio_set", 0, 3 /* WHO_USER */, 0, TRACE(SW_HINT_NONE)),
	R(&pol_a, 0, X64, "ioprio_set", 0, 2 /* IOPRIO_WHO_PGRP: not a uid */, 0, ALLOW),
	R(&pol_c, 0, X64, "prlimit64", 0, 77, 7, ERRNO(EPERM)),	/* its default wins */
	R(&pol_d, 0, X64, "prlimit64", 0, 77, 7, TRACE(SW_HINT_NONE)),	/* restricts nothing */
	R(&pol_a, SW_DEFENCE_PID_CALLS, X64, "prlimit64", 0, 77, 7, ALLOW),
	R(&pol_a, SW_DEFENCE_PID_CALLS, X64, "setpriority", 0, 2, 0, ALLOW),
	/* unknown syscall numbers get the default errno (ENOSYS here) */
	R(&pol_e, 0, X64, NULL, 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_e, 0, X64, "read", 0, 0, 0, ALLOW),
	/* Calls newer than the newest one the policy names get ENOSYS, as
	 * under runc (its patchbpf stub), whatever the default says, unless
	 * the default allows; per ABI; calls up to that one get the default */
	R(&pol_n, 0, X64, NULL, 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X64, NULL, 442, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X64, NULL, 0x3fffffff, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X64, NULL, 0x80000000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X64, "epoll_pwait2", 0, 0, 0, ALLOW),
	R(&pol_n, 0, X64, NULL, 400, 0, 0, ERRNO(EPERM)),	/* a hole below */
	R(&pol_n, 0, X64, "getuid", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_n, 0, X64, "mkdir", 0, 0, 0, ERRNO(EACCES)),
	R(&pol_n, 0, X64, "futex_waitv", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, I386, NULL, 442, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, I386, NULL, 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, I386, "epoll_pwait2", 0, 0, 0, ALLOW),
	R(&pol_n, 0, I386, "getuid32", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_n, 0, X32, NULL, 0x40000000 | 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X32, NULL, 0x40000000 | 442, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X32, NULL, 0xffffffff, 0, 0, ERRNO(ENOSYS)),
	R(&pol_n, 0, X32, "epoll_pwait2", 0, 0, 0, ALLOW),
	R(&pol_n, 0, X32, "mkdir", 0, 0, 0, ERRNO(EACCES)),
	R(&pol_n, 0, X32, "getuid", 0, 0, 0, ERRNO(EPERM)),
	/* an ABI the policy leaves out stays killed */
	R(&pol_p, 0, X64, NULL, 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_p, 0, X32, NULL, 0x40000000 | 1000, 0, 0, KILLP),
	R(&pol_p, 0, I386, NULL, 1000, 0, 0, KILLP),
	R(&pol_p, 0, AARCH64, NULL, 1000, 0, 0, KILLP),
	/* i386: newer than getpid and exit_group (252), whatever the direct
	 * socket call's number (359): ENOSYS, the direct socket call too
	 * (libc then uses socketcall, 102), as under runc */
	R(&pol_s, 0, I386, NULL, 300, 0, 0, ERRNO(ENOSYS)),
	R(&pol_s, 0, I386, NULL, 359, 0, 0, ERRNO(ENOSYS)),
	R(&pol_s, 0, I386, "socketcall", 0, 1, 0, ALLOW),
	R(&pol_s, 0, I386, NULL, 200, 0, 0, ERRNO(EPERM)),
	R(&pol_s, 0, X64, NULL, 300, 0, 0, ERRNO(ENOSYS)),
	R(&pol_s, 0, X64, "socket", 0, 1, 0, ALLOW),
	/* a kill default: new calls get ENOSYS instead, as under runc */
	R(&pol_k, 0, X64, NULL, 1000, 0, 0, ERRNO(ENOSYS)),
	R(&pol_k, 0, X64, "getuid", 0, 0, 0, KILLP),
	/* an allowing default, or no call named: no ENOSYS rule */
	R(&pol_a, 0, X64, NULL, 1000, 0, 0, ALLOW),
	R(&pol_q, 0, X64, NULL, 1000, 0, 0, ERRNO(EPERM)),
	R(&pol_q, 0, I386, NULL, 1000, 0, 0, ERRNO(EPERM)),
	/* sysward's refusals stay as they are, newer or not; other calls
	 * newer than exit_group (231) get ENOSYS; a rule that does not
	 * apply names nothing */
	R(&pol_o, 0, X64, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_o, 0, X64, "io_uring_enter", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_o, 0, X64, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_o, 0, X64, "userfaultfd", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_o, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_o, 0, I386, "io_uring_setup", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_o, 0, X32, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	R(&pol_o, 0, X64, "userfaultfd", 0, 1, 0, ERRNO(EPERM)),	/* the policy's: default */
	R(&pol_o, 0, X64, "process_madvise", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_o, 0, X64, "futex_waitv", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_o, 0, X64, "pidfd_open", 0, SUP_PID, 0, ERRNO(ENOSYS)),
	R(&pol_o, 0, X64, "getuid", 0, 0, 0, ERRNO(EPERM)),
	R(&pol_oi, 0, X64, "io_uring_setup", 0, 0, 0, ERRNO(ENOSYS)),
	R(&pol_oi, 0, X64, "pidfd_getfd", 0, 3, 4, ERRNO(EPERM)),
	/* An audit log or a record sees the errno refusals: a stop, with
	 * the hint of the rule (the default: none); conditions stay in BPF,
	 * so only the refused calls stop.  Kill and trap stay the kernel's,
	 * and so do the defences (an audit log alone: SEEN). */
	R(&pol_a, 0, X64, "socket", 0, 2, 0, TRACE(1), .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "socket", 0, 10, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "close", 0, 0x35, 0, TRACE(11), .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "close", 0, 0x45, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "kill", 0, 1, 9, TRACE(7), .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "mkdir", 0, 0, 0, KILLP, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "uname", 0, 0, 0, SECCOMP_RET_TRAP, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "getpid", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "ptrace", 0, 0, 0, ERRNO(EPERM), .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS), .refusals = SW_REFUSALS_SEEN),
	R(&pol_c, 0, X64, "mkdir", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_SEEN),
	R(&pol_c, 0, X64, "getpid", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_c, 0, X64, "socketpair", 0, 40, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_SEEN),
	R(&pol_c, 0, X64, "socketpair", 0, 41, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_c, 0, X64, "clone3", 0, 0, 0, ERRNO(ENOSYS), .refusals = SW_REFUSALS_SEEN),
	R(&pol_e, 0, X64, NULL, 1000, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_SEEN),
	/* A record (--report, --gate) sees every refusal too, kill and
	 * trap rules and the defences' (no clone3 ERRNO in the policy's
	 * filter then: the defence stops); a kill the supervisor hands back
	 * to the kernel is its sentinel number, which the prefix kills
	 * (filter.c, sw_filter_kernel_kill_nr) -- only there. */
	R(&pol_a, 0, X64, "mkdir", 0, 0, 0, TRACE(6), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "uname", 0, 0, 0, TRACE(12), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "socket", 0, 2, 0, TRACE(1), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "socket", 0, 10, 0, ALLOW, .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "getpid", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "ptrace", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "io_uring_setup", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, "clone3", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_c, 0, X64, "clone3", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, NULL, 0x3ffffffe, 0, 0, KILLP, .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, I386, NULL, 0x3ffffffe, 0, 0, KILLP, .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, NULL, 0x3ffffffd, 0, 0, SECCOMP_RET_KILL_THREAD, .refusals = SW_REFUSALS_RECORDED),
	R(&pol_a, 0, X64, NULL, 0x3ffffffe, 0, 0, ALLOW, .refusals = SW_REFUSALS_SEEN),
	R(&pol_a, 0, X64, NULL, 0x3ffffffe, 0, 0, ALLOW),
	/* Complain mode sees every refusal, the defences' too; what the
	 * policy allows stays on the fast path. */
	R(&pol_a, 0, X64, "mkdir", 0, 0, 0, TRACE(6), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "uname", 0, 0, 0, TRACE(12), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "socket", 0, 2, 0, TRACE(1), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "socket", 0, 10, 0, ALLOW, .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "getpid", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "ptrace", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "process_vm_writev", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "io_uring_setup", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "clone3", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "ioctl", 0, 0, 0x5412 /* TIOCSTI */, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_a, 0, X64, "ioctl", 0, 0, 0x541b /* FIONREAD */, ALLOW, .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_c, 0, X64, "clone3", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_c, 0, X64, "mkdir", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_d, 0, X64, "ptrace", 0, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_d, 0, X64, "getpid", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_COMPLAIN),
	/* an ABI the filter does not cover is still killed by the kernel */
	R(&pol_b, 0, I386, "getpid", 0, 0, 0, KILLP, .refusals = SW_REFUSALS_COMPLAIN),
	/* calls newer than the policy: the ENOSYS prefix stops too */
	R(&pol_n, 0, X64, NULL, 1000, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_SEEN),
	R(&pol_n, 0, X64, NULL, 1000, 0, 0, TRACE(SW_HINT_NONE), .refusals = SW_REFUSALS_COMPLAIN),
	R(&pol_n, 0, X64, "epoll_pwait2", 0, 0, 0, ALLOW, .refusals = SW_REFUSALS_COMPLAIN),
};

/* The kernel runs every filter, newest first, and keeps the action of
 * highest precedence (lowest as s32); a tie keeps the newest's. */
static uint32_t combine(uint32_t older, uint32_t newer)
{
	return (int32_t)(older & SECCOMP_RET_ACTION_FULL) <
		       (int32_t)(newer & SECCOMP_RET_ACTION_FULL)
		       ? older : newer;
}

/* prog: for the policy's filter, which gets the ENOSYS rule in front as
 * at a launch; NULL for the defences' */
static uint32_t run_one(void *fctx, const struct sw_program *prog,
			const struct seccomp_data *d)
{
	struct sw_error err = { 0 };
	struct sock_filter *insns = NULL;
	size_t n = 0;
	uint32_t ret;

	ck_assert_msg(sw_filter_export(fctx, (void **)&insns, &n, &err) == 0,
		      "export: %s", err.msg);
	if (prog)
		ck_assert_msg(sw_filter_add_enosys(prog, (void **)&insns, &n, &err) == 0,
			      "enosys: %s", err.msg);
	ret = bpf_run(insns, n, d);
	free(insns);
	return ret;
}

static uint32_t run_row(const struct row *r)
{
	struct sw_policy_ctx ctx = { .caps = 0, .arch = SCMP_ARCH_X86_64,
				     .kernel = (6 << 16) | (1 << 8) };
	struct sw_program *prog = NULL;
	struct sw_error err = { 0 };
	void *fctx = NULL, *dctx = NULL;
	struct seccomp_data d = { 0 };
	uint32_t ret;
	int nr = r->nr;

	ck_assert_int_eq(sw_program_new(&prog, r->p, &ctx, r->defences_off,
					SUP_PID, &err), 0);
	prog->refusals = r->refusals;
	prog->excl_creates_new = r->non_root;
	ck_assert_msg(sw_filter_build(prog, &fctx, &err) == 0, "build: %s", err.msg);
	ck_assert_msg(sw_filter_build_defences(prog, &dctx, &err) == 0, "build: %s",
		      err.msg);
	if (r->abi == AARCH64) {
		d.arch = AUDIT_ARCH_AARCH64;
	} else {
		d.arch = sw_abi_token(r->abi) == SCMP_ARCH_X32 ? AUDIT_ARCH_X86_64
							      : sw_abi_token(r->abi);
		if (r->sys) {
			nr = seccomp_syscall_resolve_name_arch(sw_abi_token(r->abi), r->sys);
			ck_assert_msg(nr >= 0, "line %d: %s unknown on %s", r->line,
				      r->sys, sw_abi_name(r->abi));
		}
	}
	d.nr = nr;
	d.args[0] = r->a0;
	d.args[1] = r->a1;
	d.args[2] = r->a2;
	/* The defence filter is loaded first (older), the policy's last. */
	ret = combine(run_one(dctx, NULL, &d), run_one(fctx, prog, &d));
	sw_filter_free(fctx);
	sw_filter_free(dctx);
	sw_program_free(prog);
	return ret;
}

START_TEST(test_filter_table)
{
	const struct row *r = &rows[_i];
	uint32_t got = run_row(r);

	ck_assert_msg(got == r->expect,
		      "line %d: %s %s(%#llx, %#llx): got %#x, expected %#x",
		      r->line, r->abi == AARCH64 ? "aarch64" : sw_abi_name(r->abi),
		      r->sys ? r->sys : "?", (unsigned long long)r->a0,
		      (unsigned long long)r->a1, got, r->expect);
}
END_TEST

START_TEST(test_filter_loads_in_kernel_checker_limits)
{
	/* Every compiled policy fits the kernel's instruction limit and
	 * ends in a return (the interpreter never falls off the end). */
	const struct sw_policy *ps[] = { &pol_a, &pol_b, &pol_c, &pol_d, &pol_e,
					 &pol_n, &pol_o, &pol_p, &pol_k, &pol_s };

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		struct sw_policy_ctx ctx = { .arch = SCMP_ARCH_X86_64 };
		struct sw_program *prog = NULL;
		struct sw_error err = { 0 };
		void *fctx = NULL;
		struct sock_filter *insns = NULL;
		size_t n = 0;

		ck_assert_int_eq(sw_program_new(&prog, ps[i], &ctx, 0, SUP_PID, &err), 0);
		for (int k = 0; k < 2; k++) {
			ck_assert_int_eq(k ? sw_filter_build_defences(prog, &fctx, &err)
					   : sw_filter_build(prog, &fctx, &err), 0);
			ck_assert_int_eq(sw_filter_export(fctx, (void **)&insns, &n, &err), 0);
			if (!k)
				ck_assert_int_eq(sw_filter_add_enosys(prog, (void **)&insns,
								      &n, &err), 0);
			ck_assert_uint_gt(n, 0);
			ck_assert_uint_le(n, BPF_MAXINSNS);
			ck_assert_uint_eq(BPF_CLASS(insns[n - 1].code), BPF_RET);
			free(insns);
			insns = NULL;
			sw_filter_free(fctx);
		}
		sw_program_free(prog);
	}
}
END_TEST

START_TEST(test_filter_errors)
{
	struct sw_policy_ctx ctx = { .arch = SCMP_ARCH_X86_64 };
	struct sw_program *prog = NULL;
	struct sw_error err = { 0 };
	struct sw_policy bad_arch = pol_d;

	bad_arch.architectures = N("SCMP_ARCH_AARCH64");
	bad_arch.n_architectures = 1;
	ck_assert_int_eq(sw_program_new(&prog, &bad_arch, &ctx, 0, SUP_PID, &err), -EINVAL);
	ck_assert_str_eq(err.msg,
			 "d.json: architectures[0]: \"SCMP_ARCH_AARCH64\" is not an ABI this x86-64 machine runs (expected SCMP_ARCH_X86_64, SCMP_ARCH_X86 or SCMP_ARCH_X32)");
	ck_assert_str_eq(err.path, "architectures[0]");
	ck_assert_ptr_null(prog);
}
END_TEST

/* Rules a defence overrides (sw_program_overridden), from the one table
 * of defences: "rule.name syscall route" per report, in order. */
static const struct overridden_row {
	const char *json;
	const char *want;
} overridden_rows[] = {
	/* restricts (mkdir), allows io_uring_setup: overridden (route 2) */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
	  "{\"names\":[\"mkdir\"],\"action\":\"SCMP_ACT_ERRNO\"},"
	  "{\"names\":[\"read\",\"io_uring_setup\"],\"action\":\"SCMP_ACT_ALLOW\"}]}",
	  "1.1 io_uring_setup 2 \"allowIoUring\": true;" },
	/* the opt-in: the policy decides */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"allowIoUring\":true,\"syscalls\":["
	  "{\"names\":[\"mkdir\"],\"action\":\"SCMP_ACT_ERRNO\"},"
	  "{\"names\":[\"io_uring_setup\"],\"action\":\"SCMP_ACT_ALLOW\"}]}", "" },
	/* restricts nothing: io_uring is refused all the same, for the
	 * connections its operations would make unchecked (route 19) and
	 * the opens (route 20); ptrace's always */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
	  "{\"names\":[\"io_uring_setup\",\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\"}]}",
	  "0.1 ptrace 4 -;0.0 io_uring_setup 2 \"allowIoUring\": true;" },
	/* a refusing rule is not overridden; a supervised one is */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
	  "{\"names\":[\"clone3\"],\"action\":\"SCMP_ACT_ERRNO\"},"
	  "{\"names\":[\"process_vm_writev\"],\"action\":\"SYSWARD_ACT_SKIP\"}]}",
	  "1.0 process_vm_writev 4 -;" },
	/* conditional defences (ioctl TIOCSTI) leave the call to the policy;
	 * a rule allowing pidfd_getfd turns its defence off */
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":["
	  "{\"names\":[\"ioctl\",\"pidfd_getfd\"],\"action\":\"SCMP_ACT_ALLOW\"}]}", "" },
	/* a rule gated on a capability the program lacks does not apply */
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":["
	  "{\"names\":[\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\","
	  "\"includes\":{\"caps\":[\"CAP_SYS_PTRACE\"]}}]}", "" },
};

static void collect_overridden(const struct sw_overridden *o, void *ud)
{
	char *out = ud;
	size_t len = strlen(out);

	snprintf(out + len, 512 - len, "%zu.%zu %s %s %s;", o->rule, o->name,
		 o->syscall, o->route, o->opt_in ? o->opt_in : "-");
}

START_TEST(test_overridden)
{
	const struct overridden_row *r = &overridden_rows[_i];
	struct sw_policy_ctx ctx = { .arch = SCMP_ARCH_X86_64 };
	struct sw_program *prog = NULL;
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	char out[512] = "";

	ck_assert_msg(sw_policy_load_string(r->json, strlen(r->json), "o.json",
					    &p, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sw_program_new(&prog, p, &ctx, 0, SUP_PID, &err), 0);
	sw_program_overridden(prog, collect_overridden, out);
	ck_assert_msg(strcmp(out, r->want) == 0, "row %d:\n got: %s\nwant: %s",
		      _i, out, r->want);
	sw_program_free(prog);
	sw_policy_free(p);
}
END_TEST

static Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("compile");

	tcase_add_loop_test(tc, test_filter_table, 0, sizeof(rows) / sizeof(rows[0]));
	tcase_add_test(tc, test_filter_loads_in_kernel_checker_limits);
	tcase_add_test(tc, test_filter_errors);
	tcase_add_loop_test(tc, test_overridden, 0, sizeof(overridden_rows) / sizeof(overridden_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(filter_suite());
}
