// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 19 (docs/security.md): a unix connection's peer, judged at the
 * connect's exit stop (engine/trace/peers.c), against the fake kernel.  The
 * engine is the real one (sysward-engine-fake), through
 * sw_supervisor_dispatch, under the compiled program of a supervisor's
 * allow-everything policy (the defence on), or a policy that grants one
 * address.
 *
 * The stage (pids far above pid_max, fake_kernel.h): session A: PA (uid
 * 1000), and for the hold PB (a process of A) or PT (a thread of PA);
 * OUT, a process of uid 1000 outside every session; the socket
 * descriptors below, whose peers the fake kernel's getsockopt tells.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "check_run.h"
#include "fake_kernel.h"
#include "internal.h"
#include "trace/trace.h"

#define PA	10000100
#define PB	10000101
#define PT	10000102	/* a thread of PA */
#define OUT	10000300	/* uid 1000, outside */
#define ROOTD	10000301	/* uid 0, outside: journald, nscd */

enum {
	FD_STREAM = 5,		/* AF_UNIX, SOCK_STREAM */
	FD_DGRAM = 6,		/* AF_UNIX, SOCK_DGRAM */
	FD_INET = 7,		/* AF_INET */
};

#define ADDR		0x7ffc000ff000ull
#define AUDIT_X86_64	0xc000003e
#define AUDIT_I386	0x40000003

static struct sw_supervisor *sup;
static struct sw_session *sa;
static int warnings;

/* A rule granting connect to /run/granted.sock. */
static struct sw_rule grant_rules[] = {
	{ .names = (char *[]){ "connect", NULL }, .n_names = 1, .action = SW_ACT_ALLOW,
	  .paths = (struct sw_path_cond[]){ { 1, SW_MATCH_EXACT, "/run/granted.sock", false } },
	  .n_paths = 1 },
};
static const struct sw_policy grant_pol = {
	.source = "grant.json", .default_action = SW_ACT_ALLOW, .default_errno = EPERM,
	.rules = grant_rules, .n_rules = 1,
};

static void unstage(void)
{
	if (sup)
		sw_supervisor_free(sup);
	sup = NULL;
	fk_reset();
}

/* Session A under policy p (NULL: allow everything): PA alone. */
static void stage_with(const struct sw_policy *p)
{
	struct sw_error err = { 0 };

	unstage();
	warnings = 0;
	ck_assert_int_eq(sw_supervisor_new(&sup, &err), 0);
	sw_supervisor_on_warning(sup, fk_count_warning, &warnings);
	sa = fk_session_new(sup, 1, PA, p);
	sa->pathguard = false;
	fk_task(PA);
	fk_proc(OUT, OUT, 1);
	fk_proc(ROOTD, ROOTD, 1);
	fk_proc_uid(ROOTD, 0);
	fk_sock(PA, FD_STREAM, &(struct fk_sock){ AF_UNIX, SOCK_STREAM, O_RDWR,
		OUT, 1000, OUT, false, "/tmp/tmux-1000/default" });
	fk_sock(PA, FD_DGRAM, &(struct fk_sock){ AF_UNIX, SOCK_DGRAM, O_RDWR,
		OUT, 1000, OUT, false, "/tmp/d.sock" });
	fk_sock(PA, FD_INET, &(struct fk_sock){ AF_INET, SOCK_STREAM, O_RDWR,
		0, 0, 0, false, NULL });
}

static void stage(void)
{
	stage_with(NULL);
}

/* A tracee of session A, as a fork or clone event leaves one. */
static void tracee(pid_t pid, pid_t tgid)
{
	struct sw_tracee *t = sw_tracee_add(sup, pid);

	ck_assert_ptr_nonnull(t);
	t->s = sa;
	t->state = SW_T_RUNNING;
	t->announced = true;
	sa->n_tracees++;
	fk_task(pid);
	fk_proc(pid, tgid, PA);
}

/* The peer of PA's stream socket. */
static void peer(pid_t cred_pid, uid_t uid, pid_t pidfd_pid, const char *name)
{
	fk_sock(PA, FD_STREAM, &(struct fk_sock){ AF_UNIX, SOCK_STREAM, O_RDWR,
		cred_pid, uid, pidfd_pid, false, name });
}

static void dispatch(pid_t pid, int status)
{
	struct sw_error err = { 0 };

	fk_queue(pid, status);
	ck_assert_int_ge(sw_supervisor_dispatch(sup, false, &err), 1);
}

