// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compiled form of a policy for one launch: which rules apply (includes
 * and excludes decided once, from the launch context), every syscall name
 * resolved to its number on each ABI the filter covers, and the built-in
 * defences in force.  filter.c turns it into BPF; decide.c reads it at
 * every SECCOMP stop, so it holds no strings to look up on the hot path.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <linux/ioprio.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "contain/fsrules.h"
#include "decide/defences.h"
#include "decide/program.h"

static const char *const def_sys_names[SW_SYS_COUNT] = {
	[SW_SYS_CLONE] = "clone",
	[SW_SYS_KILL] = "kill",
	[SW_SYS_TKILL] = "tkill",
	[SW_SYS_TGKILL] = "tgkill",
	[SW_SYS_PIDFD_OPEN] = "pidfd_open",
	[SW_SYS_RT_SIGQUEUEINFO] = "rt_sigqueueinfo",
	[SW_SYS_RT_TGSIGQUEUEINFO] = "rt_tgsigqueueinfo",
	[SW_SYS_EXIT] = "exit",
	[SW_SYS_SOCKETCALL] = "socketcall",
	[SW_SYS_PIDFD_SEND_SIGNAL] = "pidfd_send_signal",
	[SW_SYS_SETPGID] = "setpgid",
	[SW_SYS_FCNTL] = "fcntl",
	[SW_SYS_FCNTL64] = "fcntl64",
	[SW_SYS_IOCTL] = "ioctl",
	[SW_SYS_PRLIMIT64] = "prlimit64",
	[SW_SYS_SETPRIORITY] = "setpriority",
	[SW_SYS_IOPRIO_SET] = "ioprio_set",
	[SW_SYS_SCHED_SETSCHEDULER] = "sched_setscheduler",
	[SW_SYS_SCHED_SETPARAM] = "sched_setparam",
	[SW_SYS_SCHED_SETATTR] = "sched_setattr",
	[SW_SYS_SCHED_SETAFFINITY] = "sched_setaffinity",
	[SW_SYS_CLOSE] = "close",
	[SW_SYS_OPEN] = "open",
	[SW_SYS_OPENAT] = "openat",
	[SW_SYS_CREAT] = "creat",
	[SW_SYS_OPENAT2] = "openat2",
	[SW_SYS_OPEN_BY_HANDLE_AT] = "open_by_handle_at",
	[SW_SYS_SHMGET] = "shmget",
	[SW_SYS_SHMAT] = "shmat",
	[SW_SYS_SHMCTL] = "shmctl",
	[SW_SYS_SEMGET] = "semget",
	[SW_SYS_SEMOP] = "semop",
	[SW_SYS_SEMTIMEDOP] = "semtimedop",
	[SW_SYS_SEMTIMEDOP_TIME64] = "semtimedop_time64",
	[SW_SYS_SEMCTL] = "semctl",
	[SW_SYS_MSGGET] = "msgget",
	[SW_SYS_MSGSND] = "msgsnd",
	[SW_SYS_MSGRCV] = "msgrcv",
	[SW_SYS_MSGCTL] = "msgctl",
	[SW_SYS_IPC] = "ipc",
	[SW_SYS_MQ_OPEN] = "mq_open",
	[SW_SYS_MQ_UNLINK] = "mq_unlink",
	[SW_SYS_MQ_TIMEDSEND] = "mq_timedsend",
	[SW_SYS_MQ_TIMEDSEND_TIME64] = "mq_timedsend_time64",
	[SW_SYS_MQ_TIMEDRECEIVE] = "mq_timedreceive",
	[SW_SYS_MQ_TIMEDRECEIVE_TIME64] = "mq_timedreceive_time64",
	[SW_SYS_MQ_NOTIFY] = "mq_notify",
	[SW_SYS_MQ_GETSETATTR] = "mq_getsetattr",
	[SW_SYS_KEYCTL] = "keyctl",
	[SW_SYS_ADD_KEY] = "add_key",
	[SW_SYS_REQUEST_KEY] = "request_key",
	[SW_SYS_UNSHARE] = "unshare",
	[SW_SYS_SETNS] = "setns",
	[SW_SYS_CONNECT] = "connect",
	[SW_SYS_LISTEN] = "listen",
	[SW_SYS_WRITE] = "write",
	[SW_SYS_WRITEV] = "writev",
	[SW_SYS_PWRITE64] = "pwrite64",
	[SW_SYS_PWRITEV] = "pwritev",
	[SW_SYS_PWRITEV2] = "pwritev2",
};

