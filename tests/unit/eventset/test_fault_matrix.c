/* Fault containment (issue 15): start, read and stop, each with a fault in
 * one register space (MSR, PCI, MMIO), of each kind (EIO, EACCES, ENODEV),
 * transient or persistent.  A fault on one socket or box never costs
 * another its counts; the operation that met it returns its error; counts
 * it may have cost are reported (uncore_set_short), never returned as if
 * whole; a transient fault costs nothing.  MSR and PCI: the simulator's
 * fault injection on socket 0 of two (CBo and R3QPI clockticks on both
 * sockets, exact from the clock).  MMIO: the Skylake client's free-running
 * iMC counter next to its MSR UCLK counter, on the fake register file.
 * And the unfreeze after a read failing on one socket leaves the other
 * counting (it used to stay frozen). */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "fake_regio.h"
#include "harness.h"
#include "platform/skl/skl_regs.h"
#include "sim/uncore_sim.h"

#include <errno.h>
#include <string.h>

#define NS_PER_S 1000000000ull
#define MS       1000000ull

enum op { OP_START, OP_READ, OP_STOP };
static const char *const op_name[] = {"start", "read", "stop"};
static const int errnos[] = {EIO, EACCES, ENODEV};

static char row[96];
static void set_row(enum op op, const char *space, int err, int persistent)
{
	snprintf(row, sizeof(row), "%s, %s, %s, %s", op_name[op], space,
		 err == EIO      ? "EIO"
		 : err == EACCES ? "EACCES"
				 : "ENODEV",
		 persistent ? "persistent" : "transient");
	harness_row = row;
}

/* ---- Haswell-EP on the simulator: MSR and PCI --------------------------- */

static const char *const hsw_names[] = {
    "hswep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", "hswep_unc_cbo0::UNC_C_CLOCKTICKS:socket=1",
    "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0", "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=1"};

struct hsw {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
	uint64_t uclk;
	uint8_t bus0;
};

static int hsw_open(struct hsw *e)
{
	struct uncore_direct_config cfg;
	struct uncore_sim_topology topo;
	memset(e, 0, sizeof(*e));
	int rc = uncore_sim_create("e5-2699v3-2s", NULL, &e->sim);
	if (rc == 0)
		rc = uncore_sim_load_scenario_text(
		    e->sim, "stream cbo ev=0x00 inc=1\nstream r3qpi ev=0x01 inc=1\n", "test");
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &topo);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = e->sim ? uncore_sim_regio(e->sim) : NULL;
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	if (rc == 0)
		rc = uncore_direct_open_hswep(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	if (rc == 0)
		rc = uncore_set_assign(e->set, hsw_names, 4);
	if (rc == 0) {
		e->uclk = topo.clock_hz[HSWEP_CLK_UCLK];
		e->bus0 = topo.bus[0];
	}
	if (rc < 0)
		fprintf(stderr, "  hsw_open: %s\n", uncore_error_detail());
	return rc;
}

static void hsw_close(struct hsw *e)
{
	uncore_sim_clear_faults(e->sim);
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
	if (e->sim)
		uncore_sim_destroy(e->sim);
}

/* A fault on socket 0's accesses of one space: its CBo MSRs, or its R3QPI
 * link 0 device. */
static void hsw_inject(struct hsw *e, int space, int sim_op, int err, int persistent)
{
	struct uncore_sim_fault f = {.space = space,
				     .op = sim_op,
				     .socket = -1,
				     .bdf = -1,
				     .addr = -1,
				     .nth = 1,
				     .count = persistent ? 0 : 1,
				     .error = err};
	if (space == UNCORE_SPACE_MSR) {
		f.socket = 0;
	} else {
		struct uncore_reg r;
		hswep_reg(hswep_box(HSWEP_BOX_R3QPI), 0, HSWEP_REG_CTR, 0, 0, e->bus0, &r);
		f.bdf = r.bdf;
	}
	CHECK_EQ_INT(uncore_sim_inject_fault(e->sim, &f), 0);
}

