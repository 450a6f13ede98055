/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ownership helpers in the manner of systemd's _cleanup_ macros. */
#ifndef SYSWARD_CLEANUP_H
#define SYSWARD_CLEANUP_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void sw_freep(void *p)
{
	free(*(void **)p);
}

static inline void sw_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
}

static inline void sw_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

/* SIGKILL and reap a child that an error path would otherwise leak. */
static inline void sw_killpidp(pid_t *pid)
{
	if (*pid > 0) {
		int saved = errno;

		kill(*pid, SIGKILL);
		while (waitpid(*pid, NULL, __WALL) < 0 && errno == EINTR)
			;
		errno = saved;
	}
}

#define cleanup_free	__attribute__((cleanup(sw_freep)))
#define cleanup_close	__attribute__((cleanup(sw_closep)))
#define cleanup_fclose	__attribute__((cleanup(sw_fclosep)))
#define cleanup_pid	__attribute__((cleanup(sw_killpidp)))

/* Hand ownership out of a cleanup variable. */
#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })
#define TAKE_FD(fd) ({ int _fd = (fd); (fd) = -1; _fd; })
#define TAKE_PID(pid) ({ pid_t _pid = (pid); (pid) = 0; _pid; })

#endif
