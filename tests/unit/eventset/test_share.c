/* The counters event sets share (eventset/share.h), on the simulator: sets
 * with identical events share counters yet count exactly their own
 * intervals, distinct events are merged, a set that cannot fit next to the
 * running ones is refused naming the events, and threads keep counting
 * while the hub's creator lets go (PAPI_shutdown's order).  The read path
 * of a set through its view (uncore_share_view_sum): exact across 48-bit
 * wraps, with reset, next to a set that joins later, and a fault on one
 * socket leaves the other's counts exact and costs the faulty one only the
 * reads it missed. */
#include "common/uncore_error.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim_set.h"
#include "view_set.h"
#include "platform/hswep/hswep_boxes.h"
#include "simkernel/uncore_sim_perf.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull

/* The simulator's clock of the last open_hub, for the sets whose values
 * are rates (metrics: sim_set.h). */
static struct uncore_clock sim_clock;

/* A machine with `scenario`, its backend (the perf backend over the
 * simulated kernel when `perf`) handed to a hub. */
static int open_hub(struct sim_set *e, struct uncore_share **hub, int perf, const char *scenario)
{
	int rc = perf ? sim_set_open_perf(e, "e5-2699v3-2s", scenario, NULL)
		      : sim_set_open(e, "e5-2699v3-2s", scenario, NULL);
	if (rc < 0)
		return rc;
	sim_clock = *uncore_set_get_clock(e->set);
	uncore_set_destroy(e->set);
	e->set = NULL;
	struct uncore_share_config cfg = {NULL, 1};
	rc = uncore_share_create(e->be, &cfg, hub);
	if (rc == 0)
		e->be = NULL; /* the hub's now */
	return rc;
}

static void identical_events_share_and_count_their_own_interval(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b, c;
	const char *ev[] = {"hswep_unc_cbo::UNC_C_CLOCKTICKS", "hswep_unc_ubo::UNC_U_CLOCKTICKS"};
	const char *other[] = {"hswep_unc_cbo::UNC_C_CLOCKTICKS:socket=1"};
	uint64_t a0[2], a1[2], b1[2], c1[1];

	CHECK_EQ_INT(open_hub(&e, &hub, perf, "hswep-clocks.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &b), 0);
	CHECK_EQ_INT(view_set_open(hub, other, 1, &c), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, a0), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_set_start(c.set), 0); /* a new encoding: the union grows */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 2 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, b1), 0);
	CHECK_EQ_INT(uncore_set_stop(c.set, c1), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, a1), 0);
	/* UCLK 3 GHz... whatever the model's: the UBox counts one per cycle
	 * per socket, the CBos one each; A over 3 ms, B and C over 2 ms. */
	uint64_t hz = e.topo.clock_hz[0];
	uint64_t per_ms = hz / 1000;
	CHECK(a0[1] > 0);
	CHECK_EQ_U64(a1[1], 3 * per_ms * e.topo.sockets);
	CHECK_EQ_U64(b1[1], 2 * per_ms * e.topo.sockets);
	CHECK_EQ_U64(b1[0], a1[0] - a0[0]);
	CHECK_EQ_U64(c1[0] * 2, b1[0]); /* socket 1 of two identical sockets */
	view_set_close(&a);
	view_set_close(&b);
	view_set_close(&c);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(direct_identical_events_share_and_count_their_own_interval)
{
	identical_events_share_and_count_their_own_interval(0);
}

TEST(perf_identical_events_share_and_count_their_own_interval)
{
	identical_events_share_and_count_their_own_interval(1);
}

TEST(a_set_that_cannot_fit_is_refused_naming_the_events)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b;
	const char *full[] = {"hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=1:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=2:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=3:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=4:socket=0"};
	const char *more[] = {"hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=5:socket=0"};
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "hswep-clocks.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, full, 4, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, more, 1, &b), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "other running event sets");
	CHECK_CONTAINS(uncore_error_detail(), "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=1:socket=0");
	/* Once A stops, B fits. */
	CHECK_EQ_INT(uncore_set_stop(a.set, NULL), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, NULL), 0);
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	sim_set_close(&e);
}

