#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build a fuzz target with clang's libFuzzer (+ASan, UBSan) and run it for
# a bounded time on its seed corpus.
#
#   tests/fuzz/run-fuzz.sh [-T policy|proto] [-t SECONDS] [-o WORKDIR]
#
# Targets: policy (policy_fuzz.c: the policy loader, the default) and
# proto (proto_fuzz.c: the syswardd wire protocol, as a byte stream).
# Defaults: 60 s, WORKDIR build-fuzz/TARGET under the source tree.  Prints the
# executions, the corpus size and the crashes; exits 0 only when the run
# finished with no crash, leak, timeout or out-of-memory.  Exits 77 (a
# CTest skip, never a pass) when clang's libFuzzer is not installed
# (Debian: apt-get install clang libclang-rt-14-dev).
#
# Seeds: policy: tests/fuzz/seeds, policy/examples, tests/security/policies;
# proto: one valid stream per message type, written by proto_fuzz.c itself.
# Crashing inputs are kept in WORKDIR/crashes/ (reproduce: WORKDIR/TARGET_fuzz FILE).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
secs=60
target=policy
work=
while getopts "T:t:o:h" opt; do
	case $opt in
	T) target=$OPTARG ;;
	t) secs=$OPTARG ;;
	o) work=$OPTARG ;;
	*) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $target in
policy|proto) ;;
*) echo "run-fuzz: unknown target '$target' (policy or proto)" >&2; exit 2 ;;
esac
work=${work:-$top/build-fuzz/$target}

cc=
for c in clang clang-16 clang-15 clang-14; do
	command -v "$c" >/dev/null && { cc=$c; break; }
done
[ -n "$cc" ] || { echo "run-fuzz: clang not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 77; }
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"${TMPDIR:-/tmp}/swfz$$.c"
if ! "$cc" -fsanitize=fuzzer -o "${TMPDIR:-/tmp}/swfz$$" "${TMPDIR:-/tmp}/swfz$$.c" 2>/dev/null; then
	rm -f "${TMPDIR:-/tmp}/swfz$$"*
	echo "run-fuzz: $cc has no libFuzzer runtime (apt-get install libclang-rt-14-dev)" >&2
	exit 77
fi
rm -f "${TMPDIR:-/tmp}/swfz$$"*

mkdir -p "$work/obj" "$work/corpus" "$work/crashes"
# The library under test: its sources plus the shared error helpers.  A
# file with main() would be a tool, not the library.
case $target in
policy) lib=("$top"/policy/src/*.c) ;;
proto) lib=("$top"/proto/*.c) ;;
esac
srcs=()
for f in "${lib[@]}" "$top"/common/*.c; do
	grep -q '^int main' "$f" || srcs+=("$f")
done
flags=(-g -O1 -std=gnu11 -D_GNU_SOURCE -fno-omit-frame-pointer
       -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -I"$top/include" -I"$top/policy/src" -I"$top/policy")
# shellcheck disable=SC2207
pkgc=($(pkg-config --cflags json-c libseccomp libcap))
# shellcheck disable=SC2207
pkgl=($(pkg-config --libs json-c libseccomp libcap))
echo "run-fuzz: building with $cc ($("$cc" --version | head -1))"
fuzzer=$work/${target}_fuzz
if ! "$cc" "${flags[@]}" -fsanitize=fuzzer "${pkgc[@]}" -o "$fuzzer" \
	"$top/tests/fuzz/${target}_fuzz.c" "${srcs[@]}" "${pkgl[@]}"; then
	echo "run-fuzz: build failed" >&2
	exit 1
fi

case $target in
policy)
	for d in "$top/tests/fuzz/seeds" "$top/policy/examples" "$top/tests/security/policies"; do
		[ -d "$d" ] && find "$d" -maxdepth 1 -type f \( -name '*.json' -o -name '*.in' \) \
			-exec cp -n {} "$work/corpus/" \;
	done
	dict=(-dict="$top/tests/fuzz/policy.dict") ;;
proto)
	if ! "$cc" "${flags[@]}" -DSW_PROTO_FUZZ_SEEDS -o "$work/proto_seeds" \
		"$top/tests/fuzz/proto_fuzz.c" "${srcs[@]}" ||
	   ! "$work/proto_seeds" "$work/corpus"; then
		echo "run-fuzz: could not make the protocol seeds" >&2
		exit 1
	fi
	dict=() ;;
esac
rm -f "$work/crashes/"*
echo "run-fuzz: $(ls "$work/corpus" | wc -l) inputs in the corpus, running for $secs s"

log=$work/fuzz.log
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=16384 -print_final_stats=1 "${dict[@]}" \
	-artifact_prefix="$work/crashes/" "$work/corpus" >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
crashes=$(find "$work/crashes" -type f | wc -l)
grep -E '^(Done|INFO: Running|#[0-9]+ +DONE)|ERROR|SUMMARY' "$log" | tail -8
echo "fuzz ($target): ${execs:-?} executions in $secs s, corpus $(ls "$work/corpus" | wc -l) inputs, $crashes crashes (libFuzzer exit $rc)"
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
	echo "run-fuzz: FAILED; log $log, inputs in $work/crashes/" >&2
	sed -n '/ERROR: /,/SUMMARY/p' "$log" | head -60 >&2
	exit 1
fi
exit 0
