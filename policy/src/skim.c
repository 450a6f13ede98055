// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A second, lexical pass over JSON text that json-c has already accepted.
 *
 * json-c keeps no source positions, silently keeps the last of two equal
 * keys and clamps integers that do not fit in 64 bits.  For a security
 * policy all three matter: this pass records where each element of the
 * top-level "syscalls" array starts (its line, for messages and audit), and rejects
 * duplicate keys and out-of-range integers with file:line:col.
 */
#include "skim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64	/* no policy object has more than ~16 keys */

struct level {
	char type;		/* '{' or '[' */
	bool expect_key;	/* object: next string is a key */
	bool in_syscalls;	/* this array is the top-level "syscalls" */
	size_t n_keys;
	size_t key_off[MAX_KEYS], key_len[MAX_KEYS];
};

void sw_offset_to_linecol(const char *text, size_t len, size_t off,
			  unsigned int *line, unsigned int *col)
{
	unsigned int l = 1, c = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static size_t skip_string(const char *t, size_t len, size_t i)
{
	/* t[i] == '"'; returns the index after the closing quote */
	for (i++; i < len; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return len;
}

/* Integer literal digits (without sign) within [0, limit]? */
static bool fits(const char *digits, size_t n, const char *limit)
{
	size_t ln = strlen(limit);

	while (n > 1 && digits[0] == '0') {
		digits++;
		n--;
	}
	if (n != ln)
		return n < ln;
	return memcmp(digits, limit, n) <= 0;
}

int sw_skim(const char *t, size_t len, struct sw_skim *out, char *why,
	    size_t why_len, size_t *why_off)
{
	struct level *stack;
	int depth = 0;
	bool pending_syscalls = false;	/* key "syscalls" at depth 1 seen */
	unsigned int line = 1;		/* strict JSON strings hold no raw \n */
	size_t i = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	stack = calloc(SW_SKIM_MAX_DEPTH + 1, sizeof(*stack));
	if (!stack)
		return -ENOMEM;

	while (i < len) {
		char ch = t[i];
		struct level *top = depth > 0 ? &stack[depth - 1] : NULL;

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			line += ch == '\n';
			i++;
			continue;
		}
		/* The start of a value inside the "syscalls" array. */
		if (top && top->type == '[' && top->in_syscalls &&
		    ch != ']' && ch != ',') {
			unsigned int *n;

			if (out->n_rules == out->cap) {
				size_t ncap = out->cap ? out->cap * 2 : 64;

				n = realloc(out->rule_line, ncap * sizeof(*n));
				if (!n) {
					r = -ENOMEM;
					goto out;
				}
				out->rule_line = n;
				out->cap = ncap;
			}
			out->rule_line[out->n_rules++] = line;
			top->in_syscalls = false;	/* until the next ',' */
			top->type = 'S';
		}
		switch (ch) {
		case '{':
		case '[':
			if (depth >= SW_SKIM_MAX_DEPTH) {
				snprintf(why, why_len, "nesting too deep");
				*why_off = i;
				r = -EINVAL;
				goto out;
			}
			stack[depth] = (struct level){
				.type = ch,
				.expect_key = ch == '{',
				.in_syscalls = ch == '[' && pending_syscalls &&
					       depth == 1,
			};
			pending_syscalls = false;
			depth++;
			i++;
			break;
		case '}':
		case ']':
			if (depth > 0)
				depth--;
			i++;
			break;
		case ',':
			if (top && top->type == '{')
				top->expect_key = true;
			if (top && top->type == 'S') {
				top->type = '[';
				top->in_syscalls = true;
			}
			i++;
			break;
		case ':':
			i++;
			break;
		case '"': {
			size_t end = skip_string(t, len, i);

			if (top && top->type == '{' && top->expect_key) {
				size_t klen = end - i;

				top->expect_key = false;
				/* json-c decodes keys and cuts them at a NUL:
				 * "n\u0061mes" and "names\u0000x" would both be
				 * "names" and slip past the duplicate check.
				 * No valid policy key needs an escape. */
				if (memchr(t + i, '\\', klen)) {
					snprintf(why, why_len,
						 "escape sequence in key %.*s (keys are plain names such as \"names\")",
						 klen > 66 ? 66 : (int)klen,
						 t + i);
					*why_off = i;
					r = -EINVAL;
					goto out;
				}
				for (size_t k = 0; k < top->n_keys; k++)
					if (top->key_len[k] == klen &&
					    memcmp(t + top->key_off[k], t + i,
						   klen) == 0) {
						snprintf(why, why_len,
							 "duplicate key %.*s in the same object (JSON parsers keep only one of them)",
							 klen > 66 ? 66 : (int)klen,
							 t + i);
						*why_off = i;
						r = -EINVAL;
						goto out;
					}
				if (top->n_keys == MAX_KEYS) {
					snprintf(why, why_len,
						 "object has more than %d keys",
						 MAX_KEYS);
					*why_off = i;
					r = -EINVAL;
					goto out;
				}
				top->key_off[top->n_keys] = i;
				top->key_len[top->n_keys++] = klen;
				pending_syscalls =
					depth == 1 && klen == 10 &&
					memcmp(t + i, "\"syscalls\"", 10) == 0;
			} else {
				pending_syscalls = false;
			}
			i = end;
			break;
		}
		default: {
			size_t start = i;
			bool integer = true;

			pending_syscalls = false;
			if (ch != '-' && !(ch >= '0' && ch <= '9')) {
				/* true, false, null */
				while (i < len && t[i] >= 'a' && t[i] <= 'z')
					i++;
				if (i == start)
					i++;
				break;
			}
			while (i < len && (t[i] == '-' || t[i] == '+' ||
					   t[i] == '.' || t[i] == 'e' ||
					   t[i] == 'E' ||
					   (t[i] >= '0' && t[i] <= '9'))) {
				if (t[i] == '.' || t[i] == 'e' || t[i] == 'E')
					integer = false;
				i++;
			}
			if (integer) {
				bool neg = t[start] == '-';
				const char *d = t + start + neg;
				size_t n = i - start - neg;

				if (!fits(d, n, neg ? "9223372036854775808" :
						      "18446744073709551615")) {
					snprintf(why, why_len,
						 "integer %.*s%s does not fit in 64 bits",
						 (int)(i - start > 40 ? 40 : i - start),
						 t + start,
						 i - start > 40 ? "..." : "");
					*why_off = start;
					r = -EINVAL;
					goto out;
				}
			}
			break;
		}
		}
	}
out:
	free(stack);
	if (r < 0 && r != -EINVAL) {
		free(out->rule_line);
		memset(out, 0, sizeof(*out));
	}
	return r;
}

void sw_skim_done(struct sw_skim *s)
{
	free(s->rule_line);
	memset(s, 0, sizeof(*s));
}
