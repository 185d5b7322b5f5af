/* The wrap guard of the shared counters (share_internal.h, hub_guard;
 * README "Nothing lost"), on the simulator's virtual clock: a reading later
 * than a counter's wrap period after the previous one is noted on the sets
 * counting it (uncore_set_notices: how many, and which counter may have
 * lost how many wraps); one earlier is not; a set that starts after such a
 * reading starts from it and has none; the perf backend's 64-bit totals
 * need no guard here (the kernel's timer folds them; the simulated kernel
 * has none in virtual time, so that is not tested here).  Haswell-EP CBo
 * clockticks: 48 bits at our fastest UCLK, 3 GHz (desc_hswep.c): 2^48 / 3 =
 * 93,824,992,236,885 ns; the model's UCLK is 2.5 GHz, 36 CBos.  The
 * Skylake client's 32-bit IMC counters through PAPI: papi_wrap_guard. */
#include "common/uncore_error.h"
#include "eventset/share.h"
#include "eventset/share_internal.h"
#include "harness.h"
#include "sim_set.h"

#include <string.h>

#define SEC    1000000000ull
#define PERIOD 93824992236885ull

static int sim_now(void *ctx, uint64_t *ns)
{
	return uncore_sim_now(ctx, ns);
}

struct guarded {
	struct sim_set e;
	struct uncore_share *hub;
	struct uncore_backend *view[2];
	struct uncore_set *set[2];
};

static int open_guarded(struct guarded *g, int perf, const char *model, const char *scenario)
{
	memset(g, 0, sizeof(*g));
	int rc = perf ? sim_set_open_perf(&g->e, model, scenario, NULL)
		      : sim_set_open(&g->e, model, scenario, NULL);
	if (rc < 0)
		return rc;
	uncore_set_destroy(g->e.set);
	g->e.set = NULL;
	struct uncore_clock clock = {sim_now, g->e.sim, 0};
	struct uncore_share_config cfg = {NULL, 1};
	rc = uncore_share_create(g->e.be, &cfg, &g->hub);
	if (rc == 0) {
		g->e.be = NULL;
		uncore_share_set_clock(g->hub, &clock);
	}
	for (int i = 0; rc == 0 && i < 2; i++) {
		rc = uncore_share_view(g->hub, &g->view[i]);
		if (rc == 0)
			rc = uncore_set_create(g->view[i], &g->set[i]);
	}
	return rc;
}

static void close_guarded(struct guarded *g)
{
	for (int i = 0; i < 2; i++) {
		uncore_set_destroy(g->set[i]);
		if (g->view[i])
			g->view[i]->ops->destroy(g->view[i]);
	}
	uncore_share_release(g->hub);
	sim_set_close(&g->e);
}

static const char *const CBO[] = {"hswep_unc_cbo::UNC_C_CLOCKTICKS"};

TEST(a_reading_later_than_the_wrap_period_is_noted_with_the_wraps)
{
	struct guarded g;
	const char *said;
	uint64_t v;
	REQUIRE(open_guarded(&g, 0, "e5-2699v3-2s", "hswep-clocks.scn") == 0);
	CHECK_EQ_INT(uncore_set_assign(g.set[0], CBO, 1), 0);
	CHECK_EQ_INT(uncore_set_start(g.set[0]), 0);
	CHECK_EQ_INT(uncore_sim_advance(g.e.sim, PERIOD - 1), 0);
	CHECK_EQ_INT(uncore_set_read(g.set[0], &v), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[0], &said), 0);
	CHECK_EQ_U64(v, 36 * ((PERIOD - 1) * 5 / 2)); /* no wrap yet at 2.5 GHz */
	CHECK_EQ_INT(uncore_sim_advance(g.e.sim, PERIOD), 0);
	CHECK_EQ_INT(uncore_set_read(g.set[0], &v), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[0], &said), 1);
	CHECK_CONTAINS(said, "may have lost 1 wraps of hswep_unc_cbo::UNC_C_CLOCKTICKS on socket ");
	CHECK_CONTAINS(said, "its 48-bit counter can wrap every 93824.992 s");
	CHECK_CONTAINS(said, "and other counters too");
	/* A set started after a late reading counts from it: nothing lost. */
	CHECK_EQ_INT(uncore_set_assign(g.set[1], CBO, 1), 0);
	CHECK_EQ_INT(uncore_sim_advance(g.e.sim, 3 * PERIOD), 0);
	CHECK_EQ_INT(uncore_set_start(g.set[1]), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[1], NULL), 0);
	CHECK_EQ_INT(uncore_sim_advance(g.e.sim, SEC), 0);
	CHECK_EQ_INT(uncore_set_read(g.set[1], &v), 0);
	CHECK_EQ_U64(v, 36 * 2500000000ull);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[1], NULL), 0);
	/* The hub noted it at that start for every set counting: the first
	 * set's next read says so. */
	CHECK_EQ_INT(uncore_set_read(g.set[0], &v), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[0], &said), 2);
	CHECK_CONTAINS(said, "may have lost 3 wraps of hswep_unc_cbo::UNC_C_CLOCKTICKS");
	CHECK_EQ_INT(uncore_set_stop(g.set[0], NULL), 0);
	CHECK_EQ_INT(uncore_set_stop(g.set[1], NULL), 0);
	/* A new start: no notice of the last run. */
	CHECK_EQ_INT(uncore_set_start(g.set[0]), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[0], NULL), 0);
	CHECK_EQ_INT(uncore_set_stop(g.set[0], NULL), 0);
	close_guarded(&g);
}

