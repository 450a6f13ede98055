// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The audit log's strings (engine/record/audit.c): the JSON and the text rule,
 * from tables.  Each row is an input string, what each writer must
 * make of it, and whether the JSON member needs its "_hex" sibling.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysward/engine.h"
#include "sysward/decode.h"
#include "check_run.h"

static const struct {
	const char *in;
	const char *json;	/* sw_json_str */
	const char *text;	/* sw_text_str */
	bool lossy;		/* not UTF-8: "k_hex" follows */
} rows[] = {
	{ "", "\"\"", "", false },
	{ "/etc/passwd", "\"/etc/passwd\"", "/etc/passwd", false },
	/* Line breaks and quotes: never a raw one in either format. */
	{ "a\nb\rc\td", "\"a\\nb\\u000dc\\td\"", "a\\nb\\rc\\td", false },
	{ "q\"b\\", "\"q\\\"b\\\\\"", "q\\\"b\\\\", false },
	{ "\\x41\\n", "\"\\\\x41\\\\n\"", "\\\\x41\\\\n", false },
	/* Terminal controls: ESC, BEL, DEL, C1 (CSI U+009B, NEL U+0085). */
	{ "\033[2J\a\177", "\"\\u001b[2J\\u0007\\u007f\"", "\\x1b[2J\\x07\\x7f",
	  false },
	{ "\302\233\302\205", "\"\\u009b\\u0085\"", "\\xc2\\x9b\\xc2\\x85", false },
	/* U+2028, U+2029: line breaks to JavaScript and str.splitlines(). */
	{ "\342\200\250\342\200\251", "\"\\u2028\\u2029\"",
	  "\\xe2\\x80\\xa8\\xe2\\x80\\xa9", false },
	/* Well-formed UTF-8 passes through (2, 3, 4 bytes; U+FFFD itself). */
	{ "\303\251\342\202\254\360\235\204\236\357\277\275",
	  "\"\303\251\342\202\254\360\235\204\236\357\277\275\"",
	  "\\xc3\\xa9\\xe2\\x82\\xac\\xf0\\x9d\\x84\\x9e\\xef\\xbf\\xbd", false },
	/* The edges of Table 3-7: U+0080, U+07FF, U+0800, U+D7FF, U+E000,
	 * U+10000, U+10FFFF. */
	{ "\302\200", "\"\\u0080\"", "\\xc2\\x80", false },
	{ "\337\277\340\240\200\355\237\277\356\200\200",
	  "\"\337\277\340\240\200\355\237\277\356\200\200\"",
	  "\\xdf\\xbf\\xe0\\xa0\\x80\\xed\\x9f\\xbf\\xee\\x80\\x80", false },
	{ "\360\220\200\200\364\217\277\277",
	  "\"\360\220\200\200\364\217\277\277\"",
	  "\\xf0\\x90\\x80\\x80\\xf4\\x8f\\xbf\\xbf", false },
	/* Not UTF-8: one U+FFFD per byte outside a well-formed sequence. */
	{ "\351", "\"\\ufffd\"", "\\xe9", true },			/* Latin-1 */
	{ "a\200\277b", "\"a\\ufffd\\ufffdb\"", "a\\x80\\xbfb", true },	/* lone */
	{ "\300\257", "\"\\ufffd\\ufffd\"", "\\xc0\\xaf", true },	/* overlong / */
	{ "\301\277", "\"\\ufffd\\ufffd\"", "\\xc1\\xbf", true },
	{ "\340\200\257", "\"\\ufffd\\ufffd\\ufffd\"", "\\xe0\\x80\\xaf", true },
	{ "\360\200\200\257", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	  "\\xf0\\x80\\x80\\xaf", true },
	{ "\355\240\200", "\"\\ufffd\\ufffd\\ufffd\"", "\\xed\\xa0\\x80", true },
	{ "\364\220\200\200", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	  "\\xf4\\x90\\x80\\x80", true },				/* > U+10FFFF */
	{ "\365\200\200\200", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
	  "\\xf5\\x80\\x80\\x80", true },
	{ "\370\376\377", "\"\\ufffd\\ufffd\\ufffd\"", "\\xf8\\xfe\\xff", true },
	/* A sequence cut short, at the end or by an ASCII byte. */
	{ "x\342\202", "\"x\\ufffd\\ufffd\"", "x\\xe2\\x82", true },
	{ "\342\202x", "\"\\ufffd\\ufffdx\"", "\\xe2\\x82x", true },
	{ "\303\n", "\"\\ufffd\\n\"", "\\xc3\\n", true },
};

/* What write(f, s) puts in a stream. */
static char *written(void (*write)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(m);
	write(m, s);
	ck_assert_int_eq(fclose(m), 0);
	return buf;
}

static void member(FILE *m, const char *s)
{
	sw_jsonl_str(m, "k", s);
}

static void hex(char *out, const char *s)
{
	for (; *s; s++, out += 2)
		sprintf(out, "%02x", (unsigned char)*s);
	*out = '\0';
}

/* Each writer, then the member: the value and "k_hex" (the exact
 * bytes) iff the row is lossy. */
START_TEST(rows_each_writer)
{
	char want[512], h[256];
	struct {
		const char *what;
		void (*write)(FILE *, const char *);
		const char *want;
	} w[] = {
		{ "sw_json_str", sw_json_str, rows[_i].json },
		{ "sw_text_str", sw_text_str, rows[_i].text },
		{ "sw_jsonl_str", member, want },
	};

	hex(h, rows[_i].in);
	if (rows[_i].lossy)
		snprintf(want, sizeof(want), ",\"k\":%s,\"k_hex\":\"%s\"",
			 rows[_i].json, h);
	else
		snprintf(want, sizeof(want), ",\"k\":%s", rows[_i].json);
	for (size_t j = 0; j < sizeof(w) / sizeof(w[0]); j++) {
		char *got = written(w[j].write, rows[_i].in);

		ck_assert_msg(strcmp(got, w[j].want) == 0,
			      "row %d: %s wrote %s, want %s", _i, w[j].what,
			      got, w[j].want);
		free(got);
	}
}
END_TEST

START_TEST(member_null)
{
	char *got = written(member, NULL);

	ck_assert_str_eq(got, ",\"k\":null");
	free(got);
}
END_TEST

/* An array: "k_hex" only if some element is lossy, null where exact. */
START_TEST(array)
{
	static const struct {
		const char *v[4];
		const char *want;
	} cases[] = {
		{ { NULL }, ",\"argv\":[]" },
		{ { "ls", "-l" }, ",\"argv\":[\"ls\",\"-l\"]" },
		{ { "ls", "\377a", "b\nc" },
		  ",\"argv\":[\"ls\",\"\\ufffda\",\"b\\nc\"]"
		  ",\"argv_hex\":[null,\"ff61\",null]" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		ck_assert_ptr_nonnull(m);
		sw_jsonl_strv(m, "argv", (char *const *)cases[i].v);
		ck_assert_int_eq(fclose(m), 0);
		ck_assert_msg(strcmp(buf, cases[i].want) == 0,
			      "case %zu: %s, want %s", i, buf, cases[i].want);
		free(buf);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("strings");
	int n = (int)(sizeof(rows) / sizeof(rows[0]));

	tcase_add_loop_test(tc, rows_each_writer, 0, n);
	tcase_add_test(tc, member_null);
	tcase_add_test(tc, array);
	suite_add_tcase(s, tc);
	return sw_check_run(s);
}
