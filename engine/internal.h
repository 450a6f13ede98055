/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysward-engine internals shared by its modules.  Not installed.
 *
 * Module map (one concern per file; README.md says more):
 *   arch/x86_64.c  every x86 fact: ABI table, registers, syscall numbers
 *              (the hooks of arch.h; generic code calls only those)
 *   program.c  the compiled, per-ABI form of a policy that decide() reads
 *   filter.c   program -> libseccomp filter (plain actions, TRACE(hint))
 *   decide.c   pure decision at a SECCOMP stop
 *   strings.c  every access to a tracee's memory, with a deadline
 *   actions.c  apply a decision with PTRACE_SET_SYSCALL_INFO
 *   audit.c    one JSON (or text) line per supervisor decision; JSON lines
 *   record.c   what a session's calls came to (recreport.c writes the
 *              report, reclearn.c the learned policy)
 *   launch.c   a launch step by step: prepare, fork, wait, seize, go
 *   prepare.c  before the fork: the policy compiled, its BPF (libseccomp in
 *              a killable process), capabilities, Landlock ruleset, /proc
 *   launchchild.c the child from fork to exec: group, holder, credentials,
 *              capabilities, no_new_privs, Landlock, filters
 *   launchreport.c the child's (stage, errno) report and its words
 *   fds.c      the descriptors a program starts with, exactly those handed
 *              over (syswardd: its client's), nothing else of ours
 *   clientctx.c the client's context a program starts in (syswardd):
 *              namespaces, root, cgroups, limits, scheduling, ...
 *   clientprobe.c whether the client is in a Landlock domain: a
 *              ptrace-mode check it is made to make
 *   exec.c     the program lookup, the exec, what its failure means
 *   groups.c   supplementary groups within the client's
 *   tracer.c   the supervisor: waitpid loop, dispatch, new tracees, exits
 *   session.c  the tracee and session tables, the main process's group-stop
 *   warn.c     sw_warn(): warnings to the supervisor's caller
 *   bell.c     wake a tracer thread asleep in waitpid, from another thread
 *   pathguard.c race-free path conditions: the sealed guard, pins
 *   guardsetup.c mapping the guard into a fresh image, stop by stop
 *   guardfilter.c the filter prefix for the guard setup's calls
 *   execguard.c exec path rules checked on the file the kernel executes
 *   signals.c  signals stay inside the program's process tree
 *   reach.c    which pids and groups are the session's; pid-taking calls
 *              (prlimit64, priorities, scheduling) act only on those
 *   objects.c  the uid's kernel objects outside the session: /proc,
 *              sysctl, cgroupfs and sysfs writes, IPC ids and queues,
 *              keyrings (route 20)
 *   resultcheck.c a call decided on what it returns: to its exit stop
 *              with its descriptor table's other users held, calls
 *              injected after it
 *   peers.c    unix connections to a same-uid process outside the
 *              session undone unless granted (route 19); the hold
 *   probe.c    kernel support probe with a short-lived traced child
 *   landlock.c every session a Landlock domain of its own (route 16)
 *   sandbox.c  sysward run --sandbox: what it grants, a Landlock layer
 *              of its own beneath the policy's (route 21)
 *   nsbox.c    the session's own namespaces (mount, IPC, cgroup), the one
 *              step of the launch child that makes them (route 16c)
 *   procns.c   the session's own /proc: outsiders' pids hidden (route 16)
 *   cgroup.c   the session's own cgroup: made, handed over, removed
 *   mountinfo.c a mount table, for the plans of nsbox.c and procns.c
 *   run.c      sw_run(), the embedded helper
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

/* ---- arch.h: the per-architecture hooks (engine/arch/<arch>.c) ------ */

#include "arch.h"

/* ---- program.c: the compiled policy ------------------------------------ */

/* Built-in defences: SW_DEFENCE_* in sysward/engine.h. */

/* Which rule a decision came from, besides 0..n_rules-1. */
#define SW_RULE_DEFAULT		(-1)
#define SW_RULE_DEFENCE		(-2)
/* At or below: complain mode's judgement of a kernel file rule
 * (fscomplain.c), one code per layer, hierarchy and rights refused, so
 * that the record keeps each apart (its "why" names them). */
#define SW_RULE_FILES		(-1024)

static inline int sw_rule_files(bool sandbox, int spec, uint64_t refused)
{
	return SW_RULE_FILES - (int)(((uint32_t)sandbox << 27) |
				     ((uint32_t)(spec + 1) << 16) |
				     (uint32_t)(refused & 0xffff));
}

/* Is it sysward's own (a defence, a file rule's judgement), not the
 * policy's rule or default? */
static inline bool sw_rule_builtin(int rule)
{
	return rule == SW_RULE_DEFENCE || rule <= SW_RULE_FILES;
}

/* TRACE data that names no rule.  The data is a hint for the audit trail
 * only: the program's own filters can return SECCOMP_RET_TRACE with data
 * of their choosing (the newest filter's data wins a tie), so decide.c
 * derives the rule from (ABI, nr, args) itself. */
#define SW_HINT_NONE		0xffffu
#define SW_MAX_RULES		SW_LIMIT_RULES
_Static_assert(SW_LIMIT_RULES < 0xfff0u, "rule indexes must stay below the hints");

/* Syscall numbers (x32 bit removed) below this have a per-ABI lookup
 * table of the first rule naming them; larger ones are scanned. */
#define SW_NR_SPAN		1024u

/* The syscalls the defences look at, per ABI (-1 = absent there). */
enum sw_def_sys {
	SW_SYS_CLONE,
	SW_SYS_KILL,
	SW_SYS_TKILL,
	SW_SYS_TGKILL,
	SW_SYS_PIDFD_OPEN,
	SW_SYS_RT_SIGQUEUEINFO,
	SW_SYS_RT_TGSIGQUEUEINFO,
	SW_SYS_EXIT,
	SW_SYS_SOCKETCALL,
	/* signals.c: calls that aim a signal, or set who gets one */
	SW_SYS_PIDFD_SEND_SIGNAL,
	SW_SYS_SETPGID,
	SW_SYS_FCNTL,
	SW_SYS_FCNTL64,
	SW_SYS_IOCTL,
	/* reach.c: calls that change another process by pid, group or uid */
	SW_SYS_PRLIMIT64,
	SW_SYS_SETPRIORITY,
	SW_SYS_IOPRIO_SET,
	SW_SYS_SCHED_SETSCHEDULER,
	SW_SYS_SCHED_SETPARAM,
	SW_SYS_SCHED_SETATTR,
	SW_SYS_SCHED_SETAFFINITY,
	/* objects.c: calls on the uid's kernel objects; resultcheck.c's
	 * injected close */
	SW_SYS_CLOSE,
	SW_SYS_OPEN,
	SW_SYS_OPENAT,
	SW_SYS_CREAT,
	SW_SYS_OPENAT2,
	SW_SYS_OPEN_BY_HANDLE_AT,
	SW_SYS_SHMGET,
	SW_SYS_SHMAT,
	SW_SYS_SHMCTL,
	SW_SYS_SEMGET,
	SW_SYS_SEMOP,
	SW_SYS_SEMTIMEDOP,
	SW_SYS_SEMTIMEDOP_TIME64,
	SW_SYS_SEMCTL,
	SW_SYS_MSGGET,
	SW_SYS_MSGSND,
	SW_SYS_MSGRCV,
	SW_SYS_MSGCTL,
	SW_SYS_IPC,
	SW_SYS_MQ_OPEN,
	SW_SYS_MQ_UNLINK,
	SW_SYS_MQ_TIMEDSEND,
	SW_SYS_MQ_TIMEDSEND_TIME64,
	SW_SYS_MQ_TIMEDRECEIVE,
	SW_SYS_MQ_TIMEDRECEIVE_TIME64,
	SW_SYS_MQ_NOTIFY,
	SW_SYS_MQ_GETSETATTR,
	SW_SYS_KEYCTL,
	SW_SYS_ADD_KEY,
	SW_SYS_REQUEST_KEY,
	SW_SYS_UNSHARE,
	SW_SYS_SETNS,
	/* peers.c: a unix connection's peer, a session's listeners */
	SW_SYS_CONNECT,
	SW_SYS_LISTEN,
	/* linegate.c: the program's writes to its standard error */
	SW_SYS_WRITE,
	SW_SYS_WRITEV,
	SW_SYS_PWRITE64,
	SW_SYS_PWRITEV,
	SW_SYS_PWRITEV2,
	SW_SYS_COUNT,
};

/*
 * The built-in defences that refuse a call: calls that reach past seccomp
 * and the supervisor (io_uring's operations, a descriptor taken from
 * another process), that can stop the supervisor itself (a userfaultfd
 * that blocks its reads of the program's memory), or that would let the
 * program act outside its sandbox (ptrace, process_vm_writev, seccomp
 * listeners, TIOCSTI; clone3 for the flags we cannot see).  One table, in
 * program.c, for the filter (filter.c), the supervisor's second look
 * (decide.c) and the policy's opt-ins (program.c): a call whose
 * conditions all hold, at the width the kernel reads them, fails with
 * err.  The defences that send a call to the supervisor instead (signals,
 * CLONE_UNTRACED) are checked there.
 */
struct sw_denial {
	unsigned int defence;		/* SW_DEFENCE_* */
	const char *name;
	size_t n_args;
	struct sw_arg_cond args[2];
	int err;
	const char *why;
	const char *route;		/* its route in docs/security.md */
	const char *opt_in;		/* how a policy turns it off, or NULL */
};
#define SW_DENIAL_COUNT 11
extern const struct sw_denial sw_denials[SW_DENIAL_COUNT];

/*
 * Who decides the calls the policy refuses (its errno, kill and trap
 * rules, its default action): the one switch filter.c reads.
 *   SW_REFUSALS_KERNEL   the filter, with no stop (the fast path);
 *   SW_REFUSALS_SEEN     errno refusals stop at the supervisor, which
 *                        refuses them alike and logs them (an audit
 *                        log is kept); kill and trap stay the kernel's,
 *                        and the built-in defences' refusals too;
 *   SW_REFUSALS_RECORDED a record is kept (--report, --gate, learn):
 *                        every refusal stops so that it is counted --
 *                        errno, kill and trap rules, the built-in
 *                        defences; the supervisor refuses each alike,
 *                        a kill the filter would have made through the
 *                        kernel itself (sw_filter_kernel_kill_nr), a
 *                        trap with its own SIGSYS;
 *   SW_REFUSALS_COMPLAIN every refusal stops, the built-in defences'
 *                        too, so that complain mode sees each one
 *                        (actions.c lets the policy's run, and keeps
 *                        the defences').
 * Set by prepare.c from the launch, before the filters are built.
 */
enum sw_refusals {
	SW_REFUSALS_KERNEL,
	SW_REFUSALS_SEEN,
	SW_REFUSALS_RECORDED,
	SW_REFUSALS_COMPLAIN,
};

struct sw_prog_rule {
	const struct sw_rule *rule;
	bool applies;			/* includes/excludes hold */
	bool traced;			/* needs the supervisor */
	bool landlock;			/* the kernel's Landlock decides it
					 * (pathrules.c): applies is false */
	int *nrs[SW_ABI_COUNT];		/* names resolved per ABI, -1 absent */
	int new_nr[SW_ABI_COUNT];	/* rewrite target, -1 = keep/absent */
	/* masks[abi][k * 6 + index]: the bits of argument `index` of the
	 * k-th name the kernel reads on that ABI (sw_arg_mask). */
	uint64_t *masks[SW_ABI_COUNT];
	/* kinds[abi][k * 6 + index]: what a "paths" condition reads there
	 * (enum sw_arg_kind), and for SW_ARG_SOCKADDR the argument of its
	 * length in the high four bits (sysward/pathargs.h). */
	uint8_t *kinds[SW_ABI_COUNT];
};

struct sw_program {
	const struct sw_policy *policy;
	struct sw_policy_ctx ctx;
	bool abi_enabled[SW_ABI_COUNT];
	unsigned int defences;		/* SW_DEFENCE_* in force */
	unsigned int contained;		/* SW_CONTAINED_*: the launch's own views */
	bool fs_complain;		/* complain mode over the kernel's file
					 * rules: every open stops, judged at
					 * its exit (fscomplain.c) */
	bool excl_creates_new;		/* the program can never be uid 0: an
					 * exclusive create needs no check
					 * (filter.c, objects.c) */
	bool observe_stderr;		/* writes to descriptor 2 stop for the
					 * audit's line gate (linegate.c) */
	pid_t supervisor_pid;		/* for SW_DEFENCE_SIGNAL_SUPERVISOR */
	int sys[SW_ABI_COUNT][SW_SYS_COUNT];
	uint64_t sys_mask[SW_ABI_COUNT][SW_SYS_COUNT][6];
	/* sw_denials[i]'s syscall number and argument masks per ABI */
	int denial_nr[SW_ABI_COUNT][SW_DENIAL_COUNT];
	uint64_t denial_mask[SW_ABI_COUNT][SW_DENIAL_COUNT][6];
	/* first[abi][nr]: the first applicable rule naming nr, or
	 * SW_HINT_NONE (nr with the x32 bit removed, < SW_NR_SPAN). */
	uint16_t *first[SW_ABI_COUNT];
	size_t n_rules;
	struct sw_prog_rule *rules;
	bool needs_supervisor;		/* a policy rule (not a defence) traces */
	bool restricts;			/* policy is not "allow everything" */
	/* enosys_above[abi]: calls of this ABI with a greater number get
	 * ENOSYS (sw_prog_enosys); 0: no such rule on this ABI */
	uint32_t enosys_above[SW_ABI_COUNT];
	enum sw_refusals refusals;	/* who decides a refusal (filter.c) */
	bool needs_landlock_paths;	/* "paths" rules Landlock decides */
	/* The launch can answer sw_notif_rule()'s rules through a seccomp
	 * listener (notif.c): filter.c compiles them to USER_NOTIF. */
	bool listener;
	const char *no_listener_why;	/* why not (prepare.c), or NULL */
};

/*
 * Build the program for a policy in a launch context.  abis: the ABIs to
 * filter (NULL-free bool array) or NULL for the policy's "architectures"
 * (default: every x86 ABI).  defences_off: SW_DEFENCE_* to leave out.
 */
int sw_program_new(struct sw_program **ret, const struct sw_policy *p,
		   const struct sw_policy_ctx *ctx, unsigned int defences_off,
		   pid_t supervisor_pid, struct sw_error *err);
void sw_program_free(struct sw_program *prog);
struct sw_pathrules;
/* The rules the launch compiled to Landlock (pathrules.c) leave the
 * program: the filter and the stops no longer see them. */
void sw_program_landlock_rules(struct sw_program *prog, const struct sw_pathrules *lr);
/* sw_prepared_overridden() for one compiled program. */
void sw_program_overridden(const struct sw_program *prog,
			   sw_overridden_fn fn, void *ud);

/* Does rule i name syscall nr on this ABI? */
bool sw_prog_rule_names(const struct sw_program *prog, size_t i,
			enum sw_abi abi, uint64_t nr);
/* Which of rule i's names is syscall nr on this ABI (its index), or -1. */
int sw_prog_rule_name_at(const struct sw_program *prog, size_t i,
			 enum sw_abi abi, uint64_t nr);
/*
 * Calls newer than every call the policy names fail with ENOSYS, as under
 * runc (libcontainer/seccomp/patchbpf): a program that tries a new call
 * first (glibc, Go, Rust) then falls back to an old one instead of taking
 * the default's EPERM for a refusal.  The rule, per ABI: when the default
 * action does not allow (SCMP_ACT_ERRNO other than ENOSYS, a kill, a
 * trap), a call whose number is above the greatest number an applicable
 * rule names on that ABI gets ENOSYS, whatever the rest of the policy;
 * an ABI on which the policy names nothing has no such rule.  Unlike
 * runc, a call that one of sysward's refusals in force covers
 * (sw_denials: io_uring_*, pidfd_getfd, ...) keeps that refusal.
 * The filter (sw_filter_add_enosys) and the supervisor ask this.
 */
bool sw_prog_enosys(const struct sw_program *prog, enum sw_abi abi, uint64_t nr);
/* Does one of the refusals in force (sw_denials) cover syscall nr on this
 * ABI, under some arguments? */
bool sw_prog_denies_nr(const struct sw_program *prog, enum sw_abi abi, uint64_t nr);
/* The first applicable rule naming nr on this ABI, or SW_HINT_NONE. */
unsigned int sw_prog_first_rule(const struct sw_program *prog, enum sw_abi abi,
				uint64_t nr);
/* The bits of argument `index` of syscall `name` that the kernel reads on
 * this ABI: the argument's type (sw_syscall_arg_mask) within the ABI's
 * register width.  The one rule for filter.c and decide.c alike. */
uint64_t sw_arg_mask(enum sw_abi abi, const char *name, unsigned int index);
/* sw_arg_mask() of the six arguments at once, into ret. */
void sw_arg_masks(enum sw_abi abi, const char *name, uint64_t ret[6]);

/* ---- filter.c ------------------------------------------------------- */

/* Opaque libseccomp context (scmp_filter_ctx).  The policy's filter: */
/* The action the policy's filter gives rule i's calls where no other
 * rule of the syscall mixes in: a plain action, USER_NOTIF for a rule
 * the listener answers (notif.c), or TRACE(hint). */
uint32_t sw_filter_rule_act(const struct sw_program *prog, size_t i,
			    unsigned int hint);
int sw_filter_build(const struct sw_program *prog, void **ret_ctx,
		    struct sw_error *err);
/* The built-in defences, a filter of their own loaded before the
 * policy's (see filter.c for why that order). */
int sw_filter_build_defences(const struct sw_program *prog, void **ret_ctx,
			     struct sw_error *err);
void sw_filter_free(void *ctx);
/* Export as classic BPF into a malloc'ed array of struct sock_filter. */
/* Put the ENOSYS rule (sw_prog_enosys) in front of the policy's exported
 * filter; nothing if it has none.  0 or -errno. */
int sw_filter_add_enosys(const struct sw_program *prog, void **insns, size_t *n,
			 struct sw_error *err);
/* Put the n_pre instructions at pre in front of the BPF program *insns
 * (*n of them), as a prefix that falls through to it; what names the
 * prefix in err.  0 or -errno (E2BIG past the kernel's limit). */
int sw_filter_prepend(void **insns, size_t *n, const void *pre, size_t n_pre,
		      const char *what, struct sw_error *err);
/* At the SECCOMP stop of a call decision d kills: where the refusals
 * are seen and the filter alone would have killed it, the number to set
 * the call to so that the kernel kills it on its recheck after the stop,
 * as it would have without the stop (SIGSYS; the prefix of
 * sw_filter_add_enosys answers it); else 0: kill it some other way. */
struct sw_decision;
uint32_t sw_filter_kernel_kill_nr(const struct sw_program *prog,
				  const struct sw_decision *d);
int sw_filter_export(void *ctx, void **ret_insns, size_t *ret_n,
		     struct sw_error *err);

/* ---- decide.c ------------------------------------------------------- */

enum sw_verdict {
	SW_V_ALLOW,		/* run unchanged */
	SW_V_RETURN,		/* do not run; return retval */
	SW_V_REWRITE,		/* run nr(args) instead */
	SW_V_KILL,		/* SIGKILL the process */
};

struct sw_decision {
	enum sw_verdict verdict;
	int rule;			/* index, SW_RULE_DEFAULT/_DEFENCE */
	enum sw_action action;		/* what the rule said */
	int64_t retval;			/* SW_V_RETURN: -errno or a value */
	bool is_error;			/* retval is -errno */
	uint64_t nr;			/* SW_V_REWRITE (also filled else) */
	uint64_t args[6];
	bool audit;			/* write an audit line */
	int signal;			/* SW_V_RETURN + raise this (TRAP) */
	const char *path;		/* a string read for a condition */
	const char *why;		/* defence name, or NULL */
	uint8_t pinned;			/* args the path guard replaced */
	/* The policy itself refuses the call: its rule's (or default)
	 * action is errno, kill or trap (not a defence, not a fail-closed
	 * case).  Complain mode lets exactly these run. */
	bool refusal;
	bool lifted;			/* complain mode let it run */
};

/*
 * What a "paths" condition reads at an argument (sysward/pathargs.h says
 * which kind each argument is): the path name at addr, or a unix socket
 * address -- a sockaddr of len bytes at addr (len: its length argument,
 * the kernel's int), or a msghdr at addr laid out as abi's, whose
 * msg_name is the address.
 */
struct sw_arg_read {
	uint8_t kind;		/* enum sw_arg_kind; SW_ARG_NONE: a string */
	enum sw_abi abi;
	uint64_t addr;
	int64_t len;		/* SW_ARG_SOCKADDR */
};

/* Reads what a condition sees at an argument, spelled into buf (size >
 * SW_UNIX_ADDR_MAX): its length (truncated to size-1); -ENODATA for no
 * unix address (another family, NULL, a length the kernel refuses),
 * which meets no condition; or -errno. */
typedef int (*sw_read_arg_fn)(void *ctx, const struct sw_arg_read *a,
			      char *buf, size_t size);

/* Scratch a decision may keep path strings in (one per path condition
 * checked last; reused from stop to stop, no allocation). */
struct sw_decide_scratch {
	char path[4096];
};

/*
 * The supervisor's decision for one SECCOMP stop: pure apart from the
 * string reader and the per-rule counters (one per rule, counting calls
 * that met the rule's other conditions).  It takes no TRACE data: that is
 * the program's to forge (see decide.c).
 */
void sw_decide(const struct sw_program *prog, uint32_t audit_arch, uint64_t nr, const uint64_t args[6],
	       sw_read_arg_fn read_arg, void *read_ctx, uint32_t *counters,
	       struct sw_decide_scratch *scratch, struct sw_decision *ret);

/*
 * Complain mode, at a stop whose decision is a refusal by the policy
 * (d->refusal): let the call run as if allowed -- as called, or with
 * what the decision changed on the way (a stripped CLONE_UNTRACED) --
 * and mark it lifted.  What the policy says stays decide's to say; this
 * only changes what is done with a refusal.  nr and args: the call as
 * the program made it.  False (d untouched) for any other decision.
 */
bool sw_decision_lift(struct sw_decision *d, uint64_t nr,
		      const uint64_t args[6]);

/* Does a strace-style when=first..last+step select call number n (1-based)? */
bool sw_when_selects(uint32_t first, uint32_t last, uint32_t step,
		     uint32_t n);

/* ---- strings.c ------------------------------------------------------ */

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

/* ---- audit.c -------------------------------------------------------- */

/* s is well-formed UTF-8 (what a JSON string can carry exactly: the
 * audit log's and a learned policy's rule). */
bool sw_utf8_valid(const char *s);

/* The string arguments of a call whose audit line waits for its exit
 * stop, read at its entry: an execve that succeeds has replaced the
 * memory they were in by then, and another thread may rewrite them
 * meanwhile.  Bit i of kept: s[i] stands for argument i (NULL: it could
 * not be read). */
struct sw_audit_strings {
	uint8_t kept;
	char *s[6];
};

static inline void sw_audit_strings_clear(struct sw_audit_strings *k)
{
	for (int i = 0; i < 6; i++)
		free(k->s[i]);
	memset(k, 0, sizeof(*k));
}

void sw_audit_strings_keep(struct sw_audit_strings *k, pid_t pid,
			   enum sw_abi abi, uint64_t nr, const uint64_t args[6]);

struct sw_audit_rec {
	uint64_t session_id;
	pid_t pid;
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	const struct sw_decision *d;
	const struct sw_program *prog;
	bool has_result;
	int64_t result;			/* the return value the program saw */
	const char *error;		/* tampering failure, or NULL */
	const struct sw_audit_strings *kept;	/* or NULL: read them now */
};

/* A plain allow: the call runs as the program made it (a path guard's
 * pinned copy aside), by no LOG or audit rule, no would-be refusal, no
 * failed tampering.  Its line is written only when the session asks
 * for those (sw_launch.audit_allows). */
bool sw_audit_plain_allow(const struct sw_audit_rec *r);
/* linegate.c: at a seccomp stop of a session with a line gate, is the
 * call a write the gate stops (to descriptor 1 or 2)?  If it writes to
 * our log's file, the gate learns whether it ends a line (read from the
 * tracee). */
struct sw_session;
bool sw_line_gate_observe(struct sw_session *s, pid_t pid, enum sw_abi abi,
			  uint64_t nr, const uint64_t args[6]);
int sw_audit_write(FILE *f, enum sw_log_format fmt,
		   const struct sw_audit_rec *r);

/* ---- session.c, tracer.c, launch.c, actions.c --------------------------- */

enum sw_tracee_state {
	SW_T_RUNNING,
	SW_T_FRESH,		/* known from the parent's event; its first
				 * stop (PTRACE_EVENT_STOP) is still due */
	SW_T_ORPHAN,		/* first stop seen, session unknown: kept
				 * stopped until its parent's event names it */
};

struct sw_guard;
struct sw_guard_setup;

/* Path guard (pathguard.c) state of a tracee's process image. */
enum {
	SW_GUARD_UNKNOWN,
	SW_GUARD_MAPPED,	/* mapped and sealed in this tracee's mm */
	SW_GUARD_NONE,		/* i386 image: no guard (documented limit) */
	SW_GUARD_INHERITED,	/* from a parent or thread; this mm unchecked */
	SW_GUARD_LOST,		/* this mm has no intact guard: fail closed */
};

/* A call in flight: what the kernel said of it at its SECCOMP stop
 * (PTRACE_GET_SYSCALL_INFO's op SECCOMP; ptrace_get_syscall_info_seccomp()
 * in kernel/ptrace.c), its ABI derived once. */
struct sw_call {
	uint32_t arch;			/* AUDIT_ARCH_* */
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	uint64_t ip;			/* instruction pointer */
};

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

/* A tid that exited before its parent's creation event was handled:
 * that event consumes it instead of adding a tracee that is gone. */
struct sw_tomb {
	pid_t pid;
	struct sw_session *s;	/* NULL: the session was unknown */
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
	bool rc_replay;		/* a hold ended: sw_rc_replay() is due */
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

struct sw_tracee *sw_tracee_find(struct sw_supervisor *sup, pid_t pid);
struct sw_tracee *sw_tracee_add(struct sw_supervisor *sup, pid_t pid);
/* A seized main process and its session join the supervisor: the one
 * place a session enters the tables (launch.c's seize(); the event-order
 * unit test builds its sessions with it).  -ENOMEM, or 0. */
int sw_session_attach(struct sw_supervisor *sup, struct sw_session *s, pid_t pid);
void sw_tracee_del(struct sw_supervisor *sup, struct sw_tracee *t);
/* tracer.c: the session of a tid whose creation event has not been seen,
 * from /proc (its thread group, else its parent): NULL if none; what the
 * record says that one runs in *ret_prog. */
struct sw_session *sw_session_from_proc(struct sw_supervisor *sup, pid_t pid,
					uint16_t *ret_prog);
/* bell.c: true if pid is the bell (its status is handled): a wake, its
 * alarm ringing or being armed. */
bool sw_bell_status(struct sw_supervisor *sup, pid_t pid, int status);
/* bell.c: ring this tracer thread in about SW_BELL_ALARM_MS (the bell
 * started here if it was not; one alarm at a time). */
#define SW_BELL_ALARM_MS	20
void sw_bell_alarm(struct sw_supervisor *sup);
void sw_bell_stop(struct sw_supervisor *sup);
/* The one teardown of a session the supervisor no longer lists. */
void sw_session_free(struct sw_session *s);
/* Handle one waitpid status. */
void sw_handle_status(struct sw_supervisor *sup, pid_t pid, int status);
/*
 * What a stop handler wants done with its tracee: strace's {restart_op,
 * restart_sig}.  Handlers return it; the dispatcher (tracer.c) makes it
 * in one place, sw_restart(), which is the only code that resumes a
 * tracee (also a tracee other than the one whose stop is handled: a
 * hold's holder let go, an orphan adopted).
 */
enum sw_resume_op {
	SW_RESUME_CONT,		/* PTRACE_CONT */
	SW_RESUME_SYSCALL,	/* PTRACE_SYSCALL: its next syscall stop comes */
	SW_RESUME_LISTEN,	/* PTRACE_LISTEN: a group-stop, SIGCONT re-traps */
	SW_RESUME_HELD,		/* stays stopped: held, an orphan, or resumed
				 * by a later event (a hold's end) */
	SW_RESUME_NONE,		/* killed (or found dead): its exit comes */
};

struct sw_resume {
	enum sw_resume_op op;
	int sig;		/* CONT, SYSCALL: the signal delivered */
};

#define SW_RESUME(o, s)	((struct sw_resume){ .op = (o), .sig = (s) })
#define SW_CONT(s)	SW_RESUME(SW_RESUME_CONT, (s))
#define SW_SYSCALL(s)	SW_RESUME(SW_RESUME_SYSCALL, (s))
#define SW_LISTEN	SW_RESUME(SW_RESUME_LISTEN, 0)
#define SW_HELD		SW_RESUME(SW_RESUME_HELD, 0)
#define SW_DEAD		SW_RESUME(SW_RESUME_NONE, 0)
/* A plan dropped is a tracee left stopped for good: the compiler says so. */
#define SW_PLAN		__attribute__((warn_unused_result)) struct sw_resume

/* On, to the exit stop its SECCOMP stop asked for (t->exit_pending) or
 * further, delivering sig. */
SW_PLAN sw_resume_on(const struct sw_tracee *t, int sig);
/*
 * Make plan r for t (stopped): the one place a tracee is resumed.  0 (HELD
 * and NONE: nothing to do); -ESRCH if it was killed meanwhile (its exit
 * comes through waitpid); any other failure is warned about and the
 * tracee killed: left stopped it would hold its session forever.
 */
int sw_restart(struct sw_tracee *t, struct sw_resume r);
/* At a PTRACE_EVENT_STOP of t with signal sig: a group-stop (a stop
 * signal) stays stopped, as unconfined, but listening, so that SIGCONT
 * re-traps it: SW_LISTEN.  Any other (SIGCONT's re-trap, an interrupt):
 * other, the caller's way on. */
SW_PLAN sw_group_stop(struct sw_tracee *t, int sig,
		      struct sw_resume other);
void sw_warn(struct sw_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The session's main process died before exec: fill s->launch_err from
 * the child's report and return the exit code (launchreport.c). */
int sw_launch_failed(struct sw_session *s);

/* actions.c: at a SECCOMP stop of t (stopped): capture the call, decide,
 * pin, contain, record, apply; what to do with t. */
SW_PLAN sw_seccomp_stop(struct sw_supervisor *sup, struct sw_tracee *t);
/* actions.c: at a syscall-exit stop; what to do with t. */
SW_PLAN sw_exit_stop(struct sw_supervisor *sup, struct sw_tracee *t);
/* actions.c: at the delivery stop of a SIGSYS, before it is delivered:
 * if it is a trap the supervisor raised, make its siginfo and registers
 * the kernel's. */
void sw_trap_signal_stop(struct sw_tracee *t);

/* ---- fscomplain.c: complain mode over the kernel's file rules ---------- */

/* Does session s judge its file rules itself (complain mode over a
 * policy's "filesystem" section or --sandbox)? */
bool sw_fscomplain_on(const struct sw_session *s);
/* At the exit stop of t's open that can write (resultcheck.c), before
 * objects.c's verdict: judge what it opened against the file rules,
 * audit a refusal they would make, and record the call (its SECCOMP
 * stop left that to here). */
void sw_fscomplain_open(struct sw_supervisor *sup, struct sw_tracee *t,
			const struct sw_rc *rc, int64_t rval);

/* ---- record.c: what a session's calls came to ------------------------- */

/* paths: keep the paths calls named too (sysward learn --paths). */
struct sw_record *sw_record_new(bool complain, bool paths);
/* Keep what the calls reached on the file system and the TCP ports
 * (sysward learn --filesystem; recfiles.c). */
void sw_record_keep_files(struct sw_record *r);
/* The bytes r holds (its tables as they have grown, its samples). */
size_t sw_record_bytes(const struct sw_record *r);
/* The outcome of a final decision (after the defences' containment). */
enum sw_outcome sw_outcome_of(const struct sw_decision *d);
/* Count one supervised call of t (abi, nr, args as the program made it)
 * whose final decision is d (d->path: the string a path condition read,
 * if any; else the report reads the first path argument itself). */
void sw_record_call(struct sw_record *r, struct sw_tracee *t, enum sw_abi abi,
		    uint64_t nr, const uint64_t args[6],
		    const struct sw_decision *d);
/* A new process or thread of the session (fork, clone, the main one). */
void sw_record_task(struct sw_record *r);
/* t executed the program at its /proc/<pid>/exe: t->rec_prog. */
void sw_record_exec(struct sw_record *r, struct sw_tracee *t);

/* ---- pathguard.c: race-free path conditions ------------------------- */

/* Where the read-only copies of checked strings live in every tracee. */
#define SW_GUARD_ADDR		0xa5e00000ull
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

/* ---- execguard.c: exec path rules hold for the file executed ---------- */

struct sw_execguard;
/* At PTRACE_EVENT_EXEC of t: decide the file the kernel executes
 * (/proc/<pid>/exe) by the policy's execve/execveat path rules, as the
 * exec call t made; true if that refuses it and t was killed (with a
 * warning and an audit line), else false: go on as usual. */
bool sw_execguard_exec(struct sw_supervisor *sup, struct sw_tracee *t);
void sw_execguard_free(struct sw_execguard *eg);
/*
 * The pure part: the decision for the exec call (abi, nr, args) of a file
 * with n_names names (its real path first), each put in argument
 * path_arg in turn: the first rule in policy order that holds for one of
 * them (the default if none).  *ret_name: which name it held for.
 */
void sw_execguard_decide(const struct sw_program *prog, enum sw_abi abi,
			 uint64_t nr, const uint64_t args[6],
			 unsigned int path_arg, const char *const *names,
			 size_t n_names, struct sw_decide_scratch *scratch,
			 struct sw_decision *ret, size_t *ret_name);

/* ---- signals.c: signals stay inside the program's tree ---------------- */

/*
 * At a SECCOMP stop whose decision lets a call run (d->verdict ALLOW or
 * REWRITE): if the call as it will run sends a signal, or names who gets
 * one later (kill family, pidfd_*, setpgid, F_SETOWN, FIOSETOWN), keep
 * it inside t's session: refuse it (SW_V_RETURN) or rewrite it to a
 * form whose target the supervisor checked (SW_V_REWRITE).
 */
void sw_signals_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d);

/* ---- reach.c: what a session's program may act on --------------------- */

/* The kernel's reading of a pid_t or int argument: the low 32 bits. */
static inline int32_t sw_as_int(uint64_t v)
{
	return (int32_t)(uint32_t)v;
}

/* How a call names its target: a process (tid), a process group, or
 * every process of a uid. */
enum sw_pid_form { SW_PID_PROCESS, SW_PID_PGRP, SW_PID_USER };

/*
 * The calls that change (or read) another process by pid, group or uid
 * with only a uid match for permission (SW_DEFENCE_PID_CALLS; reach.c
 * lists the kernel's check of each).  One table: filter.c traces a call
 * whose target argument is not 0 (the caller itself) or whose "which"
 * says a uid; sw_reach_contain() checks the target at the stop.
 */
struct sw_pid_call {
	enum sw_def_sys sys;
	const char *name;
	unsigned int target;		/* index of the pid/pgid/uid argument */
	int which;			/* index of the argument saying which
					 * form, or -1: always a process */
	int which_val[3];		/* its value for each enum sw_pid_form */
};
#define SW_PID_CALL_COUNT 7
extern const struct sw_pid_call sw_pid_calls[SW_PID_CALL_COUNT];

/* Is pid, as caller numbers it (0: as the supervisor does), a tracee of
 * s?  Is process group pgid one a tracee of s is in (so one of s's)? */
bool sw_reach_pid(struct sw_supervisor *sup, struct sw_session *s,
		  pid_t caller, int32_t pid);
int sw_reach_refusal(pid_t caller, int32_t id);
/* At a signal-delivery stop of t by a job-control signal: was it sent
 * by a process outside t's job (neither the terminal, nor the
 * supervisor forwarding its caller's, nor the session itself)? */
bool sw_stop_from_outside(struct sw_supervisor *sup, struct sw_tracee *t);
/* tracer.c: a signal was sent to the session on request (run.c). */
void sw_session_mark_signalled(struct sw_session *s);
bool sw_reach_group(struct sw_supervisor *sup, struct sw_session *s,
		    pid_t caller, int32_t pgid);
/* Does caller, caller_depth pid namespaces deep, see pid (is pid's
 * namespace at that depth the caller's)? */
bool sw_reach_sees(pid_t caller, int caller_depth, pid_t pid);
/* How many pid namespaces deep pid is ("NSpid" entries), or -1. */
int sw_reach_ns_depth(pid_t pid);
/* A number of a /proc file's field ("Tgid", "flags"; index > 0: of a
 * list, "NSpid"), or false. */
bool sw_reach_proc_field(const char *path, const char *key, int base,
			 unsigned int index, long *ret);
/* Make d a refusal by a defence: -e, with why for the audit line. */
void sw_refuse(struct sw_decision *d, int e, const char *why);
/*
 * At a SECCOMP stop whose decision lets a call run: if it is one of
 * sw_pid_calls[] and its target is not the caller's session (a process
 * outside it, a group outside it, every process of a uid), refuse it
 * with EPERM.
 */
void sw_reach_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d);

/* ---- objects.c: the uid's kernel objects outside the session ------------ */

/* The defences (SW_DEFENCE_*) a launch needs no supervisor for, from the
 * views it contains by namespaces of its own (SW_CONTAINED_*): the one
 * switch.  prepare.c adds them to the launch's defences_off. */
unsigned int sw_objects_defences_off(unsigned int contained);
/* The file system tid's descriptor fd is on (its statfs magic) and the
 * file's device, inode and mode, found without a call into that file
 * system where the kernel allows (6.8+; see objects.c).  -ENOENT: its
 * mount is in no namespace the supervisor can name. */
int sw_fd_fs(pid_t tid, int fd, unsigned long *ret_magic, struct stat *ret_st);
/* Is a file system of this magic served by a process (FUSE), which may
 * be the program, so that no supervisor may call into it? */
bool sw_fs_served_by_user(unsigned long magic);

/* The keyrings a session's program must not reach besides @u and @us by
 * their special ids: user, user session and persistent, by serial (0:
 * none), as its launch child learned them. */
#define SW_OBJECTS_KEYRINGS	3

struct sw_objects;
struct sw_objects *sw_objects_new(void);
void sw_objects_free(struct sw_objects *o);
void sw_objects_set_keyrings(struct sw_objects *o,
			     const int32_t serials[SW_OBJECTS_KEYRINGS]);
/* The session's main process pid was seized, before its exec: its IPC
 * namespace is the one the session's bookkeeping is for. */
void sw_objects_launched(struct sw_objects *o, pid_t pid);

/*
 * At a SECCOMP stop whose decision lets a call run (d->verdict ALLOW or
 * REWRITE), after the other containments: refuse a call that names an
 * object of the uid's outside the session (a keyring, an IPC id), cut a
 * request_key upcall, make a get exclusive, and ask resultcheck.c to
 * check what the call returns (sw_rc_want: an open that can write, a
 * get, mq_open).
 */
void sw_objects_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d);

