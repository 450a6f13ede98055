#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sysward-runtime (runtime/) as the OCI runtime of real engines: runc with
# hand-made bundles (rt-bundle.py), Podman with --runtime and --rootfs,
# and containerd's runc shim, in a containerd of the scenario's own.  A
# root file system is a directory of static binaries (busybox-static and
# sw-probe, lib.sh): no image is downloaded.  Every scenario compares what
# a program sees from inside a container through sysward-runtime with
# what it sees under plain runc, the reference.
#
#   runtime.sh --list          print the scenario names (one CTest test each)
#   runtime.sh SCENARIO...     run scenarios; exit 0 pass, 1 fail, 77 skipped
#
# Environment (set by CTest, see CMakeLists.txt):
#   RUNTIME   sysward-runtime            SYSWARD  sysward (dynamic: info)
#   PROBE     sw-probe (static)          SRCDIR   the source tree
#   PRETEND   sw-pretend (tests/lib/pretend.c): a command as on an older
#             kernel
#
# Skipped (77) only where the tool cannot run here: runc, Podman or
# containerd missing or unable to start a plain container (the reason is
# printed), or a kernel without PTRACE_SET_SYSCALL_INFO for the scenarios
# that need sysward's supervisor.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)

. "$HERE/../lib/common.sh"
. "$HERE/lib.sh"
W=

# ---------------------------------------------------------------- helpers

# The policy every "observed from inside" check uses: an emulated call, a
# path rule, a rewrite (by path) and an errno rule.  Under it sw-probe
# prints CONFINED; in the same container without it, PLAIN.
PROBE_OPS=(getuid open /etc/motd rdonly open /tmp/new wronly,creat
	   exists /tmp/new mkdir /tmp/d open /probe rdonly)
CONFINED="getuid=4242
open(/etc/motd,rdonly)=-EACCES
open(/tmp/new,wronly,creat)=-ENOENT
exists(/tmp/new)=no
mkdir(/tmp/d)=-EXDEV
open(/probe,rdonly)=ok"
PLAIN="getuid=0
open(/etc/motd,rdonly)=ok
open(/tmp/new,wronly,creat)=ok
exists(/tmp/new)=yes
mkdir(/tmp/d)=ok
open(/probe,rdonly)=ok"

# rt_policy NAME <<JSON: a policy in the scenario's policy directory.
rt_policy() {
	cat >"$W/policies/.$1.tmp" && mv -f "$W/policies/.$1.tmp" "$W/policies/$1.json"
}

confine_policy() {
	rt_policy confine <<-'EOF'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [
	   {"names": ["getuid", "geteuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	   {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errno": "EACCES",
	    "paths": [{"index": 1, "prefix": "/etc/"}]},
	   {"names": ["open"], "action": "SCMP_ACT_ERRNO", "errno": "EACCES",
	    "paths": [{"index": 0, "prefix": "/etc/"}]},
	   {"names": ["openat"], "action": "SYSWARD_ACT_REWRITE",
	    "rewrite": {"args": [{"index": 2, "and": "~O_CREAT"}]},
	    "paths": [{"index": 1, "prefix": "/tmp/"}]},
	   {"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errno": "EXDEV"}]}
	EOF
}

# A policy that changes nothing a test compares, with a supervisor rule
# (so sysward's tracer is really there).
log_policy() {
	rt_policy log <<-'EOF'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["sched_yield"], "action": "SYSWARD_ACT_LOG"}]}
	EOF
}

# rt_setup: the root file system (with /etc/motd for the path rule), the
# policy directory, and the runtime's settings pointing at them.
rt_setup() {
	oci_rootfs "$W/rootfs" "$PROBE" || return 1
	mkdir -p "$W/rootfs/etc" "$W/rootfs/tmp" "$W/policies" "$W/state" || return 1
	echo "welcome" >"$W/rootfs/etc/motd"
	export SYSWARD_RUNTIME_POLICY_DIRS=$W/policies
	confine_policy
	log_policy
}

# mkbundle DIR [rt-bundle.py OPTIONS] -- ARGS...
mkbundle() {
	local dir=$1
	shift
	"$PYTHON" "$HERE/rt-bundle.py" "$dir" --rootfs "$W/rootfs" "$@" >/dev/null ||
		fail "rt-bundle.py $dir $* failed"
}

# rtc ARGS...: sysward-runtime with the scenario's state root; captured
# as common.sh's run does ($rc, $out, $err).  RT_KERNEL: a command line
# it runs under (sw-pretend's, for an older kernel), else none.
# own_config BUNDLE NAME: the config.json sysward-runtime handed runc for
# container() NAME of BUNDLE (the bundle's own is never rewritten).
own_config() { echo "$1/.sysward-sysward-oci-$$-$2/config.json"; }

RT_KERNEL=()
rtc() {
	run ${RT_KERNEL[@]+"${RT_KERNEL[@]}"} "$RUNTIME" --root "$W/state" "$@"
}

# needs_supervisor: the scenario's policies need PTRACE_SET_SYSCALL_INFO.
needs_supervisor() {
	if ! "$SYSWARD" info 2>/dev/null | grep -Fxq "PTRACE_SET_SYSCALL_INFO:  yes"; then
		echo "SKIP: this kernel ($(uname -r)) lacks PTRACE_SET_SYSCALL_INFO (sysward info): sysward's supervisor cannot run here"
		exit 77
	fi
}

# bg_run NAME BUNDLE RUNTIME: "RUNTIME run" in the background, with the
# scenario's state root; its status goes to $W/NAME.rc when it ends.
bg_run() {
	(
		timeout -k 5 120 "$3" --root "$W/state" run --bundle "$2" "$1" \
			>"$W/$1.out" 2>"$W/$1.err" </dev/null
		echo $? >"$W/$1.rc.tmp" && mv "$W/$1.rc.tmp" "$W/$1.rc"
	) &
}

# state_field ID FIELD: a field of runc's state of ID ("" if none).
state_field() {
	runc --root "$W/state" state "$1" 2>/dev/null |
		"$PYTHON" -c 'import json, sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$2" 2>/dev/null
}

# wait_status ID STATUS: up to 10 s for ID's state to be STATUS.
wait_status() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(state_field "$1" status)" = "$2" ] && return 0
		sleep 0.1
	done
	fail "container $1 did not become $2 (state: $(runc --root "$W/state" state "$1" 2>&1 | head -3))"
	return 1
}

# wait_rc NAME: the status bg_run NAME left, into $rc (124: not in 20 s).
wait_rc() {
	if ! wait_file "$W/$1.rc" 200; then
		rc=124
		fail "$1 did not end"
		return 1
	fi
	rc=$(cat "$W/$1.rc")
	cp "$W/$1.out" "$W/out"
	cp "$W/$1.err" "$W/err"
	last_cmd=("run" "$1")
}

# wait_socket PATH TENTHS: up to TENTHS tenths of a second for a socket.
wait_socket() { sw_wait_until -S "$@"; }

# clean_tmp: empty the root file system's /tmp, which Podman and
# containerd (no tmpfs of ours there) share between containers.
clean_tmp() {
	rm -rf "${W:?}/rootfs/tmp" && mkdir -m 1777 "$W/rootfs/tmp"
}

# expect_same A B WHAT: files A and B are identical.
expect_same() {
	if ! cmp -s "$1" "$2"; then
		fail "$3 differ:"
		diff -u "$1" "$2" >&2
	fi
}

# ---------------------------------------------------------------- runc

t_runtime_policy_inside() {
	# The bundle names a policy; from inside the container, each kind
	# of rule is observed, and the same container under plain runc
	# (the bundle without the annotation) sees the real answers.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	mkbundle "$W/sw" --annotation io.sysward.policy=confine -- /probe "${PROBE_OPS[@]}"
	mkbundle "$W/plain" -- /probe "${PROBE_OPS[@]}"
	container sw "$W/sw" "$RUNTIME"
	expect_rc 0
	expect_output "$CONFINED"
	[ -s "$W/err" ] && fail "stderr: $(head -5 "$W/err")"
	container plain "$W/plain" runc
	expect_rc 0
	expect_output "$PLAIN"
	# The same by absolute path, and with ".json" left out (a name).
	mkbundle "$W/abs" --annotation io.sysward.policy="$W/policies/confine.json" -- /probe getuid
	container abs "$W/abs" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242"
	# The config.json runc was handed runs sysward first, by the
	# descriptor sysward-runtime hands it (3: nothing preserved), through
	# a proc mount of its own, last; nothing of the host's layout shows.
	"$PYTHON" - "$(own_config "$W/sw" sw)" <<-'EOF' || fail "the wrapped config.json is not as expected"
	import json, sys
	s = json.load(open(sys.argv[1]))
	a = s["process"]["args"]
	assert a[:7] == ["/proc/self/fd/3", "run", "-q", "--policy-fd", "4", "--keep-fds", "3"], a
	assert a[a.index("--") + 1:][:2] == ["/probe", "getuid"], a
	# no compiled-filter cache written into the container's files
	assert "--no-cache" in a[:a.index("--")], a
	last = s["mounts"][-1]
	assert (last["destination"], last["type"]) == ("/proc", "proc"), last
	assert not [x for x in s["mounts"] if "sysward" in json.dumps(x)], s["mounts"]
	assert s["annotations"]["io.sysward.runtime.wrapped"] == "annotation"
	assert s["annotations"]["io.sysward.runtime.mounts"] == "1"
	EOF
}

