/* Event sets end to end on the simulator, through the direct backend and
 * the register-access interface only: discovery, aggregation over boxes and
 * sockets, :socket= and per-box names, the fixed counter, filters, totals
 * across several 48-bit wraps, start/stop/reset semantics.  Expected counts
 * follow from the scenarios' rates and the model's clocks exactly
 * (src/sim/SCENARIOS.md). */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "sim/uncore_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000ull

static char scenario_dir[512];

static void find_scenarios(void)
{
	/* This file is tests/unit/eventset/test_set_sim.c under the source root. */
	snprintf(scenario_dir, sizeof(scenario_dir), "%s", __FILE__);
	char *p = strstr(scenario_dir, "tests/unit/eventset/");
	if (p)
		snprintf(p, sizeof(scenario_dir) - (size_t)(p - scenario_dir), "src/sim/scenarios");
}

struct env {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
	struct uncore_sim_topology topo;
};

static int env_open(struct env *e, const char *model, const char *scenario)
{
	char path[600];
	struct uncore_direct_config cfg;
	int rc;

	memset(e, 0, sizeof(*e));
	rc = uncore_sim_create(model, NULL, &e->sim);
	if (rc == 0 && scenario) {
		snprintf(path, sizeof(path), "%s/%s", scenario_dir, scenario);
		rc = uncore_sim_load_scenario(e->sim, path);
	}
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &e->topo);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(e->sim);
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED";
	if (rc == 0)
		rc = uncore_direct_open_hswep(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	if (rc < 0)
		fprintf(stderr, "  env_open: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
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

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static int assign(struct env *e, const char *const *names, unsigned n)
{
	int rc = uncore_set_assign(e->set, names, n);
	if (rc < 0)
		fprintf(stderr, "  assign: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

TEST(discovery_finds_the_models_boxes)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", NULL), 0);
	if (!e.be)
		return;
	const struct uncore_machine *m = &e.be->machine;
	CHECK_EQ_INT(m->nsockets, e.topo.sockets);
	for (unsigned s = 0; s < m->nsockets; s++)
		CHECK_EQ_INT(m->pci_bus[s], e.topo.bus[s]);
	const struct uncore_box_type *cbo = uncore_box_type_find(m->plat, "hswep_unc_cbo");
	int b = uncore_machine_box_index(m, cbo);
	CHECK(b >= 0);
	if (b >= 0)
		CHECK_EQ_INT(uncore_inst_count(&m->present[b][0]), 18);
	env_close(&e);
}

/* Every model, including the four-socket part with unusual buses and node
 * IDs and the small part with a hidden QPI function: the direct backend's
 * discovery (through registers only) agrees with the model. */
TEST(discovery_agrees_with_every_model)
{
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		struct env e;
		const char *model = uncore_sim_model(i)->name;
		if (strcmp(uncore_sim_model(i)->platform, "hswep"))
			continue; /* the flat models: test_set_flat */
		harness_row = model;
		CHECK_EQ_INT(env_open(&e, model, NULL), 0);
		if (!e.be)
			continue;
		const struct uncore_machine *m = &e.be->machine;
		CHECK_EQ_INT(m->nsockets, e.topo.sockets);
		for (unsigned s = 0; s < m->nsockets; s++) {
			CHECK_EQ_INT(m->pci_bus[s], e.topo.bus[s]);
			CHECK_EQ_INT(m->pci_root_bus[s], e.topo.root_bus[s]);
		}
		/* All ten kinds, on every socket: the IRP (root bus) and the iMC
		 * channels (real device IDs) included. */
		static const struct {
			const char *pmu;
			enum hswep_box_kind kind;
		} boxes[] = {{"hswep_unc_ubo", HSWEP_BOX_UBOX},	  {"hswep_unc_cbo", HSWEP_BOX_CBO},
			     {"hswep_unc_sbo", HSWEP_BOX_SBO},	  {"hswep_unc_ha", HSWEP_BOX_HA},
			     {"hswep_unc_imc", HSWEP_BOX_IMC},	  {"hswep_unc_irp", HSWEP_BOX_IRP},
			     {"hswep_unc_pcu", HSWEP_BOX_PCU},	  {"hswep_unc_qpi", HSWEP_BOX_QPI},
			     {"hswep_unc_r2pcie", HSWEP_BOX_R2PCIE}, {"hswep_unc_r3qpi", HSWEP_BOX_R3QPI}};
		for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++) {
			int idx = uncore_machine_box_index(m, uncore_box_type_find(m->plat, boxes[b].pmu));
			CHECK(idx >= 0);
			if (idx < 0)
				continue;
			for (unsigned s = 0; s < m->nsockets; s++) {
				harness_row = boxes[b].pmu;
				CHECK_EQ_U64(m->present[idx][s].w[0], e.topo.present[boxes[b].kind]);
			}
		}
		harness_row = model;
		env_close(&e);
	}
}

/* The simulator presents the devices where real E5 v3 boards have them:
 * 7f:14.0 is MC0 channel 0 with ID 0x2FB0 (not the manual's 0x2FB4), the IRP
 * answers at 00:05.6 and 80:05.6 (root buses), not on 7f/ff. */
TEST(simulator_presents_real_device_ids_and_buses)
{
	struct uncore_sim *sim = NULL;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (!sim)
		return;
	struct uncore_regio *io = uncore_sim_regio(sim);
	static const struct {
		unsigned bus, dev, fn;
		uint32_t id;
	} rows[] = {
	    {0x7f, 20, 0, 0x2fb08086}, {0x7f, 20, 1, 0x2fb18086}, {0x7f, 21, 0, 0x2fb48086},
	    {0x7f, 21, 1, 0x2fb58086}, {0x7f, 23, 0, 0x2fd08086}, {0x7f, 23, 1, 0x2fd18086},
	    {0x7f, 24, 0, 0x2fd48086}, {0xff, 24, 1, 0x2fd58086}, {0x00, 5, 6, 0x2f398086},
	    {0x80, 5, 6, 0x2f398086},  {0x7f, 5, 6, 0xffffffff},  {0xff, 5, 6, 0xffffffff},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_reg r = {.space = UNCORE_SPACE_PCI,
				       .width = 4,
				       .bdf = UNCORE_BDF(rows[i].bus, rows[i].dev, rows[i].fn)};
		uint64_t v = 0;
		char row[32];
		snprintf(row, sizeof(row), "%02x:%02x.%x", rows[i].bus, rows[i].dev, rows[i].fn);
		harness_row = row;
		CHECK_EQ_INT(uncore_regio_read(io, &r, &v), 0);
		CHECK_EQ_U64(v, rows[i].id);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

TEST(dram_reads_of_a_whole_node_in_one_event)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", "stream.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1",
			       "hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:WR"};
	CHECK_EQ_INT(assign(&e, names, 4), 0);
	uint64_t channels = popcount32(e.topo.populated_imc);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
	uint64_t v[4];
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_EQ_U64(v[0], 100000000ull * channels * e.topo.sockets);
	CHECK_EQ_U64(v[1], 100000000ull * channels);
	CHECK_EQ_U64(v[2], (e.topo.populated_imc & 1) ? 100000000ull : 0);
	CHECK_EQ_U64(v[3], 50000000ull * channels * e.topo.sockets);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	env_close(&e);
}

TEST(fixed_dclk_counts_dram_clocks_of_every_channel)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", "idle.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"hswep_unc_imc::UNC_M_DCLOCKTICKS:socket=0",
			       "hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0"};
	CHECK_EQ_INT(assign(&e, names, 2), 0);
	const struct uncore_box_type *imc = uncore_box_type_find(e.be->machine.plat, "hswep_unc_imc");
	unsigned present = uncore_inst_count(
	    &e.be->machine.present[uncore_machine_box_index(&e.be->machine, imc)][0]);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 1000), 0);
	uint64_t v[2];
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	uint64_t dclk = e.topo.clock_hz[HSWEP_CLK_DCLK] / 1000;
	CHECK_EQ_U64(v[0], dclk * present);
	CHECK_EQ_U64(v[1], e.topo.clock_hz[HSWEP_CLK_UCLK] / 1000);
	env_close(&e);
}

