// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mapping the path guard into a fresh image (pathguard.c says what the
 * guard is and why it is handed in this way): the tracee's first syscall
 * becomes socketpair(2), the sealed memfd goes over it, and recvmsg,
 * close, mmap, mseal and close are injected one stop at a time by the
 * dispatch loop; then the program's own first syscall runs.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/kcmp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sysward/caps.h"
#include "sysward/cleanup.h"
#include "sysward/ptrace_abi.h"
#include "sysward/proc.h"
#include "sysward/syscall_nr.h"
#include "trace/pathguard.h"
#include "sys.h"
#include "internal.h"
#include "tracemem.h"
#include "trace/trace.h"

/* ---- mapping the guard into a fresh image --------------------------------- */

/*
 * The setup is a little state machine advanced by the tracer's dispatch
 * loop, one stop at a time: the supervisor never waits for this tracee
 * (an image that never makes a syscall, or stops, or is stopped, leaves
 * it in GS_FIRST_ENTRY while every other tracee is served; SIGKILL ends
 * it as usual).
 */
enum gs_step {
	GS_EXEC_EXIT,		/* to execve's syscall-exit stop */
	GS_FIRST_ENTRY,		/* to the image's first syscall-entry stop */
	GS_SOCKETPAIR,		/* socketpair put in its place: to the exit */
	GS_RECVMSG,		/* injected by rewinding: to entry, then exit */
	GS_CLOSE_SOCK0,
	GS_CLOSE_SOCK1,
	GS_MMAP,
	GS_MSEAL,
	GS_CLOSE,
};

static const char *const gs_what[] = {
	[GS_EXEC_EXIT] = "run to the end of execve",
	[GS_FIRST_ENTRY] = "run to the first syscall",
	[GS_SOCKETPAIR] = "inject socketpair",
	[GS_RECVMSG] = "inject recvmsg",
	[GS_CLOSE_SOCK0] = "inject close",
	[GS_CLOSE_SOCK1] = "inject close",
	[GS_MMAP] = "inject mmap",
	[GS_MSEAL] = "inject mseal",
	[GS_CLOSE] = "inject close",
};

/*
 * What the injected socketpair and recvmsg read and write, in the
 * tracee's memory, laid out as the supervisor lays it out (only images of
 * SW_ABI_GUARD, the ABI sysward itself runs, get a guard: arch.h), in the
 * scratch memory the architecture finds below the stack pointer
 * (sw_arch_scratch).
 */
struct gs_scratch {
	int sv[2];
	struct msghdr msg;
	struct iovec iov;
	char byte;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
};

_Static_assert(sizeof(struct gs_scratch) <= SW_ARCH_SCRATCH_MAX, "fits the scratch memory");

struct sw_guard_setup {
	uint8_t step;
	bool entered;			/* the injected call's entry stop seen */
	struct sw_arch_regs r0;		/* at the first syscall-entry stop */
	int mfd;			/* our memfd, until it is sent */
	int sv[2];			/* the socket pair in the tracee */
	int64_t tfd;			/* the memfd, received in the tracee */
	const char *why;		/* what failed, where errno says too
					 * little (give_up()) */
};

void sw_pathguard_setup_end(struct sw_tracee *t)
{
	if (t->gs && t->gs->mfd >= 0)
		close(t->gs->mfd);
	free(t->gs);
	t->gs = NULL;
}

/*
 * Was the tracee killed while we injected?  SIGKILL takes a tracee out of
 * its stop at once (signal_wake_up_state() with TASK_WAKEKILL), and from
 * then on every ptrace request about it fails with ESRCH
 * (ptrace_check_attach() wants it traced and stopped).  The step that
 * failed saw only the dying: its files closed by exit_files(), the
 * datagram peer of our send gone (ECONNREFUSED), an fd to take gone
 * (EBADF), so its errno alone cannot tell.
 */
static bool killed_meanwhile(pid_t pid, int e)
{
	siginfo_t si;

	if (e == -ESRCH)
		return true;
	return sw_sys_ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) < 0 &&
	       errno == ESRCH;
}

