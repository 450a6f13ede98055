/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysward policy: the validated, in-memory form of a JSON policy.
 *
 * The JSON format is a superset of the OCI/Docker seccomp profile.  The
 * parser (policy/) turns a file into a struct sw_policy and reports every
 * problem as "file:line:col: message" (syntax) or "file:line:col: json.path:
 * message" (meaning; the position is that of the value the path names).
 * The engine (engine/) compiles it to a seccomp filter and the supervisor
 * evaluates it at SECCOMP stops.
 *
 * Semantics, which the engine must preserve exactly:
 *   - Rules whose includes/excludes do not apply to the launch context
 *     (capabilities, architecture, kernel version) are ignored.
 *   - Among applicable rules, the first rule in policy order that names the
 *     syscall and whose every condition holds decides; otherwise
 *     default_action (with default_errno) decides.
 *   - A rule with a "when" counter counts the calls that met its other
 *     conditions; on calls the counter does not select, the rule does not
 *     match and evaluation goes on with the next rule.
 */
#ifndef SYSWARD_POLICY_H
#define SYSWARD_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysward/error.h"

enum sw_action {
	/* Decided by the kernel from the BPF filter alone: no ptrace stop. */
	SW_ACT_ALLOW,
	SW_ACT_ERRNO,		/* fail with -errno_ret */
	SW_ACT_KILL_PROCESS,
	SW_ACT_KILL_THREAD,
	SW_ACT_TRAP,		/* SIGSYS */
	SW_ACT_KLOG,		/* SCMP_ACT_LOG: allow, kernel logs it */
	/* Need the supervisor: compiled to SCMP_ACT_TRACE(rule index). */
	SW_ACT_SKIP,		/* do not run; return ret_value / -errno */
	SW_ACT_EMULATE,		/* same effect as SKIP, spelled "pretend" */
	SW_ACT_REWRITE,		/* change args and/or syscall, then run */
	SW_ACT_AUDIT,		/* run unchanged, record decoded call */
};

/* True for actions that need a supervisor stop. */
static inline bool sw_action_needs_supervisor(enum sw_action a)
{
	return a >= SW_ACT_SKIP;
}

/* The seven SCMP_CMP_* operators; values match libseccomp's enum. */
enum sw_cmp {
	SW_CMP_NE = 1,
	SW_CMP_LT = 2,
	SW_CMP_LE = 3,
	SW_CMP_EQ = 4,
	SW_CMP_GE = 5,
	SW_CMP_GT = 6,
	SW_CMP_MASKED_EQ = 7,	/* (arg & value) == value_two */
};

struct sw_arg_cond {
	unsigned int index;	/* 0..5 */
	enum sw_cmp op;
	uint64_t value;
	uint64_t value_two;
};

enum sw_match {
	SW_MATCH_EXACT,
	SW_MATCH_PREFIX,
	SW_MATCH_GLOB,		/* fnmatch(3) with FNM_PATHNAME */
};

/* A condition on a NUL-terminated string argument read from the tracee. */
struct sw_path_cond {
	unsigned int index;	/* which argument holds the pointer */
	enum sw_match match;
	char *pattern;
	bool negate;		/* holds when the string does NOT match */
};

enum sw_rewrite_op {
	SW_REWRITE_SET,		/* arg = value */
	SW_REWRITE_AND,		/* arg &= value (e.g. ~O_CREAT) */
	SW_REWRITE_OR,		/* arg |= value */
};

struct sw_arg_rewrite {
	unsigned int index;
	enum sw_rewrite_op op;
	uint64_t value;
};

/* Capability / arch / kernel gates, as in Docker's profile. */
struct sw_gate {
	uint64_t caps;		/* bitmask of CAP_* numbers */
	char **arches;		/* OCI spellings ("amd64", "x86"), NULL-ended */
	unsigned int min_kernel;	/* KERNEL_VERSION(a, b, 0), 0 = none */
};

