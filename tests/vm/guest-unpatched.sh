#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# In the QEMU guest on the UNPATCHED 6.12 kernel (no PTRACE_SET_SYSCALL_INFO):
# sysward must say so and refuse policies that need the supervisor rather
# than run programs half-confined, and enforce plain-BPF policies, the same
# in embedded and daemon mode.
#
#   guest-unpatched.sh --list | SCENARIO...     exit 0 pass, 1 fail
#
# Environment: SYSWARD, SYSWARDD, PROBE (static), SRCDIR.
set -u
EX=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/policy/examples
. "$(dirname "$0")/../lib/common.sh"

# The program must not have run at all: it would print on stdout and
# leave a mark file.
refused() {
	local what=$1
	[ "$rc" -eq 125 ] || { fail "$what: exit $rc, expected 125 (refusal)"; show; }
	[ -z "$out" ] || { fail "$what: the program ran (stdout '$out')"; show; }
	[ ! -e "$W/ran" ] || { fail "$what: the program ran (it left $W/ran)"; show; }
	rm -f "$W/ran"
	[[ $err == *"PTRACE_SET_SYSCALL_INFO"* ]] || { fail "$what: stderr does not name PTRACE_SET_SYSCALL_INFO"; show; }
	[[ $err == *"qemu-images/run-vm --kernel patched"* ]] ||
		{ fail "$what: stderr does not tell how to boot the patched kernel"; show; }
}

t_info_reports_missing() {
	run "$SYSWARD" info
	[ "$rc" -eq 0 ] || { fail "info exited $rc"; show; }
	grep -Fxq "PTRACE_SET_SYSCALL_INFO:  no" "$W/out" || { fail "info does not say the request is missing"; show; }
	grep -Fxq "PTRACE_GET_SYSCALL_INFO:  yes" "$W/out" || { fail "info does not show GET_SYSCALL_INFO"; show; }
	grep -Fxq "seccomp filter:           yes" "$W/out" || { fail "info: seccomp filter"; show; }
	grep -Fxq "kernel:                   $(uname -r)" "$W/out" || { fail "info: kernel release"; show; }
	[[ $(uname -r) == *-unpatched ]] || fail "this is not the unpatched kernel: $(uname -r)"
	run "$SYSWARD" info --json
	[[ $out == *'"ptrace_set_syscall_info": false'* || $out == *'"ptrace_set_syscall_info":false'* ]] ||
		{ fail "info --json does not say false"; show; }
}

# The example policies of plain BPF actions only: the kernel enforces them
# alone, so they run on this kernel (t_*_bpf_only_policy).
bpf_only() {
	case ${1##*/} in deny-network.json|docker-default.json) return 0 ;; esac
	return 1
}

t_run_refuses_every_example() {
	# Every example policy that needs the supervisor, with a program that
	# would leave a mark.
	local p
	for p in "$EX"/*.json "$(uid_policy)"; do
		bpf_only "$p" && continue
		run "$SYSWARD" run --policy "$p" -- sh -c "touch $W/ran; echo ran"
		refused "run --policy ${p##*/}"
	done
	run "$SYSWARD" run --policy "$(uid_policy)" -- "$PROBE" getuid
	refused "run probe"
	# check needs no kernel support: it still works.
	run "$SYSWARD" check "$EX"/*.json
	[ "$rc" -eq 0 ] || { fail "check exited $rc"; show; }
}

# bpf_only_enforced [--daemon=SOCK]: deny-network.json and
# docker-default.json (plain BPF actions, every decision made by the
# kernel) run FULLY confined: the AF_INET socket is refused, AF_UNIX
# works; unshare of a user namespace is refused.
bpf_only_enforced() {
	run "$SYSWARD" run "$@" --policy "$EX/deny-network.json" -- "$PROBE" net-inet net-unix
	[ "$rc" -eq 0 ] || { fail "deny-network.json: exit $rc"; show; }
	[ "$out" = "socket(inet)=-EACCES
socket(unix)=ok
connect(unix)=ok" ] || { fail "deny-network.json was not enforced: '$out'"; show; }
	run "$SYSWARD" run "$@" --policy "$EX/docker-default.json" -- "$PROBE" unshare-user
	[ "$out" = "unshare(CLONE_NEWUSER)=-EPERM" ] ||
		{ fail "docker-default.json was not enforced: '$out'"; show; }
	# Control: unconfined the inet socket is made.
	run "$PROBE" net-inet
	[[ $out == "socket(inet)=ok"* ]] || { fail "control: '$out'"; show; }
}

t_run_bpf_only_policy() {
	bpf_only_enforced
	cat >"$W/bpf.json" <<-EOF2
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["mkdir"], "action": "SCMP_ACT_ERRNO", "errnoRet": 30}]}
	EOF2
	run "$SYSWARD" run --policy "$W/bpf.json" -- "$PROBE" mkdir "$W/d"
	[ "$out" = "mkdir($W/d)=-EROFS" ] || { fail "one SCMP_ACT_ERRNO rule: '$out'"; show; }
	[ ! -e "$W/d" ] || fail "$W/d was made"
}

t_daemon_refuses() {
	# syswardd on this kernel: every request whose policy needs the
	# supervisor is refused (125) with the reason, and no program runs;
	# the daemon keeps serving.
	local S=$W/sock D i p
	setsid "$SYSWARDD" --socket "$S" 2>"$W/daemon.log" &
	D=$!
	for ((i = 0; i < 200; i++)); do [ -S "$S" ] && break; sleep 0.05; done
	[ -S "$S" ] || { fail "syswardd did not start"; cat "$W/daemon.log"; return; }
	for p in "$(uid_policy)" "$EX"/*.json; do
		bpf_only "$p" && continue
		run "$SYSWARD" run --daemon="$S" --policy "$p" -- sh -c "touch $W/ran; echo ran"
		refused "run --daemon --policy ${p##*/}"
	done
	kill -0 "$D" 2>/dev/null || fail "syswardd died"
	kill -TERM "$D"; wait "$D" 2>/dev/null
}

t_daemon_bpf_only_policy() {
	# The daemon's engine decides as the embedded one does.
	local S=$W/sock D i
	setsid "$SYSWARDD" --socket "$S" 2>"$W/daemon.log" &
	D=$!
	for ((i = 0; i < 200; i++)); do [ -S "$S" ] && break; sleep 0.05; done
	[ -S "$S" ] || { fail "syswardd did not start"; cat "$W/daemon.log"; return; }
	bpf_only_enforced --daemon="$S"
	kill -TERM "$D"; wait "$D" 2>/dev/null
}

if [ "${1:-}" = --list ]; then
	sw_scenarios
	exit 0
fi
: "${SYSWARD:?}" "${SYSWARDD:?}" "${PROBE:?}"
sw_run_scenarios un "$@"
