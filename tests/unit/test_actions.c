// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine/actions.c against a scripted fake kernel: for each decision, the
 * PTRACE_SET_SYSCALL_INFO requests it makes (what it writes), how it
 * resumes the tracee (PTRACE_CONT, or PTRACE_SYSCALL for work at the exit
 * stop), what it does at that exit stop, and that every refusal of the
 * kernel's fails closed (the tracee killed, a warning; nothing for a
 * tracee killed meanwhile).  actions.c, session.c and warn.c are compiled
 * with SW_SYS_FAKE (engine/sys.h); the decision (decide.c, table-tested
 * in test_decide.c), the path guard and the audit writer are stubs here.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "sys.h"
#include "check_run.h"

#define PID	10000100
#define REQ_KILL (-1)

/* ---- the fake kernel ---------------------------------------------------- */

struct call { int req; pid_t pid; long data; };

static struct sw_ptrace_syscall_info get_info;	/* what GET returns */
static int get_errno, set_errno, cont_errno;	/* fail those with it */
static struct sw_ptrace_syscall_info sets[4];	/* what SET was given */
static size_t n_sets;
static struct call calls[16];			/* resumes and kills */
static size_t n_calls;

long sw_sys_ptrace(int req, pid_t pid, void *addr, void *data)
{
	if (req == SW_PTRACE_GET_SYSCALL_INFO) {
		if (get_errno) {
			errno = get_errno;
			return -1;
		}
		memcpy(data, &get_info, (size_t)addr < sizeof(get_info) ?
					(size_t)addr : sizeof(get_info));
		return sizeof(get_info);
	}
	if (req == SW_PTRACE_SET_SYSCALL_INFO) {
		ck_assert_uint_eq((size_t)addr, sizeof(struct sw_ptrace_syscall_info));
		if (set_errno) {
			errno = set_errno;
			return -1;
		}
		ck_assert_uint_lt(n_sets, 4);
		memcpy(&sets[n_sets++], data, sizeof(sets[0]));
		return 0;
	}
	ck_assert_uint_lt(n_calls, 16);
	calls[n_calls++] = (struct call){ req, pid, (long)data };
	if ((req == PTRACE_CONT || req == PTRACE_SYSCALL) && cont_errno) {
		errno = cont_errno;
		return -1;
	}
	return 0;
}

int sw_sys_kill(pid_t pid, int sig)
{
	ck_assert_uint_lt(n_calls, 16);
	calls[n_calls++] = (struct call){ REQ_KILL, pid, sig };
	return 0;
}

/* ---- the rest of the engine, scripted ---------------------------------- */

static struct sw_decision decision;		/* what sw_decide() says */
static int hook_result;				/* sw_arch_return_at_entry() */
static int hook_calls;
static int64_t hook_rval;
static bool in_vsyscall;
static int audits, audits_with_result, audits_with_error;
static int64_t audit_result;
static int warnings;

void sw_decide(const struct sw_program *prog, uint32_t audit_arch, uint64_t nr,
	       const uint64_t args[6], sw_read_str_fn read_str, void *read_ctx,
	       uint32_t *counters, struct sw_decide_scratch *scratch,
	       struct sw_decision *ret)
{
	*ret = decision;
}

int sw_read_tracee_string(void *pidp, uint64_t addr, char *buf, size_t size) { return -EFAULT; }
int sw_pathguard_read(void *ctx, uint64_t addr, char *buf, size_t size) { return -EFAULT; }
void sw_pathguard_pin(struct sw_supervisor *sup, struct sw_session *s,
		      struct sw_tracee *t, enum sw_abi abi,
		      const struct sw_pathguard_reads *rd, struct sw_decision *d) {}
void sw_pathguard_release(struct sw_tracee *t) {}
void sw_signals_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d) {}
void sw_reach_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d) {}
enum sw_abi sw_abi_of(uint32_t audit_arch, uint64_t nr) { return SW_ABI_X86_64; }
bool sw_arch_in_vsyscall(enum sw_abi abi, uint64_t ip) { return in_vsyscall; }

int sw_arch_return_at_entry(pid_t pid, int64_t rval)
{
	hook_calls++;
	hook_rval = rval;
	return hook_result;
}

