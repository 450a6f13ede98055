// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Exec path rules hold for the file the kernel executes (docs/security.md,
 * route 17).
 *
 * A rule with path conditions on execve or execveat is decided at the
 * call's SECCOMP stop on the string the program passed.  The kernel then
 * may execute another file than that string names: a #! script's
 * interpreter, which it opens itself (fs/binfmt_script.c), through any
 * chain of scripts; a binfmt_misc interpreter; the file behind a
 * descriptor for execveat(fd, "", AT_EMPTY_PATH) (fexecve), where there is
 * no string at all.  And the string is checked as written: a hard link or
 * a symlinked directory names the same file differently.
 *
 * So at PTRACE_EVENT_EXEC (the new image is loaded, single-threaded, and
 * has not run one instruction) the file the kernel executes,
 * /proc/<pid>/exe, is decided again, by the same decide.c, as the exec
 * call the program made (its last SECCOMP stop; exec_event() carries it
 * over a multithreaded exec) with that file's names in place of its path
 * argument:
 *   - its real path (readlink of /proc/<pid>/exe: what the kernel mapped,
 *     symlinks and ".." resolved, whatever the path argument or the #!
 *     line said, and whatever either says now);
 *   - every exact pattern of the session's exec rules that is this very
 *     file (same device and inode: a hard link, a symlink, a symlinked
 *     directory);
 *   - every prefix pattern whose directory, resolved, contains it, with
 *     the rest of its real path appended.
 * The first rule, in policy order, that holds for one of the names
 * decides (first match over the file's names); none: the default.  If
 * that decision would not let the call run, the tracee is killed: past
 * the point of no return the exec cannot fail any more, so this is the
 * one thing left (a warning names the file, and an audit line records it).
 *
 * An attacker who swaps the script, its #! line or a symlink after the
 * entry check changes nothing here: what is checked is the file already
 * loaded, by its identity.  Renaming a denied file out of a denied
 * directory (where the program may write) does escape a prefix rule: path
 * rules name files by their names.
 *
 * The patterns are resolved once per session, with the program's
 * credentials (syswardd: the client's, never root's), on a thread of their own
 * with a deadline (a pattern on a file system that never answers must not
 * stop the supervisor, route 13: it waits at most that long, once per
 * session).  Unresolved in time, or not tried because too many resolvers
 * of the uid still wait, the check fails closed: each exec an exec rule
 * stopped is killed, never matched by the patterns' strings only (the
 * #! line, descriptor and link above would go through).  Not covered: the ELF interpreter (PT_INTERP,
 * the dynamic loader) the kernel maps beside a binary, which /proc/<pid>/exe
 * does not name; an interpreter the program runs itself, with the file
 * as its argument (sh script, ld.so prog: reading is not executing).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "abandon.h"
#include "internal.h"
#include "sys.h"
#include "decide/decide.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/execguard.h"

/* How long the supervisor waits for the patterns to resolve, once per
 * session, and how many resolvers may be left behind past it: per uid
 * (the program's, whose credentials they look up with) and for the
 * process. */
#define SW_EXEC_RESOLVE_S	1
#define SW_EXEC_MAX_ABANDONED_UID 16
#define SW_EXEC_MAX_ABANDONED	64
/* Names one executed file can have: its real path and the patterns. */
#define SW_EXEC_MAX_NAMES	16

struct pattern {
	const struct sw_path_cond *c;	/* in the session's policy */
	char *text;			/* copy, for the resolver */
	bool resolved;
	dev_t dev;			/* exact: the file's identity */
	ino_t ino;
	char *dir;			/* prefix: its directory, resolved */
	size_t dir_len;
};

enum job_state { JOB_RUNNING, JOB_DONE, JOB_ABANDONED };

struct resolve_job {
	atomic_int refs;		/* supervisor + resolver */
	atomic_int state;		/* enum job_state */
	bool charged;			/* to uid, once abandoned */
	size_t n;
	struct pattern *p;
	/* The program's credentials to look up with, if its launch set
	 * them (syswardd: the client's). */
	bool creds_set;
	uid_t uid;
	gid_t gid;
	size_t n_groups;
	gid_t *groups;
};

struct sw_execguard {
	bool wanted;
	int unresolved;			/* why the patterns were not: -errno */
	size_t n;
	struct pattern *p;
};

