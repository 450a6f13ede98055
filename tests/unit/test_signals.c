// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 11 (docs/security.md): signals and pid calls stay inside the
 * session's tree.  engine/trace/signals.c and engine/trace/reach.c against the fake
 * kernel and its fake /proc: for each call that aims a signal, names a
 * signal's later target, or takes a pid (reach.c's table), a target of
 * the session runs unchanged, one outside is refused with the documented
 * errno without reaching the kernel (the one-stop skip: orig_rax -1, rax
 * the error), and a target behind a descriptor or in memory is rewritten
 * to a call with the checked target in registers.  The engine is the real
 * one (sysward-engine-fake): each row is one SECCOMP stop through
 * sw_supervisor_dispatch, decided by decide.c under the compiled program
 * of an allow-everything policy of a supervisor (so both defences on).
 *
 * The stage (every pid far above pid_max, fake_kernel.h):
 *   session A: PID (group PID), its child KID (group PID), THREAD (a
 *     thread of PID), KID2 (leads group KID2); NEST (leads a group, in a
 *     child pid namespace NSX as 5) and its child KIDN (6 there);
 *     SIB, 8 in a sibling namespace NSY (NEST cannot see it);
 *     ZOMBIE, a child of PID that exited, not yet reaped
 *   session B: OTHER (group OTHER)
 *   STRANGER: a process of nobody's session; ZOMBIE_B: OTHER's zombie
 *   GONE: no such process
 * and the descriptors below, which the fake /proc's fdinfo describes. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/ioprio.h>
#include <linux/sockios.h>

#include "check_run.h"
#include "fake_kernel.h"
#include "internal.h"
#include "trace/trace.h"

enum {
	FD_KID = 5,		/* pidfd of KID */
	FD_THREAD = 6,		/* pidfd of THREAD, PIDFD_THREAD */
	FD_OTHER = 7,		/* pidfd of OTHER */
	FD_GONE = 8,		/* pidfd of a process gone (Pid: -1) */
	FD_FILE = 9,		/* no pidfd: a file */
	FD_DIR = 10,		/* /proc/KID, a directory */
	FD_KIDN = 11,		/* pidfd of KIDN (PID's and NEST's) */
	FD_SIB = 12,		/* NEST's pidfd of SIB */
};

#define PID		10000100
#define KID		10000101
#define THREAD		10000102
#define KID2		10000103
#define ZOMBIE		10000104
#define NEST		10000105
#define KIDN		10000106
#define SIB		10000107
#define OTHER		10000200
#define ZOMBIE_B	10000201
#define STRANGER	10000300
#define GONE		10000400
#define NSX		0xeffff0aaul
#define NSY		0xeffff0bbul
#define IN_NEST		5
#define KIDN_IN_NEST	6
#define SIB_IN_NSY	8

#define ADDR		0x7ffc000ff000ull	/* in the fake's memory window */
#define BAD_ADDR	0x1000ull
#define INFO		ADDR			/* a siginfo pointer */
#define HI		(1ull << 32)		/* ignored by the kernel */
#define NEG(x)		((uint64_t)-(int64_t)(x))

#define PIDFD_THREAD	O_EXCL
#define SIG_THREAD	1u
#define SIG_TGROUP	2u
#define SIG_PGROUP	4u

static struct sw_supervisor *sup;
static struct sw_session *sa, *sb;
static int warnings;

static void unstage(void)
{
	if (sup)
		sw_supervisor_free(sup);
	sup = NULL;
	fk_reset();
}

/* A tracee of s, as a fork or clone event leaves one. */
static void tracee(struct sw_session *s, pid_t pid, pid_t tgid, pid_t ppid,
		   pid_t pgid)
{
	struct sw_tracee *t = sw_tracee_add(sup, pid);

	ck_assert_ptr_nonnull(t);
	t->s = s;
	t->state = SW_T_RUNNING;
	t->announced = true;
	s->n_tracees++;
	fk_proc(pid, tgid, ppid);
	fk_proc_pgid(pid, pgid);
}

