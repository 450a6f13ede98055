// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Apply a decision at a SECCOMP stop with PTRACE_SET_SYSCALL_INFO, strace
 * style: an entry hook (change nr/args, or nr = -1 to skip) and an exit
 * hook (set the return value of a skipped call).  Every SET is checked;
 * a failed tampering kills the program rather than let the call run
 * unchanged against the policy.
 *
 * A SECCOMP stop goes through five steps, each its own function: capture
 * (the call in flight, t->call, read once), decide (and pin its path
 * strings), contain, record, apply.  Neither handler resumes the tracee:
 * each returns its plan (struct sw_resume), which the dispatcher makes in
 * one place (sw_restart()).
 *
 * Hot path: GET, SET, CONT for a rewrite; GET, skip with the return
 * value (the architecture's hook, arch/x86_64.c), CONT for a skip or
 * emulation, in its one SECCOMP stop; GET, SET, SYSCALL, SET, CONT (an
 * exit stop) where the architecture has no hook or the exit has work to
 * do.  No allocation, no other syscall unless an audit line is due.
 *
 * A call through the legacy vsyscall page has no exit stop
 * (arch/x86_64.c): it is finished in its SECCOMP stop (return value set
 * there, one_stop()).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>

#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "decide/decide.h"
#include "record/audit.h"
#include "trace/fscomplain.h"
#include "trace/pathguard.h"
#include "trace/peers.h"
#include "trace/reach.h"
#include "trace/resultcheck.h"
#include "trace/trace.h"
#include "trace/listener.h"

/* si_code of a seccomp trap's SIGSYS (<asm-generic/siginfo.h>, which
 * clashes with glibc's <signal.h>). */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

/*
 * The decision on t's call in flight (t->call, t->d) as its audit line
 * says it: the call as the program made it (before any rewrite).
 */
static void audit(struct sw_tracee *t, bool has_result, int64_t result,
		  const char *error)
{
	struct sw_session *s = t->s;
	struct sw_audit_rec rec = {
		.session_id = s->id, .pid = t->pid, .abi = t->call.abi,
		.nr = t->call.nr, .d = &t->d, .prog = s->prog,
		.has_result = has_result, .result = result, .error = error,
		.kept = t->kept.kept ? &t->kept : NULL,
	};

	if (!s->audit)
		return;
	memcpy(rec.args, t->call.args, sizeof(rec.args));
	/* A daemon's lines for plain allows by path rules were most of its
	 * log (issue 35: 614,358 newfstatat of 942,475) and of its cost;
	 * a connect judged at its exit (peers.c) keeps its line. */
	if (!s->audit_allows && !t->pc && sw_audit_plain_allow(&rec))
		return;
	/* A write that stopped only for the line gate (linegate.c). */
	if (t->observed && sw_audit_plain_allow(&rec))
		return;
	(void)sw_audit_write(s->audit, s->audit_format, &rec);
}

/* The tampering failed: say so, log it, and fail closed. */
static SW_PLAN tamper_failed(struct sw_tracee *t, int e,
			     const char *what)
{
	char msg[256];

	if (e == ESRCH)		/* it died (SIGKILL) while stopped */
		return SW_DEAD;
	snprintf(msg, sizeof(msg), "failed to tamper with pid %d (%s): %s; killing it",
		 t->pid, what, strerror(e));
	audit(t, false, 0, msg);
	sw_warn(t->s, "%s", msg);
	sw_sys_kill(t->pid, SIGKILL);
	return SW_DEAD;
}

static long set_info(pid_t pid, struct sw_ptrace_syscall_info *info)
{
	info->flags = 0;
	info->reserved = 0;
	return sw_sys_ptrace(SW_PTRACE_SET_SYSCALL_INFO, pid,
			     (void *)sizeof(*info), info);
}

/*
 * Finish a call in its SECCOMP stop, for a call that gets no exit stop
 * (the vsyscall page): skip it with its return value in place, or run it
 * with new arguments; a different syscall cannot be run from there (the
 * kernel kills the process), so a rewrite to one fails with ENOSYS.
 */
static SW_PLAN one_stop(struct sw_tracee *t,
			struct sw_ptrace_syscall_info *info)
{
	struct sw_decision *d = &t->d;
	int r;

	/* No exit stop will free what the path guard pinned. */
	sw_pathguard_release(t);
	if (d->verdict == SW_V_REWRITE && d->nr != t->call.nr) {
		d->verdict = SW_V_RETURN;
		d->retval = -ENOSYS;
		d->is_error = true;
		d->why = "a vsyscall cannot be rewritten into another syscall";
	}
	if (d->verdict == SW_V_RETURN) {
		r = sw_arch_return_at_entry(t->pid, d->retval);
		if (r < 0)
			return tamper_failed(t, -r,
					     "skip the vsyscall and set its return value");
		audit(t, true, d->retval, NULL);
		/* TRAP: the kernel's SIGSYS cannot be raised from here; the
		 * call still fails with ENOSYS. */
	} else if (d->verdict == SW_V_REWRITE) {
		memcpy(info->seccomp.args, d->args, sizeof(d->args));
		if (!t->s->can_set || set_info(t->pid, info) < 0)
			return tamper_failed(t, t->s->can_set ? errno : EOPNOTSUPP,
					     "rewrite the vsyscall's arguments");
		audit(t, false, 0, NULL);
	} else {
		audit(t, false, 0, NULL);
	}
	return SW_CONT(0);
}

/* On to the call's exit stop: a checked connect once its session is
 * held (peers.c), a call checked on its result its own way
 * (resultcheck.c). */
static SW_PLAN resume_to_exit(struct sw_supervisor *sup,
			      struct sw_tracee *t)
{
	if (t->pc)
		return sw_peers_go(sup, t);
	if (t->rc)
		return sw_rc_go(sup, t);
	return SW_SYSCALL(0);
}

/*
 * Step 1: the call in flight, captured once (t->call).  True if the stop
 * is done with here (*plan): not a SECCOMP stop, the tracee gone or
 * unreadable, or a call resultcheck.c injected.  *direct: i386's
 * socketcall carrying connect or listen, decided and run as the direct
 * call (peers.c reads its arguments once, into info).
 */
static bool capture(struct sw_tracee *t, struct sw_ptrace_syscall_info *info,
		    bool *direct, struct sw_resume *plan)
{
	struct sw_session *s = t->s;
	bool handoff = false;
	enum sw_abi abi;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid,
			  (void *)sizeof(*info), info) < 0) {
		if (errno != ESRCH) {
			sw_warn(s, "cannot read the syscall of pid %d: PTRACE_GET_SYSCALL_INFO: %s; killing it",
				t->pid, strerror(errno));
			sw_sys_kill(t->pid, SIGKILL);
		}
		*plan = SW_DEAD;
		return true;
	}
	if (info->op != SW_PTRACE_SYSCALL_INFO_SECCOMP) {
		*plan = sw_resume_on(t, 0);
		return true;
	}
	/* The launch child's exec, handing its seccomp listener over
	 * (notif.c): the exec itself is decided below as any other. */
	if (sw_notif_pending(s->notif) && t->pid == s->pid && !s->exec_done)
		handoff = sw_notif_handoff(s, t, info->arch, info->seccomp.nr,
					   info->seccomp.args);
	/* A call injected after a checked one, stopped by a filter that
	 * traces it: ours, it runs (resultcheck.c).  It is no call of the
	 * program's: t->call stays the checked one. */
	if (t->rc && sw_rc_seccomp_stop(t, plan))
		return true;
	abi = sw_abi_of(info->arch, info->seccomp.nr);
	/* A write to the program's standard error, where our audit log
	 * shares it: the gate learns where its line stands (linegate.c). */
	t->observed = s->gate && sw_line_gate_observe(s, t->pid, abi,
						      info->seccomp.nr,
						      info->seccomp.args);
	/* The handoff stops for sysward's sake only: a launch without a
	 * listener makes the same exec without a stop, and logs nothing
	 * of it where the policy lets it run. */
	t->observed |= handoff;
	*direct = sw_peers_socketcall(s, t, abi, info);
	/* From here on info's nr and arguments may change (skip,
	 * rewrite); t->call is the call as made. */
	t->call = (struct sw_call){ .arch = info->arch, .abi = abi,
				    .nr = info->seccomp.nr,
				    .ip = info->instruction_pointer };
	memcpy(t->call.args, info->seccomp.args, sizeof(t->call.args));
	return false;
}

