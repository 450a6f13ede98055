// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysward learn --filesystem: what the program reached on the file
 * system and which TCP ports it used, for the policy's "filesystem" and
 * "network" sections (reclearnfs.c writes them).
 *
 * For each call Landlock decides (fs_calls[]), the object is resolved
 * at the call's SECCOMP stop, before the kernel looks it up: a relative
 * name against the caller's working directory or its dirfd, read as
 * /proc/<pid>/cwd and /proc/<pid>/fd/<dirfd> (their d_path(): procfs
 * answers without walking any file system the program could hold up,
 * fs/proc/base.c proc_pid_readlink()), then "." and ".." taken away
 * lexically.  Symbolic links are resolved after the run by the writer
 * (realpath(), off the dispatch loop: a walk of the program's file
 * system could block on a FUSE server of its own).  Not the exit stop's
 * opened descriptor: that would send every open to an exit stop, and a
 * create, remove, rename or exec has no descriptor to read.
 *
 * What that can get wrong, and why it is enough here: another thread
 * may change the directory or rename a component between the stop and
 * the kernel's walk, and ".." after a symbolic link is taken lexically
 * where the kernel follows the link first.  A learning run is no
 * security boundary: the program is the one being learned, and what it
 * learns is then enforced by the kernel on the real objects, where a
 * path learned wrong is a refusal (EACCES) the next run shows, never a
 * right the policy did not write.  A call that fails (a library looked
 * for along a search path) is recorded too: the writer drops what does
 * not exist after the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "record/record.h"
#include "sys.h"
#include "tracemem.h"

/*
 * The calls Landlock decides on a path, by name (the same arguments on
 * every x86 ABI): where the path is (its dirfd, -1 for AT_FDCWD) and
 * what the call does with it.  `parent`: the right is the directory's
 * (Landlock's make-*, remove-* and refer are checked on the directory
 * the entry is made in or removed from, security/landlock/fs.c
 * hook_path_mknod(), hook_path_unlink(), current_check_refer_path()).
 * A second path (rename, link) is the destination.  An open's kind comes
 * from its flags (open_kinds()).  Sorted by name.
 */
#define FC_OPEN		0xff	/* kind from the flags at `flags` */
static const struct fs_call {
	const char *name;
	int8_t dirfd, path, flags;	/* argument indexes; -1: none */
	uint8_t kind;
	int8_t dirfd2, path2;		/* the destination, or -1 */
	uint8_t kind2;
} fs_calls[] = {
	{ "creat", -1, 0, -1, REC_K_CREATE | REC_K_WRITE, -1, -1, 0 },
	{ "execve", -1, 0, -1, REC_K_EXEC, -1, -1, 0 },
	{ "execveat", 0, 1, -1, REC_K_EXEC, -1, -1, 0 },
	{ "link", -1, -1, -1, 0, -1, 1, REC_K_CREATE },
	{ "linkat", -1, -1, -1, 0, 2, 3, REC_K_CREATE },
	{ "mkdir", -1, 0, -1, REC_K_CREATE, -1, -1, 0 },
	{ "mkdirat", 0, 1, -1, REC_K_CREATE, -1, -1, 0 },
	{ "mknod", -1, 0, -1, REC_K_CREATE, -1, -1, 0 },
	{ "mknodat", 0, 1, -1, REC_K_CREATE, -1, -1, 0 },
	{ "open", -1, 0, 1, FC_OPEN, -1, -1, 0 },
	{ "openat", 0, 1, 2, FC_OPEN, -1, -1, 0 },
	{ "openat2", 0, 1, 2, FC_OPEN, -1, -1, 0 },
	{ "rename", -1, 0, -1, REC_K_REMOVE, -1, 1, REC_K_CREATE },
	{ "renameat", 0, 1, -1, REC_K_REMOVE, 2, 3, REC_K_CREATE },
	{ "renameat2", 0, 1, -1, REC_K_REMOVE, 2, 3, REC_K_CREATE },
	{ "rmdir", -1, 0, -1, REC_K_REMOVE, -1, -1, 0 },
	{ "symlink", -1, -1, -1, 0, -1, 1, REC_K_CREATE },
	{ "symlinkat", -1, -1, -1, 0, 1, 2, REC_K_CREATE },
	{ "truncate", -1, 0, -1, REC_K_WRITE, -1, -1, 0 },
	{ "unlink", -1, 0, -1, REC_K_REMOVE, -1, -1, 0 },
	{ "unlinkat", 0, 1, -1, REC_K_REMOVE, -1, -1, 0 },
};

