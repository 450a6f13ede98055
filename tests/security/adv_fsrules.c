// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 21: the policy's "filesystem" and "network" sections, enforced by
 * the kernel (Landlock, engine/contain/fsrules.c) on the file found and the port
 * asked for.  The program names a file the rules refuse by every other
 * string it can make, writes where it may only read, executes what it
 * may only read, and binds and connects TCP ports it was not given; each
 * must fail.  The controls (what the rules grant) must keep working, so a
 * domain that refuses everything is no pass.
 *
 *   adv_fsrules ROOT PORT_OK PORT_NO
 *
 * ROOT (check.sh's fsrules_stage): ro/pub (ro), ro/secret/key (none),
 * ro/noexec/prog (read only, a copy of this program), ro/out (rw inside
 * ro), rw/ (rw), rw/sub/, rw/file, rw/.git/HEAD (ro inside rw),
 * rw/script (#! ro/noexec/prog), rwf/ (rw), rwf/file, rwf/conf (a file, ro
 * inside rw),
 * rw/ro-link -> ../ro/secret/key (a symbolic link made before the launch).
 * TCP: connect and bind PORT_OK allowed, PORT_NO not.
 *
 *   adv_fsrules ROOT PORT_OK PORT_NO names
 *
 * The names and the mount only, with the controls, and a count: the
 * stops 2,000 opens of ro/pub cost (voluntary context switches, which a
 * ptrace stop is one of): under "paths" rules on ro/secret/ compiled to
 * Landlock (engine/contain/pathrules.c) the opens do not stop.
 */

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "adv.h"

static const char *root;
static int escaped;

static char *at(const char *rel)
{
	static char buf[8][4096];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 4096, "%s/%s", root, rel);
	return p;
}

/* A read of what fd names: the bytes, or -1. */
static long read_fd(int fd)
{
	char b[64];
	long n = read(fd, b, sizeof(b));

	close(fd);
	return n;
}

/* An attempt the rules must refuse: r >= 0 is an escape. */
static void refused(const char *what, long r, int e)
{
	RESULT("%s = %s", what, RET(r, e));
	if (r >= 0) {
		escaped = 1;
		FACT("ESCAPE: %s", what);
	}
}

/* open + read: both must not give the bytes. */
static void refused_read(const char *what, int fd, int e)
{
	if (fd < 0) {
		refused(what, fd, e);
		return;
	}
	{
		long r = read_fd(fd);

		refused(what, r, errno);
	}
}

/* The call first, then its errno (an argument list has no order). */
#define REFUSED(what, call) \
	do { long r_ = (long)(call); refused((what), r_, errno); } while (0)
#define REFUSED_READ(what, call) \
	do { int fd_ = (int)(call); refused_read((what), fd_, errno); } while (0)

static long openat2_(int dfd, const char *p, int flags, unsigned long long resolve)
{
	struct open_how how = { .flags = (unsigned long long)flags, .resolve = resolve };

	return syscall(SYS_openat2, dfd, p, &how, sizeof(how));
}

/* exec path in a child: 0 if it ran (the child exits 42 on "probe"). */
static long try_exec(const char *path, int dfd, int flags)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char *argv[] = { (char *)path, "probe", NULL };

		if (dfd >= 0)
			syscall(SYS_execveat, dfd, path, argv, (char *[]){ NULL }, flags);
		else
			execve(path, argv, (char *[]){ NULL });
		_exit(errno == EACCES ? 13 : 99);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 42)
		return 0;
	errno = WIFEXITED(st) && WEXITSTATUS(st) == 13 ? EACCES : EPERM;
	return -1;
}

#define tcp adv_tcp

