// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine/actions.c against a scripted fake kernel: for each decision, the
 * PTRACE_SET_SYSCALL_INFO requests it makes (what it writes), how it
 * resumes the tracee (PTRACE_CONT, or PTRACE_SYSCALL for work at the exit
 * stop), what it does at that exit stop, and that every refusal of the
 * kernel's fails closed (the tracee killed, a warning; nothing for a
 * tracee killed meanwhile).  The engine is the real one
 * (sysward-engine-fake), every stop goes through the tracer's dispatch:
 * decisions come from decide.c under the compiled policy below, the
 * one-stop skip is the x86-64 hook (PTRACE_POKEUSER of orig_rax and rax),
 * audit lines are audit.c's, complain mode's lift and record are
 * decide.c's and record.c's.  Only the kernel is fake (fake_kernel.c).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check_run.h"
#include "fake_kernel.h"
#include "record.h"

#define PID	10000100
#define VSYSCALL_GETTIMEOFDAY 0xffffffffff600000ull
#define VSYSCALL_TIME	0xffffffffff600400ull

#define N(...) ((char *[]){ __VA_ARGS__, NULL })
#define NN(...) (sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *))
#define RULE(act, ...) .names = N(__VA_ARGS__), .n_names = NN(__VA_ARGS__), .action = (act)
#define SET_ARG0(v) .rewrites = (struct sw_arg_rewrite[]){ { 0, SW_REWRITE_SET, (v) } }, \
		    .n_rewrites = 1

static struct sw_rule rules[] = {
	{ RULE(SW_ACT_SKIP, "getuid"), .ret_value = 4242 },
	{ RULE(SW_ACT_ERRNO, "mkdir"), .errno_ret = EROFS },
	{ RULE(SW_ACT_TRAP, "uname") },
	{ RULE(SW_ACT_REWRITE, "getpid"), .new_syscall = "getppid", SET_ARG0(7) },
	{ RULE(SW_ACT_ALLOW, "fsync"), .audit = true },
	{ RULE(SW_ACT_REWRITE, "dup"), SET_ARG0(7), .audit = true },
	{ RULE(SW_ACT_KILL_PROCESS, "rmdir") },
	{ RULE(SW_ACT_REWRITE, "gettimeofday"), .new_syscall = "getpid" },
	{ RULE(SW_ACT_REWRITE, "time"), SET_ARG0(0) },
};

static const struct sw_policy pol = {
	.source = "actions.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = rules, .n_rules = sizeof(rules) / sizeof(rules[0]),
};

/* ---- the stage ------------------------------------------------------- */

static struct sw_supervisor *sup;
static struct sw_session *sess;
static struct fk_task *ft;
static char *log_buf;
static size_t log_len;
static FILE *log_f;
static int warnings;

static void unstage(void)
{
	if (sup)
		sw_supervisor_free(sup);
	sup = NULL;
	if (log_f)
		fclose(log_f);
	log_f = NULL;
	free(log_buf);
	log_buf = NULL;
	fk_reset();
}

/* A session whose main process PID stops at a SECCOMP stop of nr
 * (arguments 100..105), at instruction pointer ip. */
static void stage_at(long nr, bool audit_on, uint64_t ip)
{
	struct sw_error err = { 0 };
	uint64_t a[6];

	unstage();
	warnings = 0;
	ck_assert_int_eq(sw_supervisor_new(&sup, &err), 0);
	sw_supervisor_on_warning(sup, fk_count_warning, &warnings);
	sess = fk_session_new(sup, 1, PID, &pol);
	if (audit_on) {
		log_f = open_memstream(&log_buf, &log_len);
		ck_assert_ptr_nonnull(log_f);
		sess->audit = log_f;
		sess->audit_format = SW_LOG_JSON;
		sess->audit_allows = true;	/* sysward run --log */
	}
	ft = fk_task(PID);
	for (int i = 0; i < 6; i++)
		a[i] = 100 + (uint64_t)i;
	fk_seccomp(PID, 0xc000003e /* AUDIT_ARCH_X86_64 */, (uint64_t)nr, a, ip);
}

static void stage(long nr, bool audit_on)
{
	stage_at(nr, audit_on, 0x401000);
}

static void dispatch(void)
{
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_supervisor_dispatch(sup, false, &err), 1);
}

/* The tracer gets the SECCOMP stop staged. */
static void seccomp_stop(void)
{
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	dispatch();
}

/* The call runs (as the registers now say) to its syscall-exit stop. */
static void exit_stop(void)
{
	fk_exit(PID);
	dispatch();
}

/* Audit lines written, and those containing s. */
static int lines(const char *s)
{
	int n = 0;

	if (!log_f)
		return 0;
	fflush(log_f);
	for (const char *p = log_buf; p && (p = strchr(p, '\n')); p++)
		n++;
	if (!s)
		return n;
	n = 0;
	for (const char *p = log_buf; p && (p = strstr(p, s)); p++)
		n++;
	return n;
}

