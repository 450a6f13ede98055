// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host settings a root session changes by mode bits alone
 * (docs/security.md, route 16c).  A capability-less root still owns
 * every file of /proc/sys and /sys that root owns: sysctl writes are
 * checked by the file's mode for the euid (proc_sys_permission(),
 * fs/proc/proc_sysctl.c: root gets the owner's bits), and most sysfs
 * stores check nothing beyond the mode.  Among them kernel.core_pattern
 * (a "|/path" is run as root with every capability on the next crash),
 * fs.protected_symlinks, CPUs taken offline, the page cache's and the
 * scheduler's settings, IRQ affinity.  (cgroupfs, the same by its
 * mode bits: adv_nsbox_cgroup.)
 *
 *   adv_nsbox_hostwrite attack   write back, to each file of the table, the
 *       value it holds (a write that changes nothing, "_" for
 *       sysrq-trigger, which does nothing with it); contained when no
 *       write succeeded.  Files this kernel lacks are said and skipped.
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>

#include "adv.h"

static int reached;

/* The file's value, as a write takes it back: for a choice list
 * ("always [madvise] never") the chosen word. */
static ssize_t value_of(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;
	char *l, *r;

	if (fd < 0)
		return -1;
	len = read(fd, buf, n - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	if ((l = strchr(buf, '[')) && (r = strchr(l, ']'))) {
		len = r - l - 1;
		memmove(buf, l + 1, (size_t)len);
		buf[len] = '\0';
	}
	return len;
}

static void write_back(const char *path, const char *fixed)
{
	char buf[4096];
	ssize_t len, n;
	int fd;

	if (access(path, F_OK) < 0) {
		RESULT("%s: absent on this kernel", path);
		return;
	}
	if (fixed) {
		snprintf(buf, sizeof(buf), "%s", fixed);
		len = (ssize_t)strlen(buf);
	} else if ((len = value_of(path, buf, sizeof(buf))) < 0) {
		RESULT("%s: read: %s", path, RET(-1, errno));
		return;
	}
	TRIED("write \"%.*s\" back to %s", (int)strcspn(buf, "\n"), buf, path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		RESULT("%s: open: %s", path, RET(-1, errno));
		return;
	}
	n = write(fd, buf, len ? (size_t)len : 1);
	if (n >= 0) {
		reached++;
		RESULT("%s: REACHED (written)", path);
	} else {
		RESULT("%s: write: %s", path, RET(-1, errno));
	}
	close(fd);
}

/* The first match of pattern, or NULL. */
static const char *first(const char *pattern, char *out, size_t n)
{
	glob_t g;
	const char *r = NULL;

	if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		snprintf(out, n, "%s", g.gl_pathv[0]);
		r = out;
	}
	globfree(&g);
	return r;
}

int main(int argc, char **argv)
{
	static const char *const files[] = {
		"/proc/sys/kernel/core_pattern",
		"/proc/sys/kernel/hostname",
		"/proc/sys/fs/protected_symlinks",
		"/proc/sys/vm/overcommit_memory",
		"/proc/sys/kernel/shmmax",
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/kernel/mm/ksm/run",
		"/sys/module/printk/parameters/time",
		"/sys/devices/system/cpu/cpu1/online",
	};
	static const char *const globs[] = {
		"/sys/block/*/queue/read_ahead_kb",
		"/proc/irq/*/smp_affinity",
	};
	char path[4096];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 2 || strcmp(argv[1], "attack")) {
		fprintf(stderr, "usage: adv_nsbox_hostwrite attack\n");
		return 2;
	}
	FACT("euid %u, CapEff %s", (unsigned)geteuid(),
	     adv_status_field("self", "CapEff", (char[32]){0}, 32) ?: "?");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		write_back(files[i], NULL);
	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++)
		if (first(globs[i], path, sizeof(path)))
			write_back(path, NULL);
	write_back("/proc/sysrq-trigger", "_");
	if (reached)
		return adv_verdict(ADV_ESCAPED, "a host setting was written");
	return adv_verdict(ADV_CONTAINED, "no host setting written");
}
