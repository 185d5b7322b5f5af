/* The Skylake-client and Nehalem metrics evaluated through event sets on a
 * rate-driven test backend (tests/support/fake_backend.h: the simulator
 * models Haswell-EP only): each event counts at a known rate and each
 * metric must give its formula's value; every metric of both files has a
 * row.  Skylake's DRAM_BW reads two free-running counters at once (not
 * multiplexed). */
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "events/encode.h"
#include "fake_backend.h"
#include "harness.h"
#include "metrics/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GB 1e9 /* metrics/{nhm,skl,hswep}.metrics: const GB = 10^9 */

/* Event -> rate (events per ns), matched by encoding. */
#define RATE(e, r)                                                                                 \
	{                                                                                          \
		.event = (e), .per_ns = (r)                                                        \
	}
struct rate {
	const char *event;
	double per_ns;
	struct uncore_encoding enc;
	int box;
};

struct rates {
	const struct uncore_event_platform *plat;
	struct rate *r;
	unsigned n;
};

static double rate_of(void *ctx, const struct uncore_machine *m, const struct uncore_slot *s)
{
	const struct rates *rs = ctx;
	(void)m;
	for (unsigned i = 0; i < rs->n; i++) {
		const struct rate *r = &rs->r[i];
		if (r->box != s->box)
			continue;
		if (s->counter == UNCORE_SLOT_FIXED
			? (r->enc.fixed && r->enc.fixed_index == s->fixed_index)
			: (!r->enc.fixed && r->enc.ctl == s->ctl))
			return r->per_ns;
	}
	return 0;
}

static int prepare(struct rates *rs)
{
	for (unsigned i = 0; i < rs->n; i++) {
		struct uncore_event_ref ref;
		if (uncore_event_parse(rs->plat, rs->r[i].event, &ref) < 0 ||
		    uncore_event_encode(&ref, &rs->r[i].enc) < 0) {
			fprintf(stderr, "  %s: %s\n", rs->r[i].event, uncore_error_detail());
			return -1;
		}
		for (unsigned b = 0; b < rs->plat->nboxes; b++)
			if (rs->plat->boxes[b] == ref.box)
				rs->r[i].box = (int)b;
	}
	return 0;
}

/* Measure `metric` for `ns` on a one-socket machine of the platform. */
static double measure(struct rates *rs, const char *metric, uint64_t ns, char *method)
{
	struct uncore_machine m;
	struct uncore_backend *be = NULL;
	struct uncore_set *set = NULL;
	struct uncore_clock clk;
	double v = NAN;
	memset(&m, 0, sizeof(m));
	m.plat = rs->plat;
	m.nsockets = 1;
	for (unsigned b = 0; b < m.plat->nboxes; b++)
		uncore_inst_fill(&m.present[b][0], m.plat->boxes[b]->ninstances);
	if (fake_backend_create(&m, rate_of, rs, &be) < 0 || uncore_set_create(be, &set) < 0)
		goto out;
	fake_backend_clock(be, 2930000000ull, &clk);
	uncore_set_clock(set, &clk);
	const char *names[] = {metric};
	uint64_t raw;
	if (uncore_set_assign(set, names, 1) < 0) {
		fprintf(stderr, "  %s: %s\n", metric, uncore_error_detail());
		goto out;
	}
	struct uncore_set_entry_info info;
	uncore_set_entry_info(set, 0, &info);
	if (method)
		snprintf(method, 512, "%s", info.method);
	if (uncore_set_start(set) == 0) {
		fake_backend_advance(be, ns);
		if (uncore_set_stop(set, &raw) == 0)
			v = uncore_set_value_double(&info, raw);
	}
out:
	uncore_set_destroy(set);
	if (be)
		be->ops->destroy(be);
	return v;
}

/* Skylake client: table 3-3. */

static struct rate skl_rates[] = {
    RATE("skl_unc_imc::DRAM_DATA_READS", 0.1),   /* 100 M reads per second */
    RATE("skl_unc_imc::DRAM_DATA_WRITES", 0.04), /* 40 M writes per second */
    RATE("skl_unc_imc::DRAM_IA_REQUESTS", 0.3),  /* not used: inaccurate for bandwidth */
};

