/* Every built-in scenario, loaded by its name as a user names it
 * (PAPI_INTEL_UNCORE_SIM_SCENARIO=llc), gives the counts its name and its
 * header promise, for events named as users name them: exact over one
 * simulated second of the two-socket E5-2699 v3 (18 CBo, 8 populated iMC
 * channels, 2 QPI ports; UCLK 2.5 GHz, PCLK 1 GHz, QFCLK 1.2 GHz:
 * `uncore-sim models -v`).  A scenario added to src/sim/scenarios/ without a
 * row here fails.  Also: the default a PAPI program gets, and a wrong name. */
#include "harness.h"
#include "sim_set.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/uncore_error.h"
#include "sim/scenario_sources.h"
#include "bind/settings.h"

/* The component's way: the environment read once (bind/settings.h), then
 * the machine it names. */
static int regio_from_env(struct uncore_regio **io)
{
	struct uncore_settings st;
	struct uncore_sim_options o;
	int rc = uncore_settings_read(&st);
	uncore_settings_sim(&st, &o);
	return rc < 0 ? rc : uncore_sim_regio_open(&o, io);
}

struct promise {
	const char *scenario;
	const char *event;
	double per_second; /* exact count (or metric value) over 1 s */
};

/* Expected values from each scenario's own lines (rates per box instance). */
static const struct promise promises[] = {
    /* stream.scn: 100 M read CAS, 37.5 + 12.5 M write CAS per channel. */
    {"stream", "hswep_unc_imc::UNC_M_CAS_COUNT:RD", 2 * 8 * 100e6},
    {"stream", "hswep_unc_imc::UNC_M_CAS_COUNT:WR:socket=1", 8 * 50e6},
    {"stream", "hswep_metric::DRAM_READ_BW:socket=0", 8 * 100e6 * 64 / 1e9},
    /* demo-stream.scn is stream.scn on the wall clock: checked below. */
    /* llc.scn: 40 M data-read lookups per CBo (I 4, S 8, E 12, M 10, F 6),
     * 1 M M-state victims; 4 M of 40 M miss; misses stay 120 UCLK (48 ns). */
    {"llc", "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ", 2 * 18 * 40e6},
    {"llc", "hswep_unc_cbo::UNC_C_LLC_VICTIMS:M_STATE:socket=0", 18 * 1e6},
    {"llc", "hswep_metric::LLC_MISS_RATIO", 0.1},
    {"llc", "hswep_metric::LLC_MISS_LATENCY", 48.0},
    /* qpi-remote.scn: socket 0 port 0 receives 400 M DRS data flits; socket
     * 1 port 0 transmits 400 M data flits (3.2 GB) and 50 M header flits;
     * socket 1's two HAs each see 25 M remote reads. */
    {"qpi-remote", "hswep_unc_qpi::UNC_Q_RXL_FLITS_G1:DRS_DATA:socket=0", 400e6},
    {"qpi-remote", "hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA:socket=1", 400e6},
    {"qpi-remote", "hswep_unc_ha::UNC_H_REQUESTS:READS_REMOTE:socket=1", 2 * 25e6},
    {"qpi-remote", "hswep_metric::QPI_DATA_BW:socket=1", 400e6 * 8 / 1e9},
    {"qpi-remote", "hswep_metric::QPI_LINK_BW", (100e6 + 450e6) * 8 / 1e9},
    /* idle.scn: 17 cores in C6 per PCLK (1 GHz) on each socket. */
    {"idle", "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6", 2 * 17 * 1e9},
    /* pcie-io.scn, socket 0 only: 40 M IRP reads, 30 M R2PCIe CW_EVEN
     * cycles, 20 M PCIRdCur TOR inserts per CBo. */
    {"pcie-io", "hswep_unc_irp::UNC_I_TRANSACTIONS:READS:socket=0", 40e6},
    {"pcie-io", "hswep_unc_r2pcie::UNC_R2_RING_BL_USED:CW_EVEN", 30e6},
    {"pcie-io", "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_PCIRDCUR", 18 * 20e6},
    /* boxes.scn: 100 M read CAS per channel, 50 M more on channel 2. */
    {"boxes", "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1", 8 * 100e6 + 50e6},
    {"boxes", "hswep_unc_irp::UNC_I_TRANSACTIONS:READS:socket=0", 40e6},
    /* hswep-clocks.scn: one per cycle of each box's clock. */
    {"hswep-clocks", "hswep_unc_cbo::UNC_C_CLOCKTICKS", 2 * 18 * 2.5e9},
    {"hswep-clocks", "hswep_unc_qpi::UNC_Q_CLOCKTICKS:socket=0", 2 * 1.2e9},
    /* hswep-shapes.scn feeds nothing: it only says how umasks and filters
     * select (SCENARIOS.md "shape"); what it promises is that nothing counts
     * without a stream. */
    {"hswep-shapes", "hswep_unc_imc::UNC_M_CAS_COUNT:RD", 0},
};

/* Scenarios of models the component does not count yet (no backend binds
 * the flat Nehalem, Skylake-client and Xeon 7400 simulators): their counts
 * are checked register by register in tests/unit/sim/test_sim_flat.c. */
static const char *const register_level_only[] = {"nhm-stream", "skl-stream", "x7400-stream"};

static int named(const char *file, const char *name)
{
	size_t n = strlen(name);
	return strncmp(file, name, n) == 0 && strcmp(file + n, ".scn") == 0;
}

