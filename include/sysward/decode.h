/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System call arguments and results as strace(1) writes them
 * (engine/decode.c): the one decoder, read by the text audit log, the
 * report's samples and the --gate/--complain summary.  Pure: it reads
 * the raw values and the strings the supervisor already read, never the
 * tracee.  The JSON log and report keep the raw values beside it.
 */
#ifndef SYSWARD_DECODE_H
#define SYSWARD_DECODE_H

#include <stdint.h>
#include <stdio.h>

/* s in the text format's C escapes (\\ \" \n \t \r \xNN), no quotes
 * added: the one escaping of the audit log's, the report's and the
 * gate's text lines. */
void sw_text_str(FILE *f, const char *s);

/*
 * Write the argument list of call `name` (no parentheses) on arch (a
 * SCMP_ARCH_* token) to f: "AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC".
 * strs[i] (may be NULL, as may strs itself): the string argument i holds,
 * read by the caller, written quoted in the text log's escapes; a string
 * argument without one is written as its pointer.  Bit i of hidden: the
 * argument is not known (the report leaves it out), written "...".
 * As many arguments as strace shows for the call (openat's mode only
 * with O_CREAT or O_TMPFILE, fcntl's third only for commands that take
 * one, ...); six raw hex values for a call it does not know.
 */
void sw_decode_args(FILE *f, uint32_t arch, const char *name,
		    const uint64_t args[6], const char *const strs[6],
		    uint8_t hidden);

/* "name(args)", as sw_decode_args() writes the arguments (name NULL:
 * "?"), to f. */
void sw_decode_call_write(FILE *f, uint32_t arch, const char *name,
			  const uint64_t args[6], const char *const strs[6],
			  uint8_t hidden);

/* The same in a string to free(); NULL without memory. */
char *sw_decode_call(uint32_t arch, const char *name, const uint64_t args[6],
		     const char *const strs[6], uint8_t hidden);

/* The result ret (the kernel's: -errno on failure) of call `name`:
 * "3", "0x7f1c2a000000" (mmap, brk, ...), or
 * "-1 ENOENT (No such file or directory)". */
void sw_decode_return(FILE *f, uint32_t arch, const char *name, int64_t ret);

#endif
