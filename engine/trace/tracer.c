// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The supervisor: one tracer for any number of sessions.
 *
 * Every tracee (thread or process) is in an open-addressing table keyed
 * by tid, pointing at its session.  sw_supervisor_dispatch() waits with
 * waitpid(-1, __WALL | __WNOTHREAD) and routes each stop:
 *   - PTRACE_EVENT_SECCOMP           -> actions.c (decide + SET)
 *   - syscall-exit stop (SIGTRAP|0x80) -> actions.c (set the return value)
 *   - PTRACE_EVENT_FORK/VFORK/CLONE  -> the new tid joins the session
 *     (see "Event order" below)
 *   - PTRACE_EVENT_EXEC              -> a multithreaded exec gives the
 *     execing thread the leader's tid; the former tid vanishes silently;
 *     the file executed is checked (execguard.c)
 *   - PTRACE_EVENT_STOP              -> group-stop: PTRACE_LISTEN, so job
 *     control works as unconfined; other event stops just continue
 *   - signal-delivery stop           -> the signal is injected on resume
 *   - exit                           -> leaves the table; the session is
 *     done when its last tracee is gone
 * The waitpid(-1, __WNOTHREAD) reaps every child of the calling thread
 * (only the thread that seized a tracee sees its stops): a tracer thread
 * must not run other children of its own beside its programs (or accept
 * that their exits are consumed here).  A daemon with several tracer
 * threads gives each a supervisor of its own (bell.c wakes one from
 * another thread).
 *
 * Event order.  The kernel orders one tracee's own stops, but not the
 * parent's creation event (PTRACE_EVENT_FORK/VFORK/CLONE, "E") against
 * the child's first stop ("F") and exit ("X"): any of E F X, F E X, F X E,
 * E X, X E reaches waitpid, and E never comes if the parent is killed
 * between creating the child and stopping for E.  Pids are reused: a
 * non-leader thread's tid is free as soon as we reap its exit, a
 * process's once its parent reaps it, possibly before E is handled.  So:
 *   - F before E: the tid is placed from /proc (thread group, else
 *     parent) into that session, not yet "announced"; unplaceable, it
 *     stays stopped as SW_T_ORPHAN;
 *   - X of a tid not yet announced (or not known at all): a tombstone
 *     (struct sw_tomb) with its session if known;
 *   - E: consumes, in this order, a tombstone of the parent's session,
 *     an unannounced tracee of that session, an orphan that /proc shows
 *     to be the parent's child, a tombstone of unknown session; else the
 *     tid is new (SW_T_FRESH).  A tracee of another session is never
 *     touched by E: a live tid has one creator, and a second E naming it
 *     is for an earlier, dead holder of that pid.
 * Tombstones go with their session; those of unknown session are capped
 * (oldest dropped), those of one session too (the session is killed:
 * its bookkeeping can no longer be exact).  An orphan whose creator died
 * before E is killed once every session that existed when it stopped has
 * ended (it was a descendant of one of them); with a single session ever,
 * it simply belongs to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/clock.h"
#include "sysward/proc.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "contain/contain.h"
#include "contain/fsrules.h"
#include "contain/nsbox.h"
#include "decide/decide.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/execguard.h"
#include "trace/pathguard.h"
#include "trace/peers.h"
#include "trace/reach.h"
#include "trace/resultcheck.h"
#include "trace/trace.h"
#include "trace/listener.h"

/* A tracee has gone (exited, or replaced by its exec): its guard state
 * with it (a setup under way too: our memfd, if not yet sent), then its
 * slot. */
static void tracee_gone(struct sw_supervisor *sup, struct sw_tracee *t)
{
	sw_rc_forget(sup, t);
	sw_pathguard_setup_end(t);
	sw_pathguard_forget(t);
	/* Its connect's check, or its place in a hold (peers.c). */
	sw_peers_gone(sup, t);
	sw_tracee_del(sup, t);
}

/* ---- tombstones --------------------------------------------------------- */

#define TOMBS_PER_SESSION	1024
#define TOMBS_UNKNOWN		1024