/* Step 2: the decision on t->call, its path strings read once and, with
 * the path guard, pinned. */
static void decide(struct sw_supervisor *sup, struct sw_tracee *t)
{
	const struct sw_call *c = &t->call;
	struct sw_session *s = t->s;
	struct sw_decision *d = &t->d;

	if (s->pathguard) {
		/* Read each string once, then pin what was checked. */
		static __thread struct sw_pathguard_reads rd;

		rd.pid = t->pid;
		rd.n = 0;
		sw_decide(s->prog, c->arch, c->nr, c->args, sw_pathguard_read,
			  &rd, s->counters, &sup->scratch, d);
		if (s->complain)
			sw_decision_lift(d, c->nr, c->args);
		/* A call complain mode lets run is pinned like an allowed
		 * one: it runs with the strings the report shows. */
		sw_pathguard_pin(sup, s, t, c->abi, &rd, d);
	} else {
		sw_decide(s->prog, c->arch, c->nr, c->args, sw_read_tracee_arg,
			  &t->pid, s->counters, &sup->scratch, d);
		if (s->complain)
			sw_decision_lift(d, c->nr, c->args);
	}
}

/* Step 3: what the decision lets run stays in the session. */
static void contain(struct sw_supervisor *sup, struct sw_tracee *t,
		    bool direct)
{
	enum sw_abi abi = t->call.abi;
	struct sw_decision *d = &t->d;

	/* Signals stay inside the program's tree (signals.c), and so do
	 * limits, priorities and scheduling (reach.c): after complain
	 * mode's lift, so that a call it lets run is contained too. */
	sw_signals_contain(sup, t, abi, d);
	sw_reach_contain(sup, t, abi, d);
	/* And the uid's kernel objects (objects.c): it may ask to see the
	 * call's result (t->rc).  Before peers.c, whose check of a connect
	 * holds the session from here. */
	sw_objects_contain(sup, t, abi, d);
	if (t->rc && d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE) {
		free(t->rc);
		t->rc = NULL;
	}
	/* A connection's peer is judged at the exit stop (peers.c). */
	sw_peers_contain(sup, t, abi, d);
	if (direct && d->verdict == SW_V_ALLOW)
		d->verdict = SW_V_REWRITE;
}

