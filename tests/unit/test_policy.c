// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests for the policy parser (policy/): what a policy author sees.
 * Valid policies are checked field by field, invalid ones by the exact
 * message text, as bubblewrap's tests assert what the user reads.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/policy.h"
#include "check_run.h"
#include "test_policy.h"

struct sw_policy *load_ok(const char *json)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r = sw_policy_load_string(json, strlen(json), "t.json", &p, &err);

	ck_assert_msg(r == 0, "policy rejected: %s\n%s", err.msg, json);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* ------------------------------------------------------------------ */
/* valid policies: one field per row */

enum field {
	F_N_RULES, F_DEFAULT_ACTION, F_DEFAULT_ERRNO, F_N_ARCHES, F_FLAGS,
	F_N_WARNINGS, F_ACTION, F_N_NAMES, F_ERRNO, F_RET, F_RET_IS_ERRNO,
	F_N_ARGS, F_ARG_INDEX, F_ARG_OP, F_ARG_VALUE, F_ARG_VALUE2,
	F_N_PATHS, F_PATH_INDEX, F_PATH_MATCH, F_PATH_NOT, F_N_REWRITES,
	F_RW_INDEX, F_RW_OP, F_RW_VALUE, F_WHEN_FIRST, F_WHEN_LAST,
	F_WHEN_STEP, F_AUDIT, F_SUPERVISOR, F_INC_CAPS, F_INC_KERNEL,
	F_EXC_CAPS, F_HAS_INCLUDES, F_LINE, F_ALLOW_IO_URING, F_WARN0_KIND,
};

struct valid_case {
	const char *json;
	size_t rule;	/* for rule fields */
	size_t sub;	/* args[sub], paths[sub], rewrites[sub] */
	enum field f;
	uint64_t want;
};

static const struct valid_case valid_cases[] = {
	/* top level */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\"}", 0, 0, F_N_RULES, 0 },
	{ "{\"defaultAction\":\"SCMP_ACT_KILL_PROCESS\"}", 0, 0, F_DEFAULT_ACTION, SW_ACT_KILL_PROCESS },
	{ "{\"defaultAction\":\"SCMP_ACT_KILL\"}", 0, 0, F_DEFAULT_ACTION, SW_ACT_KILL_THREAD },
	{ "{\"defaultAction\":\"SCMP_ACT_LOG\"}", 0, 0, F_DEFAULT_ACTION, SW_ACT_KLOG },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\"}", 0, 0, F_DEFAULT_ERRNO, EPERM },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":38}", 0, 0, F_DEFAULT_ERRNO, 38 },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":\"ENOSYS\"}", 0, 0, F_DEFAULT_ERRNO, ENOSYS },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X86\",\"SCMP_ARCH_X86\"]}", 0, 0, F_N_ARCHES, 2 },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"flags\":[\"SECCOMP_FILTER_FLAG_LOG\",\"SECCOMP_FILTER_FLAG_SPEC_ALLOW\"]}", 0, 0, F_FLAGS, 6 },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":null}", 0, 0, F_N_RULES, 0 },
	{ "{\"$schema\":\"x\",\"comment\":\"\",\"defaultAction\":\"SCMP_ACT_ALLOW\",\"listenerMetadata\":\"\"}", 0, 0, F_N_WARNINGS, 0 },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"listenerPath\":\"/run/l.sock\"}", 0, 0, F_N_WARNINGS, 1 },
	/* the io_uring opt-in: off unless true, and true draws a warning */
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\"}", 0, 0, F_ALLOW_IO_URING, 0 },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"allowIoUring\":true}", 0, 0, F_ALLOW_IO_URING, 1 },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"allowIoUring\":true}", 0, 0, F_N_WARNINGS, 1 },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"allowIoUring\":false}", 0, 0, F_ALLOW_IO_URING, 0 },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"allowIoUring\":false}", 0, 0, F_N_WARNINGS, 0 },
	/* a rule that lets pidfd_getfd run (the engine refuses it otherwise) draws a warning */
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"pidfd_getfd\"],\"action\":\"SCMP_ACT_ALLOW\"}]}", 0, 0, F_N_WARNINGS, 1 },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"pidfd_getfd\"],\"action\":\"SCMP_ACT_ERRNO\"}]}", 0, 0, F_N_WARNINGS, 0 },
	/* actions and their values */
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\"}" END, 0, 0, F_ERRNO, EPERM },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":13}" END, 0, 0, F_ERRNO, 13 },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"errno\":\"EIO\"}" END, 0, 0, F_ERRNO, EIO },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"errno\":0}" END, 0, 0, F_ERRNO, 0 },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\"}" END, 0, 0, F_SUPERVISOR, 0 },
	{ ALLOW "{\"name\":\"read\",\"action\":\"SCMP_ACT_TRAP\"}" END, 0, 0, F_N_NAMES, 1 },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_EMULATE\",\"return\":0}" END, 0, 0, F_ACTION, SW_ACT_EMULATE },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_EMULATE\",\"return\":42}" END, 0, 0, F_RET, 42 },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_EMULATE\"}" END, 0, 0, F_RET, 0 },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_EMULATE\"}" END, 0, 0, F_RET_IS_ERRNO, 0 },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_EMULATE\"}" END, 0, 0, F_SUPERVISOR, 1 },
	{ ALLOW "{\"names\":[\"getuid\"],\"action\":\"SYSWARD_ACT_SKIP\",\"return\":-1}" END, 0, 0, F_RET, (uint64_t)-1 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"errno\":\"EIO\"}" END, 0, 0, F_ERRNO, EIO },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"errno\":\"EIO\"}" END, 0, 0, F_RET_IS_ERRNO, 1 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"errnoRet\":28}" END, 0, 0, F_ERRNO, ENOSPC },
	{ ALLOW "{\"names\":[\"connect\"],\"action\":\"SYSWARD_ACT_LOG\"}" END, 0, 0, F_ACTION, SW_ACT_AUDIT },
	{ ALLOW "{\"names\":[\"connect\"],\"action\":\"SYSWARD_ACT_LOG\"}" END, 0, 0, F_AUDIT, 1 },
	{ ALLOW "{\"names\":[\"connect\"],\"action\":\"SCMP_ACT_ALLOW\",\"log\":true}" END, 0, 0, F_SUPERVISOR, 1 },
	{ ALLOW "{\"names\":[\"connect\"],\"action\":\"SCMP_ACT_ALLOW\",\"log\":false}" END, 0, 0, F_SUPERVISOR, 0 },
	/* args */
	{ ALLOW "{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":2,\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_OP, SW_CMP_EQ },
	{ ALLOW "{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":\"AF_INET6\",\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_VALUE, 10 },
	{ ALLOW "{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":5,\"value\":1,\"op\":\"SCMP_CMP_GT\"}]}" END, 0, 0, F_ARG_INDEX, 5 },
	{ ALLOW "{\"names\":[\"personality\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":18446744073709551615,\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_VALUE, UINT64_MAX },
	/* a negative number only as sysward's string (runc refuses -100) */
	{ ALLOW "{\"names\":[\"personality\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":\"-100\",\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_VALUE, (uint64_t)-100 },
	{ ALLOW "{\"names\":[\"personality\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":18446744073709551516,\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_VALUE, (uint64_t)-100 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":\"AT_FDCWD\",\"op\":\"SCMP_CMP_EQ\"}]}" END, 0, 0, F_ARG_VALUE, (uint64_t)-100 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":2,\"value\":\"O_WRONLY|O_RDWR\",\"op\":\"SCMP_CMP_MASKED_EQ\",\"valueTwo\":\"O_WRONLY\"}]}" END, 0, 0, F_ARG_VALUE, 3 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":2,\"value\":\"O_WRONLY|O_RDWR\",\"op\":\"SCMP_CMP_MASKED_EQ\",\"valueTwo\":\"O_WRONLY\"}]}" END, 0, 0, F_ARG_VALUE2, 1 },
	/* Docker's clone rule: MASKED_EQ without valueTwo means valueTwo 0 */
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":2114060288,\"op\":\"SCMP_CMP_MASKED_EQ\"}]}" END, 0, 0, F_ARG_VALUE2, 0 },
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":[{\"index\":0,\"value\":1,\"valueTwo\":0,\"op\":\"SCMP_CMP_NE\"}]}" END, 0, 0, F_N_ARGS, 1 },
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"args\":null}" END, 0, 0, F_N_ARGS, 0 },
	{ ALLOW "{\"names\":[\"mmap\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":2,\"value\":\"PROT_WRITE|PROT_EXEC\",\"op\":\"SCMP_CMP_MASKED_EQ\",\"valueTwo\":\"PROT_WRITE|PROT_EXEC\"}]}" END, 0, 0, F_ARG_VALUE2, 6 },
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":\"CLONE_NEWUSER|CLONE_NEWNS\",\"op\":\"SCMP_CMP_MASKED_EQ\",\"valueTwo\":0}]}" END, 0, 0, F_ARG_VALUE, 0x10020000 },
	/* paths */
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":1,\"prefix\":\"/etc/\"}]}" END, 0, 0, F_PATH_MATCH, SW_MATCH_PREFIX },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":1,\"prefix\":\"/etc/\"}]}" END, 0, 0, F_SUPERVISOR, 1 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":1,\"glob\":\"/home/*/.ssh/*\",\"not\":true}]}" END, 0, 0, F_PATH_NOT, 1 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":1,\"exact\":\"/a\"},{\"index\":1,\"glob\":\"*\"}]}" END, 0, 1, F_PATH_MATCH, SW_MATCH_GLOB },
	{ ALLOW "{\"names\":[\"renameat\"],\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":3,\"exact\":\"/a\"}]}" END, 0, 0, F_PATH_INDEX, 3 },
	/* "" exactly: the empty path of a call on a descriptor (learn) */
	{ ALLOW "{\"names\":[\"newfstatat\"],\"action\":\"SCMP_ACT_ALLOW\",\"paths\":[{\"index\":1,\"exact\":\"\"}]}" END, 0, 0, F_PATH_MATCH, SW_MATCH_EXACT },
	/* rewrite */
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":2,\"and\":\"~O_CREAT\"}]}}" END, 0, 0, F_RW_VALUE, ~(uint64_t)O_CREAT },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":2,\"and\":\"~O_CREAT\"}]}}" END, 0, 0, F_RW_OP, SW_REWRITE_AND },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":2,\"and\":\"~O_WRONLY|O_RDWR|O_CREAT\"}]}}" END, 0, 0, F_RW_VALUE, ~(uint64_t)(O_WRONLY | O_RDWR | O_CREAT) },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":2,\"or\":\"O_CLOEXEC\"}]}}" END, 0, 0, F_RW_OP, SW_REWRITE_OR },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":3,\"set\":\"0644\"}]}}" END, 0, 0, F_RW_VALUE, 0644 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":3,\"set\":\"0x1ff\"}]}}" END, 0, 0, F_RW_VALUE, 0777 },
	{ ALLOW "{\"names\":[\"openat\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"args\":[{\"index\":3,\"set\":\"0x1ff\"}]}}" END, 0, 0, F_RW_INDEX, 3 },
	{ ALLOW "{\"names\":[\"getpid\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"rewrite\":{\"syscall\":\"getppid\"}}" END, 0, 0, F_N_REWRITES, 0 },
	/* when */
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":{\"first\":3}}" END, 0, 0, F_WHEN_FIRST, 3 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":{\"first\":3}}" END, 0, 0, F_WHEN_STEP, 0 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":{\"first\":2,\"last\":4}}" END, 0, 0, F_WHEN_STEP, 1 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":{\"first\":2,\"step\":2}}" END, 0, 0, F_WHEN_LAST, 0 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"7\"}" END, 0, 0, F_WHEN_FIRST, 7 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"7+\"}" END, 0, 0, F_WHEN_STEP, 1 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"2+3\"}" END, 0, 0, F_WHEN_STEP, 3 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"2..10\"}" END, 0, 0, F_WHEN_LAST, 10 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"2..10\"}" END, 0, 0, F_WHEN_STEP, 1 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"when\":\"2..10+4\"}" END, 0, 0, F_WHEN_STEP, 4 },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SCMP_ACT_ERRNO\",\"when\":\"1\"}" END, 0, 0, F_SUPERVISOR, 1 },
	/* includes / excludes */
	{ ALLOW "{\"names\":[\"mount\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_NET_ADMIN\"]}}" END, 0, 0, F_INC_CAPS, (1ull << 21) | (1ull << 12) },
	{ ALLOW "{\"names\":[\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"4.8\"}}" END, 0, 0, F_INC_KERNEL, KV(4, 8) },
	{ ALLOW "{\"names\":[\"ptrace\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{\"minKernel\":\"5.10.3\"}}" END, 0, 0, F_INC_KERNEL, KV(5, 10) + 3 },
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}}" END, 0, 0, F_EXC_CAPS, 1ull << 21 },
	{ ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\",\"includes\":{}}" END, 0, 0, F_HAS_INCLUDES, 1 },
	/* names */
	{ ALLOW "{\"names\":[\"read\",\"write\",\"getuid32\",\"cacheflush\"],\"action\":\"SCMP_ACT_ERRNO\"}" END, 0, 0, F_N_NAMES, 4 },
	/* unknown in an allow rule: warning, dropped */
	{ ALLOW "{\"names\":[\"read\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"}" END, 0, 0, F_N_NAMES, 1 },
	{ ALLOW "{\"names\":[\"read\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"}" END, 0, 0, F_N_WARNINGS, 1 },
	/* warnings say what they are about: `sysward run` leaves out those
	 * about real calls the installed libseccomp does not know (the
	 * policy is right, the library old: runc ignores them), not typos */
	{ ALLOW "{\"names\":[\"read\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"}" END, 0, 0, F_WARN0_KIND, SW_POLICY_WARN_OTHER },
	{ ALLOW "{\"names\":[\"read\",\"mseal\"],\"action\":\"SCMP_ACT_ALLOW\"}" END, 0, 0, F_WARN0_KIND, SW_POLICY_WARN_SYSCALL_NEWER },
	{ ALLOW "{\"names\":[\"read\",\"mseal\"],\"action\":\"SCMP_ACT_ERRNO\"}" END, 0, 0, F_WARN0_KIND, SW_POLICY_WARN_SYSCALL_NEWER },
	{ ALLOW "{\"names\":[\"read\",\"riscv_hwprobe\"],\"action\":\"SCMP_ACT_ALLOW\"}" END, 0, 0, F_WARN0_KIND, SW_POLICY_WARN_SYSCALL_NEWER },
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"listenerPath\":\"/run/l.sock\"}", 0, 0, F_WARN0_KIND, SW_POLICY_WARN_OTHER },
	/* containers/common (Podman) style: empty args, comment and gates,
	 * errnoRet on every ERRNO rule, old and other-arch syscall names */
