/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seccomp listener's ABI newer than Debian 12's <linux/seccomp.h>
 * (6.1): the values of include/uapi/linux/seccomp.h, for the engine's
 * listener (engine/decide/notif.c, launchchild.c) and the benchmark's.
 * Include after <linux/seccomp.h>.
 */
#ifndef SYSWARD_SECCOMP_ABI_H
#define SYSWARD_SECCOMP_ABI_H

/* 5.19: once the listener has read a call, only a fatal signal ends
 * the caller's wait. */
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
/* 6.6: the listener's flags; SYNC_WAKE_UP wakes the listener, and then
 * the caller, on the waker's CPU. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

#endif
