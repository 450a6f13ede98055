// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The two traps of getopt_long(3), one home for the words that say so.
 *
 * An optional argument is taken only after '=' ("--gate=3", "-d/x"):
 * "--gate 3" gives the option no value and leaves "3" as the next word,
 * which "run" then executes as PROGRAM.  A required argument is taken
 * whatever the next word is: "--report -- true" writes a file named
 * "--" and runs "true".  Both are refused here when the next word shows
 * what the user meant, with the line that does it, as git and ssh do.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"

/* Does word name a syswardd socket: a Unix socket, or a name that says
 * it is one (a daemon not started yet has none)?  A program is never a
 * socket, and "sock" in a program's name is rare enough: "--daemon --
 * PROGRAM" runs it anyway. */
static bool looks_like_socket(const char *word)
{
	const char *base = strrchr(word, '/');
	struct stat st;

	if (stat(word, &st) == 0 && S_ISSOCK(st.st_mode))
		return true;
	return strstr(base ? base + 1 : word, "sock") != NULL;
}

static bool looks_like_number(const char *word)
{
	size_t n = strspn(word, "0123456789");

	return n > 0 && n <= 3 && word[n] == '\0';
}

static bool looks_like(enum sw_cli_value kind, const char *word)
{
	switch (kind) {
	case SW_CLI_VALUE_SOCKET:
		return looks_like_socket(word);
	case SW_CLI_VALUE_PATH:
		return looks_like_socket(word) || strchr(word, '/') != NULL;
	case SW_CLI_VALUE_NUMBER:
		return looks_like_number(word);
	case SW_CLI_VALUE_DIR: {
		struct stat st;

		/* execve(2) of a directory fails (EACCES): never a PROGRAM */
		return stat(word, &st) == 0 && S_ISDIR(st.st_mode);
	}
	}
	return false;
}

int sw_cli_optional_arg(const char *cmd, int argc, char **argv, int next,
			const char *name, enum sw_cli_value kind,
			const char *alone)
{
	const char *word = next < argc ? argv[next] : NULL;

	if (!word || word[0] == '-' || !looks_like(kind, word))
		return 0;
	return -sw_cli_usage(cmd,
		"'--%s %s': the value of --%s follows '=': --%s=%s (alone, --%s %s)",
		name, word, name, name, word, name, alone);
}

int sw_cli_required_arg(const char *cmd, char **argv, int next,
			const char *value, const char *name, const char *what)
{
	/* Only a value that was a word of its own: "--report=--" and
	 * "-p-x" say what they mean (getopt points into the word there).
	 * "-" alone is standard input or output, a value. */
	if (value != argv[next - 1] || value[0] != '-' || value[1] == '\0')
		return 0;
	return -sw_cli_usage(cmd,
		"--%s: missing %s before '%s', which is an option (for a file of that name, write --%s=./%s)",
		name, what, value, name, value);
}
