/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One error object, crun style: a negative errno plus a message that each
 * caller may wrap with context ("load policy foo.json: ...").  Library code
 * fills it and returns the negative errno; only main() or the daemon's reply
 * path prints it.  It crosses the daemon socket as (code, capped message).
 */
#ifndef SYSWARD_ERROR_H
#define SYSWARD_ERROR_H

#include <stdarg.h>

#define SW_ERROR_MSG_MAX 1024

struct sw_error {
	int code;			/* positive errno, 0 when unset */
	char msg[SW_ERROR_MSG_MAX];	/* NUL-terminated, may be empty */
	/* Where in a policy, for a program that reads the error (sysward
	 * check --json) and must not parse msg: the line and column (from
	 * 1; 0 = unknown) of a syntax error, the JSON path of a problem of
	 * meaning ("syscalls[3].args[0].op"; "" = none).  Every
	 * sw_error_set() clears them, the policy parser then fills them;
	 * sw_error_wrap() keeps them.  They do not cross the daemon socket. */
	unsigned int line, col;
	char path[128];
};

/* Record where in a policy err's problem is (see struct sw_error). */
void sw_error_locate(struct sw_error *err, unsigned int line,
		     unsigned int col, const char *path);

/* Set err (if non-NULL) and return -code.  code is a positive errno. */
int sw_error_set(struct sw_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Same, from a va_list (for a caller's own printf-like wrapper). */
int sw_error_vset(struct sw_error *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Same as sw_error_set, appending ": strerror(code)". */
int sw_error_set_errno(struct sw_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the existing message with context ("ctx: old message"). */
int sw_error_wrap(struct sw_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void sw_error_clear(struct sw_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
		err->line = err->col = 0;
		err->path[0] = '\0';
	}
}

#endif
