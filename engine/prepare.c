// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Step 2 of a launch, before its fork, on any thread (syswardd compiles
 * on worker threads of its own): the policy compiled for this launch
 * (program.c), its two filters as BPF (filter.c; libseccomp in a process
 * of its own, killed at a deadline, when the caller sets one), who
 * decides its refusals, the capabilities the program may keep, the
 * session's Landlock ruleset and its own namespaces (nsbox.c).  The child then makes
 * only async-signal-safe calls (launchchild.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <linux/version.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/clock.h"
#include "filtercache.h"
#include "prepare.h"

/*
 * The capabilities the program may keep: asked for and held by us.  A
 * program that runs as root keeps a capability inheritable only if we
 * hold it so: root's permitted set after exec comes from the bounding set
 * whatever the inheritable one says, so that set only carries over what
 * the caller gave (a container runtime's process.capabilities.inheritable,
 * which sysward-runtime's programs must see as runc gives it).  Another
 * uid needs it inheritable to keep it ambient across exec.
 */
static int prepare_caps(uint64_t want, bool root_program, cap_t *ret,
			struct sw_error *err)
{
	cap_t have = cap_get_proc(), caps = cap_init();
	int last = cap_max_bits();

	if (!have || !caps) {
		cap_free(have);
		cap_free(caps);
		return sw_error_set_errno(err, errno ? errno : ENOMEM,
					  "read this process's capabilities");
	}
	for (int c = 0; c < last && c < 64; c++) {
		cap_flag_value_t v = CAP_CLEAR;
		cap_value_t cv = c;

		if (!(want & (1ull << c)))
			continue;
		if (cap_get_flag(have, cv, CAP_PERMITTED, &v) < 0 || v != CAP_SET)
			continue;
		cap_set_flag(caps, CAP_PERMITTED, 1, &cv, CAP_SET);
		cap_set_flag(caps, CAP_EFFECTIVE, 1, &cv, CAP_SET);
		if (root_program &&
		    (cap_get_flag(have, cv, CAP_INHERITABLE, &v) < 0 || v != CAP_SET))
			continue;
		cap_set_flag(caps, CAP_INHERITABLE, 1, &cv, CAP_SET);
	}
	cap_free(have);
	*ret = caps;
	return 0;
}

static bool filter_traces(const struct sock_filter *insns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (BPF_CLASS(insns[i].code) == BPF_RET &&
		    BPF_RVAL(insns[i].code) == BPF_K &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE)
			return true;
	return false;
}
void sw_prepared_free(struct sw_prepared *pr)
{
	if (!pr)
		return;
	sw_program_free(pr->prog);
	free(pr->insns);
	free(pr->dinsns);
	if (pr->caps)
		cap_free(pr->caps);
	if (pr->landlock_fd >= 0)
		close(pr->landlock_fd);
	sw_fsrules_free(pr->fsrules);
	sw_pathrules_free(pr->pathrules);
	if (pr->sandbox_fd >= 0)
		close(pr->sandbox_fd);
	sw_fsrules_free(pr->sandbox);
	sw_sandbox_mounts_free(&pr->sandbox_mounts);
	sw_nsbox_free(&pr->nsbox);
	free(pr);
}

/* The libseccomp step: the policy's filter and the defences' as BPF. */
static int build_filters(const struct sw_program *prog, struct sw_prepared *pr,
			 struct sw_error *err)
{
	void *fctx = NULL;
	int r;

	r = sw_filter_build(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&pr->insns, &pr->n_insns, err);
	if (r >= 0)
		r = sw_filter_add_enosys(prog, (void **)&pr->insns, &pr->n_insns, err);
	if (r >= 0 && prog->listener)
		r = sw_notif_patch_filter(prog, (void **)&pr->insns, &pr->n_insns, err);
	sw_filter_free(fctx);
	fctx = NULL;
	if (r >= 0)
		r = sw_filter_build_defences(prog, &fctx, err);
	if (r >= 0)
		r = sw_filter_export(fctx, (void **)&pr->dinsns, &pr->n_dinsns, err);
	sw_filter_free(fctx);
	return r;
}

/*
 * The compiled-filter cache's key (filtercache.c) for build_filters()
 * on prog: what it reads, and what made prog (program.c from the
 * policy's text and the launch's context, then the fields prepare sets
 * below).  A new input of either belongs here, or a cached filter
 * outlives it.  Besides: the kernel facts this launch was prepared for,
 * and the program's uid (syswardd serves many clients from one cache:
 * none learns from a quick start what another ran).  false: no key (a
 * policy not loaded from text, which is never cached).
 */
static bool fcache_key(const struct sw_program *prog, const struct sw_launch *l,
		       const struct sw_kernel_support *ks,
		       unsigned char key[SW_SHA256_LEN])
{
	const struct sw_policy *p = prog->policy;
	struct sw_sha256 s;
	uid_t uid = l->uid == (uid_t)-1 ? geteuid() : l->uid;
	bool sup = prog->supervisor_pid > 0;

	if (!p->has_text_digest)
		return false;
	sw_fcache_key_begin(&s);
	sw_sha256_update(&s, p->text_digest, sizeof(p->text_digest));
	sw_sha256_update(&s, &prog->ctx.caps, sizeof(prog->ctx.caps));
	sw_sha256_update(&s, &prog->ctx.arch, sizeof(prog->ctx.arch));
	sw_sha256_update(&s, &prog->ctx.kernel, sizeof(prog->ctx.kernel));
	sw_sha256_update(&s, prog->abi_enabled, sizeof(prog->abi_enabled));
	sw_sha256_update(&s, &prog->defences, sizeof(prog->defences));
	sw_sha256_update(&s, &prog->contained, sizeof(prog->contained));
	sw_sha256_update(&s, &prog->excl_creates_new, sizeof(prog->excl_creates_new));
	sw_sha256_update(&s, &prog->fs_complain, sizeof(prog->fs_complain));
	sw_sha256_update(&s, &prog->refusals, sizeof(prog->refusals));
	sw_sha256_update(&s, &prog->listener, sizeof(prog->listener));
	/* `--log -`'s line gate: writes to descriptors 1 and 2 stop */
	sw_sha256_update(&s, &prog->observe_stderr, sizeof(prog->observe_stderr));
	sw_sha256_update(&s, &sup, sizeof(sup));
	sw_sha256_update(&s, &l->defences_off, sizeof(l->defences_off));
	sw_sha256_update(&s, &uid, sizeof(uid));
	sw_sha256_update(&s, ks->release, strnlen(ks->release, sizeof(ks->release)));
	sw_sha256_update(&s, ks->machine, strnlen(ks->machine, sizeof(ks->machine)));
	sw_sha256_update(&s, &ks->set_syscall_info, sizeof(ks->set_syscall_info));
	sw_sha256_update(&s, &ks->get_syscall_info, sizeof(ks->get_syscall_info));
	sw_sha256_update(&s, &ks->landlock_abi, sizeof(ks->landlock_abi));
	/* the "paths" rules Landlock decides (pathrules.c), from the disk */
	for (size_t i = 0; i < prog->n_rules; i++)
		sw_sha256_update(&s, &prog->rules[i].landlock, sizeof(prog->rules[i].landlock));
	sw_sha256_final(&s, key);
	return true;
}

/* build_filters(), bounded or not, through the cache when the launch
 * has one: an entry verified for this key, or a compile then stored. */
static int build_filters_cached(const struct sw_kernel_support *ks,
				const struct sw_launch *l, struct sw_prepared *pr,
				unsigned int timeout_ms, struct sw_error *err);

/* What a compile process sends back: this, then the two programs. */
struct bpf_reply {
	int r;
	uint32_t n_insns, n_dinsns;
	struct sw_error err;
};

static _Noreturn void compile_child(const struct sw_program *prog,
				    const struct sw_launch *l, int fd)
{
	struct sw_prepared pr = { 0 };
	struct bpf_reply rep = { 0 };

	/* Never outlive the thread that waits for us; and never hold the
	 * caller's other descriptors (a client's pipes) open meanwhile. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (dup2(fd, 3) < 0)
		_exit(SW_EXIT_SYSWARD_ERROR);
	close_range(4, ~0u, 0);
	/* The caller's CPU, at the program's priority, not a daemon's; and
	 * the program's credentials, so that a policy crafted against
	 * libseccomp works as its client at most (one thread here: the
	 * set*id calls need no broadcast). */
	if (l->set_nice)
		(void)setpriority(PRIO_PROCESS, 0, l->nice);
	if ((l->set_groups &&
	     sw_set_groups_within(NULL, 0, l->groups, l->n_groups) < 0) ||
	    (l->gid != (gid_t)-1 && setresgid(l->gid, l->gid, l->gid) < 0) ||
	    (l->uid != (uid_t)-1 && setresuid(l->uid, l->uid, l->uid) < 0))
		_exit(SW_EXIT_SYSWARD_ERROR);
	rep.r = build_filters(prog, &pr, &rep.err);
	rep.n_insns = (uint32_t)pr.n_insns;
	rep.n_dinsns = (uint32_t)pr.n_dinsns;
	if (write(3, &rep, sizeof(rep)) != sizeof(rep) ||
	    (rep.r >= 0 &&
	     (write(3, pr.insns, pr.n_insns * sizeof(*pr.insns)) !=
		      (ssize_t)(pr.n_insns * sizeof(*pr.insns)) ||
	      write(3, pr.dinsns, pr.n_dinsns * sizeof(*pr.dinsns)) !=
		      (ssize_t)(pr.n_dinsns * sizeof(*pr.dinsns)))))
		_exit(SW_EXIT_SYSWARD_ERROR);
	_exit(0);
}

/* Read n bytes from fd by deadline (CLOCK_MONOTONIC ms): 0, -ETIME, or
 * -EPIPE if the writer is gone first. */
static int read_by(int fd, void *buf, size_t n, long long deadline)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		long long now = sw_mono_ms();
		ssize_t k;
		int p;

		if (now >= deadline)
			return -ETIME;
		p = poll(&pfd, 1, (int)(deadline - now));
		if (p < 0 && errno != EINTR)
			return -errno;
		if (p <= 0)
			continue;
		k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (k == 0)
			return -EPIPE;
		if (k > 0)
			got += (size_t)k;
	}
	return 0;
}