static void tomb_take(struct sw_supervisor *sup, size_t i)
{
	if (sup->tombs[i].s)
		sup->tombs[i].s->n_tombs--;
	/* Keep the order: eviction drops the oldest. */
	memmove(&sup->tombs[i], &sup->tombs[i + 1],
		(sup->n_tombs - i - 1) * sizeof(sup->tombs[0]));
	sup->n_tombs--;
}

/* The oldest tombstone of pid in session s (NULL: of unknown session). */
static ssize_t tomb_find(struct sw_supervisor *sup, pid_t pid,
			 const struct sw_session *s)
{
	for (size_t i = 0; i < sup->n_tombs; i++)
		if (sup->tombs[i].pid == pid && sup->tombs[i].s == s)
			return (ssize_t)i;
	return -1;
}

static void tomb_add(struct sw_supervisor *sup, pid_t pid, struct sw_session *s)
{
	size_t n_unknown = 0;

	if (s && s->n_tombs >= TOMBS_PER_SESSION) {
		/* Only creators killed in the middle of fork, over and over,
		 * leave that many: fail closed rather than guess. */
		sw_warn(s, "lost track of %zu processes whose creator died while creating them; killing the session",
			s->n_tombs);
		sw_session_kill(s);
		return;
	}
	if (!s) {
		for (size_t i = 0; i < sup->n_tombs; i++)
			n_unknown += !sup->tombs[i].s;
		if (n_unknown >= TOMBS_UNKNOWN) {
			for (size_t i = 0; i < sup->n_tombs; i++)
				if (!sup->tombs[i].s) {
					tomb_take(sup, i);
					break;
				}
		}
	}
	if (sup->n_tombs == sup->cap_tombs) {
		size_t cap = sup->cap_tombs ? sup->cap_tombs * 2 : 16;
		struct sw_tomb *n = realloc(sup->tombs, cap * sizeof(*n));

		if (!n) {
			/* Without the tombstone a late creation event would
			 * re-add a dead tid: fail closed. */
			if (s)
				sw_session_kill(s);
			return;
		}
		sup->tombs = n;
		sup->cap_tombs = cap;
	}
	sup->tombs[sup->n_tombs++] = (struct sw_tomb){ pid, s };
	if (s)
		s->n_tombs++;
}

static void tombs_drop_session(struct sw_supervisor *sup, struct sw_session *s)
{
	size_t j = 0;

	if (!s->n_tombs)
		return;
	for (size_t i = 0; i < sup->n_tombs; i++)
		if (sup->tombs[i].s != s)
			sup->tombs[j++] = sup->tombs[i];
	sup->n_tombs = j;
	s->n_tombs = 0;
}

/* Could tid c have been created by tid p, which is stopped at its
 * creation event (so alive, and not reparented since)?  A thread shares
 * p's thread group; a process has p's group as parent, or p's parent
 * (CLONE_PARENT). */
static bool proc_child_of(pid_t c, pid_t p)
{
	pid_t ct, cp, pt, pp;

	if (sw_sys_proc_ids(c, &ct, &cp) < 0 || sw_sys_proc_ids(p, &pt, &pp) < 0)
		return false;
	return ct == pt || cp == pt || (cp == pp && pp != 0);
}

