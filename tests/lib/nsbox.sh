# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by tests/security/check.sh and tests/daemon/daemon-tests.sh: the
# cgroups of the session-namespace tests (docs/security.md, route 16c).
# A witness process of a given uid outside the session, in a cgroup of
# its own as systemd would delegate it (the uid owns the cgroup and
# every file of it), and in a pids and a freezer v1 cgroup where the
# host mounts those; and the count of session cgroups left behind.
# Functions return non-zero and say why on stderr; the caller fails.
# tests/vm/vm-suite.sh stages it into the QEMU guest beside common.sh.

# "ROOT POINT FSTYPE SUPEROPTIONS" of each mount (mountinfo's optional
# fields skipped).
nsbox_mounts() {
	awk '{ for (i = 7; $i != "-"; i++) ; print $4, $5, $(i + 1), $(i + 3) }' /proc/self/mountinfo
}

# The cgroup2 mount whose root is the root of the tree (empty if none).
nsbox_cg2() {
	nsbox_mounts | awk '$3 == "cgroup2" && $1 == "/" {print $2; exit}'
}

# The mount point of the v1 hierarchy of controller $1 (empty if none).
nsbox_v1() {
	nsbox_mounts | awk -v c="$1" '$3 == "cgroup" && $1 == "/" && ("," $4 ",") ~ ("," c ",") {print $2; exit}'
}

# nsbox_cg_stage OWNER: cgroups for a witness of uid OWNER (0 or
# another) beside a trap to move it into, in $NSBOX_T (below the
# cgroup2 root, root's) and, for another uid, delegated as systemd
# delegates user@UID.service: $NSBOX_T/user is root's but its directory
# and its delegation files (/sys/kernel/cgroup/delegate) are OWNER's, and
# OWNER made witness and trap in it.  Sets NSBOX_CG and NSBOX_TRAP
# (paths from the cgroup2 root) and NSBOX_V1 ("pids:PATH freezer:PATH",
# those this host mounts; root's, as systemd leaves every v1 cgroup:
# it delegates cgroup2 only).
nsbox_cg_stage() {
	local owner=$1 cg2 base f ctrl v1
	cg2=$(nsbox_cg2)
	[ -n "$cg2" ] || { echo "no cgroup2 mount" >&2; return 77; }
	NSBOX_T=/sysward-test.$$
	base=$NSBOX_T
	mkdir "$cg2$NSBOX_T" || return 1
	if [ "$owner" != 0 ]; then
		base=$NSBOX_T/user
		mkdir "$cg2$base" || return 1
		chown "$owner:$owner" "$cg2$base" || return 1
		for f in $(cat /sys/kernel/cgroup/delegate 2>/dev/null || echo cgroup.procs cgroup.threads cgroup.subtree_control); do
			[ -e "$cg2$base/$f" ] && chown "$owner:$owner" "$cg2$base/$f"
		done
		setpriv --reuid="$owner" --regid="$owner" --clear-groups \
			mkdir "$cg2$base/witness" "$cg2$base/trap" || return 1
	else
		mkdir "$cg2$base/witness" "$cg2$base/trap" || return 1
	fi
	NSBOX_CG=$base/witness
	NSBOX_TRAP=$base/trap
	NSBOX_V1=
	for ctrl in pids freezer; do
		v1=$(nsbox_v1 "$ctrl")
		[ -n "$v1" ] || continue
		mkdir -p "$v1$NSBOX_T/witness" || return 1
		NSBOX_V1="$NSBOX_V1 $ctrl:$NSBOX_T/witness"
	done
	NSBOX_V1=${NSBOX_V1# }
}

# nsbox_cg_witness OWNER: a process of uid OWNER (sleep) in the staged
# cgroups: $nsbox_wit.  Moved there by root, as systemd places a unit's
# processes.
nsbox_cg_witness() {
	local cg2 v ctrl path
	cg2=$(nsbox_cg2)
	setpriv --reuid="$1" --regid="$1" --clear-groups sleep 120 </dev/null >/dev/null 2>&1 &
	nsbox_wit=$!
	echo "$nsbox_wit" >"$cg2$NSBOX_CG/cgroup.procs" || return 1
	for v in $NSBOX_V1; do
		ctrl=${v%%:*} path=${v#*:}
		echo "$nsbox_wit" >"$(nsbox_v1 "$ctrl")$path/tasks" || return 1
	done
}

# The witness as seen from outside: alive or not, its cgroups, frozen
# or not, its cgroups' limits.
nsbox_cg_state() {
	local cg2 v ctrl path
	cg2=$(nsbox_cg2)
	if kill -0 "$nsbox_wit" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$nsbox_wit/stat")" != Z ]; then
		echo "witness alive"
	else
		echo "witness gone"
	fi
	grep -h '^0::' "/proc/$nsbox_wit/cgroup" 2>/dev/null
	grep -h frozen "$cg2$NSBOX_CG/cgroup.events"
	echo "max.descendants $(cat "$cg2$NSBOX_CG/cgroup.max.descendants")"
	for f in pids.max memory.max; do
		[ -e "$cg2$NSBOX_CG/$f" ] && echo "$f $(cat "$cg2$NSBOX_CG/$f")"
	done
	for v in $NSBOX_V1; do
		ctrl=${v%%:*} path=${v#*:}
		case $ctrl in
		pids) echo "v1 pids.max $(cat "$(nsbox_v1 pids)$path/pids.max")" ;;
		freezer) echo "v1 freezer.state $(cat "$(nsbox_v1 freezer)$path/freezer.state")" ;;
		esac
		grep -q "^$nsbox_wit\$" "$(nsbox_v1 "$ctrl")$path/tasks" &&
			echo "v1 $ctrl: in its cgroup" || echo "v1 $ctrl: moved out"
	done
}

# Undo nsbox_cg_stage and nsbox_cg_witness (thawed first, so that the
# kill ends it).
nsbox_cg_cleanup() {
	local cg2 v ctrl path
	cg2=$(nsbox_cg2)
	[ -n "$cg2" ] && [ -n "${NSBOX_T:-}" ] || return 0
	[ -e "$cg2$NSBOX_CG/cgroup.freeze" ] && echo 0 >"$cg2$NSBOX_CG/cgroup.freeze" 2>/dev/null
	for v in $NSBOX_V1; do
		ctrl=${v%%:*} path=${v#*:}
		[ "$ctrl" = freezer ] && echo THAWED >"$(nsbox_v1 freezer)$path/freezer.state" 2>/dev/null
	done
	[ -n "${nsbox_wit:-}" ] && kill -9 "$nsbox_wit" 2>/dev/null
	sleep 0.1
	for v in $NSBOX_V1; do
		ctrl=${v%%:*}
		rmdir "$(nsbox_v1 "$ctrl")$NSBOX_T/witness" "$(nsbox_v1 "$ctrl")$NSBOX_T" 2>/dev/null
	done
	find "$cg2$NSBOX_T" -depth -type d -exec rmdir {} + 2>/dev/null
	NSBOX_T=
}

# nsbox_session_cgroups [CGROUP]: the session cgroups (sysward-session-*)
# in the cgroup2 tree, or below CGROUP (a path from its root), one per
# line: none may be left once their sessions ended.  Tests that run
# concurrently count below a cgroup of their own.
nsbox_session_cgroups() {
	local cg2
	cg2=$(nsbox_cg2)
	[ -n "$cg2" ] || return 0
	find "$cg2${1:-}" -type d -name 'sysward-session-*' -prune 2>/dev/null
}
