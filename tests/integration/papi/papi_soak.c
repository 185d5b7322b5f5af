/* A soak of the component through PAPI on the simulator (issue 29):
 * tests/integration/test_papi_soak.sh runs it briefly in make check,
 * `make soak` for ten minutes per backend under AddressSanitizer and
 * ThreadSanitizer.
 *
 *   papi_soak THREADS SECONDS [SEED]
 *       every thread, over and over, takes a random step on its own event
 *       set: create it with one or two random events, start, read, reset,
 *       stop, clean up and destroy, PAPI_accum, register and unregister
 *       itself (its set left as it is: running, stopped or empty).  A
 *       controller advances simulated time meanwhile.  Every value read is
 *       checked exactly: a clock stream adds one per cycle
 *       (src/sim/SCENARIOS.md), so an event's count over [t0, t] is its
 *       boxes' cycles between those simulated times; each step and the
 *       reading of the time happen with the time held still (a read lock
 *       the controller takes for writing to advance it).
 * Prints the number of steps and exact checks; exit 0 when every check
 * held and no call failed, 1 otherwise (each failure printed). */
#define _GNU_SOURCE /* the writer-preferring rwlock initialiser */
#include <pthread.h>
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
/* Writer-preferring: the controller must get its turn between the workers. */
static pthread_rwlock_t time_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static atomic_int done, failures;
static atomic_ullong steps, checks;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned ncbo;

struct ev {
	const char *name;
	unsigned boxes; /* UCLK boxes it sums */
};
static struct ev pool[3];

static void failf(int tid, const char *what, const char *detail)
{
	pthread_mutex_lock(&out_lock);
	if (atomic_fetch_add(&failures, 1) < 30)
		printf("FAIL thread %d %s: %s\n", tid, what, detail);
	pthread_mutex_unlock(&out_lock);
}

static uint64_t cycles_between(unsigned boxes, uint64_t from, uint64_t to)
{
	uint64_t hz = sim.topo.clock_hz[HSWEP_CLK_UCLK];
	return boxes * (itest_cycles(to, hz) - itest_cycles(from, hz));
}

struct worker {
	int tid, es, nev, running, registered;
	unsigned ev[2];
	uint64_t t0;           /* start or last reset, simulated ns */
	long long acc_base[2]; /* PAPI_accum: what the accumulator held */
	unsigned seed;
};

static void check_values(struct worker *w, const char *what, const long long *v, uint64_t now,
			 const long long *plus)
{
	for (int i = 0; i < w->nev; i++) {
		uint64_t want = cycles_between(pool[w->ev[i]].boxes, w->t0, now) +
				(plus ? (uint64_t)plus[i] : 0);
		atomic_fetch_add(&checks, 1);
		if ((uint64_t)v[i] != want) {
			char d[256];
			snprintf(d, sizeof(d), "%s: got %lld, want %llu", pool[w->ev[i]].name, v[i],
				 (unsigned long long)want);
			failf(w->tid, what, d);
		}
	}
}

static int call_ok(struct worker *w, const char *what, int rc)
{
	if (rc == PAPI_OK)
		return 1;
	failf(w->tid, what, PAPI_strerror(rc));
	return 0;
}

