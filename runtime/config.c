// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The runtime's three settings, each from the environment, else from the
 * build (cmake -D...), in one place:
 *
 *   SYSWARD_RUNTIME_DELEGATE     the runtime everything is handed to: a
 *                                name looked up in PATH or a path
 *                                (default: runc)
 *   SYSWARD_RUNTIME_SYSWARD      the static sysward handed to containers'
 *                                processes (default: the one installed
 *                                beside us, ../libexec/sysward/sysward-static
 *                                from our own directory)
 *   SYSWARD_RUNTIME_POLICY_DIRS  the directories an io.sysward.policy
 *                                annotation may name a policy in, ':'
 *                                between them (default: /etc/sysward/
 *                                policies and the installed examples,
 *                                ../share/sysward/policy/examples from
 *                                our own directory: a relative one of
 *                                the build's is found from there; one of
 *                                the environment's is ignored)
 *
 * The environment does not always reach us: Podman's conmon runs the
 * runtime with an environment of its own making (LC_*, PATH, ...), so
 * for Podman a setting other than the build's goes into a wrapper script
 * registered as the runtime (sysward-runtime(8)).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

#ifndef SYSWARD_RUNTIME_DELEGATE_DEFAULT
#define SYSWARD_RUNTIME_DELEGATE_DEFAULT "runc"
#endif
/* Relative to the directory of our own executable, unless absolute. */
#ifndef SYSWARD_RUNTIME_SYSWARD_DEFAULT
#define SYSWARD_RUNTIME_SYSWARD_DEFAULT "../libexec/sysward/sysward-static"
#endif
#ifndef SYSWARD_RUNTIME_POLICY_DIRS_DEFAULT
#define SYSWARD_RUNTIME_POLICY_DIRS_DEFAULT "/etc/sysward/policies"
#endif

/* Where runc looks when PATH is unset (Go's os/exec: none; a shell's). */
#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *setting(const char *env, const char *build)
{
	const char *v = getenv(env);

	return v && *v ? v : build;
}

static int self_dir(char **ret, struct sw_error *err)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n < 0)
		return sw_error_set_errno(err, errno,
					  "read /proc/self/exe (where sysward-runtime is installed)");
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	*ret = strdup(buf);
	return *ret ? 0 : sw_error_set(err, ENOMEM, "out of memory");
}

