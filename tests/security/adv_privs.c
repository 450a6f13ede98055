// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 5: privilege.  Prints the credentials the program ended up with;
 * the driver asserts them.  Also used as the setuid-root binary (a copy,
 * chmod u+s): under no_new_privs the kernel ignores the setuid bit, so the
 * effective uid stays the caller's.
 */
#include <sys/prctl.h>

#include "adv.h"

int main(void)
{
	static const char *const fields[] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
		"NoNewPrivs", "Seccomp",
	};
	char v[64];

	FACT("uid %d", getuid());
	FACT("euid %d", geteuid());
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		FACT("%s %s", fields[i],
		     adv_status_field("self", fields[i], v, sizeof(v)) ?: "?");
	return 0;
}