/* The i-th logged request about PID was req with data. */
static bool was(size_t i, long req, uint64_t data)
{
	size_t k = 0;

	for (size_t j = 0; j < fk_n_calls; j++) {
		const struct fk_call *c = &fk_calls[j];

		/* only what acts on the tracee: resumes, kills, SETs */
		if (c->pid != PID || (c->req != PTRACE_CONT && c->req != PTRACE_SYSCALL &&
				      c->req != FK_KILL && c->req != PTRACE_POKEUSER))
			continue;
		if (k++ == i)
			return c->req == req && c->data == data;
	}
	return false;
}

static size_t acts(void)
{
	return fk_count(PTRACE_CONT, PID) + fk_count(PTRACE_SYSCALL, PID) +
	       fk_count(FK_KILL, PID) + fk_count(PTRACE_POKEUSER, PID);
}

/* ---- the cases ------------------------------------------------------- */

/* ---- the audit log's line gate (linegate.c) ------------------------- */

/* The next SECCOMP stop of PID: nr(a0, a1, a2), dispatched. */
static void next_stop(long nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint64_t a[6] = { a0, a1, a2, 0, 0, 0 };

	fk_seccomp(PID, 0xc000003e, (uint64_t)nr, a, 0x401000);
	seccomp_stop();
}

