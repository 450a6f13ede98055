// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 21, `sysward run --sandbox`: a program in the sandbox writes
 * outside its workspace and its private temporary directory by every
 * other string that names the file (a symbolic link made before the
 * launch or by itself, a hard link into the workspace, /proc/self/root,
 * "..", a directory descriptor, /proc/self/fd, openat2), makes, renames
 * into, truncates and removes there, plants a hook in the workspace's
 * read-only .git, connects to a TCP port and to a unix socket of its
 * uid's outside (the user's services).  Each must fail; the controls
 * (the workspace, TMPDIR, reading the system) must work, so a sandbox
 * that refuses everything is no pass.
 *
 *   adv_sandbox WS OUT TCP_PORT UNIX_PATH
 *
 * WS (the workspace): .git/HEAD, sub/f, link-out -> OUT/target.  OUT: a
 * directory outside, the program's uid's (its mode bits allow
 * everything), with target.  A listener outside on 127.0.0.1:TCP_PORT
 * and on UNIX_PATH, of the program's uid.
 */
#include <arpa/inet.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sched.h>
#include <sys/mount.h>

#include "adv.h"

static int escaped, broken;

static void refused(const char *what, long r, int e)
{
	char b[96];

	RESULT("%s = %s", what, adv_ret(r, e, b, sizeof(b)));
	if (r >= 0) {
		escaped = 1;
		FACT("ESCAPE: %s", what);
	}
}

static void granted(const char *what, long r, int e)
{
	char b[96];

	RESULT("%s = %s", what, adv_ret(r, e, b, sizeof(b)));
	if (r < 0) {
		broken = 1;
		FACT("BROKEN: %s", what);
	}
}

#define wopen adv_write_at

#define REFUSED(what, call) \
	do { long r_ = (long)(call); refused((what), r_, errno); } while (0)
#define GRANTED(what, call) \
	do { long r_ = (long)(call); granted((what), r_, errno); } while (0)

static char *cat(const char *a, const char *b)
{
	static char buf[8][4096];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 4096, "%s/%s", a, b);
	return p;
}

/* In user and mount namespaces of its own: the sandbox's mounts
 * unmounted or made writable again, then .git/HEAD and OUT/target
 * written.  0 if a write went through. */
static long undo_mounts(const char *ws, const char *out)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
			_exit(13);
		(void)umount2(cat(ws, ".git"), MNT_DETACH);
		(void)mount(NULL, cat(ws, ".git"), NULL, MS_REMOUNT | MS_BIND, NULL);
		(void)mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL);
		_exit(wopen(AT_FDCWD, cat(ws, ".git/HEAD"), 0) >= 0 ||
		      wopen(AT_FDCWD, cat(out, "target"), 0) >= 0 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	errno = WIFEXITED(st) && WEXITSTATUS(st) == 13 ? EPERM : EACCES;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static long tcp_connect(int port)
{
	return adv_tcp(port, false);
}

static long unix_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e;
	char c;
	long r;

	if (s < 0)
		return -1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	r = connect(s, (struct sockaddr *)&a, sizeof(a));
	/* connected: did the service answer? */
	if (r == 0 && read(s, &c, 1) != 1)
		r = -1;
	e = errno;
	close(s);
	errno = e;
	return r;
}

