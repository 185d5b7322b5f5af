/* A non-root msr-safe user on the simulator: PCI config space is readable
 * only in its first 64 bytes (Linux's rule for unprivileged readers), so
 * bus discovery (UBox offsets 0x40/0x54, manual 1.6.1) cannot run.  The
 * direct backend then takes the sockets from the CPU topology, marks every
 * PCI box absent with the reason, and counts on the MSR boxes (UBox, CBo,
 * SBo, PCU) exactly as root would. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "sim_set.h"

#include <stdio.h>
#include <string.h>

#define NS_PER_MS 1000000ull

struct env {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_sim_topology topo;
	int16_t cpu_socket[64];
};

static int env_open(struct env *e, int with_topology)
{
	struct uncore_direct_config cfg;
	memset(e, 0, sizeof(*e));
	char path[600];
	snprintf(path, sizeof(path), "%s/idle.scn", sim_set_scenario_dir());
	int rc = uncore_sim_create("e5-2699v3-2s", NULL, &e->sim);
	if (rc == 0)
		rc = uncore_sim_load_scenario(e->sim, path);
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &e->topo);
	if (rc == 0)
		rc = uncore_sim_set_user(e->sim, UNCORE_SIM_USER_MSR_SAFE);
	if (rc < 0)
		return rc;
	unsigned ncpus = 0;
	for (unsigned s = 0; s < e->topo.sockets; s++)
		for (unsigned k = 0; k < e->topo.cores && ncpus < 64; k++)
			e->cpu_socket[ncpus++] = (int16_t)s;
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(e->sim);
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED";
	if (with_topology) {
		cfg.ncpus = ncpus;
		cfg.cpu_socket = e->cpu_socket;
	}
	return uncore_direct_open_hswep(&cfg, &e->be);
}

static void env_close(struct env *e)
{
	if (e->be)
		e->be->ops->destroy(e->be);
	if (e->sim)
		uncore_sim_destroy(e->sim);
}

TEST(the_simulated_user_sees_64_bytes_of_config_space)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	struct uncore_regio *io = uncore_sim_regio(e.sim);
	struct uncore_reg id = {
	    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(0x7f, 20, 0)};
	struct uncore_reg box = id;
	box.addr = 0xf4;
	struct uncore_reg last = id;
	last.addr = 0x3c;
	uint64_t v = 0;
	CHECK_EQ_INT(uncore_regio_read(io, &id, &v), 0);
	CHECK_EQ_U64(v, 0x2fb08086);
	CHECK_EQ_INT(uncore_regio_read(io, &last, &v), 0);
	CHECK_EQ_INT(uncore_regio_read(io, &box, &v), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "64 bytes");
	CHECK_EQ_INT(uncore_regio_write(io, &box, 0x30000), UNCORE_EPERM);
	/* MSRs are reachable (msr-safe with our allowlist). */
	struct uncore_reg cbo = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = 0xe00};
	CHECK_EQ_INT(uncore_regio_read(io, &cbo, &v), 0);
	env_close(&e);
}

TEST(direct_backend_opens_with_the_msr_boxes)
{
	struct env e;
	int rc = env_open(&e, 1);
	CHECK_EQ_INT(rc, 0);
	if (rc < 0) {
		fprintf(stderr, "  %s\n", uncore_error_detail());
		env_close(&e);
		return;
	}
	const struct uncore_machine *m = &e.be->machine;
	CHECK_EQ_INT(m->nsockets, 2);
	static const struct {
		const char *pmu;
		unsigned present; /* instances per socket */
	} rows[] = {
	    {"hswep_unc_ubo", 1},   {"hswep_unc_cbo", 18}, {"hswep_unc_sbo", 4},
	    {"hswep_unc_pcu", 1},   {"hswep_unc_ha", 0},   {"hswep_unc_imc", 0},
	    {"hswep_unc_irp", 0},   {"hswep_unc_qpi", 0},  {"hswep_unc_r2pcie", 0},
	    {"hswep_unc_r3qpi", 0},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		harness_row = rows[i].pmu;
		int b = uncore_machine_box_index(m, uncore_box_type_find(m->plat, rows[i].pmu));
		CHECK(b >= 0);
		if (b < 0)
			continue;
		for (unsigned s = 0; s < m->nsockets; s++)
			CHECK_EQ_INT(uncore_inst_count(&m->present[b][s]), rows[i].present);
		/* PCI boxes are absent for a stated reason. */
		CHECK_EQ_INT((int)(m->absent_boxes >> b & 1), rows[i].present == 0);
	}
	harness_row = NULL;
	CHECK_CONTAINS(m->absent_note, "root");
	CHECK_CONTAINS(m->absent_note, "64 bytes");

	/* MSR boxes count exactly as for root (idle machine: clocks only). */
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_set_create(e.be, &set), 0);
	const char *names[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=0",
			       "hswep_unc_cbo::UNC_C_CLOCKTICKS",
			       "hswep_unc_pcu::UNC_P_CLOCKTICKS:socket=1"};
	rc = uncore_set_assign(set, names, 3);
	CHECK_EQ_INT(rc, 0);
	if (rc == 0) {
		uint64_t v[3];
		CHECK_EQ_INT(uncore_set_start(set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_stop(set, v), 0);
		uint64_t uclk = e.topo.clock_hz[HSWEP_CLK_UCLK] / 1000;
		CHECK_EQ_U64(v[0], uclk);
		CHECK_EQ_U64(v[1], uclk * 18 * 2);
		CHECK_EQ_U64(v[2], e.topo.clock_hz[HSWEP_CLK_PCLK] / 1000);
	}
	/* A PCI box event is refused, saying why. */
	const char *imc[] = {"hswep_unc_imc::UNC_M_DCLOCKTICKS"};
	CHECK(uncore_set_assign(set, imc, 1) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "64 bytes");
	uncore_set_destroy(set);
	env_close(&e);
}

TEST(without_a_cpu_topology_discovery_says_to_run_as_root)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 0), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "root");
	CHECK(e.be == NULL);
	env_close(&e);
}

int main(void)
{
	RUN(the_simulated_user_sees_64_bytes_of_config_space);
	RUN(direct_backend_opens_with_the_msr_boxes);
	RUN(without_a_cpu_topology_discovery_says_to_run_as_root);
	return harness_done();
}
