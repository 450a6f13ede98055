// SPDX-License-Identifier: LGPL-2.1-or-later
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sysward/caps.h"

bool sw_cap_effective(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct c[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (cap < 0 || cap >= 32 * _LINUX_CAPABILITY_U32S_3 ||
	    syscall(SYS_capget, &h, c) != 0)
		return false;
	return c[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}