int sw_supervisor_new(struct sw_supervisor **ret, struct sw_error *err)
{
	struct sw_supervisor *sup = calloc(1, sizeof(*sup));

	if (!sup)
		return sw_error_set_errno(err, ENOMEM, "allocate the supervisor");
	sup->tab_size = 64;
	sup->tab = calloc(sup->tab_size, sizeof(*sup->tab));
	if (!sup->tab) {
		free(sup);
		return sw_error_set_errno(err, ENOMEM, "allocate the supervisor");
	}
	sup->self = getpid();
	pthread_mutex_init(&sup->bell_mu, NULL);
	sup->bell_fd = -1;
	/* A same-uid tracee must not ptrace us or open /proc/<us>/mem. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		int e = errno;

		free(sup->tab);
		free(sup);
		return sw_error_set_errno(err, e, "make the supervisor non-dumpable (prctl PR_SET_DUMPABLE)");
	}
	*ret = sup;
	return 0;
}

static void session_unlink(struct sw_supervisor *sup, struct sw_session *s)
{
	for (struct sw_session **pp = &sup->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			return;
		}
	}
}

/*
 * The longest sw_supervisor_free() waits for its killed tracees.  SIGKILL
 * does not end every process at once: a thread that waits for a FUSE
 * request its server has already taken waits uninterruptibly
 * (fs/fuse/dev.c, request_wait_answer), and its process ends only when
 * the request is answered or the connection aborted -- never, if the
 * server is the program itself and the stuck thread's descriptor table
 * holds the last /dev/fuse descriptor.  Any program can do that, and a
 * daemon asked to stop must stop: past the deadline the rest is left to
 * the kernel (SIGKILL is pending; our exit detaches it, PTRACE_O_EXITKILL).
 */
#define SW_FREE_DEADLINE_MS 2000

/* Reap the killed tracees of this thread until none is left (ECHILD) or
 * the deadline passes.  A tracee we never saw (a new child before its
 * first stop) reports that stop here: it is killed too. */
static void reap_killed(struct sw_supervisor *sup)
{
	long long end = sw_mono_ms() + SW_FREE_DEADLINE_MS;
	unsigned int left;
	char msg[160];

	for (;;) {
		int status;
		pid_t pid = sw_sys_waitpid(-1, &status, __WALL | __WNOTHREAD | WNOHANG);

		if (pid > 0) {
			if (WIFSTOPPED(status))
				sw_sys_kill(pid, SIGKILL);
			continue;
		}
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return;		/* ECHILD: every one is gone */
		if (sw_mono_ms() >= end)
			break;
		nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
	}
	left = 0;
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sw_sys_kill(sup->tab[i].pid, 0) == 0)
			left++;
	snprintf(msg, sizeof(msg),
		 "%u traced process(es) did not end within %d ms of SIGKILL "
		 "(stuck in the kernel, e.g. on an unanswered FUSE request); "
		 "not waiting for them", left, SW_FREE_DEADLINE_MS);
	if (sup->warn_fn)
		sup->warn_fn(NULL, msg, sup->warn_ud);
}

void sw_supervisor_free(struct sw_supervisor *sup)
{
	if (!sup)
		return;
	sw_bell_stop(sup);
	sw_tracee_mem_release();
	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0)
			sw_sys_kill(sup->tab[i].pid, SIGKILL);
	reap_killed(sup);
	/* What the tracees still in the table hold, as tracee_gone drops
	 * it: our copies of sockets under check (peers.c), a guard setup's
	 * memfd and the guard's mapping (pathguard.c). */
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *t = &sup->tab[i];

		if (t->pid <= 0)
			continue;
		if (t->pc)
			sw_peers_gone(sup, t);
		sw_pathguard_setup_end(t);
		sw_pathguard_forget(t);
	}
	free(sup->replay);
	while (sup->sessions) {
		struct sw_session *s = sup->sessions;

		sup->sessions = s->next;
		sw_session_free(s);
	}
	/* Their processes got SIGKILL: a moment for them to go. */
	if (sup->n_cg_pending)
		sw_cgroup_retry(sup, SW_FREE_DEADLINE_MS);
	free(sup->tombs);
	free(sup->deferred);
	free(sup->tab);
	pthread_mutex_destroy(&sup->bell_mu);
	free(sup);
}

void sw_supervisor_on_done(struct sw_supervisor *sup, sw_session_done_fn fn,
			   void *userdata)
{
	sup->done_fn = fn;
	sup->done_ud = userdata;
}

void sw_supervisor_on_warning(struct sw_supervisor *sup, sw_warning_fn fn,
			      void *userdata)
{
	sup->warn_fn = fn;
	sup->warn_ud = userdata;
}

void sw_supervisor_on_job_stop(struct sw_supervisor *sup, sw_job_stop_fn fn,
			       void *userdata)
{
	sup->job_stop_fn = fn;
	sup->job_stop_ud = userdata;
}