struct sw_rule {
	/* Syscall names as written, NULL-ended.  Every name is known to the
	 * linked libseccomp on at least one architecture (it may still not
	 * exist on the policy's: libseccomp then returns a negative pseudo
	 * number, which seccomp_rule_add ignores).  Names of real syscalls
	 * that this libseccomp does not know are dropped with a warning, so
	 * n_names may be 0: such a rule matches nothing. */
	char **names;
	size_t n_names;
	enum sw_action action;

	int errno_ret;		/* SW_ACT_ERRNO; also SKIP/EMULATE if ret_is_errno */
	int64_t ret_value;	/* SKIP/EMULATE return value */
	bool ret_is_errno;	/* SKIP/EMULATE return -errno_ret */

	struct sw_arg_cond *args;	/* all must hold (BPF-checkable) */
	size_t n_args;
	struct sw_path_cond *paths;	/* all must hold (supervisor only) */
	size_t n_paths;

	/* SW_ACT_REWRITE */
	char *new_syscall;	/* NULL = keep the syscall */
	struct sw_arg_rewrite *rewrites;
	size_t n_rewrites;

	/* Counted fault injection, strace's when=first..last+step (1-based). */
	uint32_t when_first;	/* 0 = every call */
	uint32_t when_last;	/* 0 = no upper bound */
	uint32_t when_step;	/* 0 = only when_first (unless when_last) */

	bool audit;		/* record every decision of this rule */

	bool has_includes, has_excludes;
	struct sw_gate includes;	/* rule applies only if all hold */
	struct sw_gate excludes;	/* rule ignored if any holds */

	char *comment;
	char *json_path;	/* "syscalls[3]" for messages */
	unsigned int line;	/* source line of the rule object, 0 if unknown */

	/* Added after the first version (append-only): */
	bool needs_supervisor;	/* sw_rule_needs_supervisor(), when parsed */
};

/* The one definition: a rule the kernel cannot decide alone (a sysward
 * action, "paths", "when" or "log") compiles to SCMP_ACT_TRACE(its index)
 * and is decided at the stop. */
static inline bool sw_rule_needs_supervisor(const struct sw_rule *r)
{
	return sw_action_needs_supervisor(r->action) || r->n_paths > 0 ||
	       r->when_first || r->when_last || r->when_step || r->audit;
}

/*
 * The file-system and network sections (sysward extensions "filesystem"
 * and "network", which an OCI runtime ignores as it ignores every key it
 * does not know): hierarchies with the rights the program gets on them,
 * and the TCP ports it may bind and connect to, enforced by the kernel
 * (Landlock) on the file found and the port asked for, never on a string.
 *
 * File-system rights are the kernel's Landlock access rights, the same
 * bits (LANDLOCK_ACCESS_FS_*, include/uapi/linux/landlock.h); the policy
 * names them in words (policy/src/fsaccess.c: the one table of words,
 * named sets and the Landlock ABI that brought each right).
 */
#define SW_FS_EXECUTE		(1ULL << 0)
#define SW_FS_WRITE_FILE	(1ULL << 1)
#define SW_FS_READ_FILE		(1ULL << 2)
#define SW_FS_READ_DIR		(1ULL << 3)
#define SW_FS_REMOVE_DIR	(1ULL << 4)
#define SW_FS_REMOVE_FILE	(1ULL << 5)
#define SW_FS_MAKE_CHAR		(1ULL << 6)
#define SW_FS_MAKE_DIR		(1ULL << 7)
#define SW_FS_MAKE_REG		(1ULL << 8)
#define SW_FS_MAKE_SOCK		(1ULL << 9)
#define SW_FS_MAKE_FIFO		(1ULL << 10)
#define SW_FS_MAKE_BLOCK	(1ULL << 11)
#define SW_FS_MAKE_SYM		(1ULL << 12)
#define SW_FS_REFER		(1ULL << 13)	/* Landlock ABI 2 */
#define SW_FS_TRUNCATE		(1ULL << 14)	/* ABI 3 */
#define SW_FS_IOCTL_DEV		(1ULL << 15)	/* ABI 5 */
#define SW_FS_ALL		((1ULL << 16) - 1)
/* The rights about a file itself; the others are a directory's, about
 * its entries (the kernel refuses them in a rule on a file: EINVAL). */