int sw_audit_write(FILE *f, enum sw_log_format fmt, const struct sw_audit_rec *r)
{
	audits++;
	audits_with_result += r->has_result;
	audits_with_error += r->error != NULL;
	if (r->has_result)
		audit_result = r->result;
	return 0;
}

void sw_audit_strings_keep(struct sw_audit_strings *k, pid_t pid,
			   enum sw_abi abi, uint64_t nr, const uint64_t args[6]) {}
void sw_execguard_free(struct sw_execguard *eg) {}
void sw_record_free(struct sw_record *r) {}
void sw_record_task(struct sw_record *r) {}

/* Complain mode (decide.c lifts, record.c counts): whether actions.c
 * asks, and applies what comes back, is what is tested here. */
static int lifts, records;

bool sw_decision_lift(struct sw_decision *d, uint64_t nr, const uint64_t args[6])
{
	lifts++;
	if (d->verdict != SW_V_RETURN)
		return false;
	d->verdict = SW_V_ALLOW;
	return true;
}

void sw_record_call(struct sw_record *r, struct sw_tracee *t, enum sw_abi abi,
		    uint64_t nr, const uint64_t args[6], const struct sw_decision *d)
{
	records++;
}
void sw_program_free(struct sw_program *prog) {}
bool sw_filter_kill_by_kernel(const struct sw_program *prog, pid_t pid,
			      struct sw_ptrace_syscall_info *info,
			      const struct sw_decision *d) { return false; }

static void on_warning(struct sw_session *s, const char *msg, void *ud)
{
	warnings++;
}

/* ---- the stage ------------------------------------------------------- */

static struct sw_supervisor sup;
static struct sw_session sess;
static struct sw_tracee *t;
static uint32_t counters[1];

/* A tracee at a SECCOMP stop of nr(args), with d to be decided. */
static void stage(uint64_t nr, struct sw_decision d, bool audit_on)
{
	static struct sw_tracee tab[1];

	memset(&sup, 0, sizeof(sup));
	memset(&sess, 0, sizeof(sess));
	memset(tab, 0, sizeof(tab));
	sup.warn_fn = on_warning;
	sess.sup = &sup;
	sess.can_set = true;
	sess.counters = counters;
	sess.audit = audit_on ? stderr : NULL;	/* the stub writes nothing */
	t = &tab[0];
	t->pid = PID;
	t->s = &sess;
	memset(&get_info, 0, sizeof(get_info));
	get_info.op = SW_PTRACE_SYSCALL_INFO_SECCOMP;
	get_info.arch = 0xc000003e;	/* AUDIT_ARCH_X86_64 */
	get_info.seccomp.nr = nr;
	for (int i = 0; i < 6; i++)
		get_info.seccomp.args[i] = 100 + (uint64_t)i;
	decision = d;
	get_errno = set_errno = cont_errno = 0;
	hook_result = -EOPNOTSUPP;
	hook_calls = 0;
	in_vsyscall = false;
	n_sets = n_calls = 0;
	audits = audits_with_result = audits_with_error = 0;
	warnings = 0;
	lifts = records = 0;
}

/* At the syscall-exit stop the exit-stop work waited for. */
static void at_exit_stop(int64_t rval)
{
	memset(&get_info, 0, sizeof(get_info));
	get_info.op = SW_PTRACE_SYSCALL_INFO_EXIT;
	get_info.exit.rval = rval;
	sw_exit_stop(&sup, t);
}

static bool was(size_t i, int req, long data)
{
	return i < n_calls && calls[i].req == req && calls[i].pid == PID &&
	       calls[i].data == data;
}

static struct sw_decision allow(void)
{
	return (struct sw_decision){ .verdict = SW_V_ALLOW, .rule = 0 };
}

static struct sw_decision ret(int64_t v, bool err)
{
	return (struct sw_decision){ .verdict = SW_V_RETURN, .rule = 0,
				     .retval = v, .is_error = err };
}

static struct sw_decision rewrite(uint64_t nr, uint64_t a0)
{
	struct sw_decision d = { .verdict = SW_V_REWRITE, .rule = 0, .nr = nr };

	for (int i = 0; i < 6; i++)
		d.args[i] = 100 + (uint64_t)i;
	d.args[0] = a0;
	return d;
}

/* ---- the cases ------------------------------------------------------- */

