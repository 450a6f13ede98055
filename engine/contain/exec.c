// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Running a program file: the one program lookup (sw_exec_search, a PATH
 * search in the program's own environment, for `sysward run`'s check
 * before it starts anything and for the launch child), the exec itself
 * (a file without a #! line run by /bin/sh, as execvp() does), and what
 * a failure means to the user: its message and exit code (127, 126).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "contain/contain.h"

extern char **environ;

/* execve(), and a file the kernel cannot execute (no #! line) run by
 * /bin/sh, as POSIX says execvp() does.  Returns with errno set. */
static void do_execve(const char *path, char *const *argv, char *const *envp,
		      int listener)
{
	if (listener < 0) {
		execve(path, argv, envp);
		return;
	}
	/* Two arguments x86-64's execve ignores: the handoff of the
	 * seccomp listener, which this exec would close (notif.c). */
	syscall(SYS_execve, path, argv, envp, SW_NOTIF_MAGIC, (long)listener);
}

static void exec_one(const char *path, char *const *argv, char *const *envp,
		     int listener)
{
	size_t argc = 0;

	do_execve(path, argv, envp, listener);
	if (errno != ENOEXEC)
		return;
	while (argv[argc])
		argc++;
	{
		char *sh_argv[argc + 2];

		sh_argv[0] = (char *)"/bin/sh";
		sh_argv[1] = (char *)path;
		for (size_t i = 1; i <= argc; i++)
			sh_argv[i + 1] = argv[i];
		do_execve("/bin/sh", sh_argv, envp, listener);
	}
	errno = ENOEXEC;
}

int sw_exec_search(const char *name, char *const *envp,
		   int (*try)(const char *path, void *ud), void *ud)
{
	const char *path = "/bin:/usr/bin";
	size_t flen = strlen(name);
	bool eacces = false;
	int r;

	if (flen == 0)
		return ENOENT;
	if (strchr(name, '/'))
		return try(name, ud);
	for (char *const *e = envp ? envp : environ; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		size_t dlen = (size_t)(end - p);
		char buf[PATH_MAX];

		if (dlen + 1 + flen < sizeof(buf)) {
			memcpy(buf, p, dlen);
			if (dlen)
				buf[dlen++] = '/';
			memcpy(buf + dlen, name, flen + 1);
			r = try(buf, ud);
			switch (r) {
			case 0:
				return 0;
			case EACCES:
			case EISDIR:
				eacces = true;
				break;
			case ENOENT:
			case ENOTDIR:
			case ESTALE:
			case ENODEV:
			case ETIMEDOUT:
				break;
			default:
				return r;
			}
		}
		p = end;
		if (!*p)
			break;
	}
	return eacces ? EACCES : ENOENT;
}

int sw_exec_check(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	/* AT_EACCESS: as the fsuid/fsgid (a daemon acting as its client). */
	if (faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) < 0)
		return errno;
	return 0;
}

/*
 * In the child, the search execs each candidate: glibc's execvpe()
 * would search the PATH of the process's own environment, not envp's;
 * each of the daemon's clients has its own, and several tracer threads
 * launch at once, so nobody may swap the process's environment.
 */
struct exec_args {
	char *const *argv;
	char *const *envp;
	int listener;
};

static int exec_try(const char *path, void *ud)
{
	const struct exec_args *a = ud;

	exec_one(path, a->argv, a->envp, a->listener);
	return errno;
}

int sw_exec_program(char *const *argv, char *const *envp, int listener)
{
	return sw_exec_search(argv[0], envp, exec_try,
			      &(struct exec_args){ argv, envp ? envp : environ,
						   listener });
}

int sw_exec_error(struct sw_error *err, const char *prog, int e)
{
	if (e == ENOENT && !strchr(prog, '/'))
		return sw_error_set(err, e, "%s: command not found", prog);
	return sw_error_set_errno(err, e, "cannot run %s", prog);
}

int sw_exec_exit_code(int code)
{
	switch (code) {
	case ENOENT:
		return SW_EXIT_NOT_FOUND;
	case EACCES:
	case EPERM:
	case ENOEXEC:
	case EISDIR:
	case ENOTDIR:
	case ELOOP:
	case ETXTBSY:
	case E2BIG:
	case ENAMETOOLONG:
		return SW_EXIT_CANNOT_EXEC;
	default:
		return SW_EXIT_SYSWARD_ERROR;
	}
}
