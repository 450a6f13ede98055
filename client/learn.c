// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward learn: run a program with every call allowed and seen, then
 * write a policy that allows exactly the calls it made.
 *
 * The run is complain mode (the engine's) under a policy that refuses
 * everything: every call of the program stops at the supervisor, is
 * counted in the session's record as one the policy would refuse, and
 * runs.  So the learning run is confined as any complaining run is --
 * the built-in defences hold, and what they refuse is not learned (the
 * program never ran it) -- and the record, with its fixed size, is the
 * one the report comes from (engine/record/record.c writes the policy).
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "sysward/policy.h"

#include "commands.h"
#include "run.h"

/* What the program runs under while it is learned: every call refused,
 * in complain mode (so every call stops and runs). */
static const char learn_policy[] =
	"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 1}";

static void json_putp(struct json_object **o)
{
	json_object_put(*o);
}
#define cleanup_json __attribute__((cleanup(json_putp)))

/*
 * --merge BASE: the learned rules added to BASE without widening what it
 * denies.  A name BASE has a rule for (any action, any condition) keeps
 * BASE's treatment: it is left out of the learned rules, so neither
 * sysward (first match wins) nor libseccomp (which would see two actions
 * for one call) meets a second rule for it.  Only calls BASE leaves to
 * its default action are allowed.  The learned rules follow BASE's, and
 * its architectures are extended by the learned ones, if it lists any.
 */
static bool base_names(struct json_object *base, const char *name)
{
	struct json_object *rules, *rule, *names, *one;

	if (!json_object_object_get_ex(base, "syscalls", &rules) ||
	    !json_object_is_type(rules, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(rules); i++) {
		rule = json_object_array_get_idx(rules, i);
		if (json_object_object_get_ex(rule, "name", &one) &&
		    !strcmp(json_object_get_string(one), name))
			return true;
		if (!json_object_object_get_ex(rule, "names", &names) ||
		    !json_object_is_type(names, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(names); k++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(names, k)), name))
				return true;
	}
	return false;
}

static int merge_into(struct json_object *base, const char *learned_text,
		      FILE *out, bool quiet, struct sw_error *err)
{
	cleanup_json struct json_object *learned = json_tokener_parse(learned_text);
	struct json_object *rules, *brules, *arches, *barches;

	if (!learned || !json_object_object_get_ex(learned, "syscalls", &rules))
		return sw_error_set(err, EINVAL, "the learned policy does not parse");
	if (!json_object_object_get_ex(base, "syscalls", &brules)) {
		brules = json_object_new_array();
		json_object_object_add(base, "syscalls", brules);
	}
	for (size_t i = 0; i < json_object_array_length(rules); i++) {
		struct json_object *rule = json_object_array_get_idx(rules, i);
		struct json_object *names, *kept = json_object_new_array();

		json_object_object_get_ex(rule, "names", &names);
		for (size_t k = 0; k < json_object_array_length(names); k++) {
			struct json_object *n = json_object_array_get_idx(names, k);

			if (!base_names(base, json_object_get_string(n)))
				json_object_array_add(kept, json_object_get(n));
		}
		if (!json_object_array_length(kept)) {
			json_object_put(kept);
			continue;
		}
		json_object_object_add(rule, "names", kept);
		/* A rule's own comment (a catch-all's reason) is kept. */
		if (!json_object_object_get_ex(rule, "comment", NULL))
			json_object_object_add(rule, "comment",
					       json_object_new_string("learned by sysward learn"));
		json_object_array_add(brules, json_object_get(rule));
	}
	/* --filesystem: the learned sections, where BASE has none (its
	 * own are its author's: kept, and said). */
	for (const char *const *key = (const char *const[]){ "filesystem", "network", NULL };
	     *key; key++) {
		struct json_object *sec;

		if (!json_object_object_get_ex(learned, *key, &sec))
			continue;
		if (json_object_object_get_ex(base, *key, NULL)) {
			if (!quiet)
				sw_cli_error("warning: --filesystem: the base policy has its own \"%s\" section: kept, the learned one left out", *key);
		} else
			json_object_object_add(base, *key, json_object_get(sec));
	}
	if (json_object_object_get_ex(base, "architectures", &barches) &&
	    json_object_object_get_ex(learned, "architectures", &arches)) {
		for (size_t i = 0; i < json_object_array_length(arches); i++) {
			struct json_object *a = json_object_array_get_idx(arches, i);
			bool have = false;

			for (size_t k = 0; k < json_object_array_length(barches); k++)
				have |= !strcmp(json_object_get_string(json_object_array_get_idx(barches, k)),
						json_object_get_string(a));
			if (!have)
				json_object_array_add(barches, json_object_get(a));
		}
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(base,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	return fflush(out) == EOF || ferror(out) ? sw_error_set(err, EIO, "write the policy") : 0;
}

void cmd_learn_help(FILE *f)
{
	fprintf(f,
"Usage: %s learn --output FILE [OPTIONS] [--] PROGRAM [ARGS...]\n"
"Run PROGRAM with every system call allowed and seen, then write a policy\n"
"that allows exactly the calls it (and every process it started) made.\n"
"\n"
"Options:\n"
"  -o, --output FILE        where to write the policy ('-' = standard output,\n"
"                           after the program has ended); required\n"
"      --format FORMAT      'sysward' (default): exactly the calls seen, for\n"
"                           sysward run; 'oci': the same plus the calls an\n"
"                           OCI runtime (runc) makes itself before the\n"
"                           program starts, for Docker, Podman and runc.\n"
"                           Both are OCI/Docker seccomp profiles\n"
"  -p, --policy BASE        run the program under BASE (its emulations and\n"
"                           rewrites apply), recording what BASE would refuse\n"
"                           instead of refusing it; the policy written is\n"
"                           BASE with the learned rules merged (--merge)\n"
"      --merge BASE         add the learned rules to the policy BASE, for\n"
"                           the calls BASE leaves to its default action only\n"
"                           (a call BASE names keeps BASE's rule); for\n"
"                           both, BASE '-' is standard input, read once\n"
"      --paths              also the paths a call's first path argument\n"
"                           named, each as its directory as written\n"
"                           (\"/usr/lib/x/libc.so.6\" -> prefix \"/usr/lib/x/\");\n"
"                           a name without a slash exactly (sysward only).\n"
"                           A path no rule can say (not UTF-8, more than\n"
"                           the record keeps) is refused later, and said\n"
"      --catch-all          with --paths: where a call named such a path,\n"
"                           add a rule that allows it every path, after\n"
"                           the paths learned (marked with a comment)\n"
"      --filesystem         also the \"filesystem\" section: the trees the\n"
"                           program read and executed, the directories it\n"
"                           wrote in (Landlock, on the file found), all\n"
"                           else refused; and, if it made TCP sockets, the\n"
"                           \"network\" section with the ports it bound\n"
"                           and connected to (sysward only)\n"
"      --args               also the values of a call's selector argument\n"
"                           (socket's family, ioctl's request, prctl's and\n"
"                           fcntl's command, clone's flags ...) where the\n"
"                           run used at most 4: one rule per value\n"
"  -c, --cap CAP            let the program keep capability CAP, as run does\n"
"  -q, --quiet              print no warnings, only errors\n"
"      --strict             refuse (125) a --policy BASE with a warning that\n"
"                           run would print\n"
"  -h, --help               show this help and exit\n"
"\n"
"The policy refuses everything else with EPERM (clone3 with ENOSYS, so that\n"
"libc falls back to clone), lists the program's system calls by name for\n"
"the ABIs it used, and is the same text for the same calls, so two learned\n"
"policies diff.  Every call stops at the supervisor while learning (a\n"
"ptrace stop each: slower than a run).  sysward's own defences hold as in\n"
"a run, and what they refuse is not learned.  Learn from a run that does\n"
"everything the program will do: a call it did not make is refused later.\n"
"\n"
"Exit status: the program's (128+N if killed by signal N); 125 if sysward\n"
"failed or the policy could not be written; 126, 127 as for run.\n"
"\n"
"Example:\n"
"  %s learn -o ls.json -- ls /\n"
"  %s run --policy ls.json --gate -- ls /\n"
"  %s learn --format oci -o app.json -- ./app   # for runc, Podman, Docker\n",
		sw_program_name, sw_program_name, sw_program_name, sw_program_name);
}

struct learn_options {
	const char *output;
	bool oci;			/* --format oci */
	bool args;			/* --args */
	bool paths;			/* --paths */
	bool catch_all;			/* --catch-all */
	bool filesystem;		/* --filesystem */
	const char *merge;		/* --merge BASE */
	const char *base;		/* --policy BASE */
	struct run_options run;
};

static int parse_options(int argc, char **argv, struct learn_options *o)
{
	enum { OPT_FORMAT = 0x100, OPT_ARGS, OPT_MERGE, OPT_PATHS, OPT_CATCH_ALL,
	       OPT_STRICT, OPT_FILESYSTEM };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "args", no_argument, NULL, OPT_ARGS },
		{ "paths", no_argument, NULL, OPT_PATHS },
		{ "filesystem", no_argument, NULL, OPT_FILESYSTEM },
		{ "catch-all", no_argument, NULL, OPT_CATCH_ALL },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "merge", required_argument, NULL, OPT_MERGE },
		{ "policy", required_argument, NULL, 'p' },
		{ "cap", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt, r;

	/* '+': stop at PROGRAM, so its own options stay its own. */
	while ((opt = getopt_long(argc, argv, "+o:p:c:qh", options, NULL)) != -1) {
		/* A FILE's value is never an option (options.c). */
		if ((opt == 'o' || opt == 'p' || opt == OPT_MERGE) &&
		    (r = sw_cli_required_arg("learn", argv, optind, optarg,
					     opt == 'o' ? "output" : opt == 'p' ? "policy" : "merge",
					     opt == 'o' ? "FILE" : "BASE")) < 0)
			return r;
		switch (opt) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "oci") == 0)
				o->oci = true;
			else if (strcmp(optarg, "sysward") != 0)
				return -sw_cli_usage("learn",
					"unknown format '%s' (expected 'sysward' "
					"or 'oci')", optarg);
			break;
		case OPT_ARGS:
			o->args = true;
			break;
		case OPT_PATHS:
			o->paths = true;
			break;
		case OPT_CATCH_ALL:
			o->catch_all = true;
			break;
		case OPT_FILESYSTEM:
			o->filesystem = true;
			break;
		case OPT_MERGE:
			o->merge = optarg;
			break;
		case 'p':
			o->base = optarg;
			break;
		case 'c':
			r = sw_run_cap_option("learn", optarg, &o->run);
			if (r < 0)
				return r;
			break;
		case 'q':
			o->run.quiet = true;
			break;
		case OPT_STRICT:
			o->run.strict = true;
			break;
		case 'h':
			cmd_learn_help(stdout);
			return 1;
		default:
			fprintf(stderr, "Try '%s learn --help'.\n", sw_program_name);
			return -SW_EXIT_USAGE;
		}
	}
	if (!o->output)
		return -sw_cli_usage("learn", "missing --output FILE");
	if (o->catch_all && !o->paths)
		return -sw_cli_usage("learn", "--catch-all is about the paths "
				     "--paths learns: give both");
	if (o->paths && o->oci)
		return -sw_cli_usage("learn", "--paths writes sysward's own "
				     "path conditions, which runc, Podman and "
				     "Docker do not know: not with --format oci");
	if (o->filesystem && o->oci)
		return -sw_cli_usage("learn", "--filesystem writes sysward's "
				     "\"filesystem\" and \"network\" sections, "
				     "which runc, Podman and Docker ignore: not "
				     "with --format oci (sysward-runtime enforces "
				     "them: learn with the default format)");
	if (optind >= argc)
		return -sw_cli_usage("learn", "missing PROGRAM to run");
	o->run.argv = argv + optind;
	return 0;
}