static int read_bpf(int fd, struct sock_filter **ret, size_t n,
		    long long deadline)
{
	struct sock_filter *f;
	int r;

	if (n == 0 || n > BPF_MAXINSNS)
		return -EBADMSG;
	f = calloc(n, sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = read_by(fd, f, n * sizeof(*f), deadline);
	if (r < 0) {
		free(f);
		return r;
	}
	*ret = f;
	return 0;
}

/*
 * The libseccomp step in a process of its own, killed at the deadline:
 * libseccomp's time grows much faster than the policy (measured: 100
 * rules of four calls with two argument conditions 0.2 s, 300 rules 3.6
 * s, 700 rules 40 s, before its refusal as too big), it cannot be
 * interrupted, and a thread cannot be killed.  The child is forked from
 * the calling thread, so only that thread waits for it (and reaps it: a
 * tracer thread's waitpid(-1, __WNOTHREAD) never sees it).
 */
static int build_filters_bounded(const struct sw_program *prog,
				 const struct sw_launch *l,
				 struct sw_prepared *pr, unsigned int timeout_ms,
				 struct sw_error *err)
{
	cleanup_close int rfd = -1;
	struct bpf_reply rep = { 0 };
	bool child_failed = false;
	long long deadline;
	int fds[2], r;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "create a pipe to the compile process");
	deadline = sw_mono_ms() + timeout_ms;
	pid = fork();
	if (pid < 0) {
		r = errno;
		close(fds[0]);
		close(fds[1]);
		return sw_error_set_errno(err, r, "fork a compile process");
	}
	if (pid == 0)
		compile_child(prog, l, fds[1]);
	close(fds[1]);
	rfd = fds[0];
	r = read_by(rfd, &rep, sizeof(rep), deadline);
	if (r >= 0 && rep.r < 0) {
		*err = rep.err;
		r = rep.r;
		child_failed = true;
	} else if (r >= 0) {
		r = read_bpf(rfd, &pr->insns, rep.n_insns, deadline);
		if (r >= 0) {
			pr->n_insns = rep.n_insns;
			r = read_bpf(rfd, &pr->dinsns, rep.n_dinsns, deadline);
		}
		if (r >= 0)
			pr->n_dinsns = rep.n_dinsns;
	}
	/* Done or not, it goes: bounded, SIGKILL ends a process that is
	 * not traced whatever it does. */
	kill(pid, SIGKILL);
	sw_reap(pid);
	if (r == -ETIME)
		return sw_error_set(err, ETIME,
				    "libseccomp took longer than the limit of %u ms to compile the filter",
				    timeout_ms);
	if (r < 0 && !child_failed)
		return sw_error_set_errno(err, -r, "read the filter from the compile process");
	return r;
}