static int find_sysward(struct rt_config *c, struct sw_error *err)
{
	const char *v = setting("SYSWARD_RUNTIME_SYSWARD",
				SYSWARD_RUNTIME_SYSWARD_DEFAULT);
	cleanup_free char *dir = NULL, *joined = NULL;
	int r;

	if (v[0] == '/') {
		c->sysward = strdup(v);
		return c->sysward ? 0 : sw_error_set(err, ENOMEM, "out of memory");
	}
	r = self_dir(&dir, err);
	if (r < 0)
		return r;
	if (asprintf(&joined, "%s/%s", dir, v) < 0) {
		joined = NULL;
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	/* Its real path, for the mount and for messages; as given if it
	 * does not exist (the create that needs it says so). */
	c->sysward = realpath(joined, NULL);
	if (!c->sysward)
		c->sysward = TAKE_PTR(joined);
	return 0;
}

/* dir (len bytes), relative to base if base is not NULL, into the
 * setting's text and, if it exists, the policy directories. */
static int add_dir(struct rt_config *c, const char *base, const char *dir,
		   size_t len, FILE *text)
{
	char name[PATH_MAX], real[PATH_MAX];
	char **dirs;

	if (len == 0 || len >= sizeof(name))
		return 0;
	if (dir[0] != '/' && base) {
		if ((size_t)snprintf(name, sizeof(name), "%s/%.*s", base,
				     (int)len, dir) >= sizeof(name))
			return 0;
	} else {
		memcpy(name, dir, len);
		name[len] = '\0';
	}
	/* Only absolute directories, by their real path: a policy is
	 * checked against where it really is.  One that does not exist
	 * (no /etc/sysward/policies yet) allows nothing. */
	if (name[0] != '/')
		return 0;
	fprintf(text, "%s%s", ftell(text) ? ":" : "",
		realpath(name, real) ? real : name);
	if (!realpath(name, real))
		return 0;
	dirs = realloc(c->policy_dirs, (c->n_policy_dirs + 2) * sizeof(*dirs));
	if (!dirs)
		return -ENOMEM;
	c->policy_dirs = dirs;
	dirs[c->n_policy_dirs] = strdup(real);
	if (!dirs[c->n_policy_dirs])
		return -ENOMEM;
	dirs[++c->n_policy_dirs] = NULL;
	return 0;
}

int rt_config_load(struct rt_config *c, struct sw_error *err)
{
	const char *env = getenv("SYSWARD_RUNTIME_POLICY_DIRS");
	const char *dirs = env && *env ? env : SYSWARD_RUNTIME_POLICY_DIRS_DEFAULT;
	cleanup_free char *base = NULL;
	size_t text_len = 0;
	FILE *text;
	int r;

	memset(c, 0, sizeof(*c));
	c->delegate = setting("SYSWARD_RUNTIME_DELEGATE",
			      SYSWARD_RUNTIME_DELEGATE_DEFAULT);
	r = find_sysward(c, err);
	if (r < 0)
		return r;
	/* The build's relative directories follow the install's prefix,
	 * as the static sysward does. */
	if (!(env && *env)) {
		r = self_dir(&base, err);
		if (r < 0)
			return r;
	}
	text = open_memstream(&c->policy_dirs_text, &text_len);
	if (!text)
		return sw_error_set(err, ENOMEM, "out of memory");
	for (const char *p = dirs;;) {
		size_t n = strcspn(p, ":");

		if (add_dir(c, base, p, n, text) < 0) {
			fclose(text);
			return sw_error_set(err, ENOMEM, "out of memory");
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	if (fclose(text) != 0)
		return sw_error_set(err, ENOMEM, "out of memory");
	return 0;
}

void rt_config_free(struct rt_config *c)
{
	free(c->delegate_path);
	free(c->sysward);
	for (size_t i = 0; i < c->n_policy_dirs; i++)
		free(c->policy_dirs[i]);
	free(c->policy_dirs);
	free(c->policy_dirs_text);
	memset(c, 0, sizeof(*c));
}

static bool is_executable(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode) &&
	       access(path, X_OK) == 0;
}

int rt_config_delegate(struct rt_config *c, const char **ret,
		       struct sw_error *err)
{
	struct stat st, self;
	char buf[PATH_MAX];
	const char *path = NULL;

	if (c->delegate_path) {
		*ret = c->delegate_path;
		return 0;
	}
	if (strchr(c->delegate, '/')) {
		if (is_executable(c->delegate, &st))
			path = c->delegate;
	} else {
		const char *p = getenv("PATH");

		if (!p || !*p)
			p = DEFAULT_PATH;
		while (!path) {
			size_t n = strcspn(p, ":");

			if (n > 0 && (size_t)snprintf(buf, sizeof(buf), "%.*s/%s",
					       (int)n, p, c->delegate) < sizeof(buf) &&
			    is_executable(buf, &st))
				path = buf;
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	if (!path)
		return sw_error_set(err, ENOENT,
				    "delegate runtime '%s' not found%s (set SYSWARD_RUNTIME_DELEGATE to runc's or crun's path; sysward-runtime(8))",
				    c->delegate,
				    strchr(c->delegate, '/') ? "" : " in PATH");
	/* Registered as "runc" by mistake (a symbolic link runc ->
	 * sysward-runtime), we would exec ourselves for ever. */
	if (stat("/proc/self/exe", &self) == 0 && self.st_dev == st.st_dev &&
	    self.st_ino == st.st_ino)
		return sw_error_set(err, ELOOP,
				    "the delegate runtime '%s' (%s) is sysward-runtime itself; set SYSWARD_RUNTIME_DELEGATE to runc's or crun's real path",
				    c->delegate, path);
	/* As found, not its real path: a runtime may read its argv[0]
	 * (crun behaves as krun when called so). */
	c->delegate_path = strdup(path);
	if (!c->delegate_path)
		return sw_error_set(err, ENOMEM, "out of memory");
	*ret = c->delegate_path;
	return 0;
}
