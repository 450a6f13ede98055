// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 20 (docs/security.md): System V IPC objects and POSIX message
 * queues of the uid outside the session.  Their permissions are mode bits
 * of the uid's: a segment of mode 0600 made by another process of the
 * uid is the program's to attach, read and overwrite.
 *
 *   adv_ipc witness DIR   outside the sandbox: a shared memory segment
 *       (0600, a secret in it), a semaphore (value 1), a message queue
 *       (one message), a POSIX message queue (one message); their keys,
 *       ids and name in DIR/ipc.info.  On SIGUSR1 it writes DIR/ipc.check:
 *       "intact", or what was touched.
 *   adv_ipc attack DIR    under sysward: reach them by key, by id and by
 *       name (get, attach, read, write, operate, remove).
 *   adv_ipc control DIR   under sysward: the same on objects of its own
 *       (also a child's, a get of an existing key, IPC_EXCL, removal),
 *       and the information calls (IPC_INFO, SHM_STAT) that name no
 *       object; all must work as unconfined.
 *   adv_ipc bench N       N semop() calls on a semaphore of its own: ns
 *       per call.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adv.h"

#define SECRET "witness-shm-secret"

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

struct msg {
	long type;
	char text[64];
};

struct info {
	long pid;
	key_t shmkey, semkey, msgkey;
	int shmid, semid, msgid;
	char mq[64];
};

static int read_info(const char *dir, struct info *i)
{
	char p[4200];
	FILE *f;
	int n;

	snprintf(p, sizeof(p), "%s/ipc.info", dir);
	f = fopen(p, "re");
	if (!f)
		return -1;
	n = fscanf(f, "%ld %x %d %x %d %x %d %63s", &i->pid, (unsigned *)&i->shmkey,
		   &i->shmid, (unsigned *)&i->semkey, &i->semid,
		   (unsigned *)&i->msgkey, &i->msgid, i->mq);
	fclose(f);
	return n == 8 ? 0 : -1;
}

/* ---- witness ------------------------------------------------------------ */

static volatile sig_atomic_t check_due;
static void on_usr1(int sig) { (void)sig; check_due = 1; }

static int witness(const char *dir)
{
	struct info i = { .pid = getpid() };
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	struct msg m = { .type = 1, .text = "witness-msg" };
	char *shm, p[4200], buf[64];
	mqd_t mq;
	FILE *f;

	/* Keys from its pid's low bits, another set while one is taken:
	 * a witness killed before it removed its objects leaves them, and
	 * a later pid with the same low bits would find them (pids pass
	 * 65535 in a container). */
	for (int k = 0; k < 64; k++) {
		i.shmkey = (key_t)(0x53570000 | ((getpid() + k * 4099) & 0xffff));
		i.semkey = i.shmkey + 0x10000000;
		i.msgkey = i.shmkey + 0x20000000;
		i.shmid = shmget(i.shmkey, 4096, IPC_CREAT | IPC_EXCL | 0600);
		i.semid = semget(i.semkey, 1, IPC_CREAT | IPC_EXCL | 0600);
		i.msgid = msgget(i.msgkey, IPC_CREAT | IPC_EXCL | 0600);
		if (i.shmid >= 0 && i.semid >= 0 && i.msgid >= 0)
			break;
		if (i.shmid >= 0)
			shmctl(i.shmid, IPC_RMID, NULL);
		if (i.semid >= 0)
			semctl(i.semid, 0, IPC_RMID);
		if (i.msgid >= 0)
			msgctl(i.msgid, IPC_RMID, NULL);
		i.shmid = i.semid = i.msgid = -1;
		if (errno != EEXIST)
			break;
	}
	snprintf(i.mq, sizeof(i.mq), "/sysward-witness-%ld", i.pid);
	mq = mq_open(i.mq, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	if (i.shmid < 0 || i.semid < 0 || i.msgid < 0 || mq == (mqd_t)-1) {
		fprintf(stderr, "witness: cannot make its objects: %s\n", strerror(errno));
		return ADV_CANNOT;
	}
	shm = shmat(i.shmid, NULL, 0);
	strcpy(shm, SECRET);
	semctl(i.semid, 0, SETVAL, (union semun){ .val = 1 });
	msgsnd(i.msgid, &m, sizeof(m.text), 0);
	mq_send(mq, "witness-mq", 11, 0);
	signal(SIGUSR1, on_usr1);
	snprintf(p, sizeof(p), "%s/ipc.info.tmp", dir);
	f = fopen(p, "we");
	if (!f) {
		fprintf(stderr, "witness: %s: %s\n", p, strerror(errno));
		return ADV_CANNOT;
	}
	fprintf(f, "%ld %x %d %x %d %x %d %s\n", i.pid, (unsigned)i.shmkey, i.shmid,
		(unsigned)i.semkey, i.semid, (unsigned)i.msgkey, i.msgid, i.mq);
	fclose(f);
	snprintf(buf, sizeof(buf), "%s/ipc.info", dir);
	rename(p, buf);
	for (int k = 0; k < 1200 && !check_due; k++)
		usleep(100000);
	{
		struct shmid_ds sd;
		struct msqid_ds md;
		struct mq_attr ma;
		char out[512] = "";
		int n = 0;

		if (strcmp(shm, SECRET) || shmctl(i.shmid, IPC_STAT, &sd) < 0 ||
		    (sd.shm_perm.mode & 0777) != 0600)
			n += snprintf(out + n, sizeof(out) - n, " shm");
		if (semctl(i.semid, 0, GETVAL) != 1)
			n += snprintf(out + n, sizeof(out) - n, " sem");
		if (msgctl(i.msgid, IPC_STAT, &md) < 0 || md.msg_qnum != 1)
			n += snprintf(out + n, sizeof(out) - n, " msg");
		if (mq_getattr(mq, &ma) < 0 || ma.mq_curmsgs != 1)
			n += snprintf(out + n, sizeof(out) - n, " mq");
		mq_close(mq);
		if ((mq = mq_open(i.mq, O_RDONLY)) == (mqd_t)-1)
			n += snprintf(out + n, sizeof(out) - n, " mq-name");
		snprintf(p, sizeof(p), "%s/ipc.check", dir);
		f = fopen(p, "we");
		if (f) {
			fprintf(f, "%s\n", n ? out + 1 : "intact");
			fclose(f);
		}
	}
	shmdt(shm);
	shmctl(i.shmid, IPC_RMID, NULL);
	semctl(i.semid, 0, IPC_RMID);
	msgctl(i.msgid, IPC_RMID, NULL);
	mq_unlink(i.mq);
	return 0;
}

/* ---- attack --------------------------------------------------------------- */

static int reached;

static void verdict_of(const char *what, long r, int e)
{
	RESULT("%s = %s", what, RET(r, e));
	reached += r >= 0;
}

#define TRY(what, call) do { long r_ = (long)(call); verdict_of((what), r_, errno); } while (0)

static int attack(const char *dir)
{
	struct info i;
	struct msg m = { 0 };
	struct sembuf op = { 0, -1, IPC_NOWAIT };
	struct shmid_ds sd;
	char buf[64], *p;
	mqd_t mq;
	long r;

	if (read_info(dir, &i) < 0)
		return adv_verdict(ADV_CANNOT, "no witness (ipc.info)");
	FACT("uid %d; the objects of pid %ld, outside this sandbox: shm key %#x id %d, sem %#x/%d, msg %#x/%d, mq %s",
	     (int)getuid(), i.pid, (unsigned)i.shmkey, i.shmid, (unsigned)i.semkey, i.semid,
	     (unsigned)i.msgkey, i.msgid, i.mq);
	TRIED("System V IPC by key (get), by id (attach, operate, control) and POSIX queues by name");
	r = shmget(i.shmkey, 0, 0);
	verdict_of("shmget(its key)", r, errno);
	r = shmget(i.shmkey, 4096, IPC_CREAT | 0600);
	verdict_of("shmget(its key, IPC_CREAT)", r, errno);
	p = shmat(i.shmid, NULL, 0);
	r = p == (void *)-1 ? -1 : 0;
	verdict_of("shmat(its id)", r, errno);
	if (r == 0) {
		FACT("read from its segment: \"%.20s\"", p);
		strcpy(p, "overwritten");
		shmdt(p);
	}
	TRY("shmctl(its id, IPC_STAT)", shmctl(i.shmid, IPC_STAT, &sd));
	TRY("semget(its key)", semget(i.semkey, 0, 0));
	TRY("semop(its id, -1)", semop(i.semid, &op, 1));
	TRY("semctl(its id, SETVAL 0)", semctl(i.semid, 0, SETVAL, (union semun){ .val = 0 }));
	TRY("msgget(its key)", msgget(i.msgkey, 0));
	r = msgrcv(i.msgid, &m, sizeof(m.text), 0, IPC_NOWAIT);
	verdict_of("msgrcv(its id)", r, errno);
	m.type = 1;
	TRY("msgsnd(its id)", msgsnd(i.msgid, &m, 1, IPC_NOWAIT));
	mq = mq_open(i.mq, O_RDWR);
	TRY("mq_open(its name, O_RDWR)", mq == (mqd_t)-1 ? -1 : 0);
	if (mq != (mqd_t)-1) {
		r = mq_receive(mq, buf, sizeof(buf), NULL);
		verdict_of("mq_receive", r, errno);
		mq_close(mq);
	}
	mq = mq_open(i.mq, O_RDONLY);
	TRY("mq_open(its name, O_RDONLY)", mq == (mqd_t)-1 ? -1 : 0);
	if (mq != (mqd_t)-1)
		mq_close(mq);
	/* Removals last: the witness checks the rest first. */
	TRY("mq_unlink(its name)", mq_unlink(i.mq));
	TRY("msgctl(its id, IPC_RMID)", msgctl(i.msgid, IPC_RMID, NULL));
	FACT("%d calls reached the objects of a process outside the sandbox", reached);
	if (reached)
		return adv_verdict(ADV_ESCAPED, "an IPC object outside the sandbox was reached");
	return adv_verdict(ADV_CONTAINED, "every IPC object outside refused");
}

/* ---- control --------------------------------------------------------------- */

static int control(void)
{
	key_t key = (key_t)(0x53560000 | (getpid() & 0xffff));
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	struct sembuf up = { 0, 1, 0 }, down = { 0, -1, 0 };
	struct msg m = { .type = 7, .text = "own" };
	union {			/* IPC_INFO fills a struct shminfo */
		struct shm_info i;
		struct shminfo s;
		struct shmid_ds d;
	} si;
	struct shmid_ds sd;
	char name[64], buf[64], *p;
	int id, id2, sem, msq, status;
	pid_t c;
	mqd_t mq;

	id = shmget(IPC_PRIVATE, 4096, 0600);
	ADV_OK("shmget(IPC_PRIVATE)", id);
	p = shmat(id, NULL, 0);
	ADV_OK("shmat(own)", p == (void *)-1 ? -1 : 0);
	if (p != (void *)-1) {
		strcpy(p, "own");
		shmdt(p);
	}
	ADV_OK("shmctl(own, IPC_RMID)", shmctl(id, IPC_RMID, NULL));
	id = shmget(key, 4096, IPC_CREAT | 0600);
	ADV_OK("shmget(key, IPC_CREAT): made", id);
	id2 = shmget(key, 4096, IPC_CREAT | 0600);
	adv_control("shmget(key, IPC_CREAT) again: the same", id2 == id, -1, EINVAL);
	ADV_ERR("shmget(key, IPC_CREAT | IPC_EXCL) again", shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600), EEXIST);
	ADV_ERR("shmget(key, a larger size)", shmget(key, 1 << 20, 0600), EINVAL);
	/* A child of the session finds it by key and attaches. */
	c = fork();
	if (c == 0) {
		int cid = shmget(key, 0, 0);
		char *cp = cid < 0 ? (void *)-1 : shmat(cid, NULL, 0);

		_exit(cp != (void *)-1 && cid == id ? 0 : 1);
	}
	waitpid(c, &status, 0);
	adv_control("a child's shmget(key) and shmat", WIFEXITED(status) && !WEXITSTATUS(status), -1, EACCES);
	ADV_OK("shmctl(own, IPC_STAT)", shmctl(id, IPC_STAT, &sd));
	ADV_OK("shmctl(0, IPC_INFO)", shmctl(0, IPC_INFO, (struct shmid_ds *)&si));
	ADV_OK("shmctl(0, SHM_INFO)", shmctl(0, SHM_INFO, (struct shmid_ds *)&si));
	ADV_OK("shmctl(own, IPC_RMID)", shmctl(id, IPC_RMID, NULL));
	sem = semget(key, 1, IPC_CREAT | 0600);
	ADV_OK("semget(key, IPC_CREAT)", sem);
	ADV_OK("semop(own, +1)", semop(sem, &up, 1));
	ADV_OK("semop(own, -1)", semop(sem, &down, 1));
	ADV_OK("semctl(own, GETVAL)", semctl(sem, 0, GETVAL));
	ADV_OK("semctl(own, IPC_RMID)", semctl(sem, 0, IPC_RMID));
	ADV_ERR("semop(removed)", semop(sem, &up, 1), EINVAL);
	msq = msgget(IPC_PRIVATE, 0600);
	ADV_OK("msgget(IPC_PRIVATE)", msq);
	ADV_OK("msgsnd(own)", msgsnd(msq, &m, sizeof(m.text), 0));
	ADV_OK("msgrcv(own)", msgrcv(msq, &m, sizeof(m.text), 0, 0));
	ADV_OK("msgctl(own, IPC_RMID)", msgctl(msq, IPC_RMID, NULL));
	snprintf(name, sizeof(name), "/sysward-own-%d", (int)getpid());
	mq = mq_open(name, O_RDWR | O_CREAT, 0600, &attr);
	ADV_OK("mq_open(O_CREAT)", mq == (mqd_t)-1 ? -1 : 0);
	if (mq != (mqd_t)-1) {
		ADV_OK("mq_send", mq_send(mq, "own", 4, 0));
		ADV_OK("mq_receive", mq_receive(mq, buf, sizeof(buf), NULL));
		mq_close(mq);
	}
	mq = mq_open(name, O_RDWR | O_CREAT, 0600, &attr);
	ADV_OK("mq_open(O_CREAT) again: its own", mq == (mqd_t)-1 ? -1 : 0);
	if (mq != (mqd_t)-1)
		mq_close(mq);
	ADV_ERR("mq_open(O_CREAT | O_EXCL) again", mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr), EEXIST);
	ADV_OK("mq_unlink(own)", mq_unlink(name));
	ADV_ERR("mq_unlink(gone)", mq_unlink(name), ENOENT);
	return adv_control_end();
}

static int bench(long n)
{
	struct sembuf up = { 0, 1, 0 }, down = { 0, -1, 0 };
	struct timespec a, b;
	int sem = semget(IPC_PRIVATE, 1, 0600);

	if (sem < 0)
		return ADV_CANNOT;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long k = 0; k < n; k++) {
		semop(sem, &up, 1);
		semop(sem, &down, 1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	semctl(sem, 0, IPC_RMID);
	printf("%.0f ns per semop\n",
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (2.0 * n));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "witness"))
		return witness(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "attack"))
		return attack(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "control"))
		return control();
	if (argc == 3 && !strcmp(argv[1], "bench"))
		return bench(atol(argv[2]));
	fprintf(stderr, "usage: adv_ipc witness DIR | attack DIR | control | bench N\n");
	return ADV_CANNOT;
}
