/* One side of the two-process socket ownership test
 * (tests/integration/test_papi_lock.sh): a small PAPI program on a shared
 * simulated machine (PAPI_INTEL_UNCORE_SIM, set by the script).
 *
 *   papi_lock hold EVENT     start counting EVENT, print "started", wait to be killed
 *   papi_lock try EVENT      start EVENT: print "started" (exit 0) or
 *                            "refused: <PAPI_strerror>" (exit 3)
 *   papi_lock retry EVENT FILE
 *                            try; when refused, wait for FILE to exist and
 *                            start the same event set again (exit 0 if it
 *                            then starts, 3 if not)
 * Exit status 1: a PAPI step before the start failed (printed). */
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

/* Start; on success read and stop unless `keep`.  0 started, 3 refused. */
static int start(int es, int keep)
{
	long long v = 0;
	int rc = PAPI_start(es);
	if (rc != PAPI_OK) {
		printf("refused: %s\n", PAPI_strerror(rc));
		fflush(stdout);
		return 3;
	}
	printf("started\n");
	fflush(stdout);
	if (!keep && ((rc = PAPI_read(es, &v)) != PAPI_OK || (rc = PAPI_stop(es, &v)) != PAPI_OK)) {
		printf("read/stop: %s\n", PAPI_strerror(rc));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int es;
	if (argc < 3 || (strcmp(argv[1], "retry") == 0 && argc < 4)) {
		fprintf(stderr, "usage: papi_lock hold|try EVENT | retry EVENT FILE\n");
		return 2;
	}
	if (setup(argv[2], &es) != 0)
		return 1;
	if (strcmp(argv[1], "hold") == 0) {
		int rc = start(es, 1);
		if (rc != 0)
			return rc;
		for (;;)
			pause();
	}
	int rc = start(es, 0);
	if (rc != 3 || strcmp(argv[1], "retry") != 0)
		return rc;
	/* Refused: wait (at most 20 s) for the script to remove the owner. */
	for (int i = 0; i < 2000 && access(argv[3], F_OK) != 0; i++)
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	return start(es, 0);
}
