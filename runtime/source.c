// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The policy a bundle names, and whether this machine can run it.
 *
 * Whoever writes a bundle's annotations is not always the machine's
 * operator (a Kubernetes pod's author, once the runtime passes pod
 * annotations on), and we read the file as root: so an annotation only
 * chooses among the policies the operator put in the policy directories.
 * It never opens anything outside them (not /dev/watchdog, whose open
 * alone has an effect, nor /root/.docker/config.json, a JSON file that
 * would be copied into the container), and it cannot carry a policy of
 * its own (inline JSON), which would let a pod author replace the
 * seccomp profile the operator chose by a permissive one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/limits.h"
#include "sysward/policy.h"
#include "runtime.h"

#define ANN "annotations." RT_ANNOTATION_POLICY

/* dir/... with dir one of the policy directories (real paths)? */
static bool inside_dirs(const struct rt_config *c, const char *real)
{
	for (size_t i = 0; i < c->n_policy_dirs; i++) {
		const char *d = c->policy_dirs[i];
		size_t n = strlen(d);

		if (n == 1 && real[0] == '/' && real[1])
			return true;	/* "/": the operator's choice */
		if (strncmp(real, d, n) == 0 && real[n] == '/' && real[n + 1])
			return true;
	}
	return false;
}

static char *dirs_text(const struct rt_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	for (size_t i = 0; i < c->n_policy_dirs; i++)
		fprintf(m, "%s%s", i ? ", " : "", c->policy_dirs[i]);
	if (!c->n_policy_dirs)
		fputs("none exists", m);
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* A policy name: letters, digits, '.', '_', '-'; not "." or "..". */
static bool good_name(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 ||
	    strlen(s) > NAME_MAX)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *s))
			return false;
	return true;
}

/* Open a policy candidate by its real path (no symbolic link is left in
 * it), only if that path is inside a policy directory, and check again
 * on the file opened: nothing outside is ever opened. */
static int open_inside(const struct rt_config *c, const char *name,
		       int *ret_fd, char **ret_real, struct sw_error *err)
{
	cleanup_free char *real = realpath(name, NULL);
	cleanup_free char *dirs = NULL;
	cleanup_close int fd = -1;
	char proc[64], opened[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!real) {
		if (errno == ENOENT || errno == ENOTDIR)
			return -ENOENT;		/* the caller says so */
		return sw_error_set_errno(err, errno, "%s: resolve %s", ANN, name);
	}
	if (!inside_dirs(c, real)) {
		dirs = dirs_text(c);
		return sw_error_set(err, EPERM,
				    "%s: %s is not in a policy directory (%s): a bundle may only name a policy the operator put there (SYSWARD_RUNTIME_POLICY_DIRS, sysward-runtime(8))",
				    ANN, name, dirs ? dirs : "?");
	}
	/* O_NONBLOCK: a FIFO planted there must not hang us; it is refused
	 * below as not a regular file. */
	fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return sw_error_set_errno(err, errno, "%s: open %s", ANN, real);
	if (fstat(fd, &st) < 0)
		return sw_error_set_errno(err, errno, "%s: stat %s", ANN, real);
	if (!S_ISREG(st.st_mode))
		return sw_error_set(err, EINVAL, "%s: %s is not a regular file",
				    ANN, real);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, opened, sizeof(opened) - 1);
	if (n < 0)
		return sw_error_set_errno(err, errno, "%s: read %s", ANN, proc);
	opened[n] = '\0';
	if (!inside_dirs(c, opened))
		return sw_error_set(err, EPERM,
				    "%s: %s moved out of the policy directories while it was opened (as %s)",
				    ANN, real, opened);
	*ret_fd = TAKE_FD(fd);
	*ret_real = strdup(opened);
	return *ret_real ? 0 : sw_error_set(err, ENOMEM, "out of memory");
}

int rt_source_annotation(const struct rt_config *c, const char *value,
			 char **ret_text, size_t *ret_len, char **ret_path,
			 struct sw_error *err)
{
	cleanup_close int fd = -1;
	cleanup_free char *real = NULL;
	int r = -ENOENT;

