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
 *
 * An ERRNO outranks TRACE too, for calls the supervisor makes in the
 * program (injected) and for calls it rewrote at a TRACE stop (the kernel
 * runs the filters again after that stop): SECCOMP_RET_ERRNO | 0 skips
 * the call and makes it return 0, a result the kernel never produced.
 * Under an allow-all policy, as a uid whose objects the supervisor guards
 * (route 20):
 *   adv_own_filter forged-close PID   every close -> ERRNO(0), then open
 *       PID's oom_score_adj for writing: the supervisor refuses it and
 *       closes the descriptor in the program with an injected close;
 *       the descriptor is looked for at its number after, and written
 *   adv_own_filter killed-close PID   the same open made by a second
 *       thread whose own filter kills it (SECCOMP_RET_KILL_THREAD) at
 *       close of the descriptor's number: the injected close never runs,
 *       the thread dies, and its process lives on with the table it
 *       shared; the first thread then writes through that number
 *   adv_own_filter killed-close-leader PID   the same made by the first
 *       thread, the group's leader: dead, it is a zombie no one can reap
 *       while its second thread lives (no exit to see), and the second
 *       thread, once it sees it dead, writes through the number
 *   adv_own_filter forged-pair SOCK PROG ARGS  a datagram socket connected
 *       to SOCK at descriptor 0, and a filter of its own answering the
 *       path guard's socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)
 *       with ERRNO(0): unrun, it returns 0 and leaves the pair's numbers
 *       as the fresh image's stack has them below the stack pointer
 *       (zeros), so the supervisor would take descriptor 0 as its end of
 *       the pair and send the guard through it, to SOCK, with its own
 *       credentials; then execs PROG (under a policy with a path rule)
 *   adv_own_filter pair-witness SOCK FILE  binds SOCK (a datagram socket,
 *       SO_PASSCRED), and writes to FILE a line for each datagram it
 *       gets ("from pid P uid U: N bytes, K descriptors"); on SIGTERM
 *       writes FILE.check: "nothing" or "got"
 *   adv_own_filter forged-created     shmget with IPC_EXCL -> ERRNO(0),
 *       then shmget(key, IPC_CREAT): the supervisor makes it exclusive
 *       (so that it only creates) and would credit the session with the
 *       id 0 it "created"; then shmat(0), id 0 being another process's
 *       (the witness: the first segment of a fresh IPC namespace)
 *   adv_own_filter shm-witness FILE   the witness: a segment holding
 *       "secret", its id written to FILE; checks it on SIGTERM
 *   adv_own_filter forged-mq MQDIR    the same for mq_open(name, O_CREAT),
 *       made O_EXCL by the supervisor: the witness's queue /sw-witness,
 *       opened for reading through an mqueue mount MQDIR (route 20's
 *       limit), at descriptor 0, mq_open with O_EXCL -> ERRNO(0), so the
 *       session would own that queue: then opened by name for writing,
 *       sent to and removed
 *   adv_own_filter mq-witness FILE    the witness: /sw-witness, written
 *       to FILE once made; on SIGTERM "intact" or what changed
 */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <mqueue.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>

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

/* Every close answered 0 by the program's own filter, then an open the
 * supervisor refuses after it ran: is its descriptor still there? */
