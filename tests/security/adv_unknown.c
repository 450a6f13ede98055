// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 7: syscall numbers the policy (and perhaps the kernel) does not
 * know.  They must be refused by the filter, never run: with the policy's
 * defaultErrnoRet, or ENOSYS above the newest call the policy names (as
 * runc does), so that programs (and glibc's fallbacks, which look for
 * ENOSYS) degrade instead of breaking.
 *
 *   adv_unknown ERRNO [NR...]   e.g. adv_unknown 38: every probe must fail
 *                               ENOSYS; NR... (C integers) instead of the
 *                               default numbers 1000 511 0x3fffffff 4095
 */
#include <sys/syscall.h>

#include "adv.h"

int main(int argc, char **argv)
{
	static const long def_nrs[] = { 1000, 511, 0x3fffffff, 4095 };
	long nrs[16];
	size_t n = 0;
	int want, bad = 0;

	if (argc < 2 || argc > 2 + 16) {
		fprintf(stderr, "usage: %s EXPECTED-ERRNO [NR...]\n", argv[0]);
		return ADV_CANNOT;
	}
	want = atoi(argv[1]);
	for (int a = 2; a < argc; a++)
		nrs[n++] = strtol(argv[a], NULL, 0);
	if (!n)
		for (; n < sizeof(def_nrs) / sizeof(def_nrs[0]); n++)
			nrs[n] = def_nrs[n];
	FACT("expected: -1 %s", strerrorname_np(want) ?: argv[1]);
	for (size_t i = 0; i < n; i++) {
		long r;
		int e;

		TRIED("syscall(%ld)", nrs[i]);
		errno = 0;
		r = syscall(nrs[i], 0, 0, 0, 0, 0, 0);
		e = errno;
		RESULT("syscall(%ld) = %s", nrs[i], RET(r, e));
		if (!(r == -1 && e == want))
			bad = 1;
	}
	return bad ? adv_verdict(ADV_ESCAPED, "an unknown syscall did not "
				 "get the policy's errno")
		   : adv_verdict(ADV_CONTAINED, "unknown syscalls got the "
				 "policy's errno");
}
