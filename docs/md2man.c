/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * md2man: write a manual page (man(7) roff) from one of sysward's markdown
 * guides, so that a format is written once (policy/README.md) and its page
 * (sysward-policy(5)) generated at build time.
 *
 *   md2man -o OUT -n NAME -s SECTION -d DESCRIPTION -v SOURCE -m MANUAL IN.md
 *
 * It knows the markdown the guides use and refuses the rest with the line:
 *   # title            dropped; NAME and DESCRIPTION come from -n and -d
 *   ## section         .SH, upper case;  ### and #### subsection: .SS
 *   paragraphs         filled text; `code` bold, **bold**, *italic*,
 *                      [text](target) as text (an http(s) target follows it)
 *   ```fence```        .nf block, indented; may sit inside a list item
 *   - item, 1. item    .IP, continuation lines indented
 *   | a | b | c |      a table: each row a .TP, the first cell its tag,
 *                      the others its text; the header row is dropped
 * Non-ASCII characters become groff's \[uXXXX], so the page does not depend
 * on the reader's locale.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysward/cleanup.h"

#define MAX_LINE 8192
#define MAX_CELLS 8

struct md {
	const char *path;
	unsigned line;
	FILE *out;
	bool in_text;   /* a paragraph's text is being written */
	char *para;     /* its source lines, inline markdown not yet rendered */
	size_t para_len;
	int failed;     /* -errno of a write that failed on the way */
	int list_indent; /* > 0: inside a list item, text indented by this */
};

static void emit_char(FILE *out, const char **p, bool code)
{
	unsigned char c = (unsigned char)**p;

	if (c == '\n') {
		/* A paragraph's next source line: roff reads leading spaces
		 * as a break. */
		(*p)++;
		fputc('\n', out);
		*p += strspn(*p, " \t");
		return;
	}
	if (c < 0x80) {
		(*p)++;
		if (c == '\\')
			fputs("\\e", out);
		else if (c == '-' && code)
			fputs("\\-", out);
		else
			fputc(c, out);
		return;
	}
	/* UTF-8: one code point, written as \[uXXXX] (groff_char(7)). */
	unsigned cp, n;
	if (c >= 0xf0) {
		cp = c & 0x07;
		n = 3;
	} else if (c >= 0xe0) {
		cp = c & 0x0f;
		n = 2;
	} else {
		cp = c & 0x1f;
		n = 1;
	}
	(*p)++;
	for (; n > 0 && (**p & 0xc0) == 0x80; n--, (*p)++)
		cp = cp << 6 | (**p & 0x3f);
	fprintf(out, "\\[u%04X]", cp);
}

/* Inline markdown of [s, e) as roff; plain strips all fonts (headings). */
static void emit_inline(FILE *out, const char *s, const char *e, bool plain)
{
	const char *p = s;

	while (p < e) {
		if (*p == '`') {
			size_t ticks = strspn(p, "`");
			const char *q = p + ticks, *end = NULL;
			for (const char *r = q; r + ticks <= e; r++)
				if (strncmp(r, p, ticks) == 0 && r[ticks] != '`') {
					end = r;
					break;
				}
			if (end) {
				/* CommonMark: one space at each side is padding. */
				if (end - q >= 2 && *q == ' ' && end[-1] == ' ') {
					q++;
					end--;
				}
				fputs(plain ? "" : "\\fB", out);
				while (q < end)
					emit_char(out, &q, true);
				fputs(plain ? "" : "\\fR", out);
				p = end + ticks;
				continue;
			}
		}
		if (p[0] == '*' && p[1] == '*') {
			const char *end = strstr(p + 2, "**");
			if (end && end < e) {
				fputs(plain ? "" : "\\fB", out);
				emit_inline(out, p + 2, end, true);
				fputs(plain ? "" : "\\fR", out);
				p = end + 2;
				continue;
			}
		}
		if (p[0] == '*' && p + 1 < e && p[1] != ' ') {
			const char *end = memchr(p + 1, '*', (size_t)(e - p - 1));
			if (end) {
				fputs(plain ? "" : "\\fI", out);
				emit_inline(out, p + 1, end, true);
				fputs(plain ? "" : "\\fR", out);
				p = end + 1;
				continue;
			}
		}
		if (*p == '[') {
			/* [text](target): the text's brackets may nest once. */
			int depth = 0;
			const char *close = NULL;
			for (const char *r = p; r < e; r++) {
				if (*r == '[')
					depth++;
				else if (*r == ']' && --depth == 0) {
					close = r;
					break;
				}
			}
			const char *rparen = close && close[1] == '(' ?
				memchr(close, ')', (size_t)(e - close)) : NULL;
			if (rparen) {
				emit_inline(out, p + 1, close, plain);
				if (strncmp(close + 2, "http://", 7) == 0 ||
				    strncmp(close + 2, "https://", 8) == 0) {
					fputs(" <", out);
					for (const char *r = close + 2; r < rparen;)
						emit_char(out, &r, false);
					fputc('>', out);
				}
				p = rparen + 1;
				continue;
			}
		}
		emit_char(out, &p, false);
	}
}

