// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The record written out (record.c keeps it): the --report JSON and the
 * summary --complain and --gate print.  Both are for diffing: sorted by
 * text, with no times, pids or addresses (record.c says which arguments
 * are left out, and why).
 */
#include <errno.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/decode.h"
#include "sysward/pathargs.h"
#include "record/record.h"
#include "decide/program.h"

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
	return sw_rule_builtin(rule) ? "builtin" : "defaultAction";
}

static void write_outcomes(FILE *f, const uint64_t out[SW_OUT_COUNT])
{
	for (int o = 0; o < SW_OUT_COUNT; o++)
		fprintf(f, "%s\"%s\": %llu", o ? ", " : "", sw_outcome_name(o),
			(unsigned long long)out[o]);
}

/* "name(args)" of a sample, decoded as strace writes it (decode.c), what
 * the report leaves out "...", in a string to free (NULL: no memory):
 * the report's "call" and the summary's example.  The record keeps one
 * string, the path the decision read or the first string argument's:
 * shown at the first string argument. */
static char *decoded(const char *name, enum sw_abi abi, const struct rec_sample *s)
{
	uint32_t tok = sw_abi_token(abi);
	const char *strs[6] = { 0 };
	uint8_t sargs = sw_string_args(tok, name);

	for (int i = 0; i < 6 && s->has_path; i++)
		if (sargs & (1u << i)) {
			strs[i] = s->path;
			break;
		}
	return sw_decode_call(tok, name, s->args, strs, s->hidden);
}

/* ', "call": "..."' of a sample: the raw values decoded for people. */
static void write_call_text(FILE *f, const char *name, enum sw_abi abi,
			    const struct rec_sample *s)
{
	cleanup_free char *call = decoded(name, abi, s);

	if (call) {
		fputs(", \"call\": ", f);
		sw_json_str(f, call);
	}
}

/* The first sample, as the summary shows it. */
static void write_sample_text(FILE *f, const struct sorted_call *sc)
{
	const struct rec_call *c = sc->c;
	struct rec_sample samples[SW_RECORD_SAMPLES];
	cleanup_free char *call = NULL;

	if (!c->n_samples)
		return;
	memcpy(samples, c->samples, sizeof(samples[0]) * c->n_samples);
	qsort(samples, c->n_samples, sizeof(samples[0]), sample_cmp);
	call = decoded(sc->name, c->abi, &samples[0]);
	if (call)
		fprintf(f, ", e.g. %s", call);
	if (c->n_samples > 1 || c->more_samples)
		fputs(" and other arguments", f);
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
		sw_outcome_name(c->outcome));
	sw_json_str(f, rule_words(p, c->rule));
	fprintf(f, ", \"action\": \"%s\", \"count\": %llu",
		sw_rule_builtin(c->rule) ? "SYSWARD_DEFENCE" : sw_action_name(c->action),
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
			write_call_text(f, sc->name, c->abi, &samples[k]);
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
		if (c->rule <= SW_RULE_FILES && c->why) {
			/* complain mode's judgement of a file rule
			 * (fscomplain.c): its reason names the rule */
			fputc(' ', f);
			sw_text_str(f, c->why);
		} else if (c->outcome == SW_OUT_DEFENCE) {
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
