// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route: the supervisor frozen by a FUSE file the program serves itself
 * (docs/security.md, route 13).  The program opens /dev/fuse, enters a
 * user namespace of its own (where it has CAP_SYS_ADMIN over a new mount
 * namespace), mounts a FUSE file system with the raw protocol, maps its
 * one file and puts a path argument on that page.  Its server answers
 * INIT, LOOKUP, GETATTR and OPEN, but holds back READ: the supervisor's
 * process_vm_readv of the path faults, and the fault waits for the
 * server -- with it every stop of the session (under syswardd, of every
 * session).  A witness thread times an emulated getuid (a supervisor stop)
 * every 0.2 s meanwhile.
 *
 *   adv_fuse DIR   (as uid 0, under a policy emulating getuid and denying
 *                  openat of DIR/file-D by path)
 *
 * The server answers the READ after 4 s, so the program ends even when the
 * supervisor is stuck: then the witness reports the delay (ESCAPED, exit 1).
 * Defended, the supervisor gives up the read after its deadline and kills
 * the program before that (check.sh looks for the warning and the time).
 *
 *   adv_fuse DIR stuck
 *
 * An unkillable tracee (tests/daemon t_unkillable_tracee): a thread looks
 * up DIR/mnt/stuck, and the server takes the LOOKUP and never answers.  A
 * request already read by its server waits uninterruptibly, even for
 * SIGKILL (fs/fuse/dev.c, request_wait_answer), and the connection is
 * aborted only when the last /dev/fuse descriptor closes: the stuck
 * thread's own descriptor table holds one.  So once killed, the process
 * never ends until someone aborts the connection (fusectl's "abort").
 *
 *   adv_fuse DIR stuck-read
 *
 * The same, and then the route above with the READ never answered: the
 * supervisor's read of the path faults and waits for a connection that no
 * kill can abort (tests/daemon t_stuck_reads_stay_home).
 *
 *   adv_fuse DIR workspace
 *
 * Not a program under sysward: a root helper for tests/daemon
 * t_sandbox_mounts_never_block.  It mounts DIR/mnt in its own (the
 * caller's) mount namespace, for every uid, and serves a directory "ws"
 * there: a LOOKUP of it by any uid but 0 is answered (uncached, so that
 * a client of uid 65534 can check its workspace), one by uid 0 is read
 * and never answered, and so is one of "ws/.git", which only the
 * sandbox's mounts look up (syswardd's mounter, as the client: the VCS
 * metadata's read-only mount; a daemon's Landlock plan leaves it out).
 * Until killed; killing it aborts the connection.
 *
 *   adv_fuse DIR write-open [FUSE-DEVICE [detached]]
 *
 * The supervisor's own look at a descriptor (objects.c's check of an open
 * that can write, docs/security.md route 13): the server answers INIT,
 * LOOKUP and OPEN, with attributes valid for no time, and reads every
 * STATFS and GETATTR without ever answering it.  The program opens its
 * file for writing: a statfs(2) or stat(2) of /proc/<pid>/fd/<n> by a
 * tracer of the mounter's uid (fuse_allow_current_process()) waits for
 * that answer in fuse_statfs() or fuse_getattr(), and with it the tracer
 * thread.  Contained: the open returns at once, and no STATFS or GETATTR
 * ever reaches the server.  The server is a process of its own: a
 * thread sharing the opener's descriptor table would be held while the
 * open is checked (resultcheck.c), and the open would wait for it.
 * FUSE-DEVICE: a node of /dev/fuse's to open
 * instead (a test's 0666 copy, as many systems have /dev/fuse).
 * "detached": mounted with fsopen/fsmount and never attached, the file
 * opened beneath the mount's descriptor: a mount in no namespace.
 */
#include <fcntl.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "adv.h"

#define HOLD_READ 4.0		/* s the server keeps a READ unanswered */

static const char *dir;
static int fuse = -1;
static bool hold_lookup;	/* "stuck": never answer LOOKUP "stuck" */
static bool hold_read;		/* "stuck-read": never answer READ */
static volatile bool lookup_held;
static bool workspace;		/* "workspace": see above */
static bool hold_attrs;		/* "write-open": never answer STATFS, GETATTR */
static volatile int *held;	/* requests read and never answered: shared */
static volatile double t_open = 1e18;
static char path[4096];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void reply(uint64_t unique, int error, const void *body, size_t len)
{
	char buf[sizeof(struct fuse_out_header) + 4096];
	struct fuse_out_header h = { .len = sizeof(h) + (error ? 0 : len),
				     .error = error, .unique = unique };

	memcpy(buf, &h, sizeof(h));
	if (len > 4096)
		len = 4096;
	h.len = sizeof(h) + (error ? 0 : len);
	if (!error && len)
		memcpy(buf + sizeof(h), body, len);
	if (write(fuse, buf, h.len) < 0)
		FACT("server: write(/dev/fuse): %s", strerror(errno));
}

static void attr_of(uint64_t ino, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID || ino == 3 ? S_IFDIR | 0755 : S_IFREG | 0644;
	a->nlink = 1;
	a->size = ino == FUSE_ROOT_ID ? 0 : 4096;
	a->blocks = 8;
	a->blksize = 4096;
	/* Owned by the mounter (inside uid 1 is outside 0): a file of an
	 * id unmapped in the mount's namespace is never opened for
	 * writing (fs/namei.c inode_permission(), HAS_UNMAPPED_ID). */
	if (hold_attrs)
		a->uid = a->gid = 1;
}

static void *server(void *arg)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];

	for (;;) {
		struct fuse_in_header *in = (void *)buf;
		void *body = buf + sizeof(*in);
		ssize_t n = read(fuse, buf, sizeof(buf));

		if (n < (ssize_t)sizeof(*in)) {
			if (n < 0 && errno == EINTR)
				continue;
			return arg;
		}
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *ii = body;
			struct fuse_init_out o = { .major = FUSE_KERNEL_VERSION,
						   .minor = FUSE_KERNEL_MINOR_VERSION,
						   .max_readahead = ii->max_readahead,
						   .max_write = 4096,
						   .max_background = 16,
						   .congestion_threshold = 12 };

			/* Lookups in one directory at once: else the held
			 * LOOKUP ("stuck") locks the root for the others. */
			if (hold_lookup)
				o.flags = ii->flags & FUSE_PARALLEL_DIROPS;
			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out o = { .nodeid = 2, .generation = 1,
						    .entry_valid = 3600, .attr_valid = 3600 };

			if (workspace && in->nodeid == 3 && !strcmp(body, ".git")) {
				FACT("server: LOOKUP of ws/.git by uid %u (pid %u), never answered",
				     in->uid, in->pid);
				break;
			}
			if (workspace && !strcmp(body, "ws")) {
				if (in->uid == 0) {
					FACT("server: LOOKUP of ws by uid 0 (pid %u), never answered",
					     in->pid);
					break;
				}
				o = (struct fuse_entry_out){ .nodeid = 3, .generation = 1 };
				attr_of(3, &o.attr);
				reply(in->unique, 0, &o, sizeof(o));
				break;
			}
			if (hold_lookup && !strcmp(body, "stuck")) {
				FACT("server: LOOKUP of stuck, never answered");
				lookup_held = true;
				break;
			}
			if (strcmp(body, "f")) {
				reply(in->unique, -ENOENT, NULL, 0);
				break;
			}
			if (hold_attrs)
				o.attr_valid = 0;	/* every stat asks */
			attr_of(2, &o.attr);
			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_STATFS:
			if (!hold_attrs) {
				reply(in->unique, -ENOSYS, NULL, 0);
				break;
			}
			(*held)++;
			FACT("server: STATFS by pid %u (uid %u), never answered", in->pid, in->uid);
			break;
		case FUSE_GETATTR: {
			struct fuse_attr_out o = { .attr_valid = workspace ? 0 : 3600 };

			if (hold_attrs) {
				(*held)++;
				FACT("server: GETATTR of node %llu by pid %u (uid %u), never answered",
				     (unsigned long long)in->nodeid, in->pid, in->uid);
				break;
			}
			attr_of(in->nodeid, &o.attr);
			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_OPEN:
		case FUSE_OPENDIR: {
			struct fuse_open_out o = { .fh = 1 };

			reply(in->unique, 0, &o, sizeof(o));
			break;
		}
		case FUSE_READ: {
			struct fuse_read_in *ri = body;
			static char data[4096];
			double t0 = now();

			if (hold_read) {
				FACT("server: READ of %u bytes, never answered", ri->size);
				break;
			}
			FACT("server: READ of %u bytes at %llu, held back %.0f s",
			     ri->size, (unsigned long long)ri->offset, HOLD_READ);
			while (now() - t0 < HOLD_READ)
				usleep(10000);
			memset(data, 0, sizeof(data));
			snprintf(data, sizeof(data), "%s", path);
			reply(in->unique, 0, data, ri->size < sizeof(data) ? ri->size : sizeof(data));
			break;
		}
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break;
		case FUSE_FLUSH:
		case FUSE_RELEASE:
		case FUSE_RELEASEDIR:
			reply(in->unique, 0, NULL, 0);
			break;
		default:
			reply(in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
}

static long open_ret;
static int open_err;
static double open_took, witness_delay = -1;

static void *opener(void *page)
{
	open_ret = syscall(SYS_openat, AT_FDCWD, page, O_RDONLY);
	open_err = errno;
	open_took = now() - t_open;
	return NULL;
}

static void *witness(void *a)
{
	while (now() < t_open)
		usleep(1000);
	while (now() - t_open < HOLD_READ + 1.0) {
		double t0, d;

		usleep(200000);
		t0 = now();
		syscall(SYS_getuid);
		d = now() - t0;
		if (d > witness_delay)
			witness_delay = d;
		FACT("witness: getuid took %.3f s", d);
	}
	return a;
}

static void *looker(void *mnt)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "%s/stuck", (char *)mnt);
	stat(p, &st);
	return NULL;
}