static void stage(void)
{
	struct sw_error err = { 0 };

	unstage();
	warnings = 0;
	ck_assert_int_eq(sw_supervisor_new(&sup, &err), 0);
	sw_supervisor_on_warning(sup, fk_count_warning, &warnings);
	sa = fk_session_new(sup, 1, PID, NULL);
	sb = fk_session_new(sup, 2, OTHER, NULL);
	tracee(sa, KID, KID, PID, PID);
	tracee(sa, THREAD, PID, 1, PID);
	tracee(sa, KID2, KID2, PID, KID2);
	tracee(sa, NEST, NEST, PID, NEST);
	tracee(sa, KIDN, KIDN, NEST, NEST);
	fk_proc_nested(NEST, IN_NEST, NSX);
	fk_proc_nested(KIDN, KIDN_IN_NEST, NSX);
	tracee(sa, SIB, SIB, PID, SIB);
	fk_proc_nested(SIB, SIB_IN_NSY, NSY);
	fk_proc(ZOMBIE, ZOMBIE, PID);
	fk_proc_zombie(ZOMBIE);
	fk_proc(ZOMBIE_B, ZOMBIE_B, OTHER);
	fk_proc_zombie(ZOMBIE_B);
	fk_proc(STRANGER, STRANGER, 1);
	fk_pidfd(PID, FD_KID, KID, 0);
	fk_pidfd(PID, FD_THREAD, THREAD, PIDFD_THREAD);
	fk_pidfd(PID, FD_OTHER, OTHER, 0);
	fk_pidfd(PID, FD_GONE, -1, 0);
	fk_procdir_fd(PID, FD_DIR, KID);
	fk_pidfd(PID, FD_KIDN, KIDN, 0);
	fk_pidfd(NEST, FD_KIDN, KIDN, 0);
	fk_pidfd(NEST, FD_KID, KID, 0);
	fk_pidfd(NEST, FD_SIB, SIB, 0);
}

/* ---- the rows ---------------------------------------------------------- */

struct row {
	const char *name;
	pid_t caller;			/* 0: PID */
	long nr;
	uint64_t a[6];
	bool poke;			/* mem at ADDR first */
	int32_t mem[2];
	void (*before)(void);		/* after the stage, before the stop */
	int err;			/* refused with it */
	long rw_nr;			/* else rewritten to rw_nr(rw...) */
	uint64_t rw[4];
};

#define CALL(n, ...)	.nr = (n), .a = { __VA_ARGS__ }
#define MEM(x, y)	.poke = true, .mem = { (x), (y) }
#define REFUSED(e)	.err = (e)
#define REWRITTEN(n, ...) .rw_nr = (n), .rw = { __VA_ARGS__ }
#define BY(pid)		.caller = (pid)

/* The target exits, and the exit reaches the tracer before the caller's
 * stop: the kernel reaped it (/proc shows nothing), or its parent (PID)
 * has not yet (a zombie whose parent is the session's). */
static void kid_exits(void)
{
	struct sw_error err = { 0 };

	fk_queue(KID, 0);		/* WIFEXITED, status 0 */
	ck_assert_int_eq(sw_supervisor_dispatch(sup, false, &err), 1);
	ck_assert_ptr_null(sw_tracee_find(sup, KID));
	fk_proc_gone(KID);
}

static void kid_exits_unreaped(void)
{
	kid_exits();
	fk_proc(KID, KID, PID);
	fk_proc_zombie(KID);
}

/* The pidfd's process goes while it is checked: its status unreadable. */
static void kid_status_gone(void)
{
	fk_fail(FK_PROC_READ, KID, ENOENT, true);
}

