/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * /proc's "Key:<tab>value" files (status, fdinfo): the one reader and
 * parser, for the supervisor (its tracees' ids and pid namespaces, whose
 * pidfd a tracee holds) and for syswardd (whether a client is traced).
 */
#ifndef SYSWARD_PROC_H
#define SYSWARD_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Enough for /proc/<pid>/status (about 1.5 KiB; a long "Groups:" line is
 * cut, and the fields after it then read as absent: callers fail
 * closed). */
#define SW_PROC_TEXT_MAX 8192

/* Read a small /proc file into buf, NUL-terminated: its length, or
 * -errno (the process is gone: -ENOENT or -ESRCH). */
ssize_t sw_proc_read(const char *path, char *buf, size_t size);
/* The value after "key:" at the start of a line of text, or NULL. */
const char *sw_proc_field(const char *text, const char *key);
/* The index-th number (from 0) of key's value ("NSpid:" lists one per
 * pid namespace), read in base: false if absent. */
bool sw_proc_number(const char *text, const char *key, int base,
		    unsigned int index, long *ret);
/* How many numbers key's value has (NSpid: the depth of the process's
 * pid namespace, 1 in the initial one), or -1 if absent. */
int sw_proc_count(const char *text, const char *key);

/* Tgid and PPid of a tid (a zombie's too) from /proc/<tid>/status: 0, or
 * -errno if it is gone. */
int sw_proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid);

#endif
