#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Driver for the adversarial tests: runs one adversarial program (see
# adv_*.c) under "sysward run" and asserts that the escape failed.  One
# CTest per case, security.NAME.  Every case is a row of the table
# check.rows beside this script (its name, its route in
# docs/security.md, what it runs, what it must observe); the cases whose
# logic does not fit a row say "case" there and are the branches of the
# case statement below, named after them.
#
#   check.sh TEST        run one test
#   check.sh --list      the tests
#   check.sh --routes    "NAME ROUTE" for every test
#
# Environment (set by CMakeLists.txt): SYSWARD (the CLI), ADV (directory of
# the adversarial programs), POL (policies), GEN (generated policies and
# scratch space), PRETEND (sw-pretend, tests/lib/pretend.c: a command run
# as on an older kernel).  Exit 0: contained; 1: escaped or wrong; 77: this kernel
# cannot run the test (reported by CTest as skipped, never as passed).
set -uo pipefail

test=${1:?usage: check.sh TEST | --list | --routes}
ROWS=${0%.sh}.rows

# rows_table: every row of check.rows, "NAME<TAB>ROUTE<TAB>DO<TAB>EXPECT"
# (check.rows says how a row reads); a malformed row is an error.
rows_table() {
	awk '
	function bad(why) { printf "%s:%d: %s\n", FILENAME, at, why > "/dev/stderr"; err = 1 }
	function flush(  name, route, rest, i, last) {
		if (row == "") return
		name = row; sub(/ .*/, "", name)
		rest = substr(row, length(name) + 2)
		route = rest; sub(/ .*/, "", route)
		rest = substr(rest, length(route) + 2)
		if (name !~ /^[a-z0-9_]+$/) bad("a row starts with its name: [a-z0-9_]+")
		else if (route !~ /^[0-9]+[a-z]?$/) bad("the route of " name " is a number and a letter (route 16c)")
		else if (rest == "") bad(name " runs nothing")
		else {
			i = index(rest, " => ")
			last = i ? substr(rest, 1, i - 1) : rest
			sub(/.*; /, "", last)
			# A run that nothing checks could not fail.
			if (!i && last ~ /^(run|nobody|bare|terminal|cli) /)
				bad(name " runs a program and checks nothing: => what it must observe")
			else if (i) print name "\t" route "\t" substr(rest, 1, i - 1) "\t" substr(rest, i + 4)
			else print name "\t" route "\t" rest "\t"
		}
		row = ""
	}
	/^[ \t]/ && row != "" { sub(/^[ \t]+/, ""); row = row " " $0; next }
	/^[ \t]/ { at = FNR; bad("a continuation line with no row above it"); next }
	/^#/ || /^$/ { flush(); next }
	{ flush(); row = $0; at = FNR }
	END { flush(); exit err }' "$ROWS"
}

# case_labels: the labels of the case statement below.
case_labels() {
	awk '/^case \$test in$/ {on = 1; next} on && /^esac$/ {exit}
	     on && /^[a-z0-9_]+\)$/ {sub(/\)$/, ""); print}' "$0"
}

case "$test" in
--list | --routes)
	table=$(rows_table) || exit 2
	# The rows that say "case" and the labels below are the same names.
	diff <(awk -F '\t' '$3 == "case" {print $1}' <<<"$table" | sort) <(case_labels | sort) >&2 ||
		{ echo "check.sh: the rows of $ROWS that say \"case\" (<) and the labels of check.sh's case statement (>) differ" >&2; exit 2; }
	if [ "$test" = --list ]; then
		awk -F '\t' '!seen[$1]++ {print $1}' <<<"$table"
	else
		awk -F '\t' '!seen[$1]++ {print $1 " " $2}' <<<"$table"
	fi
	exit 0 ;;
esac
: "${SYSWARD:?}" "${ADV:?}" "${POL:?}" "${GEN:?}" "${PRETEND:?}"
# (containment_examples runs other cases again: a scratch of their own,
# so that they do not share one with the same cases run beside it.)
scratch=$GEN/scratch.$test${SW_CHECK_EXAMPLE:+.example}
rm -rf "$scratch" && mkdir -p "$scratch"
out=$scratch/out

fail() { echo "FAIL [$test]: $*" >&2; exit 1; }
# The session-namespace tests' cgroups (route 16c).
. "$(dirname "$0")/../lib/nsbox.sh"
. "$(dirname "$0")/../lib/fsrules.sh"
. "$(dirname "$0")/../lib/sandbox.sh"
skip() { echo "SKIP [$test]: $*" >&2; exit 77; }

# run POLICY [SYSWARD-OPTIONS...] -- PROGRAM ARGS...: output in $out,
# status in $rc, and both echoed for the test log.
# RUN_OPTS: options run and run_nobody add (complain_*: --complain).
# KERNEL: the command line run, run_nobody and reach_from_parent run
# sysward under: sw-pretend's for an older kernel, else none.
RUN_OPTS=()
KERNEL=()
run() {
	local policy=$1; shift
	echo "+ ${KERNEL[*]} sysward run --policy $policy ${RUN_OPTS[*]} $*"
	${KERNEL[@]+"${KERNEL[@]}"} "$SYSWARD" run --policy "$policy" ${RUN_OPTS[@]+"${RUN_OPTS[@]}"} "$@" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# run_bg POLICY -- PROGRAM ARGS...: run's command in the background, its
# pid in $pid; wait_bg: wait for it, then as run ($rc, output echoed).
run_bg() {
	local policy=$1; shift
	echo "+ sysward run --policy $policy $* &"
	"$SYSWARD" run --policy "$policy" "$@" >"$out" 2>&1 </dev/null &
	pid=$!
}
wait_bg() {
	wait "$pid"; rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# run_repeatedly N SECS PROGRAM ARGS...: up to N runs of PROGRAM under
# emulate-uid.json, 30 s each, none started after SECS seconds (0: no
# limit); $runs counts them, $bad those that did not exit 0 contained
# (each one's output is shown).
run_repeatedly() {
	local n=$1 secs=$2 end i
	shift 2
	end=$((SECONDS + secs))
	bad=0 runs=0
	echo "+ $n x sysward run --policy $POL/emulate-uid.json -- ${1##*/} ${*:2}"
	for i in $(seq "$n"); do
		[ "$secs" -eq 0 ] || [ "$SECONDS" -lt "$end" ] || break
		runs=$i
		timeout -k 5 30 "$SYSWARD" run --policy "$POL/emulate-uid.json" -- \
			"$@" >"$out" 2>&1 </dev/null
		rc=$?
		if [ "$rc" -ne 0 ] || ! grep -q '^verdict: contained' "$out"; then
			bad=$((bad + 1))
			echo "run $i: exit status $rc"
			cat "$out"
		fi
	done
}

# proc_state PID: the state letter of /proc/PID/stat (T stopped, Z
# zombie), or nothing once it is gone.
proc_state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }

# $scratch/policy.json: getuid emulated as 4242, openat of $1/file-D
# refused with EACCES by path.
uid_path_policy() {
	cat >"$scratch/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$1/file-D"}]}]}
	EOF
}

# fuse_freeze_setup: skips where adv_fuse cannot mount; $d its directory.
fuse_freeze_setup() {
	[ "$(id -u)" = 0 ] || skip "needs uid 0 (/dev/fuse is often mode 0600)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	d=$scratch/d
	mkdir -p "$d/mnt" && echo allowed >"$d/file-A" && echo denied >"$d/file-D"
}

# fuse_freeze_run: adv_fuse $d under $scratch/policy.json (and RUN_OPTS);
# fails unless the program was ended before its server's 4 s; $ms.
fuse_freeze_run() {
	local t0
	t0=$(date +%s%N)
	echo "+ timeout -s KILL 30 sysward run --policy $scratch/policy.json ${RUN_OPTS[*]} --cap setfcap -- adv_fuse $d"
	timeout -s KILL 30 "$SYSWARD" run --policy "$scratch/policy.json" \
		${RUN_OPTS[@]+"${RUN_OPTS[@]}"} --cap setfcap -- \
		"$ADV/adv_fuse" "$d" >"$out" 2>&1 </dev/null
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	cat "$out"
	echo "+ exit status $rc after $ms ms"
	[ "$rc" -eq 2 ] && skip "$(grep '^verdict' "$out")"
	grep -q '^verdict: ESCAPED' "$out" && fail "a FUSE page stalled the supervisor"
	grep -q 'server: READ' "$out" || fail "the FUSE READ never came (exit $rc)"
	[ "$ms" -lt 4000 ] || fail "took $ms ms: the program outlived the held READ"
}

# After stage_nobody adv_pidfd_getfd: a witness of uid 65534 outside the
# sandbox holds $nb/d/file-D open; adv_pidfd_getfd, confined by
# $nb/policy.json as uid 65534, tries to take that descriptor.
steal_from_witness() {
	setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/adv_pidfd_getfd" witness "$nb/d" </dev/null >/dev/null 2>&1 &
	wit=$!
	trap 'kill "$wit" 2>/dev/null; rm -rf "$nb"' EXIT
	wait_for "[ -s '$nb/d/wit.info' ]" || fail "the witness did not start"
	read -r wpid wfd <"$nb/d/wit.info"
	run_nobody --policy "$nb/policy.json" -- "$nb/adv_pidfd_getfd" steal "$nb/d" "$wpid" "$wfd"
	[ "$rc" -ne 2 ] || skip "$(grep '^verdict' "$out")"
}

expect_contained() {
	[ "$rc" -eq 0 ] && grep -q '^verdict: contained' "$out" ||
		fail "${1:-the escape was not contained} (exit $rc)"
}

# Stage sysward and adversarial program $1 where uid 65534 can reach them
# (the build tree may lie under a directory it cannot enter): $nb, with a
# readable DIR $nb/d (file-A, file-D) and $nb/policy.json denying openat
# of $nb/d/file-D.  Removed on exit.
stage_nobody() {
	command -v setpriv >/dev/null || skip "setpriv(1) is missing"
	[ "$(id -u)" = 0 ] || skip "needs root to run sysward as uid 65534"
	nb=$(mktemp -d /tmp/sysward-nobody.XXXXXX) || fail "mktemp"
	trap 'rm -rf "$nb"' EXIT
	chmod 755 "$nb"
	cp "$SYSWARD" "$nb/sysward" && cp "$ADV/$1" "$nb/$1" || fail "staging"
	chmod 755 "$nb/sysward" "$nb/$1"
	mkdir -m 755 "$nb/d"
	echo allowed >"$nb/d/file-A" && echo denied >"$nb/d/file-D"
	chmod 644 "$nb/d/file-A" "$nb/d/file-D"
	cat >"$nb/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$nb/d/file-D"}]}]}
	EOF
	chmod 644 "$nb/policy.json"
}

# fuse_write_open_nobody RUN-OPTION [detached]: as uid 65534, adv_fuse
# write-open (a 0666 node of /dev/fuse's made here) within 20 s,
# contained and not hung; with RUN-OPTION --complain, under
# "filesystem" rules that grant its directory (without complain mode
# they are Landlock's, under which no mount is made).
fuse_write_open_nobody() {
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	stage_nobody adv_fuse
	mkdir -m 755 "$nb/d/mnt"
	chown 65534:65534 "$nb/d/mnt"
	mknod -m 666 "$nb/fuse" c 10 229 || skip "cannot make a node of /dev/fuse's in $nb"
	cat >"$nb/fs.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "filesystem": {"paths": [{"path": "/", "access": "ro"},
	                          {"path": "$nb/d", "access": "rw"}]}}
	EOF
	chmod 644 "$nb/fs.json"
	t0=$(date +%s%N)
	KERNEL=(timeout -s KILL 20)
	RUN_OPTS=($1)
	run_nobody --policy "$nb/$([ -n "$1" ] && echo fs || echo policy).json" -- \
		"$nb/adv_fuse" "$nb/d" write-open "$nb/fuse" ${2:-}
	KERNEL=() RUN_OPTS=()
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "+ after $ms ms"
	fuse_abort_left "$nb"
	[ "$rc" -eq 2 ] && skip "$(grep '^verdict' "$out")"
	[ "$rc" -eq 137 ] && fail "sysward hung on the program's FUSE server: killed after $ms ms"
	expect_contained "the supervisor asked the program's FUSE server"
	[ "$ms" -lt 5000 ] || fail "took $ms ms"
}

# fuse_abort_left DIR: undefended, a supervisor waits in a request that
# its server has read, which no signal ends (fs/fuse/dev.c
# request_wait_answer()), and outlives sysward's kill with its tracees:
# kill each adv_fuse still running from DIR, whose server process holds
# the connection's only /dev/fuse descriptor (its end aborts it).
fuse_abort_left() {
	local p
	for p in $(pgrep -f "$1/adv_fuse"); do
		kill -9 "$p" 2>/dev/null
	done
}

# as_example FILE: under containment_examples, FILE (a staged allow-all
# policy) becomes the bundled example SW_CHECK_EXAMPLE names: every
# defence of the session's authority holds whatever the policy.
as_example() {
	[ -n "${SW_CHECK_EXAMPLE:-}" ] || return 0
	cp "$SW_CHECK_EXAMPLE" "$1" && chmod 644 "$1" || fail "staging $SW_CHECK_EXAMPLE"
	echo "+ the policy: $(basename "$SW_CHECK_EXAMPLE")"
}

# Route 22, the compiled-filter cache: stage_cache stages adv_cache for
# uid 65534 with a home of its own ($nb/home, its cache $cache) and two
# policies: $nb/allow.json allows everything, $nb/deny.json refuses
# getppid with EPERM in the kernel's filter alone.
stage_cache() {
	stage_nobody adv_cache
	mkdir -m 700 "$nb/home" && chown 65534:65534 "$nb/home" || fail "staging"
	cache=$nb/home/.cache/sysward
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_cache" keys ||
		skip "no keyring for uid 65534 here: the cache is off"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json"
	cat >"$nb/deny.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}]}
	EOF
	chmod 644 "$nb/allow.json" "$nb/deny.json"
}

