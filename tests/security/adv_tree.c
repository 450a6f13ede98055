// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Route 4, from outside: a confined process tree (main process, two forked
 * children, one grandchild, one extra thread) that just sleeps.  It prints
 * "pid N" for every process and then "ready"; the driver SIGKILLs sysward
 * and checks that every listed pid is gone within a second.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "adv.h"

static void *sleeper(void *arg)
{
	sleep(60);
	return NULL;
}

int main(void)
{
	pthread_t t;

	FACT("pid %d", getpid());
	pthread_create(&t, NULL, sleeper, NULL);
	for (int i = 0; i < 2; i++) {
		pid_t c = fork();

		if (c == 0) {
			FACT("pid %d", getpid());
			if (i == 1 && fork() == 0) {
				FACT("pid %d", getpid());
				sleep(60);
				_exit(0);
			}
			sleep(60);
			_exit(0);
		}
	}
	usleep(200 * 1000);
	dprintf(STDOUT_FILENO, "ready\n");
	sleep(60);
	while (wait(NULL) > 0)
		;
	return 0;
}
