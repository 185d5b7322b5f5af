/* The start path, traced (issue 25): PAPI_add_named_event and PAPI_start of
 * one event through PAPI on the simulator, with every function of our
 * library that runs recorded in call order.  The library is a build whose
 * objects are compiled with -finstrument-functions (build/papi-trace, a
 * libpapi.so relinked with it, as build/papi-asan is for the sanitizers):
 * the compiler calls __cyg_profile_func_enter/exit around every function,
 * which this program defines and exports (-rdynamic), so libpapi.so binds
 * to them.  Each record is the function's offset in its shared object;
 * bench/trace/trace_start.py names them (addr2line) and counts files,
 * cross-file calls, calls back into a file already left, schedules and
 * allowlists built.  The PAPI front-end (components/intel_uncore/
 * intel_uncore.c) is compiled by PAPI's build, not instrumented: a call of
 * the library with nothing of ours on the stack is a call from it.
 *
 * Usage: trace_start EVENT OUT [BESIDE] (on the simulator:
 * PAPI_INTEL_UNCORE_BACKEND=sim).  With BESIDE, an event set of that event
 * is started first by another thread (PAPI runs one set per thread),
 * untraced, and counts until the end: EVENT's set then starts beside a
 * running one (the hub schedules their union). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "papi.h"

static FILE *out;
static int tracing;

#define NOTRACE __attribute__((no_instrument_function, visibility("default")))

void __cyg_profile_func_enter(void *fn, void *site) NOTRACE;
void __cyg_profile_func_exit(void *fn, void *site) NOTRACE;

static void record(char what, void *fn) __attribute__((no_instrument_function));
static void record(char what, void *fn)
{
	Dl_info info;
	if (!tracing || !out || !dladdr(fn, &info) || !info.dli_fname)
		return;
	fprintf(out, "%c %s 0x%lx\n", what, info.dli_fname,
		(unsigned long)((char *)fn - (char *)info.dli_fbase));
}

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	record('E', fn);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	record('X', fn);
}

/* The set started beside: running from `started` until `done`. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started, done, beside_rc;
static const char *beside_event;

static void *beside(void *arg)
{
	int es = PAPI_NULL, rc;
	long long v = 0;
	(void)arg;
	rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, beside_event);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	pthread_mutex_lock(&mu);
	beside_rc = rc;
	started = 1;
	pthread_cond_broadcast(&cv);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	if (rc == PAPI_OK)
		PAPI_stop(es, &v);
	PAPI_unregister_thread();
	return NULL;
}

static void beside_end(pthread_t t)
{
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: trace_start EVENT OUT [BESIDE]\n");
		return 2;
	}
	out = fopen(argv[2], "w");
	if (!out || PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		fprintf(stderr, "trace_start: cannot open %s or initialise PAPI\n", argv[2]);
		return 1;
	}
	int es = PAPI_NULL;
	pthread_t t;
	int with = argc == 4 && argv[3][0];
	if (with) {
		beside_event = argv[3];
		if (PAPI_thread_init(pthread_self) != PAPI_OK ||
		    pthread_create(&t, NULL, beside, NULL) != 0) {
			fprintf(stderr, "trace_start: no thread for the set beside\n");
			return 1;
		}
		pthread_mutex_lock(&mu);
		while (!started)
			pthread_cond_wait(&cv, &mu);
		pthread_mutex_unlock(&mu);
		if (beside_rc != PAPI_OK) {
			fprintf(stderr, "trace_start: cannot start %s beside: %s\n", argv[3],
				PAPI_strerror(beside_rc));
			beside_end(t);
			return 1;
		}
	}
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return 1;
	fprintf(out, "P add\n");
	tracing = 1;
	int rc = PAPI_add_named_event(es, argv[1]);
	tracing = 0;
	fprintf(out, "P start\n");
	tracing = 1;
	int rs = rc == PAPI_OK ? PAPI_start(es) : rc;
	tracing = 0;
	fprintf(out, "P end\n");
	long long v = 0;
	if (rs == PAPI_OK)
		PAPI_stop(es, &v);
	if (with)
		beside_end(t);
	fclose(out);
	if (rc != PAPI_OK || rs != PAPI_OK) {
		fprintf(stderr, "trace_start: %s: add %s, start %s\n", argv[1], PAPI_strerror(rc),
			PAPI_strerror(rs));
		return 1;
	}
	return 0;
}
