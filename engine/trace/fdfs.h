/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What file system an opened file is on, and which file systems hold
 * kernel objects (fdfs.c).
 */
#ifndef SW_ENGINE_FDFS_H
#define SW_ENGINE_FDFS_H

#include <sys/stat.h>

#include "internal.h"

/* The message queues' file system (objects.c tells a queue by it). */
#define SW_MQUEUE_MAGIC		0x19800202	/* ipc/mqueue.c */

/* The file system tid's descriptor fd is on (its statfs magic) and the
 * file's device, inode and mode, found without a call into that file
 * system where the kernel allows (6.8+; see fdfs.c).  -ENOENT: its
 * mount is in no namespace the supervisor can name. */
int sw_fd_fs(pid_t tid, int fd, unsigned long *ret_magic, struct stat *ret_st);
/* Is a file system of this magic served by a process (FUSE), which may
 * be the program, so that no supervisor may call into it? */
bool sw_fs_served_by_user(unsigned long magic);

/* What a file of a file system that holds kernel objects is. */
enum sw_kobjfs_what {
	SW_FS_PROC,	/* a pid directory's file of the session, or refused */
	SW_FS_MQUEUE,	/* a message queue of the session's, or refused */
	SW_FS_KERNEL,	/* the kernel's objects: refused */
};

/* A file system whose files are kernel objects: which, and which of the
 * session's own views (SW_CONTAINED_*) makes them its own. */
struct sw_kobjfs {
	unsigned long magic;
	const char *name;
	enum sw_kobjfs_what what;
	unsigned int contained;
	const char *why;
};

/* The rule of a file system of this magic, or NULL: the uid's own files. */
const struct sw_kobjfs *sw_kobjfs_of(unsigned long magic);

#endif