/* What the gate let out so far. */
static size_t gate_out(int fd, char *buf, size_t size)
{
	ssize_t n = read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

/* A refusal logged while the program is in the middle of a line on our
 * log's file waits for the line's end and the program's next write; the
 * writes that stop only for the gate leave no line; a write elsewhere
 * (a descriptor kcmp says is another file) moves nothing. */
START_TEST(line_gate_between_lines)
{
	struct sw_line_gate *g;
	uint64_t buf;
	char out[4096];
	int p[2];
	FILE *f;

	stage(__NR_read, false);
	ck_assert_int_eq(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	ck_assert_int_eq(sw_line_gate_open(p[1], &f, &g), 0);
	close(p[1]);
	sess->audit = f;
	sess->audit_format = SW_LOG_JSON;
	sess->audit_allows = true;
	sess->gate = g;
	fk_file_ours(PID, 2);
	buf = ft->mem_base + 64;
	fk_poke(PID, buf, "cat: x\n", 7);

	next_stop(__NR_read, 0, 0, 0);		/* a plain allow, at a line's end */
	ck_assert_uint_gt(gate_out(p[0], out, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"syscall\":\"read\""));
	next_stop(__NR_write, 2, buf, 5);	/* "cat: " */
	next_stop(__NR_mkdir, 100, 0, 0);	/* refused, logged: held */
	ck_assert_uint_eq(gate_out(p[0], out, sizeof(out)), 0);
	next_stop(__NR_write, 1, buf, 5);	/* fd 1: another file here */
	next_stop(__NR_write, 2, buf, 7);	/* "cat: x\n": ends the line */
	ck_assert_uint_eq(gate_out(p[0], out, sizeof(out)), 0);
	next_stop(__NR_write, 2, buf, 5);	/* the next write: out first */
	ck_assert_uint_gt(gate_out(p[0], out, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"syscall\":\"mkdir\""));
	ck_assert_ptr_null(strstr(out, "\"syscall\":\"write\""));
	next_stop(__NR_mkdir, 100, 0, 0);	/* mid-line again: held ... */
	ck_assert_uint_eq(gate_out(p[0], out, sizeof(out)), 0);
	fclose(f);				/* ... until the gate closes */
	sess->audit = NULL;
	sess->gate = NULL;
	ck_assert_uint_gt(gate_out(p[0], out, sizeof(out)), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"syscall\":\"mkdir\""));
	close(p[0]);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(allow_continues)
{
	stage(__NR_read, true);
	seccomp_stop();
	ck_assert_uint_eq(ft->n_sets, 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(acts(), 1);
	ck_assert_int_eq(lines(NULL), 1);
	ck_assert_uint_eq(sess->decisions, 1);
}
END_TEST

/* syswardd without --audit-allows: a plain allow has no line. */
START_TEST(allow_not_logged_unless_asked)
{
	stage(__NR_read, true);
	sess->audit_allows = false;
	seccomp_stop();
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_int_eq(lines(NULL), 0);
	ck_assert_uint_eq(sess->decisions, 1);
}
END_TEST

START_TEST(allow_audited_at_exit)
{
	stage(__NR_fsync, true);
	seccomp_stop();
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	ck_assert_int_eq(lines(NULL), 0);
	ft->rval_forced = true;
	ft->rval = 4242;
	exit_stop();
	ck_assert(was(1, PTRACE_CONT, 0));
	ck_assert_int_eq(lines("\"return\":4242"), 1);
	ck_assert_uint_eq(ft->n_sets, 0);
}
END_TEST

START_TEST(return_in_one_stop)
{
	/* The x86-64 hook skips with the value in place (orig_rax -1, rax
	 * the value): no SET, no exit stop. */
	stage(__NR_getuid, false);
	seccomp_stop();
	ck_assert(was(0, PTRACE_POKEUSER, (uint64_t)-1));
	ck_assert(was(1, PTRACE_POKEUSER, 4242));
	ck_assert_uint_eq(ft->regs.orig_rax, (uint64_t)-1);
	ck_assert_uint_eq(ft->regs.rax, 4242);
	ck_assert_uint_eq(ft->n_sets, 0);
	ck_assert(was(2, PTRACE_CONT, 0));
	ck_assert_uint_eq(acts(), 3);
}
END_TEST

START_TEST(return_in_two_stops)
{
	/* TRAP: work at the exit (the signal), so skip (nr -1) at entry
	 * and the value set at the exit. */
	stage(__NR_uname, false);
	seccomp_stop();
	ck_assert_uint_eq(fk_count(PTRACE_POKEUSER, PID), 0);
	ck_assert_uint_eq(ft->n_sets, 1);
	ck_assert_int_eq(ft->sets[0].op, SW_PTRACE_SYSCALL_INFO_SECCOMP);
	ck_assert_uint_eq(ft->sets[0].seccomp.nr, (uint64_t)-1);
	ck_assert_uint_eq(ft->sets[0].flags, 0);
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	exit_stop();
	ck_assert_uint_eq(ft->n_sets, 2);
	ck_assert_int_eq(ft->sets[1].op, SW_PTRACE_SYSCALL_INFO_EXIT);
	ck_assert_int_eq(ft->sets[1].exit.rval, -ENOSYS);
	ck_assert_int_eq(ft->sets[1].exit.is_error, 1);
}
END_TEST

START_TEST(return_with_signal)
{
	/* TRAP: the signal goes with the resume from the exit stop. */
	stage(__NR_uname, false);
	seccomp_stop();
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	exit_stop();
	ck_assert(was(1, PTRACE_CONT, SIGSYS));
	ck_assert_uint_eq(acts(), 2);
}
END_TEST

START_TEST(rewrite_in_one_stop)
{
	stage(__NR_getpid, false);
	seccomp_stop();
	ck_assert_uint_eq(ft->n_sets, 1);
	ck_assert_uint_eq(ft->sets[0].seccomp.nr, __NR_getppid);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[0], 7);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[5], 105);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(acts(), 1);
}
END_TEST

START_TEST(rewrite_audited_at_exit)
{
	stage(__NR_dup, true);
	seccomp_stop();
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	ft->rval_forced = true;
	ft->rval = 1;
	exit_stop();
	ck_assert_int_eq(lines("\"return\":1"), 1);
	ck_assert(was(1, PTRACE_CONT, 0));
	ck_assert_uint_eq(ft->n_sets, 1);	/* the exit is left alone */
}
END_TEST

START_TEST(kill_verdict)
{
	stage(__NR_rmdir, false);
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_uint_eq(acts(), 1);		/* never resumed */
}
END_TEST

START_TEST(set_refused_fails_closed)
{
	/* A SET the kernel refuses: the call must not run unchanged. */
	stage(__NR_getpid, true);
	fk_fail(SW_PTRACE_SET_SYSCALL_INFO, PID, EIO, false);
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_uint_eq(acts(), 1);
	ck_assert_int_eq(warnings, 1);
	ck_assert_int_eq(lines("\"error\""), 1);
}
END_TEST

START_TEST(set_of_dead_tracee_is_quiet)
{
	stage(__NR_uname, false);
	fk_fail(SW_PTRACE_SET_SYSCALL_INFO, PID, ESRCH, false);
	seccomp_stop();
	ck_assert_uint_eq(acts(), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(hook_refused_fails_closed)
{
	/* The one-stop skip's register write refused: killed, warned;
	 * quiet for a tracee killed meanwhile. */
	stage(__NR_getuid, false);
	fk_fail(PTRACE_POKEUSER, PID, EIO, false);
	seccomp_stop();
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 1);
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PID), 0);
	ck_assert_int_eq(warnings, 1);
	stage(__NR_getuid, false);
	fk_fail(PTRACE_POKEUSER, PID, ESRCH, false);
	seccomp_stop();
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 0);
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PID), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(no_set_on_this_kernel)
{
	/* Without PTRACE_SET_SYSCALL_INFO a skip or rewrite fails closed. */
	stage(__NR_mkdir, false);
	sess->can_set = false;
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	stage(__NR_getpid, false);
	sess->can_set = false;
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_uint_eq(ft->n_sets, 0);
}
END_TEST

START_TEST(exit_set_refused_fails_closed)
{
	stage(__NR_uname, false);
	seccomp_stop();
	fk_fail(SW_PTRACE_SET_SYSCALL_INFO, PID, EIO, false);
	exit_stop();
	ck_assert(was(1, FK_KILL, SIGKILL));
	ck_assert_uint_eq(acts(), 2);
	ck_assert_int_eq(warnings, 1);
}
END_TEST

