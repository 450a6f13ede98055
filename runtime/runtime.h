/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysward-runtime: an OCI runtime with runc's command line that runs a
 * container's processes under sysward when its bundle asks for it, and
 * hands everything else, unchanged, to a delegate runtime (runc or crun).
 *
 * Module map (one file per concern, README.md of this directory):
 *   main.c      global options, the command table, --help, --version
 *   cli.c       runc's options, read as its flag parser reads them
 *   config.c    which delegate, which static sysward, which policy
 *               directories (environment, then build-time defaults)
 *   log.c       the runtime log (--log, --log-format) and stderr
 *   delegate.c  exec the delegate; run it for its output (state, features)
 *   spec.c      the JSON transformations, pure: does a bundle ask for
 *               sysward, wrap and unwrap config.json, wrap an exec process
 *   source.c    the policy a bundle names: resolved, read, validated
 *   bundle.c    the bundle directory: read config.json, write it and the
 *               policy's copy atomically, never outside the bundle
 *   handoff.c   the two descriptors a container's processes get: the
 *               static sysward (read-only), the policy (sealed)
 *   create.c    create, run (and restore, refused for sysward bundles)
 *   exec.c      exec into a sysward container, under sysward too
 *   features.c  features: the delegate's, plus what sysward adds
 */
#ifndef SYSWARD_RUNTIME_H
#define SYSWARD_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "sysward/error.h"

/* How a process sysward-runtime starts executes sysward: its
 * descriptor, through the proc mount a wrapped config.json gets last
 * (handoff.c says why no path of the container's names it). */
#define RT_EXE_FMT		"/proc/self/fd/%d"
/* The descriptors sysward-runtime adds after those the delegate is asked
 * to pass on: the static sysward, then the policy. */
#define RT_HANDOFF_FDS		2
/* --preserve-fds, LISTEN_FDS: far above what any engine passes. */
#define RT_MAX_PRESERVE		65536

/* The annotation a bundle names its policy with, and the one
 * sysward-runtime adds to a config.json it rewrote (its value says where
 * the policy came from: RT_FROM_ANNOTATION or RT_FROM_SECCOMP).  exec
 * reads the latter back from the container's state. */
#define RT_ANNOTATION_POLICY	"io.sysward.policy"
#define RT_ANNOTATION_WRAPPED	"io.sysward.runtime.wrapped"
/* Also added by wrapping, for unwrapping: how many mounts it appended,
 * and the bundle's own startContainer hooks (JSON). */
#define RT_ANNOTATION_MOUNTS	"io.sysward.runtime.mounts"
#define RT_ANNOTATION_HOOKS	"io.sysward.runtime.start-hooks"
#define RT_FROM_ANNOTATION	"annotation"
#define RT_FROM_SECCOMP		"linux.seccomp"

/* A linux.seccomp section a create took as the policy, kept in the
 * bundle to put it back when the bundle is created again. */
#define RT_POLICY_COPY		"sysward-policy.json"

/* config.json and an exec's process.json: far above any real one (a
 * Kubernetes pod's config is tens of KiB), a bound on what we read. */
#define RT_LIMIT_SPEC_BYTES	(16u << 20)

/* runc's exit status for its own failures, which engines expect. */
#define RT_EXIT_FAIL		1

/* ---------------------------------------------------------------- config */

struct rt_config {
	const char *delegate;		/* as configured: a name or a path */
	char *delegate_path;		/* resolved (PATH), absolute */
	char *sysward;			/* the static sysward on the host */
	char **policy_dirs;		/* NULL-ended, each a real path */
	size_t n_policy_dirs;
	char *policy_dirs_text;		/* the setting, relative ones found,
					 * ':' between: for --help */
};

int rt_config_load(struct rt_config *c, struct sw_error *err);
void rt_config_free(struct rt_config *c);
/* The delegate's absolute path (resolved once, on first use). */
int rt_config_delegate(struct rt_config *c, const char **ret,
		       struct sw_error *err);

/* ---------------------------------------------------------------- cli */

