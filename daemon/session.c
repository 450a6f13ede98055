// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A session as the event loop knows it, shared with the compile stage and
 * its tracer thread through messages: counted, freed with the last
 * reference.
 */
#include <stdlib.h>

#include "syswardd.h"

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
