// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Waking a tracer thread that sleeps in waitpid: the bell.
 *
 * ptrace ties a tracee to the thread that seized it, and a daemon with
 * several tracer threads (syswardd's shards) gives each its own sessions.
 * Such a thread sleeps in waitpid(__WNOTHREAD), which wakes for nothing
 * but a state change of one of its own children or tracees; yet other
 * threads must reach it (a new session, a kill, shutdown).  No waitpid
 * also watches a file descriptor, and a signal with a handler can arrive
 * between the thread's last look at its queue and its waitpid, and be
 * lost.  So each tracer thread traces one more child, the bell: a process
 * that only sleeps.  Ringing is sending the bell a signal; the signal
 * stops it (signal-delivery-stop), which wakes its tracer's waitpid, and
 * the tracer resumes it with the signal suppressed.  The stop lasts until
 * the tracer has seen it, so a ring is never lost, however busy the
 * tracer is when it comes.
 *
 * The bell is rung through a pidfd under bell_mu, and the tracer replaces
 * the bell (and that pidfd) under the same lock if it dies (only root can
 * kill it), so a ring never reaches a recycled pid or descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysward/syscall_nr.h"
#include "internal.h"
#include "trace/trace.h"

#define BELL_SIGNAL SIGUSR1
/* The alarm: delivered to the bell, whose handler sleeps SW_BELL_ALARM_MS
 * and then rings itself.  A tracer thread that must look at something
 * after a while (resultcheck.c: a held session whose call may wait on a
 * FIFO) is woken so, with no thread of its own and no signal handler in
 * the supervisor's process. */
#define BELL_ALARM SIGUSR2

static void alarm_handler(int sig)
{
	(void)sig;
	nanosleep(&(struct timespec){ 0, SW_BELL_ALARM_MS * 1000000L }, NULL);
	syscall(SYS_kill, syscall(SYS_getpid), BELL_SIGNAL);
}

static _Noreturn void bell_child(int ready_fd, int go_fd)
{
	sigset_t none;
	char c;

	/* A daemon without CAP_SYS_PTRACE (a user's own) can only seize a
	 * dumpable child, and we inherited the supervisor's non-dumpable
	 * flag.  Dumpable only until seized: a same-uid program must not
	 * open our /proc/<pid>/mem (the flag is checked at attach and open,
	 * so our tracer keeps us). */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (write(ready_fd, "r", 1) != 1 || read(go_fd, &c, 1) != 1)
		_exit(1);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* It holds nothing of the daemon's: no socket, no client's pipe. */
	syscall(SYS_close_range, 3u, ~0u, 0u);
	/* Not the daemon's process but the thread that forked us: if that
	 * thread ends, so does its bell. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	prctl(PR_SET_NAME, "syswardd-bell", 0, 0, 0);
	/* The ring must reach us (a blocked signal does not stop us); its
	 * default action is to end us, should it ever arrive untraced. */
	signal(BELL_SIGNAL, SIG_DFL);
	signal(BELL_ALARM, alarm_handler);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (;;)
		pause();
}

/* Fork and seize a new bell; called on the tracer thread. */
static int bell_start(struct sw_supervisor *sup, struct sw_error *err)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, fd, e;
	ssize_t n;
	char c;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0) {
		e = errno;
		pid = -1;
	} else {
		pid = fork();
		e = errno;
	}
	if (pid < 0) {
		for (int i = 0; i < 2; i++) {
			if (ready[i] >= 0)
				close(ready[i]);
			if (go[i] >= 0)
				close(go[i]);
		}
		return sw_error_set_errno(err, e, "fork the tracer thread's bell");
	}
	if (pid == 0)
		bell_child(ready[1], go[0]);
	close(ready[1]);
	close(go[0]);
	/* Bounded: the child makes one prctl before it answers. */
	while ((n = read(ready[0], &c, 1)) < 0 && errno == EINTR)
		;
	close(ready[0]);
	if (n != 1)
		e = ECHILD;
	else if (ptrace(PTRACE_SEIZE, pid, 0L, (long)PTRACE_O_EXITKILL) < 0)
		e = errno;
	else if (write(go[1], "g", 1) != 1)
		e = errno;
	else
		e = 0;
	close(go[1]);
	if (e) {
		kill(pid, SIGKILL);
		sw_reap(pid);
		return sw_error_set_errno(err, e, "trace the bell %d (PTRACE_SEIZE)", pid);
	}
	/* Our unreaped child: the pid cannot be reused under us. */
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		e = errno;
		kill(pid, SIGKILL);
		sw_reap(pid);
		return sw_error_set_errno(err, e, "open a pidfd of the bell %d", pid);
	}
	pthread_mutex_lock(&sup->bell_mu);
	sup->bell_pid = pid;
	sup->bell_fd = fd;
	pthread_mutex_unlock(&sup->bell_mu);
	return 0;
}

