// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * features: the delegate's JSON (runtime-spec features.md), and what we
 * add to it: sysward's actions in linux.seccomp.actions (we accept them
 * there), and our version, delegate and annotation under "annotations",
 * where the format keeps what an implementation wants to say.  If the
 * delegate fails or prints something else, that is passed on unchanged.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "runtime.h"

#ifndef SYSWARD_VERSION
#define SYSWARD_VERSION "unknown"
#endif

static void add_actions(json_object *spec)
{
	static const char *const ours[] = {
		"SYSWARD_ACT_SKIP", "SYSWARD_ACT_EMULATE", "SYSWARD_ACT_REWRITE",
		"SYSWARD_ACT_LOG",
	};
	json_object *linux_o, *seccomp, *actions;

	if (!json_object_object_get_ex(spec, "linux", &linux_o) ||
	    !json_object_object_get_ex(linux_o, "seccomp", &seccomp) ||
	    !json_object_object_get_ex(seccomp, "actions", &actions) ||
	    !json_object_is_type(actions, json_type_array))
		return;
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		json_object_array_add(actions, json_object_new_string(ours[i]));
}

int rt_cmd_features(struct rt_cmd *c)
{
	const char *args[] = { "features", NULL };
	struct sw_error err = { 0 };
	cleanup_free char *out = NULL;
	json_object *f = NULL, *ann;
	const char *delegate = "?";
	int status, r;

	/* features --help and the like: the delegate's. */
	if (c->argc > c->cmd_at + 1)
		return rt_pass_through(c);
	r = rt_delegate_run(c->config, c->argv, c->cmd_at - 1, args, 1u << 20,
			    &out, &status, &err);
	if (r < 0) {
		rt_log(RT_ERROR, "features: %s", err.msg);
		return RT_EXIT_FAIL;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    rt_json_parse(out, strlen(out), "features", &f, &err) < 0) {
		fputs(out, stdout);
		return WIFEXITED(status) ? WEXITSTATUS(status) : RT_EXIT_FAIL;
	}
	add_actions(f);
	if (!json_object_object_get_ex(f, "annotations", &ann) ||
	    !json_object_is_type(ann, json_type_object)) {
		ann = json_object_new_object();
		json_object_object_add(f, "annotations", ann);
	}
	rt_config_delegate(c->config, &delegate, &err);
	json_object_object_add(ann, "io.sysward.runtime.version",
			       json_object_new_string(SYSWARD_VERSION));
	json_object_object_add(ann, "io.sysward.runtime.delegate",
			       json_object_new_string(delegate));
	json_object_object_add(ann, "io.sysward.runtime.policy-annotation",
			       json_object_new_string(RT_ANNOTATION_POLICY));
	printf("%s\n", rt_json_text(f, NULL));
	json_object_put(f);
	return 0;
}
