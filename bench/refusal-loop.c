// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * refusal-loop N: N calls of getppid(2), which complain-bench.sh's
 * policy refuses with an errno, then exit 0 if every one got it (or, in
 * complain mode, every one ran).  The per-call cost of a refusal: the
 * kernel's (no stop), or a stop at the supervisor (--log, --report,
 * --complain).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, refused = 0, ran = 0;

	for (long i = 0; i < n; i++) {
		errno = 0;
		if (syscall(SYS_getppid) == -1 && errno == EACCES)
			refused++;
		else
			ran++;
	}
	if (refused != n && ran != n) {
		fprintf(stderr, "refusal-loop: %ld refused, %ld ran: expected all one way\n",
			refused, ran);
		return 1;
	}
	return 0;
}
