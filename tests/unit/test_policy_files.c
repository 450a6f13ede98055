// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The policy parser on files (unit.policy, with test_policy.c): every
 * shipped example, Docker's profile, file errors, every truncation and
 * byte mutation of the examples, action names and argument widths.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sysward/policy.h"
#include "test_policy.h"

#ifndef SW_SOURCE_DIR
#error "SW_SOURCE_DIR must name the source tree"
#endif

static struct sw_policy *load_example(const char *name)
{
	char path[1024];
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r;

	snprintf(path, sizeof(path), "%s/policy/examples/%s", SW_SOURCE_DIR,
		 name);
	r = sw_policy_load_file(path, &p, &err);
	ck_assert_msg(r == 0, "%s: %s", name, err.msg);
	return p;
}

START_TEST(test_docker_profile)
{
	struct sw_policy *p = load_example("docker-default.json");
	struct sw_policy_ctx ctx = { .arch = SCMP_ARCH_X86_64, .kernel = KV(6, 1) };
	size_t applying = 0;

	ck_assert_uint_eq(p->n_warnings, 0);
	ck_assert_int_eq(p->default_action, SW_ACT_ERRNO);
	ck_assert_int_eq(p->default_errno, EPERM);
	ck_assert_uint_eq(p->n_rules, 31);
	ck_assert_uint_eq(p->rules[0].n_names, 349);
	ck_assert_uint_eq(p->rules[0].line, 58);
	/* clone3 -> ENOSYS unless CAP_SYS_ADMIN, so glibc falls back */
	ck_assert_str_eq(p->rules[18].names[0], "clone3");
	ck_assert_int_eq(p->rules[18].action, SW_ACT_ERRNO);
	ck_assert_int_eq(p->rules[18].errno_ret, ENOSYS);
	ck_assert_uint_eq(p->rules[18].excludes.caps, CAP(SYS_ADMIN));
	/* The archMap entry of this machine's arch decides the list. */
	if (seccomp_arch_native() == SCMP_ARCH_X86_64) {
		ck_assert_uint_eq(p->n_architectures, 3);
		ck_assert_str_eq(p->architectures[0], "SCMP_ARCH_X86_64");
		ck_assert_str_eq(p->architectures[1], "SCMP_ARCH_X86");
		ck_assert_str_eq(p->architectures[2], "SCMP_ARCH_X32");
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		ck_assert(!p->rules[i].needs_supervisor);
		applying += sw_rule_applies(&p->rules[i], &ctx);
	}
	/* Without capabilities on amd64: the big allow list, minKernel 4.8,
	 * socket, 5 x personality, arch_prctl, modify_ldt, the non-s390
	 * clone rule and clone3 -> 12 rules. */
	ck_assert_uint_eq(applying, 12);
	sw_policy_free(p);
}
END_TEST

static const char *const examples[] = {
	"demo.json", "deny-network.json", "docker-default.json",
	"fake-root.json", "inject-write-faults.json", "journal-nscd.json",
	"readonly-fs.json",
};

START_TEST(test_examples)
{
	struct sw_policy *p = load_example(examples[_i]);

	ck_assert_msg(p->n_warnings == 0, "%s: %s", examples[_i],
		      p->n_warnings ? p->warnings[0] : "");
	ck_assert_uint_gt(p->n_rules, 0);
	sw_policy_free(p);
}
END_TEST

/* Every example in the directory is in the list above. */
START_TEST(test_examples_listed)
{
	char dir[1024];
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s/policy/examples", SW_SOURCE_DIR);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		bool found = false;

		if (!strstr(e->d_name, ".json"))
			continue;
		for (size_t i = 0; i < N_ELEMENTS(examples); i++)
			found |= strcmp(examples[i], e->d_name) == 0;
		ck_assert_msg(found, "example %s is not tested", e->d_name);
	}
	closedir(d);
}
END_TEST

