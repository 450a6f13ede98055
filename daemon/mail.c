// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the event loop, the compile stage and the tracer threads hand each
 * other: sessions (shared, counted), messages and their queues, the event
 * loop's mailbox (an eventfd in its epoll set), and what a RUN's program
 * gets (launch_fill()).  Below all three: nothing here knows a thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "sysward/engine.h"
#include "sysward/policy.h"
#include "syswardd.h"

/* ---- queues ------------------------------------------------------------- */

void msgq_init(struct msgq *q)
{
	pthread_mutex_init(&q->mu, NULL);
	q->head = q->tail = NULL;
}

/* Returns whether the queue was empty. */
bool msgq_put(struct msgq *q, struct shard_msg *m)
{
	bool was_empty = !q->head;

	m->next = NULL;
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	return was_empty;
}

struct shard_msg *msgq_take(struct msgq *q)
{
	struct shard_msg *m;

	pthread_mutex_lock(&q->mu);
	m = q->head;
	q->head = q->tail = NULL;
	pthread_mutex_unlock(&q->mu);
	return m;
}

void msgq_drop(struct msgq *q)
{
	for (struct shard_msg *m = msgq_take(q), *next; m; m = next) {
		next = m->next;
		shard_msg_free(m);
	}
	pthread_mutex_destroy(&q->mu);
}

/* ---- sessions and messages ---------------------------------------------- */

struct session *session_ref(struct session *x)
{
	if (x)
		__atomic_add_fetch(&x->refs, 1, __ATOMIC_RELAXED);
	return x;
}

void session_unref(struct session *x)
{
	if (!x || __atomic_sub_fetch(&x->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	free(x);
}

static void launch_req_free(struct launch_req *l)
{
	if (!l)
		return;
	for (int i = 0; i < SW_PROTO_RUN_FDS; i++)
		if (l->fds[i] >= 0)
			close(l->fds[i]);
	sw_run_request_clear(&l->q);
	sw_prepared_free(l->prepared);
	sw_policy_free(l->policy);
	peer_clear(&l->peer);
	free(l);
}

struct shard_msg *shard_msg_new(enum shard_msg_kind k, struct session *x)
{
	struct shard_msg *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->kind = k;
	m->x = session_ref(x);
	return m;
}

void shard_msg_free(struct shard_msg *m)
{
	if (!m)
		return;
	launch_req_free(m->launch);
	session_unref(m->x);
	sw_report_reply_clear(&m->report);
	free(m);
}

/* ---- the event loop's mailbox ------------------------------------------- */

struct mailbox {
	struct msgq q;
	int efd;
};

int mailbox_new(struct mailbox **ret, struct sw_error *err)
{
	struct mailbox *mb = calloc(1, sizeof(*mb));

	if (!mb)
		return sw_error_set(err, ENOMEM, "out of memory");
	mb->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (mb->efd < 0) {
		int e = errno;

		free(mb);
		return sw_error_set_errno(err, e, "create an eventfd for the tracer threads' replies");
	}
	msgq_init(&mb->q);
	*ret = mb;
	return 0;
}

int mailbox_fd(const struct mailbox *mb)
{
	return mb->efd;
}

void mailbox_post(struct mailbox *mb, struct shard_msg *m)
{
	uint64_t one = 1;
	bool wake;

	pthread_mutex_lock(&mb->q.mu);
	wake = msgq_put(&mb->q, m);
	pthread_mutex_unlock(&mb->q.mu);
	/* Only the first of a batch: the loop takes them all at once. */
	if (wake)
		(void)!write(mb->efd, &one, sizeof(one));
}

struct shard_msg *mailbox_take(struct mailbox *mb)
{
	uint64_t n;

	/* Clear first: a message posted after this wakes us again. */
	(void)!read(mb->efd, &n, sizeof(n));
	return msgq_take(&mb->q);
}

void mailbox_free(struct mailbox *mb)
{
	if (!mb)
		return;
	msgq_drop(&mb->q);
	close(mb->efd);
	free(mb);
}

/* The program is a process group of its own in a session of its own,
 * led by its holder, its parent (launchchild.c): it stops as a shell's job does
 * (engine.h); kill(0, ...) and setpgid() stay in it (route 11); it has no
 * terminal; its CPU is its session's scheduler autogroup's, not the
 * daemon's (route 13). */
void launch_fill(const struct launch_req *q, uint64_t id, struct sw_launch *l)
{
	*l = (struct sw_launch){
		.argv = q->q.argv,
		.envp = q->q.envp,
		.cwd = q->q.cwd,
		.stdio = { q->fds[0], q->fds[1], q->fds[2] },
		.uid = q->root_daemon ? q->peer.uid : (uid_t)-1,
		.gid = q->root_daemon ? q->peer.gid : (gid_t)-1,
		.groups = q->peer.groups,
		.n_groups = q->peer.n_groups,
		.set_groups = q->root_daemon,
		/* Root gets what "sysward run --cap" would give it. */
		.caps = q->peer.uid == 0 ? q->q.caps : 0,
		.audit = q->audit,
		.audit_format = SW_LOG_JSON,
		.session_id = id,
		.new_session = true,
		.holder_exec = true,
		.set_nice = true,
		.nice = q->nice,
		.set_umask = true,
		.umask = (mode_t)q->q.umask,
		.sig_ignored = q->q.sig_ignored,
		.sig_blocked = q->q.sig_blocked,
		.complain = q->recording &&
			    (q->record.flags & SW_PROTO_RECORD_COMPLAIN),
		.record = q->recording,
	};
}
