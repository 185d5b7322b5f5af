/* The background poller: it reads the set at its period while the owner
 * keeps using it under the same lock, totals stay exact (no fold counted
 * twice, none lost), stop is prompt, and the period follows
 * PAPI_INTEL_UNCORE_POLL. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/poller.h"
#include "harness.h"
#include "sim/uncore_sim.h"

#include <string.h>
#include <time.h>

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

struct env {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
};

static int env_open(struct env *e)
{
	struct uncore_direct_config cfg;
	memset(e, 0, sizeof(*e));
	int rc = uncore_sim_create("e5-2699v3-2s", NULL, &e->sim);
	if (rc == 0)
		rc = uncore_sim_load_scenario_text(
		    e->sim, "stream imc[0] socket=0 ev=0x04 umask=0x01 rate=100M/s\n", "test");
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = e->sim ? uncore_sim_regio(e->sim) : NULL;
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	if (rc == 0)
		rc = uncore_direct_open_hswep(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	const char *names[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD_REG:socket=0"};
	if (rc == 0)
		rc = uncore_set_assign(e->set, names, 1);
	if (rc < 0)
		fprintf(stderr, "  env_open: %s\n", uncore_error_detail());
	return rc;
}

static void env_close(struct env *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
	if (e->sim)
		uncore_sim_destroy(e->sim);
}

TEST(polls_while_the_owner_reads_and_totals_stay_exact)
{
	struct env e;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct uncore_poller *p = NULL;
	uint64_t v = 0;

	CHECK_EQ_INT(env_open(&e), 0);
	if (!e.set)
		return;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_poller_start(e.set, &lock, 1000000 /* 1 ms */, &p), 0);
	for (int i = 0; i < 20; i++) {
		pthread_mutex_lock(&lock);
		uncore_sim_advance(e.sim, 10000000); /* 10 ms of virtual time: 1 M CAS */
		if (i % 3 == 0)
			uncore_set_read(e.set, &v);
		pthread_mutex_unlock(&lock);
		sleep_ms(2);
	}
	uncore_poller_stop(p);
	CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
	/* The scenario's rate over 200 ms of DRAM clocks (src/sim/SCENARIOS.md):
	 * floor(c * R / f) for c = floor(t * f) cycles. */
	struct uncore_sim_topology topo;
	CHECK_EQ_INT(uncore_sim_topology(e.sim, &topo), 0);
	uint64_t f = topo.clock_hz[HSWEP_CLK_DCLK];
	uint64_t cycles = f / 5; /* 200 ms */
	CHECK_EQ_U64(v, (cycles * 100000000ull) / f);
	env_close(&e);
}

TEST(the_thread_reads_at_its_period_and_stops_promptly)
{
	struct env e;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct uncore_poller *p = NULL;

	CHECK_EQ_INT(env_open(&e), 0);
	if (!e.set)
		return;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_poller_start(e.set, &lock, 2000000 /* 2 ms */, &p), 0);
	/* No wall-time limit a loaded machine could trip: wait (up to a
	 * minute) for the thread's reads; unloaded, 5 take 10 ms. */
	uint64_t reads = 0;
	for (int i = 0; i < 6000 && (reads = uncore_poller_reads(p)) < 5; i++)
		sleep_ms(10);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uncore_poller_stop(p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(reads >= 5);
	double stop_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	/* Stop interrupts the thread's wait: far below the period (an hour
	 * below), never a speed limit (bench/ measures speed). */
	CHECK(stop_ms < 30000.0);
	/* A long period is interrupted by stop at once. */
	CHECK_EQ_INT(uncore_poller_start(e.set, &lock, 3600ull * 1000000000ull, &p), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uncore_poller_stop(p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	stop_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	CHECK(stop_ms < 30000.0);
	env_close(&e);
}

TEST(period_from_the_setting)
{
	struct env e;
	uint64_t ns = 1;
	CHECK_EQ_INT(env_open(&e), 0);
	if (!e.set)
		return;
	/* auto: the backend's interval, half the shortest wrap.  CAS_COUNT
	 * adds at most 1 per DRAM clock (Max. Inc/Cyc), 48 bits, DCLK at most
	 * 1.2 GHz: 2^48 / 1.2e9 s / 2 (tests/unit/core/test_wrap_safety.c
	 * covers every box kind). */
	const uint64_t half_wrap =
	    (uint64_t)(((unsigned __int128)1 << 48) * 1000000000u / 1200000000u / 2);
	CHECK_EQ_INT(uncore_poller_period(e.set, NULL, &ns), 0);
	CHECK_EQ_U64(ns, half_wrap);
	CHECK_EQ_INT(uncore_poller_period(e.set, "auto", &ns), 0);
	CHECK_EQ_U64(ns, half_wrap);
	CHECK_EQ_INT(uncore_poller_period(e.set, "off", &ns), 0);
	CHECK_EQ_U64(ns, 0);
	CHECK_EQ_INT(uncore_poller_period(e.set, "250", &ns), 0);
	CHECK_EQ_U64(ns, 250000000ull);
	CHECK_EQ_INT(uncore_poller_period(e.set, "often", &ns), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_POLL=often");
	CHECK_EQ_INT(uncore_poller_period(e.set, "0", &ns), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_poller_period(e.set, "86400001", &ns), UNCORE_EINVAL); /* past a day */
	CHECK_EQ_U64(ns, 0); /* a refused setting polls nothing */
	env_close(&e);
}

/* A poller without a set, a lock or a period is refused; nothing started. */
TEST(a_poller_needs_a_set_a_lock_and_a_period)
{
	struct env e;
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct uncore_poller *p = NULL;
	CHECK_EQ_INT(env_open(&e), 0);
	if (!e.set)
		return;
	CHECK_EQ_INT(uncore_poller_start(NULL, &mu, 1000000, &p), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_poller_start(e.set, NULL, 1000000, &p), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_poller_start(e.set, &mu, 0, &p), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "poller: no set, lock or period");
	CHECK(p == NULL);
	uncore_poller_stop(NULL); /* nothing to stop */
	uncore_error_clear();
	env_close(&e);
}

int main(void)
{
	RUN(polls_while_the_owner_reads_and_totals_stay_exact);
	RUN(the_thread_reads_at_its_period_and_stops_promptly);
	RUN(period_from_the_setting);
	RUN(a_poller_needs_a_set_a_lock_and_a_period);
	return harness_done();
}