#define SW_FS_FILE_RIGHTS	(SW_FS_EXECUTE | SW_FS_WRITE_FILE | SW_FS_READ_FILE | \
				 SW_FS_TRUNCATE | SW_FS_IOCTL_DEV)
/* The rights that change a file or a directory's entries: what a
 * read-only hierarchy lacks. */
#define SW_FS_WRITES		(SW_FS_ALL & ~(SW_FS_EXECUTE | SW_FS_READ_FILE | \
					       SW_FS_READ_DIR | SW_FS_IOCTL_DEV))
/* The network rights (LANDLOCK_ACCESS_NET_*, ABI 4). */
#define SW_NET_BIND_TCP		(1ULL << 0)
#define SW_NET_CONNECT_TCP	(1ULL << 1)

/* Where a file-system rule's path starts. */
enum sw_fs_base {
	SW_FS_BASE_ROOT,	/* "/...": the program's root directory */
	SW_FS_BASE_CWD,		/* "${CWD}": its working directory at launch */
	SW_FS_BASE_HOME,	/* "${HOME}": HOME in its environment */
	SW_FS_BASE_TMPDIR,	/* "${TMPDIR}": TMPDIR there, else /tmp */
};

struct sw_fs_rule {
	/* As written, without "//", "/." or a trailing "/": "/usr",
	 * "${CWD}", "${HOME}/.ssh".  rest: what follows the variable ("" or
	 * "/a/b"; the whole path for SW_FS_BASE_ROOT). */
	char *path;
	const char *rest;
	enum sw_fs_base base;
	uint64_t access;	/* SW_FS_* the program gets beneath it */
	bool optional;		/* missing at launch: skipped, not refused */
	char *json_path;	/* "filesystem.paths[2]" for messages */
};

/* TCP ports first..last, both included. */
struct sw_port_range {
	uint16_t first, last;
};

/* The TCP ports of one right ("bind" or "connect"): any (not
 * restricted), or only those of the ranges (none if n_ranges is 0). */
struct sw_tcp_ports {
	bool any;
	struct sw_port_range *ranges;
	size_t n_ranges;
	size_t n_ports;		/* how many ports the ranges hold */
};

/* A right's word ("read-file") and the Landlock ABI that brought it;
 * NULL and 0 for a bit that is no right. */
const char *sw_fs_right_name(uint64_t right);
int sw_fs_right_abi(uint64_t right);
/* The file-system rights a kernel of Landlock ABI abi can enforce. */
uint64_t sw_fs_rights_of_abi(int abi);
/* access in words for messages: a named set if one is exactly it
 * ("ro: read-file, read-dir, execute"), else the rights; "none". */
void sw_fs_access_describe(uint64_t access, char *buf, size_t len);

/* What a policy warning is about (struct sw_policy's warning_kinds). */
enum sw_policy_warning_kind {
	SW_POLICY_WARN_OTHER = 0,
	/* A real system call the installed libseccomp does not know yet,
	 * dropped from the policy: the policy is right and nothing in it
	 * can be fixed (runc ignores such names silently).  A name that is
	 * no system call at all (a typo) is SW_POLICY_WARN_OTHER.  The
	 * count of warnings past the limit has this kind when every one it
	 * counts has. */
	SW_POLICY_WARN_SYSCALL_NEWER,
	/* A lint (sw_policy_lint): a "paths" condition whose index is no
	 * path argument of a call the rule names (the table of path
	 * arguments, sysward/pathargs.h): the supervisor reads a string at
	 * a number there, and those calls fail with EFAULT. */
	SW_POLICY_WARN_NOT_A_PATH,
	/* Not a problem: a rule that grants a unix socket address (a
	 * condition on connect's address in a rule that lets it run): the
	 * service bound there may be of the program's uid, outside its
	 * session, which the engine otherwise refuses (docs/security.md,
	 * route 19); `sysward check` shows what each one grants. */
	SW_POLICY_WARN_GRANT,
	/* Not a problem: how a "filesystem" or "network" rule will be
	 * enforced on this kernel (which Landlock rights, which dropped,
	 * how a narrower hierarchy is compiled); `sysward check` shows it. */
	SW_POLICY_WARN_ENFORCE,
	/* Not a problem: which part of the machine answers a rule's calls
	 * (the kernel's filter, the seccomp listener, a ptrace stop and
	 * why); `sysward check --routes` shows it. */
	SW_POLICY_WARN_ROUTE,
};