# run_cached POLICY ARGS...: like run_nobody, "sysward run --policy
# POLICY ARGS" as uid 65534 with HOME=$nb/home and no other cache
# setting.
run_cached() {
	local policy=$1; shift
	echo "+ (uid 65534, HOME=$nb/home) sysward run --policy $policy $*"
	(cd / && env -u XDG_CACHE_HOME -u CACHE_DIRECTORY -u SYSWARD_NO_CACHE \
		HOME="$nb/home" setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/sysward" run --policy "$policy" "$@") >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# cache_entry POLICY: the probe under POLICY; $entry: the one entry that
# run wrote.
cache_entry() {
	local before
	before=$(ls "$cache" 2>/dev/null)
	run_cached "$1" -- "$nb/adv_cache" probe
	entry=$(comm -13 <(echo "$before") <(ls "$cache" 2>/dev/null))
	[ -n "$entry" ] && [ "$(wc -l <<<"$entry")" -eq 1 ] ||
		fail "the run under $1 wrote no entry in $cache"
	entry=$cache/$entry
}

# cache_both: entries for allow.json ($allow_e) and deny.json ($deny_e,
# its bytes kept in $scratch/deny.good), the probe contained by the
# latter.
cache_both() {
	cache_entry "$nb/allow.json"
	allow_e=$entry
	grep -q '^verdict: ESCAPED' "$out" || fail "allow.json does not let getppid run"
	cache_entry "$nb/deny.json"
	deny_e=$entry
	expect_contained "deny.json did not refuse getppid"
	cp "$deny_e" "$scratch/deny.good" || fail "keeping $deny_e"
}

# cache_probe WHAT: the probe under deny.json must be contained, and the
# entry rebuilt, byte for byte, as a fresh compile made it.
cache_probe() {
	run_cached "$nb/deny.json" -- "$nb/adv_cache" probe
	expect_contained "$1 widened deny.json"
	cmp -s "$deny_e" "$scratch/deny.good" || fail "$1 was not replaced by a fresh compile"
	[ "$(stat -c %u "$deny_e")" = 65534 ] || fail "the rebuilt entry is not uid 65534's"
}

# cache_attack MODE WHAT: adv_cache MODE, confined by allow.json, turns
# deny.json's entry into WHAT; cache_probe then.
cache_attack() {
	stage_cache
	cache_both
	run_cached "$nb/allow.json" -- "$nb/adv_cache" "$1" "$allow_e" "$deny_e"
	[ "$rc" -eq 0 ] || fail "the confined attacker could not write the cache (exit $rc)"
	cache_probe "$2"
}

# run_nobody ARGS...: like run, "sysward run ARGS" as uid/gid 65534.
run_nobody() {
	echo "+ ${KERNEL[*]} (uid 65534) sysward run ${RUN_OPTS[*]} $*"
	(cd / && ${KERNEL[@]+"${KERNEL[@]}"} setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/sysward" run ${RUN_OPTS[@]+"${RUN_OPTS[@]}"} "$@") >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# witness_lives: $witness is still there (SIGRTMIN+1 through a swapped
# descriptor would have killed it).
witness_lives() {
	sleep 0.2
	kill -0 "$witness" 2>/dev/null || fail "the witness outside the tree was killed through a swapped fd"
}

# start_witness: $witness, a process outside sysward, of our uid, leader
# of its own process group and session (killed on exit).
start_witness() {
	setsid sleep 120 </dev/null >/dev/null 2>&1 &
	witness=$!
	trap 'kill "$witness" 2>/dev/null' EXIT
	for _ in $(seq 50); do
		[ "$(ps -o pgid= -p "$witness" | tr -d ' ')" = "$witness" ] && return
		sleep 0.02
	done
	fail "the witness process is not the leader of its own group"
}

# in_terminal PROGRAM ARGS...: sysward run in the foreground of a new
# pseudo-terminal (script(1)); like run.
in_terminal() {
	local cmd
	printf -v cmd '%q ' "$SYSWARD" run --policy "$POL/emulate-uid.json" -- "$@"
	echo "+ script -qec \"$cmd\""
	script -qec "$cmd" /dev/null </dev/null 2>&1 | tr -d '\r' >"$out"
	rc=${PIPESTATUS[0]}
	cat "$out"
	echo "+ exit status $rc"
}

# An interactive shell in a private tmux server: tmux_type LINE types a
# line into it.
# tmux_start: 1 only where there is no tmux (the caller skips); a tmux
# that cannot start a session (seen under CTest -j2) is tried again, then
# a failure: a skip there would hide what the test covers.
tmux_start() {
	local i err
	command -v tmux >/dev/null || return 1
	tmux_t=sysward-$test-$$
	for i in 1 2 3; do
		err=$(tmux -L "$tmux_t" new-session -d -s "$tmux_t" -x 120 -y 30 "env -i PATH=\"$PATH\" HOME=\"$scratch\" TERM=xterm bash --norc --noprofile -i" 2>&1) &&
			break
		[ "$i" = 3 ] && fail "tmux cannot start a session (3 tries): $err"
		sleep 0.5
	done
	tmux() { command tmux -L "$tmux_t" "$@"; }
	sleep 0.3
}
tmux_type() { tmux send-keys -t "$tmux_t" -l "$1"; tmux send-keys -t "$tmux_t" Enter; }
tmux_stop() { tmux kill-server 2>/dev/null; }
# start_syswardd: a private syswardd as root on $scratch/sock (stopped
# when the test exits).  confined_as HOW: the words that run a command
# unconfined (none), embedded ("sysward run --policy ... --") or through
# that daemon, for a line typed into a shell.
start_syswardd() {
	setsid "$SYSWARDD" --socket "$scratch/sock" 2>"$scratch/daemon.log" &
	dpid=$!
	trap 'kill "$dpid" 2>/dev/null; tmux_stop 2>/dev/null' EXIT
	wait_for "[ -S '$scratch/sock' ]" || fail "syswardd did not start: $(cat "$scratch/daemon.log")"
}
confined_as() {
	case $1 in
	unconfined) ;;
	embedded) printf "'%s' run --policy '%s' --" "$SYSWARD" "$POL/emulate-uid.json" ;;
	daemon) printf "'%s' run --daemon='%s' --policy '%s' --" "$SYSWARD" "$scratch/sock" "$POL/emulate-uid.json" ;;
	esac
}
# wait_for SHELL-CONDITION [TRIES]: up to TRIES tenths of a second (100).
wait_for() {
	for _ in $(seq "${2:-100}"); do
		eval "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# in_own_mounts WHAT SCRIPT [ARG...]: sh -c SCRIPT in a private mount
# namespace of the test's, with $1 sysward, $2 an allow-all policy and
# the ARGs after them; output in $out, status in $rc, both echoed.
in_own_mounts() {
	local what=$1 script=$2
	shift 2
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	echo "+ unshare -m: $what"
	unshare -m --propagation private sh -c "$script" sh "$SYSWARD" "$scratch/allow.json" "$@" \
		>"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# ctrl_z_fg SUFFIX: in tmux, "sysward run ... SUFFIX", Ctrl-Z, the shell
# shows the job stopped and the program stays stopped; fg finishes it.
ctrl_z_fg() {
	tmux_start || skip "no tmux"
	# (Alone on its line: a shell goes on with the rest of a line when a
	# job stops.)
	tmux_type "'$SYSWARD' run --policy '$POL/emulate-uid.json' -- sh -c 'echo \$\$ >$scratch/pid; sleep 1; echo finished'$1"
	wait_for "[ -s '$scratch/pid' ]" || { tmux_stop; fail "the program did not start"; }
	tmux send-keys -t "$tmux_t" C-z
	wait_for "[ \"\$(awk '{print \$3}' /proc/\$(cat $scratch/pid)/stat)\" = t ] || [ \"\$(awk '{print \$3}' /proc/\$(cat $scratch/pid)/stat)\" = T ]" ||
		{ tmux_stop; fail "Ctrl-Z did not stop the confined program"; }
	sleep 2	# longer than its sleep: it must stay stopped
	tmux capture-pane -p -t "$tmux_t" >"$out"
	cat "$out"
	if grep -qx finished "$out"; then
		tmux_stop; fail "the program did not stay stopped"
	fi
	grep -qi stopped "$out" || { tmux_stop; fail "the shell does not see its job stopped"; }
	tmux_type "fg"
	# Wait for its output before typing more: what is typed while it
	# runs is echoed by the terminal onto the same line.
	wait_for "tmux capture-pane -p -t '$tmux_t' | grep -qx finished" ||
		{ tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "the program did not finish after fg"; }
	tmux_type "echo \"rc=\$?\" >'$scratch/rc'"
	wait_for "[ -s '$scratch/rc' ]" || { tmux_stop; fail "the shell did not come back after fg"; }
	tmux capture-pane -p -t "$tmux_t" >"$out"
	tmux_stop
	cat "$out"
	grep -qx 'rc=0' "$scratch/rc" || fail "after fg: expected exit 0, got $(cat "$scratch/rc")"
}

# Route 16 (docs/security.md).  After stage_nobody adv_reach: $nb/d
# writable by uid 65534, and $nb/allow.json (restricts nothing: every
# built-in defence that follows the policy is off) and $nb/docker.json
# (Docker's default profile), each granting the witness's socket
# $nb/d/wit.sock (route 19), so that its peer's pidfd (SO_PEERPIDFD) is
# the program's to try pidfd_getfd and process_madvise on.
stage_reach() {
	local grant
	stage_nobody adv_reach
	chown 65534:65534 "$nb/d"
	grant="{\"names\": [\"connect\"], \"action\": \"SCMP_ACT_ALLOW\", \"paths\": [{\"index\": 1, \"exact\": \"$nb/d/wit.sock\"}]}"
	echo "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [$grant]}" >"$nb/allow.json"
	python3 - "$POL/../../../policy/examples/docker-default.json" "$nb/docker.json" "$grant" <<-'EOF' || fail "staging"
	import json, sys
	p = json.load(open(sys.argv[1]))
	p["syscalls"].insert(0, json.loads(sys.argv[3]))
	json.dump(p, open(sys.argv[2], "w"))
	EOF
	chmod 644 "$nb/allow.json" "$nb/docker.json"
	as_example "$nb/allow.json"
}

# reach_from_parent POLICY: as uid 65534, the witness (adv_reach witness:
# $nb/d/file-D open, a secret in its memory and environment, unix sockets
# listening) starts sysward, whose program attacks it: the program's own
# ancestry, as a shell that runs sysward.
reach_from_parent() {
	echo "+ ${KERNEL[*]} (uid 65534) adv_reach witness $nb/d -- sysward run --policy $1 ${2:-} -- adv_reach attack $nb/d"
	(cd / && SW_REACH_SECRET=witness-env-secret ${KERNEL[@]+"${KERNEL[@]}"} \
		setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/adv_reach" witness "$nb/d" -- \
		"$nb/sysward" run --policy "$1" ${2:-} -- "$nb/adv_reach" attack "$nb/d") >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
}

# Route 19 (docs/security.md).  peers_serve AS MODE [ARG]: "adv_peers
# MODE DIR [ARG]" outside sysward, as uid AS (nobody: after stage_nobody
# adv_peers, $nb; root: in $scratch), in a session of its own (killed on
# exit, whatever processes it has become); its sockets in $sd; $ap the
# adversarial program, $allow an allow-all policy, both where the
# program's uid reaches them.  Waits until it serves.
peers_serve() {
	local as=$1
	shift
	if [ "$as" = nobody ]; then
		stage_nobody adv_peers
		sd=$nb/d
		chown 65534:65534 "$sd"
		ap=$nb/adv_peers
		allow=$nb/allow.json
		echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$allow"
		chmod 644 "$allow"
		as_example "$allow"
		(cd / && setsid setpriv --reuid 65534 --regid 65534 --clear-groups \
			"$ap" "$1" "$sd" "${@:2}") </dev/null >/dev/null 2>&1 &
	else
		[ "$(id -u)" = 0 ] || skip "needs root"
		# In $nb where staged (stage_nobody first): a uid 65534
		# program must reach the sockets, and the build tree may
		# lie under a directory it cannot enter (a clone under
		# root's 0700 home: the kernel's EACCES).
		sd=${nb:+$nb/rd}
		sd=${sd:-$scratch/d}
		mkdir -p "$sd"
		chmod 755 "$sd"
		ap=$ADV/adv_peers
		allow=$scratch/allow.json
		echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$allow"
		setsid "$ap" "$1" "$sd" "${@:2}" </dev/null >/dev/null 2>&1 &
	fi
	svc=$!
	trap 'kill -- -"$svc" 2>/dev/null; [ -n "${nb:-}" ] && rm -rf "$nb"' EXIT
	wait_for "[ -s '$sd/serve.info' ]" || fail "the service did not start"
	sleep 0.2	# a "forked" service's listener exits meanwhile
}

# peers_reached KIND: did the service get a message on KIND?
peers_reached() { [ -e "$sd/reached.$1" ]; }

# peers_expect_none KIND...: the service got no message on any KIND.
peers_expect_none() {
	local k
	for k in "$@"; do
		! peers_reached "$k" || fail "the service outside got a message on $k"
	done
}

# Route 20 (docs/security.md): kernel objects of the uid outside the
# session.  objects_stage PROGRAM: stage_nobody PROGRAM, $nb/allow.json and
# $nb/docker.json, $nb/w writable by uid 65534, and a witness of uid 65534
# outside the sandbox ($witness), in a cgroup v2 owned by uid 65534 as
# systemd delegates user@UID.service ($cg; empty where no cgroup2 is
# mounted writable).  Both removed on exit.
objects_stage() {
	local root
	stage_nobody "$1"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json"
	cp "$POL/../../../policy/examples/docker-default.json" "$nb/docker.json" || fail "staging"
	chmod 644 "$nb/allow.json" "$nb/docker.json"
	as_example "$nb/allow.json"
	mkdir -m 777 "$nb/w"
	setpriv --reuid 65534 --regid 65534 --clear-groups sleep 120 </dev/null >/dev/null 2>&1 &
	witness=$!
	cg=
	root=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo)
	if [ -n "$root" ] && mkdir "$root/sysward-test-$test-$$" 2>/dev/null; then
		cg=$root/sysward-test-$test-$$
		chown -R 65534:65534 "$cg" && echo "$witness" >"$cg/cgroup.procs" ||
			cg=
	fi
	trap 'kill "$witness" 2>/dev/null; [ -z "$cg" ] || { echo 0 >"$cg/cgroup.freeze"; sleep 0.2; rmdir "$cg"; }; rm -rf "$nb"' EXIT
	echo "+ witness $witness (uid 65534, outside), cgroup ${cg:-none}"
}

# Route 8 and 14: own_pair_stage: stage_nobody adv_own_filter (with its
# policy's path rule: the path guard is set up in each image), and a
# witness outside the session ($pw, as root): a datagram socket
# $nb/w/wit.sock, mode 0777, SO_PASSCRED, that logs each datagram it gets
# with its sender's credentials to $nb/w/wit.log.
own_pair_stage() {
	stage_nobody adv_own_filter
	mkdir -m 777 "$nb/w"
	"$nb/adv_own_filter" pair-witness "$nb/w/wit.sock" "$nb/w/wit.log" </dev/null >/dev/null 2>&1 &
	pw=$!
	trap 'kill "$pw" 2>/dev/null; rm -rf "$nb"' EXIT
	local i
	for ((i = 0; i < 50; i++)); do
		[ -S "$nb/w/wit.sock" ] && return 0
		sleep 0.1
	done
	fail "the witness did not bind $nb/w/wit.sock"
}

# own_pair_nothing_sent: the witness got no datagram.
own_pair_nothing_sent() {
	kill "$pw"
	wait "$pw"
	echo "+ witness got: $(cat "$nb/w/wit.log" 2>/dev/null)"
	[ "$(cat "$nb/w/wit.log.check" 2>/dev/null)" = nothing ] ||
		fail "the witness outside got a datagram from the supervisor: $(cat "$nb/w/wit.log" 2>/dev/null)"
}

# objects_witness_intact: the witness lives, runs, and its oom_score_adj
# and cgroup are as they were.
objects_witness_intact() {
	local state oom
	state=$(proc_state "$witness")
	oom=$(cat "/proc/$witness/oom_score_adj" 2>/dev/null)
	echo "+ witness: state ${state:-gone}, oom_score_adj ${oom:-?}${cg:+, frozen $(cat "$cg/cgroup.freeze")}"
	[ -n "$state" ] && [ "$state" != Z ] || fail "the witness outside the sandbox was killed"
	[ "$oom" = 0 ] || fail "the witness's oom_score_adj was changed to $oom"
	[ -z "$cg" ] || [ "$(cat "$cg/cgroup.freeze")" = 0 ] || fail "the witness's cgroup was frozen"
}

# objects_attack PROGRAM NAME AS POLICY WHAT: PROGRAM (adv_ipc, adv_keys)
# as AS (nobody or root) under $nb/POLICY at the objects a witness of that
# uid keeps outside the sandbox (replacing objects_stage's); the witness
# says it started in $nb/w/NAME.info, and on SIGUSR1 checks its objects
# and writes "intact" or what changed to $nb/w/NAME.check.  WHAT: the
# escape expect_contained names.
objects_attack() {
	local as=(setpriv --reuid 65534 --regid 65534 --clear-groups)
	objects_stage "$1"
	kill "$witness"
	[ "$3" = root ] && as=()
	"${as[@]}" "$nb/$1" witness "$nb/w" </dev/null >/dev/null 2>"$nb/witness.err" &
	witness=$!
	# 30 s: a witness of uid 65534 started through setpriv took more
	# than 10 s once under a load of 15 (the clean room's test run).
	wait_for "[ -s '$nb/w/$2.info' ]" 300 ||
		fail "the witness did not start: $(cat "$nb/witness.err" 2>/dev/null)"
	if [ "$3" = root ]; then
		run "$nb/$4" -- "$ADV/$1" attack "$nb/w"
	else
		run_nobody --policy "$nb/$4" -- "$nb/$1" attack "$nb/w"
	fi
	kill -USR1 "$witness"
	wait_for "[ -s '$nb/w/$2.check' ]" || fail "the witness did not check its objects"
	echo "+ the witness's objects: $(cat "$nb/w/$2.check")"
	grep -qx intact "$nb/w/$2.check" || fail "the witness's objects were touched: $(cat "$nb/w/$2.check")"
	expect_contained "$5"
}

# objects_ipc_attack POLICY: adv_ipc as uid 65534 under $nb/POLICY.
objects_ipc_attack() {
	[ -e /proc/sysvipc/shm ] && [ -d /proc/sys/fs/mqueue ] ||
		skip "this kernel has no System V IPC or no POSIX message queues"
	objects_attack adv_ipc ipc nobody "$1" "an IPC object outside the sandbox was reached"
}

# objects_keys_attack AS: adv_keys as AS (nobody or root), allow-all.
objects_keys_attack() {
	[ -e /proc/keys ] || skip "this kernel has no keys (CONFIG_KEYS)"
	objects_attack adv_keys keys "$1" allow.json "a keyring of the uid's outside the sandbox was reached"
}

# objects_own PROGRAM WHAT: PROGRAM's controls (the program's own objects)
# as uid 65534 and, when root, as root, under an allow-all policy (after
# objects_stage PROGRAM); every one must work, and as uid 65534 print
# what $scratch/plain holds where there is one (the run unconfined).
objects_own() {
	run_nobody --policy "$nb/allow.json" -- "$nb/$1" control
	[ "$rc" -eq 0 ] && grep -qx 'control: all worked' "$out" ||
		fail "as uid 65534, $2 did not work (exit $rc)"
	[ ! -e "$scratch/plain" ] || cmp -s "$scratch/plain" "$out" ||
		fail "as uid 65534, $2 did not work as unconfined"
	[ "$(id -u)" = 0 ] || exit 0
	run "$nb/allow.json" -- "$ADV/$1" control
	[ "$rc" -eq 0 ] && grep -qx 'control: all worked' "$out" ||
		fail "as root, $2 did not work (exit $rc)"
}

# i386 syscalls exist only if the kernel runs 32-bit code for this machine
# (ia32_emulation); probe with an unconfined int $0x80.
ia32_works() { "$ADV/adv_int80_probe" >/dev/null 2>&1; }

# audit_log FORMAT (route 15, docs/security.md): paths with newlines,
# control bytes, forged records and bytes that are not UTF-8, opened and
# execed under a policy that logs both calls: every line of the --log is
# one record, one per call, and gives back the exact bytes by the
# documented rule (tests/lib/audit-check.py).
audit_log() {
	command -v python3 >/dev/null || skip "python3 (the log's checker) is missing"
	run "$POL/audit-paths.json" --log "$scratch/log" --log-format "$1" -- \
		"$ADV/adv_audit" /nonexistent-sysward-audit
	[ "$rc" -eq 0 ] || fail "adv_audit failed (exit $rc)"
	echo "+ audit-check.py $1 (the log: $scratch/log)"
	python3 "$(dirname "$0")/../lib/audit-check.py" "$1" "$scratch/log" \
		"$out" /nonexistent-sysward-audit/ ||
		fail "the $1 audit log was forged or broken"
}

# pid_values PID: what the pid-taking calls (route 16b) would change in
# PID, read from outside: CPU and open-file limits, nice, scheduling
# policy, allowed CPUs, I/O priority.
pid_values() {
	grep -E '^Max (cpu time|open files)' "/proc/$1/limits"
	sed 's/.*) //' "/proc/$1/stat" | awk '{print "nice " $17 ", policy " $39}'
	grep '^Cpus_allowed_list' "/proc/$1/status"
	# ioprio_get is ENOSYS without CONFIG_BLOCK (the guest's kernel).
	ionice -p "$1" 2>/dev/null || echo "ioprio: none in this kernel"
}

# pidcalls_outside AS POLICY: adv_pidcalls under POLICY, run as AS (root
# or nobody), at a witness of that uid outside the sandbox, leader of its
# own group; its values must be what they were.
pidcalls_outside() {
	local before after
	if [ "$1" = nobody ]; then
		stage_nobody adv_pidcalls
		cp "$2" "$nb/pidcalls.json" && chmod 644 "$nb/pidcalls.json"
		setpriv --reuid 65534 --regid 65534 --clear-groups \
			setsid sleep 120 </dev/null >/dev/null 2>&1 &
		witness=$!
		trap 'kill "$witness" 2>/dev/null; rm -rf "$nb"' EXIT
		wait_for "[ \"\$(ps -o pgid= -p $witness | tr -d ' ')\" = $witness ]" ||
			fail "the witness is not the leader of its own group"
	else
		start_witness
	fi
	before=$(pid_values "$witness") || fail "cannot read the witness's values"
	if [ "$1" = nobody ]; then
		run_nobody --policy "$nb/pidcalls.json" -- "$nb/adv_pidcalls" outside "$witness"
	else
		run "$2" -- "$ADV/adv_pidcalls" outside "$witness"
	fi
	after=$(pid_values "$witness")
	printf 'witness %s before:\n%s\nafter:\n%s\n' "$witness" "$before" "$after"
	[ "$before" = "$after" ] || fail "the witness's limits or priorities changed"
	expect_contained "a pid-taking call acted on a process outside the sandbox, or failed on the program's own"
}

# exec_rules_stage: $scratch/d with copies of adv_exec that
# $scratch/policy.json denies to execve and execveat (route 17):
# d/denied/prog (exact), d/denied2/prog (prefix d/denied2/), d/denied3/prog
# (exact rule naming it d/alias/prog, alias -> denied3).
exec_rules_stage() {
	d=$scratch/d
	mkdir -p "$d/denied" "$d/denied2" "$d/denied3" || fail "mkdir"
	for x in denied denied2 denied3; do
		cp "$ADV/adv_exec" "$d/$x/prog" || fail "staging"
	done
	ln -s denied3 "$d/alias"
	cat >"$scratch/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["execve"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 0, "exact": "$d/denied/prog"}]},
	  {"names": ["execve"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 0, "prefix": "$d/denied2/"}]},
	  {"names": ["execve"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 0, "exact": "$d/alias/prog"}]},
	  {"names": ["execveat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$d/denied/prog"}]},
	  {"names": ["execveat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "$d/denied2/"}]},
	  {"names": ["execveat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$d/alias/prog"}]}]}
	EOF
}

