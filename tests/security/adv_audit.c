// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 15: forge or break the audit log.  Everything the program passes
 * to a logged call reaches the log; a path with a newline could write a
 * whole record of its own into the text log, a byte that is not UTF-8
 * could make a JSON line invalid.
 *
 *   adv_audit DIR     open and exec DIR/<name> for every name below
 *
 * Prints "call SYSCALL HEX" for each call made (HEX: the exact bytes of
 * the path); check.sh and tests/lib/audit-check.py then hold the log to
 * them: one parseable line per call, nothing else, the exact bytes
 * recoverable.  The names need not exist: the calls only have to reach
 * the supervisor.
 */
#include <fcntl.h>

#include "adv.h"

static const char *const names[] = {
	"plain",
	"new\nline",
	"carriage\rreturn",
	"tab\there",
	"esc\033[2Jclear\033]0;title\007",
	/* A whole text record, then a whole JSON record, each on a line. */
	"x\n2030-01-01T00:00:00.000Z [pid 1] x86_64 openat(0xffffff9c, 0x1, 0x0, "
	"0x0, 0x0, 0x0) path=\"/forged\" rule=0 (syscalls[0]) SCMP_ACT_ALLOW -> allow\n",
	"x\n{\"time\":\"2030-01-01T00:00:00.000Z\",\"pid\":1,\"syscall\":\"openat\"}\n",
	"q\"uo\"te",
	"back\\slash\\x41\\u00e9\\n",
	"del\177 c1-csi\302\233 nel\302\205",
	"lone-continuation\200\277",
	"overlong\300\257\340\200\257",
	"surrogate\355\240\200",
	"beyond\365\200\200\200\370\377\376",
	"truncated\342\202",
	"latin1-e-acute\351",
	"utf8-e-acute\303\251 euro\342\202\254 clef\360\235\204\236",
	"line-separator\342\200\250 paragraph\342\200\251",
	"replacement-char\357\277\275",
};

static void call(const char *sys, const char *p, long r, int e)
{
	char hex[2 * 512 + 1];
	size_t n = 0;

	for (const unsigned char *c = (const unsigned char *)p;
	     *c && n + 2 < sizeof(hex); c++, n += 2)
		snprintf(hex + n, 3, "%02x", *c);
	hex[n] = '\0';
	adv_line("call", "%s %s", sys, hex);
	RESULT("%s = %s", sys, RET(r, e));
}

int main(int argc, char **argv)
{
	char *const no_env[] = { NULL };

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return ADV_CANNOT;
	}
	TRIED("openat and execve of %zu paths with control bytes, forged "
	      "records and bytes that are not UTF-8",
	      sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char p[512];
		char *const av[] = { p, NULL };
		long r;

		snprintf(p, sizeof(p), "%s/%s", argv[1], names[i]);
		r = openat(AT_FDCWD, p, O_RDONLY);
		call("openat", p, r, errno);
		if (r >= 0)
			close((int)r);
		r = execve(p, av, no_env);
		call("execve", p, r, errno);
	}
	/* The verdict is the log's: check.sh reads it. */
	return ADV_CONTAINED;
}
