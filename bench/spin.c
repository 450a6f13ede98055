// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A program that never makes a system call: built -nostdlib -static, its
 * first instruction is a loop.  hostile-bench runs it as a session whose
 * supervisor waits for a first system call that never comes (the path
 * guard is set up at the first syscall after exec).
 */
void _start(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}
