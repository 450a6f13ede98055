// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Read a NUL-terminated string from a stopped tracee with
 * process_vm_readv(2).  Reads never cross a page boundary in one iovec, so
 * a string that ends just before an unmapped page is still read (a single
 * large read would fail with EFAULT as a whole).
 *
 * The string is read while the calling thread is stopped, but other
 * threads of the tracee may change it before the kernel reads it again
 * (TOCTOU); see docs/security.md for what sysward promises about that.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

#define SW_PAGE 4096u

int sw_read_tracee_string(void *pidp, uint64_t addr, char *buf, size_t size)
{
	pid_t pid = *(pid_t *)pidp;
	size_t got = 0;

	if (size == 0)
		return -EINVAL;
	if (addr == 0)
		return -EFAULT;
	while (got < size - 1) {
		size_t chunk = SW_PAGE - ((addr + got) & (SW_PAGE - 1));
		struct iovec local, remote;
		ssize_t n;
		char *nul;

		if (chunk > size - 1 - got)
			chunk = size - 1 - got;
		local = (struct iovec){ buf + got, chunk };
		remote = (struct iovec){ (void *)(uintptr_t)(addr + got), chunk };
		n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return n < 0 ? -errno : -EFAULT;
		nul = memchr(buf + got, '\0', (size_t)n);
		if (nul)
			return (int)(nul - buf);
		got += (size_t)n;
	}
	/* Longer than the buffer: report truncated, so a prefix of the
	 * real path is never mistaken for the whole path by an exact match. */
	buf[size - 1] = '\0';
	return -ENAMETOOLONG;
}