/* "other", "syscall-newer", "not-a-path", "grant", "enforce", "route": the kind as `sysward
 * check --json` names it; NULL for a value the enum does not have. */
const char *sw_policy_warning_kind_name(enum sw_policy_warning_kind kind);

struct sw_policy {
	char *source;		/* file name used in messages */
	enum sw_action default_action;
	int default_errno;	/* defaultErrnoRet (default EPERM) */
	/* OCI SCMP_ARCH_* spellings, NULL-ended, without duplicates: from
	 * "architectures", or from the "archMap" entry of the native arch and
	 * its subArchitectures (as Docker reads it).  NULL and 0 when the
	 * policy names none. */
	char **architectures;
	size_t n_architectures;
	struct sw_rule *rules;
	size_t n_rules;

	/* Added after the first version (append-only): */
	uint32_t *arch_tokens;	/* SCMP_ARCH_* of architectures[], same order */
	uint32_t filter_flags;	/* SECCOMP_FILTER_FLAG_* from "flags" */
	/* Problems that do not make the policy invalid (system call names
	 * that were dropped, ignored OCI keys), each "file: path: message",
	 * NULL-ended; at most 64, the last one then counts the rest.  For
	 * `sysward check` and the daemon's reply; NULL when there are none. */
	char **warnings;
	size_t n_warnings;
	/* "allowIoUring": true.  The engine then leaves io_uring_setup,
	 * io_uring_enter and io_uring_register to the policy instead of
	 * denying them (SW_DEFENCE_IO_URING off; the other defences stay).
	 * Ring operations bypass seccomp, so the parser also adds a
	 * warning.  false when the key is absent. */
	bool allow_io_uring;
	/* The JSON path of each of warnings[] ("syscalls[0].names[3]"; ""
	 * for one about the whole policy), same order, NULL-ended: for a
	 * program that reads them (sysward check --json). */
	char **warning_paths;
	/* warning_kinds[i]: what warnings[i] is about (enum
	 * sw_policy_warning_kind), so that a caller can show some of them
	 * without reading their text; NULL when there are no warnings. */
	unsigned char *warning_kinds;
	/* warning_pos[i]: where in the text warnings[i] points (line and
	 * column from 1; 0 when it is about no place, as the count of
	 * warnings not shown); NULL when there are no warnings. */
	struct sw_policy_pos {
		unsigned int line, col;
	} *warning_pos;
	/* "filesystem" (has_filesystem: the section is there, even with no
	 * path: then the program gets no file at all): fs_rules in policy
	 * order; fs_strict: a right the kernel cannot enforce refuses the
	 * launch instead of being dropped. */
	bool has_filesystem;
	struct sw_fs_rule *fs_rules;
	size_t n_fs_rules;
	bool fs_strict;
	/* "network": the TCP ports the program may bind and connect to;
	 * net_strict as fs_strict. */
	bool has_network;
	struct sw_tcp_ports tcp_bind, tcp_connect;
	bool net_strict;
	/* SHA-256 of the text it was parsed from (after a byte-order mark),
	 * set by sw_policy_load_string() and _file(): what the engine's
	 * compiled-filter cache keys an entry by (engine/filtercache.c).
	 * has_text_digest is false for a policy built another way, which is
	 * then never cached; a caller that changes a loaded policy must
	 * clear it. */
	unsigned char text_digest[32];
	bool has_text_digest;
};

/* What the launched program will have, for includes/excludes. */
struct sw_policy_ctx {
	uint64_t caps;		/* effective capabilities of the program */
	uint32_t arch;		/* native SCMP_ARCH_* token */
	unsigned int kernel;	/* KERNEL_VERSION of the running kernel */
};

