// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The "filesystem" and "network" sections of a policy (policy/src/
 * fsaccess.c): what they parse into, row by row; the exact message of
 * every mistake; the lints that say what a rule cannot do as written;
 * the table of rights and the Landlock ABI of each.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test_policy.h"

#define FS(paths) "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"filesystem\":{\"paths\":[" paths "]}}"
#define NET(net) "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"network\":" net "}"
#define RO (SW_FS_READ_FILE | SW_FS_READ_DIR | SW_FS_EXECUTE)

/* ---- valid: the parsed form -------------------------------------------- */

static const struct fs_case {
	const char *json;
	const char *path;	/* fs_rules[0].path */
	enum sw_fs_base base;
	const char *rest;
	uint64_t access;
	bool optional;
} fs_cases[] = {
	{ FS("{\"path\":\"/\",\"access\":\"ro\"}"), "/", SW_FS_BASE_ROOT, "/", RO, false },
	{ FS("{\"path\":\"//usr//lib/\",\"access\":\"rw\"}"), "/usr/lib", SW_FS_BASE_ROOT, "/usr/lib", SW_FS_ALL, false },
	{ FS("{\"path\":\"${CWD}\",\"access\":\"rw\"}"), "${CWD}", SW_FS_BASE_CWD, "", SW_FS_ALL, false },
	{ FS("{\"path\":\"${CWD}/.git/\",\"access\":\"ro\"}"), "${CWD}/.git", SW_FS_BASE_CWD, "/.git", RO, false },
	{ FS("{\"path\":\"${HOME}/.ssh\",\"access\":\"none\"}"), "${HOME}/.ssh", SW_FS_BASE_HOME, "/.ssh", 0, false },
	{ FS("{\"path\":\"${TMPDIR}\",\"access\":\"rw\",\"optional\":true}"), "${TMPDIR}", SW_FS_BASE_TMPDIR, "", SW_FS_ALL, true },
	/* words: their union */
	{ FS("{\"path\":\"/dev/null\",\"access\":[\"read\",\"write\"]}"), "/dev/null", SW_FS_BASE_ROOT, "/dev/null",
	  SW_FS_READ_FILE | SW_FS_READ_DIR | SW_FS_WRITE_FILE | SW_FS_TRUNCATE, false },
	{ FS("{\"path\":\"/w\",\"access\":[\"create\",\"remove\",\"move\"]}"), "/w", SW_FS_BASE_ROOT, "/w",
	  SW_FS_MAKE_REG | SW_FS_MAKE_DIR | SW_FS_MAKE_SYM | SW_FS_MAKE_FIFO | SW_FS_MAKE_SOCK |
	  SW_FS_REMOVE_FILE | SW_FS_REMOVE_DIR | SW_FS_REFER, false },
	{ FS("{\"path\":\"/dev\",\"access\":[\"ro\",\"ioctl\",\"devices\"]}"), "/dev", SW_FS_BASE_ROOT, "/dev",
	  RO | SW_FS_IOCTL_DEV | SW_FS_MAKE_CHAR | SW_FS_MAKE_BLOCK, false },
	/* the kernel's own names */
	{ FS("{\"path\":\"/x\",\"access\":[\"read-file\",\"truncate\",\"refer\",\"ioctl-dev\",\"make-reg\"]}"), "/x", SW_FS_BASE_ROOT, "/x",
	  SW_FS_READ_FILE | SW_FS_TRUNCATE | SW_FS_REFER | SW_FS_IOCTL_DEV | SW_FS_MAKE_REG, false },
	/* a "$" not followed by "{" is a name like any other */
	{ FS("{\"path\":\"/a$b\",\"access\":\"ro\"}"), "/a$b", SW_FS_BASE_ROOT, "/a$b", RO, false },
};

