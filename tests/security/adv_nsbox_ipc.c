// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The session's own IPC (docs/security.md, route 16c): System V shared
 * memory, semaphores and message queues, POSIX message queues and the
 * POSIX shared memory and named semaphores of /dev/shm are objects of an
 * IPC namespace (or a tmpfs) that every process of the host shares.  A
 * same-uid process may attach, lock, read and write its uid's objects by
 * their permission bits alone (ipcperms(), ipc/util.c; mode 0600 is its
 * own), with no ptrace-mode check, so a Landlock domain does not stop it.
 *
 *   adv_nsbox_ipc witness DIR TAG   outside sysward: make one object of each
 *       kind, mode 0600, holding a secret (SysV keys and POSIX names from
 *       TAG), write DIR/wit.info, and wait (at most 120 s)
 *   adv_nsbox_ipc attack DIR [MQDIR]   under sysward: reach each of the
 *       witness's objects (by key, by id, by name, through /proc/sysvipc
 *       and the mqueue mount MQDIR, default /dev/mqueue); contained when
 *       none is reached
 *   adv_nsbox_ipc check DIR         outside, after attack: each of the
 *       witness's objects as it left it (exit 0), else exit 1
 *   adv_nsbox_ipc own               under sysward (control): the program's own
 *       objects of every kind work between its processes, and go away
 *   adv_nsbox_ipc remove DIR        outside: remove the witness's objects
 */
#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "adv.h"

#define SECRET "witness-ipc-secret"

struct info {
	key_t key;		/* SysV: shm key, key + 1 sem, key + 2 msg */
	char name[64];		/* POSIX: "/sysward-adv-TAG" (mq, shm, sem) */
	int has_mq;		/* 0: a kernel without POSIX message queues */
};

struct msgbuf_ {
	long mtype;
	char text[64];
};

static int read_info(const char *dir, struct info *in)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/wit.info", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fscanf(f, "%i %63s %d", &in->key, in->name, &in->has_mq) == 3;
	fclose(f);
	return ok ? 0 : -1;
}