struct worker {
	struct view_set vs;
	int failures;
};

static void *loop(void *arg)
{
	struct worker *w = arg;
	uint64_t v[1];
	for (int i = 0; i < 300; i++) {
		if (uncore_set_start(w->vs.set) < 0 || uncore_set_read(w->vs.set, v) < 0 ||
		    uncore_set_stop(w->vs.set, v) < 0)
			w->failures++;
	}
	view_set_close(&w->vs); /* the last one destroys the hub */
	return NULL;
}

TEST(threads_keep_counting_while_the_creator_lets_go)
{
	struct sim_set e;
	struct uncore_share *hub;
	pthread_t th[8];
	struct worker w[8];
	const char *ev[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"};
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "hswep-clocks.scn"), 0);
	/* The sets exist before (PAPI creates them under the component). */
	for (int i = 0; i < 8; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		CHECK_EQ_INT(view_set_open(hub, ev, 1, &w[i].vs), 0);
	}
	for (int i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, loop, &w[i]);
	/* What PAPI_shutdown does to the component while the threads run:
	 * the hub lives on until the last view is gone. */
	uncore_share_release(hub);
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ_INT(w[i].failures, 0);
	}
	sim_set_close(&e);
}

/* Read every 1e6 s, 100 M/s wraps a 48-bit counter every 2,814,749 s: the
 * hub's fold and the set's sums keep 9e14 exact; a second set joining
 * after the third read (the union is reprogrammed: the same encoding, one
 * counter) counts its own six reads, and a reset of the first restarts it
 * from 0. */