static int build_filters_cached(const struct sw_kernel_support *ks,
				const struct sw_launch *l, struct sw_prepared *pr,
				unsigned int timeout_ms, struct sw_error *err)
{
	unsigned char key[SW_SHA256_LEN];
	bool keyed = l->filter_cache && fcache_key(pr->prog, l, ks, key);
	int r;

	if (keyed && sw_fcache_load(l->filter_cache, key, &pr->insns, &pr->n_insns,
				    &pr->dinsns, &pr->n_dinsns))
		return 0;
	r = timeout_ms ? build_filters_bounded(pr->prog, l, pr, timeout_ms, err)
		       : build_filters(pr->prog, pr, err);
	if (r >= 0 && keyed)
		sw_fcache_store(l->filter_cache, key, pr->insns, pr->n_insns,
				pr->dinsns, pr->n_dinsns);
	return r;
}

/*
 * The "paths" rules Landlock can decide exactly for this launch
 * (pathrules.c): they leave the filter (no stop) and become the
 * session's file rules.  After refusals_for(): a run that sees
 * refusals keeps them all at the supervisor.
 */
static int plan_pathrules(const struct sw_kernel_support *ks,
			  const struct sw_launch *l, const struct sw_policy *p,
			  struct sw_prepared *pr, struct sw_error *err)
{
	const char *off = getenv("SYSWARD_PATHS_SUPERVISOR");
	struct sw_pathrule_ctx ctx = {
		.abi = ks->landlock_abi,
		.refusals_seen = pr->prog->refusals == SW_REFUSALS_SEEN ||
				 pr->prog->refusals == SW_REFUSALS_RECORDED,
		.complain = pr->prog->refusals == SW_REFUSALS_COMPLAIN,
		.daemon = l->client != NULL,
		.off = off && *off && strcmp(off, "0"),
		.uid = l->uid == (uid_t)-1 ? geteuid() : l->uid,
		.dac_cap = l->caps & (1ULL << CAP_DAC_OVERRIDE),
	};
	bool *applies;
	int r;

