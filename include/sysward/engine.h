/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsysward engine: compile a policy to a seccomp filter, launch a program
 * under it, and supervise it (and its whole process tree) with ptrace.
 *
 * One struct sw_supervisor may run many sessions at once (the daemon); the
 * embedded "sysward run" uses one session.  All ptrace calls for all
 * sessions happen in the thread that created the supervisor (ptrace ties a
 * tracee to the tracer thread).  Nothing here prints or exits: functions
 * return 0 or -errno and fill struct sw_error.
 */
#ifndef SYSWARD_ENGINE_H
#define SYSWARD_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>

#include "sysward/error.h"
#include "sysward/policy.h"

/*
 * A client's context, for a program started for it by a daemon
 * (sw_launch.client): read from /proc/<pid> and by pid while pidfd pins
 * the client, on any thread that may wait (a /proc read can wait for the
 * client's exec); uid and gid are its own (SO_PEERCRED).  0, or -errno
 * with err saying why: -EPERM for a client whose restrictions a daemon
 * cannot carry over (a seccomp filter, a Landlock domain, another LSM
 * label than ours) or whose namespaces, root or cgroups we cannot enter;
 * -ESRCH if it exited meanwhile.  The Landlock check traces the client
 * for a moment (clientprobe.c).  sw_client_alive() checks
 * again that it lives (after other reads of its /proc).
 */
struct sw_client;
int sw_client_read(int pidfd, pid_t pid, uid_t uid, gid_t gid,
		   struct sw_client **ret, struct sw_error *err);
int sw_client_alive(const struct sw_client *c, struct sw_error *err);
void sw_client_free(struct sw_client *c);

/* Exit codes shared by sysward run (embedded and daemon mode). */
#define SW_EXIT_SYSWARD_ERROR	125
#define SW_EXIT_CANNOT_EXEC	126
#define SW_EXIT_NOT_FOUND	127

/* The exit code for a program that could not be started because execve
 * (or the search for it) failed with errno e: 127 for ENOENT, 126 when
 * it exists but cannot be executed, 125 for anything else. */
int sw_exec_exit_code(int e);

/* The words for a program that cannot be started because execve (or the
 * search for it) failed with errno e, in err: "NAME: command not found"
 * for a name without a slash that no PATH element has, else "cannot run
 * PROG: <strerror>".  One home for them: the embedded mode's check
 * before the launch and a launch whose exec failed (the daemon's too)
 * say the same.  Returns -e. */
int sw_exec_error(struct sw_error *err, const char *prog, int e);

/*
 * The one program lookup, as execvp(3) makes it.  A name with a slash is
 * the only candidate; otherwise each element of envp's PATH (envp NULL:
 * environ; no PATH: "/bin:/usr/bin", glibc's default) joined with name,
 * an empty element meaning the working directory.  try(candidate, ud)
 * returns what exec would do with that file: 0 (found: the search
 * returns 0), EACCES or EISDIR (remembered, the search goes on), ENOENT,
 * ENOTDIR, ESTALE, ENODEV or ETIMEDOUT (the search goes on), any other
 * errno (the search stops and returns it).  A name with a slash returns
 * what try returned.  Else EACCES if a candidate gave it, or ENOENT.  No
 * allocation: the launcher's child of a threaded process calls it.
 */
int sw_exec_search(const char *name, char *const *envp,
		   int (*try)(const char *path, void *ud), void *ud);
/* What exec would give for path, checked with this thread's fs
 * credentials, without executing it: 0, or a positive errno (EISDIR for
 * a directory, EACCES for any other file that is not regular). */
int sw_exec_check(const char *path);

/*
 * Strings in the audit log, by the one rule of each format (engine/audit.c
 * says why; sysward.1, AUDIT LOG, how to read them back):
 * sw_json_str() writes s as a JSON string literal, quotes included: valid
 * UTF-8 as it is but for the escaped '"', '\\', controls, U+2028/2029;
 * each byte that is not UTF-8 as U+FFFD.  Lossy: a member holding a
 * string the program or a client controls is written with
 * sw_jsonl_str(m, key, s), ',"key":...' plus ',"key_hex":"<bytes>"' when
 * s is not UTF-8 (s NULL: null), or sw_jsonl_strv() for an array (its
 * "key_hex" an array, null where exact).  The text format's escaping,
 * sw_text_str(), is decode.c's (sysward/decode.h).
 */
void sw_json_str(FILE *f, const char *s);
void sw_jsonl_str(FILE *m, const char *key, const char *s);
void sw_jsonl_strv(FILE *m, const char *key, char *const *v);

/*
 * The one JSON-lines writer of the audit log.  sw_jsonl_begin() starts a
 * line in memory with its "time" (and "session", unless 0) and returns
 * the stream to add ',"key":value' pairs to (NULL: out of memory);
 * sw_jsonl_end() closes the object and writes the line to f whole, in one
 * write under f's lock, and flushes it: 0 or -EIO.  Threads may share f,
 * and nothing slow happens while its lock is held.
 */
