// SPDX-License-Identifier: LGPL-2.1-or-later
/* sysward info: what the running kernel and libraries can do. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <seccomp.h>

#include "sysward/engine.h"
#include "sysward/policy.h"

#include "commands.h"

#ifndef SYSWARD_VERSION
#define SYSWARD_VERSION "unknown"
#endif

void cmd_info_help(FILE *f)
{
	fprintf(f,
"Usage: %s info [--json]\n"
"Show the kernel release and architecture, whether the kernel supports\n"
"seccomp filters, PTRACE_GET_SYSCALL_INFO and PTRACE_SET_SYSCALL_INFO\n"
"(probed with a short-lived traced child), its Landlock ABI (sysward puts\n"
"every session in a Landlock domain of its own, and refuses to run\n"
"without one) with the rights of a policy's \"filesystem\" and \"network\"\n"
"sections it cannot enforce (dropped, or the launch refused with\n"
"\"strict\"), and the libseccomp version.\n"
"\n"
"Options:\n"
"  -j, --json   print one JSON object instead of text\n"
"  -h, --help   show this help and exit\n"
"\n"
"Exit status: 0, or 125 if the probe itself failed.\n",
		sw_program_name);
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/* The file rights this kernel's Landlock cannot refuse, by name, into
 * the JSON array a, or as words into buf. */
static void dropped_rights(int abi, json_object *a, char *buf, size_t len)
{
	uint64_t dropped = SW_FS_ALL & ~sw_fs_rights_of_abi(abi);
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int b = 0; b < 64; b++) {
		const char *name = sw_fs_right_name(1ULL << b);

		if (!(dropped & (1ULL << b)) || !name)
			continue;
		if (a)
			json_object_array_add(a, json_object_new_string(name));
		if (buf && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s (ABI %d)",
						 used ? ", " : "", name,
						 sw_fs_right_abi(1ULL << b));
	}
}

static void print_json(const struct sw_kernel_support *ks,
		       const struct scmp_version *v, unsigned int api)
{
	json_object *o = json_object_new_object();
	char lib[64];

	snprintf(lib, sizeof(lib), "%u.%u.%u", v->major, v->minor, v->micro);
	json_object_object_add(o, "sysward",
			       json_object_new_string(SYSWARD_VERSION));
	json_object_object_add(o, "kernel", json_object_new_string(ks->release));
	json_object_object_add(o, "arch", json_object_new_string(ks->machine));
	json_object_object_add(o, "seccomp_filter",
			       json_object_new_boolean(ks->seccomp_filter));
	json_object_object_add(o, "ptrace_get_syscall_info",
			       json_object_new_boolean(ks->get_syscall_info));
	json_object_object_add(o, "ptrace_set_syscall_info",
			       json_object_new_boolean(ks->set_syscall_info));
	json_object_object_add(o, "landlock_abi",
			       json_object_new_int(ks->landlock_abi));
	if (ks->landlock_abi > 0) {
		json_object *a = json_object_new_array();

		dropped_rights(ks->landlock_abi, a, NULL, 0);
		json_object_object_add(o, "landlock_fs_rights_not_enforced", a);
		json_object_object_add(o, "landlock_tcp_ports",
				       json_object_new_boolean(ks->landlock_abi >= 4));
	}
	json_object_object_add(o, "libseccomp", json_object_new_string(lib));
	json_object_object_add(o, "libseccomp_api",
			       json_object_new_int((int)api));
	json_object_object_add(o, "can_run",
			       json_object_new_boolean(ks->seccomp_filter &&
						       ks->set_syscall_info &&
						       ks->landlock_abi > 0));
	printf("%s\n", json_object_to_json_string_ext(o,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int cmd_info(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct sw_kernel_support ks = { 0 };
	struct sw_error err = { 0 };
	const struct scmp_version *v;
	bool json = false;
	unsigned int api;
	int opt;

	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			cmd_info_help(stdout);
			return SW_EXIT_OK;
		default:
			fprintf(stderr, "Try '%s info --help'.\n",
				sw_program_name);
			return SW_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return sw_cli_usage("info", "unexpected argument '%s'",
				    argv[optind]);

	if (sw_probe_kernel(&ks, &err) < 0) {
		sw_cli_error("probe kernel support: %s", err.msg);
		return SW_EXIT_SYSWARD_ERROR;
	}
	v = seccomp_version();
	api = seccomp_api_get();

	if (json) {
		print_json(&ks, v, api);
		return SW_EXIT_OK;
	}
	printf("sysward:                  %s\n", SYSWARD_VERSION);
	printf("kernel:                   %s\n", ks.release);
	printf("architecture:             %s\n", ks.machine);
	printf("seccomp filter:           %s\n", yes_no(ks.seccomp_filter));
	printf("PTRACE_GET_SYSCALL_INFO:  %s\n", yes_no(ks.get_syscall_info));
	printf("PTRACE_SET_SYSCALL_INFO:  %s\n", yes_no(ks.set_syscall_info));
	if (ks.landlock_abi > 0) {
		char dropped[512];

		printf("Landlock:                 ABI %d\n", ks.landlock_abi);
		/* what a policy's "filesystem" and "network" lose here */
		dropped_rights(ks.landlock_abi, NULL, dropped, sizeof(dropped));
		printf("  file rights:            %s%s\n", dropped[0] ? "all but " : "all",
		       dropped);
		printf("  TCP ports:              %s\n", ks.landlock_abi >= 4
		       ? "yes" : "no (ABI 4, Linux 6.7)");
	} else
		printf("Landlock:                 no (%s)\n",
		       sw_landlock_missing_why(ks.landlock_err));
	printf("libseccomp:               %u.%u.%u (API level %u)\n",
	       v->major, v->minor, v->micro, api);
	if (!ks.set_syscall_info)
		printf("\nThis kernel lacks PTRACE_SET_SYSCALL_INFO (Linux 6.16+):"
		       " sysward runs only policies of plain seccomp\n"
		       "actions here and refuses those that need the supervisor"
		       " (skip, emulate, rewrite, log,\n"
		       "paths, when). Boot the patched kernel in QEMU for them: "
		       "qemu-images/run-vm --kernel patched ...\n");
	if (ks.landlock_abi < 1)
		printf("\nThis kernel has no Landlock: sysward refuses to run"
		       " programs here, as it could not keep\n"
		       "them from reaching other processes of their uid. Boot"
		       " a kernel with CONFIG_SECURITY_LANDLOCK=y\n"
		       "and landlock in its LSM list (lsm=landlock,...).\n");
	return SW_EXIT_OK;
}
