// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A call decided on what it returns (objects.c says what to check and
 * what to do with it): the call runs to its exit stop; there the result
 * stands, is replaced, or is undone by calls injected into the tracee
 * (close of a descriptor it must not keep; the call made again as the
 * program asked).  A state of the tracee (t->rc), advanced one stop at a
 * time by the dispatch loop, as the path guard's setup is: nothing here
 * waits for a tracee.
 *
 * A descriptor is in the tracee's table from the moment the kernel
 * installs it (fd_install(), before the call returns), and every task
 * sharing that table can use it at once: another thread could write
 * through it, dup(2) it or send it away before the supervisor has even
 * seen the exit stop.  So a call whose descriptor is checked runs only
 * while every other task sharing the caller's table is stopped: each is
 * interrupted (PTRACE_INTERRUPT: a syscall it sleeps in is restarted
 * afterwards, as after a signal without a handler) and its stop is kept
 * (held) until the result is decided, and so is every other stop of the
 * session meanwhile (a task that is not interrupted runs no code of the
 * program before its next stop; a new task stops before its first
 * instruction).  A process whose table nobody shares (checked with
 * Threads: and a flag set when a creation event shows two processes
 * sharing one, kcmp(KCMP_FILES)) runs its call without that.
 *
 * A held session cannot wake a task blocked in a FIFO's open (only the
 * other end's open does; interrupted, its open gives up its place): a
 * sharer asleep in a FIFO's open that only reads is left asleep
 * (asleep_reading_fifo() says why that is safe).  Nor can the checked
 * open finish if it waits for such a partner: an open
 * that sleeps in wait_for_partner (its wchan) 20 ms after it was let run
 * lets the session go.  A FIFO is no kernel object of fs_rules[], and its
 * open has resolved its path by then.  No event says when 20 ms have
 * passed: the tracer thread's bell rings it then (bell.c's alarm).
 *
 * The program's signal handlers never run while a descriptor it must not
 * keep is open: the injected calls run with every signal blocked
 * (PTRACE_SETSIGMASK; SIGKILL and SIGSTOP cannot be, and run no code of
 * the program), and the mask is put back as it was, pending signals
 * still pending, when the call returns its final value.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <time.h>

#include "sysward/clock.h"
#include "sysward/proc.h"
#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/fscomplain.h"
#include "trace/reach.h"
#include "trace/resultcheck.h"
#include "trace/trace.h"

#ifndef PTRACE_GETSIGMASK
#define PTRACE_GETSIGMASK	0x420a
#define PTRACE_SETSIGMASK	0x420b
#endif

/* The longest a held session waits for a checked open that sleeps on a
 * FIFO, before it is let go (sw_rc_tick). */
#define SW_RC_FIFO_MS		SW_BELL_ALARM_MS

struct sw_deferred_status {
	pid_t pid;
	int status;
	struct sw_session *s;
};

enum rc_injected { RC_INJ_CLOSE = 1, RC_INJ_CALL };

static bool returns_fd(const struct sw_rc *rc)
{
	return rc->kind == SW_RC_OPEN || rc->kind == SW_RC_MQ_OPEN;
}

/* ---- who shares a descriptor table ------------------------------------- */

static pid_t tgid_of(struct sw_tracee *t)
{
	pid_t tgid, ppid;

	if (!t->tgid && sw_sys_proc_ids(t->pid, &tgid, &ppid) == 0)
		t->tgid = tgid;
	return t->tgid;
}

static long threads_of(pid_t pid)
{
	char path[64];
	long n;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	return sw_reach_proc_field(path, "Threads", 10, 0, &n) ? n : -1;
}

static bool shares_files(struct sw_tracee *t, struct sw_tracee *x)
{
	pid_t tg = tgid_of(t);
	long k;

	if (tg && tgid_of(x) == tg)
		return true;
	/* One whose creation event is not seen yet (its first stop came
	 * first, and went) may have been made with CLONE_FILES: asked. */
	if (!t->s->files_shared && x->announced)
		return false;
	/* Without kcmp (CONFIG_KCMP) every process may share: hold it. */
	k = sw_sys_kcmp(t->pid, x->pid, KCMP_FILES, 0, 0);
	return k == 0 || (k < 0 && errno == ENOSYS);
}

