/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The limits that more than one module enforces, each in one place: a
 * policy that one part of sysward accepts is never refused by another for
 * its size (the embedded mode and the daemon take the same policies).
 */
#ifndef SYSWARD_LIMITS_H
#define SYSWARD_LIMITS_H

/* A policy's JSON text: the parser's file and string input, and the
 * policy of a RUN request.  Docker's default profile is about 20 KiB. */
#define SW_LIMIT_POLICY_BYTES	(1u << 20)
/* What a caller may raise it to for one policy (sysward's
 * --policy-max-bytes, SYSWARD_POLICY_MAX_BYTES): a generated policy of
 * 10 MB; json-c holds about 4 times the text in memory while parsing it. */
#define SW_LIMIT_POLICY_BYTES_MAX	(64u << 20)

/* Rules of one policy.  The filter's SECCOMP_RET_TRACE data (16 bits)
 * names the rule; values from 0xfff0 up are the engine's own hints. */
#define SW_LIMIT_RULES		4096u

/* Descriptors a program is handed at launch besides none of its
 * launcher's own (sw_launch.fds): syswardd's RUN carries them in one
 * SCM_RIGHTS message, and the kernel passes at most SCM_MAX_FD (253,
 * include/net/scm.h) per message.  The client refuses to run with more
 * than this many descriptors to hand over, the daemon refuses a RUN
 * carrying more, and the engine a launch asking for more. */
#define SW_LIMIT_FDS		253u

/* TCP ports of one list (bind or connect), ranges expanded: the kernel
 * takes a Landlock rule per port.  A policy's "network" section
 * (policy/src/fsaccess.c) and `sysward run --sandbox-net` and
 * `--sandbox-bind` (engine/contain/sandbox.c, also through syswardd) alike. */
#define SW_LIMIT_PORTS		4096u

#endif
