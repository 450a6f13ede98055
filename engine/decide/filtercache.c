// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The compiled-filter cache (docs/security.md, route 22): libseccomp
 * takes ~20 ms of CPU to compile Docker's profile, at every launch, for
 * BPF that only changes when the policy, sysward, libseccomp or the
 * kernel does.  A launch's two programs (the policy's, the defences')
 * are kept in a file named by the digest of everything that made them
 * (the key: prepare.c's fcache_key(), beside build_filters(), which it
 * keys), in a directory of the uid's own.
 *
 * What a planted entry could do is widen a policy: an allow-all program
 * under the key of a strict one.  The planters that matter:
 *   - another uid: the directory must be ours and 0700, opened with
 *     O_NOFOLLOW from a parent that is ours or root's and that nobody
 *     else may write; an entry must be a regular file of ours;
 *   - a confined program of our own uid, which may write the cache's
 *     directory if its policy lets it write $HOME: each entry carries
 *     an HMAC-SHA-256 of its key and its programs under a secret of
 *     the uid's that only an unconfined process of the uid can read.
 *     The secret is a "user" key linked into the uid's user keyring
 *     (@u), with possessor permissions only: the kernel lets a process
 *     read it only when it possesses it, which needs a possessed
 *     reference to @u (security/keys/process_keys.c, lookup_user_key()
 *     makes the special ids possessed; a key found by serial is
 *     possessed only if one of the caller's own keyrings leads to it,
 *     search_process_keyrings_rcu()).  A confined program has a session
 *     keyring of its own, and the KEYRINGS defence (objects.c) refuses
 *     it @u, @us, the persistent keyring and a join of "_uid.N": it
 *     can neither read the secret nor search for it.
 * An entry that fails any check is ignored and overwritten by a fresh
 * compile: the cache can cost a compile, never widen a filter.  No
 * keyring (a kernel without CONFIG_KEYS, keyctl refused in a
 * container): no cache.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/keyctl.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "sysward/engine.h"
#include "decide/filtercache.h"

#define FC_SECRET_DESC	"sysward:filter-cache"
#define FC_SECRET_LEN	32
/* Possessor view, read, write, search, link, setattr; nothing for the
 * uid's other processes (keyutils.h's KEY_POS_*, not in the uapi). */
#define FC_KEY_PERM	0x3f000000u
/* Temporary files a writer that died left behind, removed after this. */
#define FC_STALE_TMP_S	60

static const char fc_magic[8] = SW_FCACHE_MAGIC;