START_TEST(test_fs_valid)
{
	const struct fs_case *c = &fs_cases[_i];
	struct sw_policy *p = load_ok(c->json);

	ck_assert(p->has_filesystem);
	ck_assert_uint_eq(p->n_fs_rules, 1);
	ck_assert_str_eq(p->fs_rules[0].path, c->path);
	ck_assert_int_eq(p->fs_rules[0].base, c->base);
	ck_assert_str_eq(p->fs_rules[0].rest, c->rest);
	ck_assert_uint_eq(p->fs_rules[0].access, c->access);
	ck_assert_int_eq(p->fs_rules[0].optional, c->optional);
	ck_assert_str_eq(p->fs_rules[0].json_path, "filesystem.paths[0]");
	ck_assert(!p->has_network);
	sw_policy_free(p);
}
END_TEST

START_TEST(test_fs_sections)
{
	struct sw_policy *p;

	/* absent: nothing of the kind */
	p = load_ok("{\"defaultAction\":\"SCMP_ACT_ALLOW\"}");
	ck_assert(!p->has_filesystem && !p->has_network && !p->fs_strict);
	sw_policy_free(p);
	/* present without paths: the program gets no file at all */
	p = load_ok("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"filesystem\":{\"strict\":true,\"comment\":\"x\"}}");
	ck_assert(p->has_filesystem && p->fs_strict);
	ck_assert_uint_eq(p->n_fs_rules, 0);
	sw_policy_free(p);
	/* network: absent lists are empty (nothing allowed), "any" is not
	 * restricted, ranges are counted */
	p = load_ok(NET("{\"tcp\":{\"connect\":[443,\"8000-8080\",0]},\"strict\":true}"));
	ck_assert(p->has_network && p->net_strict);
	ck_assert(!p->tcp_bind.any);
	ck_assert_uint_eq(p->tcp_bind.n_ranges, 0);
	ck_assert(!p->tcp_connect.any);
	ck_assert_uint_eq(p->tcp_connect.n_ranges, 3);
	ck_assert_uint_eq(p->tcp_connect.ranges[1].first, 8000);
	ck_assert_uint_eq(p->tcp_connect.ranges[1].last, 8080);
	ck_assert_uint_eq(p->tcp_connect.n_ports, 1 + 81 + 1);
	sw_policy_free(p);
	p = load_ok(NET("{\"tcp\":{\"bind\":\"any\",\"connect\":[]}}"));
	ck_assert(p->tcp_bind.any && !p->tcp_connect.any);
	ck_assert_uint_eq(p->tcp_connect.n_ranges, 0);
	sw_policy_free(p);
	p = load_ok(NET("{}"));
	ck_assert(p->has_network && !p->tcp_bind.any && !p->tcp_connect.any);
	sw_policy_free(p);
	/* runc's reader: the top-level keys only sysward reads */
	ck_assert(sw_policy_key_is_extension("filesystem"));
	ck_assert(sw_policy_key_is_extension("network"));
	ck_assert(!sw_policy_key_is_extension("syscalls"));
	ck_assert(!sw_policy_key_is_extension("allowIoUring"));
}
END_TEST

/* ---- invalid: the exact message ------------------------------------------ */