/*
 * The built-in defences that refuse a call (struct sw_denial).
 *
 * clone3: its flags (CLONE_UNTRACED among them) are in memory that cannot
 * be checked race-free; ENOSYS makes libc fall back to clone(2), whose
 * flags are an argument.
 *
 * ptrace, process_vm_writev: the program's processes are traced by the
 * supervisor; no other tracer, and no writing into another's memory.
 *
 * seccomp with SECCOMP_FILTER_FLAG_NEW_LISTENER: the kernel keeps the
 * action of highest precedence among a task's filters, and USER_NOTIF
 * outranks TRACE, so a filter of the program's own answering "continue"
 * from a listener would run any call past the supervisor.  Every listener
 * is made by seccomp(SECCOMP_SET_MODE_FILTER) with that flag
 * (prctl(PR_SET_SECCOMP) takes no flags; the other operations refuse any),
 * so the bit is refused whatever the operation and the other flags; a
 * USER_NOTIF filter without a listener only fails calls (ENOSYS).
 *
 * ioctl(TIOCSTI) types into the terminal's input: commands for the user's
 * shell once the program is gone (with the signal defences: route 11).
 *
 * io_uring: operations submitted through a ring (open, read, connect...)
 * never pass through seccomp.
 *
 * userfaultfd: a page registered with a userfaultfd that nobody serves
 * blocks whoever faults on it -- including the supervisor, whose
 * process_vm_readv of a path or an F_SETOWN_EX owner on that page waits in
 * handle_userfault (state D): the embedded supervisor, or syswardd for
 * every session.  The kernel delivers faults taken in kernel mode (remote
 * GUP, copy_from_user) only to a userfaultfd created without
 * UFFD_USER_MODE_ONLY -- which takes CAP_SYS_PTRACE,
 * vm.unprivileged_userfaultfd=1 or access to /dev/userfaultfd (root's).
 * Such a userfaultfd is refused with the EPERM an unprivileged caller gets
 * from userfaultfd(2); user-mode ones stay (a kernel read of their pages
 * fails with EFAULT instead).  The kernel reads both flags as an int:
 * userfaultfd(int flags), and USERFAULTFD_IOC_NEW's argument is the flags
 * themselves (new_userfaultfd(int)); UFFD_USER_MODE_ONLY is bit 0.
 *
 * pidfd_getfd: copies a descriptor out of any process the program holds a
 * pidfd of and may ptrace-attach (same uid, dumpable).  pidfd_open is
 * checked (signals.c), but pidfds of processes outside the session come
 * without it: SO_PEERPIDFD, SCM_PIDFD, open_by_handle_at on pidfs.  A
 * check of the pidfd at a stop would race with another thread's dup2, and
 * no rewrite names the target by pid, so the call is refused.
 */
