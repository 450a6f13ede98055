// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 6, the defence itself: under a policy with a path rule, sysward
 * maps a sealed, read-only guard region (memfd "sysward-pathguard") into
 * the program, and points checked path arguments at copies inside it.  If
 * the program could write, unmap or replace that region, the path race
 * would be back.  Every write route is tried; each must fail and the
 * region's bytes must stay as they were.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "adv.h"

#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif

static char *guard;
static size_t guard_len;
static int bad;

static void must_fail(const char *what, long r, int e, long failed_value)
{
	RESULT("%s = %s", what, RET(r, e));
	if (r != failed_value)
		bad = 1;
}

static int find_guard(void)
{
	char line[512];

	if (adv_find_guard(&guard, &guard_len, line, sizeof(line)) < 0)
		return -1;
	FACT("guard: %s", line);
	return 0;
}

int main(void)
{
	unsigned char before[4096], after[4096];
	char path[64], *tgt;
	long r;
	int fd;

	if (find_guard() < 0)
		return adv_verdict(ADV_ESCAPED, "no path guard mapped although "
				   "the policy checks paths");
	/* Attack the last slot: the supervisor fills slots from the first
	 * one up while pinning this program's own paths. */
	tgt = guard + guard_len - 4096;
	memcpy(before, tgt, sizeof(before));

	TRIED("mprotect(guard, PROT_READ|PROT_WRITE)");
	r = mprotect(tgt, 4096, PROT_READ | PROT_WRITE);
	must_fail("mprotect", r, errno, -1);
	TRIED("pkey_mprotect(guard, PROT_READ|PROT_WRITE, -1)");
	r = syscall(SYS_pkey_mprotect, tgt, 4096, PROT_READ | PROT_WRITE, -1);
	must_fail("pkey_mprotect", r, errno, -1);
	TRIED("munmap(guard)");
	r = munmap(tgt, 4096);
	must_fail("munmap", r, errno, -1);
	TRIED("mmap(guard, MAP_FIXED|MAP_PRIVATE|MAP_ANONYMOUS, RW)");
	r = (long)mmap(tgt, 4096, PROT_READ | PROT_WRITE,
		       MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	must_fail("mmap MAP_FIXED", r, errno, (long)MAP_FAILED);
	TRIED("mremap(other page -> guard, MREMAP_MAYMOVE|MREMAP_FIXED)");
	{
		void *o = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		r = (long)mremap(o, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
				 tgt);
		must_fail("mremap onto", r, errno, (long)MAP_FAILED);
	}
	TRIED("mremap(guard, grow/move)");
	r = (long)mremap(guard, guard_len, guard_len * 2, MREMAP_MAYMOVE);
	must_fail("mremap guard", r, errno, (long)MAP_FAILED);
	TRIED("remap_file_pages(tgt, 4096, 0, 1, 0)");
	r = syscall(SYS_remap_file_pages, tgt, 4096, 0, 1, 0);
	must_fail("remap_file_pages", r, errno, -1);
	TRIED("pwrite(/proc/self/mem, at guard) (FOLL_FORCE)");
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	r = fd < 0 ? -1 : pwrite(fd, "EVIL", 4, (off_t)(uintptr_t)tgt);
	must_fail("/proc/self/mem pwrite", r, errno, -1);
	if (fd >= 0)
		close(fd);
	TRIED("process_vm_writev(self, guard)");
	{
		struct iovec l = { "EVIL", 4 }, rem = { tgt, 4 };

		r = syscall(SYS_process_vm_writev, getpid(), &l, 1UL, &rem,
			    1UL, 0UL);
		must_fail("process_vm_writev", r, errno, -1);
	}
	snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx",
		 (unsigned long)guard, (unsigned long)guard + guard_len);
	TRIED("open(\"%s\", O_RDWR) + pwrite", path);
	fd = open(path, O_RDWR | O_CLOEXEC);
	r = fd < 0 ? -1 : pwrite(fd, "EVIL", 4, 0);
	must_fail("map_files pwrite", r, errno, -1);
	if (fd >= 0)
		close(fd);
	TRIED("madvise(guard, MADV_DONTNEED) (allowed: drops nothing of a "
	      "shared file)");
	r = madvise(tgt, 4096, MADV_DONTNEED);
	RESULT("madvise = %s", RET(r, errno));

	memcpy(after, tgt, sizeof(after));
	RESULT("guard bytes %s", memcmp(before, after, sizeof(before)) ?
	       "CHANGED" : "unchanged");
	if (memcmp(before, after, sizeof(before)))
		bad = 1;
	return bad ? adv_verdict(ADV_ESCAPED, "the guard region was writable "
				 "or replaceable")
		   : adv_verdict(ADV_CONTAINED, "the guard region resisted "
				 "every write route");
}