static const struct row rows[] = {
	/* kill(2): > 0 a tracee of the session, 0 and < -1 groups */
	{ "kill_kid", CALL(__NR_kill, KID, SIGTERM) },
	{ "kill_thread_tgid", CALL(__NR_kill, PID, SIGTERM) },
	{ "kill_other_session", CALL(__NR_kill, OTHER, SIGTERM), REFUSED(EPERM) },
	{ "kill_stranger", CALL(__NR_kill, STRANGER, SIGTERM), REFUSED(EPERM) },
	{ "kill_no_such_pid", CALL(__NR_kill, GONE, SIGTERM), REFUSED(ESRCH) },
	{ "kill_minus_1", CALL(__NR_kill, (uint64_t)-1, SIGKILL), REFUSED(EPERM) },
	{ "kill_minus_1_32bit", CALL(__NR_kill, 0xffffffffull, SIGKILL), REFUSED(EPERM) },
	{ "kill_0_own_group", CALL(__NR_kill, 0, SIGTERM) },
	{ "kill_own_group", CALL(__NR_kill, NEG(PID), SIGTERM) },
	{ "kill_group_of_tracee", CALL(__NR_kill, NEG(KID2), SIGTERM) },
	{ "kill_group_other", CALL(__NR_kill, NEG(OTHER), SIGTERM), REFUSED(EPERM) },
	{ "kill_group_stranger", CALL(__NR_kill, NEG(STRANGER), SIGTERM), REFUSED(EPERM) },
	{ "kill_group_none", CALL(__NR_kill, NEG(GONE), SIGTERM), REFUSED(ESRCH) },
	{ "kill_int_min", CALL(__NR_kill, (uint32_t)INT_MIN, SIGTERM), REFUSED(ESRCH) },
	{ "kill_high_bits_kid", CALL(__NR_kill, HI | KID, SIGTERM) },
	{ "kill_high_bits_other", CALL(__NR_kill, HI | OTHER, SIGTERM), REFUSED(EPERM) },
	{ "kill_high_bits_group", CALL(__NR_kill, HI | (uint32_t)-OTHER, SIGTERM), REFUSED(EPERM) },
	{ "kill_zombie_of_session", CALL(__NR_kill, ZOMBIE, 0) },
	{ "kill_zombie_of_other", CALL(__NR_kill, ZOMBIE_B, 0), REFUSED(EPERM) },
	{ "kill_exited_reaped", CALL(__NR_kill, KID, SIGTERM), .before = kid_exits,
	  REFUSED(ESRCH) },
	{ "kill_exited_unreaped", CALL(__NR_kill, KID, SIGTERM),
	  .before = kid_exits_unreaped },
	/* tkill, tgkill, rt_(tg)sigqueueinfo: <= 0 is the kernel's */
	{ "tkill_thread", CALL(__NR_tkill, THREAD, SIGTERM) },
	{ "tkill_other", CALL(__NR_tkill, OTHER, SIGTERM), REFUSED(EPERM) },
	{ "tkill_gone", CALL(__NR_tkill, GONE, SIGTERM), REFUSED(ESRCH) },
	{ "tkill_0", CALL(__NR_tkill, 0, SIGTERM), REFUSED(EINVAL) },
	{ "tkill_high_bits", CALL(__NR_tkill, HI | OTHER, SIGTERM), REFUSED(EPERM) },
	{ "tgkill_thread", CALL(__NR_tgkill, PID, THREAD, SIGTERM) },
	{ "tgkill_other_tid", CALL(__NR_tgkill, PID, OTHER, SIGTERM), REFUSED(EPERM) },
	{ "tgkill_other_tgid", CALL(__NR_tgkill, OTHER, THREAD, SIGTERM), REFUSED(EPERM) },
	{ "tgkill_0_kernels", CALL(__NR_tgkill, 0, OTHER, SIGTERM) },
	{ "sigqueue_kid", CALL(__NR_rt_sigqueueinfo, KID, SIGTERM, INFO) },
	{ "sigqueue_other", CALL(__NR_rt_sigqueueinfo, OTHER, SIGTERM, INFO), REFUSED(EPERM) },
	{ "sigqueue_gone", CALL(__NR_rt_sigqueueinfo, GONE, SIGTERM, INFO), REFUSED(ESRCH) },
	{ "sigqueue_group_kernels", CALL(__NR_rt_sigqueueinfo, NEG(OTHER), SIGTERM, INFO) },
	{ "tgsigqueue_thread", CALL(__NR_rt_tgsigqueueinfo, PID, THREAD, SIGTERM, INFO) },
	{ "tgsigqueue_other", CALL(__NR_rt_tgsigqueueinfo, OTHER, OTHER, SIGTERM, INFO),
	  REFUSED(EPERM) },
	/* pidfd_open: EPERM whether or not the pid exists */
	{ "pidfd_open_kid", CALL(__NR_pidfd_open, KID, 0) },
	{ "pidfd_open_other", CALL(__NR_pidfd_open, OTHER, 0), REFUSED(EPERM) },
	{ "pidfd_open_gone", CALL(__NR_pidfd_open, GONE, 0), REFUSED(EPERM) },
	{ "pidfd_open_0", CALL(__NR_pidfd_open, 0, 0), REFUSED(EINVAL) },
	{ "pidfd_open_high_bits", CALL(__NR_pidfd_open, HI | OTHER, 0), REFUSED(EPERM) },
	/* pidfd_send_signal: the checked pid in registers */
	{ "pidfd_kill", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, 0),
	  REWRITTEN(__NR_kill, KID, SIGTERM) },
	{ "pidfd_sigqueue", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, INFO, 0),
	  REWRITTEN(__NR_rt_sigqueueinfo, KID, SIGTERM, INFO) },
	{ "pidfd_thread_tgkill", CALL(__NR_pidfd_send_signal, FD_THREAD, SIGTERM, 0, 0),
	  REWRITTEN(__NR_tgkill, PID, THREAD, SIGTERM) },
	{ "pidfd_thread_tgsigqueue", CALL(__NR_pidfd_send_signal, FD_THREAD, SIGTERM, INFO, 0),
	  REWRITTEN(__NR_rt_tgsigqueueinfo, PID, THREAD, SIGTERM, INFO) },
	{ "pidfd_as_thread", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, SIG_THREAD),
	  REWRITTEN(__NR_tgkill, KID, KID, SIGTERM) },
	{ "pidfd_thread_as_group", CALL(__NR_pidfd_send_signal, FD_THREAD, SIGTERM, 0, SIG_TGROUP),
	  REWRITTEN(__NR_kill, PID, SIGTERM) },
	{ "pidfd_pgroup", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, SIG_PGROUP),
	  REWRITTEN(__NR_kill, NEG(PID), SIGTERM) },
	{ "pidfd_pgroup_info", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, INFO, SIG_PGROUP),
	  REFUSED(EINVAL) },
	{ "pidfd_proc_dir", CALL(__NR_pidfd_send_signal, FD_DIR, SIGTERM, 0, 0),
	  REWRITTEN(__NR_kill, KID, SIGTERM) },
	{ "pidfd_other", CALL(__NR_pidfd_send_signal, FD_OTHER, SIGTERM, 0, 0), REFUSED(EPERM) },
	{ "pidfd_gone", CALL(__NR_pidfd_send_signal, FD_GONE, SIGTERM, 0, 0), REFUSED(ESRCH) },
	{ "pidfd_not_a_pidfd", CALL(__NR_pidfd_send_signal, FD_FILE, SIGTERM, 0, 0),
	  REFUSED(EBADF) },
	{ "pidfd_negative_fd", CALL(__NR_pidfd_send_signal, (uint64_t)-1, SIGTERM, 0, 0),
	  REFUSED(EBADF) },
	{ "pidfd_two_scopes", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0,
				   SIG_THREAD | SIG_TGROUP), REFUSED(EINVAL) },
	{ "pidfd_unknown_flag", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, 8),
	  REFUSED(EINVAL) },
	{ "pidfd_high_bits_fd", CALL(__NR_pidfd_send_signal, HI | FD_KID, SIGTERM, 0, 0),
	  REWRITTEN(__NR_kill, KID, SIGTERM) },
	{ "pidfd_target_vanishes", CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, 0),
	  .before = kid_status_gone, REFUSED(ESRCH) },
	/* a child pid namespace: its numbers, the NS_GET_PARENT walk */
	{ "nested_kill_sibling", BY(NEST), CALL(__NR_kill, KIDN_IN_NEST, SIGTERM) },
	{ "nested_kill_own_group", BY(NEST), CALL(__NR_kill, NEG(IN_NEST), SIGTERM) },
	{ "nested_kill_unseen", BY(NEST), CALL(__NR_kill, SIB_IN_NSY, SIGTERM), REFUSED(EPERM) },
	{ "nested_kill_unknown", BY(NEST), CALL(__NR_kill, 7, SIGTERM), REFUSED(EPERM) },
	{ "nested_pidfd_its_numbers", BY(NEST),
	  CALL(__NR_pidfd_send_signal, FD_KIDN, SIGTERM, 0, 0),
	  REWRITTEN(__NR_kill, KIDN_IN_NEST, SIGTERM) },
	{ "nested_pidfd_unseen", BY(NEST), CALL(__NR_pidfd_send_signal, FD_KID, SIGTERM, 0, 0),
	  REFUSED(EINVAL) },
	{ "nested_pidfd_sibling_ns", BY(NEST),
	  CALL(__NR_pidfd_send_signal, FD_SIB, SIGTERM, 0, 0), REFUSED(EINVAL) },
	{ "pidfd_into_child_ns", CALL(__NR_pidfd_send_signal, FD_KIDN, SIGTERM, 0, 0),
	  REWRITTEN(__NR_kill, KIDN, SIGTERM) },
	/* setpgid: a new group, or one of the session's */
	{ "setpgid_new_group", CALL(__NR_setpgid, 0, 0) },
	{ "setpgid_own_pid", BY(KID), CALL(__NR_setpgid, 0, KID) },
	{ "setpgid_child_to_session_group", CALL(__NR_setpgid, KID, KID2) },
	{ "setpgid_foreign_group", CALL(__NR_setpgid, 0, OTHER), REFUSED(EPERM) },
	{ "setpgid_stranger_group", CALL(__NR_setpgid, KID, STRANGER), REFUSED(EPERM) },
	{ "setpgid_negative", CALL(__NR_setpgid, (uint64_t)-1, 0), REFUSED(EINVAL) },
	{ "setpgid_high_bits", CALL(__NR_setpgid, 0, HI | OTHER), REFUSED(EPERM) },
	/* F_SETOWN: > 0 a process, < 0 a group, 0 nobody */
	{ "setown_kid", CALL(__NR_fcntl, 3, F_SETOWN, KID) },
	{ "setown_group", CALL(__NR_fcntl, 3, F_SETOWN, NEG(PID)) },
	{ "setown_nobody", CALL(__NR_fcntl, 3, F_SETOWN, 0) },
	{ "setown_other", CALL(__NR_fcntl, 3, F_SETOWN, OTHER), REFUSED(EPERM) },
	{ "setown_other_group", CALL(__NR_fcntl, 3, F_SETOWN, NEG(OTHER)), REFUSED(EPERM) },
	{ "setown_gone", CALL(__NR_fcntl, 3, F_SETOWN, GONE), REFUSED(EPERM) },
	{ "setown_int_min", CALL(__NR_fcntl, 3, F_SETOWN, (uint32_t)INT_MIN), REFUSED(EINVAL) },
	{ "setown_high_bits", CALL(__NR_fcntl, 3, F_SETOWN, HI | OTHER), REFUSED(EPERM) },
	{ "getown_left_alone", CALL(__NR_fcntl, 3, F_GETOWN, OTHER) },
	/* F_SETOWN_EX and FIOSETOWN/SIOCSPGRP: read once, F_SETOWN */
	{ "setown_ex_pid", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_PID, KID),
	  REWRITTEN(__NR_fcntl, 3, F_SETOWN, KID) },
	{ "setown_ex_pgrp", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_PGRP, KID2),
	  REWRITTEN(__NR_fcntl, 3, F_SETOWN, NEG(KID2)) },
	{ "setown_ex_other", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_PID, OTHER),
	  REFUSED(EPERM) },
	{ "setown_ex_other_pgrp", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR),
	  MEM(F_OWNER_PGRP, OTHER), REFUSED(EPERM) },
	{ "setown_ex_tid", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_TID, KID),
	  REFUSED(EPERM) },
	{ "setown_ex_tid_0", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_TID, 0),
	  REWRITTEN(__NR_fcntl, 3, F_SETOWN, 0) },
	{ "setown_ex_negative", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(F_OWNER_PID, -5),
	  REFUSED(ESRCH) },
	{ "setown_ex_bad_type", CALL(__NR_fcntl, 3, F_SETOWN_EX, ADDR), MEM(9, KID),
	  REFUSED(EINVAL) },
	{ "setown_ex_unreadable", CALL(__NR_fcntl, 3, F_SETOWN_EX, BAD_ADDR), REFUSED(EFAULT) },
	{ "fiosetown_kid", CALL(__NR_ioctl, 4, FIOSETOWN, ADDR), MEM(KID, 0),
	  REWRITTEN(__NR_fcntl, 4, F_SETOWN, KID) },
	{ "siocspgrp_group", CALL(__NR_ioctl, 4, SIOCSPGRP, ADDR), MEM(-KID2, 0),
	  REWRITTEN(__NR_fcntl, 4, F_SETOWN, NEG(KID2)) },
	{ "fiosetown_other", CALL(__NR_ioctl, 4, FIOSETOWN, ADDR), MEM(OTHER, 0),
	  REFUSED(EPERM) },
	{ "siocspgrp_other", CALL(__NR_ioctl, 4, SIOCSPGRP, ADDR), MEM(-OTHER, 0),
	  REFUSED(EPERM) },
	{ "fiosetown_unreadable", CALL(__NR_ioctl, 4, FIOSETOWN, BAD_ADDR), REFUSED(EFAULT) },
	{ "other_ioctl_left_alone", CALL(__NR_ioctl, 4, 0x5401, BAD_ADDR) },
	/* reach.c's pid calls: EPERM outside (ESRCH for no such process) */
	{ "prlimit_0_self", CALL(__NR_prlimit64, 0, RLIMIT_CPU, ADDR, 0) },
	{ "setpriority_0_own_group", CALL(__NR_setpriority, PRIO_PGRP, 0, 5) },
	{ "prlimit_kid", CALL(__NR_prlimit64, KID, RLIMIT_CPU, ADDR, 0) },
	{ "prlimit_other", CALL(__NR_prlimit64, OTHER, RLIMIT_CPU, ADDR, 0), REFUSED(EPERM) },
	{ "prlimit_gone", CALL(__NR_prlimit64, GONE, RLIMIT_CPU, ADDR, 0), REFUSED(ESRCH) },
	{ "prlimit_high_bits", CALL(__NR_prlimit64, HI | OTHER, RLIMIT_CPU, 0, ADDR),
	  REFUSED(EPERM) },
	{ "prlimit_nested", BY(NEST), CALL(__NR_prlimit64, KIDN_IN_NEST, RLIMIT_CPU, ADDR, 0) },
	{ "sched_setscheduler_kid", CALL(__NR_sched_setscheduler, KID, 0, ADDR) },
	{ "sched_setscheduler_other", CALL(__NR_sched_setscheduler, OTHER, 0, ADDR),
	  REFUSED(EPERM) },
	{ "sched_setparam_other", CALL(__NR_sched_setparam, STRANGER, ADDR), REFUSED(EPERM) },
	{ "sched_setattr_other", CALL(__NR_sched_setattr, OTHER, ADDR, 0), REFUSED(EPERM) },
	{ "sched_setaffinity_other", CALL(__NR_sched_setaffinity, OTHER, 8, ADDR),
	  REFUSED(EPERM) },
	{ "setpriority_kid", CALL(__NR_setpriority, PRIO_PROCESS, KID, 5) },
	{ "setpriority_other", CALL(__NR_setpriority, PRIO_PROCESS, OTHER, 5), REFUSED(EPERM) },
	{ "setpriority_group", CALL(__NR_setpriority, PRIO_PGRP, KID2, 5) },
	{ "setpriority_other_group", CALL(__NR_setpriority, PRIO_PGRP, OTHER, 5),
	  REFUSED(EPERM) },
	{ "setpriority_no_group", CALL(__NR_setpriority, PRIO_PGRP, GONE, 5), REFUSED(ESRCH) },
	{ "setpriority_user", CALL(__NR_setpriority, PRIO_USER, 1000, 5), REFUSED(EPERM) },
	{ "setpriority_bad_which", CALL(__NR_setpriority, 99, OTHER, 5) },
	{ "ioprio_set_other", CALL(__NR_ioprio_set, IOPRIO_WHO_PROCESS, OTHER, 0),
	  REFUSED(EPERM) },
	{ "ioprio_set_group", CALL(__NR_ioprio_set, IOPRIO_WHO_PGRP, PID, 0) },
	{ "ioprio_set_user", CALL(__NR_ioprio_set, IOPRIO_WHO_USER, 0, 0), REFUSED(EPERM) },
};

