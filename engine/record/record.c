// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The record of a session: what its supervised calls came to, for
 * `sysward run --report` (a JSON summary written at exit) and `--gate`
 * (an exit status saying the policy refused something).  In complain
 * mode (actions.c) the record is where the calls the policy would have
 * refused are counted.
 *
 * Everything here is counted from the program's own calls, so nothing
 * grows past a fixed bound: the tables start small and double as
 * distinct calls, programs and paths come, up to their sizes
 * (SW_RECORD_* in engine.h); an item's samples and its reason are
 * allocated when it first has one.  A session that makes a few kinds of
 * call costs a few KiB, not the 1.2 MiB the full tables take (a
 * syswardd holds one per session that asked for a report).  A program
 * that makes thousands of distinct calls, or executes thousands of
 * distinct files, or forks without end, fills the tables and is then
 * only counted (calls_not_itemised, execs_not_itemised); so is a call
 * whose table could not grow (no memory): every total stays exact.  The
 * strings kept (paths, program names) are cut at a fixed length.
 *
 * The report is for diffing: two runs of the same program under the
 * same policy give the same text.  So it holds no times, pids or
 * addresses: arguments the kernel reads as pointers, and the addresses,
 * pids and words that run_args[] names, are left out (null); other
 * arguments are kept at the width the kernel reads them, and a
 * path argument is kept as its string; every list is sorted by its text.
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
#include "internal.h"
#include "tracemem.h"
#include "decide/program.h"
#include "record/audit.h"

static const char *const outcome_names[SW_OUT_COUNT] = {
	[SW_OUT_ALLOWED] = "allowed",
	[SW_OUT_REFUSED] = "refused",
	[SW_OUT_WOULD_REFUSE] = "would_refuse",
	[SW_OUT_DEFENCE] = "defence",
	[SW_OUT_EMULATED] = "emulated",
	[SW_OUT_REWRITTEN] = "rewritten",
};

const char *sw_outcome_name(enum sw_outcome o)
{
	return o < SW_OUT_COUNT ? outcome_names[o] : "?";
}

struct sw_record *sw_record_new(bool complain, bool paths)
{
	struct sw_record *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->complain = complain;
	r->keep_paths = paths;
	r->cap_calls = REC_CALLS_FIRST;
	r->cap_progs = REC_PROGS_FIRST;
	r->calls = calloc(r->cap_calls, sizeof(*r->calls));
	r->slot = calloc(2 * r->cap_calls, sizeof(*r->slot));
	r->progs = calloc(r->cap_progs, sizeof(*r->progs));
	if (!r->calls || !r->slot || !r->progs) {
		sw_record_free(r);
		return NULL;
	}
	return r;
}

void sw_record_keep_files(struct sw_record *r)
{
	r->keep_files = true;
}

void sw_record_free(struct sw_record *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_calls; i++) {
		free(r->calls[i].why);
		free(r->calls[i].samples);
	}
	free(r->calls);
	free(r->slot);
	free(r->progs);
	free(r->paths);
	free(r->files);
	free(r->file_slot);
	free(r);
}

size_t sw_record_bytes(const struct sw_record *r)
{
	size_t n = sizeof(*r) + r->cap_calls * sizeof(*r->calls) +
		   2 * r->cap_calls * sizeof(*r->slot) +
		   r->cap_progs * sizeof(*r->progs) +
		   r->cap_paths * sizeof(*r->paths) +
		   r->cap_files * sizeof(*r->files) +
		   (r->file_slot ? 2 * REC_FILES * sizeof(*r->file_slot) : 0);

	for (size_t i = 0; i < r->n_calls; i++) {
		if (r->calls[i].why)
			n += strlen(r->calls[i].why) + 1;
		if (r->calls[i].samples)
			n += SW_RECORD_SAMPLES * sizeof(*r->calls[i].samples);
	}
	return n;
}

/* Double a table of *cap elements of size each, up to max; the new part
 * zeroed.  0, or -ENOMEM (also at max: the caller counts only). */
static int grow(void **tab, size_t *cap, size_t size, size_t max)
{
	size_t n = *cap * 2 > max ? max : *cap * 2;
	char *p;

	if (*cap >= max)
		return -ENOMEM;
	p = realloc(*tab, n * size);
	if (!p)
		return -ENOMEM;
	memset(p + *cap * size, 0, (n - *cap) * size);
	*tab = p;
	*cap = n;
	return 0;
}

uint64_t sw_record_policy_refusals(const struct sw_record *r)
{
	return r ? r->totals[SW_OUT_REFUSED] + r->totals[SW_OUT_WOULD_REFUSE] : 0;
}

