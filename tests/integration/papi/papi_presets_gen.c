/* The uncore presets of every generation through PAPI on its simulator
 * model: each preset is listed as an available PAPI preset of the
 * intel_uncore component, and counts exactly what the scenario defines,
 * for the node and for each socket, with the raw event of its formula in
 * the same event set.  The expected values are computed here from the
 * scenario's streams (src/sim/SCENARIOS.md: a stream of ratio a/b adds
 * floor(c * a / b) in its first c cycles of the unit's clock), not by the
 * code under test.  A generation without a preset (Xeon 7100/7400: no
 * memory controller on the package) must not list it.
 * With "hl DIR", the same presets and raw events go through PAPI's
 * high-level API instead (PAPI_EVENTS, one region, JSON under DIR) and the
 * values the JSON must hold are printed as "want NAME VALUE" lines for
 * tests/integration/test_presets_generations.sh.
 * Usage: papi_presets_gen MODEL [hl DIR]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "itest.h"
#include "papi.h"

#define MS 1000000ull /* ns */

/* One preset of a model: the raw event of its formula, the factor, the
 * scenario line that feeds it (none: the unit's clock itself, one per
 * cycle), its ratio a/b per cycle of clock `clock` and on how many
 * instances per socket. */
struct row {
	const char *model, *preset, *raw;
	long long factor;
	const char *stream;
	uint64_t a, b;
	unsigned clock, instances;
};

static const struct row rows[] = {
    {"i7-6700k", "PAPI_UNC_DRAM_RD_BYTES", "skl_unc_imc::DRAM_DATA_READS", 64,
     "free imc.DRAM_DATA_READS ratio=1/40", 1, 40, 0, 1},
    {"i7-6700k", "PAPI_UNC_DRAM_WR_BYTES", "skl_unc_imc::DRAM_DATA_WRITES", 64,
     "free imc.DRAM_DATA_WRITES ratio=1/80", 1, 80, 0, 1},
    {"i7-6700k", "PAPI_UNC_LLC_MISSES", "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_I", 1,
     "stream cbo ev=0x34 umask=0x88 ratio=1/100", 1, 100, 0, 4},
    {"i7-6700k", "PAPI_UNC_CLOCKTICKS", "skl_unc_clock::UNC_CLOCK", 1, NULL, 1, 1, 0, 1},
    /* Kaby Lake client: Skylake client's parts (platform/kbl/kbl.c). */
    {"i7-7700k", "PAPI_UNC_DRAM_RD_BYTES", "skl_unc_imc::DRAM_DATA_READS", 64,
     "free imc.DRAM_DATA_READS ratio=1/40", 1, 40, 0, 1},
    {"i7-7700k", "PAPI_UNC_DRAM_WR_BYTES", "skl_unc_imc::DRAM_DATA_WRITES", 64,
     "free imc.DRAM_DATA_WRITES ratio=1/80", 1, 80, 0, 1},
    {"i7-7700k", "PAPI_UNC_LLC_MISSES", "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_I", 1,
     "stream cbo ev=0x34 umask=0x88 ratio=1/100", 1, 100, 0, 4},
    {"i7-7700k", "PAPI_UNC_CLOCKTICKS", "skl_unc_clock::UNC_CLOCK", 1, NULL, 1, 1, 0, 1},
    /* Broadwell-EP: Haswell-EP's boxes, Intel's BDX tables (platform/bdx/bdx.c);
     * every channel (8 per socket, DCLK) and QPI port (2 per socket, QFCLK). */
    {"e5-2697v4-2s", "PAPI_UNC_DRAM_RD_BYTES", "bdx_unc_imc::UNC_M_CAS_COUNT:RD", 64,
     "stream imc ev=0x04 umask=0x01 ratio=1/40", 1, 40, 1, 8},
    {"e5-2697v4-2s", "PAPI_UNC_DRAM_WR_BYTES", "bdx_unc_imc::UNC_M_CAS_COUNT:WR", 64,
     "stream imc ev=0x04 umask=0x04 ratio=1/80", 1, 80, 1, 8},
    {"e5-2697v4-2s", "PAPI_UNC_QPI_DATA_BYTES", "bdx_unc_qpi::UNC_Q_TxL_FLITS_G0:DATA", 8,
     "stream qpi ev=0x00 umask=0x02 ratio=1/10", 1, 10, 3, 2},
    {"e5-2697v4-2s", "PAPI_UNC_CLOCKTICKS", "bdx_unc_ubo::UNC_U_CLOCKTICKS", 1, NULL, 1, 1, 0, 1},
    {"x5570-2s", "PAPI_UNC_DRAM_RD_BYTES", "nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY", 64,
     "stream unc ev=0x2c umask=0x01 ratio=1/32", 1, 32, 0, 1},
    {"x5570-2s", "PAPI_UNC_DRAM_WR_BYTES", "nhm_unc_guide::UNC_IMC_WRITES:FULL_ANY", 64,
     "stream unc ev=0x2f umask=0x07 ratio=1/64", 1, 64, 0, 1},
    {"x5570-2s", "PAPI_UNC_LLC_MISSES", "nhm_unc_guide::UNC_LLC_MISS:ANY", 1,
     "stream unc ev=0x09 umask=0x01 ratio=1/16", 1, 16, 0, 1},
    {"x5570-2s", "PAPI_UNC_CLOCKTICKS", "nhm_unc_guide::UNC_CLK_UNHALTED", 1, NULL, 1, 1, 0, 1},
    /* Westmere: Nehalem's box, SDM Table 19-20's events (platform/wsm/wsm.c). */
    {"x5670-2s", "PAPI_UNC_DRAM_RD_BYTES", "wsm_unc_sdm::UNC_IMC_NORMAL_READS:ANY", 64,
     "stream unc ev=0x2c umask=0x01 ratio=1/32", 1, 32, 0, 1},
    {"x5670-2s", "PAPI_UNC_DRAM_WR_BYTES", "wsm_unc_sdm::UNC_IMC_WRITES:FULL_ANY", 64,
     "stream unc ev=0x2f umask=0x07 ratio=1/64", 1, 64, 0, 1},
    {"x5670-2s", "PAPI_UNC_LLC_MISSES", "wsm_unc_sdm::UNC_LLC_MISS:ANY", 1,
     "stream unc ev=0x09 umask=0x01 ratio=1/16", 1, 16, 0, 1},
    {"x5670-2s", "PAPI_UNC_CLOCKTICKS", "wsm_unc_sdm::UNC_CLK_UNHALTED", 1, NULL, 1, 1, 0, 1},
    /* GBSQ image (SDM 18.21.2): agent 0, demand, type bit 0, clean snoop,
     * L3 state bit 0 (0x9051, as x7400-stream.scn) and Fill_Eviction 01B,
     * a transaction that fills L3 (bits 57:56: image bit 24). */
    {"x7460-4s", "PAPI_UNC_LLC_MISSES", "x7400_unc_gbsq::GBSQ_TRANSACTIONS:FILL", 1,
     "stream gbsq match=0x1009051 ratio=1/8", 1, 8, 0, 1},
    {"x7140m-4s", "PAPI_UNC_LLC_MISSES", "x7100_unc_gbsq::GBSQ_TRANSACTIONS:FILL", 1,
     "stream gbsq match=0x1009051 ratio=1/8", 1, 8, 0, 1},
};

