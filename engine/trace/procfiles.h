/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whether a procfs file is the session's (procfiles.c).
 */
#ifndef SW_ENGINE_PROCFILES_H
#define SW_ENGINE_PROCFILES_H

#include <sys/stat.h>

#include "internal.h"

/* A file st of the supervisor's procfs, link its name as readlink gives
 * it from here: is it a file of a pid directory of a tracee of s? */
bool sw_proc_file_of_session(struct sw_supervisor *sup, struct sw_session *s,
			     const struct stat *st, const char *link);
/* A file st of another instance of procfs, one tid's program mounted:
 * is it a file of one of that instance's pid directories? */
bool sw_proc_foreign_pid_file(pid_t tid, const struct stat *st, const char *link);

#endif