void sw_rc_new_child(struct sw_supervisor *sup, struct sw_session *s,
		     pid_t parent, pid_t child, int ev)
{
	pid_t ctg, ptg, pp;

	/* A vfork's child counts as any (its parent waits, but it runs:
	 * with CLONE_FILES it writes through the table they share). */
	(void)sup;
	if (!s || !(s->prog->defences & (SW_DEFENCE_OBJECT_OPENS | SW_DEFENCE_IPC)))
		return;
	/* A thread, or a clone that is none (its exit signal not SIGCHLD):
	 * from now on a write-open asks how many threads its caller has. */
	if (ev == PTRACE_EVENT_CLONE)
		s->threads = true;
	if (s->files_shared)
		return;
	if (sw_sys_kcmp(parent, child, KCMP_FILES, 0, 0) > 0)
		return;		/* (a kernel without kcmp: as if shared) */
	/* A thread shares its table; a process only with CLONE_FILES. */
	if (ev == PTRACE_EVENT_FORK ||
	    (sw_sys_proc_ids(child, &ctg, &pp) == 0 &&
	     sw_sys_proc_ids(parent, &ptg, &pp) == 0 && ctg != ptg))
		s->files_shared = true;
}

/* ---- holding the session -------------------------------------------------- */

/* t's checked call runs now, to its exit stop. */
static SW_PLAN run_call(struct sw_supervisor *sup, struct sw_tracee *t)
{
	t->rc->step = SW_RC_CALL;
	t->rc->since_ms = sw_mono_ms();
	/* Under a hold: a look in a while (sw_rc_tick). */
	if (t->s->holder == t->pid)
		sw_bell_alarm(sup);
	return SW_SYSCALL(0);
}

/* The hold ends; what it kept is handled once the status that ended it
 * is done (sw_rc_replay_next(), from the dispatch). */
static void hold_end(struct sw_supervisor *sup, struct sw_session *s)
{
	if (!s->holder)
		return;
	s->holder = 0;
	s->hold_waiting = 0;
	sup->n_holds--;
	sup->rc_replay = true;
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s)
			sup->tab[i].rc_wait = false;
}

/* The path an open or openat of pid names (at most 4095 bytes), read
 * a page at a time: the string may end before a page that is not
 * mapped.  0, or -errno. */
static int open_path(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got + 1 < size) {
		size_t room = 4096 - (size_t)((addr + got) & 4095), n;
		int r;

		n = room < size - 1 - got ? room : size - 1 - got;
		r = sw_tracee_read(pid, addr + got, buf + got, n);
		if (r <= 0)
			return r < 0 ? r : -EFAULT;
		if (memchr(buf + got, '\0', (size_t)r))
			return 0;
		got += (size_t)r;
	}
	return -ENAMETOOLONG;
}

/*
 * Is pid asleep in an open (or openat: nr, and its first three
 * arguments into a) that waits for the other end of a FIFO
 * (wait_for_partner)?  Its wchan says so where the kernel names one
 * (/proc/<pid>/wchan exists with CONFIG_KALLSYMS only).  Without it (a
 * minimal kernel: the VM guest's; a session held on such a FIFO would
 * never end), from what the kernel shows all the same: asleep
 * interruptibly (state S: wait_for_partner's wait; an open waiting on a
 * FUSE server or NFS waits killable, state D) in an open of a path
 * that names a FIFO, as seen from the task's root, working directory
 * or directory descriptor.  An absolute symbolic link on the way is
 * followed from ours: a wrong "no" keeps the hold, as before.
 */
/* The native ABI's open(2), which arm64 and the other generic-table
 * architectures lack (include/uapi/asm-generic/unistd.h). */
