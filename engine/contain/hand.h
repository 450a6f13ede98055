/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the launch child hands its launcher (hand.c).
 */
#ifndef SW_ENGINE_HAND_H
#define SW_ENGINE_HAND_H

#include "internal.h"

/* In the launch child, a descriptor handed to the launcher on the ready
 * socket, in a one-byte message that says what it is (SW_HAND_*): 0 or
 * -errno.  Async-signal-safe. */
#define SW_HAND_CGROUP	'c'	/* the session's cgroup (cgroup.c) */
#define SW_HAND_TTY	't'	/* the master of its terminal (sw_launch.tty) */
int sw_launch_hand(int sock, char what, int fd);

#endif