const struct sw_denial sw_denials[SW_DENIAL_COUNT] = {
	{ SW_DEFENCE_CLONE3, "clone3", 0, { { 0 } }, ENOSYS,
	  "clone3 refused (ENOSYS), so libc falls back to clone", "1", NULL },
	{ SW_DEFENCE_PTRACE, "ptrace", 0, { { 0 } }, EPERM,
	  "ptrace denied inside the sandbox", "4", NULL },
	{ SW_DEFENCE_VM_WRITEV, "process_vm_writev", 0, { { 0 } }, EPERM,
	  "process_vm_writev denied inside the sandbox", "4", NULL },
	{ SW_DEFENCE_SECCOMP_LISTENER, "seccomp", 1,
	  { { 1, SW_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER,
	      SECCOMP_FILTER_FLAG_NEW_LISTENER } }, EPERM,
	  "seccomp user-notification listeners denied", "8", NULL },
	{ SW_DEFENCE_SIGNAL_SUPERVISOR, "ioctl", 1,
	  { { 1, SW_CMP_EQ, TIOCSTI, 0 } }, EPERM,
	  "TIOCSTI denied: it types into the terminal", "11", NULL },
	{ SW_DEFENCE_IO_URING, "io_uring_setup", 0, { { 0 } }, EPERM,
	  "io_uring bypasses seccomp: denied", "2",
	  "\"allowIoUring\": true" },
	{ SW_DEFENCE_IO_URING, "io_uring_enter", 0, { { 0 } }, EPERM,
	  "io_uring bypasses seccomp: denied", "2",
	  "\"allowIoUring\": true" },
	{ SW_DEFENCE_IO_URING, "io_uring_register", 0, { { 0 } }, EPERM,
	  "io_uring bypasses seccomp: denied", "2",
	  "\"allowIoUring\": true" },
	{ SW_DEFENCE_USERFAULTFD, "userfaultfd", 1,
	  { { 0, SW_CMP_MASKED_EQ, UFFD_USER_MODE_ONLY, 0 } }, EPERM,
	  "userfaultfd without UFFD_USER_MODE_ONLY denied: its faults would block the supervisor", "13", NULL },
	{ SW_DEFENCE_USERFAULTFD, "ioctl", 2,
	  { { 1, SW_CMP_EQ, USERFAULTFD_IOC_NEW, 0 },
	    { 2, SW_CMP_MASKED_EQ, UFFD_USER_MODE_ONLY, 0 } }, EPERM,
	  "USERFAULTFD_IOC_NEW without UFFD_USER_MODE_ONLY denied: its faults would block the supervisor", "13", NULL },
	{ SW_DEFENCE_PIDFD_GETFD, "pidfd_getfd", 0, { { 0 } }, EPERM,
	  "pidfd_getfd denied: a pidfd may name a process outside the session", "11",
	  "a rule that allows pidfd_getfd" },
};

const struct sw_pid_call sw_pid_calls[SW_PID_CALL_COUNT] = {
	{ SW_SYS_PRLIMIT64, "prlimit64", 0, -1, { 0 } },
	{ SW_SYS_SCHED_SETSCHEDULER, "sched_setscheduler", 0, -1, { 0 } },
	{ SW_SYS_SCHED_SETPARAM, "sched_setparam", 0, -1, { 0 } },
	{ SW_SYS_SCHED_SETATTR, "sched_setattr", 0, -1, { 0 } },
	{ SW_SYS_SCHED_SETAFFINITY, "sched_setaffinity", 0, -1, { 0 } },
	{ SW_SYS_SETPRIORITY, "setpriority", 1, 0,
	  { PRIO_PROCESS, PRIO_PGRP, PRIO_USER } },
	{ SW_SYS_IOPRIO_SET, "ioprio_set", 1, 0,
	  { IOPRIO_WHO_PROCESS, IOPRIO_WHO_PGRP, IOPRIO_WHO_USER } },
};

void sw_arg_masks(enum sw_abi abi, const char *name, uint64_t ret[6])
{
	uint64_t width = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;

	sw_syscall_arg_masks(sw_abi_token(abi), name, ret);
	for (unsigned int k = 0; k < 6; k++)
		ret[k] &= width;
}

uint64_t sw_arg_mask(enum sw_abi abi, const char *name, unsigned int index)
{
	uint64_t m[6];

	if (index >= 6)
		return sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	sw_arg_masks(abi, name, m);
	return m[index];
}

static bool action_restricts(enum sw_action a)
{
	return !(a == SW_ACT_ALLOW || a == SW_ACT_KLOG || a == SW_ACT_AUDIT);
}

/* Does an applicable rule name syscall `name` and let it run? */
static bool policy_allows_by_name(const struct sw_program *prog, const char *name)
{
	for (size_t i = 0; i < prog->n_rules; i++) {
		const struct sw_prog_rule *pr = &prog->rules[i];

		if (!pr->applies || action_restricts(pr->rule->action))
			continue;
		for (size_t k = 0; k < pr->rule->n_names; k++)
			if (!strcmp(pr->rule->names[k], name))
				return true;
	}
	return false;
}

/* What a "paths" condition on argument index of name reads on an ABI
 * (struct sw_prog_rule's kinds: the kind, and a sockaddr's length
 * argument above it). */
