#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The example policies of policy/examples/ on real Debian programs (coreutils,
# util-linux, bash, copied into the guest by qemu-images/guest-rootfs), in the
# QEMU guest on the patched kernel. Each scenario runs the program unconfined
# first (the control: what the program does on its own) and then under the
# policy, and asserts what a user would see.
#
#   guest-examples.sh --list | SCENARIO...     exit 0 pass, 1 fail
#
# Environment: SYSWARD (static sysward), SRCDIR (policy/examples below it).
set -u
EX=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/policy/examples
. "$(dirname "$0")/../lib/common.sh"

sw() { local p=$1; shift; run "$SYSWARD" run --policy "$EX/$p.json" -- "$@"; }
# Which file was run: a Debian binary, not busybox.
debian() {
	local f
	f=$(readlink -f "$(command -v "$1")")
	[ "${f##*/}" != busybox ] || { fail "$1 is busybox's applet, not the Debian program"; exit 1; }
}

t_demo_id() {
	# id(1) from coreutils: the uid comes from sysward, and /etc/group
	# cannot be opened, so group names print as numbers.
	debian id
	run id
	want_rc 0
	want_out "uid=0(root) gid=0(root) groups=0(root)"
	sw demo id
	want_rc 0
	want_out "uid=4242 gid=0 groups=0"
	sw demo id -u
	want_out 4242
	# Every refusal of /etc/group is logged (JSON on stderr with --log -).
	run "$SYSWARD" run --policy "$EX/demo.json" --log - -- id -gn
	[[ $err == *'"path":"/etc/group"'* && $err == *'"action":"SCMP_ACT_ERRNO"'* ]] ||
		{ fail "no audit record of the refused open of /etc/group"; show; }
	[ "$out" = 0 ] || { fail "id -gn printed '$out', expected the number 0"; show; }
}

t_readonly_fs_coreutils() {
	# touch, cp, rm, mkdir and a bash redirection under readonly-fs: reads
	# work, nothing is created, changed or removed.
	debian touch; debian cp; debian cat
	mkdir "$W/d" && echo old >"$W/d/existing"
	sw readonly-fs cat "$W/d/existing"
	want_rc 0
	want_out old
	sw readonly-fs touch "$W/d/new"
	[ "$rc" -ne 0 ] || { fail "touch of a new file succeeded"; show; }
	[ ! -e "$W/d/new" ] || fail "touch created $W/d/new"
	sw readonly-fs cp "$W/d/existing" "$W/d/copy"
	[ "$rc" -ne 0 ] || { fail "cp succeeded"; show; }
	[ ! -e "$W/d/copy" ] || fail "cp created $W/d/copy"
	sw readonly-fs rm "$W/d/existing"
	[ "$rc" -ne 0 ] || { fail "rm succeeded"; show; }
	want_err "Read-only file system"
	sw readonly-fs mkdir "$W/d/sub"
	want_err "Read-only file system"
	sw readonly-fs bash -c "echo new >$W/d/existing"
	[ "$rc" -ne 0 ] || { fail "a bash redirection wrote the file"; show; }
	[ "$(cat "$W/d/existing")" = old ] || fail "$W/d/existing was changed"
	[ ! -e "$W/d/sub" ] || fail "mkdir created $W/d/sub"
	# /dev is left alone: a redirection to /dev/null works.
	sw readonly-fs bash -c "echo x >/dev/null && echo ok"
	want_rc 0
	want_out ok
	# Control: the same programs unconfined change the files.
	run touch "$W/d/new"
	want_rc 0
	[ -e "$W/d/new" ] || fail "control: touch did not create the file"
}

t_docker_default_ls_unshare() {
	# Docker's default profile: ls works; unshare(CLONE_NEWUSER) is
	# refused unless the program holds CAP_SYS_ADMIN.
	debian ls; debian unshare
	mkdir "$W/dir" && : >"$W/dir/alpha" && : >"$W/dir/beta"
	sw docker-default ls -la "$W/dir"
	want_rc 0
	[[ $out == *" alpha"* && $out == *" beta"* ]] || { fail "ls output lacks the files"; show; }
	sw docker-default ls "$W/dir/nonexistent"
	want_rc 2
	want_err "No such file or directory"
	sw docker-default unshare -U id -u
	[ "$rc" -ne 0 ] || { fail "unshare -U succeeded under the Docker profile"; show; }
	want_err "Operation not permitted"
	run "$SYSWARD" run --policy "$EX/docker-default.json" --cap CAP_SYS_ADMIN -- unshare -U id -u
	want_rc 0
	want_out 65534
	# Control: this kernel has user namespaces.
	run unshare -U id -u
	want_rc 0
	want_out 65534
}

t_deny_network_bash() {
	# bash's /dev/tcp needs an AF_INET socket: refused with EACCES. The
	# guest has no network, so unconfined the same connect fails
	# differently (the socket is made, connect finds no route).
	debian bash
	run bash -c 'exec 3<>/dev/tcp/10.0.2.2/9'
	[[ $err != *"Permission denied"* ]] || { fail "control: EACCES without the policy"; show; }
	sw deny-network bash -c 'exec 3<>/dev/tcp/10.0.2.2/9'
	[ "$rc" -ne 0 ] || { fail "connect succeeded under deny-network"; show; }
	want_err "Permission denied"
	# AF_UNIX stays: python3's socketpair-free check of a unix socket.
	sw deny-network python3 -c 'import _socket; s = _socket.socket(1, 1); print("unix ok")'
	if [ "$rc" -eq 0 ]; then
		want_out "unix ok"
	fi
}

t_fake_root_coreutils() {
	# As nobody: id says root, chown "succeeds", the owner stays.
	debian id; debian chown; debian stat
	chmod 0755 "$W"
	echo x >"$W/f"
	chown 65534:65534 "$W/f"
	local nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	run "${nobody[@]}" id -u
	want_out 65534
	run "${nobody[@]}" chown 0:0 "$W/f"
	[ "$rc" -ne 0 ] || { fail "control: nobody could chown to root"; show; }
	run "${nobody[@]}" "$SYSWARD" run --policy "$EX/fake-root.json" -- id
	want_rc 0
	want_out "uid=0(root) gid=0(root) groups=0(root)"
	run "${nobody[@]}" "$SYSWARD" run --policy "$EX/fake-root.json" -- chown 0:0 "$W/f"
	want_rc 0
	run stat -c %u:%g "$W/f"
	want_out 65534:65534
}

t_inject_write_faults_python() {
	# The 3rd write to a file fails with EIO, the 5th of the others with
	# ENOSPC (python3 reports both as OSError); writes to stdout are
	# spared. (bash's "echo >&3" would write through fd 1, a dup of 3.)
	debian python3
	local script='
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for i in range(1, 8):
    try:
        os.write(fd, b"%d\n" % i)
    except OSError as e:
        print("write", i, "failed:", e.strerror)
print("done")'
	sw inject-write-faults python3 -c "$script" "$W/log"
	want_rc 0
	want_out "write 3 failed: Input/output error
write 6 failed: No space left on device
done"
	[ "$(tr '\n' ' ' <"$W/log")" = "1 2 4 5 7 " ] ||
		fail "the file holds '$(tr '\n' ' ' <"$W/log")', expected '1 2 4 5 7 '"
	run python3 -c "$script" "$W/log"
	want_out done
}

if [ "${1:-}" = --list ]; then
	sw_scenarios
	exit 0
fi
: "${SYSWARD:?}"
sw_run_scenarios ex "$@"