/* ---- resultcheck.c: a call decided on what it returns ------------------- */

enum sw_rc_kind {
	SW_RC_OPEN,		/* an open that can write: its descriptor */
	SW_RC_MQ_OPEN,		/* mq_open: the queue of its descriptor */
	SW_RC_IPC_GET,		/* shmget, semget, msgget: the id */
	SW_RC_IPC_RMID,		/* a removal: the id is gone */
};

/* A checked call of a tracee (t->rc), from its SECCOMP stop to the end
 * of what resultcheck.c injects after it. */
/* A message queue's name as objects.c reads it: NAME_MAX and its NUL. */
#define SW_MQ_NAME_MAX	256

struct sw_rc {
	uint8_t kind;		/* enum sw_rc_kind */
	uint8_t step;		/* resultcheck.c's */
	bool entered;		/* an injected call's entry stop seen */
	bool mask_saved;	/* sigmask holds the program's signal mask */
	uint8_t injected;	/* what runs now: close, or the call again */
	uint8_t tries;
	/* what objects.c wants remembered */
	uint8_t ipc;		/* SysV kind */
	int8_t flags_arg;	/* which argument holds the flags (-1 none,
				 * -2 in memory) */
	bool created;		/* success means the object was made now */
	bool forced;		/* an exclusive create we asked for */
	bool existed;		/* ... whose key or name named an object at
				 * the stop */
	bool read_only;		/* an open that cannot write, stopped for
				 * complain mode's file rules alone */
	uint64_t orig_flags;	/* the program's own */
	uint32_t id;		/* IPC_RMID's id; a System V get's key */
	char mq_name[SW_MQ_NAME_MAX];	/* an mq_open made exclusive: its name */
	/* the call as it runs */
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	/* at the call's exit stop */
	struct sw_arch_regs r0;
	uint64_t sigmask;
	int64_t value;		/* what the call returns in the end */
	int fd;			/* a descriptor being closed */
	long long since_ms;	/* when it was let run under a hold */
	const char *why;
};

