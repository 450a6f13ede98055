/* A static program for the run-vm tests: prints one line on stdout and one
 * on stderr, then exits with the status given as its first argument. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 0;

	printf("exit_status: stdout, exiting with %d\n", status);
	fprintf(stderr, "exit_status: stderr\n");
	return status;
}
