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
 *   papi_threads shutdown THREADS ROUNDS
 *       every round: PAPI is initialised, the threads start, read and stop
 *       their own sets in a loop, and one of them calls PAPI_shutdown while
 *       the others are inside PAPI (papi-patches/30-...: the API gate).  The
 *       contract checked: a call that returned before the shutdown began
 *       succeeded; a call that began after it ended fails with
 *       PAPI_ENOEVST (the sets are gone, papi-patches/README.md); nothing
 *       crashes.  After the last round PAPI is initialised once more and a
 *       fresh set counts exactly: the shutdown left no torn state behind.
 * Exit 0 when everything holds, 1 otherwise (each failure printed). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
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

/* shutting: PAPI_shutdown has begun; shut: it has returned. */
static atomic_int shutting, shut, raced;
static int round_now;

static void shut_down(void)
{
	atomic_store(&shutting, 1);
	PAPI_shutdown(); /* the others are inside PAPI right now */
	atomic_store(&shut, 1);
}

static void fail_shutdown(int tid, int i, const char *what, int rc, const char *why)
{
	pthread_mutex_lock(&out_lock);
	if (failures++ < 20)
		printf("FAIL thread %d step %d %s: %s (%s)\n", tid, i, what, PAPI_strerror(rc), why);
	pthread_mutex_unlock(&out_lock);
}

/* One call of a thread racing the shutdown: checked against the contract. */
static int race_step(int tid, int i, const char *what, int rc, int shut_before)
{
	if (rc == PAPI_OK && !shut_before)
		return 0;
	if (!shut_before)
		atomic_fetch_add(&raced, 1); /* began before the shutdown ended */
	if (rc == PAPI_OK)
		fail_shutdown(tid, i, what, rc, "succeeded after PAPI_shutdown returned");
	else if (shut_before && rc != PAPI_ENOEVST)
		fail_shutdown(tid, i, what, rc, "after PAPI_shutdown, want PAPI_ENOEVST");
	else if (!shut_before && !atomic_load(&shutting))
		fail_shutdown(tid, i, what, rc, "failed before PAPI_shutdown began");
	return -1;
}

static void *churn(void *arg)
{
	int tid = (int)(long)arg, es = PAPI_NULL;
	long long v[2];
	int ok = step(tid, -1, "PAPI_register_thread", PAPI_register_thread()) == 0 &&
		 step(tid, -1, "PAPI_create_eventset", PAPI_create_eventset(&es)) == 0 &&
		 step(tid, -1, "add", PAPI_add_named_event(es, even_events[tid % 2])) == 0;
	pthread_barrier_wait(&bar);
	for (int i = 0; ok && i < 100000; i++) {
		if (tid == 0 && i == 50 + round_now % 7)
			shut_down();
		int before = atomic_load(&shut);
		if (race_step(tid, i, "PAPI_start", PAPI_start(es), before) != 0)
			break;
		before = atomic_load(&shut);
		if (race_step(tid, i, "PAPI_read", PAPI_read(es, v), before) != 0)
			break;
		before = atomic_load(&shut);
		if (race_step(tid, i, "PAPI_stop", PAPI_stop(es, v), before) != 0)
			break;
	}
	if (tid == 0 && !atomic_load(&shutting))
		shut_down(); /* its own loop failed early */
	/* The set is gone once PAPI is shut down (whoever stopped it). */
	while (!atomic_load(&shut))
		sched_yield();
	race_step(tid, -1, "PAPI_cleanup_eventset", PAPI_cleanup_eventset(es), 1);
	race_step(tid, -1, "PAPI_destroy_eventset", PAPI_destroy_eventset(&es), 1);
	return NULL;
}

static int run_shutdown(void)
{
	pthread_t th[MAXT];
	for (int r = 0; r < rounds && failures == 0; r++) {
		atomic_store(&shutting, 0);
		atomic_store(&shut, 0);
		round_now = r;
		if (r > 0 && (itest_papi_init() < 0 ||
			      PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK)) {
			printf("FAIL round %d: PAPI init after PAPI_shutdown\n", r);
			return 1;
		}
		pthread_barrier_init(&bar, NULL, (unsigned)nthreads);
		for (int i = 0; i < nthreads; i++)
			pthread_create(&th[i], NULL, churn, (void *)(long)i);
		for (int i = 0; i < nthreads; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&bar);
	}
	/* No torn state: initialised again, a fresh set counts exactly. */
	const char *ubox = even_events[0];
	long long v;
	uint64_t t0;
	if (itest_papi_init() < 0) {
		printf("FAIL PAPI init after the last round\n");
		return 1;
	}
	int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, ubox);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	t0 = itest_now(&sim);
	if (rc == PAPI_OK && advance(1000 * US) == 0)
		rc = PAPI_stop(es, &v);
	if (rc != PAPI_OK)
		printf("FAIL after the last round, a fresh set: %s\n", PAPI_strerror(rc));
	else
		expect(0, rounds, "fresh set after the rounds", ubox, v,
		       ticks(sim.topo.sockets, t0, itest_now(&sim)));
	PAPI_shutdown();
	printf("%d calls of other threads were under way when PAPI_shutdown ended\n",
	       atomic_load(&raced));
	return failures || rc != PAPI_OK ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: papi_threads count|shutdown THREADS ROUNDS\n");
		return 2;
	}
	nthreads = atoi(argv[2]);
	rounds = atoi(argv[3]);
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
		printf("ok: %s with %d threads, %d rounds\n", argv[1], nthreads, rounds);
	if (strcmp(argv[1], "count") == 0)
		PAPI_shutdown();
	itest_sim_destroy(&sim);
	return rc;
}
