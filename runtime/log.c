// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The runtime log.  Engines read a runtime's errors from its --log file
 * (containerd's runc shim takes the last "level":"error" line of its
 * log.json into the error it reports), so our lines there are runc's:
 * logrus's text ('time="..." level=error msg="..."') or JSON
 * ({"level":...,"msg":...,"time":...}), appended before the delegate
 * appends its own.  On stderr a person reads them: "sysward-runtime:
 * MESSAGE", errors and warnings always, the rest with --debug only (a
 * container's own stderr may be ours: runc run in the foreground).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"

static struct rt_log log_cfg;

void rt_log_setup(const char *path, const char *format, bool debug)
{
	log_cfg.path = path;
	log_cfg.json = format && strcmp(format, "json") == 0;
	log_cfg.debug = debug;
}

static const char *level_name(enum rt_level l)
{
	switch (l) {
	case RT_ERROR: return "error";
	case RT_WARNING: return "warning";
	case RT_INFO: return "info";
	default: return "debug";
	}
}

/* logrus's text format quotes a value as Go's %q does. */
static void text_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void to_file(enum rt_level level, const char *msg)
{
	char stamp[32], *line = NULL;
	size_t len = 0;
	struct tm tm;
	time_t now = time(NULL);
	FILE *m;
	int fd;

	if (!log_cfg.path || strcmp(log_cfg.path, "/dev/stderr") == 0)
		return;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	m = open_memstream(&line, &len);
	if (!m)
		return;
	if (log_cfg.json) {
		json_object *s = json_object_new_string(msg);

		fprintf(m, "{\"level\":\"%s\",\"msg\":%s,\"time\":\"%s\"}\n",
			level_name(level),
			json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE),
			stamp);
		json_object_put(s);
	} else {
		fprintf(m, "time=\"%s\" level=%s msg=", stamp, level_name(level));
		text_quoted(m, msg);
		fputc('\n', m);
	}
	if (fclose(m) != 0) {
		free(line);
		return;
	}
	/* One write of the whole line, appended: the delegate (and another
	 * runtime call) append to the same file. */
	fd = open(log_cfg.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, len) < 0)
			(void)0;	/* nowhere left to say so */
		close(fd);
	}
	free(line);
}

void rt_log(enum rt_level level, const char *fmt, ...)
{
	char msg[SW_ERROR_MSG_MAX + 256];
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	to_file(level, msg);
	if (level <= RT_WARNING || log_cfg.debug)
		fprintf(stderr, "sysward-runtime: %s%s\n",
			level == RT_WARNING ? "warning: " : "", msg);
	errno = saved;
}
