/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every access to a tracee's memory (strings.c).  Not "strings.h":
 * engine/ is an include folder, where that name would hide the C
 * library's <strings.h> from every engine file.
 */
#ifndef SW_ENGINE_TRACEMEM_H
#define SW_ENGINE_TRACEMEM_H

#include <sys/types.h>

#include "call.h"

/*
 * Every access to a tracee's memory goes through these: it runs on a
 * reader thread, and the caller waits at most a deadline (a page of the
 * program's may be a FUSE file it never serves).  Past it the tracee is
 * killed, the access fails with -ETIMEDOUT, and sw_tracee_mem_stalled()
 * names the tracee, whose session the dispatch loop then kills.
 */
/* The NUL-terminated string at addr; pidp points to a pid_t.  Length or
 * -errno. */
int sw_read_tracee_string(void *pidp, uint64_t addr, char *buf, size_t size);
/* A sw_read_arg_fn (pidp points to a pid_t): a path with
 * sw_read_tracee_string(), an address with sw_tracee_read_addr(). */
int sw_read_tracee_arg(void *pidp, const struct sw_arg_read *a, char *buf,
		       size_t size);
/* String argument i of pid's call name(args) on abi (sw_string_args()
 * says which): a path, or a unix address spelled.  Length, -ENODATA for
 * no unix address, or -errno. */
int sw_read_tracee_string_arg(pid_t pid, enum sw_abi abi, const char *name,
			      unsigned int i, const uint64_t args[6], char *buf,
			      size_t size);
/* The bytes the kernel copies for a unix address argument: the sockaddr
 * (SW_ARG_SOCKADDR), or the msghdr and then its msg_name's bytes
 * (SW_ARG_MSGHDR).  What the path guard pins. */
#define SW_MSGHDR_MAX		56	/* struct msghdr, x86_64 */
#define SW_SOCKADDR_MAX		128	/* struct sockaddr_storage */
struct sw_addr_bytes {
	uint8_t hdr_len;	/* the msghdr's bytes, 0 for a sockaddr */
	uint8_t name_len;	/* the address's bytes after it (0: none) */
	unsigned char b[SW_MSGHDR_MAX + SW_SOCKADDR_MAX];
};
/* Read a unix address argument (a->kind SW_ARG_SOCKADDR or _MSGHDR) of
 * pid: its bytes into *raw (whatever they name: an address of another
 * family is pinned too), spelled into buf as sw_read_arg_fn says. */
int sw_tracee_read_addr(pid_t pid, const struct sw_arg_read *a,
			struct sw_addr_bytes *raw, char *buf, size_t size);
/* process_vm_readv/writev of len <= 4096 bytes: bytes done, or -errno. */
int sw_tracee_read(pid_t pid, uint64_t addr, void *buf, size_t len);
int sw_tracee_write(pid_t pid, uint64_t addr, const void *buf, size_t len);
/* The pid of a tracee killed for not answering since the last call, or 0. */
pid_t sw_tracee_mem_stalled(void);
/* The calling thread's reader ends (a tracer thread that ends). */
void sw_tracee_mem_release(void);
/* The uid whose program this thread's next accesses are for: a read left
 * behind past the deadline is charged to it ((uid_t)-1: unknown). */
void sw_tracee_mem_owner(uid_t uid);

#endif