# exec_rules VARIANT...: each adv_exec variant under that policy must not
# run a denied file; a variant the kernel let run must have been killed
# with a warning naming the file.
exec_rules() {
	exec_rules_stage
	for v in "$@"; do
		run "$scratch/policy.json" -- "$ADV/adv_exec" "$v" "$d"
		expect_contained "$v: a file denied by an execve path rule ran"
		if grep -q "child killed by signal 9" "$out"; then
			grep -q "^sysward: pid [0-9]* killed: it executes $d/.*prog.*, which the policy's rule syscalls\[[0-9]\] denies to execve" "$out" ||
				fail "$v: killed without a warning naming the executed file"
		fi
	done
}

# complain REPORT: the next run complains, and writes its report to
# $scratch/REPORT.json.
complain() {
	RUN_OPTS=(--complain --report "$scratch/$1.json")
}

# report_outcome REPORT SYSCALL OUTCOME: the report itemises SYSCALL with
# OUTCOME (defence: sysward refused it whatever the policy).
report_outcome() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if any(c["syscall"] == sys.argv[2] and c["outcome"] == sys.argv[3]
                  for c in r["calls"]) else 1)' "$scratch/$1.json" "$2" "$3" ||
		fail "the report does not list $2 as $3: $(cat "$scratch/$1.json")"
}

# Route 16c (docs/security.md): the session's own namespaces, which a
# privileged launch gives (as root here).  nsbox_beside WITNESS-PROGRAM
# WITNESS-ARGS... -- ATTACK-ARGS...: the adversarial program as a witness
# outside the session (root, like the program), then under allow-all and
# Docker's default profile as the attacker; contained under both.
nsbox_beside() {
	local prog=$1 wargs=() a
	shift
	while [ "$1" != -- ]; do wargs+=("$1"); shift; done
	shift
	[ "$(id -u)" = 0 ] || skip "needs root (a launcher with CAP_SYS_ADMIN)"
	"$ADV/$prog" witness "${wargs[@]}" </dev/null >/dev/null 2>&1 &
	wit=$!
	trap 'kill "$wit" 2>/dev/null; nsbox_undo' EXIT
	wait_for "[ -s '$scratch/wit.info' ]" || fail "the witness did not start"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	for a in "$scratch/allow.json" "$POL/../../../policy/examples/docker-default.json"; do
		run "$a" -- "$ADV/$prog" attack "$@"
		expect_contained "$prog: an object outside the session was reached under ${a##*/}"
	done
}
nsbox_undo() { :; }

# nsbox_test_cgroup: as root, $cg2/sysward-test.PID, a cgroup of root's
# (removed on exit), and $scratch/allow.json.
nsbox_test_cgroup() {
	[ "$(id -u)" = 0 ] || skip "needs root (a launcher with CAP_SYS_ADMIN)"
	cg2=$(nsbox_cg2)
	[ -n "$cg2" ] || skip "no cgroup2 mount here"
	mkdir "$cg2/sysward-test.$$" || fail "mkdir"
	trap 'rmdir "$cg2/sysward-test.$$"' EXIT
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
}

# fsrules_run POLICY: adv_fsrules under POLICY, as root here or, with
# $nb set (stage_nobody), as uid 65534 from $nb.
fsrules_run() {
	if [ -n "${nb:-}" ]; then
		run_nobody --policy "$1" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO
	else
		run "$1" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO
	fi
}

# fsrules_names DIR: adv_fsrules under its kernel-enforced rules
# (contained), then under the same rule on ro/secret by strings (the
# names get through: the test sees an escape when there is one).
fsrules_names() {
	fs=$1
	fsrules_stage "$fs" ${nb:+65534}
	fsrules_run "$fs/fs.json"
	expect_contained "a file or port the kernel-enforced rules refuse was reached"
	rm -rf "$fs" && fsrules_stage "$fs" ${nb:+65534}
	fsrules_run "$fs/strings.json"
	[ "$rc" -eq 1 ] && grep -q 'ESCAPE: open(rw/ro-link' "$out" &&
		grep -q 'ESCAPE: openat(O_PATH dirfd of ro/secret, "key")' "$out" &&
		grep -q 'ESCAPE: open(/proc/self/root/.../key)' "$out" &&
		grep -q 'ESCAPE: open(rw/sub/hard)' "$out" &&
		grep -q 'ESCAPE: through a mount of its own' "$out" ||
		fail "the string rules' control did not show the names getting through"
}

# ---------------------------------------------------------------- rows
#
# A row's DO is steps and its EXPECT checks, each "; "-separated, run in
# order (check.rows lists them).  A step or check that is none of the
# words below is a function of this script, called with its words.

# row_words TEXT: $row_w, TEXT's bash words (quotes and $VARIABLES as on
# a command line).
row_words() { eval "row_w=($1)" || fail "row: bad words: $1"; }

# row_text TEXT: TEXT expanded as in a here document ($sd, $nb, ...).
row_text() {
	eval "cat <<__SW_ROW_END__
$1
__SW_ROW_END__"
}

# row_policy WORD: the policy file WORD names.
row_policy() {
	case $1 in
	allow)
		echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
		echo "$scratch/allow.json" ;;
	docker) echo "$POL/../../../policy/examples/docker-default.json" ;;
	race) echo "$scratch/path-race.json" ;;
	gen/*) echo "$GEN/${1#gen/}.json" ;;
	*/*) echo "$1" ;;
	*) echo "$POL/$1.json" ;;
	esac
}

# row_command HOW WORDS...: run, nobody (after stage: as uid 65534, the
# program staged in $nb), bare (no sysward), terminal (in_terminal) or
# cli (sysward WORDS, under $KERNEL as run).
row_command() {
	local how=$1 policy= opts=() prog
	shift
	if [ "$how" = run ] || [ "$how" = nobody ]; then
		policy=$(row_policy "$1")
		shift
		while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
		[ $# -gt 1 ] || fail "row: $how: no -- PROGRAM"
		shift
	fi
	prog=$1
	shift
	if [[ $prog =~ ^adv_[a-z0-9_]+$ ]]; then
		if [ "$how" = nobody ]; then prog=$nb/$prog; else prog=$ADV/$prog; fi
	fi
	case $how in
	run) run "$policy" ${opts[@]+"${opts[@]}"} -- "$prog" "$@" ;;
	nobody) run_nobody --policy "$policy" ${opts[@]+"${opts[@]}"} -- "$prog" "$@" ;;
	bare | cli)
		if [ "$how" = cli ]; then
			set -- "$prog" "$@"
			prog=$SYSWARD
			echo "+ ${KERNEL[*]} sysward $*"
		else
			echo "+ $prog $*   (no sysward: kernel behaviour)"
		fi
		${KERNEL[@]+"${KERNEL[@]}"} "$prog" "$@" >"$out" 2>&1 </dev/null
		rc=$?
		cat "$out"
		echo "+ exit status $rc" ;;
	terminal) in_terminal "$prog" "$@" ;;
	esac
}

# row_step STEP: one step of a row's DO.
row_step() {
	local key=${1%% *} arg=
	[[ $1 != *' '* ]] || arg=${1#* }
	case $key in
	root) [ "$(id -u)" = 0 ] || skip "needs root${arg:+ ($arg)}" ;;
	ia32)
		ia32_works ||
			skip "this kernel runs no 32-bit code (ia32_emulation off): int \$0x80 faults before seccomp; the i386 filter is checked at BPF level by tests/unit test_filter (I386 rows)" ;;
	vsyscall)
		grep -q '\[vsyscall\]' /proc/self/maps ||
			skip "this kernel maps no vsyscall page (vsyscall=none or CONFIG_X86_VSYSCALL_EMULATION off)" ;;
	needs) command -v "$arg" >/dev/null || skip "no $arg" ;;
	race)
		# The test's own: the path cases run side by side (ctest -j)
		# and each rewrites file-A.
		d=$scratch/race
		mkdir -p "$d" && echo allowed >"$d/file-A" && echo denied >"$d/file-D" &&
			sed "s|@SW_RACE_DIR@|$d|g" "$POL/path-race.json.in" >"$scratch/path-race.json" ||
			fail "staging $d" ;;
	allow) row_policy allow >/dev/null ;;
	stage) stage_nobody "$arg" ;;
	pretend) row_words "$arg"; KERNEL=("$PRETEND" "${row_w[@]}" --) ;;
	sh) eval "$arg" || fail "row: failed: $arg" ;;
	run | nobody | bare | terminal | cli) row_words "$arg"; row_command "$key" "${row_w[@]}" ;;
	*) row_call "$key" "$arg" ;;
	esac
}

# row_check CHECK: one check of a row's EXPECT.
row_check() {
	local key=${1%% *} arg= t
	[[ $1 != *' '* ]] || arg=${1#* }
	case $key in
	contained) expect_contained ${arg:+"$arg"} ;;
	skip-on) [ "$rc" -ne "$arg" ] || skip "$(grep '^verdict' "$out")" ;;
	rc) [ "$rc" -eq "$arg" ] || fail "expected exit status $arg, got $rc" ;;
	has | line | lacks)
		t=$(row_text "$arg")
		case $key in
		has) grep -q -- "$t" "$out" || fail "no line of the output matches '$t'" ;;
		line) grep -qx -- "$t" "$out" || fail "no line of the output is '$t'" ;;
		lacks) ! grep -q -- "$t" "$out" || fail "a line of the output matches '$t'" ;;
		esac ;;
	absent) row_words "$arg"; [ ! -e "${row_w[0]}" ] || fail "${row_w[0]} exists" ;;
	report) row_words "$arg"; report_outcome "${row_w[@]}" ;;
	sh) eval "$arg" || fail "row: failed: $arg" ;;
	*) row_call "$key" "$arg" ;;
	esac
}

# row_call FUNCTION ARGS: a function of this script, with ARGS' words;
# its failure (a status other than 0) is the test's.
row_call() {
	declare -F "$1" >/dev/null || fail "row: '$1' is neither a step, a check nor a function of check.sh"
	row_words "$2"
	"$1" ${row_w[@]+"${row_w[@]}"} || fail "row: $1 $2: status $?"
}

# row_split TEXT: $row_parts, TEXT cut at each "; ".
row_split() {
	local t=$1
	row_parts=()
	while [[ $t == *'; '* ]]; do
		row_parts+=("${t%%; *}")
		t=${t#*; }
	done
	[ -z "$t" ] || row_parts+=("$t")
}

# The test's rows, in order; a test whose row says "case" is its branch
# below.
mapfile -t test_rows < <(rows_table | awk -F '\t' -v t="$test" '$1 == t {print $3 "\t" $4}')
[ ${#test_rows[@]} -gt 0 ] || { echo "check.sh: unknown test '$test'" >&2; exit 2; }
if [ "${test_rows[0]}" != $'case\t' ]; then
	for r in "${test_rows[@]}"; do
		row_split "${r%%$'\t'*}"
		for s in "${row_parts[@]}"; do row_step "$s"; done
		row_split "${r#*$'\t'}"
		for s in ${row_parts[@]+"${row_parts[@]}"}; do row_check "$s"; done
	done
	echo "PASS [$test]"
	exit 0
fi

case $test in
fuse_supervisor_freeze)
	# A path on a page of a FUSE file the program serves itself (in its
	# own user namespace) and never answers: the supervisor's read of it
	# must not wait beyond its deadline.  The program's server answers
	# after 4 s, so the run ends either way; undefended, the program's
	# witness reports the delay.  Defended, sysward kills the program
	# (with a warning) within about its 1 s deadline.  --cap setfcap only
	# lets uid 0 map itself into its user namespace (since 5.12 mapping
	# outside root needs it), as any other uid may map itself: where
	# /dev/fuse is 0666 (common) no capability is needed at all.
	fuse_freeze_setup
	uid_path_policy "$d"
	fuse_freeze_run
	grep -q 'reading the memory of pid [0-9]* took longer than the deadline' "$out" ||
		fail "no warning naming the stuck read (exit $rc)"
	echo "verdict: contained: killed after $ms ms (exit $rc)" ;;
fuse_listener_freeze)
	# The same page read by the session's seccomp listener (engine/trace/listener.c),
	# for the audit line of a logged call it answers: openat with flags
	# O_RDONLY exactly is skipped (EACCES) and logged, the witness's
	# getuid emulated, both answered by the listener.  Its thread reads
	# through the readers with a deadline (engine/strings.c) too, or it
	# would wait for the server, and with it every call the listener
	# answers and the session's end (its thread is joined).  Contained:
	# the program killed within about the 1 s deadline, with the same
	# warning as at a stop, and no line for the call never answered.
	fuse_freeze_setup
	cat >"$scratch/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	  {"names": ["openat"], "action": "SYSWARD_ACT_SKIP", "errno": "EACCES",
	   "args": [{"index": 2, "value": 0, "op": "SCMP_CMP_EQ"}]}]}
	EOF
	RUN_OPTS=(--log "$scratch/audit.log")
	fuse_freeze_run
	grep -q 'reading the memory of pid [0-9]* took longer than the deadline' "$out" ||
		fail "no warning naming the stuck read (exit $rc)"
	# The openat was never answered: no line for it, the rule's
	# (syscalls[1]); the witness's getuid may be answered while the kill
	# lands, and logged, and so are the setup's opens that can write,
	# which a defence stops and allows (the QEMU guest's kernel, without
	# kcmp, stops them).
	! grep '"syscall":"openat".*"rule_path":"syscalls\[1\]"' "$scratch/audit.log" ||
		fail "a line for a call never answered"
	echo "verdict: contained: killed after $ms ms (exit $rc)" ;;
pidfd_getfd_opt_in)
	# Control: a rule allowing pidfd_getfd hands it back to the policy,
	# with a warning; the same program then takes the descriptor (this
	# proves pidfd_getfd_outside can fail).  The witness runs inside the
	# session, since the session's Landlock domain refuses pidfd_getfd
	# on any process outside it (route 16); it opens file-D as
	# ./file-D, a string the path rule does not match.
	stage_nobody adv_pidfd_getfd
	chown 65534:65534 "$nb/d"
	cat >"$nb/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["pidfd_getfd"], "action": "SCMP_ACT_ALLOW"},
	  {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "exact": "$nb/d/file-D"}]}]}
	EOF
	# shellcheck disable=SC2016
	run_nobody --policy "$nb/policy.json" -- sh -c 'cd "$1" || exit 2
		"$2" witness . >/dev/null 2>&1 & w=$!
		i=0; until [ -s wit.info ] || [ $((i += 1)) -gt 200 ]; do sleep 0.05; done
		read -r p f <wit.info
		"$2" steal "$1" "$p" "$f"; r=$?
		kill "$w"; exit "$r"' sh "$nb/d" "$nb/adv_pidfd_getfd"
	[ "$rc" -eq 2 ] && skip "$(grep '^verdict' "$out")"
	grep -q "^sysward: warning: $nb/policy.json:[0-9]*:[0-9]*: syscalls\[0\].names: pidfd_getfd is left to this policy" "$out" ||
		fail "sysward run did not warn about the rule allowing pidfd_getfd"
	[ "$rc" -eq 1 ] && grep -q '^result: \[SO_PEERPIDFD\] pidfd_getfd = [0-9]*, and it reads "denied"' "$out" ||
		fail "pidfd_getfd did not work although a rule allows it (exit $rc)" ;;
supervisor_signal)
	run_bg "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" signal
	stopped=0
	for _ in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		if [ "$(proc_state "$pid")" = T ]; then
			stopped=1
			echo "+ sysward (pid $pid) is STOPPED: sending SIGCONT"
			kill -CONT "$pid"
		fi
		sleep 0.1
	done
	wait_bg
	[ $stopped -eq 0 ] || fail "the tracee signal-stopped its supervisor"
	expect_contained "a signal reached the supervisor" ;;
supervisor_stopped_fails_closed)
	# SIGSTOP through a /proc/<pid> directory fd (which the kernel takes
	# as a pidfd) is refused (signals_targets); should one get through,
	# while the supervisor is stopped a supervised syscall must wait,
	# not run.
	run_bg "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" procfd
	stopped=0
	for _ in $(seq 50); do
		[ "$(proc_state "$pid")" = T ] && { stopped=1; break; }
		sleep 0.1
	done
	if [ $stopped -eq 1 ]; then
		sleep 1
		cat "$out"
		if grep -q '^result: getuid' "$out"; then
			kill -CONT "$pid"; wait "$pid"
			fail "a supervised syscall returned while the supervisor was stopped"
		fi
		echo "+ supervisor stopped, getuid() still waiting after 1 s: sending SIGCONT"
		kill -CONT "$pid"
	fi
	wait_bg
	expect_contained "a supervised call ran without its supervisor" ;;
supervisor_kill_inside)
	run "$POL/emulate-uid.json" -- "$ADV/adv_supervisor" kill "$scratch/survived"
	sleep 1
	[ -e "$scratch/survived" ] && grep -q '^result: kill = 0' "$out" &&
		fail "the tracee killed its supervisor and kept running"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 137 ] || fail "unexpected exit $rc"
	[ "$rc" -eq 137 ] || expect_contained "SIGKILL to the supervisor" ;;
supervisor_killed_outside)
	run_bg "$POL/emulate-uid.json" -- "$ADV/adv_tree"
	echo "+ then SIGKILL sysward"
	for _ in $(seq 50); do grep -q '^ready' "$out" && break; sleep 0.1; done
	cat "$out"
	grep -q '^ready' "$out" || { kill -9 $pid; fail "adv_tree never got ready"; }
	pids=$(sed -n 's/^fact: pid //p' "$out")
	[ "$(echo "$pids" | wc -w)" -eq 4 ] || fail "expected 4 confined processes, saw: $pids"
	kill -9 "$pid"; wait "$pid" 2>/dev/null
	t0=$(date +%s%N)
	sleep 1
	for p in $pids; do
		st=$(proc_state "$p" || true)
		if [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]; then
			kill -9 "$p"
			fail "confined pid $p still alive (state $st) 1 s after its supervisor was SIGKILLed"
		fi
	done
	echo "+ all of $pids gone within $(( ($(date +%s%N) - t0) / 1000000 )) ms of SIGKILL" ;;
signals_pid_namespace)
	# Compatibility: a program in a pid namespace of its own names its
	# children by that namespace's numbers; they are in its tree.
	# (As nobody, with a user namespace; skipped where the kernel or the
	# machine allows none.)
	prog=(unshare --user --map-root-user --pid --fork sh -c 'sleep 5 & kill $!; echo "kill child: $?"')
	setpriv --reuid=65534 --regid=65534 --clear-groups "${prog[@]}" >/dev/null 2>&1 ||
		skip "no unprivileged user and pid namespaces here"
	# sysward and the policy where nobody can reach them, wherever the
	# checkout is (tests/lib/stage.sh).
	. "$(dirname "$0")/../lib/stage.sh"
	trap 'sw_stage_cleanup' EXIT
	sw_stage_for_others SYSWARD POL || fail "cannot stage sysward for uid 65534"
	echo "+ (as nobody) sysward run --policy $POL/emulate-uid.json -- ${prog[*]}"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SYSWARD" run --policy "$POL/emulate-uid.json" -- "${prog[@]}" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	[ "$rc" -eq 0 ] && grep -qx 'kill child: 0' "$out" ||
		fail "a program in its own pid namespace could not signal its child (exit $rc)" ;;
