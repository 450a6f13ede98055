// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unix peers outside the session (docs/security.md, route 19).
 *
 * Any process of a uid may connect to the path-named unix sockets of
 * every other process of that uid (and, before Landlock ABI 6, to its
 * abstract ones): the user's tmux server, ssh-agent, systemd --user, the
 * D-Bus session bus run commands, sign or start units for whoever
 * connects.  So a connection of a stream or seqpacket socket whose peer
 * is a process of the program's uid outside the session is undone,
 * unless a rule of the policy granted that address; peers of another
 * uid (journald, nscd, the system bus: any uid reaches them) stay.
 *
 * Decided on the kernel's objects, after the fact.  Who the peer is
 * cannot be known before the kernel looks the name up (a thread may
 * rename the outsider's socket file onto a name the check saw as the
 * session's, swap a symlink, a descriptor), so the connect runs and its
 * exit stop judges the connection made: the socket's peer credentials
 * (SO_PEERCRED) and pidfd (SO_PEERPIDFD) name the process that called
 * listen(2) on the socket connected to -- a process of the session
 * (a tracee, or one whose listen this file saw: its pidfs inode, which
 * no other process ever has) or not; its uid; and the name it was bound
 * to (getpeername: the kernel's record, which a rename or a symlink does
 * not change), matched against a grant.  A refused connection is shut
 * down in both directions on the socket itself (every descriptor of it,
 * in every process), and the call fails with EACCES.
 *
 * EACCES, not ECONNREFUSED: the kernel's answer when the socket file may
 * not be written.  ECONNREFUSED says that nobody listens there, and
 * clients then clean up: tmux's client unlinks the socket and starts a
 * server of its own in its place (client.c, client_connect), which
 * would take the user's tmux socket away.
 *
 * The connection exists from the kernel's connect until its exit stop,
 * and anything that holds the socket could write to it meanwhile: a
 * thread or a child of the program's, one that gets it in an SCM_RIGHTS
 * message in flight.  So while the connect runs and is judged, every
 * other tracee of the session is held: interrupted (PTRACE_INTERRUPT)
 * and kept at the stop it reports, or, found blocked in the kernel in a
 * call that sends nothing (sw_arch_quiet_call: a vfork's parent, a read
 * of a file the session's own FUSE server would answer), left there: it
 * stops for the interrupt before it runs any code of the program.  The
 * held stops are handled afterwards, in order (sw_peers_replay).  A
 * session of one task holds nothing.  Every step is a state of the
 * tracee advanced by the dispatch loop: nothing waits.
 *
 * Which connect needs this is decided on the socket (its family and
 * type, from our copy of it), never on the address the program passed,
 * which its threads may change.  The descriptor names the socket the
 * kernel will connect only if nothing can change the descriptor table
 * before the call runs: a process with one thread and no other process
 * sharing its table (kcmp); else the session is held first and the
 * socket looked at afterwards.  Datagram sockets are not checked: where
 * a datagram goes is looked up again at every send, which no check can
 * pin on these kernels (route 19, "Limits").
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sysward/proc.h"
#include "sysward/ptrace_abi.h"
#include "internal.h"
#include "sys.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* i386 socketcall(2)'s subcalls (<linux/net.h>). */
#define SYS_CONNECT_ 3
#define SYS_LISTEN_ 4

/* A session remembers this many listeners (the newest). */
#define SW_PEERS_LISTENERS_MAX 1024

/* A connect whose peer is checked: its tracee's t->pc. */
struct sw_peer_check {
	int fd;			/* the program's descriptor */
	int file;		/* our copy of its socket, or -1 */
	int grant;		/* the rule that let it run, or -1 */
	int flags;		/* its file's status flags, if we set
				 * O_NONBLOCK on it; else -1 */
	bool typed;		/* file is the socket the kernel connects */
	bool running;		/* resumed into its connect */
};

/* A process of the session that called listen(2): its pidfs inode (0:
 * unknown) and its pid then. */
struct listener {
	uint64_t ino;
	pid_t pid;
};

struct sw_peers {
	pid_t holder;		/* the tracee whose connect holds the
				 * session; 0: none */
	unsigned int waiting;	/* SW_HOLD_WAIT tracees */
	struct listener *listeners;
	size_t n_listeners, cap_listeners;
	bool warned;
};

static struct sw_peers *peers_of(struct sw_session *s)
{
	if (!s->peers)
		s->peers = calloc(1, sizeof(*s->peers));
	return s->peers;
}

void sw_peers_free(struct sw_peers *p)
{
	if (!p)
		return;
	free(p->listeners);
	free(p);
}

static void check_free(struct sw_tracee *t)
{
	if (!t->pc)
		return;
	if (t->pc->file >= 0) {
		/* Leave its flags as the program left them. */
		if (t->pc->flags >= 0)
			(void)sw_sys_fcntl(t->pc->file, F_SETFL, t->pc->flags);
		close(t->pc->file);
	}
	free(t->pc);
	t->pc = NULL;
}

/* ---- i386's socketcall ---------------------------------------------- */

bool sw_peers_socketcall(struct sw_session *s, struct sw_tracee *t,
			 enum sw_abi abi, struct sw_ptrace_syscall_info *info)
{
	const struct sw_program *prog = s->prog;
	uint32_t call = (uint32_t)info->seccomp.args[0], a[3];
	unsigned int n = call == SYS_CONNECT_ ? 3 : 2;
	int nr;

	if (!(prog->defences & SW_DEFENCE_UNIX_PEERS) || !sw_abi_socketcall_words(abi) ||
	    prog->sys[abi][SW_SYS_SOCKETCALL] < 0 ||
	    info->seccomp.nr != (uint64_t)prog->sys[abi][SW_SYS_SOCKETCALL] ||
	    (call != SYS_CONNECT_ && call != SYS_LISTEN_))
		return false;
	nr = prog->sys[abi][call == SYS_CONNECT_ ? SW_SYS_CONNECT : SW_SYS_LISTEN];
	/* Unreadable: the kernel's EFAULT; decide.c refuses the
	 * multiplexer as it is. */
	if (nr < 0 || sw_tracee_read(t->pid, info->seccomp.args[1] & 0xffffffffull,
				     a, n * sizeof(a[0])) != (int)(n * sizeof(a[0])))
		return false;
	/* Read once, then run from registers: the arguments in memory may
	 * change, the call runs with these. */
	info->seccomp.nr = (uint64_t)nr;
	for (unsigned int i = 0; i < 6; i++)
		info->seccomp.args[i] = i < n ? a[i] : 0;
	return true;
}

/* ---- the session's listeners ---------------------------------------- */

/* The pidfs inode of a pidfd: the same for every pidfd of one process,
 * never any other process's (Linux 6.9 and later); 0 if unknown. */
static uint64_t pidfd_ino(int pidfd)
{
	struct stat st;

	return sw_sys_fstat(pidfd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* At a listen of t: its process is one of the session's listeners, whose
 * sockets are the session's own however long the process lives (the
 * peer credentials a connect gets are the listener's, at its listen). */
static void listened(struct sw_session *s, struct sw_tracee *t)
{
	struct sw_peers *p = peers_of(s);
	pid_t tgid, ppid;
	struct listener l = { 0 };
	int pidfd;

	if (!p || sw_sys_proc_ids(t->pid, &tgid, &ppid) < 0)
		return;
	pidfd = sw_sys_pidfd_open(tgid, 0);
	if (pidfd >= 0) {
		l.ino = pidfd_ino(pidfd);
		close(pidfd);
	}
	l.pid = tgid;
	for (size_t i = 0; i < p->n_listeners; i++)
		if (p->listeners[i].pid == l.pid && p->listeners[i].ino == l.ino)
			return;
	if (p->n_listeners == p->cap_listeners) {
		size_t cap = p->cap_listeners ? p->cap_listeners * 2 : 8;
		struct listener *n;

		if (cap > SW_PEERS_LISTENERS_MAX) {
			/* Full: the oldest goes (its sockets then count as an
			 * outsider's: refused, never let through). */
			memmove(p->listeners, p->listeners + 1,
				(p->n_listeners - 1) * sizeof(*n));
			p->n_listeners--;
		} else {
			n = realloc(p->listeners, cap * sizeof(*n));
			if (!n)
				return;
			p->listeners = n;
			p->cap_listeners = cap;
		}
	}
	p->listeners[p->n_listeners++] = l;
}

/* ---- the hold ---------------------------------------------------------- */

/* Is pid blocked in the kernel in a call that sends nothing (so that it
 * stops before it runs any code of the program)?  From /proc: its state
 * D (an interruptible sleep is ended by the interrupt anyway) and the
 * call it is in. */
static bool blocked_quietly(pid_t pid)
{
	char path[64], buf[256];
	const char *st;
	unsigned long long nr;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (sw_sys_proc_read(path, buf, sizeof(buf)) < 0 ||
	    !(st = strrchr(buf, ')')) || st[1] != ' ' || st[2] != 'D')
		return false;
	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	if (sw_sys_proc_read(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%llu", &nr) != 1)
		return false;	/* "running", or -1: not in a call */
	return sw_arch_quiet_call(nr);
}

/* Hold every tracee of t's session but t: none of them runs any code of
 * the program until the hold ends.  A tracee that cannot be stopped is
 * killed: it could use the connection. */
static void hold_begin(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;
	struct sw_peers *p = s->peers;

	p->holder = t->pid;
	p->waiting = 0;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *u = &sup->tab[i];

		if (u->pid <= 0 || u->s != s || u == t)
			continue;
		if (u->hold == SW_HOLD_REPLAY || u->hold == SW_HOLD_HELD) {
			/* Stopped still, its stop not yet handled. */
			u->hold = SW_HOLD_HELD;
			continue;
		}
		if (u->state == SW_T_FRESH || u->listening) {
			/* Its first stop is due, or it waits in a group-stop
			 * for SIGCONT, which makes it stop again. */
			u->hold = SW_HOLD_QUIET;
			continue;
		}
		if (sw_sys_ptrace(PTRACE_INTERRUPT, u->pid, 0L, 0L) < 0) {
			if (errno != ESRCH) {
				sw_warn(s, "cannot hold pid %d while pid %d's connect is checked (PTRACE_INTERRUPT: %s); killing it",
					u->pid, t->pid, strerror(errno));
				sw_sys_kill(u->pid, SIGKILL);
			}
			/* Dying: its exit comes through waitpid. */
			u->hold = SW_HOLD_QUIET;
			continue;
		}
		u->hold = SW_HOLD_WAIT;
		p->waiting++;
		if (blocked_quietly(u->pid)) {
			u->hold = SW_HOLD_QUIET;
			p->waiting--;
		}
	}
}

static void replay_push(struct sw_supervisor *sup, struct sw_tracee *u)
{
	if (sup->n_replay == sup->cap_replay) {
		size_t cap = sup->cap_replay ? sup->cap_replay * 2 : 16;
		pid_t *n = realloc(sup->replay, cap * sizeof(*n));

		if (!n) {
			/* Without memory to remember it, it is let go now
			 * (its stop unhandled: a plain continue): the
			 * connection it could use is already judged. */
			u->hold = SW_HOLD_NONE;
			(void)sw_restart(u, SW_CONT(0));
			return;
		}
		sup->replay = n;
		sup->cap_replay = cap;
	}
	sup->replay[sup->n_replay++] = u->pid;
}

/* The hold ends: every held stop is handled after the current one. */
static void hold_end(struct sw_supervisor *sup, struct sw_session *s)
{
	struct sw_peers *p = s->peers;

	if (!p || !p->holder)
		return;
	p->holder = 0;
	p->waiting = 0;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *u = &sup->tab[i];

		if (u->pid <= 0 || u->s != s)
			continue;
		if (u->hold == SW_HOLD_HELD) {
			u->hold = SW_HOLD_REPLAY;
			replay_push(sup, u);
		} else if (u->hold != SW_HOLD_REPLAY) {
			u->hold = SW_HOLD_NONE;
		}
	}
}

bool sw_peers_held(struct sw_supervisor *sup, struct sw_tracee *t, int status)
{
	struct sw_peers *p = t->s ? t->s->peers : NULL;
	struct sw_tracee *h;

	if (!p || !p->holder || p->holder == t->pid)
		return false;
	if (t->hold == SW_HOLD_WAIT && p->waiting)
		p->waiting--;
	t->hold = SW_HOLD_HELD;
	t->held_status = status;
	h = sw_tracee_find(sup, p->holder);
	/* The last stop awaited: the holder goes (a tracee other than
	 * the one whose stop this is, resumed through the one resume). */
	if (!p->waiting && h && h->pc && !h->pc->running)
		(void)sw_restart(h, sw_peers_go(sup, h));
	return true;
}

bool sw_peers_replay(struct sw_supervisor *sup, pid_t *pid, int *status)
{
	while (sup->n_replay) {
		pid_t r = sup->replay[0];
		struct sw_tracee *t;

		memmove(sup->replay, sup->replay + 1,
			--sup->n_replay * sizeof(sup->replay[0]));
		t = sw_tracee_find(sup, r);
		if (!t || t->hold != SW_HOLD_REPLAY)
			continue;	/* gone, or held again */
		t->hold = SW_HOLD_NONE;
		*pid = r;
		*status = t->held_status;
		return true;
	}
	return false;
}

/* ---- the socket -------------------------------------------------------- */

enum sock_kind { SOCK_OTHER, SOCK_UNIX_DGRAM, SOCK_UNIX_CONN, SOCK_UNREADABLE };

/* Our copy of t's descriptor fd in *ret (-1 if none), and what it is. */
static enum sock_kind sock_of(struct sw_tracee *t, int fd, int *ret)
{
	int pidfd, file, v, e;
	socklen_t l = sizeof(v);
	pid_t tgid, ppid;

	*ret = -1;
	/* The thread's own pidfd: its descriptor table, whatever its
	 * thread group's leader is (a zombie leader has none). */
	pidfd = sw_sys_pidfd_open(t->pid, PIDFD_THREAD);
	if (pidfd < 0 && errno == EINVAL &&
	    sw_sys_proc_ids(t->pid, &tgid, &ppid) == 0)
		pidfd = sw_sys_pidfd_open(tgid, 0);	/* before Linux 6.9 */
	if (pidfd < 0)
		return errno == EPERM ? SOCK_UNREADABLE : SOCK_OTHER;
	file = sw_sys_pidfd_getfd(pidfd, fd, 0);
	e = errno;
	close(pidfd);
	if (file < 0)
		/* EBADF: the connect fails so too; ESRCH: it is dying. */
		return e == EPERM ? SOCK_UNREADABLE : SOCK_OTHER;
	if (sw_sys_getsockopt(file, SOL_SOCKET, SO_DOMAIN, &v, &l) < 0 ||
	    v != AF_UNIX) {
		close(file);
		return SOCK_OTHER;
	}
	l = sizeof(v);
	if (sw_sys_getsockopt(file, SOL_SOCKET, SO_TYPE, &v, &l) < 0) {
		close(file);
		return SOCK_OTHER;
	}
	*ret = file;
	return v == SOCK_DGRAM ? SOCK_UNIX_DGRAM : SOCK_UNIX_CONN;
}

/* Can nothing but t change t's descriptor table before its call runs:
 * its process has one thread, and no other tracee of the session shares
 * the table (clone(CLONE_FILES) without CLONE_THREAD)?  Where kcmp cannot
 * tell (a kernel built without CONFIG_KCMP: ENOSYS), it may. */
static bool files_private(struct sw_supervisor *sup, struct sw_tracee *t)
{
	char path[64], text[SW_PROC_TEXT_MAX];
	long threads = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", t->pid);
	if (sw_sys_proc_read(path, text, sizeof(text)) < 0 ||
	    !sw_proc_number(text, "Threads", 10, 0, &threads) || threads != 1)
		return false;
	for (size_t i = 0; i < sup->tab_size; i++) {
		struct sw_tracee *u = &sup->tab[i];
		int r;

		if (u->pid <= 0 || u->s != t->s || u == t)
			continue;
		r = sw_sys_kcmp(t->pid, u->pid, KCMP_FILES, 0L, 0L);
		/* ESRCH: u is gone, and runs no more code. */
		if (r == 0 || (r < 0 && errno != ESRCH))
			return false;
	}
	return true;
}

/* The check of t's connect is over: the call goes in the record with
 * its final decision (actions.c left it out), the others run again. */
static void check_done(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;

	if (t->pc && s->record)
		sw_record_call(s->record, t, t->call.abi, t->call.nr, t->call.args,
			       &t->d);
	check_free(t);
	hold_end(sup, s);
}

/* ---- at the connect's SECCOMP stop ------------------------------------ */

static void refuse(struct sw_decision *d, const char *why)
{
	d->verdict = SW_V_RETURN;
	d->retval = -EACCES;
	d->is_error = true;
	d->rule = SW_RULE_DEFENCE;
	d->why = why;
}

static const char why_unreadable[] =
	"unix peers: the supervisor cannot read this process (not dumpable) to check its connection";
static const char why_outside[] =
	"unix peer outside the session, of the same uid, granted by no rule";

/* Say once per session why pid's connects fail: it is not dumpable. */
static void warn_unreadable(struct sw_session *s, pid_t pid)
{
	struct sw_peers *p = peers_of(s);

	if (!p || p->warned)
		return;
	p->warned = true;
	sw_warn(s, "pid %d: its connect is refused with EACCES: it is not dumpable (it changed credentials, or runs a program file its user cannot read), and the supervisor (without CAP_SYS_PTRACE) cannot see which socket it connects; run sysward as root, or make the program readable",
		pid);
}

void sw_peers_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		      enum sw_abi abi, struct sw_decision *d)
{
	struct sw_session *s = t->s;
	const struct sw_program *prog = s->prog;
	struct sw_peer_check *pc;
	enum sock_kind k;
	int file;

	if (!(prog->defences & SW_DEFENCE_UNIX_PEERS) ||
	    (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE) ||
	    t->pc)
		return;
	if (prog->sys[abi][SW_SYS_LISTEN] >= 0 &&
	    d->nr == (uint64_t)prog->sys[abi][SW_SYS_LISTEN]) {
		listened(s, t);
		return;
	}
	if (prog->sys[abi][SW_SYS_CONNECT] < 0 ||
	    d->nr != (uint64_t)prog->sys[abi][SW_SYS_CONNECT])
		return;
	k = sock_of(t, sw_as_int(d->args[0]), &file);
	if (k == SOCK_UNREADABLE) {
		refuse(d, why_unreadable);
		warn_unreadable(s, t->pid);
		return;
	}
	if (!files_private(sup, t)) {
		/* The descriptor may name another socket when the call
		 * runs: look again once nothing else runs. */
		if (file >= 0)
			close(file);
		file = -1;
	} else if (k != SOCK_UNIX_CONN) {
		if (file >= 0)
			close(file);
		return;
	}
	pc = calloc(1, sizeof(*pc));
	if (!pc || !peers_of(s)) {
		free(pc);
		if (file >= 0)
			close(file);
		/* Unchecked it must not run. */
		refuse(d, "unix peers: out of memory to check the connection");
		return;
	}
	pc->fd = sw_as_int(d->args[0]);
	pc->file = file;
	pc->typed = file >= 0;
	pc->flags = -1;
	pc->grant = d->rule >= 0 ? d->rule : -1;
	t->pc = pc;
	hold_begin(sup, t);
}

/* Let t's call run now: skip it, with EACCES at its exit stop.  False:
 * t could not be changed (killed, or found dead). */
static bool refuse_at_stop(struct sw_tracee *t)
{
	struct sw_ptrace_syscall_info info;

	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof(info),
			  &info) < 0 || info.op != SW_PTRACE_SYSCALL_INFO_SECCOMP) {
		if (errno != ESRCH)
			sw_sys_kill(t->pid, SIGKILL);
		return false;
	}
	info.seccomp.nr = (uint64_t)-1;
	info.flags = 0;
	info.reserved = 0;
	if (sw_sys_ptrace(SW_PTRACE_SET_SYSCALL_INFO, t->pid,
			  (void *)sizeof(info), &info) < 0) {
		if (errno != ESRCH)
			sw_sys_kill(t->pid, SIGKILL);
		return false;
	}
	refuse(&t->d, why_unreadable);
	t->exit_set = true;
	t->rval = -EACCES;
	t->is_error = true;
	return true;
}

struct sw_resume sw_peers_go(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_peer_check *pc = t->pc;
	struct sw_session *s = t->s;
	int file;

	if (!pc || !s->peers || s->peers->waiting)
		return SW_HELD;	/* the last stop awaited lets it go */
	if (!pc->typed) {
		/* Nothing else runs: the descriptor names the socket the
		 * kernel will connect. */
		enum sock_kind k = sock_of(t, pc->fd, &file);

		if (k == SOCK_UNREADABLE) {
			warn_unreadable(s, t->pid);
			if (!refuse_at_stop(t)) {
				if (file >= 0)
					close(file);
				check_done(sup, t);
				return SW_DEAD;
			}
		}
		if (k != SOCK_UNIX_CONN) {
			if (file >= 0)
				close(file);
			check_done(sup, t);
			return SW_SYSCALL(0);
		}
		pc->file = file;
		pc->typed = true;
	}
	/* Held, the others cannot take a connection the session's own
	 * server (held too) would accept: a connect that would wait for room
	 * in a full backlog returns EAGAIN instead, and is made again once
	 * the hold is over (sw_peers_exit). */
	if (s->peers->holder && pc->flags < 0) {
		int fl = sw_sys_fcntl(pc->file, F_GETFL, 0);

		if (fl >= 0 && !(fl & O_NONBLOCK) &&
		    sw_sys_fcntl(pc->file, F_SETFL, fl | O_NONBLOCK) == 0)
			pc->flags = fl;
	}
	pc->running = true;
	return SW_SYSCALL(0);
}

/* ---- at its exit stop: the peer ----------------------------------------- */

enum peer_verdict { PEER_SESSION, PEER_OTHER_UID, PEER_GRANTED, PEER_REFUSED };

/* Does the uid the kernel gave for the peer hold one of t's uids (real,
 * effective, saved, file system), all seen from the supervisor's user
 * namespace as the peer's uid is? */
static bool same_uid(const struct sw_tracee *t, uid_t uid)
{
	char path[64], text[SW_PROC_TEXT_MAX];
	long v;

	snprintf(path, sizeof(path), "/proc/%d/status", t->pid);
	if (sw_sys_proc_read(path, text, sizeof(text)) < 0)
		return true;	/* unknown: as the same */
	for (unsigned int i = 0; i < 4; i++)
		if (!sw_proc_number(text, "Uid", 10, i, &v) || (uid_t)v == uid)
			return true;
	return false;
}

/* The pid a pidfd names in our pid namespace (fdinfo's Pid: -1 once the
 * process has ended, 0 outside our namespace), or 0. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64];
	long v;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	return sw_reach_proc_field(path, "Pid", 10, 0, &v) ? (pid_t)v : 0;
}

static bool listener_of(const struct sw_peers *p, uint64_t ino, pid_t pid)
{
	for (size_t i = 0; p && i < p->n_listeners; i++)
		if (ino ? p->listeners[i].ino == ino : p->listeners[i].pid == pid)
			return true;
	return false;
}

/* Whose is the connection t's socket (file) has made? */
static enum peer_verdict judge(struct sw_supervisor *sup, struct sw_tracee *t,
			       char *name, size_t size, struct ucred *cr)
{
	struct sw_peer_check *pc = t->pc;
	struct sw_peers *p = t->s->peers;
	struct sockaddr_storage sa;
	socklen_t l = sizeof(*cr);
	int pidfd = -1;
	uint64_t ino = 0;
	pid_t pid = 0;
	bool session = false;

	memset(cr, 0, sizeof(*cr));
	name[0] = '\0';
	if (sw_sys_getsockopt(pc->file, SOL_SOCKET, SO_PEERCRED, cr, &l) < 0)
		return PEER_REFUSED;	/* no peer to tell: fail closed */
	l = sizeof(pidfd);
	/* A pidfd also for a listener that has ended (Linux 6.16 and
	 * later); before, none for one that has. */
	if (sw_sys_getsockopt(pc->file, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &l) < 0)
		pidfd = -1;
	if (pidfd >= 0) {
		struct sw_tracee *u;

		ino = pidfd_ino(pidfd);
		pid = pidfd_pid(pidfd);
		u = pid > 0 ? sw_tracee_find(sup, pid) : NULL;
		/* The number named the listener while it lived: if it
		 * lives still, no other process has taken it. */
		session = u && u->s == t->s && pidfd_pid(pidfd) == pid;
		close(pidfd);
	}
	l = sizeof(sa);
	if (sw_sys_getpeername(pc->file, (struct sockaddr *)&sa, &l) < 0 ||
	    sw_unix_addr_spell(&sa, l, name, size) < 0)
		name[0] = '\0';
	if (session || listener_of(p, ino, cr->pid))
		return PEER_SESSION;
	if (!same_uid(t, cr->uid))
		return PEER_OTHER_UID;
	if (pc->grant >= 0 && name[0] &&
	    sw_rule_grants(t->s->prog, pc->grant, t->call.abi, t->call.nr, name))
		return PEER_GRANTED;
	return PEER_REFUSED;
}

bool sw_peers_exit(struct sw_supervisor *sup, struct sw_tracee *t,
		   struct sw_resume *plan)
{
	struct sw_peer_check *pc = t->pc;
	struct sw_session *s = t->s;
	struct sw_ptrace_syscall_info info;
	char name[SW_UNIX_ADDR_MAX + 1];
	struct sw_arch_regs r;
	struct ucred cr;
	int64_t rval;

	if (!pc)
		return false;
	if (!pc->running) {
		/* An exit stop of a call it never ran: no connection. */
		check_done(sup, t);
		return false;
	}
	if (sw_sys_ptrace(SW_PTRACE_GET_SYSCALL_INFO, t->pid, (void *)sizeof(info),
			  &info) < 0 || info.op != SW_PTRACE_SYSCALL_INFO_EXIT)
		rval = -EIO;		/* cannot tell: judged as made */
	else
		rval = info.exit.rval;
	if (pc->flags >= 0) {
		(void)sw_sys_fcntl(pc->file, F_SETFL, pc->flags);
		/* Made again from the call as the program made it: at the
		 * exit stop a register may hold the result, not the
		 * argument (arm64's x0, riscv64's a0: sw_arch_args_returned;
		 * the descriptor was -EAGAIN there). */
		if (rval == -EAGAIN && sw_arch_get_regs(t->pid, &r) == 0 &&
		    sw_arch_inject_abi(t->pid, &r, t->call.abi, t->call.nr, t->call.args) == 0) {
			/* Its backlog was full: made again once the others
			 * ran (the program asked to wait); recorded then. */
			pc->flags = -1;
			check_free(t);
			hold_end(sup, s);
			t->exit_pending = false;
			t->exit_audit = false;
			sw_audit_strings_clear(&t->kept);
			*plan = SW_CONT(0);
			return true;
		}
		pc->flags = -1;
	}
	if (rval == 0 || rval == -EIO) {
		switch (judge(sup, t, name, sizeof(name), &cr)) {
		case PEER_SESSION:
		case PEER_OTHER_UID:
		case PEER_GRANTED:
			break;
		case PEER_REFUSED:
			/* Undone for every holder of the socket: neither side
			 * sends again; the program is told EACCES. */
			(void)sw_sys_shutdown(pc->file, SHUT_RDWR);
			refuse(&t->d, why_outside);
			t->exit_set = true;
			t->rval = -EACCES;
			t->is_error = true;
			if (!s->peers->warned) {
				s->peers->warned = true;
				sw_warn(s, "pid %d: connect to %s refused with EACCES: its peer, pid %d (uid %u), is a process of the program's uid outside the session, which would act for the program with that uid's authority (a shell, tmux, ssh-agent, a D-Bus bus); a rule allowing connect to that address grants it (sysward-policy(5), UNIX SOCKETS)",
					t->pid, name[0] ? name : "an unnamed socket",
					(int)cr.pid, (unsigned int)cr.uid);
			}
			break;
		}
	}
	check_done(sup, t);
	return false;
}

/* ---- a tracee gone --------------------------------------------------- */

void sw_peers_gone(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_peers *p = t->s ? t->s->peers : NULL;
	char name[SW_UNIX_ADDR_MAX + 1];
	struct ucred cr;

	if (p && p->holder == t->pid) {
		/* Killed with its connect made and not judged yet: what it
		 * connected outlives it in whatever else holds the socket. */
		if (t->pc && t->pc->running && t->pc->file >= 0 &&
		    judge(sup, t, name, sizeof(name), &cr) == PEER_REFUSED)
			(void)sw_sys_shutdown(t->pc->file, SHUT_RDWR);
		check_free(t);
		hold_end(sup, t->s);
	} else if (p && p->holder && t->hold == SW_HOLD_WAIT) {
		struct sw_tracee *h = sw_tracee_find(sup, p->holder);

		t->hold = SW_HOLD_NONE;
		if (p->waiting)
			p->waiting--;
		if (!p->waiting && h && h->pc && !h->pc->running)
			(void)sw_restart(h, sw_peers_go(sup, h));
	}
	check_free(t);
	t->hold = SW_HOLD_NONE;
}
