# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by tests/security/check.sh and tests/daemon/daemon-tests.sh:
# the file-system and network rules' adversarial stage (route 21).

# fsrules_stage DIR [UID]: the tree adv_fsrules attacks (route 21) in
# DIR, readable by uid 65534 (owned by UID if given), and DIR/fs.json, its
# "filesystem" and "network" rules; DIR/strings.json says the same about
# ro/secret by strings (open "paths" conditions), which no kernel
# enforces on the file.  Needs $ADV (the built adv_fsrules) and fail().
FS_OK=47311 FS_NO=47312
fsrules_stage() {
	local d=$1
	mkdir -p "$d/ro/secret" "$d/ro/noexec" "$d/ro/out" "$d/rw/.git" "$d/rw/mnt" "$d/rw/sub" "$d/rwf" || fail "staging"
	echo public >"$d/ro/pub" && echo SECRET >"$d/ro/secret/key" && echo ref >"$d/rw/.git/HEAD" && echo f >"$d/rw/file" &&
		echo conf >"$d/rwf/conf" && echo f >"$d/rwf/file" || fail "staging"
	cp "$ADV/adv_fsrules" "$d/ro/noexec/prog" && cp "$ADV/adv_fsrules" "$d/adv_fsrules" || fail "staging"
	printf '#!%s\n' "$d/ro/noexec/prog" >"$d/rw/script"
	ln -s ../ro/secret/key "$d/rw/ro-link"
	chmod -R a+rX,u+w "$d" && chmod 755 "$d/rw/script" "$d/ro/noexec/prog"
	# the tree is the program's uid's: its mode bits allow everything,
	# so what is refused is the rules' (sysward run as root keeps no
	# capability: root writes by the owner's bits; as 65534, a hard link
	# to a file it does not own would be fs.protected_hardlinks' EPERM)
	if [ -n "${2:-}" ]; then chown -R "$2:$2" "$d"; fi
	cat >"$d/fs.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW",
	 "filesystem": {"paths": [
	   {"path": "/", "access": "ro"},
	   {"path": "/dev/null", "access": ["read", "write"]},
	   {"path": "$d/ro/secret", "access": "none"},
	   {"path": "$d/ro/noexec", "access": "read"},
	   {"path": "$d/ro/out", "access": "rw"},
	   {"path": "$d/rw", "access": "rw"},
	   {"path": "$d/rw/.git", "access": "ro"},
	   {"path": "$d/rwf", "access": "rw"},
	   {"path": "$d/rwf/conf", "access": "ro"}]},
	 "network": {"tcp": {"bind": [$FS_OK], "connect": [$FS_OK]}}}
	EOF
	cat >"$d/strings.json" <<-EOF
	{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	  {"names": ["openat", "openat2"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 1, "prefix": "$d/ro/secret/"}]},
	  {"names": ["open"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
	   "paths": [{"index": 0, "prefix": "$d/ro/secret/"}]}]}
	EOF
	chmod 644 "$d/fs.json" "$d/strings.json"
}

