// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 24 (docs/security.md): the seccomp listener that answers the
 * policy's emulate and skip rules (engine/notif.c).  Run under
 * policies/emulate-uid.json (getuid emulated as 4242).
 *
 *   adv_notif fds       look for a seccomp listener among the program's
 *                       descriptors, in a thread and in a fork child
 *                       too: one would let it answer its own calls
 *   adv_notif own       ask for a listener of its own
 *                       (seccomp(SECCOMP_FILTER_FLAG_NEW_LISTENER)): it
 *                       would outrank sysward's TRACE for any call (route
 *                       8); expected EPERM, as with no listener of ours
 *   adv_notif storm N   N threads and a fork child call getuid in a loop
 *                       while a thread signals them (a handler without
 *                       SA_RESTART): every answer must be 4242, never the
 *                       real uid, ENOSYS (a call that reached no
 *                       listener) nor EINTR (a wait for the listener that
 *                       the signal interrupted: getuid never fails so
 *                       unconfined, nor at a ptrace stop)
 *   adv_notif race DIR  (under policies/notif-log.json and --log) N
 *                       threads call mkdir(DIR/...) for 1 s, skipped
 *                       (EROFS) and logged by the listener, which reads
 *                       the path for the line, while another thread
 *                       rewrites that path between two strings and
 *                       the threads are signalled: every answer EROFS,
 *                       no directory made (the string decides nothing);
 *                       check.sh counts the log's lines against the
 *                       calls reported here
 *   adv_notif exits DIR (the same policy) 200 fork children, each with
 *                       two threads calling that mkdir, end by
 *                       exit_group after 0-2 ms: calls whose caller is
 *                       gone before the listener reads its path (or
 *                       answers it); the program must see every child
 *                       end normally and nothing made
 *   adv_notif spoof     an execve carrying the launch child's handoff
 *                       arguments and a descriptor of the program's own
 *                       (a pipe): the supervisor must not take it, and
 *                       getuid is still answered
 *   adv_notif churn     the callers come and go while their calls wait:
 *                       threads calling getuid while a thread of theirs
 *                       execs (de_thread() kills the callers mid-wait),
 *                       ten times over; callers whose thread-group leader
 *                       has exited (a zombie leader); vfork children
 *                       calling it while their parent waits; a process
 *                       SIGKILLed while it calls (its notification left
 *                       behind).  Every answer 4242, never the real uid,
 *                       ENOSYS or EINTR, and getuid answered afterwards
 */
#include <dirent.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "adv.h"

#define EMULATED_UID 4242
#define HANDOFF_MAGIC 0x73776e6f74696679ull	/* engine/internal.h */

/* How many of the program's descriptors are seccomp listeners. */
static int count_listeners(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[300], link[64];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = '\0';
		if (strstr(link, "seccomp notify"))
			n++;
	}
	closedir(d);
	return n;
}

static void *thread_count(void *arg)
{
	*(int *)arg = count_listeners();
	return NULL;
}