START_TEST(test_file_errors)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	char path[1024];

	ck_assert_int_eq(sw_policy_load_file("/nonexistent/p.json", &p, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "open policy /nonexistent/p.json: No such file or directory");
	ck_assert_int_eq(sw_policy_load_file("/", &p, &err), -EISDIR);
	ck_assert_str_eq(err.msg, "read policy /: is a directory");
	/* a device is no policy (a FIFO is read as a pipe) */
	ck_assert_int_eq(sw_policy_load_file("/dev/zero", &p, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "read policy /dev/zero: is a character device, not a regular file: give the path of a policy file, a pipe, or '-' for standard input");
	ck_assert_ptr_null(p);
	/* never reads more than the limit (a sparse file of 2 MiB) */
	{
		char big[] = "/tmp/sw-test-big.XXXXXX";
		int fd = mkstemp(big);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(ftruncate(fd, 2 << 20), 0);
		close(fd);
		ck_assert_int_eq(sw_policy_load_file(big, &p, &err), -EFBIG);
		snprintf(path, sizeof(path), "%s: policy is larger than the 1048576 byte limit (--policy-max-bytes BYTES or SYSWARD_POLICY_MAX_BYTES=BYTES raises it, up to 67108864)", big);
		ck_assert_str_eq(err.msg, path);
		/* a raised limit reads it whole */
		{
			char *text = NULL;
			size_t len = 0;

			ck_assert_int_eq(sw_policy_read_file_max(big, 3u << 20, &text, &len, &err), 0);
			ck_assert_uint_eq(len, 2u << 20);
			free(text);
		}
		ck_assert_ptr_null(p);
		unlink(big);
	}

	/* syntax errors name the file as given */
	snprintf(path, sizeof(path), "%s/tests/unit/data/broken.json", SW_SOURCE_DIR);
	ck_assert_int_eq(sw_policy_load_file(path, &p, &err), -EINVAL);
	{
		char want[1200];

		snprintf(want, sizeof(want), "%s:5:3: missing ',' between this and the value before it", path);
		ck_assert_str_eq(err.msg, want);
	}
	ck_assert_ptr_null(p);
}
END_TEST

/* A pipe, by its /dev/fd name or as standard input ("-"): read once to
 * its end, with a file's limit, named <stdin> for "-".  The writer is a
 * child: a pipe holds 64 KiB, the limit is 1 MiB. */
static void feed(int wfd, const char *text, size_t extra_blanks)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char blanks[4096];

		memset(blanks, ' ', sizeof(blanks));
		(void)!write(wfd, text, strlen(text));
		while (extra_blanks) {
			size_t n = extra_blanks < sizeof(blanks) ? extra_blanks : sizeof(blanks);

			if (write(wfd, blanks, n) < 0)
				_exit(0);
			extra_blanks -= n;
		}
		_exit(0);
	}
	close(wfd);
}

START_TEST(test_pipe_and_stdin)
{
	static const char ok[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}";
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	char name[64];
	int fds[2];

	ck_assert_int_eq(pipe(fds), 0);
	feed(fds[1], ok, 0);
	snprintf(name, sizeof(name), "/dev/fd/%d", fds[0]);
	ck_assert_int_eq(sw_policy_load_file(name, &p, &err), 0);
	sw_policy_free(p);
	p = NULL;
	close(fds[0]);

	ck_assert_int_eq(pipe(fds), 0);
	feed(fds[1], "{\n  \"defaultAction\": }", 0);
	ck_assert_int_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	ck_assert_int_eq(sw_policy_load_file("-", &p, &err), -EINVAL);
	ck_assert_msg(strncmp(err.msg, "<stdin>:2:", 10) == 0, "%s", err.msg);
	ck_assert_ptr_null(p);

	ck_assert_int_eq(pipe(fds), 0);
	feed(fds[1], ok, 2 << 20);
	ck_assert_int_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	ck_assert_int_eq(sw_policy_load_file("-", &p, &err), -EFBIG);
	ck_assert_str_eq(err.msg, "<stdin>: policy is larger than the 1048576 byte limit (--policy-max-bytes BYTES or SYSWARD_POLICY_MAX_BYTES=BYTES raises it, up to 67108864)");
	ck_assert_ptr_null(p);

	/* a raised limit holds for a stream too (--policy - --policy-max-bytes) */
	{
		char *text = NULL;
		size_t len = 0;

		ck_assert_int_eq(pipe(fds), 0);
		feed(fds[1], ok, 2 << 20);
		ck_assert_int_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
		close(fds[0]);
		ck_assert_int_eq(sw_policy_read_file_max("-", 4 << 20, &text, &len, &err), 0);
		ck_assert_uint_eq(len, strlen(ok) + (2 << 20));
		free(text);
	}
}
END_TEST

/* sysward run --policy-fd: a sealed memory file only, read from its
 * start whatever its offset (a descriptor shared with a hook). */
