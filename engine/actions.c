// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Apply a decision at a SECCOMP stop with PTRACE_SET_SYSCALL_INFO, strace
 * style: an entry hook (change nr/args, or nr = -1 to skip) and an exit
 * hook (set the return value of a skipped call).  Every SET is checked;
 * a failed tampering kills the program rather than let the call run
 * unchanged against the policy.
 *
 * Hot path: GET, SET, CONT for a rewrite; GET, skip with the return value
 * (the architecture's hook, arch.c), CONT for a skip or emulation, in its
 * one SECCOMP stop; GET, SET, SYSCALL, SET, CONT (an exit stop) where the
 * architecture has no hook or the exit has work to do.  No allocation, no
 * other syscall unless an audit line is due.
 *
 * A call through the legacy vsyscall page has no exit stop (arch.c): it
 * is finished in its SECCOMP stop (return value set there, one_stop()).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>

#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "sys.h"

/* si_code of a seccomp trap's SIGSYS (<asm-generic/siginfo.h>, which
 * clashes with glibc's <signal.h>). */
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

void sw_resume(struct sw_tracee *t, int sig)
{
	(void)sw_tracee_resume(t, t->exit_pending, sig);
}

/*
 * One syscall stop as the audit line and the tamper failure see it: the
 * call as the program made it (before any rewrite) and the decision on
 * it.  Built once per stop: at a SECCOMP stop from its registers, at an
 * exit stop from what the entry kept in the tracee.
 */
struct stop {
	struct sw_session *s;
	struct sw_tracee *t;
	struct sw_decision *d;
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
};

static void audit(const struct stop *c, bool has_result, int64_t result,
		  const char *error)
{
	struct sw_session *s = c->s;
	struct sw_audit_rec rec = {
		.session_id = s->id, .pid = c->t->pid, .abi = c->abi,
		.nr = c->nr, .d = c->d, .prog = s->prog,
		.has_result = has_result, .result = result, .error = error,
		.kept = c->t->kept.kept ? &c->t->kept : NULL,
	};

	if (!s->audit)
		return;
	memcpy(rec.args, c->args, sizeof(rec.args));
	/* A daemon's lines for plain allows by path rules were most of its
	 * log (issue 35: 614,358 newfstatat of 942,475) and of its cost;
	 * a connect judged at its exit (peers.c) keeps its line. */
	if (!s->audit_allows && !c->t->pc && sw_audit_plain_allow(&rec))
		return;
	/* A write that stopped only for the line gate (linegate.c). */
	if (c->t->observed && sw_audit_plain_allow(&rec))
		return;
	(void)sw_audit_write(s->audit, s->audit_format, &rec);
}

/* The tampering failed: say so, log it, and fail closed. */
static void tamper_failed(const struct stop *c, int e, const char *what)
{
	char msg[256];

	if (e == ESRCH)		/* it died (SIGKILL) while stopped */
		return;
	snprintf(msg, sizeof(msg), "failed to tamper with pid %d (%s): %s; killing it",
		 c->t->pid, what, strerror(e));
	audit(c, false, 0, msg);
	sw_warn(c->s, "%s", msg);
	sw_sys_kill(c->t->pid, SIGKILL);
}

/* The call the exit stop finishes: what its audit line and a failure
 * there report. */
static void keep_for_exit(const struct stop *c)
{
	c->t->abi = c->abi;
	c->t->nr = c->nr;
	memcpy(c->t->args, c->args, sizeof(c->t->args));
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
static void one_stop(const struct stop *c, struct sw_ptrace_syscall_info *info)
{
	struct sw_tracee *t = c->t;
	struct sw_decision *d = c->d;
	int r;

	/* No exit stop will free what the path guard pinned. */
	sw_pathguard_release(t);
	if (d->verdict == SW_V_REWRITE && d->nr != c->nr) {
		d->verdict = SW_V_RETURN;
		d->retval = -ENOSYS;
		d->is_error = true;
		d->why = "a vsyscall cannot be rewritten into another syscall";
	}
	if (d->verdict == SW_V_RETURN) {
		r = sw_arch_return_at_entry(t->pid, d->retval);
		if (r < 0) {
			tamper_failed(c, -r,
				      "skip the vsyscall and set its return value");
			return;
		}
		audit(c, true, d->retval, NULL);
		/* TRAP: the kernel's SIGSYS cannot be raised from here; the
		 * call still fails with ENOSYS. */
	} else if (d->verdict == SW_V_REWRITE) {
		memcpy(info->seccomp.args, d->args, sizeof(d->args));
		if (!c->s->can_set || set_info(t->pid, info) < 0) {
			tamper_failed(c, c->s->can_set ? errno : EOPNOTSUPP,
				      "rewrite the vsyscall's arguments");
			return;
		}
		audit(c, false, 0, NULL);
	} else {
		audit(c, false, 0, NULL);
	}
	(void)sw_tracee_resume(t, false, 0);
}

/* On to the call's exit stop: a checked connect once its session is
 * held (peers.c), a call checked on its result its own way
 * (resultcheck.c). */
static void resume_to_exit(struct sw_supervisor *sup, struct sw_tracee *t)
{
	if (t->pc)
		sw_peers_go(sup, t);
	else if (t->rc)
		sw_rc_go(sup, t);
	else
		(void)sw_tracee_resume(t, true, 0);
}

void sw_seccomp_stop(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;
	struct sw_ptrace_syscall_info info;
	struct sw_decision *d = &t->d;
	pid_t pid = t->pid;
	struct stop c;
	enum sw_abi abi;
	bool direct;
	long r;

	r = sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info),
			  &info);
	if (r < 0) {
		if (errno != ESRCH) {
			sw_warn(s, "cannot read the syscall of pid %d: PTRACE_GET_SYSCALL_INFO: %s; killing it",
				pid, strerror(errno));
			sw_sys_kill(pid, SIGKILL);
		}
		return;
	}
	if (info.op != SW_PTRACE_SYSCALL_INFO_SECCOMP) {
		sw_resume(t, 0);
		return;
	}
	/* The launch child's exec, handing its seccomp listener over
	 * (notif.c): the exec itself is decided below as any other. */
	if (sw_notif_pending(s->notif) && pid == s->pid && !s->exec_done)
		sw_notif_handoff(s, t, info.arch, info.seccomp.nr,
				 info.seccomp.args);
	/* A call injected after a checked one, stopped by a filter that
	 * traces it: ours, it runs (resultcheck.c). */
	if (t->rc && sw_rc_seccomp_stop(t, info.seccomp.nr))
		return;
	abi = sw_abi_of(info.arch, info.seccomp.nr);
	/* A write to the program's standard error, where our audit log
	 * shares it: the gate learns where its line stands (linegate.c). */
	t->observed = s->gate && sw_line_gate_observe(s, pid, abi, info.seccomp.nr,
						      info.seccomp.args);
	/* i386's socketcall carrying connect or listen is decided and run as
	 * the direct call (peers.c reads its arguments once). */
	direct = sw_peers_socketcall(s, t, abi, &info);
	/* An exec event that follows comes from this call (execguard.c). */
	t->stop_abi = abi;
	t->stop_nr = info.seccomp.nr;
	memcpy(t->stop_args, info.seccomp.args, sizeof(t->stop_args));
	if (s->pathguard) {
		/* Read each string once, then pin what was checked. */
		static __thread struct sw_pathguard_reads rd;

		rd.pid = pid;
		rd.n = 0;
		sw_decide(s->prog, info.arch,
			  info.seccomp.nr, info.seccomp.args, sw_pathguard_read,
			  &rd, s->counters, &sup->scratch, d);
		if (s->complain)
			sw_decision_lift(d, info.seccomp.nr, info.seccomp.args);
		/* A call complain mode lets run is pinned like an allowed
		 * one: it runs with the strings the report shows. */
		sw_pathguard_pin(sup, s, t, abi, &rd, d);
	} else {
		sw_decide(s->prog, info.arch,
			  info.seccomp.nr, info.seccomp.args, sw_read_tracee_arg,
			  &t->pid, s->counters, &sup->scratch, d);
		if (s->complain)
			sw_decision_lift(d, info.seccomp.nr, info.seccomp.args);
	}
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
	s->decisions++;
	/* A checked connect goes in the record as judged (peers.c); a
	 * write that stopped only for the line gate is none of the
	 * policy's. */
	t->observed = t->observed && d->verdict == SW_V_ALLOW && !d->audit &&
		      !d->lifted;
	if (s->record && !t->pc && !t->observed)
		sw_record_call(s->record, t, abi, info.seccomp.nr,
			       info.seccomp.args, d);

	/* The call as made: info's nr and arguments change below when it
	 * is skipped or rewritten. */
	c = (struct stop){ .s = s, .t = t, .d = d, .abi = abi,
			   .nr = info.seccomp.nr };
	memcpy(c.args, info.seccomp.args, sizeof(c.args));
	if (d->verdict != SW_V_KILL &&
	    sw_arch_in_vsyscall(abi, info.instruction_pointer)) {
		one_stop(&c, &info);
		return;
	}
	switch (d->verdict) {
	case SW_V_ALLOW:
		if ((d->audit && s->audit) || t->pc || t->rc)
			goto to_exit;
		audit(&c, false, 0, NULL);
		(void)sw_tracee_resume(t, false, 0);
		return;
	case SW_V_KILL:
		audit(&c, false, 0, NULL);
		/* A kill the filter would have made: the kernel's own, on
		 * its recheck of the number the filter's prefix kills. */
		info.seccomp.nr = sw_filter_kernel_kill_nr(s->prog, d);
		if (info.seccomp.nr && set_info(pid, &info) == 0) {
			(void)sw_tracee_resume(t, false, 0);
			return;
		}
		/* SIGKILL to any thread takes the whole thread group. */
		sw_sys_kill(pid, SIGKILL);
		return;
	case SW_V_RETURN:
		if (!s->can_set) {
			tamper_failed(&c, EOPNOTSUPP,
				      "skip: kernel lacks PTRACE_SET_SYSCALL_INFO");
			return;
		}
		audit(&c, true, d->retval, NULL);
		/*
		 * One stop where the architecture has the hook: skipped here
		 * with the return register set, the call returns that value
		 * and makes no exit stop.  Two stops when something must
		 * happen at the exit: a signal to raise (TRAP), or pinned
		 * path arguments whose registers point into the guard until
		 * the exit stop restores them (route 6c).
		 */
		if (!d->signal && !t->n_pins) {
			r = sw_arch_return_at_entry(pid, d->retval);
			if (r == 0) {
				(void)sw_tracee_resume(t, false, 0);
				return;
			}
			if (r != -EOPNOTSUPP) {
				tamper_failed(&c, (int)-r,
					      "skip the syscall and set its return value");
				return;
			}
		}
		/* Its exit stop reports this call, and puts back from it
		 * any argument register the path guard pinned. */
		keep_for_exit(&c);
		info.seccomp.nr = (uint64_t)-1;
		if (set_info(pid, &info) < 0) {
			tamper_failed(&c, errno, "skip the syscall");
			return;
		}
		t->exit_pending = true;
		t->exit_set = true;
		t->exit_audit = false;
		t->rval = d->retval;
		t->is_error = d->is_error;
		t->inject_sig = d->signal;
		/* A trap's SIGSYS tells its handler where the call was made
		 * (sw_trap_signal_stop). */
		t->trap_arch = info.arch;
		t->trap_ip = info.instruction_pointer;
		(void)sw_tracee_resume(t, true, 0);
		return;
	case SW_V_REWRITE:
		if (!s->can_set) {
			tamper_failed(&c, EOPNOTSUPP,
				      "rewrite: kernel lacks PTRACE_SET_SYSCALL_INFO");
			return;
		}
		keep_for_exit(&c);
		info.seccomp.nr = d->nr;
		memcpy(info.seccomp.args, d->args, sizeof(d->args));
		if (set_info(pid, &info) < 0) {
			tamper_failed(&c, errno, "rewrite the syscall");
			return;
		}
		if (t->n_pins || (d->audit && s->audit) || t->pc || t->rc) {
			/* Pinned strings stay until the exit stop; a checked
			 * connect is logged there, as judged; a checked call
			 * is decided there. */
			bool at_exit = (d->audit || t->pc) && s->audit;

			if (!at_exit)
				audit(&c, false, 0, NULL);
			t->exit_pending = true;
			t->exit_set = false;
			t->exit_audit = at_exit;
			if (t->exit_audit)
				sw_audit_strings_keep(&t->kept, pid, abi, c.nr, c.args);
			t->inject_sig = 0;
			resume_to_exit(sup, t);
			return;
		}
		audit(&c, false, 0, NULL);
		(void)sw_tracee_resume(t, false, 0);
		return;
	}
	return;

to_exit:
	keep_for_exit(&c);
	t->exit_pending = true;
	t->exit_set = false;
	/* A checked connect is logged at its exit, as judged (peers.c). */
	t->exit_audit = (d->audit || t->pc) && s->audit;
	if (t->exit_audit)
		sw_audit_strings_keep(&t->kept, pid, abi, c.nr, c.args);
	else
		audit(&c, false, 0, NULL);
	t->inject_sig = 0;
	resume_to_exit(sup, t);
}