/* learn never widens without saying so: each call whose paths were
 * not all learned, and what the policy does about it. */
static void say_notes(const struct sw_learn_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++) {
		char what[64] = "";

		if (notes->v[i].calls)
			snprintf(what, sizeof(what), "%llu path%s not learned, ",
				 (unsigned long long)notes->v[i].calls,
				 notes->v[i].calls == 1 ? "" : "s");
		sw_cli_error(notes->v[i].catch_all
			     ? "warning: --paths: %s: %s%s; its last rule, a catch-all, allows it every path (delete that rule to allow only the paths learned)"
			     : "warning: --paths: %s: %s%s; the policy allows only the paths learned (--catch-all would allow it every path)",
			     notes->v[i].call, what, sw_learn_why_str(notes->v[i].why));
	}
	if (notes->more)
		sw_cli_error("warning: --paths: %zu more calls whose paths were not all learned", notes->more);
}

int cmd_learn(int argc, char **argv)
{
	struct learn_options o = { .run = { .log_format = SW_LOG_JSON,
					    .complain = true } };
	cleanup_fclose FILE *out_file = NULL;
	struct sw_policy *policy = NULL;
	struct sw_record *rec = NULL;
	struct sw_error err = { 0 };
	cleanup_json struct json_object *base = NULL;
	cleanup_free char *learned = NULL, *base_text = NULL;
	size_t learned_len = 0, base_len = 0;
	uint64_t unnamed = 0;
	struct sw_learn_notes notes;
	struct sw_exit ex;
	FILE *out, *to;
	int r, code;

	r = parse_options(argc, argv, &o);
	if (r)
		return r > 0 ? SW_EXIT_OK : -r;
	/* Read before --output is opened: it may be the same file.  Read
	 * once: "-p -" (standard input, a pipe) cannot be read again. */
	if (o.base && o.merge && strcmp(o.base, o.merge) != 0 &&
	    (strcmp(o.base, "-") == 0 || strcmp(o.merge, "-") == 0))
		return sw_cli_usage("learn", "--policy and --merge: standard input can be read once; give it to one of them");
	if (o.base && !o.merge)
		o.merge = o.base;
	if (o.merge) {
		cleanup_free char *text = NULL;
		struct sw_policy *check = NULL;
		const char *name = sw_policy_file_name(o.merge);
		size_t len;

		if (sw_policy_read_file(o.merge, &text, &len, &err) < 0 ||
		    sw_policy_load_string(text, len, name, &check, &err) < 0) {
			sw_cli_error("--merge: %s", err.msg);
			return SW_EXIT_SYSWARD_ERROR;
		}
		base = json_tokener_parse(text);
		if (!base || !json_object_is_type(base, json_type_object)) {
			sw_policy_free(check);
			sw_cli_error("--merge: read %s: not a JSON object", name);
			return SW_EXIT_SYSWARD_ERROR;
		}
		/* --policy BASE alone is the policy the program runs under
		 * and the one merged into. */
		if (o.base && strcmp(o.base, o.merge) == 0) {
			policy = check;
			base_text = TAKE_PTR(text);
			base_len = len;
		} else
			sw_policy_free(check);
	}
	if (o.base) {
		/* The program runs under BASE: its warnings as run prints
		 * them, and --strict refuses as run does. */
		if (!policy &&
		    (sw_policy_read_file(o.base, &base_text, &base_len, &err) < 0 ||
		     sw_policy_load_string(base_text, base_len,
					   sw_policy_file_name(o.base), &policy,
					   &err) < 0)) {
			sw_cli_error("%s", err.msg);
			return SW_EXIT_SYSWARD_ERROR;
		}
		if (sw_run_print_policy_warnings(&o.run, policy, base_text,
						 base_len) &&
		    o.run.strict) {
			sw_policy_free(policy);
			return SW_EXIT_SYSWARD_ERROR;
		}
	} else if (sw_policy_load_string(learn_policy, sizeof(learn_policy) - 1,
					 "learn", &policy, &err) < 0) {
		sw_cli_error("%s", err.msg);
		return SW_EXIT_SYSWARD_ERROR;
	}
	/* Opened now: a policy that cannot be written is said before the
	 * program runs. */
	if (strcmp(o.output, "-") == 0) {
		out = stdout;
	} else {
		out_file = fopen(o.output, "we");
		if (!out_file) {
			sw_cli_error("open %s: %s", o.output, strerror(errno));
			sw_policy_free(policy);
			return SW_EXIT_SYSWARD_ERROR;
		}
		out = out_file;
	}

	o.run.record_paths = o.paths;
	o.run.record_files = o.filesystem;
	code = sw_run_embedded(&o.run, policy, true, &rec, &ex);
	if (!rec) {
		/* It never ran: no policy, and no empty file left to load. */
		if (out_file)
			unlink(o.output);
		sw_policy_free(policy);
		return code;
	}
	to = base ? open_memstream(&learned, &learned_len) : out;
	r = to ? sw_record_write_policy(rec, to,
					(o.oci ? SW_LEARN_OCI_RUNTIME : 0) |
					(o.args ? SW_LEARN_ARGS : 0) |
					(o.paths ? SW_LEARN_PATHS : 0) |
					(o.catch_all ? SW_LEARN_CATCH_ALL : 0) |
					(o.filesystem ? SW_LEARN_FILESYSTEM : 0),
					&unnamed, &notes)
	       : -ENOMEM;
	if (base && to && fclose(to) == EOF && r >= 0)
		r = -ENOMEM;
	if (base && r >= 0 && merge_into(base, learned, out, o.run.quiet, &err) < 0) {
		sw_cli_error("--merge %s: %s", o.merge, err.msg);
		r = -ECANCELED;		/* said */
		code = SW_EXIT_SYSWARD_ERROR;
	}
	if (r == -ERANGE) {
		sw_cli_error("--filesystem: the program reached more hierarchies than a policy holds (256): nothing written; learn it in parts, or write the \"filesystem\" section by hand");
		code = SW_EXIT_SYSWARD_ERROR;
	} else if (r == -E2BIG) {
		sw_cli_error("the program made more distinct system calls than the record keeps (%u): the learned policy would miss some; nothing written",
			     SW_RECORD_CALLS);
		code = SW_EXIT_SYSWARD_ERROR;
	} else if (r < 0 && r != -ECANCELED) {
		sw_cli_error("write the policy to %s: %s", o.output, strerror(-r));
		code = SW_EXIT_SYSWARD_ERROR;
	} else if (!o.run.quiet) {
		say_notes(&notes);
		if (o.filesystem) {
			bool ports_lost;
			uint64_t lost = sw_record_files_lost(rec, &ports_lost);

			if (lost)
				sw_cli_error("warning: --filesystem: %llu objects past the 4096 the record keeps were not learned: the \"filesystem\" section may refuse them (learn the program in parts, or widen a hierarchy by hand)",
					     (unsigned long long)lost);
			if (ports_lost)
				sw_cli_error("warning: --filesystem: more than 64 TCP ports bound or connected to: those past them were not learned (write a range in \"network\" by hand)");
		}
		if (unnamed)
			sw_cli_error("warning: %llu calls of system call numbers no name is known for were not learned (a profile names calls)",
				     (unsigned long long)unnamed);
		if (ex.code)
			sw_cli_error("warning: the program exited with status %d: the policy allows what this run did",
				     ex.code);
	}
	if (r < 0 && out_file)
		unlink(o.output);
	sw_record_free(rec);
	sw_policy_free(policy);
	return code;
}
