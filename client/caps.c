// SPDX-License-Identifier: LGPL-2.1-or-later
/* Capability names from the command line, via libcap's own table. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

#include "run.h"

static int one_cap(const char *name, size_t len, uint64_t *mask, bool *all)
{
	char buf[64];
	cap_value_t v;
	size_t off = 0;

	if (len == 0 || len >= sizeof(buf) - 4)
		return -EINVAL;
	/* Accept "CAP_SYS_ADMIN", "cap_sys_admin" and "sys_admin". */
	if (!(len > 4 && strncasecmp(name, "cap_", 4) == 0)) {
		memcpy(buf, "cap_", 4);
		off = 4;
	}
	for (size_t i = 0; i < len; i++)
		buf[off + i] = tolower((unsigned char)name[i]);
	buf[off + len] = '\0';

	if (strcmp(buf, "cap_all") == 0) {
		int last = cap_max_bits() - 1;

		*all = true;
		for (int c = 0; c <= last && c < 64; c++)
			*mask |= UINT64_C(1) << c;
		return 0;
	}
	if (cap_from_name(buf, &v) < 0 || v < 0 || v >= 64)
		return -EINVAL;
	*mask |= UINT64_C(1) << v;
	return 0;
}

int sw_parse_caps(const char *text, uint64_t *mask, bool *all, char *bad,
		  size_t bad_size)
{
	const char *p = text;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (one_cap(p, len, mask, all) < 0) {
			snprintf(bad, bad_size, "%.*s", (int)len, p);
			return -EINVAL;
		}
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

uint64_t sw_own_effective_caps(void)
{
	cap_t have = cap_get_proc();
	int last = cap_max_bits();
	uint64_t mask = 0;

	if (!have)
		return 0;
	for (int c = 0; c < last && c < 64; c++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(have, (cap_value_t)c, CAP_EFFECTIVE,
				 &v) == 0 && v == CAP_SET)
			mask |= UINT64_C(1) << c;
	}
	cap_free(have);
	return mask;
}

/*
 * Capabilities that no system call policy confines (docs/security.md,
 * "sysward does not promise"): what a program holding one can do.
 */
static const struct {
	int cap;
	const char *name;
	const char *why;
} dangerous[] = {
	{ CAP_SYS_PTRACE, "CAP_SYS_PTRACE",
	  "the program can write the supervisor's memory through "
	  "/proc/PID/mem and take it over (ptrace itself stays denied, "
	  "which is no boundary)" },
	{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN",
	  "it is the catch-all administrative capability (mounts, "
	  "namespaces, BPF, perf, keyctl, terminal input injection with "
	  "TIOCSTI, ...), and each of these reaches outside the sandbox "
	  "unless the policy denies it" },
	{ CAP_SYS_MODULE, "CAP_SYS_MODULE",
	  "the program can load kernel modules, that is run its own code "
	  "in the kernel" },
	{ CAP_SYS_RAWIO, "CAP_SYS_RAWIO",
	  "the program can reach hardware and memory directly (iopl, "
	  "ioperm, /dev/mem, raw device commands), bypassing the kernel's "
	  "own checks" },
	{ CAP_SYS_BOOT, "CAP_SYS_BOOT",
	  "the program can load and boot another kernel (kexec_load) or "
	  "reboot the machine" },
	{ CAP_MAC_ADMIN, "CAP_MAC_ADMIN",
	  "the program can change the Linux security module policy "
	  "(AppArmor, SELinux, Smack) that may confine it besides sysward" },
	{ CAP_BPF, "CAP_BPF",
	  "the program can load BPF programs into the kernel; with "
	  "CAP_PERFMON, tracing programs that read the memory of every "
	  "process, the supervisor's included" },
	{ CAP_PERFMON, "CAP_PERFMON",
	  "the program can observe every process on the machine "
	  "(perf_event_open); with CAP_BPF, tracing programs that read the "
	  "memory of every process, the supervisor's included" },
};

const char *sw_cap_danger(uint64_t mask, size_t *i, const char **name)
{
	for (; *i < sizeof(dangerous) / sizeof(dangerous[0]); (*i)++) {
		if (mask & (UINT64_C(1) << dangerous[*i].cap)) {
			*name = dangerous[*i].name;
			return dangerous[(*i)++].why;
		}
	}
	return NULL;
}
