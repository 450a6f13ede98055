// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine/trace/objects.c and engine/trace/resultcheck.c against the scripted fake
 * kernel: a call checked on what it returns (an open that can write, a
 * System V get), every request made at its SECCOMP stop, its exit stop
 * and the calls injected after it, in order; the descriptor table's other
 * users held meanwhile; and what goes wrong on the way: the tracee killed
 * during the injected close, a stop signal, the kernel refusing a request,
 * a multithreaded exec.  Also the checks made at the SECCOMP stop alone
 * (keyrings, IPC ids).  The engine is the real one (sysward-engine-fake);
 * only the kernel is fake (fake_kernel.c).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "check_run.h"
#include "fake_kernel.h"
#include "internal.h"
#include "trace/reach.h"
#include "trace/resultcheck.h"
#include "trace/trace.h"

#define PID	10000200
#define TID2	10000201	/* a thread of PID */
#define OTHER	10000300	/* a process of the uid, outside */
#define P3	10000202	/* a process of the session, its own table */
#define FD	5
#define X86_64	0xc000003e
#define IP	0x401000ull
#define SIGMASK	0x2000ull	/* the program's own: SIGALRM blocked */

static struct sw_supervisor *sup;
static struct sw_session *sess;
static struct fk_task *ft;
static int warnings, done_code = -1;

static void on_done(struct sw_session *s, int code, void *ud)
{
	(void)s;
	(void)ud;
	done_code = code;
}

static void unstage(void)
{
	if (sup)
		sw_supervisor_free(sup);
	sup = NULL;
	fk_reset();
}

static void stage(void)
{
	struct sw_error err = { 0 };

	unstage();
	warnings = 0;
	done_code = -1;
	ck_assert_int_eq(sw_supervisor_new(&sup, &err), 0);
	/* The bell's alarm (bell.c) must not fork a real one here. */
	sup->bell_pid = 10000999;
	sup->bell_fd = -1;
	sw_supervisor_on_warning(sup, fk_count_warning, &warnings);
	sw_supervisor_on_done(sup, on_done, NULL);
	sess = fk_session_new(sup, 1, PID, NULL);
	sess->objects = sw_objects_new();
	ck_assert_ptr_nonnull(sess->objects);
	ft = fk_task(PID);
	ft->sigmask = SIGMASK;
}

static void dispatch(void)
{
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_supervisor_dispatch(sup, false, &err), 1);
}

/* A SECCOMP stop of PID for nr(a...). */
static void seccomp(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	const uint64_t a[6] = { a0, a1, a2, a3, 0, 0 };

	fk_seccomp(PID, X86_64, (uint64_t)nr, a, IP);
	ft->regs.rdi = a0;
	ft->regs.rsi = a1;
	ft->regs.rdx = a2;
	ft->regs.r10 = a3;
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	dispatch();
}

/* The call runs and stops at its exit, returning rval. */
static void exits(int64_t rval)
{
	ft->rval_forced = true;
	ft->rval = rval;
	fk_exit(PID);
	dispatch();
}

/* The call injected by rewinding runs: its entry stop, then its exit
 * stop returning rval (0: as the fake emulates it). */
static void injected_runs(int64_t rval)
{
	fk_next_entry(PID);
	dispatch();
	if (rval) {
		ft->rval_forced = true;
		ft->rval = rval;
	}
	fk_exit(PID);
	dispatch();
}

static long last(long req, pid_t pid)
{
	return fk_last(req, pid);
}

/* openat(AT_FDCWD, p, O_WRONLY) at its seccomp stop. */
static void write_open(void)
{
	seccomp(__NR_openat, (uint64_t)AT_FDCWD, 0x7000, O_WRONLY, 0);
}

/* A staged session whose open for writing gave FD, a file of a cgroup v2
 * (PATH, inode INO), at its exit stop. */
static void cgroup_file_opened(const char *path, unsigned long ino)
{
	stage();
	write_open();
	fk_file(PID, FD, FK_CGROUP2_MAGIC, path, ino);
	exits(FD);
}

/* ---- opens that can write ------------------------------------------------- */

START_TEST(open_of_kernel_object_closed)
{
	/* openat(AT_FDCWD, p, O_WRONLY) of a cgroup's cgroup.kill: run to
	 * its exit, refused there: close(5) injected with every signal
	 * blocked, then the open returns EACCES and the mask is the
	 * program's again. */
	stage();
	write_open();
	ck_assert_uint_eq(ft->n_sets, 0);
	ck_assert_int_ge(last(PTRACE_SYSCALL, PID), 0);
	ck_assert_int_lt(last(PTRACE_CONT, PID), 0);
	ck_assert_int_lt(last(PTRACE_INTERRUPT, TID2), 0);
	fk_file(PID, FD, FK_CGROUP2_MAGIC, "/sys/fs/cgroup/user.slice/cgroup.kill", 77);
	exits(FD);
	/* close(5), rewound to the syscall instruction, signals blocked */
	ck_assert_uint_eq(ft->n_setregs, 1);
	ck_assert_uint_eq(ft->setregs[0].rax, __NR_close);
	ck_assert_uint_eq(ft->setregs[0].rdi, FD);
	ck_assert_uint_eq(ft->setregs[0].rip, IP - 2);
	ck_assert_uint_eq(ft->sigmask, ~0ull);
	injected_runs(0);
	/* the open's own registers back, returning EACCES */
	ck_assert_uint_eq(ft->n_setregs, 2);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
	ck_assert_uint_eq(ft->setregs[1].rip, IP);
	ck_assert_uint_eq(ft->setregs[1].rdi, (uint64_t)AT_FDCWD);
	ck_assert_uint_eq(ft->sigmask, SIGMASK);
	ck_assert_int_gt(last(PTRACE_CONT, PID), last(PTRACE_SETREGS, PID));
	ck_assert_ptr_null(sw_tracee_find(sup, PID)->rc);
	ck_assert_int_eq(warnings, 0);
	ck_assert_int_lt(last(FK_KILL, PID), 0);
}
END_TEST