static int try_fds(void)
{
	pthread_t th;
	int in_thread = -1, in_child = -1, here, st;
	pid_t c;

	TRIED("getuid(), then count seccomp listeners in /proc/self/fd (main thread, a thread, a fork child)");
	RESULT("getuid = %ld", (long)getuid());
	here = count_listeners();
	pthread_create(&th, NULL, thread_count, &in_thread);
	pthread_join(th, NULL);
	c = fork();
	if (c == 0)
		_exit(count_listeners() & 0x7f);
	if (c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st))
		in_child = WEXITSTATUS(st);
	RESULT("listeners: main %d, thread %d, child %d", here, in_thread, in_child);
	if (getuid() != EMULATED_UID) {
		adv_line("verdict", "cannot-test (getuid is not emulated: %ld)", (long)getuid());
		return ADV_CANNOT;
	}
	if (here != 0 || in_thread != 0 || in_child != 0) {
		adv_line("verdict", "ESCAPED (the program holds a seccomp listener)");
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

static int try_own(void)
{
	struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { 1, allow };
	long r;

	TRIED("seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, allow-all)");
	r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	RESULT("seccomp = %ld (%s)", r, r < 0 ? strerror(errno) : "a listener");
	if (r >= 0) {
		adv_line("verdict", "ESCAPED (a listener of the program's own)");
		return ADV_ESCAPED;
	}
	if (errno != EPERM) {
		/* Refused, but not as sysward refuses it without a
		 * listener of its own: a difference the program sees. */
		adv_line("verdict", "ESCAPED (refused with %s, not EPERM: the answer depends on sysward's listener)",
			 strerror(errno));
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

static volatile int stop;
static unsigned long n_calls, n_wrong, n_enosys, n_eintr;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void on_usr1(int sig)
{
	(void)sig;
}

static void *caller(void *arg)
{
	unsigned long calls = 0, wrong = 0, enosys = 0, eintr = 0;

	(void)arg;
	while (!stop) {
		long r = syscall(SYS_getuid);

		calls++;
		if (r == -1 && errno == EINTR)
			eintr++;
		else if (r == -1 && errno == ENOSYS)
			enosys++;
		else if (r != EMULATED_UID)
			wrong++;
	}
	pthread_mutex_lock(&mu);
	n_calls += calls;
	n_wrong += wrong;
	n_enosys += enosys;
	n_eintr += eintr;
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* n threads running fn (n <= 64) for 1 s, each signalled (SIGUSR1, a
 * handler without SA_RESTART) every 200 us; then stop, and joined. */
static void signalled_for_1s(int n, void *(*fn)(void *))
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	pthread_t th[64];
	struct timespec t0, t;

	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, fn, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < n; i++)
			pthread_kill(th[i], SIGUSR1);
		usleep(200);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000000L);
	stop = 1;
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/* The fork child's part: callers and a signaller of its own for 1 s;
 * exit status 0 when every answer was right. */
static int storm(int n, bool report)
{
	signalled_for_1s(n, caller);
	if (report)
		RESULT("%lu getuid calls: %lu wrong, %lu ENOSYS, %lu EINTR",
		       n_calls, n_wrong, n_enosys, n_eintr);
	return n_wrong || n_enosys || n_eintr || !n_calls;
}

static int try_storm(int n)
{
	int st = -1, bad;
	pid_t c;

	if (n < 1 || n > 64)
		n = 4;
	TRIED("%d threads and a fork child's %d call getuid for 1 s, signalled (SIGUSR1, no SA_RESTART) every 200 us", n, n);
	c = fork();
	if (c == 0)
		_exit(storm(n, true));	/* its count too: the log's lines */
	bad = storm(n, true);
	if (c > 0)
		waitpid(c, &st, 0);
	RESULT("fork child: %s", c > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0
	       ? "every answer 4242" : "a wrong answer, ENOSYS, EINTR or no call");
	if (bad || !(c > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		adv_line("verdict", "ESCAPED (an emulated call was not answered as the policy says)");
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

/* ---- race: a logged call's path rewritten while it waits ---------- */

static char race_path[256];
static const char *race_dir;
static volatile int race_stop;

static void *race_flipper(void *arg)
{
	char a[256], b[256];
	unsigned long n = 0;

	(void)arg;
	snprintf(a, sizeof(a), "%s/a", race_dir);
	snprintf(b, sizeof(b), "%s/a-much-longer-name-%0100d", race_dir, 0);
	while (!race_stop) {
		const char *s = n++ & 1 ? a : b;

		/* Byte by byte, the terminator last: the string is torn
		 * at any moment, never unterminated. */
		for (size_t i = 0; s[i]; i++)
			__atomic_store_n(&race_path[i], s[i], __ATOMIC_RELAXED);
		__atomic_store_n(&race_path[strlen(s)], '\0', __ATOMIC_RELAXED);
	}
	return NULL;
}

/* mkdir(path, 0755), the program's own call: the generic syscall table
 * (arm64, riscv64, whose guests build this program) has mkdirat only. */
static long raw_mkdir(const char *path)
{
#ifdef SYS_mkdir
	return syscall(SYS_mkdir, path, 0755);
#else
	return syscall(SYS_mkdirat, AT_FDCWD, path, 0755);
#endif
}

static void *race_caller(void *arg)
{
	unsigned long calls = 0, wrong = 0;

	(void)arg;
	while (!stop) {
		long r = raw_mkdir(race_path);

		calls++;
		if (!(r == -1 && errno == EROFS))
			wrong++;
	}
	pthread_mutex_lock(&mu);
	n_calls += calls;
	n_wrong += wrong;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int try_race(const char *dir, int n)
{
	pthread_t fl;
	DIR *d;
	struct dirent *e;
	int made = 0;

	if (n < 1 || n > 16)
		n = 4;
	race_dir = dir;
	snprintf(race_path, sizeof(race_path), "%s/a", dir);
	TRIED("%d threads mkdir(%s/...) for 1 s (skipped EROFS, logged), the path rewritten by another thread, SIGUSR1 every 200 us", n, dir);
	pthread_create(&fl, NULL, race_flipper, NULL);
	signalled_for_1s(n, race_caller);
	race_stop = 1;
	pthread_join(fl, NULL);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		made += strncmp(e->d_name, "a", 1) == 0;
	if (d)
		closedir(d);
	RESULT("%lu mkdir calls: %lu not EROFS; %d directories made", n_calls, n_wrong, made);
	if (n_wrong || made || !n_calls) {
		adv_line("verdict", "ESCAPED (a logged skip ran, or answered otherwise)");
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

static void *exit_caller(void *arg)
{
	(void)arg;
	for (;;)
		raw_mkdir(race_path);
	return NULL;
}

static int try_exits(const char *dir)
{
	int bad = 0, made = 0;
	DIR *d;
	struct dirent *e;

	snprintf(race_path, sizeof(race_path), "%s/a", dir);
	TRIED("200 fork children, each with 2 threads calling mkdir(%s) (skipped, logged), exit_group after 0-2 ms", race_path);
	for (int i = 0; i < 200; i++) {
		pid_t c = fork();
		int st;

		if (c == 0) {
			pthread_t th;

			for (int k = 0; k < 2; k++)
				pthread_create(&th, NULL, exit_caller, NULL);
			usleep((useconds_t)(i % 3) * 1000);
			_exit(0);
		}
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	d = opendir(dir);
	while (d && (e = readdir(d)))
		made += e->d_name[0] != '.';
	if (d)
		closedir(d);
	RESULT("%d of 200 children did not end normally; %d entries made", bad, made);
	if (bad || made) {
		adv_line("verdict", "ESCAPED (a child's end or a skipped call went wrong)");
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

static int try_spoof(void)
{
	char *const argv[] = { (char *)"/nonexistent/adv_notif", NULL };
	char *const envp[] = { NULL };
	int p[2];
	long r;

	if (pipe(p) < 0) {
		adv_line("verdict", "cannot-test (pipe: %s)", strerror(errno));
		return ADV_CANNOT;
	}
	TRIED("execve(/nonexistent, ..., HANDOFF_MAGIC, pipe fd %d), then getuid()", p[0]);
	r = syscall(SYS_execve, argv[0], argv, envp, HANDOFF_MAGIC, (long)p[0]);
	RESULT("execve = %ld (%s)", r, strerror(errno));
	RESULT("getuid = %ld", (long)getuid());
	if (getuid() != EMULATED_UID) {
		adv_line("verdict", "ESCAPED (getuid no longer emulated after a forged handoff)");
		return ADV_ESCAPED;
	}
	adv_line("verdict", "contained");
	return ADV_CONTAINED;
}

/* One getuid: 0 when answered 4242. */
static int one_uid(void)
{
	return syscall(SYS_getuid) == EMULATED_UID ? 0 : 1;
}

/* Callers for a while, then this thread execs ourselves for round
 * left - 1 while they are mid-call; the last image reports. */
static int churn_exec(const char *self, int left)
{
	pthread_t th[4];
	char arg[16];

	stop = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, caller, NULL);
	usleep(20000);
	if (n_wrong || n_enosys || n_eintr)
		return 1;
	if (left <= 0) {
		stop = 1;
		for (int i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		return n_wrong || n_enosys || n_eintr || !n_calls || one_uid();
	}
	snprintf(arg, sizeof(arg), "%d", left - 1);
	execl(self, self, "churn-exec", arg, (char *)NULL);
	return 1;
}

static void *zombie_caller(void *arg)
{
	(void)arg;
	usleep(20000);			/* the leader gone by then */
	stop = 0;
	for (int i = 0; i < 2000; i++)
		if (one_uid())
			_exit(1);
	_exit(0);
}

/* Exit status of a child running part(); -1 if it did not exit. */
static int child_status(int (*part)(void))
{
	int st;
	pid_t c = fork();

	if (c == 0)
		_exit(part());
	if (c < 0 || waitpid(c, &st, 0) != c)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int zombie_leader(void)
{
	pthread_t th;

	pthread_create(&th, NULL, zombie_caller, NULL);
	pthread_exit(NULL);
}

static int vforks(void)
{
	for (int i = 0; i < 200; i++) {
		int st, bad = 0;
		pid_t c = vfork();

		if (c == 0)
			_exit(one_uid());
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
		if (bad || one_uid())
			return 1;
	}
	return 0;
}

static int killed_callers(void)
{
	for (int i = 0; i < 50; i++) {
		int st;
		pid_t c = fork();

		if (c == 0) {
			for (;;)
				syscall(SYS_getuid);
		}
		usleep(1000);
		kill(c, SIGKILL);
		waitpid(c, &st, 0);
		if (one_uid())
			return 1;
	}
	return 0;
}

static int try_churn(void)
{
	static const struct { const char *what; int (*part)(void); } parts[] = {
		{ "callers whose thread-group leader exited (a zombie)", zombie_leader },
		{ "200 vfork children calling it while their parent waits", vforks },
		{ "50 processes SIGKILLed while they call it", killed_callers },
	};
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int st, bad = 0;
	pid_t c;

	if (n < 0)
		return adv_verdict(ADV_CANNOT, "readlink /proc/self/exe");
	self[n] = '\0';
	TRIED("4 threads call getuid while a thread of theirs execs, 10 images in a row");
	c = fork();
	if (c == 0)
		_exit(churn_exec(self, 10));
	st = c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	RESULT("exec churn: %s", st == 0 ? "every answer 4242" : "a wrong answer, ENOSYS or EINTR");
	bad |= st != 0;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		TRIED("getuid from %s", parts[i].what);
		st = child_status(parts[i].part);
		RESULT("%s", st == 0 ? "every answer 4242" : "a wrong answer, ENOSYS or EINTR");
		bad |= st != 0;
	}
	TRIED("getuid afterwards");
	RESULT("getuid = %ld", (long)syscall(SYS_getuid));
	bad |= one_uid();
	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "an emulated call was not answered as the policy says" :
			   "every call answered by the policy");
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "fds"))
		return try_fds();
	if (argc >= 2 && !strcmp(argv[1], "own"))
		return try_own();
	if (argc >= 2 && !strcmp(argv[1], "storm"))
		return try_storm(argc >= 3 ? atoi(argv[2]) : 4);
	if (argc >= 2 && !strcmp(argv[1], "spoof"))
		return try_spoof();
	if (argc >= 3 && !strcmp(argv[1], "exits"))
		return try_exits(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "race"))
		return try_race(argv[2], argc >= 4 ? atoi(argv[3]) : 4);
	if (argc >= 2 && !strcmp(argv[1], "churn"))
		return try_churn();
	if (argc >= 3 && !strcmp(argv[1], "churn-exec"))
		return churn_exec("/proc/self/exe", atoi(argv[2]));
	fprintf(stderr, "usage: adv_notif fds|own|storm [N]|spoof|race DIR [N]|exits DIR|churn\n");
	return ADV_CANNOT;
}