static const struct { const char *json, *msg; } fs_invalid[] = {
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"filesystem\":[]}",
	  "t.json:1:48: filesystem: expected an object, got an array" },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"filesystem\":{\"path\":[]}}",
	  "t.json:1:49: filesystem: unknown key \"path\" (did you mean \"paths\"?)" },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"filesytem\":{}}",
	  "t.json:1:35: unknown key \"filesytem\" (did you mean \"filesystem\"?)" },
	{ FS("{\"access\":\"ro\"}"),
	  "t.json:1:58: filesystem.paths[0].path: missing (the hierarchy: \"/usr\", \"${CWD}\", \"${HOME}/.ssh\", ...)" },
	{ FS("{\"path\":\"/\"}"),
	  "t.json:1:58: filesystem.paths[0].access: missing (what the program gets there: \"ro\", \"rw\", \"none\", or words such as [\"read\", \"write\"])" },
	{ FS("{\"path\":\"/\",\"acces\":\"ro\"}"),
	  "t.json:1:70: filesystem.paths[0]: unknown key \"acces\" (did you mean \"access\"?)" },
	{ FS("{\"path\":\"/\",\"access\":\"rx\"}"),
	  "t.json:1:79: filesystem.paths[0].access: unknown access \"rx\" (did you mean \"ro\"?)" },
	{ FS("{\"path\":\"/\",\"access\":[\"read\",\"wirte\"]}"),
	  "t.json:1:87: filesystem.paths[0].access[1]: unknown access \"wirte\" (did you mean \"write\"?)" },
	{ FS("{\"path\":\"/\",\"access\":[]}"),
	  "t.json:1:79: filesystem.paths[0].access: empty: write \"none\" for a hierarchy the program gets nothing of" },
	{ FS("{\"path\":\"/\",\"access\":7}"),
	  "t.json:1:79: filesystem.paths[0].access: expected a word (\"ro\", \"rw\", \"none\", \"read\", ...) or an array of words, got an integer" },
	{ FS("{\"path\":\"etc\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: \"etc\" is relative: a path is absolute (\"/...\") or starts with ${CWD}, ${HOME} or ${TMPDIR} (\"${CWD}/etc\": the program's working directory)" },
	{ FS("{\"path\":\"~/.ssh\",\"access\":\"none\"}"),
	  "t.json:1:66: filesystem.paths[0].path: \"~\" is not expanded here: write \"${HOME}/.ssh\"" },
	{ FS("{\"path\":\"$HOME/.ssh\",\"access\":\"none\"}"),
	  "t.json:1:66: filesystem.paths[0].path: a variable is written \"${NAME}\": one of ${CWD}, ${HOME}, ${TMPDIR}" },
	{ FS("{\"path\":\"${PWD}\",\"access\":\"rw\"}"),
	  "t.json:1:66: filesystem.paths[0].path: unknown variable ${PWD} (did you mean ${CWD}?)" },
	{ FS("{\"path\":\"${TMPDRI}\",\"access\":\"rw\"}"),
	  "t.json:1:66: filesystem.paths[0].path: unknown variable ${TMPDRI} (did you mean ${TMPDIR}?)" },
	{ FS("{\"path\":\"${USER}\",\"access\":\"rw\"}"),
	  "t.json:1:66: filesystem.paths[0].path: unknown variable ${USER} (expected ${CWD}, ${HOME} or ${TMPDIR})" },
	{ FS("{\"path\":\"${CWD}.git\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: ${CWD} must be followed by \"/\" or end the path" },
	{ FS("{\"path\":\"/a/${HOME}\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: a variable may only start the path (\"/a/${HOME}\")" },
	{ FS("{\"path\":\"/usr/../etc\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: \"..\" in \"/usr/../etc\": name the directory itself (a rule holds for the file the path names when the program starts)" },
	{ FS("{\"path\":\"${CWD}/./x\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: \".\" in \"${CWD}/./x\": name the directory itself (a rule holds for the file the path names when the program starts)" },
	{ FS("{\"path\":\"\",\"access\":\"ro\"}"),
	  "t.json:1:66: filesystem.paths[0].path: must not be empty" },
	{ FS("{\"path\":\"/tmp\",\"access\":\"rw\"},{\"path\":\"/tmp/\",\"access\":\"ro\"}"),
	  "t.json:1:96: filesystem.paths[1].path: /tmp is named by filesystem.paths[0] too: give each hierarchy one entry" },
	{ FS("{\"path\":\"/\",\"access\":\"ro\",\"optional\":1}"),
	  "t.json:1:95: filesystem.paths[0].optional: expected true or false, got an integer" },
	{ NET("{\"udp\":{}}"),
	  "t.json:1:46: network: unknown key \"udp\" (expected one of tcp, strict, comment)" },
	{ NET("{\"tcp\":{\"connect\":[70000]}}"),
	  "t.json:1:64: network.tcp.connect[0]: 70000 is out of range 0..65535" },
	{ NET("{\"tcp\":{\"connect\":[\"90-80\"]}}"),
	  "t.json:1:64: network.tcp.connect[0]: \"90-80\": the range ends before it starts" },
	{ NET("{\"tcp\":{\"bind\":[\"http\"]}}"),
	  "t.json:1:61: network.tcp.bind[0]: cannot parse \"http\" (expected a port such as 443, or a range such as \"8000-8080\")" },
	{ NET("{\"tcp\":{\"bind\":\"all\"}}"),
	  "t.json:1:60: network.tcp.bind: expected \"any\" (not restricted) or an array of ports, got \"all\"" },
	{ NET("{\"tcp\":{\"bind\":[\"1-5000\"]}}"),
	  "t.json:1:60: network.tcp.bind: more than 4096 ports (the kernel takes a rule per port): write \"any\" if the program may use every port" },
	{ NET("{\"tcp\":{\"listen\":[80]}}"),
	  "t.json:1:53: network.tcp: unknown key \"listen\" (expected one of bind, connect)" },
};

START_TEST(test_fs_invalid)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r = sw_policy_load_string(fs_invalid[_i].json, strlen(fs_invalid[_i].json),
				      "t.json", &p, &err);

	ck_assert_msg(r == -EINVAL, "case %d accepted:\n%s", _i, fs_invalid[_i].json);
	ck_assert_msg(strcmp(err.msg, fs_invalid[_i].msg) == 0,
		      "case %d:\n got: %s\nwant: %s", _i, err.msg, fs_invalid[_i].msg);
}
END_TEST

/* ---- lints: what a rule cannot do as written ------------------------------- */

struct lint_text {
	char text[8192];
};

static int collect(enum sw_policy_warning_kind kind, const char *path,
		   const char *msg, void *ud)
{
	struct lint_text *o = ud;
	size_t n = strlen(o->text);

	(void)kind;
	snprintf(o->text + n, sizeof(o->text) - n, "%s: %s\n", path, msg);
	return 0;
}

static const struct { const char *json, *want; } fs_lints[] = {
	/* a read-only .git in a writable tree: the tree keeps what both have */
	{ FS("{\"path\":\"/\",\"access\":\"ro\"},{\"path\":\"${CWD}\",\"access\":\"rw\"},"
	     "{\"path\":\"${CWD}/.git\",\"access\":\"ro\"}"),
	  "filesystem.paths[2]: ${CWD}/.git is inside ${CWD} (filesystem.paths[1]) with fewer rights, and the kernel's rules only grant: sysward gives filesystem.paths[1]'s rights to each entry beside ${CWD}/.git instead, as the entries are when the program starts. The directory on the way (${CWD}) keeps only ro: execute, read-file, read-dir: making, removing or moving entries directly in it fails with EACCES; an entry made in it later gets only those rights\n" },
	/* an inaccessible tree deeper down: every directory on the way */
	{ FS("{\"path\":\"/\",\"access\":\"ro\"},{\"path\":\"${HOME}\",\"access\":\"ro\"},"
	     "{\"path\":\"${HOME}/a/.ssh\",\"access\":\"none\"}"),
	  "filesystem.paths[2]: ${HOME}/a/.ssh is inside ${HOME} (filesystem.paths[1]) with fewer rights, and the kernel's rules only grant: sysward gives filesystem.paths[1]'s rights to each entry beside ${HOME}/a/.ssh instead, as the entries are when the program starts. The directories on the way (${HOME}, ${HOME}/a) keep nothing: listing them fails with EACCES; an entry made in them later gets only those rights\n" },
	{ FS("{\"path\":\"/\",\"access\":\"ro\"},{\"path\":\"/etc/ssl/private\",\"access\":\"none\"}"),
	  "filesystem.paths[1]: /etc/ssl/private is inside / (filesystem.paths[0]) with fewer rights, and the kernel's rules only grant: sysward gives filesystem.paths[0]'s rights to each entry beside /etc/ssl/private instead, as the entries are when the program starts. The directories on the way (/, /etc, /etc/ssl) keep nothing: listing them fails with EACCES; an entry made in them later gets only those rights\n" },
	/* a one-letter directory under /: on the way too (the lint once
	 * skipped the first letter after "/", and read past "/a"'s end) */
	{ FS("{\"path\":\"/\",\"access\":\"ro\"},{\"path\":\"/e/s/p\",\"access\":\"none\"}"),
	  "filesystem.paths[1]: /e/s/p is inside / (filesystem.paths[0]) with fewer rights, and the kernel's rules only grant: sysward gives filesystem.paths[0]'s rights to each entry beside /e/s/p instead, as the entries are when the program starts. The directories on the way (/, /e, /e/s) keep nothing: listing them fails with EACCES; an entry made in them later gets only those rights\n" },
	/* more rights inside fewer: a plain grant, no word; a file right
	 * less (/dev/null without execute): no word either */
	{ FS("{\"path\":\"/\",\"access\":\"ro\"},{\"path\":\"${CWD}\",\"access\":\"rw\"},"
	     "{\"path\":\"/dev/null\",\"access\":[\"read\",\"write\"]}"), "" },
	/* "/ab" is not inside "/a" */
	{ FS("{\"path\":\"/a\",\"access\":\"rw\"},{\"path\":\"/ab\",\"access\":\"none\"},"
	     "{\"path\":\"/usr\",\"access\":\"ro\"}"), "" },
	/* the nearest outer one counts */
	{ FS("{\"path\":\"/\",\"access\":\"rw\"},{\"path\":\"/a\",\"access\":\"ro\"},"
	     "{\"path\":\"/a/b\",\"access\":\"ro\"}"),
	  "filesystem.paths[1]: /a is inside / (filesystem.paths[0]) with fewer rights, and the kernel's rules only grant: sysward gives filesystem.paths[0]'s rights to each entry beside /a instead, as the entries are when the program starts. The directory on the way (/) keeps only ro: execute, read-file, read-dir: making, removing or moving entries directly in it fails with EACCES; an entry made in it later gets only those rights\n" },
	/* nothing executable: not even the program starts */
	{ FS("{\"path\":\"${CWD}\",\"access\":[\"read\",\"write\"]}"),
	  "filesystem: no hierarchy grants execute: not even the program can be started (it is executed under these rules), nor its dynamic loader\n" },
	/* TCP only: UDP is the syscall rules' (none refuse socket here) */
	{ NET("{\"tcp\":{\"connect\":[443]}}"),
	  "network: only TCP binds and connects are the kernel's to refuse by port (Landlock); UDP, raw and other sockets are the syscall rules' to decide, and they let socket(2) run: refuse it for the families the program must not use (policy/README.md, Network)\n" },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"network\":{\"tcp\":{}},\"syscalls\":["
	  "{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":1,\"value\":2,\"op\":\"SCMP_CMP_EQ\"}]}]}", "" },
};

START_TEST(test_fs_lint)
{
	struct sw_policy *p = load_ok(fs_lints[_i].json);
	struct lint_text o = { "" };

	ck_assert_int_eq(sw_policy_lint(p, collect, &o), 0);
	ck_assert_msg(strcmp(o.text, fs_lints[_i].want) == 0,
		      "case %d:\n got: %s\nwant: %s", _i, o.text, fs_lints[_i].want);
	sw_policy_free(p);
}
END_TEST

/* ---- the table of rights ---------------------------------------------------- */

START_TEST(test_fs_rights)
{
	char buf[256];

	/* each kernel right has a name and the ABI it came with */
	for (int b = 0; b < 16; b++) {
		ck_assert_ptr_nonnull(sw_fs_right_name(1ULL << b));
		ck_assert_int_ge(sw_fs_right_abi(1ULL << b), 1);
	}
	ck_assert_ptr_null(sw_fs_right_name(1ULL << 16));
	ck_assert_int_eq(sw_fs_right_abi(SW_FS_REFER), 2);
	ck_assert_int_eq(sw_fs_right_abi(SW_FS_TRUNCATE), 3);
	ck_assert_int_eq(sw_fs_right_abi(SW_FS_IOCTL_DEV), 5);
	ck_assert_uint_eq(sw_fs_rights_of_abi(0), 0);
	ck_assert_uint_eq(sw_fs_rights_of_abi(1), (1ULL << 13) - 1);
	ck_assert_uint_eq(sw_fs_rights_of_abi(2), (1ULL << 14) - 1);
	ck_assert_uint_eq(sw_fs_rights_of_abi(4), (1ULL << 15) - 1);
	ck_assert_uint_eq(sw_fs_rights_of_abi(5), SW_FS_ALL);
	ck_assert_uint_eq(sw_fs_rights_of_abi(7), SW_FS_ALL);
	sw_fs_access_describe(RO, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ro: execute, read-file, read-dir");
	sw_fs_access_describe(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "none");
	sw_fs_access_describe(SW_FS_WRITE_FILE | SW_FS_TRUNCATE, buf, sizeof(buf));
	ck_assert_str_eq(buf, "write-file, truncate");
}
END_TEST

/* sysward check's every error: each wrong entry of "filesystem.paths",
 * then "network", as each wrong rule of "syscalls". */
START_TEST(test_fs_every_error)
{
	static const char json[] =
		"{\"defaultAction\":\"SCMP_ACT_ALLOW\",\n"
		" \"filesystem\":{\"paths\":[\n"
		"  {\"path\":\"etc\",\"access\":\"ro\"},\n"
		"  {\"path\":\"/tmp\",\"access\":\"rx\"},\n"
		"  {\"path\":\"/usr\",\"access\":\"ro\"},\n"
		"  {\"path\":\"/usr/\",\"access\":\"ro\"}]},\n"
		" \"network\":{\"tcp\":{\"connect\":[70000]}}}";
	static const char *const want[] = {
		"t.json:3:11: filesystem.paths[0].path: \"etc\" is relative: a path is absolute (\"/...\") or starts with ${CWD}, ${HOME} or ${TMPDIR} (\"${CWD}/etc\": the program's working directory)",
		"t.json:4:27: filesystem.paths[1].access: unknown access \"rx\" (did you mean \"ro\"?)",
		"t.json:6:11: filesystem.paths[3].path: /usr is named by filesystem.paths[2] too: give each hierarchy one entry",
		"t.json:7:31: network.tcp.connect[0]: 70000 is out of range 0..65535",
	};
	struct sw_error errors[8];
	struct sw_policy_load_opts o = { .errors = errors, .max_errors = 8 };
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_policy_load_string_opts(json, strlen(json), "t.json", &o,
						    &p, &err), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_uint_eq(o.n_errors, N_ELEMENTS(want));
	for (size_t i = 0; i < N_ELEMENTS(want); i++)
		ck_assert_msg(strcmp(errors[i].msg, want[i]) == 0,
			      "error %zu:\n got: %s\nwant: %s", i, errors[i].msg, want[i]);
	/* without a list: the first only, as sysward run reports it */
	ck_assert_int_eq(sw_policy_load_string(json, strlen(json), "t.json", &p, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, want[0]);
}
END_TEST

void policy_fs_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_fs_valid, 0, (int)N_ELEMENTS(fs_cases));
	tcase_add_test(tc, test_fs_sections);
	tcase_add_loop_test(tc, test_fs_invalid, 0, (int)N_ELEMENTS(fs_invalid));
	tcase_add_test(tc, test_fs_every_error);
	tcase_add_loop_test(tc, test_fs_lint, 0, (int)N_ELEMENTS(fs_lints));
	tcase_add_test(tc, test_fs_rights);
}