static bool is_open(unsigned long nr)
{
#ifdef __NR_open
	return nr == __NR_open;
#else
	return false;
#endif
}

static bool waits_for_partner(pid_t pid, unsigned long *nr, unsigned long a[3])
{
	char path[64], text[256], name[4096], full[4200];
	struct stat st;
	ssize_t n;
	int dirfd;
	uint64_t addr;

	*nr = ~0UL;
	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	if (sw_sys_proc_read(path, text, sizeof(text)) <= 0 ||
	    sscanf(text, "%lu %lx %lx %lx", nr, &a[0], &a[1], &a[2]) != 4)
		*nr = ~0UL;
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	n = sw_sys_proc_read(path, text, sizeof(text));
	if (n > 0)
		return !strncmp(text, "wait_for_partner", 16);
	/* the native open, openat and openat2 (the ABI of the stop that
	 * blocks is not said here: another ABI's open is held or
	 * interrupted as any call) */
	if (!is_open(*nr) && *nr != __NR_openat && *nr != __NR_openat2)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	n = sw_sys_proc_read(path, text, sizeof(text));
	if (n <= 0 || !strrchr(text, ')') || strncmp(strrchr(text, ')'), ") S", 3))
		return false;
	dirfd = is_open(*nr) ? AT_FDCWD : (int)a[0];
	addr = is_open(*nr) ? a[0] : a[1];
	if (open_path(pid, addr, name, sizeof(name)) < 0 || !name[0])
		return false;
	if (name[0] == '/')
		snprintf(full, sizeof(full), "/proc/%d/root%s", pid, name);
	else if (dirfd == AT_FDCWD)
		snprintf(full, sizeof(full), "/proc/%d/cwd/%s", pid, name);
	else
		snprintf(full, sizeof(full), "/proc/%d/fd/%d/%s", pid, dirfd, name);
	return sw_sys_stat(full, &st) == 0 && S_ISFIFO(st.st_mode);
}

/*
 * Is x asleep in a FIFO's open that only reads, waiting for a writer?
 * Interrupted, it would give up its place, and a
 * checked open of the other end would find no reader: a FIFO's
 * rendezvous between two threads would never happen.  Left asleep, it
 * wakes only when a writer opens the FIFO -- a checked open itself, held
 * at its SECCOMP stop if another tracee of the session makes it, or the
 * holder's own, whose object is then that FIFO -- or when a signal comes,
 * which stops it (held) before any handler runs.  So it runs no code of
 * the program while the result of another call is decided.
 */
static bool asleep_reading_fifo(pid_t pid)
{
	unsigned long nr, a[3];

	if (!waits_for_partner(pid, &nr, a))
		return false;
	/* (openat2's flags are in its struct open_how: interrupted.) */
	if (is_open(nr))
		return (a[1] & (O_ACCMODE | O_PATH)) == O_RDONLY;
	if (nr == __NR_openat)
		return (a[2] & (O_ACCMODE | O_PATH)) == O_RDONLY;
	return false;
}

struct sw_resume sw_rc_go(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;

	/* A session that never made a thread (nor shared a table between
	 * processes) has no sharer: no /proc read for it. */
	if (!returns_fd(t->rc) || s->holder ||
	    (!s->files_shared && (!s->threads || threads_of(t->pid) == 1)))
		return run_call(sup, t);
	/* Known before it may die (sw_rc_forget: its threads). */
	(void)tgid_of(t);
	s->holder = t->pid;
	s->hold_waiting = 0;
	sup->n_holds++;
	t->rc->step = SW_RC_HOLDING;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *x = &sup->tab[i];

		if (x->pid <= 0 || x == t || x->s != s || x->rc_held ||
		    x->state != SW_T_RUNNING || !shares_files(t, x) ||
		    asleep_reading_fifo(x->pid))
			continue;
		/* A task already stopped (a group-stop we listen to) is
		 * woken to report; one that is gone reports its exit. */
		if (sw_sys_ptrace(PTRACE_INTERRUPT, x->pid, 0L, 0L) < 0)
			continue;
		/* One that waits for its vfork's child (whose first stop,
		 * or any stop, is kept meanwhile) cannot report before the
		 * child execs or exits: waiting for it would hold the
		 * session for good.  Its fork is complete (the event came
		 * after it: no table copied after the call) and it runs no
		 * code of the program before that; the interrupt stops it
		 * on its way back, and that stop is kept as any other. */
		if (x->vforked)
			continue;
		x->rc_wait = true;
		s->hold_waiting++;
	}
	if (!s->hold_waiting)
		return run_call(sup, t);
	return SW_HELD;		/* the last sharer's stop lets it go */
}

