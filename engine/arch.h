/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysward-engine's per-architecture hooks.  Not installed.
 *
 * Everything the engine knows about one architecture (its ABIs, register
 * layout, syscall numbers, the kernel's quirks) lives in one file,
 * engine/arch/<arch>.c, with its types in engine/arch/<arch>.h; the rest
 * of the engine is generic and calls the hooks declared here.  Only
 * x86_64, aarch64 and riscv64 have them today: CMake and the #if below
 * refuse other machines.
 *
 * A file for another architecture (arm64, riscv64, ...) must provide, in
 * arch/<arch>.h:
 *   - enum sw_abi: the ABIs its kernel may run for one process, numbered
 *     from 0, then SW_ABI_COUNT and SW_ABI_NONE = -1;
 *   - SW_ABI_GUARD: the ABI whose code the path guard can inject into,
 *     which must be the ABI sysward itself is built for (the setup's
 *     syscall numbers are <sys/syscall.h>'s, the msghdr it writes into
 *     the tracee is laid out as the supervisor's);
 *   - SW_ARCH_SCRATCH_MAX: the bytes sw_arch_scratch() gives;
 *   - struct sw_arch_regs: a register snapshot (PTRACE_GETREGS or
 *     GETREGSET NT_PRSTATUS) taken at a syscall-entry stop, where the
 *     argument registers still hold the arguments (arm64's x0 is also
 *     the return register; riscv64's first argument, orig_a0, is in no
 *     regset and is kept beside it);
 *   - sw_arch_nr_index(nr): a stop's nr without ABI flag bits (x32's);
 * and in arch/<arch>.c every function below, plus the tables
 * sw_arch_vetted_nr[] and sw_arch_filter_groups[].  A hook that the
 * architecture cannot do returns -EOPNOTSUPP where that is documented.
 */
#ifndef SYSWARD_ENGINE_ARCH_H
#define SYSWARD_ENGINE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#if defined(__x86_64__)
#include "arch/x86_64.h"
#elif defined(__aarch64__)
#include "arch/aarch64.h"
#elif defined(__riscv) && __riscv_xlen == 64
#include "arch/riscv64.h"
#else
#error "sysward-engine has per-architecture hooks for x86_64, aarch64 and riscv64 only (engine/arch/)"
#endif

/* ---- ABI table ------------------------------------------------------- */

/* libseccomp token (== AUDIT_ARCH_* value) of an ABI. */
uint32_t sw_abi_token(enum sw_abi abi);
/* "x86_64", "i386", "x32"; "aarch64"; "riscv64". */
const char *sw_abi_name(enum sw_abi abi);
/* The OCI profile's spelling: "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", ... */
const char *sw_abi_oci_name(enum sw_abi abi);
/* Width of a syscall argument as the BPF filter sees it (4 or 8). */
unsigned int sw_abi_arg_bytes(enum sw_abi abi);
/* Does the ABI's clone take (flags, stack, parent_tid, tls, child_tid)
 * (kernel/fork.c, CONFIG_CLONE_BACKWARDS: i386), not (..., child_tid,
 * tls)? */
bool sw_abi_clone_backwards(enum sw_abi abi);
/* Is the ABI's "mmap" old_mmap, one pointer to its six arguments
 * (i386's, arch/x86/kernel/sys_ia32.c)? */
bool sw_abi_old_mmap(enum sw_abi abi);
/* Does the ABI have socketcall(2) with an array of 32-bit words for its
 * arguments (i386)?  peers.c reads connect's and listen's from it. */
bool sw_abi_socketcall_words(enum sw_abi abi);
/* ABI of a stop from the AUDIT_ARCH that GET reports and the nr (x32
 * syscalls report AUDIT_ARCH_X86_64 with the x32 bit set in nr). */
enum sw_abi sw_abi_of(uint32_t audit_arch, uint64_t nr);
/* OCI spelling ("SCMP_ARCH_X86", "x86", "amd64", "i386", ...) -> ABI. */
enum sw_abi sw_abi_from_name(const char *name);
/* Is name a spelling of an ABI this machine's kernel may run that sysward
 * does not supervise (arm64: AArch32)?  A policy may name one (Docker's
 * archMap does); it gets no filter group, so a program of that ABI is
 * killed at its first call by the bad-arch action, as when it is not
 * named. */
bool sw_arch_abi_unsupervised(const char *name);
/* The machine ("x86-64") and the spellings sw_abi_from_name() expects,
 * for an error message. */
extern const char sw_arch_machine[];
extern const char sw_arch_abi_spellings[];
/* The machine's native ABI, or SW_ABI_NONE on a machine without hooks. */
enum sw_abi sw_abi_native(void);
/* A syscall name's number on an ABI when libseccomp gives none (or only
 * a multiplexer's pseudo-number), else -1. */
int sw_arch_resolve_fallback(enum sw_abi abi, const char *name);

/* ---- stops ----------------------------------------------------------- */

/* Does a SECCOMP stop at this instruction pointer come from the legacy
 * vsyscall page, whose emulation allows no syscall-exit stop? */
bool sw_arch_in_vsyscall(enum sw_abi abi, uint64_t ip);
/* At a SECCOMP stop: skip the call and give it its return value now, in
 * this one stop (no exit stop needed).  0 or -errno; -EOPNOTSUPP on an
 * architecture without the hook (the caller takes the exit stop). */
int sw_arch_return_at_entry(pid_t pid, int64_t rval);
/* Is the number the kernel runs a register of the program's, which a
 * tracer's skip (-1) or new number also changes for the program after
 * the call (riscv64's a7: syscall_set_nr())?  Then a call whose number
 * the supervisor changes goes on to its exit stop, where
 * sw_arch_restore_nr() gives the register back: never one stop. */
extern const bool sw_arch_nr_in_user_reg;
/* At that exit stop: the number register as the program set it (nr).
 * 0 or -errno; 0, nothing done, where the kernel keeps its number apart
 * (x86's orig_rax, arm64's syscallno). */
int sw_arch_restore_nr(pid_t pid, uint64_t nr);
/* At the delivery stop of a SIGSYS standing in for a seccomp trap of
 * call nr(args...): the registers the handler's context shows, as the
 * kernel's trap leaves them (syscall_rollback(): x86's return register
 * holds nr, arm64's x0 and riscv64's a0 the first argument).  0 or
 * -errno. */
int sw_arch_trap_regs(pid_t pid, uint64_t nr, const uint64_t args[6]);

/* At a signal-delivery stop: was the tracee in a call that returns
 * -ERESTARTSYS (a wait the signal interrupted), and which (nr as a stop
 * of abi reports it, its argument registers)?  1 yes, 0 no, -errno;
 * -EOPNOTSUPP where the kernel has rolled the call back before the stop
 * (arm64, riscv64). */
int sw_arch_interrupted_call(pid_t pid, enum sw_abi abi, uint64_t *nr,
			     uint64_t args[6]);
/* At that stop: make the call restart after the handler whatever its
 * SA_RESTART (-ERESTARTNOINTR in the return register).  0 or -errno. */
int sw_arch_restart_always(pid_t pid);
/* Do the two hooks above work here?  The session's seccomp listener
 * (notif.c) needs them: without, a signal whose handler lacks SA_RESTART
 * makes a call waiting for the listener fail with EINTR, which the same
 * call never does unconfined nor at a ptrace stop. */
bool sw_arch_restarts_interrupted(void);

/* ---- the path guard's injection -------------------------------------- */

/* Set argument register i (0..5) of a stopped tracee of this ABI.  0 or
 * -errno. */
int sw_arch_set_arg(pid_t pid, enum sw_abi abi, unsigned int i, uint64_t val);
/*
 * Bit i: argument register i is also the return register, and the
 * kernel restarts an interrupted call from a copy of it (arm64's x0 and
 * orig_x0: arch/arm64/kernel/signal.c, do_signal()), a copy that follows
 * every write of the register at an entry or seccomp stop
 * (PTRACE_SET_SYSCALL_INFO: syscall_set_arguments(); NT_PRSTATUS:
 * gpr_set(), update_syscall_orig_x0_after_ptrace(), Linux 6.12.118) and
 * that nothing writes at the exit stop (riscv64's a0 and orig_a0, which
 * only PTRACE_SET_SYSCALL_INFO reaches).  So a pinned argument of such a
 * register cannot be put back: the exit stop leaves the result there,
 * and a call returning a restart code keeps its guard slot for the
 * restart, which runs on the slot (pathguard.c).  0 where every argument
 * register outlives the call (x86).
 */
extern const uint8_t sw_arch_args_returned;
/* Snapshot the registers at a syscall-entry stop.  0 or -errno. */
int sw_arch_get_regs(pid_t pid, struct sw_arch_regs *r);
/* Can the guard inject from this first syscall-entry stop?  0: yes;
 * 1: the image runs another ABI, where the guard cannot be sealed (it
 * goes without); -ENOEXEC: the stop is of an ABI whose syscall
 * instruction a rewind would not replay. */
int sw_arch_guard_entry_check(const struct sw_arch_regs *r0);
/* Where the setup may write up to SW_ARCH_SCRATCH_MAX bytes in the
 * tracee stopped with registers r0 at a syscall stop: memory nothing
 * live uses during the syscall (below the stack pointer and whatever the
 * ABI lets a function keep there), mapped in a fresh image, aligned for
 * any structure. */
uint64_t sw_arch_scratch(const struct sw_arch_regs *r0);
/* From the registers r0 of the first entry stop, make the tracee run
 * syscall nr(a...) of SW_ABI_GUARD: at an entry stop in place of the
 * pending call, at an exit stop by rewinding to the syscall instruction.
 * Does not resume it.  0 or -errno. */
int sw_arch_inject(pid_t pid, const struct sw_arch_regs *r0, bool at_entry,
		   long nr, const uint64_t a[6]);
/* At an exit stop: put r0 back and rewind, so that the program's own
 * first syscall runs again from its instruction.  0 or -errno. */
int sw_arch_replay(pid_t pid, const struct sw_arch_regs *r0);

/* ---- calls injected after a call (resultcheck.c) ------------------------ */

/* At the exit stop of a call of ABI abi whose registers there are r0:
 * make the tracee run syscall nr(a...) of that ABI (nr as a stop of it
 * reports it: x32's bit included), by rewinding to the syscall
 * instruction.  Does not resume it.  0 or -errno. */
int sw_arch_inject_abi(pid_t pid, const struct sw_arch_regs *r0, enum sw_abi abi,
		       uint64_t nr, const uint64_t a[6]);
/* At the exit stop of an injected call: the registers r0 (of the first
 * call's exit stop) back, with rval in the return register, so that the
 * first call returns rval.  0 or -errno. */
int sw_arch_finish(pid_t pid, const struct sw_arch_regs *r0, int64_t rval);

/* ---- peers.c: a session held while a connect's peer is checked ------- */

/*
 * A task found blocked in the kernel in call nr (as /proc/<tid>/syscall
 * shows it, which names no ABI) will run no code of the program before
 * it stops, and its call can write nothing to a socket: true for the
 * calls that wait and send nothing (read, wait4, futex, poll, a vfork's
 * parent, an open, ...) under every ABI's reading of the number.
 */
bool sw_arch_quiet_call(uint64_t nr);

/* ---- the Landlock probe's witness (clientprobe.c) ----------------------- */

/* A minimal static executable of the machine: loaded by the kernel
 * alone (no interpreter), never run (the witness stops at its exec).
 * Its bytes and their length. */
const unsigned char *sw_arch_witness_image(size_t *ret_len);

/* Numbers of the calls the guard vets (see pathguard.c), per ABI. */
struct sw_arch_vetted {
	uint32_t madvise, process_madvise, prctl;
};
extern const struct sw_arch_vetted sw_arch_vetted_nr[SW_ABI_COUNT];

/* The guard's filter prefix, one group per AUDIT_ARCH value that a stop
 * may report, in the order tested; the group holding SW_ABI_GUARD also
 * traces the guard's own injected calls. */
struct sw_arch_filter_group {
	uint32_t audit_arch;
	unsigned int n_abis;
	enum sw_abi abis[SW_ABI_COUNT];
	/* with two ABIs: the nr bit set in abis[1]'s calls and clear in
	 * abis[0]'s (x32's on x86-64); 0 with one */
	uint32_t abi_bit;
};
extern const struct sw_arch_filter_group sw_arch_filter_groups[];
extern const size_t sw_arch_n_filter_groups;

#endif
