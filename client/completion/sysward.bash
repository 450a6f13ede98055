# SPDX-License-Identifier: LGPL-2.1-or-later
# bash completion for sysward(1): commands, their options, policy files
# for --policy and check, and PROGRAM's own completion after it.
# Installed by `cmake --install` as
# share/bash-completion/completions/sysward (bash-completion loads it
# on first use of the command).

_sysward_policy_files()
{
	# *.json first; any file if none matches (a policy may have any name).
	_filedir json
	[ ${#COMPREPLY[@]} -eq 0 ] && _filedir
}

# What run's and learn's --cap take (both with sw_parse_caps).
_sysward_caps="all CAP_CHOWN CAP_DAC_OVERRIDE CAP_DAC_READ_SEARCH CAP_FOWNER CAP_FSETID CAP_KILL CAP_SETGID CAP_SETUID CAP_SETPCAP CAP_NET_BIND_SERVICE CAP_NET_BROADCAST CAP_NET_ADMIN CAP_NET_RAW CAP_IPC_LOCK CAP_IPC_OWNER CAP_SYS_MODULE CAP_SYS_RAWIO CAP_SYS_CHROOT CAP_SYS_PTRACE CAP_SYS_PACCT CAP_SYS_ADMIN CAP_SYS_BOOT CAP_SYS_NICE CAP_SYS_RESOURCE CAP_SYS_TIME CAP_SYS_TTY_CONFIG CAP_MKNOD CAP_LEASE CAP_AUDIT_WRITE CAP_AUDIT_CONTROL CAP_SETFCAP CAP_MAC_OVERRIDE CAP_MAC_ADMIN CAP_SYSLOG CAP_WAKE_ALARM CAP_BLOCK_SUSPEND CAP_AUDIT_READ CAP_PERFMON CAP_BPF CAP_CHECKPOINT_RESTORE"

# _sysward_program_word FIRST OPTS: the index of PROGRAM, the first word
# from FIRST on that is not an option (or that follows "--"), skipping the
# argument of each option in OPTS ("|"-separated); cword if none yet.
_sysward_program_word()
{
	local j=$1 w
	while ((j < cword)); do
		w=${words[j]}
		if [ "$w" = -- ]; then
			((j++))
			break
		elif [[ "|$2|" == *"|$w|"* ]]; then
			((j += 2))
		elif [[ $w == -* ]]; then
			((j++))
		else
			break
		fi
	done
	echo "$j"
}

# _sysward_daemon_socket: after --daemon=, complete the socket's path
# (_init_completion -s has split "--daemon=PATH" into prev and cur; its
# argument is optional, so "--daemon PATH" is not one).
_sysward_daemon_socket()
{
	[ "$split" = true ] && [ "$prev" = --daemon ] || return 1
	_filedir
	return 0
}

_sysward()
{
	local cur prev words cword split
	_init_completion -s -n = || return

	local commands="run learn check info ps kill help"
	local i cmd="" cmd_at=0
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; cmd_at=$i; break ;;
		esac
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return
	fi

	case $cmd in
	run)
		# The first word that is not an option (or follows "--") is
		# PROGRAM: from there on, its own completion.
		local j
		j=$(_sysward_program_word $((cmd_at + 1)) "-p|--policy|--policy-fd|--keep-fds|-l|--log|--log-format|-c|--cap|--report|--policy-max-bytes|--sandbox-net|--sandbox-bind")
		if ((j < cword)); then
			_command_offset "$j"
			return
		fi
		case $prev in
		-p|--policy)
			_sysward_policy_files
			return ;;
		-l|--log|--report)
			_filedir
			return ;;
		--log-format)
			COMPREPLY=($(compgen -W "json text" -- "$cur"))
			return ;;
		-c|--cap)
			COMPREPLY=($(compgen -W "$_sysward_caps" -- "$cur"))
			return ;;
		esac
		_sysward_daemon_socket && return
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--policy --policy-fd --keep-fds --sandbox --sandbox= --sandbox-net --sandbox-bind --log --log-format --cap --daemon --daemon= --kill-descendants --complain --report --gate --gate= --quiet --strict --policy-max-bytes --help" -- "$cur"))
			[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
			return
		fi
		# PROGRAM itself.
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	learn)
		local j
		j=$(_sysward_program_word $((cmd_at + 1)) "-o|--output|--format|--merge|-p|--policy|-c|--cap")
		if ((j < cword)); then
			_command_offset "$j"
			return
		fi
		case $prev in
		-o|--output|--merge|-p|--policy)
			_filedir
			return ;;
		--format)
			COMPREPLY=($(compgen -W "oci sysward" -- "$cur"))
			return ;;
		-c|--cap)
			COMPREPLY=($(compgen -W "$_sysward_caps" -- "$cur"))
			return ;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--output --policy --format --args --paths --catch-all --filesystem --merge --cap --quiet --strict --help" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -c -- "$cur"))
		;;
	check)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--quiet --strict --routes --json --policy-max-bytes --help" -- "$cur"))
			return
		fi
		_sysward_policy_files
		;;
	info)
		COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
		;;
	ps|kill)
		_sysward_daemon_socket && return
		local opts="--daemon --daemon= --help"
		[ "$cmd" = ps ] && opts="$opts --json"
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		;;
	help)
		((cword == cmd_at + 1)) &&
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		;;
	esac
} &&
	complete -F _sysward sysward
