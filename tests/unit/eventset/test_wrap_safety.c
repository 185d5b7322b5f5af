/* Wrap safety by construction: the direct Haswell-EP backend's read
 * interval follows from each counter's width and its event's "Max.
 * Inc/Cyc" at the fastest clock of its box; every box kind counting at that
 * maximum for ten wrap periods, read only at that interval, gives the exact
 * total; read less often it does not (so the test can fail); and the
 * default poller ("auto") keeps a 15-minute R3QPI RxR_OCCUPANCY_VN1 run at
 * 32 per cycle exact with no read between start and stop (issue 15). */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/poller.h"
#include "harness.h"
#include "sim/uncore_sim.h"

#include <string.h>
#include <time.h>

#define NS_PER_S 1000000000ull

/* Each box kind's fastest event (largest Max. Inc/Cyc of its tables), the
 * stream that drives it at that rate, and the width its raw values fold at
 * (UBox, SBo: 44, see events/registry_hswep.c). */
static const struct row {
	const char *event;
	const char *stream;
	unsigned maxinc, width;
	enum hswep_clock clock;
	uint64_t ceiling_hz; /* the backend's clock ceiling (desc_hswep.c) */
} rows[] = {
    {"hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD:socket=0",
     "stream ubox ev=0x42 umask=0x08 inc=1 socket=0", 1, 44, HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_cbo0::UNC_C_COUNTER0_OCCUPANCY:socket=0", "stream cbo[0] ev=0x1f inc=20 socket=0",
     20, 48, HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_sbo0::UNC_S_RXR_BYPASS:AD_CRD:socket=0",
     "stream sbo[0] ev=0x12 umask=0x01 inc=12 socket=0", 12, 44, HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_ha0::UNC_H_BT_OCCUPANCY:socket=0", "stream ha[0] ev=0x43 inc=512 socket=0", 512, 48,
     HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_imc0::UNC_M_VMSE_MXB_WR_OCCUPANCY:socket=0",
     "stream imc[0] ev=0x91 inc=32 socket=0", 32, 48, HSWEP_CLK_DCLK, 1200000000u},
    {"hswep_unc_irp::UNC_I_CACHE_TOTAL_OCCUPANCY:ANY:socket=0",
     "stream irp ev=0x12 umask=0x01 inc=128 socket=0", 128, 48, HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C0:socket=0",
     "stream pcu ev=0x80 occ=1 inc=8 socket=0", 8, 48, HSWEP_CLK_PCLK, 1000000000u},
    {"hswep_unc_qpi0::UNC_Q_RXL_OCCUPANCY:socket=0", "stream qpi[0] ev=0x0b inc=128 socket=0", 128,
     48, HSWEP_CLK_QFCLK, 1200000000u},
    {"hswep_unc_r2pcie::UNC_R2_RXR_OCCUPANCY:DRS:socket=0",
     "stream r2pcie ev=0x13 umask=0x08 inc=24 socket=0", 24, 48, HSWEP_CLK_UCLK, 3000000000u},
    {"hswep_unc_r3qpi0::UNC_R3_RXR_OCCUPANCY_VN1:HOM:socket=0",
     "stream r3qpi[0] ev=0x13 umask=0x01 inc=32 socket=0", 32, 44, HSWEP_CLK_UCLK, 3000000000u},
};

struct env {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
	uint64_t hz; /* the model's clock of the row's box */
};

static int sim_clock_now(void *ctx, uint64_t *ns)
{
	return uncore_sim_now(ctx, ns);
}

