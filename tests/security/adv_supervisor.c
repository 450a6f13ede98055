// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 4: the supervisor itself.  A tracee with the same uid as its
 * tracer could, on an unprotected system, ptrace it, write its memory
 * through process_vm_writev or /proc/<pid>/mem, or stop it with a signal.
 * In embedded mode the supervisor is the tracee's parent (getppid()).
 *
 *   adv_supervisor memory    ptrace ATTACH/SEIZE, process_vm_writev,
 *                            open /proc/<sup>/mem O_RDWR and O_RDONLY
 *   adv_supervisor ptrace    the same minus /proc/<sup>/mem (for a run
 *                            that was granted CAP_SYS_PTRACE on purpose)
 *   adv_supervisor signal    kill, tkill, tgkill, pidfd_send_signal with
 *                            SIGSTOP at the supervisor, then a supervised
 *                            syscall (getuid emulated as 4242)
 *   adv_supervisor procfd    SIGSTOP through a /proc/<sup> pidfd, then a
 *                            supervised syscall (must wait for SIGCONT)
 *   adv_supervisor kill      kill(supervisor, SIGKILL), then try to go on
 *                            (the driver checks the marker file)
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "adv.h"

#define EMULATED_UID 4242

static pid_t sup;

static void show_supervisor(void)
{
	char path[64], comm[64] = "?";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", sup);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, sizeof(comm) - 1);
		comm[n > 0 ? n : 0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		close(fd);
	}
	FACT("supervisor = getppid() = %d (%s)", sup, comm);
}

/* 0 when the attempt failed as it must. */
static int try_ptrace(long req, const char *name)
{
	long r;
	int e;

	TRIED("ptrace(%s, supervisor %d)", name, sup);
	r = ptrace(req, sup, 0, 0);
	e = errno;
	RESULT("ptrace(%s) = %s", name, RET(r, e));
	if (r == 0) {
		/* We hold the supervisor: let it go before reporting. */
		if (req == PTRACE_SEIZE)
			ptrace(PTRACE_INTERRUPT, sup, 0, 0);
		waitpid(sup, NULL, __WALL);
		ptrace(PTRACE_DETACH, sup, 0, 0);
		return 1;
	}
	return 0;
}

static int try_vm_writev(void)
{
	long word = 0x5357;	/* "SW" */
	struct iovec local = { &word, sizeof(word) };
	/* Any address: EFAULT would still show the access check passed. */
	struct iovec remote = { &word, sizeof(word) };
	long r;
	int e;

	TRIED("process_vm_writev(supervisor %d, 8 bytes at %p)", sup,
	      (void *)&word);
	r = syscall(SYS_process_vm_writev, sup, &local, 1UL, &remote, 1UL,
		    0UL);
	e = errno;
	RESULT("process_vm_writev = %s%s", RET(r, e),
	       r < 0 && e == EFAULT ? " (EFAULT: access was granted, only "
	       "the address was bad)" : "");
	return !(r < 0 && (e == EPERM || e == EACCES || e == ENOSYS));
}

static int try_mem(int flags, const char *fname)
{
	char path[64];
	int fd, e;

	snprintf(path, sizeof(path), "/proc/%d/mem", sup);
	TRIED("open(\"%s\", %s)", path, fname);
	fd = open(path, flags | O_CLOEXEC);
	e = errno;
	RESULT("open = %s", RET(fd, e));
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return 0;
}

static int memory(bool with_mem)
{
	int bad = 0;

	bad |= try_ptrace(PTRACE_ATTACH, "PTRACE_ATTACH");
	bad |= try_ptrace(PTRACE_SEIZE, "PTRACE_SEIZE");
	bad |= try_vm_writev();
	if (with_mem) {
		bad |= try_mem(O_RDWR, "O_RDWR");
		bad |= try_mem(O_RDONLY, "O_RDONLY");
	}
	return bad ? adv_verdict(ADV_ESCAPED, "the supervisor was reachable")
		   : adv_verdict(ADV_CONTAINED, "the supervisor is out of reach");
}

static int sent(const char *what, long r, int e)
{
	RESULT("%s = %s", what, RET(r, e));
	return r == 0;
}