/* Send sig to every process (and thread) of the session. */
static void session_signal_all(struct sw_session *s, int sig)
{
	struct sw_supervisor *sup = s->sup;

	for (size_t i = 0; i < sup->tab_size; i++)
		if (sup->tab[i].pid > 0 && sup->tab[i].s == s)
			sw_sys_kill(sup->tab[i].pid, sig);
}

int sw_session_signal(struct sw_session *s, int sig)
{
	s->signalled = true;
	/*
	 * Job control acts on the whole job, as a terminal's does on its
	 * foreground process group.  The daemon's programs are in a session
	 * of their own (launchchild.c), with no terminal: their group is
	 * orphaned, and the kernel discards SIGTSTP, SIGTTIN and SIGTTOU
	 * there: stop them with SIGSTOP, and continue them all with
	 * SIGCONT.
	 */
	if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
		session_signal_all(s, SIGSTOP);
		return 0;
	}
	if (sig == SIGCONT) {
		session_signal_all(s, SIGCONT);
		return 0;
	}
	if (sw_sys_kill(s->pid, sig) < 0)
		return -errno;
	/* A stopped program would act on SIGTERM or SIGHUP only once
	 * continued, and whoever asked us to end it waits meanwhile: send
	 * SIGCONT after them, as kill(1) of a shell's stopped job, timeout(1)
	 * and systemd do. */
	if (sig == SIGTERM || sig == SIGHUP)
		sw_sys_kill(s->pid, SIGCONT);
	return 0;
}

/* Kill the orphans that no live session can still claim: every session
 * that existed when the orphan stopped has ended, so its creator's did,
 * and its creation event will never come. */
static void orphans_sweep(struct sw_supervisor *sup)
{
	uint64_t oldest = UINT64_MAX;

	for (struct sw_session *s = sup->sessions; s; s = s->next)
		if (s->seq < oldest)
			oldest = s->seq;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *t = &sup->tab[i];

		if (t->pid > 0 && t->state == SW_T_ORPHAN && !t->s &&
		    t->orphan_seq < oldest)
			sw_sys_kill(t->pid, SIGKILL);
	}
}

void sw_session_free(struct sw_session *s)
{
	if (!s)
		return;
	if (s->launch_fd >= 0)
		close(s->launch_fd);
	if (s->tty_master >= 0)
		close(s->tty_master);
	/* Its processes are gone (or it never started): its cgroup goes. */
	sw_cgroup_release(s->sup, &s->cgroup);
	/* Its thread reads s->prog: ended first. */
	sw_notif_free(s->notif);
	sw_program_free(s->prog);
	sw_execguard_free(s->execguard);
	sw_record_free(s->record);
	sw_objects_free(s->objects);
	sw_peers_free(s->peers);
	free(s->counters);
	free(s->launch_cwd);
	free(s->groups);
	sw_fsrules_free(s->fsrules);
	sw_fsrules_free(s->sandbox);
	free(s);
}

static void session_check_done(struct sw_supervisor *sup, struct sw_session *s)
{
	int code = s->main_exited ? s->exit_code : SW_EXIT_SYSWARD_ERROR;

	if (s->n_tracees)
		return;
	session_unlink(sup, s);
	tombs_drop_session(sup, s);
	sup->sessions_ended++;
	if (sup->done_fn)
		sup->done_fn(s, code, sup->done_ud);
	sw_session_free(s);
	if (sup->n_orphans)
		orphans_sweep(sup);
}

static void join(struct sw_tracee *t, struct sw_session *s)
{
	t->s = s;
	s->n_tracees++;
	if (s->record)
		sw_record_task(s->record);
}