static uint64_t uclk_cycles(const struct hsw *e, uint64_t t0, uint64_t t1)
{
	return (uint64_t)((unsigned __int128)t1 * e->uclk / NS_PER_S -
			  (unsigned __int128)t0 * e->uclk / NS_PER_S);
}

/* The events of the faulty socket in `space`: index 0 (MSR) or 2 (PCI). */
static unsigned faulty(int space)
{
	return space == UNCORE_SPACE_MSR ? 0 : 2;
}

static void hsw_case(enum op op, int space, int err, int persistent)
{
	struct hsw e;
	uint64_t v[4] = {0}, t0 = 0, t1 = 0, tread = 0;
	int want = uncore_error_from_errno(err);
	set_row(op, space == UNCORE_SPACE_MSR ? "MSR" : "PCI", err, persistent);
	if (hsw_open(&e) < 0) {
		CHECK(0);
		return;
	}
	if (op == OP_START) {
		hsw_inject(&e, space, UNCORE_SIM_OP_WRITE, err, persistent);
		CHECK_EQ_INT(uncore_set_start(e.set), want);
		CHECK(!uncore_set_running(e.set));
		/* Nothing half done: once the fault is gone, start counts. */
		uncore_sim_clear_faults(e.sim);
		uncore_sim_now(e.sim, &t0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		uncore_sim_advance(e.sim, MS);
		uncore_sim_now(e.sim, &t1);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		for (unsigned i = 0; i < 4; i++)
			CHECK_EQ_U64(v[i], uclk_cycles(&e, t0, t1));
		CHECK_EQ_INT(uncore_set_short(e.set, NULL), 0);
	} else if (op == OP_READ) {
		uncore_sim_now(e.sim, &t0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		uncore_sim_advance(e.sim, MS);
		uncore_sim_now(e.sim, &tread);
		hsw_inject(&e, space, UNCORE_SIM_OP_READ, err, persistent);
		/* A transient MSR fault fails the socket's batched read, and
		 * the backend reads its registers again one by one: nothing to
		 * report then. */
		CHECK_EQ_INT(uncore_set_read(e.set, v),
			     space == UNCORE_SPACE_MSR && !persistent ? 0 : want);
		uncore_sim_advance(e.sim, MS);
		CHECK_EQ_INT(uncore_set_read(e.set, v), persistent ? want : 0);
		uncore_sim_advance(e.sim, MS);
		uncore_sim_now(e.sim, &t1);
		int rc = uncore_set_stop(e.set, v);
		uint64_t whole = uclk_cycles(&e, t0, t1);
		for (unsigned i = 0; i < 4; i++) {
			int lost = persistent &&
				   (i == faulty(space) || (space == UNCORE_SPACE_MSR && i == 0));
			/* Persistent: the faulty socket's counters of that space
			 * keep what the last good read (the start) saw, and say so;
			 * every other counter is exact. */
			CHECK_EQ_U64(v[i], lost ? 0 : whole);
		}
		CHECK_EQ_INT(rc, persistent ? want : 0);
		CHECK_EQ_INT(uncore_set_short(e.set, NULL), persistent ? want : 0);
		if (persistent) {
			/* A retried stop and a read of the stopped set still say so. */
			CHECK_EQ_INT(uncore_set_stop(e.set, v), want);
			CHECK_EQ_INT(uncore_set_read(e.set, v), want);
		}
	} else {
		uncore_sim_now(e.sim, &t0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		uncore_sim_advance(e.sim, 2 * MS);
		uncore_sim_now(e.sim, &t1);
		hsw_inject(&e, space, UNCORE_SIM_OP_WRITE, err, persistent);
		/* The box freeze fails; the final read happens all the same. */
		CHECK_EQ_INT(uncore_set_stop(e.set, v), want);
		for (unsigned i = 0; i < 4; i++)
			CHECK_EQ_U64(v[i], uclk_cycles(&e, t0, t1));
		/* A retried stop returns the same, complete, totals. */
		memset(v, 0, sizeof(v));
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		for (unsigned i = 0; i < 4; i++)
			CHECK_EQ_U64(v[i], uclk_cycles(&e, t0, t1));
		CHECK_EQ_INT(uncore_set_short(e.set, NULL), 0);
	}
	hsw_close(&e);
	harness_row = NULL;
}

TEST(hswep_msr_and_pci_faults_on_one_socket)
{
	static const int spaces[] = {UNCORE_SPACE_MSR, UNCORE_SPACE_PCI};
	for (unsigned op = OP_START; op <= OP_STOP; op++)
		for (unsigned s = 0; s < 2; s++)
			for (unsigned k = 0; k < 3; k++)
				for (int persistent = 0; persistent < 2; persistent++)
					hsw_case((enum op)op, spaces[s], errnos[k], persistent);
}

/* The unfreeze after a read fails on socket 0 only: socket 1 is unfrozen
 * all the same and loses nothing; socket 0 stays frozen until the next
 * read, loses exactly that span, and the set says so. */
TEST(a_failed_unfreeze_on_one_socket_costs_only_that_socket)
{
	struct hsw e;
	uint64_t v[4], t0, t1, t2, t3;
	int frozen = -1;
	CHECK_EQ_INT(hsw_open(&e), 0);
	if (!e.set)
		return;
	uncore_sim_now(e.sim, &t0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	uncore_sim_advance(e.sim, MS);
	uncore_sim_now(e.sim, &t1);
	/* The read's second write of U_MSR_PMON_GLOBAL_CTL on socket 0 (freeze,
	 * then unfreeze) fails once. */
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_MSR,
				     .op = UNCORE_SIM_OP_WRITE,
				     .socket = 0,
				     .bdf = -1,
				     .addr = HSWEP_U_MSR_PMON_GLOBAL_CTL,
				     .nth = 2,
				     .count = 1,
				     .error = EIO};
	CHECK_EQ_INT(uncore_sim_inject_fault(e.sim, &f), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "unfreeze of socket 0 failed");
	CHECK_EQ_INT(uncore_sim_global_frozen(e.sim, 1, &frozen), 0);
	CHECK_EQ_INT(frozen, 0);
	CHECK_EQ_INT(uncore_sim_global_frozen(e.sim, 0, &frozen), 0);
	CHECK_EQ_INT(frozen, 1);
	uncore_sim_advance(e.sim, MS);
	uncore_sim_now(e.sim, &t2);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0); /* unfreezes socket 0 */
	uncore_sim_advance(e.sim, MS);
	uncore_sim_now(e.sim, &t3);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[1], uclk_cycles(&e, t0, t3));
	CHECK_EQ_U64(v[3], uclk_cycles(&e, t0, t3));
	CHECK_EQ_U64(v[0], uclk_cycles(&e, t0, t3) - uclk_cycles(&e, t1, t2));
	CHECK_EQ_U64(v[2], uclk_cycles(&e, t0, t3) - uclk_cycles(&e, t1, t2));
	const char *detail = NULL;
	CHECK_EQ_INT(uncore_set_short(e.set, &detail), UNCORE_EIO);
	CHECK_CONTAINS(detail, "counting stopped on part of the machine");
	CHECK_CONTAINS(detail, "socket 0");
	hsw_close(&e);
}

/* ---- Skylake client on the fake register file: MMIO next to MSR -------- */

#define BAR UINT64_C(0xfed10000)

struct skl {
	struct uncore_regio *io;
	struct fake_regio *fake;
	struct uncore_backend *be;
	struct uncore_set *set;
};

static void skl_set(struct fake_regio *f, uint8_t space, uint64_t addr, uint64_t v)
{
	struct uncore_reg r = {
	    .space = space, .width = space == UNCORE_SPACE_MSR ? 8 : 4, .addr = addr};
	fake_regio_set(f, &r, v);
}

static int skl_open(struct skl *e)
{
	static const char *const names[] = {"skl_unc_imc::DRAM_DATA_READS",
					    "skl_unc_clock::UNC_CLOCK"};
	memset(e, 0, sizeof(*e));
	e->io = fake_regio_create(0);
	e->fake = fake_regio_of(e->io);
	skl_set(e->fake, UNCORE_SPACE_MSR, SKL_MSR_UNC_CBO_CONFIG, 4);
	skl_set(e->fake, UNCORE_SPACE_PCI, 0x48, BAR | 1);
	skl_set(e->fake, UNCORE_SPACE_MMIO, BAR + SKL_IMC_DRAM_DATA_READS, 1000);
	struct uncore_direct_config cfg = {
	    .io = e->io, .own_io = 1, .read_freeze = 1, .no_socket_lock = 1};
	int rc = uncore_direct_open_skl(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	if (rc == 0)
		rc = uncore_set_assign(e->set, names, 2);
	if (rc < 0)
		fprintf(stderr, "  skl_open: %s\n", uncore_error_detail());
	return rc;
}

static void skl_close(struct skl *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
}

/* The counters at `imc` (free-running, from 1000) and `uclk` (from 0). */
static void skl_counts(struct skl *e, uint64_t imc, uint64_t uclk)
{
	skl_set(e->fake, UNCORE_SPACE_MMIO, BAR + SKL_IMC_DRAM_DATA_READS, 1000 + imc);
	skl_set(e->fake, UNCORE_SPACE_MSR, SKL_MSR_UNC_PERF_FIXED_CTR, uclk);
}

static void skl_case(enum op op, int err, int persistent)
{
	struct skl e;
	uint64_t v[2] = {0, 0};
	int want = uncore_error_from_errno(err);
	set_row(op, "MMIO", err, persistent);
	if (skl_open(&e) < 0) {
		CHECK(0);
		return;
	}
	/* MMIO counters are free-running: start and stop only read them. */
	if (op == OP_START) {
		fake_regio_fail_matching(e.fake, UNCORE_SPACE_MMIO, FAKE_READ, 1, want, persistent);
		CHECK_EQ_INT(uncore_set_start(e.set), want);
		CHECK(!uncore_set_running(e.set));
		fake_regio_fail_matching(e.fake, -1, 0, 0, 0, 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		skl_counts(&e, 500, 700);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
		CHECK_EQ_U64(v[0], 500);
		CHECK_EQ_U64(v[1], 700);
	} else if (op == OP_READ) {
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		skl_counts(&e, 500, 700);
		fake_regio_fail_matching(e.fake, UNCORE_SPACE_MMIO, FAKE_READ, 1, want, persistent);
		CHECK_EQ_INT(uncore_set_read(e.set, v), want);
		skl_counts(&e, 600, 800);
		CHECK_EQ_INT(uncore_set_read(e.set, v), persistent ? want : 0);
		skl_counts(&e, 650, 850);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), persistent ? want : 0);
		CHECK_EQ_U64(v[0], persistent ? 0 : 650);
		CHECK_EQ_U64(v[1], 850); /* the MSR box never lost a count */
		CHECK_EQ_INT(uncore_set_short(e.set, NULL), persistent ? want : 0);
	} else {
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		skl_counts(&e, 300, 400);
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
		skl_counts(&e, 650, 850);
		fake_regio_fail_matching(e.fake, UNCORE_SPACE_MMIO, FAKE_READ, 1, want, persistent);
		/* Transient: the final read is tried again and loses nothing. */
		CHECK_EQ_INT(uncore_set_stop(e.set, v), persistent ? want : 0);
		CHECK_EQ_U64(v[0], persistent ? 300 : 650);
		CHECK_EQ_U64(v[1], 850);
		CHECK_EQ_INT(uncore_set_short(e.set, NULL), persistent ? want : 0);
		CHECK_EQ_INT(uncore_set_stop(e.set, v), persistent ? want : 0);
	}
	fake_regio_fail_matching(e.fake, -1, 0, 0, 0, 0);
	skl_close(&e);
	harness_row = NULL;
}

TEST(skylake_mmio_faults_cost_the_msr_counters_nothing)
{
	for (unsigned op = OP_START; op <= OP_STOP; op++)
		for (unsigned k = 0; k < 3; k++)
			for (int persistent = 0; persistent < 2; persistent++)
				skl_case((enum op)op, errnos[k], persistent);
}

int main(void)
{
	RUN(hswep_msr_and_pci_faults_on_one_socket);
	RUN(a_failed_unfreeze_on_one_socket_costs_only_that_socket);
	RUN(skylake_mmio_faults_cost_the_msr_counters_nothing);
	return harness_done();
}