const char *sw_filter_cache_dir(char *buf, size_t size)
{
	const char *off = getenv("SYSWARD_NO_CACHE");
	const char *unit = getenv("CACHE_DIRECTORY");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (off && *off && strcmp(off, "0") != 0)
		return NULL;
	/* A service's own (systemd.exec(5), CacheDirectory=: syswardd's
	 * unit), the first if it names several; then the XDG base
	 * directory specification's, where a relative path is invalid and
	 * ignored. */
	if (unit && unit[0] == '/')
		n = snprintf(buf, size, "%.*s", (int)strcspn(unit, ":"), unit);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/sysward", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/.cache/sysward", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

/* ---- the secret ---------------------------------------------------------- */

static long fc_keyctl(int op, unsigned long a, unsigned long b,
		      unsigned long c, unsigned long d)
{
	return syscall(SYS_keyctl, op, a, b, c, d);
}

/*
 * This uid's secret, made on first use.  The search links the key into
 * our thread keyring (its destination), so that the read that follows
 * finds it possessed; a new key is made in the thread keyring, given
 * possessor-only permissions there, and only then linked into @u, so it
 * is never in @u with wider ones.  Two first uses at once may each link
 * a key: the later link displaces the earlier, and entries made under
 * the loser's secret are rebuilt once.
 */
static int secret_fetch(unsigned char out[FC_SECRET_LEN])
{
	long id;

	id = fc_keyctl(KEYCTL_SEARCH, (unsigned long)KEY_SPEC_USER_KEYRING,
		       (unsigned long)"user", (unsigned long)FC_SECRET_DESC,
		       (unsigned long)KEY_SPEC_THREAD_KEYRING);
	if (id >= 0)
		return fc_keyctl(KEYCTL_READ, (unsigned long)id, (unsigned long)out,
				 FC_SECRET_LEN, 0) == FC_SECRET_LEN ? 0 : -EBADMSG;
	if (errno != ENOKEY)
		return -errno;
	if (getrandom(out, FC_SECRET_LEN, 0) != FC_SECRET_LEN)
		return -EIO;
	id = syscall(SYS_add_key, "user", FC_SECRET_DESC, out,
		     (size_t)FC_SECRET_LEN, KEY_SPEC_THREAD_KEYRING);
	if (id < 0)
		return -errno;
	if (fc_keyctl(KEYCTL_SETPERM, (unsigned long)id, FC_KEY_PERM, 0, 0) < 0 ||
	    fc_keyctl(KEYCTL_LINK, (unsigned long)id,
		      (unsigned long)KEY_SPEC_USER_KEYRING, 0, 0) < 0)
		return -errno;
	return 0;
}

/* The secret, fetched once per process (syswardd's workers share it). */
static int secret_get(unsigned char out[FC_SECRET_LEN])
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static unsigned char secret[FC_SECRET_LEN];
	static uid_t for_uid = (uid_t)-1;
	static bool have;
	int r = 0;

	pthread_mutex_lock(&lock);
	/* The keyring is the euid's: a process that changed uid asks again. */
	if (!have || for_uid != geteuid()) {
		r = secret_fetch(secret);
		have = r == 0;
		for_uid = geteuid();
	}
	if (have)
		memcpy(out, secret, FC_SECRET_LEN);
	pthread_mutex_unlock(&lock);
	return r;
}

/* ---- the key's common part ------------------------------------------------ */

static bool note_build_id(struct sw_sha256 *s, const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const void *)p;
			const char *name = p + sizeof(*nh);
			const char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (desc + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0) {
				sw_sha256_update(s, desc, nh->n_descsz);
				return true;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return false;
}

static int hash_object(struct dl_phdr_info *info, size_t size, void *ud)
{
	struct sw_sha256 *s = ud;
	const char *name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name
							       : "/proc/self/exe";
	struct stat st;

	(void)size;
	sw_sha256_update(s, name, strlen(name) + 1);
	if (note_build_id(s, info))
		return 0;
	/* Built without a build id: the file as it is now. */
	if (stat(name, &st) == 0) {
		sw_sha256_update(s, &st.st_dev, sizeof(st.st_dev));
		sw_sha256_update(s, &st.st_ino, sizeof(st.st_ino));
		sw_sha256_update(s, &st.st_size, sizeof(st.st_size));
		sw_sha256_update(s, &st.st_mtim, sizeof(st.st_mtim));
	}
	return 0;
}

void sw_fcache_key_begin(struct sw_sha256 *s)
{
	const struct scmp_version *v = seccomp_version();
	unsigned int api = seccomp_api_get();

	sw_sha256_init(s);
	sw_sha256_update(s, fc_magic, sizeof(fc_magic));
	dl_iterate_phdr(hash_object, s);
	if (v)
		sw_sha256_update(s, v, sizeof(*v));
	/* libseccomp writes the actions the kernel lacks differently (its
	 * API level, src/system.c). */
	sw_sha256_update(s, &api, sizeof(api));
}

/* ---- the directory -------------------------------------------------------- */

/*
 * dir, made if missing (and its parent, 0700): opened without following
 * a symlink, ours, 0700; its parent ours or root's and writable by no
 * one else, so that nobody but us (and root) can put another directory
 * in its place.  A descriptor, or -errno.
 */