static int env_open_freeze(struct env *e, const struct row *r, int read_freeze)
{
	struct uncore_direct_config cfg;
	struct uncore_sim_topology topo;
	memset(e, 0, sizeof(*e));
	int rc = uncore_sim_create("e5-2699v3-2s", NULL, &e->sim);
	if (rc == 0)
		rc = uncore_sim_load_scenario_text(e->sim, r->stream, "test");
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &topo);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = e->sim ? uncore_sim_regio(e->sim) : NULL;
	cfg.read_freeze = read_freeze;
	cfg.no_socket_lock = 1;
	if (rc == 0)
		rc = uncore_direct_open_hswep(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	if (rc == 0)
		rc = uncore_set_assign(e->set, &r->event, 1);
	if (rc == 0) {
		struct uncore_clock c = {.now_ns = sim_clock_now, .ctx = e->sim};
		uncore_set_clock(e->set, &c);
		e->hz = topo.clock_hz[r->clock];
	}
	if (rc < 0)
		fprintf(stderr, "  env_open %s: %s\n", r->event, uncore_error_detail());
	return rc;
}

static int env_open(struct env *e, const struct row *r)
{
	return env_open_freeze(e, r, 1);
}

static void env_close(struct env *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
	if (e->sim)
		uncore_sim_destroy(e->sim);
}

/* Cycles of a `hz` clock in the simulated span [t0, t1) ns (SCENARIOS.md:
 * cycle c ends at ceil(c / f); counts are floor(t * f)). */
static uint64_t cycles(uint64_t hz, uint64_t t0_ns, uint64_t t1_ns)
{
	unsigned __int128 a = (unsigned __int128)t0_ns * hz / NS_PER_S;
	unsigned __int128 b = (unsigned __int128)t1_ns * hz / NS_PER_S;
	return (uint64_t)(b - a);
}

/* The interval the backend must report, computed here from the row. */
static uint64_t expected_interval(const struct row *r)
{
	unsigned __int128 wrap = ((unsigned __int128)1 << r->width) * NS_PER_S /
				 ((unsigned __int128)r->maxinc * r->ceiling_hz);
	return (uint64_t)(wrap / 2);
}

/* Count at the row's maximum rate for ten wrap periods of the model's
 * clock, reading every `step_ns`; 0 and the total in *got, *want. */
static int run(const struct row *r, uint64_t step_ns, uint64_t *got, uint64_t *want)
{
	struct env e;
	uint64_t t0, t1, v = 0;
	int rc = env_open(&e, r);
	if (rc < 0)
		return rc;
	unsigned __int128 wrap_ns =
	    ((unsigned __int128)1 << r->width) * NS_PER_S / ((unsigned __int128)r->maxinc * e.hz);
	uint64_t span = (uint64_t)(wrap_ns * 10) + 1;
	rc = uncore_sim_now(e.sim, &t0);
	if (rc == 0)
		rc = uncore_set_start(e.set);
	for (uint64_t done = 0; rc == 0 && done < span; done += step_ns) {
		rc = uncore_sim_advance(e.sim, step_ns);
		if (rc == 0)
			rc = uncore_set_read(e.set, &v);
	}
	if (rc == 0)
		rc = uncore_sim_now(e.sim, &t1);
	if (rc == 0)
		rc = uncore_set_stop(e.set, &v);
	if (rc < 0)
		fprintf(stderr, "  run %s: %s\n", r->event, uncore_error_detail());
	*got = v;
	*want = r->maxinc * cycles(e.hz, t0, t1);
	env_close(&e);
	return rc;
}

TEST(every_box_kind_reports_its_interval_from_width_and_max_increment)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct env e;
		uint64_t ns = 0;
		harness_row = rows[i].event;
		CHECK_EQ_INT(env_open(&e, &rows[i]), 0);
		if (e.set) {
			CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &ns), 0);
			CHECK_EQ_U64(ns, expected_interval(&rows[i]));
			/* The default setting polls at that interval. */
			CHECK_EQ_INT(uncore_poller_period(e.set, NULL, &ns), 0);
			CHECK_EQ_U64(ns, expected_interval(&rows[i]));
		}
		env_close(&e);
	}
	harness_row = NULL;
}

