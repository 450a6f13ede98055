/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The numbers of system calls sysward makes (or injects, or its tests
 * make) that a C library's <sys/syscall.h> may not name yet, in one
 * place: no other file defines a fallback of its own.  Only calls numbered
 * 424 and up: since Linux 5.1 a new call has the same number on every
 * architecture but alpha, so these hold wherever sysward builds
 * (per-ABI numbers of the calls a program makes are engine/arch/'s and
 * libseccomp's business).
 */
#ifndef SYSWARD_SYSCALL_NR_H
#define SYSWARD_SYSCALL_NR_H

#include <sys/syscall.h>

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal		424
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup		425
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter		426
#endif
#ifndef SYS_io_uring_register
#define SYS_io_uring_register		427
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open			434
#endif
#ifndef SYS_close_range
#define SYS_close_range			436
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd			438
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise		440
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset	444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule		445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self	446
#endif
#ifndef SYS_mseal
#define SYS_mseal			462
#endif

#endif
