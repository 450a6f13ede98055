/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What record/ exports: the audit log's lines (audit.c, the one
 * JSON-lines writer), the line gate on the program's standard error
 * (linegate.c), a session's record as the stops fill it (record.c).
 * The record's tables are record.h's, private to record/.
 */
#ifndef SW_ENGINE_AUDIT_H
#define SW_ENGINE_AUDIT_H

#include "internal.h"

/* ---- audit.c -------------------------------------------------------- */

/* s is well-formed UTF-8 (what a JSON string can carry exactly: the
 * audit log's and a learned policy's rule). */
bool sw_utf8_valid(const char *s);

void sw_audit_strings_keep(struct sw_audit_strings *k, pid_t pid,
			   enum sw_abi abi, uint64_t nr, const uint64_t args[6]);

struct sw_audit_rec {
	uint64_t session_id;
	pid_t pid;
	enum sw_abi abi;
	uint64_t nr;
	uint64_t args[6];
	const struct sw_decision *d;
	const struct sw_program *prog;
	bool has_result;
	int64_t result;			/* the return value the program saw */
	const char *error;		/* tampering failure, or NULL */
	const struct sw_audit_strings *kept;	/* or NULL: read them now */
};

/* A plain allow: the call runs as the program made it (a path guard's
 * pinned copy aside), by no LOG or audit rule, no would-be refusal, no
 * failed tampering.  Its line is written only when the session asks
 * for those (sw_launch.audit_allows). */
bool sw_audit_plain_allow(const struct sw_audit_rec *r);
/* linegate.c: at a seccomp stop of a session with a line gate, is the
 * call a write the gate stops (to descriptor 1 or 2)?  If it writes to
 * our log's file, the gate learns whether it ends a line (read from the
 * tracee). */
struct sw_session;
bool sw_line_gate_observe(struct sw_session *s, pid_t pid, enum sw_abi abi,
			  uint64_t nr, const uint64_t args[6]);
int sw_audit_write(FILE *f, enum sw_log_format fmt,
		   const struct sw_audit_rec *r);


/* ---- record.c: what a session's calls came to ------------------------- */

/* paths: keep the paths calls named too (sysward learn --paths). */
struct sw_record *sw_record_new(bool complain, bool paths);
/* Keep what the calls reached on the file system and the TCP ports
 * (sysward learn --filesystem; recfiles.c). */
void sw_record_keep_files(struct sw_record *r);
/* The bytes r holds (its tables as they have grown, its samples). */
size_t sw_record_bytes(const struct sw_record *r);
/* The outcome of a final decision (after the defences' containment). */
enum sw_outcome sw_outcome_of(const struct sw_decision *d);
/* Count one supervised call of t (abi, nr, args as the program made it)
 * whose final decision is d (d->path: the string a path condition read,
 * if any; else the report reads the first path argument itself). */
void sw_record_call(struct sw_record *r, struct sw_tracee *t, enum sw_abi abi,
		    uint64_t nr, const uint64_t args[6],
		    const struct sw_decision *d);
/* A new process or thread of the session (fork, clone, the main one). */
void sw_record_task(struct sw_record *r);
/* t executed the program at its /proc/<pid>/exe: t->rec_prog. */
void sw_record_exec(struct sw_record *r, struct sw_tracee *t);

#endif
