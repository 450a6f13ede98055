// SPDX-License-Identifier: LGPL-2.1-or-later
/* Architectures and system call names, as libseccomp knows them. */
#include "internal.h"
#include "sysward/policy.h"

#include <pthread.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

#define A(n, oci, alt) { "SCMP_ARCH_" #n, SCMP_ARCH_##n, oci, alt }
#define A_MISSING(n, oci) { "SCMP_ARCH_" #n, 0, oci, NULL }

/* OCI spellings are Docker's (profiles/seccomp: nativeToSeccomp), including
 * its two historical variants "mipsle" and "mips3l64n32". */
static const struct sw_arch_info arches[] = {
	A(X86_64, "amd64", NULL),
	A(X86, "x86", NULL),
	A(X32, "x32", NULL),
	A(AARCH64, "arm64", NULL),
	A(ARM, "arm", NULL),
	A(MIPS, "mips", NULL),
	A(MIPSEL, "mipsel", "mipsle"),
	A(MIPS64, "mips64", NULL),
	A(MIPS64N32, "mips64n32", NULL),
	A(MIPSEL64, "mipsel64", NULL),
	A(MIPSEL64N32, "mipsel64n32", "mips3l64n32"),
	A(PPC, "ppc", NULL),
	A(PPC64, "ppc64", NULL),
	A(PPC64LE, "ppc64le", NULL),
	A(S390, "s390", NULL),
	A(S390X, "s390x", NULL),
	A(PARISC, "parisc", NULL),
	A(PARISC64, "parisc64", NULL),
	A(RISCV64, "riscv64", NULL),
#ifdef SCMP_ARCH_LOONGARCH64
	A(LOONGARCH64, "loong64", NULL),
#else
	A_MISSING(LOONGARCH64, "loong64"),
#endif
#ifdef SCMP_ARCH_M68K
	A(M68K, "m68k", NULL),
#else
	A_MISSING(M68K, "m68k"),
#endif
#ifdef SCMP_ARCH_SH
	A(SH, "sh", NULL),
	A(SHEB, "sheb", NULL),
#else
	A_MISSING(SH, "sh"),
	A_MISSING(SHEB, "sheb"),
#endif
};

const struct sw_arch_info *sw_arch_by_scmp_name(const char *name)
{
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		if (strcmp(arches[i].scmp_name, name) == 0)
			return &arches[i];
	return NULL;
}

const struct sw_arch_info *sw_arch_by_token(uint32_t token)
{
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		if (arches[i].token && arches[i].token == token)
			return &arches[i];
	return NULL;
}

size_t sw_default_arches(uint32_t tokens[SW_DEFAULT_ARCHES_MAX])
{
	uint32_t native = seccomp_arch_native();
	size_t n = 0;

	tokens[n++] = native;
	if (native == SCMP_ARCH_X86_64) {
		tokens[n++] = SCMP_ARCH_X86;
		tokens[n++] = SCMP_ARCH_X32;
	} else if (native == SCMP_ARCH_AARCH64) {
		tokens[n++] = SCMP_ARCH_ARM;
	}
	return n;
}

bool sw_oci_arch_known(const char *name)
{
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		if (strcmp(arches[i].oci, name) == 0 ||
		    (arches[i].oci_alt && strcmp(arches[i].oci_alt, name) == 0))
			return true;
	return false;
}

void sw_arch_suggest_scmp(struct sw_suggest *s)
{
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		sw_suggest_feed(s, arches[i].scmp_name);
}

void sw_arch_suggest_oci(struct sw_suggest *s)
{
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		sw_suggest_feed(s, arches[i].oci);
}

