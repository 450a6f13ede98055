# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the shell test runners (tests/integration/run.sh and record.sh,
# tests/daemon/daemon-tests.sh, tests/vm/guest-*.sh): the one
# home of the helpers they share.
# tests/vm/vm-suite.sh stages this file into the QEMU guest with the
# runners, at the same place relative to them (src/tests/lib/).
#
# The assertions work on the last command's capture: $rc (exit status),
# $W/out (stdout), $W/err (stderr) and the array last_cmd; $W is the
# scenario's work directory.  A failed assertion sets $failed and goes on,
# so that one run reports every difference.

failed=0

# The source tree (CTest sets SRCDIR; else the one this file is in) and
# the python3 the runners call.
SRCDIR=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
PYTHON=$(command -v /usr/bin/python3 || command -v python3)

fail() {
	echo "FAIL: $*" >&2
	failed=1
}

# Show what the last command did, once, after a failed assertion.
dump_last() {
	echo "---- command: ${last_cmd[*]}" >&2
	echo "---- exit status: $rc" >&2
	echo "---- stdout:" >&2
	cat "$W/out" >&2
	echo "---- stderr:" >&2
	cat "$W/err" >&2
	echo "----" >&2
}

expect_rc() {
	if [ "$rc" -ne "$1" ]; then
		fail "expected exit status $1, got $rc"
		dump_last
	fi
}

# sw_expect_each FOUND GREP-OPTS FILE MESSAGE TEXT...: for each TEXT,
# "grep GREP-OPTS -- TEXT FILE" must find it (FOUND yes) or not (no);
# otherwise fail with MESSAGE, a printf format of TEXT.  The one loop of
# the expect_* checks below.
sw_expect_each() {
	local found=$1 opts=$2 file=$3 msg=$4 t hit
	shift 4
	for t in "$@"; do
		hit=no
		grep "$opts" -- "$t" "$file" && hit=yes
		if [ "$hit" != "$found" ]; then
			# shellcheck disable=SC2059 # the caller's format
			fail "$(printf "$msg" "$t")"
			dump_last
		fi
	done
}

# expect_line LINE...: each LINE is a whole line of stdout.
expect_line() { sw_expect_each yes -Fxq "$W/out" "expected output line '%s'" "$@"; }
expect_no_line() { sw_expect_each no -Fxq "$W/out" "unexpected output line '%s'" "$@"; }

# expect_output TEXT: stdout is exactly TEXT (lines in order).
expect_output() {
	if [ -z "$1" ]; then
		if [ -s "$W/out" ]; then
			fail "expected no output on stdout"
			dump_last
		fi
		return
	fi
	if ! diff -u <(printf '%s\n' "$1") "$W/out" >&2; then
		fail "stdout differs from the expected text (diff above)"
		dump_last
	fi
}

# expect_err TEXT...: stderr contains each TEXT (fixed string).
expect_err() { sw_expect_each yes -Fq "$W/err" "expected '%s' on stderr" "$@"; }
expect_out_contains() { sw_expect_each yes -Fq "$W/out" "expected '%s' on stdout" "$@"; }

# sw_capture CMD...: run CMD (60 s at most) as the last command: $rc,
# $W/out, $W/err, last_cmd.
sw_capture() {
	last_cmd=("$@")
	timeout -k 5 60 "$@" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	[ "$rc" -ne 124 ] || fail "timed out: ${last_cmd[*]}"
}

# sw POLICY [SYSWARD-RUN-OPTIONS...] -- PROGRAM [ARGS...]
# Runs "sysward run --policy POLICY ..." with a timeout; sets $rc and
# leaves stdout in $W/out, stderr in $W/err.  The runners' one home of it.
sw() {
	local policy=$1
	shift
	sw_capture "$SYSWARD" run --policy "$policy" "$@"
}

# cli ARGS...: plain "sysward ARGS...", same capture as sw.
cli() { sw_capture "$SYSWARD" "$@"; }

# policy NAME <<JSON: write $W/NAME.json atomically (clients started in
# the background may be reading the previous copy), readable by every
# uid, and print its path.
policy() {
	# A temporary file of this (sub)shell's own: scenarios call this
	# from background commands at once ("--policy "$(allow_policy)" &").
	local tmp=$W/.$1.json.tmp.$BASHPID
	cat >"$tmp"
	chmod 0644 "$tmp"
	mv -f "$tmp" "$W/$1.json"
	echo "$W/$1.json"
}

# example_policy NAME: policy/examples/NAME.json copied to $W (readable
# by every uid: the source tree may not be, as in a clone under root's
# 0700 home), its path printed.
example_policy() { policy "$1" <"$SRCDIR/policy/examples/$1.json"; }

# A policy that allows everything but still puts a supervisor rule in
# place (so the tracer is really there): the negative control.
allow_policy() {
	policy allow <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getgid"], "action": "SYSWARD_ACT_LOG"}]}
	EOF
}

