// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward learn --filesystem: the policy's "filesystem" and "network"
 * sections (policy/src/fsaccess.c reads them, engine/contain/fsrules.c has the
 * kernel enforce them) from what the run reached (recfiles.c).
 *
 * Written after the run, in the learn command, so that symbolic links
 * are resolved here (realpath()) rather than by the supervisor's loop.
 * How the objects are generalised, one rule each (classify()):
 *   - the system trees (sys_trees[]) read or executed: the tree, "ro";
 *   - /proc and /sys: the tree, with what was done there;
 *   - a device (/dev/...): the file, with ioctl beside read or write
 *     (a device opened in the session needs ioctl-dev for its ioctls);
 *     a terminal of /dev/pts: /dev/pts;
 *   - a directory something was written, made, removed or moved in:
 *     that directory, with those rights and read;
 *   - a tree read or executed elsewhere: beneath ${CWD}, ${HOME} or
 *     ${TMPDIR} (the longest that holds it), the anchor's child it is
 *     in (the anchor itself when it was read); elsewhere its first two
 *     components ("/srv/data").
 * Then a hierarchy inside another gets the other's rights too (a
 * policy's narrower hierarchy with fewer rights would withhold some by
 * granting around it: fsrules.c), and one with nothing more is dropped.
 * The paths are written with the anchors' variables where they are
 * beneath one.  What no hierarchy covers is refused (EACCES), as any
 * "filesystem" section does.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysward/cleanup.h"
#include "record/record.h"
#include "record/audit.h"

/* The trees a program reads its code and configuration from: "ro". */
static const char *const sys_trees[] = {
	"bin", "etc", "lib", "lib32", "lib64", "libx32", "opt", "sbin", "usr",
};

#define FS_MAX_RULES	256	/* policy/src/fsaccess.c's MAX_FS_RULES */

struct fs_entry {
	char path[PATH_MAX];
	uint8_t kinds;		/* enum rec_kind, and FS_IOCTL */
};
#define FS_IOCTL	(1u << 7)

struct anchors {
	const char *var[3];
	char path[3][PATH_MAX];
	size_t len[3];
};

/* Is p path or beneath it? */
static bool beneath(const char *p, const char *path, size_t n)
{
	if (n == 1 && path[0] == '/')
		return true;
	return !strncmp(p, path, n) && (p[n] == '\0' || p[n] == '/');
}

/* The program's ${CWD}, ${HOME}, ${TMPDIR} (learn's own: the program
 * runs in learn's working directory with its environment), resolved;
 * "/" or unset is none. */
static void anchors_init(struct anchors *a)
{
	const char *env[3] = { NULL, getenv("HOME"), getenv("TMPDIR") };
	char cwd[PATH_MAX];

	a->var[0] = "${CWD}";
	a->var[1] = "${HOME}";
	a->var[2] = "${TMPDIR}";
	if (getcwd(cwd, sizeof(cwd)))
		env[0] = cwd;
	if (!env[2] || !env[2][0])
		env[2] = "/tmp";
	for (int i = 0; i < 3; i++) {
		a->len[i] = 0;
		if (env[i] && env[i][0] == '/' && realpath(env[i], a->path[i]) &&
		    strcmp(a->path[i], "/"))
			a->len[i] = strlen(a->path[i]);
	}
}

/* The longest anchor p is beneath, or -1. */
static int anchor_of(const struct anchors *a, const char *p)
{
	int best = -1;

	for (int i = 0; i < 3; i++)
		if (a->len[i] && beneath(p, a->path[i], a->len[i]) &&
		    (best < 0 || a->len[i] > a->len[best]))
			best = i;
	return best;
}

/* p with its symbolic links resolved: realpath() of the longest part
 * that exists, the rest as it was.  -ENOENT when none of it does. */
static int resolve(const char *p, char *out)
{
	char head[PATH_MAX];
	size_t n = strlen(p);

	if (n >= sizeof(head))
		return -ENAMETOOLONG;
	memcpy(head, p, n + 1);
	for (;;) {
		const char *rest = p + n;	/* "" or "/..." */

		if (realpath(head, out)) {
			size_t m = strlen(out);

			if (m == 1 && *rest)
				m = 0;		/* "/" + "/x" */
			if (m + strlen(rest) >= PATH_MAX)
				return -ENAMETOOLONG;
			strcpy(out + m, rest);
			return 0;
		}
		while (n > 1 && head[n - 1] != '/')
			n--;
		if (n <= 1)
			return -ENOENT;
		head[--n] = '\0';
	}
}

