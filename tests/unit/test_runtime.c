// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward-runtime's pure parts (runtime/cli.c, runtime/spec.c), table by
 * table, with no container and no kernel: where runc's command line puts
 * the bundle and the container, which bundles ask for sysward, and what
 * wrapping and unwrapping a config.json does.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "runtime.h"

/* ------------------------------------------------------------------ cli */

enum { F_BUNDLE = 1, F_PID, F_DETACH, F_CAP };

static const struct rt_flag create_like[] = {
	{ "bundle,b", true, F_BUNDLE },
	{ "pid-file", true, F_PID },
	{ "detach,d", false, F_DETACH },
	{ "cap,c", true, F_CAP },
	{ "no-pivot", false, 0 },
	{ NULL, false, 0 }
};

static const struct {
	const char *args;	/* space-separated, after the command */
	bool reorder;
	int code;		/* 0 or the negative errno */
	const char *bundle;	/* expected value, NULL: none */
	const char *first;	/* the first positional argument */
	int n_pos;
} scans[] = {
	{ "ID", true, 0, NULL, "ID", 1 },
	{ "--bundle B ID", true, 0, "B", "ID", 1 },
	{ "-b B ID", true, 0, "B", "ID", 1 },
	{ "--bundle=B ID", true, 0, "B", "ID", 1 },
	{ "-bundle B ID", true, 0, "B", "ID", 1 },		/* Go's one dash */
	{ "ID --bundle B", true, 0, "B", "ID", 1 },		/* urfave/cli 1 */
	{ "--pid-file -x ID", true, 0, NULL, "ID", 1 },		/* a value */
	{ "-d ID", true, 0, NULL, "ID", 1 },
	{ "--detach=true ID", true, 0, NULL, "ID", 1 },
	{ "--no-pivot -b B -- -ID", true, 0, "B", "-ID", 1 },
	{ "--bundle", true, -EINVAL, NULL, NULL, 0 },
	{ "--nope ID", true, -EINVAL, NULL, NULL, 0 },
	/* exec: the first positional argument ends ours. */
	{ "-c CAP_KILL ID prog --bundle X", false, 0, NULL, "ID", 1 },
	{ "ID -b B", false, 0, NULL, "ID", 1 },
};

START_TEST(test_scan)
{
	char buf[256], *argv[32];
	int argc = 0;
	struct rt_args a;
	struct sw_error err = { 0 };
	int r;

	snprintf(buf, sizeof(buf), "%s", scans[_i].args);
	argv[argc++] = "create";
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	r = rt_args_scan(create_like, scans[_i].reorder, argc, argv, 1, &a, &err);
	ck_assert_msg(r == scans[_i].code, "%s: %d, expected %d (%s)",
		      scans[_i].args, r, scans[_i].code, err.msg);
	if (r < 0)
		return;
	ck_assert_int_eq(a.n_pos, scans[_i].n_pos);
	ck_assert_str_eq(argv[a.pos[0]], scans[_i].first);
	if (scans[_i].bundle)
		ck_assert_str_eq(rt_args_value(&a, F_BUNDLE), scans[_i].bundle);
	else
		ck_assert_ptr_null(rt_args_value(&a, F_BUNDLE));
}
END_TEST

START_TEST(test_scan_positions)
{
	/* Where an option and its value are, to replace --process FILE. */
	char *argv[] = { "exec", "--cap", "CAP_KILL", "--pid-file=P", "ID", "x", NULL };
	struct rt_args a;
	struct sw_error err = { 0 };
	int i;

	ck_assert_int_eq(rt_args_scan(create_like, false, 6, argv, 1, &a, &err), 0);
	i = rt_args_find(&a, F_CAP);
	ck_assert_int_eq(a.seen[i].at, 1);
	ck_assert_int_eq(a.seen[i].value_at, 2);
	i = rt_args_find(&a, F_PID);
	ck_assert_int_eq(a.seen[i].at, 3);
	ck_assert_int_eq(a.seen[i].value_at, 3);
	ck_assert_str_eq(a.seen[i].value, "P");
	ck_assert_int_eq(a.pos[0], 4);
}
END_TEST

