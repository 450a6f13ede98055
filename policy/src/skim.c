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
#include <stdarg.h>
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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '-';
}

/* The bare word at t[off] (letters, digits, '_', '$', '-'): its length. */
static size_t word_len(const char *t, size_t len, size_t off)
{
	size_t i = off;

	while (i < len && is_word(t[i]))
		i++;
	return i - off;
}

static bool word_is(const char *t, size_t n, const char *w)
{
	return n == strlen(w) && memcmp(t, w, n) == 0;
}

/* Words other languages write where JSON has its own, and their JSON. */
static const struct {
	const char *word, *json;
} foreign_words[] = {
	{ "True", "true" }, { "TRUE", "true" },
	{ "False", "false" }, { "FALSE", "false" },
	{ "None", "null" }, { "NULL", "null" }, { "nil", "null" },
	{ "undefined", "null" },
};

bool sw_json_slip(const char *t, size_t len, size_t off,
		  enum sw_json_expect expect, size_t *slip_off, char *why,
		  size_t why_len)
{
	char c = off < len ? t[off] : '\0';
	size_t prev = off < len ? off : len, n;
	char pc;

	while (prev > 0 && is_space(t[prev - 1]))
		prev--;
	pc = prev > 0 ? t[prev - 1] : '\0';
	*slip_off = off;
	if ((c == '}' || c == ']') && pc == ',') {
		*slip_off = prev - 1;
		snprintf(why, why_len,
			 "trailing comma after the last element of the %s (JSON allows none): remove it",
			 c == '}' ? "object" : "array");
		return true;
	}
	if (c == ',' && (pc == ',' || pc == '[' || pc == '{')) {
		snprintf(why, why_len, pc == ','
			 ? "two commas in a row (JSON has no empty elements): remove one"
			 : "comma before the first element: remove it");
		return true;
	}
	if (c == '/' && off + 1 < len && (t[off + 1] == '/' || t[off + 1] == '*')) {
		snprintf(why, why_len,
			 "comment: JSON has no comments (neither // nor /* */); remove it, or write the text in a \"comment\" key");
		return true;
	}
	if (c == '\'') {
		snprintf(why, why_len,
			 "single quotes: JSON writes strings and keys in double quotes (\"...\")");
		return true;
	}
	n = word_len(t, len, off);
	for (size_t i = 0; i < sizeof(foreign_words) / sizeof(foreign_words[0]); i++)
		if (word_is(t + off, n, foreign_words[i].word)) {
			snprintf(why, why_len, "%s is not JSON: write %s",
				 foreign_words[i].word, foreign_words[i].json);
			return true;
		}
	if (word_is(t + off, n, "NaN") || word_is(t + off, n, "Infinity") ||
	    word_is(t + off, n, "-Infinity")) {
		snprintf(why, why_len,
			 "%.*s is not a JSON number (JSON has only finite numbers)",
			 (int)n, t + off);
		return true;
	}
	if (expect == SW_JSON_EXPECT_KEY && n > 0 && (pc == '{' || pc == ',') &&
	    !(c >= '0' && c <= '9') && c != '-') {
		snprintf(why, why_len,
			 "key not in double quotes: write \"%.*s\"",
			 n > 64 ? 64 : (int)n, t + off);
		return true;
	}
	if (expect == SW_JSON_EXPECT_SEPARATOR &&
	    (c == '"' || c == '{' || c == '[' || c == '-' || n > 0)) {
		snprintf(why, why_len,
			 "missing ',' between this and the value before it");
		return true;
	}
	return false;
}