/* A SECCOMP stop of pid's call nr(a...). */
static void seccomp_stop(pid_t pid, uint32_t arch, long nr, uint64_t a0,
			 uint64_t a1, uint64_t a2)
{
	uint64_t a[6] = { a0, a1, a2, 0, 0, 0 };

	fk_seccomp(pid, arch, (uint64_t)nr, a, 0x401000);
	dispatch(pid, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
}

static void connect_stop(pid_t pid, int fd)
{
	seccomp_stop(pid, AUDIT_X86_64, __NR_connect, (uint64_t)fd, ADDR, 110);
}

/* pid's connect ran and returned rval: its exit stop. */
static void exit_stop(pid_t pid, int64_t rval)
{
	struct fk_task *t = fk_task(pid);

	memset(&t->info, 0, sizeof(t->info));
	t->info.op = SW_PTRACE_SYSCALL_INFO_EXIT;
	t->info.exit.rval = rval;
	t->info.exit.is_error = rval < 0;
	t->regs.rax = (uint64_t)rval;
	dispatch(pid, FK_STOPPED(SIGTRAP | 0x80, 0));
}

/* The last request about pid was req. */
static void last_is(pid_t pid, long req)
{
	long last = 0;

	for (size_t i = fk_n_calls; i-- > 0;)
		if (fk_calls[i].pid == pid) {
			last = fk_calls[i].req;
			break;
		}
	ck_assert_msg(last == req, "last request about %d: %ld, not %ld", pid,
		      last, req);
}

static bool resumed_to_exit(pid_t pid)
{
	return fk_count(PTRACE_SYSCALL, pid) > 0;
}

/* The connect failed with EACCES, set at its exit stop; the connection
 * itself shut down. */
static void check_refused(pid_t pid, int fd)
{
	struct fk_task *t = fk_task(pid);

	ck_assert_uint_ge(t->n_sets, 1);
	ck_assert_int_eq(t->sets[t->n_sets - 1].op, SW_PTRACE_SYSCALL_INFO_EXIT);
	ck_assert_int_eq(t->sets[t->n_sets - 1].exit.rval, -EACCES);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, pid), 1);
	ck_assert_int_eq(fk_calls[fk_last(FK_SHUTDOWN, pid)].addr, fd);
	ck_assert_int_eq(warnings, 1);
	last_is(pid, PTRACE_CONT);
}

static void check_allowed(pid_t pid)
{
	struct fk_task *t = fk_task(pid);

	for (size_t i = 0; i < t->n_sets; i++)
		ck_assert_int_ne(t->sets[i].op, SW_PTRACE_SYSCALL_INFO_EXIT);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, pid), 0);
	ck_assert_int_eq(warnings, 0);
	last_is(pid, PTRACE_CONT);
}

/* ---- one task: no hold ----------------------------------------------- */

START_TEST(outsider_refused)
{
	/* A same-uid process outside (the user's tmux server): the
	 * connection is shut down, the call fails with EACCES, said once. */
	stage();
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 1);
	ck_assert_uint_eq(fk_count(PTRACE_INTERRUPT, PB), 0);
	ck_assert(resumed_to_exit(PA));
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
	/* its copy of the socket is gone too */
	ck_assert_ptr_null(sw_tracee_find(sup, PA)->pc);
}
END_TEST

START_TEST(outsider_gone_refused)
{
	/* The listener has exited (its pidfd says -1), its socket lives in
	 * another process of the uid: still an outsider's. */
	stage();
	peer(OUT, 1000, -1, "/tmp/agent.sock");
	connect_stop(PA, FD_STREAM);
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
}
END_TEST

START_TEST(other_uid_allowed)
{
	/* journald, nscd, the system bus: any uid reaches them. */
	stage();
	peer(ROOTD, 0, ROOTD, "/run/systemd/journal/stdout");
	connect_stop(PA, FD_STREAM);
	exit_stop(PA, 0);
	check_allowed(PA);
}
END_TEST

START_TEST(session_listener_allowed)
{
	/* A server of the session's own whose listener has exited (ssh-agent
	 * forks and its parent exits): the listen was seen, its process is
	 * the session's for good (pidfs inode). */
	stage();
	seccomp_stop(PA, AUDIT_X86_64, __NR_listen, 3, 5, 0);
	last_is(PA, PTRACE_CONT);
	peer(PA, 1000, -1, "/tmp/own.sock");
	connect_stop(PA, FD_STREAM);
	exit_stop(PA, 0);
	check_allowed(PA);
}
END_TEST

