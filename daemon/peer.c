// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who is on the other end of a connection.  The kernel records the peer's credentials at connect(2)
 * (SO_PEERCRED) together with its supplementary groups (SO_PEERGROUPS,
 * Linux 4.13): we use those for its identity and never /proc/<pid>, whose
 * pid may be reused once the client passed its socket on and exited.
 *
 * Whether the peer is itself confined (peer_vet) is a question about the
 * process now, not at connect(2): that one we answer from
 * /proc/<pid>/status, with the pid pinned by a pidfd (SO_PEERPIDFD).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/proc.h"
#include "sysward/syscall_nr.h"
#include "syswardd.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

int peer_get(int fd, struct peer *ret, struct sw_error *err)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	cleanup_free gid_t *groups = NULL;
	socklen_t glen = 16 * sizeof(gid_t);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		return sw_error_set_errno(err, errno,
			"read the client's credentials (SO_PEERCRED)");
	for (;;) {
		gid_t *g = realloc(groups, glen ? glen : sizeof(gid_t));

		if (!g)
			return sw_error_set(err, ENOMEM,
				"read the client's groups: out of memory");
		groups = g;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &glen) == 0)
			break;
		/* ERANGE tells the size needed; NGROUPS_MAX bounds it. */
		if (errno != ERANGE || glen > 65536 * sizeof(gid_t))
			return sw_error_set_errno(err, errno,
				"read the client's groups (SO_PEERGROUPS)");
	}
	ret->pid = uc.pid;
	ret->uid = uc.uid;
	ret->gid = uc.gid;
	ret->n_groups = glen / sizeof(gid_t);
	ret->groups = TAKE_PTR(groups);
	return 0;
}

int peer_copy(struct peer *dst, const struct peer *src)
{
	*dst = *src;
	dst->groups = NULL;
	dst->n_groups = 0;
	if (!src->n_groups)
		return 0;
	dst->groups = calloc(src->n_groups, sizeof(gid_t));
	if (!dst->groups)
		return -ENOMEM;
	memcpy(dst->groups, src->groups, src->n_groups * sizeof(gid_t));
	dst->n_groups = src->n_groups;
	return 0;
}

void peer_clear(struct peer *p)
{
	free(p->groups);
	p->groups = NULL;
	p->n_groups = 0;
}

/* ---- is the peer confined? ------------------------------------------- */

/* The pid, in our /proc's pid namespace, a pidfd names: 0 if the process
 * is not visible there, -1 if it has exited, -2 if unknown. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[1024];
	const char *v;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	if (sw_proc_read(path, buf, sizeof(buf)) < 0)
		return -2;
	v = sw_proc_field(buf, "Pid");
	if (!v)
		return -2;
	return (pid_t)strtol(v, NULL, 10);
}

/* Does the process the pidfd names still exist (a zombie counts: its pid
 * is still its own)?  Signal 0 only looks the process up; EPERM means it
 * exists but is not ours to signal. */
static bool pidfd_alive(int pidfd)
{
	return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0 ||
	       errno == EPERM;
}