t_runtime_pid1_exec() {
	# A running container: sysward is its process 1 and traces the
	# program; runtime exec (a command line, or --process as Podman and
	# containerd give it) runs under sysward too, where a plain runc exec
	# of the same container does not; the binary process 1 executes is
	# the static sysward, and neither it nor the policy can be written
	# through what process 1 holds; state is runc's; kill TERM gives the
	# program's status.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local id=rt-pid1 pid child tracer ok=1
	mkbundle "$W/b" --annotation io.sysward.policy=confine -- \
		/bin/sh -c 'trap "exit 42" TERM; echo started; while :; do /bin/busybox sleep 0.1; done'
	bg_run "$id" "$W/b" "$RUNTIME"
	wait_status "$id" running || return
	pid=$(state_field "$id" pid)
	if ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q '^/proc/self/fd/3 run -q --policy-fd 4 --keep-fds 3 '; then
		fail "process 1 ($pid) is not sysward: $(tr '\0' ' ' <"/proc/$pid/cmdline")"
	fi
	cmp -s "/proc/$pid/exe" "$(dirname "$RUNTIME")/../libexec/sysward/sysward-static" ||
		fail "process 1 ($pid) does not execute the static sysward"
	for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
		tracer=$(awk '/^TracerPid:/ {print $2}' "/proc/$child/status")
		[ "$tracer" = "$pid" ] || { fail "process 1's child $child is traced by '$tracer', not by sysward ($pid)"; ok=0; }
	done
	[ -n "${child:-}" ] || fail "process 1 has no child"

	rtc exec "$id" /probe getuid open /etc/motd rdonly
	expect_rc 0
	expect_output "getuid=4242
open(/etc/motd,rdonly)=-EACCES"
	# The control: runc's own exec into the same container is not
	# supervised, which is why the runtime must do it.
	run runc --root "$W/state" exec "$id" /probe getuid
	expect_output "getuid=0"
	# --process FILE: read, never written; the exec'd process is a
	# tracee of its own sysward.
	cat >"$W/process.json" <<-'EOF'
	{"args": ["/bin/busybox", "sh", "-c", "/probe getuid; /bin/busybox grep -c '^TracerPid:[[:space:]]*[1-9]' /proc/self/status"],
	 "cwd": "/", "env": ["PATH=/bin"], "user": {"uid": 0, "gid": 0}}
	EOF
	cp "$W/process.json" "$W/process.orig"
	rtc exec --process "$W/process.json" "$id"
	expect_rc 0
	expect_output "getuid=4242
1"
	expect_same "$W/process.orig" "$W/process.json" "the --process file before and after"
	rtc exec --process="$W/process.json" "$id"
	expect_output "getuid=4242
1"
	# Unchangeable, even for root on the host through process 1's own
	# descriptors: the policy a sealed memfd (which sysward keeps for
	# exec, close-on-exec), the binary a read-only mount's file (its
	# descriptor closed; its exe link refuses a write open).
	local sum
	sum=$(cksum <"$(dirname "$RUNTIME")/../libexec/sysward/sysward-static")
	[ "$(readlink "/proc/$pid/fd/4")" = "/memfd:sysward-policy (deleted)" ] ||
		fail "process 1's descriptor 4 is $(readlink "/proc/$pid/fd/4"), not the policy's memfd"
	local fd exe
	exe=$(stat -L -c %d:%i "/proc/$pid/exe")
	for fd in /proc/"$pid"/fd/*; do
		[ "$(stat -L -c %d:%i "$fd")" != "$exe" ] ||
			fail "process 1 kept the descriptor it was executed through ($fd)"
	done
	"$PYTHON" - "$pid" <<-'EOF' >"$W/writes" 2>&1 || fail "a write reached sysward or its policy: $(cat "$W/writes")"
	import errno, os, sys
	pid = sys.argv[1]
	for name, want in (("fd/4", (errno.EPERM,)), ("exe", (errno.ETXTBSY, errno.EROFS))):
	    try:
	        fd = os.open("/proc/%s/%s" % (pid, name), os.O_WRONLY | os.O_APPEND)
	        os.write(fd, b"x")
	        sys.exit("%s: written" % name)
	    except OSError as e:
	        if e.errno not in want:
	            sys.exit("%s: %s, expected %s" % (name, e, errno.errorcode[want[0]]))
	EOF
	[ "$(cksum <"$(dirname "$RUNTIME")/../libexec/sysward/sysward-static")" = "$sum" ] ||
		fail "the static sysward changed"
	# The program holds nothing of sysward-runtime's, nor does an exec'd
	# process: what runc passes on, 0 to 2.
	rtc exec "$id" /probe fd-names
	expect_rc 0
	expect_output "fd 0: pipe
fd 1: pipe
fd 2: pipe"
	# state: runc's answer, as runc gives it.
	rtc state "$id"
	cp "$W/out" "$W/state.rt"
	runc --root "$W/state" state "$id" >"$W/state.runc"
	expect_same "$W/state.runc" "$W/state.rt" "runc's state and the runtime's"
	# The delegate's other commands on a sysward container.
	rtc ps "$id"
	expect_rc 0
	expect_out_contains "/proc/self/fd/3 run -q --policy-fd 4 --keep-fds 3"
	rtc events --stats "$id"
	expect_rc 0
	expect_out_contains '"type":"stats"'
	rtc pause "$id"
	expect_rc 0
	[ "$(state_field "$id" status)" = paused ] || fail "pause: not paused"
	rtc resume "$id"
	expect_rc 0
	[ "$(state_field "$id" status)" = running ] || fail "resume: not running"
	# kill TERM: the program's trap decides the status.
	rtc kill "$id" TERM
	expect_rc 0
	wait_rc "$id"
	expect_rc 42
	expect_output "started"
}

t_runtime_kill() {
	# runc kill reaches the program as it reaches a container's process
	# 1 under plain runc: a caught USR1 or TERM gives the program's
	# status, with and without sysward.  (sysward, process 1, must catch
	# and forward every signal: the kernel drops those an init does not
	# catch.)
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local prog='trap "exit 43" USR1; trap "exit 42" TERM; echo up; while :; do /bin/busybox sleep 0.1; done'
	local rtime sig want
	mkbundle "$W/sw" --annotation io.sysward.policy=log -- /bin/sh -c "$prog"
	mkbundle "$W/plain" -- /bin/sh -c "$prog"
	for sig in USR1 TERM; do
		want=$([ $sig = USR1 ] && echo 43 || echo 42)
		for rtime in "$RUNTIME" runc; do
			local b=$([ "$rtime" = runc ] && echo plain || echo sw)
			local id="k-$b-$sig"
			bg_run "$id" "$W/$b" "$rtime"
			wait_status "$id" running || continue
			wait_file "$W/$id.out" 50 || fail "$id did not start"
			"$rtime" --root "$W/state" kill "$id" "$sig" || fail "$rtime kill $id $sig failed"
			wait_rc "$id"
			[ "$rc" = "$want" ] || fail "$b: kill $sig gave status $rc, expected $want"
			expect_output "up"
		done
	done
}

t_runtime_user_caps_terminal() {
	# The user, groups, capabilities and no_new_privs a container's
	# process gets are the same through sysward-runtime as under runc,
	# for root with runc's default capabilities and for another user
	# with capabilities (ambient); and a terminal container gets its
	# terminal.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local ops=(/probe getuid getgid caps cwd env PATH exit 7) b
	for b in root:: user:1000:1000:5,6; do
		local name=${b%%:*} user=${b#*:}
		local args=()
		[ "$name" = user ] && args=(--user "${user}" --caps CAP_CHOWN,CAP_NET_RAW,CAP_KILL)
		mkbundle "$W/$name-sw" "${args[@]}" --annotation io.sysward.policy=log -- "${ops[@]}"
		mkbundle "$W/$name-plain" "${args[@]}" -- "${ops[@]}"
		container "$name-sw" "$W/$name-sw" "$RUNTIME"
		expect_rc 7
		container "$name-plain" "$W/$name-plain" runc
		expect_rc 7
		expect_same "$W/$name-plain.out" "$W/$name-sw.out" "$name: the program's view (plain runc, then sysward-runtime)"
		expect_same "$W/$name-plain.err" "$W/$name-sw.err" "$name: stderr"
	done
	grep -q '^CapEff: *0000000000000000' "$W/root-plain.out" &&
		fail "runc gave root no capabilities: the comparison proves nothing"
	grep -Fxq "getuid=1000" "$W/user-sw.out" || fail "the user's uid is not 1000"
	# A terminal: the program's stdin and stdout are the terminal runc
	# hands to the console socket.
	local mode
	for mode in sw plain; do
		local rtime=$([ $mode = sw ] && echo "$RUNTIME" || echo runc)
		local ann=()
		[ $mode = sw ] && ann=(--annotation io.sysward.policy=log)
		mkbundle "$W/tty-$mode" --terminal "${ann[@]}" -- \
			/bin/sh -c '/bin/busybox tty; /bin/busybox stty size; /probe getgid'
		timeout 60 "$PYTHON" "$HERE/console.py" "$W/console-$mode.sock" "$W/tty-$mode.out" &
		wait_socket "$W/console-$mode.sock" 50 || fail "console.py did not start"
		run "$rtime" --root "$W/state" run -d --console-socket "$W/console-$mode.sock" \
			--bundle "$W/tty-$mode" "tty-$mode"
		expect_rc 0
		wait
		tr -d '\r' <"$W/tty-$mode.out" >"$W/tty-$mode.txt"
	done
	expect_same "$W/tty-plain.txt" "$W/tty-sw.txt" "the terminal's output (plain runc, then sysward-runtime)"
	grep -q '^/dev/pts/' "$W/tty-sw.txt" || fail "no terminal: $(cat "$W/tty-sw.txt")"
}

t_runtime_passthrough() {
	# A bundle that does not ask for sysward: the runtime is runc.  The
	# same output, errors and status, side by side; its config.json not
	# touched, nothing written to the bundle; exec and state as runc's.
	# With a plain seccomp profile too (runc enforces it).
	rt_setup || { fail "setup"; return; }
	cat >"$W/profile.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}
	EOF
	local v
	for v in noseccomp seccomp; do
		local sc=()
		[ $v = seccomp ] && sc=(--seccomp "$W/profile.json")
		mkbundle "$W/$v-rt" "${sc[@]}" -- /probe getuid caps mkdir /tmp/d cwd open /nonexistent rdonly exit 3
		mkbundle "$W/$v-runc" "${sc[@]}" -- /probe getuid caps mkdir /tmp/d cwd open /nonexistent rdonly exit 3
		cp "$W/$v-rt/config.json" "$W/$v.before"
		container "$v-rt" "$W/$v-rt" "$RUNTIME"
		expect_rc 3
		container "$v-runc" "$W/$v-runc" runc
		expect_rc 3
		expect_same "$W/$v-runc.out" "$W/$v-rt.out" "$v: stdout (runc, then sysward-runtime)"
		expect_same "$W/$v-runc.err" "$W/$v-rt.err" "$v: stderr"
		expect_same "$W/$v.before" "$W/$v-rt/config.json" "$v: config.json before and after"
		[ -e "$W/$v-rt/sysward-policy.json" ] && fail "$v: a policy was written to the bundle"
	done
	grep -Fxq "mkdir(/tmp/d)=-EPERM" "$W/seccomp-rt.out" || fail "the profile was not enforced"
	grep -Fxq "mkdir(/tmp/d)=ok" "$W/noseccomp-rt.out" || fail "mkdir failed without a profile"
	# A program that is not there: runc's error and status.
	mkbundle "$W/nx-rt" -- /nonexistent
	mkbundle "$W/nx-runc" -- /nonexistent
	container nx-rt "$W/nx-rt" "$RUNTIME"
	local rc_rt=$rc
	container nx-runc "$W/nx-runc" runc
	[ "$rc_rt" = "$rc" ] || fail "a missing program: status $rc_rt, runc's $rc"
	sed 's/sysward-oci-[0-9]*-nx-\(rt\|runc\)/ID/' "$W/nx-rt.err" >"$W/nx-rt.e"
	sed 's/sysward-oci-[0-9]*-nx-\(rt\|runc\)/ID/' "$W/nx-runc.err" >"$W/nx-runc.e"
	expect_same "$W/nx-runc.e" "$W/nx-rt.e" "a missing program's error"
	# exec and state of a running plain container.
	mkbundle "$W/run" -- /bin/busybox sleep 30
	bg_run pt "$W/run" "$RUNTIME"
	wait_status pt running || return
	rtc exec pt /probe getuid
	expect_output "getuid=0"
	rtc state pt
	cp "$W/out" "$W/pt.rt"
	runc --root "$W/state" state pt >"$W/pt.runc"
	expect_same "$W/pt.runc" "$W/pt.rt" "state"
	rtc kill pt KILL
	wait_rc pt
	expect_rc 137
}

t_runtime_seccomp_section() {
	# A linux.seccomp section with sysward's actions asks for sysward
	# with no annotation (runc refuses that bundle); a Docker-style
	# profile beside the annotation is replaced by the policy, and the
	# runtime log says so.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	mkbundle "$W/sw" --seccomp "$W/policies/confine.json" -- /probe "${PROBE_OPS[@]}"
	cp -r "$W/sw" "$W/runc"
	container sw "$W/sw" "$RUNTIME"
	expect_rc 0
	expect_output "$CONFINED"
	"$PYTHON" -c 'import json,sys; s=json.load(open(sys.argv[1])); assert "seccomp" not in s["linux"]; assert s["annotations"]["io.sysward.runtime.wrapped"] == "linux.seccomp"' \
		"$(own_config "$W/sw" sw)" || fail "linux.seccomp was not moved into the policy"
	expect_same "$W/runc/config.json" "$W/sw/config.json" "the bundle's own config.json"
	container runc "$W/runc" runc
	[ "$rc" -ne 0 ] || fail "runc accepted sysward's actions: the test proves nothing"
	# Run again: the same.
	container sw2 "$W/sw" "$RUNTIME"
	expect_rc 0
	expect_output "$CONFINED"

	cat >"$W/docker.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
	 "syscalls": [{"names": ["read", "write", "exit", "exit_group", "execve", "brk",
	   "arch_prctl", "mmap", "munmap", "rt_sigaction", "rt_sigprocmask", "getuid",
	   "openat", "close", "fstat", "newfstatat", "set_tid_address", "uname", "readlink",
	   "prlimit64", "getpid", "getppid", "futex", "mprotect", "set_robust_list", "rseq"],
	   "action": "SCMP_ACT_ALLOW"}]}
	EOF
	mkbundle "$W/both" --seccomp "$W/docker.json" --annotation io.sysward.policy=confine -- \
		/probe getuid mkdir /tmp/d
	run "$RUNTIME" --root "$W/state" --log "$W/rt.log" --log-format json run --bundle "$W/both" both
	expect_rc 0
	expect_output "getuid=4242
mkdir(/tmp/d)=-EXDEV"
	"$PYTHON" - "$W/rt.log" <<-'EOF' || fail "no log line about the replaced profile: $(cat "$W/rt.log")"
	import json, sys
	lines = [json.loads(l) for l in open(sys.argv[1])]
	assert any(l["level"] == "info" and "linux.seccomp (1 rules, defaultAction SCMP_ACT_ERRNO) is replaced by the policy" in l["msg"] for l in lines), lines
	EOF
}

t_runtime_fsrules() {
	# A linux.seccomp section with sysward's "filesystem" and "network"
	# sections (route 21) and nothing else of sysward's: runc starts the
	# container and drops them unread (the program makes a directory
	# where the rules say read-only: /work, a tmpfs), so sysward-runtime
	# runs it under sysward, where the kernel refuses it; the rules are
	# looked up in the container's view ("/" is its root file system).
	rt_setup || { fail "setup"; return; }
	mkdir -p "$W/rootfs/work"
	cat >"$W/fs.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "filesystem": {"paths": [{"path": "/", "access": "ro"},
	                          {"path": "/tmp", "access": "rw"}]},
	 "network": {"tcp": {"bind": [], "connect": []}}}
	EOF
	mkbundle "$W/sw" --seccomp "$W/fs.json" --tmpfs /work -- /probe mkdir /work/d mkdir /tmp/d
	cp -r "$W/sw" "$W/runc"
	container runc "$W/runc" runc
	expect_rc 0
	expect_output "mkdir(/work/d)=ok
mkdir(/tmp/d)=ok"
	container sw "$W/sw" "$RUNTIME"
	expect_rc 0
	expect_output "mkdir(/work/d)=-EACCES
mkdir(/tmp/d)=ok"
}

# refused BUNDLE WHAT...: create of BUNDLE fails with status 1 and each
# WHAT on stderr, leaves its config.json as it was, writes nothing to it,
# and creates no container; its program never ran.
refused() {
	local b=$1 id=ref-$RANDOM
	shift
	cp "$b/config.json" "$W/refused.before"
	rm -f "$W/ran/x"
	rtc create --bundle "$b" "$id"
	expect_rc 1
	expect_err "$@"
	expect_same "$W/refused.before" "$b/config.json" "config.json of a refused bundle"
	[ -e "$b/sysward-policy.json" ] && fail "a refused bundle got a policy copy"
	[ -e "$b/.sysward-$id" ] && fail "a refused bundle got a bundle of sysward-runtime's"
	runc --root "$W/state" state "$id" >/dev/null 2>&1 && fail "a refused bundle's container exists"
	[ -e "$W/ran/x" ] && fail "a refused bundle's program ran"
	return 0
}

t_runtime_refusals() {
	# What a bundle may not do, and what the runtime refuses rather than
	# run a container that asked for sysward without it.
	rt_setup || { fail "setup"; return; }
	mkdir -p "$W/ran" "$W/outside"
	local args=(--bind "$W/ran:/ran" -- /bin/sh -c 'echo ran >/ran/x')
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$W/outside/permissive.json"
	ln -s "$W/outside/permissive.json" "$W/policies/escape.json"
	printf '{"defaultAction": "SCMP_ACT_ALLOW",\n "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": }]}\n' \
		>"$W/policies/broken.json"
	mkbundle "$W/b" --annotation io.sysward.policy=/etc/hostname "${args[@]}"
	refused "$W/b" "is not in a policy directory ($W/policies)"
	mkbundle "$W/b" --annotation io.sysward.policy="$W/outside/permissive.json" "${args[@]}"
	refused "$W/b" "is not in a policy directory"
	mkbundle "$W/b" --annotation io.sysward.policy=escape "${args[@]}"
	refused "$W/b" "escape.json is not in a policy directory"
	# Refused before any open: the file outside is never opened (a
	# device's open alone may act).
	if command -v strace >/dev/null; then
		run strace -f -qq -e trace=open,openat,openat2 -o "$W/strace" \
			"$RUNTIME" --root "$W/state" create --bundle "$W/b" traced
		expect_rc 1
		grep -F "permissive.json" "$W/strace" | grep -q 'open' &&
			fail "a policy outside the policy directories was opened: $(grep -F permissive.json "$W/strace")"
		grep -q 'openat' "$W/strace" || fail "strace saw no open at all: the check proves nothing"
	fi
	mkbundle "$W/b" --annotation io.sysward.policy=../outside/permissive "${args[@]}"
	refused "$W/b" "is neither an absolute path nor a policy's name"
	mkbundle "$W/b" --annotation 'io.sysward.policy={"defaultAction": "SCMP_ACT_ALLOW"}' "${args[@]}"
	refused "$W/b" "inline JSON is not accepted"
	mkbundle "$W/b" --annotation io.sysward.policy=nosuch "${args[@]}"
	refused "$W/b" "no policy 'nosuch' (nor 'nosuch.json') in the policy directories"
	mkbundle "$W/b" --annotation io.sysward.policy=broken "${args[@]}"
	refused "$W/b" "broken.json:2:"
	mkbundle "$W/b" --annotation io.sysward.policy= "${args[@]}"
	refused "$W/b" "annotations.io.sysward.policy: expected the path or the name of a policy file"
	# No static sysward, a dynamic one, a kernel without the request.
	mkbundle "$W/b" --annotation io.sysward.policy=confine "${args[@]}"
	SYSWARD_RUNTIME_SYSWARD=/nonexistent/sysward refused "$W/b" \
		"open the static sysward /nonexistent/sysward"
	SYSWARD_RUNTIME_SYSWARD=$SYSWARD refused "$W/b" "is dynamically linked"
	RT_KERNEL=("$PRETEND" --no-set-syscall-info --)
	refused "$W/b" "lacks PTRACE_SET_SYSCALL_INFO"
	RT_KERNEL=()
	# A config.json wrapped in place (as an older sysward-runtime left
	# it) whose arguments were changed since.
	rtc create --bundle "$W/b" made
	expect_rc 0
	rtc delete -f made
	"$PYTHON" -c 'import json,sys; s=json.load(open(sys.argv[1])); s["process"]["args"]=["/bin/sh","-c","echo ran >/ran/x"]; json.dump(s,open(sys.argv[2],"w"))' \
		"$W/b/.sysward-made/config.json" "$W/b/config.json"
	rm -rf "$W/b/.sysward-made"
	refused "$W/b" "its arguments no longer start with sysward's: put the bundle's own config.json back"
	# restore of a sysward bundle; crun's --config.
	mkbundle "$W/b" --annotation io.sysward.policy=confine "${args[@]}"
	rtc restore --image-path "$W/nowhere" --bundle "$W/b" rest
	expect_rc 1
	expect_err "a container under sysward cannot be restored"
	rtc create --config "$W/b/config.json" --bundle "$W/b" cfg
	expect_rc 1
	expect_err "--config is not supported"
	[ -e "$W/ran/x" ] && fail "a refused program ran"
	return 0
}

t_runtime_env_knobs() {
	# Issue 32: nothing in a bundle's process.env (a pod's "env:" can set
	# it), which is sysward's own environment as the container's process
	# 1, nor in the runtime's environment, changes a defence.  The names
	# the engine once read as test knobs (SYSWARD_PRETEND_*): the program
	# still cannot connect to a host abstract unix socket (Landlock's
	# scope, ABI 6 and later), and a supervisor policy still runs.  The
	# control, the same container under plain runc, connects.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local name=sysward-oci-knob-$$ knobs
	knobs=(--env SYSWARD_PRETEND_LANDLOCK_ABI=5 --env SYSWARD_PRETEND_NO_SET_SYSCALL_INFO=1)
	"$PYTHON" -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind("\0" + sys.argv[1]); s.listen(16)
open(sys.argv[2], "w").write("up"); time.sleep(120)' "$name" "$W/listener.up" &
	local lpid=$!
	wait_file "$W/listener.up" 50 || { fail "the host's listener did not start"; kill "$lpid"; return; }
	mkbundle "$W/plain" --host-netns "${knobs[@]}" -- /probe getuid connect-abstract "$name"
	container plain "$W/plain" runc
	expect_rc 0
	expect_output "getuid=0
connect(@$name)=ok"
	mkbundle "$W/sw" --host-netns "${knobs[@]}" --annotation io.sysward.policy=confine -- \
		/probe getuid connect-abstract "$name" env SYSWARD_PRETEND_LANDLOCK_ABI
	container sw "$W/sw" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242
connect(@$name)=-EPERM
env SYSWARD_PRETEND_LANDLOCK_ABI=5"
	# In the runtime's own environment (an engine's, a wrapper's): its
	# kernel check is not fooled either.
	mkbundle "$W/rt" --host-netns --annotation io.sysward.policy=confine -- \
		/probe getuid connect-abstract "$name"
	SYSWARD_PRETEND_NO_SET_SYSCALL_INFO=1 SYSWARD_PRETEND_LANDLOCK_ABI=0 \
		rtc run --bundle "$W/rt" "knob-rt-$$"
	expect_rc 0
	expect_output "getuid=4242
connect(@$name)=-EPERM"
	kill "$lpid"
	wait "$lpid" 2>/dev/null
	# Nor is the name anywhere in the runtime or the static sysward.
	local bin
	for bin in "$RUNTIME" "$(dirname "$RUNTIME")/../libexec/sysward/sysward-static"; do
		! grep -q SYSWARD_PRETEND "$bin" || fail "$bin names SYSWARD_PRETEND: a test knob in a shipped binary"
	done
}

# evil_rootfs NAME [DEVNULL-FILE MODE]: a copy of the root file system,
# $W/evil-NAME, whose /dev/null is DEVNULL-FILE (a regular file of MODE):
# what runc binds over every masked file when the bundle has no /dev of
# its own (it keeps a node already there).
evil_rootfs() {
	local d=$W/evil-$1
	rm -rf "$d" && cp -a "$W/rootfs" "$d" && mkdir -p "$d/dev" || return 1
	if [ $# -gt 1 ]; then
		cp "$2" "$d/dev/null" && chmod "$3" "$d/dev/null" || return 1
	fi
	echo "$d"
}

# mask_case NAME ROOTFS RT-BUNDLE-OPTIONS...: a container of ROOTFS under
# the confine policy, with the options, run twice: its stdio pipes, and
# with a terminal (run -d, console.py), as "podman run -t" gives it.  It
# must either run under that policy (the program's two lines as the
# policy gives them, whatever runc says after) or not start at all (not
# a line of the program's).
# Says which; anything else fails.  runc dup()s the container's
# /dev/null over every stdio descriptor whose st_rdev is /dev/null's
# (reOpenDevNull): a pipe's, 0, is that of a /dev/null that is a
# regular file (so the program's output is looked for there too), and
# the open /dev/null makes an exec of it fail (ETXTBSY) where a terminal
# would not.
MASK_OPS=(getuid open /etc/motd rdonly)
mask_case() {
	local name=$1 root=$2 first mode id
	shift 2
	for mode in pipes tty; do
		id=mask-$name-$mode-$$
		local tty=()
		[ $mode = tty ] && tty=(--terminal)
		mkbundle "$W/m-$name-$mode" --rootfs "$root" --annotation io.sysward.policy=confine \
			"${tty[@]}" "$@" -- /probe "${MASK_OPS[@]}"
		[ ! -f "$root/dev/null" ] || cp "$root/dev/null" "$W/devnull.before"
		if [ $mode = pipes ]; then
			container "m-$name-$mode" "$W/m-$name-$mode" "$RUNTIME"
			tr -d '\r' <"$W/out" >"$W/seen"
		else
			rm -f "$W/console.sock" "$W/tty.out"
			timeout 60 "$PYTHON" "$HERE/console.py" "$W/console.sock" "$W/tty.out" &
			wait_socket "$W/console.sock" 50 || fail "console.py did not start"
			last_cmd=("$RUNTIME" --root "$W/state" run -d --console-socket "$W/console.sock" \
				--bundle "$W/m-$name-$mode" "$id")
			timeout -k 5 60 "${last_cmd[@]}" >"$W/out" 2>"$W/err" </dev/null
			rc=$?
			[ "$rc" -eq 0 ] || kill %% 2>/dev/null
			wait %% 2>/dev/null
			# Detached: its state and cgroups stay until deleted.
			"$RUNTIME" --root "$W/state" delete -f "$id" >/dev/null 2>&1
			tr -d '\r' <"$W/tty.out" >"$W/seen" 2>/dev/null
		fi
		[ ! -f "$root/dev/null" ] || cmp -s "$root/dev/null" "$W/devnull.before" ||
			{ cat "$root/dev/null" >>"$W/seen"; cp "$W/devnull.before" "$root/dev/null"; }
		first=$(cat "$W/err" "$W/seen" | grep -v '^$\|^getuid\|^open' | tail -1 | cut -c1-160)
		if grep -Eq '^(getuid=0|open\(/etc/motd,rdonly\)=ok)$' "$W/seen"; then
			fail "$name ($mode): the program ran outside the operator's policy (exit $rc):"
			cat "$W/seen" "$W/err" >&2
		elif grep -Fxq "getuid=4242" "$W/seen" &&
		     grep -Fxq "open(/etc/motd,rdonly)=-EACCES" "$W/seen"; then
			echo "$name ($mode): runs under the operator's policy (exit $rc)"
		elif ! grep -q '^getuid=' "$W/seen"; then
			echo "$name ($mode): does not start (exit $rc: $first)"
		else
			fail "$name ($mode): neither confined nor refused (exit $rc):"
			cat "$W/seen" "$W/err" >&2
		fi
	done
}

t_runtime_masks() {
	# Issue 32: the operator's policy and sysward, or no container,
	# whatever the bundle's mounts, maskedPaths, readonlyPaths, links in
	# the root file system or a /dev/null that is a regular file do.
	# runc applies linux.maskedPaths after every mount of config.json by
	# binding the container's /dev/null over each path (a read-only
	# tmpfs over a directory), and follows links in them.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local allow=$W/allow.json script=$W/script r
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$allow"
	printf '#!/bin/sh\nexec /probe %s\n' "${MASK_OPS[*]}" >"$script"
	# The policy masked: the bundle's /dev/null holds an allow-all one.
	r=$(evil_rootfs policy "$allow" 0644) || { fail "setup"; return; }
	mask_case policy "$r" --no-dev --mask /.sysward/policy.json
	r=$(evil_rootfs policy-link "$allow" 0644) && ln -s /.sysward/policy.json "$r/x" ||
		{ fail "setup"; return; }
	mask_case policy-link "$r" --no-dev --mask /x
	mask_case policy-dir "$W/rootfs" --mask /.sysward
	mask_case policy-bind "$W/rootfs" --bind "$allow:/.sysward/policy.json"
	mask_case readonly "$W/rootfs" --readonly /.sysward/policy.json --readonly /.sysward \
		--readonly /proc
	# sysward itself masked: /dev/null a script that runs the program.
	r=$(evil_rootfs sysward "$script" 0755) || { fail "setup"; return; }
	mask_case sysward "$r" --no-dev --mask /.sysward/sysward
	r=$(evil_rootfs sysward-link "$script" 0755) && ln -s .sysward/sysward "$r/y" ||
		{ fail "setup"; return; }
	mask_case sysward-link "$r" --no-dev --mask /y
	# The descriptors sysward-runtime hands process 1 (3 and 4 when
	# nothing is preserved), reached through /proc: masked, or /proc a
	# fake in the root file system (no proc mount; a bind of it over /;
	# /proc a link to it).
	r=$(evil_rootfs proc-fd "$script" 0755) || { fail "setup"; return; }
	mask_case proc-fd "$r" --no-dev --mask /proc/self/fd/3 --mask /proc/self/fd/4
	r=$(evil_rootfs proc-self "$script" 0755) || { fail "setup"; return; }
	mask_case proc-self "$r" --no-dev --mask /proc/self --mask /proc/1
	mask_case proc "$W/rootfs" --mask /proc
	r=$(evil_rootfs fake-proc) && mkdir -p "$r/proc/self/fd" &&
		cp "$script" "$r/proc/self/fd/3" && cp "$allow" "$r/proc/self/fd/4" &&
		chmod 0755 "$r/proc/self/fd/3" || { fail "setup"; return; }
	mask_case fake-proc "$r" --no-proc
	mask_case fake-proc-root "$W/rootfs" --bind "$r:/"
	r=$(evil_rootfs proc-link) && rm -rf "$r/proc" && mkdir -p "$r/fake/self/fd" &&
		cp "$script" "$r/fake/self/fd/3" && chmod 0755 "$r/fake/self/fd/3" &&
		ln -s /fake "$r/proc" || { fail "setup"; return; }
	mask_case proc-link "$r" --no-proc
}

# with_fds NAME RUNTIME ARGS...: "RUNTIME --root STATE ARGS" with
# descriptor 3 a socket-activated one (LISTEN_FDS=1, LISTEN_PID the
# runtime's own pid, as systemd or Podman's conmon set them) and 4 and 5
# open files (for --preserve-fds 2); output in $W/NAME.out, as container.
with_fds() {
	local name=$1
	shift
	last_cmd=("$@")
	timeout -k 5 60 sh -c 'export LISTEN_FDS=1 LISTEN_PID=$$; exec "$@"' sh \
		"$@" 3<"$W/rootfs/etc/motd" 4<"$W/rootfs/probe" 5<"$W/rootfs/bin/busybox" \
		>"$W/$name.out" 2>"$W/$name.err" </dev/null
	rc=$?
	cp "$W/$name.out" "$W/out"
	cp "$W/$name.err" "$W/err"
}

t_runtime_descriptors() {
	# Issue 32: nothing of the runtime's own reaches the container.  A
	# container's program, and a process exec'd into it, start with
	# exactly the descriptors runc gives them without sysward-runtime
	# (stdio, LISTEN_FDS, --preserve-fds), side by side; the two it adds
	# for process 1 (the static sysward, the policy) come after those,
	# and cannot be written through, even as root on the host, while runc
	# init holds them before the start.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local ops=(/probe fd-names env LISTEN_FDS env LISTEN_PID) rtime b init
	mkbundle "$W/sw" --annotation io.sysward.policy=log -- "${ops[@]}"
	mkbundle "$W/plain" -- "${ops[@]}"
	for b in plain sw; do
		rtime=$([ $b = plain ] && echo runc || echo "$RUNTIME")
		with_fds "fds-$b" "$rtime" --root "$W/state" run --preserve-fds 2 --bundle "$W/$b" "fds-$b-$$"
		expect_rc 0
	done
	expect_same "$W/fds-plain.out" "$W/fds-sw.out" "the program's descriptors (runc, then sysward-runtime)"
	sed 's/^/sysward-runtime: /' "$W/fds-sw.out"
	grep -q "^fd 5: .*/busybox$" "$W/fds-sw.out" || fail "the preserved descriptors did not arrive: $(cat "$W/fds-sw.out")"
	# What runc init holds for process 1, created, not started: ours at
	# 6 and 7 (3 + LISTEN_FDS 1 + --preserve-fds 2).
	with_fds create "$RUNTIME" --root "$W/state" create --preserve-fds 2 --bundle "$W/sw" "fds-c-$$"
	expect_rc 0
	init=$(state_field "fds-c-$$" pid)
	"$PYTHON" - "$init" "$(dirname "$RUNTIME")/../libexec/sysward/sysward-static" <<-'EOF' >"$W/writes" 2>&1 ||
	import errno, os, sys
	pid, static = sys.argv[1], sys.argv[2]
	s = os.stat("/proc/%s/fd/6" % pid)
	t = os.stat(static)
	assert (s.st_dev, s.st_ino) != (0, 0) and s.st_ino == t.st_ino, "fd 6 is not the static sysward"
	assert os.readlink("/proc/%s/fd/7" % pid) == "/memfd:sysward-policy (deleted)", os.readlink("/proc/%s/fd/7" % pid)
	for fd, want in ((6, errno.EROFS), (7, errno.EPERM)):
	    try:
	        f = os.open("/proc/%s/fd/%d" % (pid, fd), os.O_WRONLY | os.O_APPEND)
	        os.write(f, b"x")
	        sys.exit("fd %d: written" % fd)
	    except OSError as e:
	        if e.errno != want:
	            sys.exit("fd %d: %s, expected %s" % (fd, e, errno.errorcode[want]))
	EOF
		fail "runc init's descriptors of sysward-runtime's: $(cat "$W/writes")"
	run runc --root "$W/state" delete -f "fds-c-$$"
	# exec, with --preserve-fds 1 (runc passes no LISTEN_FDS to an exec).
	mkbundle "$W/long" --annotation io.sysward.policy=log -- /bin/busybox sleep 30
	bg_run "fds-l-$$" "$W/long" "$RUNTIME"
	wait_status "fds-l-$$" running || return
	with_fds exec-sw "$RUNTIME" --root "$W/state" exec --preserve-fds 1 "fds-l-$$" /probe fd-names
	expect_rc 0
	with_fds exec-plain runc --root "$W/state" exec --preserve-fds 1 "fds-l-$$" /probe fd-names
	expect_rc 0
	expect_same "$W/exec-plain.out" "$W/exec-sw.out" "an exec'd process's descriptors (runc, then sysward-runtime)"
	grep -q "^fd 3: " "$W/exec-sw.out" || fail "the preserved descriptor did not reach the exec'd process"
	run runc --root "$W/state" kill "fds-l-$$" KILL
	wait_rc "fds-l-$$"
	expect_rc 137
}

