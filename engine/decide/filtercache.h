/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The compiled-filter cache (filtercache.c): a launch's two BPF programs
 * kept on disk, per uid, keyed by everything that changes them (the key
 * is prepare.c's, beside what it keys) and verified with a secret of the
 * uid's that no confined program can read.
 */
#ifndef SYSWARD_ENGINE_FILTERCACHE_H
#define SYSWARD_ENGINE_FILTERCACHE_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "sysward/sha256.h"

/* Start a key with what every entry depends on besides its launch: the
 * format, the build ids of every object loaded in this process (sysward
 * itself, libseccomp, libc, ...), libseccomp's version and the kernel
 * API level it detected. */
void sw_fcache_key_begin(struct sw_sha256 *s);

/*
 * The programs of the entry for key in dir (sw_launch.filter_cache): 1
 * and both programs (free() them) for an entry made for this key with
 * this uid's secret; 0 for anything else (no cache, no entry, an entry
 * that is truncated, another uid's, another key's, forged), which the
 * caller compiles and stores again.
 */
int sw_fcache_load(const char *dir, const unsigned char key[SW_SHA256_LEN],
		   struct sock_filter **insns, size_t *n_insns,
		   struct sock_filter **dinsns, size_t *n_dinsns);

/* Write the entry for key: a temporary file renamed over the entry's
 * name; then the oldest entries beyond the cache's bounds removed.
 * Nothing is said about a failure: the next launch compiles again. */
void sw_fcache_store(const char *dir, const unsigned char key[SW_SHA256_LEN],
		     const struct sock_filter *insns, size_t n_insns,
		     const struct sock_filter *dinsns, size_t n_dinsns);

/* Entries kept at most; the oldest used go first. */
#define SW_FCACHE_MAX_ENTRIES	128

/*
 * An entry's file, named by the key's digest in hex: this header, the
 * policy's program (n_insns), the defences' (n_dinsns), then the
 * HMAC-SHA-256 of all that under the uid's secret.  Host byte order:
 * an entry never leaves its machine.
 */
#define SW_FCACHE_MAGIC		"SWFC\0\0\0\1"
struct sw_fcache_head {
	char magic[8];
	uint32_t n_insns, n_dinsns;
	unsigned char key[SW_SHA256_LEN];
};

#endif