/* What to do with a checked call's result: objects.c decides,
 * resultcheck.c does it. */
enum sw_rc_next {
	SW_RC_KEEP,		/* the result stands */
	SW_RC_RETURN,		/* the call returns out->value instead */
	SW_RC_CLOSE,		/* close out->fd in the tracee, then return
				 * out->value */
	SW_RC_INJECT,		/* run out->nr(out->args) in the tracee, then
				 * decide again on its result */
};

struct sw_rc_out {
	int64_t value;
	int fd;
	uint64_t nr;
	uint64_t args[6];
	const char *why;
};

enum sw_rc_next sw_objects_result(struct sw_supervisor *sup, struct sw_tracee *t,
				  struct sw_rc *rc, int64_t rval,
				  struct sw_rc_out *out);

/* At a SECCOMP stop, for a call about to run as d says: check what it
 * returns.  t->rc is set (0), or -ENOMEM. */
int sw_rc_want(struct sw_tracee *t, uint8_t kind, enum sw_abi abi,
	       const struct sw_decision *d);
/* From the SECCOMP stop of t's checked call, to its exit stop: at once
 * (SW_SYSCALL), or for a call that returns a descriptor once every other
 * task sharing t's descriptor table is stopped (SW_HELD: the last of
 * their stops lets t go; they are held until the result is decided). */