/* The presets every generation is asked about: those a model has no row
 * for must be absent. */
static const char *const all_presets[] = {
    "PAPI_UNC_DRAM_RD_BYTES", "PAPI_UNC_DRAM_WR_BYTES", "PAPI_UNC_LLC_MISSES",
    "PAPI_UNC_CLOCKTICKS",    "PAPI_UNC_QPI_DATA_BYTES",
};

static struct itest_sim sim;
static const char *model;
static char scn[256];
static uint64_t t_load;

static const struct row *row_of(const char *preset)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].model, model) && !strcmp(rows[i].preset, preset))
			return &rows[i];
	return NULL;
}

/* What one instance of one socket counts between t0 and t1. */
static uint64_t per_instance(const struct row *r, uint64_t t0, uint64_t t1)
{
	uint64_t hz = sim.topo.clock_hz[r->clock];
	uint64_t c0 = itest_cycles(t0, hz) - itest_cycles(t_load, hz);
	uint64_t c1 = itest_cycles(t1, hz) - itest_cycles(t_load, hz);
	if (!r->stream) /* the clock itself */
		return c1 - c0;
	return c1 * r->a / r->b - c0 * r->a / r->b;
}

/* Load this model's streams (all rows at once: each event counts its own). */
static int load_streams(void)
{
	FILE *f = fopen(scn, "w");
	if (!f)
		return -1;
	fprintf(f, "name presets-gen\nclock virtual\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].model, model) && rows[i].stream)
			fprintf(f, "%s\n", rows[i].stream);
	fclose(f);
	int rc = uncore_sim_load_scenario(sim.sim, scn);
	t_load = itest_now(&sim);
	return rc;
}

TEST(each_preset_counts_what_the_scenario_defines)
{
	unsigned sockets = sim.topo.sockets;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		if (strcmp(r->model, model))
			continue;
		harness_row = r->preset;
		char s1[96];
		snprintf(s1, sizeof(s1), "%s:socket=%u", r->preset, sockets - 1);
		const char *names[] = {r->preset, r->raw, s1};
		long long v[3];
		uint64_t t0 = itest_now(&sim);
		CHECK_EQ_INT(itest_count(&sim, names, 3, 20 * MS + 12345, v), PAPI_OK);
		uint64_t t1 = t0 + 20 * MS + 12345;
		uint64_t one = per_instance(r, t0, t1);
		uint64_t want = (uint64_t)r->factor * one * r->instances * sockets;
		printf("  %s on %s = %lld (%lld x %s = %lld); the scenario's %llu\n", r->preset,
		       model, v[0], r->factor, r->raw, v[1], (unsigned long long)want);
		CHECK(one > 0);
		CHECK_EQ_U64((uint64_t)v[0], want);
		CHECK_EQ_U64((uint64_t)v[1], one * r->instances * sockets);
		CHECK_EQ_U64((uint64_t)v[2], (uint64_t)r->factor * one * r->instances);
	}
}

