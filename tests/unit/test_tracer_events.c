// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The supervisor's bookkeeping (engine/trace/tracer.c) under every order of
 * ptrace events, from scripts.  The whole engine is the real one, built
 * with SW_SYS_FAKE (sysward-engine-fake): its waitpid, ptrace, kill and
 * /proc reads are the fake kernel of fake_kernel.c, which hands out
 * scripted waitpid results, answers PTRACE_GETEVENTMSG and /proc (Tgid,
 * PPid) from the script, and logs every request; no engine function is
 * stubbed (a fork's child is resumed by the real sw_restart(), an exec
 * goes through the real exec and path guards).  Real processes racing
 * (tests/security/adv_events.c) cannot force an order; a script can.
 *
 * E = the parent's PTRACE_EVENT_FORK/CLONE naming the child, F = the
 * child's first stop, X = its exit (see "Event order" in tracer.c).  Each
 * case is a script of events and checks; after every step the table,
 * tombstone and orphan counts are checked against each other, and no
 * session may end twice or end while a tracee still points at it.
 *
 * The fake pids are far above any pid_max (2^22), so a call that slipped
 * past the fake would fail with ESRCH instead of touching a process.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "internal.h"
#include "check_run.h"
#include "fake_kernel.h"
#include "trace/trace.h"

static int n_warnings;

/* ---- scripts ------------------------------------------------------------ */

enum op {
	OP_END,
	/* the kernel */
	OP_SESS,	/* a: session index, b: its main pid (seized) */
	OP_PROC,	/* /proc/a: Tgid b, PPid c */
	OP_GONE,	/* /proc/a is gone (reaped) */
	OP_EV,		/* waitpid: a stops at PTRACE_EVENT_c naming b */
	OP_FIRST,	/* waitpid: a's first stop (PTRACE_EVENT_STOP) */
	OP_EXIT,	/* waitpid: a exited with status b */
	OP_KSIG,	/* waitpid: a killed by signal b */
	OP_EXEC,	/* waitpid: a at PTRACE_EVENT_EXEC, former tid b */
	OP_STOP,	/* waitpid: a at a group-stop of signal b */
	OP_SIG,		/* waitpid: a at a signal-delivery stop of b */
	OP_XMANY,	/* b exits of tids a, a+1, ...; /proc shows PPid c (0: none) */
	/* checks */
	OP_IN,		/* a is a tracee of session b */
	OP_ORPHAN,	/* a is a tracee of no session, stopped */
	OP_NONE,	/* a has no entry */
	OP_LIVE,	/* session a is live with b tracees */
	OP_DONE,	/* session a ended (once) with exit code b */
	OP_KILLED,	/* a was sent SIGKILL */
	OP_NOKILL,	/* a was not */
	OP_CONTD,	/* a was resumed with PTRACE_CONT */
	OP_NOCONT,	/* a was not */
	OP_LISTEN,	/* a was resumed with PTRACE_LISTEN */
	OP_RESUMED,	/* a was resumed (PTRACE_CONT or SYSCALL) with signal b */
	OP_TOMBS,	/* sup->n_tombs == a */
	OP_ORPHANS,	/* sup->n_orphans == a */
	OP_SIGSTOPS,	/* sw_session_signal_stops(session a) == b */
	OP_CONTFAIL,	/* from now on a's PTRACE_CONT/SYSCALL fail with errno b */
	OP_WARNINGS,	/* a warnings so far */
};

struct step { enum op op; long a, b, c; };

