/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The plan of a launch's file rules (struct sw_fsrules): made before the
 * fork by fsrules.c, which allocates everything the apply needs; applied
 * in the launch child by fsapply.c, which writes its nodes and the table
 * of rules added; read after by fscheck.c (`sysward check`) and by
 * fsrules.c's judge (complain mode).  Private to those three files.
 */
#ifndef SW_ENGINE_FSPLAN_H
#define SW_ENGINE_FSPLAN_H

#include <sys/stat.h>

#include "internal.h"

/* A node: a hierarchy's file, or a directory on the way between two. */
struct fs_node {
	uint64_t dev, ino;
	int fd;			/* O_PATH, -1 when closed */
	int parent;		/* node index, -1: none (beneath no other) */
	int spec;		/* the first hierarchy naming it, -1: a directory between */
	int origin;		/* the hierarchy whose walk found it */
	int up;			/* its level above origin's file */
	bool dir;
	bool has_children;
	uint64_t want;		/* hierarchies: their rights, together */
	uint64_t below;		/* M: every hierarchy's beneath it, in common */
	uint64_t grant;		/* the rule on its file */
	int gov;		/* the hierarchy node deciding what is beneath */
	uint32_t beside;	/* entries beside narrower ones given gov's rights */
};

/* A rule added: for the supervisor's check in complain mode and of a
 * refusal's cause, and for `sysward check`. */
struct fs_added {
	uint64_t dev, ino;
	uint64_t access;
	int32_t spec;		/* the hierarchy this file is, or -1 */
};

/* The rules added, written by the apply in the launch child.  In
 * complain mode a shared mapping made before the fork: the supervisor
 * reads there the very table the child built in the program's view
 * (the child's writes precede its exec, and the program's first stop
 * follows it); the exec drops the mapping from the program. */
struct fs_table {
	size_t n;
	struct fs_added v[];
};

/* Room for every rule the apply may add (SW_FSRULES_MAX_RULES: fsrules.h,
 * which the files that size the table include). */
#define TABLE_LEN	(sizeof(struct fs_table) + \
			 SW_FSRULES_MAX_RULES * sizeof(struct fs_added))

struct fs_spec_copy {
	char *path;
	bool cwd;
	uint64_t access;	/* asked */
	bool optional;
	char *what, *written;
	/* the apply's */
	int node;		/* -1: skipped (optional, missing) */
};

struct sw_fsrules {
	int abi;
	bool enforce;
	bool has_fs;		/* a file-system section: file rights handled */
	uint64_t handled_fs;	/* what the kernel enforces; rules are masked */
	uint64_t dropped_fs;	/* asked to be refused somewhere, not enforced */
	uint64_t handled_net;
	bool net_dropped;	/* the network section, not enforced (ABI < 4) */
	struct fs_spec_copy *specs;
	size_t n_specs;
	struct sw_port_range *bind, *connect;
	size_t n_bind, n_connect;
	/* the apply's memory, allocated by the plan */
	struct fs_node *nodes;
	size_t n_nodes, max_nodes;
	struct fs_table *table;	/* calloc'd, or mmap'd when !enforce */
	char *dents;		/* getdents64 */
	char *scratch;		/* a file's path, its links followed */
	struct stat root;
};

#define DENTS_LEN	(32 * 1024)
#define SCRATCH_LEN	(2 * 4096)

#endif