static int witness(const char *dir, const char *tag)
{
	struct info in = { 0 };
	struct msgbuf_ m = { 1, SECRET };
	struct mq_attr qa = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	char path[4096], tmp[4096];
	char *p;
	mqd_t q;
	sem_t *s;
	int id, fd;
	FILE *f;

	in.key = (key_t)(0x4e420000 | (strtoul(tag, NULL, 10) & 0xffff));
	snprintf(in.name, sizeof(in.name), "/sysward-adv-%s", tag);
	id = shmget(in.key, 4096, IPC_CREAT | IPC_EXCL | 0600);
	if (id < 0 || (p = shmat(id, NULL, 0)) == (void *)-1)
		return perror("shm"), 2;
	strcpy(p, SECRET);
	if ((id = semget(in.key + 1, 1, IPC_CREAT | IPC_EXCL | 0600)) < 0 ||
	    semctl(id, 0, SETVAL, 1) < 0)
		return perror("sem"), 2;
	if ((id = msgget(in.key + 2, IPC_CREAT | IPC_EXCL | 0600)) < 0 ||
	    msgsnd(id, &m, sizeof(m.text), 0) < 0)
		return perror("msg"), 2;
	/* CONFIG_POSIX_MQUEUE is not in every kernel (the guest's). */
	q = mq_open(in.name, O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
	in.has_mq = q != (mqd_t)-1 || errno != ENOSYS;
	if (in.has_mq && (q == (mqd_t)-1 || mq_send(q, SECRET, sizeof(SECRET), 0) < 0))
		return perror("mq"), 2;
	fd = shm_open(in.name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write(fd, SECRET, sizeof(SECRET)) != sizeof(SECRET))
		return perror("shm_open"), 2;
	close(fd);
	/* sem_open's names live beside shm_open's: "sem." + name. */
	s = sem_open(in.name, O_CREAT | O_EXCL, 0600, 1);
	if (s == SEM_FAILED)
		return perror("sem_open"), 2;
	snprintf(tmp, sizeof(tmp), "%s/wit.info.tmp", dir);
	snprintf(path, sizeof(path), "%s/wit.info", dir);
	f = fopen(tmp, "we");
	if (!f)
		return perror(tmp), 2;
	fprintf(f, "%#x %s %d\n", (unsigned int)in.key, in.name, in.has_mq);
	fclose(f);
	rename(tmp, path);
	for (int i = 0; i < 1200; i++)
		usleep(100 * 1000);
	return 0;
}

/* One object reached: what the attacker could do with it. */
static int reached;

static void outcome(const char *what, bool ok, int e, const char *how)
{
	if (ok) {
		reached++;
		RESULT("%s: REACHED (%s)", what, how);
	} else {
		RESULT("%s: %s", what, RET(-1, e));
	}
}

static void attack_shm(key_t key)
{
	struct shm_info si;
	struct shmid_ds ds;
	char how[128];
	int id, max;
	char *p;

	TRIED("shmget(%#x) + shmat: read and overwrite the witness's 0600 segment", (unsigned)key);
	id = shmget(key, 0, 0);
	if (id >= 0 && (p = shmat(id, NULL, 0)) != (void *)-1) {
		snprintf(how, sizeof(how), "read \"%.30s\", overwritten", p);
		memcpy(p, "overwritten-by-the-sandbox", 27);
		shmdt(p);
		outcome("shm by key", true, 0, how);
	} else {
		outcome("shm by key", false, errno, NULL);
	}
	/* Without the key: every id the kernel lists (what ipcs does). */
	TRIED("shmctl(SHM_INFO) + SHM_STAT of every index: find it by its key");
	max = shmctl(0, SHM_INFO, (struct shmid_ds *)&si);
	for (int i = 0; max >= 0 && i <= max; i++) {
		id = shmctl(i, SHM_STAT, &ds);
		if (id >= 0 && ds.shm_perm.__key == key) {
			outcome("shm by SHM_STAT", true, 0, "listed");
			return;
		}
	}
	outcome("shm by SHM_STAT", false, ENOENT, NULL);
}

static void attack_sem(key_t key)
{
	struct sembuf down = { 0, -1, IPC_NOWAIT };
	int id;

	TRIED("semget(%#x) + semop(-1): take the witness's semaphore", (unsigned)key);
	id = semget(key, 0, 0);
	if (id >= 0 && semop(id, &down, 1) == 0)
		outcome("sem by key", true, 0, "decremented to 0: the witness now blocks");
	else
		outcome("sem by key", false, errno, NULL);
}

static void attack_msg(key_t key)
{
	struct msgbuf_ m;
	char how[128];
	int id;

	TRIED("msgget(%#x) + msgrcv: take the witness's message", (unsigned)key);
	id = msgget(key, 0);
	if (id >= 0 && msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT) >= 0) {
		snprintf(how, sizeof(how), "received \"%.30s\"", m.text);
		outcome("msg by key", true, 0, how);
	} else {
		outcome("msg by key", false, errno, NULL);
	}
}

/* /proc/sysvipc lists every object of the reader's IPC namespace. */
static void attack_sysvipc(key_t key)
{
	static const char *const files[] = { "shm", "sem", "msg" };

	for (int i = 0; i < 3; i++) {
		char path[64], line[512];
		bool seen = false;
		FILE *f;
		int k;

		snprintf(path, sizeof(path), "/proc/sysvipc/%s", files[i]);
		TRIED("read %s: the witness's key listed", path);
		f = fopen(path, "re");
		if (!f) {
			outcome(path, false, errno, NULL);
			continue;
		}
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%d", &k) == 1 && k == key + i)
				seen = true;
		fclose(f);
		outcome(path, seen, ENOENT, "listed");
	}
}

