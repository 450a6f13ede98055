/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one runner of every unit test binary: run the suite, exit status. */
#ifndef SW_CHECK_RUN_H
#define SW_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int sw_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