#define SESS(i, p)	{ OP_SESS, (i), (p), 0 }
#define PROC(t, g, p)	{ OP_PROC, (t), (g), (p) }
#define GONE(t)		{ OP_GONE, (t), 0, 0 }
#define E(p, c)		{ OP_EV, (p), (c), PTRACE_EVENT_FORK }
#define EC(p, c)	{ OP_EV, (p), (c), PTRACE_EVENT_CLONE }
#define EV(p, c)	{ OP_EV, (p), (c), PTRACE_EVENT_VFORK }
#define F(t)		{ OP_FIRST, (t), 0, 0 }
#define X(t, code)	{ OP_EXIT, (t), (code), 0 }
#define XK(t)		{ OP_KSIG, (t), SIGKILL, 0 }
#define EXEC(t, f)	{ OP_EXEC, (t), (f), 0 }
#define GSTOP(t)	{ OP_STOP, (t), SIGSTOP, 0 }
#define SIG(t, s)	{ OP_SIG, (t), (s), 0 }
#define XMANY(t, n, pp)	{ OP_XMANY, (t), (n), (pp) }
#define IN(t, i)	{ OP_IN, (t), (i), 0 }
#define ORPHAN(t)	{ OP_ORPHAN, (t), 0, 0 }
#define NONE(t)		{ OP_NONE, (t), 0, 0 }
#define LIVE(i, n)	{ OP_LIVE, (i), (n), 0 }
#define DONE(i, code)	{ OP_DONE, (i), (code), 0 }
#define KILLED(t)	{ OP_KILLED, (t), 0, 0 }
#define NOKILL(t)	{ OP_NOKILL, (t), 0, 0 }
#define CONTD(t)	{ OP_CONTD, (t), 0, 0 }
#define NOCONT(t)	{ OP_NOCONT, (t), 0, 0 }
#define LISTEN(t)	{ OP_LISTEN, (t), 0, 0 }
#define RESUMED(t, s)	{ OP_RESUMED, (t), (s), 0 }
#define TOMBS(n)	{ OP_TOMBS, (n), 0, 0 }
#define ORPHANS(n)	{ OP_ORPHANS, (n), 0, 0 }
#define SIGSTOPS(i, n)	{ OP_SIGSTOPS, (i), (n), 0 }
#define CONTFAIL(t, e)	{ OP_CONTFAIL, (t), (e), 0 }
#define WARNINGS(n)	{ OP_WARNINGS, (n), 0, 0 }

/* Sessions A, B, C; their main pids; children.  Far above pid_max
 * (fake_kernel.h). */
enum { A = 1, B, C, N_SESS };
#define PA	10000100
#define PB	10000200
#define PC	10000300
#define K1	10000001
#define K2	10000002
#define K3	10000003
#define MANY	20000000	/* XMANY's tids */
#define INIT	1		/* the parent of every main process */

struct ev_case {
	const char *name;
	struct step steps[40];
};

static struct sw_supervisor *sup;
static struct sw_session *sess[N_SESS];
static int done_code[N_SESS], done_count[N_SESS];

static void on_done(struct sw_session *s, int code, void *ud)
{
	ck_assert_uint_lt(s->id, N_SESS);
	ck_assert_ptr_eq(sess[s->id], s);
	/* No tracee may still point at a session that ends. */
	for (size_t i = 0; i < sup->tab_size; i++)
		ck_assert(!(sup->tab[i].pid > 0 && sup->tab[i].s == s));
	done_code[s->id] = code;
	done_count[s->id]++;
	sess[s->id] = NULL;
}

static bool is_live(const struct sw_session *s)
{
	for (struct sw_session *l = sup->sessions; l; l = l->next)
		if (l == s)
			return true;
	return false;
}

/* The counts tracer.c keeps agree with its table and tombstones. */
static void check_invariants(const char *name, size_t k)
{
	size_t orphans = 0, tombs = 0;

	for (struct sw_session *s = sup->sessions; s; s = s->next) {
		size_t n = 0;

		for (size_t i = 0; i < sup->tab_size; i++)
			n += sup->tab[i].pid > 0 && sup->tab[i].s == s;
		ck_assert_msg(n == s->n_tracees, "%s step %zu: session %d has %zu entries, n_tracees %zu",
			      name, k, (int)s->id, n, s->n_tracees);
		tombs += s->n_tombs;
	}
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *t = &sup->tab[i];

		if (t->pid <= 0)
			continue;
		ck_assert_msg(t->s ? is_live(t->s) : t->state == SW_T_ORPHAN,
			      "%s step %zu: tid %d points at no live session", name, k, t->pid);
		orphans += !t->s;
	}
	ck_assert_msg(orphans == sup->n_orphans, "%s step %zu: %zu orphans, n_orphans %zu",
		      name, k, orphans, sup->n_orphans);
	for (size_t i = 0; i < sup->n_tombs; i++) {
		ck_assert_msg(!sup->tombs[i].s || is_live(sup->tombs[i].s),
			      "%s step %zu: tombstone of an ended session", name, k);
		tombs += !sup->tombs[i].s;
	}
	ck_assert_msg(tombs == sup->n_tombs, "%s step %zu: tombstone counts disagree", name, k);
	for (int i = 0; i < N_SESS; i++)
		ck_assert_int_le(done_count[i], 1);
}

