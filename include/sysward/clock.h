/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one millisecond clock for deadlines and windows, engine and daemon
 * alike: CLOCK_MONOTONIC, which no clock change moves.
 */
#ifndef SYSWARD_CLOCK_H
#define SYSWARD_CLOCK_H

#include <time.h>

static inline long long sw_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

#endif