/* PTRACE_EVENT_FORK/VFORK/CLONE (ev) of parent: see "Event order" above. */
static void new_child(struct sw_supervisor *sup, struct sw_tracee *parent, int ev)
{
	unsigned long msg = 0;
	struct sw_session *ps = parent->s;
	struct sw_guard *pg = parent->guard;
	uint8_t pgs = parent->guard_state;
	uint16_t prec = parent->rec_prog;	/* it runs its parent's program */
	pid_t ppid = parent->pid, cpid;
	struct sw_tracee *c;
	ssize_t tomb;

	/* Careful: adding to the table may move it; parent is not used
	 * after sw_tracee_add(). */
	if (sw_sys_ptrace(PTRACE_GETEVENTMSG, ppid, 0L, &msg) < 0 || !msg)
		return;
	cpid = (pid_t)msg;
	/* Two processes sharing one descriptor table (resultcheck.c). */
	sw_rc_new_child(sup, ps, ppid, cpid, ev);
	c = sw_tracee_find(sup, cpid);
	tomb = tomb_find(sup, cpid, ps);
	if (c && c->s == ps && !c->announced &&
	    (tomb < 0 || proc_child_of(cpid, ppid))) {
		/* F came first and placed it here. */
		c->announced = true;
		c->rec_prog = prec;
		sw_pathguard_inherit(c, pg, pgs);
		return;
	}
	if (tomb >= 0) {
		/* It came and went (F X E, or X E). */
		tomb_take(sup, (size_t)tomb);
		return;
	}
	if (c && !c->s && c->state == SW_T_ORPHAN && proc_child_of(cpid, ppid)) {
		join(c, ps);
		c->announced = true;
		c->rec_prog = prec;
		c->state = SW_T_RUNNING;
		sup->n_orphans--;
		sw_pathguard_inherit(c, pg, pgs);
		/* Kept stopped at its first stop until now: a tracee other
		 * than the one whose stop this is, let go through the one
		 * resume. */
		(void)sw_restart(c, SW_CONT(0));
		return;
	}
	tomb = tomb_find(sup, cpid, NULL);
	if (tomb >= 0) {
		tomb_take(sup, (size_t)tomb);
		return;
	}
	if (c) {
		/* The tid is held by a tracee this event cannot be about
		 * (another session's, or one announced already): the child
		 * it names is gone.  Leave the holder alone. */
		return;
	}
	c = sw_tracee_add(sup, cpid);
	if (!c) {
		/* No memory to track it: it must not run unsupervised. */
		sw_warn(ps, "cannot track new process %d (out of memory); killing it", cpid);
		sw_sys_kill(cpid, SIGKILL);
		return;
	}
	c->state = SW_T_FRESH;
	c->announced = true;
	c->rec_prog = prec;
	sw_pathguard_inherit(c, pg, pgs);
	join(c, ps);
}

static void exec_event(struct sw_supervisor *sup, struct sw_tracee *t)
{
	unsigned long former = 0;

	if (sw_sys_ptrace(PTRACE_GETEVENTMSG, t->pid, 0L, &former) == 0 &&
	    (pid_t)former != t->pid) {
		struct sw_tracee *f = sw_tracee_find(sup, (pid_t)former);

		/* The execing thread took over the leader's tid; the former
		 * tid reports no exit of its own.  The leader's entry now
		 * stands for the execing thread: give it that thread's
		 * syscall state (the old leader's, say an exit stop it was
		 * owed, died with it). */
		if (f) {
			struct sw_session *fs = f->s;
			bool announced = f->announced;

			/* The leader it replaces died in the exec (de_thread):
			 * a checked call of its ends with it. */
			sw_rc_forget(sup, t);

			t->exit_pending = f->exit_pending;
			t->exit_set = f->exit_set;
			t->exit_audit = f->exit_audit;
			t->is_error = f->is_error;
			t->inject_sig = f->inject_sig;
			t->rval = f->rval;
			t->call = f->call;
			t->d = f->d;
			/* The strings its audit line was owed move with it. */
			sw_audit_strings_clear(&t->kept);
			t->kept = f->kept;
			memset(&f->kept, 0, sizeof(f->kept));
			if (fs)
				fs->n_tracees--;
			tracee_gone(sup, f);
			/* Its creation event may still be on its way. */
			if (!announced)
				tomb_add(sup, (pid_t)former, fs);
		} else {
			t->exit_pending = false;
			t->inject_sig = 0;
		}
		t = sw_tracee_find(sup, (pid_t)t->pid);
	}
	if (t && t->s && t->s->record)
		sw_record_exec(t->s->record, t);
	if (t && t->s && !t->s->exec_done) {
		t->s->exec_done = true;
		if (!sw_notif_exec_check(t->s, t))
			return;
		/* The launch is over: the child's report pipe closed with
		 * the exec. */
		if (t->s->launch_fd >= 0) {
			close(t->s->launch_fd);
			t->s->launch_fd = -1;
		}
		/* "when" counters count the program's calls, not the
		 * launcher's PATH search. */
		memset(t->s->counters, 0,
		       sizeof(uint32_t) * (t->s->prog->n_rules ? t->s->prog->n_rules : 1));
	}
}

