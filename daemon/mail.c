// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the event loop, the compile stage and the tracer threads hand each
 * other: messages (struct mail, each holding a reference to its session
 * and owning its launch), their queues, and the event loop's mailbox (an
 * eventfd in its epoll set).  Below all three: nothing here knows a
 * thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "syswardd.h"

/* ---- queues ------------------------------------------------------------- */

void mailq_init(struct mailq *q)
{
	pthread_mutex_init(&q->mu, NULL);
	q->head = q->tail = NULL;
}

/* Returns whether the queue was empty. */
bool mailq_put(struct mailq *q, struct mail *m)
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

struct mail *mailq_take(struct mailq *q)
{
	struct mail *m;

	pthread_mutex_lock(&q->mu);
	m = q->head;
	q->head = q->tail = NULL;
	pthread_mutex_unlock(&q->mu);
	return m;
}

void mailq_drop(struct mailq *q)
{
	for (struct mail *m = mailq_take(q), *next; m; m = next) {
		next = m->next;
		mail_free(m);
	}
	pthread_mutex_destroy(&q->mu);
}

/* ---- messages ----------------------------------------------------------- */

struct mail *mail_new(enum mail_type k, struct session *x)
{
	struct mail *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->kind = k;
	m->x = session_ref(x);
	m->tty = -1;
	return m;
}

void mail_free(struct mail *m)
{
	if (!m)
		return;
	launch_req_free(m->launch);
	if (m->tty >= 0)
		close(m->tty);
	session_unref(m->x);
	sw_report_reply_clear(&m->report);
	free(m);
}

/* ---- the event loop's mailbox ------------------------------------------- */

struct mailbox {
	struct mailq q;
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
	mailq_init(&mb->q);
	*ret = mb;
	return 0;
}

int mailbox_fd(const struct mailbox *mb)
{
	return mb->efd;
}

void mailbox_post(struct mailbox *mb, struct mail *m)
{
	uint64_t one = 1;
	bool wake;

	pthread_mutex_lock(&mb->q.mu);
	wake = mailq_put(&mb->q, m);
	pthread_mutex_unlock(&mb->q.mu);
	/* Only the first of a batch: the loop takes them all at once. */
	if (wake)
		(void)!write(mb->efd, &one, sizeof(one));
}

struct mail *mailbox_take(struct mailbox *mb)
{
	uint64_t n;

	/* Clear first: a message posted after this wakes us again. */
	(void)!read(mb->efd, &n, sizeof(n));
	return mailq_take(&mb->q);
}

void mailbox_free(struct mailbox *mb)
{
	if (!mb)
		return;
	mailq_drop(&mb->q);
	close(mb->efd);
	free(mb);
}
