// SPDX-License-Identifier: LGPL-2.1-or-later
/* What "sysward run" shows and decides in both ways of running
 * (runopts.h): the policy's warnings, the refusals' words, the gate. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/error.h"
#include "sysward/policy.h"
#include "commands.h"
#include "run.h"
#include "runopts.h"

struct lint_ctx {
	const struct sw_policy *p;
	const char *text;
	size_t len;
	struct sw_policy_text *where;	/* at the first lint printed */
	bool quiet;
	size_t n;
};

static int on_lint(enum sw_policy_warning_kind kind, const char *path,
		   const char *msg, void *ud)
{
	struct lint_ctx *c = ud;
	unsigned int line, col;

	if (kind != SW_POLICY_WARN_NOT_A_PATH)
		return 0;
	c->n++;
	if (c->quiet)
		return 0;
	if (!c->where && sw_policy_text_index(c->text, c->len, &c->where) < 0)
		return -ENOMEM;	/* no more lints: not worth failing the run */
	sw_policy_text_locate(c->where, path, false, &line, &col);
	sw_cli_error("warning: %s:%u:%u: %s: %s", c->p->source, line, col,
		     path, msg);
	return 0;
}

size_t sw_run_print_policy_warnings(const struct run_options *o,
				    const struct sw_policy *p, const char *text,
				    size_t len)
{
	struct lint_ctx c = { p, text, len, NULL, o->quiet, 0 };

	for (size_t i = 0; i < p->n_warnings; i++) {
		/* A profile written for a newer libseccomp names calls this
		 * one cannot filter; Docker's names a dozen.  Nothing in the
		 * profile is wrong and nothing can be done at each run. */
		if (p->warning_kinds &&
		    p->warning_kinds[i] == SW_POLICY_WARN_SYSCALL_NEWER)
			continue;
		c.n++;
		if (!o->quiet)
			sw_cli_error("warning: %s", p->warnings[i]);
	}
	/* Of the lints, only the one that changes what calls get: a path
	 * condition on no path fails them with EFAULT, and a log line per
	 * call is no way to learn why.  The others (dead rules, duplicate
	 * names) change nothing at run time; `sysward check` has them. */
	sw_policy_lint(p, on_lint, &c);
	sw_policy_text_free(c.where);
	if (o->strict && c.n)
		sw_cli_error("%s: %zu %s, which --strict refuses", p->source,
			     c.n, c.n == 1 ? "warning" : "warnings");
	return c.n;
}

bool sw_run_say_refusals(const struct run_options *o, uint64_t n)
{
	if (o->quiet || !(o->complain || (o->gate && n > 0)))
		return false;
	if (n == 0)
		sw_cli_error("complain: the policy would have refused no call");
	else
		sw_cli_error("%s: the policy %s %llu %s:",
			     o->complain ? "complain" : "gate",
			     o->complain ? "would have refused" : "refused",
			     (unsigned long long)n, n == 1 ? "call" : "calls");
	return true;
}

void sw_run_say_kernel_rules(const struct run_options *o, bool policy_files,
			     const struct sw_exit *ex)
{
	/* A failing program under rules the kernel enforces: what they
	 * refused reached no one but the program (EACCES, EROFS). */
	if (o->quiet || o->complain || ex->signal || ex->code == 0 ||
	    (!o->sandbox_on && !policy_files))
		return;
	sw_cli_error("the program exited with status %d; %s rules are the kernel's, which refuses with EACCES or EROFS and tells no one but the program: to see what they refused, run it again with --complain (and --report FILE), which lets every call run and names each open they would have refused, its file and its rule",
		     ex->code, o->sandbox_on ? "--sandbox's file" : "the policy's \"filesystem\"");
}

int sw_run_status(const struct sw_exit *ex)
{
	return ex->signal ? SW_EXIT_SIGNAL(ex->signal) : ex->code;
}

int sw_run_gate(const struct run_options *o, uint64_t n,
		const struct sw_exit *ex)
{
	if (!o->gate || n == 0)
		return sw_run_status(ex);
	sw_cli_error("gate: exit status %d instead of the program's %d: the policy %s %llu %s",
		     o->gate, ex->code,
		     o->complain ? "would have refused" : "refused",
		     (unsigned long long)n, n == 1 ? "call" : "calls");
	return o->gate;
}

int sw_run_open_report(const struct run_options *o, FILE **ret_file,
		       FILE **ret_stream)
{
	*ret_file = NULL;
	*ret_stream = NULL;
	if (!o->report_path)
		return 0;
	if (strcmp(o->report_path, "-") == 0) {
		*ret_stream = stderr;
		return 0;
	}
	*ret_file = fopen(o->report_path, "we");
	if (!*ret_file) {
		sw_cli_error("open report %s: %s", o->report_path, strerror(errno));
		return -1;
	}
	*ret_stream = *ret_file;
	return 0;
}

/*
 * The policy of sysward-runtime's hand-off to a container's process 1:
 * only a sealed memory file is read (the policy library says why).  It
 * stays open, close-on-exec, so that sysward-runtime finds the very
 * policy of process 1 in /proc/<pid>/fd/N for an exec.
 */
int sw_run_read_policy_fd(int fd, char **ret_text, size_t *ret_len,
			  char **ret_name, struct sw_error *err)
{
	cleanup_free char *text = NULL, *name = NULL;
	int r;

	if (asprintf(&name, "policy descriptor %d", fd) < 0) {
		name = NULL;
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	r = sw_policy_read_sealed_fd(fd, &text, ret_len, err);
	if (r < 0)
		return r;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "--policy-fd %d: make it close-on-exec", fd);
	*ret_text = TAKE_PTR(text);
	*ret_name = TAKE_PTR(name);
	return 0;
}