void sw_exit_stop(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_ptrace_syscall_info info;
	int sig;
	struct stop c;

	sw_pathguard_release(t);
	/* A checked connect's peer: it may refuse the connection made. */
	if (t->pc && sw_peers_exit(sup, t))
		return;
	/* A checked call: its result decided, maybe undone, with calls
	 * injected after it (resultcheck.c). */
	if (t->rc && sw_rc_syscall_stop(sup, t))
		return;
	sig = t->inject_sig;
	if (!t->exit_pending) {
		(void)sw_tracee_resume(t, false, 0);
		return;
	}
	/* The call its SECCOMP stop kept for this one (keep_for_exit()). */
	c = (struct stop){ .s = t->s, .t = t, .d = &t->d, .abi = t->abi,
			   .nr = t->nr };
	memcpy(c.args, t->args, sizeof(c.args));
	t->exit_pending = false;
	t->inject_sig = 0;
	if (t->exit_set) {
		memset(&info, 0, sizeof(info));
		info.op = SW_PTRACE_SYSCALL_INFO_EXIT;
		info.exit.rval = t->rval;
		info.exit.is_error = t->is_error;
		if (!t->s->can_set || set_info(t->pid, &info) < 0) {
			tamper_failed(&c, t->s->can_set ? errno : EOPNOTSUPP,
				      "set the return value");
			return;
		}
		/* A call refused at its exit stop (peers.c) is logged
		 * there. */
		if (t->exit_audit)
			audit(&c, true, t->rval, NULL);
	} else if (t->exit_audit) {
		long r = sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid,
				       (void *)sizeof(info), &info);

		if (r >= 0 && info.op == SW_PTRACE_SYSCALL_INFO_EXIT)
			audit(&c, true, info.exit.rval, NULL);
		else
			audit(&c, false, 0, NULL);
	}
	sw_audit_strings_clear(&t->kept);
	/* A signal passed when resuming from a syscall stop is sent to the
	 * tracee (TRAP emulated in userspace); its delivery stop comes next
	 * (sw_trap_signal_stop). */
	t->trap_pending = sig == SIGSYS;
	(void)sw_tracee_resume(t, false, sig);
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
	si.si_call_addr = (void *)(uintptr_t)t->trap_ip;
	si.si_syscall = (int)t->nr;
	si.si_arch = t->trap_arch;
	if (sw_sys_ptrace(PTRACE_SETSIGINFO, t->pid, NULL, &si) < 0) {
		e = errno;
		goto failed;
	}
	e = -sw_arch_trap_regs(t->pid, t->nr, t->args);
	if (e == 0)
		return;
failed:
	if (e != ESRCH)
		sw_warn(t->s, "pid %d: cannot give its SIGSYS the trap's details: %s; it gets a plain SIGSYS",
			t->pid, strerror(e));
}