static void hold_counted(struct sw_supervisor *sup, struct sw_session *s,
			 struct sw_tracee *x)
{
	struct sw_tracee *h;

	if (!x->rc_wait)
		return;
	x->rc_wait = false;
	if (--s->hold_waiting)
		return;
	h = sw_tracee_find(sup, s->holder);
	/* The holder goes: a tracee other than the one whose stop this
	 * is, resumed through the one resume. */
	if (h && h->rc && h->rc->step == SW_RC_HOLDING)
		(void)sw_restart(h, run_call(sup, h));
}

static void deferred_drop(struct sw_supervisor *sup, size_t i)
{
	memmove(&sup->deferred[i], &sup->deferred[i + 1],
		(sup->n_deferred - i - 1) * sizeof(sup->deferred[0]));
	sup->n_deferred--;
}

bool sw_rc_hold_status(struct sw_supervisor *sup, pid_t pid, int status)
{
	struct sw_tracee *t = sw_tracee_find(sup, pid);
	struct sw_session *s;

	if (t) {
		s = t->s;
		if (!s || !s->holder || t->pid == s->holder)
			return false;
		if (!WIFSTOPPED(status)) {
			/* Gone while held: handled as any exit. */
			t->rc_held = false;
			hold_counted(sup, s, t);
			return false;
		}
		t->rc_held = true;
		t->rc_status = status;
		hold_counted(sup, s, t);
		return true;
	}
	if (!WIFSTOPPED(status)) {
		/* A new tid's first stop kept, then its death: forget the
		 * stop. */
		for (size_t i = 0; i < sup->n_deferred; i++)
			if (sup->deferred[i].pid == pid) {
				deferred_drop(sup, i);
				break;
			}
		return false;
	}
	{
		uint16_t prog;

		/* where tracer.c will place it, not placed yet */
		s = sw_session_from_proc(sup, pid, &prog);
	}
	if (!s || !s->holder)
		return false;
	if (sup->n_deferred == sup->cap_deferred) {
		size_t cap = sup->cap_deferred ? sup->cap_deferred * 2 : 8;
		struct sw_deferred_status *n = realloc(sup->deferred, cap * sizeof(*n));

		if (!n) {
			/* It must not run unheld: fail closed. */
			sw_sys_kill(pid, SIGKILL);
			return true;
		}
		sup->deferred = n;
		sup->cap_deferred = cap;
	}
	sup->deferred[sup->n_deferred++] = (struct sw_deferred_status){ pid, status, s };
	return true;
}

/* The next status kept for a session that is no longer held, in the
 * order they came: its tracee's stop, else a new tid's first stop; false
 * if none is left.  The dispatcher (tracer.c) handles each, and asks
 * again: a handler may hold the session again, or move the table. */
bool sw_rc_replay_next(struct sw_supervisor *sup, pid_t *ret_pid, int *ret_status)
{
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *x = &sup->tab[i];

		if (x->pid <= 0 || !x->rc_held || (x->s && x->s->holder))
			continue;
		x->rc_held = false;
		*ret_pid = x->pid;
		*ret_status = x->rc_status;
		return true;
	}
	for (size_t i = 0; i < sup->n_deferred; i++) {
		struct sw_deferred_status d = sup->deferred[i];

		if (d.s->holder)
			continue;
		deferred_drop(sup, i);
		*ret_pid = d.pid;
		*ret_status = d.status;
		return true;
	}
	return false;
}