static void give_up(struct sw_session *s, struct sw_tracee *t,
		    const char *step, int e)
{
	const char *why = t->gs && t->gs->why ? t->gs->why : strerror(-e);

	sw_pathguard_setup_end(t);
	sw_pathguard_forget(t);
	if (killed_meanwhile(t->pid, e))
		return;		/* its exit will come */
	if (e == -EPERM && sw_pathguard_explain_unreadable(s, t->pid)) {
		sw_sys_kill(t->pid, SIGKILL);
		return;
	}
	sw_warn(s, "path guard: cannot set up race-free path checks in pid %d (%s: %s); killing it",
		t->pid, step, why);
	sw_sys_kill(t->pid, SIGKILL);
}

/*
 * Have the tracee run syscall nr(a...).  At a syscall-entry stop the
 * pending syscall is replaced; at a syscall-exit stop the instruction
 * pointer goes back to the syscall instruction, which runs again with our
 * registers.  0: the tracee's way on is SW_SYSCALL (the caller's plan);
 * its entry and exit stops come later.
 */
static int inject(struct sw_tracee *t, bool at_entry, long nr,
		  const uint64_t a[6])
{
	int e = sw_arch_inject(t->pid, &t->gs->r0, at_entry, nr, a);

	if (e < 0)
		return e;
	t->gs->entered = at_entry;
	return 0;
}

static uint64_t scratch_addr(const struct sw_guard_setup *gs)
{
	return sw_arch_scratch(&gs->r0);
}

static int scratch_io(pid_t pid, uint64_t at, struct gs_scratch *sc, bool write)
{
	int n = write ? sw_tracee_write(pid, at, sc, sizeof(*sc))
		      : sw_tracee_read(pid, at, sc, sizeof(*sc));

	if (n == (int)sizeof(*sc))
		return 0;
	return n < 0 ? n : -EIO;
}

/*
 * A new guard, ours alone until sealed: sized, mapped writable here, then
 * sealed against every other writer (F_SEAL_FUTURE_WRITE: no write(2), no
 * new writable mapping, VM_MAYWRITE cleared on read-only ones).  Its fd
 * in *ret_fd, to be handed to the tracee.
 */
static int guard_new(struct sw_guard **ret, int *ret_fd)
{
	cleanup_close int fd = -1;
	struct sw_guard *g;
	struct stat st;
	int e;

	fd = sw_sys_memfd_create("sysward-pathguard",
				 MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, SW_GUARD_SIZE) < 0 || fstat(fd, &st) < 0)
		return -errno;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->map = mmap(NULL, SW_GUARD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	if (g->map == MAP_FAILED) {
		e = -errno;
		free(g);
		return e;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
			  F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		e = -errno;
		munmap(g->map, SW_GUARD_SIZE);
		free(g);
		return e;
	}
	g->refs = 1;
	g->ino = (unsigned long)st.st_ino;
	g->dev_major = major(st.st_dev);
	g->dev_minor = minor(st.st_dev);
	*ret = g;
	*ret_fd = fd;
	fd = -1;
	return 0;
}

/*
 * Is sock an end of a socket pair that pid made?  The injected
 * socketpair's result is no proof: a filter of the program's own may
 * answer it unrun (SECCOMP_RET_ERRNO | 0 outranks our TRACE, and the
 * call returns 0), leaving in the scratch memory the numbers the image
 * had there, and we would send, with our credentials (syswardd's: root's;
 * SCM_CREDENTIALS for a receiver with SO_PASSCRED), through any socket
 * the program holds: a datagram socket connected to a service.  The
 * kernel records who made a pair: socketpair(2) gives each end its
 * maker's credentials as its peer's (unix_socketpair(), init_peercred(),
 * net/unix/af_unix.c), while a connected datagram socket has none (pid
 * 0) and a stream socket its listener's or its client's (measured on
 * 6.18).  The setup runs at the fresh image's first syscall, in the
 * thread execve made its group's leader (de_thread()): pid is its tgid,
 * the pid a pair it made records.
 */
