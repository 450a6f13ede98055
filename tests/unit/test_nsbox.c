// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own namespaces (engine/contain/nsbox.c, route 16c): what the
 * plan mounts anew, makes read-only and unshares, from mount tables as a
 * hybrid host (this one), a pure cgroup2 systemd host and a container lay
 * them out, for root and other uids, with and without a terminal among
 * the program's standard streams, on kernels with and without cgroup
 * and IPC namespaces; and the views of its own that gives the session
 * (SW_CONTAINED_*, objects.c's switch).  Pure: the table is a file,
 * nothing is mounted.
 * Also the mount table's own questions (engine/contain/mountinfo.c).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "check_run.h"
#include "contain/nsbox.h"

#define ROOT	"480 1 0:50 / / rw,relatime - ext4 /dev/vda rw\n"
#define PROC	"500 480 0:60 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
#define SYS	"510 480 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
#define DEV	"520 480 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs devtmpfs rw,size=10k,mode=755\n"
#define PTS	"521 520 0:24 / /dev/pts rw,nosuid,noexec,relatime shared:3 - devpts devpts rw,gid=5,mode=620,ptmxmode=000\n"
#define SHM	"522 520 0:23 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,size=65536k,inode64\n"
#define MQ	"523 520 0:19 / /dev/mqueue rw,nosuid,nodev,noexec,relatime shared:14 - mqueue mqueue rw\n"

/* This host (Debian 12 VM): v1 controllers beneath a tmpfs, cgroup2 at
 * unified, /dev/shm and /dev/pts each mounted twice on one path. */
#define HYBRID ROOT PROC SYS DEV \
	"530 510 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" \
	"531 530 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,cpu,cpuacct\n" \
	"532 530 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" \
	"533 530 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,release_agent=/lib/systemd/systemd-cgroups-agent,name=systemd\n" \
	"534 530 0:38 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n" \
	"540 520 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24683772k\n" \
	"541 540 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=1024k\n" \
	"542 520 0:24 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=000\n" \
	"543 542 0:26 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=000\n"

/* What the plan mounts anew there: the v1 ones by what names them, the
 * top of each stack. */
#define HYBRID_MOUNTS \
	"cgroup:/sys/fs/cgroup/cpu,cpuacct ro cpu,cpuacct; " \
	"cgroup:/sys/fs/cgroup/memory ro memory; " \
	"cgroup:/sys/fs/cgroup/systemd ro name=systemd; " \
	"cgroup2:/sys/fs/cgroup/unified; " \
	"tmpfs:/dev/shm size=1024k,mode=1777; " \
	"devpts:/dev/pts mode=600,ptmxmode=0666"

/* A systemd host: cgroup2 alone at /sys/fs/cgroup, nsdelegate. */
#define PURE_V2 ROOT PROC SYS DEV PTS SHM MQ \
	"530 510 0:27 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"

/* The views of its own (SW_CONTAINED_*): its /proc and IPC namespace;
 * and its cgroup namespace; the kernel's settings read-only. */
#define C_PI	(SW_CONTAINED_PIDS | SW_CONTAINED_IPC)
#define C_NS	(C_PI | SW_CONTAINED_CGROUP)
#define C_SET	(SW_CONTAINED_SYSFS | SW_CONTAINED_SYSCTL)

enum { T_CGROUPNS = 1, T_IPCNS = 2, T_TERMINAL = 4, T_SHM_DIR = 8, T_MQUEUE = 16,
       T_USERNS_ROOT = 32 /* CAP_SYS_ADMIN not over the cgroup namespace */,
       T_GID_UNMAPPED = 64 /* gid_map "0 65534 1": gid 5 unmapped */ };

static const struct {
	const char *name, *table;
	uid_t uid;
	uint64_t caps;
	int kernel;		/* T_* */
	int r;			/* 0, or the -errno */
	const char *msg;	/* with r: the start of the message */
	int unshare;		/* CLONE_NEW* */
	const char *mounts;	/* "fstype:path[ ro][ opts]; ..." in order */
	const char *ro;		/* read-only mount points (not /proc's binds) */
	bool proc_ro;		/* /proc/sys among the binds */
	unsigned int contained;	/* SW_CONTAINED_*: objects.c's switch */
} cases[] = {
	{ "hybrid host, root: every cgroup mount again, v1 read-only; /sys and /proc/sys read-only",
	  HYBRID, 0, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  HYBRID_MOUNTS,
	  "/sys", true, C_NS | C_SET },
	{ "hybrid host, uid 1000: nothing read-only (root's files), the rest alike",
	  HYBRID, 1000, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  HYBRID_MOUNTS,
	  "", false, C_NS },
	{ "uid 1000 keeping a capability: read-only as root",
	  PURE_V2, 1000, 1ull << 12, T_CGROUPNS | T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  "devpts:/dev/pts gid=5,mode=620,ptmxmode=0666; "
	  "tmpfs:/dev/shm size=65536k,mode=1777; "
	  "mqueue:/dev/mqueue; "
	  "cgroup2:/sys/fs/cgroup",
	  "/sys", true, C_NS | C_SET },
	{ "a terminal among its standard streams: the launcher's devpts stays",
	  PURE_V2, 1000, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE | T_TERMINAL, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  "tmpfs:/dev/shm size=65536k,mode=1777; "
	  "mqueue:/dev/mqueue; "
	  "cgroup2:/sys/fs/cgroup",
	  "", false, C_NS },
	{ "no cgroup namespaces in the kernel: no cgroup, no cgroup mount",
	  PURE_V2, 1000, 0, T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "devpts:/dev/pts gid=5,mode=620,ptmxmode=0666; "
	  "tmpfs:/dev/shm size=65536k,mode=1777; "
	  "mqueue:/dev/mqueue",
	  "", false, C_PI },
	{ "root of a user namespace only: no cgroup, as an unprivileged launcher",
	  PURE_V2, 0, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE | T_USERNS_ROOT, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "devpts:/dev/pts gid=5,mode=620,ptmxmode=0666; "
	  "tmpfs:/dev/shm size=65536k,mode=1777; "
	  "mqueue:/dev/mqueue",
	  "/sys", true, C_PI | C_SET },
	{ "root of a user namespace mapping no tty group: devpts without gid=",
	  PURE_V2, 0, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE | T_USERNS_ROOT | T_GID_UNMAPPED, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "devpts:/dev/pts mode=620,ptmxmode=0666; "
	  "tmpfs:/dev/shm size=65536k,mode=1777; "
	  "mqueue:/dev/mqueue",
	  "/sys", true, C_PI | C_SET },
	{ "no IPC namespaces but POSIX message queues: refused",
	  PURE_V2, 1000, 0, T_CGROUPNS | T_MQUEUE, -EOPNOTSUPP,
	  "the running kernel has System V IPC or POSIX message queues but no IPC namespaces",
	  0, NULL, NULL, false, 0 },
	{ "/dev/shm no mount point: a tmpfs there all the same",
	  ROOT PROC DEV, 1000, 0, T_IPCNS | T_SHM_DIR, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "tmpfs:SHM_DIR mode=1777", "", false, C_PI },
	{ "something mounted over /sys/fs/cgroup: what it hid stays hidden",
	  ROOT PROC SYS
	  "530 510 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
	  "531 510 0:40 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
	  "532 530 0:41 / /sys/fs/cgroup/x rw - mqueue mqueue rw\n",
	  1000, 0, T_CGROUPNS | T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  "", "", false, C_NS },
	{ "a read-only cgroup2 mount (a container's) stays read-only",
	  ROOT PROC SYS
	  "530 510 0:27 / /sys/fs/cgroup ro,nosuid,nodev,noexec - cgroup2 cgroup2 rw\n",
	  1000, 0, T_CGROUPNS | T_IPCNS, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP,
	  "cgroup2:/sys/fs/cgroup ro", "", false, C_NS },
	{ "an initramfs (rootfs, its own parent, as a VM guest boots): every mount seen",
	  "1 1 0:2 / / rw - rootfs rootfs rw,size=2009080k\n"
	  "13 1 0:20 / /proc rw,relatime - proc proc rw\n"
	  "14 1 0:21 / /sys rw,relatime - sysfs sysfs rw\n"
	  "15 1 0:5 / /dev rw,relatime - devtmpfs devtmpfs rw,size=10k,mode=755\n"
	  "16 1 0:22 / /tmp rw,relatime - tmpfs tmpfs rw\n"
	  "17 15 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw\n"
	  "18 15 0:24 / /dev/pts rw,relatime - devpts devpts rw,mode=600,ptmxmode=666\n",
	  0, 0, T_IPCNS | T_MQUEUE, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "tmpfs:/dev/shm mode=1777; devpts:/dev/pts mode=600,ptmxmode=0666",
	  "/sys", true, C_PI | C_SET },
	{ "root, debugfs mounted outside /sys: the kernel's settings not all read-only",
	  ROOT PROC SYS
	  "550 480 0:70 / /debug rw,relatime - debugfs debugfs rw\n",
	  0, 0, T_IPCNS, 0, NULL,
	  CLONE_NEWNS | CLONE_NEWIPC,
	  "", "/sys", true, C_PI },
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The plan in the cases' words (the test's own /dev/shm is SHM_DIR). */
static void render(const struct sw_nsbox *p, const char *shm, char *mounts,
		   size_t n1, char *ro, size_t n2, bool *proc_ro)
{
	mounts[0] = ro[0] = '\0';
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct sw_nsbox_mount *m = &p->mounts[i];
		size_t l = strlen(mounts);

		snprintf(mounts + l, n1 - l, "%s%s:%s%s%s", i ? "; " : "", m->fstype,
			 strcmp(m->path, shm) ? m->path : "SHM_DIR",
			 m->attr & MOUNT_ATTR_RDONLY ? " ro" : "",
			 m->n_opts ? " " : "");
		for (size_t k = 0; k < m->n_opts; k++) {
			l = strlen(mounts);
			snprintf(mounts + l, n1 - l, "%s%s", k ? "," : "", m->opts[k]);
		}
	}
	*proc_ro = false;
	for (size_t i = 0; i < p->n_ro; i++) {
		size_t l = strlen(ro);

		if (p->ro[i].bind) {
			*proc_ro |= !strcmp(p->ro[i].path, "/proc/sys");
			continue;
		}
		snprintf(ro + l, n2 - l, "%s%s", l ? " " : "", p->ro[i].path);
	}
}