t_runtime_sysward_handoff() {
	# sysward's end of the hand-off (sysward run --policy-fd N --keep-fds
	# K), alone: only a sealed memory file is read as the policy (a
	# regular file or a memfd that can still change is refused, and the
	# program does not run); the program starts with descriptors 0 to K-1;
	# neither option with --daemon.
	rt_setup || { fail "setup"; return; }
	local kind
	for kind in sealed unsealed file; do
		"$PYTHON" - "$kind" "$W/policies/log.json" "$SYSWARD" "$PROBE" \
			>"$W/out" 2>"$W/err" <<-'EOF'
		import fcntl, os, sys
		kind, policy, sysward, probe = sys.argv[1:]
		text = open(policy, "rb").read()
		if kind == "file":
		    fd = os.open(policy, os.O_RDONLY)
		else:
		    fd = os.memfd_create("p", os.MFD_ALLOW_SEALING)
		    os.write(fd, text)
		    if kind == "sealed":
		        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE |
		                    fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW)
		os.dup2(fd, 7)
		for n in (3, 4, 5):
		    os.dup2(os.open("/dev/null", os.O_RDONLY), n)
		os.execv(sysward, [sysward, "run", "--policy-fd", "7", "--keep-fds", "4",
		                   "--", probe, "getuid", "fd-names"])
		EOF
		rc=$?
		last_cmd=(sysward run --policy-fd 7 "($kind)" --keep-fds 4 -- sw-probe getuid fd-names)
		if [ "$kind" = sealed ]; then
			expect_rc 0
			expect_output "getuid=0
