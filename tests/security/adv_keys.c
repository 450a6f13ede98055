// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 20 (docs/security.md): the uid's keyrings outside the session.
 * The user keyring (@u) and the user session keyring (@us) belong to the
 * uid in every process; a login's session keyring links @u; the kernel
 * makes the special ids possessed (lookup_user_key), so every key in @u
 * is readable by any process of the uid that names it.
 *
 *   adv_keys witness DIR   outside the sandbox: a "user" key with a
 *       secret in @u; its description and serial in DIR/keys.info.  On
 *       SIGUSR1 it writes DIR/keys.check: "intact", or what changed.
 *   adv_keys attack DIR    under sysward: find, read and replace it: from
 *       the program's own keyrings, by @u's special id (search, search
 *       linking into its own keyring, read, add_key), by @u's serial
 *       (linked into its own keyring), by name (joining "_uid.<uid>" as
 *       its session keyring), the persistent keyring, request_key's
 *       default keyring set to @u.
 *   adv_keys control       keys of its own: add_key into its session
 *       keyring, read back, request_key, a keyring of its own, link,
 *       search, an anonymous session keyring, request_key with callout
 *       information; the same as unconfined.
 *   adv_keys filtered CMD...  CMD under a seccomp filter that refuses
 *       keyctl, add_key and request_key with EPERM, as a container's
 *       default profile does (for sysward launched there).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "adv.h"

#define SECRET "hunter2-witness-key"

static long kc(long cmd, long a, long b, long c, long d)
{
	return syscall(SYS_keyctl, cmd, a, b, c, d);
}

static long add_key(const char *type, const char *desc, const void *payload,
		    size_t len, long ring)
{
	return syscall(SYS_add_key, type, desc, payload, len, ring);
}

static long request_key(const char *type, const char *desc, const char *callout,
			long ring)
{
	return syscall(SYS_request_key, type, desc, callout, ring);
}

/* ---- witness --------------------------------------------------------------- */

static volatile sig_atomic_t check_due;
static void on_usr1(int sig) { (void)sig; check_due = 1; }

static int witness(const char *dir)
{
	char desc[64], p[4200], buf[64] = { 0 };
	long key;
	FILE *f;

	snprintf(desc, sizeof(desc), "sysward-witness-%d", (int)getpid());
	/* Its key is possessed through its session keyring, which a
	 * service manager may have made without a link to @u (systemd's
	 * KeyringMode=private, systemd-nspawn): a session keyring of its
	 * own, @u linked in, so that it can read its key back.  The user
	 * keyring, which the attack aims at, stays the uid's. */
	if (kc(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0 ||
	    kc(KEYCTL_LINK, KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING, 0, 0) < 0) {
		fprintf(stderr, "witness: a session keyring linking @u: %s\n", strerror(errno));
		return ADV_CANNOT;
	}
	key = add_key("user", desc, SECRET, strlen(SECRET), KEY_SPEC_USER_KEYRING);
	if (key < 0) {
		fprintf(stderr, "witness: add_key: %s\n", strerror(errno));
		return ADV_CANNOT;
	}
	signal(SIGUSR1, on_usr1);
	snprintf(p, sizeof(p), "%s/keys.info", dir);
	f = fopen(p, "we");
	if (!f)
		return ADV_CANNOT;
	fprintf(f, "%s %ld\n", desc, key);
	fclose(f);
	for (int k = 0; k < 1200 && !check_due; k++)
		usleep(100000);
	snprintf(p, sizeof(p), "%s/keys.check", dir);
	f = fopen(p, "we");
	if (!f)
		return ADV_CANNOT;
	if (kc(KEYCTL_READ, key, (long)buf, sizeof(buf) - 1, 0) != (long)strlen(SECRET) ||
	    strcmp(buf, SECRET))
		fprintf(f, "touched: \"%s\"\n", buf);
	else if (kc(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, (long)"user", (long)desc, 0) != key)
		fprintf(f, "touched: no longer in @u\n");
	else
		fprintf(f, "intact\n");
	fclose(f);
	kc(KEYCTL_UNLINK, key, KEY_SPEC_USER_KEYRING, 0, 0);
	return 0;
}

/* ---- attack ---------------------------------------------------------------- */

static int reached;
static char desc[64];

/* Read key: a reach if it is the secret. */
static void read_secret(const char *how, long key)
{
	char buf[64] = { 0 };
	long r;

	if (key < 0) {
		RESULT("%s: %s", how, RET(key, errno));
		return;
	}
	r = kc(KEYCTL_READ, key, (long)buf, sizeof(buf) - 1, 0);
	RESULT("%s: key %ld, read = %s%s%s", how, key, RET(r, errno),
	       r > 0 ? " \"" : "", r > 0 ? buf : "");
	if (r > 0 && !strcmp(buf, SECRET)) {
		reached++;
		/* ... and replace it */
		if (kc(KEYCTL_UPDATE, key, (long)"replaced", 8, 0) == 0)
			RESULT("%s: key %ld replaced", how, key);
	}
}

static void call(const char *what, long r)
{
	RESULT("%s = %s", what, RET(r, errno));
	reached += r >= 0;
}

static int attack(const char *dir)
{
	char p[4200], name[64];
	long wkey = 0, u, r;
	FILE *f;

	snprintf(p, sizeof(p), "%s/keys.info", dir);
	f = fopen(p, "re");
	if (!f || fscanf(f, "%63s %ld", desc, &wkey) != 2)
		return adv_verdict(ADV_CANNOT, "no witness (keys.info)");
	fclose(f);
	FACT("uid %d; the key \"%s\" (%ld) is in the user keyring of a process outside this sandbox",
	     (int)getuid(), desc, wkey);
	TRIED("find, read and replace it through the uid's keyrings");
	read_secret("request_key from its own keyrings",
		    request_key("user", desc, NULL, 0));
	read_secret("search @u (special id)",
		    kc(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, (long)"user", (long)desc, 0));
	read_secret("search @u (special id), linked into its session keyring",
		    kc(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, (long)"user", (long)desc,
		       KEY_SPEC_SESSION_KEYRING));
	{
		char list[256];

		r = kc(KEYCTL_READ, KEY_SPEC_USER_KEYRING, (long)list, sizeof(list), 0);
		call("read @u's list (special id)", r);
	}
	call("add_key into @u (special id)",
	     add_key("user", "sysward-planted", "x", 1, KEY_SPEC_USER_KEYRING));
	u = kc(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0, 0, 0);
	call("get @u's serial", u);
	if (u < 0)
		/* Found in /proc/keys, or given: try the witness's key's
		 * ring by every other route anyway. */
		u = wkey;
	r = kc(KEYCTL_LINK, u, KEY_SPEC_SESSION_KEYRING, 0, 0);
	call("link @u (serial) into its session keyring", r);
	read_secret("request_key after that", request_key("user", desc, NULL, 0));
	snprintf(name, sizeof(name), "_uid.%d", (int)getuid());
	r = kc(KEYCTL_JOIN_SESSION_KEYRING, (long)name, 0, 0, 0);
	call("join \"_uid.<uid>\" (@u by name) as its session keyring", r);
	read_secret("request_key after that", request_key("user", desc, NULL, 0));
	r = kc(KEYCTL_GET_PERSISTENT, -1, KEY_SPEC_SESSION_KEYRING, 0, 0);
	if (r < 0 && errno == EOPNOTSUPP)
		RESULT("get the persistent keyring = %s (also unconfined, if the kernel has none)",
		       RET(r, errno));
	else
		call("get the persistent keyring", r);
	call("request_key's default keyring set to @u",
	     kc(KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_USER_KEYRING, 0, 0, 0));
	read_secret("its serial, directly", wkey);
	FACT("%d routes reached the uid's keyrings", reached);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "a keyring of the uid's outside the sandbox was reached");
	return adv_verdict(ADV_CONTAINED, "the uid's keyrings out of reach");
}