void sw_arch_list_scmp(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_ELEMENTS(arches) && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s",
				 i ? ", " : "", arches[i].scmp_name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/*
 * System calls newer than some libseccomp releases (Linux 5.x .. 6.18).
 * Policies written for a newer libseccomp (Docker's profile follows the
 * kernel closely) name them; they are accepted with a warning and dropped,
 * because this libseccomp cannot put them in a filter.
 */
static const char *const newer_syscalls[] = {
	"pidfd_send_signal", "io_uring_setup", "io_uring_enter",
	"io_uring_register", "open_tree", "move_mount", "fsopen",
	"fsconfig", "fsmount", "fspick", "pidfd_open", "clone3",
	"close_range", "openat2", "pidfd_getfd", "faccessat2",
	"process_madvise", "epoll_pwait2", "mount_setattr", "quotactl_fd",
	"landlock_create_ruleset", "landlock_add_rule",
	"landlock_restrict_self", "memfd_secret", "process_mrelease",
	"futex_waitv", "set_mempolicy_home_node", "cachestat", "fchmodat2",
	"map_shadow_stack", "futex_wake", "futex_wait", "futex_requeue",
	"statmount", "listmount", "lsm_get_self_attr", "lsm_set_self_attr",
	"lsm_list_modules", "mseal", "setxattrat", "getxattrat",
	"listxattrat", "removexattrat", "open_tree_attr", "file_getattr",
	"file_setattr", "uretprobe", "uprobe",
	"riscv_hwprobe",	/* riscv64 only, Linux 6.4; in Docker's profile */
};

static bool exists_on(uint32_t arch, const char *name)
{
	int nr = seccomp_syscall_resolve_name_arch(arch, name);

	/* libseccomp answers with a pseudo number <= -10000 for a name it
	 * knows that does not exist on this arch; -1xx/-2xx are the
	 * socketcall/ipc multiplexed calls, which it can filter. */
	return nr != __NR_SCMP_ERROR && nr > -10000;
}

enum sw_syscall_status sw_syscall_status(const char *name,
					 const uint32_t *arch_list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (exists_on(arch_list[i], name))
			return SW_SYSCALL_OK;
	for (size_t i = 0; i < N_ELEMENTS(arches); i++)
		if (arches[i].token &&
		    seccomp_syscall_resolve_name_arch(arches[i].token, name) !=
			    __NR_SCMP_ERROR)
			return SW_SYSCALL_OTHER_ARCH;
	for (size_t i = 0; i < N_ELEMENTS(newer_syscalls); i++)
		if (strcmp(newer_syscalls[i], name) == 0)
			return SW_SYSCALL_NEWER;
	return SW_SYSCALL_UNKNOWN;
}

/*
 * Every name libseccomp knows for the main architectures, for suggestions.
 * libseccomp has no iterator over its names: ask number by number, once
 * per process (pthread_once: the daemon may load policies from any thread).
 * The table lives until exit.
 */
static char **names_tab;
static size_t names_n;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void build_names(void)
{
	static const struct {
		uint32_t arch;
		int base, count;
	} ranges[] = {
		{ SCMP_ARCH_X86_64, 0, 1024 },
		{ SCMP_ARCH_X86, 0, 1024 },
		{ SCMP_ARCH_AARCH64, 0, 1024 },
		{ SCMP_ARCH_ARM, 0, 1024 },
		{ SCMP_ARCH_ARM, 0x0f0000, 16 },	/* __ARM_NR_BASE */
		{ SCMP_ARCH_RISCV64, 0, 1024 },
	};
	size_t cap = 0, n = 0;
	char **tab = NULL;

	for (size_t r = 0; r < N_ELEMENTS(ranges); r++) {
		for (int nr = ranges[r].base;
		     nr < ranges[r].base + ranges[r].count; nr++) {
			char *s = seccomp_syscall_resolve_num_arch(
				ranges[r].arch, nr);

			if (!s)
				continue;
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 1024;
				char **nt = realloc(tab, ncap * sizeof(*nt));

				if (!nt) {
					free(s);
					goto done;	/* partial is fine */
				}
				tab = nt;
				cap = ncap;
			}
			tab[n++] = s;
		}
	}
done:
	/* sort and drop the names several architectures share */
	if (n) {
		size_t u = 1;

		qsort(tab, n, sizeof(*tab), cmp_str);
		for (size_t i = 1; i < n; i++) {
			if (strcmp(tab[i], tab[u - 1]) == 0)
				free(tab[i]);
			else
				tab[u++] = tab[i];
		}
		n = u;
	}
	names_tab = tab;
	names_n = n;
}

const char *sw_syscall_suggest(const char *name)
{
	struct sw_suggest s;

	pthread_once(&names_once, build_names);
	sw_suggest_init(&s, name);
	for (size_t i = 0; i < names_n; i++)
		sw_suggest_feed(&s, names_tab[i]);
	for (size_t i = 0; i < N_ELEMENTS(newer_syscalls); i++)
		sw_suggest_feed(&s, newer_syscalls[i]);
	return sw_suggest_result(&s);
}
