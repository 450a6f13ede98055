// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compile stage: a RUN's policy is parsed, checked and compiled for
 * its launch (engine: sw_launch_prepare) here, on worker threads of its
 * own, and the event loop hands the tracer thread a launch that is ready
 * to fork.  Neither of them ever waits for a client's policy: libseccomp's
 * time grows much faster than a policy (measured: 300 rules of four
 * calls with two argument conditions each, 3.5 s; 700, 40 s before the
 * kernel's size limit refused them), and on a tracer thread that time
 * was a pause of every session on it.
 *
 * Bounds.  libseccomp runs in a child process that the engine kills at
 * the limit (--compile-timeout), and the RUN fails with an ERROR naming
 * the limit; parsing and the decision tables (linear in the policy's
 * bytes, which the protocol bounds: 0.15 s for the largest) run on the
 * worker.  A uid has at most one compile running and --compile-queue
 * queued or running; a RUN beyond that is refused (EAGAIN), so one
 * client's many requests hold at most one worker, each for at most the
 * limit, and the others serve every other uid in the order they came.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "sysward/engine.h"
#include "sysward/policy.h"
#include "syswardd.h"

struct compiler {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct mail *head;		/* queued, oldest first */
	unsigned int n_workers, n_started;
	pthread_t *threads;
	uid_t *busy;			/* busy[i]: uid worker i compiles for */
	bool *working;
	bool stopping;
	struct mailbox *out;
	struct sw_kernel_support ks;
	unsigned int timeout_ms;
	unsigned int per_uid;		/* queued or running, per uid */
	/* The daemon's own compiled-filter cache (sw_filter_cache_dir() in
	 * its environment: systemd's CacheDirectory=), never a client's
	 * files; entries are keyed by the program's uid too.  NULL: none. */
	const char *filter_cache;
	char filter_cache_buf[PATH_MAX];
};

static unsigned int count_uid_locked(const struct compiler *cc, uid_t uid,
				     bool *running)
{
	unsigned int n = 0;

	*running = false;
	for (unsigned int i = 0; i < cc->n_started; i++)
		if (cc->working[i] && cc->busy[i] == uid) {
			*running = true;
			n++;
		}
	for (const struct mail *m = cc->head; m; m = m->next)
		n += m->x->uid == uid;
	return n;
}

/* Under mu: the oldest queued job whose uid has no compile running. */
static struct mail *pick_locked(struct compiler *cc)
{
	for (struct mail **pp = &cc->head; *pp; pp = &(*pp)->next) {
		struct mail *m = *pp;
		bool running;

		count_uid_locked(cc, m->x->uid, &running);
		if (running)
			continue;
		*pp = m->next;
		m->next = NULL;
		return m;
	}
	return NULL;
}

/* Parse and compile m's policy; m goes back to the event loop as
 * MSG_COMPILED, with the launch ready or the error. */
static void compile_one(struct compiler *cc, struct mail *m)
{
	struct launch_req *lr = m->launch;
	struct sw_error err = { 0 };
	struct sw_launch l;
	int r;

	/* The client's context first, here, off the event loop (a read of
	 * its /proc may wait): the session's /proc is planned from its
	 * mounts.  It must still live after the plan read them. */
	r = sw_client_read(lr->client_pidfd, lr->client_pid, lr->peer.uid,
			   lr->peer.gid, &lr->client, &err);
	if (r < 0) {
		struct sw_error e = err;

		sw_error_set(&err, -r, "syswardd refuses RUN: %s", e.msg);
	}
	if (r >= 0)
		r = sw_policy_load_string(lr->q.policy_text, lr->q.policy_len,
					  lr->q.policy_name[0] ? lr->q.policy_name : "policy",
					  &lr->policy, &err);
	if (r >= 0) {
		launch_fill(lr, m->x->id, &l);
		l.filter_cache = cc->filter_cache;
		r = sw_launch_prepare(&cc->ks, lr->policy, &l, cc->timeout_ms,
				      &lr->prepared, &err);
	}
	if (r >= 0)
		r = sw_client_alive(lr->client, &err);
	if (r == -ETIME) {
		struct sw_error e = err;

		sw_error_set(&err, ETIME, "%s (syswardd --compile-timeout %u: "
			     "a smaller policy, or ask the administrator for a "
			     "higher limit)", e.msg, cc->timeout_ms / 1000);
	}
	m->kind = MSG_COMPILED;
	if (r < 0) {
		m->has_err = true;
		m->err = err;
		m->err.code = -r;
		m->exit_code = SW_EXIT_SYSWARD_ERROR;
	}
	mailbox_post(cc->out, m);
}

struct worker_arg {
	struct compiler *cc;
	unsigned int idx;
};

static void *worker_main(void *arg)
{
	struct worker_arg *wa = arg;
	struct compiler *cc = wa->cc;
	unsigned int idx = wa->idx;

	free(wa);
	pthread_mutex_lock(&cc->mu);
	for (;;) {
		struct mail *m = NULL;

		while (!cc->stopping && !(m = pick_locked(cc)))
			pthread_cond_wait(&cc->cv, &cc->mu);
		if (!m)
			break;
		cc->busy[idx] = m->x->uid;
		cc->working[idx] = true;
		pthread_mutex_unlock(&cc->mu);
		compile_one(cc, m);
		pthread_mutex_lock(&cc->mu);
		cc->working[idx] = false;
		/* Another job of that uid may be waiting for this one. */
		pthread_cond_broadcast(&cc->cv);
	}
	pthread_mutex_unlock(&cc->mu);
	return NULL;
}

int compiler_start(struct compiler **ret, unsigned int n_workers,
		   unsigned int timeout_ms, unsigned int per_uid,
		   struct mailbox *out, struct sw_error *err)
{
	struct compiler *cc = calloc(1, sizeof(*cc));
	sigset_t all, old;
	int r;

	if (!cc)
		return sw_error_set(err, ENOMEM, "out of memory");
	pthread_mutex_init(&cc->mu, NULL);
	pthread_cond_init(&cc->cv, NULL);
	cc->out = out;
	cc->timeout_ms = timeout_ms;
	cc->filter_cache = sw_filter_cache_dir(cc->filter_cache_buf,
					       sizeof(cc->filter_cache_buf));
	cc->per_uid = per_uid;
	cc->n_workers = n_workers;
	cc->threads = calloc(n_workers, sizeof(*cc->threads));
	cc->busy = calloc(n_workers, sizeof(*cc->busy));
	cc->working = calloc(n_workers, sizeof(*cc->working));
	if (!cc->threads || !cc->busy || !cc->working) {
		compiler_free(cc);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	/* What the compiled filters may rely on: probed once, here, with a
	 * short-lived traced child of this (the main) thread. */
	r = sw_probe_kernel(&cc->ks, err);
	if (r < 0) {
		compiler_free(cc);
		return sw_error_wrap(err, "probe the kernel");
	}
	/* Signals are the event loop's (its signalfd). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; cc->n_started < n_workers; cc->n_started++) {
		struct worker_arg *wa = malloc(sizeof(*wa));
		int e = wa ? 0 : ENOMEM;

		if (wa) {
			*wa = (struct worker_arg){ cc, cc->n_started };
			e = pthread_create(&cc->threads[cc->n_started], NULL,
					   worker_main, wa);
			if (e)
				free(wa);
		}
		if (e) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			compiler_free(cc);
			return sw_error_set_errno(err, e, "start a compile thread");
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*ret = cc;
	return 0;
}

int compiler_submit(struct compiler *cc, struct mail *m)
{
	bool running;

	pthread_mutex_lock(&cc->mu);
	if (count_uid_locked(cc, m->x->uid, &running) >= cc->per_uid) {
		pthread_mutex_unlock(&cc->mu);
		return -EAGAIN;
	}
	m->next = NULL;
	{
		struct mail **pp = &cc->head;

		while (*pp)
			pp = &(*pp)->next;
		*pp = m;
	}
	pthread_cond_signal(&cc->cv);
	pthread_mutex_unlock(&cc->mu);
	return 0;
}

unsigned int compiler_per_uid(const struct compiler *cc)
{
	return cc->per_uid;
}

void compiler_free(struct compiler *cc)
{
	struct mail *m;

	if (!cc)
		return;
	pthread_mutex_lock(&cc->mu);
	cc->stopping = true;
	pthread_cond_broadcast(&cc->cv);
	pthread_mutex_unlock(&cc->mu);
	/* A worker in a compile waits for it at most --compile-timeout. */
	for (unsigned int i = 0; i < cc->n_started; i++)
		pthread_join(cc->threads[i], NULL);
	while ((m = cc->head)) {
		cc->head = m->next;
		mail_free(m);
	}
	free(cc->threads);
	free(cc->busy);
	free(cc->working);
	pthread_cond_destroy(&cc->cv);
	pthread_mutex_destroy(&cc->mu);
	free(cc);
}