static void names(void)
{
	char key[4096];
	int d, fd;

	/* at()'s buffers rotate: the secret's name is kept whole */
	snprintf(key, sizeof(key), "%s", at("ro/secret/key"));

	TRIED("read ro/secret/key (rules: none) by every name");
	REFUSED_READ("open(absolute)", open(key, O_RDONLY));
	REFUSED_READ("open(ro/noexec/../secret/key)", open(at("ro/noexec/../secret/key"), O_RDONLY));
	d = open(at("ro/secret"), O_PATH | O_DIRECTORY);
	REFUSED_READ("openat(O_PATH dirfd of ro/secret, \"key\")", openat(d, "key", O_RDONLY));
	if (d >= 0) {
		char p[64];

		snprintf(p, sizeof(p), "/proc/self/fd/%d/key", d);
		REFUSED_READ("open(/proc/self/fd/N/key)", open(p, O_RDONLY));
	}
	fd = open(key, O_PATH);
	RESULT("open(key, O_PATH) = %s (a handle, no access: Landlock allows it)", RET(fd, errno));
	if (fd >= 0) {
		char p[64];

		snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
		REFUSED_READ("reopen O_PATH fd via /proc/self/fd/N", open(p, O_RDONLY));
	}
	{
		char p[4200];

		snprintf(p, sizeof(p), "/proc/self/root%s", key);
		REFUSED_READ("open(/proc/self/root/.../key)", open(p, O_RDONLY));
	}
	if (chdir(at("ro/secret")) == 0) {
		REFUSED_READ("chdir ro/secret; open(\"key\")", open("key", O_RDONLY));
		(void)chdir("/");
	}
	REFUSED_READ("open(rw/ro-link, a symlink made before launch)", open(at("rw/ro-link"), O_RDONLY));
	{
		long r = symlink(key, at("rw/sub/new-link"));

		RESULT("symlink(key, rw/sub/new-link) = %s", RET(r, errno));
	}
	REFUSED_READ("open(rw/sub/new-link)", open(at("rw/sub/new-link"), O_RDONLY));
	REFUSED("link(key, rw/sub/hard)", link(key, at("rw/sub/hard")));
	REFUSED_READ("open(rw/sub/hard)", open(at("rw/sub/hard"), O_RDONLY));
	d = open(at("ro"), O_PATH | O_DIRECTORY);
	REFUSED_READ("openat2(ro, secret/key, RESOLVE_BENEATH)", (int)openat2_(d, "secret/key", O_RDONLY, RESOLVE_BENEATH));
	REFUSED_READ("openat2(ro, /secret/key, RESOLVE_IN_ROOT)", (int)openat2_(d, "/secret/key", O_RDONLY, RESOLVE_IN_ROOT));
	REFUSED_READ("openat2(AT_FDCWD, key, RESOLVE_NO_MAGICLINKS)", (int)openat2_(AT_FDCWD, key, O_RDONLY, RESOLVE_NO_MAGICLINKS));
	REFUSED("stat-free listing: open(ro/secret, O_DIRECTORY)", (fd = open(at("ro/secret"), O_RDONLY | O_DIRECTORY)) < 0 ? -1 : (close(fd), 0));
	REFUSED("rename(key, rw/sub/moved)", rename(key, at("rw/sub/moved")));
	REFUSED_READ("open(rw/sub/moved)", open(at("rw/sub/moved"), O_RDONLY));
	/* where it got through, the secret back in its place for the rest */
	(void)rename(at("rw/sub/moved"), key);
}

static void writes(void)
{
	TRIED("write where the rules give read only");
	REFUSED("open(ro/pub, O_WRONLY)", adv_write_file(at("ro/pub"), "x"));
	REFUSED("truncate(ro/pub)", truncate(at("ro/pub"), 0));
	REFUSED("creat(ro/new)", creat(at("ro/new"), 0644));
	REFUSED("mkdir(ro/newdir)", mkdir(at("ro/newdir"), 0755));
	REFUSED("unlink(ro/pub)", unlink(at("ro/pub")));
	REFUSED("open(rw/.git/HEAD, O_WRONLY) (ro inside rw)", adv_write_file(at("rw/.git/HEAD"), "x"));
	REFUSED("creat(rw/.git/new) (ro inside rw)", creat(at("rw/.git/new"), 0644));
	REFUSED("rename(rw/.git/HEAD, rw/HEAD2)", rename(at("rw/.git/HEAD"), at("rw/HEAD2")));
	REFUSED("creat(ROOT/new, beside every hierarchy but /)", creat(at("new"), 0644));
	/* a file read-only in a writable tree: its bytes, and its name */
	REFUSED("open(rwf/conf, O_WRONLY) (a ro file inside rw)", adv_write_file(at("rwf/conf"), "x"));
	REFUSED("unlink(rwf/conf)", unlink(at("rwf/conf")));
	REFUSED("rename(rwf/file, rwf/conf) (replace it)", rename(at("rwf/file"), at("rwf/conf")));
	REFUSED("rename(rwf/conf, rwf/moved) (move it away)", rename(at("rwf/conf"), at("rwf/moved")));
}