START_TEST(test_sealed_fd)
{
	static const char text[] = "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}";
	const int seals = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW;
	struct sw_error err = { 0 };
	char *got = NULL, want[160];
	size_t len;
	int fd, plain;

	fd = memfd_create("p", MFD_ALLOW_SEALING);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	/* Not yet sealed; then sealed against one change only. */
	snprintf(want, sizeof(want), "policy descriptor %d: not a sealed memory file", fd);
	ck_assert_int_eq(sw_policy_read_sealed_fd(fd, &got, &len, &err), -EPERM);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
	ck_assert_int_eq(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0);
	ck_assert_int_eq(sw_policy_read_sealed_fd(fd, &got, &len, &err), -EPERM);
	ck_assert_int_eq(fcntl(fd, F_ADD_SEALS, seals), 0);
	ck_assert_int_eq(sw_policy_read_sealed_fd(fd, &got, &len, &err), 0);
	ck_assert_str_eq(got, text);
	ck_assert_uint_eq(len, strlen(text));
	free(got);
	close(fd);
	/* A regular file is no sealed memory file. */
	plain = open(SW_SOURCE_DIR "/policy/examples/demo.json", O_RDONLY);
	ck_assert_int_ge(plain, 0);
	ck_assert_int_eq(sw_policy_read_sealed_fd(plain, &got, &len, &err), -EPERM);
	close(plain);
}
END_TEST

/* Every truncation of a real policy fails cleanly, never crashes, and
 * names a position; a cheap, deterministic cousin of fuzzing. */
START_TEST(test_truncations)
{
	char path[1024];
	char *buf;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/policy/examples/readonly-fs.json",
		 SW_SOURCE_DIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len);
	ck_assert_int_eq(fread(buf, 1, (size_t)len, f), len);
	fclose(f);
	for (long n = 0; n < len; n++) {
		struct sw_policy *p = NULL;
		struct sw_error err = { 0 };
		/* a copy of exactly n bytes, so ASan sees any overread */
		char *cut = malloc((size_t)n + 1);
		int r;

		memcpy(cut, buf, (size_t)n);
		r = sw_policy_load_string(cut, (size_t)n, "t.json", &p, &err);
		/* the only prefix that is a whole policy is all of it (plus
		 * trailing whitespace) */
		if (r == 0) {
			ck_assert_int_ge(n, len - 1);
			sw_policy_free(p);
		} else {
			ck_assert_int_eq(r, -EINVAL);
			ck_assert_msg(strncmp(err.msg, "t.json:", 7) == 0, "%s", err.msg);
		}
		free(cut);
	}
	free(buf);
}
END_TEST

/* Random edits of every example (fixed seed, so a failure reproduces):
 * each either loads or fails with a message naming the file.  The
 * libFuzzer target in tests/fuzz explores further; this runs everywhere. */
START_TEST(test_mutations)
{
	static const char alphabet[] = "{}[]\",:.-+0123456789eEnulltrfs \\/\n\tO_|~x\xff\xc3";
	char path[1024];
	unsigned int seed = 12345u + (unsigned int)_i;
	char *orig;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/policy/examples/%s", SW_SOURCE_DIR,
		 examples[_i]);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	orig = malloc(len);
	ck_assert_int_eq(fread(orig, 1, len, f), len);
	fclose(f);
	for (int iter = 0; iter < 300; iter++) {
		char *buf = malloc(len + 16);
		size_t n = len;
		struct sw_policy *p = NULL;
		struct sw_error err = { 0 };
		int edits = 1 + rand_r(&seed) % 4, r;

		memcpy(buf, orig, len);
		for (int e = 0; e < edits && n > 1; e++) {
			size_t at = (size_t)rand_r(&seed) % n;
			char c = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];

			switch (rand_r(&seed) % 3) {
			case 0:		/* replace */
				buf[at] = c;
				break;
			case 1:		/* delete */
				memmove(buf + at, buf + at + 1, n - at - 1);
				n--;
				break;
			default:	/* insert */
				if (n < len + 16) {
					memmove(buf + at + 1, buf + at, n - at);
					buf[at] = c;
					n++;
				}
				break;
			}
		}
		r = sw_policy_load_string(buf, n, "t.json", &p, &err);
		if (r == 0) {
			ck_assert_ptr_nonnull(p);
			sw_policy_free(p);
		} else {
			ck_assert_msg(r == -EINVAL, "r=%d %s", r, err.msg);
			ck_assert_ptr_null(p);
			ck_assert_msg(strncmp(err.msg, "t.json", 6) == 0, "%s", err.msg);
		}
		free(buf);
	}
	free(orig);
}
END_TEST

