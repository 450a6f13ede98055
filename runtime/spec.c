// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The JSON side of the runtime, with no system call: whether a bundle
 * asks for sysward, and the config.json (or exec process) that runs its
 * processes under sysward.  Table-tested in tests/unit/test_runtime.c.
 *
 * A wrapped config.json differs from the bundle's own in these places,
 * and nowhere else (every other member, known to us or not, is kept):
 *   process.args   /proc/self/fd/K run -q --policy-fd K+1 --keep-fds K
 *                  --no-cache [--cap CAPS] [--kill-descendants] -- ARGS...
 *                  (K: handoff.c's descriptors, for this create)
 *   mounts         + a proc mount on /proc, last (and copies of the
 *                  bundle's mounts below /proc after it)
 *   hooks.startContainer   each under sysward, as process.args
 *   linux.seccomp  removed: the policy is the container's filter
 *   annotations    + io.sysward.runtime.wrapped: where the policy came
 *                  from; .mounts: how many mounts were appended;
 *                  .start-hooks: the startContainer hooks as they were
 * and rt_spec_unwrap() undoes exactly that.  A createContainer hook is
 * refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "sysward/policy.h"
#include "runtime.h"

/* Deeper than any config.json (about 8 levels) and any policy. */
#define RT_JSON_DEPTH 64

/* JSON text of type want (an object, an array). */
static int parse_typed(const char *text, size_t len, const char *name,
		       json_type want, json_object **ret, struct sw_error *err)
{
	struct json_tokener *tok = json_tokener_new_ex(RT_JSON_DEPTH);
	enum json_tokener_error e;
	json_object *o;
	size_t end;

	if (!tok)
		return sw_error_set(err, ENOMEM, "out of memory");
	o = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || e != json_tokener_success) {
		json_object_put(o);
		return sw_error_set(err, EINVAL, "%s: not valid JSON (at byte %zu: %s)",
				    name, end,
				    e == json_tokener_continue ?
				    "the text ends too early" :
				    json_tokener_error_desc(e));
	}
	for (; end < len; end++) {
		if (!strchr(" \t\r\n", text[end])) {
			json_object_put(o);
			return sw_error_set(err, EINVAL,
					    "%s: not valid JSON (text after the object, at byte %zu)",
					    name, end);
		}
	}
	if (!json_object_is_type(o, want)) {
		json_object_put(o);
		return sw_error_set(err, EINVAL, "%s: expected a JSON %s", name,
				    want == json_type_object ? "object" : "array");
	}
	*ret = o;
	return 0;
}

int rt_json_parse(const char *text, size_t len, const char *name,
		  json_object **ret, struct sw_error *err)
{
	return parse_typed(text, len, name, json_type_object, ret, err);
}

const char *rt_json_text(json_object *o, size_t *ret_len)
{
	return json_object_to_json_string_length(o, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_SPACED |
						 JSON_C_TO_STRING_NOSLASHESCAPE,
						 ret_len);
}

/*
 * runc decodes config.json with Go's encoding/json, which matches a key
 * to a field without regard to case, by Unicode's simple folding: to runc
 * "Process", "PROCESS" and "proce\u017fs" (U+017F folds to 's', as U+212A
 * does to 'k') are all "process", and of two the later one wins.  A
 * config.json with such a key beside the one we rewrite would have runc
 * read the one we did not: refused.  (crun's parser is exact.)
 */
static bool go_fold_equal(const char *key, const char *name)
{
	const unsigned char *k = (const unsigned char *)key;

	for (; *name; name++) {
		char c;

		if (k[0] == 0xc5 && k[1] == 0xbf) {		/* U+017F */
			c = 's';
			k += 2;
		} else if (k[0] == 0xe2 && k[1] == 0x84 && k[2] == 0xaa) {
			c = 'k';				/* U+212A */
			k += 3;
		} else if (*k) {
			c = (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k);
			k++;
		} else {
			return false;
		}
		/* Names have capitals too ("createContainer"). */
		if (c != (*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name))
			return false;
	}
	return *k == '\0';
}

/* Refuse a key of o that runc reads as one of names but is not it. */
static int check_keys(json_object *o, const char *const *names,
		      const char *where, struct sw_error *err)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, key, val) {
		(void)val;
		for (size_t i = 0; names[i]; i++)
			if (strcmp(key, names[i]) != 0 && go_fold_equal(key, names[i]))
				return sw_error_set(err, EINVAL,
						    "%s\"%s\": runc reads it as \"%s\" (Go matches JSON keys without regard to case), beside the one sysward-runtime rewrites; write it \"%s\"",
						    where, key, names[i], names[i]);
	}
	return 0;
}