static int dir_open(const char *dir)
{
	cleanup_free char *parent = strdup(dir);
	cleanup_close int pfd = -1;
	const char *base;
	struct stat st;
	char *slash;
	int fd;

	if (!parent)
		return -ENOMEM;
	slash = strrchr(parent, '/');
	if (!slash || slash == parent || !slash[1])
		return -EINVAL;
	*slash = '\0';
	base = slash + 1;
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0 && errno == ENOENT) {
		if (mkdir(parent, 0700) < 0 && errno != EEXIST)
			return -errno;
		pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) < 0)
		return -errno;
	if ((st.st_uid != geteuid() && st.st_uid != 0) || (st.st_mode & 022))
		return -EPERM;
	if (mkdirat(pfd, base, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static void entry_name(const unsigned char key[SW_SHA256_LEN],
		       char name[2 * SW_SHA256_LEN + 1])
{
	for (int i = 0; i < SW_SHA256_LEN; i++)
		snprintf(name + 2 * i, 3, "%02x", key[i]);
}

static void entry_mac(const unsigned char secret[FC_SECRET_LEN],
		      const void *body, size_t len,
		      unsigned char mac[SW_SHA256_LEN])
{
	struct sw_hmac m;

	sw_hmac_init(&m, secret, FC_SECRET_LEN);
	sw_hmac_update(&m, body, len);
	sw_hmac_final(&m, mac);
}

/* ---- load ------------------------------------------------------------------ */

static struct sock_filter *dup_insns(const unsigned char *p, size_t n)
{
	struct sock_filter *f = malloc(n * sizeof(*f));

	if (f)
		memcpy(f, p, n * sizeof(*f));
	return f;
}

int sw_fcache_load(const char *dir, const unsigned char key[SW_SHA256_LEN],
		   struct sock_filter **insns, size_t *n_insns,
		   struct sock_filter **dinsns, size_t *n_dinsns)
{
	unsigned char secret[FC_SECRET_LEN], mac[SW_SHA256_LEN];
	char name[2 * SW_SHA256_LEN + 1];
	cleanup_close int dfd = -1, fd = -1;
	cleanup_free unsigned char *buf = NULL;
	struct sw_fcache_head h;
	struct stat st;
	size_t body;

	if (!dir || secret_get(secret) < 0)
		return 0;
	dfd = dir_open(dir);
	if (dfd < 0)
		return 0;
	entry_name(key, name);
	/* O_NONBLOCK: a FIFO in its place must not hang us. */
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() ||
	    st.st_size < (off_t)(sizeof(h) + SW_SHA256_LEN) ||
	    st.st_size > (off_t)(sizeof(h) + 2 * BPF_MAXINSNS * sizeof(struct sock_filter) +
				 SW_SHA256_LEN))
		return 0;
	buf = malloc((size_t)st.st_size);
	if (!buf || pread(fd, buf, (size_t)st.st_size, 0) != st.st_size)
		return 0;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, fc_magic, sizeof(fc_magic)) != 0 ||
	    !sw_digest_eq(h.key, key, SW_SHA256_LEN) ||
	    h.n_insns == 0 || h.n_insns > BPF_MAXINSNS ||
	    h.n_dinsns == 0 || h.n_dinsns > BPF_MAXINSNS)
		return 0;
	body = sizeof(h) + ((size_t)h.n_insns + h.n_dinsns) * sizeof(struct sock_filter);
	if ((size_t)st.st_size != body + SW_SHA256_LEN)
		return 0;
	entry_mac(secret, buf, body, mac);
	if (!sw_digest_eq(mac, buf + body, SW_SHA256_LEN))
		return 0;
	*insns = dup_insns(buf + sizeof(h), h.n_insns);
	*dinsns = dup_insns(buf + sizeof(h) + h.n_insns * sizeof(struct sock_filter),
			    h.n_dinsns);
	if (!*insns || !*dinsns) {
		free(*insns);
		free(*dinsns);
		*insns = *dinsns = NULL;
		return 0;
	}
	*n_insns = h.n_insns;
	*n_dinsns = h.n_dinsns;
	/* Used: the last to be evicted. */
	(void)futimens(fd, NULL);
	return 1;
}

