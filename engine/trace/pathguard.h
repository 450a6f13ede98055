/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the path guard's three files share (pathguard.c says what the
 * guard is): pathguard.c the guard itself (slots, reads, vetting, pins),
 * guardsetup.c mapping it into a fresh image one stop at a time,
 * guardfilter.c the BPF prefix that lets the setup's calls through the
 * tracee's own filter.
 */
#ifndef SW_ENGINE_PATHGUARD_H
#define SW_ENGINE_PATHGUARD_H

#include <stdint.h>
#include <sys/socket.h>

#include "internal.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* The setup's socketpair type and recvmsg flags (see the filter prefix). */
#define SW_GUARD_SOCK		(SOCK_DGRAM | SOCK_CLOEXEC)
#define SW_GUARD_RECV		(MSG_CMSG_CLOEXEC | MSG_DONTWAIT)

#define SW_GUARD_SLOT		4096u
#define SW_GUARD_SLOTS		1024u
#define SW_GUARD_SIZE		(SW_GUARD_SLOT * SW_GUARD_SLOTS)

struct sw_guard {
	unsigned int refs;	/* tracees whose image maps it */
	char *map;		/* our writable view */
	unsigned long ino;	/* the memfd, as /proc/<pid>/maps shows it */
	unsigned int dev_major, dev_minor;
	uint64_t used[SW_GUARD_SLOTS / 64];
};

_Static_assert(SW_GUARD_ADDR % 4096 == 0, "page aligned");
_Static_assert(SW_GUARD_ADDR + SW_GUARD_SIZE <= 0xffffffffull,
	       "reachable by 32-bit pointers (int $0x80 from a 64-bit program)");

/* What the filter prefix sends to the supervisor and vet() refuses
 * (advice and prctl option, compared at the kernel's int width). */
#define SW_MADV_DONTFORK	10u
#define SW_PR_SET_DUMPABLE	4u

/* Is the mapping at SW_GUARD_ADDR in pid's mm our memfd g, whole,
 * read-only, shared and sealed?  0; -ENOENT if not; -ESRCH if pid has
 * no address space (it is exiting); else -errno (pathguard.c). */
int sw_guard_intact(pid_t pid, struct sw_guard *g);

#endif