START_TEST(allow_continues)
{
	stage(39, allow(), true);
	sw_seccomp_stop(&sup, t);
	ck_assert_uint_eq(n_sets, 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(n_calls, 1);
	ck_assert_int_eq(audits, 1);
	ck_assert_uint_eq(sess.decisions, 1);
}
END_TEST

START_TEST(allow_audited_at_exit)
{
	struct sw_decision d = allow();

	d.audit = true;
	stage(39, d, true);
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	ck_assert_int_eq(audits, 0);
	at_exit_stop(4242);
	ck_assert(was(1, PTRACE_CONT, 0));
	ck_assert_int_eq(audits_with_result, 1);
	ck_assert_int_eq(audit_result, 4242);
	ck_assert_uint_eq(n_sets, 0);
}
END_TEST

START_TEST(return_in_one_stop)
{
	/* The architecture's hook skips with the value in place: no SET,
	 * no exit stop. */
	stage(102, ret(4242, false), false);
	hook_result = 0;
	sw_seccomp_stop(&sup, t);
	ck_assert_int_eq(hook_calls, 1);
	ck_assert_int_eq(hook_rval, 4242);
	ck_assert_uint_eq(n_sets, 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(n_calls, 1);
}
END_TEST

START_TEST(return_in_two_stops)
{
	/* No hook: skip (nr -1) at entry, the value set at the exit. */
	stage(83, ret(-EROFS, true), false);
	sw_seccomp_stop(&sup, t);
	ck_assert_uint_eq(n_sets, 1);
	ck_assert_int_eq(sets[0].op, SW_PTRACE_SYSCALL_INFO_SECCOMP);
	ck_assert_uint_eq(sets[0].seccomp.nr, (uint64_t)-1);
	ck_assert_uint_eq(sets[0].flags, 0);
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	at_exit_stop(-ENOSYS);
	ck_assert_uint_eq(n_sets, 2);
	ck_assert_int_eq(sets[1].op, SW_PTRACE_SYSCALL_INFO_EXIT);
	ck_assert_int_eq(sets[1].exit.rval, -EROFS);
	ck_assert_int_eq(sets[1].exit.is_error, 1);
	ck_assert(was(1, PTRACE_CONT, 0));
}
END_TEST

START_TEST(return_with_signal)
{
	/* TRAP: the value at the exit stop, the signal with the resume. */
	struct sw_decision d = ret(-ENOSYS, true);

	d.signal = SIGSYS;
	stage(83, d, false);
	hook_result = 0;
	sw_seccomp_stop(&sup, t);
	ck_assert_int_eq(hook_calls, 0);	/* work at the exit: two stops */
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	at_exit_stop(-ENOSYS);
	ck_assert(was(1, PTRACE_CONT, SIGSYS));
}
END_TEST

START_TEST(rewrite_in_one_stop)
{
	stage(39, rewrite(110, 7), false);
	sw_seccomp_stop(&sup, t);
	ck_assert_uint_eq(n_sets, 1);
	ck_assert_uint_eq(sets[0].seccomp.nr, 110);
	ck_assert_uint_eq(sets[0].seccomp.args[0], 7);
	ck_assert_uint_eq(sets[0].seccomp.args[5], 105);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(n_calls, 1);
}
END_TEST

START_TEST(rewrite_audited_at_exit)
{
	struct sw_decision d = rewrite(110, 7);

	d.audit = true;
	stage(39, d, true);
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	at_exit_stop(1);
	ck_assert_int_eq(audits_with_result, 1);
	ck_assert(was(1, PTRACE_CONT, 0));
	ck_assert_uint_eq(n_sets, 1);		/* the exit is left alone */
}
END_TEST

START_TEST(kill_verdict)
{
	stage(101, (struct sw_decision){ .verdict = SW_V_KILL }, false);
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, REQ_KILL, SIGKILL));
	ck_assert_uint_eq(n_calls, 1);		/* never resumed */
}
END_TEST

START_TEST(set_refused_fails_closed)
{
	/* A SET the kernel refuses: the call must not run unchanged. */
	stage(39, rewrite(110, 7), true);
	set_errno = EIO;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, REQ_KILL, SIGKILL));
	ck_assert_uint_eq(n_calls, 1);
	ck_assert_int_eq(warnings, 1);
	ck_assert_int_eq(audits_with_error, 1);
}
END_TEST