SW_PLAN sw_rc_go(struct sw_supervisor *sup, struct sw_tracee *t);
/* A syscall stop (entry or exit) of t while t->rc is set: true if handled
 * here, *plan what to do with t (SW_DEAD: killed). */
bool sw_rc_syscall_stop(struct sw_supervisor *sup, struct sw_tracee *t,
			struct sw_resume *plan);
/* A SECCOMP stop of t while it runs a call injected here: true if
 * handled (it is ours: let through, *plan). */
bool sw_rc_seccomp_stop(struct sw_tracee *t, struct sw_resume *plan);
/* tracer.c, for each status while some session is held: true if the
 * status is kept for later (a stop of a tracee of a held session other
 * than its holder, or the first stop of a new tid of one). */
bool sw_rc_hold_status(struct sw_supervisor *sup, pid_t pid, int status);
/* t goes (exited, or replaced by a multithreaded exec's thread): its
 * checked call and any hold it made end with it. */
void sw_rc_forget(struct sw_supervisor *sup, struct sw_tracee *t);
/* A creation event: does the child share its creator's descriptor table
 * as another process (clone(CLONE_FILES) without CLONE_THREAD)? */
void sw_rc_new_child(struct sw_supervisor *sup, struct sw_session *s,
		     pid_t parent, pid_t child, int ev);
