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

# oci_skip_unless_runc PROBE ARG...: exit 77 (skipped, with the reason)
# unless runc can run a container here: installed, root, and runc spec's
# own bundle with nothing of ours but PROBE ARG... runs.
oci_skip_unless_runc() {
	local python
	python=$(command -v /usr/bin/python3 || command -v python3)
	if ! command -v runc >/dev/null; then
		echo "SKIP: runc is not installed (apt-get install runc)"
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: runc containers need root here"
		exit 77
	fi
	W=$(mktemp -d "${TMPDIR:-/tmp}/sysward-oci.runc-check.XXXXXX")
	rc=1
	mkdir -p "$W/b/rootfs" && cp "$1" "$W/b/rootfs/probe" &&
		(cd "$W/b" && runc spec && "$python" - "${@:2}" <<-'PY'
		import json, sys
		s = json.load(open("config.json")); p = s["process"]
		p["terminal"] = False; p["args"] = ["/probe"] + sys.argv[1:]
		json.dump(s, open("config.json", "w"))
		PY
		) && container check "$W/b"
	if [ "$rc" -ne 0 ]; then
		echo "SKIP: runc cannot run a container here: $(head -3 "$W/check.err")"
		rm -rf "$W"
		exit 77
	fi
	rm -rf "$W"
	W=
}