struct sw_jsonl {
	FILE *m;
	char *buf;
	size_t len;
};
FILE *sw_jsonl_begin(struct sw_jsonl *l, uint64_t session);
int sw_jsonl_end(struct sw_jsonl *l, FILE *f);

struct sw_supervisor;
struct sw_session;

enum sw_log_format { SW_LOG_JSON, SW_LOG_TEXT };

/* A descriptor the program starts with: the caller's descriptor from, at
 * number to. */
struct sw_fd_place {
	int from;
	int to;
};

/*
 * `sysward run --sandbox` (engine/sandbox.c, docs/security.md route 21):
 * a Landlock layer of its own beneath the policy's, so that the policy's
 * "filesystem" and "network" sections only narrow it.  The system read
 * only, the workspace dir writable but its VCS metadata at launch
 * (.git, .hg, .svn), tmpdir (made by the caller, the program's TMPDIR)
 * writable, TCP connect and bind refused but for the ports given.
 */
struct sw_sandbox {
	const char *dir;		/* absolute, or NULL: the working directory */
	const char *tmpdir;		/* absolute, or NULL: none */
	/* net_given: these ports, whatever the policy says; else none,
	 * unless the policy has a "network" section, which then decides. */
	bool net_given;
	struct sw_tcp_ports connect, bind;
};

/* A terminal of the program's own (syswardd's clients at a terminal:
 * `sysward run --daemon` with -t or at one): a pseudo-terminal made in
 * its session, its controlling terminal, with the caller's window size
 * and, with set_termios, modes.  The program's descriptors 0, 1 and 2
 * are its slave; its master is the caller's (sw_session_take_tty()). */
struct sw_tty {
	struct winsize ws;
	bool set_termios;
	struct termios tio;
};

