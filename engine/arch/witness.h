/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Landlock probe's witness (engine/arch.h, sw_arch_witness_image()),
 * for an arch/<arch>.c to instantiate with its ELF machine and the bytes
 * of a branch to itself: an ELF64 executable of one PT_LOAD segment
 * holding its own headers and that code at 0x400078, which is what
 * load_elf_binary() needs (fs/binfmt_elf.c: no PT_INTERP, so no loader
 * file in the client's root).  Included by one file of a build.
 */
#ifndef SYSWARD_ENGINE_ARCH_WITNESS_H
#define SYSWARD_ENGINE_ARCH_WITNESS_H

#include <elf.h>
#include <stddef.h>

#define SW_WITNESS_VADDR	0x400000

#define SW_ARCH_WITNESS(machine, ...)						\
	static const unsigned char witness_code[] = { __VA_ARGS__ };		\
	static const struct __attribute__((packed)) {				\
		Elf64_Ehdr e;							\
		Elf64_Phdr p;							\
		unsigned char code[sizeof(witness_code)];			\
	} witness = {								\
		.e = {								\
			.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,	\
				     ELFCLASS64, ELFDATA2LSB, EV_CURRENT,	\
				     ELFOSABI_SYSV },				\
			.e_type = ET_EXEC,					\
			.e_machine = (machine),					\
			.e_version = EV_CURRENT,				\
			.e_entry = SW_WITNESS_VADDR + sizeof(Elf64_Ehdr) +	\
				   sizeof(Elf64_Phdr),				\
			.e_phoff = sizeof(Elf64_Ehdr),				\
			.e_ehsize = sizeof(Elf64_Ehdr),				\
			.e_phentsize = sizeof(Elf64_Phdr),			\
			.e_phnum = 1,						\
		},								\
		.p = {								\
			.p_type = PT_LOAD,					\
			.p_flags = PF_R | PF_X,					\
			.p_vaddr = SW_WITNESS_VADDR,				\
			.p_paddr = SW_WITNESS_VADDR,				\
			.p_filesz = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) +	\
				    sizeof(witness_code),			\
			.p_memsz = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) +	\
				   sizeof(witness_code),			\
			.p_align = 0x1000,					\
		},								\
		.code = { __VA_ARGS__ },					\
	};									\
										\
	const unsigned char *sw_arch_witness_image(size_t *ret_len)		\
	{									\
		*ret_len = sizeof(witness);					\
		return (const unsigned char *)&witness;				\
	}

#endif