	applies = calloc(p->n_rules + 1, sizeof(*applies));
	if (!applies)
		return sw_error_set_errno(err, ENOMEM, "plan the paths rules");
	for (size_t i = 0; i < p->n_rules; i++)
		applies[i] = pr->prog->rules[i].applies;
	r = sw_pathrules_plan(p, applies, &ctx, &pr->pathrules, err);
	free(applies);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->n_rules; i++)
		if (sw_pathrules_kernel(pr->pathrules, i))
			pr->prog->needs_landlock_paths = true;
	if (pr->prog->needs_landlock_paths)
		sw_program_landlock_rules(pr->prog, pr->pathrules);
	return 0;
}

/*
 * Who decides the policy's refusals for this launch (enum sw_refusals):
 * complain mode must see every one; an audit log or a record wants the
 * errno ones (a stop each: bench/complain-bench.sh measures it), where
 * the kernel lets the supervisor refuse them (PTRACE_SET_SYSCALL_INFO);
 * elsewhere an audit log goes without them, as it did before, and the
 * program still runs under its policy.
 */
static int refusals_for(const struct sw_launch *l,
			const struct sw_kernel_support *ks,
			const struct sw_policy *p, enum sw_refusals *ret,
			struct sw_error *err)
{
	const char *src = p->source ? p->source : "the policy";