struct sw_launch {
	char *const *argv;		/* argv[0] resolved with PATH */
	char *const *envp;		/* NULL = inherit; its PATH finds argv[0] */
	const char *cwd;		/* NULL = inherit */
	int stdio[3];			/* -1 = inherit; not read with exact_fds */
	/* exact_fds (syswardd): the program starts with exactly the n_fds
	 * descriptors of fds (at most SW_LIMIT_FDS, no two at one number)
	 * and nothing else of the caller's, whatever it holds or inherited
	 * without FD_CLOEXEC (launchchild.c).  Without it the program
	 * inherits what the caller's exec would pass on: its descriptors
	 * without FD_CLOEXEC (the engine opens every one of its own with
	 * it), stdio[] placed first. */
	const struct sw_fd_place *fds;
	size_t n_fds;
	bool exact_fds;
	/* syswardd: the client the program is started for (sw_client_read()),
	 * whose context it gets instead of the caller's: namespaces, root
	 * directory, cgroups, resource limits, scheduling, ... (clientctx.c).
	 * Needs new_session (its pid namespace is entered by the holder). */
	const struct sw_client *client;
	/* NULL, or a terminal of its own (struct sw_tty; launchchild.c).
	 * Needs new_session and exact_fds without a descriptor at 0, 1 or
	 * 2: what the program reads and writes there is the terminal's. */
	const struct sw_tty *tty;
	/* Credentials for the program (daemon: the client's).  uid/gid -1 =
	 * keep.  Never more than the caller already checked it may have. */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t n_groups;
	bool set_groups;
	uint64_t caps;			/* capabilities to keep (bounding,
					 * permitted, effective, inheritable) */
	FILE *audit;			/* NULL = no audit log */
	enum sw_log_format audit_format;
	/* Plain allows get their line too (sysward run --log; syswardd
	 * only with --audit-allows).  Without, the log has what an
	 * operator needs: refusals (also would-be ones), kills, traps,
	 * emulations, skips, rewrites, LOG/audit rules, judged connects,
	 * failed tamperings (engine/actions.c, audit_wanted()). */
	bool audit_allows;
	/* audit is a line gate's stream on the program's own standard
	 * error (sw_line_gate_open(), "sysward run --log -"): the
	 * program's writes to descriptor 2 stop, so that records go out
	 * between its lines, never inside one.  NULL: none. */
	struct sw_line_gate *audit_gate;
	uint64_t session_id;		/* written into audit lines if != 0 */
	/* The caller's own state for this session, handed back by
	 * sw_session_userdata() (syswardd: its tracer thread's). */
	void *userdata;
	/* Built-in defences (docs/security.md) are all on unless a bit
	 * below is set here: an explicit opt-out, e.g. from a policy. */
	unsigned int defences_off;
	/* Run even if the kernel lacks PTRACE_SET_SYSCALL_INFO while the
	 * policy needs it: such stops then kill the program (fail closed). */
	bool allow_without_set_syscall_info;
	/* sw_run() only: where to report problems met while supervising
	 * ("failed to tamper with pid N: ..."; the program is killed).  The
	 * daemon registers sw_supervisor_on_warning() instead. */
	void (*warn)(const char *msg, void *userdata);
	void *warn_userdata;
	/* Job control.  The program always gets a process group of its own,
	 * so that kill(0, ...) and a terminal's signals stay inside it, and
	 * setpgid() into another group is refused (route 11).  By default in
	 * the caller's session.  new_session (syswardd): in a kernel session
	 * of its own, whose leader is a small untraced holder process that
	 * is the program's parent and only waits for it (launchchild.c).
	 * Either way the group is not orphaned (its leader's parent is in
	 * another group of the same session), so the kernel does not discard
	 * SIGTSTP, SIGTTIN and SIGTTOU sent to it, as in a shell's job; and
	 * a session of its own keeps the program out of the caller's
	 * groups and scheduler autogroup.  foreground: make that
	 * group the foreground one of terminal tty_fd before the program
	 * runs, as a shell does; sw_run() takes the terminal back when the program
	 * stops (Ctrl-Z) or ends.  tty_fd without foreground: the caller's
	 * job holds that terminal (a pipeline), and sw_run() gives it to
	 * the program when the kernel stops it for using it (SIGTTOU,
	 * SIGTTIN), -1 if none. */
	bool new_session;
	/* With new_session: the holder executes /proc/self/exe as
	 * SW_HOLDER_ARGV0, whose main() must then return sw_holder_main()
	 * (syswardd does); without, it waits in a fork of the caller. */
	bool holder_exec;
	bool foreground;
	int tty_fd;
	/* The program's nice value, set before its credentials change
	 * (the daemon's clients: theirs, as if they ran it; the daemon
	 * itself may run at a higher priority than the programs it serves).
	 * Unset: the caller's. */
	bool set_nice;
	int nice;
	/* The program's umask (the daemon's clients: theirs).  Unset: the
	 * caller's. */
	bool set_umask;
	mode_t umask;
	/* When the main process exits, SIGKILL what it left running (by
	 * default the session waits for every descendant). */
	bool kill_descendants;
	/* The signal state the program starts with: the one the caller of
	 * "sysward run" had (sw_signals_of_caller()), as execve would keep
	 * it unconfined.  Bit N-1 is signal N.  A signal not in sig_ignored
	 * starts at its default action, whatever the supervisor's own
	 * disposition (a daemon's ignored SIGPIPE is no program's). */
	uint64_t sig_ignored;
	uint64_t sig_blocked;
	/* Complain mode: every call the policy refuses (its errno, kill and
	 * trap rules, its default action) runs as if allowed, and is
	 * reported as a would-be refusal (in the audit log and the record).
	 * The filter sends those calls to the supervisor instead of deciding
	 * them, so this needs PTRACE_SET_SYSCALL_INFO.  What the policy
	 * emulates, skips or rewrites is still done; the built-in defences
	 * (docs/security.md) stay enforced, and are reported too. */
	bool complain;
	/* Keep a record of the session's supervised calls (record.c): how
	 * many per syscall, rule and outcome, and per program; for
	 * `sysward run --report` and `--gate`.  sw_session_take_record()
	 * hands it over in the done callback. */
	bool record;
	/* With record: also keep every path a call with a path argument
	 * named (SW_RECORD_PATHS at most), for sysward learn --paths. */
	bool record_paths;
	/* With record: also what the calls reached on the file system
	 * and the TCP ports bound and connected to, for sysward learn
	 * --filesystem (engine/recfiles.c). */
	bool record_files;
	/* sw_run() only: we are the init of a pid namespace (a container's
	 * process 1, as sysward-runtime starts us).  The kernel then
	 * delivers a signal sent from outside only if we catch it, and a
	 * runtime's kill (runc kill) is meant for the one process it would
	 * have reached without us: every signal that can be sent is caught
	 * and forwarded to the program's main process alone (not its group),
	 * and a stop of the program is not relayed as a stop of ours. */
	bool init_signals;
	/* sysward run --sandbox: NULL = none (struct sw_sandbox). */
	const struct sw_sandbox *sandbox;
	/* The compiled-filter cache (engine/filtercache.c): the directory
	 * of this uid's entries (sw_filter_cache_dir()), NULL for none.  A
	 * prepared launch then takes its BPF from an entry made for exactly
	 * its inputs and verified with this uid's secret, or compiles and
	 * writes one; the cache failing is never the launch failing. */
	const char *filter_cache;
	/* Answer the rules that need no tracee access (skip and emulate
	 * with no path, counter or log: engine/notif.c) through a seccomp
	 * listener served by a thread of this process (one per session),
	 * not a ptrace stop.  sw_run() and syswardd set it; a launch that
	 * logs, records, gates or complains does not use it (those calls
	 * stay at a stop). */
	bool listener;
	/* NULL, or where the listener's thread also counts its answers
	 * (atomically, as it answers; syswardd's `sysward ps`, whose
	 * tracer thread may sleep meanwhile).  Must outlive the session. */
	uint64_t *listener_answers;
};

