/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Complain mode over the kernel's file rules (fscomplain.c), judged at an
 * open's exit stop.
 */
#ifndef SW_ENGINE_FSCOMPLAIN_H
#define SW_ENGINE_FSCOMPLAIN_H

#include "internal.h"
#include "trace/checked.h"

/* Does session s judge its file rules itself (complain mode over a
 * policy's "filesystem" section or --sandbox)? */
bool sw_fscomplain_on(const struct sw_session *s);
/* At the exit stop of t's open that can write (resultcheck.c), before
 * objects.c's verdict: judge what it opened against the file rules,
 * audit a refusal they would make, and record the call (its SECCOMP
 * stop left that to here). */
void sw_fscomplain_open(struct sw_supervisor *sup, struct sw_tracee *t,
			const struct sw_rc *rc, int64_t rval);

#endif
