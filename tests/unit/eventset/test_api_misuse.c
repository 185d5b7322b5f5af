/* The library's interfaces used out of order or with the wrong object:
 * each call is refused with a code and a reason, and nothing counts
 * wrongly afterwards (the library never crashes on a caller's mistake).
 * Event sets, the views of shared counters, the direct engine's and the
 * perf backend's own queries. */
#include "backend/direct/engine.h"
#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/sim_set.h"

#include <string.h>

TEST(event_set_out_of_order)
{
	struct uncore_set *s = NULL;
	CHECK_EQ_INT(uncore_set_create(NULL, &s), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "without a backend");
	struct sim_set e;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	CHECK_EQ_INT(uncore_set_start(e.set), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "the event set is empty");
	const char *ev[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"};
	CHECK_EQ_INT(sim_set_assign(&e, ev, 1), 0);
	CHECK(uncore_set_plan_event_name(e.set, 0) != NULL);
	CHECK(uncore_set_plan_event_name(e.set, 99) == NULL);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 5, &info), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "no entry 5");
	CHECK_EQ_INT(uncore_set_attached_cpu(e.set), -1);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "already running");
	/* Still counting, and exactly: one UCLK cycle a cycle on each socket. */
	uint64_t v = 0;
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000), 0);
	CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
	CHECK_EQ_U64(v, e.topo.clock_hz[0] / 1000 * e.topo.sockets);
	sim_set_close(&e);
}

TEST(a_view_out_of_order)
{
	struct sim_set e;
	struct uncore_share *hub = NULL;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", NULL, NULL) == 0);
	uncore_set_destroy(e.set);
	e.set = NULL;
	struct uncore_share_config cfg = {NULL, 1};
	REQUIRE(uncore_share_create(e.be, &cfg, &hub) == 0);
	e.be = NULL;
	struct uncore_backend *view = NULL;
	REQUIRE(uncore_share_view(hub, &view) == 0);
	CHECK(uncore_share_is_view(view));
	CHECK_EQ_INT(view->ops->start(view), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "start before program");
	uint64_t raw[4];
	CHECK_EQ_INT(view->ops->read(view, raw), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "read before program");
	struct uncore_share_sums sums;
	memset(&sums, 0, sizeof(sums));
	CHECK_EQ_INT(uncore_share_view_sum(view, &sums, raw), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "not counting");
	struct uncore_backend_stats st;
	CHECK_EQ_INT(view->ops->stats(view, &st), 0);
	view->ops->destroy(view);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(backend_queries_of_the_wrong_backend)
{
	struct uncore_backend *be = NULL;
	CHECK_EQ_INT(direct_engine_create(NULL, NULL, NULL, 0, &be), UNCORE_EINVAL);

	struct sim_set d;
	REQUIRE(sim_set_open(&d, "e5-2699v3-2s", NULL, NULL) == 0);
	struct uncore_perf_alias alias;
	const char *pmu = NULL;
	int cpu = -1;
	struct uncore_perf_calls calls;
	CHECK_EQ_INT(uncore_perf_kernel_alias(d.be, "uncore_imc", "cas_count_read", &alias),
		     UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "not a perf backend");
	CHECK_EQ_INT(uncore_perf_binding(d.be, 0, 0, 0, &pmu, &cpu), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_perf_calls(d.be, &calls), UNCORE_EINVAL);
	sim_set_close(&d);

	struct sim_set p;
	REQUIRE(sim_set_open_perf(&p, "e5-2699v3-2s", NULL, NULL) == 0);
	CHECK_EQ_INT(uncore_perf_kernel_alias(p.be, "uncore_nothing", "x", &alias),
		     UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "the kernel has no PMU uncore_nothing");
	CHECK_EQ_INT(uncore_perf_kernel_alias(p.be, "uncore_imc", "no_such_alias", &alias),
		     UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "has no event no_such_alias");
	CHECK_EQ_INT(uncore_perf_binding(p.be, 999, 0, 0, &pmu, &cpu), UNCORE_ENODEV);
	struct uncore_backend_stats st;
	CHECK_EQ_INT(p.be->ops->stats(p.be, &st), 0);
	struct uncore_slot_status ss;
	CHECK_EQ_INT(p.be->ops->slot_status(p.be, 7, &ss), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "no slot 7 programmed");
	CHECK_EQ_INT(uncore_perf_calls(p.be, &calls), 0);
	sim_set_close(&p);
}

int main(void)
{
	RUN(event_set_out_of_order);
	RUN(a_view_out_of_order);
	RUN(backend_queries_of_the_wrong_backend);
	return harness_done();
}
