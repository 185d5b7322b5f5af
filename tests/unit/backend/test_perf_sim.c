/* The perf backend end to end on the simulated kernel (simkernel/uncore_sim_perf.h):
 * a fake sysfs tree of a two-socket Haswell-EP, attributes decoded through
 * its format files onto the simulator.  Every box type counts scenario
 * traffic exactly, aggregated and per box, on the CPUs the cpumask names;
 * filters travel in config1/config2; one read() per PMU instance per read;
 * multiplexed groups are scaled and say so; the layout comes from the
 * format files, not from fixed positions. */
#include "backend/direct/direct.h"
#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/resolve.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "sim/uncore_sim.h"
#include "simkernel/uncore_sim_perf.h"
#include "tmpdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS 1000000ull

static char scenario_dir[512];

static void find_scenarios(void)
{
	snprintf(scenario_dir, sizeof(scenario_dir), "%s", __FILE__);
	char *p = strstr(scenario_dir, "tests/unit/backend/");
	if (p)
		snprintf(p, sizeof(scenario_dir) - (size_t)(p - scenario_dir), "src/sim/scenarios");
}

struct env {
	struct uncore_sim *sim;
	struct uncore_sim_perf *k;
	struct uncore_backend *be;
	struct uncore_set *set;
	struct uncore_sim_topology topo;
	char root[256];
	char paranoid[300];
};

/* The simulator and its kernel, without the backend (tests change the
 * tree or the kernel first). */
static int env_kernel(struct env *e, const char *scenario)
{
	char path[700];
	memset(e, 0, sizeof(*e));
	/* tmpfs: the tree has hundreds of files, and /tmp may be slow disk */
	snprintf(e->root, sizeof(e->root), "/dev/shm/uncore-perfsim-XXXXXX");
	if (!mkdtemp(e->root)) {
		const char *root = test_mkdtemp("perfsim");
		if (!root)
			return -1;
		snprintf(e->root, sizeof(e->root), "%s", root);
	}
	snprintf(e->paranoid, sizeof(e->paranoid), "%s/perf_event_paranoid", e->root);
	test_put(e->root, "perf_event_paranoid", "2\n");
	int rc = uncore_sim_create("e5-2699v3-2s", NULL, &e->sim);
	if (rc == 0 && scenario) {
		snprintf(path, sizeof(path), "%s/%s", scenario_dir, scenario);
		rc = uncore_sim_load_scenario(e->sim, path);
	}
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &e->topo);
	if (rc == 0)
		rc = uncore_sim_perf_create(e->sim, e->root, &e->k);
	if (rc < 0)
		fprintf(stderr, "  env_kernel: %s: %s\n", uncore_strerror(rc),
			uncore_error_detail());
	return rc;
}

static int env_backend(struct env *e)
{
	struct uncore_perf_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = uncore_sim_perf_pmu_root(e->k);
	cfg.cpu_root = uncore_sim_perf_cpu_root(e->k);
	cfg.paranoid_path = e->paranoid;
	cfg.sys = uncore_sim_perf_sys(e->k);
	cfg.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	cfg.origin = "SIMULATED kernel";
	int rc = uncore_perf_open(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	return rc;
}

static int env_open(struct env *e, const char *scenario)
{
	int rc = env_kernel(e, scenario);
	if (rc == 0)
		rc = env_backend(e);
	if (rc < 0)
		fprintf(stderr, "  env_open: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

static void env_close(struct env *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be); /* and the kernel with it */
	else
		uncore_sim_perf_destroy(e->k);
	if (e->sim)
		uncore_sim_destroy(e->sim);
	if (e->root[0])
		test_rmtree(e->root);
}

static int assign(struct env *e, const char *const *names, unsigned n)
{
	int rc = uncore_set_assign(e->set, names, n);
	if (rc < 0)
		fprintf(stderr, "  assign: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* What the simulator counts (src/sim/SCENARIOS.md): after t ns a box with
 * clock f has run floor(t f / 1e9) cycles, and a stream of R/s has added
 * floor(cycles R / f) occurrences. */
static uint64_t cycles(uint64_t hz, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * hz / 1000000000u);
}

static uint64_t occurrences(uint64_t rate, uint64_t hz, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)cycles(hz, ns) * rate / hz);
}

static const struct uncore_box_type *hsx_box(const char *name)
{
	return uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), name);
}

static uint64_t sim_reads(struct env *e)
{
	struct uncore_sim_perf_stats st;
	uncore_sim_perf_stats(e->k, &st);
	return st.read;
}

TEST(discovery_maps_every_box_to_its_kernel_pmu_and_cpumask_cpu)
{
	struct env e;
	CHECK_EQ_INT(env_kernel(&e, NULL), 0);
	/* The driver's cpumask names the CPU of each socket; make it differ
	 * from the topology's lowest CPU to see that it is the one used. */
	CHECK_EQ_INT(test_put(e.root, "bus/event_source/devices/uncore_imc_3/cpumask", "5,23\n"),
		     0);
	CHECK_EQ_INT(env_backend(&e), 0);
	if (!e.be) {
		env_close(&e);
		return;
	}
	const struct uncore_machine *m = &e.be->machine;
	CHECK_EQ_INT(m->nsockets, 2);
	CHECK_EQ_INT(m->socket_cpu[1], 18);
	static const struct {
		const char *box;
		enum hswep_box_kind kind;
	} boxes[] = {
	    {"hswep_unc_ubo", HSWEP_BOX_UBOX},      {"hswep_unc_cbo", HSWEP_BOX_CBO},
	    {"hswep_unc_sbo", HSWEP_BOX_SBO},       {"hswep_unc_ha", HSWEP_BOX_HA},
	    {"hswep_unc_imc", HSWEP_BOX_IMC},       {"hswep_unc_irp", HSWEP_BOX_IRP},
	    {"hswep_unc_pcu", HSWEP_BOX_PCU},       {"hswep_unc_qpi", HSWEP_BOX_QPI},
	    {"hswep_unc_r2pcie", HSWEP_BOX_R2PCIE}, {"hswep_unc_r3qpi", HSWEP_BOX_R3QPI},
	};
	for (size_t i = 0; i < sizeof(boxes) / sizeof(boxes[0]); i++) {
		harness_row = boxes[i].box;
		int b = uncore_machine_box_index(m, hsx_box(boxes[i].box));
		CHECK(b >= 0);
		if (b < 0)
			continue;
		for (unsigned s = 0; s < 2; s++)
			CHECK_EQ_U64(m->present[b][s].w[0], e.topo.present[boxes[i].kind]);
	}
	harness_row = NULL;
	const char *pmu = NULL;
	int cpu = -1;
	int imc = uncore_machine_box_index(m, hsx_box("hswep_unc_imc"));
	CHECK_EQ_INT(uncore_perf_binding(e.be, (unsigned)imc, 3, 1, &pmu, &cpu), 0);
	CHECK_EQ_STR(pmu, "uncore_imc_3");
	CHECK_EQ_INT(cpu, 23);
	CHECK_EQ_INT(uncore_perf_binding(e.be, (unsigned)imc, 2, 1, &pmu, &cpu), 0);
	CHECK_EQ_STR(pmu, "uncore_imc_2");
	CHECK_EQ_INT(cpu, 18);
	int ubo = uncore_machine_box_index(m, hsx_box("hswep_unc_ubo"));
	CHECK_EQ_INT(uncore_perf_binding(e.be, (unsigned)ubo, 0, 0, &pmu, &cpu), 0);
	CHECK_EQ_STR(pmu, "uncore_ubox");
	env_close(&e);
}