/* "write-open ... detached": the same FUSE mounted with the new mount
 * API and never attached (fsmount(2)): a mount in no namespace. */
static int mount_detached(void)
{
	char fdstr[16];
	int fs = (int)syscall(430 /* fsopen */, "fuse", 1 /* FSOPEN_CLOEXEC */);
	int m;

	if (fs < 0)
		return -1;
	snprintf(fdstr, sizeof(fdstr), "%d", fuse);
	/* FSCONFIG_SET_STRING 1, FSCONFIG_CMD_CREATE 6 */
	if (syscall(431, fs, 1, "fd", fdstr, 0) < 0 ||
	    syscall(431, fs, 1, "rootmode", "40000", 0) < 0 ||
	    syscall(431, fs, 1, "user_id", "1", 0) < 0 ||
	    syscall(431, fs, 1, "group_id", "1", 0) < 0 ||
	    syscall(431, fs, 6, NULL, NULL, 0) < 0)
		return -1;
	m = (int)syscall(432 /* fsmount */, fs, 1 /* FSMOUNT_CLOEXEC */, 0);
	close(fs);
	return m;
}

/* "write-open": the supervisor's look at what an open for writing
 * opened must not ask the server. */
static int write_open(int dirfd, const char *file)
{
	double t0 = now(), took;
	int fd, err;

	TRIED("open(%s, O_WRONLY): its server never answers STATFS or GETATTR", file);
	fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
	err = errno;
	took = now() - t0;
	RESULT("open = %s after %.3f s", RET(fd, err), took);
	/* What the server read by now: a request the open's check sent
	 * reached it before the open returned. */
	usleep(200000);
	RESULT("%d request(s) held unanswered", *held);
	/* Closed while the server answers its FLUSH: at exit the last
	 * thread to go (maybe the server's) would send it and wait. */
	if (fd >= 0)
		close(fd);
	if (fd < 0 || *held)
		return adv_verdict(ADV_ESCAPED,
				   "the supervisor asked the program's FUSE server about the opened file");
	return adv_verdict(ADV_CONTAINED,
			   "the open for writing was judged without asking the program's FUSE server");
}