size_t sw_json_skip_string(const char *t, size_t len, size_t i)
{
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

/* One pass: the text, where it is, and where a refusal is written. */
struct skim {
	const char *t;
	size_t len, i;
	struct level *stack;
	int depth;
	bool pending_syscalls;	/* key "syscalls" at depth 1 seen */
	unsigned int line;	/* strict JSON strings hold no raw \n */
	struct sw_skim *out;
	char *why;
	size_t why_len, *why_off;
};

static int skim_refuse(struct skim *sk, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int skim_refuse(struct skim *sk, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sk->why, sk->why_len, fmt, ap);
	va_end(ap);
	*sk->why_off = off;
	return -EINVAL;
}

/* The start of a value inside the "syscalls" array: note its line. */
static int note_rule(struct skim *sk, struct level *top)
{
	struct sw_skim *out = sk->out;

	if (out->n_rules == out->cap) {
		size_t ncap = out->cap ? out->cap * 2 : 64;
		unsigned int *n = realloc(out->rule_line, ncap * sizeof(*n));
		size_t *o;

		if (!n)
			return -ENOMEM;
		out->rule_line = n;
		o = realloc(out->rule_off, ncap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		out->rule_off = o;
		out->cap = ncap;
	}
	out->rule_off[out->n_rules] = sk->i;
	out->rule_line[out->n_rules++] = sk->line;
	top->in_syscalls = false;	/* until the next ',' */
	top->type = 'S';
	return 0;
}

static int open_level(struct skim *sk, char ch)
{
	if (sk->depth >= SW_SKIM_MAX_DEPTH)
		return skim_refuse(sk, sk->i, "nesting too deep");
	sk->stack[sk->depth] = (struct level){
		.type = ch,
		.expect_key = ch == '{',
		.in_syscalls = ch == '[' && sk->pending_syscalls &&
			       sk->depth == 1,
	};
	sk->pending_syscalls = false;
	sk->depth++;
	sk->i++;
	return 0;
}

/* A key of the object top, t[i..end): plain, new in its object. */
static int key(struct skim *sk, struct level *top, size_t end)
{
	const char *t = sk->t;
	size_t i = sk->i, klen = end - i;

	top->expect_key = false;
	/* json-c decodes keys and cuts them at a NUL: "n\u0061mes" and
	 * "names\u0000x" would both be "names" and slip past the duplicate
	 * check.  No valid policy key needs an escape. */
	if (memchr(t + i, '\\', klen))
		return skim_refuse(sk, i, "escape sequence in key %.*s (keys are plain names such as \"names\")",
				   klen > 66 ? 66 : (int)klen, t + i);
	for (size_t k = 0; k < top->n_keys; k++)
		if (top->key_len[k] == klen &&
		    memcmp(t + top->key_off[k], t + i, klen) == 0)
			return skim_refuse(sk, i, "duplicate key %.*s in the same object (JSON parsers keep only one of them)",
					   klen > 66 ? 66 : (int)klen, t + i);
	if (top->n_keys == MAX_KEYS)
		return skim_refuse(sk, i, "object has more than %d keys", MAX_KEYS);
	top->key_off[top->n_keys] = i;
	top->key_len[top->n_keys++] = klen;
	sk->pending_syscalls = sk->depth == 1 && klen == 10 &&
			       memcmp(t + i, "\"syscalls\"", 10) == 0;
	return 0;
}

/* A number or true/false/null at t[i]; an integer must fit in 64 bits. */
static int scalar(struct skim *sk)
{
	const char *t = sk->t;
	size_t start = sk->i, i = start;
	bool integer = true;
	char ch = t[i];

	sk->pending_syscalls = false;
	if (ch != '-' && !(ch >= '0' && ch <= '9')) {
		size_t n = word_len(t, sk->len, start);

		/* json-c's strict mode still takes 'single-quoted' keys and
		 * NaN and Infinity: a key so written escapes the duplicate
		 * check above, and runc (Go's encoding/json) refuses both. */
		if (word_is(t + start, n, "true") || word_is(t + start, n, "false") ||
		    word_is(t + start, n, "null")) {
			sk->i = start + n;
			return 0;
		}
		if (!sw_json_slip(t, sk->len, start, SW_JSON_EXPECT_ANY, &i,
				  sk->why, sk->why_len))
			snprintf(sk->why, sk->why_len, "unexpected '%c'", ch);
		*sk->why_off = i;
		return -EINVAL;
	}
	while (i < sk->len && (t[i] == '-' || t[i] == '+' || t[i] == '.' ||
			       t[i] == 'e' || t[i] == 'E' ||
			       (t[i] >= '0' && t[i] <= '9'))) {
		if (t[i] == '.' || t[i] == 'e' || t[i] == 'E')
			integer = false;
		i++;
	}
	sk->i = i;
	if (i < sk->len && is_word(t[i])) {	/* -Infinity, 1x */
		if (!sw_json_slip(t, sk->len, start, SW_JSON_EXPECT_ANY, &i,
				  sk->why, sk->why_len))
			snprintf(sk->why, sk->why_len, "unexpected '%c'", t[i]);
		*sk->why_off = i;
		return -EINVAL;
	}
	if (integer) {
		bool neg = t[start] == '-';

		if (!fits(t + start + neg, i - start - neg,
			  neg ? "9223372036854775808" : "18446744073709551615"))
			return skim_refuse(sk, start, "integer %.*s%s does not fit in 64 bits",
					   (int)(i - start > 40 ? 40 : i - start),
					   t + start, i - start > 40 ? "..." : "");
	}
	return 0;
}

/* One token at t[i] (not white space); advances i. */
static int token(struct skim *sk)
{
	char ch = sk->t[sk->i];
	struct level *top = sk->depth > 0 ? &sk->stack[sk->depth - 1] : NULL;
	int r;

	if (top && top->type == '[' && top->in_syscalls &&
	    ch != ']' && ch != ',' && (r = note_rule(sk, top)) < 0)
		return r;
	switch (ch) {
	case '{':
	case '[':
		return open_level(sk, ch);
	case '}':
	case ']':
		if (sk->depth > 0)
			sk->depth--;
		break;
	case ',':
		if (top && top->type == '{')
			top->expect_key = true;
		if (top && top->type == 'S') {
			top->type = '[';
			top->in_syscalls = true;
		}
		break;
	case ':':
		break;
	case '"': {
		size_t end = sw_json_skip_string(sk->t, sk->len, sk->i);

		if (top && top->type == '{' && top->expect_key) {
			if ((r = key(sk, top, end)) < 0)
				return r;
		} else {
			sk->pending_syscalls = false;
		}
		sk->i = end;
		return 0;
	}
	default:
		return scalar(sk);
	}
	sk->i++;
	return 0;
}

int sw_skim(const char *t, size_t len, struct sw_skim *out, char *why,
	    size_t why_len, size_t *why_off)
{
	struct skim sk = {
		.t = t, .len = len, .line = 1, .out = out,
		.why = why, .why_len = why_len, .why_off = why_off,
	};
	int r = 0;

	memset(out, 0, sizeof(*out));
	sk.stack = calloc(SW_SKIM_MAX_DEPTH + 1, sizeof(*sk.stack));
	if (!sk.stack)
		return -ENOMEM;
	while (r == 0 && sk.i < len) {
		char ch = t[sk.i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			sk.line += ch == '\n';
			sk.i++;
			continue;
		}
		r = token(&sk);
	}
	free(sk.stack);
	if (r < 0 && r != -EINVAL)
		sw_skim_done(out);
	return r;
}

void sw_skim_done(struct sw_skim *s)
{
	free(s->rule_line);
	free(s->rule_off);
	memset(s, 0, sizeof(*s));
}
