// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runc's options, read as runc reads them, so that we find the bundle,
 * the container's id and an exec's command exactly where runc will.
 *
 * runc parses with urfave/cli over Go's flag package: an option is
 * "-name" or "--name" (one dash or two, the same), its value follows "="
 * or is the next argument whatever it looks like ("--pid-file -x" takes
 * "-x"), a boolean option takes a value only after "=", "--" ends the
 * options, and so does "-" alone or any other argument not starting with
 * '-'.  urfave/cli 1 (runc 1.1) also moves options found after the
 * positional arguments in front of them ("create ID --bundle DIR"),
 * except for exec (SkipArgReorder: its command's own options are not
 * runc's); urfave/cli 2 (runc 1.2 on) does not, and refuses what 1.1
 * accepted there, so reading it the 1.1 way finds the same bundle
 * whenever the delegate accepts the line at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* Does "bundle,b" list name (len bytes)? */
static bool names_match(const char *names, const char *name, size_t len)
{
	const char *p = names;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == len && strncmp(p, name, len) == 0)
			return true;
		if (p[n] == '\0')
			return false;
		p += n + 1;
	}
}

static const struct rt_flag *find_flag(const struct rt_flag *table,
				       const char *name, size_t len)
{
	for (; table->names; table++)
		if (names_match(table->names, name, len))
			return table;
	return NULL;
}

int rt_args_scan(const struct rt_flag *table, bool reorder, int argc,
		 char **argv, int from, struct rt_args *ret,
		 struct sw_error *err)
{
	bool options = true;

	ret->n_pos = 0;
	ret->n_seen = 0;
	for (int i = from; i < argc; i++) {
		const char *a = argv[i], *name, *eq;
		const struct rt_flag *f;
		size_t len;
		int at = i, value_at = -1;
		const char *value = NULL;

		if (!options || a[0] != '-' || a[1] == '\0') {
			if (ret->n_pos >= (int)(sizeof(ret->pos) / sizeof(ret->pos[0])))
				return sw_error_set(err, E2BIG,
						    "more than %zu arguments",
						    sizeof(ret->pos) / sizeof(ret->pos[0]));
			ret->pos[ret->n_pos++] = i;
			/* Without reordering the first positional argument
			 * ends the options, and what follows it is the
			 * command's, not ours to read. */
			if (!reorder)
				return 0;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			options = false;
			continue;
		}
		name = a + 1 + (a[1] == '-');
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		f = find_flag(table, name, len);
		if (!f)
			return sw_error_set(err, EINVAL,
					    "unknown option '%s' (sysward-runtime reads runc's options to find the bundle and the container; a newer runc's option is not among them yet)",
					    a);
		if (eq) {
			value_at = i;
			value = eq + 1;
		} else if (f->value) {
			if (i + 1 >= argc)
				return sw_error_set(err, EINVAL,
						    "option '%s' needs a value",
						    a);
			value_at = ++i;
			value = argv[i];
		}
		if (!f->id)
			continue;
		if (ret->n_seen >= RT_MAX_SEEN)
			return sw_error_set(err, E2BIG,
					    "more than %d options", RT_MAX_SEEN);
		ret->seen[ret->n_seen].id = f->id;
		ret->seen[ret->n_seen].at = at;
		ret->seen[ret->n_seen].value_at = value_at;
		ret->seen[ret->n_seen].value = value;
		ret->n_seen++;
	}
	return 0;
}

int rt_args_find(const struct rt_args *a, int id)
{
	for (int i = a->n_seen - 1; i >= 0; i--)
		if (a->seen[i].id == id)
			return i;
	return -1;
}

const char *rt_args_value(const struct rt_args *a, int id)
{
	int i = rt_args_find(a, id);

	return i < 0 ? NULL : a->seen[i].value;
}

int rt_args_set(struct rt_cmd *c, struct rt_args *a, int id,
		const char *name, const char *value, struct sw_error *err)
{
	int i = rt_args_find(a, id), n = c->argc;
	char **av, *opt;

	if (i >= 0) {
		/* Go's flag package keeps the last one: that is ours. */
		if (a->seen[i].value_at == a->seen[i].at) {
			if (asprintf(&opt, "--%s=%s", name, value) < 0)
				return sw_error_set(err, ENOMEM, "out of memory");
			c->argv[a->seen[i].at] = opt;
		} else {
			c->argv[a->seen[i].value_at] = (char *)value;
		}
		return 0;
	}
	/* None: ours right after the command, before its id (exec takes
	 * no option after it). */
	if (asprintf(&opt, "--%s", name) < 0)
		return sw_error_set(err, ENOMEM, "out of memory");
	av = calloc((size_t)n + 3, sizeof(*av));
	if (!av) {
		free(opt);
		return sw_error_set(err, ENOMEM, "out of memory");
	}
	for (int k = 0, j = 0; k < n; k++) {
		av[j++] = c->argv[k];
		if (k == c->cmd_at) {
			av[j++] = opt;
			av[j++] = (char *)value;
		}
	}
	c->argv = av;
	c->argc = n + 2;
	/* What a points at moved two places on: a later call finds it. */
	for (int k = 0; k < a->n_seen; k++) {
		if (a->seen[k].at > c->cmd_at)
			a->seen[k].at += 2;
		if (a->seen[k].value_at > c->cmd_at)
			a->seen[k].value_at += 2;
	}
	for (int k = 0; k < a->n_pos; k++)
		if (a->pos[k] > c->cmd_at)
			a->pos[k] += 2;
	return 0;
}
