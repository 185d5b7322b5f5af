/* Metrics in event sets on the simulator, in virtual time: a whole node's
 * DRAM bandwidth as one entry, per socket, with raw events beside it;
 * terms spread over CBos (LLC miss ratio) and time-multiplexed settings of
 * one QPI port (writebacks), exact for constant rates and within the
 * documented bound for a varying one; clear errors for what a machine or
 * platform lacks. */
#include "common/uncore_error.h"
#include "harness.h"
#include "metrics/metrics.h"
#include "sim_set.h"
#include "sim_texts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9 /* metrics/{nhm,skl,hswep}.metrics: const GB = 10^9 */

static unsigned popcount32(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

TEST(node_dram_bandwidth_is_one_event)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::DRAM_READ_BW",
			       "hswep_metric::DRAM_WRITE_BW",
			       "hswep_metric::DRAM_BW",
			       "hswep_metric::DRAM_BW:socket=1",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
			       "hswep_unc_imc::MEM_BW_TOTAL"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 6), 0);
	uint64_t v[6];
	double channels = popcount32(e.topo.populated_imc);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	/* stream.scn: 100 M read CAS and 50 M write CAS per channel per second,
	 * 64 bytes each (2.6.6 MEM_BW_*), over one second (a whole number of
	 * DRAM clocks, so the counts are exact: SCENARIOS.md). */
	double rd = 100e6 * 64 * channels * 2 / GB, wr = 50e6 * 64 * channels * 2 / GB;
	CHECK_NEAR(sim_set_value(&e, v, 0), rd, rd * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), wr, wr * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 2), rd + wr, (rd + wr) * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 3), (rd + wr) / 2, rd * 1e-12);
	CHECK_EQ_U64(v[4], (uint64_t)(100000000 * channels * 2));
	CHECK_NEAR(sim_set_value(&e, v, 5), (100e6 + 50e6) * 64 * channels * 2, 1);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_EQ_INT(info.metric, 1);
	CHECK_EQ_STR(info.units, "GB/s");
	CHECK_CONTAINS(info.method, "exact");
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 4, &info), 0);
	CHECK_EQ_INT(info.metric, 0);
	/* Stopped: the values stay. */
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	uint64_t again[6];
	CHECK_EQ_INT(uncore_set_read(e.set, again), 0);
	CHECK_NEAR(sim_set_value(&e, again, 0), rd, rd * 1e-12);
	sim_set_close(&e);
}

TEST(llc_miss_ratio_spread_over_cbos_is_exact)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "llc.scn", NULL), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::LLC_MISS_RATIO",
			       "hswep_unc_cbo::LLC_DRD_MISS_PCT:socket=0"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 2), 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_CONTAINS(info.method, "spread");
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 10), 0);
	uint64_t v[2];
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	/* llc.scn: data-read lookups per CBo and second: I 4 M of 40 M. */
	CHECK_NEAR(sim_set_value(&e, v, 0), 0.1, 1e-15);
	CHECK_NEAR(sim_set_value(&e, v, 1), 0.1, 1e-15);
	sim_set_close(&e);
}

static const char wb_constant[] = SIM_TEXT_QPI_WRITEBACKS;

TEST(multiplexed_qpi_writebacks_are_exact_for_constant_rates)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, wb_constant), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI",
			       "hswep_unc_qpi::UNC_Q_CLOCKTICKS:socket=0"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 2), 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_CONTAINS(info.method, "time-multiplexed");
	CHECK_EQ_INT(info.nsettings, 3);
	uint64_t v[2];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	/* Before every setting has run, the value is not known. */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 100), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK(isnan(sim_set_value(&e, v, 0)));
	for (int i = 0; i < 5; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 100), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	}
	/* 60 ms: 60 M writeback packets per second of 64 bytes. */
	CHECK_NEAR(sim_set_value(&e, v, 0), 60e6 * 0.06 * 64, 1e-3);
	/* The raw event beside it counts all the time: QFCLK 1.2 GHz, 60 ms. */
	CHECK_EQ_U64(v[1], 1200000000ull * 6 / 100 * 2);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), 60e6 * 0.06 * 64, 1e-3);
	sim_set_close(&e);
}

