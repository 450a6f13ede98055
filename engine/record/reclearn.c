// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward learn's policy, written from a record (record.c): the calls
 * seen, per ABI; with --args the selector values, with --paths the path
 * conditions; deterministic, so that two learned policies diff.
 */
#include <errno.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/pathargs.h"
#include "record/record.h"
#include "record/audit.h"

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The calls an OCI runtime makes itself between installing the policy's
 * filter and executing the program, which a policy for it must allow
 * although the program never makes them.  Measured with strace on runc
 * 1.1.5 (Debian 12), whose init is a Go program: after
 * prctl(PR_SET_SECCOMP) its init thread closes and checks descriptors
 * (close, fstatfs, getdents64, fcntl, epoll_ctl), opens and writes the
 * exec FIFO (openat, write), reads its pid and name (getpid, prctl) and
 * executes the program (execve); meanwhile Go's runtime on that thread
 * may take its preemption signal and allocate (rt_sigreturn,
 * sigaltstack, rt_sigprocmask, rt_sigaction, tgkill, gettid, futex,
 * nanosleep, sched_yield, mmap, munmap, madvise, epoll_pwait, read,
 * fstat, newfstatat, exit, exit_group).  Without them runc fails with
 * "close log pipe fd 4: operation not permitted".  Without
 * no_new_privs (Podman's and Docker's default) runc loads the filter
 * earlier, before it sets the process's credentials and capabilities
 * and looks the program up: capget, capset, setgroups, setgid, setuid,
 * chdir, getcwd, faccessat2 and getppid too (strace of runc 1.1.5 under
 * Podman 4.3.1; without them "runc create failed: unable to start
 * container process: operation not permitted").  Sorted.
 */
static const char *const oci_runtime_calls[] = {
	"capget", "capset", "chdir", "close", "epoll_ctl", "epoll_pwait",
	"execve", "exit", "exit_group", "faccessat2", "fcntl", "fstat",
	"fstatfs", "futex", "getcwd", "getdents64", "getpid", "getppid",
	"gettid", "madvise", "mmap", "munmap", "nanosleep", "newfstatat",
	"openat", "prctl", "read", "rt_sigaction", "rt_sigprocmask",
	"rt_sigreturn", "sched_yield", "setgid", "setgroups", "setuid",
	"sigaltstack", "tgkill", "write",
};

/*
 * --args: the one argument of a call that says what the call does (a
 * family, a request, a command, flags), whose values a program uses few
 * of; the other arguments (descriptors, sizes, addresses) vary from run
 * to run.  Where every sample of the call (SW_RECORD_SAMPLES at most,
 * and no other seen) has one of at most that many values there, the
 * learned policy allows the call with those values only.
 */
static const struct {
	const char *name;
	uint8_t index;
} selectors[] = {
	{ "arch_prctl", 0 }, { "bpf", 0 }, { "clone", 0 }, { "fcntl", 1 },
	{ "fcntl64", 1 }, { "flock", 1 }, { "ioctl", 1 }, { "keyctl", 0 },
	{ "madvise", 2 }, { "personality", 0 }, { "prctl", 0 },
	{ "ptrace", 0 }, { "seccomp", 0 }, { "setns", 1 }, { "socket", 0 },
	{ "socketpair", 0 }, { "unshare", 0 },
};

/* The selector values of every sample of name (sorted, distinct), or
 * -1 when the call has no selector or took other values too. */
static int selector_values(const struct sw_record *r, char *const *entry_name,
			   const char *name, uint8_t *ret_index,
			   uint64_t values[SW_RECORD_SAMPLES])
{
	int n = 0, sel = -1;

	for (size_t k = 0; k < sizeof(selectors) / sizeof(selectors[0]); k++)
		if (!strcmp(selectors[k].name, name))
			sel = (int)k;
	if (sel < 0)
		return -1;
	*ret_index = selectors[sel].index;
	for (size_t i = 0; i < r->n_calls; i++) {
		const struct rec_call *c = &r->calls[i];

		/* entry_name: NULL for refused entries and unnamed numbers. */
		if (!entry_name[i] || strcmp(entry_name[i], name))
			continue;
		if (c->more_samples || !c->n_samples)
			return -1;
		for (uint8_t s = 0; s < c->n_samples; s++) {
			uint64_t v = c->samples[s].args[*ret_index];
			int j = 0;

			while (j < n && values[j] < v)
				j++;
			if (j < n && values[j] == v)
				continue;
			if (n == SW_RECORD_SAMPLES)
				return -1;
			memmove(&values[j + 1], &values[j], (size_t)(n - j) * sizeof(values[0]));
			values[j] = v;
			n++;
		}
	}
	return n;
}

/*
 * --paths: a call's first path argument, learned as conditions.  The
 * rule: each string the run named is generalised to its directory as
 * written, with the slash ("/usr/lib/x86_64-linux-gnu/libc.so.6" ->
 * prefix "/usr/lib/x86_64-linux-gnu/", "src/a.c" -> prefix "src/"); a
 * string with no slash is kept exact ("a.c", ".", "" for a call on a
 * descriptor, AT_EMPTY_PATH); a prefix covered by a shorter one, and an
 * exact string a prefix covers, are dropped.  A NULL the kernel takes
 * for the path (sw_path_null_ok()) meets no path condition (decide.c):
 * it is learned as the argument 0.  Strings are matched as written
 * (sysward-policy(5)): a later run that names the same files another way
 * ("./src/a.c") is refused.
 *
 * Never widened silently: every directory seen is a rule of its own (the
 * record bounds them, SW_RECORD_PATHS), and a call some of whose paths no
 * rule can say (enum sw_learn_why) keeps the rules for the others; the
 * rest is refused, unless SW_LEARN_CATCH_ALL adds a rule, after them,
 * that allows every path, and the caller is told either way (ret_notes).
 *
 * connect's unix addresses are learned exact, each a rule of its own
 * that grants its peer (docs/security.md, route 19), followed by connect
 * allowed by name: connects to other families name no unix address, and
 * the default check still keeps every same-uid service outside the
 * session that no rule grants out of reach (an address not learned is
 * no grant: nothing to catch or say).  A socket's name is an endpoint,
 * not a directory of files: its directory as a prefix would grant every
 * service bound beside it (tmux's and ssh-agent's sockets share /tmp).
 * The other calls that take an address (bind, sendto, sendmsg) are
 * learned by name.
 */
struct path_cond {
	bool prefix;
	char s[REC_STR];
};

struct path_learn {
	uint8_t index;		/* the path's argument */
	bool null;		/* a NULL was seen: the argument 0 allowed */
	uint64_t lost;		/* paths no rule can say */
	enum sw_learn_why why;	/* the first one's, or ABIS_DIFFER */
	size_t n;
	struct path_cond *conds;	/* n, sorted; free() them */
};

static int cond_cmp(const void *a, const void *b)
{
	const struct path_cond *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : (int)x->prefix - (int)y->prefix;
}

static bool cond_covers(const struct path_cond *by, const struct path_cond *c)
{
	size_t n = strlen(by->s);

	return by != c && by->prefix && !strncmp(c->s, by->s, n) &&
	       (!c->prefix || strlen(c->s) > n);
}

/*
 * The conditions of call name: 1 with *out filled (the call is learned
 * by path), 0 where it is learned by name (no path argument, paths not
 * kept), -ENOMEM.
 */
static int path_conditions(const struct sw_record *r, char *const *entry_name,
			   const char *name, struct path_learn *out)
{
	uint8_t pargs = 0;
	struct path_cond *all;
	size_t n = 0, kept = 0;
	struct sw_addr_arg addr;
	bool exact = false;

	*out = (struct path_learn){ 0 };
	if (!r->keep_paths)
		return 0;
	/* An address: connect's (grants), exact; the others' by name. */
	if (sw_addr_arg(name, &addr)) {
		if (strcmp(name, "connect"))
			return 0;
		exact = true;
	}
	/* One rule names one index: where the call's ABIs put the path in
	 * different places (fanotify_mark, i386), no rule can say them. */
	for (size_t i = 0; i < r->n_calls; i++) {
		uint8_t a;

		if (!entry_name[i] || strcmp(entry_name[i], name))
			continue;
		a = sw_string_args(sw_abi_token(r->calls[i].abi), name);
		if (pargs && a != pargs) {
			out->why = SW_LEARN_ABIS_DIFFER;
			return 1;
		}
		pargs = a;
		if (r->calls[i].paths_lost && !out->lost)
			out->why = (enum sw_learn_why)r->calls[i].lost_why;
		out->lost += r->calls[i].paths_lost;
	}
	if (!pargs)
		return 0;
	for (out->index = 0; !(pargs & (1u << out->index)); out->index++)
		;
	all = calloc(r->n_paths ? r->n_paths : 1, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t k = 0; k < r->n_paths; k++) {
		const struct rec_path *p = &r->paths[k];
		const char *en = entry_name[p->call - 1];
		struct path_cond c = { 0 };
		const char *slash;
		bool dup = false;

		if (!en || strcmp(en, name))
			continue;	/* another call's, or a refused one's */
		if (p->null) {
			out->null = true;
			continue;
		}
		slash = exact ? NULL : strrchr(p->path, '/');
		c.prefix = slash || p->cut;
		snprintf(c.s, sizeof(c.s), "%.*s",
			 slash ? (int)(slash - p->path + 1) : (int)strlen(p->path), p->path);
		/* A policy is UTF-8 JSON: a directory (or name) that is not
		 * cannot be said. */
		if (!sw_utf8_valid(c.s)) {
			if (!out->lost)
				out->why = SW_LEARN_NOT_UTF8;
			out->lost++;
			continue;
		}
		for (size_t j = 0; j < n && !dup; j++)
			dup = !cond_cmp(&all[j], &c);
		if (!dup)
			all[n++] = c;
	}
	qsort(all, n, sizeof(all[0]), cond_cmp);
	for (size_t j = 0; j < n; j++) {
		bool covered = false;

		for (size_t i = 0; i < n && !covered; i++)
			covered = cond_covers(&all[i], &all[j]);
		if (!covered)
			all[kept++] = all[j];
	}
	out->n = kept;
	out->conds = all;
	return 1;
}

_Static_assert(SW_RECORD_PATHS == 1024, "sw_learn_why_str() says 1024");

const char *sw_learn_why_str(enum sw_learn_why why)
{
	switch (why) {
	case SW_LEARN_NOT_UTF8:
		return "not UTF-8, which a policy (UTF-8 JSON) cannot say";
	case SW_LEARN_TABLE_FULL:
		return "past the 1024 paths the record keeps";
	case SW_LEARN_ABIS_DIFFER:
		return "its path is another argument on another ABI, and a rule names one index";
	}
	return "no rule can say it";
}

static void note(struct sw_learn_notes *notes, const char *name,
		 const struct path_learn *pl, bool catch_all)
{
	if (!notes)
		return;
	if (notes->n == SW_LEARN_NOTES) {
		notes->more++;
		return;
	}
	snprintf(notes->v[notes->n].call, sizeof(notes->v[0].call), "%s", name);
	notes->v[notes->n].why = pl->why;
	notes->v[notes->n].calls = pl->lost;
	notes->v[notes->n].catch_all = catch_all;
	notes->n++;
}

/* Call name's rules learned by path, rule count in *k. */
static void write_path_rules(FILE *f, const char *name,
			     const struct path_learn *pl, bool catch_all,
			     size_t *k)
{
	for (size_t j = 0; j < pl->n; j++) {
		fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
			"      \"action\": \"SCMP_ACT_ALLOW\",\n"
			"      \"paths\": [{\"index\": %u, \"%s\": ",
			(*k)++ ? ",\n" : "", name, pl->index,
			pl->conds[j].prefix ? "prefix" : "exact");
		sw_json_str(f, pl->conds[j].s);
		fputs("}]\n    }", f);
	}
	if (pl->null)
		fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
			"      \"action\": \"SCMP_ACT_ALLOW\",\n"
			"      \"args\": [{\"index\": %u, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}],\n"
			"      \"comment\": \"no path: NULL, where the call acts on a descriptor\"\n    }",
			(*k)++ ? ",\n" : "", name, pl->index);
	if (catch_all && (pl->lost || pl->why == SW_LEARN_ABIS_DIFFER)) {
		fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
			"      \"action\": \"SCMP_ACT_ALLOW\",\n"
			"      \"comment\": ",
			(*k)++ ? ",\n" : "", name);
		{
			char why[256];

			if (pl->why == SW_LEARN_ABIS_DIFFER)
				snprintf(why, sizeof(why),
					 "catch-all (sysward learn --catch-all): every path, since %s",
					 sw_learn_why_str(pl->why));
			else
				snprintf(why, sizeof(why),
					 "catch-all (sysward learn --catch-all): every path, since %llu path%s not learned: %s",
					 (unsigned long long)pl->lost,
					 pl->lost == 1 ? " was" : "s were",
					 sw_learn_why_str(pl->why));
			sw_json_str(f, why);
		}
		fputs("\n    }", f);
	}
}