/* ---- the call's end ------------------------------------------------------- */

static void rc_free(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;

	free(t->rc);
	t->rc = NULL;
	if (s && s->holder == t->pid)
		hold_end(sup, s);
}

/* PF_EXITING (include/linux/sched.h): in do_exit(), /proc/<pid>/stat's
 * ninth field. */
#define SW_PF_EXITING	0x00000004u

/*
 * Is pid being killed with its whole thread group, or exiting?  A group
 * exit (SIGKILL, exit_group, a fatal signal: complete_signal() and
 * zap_other_threads(), kernel/signal.c) puts SIGKILL in every thread's
 * own pending set, which get_signal() takes out again on its way to
 * do_exit(), where the task is PF_EXITING; then it is a zombie.  Such a
 * thread runs no code of the program again.  Gone counts as dying;
 * another failure to tell (no memory, no descriptor) as not, so that the
 * process is killed rather than let run.
 */
static bool dying(pid_t pid)
{
	char path[64], text[SW_PROC_TEXT_MAX];
	unsigned int flags = 0;
	const char *p;
	char state = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((n = sw_sys_proc_read(path, text, sizeof(text))) < 0)
		return n == -ENOENT || n == -ESRCH;
	if ((p = strrchr(text, ')')) &&
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) >= 1 &&
	    (state == 'Z' || state == 'X' || (flags & SW_PF_EXITING)))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if ((n = sw_sys_proc_read(path, text, sizeof(text))) < 0)
		return n == -ENOENT || n == -ESRCH;
	p = sw_proc_field(text, "SigPnd");
	return p && (strtoull(p, NULL, 16) & (1ULL << (SIGKILL - 1)));
}

/* A thread of t's group, in the session and not dying, that keeps the
 * table t leaves (NULL: none). */
static struct sw_tracee *group_lives_on(struct sw_supervisor *sup,
					struct sw_tracee *t)
{
	if (!t->tgid)
		return NULL;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *x = &sup->tab[i];

		if (x->pid > 0 && x != t && x->s == t->s &&
		    tgid_of(x) == t->tgid && !dying(x->pid))
			return x;
	}
	return NULL;
}

/*
 * t, whose checked call may have put a descriptor in its table, has died
 * alone, its process alive: a filter of the program's own killed it in
 * the call we injected (SECCOMP_RET_KILL_THREAD outranks our TRACE, and
 * the kernel then calls do_exit() for that thread only,
 * __seccomp_filter()).  Its threads share its table (CLONE_THREAD
 * implies CLONE_FILES; put_files_struct(), fs/file.c, keeps it while one
 * uses it) and are held: the process is killed before any of them runs
 * again, as the kernel would have for KILL_PROCESS.  kill(2) of a tid
 * signals its whole group; x, a tracee, is not reaped yet, so its tid
 * and its group's are not reused.  true: killed.
 */
static bool group_left_killed(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_tracee *x = t->rc->group_killed ? NULL : group_lives_on(sup, t);

	if (!x)
		return false;
	t->rc->group_killed = true;
	sw_warn(t->s, "pid %d died while its descriptor was being checked, in a table its process's other threads share; killing process %d",
		t->pid, t->tgid);
	sw_sys_kill(x->pid, SIGKILL);
	return true;
}

/* Is pid dead, reaped or not (/proc/<pid>/stat: Z, X, or gone)?  A
 * failure to tell says no: it is looked at again. */
static bool dead(pid_t pid)
{
	char path[64], text[256];
	const char *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((n = sw_sys_proc_read(path, text, sizeof(text))) < 0)
		return n == -ENOENT || n == -ESRCH;
	if (!(p = strrchr(text, ')')))
		return false;
	return !strncmp(p, ") Z", 3) || !strncmp(p, ") X", 3);
}

