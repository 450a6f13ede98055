// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SHA-256 and HMAC-SHA-256 (common/sha256.c) against the published test
 * vectors (FIPS 180-4 examples, RFC 4231), fed whole and byte by byte.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sysward/sha256.h"
#include "check_run.h"

static void hex(const unsigned char *d, char out[2 * SW_SHA256_LEN + 1])
{
	for (int i = 0; i < SW_SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static const struct {
	const char *msg;
	const char *want;
} sha[] = {
	{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
};

START_TEST(sha_vectors)
{
	unsigned char d[SW_SHA256_LEN];
	char h[2 * SW_SHA256_LEN + 1];
	struct sw_sha256 s;

	sw_sha256(sha[_i].msg, strlen(sha[_i].msg), d);
	hex(d, h);
	ck_assert_str_eq(h, sha[_i].want);
	/* the same digest whatever the pieces */
	sw_sha256_init(&s);
	for (size_t k = 0; k < strlen(sha[_i].msg); k++)
		sw_sha256_update(&s, sha[_i].msg + k, 1);
	sw_sha256_final(&s, d);
	hex(d, h);
	ck_assert_str_eq(h, sha[_i].want);
}
END_TEST

START_TEST(sha_million_a)
{
	static char a[1001];
	unsigned char d[SW_SHA256_LEN];
	char h[2 * SW_SHA256_LEN + 1];
	struct sw_sha256 s;

	memset(a, 'a', sizeof(a));
	sw_sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sw_sha256_update(&s, a, i % 2 ? 999 : 1001);
	sw_sha256_final(&s, d);
	hex(d, h);
	ck_assert_str_eq(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(hmac_rfc4231)
{
	unsigned char k1[20], k6[131], d[SW_SHA256_LEN];
	char h[2 * SW_SHA256_LEN + 1];
	struct sw_hmac m;
	const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";

	memset(k1, 0x0b, sizeof(k1));
	sw_hmac_init(&m, k1, sizeof(k1));
	sw_hmac_update(&m, "Hi There", 8);
	sw_hmac_final(&m, d);
	hex(d, h);
	ck_assert_str_eq(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");

	sw_hmac_init(&m, "Jefe", 4);
	sw_hmac_update(&m, "what do ya want ", 16);
	sw_hmac_update(&m, "for nothing?", 12);
	sw_hmac_final(&m, d);
	hex(d, h);
	ck_assert_str_eq(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");

	memset(k6, 0xaa, sizeof(k6));
	sw_hmac_init(&m, k6, sizeof(k6));
	sw_hmac_update(&m, m6, strlen(m6));
	sw_hmac_final(&m, d);
	hex(d, h);
	ck_assert_str_eq(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	ck_assert(sw_digest_eq(d, d, sizeof(d)));
	d[31] ^= 1;
	sw_hmac_init(&m, k6, sizeof(k6));
	sw_hmac_update(&m, m6, strlen(m6));
	{
		unsigned char e[SW_SHA256_LEN];

		sw_hmac_final(&m, e);
		ck_assert(!sw_digest_eq(d, e, sizeof(d)));
	}
}
END_TEST

static void portable_on(void)
{
	sw_sha256_use_portable(true);
}

static void portable_off(void)
{
	sw_sha256_use_portable(false);
}

int main(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("vectors");

	TCase *tp = tcase_create("portable");

	tcase_add_loop_test(tc, sha_vectors, 0, sizeof(sha) / sizeof(sha[0]));
	tcase_add_test(tc, sha_million_a);
	tcase_add_test(tc, hmac_rfc4231);
	suite_add_tcase(s, tc);
	/* Where the CPU has SHA instructions, the cases above ran them:
	 * the portable code gives the same digests. */
	tcase_add_checked_fixture(tp, portable_on, portable_off);
	tcase_add_loop_test(tp, sha_vectors, 0, sizeof(sha) / sizeof(sha[0]));
	tcase_add_test(tp, sha_million_a);
	tcase_add_test(tp, hmac_rfc4231);
	suite_add_tcase(s, tp);
	return sw_check_run(s);
}