static void execs(void)
{
	int fd;

	TRIED("execute what the rules give read only");
	REFUSED("execve(ro/noexec/prog)", try_exec(at("ro/noexec/prog"), -1, 0));
	REFUSED("execve(rw/script: #! ro/noexec/prog)", try_exec(at("rw/script"), -1, 0));
	fd = open(at("ro/noexec/prog"), O_RDONLY);
	REFUSED("execveat(fd of ro/noexec/prog, AT_EMPTY_PATH)", try_exec("", fd, AT_EMPTY_PATH));
	REFUSED("execveat(ro/noexec dirfd, \"prog\")", try_exec("prog", open(at("ro/noexec"), O_PATH | O_DIRECTORY), 0));
}

/* A mount namespace of its own, in a user namespace of its own: a bind
 * mount would name the file by a path no rule covers. */
static void mounts(void)
{
	pid_t pid;
	int st;

	TRIED("unshare(CLONE_NEWUSER|CLONE_NEWNS), bind-mount ro/secret over rw/mnt, read it there");
	pid = fork();
	if (pid == 0) {
		long r = unshare(CLONE_NEWUSER | CLONE_NEWNS);
		int fd;

		RESULT("unshare = %s", RET(r, errno));
		if (r < 0)
			_exit(0);
		r = mount(at("ro/secret"), at("rw/mnt"), NULL, MS_BIND, NULL);
		RESULT("mount(MS_BIND) = %s", RET(r, errno));
		fd = open(at("rw/mnt/key"), O_RDONLY);
		r = fd < 0 ? -1 : read_fd(fd);
		RESULT("read rw/mnt/key = %s", RET(r, errno));
		fd = open(at("rw/mnt/../../ro/secret/key"), O_RDONLY);
		r = fd < 0 ? -1 : read_fd(fd);
		RESULT("read rw/mnt/../../ro/secret/key = %s", RET(r, errno));
		_exit(r >= 0 ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		escaped = 1;
		FACT("ESCAPE: through a mount of its own");
	}
}

static void network(int ok, int no)
{
	TRIED("TCP: bind and connect to port %d (not granted)", no);
	REFUSED("bind(PORT_NO)", tcp(no, true));
	/* nothing listens: a granted connect gets ECONNREFUSED, a refused
	 * one EACCES */
	{
		long r = tcp(no, false);
		int e = errno;

		RESULT("connect(PORT_NO) = %s", RET(r, e));
		if (r >= 0 || e != EACCES) {
			escaped = 1;
			FACT("ESCAPE: connect(PORT_NO) reached the network stack");
		}
	}
}

/* creat + write: the bytes written, or -1 */
static long make_file(const char *path)
{
	return adv_write_at(AT_FDCWD, path, O_CREAT | O_TRUNC);
}

static void controls(int ok)
{
	int fd;

	ADV_OK("read ro/pub", (fd = open(at("ro/pub"), O_RDONLY)) < 0 ? -1 : read_fd(fd));
	ADV_OK("make rw/sub/new (rw)", make_file(at("rw/sub/new")));
	ADV_OK("mkdir rw/sub/d, rw/sub/d/e (rw, made after launch)",
	       mkdir(at("rw/sub/d"), 0755) < 0 ? -1 : mkdir(at("rw/sub/d/e"), 0755));
	ADV_OK("make rw/sub/d/e/f (made after launch)", make_file(at("rw/sub/d/e/f")));
	ADV_OK("rename rw/sub/d/e/f rw/sub/g", rename(at("rw/sub/d/e/f"), at("rw/sub/g")));
	ADV_OK("unlink rw/sub/g", unlink(at("rw/sub/g")));
	ADV_OK("rmdir rw/sub/d/e", rmdir(at("rw/sub/d/e")));
	ADV_OK("write rw/file (rw, beside .git)", adv_write_file(at("rw/file"), "x"));
	ADV_OK("truncate rw/file", truncate(at("rw/file"), 0));
	ADV_OK("read rw/.git/HEAD (ro)", (fd = open(at("rw/.git/HEAD"), O_RDONLY)) < 0 ? -1 : read_fd(fd));
	ADV_OK("make ro/out/new (rw inside ro)", make_file(at("ro/out/new")));
	ADV_OK("mkdir ro/out/d (rw inside ro)", mkdir(at("ro/out/d"), 0755));
	ADV_OK("bind(PORT_OK)", tcp(ok, true));
	ADV_ERR("connect(PORT_OK) (nothing listens)", tcp(ok, false), ECONNREFUSED);
	ADV_OK("write /dev/null", adv_write_file("/dev/null", "x"));
	ADV_OK("write rwf/file (rw, beside the ro file rwf/conf)", adv_write_file(at("rwf/file"), "x"));
	ADV_OK("mkdir rwf/d (directly in rw, the way to a ro file)", mkdir(at("rwf/d"), 0755));
	ADV_OK("read rwf/conf", (fd = open(at("rwf/conf"), O_RDONLY)) < 0 ? -1 : read_fd(fd));
	/* The way to a narrower hierarchy keeps only what both grant
	 * (engine/contain/fsrules.c): rw itself, the way to rw/.git, is ro. */
	{
		long r = make_file(at("rw/top"));

		FACT("make rw/top (directly in rw, the way to rw/.git) = %s", RET(r, errno));
		/* the way to a ro file keeps the directory rights, not the
		 * file rights: a file made there is made, and not opened
		 * for writing */
		r = make_file(at("rwf/top"));
		FACT("make rwf/top (directly in rw, the way to rwf/conf) = %s", RET(r, errno));
	}
}

/* The stops n opens cost, as the program sees them: its voluntary
 * context switches (kernel/sched/core.c counts a ptrace stop as one). */
static long switches(void)
{
	char b[4096];
	int fd = open("/proc/self/status", O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, b, sizeof(b) - 1);
	char *p;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	b[n] = '\0';
	p = strstr(b, "voluntary_ctxt_switches:");
	return p ? atol(p + strlen("voluntary_ctxt_switches:")) : -1;
}

static void stops(int n)
{
	long before = switches();

	for (int i = 0; i < n; i++)
		close(open(at("ro/pub"), O_RDONLY));
	FACT("stops: %ld voluntary context switches in %d opens", switches() - before, n);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[argc - 1], "probe"))
		return 42;	/* executed */
	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "names")))
		return adv_verdict(ADV_CANNOT, "usage: adv_fsrules ROOT PORT_OK PORT_NO [names]");
	root = argv[1];
	if (argc == 5) {
		names();
		mounts();
		controls(atoi(argv[2]));
		stops(2000);
		if (adv_control_end())
			return adv_verdict(ADV_ESCAPED, "what the rules grant did not work (fidelity)");
		if (escaped)
			return adv_verdict(ADV_ESCAPED, "a file the rules refuse was reached");
		return adv_verdict(ADV_CONTAINED, "every name refused");
	}
	names();
	writes();
	execs();
	mounts();
	network(atoi(argv[2]), atoi(argv[3]));
	controls(atoi(argv[2]));
	if (adv_control_end())
		return adv_verdict(ADV_ESCAPED, "what the rules grant did not work (fidelity)");
	if (escaped)
		return adv_verdict(ADV_ESCAPED, "a file or port the rules refuse was reached");
	return adv_verdict(ADV_CONTAINED, "every name, write, exec and port refused");
}
