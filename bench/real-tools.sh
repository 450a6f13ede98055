#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Real tools under sysward, side by side with the same tools unconfined:
# a cmake build, and git over ssh to localhost with the user's ssh-agent,
# whose socket the policy grants (docs/security.md, route 19: a same-uid
# service outside the session is refused unless granted).
#
#   bench/real-tools.sh [-b BUILD] [-m MODES] [-r ROUNDS]
#
#   -b BUILD   build directory (default: build)
#   -m MODES   comma-separated sides to compare with "unconfined":
#              embedded (allow-all plus the agent's grant),
#              docker (Docker's default profile plus the grant),
#              daemon, daemon-docker (the same through a private syswardd)
#              (default: all four)
#   -r ROUNDS  timed rounds per side (default: 3)
#
# Each side: a cmake configure and build (-j2) of a generated project of
# 80 C files, whose program's output is compared with the unconfined
# side's; then git over ssh: clone a bare repository served by a private
# sshd on 127.0.0.1, commit, push, clone again, with the key only in an
# ssh-agent; its outputs compared too.  Prints each side's median wall
# time per workload and its ratio to unconfined (rounds interleaved),
# and exits 1 if any output differs.  As root (sshd, root's login by key
# on a private port).  Needs cmake, gcc, git, openssh-server and
# openssh-client: apt-get install cmake gcc git openssh-server
# openssh-client.  Not part of scripts/test.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
modes=embedded,docker,daemon,daemon-docker
rounds=3
while getopts b:m:r: o; do
	case $o in
	b) build=$(cd "$OPTARG" && pwd) ;;
	m) modes=$OPTARG ;;
	r) rounds=$OPTARG ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "real-tools: run as root (a private sshd)" >&2; exit 2; }
for t in cmake gcc git ssh ssh-agent ssh-add ssh-keygen /usr/sbin/sshd python3; do
	command -v "$t" >/dev/null ||
		{ echo "real-tools: $t is missing: apt-get install cmake gcc git openssh-server openssh-client" >&2; exit 2; }
done
sysward=$build/client/sysward
syswardd=$build/daemon/syswardd
[ -x "$sysward" ] && [ -x "$syswardd" ] || { echo "real-tools: build first ($build)" >&2; exit 2; }

work=$(mktemp -d /tmp/sysward-tools.XXXXXX)
chmod 0755 "$work"
sshd_pid= daemon_pid= agent_pid=
cleanup() {
	[ -z "$daemon_pid" ] || kill "$daemon_pid" 2>/dev/null
	[ -z "$sshd_pid" ] || kill "$sshd_pid" 2>/dev/null
	[ -z "$agent_pid" ] || kill "$agent_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# --- the ssh side: a private sshd on 127.0.0.1:$port, root's login by a
# key that only the agent holds.
port=$((20000 + RANDOM % 20000))
ssh-keygen -q -t ed25519 -N '' -f "$work/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$work/userkey"
mkdir -p "$work/ssh"
cp "$work/userkey.pub" "$work/ssh/authorized_keys"
chmod 0700 "$work/ssh"
chmod 0600 "$work/ssh/authorized_keys"
cat >"$work/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/hostkey
PidFile $work/sshd.pid
AuthorizedKeysFile $work/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd_pid=$!
eval "$(ssh-agent -s -a "$work/agent.sock")" >/dev/null
agent_pid=$SSH_AGENT_PID
ssh-add -q "$work/userkey"
rm -f "$work/userkey"		# only the agent has it now
cat >"$work/ssh_config" <<EOF
Host localtest
	HostName 127.0.0.1
	Port $port
	User root
	IdentitiesOnly no
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
EOF
export GIT_SSH_COMMAND="ssh -F $work/ssh_config"
for ((i = 0; i < 50; i++)); do
	ssh -F "$work/ssh_config" localtest true 2>/dev/null && break
	sleep 0.1
done
[ "$i" -lt 50 ] || { echo "real-tools: the private sshd does not answer" >&2; cat "$work/sshd.log" >&2; exit 1; }
git init -q --bare "$work/repo.git"
git -C "$work" -c init.defaultBranch=main init -q seed
git -C "$work/seed" -c user.name=t -c user.email=t@t commit -q --allow-empty -m seed
git -C "$work/seed" push -q "$work/repo.git" HEAD:main

# --- the policies: allow-all and Docker's, each with the agent's grant.
grant='{"names": ["connect"], "action": "SCMP_ACT_ALLOW", "paths": [{"index": 1, "exact": "'$SSH_AUTH_SOCK'"}]}'
echo '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": ['"$grant"']}' >"$work/allow.json"
python3 - "$top/policy/examples/docker-default.json" "$work/docker.json" "$grant" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["syscalls"].insert(0, json.loads(sys.argv[3]))
json.dump(p, open(sys.argv[2], "w"), indent=1)
EOF
for p in allow docker; do
	"$sysward" check -q "$work/$p.json" || { echo "real-tools: $p.json does not load" >&2; exit 1; }
done
"$syswardd" --socket "$work/d.sock" >"$work/daemon.log" 2>&1 &
daemon_pid=$!
for ((i = 0; i < 50; i++)); do [ -S "$work/d.sock" ] && break; sleep 0.1; done

# --- the workloads, run by "side" as a prefix.
side_cmd() {
	case $1 in
	unconfined) ;;
	embedded) echo "$sysward run -q --policy $work/allow.json --" ;;
	docker) echo "$sysward run -q --policy $work/docker.json --" ;;
	daemon) echo "$sysward run -q --daemon=$work/d.sock --policy $work/allow.json --" ;;
	daemon-docker) echo "$sysward run -q --daemon=$work/d.sock --policy $work/docker.json --" ;;
	esac
}

