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
# tests/integration/run.sh (its functions and the rows of its run.rows),
# tests/integration/record.sh (--report, --gate, learn)
# and tests/daemon/daemon-tests.sh (its own scenarios; of its replays of
# the integration scenarios through syswardd, only those tagged
# needs-ia32: see suite below), except those tagged with
# what the guest lacks (GUEST_LACKS below), plus tests/vm/guest-examples.sh and
# every adversarial test of tests/security/check.sh (the int $0x80 ones
# can run only here: the host kernel runs no 32-bit code).
# On the unpatched kernel: tests/vm/guest-unpatched.sh.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

. "$SRC/tests/lib/common.sh"

# What the guest does not have: scenarios tagged with any of these
# (tests/lib/common.sh says why each one is missing) run on the host only.
GUEST_LACKS="needs-systemd needs-smp needs-tmux needs-python sweep needs-kcmp"

die() { echo "vm-suite: error: $*" >&2; exit 1; }

# suite SUITE RUNNER: RUNNER's scenarios as SUITE:NAME, but those tagged
# with what the guest lacks.
suite() {
	local s list lacking=" " ia32
	list=$(sw_untagged "$2" $GUEST_LACKS) || die "$2: wrong scenario tags"
	# The daemon replays the integration scenarios (embedded:NAME). The
	# guest runs each of them embedded (suite integration), and through
	# syswardd only those tagged needs-ia32, which this machine's kernel
	# may not run: for the others the replay differs from the embedded run
	# by the daemon's transport alone, which this kernel's daemon suite
	# proves (and the host runs every replay), while the guest's one CPU
	# without KVM pays for it (231 s of a 1,411 s boot at ae39e00).
	if [ "$1" = daemon ]; then
		local it=$SRC/tests/integration/run.sh kept
		kept=" $(sw_untagged "$it" $GUEST_LACKS | tr '\n' ' ') " ||
			die "$it: wrong scenario tags"
		ia32=" $(sw_tagged "$it" needs-ia32 | tr '\n' ' ') " ||
			die "$it: wrong scenario tags"
		for s in $(bash "$it" --list); do
			[[ $kept == *" $s "* && $ia32 == *" $s "* ]] || lacking+="embedded:$s "
		done
	fi
	for s in $list; do
		[[ $lacking == *" $s "* ]] || echo "$1:$s"
	done
}

list() {
	case $1 in
	patched)
		suite integration "$SRC/tests/integration/run.sh"
		suite record "$SRC/tests/integration/record.sh"
		suite daemon "$SRC/tests/daemon/daemon-tests.sh"
		suite examples "$HERE/guest-examples.sh"
		suite security "$SRC/tests/security/check.sh"
		;;
	unpatched)
		suite unpatched "$HERE/guest-unpatched.sh"
		;;
	*) die "unknown kernel '$1' (patched or unpatched)" ;;
	esac
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
		 "$stage/src/tests/oci" \
		 "$stage/src/policy" "$stage/src/tests/security/adv"
	cp "$SRC/tests/integration/run.sh" "$SRC/tests/integration/run.rows" \
	   "$SRC/tests/integration/record.sh" "$stage/src/tests/integration/"
	cp "$SRC/tests/oci/lib.sh" "$stage/src/tests/oci/"	# t_learn_runc's runc check
	cp "$SRC/tests/daemon/daemon-tests.sh" "$SRC/tests/daemon/daemon-tests.rows" "$stage/src/tests/daemon/"
	cp "$SRC/tests/lib/common.sh" "$SRC/tests/lib/rows.sh" "$SRC/tests/lib/stage.sh" \
	   "$SRC/tests/lib/nsbox.sh" "$SRC/tests/lib/fsrules.sh" "$SRC/tests/lib/sandbox.sh" "$SRC/tests/lib/audit-check.py" "$stage/src/tests/lib/"
	cp "$HERE/guest-examples.sh" "$HERE/guest-unpatched.sh" "$stage/src/tests/vm/"
	cp -r "$SRC/policy/examples" "$stage/src/policy/"
	cp "$SRC/tests/security/check.sh" "$SRC/tests/security/check.rows" "$stage/src/tests/security/"
	cp -r "$SRC/tests/security/policies" "$stage/src/tests/security/"
	cp -p "$st"/tests/security/adv_* "$stage/src/tests/security/adv/"
	# SYSWARD_VM_ONLY=REGEX (extended, on SUITE:NAME) boots with the
	# matching scenarios only: a developer's shortcut, the others fail as
	# "did not run".
	list "$kernel" | grep -E -- "${SYSWARD_VM_ONLY:-.}" >"$stage/scenarios"
	want=$(wc -l <"$stage/scenarios")
	local adds=(--add "$st/client/sysward" --add "$st/daemon/syswardd"
		    --add "$st/tests/integration/sw-probe" --add "$st/tests/daemon/swd-raw"
		    --add "$st/tests/sw-pretend"
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