/* After a status that ended a hold (sup->rc_replay): the stops it kept,
 * handled now. */
void sw_rc_replay(struct sw_supervisor *sup);
/* The dispatch loop, every millisecond while a session is held: a hold
 * whose call waits for a partner on a FIFO (which no write to a kernel
 * object does) is let go. */
void sw_rc_tick(struct sw_supervisor *sup);
/* ---- peers.c: unix peers outside the session (route 19) ---------------- */

struct sw_peer_check;
struct sw_peers;
struct sw_ptrace_syscall_info;

/* Where a tracee stands while a connect of its session holds the others
 * (struct sw_tracee's hold). */
enum sw_hold {
	SW_HOLD_NONE,
	SW_HOLD_WAIT,		/* interrupted; its stop is awaited */
	SW_HOLD_QUIET,		/* runs no code of the program before a stop
				 * (a first stop due, a group-stop, a call
				 * that sends nothing): not awaited */
	SW_HOLD_HELD,		/* stopped; its stop kept in held_status */
	SW_HOLD_REPLAY,		/* released: its stop is handled next */
};

/*
 * At a SECCOMP stop of i386's socketcall(2) carrying connect or listen:
 * the call as its direct form, with the arguments read from memory
 * once, into info (the decision then runs it as that, SET).  True if
 * it did.
 */
bool sw_peers_socketcall(struct sw_session *s, struct sw_tracee *t,
			 enum sw_abi abi, struct sw_ptrace_syscall_info *info);
/*
 * At a SECCOMP stop whose decision lets a call run: a listen is
 * remembered (its process's pid, the session's listener); a connect of
 * a unix socket is checked at its exit stop (t->pc; the caller resumes
 * t to its exit stop through sw_peers_go()); a connect the supervisor
 * cannot check is refused (d).
 */
void sw_peers_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d);
/* t (with t->pc) into its connect once the session is held: SW_SYSCALL,
 * or SW_HELD while stops of the others are awaited (the last of them
 * lets t go). */
SW_PLAN sw_peers_go(struct sw_supervisor *sup, struct sw_tracee *t);
/* At t's exit stop of its checked connect: judge its peer, undo a
 * refused connection, end the hold.  True if it chose t's way itself
 * (*plan: the connect made again). */
bool sw_peers_exit(struct sw_supervisor *sup, struct sw_tracee *t,
		   struct sw_resume *plan);
/* A stop of a tracee whose session is held: kept (true) until the
 * hold ends, when sw_peers_replay() gives it back. */
bool sw_peers_held(struct sw_supervisor *sup, struct sw_tracee *t, int status);
/* The next held stop to handle (after the current one), or false. */
bool sw_peers_replay(struct sw_supervisor *sup, pid_t *pid, int *status);
/* t is gone (exited, or replaced by an exec): its check and hold. */
void sw_peers_gone(struct sw_supervisor *sup, struct sw_tracee *t);
void sw_peers_free(struct sw_peers *p);
/* Does rule i (it let the call nr run) grant a unix peer whose bound
 * name is name: a rule whose action lets it run, with a condition on
 * the call's address, each of which holds for name (decide.c)? */
bool sw_rule_grants(const struct sw_program *prog, int rule, enum sw_abi abi,
		    uint64_t nr, const char *name);

/* ---- probe.c: policy context helpers ---------------------------------- */

unsigned int sw_kernel_version_now(void);

/* ---- landlock.c: every session a Landlock domain of its own ------------ */

/* The running kernel's Landlock ABI (>= 1), or -ENOSYS (not built),
 * -EOPNOTSUPP (not enabled at boot).  As the kernel says: nothing of
 * the process's (its environment) changes it. */
int sw_landlock_abi(void);
/* The session's ruleset (CLOEXEC fd in *ret_fd): handling the file
 * rights fs and network rights net (SW_FS_*, SW_NET_*; what abi does not
 * know is left out: fsrules.c says so first), scoping signals and
 * abstract sockets on ABI >= 6.  With fs and net 0 its domain changes
 * nothing the program can see but who it can reach: scopes on ABI >= 6,
 * else a right handled and granted beneath "/" (landlock.c says why). */
int sw_landlock_ruleset(int abi, uint64_t fs, uint64_t net, int *ret_fd,
			struct sw_error *err);
/* Add a rule: the hierarchy beneath parent_fd (O_PATH is enough), or a
 * TCP port, with access.  Async-signal-safe.  0 or -errno. */
int sw_landlock_allow_path(int ruleset_fd, int parent_fd, uint64_t access);
int sw_landlock_allow_port(int ruleset_fd, uint16_t port, uint64_t access);
/* In the launch child, after no_new_privs: enter a new domain from the
 * ruleset.  Async-signal-safe.  0 or -errno. */
int sw_landlock_enter(int ruleset_fd);

/* ---- sandbox.c: `sysward run --sandbox`, a layer of its own ------------ */

/* The sandbox's rules for the kernel of Landlock ABI abi: its own
 * ruleset, entered before the policy's (p: its "network" section decides
 * the network when sb gives no ports).  enforce false: complain mode,
 * the file rules judged by the supervisor (sw_fsrules_new()). */
int sw_sandbox_plan(const struct sw_sandbox *sb, const struct sw_policy *p,
		    int abi, bool mounts, bool enforce, struct sw_fsrules **ret,
		    struct sw_error *err);

/* Where the session has a mount namespace of its own (nsbox.c), the
 * read-only trees are read-only mounts too, so that writes there fail
 * with EROFS, as under bubblewrap; the VCS metadata is then the mounts'
 * alone, and the workspace's own directory keeps every right. */
struct sw_sandbox_mounts {
	char *writable[2];	/* the workspace, the temporary directory */
	size_t n_writable;
	char *cwd;		/* PATH_MAX bytes: the child's, looked up again */
};
int sw_sandbox_mounts_plan(const struct sw_sandbox *sb, const char *cwd,
			   struct sw_sandbox_mounts *ret, struct sw_error *err);
void sw_sandbox_mounts_free(struct sw_sandbox_mounts *m);
/* In the launch child, in its own mount namespace, before it drops
 * CAP_SYS_ADMIN.  Async-signal-safe.  0 or -errno. */
int sw_sandbox_mount(const struct sw_sandbox_mounts *m);

/* ---- fsrules.c: the file-system and network rules, the kernel's ------- */

/*
 * One hierarchy with rights: the one input of "hierarchies with rights
 * -> a Landlock ruleset" (the policy's "filesystem" section is turned
 * into these by sw_fsrules_from_policy(); another caller may make its
 * own).  path: absolute, or relative to the program's working directory
 * (cwd; "" for the directory itself).  what names it in messages
 * ("filesystem.paths[2]"), written as the author wrote it ("${CWD}/.git").
 */
struct sw_fs_spec {
	const char *path;
	bool cwd;
	uint64_t access;	/* SW_FS_* */
	bool optional;		/* missing at launch: skipped */
	const char *what;
	const char *written;
};

/* The TCP ports of a launch: bind and connect, each any or the ranges. */
struct sw_net_spec {
	const struct sw_tcp_ports *bind, *connect;
	bool strict;
};