/* One random step; time is held still around it. */
static void step(struct worker *w)
{
	long long v[2] = {0, 0};
	int r = (int)(rand_r(&w->seed) % 100);
	pthread_rwlock_rdlock(&time_lock);
	uint64_t now = itest_now(&sim);
	if (!w->registered) {
		call_ok(w, "PAPI_register_thread", PAPI_register_thread());
		w->registered = 1;
	} else if (w->es == PAPI_NULL) {
		w->nev = 1 + (int)(rand_r(&w->seed) % 2);
		w->ev[0] = rand_r(&w->seed) % 3;
		w->ev[1] = (w->ev[0] + 1 + rand_r(&w->seed) % 2) % 3;
		if (call_ok(w, "PAPI_create_eventset", PAPI_create_eventset(&w->es)))
			for (int i = 0; i < w->nev; i++)
				call_ok(w, "PAPI_add_named_event",
					PAPI_add_named_event(w->es, pool[w->ev[i]].name));
	} else if (!w->running && r < 60) {
		if (call_ok(w, "PAPI_start", PAPI_start(w->es))) {
			w->running = 1;
			w->t0 = now;
		}
	} else if (!w->running && r < 90) {
		call_ok(w, "PAPI_cleanup_eventset", PAPI_cleanup_eventset(w->es));
		call_ok(w, "PAPI_destroy_eventset", PAPI_destroy_eventset(&w->es));
		w->es = PAPI_NULL;
	} else if (!w->running) {
		/* Leave with the set as it is: PAPI_unregister_thread cleans it up
		 * (papi-patches/70-...); the handle is dead afterwards. */
		call_ok(w, "PAPI_unregister_thread", PAPI_unregister_thread());
		w->registered = 0;
		w->es = PAPI_NULL;
	} else if (r < 55) {
		if (call_ok(w, "PAPI_read", PAPI_read(w->es, v)))
			check_values(w, "PAPI_read", v, now, NULL);
	} else if (r < 65) {
		if (call_ok(w, "PAPI_reset", PAPI_reset(w->es)))
			w->t0 = now;
	} else if (r < 75) {
		/* PAPI_accum adds the counts to v and resets them. */
		long long base[2] = {(long long)rand_r(&w->seed), 7};
		memcpy(v, base, sizeof(v));
		if (call_ok(w, "PAPI_accum", PAPI_accum(w->es, v))) {
			check_values(w, "PAPI_accum", v, now, base);
			w->t0 = now;
		}
	} else if (r < 97) {
		if (call_ok(w, "PAPI_stop", PAPI_stop(w->es, v)))
			check_values(w, "PAPI_stop", v, now, NULL);
		w->running = 0;
	} else {
		call_ok(w, "PAPI_unregister_thread (set running)", PAPI_unregister_thread());
		w->registered = 0;
		w->running = 0;
		w->es = PAPI_NULL;
	}
	pthread_rwlock_unlock(&time_lock);
	atomic_fetch_add(&steps, 1);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	while (!atomic_load(&done))
		step(w);
	pthread_rwlock_rdlock(&time_lock);
	if (w->registered && w->es != PAPI_NULL) {
		long long v[2];
		if (w->running)
			call_ok(w, "final PAPI_stop", PAPI_stop(w->es, v));
		PAPI_cleanup_eventset(w->es);
		PAPI_destroy_eventset(&w->es);
	}
	if (w->registered)
		PAPI_unregister_thread();
	pthread_rwlock_unlock(&time_lock);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: papi_soak THREADS SECONDS [SEED]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	double secs = atof(argv[2]);
	unsigned seed = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : (unsigned)time(NULL);
	if (n < 1 || n > MAXT || secs <= 0)
		return 2;
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0 ||
	    itest_load(&sim, "hswep-clocks.scn") != 0)
		return 1;
	for (unsigned b = 0; b < 32; b++)
		ncbo += (sim.topo.present[HSWEP_BOX_CBO] >> b) & 1;
	pool[0] = (struct ev){"hswep_unc_ubo::UNC_U_CLOCKTICKS", sim.topo.sockets};
	pool[1] = (struct ev){"hswep_unc_cbo::UNC_C_CLOCKTICKS", sim.topo.sockets * ncbo};
	pool[2] = (struct ev){"hswep_unc_cbo::UNC_C_CLOCKTICKS:socket=1", ncbo};
	if (itest_papi_init() < 0 ||
	    PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK) {
		printf("FAIL PAPI init\n");
		return 1;
	}
	printf("seed %u (papi_soak %d %s %u repeats this run's choices)\n", seed, n, argv[2], seed);
	fflush(stdout);
	static struct worker w[MAXT];
	pthread_t th[MAXT];
	for (int i = 0; i < n; i++) {
		w[i] = (struct worker){.tid = i, .es = PAPI_NULL, .seed = seed * 7919u + (unsigned)i};
		pthread_create(&th[i], NULL, work, &w[i]);
	}
	unsigned tseed = seed;
	double end = now_s() + secs;
	while (now_s() < end && atomic_load(&failures) == 0) {
		pthread_rwlock_wrlock(&time_lock);
		uncore_sim_advance(sim.sim, 1 * US + rand_r(&tseed) % (500 * US));
		pthread_rwlock_unlock(&time_lock);
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
	atomic_store(&done, 1);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	PAPI_shutdown();
	itest_sim_destroy(&sim);
	unsigned long long nc = atomic_load(&checks), ns = atomic_load(&steps);
	int nf = atomic_load(&failures);
	printf("%s soak: %d threads, %g s, %llu steps, %llu exact checks, %d failures\n",
	       nf == 0 && nc > 0 ? "PASS" : "FAIL", n, secs, ns, nc, nf);
	return nf == 0 && nc > 0 ? 0 : 1;
}