#define PODMAN "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":38,\"syscalls\":[" \
	"{\"names\":[\"bdflush\",\"nfsservctl\",\"oldolduname\",\"vm86old\",\"readdir\",\"query_module\",\"stime\",\"swapcontext\"]," \
	"\"action\":\"SCMP_ACT_ERRNO\",\"args\":[],\"comment\":\"\",\"includes\":{},\"excludes\":{},\"errnoRet\":1}," \
	"{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":16,\"valueTwo\":0,\"op\":\"SCMP_CMP_EQ\"}," \
	"{\"index\":2,\"value\":9,\"valueTwo\":0,\"op\":\"SCMP_CMP_EQ\"}],\"comment\":\"\",\"includes\":{}," \
	"\"excludes\":{\"caps\":[\"CAP_AUDIT_WRITE\"]},\"errnoRet\":22}]}"
	{ PODMAN, 0, 0, F_N_NAMES, 8 },
	{ PODMAN, 0, 0, F_N_WARNINGS, 0 },
	{ PODMAN, 0, 0, F_DEFAULT_ERRNO, ENOSYS },
	{ PODMAN, 1, 0, F_ERRNO, EINVAL },
	{ PODMAN, 1, 1, F_ARG_VALUE, 9 },
	{ PODMAN, 1, 0, F_EXC_CAPS, 1ull << 29 },
	/* Podman writes each errno twice, as a name and as a number
	 * (containers/common's "errno" beside "errnoRet", "defaultErrno"
	 * beside "defaultErrnoRet"): accepted when they agree */
#define PODMAN2 "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":38,\"defaultErrno\":\"ENOSYS\",\"syscalls\":[" \
	"{\"names\":[\"bdflush\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[],\"comment\":\"\",\"includes\":{},\"excludes\":{},\"errnoRet\":1,\"errno\":\"EPERM\"}," \
	"{\"names\":[\"socket\"],\"action\":\"SCMP_ACT_ERRNO\",\"errno\":\"EINVAL\",\"errnoRet\":22}]}"
	{ PODMAN2, 0, 0, F_DEFAULT_ERRNO, ENOSYS },
	{ PODMAN2, 0, 0, F_N_WARNINGS, 0 },
	{ PODMAN2, 0, 0, F_ERRNO, EPERM },
	{ PODMAN2, 1, 0, F_ERRNO, EINVAL },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrno\":\"ENOSYS\"}", 0, 0, F_DEFAULT_ERRNO, ENOSYS },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrno\":13}", 0, 0, F_DEFAULT_ERRNO, EACCES },
	/* Podman also reads a number written as a string */
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrno\":\"38\",\"defaultErrnoRet\":38}", 0, 0, F_DEFAULT_ERRNO, ENOSYS },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"errno\":\"13\"}" END, 0, 0, F_ERRNO, EACCES },
	{ "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrno\":\"EACCES\",\"defaultErrnoRet\":\"EACCES\"}", 0, 0, F_DEFAULT_ERRNO, EACCES },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"errno\":\"EIO\",\"errnoRet\":5}" END, 0, 0, F_ERRNO, EIO },
	{ ALLOW "{\"names\":[\"write\"],\"action\":\"SYSWARD_ACT_SKIP\",\"errno\":\"EIO\",\"errnoRet\":5}" END, 0, 0, F_RET_IS_ERRNO, 1 },
	/* line numbers of rules */
	{ "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\n\"syscalls\":[\n{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"},\n\n  {\"names\":[\"write\"],\"action\":\"SCMP_ACT_ALLOW\"}]}", 1, 0, F_LINE, 5 },
};

