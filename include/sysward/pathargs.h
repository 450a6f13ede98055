/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which syscall arguments are paths, and when the kernel takes NULL for
 * one (policy/src/pathargs.c): the one table, read by the policy's lint
 * (a "paths" condition on an argument that is no path) and by the engine
 * (audit decoding, the record, a path condition on a NULL pointer).  It
 * lives in the policy library because the engine links that one, never
 * the other way round.
 */
#ifndef SYSWARD_PATHARGS_H
#define SYSWARD_PATHARGS_H

#include <stdbool.h>
#include <stdint.h>

/* Bit i set: argument i of syscall `name` on arch (a SCMP_ARCH_* token)
 * is a path (0: none known, or a call the table does not list).  arch 0:
 * on any x86 ABI (the index differs by ABI for fanotify_mark alone). */
uint8_t sw_path_args(uint32_t arch, const char *name);

/* Does the kernel take a NULL pointer for path argument `index` of call
 * `nr` on arch (a SCMP_ARCH_* token; 0: none) -- then it acts on a file
 * descriptor, or on nothing -- rather than fail with EFAULT?  Table and
 * measurements: pathargs.c. */
bool sw_path_null_ok(uint32_t arch, uint64_t nr, unsigned int index,
		     const uint64_t args[6]);

#endif
