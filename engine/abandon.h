/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Threads left behind on a file system that does not answer, counted by
 * the uid they were charged to (strings.c's memory readers, execguard.c's
 * path resolvers; docs/security.md routes 13 and 17).  One uid past its
 * bound is refused more; other uids are not, up to the process's bound.
 * A thread is released when its wait ends.
 */
#ifndef SW_ENGINE_ABANDON_H
#define SW_ENGINE_ABANDON_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

struct sw_abandoned_uid {
	uid_t uid;
	unsigned int n;
};

struct sw_abandoned {
	pthread_mutex_t mu;
	unsigned int max;		/* the process's bound, by_uid's size */
	unsigned int max_uid;		/* one uid's */
	unsigned int n;			/* written under mu */
	struct sw_abandoned_uid *by_uid;
};

#define SW_ABANDONED_INIT(table, max_, max_uid_)			\
	{ .mu = PTHREAD_MUTEX_INITIALIZER, .max = (max_),		\
	  .max_uid = (max_uid_), .by_uid = (table) }

/* Whether uid may leave one more thread behind. */
bool sw_abandoned_allowed(struct sw_abandoned *a, uid_t uid);
/* Charge uid with one; false if the table is full (threads that passed
 * sw_abandoned_allowed() together overshoot a bound by one each at
 * most): that one is then not counted, and must not be released. */
bool sw_abandoned_charge(struct sw_abandoned *a, uid_t uid);
void sw_abandoned_release(struct sw_abandoned *a, uid_t uid);

#endif