/* Resolvers left behind, by the uid they were charged to.  Each ends
 * when its lookup does (an NFS server back, a FUSE connection aborted)
 * and is released then: the bound is on those still waiting. */
static struct sw_abandoned_uid abandoned_by_uid[SW_EXEC_MAX_ABANDONED];
static struct sw_abandoned abandoned =
	SW_ABANDONED_INIT(abandoned_by_uid, SW_EXEC_MAX_ABANDONED,
			  SW_EXEC_MAX_ABANDONED_UID);

static bool is_exec_name(const char *name)
{
	return !strcmp(name, "execve") || !strcmp(name, "execveat");
}

/* The path argument of an exec call named name. */
static unsigned int path_index(const char *name)
{
	return strcmp(name, "execveat") == 0 ? 1 : 0;
}

static void patterns_free(struct pattern *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].text);
		free(p[i].dir);
	}
	free(p);
}

static void job_free(struct resolve_job *j)
{
	patterns_free(j->p, j->n);
	free(j->groups);
	free(j);
}

static void job_put(struct resolve_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) == 1)
		job_free(j);
}

/* On the resolver thread: look up as the program would, with its fsuid,
 * fsgid and groups, so that a pattern the program could not resolve (a
 * root-only directory under a client of uid 65534) is not resolved for
 * it either: what its exec is matched against never tells it more than
 * it can see.  Credentials are per thread in the kernel (struct cred of
 * the task, kernel/cred.c): the raw system calls change this thread's
 * only, while glibc's setgroups() broadcasts to every thread of the
 * process (nptl's setxid signal), the supervisor's other threads
 * included: never use it here.  A non-zero
 * fsuid drops the file capabilities from the thread's effective set
 * (cap_task_fix_setuid(), security/commoncap.c: CAP_DAC_OVERRIDE,
 * CAP_DAC_READ_SEARCH, ...), so the kernel checks the directories'
 * modes as for the program.  The thread ends after its lookups, and its
 * credentials with it.  0 or -errno. */
static int take_creds(const struct resolve_job *j)
{
	if (!j->creds_set)
		return 0;
	if (syscall(SYS_setgroups, j->n_groups, j->groups) < 0)
		return -errno;
	/* setfs[ug]id() answer the previous id, never an error: read the
	 * id back. */
	(void)syscall(SYS_setfsgid, j->gid);
	if ((gid_t)syscall(SYS_setfsgid, (gid_t)-1) != j->gid)
		return -EPERM;
	(void)syscall(SYS_setfsuid, j->uid);
	if ((uid_t)syscall(SYS_setfsuid, (uid_t)-1) != j->uid)
		return -EPERM;
	return 0;
}

/* On the resolver thread: what each pattern names, as the program's
 * credentials see the supervisor's file system.  May wait on a lookup
 * that never ends.  Without those credentials nothing is resolved (the
 * patterns count by their strings): never as the supervisor. */
static void *resolve_main(void *arg)
{
	struct resolve_job *j = arg;
	size_t n = take_creds(j) == 0 ? j->n : 0;

	for (size_t i = 0; i < n; i++) {
		struct pattern *p = &j->p[i];
		struct stat st;

		if (p->text[0] != '/')
			continue;	/* relative: the program's own cwd */
		if (p->c->match == SW_MATCH_EXACT) {
			if (stat(p->text, &st) == 0) {
				p->dev = st.st_dev;
				p->ino = st.st_ino;
				p->resolved = true;
			}
		} else if (p->c->match == SW_MATCH_PREFIX) {
			char *slash = strrchr(p->text, '/'), save = slash[1];
			char *dir;

			/* "/a/b/" -> "/a/b", "/a/bin" -> "/a" ("/" stays). */
			slash[slash == p->text ? 1 : 0] = '\0';
			dir = realpath(p->text, NULL);
			slash[0] = '/';
			slash[1] = save;
			if (dir) {
				p->dir = dir;
				p->dir_len = strlen(dir);
				p->resolved = true;
			}
		}
	}
	/* Left behind: the supervisor charged this thread to the uid
	 * before it marked it so; release it now that it ends. */
	if (!atomic_compare_exchange_strong(&j->state, &(int){ JOB_RUNNING },
					    JOB_DONE) && j->charged)
		sw_abandoned_release(&abandoned, j->uid);
	job_put(j);
	return NULL;
}

