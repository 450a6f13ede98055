// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A prefix of classic BPF in front of a compiled seccomp filter: the one
 * home of that splice, for the three prefixes the engine puts there (the
 * ENOSYS rule for newer calls, filter.c; the path guard's, guardfilter.c;
 * the seccomp listener's handoff, notif.c).  The prefix falls through to
 * the filter, whose jumps are relative and so stay right.  Kept apart
 * from filter.c so that notif.c, which filter.c asks which rules the
 * listener answers, need not include the filter compiler back.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "decide/decide.h"

int sw_filter_prepend(void **insns, size_t *n, const void *pre, size_t n_pre,
		      const char *what, struct sw_error *err)
{
	struct sock_filter *out;

	if (*n + n_pre > BPF_MAXINSNS)
		return sw_error_set(err, E2BIG,
				    "the filter has %zu instructions; %s needs %zu more than the kernel's limit of %d allows",
				    *n, what, n_pre, BPF_MAXINSNS);
	out = malloc((*n + n_pre) * sizeof(*out));
	if (!out)
		return sw_error_set_errno(err, ENOMEM, "add %s to the filter", what);
	memcpy(out, pre, n_pre * sizeof(*out));
	memcpy(out + n_pre, *insns, *n * sizeof(*out));
	free(*insns);
	*insns = out;
	*n += n_pre;
	return 0;
}