static void view_reads_are_exact_across_wraps(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b;
	/* The third: every channel of socket 1, one counter each (the hub's
	 * unrolled fold, four counters at a time). */
	const char *ev[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			    "hswep_unc_imc0::UNC_M_CAS_COUNT:RD",
			    "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1"};
	const char *other[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			       "hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0"};
	uint64_t va[3] = {0, 0, 0}, vb[2] = {0, 0}, channels = 0;
	const uint64_t per_read = 100000000ull * 1000000ull; /* 1e14 */
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 3, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, other, 2, &b), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	for (int i = 1; i <= 9; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000ull * NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
		CHECK_EQ_U64(va[0], per_read * (uint64_t)i);
		CHECK_EQ_U64(va[1], 2 * per_read * (uint64_t)i); /* both sockets */
		if (i == 1)
			channels = va[2] / per_read; /* the model's populated ones */
		CHECK_EQ_U64(va[2], channels * per_read * (uint64_t)i);
		if (i == 3)
			CHECK_EQ_INT(uncore_set_start(b.set), 0);
		if (i > 3) {
			CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
			CHECK_EQ_U64(vb[0], per_read * (uint64_t)(i - 3));
			CHECK_EQ_U64(vb[1], per_read * (uint64_t)(i - 3));
		}
	}
	CHECK(va[0] > 3ull << 48);
	CHECK(channels >= 4);
	/* (The simulator's clock ends near 1e16 ns: 1,000 s more.) */
	const uint64_t after = 100000000ull * 1000ull;
	CHECK_EQ_INT(uncore_set_reset(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000ull * NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
	CHECK_EQ_U64(va[0], after);
	CHECK_EQ_INT(uncore_set_stop(b.set, vb), 0);
	CHECK_EQ_U64(vb[0], per_read * 6 + after);
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	CHECK_EQ_U64(va[0], after);
	CHECK_EQ_U64(va[1], 2 * after);
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(direct_view_reads_are_exact_across_wraps)
{
	view_reads_are_exact_across_wraps(0);
}

TEST(perf_view_reads_are_exact_across_wraps)
{
	view_reads_are_exact_across_wraps(1);
}

/* A set alone on the hub whose events each take one counter reads in one
 * pass (share_view_sum: its sums are the hub's totals in slot order; the
 * perf backend's 64-bit values without a mask): five events (the unrolled
 * four and one more), read every 1e6 s so that 48-bit counters wrap, a
 * reset (the sums' offsets), then a second set joining with one of the
 * events and one more (the union rebuilt with six counters: the first set
 * reads the general way again, and the hub must fold the sixth counter at
 * its reads too) counting its own interval. */
static void lone_set_reads_in_one_pass_exact_across_wraps(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b;
	/* stream.scn, per populated channel and second: 100 M read CAS, 50 M
	 * write CAS (37.5 M + 12.5 M), 100 M RPQ inserts, 25 M activates. */
	const char *ev[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			    "hswep_unc_imc0::UNC_M_CAS_COUNT:WR:socket=0",
			    "hswep_unc_imc0::UNC_M_RPQ_INSERTS:socket=0",
			    "hswep_unc_imc0::UNC_M_ACT_COUNT:RD:socket=0",
			    "hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=1"};
	const char *other[] = {"hswep_unc_imc0::UNC_M_RPQ_INSERTS:socket=0",
			       "hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0"};
	const uint64_t rate[5] = {100000000ull, 50000000ull, 100000000ull, 25000000ull,
				  100000000ull};
	const uint64_t secs = 1000000ull; /* per read: 1e14 read CAS, 2^48 = 2.8e14 */
	uint64_t va[5], vb[2];
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 5, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, other, 2, &b), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	for (uint64_t i = 1; i <= 5; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, secs * NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
		for (int k = 0; k < 5; k++)
			CHECK_EQ_U64(va[k], rate[k] * secs * i);
	}
	CHECK(va[0] > 1ull << 48); /* wrapped */
	CHECK_EQ_INT(uncore_set_reset(a.set), 0);
	/* (The simulator's clock ends near 1e16 ns: nine reads in all.) */
	for (uint64_t i = 1; i <= 4; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, secs * NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
		for (int k = 0; k < 5; k++)
			CHECK_EQ_U64(va[k], rate[k] * secs * i);
		if (i == 2)
			CHECK_EQ_INT(uncore_set_start(b.set), 0);
		if (i > 2) {
			CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
			CHECK_EQ_U64(vb[0], rate[2] * secs * (i - 2));
			CHECK_EQ_U64(vb[1], rate[0] * secs * (i - 2));
		}
	}
	CHECK_EQ_INT(uncore_set_stop(b.set, vb), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	for (int k = 0; k < 5; k++)
		CHECK_EQ_U64(va[k], rate[k] * secs * 4);
	CHECK_EQ_U64(vb[0], rate[2] * secs * 2);
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A set whose events the union counts in another order than the set's
 * (B's event came first: the set's second event is on the first counter)
 * reads each event's own count: its sums are not the totals in slot order,
 * so no one-pass read. */
static void a_set_in_another_order_reads_its_own_counts(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b;
	const char *eva[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			     "hswep_unc_imc0::UNC_M_ACT_COUNT:RD:socket=0"};
	const char *evb[] = {"hswep_unc_imc0::UNC_M_ACT_COUNT:RD:socket=0"};
	uint64_t va[2], vb[1];
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, evb, 1, &b), 0);
	CHECK_EQ_INT(view_set_open(hub, eva, 2, &a), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, vb), 0); /* A alone from here */
	for (uint64_t i = 1; i <= 3; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
		CHECK_EQ_U64(va[0], 100000000ull * i); /* stream.scn: read CAS */
		CHECK_EQ_U64(va[1], 25000000ull * i);  /* activates */
	}
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A set with a metric beside a raw event (its sums take the metric's
 * terms too: prepare_metric_sums) joining a hub whose counter another set
 * has counted on for a second: its raw count and its metric cover its own
 * second only, not the hub's two. */
static void a_metric_set_joining_later_counts_its_own_interval(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b;
	const char *eva[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};
	const char *evb[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			     "hswep_metric::DRAM_READ_BW:socket=0"};
	uint64_t va[1], vb[2];
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, eva, 1, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, evb, 2, &b), 0);
	uncore_set_clock(b.set, &sim_clock);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, va), 0);
	/* stream.scn: 100 M read CAS per channel per second, 64 bytes each. */
	unsigned channels = (unsigned)__builtin_popcount(e.topo.populated_imc);
	CHECK_EQ_U64(va[0], 200000000ull);
	CHECK_EQ_U64(vb[0], 100000000ull);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(b.set, 1, &info), 0);
	double gbs = 100e6 * 64 * channels / 1e9;
	CHECK_NEAR(uncore_set_value_double(&info, vb[1]), gbs, gbs * 1e-12);
	/* A reset restarts the set's sums from the hub's totals of now. */
	CHECK_EQ_INT(uncore_set_reset(b.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
	CHECK_EQ_U64(vb[0], 100000000ull);
	CHECK_NEAR(uncore_set_value_double(&info, vb[1]), gbs, gbs * 1e-12);
	/* An idle second: the rate (folded, src/metrics/README.md "Folding")
	 * covers the interval since the previous read, 0; the count runs on. */
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "idle"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
	CHECK_EQ_U64(vb[0], 100000000ull);
	CHECK_NEAR(uncore_set_value_double(&info, vb[1]), 0, 1e-12);
	CHECK_EQ_INT(uncore_set_stop(b.set, vb), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	CHECK_EQ_U64(vb[0], 100000000ull);
	CHECK_EQ_U64(va[0], 300000000ull); /* the idle second counted nothing */
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(direct_a_metric_set_joining_later_counts_its_own_interval)
{
	a_metric_set_joining_later_counts_its_own_interval(0);
}

TEST(perf_a_metric_set_joining_later_counts_its_own_interval)
{
	a_metric_set_joining_later_counts_its_own_interval(1);
}

TEST(direct_a_set_in_another_order_reads_its_own_counts)
{
	a_set_in_another_order_reads_its_own_counts(0);
}

TEST(perf_a_set_in_another_order_reads_its_own_counts)
{
	a_set_in_another_order_reads_its_own_counts(1);
}

TEST(direct_lone_set_reads_in_one_pass_exact_across_wraps)
{
	lone_set_reads_in_one_pass_exact_across_wraps(0);
}

TEST(perf_lone_set_reads_in_one_pass_exact_across_wraps)
{
	lone_set_reads_in_one_pass_exact_across_wraps(1);
}

/* The perf backend reads a lone set's one event group straight into the
 * hub's buffers (read_headroom): a group the kernel multiplexed (a quarter
 * of the time) is scaled there all the same, and its times are the
 * events' status. */
TEST(a_lone_multiplexed_group_read_in_place_is_scaled)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_unc_imc1::UNC_M_DCLOCKTICKS:socket=0",
			    "hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0"};
	uint64_t v[2];
	CHECK_EQ_INT(open_hub(&e, &hub, 1, "stream.scn"), 0);
	CHECK_EQ_INT(uncore_sim_perf_set_share(e.kernel, "uncore_imc_1", 1, 4), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &a), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	/* What the simulator counts (src/sim/SCENARIOS.md): after t ns the iMC
	 * has run floor(t f / 1e9) DRAM clocks and added floor(clocks R / f)
	 * read CAS (stream.scn: R = 100 M/s); the kernel counted a quarter of
	 * each (rounded down) over a quarter of the enabled time, which is a
	 * multiple of 4 ns: scaled back, 4 floor(n / 4). */
	const uint64_t hz = e.topo.clock_hz[HSWEP_CLK_DCLK];
	for (uint64_t i = 1; i <= 3; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 4 * MS), 0);
		CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
		uint64_t clocks = (uint64_t)((unsigned __int128)4 * MS * i * hz / 1000000000u);
		uint64_t cas = (uint64_t)((unsigned __int128)clocks * 100000000u / hz);
		CHECK_EQ_U64(v[0], clocks / 4 * 4);
		CHECK_EQ_U64(v[1], cas / 4 * 4);
	}
	struct uncore_event_status st;
	CHECK_EQ_INT(uncore_set_event_status(a.set, 0, &st), 0);
	CHECK_EQ_INT(st.scaled, 1);
	CHECK_EQ_U64(st.time_running * 4, st.time_enabled);
	CHECK_EQ_INT(uncore_set_stop(a.set, v), 0);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A persistent read fault on socket 0's MSRs (direct backend): the read
 * through the view fails, socket 1's UBox count stays exact and socket 0's
 * is its count as of the last good read (the slot went unread, backend.h);
 * once the fault is gone the next read folds what was missed (less than a
 * wrap) and both are exact again. */
