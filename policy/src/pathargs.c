// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which syscall arguments are paths, and when the kernel takes NULL for
 * one: the one table (sysward/pathargs.h).  The policy's lint reads it (a
 * "paths" condition on an argument that is no path), and so does the
 * engine: audit.c (decoding path arguments), record.c and its report and
 * learned policy, decide.c (a path condition on a NULL pointer).  It is
 * here, not in the engine, because the engine links this library.
 *
 * NULL is no path: the kernel either fails the call with EFAULT (it reads
 * a string from address 0) or, for a few calls, acts on a file descriptor
 * instead of a name.  The second kind is what "null" says below, measured
 * on Linux 6.18:
 *   utimensat(fd, NULL, ...), futimesat(fd, NULL, ...)   fd != AT_FDCWD:
 *       the times of fd itself (what futimens(3) and `touch` use);
 *   newfstatat/fstatat64/statx(fd, NULL, ..., AT_EMPTY_PATH) (6.11+):
 *       fd itself (AT_FDCWD: the working directory);
 *   getxattrat/setxattrat/listxattrat/removexattrat(fd, NULL,
 *       AT_EMPTY_PATH, ...) (6.13+): fd itself;
 *   mount(NULL, target, ...): no source (remount, bind propagation);
 *   acct(NULL): accounting off.
 * Everything else, including AT_EMPTY_PATH calls that still copy the
 * string (fchownat, fchmodat2, faccessat2, linkat, execveat,
 * name_to_handle_at, open_tree: EFAULT on 6.18), is EFAULT.  A kernel
 * older than the one a line names answers EFAULT itself for the calls we
 * let through; a NULL pointer is a register value, nothing that another
 * thread could change, so letting the kernel decide is never a race.
 */
#include <fcntl.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/pathargs.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

enum null_rule {
	NULL_EFAULT,		/* the kernel reads the string: EFAULT */
	NULL_ALWAYS,		/* NULL has a meaning of its own */
	NULL_IF_FD,		/* arg `rule_arg` (an int fd) != AT_FDCWD */
	NULL_IF_EMPTY_PATH,	/* AT_EMPTY_PATH in arg `rule_arg` (int flags) */
};

static const struct {
	const char *name;
	uint8_t args;		/* bit i: argument i is a path */
	uint8_t null_arg;	/* the path argument `null` is about */
	uint8_t null;		/* enum null_rule */
	uint8_t rule_arg;
} path_syscalls[] = {
#define P(name, args) { name, args, 0, NULL_EFAULT, 0 }
#define N(name, args, i, rule, ra) { name, args, i, rule, ra }
	P("open", 1 << 0), P("openat", 1 << 1), P("openat2", 1 << 1),
	P("creat", 1 << 0), P("mkdir", 1 << 0), P("mkdirat", 1 << 1),
	P("rmdir", 1 << 0), P("unlink", 1 << 0), P("unlinkat", 1 << 1),
	P("rename", 3), P("renameat", (1 << 1) | (1 << 3)),
	P("renameat2", (1 << 1) | (1 << 3)), P("link", 3),
	P("linkat", (1 << 1) | (1 << 3)), P("symlink", 3),
	P("symlinkat", (1 << 0) | (1 << 2)), P("readlink", 1 << 0),
	P("readlinkat", 1 << 1), P("execve", 1 << 0), P("execveat", 1 << 1),
	P("stat", 1 << 0), P("lstat", 1 << 0), P("stat64", 1 << 0),
	P("lstat64", 1 << 0),
	N("newfstatat", 1 << 1, 1, NULL_IF_EMPTY_PATH, 3),
	N("fstatat64", 1 << 1, 1, NULL_IF_EMPTY_PATH, 3),
	N("statx", 1 << 1, 1, NULL_IF_EMPTY_PATH, 2),
	P("access", 1 << 0), P("faccessat", 1 << 1),
	P("faccessat2", 1 << 1), P("chdir", 1 << 0), P("chroot", 1 << 0),
	P("chmod", 1 << 0), P("fchmodat", 1 << 1), P("fchmodat2", 1 << 1),
	P("chown", 1 << 0), P("lchown", 1 << 0), P("fchownat", 1 << 1),
	P("truncate", 1 << 0), P("mknod", 1 << 0), P("mknodat", 1 << 1),
	N("utimensat", 1 << 1, 1, NULL_IF_FD, 0),
	N("futimesat", 1 << 1, 1, NULL_IF_FD, 0),
	P("utimes", 1 << 0), P("utime", 1 << 0),
	N("getxattrat", 1 << 1, 1, NULL_IF_EMPTY_PATH, 2),
	N("setxattrat", 1 << 1, 1, NULL_IF_EMPTY_PATH, 2),
	N("listxattrat", 1 << 1, 1, NULL_IF_EMPTY_PATH, 2),
	N("removexattrat", 1 << 1, 1, NULL_IF_EMPTY_PATH, 2),
	N("mount", 3, 0, NULL_ALWAYS, 0), P("umount2", 1 << 0),
	P("statfs", 1 << 0), P("uselib", 1 << 0), P("swapon", 1 << 0),
	P("pivot_root", 3), N("acct", 1 << 0, 0, NULL_ALWAYS, 0),
#undef P
#undef N
};

static int find(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(path_syscalls) / sizeof(path_syscalls[0]); i++)
		if (!strcmp(path_syscalls[i].name, name))
			return (int)i;
	return -1;
}

uint8_t sw_path_args(const char *name)
{
	int i = find(name);

	return i < 0 ? 0 : path_syscalls[i].args;
}

bool sw_path_null_ok(uint32_t arch, uint64_t nr, unsigned int index,
		     const uint64_t args[6])
{
	char *name;
	int i;

	if (!arch || index >= 6)
		return false;
	/* Only ever asked for a NULL argument, never on the hot path. */
	name = seccomp_syscall_resolve_num_arch(arch, (int)nr);
	i = find(name);
	free(name);
	if (i < 0 || path_syscalls[i].null_arg != index)
		return false;
	switch (path_syscalls[i].null) {
	case NULL_ALWAYS:
		return true;
	case NULL_IF_FD:
		/* dirfd is an int: the kernel reads the low 32 bits. */
		return (int32_t)args[path_syscalls[i].rule_arg] != AT_FDCWD;
	case NULL_IF_EMPTY_PATH:
		return ((uint32_t)args[path_syscalls[i].rule_arg] & AT_EMPTY_PATH) != 0;
	default:
		return false;
	}
}
