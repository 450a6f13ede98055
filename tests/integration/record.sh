#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The record of a session (engine/record/record.c): what --report, --gate and
# sysward learn make of a run.  Same conventions as run.sh (one CTest test
# per scenario, integration.NAME; exit 0 pass, 1 fail, 77 skipped), kept
# apart so that these scenarios do not wait on that runner's rework.
#
#   record.sh --list        print the scenario names
#   record.sh SCENARIO...   run scenarios
set -u

HERE=$(cd "$(dirname "$0")" && pwd)

. "$HERE/../lib/common.sh"
W=
# sw and cli: common.sh's.

# report_calls FILE: "syscall outcome rule action count" per item, sorted.
report_calls() {
	"$PYTHON" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["calls"]:
    print(c["syscall"], c["outcome"], c["rule"], c["action"], c["count"])' "$1"
}

t_report_enforce_refusals() {
	# Enforcing (no --complain), --report and --gate count every
	# refusal the session made: an errno rule, a kill rule (the kernel
	# still kills: SIGSYS, 159, as without the report), a trap rule and
	# a built-in defence (io_uring_setup, nr 425 on x86-64; kill of the
	# supervisor).  The gate trips on the policy's; the defence's are
	# reported but do not trip it (sysward(1) --gate).
	local p
	p=$(policy refuse <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["geteuid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
	              {"names": ["sched_yield"], "action": "SCMP_ACT_KILL_PROCESS"},
	              {"names": ["getppid"], "action": "SCMP_ACT_TRAP"}]}
	EOF
	)
	[ "$(uname -m)" = x86_64 ] || { echo "SKIP: x86-64 syscall numbers"; exit 77; }
	sw "$p" -- "$PROBE" sys:sched_yield
	expect_rc 159
	sw "$p" --report "$W/k.json" -- "$PROBE" sys:geteuid sys:425 sys:sched_yield
	expect_rc 159
	expect_output "geteuid=-EPERM
425=-EPERM"
	diff -u <(printf '%s\n' "geteuid refused syscalls[0] SCMP_ACT_ERRNO 1" \
		"io_uring_setup defence builtin SYSWARD_DEFENCE 1" \
		"sched_yield refused syscalls[1] SCMP_ACT_KILL_PROCESS 1") \
		<(report_calls "$W/k.json") >&2 ||
		fail "the enforcing report lacks the kill or the defence (diff above)"
	sw "$p" --gate --report "$W/t.json" -- "$PROBE" sys:getppid
	expect_rc 122
	expect_err "getppid (x86_64): 1 call refused by syscalls[2] (SCMP_ACT_TRAP)"
	grep -q '"program_exit": 159' "$W/t.json" || fail "the trapped program did not die of SIGSYS"
	# A defence alone: reported, the gate stays shut.
	sw "$p" --gate --report "$W/d.json" -- "$PROBE" sys:425
	expect_rc 0
	report_calls "$W/d.json" | grep -qx "io_uring_setup defence builtin SYSWARD_DEFENCE 1" ||
		{ fail "no io_uring_setup defence in the report"; cat "$W/d.json" >&2; }
}

t_report_trap_as_kernel() {
	# A trap the supervisor raises (here: counted for --report, which
	# makes every refusal stop at the supervisor) is the kernel's trap to
	# the program's SIGSYS handler: si_code SYS_SECCOMP, the call's
	# number, AUDIT_ARCH and address, and the number left in the return
	# register (the probe's sigsys: prints them), for x86-64 and i386
	# code.  Reference: the same run without --report, where the
	# kernel's filter traps.  (Before: SI_KERNEL, no number, no arch,
	# and -ENOSYS returned.)
	local p probe want
	p=$(policy trap <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_TRAP"}]}
	EOF
	)
	for probe in "$PROBE" ${PROBE32:+"$PROBE32"}; do
		[ "$probe" != "${PROBE32:-}" ] || "$probe" arch >/dev/null 2>&1 || continue
		sw "$p" -- "$probe" sigsys:getppid
		expect_rc 0
		want=$(cat "$W/out")
		[[ $want == *" code=1 "* ]] ||
			{ fail "the kernel's trap was not SYS_SECCOMP: $want"; continue; }
		sw "$p" --report "$W/r.json" -- "$probe" sigsys:getppid
		expect_rc 0
		[ "$(cat "$W/out")" = "$want" ] ||
			fail "$(basename "$probe"): the handler saw \"$(cat "$W/out")\" under --report, \"$want\" from the kernel"
	done
}