TEST(a_fault_on_one_socket_costs_a_view_only_that_socket)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0",
			    "hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=1"};
	uint64_t v[2];
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "hswep-clocks.scn"), 0);
	uint64_t per_ms = e.topo.clock_hz[0] / 1000;
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &a), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	CHECK_EQ_U64(v[0], per_ms);
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_MSR,
				     .op = UNCORE_SIM_OP_READ,
				     .socket = 0,
				     .bdf = -1,
				     .addr = -1,
				     .nth = 1,
				     .count = 0,
				     .error = EIO};
	CHECK_EQ_INT(uncore_sim_inject_fault(e.sim, &f), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), uncore_error_from_errno(EIO));
	CHECK_EQ_U64(v[0], per_ms);
	CHECK_EQ_U64(v[1], 2 * per_ms);
	CHECK_EQ_INT(uncore_sim_clear_faults(e.sim), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	CHECK_EQ_U64(v[0], 3 * per_ms);
	CHECK_EQ_U64(v[1], 3 * per_ms);
	CHECK_EQ_INT(uncore_set_stop(a.set, v), 0);
	CHECK_EQ_U64(v[0], 3 * per_ms);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A set stops (its event, counted on B's counter, stays in the programmed
 * union until the next rebuild), then a set that cannot fit is refused:
 * the refusal drops the events nobody uses, but not that one, which the
 * hub's folds still write (ASan: no use after free), and B stays exact. */
TEST(a_refused_set_frees_nothing_the_union_still_counts)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b, c;
	const char *evb[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD"};
	const char *eva[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};
	const char *full[] = {"hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=1:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=2:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=3:socket=0",
			      "hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=4:socket=0"};
	const char *more[] = {"hswep_unc_cbo0::UNC_C_CLOCKTICKS:t=5:socket=0"};
	struct view_set d;
	uint64_t va[1], vb[1];
	const uint64_t per_s = 100000000ull; /* stream.scn: 100 M/s per channel */
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, evb, 1, &b), 0);
	CHECK_EQ_INT(view_set_open(hub, eva, 1, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, full, 4, &c), 0);
	CHECK_EQ_INT(view_set_open(hub, more, 1, &d), 0);
	CHECK_EQ_INT(uncore_set_start(d.set), 0); /* C's four cannot fit next to it */
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0); /* socket 0: B's counter */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	CHECK_EQ_U64(va[0], per_s);
	CHECK_EQ_INT(uncore_set_start(c.set), UNCORE_ECONFLICT);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(b.set, vb), 0);
	CHECK_EQ_U64(vb[0], 2 * 2 * per_s);
	CHECK_EQ_INT(uncore_set_start(a.set), 0); /* the union is rebuilt */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, va), 0);
	CHECK_EQ_U64(va[0], per_s);
	CHECK_EQ_INT(uncore_set_stop(b.set, vb), 0);
	CHECK_EQ_U64(vb[0], 3 * 2 * per_s);
	view_set_close(&a);
	view_set_close(&b);
	view_set_close(&c);
	view_set_close(&d);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* Two sets counting the same event with different filter values (the
 * CBo's state filter, FILTER0 bits 23:17) are not the same counting: one
 * CBo has one filter register, so while one set counts, the other is
 * refused with the conflict named (never handed the first one's counts),
 * and counts its own once the first stops.  llc.scn gives every CBo 10 M
 * data-read lookups a second that find the line in M and 4 M that miss
 * (I): in 1 ms, CBo 0 of socket 0 counts 10,000 and 4,000. */
static void same_event_different_filters_count_apart(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set m, i;
	const char *evm[] = {"hswep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0"};
	const char *evi[] = {"hswep_unc_cbo0::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I:socket=0"};
	uint64_t vm[1], vi[1];
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "llc.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, evm, 1, &m), 0);
	CHECK_EQ_INT(view_set_open(hub, evi, 1, &i), 0);
	CHECK_EQ_INT(uncore_set_start(m.set), 0);
	CHECK_EQ_INT(uncore_set_start(i.set), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "STATE_I");
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(m.set, vm), 0);
	CHECK_EQ_U64(vm[0], 10000);
	CHECK_EQ_INT(uncore_set_start(i.set), 0);
	CHECK_EQ_INT(uncore_set_start(m.set), UNCORE_ECONFLICT);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(i.set, vi), 0);
	CHECK_EQ_U64(vi[0], 4000);
	view_set_close(&m);
	view_set_close(&i);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(direct_same_event_different_filters_count_apart)
{
	same_event_different_filters_count_apart(0);
}

TEST(perf_same_event_different_filters_count_apart)
{
	same_event_different_filters_count_apart(1);
}

/* Start `set` (socket 0's DRAM_READ_BW on stream.scn: 100 M read CAS/s per
 * channel), read it after each of `n` milliseconds, each read's rate
 * within `tol` (relative) of the scenario's, and stop it. */
static void reads_each_ms_at_the_rate(struct sim_set *e, struct uncore_set *set, int n, double tol)
{
	uint64_t v[1];
	unsigned channels = (unsigned)__builtin_popcount(e->topo.populated_imc);
	double gbs = 100e6 * 64 * channels / 1e9;
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(set, 0, &info), 0);
	CHECK_EQ_INT(uncore_set_start(set), 0);
	for (int i = 0; i < n; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e->sim, MS), 0);
		CHECK_EQ_INT(uncore_set_read(set, v), 0);
		CHECK_NEAR(uncore_set_value_double(&info, v[0]), gbs, gbs * tol);
	}
	CHECK_EQ_INT(uncore_set_stop(set, v), 0);
}