/* hswep-clocks.scn: every box's clock event, one per cycle of its clock. */
TEST(every_box_type_counts_its_clock_exactly_aggregated_and_per_box)
{
	static const struct {
		const char *box, *event;
		enum hswep_box_kind kind;
		unsigned instance; /* for the per-box check */
	} rows[] = {
	    {"hswep_unc_ubo", "UNC_U_CLOCKTICKS", HSWEP_BOX_UBOX, 0},
	    {"hswep_unc_cbo", "UNC_C_CLOCKTICKS", HSWEP_BOX_CBO, 7},
	    {"hswep_unc_sbo", "UNC_S_CLOCKTICKS", HSWEP_BOX_SBO, 3},
	    {"hswep_unc_ha", "UNC_H_CLOCKTICKS", HSWEP_BOX_HA, 1},
	    {"hswep_unc_imc", "UNC_M_DCLOCKTICKS", HSWEP_BOX_IMC, 5},
	    {"hswep_unc_imc", "UNC_M_CLOCKTICKS", HSWEP_BOX_IMC, 2},
	    {"hswep_unc_irp", "UNC_I_CLOCKTICKS", HSWEP_BOX_IRP, 0},
	    {"hswep_unc_pcu", "UNC_P_CLOCKTICKS", HSWEP_BOX_PCU, 0},
	    {"hswep_unc_qpi", "UNC_Q_CLOCKTICKS", HSWEP_BOX_QPI, 1},
	    {"hswep_unc_r2pcie", "UNC_R2_CLOCKTICKS", HSWEP_BOX_R2PCIE, 0},
	    {"hswep_unc_r3qpi", "UNC_R3_CLOCKTICKS", HSWEP_BOX_R3QPI, 1},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct env e;
		char all[128], one[128], sock1[128];
		harness_row = rows[i].event;
		CHECK_EQ_INT(env_open(&e, "hswep-clocks.scn"), 0);
		if (!e.set) {
			env_close(&e);
			continue;
		}
		const struct hswep_box_desc *d = hswep_box(rows[i].kind);
		uint64_t hz = e.topo.clock_hz[d->clock];
		uint64_t inst = popcount32(e.topo.present[rows[i].kind]);
		const struct uncore_box_type *bt = hsx_box(rows[i].box);
		snprintf(all, sizeof(all), "%s::%s", rows[i].box, rows[i].event);
		if (bt->ninstances > 1)
			snprintf(one, sizeof(one), "%s%u::%s:socket=1", rows[i].box,
				 rows[i].instance, rows[i].event);
		else
			snprintf(one, sizeof(one), "%s::%s:socket=1", rows[i].box, rows[i].event);
		snprintf(sock1, sizeof(sock1), "%s::%s:socket=1", rows[i].box, rows[i].event);
		const char *names[] = {all, one, sock1};
		CHECK_EQ_INT(assign(&e, names, 3), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v[3] = {0, 0, 0};
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
		CHECK_EQ_U64(v[0], cycles(hz, NS_PER_MS) * inst * e.topo.sockets);
		CHECK_EQ_U64(v[1], cycles(hz, NS_PER_MS));
		CHECK_EQ_U64(v[2], cycles(hz, NS_PER_MS) * inst);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], cycles(hz, 2 * NS_PER_MS) * inst * e.topo.sockets);
		env_close(&e);
	}
	harness_row = NULL;
}

TEST(dram_traffic_by_table_name_by_kernel_alias_and_raw_fields)
{
	struct env e;
	CHECK_EQ_INT(env_kernel(&e, "stream.scn"), 0);
	/* IMC 0's driver names CPUs 3 and 21: events go there, and count the same. */
	CHECK_EQ_INT(test_put(e.root, "bus/event_source/devices/uncore_imc_0/cpumask", "3,21\n"),
		     0);
	CHECK_EQ_INT(uncore_sim_perf_reload(e.k), 0);
	CHECK_EQ_INT(env_backend(&e), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	const char *names[] = {
	    "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
	    "uncore_imc::cas_count_read",
	    "uncore_imc_0::event=0x4,umask=0x3:socket=1",
	    "hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=1",
	    "uncore_imc::cas_count_write:socket=0",
	};
	CHECK_EQ_INT(assign(&e, names, 5), 0);
	uint64_t channels = popcount32(e.topo.populated_imc);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * NS_PER_MS), 0);
	uint64_t v[5];
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	uint64_t dclk = e.topo.clock_hz[HSWEP_CLK_DCLK], t = 10 * NS_PER_MS;
	uint64_t rd = occurrences(100000000, dclk, t); /* 100 M/s read CAS */
	uint64_t wr = occurrences(37500000, dclk, t) + occurrences(12500000, dclk, t);
	CHECK_EQ_U64(rd, 999999); /* the simulator's rounding, not 1 M */
	CHECK_EQ_U64(v[0], rd * channels * e.topo.sockets);
	CHECK_EQ_U64(v[1], v[0]);
	CHECK_EQ_U64(v[2], rd);
	CHECK_EQ_U64(v[3], rd);
	CHECK_EQ_U64(v[4], wr * channels);
	int cpu = -1;
	CHECK_EQ_INT(uncore_sim_perf_last_cpu(e.k, "uncore_imc_0", &cpu), 0);
	CHECK_EQ_INT(cpu, 21); /* socket 1, the last one opened */
	CHECK_EQ_INT(uncore_sim_perf_last_cpu(e.k, "uncore_imc_1", &cpu), 0);
	CHECK_EQ_INT(cpu, 18);
	CHECK_EQ_INT(uncore_set_stop(e.set, NULL), 0);
	env_close(&e);
}

