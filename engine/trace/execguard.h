/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Exec path rules hold for the file the kernel executes (execguard.c,
 * route 17).
 */
#ifndef SW_ENGINE_EXECGUARD_H
#define SW_ENGINE_EXECGUARD_H

#include "internal.h"

/* ---- execguard.c: exec path rules hold for the file executed ---------- */

struct sw_execguard;
/* At PTRACE_EVENT_EXEC of t: decide the file the kernel executes
 * (/proc/<pid>/exe) by the policy's execve/execveat path rules, as the
 * exec call t made; true if that refuses it and t was killed (with a
 * warning and an audit line), else false: go on as usual. */
bool sw_execguard_exec(struct sw_supervisor *sup, struct sw_tracee *t);
void sw_execguard_free(struct sw_execguard *eg);
/*
 * The pure part: the decision for the exec call (abi, nr, args) of a file
 * with n_names names (its real path first), each put in argument
 * path_arg in turn: the first rule in policy order that holds for one of
 * them (the default if none).  *ret_name: which name it held for.
 */
void sw_execguard_decide(const struct sw_program *prog, enum sw_abi abi,
			 uint64_t nr, const uint64_t args[6],
			 unsigned int path_arg, const char *const *names,
			 size_t n_names, struct sw_decide_scratch *scratch,
			 struct sw_decision *ret, size_t *ret_name);

#endif