	if (value[0] == '{' || value[0] == '[')
		return sw_error_set(err, EINVAL,
				    "%s: inline JSON is not accepted: name a policy file in a policy directory (the operator decides which policies a bundle may choose), or put the policy in linux.seccomp",
				    ANN);
	if (value[0] == '/') {
		r = open_inside(c, value, &fd, &real, err);
		if (r == -ENOENT)
			return sw_error_set(err, ENOENT, "%s: %s: no such policy file",
					    ANN, value);
	} else if (!good_name(value)) {
		return sw_error_set(err, EINVAL,
				    "%s: '%s' is neither an absolute path nor a policy's name (letters, digits, '.', '_', '-')",
				    ANN, value);
	} else {
		/* NAME, then NAME.json, in each directory in order. */
		for (size_t i = 0; r == -ENOENT && i < c->n_policy_dirs; i++) {
			for (int ext = 0; r == -ENOENT && ext < 2; ext++) {
				char name[PATH_MAX];

				snprintf(name, sizeof(name), "%s/%s%s",
					 c->policy_dirs[i], value,
					 ext ? ".json" : "");
				r = open_inside(c, name, &fd, &real, err);
			}
		}
		if (r == -ENOENT) {
			cleanup_free char *dirs = dirs_text(c);

			return sw_error_set(err, ENOENT,
					    "%s: no policy '%s' (nor '%s.json') in the policy directories (%s)",
					    ANN, value, value, dirs ? dirs : "?");
		}
	}
	if (r < 0)
		return r;
	r = rt_read_fd(fd, real, SW_LIMIT_POLICY_BYTES, ret_text, ret_len, err);
	if (r < 0)
		return r;
	*ret_path = TAKE_PTR(real);
	return 0;
}

int rt_source_validate(const char *text, size_t len, const char *name,
		       bool *ret_needs_supervisor, struct sw_error *err)
{
	struct sw_policy *p = NULL;
	bool needs;
	int r;

	r = sw_policy_load_string(text, len, name, &p, err);
	if (r < 0)
		return r;
	needs = sw_action_needs_supervisor(p->default_action);
	for (size_t i = 0; i < p->n_rules && !needs; i++)
		needs = sw_rule_needs_supervisor(&p->rules[i]);
	sw_policy_free(p);
	*ret_needs_supervisor = needs;
	return 0;
}

int rt_source_kernel_check(bool needs_supervisor, struct sw_error *err)
{
	struct sw_kernel_support ks;
	int r;

	r = sw_probe_kernel(&ks, err);
	if (r < 0)
		return sw_error_wrap(err, "probe what this kernel supports");
	if (!ks.seccomp_filter)
		return sw_error_set(err, ENOSYS,
				    "this kernel (%s) has no seccomp filters: sysward cannot confine the container",
				    ks.release);
	if (ks.landlock_abi <= 0)
		return sw_error_set(err, EOPNOTSUPP,
				    "this kernel (%s) has no Landlock (%s): sysward runs no program without it (docs/security.md, route 16)",
				    ks.release,
				    sw_landlock_missing_why(ks.landlock_err));
	if (needs_supervisor && !ks.set_syscall_info)
		return sw_error_set(err, ENOSYS,
				    "this kernel (%s) lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16, or 6.12 with sysward's kernel-series), which the policy's supervisor rules need: run the container on a node with such a kernel",
				    ks.release);
	return 0;
}

int rt_check_static_fd(int fd, const char *path, struct sw_error *err)
{
	Elf64_Ehdr eh;
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return sw_error_set(err, EACCES,
				    "the static sysward %s is not an executable file",
				    path);
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return sw_error_set(err, ENOEXEC,
				    "the static sysward %s is not a 64-bit ELF executable",
				    path);
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return sw_error_set(err, ENOEXEC,
					    "the static sysward %s: cannot read its program headers",
					    path);
		if (ph.p_type == PT_INTERP)
			return sw_error_set(err, ENOEXEC,
					    "%s is dynamically linked: a container has no libseccomp, json-c or libcap for it; give the static build (libexec/sysward/sysward-static) in SYSWARD_RUNTIME_SYSWARD",
					    path);
	}
	return 0;
}