static bool resumed(pid_t pid, long sig)
{
	return fk_called(PTRACE_CONT, pid, (uint64_t)sig) ||
	       fk_called(PTRACE_SYSCALL, pid, (uint64_t)sig);
}

static void deliver(pid_t pid, int status)
{
	struct sw_error err = { 0 };

	fk_queue(pid, status);
	ck_assert_int_eq(sw_supervisor_dispatch(sup, false, &err), 1);
}

#define STOPPED FK_STOPPED

static void new_session(int i, pid_t pid)
{
	sess[i] = fk_session_new(sup, (uint64_t)i, pid, NULL);
	fk_proc(pid, pid, INIT);
}

static void run_case(const struct ev_case *c)
{
	struct sw_error err = { 0 };

	fk_reset();
	memset(sess, 0, sizeof(sess));
	memset(done_count, 0, sizeof(done_count));
	memset(done_code, 0, sizeof(done_code));
	n_warnings = 0;
	ck_assert_int_eq(sw_supervisor_new(&sup, &err), 0);
	sw_supervisor_on_done(sup, on_done, NULL);
	sw_supervisor_on_warning(sup, fk_count_warning, &n_warnings);

	for (size_t k = 0; c->steps[k].op != OP_END; k++) {
		const struct step *st = &c->steps[k];
		pid_t a = (pid_t)st->a;
		struct sw_tracee *t = sw_tracee_find(sup, a);

		switch (st->op) {
		case OP_SESS:
			new_session((int)st->a, (pid_t)st->b);
			break;
		case OP_PROC:
			fk_proc(a, (pid_t)st->b, (pid_t)st->c);
			break;
		case OP_GONE:
			fk_proc_gone(a);
			break;
		case OP_EV:
			fk_evmsg(a, (unsigned long)st->b);
			deliver(a, STOPPED(SIGTRAP, (int)st->c));
			break;
		case OP_FIRST:
			deliver(a, STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
			break;
		case OP_EXIT:
			deliver(a, (int)(st->b & 0xff) << 8);
			break;
		case OP_KSIG:
			deliver(a, (int)st->b);
			break;
		case OP_EXEC:
			fk_evmsg(a, (unsigned long)st->b);
			deliver(a, STOPPED(SIGTRAP, PTRACE_EVENT_EXEC));
			break;
		case OP_STOP:
			deliver(a, STOPPED((int)st->b, PTRACE_EVENT_STOP));
			break;
		case OP_SIG:
			deliver(a, STOPPED((int)st->b, 0));
			break;
		case OP_XMANY:
			for (long i = 0; i < st->b; i++) {
				if (st->c)
					fk_proc(a + (pid_t)i, a + (pid_t)i, (pid_t)st->c);
				deliver(a + (pid_t)i, 0);
				fk_proc_gone(a + (pid_t)i);
			}
			break;
		case OP_IN:
			ck_assert_msg(t && sess[st->b] && t->s == sess[st->b],
				      "%s step %zu: tid %d not in session %ld", c->name, k, a, st->b);
			break;
		case OP_ORPHAN:
			ck_assert_msg(t && !t->s && t->state == SW_T_ORPHAN,
				      "%s step %zu: tid %d not an orphan", c->name, k, a);
			break;
		case OP_NONE:
			ck_assert_msg(!t, "%s step %zu: tid %d has an entry", c->name, k, a);
			break;
		case OP_LIVE:
			ck_assert_msg(sess[st->a] && is_live(sess[st->a]) &&
				      sess[st->a]->n_tracees == (size_t)st->b,
				      "%s step %zu: session %ld not live with %ld tracees (%zu)",
				      c->name, k, st->a, st->b,
				      sess[st->a] ? sess[st->a]->n_tracees : 0);
			break;
		case OP_DONE:
			ck_assert_msg(done_count[st->a] == 1 && done_code[st->a] == st->b,
				      "%s step %zu: session %ld ended %d times, code %d (want %ld)",
				      c->name, k, st->a, done_count[st->a], done_code[st->a], st->b);
			break;
		case OP_KILLED:
		case OP_NOKILL:
			ck_assert_msg(fk_called(FK_KILL, a, SIGKILL) == (st->op == OP_KILLED),
				      "%s step %zu: tid %d %skilled", c->name, k, a,
				      st->op == OP_KILLED ? "not " : "");
			break;
		case OP_CONTD:
		case OP_NOCONT:
			ck_assert_msg((fk_count(PTRACE_CONT, a) > 0) == (st->op == OP_CONTD),
				      "%s step %zu: tid %d %scontinued", c->name, k, a,
				      st->op == OP_CONTD ? "not " : "");
			break;
		case OP_LISTEN:
			ck_assert_msg(fk_count(PTRACE_LISTEN, a) > 0,
				      "%s step %zu: tid %d not listening", c->name, k, a);
			break;
		case OP_RESUMED:
			ck_assert_msg(resumed(a, st->b),
				      "%s step %zu: tid %d not resumed with %ld", c->name, k, a, st->b);
			break;
		case OP_TOMBS:
			ck_assert_msg(sup->n_tombs == (size_t)st->a, "%s step %zu: %zu tombstones, want %ld",
				      c->name, k, sup->n_tombs, st->a);
			break;
		case OP_CONTFAIL:
			fk_fail(PTRACE_CONT, a, (int)st->b, true);
			fk_fail(PTRACE_SYSCALL, a, (int)st->b, true);
			break;
		case OP_WARNINGS:
			ck_assert_msg(n_warnings == st->a, "%s step %zu: %d warnings, want %ld",
				      c->name, k, n_warnings, st->a);
			break;
		case OP_SIGSTOPS:
			ck_assert_msg(sess[st->a] &&
				      sw_session_signal_stops(sess[st->a]) == (uint64_t)st->b,
				      "%s step %zu: session %ld took %llu signal stops, want %ld",
				      c->name, k, st->a,
				      sess[st->a] ? (unsigned long long)sw_session_signal_stops(sess[st->a]) : 0ULL,
				      st->b);
			break;
		case OP_ORPHANS:
			ck_assert_msg(sup->n_orphans == (size_t)st->a, "%s step %zu: %zu orphans, want %ld",
				      c->name, k, sup->n_orphans, st->a);
			break;
		case OP_END:
			break;
		}
		check_invariants(c->name, k);
	}
	sw_supervisor_free(sup);
	sup = NULL;
}

/* ---- the orders of E, F and X for one child ----------------------------- */

static const struct ev_case orders[] = {
	{ "E F X: announced, then its first stop, then gone", {
		SESS(A, PA),
		E(PA, K1), IN(K1, A), LIVE(A, 2), NOCONT(K1), RESUMED(PA, 0),
		F(K1), CONTD(K1), IN(K1, A),
		X(K1, 0), NONE(K1), LIVE(A, 1), TOMBS(0),
		X(PA, 3), DONE(A, 3) } },
	{ "E F X, vfork", {
		SESS(A, PA), SESS(B, PB),
		EV(PA, K1), IN(K1, A), F(K1), CONTD(K1),
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(A, 1), LIVE(B, 1) } },
	{ "F E X: placed from /proc, then announced", {
		SESS(A, PA), PROC(K1, K1, PA),
		F(K1), IN(K1, A), CONTD(K1), LIVE(A, 2),
		E(PA, K1), IN(K1, A), LIVE(A, 2),
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 0), DONE(A, 0) } },
	{ "F E X: a thread placed by its thread group", {
		SESS(A, PA), SESS(B, PB), PROC(K1, PA, INIT),
		F(K1), IN(K1, A), LIVE(B, 1),
		EC(PA, K1), IN(K1, A),
		X(K1, 0), NONE(K1), TOMBS(0),
		X(PA, 0), DONE(A, 0), LIVE(B, 1) } },
	{ "F X E: the exit leaves a tombstone that E consumes", {
		SESS(A, PA), PROC(K1, K1, PA),
		F(K1), IN(K1, A),
		X(K1, 0), NONE(K1), TOMBS(1), LIVE(A, 1),
		E(PA, K1), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 0), DONE(A, 0) } },
	{ "E X: killed before its first stop", {
		SESS(A, PA),
		E(PA, K1), IN(K1, A),
		XK(K1), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 1), DONE(A, 1) } },
	{ "X E: a zombie's parent names its session", {
		SESS(A, PA), PROC(K1, K1, PA),
		XK(K1), NONE(K1), TOMBS(1),
		E(PA, K1), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 0), DONE(A, 0) } },
	{ "X E: unknown session, the unknown tombstone is consumed", {
		SESS(A, PA), SESS(B, PB),
		XK(K1), TOMBS(1),
		E(PA, K1), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 0), DONE(A, 0), X(PB, 0), DONE(B, 0) } },
	{ "E never (F X): the parent dies before E; its session still ends once", {
		SESS(A, PA), PROC(K1, K1, PA),
		F(K1), IN(K1, A),
		X(PA, 7), LIVE(A, 1),
		X(K1, 0), NONE(K1), DONE(A, 7), TOMBS(0) } },
	{ "E never (F, parent dies): the child keeps the session alive", {
		SESS(A, PA), PROC(K1, K1, PA),
		F(K1), X(PA, 2), LIVE(A, 1), IN(K1, A), NOKILL(K1),
		X(K1, 0), DONE(A, 2) } },
	{ "E never (X): the tombstone goes with its session", {
		SESS(A, PA), PROC(K1, K1, PA),
		XK(K1), TOMBS(1),
		X(PA, 9), DONE(A, 9), TOMBS(0) } },
	{ "E never (X, unknown session): the tombstone outlives the session", {
		SESS(A, PA), SESS(B, PB),
		XK(K1), TOMBS(1),
		X(PA, 0), DONE(A, 0), X(PB, 0), DONE(B, 0), TOMBS(1) } },
	{ "E never (F only, one session ever): the only session owns it", {
		SESS(A, PA), PROC(K1, K1, INIT),
		F(K1), IN(K1, A), CONTD(K1), ORPHANS(0),
		X(PA, 0), LIVE(A, 1),
		X(K1, 0), DONE(A, 0) } },
};