TEST(the_stop_s_reading_is_guarded_too)
{
	struct guarded g;
	const char *said;
	REQUIRE(open_guarded(&g, 0, "e5-2699v3-2s", "hswep-clocks.scn") == 0);
	CHECK_EQ_INT(uncore_set_assign(g.set[0], CBO, 1), 0);
	CHECK_EQ_INT(uncore_set_start(g.set[0]), 0);
	CHECK_EQ_INT(uncore_sim_advance(g.e.sim, 2 * PERIOD), 0);
	CHECK_EQ_INT(uncore_set_stop(g.set[0], NULL), 0);
	CHECK_EQ_INT((int)uncore_set_notices(g.set[0], &said), 1);
	CHECK_CONTAINS(said, "may have lost 2 wraps of hswep_unc_cbo::UNC_C_CLOCKTICKS");
	close_guarded(&g);
}

/* The guard's clock of the next test: what it reads when no instant is
 * handed to it. */
static uint64_t guard_now;
static int guard_clock(void *ctx, uint64_t *ns)
{
	(void)ctx;
	*ns = guard_now;
	return 0;
}

/* The backend's freeze instant (backend.h, read_ns[0]) is the guard's only
 * for the read that froze (read_timed): a later read that did not freeze
 * leaves the earlier instant there, and taken as its time a late read
 * would pass unnoticed (the last fold's time never moves back).  hub_guard
 * on a hub of its own, the way a set's timed read hands it the instant. */
TEST(the_freeze_instant_is_the_guard_s_only_for_the_read_that_froze)
{
	struct uncore_backend be;
	struct uncore_share hub;
	memset(&be, 0, sizeof(be));
	memset(&hub, 0, sizeof(hub));
	hub.be = &be;
	hub.clock.now_ns = guard_clock;
	hub.min_wrap_ns = 10 * SEC;
	hub.fold_ns = 100 * SEC;
	/* A read that froze at 105 s. */
	be.read_timed = 1;
	be.read_ns[0] = 105 * SEC;
	guard_now = 106 * SEC;
	hub_guard(&hub, 0, be.read_ns);
	CHECK_EQ_U64(hub.fold_ns, 105 * SEC);
	CHECK_EQ_INT((int)hub.wrap_gen, 0);
	/* One that did not freeze, at 200 s: the guard's own clock. */
	be.read_timed = 0;
	guard_now = 200 * SEC;
	hub_guard(&hub, 0, be.read_ns);
	CHECK_EQ_INT((int)hub.wrap_gen, 1);
	CHECK_EQ_U64(hub.wrap_gap_ns, 95 * SEC);
	CHECK_EQ_U64(hub.fold_ns, 200 * SEC);
	/* A frozen one again, 3 s later: nothing to note. */
	be.read_timed = 1;
	be.read_ns[0] = 203 * SEC;
	hub_guard(&hub, 0, be.read_ns);
	CHECK_EQ_INT((int)hub.wrap_gen, 1);
	CHECK_EQ_U64(hub.fold_ns, 203 * SEC);
}

int main(void)
{
	RUN(a_reading_later_than_the_wrap_period_is_noted_with_the_wraps);
	RUN(the_stop_s_reading_is_guarded_too);
	RUN(the_freeze_instant_is_the_guard_s_only_for_the_read_that_froze);
	return harness_done();
}