/* config1 carries the CBo state filter, the PCU band filter; config1 and
 * config2 the QPI match and mask pairs; occ_sel the PCU occupancy counter. */
TEST(filters_travel_in_config1_and_config2)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "llc.scn"), 0);
	if (e.set) {
		const char *names[] = {
		    "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1",
		    "hswep_unc_cbo4::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0"};
		CHECK_EQ_INT(assign(&e, names, 2), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v[2];
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], 10000ull * popcount32(e.topo.present[HSWEP_BOX_CBO]));
		CHECK_EQ_U64(v[1], 10000ull);
		uint64_t cfg[3];
		CHECK_EQ_INT(uncore_sim_perf_last_config(e.k, "uncore_cbox_4", cfg), 0);
		CHECK_EQ_U64(cfg[0], 0x334);
		CHECK_EQ_U64(cfg[1], 0x100000); /* filter_state config1:17-23, M = bit 3 */
	}
	env_close(&e);

	CHECK_EQ_INT(env_open(&e, "qpi-remote.scn"), 0);
	if (e.set) {
		const char *names[] = {"hswep_unc_qpi0::UNC_Q_CTO_COUNT:DRS_DATAC_M:socket=0"};
		CHECK_EQ_INT(assign(&e, names, 1), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v;
		CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
		CHECK_EQ_U64(v, 50000); /* 50 M/s matching DRS packets */
		uint64_t cfg[3];
		CHECK_EQ_INT(uncore_sim_perf_last_config(e.k, "uncore_qpi_0", cfg), 0);
		CHECK_EQ_U64(cfg[0], 0x200038); /* event=0x138 through config:0-7,21 */
		CHECK_EQ_U64(cfg[1], 0x8000000001c00ull);
		CHECK_EQ_U64(cfg[2], 0xf000000001fe0ull);
	}
	env_close(&e);

	CHECK_EQ_INT(env_open(&e, "idle.scn"), 0);
	if (e.set) {
		const char *names[] = {
		    "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:socket=0",
		    "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=12:socket=0"};
		CHECK_EQ_INT(assign(&e, names, 2), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v[2];
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], 17000000); /* 17 cores in C6 for 1 M pclk */
		CHECK_EQ_U64(v[1], 1000000);  /* all pclk cycles at >= 1.2 GHz */
	}
	env_close(&e);
}

TEST(one_read_per_pmu_instance_per_read)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "stream.scn"), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	/* imc0 on both sockets: 2 groups of 4; cbo3 on socket 0: 1 group of
	 * 2; the HA type on socket 1: 2 groups (2 HAs); msr: 2 (one CPU per
	 * socket).  7 PMU instances in use. */
	const char *names[] = {
	    "hswep_unc_imc0::UNC_M_CAS_COUNT:RD",
	    "hswep_unc_imc0::UNC_M_CAS_COUNT:WR",
	    "hswep_unc_imc0::UNC_M_DCLOCKTICKS",
	    "hswep_unc_imc0::UNC_M_ACT_COUNT:RD",
	    "hswep_unc_cbo3::UNC_C_CLOCKTICKS:socket=0",
	    "hswep_unc_cbo3::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0",
	    "hswep_unc_ha::UNC_H_CLOCKTICKS:socket=1",
	    "msr::tsc",
	};
	CHECK_EQ_INT(assign(&e, names, 8), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	struct uncore_perf_calls c0, c1;
	CHECK_EQ_INT(uncore_perf_calls(e.be, &c0), 0);
	uint64_t r0 = sim_reads(&e);
	uint64_t v[8];
	for (int i = 0; i < 10; i++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	}
	CHECK_EQ_INT(uncore_perf_calls(e.be, &c1), 0);
	CHECK_EQ_U64(c1.read - c0.read, 10 * 7);
	CHECK_EQ_U64(sim_reads(&e) - r0, 10 * 7); /* the kernel saw the same */
	CHECK_EQ_U64(c1.open, c0.open);           /* nothing else on the read path */
	CHECK_EQ_U64(c1.ioctl, c0.ioctl);
	CHECK_EQ_U64(v[0],
		     2 * occurrences(100000000, e.topo.clock_hz[HSWEP_CLK_DCLK], 10 * NS_PER_MS));
	CHECK_EQ_U64(v[7], 2 * e.topo.clock_hz[HSWEP_CLK_TSC] / 100);
	CHECK_EQ_INT(uncore_set_stop(e.set, NULL), 0);
	struct uncore_sim_perf_stats st;
	uncore_sim_perf_stats(e.k, &st);
	CHECK_EQ_INT(st.open_fds, 0); /* everything closed at stop */
	env_close(&e);
}