/* A metric's time through shared counters is counting time: the span a
 * read freezes the counters for is left out of it, the freeze and thaw
 * instants taken by the backend next to those writes (issue 27; backend.h,
 * read_now).  Every register access takes 1 us of virtual time, so a read
 * of socket 0's 4 channels is frozen for some 10 us: counted as counting
 * time, each 1 ms interval's rate would be about 1 % low. */
TEST(a_frozen_read_is_left_out_of_a_metrics_time)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_metric::DRAM_READ_BW:socket=0"};
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 1, &a), 0);
	uncore_set_clock(a.set, &sim_clock);
	CHECK_EQ_INT(uncore_sim_set_access_ns(e.sim, 1000), 0);
	reads_each_ms_at_the_rate(&e, a.set, 5, 0.003);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A rate beside its amount form through shared counters (both folded, read
 * by uncore_set_eval_linear, not the flat list): the rate covers the
 * interval since the previous read, 0 over an idle second; the amount runs
 * since start. */
TEST(a_rate_beside_its_amount_covers_its_own_interval)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_metric::DRAM_READ_BW:socket=0",
			    "hswep_metric::DRAM_READ_BW:socket=0:amount"};
	uint64_t v[2];
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &a), 0);
	uncore_set_clock(a.set, &sim_clock);
	unsigned channels = (unsigned)__builtin_popcount(e.topo.populated_imc);
	double gbs = 100e6 * 64 * channels / 1e9;
	struct uncore_set_entry_info rate, amount;
	CHECK_EQ_INT(uncore_set_entry_info(a.set, 0, &rate), 0);
	CHECK_EQ_INT(uncore_set_entry_info(a.set, 1, &amount), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	CHECK_NEAR(uncore_set_value_double(&rate, v[0]), gbs, gbs * 1e-12);
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "idle"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	CHECK_NEAR(uncore_set_value_double(&rate, v[0]), 0, 1e-12);
	CHECK_NEAR(uncore_set_value_double(&amount, v[1]), gbs, gbs * 1e-12);
	CHECK_EQ_INT(uncore_set_stop(a.set, v), 0);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A clock that lets the simulator run `preempt_ns` before each reading, as
 * a reader preempted just before each of its clock readings would see it. */
static uint64_t preempt_ns;
static struct uncore_sim *preempt_sim;
static int preempted_now(void *ctx, uint64_t *ns)
{
	(void)ctx;
	if (uncore_sim_advance(preempt_sim, preempt_ns) < 0)
		return -1;
	return sim_clock.now_ns(sim_clock.ctx, ns);
}

/* A set's first read takes over the counters' start reading (the hub's
 * fresh reading): its origin is that reading's instant, not that of its
 * own clock readings after it (issue 27: uncore-stat's first interval on
 * the perf backend was 3-30 % high under load, the counts of a preemption
 * between the start and the set's first read counted before its origin).
 * Every clock reading here lets 20 us pass first, 2 % of an interval, some
 * of them between the start reading and the set's first read.  On the
 * perf backend: its reads do not freeze (the direct backend's frozen reads
 * take their instants next to their writes, where a clock that runs at its
 * own readings would move counts against time). */
static void a_preempted_start_counts_from_its_reading(int perf)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_metric::DRAM_READ_BW:socket=0"};
	CHECK_EQ_INT(open_hub(&e, &hub, perf, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 1, &a), 0);
	struct uncore_clock clock = sim_clock;
	clock.now_ns = preempted_now;
	preempt_sim = e.sim;
	preempt_ns = 20000;
	uncore_share_set_clock(hub, &clock);
	uncore_set_clock(a.set, &clock);
	reads_each_ms_at_the_rate(&e, a.set, 3, 0.002);
	preempt_ns = 0;
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(perf_a_preempted_start_counts_from_its_reading)
{
	a_preempted_start_counts_from_its_reading(1);
}

/* A set of integer forms only (its own flat list, set_internal.h
 * flat_kind) through shared counters: each read is the interval's rate
 * rounded to an integer of the form's unit (MB/s), 0 over an idle second. */
TEST(an_int_form_alone_reads_its_rounded_rate)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_metric::DRAM_READ_BW:socket=0:int"};
	uint64_t v[1];
	int64_t got;
	CHECK_EQ_INT(open_hub(&e, &hub, 0, "stream.scn"), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 1, &a), 0);
	uncore_set_clock(a.set, &sim_clock);
	unsigned channels = (unsigned)__builtin_popcount(e.topo.populated_imc);
	int64_t mbs = 6400 * (int64_t)channels; /* 100 M read CAS/s x 64 B per channel */
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(a.set, 0, &info), 0);
	CHECK(info.metric && info.integer);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	memcpy(&got, &v[0], sizeof(got));
	CHECK(got == mbs);
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "idle"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, v), 0);
	memcpy(&got, &v[0], sizeof(got));
	CHECK(got == 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, v), 0);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

