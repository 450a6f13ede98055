// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Signals stay inside the program's process tree (SW_DEFENCE_SIGNAL_SUPERVISOR).
 *
 * The kernel lets a process signal any process of its uid.  A program
 * under sysward may only signal processes of its own session: the
 * tracees the supervisor holds for that session, and the process groups
 * they make up.  The defence filter (filter.c) traces every call that
 * aims a signal, or names who gets one later; here, at the SECCOMP stop
 * and after the policy allowed the call, its target is checked against
 * the session's tracee table (reach.c: the one answer to "is this pid,
 * this group, the session's?").  pid_t and int arguments are read as
 * the kernel reads them: the low 32 bits (kill(pid | 1 << 32) is
 * kill(pid)).
 *
 * Targets, from kill(2):
 *   pid > 0       a tracee of the caller's session
 *   0             the caller's own group: always one of the session's
 *                 (below)
 *   -1            every process the caller may signal: refused (EPERM);
 *                 emulating it would signal with the supervisor's rights
 *   < -1          a process group that holds a tracee of the session
 *
 * A group that holds a tracee of the session is the session's own: every
 * program starts in a group (or session) of its own (launchchild.c), new
 * groups are created with the creator's pid, and setpgid(2) into a group
 * that is not the session's is refused here, so a tracee is never in
 * another group.  (Only processes of the same kernel session can join a
 * group: the embedded program's is its user's shell's; a daemon's
 * program has one of its own, led by its holder, launchchild.c.)
 *
 * Calls whose target is behind a descriptor or in memory are rewritten
 * to the same effect with the checked target in registers, so that no
 * other thread can change it after the check: pidfd_send_signal(fd) ->
 * kill / tgkill / rt_(tg)sigqueueinfo(pid), F_SETOWN_EX and
 * FIOSETOWN/SIOCSPGRP -> fcntl(F_SETOWN, owner).  A pid checked here
 * could only name another process if the tracee exited, was reaped by the
 * supervisor and by its parent, and the kernel wrapped around pid_max
 * before the caller's call ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/proc.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "trace/reach.h"

#ifndef F_SETOWN_EX
#define F_SETOWN_EX 15
#define F_OWNER_TID 0
#define F_OWNER_PID 1
#define F_OWNER_PGRP 2
#endif
#ifndef FIOSETOWN
#define FIOSETOWN 0x8901
#endif
#ifndef SIOCSPGRP
#define SIOCSPGRP 0x8902
#endif
#define SW_PIDFD_THREAD		O_EXCL		/* pidfd_open(PIDFD_THREAD) */
#define SW_PIDFD_SIGNAL_THREAD		(1u << 0)
#define SW_PIDFD_SIGNAL_THREAD_GROUP	(1u << 1)
#define SW_PIDFD_SIGNAL_PROCESS_GROUP	(1u << 2)

static int32_t tgid_of(pid_t tid)
{
	char path[64];
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	return sw_reach_proc_field(path, "Tgid", 10, 0, &v) ? (int32_t)v : -1;
}

/* The caller's process id as its own pid namespace numbers it. */
static int32_t own_pid(pid_t tid)
{
	int32_t tgid = tgid_of(tid);
	int depth = tgid > 0 ? sw_reach_ns_depth(tgid) : -1;
	char path[64];
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", tgid);
	if (depth <= 0 || !sw_reach_proc_field(path, "NSpid", 10, depth - 1, &v))
		return -1;
	return (int32_t)v;
}

static bool read_int(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	return sw_tracee_read(pid, addr, buf, len) == (int)len;
}

/* Run nr(a0, a1, a2, a3) instead; 0 or refused (absent on this ABI). */
static void rewrite(const struct sw_program *prog, enum sw_abi abi,
		    struct sw_decision *d, enum sw_def_sys sys, int64_t a0,
		    int64_t a1, uint64_t a2, uint64_t a3, const char *why)
{
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;

	if (prog->sys[abi][sys] < 0) {
		sw_refuse(d, ENOSYS, why);
		return;
	}
	d->verdict = SW_V_REWRITE;
	d->rule = SW_RULE_DEFENCE;
	d->nr = (uint64_t)prog->sys[abi][sys];
	d->args[0] = (uint64_t)a0 & mask;
	d->args[1] = (uint64_t)a1 & mask;
	d->args[2] = a2 & mask;
	d->args[3] = a3 & mask;
	d->why = why;
}