START_TEST(test_plan)
{
	char dir[] = "/tmp/sw-nsbox-XXXXXX", path[256], ns[256], fs[256], shm[256], gmap[256];
	char mounts[2048], ro[512];
	struct sw_mnt_table t = { 0 };
	struct sw_nsbox p = { 0 };
	struct sw_error err = { 0 };
	int kernel = cases[_i].kernel, term = -1, r;
	bool proc_ro;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/mountinfo", dir);
	snprintf(ns, sizeof(ns), "%s/ns", dir);
	snprintf(fs, sizeof(fs), "%s/filesystems", dir);
	snprintf(shm, sizeof(shm), "%s/shm", dir);
	snprintf(gmap, sizeof(gmap), "%s/gid_map", dir);
	write_file(gmap, kernel & T_GID_UNMAPPED ? "         0      65534          1\n"
						: "         0          0 4294967295\n");
	write_file(path, cases[_i].table);
	mkdir(ns, 0700);
	mkdir(shm, 0700);
	write_file(fs, kernel & T_MQUEUE ? "nodev\tcgroup2\nnodev\tmqueue\n" : "nodev\tcgroup2\n");
	{
		char f[300];

		snprintf(f, sizeof(f), "%s/ipc", ns);
		if (kernel & T_IPCNS)
			write_file(f, "");
		snprintf(f, sizeof(f), "%s/cgroup", ns);
		if (kernel & T_CGROUPNS)
			write_file(f, "");
	}
	if (kernel & T_TERMINAL) {
		int m = posix_openpt(O_RDWR | O_NOCTTY);

		if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
		    (term = open(ptsname(m), O_RDWR | O_NOCTTY)) < 0) {
			fprintf(stderr, "%s: no pseudo-terminal here, the case is skipped\n", cases[_i].name);
			return;
		}
	}
	{
		struct sw_nsbox_ctx ctx = {
			.uid = cases[_i].uid, .gid = cases[_i].uid, .caps = cases[_i].caps,
			.fds = { -1, term, -1, -1 }, .filesystems = fs, .ns_dir = ns, .gid_map = gmap,
			.shm_dir = kernel & T_SHM_DIR ? shm : NULL,
			.no_cgroup_privilege = kernel & T_USERNS_ROOT,
		};

		ck_assert_int_eq(sw_mnt_table_read(path, &t, &err), 0);
		r = sw_nsbox_plan_table(&t, &ctx, &p, &err);
	}
	sw_mnt_table_free(&t);
	if (term >= 0)
		close(term);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		(void)!system(cmd);
	}
	ck_assert_msg(r == cases[_i].r, "%s: returned %d (%s), expected %d",
		      cases[_i].name, r, err.msg, cases[_i].r);
	if (r < 0) {
		ck_assert_msg(strncmp(err.msg, cases[_i].msg, strlen(cases[_i].msg)) == 0,
			      "%s: message \"%s\"", cases[_i].name, err.msg);
		return;
	}
	ck_assert_msg(p.on && p.unshare == cases[_i].unshare, "%s: unshare %#x, expected %#x",
		      cases[_i].name, p.unshare, cases[_i].unshare);
	ck_assert_msg(p.cg.on == !!(cases[_i].unshare & CLONE_NEWCGROUP) &&
		      (!p.cg.on || !strncmp(p.cg.name, "sysward-session-", 16)),
		      "%s: cgroup %d \"%s\"", cases[_i].name, p.cg.on, p.cg.name);
	ck_assert_msg(p.proc.n_proc == 1, "%s: %zu proc instances", cases[_i].name, p.proc.n_proc);
	render(&p, shm, mounts, sizeof(mounts), ro, sizeof(ro), &proc_ro);
	ck_assert_msg(!strcmp(mounts, cases[_i].mounts), "%s: mounts\n  \"%s\", expected\n  \"%s\"",
		      cases[_i].name, mounts, cases[_i].mounts);
	ck_assert_msg(!strcmp(ro, cases[_i].ro), "%s: read-only \"%s\", expected \"%s\"",
		      cases[_i].name, ro, cases[_i].ro);
	/* /proc/sys exists wherever these tests run (CONFIG_PROC_SYSCTL). */
	ck_assert_msg(proc_ro == cases[_i].proc_ro, "%s: /proc/sys read-only %d",
		      cases[_i].name, proc_ro);
	ck_assert_msg(p.contained == cases[_i].contained, "%s: contained %#x, expected %#x",
		      cases[_i].name, p.contained, cases[_i].contained);
	sw_nsbox_free(&p);
}
END_TEST