/*
 * Where this process keeps its compiled-filter cache: $CACHE_DIRECTORY
 * (a systemd service's CacheDirectory=, as is), else $XDG_CACHE_HOME
 * (absolute) or $HOME/.cache, then "sysward", in buf.  NULL, with buf
 * untouched, when neither is set, or when SYSWARD_NO_CACHE is set to
 * anything but "" or "0" (the one home of that switch: sysward run's
 * --no-cache and syswardd's read it here too).
 */
const char *sw_filter_cache_dir(char *buf, size_t size);

/* This process's ignored and blocked signals, as sw_launch wants them. */
void sw_signals_of_caller(uint64_t *ret_ignored, uint64_t *ret_blocked);

/* Bits of sw_launch.defences_off. */
#define SW_DEFENCE_IO_URING		(1u << 0)	/* io_uring_* -> EPERM */
#define SW_DEFENCE_PTRACE		(1u << 1)	/* ptrace -> EPERM */
#define SW_DEFENCE_VM_WRITEV		(1u << 2)	/* process_vm_writev -> EPERM */
#define SW_DEFENCE_CLONE_UNTRACED	(1u << 3)	/* strip CLONE_UNTRACED */
#define SW_DEFENCE_CLONE3		(1u << 4)	/* clone3 -> ENOSYS */
#define SW_DEFENCE_SIGNAL_SUPERVISOR	(1u << 5)	/* signals only inside the
							 * program's tree (signals.c) */
#define SW_DEFENCE_SECCOMP_LISTENER	(1u << 6)	/* seccomp(NEW_LISTENER) -> EPERM */
#define SW_DEFENCE_USERFAULTFD		(1u << 7)	/* kernel-fault userfaultfds -> EPERM */
#define SW_DEFENCE_PIDFD_GETFD		(1u << 8)	/* pidfd_getfd -> EPERM */
#define SW_DEFENCE_PID_CALLS		(1u << 9)	/* prlimit64, priorities, scheduling
							 * only on the session (reach.c) */
#define SW_DEFENCE_UNIX_PEERS		(1u << 10)	/* no same-uid unix peer outside
							 * the session, but granted (peers.c) */
#define SW_DEFENCE_OBJECT_OPENS	(1u << 11)	/* an open that can write is
							 * refused on a kernel object outside the
							 * session: another process's /proc files,
							 * sysctls, cgroupfs, sysfs (objects.c) */
#define SW_DEFENCE_IPC			(1u << 12)	/* System V IPC and POSIX message
							 * queues: only the session's (objects.c) */
#define SW_DEFENCE_KEYRINGS		(1u << 13)	/* the uid's user, user session and
							 * persistent keyrings out of reach
							 * (objects.c) */

/*
 * What a launch contains by namespaces of its own (nsbox.c's plan says,
 * from what the launch child will make; prepare.c reads it): a view the
 * session has of its own needs no supervisor check, and objects.c turns
 * off the defence that stands in for it (sw_objects_defences_off(), the
 * one switch the filter and the supervisor both read).
 */
#define SW_CONTAINED_PIDS	(1u << 0)	/* its own /proc: outsiders' pid
						 * directories gone (procns.c) */
#define SW_CONTAINED_SYSCTL	(1u << 1)	/* /proc/sys read-only */
#define SW_CONTAINED_SYSFS	(1u << 2)	/* /sys and every kernel settings
						 * file system read-only */
#define SW_CONTAINED_CGROUP	(1u << 3)	/* a cgroup namespace and a cgroupfs
						 * that shows only its own */
#define SW_CONTAINED_IPC	(1u << 4)	/* an IPC namespace of its own */

/* Support of the running kernel, probed once with a traced child. */
struct sw_kernel_support {
	bool seccomp_filter;
	bool get_syscall_info;
	bool set_syscall_info;
	/* pidfd_getfd of a traced child is allowed here (a container's
	 * seccomp profile, Docker's among them, refuses it without
	 * CAP_SYS_PTRACE): the seccomp listener's handoff needs it. */
	bool pidfd_getfd;
	int landlock_abi;		/* 0: no Landlock (landlock_err says why) */
	int landlock_err;		/* ENOSYS, EOPNOTSUPP, ... */
	char release[65];		/* uname -r */
	char machine[65];		/* uname -m */
};
int sw_probe_kernel(struct sw_kernel_support *ret, struct sw_error *err);
/* Why a kernel has no Landlock, in words: landlock_err of the probe. */
const char *sw_landlock_missing_why(int err);

int sw_supervisor_new(struct sw_supervisor **ret, struct sw_error *err);
/* SIGKILLs and reaps every remaining tracee, waiting at most a moment for
 * those that SIGKILL does not end at once (tracer.c). */
void sw_supervisor_free(struct sw_supervisor *sup);

/*
 * Start argv under policy.  On return the child is seized and on its way
 * to exec, which the dispatch loop sees through: nothing here waits for
 * the program (or for a path the caller gave).  If it ends before exec
 * (exec failed, or a setup step), its done callback gets 127 (not found),
 * 126 (cannot execute) or 125, and sw_session_launch_error() says why.
 */
