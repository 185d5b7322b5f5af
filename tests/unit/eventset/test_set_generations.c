/* Event sets end to end on the simulator of each generation besides
 * Haswell-EP (Skylake client i7-6700k, Nehalem x5570-2s, Xeon 7400
 * x7460-4s and 7100 x7140m-4s), through the one direct engine and the
 * register-access interface only: exact counts from the library's
 * scenarios (src/sim/scenarios/{skl,nhm,x7400}-stream.scn) and 64-bit
 * totals folded across ten and more wraps at every counter width (32, 44,
 * 48 bits).  Expected counts follow from the scenarios' rates and the
 * models' clocks: a stream of n per d cycles adds floor(c * n / d) in its
 * first c cycles, and c = floor(t * f). */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "sim_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S UINT64_C(1000000000)

static uint64_t cycles(uint64_t ns, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)ns * hz / NS_PER_S);
}

/* Assign, start, advance `ns`, read: 0 or the first error (printed). */
static int count(struct env *e, const char *const *names, unsigned n, uint64_t ns, uint64_t *values)
{
	int rc = uncore_set_assign(e->set, names, n);
	if (rc == 0)
		rc = uncore_set_start(e->set);
	if (rc == 0)
		rc = uncore_sim_advance(e->sim, ns);
	if (rc == 0)
		rc = uncore_set_read(e->set, values);
	if (rc < 0)
		fprintf(stderr, "  count: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

TEST(discovery_finds_each_models_sockets)
{
	static const struct {
		const char *model;
		unsigned sockets;
	} want[] = {{"i7-6700k", 1}, {"x5570-2s", 2}, {"x7460-4s", 4}, {"x7140m-4s", 4}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct env e;
		harness_row = want[i].model;
		CHECK_EQ_INT(env_open(&e, want[i].model, NULL), 0);
		if (e.be)
			CHECK_EQ_INT(e.be->machine.nsockets, want[i].sockets);
		env_close(&e);
	}
	harness_row = NULL;
}

/* skl-stream.scn on the i7-6700k (UCLK 4.0 GHz), 1 ms. */
TEST(skl_exact_counts)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "i7-6700k", "skl-stream.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"skl_unc_imc::DRAM_DATA_READS",
			       "skl_unc_imc::DRAM_DATA_WRITES",
			       "skl_unc_imc::DRAM_IA_REQUESTS",
			       "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:READ_I",
			       "skl_unc_cbo1::UNC_CBO_CACHE_LOOKUP:READ_I",
			       "skl_unc_arb::UNC_ARB_TRK_OCCUPANCY:ALL",
			       "skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL",
			       "skl_unc_clock::UNC_CLOCK"};
	uint64_t v[8] = {0};
	CHECK_EQ_INT(count(&e, names, 8, 1000000, v), 0);
	CHECK_EQ_U64(v[0], 100000);      /* 100 M/s */
	CHECK_EQ_U64(v[1], 50000);       /* 50 M/s */
	CHECK_EQ_U64(v[2], 120000);      /* 120 M/s */
	CHECK_EQ_U64(v[3], 4 * 40000);   /* 40 M/s in each of 4 CBos */
	CHECK_EQ_U64(v[4], 40000);       /* CBo 1 alone */
	CHECK_EQ_U64(v[5], 3 * 4000000); /* 3 per cycle */
	CHECK_EQ_U64(v[6], 200000);      /* 200 M/s */
	CHECK_EQ_U64(v[7], 4000000);     /* UCLK */
	env_close(&e);
}

/* nhm-stream.scn on the x5570-2s (UCLK 2,666,666,667 Hz), 1 ms: 2,666,666
 * cycles per socket. */
TEST(nhm_exact_counts)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "x5570-2s", "nhm-stream.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY",
			       "nhm_unc_guide::UNC_IMC_NORMAL_READS:CH0:socket=1",
			       "nhm_unc_guide::UNC_IMC_WRITES:FULL_ANY",
			       "nhm_unc_guide::UNC_GQ_TRACKER_OCCUP:RT",
			       "nhm_unc_guide::UNC_GQ_ALLOC:RT",
			       "nhm_unc_guide::UNC_QHL_REQUESTS:LOCAL_READS",
			       "nhm_unc_guide::UNC_LLC_MISS:READ",
			       "nhm_unc_guide::UNC_CLK_UNHALTED"};
	uint64_t v[8] = {0}, c = cycles(1000000, 2666666667u);
	CHECK_EQ_U64(c, 2666666);
	CHECK_EQ_INT(count(&e, names, 8, 1000000, v), 0);
	CHECK_EQ_U64(v[0], 2 * (c / 32 + c / 32 + c / 64));
	CHECK_EQ_U64(v[1], c / 32);
	CHECK_EQ_U64(v[2], 2 * (c / 64));
	CHECK_EQ_U64(v[3], 2 * 6 * c);
	CHECK_EQ_U64(v[4], 2 * (c / 8));
	CHECK_EQ_U64(v[5], 2 * (c / 8));
	CHECK_EQ_U64(v[6], 2 * (c / 32));
	CHECK_EQ_U64(v[7], 2 * c);
	env_close(&e);
}

