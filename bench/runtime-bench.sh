#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Container start-up latency through sysward-runtime against plain runc:
# the wall time of "run" of a hand-made bundle (busybox-static and
# sw-probe, no image) to the end of a one-call program, each way in turn,
# ROUNDS times.  A benchmark, not a test: it prints, it never judges.
#
#   bench/runtime-bench.sh [-n ROUNDS] [-p] [BUILD_DIR]  (as root; runc)
#
# Rows:
#   runc        plain runc, the bundle without a policy
#   pass        sysward-runtime, the same bundle (no policy: runc exec'd)
#   sysward     sysward-runtime, the bundle with io.sysward.policy (getuid
#               emulated): rewrite, policy check, kernel probe, then runc
#               with sysward as process 1
#   wrapped     plain runc on the bundle sysward-runtime has rewritten:
#               sysward's own cost inside the container, without the
#               runtime's work
#   podman-runc, podman-sysward (with -p): "podman run --rm --rootfs" of
#               the same program, runc or sysward-runtime (with the
#               policy) as its runtime: what a Podman user waits for
# and the ratios of each to runc (podman-sysward to podman-runc), pair
# by pair (rounds alternate, so a
# drift of the machine's speed hits both sides of a pair alike): min,
# median, max.
set -eu
rounds=20
podman=0
while getopts n:p o; do
	case $o in
	n) rounds=$OPTARG ;;
	p) podman=1 ;;
	*) echo "usage: $0 [-n ROUNDS] [-p] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$top/build}")
runtime=$build/bin/sysward-runtime
probe=$build/tests/integration/sw-probe
for f in "$runtime" "$probe"; do
	[ -x "$f" ] || { echo "runtime-bench: $f is missing (build first)" >&2; exit 1; }
done
command -v runc >/dev/null || { echo "runtime-bench: runc is not installed" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "runtime-bench: runc containers need root" >&2; exit 1; }

W=$(mktemp -d "${TMPDIR:-/tmp}/sysward-runtime-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
. "$top/tests/oci/lib.sh"
oci_rootfs "$W/rootfs" "$probe"
mkdir -p "$W/policies" "$W/state"
cat >"$W/policies/uid.json" <<'EOF'
{"defaultAction": "SCMP_ACT_ALLOW",
 "syscalls": [{"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 4242}]}
EOF
export SYSWARD_RUNTIME_POLICY_DIRS=$W/policies
mk() {
	python3 "$top/tests/oci/rt-bundle.py" "$W/$1" --rootfs "$W/rootfs" "${@:2}" \
		-- /probe getuid >/dev/null
}
mk plain
mk sw --annotation io.sysward.policy=uid
mk wrapped --annotation io.sysward.policy=uid
# Rewrite "wrapped" once, through the runtime, then leave it to runc.
"$runtime" --root "$W/state" run --bundle "$W/wrapped" prep >/dev/null

# once ROW RUNTIME BUNDLE WANT: milliseconds of one run (to stdout).
once() {
	local t0 t1 out
	t0=$(date +%s%N)
	out=$("$2" --root "$W/state" run --bundle "$W/$3" "b-$1" </dev/null)
	t1=$(date +%s%N)
	[ "$out" = "$4" ] || { echo "runtime-bench: $1 printed '$out', expected '$4'" >&2; exit 1; }
	echo $(((t1 - t0) / 1000))
}

# Podman: storage of our own, no image (--rootfs); the limits this
# machine's root cannot raise (tests/oci/runtime.sh says why).
cat >"$W/sysward-runtime" <<EOF
#!/bin/sh
export SYSWARD_RUNTIME_POLICY_DIRS='$W/policies'
exec '$runtime' "\$@"
EOF
chmod 0755 "$W/sysward-runtime"
pm=(podman --root "$W/storage" --runroot "$W/runroot" --storage-driver vfs
    --cgroup-manager cgroupfs --events-backend file)
pm_opts=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096
	 --rootfs "$W/rootfs")
# pm_once RUNTIME WANT [OPTIONS]: milliseconds of one podman run.
pm_once() {
	local t0 t1 out
	t0=$(date +%s%N)
	out=$("${pm[@]}" --runtime "$1" run --rm "${@:3}" "${pm_opts[@]}" /probe getuid </dev/null)
	t1=$(date +%s%N)
	[ "$out" = "$2" ] || { echo "runtime-bench: podman printed '$out', expected '$2'" >&2; exit 1; }
	echo $(((t1 - t0) / 1000))
}

declare -A t
rows=(runc pass sysward wrapped)
[ $podman = 1 ] && rows+=(podman-runc podman-sysward)
for ((i = 0; i < rounds; i++)); do
	t[runc,$i]=$(once runc runc plain getuid=0)
	t[pass,$i]=$(once pass "$runtime" plain getuid=0)
	t[sysward,$i]=$(once sysward "$runtime" sw getuid=4242)
	t[wrapped,$i]=$(once wrapped runc wrapped getuid=4242)
	if [ $podman = 1 ]; then
		t[podman-runc,$i]=$(pm_once "$(command -v runc)" getuid=0)
		t[podman-sysward,$i]=$(pm_once "$W/sysward-runtime" getuid=4242 \
			--annotation io.sysward.policy=uid)
	fi
done

# stats VALUES...: min median max.
stats() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %s %s", v[1], m, v[NR] }'
}

echo "container start-up latency, $rounds rounds ($(uname -r), $(nproc) CPUs; runc $(runc --version | awk 'NR == 1 {print $3}'))"
printf '%-15s %10s %10s %10s   (ms)\n' row min median max
for r in "${rows[@]}"; do
	vals=()
	for ((i = 0; i < rounds; i++)); do vals+=("${t[$r,$i]}"); done
	read -r mn md mx <<<"$(stats "${vals[@]}")"
	awk -v r="$r" -v a="$mn" -v b="$md" -v c="$mx" \
		'BEGIN { printf "%-15s %10.1f %10.1f %10.1f\n", r, a / 1000, b / 1000, c / 1000 }'
done
printf '%-28s %6s %6s %6s   (pair by pair)\n' ratio min median max
pairs=(pass:runc sysward:runc wrapped:runc)
[ $podman = 1 ] && pairs+=(podman-sysward:podman-runc)
for pr in "${pairs[@]}"; do
	a=${pr%%:*} b=${pr#*:}
	vals=()
	for ((i = 0; i < rounds; i++)); do
		vals+=("$(awk -v x="${t[$a,$i]}" -v y="${t[$b,$i]}" 'BEGIN { printf "%.4f", x / y }')")
	done
	read -r mn md mx <<<"$(stats "${vals[@]}")"
	printf '%-28s %6.2f %6.2f %6.2f\n' "$a/$b" "$mn" "$md" "$mx"
done