fd 0: pipe
fd 1: $W/out
fd 2: $W/err
fd 3: /dev/null"
		else
			expect_rc 125
			expect_err "policy descriptor 7: not a sealed memory file"
			[ -s "$W/out" ] && fail "$kind: the program ran"
		fi
	done
	run "$SYSWARD" run --daemon=/nonexistent --policy-fd 7 -- true
	expect_rc 2
	expect_err "--policy-fd and --keep-fds are not available with --daemon"
}

t_runtime_hooks() {
	# Issue 32: hooks that run in the container before sysward is its
	# process 1.  A startContainer hook (a program of the image's, run by
	# runc's init as the container's user just before process 1) that
	# leaves a process behind: under plain runc that process runs on
	# untraced (TracerPid 0), the real uid, the file the policy denies
	# read; through sysward-runtime the hook runs under a sysward of its
	# own (the policy holds for it) and what it leaves is killed when it
	# returns.  A createContainer hook is refused.  The runtime's own
	# hooks (prestart, createRuntime, poststart, poststop) run on the
	# host, as runc runs them, unchanged.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	local bg hook h
	bg='(/bin/busybox sleep 0.5; { /probe getuid open /etc/motd rdonly; /bin/busybox grep TracerPid: /proc/self/status; } >/dev/shm/bg.out 2>&1) </dev/null >/dev/null 2>&1 &'
	hook=$(printf '{"path": "/bin/sh", "args": ["sh", "-c", "%s /probe getuid open /etc/motd rdonly >/dev/shm/hook.out"], "env": ["PATH=/bin"]}' "$bg")
	# (Each reads the state runc writes to it: runc forwards the SIGPIPE
	# it gets otherwise to process 1, and sysward, which catches every
	# signal, to the program, where runc's init would drop it: see
	# sysward-runtime(8), DIFFERENCES FROM RUNC.)
	local host_hooks=()
	for h in prestart createRuntime poststart poststop; do
		host_hooks+=(--hook "$h={\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\", \"cat >/dev/null; echo ran >$W/host-$h\"]}")
	done
	mkbundle "$W/plain" --hook "startContainer=$hook" -- \
		/bin/sh -c '/bin/busybox sleep 1.5; /bin/busybox cat /dev/shm/hook.out /dev/shm/bg.out'
	container plain "$W/plain" runc
	expect_rc 0
	expect_output "getuid=0
open(/etc/motd,rdonly)=ok
getuid=0
open(/etc/motd,rdonly)=ok
TracerPid:	0"
	mkbundle "$W/sw" --annotation io.sysward.policy=confine --hook "startContainer=$hook" \
		"${host_hooks[@]}" -- \
		/bin/sh -c '/bin/busybox sleep 1.5; /bin/busybox cat /dev/shm/hook.out /dev/shm/bg.out'
	container sw "$W/sw" "$RUNTIME"
	expect_rc 1
	expect_output "getuid=4242
open(/etc/motd,rdonly)=-EACCES"
	expect_err "can't open '/dev/shm/bg.out': No such file or directory"
	for h in prestart createRuntime poststart; do
		[ "$(cat "$W/host-$h" 2>/dev/null)" = ran ] || fail "the $h hook did not run on the host"
	done
	rtc delete "sysward-oci-$$-sw"
	[ "$(cat "$W/host-poststop" 2>/dev/null)" = ran ] || fail "the poststop hook did not run on the host"
	# The hook's config.json entry, and back as it was at the next create.
	"$PYTHON" - "$(own_config "$W/sw" sw)" <<-'EOF' || fail "the startContainer hook is not under sysward"
	import json, sys
	s = json.load(open(sys.argv[1]))
	h = s["hooks"]["startContainer"][0]
	assert h["path"] == "/proc/self/fd/3" and h["args"][:7] == ["/proc/self/fd/3", "run", "-q", "--policy-fd", "4", "--keep-fds", "3"], h
	assert h["args"][h["args"].index("--") + 1:][:2] == ["/bin/sh", "-c"], h
	assert "--kill-descendants" in h["args"] and h["env"] == ["PATH=/bin"], h
	assert s["hooks"]["prestart"][0]["path"] == "/bin/sh", s["hooks"]
	EOF
	mkbundle "$W/cc" --annotation io.sysward.policy=confine \
		--hook 'createContainer={"path": "/bin/sh", "args": ["sh", "-c", "echo ran >/tmp/x"]}' -- /probe getuid
	refused "$W/cc" "hooks.createContainer: such a hook runs in the container's namespaces"
}

