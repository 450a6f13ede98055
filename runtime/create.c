// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * create and run: when the bundle asks for sysward, hand the delegate a
 * bundle of our own (RT_PRIVATE_PREFIX+id in the bundle) whose
 * config.json runs the container's process 1 as sysward running the
 * bundle's process under the policy, and the command line otherwise
 * unchanged.  The bundle's own config.json is never rewritten: a later
 * plain "runc run" of it runs as the bundle says, without sysward.  Any
 * failure on the way fails the command before the delegate runs: a
 * bundle that asks for sysward never runs without it.
 *
 * restore: refused for such a bundle.  CRIU does not checkpoint a traced
 * process tree, so no checkpoint holds a confined container, and the
 * processes of another container's checkpoint would run unconfined.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/limits.h"
#include "runtime.h"

enum { F_BUNDLE = 1, F_CONFIG, F_HELP, F_PRESERVE_FDS, F_CONSOLE_SOCKET,
       F_PIDFD_SOCKET };

/* runc's create and run options (and restore's, for --bundle), with
 * crun's additions; see cli.c for how they are read. */
static const struct rt_flag create_flags[] = {
	{ "bundle,b", true, F_BUNDLE },
	{ "console-socket", true, F_CONSOLE_SOCKET },
	{ "pidfd-socket", true, F_PIDFD_SOCKET },
	{ "pid-file", true, 0 },
	{ "no-pivot", false, 0 },
	{ "no-new-keyring", false, 0 },
	{ "preserve-fds", true, F_PRESERVE_FDS },
	{ "detach,d", false, 0 },		/* run */
	{ "keep", false, 0 },			/* run */
	{ "no-subreaper", false, 0 },		/* run, restore */
	/* crun: the spec from another file than the bundle's config.json */
	{ "config,f", true, F_CONFIG },
	{ "help,h", false, F_HELP },
	{ NULL, false, 0 }
};

static const struct rt_flag restore_flags[] = {
	{ "bundle,b", true, F_BUNDLE },
	{ "console-socket", true, 0 },
	{ "image-path", true, 0 },
	{ "work-path", true, 0 },
	{ "parent-path", true, 0 },
	{ "leave-running", false, 0 },
	{ "tcp-established", false, 0 },
	{ "ext-unix-sk", false, 0 },
	{ "shell-job", false, 0 },
	{ "file-locks", false, 0 },
	{ "manage-cgroups-mode", true, 0 },
	{ "detach,d", false, 0 },
	{ "pid-file", true, 0 },
	{ "no-subreaper", false, 0 },
	{ "no-pivot", false, 0 },
	{ "empty-ns", true, 0 },
	{ "auto-dedup", false, 0 },
	{ "lazy-pages", false, 0 },
	{ "status-fd", true, 0 },
	{ "page-server", true, 0 },
	{ "lsm-profile", true, 0 },
	{ "lsm-mount-context", true, 0 },
	{ "help,h", false, F_HELP },
	{ NULL, false, 0 }
};

int rt_pass_through(struct rt_cmd *c)
{
	struct sw_error err = { 0 };

	rt_delegate_exec(c->config, c->argv, &err);
	rt_log(RT_ERROR, "%s", err.msg);
	return RT_EXIT_FAIL;
}

/* The container's id, for messages: the first positional argument. */
static const char *container_id(const struct rt_cmd *c, const struct rt_args *a)
{
	return a->n_pos > 0 ? c->argv[a->pos[0]] : "?";
}

static int fail(const char *cmd, const char *id, const struct sw_error *err)
{
	rt_log(RT_ERROR, "%s %s: %s", cmd, id, err->msg);
	return RT_EXIT_FAIL;
}

/* A spec read from the bundle, and the source of its policy.  One an
 * older sysward-runtime wrapped in place is unwrapped (*ret_from says
 * so), a linux.seccomp section it consumed back in it from the policy's
 * copy it kept. */
