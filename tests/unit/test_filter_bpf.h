/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A tiny classic-BPF interpreter over struct seccomp_data, so the filter
 * compiler's output can be checked from tables without loading it.
 * Implements the instruction subset seccomp accepts (seccomp's own
 * checker rejects the rest): LD/LDX (ABS word, IMM, MEM, LEN), ST/STX,
 * ALU (K and X), JMP (JA, JEQ, JGT, JGE, JSET with K and X), RET (K, A),
 * MISC (TAX, TXA).
 */
#ifndef TEST_FILTER_BPF_H
#define TEST_FILTER_BPF_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Returns the filter's SECCOMP_RET_* value, or 0xdeadbeef on a broken
 * program (bad load, fell off the end, unknown opcode). */
static inline uint32_t bpf_run(const struct sock_filter *f, size_t n,
			       const struct seccomp_data *d)
{
	uint32_t A = 0, X = 0, M[BPF_MEMWORDS] = { 0 };
	const uint8_t *data = (const uint8_t *)d;

	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &f[pc];
		uint32_t k = i->k, src;

		switch (BPF_CLASS(i->code)) {
		case BPF_LD:
			switch (BPF_MODE(i->code)) {
			case BPF_ABS:
				if (BPF_SIZE(i->code) != BPF_W || k % 4 ||
				    k + 4 > sizeof(*d))
					return 0xdeadbeef;
				memcpy(&A, data + k, 4);
				break;
			case BPF_IMM:
				A = k;
				break;
			case BPF_MEM:
				if (k >= BPF_MEMWORDS)
					return 0xdeadbeef;
				A = M[k];
				break;
			case BPF_LEN:
				A = sizeof(*d);
				break;
			default:
				return 0xdeadbeef;
			}
			break;
		case BPF_LDX:
			switch (BPF_MODE(i->code)) {
			case BPF_IMM:
				X = k;
				break;
			case BPF_MEM:
				if (k >= BPF_MEMWORDS)
					return 0xdeadbeef;
				X = M[k];
				break;
			case BPF_LEN:
				X = sizeof(*d);
				break;
			default:
				return 0xdeadbeef;
			}
			break;
		case BPF_ST:
			if (k >= BPF_MEMWORDS)
				return 0xdeadbeef;
			M[k] = A;
			break;
		case BPF_STX:
			if (k >= BPF_MEMWORDS)
				return 0xdeadbeef;
			M[k] = X;
			break;
		case BPF_ALU:
			src = BPF_SRC(i->code) == BPF_X ? X : k;
			switch (BPF_OP(i->code)) {
			case BPF_ADD: A += src; break;
			case BPF_SUB: A -= src; break;
			case BPF_MUL: A *= src; break;
			case BPF_DIV: if (!src) return 0xdeadbeef; A /= src; break;
			case BPF_MOD: if (!src) return 0xdeadbeef; A %= src; break;
			case BPF_AND: A &= src; break;
			case BPF_OR: A |= src; break;
			case BPF_XOR: A ^= src; break;
			case BPF_LSH: A <<= (src & 31); break;
			case BPF_RSH: A >>= (src & 31); break;
			case BPF_NEG: A = -A; break;
			default: return 0xdeadbeef;
			}
			break;
		case BPF_JMP: {
			bool t;

			src = BPF_SRC(i->code) == BPF_X ? X : k;
			switch (BPF_OP(i->code)) {
			case BPF_JA:
				pc += k;
				continue;
			case BPF_JEQ: t = A == src; break;
			case BPF_JGT: t = A > src; break;
			case BPF_JGE: t = A >= src; break;
			case BPF_JSET: t = (A & src) != 0; break;
			default: return 0xdeadbeef;
			}
			pc += t ? i->jt : i->jf;
			break;
		}
		case BPF_RET:
			return BPF_RVAL(i->code) == BPF_A ? A : k;
		case BPF_MISC:
			if (BPF_MISCOP(i->code) == BPF_TAX)
				X = A;
			else
				A = X;
			break;
		default:
			return 0xdeadbeef;
		}
	}
	return 0xdeadbeef;
}

#endif
