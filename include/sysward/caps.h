/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the calling thread may do: the one reader of its effective
 * capabilities, for the supervisor (may it read a non-dumpable tracee)
 * and for syswardd (may a tracer thread leave SCHED_IDLE again).
 */
#ifndef SYSWARD_CAPS_H
#define SYSWARD_CAPS_H

#include <stdbool.h>

/* Whether cap (CAP_SYS_PTRACE, ...) is in the calling thread's effective
 * set; false if the kernel cannot say. */
bool sw_cap_effective(int cap);

#endif
