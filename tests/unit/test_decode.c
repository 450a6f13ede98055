// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The decoder (engine/record/decode.c) from a table: a call, its raw arguments
 * (and strings, and what is hidden), the text strace 6.1 writes for it
 * (measured: tests/integration/run.sh, t_decode_strace, runs both).
 */
#include <check.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/decode.h"
#include "check_run.h"

#define X86_64 SCMP_ARCH_X86_64
#define I386 SCMP_ARCH_X86

static const struct {
	uint32_t arch;
	const char *name;
	uint64_t args[6];
	const char *strs[6];
	uint8_t hidden;
	const char *want;
} rows[] = {
	/* The example. */
	{ X86_64, "socket", { 2, 0x80001, 0 }, { 0 }, 0,
	  "AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP" },
	{ X86_64, "socket", { 1, 5, 0 }, { 0 }, 0, "AF_UNIX, SOCK_SEQPACKET, 0" },
	{ X86_64, "socket", { 17, 3, 0x300 }, { 0 }, 0, "AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)" },
	{ X86_64, "socket", { 99, 77, 5 }, { 0 }, 0,
	  "0x63 /* AF_??? */, 0x4d /* SOCK_??? */, 5" },
	{ X86_64, "socket", { 2, 1, 6 }, { 0 }, 4, "AF_INET, SOCK_STREAM, ..." },
	/* Docker's other argument rules. */
	{ X86_64, "personality", { 0xffffffff }, { 0 }, 0, "0xffffffff" },
	{ X86_64, "personality", { 0x20008 }, { 0 }, 0, "PER_LINUX32|UNAME26" },
	{ X86_64, "personality", { 0x1234567 }, { 0 }, 0,
	  "0x67 /* PER_??? */|UNAME26|ADDR_COMPAT_LAYOUT|SHORT_INODE|0x14500" },
	{ X86_64, "clone", { 0x1200011, 0, 0, 0x7f00, 0 }, { 0 }, 0,
	  "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f00" },
	/* i386 passes tls before child_tid (CONFIG_CLONE_BACKWARDS). */
	{ I386, "clone", { 0x180000, 0x10, 0x20, 0x30, 0x40 }, { 0 }, 0,
	  "child_stack=0x10, flags=CLONE_SETTLS|CLONE_PARENT_SETTID, parent_tid=0x20, tls=0x30" },
	{ X86_64, "unshare", { 0x10000000 }, { 0 }, 0, "CLONE_NEWUSER" },
	{ X86_64, "unshare", { 0 }, { 0 }, 0, "0" },
	/* Strings the supervisor read, quoted in the log's escapes; an
	 * unread one is its pointer. */
	{ X86_64, "openat", { (uint64_t)-100, 0x1000, 0x80000 }, { NULL, "/etc/ld.so.cache" }, 0,
	  "AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC" },
	{ X86_64, "openat", { 3, 0x1000, 0x241, 0644 }, { NULL, "a\"b\n" }, 0,
	  "3, \"a\\\"b\\n\", O_WRONLY|O_CREAT|O_TRUNC, 0644" },
	{ X86_64, "openat", { 3, 0x1000, 0x410000, 0600 }, { 0 }, 0,
	  "3, 0x1000, O_RDONLY|O_TMPFILE, 0600" },
	/* The kernel reads 32 bits of an int: the upper half is noise. */
	{ X86_64, "close", { 0xdead00000003ull }, { 0 }, 0, "3" },
	{ X86_64, "mmap", { 0, 8192, 3, 0x22, 0xffffffff, 0 }, { 0 }, 0,
	  "NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0" },
	{ X86_64, "mprotect", { 0x1000, 4096, 0 }, { 0 }, 0, "0x1000, 4096, PROT_NONE" },
	{ X86_64, "access", { 0x1000, 0 }, { "/x" }, 0, "\"/x\", F_OK" },
	{ X86_64, "fcntl", { 3, 1 }, { 0 }, 0, "3, F_GETFD" },
	{ X86_64, "fcntl", { 3, 4, 0x802 }, { 0 }, 0, "3, F_SETFL, O_RDWR|O_NONBLOCK" },
	{ X86_64, "futex", { 0x1000, 0x189, 2, 0, 0, 0xffffffff }, { 0 }, 0,
	  "0x1000, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 2, NULL, FUTEX_BITSET_MATCH_ANY" },
	{ X86_64, "ioctl", { 1, 0x5401, 0x7ffd0000 }, { 0 }, 0, "1, TCGETS, 0x7ffd0000" },
	{ X86_64, "ioctl", { 1, 0x12345678, 7 }, { 0 }, 0,
	  "1, _IOC(_IOC_NONE, 0x56, 0x78, 0x1234), 0x7" },
	{ X86_64, "statx", { (uint64_t)-100, 0x1000, 0x900, 0x7ff, 0 }, { NULL, "/x" }, 0,
	  "AT_FDCWD, \"/x\", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT, STATX_BASIC_STATS, NULL" },
	{ X86_64, "rt_sigaction", { 40, 0, 0, 8 }, { 0 }, 0, "SIGRT_8, NULL, NULL, 8" },
	{ X86_64, "kill", { 1234, 15 }, { 0 }, 1, "..., SIGTERM" },
	{ X86_64, "lseek", { 3, (uint64_t)-5, 2 }, { 0 }, 0, "3, -5, SEEK_END" },
	{ I386, "lseek", { 3, 0xfffffffb, 2 }, { 0 }, 0, "3, -5, SEEK_END" },
	{ X86_64, "getpid", { 1, 2, 3 }, { 0 }, 0, "" },
	/* Not in the table: the prototype's count, in hex, strings read. */
	{ X86_64, "mount", { 0x1000, 0x2000, 0x3000, 0x20, 0 }, { "src", NULL, "tmpfs" }, 0,
	  "\"src\", 0x2000, \"tmpfs\", 0x20, NULL" },
	{ X86_64, "no_such_call", { 1, 2, 3, 4, 5, 6 }, { 0 }, 0,
	  "0x1, 0x2, 0x3, 0x4, 0x5, 0x6" },
};