TEST(the_presets_of_the_generation_are_listed_and_no_other)
{
	int cidx = PAPI_get_component_index("intel_uncore");
	for (size_t i = 0; i < sizeof(all_presets) / sizeof(all_presets[0]); i++) {
		int code;
		PAPI_event_info_t info;
		harness_row = all_presets[i];
		int have = PAPI_event_name_to_code(all_presets[i], &code) == PAPI_OK &&
			   PAPI_get_event_info(code, &info) == PAPI_OK && info.count > 0;
		CHECK_EQ_INT(have, row_of(all_presets[i]) != NULL);
		if (have)
			CHECK_EQ_INT(PAPI_get_event_component(code), cidx);
	}
}

/* PAPI_EVENTS holds every preset of the model and its raw event; one
 * region of 20 ms of simulated time. */
static int high_level(const char *dir)
{
	char events[1024] = "";
	size_t o = 0;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].model, model))
			o += (size_t)snprintf(events + o, sizeof(events) - o, "%s%s,%s", o ? "," : "",
					      rows[i].preset, rows[i].raw);
	setenv("PAPI_EVENTS", events, 1);
	setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
	uint64_t t0 = itest_now(&sim);
	int rc = PAPI_hl_region_begin("presets");
	if (rc == PAPI_OK)
		rc = uncore_sim_advance(sim.sim, 20 * MS) == 0 ? PAPI_OK : PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_hl_region_end("presets");
	if (rc == PAPI_OK)
		rc = PAPI_hl_stop();
	printf("%s high-level region on %s over 20 ms of simulated time (%s)\n",
	       rc == PAPI_OK ? "PASS" : "FAIL", model, PAPI_strerror(rc));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		if (strcmp(r->model, model))
			continue;
		uint64_t n = per_instance(r, t0, t0 + 20 * MS) * r->instances * sim.topo.sockets;
		printf("want %s %llu\nwant %s %llu\n", r->preset,
		       (unsigned long long)(n * (uint64_t)r->factor), r->raw, (unsigned long long)n);
	}
	return rc == PAPI_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
	model = argc > 1 ? argv[1] : "i7-6700k";
	int hl = argc > 3 && !strcmp(argv[2], "hl");
	snprintf(scn, sizeof(scn), "%s/presets-gen-%d.scn", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	if (itest_sim_create(model, &sim) != 0 || (!hl && itest_papi_init() < 0) ||
	    load_streams() != 0) {
		printf("FAIL setup on %s\n", model);
		unlink(scn);
		itest_sim_destroy(&sim);
		return 1;
	}
	if (hl) {
		int rc = high_level(argv[3]);
		unlink(scn);
		itest_sim_destroy(&sim);
		return rc;
	}
	RUN(each_preset_counts_what_the_scenario_defines);
	RUN(the_presets_of_the_generation_are_listed_and_no_other);
	PAPI_shutdown();
	unlink(scn);
	itest_sim_destroy(&sim);
	return harness_done();
}
