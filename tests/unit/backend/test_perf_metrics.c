/* Metrics and kernel events together through the perf backend, on the
 * simulator behind the simulated kernel, in virtual time: metrics compile
 * onto the perf backend's platform (tables plus kernel PMUs) and count
 * exactly next to kernel aliases and msr::tsc; time-multiplexed terms
 * reopen the kernel's groups at each setting without losing counts; the
 * kernel's own multiplexing is reported per entry, for a metric through its
 * terms and summed over the settings; native codes list table events,
 * metrics and kernel events in that order. */
#include "common/uncore_error.h"
#include "eventset/native.h"
#include "eventset/poller.h"
#include "harness.h"
#include "simkernel/uncore_sim_perf.h"
#include "sim_set.h"
#include "sim_texts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB        1e9 /* metrics/hswep.metrics: const GB = 10^9 */
#define NS_PER_MS 1000000ull

static unsigned popcount32(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

/* stream.scn: 100 M read CAS and 50 M write CAS per channel per second. */
TEST(metrics_count_exactly_next_to_kernel_events)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open_perf(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set) {
		sim_set_close(&e);
		return;
	}
	const char *names[] = {"hswep_metric::DRAM_BW",
			       "hswep_metric::DRAM_BW:socket=1",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
			       "uncore_imc::cas_count_read",
			       "msr::tsc:socket=0",
			       "hswep_unc_imc::MEM_BW_TOTAL"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 6), 0);
	double channels = popcount32(e.topo.populated_imc);
	uint64_t v[6];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	double bw = (100e6 + 50e6) * 64 * channels * 2 / GB;
	CHECK_NEAR(sim_set_value(&e, v, 0), bw, bw * 1e-12);
	CHECK_NEAR(sim_set_value(&e, v, 1), bw / 2, bw * 1e-12);
	CHECK_EQ_U64(v[2], (uint64_t)(100000000 * channels * 2));
	CHECK_EQ_U64(v[3], v[2]); /* the kernel's alias of the same counter */
	CHECK_EQ_U64(v[4], e.topo.clock_hz[HSWEP_CLK_TSC]);
	CHECK_NEAR(sim_set_value(&e, v, 5), (100e6 + 50e6) * 64 * channels * 2, 1);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_EQ_INT(info.metric, 1);
	CHECK_EQ_STR(info.units, "GB/s");
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 3, &info), 0);
	CHECK_EQ_INT(info.metric, 0);
	for (unsigned i = 0; i < 6; i++) {
		struct uncore_event_status st;
		CHECK_EQ_INT(uncore_set_event_status(e.set, i, &st), 0);
		CHECK_EQ_INT(st.scaled, 0);
		CHECK_EQ_U64(st.time_enabled, NS_PER_S);
	}
	CHECK_EQ_INT(uncore_set_any_scaled(e.set), 0);
	/* The read's one-load test says so too (nothing to look at). */
	CHECK_EQ_INT(*uncore_set_scaled_hint(e.set), 0);
	/* 64-bit kernel counts never wrap: no background poller is needed. */
	uint64_t safe = 0, period = 1;
	CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &safe), 0);
	CHECK_EQ_U64(safe, UINT64_MAX);
	CHECK_EQ_INT(uncore_poller_period(e.set, NULL, &period), 0);
	CHECK_EQ_U64(period, 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	struct uncore_sim_perf_stats ks;
	uncore_sim_perf_stats(e.kernel, &ks);
	CHECK_EQ_INT(ks.open_fds, 0);
	sim_set_close(&e);
}

/* Three settings of one QPI port (the writebacks of sim_texts.h) with a
 * kernel event and a raw event that count all the time. */
static const char wb_constant[] = SIM_TEXT_QPI_WRITEBACKS;

/* QPI packet matching (HARDWARE-DECISIONS.md H14): the same DRS DataC_M
 * pattern received (50 M/s) and transmitted (20 M/s) on port 0.  The kernel
 * programs the Rx matcher only, so CTO_COUNT and DRS_M_FROM_QPI count the
 * received packets; the direct backend must count the same, not the 70 M/s
 * a pattern in the Tx matcher too would give. */
static const char rx_and_tx[] =
    "include hswep-clocks.scn\n"
    "include hswep-shapes.scn\n"
    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0 rds=8 dnid=0 rate=50M/s\n"
    "stream qpi[0] socket=0 ev=0x38 ext=1 dir=tx mc=0xe popc=0 rds=8 dnid=0 rate=20M/s\n";

