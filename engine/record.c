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
#include "internal.h"

#define REC_STR		192	/* a path or program name kept, cut there */
#define REC_WHY		128

struct rec_sample {
	uint64_t args[6];	/* those left out as 0 */
	uint8_t hidden;		/* bit i: argument i left out (left_out()) */
	char path[REC_STR];
	bool has_path;
	bool path_cut;		/* longer than REC_STR - 1 bytes */
};

/* One itemised (ABI, syscall, rule, outcome). */
struct rec_call {
	uint8_t abi;
	uint8_t outcome;
	int32_t rule;
	uint64_t nr;
	enum sw_action action;
	uint64_t count;
	uint8_t n_samples;
	bool more_samples;	/* other arguments were seen too */
	bool paths_lost;	/* a path did not fit the path table */
	char *why;		/* a defence's reason (REC_WHY - 1 bytes at
				 * most), or NULL */
	struct rec_sample *samples;	/* SW_RECORD_SAMPLES, from the first */
};

/* One program executed (its /proc/<pid>/exe). */
struct rec_prog {
	char path[REC_STR];
	bool path_cut;
	uint64_t execs;
	uint64_t out[SW_OUT_COUNT];
};

/* Open addressing over the dense calls[]: slot = index + 1, 0 empty;
 * twice as many slots as the room for entries keeps the probes short
 * (rebuilt as calls[] grows).  The first sizes: a short run's. */
#define REC_CALLS_FIRST		16
#define REC_PROGS_FIRST		4
#define REC_PATHS_FIRST		16
_Static_assert((SW_RECORD_CALLS & (SW_RECORD_CALLS - 1)) == 0 &&
	       (REC_CALLS_FIRST & (REC_CALLS_FIRST - 1)) == 0,
	       "slots: a power of two");
_Static_assert(SW_RECORD_CALLS < 0xffff && SW_RECORD_PROGRAMS < 0xffff,
	       "indexes fit 16 bits");

/* A path a call named (--paths): its call entry, the string as written. */
struct rec_path {
	uint16_t call;		/* index + 1 in calls[] */
	bool cut;
	char path[REC_STR];
};

struct sw_record {
	bool complain;
	bool keep_paths;		/* --paths */
	struct rec_path *paths;		/* cap_paths, up to SW_RECORD_PATHS */
	size_t n_paths, cap_paths;
	uint64_t totals[SW_OUT_COUNT];
	uint64_t tasks;
	uint64_t calls_dropped;		/* counted, not itemised */
	uint64_t execs_dropped;
	uint64_t out_no_program[SW_OUT_COUNT];	/* before the first exec */
	size_t n_calls, n_progs;
	size_t cap_calls, cap_progs;	/* up to SW_RECORD_CALLS, _PROGRAMS */
	uint16_t *slot;			/* 2 * cap_calls */
	struct rec_call *calls;
	struct rec_prog *progs;
};

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
	free(r);
}

