// SPDX-License-Identifier: LGPL-2.1-or-later
#include "sysward/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int sw_error_vset(struct sw_error *err, int code, const char *fmt, va_list ap)
{
	if (code <= 0)
		code = EINVAL;
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		err->line = err->col = 0;
		err->path[0] = '\0';
	}
	return -code;
}

void sw_error_locate(struct sw_error *err, unsigned int line,
		     unsigned int col, const char *path)
{
	if (!err)
		return;
	err->line = line;
	err->col = col;
	snprintf(err->path, sizeof(err->path), "%s", path ? path : "");
}

int sw_error_set(struct sw_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = sw_error_vset(err, code, fmt, ap);
	va_end(ap);
	return r;
}

int sw_error_set_errno(struct sw_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;
	size_t len;

	va_start(ap, fmt);
	r = sw_error_vset(err, code, fmt, ap);
	va_end(ap);
	if (err) {
		len = strlen(err->msg);
		snprintf(err->msg + len, sizeof(err->msg) - len, ": %s",
			 strerror(-r));
	}
	return r;
}

int sw_error_wrap(struct sw_error *err, const char *fmt, ...)
{
	char prefix[SW_ERROR_MSG_MAX];
	char old[SW_ERROR_MSG_MAX];
	va_list ap;
	int n;

	if (!err)
		return -EINVAL;
	if (err->code <= 0)
		err->code = EINVAL;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	if (old[0])
		n = snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s", prefix);
	/* A message longer than SW_ERROR_MSG_MAX is cut; say so. */
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - 4, "...", 4);
	return -err->code;
}
