// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The audit log on the program's own standard error ("sysward run --log
 * -"): each record one write(2), and only between the program's lines.
 *
 * A program writes many a line in several calls: glibc's error() writes
 * "cat: ", the name, then strerror()'s text, and strerror() may open a
 * locale's messages, a call the policy refuses and the log records at
 * its stop, mid-line.  So the program's writes to descriptor 2 stop too
 * (filter.c, for a program whose launch has a gate); at each one's
 * entry, before the bytes go out, the gate learns whether the stream
 * will end a line (the last byte to be written).  A record made while
 * the program is mid-line waits in the gate, and goes out at the entry
 * of the program's next write once its line has ended, at the next
 * record made at a line's end, or when the gate is closed (the session
 * is over).  Bounded: past SW_LINE_GATE_MAX bytes waiting, they go out
 * anyway (a line that never ends must not hold the log in memory).
 *
 * The gate writes to a descriptor of its own, a dup of the stream's:
 * the same open file description, so the same offset for a file the
 * program shares without O_APPEND.  The program's bytes are read with
 * process_vm_readv (sys.h), one byte, or a few iovecs and one byte.
 * Writes to descriptors 1 and 2 stop; those to our log's open file
 * description count (kcmp).  A write to it by another number (a dup to
 * 5, /dev/stderr opened again: another description) is not seen, and
 * its line may still take a record in its middle.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kcmp.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "sysward/engine.h"
#include "arch.h"
#include "internal.h"
#include "sys.h"
#include "decide/defences.h"
#include "decide/program.h"
#include "record/audit.h"

#define SW_LINE_GATE_MAX	(256u << 10)

struct sw_line_gate {
	int fd;
	/* the file it reaches, for kernels without kcmp (read once) */
	dev_t dev;
	ino_t ino;
	bool has_id;
	bool mid_line;		/* the program's last write did not end a line */
	char *q;		/* records waiting */
	size_t n, cap;
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int flush_queue(struct sw_line_gate *g)
{
	int r = g->n ? write_all(g->fd, g->q, g->n) : 0;

	g->n = 0;
	return r;
}

/* A record (or part of one: stdio may cut it) from the stream. */
static ssize_t gate_write(void *cookie, const char *buf, size_t size)
{
	struct sw_line_gate *g = cookie;

	if (!g->mid_line && !g->n)
		return write_all(g->fd, buf, size) < 0 ? -1 : (ssize_t)size;
	if (g->n + size > g->cap) {
		size_t cap = g->cap ? g->cap : 4096;
		char *q;

		while (cap < g->n + size)
			cap *= 2;
		q = realloc(g->q, cap);
		if (!q) {
			/* Out of memory: out of order rather than lost. */
			return flush_queue(g) < 0 || write_all(g->fd, buf, size) < 0
			       ? -1 : (ssize_t)size;
		}
		g->q = q;
		g->cap = cap;
	}
	memcpy(g->q + g->n, buf, size);
	g->n += size;
	if (!g->mid_line || g->n > SW_LINE_GATE_MAX)
		return flush_queue(g) < 0 ? -1 : (ssize_t)size;
	return (ssize_t)size;
}

static int gate_close(void *cookie)
{
	struct sw_line_gate *g = cookie;
	int r = flush_queue(g);

	close(g->fd);
	free(g->q);
	free(g);
	return r < 0 ? -1 : 0;
}

int sw_line_gate_open(int fd, FILE **ret_stream, struct sw_line_gate **ret_gate)
{
	static const cookie_io_functions_t io = {
		.write = gate_write, .close = gate_close,
	};
	struct sw_line_gate *g = calloc(1, sizeof(*g));
	FILE *f;

	if (!g)
		return -ENOMEM;
	g->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (g->fd < 0) {
		int e = errno;

		free(g);
		return -e;
	}
	{
		struct stat st;

		if (fstat(g->fd, &st) == 0)
			*g = (struct sw_line_gate){ .fd = g->fd, .dev = st.st_dev,
						    .ino = st.st_ino, .has_id = true };
	}
	f = fopencookie(g, "w", io);
	if (!f) {
		close(g->fd);
		free(g);
		return -ENOMEM;
	}
	/* A record reaches gate_write() whole: the audit writer writes
	 * it with one fwrite() and flushes (audit.c, line_write()). */
	setvbuf(f, NULL, _IOFBF, 64u << 10);
	*ret_stream = f;
	*ret_gate = g;
	return 0;
}

/* The last byte of the iovec array at iov (cnt of them, in the ABI's
 * layout: two words of w bytes each): -1 if all are empty or unread. */
static int iov_last_byte(pid_t pid, unsigned int w, uint64_t iov, uint64_t cnt)
{
	uint64_t n = cnt < 8 ? cnt : 8, words[16] = { 0 };
	uint32_t words32[16];
	struct iovec local, remote;

	if (cnt == 0 || cnt > 1024)
		return -1;
	/* The last eight: a line's end is in the last one that has bytes. */
	remote.iov_base = (void *)(uintptr_t)(iov + (cnt - n) * 2 * w);
	remote.iov_len = n * 2 * w;
	local.iov_base = w == 4 ? (void *)words32 : (void *)words;
	local.iov_len = remote.iov_len;
	if (sw_sys_process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)remote.iov_len)
		return -1;
	for (uint64_t i = n; i-- > 0;) {
		uint64_t base = w == 4 ? words32[2 * i] : words[2 * i];
		uint64_t len = w == 4 ? words32[2 * i + 1] : words[2 * i + 1];
		char c;

		if (!len)
			continue;
		local = (struct iovec){ &c, 1 };
		remote = (struct iovec){ (void *)(uintptr_t)(base + len - 1), 1 };
		return sw_sys_process_vm_readv(pid, &local, 1, &remote, 1, 0) == 1
		       ? (unsigned char)c : -1;
	}
	return -1;
}