/* Copy the resolver's results (done in time) into the session's table. */
static void take_results(struct sw_execguard *eg, struct resolve_job *j)
{
	for (size_t i = 0; i < eg->n; i++) {
		eg->p[i].resolved = j->p[i].resolved;
		eg->p[i].dev = j->p[i].dev;
		eg->p[i].ino = j->p[i].ino;
		eg->p[i].dir = j->p[i].dir;
		eg->p[i].dir_len = j->p[i].dir_len;
		j->p[i].dir = NULL;
	}
}

/* Resolve the patterns within the deadline: 0, -ETIMEDOUT (the resolver
 * is left behind), -EAGAIN (too many are already: none started), or
 * -ENOMEM.  Waits at most SW_EXEC_RESOLVE_S. */
static int resolve(const struct sw_session *s, struct sw_execguard *eg)
{
	struct resolve_job *j;
	struct timespec until;
	pthread_t th;

	if (!sw_abandoned_allowed(&abandoned, s->uid))
		return -EAGAIN;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->p = calloc(eg->n, sizeof(*j->p));
	j->n = eg->n;
	atomic_init(&j->refs, 2);
	atomic_init(&j->state, JOB_RUNNING);
	j->uid = s->uid;
	if (s->creds_set) {
		j->creds_set = true;
		j->gid = s->gid;
		j->n_groups = s->n_groups;
		if (s->n_groups &&
		    !(j->groups = malloc(s->n_groups * sizeof(gid_t)))) {
			job_free(j);
			return -ENOMEM;
		}
		if (s->n_groups)
			memcpy(j->groups, s->groups, s->n_groups * sizeof(gid_t));
	}
	for (size_t i = 0; j->p && i < eg->n; i++) {
		j->p[i].c = eg->p[i].c;
		if (!(j->p[i].text = strdup(eg->p[i].c->pattern))) {
			j->n = i;
			break;
		}
	}
	if (!j->p || j->n != eg->n ||
	    pthread_create(&th, NULL, resolve_main, j) != 0) {
		job_free(j);
		return -ENOMEM;
	}
	/* pthread_timedjoin_np() takes CLOCK_REALTIME. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += SW_EXEC_RESOLVE_S;
	if (pthread_timedjoin_np(th, NULL, &until) != 0) {
		/* Charge it first: once marked, it releases the charge
		 * when it ends (the compare-exchange orders the two). */
		j->charged = sw_abandoned_charge(&abandoned, s->uid);
		if (atomic_compare_exchange_strong(&j->state,
						   &(int){ JOB_RUNNING },
						   JOB_ABANDONED)) {
			/* It ends when its lookup does, and frees the job. */
			pthread_detach(th);
			job_put(j);
			return -ETIMEDOUT;
		}
		/* Done meanwhile: it saw no mark and released nothing. */
		if (j->charged)
			sw_abandoned_release(&abandoned, s->uid);
		pthread_join(th, NULL);
	}
	take_results(eg, j);
	job_put(j);
	return 0;
}

/* The session's exec rules' path patterns, resolved; built at its first
 * exec.  NULL only without memory. */
static struct sw_execguard *eg_of(struct sw_session *s)
{
	const struct sw_program *prog = s->prog;
	struct sw_execguard *eg;
	size_t n = 0;

	if (s->execguard)
		return s->execguard;
	eg = calloc(1, sizeof(*eg));
	if (!eg)
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < prog->n_rules; i++) {
			const struct sw_rule *r = prog->rules[i].rule;
			bool exec = false;

			if (!prog->rules[i].applies)
				continue;
			for (size_t k = 0; k < r->n_names; k++)
				exec |= is_exec_name(r->names[k]);
			for (size_t k = 0; exec && k < r->n_paths; k++) {
				if (pass)
					eg->p[eg->n++].c = &r->paths[k];
				else
					n++;
			}
		}
		if (!pass && n && !(eg->p = calloc(n, sizeof(*eg->p)))) {
			free(eg);
			return NULL;
		}
	}
	eg->wanted = n > 0;
	s->execguard = eg;
	if (eg->n)
		eg->unresolved = resolve(s, eg);
	return eg;
}

void sw_execguard_free(struct sw_execguard *eg)
{
	if (!eg)
		return;
	patterns_free(eg->p, eg->n);
	free(eg);
}

