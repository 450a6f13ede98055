// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward-runtime: runc's command line.  The global options are read
 * (for the log, and to find the command), the few commands that change
 * anything have a file each, and every other command is the delegate's,
 * exec'd with our argv unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sysward/cleanup.h"
#include "runtime.h"

#ifndef SYSWARD_VERSION
#define SYSWARD_VERSION "unknown"
#endif

enum { G_DEBUG = 1, G_LOG, G_LOG_FORMAT, G_HELP, G_VERSION };

/* runc's global options, and crun's. */
static const struct rt_flag global_flags[] = {
	{ "debug", false, G_DEBUG },
	{ "log", true, G_LOG },
	{ "log-format", true, G_LOG_FORMAT },
	{ "root", true, 0 },
	{ "criu", true, 0 },
	{ "systemd-cgroup", false, 0 },
	{ "rootless", true, 0 },
	{ "help,h", false, G_HELP },
	{ "version,v", false, G_VERSION },
	/* crun */
	{ "cgroup-manager", true, 0 },
	{ "log-level", true, 0 },
	{ NULL, false, 0 }
};

/* The commands that are more than the delegate's. */
static const struct {
	const char *name;
	int (*run)(struct rt_cmd *c);
} commands[] = {
	{ "create", rt_cmd_create },
	{ "run", rt_cmd_create },
	{ "exec", rt_cmd_exec },
	{ "restore", rt_cmd_restore },
	{ "features", rt_cmd_features },
};

static void help(FILE *f, const struct rt_config *c)
{
	fprintf(f,
"Usage: sysward-runtime [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS...]\n"
"An OCI runtime with runc's command line.  A container whose bundle asks for\n"
"sysward runs under it: process 1 is sysward, running the bundle's process\n"
"under the policy, and every exec runs under it too.  Everything else is done\n"
"by the delegate runtime (runc, or crun), run with the same arguments.\n"
"\n"
"A bundle asks for sysward with:\n"
"  annotations.\"io.sysward.policy\"  a policy in a policy directory, by path\n"
"                                   or by name (NAME or NAME.json)\n"
"  linux.seccomp                    a section with sysward's actions or keys\n"
"\n"
"Commands: create, start, run, exec, state, kill, delete, ps, pause, resume,\n"
"update, events, features, spec, list, checkpoint, restore (the delegate's;\n"
"create, run, exec, restore and features as said above).  'COMMAND --help'\n"
"shows the delegate's help of COMMAND.\n"
"\n"
"Global options (runc's, passed on): --debug, --log FILE, --log-format\n"
"text|json, --root DIR, --systemd-cgroup, --rootless VALUE, --criu PATH;\n"
"crun's --cgroup-manager and --log-level.  -h, --help: this help;\n"
"-v, --version: the delegate's version, then ours.\n"
"\n"
"Environment (else the build's defaults):\n"
"  SYSWARD_RUNTIME_DELEGATE     the delegate runtime (%s)\n"
"  SYSWARD_RUNTIME_SYSWARD      the static sysward handed to containers'\n"
"                               processes\n"
"  SYSWARD_RUNTIME_POLICY_DIRS  where policies may be named from, ':'\n"
"                               between directories\n",
#ifdef SYSWARD_RUNTIME_DELEGATE_DEFAULT
		SYSWARD_RUNTIME_DELEGATE_DEFAULT
#else
		"runc"
#endif
		);
	if (c)
		fprintf(f, "Here: the static sysward %s;\n"
			   "policy directories %s\n",
			c->sysward, *c->policy_dirs_text ? c->policy_dirs_text : "none");
	fputs("\nSee sysward-runtime(8).\n", f);
}

/* The delegate's --version, then ours: tools read the first line as
 * runc's ("runc version 1.1.5"). */
static int version(struct rt_cmd *c)
{
	const char *args[] = { "--version", NULL };
	struct sw_error err = { 0 };
	cleanup_free char *out = NULL;
	const char *delegate = "?";
	int status, r;

	r = rt_delegate_run(c->config, c->argv, 0, args, 1u << 16, &out,
			    &status, &err);
	if (r < 0) {
		rt_log(RT_ERROR, "%s", err.msg);
		return RT_EXIT_FAIL;
	}
	fputs(out, stdout);
	if (*out && out[strlen(out) - 1] != '\n')
		fputc('\n', stdout);
	rt_config_delegate(c->config, &delegate, &err);
	printf("sysward-runtime version %s (delegate %s, sysward %s)\n",
	       SYSWARD_VERSION, delegate, c->config->sysward);
	return WIFEXITED(status) ? WEXITSTATUS(status) : RT_EXIT_FAIL;
}

static bool flag_on(const char *value)
{
	/* Go's strconv.ParseBool: "--debug=false" is off. */
	return !value || !(strcmp(value, "false") == 0 || strcmp(value, "0") == 0 ||
			   strcmp(value, "f") == 0 || strcmp(value, "F") == 0 ||
			   strcmp(value, "FALSE") == 0 || strcmp(value, "False") == 0);
}

int main(int argc, char **argv)
{
	struct rt_config config;
	struct sw_error err = { 0 };
	struct rt_args a;
	struct rt_cmd c = { .argc = argc, .argv = argv, .config = &config };
	int r, code = RT_EXIT_FAIL, d;
	const char *name;

	/* The global options end at the command (no reordering). */
	r = rt_args_scan(global_flags, false, argc, argv, 1, &a, &err);
	d = rt_args_find(&a, G_DEBUG);
	rt_log_setup(rt_args_value(&a, G_LOG), rt_args_value(&a, G_LOG_FORMAT),
		     d >= 0 && flag_on(a.seen[d].value));
	if (r < 0) {
		rt_log(RT_ERROR, "%s", err.msg);
		return RT_EXIT_FAIL;
	}
	r = rt_config_load(&config, &err);
	if (rt_args_find(&a, G_HELP) >= 0) {
		help(stdout, r < 0 ? NULL : &config);
		code = 0;
		goto out;
	}
	if (r < 0) {
		rt_log(RT_ERROR, "%s", err.msg);
		goto out;
	}
	if (rt_args_find(&a, G_VERSION) >= 0) {
		code = version(&c);
		goto out;
	}
	if (a.n_pos == 0) {
		help(stdout, &config);
		code = 0;
		goto out;
	}
	c.cmd_at = a.pos[0];
	name = argv[c.cmd_at];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0) {
			code = commands[i].run(&c);
			goto out;
		}
	code = rt_pass_through(&c);
out:
	rt_config_free(&config);
	return code;
}