START_TEST(session_live_peer_allowed)
{
	/* A live listener that is a tracee of the session. */
	stage();
	tracee(PB, PB);
	fk_proc_state(PB, 'D', "61 0x0 0x0");	/* in wait4: quiet */
	peer(PB, 1000, PB, "/tmp/own.sock");
	connect_stop(PA, FD_STREAM);
	exit_stop(PA, 0);
	check_allowed(PA);
}
END_TEST

START_TEST(failed_connect_untouched)
{
	/* No connection made: nothing to judge. */
	stage();
	connect_stop(PA, FD_STREAM);
	exit_stop(PA, -ENOENT);
	check_allowed(PA);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, PA), 0);
}
END_TEST

START_TEST(not_unix_runs_on)
{
	/* Another family, a datagram socket (route 19, "Limits"): no exit
	 * stop, no hold. */
	stage();
	connect_stop(PA, FD_INET);
	last_is(PA, PTRACE_CONT);
	ck_assert(!resumed_to_exit(PA));
	connect_stop(PA, FD_DGRAM);
	last_is(PA, PTRACE_CONT);
	ck_assert(!resumed_to_exit(PA));
	ck_assert_ptr_null(sw_tracee_find(sup, PA)->pc);
}
END_TEST

START_TEST(unreadable_refused)
{
	/* A process the supervisor cannot read (not dumpable): its
	 * connect, unchecked, must not run: EACCES at the stop, said once. */
	stage();
	fk_fail(FK_GETFD, PA, EPERM, true);
	connect_stop(PA, FD_STREAM);
	ck_assert_int_eq((int64_t)fk_task(PA)->regs.rax, -EACCES);
	ck_assert_uint_eq(fk_task(PA)->regs.orig_rax, (uint64_t)-1);
	ck_assert(!resumed_to_exit(PA));
	ck_assert_int_eq(warnings, 1);
}
END_TEST

START_TEST(i386_socketcall)
{
	/* socketcall(SYS_CONNECT, args): run as the direct connect (362),
	 * its arguments read once, and checked as any. */
	uint32_t args[3] = { FD_STREAM, 0x1000, 110 };

	stage();
	/* 32-bit pointers: the memory window below 4 GiB */
	fk_task(PA)->mem_base = 0x10000;
	fk_poke(PA, 0x10000, args, sizeof(args));
	seccomp_stop(PA, AUDIT_I386, 102, 3, 0x10000, 0);
	ck_assert_uint_ge(fk_task(PA)->n_sets, 1);
	ck_assert_uint_eq(fk_task(PA)->sets[0].seccomp.nr, 362);
	ck_assert_uint_eq(fk_task(PA)->sets[0].seccomp.args[0], FD_STREAM);
	ck_assert_uint_eq(fk_task(PA)->sets[0].seccomp.args[2], 110);
	ck_assert(resumed_to_exit(PA));
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
}
END_TEST

/* ---- grants ------------------------------------------------------------ */

/* PA connects to /run/granted.sock, which grant_pol grants; its peer,
 * an outsider of uid 1000, is bound to bound (the kernel's record). */
static void connect_granted_name(const char *bound)
{
	uint64_t a[6] = { FD_STREAM, ADDR, 110 };
	unsigned char sa_un[110] = { 1, 0 };

	stage_with(&grant_pol);
	memcpy(sa_un + 2, "/run/granted.sock", 17);
	fk_poke(PA, ADDR, sa_un, sizeof(sa_un));
	peer(OUT, 1000, OUT, bound);
	fk_seccomp(PA, AUDIT_X86_64, __NR_connect, a, 0x401000);
	dispatch(PA, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	exit_stop(PA, 0);
}

START_TEST(grant_by_bound_name)
{
	/* A rule allowing connect to /run/granted.sock grants its peer, if
	 * the peer's bound name is that. */
	connect_granted_name("/run/granted.sock");
	check_allowed(PA);
}
END_TEST

START_TEST(grant_borrowed_refused)
{
	/* The name connected to is the grant's, the peer is bound
	 * elsewhere: a symlink, or the outsider's socket renamed onto it. */
	connect_granted_name("/tmp/tmux-1000/default");
	check_refused(PA, FD_STREAM);
}
END_TEST

/* ---- the hold ------------------------------------------------------------ */

START_TEST(hold_waits_for_the_others)
{
	/* PB runs: interrupted, and PA's connect waits for its stop; that
	 * stop is kept until the connect is judged, then handled. */
	stage();
	tracee(PB, PB);
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(PTRACE_INTERRUPT, PB), 1);
	ck_assert(!resumed_to_exit(PA));
	/* PB's stop for the interrupt: held, and PA goes */
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 0);
	ck_assert(resumed_to_exit(PA));
	/* PA's table is its own: its socket was looked at, once */
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 1);
	/* a blocking socket is made non-blocking meanwhile (a held server's
	 * full backlog would wait for good), and given back */
	ck_assert(fk_called(FK_SETFL, PA, O_RDWR | O_NONBLOCK));
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
	ck_assert(fk_called(FK_SETFL, PA, O_RDWR));
	/* PB's stop, replayed: the interrupt's trap, resumed */
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 1);
	ck_assert_int_gt(fk_last(PTRACE_CONT, PB), fk_last(FK_SHUTDOWN, PA));
}
END_TEST

