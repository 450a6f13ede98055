// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every session a Landlock domain of its own (docs/security.md, route 16).
 *
 * The kernel's rule (security/landlock/task.c, hook_ptrace_access_check
 * and hook_ptrace_traceme): a task in a Landlock domain passes a
 * ptrace-mode check (ptrace_may_access: /proc/<pid>/mem, environ, fd,
 * cwd, root, ..., process_vm_readv/writev, kcmp, get_robust_list,
 * pidfd_getfd, move_pages, perf_event_open) only on tasks of its own
 * domain or of one nested below it.  No flag asks for that: being in a
 * domain is enough, whatever the domain handles.  From ABI 6 (Linux
 * 6.12) a domain may also scope signals and abstract unix sockets
 * (security/landlock/task.c, hook_task_kill, hook_unix_stream_connect):
 * its tasks then neither signal nor connect to a process outside it.
 *
 * So the launch child restricts itself into a new domain (a new one per
 * landlock_restrict_self call, even from the same ruleset) right after
 * no_new_privs: the program and everything it starts are inside; the
 * caller's shell, the `sysward` client of a daemon session, every other
 * session and every other process of the uid are outside.  The
 * supervisor stays outside, and outside -> inside passes: it seizes,
 * reads and writes its tracees as before.  A program may still make
 * domains of its own below ours (the kernel allows 16 layers; we take
 * one).
 *
 * A policy with a file-system or network section (fsrules.c) makes the
 * domain handle the rights it grants, and the same domain does both: one
 * domain per session, one layer of the 16.  Without one, what the
 * domain handles must be invisible to the program:
 *  - ABI >= 6: only the two scopes; no file system or network right is
 *    handled, so no file access changes (a domain that handles no file
 *    system right does not even deny REFER, security/landlock/fs.c,
 *    get_current_fs_domain).
 *  - ABI 1-5: a ruleset must handle some right (landlock_create_ruleset
 *    refuses an empty one with ENOMSG).  MAKE_BLOCK, granted by a rule
 *    beneath "/": creating a block device needs CAP_MKNOD in the initial
 *    user namespace anyway.  Handling any file system right makes the
 *    kernel deny REFER (reparenting by rename/link, "initially denied",
 *    security/landlock/fs.c) unless granted, so from ABI 2 the rule
 *    grants REFER too; ABI 1 (Linux 5.13-5.18) cannot, and there such a
 *    rename or link gets EXDEV (mv then copies).  The rule covers the
 *    inodes under the launcher's "/": a file system mounted elsewhere as
 *    a new root (pivot_root into a fresh tmpfs) is not beneath it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/syscall_nr.h"
#include "internal.h"
#include "contain/landlock.h"

/* include/uapi/linux/landlock.h (Debian 12's copy predates ABI 4's
 * handled_access_net and ABI 6's scoped). */
struct sw_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct sw_landlock_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct sw_landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

#define SW_LANDLOCK_CREATE_RULESET_VERSION	(1U << 0)
#define SW_LANDLOCK_RULE_PATH_BENEATH		1
#define SW_LANDLOCK_RULE_NET_PORT		2	/* ABI 4 */
#define SW_LANDLOCK_ACCESS_FS_MAKE_BLOCK	(1ULL << 11)
#define SW_LANDLOCK_ACCESS_FS_REFER		(1ULL << 13)	/* ABI 2 */
#define SW_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET	(1ULL << 0)	/* ABI 6 */
#define SW_LANDLOCK_SCOPE_SIGNAL		(1ULL << 1)	/* ABI 6 */

int sw_landlock_abi(void)
{
	/* The kernel's answer, and nothing else's: no setting lowers it
	 * (tests pretend older kernels from outside, tests/lib/pretend.c;
	 * the environment is not always the operator's, issue 32). */
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   SW_LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 0)
		return -errno;
	return (int)abi;
}