# tags: needs-tmux
terminal_ctrl_c)
	# Interactive: Ctrl-C interrupts the confined program (it owns the
	# terminal's foreground embedded; through syswardd the client relays
	# it), and the program's death by SIGINT is sysward's own: the shell
	# stops its loop, as unconfined.  bash ends a loop only when its
	# child was killed by SIGINT (WIFSIGNALED), not when it exited 130;
	# $? says 130 for both.  Unconfined (the control), embedded, and
	# through syswardd.
	: "${SYSWARDD:?}"
	start_syswardd
	for how in unconfined embedded daemon; do
		rm -f "$scratch/pid" "$scratch/iter" "$scratch/rc"
		tmux_start || skip "no tmux"
		tmux_type "for i in 1 2 3; do echo \$i >>'$scratch/iter'; $(confined_as "$how") sh -c 'echo \$\$ >$scratch/pid; exec sleep 30'; done"
		wait_for "[ \"\$(cat /proc/\$(cat $scratch/pid)/comm)\" = sleep ]" ||
			{ tmux_stop; fail "$how: the sleep did not start"; continue; }
		tmux send-keys -t "$tmux_t" C-c
		wait_for "! kill -0 $(cat "$scratch/pid")" || { tmux_stop; fail "$how: Ctrl-C did not end the sleep"; continue; }
		sleep 0.5	# a loop that goes on starts its next sleep meanwhile
		tmux_type "echo \"rc=\$?\" >'$scratch/rc'"
		wait_for "[ -s '$scratch/rc' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the shell did not come back after Ctrl-C (the loop went on)"; continue; }
		tmux_stop
		echo "+ $how: $(cat "$scratch/rc"), iterations $(wc -l <"$scratch/iter")"
		grep -qx 'rc=130' "$scratch/rc" || fail "$how: Ctrl-C: expected \$? 130, got $(cat "$scratch/rc")"
		[ "$(wc -l <"$scratch/iter")" -eq 1 ] || fail "$how: the loop went on after Ctrl-C ($(wc -l <"$scratch/iter") iterations)"
	done ;;
# tags: needs-tmux
terminal_pipeline_ctrl_c)
	# In a pipeline sysward relays the terminal's Ctrl-C to the
	# program's whole process group (here a shell and its sleep), as
	# the terminal would have sent it to them.  (A shell drops the rest
	# of a line whose job died of SIGINT: no exit status to read here.)
	tmux_start || skip "no tmux"
	tmux_type "'$SYSWARD' run --policy '$POL/emulate-uid.json' -- sh -c 'echo \$\$ >$scratch/pid; sleep 30' | cat"
	wait_for "[ -s '$scratch/pid' ] && pgrep -x -P \$(cat $scratch/pid) sleep" ||
		{ tmux_stop; fail "the confined sleep did not start"; }
	sh_pid=$(cat "$scratch/pid")
	sleep_pid=$(pgrep -x -P "$sh_pid" sleep)
	tmux send-keys -t "$tmux_t" C-c
	wait_for "! kill -0 $sh_pid && ! kill -0 $sleep_pid" ||
		{ tmux_stop; fail "Ctrl-C did not end the confined shell and its sleep"; }
	tmux_stop
	echo "+ the confined sh ($sh_pid) and its sleep ($sleep_pid) ended on Ctrl-C" ;;
# tags: needs-tmux
terminal_script_reads)
	# Run from a script ("; true": its shell forks sysward and waits in
	# sysward's process group), the confined program still owns the
	# terminal and reads it.
	tmux_start || skip "no tmux"
	tmux_type "bash -c \"'$SYSWARD' run --policy '$POL/emulate-uid.json' -- sh -c 'echo \\\$\\\$ >$scratch/pid; read x; echo got-\\\$x'; true\""
	wait_for "[ -s '$scratch/pid' ]" || { tmux_stop; fail "the program did not start"; }
	sleep 0.3
	tmux_type "hello"
	wait_for "tmux capture-pane -p -t '$tmux_t' | grep -qx got-hello" ||
		{ tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "the confined program could not read the terminal"; }
	tmux capture-pane -p -t "$tmux_t" | grep -v '^$'
	tmux_stop ;;
# tags: needs-tmux
terminal_pipeline_stty)
	# In a pipeline at an interactive shell ("sysward run ... | cat") the
	# program changes the terminal's modes (stty, an editor, a password
	# prompt): unconfined it is in the foreground job and may; confined
	# it is in a group of its own, which the kernel stops by SIGTTOU
	# (fs/... tty_check_change()).  Before, sysward stopped itself with
	# it while cat ran on: the job never stopped nor ended, no prompt.
	# Now sysward, whose job holds the terminal, gives it to the
	# program's group.  Unconfined, embedded and through syswardd: stty
	# succeeds and the shell comes back.
	: "${SYSWARDD:?}"
	start_syswardd
	for how in unconfined embedded daemon; do
		rm -f "$scratch/rc" "$scratch/stty"
		tmux_start || skip "no tmux"
		tmux_type "$(confined_as "$how") sh -c 'stty -echo; echo \$? >$scratch/stty; stty echo' | cat; echo \"rc=\$?\" >'$scratch/rc'"
		wait_for "[ -s '$scratch/rc' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the pipeline did not end (hung)"; continue; }
		tmux_stop
		echo "+ $how: $(cat "$scratch/rc"), stty's status $(cat "$scratch/stty" 2>/dev/null)"
		grep -qx 'rc=0' "$scratch/rc" || fail "$how: expected \$? 0, got $(cat "$scratch/rc")"
		grep -qx 0 "$scratch/stty" || fail "$how: stty -echo failed"
	done ;;
# tags: needs-tmux
terminal_stop_cont_outside)
	# SIGTSTP and then SIGCONT, both sent to the program's pid from
	# outside its job (a process monitor, a second terminal) while it
	# runs in the foreground of an interactive shell: unconfined it
	# finishes.  Before, sysward stopped itself with the program, took
	# the terminal back, and nothing continued it: the continued program
	# waited for its supervisor forever.  Now a stop from outside the
	# job is the pid's, as a SIGSTOP is (docs/security.md, route 11b):
	# the shell does not see it (unconfined it says "Stopped"), and
	# whoever continues the pid continues the program.
	: "${SYSWARDD:?}"
	start_syswardd
	for how in unconfined embedded daemon; do
		rm -f "$scratch/pid" "$scratch/done" "$scratch/rc"
		tmux_start || skip "no tmux"
		tmux_type "$(confined_as "$how") sh -c 'echo \$\$ >$scratch/pid; sleep 1; echo finished >$scratch/done'; echo \"rc=\$?\" >>'$scratch/rc'"
		wait_for "[ -s '$scratch/pid' ]" || { tmux_stop; fail "$how: the program did not start"; continue; }
		pid=$(cat "$scratch/pid")
		kill -TSTP "$pid"
		wait_for "[ \"\$(awk '{print \$3}' /proc/$pid/stat)\" = T ] || [ \"\$(awk '{print \$3}' /proc/$pid/stat)\" = t ]" ||
			{ tmux_stop; fail "$how: SIGTSTP did not stop the program"; continue; }
		sleep 0.5
		kill -CONT "$pid"
		wait_for "[ -s '$scratch/done' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the continued program did not finish"; continue; }
		wait_for "[ -s '$scratch/rc' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the shell did not come back"; continue; }
		tmux_stop
		echo "+ $how: the program finished; the shell: $(tr '\n' ' ' <"$scratch/rc")"
	done ;;
# tags: needs-tmux
terminal_daemon_pty_contained)
	# Route 11c: a program given a terminal of its own through syswardd
	# (sysward run -t) looks for its client's terminal among its
	# descriptors (the client's fd 3 is that terminal here: 3<&0) and
	# for a terminal's master (its own, or /dev/ptmx's); /dev/tty must
	# be its own terminal.  Before, the client handed every descriptor
	# without close-on-exec over, a terminal at 3 too.
	: "${SYSWARDD:?}"
	start_syswardd
	tmux_start || skip "no tmux"
	tmux_type "'$SYSWARD' run -t --daemon='$scratch/sock' --policy '$POL/emulate-uid.json' -- '$ADV/adv_pty' attack \"\$(stat -L -c %d:%i /dev/stdin)\" 3<&0 >'$out' 2>&1; echo \"rc=\$?\" >'$scratch/rc'"
	wait_for "[ -s '$scratch/rc' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "the run did not end"; }
	tmux_stop
	tr -d '\r' <"$out" >"$out.lf" && mv "$out.lf" "$out"
	cat "$out"; cat "$scratch/rc"
	grep -q '^fact: tty /dev/pts/[0-9]*$' "$out" || fail "no terminal of its own (tty has no name)"
	grep -qx 'fact: foreground yes' "$out" || fail "the program is not its terminal's foreground"
	grep -qx 'rc=0' "$scratch/rc" && grep -qx 'verdict: contained' "$out" ||
		fail "the program reached its client's terminal or a master" ;;
# tags: needs-tmux needs-python
terminal_daemon_pty)
	# At a terminal through syswardd the program has a terminal of its
	# own, as unconfined and embedded it has the shell's: a name (tty),
	# the window's size (stty size) and its change (SIGWINCH), raw mode
	# and a key read in it (a full-screen program: python's tty.setraw),
	# and its exit status.  Side by side: unconfined, embedded, daemon.
	: "${SYSWARDD:?}"
	py=$(command -v python3) || skip "no python3"
	start_syswardd
	for how in unconfined embedded daemon; do
		rm -f "$scratch"/r.*
		tmux_start || skip "no tmux"
		tmux_type "$(confined_as "$how") sh -c 'tty >$scratch/r.tty; stty size >$scratch/r.size; trap \"stty size >$scratch/r.winch\" WINCH; echo \$\$ >$scratch/r.pid; while [ ! -s $scratch/r.winch ]; do sleep 0.1; done; $py -c \"import sys, tty, termios; old = termios.tcgetattr(0); tty.setraw(0); open(\\\"$scratch/r.ready\\\", \\\"w\\\").close(); c = sys.stdin.read(1); termios.tcsetattr(0, termios.TCSADRAIN, old); open(\\\"$scratch/r.key\\\", \\\"w\\\").write(str(ord(c)))\"; exit 3'; echo \"rc=\$?\" >'$scratch/r.rc'"
		wait_for "[ -s '$scratch/r.pid' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the program did not start"; continue; }
		tmux resize-window -t "$tmux_t" -x 100 -y 25
		wait_for "[ -e '$scratch/r.ready' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: no SIGWINCH, or raw mode failed"; continue; }
		sleep 0.2
		tmux send-keys -t "$tmux_t" q
		wait_for "[ -s '$scratch/r.rc' ]" || { tmux capture-pane -p -t "$tmux_t"; tmux_stop; fail "$how: the shell did not come back"; continue; }
		tmux_stop
		echo "+ $how: tty $(cat "$scratch/r.tty"), size $(cat "$scratch/r.size"), after the resize $(cat "$scratch/r.winch"), key $(cat "$scratch/r.key" 2>/dev/null), $(cat "$scratch/r.rc")"
		grep -qx '/dev/pts/[0-9]*' "$scratch/r.tty" || fail "$how: tty: $(cat "$scratch/r.tty")"
		grep -qx '30 120' "$scratch/r.size" || fail "$how: stty size $(cat "$scratch/r.size"), the window is 30 120"
		grep -qx '25 100' "$scratch/r.winch" || fail "$how: after the resize stty size says $(cat "$scratch/r.winch")"
		grep -qx 113 "$scratch/r.key" 2>/dev/null || fail "$how: the key read in raw mode is not q (113)"
		grep -qx 'rc=3' "$scratch/r.rc" || fail "$how: expected \$? 3, got $(cat "$scratch/r.rc")"
	done ;;
# tags: needs-python
terminal_daemon_pty_bytes)
	# What a program shows at its terminal, byte for byte, is what it
	# shows unconfined: through syswardd (-t) as embedded, 1.4 MB of it
	# too (seq: the relay's buffers filled many times over).  Each side
	# runs on a fresh pty (tests/lib/ptyrun.py) where ^D is typed as it
	# starts, as script(1) types it when its input ends: unconfined, cat
	# reads that end; before, the client's terminal, set raw after the
	# ^D, turned it into a NUL byte (n_tty_set_termios()), which the
	# program's terminal echoed as "^@" and cat read and waited on.
	: "${SYSWARDD:?}"
	py=$(command -v python3) || skip "no python3"
	start_syswardd
	prog="printf 'tab\there\n'; seq 200000; cat; echo \"cat \$?\"; stty size; exit 3"
	for how in unconfined embedded daemon; do
		case $how in
		unconfined) side=() ;;
		embedded) side=("$SYSWARD" run --policy "$POL/emulate-uid.json" --) ;;
		daemon) side=("$SYSWARD" run -t --daemon="$scratch/sock" --policy "$POL/emulate-uid.json" --) ;;
		esac
		"$py" "$(dirname "$0")/../lib/ptyrun.py" -e -s 30x120 -t 20 -o "$scratch/bytes.$how" -- \
			"${side[@]}" sh -c "$prog"
		rc=$?
		echo "+ $how: exit $rc, $(wc -c <"$scratch/bytes.$how") bytes: $(head -c 16 "$scratch/bytes.$how" | od -An -c | tr -s ' ' | tr -d '\n') ... $(tail -c 20 "$scratch/bytes.$how" | od -An -c | tr -s ' ' | tr -d '\n')"
		[ "$rc" -eq 3 ] || fail "$how: the program's exit status is $rc, expected 3 (124: it never saw its input's end)"
		[ "$how" = unconfined ] && continue
		cmp "$scratch/bytes.unconfined" "$scratch/bytes.$how" ||
			fail "$how: its terminal showed other bytes than unconfined"
	done ;;
terminal_daemon_pty_flood)
	# A program that floods its terminal while its client does not read
	# it (stopped), and one that never reads what its client sends:
	# neither delays another session, nor the daemon's shutdown (the
	# daemon never reads or writes a terminal: the client holds the
	# master).
	: "${SYSWARDD:?}"
	start_syswardd
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	"$SYSWARD" run -t --daemon="$scratch/sock" --policy "$scratch/allow.json" -- sh -c "echo \$\$ >$scratch/flood.pid; exec yes" </dev/null >/dev/null 2>&1 &
	flooder=$!
	yes | "$SYSWARD" run -t --daemon="$scratch/sock" --policy "$scratch/allow.json" -- sh -c "echo \$\$ >$scratch/deaf.pid; exec sleep 60" >/dev/null 2>&1 &
	wait_for "[ -s '$scratch/flood.pid' ] && [ -s '$scratch/deaf.pid' ]" || fail "the two programs did not start"
	kill -STOP "$flooder"
	sleep 1
	echo "+ yes (pid $(cat "$scratch/flood.pid")): $(awk '{print "state", $3}' /proc/$(cat "$scratch/flood.pid")/stat), blocked on its full terminal; its client stopped"
	start=$(date +%s%N)
	got=$(timeout 10 "$SYSWARD" run --daemon="$scratch/sock" --policy "$scratch/allow.json" -- echo another-session </dev/null 2>&1)
	echo "+ another session: '$got' in $(( ($(date +%s%N) - start) / 1000000 )) ms"
	[ "$got" = another-session ] || fail "another session did not run: $got"
	start=$(date +%s%N)
	kill -TERM "$dpid"
	wait_for "! kill -0 $dpid" || fail "syswardd did not shut down within 10 s"
	echo "+ syswardd shut down in $(( ($(date +%s%N) - start) / 1000000 )) ms"
	kill -CONT "$flooder"
	wait_for "! kill -0 $(cat "$scratch/flood.pid") && ! kill -0 $(cat "$scratch/deaf.pid")" ||
		fail "a program outlived the daemon" ;;
privs_setuid)
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a setuid-root binary"
	# Everything nobody needs must be reachable by nobody: a private copy,
	# on a file system that honours setuid bits (a container's /tmp is
	# often a nosuid tmpfs; /var/tmp then usually is not).
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	d=
	trap 'rm -rf "$d"' EXIT
	for base in "${TMPDIR:-/tmp}" /var/tmp; do
		d=$(mktemp -d "$base/sysward-setuid.XXXXXX") || continue
		chmod 755 "$d"
		cp "$ADV/adv_privs" "$d/suid-privs" && chmod 4755 "$d/suid-privs"
		cp "$SYSWARD" "$d/sysward" && chmod 755 "$d/sysward"
		cp "$POL/emulate-uid.json" "$d/policy.json" && chmod 644 "$d/policy.json"
		echo "+ control, unconfined as nobody: $d/suid-privs"
		as_nobody "$d/suid-privs" | tee "$out"
		grep -qx 'fact: euid 0' "$out" && break
		echo "+ setuid bit not honoured in $base (nosuid mount?)"
		rm -rf "$d"
		d=
	done
	[ -n "$d" ] || skip "setuid bits are honoured neither in ${TMPDIR:-/tmp} nor in /var/tmp: cannot test"
	echo "+ as nobody: sysward run -- $d/suid-privs"
	as_nobody "$d/sysward" run --policy "$d/policy.json" -- "$d/suid-privs" >"$out" 2>&1 </dev/null
	rc=$?; cat "$out"; echo "+ exit status $rc"
	[ "$rc" -eq 0 ] || fail "sysward as nobody failed (exit $rc)"
	grep -qx 'fact: euid 65534' "$out" || fail "the setuid-root binary gained privilege inside the sandbox"
	grep -qx 'fact: CapEff 0000000000000000' "$out" || fail "the setuid-root binary gained capabilities" ;;
cap_warning)
	# --cap with a capability that defeats confinement: a warning naming
	# it and why, one line per capability; harmless ones draw none; the
	# program still runs.
	run "$POL/emulate-uid.json" --cap CAP_SYS_PTRACE,net_bind_service,bpf -- "$ADV/adv_privs"
	grep -qxF "sysward: warning: --cap CAP_SYS_PTRACE defeats confinement: the program can write the supervisor's memory through /proc/PID/mem and take it over (ptrace itself stays denied, which is no boundary)" "$out" ||
		fail "no warning for --cap CAP_SYS_PTRACE"
	grep -qx "sysward: warning: --cap CAP_BPF defeats confinement: the program can load BPF programs into the kernel; .*" "$out" ||
		fail "no warning for --cap CAP_BPF"
	[ "$(grep -c 'defeats confinement' "$out")" -eq 2 ] || fail "expected exactly 2 capability warnings"
	[ "$(id -u)" -ne 0 ] || [ "$rc" -eq 0 ] || fail "the program did not run after the warnings (exit $rc)"
	run "$POL/emulate-uid.json" --cap CAP_NET_BIND_SERVICE -- "$ADV/adv_privs"
	grep -q 'defeats confinement' "$out" && fail "a warning for CAP_NET_BIND_SERVICE, which does not defeat confinement"
	run "$POL/emulate-uid.json" -- "$ADV/adv_privs"
	grep -q '^sysward: warning' "$out" && fail "a warning without --cap"
	true ;;
null_path_fd_calls)
	d=$GEN/nullpath
	mkdir -p "$d" && echo allowed >"$d/file-A"
	cat >"$scratch/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["utimensat", "futimesat", "newfstatat", "statx"],
	   "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "/"}]}]}
	EOF
	run "$scratch/policy.json" -- "$ADV/adv_unreadable" nullpaths "$d"
	expect_contained "NULL paths were not treated as the kernel treats them"
	if touch --version 2>/dev/null | grep -q coreutils; then
		# GNU touch FILE: open, then futimens = utimensat(fd, NULL,
		# ...) (busybox's names the path, which this policy denies).
		run "$scratch/policy.json" -- touch "$d/file-A"
		[ "$rc" -eq 0 ] || fail "touch FILE failed under a utimensat path rule"
	fi ;;