enum sw_outcome sw_outcome_of(const struct sw_decision *d)
{
	bool runs = d->verdict == SW_V_ALLOW || d->verdict == SW_V_REWRITE;

	if (sw_rule_builtin(d->rule) && !runs)
		return SW_OUT_DEFENCE;
	if (d->lifted)
		return SW_OUT_WOULD_REFUSE;
	switch (d->verdict) {
	case SW_V_ALLOW:
		return SW_OUT_ALLOWED;
	case SW_V_REWRITE:
		/* The path guard's pins, a stripped CLONE_UNTRACED and the
		 * signal defences' checked targets run the call as meant. */
		return d->rule >= 0 && d->action == SW_ACT_REWRITE
		       ? SW_OUT_REWRITTEN : SW_OUT_ALLOWED;
	case SW_V_RETURN:
		if (d->refusal)
			return SW_OUT_REFUSED;
		if (!d->why && d->rule >= 0 &&
		    (d->action == SW_ACT_SKIP || d->action == SW_ACT_EMULATE))
			return SW_OUT_EMULATED;
		return SW_OUT_DEFENCE;
	case SW_V_KILL:
		return d->refusal ? SW_OUT_REFUSED : SW_OUT_DEFENCE;
	}
	return SW_OUT_DEFENCE;
}

static size_t hash(enum sw_abi abi, uint64_t nr, int rule, enum sw_outcome o,
		   size_t n_slots)
{
	uint64_t h = nr * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)(uint32_t)rule << 8 | (uint64_t)abi << 4 | o) *
	     0xc2b2ae3d27d4eb4full;
	return (size_t)(h >> 32) & (n_slots - 1);
}

/* calls[] full: double it and rebuild the slots for the new size.
 * 0 or -ENOMEM (the table stays as it was). */
static int grow_calls(struct sw_record *r)
{
	size_t cap = r->cap_calls, n_slots;
	uint16_t *slot;

	if (cap >= SW_RECORD_CALLS)
		return -ENOMEM;
	n_slots = 4 * cap;
	slot = calloc(n_slots, sizeof(*slot));
	if (!slot || grow((void **)&r->calls, &cap, sizeof(*r->calls),
			  SW_RECORD_CALLS) < 0) {
		free(slot);
		return -ENOMEM;
	}
	for (size_t k = 0; k < r->n_calls; k++) {
		const struct rec_call *c = &r->calls[k];
		size_t i = hash(c->abi, c->nr, c->rule, c->outcome, n_slots);

		while (slot[i])
			i = (i + 1) & (n_slots - 1);
		slot[i] = (uint16_t)(k + 1);
	}
	free(r->slot);
	r->slot = slot;
	r->cap_calls = cap;
	return 0;
}

/* The entry of the key, added if there is room; NULL when the table is
 * full. */
static struct rec_call *call_entry(struct sw_record *r, enum sw_abi abi,
				   uint64_t nr, int rule, enum sw_outcome o)
{
	size_t n_slots = 2 * r->cap_calls;
	size_t i = hash(abi, nr, rule, o, n_slots);

	for (size_t n = 0; n < n_slots; n++, i = (i + 1) & (n_slots - 1)) {
		struct rec_call *c;

		if (!r->slot[i]) {
			if (r->n_calls == r->cap_calls) {
				/* The slots move: look the key up anew. */
				if (grow_calls(r) < 0)
					return NULL;
				return call_entry(r, abi, nr, rule, o);
			}
			c = &r->calls[r->n_calls];
			c->abi = (uint8_t)abi;
			c->nr = nr;
			c->rule = rule;
			c->outcome = (uint8_t)o;
			r->slot[i] = (uint16_t)++r->n_calls;
			return c;
		}
		c = &r->calls[r->slot[i] - 1];
		if (c->abi == abi && c->nr == nr && c->rule == rule && c->outcome == o)
			return c;
	}
	return NULL;
}