/* Step 4: counted and recorded.  A checked connect goes in the record as
 * judged (peers.c); a write that stopped only for the line gate is none
 * of the policy's. */
static void record(struct sw_tracee *t)
{
	struct sw_session *s = t->s;
	const struct sw_decision *d = &t->d;

	s->decisions++;
	t->observed = t->observed && d->verdict == SW_V_ALLOW && !d->audit &&
		      !d->lifted;
	/* An open complain mode judges against the file rules goes in
	 * the record at its exit stop, as judged (fscomplain.c). */
	if (s->record && !t->pc && !t->observed &&
	    !(t->rc && t->rc->kind == SW_RC_OPEN && sw_fscomplain_on(s)))
		sw_record_call(s->record, t, t->call.abi, t->call.nr,
			       t->call.args, d);
}

/* The exit stop has work to do: keep what it needs, then on to it. */
static SW_PLAN to_exit(struct sw_supervisor *sup, struct sw_tracee *t,
		       bool audit_now)
{
	struct sw_session *s = t->s;

	t->exit_pending = true;
	t->exit_set = false;
	/* A checked connect is logged at its exit, as judged (peers.c). */
	t->exit_audit = (t->d.audit || t->pc) && s->audit;
	if (t->exit_audit)
		sw_audit_strings_keep(&t->kept, t->pid, t->call.abi,
				      t->call.nr, t->call.args);
	else if (audit_now)
		audit(t, false, 0, NULL);
	t->inject_sig = 0;
	return resume_to_exit(sup, t);
}

static SW_PLAN apply_kill(struct sw_tracee *t,
			  struct sw_ptrace_syscall_info *info)
{
	audit(t, false, 0, NULL);
	/* A kill the filter would have made: the kernel's own, on its
	 * recheck of the number the filter's prefix kills. */
	info->seccomp.nr = sw_filter_kernel_kill_nr(t->s->prog, &t->d);
	if (info->seccomp.nr && set_info(t->pid, info) == 0)
		return SW_CONT(0);
	/* SIGKILL to any thread takes the whole thread group. */
	sw_sys_kill(t->pid, SIGKILL);
	return SW_DEAD;
}

static SW_PLAN apply_return(struct sw_tracee *t,
			    struct sw_ptrace_syscall_info *info)
{
	struct sw_decision *d = &t->d;
	long r;

