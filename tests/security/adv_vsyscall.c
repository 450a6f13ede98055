// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 10 (docs/security.md): a call through the legacy vsyscall page.  time() at
 * 0xffffffffff600400 is not a syscall instruction: the page faults (it is
 * execute-only, vsyscall=xonly, or absent), the kernel emulates the call
 * and runs the seccomp filters for it.  Its emulation accepts from a
 * tracer only a skip decided at the seccomp stop, with the result in the
 * return register: there is no syscall-exit stop.  Under a policy that
 * emulates time() as 4242, the call must return 4242 (emulated: nothing
 * is stored through the pointer, as for the syscall).
 *
 *   adv_vsyscall            time() and gettimeofday() through the page
 *
 * Exit 2 (cannot test) when this kernel maps no vsyscall page.
 */
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "adv.h"

#define EMULATED_TIME 4242
#define VSYS_GETTIMEOFDAY 0xffffffffff600000ul
#define VSYS_TIME 0xffffffffff600400ul

static bool vsyscall_mapped(void)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "[vsyscall]") != NULL;
	fclose(f);
	return found;
}

int main(void)
{
	time_t (*vtime)(time_t *) = (time_t (*)(time_t *))VSYS_TIME;
	int (*vgtod)(struct timeval *, void *) =
		(int (*)(struct timeval *, void *))VSYS_GETTIMEOFDAY;
	struct timeval tv = { 0 };
	time_t t, stored = 0;
	int r;

	if (!vsyscall_mapped())
		return adv_verdict(ADV_CANNOT, "no [vsyscall] mapping in /proc/self/maps (vsyscall=none or not built in)");
	FACT("[vsyscall] is mapped");

	TRIED("time(&t) at %#lx (a supervisor rule emulates time() as %d)",
	      VSYS_TIME, EMULATED_TIME);
	t = vtime(&stored);
	RESULT("time() = %ld, *t = %ld", (long)t, (long)stored);
	TRIED("time(NULL) at %#lx", VSYS_TIME);
	t = vtime(NULL);
	RESULT("time(NULL) = %ld", (long)t);
	TRIED("gettimeofday() at %#lx (not in the policy: runs)", VSYS_GETTIMEOFDAY);
	r = vgtod(&tv, NULL);
	RESULT("gettimeofday() = %d, tv_sec %ld", r, (long)tv.tv_sec);
	if (t != EMULATED_TIME)
		return adv_verdict(ADV_ESCAPED, "the emulated time() was not returned");
	if (r != 0 || tv.tv_sec < 1000000)
		return adv_verdict(ADV_ESCAPED, "an allowed vsyscall failed");
	return adv_verdict(ADV_CONTAINED, "time() through the vsyscall page was emulated");
}
