# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the runc-based runners of tests/oci (run.sh, the differential
# test; runtime.sh, sysward-runtime's scenarios), after tests/lib/common.sh:
# the one home of what they share.  No image is downloaded: a root file
# system is a directory of static binaries.

# oci_rootfs DIR PROBE: a root file system in DIR: PROBE as /probe,
# busybox-static as /bin/busybox (with /bin/sh), /lib and /lib64
# pointing into /usr (for a runner that binds the host's /usr, for a
# dynamically linked program).
oci_rootfs() {
	local dir=$1 probe=$2
	mkdir -p "$dir/bin" "$dir/usr" || return 1
	cp "$probe" "$dir/probe" || return 1
	cp "$(command -v busybox)" "$dir/bin/busybox" || return 1
	ln -sf busybox "$dir/bin/sh"
	ln -sfn usr/lib "$dir/lib"
	ln -sfn usr/lib64 "$dir/lib64"
}

# container NAME BUNDLE [RUNTIME]: run the bundle's container to
# completion with runc (or RUNTIME, which takes runc's command line);
# stdout in $W/NAME.out, stderr in $W/NAME.err (and $W/out, $W/err),
# status in $rc.
container() {
	last_cmd=("${3:-runc}" --root "$W/state" run --bundle "$2" "sysward-oci-$$-$1")
	timeout -k 5 120 "${last_cmd[@]}" >"$W/$1.out" 2>"$W/$1.err" </dev/null
	rc=$?
	cp "$W/$1.out" "$W/out"
	cp "$W/$1.err" "$W/err"
}

# oci_skip_unless_runc DIR PROBE ARG...: exit 77 (skipped, with the
# reason) unless runc can run a container here: installed, root, and runc
# spec's own bundle with nothing of ours but PROBE ARG... (a static
# program) runs.  The bundle, runc's state and the output go in DIR, the
# caller's work directory, which the caller removes.
oci_skip_unless_runc() {
	local W=$1 python	# container() works in $W
	shift
	python=$(command -v /usr/bin/python3 || command -v python3)
	if ! command -v runc >/dev/null; then
		echo "SKIP: runc is not installed (apt-get install runc)"
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: runc containers need root here"
		exit 77
	fi
	rc=1
	mkdir -p "$W/runc-check/rootfs" && cp "$1" "$W/runc-check/rootfs/probe" &&
		(cd "$W/runc-check" && runc spec && "$python" - "${@:2}" <<-'PY'
		import json, sys
		s = json.load(open("config.json")); p = s["process"]
		p["terminal"] = False; p["args"] = ["/probe"] + sys.argv[1:]
		json.dump(s, open("config.json", "w"))
		PY
		) && container runc-check "$W/runc-check"
	if [ "$rc" -ne 0 ]; then
		echo "SKIP: runc cannot run a container here: $(head -3 "$W/runc-check.err" 2>/dev/null)"
		exit 77
	fi
}

# oci_preflight PROBE ARG...: what a runner here needs before any
# scenario: busybox-static (missing: FAIL, exit 1) and runc able to run
# a container (oci_skip_unless_runc, in a directory of its own, removed).
oci_preflight() {
	local dir r
	if ! command -v busybox >/dev/null; then
		echo "FAIL: busybox is not installed (scripts/install-deps: busybox-static)"
		exit 1
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/sysward-oci.runc-check.XXXXXX") || exit 1
	(oci_skip_unless_runc "$dir" "$@")
	r=$?
	rm -rf "$dir"
	[ "$r" -eq 0 ] || exit "$r"
}
