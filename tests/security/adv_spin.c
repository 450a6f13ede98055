// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program image that never makes a system call (docs/security.md, route 13): no
 * libc, no startup code, just a loop.  Under a policy with a path
 * condition the supervisor maps the path guard at the image's first
 * syscall, which never comes; it must not wait for it.  Built with
 * -nostdlib -static; killed from outside (sysward kill, SIGKILL).
 */
void _start(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}