/* ---- E consumes, in this order (tracer.c) ------------------------------- */

/* Numbered as in tracer.c: 1 a tombstone of the parent's session, 2 an
 * unannounced tracee of that session, 3 an orphan /proc shows to be the
 * parent's child, 4 a tombstone of unknown session, 5 else a fresh
 * tracee; "never": a tracee E must leave alone. */

static const struct ev_case consumes[] = {
	{ "1: a tombstone of the parent's session", {
		SESS(A, PA), PROC(K1, K1, PA), XK(K1), TOMBS(1),
		E(PA, K1), TOMBS(0), NONE(K1), LIVE(A, 1) } },
	{ "1 before 4: the session's tombstone, not the unknown one", {
		SESS(A, PA), SESS(B, PB),
		XK(K1), TOMBS(1),			/* unknown */
		PROC(K1, K1, PA), XK(K1), TOMBS(2),	/* reused, A's */
		E(PA, K1), TOMBS(1), NONE(K1),
		E(PB, K1), TOMBS(0), NONE(K1),		/* B: the unknown one */
		LIVE(A, 1), LIVE(B, 1) } },
	{ "2: an unannounced tracee of that session", {
		SESS(A, PA), PROC(K1, K1, PA), F(K1),
		E(PA, K1), IN(K1, A), LIVE(A, 2),
		/* announced now: its exit leaves no tombstone */
		X(K1, 0), TOMBS(0), LIVE(A, 1) } },
	{ "2 before 1: a reused tid that /proc shows to be the parent's child", {
		SESS(A, PA), PROC(K1, K1, PA), XK(K1), TOMBS(1),
		F(K1), IN(K1, A),			/* reused by PA again */
		E(PA, K1), IN(K1, A), TOMBS(1),		/* announces the live one */
		E(PA, K1), IN(K1, A), TOMBS(0),		/* the dead one's */
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(A, 1) } },
	{ "1 before 2: a reused tid that is another tracee's child", {
		SESS(A, PA), PROC(K2, K2, PA), F(K2), E(PA, K2),
		PROC(K1, K1, PA), XK(K1), TOMBS(1),
		PROC(K1, K1, K2), F(K1), IN(K1, A),	/* reused by K2 */
		E(PA, K1), TOMBS(0), IN(K1, A),		/* PA's: the tombstone */
		X(K1, 0), TOMBS(1),			/* not announced yet */
		E(K2, K1), TOMBS(0), NONE(K1), LIVE(A, 2) } },
	{ "3: an orphan /proc shows to be the parent's child (CLONE_PARENT)", {
		SESS(A, PA), SESS(B, PB), PROC(K1, K1, INIT),
		F(K1), ORPHAN(K1), ORPHANS(1), NOCONT(K1),
		E(PA, K1), IN(K1, A), CONTD(K1), ORPHANS(0), LIVE(A, 2), LIVE(B, 1),
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(A, 1) } },
	{ "3 refused: an orphan that is not the parent's child stays put", {
		SESS(A, PA), SESS(B, PB), PROC(K1, K1, 600),
		F(K1), ORPHAN(K1),
		E(PA, K1), ORPHAN(K1), NOCONT(K1), LIVE(A, 1), ORPHANS(1) } },
	{ "4: a tombstone of unknown session", {
		SESS(A, PA), SESS(B, PB), XK(K1), TOMBS(1),
		E(PB, K1), TOMBS(0), NONE(K1), LIVE(B, 1), LIVE(A, 1) } },
	{ "5: nothing known: a fresh tracee", {
		SESS(A, PA), E(PA, K1), IN(K1, A), TOMBS(0),
		F(K1), CONTD(K1) } },
	{ "never: another session's tracee holding the tid", {
		SESS(A, PA), SESS(B, PB),
		E(PB, K1), IN(K1, B),
		E(PA, K1), IN(K1, B), LIVE(A, 1), LIVE(B, 2), NOKILL(K1),
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(B, 1) } },
	{ "never: another session's tracee not announced yet", {
		SESS(A, PA), SESS(B, PB), PROC(K1, K1, PB),
		F(K1), IN(K1, B),
		E(PA, K1), IN(K1, B), LIVE(A, 1), LIVE(B, 2),	/* stale */
		X(K1, 0), NONE(K1), TOMBS(1),		/* still B's to announce */
		E(PB, K1), NONE(K1), TOMBS(0), LIVE(B, 1) } },
	{ "never: an announced tracee of the same session", {
		SESS(A, PA), E(PA, K1), F(K1),
		E(PA, K1), IN(K1, A), LIVE(A, 2),
		X(K1, 0), NONE(K1), LIVE(A, 1) } },
};

