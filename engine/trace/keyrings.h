/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The uid's keyrings outside the session (keyrings.c).
 */
#ifndef SW_ENGINE_KEYRINGS_H
#define SW_ENGINE_KEYRINGS_H

#include "internal.h"
#include "decide/program.h"
#include "trace/reach.h"

/* At a SECCOMP stop whose decision lets a call run: refuse a keyctl,
 * add_key or request_key that names the uid's keyrings (keyring: the
 * serials the launch child learned, 0 none), a named join, the
 * persistent keyring, a session keyring given to a parent outside the
 * session; cut request_key's upcall. */
void sw_keys_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		     const int32_t keyring[SW_OBJECTS_KEYRINGS],
		     const struct sw_program *prog, enum sw_abi abi,
		     struct sw_decision *d);

#endif
