/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which syscall arguments are paths, which are unix socket addresses,
 * and when the kernel takes NULL for a path (policy/src/pathargs.c): the
 * one table, read by the policy's lint (a "paths" condition on an
 * argument that is neither) and by the engine (a condition's reading,
 * audit decoding, the record, a path condition on a NULL pointer).  It
 * lives in the policy library because the engine links that one, never
 * the other way round.
 */
#ifndef SYSWARD_PATHARGS_H
#define SYSWARD_PATHARGS_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * A "paths" condition on a unix socket address: connect(2), bind(2) and
 * sendto(2) take a struct sockaddr and its length, sendmsg(2) a struct
 * msghdr whose msg_name is one.  What the condition matches is the
 * address spelled by sw_unix_addr_spell(); an address that is no unix
 * one (another family, NULL, a length the kernel refuses) meets no
 * condition, negated ones included, as a NULL path does.
 */
enum sw_arg_kind {
	SW_ARG_NONE,
	SW_ARG_PATH,		/* a NUL-terminated path name */
	SW_ARG_SOCKADDR,	/* a struct sockaddr; its length: len_index */
	SW_ARG_MSGHDR,		/* a struct msghdr; msg_name the address */
};

struct sw_addr_arg {
	uint8_t index;		/* the sockaddr's (or msghdr's) argument */
	uint8_t kind;		/* SW_ARG_SOCKADDR or SW_ARG_MSGHDR */
	uint8_t len_index;	/* SW_ARG_SOCKADDR: its length's argument */
};

/* Does call `name` take a unix socket address (on every x86 ABI alike)?
 * true and *ret, else false. */
bool sw_addr_arg(const char *name, struct sw_addr_arg *ret);

/* The arguments of `name` on arch (0: any x86 ABI) that a "paths"
 * condition reads, the audit log decodes and the record keeps as
 * strings: its path arguments and its unix address, bit i for argument i. */
uint8_t sw_string_args(uint32_t arch, const char *name);

/* What kind of argument `index` of `name` is on arch (0: any x86 ABI), for
 * a "paths" condition: SW_ARG_PATH, SW_ARG_SOCKADDR, SW_ARG_MSGHDR, or
 * SW_ARG_NONE (a condition there reads nothing sensible). */
enum sw_arg_kind sw_cond_arg_kind(uint32_t arch, const char *name,
				  unsigned int index);

/* The longest spelling sw_unix_addr_spell() makes: "@" and 107 bytes. */
#define SW_UNIX_ADDR_MAX	108

/*
 * A sockaddr of len bytes as a condition sees it (and the audit log, the
 * record, a grant's check of a peer's name): the path of a path-named
 * socket, as the kernel reads it (the bytes of sun_path up to the first
 * NUL or len); "@" and the name of an abstract one, each NUL byte in it
 * written "@" too, as ss(8) shows them; "" for an unnamed one (len no
 * more than the family).  Written NUL-terminated into buf (size >=
 * SW_UNIX_ADDR_MAX + 1).  Returns its length, or -ENODATA when it is no
 * unix address (another family, len 0 or above the kernel's 128).
 */
int sw_unix_addr_spell(const void *sa, size_t len, char *buf, size_t size);

#endif