static void keep_str(char *dst, const char *src, bool *cut)
{
	size_t n = strlen(src);

	*cut = n >= REC_STR;
	if (*cut)
		n = REC_STR - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Arguments that differ from run to run although the kernel does not
 * declare them as pointers: the one table of them (what argtypes.h, from
 * the kernel's prototypes, calls a pointer is left out too).  One letter
 * per argument from the first, '.' kept:
 *   'a' an address declared unsigned long (the memory calls' addr,
 *       arch_prctl(ARCH_SET_FS)'s base, clone's stack and TLS, the
 *       unsigned long that ioctl, fcntl, prctl and keyctl take for a
 *       pointer as often as not, an AIO context): it moves with ASLR;
 *   'p' a process, thread or group id: kept only as 0, -1 or 1, which
 *       are the same in every run ("the caller", "every child", init),
 *       else left out;
 *   'v' a word a run sets up (futex's expected value: often a tid).
 * args32 is the row of an ABI whose clone takes tls before child_tid
 * (sw_abi_clone_backwards(): i386); the other rows are every ABI's.
 * Sorted by name (bsearch).
 */
static const struct run_args {
	const char *name;
	const char *args;
	const char *args32;	/* sw_abi_clone_backwards() ABIs' (i386),
				 * or NULL: the same */
} run_args[] = {
	{ "arch_prctl", ".a", NULL }, { "brk", "a", NULL },
	{ "clone", ".a..a", ".a.a" }, { "fcntl", "..a", NULL },
	{ "fcntl64", "..a", NULL }, { "futex", "..v", NULL },
	{ "get_mempolicy", "...a", NULL }, { "get_robust_list", "p", NULL },
	{ "getpgid", "p", NULL }, { "getpriority", ".p", NULL },
	{ "getsid", "p", NULL }, { "io_cancel", "a", NULL },
	{ "io_destroy", "a", NULL }, { "io_getevents", "a", NULL },
	{ "io_pgetevents", "a", NULL }, { "io_submit", "a", NULL },
	{ "ioctl", "..a", NULL }, { "ioprio_get", ".p", NULL },
	{ "ioprio_set", ".p", NULL }, { "kcmp", "pp", NULL },
	{ "keyctl", ".aaaa", NULL }, { "kill", "p", NULL },
	{ "madvise", "a", NULL }, { "map_shadow_stack", "a", NULL },
	{ "mbind", "a", NULL }, { "migrate_pages", "p", NULL },
	{ "mincore", "a", NULL }, { "mlock", "a", NULL },
	{ "mlock2", "a", NULL }, { "mmap", "a", NULL },
	{ "move_pages", "p", NULL }, { "mprotect", "a", NULL },
	{ "mremap", "a...a", NULL }, { "mseal", "a", NULL },
	{ "msync", "a", NULL }, { "munlock", "a", NULL },
	{ "munmap", "a", NULL }, { "perf_event_open", ".p", NULL },
	{ "pidfd_open", "p", NULL }, { "pkey_mprotect", "a", NULL },
	{ "prctl", ".aaaa", NULL }, { "prlimit64", "p", NULL },
	{ "process_vm_readv", "p", NULL }, { "process_vm_writev", "p", NULL },
	{ "ptrace", ".paa", NULL }, { "remap_file_pages", "a", NULL },
	{ "rt_sigqueueinfo", "p", NULL }, { "rt_tgsigqueueinfo", "pp", NULL },
	{ "sched_getaffinity", "p", NULL }, { "sched_getattr", "p", NULL },
	{ "sched_getparam", "p", NULL }, { "sched_getscheduler", "p", NULL },
	{ "sched_rr_get_interval", "p", NULL }, { "sched_setaffinity", "p", NULL },
	{ "sched_setattr", "p", NULL }, { "sched_setparam", "p", NULL },
	{ "sched_setscheduler", "p", NULL }, { "set_mempolicy_home_node", "a", NULL },
	{ "setpgid", "pp", NULL }, { "setpriority", ".p", NULL },
	{ "tgkill", "pp", NULL }, { "tkill", "p", NULL },
	{ "wait4", "p", NULL }, { "waitid", ".p", NULL },
};

static int run_args_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct run_args *)elem)->name);
}

/* The arguments the report leaves out of a call's sample (bit i:
 * argument i): pointers, and those run_args[] says of these values. */
static uint8_t left_out(enum sw_abi abi, const char *types, const char *name,
			const uint64_t args[6])
{
	const struct run_args *row = name ?
		bsearch(name, run_args, sizeof(run_args) / sizeof(run_args[0]),
			sizeof(run_args[0]), run_args_cmp) : NULL;
	const char *ra = row && sw_abi_clone_backwards(abi) && row->args32 ? row->args32
		       : row ? row->args : "";
	uint8_t out = 0;

	for (unsigned int i = 0; i < 6; i++) {
		char k = i < strlen(ra) ? ra[i] : '.';
		int32_t v = (int32_t)args[i];	/* a pid_t */

		if ((types && (i >= strlen(types) || types[i] == 'p')) ||
		    k == 'a' || k == 'v' || (k == 'p' && v != 0 && v != -1 && v != 1))
			out |= (uint8_t)(1u << i);
	}
	return out;
}