/* One option of a runc command: "bundle,b" (long name, aliases), whether
 * it takes a value, and an id for the caller (0: not needed). */
struct rt_flag {
	const char *names;
	bool value;
	int id;
};

#define RT_MAX_SEEN 32

struct rt_args {
	/* Positional arguments, as indices into argv. */
	int pos[256];
	int n_pos;
	/* The options met with an id: the id, the index of the argument
	 * that names it, the index of its value (the same index when given
	 * as --name=value, -1 for a flag without a value), the value. */
	struct {
		int id;
		int at;
		int value_at;
		const char *value;
	} seen[RT_MAX_SEEN];
	int n_seen;
};

/*
 * Read argv[from..argc) as runc's flag parser (Go's flag package under
 * urfave/cli) reads a command's arguments: "-name" and "--name", a value
 * after "=" or in the next argument, "--" ends the options.  reorder:
 * options may follow positional arguments (urfave/cli 1's reordering,
 * runc 1.1's create and run); otherwise the first positional argument
 * ends them (the global options, exec), and is the only one recorded:
 * what follows it is the command's.  An option not in table is an error: we would not
 * know whether it takes the next argument, and so where the container's
 * id is.
 */
int rt_args_scan(const struct rt_flag *table, bool reorder, int argc,
		 char **argv, int from, struct rt_args *ret,
		 struct sw_error *err);
/* The value of the last option with id, or NULL. */
const char *rt_args_value(const struct rt_args *a, int id);
/* The index (into seen[]) of the last option with id, or -1. */
int rt_args_find(const struct rt_args *a, int id);
struct rt_cmd;
/* The command line's last option with id (as --name=VALUE if it was
 * written so) set to value, kept by reference; --name value added
 * right after the command if there is none (a's indices follow). */
int rt_args_set(struct rt_cmd *c, struct rt_args *a, int id,
		const char *name, const char *value, struct sw_error *err);

/* ---------------------------------------------------------------- log */

enum rt_level { RT_ERROR, RT_WARNING, RT_INFO, RT_DEBUG };

/* runc's --log, --log-format and --debug.  Errors and warnings go to
 * stderr always; every line also goes to the log file if there is one,
 * in runc's format (logrus text or JSON: engines read the last error
 * from it). */
struct rt_log {
	const char *path;
	bool json;
	bool debug;
};