/* Inline markup may span the lines of a paragraph (a code span, a link):
 * its lines are kept and rendered together when it ends. */
static int add_text_line(struct md *m, const char *s)
{
	s += strspn(s, " \t");
	size_t n = strlen(s);
	char *p = realloc(m->para, m->para_len + n + 2);
	if (!p)
		return -ENOMEM;
	m->para = p;
	if (m->para_len)
		p[m->para_len++] = '\n';
	memcpy(p + m->para_len, s, n + 1);
	m->para_len += n;
	m->in_text = true;
	return 0;
}

static void flush_text(struct md *m)
{
	if (!m->para_len)
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		m->failed = -errno;
		return;
	}
	emit_inline(mem, m->para, m->para + m->para_len, false);
	if (fclose(mem) != 0) {
		m->failed = -ENOMEM;
		free(buf);
		return;
	}
	/* roff reads a line that starts with '.' or '\'' as a request; a
	 * rendered line may start so wherever inline markup ends up. */
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (*line == '.' || *line == '\'')
			fputs("\\&", m->out);
		fwrite(line, 1, nl ? (size_t)(nl - line) : strlen(line), m->out);
		fputc('\n', m->out);
	}
	free(buf);
	m->para_len = 0;
}

/* One line of text that is a block of its own (a table cell). */
static int emit_text_line(struct md *m, const char *s)
{
	int r = add_text_line(m, s);
	if (r == 0)
		flush_text(m);
	return r;
}