struct names {
	size_t n;
	const char *name[SW_EXEC_MAX_NAMES];
	char buf[SW_EXEC_MAX_NAMES][PATH_MAX];
};

/* The reader for sw_decide: the path argument reads as the name. */
static int read_name(void *ctx, const struct sw_arg_read *a, char *buf,
		     size_t size)
{
	const char *name = ctx;

	(void)a;
	snprintf(buf, size, "%s", name);
	return (int)strnlen(buf, size - 1);
}

/* Policy order; the default after every rule. */
static long rank(const struct sw_decision *d)
{
	if (d->rule >= 0)
		return d->rule;
	return d->rule == SW_RULE_DEFAULT ? LONG_MAX : -1;
}

void sw_execguard_decide(const struct sw_program *prog, enum sw_abi abi,
			 uint64_t nr, const uint64_t args[6],
			 unsigned int path_arg, const char *const *names,
			 size_t n_names, struct sw_decide_scratch *scratch,
			 struct sw_decision *ret, size_t *ret_name)
{
	uint64_t a[6];

	memcpy(a, args, sizeof(a));
	/* Any non-NULL address: read_name answers with the name. */
	a[path_arg] = 1;
	*ret_name = 0;
	for (size_t k = 0; k < n_names; k++) {
		struct sw_decision d;

		/* No "when" counters: this is no new call. */
		sw_decide(prog, sw_abi_token(abi), nr, a, read_name,
			  (void *)names[k], NULL, scratch, &d);
		if (k == 0 || rank(&d) < rank(ret)) {
			*ret = d;
			*ret_name = k;
		}
	}
	ret->path = NULL;
}

/* The names of the file pid executes: its real path, and each pattern
 * that names it.  0 or -errno. */
static int names_of(struct sw_execguard *eg, pid_t pid, struct names *nm)
{
	char exe[64];
	struct stat st;
	bool have_id;
	ssize_t len;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", pid);
	len = sw_sys_readlink(exe, nm->buf[0], sizeof(nm->buf[0]) - 1);
	if (len < 0)
		return -errno;
	nm->buf[0][len] = '\0';
	nm->name[0] = nm->buf[0];
	nm->n = 1;
	/* The file itself, through the magic link: no lookup of a name.
	 * Cached attributes only, so that a file system that stopped
	 * answering (the program's own FUSE server) cannot hold us here. */
	have_id = fstatat(AT_FDCWD, exe, &st, AT_STATX_DONT_SYNC) == 0;
	for (size_t i = 0; i < eg->n && nm->n < SW_EXEC_MAX_NAMES; i++) {
		const struct pattern *p = &eg->p[i];

		if (!p->resolved)
			continue;
		if (p->c->match == SW_MATCH_EXACT && have_id &&
		    p->dev == st.st_dev && p->ino == st.st_ino) {
			nm->name[nm->n++] = p->c->pattern;
		} else if (p->c->match == SW_MATCH_PREFIX && p->dir &&
			   !strncmp(nm->buf[0], p->dir, p->dir_len) &&
			   (nm->buf[0][p->dir_len] == '/' || p->dir_len == 1)) {
			/* The pattern's directory as written, then the rest
			 * of the real path. */
			const char *slash = strrchr(p->c->pattern, '/');
			const char *rest = nm->buf[0] + p->dir_len +
					   (p->dir_len > 1);

			snprintf(nm->buf[nm->n], sizeof(nm->buf[0]), "%.*s/%s",
				 (int)(slash - p->c->pattern), p->c->pattern, rest);
			nm->name[nm->n] = nm->buf[nm->n];
			nm->n++;
		}
	}
	return 0;
}

/* The decision on the file t executed, in the record and the audit log
 * as its exec call's own would be; with error, the audit line says the
 * process was killed for it (the record counts the refusal). */
static void report_exec(struct sw_session *s, struct sw_tracee *t,
			const struct sw_decision *d, const char *error)
{
	struct sw_decision logged = *d;
	struct sw_audit_rec rec = {
		.session_id = s->id, .pid = t->pid, .abi = t->call.abi,
		.nr = t->call.nr, .d = &logged, .prog = s->prog,
		.error = error,
	};

	if (s->record)
		sw_record_call(s->record, t, t->call.abi, t->call.nr,
			       t->call.args, d);
	if (!s->audit)
		return;
	if (error)
		logged.verdict = SW_V_KILL;
	memcpy(rec.args, t->call.args, sizeof(rec.args));
	(void)sw_audit_write(s->audit, s->audit_format, &rec);
}