static uint8_t arg_kind(enum sw_abi abi, const char *name, unsigned int index)
{
	enum sw_arg_kind k = sw_cond_arg_kind(sw_abi_token(abi), name, index);
	struct sw_addr_arg a;

	if (k == SW_ARG_SOCKADDR && sw_addr_arg(name, &a))
		return (uint8_t)(k | a.len_index << 4);
	return (uint8_t)k;
}

/* A syscall number on an ABI, or -1.  libseccomp returns negative
 * pseudo-numbers for calls that an ABI reaches only via a multiplexer
 * (i386 socket -> socketcall); those never appear in a stop's nr. */
static int resolve(enum sw_abi abi, const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(sw_abi_token(abi), name);

	if (nr < 0)
		nr = sw_arch_resolve_fallback(abi, name);
	return nr < 0 ? -1 : nr;
}

void sw_program_free(struct sw_program *prog)
{
	if (!prog)
		return;
	for (size_t i = 0; i < prog->n_rules; i++) {
		free(prog->rules[i].nrs[0]);	/* one block for all ABIs */
		free(prog->rules[i].masks[0]);
		free(prog->rules[i].kinds[0]);
	}
	for (int a = 0; a < SW_ABI_COUNT; a++)
		free(prog->first[a]);
	free(prog->rules);
	free(prog);
}

/*
 * sw_prog_enosys's threshold per ABI (its comment has the rule).  runc
 * skips the rule when the default allows (a new call is allowed anyway)
 * and means to when the default errno is already ENOSYS (the same answer;
 * skipping it keeps the filter short).  Only rules that apply count:
 * Docker and Podman drop the others before runc sees the profile.
 */
static void enosys_plan(struct sw_program *prog)
{
	const struct sw_policy *p = prog->policy;

	switch (p->default_action) {
	case SW_ACT_ERRNO:
		if (p->default_errno == ENOSYS)
			return;
		break;
	case SW_ACT_KILL_PROCESS:
	case SW_ACT_KILL_THREAD:
	case SW_ACT_TRAP:
		break;
	default:
		return;
	}
	for (int a = 0; a < SW_ABI_COUNT; a++) {
		uint32_t max = 0;

		if (!prog->abi_enabled[a])
			continue;
		for (size_t i = 0; i < prog->n_rules; i++) {
			const struct sw_prog_rule *pr = &prog->rules[i];

			if (!pr->applies)
				continue;
			for (size_t k = 0; k < pr->rule->n_names; k++) {
				int nr = pr->nrs[a][k];

				/* libseccomp's own number only, as runc
				 * asks it: not resolve()'s fallback (i386's
				 * direct socket calls, which libseccomp
				 * names by socketcall pseudo-numbers). */
				if (nr > 0 && (uint32_t)nr > max &&
				    seccomp_syscall_resolve_name_arch(sw_abi_token(a),
								      pr->rule->names[k]) == nr)
					max = (uint32_t)nr;
			}
		}
		prog->enosys_above[a] = max;
	}
}

/* The first rule naming each syscall, per ABI: decide.c starts there
 * (rules before it cannot match), whatever TRACE data the stop carried. */
static int index_first(struct sw_program *prog)
{
	for (int a = 0; a < SW_ABI_COUNT; a++) {
		if (!prog->first[a])
			prog->first[a] = malloc(sizeof(uint16_t) * SW_NR_SPAN);
		if (!prog->first[a])
			return -ENOMEM;
		for (unsigned int nr = 0; nr < SW_NR_SPAN; nr++)
			prog->first[a][nr] = SW_HINT_NONE;
		for (size_t i = prog->n_rules; i-- > 0;) {
			const struct sw_prog_rule *pr = &prog->rules[i];

			if (!pr->applies)
				continue;
			for (size_t k = 0; k < pr->rule->n_names; k++) {
				int nr = pr->nrs[a][k];

				if (nr < 0)
					continue;
				if (sw_arch_nr_index((uint64_t)nr) < SW_NR_SPAN)
					prog->first[a][sw_arch_nr_index((uint64_t)nr)] = (uint16_t)i;
			}
		}
	}
	return 0;
}

