// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Complain mode over the kernel's file rules (docs/security.md, route
 * 21b): the policy's "filesystem" section and --sandbox's rows are not
 * handed to Landlock (prepare.c plans them with enforce false, so the
 * domain handles no file right), the launch child still works out their
 * rules in the program's view into a table the supervisor shares
 * (fsrules.c), and every open that can write stops (the OBJECT_OPENS
 * defence's filter rules, kept on) and is judged here at its exit stop
 * (resultcheck.c), on the file the descriptor holds, as the kernel's
 * walk would have judged it (sw_fsrules_judge()).  A call they would
 * have refused runs, and goes in the audit log and the record as a
 * refusal complain mode lifted, naming the file and the rule.
 *
 * What is judged: the file's write right (WRITE_FILE), TRUNCATE for
 * O_TRUNC, and MAKE_REG in its directory for an exclusive create (the
 * one open known to have made its file).  Not judged: reads, execs,
 * directory and link calls (mkdir, unlink, rename, link, symlink,
 * mknod), truncate(2) and a create without O_EXCL; the documented limit.
 * Nor a file on a file system a process serves (FUSE: the program may
 * serve it itself, in a user namespace of its own): every look-up there
 * (its directory's name, "..", its attributes) waits for that server,
 * and with it the tracer thread (route 13).  Such a file is told from
 * its mount's superblock, without a call into it (sw_fd_fs()), and is
 * not judged.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "sys.h"
#include "contain/fsrules.h"
#include "decide/program.h"
#include "record/audit.h"
#include "trace/fdfs.h"
#include "trace/fscomplain.h"
#include "trace/reach.h"

bool sw_fscomplain_on(const struct sw_session *s)
{
	return s->complain && (sw_fsrules_complaining(s->fsrules) ||
			       sw_fsrules_complaining(s->sandbox));
}

/* The rights an open of flags asks of the file rules, as Landlock's
 * hooks check them (security/landlock/fs.c: hook_file_open(),
 * hook_path_mknod() for the create). */
static uint64_t open_needs(uint64_t flags, bool creat, mode_t mode)
{
	bool dir = S_ISDIR(mode);

	uint64_t need = 0;

	if (creat)
		flags = O_CREAT | O_WRONLY | O_TRUNC;
	if (flags & O_PATH)
		return 0;	/* no access checked (hook_file_open) */
	if ((flags & O_ACCMODE) != O_WRONLY)
		need |= dir ? SW_FS_READ_DIR : SW_FS_READ_FILE;
	if ((flags & O_ACCMODE) != O_RDONLY)
		need |= SW_FS_WRITE_FILE;
	/* O_TRUNC truncates regular files only (fs/namei.c, do_open()
	 * drops it for the rest): /dev/null is no truncation */
	if ((flags & O_TRUNC) && S_ISREG(mode))
		need |= SW_FS_TRUNCATE;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		need |= SW_FS_MAKE_REG;
	return need;
}

/* The flags the descriptor was opened with (openat2's are in memory). */
static bool fd_flags(pid_t pid, int fd, long *ret)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	return sw_reach_proc_field(path, "flags", 8, 0, ret);
}

/*
 * fd of pid: the file (its identity and mode, through the descriptor)
 * and an O_PATH descriptor of its directory, found by the name
 * /proc/<pid>/fd gives in the program's root and checked to hold that
 * very file.  -1 when it cannot be told (renamed or removed meanwhile,
 * not a file of a directory: a pipe, a socket) or must not be looked up
 * (a file system a process serves).
 */
static int file_and_dir(pid_t pid, int fd, struct stat *st, char *name,
			size_t size)
{
	char link[64], at[PATH_MAX + 64];
	char *slash;
	struct stat here;
	unsigned long magic;
	ssize_t n;
	int dfd;

	if (sw_fd_fs(pid, fd, &magic, st) < 0 || sw_fs_served_by_user(magic))
		return -1;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	n = sw_sys_readlink(link, name, size - 1);
	if (n <= 0 || name[0] != '/')
		return -1;
	name[n] = '\0';
	slash = strrchr(name, '/');
	snprintf(at, sizeof(at), "/proc/%d/root%.*s", pid,
		 (int)(slash == name ? 1 : slash - name), name);
	dfd = sw_sys_open(at, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	if (fstatat(dfd, slash + 1, &here, AT_SYMLINK_NOFOLLOW) < 0 ||
	    here.st_dev != st->st_dev || here.st_ino != st->st_ino) {
		close(dfd);
		return -1;
	}
	return dfd;
}

/* Would layer fr refuse need on the file?  Its words in why, its rule
 * code in *ret_rule. */
static bool refuses(const struct sw_fsrules *fr, bool sandbox, int dfd,
		    const struct stat *st, uint64_t need, char *why, size_t size,
		    int *ret_rule)
{
	const char *what, *written;
	uint64_t refused;
	int spec;
	char rights[128];
	size_t used = 0;

	if (!sw_fsrules_complaining(fr) ||
	    sw_fsrules_judge(fr, dfd, st, need, &refused, &spec) < 0 || !refused)
		return false;
	rights[0] = '\0';
	for (int b = 0; b < 64 && used < sizeof(rights); b++)
		if (refused & (1ULL << b))
			used += (size_t)snprintf(rights + used, sizeof(rights) - used, "%s%s",
						 used ? ", " : "", sw_fs_right_name(1ULL << b));
	*ret_rule = sw_rule_files(sandbox, spec, refused);
	what = sw_fsrules_spec_words(fr, spec, &written);
	if (what)
		snprintf(why, size, "the file rules (Landlock): %s not granted by %s (%s)",
			 rights, what, written);
	else
		snprintf(why, size, "the file rules (Landlock): %s not granted by any hierarchy",
			 rights);
	return true;
}

void sw_fscomplain_open(struct sw_supervisor *sup, struct sw_tracee *t,
			const struct sw_rc *rc, int64_t rval)
{
	struct sw_session *s = t->s;
	struct sw_decision d = t->d;
	char name[PATH_MAX], why[512];
	struct stat st = { 0 };
	uint64_t flags = 0, need;
	long fl;
	int dfd;

	(void)sup;
	if (rval >= 0 && rval <= INT_MAX) {
		if (rc->flags_arg == -2)
			flags = fd_flags(t->pid, (int)rval, &fl) ? (uint64_t)fl : 0;
		else if (rc->flags_arg >= 0)
			flags = rc->args[rc->flags_arg];
		dfd = file_and_dir(t->pid, (int)rval, &st, name, sizeof(name));
		need = open_needs(flags, rc->flags_arg == -1, st.st_mode);
		if (dfd >= 0 && need) {
			int rule;

			/* the sandbox's layer first, as the kernel stacks them */
			if (refuses(s->sandbox, true, dfd, &st, need, why, sizeof(why), &rule) ||
			    refuses(s->fsrules, false, dfd, &st, need, why, sizeof(why), &rule)) {
				d.rule = rule;
				d.refusal = true;
				d.lifted = true;
				d.audit = true;
				d.why = why;
				d.path = name;
				if (s->audit) {
					struct sw_audit_rec rec = {
						.session_id = s->id, .pid = t->pid,
						.abi = rc->abi, .nr = t->call.nr, .d = &d,
						.prog = s->prog, .has_result = true,
						.result = rval,
					};

					memcpy(rec.args, t->call.args, sizeof(rec.args));
					(void)sw_audit_write(s->audit, s->audit_format, &rec);
				}
			}
		}
		if (dfd >= 0)
			close(dfd);
	}
	/* Deferred from the SECCOMP stop (actions.c): the call as judged. */
	if (s->record)
		sw_record_call(s->record, t, rc->abi, t->call.nr, t->call.args, &d);
}