/* ---- store ----------------------------------------------------------------- */

struct fc_old {
	struct timespec mtime;
	char name[2 * SW_SHA256_LEN + 1];
};

static bool is_entry_name(const char *n)
{
	if (strlen(n) != 2 * SW_SHA256_LEN)
		return false;
	for (; *n; n++)
		if (!((*n >= '0' && *n <= '9') || (*n >= 'a' && *n <= 'f')))
			return false;
	return true;
}

static int older(const void *a, const void *b)
{
	const struct fc_old *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec > y->mtime.tv_nsec;
}

/* The oldest entries beyond SW_FCACHE_MAX_ENTRIES, and temporary files
 * of writers that died, removed. */
static void evict(int dfd)
{
	struct fc_old *old = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (strncmp(de->d_name, ".tmp.", 5) == 0) {
			if (st.st_mtime < time(NULL) - FC_STALE_TMP_S)
				(void)unlinkat(dfd, de->d_name, 0);
			continue;
		}
		if (!is_entry_name(de->d_name))
			continue;
		if (n == cap) {
			struct fc_old *o = realloc(old, (cap = cap ? 2 * cap : 64) * sizeof(*o));

			if (!o)
				break;
			old = o;
		}
		old[n].mtime = st.st_mtim;
		memcpy(old[n].name, de->d_name, sizeof(old[n].name));
		n++;
	}
	closedir(d);
	if (n > SW_FCACHE_MAX_ENTRIES) {
		qsort(old, n, sizeof(*old), older);
		for (size_t i = 0; i < n - SW_FCACHE_MAX_ENTRIES; i++)
			(void)unlinkat(dfd, old[i].name, 0);
	}
	free(old);
}

void sw_fcache_store(const char *dir, const unsigned char key[SW_SHA256_LEN],
		     const struct sock_filter *insns, size_t n_insns,
		     const struct sock_filter *dinsns, size_t n_dinsns)
{
	unsigned char secret[FC_SECRET_LEN];
	char name[2 * SW_SHA256_LEN + 1], tmp[32];
	cleanup_close int dfd = -1, fd = -1;
	cleanup_free unsigned char *buf = NULL;
	struct sw_fcache_head h = { 0 };
	size_t body, len;
	uint64_t rnd;

	if (!dir || !n_insns || n_insns > BPF_MAXINSNS || !n_dinsns ||
	    n_dinsns > BPF_MAXINSNS || secret_get(secret) < 0)
		return;
	dfd = dir_open(dir);
	if (dfd < 0)
		return;
	memcpy(h.magic, fc_magic, sizeof(h.magic));
	h.n_insns = (uint32_t)n_insns;
	h.n_dinsns = (uint32_t)n_dinsns;
	memcpy(h.key, key, SW_SHA256_LEN);
	body = sizeof(h) + (n_insns + n_dinsns) * sizeof(struct sock_filter);
	len = body + SW_SHA256_LEN;
	buf = malloc(len);
	if (!buf)
		return;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), insns, n_insns * sizeof(*insns));
	memcpy(buf + sizeof(h) + n_insns * sizeof(*insns), dinsns,
	       n_dinsns * sizeof(*dinsns));
	entry_mac(secret, buf, body, buf + body);
	/* A name of our own (O_EXCL): concurrent writers of one key never
	 * share a temporary file; the rename makes the entry whole at once
	 * (fs/namei.c, do_renameat2), and each writer's content is the same. */
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		return;
	snprintf(tmp, sizeof(tmp), ".tmp.%016llx", (unsigned long long)rnd);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	entry_name(key, name);
	if (write(fd, buf, len) != (ssize_t)len ||
	    renameat(dfd, tmp, dfd, name) < 0) {
		(void)unlinkat(dfd, tmp, 0);
		return;
	}
	evict(dfd);
}