own_filter_forged_created)
	# Route 8: the kernel runs the filters again after a TRACE stop, with
	# the arguments the supervisor set: an ERRNO(0) of the program's own
	# for shmget with IPC_EXCL (which route 20 adds, so that a get only
	# creates) makes the call return 0 unrun, and the session would own
	# id 0.  In an IPC namespace of its own, whose first segment (id 0)
	# is the witness's: uid 65534's, outside the sandbox.
	[ -e /proc/sysvipc/shm ] || skip "this kernel has no System V IPC"
	if [ -z "${SW_CHECK_IPCNS:-}" ]; then
		[ "$(id -u)" = 0 ] || skip "needs root for an IPC namespace of its own"
		SW_CHECK_IPCNS=1 exec unshare --ipc "$0" "$test"
	fi
	stage_nobody adv_own_filter
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json"
	chmod 644 "$nb/allow.json"
	mkdir -m 777 "$nb/w"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_own_filter" shm-witness "$nb/w/shm" </dev/null &
	witness=$!
	trap 'kill "$witness" 2>/dev/null; rm -rf "$nb"' EXIT
	for _ in $(seq 100); do [ -e "$nb/w/shm" ] && break; sleep 0.05; done
	[ "$(cat "$nb/w/shm" 2>/dev/null)" = 0 ] || skip "the witness's segment is not id 0"
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_own_filter" forged-created
	kill -TERM "$witness"; wait "$witness"
	echo "+ witness: $(cat "$nb/w/shm.check" 2>/dev/null)"
	[ "$(cat "$nb/w/shm.check" 2>/dev/null)" = intact ] || fail "the witness's segment was changed"
	expect_contained "a forged result made another process's segment the session's" ;;
own_filter_forged_mq)
	# The same for mq_open(name, O_CREAT), which route 20 makes O_EXCL:
	# the witness's queue opened for reading through an mqueue mount
	# (route 20's limit: reads are not checked), at descriptor 0, and
	# mq_open with O_EXCL answered 0 by the program's own filter, so
	# the session would own the queue the descriptor holds; then opened
	# by name for writing, sent to, removed.  In IPC and mount
	# namespaces of its own (a fresh mqueue instance, mounted there).
	[ -d /proc/sys/fs/mqueue ] || skip "this kernel has no POSIX message queues"
	if [ -z "${SW_CHECK_IPCNS:-}" ]; then
		[ "$(id -u)" = 0 ] || skip "needs root for IPC and mount namespaces of its own"
		SW_CHECK_IPCNS=1 exec unshare --ipc --mount --propagation private "$0" "$test"
	fi
	stage_nobody adv_own_filter
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json"
	chmod 644 "$nb/allow.json"
	mkdir -m 777 "$nb/w"
	mkdir -m 755 "$nb/mq" && mount -t mqueue mqueue "$nb/mq" || skip "cannot mount an mqueue file system"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_own_filter" mq-witness "$nb/w/mq" </dev/null &
	witness=$!
	trap 'kill "$witness" 2>/dev/null; umount "$nb/mq"; rm -rf "$nb"' EXIT
	for _ in $(seq 100); do [ -e "$nb/w/mq" ] && break; sleep 0.05; done
	[ -e "$nb/w/mq" ] || fail "the witness did not make its queue"
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_own_filter" forged-mq "$nb/mq"
	kill -TERM "$witness"; wait "$witness"
	echo "+ witness: $(cat "$nb/w/mq.check" 2>/dev/null)"
	[ "$(cat "$nb/w/mq.check" 2>/dev/null)" = intact ] || fail "the witness's queue was changed or removed"
	expect_contained "a forged result made another process's queue the session's" ;;
notif_storm)
	# Threads of two processes call the emulated getuid while signalled
	# with a handler without SA_RESTART: never the real uid, ENOSYS or
	# EINTR; the same with the listener writing the log, and at ptrace
	# stops (--report) beside it.  Logged, each answered call has one
	# line: a caller interrupted before its answer restarts and is
	# logged once, at its next notification.
	run "$POL/emulate-uid.json" -- "$ADV/adv_notif" storm 4
	expect_contained "an emulated call under signals"
	run "$POL/emulate-uid.json" --log "$scratch/audit.log" -- "$ADV/adv_notif" storm 4
	expect_contained "an emulated call under signals (logged by the listener)"
	calls=$(sed -n 's/^result: \([0-9]*\) getuid calls.*/\1/p' "$out" | awk '{ n += $1; k++ } END { if (k == 2) print n }')
	lines=$(grep -c '"syscall":"getuid"' "$scratch/audit.log")
	echo "+ $calls getuid calls (both processes), $lines lines"
	[ -n "$calls" ] && [ "$lines" -eq "$calls" ] || fail "$lines lines for $calls calls"
	run "$POL/emulate-uid.json" --report /dev/null -- "$ADV/adv_notif" storm 4
	expect_contained "an emulated call under signals (ptrace only)" ;;
notif_log_race)
	# A logged skip the listener answers (policies/notif-log.json:
	# mkdir skipped EROFS, "log") while another thread rewrites its path
	# and the callers are signalled: the listener reads the path for
	# the line alone, so every call is still refused and nothing made
	# (the string decides nothing), and each answered call has one whole
	# line (the read may catch the string torn, as a stop's may).
	mkdir -p "$scratch/d"
	run "$POL/notif-log.json" --log "$scratch/audit.log" -- "$ADV/adv_notif" race "$scratch/d" 4
	expect_contained "a logged skip under a rewritten path"
	calls=$(sed -n 's/^result: \([0-9]*\) mkdir calls.*/\1/p' "$out")
	lines=$(grep -c '"syscall":"mkdir"' "$scratch/audit.log")
	echo "+ $calls mkdir calls, $lines lines"
	[ -n "$calls" ] && [ "$lines" -eq "$calls" ] || fail "$lines lines for $calls calls"
	! grep '"syscall":"mkdir"' "$scratch/audit.log" |
		grep -v '^{"time":.*"rule_path":"syscalls\[0\]".*,"verdict":"return","return":-30}$' ||
		fail "a mkdir line cut short, or another's"
	# Control: the same at ptrace stops (--report), beside it.
	run "$POL/notif-log.json" --log "$scratch/audit2.log" --report /dev/null -- "$ADV/adv_notif" race "$scratch/d" 4
	expect_contained "a logged skip under a rewritten path (ptrace only)" ;;
notif_log_exits)
	# Callers gone before the listener reads their path for the log
	# (or answers them): 200 fork children whose two threads call a
	# logged skip end by exit_group after 0-2 ms.  The read fails, or
	# the answer finds the call gone (SEND: ENOENT): no line is written
	# for it, none from another process's memory, the listener goes on,
	# and every child ends normally; its mkdir lines are whole, each
	# with its caller's path.
	mkdir -p "$scratch/d"
	run "$POL/notif-log.json" --log "$scratch/audit.log" -- "$ADV/adv_notif" exits "$scratch/d"
	expect_contained "a logged call whose caller ends"
	! grep '"syscall":"mkdir"' "$scratch/audit.log" |
		grep -v '^{"time":.*"strings":{"arg0":"'"$scratch"'/d/a"}.*,"verdict":"return","return":-30}$' ||
		fail "a mkdir line cut short, or with another path" ;;
complain_report_bounded)
	# Route 18: the record is made of the program's calls.  5,000
	# distinct refused numbers, 50 processes of 100 more each, 200
	# distinct programs executed: the report keeps at most its limits
	# (1024 calls, 128 programs), counts the rest, and stays small.
	complain r
	run "$POL/unknown-errno1.json" -- "$ADV/adv_flood" numbers 5000
	expect_contained "the flood of numbers did not complete under complain mode"
	complain f
	run "$POL/unknown-errno1.json" -- "$ADV/adv_flood" forks 50 100
	expect_contained "the forks did not complete under complain mode"
	mkdir -p "$scratch/links"
	for i in $(seq 200); do ln "$ADV/adv_flood" "$scratch/links/l$i" 2>/dev/null ||
		cp "$ADV/adv_flood" "$scratch/links/l$i"; done
	complain c
	run "$POL/unknown-errno1.json" -- "$ADV/adv_flood" chain "$scratch/links" 200
	expect_contained "the exec chain did not complete under complain mode"
	python3 - "$scratch" <<-'EOF' || fail "a report grew with the program's calls"
	import json, os, sys
	d = sys.argv[1]
	for name, calls in (("r", 5000), ("f", 5000), ("c", 200)):
	    path = os.path.join(d, name + ".json")
	    r = json.load(open(path))
	    size = os.path.getsize(path)
	    items = len(r["calls"])
	    print(f"{name}: {size} bytes, {items} items, {r['calls_not_itemised']} not itemised, "
	          f"{len(r['programs'])} programs, {r['execs_not_itemised']} execs not itemised, "
	          f"would_refuse {r['totals']['would_refuse']}, tasks {r['tasks']}")
	    assert items <= 1024 and len(r["programs"]) <= 128, name
	    assert r["totals"]["would_refuse"] >= calls, name
	    assert sum(c["count"] for c in r["calls"]) + r["calls_not_itemised"] == \
	        sum(r["totals"].values()), name
	    assert size < 1024 * 1024, (name, size)
	    for c in r["calls"]:
	        assert len(c.get("samples", [])) <= 4, c
	r = json.load(open(os.path.join(d, "r.json")))
	assert r["calls_not_itemised"] >= 5000 - 1024
	f = json.load(open(os.path.join(d, "f.json")))
	assert f["tasks"] == 51, f["tasks"]
	c = json.load(open(os.path.join(d, "c.json")))
	assert len(c["programs"]) == 128 and c["execs_not_itemised"] >= 200 + 1 - 128, \
	    (len(c["programs"]), c["execs_not_itemised"])
	EOF
	;;
objects_holder_killed)
	# Route 20: the refused open's caller killed (SIGKILL, by its
	# parent's PR_SET_PDEATHSIG: no stop of the session's) between the
	# kernel installing the descriptor and the supervisor closing it,
	# while another process of the session shares its table
	# (CLONE_FILES) and is held; then that process writes "1000"
	# through the descriptor.  Up to 100 attempts as uid 65534.
	objects_stage adv_objwrite
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_objwrite" holder-killed "$witness" 100
	objects_witness_intact
	! grep -q '^verdict: ESCAPED' "$out" ||
		fail "a descriptor outlived its check in a table another process shares"
	if grep -q '^verdict: contained' "$out"; then
		skip "no attempt killed the caller while its descriptor was checked (the race was not won)"
	fi
	[ "$rc" -eq 137 ] && grep -q '^sysward: pid [0-9]* died while its descriptor was being checked, in a table another process of the session shares; killing the session$' "$out" ||
		fail "the session was not killed with the reason (exit $rc)" ;;
objects_own_writes)
	# Control: what the program writes of its own works as unconfined:
	# its oom_score_adj, a child's, a thread's comm, the uid_map of a
	# user namespace it made (unshare -Ur), /proc/self of a procfs it
	# mounted in pid and user namespaces of its own, a FIFO opened for
	# writing by one thread before another opens it for reading (held
	# threads would never read), a file of its own.  As uid 65534; and
	# as root (its own /proc), where it must see what a root process
	# without capabilities sees unconfined (which may not map uid 0 in a
	# user namespace: CAP_SETFCAP, Linux 5.12).
	objects_stage adv_objwrite
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_objwrite" control "$nb/w"
	[ "$rc" -eq 0 ] && grep -qx 'control: all worked' "$out" ||
		fail "as uid 65534, the program could not write what is its own (exit $rc)"
	[ "$(id -u)" = 0 ] || exit 0
	mkdir -p "$scratch/w"
	echo "+ (root, no capability, unconfined) adv_objwrite control"
	setpriv --inh-caps=-all --bounding-set=-all --no-new-privs \
		"$ADV/adv_objwrite" control "$scratch/w" >"$scratch/plain" 2>&1 </dev/null
	cat "$scratch/plain"
	run "$nb/allow.json" -- "$ADV/adv_objwrite" control "$scratch/w"
	cmp -s "$scratch/plain" "$out" ||
		fail "as root, the program's own writes differ from a root process's without capabilities" ;;
objects_ipc_own)
	# Control: the program's own objects work as unconfined (a key made,
	# got again, IPC_EXCL, a child's get and attach, semaphores, messages,
	# a queue made, opened again and removed, IPC_INFO), as uid 65534 and
	# as root.
	[ -e /proc/sysvipc/shm ] && [ -d /proc/sys/fs/mqueue ] ||
		skip "this kernel has no System V IPC or no POSIX message queues"
	objects_stage adv_ipc
	echo "+ (uid 65534, unconfined) adv_ipc control"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_ipc" control >"$scratch/plain" 2>&1 </dev/null
	cat "$scratch/plain"
	grep -qx 'control: all worked' "$scratch/plain" || skip "the calls do not work here unconfined"
	objects_own adv_ipc "the program's own IPC objects" ;;
objects_userns)
	# Route 20, namespaces of the uid: a process of uid 65534 outside the
	# sandbox with user, mount and network namespaces of its own (as a
	# rootless container's); the uid owns that user namespace, so the
	# kernel lets any process of the uid join it, and from there its
	# mount namespace.  A handle on them by pidfd_open, pidfs file
	# handles of nearby ids, PIDFD_GET_USER_NAMESPACE, /proc/PID/ns,
	# nsfs file handles (none on 6.18): refused, by signals.c and the
	# session's Landlock domain (ptrace_may_access in validate_nsset,
	# pidfd_ioctl and /proc/PID/ns).
	objects_stage adv_userns
	kill "$witness"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_userns" witness "$nb/w" </dev/null >/dev/null 2>&1 &
	witness=$!
	wait_for "[ -s '$nb/w/userns.info' ]" || skip "no user namespace of its own for the witness here"
	echo "+ (uid 65534, unconfined) adv_userns attack"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/adv_userns" attack "$nb/w" </dev/null 2>&1 | grep -v '^tried'
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_userns" attack "$nb/w"
	expect_contained "a namespace of a process outside the sandbox was entered" ;;
