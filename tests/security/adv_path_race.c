// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 6: the path race (time-of-check to time-of-use).  The supervisor
 * reads a path argument from the tracee's memory, decides, and resumes the
 * syscall; the kernel then reads the path again.  A second thread that
 * flips the buffer between the two reads gets a denied file opened.
 *
 *   adv_path_race DIR TRIES
 *
 * DIR holds "file-A" and "file-D"; the policy denies openat of DIR/file-D.
 * One thread flips the last byte of the shared buffer between 'A' and 'D'
 * as fast as it can; the main thread calls openat(buf) TRIES times and
 * checks, with fstat, which file each success opened.  Any open of
 * DIR/file-D is an escape.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "adv.h"

static char buf[512];
static size_t flip_at;
static atomic_int stop;

static void *flipper(void *arg)
{
	volatile char *p = &buf[flip_at];

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		*p = 'D';	/* denied */
		*p = 'A';	/* allowed */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char allowed[512], denied[512];
	struct stat st_deny, st;
	long tries, opened_allowed = 0, opened_denied = 0, refused = 0,
	     other = 0;
	pthread_t t;
	int fd, e;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DIR TRIES\n", argv[0]);
		return ADV_CANNOT;
	}
	tries = atol(argv[2]);
	snprintf(allowed, sizeof(allowed), "%s/file-A", argv[1]);
	snprintf(denied, sizeof(denied), "%s/file-D", argv[1]);
	if (stat(denied, &st_deny) < 0)
		return adv_verdict(ADV_CANNOT, "DIR/file-D missing");

	/* Without a race the policy must hold, or the test proves nothing. */
	TRIED("openat(\"%s\") without a race", denied);
	fd = openat(AT_FDCWD, denied, O_RDONLY | O_CLOEXEC);
	e = errno;
	RESULT("openat = %s", RET(fd, e));
	if (fd >= 0)
		return adv_verdict(ADV_CANNOT, "the policy does not deny "
				   "DIR/file-D at all");
	TRIED("openat(\"%s\") without a race", allowed);
	fd = openat(AT_FDCWD, allowed, O_RDONLY | O_CLOEXEC);
	e = errno;
	RESULT("openat = %s", RET(fd, e));
	if (fd < 0)
		return adv_verdict(ADV_CANNOT, "DIR/file-A cannot be opened");
	close(fd);

	strcpy(buf, allowed);
	flip_at = strlen(buf) - 1;
	pthread_create(&t, NULL, flipper, NULL);
	TRIED("%ld x openat(buf) while a thread flips buf[%zu] between 'A' "
	      "(allowed) and 'D' (denied)", tries, flip_at);
	for (long i = 0; i < tries; i++) {
		fd = syscall(SYS_openat, AT_FDCWD, buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EACCES)
				refused++;	/* the policy's answer */
			else
				other++;
			continue;
		}
		if (fstat(fd, &st) == 0 && st.st_ino == st_deny.st_ino &&
		    st.st_dev == st_deny.st_dev)
			opened_denied++;
		else
			opened_allowed++;
		close(fd);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	RESULT("tries %ld, opened allow %ld, refused %ld, other errors %ld, "
	       "OPENED file-D %ld", tries, opened_allowed, refused, other,
	       opened_denied);
	if (opened_denied)
		return adv_verdict(ADV_ESCAPED, "the denied file was opened "
				   "through the race");
	if (opened_allowed == 0 || refused == 0)
		return adv_verdict(ADV_CANNOT, "the race never alternated");
	return adv_verdict(ADV_CONTAINED, "the denied file was never opened");
}
