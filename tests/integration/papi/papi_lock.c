/* One side of the several-processes test (tests/integration/test_papi_lock.sh):
 * a small PAPI program on a shared simulated machine whose time moves with
 * the wall clock (PAPI_INTEL_UNCORE_SIM, set by the script).  The policy
 * (README "MPI jobs and threads"): the first process counting on a socket
 * holds it; the others start fine and read 0 there.
 *
 *   papi_lock hold EVENT     start counting EVENT, print "started", wait to be killed
 *   papi_lock try EVENT      start EVENT, count 20 ms, print "value N"
 *   papi_lock retry EVENT FILE
 *                            start and count 20 ms ("value N"); then, still
 *                            running, wait for FILE to exist, wait 1.1 s and
 *                            print the count of the next 20 ms ("running N":
 *                            a holder that went away is replaced while
 *                            reading); stop, start again, "value N"
 * Exit status 1: a PAPI step failed (printed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

static int setup(const char *event, int *es)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		printf("PAPI_library_init: %s\n", PAPI_strerror(rc));
		return -1;
	}
	*es = PAPI_NULL;
	if ((rc = PAPI_create_eventset(es)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(*es, event)) != PAPI_OK) {
		printf("%s: %s\n", event, PAPI_strerror(rc));
		return -1;
	}
	return 0;
}

static void sleep_ms(long ms)
{
	nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000}, NULL);
}

static int fail(const char *what, int rc)
{
	printf("%s: %s\n", what, PAPI_strerror(rc));
	return 1;
}

/* Start, count 20 ms, print the value; stop unless `keep`. */
static int count(int es, int keep)
{
	long long v = 0;
	int rc = PAPI_start(es);
	if (rc != PAPI_OK)
		return fail("PAPI_start", rc);
	printf("started\n");
	fflush(stdout);
	sleep_ms(20);
	if ((rc = PAPI_read(es, &v)) != PAPI_OK)
		return fail("PAPI_read", rc);
	printf("value %lld\n", v);
	fflush(stdout);
	if (!keep && (rc = PAPI_stop(es, &v)) != PAPI_OK)
		return fail("PAPI_stop", rc);
	return 0;
}

int main(int argc, char **argv)
{
	int es, rc;
	long long a = 0, b = 0;
	if (argc < 3 || (strcmp(argv[1], "retry") == 0 && argc < 4)) {
		fprintf(stderr, "usage: papi_lock hold|try EVENT | retry EVENT FILE\n");
		return 2;
	}
	if (setup(argv[2], &es) != 0)
		return 1;
	if (strcmp(argv[1], "hold") == 0) {
		if ((rc = PAPI_start(es)) != PAPI_OK)
			return fail("PAPI_start", rc);
		printf("started\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (strcmp(argv[1], "retry") != 0)
		return count(es, 0);
	if ((rc = count(es, 1)) != 0)
		return rc;
	/* Wait (at most 20 s) for the script to remove the holder. */
	for (int i = 0; i < 2000 && access(argv[3], F_OK) != 0; i++)
		sleep_ms(10);
	sleep_ms(1100);
	if ((rc = PAPI_read(es, &a)) != PAPI_OK)
		return fail("PAPI_read", rc);
	sleep_ms(20);
	if ((rc = PAPI_read(es, &b)) != PAPI_OK)
		return fail("PAPI_read", rc);
	printf("running %lld\n", b - a);
	if ((rc = PAPI_stop(es, &b)) != PAPI_OK)
		return fail("PAPI_stop", rc);
	return count(es, 0);
}
