// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 16: calls that take a pid, a process group or a uid and change
 * (or read) another process, where the kernel checks only that the uids
 * match: prlimit64, setpriority, ioprio_set, sched_setscheduler,
 * sched_setparam, sched_setattr, sched_setaffinity.  Landlock has no hook
 * for them.  With RLIMIT_CPU the kernel kills the target: a program could
 * end its supervisor, its user's shell or, as root, syswardd.
 *
 *   adv_pidcalls outside PID   PID: a process outside sysward, of our
 *                              uid, leader of its own process group.
 *                              Every call at PID, at its group, at the
 *                              supervisor (getppid()), also with the
 *                              pid's high 32 bits set, and, unless root,
 *                              the "every process of a uid" forms: each
 *                              must fail.  Then the same calls on the
 *                              program itself (0 and its pid), its own
 *                              child and its own group: each must work
 *                              as unconfined.
 *
 * The values set outside are harmless and visible from outside
 * (/proc/PID/limits, stat, status; ionice -p): RLIMIT_NOFILE 42,
 * RLIMIT_CPU 4242 s, nice 7..9, best-effort I/O level 7/6, CPU 0 only,
 * SCHED_BATCH.  check.sh compares them before and after.  The uid forms
 * are not tried as root: unconfined, they would renice every root
 * process of the machine, kernel threads included.
 */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/ioprio.h>

#include "adv.h"

#define HIGH (1L << 32)
#define IOPRIO(class, level) ((class) << IOPRIO_CLASS_SHIFT | (level))

struct sw_sched_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

static int escaped, broken;

/* An attempt at a target outside the session: it must be refused with
 * EPERM.  (The kernel's own refusals are no proof: PRIO_USER gives
 * EACCES when one process of the uid may not be reniced, after
 * renicing the others.) */
static void out(const char *what, long r)
{
	int e = errno;

	RESULT("%s = %s", what, RET(r, e));
	if (r >= 0) {
		escaped = 1;
		FACT("^ acted on a process outside the program");
	} else if (e != EPERM) {
		escaped = 1;
		FACT("^ not refused with EPERM: the kernel ran it");
	}
}

/* The same call on the program's own processes: it must work. */
static void in(const char *what, long r)
{
	int e = errno;

	RESULT("inside: %s = %s", what, RET(r, e));
	/* ENOSYS: a call this kernel lacks (ioprio_set without
	 * CONFIG_BLOCK: the guest's); nothing to learn. */
	if (r < 0 && e != ENOSYS) {
		broken = 1;
		FACT("^ refused on the program's own process");
	}
}

static long prlim(long pid, int res, long val, struct rlimit *old)
{
	struct rlimit n = { val, val };

	return syscall(SYS_prlimit64, pid, res, val ? &n : NULL, old);
}

static long setattr_nice(long pid, int nice)
{
	struct sw_sched_attr a = { .size = sizeof(a), .policy = SCHED_OTHER,
				   .nice = nice };

	return syscall(SYS_sched_setattr, pid, &a, 0);
}

static long affinity_cpu0(long pid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return syscall(SYS_sched_setaffinity, pid, sizeof(set), &set);
}

static long batch(long pid)
{
	struct sched_param sp = { 0 };

	return syscall(SYS_sched_setscheduler, pid, SCHED_BATCH, &sp);
}

static long param(long pid)
{
	struct sched_param sp = { 0 };

	return syscall(SYS_sched_setparam, pid, &sp);
}

/* Every process-targeted call at pid (a long: high bits reach the
 * kernel), setting nice n, then n + 1 (an unprivileged caller may only
 * raise it); report(what, result) judges each. */
static void each_call(long pid, const char *who, int n,
		      void (*report)(const char *, long))
{
	char w[160];
	struct rlimit old;

#define TRY(call, fmt, ...) do { \
		snprintf(w, sizeof(w), fmt, __VA_ARGS__); \
		report(w, (call)); \
	} while (0)
	TRY(prlim(pid, RLIMIT_NOFILE, 42, NULL), "prlimit64(%s, RLIMIT_NOFILE, 42)", who);
	TRY(prlim(pid, RLIMIT_CPU, 4242, NULL), "prlimit64(%s, RLIMIT_CPU, 4242 s)", who);
	TRY(prlim(pid, RLIMIT_NOFILE, 0, &old), "prlimit64(%s, RLIMIT_NOFILE, NULL, &old) (read)", who);
	TRY(syscall(SYS_setpriority, PRIO_PROCESS, pid, n), "setpriority(PRIO_PROCESS, %s, %d)", who, n);
	TRY(syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, pid, IOPRIO(IOPRIO_CLASS_BE, 7)),
	    "ioprio_set(IOPRIO_WHO_PROCESS, %s, BE/7)", who);
	TRY(affinity_cpu0(pid), "sched_setaffinity(%s, CPU 0)", who);
	TRY(batch(pid), "sched_setscheduler(%s, SCHED_BATCH)", who);
	TRY(param(pid), "sched_setparam(%s, 0)", who);
	TRY(setattr_nice(pid, n + 1), "sched_setattr(%s, SCHED_OTHER, nice %d)", who, n + 1);
}