TEST(totals_survive_several_48_bit_wraps)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", "stream.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};
	CHECK_EQ_INT(assign(&e, names, 1), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	/* 100 M/s wraps a 48-bit counter every 2,814,749 s: read every 1e6 s. */
	uint64_t v = 0;
	for (int i = 0; i < 9; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000ull * NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	}
	CHECK_EQ_U64(v, 100000000ull * 9000000ull); /* 9e14 > 3 * 2^48 */
	CHECK(v > 3ull << 48);
	env_close(&e);
}

TEST(stop_freezes_reset_zeroes_and_restart_counts_from_zero)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", "stream.scn"), 0);
	if (!e.be)
		return;
	const char *names[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};
	CHECK_EQ_INT(assign(&e, names, 1), 0);
	uint64_t v;
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 10), 0);
	CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 10), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
	CHECK_EQ_U64(v, 10000000ull);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0); /* stopped: nothing counts */
	CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	CHECK_EQ_U64(v, 10000000ull);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 100), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	CHECK_EQ_U64(v, 1000000ull);
	env_close(&e);
}

TEST(bad_events_are_refused_and_the_set_keeps_its_events)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "e5-2699v3-2s", NULL), 0);
	if (!e.be)
		return;
	const char *good[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD"};
	CHECK_EQ_INT(assign(&e, good, 1), 0);
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_imc::UNC_M_NO_SUCH_EVENT", &idx), UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_imc::UNC_M_CAS_COUNT:NOPE", &idx), UNCORE_ENOUMASK);
	CHECK_CONTAINS(uncore_error_detail(), "NOPE");
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=5", &idx),
		     UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "socket=5");
	CHECK_EQ_INT(uncore_set_count(e.set), 1);
	/* Five events on one IMC channel: box full. */
	const char *five[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD", "hswep_unc_imc0::UNC_M_CAS_COUNT:WR",
			      "hswep_unc_imc0::UNC_M_ACT_COUNT:RD", "hswep_unc_imc0::UNC_M_RPQ_INSERTS",
			      "hswep_unc_imc0::UNC_M_WPQ_CYCLES_NE"};
	CHECK_EQ_INT(uncore_set_assign(e.set, five, 5), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "box full");
	CHECK_EQ_INT(uncore_set_count(e.set), 1);
	env_close(&e);
}

int main(void)
{
	find_scenarios();
	RUN(discovery_finds_the_models_boxes);
	RUN(discovery_agrees_with_every_model);
	RUN(simulator_presents_real_device_ids_and_buses);
	RUN(dram_reads_of_a_whole_node_in_one_event);
	RUN(fixed_dclk_counts_dram_clocks_of_every_channel);
	RUN(totals_survive_several_48_bit_wraps);
	RUN(stop_freezes_reset_zeroes_and_restart_counts_from_zero);
	RUN(bad_events_are_refused_and_the_set_keeps_its_events);
	return harness_done();
}
