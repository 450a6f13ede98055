// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The delegate runtime.  Every command ends by exec'ing it with our own
 * argv (argv[0] aside), so that its exit status, its output, its state
 * files and its errors are exactly its own: we are gone before it starts,
 * and an engine that waits for "runc create" waits for runc.  Only exec's
 * question "is this a sysward container?" (state) and features run it as
 * a child, for its output.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

int rt_delegate_exec(struct rt_config *c, char **argv, struct sw_error *err)
{
	const char *path;
	int r;

	r = rt_config_delegate(c, &path, err);
	if (r < 0)
		return r;
	argv[0] = (char *)path;
	fflush(stdout);
	fflush(stderr);
	execv(path, argv);
	return sw_error_set_errno(err, errno, "execute the delegate runtime %s",
				  path);
}

int rt_delegate_run(struct rt_config *c, char **argv, int n_global,
		    const char *const *args, size_t max, char **ret_out,
		    int *ret_status, struct sw_error *err)
{
	cleanup_free char **av = NULL;
	cleanup_free char *out = NULL;
	cleanup_close int rd = -1;
	cleanup_pid pid_t pid = 0;
	const char *path;
	size_t n_args = 0, len = 0, k = 0;
	int p[2], r, status;

	r = rt_config_delegate(c, &path, err);
	if (r < 0)
		return r;
	while (args[n_args])
		n_args++;
	av = calloc((size_t)n_global + n_args + 2, sizeof(*av));
	out = malloc(max + 1);
	if (!av || !out)
		return sw_error_set(err, ENOMEM, "out of memory");
	av[k++] = (char *)path;
	for (int i = 1; i <= n_global; i++)
		av[k++] = argv[i];
	for (size_t i = 0; i < n_args; i++)
		av[k++] = (char *)args[i];
	av[k] = NULL;

	if (pipe2(p, O_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "create a pipe");
	rd = p[0];
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(p[1]);
		pid = 0;
		return sw_error_set_errno(err, errno, "fork");
	}
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execv(path, av);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		char discard[4096];
		ssize_t n = len < max ? read(rd, out + len, max - len)
				      : read(rd, discard, sizeof(discard));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sw_error_set_errno(err, errno, "read the output of %s",
						  path);
		if (n == 0)
			break;
		if (len >= max)
			return sw_error_set(err, E2BIG,
					    "%s %s printed more than %zu bytes",
					    path, args[0], max);
		len += (size_t)n;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return sw_error_set_errno(err, errno, "wait for %s", path);
	}
	pid = 0;
	out[len] = '\0';
	*ret_out = TAKE_PTR(out);
	*ret_status = status;
	return 0;
}
