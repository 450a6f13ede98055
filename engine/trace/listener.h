/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The session's seccomp listener (listener.c): taken at the launch
 * child's handoff stop (sw_notif_take) and served by a thread of its own
 * until sw_notif_free.  Which rules it answers is decide/notif.c's.
 */
#ifndef SW_ENGINE_LISTENER_H
#define SW_ENGINE_LISTENER_H

#include <stdio.h>

#include "internal.h"

/* Where the listener writes the audit lines of the calls it answers, as
 * a stop would (f NULL: no log). */
struct sw_notif_log {
	FILE *f;
	enum sw_log_format fmt;
	uint64_t session;
	uid_t uid;		/* the program's: its reads are charged to it */
};
struct sw_notif *sw_notif_new(const struct sw_program *prog, uint64_t *also,
			      const struct sw_notif_log *log);
bool sw_notif_pending(const struct sw_notif *n);
/* A caller whose memory the listener's thread could not read within the
 * deadline (killed already), once; 0: none. */
pid_t sw_notif_stalled(struct sw_notif *n);
uint64_t sw_notif_answered(const struct sw_notif *n);
int sw_notif_take(struct sw_notif *n, pid_t pid, const uint64_t args[6],
		  struct sw_error *err);
void sw_notif_free(struct sw_notif *n);
bool sw_notif_handoff(struct sw_session *s, struct sw_tracee *t,
		      uint32_t audit_arch, uint64_t nr, const uint64_t args[6]);
bool sw_notif_exec_check(struct sw_session *s, struct sw_tracee *t);
void sw_notif_signal_stop(struct sw_session *s, struct sw_tracee *t);

#endif