/* ------------------------------------------------------------------ spec */

static json_object *parse(const char *text)
{
	json_object *o = NULL;
	struct sw_error err = { 0 };

	ck_assert_msg(rt_json_parse(text, strlen(text), "test", &o, &err) == 0,
		      "%s", err.msg);
	return o;
}

static const struct {
	const char *spec;
	int code;
	enum rt_source source;
	const char *message;
} sources[] = {
	{ "{}", 0, RT_SOURCE_NONE, NULL },
	{ "{\"annotations\": {\"io.sysward.policy\": \"p\"}}", 0,
	  RT_SOURCE_ANNOTATION, NULL },
	{ "{\"annotations\": {\"io.sysward.policy\": \"\"}}", -EINVAL,
	  RT_SOURCE_NONE, "expected the path or the name" },
	{ "{\"annotations\": {\"io.sysward.policy\": 3}}", -EINVAL,
	  RT_SOURCE_NONE, "expected the path or the name" },
	/* A Docker profile: runc enforces it. */
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\","
	  " \"syscalls\": [{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\","
	  " \"args\": [], \"comment\": \"\", \"includes\": {}, \"excludes\": {}}]}}}",
	  0, RT_SOURCE_NONE, NULL },
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\","
	  " \"syscalls\": [{\"names\": [\"getuid\"], \"action\": \"SYSWARD_ACT_EMULATE\","
	  " \"return\": 0}]}}}", 0, RT_SOURCE_SECCOMP, NULL },
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SYSWARD_ACT_LOG\"}}}",
	  0, RT_SOURCE_SECCOMP, NULL },
	/* runc would drop "paths" and deny every openat. */
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\","
	  " \"syscalls\": [{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\","
	  " \"paths\": [{\"index\": 1, \"prefix\": \"/etc/\"}]}]}}}",
	  0, RT_SOURCE_SECCOMP, NULL },
	/* runc drops "filesystem" and "network" unread: the program would
	 * get every file and port. */
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\","
	  " \"filesystem\": {\"paths\": [{\"path\": \"/\", \"access\": \"ro\"}]}}}}",
	  0, RT_SOURCE_SECCOMP, NULL },
	{ "{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\","
	  " \"network\": {\"tcp\": {\"connect\": [443]}}}}}",
	  0, RT_SOURCE_SECCOMP, NULL },
	/* Keys runc reads as ours (Go folds case, and U+017F to 's'). */
	{ "{\"Process\": {}, \"annotations\": {\"io.sysward.policy\": \"p\"}}",
	  -EINVAL, RT_SOURCE_NONE, "\"Process\": runc reads it as \"process\"" },
	{ "{\"proce\xc5\xbfs\": {}, \"annotations\": {\"io.sysward.policy\": \"p\"}}",
	  -EINVAL, RT_SOURCE_NONE, "runc reads it as \"process\"" },
	{ "{\"process\": {\"ARGS\": []}, \"annotations\": {\"io.sysward.policy\": \"p\"}}",
	  -EINVAL, RT_SOURCE_NONE, "process.\"ARGS\": runc reads it as \"args\"" },
	{ "{\"Annotations\": {\"io.sysward.policy\": \"p\"}}",
	  -EINVAL, RT_SOURCE_NONE, "runc reads it as \"annotations\"" },
	{ "{\"LINUX\": {\"seccomp\": {\"defaultAction\": \"SYSWARD_ACT_LOG\"}}}",
	  -EINVAL, RT_SOURCE_NONE, "runc reads it as \"linux\"" },
	/* Odd spelling in a bundle that asks for nothing: runc's business. */
	{ "{\"Process\": {\"args\": [\"x\"]}}", 0, RT_SOURCE_NONE, NULL },
	/* The annotation wins over a section. */
	{ "{\"annotations\": {\"io.sysward.policy\": \"p\"}, \"linux\": {\"seccomp\":"
	  " {\"defaultAction\": \"SYSWARD_ACT_LOG\"}}}", 0, RT_SOURCE_ANNOTATION, NULL },
};