TEST(multiplexed_groups_are_scaled_and_say_so)
{
	CHECK_EQ_U64(uncore_perf_scale(1000, 400, 100), 4000);
	CHECK_EQ_U64(uncore_perf_scale(1000, 400, 400), 1000);
	CHECK_EQ_U64(uncore_perf_scale(1000, 400, 0), 0);
	CHECK_EQ_U64(uncore_perf_scale(UINT64_C(1) << 62, 3, 2), (UINT64_C(1) << 62) / 2 * 3);

	struct env e;
	CHECK_EQ_INT(env_open(&e, "hswep-clocks.scn"), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	/* uncore_imc_1 gets a quarter of the time, as if three other groups
	 * were rotating through it. */
	CHECK_EQ_INT(uncore_sim_perf_set_share(e.k, "uncore_imc_1", 1, 4), 0);
	const char *names[] = {"hswep_unc_imc1::UNC_M_DCLOCKTICKS:socket=0",
			       "hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0"};
	CHECK_EQ_INT(assign(&e, names, 2), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 3 * NS_PER_MS), 0);
	uint64_t v[2];
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	uint64_t dclk = cycles(e.topo.clock_hz[HSWEP_CLK_DCLK], 3 * NS_PER_MS);
	CHECK_EQ_U64(dclk % 4, 0);
	CHECK_EQ_U64(v[0], dclk); /* a quarter counted, scaled back by 4 */
	CHECK_EQ_U64(v[1], dclk);
	struct uncore_event_status st;
	CHECK_EQ_INT(uncore_set_event_status(e.set, 0, &st), 0);
	CHECK_EQ_INT(st.scaled, 1);
	CHECK_EQ_U64(st.time_enabled, 3 * NS_PER_MS);
	CHECK_EQ_U64(st.time_running, 3 * NS_PER_MS / 4);
	CHECK_EQ_INT(uncore_set_event_status(e.set, 1, &st), 0);
	CHECK_EQ_INT(st.scaled, 0);
	CHECK_EQ_U64(st.time_running, st.time_enabled);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	env_close(&e);
}

/* The backend's read path on its own (a plan scheduled here, no event
 * set): each group's values land in the slots the plan gave its events,
 * whether those are consecutive or interleaved with another group's; a
 * multiplexed group is scaled, only it, and its times are the slots'
 * status; a failed or short read() is an error naming the group, with the
 * read()s made counted, and the next read works again. */

/* A system-call layer in front of the simulated kernel that can shorten
 * the next read(). */
struct short_sys {
	struct uncore_perf_sys base;
	struct uncore_perf_sys *inner;
	int shorten; /* the next read() returns this many bytes less */
};

static int short_open(struct uncore_perf_sys *s, struct perf_event_attr *attr, pid_t pid, int cpu,
		      int group_fd, unsigned long flags)
{
	struct uncore_perf_sys *in = ((struct short_sys *)s)->inner;
	return in->open(in, attr, pid, cpu, group_fd, flags);
}

static ssize_t short_read(struct uncore_perf_sys *s, int fd, void *buf, size_t len)
{
	struct short_sys *ss = (struct short_sys *)s;
	ssize_t got = ss->inner->read(ss->inner, fd, buf, len);
	if (got > 0 && ss->shorten) {
		got -= ss->shorten;
		ss->shorten = 0;
	}
	return got;
}

static int short_ioctl(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg)
{
	struct uncore_perf_sys *in = ((struct short_sys *)s)->inner;
	return in->ioctl(in, fd, req, arg);
}

static int short_close(struct uncore_perf_sys *s, int fd)
{
	struct uncore_perf_sys *in = ((struct short_sys *)s)->inner;
	return in->close(in, fd);
}

static void short_destroy(struct uncore_perf_sys *s)
{
	struct uncore_perf_sys *in = ((struct short_sys *)s)->inner;
	if (in->destroy)
		in->destroy(in);
}

/* Schedule `names` (one slot each, in order) on the backend's machine. */
static int plan_of(struct env *e, const char *const *names, unsigned n, struct uncore_plan *plan)
{
	struct uncore_sched_event ev[8];
	for (unsigned i = 0; i < n && i < 8; i++) {
		struct uncore_entry en;
		int rc = uncore_set_resolve(e->set, names[i], &en);
		if (rc < 0) {
			fprintf(stderr, "  %s: %s\n", names[i], uncore_error_detail());
			return rc;
		}
		ev[i] = en.ev;
		ev[i].name = names[i];
	}
	int rc = uncore_schedule(&e->be->machine, ev, n, plan);
	if (rc < 0)
		fprintf(stderr, "  schedule: %s\n", uncore_error_detail());
	return rc;
}