TEST(qpi_matching_counts_received_packets_on_both_backends)
{
	for (int perf = 0; perf < 2; perf++) {
		struct sim_set e;
		int rc = perf ? sim_set_open_perf(&e, "e5-2699v3-2s", NULL, rx_and_tx)
			      : sim_set_open(&e, "e5-2699v3-2s", NULL, rx_and_tx);
		CHECK_EQ_INT(rc, 0);
		if (!e.set) {
			sim_set_close(&e);
			continue;
		}
		harness_row = perf ? "perf" : "direct";
		const char *names[] = {"hswep_unc_qpi0::UNC_Q_CTO_COUNT:DRS_DATAC_M:socket=0",
				       "hswep_unc_qpi::DRS_M_FROM_QPI"};
		CHECK_EQ_INT(sim_set_assign(&e, names, 2), 0);
		uint64_t v[2];
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], 500000); /* 50 M/s received, 10 ms */
		CHECK_NEAR(sim_set_value(&e, v, 1), 500000.0 * 64, 1e-3); /* bytes, every port */
		harness_row = NULL;
		sim_set_close(&e);
	}
	/* Three ports: the kernel has no mask/match device for port 2, so
	 * CTO_COUNT matching there is refused on perf, by name or summed,
	 * and ports 0 and 1 count (H14). */
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open_perf(&e, "e7-8890v3-4s", NULL, rx_and_tx), 0);
	if (e.set) {
		unsigned idx;
		CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_qpi::UNC_Q_CTO_COUNT:DRS_DATAC_M", &idx),
			     UNCORE_ENOSUPP);
		CHECK_CONTAINS(uncore_error_detail(), "no mask/match function for port 2");
		CHECK_EQ_INT(
		    uncore_set_add(e.set, "hswep_unc_qpi2::UNC_Q_CTO_COUNT:DRS_DATAC_M:socket=0", &idx),
		    UNCORE_ENOSUPP);
		CHECK_EQ_INT(
		    uncore_set_add(e.set, "hswep_unc_qpi1::UNC_Q_CTO_COUNT:DRS_DATAC_M:socket=0", &idx),
		    0);
		/* A metric sums every port: refused when its terms are programmed. */
		struct uncore_set *m = NULL;
		CHECK_EQ_INT(uncore_set_create(e.be, &m), 0);
		const char *metric[] = {"hswep_unc_qpi::DRS_M_FROM_QPI"};
		int rc = uncore_set_assign(m, metric, 1);
		if (rc == 0)
			rc = uncore_set_start(m);
		CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
		CHECK_CONTAINS(uncore_error_detail(), "port 2");
		uncore_set_destroy(m);
	}
	sim_set_close(&e);
}

TEST(time_multiplexed_terms_reopen_the_kernel_groups_without_loss)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open_perf(&e, "e5-2699v3-2s", NULL, wb_constant), 0);
	if (!e.set) {
		sim_set_close(&e);
		return;
	}
	const char *names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI",
			       "hswep_unc_qpi::UNC_Q_CLOCKTICKS:socket=0", "msr::tsc:socket=0"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 3), 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_EQ_INT(info.nsettings, 3);
	struct uncore_sim_perf_stats before, after;
	uint64_t v[3];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	uncore_sim_perf_stats(e.kernel, &before);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	}
	uncore_sim_perf_stats(e.kernel, &after);
	CHECK(after.open > before.open); /* every setting is a new program */
	CHECK_NEAR(sim_set_value(&e, v, 0), 60e6 * 0.06 * 64, 1e-3);
	CHECK_EQ_U64(v[1], 1200000000ull * 6 / 100 * 2);
	CHECK_EQ_U64(v[2], e.topo.clock_hz[HSWEP_CLK_TSC] * 6 / 100);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_NEAR(sim_set_value(&e, v, 0), 60e6 * 0.06 * 64, 1e-3);
	CHECK_EQ_U64(v[2], e.topo.clock_hz[HSWEP_CLK_TSC] * 6 / 100);
	uncore_sim_perf_stats(e.kernel, &after);
	CHECK_EQ_INT(after.open_fds, 0);
	sim_set_close(&e);
}

TEST(kernel_multiplexing_is_reported_per_entry_and_over_settings)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open_perf(&e, "e5-2699v3-2s", NULL, wb_constant), 0);
	if (!e.set) {
		sim_set_close(&e);
		return;
	}
	/* The kernel gives uncore_imc_0 and uncore_qpi_0 half of the time. */
	CHECK_EQ_INT(uncore_sim_perf_set_share(e.kernel, "uncore_imc_0", 1, 2), 0);
	CHECK_EQ_INT(uncore_sim_perf_set_share(e.kernel, "uncore_qpi_0", 1, 2), 0);
	const char *names[] = {"hswep_metric::DRAM_BW",
			       "hswep_unc_imc1::UNC_M_DCLOCKTICKS:socket=0",
			       "hswep_unc_qpi::DRS_WB_FROM_QPI", "msr::tsc:socket=0",
			       "hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0"};
	CHECK_EQ_INT(sim_set_assign(&e, names, 5), 0);
	uint64_t v[5];
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	}
	/* Scaled back: the clock of the multiplexed IMC as the other's, but
	 * for the rounding of the kernel's scaling (count x enabled / running,
	 * in integers), once per setting: each setting is a new program. */
	CHECK(v[4] <= v[1] && v[1] - v[4] <= 6 * 2);
	CHECK(v[1] > 0);
	struct uncore_event_status st;
	/* A metric whose terms include uncore_imc_0's: half of the 60 ms. */
	CHECK_EQ_INT(uncore_set_event_status(e.set, 0, &st), 0);
	CHECK_EQ_INT(st.scaled, 1);
	CHECK_EQ_U64(st.time_enabled, 60 * NS_PER_MS);
	CHECK_EQ_U64(st.time_running, 30 * NS_PER_MS);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 1, &st), 0);
	CHECK_EQ_INT(st.scaled, 0);
	CHECK_EQ_U64(st.time_running, 60 * NS_PER_MS);
	/* Time-multiplexed terms: each setting ran 2 x 10 ms, half of it
	 * counted by the kernel. */
	CHECK_EQ_INT(uncore_set_event_status(e.set, 2, &st), 0);
	CHECK_EQ_INT(st.scaled, 1);
	CHECK_EQ_U64(st.time_enabled, 20 * NS_PER_MS);
	CHECK_EQ_U64(st.time_running, 10 * NS_PER_MS);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 3, &st), 0);
	CHECK_EQ_INT(st.scaled, 0);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 5, &st), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_set_any_scaled(e.set), 1);
	/* The component tests this flag before asking: never 0 when there is
	 * something to note. */
	CHECK(*uncore_set_scaled_hint(e.set) != 0);
	/* Kept after stop; cleared by a new start. */
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 2, &st), 0);
	CHECK_EQ_U64(st.time_enabled, 20 * NS_PER_MS);
	CHECK_EQ_U64(st.time_running, 10 * NS_PER_MS);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 4 * NS_PER_MS), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 0, &st), 0);
	CHECK_EQ_U64(st.time_enabled, 4 * NS_PER_MS);
	CHECK_EQ_U64(st.time_running, 2 * NS_PER_MS);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	sim_set_close(&e);
}