START_TEST(test_source)
{
	json_object *spec = parse(sources[_i].spec);
	struct sw_error err = { 0 };
	enum rt_source s;
	const char *v;
	int r;

	r = rt_spec_source(spec, &s, &v, &err);
	ck_assert_msg(r == sources[_i].code, "%s: %d (%s)", sources[_i].spec, r,
		      err.msg);
	if (r == 0)
		ck_assert_int_eq(s, sources[_i].source);
	if (sources[_i].message)
		ck_assert_msg(strstr(err.msg, sources[_i].message), "%s", err.msg);
	json_object_put(spec);
}
END_TEST

static const char base_spec[] =
	"{\"ociVersion\": \"1.0.2\", \"x-unknown\": {\"kept\": true},"
	" \"process\": {\"args\": [\"/bin/sh\", \"-c\", \"id\"],"
	"  \"capabilities\": {\"bounding\": [\"CAP_KILL\", \"CAP_CHOWN\"],"
	"   \"effective\": [\"CAP_KILL\"], \"permitted\": [\"CAP_KILL\"],"
	"   \"ambient\": [\"CAP_NET_RAW\"], \"inheritable\": [\"CAP_NOT_A_CAP\"]}},"
	" \"mounts\": [{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"}],"
	" \"linux\": {\"namespaces\": [{\"type\": \"mount\"}, {\"type\": \"pid\"}],"
	"  \"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\"}},"
	" \"annotations\": {\"io.sysward.policy\": \"p\"}}";

static const char *args_at(json_object *spec, size_t i)
{
	json_object *p, *a;

	json_object_object_get_ex(spec, "process", &p);
	json_object_object_get_ex(p, "args", &a);
	return json_object_get_string(json_object_array_get_idx(a, i));
}

START_TEST(test_wrap_unwrap)
{
	json_object *spec = parse(base_spec), *orig = parse(base_spec);
	json_object *replaced = NULL, *m, *last, *v, *linux_o, *ann;
	struct rt_wrap w = { 5, RT_FROM_ANNOTATION };
	static const char *const want[] = {
		"/proc/self/fd/5", "run", "-q", "--policy-fd", "6", "--keep-fds",
		"5", "--no-cache", "--cap", "CAP_CHOWN,CAP_KILL,CAP_NET_RAW",
		"--kill-descendants", "--", "/bin/sh", "-c", "id", NULL
	};
	struct sw_error err = { 0 };
	const char *from;
	size_t n = 0;

	ck_assert_int_eq(rt_spec_wrap(spec, &w, &replaced, &err), 0);
	for (; want[n]; n++)
		ck_assert_str_eq(args_at(spec, n), want[n]);
	ck_assert_ptr_null(args_at(spec, n));
	/* The Docker profile handed back, gone from the spec. */
	ck_assert_ptr_nonnull(replaced);
	json_object_put(replaced);
	json_object_object_get_ex(spec, "linux", &linux_o);
	ck_assert(!json_object_object_get_ex(linux_o, "seccomp", &v));
	/* A proc mount on /proc last, the bundle's own kept before it. */
	json_object_object_get_ex(spec, "mounts", &m);
	ck_assert_int_eq(json_object_array_length(m), 2);
	last = json_object_array_get_idx(m, 1);
	ck_assert_str_eq(json_object_to_json_string_ext(last, JSON_C_TO_STRING_PLAIN |
							JSON_C_TO_STRING_NOSLASHESCAPE),
			 "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
			 "\"options\":[\"nosuid\",\"noexec\",\"nodev\"]}");
	json_object_object_get_ex(spec, "annotations", &ann);
	json_object_object_get_ex(ann, RT_ANNOTATION_MOUNTS, &v);
	ck_assert_str_eq(json_object_get_string(v), "1");

	/* Undone exactly, but for the profile the policy replaced. */
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), 0);
	ck_assert_str_eq(from, RT_FROM_ANNOTATION);
	json_object_object_get_ex(orig, "linux", &linux_o);
	json_object_object_del(linux_o, "seccomp");
	ck_assert_msg(json_object_equal(spec, orig), "%s",
		      json_object_to_json_string(spec));
	/* Not wrapped: nothing to undo. */
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), 0);
	ck_assert_ptr_null(from);
	json_object_put(spec);
	json_object_put(orig);
}
END_TEST

