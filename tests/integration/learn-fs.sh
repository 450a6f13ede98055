#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# integration.learn_fs_{root,nobody}: `sysward learn --filesystem` writes
# the policy's "filesystem" section from what the program reached (the
# objects resolved by the supervisor, not the strings it passed), and
# "network" from the TCP ports it connected to.
#   (1) a program that reads a tree by relative names, "..", a directory
#       descriptor (find's fts) and a symbolic link, writes in a work
#       directory (mkdir, create, rename, remove) and runs a tool (a
#       script of the workspace, and cat), learned, then run again under
#       the learned policy: the same output as unconfined and as the
#       learning run;
#   (2) the same program told to write in a sibling directory: refused
#       by the kernel (EACCES, "Permission denied"), nothing written;
#       and, as the control, allowed by the same policy learned without
#       --filesystem (the syscall rules alone let that write through);
#   (3) `sysward check` on the learned policy: no error, no warning;
#   (4) TCP: a connect to the port of the run learned, and refused
#       (EACCES) to another port.
#   learn-fs.sh root|nobody
set -uo pipefail
mode=${1:?usage: learn-fs.sh root|nobody}
: "${SYSWARD:?}"
fail() { echo "FAIL [learn_fs_$mode]: $*"; exit 1; }
skip() { echo "SKIP [learn_fs_$mode]: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (to run as uid 65534)"
"$SYSWARD" info 2>/dev/null | grep -q "^Landlock: *ABI [1-9]" || skip "no Landlock on this kernel (sysward info)"

top=$(mktemp -d /tmp/sysward-learnfs.XXXXXX) || fail mktemp
chmod 755 "$top"
cp "$SYSWARD" "$top/sysward" && chmod 755 "$top/sysward"
as=() owner=0
if [ "$mode" = nobody ]; then
	as=(setpriv --reuid 65534 --regid 65534 --clear-groups) owner=65534
fi
cleanup() {
	# the listeners, by their pids (never "kill 0": this script's group)
	[ -z "${lpid:-}" ] || kill "$lpid" 2>/dev/null
	[ -z "${lpid2:-}" ] || kill "$lpid2" 2>/dev/null
	if [ -n "${KEEP:-}" ]; then echo "kept $top"; else rm -rf "$top"; fi
}
trap cleanup EXIT
export HOME=$top/home LC_ALL=C
unset TMPDIR
mkdir -p "$top/home" "$top/o"
chown "$owner:$owner" "$top/o"

# The workspace, made afresh before each run: the same state each time.
stage() {
	rm -rf "$top/ws" && mkdir -p "$top/ws/tree/a" "$top/ws/tree/b/sub" "$top/ws/work" \
		"$top/ws/other" "$top/ws/tools" || fail staging
	echo one >"$top/ws/tree/a/1" && echo two >"$top/ws/tree/b/sub/2" &&
		echo stale >"$top/ws/work/old" && echo stale >"$top/ws/other/old" || fail staging
	ln -s ../a/1 "$top/ws/tree/b/link"
	# the program: reads the tree, writes in "$1", runs a tool
	cat >"$top/ws/tools/prog" <<-'EOF'
	#!/bin/sh
	set -e
	out=$1
	( cd tree/b/sub && cat ../../a/1 2 ../link )
	find tree | sort
	mkdir "$out/gen"
	cat tree/a/1 tree/b/sub/2 >"$out/gen/cat"
	mv "$out/gen/cat" "$out/joined"
	rm "$out/old"
	rmdir "$out/gen"
	./tools/tool "$out/joined"
	ls "$out"
	EOF
	printf '#!/bin/sh\necho "tool: $(wc -l <"$1") lines"\n' >"$top/ws/tools/tool"
	chmod 755 "$top/ws/tools/prog" "$top/ws/tools/tool"
	chmod -R a+rX "$top/ws"
	chown -R "$owner:$owner" "$top/ws" "$top/home"
}

# in_ws CMD...: CMD in the workspace as the mode's uid: $rc, $top/out,
# $top/err.
in_ws() {
	(cd "$top/ws" && timeout -k 5 120 "${as[@]}" "$@" >"$top/out" 2>"$top/err" </dev/null)
	rc=$?
}

stage
in_ws tools/prog work
[ "$rc" = 0 ] || fail "unconfined: exit $rc: $(cat "$top/err")"
cp "$top/out" "$top/want"

# (1) learned, then run again under the learned policy.
stage
in_ws "$top/sysward" learn --filesystem -q -o "$top/o/learned.json" -- tools/prog work
[ "$rc" = 0 ] || fail "learn: exit $rc: $(cat "$top/err")"
diff -u "$top/want" "$top/out" >&2 || fail "the learning run's output differs from unconfined (diff above)"
cat "$top/o/learned.json" >"$top/learned.txt"
"${PYTHON:-python3}" - "$top/o/learned.json" <<-'EOF' || { cat "$top/o/learned.json" >&2; fail "the learned filesystem section is not the expected one"; }
import json, sys
fs = {e["path"]: e["access"] for e in json.load(open(sys.argv[1]))["filesystem"]["paths"]}
words = lambda a: {"read", "execute"} if a == "ro" else set(a)
def rights(p):
    """the rights of the nearest hierarchy, as fsrules.c compiles them"""
    while p not in fs:
        p = p.rsplit("/", 1)[0] if "/" in p else None
        if p is None: return set()
    return words(fs[p])
# generalised from the objects: the tree read (find opened "." too:
# ${CWD} read), the work directory written, the tool's directory
# executed, the system trees read-only, with the anchors' variables
assert "read" in rights("${CWD}/tree/b/sub"), fs
assert {"read", "write", "create", "remove"} <= rights("${CWD}/work"), fs
assert "execute" in rights("${CWD}/tools") and "execute" not in rights("${CWD}/work"), fs
assert fs.get("/usr") == "ro" and fs.get("/etc") == "ro", fs
# and nothing written but there
for p in ("${CWD}", "${CWD}/other", "${CWD}/tree", "${CWD}/tools", "/usr", "/tmp", "/"):
    assert not rights(p) & {"write", "create", "remove"}, (p, fs)
assert not any(p.startswith("/tmp") for p in fs), fs
EOF
stage
in_ws "$top/sysward" run --policy "$top/o/learned.json" -- tools/prog work
[ "$rc" = 0 ] || fail "under the learned policy: exit $rc: $(cat "$top/err")"
diff -u "$top/want" "$top/out" >&2 || fail "under the learned policy the output differs from unconfined (diff above)"

# (2) a write elsewhere: the kernel refuses it (EACCES) ...
stage
in_ws "$top/sysward" run --policy "$top/o/learned.json" -- tools/prog other
[ "$rc" != 0 ] || fail "the learned policy let the program write in other/"
grep -q "cannot create directory 'other/gen': Permission denied" "$top/err" ||
	fail "the write in other/ did not fail with EACCES: $(cat "$top/err")"
[ ! -e "$top/ws/other/gen" ] && [ -e "$top/ws/other/old" ] || fail "other/ was written"
# ... which the syscall rules alone let through (the control).
stage
in_ws "$top/sysward" learn -q -o "$top/o/names.json" -- tools/prog work
[ "$rc" = 0 ] || fail "learn without --filesystem: exit $rc: $(cat "$top/err")"
grep -q '"filesystem"' "$top/o/names.json" && fail "learn without --filesystem wrote a filesystem section"
stage
in_ws "$top/sysward" run --policy "$top/o/names.json" -- tools/prog other
[ "$rc" = 0 ] && [ -e "$top/ws/other/joined" ] ||
	fail "control: without the filesystem section the write in other/ should pass: exit $rc: $(cat "$top/err")"

# (3) check: no error, no warning.
in_ws "$top/sysward" check "$top/o/learned.json"
[ "$rc" = 0 ] || fail "check: exit $rc: $(cat "$top/err")"
if grep -q "warning" "$top/err" "$top/out"; then
	fail "check warns on the learned policy: $(grep warning "$top/err" "$top/out")"
fi

# (4) TCP: two listeners; the program connects to the first.
py=/usr/bin/python3
[ -x "$py" ] || skip "$py is missing (scripts/install-deps)"
listen() { "$py" -c 'import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8); print(s.getsockname()[1], flush=True)
while True: s.accept()[0].close()' >"$1" & }
listen "$top/p1"; lpid=$!
listen "$top/p2"; lpid2=$!
for _ in $(seq 50); do [ -s "$top/p1" ] && [ -s "$top/p2" ] && break; sleep 0.1; done
p1=$(cat "$top/p1") p2=$(cat "$top/p2")
[ -n "$p1" ] && [ -n "$p2" ] || fail "the listeners did not start"
conn='import socket, sys
s = socket.socket()
try:
    s.connect(("127.0.0.1", int(sys.argv[1]))); print("connected")
except OSError as e:
    print("refused", e.errno)'
stage
in_ws "$top/sysward" learn --filesystem -q -o "$top/o/tcp.json" -- "$py" -c "$conn" "$p1"
[ "$rc" = 0 ] && [ "$(cat "$top/out")" = connected ] || fail "learn (TCP): exit $rc: $(cat "$top/out" "$top/err")"
"${PYTHON:-python3}" -c 'import json, sys
n = json.load(open(sys.argv[1]))["network"]["tcp"]
assert n == {"bind": [], "connect": [int(sys.argv[2])]}, n' "$top/o/tcp.json" "$p1" ||
	{ cat "$top/o/tcp.json" >&2; fail "the learned network section is not connect [$p1]"; }
in_ws "$top/sysward" run --policy "$top/o/tcp.json" -- "$py" -c "$conn" "$p1"
[ "$(cat "$top/out")" = connected ] || fail "the learned port: $(cat "$top/out" "$top/err")"
in_ws "$top/sysward" run --policy "$top/o/tcp.json" -- "$py" -c "$conn" "$p2"
[ "$(cat "$top/out")" = "refused 13" ] || fail "another port: expected EACCES (13), got $(cat "$top/out" "$top/err")"
echo "PASS [learn_fs_$mode]"