# uid_policy [N]: getuid and geteuid (and their i386 *32 forms) emulated
# as N, 4242 by default.  The emulated uid is how many scenarios see that
# a process is confined: a process that escaped the tracer would see its
# own.
uid_policy() {
	local n=${1:-4242}
	policy "uid$n" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid", "geteuid", "getuid32", "geteuid32"],
	               "action": "SYSWARD_ACT_EMULATE", "return": $n}]}
	EOF
}

# sw_wait_until TEST FILE TENTHS: wait up to TENTHS tenths of a second
# for "[ TEST FILE ]" (-s, -S, -e...) to hold.
sw_wait_until() {
	local i
	for ((i = 0; i < $3; i++)); do
		[ "$1" "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_file FILE TENTHS: wait up to TENTHS tenths of a second for FILE to
# exist and be non-empty.
wait_file() { sw_wait_until -s "$@"; }

# proc_state PID: the state letter in /proc/PID/stat (T stopped, t traced
# and stopped, Z zombie), or nothing once it is gone.
proc_state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }

# running PID: whether PID still runs (a zombie does not count: it runs
# nothing).
running() {
	local state
	state=$(proc_state "$1") || return 1
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# The guest suites (tests/vm/guest-*.sh) keep the last command's output
# in variables too, to compare it as a whole with [ ] and [[ ]].
#
# run CMD...: sets $rc, $out (stdout) and $err (stderr) of CMD, also kept
# in $W/out and $W/err.
run() {
	last_cmd=("$@")
	timeout -k 5 120 "$@" >"$W/out" 2>"$W/err" </dev/null
	rc=$?
	out=$(cat "$W/out")
	err=$(cat "$W/err")
}
show() {
	echo "---- ${last_cmd[*]} (exit $rc)"
	echo "---- stdout:"; cat "$W/out"
	echo "---- stderr:"; cat "$W/err"
}
want_rc() { [ "$rc" -eq "$1" ] || { fail "${last_cmd[*]}: exit $rc, expected $1"; show; }; }
want_out() { [ "$out" = "$1" ] || { fail "${last_cmd[*]}: stdout '$out', expected '$1'"; show; }; }
want_err() { [[ $err == *"$1"* ]] || { fail "${last_cmd[*]}: stderr lacks '$1'"; show; }; }

# ---------------------------------------------------------------- scenarios
#
# A runner's scenarios are its functions t_NAME (in
# tests/security/check.sh, the labels "NAME)" of its case statement), and
# the blocks "[NAME]" of its table of rows, RUNNER.rows beside RUNNER.sh
# (tests/lib/rows.sh; tests/security/check.rows has a row a line, "NAME
# ROUTE ...").  What a scenario needs beyond a plain run is
# declared on the line just above it:
#
#   # tags: needs-log needs-tmux
#   t_NAME() {          (or "[NAME]" in a table)
#
# Tags, and who reads them:
#   needs-log       uses "sysward run --log"; the daemon writes the audit
#                   log itself (its t_audit_log covers it)
#   needs-pretend   an older kernel pretended around the embedded
#                   sysward (sw-pretend, tests/lib/pretend.c, a seccomp
#                   filter): around a daemon's client it would not reach
#                   the daemon's engine
#   other-command   a command other than "sysward run"
#   client-group    signals the program's process group as a terminal
#                   would; a daemon's program has a session of its own
#   needs-kill-descendants  "sysward run --kill-descendants", which the
#                   client refuses with --daemon
#   (tests/daemon/daemon-tests.sh replays tests/integration/run.sh's
#   scenarios through syswardd except those with any of these five)
#   needs-systemd   systemd-socket-activate (no systemd in the QEMU guest)
#   needs-smp       two CPUs, so that a thread flips a path while another
#                   thread's openat is checked; the guest has one (run-vm
#                   -smp 1), where the race never alternates; or so that
#                   a SCHED_IDLE tracer thread is not starved by every
#                   other runnable task (signal_flood_idle: on one CPU
#                   it serves a flood at what the CPU leaves it, and the
#                   rate it sees can fall below the flood's end)
#   needs-tmux      an interactive shell in tmux pressing Ctrl-C/Ctrl-Z:
#                   job control of the client, the same on any kernel; the
#                   guest has no tmux
#   needs-python    python3 modules beyond json, signal and threading
#                   (the guest's python3 has only those: guest-rootfs)
#   sweep           runs other scenarios again under other policies, each
#                   of which runs in the guest on its own; too long for a
#                   one-CPU guest without KVM
#   needs-kcmp      kcmp(KCMP_FILES) (CONFIG_KCMP; the guest's kernel has
#                   none): without it the result check holds every
#                   process of the session while an open that can write
#                   runs (engine/trace/resultcheck.c), a FUSE server of the
#                   program's among them, and the open waits on that
#                   server for good: a known limit (docs/security.md,
#                   route 13, "A FUSE server the program runs")
#   (tests/vm/vm-suite.sh runs in the guest every scenario but those with
#   any of these six)
#   needs-ia32      runs i386 code, which this machine's kernel may not
#                   (ia32_emulation=off) and the guest's always does: the
#                   guest replays it through syswardd too, where it
#                   replays no other integration scenario (vm-suite.sh)
#   shards-pinned   every daemon the scenario starts has its number of
#                   tracer threads set by the scenario (SHARDS=N
#                   start_daemon): CTest's runs with 1 and 4 would run
#                   the same thing again (tests/daemon/CMakeLists.txt
#                   runs it once)

# sw_scenarios: the running script's scenarios (its --list), one NAME a
# line, in the order bash lists its functions.
sw_scenarios() {
	declare -F | awk '$3 ~ /^t_/ {print substr($3, 3)}'
}

SW_KNOWN_TAGS="needs-log needs-pretend other-command client-group needs-kill-descendants"
SW_KNOWN_TAGS+=" needs-systemd needs-smp needs-tmux needs-python sweep needs-kcmp"
SW_KNOWN_TAGS+=" needs-ia32 shards-pinned"

# sw_tags FILE: "NAME TAG..." for every tagged scenario of FILE and of its
# table FILE.rows (FILE without .sh), if any.  A tag not listed above, or
# a tags line that is not just above a scenario, is an error (so that a
# typo cannot quietly run a scenario where it fails).
sw_tags() {
	local files=("$1")
	[ ! -f "${1%.sh}.rows" ] || files+=("${1%.sh}.rows")
	awk -v known=" $SW_KNOWN_TAGS " '
	function bad(why) { printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"; err = 1 }
	tags != "" {
		name = ""
		if ($0 ~ /^t_[A-Za-z0-9_]+\(\) \{$/) { name = $0; sub(/^t_/, "", name); sub(/\(\) \{$/, "", name) }
		else if ($0 ~ /^[a-z0-9_]+\)$/) { name = $0; sub(/\)$/, "", name) }
		else if ($0 ~ /^\[[a-z0-9_]+\]$/) { name = substr($0, 2, length($0) - 2) }
		else if ($0 ~ /^[a-z0-9_]+ [0-9]+[a-z]? /) { name = $1 }
		if (name == "") bad("a tags line must stand just above its scenario")
		else print name " " tags
		tags = ""
	}
	/^# tags: / {
		tags = substr($0, 9)
		n = split(tags, t, " ")
		for (i = 1; i <= n; i++) if (!index(known, " " t[i] " ")) bad("unknown tag " t[i])
	}
	END { exit err }' "${files[@]}"
}

# sw_untagged FILE TAG...: FILE's scenarios (its --list) that have none of
# the TAGs; fails if FILE's tags are wrong.
sw_untagged() {
	local file=$1 s drop
	shift
	drop=$(sw_tagged "$file" "$@") || return 1
	for s in $(bash "$file" --list); do
		[[ $'\n'$drop$'\n' == *$'\n'$s$'\n'* ]] || echo "$s"
	done
}

# sw_tagged FILE TAG...: FILE's scenarios that have one of the TAGs.
sw_tagged() {
	local file=$1 tagged
	shift
	tagged=$(sw_tags "$file") || return 1
	awk -v want=" $* " '{
		for (i = 2; i <= NF; i++) if (index(want, " " $i " ")) { print $1; next } }' <<<"$tagged"
}

# sw_command_line [--list-also CMD] "$@": a runner's command line, read
# once its scenarios are defined: --list prints them (sw_scenarios, then
# CMD's) and exits 0; no scenario at all is a usage error (exit 2);
# otherwise it returns, for the runner to set up and run "$@".
sw_command_line() {
	local also=
	if [ "${1:-}" = --list-also ]; then
		also=$2
		shift 2
	fi
	if [ "${1:-}" = --list ]; then
		sw_scenarios
		[ -z "$also" ] || $also || exit 1
		exit 0
	fi
	if [ $# -eq 0 ]; then
		echo "usage: $0 --list | SCENARIO..." >&2
		exit 2
	fi
}

# sw_skip_unless_root WHY: exit 77 (skipped) unless root, saying "WHY:
# run them as root".
sw_skip_unless_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: $1: run them as root"
		exit 77
	fi
}

# sw_run_scenarios PREFIX NAME...: the usual runner's main loop: each
# scenario t_NAME in a fresh work directory $W (TMPDIR/sysward-PREFIX.NAME.*),
# removed if it passed.  Returns $failed.
sw_run_scenarios() {
	local prefix=$1 name
	shift
	for name in "$@"; do
		if ! declare -F "t_$name" >/dev/null; then
			echo "unknown scenario '$name' (see $0 --list)" >&2
			exit 2
		fi
		W=$(mktemp -d "${TMPDIR:-/tmp}/sysward-$prefix.$name.XXXXXX")
		"t_$name"
		if [ "$failed" -eq 0 ]; then
			rm -rf "$W"
			echo "PASS: $name"
		else
			echo "FAIL: $name (work directory kept: $W)"
		fi
	done
	return "$failed"
}