static int own_pair(int sock, pid_t pid)
{
	struct ucred cr = { 0 };
	socklen_t len = sizeof(int);
	int domain = 0, type = 0;

	if (sw_sys_getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ||
	    (len = sizeof(int),
	     sw_sys_getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) < 0) ||
	    (len = sizeof(cr),
	     sw_sys_getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0))
		return errno == ENOTSOCK ? -EPROTO : -errno;
	return domain == AF_UNIX && type == (SW_GUARD_SOCK & ~SOCK_CLOEXEC) &&
	       cr.pid == pid ? 0 : -EPROTO;
}

/* Send our sealed memfd to the tracee's end sv[0], through its other end
 * sv[1], which we take with pidfd_getfd(2) (as its tracer we may), once
 * it is seen to be an end of a pair the tracee made. */
static int send_guard(pid_t pid, int tsock, int mfd, const char **why)
{
	cleanup_close int pidfd = -1, sock = -1;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	char byte = 'g';
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *c;
	int e;

	pidfd = sw_sys_pidfd_open(pid, 0);
	if (pidfd < 0)
		return -errno;
	sock = sw_sys_pidfd_getfd(pidfd, tsock, 0);
	if (sock < 0)
		return -errno;
	if ((e = own_pair(sock, pid)) < 0) {
		if (e == -EPROTO)
			*why = "the descriptors it returned are not a socket pair the program made "
			       "(a seccomp filter of the program's own answered it unrun?)";
		return e;
	}
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &mfd, sizeof(int));
	if (sw_sys_sendmsg(sock, &msg, MSG_DONTWAIT | MSG_NOSIGNAL) != 1)
		return errno ? -errno : -EIO;
	return 0;
}

/* Done (or no guard for this image): the program's call goes on (the
 * caller returns 1: SW_CONT). */
static void gs_finish(struct sw_tracee *t)
{
	sw_pathguard_setup_end(t);
}

/* At the first syscall-entry stop of the image: start injecting. */
static int gs_first_entry(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t a[6] = { 0 };
	int e;

	if ((e = sw_arch_get_regs(t->pid, &gs->r0)) < 0)
		return e;
	if ((e = sw_arch_guard_entry_check(&gs->r0)) > 0) {
		/* An image of another ABI (i386: no mseal in compat mode),
		 * no guard.  From the entry stop its call goes on through
		 * its filter. */
		t->guard_state = SW_GUARD_NONE;
		gs_finish(t);
		return 1;
	}
	if (e < 0)
		/* An ABI whose syscall instruction the rewinds below
		 * would not replay (x86: int $0x80 or x32 from 64-bit
		 * code). */
		return e;
	if ((e = guard_new(&t->guard, &gs->mfd)) < 0)
		return e;
	/* Trusted only once seen mapped and sealed (GS_MSEAL). */
	t->guard_state = SW_GUARD_INHERITED;
	a[0] = AF_UNIX;
	a[1] = SW_GUARD_SOCK;
	a[2] = 0;
	a[3] = scratch_addr(gs) + offsetof(struct gs_scratch, sv);
	gs->step = GS_SOCKETPAIR;
	return inject(t, true, __NR_socketpair, a);
}

/* The tracee's socket pair exists: send the memfd, have it received. */
static int gs_receive(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t at = scratch_addr(gs), a[6] = { 0 };
	struct gs_scratch sc;
	int e;

	if ((e = scratch_io(t->pid, at, &sc, false)) < 0)
		return e;
	gs->sv[0] = sc.sv[0];
	gs->sv[1] = sc.sv[1];
	if ((e = send_guard(t->pid, gs->sv[1], gs->mfd, &gs->why)) < 0)
		return e;
	close(gs->mfd);
	gs->mfd = -1;
	memset(&sc, 0, sizeof(sc));
	sc.sv[0] = gs->sv[0];
	sc.sv[1] = gs->sv[1];
	sc.iov.iov_base = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, byte));
	sc.iov.iov_len = 1;
	sc.msg.msg_iov = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, iov));
	sc.msg.msg_iovlen = 1;
	sc.msg.msg_control = (void *)(uintptr_t)(at + offsetof(struct gs_scratch, ctl));
	sc.msg.msg_controllen = sizeof(sc.ctl.buf);
	if ((e = scratch_io(t->pid, at, &sc, true)) < 0)
		return e;
	a[0] = (uint64_t)gs->sv[0];
	a[1] = at + offsetof(struct gs_scratch, msg);
	a[2] = SW_GUARD_RECV;
	gs->step = GS_RECVMSG;
	return inject(t, false, __NR_recvmsg, a);
}