static int load_spec(struct rt_bundle *b, json_object **ret_spec,
		     enum rt_source *ret_source, const char **ret_value,
		     const char **ret_from, struct sw_error *err)
{
	json_object *spec = NULL;
	char name[4200];
	int r;

	snprintf(name, sizeof(name), "%s/config.json", b->path);
	r = rt_json_parse(b->config_text, b->config_len, name, &spec, err);
	if (r < 0)
		return r;
	r = rt_spec_unwrap(spec, ret_from, err);
	if (r < 0)
		goto fail;
	r = rt_spec_source(spec, ret_source, ret_value, err);
	if (r < 0)
		goto fail;
	if (*ret_source == RT_SOURCE_NONE && *ret_from &&
	    strcmp(*ret_from, RT_FROM_SECCOMP) == 0) {
		cleanup_free char *text = NULL;
		json_object *seccomp = NULL, *linux_o;
		size_t len;

		r = rt_bundle_read(b, RT_POLICY_COPY, SW_LIMIT_POLICY_BYTES,
				   &text, &len, err);
		if (r >= 0)
			r = rt_json_parse(text, len, RT_POLICY_COPY, &seccomp, err);
		if (r < 0) {
			sw_error_wrap(err, "restore the linux.seccomp section a previous create moved to %s",
				      RT_POLICY_COPY);
			goto fail;
		}
		if (!json_object_object_get_ex(spec, "linux", &linux_o) ||
		    !json_object_is_type(linux_o, json_type_object)) {
			linux_o = json_object_new_object();
			json_object_object_add(spec, "linux", linux_o);
		}
		json_object_object_add(linux_o, "seccomp", seccomp);
		*ret_source = RT_SOURCE_SECCOMP;
	}
	*ret_spec = spec;
	return 0;
fail:
	json_object_put(spec);
	return r;
}

/* The policy's text, and a name for it in messages. */
static int policy_text(struct rt_cmd *c, json_object *spec,
		       enum rt_source source, const char *value,
		       char **ret_text, size_t *ret_len, char **ret_name,
		       struct sw_error *err)
{
	json_object *linux_o, *seccomp;
	const char *text;
	size_t len;

	if (source == RT_SOURCE_ANNOTATION)
		return rt_source_annotation(c->config, value, ret_text, ret_len,
					    ret_name, err);
	if (!json_object_object_get_ex(spec, "linux", &linux_o) ||
	    !json_object_object_get_ex(linux_o, "seccomp", &seccomp))
		return sw_error_set(err, EINVAL, "linux.seccomp: missing");
	text = rt_json_text(seccomp, &len);
	*ret_text = strndup(text, len);
	*ret_len = len;
	*ret_name = strdup("config.json: linux.seccomp");
	if (!*ret_text || !*ret_name)
		return sw_error_set(err, ENOMEM, "out of memory");
	return 0;
}

static int count_rules(json_object *seccomp)
{
	json_object *rules;

	if (!json_object_object_get_ex(seccomp, "syscalls", &rules) ||
	    !json_object_is_type(rules, json_type_array))
		return 0;
	return (int)json_object_array_length(rules);
}

/* The descriptors a create hands the delegate (handoff.c). */
struct handoff {
	int sysward;
	int policy;
	int keep;
};

/*
 * Write our bundle's config.json, the bundle's process under sysward,
 * and open what process 1 gets: every check (policy, binary, kernel)
 * before anything is written.  *ret_dir: our bundle's path.
 */
static int wrap_bundle(struct rt_cmd *c, struct rt_bundle *b, json_object *spec,
		       enum rt_source source, const char *value, const char *id,
		       struct handoff *h, char **ret_dir, struct sw_error *err)
{
	cleanup_free char *text = NULL, *name = NULL;
	struct rt_bundle own = { .fd = -1 };
	json_object *replaced = NULL;
	struct rt_wrap w;
	const char *out;
	size_t len, out_len;
	bool needs;
	int r;

