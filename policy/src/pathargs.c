// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which syscall arguments are paths, and when the kernel takes NULL for
 * one; which are unix socket addresses, and how a condition spells one
 * (at the end): the one table (sysward/pathargs.h).  The policy's lint
 * reads it (a "paths" condition on an argument that is neither), and so
 * does the engine: program.c (what a condition reads), audit.c (decoding
 * path arguments), record.c and its report and learned policy, decide.c
 * (a path condition on a NULL pointer), peers.c (a peer's name against a
 * grant).  It is here, not in the engine, because the engine links this
 * library.
 *
 * Every x86_64, i386 and x32 call the kernel resolves a path name in
 * (getname(), user_path_at(), do_sys_open(), ...), by libseccomp's
 * names, from the SYSCALL_DEFINEs of Linux 6.12 and, for the calls
 * since (the *xattrat calls 6.13, open_tree_attr 6.15, file_getattr and
 * file_setattr 6.17), measured on 6.18.  A name libseccomp does not know
 * yet is never asked about, and costs nothing here.  Strings that are no
 * path are not listed: xattr names, fsconfig keys and values, fsopen's
 * filesystem type, mount's type, mq_open's queue name, memfd and key
 * descriptions, module names and arguments.  Nor are two arguments that
 * are a path for one command only: quotactl's addr (Q_QUOTAON; a struct
 * for the others) and fsconfig's value (FSCONFIG_SET_PATH and
 * _SET_PATH_EMPTY; a string or a blob for the others).  A bit here is
 * for every call of the name, and the audit log would decode a struct.
 *
 * The index is the same in every ABI but for fanotify_mark: i386 splits
 * its 64-bit mask over two arguments, moving dfd and pathname one on.
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
 *       AT_EMPTY_PATH, ...) (6.13+), file_getattr/file_setattr(fd, NULL,
 *       ..., AT_EMPTY_PATH) (6.17+): fd itself;
 *   move_mount(fd, NULL, ...) with MOVE_MOUNT_F_EMPTY_PATH, move_mount(...,
 *       fd, NULL, ...) with MOVE_MOUNT_T_EMPTY_PATH: fd itself;
 *   fanotify_mark(..., dfd, NULL): the file dfd is (AT_FDCWD: EBADF);
 *   quotactl(cmd, NULL, ...): Q_SYNC syncs every filesystem, others ENODEV;
 *   mount(NULL, target, ...): no source (remount, bind propagation);
 *   acct(NULL): accounting off.
 * Everything else, including the calls whose flag names an empty path but
 * still copy the string (fchownat, fchmodat2, faccessat2, linkat,
 * execveat, name_to_handle_at, open_tree, open_tree_attr, mount_setattr
 * with AT_EMPTY_PATH, fspick with FSPICK_EMPTY_PATH: EFAULT on 6.18), is
 * EFAULT.  A kernel older than the one a line names answers EFAULT itself
 * for the calls we let through; a NULL pointer is a register value,
 * nothing that another thread could change, so letting the kernel decide
 * is never a race.
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "sysward/pathargs.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
/* <linux/mount.h>'s, spelt out: its older copies lack them. */
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#define MOVE_MOUNT_T_EMPTY_PATH 0x40

enum null_rule {
	NULL_EFAULT,		/* the kernel reads the string: EFAULT */
	NULL_ALWAYS,		/* NULL has a meaning of its own */
	NULL_IF_FD,		/* arg `rule_arg` (an int fd) != AT_FDCWD */
	NULL_IF_FLAG,		/* `flag` set in arg `rule_arg` (an int) */
};

enum abis {
	ALL_ABIS,
	NOT_I386,		/* x86_64 and x32 */
	I386_ONLY,
};

struct null_ok {
	uint8_t arg;		/* the path argument this is about */
	uint8_t rule;		/* enum null_rule */
	uint8_t rule_arg;
	uint32_t flag;		/* NULL_IF_FLAG */
};