static bool is(const struct sw_program *prog, enum sw_abi abi,
	       enum sw_def_sys sys, uint64_t nr)
{
	return prog->sys[abi][sys] >= 0 && (uint64_t)prog->sys[abi][sys] == nr;
}

static const char why_out[] = "signal to a process outside the program's tree denied";

/* kill(2)'s target rules; 0 = allowed, else the errno to refuse with. */
static int kill_target(struct sw_supervisor *sup, struct sw_session *s,
		       pid_t caller, int32_t pid)
{
	if (pid > 0)
		return sw_reach_pid(sup, s, caller, pid) ? 0
		       : sw_reach_refusal(caller, pid);
	if (pid == 0)
		return 0;	/* the caller's group: the session's own */
	if (pid == -1)
		return EPERM;
	if (pid == INT_MIN)
		return ESRCH;	/* the kernel's answer: -INT_MIN is no pid */
	return sw_reach_group(sup, s, caller, -pid) ? 0
	       : sw_reach_refusal(caller, pid);
}

/* F_SETOWN's owner: > 0 a process, < 0 a group, 0 nobody. */
static int owner_target(struct sw_supervisor *sup, struct sw_session *s,
			pid_t caller, int32_t owner)
{
	if (owner == 0)
		return 0;
	if (owner == INT_MIN)
		return EINVAL;	/* as f_setown() */
	return owner > 0 ? (sw_reach_pid(sup, s, caller, owner) ? 0 : EPERM)
			 : (sw_reach_group(sup, s, caller, -owner) ? 0 : EPERM);
}

/* Our process pid's field ("NSpid", "NStgid", "NSpgid") as a caller
 * depth pid namespaces deep numbers it (the kernel reads a rewritten
 * call's pids there), or -1.  The caller must see pid (sw_reach_sees()). */
static int32_t for_caller(int depth, pid_t pid, const char *field)
{
	char path[64];
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (depth <= 0 || !sw_reach_proc_field(path, field, 10, depth - 1, &v))
		return -1;
	return (int32_t)v;
}

/* pidfd_send_signal(fd, sig, info, flags): find whose pidfd fd is (from
 * /proc/<tid>/fdinfo, as the supervisor sees that pid), then signal that
 * pid, so that swapping fd after the check changes nothing.  A /proc/<pid>
 * directory fd (which the kernel also accepts) is refused as not a
 * pidfd: which pid it names depends on the procfs instance. */
/*
 * A /proc/<pid> directory descriptor: the kernel signals that process
 * (tgid_pidfd_to_pid).  Its number is the directory's name, in the pid
 * namespace of the procfs it belongs to; it is taken only if the
 * directory is the one a procfs of the supervisor's pid namespace shows
 * for that number (same device and inode): the supervisor's /proc, or
 * the program's own (route 16: the launch mounts one, of the same pid
 * namespace, when it can) reached through /proc/<tid>/root, whose
 * NSpid line for the number must then equal ours (a procfs of a nested
 * pid namespace numbers its processes otherwise).  A process that died
 * and whose number was taken again has another directory.  0: not such
 * a directory.
 */
