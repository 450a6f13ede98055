// SPDX-License-Identifier: LGPL-2.1-or-later
/* The policy's warnings "sysward run" shows (runopts.h). */
#include <stddef.h>

#include "sysward/policy.h"
#include "commands.h"
#include "runopts.h"

void sw_run_print_policy_warnings(const struct sw_policy *p)
{
	for (size_t i = 0; i < p->n_warnings; i++) {
		/* A profile written for a newer libseccomp names calls this
		 * one cannot filter; Docker's names a dozen.  Nothing in the
		 * profile is wrong and nothing can be done at each run. */
		if (p->warning_kinds &&
		    p->warning_kinds[i] == SW_POLICY_WARN_SYSCALL_NEWER)
			continue;
		sw_cli_error("warning: %s", p->warnings[i]);
	}
}
