// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sw-pretend: run a command on an older kernel than this one, as far as
 * the command can tell: a seccomp filter around it answers the few
 * questions with which sysward learns what the kernel has, as a kernel
 * without that feature answers them.  The tests of sysward's paths for
 * older kernels (a Landlock ABI below 6, no Landlock, no
 * PTRACE_SET_SYSCALL_INFO) run on this machine's kernel through it.
 *
 *   sw-pretend [--landlock-abi N] [--no-set-syscall-info] [--] CMD [ARGS...]
 *
 *   --landlock-abi 0      landlock_create_ruleset, landlock_add_rule and
 *                         landlock_restrict_self fail with EOPNOTSUPP, as
 *                         on a kernel built with Landlock that did not
 *                         enable it at boot (security/landlock/syscalls.c)
 *   --landlock-abi N      landlock_create_ruleset(NULL, 0,
 *                         LANDLOCK_CREATE_RULESET_VERSION), the version
 *                         query, returns N (1 to 5): answered by a
 *                         notifier process of ours (SECCOMP_RET_USER_NOTIF)
 *                         that lives as long as a process under the
 *                         filter does.  Rulesets are still the kernel's
 *                         own: sysward builds them from the version alone
 *   --no-set-syscall-info ptrace(PTRACE_SET_SYSCALL_INFO) fails with EIO,
 *                         what ptrace_request() answers for a request it
 *                         does not know (kernels before 6.16)
 *
 * Only ever lower: the filter takes nothing away that the command could
 * not lose on a real older kernel.  This is a test program, built beside
 * the tests and never installed; the shipped sysward, syswardd and
 * sysward-runtime read no setting of the kind from anywhere (issue 32:
 * a container's environment is its process 1's).
 *
 * CMD is executed in place (same pid, same descriptors).  The filter is
 * inherited by everything CMD starts, as a kernel is.  As root no
 * no_new_privs is needed for it; otherwise it is set first.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/ptrace_abi.h"
#include "sysward/syscall_nr.h"

#define LL_CREATE_RULESET_VERSION	1u
#define X32_SYSCALL_BIT			0x40000000u

static void usage(void)
{
	fprintf(stderr,
		"usage: sw-pretend [--landlock-abi N] [--no-set-syscall-info] [--] CMD [ARGS...]\n");
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "sw-pretend: %s: %s\n", what, strerror(errno));
	exit(125);
}

#define ARG_LO(i) offsetof(struct seccomp_data, args[i])
#define ARG_HI(i) (offsetof(struct seccomp_data, args[i]) + 4)

/* The filter: x86_64 calls only (an i386 or x32 call is no query sysward
 * makes).  landlock_abi < 0: Landlock untouched. */
static int build(struct sock_filter *f, int landlock_abi, int no_ssi)
{
	int n = 0;

#define S(code, k) (f[n++] = (struct sock_filter)BPF_STMT(code, k))
#define J(code, k, t, e) (f[n++] = (struct sock_filter)BPF_JUMP(code, k, t, e))
	S(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	J(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	S(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	S(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	J(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
	S(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (no_ssi) {
		/* ptrace(PTRACE_SET_SYSCALL_INFO, ...): request is a long */
		J(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 0, 6);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0));
		J(BPF_JMP | BPF_JEQ | BPF_K, SW_PTRACE_SET_SYSCALL_INFO, 0, 3);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_HI(0));
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
		S(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EIO);
		S(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	}
	if (landlock_abi == 0) {
		J(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 2, 0);
		J(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_add_rule, 1, 0);
		J(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_restrict_self, 0, 1);
		S(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EOPNOTSUPP);
	} else if (landlock_abi > 0) {
		/* (NULL, 0, VERSION): the query, and nothing else */
		J(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset, 0, 9);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2));
		J(BPF_JMP | BPF_JEQ | BPF_K, LL_CREATE_RULESET_VERSION, 0, 7);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0));
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 5);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_HI(0));
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3);
		S(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1));
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
		S(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	}
	S(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#undef S
#undef J
	return n;
}

static int install(struct sock_filter *f, int n, unsigned int flags)
{
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	int r;

	r = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (r < 0 && errno == EACCES) {
		/* Without CAP_SYS_ADMIN the kernel wants no_new_privs. */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			die("prctl(PR_SET_NO_NEW_PRIVS)");
		r = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	}
	if (r < 0)
		die("install the seccomp filter");
	return r;
}

/* The notifier: answers every version query with abi until no process
 * is left under the filter (the listener then polls POLLHUP, Linux 5.8). */
static void serve(int listener, int abi)
{
	for (;;) {
		struct pollfd p = { .fd = listener, .events = POLLIN };
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (!(p.revents & POLLIN))
			_exit(0);
		/* SECCOMP_IOCTL_NOTIF_RECV wants a zeroed request. */
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			_exit(1);
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = abi;
		/* ENOENT: the caller was killed meanwhile. */
		(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

static int recv_fd(int sock)
{
	char data;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

static void send_fd(int sock, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char data = 'L';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	if (sendmsg(sock, &m, 0) != 1)
		die("hand the listener to the notifier");
}

int main(int argc, char **argv)
{
	struct sock_filter f[64];
	int landlock_abi = -1, no_ssi = 0, i, n, sp[2];
	pid_t pid;

	for (i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "--landlock-abi") == 0 && i + 1 < argc) {
			long v = strtol(argv[++i], &end, 10);

			if (*end || end == argv[i] || v < 0 || v > 5) {
				fprintf(stderr, "sw-pretend: --landlock-abi %s: expected 0 to 5 (lower than the ABI 6 of the kernels this runs on)\n",
					argv[i]);
				exit(2);
			}
			landlock_abi = (int)v;
		} else if (strcmp(argv[i], "--no-set-syscall-info") == 0) {
			no_ssi = 1;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-') {
			usage();
		} else {
			break;
		}
	}
	if (i >= argc)
		usage();
	n = build(f, landlock_abi, no_ssi);

	if (landlock_abi <= 0) {
		install(f, n, 0);
	} else {
		int listener;

		/* The notifier is forked before the filter exists, so that its
		 * own calls are never its to answer. */
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
			die("socketpair");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			int fd;

			close(sp[0]);
			fd = recv_fd(sp[1]);
			if (fd < 0)
				_exit(0);
			/* Hold nothing of the command's: no pipe a test
			 * waits on stays open because of us. */
			if (dup2(fd, 3) < 0)
				_exit(1);
			syscall(SYS_close_range, 4u, ~0u, 0u);
			fd = open("/dev/null", O_RDWR);
			for (int s = 0; s < 3 && fd >= 0; s++)
				dup2(fd, s);
			setsid();
			serve(3, landlock_abi);
		}
		close(sp[1]);
		listener = install(f, n, SECCOMP_FILTER_FLAG_NEW_LISTENER);
		send_fd(sp[0], listener);
		close(listener);
		close(sp[0]);
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "sw-pretend: execute %s: %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