# tags: sweep
containment_examples)
	# The session's authority (docs/security.md, the table) under every
	# bundled example policy, not allow-all alone: as uid 65534, the
	# ptrace-mode accesses to its parent (route 16), a same-uid service's
	# unix socket (19), another process's /proc files, sysctls and
	# cgroup files (20), its System V IPC and message queues (20) and the
	# uid's keyring (20), each case run again with the example in place
	# of its allow-all policy.  A case an example keeps from even trying
	# (no socket() under deny-network) is contained too.
	[ "$(id -u)" = 0 ] || skip "needs root (uid 65534 runs the cases)"
	bad=0 n=0
	for ex in "$POL"/../../../policy/examples/*.json; do
		for c in reach_parent peers_stream_nobody objects_proc_writes objects_ipc objects_keys; do
			n=$((n + 1))
			SW_CHECK_EXAMPLE=$(cd "$(dirname "$ex")" && pwd)/$(basename "$ex") \
				"$0" "$c" >"$scratch/$c.out" 2>&1
			r=$?
			case $r in
			0) echo "$(basename "$ex") $c: contained" ;;
			77) echo "$(basename "$ex") $c: skipped ($(grep '^SKIP' "$scratch/$c.out" | tail -1))" ;;
			*) echo "$(basename "$ex") $c: FAILED ($r)"; tail -15 "$scratch/$c.out"; bad=$((bad + 1)) ;;
			esac
		done
	done
	echo "$n cases, $bad not contained"
	[ "$bad" -eq 0 ] || fail "$bad cases escaped under a bundled example" ;;
reach_outside_root)
	# As root: a root process outside without capabilities (another
	# session's program, a service that dropped them); one with
	# capabilities is out of reach anyway (commoncap: the caller's
	# permitted set must cover the target's).
	[ "$(id -u)" = 0 ] || skip "needs root"
	command -v setpriv >/dev/null || skip "setpriv(1) is missing"
	d=$scratch/d
	mkdir -p "$d" && echo denied >"$d/file-D"
	SW_REACH_SECRET=witness-env-secret setpriv --inh-caps=-all --bounding-set=-all \
		"$ADV/adv_reach" witness "$d" </dev/null >/dev/null 2>&1 &
	wit=$!
	trap 'kill "$wit" 2>/dev/null' EXIT
	wait_for "[ -s '$d/wit.info' ]" || fail "the witness did not start"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	run "$scratch/allow.json" -- "$ADV/adv_reach" attack "$d"
	expect_contained "a root process outside the sandbox was reached" ;;
reach_other_session)
	# Another sysward session of the same uid (uid 65534): each session
	# is a domain of its own, so neither reaches the other.
	stage_reach
	(cd / && SW_REACH_SECRET=witness-env-secret setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/sysward" run --policy "$nb/allow.json" -- "$nb/adv_reach" witness "$nb/d") </dev/null >/dev/null 2>&1 &
	wit=$!
	trap 'kill "$wit" 2>/dev/null; rm -rf "$nb"' EXIT
	wait_for "[ -s '$nb/d/wit.info' ]" || fail "the witness session did not start"
	run_nobody --policy "$nb/allow.json" -- "$nb/adv_reach" attack "$nb/d"
	expect_contained "a program reached another session of its uid" ;;
peers_grant_tricks)
	# A rule granting $sd/granted.sock (and the prefix $sd/granted.d/):
	# the service bound there is reached; a symlink at the granted name,
	# the outsider's socket renamed onto it, a relative path, a path
	# through a directory descriptor, ".." after the granted prefix do
	# not borrow the grant (the peer's bound name is checked).
	peers_serve nobody serve
	cat >"$nb/grant.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["connect"], "action": "SCMP_ACT_ALLOW",
	   "paths": [{"index": 1, "exact": "$sd/granted.sock"}]},
	  {"names": ["connect"], "action": "SCMP_ACT_ALLOW",
	   "paths": [{"index": 1, "prefix": "$sd/granted.d/"}]}]}
	EOF
	chmod 644 "$nb/grant.json"
	run_nobody --policy "$nb/grant.json" -- "$ap" tricks "$sd"
	expect_contained "a trick borrowed the grant"
	grep -q '^result: granted: REACHED' "$out" && peers_reached granted ||
		fail "the granted service was not reached"
	peers_expect_none stream ;;
peers_dgram)
	# Datagrams: where one goes is looked up again at every send, and no
	# check can pin it on these kernels (route 19, "Limits"): by default
	# it reaches the service (asserted, so that a change shows); a rule
	# refusing sendto by address refuses it, pinned (route 6).
	peers_serve nobody serve
	run_nobody --policy "$allow" -- "$ap" connect "$sd" dgram
	peers_reached dgram || fail "the documented limit changed: the datagram did not arrive"
	rm -f "$sd/reached.dgram"
	cat >"$nb/dgram.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["sendto"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 4, "prefix": "$sd/"}]},
	  {"names": ["sendmsg"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "$sd/"}]}]}
	EOF
	chmod 644 "$nb/dgram.json"
	run_nobody --policy "$nb/dgram.json" -- "$ap" connect "$sd" dgram
	expect_contained "a rule refusing the address did not hold"
	grep -q '^result: dgram: sendto = -1 EACCES' "$out" || fail "sendto: not the rule's EACCES"
	peers_expect_none dgram ;;
peers_tmux)
	# The user's tmux server (uid 65534, outside) runs a command for
	# whoever connects: run-shell read the file the policy denies.
	command -v tmux >/dev/null || skip "no tmux (scripts/install-deps installs it; the QEMU guest has none)"
	stage_nobody adv_peers
	echo secret >"$nb/d/file-D" && chown 65534 "$nb/d" "$nb/d/file-D" && chmod 600 "$nb/d/file-D"
	# (SHELL: uid 65534's own is nologin, with which tmux runs nothing.)
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups env -i PATH="$PATH" SHELL=/bin/sh \
		tmux -S "$nb/d/tmux.sock" new-session -d -s peers 'sleep 120') || fail "tmux did not start"
	trap 'setpriv --reuid 65534 --regid 65534 --clear-groups tmux -S "$nb/d/tmux.sock" kill-server 2>/dev/null; rm -rf "$nb"' EXIT
	run_nobody --policy "$nb/policy.json" -- tmux -S "$nb/d/tmux.sock" run-shell "cat $nb/d/file-D >$nb/d/out; id -u >>$nb/d/out"
	sleep 0.5
	[ -e "$nb/d/out" ] && fail "the tmux server outside ran the command: $(cat "$nb/d/out")"
	grep -q "error connecting to $nb/d/tmux.sock (Permission denied)" "$out" ||
		fail "tmux did not say that its connect was refused"
	setpriv --reuid 65534 --regid 65534 --clear-groups tmux -S "$nb/d/tmux.sock" has-session -t peers ||
		fail "the user's tmux server is gone (its socket unlinked?)" ;;
peers_ssh_agent)
	# The user's ssh-agent (uid 65534, outside): ssh-add -l is refused;
	# with a rule granting its socket it is not.
	command -v ssh-agent >/dev/null && command -v ssh-add >/dev/null ||
		skip "no ssh-agent/ssh-add (scripts/install-deps installs openssh-client; the QEMU guest has none)"
	stage_nobody adv_peers
	chown 65534 "$nb/d"
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups ssh-agent -a "$nb/d/agent.sock") >"$nb/agent.env" ||
		fail "ssh-agent did not start"
	agent=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$nb/agent.env")
	trap 'kill "$agent" 2>/dev/null; rm -rf "$nb"' EXIT
	cat >"$nb/agent.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["connect"], "action": "SCMP_ACT_ALLOW",
	   "paths": [{"index": 1, "exact": "$nb/d/agent.sock"}]}]}
	EOF
	chmod 644 "$nb/agent.json"
	SSH_AUTH_SOCK=$nb/d/agent.sock run_nobody --policy "$nb/policy.json" -- ssh-add -l
	[ "$rc" -eq 2 ] && grep -q 'Error connecting to agent: Permission denied' "$out" ||
		fail "ssh-add reached the agent outside (exit $rc)"
	SSH_AUTH_SOCK=$nb/d/agent.sock run_nobody --policy "$nb/agent.json" -- ssh-add -l
	[ "$rc" -eq 1 ] && grep -q 'The agent has no identities' "$out" ||
		fail "with a grant, ssh-add did not reach the agent (exit $rc)" ;;
pretend_env_ignored)
	# Issue 32: the shipped binaries read no test knob from their
	# environment, which is not always their operator's (a container's
	# process.env is its process 1's, sysward-runtime's sysward).  The
	# names the engine once honoured, SYSWARD_PRETEND_LANDLOCK_ABI=5 and
	# SYSWARD_PRETEND_NO_SET_SYSCALL_INFO=1, set for sysward and for
	# syswardd: the abstract socket scope holds (reach_parent's witness
	# attacked from sysward's program, embedded and through the daemon),
	# a supervisor policy runs, and "sysward info" shows this kernel.
	: "${SYSWARDD:?}"
	stage_reach
	cp "$SYSWARDD" "$nb/syswardd" || fail "staging"
	env -u SYSWARD_PRETEND_LANDLOCK_ABI -u SYSWARD_PRETEND_NO_SET_SYSCALL_INFO \
		"$SYSWARD" info >"$scratch/info.real" 2>&1
	export SYSWARD_PRETEND_LANDLOCK_ABI=5 SYSWARD_PRETEND_NO_SET_SYSCALL_INFO=1
	"$SYSWARD" info >"$out" 2>&1
	cat "$out"
	grep -q '^PTRACE_SET_SYSCALL_INFO:  yes' "$scratch/info.real" &&
		grep -q '^Landlock: *ABI \([6-9]\|[1-9][0-9]\)$' "$scratch/info.real" ||
		skip "this kernel has no PTRACE_SET_SYSCALL_INFO or Landlock ABI 6: $(grep -E '^(PTRACE_SET|Landlock)' "$scratch/info.real" | tr '\n' ' ')"
	diff -u "$scratch/info.real" "$out" || fail "sysward info changes with the variables"
	run "$POL/emulate-uid.json" -- sh -c 'id -ru'
	[ "$rc" -eq 0 ] && grep -qx 4242 "$out" || fail "a supervisor policy did not run (exit $rc)"
	reach_from_parent "$nb/allow.json"
	expect_contained "embedded, with the variables set, a process outside the sandbox was reached"
	# syswardd, the variables in its own environment (and the client's).
	setsid "$nb/syswardd" --socket "$nb/sock" --socket-mode 0666 2>"$scratch/daemon.log" &
	dpid=$!
	trap 'kill "$dpid" 2>/dev/null; rm -rf "$nb"' EXIT
	wait_for "[ -S '$nb/sock' ]" || fail "syswardd did not start: $(cat "$scratch/daemon.log")"
	reach_from_parent "$nb/allow.json" "--daemon=$nb/sock"
	expect_contained "through syswardd, with the variables set, a process outside the sandbox was reached"
	echo "+ (uid 65534) sysward run --daemon --policy emulate-uid.json -- id -ru"
	cp "$POL/emulate-uid.json" "$nb/emulate.json" && chmod 644 "$nb/emulate.json"
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/sysward" run \
		--daemon="$nb/sock" --policy "$nb/emulate.json" -- sh -c 'id -ru') >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	[ "$rc" -eq 0 ] && grep -qx 4242 "$out" || fail "through syswardd a supervisor policy did not run (exit $rc)"
	# Nor is the name anywhere in them.
	for bin in "$SYSWARD" "$SYSWARDD"; do
		! grep -q SYSWARD_PRETEND "$bin" || fail "$bin names SYSWARD_PRETEND: a test knob in a shipped binary"
	done ;;
reach_oom_outside_root)
	# Route 16, the session's own /proc: a root program raises the
	# oom_score_adj of the shell that started sysward and of this
	# script (root processes outside the session).  The file's owner may
	# write it with no ptrace-mode check, so only a /proc that does not
	# show them (hidepid=ptraceable) keeps the program from it.
	[ "$(id -u)" = 0 ] || skip "needs root"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	echo "+ sh -c 'sysward run --policy allow.json -- adv_reach oom \$\$ $$; :'"
	sh -c '"$1" run --policy "$2" -- "$3" oom $$ "$4"; echo "+ exit status $?"' sh \
		"$SYSWARD" "$scratch/allow.json" "$ADV/adv_reach" "$$" >"$out" 2>&1 </dev/null
	cat "$out"
	grep -qx '+ exit status 0' "$out" && grep -q '^verdict: contained' "$out" ||
		fail "a root process outside the sandbox had its oom_score_adj raised" ;;
procns_masks_kept)
	# The session's own /proc keeps what was mounted beneath the old one
	# (a container runtime's masks): in a mount namespace of the test's,
	# /dev/null over /proc/timer_list, a read-only tmpfs over /proc/acpi,
	# binfmt_misc, and /proc/sys bound read-only over it (recursively,
	# hiding the first binfmt_misc).  The program must see each of them,
	# and only its own processes.
	[ "$(id -u)" = 0 ] || skip "needs root"
	grep -qw binfmt_misc /proc/filesystems || skip "no binfmt_misc in this kernel"
	[ -e /proc/timer_list ] && [ -d /proc/acpi ] || skip "no /proc/timer_list or /proc/acpi to mask"
	in_own_mounts "masks over /proc, then sysward run -- sh -c 'checks'" '
		mount --bind /dev/null /proc/timer_list &&
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc &&
		mount -t tmpfs -o ro tmpfs /proc/acpi &&
		mount --rbind /proc/sys /proc/sys &&
		mount -o remount,bind,ro /proc/sys || exit 2
		"$1" run --policy "$2" -- sh -c "
			grep -q hidepid=ptraceable /proc/self/mountinfo && echo own-proc
			stat -c %F /proc/timer_list
			ls /proc/sys/fs/binfmt_misc/status
			touch /proc/acpi/x 2>/dev/null || echo acpi-ro
			echo 1 2>/dev/null >/proc/sys/kernel/ns_last_pid || echo sys-ro
			ls /proc | grep -c \"^[0-9]\""'
	[ "$rc" -eq 0 ] || fail "the program did not run with its own /proc (exit $rc)"
	for want in own-proc "character special file" /proc/sys/fs/binfmt_misc/status acpi-ro sys-ro; do
		grep -qx "$want" "$out" || fail "not in the program's /proc: $want"
	done
	[ "$(tail -n1 "$out")" -le 3 ] || fail "the program sees processes outside its session" ;;
procns_unlinked_masks)
	# systemd-nspawn masks /proc/kmsg with a FIFO it then unlinks, and a
	# runtime may mask a file with one it removes afterwards: the kernel
	# attaches no mount of an unlinked file again (move_mount gives
	# ENOENT), so the mask cannot be moved back.  (Here over files that
	# nspawn leaves alone: over its own removed masks, kmsg and boot_id,
	# the kernel refuses the test's mounts too.)  It must still be
	# there over the session's own /proc, as a copy: same type, mode,
	# owner, read-only flag and content, and the launch must not fail;
	# also beneath a recursive bind (as nspawn's boot_id under /proc/sys).
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -e /proc/buddyinfo ] && [ -e /proc/timer_list ] || skip "no /proc/buddyinfo or /proc/timer_list to mask"
	mkdir -p "$scratch/t"
	in_own_mounts "unlinked FIFO over /proc/buddyinfo, unlinked file over /proc/timer_list; sysward run -- sh -c 'checks'" '
		mount -t tmpfs tmpfs "$3" && mkfifo -m 0600 "$3/fifo" &&
		printf "masked by the runtime\n" >"$3/tl" && chmod 0444 "$3/tl" &&
		chown 65534:65534 "$3/tl" &&
		mount --bind "$3/fifo" /proc/buddyinfo &&
		mount --bind "$3/tl" /proc/timer_list &&
		mount -o remount,bind,ro /proc/timer_list &&
		echo 00000000-0000-4000-8000-000000000001 >"$3/ostype" &&
		mount --bind "$3/ostype" /proc/sys/kernel/ostype &&
		mount --rbind /proc/sys /proc/sys &&
		mount -o remount,bind,ro /proc/sys &&
		rm "$3/fifo" "$3/tl" "$3/ostype" || exit 2
		"$1" run --policy "$2" -- sh -c "
			grep -q hidepid=ptraceable /proc/self/mountinfo && echo own-proc
			stat -c \"buddyinfo: %F %a %u\" /proc/buddyinfo
			stat -c \"timer_list: %F %a %u:%g\" /proc/timer_list
			cat /proc/timer_list /proc/sys/kernel/ostype
			grep -q \" /proc/timer_list ro,\" /proc/self/mountinfo && echo timer_list-ro
			ls /proc | grep -c \"^[0-9]\""' "$scratch/t"
	[ "$rc" -eq 0 ] || fail "the program did not run with its own /proc (exit $rc)"
	for want in own-proc "buddyinfo: fifo 600 0" "timer_list: regular file 444 65534:65534" \
		"masked by the runtime" timer_list-ro 00000000-0000-4000-8000-000000000001; do
		grep -qx "$want" "$out" || fail "not in the program's /proc: $want"
	done
	[ "$(tail -n1 "$out")" -le 3 ] || fail "the program sees processes outside its session" ;;
procns_unlinked_device_refused)
	# A removed device node over /proc/buddyinfo cannot be copied faithfully
	# (a copy on a nodev tmpfs would not open as the original does):
	# the launch fails (125) rather than lift the mask, and says which
	# mount and which step.
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -e /proc/buddyinfo ] || skip "no /proc/buddyinfo to mask"
	mkdir -p "$scratch/t"
	in_own_mounts "a removed /dev/null node over /proc/buddyinfo; sysward run -- true" '
		mount -t tmpfs tmpfs "$3" && mknod -m 0666 "$3/null" c 1 3 &&
		mount --bind "$3/null" /proc/buddyinfo && rm "$3/null" || exit 2
		"$1" run --policy "$2" -- true' "$scratch/t"
	[ "$rc" -eq 125 ] || fail "the program ran although the mask over /proc/buddyinfo could not be put back (exit $rc)"
	grep -q "^sysward: cannot start 'true': give it a /proc of its own: put a copy of the mask at /proc/buddyinfo, whose file was removed, .*: Operation not supported" "$out" ||
		fail "no message naming the mount and the step" ;;
procns_in_nspawn)
	# The session's own /proc inside systemd-nspawn (the clean room's
	# container): nspawn mounts a FIFO over /proc/kmsg and files over
	# boot_id and then removes them, binds /proc/sys and others
	# read-only.  A root launch there puts every mask back (a copy of
	# those removed), shows only the session's processes, and the
	# program sees what the container shows without sysward.
	[ "$(id -u)" = 0 ] || skip "needs root"
	command -v systemd-nspawn >/dev/null || skip "no systemd-nspawn (apt-get install systemd-container)"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	cat >"$scratch/in.sh" <<-'EOF'
	echo nspawn-started
	show='stat -c "kmsg %F %a" /proc/kmsg; cat /proc/sys/kernel/random/boot_id; echo x 2>/dev/null >/proc/sys/kernel/ns_last_pid || echo sys-ro'
	sh -c "$show" >"$1/plain" 2>&1
	"$2" run --policy "$1/allow.json" -- sh -c "$show" >"$1/confined" 2>&1 || echo "sysward exit $?"
	"$2" run --policy "$1/allow.json" -- sh -c 'grep -q hidepid=ptraceable /proc/self/mountinfo && echo own-proc; ls /proc | grep -c "^[0-9]"'
	EOF
	echo "+ systemd-nspawn -D / --volatile=yes: the same commands unconfined and under sysward run"
	SYSTEMD_SECCOMP=0 timeout -k 5 60 systemd-nspawn --quiet --register=no --keep-unit -D / \
		--volatile=yes --bind="$scratch" --bind-ro="$(dirname "$SYSWARD")" \
		--console=pipe /bin/sh "$scratch/in.sh" "$scratch" "$SYSWARD" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
	grep -qx nspawn-started "$out" || skip "systemd-nspawn cannot start a container here (exit $rc)"
	echo "+ unconfined:"; cat "$scratch/plain"
	echo "+ under sysward:"; cat "$scratch/confined"
	grep -q '^sysward exit' "$out" && fail "sysward run failed inside systemd-nspawn"
	grep -qx 'kmsg fifo 600' "$scratch/plain" || skip "this nspawn does not mask /proc/kmsg with a FIFO"
	cmp -s "$scratch/plain" "$scratch/confined" || fail "the program's /proc differs from the container's"
	grep -qx own-proc "$out" || fail "the program did not get its own /proc"
	n=$(grep -E '^[0-9]+$' "$out" | tail -n1)
	[ -n "$n" ] && [ "$n" -le 3 ] || fail "the program sees processes outside its session" ;;
signals_pidfd_race_nobody)
	# signals_pidfd_race as uid 65534, whose session keeps the caller's
	# /proc (no CAP_SYS_ADMIN: route 16's limit), so that the swap of an
	# outside /proc/<pid> fd is still raced where root's session no
	# longer sees the witness.
	stage_nobody adv_signals
	setsid setpriv --reuid 65534 --regid 65534 --clear-groups sleep 120 </dev/null >/dev/null 2>&1 &
	witness=$!
	trap 'kill "$witness" 2>/dev/null; rm -rf "$nb"' EXIT
	cp "$POL/emulate-uid.json" "$nb/emulate-uid.json" && chmod 644 "$nb/emulate-uid.json"
	run_nobody --policy "$nb/emulate-uid.json" -- "$nb/adv_signals" pidfd_race "$witness"
	witness_lives
	grep -q '^tried: 20000 x pidfd_send_signal' "$out" || fail "the race did not run"
	expect_contained "the race could not run" ;;
procns_refuses_revealing_submount)
	# A proc mount beneath /proc that shows processes (/proc bound onto
	# /proc/acpi, in a mount namespace of the test's) cannot be put
	# back over the session's own /proc without showing the outsiders
	# again: the launch fails (125), saying which mount.
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -d /proc/acpi ] || skip "no /proc/acpi to bind over"
	in_own_mounts "mount --bind /proc /proc/acpi; sysward run -- ls /proc/acpi" \
		'mount --bind /proc /proc/acpi || exit 2
		"$1" run --policy "$2" -- sh -c "ls /proc/acpi | grep -c \"^[0-9]\""'
	[ "$rc" -eq 125 ] || fail "the program ran with every process in /proc/acpi (exit $rc)"
	grep -q "^sysward: .*/proc/acpi, beneath /proc, is a proc mount that shows processes" "$out" ||
		fail "no message naming the mount" ;;
nsbox_ipc_outside_root)
	# Route 16c: System V shm, sem and msg, POSIX message queues (also
	# through an mqueue mount) and /dev/shm's POSIX shm and named
	# semaphores of a root process outside: the session has an IPC
	# namespace, an mqueue mount and a /dev/shm of its own.  Under
	# allow-all and Docker's default profile; the witness's objects
	# must be as it left them.
	[ "$(id -u)" = 0 ] || skip "needs root (a launcher with CAP_SYS_ADMIN)"
	mkdir -p "$scratch/mq"
	# (A kernel without POSIX message queues, the guest's: the rest.)
	grep -qw mqueue /proc/filesystems && mq=mqueue || mq=
	in_own_mounts "an mqueue mount on $scratch/mq; witness; sysward run -- adv_nsbox_ipc attack (x2); adv_nsbox_ipc check" '
		[ -z "$7" ] || mount -t mqueue mqueue "$3" || exit 2
		"$4" witness "$5" $$ </dev/null >/dev/null 2>&1 &
		w=$!
		for i in $(seq 100); do [ -s "$5/wit.info" ] && break; sleep 0.1; done
		for p in "$2" "$6"; do
			"$1" run --policy "$p" -- "$4" attack "$5" "$3"
			echo "+ exit status $?"
		done
		"$4" check "$5"; c=$?
		kill $w; "$4" remove "$5"
		exit $c' "$scratch/mq" "$ADV/adv_nsbox_ipc" "$scratch" "$POL/../../../policy/examples/docker-default.json" "$mq"
	[ "$rc" -eq 0 ] || fail "the witness's IPC objects were changed from inside the session (exit $rc)"
	[ "$(grep -c '^verdict: contained' "$out")" -eq 2 ] && [ "$(grep -c '^+ exit status 0$' "$out")" -eq 2 ] ||
		fail "an IPC object outside the session was reached" ;;