const char *sw_landlock_missing_why(int err)
{
	switch (err) {
	case ENOSYS:
		return "not built into the kernel (CONFIG_SECURITY_LANDLOCK)";
	case EOPNOTSUPP:
		return "built in but not enabled at boot (landlock is not in the kernel's lsm= list)";
	default:
		/* EPERM: most likely a seccomp filter around sysward itself
		 * (a container's profile that predates Landlock). */
		return "landlock_create_ruleset is refused here (a seccomp filter around sysward?)";
	}
}

/* ABI 1-5: MAKE_BLOCK (and REFER from ABI 2), granted beneath "/". */
static int ruleset_fs(int abi, struct sw_error *err)
{
	struct sw_landlock_ruleset_attr attr = {
		.handled_access_fs = SW_LANDLOCK_ACCESS_FS_MAKE_BLOCK |
				     (abi >= 2 ? SW_LANDLOCK_ACCESS_FS_REFER : 0),
	};
	cleanup_close int fd = -1, root = -1;
	int r;

	/* An older kernel takes the larger struct: fields it does not
	 * know must be zero (copy_struct_from_user), and are. */
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0U);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "create a Landlock ruleset (ABI %d)", abi);
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return sw_error_set_errno(err, errno, "open / for the Landlock ruleset's rule");
	r = sw_landlock_allow_path(fd, root, attr.handled_access_fs);
	if (r < 0)
		return sw_error_set_errno(err, -r, "add a rule beneath / to the Landlock ruleset (ABI %d)", abi);
	return TAKE_FD(fd);
}

int sw_landlock_ruleset(int abi, uint64_t fs, uint64_t net, int *ret_fd,
			struct sw_error *err)
{
	struct sw_landlock_ruleset_attr attr = {
		.handled_access_fs = fs & sw_fs_rights_of_abi(abi),
		.handled_access_net = abi >= 4 ? net : 0,
		.scoped = abi >= 6 ? SW_LANDLOCK_SCOPE_SIGNAL |
				     SW_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0,
	};
	int fd;

	if (abi < 1)
		return sw_error_set(err, EOPNOTSUPP, "no Landlock ABI to build a ruleset for");
	if (!attr.handled_access_fs && !attr.handled_access_net && abi < 6) {
		fd = ruleset_fs(abi, err);
		if (fd < 0)
			return fd;
	} else {
		fd = (int)syscall(SYS_landlock_create_ruleset, &attr,
				  sizeof(attr), 0U);
		if (fd < 0)
			return sw_error_set_errno(err, errno,
						  "create a Landlock ruleset (ABI %d: file rights 0x%llx, network 0x%llx, scopes 0x%llx)",
						  abi, (unsigned long long)attr.handled_access_fs,
						  (unsigned long long)attr.handled_access_net,
						  (unsigned long long)attr.scoped);
	}
	*ret_fd = fd;
	return 0;
}

/* landlock_add_rule(2): a raw system call, async-signal-safe. */
static int add_rule(int ruleset_fd, int type, const void *attr)
{
	if (syscall(SYS_landlock_add_rule, ruleset_fd, type, attr, 0U) < 0)
		return -errno;
	return 0;
}

int sw_landlock_allow_path(int ruleset_fd, int parent_fd, uint64_t access)
{
	struct sw_landlock_path_beneath_attr rule = {
		.allowed_access = access,
		.parent_fd = parent_fd,
	};

	return add_rule(ruleset_fd, SW_LANDLOCK_RULE_PATH_BENEATH, &rule);
}

int sw_landlock_allow_port(int ruleset_fd, uint16_t port, uint64_t access)
{
	struct sw_landlock_net_port_attr rule = {
		.allowed_access = access,
		.port = port,
	};

	return add_rule(ruleset_fd, SW_LANDLOCK_RULE_NET_PORT, &rule);
}

int sw_landlock_enter(int ruleset_fd)
{
	/* A raw system call: async-signal-safe, for the launch child. */
	if (syscall(SYS_landlock_restrict_self, ruleset_fd, 0U) < 0)
		return -errno;
	return 0;
}
