# SPDX-License-Identifier: LGPL-2.1-or-later
# The runner of a table of scenarios, sourced by a shell runner after
# common.sh: sw_rows TABLE makes each [NAME] block of TABLE the scenario
# t_NAME, run by sw_row.  tests/integration/run.sh sources it for its
# table tests/integration/run.rows (so its --list, and every runner that
# replays its scenarios, has the rows too: the daemon tests through
# syswardd, the QEMU guest), tests/daemon/daemon-tests.sh for
# tests/daemon/daemon-tests.rows.
#
# A block is the scenario NAME, then its steps, one a line; a line that
# starts with a blank continues the line above (a policy's JSON), "#"
# starts a comment, and "# tags: ..." just above "[NAME]" tags it as in
# common.sh.  Commands are bash words and TEXT is expanded as in a here
# document: both see $W (the work directory), $PROBE, $SYSWARD, $EXAMPLES,
# $TAB (a tab).
#
#   policy NAME       its JSON on the lines below: $W/NAME.json
#   daemon [OPTIONS]  start_daemon OPTIONS (tests/daemon/daemon-tests.sh:
#                     a private syswardd on $S); the run steps after it
#                     run through it (sysward run --daemon=$S)
#   sh CODE           bash: a setup step, or a check that calls fail;
#                     the variables it sets are the later steps' too
#   kernel [OPTIONS]  the run, run-nobody and cli steps after it run as
#                     on an older kernel: under "$PRETEND OPTIONS --"
#                     (sw-pretend, tests/lib/pretend.c); without
#                     OPTIONS, on this one again
#   run POLICY ARGS   sysward run --policy POLICY ARGS; POLICY "allow",
#                     "uid" or "uidN" is common.sh's allow_policy,
#                     uid_policy or uid_policy N, another word without
#                     "/" a policy of the block, else a path
#   run-nobody POLICY ARGS   the same as uid/gid 65534 ($W made 0755)
#   cli ARGS          sysward ARGS
#   cmd ARGS          ARGS, unconfined
# and what the last command did:
#   rc N | rc !N      its exit status is N | is not N
#   out [TEXT]        the out lines, in order, are the whole of stdout
#                     (one "out" without TEXT: stdout is empty)
#   line TEXT         TEXT is a whole line of stdout
#   has TEXT          stdout contains TEXT
#   err [TEXT]        stderr contains TEXT (without TEXT: stderr is empty)
#   err-lacks TEXT    stderr does not contain TEXT
#   log-has TEXT      the audit log $W/audit.log contains TEXT
#   log-match RE      a line of it matches RE (grep's basic regex)
#   log-lacks RE      no line of it does
# TEXT runs to the end of the line, blanks included.

TAB=$'\t'

# sw_row_text TEXT: TEXT expanded as in a here document.
sw_row_text() {
	eval "cat <<__SW_ROW_END__
$1
__SW_ROW_END__"
}