nsbox_cgroup_outside_root)
	# Route 16c: a root process outside in a cgroup of its own (and in
	# v1 pids and freezer cgroups where the host mounts them): the root
	# program may not limit, freeze, move or kill it through any cgroup
	# file; the session sees its own cgroup only.
	[ "$(id -u)" = 0 ] || skip "needs root (a launcher with CAP_SYS_ADMIN)"
	trap 'nsbox_cg_cleanup' EXIT
	nsbox_cg_stage 0; r=$?
	[ "$r" -eq 77 ] && skip "no cgroup2 mount here"
	[ "$r" -eq 0 ] || fail "cannot make the witness's cgroups"
	nsbox_cg_witness 0 || fail "cannot place the witness in its cgroups"
	before=$(nsbox_cg_state)
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	mkdir -p "$scratch/mnt"
	for a in "$scratch/allow.json" "$POL/../../../policy/examples/docker-default.json"; do
		run "$a" -- "$ADV/adv_nsbox_cgroup" attack "$nsbox_wit" "$NSBOX_CG" "$NSBOX_TRAP" "$scratch/mnt" $NSBOX_V1
		after=$(nsbox_cg_state)
		printf 'witness %s before:\n%s\nafter:\n%s\n' "$nsbox_wit" "$before" "$after"
		[ "$before" = "$after" ] || fail "the witness outside the session was changed through its cgroup (${a##*/})"
		expect_contained "a cgroup outside the session was written (${a##*/})"
	done ;;
nsbox_cgroup_own)
	# Control: the program's own cgroup, as /proc/self/cgroup names it,
	# lists it and reads; as a capability-less root it still makes a
	# sub-cgroup, moves a child of its own there and removes it, as the
	# same program does unconfined in the cgroup sysward was started in
	# (a test cgroup of root's: the root cgroup's directory is 0555).
	nsbox_test_cgroup
	for how in unconfined confined; do
		echo "+ (in $cg2/sysward-test.$$) $how: adv_nsbox_cgroup own write"
		if [ $how = unconfined ]; then
			set -- setpriv --inh-caps=-all --bounding-set=-all "$ADV/adv_nsbox_cgroup" own write
		else
			set -- "$SYSWARD" run --policy "$scratch/allow.json" -- "$ADV/adv_nsbox_cgroup" own write
		fi
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg2/sysward-test.$$" "$@" >"$out" 2>&1 </dev/null
		rc=$?
		cat "$out"
		[ "$rc" -eq 0 ] && grep -qx 'control: own cgroup works' "$out" || fail "$how, the program's own cgroup does not work (exit $rc)"
	done ;;
nsbox_programs_root)
	# Compatibility in a root session with its own namespaces: ps lists
	# the session, Python's multiprocessing (named semaphores in
	# /dev/shm) works, a pseudo-terminal of its own works (script), and
	# its /proc/self/cgroup is its namespace's root.
	[ "$(id -u)" = 0 ] || skip "needs root (a launcher with CAP_SYS_ADMIN)"
	py=$(command -v /usr/bin/python3 || command -v python3) || skip "no python3"
	"$py" -c 'import multiprocessing' 2>/dev/null || skip "python3 has no multiprocessing here"
	"$ADV/adv_nsbox_tty" own >/dev/null 2>&1 || skip "no pseudo-terminals here"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$scratch/allow.json"
	run "$scratch/allow.json" -- sh -c '
		echo "ps: $(ps -e -o pid= | wc -l) processes"
		"$1" -c "
import multiprocessing as mp
def sq(x): return x * x
if __name__ == \"__main__\":
    l = mp.Lock()
    with l: pass
    with mp.Pool(2) as p: print(\"multiprocessing\", sum(p.map(sq, range(10))))
"
		script -qec "tty; echo script-ran" /dev/null </dev/null | tr -d "\r"
		grep "^0::" /proc/self/cgroup
		"$2" own' sh "$py" "$ADV/adv_nsbox_tty"
	[ "$rc" -eq 0 ] || fail "a program failed in the session (exit $rc)"
	for want in "multiprocessing 285" script-ran "control: own pty works"; do
		grep -qx "$want" "$out" || fail "missing: $want"
	done
	grep -qx '/dev/pts/[0-9]*' "$out" || fail "script's terminal has no name in the session's devpts"
	n=$(sed -n 's/^ps: \([0-9]*\) processes$/\1/p' "$out")
	[ -n "$n" ] && [ "$n" -le 8 ] || fail "ps lists processes outside the session ($n)"
	[ -z "$(nsbox_cg2)" ] || grep -qx '0::/' "$out" || fail "/proc/self/cgroup is not rooted at the session" ;;
nsbox_cgroups_left_root)
	# The session's cgroup goes with the session: 100 sessions, one
	# that makes sub-cgroups and leaves one, and one whose cgroup an
	# outside process moved itself into (it ends with the session, as a
	# unit's processes do): no session cgroup left below the cgroup the
	# launches ran in (a test cgroup of root's), nor one a killed
	# launcher left there.
	nsbox_test_cgroup
	t=/sysward-test.$$
	# What a launcher killed by SIGKILL leaves (a pid that is gone, made
	# long ago): removed when a session beside it ends; a live
	# launcher's stays whatever its state.
	dead=$$
	while kill -0 "$dead" 2>/dev/null; do dead=$((dead + 7919)); done
	mkdir -p "$cg2$t/sysward-session-$dead-1-1/program" "$cg2$t/sysward-session-$$-1-1/program" || fail "mkdir"
	trap 'rmdir "$cg2$t"/*/program "$cg2$t"/* "$cg2$t" 2>/dev/null' EXIT
	echo "+ (in $cg2$t, beside sysward-session-$dead-1-1 and sysward-session-$$-1-1) 100 x sysward run -- true"
	sh -c 'echo $$ >"$1/cgroup.procs" && for i in $(seq 100); do "$2" run --policy "$3" -- true || exit 1; done' sh \
		"$cg2$t" "$SYSWARD" "$scratch/allow.json" || fail "a run failed"
	[ ! -e "$cg2$t/sysward-session-$dead-1-1" ] || fail "a killed launcher's session cgroup was left"
	rmdir "$cg2$t/sysward-session-$$-1-1/program" "$cg2$t/sysward-session-$$-1-1" ||
		fail "a live launcher's session cgroup was removed"
	echo "session cgroups left: $(nsbox_session_cgroups "$t" | wc -l)"
	[ -z "$(nsbox_session_cgroups "$t")" ] || fail "session cgroups left behind: $(nsbox_session_cgroups "$t")"
	echo "+ (in $cg2$t) sysward run -- sh -c 'adv_nsbox_cgroup own write; mkdir OWN/left OWN/left/deeper'"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" run --policy "$3" -- sh -c "\"\$0\" own write && d=\$(awk \"/ - cgroup2 / {d = \\\$5} END {print d}\" /proc/self/mountinfo) && mkdir \"\$d/left/\" \"\$d/left/deeper\" && echo left" "$4"' sh \
		"$cg2$t" "$SYSWARD" "$scratch/allow.json" "$ADV/adv_nsbox_cgroup" >"$out" 2>&1 </dev/null
	cat "$out"
	grep -qx left "$out" || fail "the session could not make sub-cgroups of its own"
	[ -z "$(nsbox_session_cgroups "$t")" ] || fail "session cgroups left behind: $(nsbox_session_cgroups "$t")"
	echo "+ (in $cg2$t) sysward run -- sh -c 'echo \$\$ >prog.pid; sleep 2' &"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" run --policy "$3" -- sh -c "echo \$\$ >\"\$0\"; sleep 2" "$4"' sh \
		"$cg2$t" "$SYSWARD" "$scratch/allow.json" "$scratch/prog.pid" >"$out" 2>&1 </dev/null &
	pid=$!
	wait_for "[ -s '$scratch/prog.pid' ]" || fail "the program did not start"
	scg=$(sed -n 's/^0:://p' "/proc/$(cat "$scratch/prog.pid")/cgroup")
	sleep 60 </dev/null >/dev/null 2>&1 &
	intruder=$!
	trap 'kill "$intruder" 2>/dev/null; rmdir "$cg2$t"' EXIT
	echo "+ the outside process $intruder moves itself into the session's cgroup $scg"
	echo "$intruder" >"$cg2$scg/cgroup.procs" || fail "cannot move into the session's cgroup"
	wait_bg
	wait_for "! kill -0 $intruder" || fail "a process in the session's cgroup outlived the session"
	echo "session cgroups left: $(nsbox_session_cgroups "$t" | wc -l)"
	[ -z "$(nsbox_session_cgroups "$t")" ] || fail "session cgroups left behind: $(nsbox_session_cgroups "$t")" ;;
nsbox_userns_launcher)
	# A launcher that is root only in a user namespace of its own
	# (unshare -Ur as uid 65534) has CAP_SYS_ADMIN over no cgroup: it
	# makes the session's IPC and mount namespaces but no cgroup, as an
	# unprivileged launcher makes none; it does not refuse to run (a
	# plain `sysward run` as the same uid would run all the same).
	# A kernel without cgroups (the VM guest's) has no
	# /proc/self/cgroup: nothing to compare there.
	stage_nobody adv_nsbox_ipc
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json" && chmod 644 "$nb/allow.json"
	cgline=
	[ -e /proc/self/cgroup ] && cgline=$(grep '^0::' /proc/self/cgroup)
	echo "+ (uid 65534) unshare -Urm sysward run -- sh -c 'adv_nsbox_ipc own; grep ^0:: /proc/self/cgroup'"
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups unshare -Urm \
		"$nb/sysward" run --policy "$nb/allow.json" -- sh -c '"$1" own; [ ! -e /proc/self/cgroup ] || grep "^0::" /proc/self/cgroup' sh "$nb/adv_nsbox_ipc") \
		>"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
	[ "$rc" -eq 0 ] || fail "the launcher in a user namespace refused to run (exit $rc)"
	grep -qx 'control: own ipc works' "$out" || fail "the program's own IPC does not work"
	[ -z "$cgline" ] || grep -qx "$cgline" "$out" || fail "the program is not in the launcher's cgroup" ;;
nsbox_userns_launcher_ttygid)
	# The same where devpts says gid=5 (systemd's hosts, containers):
	# the user namespace maps no gid 5, and devpts refuses an unmapped
	# gid= (EINVAL): the session's devpts is mounted without it (before:
	# "mount a new devpts instance over /dev/pts: Invalid argument",
	# exit 125, on every systemd host).  In a mount namespace of the
	# test's own, a devpts instance with gid=5 over /dev/pts.
	stage_nobody adv_nsbox_ipc
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$nb/allow.json" && chmod 644 "$nb/allow.json"
	echo "+ (devpts gid=5; uid 65534) unshare -Urm sysward run -- sh -c 'ls /dev/pts'"
	# setpriv by its path: a busybox sh (the VM guest's) runs its own
	# applet, which has no --reuid.
	unshare -m sh -c 'mount -t devpts -o newinstance,gid=5,mode=620,ptmxmode=666 devpts /dev/pts &&
		cd / && exec "$3" --reuid 65534 --regid 65534 --clear-groups unshare -Urm \
		"$1" run --policy "$2" -- sh -c "ls /dev/pts"' sh "$nb/sysward" "$nb/allow.json" \
		"$(command -v setpriv)" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
	[ "$rc" -eq 0 ] || fail "the launcher in a user namespace refused to run beside a devpts with gid=5 (exit $rc)"
	grep -qx ptmx "$out" || fail "the program did not get a devpts of its own" ;;
nsbox_cgroup_refused_root)
	# Where no session cgroup can be made (here: the cgroup sysward
	# runs in allows no descendant), nothing runs: 125 and a message
	# naming the cgroup and what to do.  A read-only view would leave a
	# program that mounts cgroup2 in namespaces of its own the cgroup it
	# shares with outsiders.
	nsbox_test_cgroup
	echo 0 >"$cg2/sysward-test.$$/cgroup.max.descendants"
	echo "+ (in $cg2/sysward-test.$$, no descendant allowed) sysward run -- true"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" run --policy "$3" -- true' sh \
		"$cg2/sysward-test.$$" "$SYSWARD" "$scratch/allow.json" >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	echo "+ exit status $rc"
	[ "$rc" -eq 125 ] || fail "the program ran without a cgroup of its own (exit $rc)"
	grep -q "^sysward: cannot start 'true': give it a cgroup of its own: make the cgroup sysward-session-.* below /sysward-test.$$ .*: Resource temporarily unavailable" "$out" ||
		fail "no message naming the cgroup" ;;
fsrules_paths_compiled_nobody)
	# Route 21: the same "paths" rules (strings.json: openat, openat2
	# and open refused beneath ro/secret/ with EACCES), compiled to
	# Landlock where exact (engine/contain/pathrules.c), as uid 65534 from a
	# tree whose way from / it cannot write: every other name of the
	# secret refused, and the opens do not stop.  Control: the same run
	# with the rules at the supervisor (SYSWARD_PATHS_SUPERVISOR=1),
	# where the names get through and every open stops.
	stage_nobody adv_fsrules
	# /var/lib: a way from / that uid 65534 cannot write (the guest's
	# initramfs has no /var/lib: made as a Debian host has it, root's,
	# 0755, whatever umask the harness was given)
	umask 022
	[ -d /var/lib ] || mkdir -p /var/lib
	fs=$(mktemp -d /var/lib/sysward-paths.XXXXXX) || fail "mktemp"
	trap 'rm -rf "$nb" "$fs"' EXIT
	chmod 755 "$fs"
	fsrules_stage "$fs"
	chown -R 65534:65534 "$fs/rw" "$fs/rwf" "$fs/ro/out" || fail "staging"
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups "$nb/sysward" check "$fs/strings.json") >"$out" 2>&1
	cat "$out"
	if [ -n "$(find / -maxdepth 0 -perm -0002)" ]; then
		# The QEMU guest's initramfs root is 1777: every way from / can
		# get entries from uid 65534, and the rule rightly stays at the
		# supervisor (pathrules.c, "the way").
		grep -q "enforce: .*syscalls\[0\]: paths: the supervisor, at a stop: a directory on the way to it can get new entries" "$out" ||
			fail "a rule beneath a world-writable / was compiled"
		skip "/ is world-writable here: the compiled case needs a way uid 65534 cannot write"
	fi
	grep -q "enforce: .*syscalls\[0\]: paths: Landlock ABI [0-9]*, no stop: " "$out" &&
		grep -q "enforce: .*syscalls\[1\]: paths: Landlock ABI [0-9]*, no stop: " "$out" ||
		{ ls -ld / /var /var/lib "$fs" "$fs/ro" "$fs/ro/secret"; fail "sysward check does not say the rules are Landlock's"; }
	run_nobody --policy "$fs/strings.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO names
	expect_contained "a file the compiled paths rules refuse was reached"
	n=$(sed -n 's/.*stops: \([0-9]*\) voluntary.*/\1/p' "$out")
	[ -n "$n" ] && [ "$n" -lt 200 ] || fail "2,000 opens under compiled rules cost $n context switches (stops)"
	rm -rf "$fs"/rw/sub/* "$fs"/ro/out/* "$fs"/rwf/d
	SYSWARD_PATHS_SUPERVISOR=1 run_nobody --policy "$fs/strings.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO names
	[ "$rc" -eq 1 ] && grep -q 'ESCAPE: openat(O_PATH dirfd of ro/secret, "key")' "$out" &&
		grep -q 'ESCAPE: open(/proc/self/root/.../key)' "$out" ||
		fail "the supervisor's control did not show the names getting through"
	n=$(sed -n 's/.*stops: \([0-9]*\) voluntary.*/\1/p' "$out")
	[ -n "$n" ] && [ "$n" -ge 2000 ] || fail "2,000 opens at the supervisor cost $n context switches, not a stop each"
	# A run that sees refusals keeps the rules at both: the string's
	# refusal reported, the relative name refused by the kernel, and
	# the run told so; complain mode keeps them at the supervisor alone.
	run_nobody --report "$fs/rw/r.json" --policy "$fs/strings.json" -- sh -c "cat $fs/ro/secret/key; cd $fs/ro/secret && cat key"
	# (coreutils' cat says "cat: key: ...", busybox's, the guest's,
	# "cat: can't open 'key': ...")
	grep -qE "cat: (key|can't open 'key'): Permission denied" "$out" && grep -q '"refused": 1' "$fs/rw/r.json" &&
		grep -q "the other names of those files .* fail with EACCES without reaching sysward" "$out" ||
		fail "under --report, the relative name got through, or the run was not told"
	run_nobody --complain --policy "$fs/strings.json" -- sh -c "cat $fs/ro/secret/key; cd $fs/ro/secret && cat key"
	[ "$(grep -c '^SECRET$' "$out")" -eq 2 ] || fail "complain mode did not let both reads run" ;;
sandbox_names)
	;&