/* The hierarchy a rule for (p, kinds) names, in *e. */
static void classify(const struct anchors *a, const char *p, uint8_t kinds,
		     struct fs_entry *e)
{
	bool writes = kinds & (REC_K_WRITE | REC_K_CREATE | REC_K_REMOVE | REC_K_MOVE);
	const char *c = p + 1, *end = strchrnul(c, '/');
	int an;

	e->kinds = kinds;
	if (beneath(p, "/dev", 4) && strcmp(p, "/dev")) {
		/* A terminal's number is the run's: the next one gets
		 * another (devpts, fs/devpts/inode.c devpts_new_index()). */
		snprintf(e->path, sizeof(e->path), "%s",
			 beneath(p, "/dev/pts", 8) ? "/dev/pts" : p);
		if (kinds & (REC_K_READ | REC_K_WRITE))
			e->kinds |= FS_IOCTL;
		return;
	}
	for (size_t i = 0; i < sizeof(sys_trees) / sizeof(sys_trees[0]) && !writes; i++)
		if ((size_t)(end - c) == strlen(sys_trees[i]) &&
		    !strncmp(c, sys_trees[i], (size_t)(end - c))) {
			snprintf(e->path, sizeof(e->path), "/%s", sys_trees[i]);
			e->kinds = REC_K_READ | REC_K_EXEC;
			return;
		}
	if (writes) {
		snprintf(e->path, sizeof(e->path), "%s", p);
		e->kinds |= REC_K_READ;
		return;
	}
	an = anchor_of(a, p);
	if (an >= 0) {
		const char *rest = p + a->len[an];

		if (*rest == '/')
			rest++;
		snprintf(e->path, sizeof(e->path), "%.*s",
			 (int)(a->len[an] + (*rest ? 1 + (strchrnul(rest, '/') - rest) : 0)), p);
		return;
	}
	/* Elsewhere: its first two components. */
	if (*end)
		end = strchrnul(end + 1, '/');
	snprintf(e->path, sizeof(e->path), "%.*s", (int)(end - p), p);
	if (!e->path[1] && p[1])
		snprintf(e->path, sizeof(e->path), "%s", p);
}

/* The nearest directory above p the run made an entry in that is still
 * there (p itself is gone: made by the run, inside what it made, and
 * removed), or NULL. */
static const char *made_in(const struct sw_record *r, const char *p)
{
	const char *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < r->n_files; i++) {
		const struct rec_file *f = &r->files[i];
		size_t n = strlen(f->path);

		if (f->in_dir && (f->kinds & REC_K_CREATE) && n > best_len &&
		    strcmp(f->path, p) && beneath(p, f->path, n) &&
		    access(f->path, F_OK) == 0) {
			best = f->path;
			best_len = n;
		}
	}
	return best;
}

static int entry_cmp(const void *x, const void *y)
{
	return strcmp(((const struct fs_entry *)x)->path,
		      ((const struct fs_entry *)y)->path);
}