#define SW_FSRULES_MAX_SPECS	1024	/* hierarchies of one launch */
#define SW_FSRULES_MAX_NODES	4096	/* those and the directories
					 * between them, found on disk */
#define SW_FSRULES_MAX_RULES	16384	/* rules one launch adds: its
					 * hierarchies and the entries
					 * beside narrower ones */

struct sw_fsrules;

/* Where the launch child's sw_fsrules_apply() failed. */
enum sw_fsrules_step {
	SW_FSR_NONE,
	SW_FSR_OPEN,		/* the hierarchy's path (spec index) */
	SW_FSR_PARENT,		/* the directory a file is in */
	SW_FSR_WALK,		/* "..", from a hierarchy up to the root */
	SW_FSR_NODES,		/* more than SW_FSRULES_MAX_NODES directories */
	SW_FSR_LIST,		/* listing a directory beside a narrower one */
	SW_FSR_ENTRY,		/* an entry of that directory */
	SW_FSR_RULES,		/* more than SW_FSRULES_MAX_RULES rules */
	SW_FSR_ADD,		/* landlock_add_rule */
	SW_FSR_TABLE,		/* the rules' table for the supervisor */
};

struct sw_fsrules_where {
	int step;		/* enum sw_fsrules_step */
	int spec;		/* the hierarchy it was about, or -1 */
	int up;			/* SW_FSR_LIST, _ENTRY: levels above it */
	bool sandbox;		/* the sandbox's layer (sandbox.c), not the policy's */
};

/*
 * The plan, before the fork (it allocates): the specs copied and masked
 * to what the kernel of Landlock ABI abi enforces (the rest dropped, or
 * the launch refused with strict), the network's ports.  enforce:
 * the domain handles the rights (false in complain mode, where the
 * supervisor checks them instead).  NULL specs and net: a plan with
 * nothing, for the domain alone.
 */
int sw_fsrules_new(const struct sw_fs_spec *specs, size_t n, bool fs_strict,
		   bool has_fs, const struct sw_net_spec *net, int abi,
		   bool enforce, struct sw_fsrules **ret, struct sw_error *err);
/* The same from a policy's sections, its variables expanded for launch
 * l (${HOME}, ${TMPDIR} from its environment; ${CWD} is the child's). */
int sw_fsrules_from_policy(const struct sw_policy *p, const struct sw_launch *l,
			   int abi, bool enforce, struct sw_fsrules **ret,
			   struct sw_error *err);
void sw_fsrules_free(struct sw_fsrules *fr);
/* Has it hierarchies for the launch child to apply? */
bool sw_fsrules_has_paths(const struct sw_fsrules *fr);
/* Does the session's domain refuse files or ports by its rules (so that
 * their refusals never reach the supervisor)? */
bool sw_fsrules_enforced(const struct sw_fsrules *fr);
/* What a run that asked to see refusals is told then (the text of
 * sw_kernel_refusals_unseen()). */
const char *sw_fsrules_unseen_words(bool complain);
/* The session's ruleset for fr (NULL: the domain alone): the rights it
 * handles, and its TCP ports added.  *ret_fd as sw_landlock_ruleset(). */
int sw_fsrules_ruleset(const struct sw_fsrules *fr, int abi, int *ret_fd,
		       struct sw_error *err);
/*
 * In the launch child, in the program's view (its root, namespaces,
 * working directory and uid), async-signal-safe: open each hierarchy,
 * find on disk which is beneath which, and add its rules to ruleset_fd
 * (for a narrower hierarchy with fewer rights, the entries beside it get
 * the wider one's instead, fsrules.c says why).  ruleset_fd < 0: a dry
 * run, nothing added (sysward check).  0 or -errno with *where set.
 */
int sw_fsrules_apply(struct sw_fsrules *fr, int ruleset_fd,
		     struct sw_fsrules_where *where);
/* For `sysward check`: each hierarchy and port list as this kernel
 * enforces it, from a dry run of the apply in the caller's view (fr is
 * used up): fn(json path, words).  0, or fn's first negative value. */
typedef int (*sw_fsrules_describe_fn)(const char *path, const char *msg, void *ud);
int sw_fsrules_describe(struct sw_fsrules *fr, sw_fsrules_describe_fn fn, void *ud);
/* After an apply: the rule it added on the file (dev, ino), its rights
 * in *ret_access; -ENOENT if none (the file gets what the rules on its
 * directories give).  The plan as the kernel has it, for tests and for
 * a supervisor that checks the rules itself. */
int sw_fsrules_rule_on(const struct sw_fsrules *fr, uint64_t dev, uint64_t ino,
		       uint64_t *ret_access);
/*
 * Complain mode (fr planned with enforce false): would the rules refuse
 * rights need on the file file, in directory dirfd (the supervisor's
 * O_PATH descriptor of it), as the kernel's walk decides?  *ret_refused
 * the rights no rule on the way grants, *ret_spec the nearest
 * hierarchy's index (-1: none).  0 or -errno (the walk could not go up).
 */
struct stat;
int sw_fsrules_judge(const struct sw_fsrules *fr, int dirfd,
		     const struct stat *file, uint64_t need,
		     uint64_t *ret_refused, int *ret_spec);
/* Hierarchy spec's words ("--sandbox: the workspace") and path as
 * written; NULL for none. */
const char *sw_fsrules_spec_words(const struct sw_fsrules *fr, int spec,
				  const char **ret_written);
/* Is fr a plan whose file rules the supervisor judges (complain mode)? */
bool sw_fsrules_complaining(const struct sw_fsrules *fr);
/* In the parent: what failed at *where, in words. */
void sw_fsrules_explain(const struct sw_fsrules *fr,
			const struct sw_fsrules_where *where, char *buf,
			size_t size);

/* ---- pathrules.c: "paths" rules made the kernel's where exact --------- */

/* How a "paths" rule is enforced, and why: the one decision, read by the
 * launch, by `sysward check` and by the docs. */
enum sw_pathrule {
	SW_PATHRULE_LANDLOCK,	/* compiled: no stop */
	SW_PATHRULE_BOTH,	/* compiled, and kept at the supervisor for a
				 * run that sees refusals */
	SW_PATHRULE_NONE,	/* no "paths" (or the rule does not apply) */
	SW_PATHRULE_ACTION,
	SW_PATHRULE_COUNTED,
	SW_PATHRULE_CONDS,
	SW_PATHRULE_SHAPE,
	SW_PATHRULE_CALL,
	SW_PATHRULE_ORDER,
	SW_PATHRULE_SEEN,
	SW_PATHRULE_DAEMON,
	SW_PATHRULE_FILESYSTEM,
	SW_PATHRULE_MISSING,
	SW_PATHRULE_WAY,
	SW_PATHRULE_MANY,
	SW_PATHRULE_OFF,
	SW_PATHRULE_COUNT
};

struct sw_pathrule_ctx {
	int abi;		/* the kernel's Landlock ABI */
	bool refusals_seen;	/* --log, --report, --gate */
	bool complain;		/* --complain */
	bool daemon;		/* a syswardd client's launch */
	bool off;		/* SYSWARD_PATHS_SUPERVISOR: keep them all */
	uid_t uid;		/* the program's */
	bool dac_cap;		/* it keeps CAP_DAC_OVERRIDE */
};

const char *sw_pathrule_words(enum sw_pathrule why);
/* Rule i of p (applies[]: which rules apply to this launch): compiled,
 * with the rights it refuses beneath its prefix in *ret_rights, or why
 * not.  Looks the prefix and the directories above it up. */
enum sw_pathrule sw_pathrule_landlock(const struct sw_policy *p, size_t i,
				      const bool *applies,
				      const struct sw_pathrule_ctx *ctx,
				      uint64_t *ret_rights);
int sw_pathrules_plan(const struct sw_policy *p, const bool *applies,
		      const struct sw_pathrule_ctx *ctx,
		      struct sw_pathrules **ret, struct sw_error *err);
void sw_pathrules_free(struct sw_pathrules *pr);
/* What a run that sees refusals is told when rules are compiled. */
const char *sw_pathrules_unseen_words(void);
/* Rule i leaves the filter (Landlock alone decides it). */
bool sw_pathrules_compiled(const struct sw_pathrules *pr, size_t i);
/* Rule i is in the session's Landlock domain (alone, or with the
 * supervisor: SW_PATHRULE_BOTH). */
bool sw_pathrules_kernel(const struct sw_pathrules *pr, size_t i);
/* The compiled rules as a file-system layer (NULL: none compiled). */
int sw_pathrules_fsrules(const struct sw_policy *p, const struct sw_pathrules *pr,
			 int abi, struct sw_fsrules **ret, struct sw_error *err);
int sw_pathrules_describe(const struct sw_policy *p, const struct sw_pathrules *pr,
			  sw_fsrules_describe_fn fn, void *ud);

/* ---- mountinfo.c: a mount table, for the plans below ------------------- */

/* One line of a mountinfo file; the strings point into its table. */
struct sw_mnt {
	int id, parent;
	char *root, *point, *fstype;
	char *super;		/* the superblock's options */
	unsigned long flags;	/* MS_* of the per-mount options */
};

struct sw_mnt_table {
	struct sw_mnt *m;
	size_t n;		/* in the file's order: the order of attaching */
	char *text;
};

int sw_mnt_table_read(const char *mountinfo, struct sw_mnt_table *ret,
		      struct sw_error *err);
void sw_mnt_table_free(struct sw_mnt_table *t);
/* MS_* of a per-mount option list ("rw,nosuid,relatime"). */
unsigned long sw_mnt_flags(const char *opts);
/* Option name in a comma list ("size=10M,mode=1777"): its value (not
 * NUL-terminated: *ret_len bytes; 0 for a bare flag) if present. */
bool sw_mnt_option(const char *opts, const char *name, const char **ret_value,
		   size_t *ret_len);
/* Something mounted over m at its very path. */
bool sw_mnt_covered(const struct sw_mnt_table *t, size_t m);
/* A mount of the same parent over a directory above m, or at m's path
 * after it: no path reaches m. */
bool sw_mnt_hidden(const struct sw_mnt_table *t, size_t m);
/* What a path walk sees at m's mount point: m, or the last of those
 * mounted on top of it there. */
size_t sw_mnt_stack_top(const struct sw_mnt_table *t, size_t m);
/* Neither m nor a mount it is beneath covered or hidden: a path reaches
 * it. */