START_TEST(test_action_names)
{
	static const struct {
		enum sw_action a;
		const char *name;
	} names[] = {
		{ SW_ACT_ALLOW, "SCMP_ACT_ALLOW" },
		{ SW_ACT_ERRNO, "SCMP_ACT_ERRNO" },
		{ SW_ACT_KILL_PROCESS, "SCMP_ACT_KILL_PROCESS" },
		{ SW_ACT_KILL_THREAD, "SCMP_ACT_KILL_THREAD" },
		{ SW_ACT_TRAP, "SCMP_ACT_TRAP" },
		{ SW_ACT_KLOG, "SCMP_ACT_LOG" },
		{ SW_ACT_SKIP, "SYSWARD_ACT_SKIP" },
		{ SW_ACT_EMULATE, "SYSWARD_ACT_EMULATE" },
		{ SW_ACT_REWRITE, "SYSWARD_ACT_REWRITE" },
		{ SW_ACT_AUDIT, "SYSWARD_ACT_LOG" },
	};

	for (size_t i = 0; i < N_ELEMENTS(names); i++) {
		char json[256];
		struct sw_policy *p;

		ck_assert_str_eq(sw_action_name(names[i].a), names[i].name);
		/* and the name parses back to the action */
		snprintf(json, sizeof(json),
			 ALLOW "{\"names\":[\"getpid\"],\"action\":\"%s\"%s}" END,
			 names[i].name,
			 names[i].a == SW_ACT_REWRITE ?
				 ",\"rewrite\":{\"syscall\":\"getppid\"}" : "");
		p = load_ok(json);
		ck_assert_int_eq(p->rules[0].action, names[i].a);
		sw_policy_free(p);
	}
}
END_TEST

START_TEST(test_arg_widths)
{
	/* The generated table (policy/src/argtypes.h) against the kernel's
	 * prototypes, a few by hand. */
	static const struct {
		uint32_t arch;
		const char *name;
		unsigned int index;
		uint64_t mask;
	} rows[] = {
		{ SCMP_ARCH_X86_64, "kill", 0, 0xffffffff },		/* pid_t */
		{ SCMP_ARCH_X86_64, "kill", 1, 0xffffffff },		/* int */
		{ SCMP_ARCH_X86_64, "tgkill", 2, 0xffffffff },
		{ SCMP_ARCH_X86_64, "pidfd_open", 0, 0xffffffff },
		{ SCMP_ARCH_X86_64, "seccomp", 1, 0xffffffff },	/* unsigned int */
		{ SCMP_ARCH_X86_64, "openat", 0, 0xffffffff },		/* int dfd */
		{ SCMP_ARCH_X86_64, "openat", 1, ~0ull },		/* pointer */
		{ SCMP_ARCH_X86_64, "openat", 3, 0xffff },		/* umode_t */
		{ SCMP_ARCH_X86_64, "chmod", 1, 0xffff },
		{ SCMP_ARCH_X86_64, "clone", 0, ~0ull },		/* unsigned long */
		{ SCMP_ARCH_X86_64, "lseek", 1, ~0ull },		/* off_t */
		{ SCMP_ARCH_X86_64, "mmap", 5, ~0ull },
		{ SCMP_ARCH_X86_64, "setuid", 0, 0xffffffff },		/* uid_t */
		{ SCMP_ARCH_X32, "setuid", 0, 0xffffffff },
		{ SCMP_ARCH_X86, "setuid", 0, 0xffff },		/* old_uid_t */
		{ SCMP_ARCH_X86, "setuid32", 0, 0xffffffff },
		{ SCMP_ARCH_X86, "kill", 0, 0xffffffff },
		{ SCMP_ARCH_X86_64, "kill", 2, ~0ull },		/* no such argument */
		{ SCMP_ARCH_X86_64, "no_such_syscall", 0, ~0ull },
		{ SCMP_ARCH_AARCH64, "kill", 0, 0xffffffff },	/* x86_64's column */
		{ SCMP_ARCH_AARCH64, "openat", 3, 0xffff },
		{ SCMP_ARCH_PPC64, "kill", 0, ~0ull },		/* no table */
	};

	for (size_t i = 0; i < N_ELEMENTS(rows); i++)
		ck_assert_msg(sw_syscall_arg_mask(rows[i].arch, rows[i].name,
						  rows[i].index) == rows[i].mask,
			      "%s arg %u: %#llx", rows[i].name, rows[i].index,
			      (unsigned long long)sw_syscall_arg_mask(rows[i].arch, rows[i].name,
								      rows[i].index));
}
END_TEST

void policy_file_tests(TCase *tc)
{
	tcase_add_test(tc, test_docker_profile);
	tcase_add_loop_test(tc, test_examples, 0, (int)N_ELEMENTS(examples));
	tcase_add_test(tc, test_examples_listed);
	tcase_add_test(tc, test_file_errors);
	tcase_add_test(tc, test_pipe_and_stdin);
	tcase_add_test(tc, test_sealed_fd);
	tcase_add_test(tc, test_truncations);
	tcase_add_loop_test(tc, test_mutations, 0, (int)N_ELEMENTS(examples));
	tcase_add_test(tc, test_action_names);
	tcase_add_test(tc, test_arg_widths);
}