static uint64_t field(const struct sw_policy *p, const struct valid_case *c)
{
	const struct sw_rule *r = c->rule < p->n_rules ? &p->rules[c->rule] : NULL;

	switch (c->f) {
	case F_N_RULES: return p->n_rules;
	case F_DEFAULT_ACTION: return p->default_action;
	case F_DEFAULT_ERRNO: return (uint64_t)p->default_errno;
	case F_N_ARCHES: return p->n_architectures;
	case F_FLAGS: return p->filter_flags;
	case F_N_WARNINGS: return p->n_warnings;
	case F_ALLOW_IO_URING: return p->allow_io_uring;
	case F_WARN0_KIND:
		ck_assert_uint_gt(p->n_warnings, 0);
		ck_assert_ptr_nonnull(p->warning_kinds);
		return p->warning_kinds[0];
	default: break;
	}
	ck_assert_msg(r, "no rule %zu", c->rule);
	switch (c->f) {
	case F_ACTION: return r->action;
	case F_N_NAMES: return r->n_names;
	case F_ERRNO: return (uint64_t)r->errno_ret;
	case F_RET: return (uint64_t)r->ret_value;
	case F_RET_IS_ERRNO: return r->ret_is_errno;
	case F_N_ARGS: return r->n_args;
	case F_ARG_INDEX: ck_assert_uint_gt(r->n_args, c->sub); return r->args[c->sub].index;
	case F_ARG_OP: ck_assert_uint_gt(r->n_args, c->sub); return r->args[c->sub].op;
	case F_ARG_VALUE: ck_assert_uint_gt(r->n_args, c->sub); return r->args[c->sub].value;
	case F_ARG_VALUE2: ck_assert_uint_gt(r->n_args, c->sub); return r->args[c->sub].value_two;
	case F_N_PATHS: return r->n_paths;
	case F_PATH_INDEX: ck_assert_uint_gt(r->n_paths, c->sub); return r->paths[c->sub].index;
	case F_PATH_MATCH: ck_assert_uint_gt(r->n_paths, c->sub); return r->paths[c->sub].match;
	case F_PATH_NOT: ck_assert_uint_gt(r->n_paths, c->sub); return r->paths[c->sub].negate;
	case F_N_REWRITES: return r->n_rewrites;
	case F_RW_INDEX: ck_assert_uint_gt(r->n_rewrites, c->sub); return r->rewrites[c->sub].index;
	case F_RW_OP: ck_assert_uint_gt(r->n_rewrites, c->sub); return r->rewrites[c->sub].op;
	case F_RW_VALUE: ck_assert_uint_gt(r->n_rewrites, c->sub); return r->rewrites[c->sub].value;
	case F_WHEN_FIRST: return r->when_first;
	case F_WHEN_LAST: return r->when_last;
	case F_WHEN_STEP: return r->when_step;
	case F_AUDIT: return r->audit;
	case F_SUPERVISOR: return r->needs_supervisor;
	case F_INC_CAPS: return r->includes.caps;
	case F_INC_KERNEL: return r->includes.min_kernel;
	case F_EXC_CAPS: return r->excludes.caps;
	case F_HAS_INCLUDES: return r->has_includes;
	case F_LINE: return r->line;
	default: break;
	}
	ck_abort_msg("unhandled field %d", c->f);
	return 0;
}

START_TEST(test_valid)
{
	const struct valid_case *c = &valid_cases[_i];
	struct sw_policy *p = load_ok(c->json);
	uint64_t got = field(p, c);

	ck_assert_msg(got == c->want,
		      "case %d field %d: got %llu (0x%llx), want %llu (0x%llx)\n%s",
		      _i, c->f, (unsigned long long)got,
		      (unsigned long long)got, (unsigned long long)c->want,
		      (unsigned long long)c->want, c->json);
	sw_policy_free(p);
}
END_TEST

/* Strings that a table of numbers cannot hold. */
START_TEST(test_valid_strings)
{
	struct sw_policy *p = load_ok(ALLOW
		"{\"names\":[\"getpid\"],\"action\":\"SYSWARD_ACT_REWRITE\",\"comment\":\"c\",\"rewrite\":{\"syscall\":\"getppid\"}},"
		"{\"name\":\"openat\",\"action\":\"SCMP_ACT_ERRNO\",\"paths\":[{\"index\":1,\"prefix\":\"/etc/\"}],"
		" \"includes\":{\"arches\":[\"amd64\",\"x86\"]}}" END);

	ck_assert_str_eq(p->source, "t.json");
	ck_assert_str_eq(p->rules[0].names[0], "getpid");
	ck_assert_ptr_null(p->rules[0].names[1]);
	ck_assert_str_eq(p->rules[0].new_syscall, "getppid");
	ck_assert_str_eq(p->rules[0].comment, "c");
	ck_assert_str_eq(p->rules[0].json_path, "syscalls[0]");
	ck_assert_str_eq(p->rules[1].json_path, "syscalls[1]");
	ck_assert_str_eq(p->rules[1].names[0], "openat");
	ck_assert_str_eq(p->rules[1].paths[0].pattern, "/etc/");
	ck_assert_str_eq(p->rules[1].includes.arches[0], "amd64");
	ck_assert_str_eq(p->rules[1].includes.arches[1], "x86");
	ck_assert_ptr_null(p->rules[1].includes.arches[2]);
	ck_assert_ptr_null(p->architectures);
	sw_policy_free(p);

	p = load_ok("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X32\"]}");
	ck_assert_uint_eq(p->n_architectures, 2);
	ck_assert_str_eq(p->architectures[0], "SCMP_ARCH_X86_64");
	ck_assert_str_eq(p->architectures[1], "SCMP_ARCH_X32");
	ck_assert_ptr_null(p->architectures[2]);
	ck_assert_uint_eq(p->arch_tokens[0], SCMP_ARCH_X86_64);
	ck_assert_uint_eq(p->arch_tokens[1], SCMP_ARCH_X32);
	sw_policy_free(p);
}
END_TEST

/* What `sysward check` prints for names it cannot filter. */
START_TEST(test_warnings_text)
{
	struct sw_policy *p = load_ok(ALLOW
		"{\"names\":[\"read\",\"getuidd\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"},"
		"{\"names\":[\"mseal\"],\"action\":\"SCMP_ACT_ERRNO\"}" END);
	char want[256];
	const struct scmp_version *v = seccomp_version();

	ck_assert_uint_eq(p->n_warnings, 3);
	ck_assert_str_eq(p->warnings[0],
			 "t.json:1:64: syscalls[0].names[1]: unknown system call \"getuidd\" ignored (did you mean \"getuid\"?)");
	ck_assert_str_eq(p->warnings[1],
			 "t.json:1:74: syscalls[0].names[2]: unknown system call \"frobnicate\" ignored");
	/* mseal (Linux 6.10) is newer than Debian 12's libseccomp 2.5.4; on a
	 * libseccomp that knows it there is no warning to check. */
	if (seccomp_syscall_resolve_name("mseal") == __NR_SCMP_ERROR) {
		snprintf(want, sizeof(want),
			 "t.json:1:125: syscalls[1].names[0]: system call \"mseal\" is not known to the installed libseccomp %u.%u.%u; ignored (calls to it get the default action)",
			 v->major, v->minor, v->micro);
		ck_assert_str_eq(p->warnings[2], want);
		ck_assert_uint_eq(p->rules[1].n_names, 0);
		ck_assert_ptr_null(p->rules[1].names[0]);
	}
	ck_assert_ptr_null(p->warnings[3]);
	ck_assert_str_eq(p->rules[0].names[0], "read");
	ck_assert_ptr_null(p->rules[0].names[1]);
	sw_policy_free(p);
}
END_TEST

/* What `sysward check` (and `sysward run`) print for the io_uring opt-in:
 * ahead of any rule's warnings, whatever the key's place in the file. */
