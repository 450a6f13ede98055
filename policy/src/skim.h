/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef SW_POLICY_SKIM_H
#define SW_POLICY_SKIM_H

#include <stdbool.h>
#include <stddef.h>

#define SW_SKIM_MAX_DEPTH 64

struct sw_skim {
	unsigned int *rule_line;	/* line where syscalls[i] starts */
	size_t *rule_off;		/* and its offset in the text */
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

/* t[i] == '"': the offset after the string's closing quote (or len). */
size_t sw_json_skip_string(const char *t, size_t len, size_t i);

void sw_offset_to_linecol(const char *text, size_t len, size_t off,
			  unsigned int *line, unsigned int *col);

/* ---- positions (locate.c) ---- */

/* The line starts of a text, for offset -> line:col in O(log lines). */
struct sw_json_lines {
	size_t *start;
	size_t n;
};
int sw_json_lines_init(struct sw_json_lines *l, const char *text, size_t len);
void sw_json_lines_linecol(const struct sw_json_lines *l, size_t off,
			   unsigned int *line, unsigned int *col);
void sw_json_lines_done(struct sw_json_lines *l);

/*
 * In valid JSON text, the offset of the value at path ("names[2]",
 * "args[0].op", "" for the value itself) below the value that starts at
 * text[start]; with key, that of its key's opening quote when path ends
 * in a key.  A path the text does not have gives the deepest part it has
 * (the object of a missing key).
 */
size_t sw_json_find(const char *text, size_t len, size_t start,
		    const char *path, bool key);

#endif