int rt_spec_check_keys(json_object *spec, struct sw_error *err)
{
	static const char *const top[] = {
		"process", "mounts", "annotations", "linux", "hooks", NULL };
	static const char *const hook_keys[] = {
		"startContainer", "createContainer", NULL };
	static const char *const linux_keys[] = {
		"seccomp", "namespaces", NULL };
	json_object *v;
	int r;

	r = check_keys(spec, top, "", err);
	if (r >= 0 && json_object_object_get_ex(spec, "process", &v))
		r = rt_process_check_keys(v, err);
	if (r >= 0 && json_object_object_get_ex(spec, "linux", &v))
		r = check_keys(v, linux_keys, "linux.", err);
	if (r >= 0 && json_object_object_get_ex(spec, "hooks", &v))
		r = check_keys(v, hook_keys, "hooks.", err);
	return r;
}

int rt_process_check_keys(json_object *process, struct sw_error *err)
{
	static const char *const keys[] = { "args", "capabilities", NULL };

	return check_keys(process, keys, "process.", err);
}

/* o[key] if it is of type t, else NULL. */
static json_object *member(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

static bool is_extension_action(json_object *v)
{
	return v && json_object_is_type(v, json_type_string) &&
	       sw_action_is_extension(json_object_get_string(v));
}

/* Does an OCI linux.seccomp section use what only sysward reads? */
static bool seccomp_wants_sysward(json_object *seccomp)
{
	json_object *v, *rules;

	if (json_object_object_get_ex(seccomp, "defaultAction", &v) &&
	    is_extension_action(v))
		return true;
	/* "filesystem", "network": runc would run the program without
	 * them, as it drops every key it does not know */
	json_object_object_foreach(seccomp, top, tv) {
		(void)tv;
		if (sw_policy_key_is_extension(top))
			return true;
	}
	rules = member(seccomp, "syscalls", json_type_array);
	for (size_t i = 0; rules && i < json_object_array_length(rules); i++) {
		json_object *r = json_object_array_get_idx(rules, i);

		if (!json_object_is_type(r, json_type_object))
			continue;
		json_object_object_foreach(r, key, val) {
			if (sw_rule_key_is_extension(key))
				return true;
			if (strcmp(key, "action") == 0 && is_extension_action(val))
				return true;
		}
	}
	return false;
}

/* The members of o whose key runc reads as name (exactly or by Go's
 * folding), calling fn on each until it returns nonzero. */
static int each_folded(json_object *o, const char *name,
		       int (*fn)(json_object *v, void *ud), void *ud)
{
	int r = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, key, val) {
		if (go_fold_equal(key, name) && (r = fn(val, ud)))
			return r;
	}
	return 0;
}

struct find_source {
	enum rt_source source;
	json_object *value;
};

static int seccomp_found(json_object *seccomp, void *ud)
{
	struct find_source *f = ud;

	if (json_object_is_type(seccomp, json_type_object) &&
	    seccomp_wants_sysward(seccomp))
		f->source = RT_SOURCE_SECCOMP;
	return f->source != RT_SOURCE_NONE;
}

static int linux_found(json_object *linux_o, void *ud)
{
	return each_folded(linux_o, "seccomp", seccomp_found, ud);
}

static int annotations_found(json_object *ann, void *ud)
{
	struct find_source *f = ud;
	json_object *v;

	if (!json_object_is_type(ann, json_type_object) ||
	    !json_object_object_get_ex(ann, RT_ANNOTATION_POLICY, &v))
		return 0;
	f->source = RT_SOURCE_ANNOTATION;
	f->value = v;
	return 1;
}