static void write_access(FILE *f, uint8_t k)
{
	static const struct {
		uint8_t bit;
		const char *word;
	} order[] = {
		{ REC_K_READ, "read" }, { REC_K_WRITE, "write" },
		{ REC_K_EXEC, "execute" }, { REC_K_CREATE, "create" },
		{ REC_K_REMOVE, "remove" }, { REC_K_MOVE, "move" },
		{ FS_IOCTL, "ioctl" },
	};
	bool first = true;

	if (k == (REC_K_READ | REC_K_EXEC)) {
		fputs("\"ro\"", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (k & order[i].bit) {
			fprintf(f, "%s\"%s\"", first ? "" : ", ", order[i].word);
			first = false;
		}
	fputc(']', f);
}

static int port_cmp(const void *x, const void *y)
{
	return (int)*(const uint16_t *)x - (int)*(const uint16_t *)y;
}

static void write_ports(FILE *f, const uint16_t *ports, uint8_t n)
{
	uint16_t v[REC_PORTS];

	memcpy(v, ports, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), port_cmp);
	fputc('[', f);
	for (uint8_t i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", v[i]);
	fputc(']', f);
}

int rec_write_fs(const struct sw_record *r, FILE *f)
{
	size_t room = r->n_files + r->n_progs, n = 0, kept = 0;
	cleanup_free struct fs_entry *e = calloc(room ? room : 1, sizeof(*e));
	cleanup_free struct anchors *a = malloc(sizeof(*a));
	char real[PATH_MAX];

	if (!e || !a)
		return -ENOMEM;
	anchors_init(a);
	for (size_t i = 0; i < room; i++) {
		bool in_dir = i < r->n_files && r->files[i].in_dir;
		const char *p;
		uint8_t kinds;
		struct stat st;
		char *slash;

		if (i < r->n_files) {
			p = r->files[i].path;
			kinds = r->files[i].kinds;
		} else {
			/* A program executed, as the kernel found it
			 * (/proc/<pid>/exe, record.c). */
			p = r->progs[i - r->n_files].path;
			kinds = REC_K_EXEC;
		}
		/* /proc/self and /proc/<pid> are the program's: never
		 * resolved here, where they would be learn's own. */
		if (beneath(p, "/proc", 5) || beneath(p, "/sys", 4)) {
			snprintf(e[n].path, sizeof(e[n].path), "/%s", p[1] == 'p' ? "proc" : "sys");
			e[n++].kinds = (kinds & (REC_K_READ | REC_K_WRITE)) ?: REC_K_READ;
			continue;
		}
		/* What is not there after the run is no hierarchy: a name
		 * looked for and missing (a search path's, a configuration
		 * file's) reached nothing, and a rule on nothing would
		 * refuse the launch. */
		if (resolve(p, real) < 0 || stat(real, &st) < 0) {
			/* Unless the run made it and removed it: then what
			 * it did there is the directory's it was made in. */
			if (!(p = made_in(r, p)) || resolve(p, real) < 0 ||
			    stat(real, &st) < 0)
				continue;
			in_dir = true;
		}
		if (!sw_utf8_valid(real))
			continue;
		/* An object's hierarchy is its directory (a device's is the
		 * device); a directory's, itself. */
		if (!in_dir && !S_ISDIR(st.st_mode) && !beneath(real, "/dev", 4) &&
		    (slash = strrchr(real, '/')))
			slash[slash == real] = '\0';
		classify(a, real, kinds, &e[n++]);
	}
	qsort(e, n, sizeof(e[0]), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		ssize_t up = -1;

		if (kept && !strcmp(e[kept - 1].path, e[i].path)) {
			e[kept - 1].kinds |= e[i].kinds;
			continue;
		}
		/* The nearest hierarchy above, among those kept (sorted:
		 * above comes first; its own rights already merged). */
		for (size_t j = 0; j < kept; j++)
			if (beneath(e[i].path, e[j].path, strlen(e[j].path)) &&
			    (up < 0 || strlen(e[j].path) > strlen(e[up].path)))
				up = (ssize_t)j;
		if (up >= 0) {
			e[i].kinds |= e[up].kinds;
			if (e[i].kinds == e[up].kinds)
				continue;
		}
		e[kept++] = e[i];
	}
	/* A hierarchy merged into later: its descendants were merged on
	 * what it had then.  A second pass settles them (depth first). */
	for (size_t i = 0; i < kept; i++)
		for (size_t j = 0; j < i; j++)
			if (beneath(e[i].path, e[j].path, strlen(e[j].path)))
				e[i].kinds |= e[j].kinds;
	if (kept > FS_MAX_RULES)
		return -ERANGE;
	fputs("  \"filesystem\": {\n    \"paths\": [", f);
	for (size_t i = 0; i < kept; i++) {
		int an = anchor_of(a, e[i].path);
		char path[PATH_MAX + 16];

		if (an >= 0)
			snprintf(path, sizeof(path), "%s%s", a->var[an],
				 e[i].path + a->len[an]);
		else
			snprintf(path, sizeof(path), "%s", e[i].path);
		fprintf(f, "%s\n      {\"path\": ", i ? "," : "");
		sw_json_str(f, path);
		fputs(", \"access\": ", f);
		write_access(f, e[i].kinds);
		fputc('}', f);
	}
	fputs("\n    ]\n  },\n", f);
	if (r->tcp) {
		fputs("  \"network\": {\"tcp\": {\"bind\": ", f);
		write_ports(f, r->ports[REC_BIND], r->n_ports[REC_BIND]);
		fputs(", \"connect\": ", f);
		write_ports(f, r->ports[REC_CONNECT], r->n_ports[REC_CONNECT]);
		fputs("}},\n", f);
	}
	return 0;
}
