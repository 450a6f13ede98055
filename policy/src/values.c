// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbolic constants in policy values: "O_WRONLY|O_CREAT", "~O_CREAT",
 * "AF_INET", "EIO".  Values are those of the machine sysward is built
 * for, as its headers give them (x86_64 and i386 agree for every constant
 * listed here; arm64's O_DIRECTORY, O_NOFOLLOW, O_DIRECT and O_LARGEFILE
 * differ from x86's, arch/arm64/include/uapi/asm/fcntl.h); O_LARGEFILE is
 * the kernel's value, not glibc's 64-bit userspace 0; MAP_32BIT is
 * x86-64's alone.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "sysward/cleanup.h"

struct sw_const {
	const char *name;
	uint64_t value;
};

#define C(x) { #x, (uint64_t)(x) }

static const struct sw_const constants[] = {
	/* open(2) flags */
	C(O_RDONLY), C(O_WRONLY), C(O_RDWR), C(O_ACCMODE), C(O_CREAT),
	C(O_EXCL), C(O_NOCTTY), C(O_TRUNC), C(O_APPEND), C(O_NONBLOCK),
	C(O_NDELAY), C(O_DSYNC), C(O_SYNC), C(O_RSYNC), C(O_ASYNC),
	C(O_DIRECT), C(O_DIRECTORY), C(O_NOFOLLOW), C(O_NOATIME),
	C(O_CLOEXEC), C(O_PATH), C(O_TMPFILE),
#if defined(__aarch64__)
	{ "O_LARGEFILE", 0400000 },
#else
	{ "O_LARGEFILE", 0100000 },
#endif
	/* *at(2) */
	{ "AT_FDCWD", (uint64_t)(int64_t)AT_FDCWD },
	C(AT_SYMLINK_NOFOLLOW), C(AT_REMOVEDIR), C(AT_SYMLINK_FOLLOW),
	C(AT_NO_AUTOMOUNT), C(AT_EMPTY_PATH), C(AT_EACCESS),
	/* clone(2) */
	C(CSIGNAL), C(CLONE_VM), C(CLONE_FS), C(CLONE_FILES),
	C(CLONE_SIGHAND), C(CLONE_PIDFD), C(CLONE_PTRACE), C(CLONE_VFORK),
	C(CLONE_PARENT), C(CLONE_THREAD), C(CLONE_NEWNS), C(CLONE_SYSVSEM),
	C(CLONE_SETTLS), C(CLONE_PARENT_SETTID), C(CLONE_CHILD_CLEARTID),
	C(CLONE_DETACHED), C(CLONE_UNTRACED), C(CLONE_CHILD_SETTID),
	C(CLONE_NEWCGROUP), C(CLONE_NEWUTS), C(CLONE_NEWIPC),
	C(CLONE_NEWUSER), C(CLONE_NEWPID), C(CLONE_NEWNET), C(CLONE_IO),
	{ "CLONE_NEWTIME", 0x00000080 },
	/* socket(2) */
	C(AF_UNSPEC), C(AF_UNIX), C(AF_LOCAL), C(AF_INET), C(AF_INET6),
	C(AF_NETLINK), C(AF_PACKET), C(AF_KEY), C(AF_BLUETOOTH),
	C(AF_VSOCK), C(AF_ALG), C(AF_CAN), C(AF_TIPC), C(AF_X25),
	C(AF_AX25), C(AF_APPLETALK), C(AF_IPX), C(AF_RDS), C(AF_XDP),
	C(AF_BRIDGE), C(AF_NFC), C(AF_IEEE802154), C(AF_LLC),
	C(SOCK_STREAM), C(SOCK_DGRAM), C(SOCK_RAW), C(SOCK_RDM),
	C(SOCK_SEQPACKET), C(SOCK_PACKET), C(SOCK_NONBLOCK),
	C(SOCK_CLOEXEC),
	/* mmap(2), mprotect(2) */
	C(PROT_NONE), C(PROT_READ), C(PROT_WRITE), C(PROT_EXEC),
	C(PROT_GROWSDOWN), C(PROT_GROWSUP),
	C(MAP_SHARED), C(MAP_PRIVATE), C(MAP_SHARED_VALIDATE), C(MAP_FIXED),
	C(MAP_ANONYMOUS), C(MAP_ANON),
#ifdef MAP_32BIT
	C(MAP_32BIT),
#endif
	C(MAP_GROWSDOWN),
	C(MAP_DENYWRITE), C(MAP_EXECUTABLE), C(MAP_LOCKED),
	C(MAP_NORESERVE), C(MAP_POPULATE), C(MAP_NONBLOCK), C(MAP_STACK),
	C(MAP_HUGETLB), C(MAP_SYNC), C(MAP_FIXED_NOREPLACE),
};

#define E(x) { #x, x }
static const struct {
	const char *name;
	int value;
} errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO),
	E(E2BIG), E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM),
	E(EACCES), E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV),
	E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS),
	E(EMLINK), E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK),
	E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY), E(ELOOP),
	E(EWOULDBLOCK), E(ENOMSG), E(EIDRM), E(ECHRNG), E(EL2NSYNC),
	E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH), E(ENOCSI), E(EL2HLT),
	E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC), E(EBADSLT),
	E(EDEADLOCK), E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR),
	E(ENONET), E(ENOPKG), E(EREMOTE), E(ENOLINK), E(EADV), E(ESRMNT),
	E(ECOMM), E(EPROTO), E(EMULTIHOP), E(EDOTDOT), E(EBADMSG),
	E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC),
	E(ELIBBAD), E(ELIBSCN), E(ELIBMAX), E(ELIBEXEC), E(EILSEQ),
	E(ERESTART), E(ESTRPIPE), E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ),
	E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(ENOTSUP), E(EPFNOSUPPORT),
	E(EAFNOSUPPORT), E(EADDRINUSE), E(EADDRNOTAVAIL), E(ENETDOWN),
	E(ENETUNREACH), E(ENETRESET), E(ECONNABORTED), E(ECONNRESET),
	E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN), E(ETOOMANYREFS),
	E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH),
	E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EUCLEAN), E(ENOTNAM),
	E(ENAVAIL), E(EISNAM), E(EREMOTEIO), E(EDQUOT), E(ENOMEDIUM),
	E(EMEDIUMTYPE), E(ECANCELED), E(ENOKEY), E(EKEYEXPIRED),
	E(EKEYREVOKED), E(EKEYREJECTED), E(EOWNERDEAD), E(ENOTRECOVERABLE),
	E(ERFKILL), E(EHWPOISON),
};

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