TEST(skylake_dram_bandwidth_from_free_running_counters)
{
	struct rates rs = {uncore_event_platform_by_name("skl"), skl_rates, 3};
	CHECK_EQ_INT(prepare(&rs), 0);
	char method[512] = "";
	uint64_t ns = 500000000; /* 0.5 s */
	double s = 0.5;
	CHECK_NEAR(measure(&rs, "skl_metric::DRAM_READ_BW", ns, NULL), 0.1e9 * 64 / GB, 1e-9);
	CHECK_NEAR(measure(&rs, "skl_metric::DRAM_WRITE_BW", ns, NULL), 0.04e9 * 64 / GB, 1e-9);
	CHECK_NEAR(measure(&rs, "skl_metric::DRAM_BW", ns, method), 0.14e9 * 64 / GB, 1e-9);
	CHECK_CONTAINS(method, "exact");
	CHECK_NEAR(measure(&rs, "skl_unc_imc::DRAM_READ_BYTES", ns, NULL), 0.1e9 * s * 64, 1e-3);
	CHECK_NEAR(measure(&rs, "skl_unc_imc::DRAM_WRITE_BYTES", ns, NULL), 0.04e9 * s * 64, 1e-3);
}

/* Nehalem: the guide's formulas. */

#define NHM "nhm_unc_guide::"
static struct rate nhm_rates[] = {
    RATE(NHM "UNC_CLK_UNHALTED", 2.66),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:RT", 30.0),
    RATE(NHM "UNC_GQ_ALLOC:RT", 0.5),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS", 20.0),
    RATE(NHM "UNC_GQ_ALLOC:RT_LLC_MISS", 0.1),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:RT_TO_LLC_RESP", 8.0),
    RATE(NHM "UNC_GQ_ALLOC:RT_TO_LLC_RESP", 0.4),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:RT_TO_RTID_ACQUIRED", 3.0),
    RATE(NHM "UNC_GQ_ALLOC:RT_TO_RTID_ACQUIRED", 0.05),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:WT_TO_RTID_ACQUIRED", 1.0),
    RATE(NHM "UNC_GQ_ALLOC:WT_TO_RTID_ACQUIRED", 0.02),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:WT", 6.0),
    RATE(NHM "UNC_GQ_ALLOC:WT", 0.2),
    RATE(NHM "UNC_GQ_TRACKER_OCCUP:PPT", 2.0),
    RATE(NHM "UNC_GQ_ALLOC:PPT", 0.25),
    RATE(NHM "UNC_QHL_OCCUPANCY:LOCAL", 12.0),
    RATE(NHM "UNC_QHL_REQUESTS:LOCAL_READS", 0.08),
    RATE(NHM "UNC_QHL_REQUESTS:REMOTE_READS", 0.03),
    RATE(NHM "UNC_IMC_NORMAL_READS:CH0", 0.05),
    RATE(NHM "UNC_IMC_NORMAL_READS:CH1", 0.04),
    RATE(NHM "UNC_IMC_NORMAL_READS:CH2", 0.03),
    RATE(NHM "UNC_IMC_NORMAL_READS:ANY", 0.1),
    RATE(NHM "UNC_IMC_WRITES:FULL_CH0", 0.02),
    RATE(NHM "UNC_IMC_WRITES:FULL_CH1", 0.015),
    RATE(NHM "UNC_IMC_WRITES:FULL_CH2", 0.01),
    RATE(NHM "UNC_IMC_WRITES:FULL_ANY", 0.045),
};

static double nhm_rate(const char *event)
{
	for (unsigned i = 0; i < sizeof(nhm_rates) / sizeof(nhm_rates[0]); i++)
		if (strcmp(nhm_rates[i].event + strlen(NHM), event) == 0)
			return nhm_rates[i].per_ns;
	return NAN;
}

