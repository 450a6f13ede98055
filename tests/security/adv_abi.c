// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 3: other ABIs from a 64-bit program.
 *
 * An x86-64 process can enter the kernel as i386 (int $0x80: arch
 * AUDIT_ARCH_I386, i386 numbers) or as x32 (syscall with nr | 0x40000000,
 * arch AUDIT_ARCH_X86_64).  A filter written for x86_64 numbers alone would
 * let those through.  The policy used here emulates getuid/getuid32 as 4242
 * and denies mkdir with EACCES:
 *
 *   adv_abi int80 DIR   i386 getuid(24), getuid32(199), mkdir(39)
 *   adv_abi x32 DIR     x32 getuid(102|x32), mkdir(83|x32)
 *
 * Contained means each call was decided by the policy (4242, EACCES) or
 * the process was killed (an ABI the policy does not name); the driver
 * checks the latter from the exit status.
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include "adv.h"

#define EMULATED_UID 4242
#define X32_BIT 0x40000000L

/* A 32-bit system call from 64-bit code: only the low 32 bits of each
 * register reach the kernel, so pointers must live below 4 GiB (this
 * program is static and not PIE). */
static long int80(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a"(ret)
		     : "a"(nr), "b"(a), "c"(b), "d"(c)
		     : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static long x32(long nr, long a, long b)
{
	long r = syscall(nr | X32_BIT, a, b);

	return r == -1 ? -errno : r;
}

static char path[256];

static int check_uid(const char *what, long r)
{
	RESULT("%s = %ld%s", what, r, r == EMULATED_UID ? " (emulated)" :
	       r < 0 && r > -4096 ? " (error)" : "");
	return r == EMULATED_UID ? 0 : 1;
}

static int check_mkdir(const char *what, long r)
{
	struct stat st;
	int exists = stat(path, &st) == 0;

	RESULT("%s = %ld (%s); directory %s", what, r,
	       r < 0 ? strerrorname_np(-r) ?: "?" : "ok",
	       exists ? "EXISTS" : "absent");
	if (exists)
		rmdir(path);
	return (r == -EACCES && !exists) ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s int80|x32 SCRATCH-DIR\n", argv[0]);
		return ADV_CANNOT;
	}
	if ((unsigned long)path >= (1UL << 32))
		return adv_verdict(ADV_CANNOT, "data above 4 GiB (built PIE?)");
	snprintf(path, sizeof(path), "%s/made-by-%s-mkdir", argv[2], mode);
	rmdir(path);

	if (strcmp(mode, "int80") == 0) {
		TRIED("int $0x80 getuid (i386 nr 24)");
		bad |= check_uid("i386 getuid", int80(24, 0, 0, 0));
		TRIED("int $0x80 getuid32 (i386 nr 199)");
		bad |= check_uid("i386 getuid32", int80(199, 0, 0, 0));
		TRIED("int $0x80 mkdir(\"%s\", 0700) (i386 nr 39)", path);
		bad |= check_mkdir("i386 mkdir",
				   int80(39, (long)path, 0700, 0));
	} else if (strcmp(mode, "x32") == 0) {
		TRIED("x32 getuid (nr 102 | 0x40000000)");
		bad |= check_uid("x32 getuid", x32(102, 0, 0));
		TRIED("x32 mkdir(\"%s\", 0700) (nr 83 | 0x40000000)", path);
		bad |= check_mkdir("x32 mkdir", x32(83, (long)path, 0700));
	} else {
		fprintf(stderr, "usage: %s int80|x32 SCRATCH-DIR\n", argv[0]);
		return ADV_CANNOT;
	}
	return bad ? adv_verdict(ADV_ESCAPED, "a call bypassed the policy")
		   : adv_verdict(ADV_CONTAINED, "every call obeyed the policy");
}
