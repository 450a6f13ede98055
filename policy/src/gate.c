// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A rule's "includes" and "excludes": parsed here, and decided for one
 * program by sw_rule_applies().
 */
#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include "internal.h"

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

/* minKernel, into the KERNEL_VERSION (dst) */
static int parse_kernel(struct parser *ps, const char *path,
			struct json_object *o, void *dst)
{
	unsigned int *ret = dst;
	unsigned int a, b, c = 0;
	const char *s;
	int n = 0, r;

	r = sw_pol_get_string(ps, path, o, SW_POLICY_MAX_NAME_LEN, false, &s);
	if (r < 0)
		return r;
	/* "4.8", "5.10.3", "6.1.0-13-amd64" */
	if (sscanf(s, "%3u.%3u%n", &a, &b, &n) != 2 || n == 0)
		goto bad;
	if (s[n] == '.') {
		int m = 0;

		if (sscanf(s + n, ".%3u%n", &c, &m) != 1 || m == 0)
			goto bad;
		n += m;
	}
	if (s[n] != '\0' && s[n] != '-')
		goto bad;
	if (a > 255 || b > 255)
		goto bad;
	*ret = KERNEL_VERSION(a, b, c);
	return 0;
bad:
	return sw_pol_perr(ps, path,
			   "cannot parse kernel version \"%.64s\" (expected \"MAJOR.MINOR\", e.g. \"4.8\")",
			   s);
}

static int cap_unknown(struct parser *ps, const char *path, const char *name)
{
	struct sw_suggest s;
	char *names[64] = { 0 };
	int r;

	sw_suggest_init(&s, name);
	for (int c = 0; c < 64; c++) {
		names[c] = cap_to_name(c);
		if (names[c]) {
			/* libcap spells them in lower case, Docker upper */
			for (char *q = names[c]; *q; q++)
				*q = (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
			sw_suggest_feed(&s, names[c]);
		}
	}
	r = sw_pol_perr_unknown(ps, path, "capability", name, sw_suggest_result(&s),
				"expected a name such as \"CAP_SYS_ADMIN\"");
	for (int c = 0; c < 64; c++)
		cap_free(names[c]);
	return r;
}

/* caps, into the capability bitmask (dst) */
static int parse_caps(struct parser *ps, const char *path,
		      struct json_object *v, void *dst)
{
	uint64_t *caps = dst;
	size_t n;
	int r;

	r = sw_pol_get_array(ps, path, v, "an array of CAP_* names",
			     SW_POLICY_MAX_CAPS, NULL, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		char ep[PATH_LEN];
		const char *name;
		cap_value_t cap;

		sw_pol_path_index(ep, path, i);
		r = sw_pol_get_string(ps, ep, json_object_array_get_idx(v, i),
				      SW_POLICY_MAX_NAME_LEN, false, &name);
		if (r < 0)
			return r;
		if (cap_from_name(name, &cap) < 0 || cap < 0 || cap > 63)
			return cap_unknown(ps, ep, name);
		*caps |= UINT64_C(1) << cap;
	}
	return 0;
}

/* arches (Docker's spellings), into the NULL-ended list (dst) */
static int parse_gate_arches(struct parser *ps, const char *path,
			     struct json_object *v, void *dst)
{
	char ***arches = dst;
	int r;

	r = sw_pol_get_strv(ps, path, v, SW_POLICY_MAX_ARCHES, SW_POLICY_MAX_NAME_LEN,
			    arches, NULL);
	if (r < 0)
		return r;
	for (size_t i = 0; (*arches)[i]; i++) {
		const char *name = (*arches)[i];
		char ep[PATH_LEN];
		struct sw_suggest s;

		if (sw_oci_arch_known(name))
			continue;
		sw_pol_path_index(ep, path, i);
		sw_suggest_init(&s, name);
		sw_arch_suggest_oci(&s);
		return sw_pol_perr_unknown(ps, ep, "architecture", name,
					   sw_suggest_result(&s),
					   "expected Docker's spelling: amd64, x86, x32, arm64, arm, ppc64le, s390x, riscv64, ...");
	}
	return 0;
}

static const struct field gate_fields[] = {
	{ .key = "caps", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_gate, caps), .parse = parse_caps },
	{ .key = "arches", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_gate, arches),
	  .parse = parse_gate_arches },
	{ .key = "minKernel", .kind = FIELD_FUNC,
	  .offset = offsetof(struct sw_gate, min_kernel),
	  .parse = parse_kernel },
};

int sw_pol_parse_gate(struct parser *ps, const char *path, struct json_object *o,
		      void *dst)
{
	static const char *const keys[] = { "caps", "arches", "minKernel", NULL };
	int r;

	r = sw_pol_check_object(ps, path, o, keys);
	if (r < 0)
		return r;
	return sw_pol_read_fields(ps, path, o, gate_fields, N_ELEMENTS(gate_fields),
				  dst);
}

/* ------------------------------------------------------------------ */
/* includes / excludes, with Docker's semantics (moby
 * profiles/seccomp/seccomp_linux.go): a rule is skipped if any excluded cap
 * is held, the native arch is excluded, or the kernel is at least
 * excludes.minKernel; it applies only if every included cap is held, the
 * native arch is listed and the kernel is at least includes.minKernel. */

static bool arch_listed(char *const *arches, uint32_t token)
{
	const struct sw_arch_info *a = sw_arch_by_token(token);

	if (!a)
		return false;
	for (size_t i = 0; arches[i]; i++)
		if (strcmp(arches[i], a->oci) == 0 ||
		    (a->oci_alt && strcmp(arches[i], a->oci_alt) == 0))
			return true;
	return false;
}

bool sw_rule_applies(const struct sw_rule *r, const struct sw_policy_ctx *ctx)
{
	const struct sw_gate *in = &r->includes, *ex = &r->excludes;

	if (r->has_excludes) {
		if (ex->caps & ctx->caps)
			return false;
		if (ex->arches && ex->arches[0] &&
		    arch_listed(ex->arches, ctx->arch))
			return false;
		if (ex->min_kernel && ctx->kernel >= ex->min_kernel)
			return false;
	}
	if (r->has_includes) {
		if ((in->caps & ctx->caps) != in->caps)
			return false;
		if (in->arches && in->arches[0] &&
		    !arch_listed(in->arches, ctx->arch))
			return false;
		if (in->min_kernel && ctx->kernel < in->min_kernel)
			return false;
	}
	return true;
}