TEST(native_codes_list_events_then_metrics_then_kernel_events)
{
	struct sim_set e;
	struct uncore_native *n = NULL;
	CHECK_EQ_INT(sim_set_open_perf(&e, "e5-2699v3-2s", "idle.scn", NULL), 0);
	if (e.be)
		CHECK_EQ_INT(uncore_native_create(e.be->machine.plat, &n), 0);
	if (!n) {
		sim_set_close(&e);
		return;
	}
	CHECK_EQ_INT(uncore_native_set_source(n, e.be->events), 0);
	uint32_t code;
	int stage = 0, order_ok = 1;
	unsigned counts[3] = {0, 0, 0};
	for (int rc = uncore_native_enum(n, &code, UNCORE_ENUM_FIRST); rc == 0;
	     rc = uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS)) {
		int kind = (code & UNCORE_NATIVE_KERNEL)   ? 2
			   : (code & UNCORE_NATIVE_METRIC) ? 1
							   : 0;
		if (kind < stage)
			order_ok = 0;
		stage = kind;
		counts[kind]++;
		struct uncore_native_info info;
		uint32_t back = 0;
		CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
		int rc2 = uncore_native_code(n, info.name, &back);
		if (kind == 1 && rc2 == UNCORE_ENOSUPP)
			continue; /* a metric unavailable on this platform: listed, says why */
		if (rc2 < 0 || back != code) {
			fprintf(stderr, "  %s: code 0x%x named back as 0x%x\n", info.name, code,
				back);
			order_ok = 0;
		}
		CHECK_EQ_INT(info.fp64, kind == 1);
	}
	CHECK(order_ok);
	CHECK(counts[0] > 0 && counts[1] > 0 && counts[2] > 0);
	CHECK_EQ_INT(counts[0] + counts[1] + counts[2], uncore_native_count(n));
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW", &code), 0);
	CHECK(code & UNCORE_NATIVE_METRIC);
	CHECK_EQ_INT(uncore_native_code(n, "msr::tsc", &code), 0);
	CHECK(code & UNCORE_NATIVE_KERNEL);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_imc::UNC_M_CAS_COUNT", &code), 0);
	CHECK(!(code & (UNCORE_NATIVE_KERNEL | UNCORE_NATIVE_METRIC | UNCORE_NATIVE_NAMED)));
	/* PMU names: box types and the metric PMU, the kernel's PMUs, then
	 * instances (PAPI keeps the first PAPI_PMU_MAX). */
	unsigned np, at_metric = 0, at_msr = 0, at_imc0 = 0;
	const char *const *pmus = uncore_native_pmu_names(n, &np);
	for (unsigned i = 0; i < np; i++) {
		if (strcmp(pmus[i], "hswep_metric") == 0)
			at_metric = i;
		if (strcmp(pmus[i], "msr") == 0)
			at_msr = i;
		if (strcmp(pmus[i], "hswep_unc_imc0") == 0)
			at_imc0 = i;
	}
	CHECK_EQ_INT(at_metric, 10); /* after Haswell-EP's ten box types */
	CHECK(at_msr > at_metric);
	CHECK(at_imc0 > at_msr);
	uncore_native_destroy(n);
	sim_set_close(&e);
}

int main(void)
{
	RUN(metrics_count_exactly_next_to_kernel_events);
	RUN(qpi_matching_counts_received_packets_on_both_backends);
	RUN(time_multiplexed_terms_reopen_the_kernel_groups_without_loss);
	RUN(kernel_multiplexing_is_reported_per_entry_and_over_settings);
	RUN(native_codes_list_events_then_metrics_then_kernel_events);
	return harness_done();
}