int rt_spec_source(json_object *spec, enum rt_source *ret,
		   const char **ret_value, struct sw_error *err)
{
	struct find_source f = { RT_SOURCE_NONE, NULL };

	*ret = RT_SOURCE_NONE;
	*ret_value = NULL;
	/* Under any key runc reads as annotations or linux.seccomp: a
	 * request for sysward is never missed; wrapping then refuses the
	 * oddly spelled key (rt_spec_check_keys()).  A bundle that asks for
	 * nothing is left alone, whatever its spelling. */
	if (!each_folded(spec, "annotations", annotations_found, &f))
		each_folded(spec, "linux", linux_found, &f);
	if (f.source == RT_SOURCE_ANNOTATION &&
	    (!json_object_is_type(f.value, json_type_string) ||
	     json_object_get_string_len(f.value) == 0))
		return sw_error_set(err, EINVAL,
				    "annotations.%s: expected the path or the name of a policy file",
				    RT_ANNOTATION_POLICY);
	*ret = f.source;
	if (f.source == RT_SOURCE_ANNOTATION)
		*ret_value = json_object_get_string(f.value);
	return f.source == RT_SOURCE_NONE ? 0 : rt_spec_check_keys(spec, err);
}

bool rt_spec_new_pid_ns(json_object *spec)
{
	json_object *ns = member(member(spec, "linux", json_type_object),
				 "namespaces", json_type_array);

	for (size_t i = 0; ns && i < json_object_array_length(ns); i++) {
		json_object *n = json_object_array_get_idx(ns, i);
		json_object *type = member(n, "type", json_type_string);
		json_object *path = member(n, "path", json_type_string);

		/* With a path it joins another's namespace, whose init is
		 * not ours. */
		if (type && strcmp(json_object_get_string(type), "pid") == 0)
			return !path || json_object_get_string_len(path) == 0;
	}
	return false;
}

/* ------------------------------------------------------------ capabilities */

/*
 * The capabilities a process of this spec holds, for sysward's --cap:
 * every capability any of its five sets names.  What the process really
 * gets from the kernel at exec is a subset (root: bounding and
 * inheritable; another uid: ambient), and sysward keeps for its program
 * only what it holds itself, so the union gives the program exactly what
 * it would have had without sysward, whatever the sets say.  A name
 * libcap does not know (a capability newer than it) is left out: sysward
 * could not name it either.
 */
static void cap_add(const char *name, uint64_t *mask)
{
	char lower[64];
	cap_value_t v;
	size_t i;

	/* libcap knows "cap_chown"; the spec writes "CAP_CHOWN". */
	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = name[i] >= 'A' && name[i] <= 'Z' ?
			   name[i] - 'A' + 'a' : name[i];
	lower[i] = '\0';
	if (cap_from_name(lower, &v) == 0 && v >= 0 && v < 64)
		*mask |= UINT64_C(1) << v;
}

static void caps_of(json_object *list, uint64_t *mask)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		json_object *c = json_object_array_get_idx(list, i);

		if (json_object_is_type(c, json_type_string))
			cap_add(json_object_get_string(c), mask);
	}
}

static uint64_t process_caps(json_object *process, const char *const *extra,
			     size_t n_extra)
{
	static const char *const sets[] = {
		"bounding", "effective", "inheritable", "permitted", "ambient",
	};
	json_object *caps = member(process, "capabilities", json_type_object);
	uint64_t mask = 0;

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		caps_of(member(caps, sets[i], json_type_array), &mask);
	for (size_t i = 0; i < n_extra; i++)
		cap_add(extra[i], &mask);
	return mask;
}

/* "CAP_CHOWN,CAP_KILL,..." in capability order; "" for none. */
static char *caps_text(uint64_t mask)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	bool first = true;

	if (!m)
		return NULL;
	for (int c = 0; c < 64; c++) {
		char *name;

		if (!(mask & (UINT64_C(1) << c)))
			continue;
		name = cap_to_name(c);
		if (!name)
			continue;
		fprintf(m, "%s", first ? "" : ",");
		/* libcap names them "cap_chown"; runc's spelling. */
		for (char *p = name; *p; p++)
			fputc(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p, m);
		cap_free(name);
		first = false;
	}
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* ------------------------------------------------------------ wrapping */

