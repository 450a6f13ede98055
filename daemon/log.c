// SPDX-License-Identifier: LGPL-2.1-or-later
/* syswardd's own messages, on stderr (the journal under systemd). */
#include <stdarg.h>
#include <stdio.h>

#include "syswardd.h"

void swd_log(const char *fmt, ...)
{
	va_list ap;

	/* One line at a time: the tracer threads log too. */
	flockfile(stderr);
	fputs("syswardd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
