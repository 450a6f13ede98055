#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# runc as the oracle: for public seccomp profiles, every call of a probe
# (probe.c: each x86-64 system call with harmless arguments, arguments the
# profiles' conditions look at, numbers no kernel has, the x32 and i386
# ABIs) must get under `sysward run --policy PROFILE` exactly what it gets
# in a runc container under the same profile as Docker or Podman hand it
# to runc, except where docs/security.md's table of deliberate differences
# ("sysward and runc") says what sysward answers instead.
#
#   run.sh --list          print the scenario names (one CTest test each)
#   run.sh SCENARIO...     run scenarios; exit 0 pass, 1 fail, 77 skipped
#
# Environment (set by CTest, see CMakeLists.txt):
#   SYSWARD    the sysward binary       OCI_PROBE  sw-oci-probe (static)
#   SRCDIR     the source tree
#
# Both sides run in runc containers of the same hand-made bundle (runc
# spec; a root of the static probe, busybox-static and read-only binds of
# sysward and /usr; the engine's default capabilities), so that the kernel
# answers every call the same way and only the seccomp decision can
# differ: one with linux.seccomp set to the profile converted by
# oci-seccomp.py, the other with no seccomp section, running sysward with
# the original profile and --cap with the same capabilities.  No image is
# downloaded.  Skipped (77) only when runc cannot run a container here.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$(cd "$HERE/../.." && pwd)}
PYTHON=$(command -v /usr/bin/python3 || command -v python3)

. "$HERE/../lib/common.sh"
. "$HERE/lib.sh"
W=

# The engines' default capability sets, from their code: Moby's
# daemon/pkg/oci/caps/defaults.go, containers/common's
# pkg/config/default.go (DefaultCapabilities).
MOBY_CAPS=CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_FSETID,CAP_FOWNER,CAP_MKNOD,CAP_NET_RAW,CAP_SETGID,CAP_SETUID,CAP_SETFCAP,CAP_SETPCAP,CAP_NET_BIND_SERVICE,CAP_SYS_CHROOT,CAP_KILL,CAP_AUDIT_WRITE
PODMAN_CAPS=CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_FOWNER,CAP_FSETID,CAP_KILL,CAP_NET_BIND_SERVICE,CAP_SETFCAP,CAP_SETGID,CAP_SETPCAP,CAP_SETUID,CAP_SYS_CHROOT

# bundle DIR SECCOMP-JSON|- CAPS ARG...: a runc bundle in DIR whose
# process is ARG... with CAPS (bounding, effective, permitted), running
# on $W/rootfs read-only, with linux.seccomp from the file (or none: -).
bundle() {
	local dir=$1 seccomp=$2 caps=$3
	shift 3
	mkdir -p "$dir" || return 1
	(cd "$dir" && runc spec) || return 1
	"$PYTHON" - "$dir/config.json" "$seccomp" "$caps" "$W" "$SYSWARD" "$@" <<-'EOF'
	import json, sys
	path, seccomp, caps, w, sysward, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
	with open(path) as f:
	    spec = json.load(f)
	spec["root"] = {"path": w + "/rootfs", "readonly": True}
	p = spec["process"]
	p["terminal"] = False
	p["args"] = args
	p["env"] = ["PATH=/bin", "LC_ALL=C"]
	c = caps.split(",")
	p["capabilities"] = {"bounding": c, "effective": c, "permitted": c}
	ro = ["rbind", "ro", "nosuid", "nodev"]
	spec["mounts"] += [
	    {"destination": "/usr", "type": "bind", "source": "/usr", "options": ro},
	    {"destination": "/sysward", "type": "bind", "source": sysward, "options": ro},
	    {"destination": "/profile.json", "type": "bind", "source": w + "/profile.json", "options": ro},
	]
	if seccomp != "-":
	    with open(seccomp) as f:
	        spec["linux"]["seccomp"] = json.load(f)
	with open(path, "w") as f:
	    json.dump(spec, f, indent=1)
	EOF
}

# A root filesystem of static binaries: the probe and busybox (for a
# shell when a failure needs looking into).  /lib and /lib64 point into
# the /usr bind, for a dynamically linked sysward.
make_rootfs() {
	oci_rootfs "$W/rootfs" "$OCI_PROBE"
}

# differential ENGINE CAPS PROFILE: the test itself.
differential() {
	local engine=$1 caps=$2 profile=$3 start=$SECONDS
	make_rootfs || { fail "cannot make the root filesystem"; return; }
	cp "$profile" "$W/profile.json"
	"$PYTHON" "$HERE/oci-seccomp.py" --engine "$engine" --cap "$caps" \
		"$profile" >"$W/seccomp.json" ||
		{ fail "oci-seccomp.py could not convert $profile"; return; }
	bundle "$W/runc" "$W/seccomp.json" "$caps" /probe ||
		{ fail "cannot make the runc bundle"; return; }
	bundle "$W/sysward" - "$caps" /sysward run -q --policy /profile.json \
		--cap "$caps" -- /probe ||
		{ fail "cannot make the sysward bundle"; return; }
	"$OCI_PROBE" -l >"$W/calls"

	container runc "$W/runc"
	expect_rc 0
	container sysward "$W/sysward"
	expect_rc 0
	[ -s "$W/sysward.err" ] && fail "sysward printed: $(head -5 "$W/sysward.err")"
	"$PYTHON" "$HERE/compare.py" --calls "$W/calls" \
		--table "$SRCDIR/docs/security.md" "$W/runc.out" "$W/sysward.out" ||
		fail "sysward and runc differ beyond docs/security.md's table (above)"
	echo "($engine profile $(basename "$profile"), $((SECONDS - start)) s)"
}

# ---------------------------------------------------------------- scenarios

t_differential_docker_default() {
	# policy/examples/docker-default.json: Moby's profile as the
	# examples carry it (an older one, io_uring allowed).
	differential moby "$MOBY_CAPS" "$SRCDIR/policy/examples/docker-default.json"
}

t_differential_moby() {
	# Moby's current default profile (profiles/README.md: where from).
	differential moby "$MOBY_CAPS" "$HERE/profiles/moby-default.json"
}

t_differential_podman() {
	# Podman's default profile, containers/common pkg/seccomp/seccomp.json:
	# defaultErrno ENOSYS, errno and errnoRet on every errno rule.
	differential podman "$PODMAN_CAPS" "$HERE/profiles/podman-default.json"
}

t_differential_docker_labs() {
	# A 2016 profile ("name" per rule, "architectures", no gates):
	# Docker's default of the time without chmod (docker/labs), newest
	# call copy_file_range, so every later call is "newer".
	differential moby "$MOBY_CAPS" "$HERE/profiles/docker-labs-default-no-chmod.json"
}

if [ "${1:-}" = --list ]; then
	sw_scenarios
	exit 0
fi
if [ $# -eq 0 ]; then
	echo "usage: $0 --list | SCENARIO..." >&2
	exit 2
fi
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${OCI_PROBE:?OCI_PROBE must name the sw-oci-probe binary}"
SYSWARD=$(realpath "$SYSWARD") && OCI_PROBE=$(realpath "$OCI_PROBE") || exit 1
if ! command -v busybox >/dev/null; then
	echo "FAIL: busybox is not installed (scripts/install-deps: busybox-static)"
	exit 1
fi

# Skipped only when runc cannot run a container here (lib.sh says why).
oci_skip_unless_runc "$OCI_PROBE" -l

sw_run_scenarios oci "$@"
exit $failed