t_runtime_bundle_writes() {
	# The runtime writes into the bundle only, one directory of its own
	# per container (the wrapped config.json runc is handed), never
	# through a link planted there; the bundle's own config.json, a link
	# here, is read as runc reads it and never written; a second create
	# wraps the bundle's own process once and appends its proc mount
	# once; a config.json an older sysward-runtime wrapped in place (with
	# its copy of a linux.seccomp policy) is put back as the bundle's own.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	mkdir -p "$W/outside/planted"
	echo "victim" >"$W/outside/victim"
	mkbundle "$W/b" --seccomp "$W/policies/confine.json" -- /probe getuid
	mv "$W/b/config.json" "$W/outside/config.json"
	ln -s "$W/outside/config.json" "$W/b/config.json"
	cp "$W/outside/config.json" "$W/outside/config.orig"
	ln -s "$W/outside/planted" "$W/b/.sysward-sysward-oci-$$-zero"
	container zero "$W/b" "$RUNTIME"
	expect_rc 1
	expect_err "(a link, or not a directory: remove it)"
	[ -z "$(ls -A "$W/outside/planted")" ] || fail "a file was written through a planted link"
	rm "$W/b/.sysward-sysward-oci-$$-zero"
	container one "$W/b" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242"
	expect_same "$W/outside/config.orig" "$W/outside/config.json" "config.json outside the bundle"
	[ -L "$W/b/config.json" ] || fail "the bundle's config.json (a link) was replaced"
	ls -A "$W/b" | sort >"$W/listing"
	printf '.sysward-sysward-oci-%s-one\nconfig.json\nrootfs\n' $$ >"$W/listing.want"
	ls -A "$W/b" | grep -q '^rootfs$' || sed -i '/^rootfs$/d' "$W/listing.want"
	expect_same "$W/listing.want" "$W/listing" "the bundle's files"
	container one "$W/b" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242"
	"$PYTHON" - "$(own_config "$W/b" one)" "$W/outside/config.orig" <<-'EOF' || fail "a second create wrapped the bundle twice"
	import json, sys
	s, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	a = s["process"]["args"]
	assert sum(x.startswith("/proc/self/fd/") for x in a) == 1 and a.count("--") == 1, a
	assert len(s["mounts"]) == len(o["mounts"]) + 1, s["mounts"]
	EOF
	# As an older sysward-runtime left it: config.json wrapped in place,
	# the linux.seccomp section beside it.
	rm "$W/b/config.json"
	cp "$(own_config "$W/b" one)" "$W/b/config.json"
	"$PYTHON" -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["linux"]["seccomp"], open(sys.argv[2], "w"))' \
		"$W/outside/config.orig" "$W/b/sysward-policy.json"
	container two "$W/b" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242"
	[ -e "$W/b/sysward-policy.json" ] && fail "the older version's policy copy is still there"
	"$PYTHON" - "$W/b/config.json" "$W/outside/config.orig" <<-'EOF' || fail "the unwrapped config.json is not the bundle's own"
	import json, sys
	s, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	assert s.pop("annotations") == {}, s   # left empty: the bundle had none
	assert s == o, (s, o)
	EOF
}

