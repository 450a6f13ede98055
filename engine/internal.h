/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysward-engine's shared core, read by every part: the session tables'
 * structs (struct sw_tracee, struct sw_session, struct sw_supervisor)
 * and the supervisor's warnings.  Not installed.  What each part exports
 * is in its folder's headers (README.md: trace/, decide/, record/,
 * contain/, launch/); the call in flight is call.h, the kernel as the
 * stop handlers see it sys.h, tracee memory tracemem.h.
 */
#ifndef SYSWARD_ENGINE_INTERNAL_H
#define SYSWARD_ENGINE_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "sysward/engine.h"
#include "sysward/limits.h"
#include "sysward/pathargs.h"

/* Older userspace headers: the values are the kernel's ABI. */
#ifndef CLONE_UNTRACED
#define CLONE_UNTRACED 0x00800000
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#include "sysward/policy.h"

/* The per-architecture hooks (engine/arch/<arch>.c); the call in flight. */
#include "arch.h"
#include "call.h"

/* What the session tables point at, each defined by its part. */
struct sw_deferred_status;
struct sw_execguard;
struct sw_fsrules;
struct sw_guard;
struct sw_guard_setup;
struct sw_line_gate;
struct sw_notif;
struct sw_objects;
struct sw_peer_check;
struct sw_peers;
struct sw_program;
struct sw_rc;
struct sw_record;
struct sw_tomb;

/* ---- the session tables (session.c, tracer.c) ------------------------- */

struct sw_tracee {
	pid_t pid;		/* 0 empty, -1 tombstone */
	uint8_t state;
	/* The parent's PTRACE_EVENT_FORK/VFORK/CLONE naming this tid was
	 * handled (or this is a session's main process): an exit before
	 * that leaves a sw_tomb for the event to consume. */
	bool announced;
	uint64_t orphan_seq;	/* SW_T_ORPHAN: newest session then */
	bool exit_pending;	/* resume with PTRACE_SYSCALL; work at exit */
	bool exit_set;		/* set rval at the exit stop */
	bool exit_audit;	/* log the decision with its result */
	bool observed;		/* this stop is (also) a write to descriptor
				 * 2 seen for the line gate (linegate.c), or
				 * the listener's handoff (notif.c) */
	bool is_error;
	int inject_sig;
	int64_t rval;
	/* A trap the supervisor raises (inject_sig SIGSYS): what the
	 * kernel's own SIGSYS would say of the call (actions.c,
	 * sw_trap_signal_stop); pending from the exit stop that raises it
	 * to the signal's delivery stop. */
	bool trap_pending;
	struct sw_session *s;
	/* The call in flight, as the program made it: captured once at its
	 * SECCOMP stop (before any rewrite), read by everything after it:
	 * its decision's audit line and record, its exit stop, the path
	 * guard's restore, a trap's SIGSYS, the exec event it causes
	 * (execguard.c), a checked connect or result. */
	struct sw_call call;
	/* The decision on it, awaiting its exit stop (for the audit line). */
	struct sw_decision d;
	struct sw_audit_strings kept;	/* its strings, if exit_audit */
	/* pathguard.c: the image's guard and the slots this thread's
	 * syscall in flight holds. */
	struct sw_guard *guard;
	uint8_t guard_state;
	uint8_t n_pins;
	uint16_t pins[6];
	/* pathguard.c: mapping the guard after an exec, one stop at a
	 * time (NULL when not under way). */
	struct sw_guard_setup *gs;
	/* record.c: the program this tracee runs, its index + 1 in the
	 * session's record (0: none yet, or past the limit). */
	uint16_t rec_prog;
	/* resultcheck.c: a call decided on what it returns (NULL when
	 * none is under way); its thread group (0: not read yet); rc_held:
	 * a stop kept for later while another tracee of the session runs
	 * a checked call (rc_status), rc_wait: interrupted for that and
	 * not stopped yet. */
	struct sw_rc *rc;
	pid_t tgid;
	bool rc_held;
	bool rc_wait;
	int rc_status;
	/* tracer.c: its last stop was a vfork's event (PTRACE_EVENT_VFORK):
	 * resumed from it, it waits in the kernel until the child execs
	 * or exits, and runs none of the program's code before. */
	bool vforked;
	/* peers.c: the connect whose peer is checked at this tracee's exit
	 * stop (NULL: none); where it stands while a connect of its
	 * session's holds the others (enum sw_hold), and the stop it is
	 * held at. */
	struct sw_peer_check *pc;
	uint8_t hold;
	int held_status;
	/* In a group-stop, PTRACE_LISTEN'd (session.c): it runs no code
	 * until SIGCONT makes it stop again. */
	bool listening;
};


/* cgroup.c: the session's cgroup as its launcher holds it: the
 * directory it is in, and its name there (dir_fd -1: none). */
#define SW_CGROUP_NAME_MAX	64
struct sw_cgroup {
	int dir_fd;
	char name[SW_CGROUP_NAME_MAX];
};