#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* ---- the stop ---------------------------------------------------------- */

static pid_t caller_of(const struct row *r)
{
	return r->caller ? r->caller : PID;
}

static const struct row *row_named(const char *name)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	ck_abort_msg("no row %s", name);
	return NULL;
}

/* The stage, then r's call at a SECCOMP stop of its caller, dispatched. */
static struct fk_task *stop_at(const struct row *r)
{
	struct sw_error err = { 0 };
	pid_t pid = caller_of(r);

	stage();
	if (r->before)
		r->before();
	if (r->poke)
		fk_poke(pid, ADDR, r->mem, sizeof(r->mem));
	fk_seccomp(pid, 0xc000003e /* AUDIT_ARCH_X86_64 */, (uint64_t)r->nr, r->a,
		   0x401000);
	fk_queue(pid, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	ck_assert_int_eq(sw_supervisor_dispatch(sup, false, &err), 1);
	return fk_task(pid);
}

START_TEST(contained)
{
	const struct row *r = &rows[_i];
	pid_t pid = caller_of(r);
	struct fk_task *t = stop_at(r);

	ck_assert_msg(fk_count(PTRACE_CONT, pid) == 1, "%s: not resumed once", r->name);
	ck_assert_msg(!fk_called(FK_KILL, pid, SIGKILL), "%s: killed", r->name);
	ck_assert_int_eq(warnings, 0);
	if (r->err) {
		/* Skipped at its one stop: the kernel never runs it. */
		ck_assert_msg(t->regs.orig_rax == (uint64_t)-1 &&
			      t->regs.rax == (uint64_t)-(int64_t)r->err,
			      "%s: not refused with %d (rax %lld)", r->name, r->err,
			      (long long)t->regs.rax);
		ck_assert_uint_eq(t->n_sets, 0);
	} else if (r->rw_nr) {
		ck_assert_msg(t->n_sets == 1, "%s: not rewritten (orig_rax %lld)",
			      r->name, (long long)t->regs.orig_rax);
		ck_assert_int_eq(t->sets[0].op, SW_PTRACE_SYSCALL_INFO_SECCOMP);
		ck_assert_uint_eq(t->sets[0].seccomp.nr, (uint64_t)r->rw_nr);
		for (int i = 0; i < 4; i++)
			ck_assert_msg(t->sets[0].seccomp.args[i] == r->rw[i],
				      "%s: argument %d is %llx, not %llx", r->name, i,
				      (unsigned long long)t->sets[0].seccomp.args[i],
				      (unsigned long long)r->rw[i]);
		ck_assert_uint_eq(fk_count(PTRACE_POKEUSER, pid), 0);
	} else {
		ck_assert_msg(t->n_sets == 0 && fk_count(PTRACE_POKEUSER, pid) == 0,
			      "%s: not left to run (rax %lld)", r->name,
			      (long long)t->regs.rax);
		ck_assert_uint_eq(t->regs.orig_rax, (uint64_t)r->nr);
	}
}
END_TEST

/* Every request of the kernel's the decision needs, refused: killed with
 * a warning, or quietly left alone if the tracee is gone (ESRCH). */
static const struct failure {
	const char *row;
	long req;
	int e;
} failures[] = {
	{ "kill_other_session", PTRACE_POKEUSER, EIO },
	{ "kill_other_session", PTRACE_POKEUSER, ESRCH },
	{ "pidfd_kill", SW_PTRACE_SET_SYSCALL_INFO, EIO },
	{ "pidfd_kill", SW_PTRACE_SET_SYSCALL_INFO, ESRCH },
	{ "setown_ex_pid", SW_PTRACE_SET_SYSCALL_INFO, EPERM },
	{ "fiosetown_kid", SW_PTRACE_SET_SYSCALL_INFO, EIO },
	{ "kill_kid", SW_PTRACE_GET_SYSCALL_INFO, EIO },
	{ "kill_kid", SW_PTRACE_GET_SYSCALL_INFO, ESRCH },
	{ "kill_kid", PTRACE_CONT, EIO },
	{ "kill_kid", PTRACE_CONT, ESRCH },
	{ "prlimit_other", PTRACE_POKEUSER, EIO },
};

#define N_FAILURES (sizeof(failures) / sizeof(failures[0]))

static void fail_before(void);
static const struct failure *failing;

START_TEST(fails_closed)
{
	const struct failure *f = &failures[_i];
	struct row r = *row_named(f->row);
	pid_t pid = caller_of(&r);
	bool loud = f->e != ESRCH;

	failing = f;
	r.before = fail_before;
	stop_at(&r);
	ck_assert_msg(fk_called(FK_KILL, pid, SIGKILL) == loud && warnings == loud,
		      "%s, %ld refused (%d): killed %d, %d warnings", f->row, f->req,
		      f->e, fk_called(FK_KILL, pid, SIGKILL), warnings);
	/* Never resumed into the call as it was, after a refused change. */
	if (f->req != PTRACE_CONT)
		ck_assert_uint_eq(fk_count(PTRACE_CONT, pid), 0);
}
END_TEST

static void fail_before(void)
{
	const struct row *r = row_named(failing->row);

	if (r->before)
		r->before();
	fk_fail(failing->req, caller_of(r), failing->e, false);
}

int main(void)
{
	Suite *s = suite_create("signals");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, contained, 0, (int)N_ROWS);
	tcase_add_loop_test(tc, fails_closed, 0, (int)N_FAILURES);
	tcase_add_checked_fixture(tc, NULL, unstage);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
