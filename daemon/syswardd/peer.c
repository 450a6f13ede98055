// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Who is on the other end of a connection, and may they execute what they
 * ask for.  The kernel records the peer's credentials at connect(2)
 * (SO_PEERCRED) together with its supplementary groups (SO_PEERGROUPS,
 * Linux 4.13): we use those and never /proc/<pid>, whose pid may be reused
 * once the client passed its socket on and exited.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "syswardd.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59
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

void peer_clear(struct peer *p)
{
	free(p->groups);
	p->groups = NULL;
	p->n_groups = 0;
}

/*
 * Take on the client's filesystem identity for path lookups: fsuid and
 * fsgid steer every permission check of open/stat/access, and dropping
 * fsuid from 0 also clears CAP_DAC_OVERRIDE & co from the effective set
 * (capabilities(7)), restored when it returns to 0.  Single-threaded
 * daemon, so setgroups() affects nobody else.
 */
struct fs_identity {
	bool switched;
	gid_t *groups;
	int n_groups;
};

static int fs_become(const struct peer *p, struct fs_identity *save)
{
	*save = (struct fs_identity){ 0 };
	if (geteuid() != 0 || p->uid == 0)
		return 0;
	save->n_groups = getgroups(0, NULL);
	if (save->n_groups < 0)
		return errno;
	save->groups = calloc(save->n_groups + 1, sizeof(gid_t));
	if (!save->groups ||
	    getgroups(save->n_groups, save->groups) != save->n_groups) {
		free(save->groups);
		return ENOMEM;
	}
	if (setgroups(p->n_groups, p->groups) < 0) {
		free(save->groups);
		return errno;
	}
	setfsgid(p->gid);
	setfsuid(p->uid);
	save->switched = true;
	return 0;
}

static void fs_restore(struct fs_identity *save)
{
	if (!save->switched)
		return;
	setfsuid(geteuid());
	setfsgid(getegid());
	/* Cannot fail for root with a list we had before. */
	(void)!setgroups(save->n_groups, save->groups);
	free(save->groups);
	save->switched = false;
}

/* 0 if path is an executable regular file, else the errno exec would
 * give; checked with the current (fs) credentials. */
static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	/* AT_EACCESS: check as fsuid/fsgid, not the real ids. */
	if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) < 0)
		return errno;
	return 0;
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* dir/name, with a relative dir or name taken from cwd as the program
 * will see it after the engine's chdir(cwd). */
static bool join(char *buf, size_t size, const char *cwd, const char *dir,
		 size_t dir_len, const char *name)
{
	int n;

	if (dir_len == 0) {
		dir = ".";
		dir_len = 1;
	}
	if (dir[0] == '/')
		n = snprintf(buf, size, "%.*s/%s", (int)dir_len, dir, name);
	else
		n = snprintf(buf, size, "%s/%.*s/%s", cwd, (int)dir_len, dir,
			     name);
	return n >= 0 && (size_t)n < size;
}

static int resolve(const char *name, char *const *envp, const char *cwd)
{
	const char *path, *p;
	char cand[PATH_MAX];
	bool saw_eacces = false;

	if (name[0] == '\0')
		return ENOENT;
	if (strchr(name, '/')) {
		if (name[0] == '/')
			return check_exec(name);
		if (!join(cand, sizeof(cand), cwd, ".", 1, name))
			return ENAMETOOLONG;
		return check_exec(cand);
	}
	/* The default path is glibc execvp's (confstr _CS_PATH). */
	path = env_get(envp, "PATH") ?: "/bin:/usr/bin";
	for (p = path;; p += strcspn(p, ":") + 1) {
		size_t len = strcspn(p, ":");

		if (join(cand, sizeof(cand), cwd, p, len, name)) {
			int r = check_exec(cand);

			if (r == 0)
				return 0;
			if (r == EACCES)
				saw_eacces = true;
		}
		if (p[len] == '\0')
			break;
	}
	return saw_eacces ? EACCES : ENOENT;
}

int peer_resolve_program(const struct peer *p, const char *name,
			 char *const *envp, const char *cwd)
{
	struct fs_identity save;
	int r;

	r = fs_become(p, &save);
	if (r)
		return r;
	r = resolve(name, envp, cwd);
	fs_restore(&save);
	return r;
}

int peer_check_cwd(const struct peer *p, const char *dir)
{
	struct fs_identity save;
	struct stat st;
	int r;

	r = fs_become(p, &save);
	if (r)
		return r;
	if (stat(dir, &st) < 0)
		r = errno;
	else if (!S_ISDIR(st.st_mode))
		r = ENOTDIR;
	else if (faccessat(AT_FDCWD, dir, X_OK, AT_EACCESS) < 0)
		r = errno;
	fs_restore(&save);
	return r;
}
