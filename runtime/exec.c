// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec into a container that runs under sysward runs under sysward too:
 * a process that runc exec starts is the child of runc (outside), not of
 * the container's process 1, so the sysward there does not see it, and
 * it would run unconfined.  Whether the container is ours comes from the
 * delegate's state of it (its annotations, which the container cannot
 * change), never from the container's file system.
 *
 * The process comes either from the command line ("exec ID PROGRAM
 * ARGS...": runc takes the rest from the bundle's config.json) or from
 * --process FILE (Podman, containerd).  We prefix PROGRAM with sysward's
 * command line, or give the delegate a copy of FILE with the prefixed
 * args, in a memfd: nothing is written anywhere.  The process gets the
 * static sysward and the policy as descriptors, as process 1 does
 * (handoff.c), and the policy is process 1's own: its sealed memfd,
 * opened again from /proc/<pid>/fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

enum { F_PROCESS = 1, F_CAP, F_PRESERVE_FDS, F_HELP };

/* runc's exec options, with crun's additions. */
static const struct rt_flag exec_flags[] = {
	{ "console-socket", true, 0 },
	{ "pidfd-socket", true, 0 },
	{ "cwd", true, 0 },
	{ "env,e", true, 0 },
	{ "tty,t", false, 0 },
	{ "user,u", true, 0 },
	{ "additional-gids,g", true, 0 },
	{ "process,p", true, F_PROCESS },
	{ "detach,d", false, 0 },
	{ "pid-file", true, 0 },
	{ "process-label", true, 0 },
	{ "apparmor", true, 0 },
	{ "no-new-privs", false, 0 },
	{ "cap,c", true, F_CAP },
	{ "preserve-fds", true, F_PRESERVE_FDS },
	{ "cgroup", true, 0 },
	{ "ignore-paused", false, 0 },
	{ "help,h", false, F_HELP },
	{ NULL, false, 0 }
};

/* State output: far more than runc's (a few hundred bytes). */
#define STATE_MAX (1u << 20)

static int fail(const char *id, const struct sw_error *err)
{
	rt_log(RT_ERROR, "exec %s: %s", id, err->msg);
	return RT_EXIT_FAIL;
}

/* The delegate's state of the container: is it ours, its bundle, its
 * process 1.  *ret_exit is set (and nonzero) when the delegate itself
 * failed: it has said why on stderr, and we exit as it did. */
static int container_state(struct rt_cmd *c, const char *id, bool *ret_ours,
			   char **ret_bundle, pid_t *ret_pid, int *ret_exit,
			   struct sw_error *err)
{
	const char *args[] = { "state", id, NULL };
	cleanup_free char *out = NULL;
	json_object *state = NULL, *ann, *v;
	int status, r;

	*ret_exit = 0;
	r = rt_delegate_run(c->config, c->argv, c->cmd_at - 1, args, STATE_MAX,
			    &out, &status, err);
	if (r < 0)
		return r;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		*ret_exit = WIFEXITED(status) && WEXITSTATUS(status) ?
			    WEXITSTATUS(status) : RT_EXIT_FAIL;
		return 0;
	}
	r = rt_json_parse(out, strlen(out), "the delegate's state output",
			  &state, err);
	if (r < 0)
		return r;
	*ret_ours = json_object_object_get_ex(state, "annotations", &ann) &&
		    json_object_is_type(ann, json_type_object) &&
		    json_object_object_get_ex(ann, RT_ANNOTATION_WRAPPED, &v);
	*ret_bundle = NULL;
	if (json_object_object_get_ex(state, "bundle", &v) &&
	    json_object_is_type(v, json_type_string))
		*ret_bundle = strdup(json_object_get_string(v));
	*ret_pid = 0;
	if (json_object_object_get_ex(state, "pid", &v) &&
	    json_object_is_type(v, json_type_int))
		*ret_pid = (pid_t)json_object_get_int(v);
	json_object_put(state);
	if (*ret_ours && !*ret_bundle)
		return sw_error_set(err, EINVAL,
				    "the delegate's state of the container names no bundle");
	return 0;
}