static int forged_close(const char *pid)
{
	static const int nrs[] = { SYS_close };
	char path[64], fdpath[64], link[256];
	int n, fd, e, v = ADV_CONTAINED;
	ssize_t l, w;

	n = dup(0);		/* the number the open will get */
	if (n < 0 || close(n) < 0)
		return adv_verdict(ADV_CANNOT, "dup");
	TRIED("seccomp filter of its own: every close -> SECCOMP_RET_ERRNO | 0");
	if (install(nrs, 1, SECCOMP_RET_ERRNO | 0, 0) < 0) {
		RESULT("seccomp = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "could not install a filter");
	}
	snprintf(path, sizeof(path), "/proc/%s/oom_score_adj", pid);
	TRIED("open(%s, O_WRONLY), refused after it ran; then descriptor %d", path, n);
	fd = open(path, O_WRONLY);
	e = errno;
	RESULT("open = %s", RET(fd, e));
	if (fd >= 0)
		v = ADV_ESCAPED;
	else
		fd = n;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	l = readlink(fdpath, link, sizeof(link) - 1);
	if (l >= 0) {
		link[l] = '\0';
		RESULT("descriptor %d is open: %s", fd, link);
	} else {
		RESULT("descriptor %d: %s", fd, strerror(errno));
	}
	w = write(fd, "1000", 4);
	e = errno;
	RESULT("write(%d, \"1000\") = %s", fd, RET(w, e));
	if (w > 0)
		v = ADV_ESCAPED;
	return adv_verdict(v, v == ADV_CONTAINED ? "the descriptor was closed" :
			   "the outsider's oom_score_adj was written through a descriptor the supervisor believed closed");
}

/* A filter of its own, for this thread and the threads it makes: nr
 * with argument arg (at 32 bits) matching val by test (BPF_JEQ: equal;
 * BPF_JSET: any bit of val set) -> ret; everything else allowed. */
static long when_arg(int nr, int arg, uint16_t test, uint32_t val, uint32_t ret)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, args[arg])),
		BPF_JUMP(BPF_JMP | test | BPF_K, val, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/* nr with bit set in argument arg -> ERRNO(0), the call skipped and
 * returning 0. */
static long errno0_when(int nr, int arg, uint32_t bit)
{
	return when_arg(nr, arg, BPF_JSET, bit, SECCOMP_RET_ERRNO | 0);
}

/* The thread that opens: a filter of its own kills it at close(n). */
struct killed_close {
	const char *path;
	int n;
	int fd, e, installed;
	int stat_fd;	/* the group's /proc/<tgid>/stat, opened first */
};

static void *killed_close_opener(void *arg)
{
	struct killed_close *k = arg;

	/* This thread's filter only (no TSYNC): the first thread keeps
	 * closing what it likes. */
	if (when_arg(SYS_close, 0, BPF_JEQ, (uint32_t)k->n, SECCOMP_RET_KILL_THREAD) < 0) {
		k->e = errno;
		return NULL;
	}
	k->installed = 1;
	k->fd = open(k->path, O_WRONLY);
	k->e = errno;
	return NULL;
}

/* What the thread that lives on finds once the opener died: the
 * descriptor at k->n, written through. */
static int killed_close_after(const struct killed_close *k)
{
	char fdpath[64], link[256];
	int v = ADV_CONTAINED, e;
	ssize_t l, w;

	if (!k->installed) {
		RESULT("seccomp = %s", RET(-1, k->e));
		return adv_verdict(ADV_CANNOT, "could not install a filter");
	}
	/* Killed in its injected close, the opener never returns from
	 * open: k->fd stays -1. */
	if (k->fd == -1 && k->e == 0)
		RESULT("the opening thread died in the call");
	else
		RESULT("the opening thread returned: open = %s", RET(k->fd, k->e));
	if (k->fd >= 0) {
		RESULT("open = %d", k->fd);
		v = ADV_ESCAPED;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", k->n);
	l = readlink(fdpath, link, sizeof(link) - 1);
	if (l >= 0) {
		link[l] = '\0';
		RESULT("descriptor %d is open in the thread that lives: %s", k->n, link);
	} else {
		RESULT("descriptor %d: %s", k->n, strerror(errno));
	}
	w = write(k->n, "1000", 4);
	e = errno;
	RESULT("write(%d, \"1000\") = %s", k->n, RET(w, e));
	if (w > 0)
		v = ADV_ESCAPED;
	return adv_verdict(v, v == ADV_CONTAINED ? "the descriptor was not left to the thread's process" :
			   "the outsider's oom_score_adj was written through a descriptor its killed opener left in the table");
}

/* The second thread, when the first opens: waits (10 s at most) until
 * the first is dead (the group's leader, a zombie while its threads
 * live), then looks. */
static void *killed_close_survivor(void *arg)
{
	const struct killed_close *k = arg;
	char text[512], *p;

	/* Read through a descriptor opened before the opener's number was
	 * chosen: one opened here could take that number while the opener
	 * opens, which then gets the next one, and the filter, which kills
	 * at close of that number, never fires (seen on one CPU). */
	for (int i = 0; i < 1000; i++) {
		ssize_t n = pread(k->stat_fd, text, sizeof(text) - 1, 0);

		text[n > 0 ? n : 0] = '\0';
		if ((p = strrchr(text, ')')) && !strncmp(p, ") Z", 3))
			break;
		usleep(10000);
	}
	exit(killed_close_after(k));
}

static int killed_close(const char *pid, bool leader)
{
	char path[64];
	struct killed_close k = { .path = path, .fd = -1, .stat_fd = -1 };
	pthread_t th;

	if (leader && (k.stat_fd = open("/proc/self/stat", O_RDONLY)) < 0)
		return adv_verdict(ADV_CANNOT, "open /proc/self/stat");
	k.n = dup(0);		/* the number the open will get */
	if (k.n < 0 || close(k.n) < 0)
		return adv_verdict(ADV_CANNOT, "dup");
	snprintf(path, sizeof(path), "/proc/%s/oom_score_adj", pid);
	TRIED("%s, its own filter: close(%d) -> SECCOMP_RET_KILL_THREAD; "
	      "it opens %s O_WRONLY (refused after it ran)",
	      leader ? "the first thread (the group's leader)" : "a second thread", k.n, path);
	if (!leader) {
		if (pthread_create(&th, NULL, killed_close_opener, &k) != 0)
			return adv_verdict(ADV_CANNOT, "pthread_create");
		pthread_join(th, NULL);
		return killed_close_after(&k);
	}
	if (pthread_create(&th, NULL, killed_close_survivor, &k) != 0)
		return adv_verdict(ADV_CANNOT, "pthread_create");
	killed_close_opener(&k);
	/* alive: the second thread says what it found, and exits */
	pthread_join(th, NULL);
	return ADV_CANNOT;
}

static int forged_pair(const char *sockpath, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sockpath);
	TRIED("a datagram socket connected to %s at descriptor 0", sockpath);
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    (s != 0 && dup2(s, 0) != 0))
		return adv_verdict(ADV_CANNOT, "could not connect to the witness");
	TRIED("seccomp filter of its own: socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC) -> SECCOMP_RET_ERRNO | 0; exec %s", argv[0]);
	if (when_arg(SYS_socketpair, 1, BPF_JEQ, SOCK_DGRAM | SOCK_CLOEXEC, SECCOMP_RET_ERRNO | 0) < 0)
		return adv_verdict(ADV_CANNOT, "could not install a filter");
	execv(argv[0], argv);
	RESULT("execv = %s", RET(-1, errno));
	return adv_verdict(ADV_CANNOT, "exec");
}