START_TEST(exit_failure_reports_its_call)
{
	/* A skip finished at its exit stop (TRAP) reports, there, the call
	 * of its own SECCOMP stop: ABI, number and arguments kept for the
	 * exit (they also say which registers a pin gives back). */
	stage(__NR_uname, true);
	seccomp_stop();
	fk_fail(SW_PTRACE_SET_SYSCALL_INFO, PID, EIO, false);
	exit_stop();
	ck_assert(was(1, FK_KILL, SIGKILL));
	/* the entry's line and the exit's failure, both of this call */
	ck_assert_int_eq(lines(NULL), 2);
	ck_assert_int_eq(lines("\"arch\":\"x86_64\",\"syscall\":\"uname\",\"nr\":63,"
			       "\"args\":[\"0x64\",\"0x65\",\"0x66\",\"0x67\",\"0x68\",\"0x69\"]"), 2);
	ck_assert_int_eq(lines("failed to tamper"), 1);
}
END_TEST

/* TRAP: the SIGSYS raised from the exit stop reaches its delivery
 * stop; si_code SI_KERNEL unless the supervisor mends it. */
static void trap_delivery_stop(int si_code)
{
	stage(__NR_uname, false);
	seccomp_stop();
	exit_stop();
	ck_assert(was(1, PTRACE_CONT, SIGSYS));
	memset(&ft->si, 0, sizeof(ft->si));
	ft->si.si_signo = SIGSYS;
	ft->si.si_code = si_code;
	fk_queue(PID, FK_STOPPED(SIGSYS, 0));
	dispatch();
}

