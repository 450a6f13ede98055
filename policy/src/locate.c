// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where a JSON path is in a policy's text.  json-c keeps no positions, so
 * a problem of meaning is found again in the text from its JSON path
 * ("syscalls[3].args[0].op"), the one name every check already gives
 * it: the parser's errors and warnings, the lints and `sysward check`'s
 * own findings all locate the same way.  Only for diagnostics: the text
 * is walked lexically from the value of the rule the path names (the
 * skim keeps where each rule starts), and offsets become line:col by a
 * binary search over the line starts, so that a policy with a thousand
 * findings is not read a thousand times.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sysward/policy.h"

int sw_json_lines_init(struct sw_json_lines *l, const char *text, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	l->start = malloc(n * sizeof(*l->start));
	if (!l->start)
		return -ENOMEM;
	l->n = 0;
	l->start[l->n++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n')
			l->start[l->n++] = i + 1;
	return 0;
}

void sw_json_lines_linecol(const struct sw_json_lines *l, size_t off,
			   unsigned int *line, unsigned int *col)
{
	size_t lo = 0, hi = l->n;

	/* the last line that starts at or before off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = (unsigned int)(lo + 1);
	*col = (unsigned int)(off - l->start[lo] + 1);
}

void sw_json_lines_done(struct sw_json_lines *l)
{
	free(l->start);
	l->start = NULL;
	l->n = 0;
}

static size_t skip_space(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' ||
			   t[i] == '\r'))
		i++;
	return i;
}

/* The offset after the value at t[i]. */
static size_t skip_value(const char *t, size_t len, size_t i)
{
	size_t depth = 0;

	if (i >= len)
		return len;
	if (t[i] != '{' && t[i] != '[') {
		if (t[i] == '"')
			return sw_json_skip_string(t, len, i);
		while (i < len && !strchr(",}] \t\r\n", t[i]))
			i++;
		return i;
	}
	for (; i < len; i++) {
		if (t[i] == '"') {
			i = sw_json_skip_string(t, len, i) - 1;
		} else if (t[i] == '{' || t[i] == '[') {
			depth++;
		} else if (t[i] == '}' || t[i] == ']') {
			if (--depth == 0)
				return i + 1;
		}
	}
	return len;
}

/* Element n of the array at t[i], or len. */
static size_t find_index(const char *t, size_t len, size_t i, size_t n)
{
	if (i >= len || t[i] != '[')
		return len;
	i = skip_space(t, len, i + 1);
	for (size_t k = 0; i < len && t[i] != ']'; k++) {
		if (k == n)
			return i;
		i = skip_space(t, len, skip_value(t, len, i));
		if (i < len && t[i] == ',')
			i = skip_space(t, len, i + 1);
	}
	return len;
}

/* The value of key (klen bytes) in the object at t[i], or len;
 * *key_at: where the key's quote is.  The skim refuses escapes in
 * keys, so a key is compared as written. */
static size_t find_key(const char *t, size_t len, size_t i, const char *key,
		       size_t klen, size_t *key_at)
{
	if (i >= len || t[i] != '{')
		return len;
	i = skip_space(t, len, i + 1);
	while (i < len && t[i] == '"') {
		size_t k = i, end = sw_json_skip_string(t, len, i);
		bool match = end - k == klen + 2 &&
			     memcmp(t + k + 1, key, klen) == 0;

		i = skip_space(t, len, end);
		if (i < len && t[i] == ':')
			i = skip_space(t, len, i + 1);
		if (match) {
			*key_at = k;
			return i;
		}
		i = skip_space(t, len, skip_value(t, len, i));
		if (i < len && t[i] == ',')
			i = skip_space(t, len, i + 1);
	}
	return len;
}

size_t sw_json_find(const char *t, size_t len, size_t start,
		    const char *path, bool key)
{
	size_t at = skip_space(t, len, start), key_at = len;
	const char *p = path ? path : "";

	while (*p) {
		size_t next;

		key_at = len;
		if (*p == '[') {
			char *end;
			unsigned long n = strtoul(p + 1, &end, 10);

			if (*end != ']')
				break;
			next = find_index(t, len, at, n);
			p = end + 1;
		} else {
			size_t klen = strcspn(p, ".[");

			next = find_key(t, len, at, p, klen, &key_at);
			p += klen;
		}
		if (next >= len)
			break;		/* the deepest part the text has */
		at = next;
		if (*p == '.')
			p++;
	}
	if (key && !*p && key_at < len)
		return key_at;
	return at;
}

/* ------------------------------------------------------------------ */
/* the public index (policy.h) */

struct sw_policy_text {
	const char *text;
	size_t len;
	struct sw_skim skim;
	struct sw_json_lines lines;
};

int sw_policy_text_index(const char *text, size_t len,
			 struct sw_policy_text **ret)
{
	struct sw_policy_text *t = calloc(1, sizeof(*t));
	char why[256];
	size_t off;
	int r;

	if (!t)
		return -ENOMEM;
	/* as sw_policy_load_string() reads it: after a byte-order mark */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	t->text = text;
	t->len = len;
	r = sw_skim(text, len, &t->skim, why, sizeof(why), &off);
	if (r == -ENOMEM || sw_json_lines_init(&t->lines, text, len) < 0) {
		sw_policy_text_free(t);
		return -ENOMEM;
	}
	*ret = t;
	return 0;
}

void sw_policy_text_locate(const struct sw_policy_text *t, const char *path,
			   bool key, unsigned int *line, unsigned int *col)
{
	sw_json_lines_linecol(&t->lines,
			      sw_pol_find(t->text, t->len, &t->skim, path, key),
			      line, col);
}

void sw_policy_text_free(struct sw_policy_text *t)
{
	if (!t)
		return;
	sw_skim_done(&t->skim);
	sw_json_lines_done(&t->lines);
	free(t);
}

size_t sw_pol_find(const char *text, size_t len, const struct sw_skim *skim,
		   const char *path, bool key)
{
	static const char rules[] = "syscalls[";
	const char *p = path ? path : "";

	/* From the rule's own start: a path in rule N reads no other rule. */
	if (strncmp(p, rules, sizeof(rules) - 1) == 0) {
		char *end;
		unsigned long n = strtoul(p + sizeof(rules) - 1, &end, 10);

		if (*end == ']' && n < skim->n_rules) {
			p = end + 1;
			if (*p == '.')
				p++;
			return sw_json_find(text, len, skim->rule_off[n], p, key);
		}
	}
	return sw_json_find(text, len, 0, p, key);
}