static const struct {
	const char *name;
	uint8_t abis;		/* enum abis: which ABIs the row is for */
	uint8_t args;		/* bit i: argument i is a path */
	struct null_ok null[2];	/* rule NULL_EFAULT: no more */
} path_syscalls[] = {
#define P(name, args) { name, ALL_ABIS, args, { { 0 } } }
#define N(name, args, i, rule, ra) { name, ALL_ABIS, args, { { i, rule, ra, 0 } } }
#define F(name, args, i, ra, flag) \
	{ name, ALL_ABIS, args, { { i, NULL_IF_FLAG, ra, flag } } }
	/* fs/open.c, fs/namei.c, fs/stat.c, fs/exec.c, arch/x86 */
	P("open", 1 << 0), P("openat", 1 << 1), P("openat2", 1 << 1),
	P("creat", 1 << 0), P("mkdir", 1 << 0), P("mkdirat", 1 << 1),
	P("rmdir", 1 << 0), P("unlink", 1 << 0), P("unlinkat", 1 << 1),
	P("rename", 3), P("renameat", (1 << 1) | (1 << 3)),
	P("renameat2", (1 << 1) | (1 << 3)), P("link", 3),
	P("linkat", (1 << 1) | (1 << 3)), P("symlink", 3),
	P("symlinkat", (1 << 0) | (1 << 2)), P("readlink", 1 << 0),
	P("readlinkat", 1 << 1), P("execve", 1 << 0), P("execveat", 1 << 1),
	P("stat", 1 << 0), P("lstat", 1 << 0), P("stat64", 1 << 0),
	P("lstat64", 1 << 0), P("oldstat", 1 << 0), P("oldlstat", 1 << 0),
	F("newfstatat", 1 << 1, 1, 3, AT_EMPTY_PATH),
	F("fstatat64", 1 << 1, 1, 3, AT_EMPTY_PATH),
	F("statx", 1 << 1, 1, 2, AT_EMPTY_PATH),
	P("access", 1 << 0), P("faccessat", 1 << 1),
	P("faccessat2", 1 << 1), P("chdir", 1 << 0), P("chroot", 1 << 0),
	P("chmod", 1 << 0), P("fchmodat", 1 << 1), P("fchmodat2", 1 << 1),
	P("chown", 1 << 0), P("lchown", 1 << 0), P("chown32", 1 << 0),
	P("lchown32", 1 << 0), P("fchownat", 1 << 1),
	P("truncate", 1 << 0), P("truncate64", 1 << 0),
	P("mknod", 1 << 0), P("mknodat", 1 << 1),
	N("utimensat", 1 << 1, 1, NULL_IF_FD, 0),
	N("utimensat_time64", 1 << 1, 1, NULL_IF_FD, 0),
	N("futimesat", 1 << 1, 1, NULL_IF_FD, 0),
	P("utimes", 1 << 0), P("utime", 1 << 0),
	P("statfs", 1 << 0), P("statfs64", 1 << 0), P("uselib", 1 << 0),
	/* fs/xattr.c: the path, never the attribute's name */
	P("getxattr", 1 << 0), P("lgetxattr", 1 << 0),
	P("setxattr", 1 << 0), P("lsetxattr", 1 << 0),
	P("listxattr", 1 << 0), P("llistxattr", 1 << 0),
	P("removexattr", 1 << 0), P("lremovexattr", 1 << 0),
	F("getxattrat", 1 << 1, 1, 2, AT_EMPTY_PATH),
	F("setxattrat", 1 << 1, 1, 2, AT_EMPTY_PATH),
	F("listxattrat", 1 << 1, 1, 2, AT_EMPTY_PATH),
	F("removexattrat", 1 << 1, 1, 2, AT_EMPTY_PATH),
	F("file_getattr", 1 << 1, 1, 4, AT_EMPTY_PATH),
	F("file_setattr", 1 << 1, 1, 4, AT_EMPTY_PATH),
	/* fs/namespace.c, fs/fsopen.c, fs/fhandle.c */
	N("mount", 3, 0, NULL_ALWAYS, 0), P("umount", 1 << 0),
	P("umount2", 1 << 0), P("pivot_root", 3),
	P("open_tree", 1 << 1), P("open_tree_attr", 1 << 1),
	P("mount_setattr", 1 << 1), P("fspick", 1 << 1),
	{ "move_mount", ALL_ABIS, (1 << 1) | (1 << 3),
	  { { 1, NULL_IF_FLAG, 4, MOVE_MOUNT_F_EMPTY_PATH },
	    { 3, NULL_IF_FLAG, 4, MOVE_MOUNT_T_EMPTY_PATH } } },
	P("name_to_handle_at", 1 << 1),
	/* fs/notify */
	P("inotify_add_watch", 1 << 1),
	{ "fanotify_mark", NOT_I386, 1 << 4, { { 4, NULL_ALWAYS, 0, 0 } } },
	{ "fanotify_mark", I386_ONLY, 1 << 5, { { 5, NULL_ALWAYS, 0, 0 } } },
	/* mm/swapfile.c, fs/quota/quota.c, kernel/acct.c */
	P("swapon", 1 << 0), P("swapoff", 1 << 0),
	N("quotactl", 1 << 1, 1, NULL_ALWAYS, 0),
	N("acct", 1 << 0, 0, NULL_ALWAYS, 0),
#undef P
#undef N
#undef F
};

#define N_ROWS (sizeof(path_syscalls) / sizeof(path_syscalls[0]))

static bool row_for(size_t i, uint32_t arch)
{
	switch (path_syscalls[i].abis) {
	case NOT_I386:
		return arch != SCMP_ARCH_X86;
	case I386_ONLY:
		return arch == SCMP_ARCH_X86;
	default:
		return true;
	}
}

static int find(uint32_t arch, const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < N_ROWS; i++)
		if (!strcmp(path_syscalls[i].name, name) && row_for(i, arch))
			return (int)i;
	return -1;
}