TEST(nehalem_guide_formulas)
{
	struct rates rs = {uncore_event_platform_by_name("nhm"), nhm_rates,
			   sizeof(nhm_rates) / sizeof(nhm_rates[0])};
	CHECK_EQ_INT(prepare(&rs), 0);
	const uint64_t ns = 1000000000;
	static const char *const stages[] = {
	    "RT", "RT_LLC_MISS", "RT_TO_LLC_RESP", "RT_TO_RTID_ACQUIRED", "WT_TO_RTID_ACQUIRED",
	    "WT", "PPT"};
	char name[128], occ[64], alloc[64];
	for (unsigned i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), NHM "GQ_OCCUPANCY_DURATION_%s", stages[i]);
		snprintf(occ, sizeof(occ), "UNC_GQ_TRACKER_OCCUP:%s", stages[i]);
		snprintf(alloc, sizeof(alloc), "UNC_GQ_ALLOC:%s", stages[i]);
		harness_row = name;
		CHECK_NEAR(measure(&rs, name, ns, NULL), nhm_rate(occ) / nhm_rate(alloc), 1e-9);
	}
	harness_row = NULL;
	CHECK_NEAR(measure(&rs, NHM "TOTAL_READ_PERIOD", ns, NULL), 30.0 / 0.5, 1e-9);
	CHECK_NEAR(measure(&rs, NHM "QHL_LOCAL_READ_LATENCY", ns, NULL), 12.0 / 0.08, 1e-9);
	/* Bandwidths: 64 bytes x events per second (Frequency/Cycles = 1/s). */
	for (int ch = 0; ch < 3; ch++) {
		snprintf(name, sizeof(name), NHM "IMC_READ_BW_CH%d", ch);
		snprintf(occ, sizeof(occ), "UNC_IMC_NORMAL_READS:CH%d", ch);
		harness_row = name;
		CHECK_NEAR(measure(&rs, name, ns, NULL), 64 * nhm_rate(occ) * 1e9, 1);
		snprintf(name, sizeof(name), NHM "IMC_WRITE_BW_CH%d", ch);
		snprintf(occ, sizeof(occ), "UNC_IMC_WRITES:FULL_CH%d", ch);
		CHECK_NEAR(measure(&rs, name, ns, NULL), 64 * nhm_rate(occ) * 1e9, 1);
	}
	harness_row = NULL;
	CHECK_NEAR(measure(&rs, NHM "UNCACHEABLE_WRITES", ns, NULL), (0.08 + 0.03 - 0.1) * 1e9, 1);
	CHECK_NEAR(measure(&rs, "nhm_metric::DRAM_READ_BW", ns, NULL), 64 * 0.1e9 / GB, 1e-9);
	CHECK_NEAR(measure(&rs, "nhm_metric::DRAM_WRITE_BW", ns, NULL), 64 * 0.045e9 / GB, 1e-9);
	CHECK_NEAR(measure(&rs, "nhm_metric::DRAM_BW", ns, NULL), 64 * 0.145e9 / GB, 1e-9);
}

/* Every metric of the two files is measured above. */
TEST(every_skl_and_nhm_metric_is_measured_here)
{
	static const char *const skl[] = {"DRAM_READ_BW",    "DRAM_WRITE_BW",    "DRAM_BW",
					  "DRAM_READ_BYTES", "DRAM_WRITE_BYTES", "COUNTING_TIME"};
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("skl"), &cat), 0);
	if (cat) {
		CHECK_EQ_INT(cat->ndefs, 6);
		for (unsigned i = 0; i < cat->ndefs; i++) {
			int found = 0;
			for (unsigned k = 0; k < 6; k++)
				found |= strcmp(cat->defs[i].name, skl[k]) == 0;
			CHECK(found);
		}
	}
	/* nhm: 7 GQ stages, TOTAL_READ_PERIOD, QHL latency, 3+3 channels,
	 * uncacheable writes, 3 summaries, the counting time. */
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("nhm"), &cat), 0);
	if (cat)
		CHECK_EQ_INT(cat->ndefs, 7 + 1 + 1 + 6 + 1 + 3 + 1);
}

int main(void)
{
	RUN(skylake_dram_bandwidth_from_free_running_counters);
	RUN(nehalem_guide_formulas);
	RUN(every_skl_and_nhm_metric_is_measured_here);
	return harness_done();
}