	*ret = SW_REFUSALS_KERNEL;
	if ((l->complain || l->record) && !ks->set_syscall_info)
		return sw_error_set(err, EOPNOTSUPP,
				    "%s of %s needs the supervisor to see every call the policy refuses, but the running kernel %s lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16 or later). Boot the patched kernel: `qemu-images/run-vm --kernel patched ...`",
				    l->complain ? "complain mode" : "a report or gate",
				    src, ks->release);
	if (l->complain)
		*ret = SW_REFUSALS_COMPLAIN;
	else if (l->record)
		*ret = SW_REFUSALS_RECORDED;	/* every refusal counted */
	else if (l->audit && ks->set_syscall_info)
		*ret = SW_REFUSALS_SEEN;
	return 0;
}

/*
 * Whether the launch answers sw_notif_rule()'s calls through a seccomp
 * listener (notif.c): NULL if it does, else why not (one home: `sysward
 * check` and sw_notif_rule_why() say these words).  Asked for
 * (sw_launch.listener), nothing that counts calls or orders log lines
 * among the program's writes (the listener's thread keeps no record;
 * it writes the log's lines of the calls it answers, notif.c), and a
 * kernel that wakes the listener on the caller's CPU
 * (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 6.6) and can still skip the calls
 * ptrace decides, and a supervisor allowed to take the listener from the
 * launch child (pidfd_getfd: inside a container run with Docker's
 * profile it is not, and a filter whose listener is never taken would
 * answer its calls ENOSYS).
 */
static const char *listener_why(const struct sw_launch *l,
				const struct sw_kernel_support *ks,
				const struct sw_program *prog)
{
	if (!l->listener)
		return sw_listener_unasked_why;
	/* A log is written by the listener's thread as at a stop (notif.c,
	 * log_write()); the refusals a log asks to see stop, as before.  A
	 * line gate orders the log's lines among the program's own writes
	 * at stops (linegate.c), a record and complain mode count calls. */
	if (l->audit_gate || l->record || l->complain ||
	    prog->refusals >= SW_REFUSALS_RECORDED)
		return sw_listener_modes_why;
	if (!ks->set_syscall_info)
		return "the kernel lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16)";
	if (prog->ctx.kernel < KERNEL_VERSION(6, 6, 0))
		return "the kernel is older than 6.6, which wakes a listener on its caller's CPU (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)";
	if (!ks->pidfd_getfd)
		return "this machine refuses pidfd_getfd of a traced child (a container's seccomp profile, an LSM): the listener could not be handed to the supervisor";
	/* An architecture whose kernel rolls an interrupted call back before
	 * the tracer sees it (arm64, riscv64) keeps every call at a ptrace
	 * stop: a listener's caller would see EINTR (engine/arch.h). */
	if (!sw_arch_restarts_interrupted())
		return "on this architecture (arm64, riscv64) a call interrupted by a signal is rolled back before the tracer sees it: a listener's caller would see EINTR";
	return NULL;
}

const char sw_listener_unasked_why[] = "the launch does not ask for one";

const char sw_listener_modes_why[] =
	"the launch records, complains or logs to its own standard error "
	"(--report, --gate, --complain, --log -): the listener's thread counts no call "
	"and does not order its lines among the program's";

/* Complain mode over file rules (the policy's or --sandbox's): the
 * supervisor judges them instead of the kernel (fscomplain.c). */
static bool fs_complain(const struct sw_launch *l, const struct sw_policy *p)
{
	return l->complain && (l->sandbox || (p && p->has_filesystem));
}