/* ---- control --------------------------------------------------------------- */

static int control(void)
{
	char buf[64] = { 0 };
	long key, ring, found;

	key = add_key("user", "sysward-own", "mine", 4, KEY_SPEC_SESSION_KEYRING);
	ADV_OK("add_key into its session keyring", key);
	ADV_OK("read it back", kc(KEYCTL_READ, key, (long)buf, sizeof(buf), 0));
	found = request_key("user", "sysward-own", NULL, 0);
	ADV_OK("request_key finds it", found == key ? 0 : -1);
	ring = add_key("keyring", "sysward-ring", NULL, 0, KEY_SPEC_SESSION_KEYRING);
	ADV_OK("a keyring of its own", ring);
	ADV_OK("link its key into it", kc(KEYCTL_LINK, key, ring, 0, 0));
	ADV_OK("search it", kc(KEYCTL_SEARCH, ring, (long)"user", (long)"sysward-own", 0));
	ADV_OK("describe its key", kc(KEYCTL_DESCRIBE, key, (long)buf, sizeof(buf), 0));
	ADV_OK("unlink", kc(KEYCTL_UNLINK, key, ring, 0, 0));
	ADV_OK("request_key's default keyring: its session keyring",
	       kc(KEYCTL_SET_REQKEY_KEYRING, KEY_REQKEY_DEFL_SESSION_KEYRING, 0, 0, 0));
	/* No key of that name: the kernel runs /sbin/request-key, which
	 * answers ENOENT where keyutils is not installed, or constructs or
	 * negates it (ENOKEY) by its configuration; without the upcall the
	 * kernel says ENOKEY. */
	{
		long r = request_key("user", "sysward-none", "info", 0);
		int e = errno;

		adv_control("request_key with callout information, no such key",
			    r < 0 && (e == ENOENT || e == ENOKEY), r, e);
	}
	ADV_OK("a new anonymous session keyring", kc(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0));
	ADV_ERR("its old key is no longer found", request_key("user", "sysward-own", NULL, 0), ENOKEY);
	return adv_control_end();
}

/* ---- a launcher in a container ------------------------------------------------ */

static int filtered(char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_keyctl, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_add_key, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_request_key, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("seccomp");
		return ADV_CANNOT;
	}
	execvp(argv[0], argv);
	perror(argv[0]);
	return ADV_CANNOT;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "attack"))
		return attack(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "control"))
		return control();
	if (argc > 2 && !strcmp(argv[1], "filtered"))
		return filtered(argv + 2);
	fprintf(stderr, "usage: adv_keys witness DIR | attack DIR | control | filtered CMD...\n");
	return ADV_CANNOT;
}