void sw_rc_forget(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;

	/*
	 * Gone (killed: SIGKILL cannot be held back, nor blocked while we
	 * inject) while its call may have put a descriptor in its table,
	 * not yet judged or judged and not yet closed.  A table outlives a
	 * task that used it as long as another uses it too
	 * (fs/file.c, put_files_struct()): its threads die with it, but a
	 * process of the session made with CLONE_FILES keeps it, and would
	 * run on with that descriptor once the hold ends.  Nothing but a
	 * task of that table can close it, and they are all held now:
	 * killed with the session, before any runs again.
	 */
	if (s && t->rc && s->holder == t->pid && returns_fd(t->rc) &&
	    t->rc->step != SW_RC_HOLDING && s->files_shared) {
		sw_warn(s, "pid %d died while its descriptor was being checked, in a table another process of the session shares; killing the session",
			t->pid);
		sw_session_kill(s);
	} else if (s && t->rc && s->holder == t->pid && returns_fd(t->rc) &&
		   t->rc->step != SW_RC_HOLDING) {
		(void)group_left_killed(sup, t);
	}
	t->rc_held = false;
	if (s && t->rc_wait)
		hold_counted(sup, s, t);
	t->rc_wait = false;
	rc_free(sup, t);
}

static void fail(struct sw_tracee *t, const char *what, int e)
{
	if (e == ESRCH)
		return;		/* it died: its exit comes */
	sw_warn(t->s, "cannot undo what pid %d's call returned (%s: %s); killing it",
		t->pid, what, strerror(e));
	sw_sys_kill(t->pid, SIGKILL);
}

/*
 * Is fd still in t's descriptor table after the close we injected?  Its
 * return value is no proof: every filter of the task runs for the calls
 * we inject too, and one the program installed after ours outranks our
 * TRACE with SECCOMP_RET_ERRNO, which skips the call and makes it return
 * -data: 0 for data 0 (kernel/seccomp.c, seccomp_run_filters() and
 * __seccomp_filter()).  The table itself is: /proc/<tid>/fd/<fd> exists
 * while the descriptor does (fs/proc/fd.c, proc_fd_link()), and nothing
 * can put another there meanwhile (t is in its exit stop, every other
 * user of the table held).  Anything but ENOENT counts as open.
 */
static bool still_open(struct sw_tracee *t, int fd)
{
	char path[64], link[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, fd);
	return sw_sys_readlink(path, link, sizeof(link)) >= 0 || errno != ENOENT;
}

/* The program's own mask back, pending signals still pending. */
static int unblock(struct sw_tracee *t)
{
	struct sw_rc *rc = t->rc;

	if (!rc->mask_saved)
		return 0;
	rc->mask_saved = false;
	if (sw_sys_ptrace(PTRACE_SETSIGMASK, t->pid, (void *)sizeof(rc->sigmask),
			  &rc->sigmask) < 0)
		return -errno;
	return 0;
}

/* The call returns value, as the program made it: its registers at the
 * call's exit stop, the return register changed.  From the exit stop of
 * an injected call; the tracer's exit path then resumes t. */
static int finish(struct sw_tracee *t, int64_t value)
{
	int e = sw_arch_finish(t->pid, &t->rc->r0, value);

	if (e == 0)
		e = unblock(t);
	return e;
}

/* Run nr(a) in t, from an exit stop, with its signals blocked. */
static int inject(struct sw_tracee *t, uint8_t what, uint64_t nr,
		  const uint64_t a[6])
{
	struct sw_rc *rc = t->rc;
	uint64_t all = ~0ull;
	int e;

	if (!rc->mask_saved) {
		if (sw_sys_ptrace(PTRACE_GETSIGMASK, t->pid, (void *)sizeof(rc->sigmask),
				  &rc->sigmask) < 0 ||
		    sw_sys_ptrace(PTRACE_SETSIGMASK, t->pid, (void *)sizeof(all), &all) < 0)
			return -errno;
		rc->mask_saved = true;
	}
	e = sw_arch_inject_abi(t->pid, &rc->r0, rc->abi, nr, a);
	if (e < 0)
		return e;
	rc->step = SW_RC_INJECTED;
	rc->injected = what;
	rc->entered = false;
	return 0;		/* the caller's plan: SW_SYSCALL */
}