START_TEST(trap_signal_as_kernel)
{
	/* The handler is told what the kernel's trap tells it: SYS_SECCOMP,
	 * the call's number, AUDIT_ARCH and address (after the syscall
	 * instruction: the stop's ip), the number in the return register. */
	trap_delivery_stop(SI_KERNEL);
	ck_assert_uint_eq(ft->n_setsi, 1);
	ck_assert_int_eq(ft->set_si.si_signo, SIGSYS);
	ck_assert_int_eq(ft->set_si.si_code, 1 /* SYS_SECCOMP */);
	ck_assert_int_eq(ft->set_si.si_errno, 0);
	ck_assert_int_eq(ft->set_si.si_syscall, __NR_uname);
	ck_assert_uint_eq(ft->set_si.si_arch, 0xc000003e);
	ck_assert_ptr_eq(ft->set_si.si_call_addr, (void *)0x401000);
	ck_assert_uint_eq(ft->regs.rax, __NR_uname);
	ck_assert(was(2, PTRACE_POKEUSER, __NR_uname));
	ck_assert(was(3, PTRACE_CONT, SIGSYS));
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(trap_signal_others_untouched)
{
	/* A SIGSYS another process sent (SI_USER) is delivered as sent;
	 * so is a second one after ours. */
	trap_delivery_stop(SI_USER);
	ck_assert_uint_eq(ft->n_setsi, 0);
	ck_assert(was(2, PTRACE_CONT, SIGSYS));
	ft->si.si_code = SI_KERNEL;
	fk_queue(PID, FK_STOPPED(SIGSYS, 0));
	dispatch();
	ck_assert_uint_eq(ft->n_setsi, 0);
	ck_assert(was(3, PTRACE_CONT, SIGSYS));
}
END_TEST

START_TEST(trap_signal_refused)
{
	/* SETSIGINFO refused: said, and the signal delivered as it is (the
	 * call was refused either way); ESRCH (gone) is quiet. */
	static const int errs[] = { EIO, ESRCH };

	stage(__NR_uname, false);
	seccomp_stop();
	exit_stop();
	fk_fail(PTRACE_SETSIGINFO, PID, errs[_i], false);
	ft->si.si_signo = SIGSYS;
	ft->si.si_code = SI_KERNEL;
	fk_queue(PID, FK_STOPPED(SIGSYS, 0));
	dispatch();
	ck_assert(was(2, PTRACE_CONT, SIGSYS));
	ck_assert_int_eq(warnings, errs[_i] == EIO);
}
END_TEST

START_TEST(get_refused)
{
	stage(__NR_read, false);
	fk_fail(SW_PTRACE_GET_SYSCALL_INFO, PID, EIO, false);
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	stage(__NR_read, false);
	fk_fail(SW_PTRACE_GET_SYSCALL_INFO, PID, ESRCH, false);
	seccomp_stop();
	ck_assert_uint_eq(acts(), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(not_a_seccomp_stop)
{
	stage(__NR_read, false);
	ft->info.op = SW_PTRACE_SYSCALL_INFO_ENTRY;
	seccomp_stop();
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(sess->decisions, 0);
}
END_TEST

START_TEST(resume_refused_fails_closed)
{
	stage(__NR_read, false);
	fk_fail(PTRACE_CONT, PID, EIO, false);
	seccomp_stop();
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert(was(1, FK_KILL, SIGKILL));
	ck_assert_int_eq(warnings, 1);
}
END_TEST

/* ---- plans: the handler says what to do, the dispatcher does it ------ */

/* Resume requests about PID in the log. */
static size_t resumes(void)
{
	return fk_count(PTRACE_CONT, PID) + fk_count(PTRACE_SYSCALL, PID) +
	       fk_count(PTRACE_LISTEN, PID);
}

/* The SECCOMP stop's handler alone, not through the dispatch: its plan,
 * and no resume of its own (sw_restart() is the one resume). */
static struct sw_resume seccomp_plan(void)
{
	struct sw_resume r = sw_seccomp_stop(sup, sw_tracee_find(sup, PID));

	ck_assert_uint_eq(resumes(), 0);
	return r;
}

static struct sw_resume exit_plan(void)
{
	struct sw_resume r;

	fk_exit(PID);
	r = sw_exit_stop(sup, sw_tracee_find(sup, PID));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PID), 0);
	return r;
}

static void plan_is(struct sw_resume r, enum sw_resume_op op, int sig)
{
	ck_assert_int_eq(r.op, op);
	ck_assert_int_eq(r.sig, sig);
}

START_TEST(plan_cont)
{
	/* A plain allow: on, no exit stop. */
	stage(__NR_read, false);
	plan_is(seccomp_plan(), SW_RESUME_CONT, 0);
	ck_assert_int_eq(sw_restart(sw_tracee_find(sup, PID), SW_CONT(0)), 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	/* A one-stop skip: its return value set in the SECCOMP stop. */
	stage(__NR_getuid, false);
	plan_is(seccomp_plan(), SW_RESUME_CONT, 0);
	ck_assert_uint_eq(fk_count(PTRACE_POKEUSER, PID), 2);
}
END_TEST

START_TEST(plan_syscall_then_signal)
{
	/* A trap decided by the supervisor: to the exit stop, whose plan
	 * delivers the SIGSYS. */
	stage(__NR_uname, false);
	plan_is(seccomp_plan(), SW_RESUME_SYSCALL, 0);
	ck_assert_int_eq(sw_restart(sw_tracee_find(sup, PID), SW_SYSCALL(0)), 0);
	ck_assert(was(0, PTRACE_SYSCALL, 0));
	plan_is(exit_plan(), SW_RESUME_CONT, SIGSYS);
	ck_assert(sw_tracee_find(sup, PID)->trap_pending);
	/* An audited allow: its line at the exit, with the result. */
	stage(__NR_fsync, true);
	plan_is(seccomp_plan(), SW_RESUME_SYSCALL, 0);
	ck_assert_int_eq(lines(NULL), 0);
	plan_is(exit_plan(), SW_RESUME_CONT, 0);
	ck_assert_int_eq(lines(NULL), 1);
}
END_TEST

START_TEST(plan_dead)
{
	/* A tampering refused: killed by the handler, nothing to resume,
	 * and the dispatcher resumes nothing. */
	stage(__NR_getuid, false);
	fk_fail(PTRACE_POKEUSER, PID, EIO, false);
	plan_is(seccomp_plan(), SW_RESUME_NONE, 0);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 1);
	ck_assert_int_eq(warnings, 1);
	ck_assert_int_eq(sw_restart(sw_tracee_find(sup, PID), SW_DEAD), 0);
	ck_assert_uint_eq(resumes(), 0);
	/* Found dead at its stop: no warning, no kill. */
	stage(__NR_read, false);
	fk_fail(SW_PTRACE_GET_SYSCALL_INFO, PID, ESRCH, false);
	plan_is(seccomp_plan(), SW_RESUME_NONE, 0);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 0);
	ck_assert_int_eq(warnings, 0);
	/* Through the dispatch: no resume at all. */
	stage(__NR_getuid, false);
	fk_fail(PTRACE_POKEUSER, PID, EIO, false);
	seccomp_stop();
	ck_assert_uint_eq(resumes(), 0);
}
END_TEST

START_TEST(plan_listen_and_held)
{
	struct sw_tracee *t;

	stage(__NR_read, false);
	t = sw_tracee_find(sup, PID);
	/* A group-stop (a stop signal) listens; anything else at
	 * PTRACE_EVENT_STOP (SIGCONT's re-trap) goes the caller's way. */
	plan_is(sw_group_stop(t, SIGTSTP, SW_CONT(0)), SW_RESUME_LISTEN, 0);
	plan_is(sw_group_stop(t, SIGTRAP, SW_SYSCALL(0)), SW_RESUME_SYSCALL, 0);
	ck_assert_uint_eq(resumes(), 0);
	ck_assert_int_eq(sw_restart(t, SW_LISTEN), 0);
	ck_assert_uint_eq(fk_count(PTRACE_LISTEN, PID), 1);
	ck_assert(t->listening);
	/* Held: stays stopped, nothing asked of the kernel. */
	ck_assert_int_eq(sw_restart(t, SW_HELD), 0);
	ck_assert_uint_eq(resumes(), 1);
}
END_TEST