struct sw_session {
	struct sw_supervisor *sup;
	struct sw_session *next;
	void *userdata;		/* sw_launch.userdata: the caller's */
	pid_t pid;
	struct sw_program *prog;
	uint32_t *counters;
	FILE *audit;
	enum sw_log_format audit_format;
	uint64_t id;
	uid_t uid;		/* the program's, at launch */
	/* The program's credentials when its launch set them (syswardd: the
	 * client's, SO_PEERCRED and SO_PEERGROUPS): execguard.c looks its exec
	 * rules' paths up with them, never with the supervisor's. */
	bool creds_set;
	gid_t gid;
	gid_t *groups;
	size_t n_groups;
	uint64_t decisions;
	uint64_t signal_stops;	/* signal-delivery and group stops */
	size_t n_tracees;
	int exit_code;
	uint64_t seq;		/* order of creation in the supervisor */
	size_t n_tombs;		/* its entries in sup->tombs */
	int launch_fd;		/* child's (stage, errno) report until exec */
	int tty_master;		/* sw_launch.tty's master until taken, or -1 */
	char launch_prog[256];	/* argv[0], for launch_err */
	char *launch_cwd;	/* the directory to enter, for launch_err */
	struct sw_fsrules *fsrules;	/* its file rules' plan, for launch_err */
	struct sw_fsrules *sandbox;	/* --sandbox's (sandbox.c), likewise */
	struct sw_error launch_err;
	bool launch_failed;
	bool main_exited;
	bool main_stopped;	/* the main process entered a group-stop
				 * (sw_run() stops itself too, as a shell's
				 * job would); reset by its reader */
	int main_stop_sig;	/* the signal of that stop */
	/* The job-control signal the main process took last was sent by a
	 * process outside its job (sw_stop_from_outside()): its stop is
	 * the pid's, like a SIGSTOP's, not the job's. */
	bool main_stop_outside;
	bool kill_descendants;	/* when the main process exits */
	bool signalled;		/* killed or signalled on request */
	bool killed;		/* ended by sysward (session_kill_all) */
	int term_sig;		/* the main process died of it (0: exited) */
	bool core_dumped;	/* ... with a core (WCOREDUMP) */
	bool exec_done;
	bool audit_allows;	/* sw_launch.audit_allows */
	struct sw_line_gate *gate;	/* sw_launch.audit_gate */
	bool can_set;		/* kernel has PTRACE_SET_SYSCALL_INFO */
	bool pathguard;		/* pin checked path strings (pathguard.c) */
	uint8_t guard_warned;	/* pathguard.c: warnings said once */
	struct sw_execguard *execguard;	/* execguard.c, from the first exec */
	bool complain;		/* sw_launch.complain */
	struct sw_record *record;	/* record.c, or NULL */
	/* objects.c: what the session made of the uid's kernel objects */
	struct sw_objects *objects;
	/* resultcheck.c: the tracee whose checked call holds the session's
	 * other stops (0: none), the sharers of its descriptor table not
	 * stopped yet, and whether two processes of the session share one
	 * (clone(CLONE_FILES) without CLONE_THREAD) */
	pid_t holder;
	unsigned int hold_waiting;
	bool files_shared;
	bool threads;		/* a PTRACE_EVENT_CLONE was seen */
	struct sw_peers *peers;	/* peers.c, from its first connect or listen */
	struct sw_cgroup cgroup;	/* cgroup.c: its own, removed with it */
	/* notif.c: the seccomp listener that answers sw_notif_rule()'s
	 * calls, NULL when its filter has none */
	struct sw_notif *notif;
};

struct sw_supervisor {
	struct sw_tracee *tab;
	size_t tab_size;	/* power of two */
	size_t tab_used;	/* live + tombstones */
	struct sw_session *sessions;
	uint64_t session_seq;	/* last sw_session.seq given */
	uint64_t sessions_ended;
	size_t n_orphans;	/* tracees in SW_T_ORPHAN */
	struct sw_tomb *tombs;	/* unordered; oldest first */
	size_t n_tombs, cap_tombs;
	sw_session_done_fn done_fn;
	void *done_ud;
	sw_warning_fn warn_fn;
	void *warn_ud;
	sw_job_stop_fn job_stop_fn;
	void *job_stop_ud;
	pid_t self;
	bool probed;
	struct sw_kernel_support ks;
	struct sw_decide_scratch scratch;
	/* resultcheck.c: sessions held for a checked call, and the first
	 * stops of new tids of those sessions, kept until it is done */
	unsigned int n_holds;
	bool rc_replay;		/* a hold ended: its kept stops are due */
	struct sw_deferred_status *deferred;
	size_t n_deferred, cap_deferred;
	/* bell.c: how other threads wake this tracer thread. */
	pthread_mutex_t bell_mu;
	pid_t bell_pid;		/* 0: none */
	int bell_fd;		/* pidfd of bell_pid, under bell_mu */
	bool bell_alarm;	/* an alarm is on its way */
	/* peers.c: tracees whose held stop is handled once the current one
	 * is (sw_peers_replay). */
	pid_t *replay;
	size_t n_replay, cap_replay;
	/* cgroup.c: session cgroups whose removal waits for what is left
	 * in them to end (at most SW_CGROUP_PENDING_MAX). */
	struct sw_cgroup *cg_pending;
	size_t n_cg_pending;
	long long cg_retry_ms;	/* the last try (CLOCK_MONOTONIC ms) */
};


void sw_warn(struct sw_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