TEST(the_read_path_stores_each_group_in_its_slots_and_scales_only_multiplexed_groups)
{
	struct env e;
	struct short_sys ss = {.base = {.open = short_open,
					.read = short_read,
					.ioctl = short_ioctl,
					.close = short_close,
					.destroy = short_destroy}};
	CHECK_EQ_INT(env_kernel(&e, "stream.scn"), 0);
	if (!e.k) {
		env_close(&e);
		return;
	}
	ss.inner = uncore_sim_perf_sys(e.k);
	struct uncore_perf_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = uncore_sim_perf_pmu_root(e.k);
	cfg.cpu_root = uncore_sim_perf_cpu_root(e.k);
	cfg.paranoid_path = e.paranoid;
	cfg.sys = &ss.base;
	cfg.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	CHECK_EQ_INT(uncore_perf_open(&cfg, &e.be), 0);
	if (e.be)
		CHECK_EQ_INT(uncore_set_create(e.be, &e.set), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	/* Groups uncore_imc_0 (events 1, 2, 5), uncore_imc_1 (0, 3) and msr
	 * (4).  Event 2 names the PMU itself: the plan puts its slot apart
	 * from the table events of the same PMU (slots are ordered by box
	 * type), so that group's slots are not consecutive.  uncore_imc_1
	 * runs a quarter of the time. */
	const char *names[] = {"hswep_unc_imc1::UNC_M_DCLOCKTICKS:socket=0",
			       "hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0",
			       "uncore_imc_0::event=0x4,umask=0xc:socket=0",
			       "hswep_unc_imc1::UNC_M_CLOCKTICKS:socket=0",
			       "msr::tsc:socket=0",
			       "hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0"};
	struct uncore_plan plan;
	memset(&plan, 0, sizeof(plan));
	CHECK_EQ_INT(plan_of(&e, names, 6, &plan), 0);
	CHECK_EQ_INT(plan.nslots, 6);
	unsigned slot[6] = {0, 0, 0, 0, 0, 0};
	for (unsigned i = 0; i < 6 && plan.nslots == 6; i++) {
		CHECK_EQ_INT(plan.count[i], 1);
		slot[i] = plan.slot_index[plan.first[i]];
	}
	/* The precondition: uncore_imc_0's slots are not consecutive. */
	unsigned lo = 6, hi = 0, in_imc0 = 0;
	for (unsigned k = 0; k < plan.nslots; k++) {
		struct uncore_perf_slot_attr a;
		CHECK_EQ_INT(uncore_perf_slot_attr(e.be, &plan, k, &a), 0);
		if (strcmp(a.pmu, "uncore_imc_0") == 0) {
			lo = k < lo ? k : lo;
			hi = k > hi ? k : hi;
			in_imc0++;
		}
	}
	CHECK_EQ_INT(in_imc0, 3);
	CHECK(hi - lo + 1 > in_imc0);
	CHECK_EQ_INT(uncore_sim_perf_set_share(e.k, "uncore_imc_1", 1, 4), 0);
	CHECK_EQ_INT(e.be->ops->program(e.be, &plan), 0);
	CHECK_EQ_INT(e.be->ops->start(e.be), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 3 * NS_PER_MS), 0);
	uint64_t raw[6];
	memset(raw, 0xff, sizeof(raw));
	struct uncore_perf_calls c0, c1;
	CHECK_EQ_INT(uncore_perf_calls(e.be, &c0), 0);
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), 0);
	CHECK_EQ_INT(uncore_perf_calls(e.be, &c1), 0);
	CHECK_EQ_U64(c1.read - c0.read, 3); /* one per group */
	uint64_t hz = e.topo.clock_hz[HSWEP_CLK_DCLK], t = 3 * NS_PER_MS;
	uint64_t dclk = cycles(hz, t);
	CHECK_EQ_U64(dclk % 4, 0);
	CHECK_EQ_U64(raw[slot[0]], dclk); /* a quarter counted, scaled back by 4 */
	CHECK_EQ_U64(raw[slot[1]], occurrences(100000000, hz, t));
	CHECK_EQ_U64(raw[slot[2]], occurrences(37500000, hz, t) + occurrences(12500000, hz, t));
	CHECK_EQ_U64(raw[slot[3]], dclk);
	CHECK_EQ_U64(raw[slot[4]], e.topo.clock_hz[HSWEP_CLK_TSC] * 3 / 1000);
	CHECK_EQ_U64(raw[slot[5]], dclk);
	CHECK_EQ_INT(e.be->read_scaled, 1);
	for (unsigned i = 0; i < 6; i++) {
		struct uncore_slot_status st;
		harness_row = names[i];
		CHECK_EQ_INT(e.be->ops->slot_status(e.be, slot[i], &st), 0);
		CHECK_EQ_U64(st.time_enabled, t);
		CHECK_EQ_U64(st.time_running, i == 0 || i == 3 ? t / 4 : t);
	}
	harness_row = NULL;

	/* read() fails on the second group (uncore_imc_1): the error names it
	 * and says why; two read()s were made; the next read is whole again. */
	CHECK_EQ_INT(uncore_sim_perf_fail(e.k, UNCORE_SIM_PERF_READ, 2, ENODEV), 0);
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "uncore_imc_1 group");
	CHECK_CONTAINS(uncore_error_detail(), "offline");
	CHECK_EQ_INT(uncore_perf_calls(e.be, &c0), 0);
	CHECK_EQ_U64(c0.read - c1.read, 2);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), 0);
	CHECK_EQ_U64(raw[slot[5]], cycles(hz, 4 * NS_PER_MS));
	CHECK_EQ_U64(raw[slot[1]], occurrences(100000000, hz, 4 * NS_PER_MS));
	/* A read() shorter than the first group's layout (3 events: 48 bytes). */
	ss.shorten = 8;
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "uncore_imc_0 group");
	CHECK_CONTAINS(uncore_error_detail(), "returned 40 bytes");
	CHECK_CONTAINS(uncore_error_detail(), "expected 48 bytes for 3");
	CHECK_EQ_INT(e.be->ops->unprogram(e.be), 0);
	uncore_plan_free(&plan);

	/* One group in consecutive slots that counted all the time: copied
	 * as is, and the read says nothing was scaled. */
	const char *two[] = {"hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0",
			     "hswep_unc_imc0::UNC_M_CLOCKTICKS:socket=0"};
	memset(&plan, 0, sizeof(plan));
	CHECK_EQ_INT(plan_of(&e, two, 2, &plan), 0);
	CHECK_EQ_INT(e.be->ops->program(e.be, &plan), 0);
	CHECK_EQ_INT(e.be->ops->start(e.be), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 2 * NS_PER_MS), 0); /* from 4 to 6 ms */
	memset(raw, 0xff, sizeof(raw));
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), 0);
	CHECK_EQ_INT(e.be->read_scaled, 0);
	CHECK_EQ_U64(raw[0], cycles(hz, 6 * NS_PER_MS) - cycles(hz, 4 * NS_PER_MS));
	CHECK_EQ_U64(raw[1], raw[0]);
	CHECK_EQ_INT(e.be->ops->unprogram(e.be), 0);
	/* Reading with nothing programmed is an error, not stale values. */
	CHECK_EQ_INT(e.be->ops->read(e.be, raw), UNCORE_ESTATE);
	uncore_plan_free(&plan);
	env_close(&e);
}

/* A kernel with another layout: the same events count the same, because
 * the fields are found by name in the format files. */
TEST(another_kernel_layout_counts_the_same)
{
	struct env e;
	CHECK_EQ_INT(env_kernel(&e, "llc.scn"), 0);
	if (!e.k) {
		env_close(&e);
		return;
	}
	for (unsigned c = 0; c < 18; c++) {
		char rel[160];
		snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_cbox_%u/format/event",
			 c);
		test_put(e.root, rel, "config:40-47\n");
		snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_cbox_%u/format/umask",
			 c);
		test_put(e.root, rel, "config:0-3,60-63\n");
		snprintf(rel, sizeof(rel),
			 "bus/event_source/devices/uncore_cbox_%u/format/filter_state", c);
		test_put(e.root, rel, "config2:8-14\n");
	}
	CHECK_EQ_INT(uncore_sim_perf_reload(e.k), 0);
	CHECK_EQ_INT(env_backend(&e), 0);
	if (e.set) {
		const char *names[] = {
		    "hswep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0"};
		CHECK_EQ_INT(assign(&e, names, 1), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v;
		CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
		CHECK_EQ_U64(v, 10000);
		uint64_t cfg[3];
		CHECK_EQ_INT(uncore_sim_perf_last_config(e.k, "uncore_cbox_2", cfg), 0);
		/* event 0x34 at 40, umask 0x03 split 3:0 / 63:60, state M at config2 bit 11 */
		CHECK_EQ_U64(cfg[0], (0x34ull << 40) | 0x3);
		CHECK_EQ_U64(cfg[1], 0);
		CHECK_EQ_U64(cfg[2], 0x8ull << 8);
	}
	env_close(&e);
}

