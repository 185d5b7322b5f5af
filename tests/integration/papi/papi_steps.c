/* A PAPI program that counts in rounds the test script paces with files
 * (tests/integration/test_uncored.sh: a service restarted between rounds):
 *
 *   papi_steps DIR ROUNDS EVENT...
 *
 * Round r: waits for DIR/start.r, PAPI_start, creates DIR/started.r; waits
 * for DIR/stop.r, PAPI_stop, prints "round r: V1 V2 ..." (or "round r:
 * PAPI_start|PAPI_stop: <error>"), creates DIR/done.r.  A round whose stop
 * failed stops again (PAPI keeps the set running after a component's failed
 * stop) and carries on: the next round's start is what a program that
 * carries on would do.
 * Exit status 1: the setup failed (printed). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

#define MAXEV 8

static void wait_for(const char *dir, const char *what, int r)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s.%d", dir, what, r);
	for (int i = 0; i < 60000 && access(p, F_OK) != 0; i++)
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
}

static void touch(const char *dir, const char *what, int r)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s.%d", dir, what, r);
	FILE *f = fopen(p, "w");
	if (f)
		fclose(f);
}

static int make_set(char **ev, int n, int *es)
{
	int rc;
	*es = PAPI_NULL;
	if ((rc = PAPI_create_eventset(es)) != PAPI_OK) {
		printf("PAPI_create_eventset: %s\n", PAPI_strerror(rc));
		return -1;
	}
	for (int i = 0; i < n; i++)
		if ((rc = PAPI_add_named_event(*es, ev[i])) != PAPI_OK) {
			printf("%s: %s\n", ev[i], PAPI_strerror(rc));
			return -1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc - 3 > MAXEV) {
		fprintf(stderr, "usage: papi_steps DIR ROUNDS EVENT...\n");
		return 2;
	}
	const char *dir = argv[1];
	int rounds = atoi(argv[2]), n = argc - 3, es, rc;
	long long v[MAXEV];
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		printf("PAPI_library_init failed\n");
		return 1;
	}
	if (make_set(argv + 3, n, &es) < 0)
		return 1;
	for (int r = 1; r <= rounds; r++) {
		wait_for(dir, "start", r);
		rc = PAPI_start(es);
		touch(dir, "started", r);
		if (rc != PAPI_OK) {
			printf("round %d: PAPI_start: %s\n", r, PAPI_strerror(rc));
			fflush(stdout);
			touch(dir, "done", r);
			continue;
		}
		wait_for(dir, "stop", r);
		rc = PAPI_stop(es, v);
		if (rc != PAPI_OK) {
			/* PAPI keeps a set whose component's stop failed
			 * running; a second PAPI_stop ends it. */
			printf("round %d: PAPI_stop: %s; again: %s\n", r, PAPI_strerror(rc),
			       PAPI_strerror(PAPI_stop(es, v)));
		} else {
			printf("round %d:", r);
			for (int i = 0; i < n; i++)
				printf(" %lld", v[i]);
			printf("\n");
		}
		fflush(stdout);
		touch(dir, "done", r);
	}
	PAPI_shutdown();
	return 0;
}
