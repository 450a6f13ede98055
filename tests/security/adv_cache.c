// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 21 (docs/security.md): the compiled-filter cache.  A program
 * confined by a policy that lets it write its uid's files (here: any
 * policy that allows writes under $HOME) rewrites the cache so that the
 * next launch under a strict policy gets the BPF of an allow-all one.
 *
 *   adv_cache probe        the victim: getppid(), which the strict
 *       policy (cache-deny.json) refuses with EPERM in the kernel's
 *       filter alone; "verdict: contained" if it fails so, else
 *       "verdict: ESCAPED".
 *   adv_cache forge FROM TO    the attacker: TO keeps its header (its
 *       key) and gets FROM's two programs, then a SHA-256 of the whole
 *       in place of the MAC: what a check of "a hash of the key and of
 *       the content" without a secret would accept.  Written as the
 *       cache writes (a temporary file renamed over TO).
 *   adv_cache copy FROM TO     the attacker: FROM, a valid entry of
 *       another policy, whole under TO's name.
 *   adv_cache keys         exit 0 if this uid has a user keyring (else
 *       the cache is off and the tests skip).
 *   adv_cache cut FILE LEN     FILE truncated to LEN bytes (-1: its
 *       header alone; -2: one byte short).
 * The entry format is engine/decide/filtercache.h's, its one home.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "decide/filtercache.h"
#include "sysward/sha256.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "adv_cache: open %s: %s\n", path, strerror(errno));
		exit(2);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || read(fd, buf, (size_t)st.st_size) != st.st_size) {
		fprintf(stderr, "adv_cache: read %s\n", path);
		exit(2);
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void put(const char *path, const void *buf, size_t len)
{
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.adv", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd) < 0 ||
	    rename(tmp, path) < 0) {
		fprintf(stderr, "adv_cache: write %s: %s\n", path, strerror(errno));
		exit(2);
	}
}

static int forge(const char *from, const char *to)
{
	size_t flen, tlen, body;
	unsigned char *f = slurp(from, &flen), *t = slurp(to, &tlen), *out;
	struct sw_fcache_head fh, th;

	if (flen < sizeof(fh) || tlen < sizeof(th))
		return 2;
	memcpy(&fh, f, sizeof(fh));
	memcpy(&th, t, sizeof(th));
	th.n_insns = fh.n_insns;
	th.n_dinsns = fh.n_dinsns;
	body = sizeof(th) + ((size_t)fh.n_insns + fh.n_dinsns) * sizeof(struct sock_filter);
	if (flen != body + SW_SHA256_LEN)
		return 2;
	out = malloc(body + SW_SHA256_LEN);
	if (!out)
		return 2;
	memcpy(out, &th, sizeof(th));
	memcpy(out + sizeof(th), f + sizeof(fh), body - sizeof(th));
	sw_sha256(out, body, out + body);
	put(to, out, body + SW_SHA256_LEN);
	printf("forged %s: %u + %u instructions of %s under its own key\n", to,
	       fh.n_insns, fh.n_dinsns, from);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "probe")) {
		long r;

		/* syscall(2): glibc's getppid() sets no errno (the call
		 * cannot fail unconfined). */
		errno = 0;
		r = syscall(SYS_getppid);
		if (r == -1 && errno == EPERM) {
			printf("verdict: contained (getppid: EPERM)\n");
			return 0;
		}
		printf("verdict: ESCAPED (getppid returned %ld)\n", r);
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "keys")) {
		/* The cache keeps its secret in the uid's user keyring: without
		 * one (CONFIG_KEYS off, keyctl refused) there is no cache. */
		if (syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0) < 0) {
			printf("no user keyring: %s\n", strerror(errno));
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "forge"))
		return forge(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "copy")) {
		size_t len;
		unsigned char *f = slurp(argv[2], &len);

		put(argv[3], f, len);
		printf("copied %s over %s\n", argv[2], argv[3]);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "cut")) {
		long n = strtol(argv[3], NULL, 10);
		struct stat st;

		if (stat(argv[2], &st) < 0)
			return 2;
		if (n == -1)
			n = (long)sizeof(struct sw_fcache_head);
		else if (n == -2)
			n = (long)st.st_size - 1;
		if (truncate(argv[2], n) < 0)
			return 2;
		printf("cut %s to %ld bytes\n", argv[2], n);
		return 0;
	}
	fprintf(stderr, "usage: adv_cache probe | forge FROM TO | copy FROM TO | cut FILE LEN\n");
	return 2;
}