TEST(multiplexed_error_stays_within_the_documented_bound)
{
	/* WbI arrives only during the first 5 ms: its rate varies, the others'
	 * do not.  Bound (README, method text): a term's error is at most
	 * (highest - lowest rate between reads) x time its setting was off. */
	static const char text[] =
	    "include hswep-clocks.scn\n"
	    "include hswep-shapes.scn\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x4 rate=30M/s stop=5ms\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x5 rate=20M/s\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x6 rate=10M/s\n";
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, text), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 1), 0);
	uint64_t v;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 2 * NS_PER_S / 1000), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	}
	double got = sim_set_value(&e, &v, 0);
	double truth = (30e6 * 0.005 + 20e6 * 0.012 + 10e6 * 0.012) * 64;
	/* WbI's setting ran 4 ms of 12; its rate went between 0 and 30 M/s. */
	double bound = 30e6 * 0.008 * 64;
	CHECK(fabs(got - truth) <= bound);
	CHECK(fabs(got - truth) > 0); /* a real estimate, not the truth by luck */
	uncore_set_stop(e.set, NULL);
	sim_set_close(&e);
}

TEST(whole_node_and_per_socket_qpi_and_io)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "pcie-io.scn", NULL), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::IO_READ_BW", "hswep_metric::IO_WRITE_BW",
			       "hswep_metric::IO_READ_BW:socket=1",
			       "hswep_unc_cbo::PCI_READS:socket=0"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 4), 0);
	uint64_t v[4];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 10), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	/* pcie-io.scn, socket 0, per CBo and second: 10 M ItoM from the IIO
	 * (IO read, 2.3.5) and 20 M PCIRdCur (IO write); 18 CBos; 0.1 s. */
	double cbos = 18;
	CHECK_NEAR(sim_set_value(&e, v, 0), 10e6 * cbos * 64 / GB, 1e-9);
	CHECK_NEAR(sim_set_value(&e, v, 1), 20e6 * cbos * 64 / GB, 1e-9);
	CHECK_NEAR(sim_set_value(&e, v, 2), 0, 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 3), 20e6 * cbos * 0.1, 1e-3);
	sim_set_close(&e);
}

TEST(what_a_machine_or_platform_lacks_is_a_clear_error)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, NULL), 0);
	if (!e.set)
		return;
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_metric::DRAM_BW:socket=2", &idx), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "socket=2");
	CHECK_EQ_INT(uncore_set_add(e.set, "skl_metric::DRAM_BW", &idx), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "metric of skl");
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_pcu::PCT_CYC_FREQ_CURRENT_LTD", &idx),
		     UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "FREQ_MAX_CURRENT_CYCLES");
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_metric::NO_SUCH_METRIC", &idx), UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_metric::DRAM_BW:bogus=1", &idx), UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_set_count(e.set), 0);
	sim_set_close(&e);
	/* QPI port 1's PMON is hidden on this model: one port is counted;
	 * :box=1 of the QPI metrics names a box the machine lacks. */
	CHECK_EQ_INT(sim_set_open(&e, "e5-2620v3-2s", NULL, NULL), 0);
	if (!e.set)
		return;
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_qpi::QPI_LINK_UTIL:box=1", &idx),
		     UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "hswep_unc_qpi");
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_qpi::QPI_LINK_UTIL:box=0", &idx), 0);
	sim_set_close(&e);
}