int sw_supervisor_enable_wake(struct sw_supervisor *sup, struct sw_error *err)
{
	if (sup->bell_pid > 0)
		return 0;
	return bell_start(sup, err);
}

void sw_supervisor_wake(struct sw_supervisor *sup)
{
	pthread_mutex_lock(&sup->bell_mu);
	if (sup->bell_fd >= 0)
		(void)syscall(SYS_pidfd_send_signal, sup->bell_fd, BELL_SIGNAL,
			      NULL, 0u);
	pthread_mutex_unlock(&sup->bell_mu);
}

bool sw_bell_status(struct sw_supervisor *sup, pid_t pid, int status)
{
	struct sw_error err = { 0 };

	if (pid <= 0 || pid != sup->bell_pid)
		return false;
	if (WIFSTOPPED(status) && WSTOPSIG(status) == BELL_ALARM &&
	    !(status >> 16)) {
		/* The alarm, armed: its handler runs, and rings later. */
		ptrace(PTRACE_CONT, pid, 0L, (void *)(long)BELL_ALARM);
		return true;
	}
	if (WIFSTOPPED(status)) {
		/* A ring (an alarm's too), or a stop from outside: resume,
		 * signal dropped. */
		sup->bell_alarm = false;
		ptrace(PTRACE_CONT, pid, 0L, 0L);
		return true;
	}
	sup->bell_alarm = false;
	/* Killed from outside: a wake sent meanwhile was lost, but the
	 * caller looks at its queue when dispatch returns, after this. */
	pthread_mutex_lock(&sup->bell_mu);
	close(sup->bell_fd);
	sup->bell_fd = -1;
	sup->bell_pid = 0;
	pthread_mutex_unlock(&sup->bell_mu);
	if (bell_start(sup, &err) < 0 && sup->warn_fn)
		sup->warn_fn(NULL, err.msg, sup->warn_ud);
	return true;
}

void sw_bell_alarm(struct sw_supervisor *sup)
{
	struct sw_error err = { 0 };

	if (sup->bell_alarm)
		return;
	if (sup->bell_pid <= 0 && bell_start(sup, &err) < 0) {
		if (sup->warn_fn)
			sup->warn_fn(NULL, err.msg, sup->warn_ud);
		return;
	}
	pthread_mutex_lock(&sup->bell_mu);
	if (sup->bell_fd >= 0 &&
	    syscall(SYS_pidfd_send_signal, sup->bell_fd, BELL_ALARM, NULL, 0u) == 0)
		sup->bell_alarm = true;
	pthread_mutex_unlock(&sup->bell_mu);
}

void sw_bell_stop(struct sw_supervisor *sup)
{
	pid_t pid;

	pthread_mutex_lock(&sup->bell_mu);
	pid = sup->bell_pid;
	if (sup->bell_fd >= 0)
		close(sup->bell_fd);
	sup->bell_fd = -1;
	sup->bell_pid = 0;
	pthread_mutex_unlock(&sup->bell_mu);
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	sw_reap(pid);
}