static void on_exit_status(struct sw_supervisor *sup, struct sw_tracee *t,
			   pid_t pid, int status)
{
	struct sw_session *s;

	if (!t) {
		/* Killed before its first stop; its creation event may
		 * still come.  A zombie still shows its parent. */
		uint16_t prog;

		tomb_add(sup, pid, sw_session_from_proc(sup, pid, &prog));
		return;
	}
	s = t->s;
	if (t->state == SW_T_ORPHAN)
		sup->n_orphans--;
	if (!t->announced) {
		tracee_gone(sup, t);
		tomb_add(sup, pid, s);
	} else {
		tracee_gone(sup, t);
	}
	if (!s)
		return;
	if (pid == s->pid) {
		s->main_exited = true;
		s->exit_code = WIFEXITED(status) ? WEXITSTATUS(status)
						 : 128 + WTERMSIG(status);
		if (WIFSIGNALED(status)) {
			s->term_sig = WTERMSIG(status);
			s->core_dumped = WCOREDUMP(status);
		}
		if (!s->exec_done && !s->launch_failed)
			s->exit_code = sw_launch_failed(s);
		else if (s->kill_descendants)
			sw_session_kill(s);
	}
	s->n_tracees--;
	session_check_done(sup, s);
}

/* The first stop of a tid no creation event has named yet. */
static struct sw_tracee *place_unknown(struct sw_supervisor *sup, pid_t pid)
{
	uint16_t prog;
	struct sw_session *s = sw_session_from_proc(sup, pid, &prog);
	struct sw_tracee *t;

	/* With one session ever, the tid can only be its own. */
	if (!s && sup->sessions && !sup->sessions->next && !sup->sessions_ended)
		s = sup->sessions;
	t = sw_tracee_add(sup, pid);
	if (!t) {
		sw_sys_kill(pid, SIGKILL);
		return NULL;
	}
	if (s) {
		join(t, s);
		t->state = SW_T_RUNNING;
		/* Its calls before the creation event count under its
		 * parent's program, as after it (record.c: the report must
		 * not depend on which stop the kernel reports first). */
		t->rec_prog = prog;
	} else {
		t->state = SW_T_ORPHAN;
		t->orphan_seq = sup->session_seq;
		sup->n_orphans++;
		/* If every session it may belong to has ended already, no
		 * session end will come to sweep it (a tracer thread whose
		 * sessions are all gone may get no other event for long). */
		orphans_sweep(sup);
	}
	return t;
}

static struct sw_resume handle_status(struct sw_supervisor *sup, pid_t pid,
				      int status);

static void restart(struct sw_supervisor *sup, pid_t pid, struct sw_resume r);

static void handle_one(struct sw_supervisor *sup, pid_t pid, int status);

/* Every status kept for a session that is no longer held, handled now
 * as it came (resultcheck.c keeps them, and gives them back one at a
 * time); a handler that holds the session again keeps the rest. */
static void rc_replay(struct sw_supervisor *sup)
{
	static __thread bool replaying;
	pid_t pid;
	int status;

	if (replaying)
		return;
	replaying = true;
	sup->rc_replay = false;
	while (sw_rc_replay_next(sup, &pid, &status))
		sw_handle_status(sup, pid, status);
	replaying = false;
}

