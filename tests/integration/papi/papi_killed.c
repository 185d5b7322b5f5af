/* One process of the killed-holders test (tests/integration/test_papi_killed.sh):
 * a PAPI program on a shared simulated machine (PAPI_INTEL_UNCORE_SIM, set
 * by the script) that stops itself (SIGSTOP) at a chosen point, for the
 * script to kill it there with SIGKILL: a point chosen by a seed is the
 * same in every run, which a timed kill would not be.
 *
 *   papi_killed PHASE EVENT...
 *
 * PHASE: 0 after PAPI_library_init, 1 after the events are added, 2 after
 * PAPI_start, 3 + k after k further reads (k >= 1), or "stop": start, read,
 * PAPI_stop, print "stopped", stop itself, and once continued clean up,
 * shut PAPI down and print "ended".  An event that cannot be
 * added is skipped (said on stdout).  Exit status 1: a PAPI step failed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"

#define MAXEV 16

static void point(int here, int phase)
{
	if (here == phase) {
		printf("at %d\n", here);
		fflush(stdout);
		raise(SIGSTOP);
	}
}

int main(int argc, char **argv)
{
	long long v[MAXEV];
	int es = PAPI_NULL, rc, n = 0;
	if (argc < 3) {
		fprintf(stderr, "usage: papi_killed PHASE|stop EVENT...\n");
		return 2;
	}
	int stop = strcmp(argv[1], "stop") == 0, phase = stop ? -1 : atoi(argv[1]);
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		printf("PAPI_library_init: %s\n", PAPI_strerror(rc));
		return 1;
	}
	point(0, phase);
	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK) {
		printf("PAPI_create_eventset: %s\n", PAPI_strerror(rc));
		return 1;
	}
	for (int i = 2; i < argc && n < MAXEV; i++) {
		if ((rc = PAPI_add_named_event(es, argv[i])) != PAPI_OK)
			printf("skipped %s: %s\n", argv[i], PAPI_strerror(rc));
		else
			n++;
	}
	point(1, phase);
	if ((rc = PAPI_start(es)) != PAPI_OK) {
		printf("PAPI_start: %s\n", PAPI_strerror(rc));
		return 1;
	}
	printf("started %d events\n", n);
	fflush(stdout);
	point(2, phase);
	for (int k = 1; !stop && k < 1000; k++) {
		if ((rc = PAPI_read(es, v)) != PAPI_OK) {
			printf("PAPI_read: %s\n", PAPI_strerror(rc));
			return 1;
		}
		point(2 + k, phase);
	}
	if ((rc = PAPI_read(es, v)) != PAPI_OK || (rc = PAPI_stop(es, v)) != PAPI_OK) {
		printf("PAPI_read/PAPI_stop: %s\n", PAPI_strerror(rc));
		return 1;
	}
	printf("stopped\n");
	fflush(stdout);
	raise(SIGSTOP);
	/* Continued (SIGCONT): the end of a program that cleans up. */
	if ((rc = PAPI_cleanup_eventset(es)) != PAPI_OK || (rc = PAPI_destroy_eventset(&es)) != PAPI_OK) {
		printf("PAPI_cleanup_eventset/PAPI_destroy_eventset: %s\n", PAPI_strerror(rc));
		return 1;
	}
	PAPI_shutdown();
	printf("ended\n");
	return 0;
}