START_TEST(test_io_uring_warning)
{
	struct sw_policy *p = load_ok(ALLOW
		"{\"names\":[\"read\",\"frobnicate\"],\"action\":\"SCMP_ACT_ALLOW\"}],"
		"\"allowIoUring\":true}");

	ck_assert(p->allow_io_uring);
	ck_assert_uint_eq(p->n_warnings, 2);
	ck_assert_str_eq(p->warnings[0],
			 "t.json:1:121: allowIoUring: io_uring operations bypass seccomp and sysward: "
			 "io_uring_setup, io_uring_enter and io_uring_register are left to "
			 "this policy, and what the program submits through a ring (open, "
			 "read, write, connect, ...) is checked by no rule");
	ck_assert_str_eq(p->warnings[1],
			 "t.json:1:64: syscalls[0].names[1]: unknown system call \"frobnicate\" ignored");
	ck_assert_ptr_null(p->warnings[2]);
	sw_policy_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* invalid policies: the exact message */

struct invalid_case {
	const char *json;
	const char *msg;
};

static const struct invalid_case invalid_cases[] = {
	/* syntax: file:line:col */
	{ "", "t.json:1:1: empty policy (expected a JSON object)" },
	{ "  \n ", "t.json:2:2: empty policy (expected a JSON object)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n  \"syscalls\": [}",
	  "t.json:2:16: unexpected '}'" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\"",
	  "t.json:1:35: unexpected end of input" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\"} x",
	  "t.json:1:37: unexpected data after the policy object" },
	/* what runc refuses (OCI uint64 "value"/"valueTwo"), refused alike */
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":-1,\"op\":\"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:118: syscalls[0].args[0].value: -1 is negative, which runc and Docker refuse (the OCI profile's value is an unsigned 64-bit number): write 18446744073709551615, the same 64 bits" },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":1,\"valueTwo\":-4096,\"op\":\"SCMP_CMP_MASKED_EQ\"}]}" END,
	  "t.json:1:131: syscalls[0].args[0].valueTwo: -4096 is negative, which runc and Docker refuse (the OCI profile's value is an unsigned 64-bit number): write 18446744073709547520, the same 64 bits" },
	{ ALLOW "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,\"value\":1.5,\"op\":\"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:118: syscalls[0].args[0].value: expected an integer or a string of constants (\"O_RDWR|O_CREAT\"), got a fractional number" },
	/* the slips of a hand-written policy, each named */
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\",}",
	  "t.json:1:35: trailing comma after the last element of the object (JSON allows none): remove it" },
	{ ALLOW "{\"names\": [\"read\", ], \"action\": \"SCMP_ACT_ALLOW\"}" END,
	  "t.json:1:64: trailing comma after the last element of the array (JSON allows none): remove it" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", /* why */ \"syscalls\": []}",
	  "t.json:1:37: comment: JSON has no comments (neither // nor /* */); remove it, or write the text in a \"comment\" key" },
	{ "{\"defaultAction\": 'SCMP_ACT_ALLOW'}",
	  "t.json:1:19: single quotes: JSON writes strings and keys in double quotes (\"...\")" },
	/* json-c takes a 'single-quoted' key: it must not slip a second
	 * defaultAction past the duplicate check */
	{ "{\"defaultAction\": \"SCMP_ACT_KILL\", 'defaultAction': \"SCMP_ACT_ALLOW\"}",
	  "t.json:1:36: single quotes: JSON writes strings and keys in double quotes (\"...\")" },
	{ "{defaultAction: \"SCMP_ACT_ALLOW\"}",
	  "t.json:1:2: key not in double quotes: write \"defaultAction\"" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"allowIoUring\": False}",
	  "t.json:1:53: False is not JSON: write false" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"comment\": NaN}",
	  "t.json:1:48: NaN is not a JSON number (JSON has only finite numbers)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"comment\": -Infinity}",
	  "t.json:1:48: -Infinity is not a JSON number (JSON has only finite numbers)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\",, \"syscalls\": []}",
	  "t.json:1:36: two commas in a row (JSON has no empty elements): remove one" },
	{ "{\"defaultAction\" \"SCMP_ACT_ALLOW\"}",
	  "t.json:1:18: expected ':' after the key" },
	{ "{\n\"defaultAction\": \"SCMP_ACT_ALLOW\"\n\"syscalls\": []}",
	  "t.json:3:1: missing ',' between this and the value before it" },
	{ "{\"a\": [1 2]}", "t.json:1:10: missing ',' between this and the value before it" },
	{ "{\"a\": [1 :]}", "t.json:1:10: expected ',' or ']' after the value" },
	{ "{\"a\": \"\\x\"}",
	  "t.json:1:9: invalid string (bad escape or control character)" },
	{ "{\"a\": \"\xff\"}", "t.json:1:8: invalid UTF-8" },
	{ "{\"a\": 1, // c\n}", "t.json:1:10: comment: JSON has no comments (neither // nor /* */); remove it, or write the text in a \"comment\" key" },
	{ "{\"a\": 1, 2}", "t.json:1:10: expected a \"quoted\" key" },
	{ "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
	  "t.json:1:17: nesting deeper than 16 levels" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n \"defaultAction\": \"SCMP_ACT_KILL\"}",
	  "t.json:2:2: duplicate key \"defaultAction\" in the same object (JSON parsers keep only one of them)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"x\": 18446744073709551616}",
	  "t.json:1:42: integer 18446744073709551616 does not fit in 64 bits" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"n\\u0061mes\": 1}",
	  "t.json:1:37: escape sequence in key \"n\\u0061mes\" (keys are plain names such as \"names\")" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\\u0000x\": 1}",
	  "t.json:1:37: escape sequence in key \"syscalls\\u0000x\" (keys are plain names such as \"names\")" },
	{ "{\"x\": -9223372036854775809}",
	  "t.json:1:7: integer -9223372036854775809 does not fit in 64 bits" },
	/* top level */
	{ "[]", "t.json:1:1: expected a JSON object at the top level, got an array" },
	{ "{}", "t.json:1:1: defaultAction: missing (what happens to system calls no rule matches, e.g. \"SCMP_ACT_ALLOW\")" },
	{ "{\"defaultaction\": \"SCMP_ACT_ALLOW\"}",
	  "t.json:1:2: unknown key \"defaultaction\" (did you mean \"defaultAction\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"sycalls\": []}",
	  "t.json:1:37: unknown key \"sycalls\" (did you mean \"syscalls\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"zzz\": 1}",
	  "t.json:1:37: unknown key \"zzz\" (expected one of $schema, comment, defaultAction, defaultErrnoRet, defaultErrno, architectures, archMap, flags, listenerPath, listenerMetadata, syscalls, allowIoUring, filesystem, network)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"allowIoUring\": 1}",
	  "t.json:1:53: allowIoUring: expected true or false, got an integer" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"allowIoUring\": \"true\"}",
	  "t.json:1:53: allowIoUring: expected true or false, got a string" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"allowIoUring\": null}",
	  "t.json:1:53: allowIoUring: expected true or false, got null" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"allowIOURing\": true}",
	  "t.json:1:37: unknown key \"allowIOURing\" (did you mean \"allowIoUring\"?)" },
	{ "{\"defaultAction\": 1}", "t.json:1:19: defaultAction: expected a string, got an integer" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALOW\"}",
	  "t.json:1:19: defaultAction: unknown action \"SCMP_ACT_ALOW\" (did you mean \"SCMP_ACT_ALLOW\"?)" },
	{ "{\"defaultAction\": \"ALLOW_ALL\"}",
	  "t.json:1:19: defaultAction: unknown action \"ALLOW_ALL\" (expected one of SCMP_ACT_ALLOW, SCMP_ACT_ERRNO, SCMP_ACT_KILL_PROCESS, SCMP_ACT_KILL_THREAD, SCMP_ACT_KILL, SCMP_ACT_TRAP, SCMP_ACT_LOG, SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE, SYSWARD_ACT_LOG)" },
	{ "{\"defaultAction\": \"SCMP_ACT_TRACE\"}",
	  "t.json:1:19: defaultAction: SCMP_ACT_TRACE is not supported: sysward is itself the program's tracer; use SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE or SYSWARD_ACT_LOG" },
	{ "{\"defaultAction\": \"SYSWARD_ACT_LOG\"}",
	  "t.json:1:19: defaultAction: SYSWARD_ACT_LOG cannot be the default action (the kernel filter decides the default without a stop); use an SCMP_ACT_* action and add a rule instead" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultErrnoRet\": 1}",
	  "t.json:1:56: defaultErrnoRet: only used when defaultAction is SCMP_ACT_ERRNO (it is SCMP_ACT_ALLOW)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 4096}",
	  "t.json:1:56: defaultErrnoRet: 4096 is out of range 0..4095" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": \"EPREM\"}",
	  "t.json:1:56: defaultErrnoRet: unknown errno name \"EPREM\" (did you mean \"EPERM\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": \"ENOSYS\", \"defaultErrnoRet\": 1}",
	  "t.json:1:63: \"defaultErrno\" is ENOSYS (38) but \"defaultErrnoRet\" is EPERM (1); give the same errno in both keys, or only one" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultErrno\": \"ENOSYS\"}",
	  "t.json:1:53: defaultErrno: only used when defaultAction is SCMP_ACT_ERRNO (it is SCMP_ACT_ALLOW)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": \"ENOSIS\", \"defaultErrnoRet\": 38}",
	  "t.json:1:53: defaultErrno: unknown errno name \"ENOSIS\" (did you mean \"ENOSYS\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErno\": \"ENOSYS\"}",
	  "t.json:1:37: unknown key \"defaultErno\" (did you mean \"defaultErrno\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"SCMP_ARCH_X86_46\"]}",
	  "t.json:1:55: architectures[0]: unknown architecture \"SCMP_ARCH_X86_46\" (did you mean \"SCMP_ARCH_X86_64\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": \"SCMP_ARCH_X86\"}",
	  "t.json:1:54: architectures: expected an array of SCMP_ARCH_* names, got a string" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [], \"archMap\": []}",
	  "t.json:1:69: archMap: both \"architectures\" and \"archMap\" given; use one" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"archMap\": [{\"architecture\": \"SCMP_ARCH_X86_64\", \"subArchitectures\": [\"SCMP_ARCH_I386\"]}]}",
	  "t.json:1:107: archMap[0].subArchitectures[0]: unknown architecture \"SCMP_ARCH_I386\" (expected one of SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, SCMP_ARCH_MIPS, SCMP_ARCH_MIPSEL, SCMP_ARCH_MIPS64, SCMP_ARCH_MIPS64N32, SCMP_ARCH_MIPSEL64, SCMP_ARCH_MIPSEL64N32, SCMP_ARCH_PPC, SCMP_ARCH_PPC64, SCMP_ARCH_PPC64LE, SCMP_ARCH_S390, SCMP_ARCH_S390X, SCMP_ARCH_PARISC, SCMP_ARCH_PARISC64, SCMP_ARCH_RISCV64, SCMP_ARCH_LOONGARCH64, SCMP_ARCH_M68K, SCMP_ARCH_SH, SCMP_ARCH_SHEB)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"archMap\": [{\"arch\": \"SCMP_ARCH_X86_64\"}]}",
	  "t.json:1:50: archMap[0]: unknown key \"arch\" (expected one of architecture, subArchitectures)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": [\"SECCOMP_FILTER_FLAG_TSYN\"]}",
	  "t.json:1:47: flags[0]: unknown flag \"SECCOMP_FILTER_FLAG_TSYN\" (did you mean \"SECCOMP_FILTER_FLAG_TSYNC\"?)" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": [\"SECCOMP_FILTER_FLAG_NEW_LISTENER\"]}",
	  "t.json:1:47: flags[0]: SECCOMP_FILTER_FLAG_NEW_LISTENER is not supported: sysward supervises the program itself" },
	{ "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": {}}",
	  "t.json:1:49: syscalls: expected an array of rules, got an object" },
	/* rules */
	{ ALLOW "1" END, "t.json:1:47: syscalls[0]: expected an object, got an integer" },
	{ ALLOW "{\"names\": [\"read\"]}" END,
	  "t.json:1:47: syscalls[0].action: missing (e.g. \"SCMP_ACT_ERRNO\")" },
	{ ALLOW "{\"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:47: syscalls[0]: missing \"names\" (the system calls this rule is about)" },
	{ ALLOW "{\"nmaes\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:48: syscalls[0]: unknown key \"nmaes\" (did you mean \"names\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"name\": \"read\", \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:47: syscalls[0]: both \"name\" and \"names\" given; use one (\"names\": [...])" },
	{ ALLOW "{\"names\": [], \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:57: syscalls[0].names: empty list (name at least one system call)" },
	{ ALLOW "{\"names\": \"read\", \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:57: syscalls[0].names: expected an array of strings, got a string" },
	{ ALLOW "{\"names\": [\"read\", 3], \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:66: syscalls[0].names[1]: expected a string, got an integer" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"}, {\"names\": [\"getuidd\"], \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:107: syscalls[1].names[0]: unknown system call \"getuidd\" (did you mean \"getuid\"?)" },
	{ ALLOW "{\"names\": [\"read\", \"opnat\"], \"action\": \"SYSWARD_ACT_SKIP\"}" END,
	  "t.json:1:66: syscalls[0].names[1]: unknown system call \"opnat\" (did you mean \"openat\"?)" },
	{ ALLOW "{\"names\": [\"frobnicate\"], \"action\": \"SCMP_ACT_KILL_PROCESS\"}" END,
	  "t.json:1:58: syscalls[0].names[0]: unknown system call \"frobnicate\"" },
	{ ALLOW "{\"name\": \"wirte\", \"action\": \"SCMP_ACT_ERRNO\"}" END,
	  "t.json:1:56: syscalls[0].name: unknown system call \"wirte\" (did you mean \"write\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_NOTIFY\"}" END,
	  "t.json:1:77: syscalls[0].action: SCMP_ACT_NOTIFY is not supported: sysward supervises the program itself, there is no separate listener; use SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE or SYSWARD_ACT_LOG" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_TRACE\"}" END,
	  "t.json:1:77: syscalls[0].action: SCMP_ACT_TRACE is not supported: sysward is itself the program's tracer; use SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE or SYSWARD_ACT_LOG" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_EMULATES\"}" END,
	  "t.json:1:77: syscalls[0].action: unknown action \"SYSWARD_ACT_EMULATES\" (did you mean \"SYSWARD_ACT_EMULATE\"?)" },
	/* errno / return by action */
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\", \"errnoRet\": 1}" END,
	  "t.json:1:107: syscalls[0].errnoRet: not used by SCMP_ACT_ALLOW (only SCMP_ACT_ERRNO, SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE fail with an errno)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"return\": 1}" END,
	  "t.json:1:105: syscalls[0].return: not used by SCMP_ACT_ERRNO (it returns -errnoRet); use SYSWARD_ACT_SKIP to return a value" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_LOG\", \"return\": 1}" END,
	  "t.json:1:106: syscalls[0].return: not used by SYSWARD_ACT_LOG (only SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE return a value)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_SKIP\", \"return\": 1, \"errno\": \"EIO\"}" END,
	  "t.json:1:47: syscalls[0]: both \"return\" and \"errno\" given; a skipped call either returns a value or fails with an errno" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1, \"errno\": \"EIO\"}" END,
	  "t.json:1:95: syscalls[0]: \"errno\" is EIO (5) but \"errnoRet\" is EPERM (1); give the same errno in both keys, or only one" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_SKIP\", \"errnoRet\": 4000, \"errno\": 4001}" END,
	  "t.json:1:97: syscalls[0]: \"errno\" is 4001 but \"errnoRet\" is 4000; give the same errno in both keys, or only one" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"4096\"}" END,
	  "t.json:1:104: syscalls[0].errno: 4096 is out of range 0..4095" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"13x\"}" END,
	  "t.json:1:104: syscalls[0].errno: unknown errno name \"13x\" (use a name such as \"EPERM\" or a number 0..4095)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1, \"errno\": \"EPREM\"}" END,
	  "t.json:1:119: syscalls[0].errno: unknown errno name \"EPREM\" (did you mean \"EPERM\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_SKIP\", \"return\": 1, \"errno\": \"EIO\", \"errnoRet\": 5}" END,
	  "t.json:1:47: syscalls[0]: both \"return\" and \"errnoRet\" given; a skipped call either returns a value or fails with an errno" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\", \"errno\": \"EPERM\", \"errnoRet\": 1}" END,
	  "t.json:1:125: syscalls[0].errnoRet: not used by SCMP_ACT_ALLOW (only SCMP_ACT_ERRNO, SYSWARD_ACT_SKIP and SYSWARD_ACT_EMULATE fail with an errno)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": -1}" END,
	  "t.json:1:107: syscalls[0].errnoRet: -1 is out of range 0..4095" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1.5}" END,
	  "t.json:1:107: syscalls[0].errnoRet: expected an errno name (\"EPERM\") or number, got a fractional number" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_SKIP\", \"errno\": \"EIOO\"}" END,
	  "t.json:1:106: syscalls[0].errno: unknown errno name \"EIOO\" (did you mean \"EIO\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SYSWARD_ACT_SKIP\", \"return\": true}" END,
	  "t.json:1:107: syscalls[0].return: expected an integer or a string of constants (\"O_RDWR|O_CREAT\"), got a boolean" },
	/* args */
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_FOO\"}]}" END,
	  "t.json:1:135: syscalls[0].args[0].op: unknown operator \"SCMP_CMP_FOO\" (expected one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQQ\"}]}" END,
	  "t.json:1:135: syscalls[0].args[0].op: unknown operator \"SCMP_CMP_EQQ\" (did you mean \"SCMP_CMP_EQ\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 6, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:114: syscalls[0].args[0].index: 6 is out of range 0..5" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": \"0\", \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:114: syscalls[0].args[0].index: expected an integer, got a string" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:104: syscalls[0].args[0].index: missing (the argument number, 0..5)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:104: syscalls[0].args[0].value: missing (the number to compare with)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1}]}" END,
	  "t.json:1:104: syscalls[0].args[0].op: missing (one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1, \"valueTwo\": 2, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:141: syscalls[0].args[0].valueTwo: only SCMP_CMP_MASKED_EQ uses valueTwo (it compares (arg & value) == valueTwo); remove it or set it to 0" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1.5, \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: expected an integer or a string of constants (\"O_RDWR|O_CREAT\"), got a fractional number" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"AF_INTE\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: unknown constant \"AF_INTE\" (did you mean \"AF_INET\"?)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"FOO_BAR\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: unknown constant \"FOO_BAR\" (known: O_*, AT_*, CLONE_*, AF_*, SOCK_*, PROT_*, MAP_*, E* errno names, or a number)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"O_RDWR|\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: empty term in \"O_RDWR|\"" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"O_RDWR|~O_CREAT\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: \"~\" is allowed only at the start of the expression, where it inverts all of it" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"0x\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: \"0x\" is not a number (use decimal, 0x hex or 0 octal)" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"0x10000000000000000\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: number \"0x10000000000000000\" does not fit in 64 bits" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"\", \"op\": \"SCMP_CMP_EQ\"}]}" END,
	  "t.json:1:126: syscalls[0].args[0].value: must not be empty" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{}, {}, {}, {}, {}, {}, {}]}" END,
	  "t.json:1:103: syscalls[0].args: 7 conditions, at most 6 are allowed" },
	{ ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\", \"vlaue\": 2}]}" END,
	  "t.json:1:150: syscalls[0].args[0]: unknown key \"vlaue\" (did you mean \"value\"?)" },
	/* paths */
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1}]}" END,
	  "t.json:1:107: syscalls[0].paths[0]: missing the pattern: one of \"exact\", \"prefix\" or \"glob\"" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"exact\": \"/a\", \"glob\": \"/b\"}]}" END,
	  "t.json:1:107: syscalls[0].paths[0]: use only one of \"exact\", \"prefix\" and \"glob\"" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"prefix\": \"\"}]}" END,
	  "t.json:1:130: syscalls[0].paths[0].prefix: must not be empty" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"glob\": \"\"}]}" END,
	  "t.json:1:128: syscalls[0].paths[0].glob: must not be empty" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"exact\": \"/a\\u0000b\"}]}" END,
	  "t.json:1:129: syscalls[0].paths[0].exact: string contains a NUL character" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"exact\": \"/a\", \"not\": 1}]}" END,
	  "t.json:1:142: syscalls[0].paths[0].not: expected true or false, got an integer" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ERRNO\", \"paths\": [{\"index\": 1, \"regex\": \"/a\"}]}" END,
	  "t.json:1:120: syscalls[0].paths[0]: unknown key \"regex\" (expected one of index, exact, prefix, glob, not)" },
	/* rewrite */
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\"}" END,
	  "t.json:1:47: syscalls[0].rewrite: missing: SYSWARD_ACT_REWRITE needs {\"syscall\": NAME} and/or {\"args\": [{\"index\": N, \"set\"|\"and\"|\"or\": VALUE}]}" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SCMP_ACT_ALLOW\", \"rewrite\": {\"syscall\": \"open\"}}" END,
	  "t.json:1:108: syscalls[0].rewrite: only used with \"action\": \"SYSWARD_ACT_REWRITE\" (this rule's action is SCMP_ACT_ALLOW)" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {}}" END,
	  "t.json:1:113: syscalls[0].rewrite: rewrites nothing: give \"syscall\" and/or a non-empty \"args\"" },
	{ ALLOW "{\"names\": [\"getpid\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"syscall\": \"getppdi\"}}" END,
	  "t.json:1:125: syscalls[0].rewrite.syscall: unknown system call \"getppdi\" (did you mean \"getppid\"?)" },
	{ ALLOW "{\"names\": [\"getpid\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"syscall\": \"s390_runtime_instr\"}}" END,
	  "t.json:1:125: syscalls[0].rewrite.syscall: system call \"s390_runtime_instr\" does not exist on the policy's architectures" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"args\": [{\"index\": 2, \"and\": \"~O_CRAET\"}]}}" END,
	  "t.json:1:143: syscalls[0].rewrite.args[0].and: unknown constant \"O_CRAET\" (did you mean \"O_CREAT\"?)" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"args\": [{\"index\": 2, \"and\": 1, \"or\": 2}]}}" END,
	  "t.json:1:123: syscalls[0].rewrite.args[0]: use only one of \"set\", \"and\" and \"or\"" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"args\": [{\"index\": 2}]}}" END,
	  "t.json:1:123: syscalls[0].rewrite.args[0]: missing the operation: one of \"set\", \"and\" or \"or\"" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"args\": [{\"index\": 2, \"set\": 0}, {\"index\": 2, \"or\": 1}]}}" END,
	  "t.json:1:147: syscalls[0].rewrite.args[1]: argument 2 is already rewritten by syscalls[0].rewrite.args[0]; combine them into one" },
	{ ALLOW "{\"names\": [\"openat\"], \"action\": \"SYSWARD_ACT_REWRITE\", \"rewrite\": {\"args\": [{\"index\": 2, \"xor\": 1}]}}" END,
	  "t.json:1:136: syscalls[0].rewrite.args[0]: unknown key \"xor\" (did you mean \"or\"?)" },
	/* when */
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": \"0\"}" END,
	  "t.json:1:106: syscalls[0].when: calls are counted from 1: the first must be at least 1" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": \"5..2\"}" END,
	  "t.json:1:106: syscalls[0].when: last (2) is before first (5)" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": \"2+0\"}" END,
	  "t.json:1:106: syscalls[0].when: step must be at least 1" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": \"every 3\"}" END,
	  "t.json:1:106: syscalls[0].when: cannot parse \"every 3\" (expected \"N\", \"N+\", \"N+STEP\", \"N..M\" or \"N..M+STEP\", e.g. \"3\" for the 3rd call, \"2+2\" for every 2nd)" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": \"99999999999\"}" END,
	  "t.json:1:106: syscalls[0].when: cannot parse \"99999999999\" (expected \"N\", \"N+\", \"N+STEP\", \"N..M\" or \"N..M+STEP\", e.g. \"3\" for the 3rd call, \"2+2\" for every 2nd)" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": {\"last\": 3}}" END,
	  "t.json:1:106: syscalls[0].when.first: missing (the number of the first call to act on, from 1)" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": {\"first\": 0}}" END,
	  "t.json:1:116: syscalls[0].when.first: 0 is out of range 1..4294967295" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": {\"first\": 4, \"last\": 3}}" END,
	  "t.json:1:127: syscalls[0].when.last: 3 is out of range 4..4294967295" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"when\": 3}" END,
	  "t.json:1:106: syscalls[0].when: expected an object {\"first\", \"last\", \"step\"} or a string like \"3\" or \"2+2\", got an integer" },
	{ ALLOW "{\"names\": [\"write\"], \"action\": \"SYSWARD_ACT_SKIP\", \"log\": \"yes\"}" END,
	  "t.json:1:105: syscalls[0].log: expected true or false, got a string" },
	/* includes / excludes */
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"caps\": [\"CAP_SYS_ADMN\"]}}" END,
	  "t.json:1:118: syscalls[0].includes.caps[0]: unknown capability \"CAP_SYS_ADMN\" (did you mean \"CAP_SYS_ADMIN\"?)" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"caps\": [\"root\"]}}" END,
	  "t.json:1:118: syscalls[0].includes.caps[0]: unknown capability \"root\" (expected a name such as \"CAP_SYS_ADMIN\")" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"excludes\": {\"arches\": [\"amd46\"]}}" END,
	  "t.json:1:120: syscalls[0].excludes.arches[0]: unknown architecture \"amd46\" (did you mean \"amd64\"?)" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"arches\": [\"pdp11\"]}}" END,
	  "t.json:1:120: syscalls[0].includes.arches[0]: unknown architecture \"pdp11\" (expected Docker's spelling: amd64, x86, x32, arm64, arm, ppc64le, s390x, riscv64, ...)" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"minKernel\": \"four\"}}" END,
	  "t.json:1:122: syscalls[0].includes.minKernel: cannot parse kernel version \"four\" (expected \"MAJOR.MINOR\", e.g. \"4.8\")" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"minKernel\": 4.8}}" END,
	  "t.json:1:122: syscalls[0].includes.minKernel: expected a string, got a fractional number" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"capabilities\": []}}" END,
	  "t.json:1:109: syscalls[0].includes: unknown key \"capabilities\" (expected one of caps, arches, minKernel)" },
	{ ALLOW "{\"names\": [\"mount\"], \"action\": \"SCMP_ACT_ALLOW\", \"comment\": 1}" END,
	  "t.json:1:107: syscalls[0].comment: expected a string, got an integer" },
};