static bool same_dir(const char *a_path, const char *b_path)
{
	struct stat a, b;

	return sw_sys_stat(a_path, &a) == 0 && sw_sys_stat(b_path, &b) == 0 &&
	       S_ISDIR(a.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static bool same_nspid(const char *a_dir, const char *b_dir)
{
	char a_path[PATH_MAX], b_path[PATH_MAX];
	char a[SW_PROC_TEXT_MAX], b[SW_PROC_TEXT_MAX];
	const char *na, *nb;

	snprintf(a_path, sizeof(a_path), "%s/status", a_dir);
	snprintf(b_path, sizeof(b_path), "%s/status", b_dir);
	if (sw_sys_proc_read(a_path, a, sizeof(a)) < 0 ||
	    sw_sys_proc_read(b_path, b, sizeof(b)) < 0)
		return false;
	na = sw_proc_field(a, "NSpid");
	nb = sw_proc_field(b, "NSpid");
	return na && nb && strcspn(na, "\n") == strcspn(nb, "\n") &&
	       !strncmp(na, nb, strcspn(na, "\n"));
}

static long proc_dir_pid(pid_t tid, int32_t fd)
{
	char link[64], target[PATH_MAX], own[64], theirs[96], *end;
	const char *name;
	ssize_t n;
	long pid;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", tid, fd);
	n = sw_sys_readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	name = strrchr(target, '/');
	if (!name || !name[1])
		return 0;
	errno = 0;
	pid = strtol(name + 1, &end, 10);
	if (errno || *end || pid <= 0 || pid > INT32_MAX)
		return 0;
	snprintf(own, sizeof(own), "/proc/%ld", pid);
	if (same_dir(link, own))
		return pid;
	snprintf(theirs, sizeof(theirs), "/proc/%d/root/proc/%ld", tid, pid);
	if (same_dir(link, theirs) && same_nspid(theirs, own))
		return pid;
	return 0;
}

static void pidfd_send(struct sw_supervisor *sup, struct sw_tracee *t,
		       enum sw_abi abi, struct sw_decision *d)
{
	const struct sw_program *prog = t->s->prog;
	int32_t fd = sw_as_int(d->args[0]), sig = sw_as_int(d->args[1]);
	uint64_t info = d->args[2];
	uint32_t flags = (uint32_t)d->args[3];
	char path[64];
	long pid, fl;
	bool thread;
	int depth;

	/* The kernel's order: the flags (at most one scope), then the fd. */
	if ((flags & ~(SW_PIDFD_SIGNAL_THREAD | SW_PIDFD_SIGNAL_THREAD_GROUP |
		       SW_PIDFD_SIGNAL_PROCESS_GROUP)) ||
	    (flags & (flags - 1))) {
		sw_refuse(d, EINVAL, "pidfd_send_signal: unknown flags");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", t->pid, fd);
	if (fd < 0 || (!sw_reach_proc_field(path, "Pid", 10, 0, &pid) &&
		       (pid = proc_dir_pid(t->pid, fd)) <= 0)) {
		sw_refuse(d, EBADF, "pidfd_send_signal: neither a pidfd nor a /proc/<pid> directory of the caller's pid namespace");
		return;
	}
	if (pid == -1) {
		sw_refuse(d, ESRCH, "pidfd_send_signal: the process is gone");
		return;
	}
	if (!sw_reach_pid(sup, t->s, 0, (int32_t)pid)) {	/* our numbers */
		sw_refuse(d, EPERM, why_out);
		return;
	}
	depth = sw_reach_ns_depth(t->pid);
	if (!sw_reach_sees(t->pid, depth, (pid_t)pid)) {
		/* Gone since its fdinfo was read: the kernel's ESRCH, as
		 * above.  Otherwise what the kernel says of a process it
		 * cannot see (access_pidfd_pidns). */
		if (sw_reach_ns_depth((pid_t)pid) < 0)
			sw_refuse(d, ESRCH, "pidfd_send_signal: the process is gone");
		else
			sw_refuse(d, EINVAL, "pidfd_send_signal: the process is not in the caller's pid namespace");
		return;
	}
	thread = sw_reach_proc_field(path, "flags", 8, 0, &fl) && (fl & SW_PIDFD_THREAD);
	if (flags == 0)
		flags = thread ? SW_PIDFD_SIGNAL_THREAD : SW_PIDFD_SIGNAL_THREAD_GROUP;
	switch (flags) {
	case SW_PIDFD_SIGNAL_THREAD: {
		int32_t tgid = for_caller(depth, (pid_t)pid, "NStgid");

		pid = for_caller(depth, (pid_t)pid, "NSpid");
		if (pid <= 0)
			tgid = -1;

		if (tgid <= 0) {
			sw_refuse(d, ESRCH, "pidfd_send_signal: the thread is gone");
			return;
		}
		if (info)
			rewrite(prog, abi, d, SW_SYS_RT_TGSIGQUEUEINFO, tgid, pid,
				(uint64_t)(int64_t)sig, info,
				"pidfd_send_signal to a thread of the tree, by its tid");
		else
			rewrite(prog, abi, d, SW_SYS_TGKILL, tgid, pid,
				(uint64_t)(int64_t)sig, 0,
				"pidfd_send_signal to a thread of the tree, by its tid");
		return;
	}
	case SW_PIDFD_SIGNAL_THREAD_GROUP: {
		int32_t tgid = for_caller(depth, (pid_t)pid, "NStgid");

		if (tgid <= 0) {
			sw_refuse(d, ESRCH, "pidfd_send_signal: the process is gone");
			return;
		}
		if (info)
			rewrite(prog, abi, d, SW_SYS_RT_SIGQUEUEINFO, tgid, sig,
				info, 0, "pidfd_send_signal to a process of the tree, by its pid");
		else
			rewrite(prog, abi, d, SW_SYS_KILL, tgid, sig, 0, 0,
				"pidfd_send_signal to a process of the tree, by its pid");
		return;
	}
	case SW_PIDFD_SIGNAL_PROCESS_GROUP: {
		pid_t pgid = for_caller(depth, (pid_t)pid, "NSpgid");

		if (info) {
			/* No pid-based call queues siginfo to a group. */
			sw_refuse(d, EINVAL, "pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP) with siginfo is not supported under sysward");
			return;
		}
		if (pgid <= 0) {
			sw_refuse(d, ESRCH, "pidfd_send_signal: the process is gone");
			return;
		}
		rewrite(prog, abi, d, SW_SYS_KILL, -(int64_t)pgid, sig, 0, 0,
			"pidfd_send_signal to a process group of the tree, by its id");
		return;
	}
	default:
		sw_refuse(d, EINVAL, "pidfd_send_signal: unknown flags");
		return;
	}
}

/* F_SETOWN_EX's struct f_owner_ex, read once, becomes an F_SETOWN. */
static void setown_ex(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d)
{
	struct { int32_t type, pid; } o;
	int32_t owner;
	int e;

	if (!read_int(t->pid, d->args[2], &o, sizeof(o))) {
		sw_refuse(d, EFAULT, "F_SETOWN_EX: owner unreadable");
		return;
	}
	switch (o.type) {
	case F_OWNER_PID:
	case F_OWNER_PGRP:
		if (o.pid < 0) {
			sw_refuse(d, ESRCH, "F_SETOWN_EX: no such process");
			return;
		}
		owner = o.type == F_OWNER_PGRP ? -o.pid : o.pid;
		break;
	case F_OWNER_TID:
		if (o.pid == 0) {
			owner = 0;
			break;
		}
		/* A thread owner has no register-only form to check. */
		sw_refuse(d, EPERM, "F_SETOWN_EX(F_OWNER_TID) is not supported under sysward: use F_SETOWN");
		return;
	default:
		sw_refuse(d, EINVAL, "F_SETOWN_EX: unknown owner type");
		return;
	}
	e = owner_target(sup, t->s, t->pid, owner);
	if (e) {
		sw_refuse(d, e, why_out);
		return;
	}
	rewrite(t->s->prog, abi, d, SW_SYS_FCNTL, sw_as_int(d->args[0]), F_SETOWN,
		(uint64_t)(int64_t)owner, 0, "F_SETOWN_EX as F_SETOWN, owner checked");
}

void sw_signals_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d)
{
	struct sw_session *s = t->s;
	const struct sw_program *prog = s->prog;
	uint64_t nr = d->nr;
	int e = 0;

	if (!(prog->defences & SW_DEFENCE_SIGNAL_SUPERVISOR) ||
	    (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE) ||
	    abi == SW_ABI_NONE)
		return;

	if (is(prog, abi, SW_SYS_KILL, nr)) {
		e = kill_target(sup, s, t->pid, sw_as_int(d->args[0]));
	} else if (is(prog, abi, SW_SYS_TKILL, nr)) {
		/* tid <= 0: the kernel says EINVAL. */
		e = sw_as_int(d->args[0]) <= 0 ? EINVAL
		    : sw_reach_pid(sup, s, t->pid, sw_as_int(d->args[0])) ? 0
		    : sw_reach_refusal(t->pid, sw_as_int(d->args[0]));
	} else if (is(prog, abi, SW_SYS_TGKILL, nr) ||
		   is(prog, abi, SW_SYS_RT_TGSIGQUEUEINFO, nr)) {
		/* A tgid or tid <= 0 names no process: the kernel answers
		 * (EINVAL; rt_tgsigqueueinfo reads its siginfo first, so
		 * EFAULT for a bad pointer), as without sysward. */
		int32_t tgid = sw_as_int(d->args[0]), tid = sw_as_int(d->args[1]);

		e = tgid <= 0 || tid <= 0 ? 0
		    : sw_reach_pid(sup, s, t->pid, tid) &&
		      sw_reach_pid(sup, s, t->pid, tgid) ? 0 : EPERM;
	} else if (is(prog, abi, SW_SYS_RT_SIGQUEUEINFO, nr)) {
		/* Only a pid: 0 and negatives name no process, and the
		 * kernel answers them (ESRCH, or EFAULT first for a bad
		 * siginfo), as without sysward. */
		int32_t pid = sw_as_int(d->args[0]);

		e = pid <= 0 ? 0 : sw_reach_pid(sup, s, t->pid, pid) ? 0
		    : sw_reach_refusal(t->pid, pid);
	} else if (is(prog, abi, SW_SYS_PIDFD_OPEN, nr)) {
		/* EPERM, not ESRCH: the same answer whether or not the pid
		 * exists, and no lie about a live process being gone. */
		int32_t pid = sw_as_int(d->args[0]);

		e = pid <= 0 ? EINVAL : sw_reach_pid(sup, s, t->pid, pid) ? 0 : EPERM;
	} else if (is(prog, abi, SW_SYS_PIDFD_SEND_SIGNAL, nr)) {
		pidfd_send(sup, t, abi, d);
		return;
	} else if (is(prog, abi, SW_SYS_SETPGID, nr)) {
		/* setpgid(pid, pgid): the kernel lets it move the caller or
		 * a child of its (both in the tree) into a group of the same
		 * kernel session.  0 or the mover's own pid create a group;
		 * any other must be the program's. */
		int32_t pid = sw_as_int(d->args[0]), pgid = sw_as_int(d->args[1]);

		if (pid < 0 || pgid < 0)
			e = EINVAL;
		else if (pgid != 0 && pgid != pid &&
			 !sw_reach_group(sup, s, t->pid, pgid) &&
			 !(pid == 0 && pgid == own_pid(t->pid)))
			e = EPERM;
		if (e == EPERM) {
			sw_refuse(d, e, "setpgid into a process group outside the program's tree denied");
			return;
		}
	} else if (is(prog, abi, SW_SYS_FCNTL, nr) ||
		   is(prog, abi, SW_SYS_FCNTL64, nr)) {
		uint32_t cmd = (uint32_t)d->args[1];

		if (cmd == F_SETOWN) {
			e = owner_target(sup, s, t->pid, sw_as_int(d->args[2]));
		} else if (cmd == F_SETOWN_EX) {
			setown_ex(sup, t, abi, d);
			return;
		}
	} else if (is(prog, abi, SW_SYS_IOCTL, nr)) {
		uint32_t cmd = (uint32_t)d->args[1];
		int32_t owner;

		if (cmd != FIOSETOWN && cmd != SIOCSPGRP)
			return;
		if (!read_int(t->pid, d->args[2], &owner, sizeof(owner))) {
			sw_refuse(d, EFAULT, "FIOSETOWN: owner unreadable");
			return;
		}
		e = owner_target(sup, s, t->pid, owner);
		if (!e)
			rewrite(prog, abi, d, SW_SYS_FCNTL, sw_as_int(d->args[0]),
				F_SETOWN, (uint64_t)(int64_t)owner, 0,
				"FIOSETOWN as F_SETOWN, owner checked");
	}
	if (e)
		sw_refuse(d, e, e == EPERM ? why_out : e == ESRCH ? "no such process or group" : "invalid signal target");
}