int sw_session_launch(struct sw_supervisor *sup, const struct sw_policy *p,
		      const struct sw_launch *l, struct sw_session **ret,
		      struct sw_error *err);

/*
 * The launch in two steps, for a caller that must not compile on its
 * tracer thread (syswardd).  sw_launch_prepare() compiles p for a launch
 * of l (its caps, defences_off, allow_without_set_syscall_info and nice
 * are read) on the kernel ks describes, on any thread: the program's
 * decision tables, its two filters as BPF, its capabilities.  With
 * timeout_ms, libseccomp runs in a child process forked from the calling
 * thread (at l's nice value if set) that is killed after timeout_ms:
 * then -ETIME, with a message naming the limit.  p must outlive the
 * result.  sw_session_launch_prepared() is sw_session_launch() from
 * there, on the supervisor's thread: fork, seize, and nothing slow; it
 * takes *pr (NULL on return) whether it succeeds or not.
 * sw_session_launch() is both, with no time limit.
 */
struct sw_prepared;
int sw_launch_prepare(const struct sw_kernel_support *ks,
		      const struct sw_policy *p, const struct sw_launch *l,
		      unsigned int timeout_ms, struct sw_prepared **ret,
		      struct sw_error *err);
int sw_session_launch_prepared(struct sw_supervisor *sup,
			       struct sw_prepared **pr,
			       const struct sw_launch *l, struct sw_session **ret,
			       struct sw_error *err);
void sw_prepared_free(struct sw_prepared *pr);

/*
 * The rules of a prepared launch that a built-in defence overrides: the
 * rule lets a call run (or sends it to the supervisor), and a defence
 * in force for this launch refuses the whole call whatever the policy
 * says (docs/security.md).  For `sysward check`, which prepares the launch
 * exactly as `sysward run` does, so that the two cannot disagree.  fn is
 * called once per (rule, name), in the defences' order.
 */
struct sw_overridden {
	size_t rule;		/* index in the policy's rules */
	size_t name;		/* index in that rule's names */
	const char *syscall;
	int err;		/* what the call fails with */
	const char *why;	/* "io_uring bypasses seccomp: denied" */
	const char *route;	/* docs/security.md route: "2" */
	const char *opt_in;	/* what turns the defence off, or NULL */
};
typedef void (*sw_overridden_fn)(const struct sw_overridden *o, void *ud);
void sw_prepared_overridden(const struct sw_prepared *pr, sw_overridden_fn fn,
			    void *ud);

/*
 * What a run that asked to see refusals (an audit log, a report, a gate,
 * complain mode) is told when policy p has file-system or network rules:
 * the kernel refuses for them and sysward never sees it (route 21).
 * NULL when p has no such section.  The one text: the engine warns with
 * it at launch, and a syswardd client, whose daemon keeps the engine's
 * warnings in its own log, prints it.
 */
const char *sw_kernel_refusals_unseen(const struct sw_policy *p, bool complain);

/*
 * How a prepared launch's file-system and network rules will be enforced
 * on this kernel (engine/fsrules.c): fn(JSON path, words) once per
 * hierarchy and port list, and once for what the kernel's Landlock ABI
 * cannot refuse.  The hierarchies are looked up in the caller's view (its
 * working directory and environment), as a dry run: pr can be used for
 * nothing else afterwards but sw_prepared_free().  0, or fn's first
 * negative value.
 */
int sw_prepared_enforcement(struct sw_prepared *pr,
			    int (*fn)(const char *path, const char *msg, void *ud),
			    void *ud);

/*
 * How a prepared launch answers each rule's calls (engine/route.c): fn(the
 * rule's JSON path, words) once per rule: the kernel's filter alone, the
 * seccomp listener, or a ptrace stop and why (the first name's route,
 * then each name whose route differs); then, if the launch has no
 * listener on this machine, or would lose it to a mode, fn(NULL, why).
 * 0, or fn's first negative value, or -ENOMEM.
 */
int sw_prepared_routes(const struct sw_prepared *pr,
		       int (*fn)(const char *path, const char *msg, void *ud),
		       void *ud);

/*
 * Handle ptrace events.  With block=false only what is pending is handled
 * (call it when SIGCHLD arrives).  Returns the number of events handled,
 * or -errno.
 */
int sw_supervisor_dispatch(struct sw_supervisor *sup, bool block,
			   struct sw_error *err);

/*
 * Several tracer threads: each has a supervisor of its own and is the only
 * one to call into it (ptrace ties a tracee to the thread that seized it).
 * On that thread, sw_supervisor_enable_wake() lets any other thread call
 * sw_supervisor_wake(), which makes a blocking sw_supervisor_dispatch()
 * return (at once if it is busy; a wake is never lost), so that the tracer
 * thread can take new work between its ptrace events.
 */