int main(int argc, char **argv)
{
	char mnt[4096], file[4200], opts[128], map[64];
	bool detached;
	int mfd = -1;
	const char *dev = "/dev/fuse";
	unsigned int euid = (unsigned int)geteuid(), egid = (unsigned int)getegid();
	pthread_t srv, o, w;
	char *page;
	int fd;

	if (argc < 2 || (argc > 2 && strcmp(argv[2], "stuck") &&
			 strcmp(argv[2], "stuck-read") && strcmp(argv[2], "workspace") &&
			 strcmp(argv[2], "write-open"))) {
		fprintf(stderr, "usage: adv_fuse DIR [stuck | stuck-read | workspace | write-open [FUSE-DEVICE [detached]]]\n");
		return ADV_CANNOT;
	}
	dir = argv[1];
	if (argc > 2 && !strcmp(argv[2], "workspace")) {
		workspace = true;
		snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
		fuse = open("/dev/fuse", O_RDWR | O_CLOEXEC);
		snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", fuse);
		if (fuse < 0 || mount("adv_fuse", mnt, "fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
			RESULT("mount(fuse) = %s", RET(-1, errno));
			return adv_verdict(ADV_CANNOT, "cannot mount a FUSE file system");
		}
		FACT("server: mounted on %s", mnt);
		server(NULL);
		return 0;
	}
	hold_attrs = argc > 2 && !strcmp(argv[2], "write-open");
	if (hold_attrs && argc > 3)
		dev = argv[3];
	detached = hold_attrs && argc > 4 && !strcmp(argv[4], "detached");
	hold_lookup = argc > 2 && !hold_attrs;
	hold_read = argc > 2 && !strcmp(argv[2], "stuck-read");
	snprintf(path, sizeof(path), "%s/file-D", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	FACT("uid %d", (int)geteuid());

	TRIED("open(/dev/fuse), unshare(CLONE_NEWUSER | CLONE_NEWNS), mount a FUSE file system served by this program");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
		RESULT("unshare = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "no user namespace");
	}
	/* Inside uid 1 is outside our uid: mapping inside 0 to outside 0
	 * would need CAP_SETFCAP outside, and the program has no
	 * capability there. */
	if (adv_write_file("/proc/self/setgroups", "deny") < 4)
		FACT("setgroups deny: %s", strerror(errno));
	snprintf(map, sizeof(map), "1 %u 1", euid);
	if (adv_write_file("/proc/self/uid_map", map) < 5)
		FACT("uid_map: %s", strerror(errno));
	snprintf(map, sizeof(map), "1 %u 1", egid);
	if (adv_write_file("/proc/self/gid_map", map) < 5)
		FACT("gid_map: %s", strerror(errno));
	/* Opened in the namespace that mounts: FUSE refuses a /dev/fuse
	 * opened in another user namespace. */
	fuse = open(dev, O_RDWR | O_CLOEXEC);
	if (fuse < 0) {
		RESULT("open(%s) = %s", dev, RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "cannot open /dev/fuse");
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		FACT("make / private: %s", strerror(errno));
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=1,group_id=1", fuse);
	if (detached) {
		mfd = mount_detached();
		if (mfd < 0) {
			RESULT("fsopen, fsconfig, fsmount = %s", RET(-1, errno));
			return adv_verdict(ADV_CANNOT, "cannot make a detached FUSE mount");
		}
		FACT("a detached FUSE mount, in no mount namespace");
	} else if (mount("adv_fuse", mnt, "fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
		RESULT("mount(fuse) = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "cannot mount a FUSE file system");
	}
	if (hold_attrs) {
		pid_t srv_pid;
		int r;

		held = mmap(NULL, sizeof(*held), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (held == MAP_FAILED)
			return adv_verdict(ADV_CANNOT, "mmap");
		srv_pid = fork();
		if (srv_pid == 0) {
			server(NULL);
			_exit(0);
		}
		/* the server's alone: killing it aborts the connection */
		close(fuse);
		snprintf(file, sizeof(file), "%s/f", mnt);
		r = write_open(mfd >= 0 ? mfd : AT_FDCWD, mfd >= 0 ? "f" : file);
		kill(srv_pid, SIGKILL);
		waitpid(srv_pid, NULL, 0);
		return r;
	}
	pthread_create(&srv, NULL, server, NULL);
	if (hold_lookup) {
		/* Whoever frees us needs it: a killed leader shows no
		 * command line. */
		FACT("pid %d", (int)getpid());
		TRIED("stat(%s/stuck) in a thread, its LOOKUP never answered", mnt);
		pthread_create(&o, NULL, looker, mnt);
		/* Until killed: then the looker keeps the process alive. */
		while (!hold_read || !lookup_held)
			usleep(10000);
	}
	snprintf(file, sizeof(file), "%s/f", mnt);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		RESULT("open(%s) = %s", file, RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "cannot open the FUSE file");
	}
	page = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		RESULT("mmap = %s", RET(-1, errno));
		return adv_verdict(ADV_CANNOT, "cannot map the FUSE file");
	}
	/* The mapping keeps the file: closing it now means that no exit of
	 * the server's thread waits for a FLUSH it would answer itself. */
	close(fd);
	RESULT("mounted on %s, %s mapped at %p (not read yet)", mnt, file, page);

	TRIED("openat(path on the FUSE page, READ held back %.0f s), getuid in another thread every 0.2 s",
	      HOLD_READ);
	/* The witness runs before the openat: once the supervisor waits, no
	 * new thread starts (its clone event waits too). */
	pthread_create(&w, NULL, witness, NULL);
	usleep(100000);
	t_open = now();
	pthread_create(&o, NULL, opener, page);
	pthread_join(o, NULL);
	pthread_join(w, NULL);
	RESULT("openat = %s after %.2f s", RET(open_ret, open_err), open_took);
	RESULT("witness: at most %.2f s for one getuid", witness_delay);
	if (witness_delay < 0 || witness_delay > 1.5)
		return adv_verdict(ADV_ESCAPED,
				   "a FUSE page the program serves froze the supervisor");
	return adv_verdict(ADV_ESCAPED,
			   "the program survived a read that never ended (no deadline?)");
}