t_runtime_bundle_kept() {
	# The bundle's own config.json is never rewritten: create and run
	# hand the delegate a bundle of their own with the wrapped spec
	# (relative root and bind sources made absolute), so a later plain
	# runc run of the same bundle runs without sysward, as the bundle
	# says, and the same bundle runs under sysward again after it.
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	mkdir -p "$W/data" && echo bound >"$W/data/f"
	mkbundle "$W/b" --annotation io.sysward.policy=confine --bind "$W/data:/data" -- \
		/probe "${PROBE_OPS[@]}" open /data/f rdonly
	"$PYTHON" - "$W/b/config.json" <<-'EOF' || { fail "make the bundle's paths relative"; return; }
	import json, sys
	p = sys.argv[1]; s = json.load(open(p))
	s["root"]["path"] = "rootfs-rel"
	for m in s["mounts"]:
	    if m["destination"] == "/data": m["source"] = "data-rel"
	json.dump(s, open(p, "w"), indent=1)
	EOF
	# runc wants a real directory, not a link: the rootfs moves in.
	mv "$W/rootfs" "$W/b/rootfs-rel" && ln -s "$W/b/rootfs-rel" "$W/rootfs" &&
		mv "$W/data" "$W/b/data-rel" || fail "move the rootfs and the data into the bundle"
	cp "$W/b/config.json" "$W/config.orig"
	container one "$W/b" "$RUNTIME"
	expect_rc 0
	expect_output "$CONFINED
open(/data/f,rdonly)=ok"
	expect_same "$W/config.orig" "$W/b/config.json" "the bundle's own config.json after sysward-runtime run"
	clean_tmp
	container plain "$W/b" runc
	expect_rc 0
	expect_output "$PLAIN
open(/data/f,rdonly)=ok"
	clean_tmp
	rtc create --bundle "$W/b" two
	expect_rc 0
	expect_same "$W/config.orig" "$W/b/config.json" "the bundle's own config.json after sysward-runtime create"
	[ "$(state_field two bundle)" != "$W/b" ] || fail "runc was handed the bundle's own config.json"
	rtc delete -f two
	rm "$W/rootfs" && mv "$W/b/rootfs-rel" "$W/rootfs" || fail "move the rootfs back"
	# A linux.seccomp section with sysward's actions stays in place too
	# (runc refuses that bundle alone, as before).
	mkbundle "$W/s" --seccomp "$W/policies/confine.json" -- /probe getuid
	cp "$W/s/config.json" "$W/s.orig"
	container three "$W/s" "$RUNTIME"
	expect_rc 0
	expect_output "getuid=4242"
	expect_same "$W/s.orig" "$W/s/config.json" "a linux.seccomp bundle's config.json"
	[ -e "$W/s/sysward-policy.json" ] && fail "a policy copy was written to the bundle"
	return 0
}

