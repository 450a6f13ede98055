// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What `sysward check` says of a launch's file rules: each hierarchy as
 * this kernel enforces it, found by the apply run dry in the checker's
 * view (fsapply.c, ruleset_fd -1): what it asked, what it got, the rights
 * this kernel's Landlock cannot refuse, the entries given a wider
 * hierarchy's rights beside a narrower one.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "contain/fsplan.h"
#include "contain/fsrules.h"

/* Rules the apply added beside the way down from hierarchy node g. */
static uint32_t beside_of(const struct sw_fsrules *fr, int g)
{
	uint32_t k = 0;

	for (size_t i = 0; i < fr->n_nodes; i++)
		if (fr->nodes[i].gov == g)
			k += fr->nodes[i].beside;
	return k;
}

int sw_fsrules_describe(struct sw_fsrules *fr, sw_fsrules_describe_fn fn, void *ud)
{
	struct sw_fsrules_where w;
	char msg[6144], asked[256], got[256], dropped[512];
	int r;

	if (!fr)
		return 0;
	if (fr->has_fs) {
		r = sw_fsrules_apply(fr, -1, &w);
		if (r < 0) {
			char why[4600];

			sw_fsrules_explain(fr, &w, why, sizeof(why));
			snprintf(msg, sizeof(msg),
				 "sysward run would refuse it here (in this working directory and environment): cannot %s: %s",
				 why, strerror(-r));
			return fn("filesystem", msg, ud);
		}
		if (fr->dropped_fs) {
			sw_fsrules_rights_words(fr->dropped_fs, dropped, sizeof(dropped));
			snprintf(msg, sizeof(msg),
				 "this kernel's Landlock (ABI %d) cannot refuse %s: the program keeps %s everywhere (best effort; \"strict\": true refuses the launch instead)",
				 fr->abi, dropped, fr->dropped_fs & (fr->dropped_fs - 1) ? "them" : "it");
			r = fn("filesystem", msg, ud);
			if (r < 0)
				return r;
		}
		for (size_t i = 0; i < fr->n_specs; i++) {
			const struct fs_spec_copy *c = &fr->specs[i];
			const struct fs_node *n = c->node >= 0 ? &fr->nodes[c->node] : NULL;
			size_t used;

			sw_fs_access_describe(c->access, asked, sizeof(asked));
			if (!n) {
				snprintf(msg, sizeof(msg),
					 "%s (%s): missing here, skipped (\"optional\")",
					 c->written, asked);
				r = fn(c->what, msg, ud);
				if (r < 0)
					return r;
				continue;
			}
			sw_fs_access_describe(n->grant, got, sizeof(got));
			used = (size_t)snprintf(msg, sizeof(msg),
						"%s (%s): Landlock ABI %d, no stop: %s on %s itself",
						c->written, asked, fr->abi,
						n->grant == (c->access & fr->handled_fs &
							     (n->dir ? SW_FS_ALL : SW_FS_FILE_RIGHTS))
						? "the rule" : "only",
						n->dir ? "the directory" : "the file");
			if (n->grant != (c->access & fr->handled_fs &
					 (n->dir ? SW_FS_ALL : SW_FS_FILE_RIGHTS)))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 " (%s: the way to narrower hierarchies inside)",
							 got);
			if (c->node >= 0 && fr->nodes[c->node].spec == (int)i && beside_of(fr, c->node))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 "; its rights given to the %u entr%s beside those hierarchies, as they are now",
							 beside_of(fr, c->node),
							 beside_of(fr, c->node) == 1 ? "y" : "ies");
			if (!n->dir && (c->access & ~SW_FS_FILE_RIGHTS))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used,
							 "; a file takes only a file's rights");
			if (c->access & ~fr->handled_fs) {
				sw_fsrules_rights_words(c->access & ~fr->handled_fs, dropped, sizeof(dropped));
				snprintf(msg + used, sizeof(msg) - used,
					 "; not enforced here: %s", dropped);
			}
			r = fn(c->what, msg, ud);
			if (r < 0)
				return r;
		}
	}
	if (fr->net_dropped)
		return fn("network",
			  "this kernel's Landlock has no network rights (ABI 4, Linux 6.7): TCP binds and connects are not restricted (best effort; \"strict\": true refuses the launch instead)",
			  ud);
	for (int k = 0; k < 2; k++) {
		const struct sw_port_range *v = k ? fr->connect : fr->bind;
		size_t nv = k ? fr->n_connect : fr->n_bind, used;
		uint64_t right = k ? SW_NET_CONNECT_TCP : SW_NET_BIND_TCP;

		if (!(fr->handled_net & right))
			continue;
		used = (size_t)snprintf(msg, sizeof(msg),
					"TCP %s: Landlock ABI %d, no stop: ", k ? "connect" : "bind",
					fr->abi);
		if (!nv)
			snprintf(msg + used, sizeof(msg) - used, "none (EACCES)");
		for (size_t i = 0; i < nv && used < sizeof(msg); i++)
			used += (size_t)snprintf(msg + used, sizeof(msg) - used,
						 v[i].first == v[i].last ? "%s%u" : "%s%u-%u",
						 i ? ", " : "", v[i].first, v[i].last);
		r = fn(k ? "network.tcp.connect" : "network.tcp.bind", msg, ud);
		if (r < 0)
			return r;
	}
	return 0;
}