void sw_program_landlock_rules(struct sw_program *prog, const struct sw_pathrules *lr)
{
	bool traced = false;

	for (size_t i = 0; i < prog->n_rules; i++) {
		struct sw_prog_rule *pr = &prog->rules[i];

		/* the kernel's Landlock decides it (pathrules.c): as if it
		 * were not in the policy, for the filter and the stops */
		if (sw_pathrules_compiled(lr, i)) {
			pr->applies = false;
			pr->landlock = true;
		}
		traced |= pr->applies && pr->traced;
	}
	prog->needs_supervisor = traced;
	(void)index_first(prog);	/* allocated by sw_program_new() */
}

int sw_program_new(struct sw_program **ret, const struct sw_policy *p,
		   const struct sw_policy_ctx *ctx, unsigned int defences_off,
		   pid_t supervisor_pid, struct sw_error *err)
{
	struct sw_program *prog;
	enum sw_abi native = sw_abi_native();

	if (native == SW_ABI_NONE)
		return sw_error_set(err, ENOTSUP,
				    "this machine's libseccomp reports an architecture other than this %s build's (sysward supports x86-64 and arm64)",
				    sw_arch_machine);
	if (p->n_rules > SW_MAX_RULES)
		return sw_error_set(err, E2BIG,
				    "%s: %zu rules, more than the %u a seccomp filter can name",
				    p->source ? p->source : "policy", p->n_rules,
				    SW_MAX_RULES);

	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return sw_error_set_errno(err, ENOMEM, "allocate compiled policy");
	prog->policy = p;
	prog->ctx = *ctx;
	prog->supervisor_pid = supervisor_pid;

	/* ABIs: the policy's list, else the default ones; the native ABI
	 * always, since the program itself runs on it (runc does the same). */
	if (p->n_architectures == 0 || !p->architectures) {
		uint32_t tok[SW_DEFAULT_ARCHES_MAX];
		size_t n = sw_default_arches(tok);

		for (size_t i = 0; i < n; i++)
			for (int a = 0; a < SW_ABI_COUNT; a++)
				if (sw_abi_token(a) == tok[i])
					prog->abi_enabled[a] = true;
	} else {
		for (size_t i = 0; i < p->n_architectures && p->architectures[i]; i++) {
			enum sw_abi a = sw_abi_from_name(p->architectures[i]);

			/* Named but not supervised (AArch32 on arm64): no
			 * group, its programs die at their first call. */
			if (a == SW_ABI_NONE && sw_arch_abi_unsupervised(p->architectures[i]))
				continue;
			if (a == SW_ABI_NONE) {
				char where[48];

				sw_error_set(err, EINVAL,
					     "%s: architectures[%zu]: \"%s\" is not an ABI this %s machine runs (expected %s)",
					     p->source ? p->source : "policy", i,
					     p->architectures[i], sw_arch_machine,
					     sw_arch_abi_spellings);
				snprintf(where, sizeof(where), "architectures[%zu]", i);
				sw_error_locate(err, 0, 0, where);
				sw_program_free(prog);
				return -EINVAL;
			}
			prog->abi_enabled[a] = true;
		}
	}
	prog->abi_enabled[native] = true;

	for (int a = 0; a < SW_ABI_COUNT; a++)
		for (int s = 0; s < SW_SYS_COUNT; s++) {
			prog->sys[a][s] = resolve(a, def_sys_names[s]);
			sw_arg_masks(a, def_sys_names[s], prog->sys_mask[a][s]);
		}
	for (int a = 0; a < SW_ABI_COUNT; a++)
		for (int b = 0; b < SW_DENIAL_COUNT; b++) {
			prog->denial_nr[a][b] = resolve(a, sw_denials[b].name);
			sw_arg_masks(a, sw_denials[b].name, prog->denial_mask[a][b]);
		}

	prog->n_rules = p->n_rules;
	prog->rules = calloc(p->n_rules ? p->n_rules : 1, sizeof(*prog->rules));
	if (!prog->rules) {
		free(prog);
		return sw_error_set_errno(err, ENOMEM, "allocate compiled policy");
	}
	prog->restricts = action_restricts(p->default_action);
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct sw_rule *r = &p->rules[i];
		struct sw_prog_rule *pr = &prog->rules[i];
		size_t n = r->n_names;
		int *block;
		uint64_t *mblock;
		uint8_t *kblock;

		pr->rule = r;
		pr->applies = sw_rule_applies(r, ctx);
		pr->traced = sw_rule_needs_supervisor(r);
		block = malloc(sizeof(int) * (n ? n : 1) * SW_ABI_COUNT);
		mblock = malloc(sizeof(uint64_t) * 6 * (n ? n : 1) * SW_ABI_COUNT);
		kblock = calloc(6 * (n ? n : 1) * SW_ABI_COUNT, 1);
		if (!block || !mblock || !kblock) {
			free(block);
			free(mblock);
			free(kblock);
			sw_program_free(prog);
			return sw_error_set_errno(err, ENOMEM, "allocate compiled policy");
		}
		for (int a = 0; a < SW_ABI_COUNT; a++) {
			pr->nrs[a] = block + a * (n ? n : 1);
			pr->masks[a] = mblock + a * 6 * (n ? n : 1);
			pr->kinds[a] = kblock + a * 6 * (n ? n : 1);
			for (size_t k = 0; k < n; k++) {
				pr->nrs[a][k] = resolve(a, r->names[k]);
				sw_arg_masks(a, r->names[k], &pr->masks[a][k * 6]);
				for (size_t c = 0; c < r->n_paths; c++)
					pr->kinds[a][k * 6 + (r->paths[c].index % 6)] =
						arg_kind(a, r->names[k],
							 r->paths[c].index % 6);
			}
			pr->new_nr[a] = r->new_syscall ? resolve(a, r->new_syscall) : -1;
		}
		if (!pr->applies)
			continue;
		if (pr->traced)
			prog->needs_supervisor = true;
		if (action_restricts(r->action) || r->action == SW_ACT_REWRITE)
			prog->restricts = true;
	}

	if (index_first(prog) < 0) {
		sw_program_free(prog);
		return sw_error_set_errno(err, ENOMEM, "allocate compiled policy");
	}

	prog->defences = (SW_DEFENCE_IO_URING | SW_DEFENCE_PTRACE |
			  SW_DEFENCE_VM_WRITEV | SW_DEFENCE_CLONE_UNTRACED |
			  SW_DEFENCE_CLONE3 | SW_DEFENCE_SIGNAL_SUPERVISOR |
			  SW_DEFENCE_SECCOMP_LISTENER | SW_DEFENCE_USERFAULTFD |
			  SW_DEFENCE_PIDFD_GETFD | SW_DEFENCE_PID_CALLS |
			  SW_DEFENCE_UNIX_PEERS | SW_DEFENCE_OBJECT_OPENS |
			  SW_DEFENCE_IPC | SW_DEFENCE_KEYRINGS) &
			 ~defences_off;
	/* These check targets, peers and objects against a supervisor's
	 * sessions. */
	if (supervisor_pid <= 0)
		prog->defences &= ~(SW_DEFENCE_SIGNAL_SUPERVISOR | SW_DEFENCE_PID_CALLS |
				    SW_DEFENCE_UNIX_PEERS | SW_DEFENCE_OBJECT_OPENS |
				    SW_DEFENCE_IPC | SW_DEFENCE_KEYRINGS);
	/* io_uring operations bypass seccomp entirely; they only matter when
	 * the policy restricts something, when a connection's peer is
	 * checked (IORING_OP_CONNECT is no connect(2)) or when an open must
	 * be checked (IORING_OP_OPENAT would not be: objects.c); a policy
	 * may opt in to them ("allowIoUring": true; the parser warns about
	 * it). */
	if ((!prog->restricts &&
	     !(prog->defences & (SW_DEFENCE_UNIX_PEERS | SW_DEFENCE_OBJECT_OPENS))) ||
	    p->allow_io_uring)
		prog->defences &= ~SW_DEFENCE_IO_URING;
	/* A kernel-fault userfaultfd stalls whoever reads the program's
	 * memory: on wherever a supervisor may (path and audit rules, and
	 * signals.c's F_SETOWN_EX and FIOSETOWN under any policy).  No
	 * opt-in: syswardd serves every session with one process, and one
	 * client's policy must not let its program stop the others'. */
	if (!prog->restricts && !prog->needs_supervisor && supervisor_pid <= 0)
		prog->defences &= ~SW_DEFENCE_USERFAULTFD;
	/* pidfd_getfd only matters when the policy restricts something, or
	 * when opens are checked: a descriptor objects.c refuses is in the
	 * program's table until it is closed, and another process of the
	 * session could copy it meanwhile.  A policy may let it run by
	 * naming it in a rule that allows it (the parser warns about such
	 * a rule). */
	if ((!prog->restricts && !(prog->defences & SW_DEFENCE_OBJECT_OPENS)) ||
	    policy_allows_by_name(prog, "pidfd_getfd"))
		prog->defences &= ~SW_DEFENCE_PIDFD_GETFD;
	enosys_plan(prog);

	*ret = prog;
	return 0;
}