static int fs_call_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct fs_call *)elem)->name);
}

/* An open's kinds: Landlock's file_open hook asks read-file or
 * write-file by the access mode (O_PATH nothing), truncate for O_TRUNC,
 * read-dir for a directory; O_CREAT makes a file in its directory. */
static uint8_t open_kinds(uint64_t flags)
{
	uint8_t k = 0;

	if (flags & O_PATH)
		return 0;
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		k = REC_K_READ;
		break;
	case O_WRONLY:
		k = REC_K_WRITE;
		break;
	default:
		k = REC_K_READ | REC_K_WRITE;
	}
	if (flags & O_TRUNC)
		k |= REC_K_WRITE;
	if (flags & O_CREAT)
		k |= REC_K_CREATE;
	return k;
}

int rec_join_clean(const char *base, const char *name, char *out, size_t size)
{
	size_t n = 0;

	for (int part = 0; part < 2; part++) {
		const char *s = part ? name : base;

		while (*s) {
			const char *e;
			size_t len;

			while (*s == '/')
				s++;
			e = strchrnul(s, '/');
			len = (size_t)(e - s);
			if (!len || (len == 1 && s[0] == '.')) {
				s = e;
				continue;
			}
			if (len == 2 && s[0] == '.' && s[1] == '.') {
				while (n && out[n - 1] != '/')
					n--;
				if (n)
					n--;	/* the slash; "/.." is "/" */
				s = e;
				continue;
			}
			if (n + 1 + len + 1 > size)
				return -ENAMETOOLONG;
			out[n++] = '/';
			memcpy(out + n, s, len);
			n += len;
			s = e;
		}
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	return 0;
}

/* The absolute, lexically clean path the kernel will walk for name
 * relative to dirfd (-1: the working directory). */
static int resolve_at(pid_t pid, int64_t dirfd, const char *name, char *out,
		      size_t size)
{
	char link[64], base[PATH_MAX];
	ssize_t n;

	if (name[0] == '/')
		return rec_join_clean("", name, out, size);
	if (dirfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, (int)dirfd);
	n = sw_sys_readlink(link, base, sizeof(base) - 1);
	if (n < 0)
		return -errno;
	base[n] = '\0';
	/* A pipe, socket or anonymous file ("pipe:[12]"), or a directory
	 * removed since: no path names it. */
	if (base[0] != '/' || (n > 10 && !strcmp(base + n - 10, " (deleted)")))
		return -ENOENT;
	return rec_join_clean(base, name, out, size);
}

static uint32_t path_hash(const char *s, bool in_dir)
{
	uint32_t h = 2166136261u ^ in_dir;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The last quarter of the table is for directories (fall_back). */
static void add_entry(struct sw_record *r, const char *path, bool in_dir,
		      uint8_t kinds, bool fall_back)
{
	char cut[REC_FILE];
	size_t slot;
	uint32_t h;

	if (strlen(path) >= REC_FILE) {
		/* Its directory as far as it fits, as a hierarchy: wider,
		 * never narrower. */
		char *slash;

		memcpy(cut, path, sizeof(cut) - 1);
		cut[sizeof(cut) - 1] = '\0';
		slash = strrchr(cut, '/');
		cut[slash && slash != cut ? slash - cut : 1] = '\0';
		path = cut;
		in_dir = true;
	}
	h = path_hash(path, in_dir);
	/* Open addressing over files[] (a program opens thousands). */
	if (!r->file_slot &&
	    !(r->file_slot = calloc(2 * REC_FILES, sizeof(*r->file_slot)))) {
		r->files_lost++;
		return;
	}
	for (slot = h & (2 * REC_FILES - 1); r->file_slot[slot];
	     slot = (slot + 1) & (2 * REC_FILES - 1)) {
		struct rec_file *f = &r->files[r->file_slot[slot] - 1];

		if (f->hash == h && f->in_dir == in_dir && !strcmp(f->path, path)) {
			f->kinds |= kinds;
			return;
		}
	}
	if (!in_dir && !fall_back && r->n_files >= REC_FILES / 4 * 3 &&
	    strcmp(path, "/")) {
		/* Many objects: the object's directory stands for it (the
		 * same hierarchy to the writer, reclearnfs.c, which then
		 * cannot tell a name missing after the run from one that
		 * was there: a wider rule, never a narrower one). */
		char *slash;

		if (path != cut)
			snprintf(cut, sizeof(cut), "%s", path);
		slash = strrchr(cut, '/');
		cut[slash && slash != cut ? slash - cut : 1] = '\0';
		add_entry(r, cut, false, kinds, true);
		return;
	}
	if (r->n_files == r->cap_files) {
		size_t cap = r->cap_files ? 2 * r->cap_files : REC_PATHS_FIRST;
		struct rec_file *p;

		if (cap > REC_FILES)
			cap = REC_FILES;
		p = cap > r->cap_files ? realloc(r->files, cap * sizeof(*p)) : NULL;
		if (!p) {
			r->files_lost++;
			return;
		}
		r->files = p;
		r->cap_files = cap;
	}
	r->file_slot[slot] = (uint16_t)(r->n_files + 1);
	r->files[r->n_files].hash = h;
	r->files[r->n_files].kinds = kinds;
	r->files[r->n_files].in_dir = in_dir;
	memcpy(r->files[r->n_files].path, path, strlen(path) + 1);
	r->n_files++;
}

void rec_files_add(struct sw_record *r, const char *path, bool in_dir,
		   uint8_t kinds)
{
	add_entry(r, path, in_dir, kinds, false);
}

/* What was reached: the object itself (which the writer checks exists
 * after the run: a call that failed for a missing name reached
 * nothing), or for a make, remove or move its directory, on which
 * Landlock checks those rights. */
static void add_object(struct sw_record *r, char *path, uint8_t kinds,
		       bool parent)
{
	char *slash = strrchr(path, '/');

	if (!kinds)
		return;
	if (parent) {
		if (slash == path)
			slash[1] = '\0';	/* "/x": in "/" */
		else if (slash)
			*slash = '\0';
	}
	rec_files_add(r, path, parent, kinds);
}

static void add_port(struct sw_record *r, int list, uint16_t port)
{
	for (uint8_t i = 0; i < r->n_ports[list]; i++)
		if (r->ports[list][i] == port)
			return;
	if (r->n_ports[list] == REC_PORTS) {
		r->ports_lost = true;
		return;
	}
	r->ports[list][r->n_ports[list]++] = port;
}

/* bind and connect: an inet address's port (a UDP socket's too: the
 * socket's type is not in the call; TCP is what Landlock decides). */
static void rec_port(struct sw_record *r, pid_t pid, enum sw_abi abi, int list,
		     const uint64_t args[6])
{
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	unsigned char sa[sizeof(struct sockaddr_in6)];
	uint32_t len = (uint32_t)args[2];
	sa_family_t family;
	uint16_t port;

	if (len < sizeof(struct sockaddr_in) || len > 128)
		return;
	if (len > sizeof(sa))
		len = sizeof(sa);
	if (sw_tracee_read(pid, args[1] & mask, sa, len) != (int)len)
		return;
	memcpy(&family, sa, sizeof(family));
	if (family != AF_INET && family != AF_INET6)
		return;
	memcpy(&port, sa + offsetof(struct sockaddr_in, sin_port), sizeof(port));
	/* bind to port 0: the kernel picks one (Landlock rules name
	 * ports the program asks for). */
	if (ntohs(port))
		add_port(r, list, ntohs(port));
}

void rec_files_call(struct sw_record *r, pid_t pid, enum sw_abi abi,
		    const char *name, const uint64_t args[6])
{
	uint64_t mask = sw_abi_arg_bytes(abi) == 4 ? 0xffffffffull : ~0ull;
	const struct fs_call *c;
	char s[PATH_MAX], from[PATH_MAX], to[PATH_MAX];
	bool have_from = false;
	uint8_t kind;

	if (!strcmp(name, "socket")) {
		int type = (int)(args[1] & 0xf);	/* SOCK_TYPE_MASK */

		if ((args[0] == AF_INET || args[0] == AF_INET6) && type == SOCK_STREAM)
			r->tcp = true;
		return;
	}
	if (!strcmp(name, "bind") || !strcmp(name, "connect")) {
		rec_port(r, pid, abi, name[0] == 'b' ? REC_BIND : REC_CONNECT, args);
		return;
	}
	c = bsearch(name, fs_calls, sizeof(fs_calls) / sizeof(fs_calls[0]),
		    sizeof(fs_calls[0]), fs_call_cmp);
	if (!c)
		return;
	kind = c->kind;
	if (kind == FC_OPEN) {
		uint64_t flags = args[c->flags] & mask;

		/* openat2's flags are in its struct open_how (first). */
		if (!strcmp(name, "openat2") &&
		    sw_tracee_read(pid, args[2] & mask, &flags, sizeof(flags)) != sizeof(flags))
			return;
		kind = open_kinds(flags);
	}

	if (c->path >= 0 && kind &&
	    sw_read_tracee_string(&pid, args[c->path] & mask, s, sizeof(s)) >= 0 &&
	    resolve_at(pid, c->dirfd < 0 ? AT_FDCWD : (int32_t)args[c->dirfd],
		       s, from, sizeof(from)) == 0) {
		have_from = true;
		/* A device opened with O_CREAT (a shell's "> /dev/null")
		 * makes nothing: the rule is the device's. */
		bool dev = c->kind == FC_OPEN && !strncmp(from, "/dev/", 5);
		if (dev)
			kind &= (uint8_t)~REC_K_CREATE;
		if (kind & (REC_K_READ | REC_K_WRITE | REC_K_EXEC))
			add_object(r, strcpy(s, from),
				   kind & (REC_K_READ | REC_K_WRITE | REC_K_EXEC), false);
		/* O_CREAT's make-reg is the directory's. */
		if (kind & (REC_K_CREATE | REC_K_REMOVE))
			add_object(r, strcpy(s, from),
				   kind & (REC_K_CREATE | REC_K_REMOVE), true);
	}
	if (c->path2 < 0)
		return;
	if (sw_read_tracee_string(&pid, args[c->path2] & mask, s, sizeof(s)) < 0 ||
	    resolve_at(pid, c->dirfd2 < 0 ? AT_FDCWD : (int32_t)args[c->dirfd2],
		       s, to, sizeof(to)) < 0)
		return;
	kind = c->kind2;
	/* Into another directory: refer (Landlock ABI 2), on both. */
	if (have_from || !strcmp(name, "link") || !strcmp(name, "linkat")) {
		char *a, *b;

		if (!have_from && (c->path2 < 1 ||
		    sw_read_tracee_string(&pid, args[c->path2 - 1] & mask, s, sizeof(s)) < 0 ||
		    resolve_at(pid, c->dirfd2 > 0 ? (int32_t)args[0] : AT_FDCWD,
			       s, from, sizeof(from)) < 0))
			goto dest;
		a = strrchr(from, '/');
		b = strrchr(to, '/');
		if (a - from != b - to || strncmp(from, to, (size_t)(a - from))) {
			kind |= REC_K_MOVE;
			add_object(r, from, REC_K_MOVE, true);
		}
	}
dest:
	add_object(r, to, kind, true);
}

uint64_t sw_record_files_lost(const struct sw_record *r, bool *ret_ports_lost)
{
	*ret_ports_lost = r->ports_lost;
	return r->files_lost;
}
