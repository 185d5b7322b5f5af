/* A client of uncored whose plain PAPI_reads the test watches
 * (tests/integration/test_uncored_read.sh):
 *
 *   papi_snapshot_reads DIR N EVENT
 *
 * PAPI_start; writes "BEGIN" to stdout (one write), makes N PAPI_reads,
 * writes "END" (strace counts the system calls between the two); creates
 * DIR/started; then reads every 10 ms until the value moves from the
 * start's (at most 20 s: a guard, not a measurement), prints "moved: D"
 * (D: the value less the start's); waits for DIR/stop, PAPI_stop, prints
 * "stop: D".  Exit status 1: a PAPI call failed (printed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

static void touch(const char *dir, const char *what)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, what);
	FILE *f = fopen(p, "w");
	if (f)
		fclose(f);
}

static void nap(void)
{
	nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: papi_snapshot_reads DIR N EVENT\n");
		return 2;
	}
	const char *dir = argv[1];
	long n = atol(argv[2]);
	int es = PAPI_NULL, rc;
	long long v0 = 0, v = 0;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) != PAPI_OK ||
	    (rc = PAPI_add_named_event(es, argv[3])) != PAPI_OK || (rc = PAPI_start(es)) != PAPI_OK ||
	    (rc = PAPI_read(es, &v0)) != PAPI_OK) {
		printf("setup failed\n");
		return 1;
	}
	static const char begin[] = "BEGIN\n", end[] = "END\n";
	if (write(1, begin, strlen(begin)) < 0)
		return 1;
	for (long i = 0; i < n; i++)
		if ((rc = PAPI_read(es, &v)) != PAPI_OK)
			break;
	if (write(1, end, strlen(end)) < 0 || rc != PAPI_OK) {
		printf("PAPI_read: %s\n", PAPI_strerror(rc));
		return 1;
	}
	touch(dir, "started");
	for (int i = 0; i < 2000 && v == v0; i++) {
		nap();
		if ((rc = PAPI_read(es, &v)) != PAPI_OK) {
			printf("PAPI_read: %s\n", PAPI_strerror(rc));
			return 1;
		}
	}
	printf("moved: %lld\n", v - v0);
	fflush(stdout);
	char p[512];
	snprintf(p, sizeof(p), "%s/stop", dir);
	for (int i = 0; i < 2000 && access(p, F_OK) != 0; i++)
		nap();
	if ((rc = PAPI_stop(es, &v)) != PAPI_OK) {
		printf("PAPI_stop: %s\n", PAPI_strerror(rc));
		return 1;
	}
	printf("stop: %lld\n", v - v0);
	return 0;
}
