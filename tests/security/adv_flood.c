// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 18: the record of a complaining run (sysward run --complain
 * --report) is made from the program's own calls.  A program that makes
 * thousands of distinct refused calls, forks many processes that do the
 * same, and executes many distinct files must not make the supervisor's
 * record (and the report written from it) grow with them.
 *
 *   adv_flood numbers N         syscall(100000 + i) for i < N: numbers
 *                               no kernel has, each refused by the
 *                               policy's default (would-be refusals)
 *   adv_flood forks K N         K children, each "numbers N" over its own
 *                               range, waited for
 *   adv_flood chain DIR N       execute DIR/l1 ... DIR/lN in turn (links
 *                               to this program: N distinct programs),
 *                               each making one refused call
 *
 * The driver (check.sh) reads the report; this program only says what it
 * did.  Under --complain every call returns (the kernel's ENOSYS), so a
 * refused call that killed or stopped the program would show here.
 */
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

#define BASE 100000L

static long numbers(long first, long n)
{
	long enosys = 0;

	for (long i = 0; i < n; i++) {
		errno = 0;
		if (syscall(first + i, 0, 0, 0, 0, 0, 0) == -1 && errno == ENOSYS)
			enosys++;
	}
	return enosys;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "numbers")) {
		long n = atol(argv[2]), got;

		TRIED("%ld distinct unknown syscall numbers", n);
		got = numbers(BASE, n);
		RESULT("%ld of them returned ENOSYS", got);
		return got == n ? adv_verdict(ADV_CONTAINED, "every call returned")
				: adv_verdict(ADV_CANNOT, "a call did not return ENOSYS");
	}
	if (argc >= 4 && !strcmp(argv[1], "forks")) {
		long k = atol(argv[2]), n = atol(argv[3]), ok = 0;

		TRIED("%ld children, %ld distinct unknown numbers each", k, n);
		for (long c = 0; c < k; c++) {
			pid_t pid = fork();
			int st;

			if (pid < 0)
				return adv_verdict(ADV_CANNOT, "fork failed");
			if (pid == 0)
				_exit(numbers(BASE + c * n, n) == n ? 0 : 1);
			if (waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			    WEXITSTATUS(st) == 0)
				ok++;
		}
		RESULT("%ld children made every call", ok);
		return ok == k ? adv_verdict(ADV_CONTAINED, "every child made every call")
			       : adv_verdict(ADV_CANNOT, "a child failed");
	}
	if (argc >= 4 && !strcmp(argv[1], "chain")) {
		long i = argc >= 5 ? atol(argv[4]) : 0, n = atol(argv[3]);
		char next[4096], idx[32];

		numbers(BASE + i, 1);
		if (i + 1 > n) {
			RESULT("executed %ld distinct programs", n);
			return adv_verdict(ADV_CONTAINED, "every program ran");
		}
		snprintf(next, sizeof(next), "%s/l%ld", argv[2], i + 1);
		snprintf(idx, sizeof(idx), "%ld", i + 1);
		if (i == 0)
			TRIED("executing %ld distinct programs in turn", n);
		execl(next, next, "chain", argv[2], argv[3], idx, (char *)NULL);
		RESULT("exec %s: %s", next, strerror(errno));
		return adv_verdict(ADV_CANNOT, "an exec failed");
	}
	fprintf(stderr, "usage: %s numbers N | forks K N | chain DIR N\n", argv[0]);
	return ADV_CANNOT;
}
