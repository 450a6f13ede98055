// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracer threads ("shards").
 *
 * ptrace ties a tracee to the thread that seized it: only that thread
 * sees its stops and may act on it, and every process the program creates
 * is traced by the same thread.  So each shard is one thread with a
 * supervisor of its own that launches the sessions the event loop gives
 * it and serves every stop of their trees; a session never moves.  Shards
 * share nothing but the messages below and the audit log, so one that
 * serves a stop flood, or waits up to its deadline on a tracee's memory,
 * delays its own sessions only, and with a shard per CPU the daemon's
 * calls per second grow with the cores.
 *
 * A shard sleeps in waitpid (sw_supervisor_dispatch) and is woken for
 * messages by its supervisor's bell (engine: bell.c), so a message is
 * taken between two ptrace events at the latest.  Its replies go to the
 * event loop's mailbox, an eventfd in its epoll set.  Neither side ever
 * waits for the other.
 *
 * Signal floods.  A signal costs its sender one system call and the
 * supervisor of its receiver a round trip per stop (delivery, and the
 * group stop of SIGSTOP), so a program whose child stops and continues
 * it forever keeps its tracer thread busy at no cost of its own: three
 * busy threads where the same flood unconfined has two.  With as many
 * tracer threads as CPUs, every other session's tracer and program then
 * wake onto CPUs that the flood holds, and their calls slow down.  So a
 * thread whose every session floods signals (pace() says when) runs
 * SCHED_IDLE: it gets the CPU that no other thread wants, and any other thread that wakes preempts it at
 * once (the kernel's rule for that policy), while the flood's own
 * processes keep their priority, as unconfined.  One session that is not
 * flooding keeps its thread a normal one.  A message for the thread makes
 * it normal before it is queued (shard_send), and the thread goes idle
 * only with its queue empty, both under the queue's lock: a launch,
 * kill, signal or stop is never waiting at idle priority.  Leaving
 * SCHED_IDLE needs CAP_SYS_NICE, so without it no thread enters it.
 */
#include <errno.h>
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sysward/caps.h"
#include "sysward/cleanup.h"
#include "sysward/clock.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "syswardd.h"

/* ---- a shard ------------------------------------------------------------ */

struct shard {
	unsigned int idx;
	pthread_t thread;
	pid_t tid;
	/* Signal floods: the thread's own window, and whether it is at
	 * idle priority (written under in.mu; __atomic for shard_idle). */
	bool may_idle;			/* __atomic */
	bool flood;			/* the last window's verdict */
	bool idle;
	long long window_start;		/* ms */
	struct mailbox *out;
	struct mailq in;
	struct sw_supervisor *sup;	/* its thread's */
	struct shard_session *sessions;	/* running */
	struct shard_session *graveyard;	/* done: freed after dispatch */
	bool stopping;			/* its thread's: MSG_STOP seen */
	struct mail *stop;		/* MSG_STOP, made beforehand */
	/* Start-up: the thread reports whether its supervisor works. */
	pthread_mutex_t start_mu;
	pthread_cond_t start_cv;
	bool started;
	int start_r;
	struct sw_error start_err;
};

/*
 * A session as its tracer thread runs it, this thread's alone: the
 * engine's session and what the engine points into, from MSG_LAUNCH
 * until the dispatch in which it ended is over.  x is the event loop's
 * side (a reference), which the two share only through messages; the
 * engine hands this back in its callbacks (sw_session_userdata()).
 */
struct shard_session {
	struct session *x;
	struct sw_session *s;		/* NULL once done */
	int group_fd;			/* the program's group (set with s) */
	struct sw_policy *policy;	/* the engine points into it */
	char **argv;			/* for the report (with RECORD) */
	bool recording;
	struct sw_record_request record;	/* RECORD, or 0: none */
	uint64_t signal_stops;		/* at the start of the window */
	bool flooding;			/* signal floods (pace()) */
	struct shard_session *next;
};

/* The running session of x (a KILL or SIGNAL for it), or NULL once done:
 * a thread runs a few sessions, and such messages are rare. */
static struct shard_session *shard_session_of(struct shard *sh,
					      const struct session *x)
{
	for (struct shard_session *ss = sh->sessions; ss; ss = ss->next)
		if (ss->x == x)
			return ss;
	return NULL;
}

static void shard_unlink(struct shard *sh, struct shard_session *ss)
{
	for (struct shard_session **pp = &sh->sessions; *pp; pp = &(*pp)->next) {
		if (*pp == ss) {
			*pp = ss->next;
			ss->next = NULL;
			return;
		}
	}
}

static void group_close(struct shard_session *ss)
{
	if (ss->group_fd >= 0)
		close(ss->group_fd);
	ss->group_fd = -1;
}

/* After the engine is done with it: the policy it pointed into goes. */
static void shard_session_free(struct shard_session *ss)
{
	if (!ss)
		return;
	group_close(ss);
	sw_policy_free(ss->policy);
	for (size_t i = 0; ss->argv && ss->argv[i]; i++)
		free(ss->argv[i]);
	free(ss->argv);
	session_unref(ss->x);
	free(ss);
}

/*
 * A session with a RECORD: its report and summary, as `sysward run`
 * makes them embedded (engine/record/record.c), with the gate the client asked
 * for, for the REPORT that goes before its EXIT.  Out of memory, the
 * client gets no REPORT (and says so).
 */
static void make_report(struct shard_session *ss, int exit_code,
			struct mail *m)
{
	struct sw_record *rec = sw_session_take_record(ss->s);
	uint64_t n = sw_record_policy_refusals(rec);
	bool tripped = ss->record.gate && n > 0;
	struct sw_report_info info = {
		.policy = ss->policy, .argv = ss->argv, .program_exit = exit_code,
		.exit_code = tripped ? (int)ss->record.gate : exit_code,
		.gate = ss->record.gate != 0, .gate_tripped = tripped,
	};
	char *sum = NULL, *json = NULL;
	size_t sum_len = 0, json_len = 0;
	FILE *f;
	bool ok = rec != NULL;

	if (ok && (f = open_memstream(&sum, &sum_len))) {
		if (ss->record.flags & SW_PROTO_RECORD_SUMMARY)
			ok = sw_record_write_summary(rec, ss->policy, f, "  ", 40) == 0;
		ok = fclose(f) == 0 && ok;
	} else {
		ok = false;
	}
	if (ok && (f = open_memstream(&json, &json_len))) {
		if (ss->record.flags & SW_PROTO_RECORD_REPORT)
			ok = sw_record_write_json(rec, &info, f) == 0;
		ok = fclose(f) == 0 && ok;
	} else {
		ok = false;
	}
	sw_record_free(rec);
	if (!ok || sum_len > SW_PROTO_MAX_SUMMARY || json_len > SW_PROTO_MAX_REPORT) {
		free(sum);
		free(json);
		return;
	}
	m->has_report = true;
	m->report = (struct sw_report_reply){ n, sum, json };
}

static void on_done(struct sw_session *s, int exit_code, void *userdata)
{
	struct shard *sh = userdata;
	struct shard_session *ss = sw_session_userdata(s);
	const struct sw_error *le = sw_session_launch_error(s);
	struct mail *m;

	if (!ss)
		return;
	shard_unlink(sh, ss);
	sh->flood = false;	/* the next window judges those left */
	m = mail_new(MSG_DONE, ss->x);
	if (m) {
		m->exit_code = exit_code;
		m->term_sig = sw_session_term_signal(s, &m->core);
		m->decisions = sw_session_decisions(s);
		if (le) {
			m->has_err = true;
			m->err = *le;
		} else if (ss->recording) {
			make_report(ss, exit_code, m);
		}
		mailbox_post(sh->out, m);
	}
	/* Valid only until this callback returns; the engine may still look
	 * at the policy on its way out of this dispatch: free it after. */
	ss->s = NULL;
	group_close(ss);
	ss->next = sh->graveyard;
	sh->graveyard = ss;
}

static void on_warning(struct sw_session *s, const char *msg, void *userdata)
{
	struct shard *sh = userdata;
	struct shard_session *ss = s ? sw_session_userdata(s) : NULL;

	if (ss)
		swd_log("session %llu: %s", (unsigned long long)ss->x->id, msg);
	else
		swd_log("tracer thread %u: %s", sh->idx, msg);
}

static void reply_failed(struct shard *sh, struct session *x, int r,
			 const struct sw_error *err)
{
	struct mail *m = mail_new(MSG_FAILED, x);

	if (!m)
		return;		/* the client sees its connection close */
	m->has_err = true;
	m->err = *err;
	m->err.code = -r;
	/* sw_session_launch() fails only before the exec: an exec that
	 * fails ends the session instead (MSG_DONE, 126 or 127). */
	m->exit_code = SW_EXIT_SYSWARD_ERROR;
	mailbox_post(sh->out, m);
}

/* Fork and seize: the compile stage (compile.c) made everything else. */
static void do_launch(struct shard *sh, struct session *x,
		      struct launch_req *q)
{
	struct shard_session *ss = calloc(1, sizeof(*ss));
	struct sw_error err = { 0 };
	struct mail *m;
	struct sw_launch l;
	int r;

	if (!ss) {
		reply_failed(sh, x, sw_error_set(&err, ENOMEM, "out of memory"),
			     &err);
		return;
	}
	/* Before the launch: the engine may warn about the session then. */
	ss->x = session_ref(x);
	ss->group_fd = -1;
	launch_fill(q, x->id, &l);
	l.userdata = ss;
	/* x outlives the session (ss holds a reference until it is
	 * freed, after its listener's thread ended). */
	l.listener_answers = &x->answered;
	r = sw_session_launch_prepared(sh->sup, &q->prepared, &l, &ss->s, &err);
	if (r < 0) {
		shard_session_free(ss);
		reply_failed(sh, x, r, &err);
		return;
	}
	/* What the client receives for its job goes to the program's group
	 * (engine.h); without a handle, to the session's processes. */
	ss->group_fd = sw_session_group_open(ss->s);
	/* The engine points into the policy: it lives with the session. */
	ss->policy = TAKE_PTR(q->policy);
	ss->next = sh->sessions;
	sh->sessions = ss;
	sh->flood = false;	/* no flood until a window says so */
	audit_session_start(q->audit, &(struct audit_start){
		.session = x->id, .pid = sw_session_pid(ss->s), .peer = &q->peer,
		.argv = q->q.argv, .cwd = q->q.cwd, .policy = q->q.policy_name });
	/* The report names the command: it outlives the request. */
	if (q->recording) {
		ss->recording = true;
		ss->record = q->record;
		ss->argv = TAKE_PTR(q->q.argv);
		q->q.argc = 0;
	}
	m = mail_new(MSG_STARTED, x);
	if (m) {
		m->pid = sw_session_pid(ss->s);
		m->tty = sw_session_take_tty(ss->s);
		mailbox_post(sh->out, m);
	} else {
		sw_session_kill(ss->s);	/* nobody could be told it runs */
	}
}

/*
 * A signal the client received, as the program's job would have: to the
 * program's whole group (timeout(1) or kill -TERM -PGID signal the
 * client's job, and the kernel cannot tell the client a group's signal
 * from its own).  Stop signals too: the group is not orphaned (its
 * holder, its parent, is in another group of its session), so it stops unless
 * the program handles or ignores them, as unconfined; its stop comes
 * back to the client as STOPPED (on_job_stop).
 */
static void forward(struct shard_session *ss, int sig)
{
	sw_session_group_signal(ss->s, ss->group_fd, sig);
}

/* The program's main process stopped by a job-control signal: its
 * client stops by it too, so that the client's shell sees its job
 * stopped; the client's SIGCONT (fg, bg) then comes back as SIGNAL. */
static void on_job_stop(struct sw_session *s, int sig, void *userdata)
{
	struct shard *sh = userdata;
	struct shard_session *ss = sw_session_userdata(s);
	struct mail *m = ss ? mail_new(MSG_STOPPED, ss->x) : NULL;

	if (!m)
		return;	/* the client does not stop: the program still does */
	m->sig = sig;
	mailbox_post(sh->out, m);
}

/* One message from the event loop; the program's fds are closed after
 * its launch: the daemon must not hold the client's pipes open (its
 * reader would never see EOF). */
static void handle(struct shard *sh, struct mail *m)
{
	struct shard_session *ss;

	switch (m->kind) {
	case MSG_LAUNCH:
		do_launch(sh, m->x, m->launch);
		break;
	case MSG_KILL:
		if ((ss = shard_session_of(sh, m->x)))
			sw_session_kill(ss->s);
		break;
	case MSG_SIGNAL:
		if ((ss = shard_session_of(sh, m->x)))
			forward(ss, m->sig);
		break;
	case MSG_STOP:
		sh->stopping = true;
		break;
	default:
		break;
	}
	mail_free(m);
}

static void bury(struct shard *sh)
{
	while (sh->graveyard) {
		struct shard_session *ss = sh->graveyard;

		sh->graveyard = ss->next;
		shard_session_free(ss);
	}
}

/* What "sysward ps" shows, readable by the event loop at any time. */
static void publish(struct shard *sh)
{
	for (struct shard_session *ss = sh->sessions; ss; ss = ss->next)
		__atomic_store_n(&ss->x->decisions, sw_session_stop_decisions(ss->s),
				 __ATOMIC_RELAXED);
}

static void start_report(struct shard *sh, int r, const struct sw_error *err)
{
	pthread_mutex_lock(&sh->start_mu);
	sh->started = true;
	sh->start_r = r;
	if (err)
		sh->start_err = *err;
	pthread_cond_signal(&sh->start_cv);
	pthread_mutex_unlock(&sh->start_mu);
}

/* ---- signal floods ------------------------------------------------------- */

/* A flood, in signal stops a second.  Programs that handle signals stop
 * far less often (a SIGCHLD per child, timers at up to a few hundred
 * Hz); a flood is served at idle priority until it falls below a tenth
 * of it, and only when no other session shares its thread. */
#define FLOOD_RATE 1000
#define FLOOD_WINDOW_MS 100

unsigned int shard_pick(struct shard *const *shards, const unsigned int *load,
			unsigned int n)
{
	unsigned int best = 0;

	/* A thread that serves only signal floods takes a new session
	 * last: the session would keep it a normal thread. */
	for (unsigned int i = 1; i < n; i++) {
		bool idle = shard_idle(shards[i]), best_idle = shard_idle(shards[best]);

		if (idle != best_idle ? !idle : load[i] < load[best])
			best = i;
	}
	return best;
}

bool shard_idle(const struct shard *sh)
{
	return __atomic_load_n(&sh->idle, __ATOMIC_RELAXED);
}

/* Under in.mu: make thread tid (0: the caller) idle or normal.  A failure
 * (none is expected with CAP_SYS_NICE) is logged once and ends the
 * pacing of this thread: a normal thread rather than a line per stop. */
static void switch_locked(struct shard *sh, pid_t tid, bool idle)
{
	const struct sched_param p = { 0 };

	/* The nice value stays what it was (main.c raises it). */
	if (sched_setscheduler(tid, idle ? SCHED_IDLE : SCHED_OTHER, &p) == 0) {
		__atomic_store_n(&sh->idle, idle, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_exchange_n(&sh->may_idle, false, __ATOMIC_RELAXED))
		swd_log("tracer thread %u: cannot switch to %s: %s; it stays as it is",
		      sh->idx, idle ? "SCHED_IDLE" : "SCHED_OTHER", strerror(errno));
}

/* Before each dispatch: once a window is over, is every session of the
 * thread a flood?  Then be idle, unless a message is waiting (a message
 * made the thread normal to be taken; taken, the verdict holds again).
 * A session is a flood from a window at FLOOD_RATE or more until one
 * below a tenth of it: an idle thread on a busy machine serves its
 * floods slower than they come, and must not turn normal for that.
 * A limit: a flood is clocked by its tracer (each stop waits for it),
 * so on one CPU, where an idle thread gets next to nothing while any
 * other task runs, the rate served can fall below the end's and the
 * thread turns normal until the next window (measured in the one-CPU
 * QEMU guest on a loaded host: 0 idle threads within a second of two
 * launches beside the flood).  Telling starved from out of work needs
 * the thread's run delay (/proc/thread-self/schedstat, CONFIG_SCHED_INFO). */
static void pace(struct shard *sh)
{
	long long now = sw_mono_ms(), span = now - sh->window_start;
	bool may = __atomic_load_n(&sh->may_idle, __ATOMIC_RELAXED), want;

	if (!may && !shard_idle(sh))
		return;
	if (may && span >= FLOOD_WINDOW_MS) {
		bool flood = sh->sessions != NULL;

		sh->window_start = now;
		for (struct shard_session *ss = sh->sessions; ss; ss = ss->next) {
			uint64_t n = sw_session_signal_stops(ss->s),
				 per_s = (n - ss->signal_stops) * 1000 / (uint64_t)span;

			ss->signal_stops = n;
			ss->flooding = per_s >= (ss->flooding ? FLOOD_RATE / 10 : FLOOD_RATE);
			flood = flood && ss->flooding;
		}
		sh->flood = flood;
	}
	want = may && sh->flood;
	if (want == shard_idle(sh))
		return;
	pthread_mutex_lock(&sh->in.mu);
	if (want != sh->idle && !(want && sh->in.head))
		switch_locked(sh, 0, want);
	pthread_mutex_unlock(&sh->in.mu);
}

static void *shard_main(void *arg)
{
	struct shard *sh = arg;
	struct sw_error err = { 0 };
	int r;

	r = sw_supervisor_new(&sh->sup, &err);
	if (r >= 0) {
		sw_supervisor_on_done(sh->sup, on_done, sh);
		sw_supervisor_on_warning(sh->sup, on_warning, sh);
		sw_supervisor_on_job_stop(sh->sup, on_job_stop, sh);
		r = sw_supervisor_enable_wake(sh->sup, &err);
	}
	sh->tid = gettid();
	start_report(sh, r, &err);
	if (r < 0)
		return NULL;	/* shard_start frees what we made */

	while (!sh->stopping) {
		for (struct mail *m = mailq_take(&sh->in), *next; m; m = next) {
			next = m->next;
			handle(sh, m);
		}
		if (sh->stopping)
			break;
		pace(sh);
		/* A bell killed from outside is replaced at once; if that
		 * failed (no fork), try again now and then, polling
		 * meanwhile, rather than sleep where no message can wake
		 * us (or spin: without tracees waitpid returns at once). */
		if (sw_supervisor_enable_wake(sh->sup, &err) < 0) {
			swd_log("tracer thread %u: %s; trying again", sh->idx,
			      err.msg);
			nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
			r = sw_supervisor_dispatch(sh->sup, false, &err);
		} else {
			r = sw_supervisor_dispatch(sh->sup, true, &err);
		}
		if (r < 0)
			swd_log("tracer thread %u: %s", sh->idx, err.msg);
		publish(sh);
		bury(sh);
	}

	/* Kills and reaps every tracee (and the bell); no callbacks. */
	sw_supervisor_free(sh->sup);
	sh->sup = NULL;
	while (sh->sessions) {
		struct shard_session *ss = sh->sessions;

		sh->sessions = ss->next;
		ss->s = NULL;
		shard_session_free(ss);
	}
	bury(sh);
	return NULL;
}

int shard_start(struct shard **ret, unsigned int idx, struct mailbox *mb,
		struct sw_error *err)
{
	struct shard *sh = calloc(1, sizeof(*sh));
	sigset_t all, old;
	int e;

	if (!sh)
		return sw_error_set(err, ENOMEM, "out of memory");
	sh->idx = idx;
	sh->out = mb;
	sh->may_idle = sw_cap_effective(CAP_SYS_NICE);
	sh->stop = mail_new(MSG_STOP, NULL);
	if (!sh->stop) {
		free(sh);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	mailq_init(&sh->in);
	pthread_mutex_init(&sh->start_mu, NULL);
	pthread_cond_init(&sh->start_cv, NULL);
	/* Signals are the event loop's (its signalfd). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&sh->thread, NULL, shard_main, sh);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		mailq_drop(&sh->in);
		mail_free(sh->stop);
		free(sh);
		return sw_error_set_errno(err, e, "start tracer thread %u", idx);
	}
	pthread_mutex_lock(&sh->start_mu);
	while (!sh->started)
		pthread_cond_wait(&sh->start_cv, &sh->start_mu);
	pthread_mutex_unlock(&sh->start_mu);
	if (sh->start_r < 0) {
		pthread_join(sh->thread, NULL);
		*err = sh->start_err;
		sw_error_wrap(err, "start tracer thread %u", idx);
		e = sh->start_r;
		sw_supervisor_free(sh->sup);
		mailq_drop(&sh->in);
		mail_free(sh->stop);
		free(sh);
		return e;
	}
	*ret = sh;
	return 0;
}

void shard_send(struct shard *sh, struct mail *m)
{
	pthread_mutex_lock(&sh->in.mu);
	if (sh->idle)
		switch_locked(sh, sh->tid, false);
	mailq_put(&sh->in, m);
	/* Every time: the thread may be asleep in waitpid with a queue it
	 * has not looked at since; a ring it finds nothing for is cheap.
	 * Under the lock: the thread takes MSG_STOP (and then frees its
	 * supervisor, bell included) only after this ring is out. */
	sw_supervisor_wake(sh->sup);
	pthread_mutex_unlock(&sh->in.mu);
}

void shard_stop(struct shard *sh)
{
	if (sh && sh->stop)
		shard_send(sh, TAKE_PTR(sh->stop));
}

void shard_free(struct shard *sh)
{
	if (!sh)
		return;
	shard_stop(sh);
	pthread_join(sh->thread, NULL);
	mailq_drop(&sh->in);
	pthread_mutex_destroy(&sh->start_mu);
	pthread_cond_destroy(&sh->start_cv);
	free(sh);
}