START_TEST(set_of_dead_tracee_is_quiet)
{
	stage(83, ret(-EROFS, true), false);
	set_errno = ESRCH;
	sw_seccomp_stop(&sup, t);
	ck_assert_uint_eq(n_calls, 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(no_set_on_this_kernel)
{
	/* Without PTRACE_SET_SYSCALL_INFO a skip or rewrite fails closed. */
	stage(83, ret(-EROFS, true), false);
	sess.can_set = false;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, REQ_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	stage(39, rewrite(110, 7), false);
	sess.can_set = false;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, REQ_KILL, SIGKILL));
	ck_assert_uint_eq(n_sets, 0);
}
END_TEST

START_TEST(exit_set_refused_fails_closed)
{
	stage(83, ret(-EROFS, true), false);
	sw_seccomp_stop(&sup, t);
	set_errno = EIO;
	at_exit_stop(-ENOSYS);
	ck_assert(was(1, REQ_KILL, SIGKILL));
	ck_assert_uint_eq(n_calls, 2);
	ck_assert_int_eq(warnings, 1);
}
END_TEST

START_TEST(get_refused)
{
	stage(39, allow(), false);
	get_errno = EIO;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, REQ_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	stage(39, allow(), false);
	get_errno = ESRCH;
	sw_seccomp_stop(&sup, t);
	ck_assert_uint_eq(n_calls, 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(not_a_seccomp_stop)
{
	stage(39, allow(), false);
	get_info.op = SW_PTRACE_SYSCALL_INFO_ENTRY;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(sess.decisions, 0);
}
END_TEST

START_TEST(resume_refused_fails_closed)
{
	stage(39, allow(), false);
	cont_errno = EIO;
	sw_seccomp_stop(&sup, t);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert(was(1, REQ_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
}
END_TEST

START_TEST(vsyscall_rewrite_to_another_call)
{
	/* No exit stop for the vsyscall page: another call cannot be run
	 * from its SECCOMP stop; it returns ENOSYS instead. */
	stage(201, rewrite(39, 7), false);
	in_vsyscall = true;
	hook_result = 0;
	sw_seccomp_stop(&sup, t);
	ck_assert_int_eq(hook_calls, 1);
	ck_assert_int_eq(hook_rval, -ENOSYS);
	ck_assert_uint_eq(n_sets, 0);
	ck_assert(was(0, PTRACE_CONT, 0));
}
END_TEST

START_TEST(complain_lifts_and_records)
{
	/* Complain mode: the refusal is lifted (decide.c says how) before
	 * anything is done with it, and every stop goes to the record. */
	static char rec;

	stage(83, ret(-EROFS, true), false);
	sess.complain = true;
	sess.record = (struct sw_record *)&rec;
	sw_seccomp_stop(&sup, t);
	ck_assert_int_eq(lifts, 1);
	ck_assert_int_eq(records, 1);
	ck_assert_uint_eq(n_sets, 0);		/* it runs as called */
	ck_assert(was(0, PTRACE_CONT, 0));
	stage(83, ret(-EROFS, true), false);
	sw_seccomp_stop(&sup, t);
	ck_assert_int_eq(lifts, 0);		/* not complaining: enforced */
	ck_assert_int_eq(records, 0);
	ck_assert_uint_eq(n_sets, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("actions");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, allow_continues);
	tcase_add_test(tc, allow_audited_at_exit);
	tcase_add_test(tc, return_in_one_stop);
	tcase_add_test(tc, return_in_two_stops);
	tcase_add_test(tc, return_with_signal);
	tcase_add_test(tc, rewrite_in_one_stop);
	tcase_add_test(tc, rewrite_audited_at_exit);
	tcase_add_test(tc, kill_verdict);
	tcase_add_test(tc, set_refused_fails_closed);
	tcase_add_test(tc, set_of_dead_tracee_is_quiet);
	tcase_add_test(tc, no_set_on_this_kernel);
	tcase_add_test(tc, exit_set_refused_fails_closed);
	tcase_add_test(tc, get_refused);
	tcase_add_test(tc, not_a_seccomp_stop);
	tcase_add_test(tc, resume_refused_fails_closed);
	tcase_add_test(tc, vsyscall_rewrite_to_another_call);
	tcase_add_test(tc, complain_lifts_and_records);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
