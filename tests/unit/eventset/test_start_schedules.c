/* How often the start path schedules (issue 25: "schedules once per
 * start"): the library's calls of uncore_schedule, counted through the
 * linker (--wrap, Makefile), while event sets on a shared hub are built,
 * started, stopped and started again on the simulator.  A set is scheduled
 * once, when its events are given; a start of a set counting alone
 * schedules nothing more (the union of its events is its own plan), nor
 * does starting it again.  A start next to running sets schedules once:
 * its admission (hub_check_admission, issue 29: each of its settings
 * against every combination of theirs, once per combination: once here)
 * schedules its setting next to their current ones in the union's order,
 * and that plan is the union programmed (hub_union), not scheduled again.
 * The counts stay exact. */
#include "common/uncore_error.h"
#include "eventset/share.h"
#include "harness.h"
#include "plan/sched.h"
#include "sim_set.h"
#include "view_set.h"

#include <string.h>

#define MS 1000000ull

int __real_uncore_schedule(const struct uncore_machine *m, const struct uncore_sched_event *ev,
			   unsigned n, struct uncore_plan *out);
int __wrap_uncore_schedule(const struct uncore_machine *m, const struct uncore_sched_event *ev,
			   unsigned n, struct uncore_plan *out);

static unsigned schedules;

int __wrap_uncore_schedule(const struct uncore_machine *m, const struct uncore_sched_event *ev,
			   unsigned n, struct uncore_plan *out)
{
	schedules++;
	return __real_uncore_schedule(m, ev, n, out);
}

static int open_hub(struct sim_set *e, struct uncore_share **hub)
{
	int rc = sim_set_open(e, "e5-2699v3-2s", "hswep-clocks.scn", NULL);
	if (rc < 0)
		return rc;
	uncore_set_destroy(e->set);
	e->set = NULL;
	struct uncore_share_config cfg = {NULL, 1};
	rc = uncore_share_create(e->be, &cfg, hub);
	if (rc == 0)
		e->be = NULL; /* the hub's now */
	return rc;
}

TEST(a_lone_set_is_scheduled_once)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a;
	const char *ev[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1",
			    "hswep_unc_ubo::UNC_U_CLOCKTICKS"};
	uint64_t v[2], w[2];

	CHECK_EQ_INT(open_hub(&e, &hub), 0);
	schedules = 0;
	CHECK_EQ_INT(view_set_open(hub, ev, 2, &a), 0);
	CHECK_EQ_INT(schedules, 1);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(schedules, 1);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 2 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, v), 0);
	/* Started again with the same events: nothing to schedule. */
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 2 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, w), 0);
	CHECK_EQ_INT(schedules, 1);
	/* The UBox counts one per cycle on each socket, in both runs. */
	uint64_t per_ms = e.topo.clock_hz[0] / 1000;
	CHECK_EQ_U64(v[1], 2 * per_ms * e.topo.sockets);
	CHECK_EQ_U64(w[1], 2 * per_ms * e.topo.sockets);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
}

TEST(a_start_next_to_running_sets_schedules_the_union_once)
{
	struct sim_set e;
	struct uncore_share *hub;
	struct view_set a, b, c;
	const char *ev[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"};
	const char *other[] = {"hswep_unc_cbo::UNC_C_CLOCKTICKS:socket=1"};
	uint64_t a1[1], b1[1], c1[1];

	CHECK_EQ_INT(open_hub(&e, &hub), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 1, &a), 0);
	CHECK_EQ_INT(view_set_open(hub, other, 1, &b), 0);
	CHECK_EQ_INT(view_set_open(hub, ev, 1, &c), 0);
	schedules = 0;
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(schedules, 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0); /* admission: the union it grows to */
	CHECK_EQ_INT(schedules, 1);
	CHECK_EQ_INT(uncore_set_start(c.set), 0); /* admission; A's event: the same union */
	CHECK_EQ_INT(schedules, 2);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 3 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(c.set, c1), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, b1), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, a1), 0);
	uint64_t per_ms = e.topo.clock_hz[0] / 1000;
	CHECK_EQ_U64(a1[0], 3 * per_ms * e.topo.sockets);
	CHECK_EQ_U64(c1[0], a1[0]);
	CHECK(b1[0] > 0);
	view_set_close(&a);
	view_set_close(&b);
	view_set_close(&c);
	uncore_share_release(hub);
	sim_set_close(&e);
}

int main(void)
{
	RUN(a_lone_set_is_scheduled_once);
	RUN(a_start_next_to_running_sets_schedules_the_union_once);
	return harness_done();
}
