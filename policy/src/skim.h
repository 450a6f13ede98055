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

/*
 * The JSON slips people make when they write a policy by hand (a trailing
 * comma, a comment, single quotes, a missing comma, an unquoted key,
 * Python's True/False/None, NaN): if the parser stopped at text[off] because
 * of one, write what it is into why, set *slip_off to where it is (the
 * comma for a trailing comma) and return true.  Text that is no such slip:
 * false, why untouched.
 */
enum sw_json_expect {
	SW_JSON_EXPECT_ANY,		/* unknown, or a value */
	SW_JSON_EXPECT_SEPARATOR,	/* ',' or the end after a value */
	SW_JSON_EXPECT_KEY,		/* a "quoted" key */
};
bool sw_json_slip(const char *text, size_t len, size_t off,
		  enum sw_json_expect expect, size_t *slip_off, char *why,
		  size_t why_len);

void sw_offset_to_linecol(const char *text, size_t len, size_t off,
			  unsigned int *line, unsigned int *col);

#endif
