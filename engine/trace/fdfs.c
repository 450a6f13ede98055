// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What file system an opened file is on, told from its mount's
 * superblock without a call into that file system where the kernel
 * allows (docs/security.md, route 13), and which file systems hold
 * kernel objects rather than the uid's data (fs_rules[], route 20):
 * read by objects.c's verdict on an open that can write and by
 * fscomplain.c, which judges no file a process serves.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "sys.h"
#include "decide/defences.h"
#include "trace/fdfs.h"

/* Magic numbers <linux/magic.h> of this libc's kernel headers may lack. */
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC		0x74726163
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC		0xcafe4a11
#endif
#ifndef EFIVARFS_MAGIC
#define EFIVARFS_MAGIC		0xde5e81e4
#endif
#ifndef PSTOREFS_MAGIC
#define PSTOREFS_MAGIC		0x6165676C
#endif
#define SW_CONFIGFS_MAGIC	0x62656570	/* fs/configfs/mount.c */
#define SW_FUSECTL_MAGIC	0x65735543	/* fs/fuse/control.c */
#define SW_FUSE_MAGIC		0x65735546	/* fs/fuse/inode.c */

/* What this libc's kernel headers lack (<linux/stat.h>, <linux/mount.h>
 * of 6.8, <linux/nsfs.h> of 6.11). */
#define SW_STATX_MNT_ID_UNIQUE	0x4000U
#define SW_STATMOUNT_SB_BASIC	0x1ULL
#define SW_NS_GET_MNTNS_ID	_IOR(0xb7, 0x5, uint64_t)

/* The head of struct statmount (<linux/mount.h>, 6.8): the rest is
 * strings and fields not read here. */
struct sw_statmount_head {
	uint32_t size, mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
};

/* Kernels before 6.8 (no unique mount id, no statmount), and a mount in
 * no namespace that fusectl does not name: statfs(2) and stat(2) of the
 * descriptor, which call into its file system (fs/fuse/inode.c
 * fuse_statfs() asks the FUSE server, and waits for it, when the caller
 * passes fuse_allow_current_process()): the documented limit of route
 * 13. */
static int fd_fs_asking(const char *path, unsigned long *ret_magic,
			struct stat *ret_st)
{
	struct statfs sfs;

	if (sw_sys_statfs(path, &sfs) < 0 || sw_sys_stat(path, ret_st) < 0)
		return -errno;
	*ret_magic = (unsigned long)sfs.f_type;
	return 0;
}

int sw_fd_fs(pid_t tid, int fd, unsigned long *ret_magic, struct stat *ret_st)
{
	char path[64];
	struct statx stx;
	union {
		struct sw_statmount_head h;
		uint64_t room[128];	/* struct statmount is 512 bytes */
	} sm;
	uint64_t ns_id;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", tid, fd);
	/* AT_STATX_DONT_SYNC: what the inode caches, no request to the
	 * file system (fs/fuse/dir.c fuse_update_get_attr(): sync false);
	 * the unique mount id is the VFS's (fs/stat.c vfs_statx_path()),
	 * and the walk through the magic link asks nothing either
	 * (fs/proc/fd.c proc_fd_link(), nd_jump_link()). */
	if (sw_sys_statx(path, AT_STATX_DONT_SYNC,
			 STATX_TYPE | STATX_MODE | STATX_INO | SW_STATX_MNT_ID_UNIQUE, &stx) < 0)
		return -errno;
	if (!(stx.stx_mask & SW_STATX_MNT_ID_UNIQUE))
		return fd_fs_asking(path, ret_magic, ret_st);
	/* statmount(2) reads the superblock's s_magic (fs/namespace.c
	 * statmount_sb_basic()): no call into the file system.  The mount
	 * is looked up in our mount namespace, then in the tracee's: a
	 * unique id is never reused, so a hit is that mount.  Another
	 * namespace's takes CAP_SYS_ADMIN over its user namespace, which
	 * its creator's uid has (a same-uid supervisor) and root has. */
	r = sw_sys_statmount(stx.stx_mnt_id, 0, SW_STATMOUNT_SB_BASIC, &sm, sizeof(sm));
	if (r < 0 && errno == ENOENT) {
		cleanup_close int nfd = -1;

		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", tid);
		nfd = sw_sys_open(path, O_RDONLY | O_CLOEXEC);
		errno = ENOENT;
		if (nfd >= 0 && sw_sys_ioctl_u64(nfd, SW_NS_GET_MNTNS_ID, &ns_id) == 0)
			r = sw_sys_statmount(stx.stx_mnt_id, ns_id, SW_STATMOUNT_SB_BASIC, &sm,
					     sizeof(sm));
	}
	memset(ret_st, 0, sizeof(*ret_st));
	ret_st->st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	ret_st->st_ino = (ino_t)stx.stx_ino;
	ret_st->st_mode = stx.stx_mode;
	if (r < 0 && errno == ENOENT) {
		/* A mount in no namespace: the kernel's own (mq_open's queue,
		 * a memfd, a pipe: kern_mount()) or a detached one (open_tree,
		 * fsmount, a lazy umount), which may be FUSE.  fusectl names
		 * every FUSE connection by its superblock's device
		 * (fs/fuse/control.c fuse_ctl_add_conn()): a FUSE file is
		 * told without a call; anything else is asked. */
		char conn[64];
		struct stat cst;

		snprintf(conn, sizeof(conn), "/sys/fs/fuse/connections/%u", stx.stx_dev_minor);
		if (stx.stx_dev_major == 0 && sw_sys_stat(conn, &cst) == 0) {
			*ret_magic = SW_FUSE_MAGIC;
			return 0;
		}
		r = -1;
		errno = ENOSYS;
	}
	if (r < 0 && errno == ENOSYS) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", tid, fd);
		return fd_fs_asking(path, ret_magic, ret_st);
	}
	if (r < 0)
		return -errno;
	if (!(sm.h.mask & SW_STATMOUNT_SB_BASIC))
		return -EIO;
	*ret_magic = (unsigned long)sm.h.sb_magic;
	return 0;
}