/* ---- pids reused, orphans, sessions ending ------------------------------ */

static const struct ev_case reuse[] = {
	{ "a tid reused by another session before the late E", {
		SESS(A, PA), SESS(B, PB),
		PROC(K1, K1, PA), F(K1), IN(K1, A),
		X(K1, 0), TOMBS(1),			/* A's, unannounced */
		PROC(K1, K1, PB), F(K1), IN(K1, B),	/* reused in B */
		E(PA, K1), IN(K1, B), TOMBS(0),		/* A's late E */
		E(PB, K1), IN(K1, B), LIVE(A, 1), LIVE(B, 2),
		X(K1, 0), NONE(K1), TOMBS(0), LIVE(B, 1) } },
	{ "a tid reused after its session ended joins the new one", {
		SESS(A, PA), E(PA, K1), F(K1),
		X(K1, 0), X(PA, 0), DONE(A, 0), NONE(K1),
		SESS(B, PB), PROC(K1, K1, PB), F(K1), IN(K1, B), ORPHANS(0),
		E(PB, K1), IN(K1, B), LIVE(B, 2),
		X(K1, 0), X(PB, 4), DONE(B, 4) } },
	{ "a main pid reused as another session's child", {
		SESS(A, PA), X(PA, 0), DONE(A, 0), NONE(PA),
		SESS(B, PB), PROC(PA, PA, PB), F(PA), IN(PA, B),
		E(PB, PA), LIVE(B, 2), X(PA, 0), LIVE(B, 1) } },
	{ "an orphan is killed once every session that may own it ended", {
		SESS(A, PA), SESS(B, PB), PROC(K1, K1, INIT),
		F(K1), ORPHAN(K1),
		X(PA, 0), DONE(A, 0), NOKILL(K1),
		SESS(C, PC),				/* too late to own it */
		X(PB, 0), DONE(B, 0), KILLED(K1), LIVE(C, 1),
		XK(K1), NONE(K1), ORPHANS(0), LIVE(C, 1) } },
	{ "an orphan after every session ended is killed at once", {
		SESS(A, PA), X(PA, 0), DONE(A, 0), PROC(K1, K1, INIT),
		F(K1), ORPHAN(K1), KILLED(K1), NOCONT(K1),
		XK(K1), NONE(K1), ORPHANS(0), TOMBS(1) } },	/* unknown */
	{ "an orphan's exit leaves an unknown tombstone", {
		SESS(A, PA), SESS(B, PB), PROC(K1, K1, INIT),
		F(K1), ORPHAN(K1), XK(K1), NONE(K1), ORPHANS(0), TOMBS(1),
		E(PA, K1), NONE(K1), TOMBS(0), LIVE(A, 1) } },
	{ "multithreaded exec: the execing thread takes the leader's tid", {
		SESS(A, PA), PROC(K1, PA, INIT),
		EC(PA, K1), F(K1), LIVE(A, 2),
		EXEC(PA, K1), NONE(K1), IN(PA, A), LIVE(A, 1), TOMBS(0),
		RESUMED(PA, 0),
		X(PA, 5), DONE(A, 5) } },
	{ "multithreaded exec by a thread not announced yet", {
		SESS(A, PA), PROC(K1, PA, INIT),
		F(K1), IN(K1, A), LIVE(A, 2),
		EXEC(PA, K1), NONE(K1), LIVE(A, 1), TOMBS(1),
		EC(PA, K1), NONE(K1), TOMBS(0), LIVE(A, 1),
		X(PA, 0), DONE(A, 0) } },
	{ "group-stop: PTRACE_LISTEN; signal stop: delivered", {
		SESS(A, PA), GSTOP(PA), LISTEN(PA),
		SIG(PA, SIGUSR1), RESUMED(PA, SIGUSR1), LIVE(A, 1) } },
	{ "signal stops are counted per session, no other stop is", {
		SESS(A, PA), SESS(B, PB), E(PA, K1), F(K1), SIGSTOPS(A, 0),
		SIG(K1, SIGSTOP), GSTOP(K1), SIG(PA, SIGCHLD),
		SIGSTOPS(A, 3), SIGSTOPS(B, 0),
		X(K1, 0), EXEC(PA, PA), SIGSTOPS(A, 3) } },
	{ "the main process dies first, the session waits for its last tracee", {
		SESS(A, PA), E(PA, K1), E(PA, K2), F(K1), F(K2),
		XK(PA), LIVE(A, 2), X(K1, 0), LIVE(A, 1),
		X(K2, 0), DONE(A, 128 + SIGKILL) } },
};