/* x7400-stream.scn on both EMON models, 1 ms, four sockets. */
TEST(x7x00_exact_counts)
{
	static const struct {
		const char *model, *pfx;
		uint64_t core_hz, bus_hz;
	} m[] = {{"x7460-4s", "x7400", 2666666667u, 266666667u},
		 {"x7140m-4s", "x7100", 3400000000u, 200000000u}};
	for (size_t i = 0; i < 2; i++) {
		struct env e;
		harness_row = m[i].model;
		CHECK_EQ_INT(env_open(&e, m[i].model, "x7400-stream.scn"), 0);
		if (!e.be)
			continue;
		char n[5][80];
		snprintf(n[0], sizeof(n[0]), "%s_unc_gbsq::GBSQ_TRANSACTIONS", m[i].pfx);
		snprintf(n[1], sizeof(n[1]), "%s_unc_gsnpq::GSNPQ_TRANSACTIONS", m[i].pfx);
		snprintf(n[2], sizeof(n[2]), "%s_unc_fsb::FSB_DRDY", m[i].pfx);
		snprintf(n[3], sizeof(n[3]), "%s_unc_fsb::FSB_IOQ_ACTIVE", m[i].pfx);
		snprintf(n[4], sizeof(n[4]), "%s_unc_gbsq::GBSQ_TRANSACTIONS:socket=2", m[i].pfx);
		const char *names[] = {n[0], n[1], n[2], n[3], n[4]};
		uint64_t v[5] = {0}, c = cycles(1000000, m[i].core_hz),
			 b = cycles(1000000, m[i].bus_hz);
		CHECK_EQ_INT(count(&e, names, 5, 1000000, v), 0);
		CHECK_EQ_U64(v[0], 4 * (c / 4 + c / 8));
		CHECK_EQ_U64(v[1], 4 * (c / 16));
		CHECK_EQ_U64(v[2], 4 * (b / 4));
		CHECK_EQ_U64(v[3], 4 * b);
		CHECK_EQ_U64(v[4], c / 4 + c / 8);
		env_close(&e);
	}
	harness_row = NULL;
}

/* Read every `step` ns for `steps` steps; the 64-bit totals must equal the
 * formula although the counters wrapped `min_wraps` times or more. */
struct fold_case {
	const char *row, *model, *scn, *event;
	unsigned width;
	uint64_t step_ns, steps;
	uint64_t (*expect)(uint64_t ns);
};

static uint64_t x7460_gbsq(uint64_t ns)
{
	uint64_t c = cycles(ns, 2666666667u);
	return 4 * (c / 4 + c / 8);
}
static uint64_t skl_imc_reads(uint64_t ns)
{
	return cycles(ns, 4000000000u) / 40; /* 100 M/s at 4 GHz: 1 per 40 cycles */
}
static uint64_t skl_arb_occ(uint64_t ns)
{
	return 3 * cycles(ns, 4000000000u);
}
static uint64_t skl_uclk(uint64_t ns)
{
	return cycles(ns, 4000000000u);
}
static uint64_t nhm_occ(uint64_t ns)
{
	return 2 * 6 * cycles(ns, 2666666667u);
}
static uint64_t nhm_uclk(uint64_t ns)
{
	return 2 * cycles(ns, 2666666667u);
}

TEST(totals_fold_across_ten_wraps_at_every_width)
{
	static const struct fold_case cases[] = {
	    /* 32 bits: 1e9/s per socket wraps every 4.3 s. */
	    {"x7400 GBSQ 32-bit", "x7460-4s", "x7400-stream.scn",
	     "x7400_unc_gbsq::GBSQ_TRANSACTIONS", 32, 2 * NS_PER_S, 25, x7460_gbsq},
	    /* 32 bits: 100 M/s wraps every 42.9 s. */
	    {"skl IMC 32-bit", "i7-6700k", "skl-stream.scn", "skl_unc_imc::DRAM_DATA_READS", 32,
	     20 * NS_PER_S, 25, skl_imc_reads},
	    /* 44 bits: 1.2e10/s wraps every 1,466 s. */
	    {"skl ARB 44-bit", "i7-6700k", "skl-stream.scn",
	     "skl_unc_arb::UNC_ARB_TRK_OCCUPANCY:ALL", 44, 1000 * NS_PER_S, 16, skl_arb_occ},
	    /* 48 bits: 4e9/s wraps every 70,369 s. */
	    {"skl UCLK 48-bit", "i7-6700k", "skl-stream.scn", "skl_unc_clock::UNC_CLOCK", 48,
	     50000 * NS_PER_S, 15, skl_uclk},
	    /* 48 bits: 1.6e10/s per socket wraps every 17,592 s. */
	    {"nhm occupancy 48-bit", "x5570-2s", "nhm-stream.scn",
	     "nhm_unc_guide::UNC_GQ_TRACKER_OCCUP:RT", 48, 10000 * NS_PER_S, 19, nhm_occ},
	    /* 48 bits: 2.67e9/s wraps every 105,553 s. */
	    {"nhm UCLK 48-bit", "x5570-2s", "nhm-stream.scn", "nhm_unc_guide::UNC_CLK_UNHALTED", 48,
	     80000 * NS_PER_S, 14, nhm_uclk},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fold_case *fc = &cases[i];
		struct env e;
		harness_row = fc->row;
		CHECK_EQ_INT(env_open(&e, fc->model, fc->scn), 0);
		if (!e.be)
			continue;
		uint64_t v = 0;
		CHECK_EQ_INT(count(&e, &fc->event, 1, fc->step_ns, &v), 0);
		for (uint64_t k = 1; k < fc->steps; k++) {
			uncore_sim_advance(e.sim, fc->step_ns);
			CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
		}
		uint64_t ns = fc->step_ns * fc->steps, want = fc->expect(ns);
		CHECK_EQ_U64(v, want);
		/* The counter itself wrapped at least ten times (per socket). */
		unsigned sockets = e.be->machine.nsockets;
		CHECK(want / sockets >> fc->width >= 10);
		env_close(&e);
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(discovery_finds_each_models_sockets);
	RUN(skl_exact_counts);
	RUN(nhm_exact_counts);
	RUN(x7x00_exact_counts);
	RUN(totals_fold_across_ten_wraps_at_every_width);
	return harness_done();
}