void rt_log_setup(const char *path, const char *format, bool debug);
void rt_log(enum rt_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- delegate */

/* Replace this process with the delegate, argv[0] replaced by its path,
 * every other argument as it is.  Returns only on failure (-errno). */
int rt_delegate_exec(struct rt_config *c, char **argv, struct sw_error *err);
/* Run the delegate with the global options argv[1..n_global] and then
 * args, stdout captured into *ret_out (NUL-terminated, at most max
 * bytes), stderr passed through; *ret_status its wait status. */
int rt_delegate_run(struct rt_config *c, char **argv, int n_global,
		    const char *const *args, size_t max, char **ret_out,
		    int *ret_status, struct sw_error *err);

/* ---------------------------------------------------------------- spec */

enum rt_source {
	RT_SOURCE_NONE,			/* a plain bundle: pass through */
	RT_SOURCE_ANNOTATION,		/* annotations[io.sysward.policy] */
	RT_SOURCE_SECCOMP,		/* linux.seccomp with sysward's actions */
};

/*
 * Does spec ask for sysward, and how?  For RT_SOURCE_ANNOTATION
 * *ret_value is the annotation's value.  A linux.seccomp section asks for
 * sysward when it names a SYSWARD_ACT_* action or when sysward reads it
 * as a policy that needs its supervisor ("paths", "when", "log"): runc
 * would refuse the first and silently drop the second's keys.
 */
int rt_spec_source(json_object *spec, enum rt_source *ret,
		   const char **ret_value, struct sw_error *err);

/* What wrapping a config.json puts in. */
struct rt_wrap {
	int keep;		/* the process keeps 0..keep-1; sysward at
				 * keep, the policy at keep+1 (handoff.c) */
	const char *from;	/* RT_FROM_ANNOTATION or RT_FROM_SECCOMP */
};

/*
 * Undo a previous wrap_config() of this spec (recognised by its
 * RT_ANNOTATION_WRAPPED annotation), so that create on a bundle that was
 * created before (a retried run) wraps the original again, not our
 * wrapping.  *ret_from: the annotation's value, or NULL if the spec was
 * not wrapped.  An annotation with args that do not start with our
 * prefix is an error: someone changed them since.
 */
int rt_spec_unwrap(json_object *spec, const char **ret_from,
		   struct sw_error *err);

/*
 * Put sysward in front of spec's process: process.args prefixed with
 * sysward's command line (rt_process_wrap()), a proc mount on /proc
 * appended last (the one sysward is executed through: no mount of the
 * bundle's comes after it), every startContainer hook under a sysward of
 * its own, a createContainer hook refused, linux.seccomp removed (the
 * policy replaces it), RT_ANNOTATION_WRAPPED set.  A container without a
 * mount namespace is refused.  *ret_replaced: the linux.seccomp section
 * that was dropped (a new reference, or NULL).
 */
int rt_spec_wrap(json_object *spec, const struct rt_wrap *w,
		 json_object **ret_replaced, struct sw_error *err);

/*
 * The paths runc reads relative to the bundle's directory (root.path, a
 * bind mount's source: runc chdir()s into the bundle and joins them)
 * made absolute under dir, for a spec handed to runc from another
 * directory (rt_bundle_private()).
 */
int rt_spec_rebase(json_object *spec, const char *dir, struct sw_error *err);

/*
 * Prefix process.args (a config's process or an exec's) with sysward's
 * command line, in place: "/proc/self/fd/KEEP run -q --policy-fd KEEP+1
 * --keep-fds KEEP --no-cache [--cap CAPS] [--kill-descendants] --", --cap with
 * every capability the process would hold (its five sets, plus
 * extra_caps: runc exec --cap), --kill-descendants for a container's
 * init with a pid namespace of its own, whose end ends every process in
 * it under runc.
 */
int rt_process_wrap(json_object *process, const char *const *extra_caps,
		    size_t n_extra, bool kill_descendants, int keep,
		    struct sw_error *err);

/* Refuse keys that runc (Go's encoding/json, case-insensitive) would
 * read as one we rewrite: "Process" beside "process".  rt_spec_source()
 * and rt_process_wrap() check them. */
int rt_spec_check_keys(json_object *spec, struct sw_error *err);
int rt_process_check_keys(json_object *process, struct sw_error *err);

/* Does spec give its container a pid namespace of its own? */
bool rt_spec_new_pid_ns(json_object *spec);

/* Read JSON text (a config.json or a process.json) into *ret; name for
 * messages. */
int rt_json_parse(const char *text, size_t len, const char *name,
		  json_object **ret, struct sw_error *err);
/* A JSON object as the text we write: indented, '/' unescaped. */
const char *rt_json_text(json_object *o, size_t *ret_len);

/* ---------------------------------------------------------------- source */

/*
 * The policy's text for an annotation's value: an absolute path, or a
 * name looked up in the policy directories (NAME, then NAME.json).  The
 * file must be a regular file inside one of c->policy_dirs once every
 * symbolic link is resolved (checked on the file opened, not on the
 * name), at most SW_LIMIT_POLICY_BYTES, and a valid policy.  Inline JSON
 * is refused: the node's operator decides which policies exist.
 */
int rt_source_annotation(const struct rt_config *c, const char *value,
			 char **ret_text, size_t *ret_len, char **ret_path,
			 struct sw_error *err);
/* Validate a policy's text (name: for messages) as sysward run will. */
int rt_source_validate(const char *text, size_t len, const char *name,
		       bool *ret_needs_supervisor, struct sw_error *err);
/* Can this kernel run it?  Landlock always, PTRACE_SET_SYSCALL_INFO
 * when the policy needs the supervisor: what sysward run would refuse
 * inside the container, refused before it is created. */
int rt_source_kernel_check(bool needs_supervisor, struct sw_error *err);
/* Is fd (name: for messages) a statically linked executable (no
 * PT_INTERP)?  A dynamic one would not find its libraries inside the
 * container. */
int rt_check_static_fd(int fd, const char *name, struct sw_error *err);

/* ---------------------------------------------------------------- handoff */

/* The descriptors runc's create and run pass on from LISTEN_FDS (its
 * rule: go-systemd's activation.Files()), or -E2BIG. */
int rt_listen_fds(void);
/* --preserve-fds VALUE (NULL: absent) as a count. */
int rt_preserve_count(const char *value, int *ret, struct sw_error *err);
/* The static sysward at path, read-only (a detached read-only mount's
 * file), checked static: *ret_fd, close-on-exec. */
int rt_open_sysward(const char *path, int *ret_fd, struct sw_error *err);
/* text in a memory file (name: its name, and for messages), sealed
 * against writing, shrinking and growing if seal (the policy): *ret_fd,
 * close-on-exec. */
int rt_memfd(const char *name, const char *text, size_t len, bool seal,
	     int *ret_fd, struct sw_error *err);
/* The policy the container's process 1 (pid) runs under: its --policy-fd,
 * reopened from /proc (close-on-exec), checked sealed. */
int rt_policy_of_init(pid_t pid, int *ret_fd, struct sw_error *err);
/* Our two descriptors moved to keep and keep+1, inheritable (*fds: -1). */
int rt_handoff_place(int *sysward_fd, int *policy_fd, int keep,
		     struct sw_error *err);

/* ---------------------------------------------------------------- bundle */

struct rt_bundle {
	int fd;			/* O_DIRECTORY */
	char *path;		/* its real path, for mount sources */
	char *config_text;
	size_t config_len;
	struct rt_file_meta {
		unsigned int mode;
		unsigned int uid, gid;
	} config_meta;
};

int rt_bundle_open(const char *path, struct rt_bundle *b, struct sw_error *err);
void rt_bundle_close(struct rt_bundle *b);
/* Replace name in the bundle with text atomically (a new file, renamed
 * over it); mode/uid/gid of the new file from meta (uid -1: ours). */
int rt_bundle_write(struct rt_bundle *b, const char *name, const char *text,
		    size_t len, const struct rt_file_meta *meta,
		    struct sw_error *err);
/*
 * The bundle that create and run hand the delegate instead of the
 * bundle's own, which they never write: the directory PRIVATE_PREFIX+id
 * in it, made if missing (0700, never through a link), for the wrapped
 * config.json (rt_spec_rebase() makes its paths absolute).  *ret: fd
 * and path only.
 */
#define RT_PRIVATE_PREFIX	".sysward-"
int rt_bundle_private(struct rt_bundle *b, const char *id,
		      struct rt_bundle *ret, struct sw_error *err);
/* Read a file of the bundle (the policy copy when unwrapping). */
int rt_bundle_read(struct rt_bundle *b, const char *name, size_t max,
		   char **ret, size_t *ret_len, struct sw_error *err);
/* Read a whole file, at most max bytes (NUL-terminated). */
int rt_read_fd(int fd, const char *name, size_t max, char **ret,
	       size_t *ret_len, struct sw_error *err);

/* ---------------------------------------------------------------- commands */

/* What every command gets: the whole argv, where the command is, and the
 * configuration. */
struct rt_cmd {
	int argc;
	char **argv;
	int cmd_at;		/* argv[cmd_at] is the command */
	struct rt_config *config;
};

/* The command line's --preserve-fds (option id of a's table) set to
 * count + RT_HANDOFF_FDS, added after the command if absent. */
int rt_handoff_argv(struct rt_cmd *c, struct rt_args *a, int id,
		    int count, struct sw_error *err);

int rt_cmd_create(struct rt_cmd *c);	/* create and run */
int rt_cmd_restore(struct rt_cmd *c);
int rt_cmd_exec(struct rt_cmd *c);
int rt_cmd_features(struct rt_cmd *c);

/* Exec the delegate with argv as it is: what every command ends with. */
int rt_pass_through(struct rt_cmd *c);

#endif