void sw_handle_status(struct sw_supervisor *sup, pid_t pid, int status)
{
	handle_one(sup, pid, status);
	/* Stops held while a connect's peer was checked, in the order they
	 * came (peers.c): handled here, after the stop that ended the hold,
	 * never inside it. */
	while (sw_peers_replay(sup, &pid, &status))
		handle_one(sup, pid, status);
	/* A checked call ended its hold: the stops it kept (resultcheck.c). */
	if (sup->rc_replay)
		rc_replay(sup);
}

/*
 * The two holds of a session, a connect's (peers.c) and a call checked on
 * its result (resultcheck.c), exclude each other: each keeps every stop of
 * its session but its holder's, so no other call of that session reaches
 * its SECCOMP stop's handler, where a hold begins, until the hold is over.
 * resultcheck.c's keeps first.
 */
/* A read of pid's memory passed its deadline (strings.c): pid is killed
 * already; kill its session too, whose FUSE server (or whatever holds
 * the fault) is one of its processes, so that the abandoned read ends. */
static void stalled_kill(struct sw_session *s, pid_t stuck)
{
	sw_warn(s, "reading the memory of pid %d took longer than the deadline (a page of a file system the program serves itself?); killing the session",
		stuck);
	sw_session_kill(s);
}

static void handle_one(struct sw_supervisor *sup, pid_t pid, int status)
{
	struct sw_tracee *t;
	pid_t stuck;

	/* A stop of a session held for a checked call waits for its end
	 * (resultcheck.c). */
	if (sup->n_holds && sw_rc_hold_status(sup, pid, status))
		return;
	t = sw_tracee_find(sup, pid);
	/* The same for a read of the session's listener (notif.c), seen at
	 * the next event of the session, which its kill makes: before this
	 * one is handled, which may end the session. */
	if (t && t->s && (stuck = sw_notif_stalled(t->s->notif)) > 0)
		stalled_kill(t->s, stuck);
	/* Whatever this stop reads of a program's memory is on that
	 * program's uid's account (strings.c).  A tid not known yet (its
	 * first stop before its creation event) gets its owner where
	 * handle_status() places it. */
	sw_tracee_mem_owner(t && t->s ? t->s->uid : (uid_t)-1);
	restart(sup, pid, handle_status(sup, pid, status));
	/* A read of a tracee's memory passed its deadline. */
	while ((stuck = sw_tracee_mem_stalled()) > 0) {
		t = sw_tracee_find(sup, stuck);
		if (t && t->s)
			stalled_kill(t->s, stuck);
	}
}

/*
 * Where every stop's plan is made (strace's one ptrace_restart()): the
 * stop's handler chose what to do with pid; sw_restart() does it and
 * checks it (ESRCH: killed meanwhile, its exit comes; anything else:
 * warned about, killed).  The tracee is found again: an exec's handler
 * may have moved it in the table.
 */
static void restart(struct sw_supervisor *sup, pid_t pid, struct sw_resume r)
{
	struct sw_tracee *t;

	if (r.op == SW_RESUME_HELD || r.op == SW_RESUME_NONE)
		return;
	t = sw_tracee_find(sup, pid);
	if (!t)
		return;
	/* A guard setup whose step cannot resume is over (its warning
	 * said by sw_restart()). */
	if (sw_restart(t, r) < 0 && t->gs)
		sw_pathguard_setup_failed(t);
}

/* What to do with pid after its stop (status): every handler returns its
 * plan, and handle_one() makes it. */