	if (!t->s->can_set)
		return tamper_failed(t, EOPNOTSUPP,
				     "skip: kernel lacks PTRACE_SET_SYSCALL_INFO");
	audit(t, true, d->retval, NULL);
	/*
	 * One stop where the architecture has the hook: skipped here with
	 * the return register set, the call returns that value and makes
	 * no exit stop.  Two stops when something must happen at the exit:
	 * a signal to raise (TRAP), pinned path arguments whose registers
	 * point into the guard until the exit stop restores them (route
	 * 6c), or the program's number register to give back
	 * (sw_arch_nr_in_user_reg: riscv64's a7).
	 */
	if (!d->signal && !t->n_pins && !sw_arch_nr_in_user_reg) {
		r = sw_arch_return_at_entry(t->pid, d->retval);
		if (r == 0)
			return SW_CONT(0);
		if (r != -EOPNOTSUPP)
			return tamper_failed(t, (int)-r,
					     "skip the syscall and set its return value");
	}
	/* Its exit stop reports this call, and puts back from it any
	 * argument register the path guard pinned; a trap's SIGSYS tells
	 * its handler where the call was made (t->call's ip and arch,
	 * sw_trap_signal_stop). */
	info->seccomp.nr = (uint64_t)-1;
	if (set_info(t->pid, info) < 0)
		return tamper_failed(t, errno, "skip the syscall");
	t->exit_pending = true;
	t->exit_set = true;
	t->exit_audit = false;
	t->rval = d->retval;
	t->is_error = d->is_error;
	t->inject_sig = d->signal;
	return SW_SYSCALL(0);
}

static SW_PLAN apply_rewrite(struct sw_supervisor *sup,
			     struct sw_tracee *t,
			     struct sw_ptrace_syscall_info *info)
{
	struct sw_session *s = t->s;
	struct sw_decision *d = &t->d;

	if (!s->can_set)
		return tamper_failed(t, EOPNOTSUPP,
				     "rewrite: kernel lacks PTRACE_SET_SYSCALL_INFO");
	info->seccomp.nr = d->nr;
	memcpy(info->seccomp.args, d->args, sizeof(d->args));
	if (set_info(t->pid, info) < 0)
		return tamper_failed(t, errno, "rewrite the syscall");
	/* Pinned strings stay until the exit stop; a checked connect is
	 * logged there, as judged; a checked call is decided there; a new
	 * number left in the program's register is taken back there. */
	if (t->n_pins || (d->audit && s->audit) || t->pc || t->rc ||
	    (sw_arch_nr_in_user_reg && d->nr != t->call.nr))
		return to_exit(sup, t, true);
	audit(t, false, 0, NULL);
	return SW_CONT(0);
}

/* Step 5: the decision made with PTRACE_SET_SYSCALL_INFO; t's way on. */
static SW_PLAN apply(struct sw_supervisor *sup, struct sw_tracee *t,
		     struct sw_ptrace_syscall_info *info)
{
	struct sw_session *s = t->s;
	struct sw_decision *d = &t->d;

	if (d->verdict != SW_V_KILL && sw_arch_in_vsyscall(t->call.abi, t->call.ip))
		return one_stop(t, info);
	switch (d->verdict) {
	case SW_V_ALLOW:
		if ((d->audit && s->audit) || t->pc || t->rc)
			return to_exit(sup, t, true);
		audit(t, false, 0, NULL);
		return SW_CONT(0);
	case SW_V_KILL:
		return apply_kill(t, info);
	case SW_V_RETURN:
		return apply_return(t, info);
	case SW_V_REWRITE:
		return apply_rewrite(sup, t, info);
	}
	/* No other verdict exists; were one added unhandled, its call must
	 * not run. */
	return tamper_failed(t, EPROTO, "apply an unknown verdict");
}

struct sw_resume sw_seccomp_stop(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_ptrace_syscall_info info;
	struct sw_resume plan;
	bool direct = false;

	if (!capture(t, &info, &direct, &plan)) {
		decide(sup, t);
		contain(sup, t, direct);
		record(t);
		plan = apply(sup, t, &info);
	}
	return plan;
}

