// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 9 (docs/security.md): argument widths.  A seccomp filter sees whole 64-bit
 * registers; the kernel casts each argument to its declared type, so
 * kill(pid | 1 << 32, sig) is kill(pid, sig) to the kernel.  A comparison
 * made on 64 bits is bypassed by setting bits the kernel never reads.
 *
 *   adv_widths supervisor   kill, tkill, tgkill, rt_sigqueueinfo,
 *                           rt_tgsigqueueinfo (SIGCONT, harmless) and
 *                           pidfd_open at supervisor | 1 << 32
 *   adv_widths rule         under policies/widths.json, which denies with
 *                           errno 133 (EHWPOISON): kill(1, ...) (arg 0 EQ,
 *                           a plain BPF rule), kill(..., SIGUSR1) (arg 1 EQ)
 *                           and tkill(..., sig < 11) (LT: decided by the
 *                           supervisor); each tried with high bits set,
 *                           the signals aimed at a child of ours
 *   adv_widths docker       under Docker's default profile, which allows
 *                           socket() unless arg 0 == AF_VSOCK (40) with
 *                           SCMP_CMP_NE: socket(40 | 1<<32) must get the
 *                           profile's EPERM, not reach the kernel
 */
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

#define HI (1L << 32)
#define RULE_ERRNO 133

static int supervisor(void)
{
	pid_t sup = getppid();
	siginfo_t si;
	long r;
	int e, bad = 0;

	FACT("supervisor = getppid() = %d", sup);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCONT;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();

#define TRY(what, call) do {						\
		TRIED("%s", what);					\
		errno = 0;						\
		r = (call);						\
		e = errno;						\
		RESULT("%s = %s", what, RET(r, e));			\
		if (r >= 0)						\
			bad = 1;					\
		if (r > 0 && !strncmp(what, "pidfd", 5))		\
			close((int)r);					\
	} while (0)

	TRY("kill(sup | 1<<32, SIGCONT)", syscall(SYS_kill, sup | HI, SIGCONT));
	TRY("kill(sup | 0xffffffff<<32, SIGCONT)",
	    syscall(SYS_kill, (long)((uint64_t)(uint32_t)sup | 0xffffffff00000000ull), SIGCONT));
	TRY("tkill(sup | 1<<32, SIGCONT)", syscall(SYS_tkill, sup | HI, SIGCONT));
	TRY("tgkill(sup | 1<<32, sup, SIGCONT)",
	    syscall(SYS_tgkill, sup | HI, sup, SIGCONT));
	TRY("rt_sigqueueinfo(sup | 1<<32, SIGCONT, SI_QUEUE)",
	    syscall(SYS_rt_sigqueueinfo, sup | HI, SIGCONT, &si));
	TRY("rt_tgsigqueueinfo(sup | 1<<32, sup, SIGCONT, SI_QUEUE)",
	    syscall(SYS_rt_tgsigqueueinfo, sup | HI, sup, SIGCONT, &si));
	TRY("pidfd_open(sup | 1<<32, 0)", syscall(SYS_pidfd_open, sup | HI, 0));
#undef TRY
	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "a signal or pidfd reached the supervisor through high bits" :
			   "every high-bits target was compared at 32 bits");
}

/* One denied call: must fail with the rule's errno. */
static int expect_rule(const char *what, long r, int e)
{
	RESULT("%s = %s", what, RET(r, e));
	return !(r == -1 && e == RULE_ERRNO);
}

static pid_t child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

/* Did the child die of a signal (it must not)?  Reaps it. */
static int child_killed(pid_t pid)
{
	int st;

	usleep(100 * 1000);
	if (waitpid(pid, &st, WNOHANG) == pid) {
		RESULT("child %d died of signal %d", pid, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		return 1;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	RESULT("child %d was not signalled", pid);
	return 0;
}

static int rule(void)
{
	int bad = 0;
	pid_t c;
	long r;

	TRIED("kill(1 | 1<<32, 0) (rule: kill arg 0 == 1 -> errno %d)", RULE_ERRNO);
	r = syscall(SYS_kill, 1 | HI, 0);
	bad |= expect_rule("kill(1 | 1<<32, 0)", r, errno);
	TRIED("kill(1, 0)");
	r = syscall(SYS_kill, 1, 0);
	bad |= expect_rule("kill(1, 0)", r, errno);

	if ((c = child()) < 0)
		return adv_verdict(ADV_CANNOT, "fork failed");
	TRIED("kill(child %d, SIGUSR1 | 1<<32) (rule: kill arg 1 == SIGUSR1 -> errno %d)",
	      c, RULE_ERRNO);
	r = syscall(SYS_kill, c, SIGUSR1 | HI);
	bad |= expect_rule("kill(child, SIGUSR1 | 1<<32)", r, errno);
	bad |= child_killed(c);

	if ((c = child()) < 0)
		return adv_verdict(ADV_CANNOT, "fork failed");
	TRIED("tkill(child %d, SIGUSR1 | 1<<32) (rule: tkill arg 1 < 11 -> errno %d)",
	      c, RULE_ERRNO);
	r = syscall(SYS_tkill, c, SIGUSR1 | HI);
	bad |= expect_rule("tkill(child, SIGUSR1 | 1<<32)", r, errno);
	bad |= child_killed(c);

	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "a rule compared a 32-bit argument on 64 bits" :
			   "every rule held whatever the high bits");
}

static int docker(void)
{
	int bad = 0;
	long r;
	int e;

	TRIED("socket(AF_VSOCK, SOCK_STREAM, 0) (the profile denies family 40: EPERM)");
	r = syscall(SYS_socket, 40L, 1L, 0L);
	e = errno;
	RESULT("socket(40) = %s", RET(r, e));
	bad |= !(r == -1 && e == EPERM);
	TRIED("socket(AF_VSOCK | 1<<32, SOCK_STREAM, 0)");
	r = syscall(SYS_socket, 40L | HI, 1L, 0L);
	e = errno;
	RESULT("socket(40 | 1<<32) = %s%s", RET(r, e),
	       r == -1 && e != EPERM ? " (the kernel's answer: the call ran)" : "");
	bad |= !(r == -1 && e == EPERM);
	if (r >= 0)
		close((int)r);
	return adv_verdict(bad ? ADV_ESCAPED : ADV_CONTAINED,
			   bad ? "AF_VSOCK reached the kernel past Docker's NE rule" :
			   "Docker's family rule held whatever the high bits");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "supervisor"))
		return supervisor();
	if (!strcmp(mode, "rule"))
		return rule();
	if (!strcmp(mode, "docker"))
		return docker();
	fprintf(stderr, "usage: %s supervisor|rule|docker\n", argv[0]);
	return ADV_CANNOT;
}