/* ---- resumes that fail -------------------------------------------------- */

static const struct ev_case resumes[] = {
	{ "a resume refused (EIO): warned about, the tracee killed", {
		SESS(A, PA), CONTFAIL(K1, EIO), E(PA, K1), F(K1),
		CONTD(K1), KILLED(K1), WARNINGS(1), NOKILL(PA),
		XK(K1), LIVE(A, 1) } },
	{ "a resume of a tracee killed meanwhile (ESRCH): its exit comes", {
		SESS(A, PA), CONTFAIL(K1, ESRCH), E(PA, K1), F(K1),
		CONTD(K1), NOKILL(K1), WARNINGS(0),
		XK(K1), LIVE(A, 1) } },
};

/* ---- caps on tombstones ------------------------------------------------- */

static const struct ev_case caps[] = {
	{ "1024 tombstones of one session; the next kills the session", {
		SESS(A, PA), SESS(B, PB),
		XMANY(MANY, 1024, PA), TOMBS(1024), NOKILL(PA),
		XMANY(MANY + 1024, 1, PA), KILLED(PA), TOMBS(1024), NOKILL(PB),
		XK(PA), DONE(A, 128 + SIGKILL), TOMBS(0), LIVE(B, 1) } },
	{ "1024 tombstones of unknown session; the oldest is dropped", {
		SESS(A, PA), SESS(B, PB),
		XMANY(MANY, 1025, 0), TOMBS(1024), NOKILL(PA),
		E(PA, MANY), IN(MANY, A), TOMBS(1024),	/* its tombstone went */
		E(PA, MANY + 1), NONE(MANY + 1), TOMBS(1023) } },
};

#define CASES(tab) \
	START_TEST(test_##tab) { run_case(&tab[_i]); } END_TEST
CASES(orders)
CASES(consumes)
CASES(reuse)
CASES(caps)
CASES(resumes)

#define N(tab) ((int)(sizeof(tab) / sizeof(tab[0])))

int main(void)
{
	Suite *s = suite_create("tracer events");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_orders, 0, N(orders));
	tcase_add_loop_test(tc, test_consumes, 0, N(consumes));
	tcase_add_loop_test(tc, test_reuse, 0, N(reuse));
	tcase_add_loop_test(tc, test_caps, 0, N(caps));
	tcase_add_loop_test(tc, test_resumes, 0, N(resumes));
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