static void attack_posix(const char *name, bool has_mq, const char *mqdir)
{
	char path[128], buf[128], how[160];
	sem_t *s;
	mqd_t q;
	int fd;

	if (!has_mq) {
		RESULT("mq: this kernel has no POSIX message queues");
		goto shm;
	}
	TRIED("mq_open(%s) + mq_receive: take the witness's message", name);
	q = mq_open(name, O_RDWR | O_NONBLOCK);
	if (q != (mqd_t)-1 && mq_receive(q, buf, sizeof(buf), NULL) >= 0) {
		snprintf(how, sizeof(how), "received \"%.30s\"", buf);
		outcome("mq by name", true, 0, how);
	} else {
		outcome("mq by name", false, errno, NULL);
	}
	snprintf(path, sizeof(path), "%s%s", mqdir, name);
	TRIED("open %s (the mqueue file system, where mounted)", path);
	fd = open(path, O_RDWR);
	if (fd >= 0)
		close(fd);
	if (fd < 0 && errno == ENOENT && access(mqdir, F_OK) < 0)
		RESULT("%s: no %s here", path, mqdir);
	else
		outcome("mq by /dev/mqueue", fd >= 0, errno, "opened read-write");
shm:
	TRIED("shm_open(%s) + read: the witness's POSIX shared memory", name);
	fd = shm_open(name, O_RDWR, 0);
	if (fd >= 0 && read(fd, buf, sizeof(buf)) > 0) {
		snprintf(how, sizeof(how), "read \"%.30s\"", buf);
		outcome("shm_open by name", true, 0, how);
	} else {
		outcome("shm_open by name", false, errno, NULL);
	}
	if (fd >= 0)
		close(fd);
	TRIED("sem_open(%s) + sem_trywait: take the witness's named semaphore", name);
	s = sem_open(name, 0);
	if (s != SEM_FAILED && sem_trywait(s) == 0)
		outcome("sem_open by name", true, 0, "decremented to 0");
	else
		outcome("sem_open by name", false, errno, NULL);
}

static int attack(const char *dir, const char *mqdir)
{
	struct info in;

	if (read_info(dir, &in) < 0)
		return adv_verdict(ADV_CANNOT, "no witness info");
	attack_shm(in.key);
	attack_sem(in.key + 1);
	attack_msg(in.key + 2);
	attack_sysvipc(in.key);
	attack_posix(in.name, in.has_mq, mqdir);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "an IPC object outside the session was reached");
	return adv_verdict(ADV_CONTAINED, "no IPC object outside the session reached");
}

/* From outside: every object as the witness left it. */
static int check(const char *dir)
{
	struct info in;
	struct mq_attr qa;
	char buf[128] = "";
	int id, bad = 0, fd;
	sem_t *s;
	mqd_t q;
	char *p;

	if (read_info(dir, &in) < 0)
		return 2;
	id = shmget(in.key, 0, 0);
	p = id >= 0 ? shmat(id, NULL, SHM_RDONLY) : (void *)-1;
	if (p == (void *)-1 || strcmp(p, SECRET)) {
		printf("check: shm: %s\n", p == (void *)-1 ? "gone" : p);
		bad++;
	}
	id = semget(in.key + 1, 0, 0);
	if (id < 0 || semctl(id, 0, GETVAL) != 1) {
		printf("check: sem: value %d\n", id < 0 ? -1 : semctl(id, 0, GETVAL));
		bad++;
	}
	id = msgget(in.key + 2, 0);
	{
		struct msqid_ds ds;

		if (id < 0 || msgctl(id, IPC_STAT, &ds) < 0 || ds.msg_qnum != 1) {
			printf("check: msg: not 1 message\n");
			bad++;
		}
	}
	q = in.has_mq ? mq_open(in.name, O_RDONLY) : 0;
	if (in.has_mq && (q == (mqd_t)-1 || mq_getattr(q, &qa) < 0 || qa.mq_curmsgs != 1)) {
		printf("check: mq: not 1 message\n");
		bad++;
	}
	fd = shm_open(in.name, O_RDONLY, 0);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0 || strcmp(buf, SECRET)) {
		printf("check: shm_open: \"%s\"\n", buf);
		bad++;
	}
	s = sem_open(in.name, 0);
	{
		int v = -1;

		if (s == SEM_FAILED || sem_getvalue(s, &v) < 0 || v != 1) {
			printf("check: sem_open: value %d\n", v);
			bad++;
		}
	}
	printf("check: %s\n", bad ? "the witness's objects were changed" : "the witness's objects are intact");
	return bad ? 1 : 0;
}