sandbox_names_nobody)
	# Route 21, sysward run --sandbox: writes outside the workspace by
	# every other name (links made before and inside, a hard link,
	# /proc/self/root, "..", a dirfd, openat2, /proc/self/fd), into its
	# read-only .git (a hook planted, HEAD rewritten, .git moved), a TCP
	# connect and a unix service of the uid outside: all refused; the
	# workspace, TMPDIR and reading the system work.
	if [ "$test" = sandbox_names_nobody ]; then
		stage_nobody adv_sandbox
		sb=$nb/sb bin=$nb/adv_sandbox
		sandbox_stage "$sb" 65534
	else
		sb=$scratch/sb bin=$ADV/adv_sandbox
		sandbox_stage "$sb"
	fi
	RUN_OPTS=(--sandbox="$sb/ws")
	if [ "$test" = sandbox_names_nobody ]; then
		run_nobody --policy "$sb/allow.json" "${RUN_OPTS[@]}" -- "$bin" "$sb/ws" "$sb/out" "$SB_PORT" "$SB_SOCK"
	else
		run "$sb/allow.json" -- "$bin" "$sb/ws" "$sb/out" "$SB_PORT" "$SB_SOCK"
	fi
	expect_contained "a write, a connection or a service outside the sandbox was reached"
	[ "$(cat "$sb/out/target")" = t ] && [ "$(cat "$sb/ws/.git/HEAD")" = ref ] &&
		[ ! -e "$sb/ws/.git/hooks/pre-commit" ] || fail "the files outside changed"
	! grep -q '^fact: ESCAPE' "$out" || fail "an escape line with a contained verdict"
	# the errors bubblewrap gives where the launcher has a mount
	# namespace of its own (root), else Landlock's
	err=EACCES
	[ "$test" = sandbox_names ] && err=EROFS
	for what in "write OUT/target" "create OUT/new" "write WS/.git/HEAD" "create WS/.git/hooks/pre-commit"; do
		grep -q "^result: $what = -1 $err " "$out" || fail "$what: not $err"
	done
	# the private TMPDIR goes, even with directories the program left
	# unreadable (as uid 65534: no capability opens them)
	if [ "$test" = sandbox_names_nobody ]; then
		run_nobody --policy "$sb/allow.json" --sandbox="$sb/ws" -- sh -c \
			'mkdir -p "$TMPDIR/d/e" && touch "$TMPDIR/d/e/f" && chmod 000 "$TMPDIR/d/e" "$TMPDIR/d" && echo "tmp: $TMPDIR"'
		tmp=$(sed -n 's/^tmp: //p' "$out")
		[ -n "$tmp" ] && [ ! -e "$tmp" ] && ! grep -q "remove the sandbox's temporary directory" "$out" ||
			{ chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"; fail "the private TMPDIR $tmp stayed"; }
	fi ;;
sandbox_with_policy)
	# Route 21: --sandbox composed with a policy.  The policy's
	# features work on top (an emulation, the audit log, the gate) and
	# its "filesystem" section narrows the sandbox (the workspace's top
	# directory, read-only by the policy, stays so) but never widens it
	# (OUT, writable by the policy, is not); its ${TMPDIR} is the
	# sandbox's private one; the run is told that the kernel's refusals
	# are unseen.  The private TMPDIR is gone afterwards.  On
	# Landlock ABI 3 the sandbox is refused, saying why.
	sb=$scratch/sb
	sandbox_stage "$sb"
	cat >"$sb/policy.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid", "geteuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242},
	              {"names": ["sethostname"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}],
	 "filesystem": {"paths": [{"path": "/", "access": "ro"},
	                          {"path": "/dev/null", "access": ["read", "write"]},
	                          {"path": "$sb/ws/sub", "access": "rw"},
	                          {"path": "\${TMPDIR}", "access": "rw"},
	                          {"path": "$sb/out", "access": "rw"}]}}
	EOF
	RUN_OPTS=(--sandbox="$sb/ws" --log="$scratch/log" --gate)
	run "$sb/policy.json" -- sh -c 'id -u; echo $TMPDIR >"$1/sub/tmpdir"; echo x >"$TMPDIR/t" && echo "TMPDIR: written"; echo x >"$1/top" || echo "narrowed: refused"; echo x >"$2/target" || echo "widened: refused"; echo x >"$1/sub/g" && echo "workspace: written"; hostname x 2>/dev/null || echo "refused: sethostname"' sh "$sb/ws" "$sb/out"
	RUN_OPTS=()
	[ "$rc" -eq 122 ] || fail "the gate did not trip on the refused sethostname (exit $rc)"
	grep -qx 4242 "$out" || fail "the emulation did not apply under --sandbox"
	grep -q "narrowed: refused" "$out" && grep -q "widened: refused" "$out" &&
		grep -q "workspace: written" "$out" && grep -q "TMPDIR: written" "$out" ||
		fail "the layers do not compose"
	grep -q '"syscall": *"sethostname"' "$scratch/log" || fail "no audit line for the refusal"
	grep -q "what they refuse fails with EACCES without reaching sysward" "$out" ||
		fail "not told that the kernel's refusals are unseen"
	tmp=$(cat "$sb/ws/sub/tmpdir")
	case $tmp in /tmp/sysward-sandbox.*) ;; *) fail "TMPDIR was $tmp" ;; esac
	[ ! -e "$tmp" ] || fail "the private TMPDIR $tmp is still there"
	KERNEL=("$PRETEND" --landlock-abi 3 --)
	RUN_OPTS=(--sandbox="$sb/ws")
	run "$sb/allow.json" -- true
	KERNEL=() RUN_OPTS=()
	[ "$rc" -eq 125 ] && grep -q "prepare the sandbox: --sandbox needs Landlock ABI 4 (Linux 6.7) to refuse truncation and TCP connections; the running kernel has ABI 3" "$out" ||
		fail "ABI 3: the sandbox was not refused with its reason"
	# a workspace that is not there, or not a directory: said first
	RUN_OPTS=(--sandbox="$sb/none")
	run "$sb/allow.json" -- true
	[ "$rc" -eq 125 ] && grep -q "^sysward: --sandbox: the workspace $sb/none: No such file or directory" "$out" ||
		fail "a missing workspace was not said"
	RUN_OPTS=(--sandbox="$sb/allow.json")
	run "$sb/allow.json" -- true
	RUN_OPTS=()
	[ "$rc" -eq 125 ] && grep -q "^sysward: --sandbox: the workspace $sb/allow.json is not a directory" "$out" ||
		fail "a file as the workspace was not said" ;;
fsrules_complain)
	;&
fsrules_complain_nobody)
	# Route 21b: --complain over the "filesystem" rules.  adv_fsrules
	# names the files they refuse by every other string (relative, "..",
	# a dirfd, /proc/self/fd, /proc/self/root, symbolic links, openat2);
	# complain mode lets each open run and must report every one the
	# kernel would refuse, judged on the file reached (the resolved
	# path, whatever the string), with the rule that decides; what the
	# rules grant (adv_fsrules' controls) is not reported.
	if [ "$test" = fsrules_complain_nobody ]; then
		stage_nobody adv_fsrules
		fs=$nb/fs
	else
		fs=$scratch/fs
	fi
	fsrules_stage "$fs" ${nb:+65534}
	rep=$fs/report.json
	[ -z "${nb:-}" ] || { touch "$rep" && chown 65534:65534 "$rep"; }
	RUN_OPTS=(--complain --report="$rep")
	fsrules_run "$fs/fs.json"
	RUN_OPTS=()
	grep -q '^fact: ESCAPE: open(ro/noexec/../secret/key)' "$out" ||
		fail "complain mode did not let the refused opens run"
	# each open of the secret by another name is one would-be refusal
	opens=$(grep '^fact: ESCAPE: ' "$out" | grep -v 'link(\|rename(' |
		grep -cE 'key|ro-link|new-link|reopen O_PATH|open\(absolute\)')
	python3 - "$rep" "$fs" "$opens" <<-'PY' || fail "the report does not name what the file rules would refuse"
	import json, sys
	rep, fs, opens = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
	seen = {}
	for c in rep["calls"]:
	    if c["outcome"] != "would_refuse":
	        continue
	    for smp in c.get("samples", []):
	        seen.setdefault(smp.get("path"), []).append((c["syscall"], c["count"], c["why"]))
	def want(path, rule, rights):
	    got = seen.get(fs + "/" + path, [])
	    ok = any(rule in w and rights in w for _, _, w in got)
	    print("%s: %s" % (path, "reported" if ok else "NOT REPORTED (%s)" % got))
	    return ok
	# the rule by its JSON path (fs.json's order; the report cuts a
	# reason at 127 bytes, after it)
	ok = all([want("ro/secret/key", "filesystem.paths[2] (", "read-file"),
	          want("ro/secret", "filesystem.paths[2] (", "read-dir"),
	          want("ro/pub", "filesystem.paths[0] (/)", "write-file"),
	          want("ro/new", "filesystem.paths[0] (/)", "write-file"),
	          want("new", "filesystem.paths[0] (/)", "write-file"),
	          want("rw/.git/HEAD", "filesystem.paths[6] (", "write-file"),
	          want("rw/.git/new", "filesystem.paths[6] (", "write-file"),
	          want("rwf/conf", "filesystem.paths[8] (", "write-file")])
	key = sum(n for p, v in seen.items() if p == fs + "/ro/secret/key"
	          for _, n, w in v if "read-file" in w)
	print("opens of the secret by other names: %d, reported: %d" % (opens, key))
	ok = ok and key >= opens
	# the controls: granted, so never reported
	for p in ("ro/out/new", "rw/file", "rw/sub/new", "rwf/file", "rw/.git"):
	    if fs + "/" + p in seen:
	        print("%s: reported, but the rules grant it" % p)
	        ok = False
	sys.exit(0 if ok else 1)
	PY
	grep -q "file rules (Landlock): read-file not granted by filesystem.paths\[2\]" "$out" ||
		fail "the summary on standard error does not name the rule" ;;
sandbox_complain)
	# Route 21b: a program writes outside --sandbox's workspace.  Without
	# --complain it fails as under bubblewrap's equivalent (root: EROFS,
	# the same words and status), and sysward says how to find out why;
	# with --complain the write runs and the report names the file and
	# the rule.
	sb=$scratch/sb
	sandbox_stage "$sb"
	prog='echo y >sub/g; echo z >/dev/null; echo x >"$1/target"; s=$?; echo "status $s"; exit $s'
	RUN_OPTS=(--sandbox="$sb/ws")
	cd "$sb/ws" && run "$sb/allow.json" -- sh -c "$prog" sh "$sb/out"; cd "$scratch"
	# dash: "cannot create", status 2; busybox's sh (the guest's):
	# "can't create", status 1
	st=$(sed -n 's/^status //p' "$out")
	grep -Eq "(cannot|can't) create $sb/out/target: Read-only file system" "$out" && [ "${st:-0}" != 0 ] ||
		fail "the write outside was not refused with EROFS"
	grep -q "^sysward: the program exited with status $st; --sandbox's file rules are the kernel's.*run it again with --complain" "$out" ||
		fail "not told how to find what the kernel refused"
	if command -v bwrap >/dev/null; then
		echo "+ bwrap --ro-bind / / --bind WS WS --dev /dev sh -c ..."
		(cd "$sb/ws" && bwrap --ro-bind / / --bind "$sb/ws" "$sb/ws" --dev /dev --chdir "$sb/ws" \
			sh -c "$prog" sh "$sb/out") >"$scratch/bwrap" 2>&1
		cat "$scratch/bwrap"
		diff <(grep -v '^sysward:' "$out") "$scratch/bwrap" || fail "the program saw other errors than under bubblewrap"
	else
		echo "bubblewrap: not installed, the side-by-side comparison skipped (apt-get install bubblewrap)"
	fi
	[ "$(cat "$sb/out/target")" = t ] || fail "the file outside changed"
	RUN_OPTS=(--sandbox="$sb/ws" --complain --report="$scratch/report.json")
	cd "$sb/ws" && run "$sb/allow.json" -- sh -c "$prog" sh "$sb/out"; cd "$scratch"
	RUN_OPTS=()
	[ "$rc" -eq 0 ] && grep -q '^status 0' "$out" && [ "$(cat "$sb/out/target")" = x ] ||
		fail "complain mode did not let the write run"
	python3 - "$scratch/report.json" "$sb/out/target" <<-'PY' || fail "the report does not name the file and the rule"
	import json, sys
	rep = json.load(open(sys.argv[1]))
	hits = [c for c in rep["calls"] if c["outcome"] == "would_refuse"
	        and any(s.get("path") == sys.argv[2] for s in c.get("samples", []))]
	print(json.dumps(hits))
	sys.exit(0 if len(hits) == 1 and hits[0]["why"] ==
	         "the file rules (Landlock): write-file, truncate not granted by --sandbox: the system, read-only (/)"
	         and rep["totals"]["would_refuse"] == 1 else 1)
	PY
	;;
fsrules_refusals_said)
	# Route 21, "Limits": a refusal of the kernel's rules never reaches
	# the supervisor; a run that asked to see refusals (--log, --report,
	# --gate, --complain) is told so, and the program still gets EACCES
	# (complain mode does not lift it).
	fs=$scratch/fs
	fsrules_stage "$fs"
	for opt in "--log=$scratch/log" "--report=$scratch/report.json"; do
		RUN_OPTS=("$opt")
		run "$fs/fs.json" -- cat "$fs/ro/secret/key"
		[ "$rc" -eq 1 ] && grep -q 'cat: .*/ro/secret/key: Permission denied' "$out" ||
			fail "$opt: the secret was read, or not refused with EACCES"
		grep -q "^sysward: the policy's \"filesystem\" and \"network\" rules are the kernel's (Landlock): what they refuse fails with EACCES without reaching sysward, so it is not in the audit log, the report or the gate; run it again with --complain" "$out" ||
			fail "$opt: no word that the kernel's refusals are not seen"
		grep -q "^sysward: the program exited with status 1; the policy's \"filesystem\" rules are the kernel's" "$out" ||
			fail "$opt: not told how to find what they refused"
	done
	# complain mode: the file rules are judged by sysward (the read
	# runs, route 21b), the network's stay the kernel's, and it says so
	RUN_OPTS=(--complain)
	run "$fs/fs.json" -- cat "$fs/ro/secret/key"
	[ "$rc" -eq 0 ] && grep -q '^SECRET$' "$out" &&
		grep -q "read-file not granted by filesystem.paths\[2\]" "$out" ||
		fail "--complain: the read did not run, or was not reported"
	grep -q "^sysward: the policy's \"network\" rules stay the kernel's (Landlock) in complain mode" "$out" ||
		fail "--complain: not said that the network rules are still the kernel's"
	RUN_OPTS=()
	run "$fs/fs.json" -- cat "$fs/ro/pub"
	[ "$rc" -eq 0 ] && ! grep -q "rules are the kernel's" "$out" ||
		fail "a plain run warned, or could not read what the rules grant" ;;
fsrules_abi)
	# Older Landlock ABIs (tests/lib/pretend.c): ABI 3 has no network
	# rights: TCP is not restricted, `sysward check` says so, and
	# "strict" refuses the launch; ABI 1 has no truncate: dropped, said.
	fs=$scratch/fs
	fsrules_stage "$fs"
	KERNEL=("$PRETEND" --landlock-abi 3 --)
	run "$fs/fs.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO
	grep -q 'result: bind(PORT_NO) = 0' "$out" ||
		fail "ABI 3: a TCP bind was refused by a kernel that has no network rights?"
	grep -q 'ESCAPE: open(' "$out" && fail "ABI 3: a file rule did not hold"
	echo "+ sw-pretend --landlock-abi 3 sysward check"
	(cd "$fs" && "$PRETEND" --landlock-abi 3 -- "$SYSWARD" check fs.json) >"$out" 2>&1
	cat "$out"
	grep -q '^enforce: fs.json:[0-9]*:[0-9]*: network: this kernel.s Landlock has no network rights (ABI 4, Linux 6.7): TCP binds and connects are not restricted' "$out" ||
		fail "check does not say the network rules are dropped"
	sed 's/"network": {/"network": {"strict": true, /' "$fs/fs.json" >"$fs/strict.json"
	run "$fs/strict.json" -- true
	[ "$rc" -eq 125 ] && grep -q 'network: "strict": the running kernel.s Landlock (ABI 3) has no network rights' "$out" ||
		fail "strict did not refuse the launch"
	"$PRETEND" --landlock-abi 3 -- "$SYSWARD" info >"$out" 2>&1
	grep -q '^  TCP ports: *no (ABI 4, Linux 6.7)' "$out" &&
		grep -q '^  file rights: *all but ioctl-dev (ABI 5)' "$out" ||
		{ cat "$out"; fail "sysward info does not say what ABI 3 cannot enforce"; }
	KERNEL=("$PRETEND" --landlock-abi 2 --)
	echo "+ sw-pretend --landlock-abi 2 sysward check"
	(cd "$fs" && "$PRETEND" --landlock-abi 2 -- "$SYSWARD" check fs.json) >"$out" 2>&1
	cat "$out"
	grep -q "^enforce: fs.json:[0-9]*:[0-9]*: filesystem: this kernel's Landlock (ABI 2) cannot refuse truncate (Landlock ABI 3, Linux 6.2), ioctl-dev (Landlock ABI 5, Linux 6.10)" "$out" ||
		fail "check does not say which file rights are dropped"
	run "$fs/fs.json" -- "$fs/adv_fsrules" "$fs" $FS_OK $FS_NO
	grep -q 'ESCAPE: open(' "$out" && fail "ABI 2: a file rule did not hold"
	grep -q 'result: truncate(ro/pub) = 0' "$out" ||
		fail "ABI 2: truncate refused by a kernel without the right?" ;;
cache_other_uid)
	# Another uid plants a file, then a directory: sysward trusts
	# neither, writes into neither, and still runs.
	stage_cache
	cache_both
	"$ADV/adv_cache" forge "$allow_e" "$deny_e" >/dev/null || fail "forging"
	chown 65533:65533 "$deny_e"
	cache_probe "an entry of uid 65533"
	mv "$cache" "$nb/home/own" && mkdir -m 777 "$cache" && chown 65533:65533 "$cache" ||
		fail "staging"
	cp "$nb/home/own/"* "$cache/" && chown 65533:65533 "$cache/"* && chmod 666 "$cache/"* ||
		fail "staging"
	"$ADV/adv_cache" forge "$allow_e" "$cache/${deny_e##*/}" >/dev/null || fail "forging"
	ls -l "$cache" >"$scratch/planted"
	run_cached "$nb/deny.json" -- "$nb/adv_cache" probe
	expect_contained "a directory of uid 65533 widened deny.json"
	ls -l "$cache" | cmp -s - "$scratch/planted" || fail "sysward wrote into uid 65533's directory" ;;
cache_off)
	# --no-cache and SYSWARD_NO_CACHE=1: nothing read, nothing written,
	# the program confined; then, on, a warm launch reads its entry
	# (the file is not written again).
	stage_cache
	run_cached "$nb/deny.json" --no-cache -- "$nb/adv_cache" probe
	expect_contained "--no-cache lost the policy"
	[ ! -e "$cache" ] || fail "--no-cache wrote $cache"
	echo "+ SYSWARD_NO_CACHE=1"
	(cd / && env -u XDG_CACHE_HOME -u CACHE_DIRECTORY SYSWARD_NO_CACHE=1 \
		HOME="$nb/home" setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$nb/sysward" run --policy "$nb/deny.json" -- "$nb/adv_cache" probe) >"$out" 2>&1 </dev/null
	rc=$?
	cat "$out"
	expect_contained "SYSWARD_NO_CACHE=1 lost the policy"
	[ ! -e "$cache" ] || fail "SYSWARD_NO_CACHE=1 wrote $cache"
	cache_entry "$nb/deny.json"
	expect_contained
	[ "$(stat -c %a "$cache")" = 700 ] || fail "$cache is not 0700"
	ino=$(stat -c %i "$entry")
	run_cached "$nb/deny.json" -- "$nb/adv_cache" probe
	expect_contained "the warm launch lost the policy"
	[ "$(stat -c %i "$entry")" = "$ino" ] || fail "the warm launch did not use its entry" ;;
cache_concurrent_writers)
	# Eight cold launches of one policy at once: every program
	# confined, one whole entry, no temporary file left, and the next
	# launch reads it (its file is not written again).
	stage_cache
	pids=()
	for i in $(seq 8); do
		(cd / && env -u XDG_CACHE_HOME -u CACHE_DIRECTORY -u SYSWARD_NO_CACHE \
			HOME="$nb/home" setpriv --reuid 65534 --regid 65534 --clear-groups \
			"$nb/sysward" run --policy "$nb/deny.json" -- "$nb/adv_cache" probe) \
			>"$scratch/out.$i" 2>&1 </dev/null &
		pids+=($!)
	done
	for i in $(seq 8); do
		wait "${pids[$((i - 1))]}"; rc=$?
		cat "$scratch/out.$i"
		[ "$rc" -eq 0 ] && grep -q '^verdict: contained' "$scratch/out.$i" ||
			fail "concurrent run $i was not contained (exit $rc)"
	done
	ls -la "$cache"
	[ "$(ls -A "$cache" | wc -l)" -eq 1 ] || fail "not one entry: $(ls -A "$cache")"
	deny_e=$cache/$(ls "$cache")
	cp "$deny_e" "$scratch/deny.good"
	ino=$(stat -c %i "$deny_e")
	cache_probe "a concurrently written entry"
	[ "$(stat -c %i "$deny_e")" = "$ino" ] || fail "the warm launch did not use the entry" ;;
*)
	echo "check.sh: unknown test '$test'" >&2; exit 2 ;;
esac
echo "PASS [$test]"
