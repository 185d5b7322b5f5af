/* A read of shared counters that meets a fault on one register (share.h,
 * backend.h "unread" slots), for a multiplexed set, which reads through
 * its view's own read: the read says so, the counter that could not be
 * read keeps what it had and catches up at the next read, and no other
 * counter loses anything.  On the simulator: the Wb{I,S,E} writebacks of
 * QPI port 0 (test_multiplex_ownership.c's scenario, three settings taking
 * turns) beside the UBox clock of both sockets, one a UCLK cycle each
 * (hswep-clocks.scn); the fault: one read of PCI configuration space fails
 * with EIO, once.  Then (issue 29) every failed read and stop is a notice
 * naming what failed, on a set of its own backend and on a shared one. */
#include "bind/notices.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/sim_set.h"
#include "support/sim_texts.h"
#include "support/view_set.h"

#include <errno.h>
#include <string.h>

#define MS 1000000ull

static const char wb_constant[] = SIM_TEXT_QPI_WRITEBACKS;

static const char *const names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI",
				    "hswep_unc_ubo::UNC_U_CLOCKTICKS"};

TEST(one_unread_counter_costs_the_others_nothing)
{
	struct sim_set e;
	struct uncore_share *hub = NULL;
	struct uncore_backend *view = NULL;
	struct uncore_set *set = NULL;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", NULL, wb_constant) == 0);
	struct uncore_share_config cfg = {NULL, 1};
	REQUIRE(uncore_share_create(e.be, &cfg, &hub) == 0);
	e.be = NULL;
	REQUIRE(uncore_share_view(hub, &view) == 0);
	REQUIRE(uncore_set_create(view, &set) == 0);
	uncore_set_clock(set, uncore_set_get_clock(e.set));
	REQUIRE(uncore_set_assign(set, names, 2) == 0);
	struct uncore_set_entry_info info;
	REQUIRE(uncore_set_entry_info(set, 0, &info) == 0);
	CHECK_EQ_INT(info.nsettings, 3); /* multiplexed */
	const uint64_t uclk_per_ms = e.topo.clock_hz[0] / 1000;

	uint64_t v[2];
	REQUIRE(uncore_set_start(set) == 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(set, v), 0);
	CHECK_EQ_U64(v[1], 2 * 10 * uclk_per_ms);

	const struct uncore_sim_fault once = {.space = UNCORE_SPACE_PCI,
					      .op = UNCORE_SIM_OP_READ,
					      .socket = -1,
					      .bdf = -1,
					      .addr = -1,
					      .nth = 1,
					      .count = 1,
					      .error = EIO};
	CHECK_EQ_INT(uncore_sim_inject_fault(e.sim, &once), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	int rc = uncore_set_read(set, v);
	CHECK(rc < 0);
	CHECK_CONTAINS(uncore_error_detail(), "injected fault");
	uncore_error_clear();
	/* The UBox (MSRs) was read: all 20 ms. */
	CHECK_EQ_U64(v[1], 2 * 20 * uclk_per_ms);

	/* The next reads: nothing lost, the writebacks exact over the 90 ms
	 * (60 M/s of 64 bytes), the clock too. */
	for (int r = 0; r < 7; r++) {
		CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
		CHECK_EQ_INT(uncore_set_read(set, v), 0);
	}
	CHECK_EQ_U64(v[1], 2 * 90 * uclk_per_ms);
	CHECK_NEAR(uncore_set_value_double(&info, v[0]), 60e6 * 0.09 * 64, 1e-3);
	CHECK_EQ_INT(uncore_set_stop(set, v), 0);
	uncore_set_destroy(set);
	view->ops->destroy(view);
	uncore_share_release(hub);
	sim_set_close(&e);
}

/* A failed read, then a failed stop of `set` (counting iMC 0's read CAS
 * of socket 0 in PCI config space, stream.scn: 1e8 a second): each adds
 * one notice whose words say so and keep the register the fault named;
 * the read after the failed one is exact. */
static void failures_are_notices(struct uncore_sim *sim, struct uncore_set *set)
{
	const char *last = NULL;
	uint64_t v[1];
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_PCI,
				     .op = UNCORE_SIM_OP_READ,
				     .socket = -1,
				     .bdf = -1,
				     .addr = -1,
				     .nth = 1,
				     .count = 1,
				     .error = EIO};
	REQUIRE(uncore_set_start(set) == 0);
	CHECK_EQ_INT(uncore_sim_advance(sim, NS_PER_S), 0);
	CHECK_EQ_INT(uncore_set_read(set, v), 0);
	CHECK_EQ_U64(v[0], 100000000);
	CHECK_EQ_INT(uncore_set_notices(set, NULL), 0);

	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	CHECK_EQ_INT(uncore_sim_advance(sim, NS_PER_S), 0);
	CHECK(uncore_set_read(set, v) < 0);
	CHECK_EQ_INT(uncore_set_notices(set, &last), 1);
	CHECK_EQ_INT(strncmp(last, INTEL_UNCORE_NOTICE_READ_FAILED,
			     strlen(INTEL_UNCORE_NOTICE_READ_FAILED)),
		     0);
	CHECK_CONTAINS(last, "injected fault: read of pci 7f:14.0+0xa0 failed with EIO");
	uncore_error_clear();
	CHECK_EQ_INT(uncore_set_read(set, v), 0);
	CHECK_EQ_U64(v[0], 200000000);
	CHECK_EQ_INT(uncore_set_notices(set, NULL), 1);

	/* For good: the stop's reads fail too. */
	f.count = 0;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	CHECK(uncore_set_stop(set, v) < 0);
	CHECK(uncore_set_notices(set, &last) >= 2);
	CHECK_EQ_INT(strncmp(last, INTEL_UNCORE_NOTICE_STOP_FAILED,
			     strlen(INTEL_UNCORE_NOTICE_STOP_FAILED)),
		     0);
	CHECK_CONTAINS(last, "injected fault: read of pci 7f:14.0+0xa0 failed with EIO");
	CHECK_CONTAINS(uncore_error_detail(), "injected fault");
	uncore_error_clear();
	CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
}

static const char *const imc0[] = {"hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0"};

TEST(failures_are_notices_own_backend)
{
	struct sim_set e;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL) == 0);
	REQUIRE(sim_set_assign(&e, imc0, 1) == 0);
	failures_are_notices(e.sim, e.set);
	sim_set_close(&e);
}

/* Shared counters: the last holder's teardown meets the fault again and
 * must not wipe the stop's detail. */
TEST(failures_are_notices_shared)
{
	struct sim_set e;
	struct uncore_share *hub = NULL;
	struct view_set vs;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL) == 0);
	struct uncore_share_config cfg = {NULL, 1};
	REQUIRE(uncore_share_create(e.be, &cfg, &hub) == 0);
	e.be = NULL;
	/* view_set_open, but with the simulator's clock before the events:
	 * the set's interval starts on it. */
	REQUIRE(uncore_share_view(hub, &vs.view) == 0);
	REQUIRE(uncore_set_create(vs.view, &vs.set) == 0);
	uncore_set_clock(vs.set, uncore_set_get_clock(e.set));
	REQUIRE(uncore_set_assign(vs.set, imc0, 1) == 0);
	failures_are_notices(e.sim, vs.set);
	view_set_close(&vs);
	uncore_share_release(hub);
	sim_set_close(&e);
}

int main(void)
{
	RUN(one_unread_counter_costs_the_others_nothing);
	RUN(failures_are_notices_own_backend);
	RUN(failures_are_notices_shared);
	return harness_done();
}