# sw_row_policy WORD: the path of the policy WORD names (see above).
sw_row_policy() {
	case $1 in
	allow) allow_policy ;;
	uid | uid[0-9]*) uid_policy "${1#uid}" ;;
	*/*) sw_row_text "$1" ;;
	*) echo "$W/$1.json" ;;
	esac
}

sw_row_step() {
	# Names of its own that no table uses: sh steps set globals.
	local row_key=$1 row_arg=$2 row_words row_p row_opt
	if [ "$row_key" != out ] && [ -n "${row_out+set}" ]; then
		expect_output "$row_out"
		unset row_out
	fi
	case $row_key in
	policy)
		sw_row_text "${row_arg#*$'\n'}" | policy "${row_arg%%$'\n'*}" >/dev/null ;;
	sh) eval "$row_arg" ;;
	kernel)
		eval "row_kernel=($row_arg)" || { fail "bad words: $row_arg"; return; }
		[ ${#row_kernel[@]} -eq 0 ] || row_kernel=("$PRETEND" "${row_kernel[@]}" --) ;;
	daemon | run | run-nobody | cli | cmd)
		eval "row_words=($row_arg)" || { fail "bad words: $row_arg"; return; }
		case $row_key in
		daemon)
			start_daemon "${row_words[@]}" || return
			row_daemon=--daemon=$S
			return ;;
		run | run-nobody)
			row_p=$(sw_row_policy "${row_words[0]}")
			row_words=("$SYSWARD" run ${row_daemon:+"$row_daemon"} --policy "$row_p" "${row_words[@]:1}") ;;&
		run-nobody)
			chmod 0755 "$W"
			row_words=(setpriv --reuid=65534 --regid=65534 --clear-groups "${row_words[@]}") ;;
		cli) row_words=("$SYSWARD" "${row_words[@]}") ;;
		esac
		[ "$row_key" = cmd ] || row_words=(${row_kernel[@]+"${row_kernel[@]}"} "${row_words[@]}")
		sw_capture "${row_words[@]}" ;;
	rc)
		if [[ $row_arg == !* ]]; then
			[ "$rc" -ne "${row_arg#!}" ] || { fail "expected an exit status other than ${row_arg#!}"; dump_last; }
		else
			expect_rc "$row_arg"
		fi ;;
	out)
		row_out=${row_out+$row_out$'\n'}$(sw_row_text "$row_arg") ;;
	line) expect_line "$(sw_row_text "$row_arg")" ;;
	has) expect_out_contains "$(sw_row_text "$row_arg")" ;;
	err)
		if [ -z "$row_arg" ]; then
			[ ! -s "$W/err" ] || { fail "expected nothing on stderr"; dump_last; }
		else
			expect_err "$(sw_row_text "$row_arg")"
		fi ;;
	err-lacks)
		! grep -Fq -- "$(sw_row_text "$row_arg")" "$W/err" ||
			{ fail "unexpected '$(sw_row_text "$row_arg")' on stderr"; dump_last; } ;;
	log-has | log-match)
		row_opt=-q
		[ "$row_key" = log-match ] || row_opt=-Fq
		grep "$row_opt" -- "$(sw_row_text "$row_arg")" "$W/audit.log" ||
			{ fail "the audit log lacks '$(sw_row_text "$row_arg")'"; cat "$W/audit.log" >&2; } ;;
	log-lacks)
		! grep -q -- "$(sw_row_text "$row_arg")" "$W/audit.log" ||
			{ fail "the audit log has '$(sw_row_text "$row_arg")'"; cat "$W/audit.log" >&2; } ;;
	end) ;;
	*) fail "$ROWS: unknown step '$row_key'"; return 1 ;;
	esac
}

# sw_row_steps NAME: NAME's steps, a continued line joined to its own by a
# newline, each step NUL-terminated as "KEY ARG".
sw_row_steps() {
	awk -v want="[$1]" '
	function flush() { if (step != "") printf "%s%c", step, 0; step = "" }
	$0 == want { on = 1; next }
	on && /^\[/ { exit }
	!on || /^#/ || /^$/ { next }
	/^[ \t]/ { step = step "\n" substr($0, 2); next }
	{ flush(); step = $0 }
	END { flush() }' "$ROWS"
}

# sw_row NAME: run the block NAME of the table $ROWS.
sw_row() {
	local row_step
	unset row_out
	row_daemon=
	row_kernel=()
	while IFS= read -r -d '' row_step; do
		[[ $row_step == *' '* ]] || row_step+=' '
		sw_row_step "${row_step%% *}" "${row_step#* }" || return
	done < <(sw_row_steps "$1")
	sw_row_step end ""
}

# sw_rows TABLE: each block of TABLE becomes the scenario t_NAME.
sw_rows() {
	local name
	ROWS=$1
	for name in $(sed -n 's/^\[\([a-z0-9_]*\)\]$/\1/p' "$ROWS"); do
		if declare -F "t_$name" >/dev/null; then
			echo "$ROWS: [$name] is also a function t_$name" >&2
			return 1
		fi
		eval "t_$name() { sw_row $name; }"
	done
}
