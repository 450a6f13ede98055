#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `sysward run --sandbox` on file-heavy real programs, beside the same
# programs unconfined and under bubblewrap with the equivalent binds
# (the system read-only, the workspace writable, a private /tmp, no
# network): the issue 33 target is at most 1.1x wall.
#
#   bench/sandbox-bench.sh [-b BUILD] [-n RUNS] [-u UID] [-P] [WORKLOAD...]
#
#   -b BUILD  build directory (default: build)
#   -n RUNS   timed runs per side, after one not counted (default 5)
#   -u UID    run every side as this uid (default: the caller's; as
#             uid 65534 sysward has no mount namespace: Landlock alone)
#   -P        the paths policy's table only
#   WORKLOAD  find (find | sort of /usr and the workspace), md5 (md5sum
#             over /usr/include and the workspace), git (status, add and
#             commit of 10 changed files among 1,000, five times), cmake
#             (configure and build of 41 C files); default: all four
#
# Prints per workload the median wall seconds of each side and the
# median (and range) of its ratios to unconfined, each taken within one
# round of interleaved runs (below), so that a loaded machine's swings
# bias no side.  Then the same workloads under a "paths" policy
# (open, openat, openat2, creat refused beneath a directory of
# /var/lib with EACCES): compiled to Landlock (engine/contain/pathrules.c; only
# where the program's uid cannot write the way to it: give -u 65534),
# kept at the supervisor (SYSWARD_PATHS_SUPERVISOR=1), and bubblewrap
# hiding that directory (--bind / / --tmpfs DIR).  The workspace is the parent of the repository
# (the sandbox keeps the workspace's own .git read-only: a tool may not
# commit to it).  bubblewrap is skipped, and said so, if bwrap is absent
# (Debian's bubblewrap: scripts/install-deps).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build runs=5 as_uid=$(id -u) paths_only=0
while getopts b:n:u:P o; do
	case $o in
	b) build=$(cd "$OPTARG" && pwd) ;;
	n) runs=$OPTARG ;;
	u) as_uid=$OPTARG ;;
	P) paths_only=1 ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(find md5 git cmake)

ws=$(mktemp -d /tmp/sysward-sbbench.XXXXXX) || exit 1
# the paths policy's hierarchy: a way from / that uid 65534 cannot write
sec=$(mktemp -d /var/lib/sysward-sbbench.XXXXXX) || exit 1
trap 'rm -rf "$ws" "$sec"' EXIT
chmod 755 "$sec" && mkdir -m 755 "$sec/secret" && echo s >"$sec/secret/key"
cat >"$ws/paths.json" <<EOF
{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
 {"names": ["openat", "openat2"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
  "paths": [{"index": 1, "prefix": "$sec/secret/"}]},
 {"names": ["open", "creat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
  "paths": [{"index": 0, "prefix": "$sec/secret/"}]}]}
EOF
chmod 755 "$ws"
cp "$build/client/sysward" "$ws/sysward"
as=()
[ "$as_uid" = "$(id -u)" ] || as=(setpriv --reuid "$as_uid" --regid "$as_uid" --clear-groups)

# the workspace: repo/ of 1,000 files in 20 directories, committed; cm/
# a project of 40 C files
mkdir -p "$ws/w/repo" "$ws/w/cm"
for d in $(seq 20); do
	mkdir -p "$ws/w/repo/d$d"
	for f in $(seq 50); do
		head -c 2048 /dev/urandom | base64 >"$ws/w/repo/d$d/f$f.txt"
	done
done
for i in $(seq 40); do
	printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' "$i" "$i" >"$ws/w/cm/f$i.c"
done
printf 'int main(void) { return 0; }\n' >"$ws/w/cm/main.c"
printf 'cmake_minimum_required(VERSION 3.13)\nproject(b C)\nfile(GLOB S *.c)\nadd_executable(b ${S})\n' >"$ws/w/cm/CMakeLists.txt"
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b GIT_CONFIG_NOSYSTEM=1 HOME=$ws
git -C "$ws/w/repo" init -q && git -C "$ws/w/repo" add -A && git -C "$ws/w/repo" commit -q -m base
chown -R "$as_uid:$as_uid" "$ws"

declare -A cmd=(
	[find]='find /usr . -type f 2>/dev/null | sort >/dev/null'
	[md5]='find /usr/include . -type f -print0 | xargs -0 md5sum >/dev/null'
	[git]='cd repo && for i in 1 2 3 4 5; do for f in $(seq 10); do date +%N >>d$i/f$f.txt; done && git status --short >/dev/null && git add -A && git commit -q -m x && git status --short >/dev/null; done'
	[cmake]='rm -rf cm/b && cmake -S cm -B cm/b >/dev/null && cmake --build cm/b -j2 >/dev/null'
)
sides=(unconfined sandbox)
psides=(unconfined paths-landlock paths-supervisor)
if command -v bwrap >/dev/null; then
	sides+=(bwrap)
	psides+=(bwrap-paths)
else
	echo "bubblewrap: not installed, skipped (apt-get install bubblewrap)"
fi

# one timed run of workload $1 on side $2: its wall seconds
one() {
	local c=${cmd[$1]} t0 t1
	t0=$(date +%s.%N)
	case $2 in
	unconfined) (cd "$ws/w" && ${as[@]+"${as[@]}"} sh -c "$c") ;;
	sandbox) (cd "$ws/w" && ${as[@]+"${as[@]}"} "$ws/sysward" run -q --sandbox -- sh -c "$c") ;;
	bwrap) (cd "$ws/w" && ${as[@]+"${as[@]}"} bwrap --ro-bind / / --dev /dev --proc /proc \
		--tmpfs /tmp --bind "$ws/w" "$ws/w" --unshare-net --die-with-parent \
		--chdir "$ws/w" sh -c "$c") ;;
	paths-landlock) (cd "$ws/w" && ${as[@]+"${as[@]}"} "$ws/sysward" run -q --policy "$ws/paths.json" -- sh -c "$c") ;;
	paths-supervisor) (cd "$ws/w" && SYSWARD_PATHS_SUPERVISOR=1 ${as[@]+"${as[@]}"} "$ws/sysward" run -q --policy "$ws/paths.json" -- sh -c "$c") ;;
	bwrap-paths) (cd "$ws/w" && ${as[@]+"${as[@]}"} bwrap --bind / / --dev /dev --proc /proc \
		--tmpfs "$sec/secret" --die-with-parent --chdir "$ws/w" sh -c "$c") ;;
	esac >/dev/null 2>"$ws/err" || { echo "$1 on $2 failed: $(cat "$ws/err")" >&2; exit 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
range() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}'; }

