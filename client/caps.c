// SPDX-License-Identifier: LGPL-2.1-or-later
/* Capability names from the command line, via libcap's own table. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

#include "run.h"

static int one_cap(const char *name, size_t len, uint64_t *mask)
{
	char buf[64];
	cap_value_t v;
	size_t off = 0;

	if (len == 0 || len >= sizeof(buf) - 4)
		return -EINVAL;
	/* Accept "CAP_SYS_ADMIN", "cap_sys_admin" and "sys_admin". */
	if (!(len > 4 && strncasecmp(name, "cap_", 4) == 0)) {
		memcpy(buf, "cap_", 4);
		off = 4;
	}
	for (size_t i = 0; i < len; i++)
		buf[off + i] = tolower((unsigned char)name[i]);
	buf[off + len] = '\0';

	if (strcmp(buf, "cap_all") == 0) {
		int last = cap_max_bits() - 1;

		for (int c = 0; c <= last && c < 64; c++)
			*mask |= UINT64_C(1) << c;
		return 0;
	}
	if (cap_from_name(buf, &v) < 0 || v < 0 || v >= 64)
		return -EINVAL;
	*mask |= UINT64_C(1) << v;
	return 0;
}

int sw_parse_caps(const char *text, uint64_t *mask, char *bad, size_t bad_size)
{
	const char *p = text;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (one_cap(p, len, mask) < 0) {
			snprintf(bad, bad_size, "%.*s", (int)len, p);
			return -EINVAL;
		}
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}
