// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How the commands that read a policy (check, run, learn) take the size
 * limit a user raises: --policy-max-bytes BYTES, else the environment's
 * SYSWARD_POLICY_MAX_BYTES, else the library's 1 MiB.  One parser for
 * both, bounded by SW_LIMIT_POLICY_BYTES_MAX (limits.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/limits.h"
#include "commands.h"

int sw_cli_parse_policy_max_bytes(const char *text, size_t *ret)
{
	unsigned long long n, unit = 1;
	char *end;

	if (!text || *text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end == 'K' || *end == 'k')
		unit = 1ull << 10;
	else if (*end == 'M')
		unit = 1ull << 20;
	if (unit > 1)
		end++;
	if (*end)
		return -EINVAL;
	if (n == 0 || n > SW_LIMIT_POLICY_BYTES_MAX / unit)
		return -ERANGE;
	*ret = (size_t)(n * unit);
	return 0;
}

int sw_cli_policy_max_bytes(const char *option, size_t *ret)
{
	const char *env = getenv("SYSWARD_POLICY_MAX_BYTES");
	const char *from = option ? "--policy-max-bytes" : "SYSWARD_POLICY_MAX_BYTES";
	const char *text = option ? option : env;

	*ret = 0;
	if (!text || (!option && !*text))
		return 0;
	if (sw_cli_parse_policy_max_bytes(text, ret) < 0) {
		sw_cli_error("%s=%s: expected a number of bytes from 1 to %u "
			     "(a K or M suffix counts KiB or MiB)", from, text,
			     SW_LIMIT_POLICY_BYTES_MAX);
		return -EINVAL;
	}
	return 0;
}