START_TEST(test_invalid)
{
	const struct invalid_case *c = &invalid_cases[_i];
	struct sw_policy *p = (struct sw_policy *)0x1;
	struct sw_error err = { 0 };
	int r = sw_policy_load_string(c->json, strlen(c->json), "t.json", &p,
				      &err);

	ck_assert_msg(r == -EINVAL, "case %d: returned %d, want -EINVAL (%s)\n%s",
		      _i, r, err.msg, c->json);
	ck_assert_int_eq(err.code, EINVAL);
	ck_assert_msg(p == (struct sw_policy *)0x1, "ret touched on failure");
	ck_assert_msg(strcmp(err.msg, c->msg) == 0,
		      "case %d:\n got: %s\nwant: %s", _i, err.msg, c->msg);
}
END_TEST

/* ------------------------------------------------------------------ */
/* limits on what an author controls */

static char *repeat(const char *head, const char *item, size_t n,
		    const char *sep, const char *tail)
{
	size_t len = strlen(head) + n * (strlen(item) + strlen(sep)) +
		     strlen(tail) + 1;
	char *s = malloc(len), *q = s;

	ck_assert_ptr_nonnull(s);
	q = stpcpy(q, head);
	for (size_t i = 0; i < n; i++) {
		if (i)
			q = stpcpy(q, sep);
		q = stpcpy(q, item);
	}
	strcpy(q, tail);
	return s;
}

