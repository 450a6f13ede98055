// SPDX-License-Identifier: LGPL-2.1-or-later
/* Threads left behind, by uid (abandon.h). */
#include "abandon.h"

/* uid's entry (add: a new one if it has none); NULL if none or the table
 * is full.  Under a->mu. */
static unsigned int *entry_of(struct sw_abandoned *a, uid_t uid, bool add)
{
	unsigned int free_i = a->max;

	for (unsigned int i = 0; i < a->max; i++) {
		if (a->by_uid[i].n && a->by_uid[i].uid == uid)
			return &a->by_uid[i].n;
		if (!a->by_uid[i].n && free_i == a->max)
			free_i = i;
	}
	if (!add || free_i == a->max)
		return NULL;
	a->by_uid[free_i].uid = uid;
	return &a->by_uid[free_i].n;
}

bool sw_abandoned_allowed(struct sw_abandoned *a, uid_t uid)
{
	unsigned int *n;
	bool ok;

	/* Asked on every memory access: none left behind is the common
	 * case, and needs no lock (one left behind meanwhile is one over,
	 * at most). */
	if (__atomic_load_n(&a->n, __ATOMIC_RELAXED) == 0)
		return true;
	pthread_mutex_lock(&a->mu);
	n = entry_of(a, uid, false);
	ok = a->n < a->max && (!n || *n < a->max_uid);
	pthread_mutex_unlock(&a->mu);
	return ok;
}

bool sw_abandoned_charge(struct sw_abandoned *a, uid_t uid)
{
	unsigned int *n;

	pthread_mutex_lock(&a->mu);
	n = entry_of(a, uid, true);
	if (n) {
		(*n)++;
		__atomic_store_n(&a->n, a->n + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&a->mu);
	return n != NULL;
}

void sw_abandoned_release(struct sw_abandoned *a, uid_t uid)
{
	unsigned int *n;

	pthread_mutex_lock(&a->mu);
	n = entry_of(a, uid, false);
	if (n) {
		(*n)--;
		__atomic_store_n(&a->n, a->n - 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&a->mu);
}
