/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record's tables, as record.c keeps them and as the two writers
 * read them: recreport.c (the --report JSON and the summary) and
 * reclearn.c (sysward learn's policy).  Private to those three files.
 */
#ifndef SW_ENGINE_RECORD_H
#define SW_ENGINE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "internal.h"

#define REC_STR		192	/* a path or program name kept, cut there */
#define REC_WHY		128

struct rec_sample {
	uint64_t args[6];	/* those left out as 0 */
	uint8_t hidden;		/* bit i: argument i left out (left_out()) */
	char path[REC_STR];
	bool has_path;
	bool path_cut;		/* longer than REC_STR - 1 bytes */
};

/* One itemised (ABI, syscall, rule, outcome). */
struct rec_call {
	uint8_t abi;
	uint8_t outcome;
	int32_t rule;
	uint64_t nr;
	enum sw_action action;
	uint64_t count;
	uint8_t n_samples;
	bool more_samples;	/* other arguments were seen too */
	uint32_t paths_lost;	/* entries whose path no rule can say */
	uint8_t lost_why;	/* the first one's: enum sw_learn_why */
	char *why;		/* a defence's reason (REC_WHY - 1 bytes at
				 * most), or NULL */
	struct rec_sample *samples;	/* SW_RECORD_SAMPLES, from the first */
};

/* One program executed (its /proc/<pid>/exe). */
struct rec_prog {
	char path[REC_STR];
	bool path_cut;
	uint64_t execs;
	uint64_t out[SW_OUT_COUNT];
};

/* Open addressing over the dense calls[]: slot = index + 1, 0 empty;
 * twice as many slots as the room for entries keeps the probes short
 * (rebuilt as calls[] grows).  The first sizes: a short run's. */
#define REC_CALLS_FIRST		16
#define REC_PROGS_FIRST		4
#define REC_PATHS_FIRST		16
_Static_assert((SW_RECORD_CALLS & (SW_RECORD_CALLS - 1)) == 0 &&
	       (REC_CALLS_FIRST & (REC_CALLS_FIRST - 1)) == 0,
	       "slots: a power of two");
_Static_assert(SW_RECORD_CALLS < 0xffff && SW_RECORD_PROGRAMS < 0xffff,
	       "indexes fit 16 bits");

/* A path a call named (--paths): its call entry, the string as written,
 * or NULL where the kernel takes NULL for one (sw_path_null_ok()). */
struct rec_path {
	uint16_t call;		/* index + 1 in calls[] */
	bool cut;
	bool null;		/* NULL, path "" */
	char path[REC_STR];
};

/*
 * learn --filesystem (recfiles.c): an object the program reached, or
 * the directory it made or removed an entry in, resolved by the
 * supervisor at the call's entry stop, with what it did there.
 */
#define REC_FILE	256	/* a path kept; a longer one cut at a slash */
#define REC_FILES	4096	/* objects kept */
_Static_assert((REC_FILES & (REC_FILES - 1)) == 0 && REC_FILES < 0xffff,
	       "file slots: a power of two, indexes in 16 bits");
#define REC_PORTS	64	/* TCP ports kept per list */
enum rec_kind {
	REC_K_READ = 1u << 0,
	REC_K_WRITE = 1u << 1,
	REC_K_CREATE = 1u << 2,
	REC_K_REMOVE = 1u << 3,
	REC_K_EXEC = 1u << 4,
	REC_K_MOVE = 1u << 5,	/* link or rename into another directory */
};
struct rec_file {
	uint32_t hash;		/* of path and in_dir: the lookup's */
	uint8_t kinds;		/* enum rec_kind */
	bool in_dir;		/* kinds on entries of the directory path (made,
				 * removed, moved), not on path itself; or
				 * path was cut at a directory */
	char path[REC_FILE];	/* absolute, lexically clean */
};
enum { REC_BIND, REC_CONNECT };

struct sw_record {
	bool complain;
	bool keep_paths;		/* --paths */
	bool keep_files;		/* --filesystem */
	struct rec_file *files;		/* cap_files, up to REC_FILES */
	size_t n_files, cap_files;
	uint16_t *file_slot;		/* 2 * REC_FILES: index + 1, 0 empty */
	uint64_t files_lost;		/* past the table */
	bool tcp;			/* a TCP socket was made */
	uint16_t ports[2][REC_PORTS];	/* REC_BIND, REC_CONNECT */
	uint8_t n_ports[2];
	bool ports_lost;
	struct rec_path *paths;		/* cap_paths, up to SW_RECORD_PATHS */
	size_t n_paths, cap_paths;
	uint64_t totals[SW_OUT_COUNT];
	uint64_t tasks;
	uint64_t calls_dropped;		/* counted, not itemised */
	uint64_t execs_dropped;
	uint64_t out_no_program[SW_OUT_COUNT];	/* before the first exec */
	size_t n_calls, n_progs;
	size_t cap_calls, cap_progs;	/* up to SW_RECORD_CALLS, _PROGRAMS */
	uint16_t *slot;			/* 2 * cap_calls */
	struct rec_call *calls;
	struct rec_prog *progs;
};

/* recfiles.c: the object a call reached, for learn --filesystem. */
/* base + "/" + name with ".", ".." and empty components taken away
 * lexically: out absolute.  -ENAMETOOLONG past size. */
int rec_join_clean(const char *base, const char *name, char *out, size_t size);
/* Keep (path, in_dir, kinds), merged with an entry of the same; a path
 * longer than REC_FILE - 1 as the directory of it that fits. */
void rec_files_add(struct sw_record *r, const char *path, bool in_dir,
		   uint8_t kinds);
void rec_files_call(struct sw_record *r, pid_t pid, enum sw_abi abi,
		    const char *name, const uint64_t args[6]);
/* reclearnfs.c: the "filesystem" and "network" sections. */
int rec_write_fs(const struct sw_record *r, FILE *f);

#endif