/*
 * Parse and validate.  On success *ret is a new policy (free with
 * sw_policy_free) and 0 is returned; on failure -errno, *ret untouched and
 * err holds the first problem as "file:line:col: msg" or "file:line:col:
 * path: msg" (sw_policy_load_string_opts() gives every one).
 */
int sw_policy_load_file(const char *path, struct sw_policy **ret,
			struct sw_error *err);
int sw_policy_load_string(const char *text, size_t len, const char *name,
			  struct sw_policy **ret, struct sw_error *err);
void sw_policy_free(struct sw_policy *p);

/*
 * The same, with what a policy author's tools want (sysward check):
 *   max_bytes   the size limit, 0 for SW_LIMIT_POLICY_BYTES; a larger one
 *               is taken up to SW_LIMIT_POLICY_BYTES_MAX (limits.h).
 *   errors      room for max_errors errors: the parser then goes on after
 *               a problem of meaning, with the next rule, the next name
 *               of a list, the next top-level key, and puts every error
 *               here in the order it finds them (the first is also err's);
 *               n_errors says how many it put, n_more how many more it
 *               found.  A syntax error (json-c's, the skim's) stops it:
 *               what follows cannot be read.  NULL: the first error only.
 */
struct sw_policy_load_opts {
	size_t max_bytes;
	struct sw_error *errors;
	size_t max_errors;
	size_t n_errors, n_more;	/* out */
};
int sw_policy_load_string_opts(const char *text, size_t len, const char *name,
			       struct sw_policy_load_opts *opts,
			       struct sw_policy **ret, struct sw_error *err);
/* The text of a policy file, NUL-terminated, within the one size limit
 * (limits.h), as sw_policy_load_file() reads it: for a caller that sends
 * the text on (sysward run --daemon).  path may be a regular file, a
 * pipe ("<(jq ...)", /dev/fd/N: read once, to its end; a named FIFO is
 * refused), or "-" for standard input (a file or a stream).  Free *ret
 * with free(). */
int sw_policy_read_file(const char *path, char **ret, size_t *ret_len,
			struct sw_error *err);
/* The same with the size limit max_bytes (sw_policy_load_opts). */
int sw_policy_read_file_max(const char *path, size_t max_bytes, char **ret,
			    size_t *ret_len, struct sw_error *err);
/* The name of the policy at path in messages: path, "<stdin>" for "-". */
const char *sw_policy_file_name(const char *path);
/* The text of a policy in a sealed memory file (F_SEAL_WRITE,
 * F_SEAL_SHRINK, F_SEAL_GROW), read from offset 0; anything else is
 * refused (-EPERM): sysward run --policy-fd, sysward-runtime's hand-off. */
int sw_policy_read_sealed_fd(int fd, char **ret, size_t *ret_len,
			     struct sw_error *err);

/*
 * Positions of JSON paths in a policy's text, for a caller's own findings
 * about a policy that loaded (the lints, `sysward check`): the parser
 * locates its errors and warnings the same way.  sw_policy_text_index()
 * reads text (valid JSON, which stays the caller's and must outlive the
 * index) once; sw_policy_text_locate() gives the line and column (from
 * 1, in bytes) of the value at path ("syscalls[3].args[0]"), of its key
 * with key (for a problem with the key itself), or of the deepest part
 * of path the text has (the object of a missing key).
 */
struct sw_policy_text;
int sw_policy_text_index(const char *text, size_t len,
			 struct sw_policy_text **ret);
void sw_policy_text_locate(const struct sw_policy_text *t, const char *path,
			   bool key, unsigned int *line, unsigned int *col);
void sw_policy_text_free(struct sw_policy_text *t);

/*
 * The architectures a policy without "architectures" (or archMap) covers,
 * as SCMP_ARCH_* tokens: the native one and those the machine's programs
 * may also run as (x86_64: x86 and x32; aarch64: arm).  The one
 * definition: the parser checks syscall names against them and the
 * engine filters them.  Returns how many it wrote.
 */
#define SW_DEFAULT_ARCHES_MAX 3
size_t sw_default_arches(uint32_t tokens[SW_DEFAULT_ARCHES_MAX]);

