/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104): the digests of the
 * compiled-filter cache (engine/decide/filtercache.c) and of a policy's bytes
 * (policy/src/document.c).  No allocation, no failure.
 */
#ifndef SYSWARD_SHA256_H
#define SYSWARD_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_SHA256_LEN	32

struct sw_sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	unsigned char buf[64];
	size_t n;		/* bytes in buf */
};

void sw_sha256_init(struct sw_sha256 *s);
void sw_sha256_update(struct sw_sha256 *s, const void *data, size_t len);
void sw_sha256_final(struct sw_sha256 *s, unsigned char out[SW_SHA256_LEN]);
void sw_sha256(const void *data, size_t len, unsigned char out[SW_SHA256_LEN]);

struct sw_hmac {
	struct sw_sha256 inner, outer;
};

void sw_hmac_init(struct sw_hmac *m, const void *key, size_t key_len);
void sw_hmac_update(struct sw_hmac *m, const void *data, size_t len);
void sw_hmac_final(struct sw_hmac *m, unsigned char out[SW_SHA256_LEN]);

/* Tests only: the portable code even where the CPU has SHA instructions
 * (both must give the published digests). */
void sw_sha256_use_portable(bool on);

/* Compare two digests in time that does not depend on where they differ. */
int sw_digest_eq(const unsigned char *a, const unsigned char *b, size_t len);

#endif
