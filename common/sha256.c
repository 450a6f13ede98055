// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SHA-256 as FIPS 180-4 section 6.2 gives it, and HMAC over it as RFC
 * 2104 does.  Checked against the FIPS and RFC 4231 test vectors
 * (tests/unit/test_sha256.c).
 */
#include <stdbool.h>
#include <string.h>

#include "sysward/sha256.h"

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void block_portable(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], hh = h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
			      ((e & f) ^ (~e & g)) + k256[t] + w[t];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));

		hh = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#if defined(__x86_64__)
/*
 * The same compression with the x86 SHA extensions (SHA-NI: Goldmont,
 * Zen, Ice Lake and later), ~10x the portable code: the cache hashes
 * the policy's text and MACs its entry at every launch.  The state is
 * kept as the instructions want it, ABEF and CDGH; each sha256rnds2
 * makes two rounds from the low two words of its message operand.
 */
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("sha,sse4.1,ssse3")))
static void block_shani(uint32_t h[8], const unsigned char *p)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
	__m128i abef0 = abef, cdgh0 = cdgh, w[4], t;

	for (int i = 0; i < 16; i++) {
		__m128i m;

		if (i < 4) {
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)),
						bswap);
		} else {
			/* W[t] = W[t-16] + s0(W[t-15]) + W[t-7] + s1(W[t-2]) */
			t = _mm_sha256msg1_epu32(w[i % 4], w[(i + 1) % 4]);
			t = _mm_add_epi32(t, _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4));
			w[i % 4] = _mm_sha256msg2_epu32(t, w[(i + 3) % 4]);
		}
		m = _mm_add_epi32(w[i % 4], _mm_loadu_si128((const __m128i *)&k256[4 * i]));
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
		abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0e));
	}
	abef = _mm_add_epi32(abef, abef0);
	cdgh = _mm_add_epi32(cdgh, cdgh0);
	t = _mm_shuffle_epi32(abef, 0x1b);		/* FEBA */
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);		/* DCHG */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, t, 8));
}

static bool have_shani(void)
{
	unsigned int a, b, c, d;

	/* CPUID leaf 7: EBX bit 29 SHA; leaf 1: ECX bit 19 SSE4.1 */
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29)))
		return false;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19));
}
#endif

static bool portable_only;

void sw_sha256_use_portable(bool on)
{
	portable_only = on;
}

static void block(uint32_t h[8], const unsigned char *p)
{
#if defined(__x86_64__)
	static int shani = -1;

	if (shani < 0)
		shani = have_shani();
	if (shani && !portable_only) {
		block_shani(h, p);
		return;
	}
#endif
	block_portable(h, p);
}

void sw_sha256_init(struct sw_sha256 *s)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->n = 0;
}

void sw_sha256_update(struct sw_sha256 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	if (s->n) {
		size_t take = 64 - s->n < len ? 64 - s->n : len;

		memcpy(s->buf + s->n, p, take);
		s->n += take, p += take, len -= take;
		if (s->n < 64)
			return;
		block(s->h, s->buf);
		s->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		block(s->h, p);
	memcpy(s->buf, p, len);
	s->n = len;
}

void sw_sha256_final(struct sw_sha256 *s, unsigned char out[SW_SHA256_LEN])
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, zero = 0, lenbe[8];

	for (int i = 0; i < 8; i++)
		lenbe[i] = (unsigned char)(bits >> (56 - 8 * i));
	sw_sha256_update(s, &pad, 1);
	while (s->n != 56)
		sw_sha256_update(s, &zero, 1);
	sw_sha256_update(s, lenbe, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(s->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)s->h[i];
	}
}

void sw_sha256(const void *data, size_t len, unsigned char out[SW_SHA256_LEN])
{
	struct sw_sha256 s;

	sw_sha256_init(&s);
	sw_sha256_update(&s, data, len);
	sw_sha256_final(&s, out);
}

void sw_hmac_init(struct sw_hmac *m, const void *key, size_t key_len)
{
	unsigned char k[64] = { 0 }, pad[64];

	if (key_len > sizeof(k))
		sw_sha256(key, key_len, k);
	else
		memcpy(k, key, key_len);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sw_sha256_init(&m->inner);
	sw_sha256_update(&m->inner, pad, sizeof(pad));
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sw_sha256_init(&m->outer);
	sw_sha256_update(&m->outer, pad, sizeof(pad));
}

void sw_hmac_update(struct sw_hmac *m, const void *data, size_t len)
{
	sw_sha256_update(&m->inner, data, len);
}

void sw_hmac_final(struct sw_hmac *m, unsigned char out[SW_SHA256_LEN])
{
	unsigned char ih[SW_SHA256_LEN];

	sw_sha256_final(&m->inner, ih);
	sw_sha256_update(&m->outer, ih, sizeof(ih));
	sw_sha256_final(&m->outer, out);
}

int sw_digest_eq(const unsigned char *a, const unsigned char *b, size_t len)
{
	unsigned char d = 0;

	for (size_t i = 0; i < len; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}
