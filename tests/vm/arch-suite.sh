#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sysward in another architecture's QEMU guest (CTest label vm): the
# scenarios that depend on the architecture (tests/vm/guest-arch.sh: the
# supervisor's actions, the path guard, ABIs, argument widths, the
# listener, signals), on the patched kernel of ARCH, in one boot.
#
#   arch-suite.sh list ARCH                  the scenario ids (arch:NAME)
#   arch-suite.sh prepare ARCH BUILDDIR      the static cross build
#   arch-suite.sh boot ARCH BUILDDIR         boot once, run every scenario
#   arch-suite.sh result ARCH BUILDDIR ID    one scenario's verdict
#
# ARCH: arm64 or riscv64.  prepare builds BUILDDIR/vm-static-ARCH (scripts/build-static
# --arch ARCH); boot runs guest-arch.sh in qemu-images/run-vm --arch ARCH
# with those binaries and writes BUILDDIR/vm-results/ARCH.log; result
# prints one scenario's part of it and exits with its status (0 pass).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

die() { echo "arch-suite: error: $*" >&2; exit 1; }
arch_ok() { case $1 in arm64|riscv64) ;; *) die "unknown ARCH '$1' (arm64, riscv64)" ;; esac; }

boot() {
	local arch=$1 b=$2 st=$2/vm-static-$1 log=$2/vm-results/$1.log stage t0 rc want got n
	[ -x "$st/client/sysward" ] || die "$st has no static sysward: run 'arch-suite.sh prepare $arch $b' (CTest does, in vm.$arch.prepare)"
	stage=$b/vm-results/$arch.stage
	rm -rf "$stage"
	mkdir -p "$stage/adv" "$stage/src/tests/security"
	# shellcheck disable=SC2046
	cp -p $(sed -n 's/^ADV_PROGRAMS="\(.*\)"$/\1/p' "$HERE/guest-arch.sh" |
		tr ' ' '\n' | sed "s|^|$st/tests/security/|") "$stage/adv/" ||
		die "the adversarial programs of guest-arch.sh are not all in $st"
	cp -r "$SRC/tests/security/policies" "$stage/src/tests/security/"
	mkdir -p "$stage/src/policy" && cp -r "$SRC/policy/examples" "$stage/src/policy/"
	want=$(sh "$HERE/guest-arch.sh" --list | wc -l)
	echo "arch-suite: booting the $arch kernel to run $want scenarios (TCG)" >&2
	t0=$(date +%s)
	"$SRC/qemu-images/run-vm" --arch "$arch" --kernel patched --memory 1024 \
		--timeout "${SYSWARD_VM_TIMEOUT:-900}" \
		--add "$st/client/sysward" --add "$st/daemon/syswardd" \
		--add "$st/tests/integration/sw-probe" --add "$stage/adv" --add "$stage/src" \
		--add "$HERE/guest-arch.sh" -- sh ./guest-arch.sh >"$log.tmp" 2>"$b/vm-results/$arch.err"
	rc=$?
	mv "$log.tmp" "$log"
	got=$(grep -c '^@@VM-END ' "$log")
	n=$(grep -c '^@@VM-END .* rc=0 ' "$log")
	echo "arch-suite: $arch: $got of $want scenarios ran, $n passed, in $(( $(date +%s) - t0 )) s (run-vm exit $rc)"
	awk '/^@@VM-END/ {print "  " $2 " " $3 " " $4}' "$log"
	if [ "$rc" -ne 0 ] || [ "$got" -ne "$want" ]; then
		echo "---- run-vm stderr:"; tail -n 40 "$b/vm-results/$arch.err"
		return 1
	fi
}

case ${1:-} in
list) [ $# -eq 2 ] || die "usage: list ARCH"; arch_ok "$2"; sh "$HERE/guest-arch.sh" --list ;;
prepare)
	[ $# -eq 3 ] || die "usage: prepare ARCH BUILDDIR"; arch_ok "$2"
	"$SRC/scripts/build-static" --arch "$2" "$3/vm-static-$2" >/dev/null ||
		die "scripts/build-static --arch $2 failed" ;;
boot) [ $# -eq 3 ] || die "usage: boot ARCH BUILDDIR"; arch_ok "$2"; mkdir -p "$3/vm-results"; boot "$2" "$3" ;;
result)	# vm-suite.sh's: its log is vm-results/ARCH.log, as a kernel's
	[ $# -eq 4 ] || die "usage: result ARCH BUILDDIR ID"; arch_ok "$2"
	exec bash "$HERE/vm-suite.sh" result "$2" "$3" "$4" ;;
*) sed -n '9,13p' "$0"; exit 2 ;;
esac
