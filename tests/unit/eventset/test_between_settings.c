/* A multiplexed metric whose change of setting fails (eventset.c, "between
 * settings"): the set stays running so that PAPI's state and the set's
 * agree; nothing counts until a later read programs the setting again;
 * reads meanwhile give the counts so far with the reason, a reset clears
 * them, a stop ends the set with them.  Counted on the simulator: the three
 * Wb{I,S,E} filters of QPI port 0 take turns (test_multiplex_ownership.c's
 * constant writebacks), beside the QPI clock of both links of socket 0 at
 * QFCLK 1.2 GHz, which every setting counts.  The failure: every write to
 * PCI configuration space fails (an injected EIO), as after a device
 * error; the reads still work. */
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/sim_set.h"
#include "support/sim_texts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MS        1000000ull
#define QFCLK_HZ  1200000000ull
#define LINKS     2ull
#define TICKS(ms) (QFCLK_HZ / 1000 * (ms)*LINKS)

static const char wb_constant[] = SIM_TEXT_QPI_WRITEBACKS;

static const char *const names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI",
				    "hswep_unc_qpi::UNC_Q_CLOCKTICKS:socket=0"};

static const struct uncore_sim_fault pci_writes_fail = {
    .space = UNCORE_SPACE_PCI,
    .op = UNCORE_SIM_OP_WRITE,
    .socket = -1,
    .bdf = -1,
    .addr = -1,
    .nth = 1,
    .count = 0,
    .error = EIO,
};

/* Started, read once after 10 ms (the first change of setting works),
 * then 10 ms more and a read whose change of setting fails. */
static int open_and_fail(struct sim_set *e, uint64_t *v)
{
	if (sim_set_open(e, "e5-2699v3-2s", NULL, wb_constant) < 0 ||
	    sim_set_assign(e, names, 2) < 0 || uncore_set_start(e->set) < 0)
		return -1;
	CHECK_EQ_INT(uncore_sim_advance(e->sim, 10 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(e->set, v), 0);
	CHECK_EQ_U64(v[1], TICKS(10));
	CHECK_EQ_INT(uncore_sim_inject_fault(e->sim, &pci_writes_fail), 0);
	CHECK_EQ_INT(uncore_sim_advance(e->sim, 10 * MS), 0);
	int rc = uncore_set_read(e->set, v);
	CHECK(rc < 0);
	CHECK_CONTAINS(uncore_error_detail(), "injected fault: write of pci"); /* the cause */
	const char *why = NULL;
	CHECK_EQ_INT(uncore_set_short(e->set, &why), rc);
	CHECK_CONTAINS(why ? why : "", "time-multiplexed setting failed");
	CHECK_EQ_U64(v[1], TICKS(20)); /* the counts of the read itself */
	CHECK_EQ_INT(uncore_set_running(e->set), 1);
	uncore_error_clear();
	return 0;
}

TEST(counting_resumes_at_a_later_read)
{
	struct sim_set e;
	uint64_t v[2] = {0, 0};
	REQUIRE(open_and_fail(&e, v) == 0);
	/* Still failing: the counts so far, and the reason again. */
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	memset(v, 0xff, sizeof(v));
	CHECK(uncore_set_read(e.set, v) < 0);
	CHECK_EQ_U64(v[1], TICKS(20));
	uncore_error_clear();
	/* The device recovers: the next read programs the setting again and
	 * counting goes on from there; the 20 ms between were not counted. */
	CHECK_EQ_INT(uncore_sim_clear_faults(e.sim), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_EQ_U64(v[1], TICKS(20));
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[1], TICKS(30));
	sim_set_close(&e);
}

TEST(a_reset_between_settings_clears_and_a_stop_ends_with_the_counts_so_far)
{
	struct sim_set e;
	uint64_t v[2] = {0, 0};
	REQUIRE(open_and_fail(&e, v) == 0);
	CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	memset(v, 0xff, sizeof(v));
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[1], 0);
	CHECK_EQ_INT(uncore_set_running(e.set), 0);
	uncore_error_clear();
	/* The next start counts afresh, the device well again. */
	CHECK_EQ_INT(uncore_sim_clear_faults(e.sim), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[1], TICKS(10));
	sim_set_close(&e);
}

TEST(a_stop_between_settings_keeps_the_counts_so_far)
{
	struct sim_set e;
	uint64_t v[2] = {0, 0};
	REQUIRE(open_and_fail(&e, v) == 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 10 * MS), 0);
	memset(v, 0xff, sizeof(v));
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[1], TICKS(20));
	CHECK_EQ_INT(uncore_set_running(e.set), 0);
	uncore_error_clear();
	sim_set_close(&e);
}

int main(void)
{
	RUN(counting_resumes_at_a_later_read);
	RUN(a_reset_between_settings_clears_and_a_stop_ends_with_the_counts_so_far);
	RUN(a_stop_between_settings_keeps_the_counts_so_far);
	return harness_done();
}
