# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by the test suites that run programs as another uid.
#
# A checkout may live where only root can go (a newcomer's clone in
# /root, mode 0700): then uid 65534 cannot execute the built sysward or
# read the example policies, and every scenario that drops to it fails
# with "Permission denied" for a reason that has nothing to do with the
# scenario.  sw_stage_for_others copies what such a uid needs into a
# directory every uid can reach, only when it is needed, so that the same
# scenarios run wherever the checkout is.

SW_STAGE_UID=65534
SW_STAGE=

# sw_reachable PATH: whether uid/gid 65534 can read PATH (and search it, if
# it is a directory; execute it, if it is an executable file).  Asked of
# the kernel as that uid, so modes, ACLs and every parent directory count.
sw_reachable() {
	local want=(-r "$1")
	if [ -d "$1" ]; then
		want+=(-a -x "$1")
	elif [ -x "$1" ]; then
		want+=(-a -x "$1")
	fi
	setpriv --reuid="$SW_STAGE_UID" --regid="$SW_STAGE_UID" --clear-groups \
		test "${want[@]}" 2>/dev/null
}

# sw_stage_for_others VAR...: each VAR names a file or directory (empty
# values are left alone).  Whatever uid 65534 cannot reach is copied into
# $SW_STAGE (created on first use, mode 0755 like everything in it) and
# VAR is set to the copy.  Call sw_stage_cleanup when done.
sw_stage_for_others() {
	local var path copy
	for var in "$@"; do
		path=${!var}
		[ -n "$path" ] || continue
		sw_reachable "$path" && continue
		if [ -z "$SW_STAGE" ]; then
			SW_STAGE=$(mktemp -d "${TMPDIR:-/tmp}/sysward-stage.XXXXXX") || return 1
			chmod 0755 "$SW_STAGE" || return 1
		fi
		copy=$SW_STAGE/$var
		cp -R "$path" "$copy" || return 1
		chmod -R a+rX "$copy" || return 1
		if ! sw_reachable "$copy"; then
			echo "stage.sh: uid $SW_STAGE_UID cannot reach $copy either (is ${TMPDIR:-/tmp} searchable by all?)" >&2
			return 1
		fi
		printf -v "$var" '%s' "$copy"
	done
}

# sw_stage_files_for_others VAR PATTERN: VAR names a directory; if uid
# 65534 cannot reach it, only its files matching PATTERN (a glob, e.g.
# 'adv_*') are copied into $SW_STAGE/VAR, and VAR is set to that copy.
# For directories that also hold large scratch trees.
sw_stage_files_for_others() {
	local var=$1 pattern=$2 path=${!1} copy f
	[ -n "$path" ] || return 0
	sw_reachable "$path" && return 0
	if [ -z "$SW_STAGE" ]; then
		SW_STAGE=$(mktemp -d "${TMPDIR:-/tmp}/sysward-stage.XXXXXX") || return 1
		chmod 0755 "$SW_STAGE" || return 1
	fi
	copy=$SW_STAGE/$var
	mkdir -p "$copy" || return 1
	for f in "$path"/$pattern; do
		[ -f "$f" ] && { cp -p "$f" "$copy/" || return 1; }
	done
	chmod -R a+rX "$copy" || return 1
	printf -v "$var" '%s' "$copy"
}

sw_stage_cleanup() {
	[ -n "$SW_STAGE" ] && rm -rf "$SW_STAGE"
	SW_STAGE=
}