bool sw_prog_denies_nr(const struct sw_program *prog, enum sw_abi abi, uint64_t nr)
{
	for (int b = 0; b < SW_DENIAL_COUNT; b++)
		if ((prog->defences & sw_denials[b].defence) &&
		    prog->denial_nr[abi][b] >= 0 &&
		    (uint64_t)prog->denial_nr[abi][b] == nr)
			return true;
	return false;
}

bool sw_prog_enosys(const struct sw_program *prog, enum sw_abi abi, uint64_t nr)
{
	uint32_t above = prog->enosys_above[abi];

	/* The kernel's seccomp_data.nr is an int: compared as runc's BPF
	 * does, unsigned 32 bits (so -1 is newer than everything). */
	return above && (uint32_t)nr > above && !sw_prog_denies_nr(prog, abi, nr);
}

int sw_prog_rule_name_at(const struct sw_program *prog, size_t i,
			 enum sw_abi abi, uint64_t nr)
{
	const struct sw_prog_rule *pr = &prog->rules[i];
	size_t n = pr->rule->n_names;

	for (size_t k = 0; k < n; k++)
		if (pr->nrs[abi][k] >= 0 && (uint64_t)pr->nrs[abi][k] == nr)
			return (int)k;
	return -1;
}

bool sw_prog_rule_names(const struct sw_program *prog, size_t i,
			enum sw_abi abi, uint64_t nr)
{
	return sw_prog_rule_name_at(prog, i, abi, nr) >= 0;
}

