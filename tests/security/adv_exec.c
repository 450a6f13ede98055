// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 15 (docs/security.md): an execve path rule must hold for the file
 * the kernel executes, not only for the string execve was given.  The
 * kernel opens a #! script's interpreter itself (fs/binfmt_script.c), and
 * execveat(fd, "", AT_EMPTY_PATH) (fexecve) names no path at all, so a
 * check of execve's path argument never sees the file that runs.
 *
 *   adv_exec VARIANT DIR
 *
 * DIR (made by check.sh) holds copies of this program that the policy
 * denies to execve/execveat: DIR/denied/prog (exact rule), DIR/denied2/prog
 * (prefix rule "DIR/denied2/"), DIR/denied3/prog (exact rule naming it
 * "DIR/alias/prog", alias -> denied3).  A copy that runs sees
 * ADV_EXEC_PAYLOAD in its environment: it creates DIR/ran.VARIANT (the
 * escape) and exits 42.  Each variant runs in a child; the escape is the
 * marker file, whatever the child's status.
 *
 * Variants: direct (control: the entry check), script, symlink,
 * relative, prefix, nested, execveat_script, fexecve, hardlink, alias,
 * swap (a thread swaps a script between "#!/bin/true" and the denied
 * interpreter while it is executed, many times).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static const char *dir;
static const char *variant;