/* The one descriptor recvmsg delivered, or -EPROTO. */
static int received_fd(pid_t pid, uint64_t at)
{
	struct gs_scratch sc;
	struct cmsghdr *c;
	int fd, e;

	if ((e = scratch_io(pid, at, &sc, false)) < 0)
		return e;
	if (sc.msg.msg_flags & MSG_CTRUNC || sc.msg.msg_controllen < CMSG_LEN(sizeof(int)))
		return -EPROTO;
	c = &sc.ctl.h;
	if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd >= 0 ? fd : -EPROTO;
}

/* At the exit stop of an injected call, with its return value. */
static int gs_injected_exit(struct sw_tracee *t, int64_t rv)
{
	struct sw_guard_setup *gs = t->gs;
	uint64_t a[6] = { 0 };
	int e;

	switch (gs->step) {
	case GS_SOCKETPAIR:
		if (rv != 0)
			return rv < 0 ? (int)rv : -EPROTO;
		return gs_receive(t);
	case GS_RECVMSG:
		if (rv != 1)
			return rv < 0 ? (int)rv : -EPROTO;
		if ((e = received_fd(t->pid, scratch_addr(gs))) < 0)
			return e;
		gs->tfd = e;
		/* A policy may deny close(2): the sockets are then left
		 * behind, harmless (empty, nobody else's). */
		a[0] = (uint64_t)gs->sv[0];
		gs->step = GS_CLOSE_SOCK0;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE_SOCK0:
		a[0] = (uint64_t)gs->sv[1];
		gs->step = GS_CLOSE_SOCK1;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE_SOCK1:
		a[0] = SW_GUARD_ADDR;
		a[1] = SW_GUARD_SIZE;
		a[2] = PROT_READ;
		a[3] = MAP_SHARED | MAP_FIXED_NOREPLACE;
		a[4] = (uint64_t)gs->tfd;
		gs->step = GS_MMAP;
		return inject(t, false, __NR_mmap, a);
	case GS_MMAP:
		if ((uint64_t)rv != SW_GUARD_ADDR)
			return rv < 0 ? (int)rv : -EEXIST;
		a[0] = SW_GUARD_ADDR;
		a[1] = SW_GUARD_SIZE;
		gs->step = GS_MSEAL;
		return inject(t, false, SYS_mseal, a);
	case GS_MSEAL:
		if (rv != 0)
			return (int)rv;
		/*
		 * Whatever came through the socket (another process able to
		 * take the tracee's fds could have stolen ours or slipped in
		 * its own), what counts is what is mapped: our memfd,
		 * read-only, whole, sealed.
		 */
		if ((e = sw_guard_intact(t->pid, t->guard)) < 0)
			return e == -ENOENT ? -EBADMSG : e;
		t->guard_state = SW_GUARD_MAPPED;
		/* A policy may deny close(2); the fd is harmless (sealed). */
		a[0] = (uint64_t)gs->tfd;
		gs->step = GS_CLOSE;
		return inject(t, false, __NR_close, a);
	case GS_CLOSE:
		/* Replay the program's own first syscall from its
		 * instruction. */
		if ((e = sw_arch_replay(t->pid, &gs->r0)) < 0)
			return e;
		gs_finish(t);
		return 1;
	default:
		return -EPROTO;
	}
}