static char *decoded(uint32_t arch, const char *name, const uint64_t args[6],
		     const char *const strs[6], uint8_t hidden)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(m);
	sw_decode_args(m, arch, name, args, strs, hidden);
	ck_assert_int_eq(fclose(m), 0);
	return buf;
}

START_TEST(args_rows)
{
	char *got = decoded(rows[_i].arch, rows[_i].name, rows[_i].args,
			    rows[_i].strs, rows[_i].hidden);

	ck_assert_msg(strcmp(got, rows[_i].want) == 0, "row %d: %s(%s), want %s(%s)",
		      _i, rows[_i].name, got, rows[_i].name, rows[_i].want);
	free(got);
}
END_TEST

START_TEST(returns)
{
	static const struct {
		const char *name;
		int64_t ret;
		const char *want;
	} cases[] = {
		{ "openat", 3, "3" },
		{ "openat", -2, "-1 ENOENT (No such file or directory)" },
		{ "unshare", -1, "-1 EPERM (Operation not permitted)" },
		{ "mmap", 0x7f1c2a000000, "0x7f1c2a000000" },
		{ "read", -4095, "-1 (errno 4095)" },
		{ "lseek", -4096, "-4096" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		ck_assert_ptr_nonnull(m);
		sw_decode_return(m, X86_64, cases[i].name, cases[i].ret);
		ck_assert_int_eq(fclose(m), 0);
		ck_assert_msg(strcmp(buf, cases[i].want) == 0, "%s = %s, want %s",
			      cases[i].name, buf, cases[i].want);
		free(buf);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decode");
	TCase *tc = tcase_create("strace");

	tcase_add_loop_test(tc, args_rows, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, returns);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
