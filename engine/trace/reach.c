// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Calls that take a pid act only on the session (SW_DEFENCE_PID_CALLS),
 * and the one answer to "is this pid, or this process group, the
 * session's?" that they and signals.c (route 11) both use.
 *
 * The session's processes are the tracees the supervisor holds for it;
 * its process groups are the groups they are in (signals.c explains why
 * such a group holds no one else).  A caller in a pid namespace of its
 * own names pids as that namespace numbers them: it is matched through
 * "NSpid" and an NS_GET_PARENT walk.
 *
 * The kernel lets a process act on another process of its uid with the
 * calls below, with no ptrace-mode check (so a Landlock domain does not
 * stop them; Linux 6.12):
 *
 *   prlimit64(pid, res, new, old)   check_prlimit_permission(): the
 *       caller's uid and gid equal the target's real, effective and saved
 *       ones, or CAP_SYS_RESOURCE.  Reading (new NULL) too.  RLIMIT_CPU
 *       below the CPU time the target has used makes the kernel kill it.
 *   setpriority(which, who, nice)   set_one_prio_perm(): the target's
 *       real or effective uid is the caller's euid, or CAP_SYS_NICE; then
 *       cap_safe_nice(): the caller's permitted capabilities include the
 *       target's, or CAP_SYS_NICE.  which: PRIO_PROCESS (a tid),
 *       PRIO_PGRP (a group), PRIO_USER (every process of a uid).
 *   ioprio_set(which, who, prio)    set_task_ioprio(): the target's real
 *       uid is the caller's real or effective uid, or CAP_SYS_NICE; then
 *       cap_safe_nice().  IOPRIO_WHO_PROCESS / _PGRP / _USER as above.
 *   sched_setscheduler, sched_setparam, sched_setattr(pid, ...)
 *       __sched_setscheduler(): check_same_owner() (the caller's euid is
 *       the target's real or effective uid), or CAP_SYS_NICE; then
 *       cap_safe_nice().
 *   sched_setaffinity(pid, ...)     check_same_owner() or CAP_SYS_NICE,
 *       then cap_safe_nice().
 *
 * So a program can lower the limits of its supervisor (embedded: the
 * program's parent, same uid), of its user's shell, and under syswardd
 * as root of the daemon itself (prlimit64 has no capability check, so a
 * root program without capabilities still reaches the daemon); the
 * priority calls reach every process of its uid that has no more
 * capabilities than it has.  Their readers (getpriority, ioprio_get,
 * sched_get*) change nothing and show what /proc shows anyone; they are
 * left alone.  The calls that need ptrace access (process_vm_*, kcmp,
 * move_pages, migrate_pages, get_robust_list, process_madvise,
 * perf_event_open; pidfd_getfd) are out of reach of a Landlock domain
 * (or refused outright).
 *
 * The defence filter (filter.c, from sw_pid_calls[]) sends a call here
 * only when its target is not the caller itself: a pid of 0 means the
 * caller (glibc's getrlimit/setrlimit are prlimit64(0, ...), nice() is
 * setpriority(PRIO_PROCESS, 0)) and stops nowhere; 0 as a group is the
 * caller's own group, which is the session's.  Here the target must be
 * the session's: a tracee of its session for a pid, a group one of them
 * is in for a group; a uid ("every process of it") is refused, since the
 * supervisor is one of them (embedded), or other sessions are.  Refused
 * with EPERM, the kernel's answer to a process of another uid.  Negative
 * pids and unknown "which" values go on to the kernel, which finds no
 * such task (ESRCH, EINVAL).
 *
 * The pid is checked, then the call runs with it: as for kill (route 11)
 * it could only name another process if the tracee exited, was reaped by
 * the supervisor and by its parent, and the kernel wrapped around
 * pid_max before the caller's call ran.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "sysward/proc.h"
#include "internal.h"
#include "sys.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "trace/reach.h"
#include "trace/trace.h"

bool sw_reach_proc_field(const char *path, const char *key, int base,
			 unsigned int index, long *ret)
{
	char text[SW_PROC_TEXT_MAX];

	return sw_sys_proc_read(path, text, sizeof(text)) >= 0 &&
	       sw_proc_number(text, key, base, index, ret);
}

int sw_reach_ns_depth(pid_t pid)
{
	char path[64], text[SW_PROC_TEXT_MAX];

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (sw_sys_proc_read(path, text, sizeof(text)) < 0)
		return -1;
	return sw_proc_count(text, "NSpid");
}

/*
 * "NSpid" lists a process's numbers from the root namespace down its own
 * chain; a process of a sibling namespace has an entry at the caller's
 * depth too, in a namespace the caller cannot see (the kernel refuses a
 * pidfd of it with EINVAL, and by number reaches another process).  So
 * walk pid's namespace up to the caller's depth (NS_GET_PARENT) and
 * compare with the caller's (device and inode of the nsfs files).
 */
bool sw_reach_sees(pid_t caller, int caller_depth, pid_t pid)
{
	char path[64];
	struct stat a, b;
	int depth = sw_reach_ns_depth(pid);
	int fd, up;

	if (caller_depth <= 0 || depth < caller_depth)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", caller);
	if (sw_sys_stat(path, &a) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	fd = sw_sys_open(path, O_RDONLY | O_CLOEXEC);
	for (int i = depth; fd >= 0 && i > caller_depth; i--) {
		up = sw_sys_ioctl(fd, NS_GET_PARENT);
		close(fd);
		fd = up;
	}
	if (fd < 0)
		return false;
	if (sw_sys_fstat(fd, &b) < 0) {
		close(fd);
		return false;
	}
	close(fd);
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * A caller in a pid namespace of its own (unshare(CLONE_NEWPID), with a
 * user namespace or CAP_SYS_ADMIN) names pids as its namespace numbers
 * them.  Is nr (a pid, or a group id with field "NSpgid") the number,
 * in the caller's namespace, of a tracee of s?  Only on the way to a
 * refusal: a call that names a tracee by our numbers never gets here.
 */
/* The supervisor's own pid namespace depth, read once.  __atomic: each
 * tracer thread may be the first to ask; all find the same answer. */
static int own_ns_depth(void)
{
	static int cache;
	int d = __atomic_load_n(&cache, __ATOMIC_RELAXED);

	if (!d) {
		d = sw_reach_ns_depth(getpid());
		__atomic_store_n(&cache, d, __ATOMIC_RELAXED);
	}
	return d;
}

static bool nested_in_session(struct sw_supervisor *sup, struct sw_session *s,
			      pid_t caller, int32_t nr, const char *field)
{
	int own_depth = own_ns_depth();
	int depth = sw_reach_ns_depth(caller);
	char path[64];
	long v;

	if (nr <= 0 || own_depth <= 0 || depth <= own_depth)
		return false;
	for (size_t i = 0; i < sup->tab_size; i++) {
		if (sup->tab[i].pid <= 0 || sup->tab[i].s != s)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", sup->tab[i].pid);
		if (sw_reach_proc_field(path, field, 10, depth - 1, &v) && v == nr &&
		    sw_reach_sees(caller, depth, sup->tab[i].pid))
			return true;
	}
	return false;
}

/*
 * A process of the session that has exited and that its parent, a
 * process of the session, has not reaped yet: it has left the tracee
 * table, but the kernel still lets its parent signal it (kill returns 0,
 * the zombie takes no signal).  Its pid cannot be reused until that
 * parent reaps it.  Only pids of the supervisor's own pid namespace (the
 * caller's, else the numbers differ).
 */
static bool zombie_of_session(struct sw_supervisor *sup, struct sw_session *s,
			      pid_t caller, int32_t pid)
{
	char path[64], text[SW_PROC_TEXT_MAX];
	const char *state;
	struct sw_tracee *parent;
	long ppid;

	if (sw_reach_ns_depth(caller) != own_ns_depth())
		return false;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (sw_sys_proc_read(path, text, sizeof(text)) < 0)
		return false;
	state = sw_proc_field(text, "State");
	while (state && (*state == ' ' || *state == '\t'))
		state++;
	if (!state || *state != 'Z' ||
	    !sw_proc_number(text, "PPid", 10, 0, &ppid) || ppid <= 0)
		return false;
	parent = sw_tracee_find(sup, (pid_t)ppid);
	return parent && parent->s == s;
}

bool sw_reach_pid(struct sw_supervisor *sup, struct sw_session *s,
		  pid_t caller, int32_t pid)
{
	struct sw_tracee *t;

	if (pid <= 0)
		return false;
	t = sw_tracee_find(sup, pid);
	if (t && t->s == s)
		return true;
	return nested_in_session(sup, s, caller, pid, "NSpid") ||
	       zombie_of_session(sup, s, caller, pid);
}

/*
 * The answer for a target outside the session: the kernel's ESRCH where
 * no such process (id > 0) or group (id < 0) exists, as unconfined (a
 * program that checks whether a pid it reaped is gone), else EPERM.
 * Whether a pid exists is no secret (/proc lists them).  Only for a
 * caller of the supervisor's own pid namespace, where the numbers are
 * the same; kill(id, 0) sends nothing.
 */
int sw_reach_refusal(pid_t caller, int32_t id)
{
	if (id == 0 || id == -1 ||
	    sw_reach_ns_depth(caller) != own_ns_depth())
		return EPERM;
	return sw_sys_kill(id, 0) < 0 && errno == ESRCH ? ESRCH : EPERM;
}

bool sw_reach_group(struct sw_supervisor *sup, struct sw_session *s,
		    pid_t caller, int32_t pgid)
{
	struct sw_tracee *t;

	if (pgid <= 0)
		return false;
	/* Usually its leader is alive and ours. */
	t = sw_tracee_find(sup, pgid);
	if (t && t->s == s && sw_sys_getpgid(pgid) == pgid)
		return true;
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s &&
		    sw_sys_getpgid(sup->tab[i].pid) == pgid)
			return true;
	return nested_in_session(sup, s, caller, pgid, "NSpgid");
}

void sw_refuse(struct sw_decision *d, int e, const char *why)
{
	d->verdict = SW_V_RETURN;
	d->rule = SW_RULE_DEFENCE;
	d->retval = -(int64_t)e;
	d->is_error = true;
	d->why = why;
}

/* 0 if the call of row c with these arguments may run, else EPERM. */
static int pid_call_target(struct sw_supervisor *sup, struct sw_tracee *t,
			   const struct sw_pid_call *c, const uint64_t args[6],
			   const char **why)
{
	enum sw_pid_form form = SW_PID_PROCESS;
	int32_t who = sw_as_int(args[c->target]);

	if (c->which >= 0) {
		int32_t which = sw_as_int(args[c->which]);

		if (which == c->which_val[SW_PID_USER]) {
			*why = "a call at every process of a uid denied (the supervisor or other sessions are among them)";
			return EPERM;
		}
		if (which == c->which_val[SW_PID_PGRP])
			form = SW_PID_PGRP;
		else if (which != c->which_val[SW_PID_PROCESS])
			return 0;	/* the kernel's EINVAL */
	}
	if (who <= 0)
		return 0;	/* the caller, its group; or no such task */
	*why = "a limit, priority or scheduling call at a process outside the program's tree denied";
	if (form == SW_PID_PGRP)
		return sw_reach_group(sup, t->s, t->pid, who) ? 0
		       : sw_reach_refusal(t->pid, -who);
	return sw_reach_pid(sup, t->s, t->pid, who) ? 0
	       : sw_reach_refusal(t->pid, who);
}

void sw_reach_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d)
{
	const struct sw_program *prog = t->s->prog;

	if (!(prog->defences & SW_DEFENCE_PID_CALLS) ||
	    (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE) ||
	    abi == SW_ABI_NONE)
		return;
	for (size_t i = 0; i < SW_PID_CALL_COUNT; i++) {
		int sys = prog->sys[abi][sw_pid_calls[i].sys];
		const char *why = NULL;
		int e;

		if (sys < 0 || (uint64_t)sys != d->nr)
			continue;
		e = pid_call_target(sup, t, &sw_pid_calls[i], d->args, &why);
		if (e)
			sw_refuse(d, e, why);
		return;
	}
}

bool sw_stop_from_outside(struct sw_supervisor *sup, struct sw_tracee *t)
{
	siginfo_t si;

	/* Unreadable: the job's, as before (the caller stops with it). */
	if (sw_sys_ptrace(PTRACE_GETSIGINFO, t->pid, NULL, &si) < 0)
		return false;
	/* The terminal's (Ctrl-Z; SIGTTIN/SIGTTOU for a background
	 * access): kill_pgrp() sends with SEND_SIG_PRIV, SI_KERNEL. */
	if (si.si_code != SI_USER && si.si_code != SI_TKILL &&
	    si.si_code != SI_QUEUE)
		return false;
	/* si_pid 0: a sender the program's pid namespace does not see,
	 * its supervisor (syswardd forwarding its client's) among them;
	 * ours (sysward forwarding its job's); the session's own. */
	if (si.si_pid == 0 || si.si_pid == getpid())
		return false;
	return !sw_reach_pid(sup, t->s, t->pid, si.si_pid);
}