START_TEST(call_captured_once)
{
	/* The call in flight is the call as made, captured at its SECCOMP
	 * stop: a rewrite changes what runs (the SET), not t->call, which
	 * the exit stop, the trap's SIGSYS and the exec guard read. */
	struct sw_tracee *t;

	stage(__NR_getpid, false);
	plan_is(seccomp_plan(), SW_RESUME_CONT, 0);
	t = sw_tracee_find(sup, PID);
	ck_assert_uint_eq(ft->sets[0].seccomp.nr, __NR_getppid);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[0], 7);
	ck_assert_uint_eq(t->call.nr, __NR_getpid);
	ck_assert_uint_eq(t->call.args[0], 100);
	ck_assert_uint_eq(t->call.args[5], 105);
	ck_assert_uint_eq(t->call.arch, 0xc000003e);
	ck_assert_int_eq(t->call.abi, SW_ABI_X86_64);
	ck_assert_uint_eq(t->call.ip, 0x401000);
	ck_assert_uint_eq(t->d.nr, __NR_getppid);	/* what runs */
}
END_TEST

/* Each resume refused by the kernel: ESRCH (killed meanwhile: quiet, its
 * exit comes), EIO (anything else: warned, killed, never left stopped). */
START_TEST(restart_refused)
{
	static const struct { struct sw_resume r; long req; } k[] = {
		{ { SW_RESUME_CONT, SIGUSR1 }, PTRACE_CONT },
		{ { SW_RESUME_SYSCALL, 0 }, PTRACE_SYSCALL },
		{ { SW_RESUME_LISTEN, 0 }, PTRACE_LISTEN },
	};
	int i = _i / 2, e = _i % 2 ? EIO : ESRCH;
	struct sw_tracee *t;

	stage(__NR_read, false);
	t = sw_tracee_find(sup, PID);
	fk_fail(k[i].req, PID, e, false);
	ck_assert_int_eq(sw_restart(t, k[i].r), -e);
	ck_assert_uint_eq(fk_count(k[i].req, PID), 1);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), e == EIO);
	ck_assert_int_eq(warnings, e == EIO);
	ck_assert(!t->listening);
}
END_TEST

/* A group-stop whose PTRACE_LISTEN the kernel refuses: the program must
 * not stay stopped for good, unseen (it held its session, and its
 * job's shell, forever); killed with a warning.  Quiet if it died. */
START_TEST(listen_refused_fails_closed)
{
	int e = _i ? ESRCH : EIO;

	stage(__NR_read, false);
	fk_fail(PTRACE_LISTEN, PID, e, false);
	fk_queue(PID, FK_STOPPED(SIGSTOP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert_uint_eq(fk_count(PTRACE_LISTEN, PID), 1);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), e == EIO);
	ck_assert_int_eq(warnings, e == EIO);
	ck_assert(!sw_tracee_find(sup, PID)->listening);
}
END_TEST

START_TEST(vsyscall_rewrite_to_another_call)
{
	/* No exit stop for the vsyscall page: another call cannot be run
	 * from its SECCOMP stop; it returns ENOSYS instead. */
	stage_at(__NR_gettimeofday, false, VSYSCALL_GETTIMEOFDAY);
	seccomp_stop();
	ck_assert(was(0, PTRACE_POKEUSER, (uint64_t)-1));
	ck_assert(was(1, PTRACE_POKEUSER, (uint64_t)-ENOSYS));
	ck_assert_uint_eq(ft->n_sets, 0);
	ck_assert(was(2, PTRACE_CONT, 0));
}
END_TEST

START_TEST(vsyscall_rewrite_arguments)
{
	/* The same call with new arguments: SET in its one stop, no exit
	 * stop; refused, it fails closed; without SET, too. */
	stage_at(__NR_time, false, VSYSCALL_TIME);
	seccomp_stop();
	ck_assert_uint_eq(ft->n_sets, 1);
	ck_assert_int_eq(ft->sets[0].op, SW_PTRACE_SYSCALL_INFO_SECCOMP);
	ck_assert_uint_eq(ft->sets[0].seccomp.nr, __NR_time);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[0], 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	ck_assert_uint_eq(acts(), 1);
	stage_at(__NR_time, false, VSYSCALL_TIME);
	fk_fail(SW_PTRACE_SET_SYSCALL_INFO, PID, EIO, false);
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_uint_eq(acts(), 1);
	ck_assert_int_eq(warnings, 1);
	stage_at(__NR_time, false, VSYSCALL_TIME);
	sess->can_set = false;
	seccomp_stop();
	ck_assert(was(0, FK_KILL, SIGKILL));
	ck_assert_uint_eq(ft->n_sets, 0);
}
END_TEST

START_TEST(complain_lifts_and_records)
{
	/* Complain mode: the refusal is lifted before anything is done with
	 * it, and every stop goes to the record. */
	stage(__NR_mkdir, true);
	sess->complain = true;
	sess->record = sw_record_new(true, false);
	ck_assert_ptr_nonnull(sess->record);
	seccomp_stop();
	ck_assert_uint_eq(sw_record_policy_refusals(sess->record), 1);
	ck_assert_int_eq(lines("\"would_refuse\":true"), 1);
	ck_assert_uint_eq(ft->n_sets, 0);		/* it runs as called */
	ck_assert(was(0, PTRACE_CONT, 0));
	stage(__NR_mkdir, false);
	seccomp_stop();
	ck_assert_uint_eq(ft->n_sets, 0);		/* not complaining: */
	ck_assert_uint_eq(fk_count(PTRACE_POKEUSER, PID), 2);	/* refused */
}
END_TEST