bool sw_line_gate_observe(struct sw_session *s, pid_t pid, enum sw_abi abi,
			  uint64_t nr, const uint64_t args[6])
{
	const int *sys = s->prog->sys[abi];
	unsigned int w = sw_abi_arg_bytes(abi);
	uint32_t fd = (uint32_t)args[0];	/* the kernel's unsigned int */
	bool vec;
	int last = -1;
	long same;

	if ((int64_t)nr == sys[SW_SYS_WRITE] || (int64_t)nr == sys[SW_SYS_PWRITE64])
		vec = false;
	else if ((int64_t)nr == sys[SW_SYS_WRITEV] || (int64_t)nr == sys[SW_SYS_PWRITEV] ||
		 (int64_t)nr == sys[SW_SYS_PWRITEV2])
		vec = true;
	else
		return false;
	if (fd != STDOUT_FILENO && fd != STDERR_FILENO)
		return false;
	/* Only a write to our log's open file description (its standard
	 * error as we gave it, a dup of it as 1, a terminal or pipe both
	 * share) moves the gate: kcmp(2) KCMP_FILE, which needs ptrace
	 * read access to the tracee (ours; kernel/kcmp.c).  Without kcmp
	 * (no CONFIG_CHECKPOINT_RESTORE: the VM guest's kernel) the file
	 * it reaches instead (device and inode of /proc/<pid>/fd/<fd>):
	 * another description of the same file or pipe counts too, but a
	 * write to /dev/null does not (a shell's `cd x 2>/dev/null` writes
	 * its complaint there, which would end the line early). */
	same = sw_sys_kcmp(getpid(), pid, KCMP_FILE, (unsigned long)s->gate->fd, fd);
	if (same < 0 && errno == ENOSYS) {
		char path[64];
		struct stat theirs;

		snprintf(path, sizeof(path), "/proc/%d/fd/%u", pid, fd);
		same = s->gate->has_id && sw_sys_stat(path, &theirs) == 0 &&
		       s->gate->dev == theirs.st_dev && s->gate->ino == theirs.st_ino ? 0 : 1;
	}
	if (same > 0 || (same < 0 && errno != ENOSYS))
		return true;	/* stopped for the gate, written elsewhere */
	if (!vec) {
		uint64_t len = w == 4 ? (uint32_t)args[2] : args[2];
		struct iovec local, remote;
		char c;

		if (len == 0)
			return true;	/* nothing written: as it was */
		local = (struct iovec){ &c, 1 };
		remote = (struct iovec){ (void *)(uintptr_t)(args[1] + len - 1), 1 };
		if (sw_sys_process_vm_readv(pid, &local, 1, &remote, 1, 0) == 1)
			last = (unsigned char)c;
	} else {
		last = iov_last_byte(pid, w, w == 4 ? (uint32_t)args[1] : args[1],
				     w == 4 ? (uint32_t)args[2] : args[2]);
	}
	/* Unread (a bad address: the call fails): let the records out. */
	sw_line_gate_wrote(s->gate, last < 0 || last == '\n');
	return true;
}

void sw_line_gate_wrote(struct sw_line_gate *g, bool ends_line)
{
	/* The program's last write has returned (this is the entry of
	 * its next one): the records of a line that ended go out first. */
	if (!g->mid_line)
		(void)flush_queue(g);
	g->mid_line = !ends_line;
}