/* What the proc mount appended copies, and what it must come after. */
static const struct {
	const char *mounts;	/* the bundle's mounts */
	const char *appended;	/* what wrapping appends to them */
} procs_added[] = {
	/* None: a plain one. */
	{ "[]", "[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
		"\"options\":[\"nosuid\",\"noexec\",\"nodev\"]}]" },
	/* The last proc on /proc, by runc's clean path: its options. */
	{ "[{\"destination\": \"/proc\", \"type\": \"proc\", \"options\": [\"hidepid=1\"]},"
	  " {\"destination\": \"//proc/./\", \"type\": \"proc\", \"options\": [\"hidepid=2\"]}]",
	  "[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
	  "\"options\":[\"hidepid=2\"]}]" },
	{ "[{\"destination\": \"/x/../proc\", \"type\": \"proc\", \"options\": [\"subset=pid\"]},"
	  " {\"destination\": \"/proc/x\", \"type\": \"proc\", \"options\": [\"hidepid=2\"]}]",
	  "[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
	  "\"options\":[\"subset=pid\"]},"
	  "{\"destination\":\"/proc/x\",\"type\":\"proc\",\"options\":[\"hidepid=2\"]}]" },
	/* lxcfs's binds after it again; one before it was hidden already,
	 * one elsewhere stays where it is. */
	{ "[{\"destination\": \"/proc/uptime\", \"type\": \"bind\", \"source\": \"/a\"},"
	  " {\"destination\": \"proc\", \"type\": \"proc\"},"
	  " {\"destination\": \"/proc/cpuinfo\", \"type\": \"bind\", \"source\": \"/b\"},"
	  " {\"destination\": \"/procx\", \"type\": \"bind\", \"source\": \"/c\"}]",
	  "[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\","
	  "\"options\":[\"nosuid\",\"noexec\",\"nodev\"]},"
	  "{\"destination\":\"/proc/cpuinfo\",\"type\":\"bind\",\"source\":\"/b\"}]" },
};

START_TEST(test_wrap_proc)
{
	char text[2048];
	json_object *spec, *m, *want, *replaced = NULL, *v;
	struct rt_wrap w = { 3, RT_FROM_ANNOTATION };
	struct sw_error err = { 0 };
	size_t n0;
	const char *from;

	snprintf(text, sizeof(text),
		 "{\"process\": {\"args\": [\"x\"]}, \"mounts\": %s,"
		 " \"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}}",
		 procs_added[_i].mounts);
	spec = parse(text);
	json_object_object_get_ex(spec, "mounts", &m);
	n0 = json_object_array_length(m);
	ck_assert_msg(rt_spec_wrap(spec, &w, &replaced, &err) == 0, "%s", err.msg);
	want = json_tokener_parse(procs_added[_i].appended);
	ck_assert_int_eq(json_object_array_length(m), n0 + json_object_array_length(want));
	for (size_t i = 0; i < json_object_array_length(want); i++)
		ck_assert_msg(json_object_equal(json_object_array_get_idx(m, n0 + i),
						json_object_array_get_idx(want, i)),
			      "%zu: %s", i, json_object_to_json_string(m));
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), 0);
	json_object_object_get_ex(spec, "mounts", &v);
	ck_assert_int_eq(json_object_array_length(v), n0);
	json_object_put(want);
	json_object_put(spec);
}
END_TEST

static const char hooks_spec[] =
	"{\"process\": {\"args\": [\"x\"], \"capabilities\": {\"bounding\": [\"CAP_KILL\"]}},"
	" \"linux\": {\"namespaces\": [{\"type\": \"mount\"}]},"
	" \"hooks\": {\"prestart\": [{\"path\": \"/usr/bin/host-hook\"}],"
	"  \"startContainer\": [{\"path\": \"/bin/hook\", \"args\": [\"name\", \"a\", \"b\"],"
	"   \"env\": [\"A=1\"], \"timeout\": 5}, {\"path\": \"/bin/other\"}],"
	"  \"poststop\": [{\"path\": \"/usr/bin/host-hook\"}]},"
	" \"mounts\": [], \"annotations\": {}}";

