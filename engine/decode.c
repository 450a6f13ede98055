// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Arguments and results as strace(1) writes them: the one decoder of
 * the text log (audit.c), the report's samples and the --gate/--complain
 * summary (recreport.c).  Pure and table-driven, in the manner of
 * strace's xlat tables: a table of names per constant or flag set, and
 * one row per call saying what each argument is.  Measured against
 * strace 6.1 (Debian 12) on Linux 6.18 by tests/integration/run.sh
 * (t_decode_strace), which runs one program under both and compares
 * the argument lists call by call.
 *
 * What strace reads from the tracee and sysward does not (buffers,
 * structures, arrays, strings that are no path: write's data, stat's
 * result, execve's argv) is written as its pointer, as strace itself
 * writes an address it cannot read.  The values are the kernel's, cut to
 * the ABI's width: a 32-bit argument is read as the kernel reads it
 * (SYSCALL_DEFINEn casts the register to the declared type).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/decode.h"
#include "sysward/engine.h"
#include "sysward/policy.h"
#include "arch.h"

struct xlat_entry {
	uint64_t val;
	const char *name;
};

/* Flags: entries tried in order, each taken whole if every bit of it
 * is set (so a combination such as O_SYNC or STATX_ALL goes first);
 * what is left is written "|0x..".  Constants: the name of the value,
 * else "0x.." and a comment naming the unknown, as strace writes it. */
struct xlat {
	const struct xlat_entry *e;
	size_t n;
	const char *unknown;	/* "AF_???" */
};

#define X(v) { (uint64_t)(v), #v }
#define XLAT(name, unk, ...)                                            \
	static const struct xlat_entry name##_e[] = { __VA_ARGS__ };     \
	static const struct xlat name = { name##_e,                      \
		sizeof(name##_e) / sizeof(name##_e[0]), unk }

/* Values from the uapi headers (include/uapi/...), written out so that
 * the table does not depend on the C library's headers being new. */
XLAT(x_af, "AF_???",
     { 0, "AF_UNSPEC" }, { 1, "AF_UNIX" }, { 2, "AF_INET" }, { 3, "AF_AX25" },
     { 4, "AF_IPX" }, { 5, "AF_APPLETALK" }, { 9, "AF_X25" }, { 10, "AF_INET6" },
     { 15, "AF_KEY" }, { 16, "AF_NETLINK" }, { 17, "AF_PACKET" },
     { 29, "AF_CAN" }, { 30, "AF_TIPC" }, { 31, "AF_BLUETOOTH" },
     { 38, "AF_ALG" }, { 40, "AF_VSOCK" }, { 44, "AF_XDP" }, { 45, "AF_MCTP" });
XLAT(x_sock_type, "SOCK_???",
     { 1, "SOCK_STREAM" }, { 2, "SOCK_DGRAM" }, { 3, "SOCK_RAW" },
     { 4, "SOCK_RDM" }, { 5, "SOCK_SEQPACKET" }, { 6, "SOCK_DCCP" },
     { 10, "SOCK_PACKET" });
XLAT(x_sock_flags, NULL, { 02000000, "SOCK_CLOEXEC" }, { 04000, "SOCK_NONBLOCK" });
XLAT(x_ipproto, "IPPROTO_???",
     { 0, "IPPROTO_IP" }, { 1, "IPPROTO_ICMP" }, { 2, "IPPROTO_IGMP" },
     { 6, "IPPROTO_TCP" }, { 17, "IPPROTO_UDP" }, { 41, "IPPROTO_IPV6" },
     { 58, "IPPROTO_ICMPV6" }, { 132, "IPPROTO_SCTP" }, { 136, "IPPROTO_UDPLITE" },
     { 255, "IPPROTO_RAW" }, { 262, "IPPROTO_MPTCP" });
XLAT(x_netlink, "NETLINK_???",
     { 0, "NETLINK_ROUTE" }, { 2, "NETLINK_USERSOCK" }, { 4, "NETLINK_SOCK_DIAG" },
     { 9, "NETLINK_AUDIT" }, { 15, "NETLINK_KOBJECT_UEVENT" },
     { 16, "NETLINK_GENERIC" });
/* AF_PACKET's protocol is big-endian: strace writes htons(ETH_P_...). */
XLAT(x_eth_p, "ETH_P_???",
     { 0x0003, "ETH_P_ALL" }, { 0x0800, "ETH_P_IP" }, { 0x0806, "ETH_P_ARP" },
     { 0x86dd, "ETH_P_IPV6" });
XLAT(x_open_flags, NULL,
     { 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" },
     { 01000, "O_TRUNC" }, { 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
     { 04010000, "O_SYNC" }, { 010000, "O_DSYNC" }, { 040000, "O_DIRECT" },
     { 0100000, "O_LARGEFILE" }, { 0400000, "O_NOFOLLOW" },
     { 01000000, "O_NOATIME" }, { 02000000, "O_CLOEXEC" },
     { 010000000, "O_PATH" }, { 020200000, "O_TMPFILE" },
     { 0200000, "O_DIRECTORY" }, { 020000, "FASYNC" });
XLAT(x_access_mode, NULL, { 0, "O_RDONLY" }, { 1, "O_WRONLY" }, { 2, "O_RDWR" },
     { 3, "O_ACCMODE" });
XLAT(x_at_flags, NULL,
     { 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_EACCESS" },
     { 0x400, "AT_SYMLINK_FOLLOW" }, { 0x800, "AT_NO_AUTOMOUNT" },
     { 0x1000, "AT_EMPTY_PATH" }, { 0x8000, "AT_RECURSIVE" });
XLAT(x_unlinkat_flags, NULL, { 0x200, "AT_REMOVEDIR" });
XLAT(x_statx_sync, NULL, { 0x2000, "AT_STATX_FORCE_SYNC" },
     { 0x4000, "AT_STATX_DONT_SYNC" });
XLAT(x_statx_mask, NULL,
     { 0xfff, "STATX_ALL" }, { 0x7ff, "STATX_BASIC_STATS" },
     { 0x1, "STATX_TYPE" }, { 0x2, "STATX_MODE" }, { 0x4, "STATX_NLINK" },
     { 0x8, "STATX_UID" }, { 0x10, "STATX_GID" }, { 0x20, "STATX_ATIME" },
     { 0x40, "STATX_MTIME" }, { 0x80, "STATX_CTIME" }, { 0x100, "STATX_INO" },
     { 0x200, "STATX_SIZE" }, { 0x400, "STATX_BLOCKS" }, { 0x800, "STATX_BTIME" },
     { 0x1000, "STATX_MNT_ID" }, { 0x2000, "STATX_DIOALIGN" },
     { 0x4000, "STATX_MNT_ID_UNIQUE" });
XLAT(x_access, NULL, { 0, "F_OK" }, { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" });
XLAT(x_prot, NULL, { 0, "PROT_NONE" }, { 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" },
     { 8, "PROT_SEM" }, { 0x1000000, "PROT_GROWSDOWN" },
     { 0x2000000, "PROT_GROWSUP" });
XLAT(x_map_type, "MAP_???", { 1, "MAP_SHARED" }, { 2, "MAP_PRIVATE" },
     { 3, "MAP_SHARED_VALIDATE" });
XLAT(x_map_flags, NULL,
     { 0x10, "MAP_FIXED" }, { 0x20, "MAP_ANONYMOUS" }, { 0x40, "MAP_32BIT" },
     { 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" },
     { 0x10000, "MAP_NONBLOCK" }, { 0x100, "MAP_GROWSDOWN" },
     { 0x800, "MAP_DENYWRITE" }, { 0x1000, "MAP_EXECUTABLE" },
     { 0x2000, "MAP_LOCKED" }, { 0x20000, "MAP_STACK" },
     { 0x40000, "MAP_HUGETLB" }, { 0x80000, "MAP_SYNC" },
     { 0x100000, "MAP_FIXED_NOREPLACE" }, { 0x4000000, "MAP_UNINITIALIZED" });
/* clone(2), unshare(2): the exit signal is clone's low byte. */
XLAT(x_clone_flags, NULL,
     { 0x100, "CLONE_VM" }, { 0x200, "CLONE_FS" }, { 0x400, "CLONE_FILES" },
     { 0x800, "CLONE_SIGHAND" }, { 0x1000, "CLONE_PIDFD" },
     { 0x2000, "CLONE_PTRACE" }, { 0x4000, "CLONE_VFORK" },
     { 0x8000, "CLONE_PARENT" }, { 0x10000, "CLONE_THREAD" },
     { 0x20000, "CLONE_NEWNS" }, { 0x40000, "CLONE_SYSVSEM" },
     { 0x80000, "CLONE_SETTLS" }, { 0x100000, "CLONE_PARENT_SETTID" },
     { 0x200000, "CLONE_CHILD_CLEARTID" }, { 0x800000, "CLONE_UNTRACED" },
     { 0x1000000, "CLONE_CHILD_SETTID" }, { 0x2000000, "CLONE_NEWCGROUP" },
     { 0x4000000, "CLONE_NEWUTS" }, { 0x8000000, "CLONE_NEWIPC" },
     { 0x10000000, "CLONE_NEWUSER" }, { 0x20000000, "CLONE_NEWPID" },
     { 0x40000000, "CLONE_NEWNET" }, { 0x80000000, "CLONE_IO" },
     { 0x80, "CLONE_NEWTIME" });
XLAT(x_personality, "PER_???",
     { 0, "PER_LINUX" }, { 8, "PER_LINUX32" }, { 1, "PER_SVR4" },
     { 2, "PER_SVR3" }, { 3, "PER_SCOSVR3" }, { 4, "PER_WYSEV386" },
     { 5, "PER_ISCR4" }, { 6, "PER_BSD" }, { 7, "PER_SUNOS" },
     { 9, "PER_IRIX32" }, { 10, "PER_IRIXN32" }, { 11, "PER_IRIX64" },
     { 12, "PER_RISCOS" }, { 13, "PER_SOLARIS" }, { 14, "PER_UW7" },
     { 15, "PER_OSF4" }, { 16, "PER_HPUX" });
XLAT(x_personality_flags, NULL,
     { 0x20000, "UNAME26" }, { 0x40000, "ADDR_NO_RANDOMIZE" },
     { 0x80000, "FDPIC_FUNCPTRS" }, { 0x100000, "MMAP_PAGE_ZERO" },
     { 0x200000, "ADDR_COMPAT_LAYOUT" }, { 0x400000, "READ_IMPLIES_EXEC" },
     { 0x800000, "ADDR_LIMIT_32BIT" }, { 0x1000000, "SHORT_INODE" },
     { 0x2000000, "WHOLE_SECONDS" }, { 0x4000000, "STICKY_TIMEOUTS" },
     { 0x8000000, "ADDR_LIMIT_3GB" });
XLAT(x_close_range, NULL, { 2, "CLOSE_RANGE_UNSHARE" }, { 4, "CLOSE_RANGE_CLOEXEC" });
XLAT(x_seek, "SEEK_???", { 0, "SEEK_SET" }, { 1, "SEEK_CUR" }, { 2, "SEEK_END" },
     { 3, "SEEK_DATA" }, { 4, "SEEK_HOLE" });
XLAT(x_wait, NULL, { 1, "WNOHANG" }, { 2, "WUNTRACED" }, { 8, "WCONTINUED" },
     { 0x20000000, "__WNOTHREAD" }, { 0x40000000, "__WALL" },
     { 0x80000000, "__WCLONE" });
XLAT(x_rlimit, "RLIMIT_???",
     { 0, "RLIMIT_CPU" }, { 1, "RLIMIT_FSIZE" }, { 2, "RLIMIT_DATA" },
     { 3, "RLIMIT_STACK" }, { 4, "RLIMIT_CORE" }, { 5, "RLIMIT_RSS" },
     { 6, "RLIMIT_NPROC" }, { 7, "RLIMIT_NOFILE" }, { 8, "RLIMIT_MEMLOCK" },
     { 9, "RLIMIT_AS" }, { 10, "RLIMIT_LOCKS" }, { 11, "RLIMIT_SIGPENDING" },
     { 12, "RLIMIT_MSGQUEUE" }, { 13, "RLIMIT_NICE" }, { 14, "RLIMIT_RTPRIO" },
     { 15, "RLIMIT_RTTIME" });
XLAT(x_sigprocmask, "SIG_???", { 0, "SIG_BLOCK" }, { 1, "SIG_UNBLOCK" },
     { 2, "SIG_SETMASK" });
XLAT(x_grnd, NULL, { 1, "GRND_NONBLOCK" }, { 2, "GRND_RANDOM" }, { 4, "GRND_INSECURE" });
XLAT(x_arch_prctl, "ARCH_???",
     { 0x1001, "ARCH_SET_GS" }, { 0x1002, "ARCH_SET_FS" }, { 0x1003, "ARCH_GET_FS" },
     { 0x1004, "ARCH_GET_GS" }, { 0x1011, "ARCH_GET_CPUID" },
     { 0x1012, "ARCH_SET_CPUID" });
XLAT(x_fadv, "POSIX_FADV_???",
     { 0, "POSIX_FADV_NORMAL" }, { 1, "POSIX_FADV_RANDOM" },
     { 2, "POSIX_FADV_SEQUENTIAL" }, { 3, "POSIX_FADV_WILLNEED" },
     { 4, "POSIX_FADV_DONTNEED" }, { 5, "POSIX_FADV_NOREUSE" });
XLAT(x_epoll_flags, NULL, { 02000000, "EPOLL_CLOEXEC" });
XLAT(x_rusage, "RUSAGE_???", { 0, "RUSAGE_SELF" }, { (uint32_t)-1, "RUSAGE_CHILDREN" },
     { 1, "RUSAGE_THREAD" });
XLAT(x_fcntl, "F_???",
     { 0, "F_DUPFD" }, { 1, "F_GETFD" }, { 2, "F_SETFD" }, { 3, "F_GETFL" },
     { 4, "F_SETFL" }, { 5, "F_GETLK" }, { 6, "F_SETLK" }, { 7, "F_SETLKW" },
     { 8, "F_SETOWN" }, { 9, "F_GETOWN" }, { 10, "F_SETSIG" }, { 11, "F_GETSIG" },
     { 36, "F_OFD_GETLK" }, { 37, "F_OFD_SETLK" }, { 38, "F_OFD_SETLKW" },
     { 1024, "F_SETLEASE" }, { 1025, "F_GETLEASE" }, { 1030, "F_DUPFD_CLOEXEC" },
     { 1031, "F_SETPIPE_SZ" }, { 1032, "F_GETPIPE_SZ" }, { 1033, "F_ADD_SEALS" },
     { 1034, "F_GET_SEALS" });
XLAT(x_fd_flags, NULL, { 1, "FD_CLOEXEC" });
XLAT(x_msg_flags, NULL,
     { 0x1, "MSG_OOB" }, { 0x2, "MSG_PEEK" }, { 0x4, "MSG_DONTROUTE" },
     { 0x8, "MSG_CTRUNC" }, { 0x10, "MSG_PROXY" }, { 0x20, "MSG_TRUNC" },
     { 0x40, "MSG_DONTWAIT" }, { 0x80, "MSG_EOR" }, { 0x100, "MSG_WAITALL" },
     { 0x200, "MSG_FIN" }, { 0x400, "MSG_SYN" }, { 0x800, "MSG_CONFIRM" },
     { 0x1000, "MSG_RST" }, { 0x2000, "MSG_ERRQUEUE" }, { 0x4000, "MSG_NOSIGNAL" },
     { 0x8000, "MSG_MORE" }, { 0x10000, "MSG_WAITFORONE" }, { 0x40000, "MSG_BATCH" },
     { 0x4000000, "MSG_ZEROCOPY" }, { 0x20000000, "MSG_FASTOPEN" },
     { 0x40000000, "MSG_CMSG_CLOEXEC" });
XLAT(x_futex_cmd, "FUTEX_???",
     { 0, "FUTEX_WAIT" }, { 1, "FUTEX_WAKE" }, { 2, "FUTEX_FD" },
     { 3, "FUTEX_REQUEUE" }, { 4, "FUTEX_CMP_REQUEUE" }, { 5, "FUTEX_WAKE_OP" },
     { 6, "FUTEX_LOCK_PI" }, { 7, "FUTEX_UNLOCK_PI" }, { 8, "FUTEX_TRYLOCK_PI" },
     { 9, "FUTEX_WAIT_BITSET" }, { 10, "FUTEX_WAKE_BITSET" },
     { 11, "FUTEX_WAIT_REQUEUE_PI" }, { 12, "FUTEX_CMP_REQUEUE_PI" },
     { 13, "FUTEX_LOCK_PI2" });
/* The requests the measured programs make (a terminal's, FIONREAD);
 * any other is written as strace writes an unknown one, _IOC(...). */
XLAT(x_ioctl, NULL,
     { 0x5401, "TCGETS" }, { 0x5402, "TCSETS" }, { 0x5403, "TCSETSW" },
     { 0x5404, "TCSETSF" }, { 0x540e, "TIOCSCTTY" }, { 0x540f, "TIOCGPGRP" },
     { 0x5410, "TIOCSPGRP" }, { 0x5413, "TIOCGWINSZ" }, { 0x5414, "TIOCSWINSZ" },
     { 0x541b, "FIONREAD" }, { 0x5421, "FIONBIO" }, { 0x5450, "FIONCLEX" },
     { 0x5451, "FIOCLEX" }, { 0x80045430, "TIOCGPTN" }, { 0x40045431, "TIOCSPTLCK" });
XLAT(x_signal, NULL,
     { 1, "SIGHUP" }, { 2, "SIGINT" }, { 3, "SIGQUIT" }, { 4, "SIGILL" },
     { 5, "SIGTRAP" }, { 6, "SIGABRT" }, { 7, "SIGBUS" }, { 8, "SIGFPE" },
     { 9, "SIGKILL" }, { 10, "SIGUSR1" }, { 11, "SIGSEGV" }, { 12, "SIGUSR2" },
     { 13, "SIGPIPE" }, { 14, "SIGALRM" }, { 15, "SIGTERM" }, { 16, "SIGSTKFLT" },
     { 17, "SIGCHLD" }, { 18, "SIGCONT" }, { 19, "SIGSTOP" }, { 20, "SIGTSTP" },
     { 21, "SIGTTIN" }, { 22, "SIGTTOU" }, { 23, "SIGURG" }, { 24, "SIGXCPU" },
     { 25, "SIGXFSZ" }, { 26, "SIGVTALRM" }, { 27, "SIGPROF" }, { 28, "SIGWINCH" },
     { 29, "SIGIO" }, { 30, "SIGPWR" }, { 31, "SIGSYS" }, { 32, "SIGRTMIN" });

/* What one argument is. */
enum kind {
	K_INT,		/* int, decimal: fds, pids, counts */
	K_UINT,		/* unsigned int, decimal */
	K_LONG,		/* long (the ABI's width), decimal: offsets */
	K_ULONG,	/* unsigned long, decimal: sizes */
	K_HEX,		/* hexadecimal, "0" for 0 */
	K_PTR,		/* NULL or 0x.. */
	K_PATH,		/* the string the supervisor read, else a K_PTR */
	K_DIRFD,	/* AT_FDCWD or an int */
	K_MODE,		/* octal, at least three digits */
	K_CONST,	/* a name of x */
	K_FLAGS,	/* flags of x; "0" for none */
	K_SIG,		/* a signal's name */
	K_OPEN,		/* access mode | open flags */
	K_MMAP_FLAGS,	/* the mapping's type | mmap flags */
	K_SOCKADDR,	/* a unix address the supervisor read, else a K_PTR */
};

struct arg {
	uint8_t kind;
	const struct xlat *x;
};

/* A call whose arguments are not one fixed list writes them itself. */
struct ctx;
typedef void (*special_fn)(struct ctx *c);

struct call {
	const char *name;
	uint8_t n;
	struct arg a[6];
	special_fn special;
};

struct ctx {
	FILE *f;
	uint32_t arch;
	uint64_t mask;		/* the ABI's width */
	const uint64_t *args;
	const char *const *strs;
	uint8_t hidden;
	unsigned int written;	/* arguments written so far */
};

static void sep(struct ctx *c)
{
	if (c->written++)
		fputs(", ", c->f);
}

/*
 * A string in the text format's C escapes (\\ \" \n \t \r \xNN, as
 * `strace -x` writes a byte that is not printable ASCII), no quotes
 * added: the one escaping of every text line sysward writes (the audit
 * log, the report, the gate), so that a path with a newline or a quote
 * never splits or ends a record.
 */
void sw_text_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static const char *xlat_name(const struct xlat *x, uint64_t v)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->e[i].val == v)
			return x->e[i].name;
	return NULL;
}

static void put_const(FILE *f, const struct xlat *x, uint64_t v)
{
	const char *name = xlat_name(x, v);

	if (name)
		fputs(name, f);
	else
		fprintf(f, "%#" PRIx64 " /* %s */", v, x->unknown ? x->unknown : "???");
}

/* The flags of x in v, "|"-joined, the rest as "0x.."; a leading "|"
 * unless first.  Returns whether it wrote anything (nothing for 0). */
static bool put_flags(FILE *f, const struct xlat *x, uint64_t v, bool first)
{
	bool wrote = false;

	for (size_t i = 0; i < x->n; i++) {
		uint64_t e = x->e[i].val;

		if (e && (v & e) == e) {
			fprintf(f, "%s%s", first && !wrote ? "" : "|", x->e[i].name);
			v &= ~e;
			wrote = true;
		}
	}
	if (v) {
		fprintf(f, "%s%#" PRIx64, first && !wrote ? "" : "|", v);
		wrote = true;
	}
	return wrote;
}

static void put_signal(FILE *f, uint64_t v)
{
	int sig = (int)(uint32_t)v;

	if (sig > 32 && sig <= 64)
		fprintf(f, "SIGRT_%d", sig - 32);
	else if (xlat_name(&x_signal, (uint64_t)sig))
		fputs(xlat_name(&x_signal, (uint64_t)sig), f);
	else
		fprintf(f, "%d", sig);
}

static void put_ptr(FILE *f, uint64_t v)
{
	if (v)
		fprintf(f, "%#" PRIx64, v);
	else
		fputs("NULL", f);
}

/* A long of the ABI's width, sign-extended. */
static int64_t slong(const struct ctx *c, uint64_t v)
{
	return c->mask == 0xffffffffull ? (int64_t)(int32_t)v : (int64_t)v;
}

static void put_arg(struct ctx *c, unsigned int i, const struct arg *a)
{
	FILE *f = c->f;
	uint64_t v = c->args[i] & c->mask;

	bool str = (a->kind == K_PATH || a->kind == K_SOCKADDR) && c->strs && c->strs[i];

	sep(c);
	/* The report leaves a pointer out, not the string read from it. */
	if ((c->hidden & (1u << i)) && !str) {
		fputs("...", f);
		return;
	}
	switch (a->kind) {
	case K_INT:
		fprintf(f, "%d", (int)(uint32_t)v);
		break;
	case K_UINT:
		fprintf(f, "%u", (unsigned int)v);
		break;
	case K_LONG:
		fprintf(f, "%" PRId64, slong(c, v));
		break;
	case K_ULONG:
		fprintf(f, "%" PRIu64, v);
		break;
	case K_HEX:
		fprintf(f, "%#" PRIx64, v);
		break;
	case K_PATH:
		if (c->strs && c->strs[i]) {
			fputc('"', f);
			sw_text_str(f, c->strs[i]);
			fputc('"', f);
			break;
		}
		/* Not read: its pointer. */
		__attribute__((fallthrough));
	case K_PTR:
		put_ptr(f, v);
		break;
	case K_DIRFD:
		if ((int)(uint32_t)v == -100)
			fputs("AT_FDCWD", f);
		else
			fprintf(f, "%d", (int)(uint32_t)v);
		break;
	case K_MODE:
		fprintf(f, "%#03o", (unsigned int)v);
		break;
	case K_CONST:
		put_const(f, a->x, (uint32_t)v);
		break;
	case K_FLAGS:
		/* None set: the table's name for 0 (PROT_NONE), else 0. */
		if (!put_flags(f, a->x, v, true))
			fputs(xlat_name(a->x, 0) ? xlat_name(a->x, 0) : "0", f);
		break;
	case K_SIG:
		put_signal(f, v);
		break;
	case K_OPEN:
		fputs(xlat_name(&x_access_mode, v & 3), f);
		put_flags(f, &x_open_flags, v & ~3ull & 0xffffffffull, false);
		break;
	case K_SOCKADDR:
		/* sw_unix_addr_spell()'s "@name" (abstract), "" (unnamed)
		 * or path, as strace writes the structure. */
		if (c->strs && c->strs[i]) {
			const char *a = c->strs[i];

			fputs("{sa_family=AF_UNIX", f);
			if (*a) {
				fputs(*a == '@' ? ", sun_path=@\"" : ", sun_path=\"", f);
				sw_text_str(f, *a == '@' ? a + 1 : a);
				fputc('"', f);
			}
			fputc('}', f);
		} else {
			put_ptr(f, v);
		}
		break;
	case K_MMAP_FLAGS:
		break;		/* put_mmap_flags() */
	}
}

#define A(k) { K_##k, NULL }
#define C(x) { K_CONST, &x }
#define F(x) { K_FLAGS, &x }
#define ROW(name, n, ...) { name, n, { __VA_ARGS__ }, NULL }
#define SPECIAL(name, fn) { name, 0, { { 0, NULL } }, fn }
#define ROW0(name) { name, 0, { { 0, NULL } }, NULL }

static void put_args(struct ctx *c, const struct arg *a, unsigned int from,
		     unsigned int to)
{
	for (unsigned int i = from; i < to; i++)
		put_arg(c, i, &a[i - from]);
}

/* openat(2), open(2): the mode only when the kernel reads it
 * (build_open_how(), fs/open.c: O_CREAT or O_TMPFILE). */
static void sp_open_common(struct ctx *c, unsigned int path)
{
	static const struct arg pre[] = { A(DIRFD), A(PATH), A(OPEN), A(MODE) };
	uint64_t flags = c->args[path + 1];

	put_args(c, pre + (path ? 0 : 1), 0, path + 2);
	if (flags & (0100 | 020000000))
		put_arg(c, path + 2, &pre[3]);
}

static void sp_openat(struct ctx *c) { sp_open_common(c, 1); }
static void sp_open(struct ctx *c) { sp_open_common(c, 0); }

/* socket(2): the protocol is read in the domain's terms. */
static void sp_socket(struct ctx *c)
{
	uint32_t domain = (uint32_t)c->args[0], type = (uint32_t)c->args[1];
	uint32_t proto = (uint32_t)c->args[2];
	static const struct arg dom = C(x_af);

	put_arg(c, 0, &dom);
	sep(c);
	if (c->hidden & 2) {
		fputs("...", c->f);
	} else {
		/* The flags out, the rest is the type (net/socket.c). */
		put_const(c->f, &x_sock_type, type & ~(02000000u | 04000u));
		put_flags(c->f, &x_sock_flags, type & (02000000u | 04000u), false);
	}
	sep(c);
	if (c->hidden & 4)
		fputs("...", c->f);
	else if (domain == 2 || domain == 10)
		put_const(c->f, &x_ipproto, proto);
	else if (domain == 16)
		put_const(c->f, &x_netlink, proto);
	else if (domain == 17 && xlat_name(&x_eth_p, (uint16_t)(proto >> 8 | proto << 8)))
		fprintf(c->f, "htons(%s)", xlat_name(&x_eth_p, (uint16_t)(proto >> 8 | proto << 8)));
	else
		fprintf(c->f, "%u", proto);
}

/* The exit signal in clone's low byte, after the flags. */
static void put_clone_flags(FILE *f, uint64_t v)
{
	uint64_t sig = v & 0xff;
	bool any = put_flags(f, &x_clone_flags, v & ~0xffull, true);

	if (sig) {
		fputs(any ? "|" : "", f);
		put_signal(f, sig);
	} else if (!any) {
		fputc('0', f);
	}
}

/* The engine's ABI of a libseccomp token, SW_ABI_NONE if none. */
static enum sw_abi abi_of_token(uint32_t arch)
{
	for (int abi = 0; abi < SW_ABI_COUNT; abi++)
		if (sw_abi_token((enum sw_abi)abi) == arch)
			return (enum sw_abi)abi;
	return SW_ABI_NONE;
}

/* clone(2), as strace names its arguments; x86_64's and arm64's order
 * is (flags, stack, parent_tid, child_tid, tls), i386's (flags, stack,
 * parent_tid, tls, child_tid) (kernel/fork.c, CONFIG_CLONE_BACKWARDS). */
static void sp_clone(struct ctx *c)
{
	uint64_t flags = c->args[0] & c->mask;
	enum sw_abi abi = abi_of_token(c->arch);
	bool backwards = abi != SW_ABI_NONE && sw_abi_clone_backwards(abi);
	unsigned int tls = backwards ? 3 : 4, child = backwards ? 4 : 3;

	sep(c);
	fputs("child_stack=", c->f);
	put_ptr(c->f, c->args[1] & c->mask);
	sep(c);
	fputs("flags=", c->f);
	if (c->hidden & 1)
		fputs("...", c->f);
	else
		put_clone_flags(c->f, flags);
	if (flags & 0x100000) {
		sep(c);
		fputs("parent_tid=", c->f);
		put_ptr(c->f, c->args[2] & c->mask);
	}
	if (flags & 0x80000) {
		sep(c);
		fputs("tls=", c->f);
		put_ptr(c->f, c->args[tls] & c->mask);
	}
	if (flags & (0x1000000 | 0x200000)) {
		sep(c);
		fputs("child_tidptr=", c->f);
		put_ptr(c->f, c->args[child] & c->mask);
	}
}

static void sp_unshare(struct ctx *c)
{
	sep(c);
	if (c->hidden & 1)
		fputs("...", c->f);
	else if (!put_flags(c->f, &x_clone_flags, c->args[0] & c->mask, true))
		fputc('0', c->f);
}

/* personality(2): the persona in the low byte, flags above it;
 * 0xffffffff is the query, written as it is. */
static void sp_personality(struct ctx *c)
{
	uint32_t v = (uint32_t)c->args[0];

	sep(c);
	if (c->hidden & 1) {
		fputs("...", c->f);
	} else if (v == 0xffffffff) {
		fputs("0xffffffff", c->f);
	} else {
		put_const(c->f, &x_personality, v & 0xff);
		put_flags(c->f, &x_personality_flags, v & ~0xffu, false);
	}
}

/* fcntl(2): the third argument as the command reads it, or none. */
static void sp_fcntl(struct ctx *c)
{
	static const struct arg pre[] = { A(INT), C(x_fcntl) };
	static const struct arg a_int = A(INT), a_ptr = A(PTR), a_hex = A(HEX);
	static const struct arg a_fd = F(x_fd_flags), a_open = A(OPEN);
	uint32_t cmd = (uint32_t)c->args[1];

	put_args(c, pre, 0, 2);
	switch (cmd) {
	case 1: case 3: case 9: case 11: case 1025: case 1032: case 1034:
		return;		/* F_GETFD, F_GETFL, F_GETOWN, ...: none */
	case 0: case 1030: case 8: case 10: case 1024: case 1031:
		put_arg(c, 2, &a_int);
		return;
	case 2:
		put_arg(c, 2, &a_fd);
		return;
	case 4:
		put_arg(c, 2, &a_open);
		return;
	case 5: case 6: case 7: case 36: case 37: case 38:
		put_arg(c, 2, &a_ptr);
		return;
	default:
		put_arg(c, 2, &a_hex);
	}
}

/* futex(2): the arguments the operation reads (kernel/futex/syscalls.c). */
static void sp_futex(struct ctx *c)
{
	static const struct arg a_ptr = A(PTR), a_int = A(INT), a_uint = A(UINT);
	static const struct arg a_hex = A(HEX);
	uint32_t op = (uint32_t)c->args[1], cmd = op & 0x7f;

	put_arg(c, 0, &a_ptr);
	sep(c);
	if (c->hidden & 2) {
		fputs("...", c->f);
	} else {
		put_const(c->f, &x_futex_cmd, cmd);
		if (op & 128)
			fputs("_PRIVATE", c->f);
		if (op & 256)
			fputs("|FUTEX_CLOCK_REALTIME", c->f);
		if (op & ~0x1ffu)
			fprintf(c->f, "|%#x", op & ~0x1ffu);
	}
	switch (cmd) {
	case 1:			/* FUTEX_WAKE */
		put_arg(c, 2, &a_int);
		return;
	case 0:			/* FUTEX_WAIT */
		put_arg(c, 2, &a_uint);
		put_arg(c, 3, &a_ptr);
		return;
	case 9:			/* FUTEX_WAIT_BITSET */
	case 10:		/* FUTEX_WAKE_BITSET */
		put_arg(c, 2, cmd == 9 ? &a_uint : &a_int);
		if (cmd == 9)
			put_arg(c, 3, &a_ptr);
		sep(c);
		if ((uint32_t)c->args[5] == 0xffffffff)
			fputs("FUTEX_BITSET_MATCH_ANY", c->f);
		else
			fprintf(c->f, "%#x", (uint32_t)c->args[5]);
		return;
	default:
		put_arg(c, 2, &a_hex);
		put_arg(c, 3, &a_ptr);
		put_arg(c, 4, &a_ptr);
		put_arg(c, 5, &a_hex);
	}
}

/* ioctl(2): a known request's argument is its pointer; an unknown
 * request is spelled _IOC(dir, type, nr, size), its argument in hex. */
static void sp_ioctl(struct ctx *c)
{
	static const char *const dirs[] = { "_IOC_NONE", "_IOC_WRITE", "_IOC_READ",
					    "_IOC_READ|_IOC_WRITE" };
	static const struct arg a_int = A(INT), a_ptr = A(PTR), a_hex = A(HEX);
	uint32_t req = (uint32_t)c->args[1];
	const char *name = xlat_name(&x_ioctl, req);

	put_arg(c, 0, &a_int);
	sep(c);
	if (c->hidden & 2)
		fputs("...", c->f);
	else if (name)
		fputs(name, c->f);
	else
		fprintf(c->f, "_IOC(%s, %#x, %#x, %#x)", dirs[req >> 30],
			(req >> 8) & 0xff, req & 0xff, (req >> 16) & 0x3fff);
	put_arg(c, 2, name ? &a_ptr : &a_hex);
}

/* arch_prctl(2): the ARCH_GET_* read a pointer, the others a value. */
static void sp_arch_prctl(struct ctx *c)
{
	static const struct arg pre = C(x_arch_prctl), a_ptr = A(PTR), a_hex = A(HEX);
	uint32_t code = (uint32_t)c->args[0];

	put_arg(c, 0, &pre);
	put_arg(c, 1, code == 0x1003 || code == 0x1004 ?
		&a_ptr : &a_hex);
}

/* statx(2): the sync type is always written, AT_STATX_SYNC_AS_STAT
 * when none is set. */
static void sp_statx(struct ctx *c)
{
	static const struct arg pre[] = { A(DIRFD), A(PATH) };
	static const struct arg post[] = { F(x_statx_mask), A(PTR) };
	uint64_t flags = c->args[2] & 0xffffffffull;

	put_args(c, pre, 0, 2);
	sep(c);
	if (c->hidden & 4) {
		fputs("...", c->f);
	} else {
		if (!put_flags(c->f, &x_statx_sync, flags & 0x6000, true))
			fputs("AT_STATX_SYNC_AS_STAT", c->f);
		put_flags(c->f, &x_at_flags, flags & ~0x6000ull, false);
	}
	put_args(c, post, 3, 5);
}

/*
 * The calls decoded: those Docker's profile names with argument rules
 * (clone, personality, socket), the 61 that real programs made (ls,
 * python3, sh, tar, git, find, gcc under strace -f -c: see
 * t_decode_strace), and their close relatives.  Sorted by name.
 */
static const struct call calls[] = {
	ROW("access", 2, A(PATH), F(x_access)),
	SPECIAL("arch_prctl", sp_arch_prctl),
	ROW("brk", 1, A(PTR)),
	ROW("chdir", 1, A(PATH)),
	ROW("chmod", 2, A(PATH), A(MODE)),
	SPECIAL("clone", sp_clone),
	ROW("clone3", 2, A(PTR), A(ULONG)),
	ROW("close", 1, A(INT)),
	ROW("close_range", 3, A(UINT), A(UINT), F(x_close_range)),
	ROW("bind", 3, A(INT), A(SOCKADDR), A(INT)),
	ROW("connect", 3, A(INT), A(SOCKADDR), A(INT)),
	ROW("creat", 2, A(PATH), A(MODE)),
	ROW("dup", 1, A(INT)),
	ROW("dup2", 2, A(INT), A(INT)),
	ROW("dup3", 3, A(INT), A(INT), F(x_open_flags)),
	ROW("epoll_create1", 1, F(x_epoll_flags)),
	ROW("execve", 3, A(PATH), A(PTR), A(PTR)),
	ROW("execveat", 5, A(DIRFD), A(PATH), A(PTR), A(PTR), F(x_at_flags)),
	ROW("exit", 1, A(INT)),
	ROW("exit_group", 1, A(INT)),
	ROW("faccessat", 3, A(DIRFD), A(PATH), F(x_access)),
	ROW("faccessat2", 4, A(DIRFD), A(PATH), F(x_access), F(x_at_flags)),
	ROW("fadvise64", 4, A(INT), A(LONG), A(LONG), C(x_fadv)),
	ROW("fchdir", 1, A(INT)),
	ROW("fchmod", 2, A(INT), A(MODE)),
	SPECIAL("fcntl", sp_fcntl),
	ROW("fstat", 2, A(INT), A(PTR)),
	ROW("fstatfs", 2, A(INT), A(PTR)),
	SPECIAL("futex", sp_futex),
	ROW("getcwd", 2, A(PTR), A(ULONG)),
	ROW("getdents64", 3, A(INT), A(PTR), A(UINT)),
	ROW0("getegid"),
	ROW0("geteuid"),
	ROW0("getgid"),
	ROW0("getpgrp"),
	ROW0("getpid"),
	ROW0("getppid"),
	ROW("getrandom", 3, A(PTR), A(ULONG), F(x_grnd)),
	ROW("getrusage", 2, C(x_rusage), A(PTR)),
	ROW0("gettid"),
	ROW0("getuid"),
	ROW("getxattr", 4, A(PATH), A(PTR), A(PTR), A(ULONG)),
	SPECIAL("ioctl", sp_ioctl),
	ROW("kill", 2, A(INT), A(SIG)),
	ROW("lgetxattr", 4, A(PATH), A(PTR), A(PTR), A(ULONG)),
	ROW("lseek", 3, A(INT), A(LONG), C(x_seek)),
	ROW("lstat", 2, A(PATH), A(PTR)),
	ROW("mkdir", 2, A(PATH), A(MODE)),
	ROW("mkdirat", 3, A(DIRFD), A(PATH), A(MODE)),
	ROW("mmap", 6, A(PTR), A(ULONG), F(x_prot), { K_MMAP_FLAGS, NULL }, A(INT), A(HEX)),
	ROW("mprotect", 3, A(PTR), A(ULONG), F(x_prot)),
	ROW("munmap", 2, A(PTR), A(ULONG)),
	ROW("newfstatat", 4, A(DIRFD), A(PATH), A(PTR), F(x_at_flags)),
	SPECIAL("open", sp_open),
	SPECIAL("openat", sp_openat),
	SPECIAL("personality", sp_personality),
	ROW("pipe2", 2, A(PTR), F(x_open_flags)),
	ROW("pread64", 4, A(INT), A(PTR), A(ULONG), A(LONG)),
	ROW("prlimit64", 4, A(INT), C(x_rlimit), A(PTR), A(PTR)),
	ROW("pwrite64", 4, A(INT), A(PTR), A(ULONG), A(LONG)),
	ROW("read", 3, A(INT), A(PTR), A(ULONG)),
	ROW("readlink", 3, A(PATH), A(PTR), A(INT)),
	ROW("readlinkat", 4, A(DIRFD), A(PATH), A(PTR), A(INT)),
	ROW("rmdir", 1, A(PATH)),
	ROW("rseq", 4, A(HEX), A(HEX), A(INT), A(HEX)),
	ROW("rt_sigaction", 4, A(SIG), A(PTR), A(PTR), A(ULONG)),
	ROW("rt_sigprocmask", 4, C(x_sigprocmask), A(PTR), A(PTR), A(ULONG)),
	ROW0("rt_sigreturn"),
	ROW("sendto", 6, A(INT), A(PTR), A(ULONG), F(x_msg_flags), A(SOCKADDR), A(INT)),
	ROW("set_robust_list", 2, A(PTR), A(ULONG)),
	ROW("set_tid_address", 1, A(PTR)),
	SPECIAL("socket", sp_socket),
	ROW("stat", 2, A(PATH), A(PTR)),
	ROW("statfs", 2, A(PATH), A(PTR)),
	SPECIAL("statx", sp_statx),
	ROW("sysinfo", 1, A(PTR)),
	ROW("tgkill", 3, A(INT), A(INT), A(SIG)),
	ROW("uname", 1, A(PTR)),
	ROW("unlink", 1, A(PATH)),
	ROW("unlinkat", 3, A(DIRFD), A(PATH), F(x_unlinkat_flags)),
	SPECIAL("unshare", sp_unshare),
	ROW0("vfork"),
	ROW("wait4", 4, A(INT), A(PTR), F(x_wait), A(PTR)),
	ROW("write", 3, A(INT), A(PTR), A(ULONG)),
};

#undef A
#undef C
#undef F
#undef ROW
#undef SPECIAL
#undef ROW0

/* The bits of a register the kernel reads as a long on arch: the ABI
 * table's width (engine/arch), 64 bits for an arch it does not know. */
static uint64_t abi_mask(uint32_t arch)
{
	enum sw_abi abi = abi_of_token(arch);

	if (abi == SW_ABI_NONE)
		return ~0ull;
	return sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
}

static int call_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct call *)elem)->name);
}

static const struct call *find(uint32_t arch, const char *name)
{
	if (!name)
		return NULL;
	/* old_mmap (i386's): one pointer to its arguments, left to the
	 * generic writer. */
	if (!strcmp(name, "mmap") && abi_of_token(arch) != SW_ABI_NONE &&
	    sw_abi_old_mmap(abi_of_token(arch)))
		return NULL;
	return bsearch(name, calls, sizeof(calls) / sizeof(calls[0]),
		       sizeof(calls[0]), call_cmp);
}

/* mmap's flags: the mapping's type in the low bits, then the flags. */
static void put_mmap_flags(struct ctx *c)
{
	uint64_t v = c->args[3] & 0xffffffffull;

	sep(c);
	if (c->hidden & 8) {
		fputs("...", c->f);
		return;
	}
	put_const(c->f, &x_map_type, v & 0xf);
	put_flags(c->f, &x_map_flags, v & ~0xfull, false);
}

void sw_decode_args(FILE *f, uint32_t arch, const char *name,
		    const uint64_t args[6], const char *const strs[6],
		    uint8_t hidden)
{
	struct ctx c = {
		.f = f, .arch = arch, .args = args, .strs = strs, .hidden = hidden,
		.mask = abi_mask(arch),
	};
	const struct call *call = find(arch, name);
	const char *types;
	size_t n;

	if (call && call->special) {
		call->special(&c);
		return;
	}
	if (call) {
		for (unsigned int i = 0; i < call->n; i++) {
			if (call->a[i].kind == K_MMAP_FLAGS)
				put_mmap_flags(&c);
			else
				put_arg(&c, i, &call->a[i]);
		}
		return;
	}
	/* Not in the table: as many arguments as the kernel's prototype
	 * has (argtypes.h), strings where the supervisor read one, the
	 * rest in hex. */
	types = sw_syscall_arg_types(arch, name);
	n = types ? strlen(types) : 6;
	for (unsigned int i = 0; i < n && i < 6; i++) {
		static const struct arg a_path = { K_PATH, NULL }, a_hex = { K_HEX, NULL };

		put_arg(&c, i, types && types[i] == 'p' ? &a_path : &a_hex);
	}
}

void sw_decode_call_write(FILE *f, uint32_t arch, const char *name,
			  const uint64_t args[6], const char *const strs[6],
			  uint8_t hidden)
{
	fprintf(f, "%s(", name ? name : "?");
	sw_decode_args(f, arch, name, args, strs, hidden);
	fputc(')', f);
}

char *sw_decode_call(uint32_t arch, const char *name, const uint64_t args[6],
		     const char *const strs[6], uint8_t hidden)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	sw_decode_call_write(m, arch, name, args, strs, hidden);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

void sw_decode_return(FILE *f, uint32_t arch, const char *name, int64_t ret)
{
	(void)arch;
	if (ret < 0 && ret >= -4095) {
		/* glibc's names and its locale-free messages, strace's. */
		const char *e = strerrorname_np((int)-ret);

		if (e)
			fprintf(f, "-1 %s (%s)", e, strerrordesc_np((int)-ret));
		else
			fprintf(f, "-1 (errno %d)", (int)-ret);
		return;
	}
	/* Addresses (mm/mmap.c, mm/mremap.c, ipc/shm.c) in hex. */
	if (name && (!strcmp(name, "mmap") || !strcmp(name, "mmap2") ||
		     !strcmp(name, "brk") || !strcmp(name, "mremap") ||
		     !strcmp(name, "shmat")))
		fprintf(f, "%#" PRIx64, (uint64_t)ret);
	else
		fprintf(f, "%" PRId64, ret);
}
