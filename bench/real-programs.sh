#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Real programs under sysward, side by side with the same programs
# unconfined: CPython's regression tests that exercise what a sandbox is
# most likely to change (processes, signals, threads, the os module).
#
#   bench/real-programs.sh [-b BUILD] [-u UID] [-m MODES] [-t] [-k DIR] [TEST...]
#
#   -b BUILD  build directory (default: build)
#   -u UID    run every side as this uid (default: the caller; as root,
#             also try -u 65534)
#   -m MODES  comma-separated sides to compare with "unconfined":
#             embedded (allow-all with a supervised path rule),
#             docker (policy/examples/docker-default.json),
#             daemon (the allow-all policy through a private syswardd)
#             (default: embedded,docker,daemon)
#   -t        at a terminal: each side on a fresh pseudo-terminal of its
#             own, 24x80, nothing typed (tests/lib/ptyrun.py, made by
#             the uid the tests run as, as a login's terminal is the
#             user's), and the daemon side with -t (a terminal of the
#             program's own, relayed by the client)
#   -k DIR    keep every side's log and outcomes in DIR
#   TEST      CPython test modules (default: test_subprocess test_signal
#             test_os test_threading; with -t: test_pty test_ioctl test_os
#             test_signal test_subprocess)
#
# Each side runs `python3 -m test -v MODULE` from the same state: signal
# dispositions reset to their defaults (`env --default-signal`; a shell's
# background job starts with SIGINT ignored, which CPython's SIGINT tests
# do not expect), a fresh scratch directory of the uid as working
# directory.  For every module it prints each side's result and the
# tests whose outcome (ok, FAIL, ERROR, skipped) differs from the
# unconfined side's, and exits 1 if any differs, except those a
# documented defence makes (the table "expected" below, each with its
# reason: printed, not failed).  Needs Debian's python3
# and libpython3.11-testsuite (scripts/install-deps installs them; exit
# 77 without them).  Not
# part of scripts/test: the four modules take about 3 minutes per side.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
as_uid=$(id -u)
modes=embedded,docker,daemon
terminal=
keep=
while getopts b:u:m:tk: o; do
	case $o in
	b) build=$(cd "$OPTARG" && pwd) ;;
	u) as_uid=$OPTARG ;;
	m) modes=$OPTARG ;;
	t) terminal=-t ;;
	k) keep=$OPTARG ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=("$@")
if [ ${#tests[@]} -eq 0 ] && [ -n "$terminal" ]; then
	tests=(test_pty test_ioctl test_os test_signal test_subprocess)
elif [ ${#tests[@]} -eq 0 ]; then
	tests=(test_subprocess test_signal test_os test_threading)
fi

py=/usr/bin/python3
sysward=$build/client/sysward
syswardd=$build/daemon/syswardd
for f in "$py" "$sysward" "$syswardd"; do
	[ -x "$f" ] || { echo "real-programs: $f is missing (build first; scripts/install-deps)" >&2; exit 2; }
done
$py -c 'import test.support' 2>/dev/null ||
	{ echo "real-programs: CPython's test package is missing: apt-get install libpython3.11-testsuite" >&2; exit 77; }

# shellcheck source=../tests/lib/stage.sh
. "$top/tests/lib/stage.sh"
work=$(mktemp -d /tmp/sysward-real.XXXXXX)
chmod 0755 "$work"
daemon_pid=
cleanup() {
	[ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
	rm -rf "$work"
	sw_stage_cleanup
}
trap cleanup EXIT

cat >"$work/allow-supervised.json" <<'EOF'
{"defaultAction": "SCMP_ACT_ALLOW",
 "syscalls": [
   {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errno": "EACCES",
    "paths": [{"index": 1, "prefix": "/sysward-denied/"}]},
   {"names": ["open"], "action": "SCMP_ACT_ERRNO", "errno": "EACCES",
    "paths": [{"index": 0, "prefix": "/sysward-denied/"}]}]}
EOF
[ -f "$work/allow-supervised.json" ] || exit 2
chmod 0644 "$work/allow-supervised.json"

ptyrun=$top/tests/lib/ptyrun.py
docker_policy=$top/policy/examples/docker-default.json
as_user=()
if [ "$as_uid" != "$(id -u)" ]; then
	as_user=(setpriv --reuid "$as_uid" --regid "$as_uid" --clear-groups --)
	# What that uid runs or reads, copied where it can (a checkout in
	# root's 0700 home: tests/lib/stage.sh).
	SW_STAGE_UID=$as_uid
	sw_stage_for_others sysward ptyrun docker_policy || exit 2
fi

# -t: the words that run a side on a terminal of its own.
in_pty=()
[ -n "$terminal" ] && in_pty=("$py" "$ptyrun" -s 24x80 -t 1800 --)

if [[ ,$modes, == *,daemon,* ]]; then
	"$syswardd" --socket "$work/sw.sock" >"$work/syswardd.log" 2>&1 &
	daemon_pid=$!
	for _ in $(seq 100); do [ -S "$work/sw.sock" ] && break; sleep 0.1; done
	[ -S "$work/sw.sock" ] || { echo "real-programs: syswardd did not start" >&2; cat "$work/syswardd.log" >&2; exit 2; }
fi

# side MODE: the command prefix that runs a program on that side.
side() {
	case $1 in
	unconfined) echo "" ;;
	embedded) echo "$sysward run --policy $work/allow-supervised.json --" ;;
	docker) echo "$sysward run --policy $docker_policy --" ;;
	daemon) echo "$sysward run $terminal --daemon=$work/sw.sock --policy $work/allow-supervised.json --" ;;
	esac
}

# outcomes LOG: "test-id outcome" per test of a verbose unittest log.
# The outcome ends the test's line ("test_x (id) ... ok"), or a later
# one when the test printed (test_pty's children do) or has a docstring,
# which unittest prints on a line of its own before " ... ".
outcomes() {
	awk '
	function outcome(s) {
		if (match(s, /^(ok|FAIL|ERROR|skipped|expected failure|unexpected success)/))
			return substr(s, RSTART, RLENGTH)
		return ""
	}
	match($0, /^test[^ ]* \([^)]*\)/) {
		pending = substr($0, 1, RLENGTH)
		rest = substr($0, RLENGTH + 1)
		if (rest ~ /^ \.\.\. / && (o = outcome(substr(rest, 6))) != "") {
			print pending " " o
			pending = ""
		}
		next
	}
	pending != "" {
		i = index($0, " ... ")
		o = i ? outcome(substr($0, i + 5)) : outcome($0)
		if (o != "") {
			print pending " " o
			pending = ""
		}
	}' "$1" | sort
}