static bool same_user_ns(pid_t pid)
{
	char path[64];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	return stat(path, &a) == 0 && stat("/proc/self/ns/user", &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int vet_status(pid_t pid, const char *request, const char *status,
		      int r, const char *path, struct peer_state *st,
		      struct sw_error *err);

int peer_vet(int fd, const struct peer *p, const char *request,
	     struct peer_state *st, struct sw_error *err)
{
	return peer_vet_pinned(fd, p, request, st, NULL, err);
}

int peer_vet_pinned(int fd, const struct peer *p, const char *request,
		    struct peer_state *st, int *ret_pidfd, struct sw_error *err)
{
	char path[64], status[SW_PROC_TEXT_MAX];
	socklen_t len = sizeof(int);
	int pidfd = -1, r;
	pid_t pid;

	*st = (struct peer_state){ 0 };
	/* A pidfd of the process that called connect(2), whatever it did
	 * since (Linux 6.16+ also hands one out once it was reaped). */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) < 0 ||
	    len != sizeof(pidfd))
		pidfd = -1;
	if (pidfd < 0) {
		if (errno == ESRCH || errno == EINVAL)
			goto gone;	/* 6.5 .. 6.15: the peer was reaped */
		if (errno != ENOPROTOOPT)
			return sw_error_set(err, EPERM,
				"syswardd refuses %s from pid %d: cannot pin "
				"the client (SO_PEERPIDFD): %s", request,
				(int)p->pid, strerror(errno));
		/*
		 * No SO_PEERPIDFD (before Linux 6.5, which no kernel sysward
		 * supervises on lacks): pin SO_PEERCRED's pid from now on.
		 * The race that remains: if the client exited and its pid
		 * went to another process before this pidfd_open(), we vet
		 * that process instead.  A confined client can exit, but
		 * cannot choose who reuses its pid.
		 */
		if (p->pid <= 0)
			goto unseen;
		pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
		if (pidfd < 0) {
			if (errno == ESRCH)
				goto gone;
			return sw_error_set(err, EPERM,
				"syswardd refuses %s from pid %d: cannot pin "
				"the client (pidfd_open): %s", request,
				(int)p->pid, strerror(errno));
		}
	}
	pid = pidfd_pid(pidfd);
	if (pid == -1)
		goto gone_close;
	if (pid == 0) {
		close(pidfd);
		goto unseen;
	}
	if (pid < 0) {
		close(pidfd);
		return sw_error_set(err, EPERM,
			"syswardd refuses %s from pid %d: cannot read the "
			"client's pid from its pidfd", request, (int)p->pid);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	r = (int)sw_proc_read(path, status, sizeof(status));
	st->pid = pid;
	st->caps_here = same_user_ns(pid);
	/*
	 * Until now pid may have been another process's, if the client
	 * exited and its pid was reused.  If the pidfd's process lives now,
	 * it lived all along, so pid was its own while we read.
	 */
	if (!pidfd_alive(pidfd))
		goto gone_close;
	r = vet_status(pid, request, status, r, path, st, err);
	if (r == 0 && ret_pidfd)
		*ret_pidfd = pidfd;	/* the caller's from here on */
	else
		close(pidfd);
	return r;

gone_close:
	close(pidfd);
gone:
	return sw_error_set(err, EPERM,
		"syswardd refuses %s from pid %d: the process that connected "
		"has exited, so whether it was confined cannot be checked",
		request, (int)p->pid);
unseen:
	return sw_error_set(err, EPERM,
		"syswardd refuses %s: the client is not visible in the "
		"daemon's pid namespace, so whether it is confined (traced) "
		"cannot be checked", request);
}

/* What the client's status (read into status, or -errno r) says. */
static int vet_status(pid_t pid, const char *request, const char *status,
		      int r, const char *path, struct peer_state *st,
		      struct sw_error *err)
{
	const char *tracer, *capeff, *state;

	if (r < 0)
		return sw_error_set(err, EPERM,
			"syswardd refuses %s from pid %d: cannot read %s: %s",
			request, (int)pid, path, strerror(-r));
	tracer = sw_proc_field(status, "TracerPid");
	capeff = sw_proc_field(status, "CapEff");
	state = sw_proc_field(status, "State");
	if (!tracer || !capeff || !state)
		return sw_error_set(err, EPERM,
			"syswardd refuses %s from pid %d: no State, TracerPid "
			"or CapEff in %s", request, (int)pid, path);
	state += strspn(state, " \t");
	st->tracer = (pid_t)strtol(tracer, NULL, 10);
	st->cap_eff = strtoull(capeff, NULL, 16);
	/*
	 * sysward traces every process it confines, and all their
	 * descendants, from before their first instruction until they
	 * exit, and a tracee cannot detach itself: a client that is not
	 * traced is not confined.  One that is may be a confined program
	 * asking the daemon to start or signal sessions outside its
	 * policy (a confused deputy); we cannot tell it from a client
	 * under a debugger, so both are refused.
	 */
	if (st->tracer != 0)
		return sw_error_set(err, EPERM,
			"syswardd refuses %s from pid %d: it is traced (by "
			"pid %d); programs confined by sysward cannot start, "
			"signal or list sessions (a client under a debugger or "
			"strace is traced too: run it untraced)",
			request, (int)pid, (int)st->tracer);
	/*
	 * The status is the thread group leader's.  A leader that exited
	 * while other threads of its group run is a zombie; the kernel
	 * keeps it, and its ptrace link, until the group is empty (no
	 * tracer may reap a delayed group leader), so TracerPid still
	 * tells.  But what a zombie's status says is no longer about a
	 * thread that can act: refuse rather than depend on that.
	 */
	if (*state == 'Z' || *state == 'X')
		return sw_error_set(err, EPERM,
			"syswardd refuses %s from pid %d: its main thread has "
			"exited, so whether it is confined (traced) cannot be "
			"checked", request, (int)pid);
	return 0;
}

int peer_check_caps(const struct peer_state *st, uint64_t want,
		    struct sw_error *err)
{
	uint64_t missing = want & ~st->cap_eff;
	char names[768] = "";
	size_t off = 0;

	if (!want)
		return 0;
	if (!st->caps_here)
		return sw_error_set(err, EPERM,
			"pid %d may not keep capabilities (--cap): it is in "
			"another user namespace, where its capabilities are "
			"not the daemon's", (int)st->pid);
	if (!missing)
		return 0;
	for (int c = 0; c < 64; c++) {
		char *name;
		int n;

		if (!(missing & (UINT64_C(1) << c)))
			continue;
		name = cap_to_name((cap_value_t)c);
		for (char *q = name; q && *q; q++)
			*q = (char)toupper((unsigned char)*q);
		n = snprintf(names + off, sizeof(names) - off, "%s%s",
			     off ? ", " : "", name ? name : "?");
		cap_free(name);
		if (n < 0 || (size_t)n >= sizeof(names) - off) {
			snprintf(names + sizeof(names) - 5, 5, "...");
			break;
		}
		off += (size_t)n;
	}
	return sw_error_set(err, EPERM,
		"pid %d may not keep capabilities it does not have: it lacks "
		"%s (its effective set is 0x%llx); syswardd grants no "
		"capability beyond the client's own", (int)st->pid, names,
		(unsigned long long)st->cap_eff);
}
