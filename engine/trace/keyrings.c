// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The uid's keyrings outside the session (route 20): the user keyring
 * (@u) and user session keyring (@us) by their special ids, the three
 * serials the launch child learned, a join by name, the persistent
 * keyring, request_key's upcall (objects.c says why each is reachable).
 */
#include <errno.h>
#include <linux/keyctl.h>

#include "internal.h"
#include "sys.h"
#include "decide/program.h"
#include "trace/keyrings.h"
#include "trace/reach.h"
#include "trace/trace.h"

/* Where a keyctl command takes key ids: bit i for argument i (1-4;
 * argument 0 is the command). */
static const uint8_t keyctl_ids[] = {
	[KEYCTL_GET_KEYRING_ID] = 1u << 1,
	[KEYCTL_UPDATE] = 1u << 1,
	[KEYCTL_REVOKE] = 1u << 1,
	[KEYCTL_CHOWN] = 1u << 1,
	[KEYCTL_SETPERM] = 1u << 1,
	[KEYCTL_DESCRIBE] = 1u << 1,
	[KEYCTL_CLEAR] = 1u << 1,
	[KEYCTL_LINK] = 1u << 1 | 1u << 2,
	[KEYCTL_UNLINK] = 1u << 1 | 1u << 2,
	[KEYCTL_SEARCH] = 1u << 1 | 1u << 4,
	[KEYCTL_READ] = 1u << 1,
	[KEYCTL_INSTANTIATE] = 1u << 1 | 1u << 4,
	[KEYCTL_NEGATE] = 1u << 1 | 1u << 3,
	[KEYCTL_SET_TIMEOUT] = 1u << 1,
	[KEYCTL_ASSUME_AUTHORITY] = 1u << 1,
	[KEYCTL_GET_SECURITY] = 1u << 1,
	[KEYCTL_REJECT] = 1u << 1 | 1u << 4,
	[KEYCTL_INSTANTIATE_IOV] = 1u << 1 | 1u << 4,
	[KEYCTL_INVALIDATE] = 1u << 1,
	[24 /* KEYCTL_PKEY_QUERY */] = 1u << 1,
	[25 /* KEYCTL_PKEY_ENCRYPT: params in memory */] = 0,
	[29 /* KEYCTL_RESTRICT_KEYRING */] = 1u << 1,
	[30 /* KEYCTL_MOVE */] = 1u << 1 | 1u << 2 | 1u << 3,
	[32 /* KEYCTL_WATCH_KEY */] = 1u << 1,
};

static bool keyring_refused(const int32_t keyring[SW_OBJECTS_KEYRINGS], uint64_t arg)
{
	int32_t id = sw_as_int(arg);	/* key_serial_t */

	if (id == KEY_SPEC_USER_KEYRING || id == KEY_SPEC_USER_SESSION_KEYRING)
		return true;
	for (int i = 0; id > 0 && i < SW_OBJECTS_KEYRINGS; i++)
		if (keyring[i] == id)
			return true;
	return false;
}

void sw_keys_contain(struct sw_supervisor *sup, struct sw_tracee *t,
		     const int32_t keyring[SW_OBJECTS_KEYRINGS],
		     const struct sw_program *prog, enum sw_abi abi,
		     struct sw_decision *d)
{
	const char *why = "the uid's user, user session and persistent keyrings are outside the session";
	uint64_t nr = d->nr;

	if ((uint64_t)prog->sys[abi][SW_SYS_ADD_KEY] == nr) {
		if (keyring_refused(keyring, d->args[4]))
			sw_refuse(d, EACCES, why);
		return;
	}
	if ((uint64_t)prog->sys[abi][SW_SYS_REQUEST_KEY] == nr) {
		if (keyring_refused(keyring, d->args[3])) {
			sw_refuse(d, EACCES, why);
			return;
		}
		/* No upcall: /sbin/request-key runs as root, outside the
		 * sandbox.  Without callout information the kernel only
		 * searches the caller's keyrings (ENOKEY if not found), as on
		 * a system without request-key. */
		if (d->args[2]) {
			d->verdict = SW_V_REWRITE;
			d->args[2] = 0;
			d->why = "request_key's upcall cut (it would run /sbin/request-key outside the sandbox)";
		}
		return;
	}
	if ((uint64_t)prog->sys[abi][SW_SYS_KEYCTL] != nr)
		return;
	switch ((int)sw_as_int(d->args[0])) {
	case KEYCTL_JOIN_SESSION_KEYRING:
		/* A name finds any keyring of that name the uid may search:
		 * "_uid.<uid>" is the user keyring itself.  The anonymous
		 * form (NULL) makes a new one. */
		if (d->args[1])
			sw_refuse(d, EPERM, "joining a session keyring by name refused: the name may be the uid's user keyring's");
		return;
	case KEYCTL_SET_REQKEY_KEYRING: {
		int32_t to = sw_as_int(d->args[1]);

		if (to == KEY_REQKEY_DEFL_USER_KEYRING ||
		    to == KEY_REQKEY_DEFL_USER_SESSION_KEYRING)
			sw_refuse(d, EACCES, why);
		return;
	}
	case KEYCTL_GET_PERSISTENT:
		/* As a kernel without CONFIG_PERSISTENT_KEYRINGS. */
		sw_refuse(d, EOPNOTSUPP, "the uid's persistent keyring is outside the session");
		return;
	case KEYCTL_SESSION_TO_PARENT: {
		pid_t tgid, ppid;

		/* The caller's parent outside the tree (sysward itself, a
		 * daemon session's holder) would get its session keyring. */
		if (sw_sys_proc_ids(t->pid, &tgid, &ppid) < 0 ||
		    !sw_session_has(sup, t->s, ppid))
			sw_refuse(d, EPERM, "changing the session keyring of a process outside the session refused");
		return;
	}
	default:
		break;
	}
	{
		uint64_t cmd = (uint64_t)sw_as_int(d->args[0]);
		uint8_t ids = cmd < sizeof(keyctl_ids) ? keyctl_ids[cmd] : 0;

		for (int i = 1; i <= 4; i++)
			if ((ids & (1u << i)) && keyring_refused(keyring, d->args[i])) {
				sw_refuse(d, EACCES, why);
				return;
			}
	}
}