TEST(interval_values_with_a_reset_every_k_reads)
{
	/* uncore-stat -I (src/metrics/README.md): with K settings, read every
	 * interval/K, print and reset at every K-th read: each printed value
	 * covers one interval with every setting active once. */
	static const char text[] =
	    "include hswep-clocks.scn\n"
	    "include hswep-shapes.scn\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x4 rate=30M/s stop=6ms\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x5 rate=20M/s\n"
	    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x6 rate=10M/s\n";
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, text), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 1), 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	unsigned k = info.nsettings;
	CHECK_EQ_INT(k, 3);
	uint64_t v;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	/* Intervals of 3 ms: WbI stops at 6 ms, so the third interval lacks it. */
	double want[3] = {60e6 * 0.003 * 64, 60e6 * 0.003 * 64, 30e6 * 0.003 * 64};
	for (int interval = 0; interval < 3; interval++) {
		for (unsigned r = 0; r < k; r++) {
			CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 1000), 0);
			CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
		}
		CHECK_NEAR(sim_set_value(&e, &v, 0), want[interval], 1e-3);
		CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	}
	uncore_set_stop(e.set, NULL);
	sim_set_close(&e);
}

TEST(group_mem_per_socket_and_total_as_uncore_stat_adds_it)
{
	/* src/metrics/README.md: -g GROUP adds every member for the node and
	 * with :socket=S for each socket, to one set. */
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set)
		return;
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(e.be->machine.plat, &cat), 0);
	const struct uncore_metric_group *g = uncore_metric_group_find(cat, "mem");
	CHECK(g != NULL);
	if (!g) {
		sim_set_close(&e);
		return;
	}
	unsigned sockets = e.be->machine.nsockets, n = 0;
	char names[64][160];
	const char *list[64];
	for (unsigned m = 0; m < g->nmembers; m++) {
		for (unsigned s = 0; s <= sockets && n < 64; s++) {
			if (s == sockets)
				snprintf(names[n], sizeof(names[n]), "%s", g->members[m]);
			else
				snprintf(names[n], sizeof(names[n]), "%s:socket=%u", g->members[m],
					 s);
			list[n] = names[n];
			n++;
		}
	}
	CHECK_EQ_INT(sim_set_assign(&e, list, n), 0);
	uint64_t v[64];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	/* stream.scn: per socket 8 channels x 6.4 GB read and 3.2 GB written
	 * (10^9 bytes) per second; GB/s are 10^9 bytes/s (metrics/hswep.metrics). */
	double rd = 8 * 6.4e9 / GB, wr = 8 * 3.2e9 / GB;
	double want[3] = {rd, wr, rd + wr};
	for (unsigned m = 0; m < 3; m++) {
		CHECK_EQ_STR(g->members[m], m == 0   ? "hswep_metric::DRAM_READ_BW"
					    : m == 1 ? "hswep_metric::DRAM_WRITE_BW"
						     : "hswep_metric::DRAM_BW");
		for (unsigned s = 0; s <= sockets; s++) {
			double w = s == sockets ? want[m] * sockets : want[m];
			CHECK_NEAR(sim_set_value(&e, v, m * (sockets + 1) + s), w, w * 1e-12);
		}
	}
	sim_set_close(&e);
}

/* src/metrics/README.md, "What a read returns": a rate covers the interval
 * since the previous read, amounts and the amount form run since start or
 * reset, the poller's fold-only reads close no interval, a second read at
 * the same instant repeats the first, and both backends agree. */
