// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route: reach syswardd's tracer threads through their bells (engine/
 * bell.c) or the daemon itself.  A bell is a child of the daemon that each
 * tracer thread traces and is woken by; it runs as the daemon's uid, so a
 * program of that uid may signal it as far as the kernel goes.  For every
 * process named syswardd-bell or syswardd: kill() with SIGSTOP and SIGKILL,
 * pidfd_open + pidfd_send_signal, PTRACE_SEIZE/ATTACH, open of its
 * /proc/<pid>/mem, its maps and process_vm_readv of its first mapping.
 *
 *   adv_bell PID...   (under syswardd, any policy; PIDs: the daemon and
 *                     its bells, so that no other daemon on the machine
 *                     is hit should the route be open)
 *
 * Contained: every attempt fails, and the bells keep their pids (the test
 * compares them).  Escaped: any attempt succeeds.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "adv.h"

static int escaped;

static void attempt(const char *what, pid_t pid, long r, int e)
{
	RESULT("%s(%d) = %s", what, (int)pid, RET(r, e));
	if (r != -1)
		escaped++;
}

static void attack(pid_t pid, const char *name)
{
	char path[64], buf[64];
	struct iovec l = { buf, sizeof(buf) }, rm;
	long r;
	int fd;

	TRIED("reach %s %d", name, (int)pid);
	errno = 0;
	r = kill(pid, SIGSTOP);
	attempt("kill SIGSTOP", pid, r, errno);
	if (r == 0)
		kill(pid, SIGCONT);
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0) {
		r = syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
		attempt("pidfd_send_signal SIGKILL", pid, r, errno);
		close(fd);
	} else {
		FACT("pidfd_open(%d): %s", (int)pid, strerror(errno));
	}
	r = ptrace(PTRACE_SEIZE, pid, 0L, 0L);
	attempt("ptrace SEIZE", pid, r, errno);
	r = ptrace(PTRACE_ATTACH, pid, 0L, 0L);
	attempt("ptrace ATTACH", pid, r, errno);
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	attempt("open /proc/pid/mem", pid, fd < 0 ? -1 : 0, errno);
	if (fd >= 0)
		close(fd);
	/* Its first mapping, if its maps are readable at all (that needs
	 * the same rights as the read itself). */
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	r = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	attempt("read /proc/pid/maps", pid, r > 0 ? 0 : -1, fd < 0 ? errno : EACCES);
	if (fd >= 0)
		close(fd);
	if (r > 0) {
		buf[r] = '\0';
		rm = (struct iovec){ (void *)strtoul(buf, NULL, 16), 16 };
		r = process_vm_readv(pid, &l, 1, &rm, 1, 0);
		attempt("process_vm_readv", pid, r < 0 ? -1 : r, errno);
	}
	errno = 0;
	r = kill(pid, SIGKILL);
	attempt("kill SIGKILL", pid, r, errno);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: adv_bell PID...\n");
		return ADV_CANNOT;
	}
	for (int i = 1; i < argc; i++) {
		char path[64], comm[64] = "";
		pid_t pid = (pid_t)atoi(argv[i]);
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "re");
		/* The session's own /proc (route 16) hides the daemon: the
		 * caller, outside, saw the PIDs exist; attack them anyway. */
		if (!f && errno == ENOENT) {
			FACT("/proc/%d is hidden from this session", (int)pid);
			attack(pid, "hidden pid");
			continue;
		}
		if (!f || !fgets(comm, sizeof(comm), f)) {
			if (f)
				fclose(f);
			return adv_verdict(ADV_CANNOT, "a PID is not in sight");
		}
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		attack(pid, comm);
	}
	if (escaped)
		return adv_verdict(ADV_ESCAPED, "reached a bell or the daemon");
	return adv_verdict(ADV_CONTAINED, NULL);
}