START_TEST(test_wrap_hooks)
{
	json_object *spec = parse(hooks_spec), *orig = parse(hooks_spec);
	json_object *replaced = NULL, *hooks, *start, *h, *v;
	struct rt_wrap w = { 7, RT_FROM_ANNOTATION };
	struct sw_error err = { 0 };
	const char *from;

	ck_assert_msg(rt_spec_wrap(spec, &w, &replaced, &err) == 0, "%s", err.msg);
	json_object_object_get_ex(spec, "hooks", &hooks);
	json_object_object_get_ex(hooks, "startContainer", &start);
	h = json_object_array_get_idx(start, 0);
	ck_assert_str_eq(json_object_to_json_string_ext(h, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE),
			 "{\"env\":[\"A=1\"],\"timeout\":5,\"path\":\"/proc/self/fd/7\","
			 "\"args\":[\"/proc/self/fd/7\",\"run\",\"-q\",\"--policy-fd\",\"8\","
			 "\"--keep-fds\",\"7\",\"--no-cache\",\"--cap\",\"CAP_KILL\",\"--kill-descendants\","
			 "\"--\",\"/bin/hook\",\"a\",\"b\"]}");
	json_object_object_get_ex(json_object_array_get_idx(start, 1), "args", &v);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 11)), "--");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 12)), "/bin/other");
	ck_assert_ptr_null(json_object_array_get_idx(v, 13));
	/* The runtime's own hooks as they were. */
	json_object_object_get_ex(hooks, "prestart", &v);
	ck_assert_str_eq(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE),
			 "[{\"path\":\"/usr/bin/host-hook\"}]");
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), 0);
	ck_assert_msg(json_object_equal(spec, orig), "%s", json_object_to_json_string(spec));
	json_object_put(spec);
	json_object_put(orig);
}
END_TEST

static const struct {
	const char *spec;
	const char *message;
} wrap_refused[] = {
	{ "{\"process\": {\"args\": [\"x\"]}, \"hooks\": {\"createContainer\":"
	  " [{\"path\": \"/usr/bin/h\"}]}, \"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}}",
	  "hooks.createContainer: such a hook runs in the container's namespaces" },
	{ "{\"process\": {\"args\": [\"x\"]}, \"linux\": {\"namespaces\": [{\"type\": \"pid\"}]}}",
	  "a container under sysward needs a mount namespace" },
	{ "{\"process\": {\"args\": [\"x\"]}, \"hooks\": {\"startContainer\":"
	  " [{\"path\": \"hook\"}]}, \"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}}",
	  "hooks.startContainer[0].path: expected an absolute path" },
	{ "{\"process\": {\"args\": [\"x\"]}, \"hooks\": {\"startContainer\":"
	  " [{\"path\": \"/h\", \"args\": [\"h\", 3]}]}, \"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}}",
	  "hooks.startContainer[0].args[1]: expected a string" },
	/* runc reads them as the hooks it reads. */
	{ "{\"process\": {\"args\": [\"x\"]}, \"Hooks\": {}, \"annotations\": {\"io.sysward.policy\": \"p\"}}",
	  "runc reads it as \"hooks\"" },
	{ "{\"process\": {\"args\": [\"x\"]}, \"hooks\": {\"CreateContainer\": []},"
	  " \"annotations\": {\"io.sysward.policy\": \"p\"}}",
	  "hooks.\"CreateContainer\": runc reads it as \"createContainer\"" },
};

START_TEST(test_wrap_refused)
{
	json_object *spec = parse(wrap_refused[_i].spec), *replaced = NULL;
	struct rt_wrap w = { 3, RT_FROM_ANNOTATION };
	struct sw_error err = { 0 };
	enum rt_source src;
	const char *v;
	int r;

	r = rt_spec_source(spec, &src, &v, &err);
	if (r == 0)
		r = rt_spec_wrap(spec, &w, &replaced, &err);
	ck_assert_int_lt(r, 0);
	ck_assert_msg(strstr(err.msg, wrap_refused[_i].message), "%s", err.msg);
	json_object_put(replaced);
	json_object_put(spec);
}
END_TEST