static int remove_all(const char *dir)
{
	struct info in;

	if (read_info(dir, &in) < 0)
		return 2;
	shmctl(shmget(in.key, 0, 0), IPC_RMID, NULL);
	semctl(semget(in.key + 1, 0, 0), 0, IPC_RMID);
	msgctl(msgget(in.key + 2, 0), IPC_RMID, NULL);
	mq_unlink(in.name);
	shm_unlink(in.name);
	sem_unlink(in.name);
	return 0;
}

/* Control: the program's own objects, shared with a child of its own. */
static int own(void)
{
	struct mq_attr qa = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	struct sembuf up = { 0, 1, 0 }, down = { 0, -1, 0 };
	struct msgbuf_ m = { 1, "own" };
	char name[64], buf[128];
	int shm, sem, msg, fd, st, fails = 0;
	bool has_mq;
	sem_t *ps;
	char *p, *ps_mem;
	mqd_t q;
	pid_t c;

	snprintf(name, sizeof(name), "/sysward-own-%d", (int)getpid());
	shm = shmget(IPC_PRIVATE, 4096, 0600);
	sem = semget(IPC_PRIVATE, 1, 0600);
	msg = msgget(IPC_PRIVATE, 0600);
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &qa);
	has_mq = q != (mqd_t)-1 || errno != ENOSYS;
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	ps = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	if (shm < 0 || sem < 0 || msg < 0 || (has_mq && q == (mqd_t)-1) || fd < 0 ||
	    ps == SEM_FAILED || ftruncate(fd, 4096) < 0) {
		RESULT("own objects: cannot create: %s", strerror(errno));
		return adv_verdict(ADV_CANNOT, "the program's own IPC objects cannot be made");
	}
	p = shmat(shm, NULL, 0);
	ps_mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	c = fork();
	if (c == 0) {
		/* The child writes each; the parent reads each. */
		strcpy(p, "own-shm");
		strcpy(ps_mem, "own-posix-shm");
		semop(sem, &up, 1);
		msgsnd(msg, &m, sizeof(m.text), 0);
		if (has_mq)
			mq_send(q, "own-mq", 7, 0);
		sem_post(ps);
		_exit(0);
	}
	waitpid(c, &st, 0);
	TRIED("its own SysV shm, sem, msg, POSIX mq, shm_open and sem_open, between two of its processes");
	if (strcmp(p, "own-shm"))
		fails++, RESULT("own shm: \"%s\"", p);
	if (semop(sem, &down, 1) < 0)
		fails++, RESULT("own sem: %s", strerror(errno));
	if (msgrcv(msg, &m, sizeof(m.text), 0, IPC_NOWAIT) < 0)
		fails++, RESULT("own msg: %s", strerror(errno));
	if (has_mq && (mq_receive(q, buf, sizeof(buf), NULL) < 0 || strcmp(buf, "own-mq")))
		fails++, RESULT("own mq: %s", strerror(errno));
	if (strcmp(ps_mem, "own-posix-shm"))
		fails++, RESULT("own shm_open: \"%s\"", ps_mem);
	if (sem_trywait(ps) < 0)
		fails++, RESULT("own sem_open: %s", strerror(errno));
	shmctl(shm, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	msgctl(msg, IPC_RMID, NULL);
	mq_unlink(name);
	shm_unlink(name);
	sem_unlink(name);
	if (fails)
		return adv_verdict(ADV_ESCAPED, "the program's own IPC does not work");
	RESULT("own objects: every kind works between its processes");
	printf("control: own ipc works\n");
	return adv_verdict(ADV_CONTAINED, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 4 && !strcmp(argv[1], "witness"))
		return witness(argv[2], argv[3]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "attack"))
		return attack(argv[2], argc == 4 ? argv[3] : "/dev/mqueue");
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "remove"))
		return remove_all(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "own"))
		return own();
	fprintf(stderr, "usage: adv_nsbox_ipc witness DIR TAG | attack DIR [MQDIR] | check DIR | remove DIR | own\n");
	return 2;
}