t_report_no_addresses() {
	# Two runs of one deterministic program, with ASLR on, give
	# byte-identical reports although it passes addresses the kernel
	# declares unsigned long (ioctl's argument, clone's stack and TLS)
	# and pids (kill $$, wait4 of its child): record.c's run_args[]
	# leaves them out (null), and keeps kill(0)'s 0 and kill(1)'s 1 (the
	# same in every run).
	local p script='ls / >/dev/null; kill -0 $$; kill -0 0; kill -0 1; "$0" threads 1 fork'
	[ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" = 2 ] ||
		{ echo "SKIP: ASLR is off (kernel.randomize_va_space)"; exit 77; }
	p=$(policy deny <<-EOF
	{"defaultAction": "SCMP_ACT_ERRNO",
	 "syscalls": [{"names": ["read", "write", "futex", "exit", "exit_group"], "action": "SCMP_ACT_ALLOW"}]}
	EOF
	)
	sw "$p" --complain --report "$W/r1.json" -- sh -c "$script" "$PROBE"
	expect_rc 0
	sw "$p" --complain --report "$W/r2.json" -- sh -c "$script" "$PROBE"
	expect_rc 0
	diff -u "$W/r1.json" "$W/r2.json" >&2 || fail "two runs of one program gave different reports (diff above)"
	"$PYTHON" -c 'import json, sys
items = json.load(open(sys.argv[1]))["calls"]
calls = {c["syscall"]: c for c in items}
k = sorted((c["outcome"], s["args"][0] or "") for c in items if c["syscall"] == "kill" for s in c["samples"])
assert k == [("defence", "0x1"), ("would_refuse", ""), ("would_refuse", "0x0")], k
assert all(s["args"][1] is None and s["args"][4] is None for s in calls["clone"]["samples"]), calls["clone"]
assert all(s["args"][2] is None for s in calls["ioctl"]["samples"]), calls["ioctl"]
assert all(s["args"][0] in (None, "0xffffffff") for s in calls["wait4"]["samples"]), calls["wait4"]' "$W/r1.json" ||
		{ fail "a pid or address is in the report, or kill(0) lost its 0"; cat "$W/r1.json" >&2; }
}

t_learn_paths_relative() {
	# learn --paths on a program that changes directory and opens a
	# relative name: learned as written ("foo", exact), as sysward run's
	# path conditions match (decide.c path_holds; sysward-policy(5):
	# "matched as written, not resolved").  Learning the resolved
	# "/.../d/foo" would refuse the very run it was learned from.  The
	# same run passes the gate; a relative name outside it trips it.
	mkdir -p "$W/d" && echo hi >"$W/d/foo"
	cli learn --paths -o "$W/p.json" -- sh -c 'cd "$1" && cat foo' sh "$W/d"
	expect_rc 0
	expect_output "hi"
	"$PYTHON" -c 'import json, sys
r = json.load(open(sys.argv[1]))
c = [x["paths"] for x in r["syscalls"] if "openat" in x["names"] and "paths" in x]
assert [{"index": 1, "exact": "foo"}] in c, c' "$W/p.json" ||
		{ fail "openat of foo not learned as written"; cat "$W/p.json" >&2; }
	sw "$W/p.json" --gate -- sh -c 'cd "$1" && cat foo' sh "$W/d"
	expect_rc 0
	expect_output "hi"
	sw "$W/p.json" --gate -- sh -c 'cd "$1" && cat ../../../../../../etc/hostname' sh "$W/d"
	expect_rc 122
	expect_err 'e.g. openat(AT_FDCWD, "../../../../../../etc/hostname", O_RDONLY)'
}

t_learn_filesystem_merge() {
	# learn --filesystem --merge BASE: the learned "filesystem" section
	# is added to a BASE without one; a BASE with its own keeps it (its
	# author's), and a warning says the learned one was left out (not
	# with -q).  --format oci refuses it (runc ignores the section).
	local b
	mkdir -p "$W/d" && echo x >"$W/d/f"
	b=$(policy base <<<'{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": []}')
	cli learn --filesystem --merge "$b" -o "$W/m.json" -- cat "$W/d/f"
	expect_rc 0
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert any(e["path"] == "/usr" for e in d["filesystem"]["paths"]), d' "$W/m.json" ||
		{ fail "--merge lost the learned filesystem section"; cat "$W/m.json" >&2; }
	b=$(policy own <<<'{"defaultAction": "SCMP_ACT_ERRNO", "filesystem": {"paths": [{"path": "/", "access": "rw"}]}}')
	cli learn --filesystem --merge "$b" -o "$W/o.json" -- cat "$W/d/f"
	expect_rc 0
	expect_err 'warning: --filesystem: the base policy has its own "filesystem" section: kept, the learned one left out'
	"$PYTHON" -c 'import json, sys
assert json.load(open(sys.argv[1]))["filesystem"] == {"paths": [{"path": "/", "access": "rw"}]}' "$W/o.json" ||
		{ fail "--merge replaced the base policy's own section"; cat "$W/o.json" >&2; }
	cli learn -q --filesystem --merge "$b" -o "$W/o.json" -- cat "$W/d/f"
	[ ! -s "$W/err" ] || fail "-q printed: $(cat "$W/err")"
	cli learn --filesystem --format oci -o "$W/x.json" -- true
	expect_rc 2
	expect_err "not with --format oci"
}

t_learn_paths_never_widens() {
	# learn --paths never widens without saying so.  A path no rule can
	# say (a directory that is not UTF-8) made the call learned by name
	# before: the learned policy allowed openat of every path, silently,
	# and a file the run never opened opened under it.  Now: the paths
	# that could be said stay rules of their own, the rest is refused and
	# said on stderr; --catch-all writes an explicit, commented rule that
	# allows every path instead, and says that.  A path the kernel could
	# not read (EFAULT) needs no rule: the learned rules fail it alike.
	# A NULL path (the descriptor itself, AT_EMPTY_PATH) is learned as
	# the argument 0, glibc's fstat ("") as the exact empty path.
	local odd
	odd=$(printf '\377')
	mkdir -p "$W/ok" "$W/other" "$W/$odd"
	echo ok >"$W/ok/f"; echo other >"$W/other/f"; echo odd >"$W/$odd/f"
	cli learn --paths -o "$W/p.json" -- "$PROBE" open-badptr fstat-null \
		open "$W/ok/f" rdonly open "$W/$odd/f" rdonly
	expect_rc 0
	expect_line "open(badptr)=-EFAULT" "fstat-null=ok" \
		"open($W/ok/f,rdonly)=ok" "open($W/$odd/f,rdonly)=ok"
	expect_err "warning: --paths: openat: 1 path not learned, not UTF-8"
	expect_err "the policy allows only the paths learned (--catch-all would allow it every path)"
	"$PYTHON" -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["syscalls"] if "openat" in x["names"]]
assert r == [{"names": ["openat"], "action": "SCMP_ACT_ALLOW",
              "paths": [{"index": 1, "prefix": sys.argv[2] + "/ok/"}]}], r' \
		"$W/p.json" "$W" || { fail "openat not learned by its paths alone"; cat "$W/p.json" >&2; }
	# The same run passes the gate under it; a file it never opened is
	# refused (before: opened).
	sw "$W/p.json" --gate -- "$PROBE" open-badptr fstat-null open "$W/ok/f" rdonly
	expect_rc 0
	expect_line "open(badptr)=-EFAULT" "fstat-null=ok" "open($W/ok/f,rdonly)=ok"
	sw "$W/p.json" -- "$PROBE" open "$W/other/f" rdonly
	expect_output "open($W/other/f,rdonly)=-EPERM"
	# --catch-all: the explicit rule, last for openat, with its reason.
	cli learn --paths --catch-all -o "$W/c.json" -- "$PROBE" \
		open "$W/ok/f" rdonly open "$W/$odd/f" rdonly
	expect_rc 0
	expect_err "warning: --paths: openat: 1 path not learned, not UTF-8"
	expect_err "its last rule, a catch-all, allows it every path"
	"$PYTHON" -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["syscalls"] if "openat" in x["names"]]
assert len(r) == 2 and "paths" in r[0] and "paths" not in r[1], r
assert r[1]["comment"].startswith("catch-all (sysward learn --catch-all): every path, since 1 path was not learned"), r' \
		"$W/c.json" || { fail "no explicit catch-all"; cat "$W/c.json" >&2; }
	sw "$W/c.json" -- "$PROBE" open "$W/other/f" rdonly
	expect_output "open($W/other/f,rdonly)=ok"
	cli learn --catch-all -o "$W/x.json" -- true
	expect_rc 2
	expect_err "--catch-all is about the paths --paths learns"
}

sw_command_line "$@"
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${PROBE:?PROBE must name the sw-probe binary}"
sw_skip_unless_root "integration tests trace programs"
sw_run_scenarios rec "$@"
exit $failed
