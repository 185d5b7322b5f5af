/* The component's first use, raced (tests/integration/test_first_use.sh).
 * Start-up leaves discovery to the first caller (bind/component.h,
 * uncore_component_bind); here THREADS threads make that first call at the
 * same moment, each a different kind of call: a name lookup, an
 * enumeration, an event added to its own event set, a code's description.
 *
 *   papi_first_use THREADS EVENT
 *   papi_first_use 0 -     PAPI_library_init alone (for strace)
 *
 * Checked: every call succeeds; every thread gets the same code for EVENT;
 * the number of events PAPI_library_init announced (cmp_info) is the
 * number an enumeration finds, before and after the first use; the set of
 * each adder holds EVENT.  Run as PAPI_library_init leaves it: nothing is
 * touched before the threads go.  Exit 0 when everything holds, 1
 * otherwise (each failure printed); 2 when intel_uncore is disabled here
 * (the reason printed: the script says why it skips). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "papi.h"
#pragma GCC diagnostic pop

#define MAXT 64

static pthread_barrier_t bar;
static const char *event;
static int cidx, failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void check(int ok, const char *what, int thread, int rc)
{
	pthread_mutex_lock(&out_lock);
	if (!ok) {
		printf("FAIL thread %d: %s (%s)\n", thread, what, PAPI_strerror(rc));
		failures++;
	}
	pthread_mutex_unlock(&out_lock);
}

/* The intel_uncore events an enumeration finds (umasks not counted, as
 * cmp_info.num_native_events does not count them).  PAPI ends the list
 * with PAPI_EINVAL (papi.c, PAPI_enum_cmp_event), as papi_native_avail
 * expects; the first event must be there. */
static int enumerate(int *n)
{
	int code = PAPI_NATIVE_MASK;
	*n = 0;
	int rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
	if (rc != PAPI_OK)
		return rc;
	do
		(*n)++;
	while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	return PAPI_OK;
}

struct result {
	int code; /* EVENT's code as this thread found it, or PAPI_NULL */
};

static void *first_use(void *arg)
{
	int t = (int)(long)arg, rc = PAPI_OK, code = PAPI_NULL, es = PAPI_NULL, n;
	struct result *r = malloc(sizeof(*r));
	PAPI_event_info_t info;
	if (!r)
		return NULL;
	if ((rc = PAPI_register_thread()) != PAPI_OK)
		check(0, "PAPI_register_thread", t, rc);
	if (t % 4 == 3)
		rc = PAPI_create_eventset(&es); /* before the barrier: not a first use */
	pthread_barrier_wait(&bar);
	switch (t % 4) {
	case 0: /* a name lookup */
		rc = PAPI_event_name_to_code(event, &code);
		check(rc == PAPI_OK, "PAPI_event_name_to_code", t, rc);
		break;
	case 1: /* an enumeration */
		rc = enumerate(&n);
		check(rc == PAPI_OK && n > 0, "enumerating intel_uncore's events", t, rc);
		if (rc == PAPI_OK && n != PAPI_get_component_info(cidx)->num_native_events) {
			pthread_mutex_lock(&out_lock);
			printf("FAIL thread %d: enumeration finds %d events, cmp_info says %d\n", t,
			       n, PAPI_get_component_info(cidx)->num_native_events);
			failures++;
			pthread_mutex_unlock(&out_lock);
		}
		rc = PAPI_event_name_to_code(event, &code);
		check(rc == PAPI_OK, "PAPI_event_name_to_code after enumerating", t, rc);
		break;
	case 2: /* the first event's description */
		code = PAPI_NATIVE_MASK;
		rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
		if (rc == PAPI_OK)
			rc = PAPI_get_event_info(code, &info);
		check(rc == PAPI_OK && info.symbol[0], "the first event's description", t, rc);
		rc = PAPI_event_name_to_code(event, &code);
		check(rc == PAPI_OK, "PAPI_event_name_to_code after describing", t, rc);
		break;
	default: /* an event set */
		check(rc == PAPI_OK, "PAPI_create_eventset", t, rc);
		rc = PAPI_add_named_event(es, event);
		check(rc == PAPI_OK, "PAPI_add_named_event", t, rc);
		if (rc == PAPI_OK) {
			int codes[2], k = 2;
			rc = PAPI_list_events(es, codes, &k);
			check(rc == PAPI_OK && k == 1, "the set holds the event", t, rc);
			code = rc == PAPI_OK && k == 1 ? codes[0] : PAPI_NULL;
		}
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
		break;
	}
	r->code = code;
	PAPI_unregister_thread();
	return r;
}

int main(int argc, char **argv)
{
	pthread_t th[MAXT];
	int nthreads = argc == 3 ? atoi(argv[1]) : 0, n;
	if (argc != 3 || nthreads < 0 || nthreads > MAXT) {
		fprintf(stderr, "usage: papi_first_use THREADS(0-%d) EVENT\n", MAXT);
		return 1;
	}
	event = argv[2];
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_thread_init(pthread_self) != PAPI_OK) {
		printf("FAIL PAPI_library_init\n");
		return 1;
	}
	cidx = PAPI_get_component_index("intel_uncore");
	const PAPI_component_info_t *ci = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
	if (!ci || ci->disabled) {
		printf("intel_uncore is disabled: %s\n", ci ? ci->disabled_reason : "not built in");
		return 2;
	}
	int announced = ci->num_native_events;
	if (nthreads == 0) {
		printf("PAPI_library_init: intel_uncore announces %d events\n", announced);
		return 0;
	}
	pthread_barrier_init(&bar, NULL, (unsigned)nthreads);
	for (int t = 0; t < nthreads; t++)
		if (pthread_create(&th[t], NULL, first_use, (void *)(long)t) != 0) {
			printf("FAIL pthread_create\n");
			return 1;
		}
	int code = PAPI_NULL;
	for (int t = 0; t < nthreads; t++) {
		struct result *r;
		pthread_join(th[t], (void **)&r);
		if (!r) {
			printf("FAIL thread %d: out of memory\n", t);
			failures++;
			continue;
		}
		if (code == PAPI_NULL)
			code = r->code;
		if (r->code == PAPI_NULL || r->code != code) {
			printf("FAIL thread %d: code %#x for %s, thread 0 found %#x\n", t, r->code,
			       event, code);
			failures++;
		}
		free(r);
	}
	if (enumerate(&n) != PAPI_OK || n != announced || n != ci->num_native_events) {
		printf("FAIL PAPI_library_init announced %d events; the enumeration finds %d, "
		       "cmp_info says %d after the first use\n",
		       announced, n, ci->num_native_events);
		failures++;
	}
	pthread_barrier_destroy(&bar);
	PAPI_shutdown();
	printf("%d threads: %s is %#x in every thread; %d events announced and enumerated\n",
	       nthreads, event, code, n);
	return failures != 0;
}