int sw_errno_from_name(const char *name)
{
	for (size_t i = 0; i < N_ELEMENTS(errnos); i++)
		if (strcmp(errnos[i].name, name) == 0)
			return errnos[i].value;
	return -1;
}

const char *sw_errno_name(int e)
{
	/* First entry wins: EAGAIN before EWOULDBLOCK, EDEADLK before
	 * EDEADLOCK, EOPNOTSUPP before ENOTSUP. */
	for (size_t i = 0; i < N_ELEMENTS(errnos); i++)
		if (errnos[i].value == e)
			return errnos[i].name;
	return NULL;
}

static int lookup(const char *name, uint64_t *ret)
{
	int e;

	for (size_t i = 0; i < N_ELEMENTS(constants); i++)
		if (strcmp(constants[i].name, name) == 0) {
			*ret = constants[i].value;
			return 0;
		}
	e = sw_errno_from_name(name);
	if (e >= 0) {
		*ret = (uint64_t)e;
		return 0;
	}
	return -1;
}

static const char *suggest_const(const char *name)
{
	struct sw_suggest s;

	sw_suggest_init(&s, name);
	for (size_t i = 0; i < N_ELEMENTS(constants); i++)
		sw_suggest_feed(&s, constants[i].name);
	for (size_t i = 0; i < N_ELEMENTS(errnos); i++)
		sw_suggest_feed(&s, errnos[i].name);
	return sw_suggest_result(&s);
}

/* One term: a constant name or a C integer literal (0x.., 0.., [-]dec). */
static int parse_term(const char *t, uint64_t *ret, char *why, size_t why_len)
{
	char *end;
	const char *hint;

	if (!*t) {
		snprintf(why, why_len, "empty term in value expression");
		return -EINVAL;
	}
	if (t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) {
		errno = 0;
		if (t[0] == '-') {
			long long v = strtoll(t, &end, 0);

			*ret = (uint64_t)(int64_t)v;
		} else {
			*ret = strtoull(t, &end, 0);
		}
		if (errno == ERANGE) {
			snprintf(why, why_len,
				 "number \"%.64s\" does not fit in 64 bits", t);
			return -EINVAL;
		}
		if (*end || end == t) {
			snprintf(why, why_len,
				 "\"%.64s\" is not a number (use decimal, 0x hex or 0 octal)",
				 t);
			return -EINVAL;
		}
		return 0;
	}
	if (lookup(t, ret) == 0)
		return 0;
	hint = suggest_const(t);
	if (hint)
		snprintf(why, why_len,
			 "unknown constant \"%.64s\" (did you mean \"%s\"?)", t,
			 hint);
	else
		snprintf(why, why_len,
			 "unknown constant \"%.64s\" (known: O_*, AT_*, CLONE_*, AF_*, SOCK_*, PROT_*, MAP_*, E* errno names, or a number)",
			 t);
	return -EINVAL;
}

int sw_value_parse(const char *s, uint64_t *ret, char *why, size_t why_len)
{
	char term[SW_POLICY_MAX_NAME_LEN + 1];
	uint64_t acc = 0;
	bool invert = false;
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '~') {
		invert = true;
		p++;
	}
	for (;;) {
		const char *start, *stop;
		size_t n;
		uint64_t v;
		int r;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		while (*p && *p != '|')
			p++;
		stop = p;
		while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
			stop--;
		n = (size_t)(stop - start);
		if (n > SW_POLICY_MAX_NAME_LEN) {
			snprintf(why, why_len,
				 "term \"%.32s...\" is longer than %d characters",
				 start, SW_POLICY_MAX_NAME_LEN);
			return -EINVAL;
		}
		memcpy(term, start, n);
		term[n] = '\0';
		if (n == 0) {
			snprintf(why, why_len, "empty term in \"%.64s\"", s);
			return -EINVAL;
		}
		if (term[0] == '~') {
			snprintf(why, why_len,
				 "\"~\" is allowed only at the start of the expression, where it inverts all of it");
			return -EINVAL;
		}
		r = parse_term(term, &v, why, why_len);
		if (r < 0)
			return r;
		acc |= v;
		if (!*p)
			break;
		p++;	/* skip '|' */
	}
	*ret = invert ? ~acc : acc;
	return 0;
}