static void interval_reading(int perf)
{
	struct sim_set e;
	int rc = perf ? sim_set_open_perf(&e, "e5-2699v3-2s", "stream.scn", NULL)
		      : sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL);
	CHECK_EQ_INT(rc, 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::DRAM_BW", "hswep_metric::DRAM_BW:amount",
			       "hswep_unc_imc::MEM_BW_TOTAL", "hswep_metric::COUNTING_TIME",
			       "hswep_metric::DRAM_BW:socket=1:int"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 5), 0);
	struct uncore_set_entry_info info;
	const int running[] = {0, 1, 1, 1, 0};
	for (unsigned i = 0; i < 5; i++) {
		CHECK_EQ_INT(uncore_set_entry_info(e.set, i, &info), 0);
		CHECK_EQ_INT(info.running_sum, running[i]);
	}
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 1, &info), 0);
	CHECK_EQ_STR(info.units, "GB");
	double channels = popcount32(e.topo.populated_imc);
	double bw = (100e6 + 50e6) * 64 * channels * 2 / GB; /* GB/s of stream.scn */
	uint64_t v[5];
	int64_t s1;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	/* 1 s of stream. */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 3), 1e9, 1);
	memcpy(&s1, &v[4], sizeof(s1));
	CHECK_EQ_U64((uint64_t)s1, (uint64_t)(bw * 1000 / 2 + 0.5));
	/* 1 s more of stream, a poller's read, 1 s idle: the rate of the 2 s. */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_poll(e.set, v), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "idle"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw / 2, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), 2 * bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 2), 2 * bw * GB, 1);
	CHECK_NEAR(sim_set_value(&e, v, 3), 3e9, 1);
	/* 1 s idle: 0. */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), 0, 1e-12);
	/* 1 s of stream, read twice at the same instant: the same values. */
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "stream"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	/* Reset: everything from zero. */
	CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 3), 1e9, 1);
	uncore_set_stop(e.set, NULL);
	sim_set_close(&e);
}

TEST(a_rate_covers_the_interval_since_the_previous_read)
{
	interval_reading(0);
}

TEST(a_rate_covers_the_interval_since_the_previous_read_perf)
{
	interval_reading(1);
}

/* ":run": the metric over the whole time since start or reset, however
 * often the set is read (a tool's whole-run value of a rate or ratio that
 * it also reads per interval); absolute, not a running sum. */
TEST(the_run_form_covers_the_time_since_start)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::DRAM_BW", "hswep_metric::DRAM_BW:run",
			       "hswep_metric::DRAM_BW:socket=1:run"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 3), 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 1, &info), 0);
	CHECK_EQ_INT(info.running_sum, 0);
	CHECK_EQ_STR(info.units, "GB/s");
	double channels = popcount32(e.topo.populated_imc);
	double bw = (100e6 + 50e6) * 64 * channels * 2 / GB; /* GB/s of stream.scn */
	uint64_t v[3];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 2), bw / 2, bw * 1e-12);
	/* 1 s idle: the interval's rate is 0, the run's half the stream's. */
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "idle"), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), 0, 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw / 2, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 2), bw / 4, bw * 1e-12);
	/* From a reset on: the time since the reset. */
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "stream"), 0);
	CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw, bw * 1e-12);
	uncore_set_stop(e.set, NULL);
	sim_set_close(&e);
	/* The amount form already runs since start: not both. */
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set)
		return;
	const char *both[] = {"hswep_metric::DRAM_BW:run:amount"};
	CHECK(sim_set_assign(&e, both, 1) != 0);
	CHECK_CONTAINS(uncore_error_detail(), ":run and :amount together");
	sim_set_close(&e);
}

int main(void)
{
	RUN(node_dram_bandwidth_is_one_event);
	RUN(llc_miss_ratio_spread_over_cbos_is_exact);
	RUN(multiplexed_qpi_writebacks_are_exact_for_constant_rates);
	RUN(multiplexed_error_stays_within_the_documented_bound);
	RUN(whole_node_and_per_socket_qpi_and_io);
	RUN(what_a_machine_or_platform_lacks_is_a_clear_error);
	RUN(interval_values_with_a_reset_every_k_reads);
	RUN(group_mem_per_socket_and_total_as_uncore_stat_adds_it);
	RUN(a_rate_covers_the_interval_since_the_previous_read);
	RUN(a_rate_covers_the_interval_since_the_previous_read_perf);
	RUN(the_run_form_covers_the_time_since_start);
	return harness_done();
}