/*
 * What sysward-runtime asks its processes to keep: the descriptors runc
 * was asked to pass (stdio, LISTEN_FDS, --preserve-fds), and none of the
 * two it adds (the static sysward it was executed through, the policy).
 * Closed here, before anything is opened: the program inherits the rest
 * of ours as it would unconfined.
 */
int sw_run_keep_fds(int keep, int policy_fd, struct sw_error *err)
{
	unsigned int lo = (unsigned int)keep;
	int r;

	if (policy_fd >= keep) {
		if (policy_fd > keep &&
		    syscall(SYS_close_range, lo, (unsigned int)policy_fd - 1, 0u) < 0)
			return sw_error_set_errno(err, errno, "--keep-fds %d: close the descriptors above", keep);
		lo = (unsigned int)policy_fd + 1;
	}
	r = (int)syscall(SYS_close_range, lo, ~0u, 0u);
	if (r < 0)
		return sw_error_set_errno(err, errno, "--keep-fds %d: close the descriptors above", keep);
	if (policy_fd >= 0 && fcntl(policy_fd, F_SETFD, FD_CLOEXEC) < 0)
		return sw_error_set_errno(err, errno, "--policy-fd %d: make it close-on-exec", policy_fd);
	return 0;
}

int sw_run_cap_option(const char *cmd, const char *arg, struct run_options *o)
{
	char bad[64];

	if (sw_parse_caps(arg, &o->caps, &o->caps_all, bad, sizeof(bad)) < 0)
		return -sw_cli_usage(cmd,
			"unknown capability '%s' in --cap %s "
			"(expected a name such as CAP_NET_RAW, "
			"see capabilities(7), or 'all')", bad, arg);
	return 0;
}

int sw_run_sandbox_option(const char *opt, const char *arg, struct run_options *o)
{
	struct sw_error err = { 0 };
	struct sw_tcp_ports *tp;

	o->sandbox_on = true;
	if (!strcmp(opt, "sandbox")) {
		if (arg && !*arg)
			return -sw_cli_usage("run", "--sandbox=: expected a directory");
		o->sandbox.dir = arg;
		return 0;
	}
	tp = !strcmp(opt, "sandbox-net") ? &o->sandbox.connect : &o->sandbox.bind;
	free(tp->ranges);
	*tp = (struct sw_tcp_ports){ 0 };
	if (sw_sandbox_parse_ports(arg, tp, &err) < 0)
		return -sw_cli_usage("run", "--%s=%s", opt, err.msg);
	o->sandbox.net_given = true;
	return 0;
}

int sw_run_sandbox_begin(struct run_options *o, struct sw_error *err)
{
	const char *base = getenv("TMPDIR");
	char *tmp = NULL;
	int r;

	if (!o->sandbox_on)
		return 0;
	if (o->sandbox.dir && o->sandbox.dir[0] != '/') {
		cleanup_free char *cwd = getcwd(NULL, 0);
		char *abs;

		if (!cwd)
			return sw_error_set_errno(err, errno, "--sandbox=%s: find the working directory",
						  o->sandbox.dir);
		if (asprintf(&abs, "%s/%s", cwd, o->sandbox.dir) < 0)
			return sw_error_set_errno(err, ENOMEM, "--sandbox=%s", o->sandbox.dir);
		o->sandbox.dir = abs;	/* lives as long as the run */
	}
	/* Said here, in our view, which is the program's (a daemon's
	 * launch child takes it): the engine's word would be about a
	 * hierarchy or a mount. */
	{
		struct stat st;
		const char *d = o->sandbox.dir ? o->sandbox.dir : ".";

		if (stat(d, &st) < 0)
			return sw_error_set_errno(err, errno, "--sandbox: the workspace %s",
						  o->sandbox.dir ? o->sandbox.dir : "(the working directory)");
		if (!S_ISDIR(st.st_mode))
			return sw_error_set(err, ENOTDIR,
					    "--sandbox: the workspace %s is not a directory",
					    o->sandbox.dir);
	}
	/* The caller's TMPDIR if it names one, else /tmp, as mktemp(1). */
	r = sw_sandbox_tmp_new(base && base[0] == '/' ? base : NULL, &tmp, err);
	if (r < 0)
		return r;
	if (setenv("TMPDIR", tmp, 1) < 0) {
		r = -errno;
		sw_sandbox_tmp_remove(tmp);
		free(tmp);
		return sw_error_set_errno(err, -r, "set TMPDIR for the sandbox");
	}
	o->sandbox.tmpdir = tmp;
	return 0;
}

void sw_run_sandbox_end(struct run_options *o)
{
	int r;

	if (!o->sandbox.tmpdir)
		return;
	r = sw_sandbox_tmp_remove(o->sandbox.tmpdir);
	if (r < 0)
		sw_cli_error("warning: remove the sandbox's temporary directory %s: %s",
			     o->sandbox.tmpdir, strerror(-r));
	free((char *)o->sandbox.tmpdir);
	o->sandbox.tmpdir = NULL;
}

int sw_run_sandbox_policy(char **ret_text, size_t *ret_len, struct sw_error *err)
{
	char *text = strdup(SW_SANDBOX_POLICY);

	if (!text)
		return sw_error_set_errno(err, ENOMEM, "--sandbox: its policy");
	*ret_text = text;
	*ret_len = strlen(text);
	return 0;
}

const char *sw_run_policy_name(const struct run_options *o)
{
	return o->policy_path ? sw_policy_file_name(o->policy_path)
			      : SW_SANDBOX_POLICY_NAME;
}
