/* Many event sets of one process, one per thread, on one simulated machine
 * (tests/integration/test_papi_threads.sh).
 *
 *   papi_threads count THREADS ROUNDS
 *       every round: all threads start their own set at once (even threads
 *       count UBox and CBo clockticks, odd ones CBo clockticks and CBo
 *       clockticks of socket 1: shared and distinct encodings), the main
 *       thread advances simulated time, all read, time advances again, all
 *       stop; every value must equal the simulator's clocks over exactly the
 *       set's own interval (SCENARIOS.md: a clock stream adds one per
 *       cycle; a box's cycles after t ns are floor(t * f / 10^9)).  Every
 *       other round the odd threads start one step later, so their interval
 *       differs from the even threads'.
 *   papi_threads shutdown THREADS
 *       threads start, read and stop their sets in a loop while one of them
 *       calls PAPI_shutdown: no crash; errors after the shutdown are fine.
 * Exit 0 when everything holds, 1 otherwise (each failure printed). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "itest.h"
#include "papi.h"
#include "platform/hswep/hswep_boxes.h"

#define MAXT 64
#define US   1000ull

static struct itest_sim sim;
static pthread_barrier_t bar;
static int nthreads, rounds, failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t t_start[2], t_read, t_stop; /* simulated times, set by main */

static const char *const even_events[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS",
					  "hswep_unc_cbo::UNC_C_CLOCKTICKS"};
static const char *const odd_events[] = {"hswep_unc_cbo::UNC_C_CLOCKTICKS",
					 "hswep_unc_cbo::UNC_C_CLOCKTICKS:socket=1"};

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Clockticks of `boxes` boxes of the UCLK domain between two times. */
static uint64_t ticks(unsigned boxes, uint64_t from, uint64_t to)
{
	uint64_t hz = sim.topo.clock_hz[HSWEP_CLK_UCLK];
	return boxes * (itest_cycles(to, hz) - itest_cycles(from, hz));
}

static void expect(int tid, int round, const char *what, const char *event, long long got,
		   uint64_t want)
{
	if ((uint64_t)got == want)
		return;
	pthread_mutex_lock(&out_lock);
	if (failures++ < 20)
		printf("FAIL thread %d round %d %s %s: got %lld, want %llu\n", tid, round, what,
		       event, got, (unsigned long long)want);
	pthread_mutex_unlock(&out_lock);
}

static void check(int tid, int round, const char *what, long long *v, uint64_t from, uint64_t to)
{
	unsigned socks = sim.topo.sockets, ncbo = popcount32(sim.topo.present[HSWEP_BOX_CBO]);
	if (tid % 2 == 0) {
		expect(tid, round, what, even_events[0], v[0], ticks(socks, from, to));
		expect(tid, round, what, even_events[1], v[1], ticks(socks * ncbo, from, to));
	} else {
		expect(tid, round, what, odd_events[0], v[0], ticks(socks * ncbo, from, to));
		expect(tid, round, what, odd_events[1], v[1], ticks(ncbo, from, to));
	}
}

static int step(int tid, int round, const char *what, int rc)
{
	if (rc == PAPI_OK)
		return 0;
	pthread_mutex_lock(&out_lock);
	if (failures++ < 20)
		printf("FAIL thread %d round %d %s: %s\n", tid, round, what, PAPI_strerror(rc));
	pthread_mutex_unlock(&out_lock);
	return -1;
}