static void expect_error(const char *json, size_t len, int code,
			 const char *msg)
{
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };
	int r = sw_policy_load_string(json, len, "t.json", &p, &err);

	ck_assert_int_eq(r, -code);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err.msg, msg);
}

START_TEST(test_limits)
{
	char *s;

	s = repeat(ALLOW, "{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"}",
		   4097, ",", END);
	expect_error(s, strlen(s), EINVAL,
		     "t.json:1:46: syscalls: 4097 rules, at most 4096 are allowed");
	free(s);

	s = repeat(ALLOW "{\"action\":\"SCMP_ACT_ALLOW\",\"names\":[", "\"read\"",
		   1025, ",", "]}" END);
	expect_error(s, strlen(s), EINVAL,
		     "t.json:1:82: syscalls[0].names: 1025 entries, at most 1024 are allowed");
	free(s);

	s = repeat(ALLOW "{\"action\":\"SCMP_ACT_ALLOW\",\"names\":[\"", "r", 65,
		   "", "\"]}" END);
	expect_error(s, strlen(s), EINVAL,
		     "t.json:1:83: syscalls[0].names[0]: string is longer than 64 bytes");
	free(s);

	s = repeat(ALLOW "{\"action\":\"SCMP_ACT_ERRNO\",\"names\":[\"openat\"],\"paths\":[{\"index\":1,\"prefix\":\"",
		   "a", 4096, "", "\"}]}" END);
	expect_error(s, strlen(s), EINVAL,
		     "t.json:1:122: syscalls[0].paths[0].prefix: string is longer than 4095 bytes");
	free(s);

	s = repeat("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"comment\":\"", "x",
		   1 << 20, "", "\"}");
	expect_error(s, strlen(s), EFBIG,
		     "t.json: policy is 1048623 bytes, larger than the 1048576 byte limit (--policy-max-bytes BYTES or SYSWARD_POLICY_MAX_BYTES=BYTES raises it, up to 67108864)");
	/* a caller may raise it, up to the bound */
	free(s);
	s = repeat("{\"defaultAction\":\"SCMP_ACT_ALLOW\"", " ", 1 << 20, "", "}");
	{
		struct sw_policy_load_opts o = { .max_bytes = 2u << 20 };
		struct sw_policy *p = NULL;
		struct sw_error err = { 0 };

		ck_assert_int_eq(sw_policy_load_string_opts(s, strlen(s), "t.json", &o,
							    &p, &err), 0);
		sw_policy_free(p);
		o.max_bytes = 1000;
		ck_assert_int_eq(sw_policy_load_string_opts(s, strlen(s), "t.json", &o,
							    &p, &err), -EFBIG);
		ck_assert_str_eq(err.msg, "t.json: policy is 1048610 bytes, larger than the 1000 byte limit (--policy-max-bytes BYTES or SYSWARD_POLICY_MAX_BYTES=BYTES raises it, up to 67108864)");
		o.max_bytes = SIZE_MAX;
		ck_assert_int_eq(sw_policy_load_string_opts(s, (64u << 20) + 1, "t.json", &o,
							    &p, &err), -EFBIG);
		ck_assert_str_eq(err.msg, "t.json: policy is 67108865 bytes, larger than 67108864 bytes, the most sysward reads");
	}
	free(s);

	{
		char buf[2048], *q = buf;

		q += sprintf(q, "{");
		for (int i = 0; i < 65; i++)
			q += sprintf(q, "%s\"k%02d\":1", i ? "," : "", i);
		sprintf(q, "}");
		expect_error(buf, strlen(buf), EINVAL,
			     "t.json:1:514: object has more than 64 keys");
	}

	/* Each unknown name costs lookups on every architecture: bounded. */
	s = repeat(ALLOW "{\"action\":\"SCMP_ACT_ALLOW\",\"names\":[", "\"nosuchcall\"",
		   257, ",", "]}" END);
	expect_error(s, strlen(s), EINVAL,
		     "t.json:1:3411: syscalls[0].names[256]: more than 256 unknown system call names; is this a seccomp policy?");
	free(s);

	/* A NUL byte anywhere: C strings in the tracee cannot hold it and a
	 * truncated policy must not pass for a whole one. */
	expect_error("{\"defaultAction\":\"SCMP_ACT_ALLOW\"}\0junk", 39,
		     EINVAL, "t.json:1:35: NUL byte in policy");
}
END_TEST