t_runtime_cli() {
	# runc's command line: --version (runc's first), features (runc's,
	# with sysward's actions), --help, list; errors in --log as runc
	# writes them; the delegate chosen by SYSWARD_RUNTIME_DELEGATE.
	rt_setup || { fail "setup"; return; }
	rtc --version
	expect_rc 0
	[ "$(head -1 "$W/out")" = "$(runc --version | head -1)" ] || fail "--version does not start with runc's"
	expect_out_contains "sysward-runtime version"
	rtc features
	expect_rc 0
	"$PYTHON" - "$W/out" <<-'EOF' || fail "features lacks sysward's additions"
	import json, sys
	f = json.load(open(sys.argv[1]))
	assert "SYSWARD_ACT_EMULATE" in f["linux"]["seccomp"]["actions"]
	assert "SCMP_ACT_ERRNO" in f["linux"]["seccomp"]["actions"]
	assert f["annotations"]["io.sysward.runtime.policy-annotation"] == "io.sysward.policy"
	EOF
	rtc --help
	expect_rc 0
	expect_out_contains "io.sysward.policy" "sysward-runtime(8)"
	rtc list
	expect_rc 0
	runc --root "$W/state" list >"$W/list.runc"
	expect_same "$W/list.runc" "$W/out" "list"
	rtc --bogus list
	expect_rc 1
	expect_err "unknown option '--bogus'"
	mkbundle "$W/b" --annotation io.sysward.policy=/etc/hostname -- /probe getuid
	run "$RUNTIME" --root "$W/state" --log "$W/log.json" --log-format json create --bundle "$W/b" x
	expect_rc 1
	"$PYTHON" - "$W/log.json" <<-'EOF' || fail "the error is not in the JSON log: $(cat "$W/log.json")"
	import json, sys
	l = [json.loads(x) for x in open(sys.argv[1])]
	assert l[-1]["level"] == "error" and "not in a policy directory" in l[-1]["msg"], l
	EOF
	run "$RUNTIME" --root "$W/state" --log "$W/log.txt" create --bundle "$W/b" x
	grep -q '^time="[^"]*" level=error msg="create x: annotations.io.sysward.policy: /etc/hostname is not' "$W/log.txt" ||
		fail "the error is not in the text log: $(cat "$W/log.txt")"
	# The delegate: crun (if installed), and never ourselves.
	if command -v crun >/dev/null; then
		SYSWARD_RUNTIME_DELEGATE=crun rtc --version
		expect_rc 0
		[ "$(head -1 "$W/out")" = "$(crun --version | head -1)" ] || fail "crun is not the delegate"
	fi
	SYSWARD_RUNTIME_DELEGATE=$RUNTIME rtc state x
	expect_rc 1
	expect_err "is sysward-runtime itself"
	SYSWARD_RUNTIME_DELEGATE=nosuch-runtime rtc state x
	expect_rc 1
	expect_err "delegate runtime 'nosuch-runtime' not found in PATH"
}

# ---------------------------------------------------------------- Podman

# A wrapper registered as Podman's runtime: conmon runs the runtime with
# an environment of its own, so the settings go in the script.
rt_wrapper() {
	cat >"$W/sysward-runtime" <<-EOF
	#!/bin/sh
	export SYSWARD_RUNTIME_POLICY_DIRS='$W/policies'
	exec '$RUNTIME' "\$@"
	EOF
	chmod 0755 "$W/sysward-runtime"
}

# podman_setup RUNROOT: skip (77) unless Podman is installed, the kernel
# has the supervisor and Podman runs a plain container with runc here;
# then the root filesystem (rt_setup), pm_runroot, and pm (podman with storage of the
# scenario's own, no image pulled: --rootfs) and opts (its run options).
# This machine's hard limits are below Podman's defaults (nofile and
# nproc 1048576) and root here cannot raise them (no CAP_SYS_RESOURCE):
# runc would fail "error setting rlimit".  Podman wants RUNROOT at most
# 50 characters long.
podman_setup() {
	if ! command -v podman >/dev/null; then
		echo "SKIP: podman is not installed (apt-get install podman)"
		exit 77
	fi
	needs_supervisor
	rt_setup || { fail "setup"; return 1; }
	pm_runroot=$1
	pm=(podman --root "$W/storage" --runroot "$1" --storage-driver vfs
	    --cgroup-manager cgroupfs --events-backend file)
	opts=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096 --rootfs "$W/rootfs")
	run "${pm[@]}" --runtime "$(command -v runc)" run --rm "${opts[@]}" /probe getuid
	if [ "$rc" -ne 0 ]; then
		echo "SKIP: podman cannot run a plain container with runc here: $(head -3 "$W/err")"
		exit 77
	fi
}