/* A descriptor the delegate inherits and the container does not: above
 * the ones it passes on (low: those --preserve-fds names and ours), so
 * runc closes it at the process's exec (CloseExecFrom). */
static int memfd_with(const char *text, size_t len, int low,
		      struct sw_error *err)
{
	cleanup_close int fd = -1;
	int hi, r;

	r = rt_memfd("sysward-process.json", text, len, false, &fd, err);
	if (r < 0)
		return r;
	/* F_DUPFD: no FD_CLOEXEC, so that the delegate inherits it. */
	hi = fcntl(fd, F_DUPFD, low);
	if (hi < 0)
		return sw_error_set_errno(err, errno, "move a memfd to fd %d", low);
	return hi;
}

/* exec --process FILE: a copy of FILE, its args under sysward. */
static int wrap_process_file(struct rt_cmd *c, const struct rt_args *a,
			     const char *id, int keep, struct sw_error *err)
{
	int i = rt_args_find(a, F_PROCESS), r, fd;
	const char *path = a->seen[i].value, *text;
	cleanup_free char *raw = NULL;
	cleanup_close int in = -1;
	json_object *proc = NULL;
	static char arg[64];
	size_t len;

	in = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (in < 0)
		return sw_error_set_errno(err, errno, "open %s", path);
	r = rt_read_fd(in, path, RT_LIMIT_SPEC_BYTES, &raw, &len, err);
	if (r >= 0)
		r = rt_json_parse(raw, len, path, &proc, err);
	/* runc takes the process from FILE alone (--cap is ignored). */
	if (r >= 0)
		r = rt_process_wrap(proc, NULL, 0, false, keep, err);
	if (r < 0) {
		json_object_put(proc);
		return r;
	}
	text = rt_json_text(proc, &len);
	fd = memfd_with(text, len, keep + RT_HANDOFF_FDS, err);
	json_object_put(proc);
	if (fd < 0)
		return fd;
	if (a->seen[i].value_at == a->seen[i].at) {
		snprintf(arg, sizeof(arg), "--process=/proc/self/fd/%d", fd);
		c->argv[a->seen[i].at] = arg;
	} else {
		snprintf(arg, sizeof(arg), "/proc/self/fd/%d", fd);
		c->argv[a->seen[i].value_at] = arg;
	}
	rt_log(RT_DEBUG, "exec %s: the process of %s runs under sysward", id,
	       path);
	return 0;
}

/* The bundle's config.json process, for its capabilities. */
static int config_process(const char *bundle, json_object **ret_spec,
			  json_object **ret_process, struct sw_error *err)
{
	struct rt_bundle b = { .fd = -1 };
	char name[4200];
	int r;

	r = rt_bundle_open(bundle, &b, err);
	snprintf(name, sizeof(name), "%s/config.json", b.path ? b.path : bundle);
	if (r >= 0)
		r = rt_json_parse(b.config_text, b.config_len, name, ret_spec, err);
	rt_bundle_close(&b);
	if (r < 0)
		return r;
	if (!json_object_object_get_ex(*ret_spec, "process", ret_process) ||
	    !json_object_is_type(*ret_process, json_type_object))
		*ret_process = NULL;
	return 0;
}

/* exec ID PROGRAM ARGS...: sysward's prefix between ID and PROGRAM. */
static int wrap_command_line(struct rt_cmd *c, const struct rt_args *a,
			     const char *bundle, int keep, char ***ret_argv,
			     struct sw_error *err)
{
	const char *caps[RT_MAX_SEEN];
	json_object *spec = NULL, *cfg, *proc, *caps_o = NULL, *args, *wrapped;
	int id_at = a->pos[0], n_caps = 0, r, k = 0;
	size_t n;
	char **av;