/* Does this rule apply to the launch context? */
bool sw_rule_applies(const struct sw_rule *r, const struct sw_policy_ctx *ctx);

/*
 * How wide the kernel reads each argument of a syscall (policy/src/argtypes.c,
 * generated from the kernel's own prototypes by scripts/gen-argtypes).  The
 * kernel casts every register to the declared type: kill(2) sees the low 32
 * bits of its pid_t, chmod(2) the low 16 of its umode_t, while a seccomp
 * filter sees all 64.  arch: SCMP_ARCH_X86_64 or _X32 (one table), _X86.
 * Returns the mask of the bits the kernel uses (0xffff, 0xffffffff or ~0;
 * ~0 for pointers, 64-bit types and syscalls the table does not know).
 * The 32-bit ABIs' own register width is the caller's business.
 */
uint64_t sw_syscall_arg_mask(uint32_t arch, const char *name, unsigned int index);
/* The six at once, with one look-up (the engine asks for every name of a
 * policy on every ABI at each launch). */
void sw_syscall_arg_masks(uint32_t arch, const char *name, uint64_t ret[6]);
/* The same table's row: one letter per argument the syscall takes
 * ('l' 64-bit, 'i' 32-bit, 'h' 16-bit, 'p' a pointer), or NULL when the
 * table does not know it on that ABI. */
const char *sw_syscall_arg_types(uint32_t arch, const char *name);

/*
 * Lints (policy/src/lint.c): what leaves a policy valid but a rule, one
 * of its names or its conditions dead or wrong -- a rule every call of
 * whose names an earlier unconditional rule decides, a name decided that
 * way with another action, a name given twice, "args" that contradict
 * each other, a "glob" whose '[' opens no bracket expression, a "paths"
 * condition on an argument that is no path of a call the rule names
 * (SW_POLICY_WARN_NOT_A_PATH; the others are SW_POLICY_WARN_OTHER).  fn
 * gets the kind, the JSON path ("syscalls[3].args") and the message, in
 * rule order, and stops the walk by returning < 0, which is then
 * returned.  The one home of these judgements: `sysward check` prints
 * them as warnings, `sysward run` those of kind NOT_A_PATH.
 */
typedef int (*sw_lint_fn)(enum sw_policy_warning_kind kind, const char *path,
			  const char *msg, void *ud);
int sw_policy_lint(const struct sw_policy *p, sw_lint_fn fn, void *ud);

/* Pure: can args[0..n) (all must hold) never hold together?  Two
 * SCMP_CMP_EQ on one index with different values, an EQ and an NE of
 * the same value on one index (*ret_a < *ret_b: the two), or a
 * SCMP_CMP_MASKED_EQ whose value has bits outside its mask (*ret_a ==
 * *ret_b).  Other operators are not judged. */
bool sw_args_contradict(const struct sw_arg_cond *args, size_t n,
			size_t *ret_a, size_t *ret_b);

/* Pure: the byte offset of the first '[' of a glob pattern that opens
 * no bracket expression (no closing ']'), which fnmatch(3) then matches
 * as a literal '[', or -1.  A '\' escapes the next character, a ']'
 * right after "[" or "[!" is a member, "[:class:]" is one. */
long sw_glob_unclosed_bracket(const char *pattern);

/*
 * What sysward adds to the OCI seccomp profile, by name, for a caller that
 * must tell a sysward policy from a profile an OCI runtime can enforce
 * without parsing it (sysward-runtime reads every container's
 * linux.seccomp): an action name of sysward's own (SYSWARD_ACT_*: runc
 * refuses them), a key of a rule that only sysward reads ("paths",
 * "when", ...: runc drops them unread, and would enforce the rule
 * without its conditions).
 */
bool sw_action_is_extension(const char *name);
bool sw_rule_key_is_extension(const char *key);
/* A top-level key only sysward reads ("filesystem", "network"): an OCI
 * runtime would run the program without what it says. */
bool sw_policy_key_is_extension(const char *key);

/* "SCMP_ACT_ALLOW", "SYSWARD_ACT_SKIP", ... for messages and audit. */
const char *sw_action_name(enum sw_action a);

#endif
