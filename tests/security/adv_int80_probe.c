// SPDX-License-Identifier: LGPL-2.1-or-later
/* Exit 0 when this kernel accepts int $0x80 from a 64-bit program (i386
 * emulation on); with ia32_emulation off it faults with SIGSEGV. */
int main(void)
{
	long r;

	asm volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");	/* getpid */
	return r > 0 ? 0 : 1;
}
