// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Placeholder for the daemon client: "sysward run --daemon" will send the
 * request to syswardd here.  Until then the embedded mode is the only one.
 */
#include "commands.h"
#include "run.h"

int sw_run_daemon(const struct run_options *o)
{
	sw_cli_error("daemon mode is not available in this build; "
		     "run without --daemon");
	return SW_EXIT_SYSWARD_ERROR;
}
