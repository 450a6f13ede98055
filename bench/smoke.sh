#!/bin/bash
# bench.smoke: run sysward-bench with a tiny N and check that it printed
# every row, its ratios and the threads table.  Proves the benchmark
# works; judges no time.
set -u
bench=$1
out=$("$bench" -n "${2:-200}" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "bench.smoke: sysward-bench exited $rc" >&2; exit 1; }
fail=0
for key in a b b3 b2 c c2 c3 c4 c5 c6 d df ds dl di u us; do
	grep -Eq "^$key +.* [0-9]+\.[0-9]+ +[0-9]+\.[0-9]+" <<<"$out" ||
		{ echo "bench.smoke: row '$key' has no figure" >&2; fail=1; }
done
# strace is optional; its row must still be there, measured or explained.
grep -Eq '^e +strace' <<<"$out" || { echo "bench.smoke: row 'e' missing" >&2; fail=1; }
grep -Eq '^  c/d +=  +[0-9]+\.[0-9]+' <<<"$out" || { echo "bench.smoke: no c/d ratio" >&2; fail=1; }
if command -v strace >/dev/null; then
	grep -Eq '^  e/c +=  +[0-9]+\.[0-9]+' <<<"$out" || { echo "bench.smoke: no e/c ratio" >&2; fail=1; }
fi
# Stops per call are a behaviour, not a time: on x86_64 a rewrite and a
# "when" rule finish at their seccomp stop (one stop), LOG needs the exit
# stop too; plain skip and emulate rules are answered by the session's
# seccomp listener on kernels from 6.6 (engine/notif.c: no stop at all),
# logged or not (c6: --log, whose line the listener writes), at their
# seccomp stop before.  (The loop's 100 warm-up calls are
# counted; start-up events add a little, so with N=200 "1" shows as 1.0x
# and "0" as 0.0x.)  The stops column is the third figure of a row (the
# last, CPU per stop, is empty where nothing stopped).
if [ "$(uname -m)" = x86_64 ]; then
	v=$(uname -r) listened=1
	v=${v%%[!0-9.]*}
	[ "${v%%.*}" -gt 6 ] || { [ "${v%%.*}" -eq 6 ] && [ "$(cut -d. -f2 <<<"$v")" -ge 6 ]; } && listened=0
	for want in c:1 c2:$listened c3:$listened c4:1 c6:$listened c5:2; do
		key=${want%:*} n=${want#*:}
		got=$(awk -v k="$key" '$1 == k { n = 0
			for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) v[++n] = $i
			print v[3] }' <<<"$out")
		case $got in
		"$n".0*) ;;
		*) echo "bench.smoke: row '$key' took $got stops per call, want $n" >&2; fail=1 ;;
		esac
	done
fi
for t in 1 100 1000; do
	grep -Eq "^ +$t +[0-9]+\.[0-9]+ " <<<"$out" ||
		{ echo "bench.smoke: threads row T=$t has no figure" >&2; fail=1; }
done
exit $fail
