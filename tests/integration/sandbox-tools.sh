#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# integration.sandbox_tools_{root,nobody,daemon}: `sysward run --sandbox`
# runs real tools in a workspace with outputs identical to unconfined
# (git init/add/commit, make, a cmake configure and build, a venv with
# pip installing a local wheel offline, a project's unittest suite), and
# keeps them from writing outside it, from TCP and from a unix service
# of the uid outside.  Each tool runs once unconfined and once confined
# in the same fresh workspace path; their outputs are compared.
#   sandbox-tools.sh root|nobody|daemon
set -uo pipefail
mode=${1:?usage: sandbox-tools.sh root|nobody|daemon}
: "${SYSWARD:?}"
fail() { echo "FAIL [sandbox_tools_$mode]: $*"; exit 1; }
skip() { echo "SKIP [sandbox_tools_$mode]: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (to run as uid 65534 and start syswardd)"
for t in git make cmake cc /usr/bin/python3; do command -v "$t" >/dev/null || skip "$t is missing (scripts/install-deps)"; done
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || skip "python3-venv is missing (scripts/install-deps)"

top=$(mktemp -d /tmp/sysward-sbtools.XXXXXX) || fail mktemp
chmod 755 "$top"
cp "$SYSWARD" "$top/sysward" && chmod 755 "$top/sysward"
as=() uidn=0
if [ "$mode" != root ]; then
	as=(setpriv --reuid 65534 --regid 65534 --clear-groups) uidn=65534
fi
# Only the processes this test started: "kill 0" (an unset pid defaulted
# to 0) would signal the whole process group, CTest's with it.
cleanup() {
	[ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null
	[ -n "${sb_listener:-}" ] && kill "$sb_listener" 2>/dev/null
	rm -rf "$top"
}
trap cleanup EXIT
sb_opts=(--sandbox)
if [ "$mode" = daemon ]; then
	SYSWARDD=${SYSWARDD:-$(dirname "$SYSWARD")/../daemon/syswardd}
	[ -x "$SYSWARDD" ] || skip "no syswardd beside $SYSWARD"
	"$SYSWARDD" --socket "$top/sock" --socket-mode 0666 --shards 1 >"$top/daemon.log" 2>&1 &
	dpid=$!
	for _ in $(seq 100); do [ -S "$top/sock" ] && break; sleep 0.1; done
	[ -S "$top/sock" ] || fail "syswardd did not start: $(cat "$top/daemon.log")"
	sb_opts=(--daemon="$top/sock" --sandbox)
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t \
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
	GIT_CONFIG_NOSYSTEM=1 HOME=$top/home PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
	PYTHONDONTWRITEBYTECODE=1 LC_ALL=C
mkdir -p "$top/home" && chmod 755 "$top/home"

# the project each tool works on, made afresh in $top/ws
stage() {
	rm -rf "$top/ws" && mkdir -p "$top/ws/src/pkg" "$top/ws/cm" || fail staging
	printf 'all: hello\n\t@echo built\nhello: hello.c\n\tcc -o hello hello.c\n' >"$top/ws/src/Makefile"
	printf '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n' >"$top/ws/src/hello.c"
	cp "$top/ws/src/hello.c" "$top/ws/cm/hello.c"
	printf 'cmake_minimum_required(VERSION 3.13)\nproject(h C)\nadd_executable(h hello.c)\n' >"$top/ws/cm/CMakeLists.txt"
	printf 'def add(a, b):\n    return a + b\n' >"$top/ws/src/pkg/__init__.py"
	printf 'import unittest, pkg\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(pkg.add(2, 3), 5)\n    def test_tmp(self):\n        import tempfile\n        with tempfile.NamedTemporaryFile() as f:\n            f.write(b"x")\n' >"$top/ws/src/test_pkg.py"
	# a wheel by zipping (offline; no setuptools needed)
	/usr/bin/python3 - "$top/ws" <<-'PY' || fail "make the wheel"
	import sys, zipfile
	w = zipfile.ZipFile(sys.argv[1] + "/pkg-1.0-py3-none-any.whl", "w")
	w.write(sys.argv[1] + "/src/pkg/__init__.py", "pkg/__init__.py")
	w.writestr("pkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n")
	w.writestr("pkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
	w.writestr("pkg-1.0.dist-info/RECORD", "")
	w.close()
	PY
	chown -R "$uidn:$uidn" "$top/ws" "$top/home"
}
# the steps: each a shell line run in $top/ws
steps=(
	'git init -q repo && cd repo && echo a >a && git add a && git commit -q -m one && git log --format="%H %s"'
	'make -C src 2>&1 && ./src/hello'
	'cmake -S cm -B cm/b >/dev/null && cmake --build cm/b 2>&1 | grep -c "Built target h" && ./cm/b/h'
	'/usr/bin/python3 -m venv v && v/bin/python -m pip install -q --no-index pkg-1.0-py3-none-any.whl && v/bin/python -c "import pkg; print(pkg.add(1, 2))"'
	'cd src && /usr/bin/python3 -m unittest -q 2>&1 | sed "s/in [0-9.]*s/in Ns/"'
)
i=0
for s in "${steps[@]}"; do
	i=$((i + 1))
	stage
	(cd "$top/ws" && ${as[@]+"${as[@]}"} sh -c "$s") >"$top/plain.$i" 2>&1
	prc=$?
	stage
	(cd "$top/ws" && ${as[@]+"${as[@]}"} "$top/sysward" run "${sb_opts[@]}" -- sh -c "$s") >"$top/conf.$i" 2>&1
	crc=$?
	echo "+ step $i: $s"
	cat "$top/conf.$i"
	echo "+ exit status $crc (unconfined: $prc)"
	[ "$prc" = 0 ] || fail "step $i fails unconfined: $(cat "$top/plain.$i")"
	[ "$crc" = "$prc" ] && diff "$top/plain.$i" "$top/conf.$i" || fail "step $i: the confined output differs"
done

# and kept in: a write outside, a TCP connect, the uid's unix service
. "$(dirname "$0")/../lib/sandbox.sh"
stage
mkdir -p "$top/sbx" && chmod 755 "$top/sbx"
[ "$uidn" = 0 ] && sandbox_stage "$top/sbx/st" || sandbox_stage "$top/sbx/st" 65534
trap cleanup EXIT
echo outside >"$top/outside" && chown "$uidn:$uidn" "$top/outside"
(cd "$top/ws" && ${as[@]+"${as[@]}"} "$top/sysward" run "${sb_opts[@]}" -- sh -c '
	echo pwned >"$1" || echo "write outside: refused"
	git -C /tmp init -q sysward-sbx-escape 2>/dev/null || echo "git outside: refused"
	/usr/bin/python3 -c "import socket,sys; socket.create_connection((\"127.0.0.1\", int(sys.argv[1])))" "$2" 2>&1 | tail -1
	/usr/bin/python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])" "$3" 2>&1 | tail -1
	' sh "$top/outside" "$SB_PORT" "$SB_SOCK") >"$top/out" 2>&1
cat "$top/out"
[ "$(cat "$top/outside")" = outside ] || fail "a confined tool wrote outside the workspace"
[ ! -e /tmp/sysward-sbx-escape ] || { rm -rf /tmp/sysward-sbx-escape; fail "git wrote outside"; }
grep -q "write outside: refused" "$top/out" && grep -q "git outside: refused" "$top/out" || fail "not refused"
[ "$(grep -c 'PermissionError: \[Errno 13\] Permission denied' "$top/out")" = 2 ] || fail "TCP or the unix service was reached"
echo "1 passed, 0 failed"