static int signal_stop(void)
{
	long r, uid;
	int bad = 0, pidfd, e;

	TRIED("kill(supervisor %d, SIGSTOP)", sup);
	r = kill(sup, SIGSTOP);
	bad |= sent("kill", r, errno);
	TRIED("tkill(supervisor %d, SIGSTOP)", sup);
	r = syscall(SYS_tkill, sup, SIGSTOP);
	bad |= sent("tkill", r, errno);
	TRIED("tgkill(%d, %d, SIGSTOP)", sup, sup);
	r = syscall(SYS_tgkill, sup, sup, SIGSTOP);
	bad |= sent("tgkill", r, errno);
	TRIED("pidfd_open(supervisor %d) + pidfd_send_signal(SIGSTOP)", sup);
	pidfd = syscall(SYS_pidfd_open, sup, 0);
	e = errno;
	RESULT("pidfd_open = %s", RET(pidfd, e));
	if (pidfd >= 0) {
		r = syscall(SYS_pidfd_send_signal, pidfd, SIGSTOP, NULL, 0);
		bad |= sent("pidfd_send_signal", r, errno);
		close(pidfd);
	}

	TRIED("rt_sigqueueinfo(supervisor %d, SIGSTOP, SI_QUEUE)", sup);
	{
		siginfo_t si = { .si_signo = SIGSTOP, .si_code = SI_QUEUE };

		r = syscall(SYS_rt_sigqueueinfo, sup, SIGSTOP, &si);
		bad |= sent("rt_sigqueueinfo", r, errno);
		TRIED("rt_tgsigqueueinfo(%d, %d, SIGSTOP, SI_QUEUE)", sup, sup);
		r = syscall(SYS_rt_tgsigqueueinfo, sup, sup, SIGSTOP, &si);
		bad |= sent("rt_tgsigqueueinfo", r, errno);
	}

	/* If the supervisor was stopped, this blocks until someone sends it
	 * SIGCONT: a stopped supervisor holds its tracees, it never lets a
	 * supervised syscall through. */
	TRIED("getuid() (supervised: emulated as %d)", EMULATED_UID);
	uid = syscall(SYS_getuid);
	RESULT("getuid = %ld", uid);
	if (uid != EMULATED_UID)
		return adv_verdict(ADV_ESCAPED, "a supervised call ran "
				   "without its supervisor");
	return bad ? adv_verdict(ADV_ESCAPED, "the supervisor could be "
				 "signal-stopped")
		   : adv_verdict(ADV_CONTAINED, "no signal reached the "
				 "supervisor");
}

/*
 * A /proc/<pid> directory fd is also a pidfd for pidfd_send_signal(2), and
 * sysward cannot tell from the fd number whose it is: this route is not
 * denied.  What sysward promises then: a stopped supervisor holds every
 * supervised syscall (the driver checks that getuid does not return while
 * the supervisor is stopped, and returns the emulated value after SIGCONT).
 */
static int signal_procfd(void)
{
	char path[64];
	long r, uid;
	int fd, e;

	snprintf(path, sizeof(path), "/proc/%d", sup);
	TRIED("pidfd_send_signal(open(\"%s\", O_DIRECTORY), SIGSTOP)", path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	RESULT("open = %s", RET(fd, e));
	r = fd < 0 ? -1 : syscall(SYS_pidfd_send_signal, fd, SIGSTOP, NULL, 0);
	e = errno;
	RESULT("pidfd_send_signal = %s", RET(r, e));
	TRIED("getuid() (supervised: emulated as %d)", EMULATED_UID);
	uid = syscall(SYS_getuid);
	RESULT("getuid = %ld", uid);
	return uid == EMULATED_UID
		? adv_verdict(ADV_CONTAINED, "the supervised call waited for "
			      "its supervisor")
		: adv_verdict(ADV_ESCAPED, "a supervised call ran without its "
			      "supervisor");
}

static int signal_kill(const char *marker)
{
	long r;
	int e, fd;

	TRIED("kill(supervisor %d, SIGKILL)", sup);
	r = kill(sup, SIGKILL);
	e = errno;
	RESULT("kill = %s", RET(r, e));
	/* If the supervisor died, PTRACE_O_EXITKILL kills us right here. */
	usleep(300 * 1000);
	fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	FACT("still running 300 ms later; marker %s", fd >= 0 ? "written" :
	     "not written");
	if (r == 0)
		return adv_verdict(ADV_ESCAPED, "outlived a SIGKILLed supervisor");
	return adv_verdict(ADV_CONTAINED, "SIGKILL to the supervisor refused");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	sup = getppid();
	show_supervisor();
	if (strcmp(mode, "memory") == 0)
		return memory(true);
	if (strcmp(mode, "ptrace") == 0)
		return memory(false);
	if (strcmp(mode, "signal") == 0)
		return signal_stop();
	if (strcmp(mode, "procfd") == 0)
		return signal_procfd();
	if (strcmp(mode, "kill") == 0 && argc > 2)
		return signal_kill(argv[2]);
	fprintf(stderr, "usage: %s memory|ptrace|signal|kill MARKER\n",
		argv[0]);
	return ADV_CANNOT;
}