	for (int i = 0; i < a->n_seen; i++)
		if (a->seen[i].id == F_CAP)
			caps[n_caps++] = a->seen[i].value;
	r = config_process(bundle, &spec, &cfg, err);
	if (r < 0)
		return r;
	/* runc runs the bundle's process with these args (its other
	 * members, and --cap, on top). */
	proc = json_object_new_object();
	args = json_object_new_array();
	for (int i = id_at + 1; i < c->argc; i++)
		json_object_array_add(args, json_object_new_string(c->argv[i]));
	json_object_object_add(proc, "args", args);
	if (cfg && json_object_object_get_ex(cfg, "capabilities", &caps_o))
		json_object_object_add(proc, "capabilities",
				       json_object_get(caps_o));
	r = rt_process_wrap(proc, caps, (size_t)n_caps, false, keep, err);
	json_object_put(spec);
	if (r < 0) {
		json_object_put(proc);
		return r;
	}
	json_object_object_get_ex(proc, "args", &wrapped);
	n = json_object_array_length(wrapped);
	av = calloc((size_t)id_at + 1 + n + 1, sizeof(*av));
	if (!av) {
		json_object_put(proc);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	for (int i = 0; i <= id_at; i++)
		av[k++] = c->argv[i];
	for (size_t i = 0; i < n; i++)
		av[k++] = strdup(json_object_get_string(
					json_object_array_get_idx(wrapped, i)));
	av[k] = NULL;
	json_object_put(proc);
	for (int i = id_at + 1; i < k; i++)
		if (!av[i])
			return sw_error_set(err, ENOMEM, "out of memory");
	*ret_argv = av;
	return 0;
}

int rt_cmd_exec(struct rt_cmd *c)
{
	struct sw_error err = { 0 };
	cleanup_free char *bundle = NULL;
	cleanup_close int sysward = -1, policy = -1;
	const char *id;
	struct rt_args a;
	bool ours = false;
	pid_t init = 0;
	int r, code, preserved = 0, keep;

	r = rt_args_scan(exec_flags, false, c->argc, c->argv, c->cmd_at + 1,
			 &a, &err);
	if (r < 0)
		return fail("", &err);
	/* No container, or help: the delegate says what it says. */
	if (rt_args_find(&a, F_HELP) >= 0 || a.n_pos == 0)
		return rt_pass_through(c);
	id = c->argv[a.pos[0]];
	r = container_state(c, id, &ours, &bundle, &init, &code, &err);
	if (r < 0)
		return fail(id, &err);
	if (code)
		return code;
	if (!ours)
		return rt_pass_through(c);
	/* Neither a FILE nor a PROGRAM: the delegate refuses it. */
	if (rt_args_find(&a, F_PROCESS) < 0 && a.pos[0] + 1 >= c->argc)
		return rt_pass_through(c);
	/* runc's exec passes no LISTEN_FDS: stdio and --preserve-fds. */
	r = rt_preserve_count(rt_args_value(&a, F_PRESERVE_FDS), &preserved, &err);
	keep = 3 + preserved;
	if (r >= 0 && init <= 0)
		r = sw_error_set(&err, ESRCH, "the delegate's state of the container names no process 1");
	if (r >= 0)
		r = rt_policy_of_init(init, &policy, &err);
	if (r >= 0)
		r = rt_open_sysward(c->config->sysward, &sysward, &err);
	if (r >= 0 && rt_args_find(&a, F_PROCESS) >= 0) {
		r = wrap_process_file(c, &a, id, keep, &err);
	} else if (r >= 0) {
		char **av = NULL;

		r = wrap_command_line(c, &a, bundle, keep, &av, &err);
		if (r >= 0) {
			c->argv = av;
			c->argc = a.pos[0] + 1;
			while (av[c->argc])
				c->argc++;
		}
	}
	if (r >= 0)
		r = rt_handoff_argv(c, &a, F_PRESERVE_FDS, preserved, &err);
	if (r >= 0)
		r = rt_handoff_place(&sysward, &policy, keep, &err);
	if (r < 0)
		return fail(id, &err);
	return rt_pass_through(c);
}