/* ---- the seccomp listener's handoff (notif.c) ----------------------- */

/* pidfd_getfd requests for PID's descriptor fd (~0: any). */
static size_t getfd_calls(uint64_t fd)
{
	size_t n = 0;

	for (size_t j = 0; j < fk_n_calls; j++)
		if (fk_calls[j].req == FK_GETFD && fk_calls[j].pid == PID &&
		    (fd == ~0ull || fk_calls[j].addr == fd))
			n++;
	return n;
}

/* The session's main process stops at execve(..., magic, 7), with a
 * listener still to take and (or not) its first exec done, and (or
 * not) a log of every decision (sysward run --log). */
static void stage_handoff_log(uint64_t magic, bool exec_done, bool audit_on)
{
	uint64_t a[6] = { 100, 101, 102, magic, 7, 0 };

	stage(__NR_getppid, audit_on);
	sess->notif = sw_notif_new(sess->prog, NULL, NULL);
	ck_assert_ptr_nonnull(sess->notif);
	sess->exec_done = exec_done;
	fk_seccomp(PID, 0xc000003e, __NR_execve, a, 0x401000);
	seccomp_stop();
}

static void stage_handoff(uint64_t magic, bool exec_done)
{
	stage_handoff_log(magic, exec_done, false);
}

START_TEST(notif_handoff_not_logged)
{
	/* The handoff stops for sysward's sake: a launch without a listener
	 * makes the same exec with no stop, so --log shows nothing of it
	 * (the listener's lines must equal the stops').  Control: an execve
	 * without the handoff's arguments at a stop is logged. */
	stage_handoff_log(SW_NOTIF_MAGIC, false, true);
	ck_assert_uint_eq(getfd_calls(7), 1);
	fflush(log_f);
	ck_assert_uint_eq(log_len, 0);
	stage_handoff_log(SW_NOTIF_MAGIC ^ 1, false, true);
	ck_assert_uint_eq(getfd_calls(~0ull), 0);
	fflush(log_f);
	ck_assert_ptr_nonnull(strstr(log_buf, "\"syscall\":\"execve\""));
}
END_TEST

START_TEST(notif_handoff_not_a_listener)
{
	/* The launch child's exec names descriptor 7, which is no seccomp
	 * listener: taken, looked at, refused; the session is killed with
	 * a warning (its calls would fail ENOSYS after the exec). */
	stage_handoff(SW_NOTIF_MAGIC, false);
	ck_assert_uint_eq(getfd_calls(7), 1);
	ck_assert_int_eq(warnings, 1);
	ck_assert_uint_ge(fk_count(FK_KILL, PID), 1);
	ck_assert(sw_notif_pending(sess->notif));
}
END_TEST

START_TEST(notif_handoff_only_from_the_launch)
{
	/* The program's own execve with the handoff's arguments after its
	 * first exec, and an execve without them: nothing taken, the call
	 * decided as any other. */
	stage_handoff(SW_NOTIF_MAGIC, true);
	ck_assert_uint_eq(getfd_calls(~0ull), 0);
	ck_assert_int_eq(warnings, 0);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 0);
	ck_assert(was(0, PTRACE_CONT, 0));
	stage_handoff(SW_NOTIF_MAGIC ^ 1, false);
	ck_assert_uint_eq(getfd_calls(~0ull), 0);
	ck_assert_int_eq(warnings, 0);
	ck_assert_uint_eq(fk_count(FK_KILL, PID), 0);
}
END_TEST

START_TEST(notif_handoff_refused_fails_closed)
{
	/* pidfd_getfd refused (the child died meanwhile, or a kernel
	 * without it): a warning and the kill, never a session whose
	 * listener nobody serves. */
	stage(__NR_getppid, false);
	fk_fail(FK_GETFD, PID, EPERM, true);
	{
		uint64_t a[6] = { 100, 101, 102, SW_NOTIF_MAGIC, 7, 0 };

		sess->notif = sw_notif_new(sess->prog, NULL, NULL);
		sess->exec_done = false;
		fk_seccomp(PID, 0xc000003e, __NR_execve, a, 0x401000);
		seccomp_stop();
	}
	ck_assert_uint_eq(getfd_calls(7), 1);
	ck_assert_int_eq(warnings, 1);
	ck_assert_uint_ge(fk_count(FK_KILL, PID), 1);
}
END_TEST

/* learn --filesystem's entry for (path, in_dir), its kinds; -1: none. */
static int rec_kinds(const char *path, bool in_dir)
{
	const struct sw_record *r = sess->record;

	for (size_t i = 0; i < r->n_files; i++)
		if (r->files[i].in_dir == in_dir && !strcmp(r->files[i].path, path))
			return r->files[i].kinds;
	return -1;
}