int main(void)
{
	RUN(direct_identical_events_share_and_count_their_own_interval);
	RUN(perf_identical_events_share_and_count_their_own_interval);
	RUN(a_set_that_cannot_fit_is_refused_naming_the_events);
	RUN(threads_keep_counting_while_the_creator_lets_go);
	RUN(direct_view_reads_are_exact_across_wraps);
	RUN(perf_view_reads_are_exact_across_wraps);
	RUN(direct_lone_set_reads_in_one_pass_exact_across_wraps);
	RUN(perf_lone_set_reads_in_one_pass_exact_across_wraps);
	RUN(direct_a_metric_set_joining_later_counts_its_own_interval);
	RUN(perf_a_metric_set_joining_later_counts_its_own_interval);
	RUN(direct_a_set_in_another_order_reads_its_own_counts);
	RUN(perf_a_set_in_another_order_reads_its_own_counts);
	RUN(a_lone_multiplexed_group_read_in_place_is_scaled);
	RUN(a_fault_on_one_socket_costs_a_view_only_that_socket);
	RUN(a_refused_set_frees_nothing_the_union_still_counts);
	RUN(direct_same_event_different_filters_count_apart);
	RUN(perf_same_event_different_filters_count_apart);
	RUN(a_frozen_read_is_left_out_of_a_metrics_time);
	RUN(a_rate_beside_its_amount_covers_its_own_interval);
	RUN(perf_a_preempted_start_counts_from_its_reading);
	RUN(an_int_form_alone_reads_its_rounded_rate);
	return harness_done();
}