int sw_supervisor_enable_wake(struct sw_supervisor *sup, struct sw_error *err);
void sw_supervisor_wake(struct sw_supervisor *sup);

/* Finished sessions are reported once, through this callback. */
typedef void (*sw_session_done_fn)(struct sw_session *s, int exit_code,
				   void *userdata);
void sw_supervisor_on_done(struct sw_supervisor *sup, sw_session_done_fn fn,
			   void *userdata);

/* A session's holder (sw_launch.new_session, holder_exec): the argv[0]
 * it is executed with, and what main() returns for it.  It waits until
 * it has no children left. */
#define SW_HOLDER_ARGV0 "sysward-holder"
int sw_holder_main(void);

/* The session's main process entered a group-stop by a job-control
 * signal (sw_job_stop_signal()): its caller stops as the program's job,
 * as sw_run() does (syswardd: tells its client).  Called on the tracer
 * thread, once per stop. */
typedef void (*sw_job_stop_fn)(struct sw_session *s, int sig, void *userdata);
void sw_supervisor_on_job_stop(struct sw_supervisor *sup, sw_job_stop_fn fn,
			       void *userdata);
/* SIGTSTP, SIGTTIN, SIGTTOU: "the job stops", undone by continuing the
 * job.  A SIGSTOP is sent at a pid and undone at that pid: a caller that
 * stopped for it would hold up the program's supervised calls until
 * someone continued the caller too. */
bool sw_job_stop_signal(int sig);

/* Problems the supervisor met but that are no error of the caller's
 * ("failed to tamper with pid N: ..."); the affected program is killed
 * (fail closed).  Without a callback they are only written to the audit
 * log, if any. */
typedef void (*sw_warning_fn)(struct sw_session *s, const char *msg,
			      void *userdata);
void sw_supervisor_on_warning(struct sw_supervisor *sup, sw_warning_fn fn,
			      void *userdata);

/* The session pointer is valid until its done callback returns. */
pid_t sw_session_pid(const struct sw_session *s);
/* With sw_launch.tty: the master of the program's terminal, which the
 * caller now owns (close-on-exec; the engine never reads or writes it),
 * once; -1 without one or after. */
int sw_session_take_tty(struct sw_session *s);
/* The session's supervisor decisions: at stops and by its seccomp
 * listener (engine/notif.c); sw_session_stop_decisions() those at stops
 * alone (the tracer thread's, which the listener's thread may outpace:
 * sw_launch.listener_answers counts the rest as it goes). */
uint64_t sw_session_decisions(const struct sw_session *s);
uint64_t sw_session_stop_decisions(const struct sw_session *s);
/* sw_launch.userdata: in a callback, the caller's state for s without a
 * search. */
void *sw_session_userdata(const struct sw_session *s);
/* How many stops the session's programs took for signals (delivery and
 * group stops): work a program can make its supervisor do without any
 * system call of its own (a child that stops and continues its parent),
 * which a caller may want to pace (syswardd: shard.c). */
uint64_t sw_session_signal_stops(const struct sw_session *s);
/* Why the session ended before its program was exec'd ("cannot execute
 * 'foo': No such file or directory"), or NULL.  Valid in the done
 * callback. */
const struct sw_error *sw_session_launch_error(const struct sw_session *s);
/* SIGKILL every process of the session; its done callback still fires.
 * Its end is then sysward's, not a signal's: exit code 137 and no
 * sw_session_term_signal(). */
void sw_session_kill(struct sw_session *s);
/*
 * The signal that killed the session's main process, 0 if it exited (or
 * never ran, or sysward ended the session: sw_session_kill(), a session
 * killed for its events); *ret_core: the kernel dumped its core
 * (WCOREDUMP).  The done callback's exit code is 128+N then, for those
 * who record a number (reports, the audit log, --gate); a caller that
 * stands in for the program towards its own parent dies of N instead
 * (sysward run, syswardd's client), so that a shell sees WIFSIGNALED.
 * Valid in the done callback.
 */
int sw_session_term_signal(const struct sw_session *s, bool *ret_core);
/* Forward a signal to the session's main process.  Job control acts on
 * every process: SIGTSTP, SIGTTIN and SIGTTOU stop them all (with
 * SIGSTOP), SIGCONT continues them all. */
int sw_session_signal(struct sw_session *s, int sig);
/*
 * The program's process group, as its caller's job: launchchild.c makes the
 * main process lead a group of its own, and what reaches the caller's
 * job (timeout(1), kill -TERM -PGID, a CI runner ending a step) must
 * reach that group, not only the main process.  sw_session_group_open()
 * returns a pidfd of the leader (call it on the supervisor's thread right
 * after sw_session_launch(): the leader is not reaped before that thread
 * waits); it pins the group's id, so sw_session_group_signal() never
 * reaches a group that reused it.  sw_session_group_signal() signals
 * that group, or, without a group handle (group_fd < 0) or on a kernel
 * without PIDFD_SIGNAL_PROCESS_GROUP (Linux < 6.9), every process of the
 * session as sw_session_signal() does; either way the signal counts as
 * sent on request (a program it ends before its exec did not fail to
 * start).
 */