static int count_one(const struct promise *p, double *value)
{
	struct sim_set e;
	uint64_t v[1];
	int rc = sim_set_open(&e, "e5-2699v3-2s", NULL, NULL);
	if (rc == 0)
		rc = uncore_sim_load_scenario(e.sim, p->scenario);
	if (rc == 0)
		rc = sim_set_assign(&e, &p->event, 1);
	if (rc == 0)
		rc = uncore_set_start(e.set);
	if (rc == 0)
		rc = uncore_sim_advance(e.sim, NS_PER_S);
	if (rc == 0)
		rc = uncore_set_stop(e.set, v);
	if (rc == 0)
		*value = sim_set_value(&e, v, 0);
	else
		HARNESS_FAIL_AT("%s: %s: %s", p->scenario, p->event, uncore_error_detail());
	sim_set_close(&e);
	return rc;
}

TEST(every_builtin_scenario_counts_what_it_promises_by_name)
{
	for (size_t i = 0; i < sizeof(promises) / sizeof(promises[0]); i++) {
		const struct promise *p = &promises[i];
		double got;
		harness_row = p->event;
		if (count_one(p, &got) == 0)
			CHECK_NEAR(got, p->per_second, p->per_second * 1e-9);
	}
	harness_row = NULL;
}

TEST(every_builtin_scenario_has_a_promise_here)
{
	for (const struct uncore_sim_scenario_source *s = uncore_sim_scenario_sources; s->file;
	     s++) {
		int found = named(s->file, "demo-stream");
		for (size_t i = 0; i < sizeof(promises) / sizeof(promises[0]); i++)
			found |= named(s->file, promises[i].scenario);
		for (size_t i = 0; i < sizeof(register_level_only) / sizeof(char *); i++)
			found |= named(s->file, register_level_only[i]);
		harness_row = s->file;
		CHECK(found);
	}
	harness_row = NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What a PAPI program gets with PAPI_INTEL_UNCORE_BACKEND=sim and nothing
 * else: a private machine on the wall clock running demo-stream, saying so. */
TEST(a_private_machine_gets_the_demo_on_the_wall_clock)
{
	struct uncore_regio *io;
	char desc[256];
	unsetenv(UNCORE_SIM_ENV_SIM);
	unsetenv(UNCORE_SIM_ENV_SCENARIO);
	unsetenv(UNCORE_SIM_ENV_LOG);
	CHECK_EQ_INT(regio_from_env(&io), 0);
	struct uncore_sim *sim = uncore_sim_from_regio(io);
	CHECK_EQ_INT(uncore_sim_describe(sim, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "scenario demo-stream (default)");
	uint64_t t0, t1;
	CHECK_EQ_INT(uncore_sim_now(sim, &t0), 0);
	double w0 = now_s();
	while (now_s() - w0 < 0.02)
		;
	CHECK_EQ_INT(uncore_sim_now(sim, &t1), 0);
	CHECK(t1 - t0 >= 20000000ull); /* its time moved with the wall clock */
	uncore_regio_destroy(io);

	/* A scenario by name on a private machine: also the wall clock, and
	 * no "(default)". */
	setenv(UNCORE_SIM_ENV_SCENARIO, "qpi-remote", 1);
	CHECK_EQ_INT(regio_from_env(&io), 0);
	sim = uncore_sim_from_regio(io);
	CHECK_EQ_INT(uncore_sim_describe(sim, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "scenario qpi-remote");
	CHECK(strstr(desc, "(default)") == NULL);
	struct uncore_sim_topology topo;
	CHECK_EQ_INT(uncore_sim_topology(sim, &topo), 0);
	CHECK_EQ_INT(topo.clock_mode, UNCORE_SIM_CLOCK_WALL);
	uncore_regio_destroy(io);

	/* none: no scenario at all. */
	setenv(UNCORE_SIM_ENV_SCENARIO, "none", 1);
	CHECK_EQ_INT(regio_from_env(&io), 0);
	CHECK_EQ_INT(uncore_sim_describe(uncore_sim_from_regio(io), desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "scenario none");
	uncore_regio_destroy(io);

	/* A wrong name: the error lists the built-in ones. */
	setenv(UNCORE_SIM_ENV_SCENARIO, "qpi_remote", 1);
	CHECK_EQ_INT(regio_from_env(&io), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "scenario 'qpi_remote': no such file");
	CHECK_CONTAINS(uncore_error_detail(), "built-in: boxes, demo-stream,");
	unsetenv(UNCORE_SIM_ENV_SCENARIO);
}

/* demo-stream.scn says "clock wall": stream.scn's rates over real time. */
TEST(demo_stream_counts_on_the_wall_clock)
{
	struct sim_set e;
	const char *rd = "hswep_unc_imc::UNC_M_CAS_COUNT:RD";
	uint64_t v[1], t0, t1;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, NULL), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(e.sim, "demo-stream"), 0);
	CHECK_EQ_INT(sim_set_assign(&e, &rd, 1), 0);
	CHECK_EQ_INT(uncore_sim_now(e.sim, &t0), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	double w0 = now_s();
	while (now_s() - w0 < 0.05)
		;
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_INT(uncore_sim_now(e.sim, &t1), 0);
	/* 1.6e9 per second over at most the simulated time that passed. */
	double most = 1.6e9 * (double)(t1 - t0) / 1e9;
	CHECK(v[0] > 0);
	CHECK(v[0] <= (uint64_t)most + 1);
	sim_set_close(&e);
}

int main(void)
{
	RUN(every_builtin_scenario_counts_what_it_promises_by_name);
	RUN(every_builtin_scenario_has_a_promise_here);
	RUN(a_private_machine_gets_the_demo_on_the_wall_clock);
	RUN(demo_stream_counts_on_the_wall_clock);
	return harness_done();
}