TEST(ten_wrap_periods_at_the_maximum_rate_read_at_the_interval_are_exact)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t got = 0, want = 1;
		harness_row = rows[i].event;
		CHECK_EQ_INT(run(&rows[i], expected_interval(&rows[i]), &got, &want), 0);
		CHECK_EQ_U64(got, want);
		CHECK(want > (UINT64_C(10) << rows[i].width)); /* ten wraps and more */
	}
	harness_row = NULL;
}

TEST(read_less_often_than_a_wrap_the_count_is_short)
{
	/* The same run read every 2.5 wrap periods loses 2^44 per missed wrap:
	 * the exact totals above are the interval's doing. */
	const struct row *r = &rows[9];
	uint64_t got = 0, want = 0;
	uint64_t wrap_ns = (uint64_t)(((unsigned __int128)1 << r->width) * NS_PER_S /
				      ((unsigned __int128)r->maxinc * 2500000000u));
	CHECK_EQ_INT(run(r, wrap_ns * 5 / 2, &got, &want), 0);
	CHECK(got < want);
	CHECK_EQ_U64((want - got) % (UINT64_C(1) << r->width), 0);
}

/* Issue 15's case: R3QPI RxR_OCCUPANCY_VN1 at 32 per cycle for 15 minutes of
 * simulated time, nobody reading between start and stop, default settings
 * (PAPI_INTEL_UNCORE_POLL unset: "auto").  The simulated clock runs 300
 * times as fast as the wall clock, so the run takes three seconds while
 * the poller, keeping the simulated time, reads about every 91 s of it.
 * The backend reads with the freeze around its reads (the default), but
 * the poller's reads go without it: they only fold, and a freeze stops
 * every counter for the read's duration (HSX 2.1.3 a), microseconds on
 * hardware, 300 times that here. */
TEST(r3qpi_occupancy_fifteen_minutes_unread_is_exact_with_the_default_poller)
{
	const struct row *r = &rows[9];
	struct env e;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct uncore_poller *p = NULL;
	uint64_t period = 0, t0 = 0, t1 = 0, v = 0;

	CHECK_EQ_INT(env_open(&e, r), 0);
	if (!e.set)
		return;
	CHECK_EQ_INT(uncore_poller_period(e.set, NULL /* the default: auto */, &period), 0);
	CHECK(period > 0);
	CHECK_EQ_INT(uncore_sim_now(e.sim, &t0), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	if (period)
		CHECK_EQ_INT(uncore_poller_start(e.set, &lock, period, &p), 0);
	CHECK_EQ_INT(uncore_sim_set_clock_rate(e.sim, UNCORE_SIM_CLOCK_WALL, 300), 0);
	uint64_t now = t0;
	while (now - t0 < 900 * NS_PER_S) {
		struct timespec ts = {0, 20000000}; /* 20 ms: 6 simulated seconds */
		nanosleep(&ts, NULL);
		if (uncore_sim_now(e.sim, &now) < 0)
			break;
	}
	/* Stop the simulated clock, then the set: the span is exact. */
	pthread_mutex_lock(&lock);
	CHECK_EQ_INT(uncore_sim_set_clock(e.sim, UNCORE_SIM_CLOCK_VIRTUAL), 0);
	CHECK_EQ_INT(uncore_sim_now(e.sim, &t1), 0);
	pthread_mutex_unlock(&lock);
	uncore_poller_stop(p);
	CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
	CHECK(t1 - t0 >= 900 * NS_PER_S);
	CHECK_EQ_U64(v, 32 * cycles(e.hz, t0, t1));
	CHECK(v > (UINT64_C(4) << 44)); /* more than four wraps of the 44-bit counter */
	env_close(&e);
}

int main(void)
{
	RUN(every_box_kind_reports_its_interval_from_width_and_max_increment);
	RUN(ten_wrap_periods_at_the_maximum_rate_read_at_the_interval_are_exact);
	RUN(read_less_often_than_a_wrap_the_count_is_short);
	RUN(r3qpi_occupancy_fifteen_minutes_unread_is_exact_with_the_default_poller);
	return harness_done();
}