int sw_session_group_open(const struct sw_session *s);
int sw_session_group_signal(struct sw_session *s, int group_fd, int sig);

/*
 * The record of a session (engine/record.c): a fixed-size table, so a
 * program cannot make it grow without bound.  Every call the supervisor
 * decided is counted by outcome; the first SW_RECORD_CALLS distinct
 * (ABI, syscall, rule, outcome) are itemised, each with up to
 * SW_RECORD_SAMPLES distinct arguments (pointers left out, path strings
 * in), and the first SW_RECORD_PROGRAMS distinct programs executed get
 * counts of their own; past those limits calls and programs are only
 * counted.  Calls the kernel decides alone (the fast path: an allow, and
 * outside complain mode a kill or trap rule) are not seen.
 */
#define SW_RECORD_CALLS		1024
#define SW_RECORD_SAMPLES	4
#define SW_RECORD_PATHS		1024	/* sw_learn_why_str() says the number */
#define SW_RECORD_PROGRAMS	128

struct sw_record;

/* What a supervised call came to, for the record. */
enum sw_outcome {
	SW_OUT_ALLOWED,		/* ran as called (allow, log) */
	SW_OUT_REFUSED,		/* refused by the policy (errno, kill, trap) */
	SW_OUT_WOULD_REFUSE,	/* complain mode: the policy would have
				 * refused it; it ran */
	SW_OUT_DEFENCE,		/* refused by sysward itself: a built-in
				 * defence, or a fail-closed case (an
				 * unreadable path argument) */
	SW_OUT_EMULATED,	/* skipped with a value (skip, emulate) */
	SW_OUT_REWRITTEN,	/* ran with other arguments or as another call */
	SW_OUT_COUNT,
};

/* "allowed", "refused", "would_refuse", ... (the report's words). */
const char *sw_outcome_name(enum sw_outcome o);

/* The session's record, taken from it (NULL if it kept none); call it in
 * the done callback.  Free with sw_record_free(). */
struct sw_record *sw_session_take_record(struct sw_session *s);
void sw_record_free(struct sw_record *r);
/* Calls the policy refused, or in complain mode would have: the gate's
 * count (the built-in defences' refusals are not the policy's). */
uint64_t sw_record_policy_refusals(const struct sw_record *r);

/* What the report says besides the record. */
struct sw_report_info {
	const struct sw_policy *policy;	/* the policy the record was made
					 * under (names its rules) */
	char *const *argv;		/* the command */
	int exit_code;			/* what sysward exits with */
	int program_exit;		/* the program's own status */
	bool gate;			/* --gate given */
	bool gate_tripped;
};

/*
 * The report, one JSON document (sysward(1), REPORT): deterministic for a
 * deterministic program -- every list sorted, no times, no pids, no
 * addresses -- so that two reports diff meaningfully.  0 or -errno
 * (-EIO: the write failed).
 */
int sw_record_write_json(const struct sw_record *r,
			 const struct sw_report_info *info, FILE *f);

/*
 * The record's refusals for people: one line each (prefix first) for the
 * calls the policy refused or would have refused and those sysward
 * refused itself, sorted as in the report, at most max_lines of them
 * and a line saying how many more.  0 or -ENOMEM.
 */
int sw_record_write_summary(const struct sw_record *r,
			    const struct sw_policy *p, FILE *f,
			    const char *prefix, unsigned int max_lines);

/*
 * `sysward learn`: a policy that allows exactly the calls of the record
 * that ran (allowed, would_refuse, emulated, rewritten: not those
 * refused by the policy or by sysward itself), in the OCI/Docker
 * profile format that Docker, Podman and runc load: "defaultAction"
 * SCMP_ACT_ERRNO with "defaultErrnoRet" EPERM, "architectures" the ABIs
 * the program used (the native one always), one SCMP_ACT_ALLOW rule
 * with the names sorted one a line; with oci_runtime a second ALLOW rule
 * of the calls an OCI runtime (runc) makes itself between loading the
 * filter and executing the program (record.c lists what was measured);
 * and clone3 -> ENOSYS unless it was learned (so that libc falls back
 * to clone, as under sysward, whose defence refuses clone3).
 * Deterministic: the same calls give the same text.  *ret_unnamed: calls
 * whose number no libseccomp name has (left out: a profile names calls).
 * *ret_notes (may be NULL): the calls below whose paths were not all
 * learned.  -E2BIG when the record could not itemise every call (the policy would
 * miss some), -EIO if the write failed.
 */
/* flags: */
#define SW_LEARN_OCI_RUNTIME	(1u << 0)	/* the runtime's own calls too */
#define SW_LEARN_ARGS		(1u << 1)	/* selector arguments (record.c) */
#define SW_LEARN_PATHS		(1u << 2)	/* path prefixes (record.c) */
#define SW_LEARN_FILESYSTEM	(1u << 4)	/* "filesystem" and "network"
						 * sections (recfiles.c) */
