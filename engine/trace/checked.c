// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A call checked on what it returns: the record its SECCOMP stop makes
 * (t->rc), which resultcheck.c's steps then advance (checked.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "trace/checked.h"

int sw_rc_want(struct sw_tracee *t, uint8_t kind, enum sw_abi abi,
	       const struct sw_decision *d)
{
	struct sw_rc *rc = t->rc ? t->rc : malloc(sizeof(*rc));

	if (!rc)
		return -ENOMEM;
	memset(rc, 0, sizeof(*rc));
	rc->kind = kind;
	rc->step = SW_RC_CALL;
	rc->abi = abi;
	rc->nr = d->nr;
	memcpy(rc->args, d->args, sizeof(rc->args));
	rc->fd = -1;
	t->rc = rc;
	return 0;
}