uint8_t sw_path_args(uint32_t arch, const char *name)
{
	uint8_t args = 0;

	if (arch) {
		int i = find(arch, name);

		return i < 0 ? 0 : path_syscalls[i].args;
	}
	/* Any ABI: every row of the name. */
	for (size_t i = 0; name && i < N_ROWS; i++)
		if (!strcmp(path_syscalls[i].name, name))
			args |= path_syscalls[i].args;
	return args;
}

bool sw_path_null_ok(uint32_t arch, uint64_t nr, unsigned int index,
		     const uint64_t args[6])
{
	const struct null_ok *n = NULL;
	char *name;
	int i;

	if (!arch || index >= 6)
		return false;
	/* Only ever asked for a NULL argument, never on the hot path. */
	name = seccomp_syscall_resolve_num_arch(arch, (int)nr);
	i = find(arch, name);
	free(name);
	if (i < 0)
		return false;
	for (size_t k = 0; k < 2 && !n; k++)
		if (path_syscalls[i].null[k].rule != NULL_EFAULT &&
		    path_syscalls[i].null[k].arg == index)
			n = &path_syscalls[i].null[k];
	if (!n)
		return false;
	switch (n->rule) {
	case NULL_ALWAYS:
		return true;
	case NULL_IF_FD:
		/* dirfd is an int: the kernel reads the low 32 bits. */
		return (int32_t)args[n->rule_arg] != AT_FDCWD;
	case NULL_IF_FLAG:
		return ((uint32_t)args[n->rule_arg] & n->flag) != 0;
	default:
		return false;
	}
}

/*
 * Unix socket addresses.  The kernel takes one from connect(2), bind(2)
 * and sendto(2) (an address and its length, net/socket.c) and from
 * sendmsg(2)'s msg_name; sendmmsg(2) too, but it writes each message's
 * msg_len back into the same array, so its addresses cannot be pinned in
 * the path guard's read-only copy, and it is not listed (a policy that
 * must decide datagrams' destinations denies it: policy/README.md).  The
 * same index on every x86 ABI (i386's direct socket calls and
 * socketcall's subcalls have this order too).
 */
static const struct {
	const char *name;
	struct sw_addr_arg arg;
} addr_syscalls[] = {
	{ "bind", { 1, SW_ARG_SOCKADDR, 2 } },
	{ "connect", { 1, SW_ARG_SOCKADDR, 2 } },
	{ "sendmsg", { 1, SW_ARG_MSGHDR, 0 } },
	{ "sendto", { 4, SW_ARG_SOCKADDR, 5 } },
};

bool sw_addr_arg(const char *name, struct sw_addr_arg *ret)
{
	for (size_t i = 0; name && i < sizeof(addr_syscalls) / sizeof(addr_syscalls[0]); i++)
		if (!strcmp(addr_syscalls[i].name, name)) {
			*ret = addr_syscalls[i].arg;
			return true;
		}
	return false;
}

uint8_t sw_string_args(uint32_t arch, const char *name)
{
	struct sw_addr_arg a;
	uint8_t args = sw_path_args(arch, name);

	if (sw_addr_arg(name, &a))
		args |= (uint8_t)(1u << a.index);
	return args;
}

enum sw_arg_kind sw_cond_arg_kind(uint32_t arch, const char *name,
				  unsigned int index)
{
	struct sw_addr_arg a;

	if (index >= 6)
		return SW_ARG_NONE;
	if (sw_path_args(arch, name) & (1u << index))
		return SW_ARG_PATH;
	if (sw_addr_arg(name, &a) && a.index == index)
		return (enum sw_arg_kind)a.kind;
	return SW_ARG_NONE;
}

int sw_unix_addr_spell(const void *sa, size_t len, char *buf, size_t size)
{
	const size_t off = offsetof(struct sockaddr_un, sun_path);
	const unsigned char *p = (const unsigned char *)sa + off;
	sa_family_t family;
	size_t n = 0;

	if (size < SW_UNIX_ADDR_MAX + 1)
		return -EINVAL;
	/* A length that does not hold the family names nothing (0: no
	 * address at all); unix_validate_addr() refuses one longer than a
	 * sockaddr_un with EINVAL: the kernel's answer, no address. */
	if (len < sizeof(family))
		return -ENODATA;
	memcpy(&family, sa, sizeof(family));
	if (family != AF_UNIX || len > sizeof(struct sockaddr_un))
		return -ENODATA;
	len -= off;
	if (len && p[0]) {
		/* unix_mkname_bsd(): a C string within len. */
		while (n < len && p[n])
			n++;
		memcpy(buf, p, n);
	} else if (len) {
		/* Abstract: every byte after the leading NUL is the name,
		 * NULs too (net/unix/af_unix.c). */
		buf[n++] = '@';
		for (size_t i = 1; i < len; i++)
			buf[n++] = p[i] ? (char)p[i] : '@';
	}
	buf[n] = '\0';
	return (int)n;
}
