// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 8 (docs/security.md): the program's own seccomp filters.
 *
 * A confined program may install filters of its own (no_new_privs is set,
 * Docker's profile allows seccomp(2)).  The kernel runs every filter of the
 * task and keeps the action of highest precedence (KILL > TRAP > ERRNO >
 * USER_NOTIF > TRACE > LOG > ALLOW); on a tie, the newest filter's data.
 *
 *   adv_own_filter notify-uid          USER_NOTIF for getuid with a listener
 *                                      (SECCOMP_FILTER_FLAG_NEW_LISTENER) that
 *                                      answers "continue": outranks sysward's
 *                                      TRACE, so getuid would run unemulated
 *   adv_own_filter notify-path FILE    the same for open/openat of FILE,
 *                                      which a path rule denies (EACCES)
 *   adv_own_filter forged-uid DATA     SECCOMP_RET_TRACE | DATA for getuid:
 *                                      DATA is the index of a permissive rule
 *   adv_own_filter forged-path DATA FILE  the same for open/openat of FILE
 *
 * Run under tests/security/policies/own-filters.json.in: getuid emulated
 * as 4242 (rule 0), FILE denied by path (rules 1, 2), and a rule 3 that
 * would allow both if it were ever reached.
 */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "adv.h"

#define EMULATED_UID 4242

static int listener = -1;

/* Answer every notification with "run it as it is". */
static void *answer(void *arg)
{
	(void)arg;
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
			return NULL;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

/* A filter: the listed x86_64 syscalls -> ret, everything else ALLOW. */
static long install(const int *nrs, int n, uint32_t ret, unsigned int flags)
{
	struct sock_filter insns[16];
	struct sock_fprog prog = { .filter = insns };
	int k = 0;

	insns[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, arch));
	insns[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  AUDIT_ARCH_X86_64, 1, 0);
	insns[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	insns[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, nr));
	for (int i = 0; i < n; i++)
		insns[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  nrs[i], (uint8_t)(n - i), 0);
	insns[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	insns[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, ret);
	prog.len = (unsigned short)k;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int try_uid(void)
{
	long uid;
	int e;

	TRIED("getuid() (a supervisor rule emulates it as %d)", EMULATED_UID);
	errno = 0;
	uid = syscall(SYS_getuid);
	e = errno;
	RESULT("getuid() = %s", RET(uid, e));
	if (uid == EMULATED_UID)
		return adv_verdict(ADV_CONTAINED, "the supervisor decided getuid");
	return adv_verdict(ADV_ESCAPED, "getuid ran past the supervisor");
}

static int try_path(const char *file)
{
	long fd;
	int e, v = ADV_CONTAINED;

	TRIED("openat(AT_FDCWD, \"%s\") (a path rule denies it: EACCES)", file);
	fd = syscall(SYS_openat, AT_FDCWD, file, O_RDONLY | O_CLOEXEC);
	e = errno;
	RESULT("openat = %s", RET(fd, e));
	if (fd >= 0) {
		v = ADV_ESCAPED;
		close((int)fd);
	}
	TRIED("open(\"%s\")", file);
	fd = syscall(SYS_open, file, O_RDONLY | O_CLOEXEC);
	e = errno;
	RESULT("open = %s", RET(fd, e));
	if (fd >= 0) {
		v = ADV_ESCAPED;
		close((int)fd);
	}
	return adv_verdict(v, v == ADV_CONTAINED ? "the path rule held" :
			   "the denied file was opened past the path rule");
}

static int notify(const int *nrs, int n)
{
	pthread_t t;
	long fd;
	int e;

	TRIED("seccomp(SET_MODE_FILTER, NEW_LISTENER): USER_NOTIF for the call");
	fd = install(nrs, n, SECCOMP_RET_USER_NOTIF, SECCOMP_FILTER_FLAG_NEW_LISTENER);
	e = errno;
	RESULT("seccomp = %s", RET(fd, e));
	if (fd < 0) {
		/* Also with TSYNC (which needs TSYNC_ESRCH beside a listener). */
		TRIED("seccomp(SET_MODE_FILTER, NEW_LISTENER | TSYNC | TSYNC_ESRCH)");
		fd = install(nrs, n, SECCOMP_RET_USER_NOTIF,
			     SECCOMP_FILTER_FLAG_NEW_LISTENER |
			     SECCOMP_FILTER_FLAG_TSYNC |
			     SECCOMP_FILTER_FLAG_TSYNC_ESRCH);
		e = errno;
		RESULT("seccomp = %s", RET(fd, e));
	}
	if (fd < 0) {
		/* No listener: a USER_NOTIF filter can only fail calls. */
		return -1;
	}
	listener = (int)fd;
	if ((e = pthread_create(&t, NULL, answer, NULL)) != 0) {
		RESULT("pthread_create: %s", strerror(e));
		return -2;
	}
	FACT("listener fd %d answers every call with SECCOMP_USER_NOTIF_FLAG_CONTINUE",
	     listener);
	return 0;
}

static int forged(const int *nrs, int n, const char *data)
{
	unsigned long v = strtoul(data, NULL, 0);
	long r;
	int e;

	TRIED("seccomp filter: the call -> SECCOMP_RET_TRACE | %lu (rule %lu)", v, v);
	r = install(nrs, n, SECCOMP_RET_TRACE | (uint32_t)(v & SECCOMP_RET_DATA), 0);
	e = errno;
	RESULT("seccomp = %s", RET(r, e));
	return r < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const int uid[] = { SYS_getuid };
	static const int path[] = { SYS_open, SYS_openat };
	const char *mode = argc > 1 ? argv[1] : "";
	int r;

	if (!strcmp(mode, "notify-uid") && argc == 2) {
		r = notify(uid, 1);
		if (r == -2)
			return adv_verdict(ADV_CANNOT, "no listener thread");
		if (r < 0)
			RESULT("no listener: the supervisor still decides getuid");
		return try_uid();
	}
	if (!strcmp(mode, "notify-path") && argc == 3) {
		r = notify(path, 2);
		if (r == -2)
			return adv_verdict(ADV_CANNOT, "no listener thread");
		if (r < 0)
			RESULT("no listener: the supervisor still decides open/openat");
		return try_path(argv[2]);
	}
	if (!strcmp(mode, "forged-uid") && argc == 3) {
		if (forged(uid, 1, argv[2]) < 0)
			return adv_verdict(ADV_CANNOT, "could not install a filter");
		return try_uid();
	}
	if (!strcmp(mode, "forged-path") && argc == 4) {
		if (forged(path, 2, argv[2]) < 0)
			return adv_verdict(ADV_CANNOT, "could not install a filter");
		return try_path(argv[3]);
	}
	fprintf(stderr, "usage: %s notify-uid | notify-path FILE | forged-uid DATA | "
		"forged-path DATA FILE\n", argv[0]);
	return ADV_CANNOT;
}