bool sw_execguard_exec(struct sw_supervisor *sup, struct sw_tracee *t)
{
	struct sw_session *s = t->s;
	struct sw_execguard *eg;
	cleanup_free struct names *nm = NULL;
	struct sw_decision d;
	const char *call = NULL;
	char msg[PATH_MAX * 2 + 512];
	size_t which;
	int e;

	if (!s || !(eg = eg_of(s)) || !eg->wanted)
		return false;
	/* The exec call it made: a rule naming it as execve or execveat. */
	for (size_t i = 0; i < s->prog->n_rules && !call; i++) {
		const struct sw_prog_rule *pr = &s->prog->rules[i];
		int at;

		if (pr->applies &&
		    (at = sw_prog_rule_name_at(s->prog, i, t->call.abi, t->call.nr)) >= 0 &&
		    is_exec_name(pr->rule->names[at]))
			call = pr->rule->names[at];
	}
	if (!call)
		return false;	/* not stopped, so no path rule for it */
	if (eg->unresolved < 0) {
		/* Fail closed: matching the file by the rules' strings only
		 * would let a #! line, a descriptor or a link through. */
		char why[160];

		if (eg->unresolved == -ETIMEDOUT)
			snprintf(why, sizeof(why), "did not resolve within %d s",
				 SW_EXEC_RESOLVE_S);
		else if (eg->unresolved == -EAGAIN)
			snprintf(why, sizeof(why), "were not looked up: %d look-ups of uid %u's (or %d in all) still wait for a file system",
				 SW_EXEC_MAX_ABANDONED_UID, (unsigned int)s->uid,
				 SW_EXEC_MAX_ABANDONED);
		else
			snprintf(why, sizeof(why), "could not be looked up (%s)",
				 strerror(-eg->unresolved));
		snprintf(msg, sizeof(msg), "pid %d killed: the policy's %s path rules cannot be checked for the file it executes: their paths %s; a file system that does not answer?  Move them off it, or retry once it answers",
			 t->pid, call, why);
		if (s->complain) {
			sw_warn(s, "complain mode, not enforced: %s", msg);
			return false;
		}
		sw_warn(s, "%s", msg);
		sw_sys_kill(t->pid, SIGKILL);
		return true;
	}
	/* On the heap: too large for a stack or for thread-local storage
	 * (which glibc carves out of every thread's stack). */
	nm = malloc(sizeof(*nm));
	e = nm ? names_of(eg, t->pid, nm) : -ENOMEM;
	if (e == -ESRCH || e == -ENOENT)
		return false;	/* killed meanwhile */
	if (e < 0) {
		snprintf(msg, sizeof(msg), "cannot tell which file pid %d executes (readlink /proc/%d/exe: %s), so the policy's %s path rules cannot be checked for it; killing it",
			 t->pid, t->pid, strerror(-e), call);
		sw_warn(s, "%s", msg);
		sw_sys_kill(t->pid, SIGKILL);
		return true;
	}
	sw_execguard_decide(s->prog, t->call.abi, t->call.nr, t->call.args,
			    path_index(call), nm->name, nm->n, &sup->scratch,
			    &d, &which);
	if (d.verdict == SW_V_ALLOW || d.verdict == SW_V_REWRITE)
		return false;
	if (s->complain && sw_decision_lift(&d, t->call.nr, t->call.args)) {
		/* The policy would refuse the file executed: report it, as
		 * the exec call itself would have been, and let it run. */
		d.path = nm->name[which];
		report_exec(s, t, &d, NULL);
		return false;
	}
	snprintf(msg, sizeof(msg), "pid %d killed: it executes %s%s%s%s, which %s%s denies to %s; the kernel opened it itself (a #! interpreter, a descriptor) and an exec cannot fail once the file is loaded",
		 t->pid, nm->name[0], which ? " (as " : "", which ? nm->name[which] : "",
		 which ? ")" : "",
		 d.rule >= 0 ? "the policy's rule " : "the policy's default",
		 d.rule >= 0 ? s->prog->rules[d.rule].rule->json_path : "", call);
	d.path = nm->name[which];
	report_exec(s, t, &d, msg);
	sw_warn(s, "%s", msg);
	sw_sys_kill(t->pid, SIGKILL);
	return true;
}