bool sw_fs_served_by_user(unsigned long magic)
{
	/* FUSE (fuse and fuseblk): its every request waits for a process,
	 * which a session may be (fuse is FS_USERNS_MOUNT). */
	return magic == SW_FUSE_MAGIC;
}

/*
 * The file systems whose files are kernel objects rather than the uid's
 * data, and which of the session's own views (SW_CONTAINED_*) makes them
 * its own.  Everything else (ext4, tmpfs, ...) is the uid's files: the
 * policy's path rules and the file system's permissions decide (route 16
 * says why the file system is not this defence's).
 */
static const struct sw_kobjfs fs_rules[] = {
	{ PROC_SUPER_MAGIC, "procfs", SW_FS_PROC, 0,
	  "a write to a /proc file of no process of the session (another process's, a sysctl) refused" },
	{ CGROUP_SUPER_MAGIC, "cgroup", SW_FS_KERNEL, SW_CONTAINED_CGROUP,
	  "a write to cgroupfs refused: its cgroups are shared with processes outside the session" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2", SW_FS_KERNEL, SW_CONTAINED_CGROUP,
	  "a write to cgroupfs refused: its cgroups are shared with processes outside the session" },
	{ SYSFS_MAGIC, "sysfs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to sysfs refused" },
	{ DEBUGFS_MAGIC, "debugfs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to debugfs refused" },
	{ TRACEFS_MAGIC, "tracefs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to tracefs refused" },
	{ SECURITYFS_MAGIC, "securityfs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to securityfs refused" },
	{ SW_CONFIGFS_MAGIC, "configfs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to configfs refused" },
	{ BPF_FS_MAGIC, "bpf", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to the bpf file system refused" },
	{ EFIVARFS_MAGIC, "efivarfs", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to efivarfs refused" },
	{ PSTOREFS_MAGIC, "pstore", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to pstore refused" },
	{ BINFMTFS_MAGIC, "binfmt_misc", SW_FS_KERNEL, SW_CONTAINED_SYSCTL,
	  "a write to binfmt_misc refused" },
	{ SW_FUSECTL_MAGIC, "fusectl", SW_FS_KERNEL, SW_CONTAINED_SYSFS,
	  "a write to fusectl refused: it aborts the uid's FUSE connections" },
	{ SW_MQUEUE_MAGIC, "mqueue", SW_FS_MQUEUE, SW_CONTAINED_IPC,
	  "a message queue the session did not make refused" },
};

const struct sw_kobjfs *sw_kobjfs_of(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(fs_rules) / sizeof(fs_rules[0]); i++)
		if (fs_rules[i].magic == magic)
			return &fs_rules[i];
	return NULL;
}