/* The call's arguments as the report keeps them: at the width the kernel
 * reads each, those left out (*hidden) as 0.  Returns the argument
 * letters (NULL: not known, all six shown). */
static const char *sample_args(enum sw_abi abi, const char *name,
			       const uint64_t args[6], uint64_t out[6],
			       uint8_t *hidden)
{
	const char *types = sw_syscall_arg_types(sw_abi_token(abi), name);
	uint64_t width = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;

	*hidden = left_out(abi, types, name, args);
	for (unsigned int i = 0; i < 6; i++) {
		if (*hidden & (1u << i))
			out[i] = 0;
		else
			out[i] = args[i] & sw_arg_mask(abi, name, i) & width;
	}
	return types;
}

static void add_sample(struct rec_call *c, pid_t pid, enum sw_abi abi,
		       const char *name, const uint64_t args[6],
		       const struct sw_decision *d)
{
	struct rec_sample s = { 0 };
	uint8_t pargs = sw_string_args(sw_abi_token(abi), name);

	sample_args(abi, name, args, s.args, &s.hidden);
	if (!c->samples &&
	    !(c->samples = calloc(SW_RECORD_SAMPLES, sizeof(*c->samples)))) {
		c->more_samples = true;		/* no memory: none kept */
		return;
	}
	if (c->n_samples == SW_RECORD_SAMPLES) {
		/* Full: no more reads of the program's memory for this
		 * entry; say only that other arguments came. */
		for (uint8_t k = 0; k < c->n_samples; k++)
			if (!memcmp(c->samples[k].args, s.args, sizeof(s.args)) &&
			    c->samples[k].hidden == s.hidden)
				return;
		c->more_samples = true;
		return;
	}
	/* The string a path condition read (the one the decision was made
	 * on), else the first path argument, read for the report only. */
	if (d->path) {
		keep_str(s.path, d->path, &s.path_cut);
		s.has_path = true;
	} else {
		for (unsigned int i = 0; i < 6 && pargs; i++) {
			char buf[REC_STR + 1];

			if (!(pargs & (1u << i)))
				continue;
			if (sw_read_tracee_string_arg(pid, abi, name, i, args, buf,
						      sizeof(buf)) >= 0) {
				keep_str(s.path, buf, &s.path_cut);
				s.has_path = true;
			}
			break;
		}
	}
	for (uint8_t k = 0; k < c->n_samples; k++)
		if (!memcmp(c->samples[k].args, s.args, sizeof(s.args)) &&
		    c->samples[k].hidden == s.hidden &&
		    c->samples[k].has_path == s.has_path &&
		    !strcmp(c->samples[k].path, s.path))
			return;
	c->samples[c->n_samples++] = s;
}

/* The path table: REC_PATHS_FIRST at the first path, then doubled. */
static int grow_paths(struct sw_record *r)
{
	if (r->cap_paths)
		return grow((void **)&r->paths, &r->cap_paths, sizeof(*r->paths),
			    SW_RECORD_PATHS);
	r->paths = calloc(REC_PATHS_FIRST, sizeof(*r->paths));
	if (!r->paths)
		return -ENOMEM;
	r->cap_paths = REC_PATHS_FIRST;
	return 0;
}

/* An entry's path that no rule can say (enum sw_learn_why). */
static void lose_path(struct rec_call *c, enum sw_learn_why why)
{
	if (!c->paths_lost)
		c->lost_why = (uint8_t)why;
	if (c->paths_lost < UINT32_MAX)
		c->paths_lost++;
}

/* keep_str() that, when it cuts, cuts between UTF-8 sequences, so that a
 * name that was UTF-8 stays UTF-8 (reclearn.c learns only those): a
 * prefix of it (cut marks it). */
static void keep_path(char *dst, const char *src, bool *cut)
{
	keep_str(dst, src, cut);
	if (*cut) {
		size_t n = strlen(dst);

		while (n && ((unsigned char)dst[n - 1] & 0xc0) == 0x80)
			n--;
		if (n && (unsigned char)dst[n - 1] >= 0xc0)
			n--;	/* the lead byte of the sequence cut */
		dst[n] = '\0';
	}
}

/* --paths: the string c's first path argument named (for connect, the
 * unix address it named), once per call entry.  A path no rule can say
 * (enum sw_learn_why) is counted on the entry: its other paths are still
 * learned, and the writer says so (reclearn.c). */