START_TEST(hold_quiet_blocked)
{
	/* PB is blocked in wait4 (state D): it stops before it runs any of
	 * the program's code; PA need not wait.  Its stop, should it come
	 * during the check, is held all the same. */
	stage();
	tracee(PB, PB);
	fk_proc_state(PB, 'D', "61 0xffffffffffffffff 0x0 0x0");
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(PTRACE_INTERRUPT, PB), 1);
	ck_assert(resumed_to_exit(PA));
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 0);
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 1);
}
END_TEST

START_TEST(hold_blocked_sending_waited)
{
	/* PB is blocked in write (D): once it returns it could send on a
	 * socket it holds, so PA waits for its stop. */
	stage();
	tracee(PB, PB);
	fk_proc_state(PB, 'D', "1 0x5 0x7ffc0000 0x4");
	connect_stop(PA, FD_STREAM);
	ck_assert(!resumed_to_exit(PA));
	dispatch(PB, FK_STOPPED(SIGTRAP | 0x80, 0));	/* its write's exit */
	ck_assert(resumed_to_exit(PA));
}
END_TEST

START_TEST(plan_held_while_awaited)
{
	/* The connect's handler alone: while PB's stop is awaited its plan
	 * is SW_HELD (no resume); PB's stop lets PA go, through the one
	 * resume, to its exit stop. */
	uint64_t a[6] = { FD_STREAM, ADDR, 110, 0, 0, 0 };
	struct sw_resume r;

	stage();
	tracee(PB, PB);
	fk_seccomp(PA, AUDIT_X86_64, __NR_connect, a, 0x401000);
	r = sw_seccomp_stop(sup, sw_tracee_find(sup, PA));
	ck_assert_int_eq(r.op, SW_RESUME_HELD);
	ck_assert(fk_called(PTRACE_INTERRUPT, PB, 0));
	ck_assert(!resumed_to_exit(PA));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PA), 0);
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert(resumed_to_exit(PA));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 0);	/* held */
}
END_TEST

START_TEST(hold_waited_exits)
{
	/* The tracee awaited exits instead of stopping. */
	stage();
	tracee(PB, PB);
	connect_stop(PA, FD_STREAM);
	ck_assert(!resumed_to_exit(PA));
	dispatch(PB, 0);		/* WIFEXITED */
	ck_assert(resumed_to_exit(PA));
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
}
END_TEST

START_TEST(hold_holder_killed)
{
	/* PA is killed while it waits: the hold ends, PB's stop is handled
	 * as any. */
	stage();
	tracee(PB, PB);
	connect_stop(PA, FD_STREAM);
	dispatch(PA, SIGKILL);
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 1);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, PA), 0);
}
END_TEST

START_TEST(hold_holder_killed_connected)
{
	/* PA is killed after its connect ran, before its exit stop: what it
	 * connected is judged all the same (PB holds the socket too). */
	stage();
	tracee(PB, PB);
	fk_proc_state(PB, 'D', "61 0x0");
	connect_stop(PA, FD_STREAM);
	ck_assert(resumed_to_exit(PA));
	dispatch(PA, SIGKILL);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, PA), 1);
}
END_TEST

START_TEST(hold_thread_typed_after)
{
	/* PA shares its descriptor table (a thread PT): its descriptor may
	 * name another socket when the call runs, so the socket is looked
	 * at only once PT is held; another family then runs on. */
	stage();
	tracee(PT, PA);
	fk_proc_threads(PA, 2);
	connect_stop(PA, FD_INET);
	ck_assert_uint_eq(fk_count(PTRACE_INTERRUPT, PT), 1);
	ck_assert(!resumed_to_exit(PA));
	dispatch(PT, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	/* not unix: the hold ends, PT's stop is handled, PA goes on */
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PT), 1);
	ck_assert(resumed_to_exit(PA));
	exit_stop(PA, 0);
	check_allowed(PA);
}
END_TEST