TEST(msr_tsc_and_software_events_of_the_simulated_kernel)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "idle.scn"), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	const char *names[] = {"msr::tsc:socket=0", "software::cpu-clock:socket=1", "msr::event=0"};
	CHECK_EQ_INT(assign(&e, names, 3), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 100 * NS_PER_MS), 0);
	uint64_t v[3];
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[0], e.topo.clock_hz[HSWEP_CLK_TSC] / 10);
	CHECK_EQ_U64(v[1], 100 * NS_PER_MS);
	CHECK_EQ_U64(v[2], 2 * v[0]); /* both sockets, same event as msr::tsc */
	env_close(&e);
}

static int sys_open(struct uncore_perf_sys *s, uint32_t type, uint64_t config, int cpu, int group,
		    int disabled, uint64_t read_format)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = (unsigned)disabled;
	a.read_format = read_format;
	return s->open(s, &a, -1, cpu, group, 0);
}

/* The simulated kernel itself keeps the semantics the backend relies on. */
TEST(the_simulated_kernel_behaves_like_the_kernel)
{
	struct env e;
	CHECK_EQ_INT(env_kernel(&e, "hswep-clocks.scn"), 0);
	if (!e.k) {
		env_close(&e);
		return;
	}
	struct uncore_perf_sys *s = uncore_sim_perf_sys(e.k);
	const uint32_t imc0 = 20 + 1 + 18 + 4 + 2; /* ubox, 18 cbox, 4 sbox, 2 ha, then imc_0 */
	FILE *f = NULL;
	char path[400];
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/uncore_imc_0/type", e.root);
	f = fopen(path, "r");
	char got[32] = "";
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	CHECK_EQ_INT(atoi(got), (int)imc0);
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	int l = sys_open(s, imc0, 0x0000, 18, -1, 1, rf); /* DCLOCKTICKS on socket 1 */
	int m = sys_open(s, imc0, 0x00ff, 18, l, 0, rf);  /* the fixed counter */
	CHECK(l >= 0 && m >= 0);
	CHECK_EQ_INT(sys_open(s, imc0, 0x0000, -1, -1, 1, 0), -EINVAL);     /* no per-task uncore */
	CHECK_EQ_INT(sys_open(s, imc0, 1ull << 40, 18, -1, 1, 0), -EINVAL); /* no such field */
	CHECK_EQ_INT(sys_open(s, 999, 0, 18, -1, 1, 0), -ENOENT);
	CHECK_EQ_INT(sys_open(s, imc0, 0, 99, -1, 1, 0), -ENODEV);
	uint64_t hz = e.topo.clock_hz[HSWEP_CLK_DCLK], buf[16];
	CHECK_EQ_INT(s->ioctl(s, l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	uncore_sim_advance(e.sim, NS_PER_MS);
	CHECK_EQ_INT(s->read(s, l, buf, sizeof(buf)), 7 * 8);
	CHECK_EQ_U64(buf[0], 2);
	CHECK_EQ_U64(buf[1], NS_PER_MS);
	CHECK_EQ_U64(buf[2], NS_PER_MS);
	CHECK_EQ_U64(buf[3], cycles(hz, NS_PER_MS));
	CHECK_EQ_U64(buf[4], (uint64_t)l);
	CHECK_EQ_U64(buf[5], cycles(hz, NS_PER_MS));
	CHECK_EQ_U64(buf[6], (uint64_t)m);
	CHECK_EQ_INT(s->read(s, l, buf, 5 * 8), -ENOSPC);
	/* RESET clears counts, not times; DISABLE stops both. */
	CHECK_EQ_INT(s->ioctl(s, l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP), 0);
	uncore_sim_advance(e.sim, NS_PER_MS);
	CHECK_EQ_INT(s->ioctl(s, l, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);
	uncore_sim_advance(e.sim, NS_PER_MS);
	CHECK_EQ_INT(s->read(s, l, buf, sizeof(buf)), 7 * 8);
	CHECK_EQ_U64(buf[1], 2 * NS_PER_MS);
	CHECK_EQ_U64(buf[3], cycles(hz, 2 * NS_PER_MS) - cycles(hz, NS_PER_MS));
	/* Five generic events do not fit the IMC's four counters. */
	int g = sys_open(s, imc0, 1, 0, -1, 1, rf);
	for (int i = 2; i <= 4; i++)
		CHECK(sys_open(s, imc0, (uint64_t)i, 0, g, 0, rf) >= 0);
	CHECK_EQ_INT(sys_open(s, imc0, 5, 0, g, 0, rf), -EINVAL);
	struct uncore_sim_perf_stats st;
	uncore_sim_perf_stats(e.k, &st);
	CHECK_EQ_INT(st.open_fds, 6);
	for (int fd = 1000; fd < 1000 + 16; fd++)
		s->close(s, fd);
	uncore_sim_perf_stats(e.k, &st);
	CHECK_EQ_INT(st.open_fds, 0);
	env_close(&e);
}

static int pmu_type(const struct env *e, const char *pmu)
{
	char path[400], got[32] = "";
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type", e->root, pmu);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	return atoi(got);
}

static int sys_open1(struct uncore_perf_sys *s, int type, uint64_t config, uint64_t config1,
		     int cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = config;
	a.config1 = config1;
	return s->open(s, &a, -1, cpu, -1, 0);
}

static uint64_t peek_filter(const struct env *e, enum hswep_box_kind kind, unsigned f)
{
	struct uncore_reg r;
	uint64_t v = ~0ull;
	if (hswep_reg(hswep_box(kind), 0, HSWEP_REG_FILTER, f, 0, e->topo.bus[0], &r) == 0)
		uncore_sim_peek(e->sim, &r, &v);
	return v;
}

/* The Haswell-EP driver's rules (platform/hswep/hswep_kernel.h) in the
 * simulated kernel: it programs a CBo filter only for the (event, umask)
 * pairs it lists and masks the PCU band filter with 0xff << n; our perf
 * backend refuses the first and asks for bands 1-3 as band 0. */
TEST(the_simulated_kernel_applies_the_hsx_driver_rules)
{
	struct env e;
	CHECK_EQ_INT(env_kernel(&e, "idle.scn"), 0);
	if (!e.k) {
		env_close(&e);
		return;
	}
	struct uncore_perf_sys *s = uncore_sim_perf_sys(e.k);
	int cbox0 = pmu_type(&e, "uncore_cbox_0"), pcu = pmu_type(&e, "uncore_pcu");
	CHECK(cbox0 > 0 && pcu > 0);
	/* LLC_LOOKUP umask 0x03 (DATA_READ): the state filter is programmed. */
	int fd = sys_open1(s, cbox0, 0x0334, 1ull << 20, 0);
	CHECK(fd >= 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_CBO, HSWEP_CBO_FILTER0), 1ull << 20);
	s->close(s, fd);
	/* umask 0x43 (DATA_READ and NID): no filter at all, nid and state
	 * dropped; the event opens and counts anyway. */
	fd = sys_open1(s, cbox0, 0x4334, (1ull << 32) | (1ull << 20), 0);
	CHECK(fd >= 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_CBO, HSWEP_CBO_FILTER0), 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_CBO, HSWEP_CBO_FILTER1), 0);
	s->close(s, fd);
	/* TOR_INSERTS umask 0x08: nc dropped. */
	fd = sys_open1(s, cbox0, 0x0835, 1ull << 62, 0);
	CHECK(fd >= 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_CBO, HSWEP_CBO_FILTER1), 0);
	s->close(s, fd);
	/* FREQ_BAND2_CYCLES with band 2 = 20 (2.0 GHz): the driver keeps
	 * config1 & 0x3fc, so band 2 is 0 and every pclk cycle counts although
	 * the idle scenario runs at 1.2 GHz. */
	fd = sys_open1(s, pcu, 0x0d, 20ull << 16, 0);
	CHECK(fd >= 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_PCU, HSWEP_PCU_BOX_FILTER), 0);
	uint64_t before = 0, after = 0;
	CHECK_EQ_INT(s->read(s, fd, &before, 8), 8);
	uncore_sim_advance(e.sim, NS_PER_MS);
	CHECK_EQ_INT(s->read(s, fd, &after, 8), 8);
	CHECK_EQ_U64(after - before, e.topo.clock_hz[HSWEP_CLK_PCLK] / 1000);
	s->close(s, fd);
	/* Band 0 is programmed right. */
	fd = sys_open1(s, pcu, 0x0b, 20, 0);
	CHECK_EQ_U64(peek_filter(&e, HSWEP_BOX_PCU, HSWEP_PCU_BOX_FILTER), 20);
	s->close(s, fd);

	/* Our perf backend: the NID-qualified lookup is refused, saying why
	 * and naming the direct backend; bands count as the direct backend
	 * counts them, two bands at once included (the driver moves the
	 * second band-0 request to band 1). */
	CHECK_EQ_INT(env_backend(&e), 0);
	if (e.set) {
		const char *nid[] = {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:NID:nf=1"};
		int rc = uncore_set_assign(e.set, nid, 1);
		if (rc == 0)
			rc = uncore_set_start(e.set);
		CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
		CHECK_CONTAINS(uncore_error_detail(), "count unfiltered");
		CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_BACKEND=direct");
		uncore_set_stop(e.set, NULL);
		uncore_set_destroy(e.set);
		e.set = NULL;
		CHECK_EQ_INT(uncore_set_create(e.be, &e.set), 0);
		const char *bands[] = {"hswep_unc_pcu::UNC_P_FREQ_BAND2_CYCLES:ff=20:socket=0",
				       "hswep_unc_pcu::UNC_P_FREQ_BAND3_CYCLES:ff=10:socket=0",
				       "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=12:socket=0"};
		CHECK_EQ_INT(assign(&e, bands, 3), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_MS), 0);
		uint64_t v[3];
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], 0);                                      /* 1.2 < 2.0 GHz */
		CHECK_EQ_U64(v[1], e.topo.clock_hz[HSWEP_CLK_PCLK] / 1000); /* 1.2 >= 1.0 GHz */
		CHECK_EQ_U64(v[2], e.topo.clock_hz[HSWEP_CLK_PCLK] / 1000);
	}
	env_close(&e);
}

