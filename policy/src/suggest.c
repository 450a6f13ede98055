// SPDX-License-Identifier: LGPL-2.1-or-later
/* "did you mean ...?": the closest candidate by edit distance. */
#include "internal.h"

#include <assert.h>
#include <string.h>

#define MAXLEN 64

static inline int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions, so "nmaes" is one edit from "names"), case-insensitive,
 * so that "defaultaction" finds "defaultAction".  Words longer than MAXLEN
 * are never suggested for.
 */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	static_assert(MAXLEN < 128, "rows on the stack");
	size_t prev2[MAXLEN + 1], prev[MAXLEN + 1], cur[MAXLEN + 1];
	size_t i, j;

	if (la > MAXLEN || lb > MAXLEN)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		int ca = lower((unsigned char)a[i - 1]);

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			int cb = lower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    ca == lower((unsigned char)b[j - 2]) &&
			    cb == lower((unsigned char)a[i - 2]) &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

/* Length of the common prefix, case-insensitive. */
static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && b[n] &&
	       lower((unsigned char)a[n]) == lower((unsigned char)b[n]))
		n++;
	return n;
}

void sw_suggest_init(struct sw_suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->best_dist = SIZE_MAX;
}

/*
 * A candidate counts only if the distance is small compared with the part
 * of the word that differs from it: "SCMP_CMP_FOO" is not a typo of
 * "SCMP_CMP_NE" although only two letters differ.
 */
void sw_suggest_feed(struct sw_suggest *s, const char *candidate)
{
	size_t len, rest, limit, d;

	if (!candidate || strcmp(candidate, s->word) == 0)
		return;
	len = strlen(s->word);
	rest = len - common_prefix(s->word, candidate);
	limit = rest / 3;
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	/* the distance is at least the difference in length */
	if (strlen(candidate) > len + limit || strlen(candidate) + limit < len)
		return;
	d = distance(s->word, candidate);
	if (d > limit || d >= len)
		return;
	if (d < s->best_dist) {
		s->best_dist = d;
		s->best = candidate;
	}
}

const char *sw_suggest_result(const struct sw_suggest *s)
{
	return s->best;
}