static int gs_syscall_stop(struct sw_tracee *t)
{
	struct sw_guard_setup *gs = t->gs;
	struct sw_ptrace_syscall_info info;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid,
			  (void *)sizeof(info), &info) < 0)
		return -errno;
	switch (gs->step) {
	case GS_EXEC_EXIT:
		if (info.op == SW_PTRACE_SYSCALL_INFO_EXIT)
			gs->step = GS_FIRST_ENTRY;
		return 0;
	case GS_FIRST_ENTRY:
		if (info.op != SW_PTRACE_SYSCALL_INFO_ENTRY)
			return 0;
		return gs_first_entry(t);
	default:
		if (!gs->entered) {
			gs->entered = info.op == SW_PTRACE_SYSCALL_INFO_ENTRY;
			return 0;
		}
		if (info.op != SW_PTRACE_SYSCALL_INFO_EXIT)
			return 0;
		return gs_injected_exit(t, info.exit.rval);
	}
}

struct sw_resume sw_pathguard_setup_stop(struct sw_supervisor *sup,
					 struct sw_tracee *t, int sig, int ev)
{
	struct sw_guard_setup *gs = t->gs;
	struct sw_resume plan = SW_SYSCALL(0);
	uint8_t step = gs->step;
	int e;

	/*
	 * Signals go on as the kernel would deliver them, injecting or not.
	 * The setup runs before the image's first system call, and execve
	 * reset every handler to SIG_DFL (SIG_IGN stays): no code of the
	 * program can run on a signal, only the kernel's default action
	 * (ignore, stop, terminate), and none of those touches the
	 * registers of the call being injected.  Holding signals back to
	 * send them again afterwards would reorder them against the ones
	 * sent meanwhile: a SIGSTOP overtaken by a SIGCONT would stop the
	 * program after it had been continued, for good (the kernel drops a
	 * dequeued stop that a later SIGCONT cancels, JOBCTL_STOP_DEQUEUED;
	 * a resent one it cannot know about).
	 */
	(void)sup;
	if (sig == (SIGTRAP | 0x80)) {
		e = gs_syscall_stop(t);
	} else if (ev == PTRACE_EVENT_SECCOMP) {
		/* Our injected calls, sent to us by the filter's prefix.
		 * Before the first entry stop no syscall can have run. */
		e = step >= GS_SOCKETPAIR ? 0 : -EPROTO;
	} else if (ev == PTRACE_EVENT_STOP) {
		/* A group-stop stays stopped; SIGCONT's re-trap comes here
		 * again and the setup goes on where it was. */
		plan = sw_group_stop(t, sig, SW_SYSCALL(0));
		e = 0;
	} else if (ev == 0) {
		plan = SW_SYSCALL(sig);	/* signal-delivery stop */
		e = 0;
	} else {
		/* Fork, clone, exec: impossible before the first syscall. */
		e = -EPROTO;
	}
	if (e < 0) {
		give_up(t->s, t, gs_what[step], e);
		return SW_DEAD;
	}
	/* 1: the setup is over, the program's own call goes on. */
	return e == 1 ? SW_CONT(0) : plan;
}

void sw_pathguard_setup_failed(struct sw_tracee *t)
{
	/* sw_restart() said why and killed it (or found it dead). */
	sw_pathguard_setup_end(t);
	sw_pathguard_forget(t);
}

bool sw_pathguard_exec(struct sw_supervisor *sup, struct sw_tracee *t,
		       struct sw_resume *plan)
{
	struct sw_session *s = t->s;

	(void)sup;
	if (!s || !s->pathguard)
		return false;
	/* The old image's guard went with the old mm. */
	sw_pathguard_forget(t);
	t->exit_pending = false;	/* execve's exit stop is consumed here */
	free(t->gs);
	t->gs = calloc(1, sizeof(*t->gs));
	if (!t->gs) {
		give_up(s, t, gs_what[GS_EXEC_EXIT], -ENOMEM);
		*plan = SW_DEAD;
		return true;
	}
	t->gs->step = GS_EXEC_EXIT;
	t->gs->mfd = -1;
	/* To execve's exit stop, where the setup starts. */
	*plan = SW_SYSCALL(0);
	return true;
}
