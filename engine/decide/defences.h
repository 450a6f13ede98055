/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The built-in defences' tables, defined in program.c and read by the
 * filter (filter.c), the decision (decide.c) and the stops that check
 * them (trace/): the syscalls they look at per ABI, the calls they
 * refuse, the pid-taking calls they keep to the session.
 */
#ifndef SW_ENGINE_DEFENCES_H
#define SW_ENGINE_DEFENCES_H

#include "internal.h"

/* The syscalls the defences look at, per ABI (-1 = absent there). */
enum sw_def_sys {
	SW_SYS_CLONE,
	SW_SYS_KILL,
	SW_SYS_TKILL,
	SW_SYS_TGKILL,
	SW_SYS_PIDFD_OPEN,
	SW_SYS_RT_SIGQUEUEINFO,
	SW_SYS_RT_TGSIGQUEUEINFO,
	SW_SYS_EXIT,
	SW_SYS_SOCKETCALL,
	/* signals.c: calls that aim a signal, or set who gets one */
	SW_SYS_PIDFD_SEND_SIGNAL,
	SW_SYS_SETPGID,
	SW_SYS_FCNTL,
	SW_SYS_FCNTL64,
	SW_SYS_IOCTL,
	/* reach.c: calls that change another process by pid, group or uid */
	SW_SYS_PRLIMIT64,
	SW_SYS_SETPRIORITY,
	SW_SYS_IOPRIO_SET,
	SW_SYS_SCHED_SETSCHEDULER,
	SW_SYS_SCHED_SETPARAM,
	SW_SYS_SCHED_SETATTR,
	SW_SYS_SCHED_SETAFFINITY,
	/* objects.c: calls on the uid's kernel objects; resultcheck.c's
	 * injected close */
	SW_SYS_CLOSE,
	SW_SYS_OPEN,
	SW_SYS_OPENAT,
	SW_SYS_CREAT,
	SW_SYS_OPENAT2,
	SW_SYS_OPEN_BY_HANDLE_AT,
	SW_SYS_SHMGET,
	SW_SYS_SHMAT,
	SW_SYS_SHMCTL,
	SW_SYS_SEMGET,
	SW_SYS_SEMOP,
	SW_SYS_SEMTIMEDOP,
	SW_SYS_SEMTIMEDOP_TIME64,
	SW_SYS_SEMCTL,
	SW_SYS_MSGGET,
	SW_SYS_MSGSND,
	SW_SYS_MSGRCV,
	SW_SYS_MSGCTL,
	SW_SYS_IPC,
	SW_SYS_MQ_OPEN,
	SW_SYS_MQ_UNLINK,
	SW_SYS_MQ_TIMEDSEND,
	SW_SYS_MQ_TIMEDSEND_TIME64,
	SW_SYS_MQ_TIMEDRECEIVE,
	SW_SYS_MQ_TIMEDRECEIVE_TIME64,
	SW_SYS_MQ_NOTIFY,
	SW_SYS_MQ_GETSETATTR,
	SW_SYS_KEYCTL,
	SW_SYS_ADD_KEY,
	SW_SYS_REQUEST_KEY,
	SW_SYS_UNSHARE,
	SW_SYS_SETNS,
	/* peers.c: a unix connection's peer, a session's listeners */
	SW_SYS_CONNECT,
	SW_SYS_LISTEN,
	/* linegate.c: the program's writes to its standard error */
	SW_SYS_WRITE,
	SW_SYS_WRITEV,
	SW_SYS_PWRITE64,
	SW_SYS_PWRITEV,
	SW_SYS_PWRITEV2,
	SW_SYS_COUNT,
};

/*
 * The built-in defences that refuse a call: calls that reach past seccomp
 * and the supervisor (io_uring's operations, a descriptor taken from
 * another process), that can stop the supervisor itself (a userfaultfd
 * that blocks its reads of the program's memory), or that would let the
 * program act outside its sandbox (ptrace, process_vm_writev, seccomp
 * listeners, TIOCSTI; clone3 for the flags we cannot see).  One table, in
 * program.c, for the filter (filter.c), the supervisor's second look
 * (decide.c) and the policy's opt-ins (program.c): a call whose
 * conditions all hold, at the width the kernel reads them, fails with
 * err.  The defences that send a call to the supervisor instead (signals,
 * CLONE_UNTRACED) are checked there.
 */
struct sw_denial {
	unsigned int defence;		/* SW_DEFENCE_* */
	const char *name;
	size_t n_args;
	struct sw_arg_cond args[2];
	int err;
	const char *why;
	const char *route;		/* its route in docs/security.md */
	const char *opt_in;		/* how a policy turns it off, or NULL */
};
#define SW_DENIAL_COUNT 11
extern const struct sw_denial sw_denials[SW_DENIAL_COUNT];

/* How a call names its target: a process (tid), a process group, or
 * every process of a uid. */
enum sw_pid_form { SW_PID_PROCESS, SW_PID_PGRP, SW_PID_USER };

/*
 * The calls that change (or read) another process by pid, group or uid
 * with only a uid match for permission (SW_DEFENCE_PID_CALLS; reach.c
 * lists the kernel's check of each).  One table, in program.c beside
 * sw_denials[]: filter.c traces a call whose target argument is not 0
 * (the caller itself) or whose "which" says a uid; sw_reach_contain()
 * checks the target at the stop.
 */
struct sw_pid_call {
	enum sw_def_sys sys;
	const char *name;
	unsigned int target;		/* index of the pid/pgid/uid argument */
	int which;			/* index of the argument saying which
					 * form, or -1: always a process */
	int which_val[3];		/* its value for each enum sw_pid_form */
};
#define SW_PID_CALL_COUNT 7
extern const struct sw_pid_call sw_pid_calls[SW_PID_CALL_COUNT];

#endif