size_t sw_record_bytes(const struct sw_record *r)
{
	size_t n = sizeof(*r) + r->cap_calls * sizeof(*r->calls) +
		   2 * r->cap_calls * sizeof(*r->slot) +
		   r->cap_progs * sizeof(*r->progs) +
		   r->cap_paths * sizeof(*r->paths);

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

	if (d->rule == SW_RULE_DEFENCE && !runs)
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
 * i386 gives its own row where its arguments differ (clone's order).
 * Sorted by name (bsearch).
 */
static const struct run_args {
	const char *name;
	const char *args;	/* x86_64, x32 */
	const char *args32;	/* i386, or NULL: the same */
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
	const char *ra = row && abi == SW_ABI_I386 && row->args32 ? row->args32
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
	uint8_t pargs = sw_path_args(name);
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;

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
			if (sw_read_tracee_string(&pid, args[i] & mask, buf,
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

/* --paths: the string c's first path argument named, once per call
 * entry; a path that does not fit marks the entry (no path rule for it
 * then: the call is learned by name). */
static void add_path(struct sw_record *r, struct rec_call *c, pid_t pid,
		     enum sw_abi abi, const char *name, const uint64_t args[6],
		     const struct sw_decision *d)
{
	uint8_t pargs = sw_path_args(name);
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	uint16_t call = (uint16_t)(c - r->calls + 1);
	char buf[REC_STR + 1], path[REC_STR];
	bool cut = false;
	unsigned int i;

	if (!pargs || c->paths_lost || !r->keep_paths)
		return;
	for (i = 0; !(pargs & (1u << i)); i++)
		;
	if (d->path && d->pinned & (1u << i)) {
		keep_str(path, d->path, &cut);
	} else if (sw_read_tracee_string(&pid, args[i] & mask, buf, sizeof(buf)) >= 0) {
		keep_str(path, buf, &cut);
	} else {
		c->paths_lost = true;	/* unreadable: learned by name */
		return;
	}
	/* An empty path names the descriptor (AT_EMPTY_PATH), which no path
	 * rule can say: by name.  A path rule must say the very bytes; a
	 * policy is UTF-8 JSON, and only ASCII is sure to come back
	 * unchanged: others by name too. */
	if (!path[0]) {
		c->paths_lost = true;
		return;
	}
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p >= 0x80) {
			c->paths_lost = true;
			return;
		}
	for (size_t k = 0; k < r->n_paths; k++)
		if (r->paths[k].call == call && !strcmp(r->paths[k].path, path))
			return;
	if (r->n_paths == r->cap_paths && grow_paths(r) < 0) {
		c->paths_lost = true;	/* full: learned by name */
		return;
	}
	r->paths[r->n_paths].call = call;
	r->paths[r->n_paths].cut = cut;
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
	if (o != SW_OUT_ALLOWED || r->keep_paths) {
		char *name = seccomp_syscall_resolve_num_arch(sw_abi_token(abi), (int)nr);

		if (o != SW_OUT_ALLOWED)
			add_sample(c, t->pid, abi, name, args, d);
		if (r->keep_paths && name)
			add_path(r, c, t->pid, abi, name, args, d);
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

/* ---- the report ---------------------------------------------------------- */

struct sorted_call {
	const struct rec_call *c;
	char *name;		/* "unshare", or "syscall_N" */
};

static int call_cmp(const void *a, const void *b)
{
	const struct sorted_call *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	if (x->c->abi != y->c->abi)
		return x->c->abi < y->c->abi ? -1 : 1;
	if (x->c->outcome != y->c->outcome)
		return x->c->outcome < y->c->outcome ? -1 : 1;
	if (x->c->rule != y->c->rule)
		return x->c->rule < y->c->rule ? -1 : 1;
	return 0;
}

static int sample_cmp(const void *a, const void *b)
{
	const struct rec_sample *x = a, *y = b;
	int d = strcmp(x->path, y->path);

	if (d)
		return d;
	if (x->has_path != y->has_path)
		return x->has_path ? 1 : -1;
	for (int i = 0; i < 6; i++)
		if (x->args[i] != y->args[i])
			return x->args[i] < y->args[i] ? -1 : 1;
	if (x->hidden != y->hidden)
		return x->hidden < y->hidden ? -1 : 1;
	return 0;
}

static int prog_cmp(const void *a, const void *b)
{
	const struct rec_prog *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

static const char *rule_words(const struct sw_policy *p, int rule)
{
	if (rule >= 0 && p && (size_t)rule < p->n_rules && p->rules[rule].json_path)
		return p->rules[rule].json_path;
	return rule == SW_RULE_DEFENCE ? "builtin" : "defaultAction";
}

static void write_outcomes(FILE *f, const uint64_t out[SW_OUT_COUNT])
{
	for (int o = 0; o < SW_OUT_COUNT; o++)
		fprintf(f, "%s\"%s\": %llu", o ? ", " : "", outcome_names[o],
			(unsigned long long)out[o]);
}

static void write_call(FILE *f, const struct sorted_call *sc,
		       const struct sw_policy *p)
{
	const struct rec_call *c = sc->c;
	struct rec_sample samples[SW_RECORD_SAMPLES];
	const char *types;

	fprintf(f, "    {\"syscall\": ");
	sw_json_str(f, sc->name);
	fprintf(f, ", \"arch\": \"%s\", \"nr\": %llu, \"outcome\": \"%s\", \"rule\": ",
		sw_abi_name(c->abi), (unsigned long long)c->nr,
		outcome_names[c->outcome]);
	sw_json_str(f, rule_words(p, c->rule));
	fprintf(f, ", \"action\": \"%s\", \"count\": %llu",
		c->rule == SW_RULE_DEFENCE ? "SYSWARD_DEFENCE" : sw_action_name(c->action),
		(unsigned long long)c->count);
	if (c->why) {
		fputs(", \"why\": ", f);
		sw_json_str(f, c->why);
	}
	if (c->n_samples) {
		memcpy(samples, c->samples, sizeof(samples[0]) * c->n_samples);
		qsort(samples, c->n_samples, sizeof(samples[0]), sample_cmp);
		types = sw_syscall_arg_types(sw_abi_token(c->abi), sc->name);
		fputs(", \"samples\": [", f);
		for (uint8_t k = 0; k < c->n_samples; k++) {
			size_t n_args = types ? strlen(types) : 6;

			fprintf(f, "%s{\"args\": [", k ? ", " : "");
			for (size_t i = 0; i < n_args && i < 6; i++) {
				if (samples[k].hidden & (1u << i))
					fprintf(f, "%snull", i ? ", " : "");
				else
					fprintf(f, "%s\"0x%llx\"", i ? ", " : "",
						(unsigned long long)samples[k].args[i]);
			}
			fputc(']', f);
			if (samples[k].has_path) {
				/* ', "path": ...' with "path_hex" when not
				 * UTF-8: the audit log's one rule. */
				sw_jsonl_str(f, "path", samples[k].path);
				if (samples[k].path_cut)
					fputs(", \"path_cut\": true", f);
			}
			fputc('}', f);
		}
		fputc(']', f);
		if (c->more_samples)
			fputs(", \"more_samples\": true", f);
	}
	fputc('}', f);
}

/* The itemised calls sorted by name, ABI, outcome, rule: *ret (free
 * with sorted_free()).  0 or -ENOMEM. */
static int sorted_calls(const struct sw_record *r, struct sorted_call **ret)
{
	struct sorted_call *sc = calloc(r->n_calls ? r->n_calls : 1, sizeof(*sc));

	if (!sc)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_calls; i++) {
		const struct rec_call *c = &r->calls[i];
		char *name = seccomp_syscall_resolve_num_arch(sw_abi_token(c->abi),
							      (int)c->nr);

		if (!name && asprintf(&name, "syscall_%llu",
				      (unsigned long long)c->nr) < 0)
			name = NULL;
		sc[i] = (struct sorted_call){ c, name };
		if (!name) {
			for (size_t k = 0; k < i; k++)
				free(sc[k].name);
			free(sc);
			return -ENOMEM;
		}
	}
	qsort(sc, r->n_calls, sizeof(*sc), call_cmp);
	*ret = sc;
	return 0;
}

static void sorted_free(struct sorted_call *sc, size_t n)
{
	for (size_t i = 0; sc && i < n; i++)
		free(sc[i].name);
	free(sc);
}

/* The first sample's arguments, as the summary shows them. */
static void write_sample_text(FILE *f, const struct sorted_call *sc)
{
	const struct rec_call *c = sc->c;
	struct rec_sample samples[SW_RECORD_SAMPLES];
	const char *types = sw_syscall_arg_types(sw_abi_token(c->abi), sc->name);
	size_t n_args = types ? strlen(types) : 6;

	if (!c->n_samples)
		return;
	memcpy(samples, c->samples, sizeof(samples[0]) * c->n_samples);
	qsort(samples, c->n_samples, sizeof(samples[0]), sample_cmp);
	fprintf(f, ", e.g. %s(", sc->name);
	for (size_t i = 0; i < n_args && i < 6; i++) {
		fputs(i ? ", " : "", f);
		if (types && types[i] == 'p' && samples[0].has_path &&
		    (sw_path_args(sc->name) & (1u << i))) {
			fputc('"', f);
			sw_text_str(f, samples[0].path);
			fputc('"', f);
		} else if (samples[0].hidden & (1u << i)) {
			fputs("...", f);
		} else {
			fprintf(f, "0x%llx", (unsigned long long)samples[0].args[i]);
		}
	}
	fputc(')', f);
	if (c->n_samples > 1 || c->more_samples)
		fputs(" and other arguments", f);
}

int sw_record_write_summary(const struct sw_record *r,
			    const struct sw_policy *p, FILE *f,
			    const char *prefix, unsigned int max_lines)
{
	struct sorted_call *sc = NULL;
	unsigned int lines = 0, more = 0;
	int ret = sorted_calls(r, &sc);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < r->n_calls; i++) {
		const struct rec_call *c = sc[i].c;
		const char *what;

		switch (c->outcome) {
		case SW_OUT_REFUSED:
			what = "refused by";
			break;
		case SW_OUT_WOULD_REFUSE:
			what = "would be refused by";
			break;
		case SW_OUT_DEFENCE:
			what = "refused by sysward itself";
			break;
		default:
			continue;
		}
		if (lines == max_lines) {
			more++;
			continue;
		}
		lines++;
		fprintf(f, "%s%s (%s): %llu %s %s", prefix, sc[i].name,
			sw_abi_name(c->abi), (unsigned long long)c->count,
			c->count == 1 ? "call" : "calls", what);
		if (c->outcome == SW_OUT_DEFENCE) {
			if (c->why) {
				fputs(" (", f);
				sw_text_str(f, c->why);
				fputc(')', f);
			}
		} else {
			fputc(' ', f);
			sw_text_str(f, rule_words(p, c->rule));
			fprintf(f, " (%s)", sw_action_name(c->action));
		}
		write_sample_text(f, &sc[i]);
		fputc('\n', f);
	}
	if (more)
		fprintf(f, "%s... and %u more (--report FILE lists them all)\n",
			prefix, more);
	if (r->calls_dropped)
		fprintf(f, "%s%llu more calls were counted but not itemised (more than %u distinct calls)\n",
			prefix, (unsigned long long)r->calls_dropped, SW_RECORD_CALLS);
	sorted_free(sc, r->n_calls);
	return 0;
}

int sw_record_write_json(const struct sw_record *r,
			 const struct sw_report_info *info, FILE *f)
{
	struct sorted_call *sc = NULL;
	const struct rec_prog *progs[SW_RECORD_PROGRAMS];
	const struct sw_policy *p = info->policy;
	int ret = sorted_calls(r, &sc);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < r->n_progs; i++)
		progs[i] = &r->progs[i];
	qsort(progs, r->n_progs, sizeof(progs[0]), prog_cmp);

	fputs("{\n  \"sysward_report\": 1,\n", f);
	fprintf(f, "  \"mode\": \"%s\",\n", r->complain ? "complain" : "enforce");
	fputs("  \"policy\": ", f);
	sw_json_str(f, p && p->source ? p->source : "");
	fputs(",\n  \"command\": [", f);
	for (size_t i = 0; info->argv && info->argv[i]; i++) {
		fputs(i ? ", " : "", f);
		sw_json_str(f, info->argv[i]);
	}
	fprintf(f, "],\n  \"program_exit\": %d,\n  \"exit\": %d,\n",
		info->program_exit, info->exit_code);
	fprintf(f, "  \"gate\": {\"policy_refusals\": %llu, \"enabled\": %s, \"tripped\": %s},\n",
		(unsigned long long)sw_record_policy_refusals(r),
		info->gate ? "true" : "false", info->gate_tripped ? "true" : "false");
	fputs("  \"totals\": {", f);
	write_outcomes(f, r->totals);
	fprintf(f, "},\n  \"tasks\": %llu,\n  \"calls\": [\n", (unsigned long long)r->tasks);
	for (size_t i = 0; i < r->n_calls; i++) {
		write_call(f, &sc[i], p);
		fputs(i + 1 < r->n_calls ? ",\n" : "\n", f);
	}
	fprintf(f, "  ],\n  \"calls_not_itemised\": %llu,\n  \"programs\": [\n",
		(unsigned long long)r->calls_dropped);
	for (size_t i = 0; i < r->n_progs; i++) {
		fputs("    {\"program\": ", f);
		sw_json_str(f, progs[i]->path);
		if (progs[i]->path_cut)
			fputs(", \"program_cut\": true", f);
		fprintf(f, ", \"execs\": %llu, ", (unsigned long long)progs[i]->execs);
		write_outcomes(f, progs[i]->out);
		fputs(i + 1 < r->n_progs ? "},\n" : "}\n", f);
	}
	fprintf(f, "  ],\n  \"execs_not_itemised\": %llu,\n  \"outside_programs\": {",
		(unsigned long long)r->execs_dropped);
	write_outcomes(f, r->out_no_program);
	fputs("}\n}\n", f);
	if (fflush(f) == EOF || ferror(f))
		ret = -EIO;
	sorted_free(sc, r->n_calls);
	return ret;
}

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
 * string with no slash is kept exact ("a.c", ".", ""); a prefix covered
 * by a shorter one, and an exact string a prefix covers, are dropped.
 * Strings are matched as written (sysward-policy(5)): a later run that
 * names the same files another way ("./src/a.c") is refused.  A call
 * with more than LEARN_PATHS_MAX conditions, or a path the record could
 * not keep, is learned by name.
 */
#define LEARN_PATHS_MAX 16

struct path_cond {
	bool prefix;
	char s[REC_STR];
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

static int path_conditions(const struct sw_record *r, char *const *entry_name,
			   const char *name, uint8_t *ret_index,
			   struct path_cond out[LEARN_PATHS_MAX])
{
	uint8_t pargs = sw_path_args(name);
	struct path_cond all[LEARN_PATHS_MAX];
	int n = 0, kept = 0;

	if (!pargs || !r->keep_paths)
		return -1;
	for (*ret_index = 0; !(pargs & (1u << *ret_index)); (*ret_index)++)
		;
	for (size_t i = 0; i < r->n_calls; i++)
		if (entry_name[i] && !strcmp(entry_name[i], name) &&
		    r->calls[i].paths_lost)
			return -1;
	for (size_t k = 0; k < r->n_paths; k++) {
		const struct rec_path *p = &r->paths[k];
		const char *en = entry_name[p->call - 1];
		struct path_cond c = { 0 };
		const char *slash;
		bool dup = false;

		if (!en || strcmp(en, name))
			continue;	/* another call's, or a refused one's */
		slash = strrchr(p->path, '/');
		c.prefix = slash || p->cut;
		snprintf(c.s, sizeof(c.s), "%.*s",
			 slash ? (int)(slash - p->path + 1) : (int)strlen(p->path), p->path);
		for (int j = 0; j < n && !dup; j++)
			dup = !cond_cmp(&all[j], &c);
		if (dup)
			continue;
		if (n == LEARN_PATHS_MAX)
			return -1;
		all[n++] = c;
	}
	qsort(all, (size_t)n, sizeof(all[0]), cond_cmp);
	for (int j = 0; j < n; j++) {
		bool covered = false;

		for (int i = 0; i < n && !covered; i++)
			covered = cond_covers(&all[i], &all[j]);
		if (!covered)
			out[kept++] = all[j];
	}
	return kept;
}

int sw_record_write_policy(const struct sw_record *r, FILE *f,
			   unsigned int flags, uint64_t *ret_unnamed)
{
	bool oci_runtime = flags & SW_LEARN_OCI_RUNTIME;
	bool args = flags & SW_LEARN_ARGS, paths = flags & SW_LEARN_PATHS;
	/* On the heap: static TLS comes out of every thread's stack, the
	 * memory readers' 64 KiB too (strings.c), and a large __thread
	 * array makes their pthread_create() fail (EINVAL). */
	cleanup_free uint64_t (*values)[SW_RECORD_SAMPLES] =
		calloc(SW_RECORD_CALLS, sizeof(*values));
	cleanup_free char **entry_name = calloc(SW_RECORD_CALLS, sizeof(*entry_name));
	struct path_cond conds[LEARN_PATHS_MAX];
	uint8_t pindex;
	uint8_t index[SW_RECORD_CALLS];
	int nvals[SW_RECORD_CALLS];
	size_t n_rules;
	char *names[SW_RECORD_CALLS];
	bool abi_used[SW_ABI_COUNT] = { false };
	size_t n = 0, k = 0;
	bool clone3 = false, first = true;
	int ret = 0;

	*ret_unnamed = 0;
	if (r->calls_dropped)
		return -E2BIG;
	if (!values || !entry_name)
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
	fputs("],\n  \"syscalls\": [\n", f);
	/* Each name once (the same name from two ABIs), and with --args
	 * the values of its selector where the run used few. */
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1])) {
			nvals[i] = -2;		/* a duplicate: skipped */
			continue;
		}
		/* -3: path conditions (--paths) */
		if (paths && path_conditions(r, entry_name, names[i], &pindex, conds) > 0)
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
		int nc;

		if (nvals[i] != -3)
			continue;
		nc = path_conditions(r, entry_name, names[i], &pindex, conds);
		for (int j = 0; j < nc; j++) {
			fprintf(f, "%s    {\n      \"names\": [\"%s\"],\n"
				"      \"action\": \"SCMP_ACT_ALLOW\",\n"
				"      \"paths\": [{\"index\": %u, \"%s\": ",
				k++ ? ",\n" : "", names[i], pindex,
				conds[j].prefix ? "prefix" : "exact");
			sw_json_str(f, conds[j].s);
			fputs("}]\n    }", f);
		}
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
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	if (fflush(f) == EOF || ferror(f))
		ret = -EIO;
	return ret;
}
