// SPDX-License-Identifier: LGPL-2.1-or-later
/* The supervisor's warnings, to its caller's callback
 * (sw_supervisor_on_warning()): below every module that warns. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void sw_warn(struct sw_session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s && s->sup->warn_fn)
		s->sup->warn_fn(s, msg, s->sup->warn_ud);
}