static void path_of(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static int write_script(const char *name, const char *interp)
{
	char p[512], tmp[520];
	int fd;

	path_of(p, sizeof(p), name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", p);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || dprintf(fd, "#!%s\n", interp) < 0 || close(fd) < 0)
		return -1;
	/* Atomic: the swap variant renames over a script being executed. */
	return rename(tmp, p);
}

/* The environment of every exec: the payload's marker directory and label. */
static char *env_payload[3];

/* In a child: the exec attempt of one variant; returns only on failure. */
static void attempt(void)
{
	char p[512], q[512];
	char *argv[] = { (char *)"prog", (char *)"payload", NULL };
	int fd;

	if (!strcmp(variant, "direct")) {
		path_of(p, sizeof(p), "denied/prog");
		execve(p, argv, env_payload);
	} else if (!strcmp(variant, "script") || !strcmp(variant, "execveat_script")) {
		path_of(q, sizeof(q), "denied/prog");
		if (write_script("s", q) < 0)
			return;
		path_of(p, sizeof(p), "s");
		if (!strcmp(variant, "script")) {
			execve(p, argv, env_payload);
			return;
		}
		/* Not close-on-exec: the kernel hands a script it runs from
		 * a descriptor over as /dev/fd/N. */
		fd = open(p, O_RDONLY);
		if (fd >= 0)
			syscall(SYS_execveat, fd, "", argv, env_payload, AT_EMPTY_PATH);
	} else if (!strcmp(variant, "symlink")) {
		path_of(p, sizeof(p), "link");
		path_of(q, sizeof(q), "denied/prog");
		unlink(p);
		if (symlink(q, p) < 0 || write_script("s", p) < 0)
			return;
		path_of(p, sizeof(p), "s");
		execve(p, argv, env_payload);
	} else if (!strcmp(variant, "relative")) {
		/* The kernel opens a relative interpreter from the working
		 * directory. */
		if (chdir(dir) < 0 || write_script("s", "denied/prog") < 0)
			return;
		execve("./s", argv, env_payload);
	} else if (!strcmp(variant, "prefix")) {
		path_of(q, sizeof(q), "denied2/prog");
		if (write_script("s", q) < 0)
			return;
		path_of(p, sizeof(p), "s");
		execve(p, argv, env_payload);
	} else if (!strcmp(variant, "nested")) {
		path_of(q, sizeof(q), "denied/prog");
		if (write_script("inner", q) < 0)
			return;
		path_of(q, sizeof(q), "inner");
		if (write_script("outer", q) < 0)
			return;
		path_of(p, sizeof(p), "outer");
		execve(p, argv, env_payload);
	} else if (!strcmp(variant, "fexecve")) {
		path_of(p, sizeof(p), "denied/prog");
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			fexecve(fd, argv, env_payload);
	} else if (!strcmp(variant, "hardlink")) {
		path_of(p, sizeof(p), "hl");
		path_of(q, sizeof(q), "denied/prog");
		unlink(p);
		if (link(q, p) < 0)
			return;
		execve(p, argv, env_payload);
	} else if (!strcmp(variant, "alias")) {
		/* The rule names DIR/alias/prog; alias is a symlink to
		 * denied3: this is the same file by its real name. */
		path_of(p, sizeof(p), "denied3/prog");
		execve(p, argv, env_payload);
	} else {
		errno = EINVAL;
	}
}

/* One child; 0 if it did not run the payload. */
static int one(const char *label)
{
	int status, e;
	pid_t pid = fork();

	if (pid < 0) {
		RESULT("fork = %s", RET(-1, errno));
		return -1;
	}
	if (pid == 0) {
		attempt();
		e = errno;
		if (label)
			RESULT("%s: exec = %s", label, RET(-1, e));
		_exit(3);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (label && WIFSIGNALED(status))
		RESULT("%s: child killed by signal %d", label, WTERMSIG(status));
	else if (label)
		RESULT("%s: child exit status %d", label, WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 42;
}

static atomic_bool stop;

static void *swapper(void *arg)
{
	char q[512];

	(void)arg;
	path_of(q, sizeof(q), "denied/prog");
	while (!atomic_load(&stop)) {
		write_script("s", "/bin/true");
		write_script("s", q);
	}
	return NULL;
}

static int swap(void)
{
	char p[512];
	char *argv[] = { (char *)"s", NULL };
	int ran = 0, n = 300, killed = 0, ok = 0, status;
	pthread_t th;

	path_of(p, sizeof(p), "s");
	if (write_script("s", "/bin/true") < 0 ||
	    pthread_create(&th, NULL, swapper, NULL) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execve(p, argv, env_payload);
			_exit(3);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			break;
		ran += WIFEXITED(status) && WEXITSTATUS(status) == 42;
		killed += WIFSIGNALED(status);
		ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	atomic_store(&stop, true);
	pthread_join(th, NULL);
	RESULT("swap: %d execs: /bin/true ran %d, killed %d, payload ran %d",
	       n, ok, killed, ran);
	return ran;
}

int main(int argc, char **argv)
{
	const char *marker_dir = getenv("ADV_EXEC_PAYLOAD");
	char p[512], env[600], venv[128];
	int ran;

	if (marker_dir) {
		/* The denied copy: it ran. */
		const char *v = getenv("ADV_EXEC_VARIANT");

		snprintf(p, sizeof(p), "%s/ran.%s", marker_dir, v ? v : "?");
		close(open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
		if (!v || strcmp(v, "swap"))
			dprintf(STDOUT_FILENO, "payload: the denied file runs (pid %d)\n", getpid());
		return 42;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: adv_exec VARIANT DIR\n");
		return ADV_CANNOT;
	}
	variant = argv[1];
	dir = argv[2];
	snprintf(env, sizeof(env), "ADV_EXEC_PAYLOAD=%s", dir);
	snprintf(venv, sizeof(venv), "ADV_EXEC_VARIANT=%s", variant);
	env_payload[0] = env;
	env_payload[1] = venv;
	TRIED("%s: run a file that the policy's execve/execveat path rules deny", variant);
	ran = !strcmp(variant, "swap") ? swap() : one(variant);
	snprintf(p, sizeof(p), "%s/ran.%s", dir, variant);
	if (ran < 0)
		return adv_verdict(ADV_CANNOT, "could not set the variant up");
	if (ran > 0 || access(p, F_OK) == 0)
		return adv_verdict(ADV_ESCAPED, "the denied file ran");
	return adv_verdict(ADV_CONTAINED, "the denied file did not run");
}