# Differences that a documented defence makes, "test-id|uid|reason"
# (uid: the uid the tests run as, or * for any): printed, not failed.
expected=(
	"test_chown_with_root (test.test_os.ChownFileTests.test_chown_with_root)|0|root keeps no capability unless --cap (docs/security.md, promise 3): chown to another uid needs CAP_CHOWN"
)
expected_reason() {
	local e
	for e in "${expected[@]}"; do
		IFS='|' read -r id uid why <<<"$e"
		if [ "$id" = "$1" ] && { [ "$uid" = '*' ] || [ "$uid" = "$as_uid" ]; }; then
			echo "$why"
			return 0
		fi
	done
	return 1
}

status=0
for t in "${tests[@]}"; do
	for m in unconfined ${modes//,/ }; do
		dir=$work/$m.$t
		mkdir -p "$dir" && chown "$as_uid:$as_uid" "$dir"
		start=$(date +%s)
		# shellcheck disable=SC2046 # the side's prefix is words
		(cd "$dir" && env --default-signal "${as_user[@]}" "${in_pty[@]}" $(side "$m") \
			env HOME="$dir" TMPDIR="$dir" $py -m test -v "$t") \
			>"$work/$m.$t.log" 2>&1 </dev/null
		rc=$?
		# A terminal ends its lines with \r\n (ONLCR).
		[ -n "$terminal" ] && sed -i 's/\r$//' "$work/$m.$t.log"
		outcomes "$work/$m.$t.log" >"$work/$m.$t.out"
		[ -n "$keep" ] && mkdir -p "$keep" && cp "$work/$m.$t.log" "$work/$m.$t.out" "$keep/"
		printf '%-16s %-10s exit %-3s %4ss  %s tests, %s not ok, %s skipped\n' "$t" "$m" "$rc" \
			$(( $(date +%s) - start )) "$(wc -l <"$work/$m.$t.out")" \
			"$(grep -cE ' (FAIL|ERROR|unexpected success)$' "$work/$m.$t.out")" \
			"$(grep -c ' skipped$' "$work/$m.$t.out")"
		if [ "$m" = unconfined ]; then
			# Nothing to compare is no agreement.
			[ -s "$work/$m.$t.out" ] || {
				echo "    no test outcome in the unconfined log (python3 -m test -v $t)"
				status=1
			}
			continue
		fi
		if ! diff -q "$work/unconfined.$t.out" "$work/$m.$t.out" >/dev/null; then
			unexpected=0
			while read -r id; do
				if why=$(expected_reason "$id"); then
					echo "    expected: $id ($why)"
				else
					unexpected=1
					echo "    differs:  $id: unconfined $(grep -F "$id " "$work/unconfined.$t.out" | sed 's/.*) //'), $m $(grep -F "$id " "$work/$m.$t.out" | sed 's/.*) //')"
				fi
			done < <(diff "$work/unconfined.$t.out" "$work/$m.$t.out" |
				sed -n 's/^[<>] \(.*)\) [^)]*$/\1/p' | sort -u)
			[ $unexpected = 0 ] && continue
			status=1
			mkdir -p "$top/bench/out" &&
				cp "$work/$m.$t.log" "$top/bench/out/real-programs.$m.$t.log" &&
				echo "    (log: bench/out/real-programs.$m.$t.log)"
		fi
	done
done
exit $status