START_TEST(test_unwrap_tampered)
{
	json_object *spec = parse(
		"{\"process\": {\"args\": [\"/bin/sh\"]}, \"annotations\":"
		" {\"io.sysward.runtime.wrapped\": \"annotation\"}}");
	struct sw_error err = { 0 };
	const char *from;

	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "no longer start with sysward's"), "%s", err.msg);
	json_object_put(spec);
	spec = parse("{\"process\": {\"args\": [\"x\"]}, \"annotations\":"
		     " {\"io.sysward.runtime.wrapped\": \"other\"}}");
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), -EINVAL);
	json_object_put(spec);
	/* A descriptor path that is not one prefix() writes. */
	spec = parse("{\"process\": {\"args\": [\"/proc/self/fd/5x\", \"run\", \"-q\","
		     " \"--policy-fd\", \"6\", \"--keep-fds\", \"5\", \"--\", \"x\"]},"
		     " \"annotations\": {\"io.sysward.runtime.wrapped\": \"annotation\","
		     " \"io.sysward.runtime.mounts\": \"0\"}}");
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "no longer start with sysward's"), "%s", err.msg);
	json_object_put(spec);
	/* More mounts to take back than there are. */
	spec = parse("{\"process\": {\"args\": [\"/proc/self/fd/5\", \"run\", \"-q\","
		     " \"--policy-fd\", \"6\", \"--keep-fds\", \"5\", \"--\", \"x\"]},"
		     " \"mounts\": [], \"annotations\": {\"io.sysward.runtime.wrapped\": \"annotation\","
		     " \"io.sysward.runtime.mounts\": \"1\"}}");
	ck_assert_int_eq(rt_spec_unwrap(spec, &from, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "annotations.io.sysward.runtime.mounts"), "%s", err.msg);
	json_object_put(spec);
}
END_TEST

/* The paths runc reads relative to the bundle, made absolute for a spec
 * handed over from another directory; nothing else touched. */
static const struct {
	const char *spec, *want;
} rebases[] = {
	{ "{\"root\": {\"path\": \"rootfs\"}}",
	  "{\"root\": {\"path\": \"/b/rootfs\"}}" },
	{ "{\"root\": {\"path\": \"/srv/r\", \"readonly\": true}}",
	  "{\"root\": {\"path\": \"/srv/r\", \"readonly\": true}}" },
	{ "{\"mounts\": [{\"destination\": \"/d\", \"type\": \"bind\", \"source\": \"data\"},"
	  " {\"destination\": \"/e\", \"source\": \"e\", \"options\": [\"rbind\", \"ro\"]},"
	  " {\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"},"
	  " {\"destination\": \"/t\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", \"options\": [\"nosuid\"]},"
	  " {\"destination\": \"/a\", \"type\": \"bind\", \"source\": \"/abs\"}]}",
	  "{\"mounts\": [{\"destination\": \"/d\", \"type\": \"bind\", \"source\": \"/b/data\"},"
	  " {\"destination\": \"/e\", \"source\": \"/b/e\", \"options\": [\"rbind\", \"ro\"]},"
	  " {\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"},"
	  " {\"destination\": \"/t\", \"type\": \"tmpfs\", \"source\": \"tmpfs\", \"options\": [\"nosuid\"]},"
	  " {\"destination\": \"/a\", \"type\": \"bind\", \"source\": \"/abs\"}]}" },
	{ "{}", "{}" },
};

START_TEST(test_rebase)
{
	json_object *spec = parse(rebases[_i].spec), *want = parse(rebases[_i].want);
	struct sw_error err = { 0 };

	ck_assert_int_eq(rt_spec_rebase(spec, "/b", &err), 0);
	ck_assert_msg(json_object_equal(spec, want), "%s",
		      json_object_to_json_string(spec));
	json_object_put(spec);
	json_object_put(want);
}
END_TEST

