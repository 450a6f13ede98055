# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by tests/security/check.sh and tests/daemon/daemon-tests.sh:
# `sysward run --sandbox`'s adversarial stage (route 21).

# sandbox_stage DIR [UID]: DIR/ws (the workspace: .git/HEAD, .git/hooks,
# sub/f, link-out -> DIR/out/target), DIR/out/target (outside), all
# owned by UID if given; DIR/allow.json; a TCP listener on 127.0.0.1
# ($SB_PORT) and a unix service at $SB_SOCK, both of UID (or ours),
# outside the sandbox, answering one byte to each connection (killed on
# exit, unless SB_KEEP_TRAP is set).  Needs fail(), skip() and python3.
sandbox_stage() {
	local d=$1 who=()
	[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is missing (Debian's python3; another one may be unreadable to uid 65534)"
	mkdir -p "$d/ws/.git/hooks" "$d/ws/sub" "$d/out" || fail "staging"
	echo ref >"$d/ws/.git/HEAD" && echo f >"$d/ws/sub/f" && echo t >"$d/out/target" || fail "staging"
	ln -s "$d/out/target" "$d/ws/link-out"
	echo '{"defaultAction": "SCMP_ACT_ALLOW"}' >"$d/allow.json"
	chmod -R a+rX,u+w "$d"
	if [ -n "${2:-}" ]; then
		chown -R "$2:$2" "$d"
		who=(setpriv --reuid "$2" --regid "$2" --clear-groups)
	fi
	SB_SOCK=$d/service.sock
	${who[@]+"${who[@]}"} /usr/bin/python3 -c '
import os, socket, sys, threading
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(8)
u = socket.socket(socket.AF_UNIX); u.bind(sys.argv[1]); u.listen(8)
open(sys.argv[2] + ".tmp", "w").write(str(t.getsockname()[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
def serve(s):
    while True:
        c, _ = s.accept(); c.sendall(b"y"); c.close()
threading.Thread(target=serve, args=(t,), daemon=True).start()
serve(u)' "$SB_SOCK" "$d/port" </dev/null >/dev/null 2>&1 &
	sb_listener=$!
	# the caller's own EXIT trap stays with SB_KEEP_TRAP (it kills
	# $sb_listener itself)
	[ -n "${SB_KEEP_TRAP:-}" ] ||
		trap 'kill "$sb_listener" 2>/dev/null; rm -rf "${nb:-/nonexistent}"' EXIT
	for _ in $(seq 100); do [ -s "$d/port" ] && break; sleep 0.1; done
	SB_PORT=$(cat "$d/port" 2>/dev/null) || fail "the listeners did not start"
}