static void add_path(struct sw_record *r, struct rec_call *c, pid_t pid,
		     enum sw_abi abi, const char *name, const uint64_t args[6],
		     const struct sw_decision *d)
{
	uint32_t arch = sw_abi_token(abi);
	uint8_t pargs = sw_string_args(arch, name);
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	uint16_t call = (uint16_t)(c - r->calls + 1);
	char buf[REC_STR + 1], path[REC_STR];
	bool cut = false, null = false;
	unsigned int i;

	if (!pargs || !r->keep_paths)
		return;
	for (i = 0; !(pargs & (1u << i)); i++)
		;
	if (!(args[i] & mask) && sw_path_null_ok(arch, c->nr, i, args)) {
		/* NULL where the kernel acts on a descriptor: no path
		 * condition holds for it (decide.c); learned as the
		 * argument 0 (reclearn.c). */
		null = true;
		path[0] = '\0';
	} else if (d->path && d->pinned & (1u << i)) {
		keep_path(path, d->path, &cut);
	} else if (sw_read_tracee_string_arg(pid, abi, name, i, args, buf,
					     sizeof(buf)) >= 0) {
		keep_path(path, buf, &cut);
	} else {
		/* Unreadable: the kernel failed the call (EFAULT), and the
		 * learned path rules fail it alike (decide.c); or no unix
		 * address (another family).  Nothing to learn. */
		return;
	}
	for (size_t k = 0; k < r->n_paths; k++)
		if (r->paths[k].call == call && r->paths[k].null == null &&
		    !strcmp(r->paths[k].path, path))
			return;
	if (r->n_paths == r->cap_paths && grow_paths(r) < 0) {
		lose_path(c, SW_LEARN_TABLE_FULL);
		return;
	}
	r->paths[r->n_paths].call = call;
	r->paths[r->n_paths].cut = cut;
	r->paths[r->n_paths].null = null;
	memcpy(r->paths[r->n_paths].path, path, sizeof(path));
	r->n_paths++;
}

void sw_record_call(struct sw_record *r, struct sw_tracee *t, enum sw_abi abi,
		    uint64_t nr, const uint64_t args[6],
		    const struct sw_decision *d)
{
	enum sw_outcome o = sw_outcome_of(d);
	struct rec_call *c;
	uint64_t *per_prog;

	r->totals[o]++;
	per_prog = t->rec_prog ? r->progs[t->rec_prog - 1].out : r->out_no_program;
	per_prog[o]++;
	c = call_entry(r, abi, nr, d->rule, o);
	if (!c) {
		r->calls_dropped++;
		return;
	}
	if (!c->count++) {
		c->action = d->action;
		if (d->why)
			c->why = strndup(d->why, REC_WHY - 1);	/* NULL: none */
	}
	/* Arguments of what the policy did not simply allow. */
	if (o != SW_OUT_ALLOWED || r->keep_paths || r->keep_files) {
		char *name = seccomp_syscall_resolve_num_arch(sw_abi_token(abi), (int)nr);

		if (o != SW_OUT_ALLOWED)
			add_sample(c, t->pid, abi, name, args, d);
		if (r->keep_paths && name)
			add_path(r, c, t->pid, abi, name, args, d);
		/* What runs reaches its object (not a refusal's). */
		if (r->keep_files && name && o != SW_OUT_REFUSED &&
		    o != SW_OUT_DEFENCE)
			rec_files_call(r, t->pid, abi, name, args);
		free(name);
	}
}

void sw_record_task(struct sw_record *r)
{
	r->tasks++;
}

void sw_record_exec(struct sw_record *r, struct sw_tracee *t)
{
	char link[64], path[PATH_MAX];
	bool cut;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", t->pid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0) {
		/* Gone, or not ours to read: its calls count under no
		 * program rather than under the one it replaced. */
		t->rec_prog = 0;
		r->execs_dropped++;
		return;
	}
	path[n] = '\0';
	for (size_t i = 0; i < r->n_progs; i++) {
		struct rec_prog *p = &r->progs[i];

		if (strncmp(p->path, path, REC_STR - 1) == 0 &&
		    p->path_cut == (n >= REC_STR)) {
			p->execs++;
			t->rec_prog = (uint16_t)(i + 1);
			return;
		}
	}
	if (r->n_progs == r->cap_progs &&
	    grow((void **)&r->progs, &r->cap_progs, sizeof(*r->progs),
		 SW_RECORD_PROGRAMS) < 0) {
		t->rec_prog = 0;	/* full: counted under no program */
		r->execs_dropped++;
		return;
	}
	keep_str(r->progs[r->n_progs].path, path, &cut);
	r->progs[r->n_progs].path_cut = cut;
	r->progs[r->n_progs].execs = 1;
	t->rec_prog = (uint16_t)++r->n_progs;
}
