#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# integration.install_prefix BUILD: `cmake --install BUILD --prefix DIR`
# installs what names the installed files by DIR (issue 36): the systemd
# units' ExecStart and Documentation, the runtime's policy directories
# (its --help, and where it looks for a policy a bundle names); with
# DESTDIR the files are staged there and still name the prefix.
set -u
build=${1:?usage: install-prefix.sh BUILD}
T=$(mktemp -d /tmp/sysward-install.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

cmake --install "$build" --prefix "$T/p" >"$T/log" 2>&1 ||
	{ cat "$T/log"; echo "FAIL: cmake --install $build --prefix $T/p"; exit 1; }
unit=$T/p/lib/systemd/system/syswardd.service
socket=$T/p/lib/systemd/system/syswardd.socket
[ -x "$T/p/sbin/syswardd" ] || fail "no $T/p/sbin/syswardd"
grep -qx "ExecStart=$T/p/sbin/syswardd --audit-log /var/log/sysward/audit.jsonl" "$unit" ||
	fail "$unit: $(grep ExecStart "$unit")"
grep -qF "file://$T/p/share/doc/sysward/protocol.md" "$unit" ||
	fail "$unit: $(grep Documentation "$unit")"
grep -qF "file://$T/p/share/doc/sysward/protocol.md" "$socket" ||
	fail "$socket: $(grep Documentation "$socket")"
grep -n "/usr/local" "$unit" "$socket" && fail "a unit still names /usr/local"

env -u SYSWARD_RUNTIME_POLICY_DIRS "$T/p/bin/sysward-runtime" --help >"$T/help" 2>&1
grep -qF "$T/p/share/sysward/policy/examples" "$T/help" ||
	fail "sysward-runtime --help does not name $T/p/share/sysward/policy/examples: $(grep -A2 POLICY_DIRS "$T/help")"
# Where it looks: a policy no directory has, and the list it searched.
mkdir -p "$T/b" "$T/state"
echo '{"ociVersion": "1.0.2", "process": {"args": ["/x"], "cwd": "/"}, "root": {"path": "rootfs"}, "annotations": {"io.sysward.policy": "sw-no-such-policy"}}' >"$T/b/config.json"
env -u SYSWARD_RUNTIME_POLICY_DIRS "$T/p/bin/sysward-runtime" --root "$T/state" create --bundle "$T/b" x >"$T/create" 2>&1
grep -qF "in the policy directories ($T/p/share/sysward/policy/examples" "$T/create" ||
	grep -qF ", $T/p/share/sysward/policy/examples)" "$T/create" ||
	fail "sysward-runtime did not search $T/p/share/sysward/policy/examples: $(cat "$T/create")"

# Staged: DESTDIR holds the files, which name the prefix.
DESTDIR=$T/stage cmake --install "$build" --prefix /opt/sw >"$T/log" 2>&1 ||
	{ cat "$T/log"; fail "DESTDIR=$T/stage cmake --install --prefix /opt/sw"; }
grep -qx "ExecStart=/opt/sw/sbin/syswardd --audit-log /var/log/sysward/audit.jsonl" \
	"$T/stage/opt/sw/lib/systemd/system/syswardd.service" ||
	fail "staged unit: $(grep ExecStart "$T/stage/opt/sw/lib/systemd/system/syswardd.service" 2>&1)"
[ -e /opt/sw ] && fail "DESTDIR install wrote /opt/sw"

[ $failed -eq 0 ] && echo "PASS: install_prefix"
exit $failed