START_TEST(hold_shared_files_typed_after)
{
	/* A process sharing PA's table (clone(CLONE_FILES)): the same. */
	stage();
	tracee(PB, PB);
	fk_files_shared(PA, PB);
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 1);	/* looked, not kept */
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 2);
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
}
END_TEST

START_TEST(hold_kcmp_unknown_typed_after)
{
	/* A kernel without kcmp (CONFIG_KCMP off: ENOSYS) cannot say that
	 * PB does not share PA's table: as if it did. */
	stage();
	tracee(PB, PB);
	fk_fail(FK_KCMP, PA, ENOSYS, true);
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 1);	/* looked, not kept */
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(FK_GETFD, PA), 2);
	exit_stop(PA, 0);
	check_refused(PA, FD_STREAM);
}
END_TEST

START_TEST(hold_full_backlog_again)
{
	/* Held, a connect that would wait for room returns EAGAIN: made
	 * again from its instruction once the others ran. */
	struct fk_task *t;

	stage();
	tracee(PB, PB);
	connect_stop(PA, FD_STREAM);
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	t = fk_task(PA);
	t->regs.orig_rax = __NR_connect;
	t->regs.rip = 0x401000;
	exit_stop(PA, -EAGAIN);
	ck_assert_uint_ge(t->n_setregs, 1);
	ck_assert_uint_eq(t->setregs[t->n_setregs - 1].rip, 0x401000 - 2);
	ck_assert_uint_eq(t->setregs[t->n_setregs - 1].rax, __NR_connect);
	ck_assert(fk_called(FK_SETFL, PA, O_RDWR));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 1);
	ck_assert_uint_eq(fk_count(FK_SHUTDOWN, PA), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(hold_new_child_held)
{
	/* A child whose first stop comes during the hold (its creation
	 * event not yet seen): placed in the session, and held. */
	stage();
	tracee(PB, PB);
	fk_proc_state(PB, 'D', "56 0x0");	/* in clone */
	connect_stop(PA, FD_STREAM);
	fk_proc(PB + 10, PB + 10, PB);
	dispatch(PB + 10, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB + 10), 0);
	exit_stop(PA, 0);
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB + 10), 1);
}
END_TEST

START_TEST(hold_listening_not_interrupted)
{
	/* PB waits in a group-stop (PTRACE_LISTEN): it runs nothing until
	 * SIGCONT, which makes it stop again, and that stop is held. */
	stage();
	tracee(PB, PB);
	dispatch(PB, FK_STOPPED(SIGSTOP, PTRACE_EVENT_STOP));
	ck_assert_uint_eq(fk_count(PTRACE_LISTEN, PB), 1);
	connect_stop(PA, FD_STREAM);
	ck_assert_uint_eq(fk_count(PTRACE_INTERRUPT, PB), 0);
	ck_assert(resumed_to_exit(PA));
	dispatch(PB, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));	/* SIGCONT */
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 0);
	exit_stop(PA, 0);
	ck_assert_uint_eq(fk_count(PTRACE_CONT, PB), 1);
}
END_TEST

static Suite *peers_suite(void)
{
	Suite *s = suite_create("peers");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, unstage);
	tcase_add_test(tc, outsider_refused);
	tcase_add_test(tc, outsider_gone_refused);
	tcase_add_test(tc, other_uid_allowed);
	tcase_add_test(tc, session_listener_allowed);
	tcase_add_test(tc, session_live_peer_allowed);
	tcase_add_test(tc, failed_connect_untouched);
	tcase_add_test(tc, not_unix_runs_on);
	tcase_add_test(tc, unreadable_refused);
	tcase_add_test(tc, i386_socketcall);
	tcase_add_test(tc, grant_by_bound_name);
	tcase_add_test(tc, grant_borrowed_refused);
	tcase_add_test(tc, hold_waits_for_the_others);
	tcase_add_test(tc, hold_quiet_blocked);
	tcase_add_test(tc, hold_blocked_sending_waited);
	tcase_add_test(tc, hold_waited_exits);
	tcase_add_test(tc, plan_held_while_awaited);
	tcase_add_test(tc, hold_holder_killed);
	tcase_add_test(tc, hold_holder_killed_connected);
	tcase_add_test(tc, hold_thread_typed_after);
	tcase_add_test(tc, hold_shared_files_typed_after);
	tcase_add_test(tc, hold_kcmp_unknown_typed_after);
	tcase_add_test(tc, hold_full_backlog_again);
	tcase_add_test(tc, hold_new_child_held);
	tcase_add_test(tc, hold_listening_not_interrupted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(peers_suite());
}
