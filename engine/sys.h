/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel as the supervisor's loop and stop handlers see it (tracer.c,
 * session.c, actions.c): waitpid, ptrace, kill and the /proc status read
 * that places a tid.  In the product these are inline
 * wrappers that compile to the very calls they name (no table, no
 * indirect call in the dispatch loop).
 *
 * Why a seam at all: the tracer's bookkeeping must be exact for every
 * order in which a creation event, the child's first stop and its exit
 * reach waitpid (tracer.c, "Event order"), and real processes racing
 * cannot force a given order; and every way the kernel can refuse a
 * PTRACE_SET_SYSCALL_INFO must fail closed, which a live kernel rarely
 * shows.  tests/unit/test_tracer_events.c (tracer.c) and test_actions.c
 * (actions.c) compile them with SW_SYS_FAKE defined: these become plain
 * declarations, and each test defines them as a scripted fake kernel
 * (compile-time substitution, so nothing is paid at run time).
 */
#ifndef SW_ENGINE_SYS_H
#define SW_ENGINE_SYS_H

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "sysward/proc.h"

#ifdef SW_SYS_FAKE
pid_t sw_sys_waitpid(pid_t pid, int *status, int options);
long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data);
int sw_sys_kill(pid_t pid, int sig);
int sw_sys_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid);
#else
static inline pid_t sw_sys_waitpid(pid_t pid, int *status, int options)
{
	return waitpid(pid, status, options);
}

static inline long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data)
{
	return ptrace((enum __ptrace_request)req, pid, addr, data);
}

static inline int sw_sys_kill(pid_t pid, int sig)
{
	return kill(pid, sig);
}

static inline int sw_sys_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	return sw_proc_ids(tid, tgid, ppid);
}
#endif

#endif