static void emit_heading(struct md *m, int level, const char *text)
{
	fputs(level == 2 ? ".SH " : ".SS ", m->out);
	if (level == 2) {
		/* Section names are upper case (man-pages(7)). */
		cleanup_free char *up = strdup(text);
		if (!up)
			return;
		for (char *c = up; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
		emit_inline(m->out, up, up + strlen(up), true);
	} else {
		emit_inline(m->out, text, text + strlen(text), true);
	}
	fputc('\n', m->out);
	m->in_text = false;
	m->list_indent = 0;
}

static int fail(const struct md *m, const char *what)
{
	fprintf(stderr, "md2man: %s:%u: %s; write it in the markdown md2man knows "
		"(docs/md2man.c says which)\n", m->path, m->line, what);
	return -EINVAL;
}

/* Split "| a | b |" into trimmed cells, in place; returns their number. */
static int split_row(char *line, char *cells[MAX_CELLS])
{
	int n = 0;
	char *p = line + strspn(line, " ") + 1;   /* after the first '|' */

	while (*p && n < MAX_CELLS + 1) {
		char *bar = p;
		/* A '|' inside a code span is text (`a\|b` is not used). */
		bool code = false;
		for (; *bar && (code || *bar != '|'); bar++)
			if (*bar == '`')
				code = !code;
		if (!*bar)
			break;
		*bar = '\0';
		p += strspn(p, " ");
		for (char *end = bar; end > p && end[-1] == ' ';)
			*--end = '\0';
		if (n == MAX_CELLS)
			return -1;
		cells[n++] = p;
		p = bar + 1;
	}
	return n;
}

static int emit_table_row(struct md *m, char *line, int columns)
{
	char *cells[MAX_CELLS];
	int n = split_row(line, cells);

	if (n != columns)
		return fail(m, "a table row whose number of cells is not its header's");
	fputs(".TP\n", m->out);
	emit_text_line(m, cells[0]);
	for (int i = 1; i < n; i++) {
		if (i > 1)
			fputs(".br\n", m->out);
		emit_text_line(m, cells[i]);
	}
	return 0;
}

static bool is_item(const char *s, int *marker_len)
{
	if ((s[0] == '-' || s[0] == '*') && s[1] == ' ') {
		*marker_len = 2;
		return true;
	}
	size_t d = strspn(s, "0123456789");
	if (d > 0 && d < 3 && s[d] == '.' && s[d + 1] == ' ') {
		*marker_len = (int)d + 2;
		return true;
	}
	return false;
}

/* Ends the paragraph being gathered and starts a block with a request. */
static void block(struct md *m, const char *request)
{
	flush_text(m);
	fputs(request, m->out);
	m->in_text = false;
}

static int convert(struct md *m, FILE *in)
{
	char line[MAX_LINE];
	bool title_seen = false, blank = false;
	int fence_indent = -1, columns = 0, r;

	while (fgets(line, sizeof(line), in)) {
		m->line++;
		size_t len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n')
			return fail(m, "a line longer than 8191 bytes");
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		int indent = (int)strspn(line, " ");
		const char *s = line + indent;

		if (fence_indent >= 0) {
			if (strncmp(s, "```", 3) == 0) {
				fputs(".fi\n.RE\n", m->out);
				fence_indent = -1;
				continue;
			}
			const char *p = line + (indent < fence_indent ? indent : fence_indent);
			if (*p == '.' || *p == '\'')
				fputs("\\&", m->out);
			while (*p)
				emit_char(m->out, &p, true);
			fputc('\n', m->out);
			continue;
		}
		if (*s == '\0') {
			blank = true;
			columns = 0;
			continue;
		}
		if (*s != '|')
			columns = 0;
		if (strncmp(s, "```", 3) == 0) {
			/* A fence at the margin ends a list; an indented one is
			 * part of the item above it. */
			if (indent < m->list_indent) {
				block(m, ".PP\n");
				m->list_indent = 0;
			}
			block(m, ".sp\n.RS 4\n.nf\n");
			fence_indent = indent;
		} else if (*s == '|') {
			if (columns > 0) {
				flush_text(m);
				r = emit_table_row(m, line, columns);
				if (r < 0)
					return r;
			} else {
				/* The header; the next line must be its |---| rule. */
				char *cells[MAX_CELLS], rule[MAX_LINE];
				columns = split_row(line, cells);
				if (columns < 2 || !fgets(rule, sizeof(rule), in))
					return fail(m, "a table without a header row and a |---| line");
				m->line++;
				if (rule[strspn(rule, "|-: ")] != '\n')
					return fail(m, "a table header not followed by a |---| line");
				block(m, ".PP\n");
				m->list_indent = 0;
			}
		} else if (*s == '#') {
			int level = (int)strspn(s, "#");
			if (level > 4 || s[level] != ' ')
				return fail(m, "a heading deeper than ####, or no space after its #");
			flush_text(m);
			if (level == 1) {
				if (title_seen)
					return fail(m, "a second # title");
				title_seen = true;
			} else {
				emit_heading(m, level, s + level + 1);
			}
		} else if (*s == '<' || *s == '>') {
			return fail(m, "HTML or a block quote");
		} else {
			int marker;
			if (indent <= 3 && is_item(s, &marker)) {
				flush_text(m);
				if (marker > 2)
					fprintf(m->out, ".IP %.*s 4\n", marker - 1, s);
				else
					fputs(".IP \\(bu 2\n", m->out);
				m->list_indent = indent + marker;
				s += marker;
			} else if (blank || !m->in_text) {
				if (m->list_indent && indent >= m->list_indent)
					block(m, ".IP\n");   /* the item's next paragraph */
				else {
					block(m, ".PP\n");
					m->list_indent = 0;
				}
			}
			r = add_text_line(m, s);
			if (r < 0)
				return r;
		}
		blank = false;
	}
	if (ferror(in))
		return -errno;
	if (fence_indent >= 0)
		return fail(m, "a ``` block that is never closed");
	if (!title_seen)
		return fail(m, "no # title line");
	flush_text(m);
	return m->failed;
}

static void usage(FILE *f)
{
	fputs("usage: md2man -o OUT -n NAME -s SECTION -d DESCRIPTION -v SOURCE "
	      "-m MANUAL IN.md\n", f);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *name = NULL, *section = NULL, *desc = NULL;
	const char *source = "", *manual = "";
	int opt;

	while ((opt = getopt(argc, argv, "o:n:s:d:v:m:h")) != -1) {
		switch (opt) {
		case 'o': out_path = optarg; break;
		case 'n': name = optarg; break;
		case 's': section = optarg; break;
		case 'd': desc = optarg; break;
		case 'v': source = optarg; break;
		case 'm': manual = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!out_path || !name || !section || !desc || optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	struct md m = { .path = argv[optind] };
	cleanup_fclose FILE *in = fopen(m.path, "re");
	if (!in) {
		fprintf(stderr, "md2man: open %s: %m\n", m.path);
		return 1;
	}
	/* Written beside OUT and renamed onto it: a failed run leaves no page
	 * that make would take as up to date. */
	cleanup_free char *tmp = NULL;
	if (asprintf(&tmp, "%s.tmp", out_path) < 0)
		return 1;
	m.out = fopen(tmp, "we");
	if (!m.out) {
		fprintf(stderr, "md2man: create %s: %m\n", tmp);
		return 1;
	}
	fprintf(m.out, ".\\\" SPDX-License-Identifier: LGPL-2.1-or-later\n"
		".\\\" Generated from %s by md2man (docs/md2man.c): edit that file.\n"
		".TH ", m.path);
	for (const char *c = name; *c; c++)
		fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, m.out);
	fprintf(m.out, " %s \"\" \"%s\" \"%s\"\n.SH NAME\n", section, source, manual);
	emit_inline(m.out, name, name + strlen(name), false);
	fputs(" \\- ", m.out);
	emit_inline(m.out, desc, desc + strlen(desc), true);
	fputs("\n.SH DESCRIPTION\n", m.out);
	int r = convert(&m, in);
	free(m.para);
	if (fclose(m.out) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, out_path) < 0)
		r = -errno;
	if (r < 0) {
		if (r != -EINVAL)
			fprintf(stderr, "md2man: write %s: %s\n", out_path, strerror(-r));
		unlink(tmp);
		return 1;
	}
	return 0;
}
