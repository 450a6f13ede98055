/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The path guard (route 6; pathguard.c says what the guard is): what its
 * three files share -- pathguard.c the guard itself (slots, reads,
 * vetting, pins), guardsetup.c mapping it into a fresh image one stop at
 * a time, guardfilter.c the BPF prefix that lets the setup's calls
 * through the tracee's own filter -- and what the stops (actions.c,
 * tracer.c) and the launch call.
 */
#ifndef SW_ENGINE_PATHGUARD_H
#define SW_ENGINE_PATHGUARD_H

#include <stdint.h>
#include <sys/socket.h>

#include "internal.h"
#include "tracemem.h"
#include "trace/trace.h"

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

/* Where the read-only copies of checked strings live in every tracee. */
#define SW_GUARD_ADDR		0xa5e00000ull
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

/* Path guard (pathguard.c) state of a tracee's process image. */
enum {
	SW_GUARD_UNKNOWN,
	SW_GUARD_MAPPED,	/* mapped and sealed in this tracee's mm */
	SW_GUARD_NONE,		/* i386 image: no guard (documented limit) */
	SW_GUARD_INHERITED,	/* from a parent or thread; this mm unchecked */
	SW_GUARD_LOST,		/* this mm has no intact guard: fail closed */
};

/* ---- pathguard.c: race-free path conditions ------------------------- */

#define SW_PATHGUARD_MAX_READS	6

/* What one SECCOMP stop read for conditions, each argument once: a
 * string (kind SW_ARG_PATH or _NONE) as read, an address spelled with
 * the bytes the kernel copies (raw). */
struct sw_pathguard_reads {
	pid_t pid;
	unsigned int n;
	uint64_t addr[SW_PATHGUARD_MAX_READS];
	uint8_t kind[SW_PATHGUARD_MAX_READS];
	int64_t alen[SW_PATHGUARD_MAX_READS];	/* SW_ARG_SOCKADDR's length */
	int len[SW_PATHGUARD_MAX_READS];
	char str[SW_PATHGUARD_MAX_READS][4096];
	struct sw_addr_bytes raw[SW_PATHGUARD_MAX_READS];
};

/* Does this program check paths (and so want the guard)? */
bool sw_pathguard_wanted(const struct sw_program *prog);
/* Put the guard's TRACE rules in front of an exported filter
 * (struct sock_filter array, reallocated). */
int sw_pathguard_patch_filter(void **insns, size_t *n, struct sw_error *err);
/* A sw_read_arg_fn for sw_decide; ctx is a struct sw_pathguard_reads. */
int sw_pathguard_read(void *ctx, const struct sw_arg_read *a, char *buf,
		      size_t size);
/* After sw_decide: point checked string arguments at sealed copies. */
void sw_pathguard_pin(struct sw_supervisor *sup, struct sw_session *s,
		      struct sw_tracee *t, enum sw_abi abi,
		      const struct sw_pathguard_reads *rd,
		      struct sw_decision *d);
/* At PTRACE_EVENT_EXEC: start mapping the guard into the new image; true
 * with *plan its way on (or SW_DEAD: killed).  False: the session has no
 * guard.  The setup goes on at the tracee's next stops. */
bool sw_pathguard_exec(struct sw_supervisor *sup, struct sw_tracee *t,
		       struct sw_resume *plan);
/* A stop of a tracee whose t->gs is set: advance the guard's setup one
 * step; what to do with t (SW_DEAD: given up, killed).  Never waits. */
SW_PLAN sw_pathguard_setup_stop(struct sw_supervisor *sup,
				struct sw_tracee *t, int sig, int ev);
/* The setup's resume failed (not ESRCH): t is killed; end its setup. */
void sw_pathguard_setup_failed(struct sw_tracee *t);
/* End t's setup, if any: its state and our memfd not yet handed over
 * (the tracee gone, or the setup done or given up). */
void sw_pathguard_setup_end(struct sw_tracee *t);
/* At the syscall-exit stop of t's call: give the program back the
 * argument registers it passed (the kernel keeps them across a syscall,
 * and a restart re-enters the call with them), then free the slots. */
void sw_pathguard_release(struct sw_tracee *t);
/* Setting up the guard failed with EPERM in pid: if the reason is that
 * the supervisor cannot read the program, say so (true) and kill it. */
bool sw_pathguard_explain_unreadable(struct sw_session *s, pid_t pid);
/* The tracee is gone (or exec'd): drop its slots and guard. */
void sw_pathguard_forget(struct sw_tracee *t);
/* A new thread or process shares or copies its parent's image. */
void sw_pathguard_inherit(struct sw_tracee *child, struct sw_guard *g,
			  uint8_t state);

#endif