bool sw_mnt_visible(const struct sw_mnt_table *t, size_t m);

/* ---- nsbox.c's steps: where the launch child failed -------------------- */

/* Where sw_nsbox_enter() failed: a step and the index of what it was
 * doing (a procns.c step: in proc[] for SW_NSBOX_PROC_MOUNT, in sub[]
 * otherwise; nsbox.c's: in its mounts[] or ro[]; -1: none). */
enum sw_nsbox_step {
	SW_NSBOX_NONE,
	SW_NSBOX_PROC_CHECK,	/* sub[i]'s path shows another mount now */
	SW_NSBOX_UNSHARE,	/* the namespaces */
	SW_NSBOX_PROC_CLONE,	/* open_tree of sub[i] */
	SW_NSBOX_PROC_MOUNT,	/* the new instance over proc[i] */
	SW_NSBOX_PROC_PUT_BACK,	/* sub[i] moved over the new instance */
	SW_NSBOX_PROC_COPY,	/* a copy of sub[i], whose file was removed */
	SW_NSBOX_CGROUP_MAKE,	/* the session's cgroup: mkdir */
	SW_NSBOX_CGROUP_HAND,	/* ... handed to the launcher */
	SW_NSBOX_CGROUP_LIMIT,	/* ... its limits */
	SW_NSBOX_CGROUP_DELEGATE, /* ... the program's cgroup, the uid's */
	SW_NSBOX_CGROUP_MOVE,	/* ... the child moved in */
	SW_NSBOX_READ_ONLY,	/* ro[i] made read-only */
	SW_NSBOX_MOUNT,		/* a new instance over mounts[i] */
};

struct sw_nsbox_where {
	int step;		/* enum sw_nsbox_step */
	int index;
};

/* ---- procns.c: the session's own /proc (route 16) ---------------------- */

#define SW_PROCNS_MAX		16	/* procfs instances replaced */
#define SW_PROCNS_MAX_SUB	64	/* mounts beneath them put back */

struct sw_procns_proc {
	char *path;		/* a procfs mount point */
	unsigned long flags;	/* its MS_* flags, for the new instance */
	bool subset_pid;
	size_t first_sub, n_sub;	/* its submounts in sw_procns.sub */
};

struct sw_procns_sub {
	char *path;
	int mnt_id;		/* mountinfo's id: the child checks it */
};

/* What the launch child mounts (part of nsbox.c's plan).  Made before
 * fork (it allocates). */
struct sw_procns {
	struct sw_procns_proc *proc;
	size_t n_proc;
	struct sw_procns_sub *sub;
	size_t n_sub;
};

int sw_procns_plan_table(const struct sw_mnt_table *t, struct sw_procns *ret,
			 struct sw_error *err);
/* The same from a mountinfo file (for tests). */
int sw_procns_plan_from(const char *mountinfo, struct sw_procns *ret,
			struct sw_error *err);
void sw_procns_free(struct sw_procns *p);
/* A mask whose file was removed is put back as a copy; a regular
 * file's content is copied up to this size (procns.c, copy_mask). */
#define SW_PROCNS_COPY_MAX	(1 << 20)	/* "1 MiB" in sw_procns_explain() */

/* In the launch child, async-signal-safe, 0 or -errno with *where set:
 * before its mount namespace, that each path still shows the mount the
 * plan names; in it (nsbox.c made it), the plan's instances. */
int sw_procns_check(const struct sw_procns *p, struct sw_nsbox_where *where);
int sw_procns_mount(const struct sw_procns *p, struct sw_nsbox_where *where);
/* In the parent: what failed at *where (a procns step), naming the
 * mount; false if *where is not one of its steps. */
bool sw_procns_explain(const struct sw_procns *p, const struct sw_nsbox_where *w,
		       char *buf, size_t size);

/* ---- cgroup.c: the session's own cgroup (route 16c) ------------------- */

#define SW_CGROUP_DELEGATE_MAX	8
/* Bounds the launch child sets on the session's cgroup, above the
 * program's (out of its reach), so that removing what the program made
 * below is bounded work: cgroup.max.descendants and cgroup.max.depth.
 * The program's cgroup counts as one. */
#define SW_CGROUP_MAX_DESCENDANTS	1024
#define SW_CGROUP_MAX_DEPTH		32
/* The program's cgroup, below the session's. */
#define SW_CGROUP_PROGRAM	"program"
/* Session cgroups left for a later removal, per supervisor. */
#define SW_CGROUP_PENDING_MAX	64

struct sw_cgroup_plan {
	bool on;		/* make one (the kernel has cgroup namespaces) */
	char name[SW_CGROUP_NAME_MAX];	/* "sysward-session-..." */
	uid_t uid;		/* the program's: its cgroup is the uid's
				 * where the launcher's is (delegated) */
	gid_t gid;
	/* /sys/kernel/cgroup/delegate: the files a delegation hands over */
	char delegate[SW_CGROUP_DELEGATE_MAX][32];
	size_t n_delegate;
};

/* In the parent: the plan (no allocation). */
int sw_cgroup_plan(uid_t uid, gid_t gid, struct sw_cgroup_plan *ret,
		   struct sw_error *err);
/* In the launch child, async-signal-safe: make the session's cgroup
 * below the cgroup the child is in, hand the directory it is in to the
 * launcher over hand_fd (SCM_RIGHTS, before anything else can fail, so
 * that the launcher removes it whatever happens next), and move the
 * child into its program cgroup.  self_fd: its /proc/<pid> directory,
 * opened before it entered a client's root, where /proc may be none
 * (-1: /proc/self).  0, or -errno with *step set (enum sw_nsbox_step). */
int sw_cgroup_enter(const struct sw_cgroup_plan *p, int hand_fd, int self_fd,
		    int *step);

struct msghdr;
/* In the launcher: take the handed-over directory from a message of the
 * launch child (a control message with SCM_RIGHTS): true if it was one. */
bool sw_cgroup_take(struct sw_cgroup *cg, const char *name, struct msghdr *msg);
/* When the session ends (its processes gone): remove its cgroup and what
 * the program made below it.  What holds processes still (none of the
 * session's: something that moved itself in) is killed (cgroup.kill)
 * and the removal retried later by sw_cgroup_retry().  Never blocks. */
void sw_cgroup_release(struct sw_supervisor *sup, struct sw_cgroup *cg);
/* Retry the removals left pending; with wait_ms, until they are done or
 * that much time has passed (the supervisor's end). */
void sw_cgroup_retry(struct sw_supervisor *sup, int wait_ms);

/* ---- nsbox.c: the session's own namespaces (route 16c) ---------------- */

#define SW_NSBOX_MAX_MOUNTS	32	/* new instances over mount points */
#define SW_NSBOX_MAX_RO		32	/* paths made read-only */
#define SW_NSBOX_MAX_OPTS	4	/* options of one new instance */

/* A new instance of fstype mounted over path. */
struct sw_nsbox_mount {
	char *path;
	const char *fstype;	/* a string of nsbox.c's */
	char *opts[SW_NSBOX_MAX_OPTS];	/* "key=value" or "flag" */
	size_t n_opts;
	unsigned int attr;	/* MOUNT_ATTR_* */
};

/* A path made read-only, with everything beneath it: a mount point
 * (sysfs: its own mount, made private too) or a file or directory of
 * /proc (a recursive bind of it, over it). */
struct sw_nsbox_ro {
	char *path;
	bool bind;
};

/* What the launch child makes.  on is false where the launcher lacks
 * CAP_SYS_ADMIN (unprivileged `sysward run`): nothing is made. */
struct sw_nsbox {
	bool on;
	int unshare;		/* CLONE_NEW* */
	struct sw_procns proc;
	struct sw_cgroup_plan cg;
	struct sw_nsbox_ro *ro;
	size_t n_ro;
	struct sw_nsbox_mount *mounts;
	size_t n_mounts;
	/* SW_CONTAINED_* (engine.h): the views of its own this gives the
	 * session, for objects.c's switch (sw_objects_defences_off()) */
	unsigned int contained;
};

/* What the plan takes from the launch. */
struct sw_nsbox_ctx {
	uid_t uid;		/* the program's */
	gid_t gid;
	uint64_t caps;		/* it keeps */
	/* Its standard streams and terminal: a terminal of the launcher's
	 * devpts instance among them keeps that instance (nsbox.c). */
	int fds[4];
	const char *filesystems;	/* /proc/filesystems (tests: a file) */
	const char *ns_dir;	/* /proc/self/ns: the namespaces it has */
	const char *gid_map;	/* /proc/self/gid_map (NULL: all mapped) */
	/* /dev/shm: given a tmpfs of the session's even where it is no
	 * mount point (NULL: not) */
	const char *shm_dir;
	/* The launcher's CAP_SYS_ADMIN is not over its cgroup namespace (a
	 * user namespace's only): no cgroup of the session's, as for an
	 * unprivileged launcher. */
	bool no_cgroup_privilege;
};

/* In the parent, before fork. */
int sw_nsbox_plan(const struct sw_launch *l, struct sw_nsbox *ret,
		  struct sw_error *err);
/* The same from a mount table, whatever this process's capabilities
 * (for tests). */
int sw_nsbox_plan_table(const struct sw_mnt_table *t, const struct sw_nsbox_ctx *ctx,
			struct sw_nsbox *ret, struct sw_error *err);
void sw_nsbox_free(struct sw_nsbox *p);
/* In the launch child, before privileges are dropped: the one entry.
 * Async-signal-safe.  self_fd: sw_cgroup_enter()'s.  0 or -errno with
 * *where set. */
int sw_nsbox_enter(const struct sw_nsbox *p, int hand_fd, int self_fd,
		   int pts_fd, struct sw_nsbox_where *where);
/* The devpts instance of the plan (its first devpts mount), detached
 * (fsmount()): the one the program's terminal is made in, which
 * sw_nsbox_enter() then puts in place of that mount (pts_fd).  -ENOENT
 * when the plan mounts none; else the descriptor or -errno.
 * Async-signal-safe. */
int sw_nsbox_pts_instance(const struct sw_nsbox *p);
/* In the parent: what failed at *where, naming what it was doing. */
void sw_nsbox_explain(const struct sw_nsbox *p, const struct sw_nsbox_where *w,
		      char *buf, size_t size);