static int put_line(const char *file, const char *suffix, const char *line);

static volatile sig_atomic_t pair_witness_done;

static void pair_witness_term(int sig)
{
	(void)sig;
	pair_witness_done = 1;
}

static int pair_witness(const char *sockpath, const char *file)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct sigaction sa = { .sa_handler = pair_witness_term };
	char line[160], log[512];
	bool got = false;
	int s, on = 1;
	FILE *f;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sockpath);
	snprintf(log, sizeof(log), "%s", file);
	unlink(sockpath);
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    chmod(sockpath, 0777) < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0)
		return ADV_CANNOT;
	f = fopen(log, "w");
	if (!f)
		return ADV_CANNOT;
	setvbuf(f, NULL, _IOLBF, 0);
	sigaction(SIGTERM, &sa, NULL);	/* no SA_RESTART: recvmsg ends */
	while (!pair_witness_done) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(4 * sizeof(int))];
		} ctl;
		char byte[64];
		struct iovec iov = { byte, sizeof(byte) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
		struct ucred uc = { 0, (uid_t)-1, (gid_t)-1 };
		int fds = 0;
		ssize_t n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);

		if (n < 0)
			continue;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_CREDENTIALS)
				memcpy(&uc, CMSG_DATA(c), sizeof(uc));
			if (c->cmsg_type == SCM_RIGHTS) {
				int fd[4];
				size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

				memcpy(fd, CMSG_DATA(c), k * sizeof(int));
				for (size_t i = 0; i < k; i++)
					close(fd[i]);
				fds += (int)k;
			}
		}
		snprintf(line, sizeof(line), "from pid %d uid %d: %zd bytes, %d descriptors",
			 (int)uc.pid, (int)uc.uid, n, fds);
		fprintf(f, "%s\n", line);
		got = true;
	}
	fclose(f);
	return put_line(file, ".check", got ? "got" : "nothing") < 0 ? ADV_CANNOT : 0;
}