/* An injected call runs; under a hold, a look in a while (sw_rc_tick):
 * killed alone in it, a group's leader is not reaped while its threads
 * live (delay_group_leader(), kernel/exit.c), so no exit says so. */
static struct sw_resume injected_held(struct sw_supervisor *sup, struct sw_tracee *t)
{
	if (t->s->holder == t->pid)
		sw_bell_alarm(sup);
	return SW_SYSCALL(0);
}

/* Audit line and warning-free refusal at the exit: the decision the
 * entry made becomes a defence's refusal. */
static void refused(struct sw_tracee *t, int64_t value, const char *why)
{
	struct sw_decision *d = &t->d;

	d->verdict = SW_V_RETURN;
	d->rule = SW_RULE_DEFENCE;
	d->retval = value;
	d->is_error = true;
	d->why = why;
	d->audit = true;
	if (t->s->audit) {
		struct sw_audit_rec rec = {
			.session_id = t->s->id, .pid = t->pid, .abi = t->call.abi,
			.nr = t->call.nr, .d = d, .prog = t->s->prog,
			.has_result = true, .result = value,
		};

		memcpy(rec.args, t->call.args, sizeof(rec.args));
		(void)sw_audit_write(t->s->audit, t->s->audit_format, &rec);
		/* Said now: the exit path writes no second line. */
		t->exit_audit = false;
	}
}

/* Act on what objects.c says of result rval.  true: t's way is chosen
 * here (*plan: an injected call runs, or SW_DEAD); false: the exit path
 * goes on (and chooses it). */
static bool act(struct sw_supervisor *sup, struct sw_tracee *t, int64_t rval,
		bool injected, struct sw_resume *plan)
{
	struct sw_rc *rc = t->rc;
	struct sw_rc_out out = { .fd = -1 };
	uint64_t a[6] = { 0 };
	int e;

	*plan = SW_DEAD;
	if (rc->kind == SW_RC_OPEN && !injected && sw_fscomplain_on(t->s))
		sw_fscomplain_open(sup, t, rc, rval);
	switch (sw_objects_result(sup, t, rc, rval, &out)) {
	case SW_RC_KEEP:
		if (injected && (e = finish(t, rval)) < 0) {
			fail(t, "return the result", -e);
			return true;
		}
		rc_free(sup, t);
		return false;
	case SW_RC_RETURN:
		if (injected) {
			if ((e = finish(t, out.value)) < 0) {
				fail(t, "return the result", -e);
				return true;
			}
		} else {
			t->exit_set = true;
			t->rval = out.value;
			t->is_error = out.value < 0 && out.value >= -4095;
		}
		refused(t, out.value, out.why);
		rc_free(sup, t);
		return false;
	case SW_RC_CLOSE:
		rc->value = out.value;
		rc->fd = out.fd;
		rc->why = out.why;
		if (!injected && (e = sw_arch_get_regs(t->pid, &rc->r0)) < 0) {
			fail(t, "read its registers", -e);
			return true;
		}
		a[0] = (uint64_t)out.fd;
		if ((e = inject(t, RC_INJ_CLOSE, (uint64_t)t->s->prog->sys[rc->abi][SW_SYS_CLOSE],
				a)) < 0)
			fail(t, "inject close", -e);
		else
			*plan = injected_held(sup, t);
		return true;
	case SW_RC_INJECT:
		if (!injected && (e = sw_arch_get_regs(t->pid, &rc->r0)) < 0) {
			fail(t, "read its registers", -e);
			return true;
		}
		if ((e = inject(t, RC_INJ_CALL, out.nr, out.args)) < 0)
			fail(t, "inject the call again", -e);
		else
			*plan = injected_held(sup, t);
		return true;
	}
	return false;
}