make_project() {
	local d=$1 i
	mkdir -p "$d/src"
	{
		echo 'cmake_minimum_required(VERSION 3.13)'
		echo 'project(gen C)'
		echo 'file(GLOB SRC src/*.c)'
		echo 'add_executable(gen ${SRC})'
	} >"$d/CMakeLists.txt"
	for ((i = 0; i < 80; i++)); do
		printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' "$i" "$i" >"$d/src/f$i.c"
	done
	{
		echo '#include <stdio.h>'
		for ((i = 0; i < 80; i++)); do echo "int f$i(int);"; done
		echo 'int main(void) { long t = 0;'
		for ((i = 0; i < 80; i++)); do echo "t += f$i(100);"; done
		echo 'printf("%ld\n", t); return 0; }'
	} >"$d/src/main.c"
}

w_cmake() {	# SIDE DIR: configure, build, run
	local s=$1 d=$2
	make_project "$d"
	$(side_cmd "$s") sh -c 'cmake -S "$1" -B "$1/b" >/dev/null && cmake --build "$1/b" -j2 >/dev/null && "$1/b/gen"' sh "$d"
}

w_git() {	# SIDE DIR: clone over ssh, commit, push, clone again
	local s=$1 d=$2
	mkdir -p "$d"
	$(side_cmd "$s") sh -c '
		cd "$1" &&
		git clone -q localtest:'"$work"'/repo.git a &&
		cd a && echo "$2" >f.txt && git add f.txt &&
		git -c user.name=t -c user.email=t@t commit -q -m "$2" &&
		git push -q origin HEAD:"$2" && cd .. &&
		git clone -q -b "$2" localtest:'"$work"'/repo.git b &&
		cat b/f.txt && ssh-add -l | cut -d" " -f1' sh "$d" "$(basename "$d")"
}

now() { date +%s%N; }
IFS=, read -ra sides <<<"unconfined,$modes"
declare -A t_cmake t_git
failed=0
for ((r = 0; r < rounds; r++)); do
	for s in "${sides[@]}"; do
		for w in cmake git; do
			d=$work/run-$w-$s-$r
			t0=$(now)
			"w_$w" "$s" "$d" >"$d.out" 2>"$d.err"
			rc=$?
			t1=$(now)
			echo "$rc" >>"$d.out"
			if [ "$w" = cmake ]; then t_cmake[$s]+="$(( (t1 - t0) / 1000000 )) "; else t_git[$s]+="$(( (t1 - t0) / 1000000 )) "; fi
			base=$work/run-$w-unconfined-$r.out
			if [ "$s" != unconfined ] &&
			   ! diff <(sed "s/-$s-$r/-X-$r/g; s/-unconfined-$r/-X-$r/g" "$d.out") \
				 <(sed "s/-$s-$r/-X-$r/g; s/-unconfined-$r/-X-$r/g" "$base") >/dev/null; then
				# (the branch and file are named after the directory)
				echo "DIFFERS: $w under $s (round $r):" >&2
				diff "$base" "$d.out" >&2
				cat "$d.err" >&2
				failed=1
			fi
		done
	done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf '%-15s %12s %8s %12s %8s\n' side "cmake ms" ratio "git+ssh ms" ratio
base_c=$(echo "${t_cmake[unconfined]}" | median)
base_g=$(echo "${t_git[unconfined]}" | median)
for s in "${sides[@]}"; do
	c=$(echo "${t_cmake[$s]}" | median)
	g=$(echo "${t_git[$s]}" | median)
	printf '%-15s %12d %8.2f %12d %8.2f\n' "$s" "$c" "$(echo "$c / $base_c" | bc -l)" \
		"$g" "$(echo "$g / $base_g" | bc -l)"
done
[ "$failed" -eq 0 ] && echo "outputs: identical to unconfined on every side" ||
	echo "outputs: some differ (above)"
exit $failed