/* ---- the client's context: clientctx.c --------------------------------- */

/* The namespaces a program joins, in the order it joins them (the user
 * namespace last: clientctx.c says why). */
enum sw_client_ns {
	SW_CLIENT_NS_MNT,
	SW_CLIENT_NS_NET,
	SW_CLIENT_NS_IPC,
	SW_CLIENT_NS_UTS,
	SW_CLIENT_NS_CGROUP,
	SW_CLIENT_NS_TIME,
	SW_CLIENT_NS_PID,
	SW_CLIENT_NS_USER,
	SW_CLIENT_NS_COUNT,
};

/* Cgroup hierarchies one client may be in apart from ours (v2 and v1). */
#define SW_CLIENT_CGROUPS	16

/* The client's descriptors, in one array so that the launch child can
 * move them out of the way of those it hands over (fds.c): a namespace's
 * where it is not ours, its root, each cgroup's directory; -1: none. */
enum {
	SW_CLIENT_FD_NS = 0,
	SW_CLIENT_FD_ROOT = SW_CLIENT_NS_COUNT,
	SW_CLIENT_FD_CGROUP,
	SW_CLIENT_FDS = SW_CLIENT_FD_CGROUP + SW_CLIENT_CGROUPS,
};

struct sw_client {
	pid_t pid;			/* in our pid namespace */
	int pidfd;			/* pins it (sw_client_alive()) */
	int fd[SW_CLIENT_FDS];
	char *cgroup_name[SW_CLIENT_CGROUPS];	/* "0::/a/b", for messages */
	size_t n_cgroups;
	struct rlimit rlim[16];		/* every RLIMIT_*, /proc/<pid>/limits */
	int policy;			/* what its fork would give */
	struct sched_param sched;
	bool nice_reset;		/* SCHED_RESET_ON_FORK: nice < 0 -> 0 */
	cpu_set_t cpus;
	int ioprio;
	int oom_score_adj;
	bool oom_set;			/* differs from ours */
	unsigned long coredump_filter;
	bool coredump_set;
	uint32_t loginuid;
	bool loginuid_set;
	unsigned long personality;
	bool thp_disable;
	long seccomp_filters;		/* its filters when it was accepted */
	/* "/proc/<pid>/mountinfo" when its mounts or root are not ours:
	 * what the session's own /proc is planned from (procns.c). */
	char mountinfo[48];
};

/* Where the launch child failed to take the client's context. */
enum sw_client_step {
	SW_CLIENT_STEP_PIDNS,
	SW_CLIENT_STEP_CGROUP,		/* index: which of cgroup_name */
	SW_CLIENT_STEP_OOM,
	SW_CLIENT_STEP_COREDUMP,
	SW_CLIENT_STEP_RLIMIT,		/* index: RLIMIT_* */
	SW_CLIENT_STEP_SCHED,
	SW_CLIENT_STEP_AFFINITY,
	SW_CLIENT_STEP_IOPRIO,
	SW_CLIENT_STEP_THP,
	SW_CLIENT_STEP_PERSONALITY,
	SW_CLIENT_STEP_NS,		/* index: enum sw_client_ns */
	SW_CLIENT_STEP_ROOT,
	SW_CLIENT_STEP_CAPS,
	SW_CLIENT_STEP_USERNS,
	SW_CLIENT_STEP_KEYRING,
};

struct sw_client_where {
	int step;
	int index;
};

/* clientprobe.c: 0 if the client pid (with these ids) is in no Landlock
 * domain but ours, -EPERM with a message if it is in one, another -errno
 * if that could not be checked.  On a thread that may wait (about 1 s at
 * most): the client is traced meanwhile. */
int sw_client_probe_domain(pid_t pid, uid_t uid, gid_t gid, long filters,
			   struct sw_error *err);
/* The mountinfo to plan the session's /proc from, or NULL for ours. */
const char *sw_client_mountinfo(const struct sw_client *c);
/* It is in a user namespace not ours: the launch keeps CAP_SYS_ADMIN
 * across its setresuid() for sw_client_enter_user(). */
bool sw_client_has_userns(const struct sw_client *c);
/* In the launch child, async-signal-safe, 0 or -errno (*w the step):
 * in the holder before it forks the program; at the join point; after
 * the uid and gid are set.  clientctx.c says what each takes. */
int sw_client_enter_pidns(const struct sw_client *c);
int sw_client_enter(const struct sw_client *c, struct sw_client_where *w);
int sw_client_enter_user(const struct sw_client *c, struct sw_client_where *w);
/* In the parent: what failed at *w. */
void sw_client_explain(const struct sw_client *c, const struct sw_client_where *w,
		       char *buf, size_t size);

/* ---- the launch: launch.c and the files below it ---------------------- */

/*
 * The launch child's steps, in the order it takes them: the one it failed
 * at is what its report (launchreport.c) names.
 */
enum sw_stage {
	SW_STAGE_NONE,
	SW_STAGE_HOLDER,
	SW_STAGE_PGRP,
	SW_STAGE_TTY,
	SW_STAGE_PTY,
	SW_STAGE_NICE,
	SW_STAGE_STDIO,
	SW_STAGE_FDS,
	SW_STAGE_CLIENT,
	SW_STAGE_NSBOX,
	SW_STAGE_CHDIR,
	SW_STAGE_GROUPS,
	SW_STAGE_GID,
	SW_STAGE_UID,
	SW_STAGE_KEYRING,
	SW_STAGE_BOUNDING,
	SW_STAGE_CAPS,
	SW_STAGE_NNP,
	SW_STAGE_FSRULES,
	SW_STAGE_LANDLOCK,
	SW_STAGE_SANDBOX_MOUNTS,
	SW_STAGE_SECCOMP,
	SW_STAGE_EXEC,
};

/* launchreport.c: in the launch child, report (stage, errno) on fd and
 * exit; where says which step of the session's namespaces failed
 * (SW_STAGE_NSBOX), or NULL.  Async-signal-safe. */
_Noreturn void sw_launch_fail_at(int fd, enum sw_stage stage,
				 const struct sw_nsbox_where *where);
_Noreturn void sw_launch_fail(int fd, enum sw_stage stage);
/* The same for SW_STAGE_CLIENT: where says which step of clientctx.c. */
_Noreturn void sw_launch_fail_client(int fd, const struct sw_client_where *where);
/* The same for SW_STAGE_FSRULES: where says which hierarchy, which step. */
_Noreturn void sw_launch_fail_fsrules(int fd, const struct sw_fsrules_where *where);
/* launchreport.c: in the parent, the child died before it was ready to be
 * seized: err says why, from its report on fd (nsbox names the mount,
 * client the client's context). */
int sw_launch_report_early(int fd, const char *prog,
			   const struct sw_nsbox *nsbox,
			   const struct sw_client *client,
			   struct sw_error *err);

/* launchreport.c: in the launch child, a descriptor handed to the
 * launcher on the ready socket, in a one-byte message that says what it
 * is (SW_HAND_*): 0 or -errno.  Async-signal-safe. */
#define SW_HAND_CGROUP	'c'	/* the session's cgroup (cgroup.c) */
#define SW_HAND_TTY	't'	/* the master of its terminal (sw_launch.tty) */
int sw_launch_hand(int sock, char what, int fd);

/* What the launch child tells its parent when it is ready to be seized:
 * its pid (under a holder the parent did not fork it), and the serials
 * of the uid's keyrings it learned as the program's uid (objects.c). */
struct sw_launch_ready {
	pid_t pid;
	int32_t keyring[SW_OBJECTS_KEYRINGS];
};

/* launchchild.c: the launch child from its fork to its exec (its holder
 * first, with l->new_session): go_fd says it is seized, ready_fd takes
 * its struct sw_launch_ready, rep_fd a failure's report (then it exits). */
struct sw_prepared;
_Noreturn void sw_launch_child(const struct sw_launch *l,
			       const struct sw_prepared *pr, int go_fd,
			       int ready_fd, int rep_fd);

/* fds.c: in the launch child (async-signal-safe): the n descriptors of p
 * at their numbers, and every other descriptor of the process marked
 * close-on-exec, so that the exec passes on p's and nothing else.  own
 * are the child's own descriptors it needs until then: each is moved
 * above the numbers placed if it is below one (*own[i] updated; -1
 * skipped).  0 or -errno. */
int sw_fds_place(const struct sw_fd_place *p, size_t n, int *const own[],
		 size_t n_own);

/* exec.c: in the launch child, execute argv[0] as looked up in envp's
 * PATH (sw_exec_search; envp NULL: this process's environment), with
 * envp; listener >= 0: each execve hands it to the supervisor
 * (notif.c).  Returns only on failure: the errno of the lookup. */
int sw_exec_program(char *const *argv, char *const *envp, int listener);

/*
 * notif.c: calls answered through a seccomp listener.  Which rules
 * (sw_notif_rule_why: NULL, or why not; one home for filter.c, `sysward
 * check` and the docs); the policy filter's prefix for the launch
 * child's handoff (execve with SW_NOTIF_MAGIC and the listener's number
 * as its 4th and 5th arguments) and for the SECCOMP_LISTENER refusal;
 * a session's listener, taken at that stop (sw_notif_take) and served
 * by a thread of its own until sw_notif_free.
 */
#define SW_NOTIF_MAGIC 0x73776e6f74696679ull	/* "swnotify" */
struct sw_notif;
const char *sw_notif_rule_why(const struct sw_program *prog, size_t i);
/* prepare.c: why a launch that logs, records or complains has no
 * listener (what `sysward check`, which prepares no such launch, says). */
extern const char sw_listener_unasked_why[];
extern const char sw_listener_modes_why[];
bool sw_notif_rule(const struct sw_program *prog, size_t i);
int sw_notif_patch_filter(const struct sw_program *prog, void **insns,
			  size_t *n, struct sw_error *err);
bool sw_notif_filter_has(const void *insns, size_t n);
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

/* groups.c: setgroups(2) to target, where the process may keep no group
 * outside bound (groups.c says why).  Async-signal-safe: -1 with errno. */
int sw_set_groups_within(const gid_t *target, size_t n_target,
			 const gid_t *bound, size_t n_bound);

/* Wait for a child that is ending (SIGKILLed, or exiting on its own):
 * bounded, whatever it did. */
static inline void sw_reap(pid_t pid)
{
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
}

#endif
