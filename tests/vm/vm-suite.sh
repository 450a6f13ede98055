#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The end-to-end suite in QEMU (CTest label vm): the sandbox's integration
# and daemon scenarios, and the example policies on real Debian programs,
# run INSIDE the guest on the patched kernel, in one boot; and the refusal
# scenarios on the unpatched kernel, in a second boot.
#
#   vm-suite.sh list KERNEL                   the scenario ids (SUITE:NAME)
#   vm-suite.sh prepare BUILDDIR              static binaries + guest rootfs
#   vm-suite.sh boot KERNEL BUILDDIR          boot once, run every scenario
#   vm-suite.sh result KERNEL BUILDDIR ID     one scenario's verdict
#
# KERNEL: patched or unpatched (qemu-images/run-vm --kernel). prepare builds
# BUILDDIR/vm-static (scripts/build-static) and BUILDDIR/vm-rootfs
# (qemu-images/guest-rootfs: bash, coreutils, util-linux, python3 ... with
# their shared libraries, so that the runners, which are bash scripts, run
# unchanged in the guest). boot writes BUILDDIR/vm-results/KERNEL.log, the
# framed output of tests/vm/guest-run.sh; result prints one scenario's part
# of it and exits with its status (0 pass, 77 skipped, else fail).
#
# Scenarios on the patched kernel: every scenario of
# tests/integration/run.sh and tests/daemon/daemon-tests.sh (which replays
# the integration scenarios through syswardd), except those listed in
# HOST_ONLY below with the reason, plus tests/vm/guest-examples.sh and
# every adversarial test of tests/security/check.sh (the int $0x80 ones
# can run only here: the host kernel runs no 32-bit code).
# On the unpatched kernel: tests/vm/guest-unpatched.sh.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

# Scenarios that need what the guest does not have:
#  socket_activation: systemd-socket-activate (no systemd in the guest).
#  path_race: two CPUs, so that a thread flips the path while another
#   thread's openat is checked; the guest has one (run-vm -smp 1), where
#   the race never alternates and the test cannot test anything.
#  terminal_*: an interactive shell in tmux pressing Ctrl-C/Ctrl-Z at
#   sysward run: job control of the client, the same on any kernel;
#   the guest has no tmux.
HOST_ONLY=" daemon:socket_activation security:path_race security:terminal_ctrl_c "
HOST_ONLY+=" security:terminal_pipeline_ctrl_c security:terminal_script_reads "
HOST_ONLY+=" security:terminal_ctrl_z security:terminal_pipeline_ctrl_z "

die() { echo "vm-suite: error: $*" >&2; exit 1; }

list() {
	local s
	case $1 in
	patched)
		for s in $(bash "$SRC/tests/integration/run.sh" --list); do
			echo "integration:$s"
		done
		for s in $(bash "$SRC/tests/daemon/daemon-tests.sh" --list); do
			echo "daemon:$s"
		done
		for s in $(bash "$HERE/guest-examples.sh" --list); do
			echo "examples:$s"
		done
		for s in $(bash "$SRC/tests/security/check.sh" --list); do
			echo "security:$s"
		done
		;;
	unpatched)
		for s in $(bash "$HERE/guest-unpatched.sh" --list); do
			echo "unpatched:$s"
		done
		;;
	*) die "unknown kernel '$1' (patched or unpatched)" ;;
	esac | while read -r s; do
		[[ $HOST_ONLY == *" $s "* ]] || echo "$s"
	done
}

prepare() {
	local b=$1 stamp
	scripts_static=$("$SRC/scripts/build-static" "$b/vm-static") || die "scripts/build-static failed"
	# The rootfs depends on the script and the host's packages only.
	stamp=$(cat "$SRC/qemu-images/guest-rootfs" /var/lib/dpkg/status 2>/dev/null | sha256sum | cut -c1-16)
	if [ "$(cat "$b/vm-rootfs.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -d "$b/vm-rootfs" ]; then
		"$SRC/qemu-images/guest-rootfs" "$b/vm-rootfs" || die "qemu-images/guest-rootfs failed"
		echo "$stamp" >"$b/vm-rootfs.stamp"
	fi
}

