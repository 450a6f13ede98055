#!/bin/bash
# bench.smoke: run sysward-bench with a tiny N and check that it printed
# every row and both ratios.  Proves the benchmark works; judges no time.
set -u
bench=$1
out=$("$bench" -n "${2:-200}" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "bench.smoke: sysward-bench exited $rc" >&2; exit 1; }
fail=0
for key in a b b2 c c2 d; do
	grep -Eq "^$key +.* [0-9]+\.[0-9]+ +[0-9]+\.[0-9]+" <<<"$out" ||
		{ echo "bench.smoke: row '$key' has no figure" >&2; fail=1; }
done
# strace is optional; its row must still be there, measured or explained.
grep -Eq '^e +strace' <<<"$out" || { echo "bench.smoke: row 'e' missing" >&2; fail=1; }
grep -Eq '^  c/d  = +[0-9]+\.[0-9]+' <<<"$out" || { echo "bench.smoke: no c/d ratio" >&2; fail=1; }
if command -v strace >/dev/null; then
	grep -Eq '^  e/c  = +[0-9]+\.[0-9]+' <<<"$out" || { echo "bench.smoke: no e/c ratio" >&2; fail=1; }
fi
exit $fail
