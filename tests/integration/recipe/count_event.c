/* A PAPI program as a user writes it, built by the README's recipe
 * (`cc count_event.c $(pkg-config --cflags --libs papi)`, test_one_papi.sh):
 * counts the event named on the command line for a tenth of a second and
 * prints "EVENT COUNT".  Exit 0 when the count is above zero, 1 otherwise. */
#include <papi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
	int set = PAPI_NULL, rc;
	long long count = 0;
	struct timespec tenth = {0, 100000000};
	if (argc != 2) {
		fprintf(stderr, "usage: count_event EVENT\n");
		return 2;
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		fprintf(stderr, "PAPI_library_init failed\n");
		return 1;
	}
	if ((rc = PAPI_create_eventset(&set)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(set, argv[1])) != PAPI_OK || (rc = PAPI_start(set)) != PAPI_OK) {
		fprintf(stderr, "%s: %s (%d)\n", argv[1], PAPI_strerror(rc), rc);
		return 1;
	}
	nanosleep(&tenth, NULL);
	if ((rc = PAPI_stop(set, &count)) != PAPI_OK) {
		fprintf(stderr, "PAPI_stop: %s\n", PAPI_strerror(rc));
		return 1;
	}
	printf("%s %lld\n", argv[1], count);
	return count > 0 ? 0 : 1;
}
