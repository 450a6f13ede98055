// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 2: io_uring.  Operations submitted through an io_uring are executed
 * by the kernel on the ring's behalf and never pass through seccomp, so a
 * ring would let a confined program open, read, write and connect past the
 * policy.  sysward denies io_uring_setup/enter/register whenever the policy
 * restricts anything or a connection's peer is checked (route 19).
 *
 *   adv_io_uring deny    all three must fail (not EBADF/EFAULT, which would
 *                        mean the kernel looked at the arguments)
 *   adv_io_uring allow   control: under a policy that opts in
 *                        ("allowIoUring": true), io_uring_setup must succeed
 *                        (proves the probe works)
 */
#include <stdint.h>
#include <sys/syscall.h>

#include "sysward/syscall_nr.h"
#include "adv.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "deny";
	bool want_deny = strcmp(mode, "allow") != 0;
	uint64_t params[128 / 8] = { 0 };	/* struct io_uring_params, zeroed */
	long r;
	int e, escaped = 0;

	TRIED("io_uring_setup(8, &params)");
	r = syscall(SYS_io_uring_setup, 8, params);
	e = errno;
	RESULT("io_uring_setup = %s", RET(r, e));
	if (r >= 0) {
		close(r);
		escaped = 1;
	}

	TRIED("io_uring_enter(-1, 1, 0, 0, NULL, 0)");
	r = syscall(SYS_io_uring_enter, -1, 1, 0, 0, NULL, 0);
	e = errno;
	RESULT("io_uring_enter = %s%s", RET(r, e),
	       e == EBADF ? " (EBADF: the kernel ran it)" : "");
	if (r >= 0 || e == EBADF)
		escaped = 1;

	TRIED("io_uring_register(-1, 0, NULL, 0)");
	r = syscall(SYS_io_uring_register, -1, 0, NULL, 0);
	e = errno;
	RESULT("io_uring_register = %s%s", RET(r, e),
	       e == EBADF ? " (EBADF: the kernel ran it)" : "");
	if (r >= 0 || e == EBADF)
		escaped = 1;

	if (!want_deny)
		return escaped ? adv_verdict(ADV_CONTAINED,
					     "io_uring usable, as expected")
			       : adv_verdict(ADV_ESCAPED,
					     "control failed: io_uring denied "
					     "although nothing is restricted");
	return escaped ? adv_verdict(ADV_ESCAPED, "io_uring reachable")
		       : adv_verdict(ADV_CONTAINED, "io_uring denied");
}