/* The mount table's questions: which mount a path walk reaches. */
START_TEST(test_visible)
{
	char path[] = "/tmp/sw-mnt-XXXXXX";
	struct sw_mnt_table t = { 0 };
	struct sw_error err = { 0 };
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	/* id: visible? */
	static const struct {
		int id;
		bool visible;
	} want[] = {
		{ 480, true },	/* the root */
		{ 500, false },	/* /a, covered by 501 */
		{ 501, false },	/* /a again, covered by 502 */
		{ 502, true },	/* the top of /a's stack */
		{ 503, false },	/* /a/b beneath 500: hidden by 501 over it */
		{ 504, true },	/* /a/c on the top: seen */
		{ 510, false },	/* /d/e, hidden by 511 over /d, later */
		{ 511, true },
		{ 512, false },	/* /f/g, hidden by 513 over /f beside it */
		{ 513, true },
	};

	ck_assert_ptr_nonnull(f);
	fputs("480 1 0:1 / / rw - ext4 a rw\n"
	      "500 480 0:2 / /a rw - tmpfs a rw\n"
	      "501 500 0:3 / /a rw - tmpfs a rw\n"
	      "502 501 0:4 / /a rw - tmpfs a rw\n"
	      "503 500 0:5 / /a/b rw - tmpfs a rw\n"
	      "504 502 0:6 / /a/c rw - tmpfs a rw\n"
	      "510 480 0:7 / /d/e rw - tmpfs a rw\n"
	      "511 480 0:8 / /d rw - tmpfs a rw\n"
	      "512 480 0:9 / /f/g rw - tmpfs a rw\n"
	      "513 480 0:10 / /f rw - tmpfs a rw\n", f);
	fclose(f);
	ck_assert_int_eq(sw_mnt_table_read(path, &t, &err), 0);
	unlink(path);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		for (size_t i = 0; i < t.n; i++)
			if (t.m[i].id == want[k].id)
				ck_assert_msg(sw_mnt_visible(&t, i) == want[k].visible,
					      "mount %d: visible %d", want[k].id, !want[k].visible);
	sw_mnt_table_free(&t);
}
END_TEST

START_TEST(test_option)
{
	const char *v;
	size_t len;

	ck_assert(sw_mnt_option("rw,size=10k,mode=1777", "size", &v, &len) && len == 3 &&
		  !strncmp(v, "10k", 3));
	ck_assert(sw_mnt_option("rw,cpu,cpuacct", "cpu", &v, &len) && len == 0);
	ck_assert(sw_mnt_option("rw,cpu,cpuacct", "cpuacct", &v, &len) && len == 0);
	ck_assert(!sw_mnt_option("rw,cpuacct", "cpu", NULL, NULL));
	ck_assert(!sw_mnt_option("rw,sizes=1", "size", NULL, NULL));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nsbox");
	TCase *tc = tcase_create("plan");

	tcase_add_loop_test(tc, test_plan, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_visible);
	tcase_add_test(tc, test_option);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