struct sw_resume sw_exit_stop(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_ptrace_syscall_info info;
	struct sw_resume plan;
	int sig, e;

	sw_pathguard_release(t);
	/* The number register as the program left it, where the number the
	 * supervisor set there (a skip's -1, a rewrite's) would stay. */
	if (sw_arch_nr_in_user_reg && t->exit_pending &&
	    (t->d.verdict == SW_V_RETURN ||
	     (t->d.verdict == SW_V_REWRITE && t->d.nr != t->call.nr)) &&
	    (e = sw_arch_restore_nr(t->pid, t->call.nr)) < 0)
		return tamper_failed(t, -e, "give the syscall number register back");
	/* A checked connect's peer: it may refuse the connection made. */
	if (t->pc && sw_peers_exit(sup, t, &plan))
		return plan;
	/* A checked call: its result decided, maybe undone, with calls
	 * injected after it (resultcheck.c). */
	if (t->rc && sw_rc_syscall_stop(sup, t, &plan))
		return plan;
	sig = t->inject_sig;
	if (!t->exit_pending)
		return SW_CONT(0);
	/* The call its SECCOMP stop captured (t->call). */
	t->exit_pending = false;
	t->inject_sig = 0;
	if (t->exit_set) {
		memset(&info, 0, sizeof(info));
		info.op = SW_PTRACE_SYSCALL_INFO_EXIT;
		info.exit.rval = t->rval;
		info.exit.is_error = t->is_error;
		if (!t->s->can_set || set_info(t->pid, &info) < 0)
			return tamper_failed(t, t->s->can_set ? errno : EOPNOTSUPP,
					     "set the return value");
		/* A call refused at its exit stop (peers.c) is logged
		 * there. */
		if (t->exit_audit)
			audit(t, true, t->rval, NULL);
	} else if (t->exit_audit) {
		long r = sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid,
				       (void *)sizeof(info), &info);

		if (r >= 0 && info.op == SW_PTRACE_SYSCALL_INFO_EXIT)
			audit(t, true, info.exit.rval, NULL);
		else
			audit(t, false, 0, NULL);
	}
	sw_audit_strings_clear(&t->kept);
	/* A signal passed when resuming from a syscall stop is sent to the
	 * tracee (TRAP emulated in userspace); its delivery stop comes next
	 * (sw_trap_signal_stop). */
	t->trap_pending = sig == SIGSYS;
	return SW_CONT(sig);
}

/*
 * The SIGSYS of a trap the supervisor decided (a trap rule with path or
 * when conditions, or one counted for --report) is sent by the kernel
 * for our resume from the call's exit stop: as any signal sent by the
 * kernel, with si_code SI_KERNEL and nothing else.  The kernel's own
 * trap (SECCOMP_RET_TRAP, force_sig_seccomp) says SYS_SECCOMP, the
 * call's address, number and AUDIT_ARCH, and leaves the number in the
 * return register; a program's SIGSYS handler reads those (to emulate
 * the call, or to report it).  At the signal's delivery stop, before the
 * handler runs, they are made the kernel's: PTRACE_SETSIGINFO and the
 * register.  Any other SIGSYS (sent by a process, or raised by the
 * kernel's own filter) is left as it is.  A failure here is warned
 * about and the signal delivered as it is: the call was refused either
 * way.
 */
void sw_trap_signal_stop(struct sw_tracee *t)
{
	siginfo_t si;
	int e;

	if (!t->trap_pending)
		return;
	t->trap_pending = false;
	if (sw_sys_ptrace(PTRACE_GETSIGINFO, t->pid, NULL, &si) < 0) {
		e = errno;
		goto failed;
	}
	if (si.si_signo != SIGSYS || si.si_code != SI_KERNEL)
		return;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSYS;
	si.si_code = SYS_SECCOMP;
	si.si_errno = 0;	/* SECCOMP_RET_TRAP's data: a policy's is 0 */
	si.si_call_addr = (void *)(uintptr_t)t->call.ip;
	si.si_syscall = (int)t->call.nr;
	si.si_arch = t->call.arch;
	if (sw_sys_ptrace(PTRACE_SETSIGINFO, t->pid, NULL, &si) < 0) {
		e = errno;
		goto failed;
	}
	e = -sw_arch_trap_regs(t->pid, t->call.nr, t->call.args);
	if (e == 0)
		return;
failed:
	if (e != ESRCH)
		sw_warn(t->s, "pid %d: cannot give its SIGSYS the trap's details: %s; it gets a plain SIGSYS",
			t->pid, strerror(e));
}
