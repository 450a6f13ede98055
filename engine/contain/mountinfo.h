/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A mount table (mountinfo.c), for the plans of the session's own
 * namespaces: procns.c, nsbox.c.
 */
#ifndef SW_ENGINE_MOUNTINFO_H
#define SW_ENGINE_MOUNTINFO_H

#include "internal.h"

/* One line of a mountinfo file; the strings point into its table. */
struct sw_mnt {
	int id, parent;
	char *root, *point, *fstype;
	char *super;		/* the superblock's options */
	unsigned long flags;	/* MS_* of the per-mount options */
};

struct sw_mnt_table {
	struct sw_mnt *m;
	size_t n;		/* in the file's order: the order of attaching */
	char *text;
};

int sw_mnt_table_read(const char *mountinfo, struct sw_mnt_table *ret,
		      struct sw_error *err);
void sw_mnt_table_free(struct sw_mnt_table *t);
/* MS_* of a per-mount option list ("rw,nosuid,relatime"). */
unsigned long sw_mnt_flags(const char *opts);
/* Option name in a comma list ("size=10M,mode=1777"): its value (not
 * NUL-terminated: *ret_len bytes; 0 for a bare flag) if present. */
bool sw_mnt_option(const char *opts, const char *name, const char **ret_value,
		   size_t *ret_len);
/* Something mounted over m at its very path. */
bool sw_mnt_covered(const struct sw_mnt_table *t, size_t m);
/* A mount of the same parent over a directory above m, or at m's path
 * after it: no path reaches m. */
bool sw_mnt_hidden(const struct sw_mnt_table *t, size_t m);
/* What a path walk sees at m's mount point: m, or the last of those
 * mounted on top of it there. */
size_t sw_mnt_stack_top(const struct sw_mnt_table *t, size_t m);
/* Neither m nor a mount it is beneath covered or hidden: a path reaches
 * it. */
bool sw_mnt_visible(const struct sw_mnt_table *t, size_t m);

#endif