#define SW_LEARN_CATCH_ALL	(1u << 3)	/* with PATHS: a rule allowing every
						 * path where some could not be
						 * learned (below) */

/*
 * With SW_LEARN_PATHS, a call some of whose paths no rule can say is
 * learned with the rules for the paths that could be said, never by
 * name alone (which would allow every path, silently): the learned
 * policy refuses the others, unless SW_LEARN_CATCH_ALL adds, after
 * them, one rule that allows the call whatever its path, with a
 * "comment" that says why.  Each such call is a note for the caller to
 * say.  (A path the program could not pass, EFAULT, needs no rule: the
 * learned path rules answer EFAULT as the kernel does, decide.c.)
 */
enum sw_learn_why {
	SW_LEARN_NOT_UTF8 = 1,	/* a directory (or name) that is not UTF-8:
				 * a policy is UTF-8 JSON */
	SW_LEARN_TABLE_FULL,	/* more paths than the record keeps
				 * (SW_RECORD_PATHS) */
	SW_LEARN_ABIS_DIFFER,	/* the call's path is another argument on
				 * another ABI: one rule names one index */
};
#define SW_LEARN_NOTES	16
struct sw_learn_notes {
	size_t n, more;			/* more: calls past SW_LEARN_NOTES */
	struct {
		char call[40];		/* the system call's name */
		enum sw_learn_why why;
		uint64_t calls;		/* how many of its paths (not
					 * ABIS_DIFFER: 0) */
		bool catch_all;		/* the rule was written */
	} v[SW_LEARN_NOTES];
};
/* The reason as words: "not UTF-8, which a policy ... cannot say", ... */
const char *sw_learn_why_str(enum sw_learn_why why);

/* learn --filesystem: objects the record could not keep (past its
 * 4096, or no memory), and whether TCP ports were past its 64 a list:
 * the learned sections may refuse them. */
uint64_t sw_record_files_lost(const struct sw_record *r, bool *ret_ports_lost);

int sw_record_write_policy(const struct sw_record *r, FILE *f,
			   unsigned int flags, uint64_t *ret_unnamed,
			   struct sw_learn_notes *ret_notes);

/* How a program ended, as its caller passes it on: its exit code (128+N
 * for signal N; sysward's own 125-127), and the signal that killed it
 * with its core flag (sw_session_term_signal(); 0: none). */
struct sw_exit {
	int code;
	int signal;
	bool core;
};

/* Embedded mode: launch, supervise until the program exits, and return how
 * it ended in *ret_exit.  On error (-errno, err says why) ret_exit->code is
 * the code to exit with: 127 or 126 if the program could not be exec'd
 * (sw_exec_exit_code), else 125, and no signal. */
int sw_run(const struct sw_policy *p, const struct sw_launch *l,
	   struct sw_exit *ret_exit, struct sw_error *err);
/* The same, handing over the session's record (l->record) in *ret_record
 * (NULL if the program never ran). */
int sw_run_recorded(const struct sw_policy *p, const struct sw_launch *l,
		    struct sw_exit *ret_exit, struct sw_record **ret_record,
		    struct sw_error *err);

/* ---- sandbox.c: `sysward run --sandbox` -------------------------------- */

/* "443,8000-8100" into *ret (its ranges malloc'd: free ret->ranges); ""
 * is none.  0, or -EINVAL with the offending part said in err. */
int sw_sandbox_parse_ports(const char *text, struct sw_tcp_ports *ret,
			   struct sw_error *err);
/* The sandbox's private temporary directory: a fresh one, mode 0700,
 * under base (NULL: /tmp), for the program's TMPDIR; *ret_path
 * malloc'd.  sw_sandbox_tmp_remove(): it and everything in it, never
 * following a link; 0 or -errno (what could not be removed stays). */
int sw_sandbox_tmp_new(const char *base, char **ret_path, struct sw_error *err);
int sw_sandbox_tmp_remove(const char *path);
/* What a run that asked to see refusals (--log, --report, --gate,
 * --complain) is told under --sandbox: its refusals are the kernel's. */
const char *sw_sandbox_unseen_words(bool complain);
/*
 * An audit stream that shares the program's standard error (fd, dup'd:
 * the same open file description): each record one write(2), held while
 * the program is in the middle of a line (engine/linegate.c).  Give
 * *ret_stream as sw_launch.audit and *ret_gate as sw_launch.audit_gate;
 * fclose(*ret_stream) after the run writes what still waits and frees
 * both.  0 or -errno.
 */
struct sw_line_gate;
int sw_line_gate_open(int fd, FILE **ret_stream, struct sw_line_gate **ret_gate);
/* The program is about to write to its standard error; the stream ends
 * a line after it if ends_line (engine/actions.c calls this). */
void sw_line_gate_wrote(struct sw_line_gate *g, bool ends_line);

#endif
