// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The uid's kernel objects outside the session (docs/security.md, route
 * 20): what a confined program may reach of the objects the kernel lets
 * any process of its uid act on without a ptrace-mode check, and so
 * without its Landlock domain (route 16) standing in the way.
 *
 *   - Files written through an open of kernel objects: another process's
 *     /proc/<pid> files (oom_score_adj, coredump_filter, clear_refs,
 *     sched, autogroup: fs/proc/base.c checks the file's owner, the
 *     target's euid), sysctls (/proc/sys: proc_sys_permission() checks
 *     the mode bits against the uid alone, so uid 0 without any
 *     capability writes kernel.core_pattern), cgroupfs (systemd delegates
 *     user@UID.service to the uid: cgroup.kill, cgroup.freeze,
 *     cgroup.procs of its terminals and agents), sysfs and the other
 *     kernel file systems (kernfs and friends check the mode bits).  An
 *     open that can write is sent here by the defence filter and checked
 *     on what it opened, the descriptor it returns (resultcheck.c), not on
 *     the string: fs_rules[] (fdfs.c) says which file systems hold such
 *     objects, and a procfs file is the session's only if it is a file of
 *     a pid directory of one of its tracees (procfiles.c).
 *   - System V IPC objects (keys and ids) and POSIX message queues (names):
 *     one namespace for the uid, permissions by mode bits.  The session
 *     keeps the ids and queue inodes it made (struct sw_objects); an
 *     object it did not make is refused as the kernel refuses one without
 *     permission (EACCES, EPERM for the ctl calls that change or remove).
 *     A get that may create is made exclusive, so that its success means
 *     "made now" and an EEXIST is looked up again, as the program asked.
 *   - Keyrings: the user keyring (@u, KEY_SPEC_USER_KEYRING) and the user
 *     session keyring (@us) are the uid's, reachable by their special ids
 *     (lookup_user_key() makes them possessed: every key in them readable),
 *     by their serials (KEYCTL_LINK into a keyring of the program's own
 *     makes them possessed), by name (KEYCTL_JOIN_SESSION_KEYRING
 *     "_uid.<uid>": find_keyring_by_name() only asks for search
 *     permission, which the owner has) and as request_key's default
 *     destination; the persistent keyring by KEYCTL_GET_PERSISTENT and by
 *     serial.  The launch child joins a session keyring of its own (so
 *     the program no longer possesses @us, and through it @u) and learns
 *     the three serials as the program's uid; every keyctl, add_key and
 *     request_key naming one of them is refused (EACCES, keyrings.c), and
 *     request_key's upcall is cut (its callout: /sbin/request-key would
 *     run as root, outside the sandbox, for the program).
 *
 * Where the session has a view of its own (a namespace: its own /proc,
 * IPC namespace, ...), the defence that stands in for it is off:
 * sw_objects_defences_off(), read by program.c (the filter's rules) and
 * so by everything that reads prog->defences.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/proc.h"
#include "internal.h"
#include "sys.h"
#include "tracemem.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "trace/checked.h"
#include "trace/fdfs.h"
#include "trace/keyrings.h"
#include "trace/procfiles.h"
#include "trace/reach.h"
#include "trace/trace.h"

/* SysV IPC commands the ctl calls take an index or nothing with (no
 * object by id): information anyone may read (/proc/sysvipc shows it). */
#define SW_IPC_INFO		3
#define SW_SHM_STAT		13
#define SW_SHM_INFO		14
#define SW_SHM_STAT_ANY		15
#define SW_SEM_STAT		18
#define SW_SEM_INFO		19
#define SW_SEM_STAT_ANY		20
#define SW_MSG_STAT		11
#define SW_MSG_INFO		12
#define SW_MSG_STAT_ANY		13
#define SW_IPC_RMID		0
#define SW_IPC_64		0x0100	/* or'ed into cmd by libc */

/* i386's ipc(2) multiplexer (ipc/syscall.c): the call in its first
 * argument's low 16 bits. */
enum {
	SW_IPCCALL_SEMOP = 1, SW_IPCCALL_SEMGET = 2, SW_IPCCALL_SEMCTL = 3,
	SW_IPCCALL_SEMTIMEDOP = 4, SW_IPCCALL_MSGSND = 11,
	SW_IPCCALL_MSGRCV = 12, SW_IPCCALL_MSGGET = 13,
	SW_IPCCALL_MSGCTL = 14, SW_IPCCALL_SHMAT = 21, SW_IPCCALL_SHMDT = 22,
	SW_IPCCALL_SHMGET = 23, SW_IPCCALL_SHMCTL = 24,
};

/* A session makes at most this many objects of each kind (the kernel's
 * default kernel.shmmni is 4096); past it, a get that would create one is
 * refused with ENOSPC, the kernel's answer for a full namespace. */
#define SW_OBJECTS_MAX		4096u

/* ---- the switch ----------------------------------------------------------- */

unsigned int sw_objects_defences_off(unsigned int contained)
{
	unsigned int off = 0;
	const unsigned int views = SW_CONTAINED_PIDS | SW_CONTAINED_SYSCTL |
				   SW_CONTAINED_SYSFS | SW_CONTAINED_CGROUP;

	/* Every file system whose objects fs_rules[] refuses is the
	 * session's own: no open needs a look. */
	if ((contained & views) == views)
		off |= SW_DEFENCE_OBJECT_OPENS;
	if (contained & SW_CONTAINED_IPC)
		off |= SW_DEFENCE_IPC;
	/* Keyrings are per uid in every namespace but a user namespace of
	 * the program's own: always on. */
	return off;
}

/* ---- a set of ids, open addressing ---------------------------------------- */

/* Keys are stored + 1 (0 empty), a removed one as UINT64_MAX. */
struct sw_idset {
	uint64_t *v;
	size_t cap, n, used;	/* slots, live keys, live + removed */
};

#define IDSET_GONE UINT64_MAX

static size_t idset_slot(uint64_t k, size_t cap)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

static bool idset_has(const struct sw_idset *s, uint64_t key)
{
	uint64_t k = key + 1;

	if (!s->cap)
		return false;
	for (size_t i = idset_slot(k, s->cap), n = 0; n < s->cap;
	     i = (i + 1) & (s->cap - 1), n++) {
		if (s->v[i] == k)
			return true;
		if (!s->v[i])
			return false;
	}
	return false;
}

/* Room for one more key: 0, -ENOSPC at the bound, -ENOMEM. */
static int idset_reserve(struct sw_idset *s)
{
	struct sw_idset n = { 0 };

	if (s->n >= SW_OBJECTS_MAX)
		return -ENOSPC;
	if ((s->used + 1) * 2 <= s->cap)
		return 0;
	n.cap = s->cap ? s->cap : 16;
	while ((s->n + 1) * 4 > n.cap)
		n.cap *= 2;
	n.v = calloc(n.cap, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (size_t i = 0; i < s->cap; i++) {
		size_t j;

		if (!s->v[i] || s->v[i] == IDSET_GONE)
			continue;
		for (j = idset_slot(s->v[i], n.cap); n.v[j]; j = (j + 1) & (n.cap - 1))
			;
		n.v[j] = s->v[i];
		n.n++;
	}
	n.used = n.n;
	free(s->v);
	*s = n;
	return 0;
}

static int idset_add(struct sw_idset *s, uint64_t key)
{
	uint64_t k = key + 1;
	size_t i;
	int r;

	if (idset_has(s, key))
		return 0;
	if ((r = idset_reserve(s)) < 0)
		return r;
	for (i = idset_slot(k, s->cap); s->v[i] && s->v[i] != IDSET_GONE;
	     i = (i + 1) & (s->cap - 1))
		;
	if (!s->v[i])
		s->used++;
	s->v[i] = k;
	s->n++;
	return 0;
}

static void idset_del(struct sw_idset *s, uint64_t key)
{
	uint64_t k = key + 1;

	if (!s->cap)
		return;
	for (size_t i = idset_slot(k, s->cap), n = 0; n < s->cap;
	     i = (i + 1) & (s->cap - 1), n++) {
		if (!s->v[i])
			return;
		if (s->v[i] == k) {
			s->v[i] = IDSET_GONE;
			s->n--;
			return;
		}
	}
}

/* ---- a session's objects ---------------------------------------------------- */

enum { SW_IPC_SHM, SW_IPC_SEM, SW_IPC_MSG, SW_IPC_KINDS };

struct sw_objects {
	/* the keyrings its program must not reach (0: none) */
	int32_t keyring[SW_OBJECTS_KEYRINGS];
	/* ids of the System V objects the session made, per kind, and the
	 * inode numbers of its message queues */
	struct sw_idset ipc[SW_IPC_KINDS];
	struct sw_idset mq;
	/* The IPC namespace these are in: the launch's.  Until a tracee
	 * makes a call that can leave it (unshare, setns, clone with
	 * CLONE_NEWIPC) every tracee is in it, and none is asked. */
	dev_t ipcns_dev;
	ino_t ipcns_ino;
	bool ipcns_known;
	bool ipcns_varies;
	/* the device of the supervisor's /proc, read once */
	dev_t proc_dev;
	bool proc_dev_known;
};

struct sw_objects *sw_objects_new(void)
{
	return calloc(1, sizeof(struct sw_objects));
}

void sw_objects_free(struct sw_objects *o)
{
	if (!o)
		return;
	for (int k = 0; k < SW_IPC_KINDS; k++)
		free(o->ipc[k].v);
	free(o->mq.v);
	free(o);
}

void sw_objects_set_keyrings(struct sw_objects *o,
			     const int32_t serials[SW_OBJECTS_KEYRINGS])
{
	memcpy(o->keyring, serials, sizeof(o->keyring));
}

void sw_objects_launched(struct sw_objects *o, pid_t pid)
{
	char path[64];
	struct stat st;

	/* Before its exec: the program has not run, so this is the
	 * namespace its launch gave it. */
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", pid);
	if (sw_sys_stat(path, &st) == 0) {
		o->ipcns_dev = st.st_dev;
		o->ipcns_ino = st.st_ino;
		o->ipcns_known = true;
	}
}

/* Is t in the IPC namespace the session's bookkeeping is for?  Outside
 * it, t is in one the session made (unshare and setns need capabilities
 * over the namespace's user namespace, which only a user namespace of the
 * program's own gives it), whose every object is the session's. */
static bool in_launch_ipcns(struct sw_objects *o, pid_t tid)
{
	char path[64];
	struct stat st;

	if (!o->ipcns_varies || !o->ipcns_known)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", tid);
	if (sw_sys_stat(path, &st) < 0)
		return true;	/* fail closed: check it as the launch's */
	return st.st_dev == o->ipcns_dev && st.st_ino == o->ipcns_ino;
}

/* ---- opens that can write: the object opened ------------------------------ */

static dev_t proc_dev(struct sw_objects *o)
{
	struct stat st;

	if (!o->proc_dev_known && sw_sys_stat("/proc", &st) == 0) {
		o->proc_dev = st.st_dev;
		o->proc_dev_known = true;
	}
	return o->proc_dev;
}

/*
 * The descriptor fd of tid, the result of an open that can write: 0 if
 * the session may keep it, else the errno its open fails with (*why).
 * Decided on the file the descriptor holds, which resultcheck.c keeps
 * from changing meanwhile.
 */
static int fd_verdict(struct sw_supervisor *sup, struct sw_tracee *t, int fd,
		      const char **why)
{
	struct sw_session *s = t->s;
	const struct sw_program *prog = s->prog;
	char path[64], link[PATH_MAX];
	const struct sw_kobjfs *rule;
	unsigned long magic;
	struct stat st;
	ssize_t n;

	/* Never a call into the file's file system: one the program
	 * serves (FUSE in a user namespace of its own) would hold this
	 * thread, and every session on it, until it answers. */
	if (sw_fd_fs(t->pid, fd, &magic, &st) < 0) {
		*why = "cannot tell what an open that can write opened (its mount is in no namespace the supervisor can see, or its descriptor is gone)";
		return EACCES;
	}
	rule = sw_kobjfs_of(magic);
	if (!rule || (rule->contained && (prog->contained & rule->contained)))
		return 0;
	*why = rule->why;
	if (rule->what == SW_FS_KERNEL)
		return EACCES;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", t->pid, fd);
	if (rule->what == SW_FS_MQUEUE)
		return in_launch_ipcns(s->objects, t->pid) &&
		       !idset_has(&s->objects->mq, (uint64_t)st.st_ino) ? EACCES : 0;
	/* procfs */
	n = sw_sys_readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return EACCES;
	link[n] = '\0';
	if (st.st_dev == proc_dev(s->objects)) {
		if ((prog->contained & SW_CONTAINED_PIDS) &&
		    (prog->contained & SW_CONTAINED_SYSCTL))
			return 0;
		return sw_proc_file_of_session(sup, s, &st, link) ? 0 : EACCES;
	}
	return sw_proc_foreign_pid_file(t->pid, &st, link) ? 0 : EACCES;
}

/* ---- System V IPC and message queues: the session's own ----------------------- */

static bool is(const struct sw_program *prog, enum sw_abi abi, enum sw_def_sys s,
	       uint64_t nr)
{
	return prog->sys[abi][s] >= 0 && (uint64_t)prog->sys[abi][s] == nr;
}

/* The object an IPC call names, as one of direct form. */
struct ipc_call {
	int kind;		/* SW_IPC_*, or -1: no object */
	bool get;		/* a get: key and flags (flags_arg) */
	uint64_t key_or_id;
	int cmd;		/* ctl calls: the command, else -1 */
	int flags_arg;		/* get: which argument holds the flags */
};

static bool ipc_decode(const struct sw_program *prog, enum sw_abi abi,
		       const struct sw_decision *d, struct ipc_call *c)
{
	const uint64_t *a = d->args;
	uint64_t nr = d->nr;

	*c = (struct ipc_call){ .kind = -1, .cmd = -1, .flags_arg = -1 };
	if (is(prog, abi, SW_SYS_SHMGET, nr))
		*c = (struct ipc_call){ SW_IPC_SHM, true, a[0], -1, 2 };
	else if (is(prog, abi, SW_SYS_SEMGET, nr))
		*c = (struct ipc_call){ SW_IPC_SEM, true, a[0], -1, 2 };
	else if (is(prog, abi, SW_SYS_MSGGET, nr))
		*c = (struct ipc_call){ SW_IPC_MSG, true, a[0], -1, 1 };
	else if (is(prog, abi, SW_SYS_SHMAT, nr))
		*c = (struct ipc_call){ SW_IPC_SHM, false, a[0], -1, -1 };
	else if (is(prog, abi, SW_SYS_SHMCTL, nr))
		*c = (struct ipc_call){ SW_IPC_SHM, false, a[0], sw_as_int(a[1]), -1 };
	else if (is(prog, abi, SW_SYS_SEMOP, nr) || is(prog, abi, SW_SYS_SEMTIMEDOP, nr) ||
		 is(prog, abi, SW_SYS_SEMTIMEDOP_TIME64, nr))
		*c = (struct ipc_call){ SW_IPC_SEM, false, a[0], -1, -1 };
	else if (is(prog, abi, SW_SYS_SEMCTL, nr))
		*c = (struct ipc_call){ SW_IPC_SEM, false, a[0], sw_as_int(a[2]), -1 };
	else if (is(prog, abi, SW_SYS_MSGSND, nr) || is(prog, abi, SW_SYS_MSGRCV, nr))
		*c = (struct ipc_call){ SW_IPC_MSG, false, a[0], -1, -1 };
	else if (is(prog, abi, SW_SYS_MSGCTL, nr))
		*c = (struct ipc_call){ SW_IPC_MSG, false, a[0], sw_as_int(a[1]), -1 };
	else if (is(prog, abi, SW_SYS_IPC, nr)) {
		/* ipc(call, first, second, third, ptr, fifth) */
		switch (sw_as_int(a[0]) & 0xffff) {
		case SW_IPCCALL_SEMOP: case SW_IPCCALL_SEMTIMEDOP:
			*c = (struct ipc_call){ SW_IPC_SEM, false, a[1], -1, -1 };
			break;
		case SW_IPCCALL_SEMGET:
			*c = (struct ipc_call){ SW_IPC_SEM, true, a[1], -1, 3 };
			break;
		case SW_IPCCALL_SEMCTL:
			*c = (struct ipc_call){ SW_IPC_SEM, false, a[1], sw_as_int(a[3]), -1 };
			break;
		case SW_IPCCALL_MSGSND: case SW_IPCCALL_MSGRCV:
			*c = (struct ipc_call){ SW_IPC_MSG, false, a[1], -1, -1 };
			break;
		case SW_IPCCALL_MSGGET:
			*c = (struct ipc_call){ SW_IPC_MSG, true, a[1], -1, 2 };
			break;
		case SW_IPCCALL_MSGCTL:
			*c = (struct ipc_call){ SW_IPC_MSG, false, a[1], sw_as_int(a[2]), -1 };
			break;
		case SW_IPCCALL_SHMAT:
			*c = (struct ipc_call){ SW_IPC_SHM, false, a[1], -1, -1 };
			break;
		case SW_IPCCALL_SHMGET:
			*c = (struct ipc_call){ SW_IPC_SHM, true, a[1], -1, 3 };
			break;
		case SW_IPCCALL_SHMCTL:
			*c = (struct ipc_call){ SW_IPC_SHM, false, a[1], sw_as_int(a[2]), -1 };
			break;
		default:	/* SHMDT: an address of its own; unknown: EINVAL */
			return true;
		}
	} else {
		return false;
	}
	return true;
}

/* A ctl command that names no object by id: an index, or global. */
static bool ctl_no_object(int kind, int cmd)
{
	cmd &= ~SW_IPC_64;
	if (cmd == SW_IPC_INFO)
		return true;
	switch (kind) {
	case SW_IPC_SHM:
		return cmd == SW_SHM_STAT || cmd == SW_SHM_INFO || cmd == SW_SHM_STAT_ANY;
	case SW_IPC_SEM:
		return cmd == SW_SEM_STAT || cmd == SW_SEM_INFO || cmd == SW_SEM_STAT_ANY;
	default:
		return cmd == SW_MSG_STAT || cmd == SW_MSG_INFO || cmd == SW_MSG_STAT_ANY;
	}
}

/* The ctl commands that change or remove: the kernel's EPERM for a
 * caller that is neither owner nor creator (ipcctl_obtain_check). */
static bool ctl_changes(int cmd)
{
	cmd &= ~SW_IPC_64;
	return cmd == SW_IPC_RMID || cmd == 1 /* IPC_SET */ ||
	       cmd == 11 /* SHM_LOCK */ || cmd == 12 /* SHM_UNLOCK */;
}

/*
 * The namespace's objects of this kind: /proc/sysvipc lists every one,
 * to anyone, as "key id ...".  Looked up by id (by_key false: *other its
 * key) or by key (*other its id).  Unreadable: found (fail closed).
 */
static bool ipc_find(int kind, bool by_key, int32_t value, int32_t *other)
{
	static const char *const file[SW_IPC_KINDS] = {
		[SW_IPC_SHM] = "/proc/sysvipc/shm", [SW_IPC_SEM] = "/proc/sysvipc/sem",
		[SW_IPC_MSG] = "/proc/sysvipc/msg",
	};
	char line[512];
	bool found = false;
	FILE *f = sw_sys_fopen(file[kind], "re");
	long key, n;

	if (other)
		*other = by_key ? -1 : IPC_PRIVATE;
	if (!f)
		return true;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%ld %ld", &key, &n) != 2)
			continue;
		found = (by_key ? key : n) == value;
		if (found && other)
			*other = (int32_t)(by_key ? n : key);
	}
	fclose(f);
	return found;
}

/* Is id one of the namespace's objects of this kind?  An id the session
 * did not make is refused only if it names an object; a removed or
 * invented one gets the kernel's EINVAL (EIDRM), as unconfined. */
static bool ipc_listed(int kind, int32_t id)
{
	return ipc_find(kind, false, id, NULL);
}

/*
 * A get we made exclusive (IPC_EXCL added at its SECCOMP stop) claims
 * success: did the kernel make the object?  The claim alone is no proof:
 * after a TRACE stop the kernel runs every filter of the task again on
 * the arguments we left (kernel/seccomp.c, __seccomp_filter(),
 * recheck_after_trace), and a filter of the program's own may answer
 * exactly our rewritten call with SECCOMP_RET_ERRNO | 0 (it returns 0,
 * never run) or SECCOMP_RET_TRAP (skipped, its return register rolled
 * back: syscall_rollback()).  A filter is a pure function of the call,
 * so a call we did not rewrite gets the answer that let it stop here.
 * An exclusive create the kernel ran made an object with the key that
 * no object had at the stop (rc->existed, looked up then), and it is
 * listed now under the id returned.
 */
static bool ipc_made_now(const struct sw_rc *rc, int64_t rval)
{
	int32_t key;

	if (!rc->forced)
		return true;	/* the program's own call, unchanged */
	return !rc->existed && rval <= INT32_MAX &&
	       ipc_find(rc->ipc, false, (int32_t)rval, &key) && key == (int32_t)rc->id;
}

static void ipc_contain(struct sw_tracee *t, enum sw_abi abi,
			const struct ipc_call *c, struct sw_decision *d)
{
	struct sw_objects *o = t->s->objects;
	const char *why = "a System V IPC object the session did not make refused";
	int32_t id = sw_as_int(c->key_or_id);

	if (!c->get) {
		if (c->cmd >= 0 && ctl_no_object(c->kind, c->cmd))
			return;
		if (!idset_has(&o->ipc[c->kind], (uint64_t)(uint32_t)id)) {
			if (ipc_listed(c->kind, id))
				sw_refuse(d, c->cmd >= 0 && ctl_changes(c->cmd) ? EPERM : EACCES, why);
			return;
		}
		/* A removal the session makes: forget the id once it is
		 * gone (not shm's, which stays until its last detach). */
		if (c->cmd >= 0 && (c->cmd & ~SW_IPC_64) == SW_IPC_RMID &&
		    c->kind != SW_IPC_SHM &&
		    sw_rc_want(t, SW_RC_IPC_RMID, abi, d) == 0) {
			t->rc->ipc = (uint8_t)c->kind;
			t->rc->id = (uint32_t)id;
		}
		return;
	}
	/* A get.  One that may create one more must have room for it. */
	{
		uint64_t flags = d->args[c->flags_arg];
		bool creat = id == IPC_PRIVATE || (flags & IPC_CREAT);
		bool forced = false;
		int r;

		if (creat && (r = idset_reserve(&o->ipc[c->kind])) < 0) {
			sw_refuse(d, -r, "the session made as many System V IPC objects of this kind as it may");
			return;
		}
		/* Made exclusive: success is "made now"; an EEXIST is looked
		 * up again as the program asked (sw_objects_result). */
		if (id != IPC_PRIVATE && (flags & IPC_CREAT) && !(flags & IPC_EXCL)) {
			d->verdict = SW_V_REWRITE;
			d->args[c->flags_arg] |= IPC_EXCL;
			forced = true;
		}
		if (sw_rc_want(t, SW_RC_IPC_GET, abi, d) < 0) {
			sw_refuse(d, ENOMEM, "out of memory to check a System V IPC get");
			return;
		}
		t->rc->ipc = (uint8_t)c->kind;
		t->rc->flags_arg = (int8_t)c->flags_arg;
		t->rc->created = id == IPC_PRIVATE || (flags & IPC_CREAT && flags & IPC_EXCL) || forced;
		t->rc->forced = forced;
		t->rc->orig_flags = flags;
		t->rc->id = (uint32_t)id;	/* the key */
		t->rc->existed = forced && ipc_find(c->kind, true, id, NULL);
	}
}

/* The message queue inode an fd of tid holds, or 0. */
static uint64_t mq_ino(pid_t tid, int fd)
{
	unsigned long magic;
	struct stat st;

	if (sw_fd_fs(tid, fd, &magic, &st) < 0 || magic != SW_MQUEUE_MAGIC)
		return 0;
	return (uint64_t)st.st_ino;
}

/* A queue's name (mq_open's, mq_unlink's first argument), read once
 * into name: true, or false with the call refused in d. */
static bool mq_name_read(struct sw_tracee *t, struct sw_decision *d,
			 char name[SW_MQ_NAME_MAX], const char *unreadable,
			 const char *too_long)
{
	int n = sw_read_tracee_string(&t->pid, d->args[0], name, SW_MQ_NAME_MAX);

	if (n < 0) {
		sw_refuse(d, -n, unreadable);
		return false;
	}
	if ((size_t)n >= SW_MQ_NAME_MAX - 1) {
		sw_refuse(d, ENAMETOOLONG, too_long);
		return false;
	}
	return true;
}

/*
 * mq_unlink(name) removes a queue by name, and a check of the name
 * before the call could be made on other bytes than the kernel reads
 * (another thread rewrites them).  So it is done here, on the bytes read
 * once: the queue the name names is opened and must be one the session
 * made; then this process unlinks it and the call returns what that
 * returned.  Only in the launch's IPC namespace, which is the
 * supervisor's where it can act as the program would (the same uid:
 * embedded; as root, a queue the program made and so may remove).
 */
static void mq_unlink_emulate(struct sw_tracee *t, struct sw_decision *d)
{
	struct sw_objects *o = t->s->objects;
	char name[SW_MQ_NAME_MAX];
	struct stat st;
	int fd, r;

	if (!mq_name_read(t, d, name, "cannot read mq_unlink's name",
			  "mq_unlink's name is too long"))
		return;
	fd = sw_sys_mq_open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = sw_sys_mq_open(name, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		/* No such queue (or none we may open): the kernel says so. */
		if (errno == ENOENT || errno == EINVAL || errno == ENAMETOOLONG)
			sw_refuse(d, errno, "mq_unlink of no message queue");
		else
			sw_refuse(d, EACCES, "a message queue the session did not make refused");
		return;
	}
	r = sw_sys_fstat(fd, &st);
	close(fd);
	if (r < 0 || !idset_has(&o->mq, (uint64_t)st.st_ino)) {
		sw_refuse(d, EACCES, "a message queue the session did not make refused");
		return;
	}
	r = sw_sys_mq_unlink(name) < 0 ? errno : 0;
	d->verdict = SW_V_RETURN;
	d->rule = SW_RULE_DEFENCE;
	d->retval = r ? -(int64_t)r : 0;
	d->is_error = r != 0;
	d->why = "mq_unlink made by the supervisor, of a queue the session made";
}

/* Does name name a queue (in the launch's IPC namespace, ours: see
 * mq_unlink_emulate)?  Its inode in *ino.  Any answer but ENOENT (or a
 * name the kernel refuses) counts as yes, ino 0: fail closed. */
static bool mq_named(const char *name, uint64_t *ino)
{
	struct stat st;
	int fd, r;

	*ino = 0;
	fd = sw_sys_mq_open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		fd = sw_sys_mq_open(name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT && errno != EINVAL && errno != ENAMETOOLONG;
	r = sw_sys_fstat(fd, &st);
	close(fd);
	if (r == 0)
		*ino = (uint64_t)st.st_ino;
	return true;
}

/*
 * An mq_open we made exclusive (O_EXCL added at its SECCOMP stop) claims
 * success with descriptor fd: did the kernel make the queue?  As for
 * ipc_made_now(): the kernel runs the program's own filters again on our
 * rewritten call, and one may answer it with a value (0: descriptor 0,
 * which may hold another process's queue opened for reading through an
 * mqueue mount).  A queue the kernel made has the name that named no
 * queue at the stop (the bytes read then), and it is the one fd holds.
 */
static bool mq_made_now(const struct sw_tracee *t, const struct sw_rc *rc, int fd)
{
	uint64_t ino, have;

	if (!rc->forced)
		return true;	/* the program's own call, unchanged */
	have = mq_ino(t->pid, fd);
	return !rc->existed && have && mq_named(rc->mq_name, &ino) && ino == have;
}

static void mq_contain(struct sw_tracee *t, const struct sw_program *prog,
		       enum sw_abi abi, struct sw_decision *d)
{
	struct sw_objects *o = t->s->objects;
	uint64_t nr = d->nr;

	if (is(prog, abi, SW_SYS_MQ_OPEN, nr)) {
		uint64_t flags = d->args[1];
		bool forced = (flags & O_CREAT) && !(flags & O_EXCL);
		bool existed = false;
		char name[SW_MQ_NAME_MAX] = "";
		int r;

		if ((flags & O_CREAT) && (r = idset_reserve(&o->mq)) < 0) {
			sw_refuse(d, -r, "the session made as many message queues as it may");
			return;
		}
		if (forced) {
			/* The name as the kernel will read it (a thread that
			 * rewrites it meanwhile only fails its own create:
			 * mq_made_now()). */
			uint64_t ino;

			if (!mq_name_read(t, d, name, "cannot read mq_open's name",
					  "mq_open's name is too long"))
				return;
			existed = mq_named(name, &ino);
			d->verdict = SW_V_REWRITE;
			d->args[1] |= O_EXCL;
		}
		if (sw_rc_want(t, SW_RC_MQ_OPEN, abi, d) < 0) {
			sw_refuse(d, ENOMEM, "out of memory to check mq_open");
			return;
		}
		t->rc->created = (flags & O_CREAT) && ((flags & O_EXCL) || forced);
		t->rc->forced = forced;
		t->rc->orig_flags = flags;
		t->rc->flags_arg = 1;
		if (forced) {
			memcpy(t->rc->mq_name, name, sizeof(name));
			t->rc->existed = existed;
		}
		return;
	}
	if (is(prog, abi, SW_SYS_MQ_UNLINK, nr)) {
		mq_unlink_emulate(t, d);
		return;
	}
	if (is(prog, abi, SW_SYS_MQ_TIMEDSEND, nr) || is(prog, abi, SW_SYS_MQ_TIMEDSEND_TIME64, nr) ||
	    is(prog, abi, SW_SYS_MQ_TIMEDRECEIVE, nr) ||
	    is(prog, abi, SW_SYS_MQ_TIMEDRECEIVE_TIME64, nr) ||
	    is(prog, abi, SW_SYS_MQ_NOTIFY, nr) || is(prog, abi, SW_SYS_MQ_GETSETATTR, nr)) {
		/* A queue's descriptor from an open of the mqueue file
		 * system that could only read (the opens that can write are
		 * checked on their result): by the queue it holds. */
		uint64_t ino = mq_ino(t->pid, sw_as_int(d->args[0]));

		if (ino && !idset_has(&o->mq, ino))
			sw_refuse(d, EACCES, "a message queue the session did not make refused");
	}
}

/* ---- opens that can write ------------------------------------------------- */

static bool open_can_write(uint64_t flags)
{
	if (flags & O_PATH)
		return false;
	return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

static void open_contain(struct sw_tracee *t, const struct sw_program *prog,
			 enum sw_abi abi, struct sw_decision *d)
{
	uint64_t nr = d->nr;
	int flags_arg;

	if (is(prog, abi, SW_SYS_OPEN, nr))
		flags_arg = 1;
	else if (is(prog, abi, SW_SYS_OPENAT, nr) || is(prog, abi, SW_SYS_OPEN_BY_HANDLE_AT, nr))
		flags_arg = 2;
	else if (is(prog, abi, SW_SYS_CREAT, nr))
		flags_arg = -1;		/* O_CREAT | O_WRONLY | O_TRUNC */
	else if (is(prog, abi, SW_SYS_OPENAT2, nr))
		flags_arg = -2;		/* in memory: the result's mode counts */
	else
		return;
	/* complain mode's file rules see every open (fscomplain.c) */
	bool read_only = flags_arg >= 0 && !open_can_write(d->args[flags_arg]);

	if (read_only && !prog->fs_complain)
		return;
	/* (filter.c's exception, for a stop some other rule made) */
	if (flags_arg >= 0 && prog->excl_creates_new &&
	    (d->args[flags_arg] & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return;
	if (sw_rc_want(t, SW_RC_OPEN, abi, d) < 0) {
		sw_refuse(d, ENOMEM, "out of memory to check an open");
		return;
	}
	t->rc->flags_arg = (int8_t)flags_arg;
	t->rc->read_only = read_only;
}

/* ---- at the SECCOMP stop -------------------------------------------------- */

void sw_objects_contain(struct sw_supervisor *sup, struct sw_tracee *t,
			enum sw_abi abi, struct sw_decision *d)
{
	const struct sw_program *prog = t->s->prog;
	unsigned int on = prog->defences &
		(SW_DEFENCE_OBJECT_OPENS | SW_DEFENCE_IPC | SW_DEFENCE_KEYRINGS);
	struct ipc_call c;

	if (!on || !t->s->objects || abi == SW_ABI_NONE ||
	    (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE))
		return;
	if (on & SW_DEFENCE_KEYRINGS)
		sw_keys_contain(sup, t, t->s->objects->keyring, prog, abi, d);
	if (d->verdict != SW_V_ALLOW && d->verdict != SW_V_REWRITE)
		return;
	if (on & SW_DEFENCE_IPC) {
		/* A call that can leave the launch's IPC namespace: from now
		 * on each IPC call asks which namespace its caller is in. */
		if (is(prog, abi, SW_SYS_SETNS, d->nr) ||
		    ((is(prog, abi, SW_SYS_UNSHARE, d->nr) || is(prog, abi, SW_SYS_CLONE, d->nr)) &&
		     (d->args[0] & CLONE_NEWIPC)))
			t->s->objects->ipcns_varies = true;
		if (ipc_decode(prog, abi, d, &c)) {
			if (c.kind >= 0 && in_launch_ipcns(t->s->objects, t->pid))
				ipc_contain(t, abi, &c, d);
			return;
		}
		if (in_launch_ipcns(t->s->objects, t->pid))
			mq_contain(t, prog, abi, d);
		if (t->rc || d->verdict == SW_V_RETURN)
			return;
	}
	if (on & SW_DEFENCE_OBJECT_OPENS)
		open_contain(t, prog, abi, d);
}

/* ---- on the result ---------------------------------------------------------- */

/*
 * A get (shmget, semget, msgget, mq_open) made exclusive by us: on EEXIST
 * the call again as the program asked, without creating (its flags
 * argument without create and exclusive); on ENOENT after that (the
 * object removed meanwhile), made again exclusive, three times at most.
 * SW_RC_INJECT with the call in out, or SW_RC_KEEP.
 */
static enum sw_rc_next get_again(struct sw_rc *rc, int64_t rval, uint64_t creat,
				 uint64_t excl, struct sw_rc_out *out)
{
	uint64_t flags;

	if (rval == -EEXIST && rc->forced) {
		rc->forced = false;
		rc->created = false;
		flags = rc->orig_flags & ~(creat | excl);
	} else if (rval == -ENOENT && !rc->created && (rc->orig_flags & creat) &&
		   rc->tries++ < 3) {
		rc->forced = true;
		rc->created = true;
		flags = rc->orig_flags | excl;
	} else {
		return SW_RC_KEEP;
	}
	memcpy(out->args, rc->args, sizeof(out->args));
	out->args[rc->flags_arg] = flags;
	out->nr = rc->nr;
	return SW_RC_INJECT;
}

enum sw_rc_next sw_objects_result(struct sw_supervisor *sup, struct sw_tracee *t,
				  struct sw_rc *rc, int64_t rval,
				  struct sw_rc_out *out)
{
	struct sw_objects *o = t->s->objects;
	const char *why = NULL;
	int e;

	switch (rc->kind) {
	case SW_RC_OPEN:
		if (rval < 0 || rc->read_only)
			return SW_RC_KEEP;
		if (rc->flags_arg == -2) {
			/* openat2: the descriptor's mode, not the flags the
			 * program's memory held when read. */
			char path[64];
			long fl;

			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", t->pid, (int)rval);
			if (sw_reach_proc_field(path, "flags", 8, 0, &fl) &&
			    !open_can_write((uint64_t)fl & ~(uint64_t)(O_CREAT | O_TRUNC)))
				return SW_RC_KEEP;
		}
		e = fd_verdict(sup, t, (int)rval, &why);
		if (!e)
			return SW_RC_KEEP;
		out->fd = (int)rval;
		out->value = -e;
		out->why = why;
		return SW_RC_CLOSE;
	case SW_RC_MQ_OPEN: {
		uint64_t ino_unused;

		if (rval >= 0) {
			uint64_t ino = mq_ino(t->pid, (int)rval);

			/* Not closed: a descriptor the call did not make is
			 * the program's own, one it made an unshared queue
			 * of its own, not the session's (by name or by
			 * descriptor). */
			if (rc->created && !mq_made_now(t, rc, (int)rval)) {
				out->value = -EACCES;
				out->why = "an mq_open we made exclusive did not create what it returned (a seccomp filter of the program's own answered it)";
				return SW_RC_RETURN;
			}
			if (rc->created && ino && idset_add(&o->mq, ino) == 0)
				return SW_RC_KEEP;
			if (ino && idset_has(&o->mq, ino))
				return SW_RC_KEEP;
			out->fd = (int)rval;
			out->value = -EACCES;
			out->why = "a message queue the session did not make refused";
			return SW_RC_CLOSE;
		}
		if (get_again(rc, rval, O_CREAT, O_EXCL, out) == SW_RC_KEEP)
			return SW_RC_KEEP;
		/* made exclusive again: does the name name a queue now? */
		rc->existed = rc->forced && mq_named(rc->mq_name, &ino_unused);
		return SW_RC_INJECT;
	}
	case SW_RC_IPC_GET:
		if (rval >= 0) {
			if (rc->created && !ipc_made_now(rc, rval)) {
				out->value = -EACCES;
				out->why = "a System V IPC get we made exclusive did not create what it returned (a seccomp filter of the program's own answered it)";
				return SW_RC_RETURN;
			}
			if (rc->created && idset_add(&o->ipc[rc->ipc], (uint64_t)rval) == 0)
				return SW_RC_KEEP;
			if (idset_has(&o->ipc[rc->ipc], (uint64_t)rval))
				return SW_RC_KEEP;
			out->value = -EACCES;
			out->why = "a System V IPC object the session did not make refused";
			return SW_RC_RETURN;
		}
		if (get_again(rc, rval, IPC_CREAT, IPC_EXCL, out) == SW_RC_KEEP)
			return SW_RC_KEEP;
		/* made exclusive again: does the key name an object now? */
		rc->existed = rc->forced && ipc_find(rc->ipc, true, (int32_t)rc->id, NULL);
		return SW_RC_INJECT;
	case SW_RC_IPC_RMID:
		if (rval == 0)
			idset_del(&o->ipc[rc->ipc], rc->id);
		return SW_RC_KEEP;
	}
	return SW_RC_KEEP;
}