	r = policy_text(c, spec, source, value, &text, &len, &name, err);
	if (r < 0)
		return r;
	r = rt_source_validate(text, len, name, &needs, err);
	if (r < 0)
		return r;
	r = rt_open_sysward(c->config->sysward, &h->sysward, err);
	if (r < 0)
		return r;
	r = rt_source_kernel_check(needs, err);
	if (r < 0)
		return r;
	r = rt_memfd("sysward-policy", text, len, true, &h->policy, err);
	if (r < 0)
		return r;
	w = (struct rt_wrap){
		.keep = h->keep,
		.from = source == RT_SOURCE_ANNOTATION ? RT_FROM_ANNOTATION
						       : RT_FROM_SECCOMP,
	};
	r = rt_spec_wrap(spec, &w, &replaced, err);
	if (r < 0)
		return r;
	if (replaced && source == RT_SOURCE_ANNOTATION) {
		json_object *da = NULL;

		json_object_object_get_ex(replaced, "defaultAction", &da);
		rt_log(RT_INFO,
		       "%s: the bundle's linux.seccomp (%d rules, defaultAction %s) is replaced by the policy %s, which the container's processes run under instead",
		       id, count_rules(replaced),
		       da ? json_object_get_string(da) : "none", name);
	}
	json_object_put(replaced);
	r = rt_spec_rebase(spec, b->path, err);
	if (r >= 0)
		r = rt_bundle_private(b, id, &own, err);
	if (r < 0)
		return r;
	out = rt_json_text(spec, &out_len);
	r = rt_bundle_write(&own, "config.json", out, out_len, &b->config_meta, err);
	if (r >= 0) {
		rt_log(RT_INFO, "%s: process 1 is sysward (descriptor %d), under the policy %s (%s, descriptor %d), from the bundle %s",
		       id, h->keep, name, w.from, h->keep + 1, own.path);
		*ret_dir = TAKE_PTR(own.path);
	}
	rt_bundle_close(&own);
	return r;
}

/* A relative --console-socket or --pidfd-socket names a path in the
 * bundle's directory (runc chdir()s into the bundle before it connects):
 * made absolute, as our bundle is elsewhere. */
static int rebase_socket(struct rt_cmd *c, struct rt_args *a, int id,
			 const char *name, const char *dir, struct sw_error *err)
{
	const char *v = rt_args_value(a, id);
	char *abs;

	if (!v || !*v || v[0] == '/')
		return 0;
	if (asprintf(&abs, "%s/%s", dir, v) < 0)
		return sw_error_set(err, ENOMEM, "out of memory");
	/* argv keeps it until the delegate is executed. */
	return rt_args_set(c, a, id, name, abs, err);
}

