/* The simulator on the wall clock (issue 27): boxes are brought to the
 * wall clock's time one at a time, when their registers are accessed
 * (sim_clock.c, "Lazy catch-up"), yet a global freeze or unfreeze stops or
 * starts every box of the socket at one instant, and an overflow that
 * raises the freeze (ov_en) stops every box when it happens, not when its
 * box is next read.  Counts here are exact relations between boxes (equal
 * streams, equal counts), never wall-clock durations. */
#include "sim_test.h"

#include <time.h>

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

#define EN     HSWEP_PMON_CTL_EN
#define OV_EN  HSWEP_PMON_CTL_OV_EN
#define GCTL   HSWEP_U_MSR_PMON_GLOBAL_CTL
#define CBO(i) (0xe00u + 0x10u * (i)) /* C<i>_MSR_PMON_BOX_CTL (Table 2-58) */

/* Socket 0 frozen on the wall clock, CBo 0-2 counting 1G/s each once
 * thawed; NULL when the machine cannot be made (the failure is counted). */
static struct uncore_sim *frozen_cbos(struct uncore_regio **io_out)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", "stream cbo ev=0x01 rate=1G/s\n");
	if (!sim)
		return NULL;
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK_EQ_INT(uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_WALL), 0);
	WR(io, msr_reg(0, GCTL), HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	for (unsigned i = 0; i < 3; i++)
		WR(io, msr_reg(0, CBO(i) + 1), EN | 0x01);
	*io_out = io;
	return sim;
}

TEST(a_global_freeze_stops_every_box_at_one_instant)
{
	struct uncore_regio *io = NULL;
	struct uncore_sim *sim = frozen_cbos(&io);
	if (!sim)
		return;
	/* Every box starts at the unfreeze; the first one is read while
	 * counting (brought to its instant alone), the others are not. */
	WR(io, msr_reg(0, GCTL), HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	sleep_ms(4);
	uint64_t running = RD(io, msr_reg(0, CBO(0) + 8));
	sleep_ms(4);
	WR(io, msr_reg(0, GCTL), HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	sleep_ms(4);
	uint64_t c0 = RD(io, msr_reg(0, CBO(0) + 8));
	CHECK(c0 > running);
	CHECK(running >= 4000000); /* 4 ms at 1G/s at least */
	for (unsigned i = 1; i < 3; i++)
		CHECK_EQ_U64(RD(io, msr_reg(0, CBO(i) + 8)), c0);
	sleep_ms(2);
	CHECK_EQ_U64(RD(io, msr_reg(0, CBO(2) + 8)), c0); /* frozen */
	/* The other socket was never frozen: it counts on. */
	WR(io, msr_reg(1, CBO(0) + 1), EN | 0x01);
	uint64_t s1 = RD(io, msr_reg(1, CBO(0) + 8));
	sleep_ms(2);
	CHECK(RD(io, msr_reg(1, CBO(0) + 8)) > s1);
	uncore_sim_close(sim);
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A freeze or thaw write does not bring the boxes on (the socket's freeze
 * log, issue 27s): boxes caught up at different moments across many
 * freezes and thaws - one read while counting in every round, the others
 * only at the end, more changes than the log holds - count the same, and
 * none counts while frozen. */
TEST(boxes_behind_many_freezes_count_only_while_thawed)
{
	struct uncore_regio *io = NULL;
	struct uncore_sim *sim = frozen_cbos(&io);
	if (!sim)
		return;
	enum { ROUNDS = 12 };
	uint64_t last = 0;
	int64_t t0 = mono_ns();
	for (unsigned r = 0; r < ROUNDS; r++) {
		WR(io, msr_reg(0, GCTL), HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
		sleep_ms(1);
		uint64_t v = RD(io, msr_reg(0, CBO(0) + 8));
		CHECK(v >= last + 1000000); /* 1 ms at 1G/s at least this round */
		last = v;
		WR(io, msr_reg(0, GCTL), HSWEP_U_GLOBAL_CTL_FRZ_ALL);
		if (r + 1 < ROUNDS)
			sleep_ms(1);
	}
	int64_t t1 = mono_ns();
	uint64_t c0 = RD(io, msr_reg(0, CBO(0) + 8));
	CHECK(c0 >= last);
	for (unsigned i = 1; i < 3; i++)
		CHECK_EQ_U64(RD(io, msr_reg(0, CBO(i) + 8)), c0);
	/* At 1 count per ns: never more than the time between the first thaw
	 * and the last freeze less the frozen 1 ms sleeps inside it. */
	CHECK(c0 <= (uint64_t)(t1 - t0) - (ROUNDS - 1) * UINT64_C(1000000));
	sleep_ms(2);
	CHECK_EQ_U64(RD(io, msr_reg(0, CBO(2) + 8)), c0); /* frozen */
	uncore_sim_close(sim);
}

TEST(an_overflow_freeze_stops_boxes_not_yet_read)
{
	/* PCU counter 0 with ov_en, 2 ms before it wraps; CBo 0 counts beside
	 * it and is read only long after the wrap: it stopped at the freeze. */
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "stream pcu ev=0x01 rate=100M/s\nstream cbo ev=0x01 rate=1G/s\n");
	if (!sim)
		return;
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK_EQ_INT(uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_WALL), 0);
	WR(io, msr_reg(0, CBO(0) + 1), EN | 0x01);
	WR(io, msr_reg(0, 0x717), (UINT64_C(1) << 48) - 200000);
	WR(io, msr_reg(0, 0x711), EN | OV_EN | 0x01);
	sleep_ms(30);
	uint64_t v1 = RD(io, msr_reg(0, CBO(0) + 8));
	sleep_ms(4);
	uint64_t v2 = RD(io, msr_reg(0, CBO(0) + 8));
	int frozen = 0;
	CHECK_EQ_INT(uncore_sim_global_frozen(sim, 0, &frozen), 0);
	CHECK_EQ_INT(frozen, 1);
	CHECK_EQ_U64(v2, v1);
	CHECK(v1 >= 2000000 && v1 < 30000000); /* counted until the wrap, not until the read */
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(a_global_freeze_stops_every_box_at_one_instant);
	RUN(boxes_behind_many_freezes_count_only_while_thawed);
	RUN(an_overflow_freeze_stops_boxes_not_yet_read);
	return harness_done();
}
