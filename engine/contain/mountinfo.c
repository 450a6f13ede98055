// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A mount table (/proc/<pid>/mountinfo) read whole, for the plans of the
 * session's own namespaces (nsbox.c, procns.c), which the launcher makes
 * before its fork.  The questions they ask of it are here too: what a
 * path walk sees at a mount point (the top of a stack of mounts on one
 * path), and which mounts nothing shows any more (covered at their path,
 * or hidden beneath a mount over a directory above them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "sysward/cleanup.h"
#include "internal.h"
#include "contain/mountinfo.h"

/* "\040" (space), "\011", "\012", "\134" in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

unsigned long sw_mnt_flags(const char *opts)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} f[] = {
		{ "ro", MS_RDONLY },         { "nosuid", MS_NOSUID },
		{ "nodev", MS_NODEV },       { "noexec", MS_NOEXEC },
		{ "noatime", MS_NOATIME },   { "nodiratime", MS_NODIRATIME },
		{ "relatime", MS_RELATIME }, { "strictatime", MS_STRICTATIME },
	};
	unsigned long flags = 0;
	size_t len;

	for (const char *p = opts; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (strlen(f[i].name) == len && !strncmp(p, f[i].name, len))
				flags |= f[i].flag;
	}
	return flags;
}

bool sw_mnt_option(const char *opts, const char *name, const char **ret_value,
		   size_t *ret_len)
{
	size_t n = strlen(name), len;

	for (const char *p = opts; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if (len >= n && !strncmp(p, name, n) && (len == n || p[n] == '=')) {
			if (ret_value)
				*ret_value = len == n ? p + n : p + n + 1;
			if (ret_len)
				*ret_len = len == n ? 0 : len - n - 1;
			return true;
		}
	}
	return false;
}

/* Parse one mountinfo line (modified in place; m points into it). */
static int parse_line(char *line, struct sw_mnt *m)
{
	char *field[16], *save = NULL;
	int total = 0, n;

	for (char *t = strtok_r(line, " \n", &save); t && total < 16;
	     t = strtok_r(NULL, " \n", &save))
		field[total++] = t;
	/* id parent major:minor root point options [optional...] - type
	 * source superoptions: n, the type's index */
	for (n = 6; n < total && strcmp(field[n], "-"); n++)
		;
	n++;
	if (n + 2 >= total)
		return -EINVAL;
	m->id = atoi(field[0]);
	m->parent = atoi(field[1]);
	m->root = field[3];
	m->point = field[4];
	m->flags = sw_mnt_flags(field[5]);
	m->fstype = field[n];
	m->super = field[n + 2];
	unescape(m->root);
	unescape(m->point);
	return 0;
}

void sw_mnt_table_free(struct sw_mnt_table *t)
{
	free(t->m);
	free(t->text);
	*t = (struct sw_mnt_table){ 0 };
}

int sw_mnt_table_read(const char *mountinfo, struct sw_mnt_table *ret,
		      struct sw_error *err)
{
	cleanup_fclose FILE *f = fopen(mountinfo, "re");
	struct sw_mnt_table t = { 0 };
	size_t used = 0, lcap = 0, llen = 0;
	char *line = NULL;
	ssize_t len;

	if (!f)
		return sw_error_set_errno(err, errno, "open %s", mountinfo);
	/* Read it whole first: the struct sw_mnt fields point into it. */
	while ((len = getline(&line, &llen, f)) > 0) {
		if (used + (size_t)len + 1 > lcap) {
			char *nl = realloc(t.text, lcap = 2 * (used + (size_t)len + 1));

			if (!nl) {
				free(line);
				sw_mnt_table_free(&t);
				return sw_error_set_errno(err, ENOMEM, "read %s", mountinfo);
			}
			t.text = nl;
		}
		memcpy(t.text + used, line, (size_t)len + 1);
		used += (size_t)len + 1;
		t.n++;
	}
	free(line);
	t.m = calloc(t.n ? t.n : 1, sizeof(*t.m));
	if (!t.m) {
		sw_mnt_table_free(&t);
		return sw_error_set_errno(err, ENOMEM, "read %s", mountinfo);
	}
	for (size_t off = 0, i = 0; i < t.n; i++) {
		char *l = t.text + off;

		off += strlen(l) + 1;
		if (parse_line(l, &t.m[i]) < 0) {
			sw_mnt_table_free(&t);
			return sw_error_set(err, EINVAL, "%s: cannot parse line %zu", mountinfo, i + 1);
		}
	}
	*ret = t;
	return 0;
}

static bool covered_but(const struct sw_mnt_table *t, size_t m, ssize_t except);

bool sw_mnt_covered(const struct sw_mnt_table *t, size_t m)
{
	return covered_but(t, m, -1);
}

/* A submount of the same parent over a directory above m (a recursive
 * read-only bind of /proc/sys over binfmt_misc, as systemd's
 * ProtectKernelTunables makes; systemd-nspawn's /proc/sys over its own
 * boot_id file) hides m from every path, whichever was attached first:
 * a path walk enters the upper one first.  At m's very path the later
 * one hides it (the table lists a namespace's mounts in the order they
 * were attached). */
bool sw_mnt_hidden(const struct sw_mnt_table *t, size_t m)
{
	const struct sw_mnt *mm = &t->m[m];

	for (size_t k = 0; k < t->n; k++) {
		size_t len = strlen(t->m[k].point);

		if (k == m || t->m[k].parent != mm->parent ||
		    strncmp(mm->point, t->m[k].point, len))
			continue;
		if (mm->point[len] == '/' || (mm->point[len] == '\0' && k > m))
			return true;
	}
	return false;
}

/* At most n steps: a table with a loop (no kernel writes one) ends the
 * walk. */
size_t sw_mnt_stack_top(const struct sw_mnt_table *t, size_t m)
{
	for (size_t steps = 0; steps < t->n; steps++) {
		size_t k;

		for (k = 0; k < t->n; k++)
			if (k != m && t->m[k].parent == t->m[m].id &&
			    !strcmp(t->m[k].point, t->m[m].point))
				break;
		if (k == t->n)
			break;
		m = k;
	}
	return m;
}

static ssize_t index_of(const struct sw_mnt_table *t, int id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].id == id)
			return (ssize_t)i;
	return -1;
}

/* Something mounted over m at its very path, other than except (the
 * mount a walk up a stack came from) and m itself: an initramfs's
 * rootfs is listed as its own parent ("1 1 0:2 / / ... - rootfs"), no
 * mount over it. */
static bool covered_but(const struct sw_mnt_table *t, size_t m, ssize_t except)
{
	for (size_t i = 0; i < t->n; i++)
		if ((ssize_t)i != except && i != m && t->m[i].parent == t->m[m].id &&
		    !strcmp(t->m[i].point, t->m[m].point))
			return true;
	return false;
}

/* Nothing over it, nothing over a directory above it, and so for each
 * mount it is beneath, up to the namespace's root (whose parent is not
 * in the table); a mount stacked on another at the same path is what
 * that path shows.  At most n steps, as above. */
bool sw_mnt_visible(const struct sw_mnt_table *t, size_t m)
{
	ssize_t from = -1;

	for (size_t steps = 0; steps < t->n; steps++) {
		ssize_t up;

		if (covered_but(t, m, from) || sw_mnt_hidden(t, m))
			return false;
		up = index_of(t, t->m[m].parent);
		if (up < 0 || (size_t)up == m)
			return true;
		from = (ssize_t)m;
		m = (size_t)up;
	}
	return false;
}