t_runtime_learn_podman() {
	# Issue 25: a policy learned with --format oci loads and enforces in
	# Podman unchanged (--security-opt seccomp=FILE, plain runc): the
	# learned call runs, a call the learning run never made (mkdir)
	# gets EPERM.
	podman_setup "$(mktemp -d /tmp/swlp.XXXXXX)" || return
	run "$SYSWARD" learn --format oci -o "$W/learned.json" -- "$W/rootfs/probe" getuid open /etc/hostname rdonly
	expect_rc 0
	clean_tmp
	run "${pm[@]}" --runtime "$(command -v runc)" run --rm \
		--security-opt seccomp="$W/learned.json" "${opts[@]}" /probe getuid open /etc/hostname rdonly
	expect_rc 0
	expect_output "getuid=0
open(/etc/hostname,rdonly)=ok"
	clean_tmp
	run "${pm[@]}" --runtime "$(command -v runc)" run --rm \
		--security-opt seccomp="$W/learned.json" "${opts[@]}" /probe getuid mkdir /tmp/d
	expect_output "getuid=0
mkdir(/tmp/d)=-EPERM"
	rm -rf "$pm_runroot"
}

t_runtime_podman() {
	# Podman with --runtime and --rootfs: the policy's rules observed
	# from inside, exec under sysward, stop's exit code, a terminal, and
	# a container without a policy exactly as under plain runc.
	podman_setup "$W/runroot" || return
	rt_wrapper
	clean_tmp
	run "${pm[@]}" --runtime "$W/sysward-runtime" run --rm \
		--annotation io.sysward.policy=confine "${opts[@]}" /probe "${PROBE_OPS[@]}"
	expect_rc 0
	expect_output "$CONFINED"
	# No policy: Podman's own seccomp profile, capabilities and files,
	# through the runtime and through runc.
	local ops=(/probe getuid getgid caps cwd mkdir /tmp/d open /etc/hostname rdonly exit 5)
	clean_tmp
	run "${pm[@]}" --runtime "$(command -v runc)" run --rm "${opts[@]}" "${ops[@]}"
	expect_rc 5
	cp "$W/out" "$W/plain.out"
	clean_tmp
	run "${pm[@]}" --runtime "$W/sysward-runtime" run --rm "${opts[@]}" "${ops[@]}"
	expect_rc 5
	expect_same "$W/plain.out" "$W/out" "a container without a policy (runc, then sysward-runtime)"
	# The same user, groups and capabilities with a policy, as root and
	# as another user; but no_new_privs, which sysward always sets
	# (Podman does not by default; docs/sysward-runtime.8).
	local u uops=(/probe getuid getgid caps)
	for u in 0:0 1000:1000; do
		run "${pm[@]}" --runtime "$(command -v runc)" run --rm --user $u "${opts[@]}" "${uops[@]}"
		grep -v '^NoNewPrivs:' "$W/out" >"$W/uplain.out"
		run "${pm[@]}" --runtime "$W/sysward-runtime" run --rm --user $u \
			--annotation io.sysward.policy=log "${opts[@]}" "${uops[@]}"
		expect_rc 0
		expect_line "NoNewPrivs: 1"
		grep -v '^NoNewPrivs:' "$W/out" >"$W/usw.out"
		expect_same "$W/uplain.out" "$W/usw.out" "--user $u (runc, then sysward-runtime with a policy)"
	done
	# A terminal.
	run "${pm[@]}" --runtime "$(command -v runc)" run --rm -t "${opts[@]}" /bin/busybox tty
	tr -d '\r' <"$W/out" >"$W/tty.plain"
	run "${pm[@]}" --runtime "$W/sysward-runtime" run --rm -t \
		--annotation io.sysward.policy=log "${opts[@]}" /bin/busybox tty
	expect_rc 0
	tr -d '\r' <"$W/out" >"$W/tty.sw"
	expect_same "$W/tty.plain" "$W/tty.sw" "podman run -t: the terminal"
	# exec and stop.
	run "${pm[@]}" --runtime "$W/sysward-runtime" run -d --name "rt-$$" \
		--annotation io.sysward.policy=confine "${opts[@]}" \
		/bin/sh -c 'trap "exit 42" TERM; while :; do /bin/busybox sleep 0.1; done'
	expect_rc 0
	run "${pm[@]}" exec "rt-$$" /probe getuid open /etc/motd rdonly
	expect_rc 0
	expect_output "getuid=4242
open(/etc/motd,rdonly)=-EACCES"
	run "${pm[@]}" stop -t 20 "rt-$$"
	expect_rc 0
	run "${pm[@]}" inspect --format '{{.State.ExitCode}}' "rt-$$"
	expect_output "42"
	"${pm[@]}" rm -f "rt-$$" >/dev/null 2>&1
}

# ---------------------------------------------------------------- containerd

t_runtime_containerd() {
	# containerd's runc shim (io.containerd.runc.v2) with the runtime as
	# its runc binary, in a containerd of the scenario's own: the rules
	# observed from inside, task exec under sysward, kill's status, and a
	# container without a policy as under plain runc.
	local tool
	for tool in containerd ctr containerd-shim-runc-v2; do
		if ! command -v $tool >/dev/null; then
			echo "SKIP: $tool is not installed (apt-get install containerd)"
			exit 77
		fi
	done
	needs_supervisor
	rt_setup || { fail "setup"; return; }
	rt_wrapper
	local c=$W/ctd
	mkdir -p "$c"
	cat >"$c/config.toml" <<-EOF
	version = 2
	root = "$c/root"
	state = "$c/state"
	disabled_plugins = ["io.containerd.grpc.v1.cri", "io.containerd.tracing.processor.v1.otlp",
	  "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
	  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]
	[grpc]
	  address = "$c/sock"
	[ttrpc]
	  address = "$c/sock.ttrpc"
	[debug]
	  address = ""
	[metrics]
	  address = ""
	EOF
	containerd --config "$c/config.toml" >"$c/log" 2>&1 &
	local cpid=$!
	if ! wait_socket "$c/sock" 100; then
		kill "$cpid" 2>/dev/null
		echo "SKIP: containerd does not start here: $(tail -3 "$c/log")"
		exit 77
	fi
	local ctr=(ctr -a "$c/sock")
	run "${ctr[@]}" run --rm --runc-binary "$(command -v runc)" --rootfs "$W/rootfs" plain-check /probe getuid
	if [ "$rc" -ne 0 ]; then
		kill "$cpid"
		echo "SKIP: containerd cannot run a plain container with runc here: $(head -3 "$W/err")"
		exit 77
	fi
	clean_tmp
	run "${ctr[@]}" run --rm --runc-binary "$W/sysward-runtime" \
		--annotation io.sysward.policy=confine --rootfs "$W/rootfs" c1 /probe "${PROBE_OPS[@]}"
	expect_rc 0
	expect_output "$CONFINED"
	local ops=(/probe getuid getgid caps cwd mkdir /tmp/d exit 6)
	clean_tmp
	run "${ctr[@]}" run --rm --runc-binary "$(command -v runc)" --rootfs "$W/rootfs" c2 "${ops[@]}"
	expect_rc 6
	cp "$W/out" "$W/plain.out"
	clean_tmp
	run "${ctr[@]}" run --rm --runc-binary "$W/sysward-runtime" --rootfs "$W/rootfs" c3 "${ops[@]}"
	expect_rc 6
	expect_same "$W/plain.out" "$W/out" "a container without a policy (runc, then sysward-runtime)"
	# task exec, then kill TERM: ctr run's status is the program's.
	(
		"${ctr[@]}" run --rm --runc-binary "$W/sysward-runtime" \
			--annotation io.sysward.policy=confine --rootfs "$W/rootfs" c4 \
			/bin/sh -c 'trap "exit 42" TERM; echo up; while :; do /bin/busybox sleep 0.1; done' \
			>"$W/c4.out" 2>"$W/c4.err" </dev/null
		echo $? >"$W/c4.rc.tmp" && mv "$W/c4.rc.tmp" "$W/c4.rc"
	) &
	wait_file "$W/c4.out" 100 || fail "c4 did not start"
	run "${ctr[@]}" task exec --exec-id e1 c4 /probe getuid open /etc/motd rdonly
	expect_rc 0
	expect_output "getuid=4242
open(/etc/motd,rdonly)=-EACCES"
	run "${ctr[@]}" task kill -s TERM c4
	expect_rc 0
	wait_rc c4
	expect_rc 42
	kill "$cpid"
	wait "$cpid" 2>/dev/null
}

sw_command_line "$@"
: "${RUNTIME:?RUNTIME must name the sysward-runtime binary}"
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${PROBE:?PROBE must name the sw-probe binary}"
: "${PRETEND:?PRETEND must name the sw-pretend binary}"
RUNTIME=$(realpath "$RUNTIME") && SYSWARD=$(realpath "$SYSWARD") &&
	PROBE=$(realpath "$PROBE") && PRETEND=$(realpath "$PRETEND") || exit 1
oci_preflight "$PROBE" getuid

sw_run_scenarios oci "$@"
exit $failed
