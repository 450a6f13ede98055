/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "sysward run": options parsed once into a plain struct (strace style). */
#ifndef SYSWARD_CLIENT_RUN_H
#define SYSWARD_CLIENT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sysward/engine.h"
#include "runopts.h"

struct sw_policy;
struct sw_record;
/*
 * The embedded run of o->argv under policy (loaded by the caller), as
 * `sysward run` makes it: the program checked first, o's log, caps,
 * complain mode and job control.  With record, the session's record is
 * handed over in *ret_record (NULL if the program never ran).  How the
 * program ended in *ret_exit (125/126/127 there, the error printed, if
 * it did not run); returns sw_run_status() of it.  `sysward learn` runs
 * its program through it too.
 */
int sw_run_embedded(const struct run_options *o, const struct sw_policy *policy,
		    bool record, struct sw_record **ret_record,
		    struct sw_exit *ret_exit);


/* Parse "CAP_SYS_ADMIN", "sys_admin", "net_raw,chown" or "all" into mask;
 * *all is set for "all". */
int sw_parse_caps(const char *text, uint64_t *mask, bool *all, char *bad,
		  size_t bad_size);

/* This process's effective capabilities, as a mask. */
uint64_t sw_own_effective_caps(void);

/* The capabilities in mask that defeat confinement, one per call: start
 * with *i = 0; returns why (and sets *name), or NULL when there are no
 * more.  For "sysward run --cap" to warn about. */
const char *sw_cap_danger(uint64_t mask, size_t *i, const char **name);

#endif