bool sw_rc_syscall_stop(struct sw_supervisor *sup, struct sw_tracee *t,
			struct sw_resume *plan)
{
	struct sw_rc *rc = t->rc;
	struct sw_ptrace_syscall_info info;
	int e;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof(info),
			  &info) < 0) {
		fail(t, "PTRACE_GET_SYSCALL_INFO", errno);
		*plan = SW_DEAD;
		return true;
	}
	if (rc->step == SW_RC_CALL || rc->step == SW_RC_FREE) {
		if (info.op != SW_PTRACE_SYSCALL_INFO_EXIT)
			return false;
		return act(sup, t, info.exit.rval, false, plan);
	}
	if (rc->step != SW_RC_INJECTED)
		return false;
	if (info.op == SW_PTRACE_SYSCALL_INFO_ENTRY || !rc->entered) {
		rc->entered = info.op == SW_PTRACE_SYSCALL_INFO_ENTRY;
		*plan = SW_SYSCALL(0);
		return true;
	}
	if (info.op != SW_PTRACE_SYSCALL_INFO_EXIT) {
		*plan = SW_SYSCALL(0);
		return true;
	}
	if (rc->injected == RC_INJ_CALL)
		return act(sup, t, info.exit.rval, true, plan);
	*plan = SW_DEAD;
	/* close(fd) of a descriptor the program must not keep: gone from
	 * the table only if the table says so (still_open()). */
	if (info.exit.rval != 0 || still_open(t, rc->fd)) {
		int e = info.exit.rval < 0 ? (int)-info.exit.rval : 0;

		sw_warn(t->s, "pid %d keeps descriptor %d, which it must not (our close returned %s%s); killing the session",
			t->pid, rc->fd, e ? "" : "0", e ? strerror(e) : ", the descriptor still there: a seccomp filter of the program's own answered it");
		sw_session_kill(t->s);
		return true;
	}
	if ((e = finish(t, rc->value)) < 0) {
		fail(t, "return the refusal", -e);
		return true;
	}
	refused(t, rc->value, rc->why);
	rc_free(sup, t);
	return false;
}

bool sw_rc_seccomp_stop(struct sw_tracee *t, struct sw_resume *plan)
{
	/* A call we injected, stopped by a filter that traces it (our
	 * defence's rules for the call made again, a policy's for close):
	 * it is ours, it runs. */
	if (!t->rc || t->rc->step != SW_RC_INJECTED)
		return false;
	*plan = SW_SYSCALL(0);
	return true;
}

void sw_rc_tick(struct sw_supervisor *sup)
{
	long long now = sw_mono_ms();
	bool again = false;

	for (struct sw_session *s = sup->sessions; s; s = s->next) {
		struct sw_tracee *h;
		unsigned long nr, a[3];

		if (!s->holder)
			continue;
		h = sw_tracee_find(sup, s->holder);
		if (h && h->rc && h->rc->step == SW_RC_INJECTED) {
			/* Dead in our call with no exit seen (a leader whose
			 * threads live): its group killed, and their exits,
			 * then its own, end the hold.  Alive: a look again
			 * until the call is over. */
			if (!dead(h->pid))
				again = true;
			else
				(void)group_left_killed(sup, h);
			continue;
		}
		if (!h || !h->rc || h->rc->step != SW_RC_CALL)
			continue;
		if (now - h->rc->since_ms < SW_RC_FIFO_MS) {
			again = true;
			continue;
		}
		if (!waits_for_partner(h->pid, &nr, a)) {
			/* Still running, or waiting for something that is no
			 * FIFO's partner (a FUSE server, NFS): held on. */
			again = true;
			continue;
		}
		h->rc->step = SW_RC_FREE;
		hold_end(sup, s);
	}
	if (again)
		sw_bell_alarm(sup);
}