/* The process-group forms at pgid, setting nice n. */
static void each_group_call(long pgid, const char *who, int n,
			    void (*report)(const char *, long))
{
	char w[160];

	TRY(syscall(SYS_setpriority, PRIO_PGRP, pgid, n), "setpriority(PRIO_PGRP, %s, %d)", who, n);
	TRY(syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, pgid, IOPRIO(IOPRIO_CLASS_BE, 6)),
	    "ioprio_set(IOPRIO_WHO_PGRP, %s, BE/6)", who);
#undef TRY
}

static int outside(long wit)
{
	long sup = getppid(), me = getpid(), uid = getuid();
	char who[64];
	struct rlimit lim;
	pid_t child;
	int st;

	FACT("uid %ld; outside: pid %ld (its own group); the supervisor: pid %ld",
	     uid, wit, sup);
	TRIED("every pid-taking call at the outside process, its group, the supervisor");
	snprintf(who, sizeof(who), "%ld", wit);
	each_call(wit, who, 7, out);
	snprintf(who, sizeof(who), "%ld | 1 << 32", wit);
	each_call(wit | HIGH, who, 7, out);
	snprintf(who, sizeof(who), "group %ld", wit);
	each_group_call(wit, who, 9, out);
	snprintf(who, sizeof(who), "group %ld | 1 << 32", wit);
	each_group_call(wit | HIGH, who, 9, out);
	snprintf(who, sizeof(who), "supervisor %ld", sup);
	each_call(sup, who, 7, out);
	if (uid != 0) {
		TRIED("the forms that reach every process of a uid");
		out("setpriority(PRIO_USER, 0, 0)", syscall(SYS_setpriority, PRIO_USER, 0, 0));
		snprintf(who, sizeof(who), "setpriority(PRIO_USER, %ld, 0)", uid);
		out(who, syscall(SYS_setpriority, PRIO_USER, uid, 0));
		out("ioprio_set(IOPRIO_WHO_USER, 0, BE/4)",
		    syscall(SYS_ioprio_set, IOPRIO_WHO_USER, 0, IOPRIO(IOPRIO_CLASS_BE, 4)));
		snprintf(who, sizeof(who), "ioprio_set(IOPRIO_WHO_USER, %ld, BE/4)", uid);
		out(who, syscall(SYS_ioprio_set, IOPRIO_WHO_USER, uid, IOPRIO(IOPRIO_CLASS_BE, 4)));
	} else {
		FACT("PRIO_USER and IOPRIO_WHO_USER not tried as root (unconfined they would reach every root process)");
	}

	TRIED("the same calls on the program's own processes and group");
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	each_call(0, "0", 1, in);
	snprintf(who, sizeof(who), "own pid %ld", me);
	each_call(me, who, 3, in);
	snprintf(who, sizeof(who), "own child %d", (int)child);
	each_call(child, who, 5, in);
	each_group_call(0, "0", 7, in);
	snprintf(who, sizeof(who), "own group %ld", (long)getpgrp());
	each_group_call(getpgrp(), who, 8, in);
	/* What the child sees of it: the last values set. */
	if (prlim(child, RLIMIT_NOFILE, 0, &lim) == 0 && lim.rlim_cur == 42 &&
	    getpriority(PRIO_PROCESS, (id_t)child) == 8)
		RESULT("inside: child %d: RLIMIT_NOFILE 42, nice 8", (int)child);
	else
		in("child's RLIMIT_NOFILE and nice read back", -1);
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && setrlimit(RLIMIT_NOFILE, &lim) == 0)
		RESULT("inside: getrlimit/setrlimit (glibc: prlimit64(0, ...)) work");
	else
		in("getrlimit/setrlimit", -1);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);

	if (escaped)
		return adv_verdict(ADV_ESCAPED, "a pid-taking call acted outside the program");
	if (broken)
		return adv_verdict(ADV_CANNOT, "a call on the program's own processes was refused");
	return adv_verdict(ADV_CONTAINED, "pid-taking calls act on the program only");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "outside"))
		return outside(atol(argv[2]));
	fprintf(stderr, "usage: adv_pidcalls outside PID\n");
	return ADV_CANNOT;
}