START_TEST(open_of_own_file_kept)
{
	/* A regular file, and the program's own /proc/<pid>/oom_score_adj:
	 * kept, nothing injected. */
	char link[64];

	stage();
	seccomp(__NR_openat, (uint64_t)AT_FDCWD, 0x7000, O_RDWR | O_CREAT, 0600);
	fk_file(PID, FD, FK_EXT4_MAGIC, "/home/u/notes.txt", 12);
	exits(FD);
	ck_assert_uint_eq(ft->n_setregs, 0);
	ck_assert_uint_eq(ft->n_setmask, 0);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
	snprintf(link, sizeof(link), "/proc/%d/oom_score_adj", PID);
	seccomp(__NR_open, 0x7000, O_WRONLY, 0, 0);
	fk_file_gone(PID, FD);
	fk_file(PID, FD, FK_PROC_MAGIC, link, 900);
	fk_path(link, FK_PROC_MAGIC, 900);
	exits(FD);
	ck_assert_uint_eq(ft->n_setregs, 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

/* Files of procfs that are not the session's: another process's, one
 * named by a bind mount (its name says no pid), a sysctl, the host's
 * /proc/net through the program's own directory. */
static const struct { const char *link, *path; } not_own[] = {
	{ "/proc/10000300/oom_score_adj", "/proc/10000300/oom_score_adj" },
	{ "/tmp/bind/oom_score_adj", "/proc/10000300/oom_score_adj" },
	{ "/proc/sys/kernel/core_pattern", "/proc/sys/kernel/core_pattern" },
	{ "/proc/10000200/net/xt_recent/x", "/proc/10000200/net/xt_recent/x" },
};

START_TEST(open_of_procfs_not_own)
{
	stage();
	fk_proc(OTHER, OTHER, 1);
	write_open();
	fk_file(PID, FD, FK_PROC_MAGIC, not_own[_i].link, 901);
	fk_path(not_own[_i].path, FK_PROC_MAGIC, 901);
	exits(FD);
	ck_assert_uint_eq(ft->n_setregs, 1);
	ck_assert_uint_eq(ft->setregs[0].rax, __NR_close);
	injected_runs(0);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
}
END_TEST

/*
 * What an open that can write opened is told by its mount's superblock
 * (statx AT_STATX_DONT_SYNC, statmount), never by statfs(2) or stat(2)
 * of the descriptor, which call into its file system: FUSE would ask a
 * server the program may be (route 13).  Each row: the file system, the
 * descriptor's name, kept or refused.
 */
static const struct {
	unsigned long fs;
	const char *link;
	bool kept;
} fs_rows[] = {
	{ FK_FUSE_MAGIC, "/tmp/m/f", true },
	{ FK_TMPFS_MAGIC, "/tmp/f", true },
	{ FK_EXT4_MAGIC, "/home/u/notes.txt", true },
	{ FK_PROC_MAGIC, "/proc/sys/kernel/core_pattern", false },
	{ FK_CGROUP2_MAGIC, "/sys/fs/cgroup/x/cgroup.kill", false },
	{ FK_MQUEUE_MAGIC, "/q", false },	/* a queue the session did not make */
};

static void fs_row_judged(bool kept)
{
	if (kept) {
		ck_assert_uint_eq(ft->n_setregs, 0);
		ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
		return;
	}
	ck_assert_uint_eq(ft->n_setregs, 1);
	ck_assert_uint_eq(ft->setregs[0].rax, __NR_close);
	injected_runs(0);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
}

START_TEST(open_judged_without_its_file_system)
{
	stage();
	write_open();
	fk_file(PID, FD, fs_rows[_i].fs, fs_rows[_i].link, 700 + (unsigned long)_i);
	fk_path(fs_rows[_i].link, fs_rows[_i].fs, 700 + (unsigned long)_i);
	exits(FD);
	fs_row_judged(fs_rows[_i].kept);
	ck_assert(fk_called(FK_STATX, PID, AT_STATX_DONT_SYNC));
	ck_assert_uint_ge(fk_count(FK_STATMOUNT, 0), 1);
	ck_assert_uint_eq(fk_count(FK_STATFS, PID), 0);
	if (fs_rows[_i].fs != FK_PROC_MAGIC)
		ck_assert_uint_eq(fk_count(FK_STAT, PID), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(open_judged_by_statfs_before_6_8)
{
	/* statx without STATX_MNT_ID_UNIQUE: statfs and stat, as before
	 * (the documented limit), the same verdicts */
	stage();
	fk_old_statx(true);
	write_open();
	fk_file(PID, FD, fs_rows[_i].fs, fs_rows[_i].link, 710 + (unsigned long)_i);
	fk_path(fs_rows[_i].link, fs_rows[_i].fs, 710 + (unsigned long)_i);
	exits(FD);
	fs_row_judged(fs_rows[_i].kept);
	ck_assert_uint_ge(fk_count(FK_STATFS, PID), 1);
	ck_assert_uint_eq(fk_count(FK_STATMOUNT, 0), 0);
}
END_TEST

/* statmount finds the mount in no namespace: the kernel's own (a memfd's
 * tmpfs, mq_open's mqueue) or a detached one (fsmount, never attached).
 * A FUSE one, whose connection fusectl names by its device, is told
 * without statfs; any other is asked with statfs.  Both kept. */
static const struct {
	unsigned long fs;
	const char *link;
	size_t statfs;
} nowhere[] = {
	{ FK_TMPFS_MAGIC, "/memfd:x (deleted)", 1 },
	{ FK_FUSE_MAGIC, "/f", 0 },
};

START_TEST(open_on_mount_nowhere)
{
	stage();
	fk_fail(FK_STATMOUNT, 0, ENOENT, true);
	fk_path("/sys/fs/fuse/connections/46", 0x65735543ul /* fusectl */, 1);
	write_open();
	fk_file(PID, FD, nowhere[_i].fs, nowhere[_i].link, 720);
	exits(FD);
	fs_row_judged(true);
	ck_assert_uint_eq(fk_count(FK_STATFS, PID), nowhere[_i].statfs);
}
END_TEST

START_TEST(open_that_only_reads_not_stopped)
{
	/* O_PATH with O_WRONLY bits: no descriptor that writes; and a
	 * failed open: nothing to check. */
	stage();
	seccomp(__NR_openat, (uint64_t)AT_FDCWD, 0x7000, O_PATH | O_WRONLY, 0);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
	ck_assert_ptr_null(sw_tracee_find(sup, PID)->rc);
	write_open();
	exits(-ENOENT);
	ck_assert_uint_eq(ft->n_setregs, 0);
	ck_assert_ptr_null(sw_tracee_find(sup, PID)->rc);
}
END_TEST

START_TEST(dies_during_injected_close)
{
	/* SIGKILLed while it runs our close: its exit ends the session
	 * cleanly, nothing kept of it. */
	cgroup_file_opened("/sys/fs/cgroup/x/cgroup.freeze", 78);
	fk_next_entry(PID);
	dispatch();
	fk_queue(PID, SIGKILL);		/* WIFSIGNALED */
	dispatch();
	ck_assert_ptr_null(sw_tracee_find(sup, PID));
	ck_assert_int_eq(done_code, 128 + SIGKILL);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(stop_signal_during_injected_close)
{
	/* SIGSTOP (which cannot be blocked) during the injected close: it
	 * stops, listened to; SIGCONT's re-trap goes on to the close's
	 * stops, every resume with PTRACE_SYSCALL. */
	cgroup_file_opened("/sys/fs/cgroup/x/cgroup.procs", 79);
	fk_queue(PID, FK_STOPPED(SIGSTOP, 0));		/* delivery */
	dispatch();
	ck_assert(fk_called(PTRACE_SYSCALL, PID, SIGSTOP));
	fk_queue(PID, FK_STOPPED(SIGSTOP, PTRACE_EVENT_STOP));	/* group-stop */
	dispatch();
	ck_assert_int_ge(last(PTRACE_LISTEN, PID), 0);
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));	/* SIGCONT */
	dispatch();
	ck_assert_int_gt(last(PTRACE_SYSCALL, PID), last(PTRACE_LISTEN, PID));
	ck_assert_int_lt(last(PTRACE_CONT, PID), 0);
	injected_runs(0);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
	ck_assert_uint_eq(ft->sigmask, SIGMASK);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
}
END_TEST

START_TEST(close_refused_fails_closed)
{
	/* A policy (or a filter of the program's) refuses our close: the
	 * descriptor would stay: killed. */
	cgroup_file_opened("/sys/fs/cgroup/x/cgroup.kill", 80);
	injected_runs(-EPERM);
	ck_assert(fk_called(FK_KILL, PID, SIGKILL));
	ck_assert_int_eq(warnings, 1);
}
END_TEST

static struct sw_tracee *add_tracee(pid_t pid, pid_t tgid);

START_TEST(close_forged_fails_closed)
{
	/* A filter of the program's own answers our close with
	 * SECCOMP_RET_ERRNO | 0: it returns 0 and never ran, the
	 * descriptor still in the table, which a process of the session
	 * may share: the whole session killed. */
	cgroup_file_opened("/sys/fs/cgroup/x/cgroup.kill", 82);
	add_tracee(P3, P3);
	fk_next_entry(PID);
	dispatch();
	ft->rval_forced = true;		/* skipped, not emulated */
	ft->rval = 0;
	fk_exit(PID);
	dispatch();
	ck_assert(fk_called(FK_KILL, PID, SIGKILL));
	ck_assert(fk_called(FK_KILL, P3, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	ck_assert_uint_eq(ft->n_setregs, 1);	/* no EACCES returned */
}
END_TEST

START_TEST(getsigmask_refused_fails_closed)
{
	stage();
	write_open();
	fk_file(PID, FD, FK_CGROUP2_MAGIC, "/sys/fs/cgroup/x/cgroup.kill", 81);
	fk_fail(0x420a /* PTRACE_GETSIGMASK */, PID, EIO, false);
	exits(FD);
	ck_assert(fk_called(FK_KILL, PID, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	ck_assert_uint_eq(ft->n_setregs, 0);
}
END_TEST

/* A tracee pid of the session, of thread group tgid. */
static struct sw_tracee *add_tracee(pid_t pid, pid_t tgid)
{
	struct sw_tracee *x = sw_tracee_add(sup, pid);

	ck_assert_ptr_nonnull(x);
	x->s = sess;
	x->state = SW_T_RUNNING;
	x->announced = true;
	sess->n_tracees++;
	fk_proc(pid, tgid, tgid == pid ? PID : 1);
	fk_task(pid);
	return x;
}

/* A thread TID2 of PID, known to the session. */
static struct sw_tracee *add_thread(void)
{
	struct sw_tracee *x = add_tracee(TID2, PID);

	sess->threads = true;	/* its creation event was seen */
	fk_proc_threads(PID, 2);
	return x;
}

START_TEST(other_thread_held)
{
	/* Another thread shares the descriptor table: it could write
	 * through (or dup2 over) the new descriptor before the supervisor
	 * sees it.  It is interrupted, and the open runs only once it is
	 * stopped; it stays stopped until the result is decided, then its
	 * stop is handled as it came. */
	long done_at;

	stage();
	add_thread();
	write_open();
	ck_assert_int_ge(last(PTRACE_INTERRUPT, TID2), 0);
	ck_assert_int_lt(last(PTRACE_SYSCALL, PID), 0);	/* not yet */
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert(sw_tracee_find(sup, TID2)->rc_held);
	ck_assert_int_lt(last(PTRACE_CONT, TID2), 0);
	ck_assert_int_ge(last(PTRACE_SYSCALL, PID), 0);	/* now */
	fk_file(PID, FD, FK_CGROUP2_MAGIC, "/sys/fs/cgroup/x/cgroup.kill", 82);
	exits(FD);
	ck_assert_int_lt(last(PTRACE_CONT, TID2), 0);
	injected_runs(0);
	done_at = last(PTRACE_SETREGS, PID);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
	/* released after the result, and its stop handled as it came */
	ck_assert_int_gt(last(PTRACE_CONT, TID2), done_at);
	ck_assert(!sw_tracee_find(sup, TID2)->rc_held);
	ck_assert_uint_eq(sess->holder, 0);
	ck_assert_uint_eq(sup->n_holds, 0);
}
END_TEST

START_TEST(vfork_parent_not_waited_for)
{
	/* A thread waits in its vfork for the child to exec (make's
	 * posix_spawn): it cannot stop before the child runs, and the
	 * child's first stop is kept by the hold.  It is interrupted (it
	 * stops on its way back) but not waited for: the open runs at once
	 * (before: the session was held for good; make -j2 through syswardd
	 * hung on a kernel without kcmp, where every process shares). */
	stage();
	add_thread();
	fk_evmsg(TID2, TID2 + 7);
	fk_proc(TID2 + 7, TID2 + 7, PID);
	fk_task(TID2 + 7);
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_VFORK));
	dispatch();
	ck_assert(sw_tracee_find(sup, TID2)->vforked);
	write_open();
	ck_assert_int_ge(last(PTRACE_INTERRUPT, TID2), 0);
	ck_assert_int_ge(last(PTRACE_SYSCALL, PID), 0);	/* at once */
	/* the child's first stop: kept */
	fk_queue(TID2 + 7, FK_STOPPED(SIGSTOP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert_int_lt(last(PTRACE_CONT, TID2 + 7), 0);
	fk_file(PID, FD, FK_CGROUP2_MAGIC, "/sys/fs/cgroup/x/cgroup.kill", 82);
	exits(FD);
	injected_runs(0);
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_ge(last(PTRACE_CONT, TID2 + 7), 0);
	/* the parent's stop after the vfork: its own, no longer vforked */
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert(!sw_tracee_find(sup, TID2)->vforked);
}
END_TEST

START_TEST(connect_waits_for_checked_open)
{
	/* A process of the session (P3, no sharer of PID's table) connects
	 * to a unix socket while PID's open is checked: peers.c would hold
	 * the session too, and wait for stops this hold keeps.  Its SECCOMP
	 * stop is kept here, untouched, until the open is decided; then
	 * peers.c has it, as it came. */
	struct sw_tracee *p3;
	long done_at;

	stage();
	add_thread();
	p3 = add_tracee(P3, P3);
	fk_sock(P3, 7, &(struct fk_sock){ AF_UNIX, SOCK_STREAM, O_RDWR,
		OTHER, 1000, OTHER, false, "/tmp/tmux-1000/default" });
	write_open();
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert_int_ge(last(PTRACE_SYSCALL, PID), 0);
	fk_seccomp(P3, X86_64, __NR_connect, (uint64_t[6]){ 7, 0x7000, 110 }, IP);
	fk_queue(P3, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	dispatch();
	ck_assert(p3->rc_held);
	ck_assert_ptr_null(p3->pc);
	ck_assert_int_lt(last(PTRACE_INTERRUPT, PID), 0);
	fk_file(PID, FD, FK_EXT4_MAGIC, "/home/u/notes.txt", 13);
	exits(FD);
	done_at = last(PTRACE_SYSCALL, PID);
	/* released: its connect is peers.c's now, which holds the others */
	p3 = sw_tracee_find(sup, P3);
	ck_assert(!p3->rc_held);
	ck_assert_ptr_nonnull(p3->pc);
	ck_assert_int_gt(last(PTRACE_INTERRUPT, TID2), done_at);
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(other_thread_exits_while_held)
{
	/* The thread interrupted exits instead of stopping: the open runs. */
	stage();
	add_thread();
	write_open();
	fk_queue(TID2, 0);		/* WIFEXITED 0 */
	dispatch();
	ck_assert_ptr_null(sw_tracee_find(sup, TID2));
	ck_assert_int_ge(last(PTRACE_SYSCALL, PID), 0);
	fk_file(PID, FD, FK_EXT4_MAGIC, "/tmp/f", 83);
	exits(FD);
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
}
END_TEST

START_TEST(holder_killed_table_shared)
{
	/* A process of the session shares PID's table (CLONE_FILES) and is
	 * held while PID's open is checked; PID is SIGKILLed after the
	 * kernel installed the descriptor, before our close: the table
	 * lives on in P3 with it.  The session is killed, P3 before its
	 * stop is let go. */
	stage();
	sess->files_shared = true;
	add_tracee(P3, P3);
	fk_files_shared(PID, P3);
	write_open();
	ck_assert_int_ge(last(PTRACE_INTERRUPT, P3), 0);
	fk_queue(P3, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert(sw_tracee_find(sup, P3)->rc_held);
	fk_queue(PID, SIGKILL);		/* WIFSIGNALED, in its call */
	dispatch();
	ck_assert(fk_called(FK_KILL, P3, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	/* killed before its stop is let go (a SIGKILLed tracee resumed
	 * dies before it returns to user space) */
	ck_assert_int_ge(last(FK_KILL, P3), 0);
	ck_assert(last(PTRACE_CONT, P3) < 0 || last(PTRACE_CONT, P3) > last(FK_KILL, P3));
}
END_TEST

/* PID's write-open of a cgroup file refused at its exit stop, the close
 * injected, while TID2, a thread of its process, is held. */
static void thread_held_close_injected(void)
{
	stage();
	add_thread();
	write_open();
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	fk_file(PID, FD, FK_CGROUP2_MAGIC, "/sys/fs/cgroup/x/cgroup.kill", 82);
	exits(FD);
}

START_TEST(holder_thread_killed_alone)
{
	/* PID's own filter kills it (SECCOMP_RET_KILL_THREAD) in the close
	 * injected for its refused open: it dies alone (WIFSIGNALED
	 * SIGSYS), and TID2, held, shares its table with the descriptor
	 * in it.  Its process is killed before TID2's stop is let go. */
	thread_held_close_injected();
	fk_queue(PID, SIGSYS);		/* in the injected close */
	dispatch();
	ck_assert(fk_called(FK_KILL, TID2, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	ck_assert(last(PTRACE_CONT, TID2) < 0 || last(PTRACE_CONT, TID2) > last(FK_KILL, TID2));
}
END_TEST

START_TEST(holder_leader_killed_unseen)
{
	/* PID, the group's leader, is killed alone in our close: a zombie
	 * that waitpid will not give while TID2 lives, so no exit comes.
	 * The bell's tick finds it dead and kills its process, once. */
	thread_held_close_injected();
	ck_assert(!fk_called(FK_KILL, TID2, SIGKILL));
	sw_rc_tick(sup);			/* alive: nothing */
	ck_assert(!fk_called(FK_KILL, TID2, SIGKILL));
	fk_proc_zombie(PID);
	sw_rc_tick(sup);
	ck_assert(fk_called(FK_KILL, TID2, SIGKILL));
	ck_assert_int_eq(warnings, 1);
	ck_assert(last(PTRACE_CONT, TID2) < 0);
	sw_rc_tick(sup);
	ck_assert_int_eq(warnings, 1);
}
END_TEST

START_TEST(holder_thread_killed_with_group)
{
	/* The whole process is killed while its open is checked: TID2 has
	 * SIGKILL pending too (zap_other_threads()), or has died already.
	 * Nothing to add, and nothing said. */
	thread_held_close_injected();
	if (_i)
		fk_proc_zombie(TID2);
	else
		fk_proc_sigpnd(TID2, 1ULL << (SIGKILL - 1));
	fk_queue(PID, SIGKILL);
	dispatch();
	ck_assert(!fk_called(FK_KILL, TID2, SIGKILL));
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(new_thread_held_until_done)
{
	/* A thread created meanwhile (its first stop, not yet announced)
	 * stops before its first instruction: kept until the result. */
	stage();
	add_thread();
	write_open();
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	fk_proc(TID2 + 5, PID, 1);
	fk_task(TID2 + 5);
	fk_queue(TID2 + 5, FK_STOPPED(SIGSTOP, PTRACE_EVENT_STOP));
	dispatch();
	ck_assert_ptr_null(sw_tracee_find(sup, TID2 + 5));
	ck_assert_uint_eq(sup->n_deferred, 1);
	fk_file(PID, FD, FK_EXT4_MAGIC, "/tmp/f", 84);
	exits(FD);
	ck_assert_uint_eq(sup->n_deferred, 0);
	ck_assert_ptr_nonnull(sw_tracee_find(sup, TID2 + 5));
	ck_assert_int_ge(last(PTRACE_CONT, TID2 + 5), 0);
}
END_TEST

START_TEST(exec_by_other_thread)
{
	/* The held thread was already in execve: it kills the leader (our
	 * caller, waiting for it) and takes its tid.  The checked call ends
	 * with the leader; the execed image runs. */
	stage();
	add_thread();
	write_open();
	fk_evmsg(PID, TID2);
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_EXEC));
	dispatch();
	ck_assert_ptr_null(sw_tracee_find(sup, TID2));
	ck_assert_ptr_null(sw_tracee_find(sup, PID)->rc);
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

/* A write-open held while a thread of PID's is stopped, let run, and
 * past the bell's alarm delay: what the alarm then decides. */
static void held_open_past_alarm(void)
{
	stage();
	add_thread();
	write_open();
	fk_queue(TID2, FK_STOPPED(SIGTRAP, PTRACE_EVENT_STOP));
	dispatch();
	sw_tracee_find(sup, PID)->rc->since_ms -= 1000;
}

START_TEST(fifo_partner_lets_go)
{
	/* The checked open waits for a reader of a FIFO (wchan
	 * wait_for_partner) that a held thread would be: after the alarm
	 * the hold ends, the thread runs, and the open is checked when it
	 * returns. */
	held_open_past_alarm();
	fk_proc_wchan(PID, "wait_for_partner");
	fk_queue(sup->bell_pid, FK_STOPPED(SIGUSR1, 0));	/* the alarm rings */
	dispatch();
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_ge(last(PTRACE_CONT, TID2), 0);
	fk_file(PID, FD, FK_PIPEFS_MAGIC, "/tmp/fifo", 85);
	exits(FD);
	ck_assert_uint_eq(ft->n_setregs, 0);
}
END_TEST

/* The checked open (PID's openat) is asleep, its path at 64 bytes into
 * its memory: name. */
static void asleep_opening(const char *name)
{
	char sc[160];

	strcpy((char *)ft->mem + 64, name);
	snprintf(sc, sizeof(sc), "%d 0x%llx 0x%llx 0x1 0x0 0x0 0x0 0x7ffc0000 0x7ff00000",
		 __NR_openat, (unsigned long long)(uint64_t)(int64_t)AT_FDCWD,
		 (unsigned long long)ft->mem_base + 64);
	fk_proc_state(PID, 'S', sc);
}

START_TEST(fifo_partner_lets_go_without_wchan)
{
	/* A kernel without CONFIG_KALLSYMS has no /proc/<pid>/wchan (the
	 * VM guest's: its sessions never ended).  The checked open asleep
	 * (S) in openat of a path that names a FIFO lets the session go
	 * all the same; asleep on one that names a regular file (a FUSE
	 * server's, an NFS one's), it is held on. */
	char path[64];

	held_open_past_alarm();
	snprintf(path, sizeof(path), "/proc/%d/root/tmp/file", PID);
	fk_path(path, FK_EXT4_MAGIC, 86);
	snprintf(path, sizeof(path), "/proc/%d/root/tmp/fifo", PID);
	fk_path(path, FK_PIPEFS_MAGIC, 87);
	asleep_opening("/tmp/file");
	fk_queue(sup->bell_pid, FK_STOPPED(SIGUSR1, 0));	/* the alarm rings */
	dispatch();
	ck_assert_uint_eq(sup->n_holds, 1);
	asleep_opening("/tmp/fifo");
	fk_proc_state(TID2, 'S', "running");
	fk_queue(sup->bell_pid, FK_STOPPED(SIGUSR1, 0));
	dispatch();
	ck_assert_uint_eq(sup->n_holds, 0);
	ck_assert_int_ge(last(PTRACE_CONT, TID2), 0);
	fk_file(PID, FD, FK_PIPEFS_MAGIC, "/tmp/fifo", 85);
	exits(FD);
	ck_assert_uint_eq(ft->n_setregs, 0);
}
END_TEST

/* ---- System V IPC --------------------------------------------------------- */

START_TEST(ipc_get_made_exclusive)
{
	/* shmget(key, IPC_CREAT) runs exclusive; EEXIST: got again as asked,
	 * without IPC_CREAT (the injected call passes our own filter's stop),
	 * and an id the session did not make is refused (EACCES). */
	int listed[] = { 123 };

	stage();
	fk_sysvipc("shm", listed, 1);
	seccomp(__NR_shmget, 0x1234, 4096, IPC_CREAT | 0600, 0);
	ck_assert_uint_eq(ft->n_sets, 1);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[2], IPC_CREAT | IPC_EXCL | 0600);
	exits(-EEXIST);
	ck_assert_uint_eq(ft->n_setregs, 1);
	ck_assert_uint_eq(ft->setregs[0].rax, __NR_shmget);
	ck_assert_uint_eq(ft->setregs[0].rdi, 0x1234);
	ck_assert_uint_eq(ft->setregs[0].rdx, 0600);
	fk_next_entry(PID);
	dispatch();
	fk_seccomp(PID, X86_64, __NR_shmget, (uint64_t[6]){ 0x1234, 4096, 0600 }, IP + 14);
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	dispatch();
	ck_assert_uint_eq(ft->n_sets, 1);		/* ours: let through */
	ft->rval_forced = true;
	ft->rval = 123;
	fk_exit(PID);
	dispatch();
	ck_assert_int_eq((int64_t)ft->setregs[1].rax, -EACCES);
	/* the id refused by id too; one nobody has gets the kernel's answer */
	seccomp(__NR_shmat, 123, 0, 0, 0);
	ck_assert_int_ge(last(PTRACE_POKEUSER, PID), 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_shmat, 124, 0, 0, 0);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_shmat);
}
END_TEST

START_TEST(ipc_forced_create_checked)
{
	/* shmget(key, IPC_CREAT) made exclusive: a success is the
	 * session's only if the kernel made it (the key named nothing at
	 * the stop, and names the id returned now).  A filter of the
	 * program's own answers the rewritten call with ERRNO 0 (returns
	 * 0, never run: id 0 is another process's), or the key was there
	 * already (a real exclusive create would have failed): EACCES, and
	 * the id stays out of reach. */
	int before[] = { 0 }, after[] = { 0, 200 };

	stage();
	fk_sysvipc("shm", before, 1);			/* key 0x5000: id 0 */
	seccomp(__NR_shmget, 0x5000 + 200, 4096, IPC_CREAT | 0600, 0);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[2], IPC_CREAT | IPC_EXCL | 0600);
	exits(0);					/* forged */
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_shmat, 0, 0, 0, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	/* the key 0x5000 is id 0's: a "success" for it is forged */
	seccomp(__NR_shmget, 0x5000, 4096, IPC_CREAT | 0600, 0);
	exits(0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	/* made by the kernel: listed under its key, the session's */
	seccomp(__NR_shmget, 0x5000 + 200, 4096, IPC_CREAT | 0600, 0);
	fk_sysvipc("shm", after, 2);
	exits(200);
	ck_assert_int_eq((int64_t)ft->regs.rax, 200);
	seccomp(__NR_shmat, 200, 0, 0, 0);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_shmat);
}
END_TEST

START_TEST(mq_forced_create_checked)
{
	/* mq_open(name, O_CREAT) made exclusive: as for a System V get, a
	 * success counts only if the name named no queue at the stop and
	 * names the one the descriptor holds now.  Forged (0: descriptor 0,
	 * another process's queue opened for reading), or the name a queue
	 * already: EACCES, descriptor 0 left as it was, the queue not the
	 * session's. */
	stage();
	fk_mq("outsider", 900);
	fk_file(PID, 0, FK_MQUEUE_MAGIC, "/outsider", 900);
	strcpy((char *)ft->mem + 64, "mine");
	seccomp(__NR_mq_open, ft->mem_base + 64, O_CREAT | O_WRONLY, 0600, 0);
	ck_assert_uint_eq(ft->sets[0].seccomp.args[1], O_CREAT | O_EXCL | O_WRONLY);
	exits(0);					/* forged */
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	ck_assert_uint_eq(ft->n_setregs, 0);		/* nothing closed */
	strcpy((char *)ft->mem + 64, "outsider");
	seccomp(__NR_mq_open, ft->mem_base + 64, O_CREAT | O_WRONLY, 0600, 0);
	exits(0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	/* made by the kernel: the session's */
	strcpy((char *)ft->mem + 64, "mine");
	seccomp(__NR_mq_open, ft->mem_base + 64, O_CREAT | O_WRONLY, 0600, 0);
	fk_mq("mine", 901);
	fk_file(PID, FD, FK_MQUEUE_MAGIC, "/mine", 901);
	exits(FD);
	ck_assert_int_eq((int64_t)ft->regs.rax, FD);
	ck_assert_uint_eq(ft->n_setregs, 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

START_TEST(ipc_own_ids)
{
	/* IPC_PRIVATE: the id returned is the session's; semctl IPC_RMID of
	 * it forgets it once done; IPC_INFO names no object. */
	int listed[] = { 77 };

	stage();
	fk_sysvipc("sem", listed, 1);
	seccomp(__NR_semget, IPC_PRIVATE, 1, 0600, 0);
	exits(77);
	seccomp(__NR_semop, 77, 0x7000, 1, 0);
	ck_assert_int_ge(last(PTRACE_CONT, PID), 0);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_semop);
	seccomp(__NR_semctl, 77, 0, IPC_RMID, 0);
	exits(0);
	seccomp(__NR_semop, 77, 0x7000, 1, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_semctl, 0, 0, 3 /* IPC_INFO */, 0);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_semctl);
}
END_TEST

/* ---- keyrings -------------------------------------------------------------- */

START_TEST(keyrings_refused)
{
	const int32_t serials[SW_OBJECTS_KEYRINGS] = { 1111, 2222, 3333 };

	stage();
	sw_objects_set_keyrings(sess->objects, serials);
	/* by special id, by serial, as a destination, by name */
	seccomp(__NR_keyctl, KEYCTL_GET_KEYRING_ID, (uint64_t)KEY_SPEC_USER_KEYRING, 1, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_keyctl, KEYCTL_LINK, 2222, (uint64_t)KEY_SPEC_SESSION_KEYRING, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_keyctl, KEYCTL_SEARCH, (uint64_t)KEY_SPEC_SESSION_KEYRING, 0x7000, 0x7100);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_keyctl);	/* its own: runs */
	fk_seccomp(PID, X86_64, __NR_add_key, (uint64_t[6]){ 0x7000, 0x7100, 0, 0, 3333 }, IP);
	fk_queue(PID, FK_STOPPED(SIGTRAP, PTRACE_EVENT_SECCOMP));
	dispatch();
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	seccomp(__NR_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0x7000, 0, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EPERM);
	seccomp(__NR_keyctl, KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0);
	ck_assert_int_eq(ft->regs.orig_rax, __NR_keyctl);
	seccomp(__NR_keyctl, KEYCTL_GET_PERSISTENT, (uint64_t)-1, (uint64_t)KEY_SPEC_SESSION_KEYRING, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EOPNOTSUPP);
	seccomp(__NR_keyctl, KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_USER_KEYRING, 0, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EACCES);
	/* its parent, sysward, is no tracee of the session */
	seccomp(__NR_keyctl, KEYCTL_SESSION_TO_PARENT, 0, 0, 0);
	ck_assert_int_eq((int64_t)ft->regs.rax, -EPERM);
	/* request_key's upcall cut, the call runs */
	seccomp(__NR_request_key, 0x7000, 0x7100, 0x7200, 0);
	ck_assert_uint_eq(ft->sets[ft->n_sets - 1].seccomp.args[2], 0);
	ck_assert_int_eq(warnings, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("objects");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, open_of_kernel_object_closed);
	tcase_add_test(tc, open_of_own_file_kept);
	tcase_add_loop_test(tc, open_of_procfs_not_own, 0,
			    sizeof(not_own) / sizeof(not_own[0]));
	tcase_add_loop_test(tc, open_judged_without_its_file_system, 0,
			    sizeof(fs_rows) / sizeof(fs_rows[0]));
	tcase_add_loop_test(tc, open_judged_by_statfs_before_6_8, 0,
			    sizeof(fs_rows) / sizeof(fs_rows[0]));
	tcase_add_loop_test(tc, open_on_mount_nowhere, 0,
			    sizeof(nowhere) / sizeof(nowhere[0]));
	tcase_add_test(tc, open_that_only_reads_not_stopped);
	tcase_add_test(tc, dies_during_injected_close);
	tcase_add_test(tc, stop_signal_during_injected_close);
	tcase_add_test(tc, close_refused_fails_closed);
	tcase_add_test(tc, close_forged_fails_closed);
	tcase_add_test(tc, holder_killed_table_shared);
	tcase_add_test(tc, holder_thread_killed_alone);
	tcase_add_loop_test(tc, holder_thread_killed_with_group, 0, 2);
	tcase_add_test(tc, holder_leader_killed_unseen);
	tcase_add_test(tc, getsigmask_refused_fails_closed);
	tcase_add_test(tc, other_thread_held);
	tcase_add_test(tc, vfork_parent_not_waited_for);
	tcase_add_test(tc, connect_waits_for_checked_open);
	tcase_add_test(tc, other_thread_exits_while_held);
	tcase_add_test(tc, new_thread_held_until_done);
	tcase_add_test(tc, exec_by_other_thread);
	tcase_add_test(tc, fifo_partner_lets_go);
	tcase_add_test(tc, fifo_partner_lets_go_without_wchan);
	tcase_add_test(tc, ipc_get_made_exclusive);
	tcase_add_test(tc, ipc_own_ids);
	tcase_add_test(tc, ipc_forced_create_checked);
	tcase_add_test(tc, mq_forced_create_checked);
	tcase_add_test(tc, keyrings_refused);
	tcase_add_checked_fixture(tc, NULL, unstage);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