static void *counter(void *arg)
{
	int tid = (int)(long)arg, es = PAPI_NULL;
	const char *const *ev = tid % 2 ? odd_events : even_events;
	long long v[2];
	int ok = step(tid, -1, "PAPI_register_thread", PAPI_register_thread()) == 0 &&
		 step(tid, -1, "PAPI_create_eventset", PAPI_create_eventset(&es)) == 0 &&
		 step(tid, -1, "add", PAPI_add_named_event(es, ev[0])) == 0 &&
		 step(tid, -1, "add", PAPI_add_named_event(es, ev[1])) == 0;
	for (int r = 0; r < rounds; r++) {
		int late = (r % 2) && (tid % 2);
		/* Each step: a barrier lets the threads act, a second one tells
		 * the main thread they are done (it then moves time). */
		pthread_barrier_wait(&bar);
		if (ok && !late)
			ok = step(tid, r, "PAPI_start", PAPI_start(es)) == 0;
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		if (ok && late)
			ok = step(tid, r, "PAPI_start (late)", PAPI_start(es)) == 0;
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		if (ok && (ok = step(tid, r, "PAPI_read", PAPI_read(es, v)) == 0))
			check(tid, r, "read", v, t_start[late], t_read);
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		if (ok && (ok = step(tid, r, "PAPI_stop", PAPI_stop(es, v)) == 0))
			check(tid, r, "stop", v, t_start[late], t_stop);
		pthread_barrier_wait(&bar);
	}
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	PAPI_unregister_thread();
	return NULL;
}

static int advance(uint64_t ns)
{
	if (uncore_sim_advance(sim.sim, ns) != 0) {
		printf("FAIL cannot advance simulated time\n");
		return -1;
	}
	return 0;
}

static int run_count(void)
{
	pthread_t th[MAXT];
	pthread_barrier_init(&bar, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, counter, (void *)(long)i);
	for (int r = 0; r < rounds; r++) {
		t_start[0] = itest_now(&sim);
		pthread_barrier_wait(&bar); /* threads start */
		pthread_barrier_wait(&bar);
		advance(37 * US + (uint64_t)r * 13);
		t_start[1] = itest_now(&sim);
		pthread_barrier_wait(&bar); /* late threads start */
		pthread_barrier_wait(&bar);
		advance(1000 * US + (uint64_t)r * 101);
		t_read = itest_now(&sim);
		pthread_barrier_wait(&bar); /* threads read */
		pthread_barrier_wait(&bar);
		advance(500 * US + (uint64_t)r * 7);
		t_stop = itest_now(&sim);
		pthread_barrier_wait(&bar); /* threads stop */
		pthread_barrier_wait(&bar);
	}
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);
	return failures ? 1 : 0;
}

static volatile int stop_all;

static void *churn(void *arg)
{
	int tid = (int)(long)arg, es = PAPI_NULL;
	long long v[2];
	if (PAPI_register_thread() != PAPI_OK || PAPI_create_eventset(&es) != PAPI_OK ||
	    PAPI_add_named_event(es, even_events[tid % 2]) != PAPI_OK)
		return NULL; /* PAPI may already be shut down */
	pthread_barrier_wait(&bar);
	for (int i = 0; !stop_all && i < 100000; i++) {
		if (PAPI_start(es) != PAPI_OK)
			break;
		if (PAPI_read(es, v) != PAPI_OK || PAPI_stop(es, v) != PAPI_OK)
			break;
		if (tid == 0 && i == 200) {
			PAPI_shutdown(); /* the others are inside PAPI right now */
			stop_all = 1;
			break;
		}
	}
	return NULL;
}

static int run_shutdown(void)
{
	pthread_t th[MAXT];
	pthread_barrier_init(&bar, NULL, (unsigned)nthreads);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, churn, (void *)(long)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "count") == 0 && argc < 4)) {
		fprintf(stderr, "usage: papi_threads count THREADS ROUNDS | shutdown THREADS\n");
		return 2;
	}
	nthreads = atoi(argv[2]);
	rounds = argc > 3 ? atoi(argv[3]) : 0;
	if (nthreads < 1 || nthreads > MAXT)
		return 2;
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0 ||
	    itest_load(&sim, "hswep-clocks.scn") != 0)
		return 1;
	int rc = 1;
	if (itest_papi_init() < 0 ||
	    PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK)
		printf("FAIL PAPI init\n");
	else if (strcmp(argv[1], "count") == 0)
		rc = run_count();
	else
		rc = run_shutdown();
	if (rc == 0)
		printf("ok: %s with %d threads%s%s\n", argv[1], nthreads, rounds ? ", rounds " : "",
		       rounds ? argv[3] : "");
	if (strcmp(argv[1], "count") == 0)
		PAPI_shutdown();
	itest_sim_destroy(&sim);
	return rc;
}