int main(int argc, char **argv)
{
	const char *ws, *out, *tmp = getenv("TMPDIR");
	char up[2048] = "", proc[8192];
	struct open_how how = { .flags = O_WRONLY };
	int dfd, pfd, depth = 0;

	if (argc != 5)
		return adv_verdict(ADV_CANNOT, "usage: adv_sandbox WS OUT TCP_PORT UNIX_PATH");
	ws = argv[1];
	out = argv[2];

	/* Controls: what the sandbox grants. */
	GRANTED("write WS/sub/f", wopen(AT_FDCWD, cat(ws, "sub/f"), O_TRUNC));
	GRANTED("create WS/sub/new", wopen(AT_FDCWD, cat(ws, "sub/new"), O_CREAT));
	GRANTED("mkdir WS/sub/d", mkdir(cat(ws, "sub/d"), 0755));
	GRANTED("write $TMPDIR/f", tmp ? wopen(AT_FDCWD, cat(tmp, "f"), O_CREAT) : -1);
	GRANTED("read OUT/target", open(cat(out, "target"), O_RDONLY | O_CLOEXEC));
	GRANTED("write /dev/null", wopen(AT_FDCWD, "/dev/null", 0));

	/* Outside, by every name. */
	REFUSED("write OUT/target", wopen(AT_FDCWD, cat(out, "target"), 0));
	REFUSED("create OUT/new", wopen(AT_FDCWD, cat(out, "new"), O_CREAT));
	REFUSED("mkdir OUT/dir", mkdir(cat(out, "dir"), 0755));
	REFUSED("truncate OUT/target", truncate(cat(out, "target"), 0));
	REFUSED("unlink OUT/target", unlink(cat(out, "target")));
	REFUSED("write via WS/link-out (a link made before)", wopen(AT_FDCWD, cat(ws, "link-out"), 0));
	if (symlink(cat(out, "target"), cat(ws, "sub/mylink")) < 0)
		FACT("symlink in WS: %s", strerror(errno));
	REFUSED("write via a link made inside", wopen(AT_FDCWD, cat(ws, "sub/mylink"), 0));
	REFUSED("hard link OUT/target into WS", link(cat(out, "target"), cat(ws, "sub/hard")));
	REFUSED("write via that hard link", wopen(AT_FDCWD, cat(ws, "sub/hard"), 0));
	snprintf(proc, sizeof(proc), "/proc/self/root%s/target", out);
	REFUSED("write /proc/self/root/OUT/target", wopen(AT_FDCWD, proc, 0));
	for (const char *s = ws; *s; s++)
		depth += *s == '/';
	for (int i = 0; i < depth + 2; i++)
		strcat(up, "../");
	snprintf(proc, sizeof(proc), "%s/sub/%s%s/target", ws, up, out + 1);
	REFUSED("write WS/sub/../../OUT/target", wopen(AT_FDCWD, proc, 0));
	dfd = open(out, O_PATH | O_DIRECTORY | O_CLOEXEC);
	REFUSED("write openat(dirfd of OUT, target)", wopen(dfd, "target", 0));
	REFUSED("write openat2(dirfd of OUT, target)",
		syscall(SYS_openat2, dfd, "target", &how, sizeof(how)));
	pfd = open(cat(out, "target"), O_PATH | O_CLOEXEC);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	REFUSED("write /proc/self/fd/N of an O_PATH descriptor", wopen(AT_FDCWD, proc, 0));
	REFUSED("rename WS/sub/f to OUT/moved", rename(cat(ws, "sub/f"), cat(out, "moved")));
	REFUSED("rename OUT/target into WS", rename(cat(out, "target"), cat(ws, "sub/stolen")));

	/* The workspace's VCS metadata: no hook, no history rewritten. */
	REFUSED("write WS/.git/HEAD", wopen(AT_FDCWD, cat(ws, ".git/HEAD"), 0));
	REFUSED("create WS/.git/hooks/pre-commit",
		wopen(AT_FDCWD, cat(ws, ".git/hooks/pre-commit"), O_CREAT));
	REFUSED("rename WS/sub/new to WS/.git/hooks/post-checkout",
		rename(cat(ws, "sub/new"), cat(ws, ".git/hooks/post-checkout")));
	REFUSED("symlink WS/.git/hooks/pre-push", symlink(cat(ws, "sub/new"), cat(ws, ".git/hooks/pre-push")));
	REFUSED("unlink WS/.git/HEAD", unlink(cat(ws, ".git/HEAD")));
	REFUSED("rename WS/.git away", rename(cat(ws, ".git"), cat(ws, "sub/git")));
	REFUSED("unmount or remount in namespaces of its own, then write", undo_mounts(ws, out));

	/* The network and the user's services. */
	REFUSED("TCP connect 127.0.0.1:PORT", tcp_connect(atoi(argv[3])));
	REFUSED("unix connect to the uid's service outside", unix_connect(argv[4]));

	if (broken)
		return adv_verdict(ADV_ESCAPED, "what the sandbox grants did not work (fidelity)");
	if (escaped)
		return adv_verdict(ADV_ESCAPED, "a write outside the workspace, its .git, the network or a service was reached");
	return adv_verdict(ADV_CONTAINED, "every name, write, connection refused");
}