static int push(json_object *a, const char *s)
{
	json_object *v = json_object_new_string(s);

	if (!v || json_object_array_add(a, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static int push_int(json_object *a, int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", n);
	return push(a, buf);
}

/* sysward's command line into out; prefix_end() reads it back. */
static int prefix(json_object *out, int keep, const char *caps,
		  bool kill_descendants)
{
	char exe[64];
	int r = 0;

	snprintf(exe, sizeof(exe), RT_EXE_FMT, keep);
	/* -q: the policy's and --cap's warnings are for its author (sysward
	 * check), not for every start of the container, on its stderr. */
	r |= push(out, exe);
	r |= push(out, "run");
	r |= push(out, "-q");
	r |= push(out, "--policy-fd");
	r |= push_int(out, keep + 1);
	r |= push(out, "--keep-fds");
	r |= push_int(out, keep);
	/* No compiled-filter cache: it would be written in the container's
	 * own file system ($HOME/.cache/sysward there), which runc leaves
	 * as the image made it. */
	r |= push(out, "--no-cache");
	if (*caps) {
		r |= push(out, "--cap");
		r |= push(out, caps);
	}
	if (kill_descendants)
		r |= push(out, "--kill-descendants");
	r |= push(out, "--");
	return r;
}

/* An array of strings, or an error naming where. */
static int check_strings(json_object *a, const char *where,
			 struct sw_error *err)
{
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		if (!json_object_is_type(json_object_array_get_idx(a, i),
					 json_type_string))
			return sw_error_set(err, EINVAL,
					    "%s[%zu]: expected a string", where, i);
	return 0;
}

int rt_process_wrap(json_object *process, const char *const *extra_caps,
		    size_t n_extra, bool kill_descendants, int keep,
		    struct sw_error *err)
{
	json_object *args = member(process, "args", json_type_array);
	json_object *wrapped;
	char *caps;
	size_t n;
	int r = 0;

	r = rt_process_check_keys(process, err);
	if (r < 0)
		return r;
	n = args ? json_object_array_length(args) : 0;
	if (n == 0)
		return sw_error_set(err, EINVAL,
				    "process.args: expected the program to run (a non-empty array)");
	r = check_strings(args, "process.args", err);
	if (r < 0)
		return r;
	caps = caps_text(process_caps(process, extra_caps, n_extra));
	wrapped = json_object_new_array();
	if (!caps || !wrapped) {
		free(caps);
		json_object_put(wrapped);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	r |= prefix(wrapped, keep, caps, kill_descendants);
	for (size_t i = 0; i < n; i++)
		r |= push(wrapped, json_object_get_string(
					json_object_array_get_idx(args, i)));
	free(caps);
	if (r) {
		json_object_put(wrapped);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	json_object_object_add(process, "args", wrapped);
	return 0;
}

/*
 * A mount's destination as runc's proc case reads it (filepath.Clean,
 * joined to the root when relative): "/proc", "proc", "//proc/.",
 * "/x/../proc" all name /proc.  No link is followed: runc 1.1.5 does not
 * resolve a proc mount's destination in the root (rootfs_linux.go).
 */
static void clean_dest(const char *in, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	while (*in) {
		size_t n;

		while (*in == '/')
			in++;
		n = strcspn(in, "/");
		if (n == 0)
			break;
		if (n == 1 && in[0] == '.') {
			/* nothing */
		} else if (n == 2 && in[0] == '.' && in[1] == '.') {
			while (len > 0 && out[--len] != '/')
				;
			out[len] = '\0';
		} else if (len + 1 + n < size) {
			out[len++] = '/';
			memcpy(out + len, in, n);
			len += n;
			out[len] = '\0';
		}
		in += n;
	}
	if (len == 0)
		snprintf(out, size, "/");
}

static bool dest_is(json_object *m, const char *want, bool below)
{
	json_object *d = member(m, "destination", json_type_string);
	char clean[4096];
	size_t n = strlen(want);

	if (!d)
		return false;
	clean_dest(json_object_get_string(d), clean, sizeof(clean));
	return below ? strncmp(clean, want, n) == 0 && clean[n] == '/'
		     : strcmp(clean, want) == 0;
}

/*
 * The proc mount sysward is executed through (RT_EXE_FMT), on /proc, last
 * of all: runc mounts in order, then binds the masks (nothing it can
 * mask on the way gives anything but a failed exec: handoff.c), so no
 * mount of the bundle's stands between it and the exec.  It is a copy
 * of the bundle's last proc mount on /proc (its options: hidepid,
 * subset), or a plain one if it has none; a mount of the bundle's below
 * /proc after that (lxcfs's /proc/cpuinfo and the like; runc allows
 * those alone below /proc) is copied again after it.  *ret_added: how
 * many are appended.
 */
static int add_proc(json_object *mounts, size_t *ret_added,
		    struct sw_error *err)
{
	size_t n = json_object_array_length(mounts), first = 0, added = 0;
	json_object *proc = NULL, *m, *opts = NULL;
	int r = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *t;

		m = json_object_array_get_idx(mounts, i);
		t = member(m, "type", json_type_string);
		if (t && strcmp(json_object_get_string(t), "proc") == 0 &&
		    dest_is(m, "/proc", false)) {
			proc = m;
			first = i + 1;
		}
	}
	m = json_object_new_object();
	if (proc)
		json_object_object_get_ex(proc, "options", &opts);
	if (opts && json_object_is_type(opts, json_type_array)) {
		opts = json_object_get(opts);
	} else {
		opts = json_object_new_array();
		r |= push(opts, "nosuid");
		r |= push(opts, "noexec");
		r |= push(opts, "nodev");
	}
	if (!m || !opts || r) {
		json_object_put(m);
		json_object_put(opts);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	json_object_object_add(m, "destination", json_object_new_string("/proc"));
	json_object_object_add(m, "type", json_object_new_string("proc"));
	json_object_object_add(m, "source", json_object_new_string("proc"));
	json_object_object_add(m, "options", opts);
	if (json_object_array_add(mounts, m) < 0) {
		json_object_put(m);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	added++;
	for (size_t i = first; i < n; i++) {
		m = json_object_array_get_idx(mounts, i);
		if (!dest_is(m, "/proc", true))
			continue;
		if (json_object_array_add(mounts, json_object_get(m)) < 0) {
			json_object_put(m);
			return sw_error_set(err, ENOMEM, "out of memory");
		}
		added++;
	}
	*ret_added = added;
	return 0;
}

/*
 * OCI hooks (runc 1.1.5: where each kind runs, as whose child):
 *   prestart, createRuntime  runc create, on the host (the runtime's
 *                            namespaces), once the container's exist
 *                            (process_linux.go)
 *   poststart                runc start or run, on the host, once
 *                            process 1 runs (container_linux.go)
 *   poststop                 runc delete, on the host (state_linux.go)
 *   createContainer          runc init, in the container's namespaces,
 *                            with all of runc's capabilities, before
 *                            pivot_root: its path is the host's
 *                            (rootfs_linux.go prepareRootfs)
 *   startContainer           runc init, in the container, as its user
 *                            with its capabilities, after pivot_root,
 *                            just before it executes process 1: its path
 *                            is the container's (standard_init_linux.go)
 * The first four are the runtime's: programs of the operator's, on the
 * host.  The last two run in the container before process 1 is sysward,
 * outside its supervision: a startContainer hook (a program of the
 * image's) left a process in the container that nothing traced (issue
 * 32).  startContainer hooks run under a sysward of their own, as an exec
 * does, with --kill-descendants: runc waits for a hook, not for what it
 * leaves behind.  createContainer hooks are refused: they run with all
 * of runc's privileges and can change every mount, and a policy with the
 * process's capabilities would break them while one with runc's would
 * confine nothing (route 5).
 */
static int wrap_hooks(json_object *spec, json_object *ann, int keep,
		      const char *caps, struct sw_error *err)
{
	json_object *hooks = member(spec, "hooks", json_type_object);
	json_object *start, *created, *wrapped;
	size_t n;
	int r;

	if (!hooks)
		return 0;
	created = member(hooks, "createContainer", json_type_array);
	if (created && json_object_array_length(created) > 0)
		return sw_error_set(err, EPERM,
				    "hooks.createContainer: such a hook runs in the container's namespaces with all of runc's privileges before sysward is its process 1, where no policy can confine it: sysward-runtime refuses it (sysward-runtime(8), HOOKS)");
	start = member(hooks, "startContainer", json_type_array);
	n = start ? json_object_array_length(start) : 0;
	if (n == 0)
		return 0;
	wrapped = json_object_new_array();
	if (!wrapped)
		return sw_error_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_object *h = json_object_array_get_idx(start, i);
		json_object *path = member(h, "path", json_type_string);
		json_object *args = member(h, "args", json_type_array);
		json_object *nh, *na;
		char where[64], exe[64];

		snprintf(where, sizeof(where), "hooks.startContainer[%zu]", i);
		if (!path || json_object_get_string(path)[0] != '/') {
			json_object_put(wrapped);
			return sw_error_set(err, EINVAL, "%s.path: expected an absolute path", where);
		}
		strcat(where, ".args");
		r = check_strings(args, where, err);
		if (r < 0) {
			json_object_put(wrapped);
			return r;
		}
		nh = json_object_new_object();
		na = json_object_new_array();
		if (!nh || !na) {
			json_object_put(nh);
			json_object_put(na);
			json_object_put(wrapped);
			return sw_error_set(err, ENOMEM, "out of memory");
		}
		/* env and timeout as they are: runc kills the hook, sysward,
		 * at its timeout, and PTRACE_O_EXITKILL what it runs. */
		json_object_object_foreach(h, key, val) {
			if (strcmp(key, "path") != 0 && strcmp(key, "args") != 0)
				json_object_object_add(nh, key, json_object_get(val));
		}
		snprintf(exe, sizeof(exe), RT_EXE_FMT, keep);
		/* PROGRAM's argv[0] is its path: sysward has no other. */
		r = prefix(na, keep, caps, true);
		r |= push(na, json_object_get_string(path));
		for (size_t k = 1; args && k < json_object_array_length(args); k++)
			r |= push(na, json_object_get_string(
					  json_object_array_get_idx(args, k)));
		json_object_object_add(nh, "path", json_object_new_string(exe));
		json_object_object_add(nh, "args", na);
		if (r || json_object_array_add(wrapped, nh) < 0) {
			json_object_put(nh);
			json_object_put(wrapped);
			return sw_error_set(err, ENOMEM, "out of memory");
		}
	}
	json_object_object_add(ann, RT_ANNOTATION_HOOKS, json_object_new_string(
		json_object_to_json_string_ext(start, JSON_C_TO_STRING_PLAIN |
					       JSON_C_TO_STRING_NOSLASHESCAPE)));
	json_object_object_add(hooks, "startContainer", wrapped);
	return 0;
}

/* Does spec give its container a mount namespace (new or joined)? */
static bool has_mount_ns(json_object *spec)
{
	json_object *ns = member(member(spec, "linux", json_type_object),
				 "namespaces", json_type_array);

	for (size_t i = 0; ns && i < json_object_array_length(ns); i++) {
		json_object *type = member(json_object_array_get_idx(ns, i),
					   "type", json_type_string);

		if (type && strcmp(json_object_get_string(type), "mount") == 0)
			return true;
	}
	return false;
}

/* The object o[key] of type t, added empty if absent; NULL if o[key] is
 * something else. */
static json_object *member_add(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v) && v)
		return json_object_is_type(v, t) ? v : NULL;
	v = t == json_type_array ? json_object_new_array()
				 : json_object_new_object();
	if (!v)
		return NULL;
	json_object_object_add(o, key, v);
	return v;
}

int rt_spec_wrap(json_object *spec, const struct rt_wrap *w,
		 json_object **ret_replaced, struct sw_error *err)
{
	json_object *process = member(spec, "process", json_type_object);
	json_object *linux_o = member(spec, "linux", json_type_object);
	json_object *mounts, *ann, *seccomp;
	char *caps, count[32];
	size_t added = 0;
	int r;

	*ret_replaced = NULL;
	if (!process)
		return sw_error_set(err, EINVAL,
				    "process: missing (a container needs a process to run)");
	if (!has_mount_ns(spec))
		return sw_error_set(err, EINVAL,
				    "linux.namespaces: a container under sysward needs a mount namespace (sysward-runtime mounts /proc in it, to execute sysward through)");
	mounts = member_add(spec, "mounts", json_type_array);
	ann = member_add(spec, "annotations", json_type_object);
	if (!mounts || !ann)
		return sw_error_set(err, EINVAL,
				    "%s: expected %s", mounts ? "annotations" : "mounts",
				    mounts ? "an object" : "an array");
	caps = caps_text(process_caps(process, NULL, 0));
	if (!caps)
		return sw_error_set(err, ENOMEM, "out of memory");
	r = wrap_hooks(spec, ann, w->keep, caps, err);
	free(caps);
	if (r < 0)
		return r;
	r = rt_process_wrap(process, NULL, 0, rt_spec_new_pid_ns(spec), w->keep,
			    err);
	if (r < 0)
		return r;
	r = add_proc(mounts, &added, err);
	if (r < 0)
		return r;
	snprintf(count, sizeof(count), "%zu", added);
	json_object_object_add(ann, RT_ANNOTATION_MOUNTS, json_object_new_string(count));
	seccomp = member(linux_o, "seccomp", json_type_object);
	if (seccomp) {
		*ret_replaced = json_object_get(seccomp);
		json_object_object_del(linux_o, "seccomp");
	}
	json_object_object_add(ann, RT_ANNOTATION_WRAPPED,
			       json_object_new_string(w->from));
	return 0;
}

/* ------------------------------------------------------------ unwrapping */

static bool str_at(json_object *a, size_t i, const char *s)
{
	json_object *v = json_object_array_get_idx(a, i);

	return v && json_object_is_type(v, json_type_string) &&
	       (!s || strcmp(json_object_get_string(v), s) == 0);
}

/* A decimal number at args[i]. */
static bool int_at(json_object *a, size_t i)
{
	const char *s;

	if (!str_at(a, i, NULL))
		return false;
	s = json_object_get_string(json_object_array_get_idx(a, i));
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* The index of the first argument after our prefix, or 0 if args do not
 * start with one prefix() makes. */
static size_t prefix_end(json_object *args)
{
	size_t n = json_object_array_length(args), i = 2;
	char exe[64];
	int keep;

	if (n < 8 || !str_at(args, 0, NULL) || !str_at(args, 1, "run") ||
	    sscanf(json_object_get_string(json_object_array_get_idx(args, 0)),
		   RT_EXE_FMT, &keep) != 1)
		return 0;
	snprintf(exe, sizeof(exe), RT_EXE_FMT, keep);
	if (!str_at(args, 0, exe))
		return 0;
	while (i < n) {
		if (str_at(args, i, "--"))
			return i + 1;
		if (str_at(args, i, "-q") || str_at(args, i, "--no-cache") ||
		    str_at(args, i, "--kill-descendants"))
			i++;
		else if ((str_at(args, i, "--policy-fd") ||
			  str_at(args, i, "--keep-fds")) && int_at(args, i + 1))
			i += 2;
		else if (str_at(args, i, "--cap") && str_at(args, i + 1, NULL))
			i += 2;
		else
			return 0;
	}
	return 0;
}

/* Take back the mounts and hooks wrapping added: the annotations say
 * what. */
static int unwrap_mounts_hooks(json_object *spec, json_object *ann,
			       struct sw_error *err)
{
	json_object *mounts = member(spec, "mounts", json_type_array);
	json_object *count = member(ann, RT_ANNOTATION_MOUNTS, json_type_string);
	json_object *hooks_text = member(ann, RT_ANNOTATION_HOOKS, json_type_string);
	json_object *hooks, *orig = NULL;
	size_t n = mounts ? json_object_array_length(mounts) : 0, k;
	const char *c = count ? json_object_get_string(count) : "";

	if (!*c || strspn(c, "0123456789") != strlen(c) ||
	    (k = strtoul(c, NULL, 10)) > n)
		return sw_error_set(err, EINVAL,
				    "annotations.%s: expected the number of mounts sysward-runtime appended (at most the %zu there are); this config.json is one sysward-runtime wrapped (an older version rewrote bundles in place) and was changed since: put the bundle's own config.json back",
				    RT_ANNOTATION_MOUNTS, n);
	if (k > 0)
		json_object_array_del_idx(mounts, n - k, k);
	json_object_object_del(ann, RT_ANNOTATION_MOUNTS);
	if (!hooks_text)
		return 0;
	if (parse_typed(json_object_get_string(hooks_text),
			(size_t)json_object_get_string_len(hooks_text),
			"annotations." RT_ANNOTATION_HOOKS, json_type_array,
			&orig, err) < 0)
		return -EINVAL;
	hooks = member_add(spec, "hooks", json_type_object);
	if (!hooks) {
		json_object_put(orig);
		return sw_error_set(err, EINVAL, "hooks: expected an object");
	}
	json_object_object_add(hooks, "startContainer", orig);
	json_object_object_del(ann, RT_ANNOTATION_HOOKS);
	return 0;
}

int rt_spec_unwrap(json_object *spec, const char **ret_from,
		   struct sw_error *err)
{
	json_object *ann = member(spec, "annotations", json_type_object);
	json_object *process = member(spec, "process", json_type_object);
	json_object *args = member(process, "args", json_type_array);
	json_object *v, *orig;
	const char *from;
	size_t start, n;
	int r;

	*ret_from = NULL;
	if (!ann || !json_object_object_get_ex(ann, RT_ANNOTATION_WRAPPED, &v))
		return 0;
	if (json_object_is_type(v, json_type_string) &&
	    strcmp(json_object_get_string(v), RT_FROM_ANNOTATION) == 0)
		from = RT_FROM_ANNOTATION;
	else if (json_object_is_type(v, json_type_string) &&
		 strcmp(json_object_get_string(v), RT_FROM_SECCOMP) == 0)
		from = RT_FROM_SECCOMP;
	else
		return sw_error_set(err, EINVAL,
				    "annotations.%s: expected \"%s\" or \"%s\"",
				    RT_ANNOTATION_WRAPPED, RT_FROM_ANNOTATION,
				    RT_FROM_SECCOMP);
	start = args ? prefix_end(args) : 0;
	if (!start)
		return sw_error_set(err, EINVAL,
				    "process.args: this config.json is one sysward-runtime wrapped (annotations.%s; an older version rewrote bundles in place) but its arguments no longer start with sysward's: put the bundle's own config.json back",
				    RT_ANNOTATION_WRAPPED);
	r = unwrap_mounts_hooks(spec, ann, err);
	if (r < 0)
		return r;
	orig = json_object_new_array();
	if (!orig)
		return sw_error_set(err, ENOMEM, "out of memory");
	n = json_object_array_length(args);
	for (size_t i = start; i < n; i++)
		json_object_array_add(orig, json_object_get(
					      json_object_array_get_idx(args, i)));
	json_object_object_add(process, "args", orig);
	json_object_object_del(ann, RT_ANNOTATION_WRAPPED);
	*ret_from = from;
	return 0;
}

/* Does runc bind-mount m: type "bind", or "bind"/"rbind" among its
 * options (runc's specconv takes MS_BIND from the options, whatever the
 * type, and then joins a relative source to the bundle's directory). */
static bool is_bind(json_object *m)
{
	json_object *type = member(m, "type", json_type_string);
	json_object *opts = member(m, "options", json_type_array);

	if (type && strcmp(json_object_get_string(type), "bind") == 0)
		return true;
	for (size_t i = 0; opts && i < json_object_array_length(opts); i++)
		if (str_at(opts, i, "bind") || str_at(opts, i, "rbind"))
			return true;
	return false;
}

/* o[key], a string, made absolute under dir if it is relative. */
static int rebase_member(json_object *o, const char *key, const char *dir,
			 struct sw_error *err)
{
	json_object *v = member(o, key, json_type_string);
	char *abs;

	if (!v || json_object_get_string(v)[0] == '/' ||
	    json_object_get_string_len(v) == 0)
		return 0;
	if (asprintf(&abs, "%s/%s", dir, json_object_get_string(v)) < 0)
		return sw_error_set(err, ENOMEM, "out of memory");
	json_object_object_add(o, key, json_object_new_string(abs));
	free(abs);
	return 0;
}

int rt_spec_rebase(json_object *spec, const char *dir, struct sw_error *err)
{
	json_object *mounts = member(spec, "mounts", json_type_array);
	int r;

	r = rebase_member(member(spec, "root", json_type_object), "path", dir, err);
	for (size_t i = 0; r >= 0 && mounts && i < json_object_array_length(mounts); i++) {
		json_object *m = json_object_array_get_idx(mounts, i);

		if (json_object_is_type(m, json_type_object) && is_bind(m))
			r = rebase_member(m, "source", dir, err);
	}
	return r;
}