boot() {
	local kernel=$1 b=$2 st=$2/vm-static t0 rc n want got
	local stage=$b/vm-results/$kernel.stage
	[ -x "$st/client/sysward" ] || die "$st has no static sysward: run 'vm-suite.sh prepare $b' (CTest does, in vm.prepare)"
	rm -rf "$stage"
	mkdir -p "$stage/src/tests/integration" "$stage/src/tests/daemon" "$stage/src/tests/vm" "$stage/src/tests/lib" \
		 "$stage/src/policy" "$stage/src/tests/security/adv"
	cp "$SRC/tests/integration/run.sh" "$stage/src/tests/integration/"
	cp "$SRC/tests/daemon/daemon-tests.sh" "$stage/src/tests/daemon/"
	cp "$SRC/tests/lib/common.sh" "$SRC/tests/lib/stage.sh" "$stage/src/tests/lib/"
	cp "$HERE/guest-examples.sh" "$HERE/guest-unpatched.sh" "$stage/src/tests/vm/"
	cp -r "$SRC/policy/examples" "$stage/src/policy/"
	cp "$SRC/tests/security/check.sh" "$stage/src/tests/security/"
	cp -r "$SRC/tests/security/policies" "$stage/src/tests/security/"
	cp -p "$st"/tests/security/adv_* "$stage/src/tests/security/adv/"
	list "$kernel" >"$stage/scenarios"
	want=$(wc -l <"$stage/scenarios")
	local adds=(--add "$st/client/sysward" --add "$st/daemon/syswardd"
		    --add "$st/tests/integration/sw-probe" --add "$st/tests/daemon/swd-raw"
		    --add "$stage/src" --add "$stage/scenarios" --add "$HERE/guest-run.sh")
	[ -x "$st/tests/integration/sw-probe32" ] && adds+=(--add "$st/tests/integration/sw-probe32")
	echo "vm-suite: booting the $kernel kernel to run $want scenarios (TCG: this takes minutes)" >&2
	t0=$(date +%s)
	"$SRC/qemu-images/run-vm" --kernel "$kernel" --timeout "${SYSWARD_VM_TIMEOUT:-3000}" --memory 1024 \
		--rootfs "$b/vm-rootfs" "${adds[@]}" -- bash ./guest-run.sh \
		>"$b/vm-results/$kernel.log.tmp" 2>"$b/vm-results/$kernel.err"
	rc=$?
	mv "$b/vm-results/$kernel.log.tmp" "$b/vm-results/$kernel.log"
	got=$(grep -c '^@@VM-END ' "$b/vm-results/$kernel.log")
	n=$(grep -c '^@@VM-END .* rc=0 ' "$b/vm-results/$kernel.log")
	echo "vm-suite: $kernel kernel $(sed -n 's/^@@VM-KERNEL //p' "$b/vm-results/$kernel.log"):" \
	     "$got of $want scenarios ran, $n passed, in $(( $(date +%s) - t0 )) s (run-vm exit $rc)"
	grep '^@@VM-WARN' "$b/vm-results/$kernel.log"
	awk '/^@@VM-END/ {print "  " $2 " " $3 " " $4}' "$b/vm-results/$kernel.log"
	if [ "$rc" -ne 0 ] || [ "$got" -ne "$want" ]; then
		echo "---- run-vm stderr:"; tail -n 40 "$b/vm-results/$kernel.err"
		return 1
	fi
	return 0
}

result() {
	local kernel=$1 b=$2 id=$3 log=$2/vm-results/$1.log end rc
	[ -s "$log" ] || die "$log missing: the vm.$kernel.boot test did not run"
	end=$(grep -F -m1 -- "@@VM-END $id " "$log") ||
		{ echo "scenario $id did not run in the guest (see vm.$kernel.boot)"; return 1; }
	awk -v id="$id" '$0 == "@@VM-BEGIN " id {on = 1; next} index($0, "@@VM-END " id " ") == 1 {exit} on' "$log"
	echo "(in the guest: $end)"
	rc=${end#* rc=}
	rc=${rc%% *}
	return "$rc"
}

case ${1:-} in
list) [ $# -eq 2 ] || die "usage: list KERNEL"; list "$2" ;;
prepare) [ $# -eq 2 ] || die "usage: prepare BUILDDIR"; mkdir -p "$2/vm-results"; prepare "$2" ;;
boot) [ $# -eq 3 ] || die "usage: boot KERNEL BUILDDIR"; mkdir -p "$3/vm-results"; boot "$2" "$3" ;;
result) [ $# -eq 4 ] || die "usage: result KERNEL BUILDDIR ID"; result "$2" "$3" "$4" ;;
*) sed -n '4,12p' "$0"; exit 2 ;;
esac