START_TEST(complain_records_objects)
{
	/* learn --filesystem (recfiles.c): the object a call reaches,
	 * resolved at its stop from /proc/<tid>/cwd or the dirfd's link and
	 * the string, "." and ".." taken away, not the string as passed;
	 * a create's and a remove's right on the directory; a rename into
	 * another directory a move on both; O_PATH nothing; a dirfd that
	 * is no directory (a pipe) nothing. */
	uint64_t rel, sub, pipe_rel;

	stage(__NR_getppid, false);
	sess->complain = true;
	sess->record = sw_record_new(true, false);
	ck_assert_ptr_nonnull(sess->record);
	sw_record_keep_files(sess->record);
	fk_file(PID, AT_FDCWD, 0, "/w/d", 0);
	fk_file(PID, 7, 0, "/srv/data", 0);
	fk_file(PID, 8, 0, "pipe:[42]", 0);
	rel = ft->mem_base + 64;
	sub = ft->mem_base + 128;
	pipe_rel = ft->mem_base + 192;
	fk_poke(PID, rel, "sub/.././f", 11);
	fk_poke(PID, sub, "x//y", 5);
	fk_poke(PID, pipe_rel, "p", 2);
	next_stop(__NR_openat, (uint64_t)(int64_t)AT_FDCWD, rel, O_WRONLY | O_CREAT);
	next_stop(__NR_openat, 7, sub, O_RDONLY);
	next_stop(__NR_openat, 7, rel, O_PATH);
	next_stop(__NR_openat, 8, pipe_rel, O_RDONLY);
	{
		uint64_t a[6] = { (uint64_t)(int64_t)AT_FDCWD, rel, 7, sub, 0, 0 };

		fk_seccomp(PID, 0xc000003e, __NR_renameat, a, 0x401000);
		seccomp_stop();
	}
	ck_assert_int_eq(rec_kinds("/w/d/f", false), REC_K_WRITE);
	ck_assert_int_eq(rec_kinds("/w/d", true), REC_K_CREATE | REC_K_REMOVE | REC_K_MOVE);
	ck_assert_int_eq(rec_kinds("/srv/data/x/y", false), REC_K_READ);
	ck_assert_int_eq(rec_kinds("/srv/data/x", true), REC_K_CREATE | REC_K_MOVE);
	ck_assert_uint_eq(sess->record->n_files, 4);	/* no O_PATH, no pipe */
	ck_assert_int_eq(rec_kinds("sub/.././f", false), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("actions");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, allow_continues);
	tcase_add_test(tc, plan_cont);
	tcase_add_test(tc, plan_syscall_then_signal);
	tcase_add_test(tc, plan_dead);
	tcase_add_test(tc, plan_listen_and_held);
	tcase_add_test(tc, call_captured_once);
	tcase_add_loop_test(tc, restart_refused, 0, 6);
	tcase_add_loop_test(tc, listen_refused_fails_closed, 0, 2);
	tcase_add_test(tc, line_gate_between_lines);
	tcase_add_test(tc, allow_not_logged_unless_asked);
	tcase_add_test(tc, allow_audited_at_exit);
	tcase_add_test(tc, return_in_one_stop);
	tcase_add_test(tc, return_in_two_stops);
	tcase_add_test(tc, return_with_signal);
	tcase_add_test(tc, rewrite_in_one_stop);
	tcase_add_test(tc, rewrite_audited_at_exit);
	tcase_add_test(tc, kill_verdict);
	tcase_add_test(tc, set_refused_fails_closed);
	tcase_add_test(tc, set_of_dead_tracee_is_quiet);
	tcase_add_test(tc, hook_refused_fails_closed);
	tcase_add_test(tc, no_set_on_this_kernel);
	tcase_add_test(tc, exit_set_refused_fails_closed);
	tcase_add_test(tc, exit_failure_reports_its_call);
	tcase_add_test(tc, trap_signal_as_kernel);
	tcase_add_test(tc, trap_signal_others_untouched);
	tcase_add_loop_test(tc, trap_signal_refused, 0, 2);
	tcase_add_test(tc, get_refused);
	tcase_add_test(tc, not_a_seccomp_stop);
	tcase_add_test(tc, resume_refused_fails_closed);
	tcase_add_test(tc, vsyscall_rewrite_to_another_call);
	tcase_add_test(tc, vsyscall_rewrite_arguments);
	tcase_add_test(tc, complain_lifts_and_records);
	tcase_add_test(tc, notif_handoff_not_a_listener);
	tcase_add_test(tc, notif_handoff_not_logged);
	tcase_add_test(tc, notif_handoff_only_from_the_launch);
	tcase_add_test(tc, notif_handoff_refused_fails_closed);
	tcase_add_test(tc, complain_records_objects);
	tcase_add_checked_fixture(tc, NULL, unstage);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