unsigned int sw_prog_first_rule(const struct sw_program *prog, enum sw_abi abi,
				uint64_t nr)
{
	uint64_t idx = sw_arch_nr_index(nr);

	if (idx < SW_NR_SPAN)
		return prog->first[abi][idx];
	for (size_t i = 0; i < prog->n_rules; i++)
		if (prog->rules[i].applies && sw_prog_rule_names(prog, i, abi, nr))
			return (unsigned int)i;
	return SW_HINT_NONE;
}

/* Actions under which the call would run, or be decided by the
 * supervisor: a refusal by the defence filter outranks them all (its
 * ERRNO beats TRACE, LOG and ALLOW, whichever filter says them). */
static bool action_lets_run(enum sw_action a)
{
	return a == SW_ACT_ALLOW || a == SW_ACT_KLOG ||
	       sw_action_needs_supervisor(a);
}

void sw_program_overridden(const struct sw_program *prog,
			   sw_overridden_fn fn, void *ud)
{
	/* Only whole-call refusals: a conditional one (ioctl TIOCSTI)
	 * leaves the rest of the call to the policy. */
	for (size_t b = 0; b < SW_DENIAL_COUNT; b++) {
		const struct sw_denial *dn = &sw_denials[b];

		if (dn->n_args || !(prog->defences & dn->defence))
			continue;
		for (size_t i = 0; i < prog->n_rules; i++) {
			const struct sw_prog_rule *pr = &prog->rules[i];

			if (!pr->applies || !action_lets_run(pr->rule->action))
				continue;
			for (size_t k = 0; k < pr->rule->n_names; k++) {
				struct sw_overridden o = {
					.rule = i, .name = k, .syscall = dn->name,
					.err = dn->err, .why = dn->why,
					.route = dn->route, .opt_in = dn->opt_in,
				};

				if (strcmp(pr->rule->names[k], dn->name) == 0)
					fn(&o, ud);
			}
		}
	}
}