int sw_launch_prepare(const struct sw_kernel_support *ks,
		      const struct sw_policy *p, const struct sw_launch *l,
		      unsigned int timeout_ms, struct sw_prepared **ret,
		      struct sw_error *err)
{
	struct sw_policy_ctx ctx = {
		.caps = l->caps,
		.arch = seccomp_arch_native(),
		.kernel = sw_kernel_version_now(),
	};
	struct sw_prepared *pr;
	unsigned int contained;
	int r;

	if (!ks->seccomp_filter)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel (%s) has no seccomp filter support (CONFIG_SECCOMP_FILTER)",
				    ks->release);
	/* Fail closed: without a domain of its own a program reaches every
	 * process of its uid (route 16); no policy can say otherwise. */
	if (ks->landlock_abi < 1)
		return sw_error_set(err, EOPNOTSUPP,
				    "the running kernel (%s) has no Landlock: %s. sysward needs it to keep a program from reaching processes outside its session (/proc/PID/mem, /proc/PID/fd, process_vm_readv, ...). Boot a kernel built with CONFIG_SECURITY_LANDLOCK=y with landlock in its LSM list (e.g. lsm=landlock,... on the kernel command line, or CONFIG_LSM)",
				    ks->release, sw_landlock_missing_why(ks->landlock_err));
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return sw_error_set_errno(err, ENOMEM, "compile %s",
					  p->source ? p->source : "the policy");
	pr->landlock_fd = -1;
	pr->sandbox_fd = -1;
	pr->can_set = ks->set_syscall_info;
	/* Its own namespaces first: what the session contains by views of
	 * its own needs no supervisor check (objects.c). */
	r = sw_nsbox_plan(l, &pr->nsbox, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return sw_error_wrap(err, "prepare the session's own namespaces");
	}
	contained = pr->nsbox.contained;
	/* Complain mode judges the file rules at the exit stop of each
	 * open that can write (fscomplain.c): those opens must stop. */
	r = sw_program_new(&pr->prog, p, &ctx,
			   l->defences_off | (sw_objects_defences_off(contained) &
					      ~(fs_complain(l, p) ? SW_DEFENCE_OBJECT_OPENS : 0)),
			   getpid(), err);
	if (r < 0) {
		sw_prepared_free(pr);
		return r;
	}
	pr->prog->contained = contained;
	/* Not root, no capability to become root (--cap CAP_SETUID). */
	pr->prog->fs_complain = fs_complain(l, p);
	pr->prog->excl_creates_new = (l->uid == (uid_t)-1 ? geteuid() : l->uid) != 0 &&
				     !l->caps && !pr->prog->fs_complain;
	/* Where a record can be made at a stop at all (without the
	 * request, refusals stay the filter's and leave none). */
	pr->prog->observe_stderr = l->audit_gate && ks->set_syscall_info;
	pr->own_keyring = pr->prog->defences & SW_DEFENCE_KEYRINGS;
	r = refusals_for(l, ks, p, &pr->prog->refusals, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return r;
	}
	r = plan_pathrules(ks, l, p, pr, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return r;
	}
	pr->prog->no_listener_why = listener_why(l, ks, pr->prog);
	pr->prog->listener = !pr->prog->no_listener_why;
	r = build_filters_cached(ks, l, pr, timeout_ms, err);
	pr->listener = r >= 0 && pr->prog->listener &&
		       sw_notif_filter_has(pr->insns, pr->n_insns);
	/* The policy needs the supervisor if its rules do, or if the
	 * compiler had to trace a syscall to keep first-match semantics:
	 * either way its filter returns SECCOMP_RET_TRACE somewhere. */
	if (r >= 0 && (pr->prog->needs_supervisor || filter_traces(pr->insns, pr->n_insns)) &&
	    !ks->set_syscall_info && !l->allow_without_set_syscall_info)
		r = sw_error_set(err, EOPNOTSUPP,
				 "%s needs the supervisor (to skip, emulate, rewrite, log or check paths), but the running kernel %s lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16 or later): only policies of plain seccomp actions run on it. Boot the patched kernel: `qemu-images/run-vm --kernel patched ...`",
				 p->source ? p->source : "the policy", ks->release);
	/* Race-free path conditions (pathguard.c) need PTRACE_SET_SYSCALL_INFO
	 * to point arguments at the sealed copies. */
	else if (r >= 0 && ks->set_syscall_info && sw_pathguard_wanted(pr->prog))
		r = sw_pathguard_patch_filter((void **)&pr->insns, &pr->n_insns, err);
	if (r >= 0)
		r = prepare_caps(l->caps,
				 (l->uid == (uid_t)-1 ? geteuid() : l->uid) == 0,
				 &pr->caps, err);
	if (r < 0) {
		sw_prepared_free(pr);
		if (r == -EOPNOTSUPP)
			return r;
		return sw_error_wrap(err, "compile %s", p->source ? p->source : "the policy");
	}
	/* The policy's file-system and network sections: what the kernel
	 * of this Landlock ABI enforces, or the launch refused ("strict"). */
	r = pr->prog->needs_landlock_paths
		? sw_pathrules_fsrules(p, pr->pathrules, ks->landlock_abi, &pr->fsrules, err)
		: sw_fsrules_from_policy(p, l, ks->landlock_abi, !l->complain, &pr->fsrules, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return sw_error_wrap(err, "%s", p->source ? p->source : "the policy");
	}
	/* One ruleset per launch; each restrict_self makes a new domain.
	 * The child adds the file rules, in the program's view. */
	r = sw_fsrules_ruleset(pr->fsrules, ks->landlock_abi, &pr->landlock_fd, err);
	if (r < 0) {
		sw_prepared_free(pr);
		return sw_error_wrap(err, "prepare the session's Landlock domain");
	}
	/* --sandbox: a layer of its own, which the policy's narrows.
	 * Landlock and mounts only, made after build_filters_cached():
	 * the BPF programs are the same with or without it, so it is not
	 * in fcache_key() (a run with and without shares one entry). */
	if (l->sandbox) {
		/* A mount namespace of its own: the read-only trees as
		 * mounts too (EROFS).  For a daemon's client they are made
		 * after the seize (launchchild.c, the mounter): they look
		 * its paths up as root, and a workspace on a file system
		 * that never answers must hold its session only, never the
		 * daemon's tracer thread waiting for "ready" (route 13).
		 * Not in complain mode: the supervisor judges the file
		 * rules, and the program must be let write (fscomplain.c). */
		pr->sandbox_mounted = pr->nsbox.on && (pr->nsbox.unshare & CLONE_NEWNS) &&
				      !l->complain;
		r = pr->sandbox_mounted
			? sw_sandbox_mounts_plan(l->sandbox, l->cwd, &pr->sandbox_mounts, err)
			: 0;
		if (r >= 0)
			r = sw_sandbox_plan(l->sandbox, p, ks->landlock_abi,
					    pr->sandbox_mounted, !l->complain,
					    &pr->sandbox, err);
		if (r >= 0)
			r = sw_fsrules_ruleset(pr->sandbox, ks->landlock_abi,
					       &pr->sandbox_fd, err);
		if (r < 0) {
			sw_prepared_free(pr);
			return sw_error_wrap(err, "prepare the sandbox");
		}
	}
	*ret = pr;
	return 0;
}

void sw_prepared_overridden(const struct sw_prepared *pr, sw_overridden_fn fn,
			    void *ud)
{
	sw_program_overridden(pr->prog, fn, ud);
}

int sw_prepared_enforcement(struct sw_prepared *pr,
			    int (*fn)(const char *path, const char *msg, void *ud),
			    void *ud)
{
	int r = sw_pathrules_describe(pr->prog->policy, pr->pathrules, fn, ud);

	/* the compiled "paths" rules' layer is said rule by rule above */
	if (r < 0 || pr->prog->needs_landlock_paths)
		return r;
	return sw_fsrules_describe(pr->fsrules, fn, ud);
}