/* ------------------------------------------------------------------ */
/* includes / excludes, Docker's semantics */

struct gate_case {
	const char *gate;	/* JSON members of the rule */
	uint64_t caps;
	uint32_t arch;
	unsigned int kernel;
	bool applies;
};

static const struct gate_case gate_cases[] = {
	{ "", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"includes\":{}", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"excludes\":{}", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	/* includes.caps: all listed caps must be held */
	{ "\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", 0, SCMP_ARCH_X86_64, KV(6, 1), false },
	{ "\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", CAP(SYS_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_NET_ADMIN\"]}", CAP(SYS_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), false },
	{ "\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_NET_ADMIN\"]}", CAP(SYS_ADMIN) | CAP(NET_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"includes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", CAP(SYS_ADMIN) | CAP(SYS_PTRACE), SCMP_ARCH_X86_64, KV(6, 1), true },
	/* excludes.caps: any listed cap held -> ignored */
	{ "\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", CAP(SYS_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), false },
	{ "\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\",\"CAP_NET_ADMIN\"]}", CAP(NET_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), false },
	{ "\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", CAP(NET_ADMIN), SCMP_ARCH_X86_64, KV(6, 1), true },
	/* arches: the native arch, in Docker's spelling */
	{ "\"includes\":{\"arches\":[\"amd64\",\"x32\"]}", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"includes\":{\"arches\":[\"amd64\",\"x32\"]}", 0, SCMP_ARCH_X86, KV(6, 1), false },
	{ "\"includes\":{\"arches\":[\"arm\",\"arm64\"]}", 0, SCMP_ARCH_AARCH64, KV(6, 1), true },
	{ "\"includes\":{\"arches\":[\"mipsle\"]}", 0, SCMP_ARCH_MIPSEL, KV(6, 1), true },
	{ "\"excludes\":{\"arches\":[\"s390\",\"s390x\"]}", 0, SCMP_ARCH_X86_64, KV(6, 1), true },
	{ "\"excludes\":{\"arches\":[\"s390\",\"s390x\"]}", 0, SCMP_ARCH_S390X, KV(6, 1), false },
	/* minKernel */
	{ "\"includes\":{\"minKernel\":\"4.8\"}", 0, SCMP_ARCH_X86_64, KV(4, 7) + 200, false },
	{ "\"includes\":{\"minKernel\":\"4.8\"}", 0, SCMP_ARCH_X86_64, KV(4, 8), true },
	{ "\"includes\":{\"minKernel\":\"4.8\"}", 0, SCMP_ARCH_X86_64, KV(6, 18), true },
	{ "\"excludes\":{\"minKernel\":\"5.4\"}", 0, SCMP_ARCH_X86_64, KV(5, 3), true },
	{ "\"excludes\":{\"minKernel\":\"5.4\"}", 0, SCMP_ARCH_X86_64, KV(5, 4), false },
	/* Docker's s390 clone rule: both gates */
	{ "\"includes\":{\"arches\":[\"s390\",\"s390x\"]},\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", 0, SCMP_ARCH_S390X, KV(6, 1), true },
	{ "\"includes\":{\"arches\":[\"s390\",\"s390x\"]},\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", CAP(SYS_ADMIN), SCMP_ARCH_S390X, KV(6, 1), false },
	{ "\"includes\":{\"arches\":[\"s390\",\"s390x\"]},\"excludes\":{\"caps\":[\"CAP_SYS_ADMIN\"]}", 0, SCMP_ARCH_X86_64, KV(6, 1), false },
};

START_TEST(test_gates)
{
	const struct gate_case *c = &gate_cases[_i];
	char json[512];
	struct sw_policy *p;
	struct sw_policy_ctx ctx = {
		.caps = c->caps, .arch = c->arch, .kernel = c->kernel,
	};

	snprintf(json, sizeof(json),
		 ALLOW "{\"names\":[\"clone\"],\"action\":\"SCMP_ACT_ALLOW\"%s%s}" END,
		 *c->gate ? "," : "", c->gate);
	p = load_ok(json);
	ck_assert_msg(sw_rule_applies(&p->rules[0], &ctx) == c->applies,
		      "case %d: %s: want %s", _i, c->gate,
		      c->applies ? "applies" : "ignored");
	sw_policy_free(p);
}
END_TEST

START_TEST(test_error_location)
{
	static const char syntax[] = "{\"defaultAction\":\n  \"SCMP_ACT_ALLOW\",}";
	static const char meaning[] = ALLOW "{\"names\": [\"read\"], \"action\": \"SCMP_ACT_NOPE\"}" END;
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_policy_load_string(syntax, strlen(syntax), "t.json", &p, &err), -EINVAL);
	ck_assert_uint_eq(err.line, 2);
	ck_assert_uint_eq(err.col, 19);	/* the trailing comma */
	ck_assert_str_eq(err.path, "");
	ck_assert_int_eq(sw_policy_load_string(meaning, strlen(meaning), "t.json", &p, &err), -EINVAL);
	ck_assert_uint_eq(err.line, 1);
	ck_assert_uint_eq(err.col, 77);	/* the action's value */
	ck_assert_str_eq(err.path, "syscalls[0].action");
	/* a later error of another kind clears them */
	sw_error_set(&err, ENOENT, "x");
	ck_assert_str_eq(err.path, "");
	/* warnings carry their paths, in order */
	ck_assert_int_eq(sw_policy_load_string(ALLOW "{\"names\": [\"read\", \"getuidd\"], \"action\": \"SCMP_ACT_ALLOW\"}" END,
					       strlen(ALLOW "{\"names\": [\"read\", \"getuidd\"], \"action\": \"SCMP_ACT_ALLOW\"}" END),
					       "t.json", &p, &err), 0);
	ck_assert_uint_eq(p->n_warnings, 1);
	ck_assert_str_eq(p->warning_paths[0], "syscalls[0].names[1]");
	ck_assert_ptr_null(p->warning_paths[1]);
	sw_policy_free(p);
}
END_TEST

/* Every error of a policy, in text order, bounded: the next rule, the
 * next name, the next top-level key and the next field go on after one;
 * the first is also err's.  Without the list, only the first. */
START_TEST(test_every_error)
{
	static const char json[] =
		"{\"defaultAction\": \"SCMP_ACT_ALOW\", \"sycalls\": [],\n"
		" \"syscalls\": [\n"
		"  {\"names\": [\"reed\", \"write\", \"opne\"], \"action\": \"SCMP_ACT_ERRNO\"},\n"
		"  {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},\n"
		"  {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"comment\": 1, \"log\": 2},\n"
		"  {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\",\n"
		"   \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"},]}]}";
	static const char *const want[] = {
		"t.json:1:36: unknown key \"sycalls\" (did you mean \"syscalls\"?)",
		"t.json:1:19: defaultAction: unknown action \"SCMP_ACT_ALOW\" (did you mean \"SCMP_ACT_ALLOW\"?)",
		"t.json:3:14: syscalls[0].names[0]: unknown system call \"reed\" (did you mean \"read\"?)",
		"t.json:3:31: syscalls[0].names[2]: unknown system call \"opne\" (did you mean \"open\"?)",
		"t.json:5:72: syscalls[2].log: expected true or false, got an integer",
		"t.json:5:62: syscalls[2].comment: expected a string, got an integer",
	};
	struct sw_error errors[4] = { 0 }, err = { 0 };
	struct sw_policy_load_opts o = { .errors = errors, .max_errors = 4 };
	struct sw_policy *p = NULL;
	char *text = strdup(json), *comma;

	/* the trailing comma at the end stops the parse before any of them */
	ck_assert_int_eq(sw_policy_load_string_opts(text, strlen(text), "t.json", &o,
						    &p, &err), -EINVAL);
	ck_assert_uint_eq(o.n_errors, 1);
	ck_assert_str_eq(errors[0].msg, "t.json:7:58: trailing comma after the last element of the array (JSON allows none): remove it");
	comma = strstr(text, "},]");
	comma[1] = ' ';
	o.n_errors = o.n_more = 0;
	ck_assert_int_eq(sw_policy_load_string_opts(text, strlen(text), "t.json", &o,
						    &p, &err), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_uint_eq(o.n_errors, 4);
	ck_assert_uint_eq(o.n_more, 2);
	for (size_t i = 0; i < 4; i++)
		ck_assert_msg(strcmp(errors[i].msg, want[i]) == 0,
			      "error %zu:\n got: %s\nwant: %s", i, errors[i].msg, want[i]);
	ck_assert_str_eq(err.msg, want[0]);
	ck_assert_uint_eq(errors[3].line, 3);
	ck_assert_uint_eq(errors[3].col, 31);
	ck_assert_str_eq(errors[3].path, "syscalls[0].names[2]");
	/* room for all of them */
	{
		struct sw_error all[10];
		struct sw_policy_load_opts o2 = { .errors = all, .max_errors = 10 };

		ck_assert_int_eq(sw_policy_load_string_opts(text, strlen(text), "t.json",
							    &o2, &p, &err), -EINVAL);
		ck_assert_uint_eq(o2.n_errors, 6);
		ck_assert_uint_eq(o2.n_more, 0);
		for (size_t i = 0; i < 6; i++)
			ck_assert_msg(strcmp(all[i].msg, want[i]) == 0,
				      "error %zu:\n got: %s\nwant: %s", i, all[i].msg, want[i]);
	}
	/* without a list: the first, as sw_policy_load_string says it */
	ck_assert_int_eq(sw_policy_load_string(text, strlen(text), "t.json", &p, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, want[0]);
	free(text);
}
END_TEST

/* Problems of meaning carry the line and column of what they are about,
 * as the JSON path names it, in the message and in the error object;
 * warnings too; and a caller locates its own findings the same way. */
struct where_case {
	const char *json;
	unsigned int line, col;
	const char *msg;
};

#define HEAD "{\n  \"defaultAction\": \"SCMP_ACT_ALLOW\",\n  \"syscalls\": [\n"
static const struct where_case where_cases[] = {
	/* a value deep in the second rule */
	{ HEAD "    {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},\n"
	  "    {\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\",\n"
	  "     \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"},\n"
	  "              {\"index\": 1, \"value\": 2, \"op\": \"SCMP_CMP_EQUAL\"}]}]}",
	  7, 46, "t.json:7:46: syscalls[1].args[1].op: unknown operator \"SCMP_CMP_EQUAL\" (expected one of SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ)" },
	/* an unknown key: at the key, not at its object */
	{ HEAD "    {\"names\": [\"read\"],\n     \"acton\": \"SCMP_ACT_ALLOW\"}]}",
	  5, 6, "t.json:5:6: syscalls[0]: unknown key \"acton\" (did you mean \"action\"?)" },
	/* a missing key: its object */
	{ HEAD "    {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},\n    {\"names\": [\"read\"]}]}",
	  5, 5, "t.json:5:5: syscalls[1].action: missing (e.g. \"SCMP_ACT_ERRNO\")" },
	/* a name in a list */
	{ HEAD "    {\"names\": [\"read\",\n               \"wirte\"], \"action\": \"SCMP_ACT_ERRNO\"}]}",
	  5, 16, "t.json:5:16: syscalls[0].names[1]: unknown system call \"wirte\" (did you mean \"write\"?)" },
	/* a top-level value, after a long first line */
	{ "{\"comment\": \"a\\\"b\",\n \"defaultAction\": \"SCMP_ACT_NOPE\"}",
	  2, 19, "t.json:2:19: defaultAction: unknown action \"SCMP_ACT_NOPE\" (expected one of SCMP_ACT_ALLOW, SCMP_ACT_ERRNO, SCMP_ACT_KILL_PROCESS, SCMP_ACT_KILL_THREAD, SCMP_ACT_KILL, SCMP_ACT_TRAP, SCMP_ACT_LOG, SYSWARD_ACT_SKIP, SYSWARD_ACT_EMULATE, SYSWARD_ACT_REWRITE, SYSWARD_ACT_LOG)" },
};