/* The kernel's counter constraints (hswep_uncore_cbox_constraints: CBo
 * 0x09 FAST_ASSERTED on counter 0 only, where the manual allows 0-1; R3QPI
 * 0x01 CLOCKTICKS on 0-1, the manual 0-2): a plan of two such CBo events
 * is refused when the second is added, never EINVAL at start; the
 * simulated kernel refuses the same group as the kernel does
 * (HARDWARE-DECISIONS.md H7). */
TEST(the_kernels_counter_constraints_are_planned_at_add)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, "idle.scn"), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_cbo0::UNC_C_FAST_ASSERTED:socket=0", &idx), 0);
	int rc = uncore_set_add(e.set, "hswep_unc_cbo0::UNC_C_FAST_ASSERTED:t=1:socket=0", &idx);
	CHECK_EQ_INT(rc, UNCORE_ECONFLICT);
	CHECK_EQ_INT(uncore_set_count(e.set), 1);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	uint64_t v[1];
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	/* Three R3QPI clockticks variants fit the manual's three counters but
	 * not the kernel's two: the third is refused at add. */
	struct uncore_set *s2 = NULL;
	CHECK_EQ_INT(uncore_set_create(e.be, &s2), 0);
	const char *r3[] = {"hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0",
			    "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:t=1:socket=0",
			    "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:t=2:socket=0"};
	CHECK_EQ_INT(uncore_set_assign(s2, r3, 2), 0);
	CHECK_EQ_INT(uncore_set_assign(s2, r3, 3), UNCORE_ECONFLICT);
	uncore_set_destroy(s2);
	/* The simulated kernel itself refuses the group the kernel refuses. */
	struct uncore_perf_sys *s = uncore_sim_perf_sys(e.k);
	int cbox0 = pmu_type(&e, "uncore_cbox_0");
	int lead = sys_open(s, (uint32_t)cbox0, 0x09, 0, -1, 1, 0);
	CHECK(lead >= 0);
	CHECK_EQ_INT(sys_open(s, (uint32_t)cbox0, 0x01000009, 0, lead, 0, 0), -EINVAL);
	s->close(s, lead);
	env_close(&e);
}