int rt_cmd_create(struct rt_cmd *c)
{
	const char *cmd = c->argv[c->cmd_at], *bundle, *id, *value, *from;
	struct rt_bundle b = { .fd = -1 };
	struct handoff h = { .sysward = -1, .policy = -1 };
	struct sw_error err = { 0 };
	enum rt_source source = RT_SOURCE_NONE;
	json_object *spec = NULL;
	char *own = NULL;	/* our bundle: kept by argv until the exec */
	struct rt_args a;
	int r, preserved = 0, listen;

	r = rt_args_scan(create_flags, true, c->argc, c->argv, c->cmd_at + 1,
			 &a, &err);
	if (r < 0)
		return fail(cmd, "", &err);
	if (rt_args_find(&a, F_HELP) >= 0)
		return rt_pass_through(c);
	id = container_id(c, &a);
	if (rt_args_find(&a, F_CONFIG) >= 0) {
		/* crun reads another file than the one we would rewrite:
		 * refuse rather than guess (we cannot tell whether it asks
		 * for sysward without reading it, and it may be anywhere). */
		sw_error_set(&err, EINVAL,
			     "--config is not supported by sysward-runtime: give the spec as the bundle's config.json");
		return fail(cmd, id, &err);
	}
	bundle = rt_args_value(&a, F_BUNDLE);
	if (!bundle || !*bundle)
		bundle = ".";
	r = rt_bundle_open(bundle, &b, &err);
	if (r >= 0)
		r = load_spec(&b, &spec, &source, &value, &from, &err);
	if (r >= 0 && from) {
		/* An older sysward-runtime wrapped it in place: write it
		 * back as the bundle's own, the policy's copy it kept now
		 * in it. */
		size_t len;
		const char *text = rt_json_text(spec, &len);

		r = rt_bundle_write(&b, "config.json", text, len,
				    &b.config_meta, &err);
		if (r >= 0 && unlinkat(b.fd, RT_POLICY_COPY, 0) < 0 && errno != ENOENT)
			r = sw_error_set_errno(&err, errno, "remove %s/%s", b.path,
					       RT_POLICY_COPY);
	}
	if (r >= 0 && source != RT_SOURCE_NONE) {
		/* After what the delegate passes on: as runc counts it. */
		listen = rt_listen_fds();
		r = listen < 0 ? sw_error_set(&err, E2BIG, "LISTEN_FDS: more than %d descriptors",
					      RT_MAX_PRESERVE)
			       : rt_preserve_count(rt_args_value(&a, F_PRESERVE_FDS),
						   &preserved, &err);
		h.keep = 3 + listen + preserved;
		if (r >= 0)
			r = wrap_bundle(c, &b, spec, source, value, id, &h, &own, &err);
		if (r >= 0)
			r = rebase_socket(c, &a, F_CONSOLE_SOCKET, "console-socket", b.path, &err);
		if (r >= 0)
			r = rebase_socket(c, &a, F_PIDFD_SOCKET, "pidfd-socket", b.path, &err);
		if (r >= 0)
			r = rt_args_set(c, &a, F_BUNDLE, "bundle", own, &err);
	}
	json_object_put(spec);
	rt_bundle_close(&b);
	/* Last: nothing of ours is open any more that a slot could be. */
	if (r >= 0 && source != RT_SOURCE_NONE)
		r = rt_handoff_argv(c, &a, F_PRESERVE_FDS, preserved, &err);
	if (r >= 0 && source != RT_SOURCE_NONE)
		r = rt_handoff_place(&h.sysward, &h.policy, h.keep, &err);
	if (h.sysward >= 0)
		close(h.sysward);
	if (h.policy >= 0)
		close(h.policy);
	if (r < 0)
		return fail(cmd, id, &err);
	return rt_pass_through(c);
}

int rt_cmd_restore(struct rt_cmd *c)
{
	const char *bundle, *value, *from;
	struct rt_bundle b = { .fd = -1 };
	struct sw_error err = { 0 };
	enum rt_source source = RT_SOURCE_NONE;
	json_object *spec = NULL;
	struct rt_args a;
	int r;

	r = rt_args_scan(restore_flags, true, c->argc, c->argv, c->cmd_at + 1,
			 &a, &err);
	if (r < 0)
		return fail("restore", "", &err);
	if (rt_args_find(&a, F_HELP) >= 0)
		return rt_pass_through(c);
	bundle = rt_args_value(&a, F_BUNDLE);
	if (!bundle || !*bundle)
		bundle = ".";
	r = rt_bundle_open(bundle, &b, &err);
	if (r >= 0)
		r = load_spec(&b, &spec, &source, &value, &from, &err);
	json_object_put(spec);
	rt_bundle_close(&b);
	if (r >= 0 && (source != RT_SOURCE_NONE || from))
		r = sw_error_set(&err, EOPNOTSUPP,
				 "the bundle asks for sysward, and a container under sysward cannot be restored: CRIU does not checkpoint traced processes, and another checkpoint's processes would run unconfined");
	if (r < 0)
		return fail("restore", container_id(c, &a), &err);
	return rt_pass_through(c);
}