int sw_record_write_policy(const struct sw_record *r, FILE *f,
			   unsigned int flags, uint64_t *ret_unnamed,
			   struct sw_learn_notes *ret_notes)
{
	bool oci_runtime = flags & SW_LEARN_OCI_RUNTIME;
	bool args = flags & SW_LEARN_ARGS, paths = flags & SW_LEARN_PATHS;
	bool catch_all = flags & SW_LEARN_CATCH_ALL;
	/* On the heap: static TLS comes out of every thread's stack, the
	 * memory readers' 64 KiB too (strings.c), and a large __thread
	 * array makes their pthread_create() fail (EINVAL). */
	cleanup_free uint64_t (*values)[SW_RECORD_SAMPLES] =
		calloc(SW_RECORD_CALLS, sizeof(*values));
	cleanup_free char **entry_name = calloc(SW_RECORD_CALLS, sizeof(*entry_name));
	cleanup_free struct path_learn *pl = calloc(SW_RECORD_CALLS, sizeof(*pl));
	uint8_t index[SW_RECORD_CALLS];
	int nvals[SW_RECORD_CALLS];
	size_t n_rules;
	char *names[SW_RECORD_CALLS];
	bool abi_used[SW_ABI_COUNT] = { false };
	size_t n = 0, k = 0;
	bool clone3 = false, first = true;
	int ret = 0;