static struct sw_resume handle_status(struct sw_supervisor *sup, pid_t pid,
				      int status)
{
	struct sw_tracee *t = sw_tracee_find(sup, pid);
	struct sw_resume plan;
	int sig, ev;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		on_exit_status(sup, t, pid, status);
		return SW_DEAD;
	}
	if (!WIFSTOPPED(status))
		return SW_HELD;
	sig = WSTOPSIG(status);
	ev = (unsigned int)status >> 16;

	if (!t) {
		t = place_unknown(sup, pid);
		if (!t || !t->s)
			return SW_HELD;		/* orphan: stays stopped */
		sw_tracee_mem_owner(t->s->uid);
		/* A connect of its session is being checked: it waits. */
		if (sw_peers_held(sup, t, status))
			return SW_HELD;
		/* Its first stop: go.  Any other stop (none is possible
		 * before the first) is handled as usual below. */
		if (ev == PTRACE_EVENT_STOP)
			return SW_CONT(0);
	}
	/* Whatever stop this is, it no longer waits in a group-stop, nor
	 * for a vfork's child. */
	t->listening = false;
	t->vforked = false;
	/* A connect of its session is being checked (peers.c): this stop
	 * is kept, and handled once the check is over. */
	if (sw_peers_held(sup, t, status))
		return SW_HELD;
	if (t->state == SW_T_FRESH) {
		t->state = SW_T_RUNNING;
		if (ev == PTRACE_EVENT_STOP)
			return SW_CONT(0);
	}
	if (!t->s) {
		/* An orphan's further stop (cannot happen: it stays
		 * stopped until adopted); keep it stopped. */
		return SW_HELD;
	}
	if (t->gs)
		return sw_pathguard_setup_stop(sup, t, sig, ev);
	if (sig == (SIGTRAP | 0x80))
		return sw_exit_stop(sup, t);
	switch (ev) {
	case PTRACE_EVENT_SECCOMP:
		return sw_seccomp_stop(sup, t);
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		new_child(sup, t, ev);
		t = sw_tracee_find(sup, pid);
		if (!t)
			return SW_DEAD;
		t->vforked = ev == PTRACE_EVENT_VFORK;
		return sw_resume_on(t, 0);
	case PTRACE_EVENT_EXEC:
		exec_event(sup, t);
		t = sw_tracee_find(sup, pid);
		if (!t)
			return SW_DEAD;
		/* The file the kernel loaded, before its first instruction. */
		if (sw_execguard_exec(sup, t))
			return SW_DEAD;
		if (sw_pathguard_exec(sup, t, &plan))
			return plan;
		return sw_resume_on(t, 0);
	case PTRACE_EVENT_STOP:
		t->s->signal_stops++;
		return sw_group_stop(t, sig, sw_resume_on(t, 0));
	case 0:
		/* Signal-delivery stop: deliver it (a trap we raised, with
		 * the kernel's details). */
		t->s->signal_stops++;
		if (sig == SIGSYS)
			sw_trap_signal_stop(t);
		if (sw_job_stop_signal(sig) && t->pid == t->s->pid)
			t->s->main_stop_outside = sw_stop_from_outside(sup, t);
		/* A call the listener had not read yet, interrupted:
		 * restarted as after a ptrace stop (notif.c). */
		if (t->s->notif)
			sw_notif_signal_stop(t->s, t);
		return sw_resume_on(t, sig);
	default:
		return sw_resume_on(t, 0);
	}
}

int sw_supervisor_dispatch(struct sw_supervisor *sup, bool block,
			   struct sw_error *err)
{
	int handled = 0;

	/* Session cgroups that held something when their session ended
	 * (cgroup.c): a try now and then, never a wait. */
	if (sup->n_cg_pending)
		sw_cgroup_retry(sup, 0);
	for (;;) {
		int status;
		pid_t pid = sw_sys_waitpid(-1, &status, __WALL | __WNOTHREAD |
					   (block && !handled ? 0 : WNOHANG));

		if (pid == 0)
			return handled;
		if (pid < 0) {
			if (errno == ECHILD || errno == EINTR)
				return handled;
			return sw_error_set_errno(err, errno, "waitpid for traced programs");
		}
		handled++;
		/* Woken by another thread: it has something for our caller;
		 * or by the bell's alarm: a held session's call may wait on a
		 * FIFO (resultcheck.c). */
		if (sw_bell_status(sup, pid, status)) {
			if (sup->n_holds)
				sw_rc_tick(sup);
			/* A hold let go there: the stops it kept. */
			if (sup->rc_replay)
				rc_replay(sup);
			return handled;
		}
		sw_handle_status(sup, pid, status);
		/* Let the caller attend to its sockets now and then. */
		if (handled >= 256)
			return handled;
	}
}
