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
#   SYSWARDD   the syswardd binary      SRCDIR     the source tree
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

# inside ENGINE PROFILE UID: sysward and syswardd inside a container of
# runc's default spec (runc spec: capabilities AUDIT_WRITE, KILL and
# NET_BIND_SERVICE, so no CAP_SETPCAP, CAP_SETUID or CAP_SETGID;
# no_new_privs; here a read-only root and no /run), under PROFILE as
# ENGINE hands it to runc, as UID: an emulated getuid, embedded and
# through a syswardd started in the container.
inside() {
	local engine=$1 profile=$2 uid=$3 caps=CAP_AUDIT_WRITE,CAP_KILL,CAP_NET_BIND_SERVICE
	make_rootfs || { fail "cannot make the root filesystem"; return; }
	"$PYTHON" "$HERE/oci-seccomp.py" --engine "$engine" --cap "$caps" \
		"$profile" >"$W/seccomp.json" ||
		{ fail "oci-seccomp.py could not convert $profile"; return; }
	cat >"$W/profile.json" <<-'EOF'
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "syscalls": [{"names": ["getuid", "geteuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
	EOF
	# shellcheck disable=SC2016
	local b=$W/b-$engine-$uid
	bundle "$b" "$W/seccomp.json" "$caps" /bin/sh -c '
		/syswardd --socket /dev/shm/s.sock 2>/dev/shm/d.err &
		for i in 1 2 3 4 5 6 7 8 9 10; do [ -S /dev/shm/s.sock ] && break; sleep 0.2; done
		/sysward run --policy /profile.json -- /bin/busybox id -u; echo "embedded $?"
		/sysward run --daemon=/dev/shm/s.sock --policy /profile.json -- /bin/busybox id -u; echo "daemon $?"
		cat /dev/shm/d.err >&2' ||
		{ fail "cannot make the bundle"; return; }
	"$PYTHON" - "$b/config.json" "$uid" "$SYSWARDD" <<-'EOF'
	import json, sys
	path, uid, syswardd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	spec = json.load(open(path))
	spec["process"]["user"] = {"uid": uid, "gid": uid}
	if uid:
	    spec["process"]["capabilities"] = {"bounding": spec["process"]["capabilities"]["bounding"]}
	spec["mounts"] = [m for m in spec["mounts"] if m["destination"] != "/run"]
	spec["mounts"].append({"destination": "/syswardd", "type": "bind", "source": syswardd,
	                       "options": ["rbind", "ro", "nosuid", "nodev"]})
	json.dump(spec, open(path, "w"), indent=1)
	EOF
	container "inside-$engine-$uid" "$b"
	cat "$W/out" "$W/err"
	expect_rc 0
	expect_output "4242
embedded 0
4242
daemon 0"
}

t_inside_default_spec_moby() {
	# Inside a container (issue 24): Moby's profile, as root and as
	# uid 65534.  (As root before 6c5d9e3: syswardd's every RUN 125.)
	inside moby "$HERE/profiles/moby-default.json" 0
	inside moby "$HERE/profiles/moby-default.json" 65534
}

t_inside_default_spec_podman() {
	# The same under Podman's profile.
	inside podman "$HERE/profiles/podman-default.json" 0
	inside podman "$HERE/profiles/podman-default.json" 65534
}

# A profile without "architectures" (issue 36).  runc builds its ENOSYS
# stub for calls newer than the profile per listed architecture; before
# 1.1.15 (Debian 12 has 1.1.5) a profile that lists none got no stub at
# all, so every newer call took the default errno.  runc 1.1.15 and
# 1.2.0 on always add the native architecture (runc ccc500c42, "seccomp:
# patchbpf: always include native architecture in stub", after a SUSE
# report that programs did not fall back), which is what sysward does.
# The reference is today's runc: sysward answers ENOSYS for the calls
# newer than the profile; the runc here must answer the same if it has
# the fix, and the default errno if it predates it (docs/security.md:
# a difference with old runc only).  A 2016 Docker profile, its newest
# call copy_file_range, with its "architectures" removed.
t_no_architectures() {
	local newer="pkey_alloc statx rseq pidfd_open close_range openat2 faccessat2 process_madvise epoll_pwait2 landlock_create_ruleset memfd_secret futex_waitv"
	local v runc_wants call got
	make_rootfs || { fail "cannot make the root filesystem"; return; }
	"$PYTHON" - "$HERE/profiles/docker-labs-default-no-chmod.json" >"$W/profile.json" <<-'EOF'
	import json, sys
	p = json.load(open(sys.argv[1]))
	del p["architectures"]
	json.dump(p, sys.stdout, indent=1)
	EOF
	"$PYTHON" "$HERE/oci-seccomp.py" --engine moby --cap "$MOBY_CAPS" \
		"$W/profile.json" >"$W/seccomp.json" ||
		{ fail "oci-seccomp.py could not convert the profile"; return; }
	grep -q architectures "$W/seccomp.json" &&
		{ fail "the converted profile lists architectures"; return; }
	bundle "$W/runc" "$W/seccomp.json" "$MOBY_CAPS" /probe &&
		bundle "$W/sysward" - "$MOBY_CAPS" /sysward run -q \
			--policy /profile.json --cap "$MOBY_CAPS" -- /probe ||
		{ fail "cannot make the bundles"; return; }
	container runc "$W/runc"
	expect_rc 0
	container sysward "$W/sysward"
	expect_rc 0
	v=$(runc --version | sed -n 's/^runc version \([0-9.]*\).*/\1/p')
	if [ "$(printf '%s\n1.1.15\n' "$v" | sort -V | head -1)" = 1.1.15 ]; then
		runc_wants=ENOSYS
	else
		runc_wants=EPERM	# no stub without architectures
	fi
	for call in $newer; do
		got=$(grep "^$call " "$W/sysward.out")
		[ "$got" = "$call -1 ENOSYS" ] ||
			fail "sysward: '$got', want '$call -1 ENOSYS' (newer than the profile)"
		got=$(grep "^$call " "$W/runc.out")
		[ "$got" = "$call -1 $runc_wants" ] ||
			fail "runc $v: '$got', want '$call -1 $runc_wants'"
	done
	echo "runc $v: newer calls $runc_wants, sysward ENOSYS"
}

# What runc refuses in a profile, sysward check refuses too (issue 36:
# "value": -1 passed check).  runc reads linux.seccomp into the runtime
# spec's Go types (LinuxSeccompArg.Value and ValueTwo uint64, Index uint,
# ErrnoRet and DefaultErrnoRet *uint): encoding/json refuses a negative
# or fractional number there and the container never starts.  Each row
# is one rule's JSON members (or a top-level member after "top:"); runc
# is asked first, so that the oracle, not this table, says what is
# refused.  Control: the same 64 bits written unsigned run under both.
t_refusals_as_runc() {
	local members rule top n=0 rc_runc
	make_rootfs || { fail "cannot make the root filesystem"; return; }
	: >"$W/profile.json"	# bundle() binds it
	while IFS='|' read -r want members; do
		[ -n "$want" ] || continue
		n=$((n + 1))
		rule='"names": ["read"], "action": "SCMP_ACT_ERRNO"'
		top='"defaultAction": "SCMP_ACT_ALLOW"'
		case $members in
		top:*) top=${members#top:} ;;
		*) rule="$rule, $members" ;;
		esac
		printf '{%s, "syscalls": [{%s}]}\n' "$top" "$rule" >"$W/p$n.json"
		bundle "$W/b$n" "$W/p$n.json" CAP_KILL /bin/busybox true ||
			{ fail "cannot make the bundle"; return; }
		container "runc$n" "$W/b$n"
		rc_runc=$rc
		case $want in
		refused) [ "$rc_runc" -ne 0 ] ||
			fail "runc ran a container with {$members}: the row is wrong"
			# refused for the profile, not for anything else
			grep -q 'cannot unmarshal' "$W/runc$n.err" ||
				fail "runc failed otherwise: $(cat "$W/runc$n.err")" ;;
		runs) [ "$rc_runc" -eq 0 ] ||
			fail "runc refused {$members}: $(cat "$W/runc$n.err")" ;;
		esac
		last_cmd=("$SYSWARD" check -q "$W/p$n.json")
		"${last_cmd[@]}" >"$W/out" 2>"$W/err"
		rc=$?
		if [ "$rc_runc" -ne 0 ]; then
			expect_rc 1
			grep -q "p$n.json:[0-9]*:[0-9]*: " "$W/err" ||
				fail "sysward check's refusal of {$members} has no line:col: $(cat "$W/err")"
		else
			expect_rc 0
		fi
		echo "{$members}: runc $rc_runc, sysward check $rc: $(head -c 160 "$W/err")"
	done <<-'EOF'
	refused|"args": [{"index": 0, "value": -1, "op": "SCMP_CMP_EQ"}]
	refused|"args": [{"index": 0, "value": 1, "valueTwo": -1, "op": "SCMP_CMP_MASKED_EQ"}]
	refused|"args": [{"index": 0, "value": 1.5, "op": "SCMP_CMP_EQ"}]
	refused|"args": [{"index": -1, "value": 1, "op": "SCMP_CMP_EQ"}]
	refused|"errnoRet": -1
	refused|top:"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": -1
	runs|"args": [{"index": 0, "value": 18446744073709551615, "op": "SCMP_CMP_EQ"}]
	runs|"errnoRet": 1
	EOF
}

sw_command_line "$@"
: "${SYSWARD:?SYSWARD must name the sysward binary}"
: "${OCI_PROBE:?OCI_PROBE must name the sw-oci-probe binary}"
: "${SYSWARDD:?SYSWARDD must name the syswardd binary}"
SYSWARD=$(realpath "$SYSWARD") && OCI_PROBE=$(realpath "$OCI_PROBE") &&
	SYSWARDD=$(realpath "$SYSWARDD") || exit 1
# Skipped only when runc cannot run a container here (lib.sh says why).
oci_preflight "$OCI_PROBE" -l

sw_run_scenarios oci "$@"
exit $failed