TEST(errors_say_what_to_do)
{
	struct env e;
	/* Unprivileged: the backend refuses to open, with the paranoid level
	 * and both ways out. */
	CHECK_EQ_INT(env_kernel(&e, NULL), 0);
	if (e.k) {
		uncore_sim_perf_set_privileged(e.k, 0);
		CHECK_EQ_INT(env_backend(&e), UNCORE_EPERM);
		CHECK_CONTAINS(uncore_error_detail(), "perf_event_paranoid <= 0");
		CHECK_CONTAINS(uncore_error_detail(), "is 2");
		CHECK_CONTAINS(uncore_error_detail(), "CAP_PERFMON");
		CHECK_CONTAINS(uncore_error_detail(), "sysctl -w kernel.perf_event_paranoid=0");
	}
	env_close(&e);

	CHECK_EQ_INT(env_open(&e, NULL), 0);
	if (!e.set) {
		env_close(&e);
		return;
	}
	const char *one[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};
	CHECK_EQ_INT(assign(&e, one, 1), 0);
	static const struct {
		int err, code;
		const char *says;
	} cases[] = {
	    {EINVAL, UNCORE_EINVAL, "does not fit its counters"},
	    {EMFILE, UNCORE_ELIMIT, "ulimit -n"},
	    {EBUSY, UNCORE_EBUSY, "stop it and retry"},
	    {ENODEV, UNCORE_ENODEV, "offline"},
	    {ENOENT, UNCORE_ENODEV, "unloaded"},
	    {EACCES, UNCORE_EPERM, "CAP_PERFMON"},
	    {EOPNOTSUPP, UNCORE_ENOSUPP, "does not support this kind of event"},
	    {E2BIG, UNCORE_ENOSUPP, "this kernel is older than the perf_event_attr"},
	    {EIO, UNCORE_EIO, "Input/output error"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].says;
		CHECK_EQ_INT(uncore_sim_perf_fail(e.k, UNCORE_SIM_PERF_OPEN, 1, cases[i].err), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), cases[i].code);
		CHECK_CONTAINS(uncore_error_detail(), cases[i].says);
		CHECK_CONTAINS(uncore_error_detail(), "uncore_imc_0");
		CHECK_EQ_INT(uncore_set_running(e.set), 0);
	}
	harness_row = NULL;
	struct uncore_sim_perf_stats st;
	uncore_sim_perf_stats(e.k, &st);
	CHECK_EQ_INT(st.open_fds, 0);

	/* A group the kernel cannot fit: five raw events on one IMC. */
	const char *five[] = {
	    "uncore_imc_0::event=0x1:socket=0", "uncore_imc_0::event=0x2:socket=0",
	    "uncore_imc_0::event=0x3:socket=0", "uncore_imc_0::event=0x4:socket=0",
	    "uncore_imc_0::event=0x5:socket=0"};
	CHECK_EQ_INT(assign(&e, five, 5), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "group of 5 events");

	unsigned idx;
	/* Fields the kernel's formats lack (the CBo has no inv; the PCU's
	 * occ_edge is not one bit wide) and filters its driver would drop:
	 * refused when added, not at start. */
	const char *inv[] = {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:i=1"};
	CHECK_EQ_INT(uncore_set_assign(e.set, inv, 1), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "uncore_cbox_0 PMU has no format field for inv");
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_BACKEND=direct");
	const char *occ[] = {"hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:e=1"};
	CHECK_EQ_INT(uncore_set_assign(e.set, occ, 1), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "occ_edge as config:14-51, not one bit");
	CHECK_EQ_INT(uncore_set_add(e.set, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:NID:nf=1",
				    &idx),
		     UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "would drop the filter_state, filter_nid filter");
	CHECK_CONTAINS(uncore_error_detail(), "hswep_uncore_cbox_extra_regs");

	/* Unknown kernel events name the aliases and fields there are. */
	CHECK_EQ_INT(uncore_set_add(e.set, "uncore_imc_0::cas_count_reed", &idx), UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "cas_count_read");
	CHECK_EQ_INT(uncore_set_add(e.set, "uncore_imc_0::evnt=4", &idx), UNCORE_ENOMOD);
	CHECK_CONTAINS(uncore_error_detail(), "event,inv,thresh,umask");
	CHECK_EQ_INT(uncore_set_add(e.set, "uncore_imc_0::event=0x1ff", &idx), UNCORE_ERANGE);
	CHECK_EQ_INT(uncore_set_add(e.set, "tracepoint::x", &idx), UNCORE_ENOEVENT);
	env_close(&e);
}

int main(void)
{
	find_scenarios();
	RUN(discovery_maps_every_box_to_its_kernel_pmu_and_cpumask_cpu);
	RUN(every_box_type_counts_its_clock_exactly_aggregated_and_per_box);
	RUN(dram_traffic_by_table_name_by_kernel_alias_and_raw_fields);
	RUN(filters_travel_in_config1_and_config2);
	RUN(one_read_per_pmu_instance_per_read);
	RUN(multiplexed_groups_are_scaled_and_say_so);
	RUN(the_read_path_stores_each_group_in_its_slots_and_scales_only_multiplexed_groups);
	RUN(another_kernel_layout_counts_the_same);
	RUN(msr_tsc_and_software_events_of_the_simulated_kernel);
	RUN(the_simulated_kernel_behaves_like_the_kernel);
	RUN(the_simulated_kernel_applies_the_hsx_driver_rules);
	RUN(the_kernels_counter_constraints_are_planned_at_add);
	RUN(errors_say_what_to_do);
	return harness_done();
}