	*ret_unnamed = 0;
	if (ret_notes)
		*ret_notes = (struct sw_learn_notes){ 0 };
	if (r->calls_dropped)
		return -E2BIG;
	if (!values || !entry_name || !pl)
		return -ENOMEM;
	abi_used[sw_abi_native()] = true;
	for (size_t i = 0; i < r->n_calls; i++) {
		const struct rec_call *c = &r->calls[i];
		char *name;

		entry_name[i] = NULL;
		if (c->outcome == SW_OUT_REFUSED || c->outcome == SW_OUT_DEFENCE)
			continue;
		name = seccomp_syscall_resolve_num_arch(sw_abi_token(c->abi), (int)c->nr);
		if (!name) {
			*ret_unnamed += c->count;
			continue;
		}
		abi_used[c->abi] = true;
		names[n++] = name;
		entry_name[i] = name;	/* the same string, freed with names[] */
	}
	qsort(names, n, sizeof(names[0]), str_cmp);
	fputs("{\n  \"defaultAction\": \"SCMP_ACT_ERRNO\",\n  \"defaultErrnoRet\": 1,\n"
	      "  \"architectures\": [", f);
	for (int a = 0; a < SW_ABI_COUNT; a++) {
		if (!abi_used[a])
			continue;
		fprintf(f, "%s\"%s\"", first ? "" : ", ", sw_abi_oci_name(a));
		first = false;
	}
	fputs("],\n", f);
	if ((flags & SW_LEARN_FILESYSTEM) && (ret = rec_write_fs(r, f)) < 0)
		goto out;
	fputs("  \"syscalls\": [\n", f);
	/* Each name once (the same name from two ABIs), and with --args
	 * the values of its selector where the run used few. */
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1])) {
			nvals[i] = -2;		/* a duplicate: skipped */
			continue;
		}
		/* -3: path conditions (--paths) */
		if (paths && (ret = path_conditions(r, entry_name, names[i], &pl[i])) < 0)
			goto out;
		if (paths && ret > 0)
			nvals[i] = -3;
		else
			nvals[i] = args ? selector_values(r, entry_name, names[i], &index[i], values[i]) : -1;
		clone3 |= !strcmp(names[i], "clone3");
	}
	for (size_t i = 0; i < n; i++) {
		if (nvals[i] != -1 && nvals[i] != 0)
			continue;
		if (!k++)
			fputs("    {\n      \"names\": [\n", f);
		else
			fputs(",\n", f);
		fprintf(f, "        \"%s\"", names[i]);
	}
	if (k)
		fputs("\n      ],\n      \"action\": \"SCMP_ACT_ALLOW\"\n    }", f);
	for (size_t i = 0; i < n; i++)
		for (int v = 0; v < nvals[i]; v++)
			fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
				"      \"action\": \"SCMP_ACT_ALLOW\",\n"
				"      \"args\": [{\"index\": %u, \"value\": %llu, \"op\": \"SCMP_CMP_EQ\"}]\n    }",
				k++ ? ",\n" : "", names[i], index[i],
				(unsigned long long)values[i][v]);
	for (size_t i = 0; i < n; i++) {
		struct sw_addr_arg addr;
		bool grants;

		if (nvals[i] != -3)
			continue;
		grants = sw_addr_arg(names[i], &addr);
		write_path_rules(f, names[i], &pl[i], catch_all && !grants, &k);
		/* connect: its grants, then the call itself (other families,
		 * sockets no grant is needed for). */
		if (grants)
			fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
				"      \"action\": \"SCMP_ACT_ALLOW\",\n"
				"      \"comment\": \"every connect; the unix addresses above are granted: a same-uid service outside the session that no rule names stays refused\"\n    }",
				k++ ? ",\n" : "", names[i]);
		else if (pl[i].lost || pl[i].why == SW_LEARN_ABIS_DIFFER)
			note(ret_notes, names[i], &pl[i], catch_all);
	}
	n_rules = k;
	if (oci_runtime) {
		size_t m = 0;

		fprintf(f, "%s    {\n      \"names\": [\n", n_rules++ ? ",\n" : "");
		for (size_t i = 0; i < sizeof(oci_runtime_calls) / sizeof(oci_runtime_calls[0]); i++)
			fprintf(f, "%s        \"%s\"", m++ ? ",\n" : "",
				oci_runtime_calls[i]);
		fputs("\n      ],\n      \"action\": \"SCMP_ACT_ALLOW\",\n"
		      "      \"comment\": \"the OCI runtime's own calls between loading this filter and executing the program (runc); not the program's\"\n    }", f);
	}
	if (!clone3)
		fprintf(f, "%s    {\n      \"names\": [\"clone3\"],\n"
			"      \"action\": \"SCMP_ACT_ERRNO\",\n      \"errnoRet\": 38\n    }",
			n_rules ? ",\n" : "");
	fputs("\n  ]\n}\n", f);
	ret = 0;
out:
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(pl[i].conds);
	}
	if (ret == 0 && (fflush(f) == EOF || ferror(f)))
		ret = -EIO;
	return ret;
}
