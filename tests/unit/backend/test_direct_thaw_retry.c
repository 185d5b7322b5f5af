/* A failed unfreeze is retried at the next opportunity (issue 29): the
 * direct backend freezes every socket around a read (read_freeze, HSX PMON
 * 2.1.3 a) and unfreezes it after; when that unfreeze fails, the socket
 * stays frozen.  The next read - the background poller's fold-only read
 * too, which otherwise neither freezes nor unfreezes - unfreezes it again,
 * so counting resumes at the poller's tick, not at the application's next
 * read.  On a simulated two-socket Haswell-EP counting the R3QPI link 0
 * clockticks of both sockets (hswep-clocks.scn, one a UCLK cycle), the
 * fault: socket 0's unfreeze of U_MSR_PMON_GLOBAL_CTL fails once. */
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "sim/uncore_sim.h"
#include "sim_set.h"

#include <errno.h>

#define MS 1000000ull

static const char *const names[] = {"hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0",
				    "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=1"};

/* The freeze is socket 0's first write of the global control in a read,
 * the unfreeze its second. */
static const struct uncore_sim_fault thaw_fails = {.space = UNCORE_SPACE_MSR,
						   .op = UNCORE_SIM_OP_WRITE,
						   .socket = 0,
						   .bdf = -1,
						   .addr = HSWEP_U_MSR_PMON_GLOBAL_CTL,
						   .nth = 2,
						   .count = 1,
						   .error = EIO};

/* Start, 1 ms, a read whose unfreeze fails on socket 0; then `poll` (the
 * poller's read, or none), 1 ms, a read: the last millisecond's counts of
 * both sockets into d[2]. */
static void run(int poll, uint64_t d[2])
{
	struct sim_set e;
	uint64_t v[2], w[2];
	d[0] = d[1] = UINT64_MAX;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	REQUIRE(sim_set_assign(&e, names, 2) == 0);
	REQUIRE(uncore_set_start(e.set) == 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, MS), 0);
	CHECK_EQ_INT(uncore_sim_inject_fault(e.sim, &thaw_fails), 0);
	CHECK(uncore_set_read(e.set, v) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "global unfreeze of socket 0 failed");
	uncore_error_clear();
	if (poll)
		CHECK_EQ_INT(uncore_set_poll(e.set, v), 0);
	else
		CHECK_EQ_INT(uncore_set_read(e.set, v), 0); /* a read: freezes and thaws */
	uncore_error_clear();
	CHECK_EQ_INT(uncore_sim_advance(e.sim, MS), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, w), 0);
	d[0] = w[0] - v[0];
	d[1] = w[1] - v[1];
	CHECK_EQ_INT(uncore_set_stop(e.set, NULL) <= 0, 1);
	uncore_error_clear();
	sim_set_close(&e);
}

TEST(the_pollers_read_unfreezes_a_socket_whose_unfreeze_failed)
{
	struct sim_set probe;
	REQUIRE(sim_set_open(&probe, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	const uint64_t uclk_per_ms = probe.topo.clock_hz[HSWEP_CLK_UCLK] / 1000;
	sim_set_close(&probe);
	uint64_t d[2];
	run(1, d);
	CHECK_EQ_U64(d[1], uclk_per_ms); /* socket 1 was never frozen */
	CHECK_EQ_U64(d[0], uclk_per_ms); /* socket 0 counts again after the poll */
	/* The application's own read unfreezes it the same way. */
	run(0, d);
	CHECK_EQ_U64(d[1], uclk_per_ms);
	CHECK_EQ_U64(d[0], uclk_per_ms);
}

int main(void)
{
	RUN(the_pollers_read_unfreezes_a_socket_whose_unfreeze_failed);
	return harness_done();
}
