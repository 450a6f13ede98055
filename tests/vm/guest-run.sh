#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Runs inside the QEMU guest (started by tests/vm/vm-suite.sh boot): runs
# every scenario listed in /extra/scenarios, one per line as SUITE:NAME, and
# frames each one's output on stdout for the host to split up:
#
#   @@VM-BEGIN SUITE:NAME
#   ...the runner's stdout and stderr...
#   @@VM-END SUITE:NAME rc=N secs=S
#
# SUITE: integration (tests/integration/run.sh), record (record.sh), daemon
# (tests/daemon/daemon-tests.sh), examples (tests/vm/guest-examples.sh),
# unpatched (tests/vm/guest-unpatched.sh), security
# (tests/security/check.sh, programs in src/tests/security/adv). The
# binaries are the static ones
# in /extra; the scripts and policy examples are under /extra/src, laid out
# as in the source tree. Exit status: 0 once every scenario has run.
set -u
export SYSWARD=/extra/sysward SYSWARDD=/extra/syswardd PROBE=/extra/sw-probe
export SWD_RAW=/extra/swd-raw PRETEND=/extra/sw-pretend SRCDIR=/extra/src TMPDIR=/tmp
export PROBE32=
[ -x /extra/sw-probe32 ] && PROBE32=/extra/sw-probe32
cd /extra || exit 1
echo "@@VM-KERNEL $(uname -r)"
# Pseudo-terminals, as on the host (script(1) in no_controlling_tty).
mkdir -p /dev/pts
grep -qs ' /dev/pts devpts ' /proc/self/mounts || mount -t devpts -o ptmxmode=0666 devpts /dev/pts ||
	echo "@@VM-WARN cannot mount devpts"
[ -e /dev/ptmx ] || ln -s pts/ptmx /dev/ptmx
# The loopback interface, up as on the host (connect scenarios use it).
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null ||
	echo "@@VM-WARN cannot bring up lo"
# Debian's tools in /bin (qemu-images/guest-rootfs); a missing one is a
# broken guest, not a failed scenario.
for t in bash timeout setpriv setsid python3 gawk diff; do
	command -v "$t" >/dev/null || echo "@@VM-WARN missing tool $t"
done
# tests/security/check.sh: its programs, policies and generated policy (as
# tests/security/CMakeLists.txt makes it on the host).
export ADV=$SRCDIR/tests/security/adv POL=$SRCDIR/tests/security/policies GEN=/tmp/security
# One vCPU: the guard-setup race is a functional check here (the host,
# with two CPUs, races it for real); 15 s of it is plenty.
export SW_GUARD_SETUP_SECONDS=15
mkdir -p "$GEN"
sed "s|@SW_OWN_DIR@|$GEN/own|g" "$POL/own-filters.json.in" >"$GEN/own-filters.json"
# What every process is doing (state, where it sleeps, its syscall):
# printed into a scenario's output when it is about to time out, so that
# a hang in the guest can be read from the log.
dump_procs() {
	local d t st cmd
	for d in /proc/[0-9]*; do
		# (Files of /proc have size 0: read, not tested with -s.)
		cmd=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null | cut -c1-160)
		[ -n "$cmd" ] || continue
		st=$(cut -d' ' -f3,4 "$d/stat" 2>/dev/null)
		printf '%s state,ppid=%s wchan=%s syscall=%s tracer=%s: %s\n' "${d#/proc/}" "$st" \
			"$(cat "$d/wchan" 2>/dev/null)" "$(cut -d' ' -f1 "$d/syscall" 2>/dev/null)" \
			"$(sed -n 's/^TracerPid:[[:space:]]*//p' "$d/status" 2>/dev/null)" "$cmd"
		for t in "$d"/task/*; do
			[ "$t" != "$d/task/${d#/proc/}" ] || continue
			printf '  thread %s state=%s wchan=%s syscall=%s\n' "${t##*/}" \
				"$(cut -d' ' -f3 "$t/stat" 2>/dev/null)" "$(cat "$t/wchan" 2>/dev/null)" \
				"$(cut -d' ' -f1 "$t/syscall" 2>/dev/null)"
		done
	done
}
watchdog() {
	local sp
	sleep "$1" & sp=$!
	trap 'kill $sp 2>/dev/null; exit 0' TERM
	wait $sp
	echo "---- vm: processes $2 s before the scenario's time limit:"
	dump_procs
}
limit=${SYSWARD_VM_SCENARIO_TIMEOUT:-300}
while IFS= read -r id; do
	[ -n "$id" ] || continue
	suite=${id%%:*}
	name=${id#*:}
	case $suite in
	integration) runner=$SRCDIR/tests/integration/run.sh ;;
	record) runner=$SRCDIR/tests/integration/record.sh ;;
	daemon) runner=$SRCDIR/tests/daemon/daemon-tests.sh ;;
	examples) runner=$SRCDIR/tests/vm/guest-examples.sh ;;
	unpatched) runner=$SRCDIR/tests/vm/guest-unpatched.sh ;;
	security) runner=$SRCDIR/tests/security/check.sh ;;
	*) echo "@@VM-BEGIN $id"; echo "unknown suite '$suite'"; echo "@@VM-END $id rc=2 secs=0"; continue ;;
	esac
	t0=$(date +%s%N)
	# 300 s: the longest scenario takes 150 s under TCG.  In the
	# foreground: an asynchronous command of a shell without job
	# control starts with SIGINT and SIGQUIT ignored.
	watchdog $((limit - 20)) 20 >/tmp/vm-scenario.diag 2>&1 </dev/null &
	dog=$!
	timeout -k 10 "$limit" bash "$runner" "$name" >/tmp/vm-scenario.out 2>&1 </dev/null
	rc=$?
	kill $dog 2>/dev/null
	wait $dog 2>/dev/null
	t1=$(date +%s%N)
	echo "@@VM-BEGIN $id"
	cat /tmp/vm-scenario.out /tmp/vm-scenario.diag
	# Leftovers of a failed scenario must not disturb the next one.
	rm -f /tmp/vm-scenario.out /tmp/vm-scenario.diag
	printf '@@VM-END %s rc=%d secs=%d.%01d\n' "$id" "$rc" $(( (t1 - t0) / 1000000000 )) \
		$(( (t1 - t0) / 100000000 % 10 ))
done </extra/scenarios
echo "@@VM-DONE"
