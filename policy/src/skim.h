/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SW_POLICY_SKIM_H
#define SW_POLICY_SKIM_H

#include <stdbool.h>
#include <stddef.h>

#define SW_SKIM_MAX_DEPTH 64

struct sw_skim {
	unsigned int *rule_line;	/* line where syscalls[i] starts */
	size_t n_rules, cap;
};

/* Text must already be valid JSON.  On -EINVAL, why/why_off say what and
 * where; call sw_skim_done in every case. */
int sw_skim(const char *text, size_t len, struct sw_skim *out, char *why,
	    size_t why_len, size_t *why_off);
void sw_skim_done(struct sw_skim *s);

void sw_offset_to_linecol(const char *text, size_t len, size_t off,
			  unsigned int *line, unsigned int *col);

#endif