# Interleaved: round r runs every side once, the order rotated each round
# (unconfined first, then second, ...), so that a load that comes and goes
# on a shared machine falls on every side alike; each side's ratio is
# taken within its round (side / unconfined of the same round) and the
# median of those ratios printed, with their range.
[ "$paths_only" = 1 ] && workloads_sb=() || workloads_sb=("${workloads[@]}")
[ "$paths_only" = 1 ] || printf '%-8s %10s %10s %10s %18s %18s\n' workload unconfined sandbox bwrap sandbox/u bwrap/u
for w in ${workloads_sb[@]+"${workloads_sb[@]}"}; do
	[ -n "${cmd[$w]:-}" ] || { echo "unknown workload $w" >&2; exit 2; }
	declare -A secs=() ratios=()
	for s in "${sides[@]}"; do one "$w" "$s" >/dev/null; done	# not counted
	for r in $(seq "$runs"); do
		declare -A t=()
		n=${#sides[@]}
		for k in $(seq 0 $((n - 1))); do
			s=${sides[$(((k + r) % n))]}
			t[$s]=$(one "$w" "$s")
			secs[$s]+="${t[$s]} "
		done
		for s in "${sides[@]}"; do
			ratios[$s]+="$(echo "${t[$s]} / ${t[unconfined]}" | bc -l) "
		done
		unset t
	done
	col() {	# median seconds of side $1, or -
		[ -n "${secs[$1]:-}" ] && printf '%.3f' "$(tr ' ' '\n' <<<"${secs[$1]}" | grep . | median)" || echo -
	}
	rat() {	# median ratio (range) of side $1, or -
		[ -n "${ratios[$1]:-}" ] || { echo -; return; }
		printf '%.2f (%s)' "$(tr ' ' '\n' <<<"${ratios[$1]}" | grep . | median)" \
			"$(tr ' ' '\n' <<<"${ratios[$1]}" | grep . | range)"
	}
	printf '%-8s %10s %10s %10s %18s %18s\n' "$w" "$(col unconfined)" "$(col sandbox)" "$(col bwrap)" \
		"$(rat sandbox)" "$(rat bwrap)"
	unset secs ratios
done

# the paths policy: how check says this uid's launch enforces it
echo
(cd "$ws/w" && ${as[@]+"${as[@]}"} "$ws/sysward" check "$ws/paths.json" | grep '^enforce:' | sed 's/^/# /')
printf '%-8s %12s %12s %12s %12s %9s %9s %9s\n' workload unconfined landlock supervisor bwrap ll/u sup/u bwrap/u
for w in "${workloads[@]}"; do
	declare -A med=()
	for s in "${psides[@]}"; do
		one "$w" "$s" >/dev/null	# not counted
		med[$s]=$(for _ in $(seq "$runs"); do one "$w" "$s"; done | median)
	done
	printf '%-8s %12.3f %12.3f %12.3f %12s %9.2f %9.2f %9s\n' "$w" "${med[unconfined]}" \
		"${med[paths-landlock]}" "${med[paths-supervisor]}" \
		"$([ -n "${med[bwrap-paths]:-}" ] && printf '%.3f' "${med[bwrap-paths]}" || echo -)" \
		"$(echo "${med[paths-landlock]} / ${med[unconfined]}" | bc -l)" \
		"$(echo "${med[paths-supervisor]} / ${med[unconfined]}" | bc -l)" \
		"$([ -n "${med[bwrap-paths]:-}" ] && printf '%.2f' "$(echo "${med[bwrap-paths]} / ${med[unconfined]}" | bc -l)" || echo -)"
	unset med
done