static const struct {
	const char *spec;
	bool new_pid_ns;
} pidns[] = {
	{ "{}", false },
	{ "{\"linux\": {\"namespaces\": [{\"type\": \"pid\"}]}}", true },
	{ "{\"linux\": {\"namespaces\": [{\"type\": \"pid\", \"path\": \"/proc/1/ns/pid\"}]}}", false },
	{ "{\"linux\": {\"namespaces\": [{\"type\": \"network\"}]}}", false },
};

START_TEST(test_pidns)
{
	json_object *spec = parse(pidns[_i].spec);

	ck_assert_int_eq(rt_spec_new_pid_ns(spec), pidns[_i].new_pid_ns);
	json_object_put(spec);
}
END_TEST

static const struct {
	const char *process;
	const char *extra;
	const char *message;	/* NULL: wraps */
	const char *caps;	/* the --cap value, "" for none */
} procs[] = {
	{ "{\"args\": [\"x\"]}", NULL, NULL, "" },
	{ "{\"args\": [\"x\"]}", "CAP_SYS_ADMIN", NULL, "CAP_SYS_ADMIN" },
	{ "{\"args\": [\"x\"], \"capabilities\": {\"bounding\": [\"CAP_KILL\"]}}",
	  "cap_chown", NULL, "CAP_CHOWN,CAP_KILL" },
	{ "{\"args\": []}", NULL, "process.args: expected the program", NULL },
	{ "{}", NULL, "process.args: expected the program", NULL },
	{ "{\"args\": [\"x\", 1]}", NULL, "process.args[1]: expected a string", NULL },
};

START_TEST(test_process_wrap)
{
	json_object *p = parse(procs[_i].process);
	const char *extra[] = { procs[_i].extra };
	struct sw_error err = { 0 };
	int r;

	r = rt_process_wrap(p, extra, procs[_i].extra ? 1 : 0, false, 3, &err);
	if (procs[_i].message) {
		ck_assert_int_eq(r, -EINVAL);
		ck_assert_msg(strstr(err.msg, procs[_i].message), "%s", err.msg);
	} else {
		json_object *a;
		const char *s;

		ck_assert_int_eq(r, 0);
		json_object_object_get_ex(p, "args", &a);
		ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 7)),
				 "--no-cache");
		s = json_object_get_string(json_object_array_get_idx(a, 8));
		if (*procs[_i].caps) {
			ck_assert_str_eq(s, "--cap");
			ck_assert_str_eq(json_object_get_string(
				json_object_array_get_idx(a, 9)), procs[_i].caps);
		} else {
			ck_assert_str_eq(s, "--");
		}
	}
	json_object_put(p);
}
END_TEST

START_TEST(test_json_parse_errors)
{
	static const char *const bad[] = { "{", "[]", "{} x", "{\"a\": }" };
	struct sw_error err = { 0 };
	json_object *o;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(rt_json_parse(bad[i], strlen(bad[i]), "c.json",
					       &o, &err), -EINVAL);
		ck_assert_msg(strncmp(err.msg, "c.json: ", 8) == 0, "%s", err.msg);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *t = tcase_create("cli");

	tcase_add_loop_test(t, test_scan, 0, sizeof(scans) / sizeof(scans[0]));
	tcase_add_test(t, test_scan_positions);
	suite_add_tcase(s, t);
	t = tcase_create("spec");
	tcase_add_loop_test(t, test_source, 0, sizeof(sources) / sizeof(sources[0]));
	tcase_add_test(t, test_wrap_unwrap);
	tcase_add_loop_test(t, test_wrap_proc, 0, sizeof(procs_added) / sizeof(procs_added[0]));
	tcase_add_test(t, test_wrap_hooks);
	tcase_add_loop_test(t, test_wrap_refused, 0, sizeof(wrap_refused) / sizeof(wrap_refused[0]));
	tcase_add_test(t, test_unwrap_tampered);
	tcase_add_loop_test(t, test_rebase, 0, sizeof(rebases) / sizeof(rebases[0]));
	tcase_add_loop_test(t, test_pidns, 0, sizeof(pidns) / sizeof(pidns[0]));
	tcase_add_loop_test(t, test_process_wrap, 0, sizeof(procs) / sizeof(procs[0]));
	tcase_add_test(t, test_json_parse_errors);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return sw_check_run(suite());
}