static int forged_created(void)
{
	char *m;
	long id;
	int e;

	m = shmat(0, NULL, SHM_RDONLY);
	RESULT("before: shmat(0) = %s", m == (void *)-1 ? strerror(errno) : "attached");
	TRIED("seccomp filter of its own: shmget with IPC_EXCL -> SECCOMP_RET_ERRNO | 0");
	if (errno0_when(SYS_shmget, 2, IPC_EXCL) < 0) {
		RESULT("seccomp = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "could not install a filter");
	}
	TRIED("shmget(0x5157, 4096, IPC_CREAT | 0600): made exclusive by the supervisor");
	id = shmget(0x5157, 4096, IPC_CREAT | 0600);
	e = errno;
	RESULT("shmget = %s", RET(id, e));
	TRIED("shmat(0): the witness's segment");
	m = shmat(0, NULL, 0);
	e = errno;
	if (m == (void *)-1) {
		RESULT("shmat(0) = %s", RET(-1, e));
		return adv_verdict(ADV_CONTAINED, "the segment of another process stayed out of reach");
	}
	RESULT("shmat(0) attached; it holds \"%.16s\"; overwritten", m);
	strcpy(m, "overwritten");
	return adv_verdict(ADV_ESCAPED, "another process's segment was attached and written");
}

/* A segment of the uid's outside the sandbox; on SIGTERM, "intact" or
 * what it holds now, to FILE.check. */
static volatile sig_atomic_t term;
static void on_term(int sig) { (void)sig; term = 1; }

/* FILE.suffix holds line, whole when it appears (written aside, then
 * renamed): 0, or -1. */
static int put_line(const char *file, const char *suffix, const char *line)
{
	char tmp[4200], path[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s%s.tmp", file, suffix);
	snprintf(path, sizeof(path), "%s%s", file, suffix);
	if (!(f = fopen(tmp, "w")))
		return -1;
	fprintf(f, "%s\n", line);
	return fclose(f) == 0 && rename(tmp, path) == 0 ? 0 : -1;
}

/* A witness's life: made (FILE says what), then SIGTERM. */
static int witness_wait(const char *file, const char *made)
{
	signal(SIGTERM, on_term);
	if (put_line(file, "", made) < 0)
		return -1;
	while (!term)
		pause();
	return 0;
}

static int shm_witness(const char *file)
{
	char made[16];
	int id = shmget(0x1234, 4096, IPC_CREAT | 0600);
	char *m = id < 0 ? (void *)-1 : shmat(id, NULL, 0);

	if (m == (void *)-1)
		return ADV_CANNOT;
	strcpy(m, "secret");
	snprintf(made, sizeof(made), "%d", id);
	if (witness_wait(file, made) < 0 ||
	    put_line(file, ".check", strcmp(m, "secret") ? "changed" : "intact") < 0)
		return ADV_CANNOT;
	shmctl(id, IPC_RMID, NULL);
	return 0;
}

static int forged_mq(const char *dir)
{
	char path[4200];
	long r, fd;
	int e, v = ADV_CONTAINED;

	snprintf(path, sizeof(path), "%s/sw-witness", dir);
	TRIED("open(%s, O_RDONLY), dup2 to 0 (reads are not checked: route 20's limit)", path);
	fd = open(path, O_RDONLY);
	e = errno;
	RESULT("open = %s", RET(fd, e));
	if (fd < 0 || dup2((int)fd, 0) < 0)
		return adv_verdict(ADV_CANNOT, "the witness's queue cannot be opened for reading");
	TRIED("seccomp filter of its own: mq_open with O_EXCL -> SECCOMP_RET_ERRNO | 0");
	if (errno0_when(SYS_mq_open, 1, O_EXCL) < 0) {
		RESULT("seccomp = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "could not install a filter");
	}
	TRIED("mq_open(\"/sw-witness\", O_CREAT | O_WRONLY): made exclusive by the supervisor");
	r = syscall(SYS_mq_open, "sw-witness", O_CREAT | O_WRONLY, 0600, NULL);
	e = errno;
	RESULT("mq_open = %s", RET(r, e));
	TRIED("mq_open(\"/sw-witness\", O_WRONLY), mq_send, mq_unlink");
	r = syscall(SYS_mq_open, "sw-witness", O_WRONLY, 0, NULL);
	e = errno;
	RESULT("mq_open = %s", RET(r, e));
	if (r >= 0) {
		long s = mq_send((mqd_t)r, "injected", 8, 0);

		e = errno;
		RESULT("mq_send = %s", RET(s, e));
		if (s == 0)
			v = ADV_ESCAPED;
	}
	r = mq_unlink("/sw-witness");
	e = errno;
	RESULT("mq_unlink = %s", RET(r, e));
	if (r == 0)
		v = ADV_ESCAPED;
	return adv_verdict(v, v == ADV_CONTAINED ? "the queue of another process stayed out of reach" :
			   "another process's queue was written or removed");
}

static int mq_witness(const char *file)
{
	struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	const char *state = "intact";
	struct stat st0, st1;
	char buf[16];
	ssize_t n;
	mqd_t q = mq_open("/sw-witness", O_CREAT | O_EXCL | O_RDWR | O_NONBLOCK, 0600, &a);

	if (q == (mqd_t)-1 || fstat(q, &st0) < 0 || mq_send(q, "secret", 6, 0) < 0 ||
	    witness_wait(file, "made") < 0)
		return ADV_CANNOT;
	n = mq_receive(q, buf, sizeof(buf), NULL);
	mq_close(q);
	q = mq_open("/sw-witness", O_RDONLY | O_NONBLOCK);
	if (q == (mqd_t)-1 || fstat(q, &st1) < 0 || st1.st_ino != st0.st_ino)
		state = "removed";
	else if (n != 6 || memcmp(buf, "secret", 6) || mq_receive(q, buf, sizeof(buf), NULL) >= 0)
		state = "changed";
	mq_unlink("/sw-witness");
	return put_line(file, ".check", state) < 0 ? ADV_CANNOT : 0;
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
	if (!strcmp(mode, "forged-close") && argc == 3)
		return forged_close(argv[2]);
	if (!strcmp(mode, "killed-close") && argc == 3)
		return killed_close(argv[2], false);
	if (!strcmp(mode, "killed-close-leader") && argc == 3)
		return killed_close(argv[2], true);
	if (!strcmp(mode, "forged-pair") && argc >= 4)
		return forged_pair(argv[2], argv + 3);
	if (!strcmp(mode, "pair-witness") && argc == 4)
		return pair_witness(argv[2], argv[3]);
	if (!strcmp(mode, "forged-created") && argc == 2)
		return forged_created();
	if (!strcmp(mode, "shm-witness") && argc == 3)
		return shm_witness(argv[2]);
	if (!strcmp(mode, "forged-mq") && argc == 3)
		return forged_mq(argv[2]);
	if (!strcmp(mode, "mq-witness") && argc == 3)
		return mq_witness(argv[2]);
	fprintf(stderr, "usage: %s notify-uid | notify-path FILE | forged-uid DATA | "
		"forged-path DATA FILE | forged-close PID | killed-close[-leader] PID | "
		"forged-pair SOCK PROG ARGS | pair-witness SOCK FILE | forged-created | "
		"shm-witness FILE | forged-mq MQDIR | mq-witness FILE\n", argv[0]);
	return ADV_CANNOT;
}