START_TEST(test_meaning_location)
{
	const struct where_case *c = &where_cases[_i];
	struct sw_policy *p = NULL;
	struct sw_error err = { 0 };

	ck_assert_int_eq(sw_policy_load_string(c->json, strlen(c->json), "t.json",
					       &p, &err), -EINVAL);
	ck_assert_msg(strcmp(err.msg, c->msg) == 0, "case %d:\n got: %s\nwant: %s",
		      _i, err.msg, c->msg);
	ck_assert_uint_eq(err.line, c->line);
	ck_assert_uint_eq(err.col, c->col);
}
END_TEST

START_TEST(test_warning_location)
{
	static const char json[] = HEAD
		"    {\"names\": [\"read\",\n"
		"               \"getuidd\"], \"action\": \"SCMP_ACT_ALLOW\"}]}";
	struct sw_policy_text *t = NULL;
	struct sw_policy *p = load_ok(json);
	unsigned int line, col;

	ck_assert_uint_eq(p->n_warnings, 1);
	ck_assert_str_eq(p->warnings[0],
			 "t.json:5:16: syscalls[0].names[1]: unknown system call \"getuidd\" ignored (did you mean \"getuid\"?)");
	ck_assert_uint_eq(p->warning_pos[0].line, 5);
	ck_assert_uint_eq(p->warning_pos[0].col, 16);
	sw_policy_free(p);
	/* a caller's own finding, the same way */
	ck_assert_int_eq(sw_policy_text_index(json, strlen(json), &t), 0);
	sw_policy_text_locate(t, "syscalls[0].names", false, &line, &col);
	ck_assert_uint_eq(line, 4);
	ck_assert_uint_eq(col, 15);
	sw_policy_text_locate(t, "syscalls[0].action", true, &line, &col);
	ck_assert_uint_eq(line, 5);
	ck_assert_uint_eq(col, 28);
	sw_policy_text_locate(t, "syscalls[7]", false, &line, &col);
	ck_assert_uint_eq(line, 3);	/* no such rule: the list */
	ck_assert_uint_eq(col, 15);
	sw_policy_text_free(t);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_valid, 0, (int)N_ELEMENTS(valid_cases));
	tcase_add_test(tc, test_valid_strings);
	tcase_add_test(tc, test_warnings_text);
	tcase_add_test(tc, test_io_uring_warning);
	tcase_add_loop_test(tc, test_invalid, 0, (int)N_ELEMENTS(invalid_cases));
	tcase_add_test(tc, test_limits);
	tcase_add_loop_test(tc, test_gates, 0, (int)N_ELEMENTS(gate_cases));
	policy_file_tests(tc);
	tcase_add_test(tc, test_error_location);
	tcase_add_loop_test(tc, test_meaning_location, 0,
			    (int)N_ELEMENTS(where_cases));
	tcase_add_test(tc, test_warning_location);
	tcase_add_test(tc, test_every_error);
	policy_lint_tests(tc);
	policy_fs_tests(tc);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return sw_check_run(policy_suite());
}
