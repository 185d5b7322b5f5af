/* Scheduling on boxes with several fixed (free-running) counters, as the
 * Skylake client IMC has: each event gets the counter its encoding names,
 * repeated events share it, two different encodings on one fixed counter
 * conflict, and a box with one fixed counter behaves as before. */
#include "common/uncore_error.h"
#include "plan/sched.h"
#include "harness.h"

#include <string.h>

static const struct uncore_box_type fr_type = {.name = "test_unc_fr",
					       .kind = "imc",
					       .ninstances = 1,
					       .nfixed = 5,
					       .fixed_width = 32,
					       .flags = UNCORE_BOXF_FREERUN};
static const struct uncore_box_type mixed_type = {.name = "test_unc_mixed",
						  .kind = "mixed",
						  .ninstances = 2,
						  .ngeneric = 2,
						  .counter_width = 44,
						  .nfixed = 1,
						  .fixed_width = 48};
static const struct uncore_box_type *const boxes[] = {&fr_type, &mixed_type};
static const struct uncore_event_platform plat = {
    .platform = &uncore_platform_skl, .name = "test", .boxes = boxes, .nboxes = 2};

static struct uncore_machine machine(void)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = &plat;
	m.nsockets = 1;
	m.present[0][0].w[0] = 0x1;
	m.present[1][0].w[0] = 0x3;
	return m;
}

static struct uncore_sched_event fixed_ev(const char *name, const struct uncore_box_type *box,
					  unsigned index, uint64_t ctl)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ref.box = box;
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = UNCORE_ALL;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = ctl;
	e.enc.fixed = 1;
	e.enc.fixed_index = (uint8_t)index;
	e.enc.freerun = !!(box->flags & UNCORE_BOXF_FREERUN);
	return e;
}

TEST(each_free_running_counter_is_its_own_slot)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[] = {
	    fixed_ev("READS", &fr_type, 3, 0), fixed_ev("WRITES", &fr_type, 4, 0),
	    fixed_ev("GT", &fr_type, 0, 0),    fixed_ev("IA", &fr_type, 1, 0),
	    fixed_ev("IO", &fr_type, 2, 0),    fixed_ev("READS again", &fr_type, 3, 0),
	};
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 6, &p), 0);
	CHECK_EQ_INT(p.nslots, 5);
	CHECK_EQ_INT(p.nboxes, 1);
	CHECK_EQ_U64(p.boxes[0].fixed_used, 0x1f);
	CHECK_EQ_U64(p.boxes[0].counters_used, 0);
	static const unsigned want_index[] = {3, 4, 0, 1, 2, 3};
	for (unsigned e = 0; e < 6; e++) {
		CHECK_EQ_INT(p.count[e], 1);
		const struct uncore_slot *s = &p.slots[p.slot_index[p.first[e]]];
		CHECK_EQ_INT(s->counter, UNCORE_SLOT_FIXED);
		CHECK_EQ_INT(s->fixed_index, want_index[e]);
		CHECK_EQ_INT(s->width, 32);
	}
	CHECK_EQ_INT(p.slot_index[p.first[0]], p.slot_index[p.first[5]]);
	uncore_plan_free(&p);
}

TEST(two_encodings_on_one_fixed_counter_conflict)
{
	struct uncore_machine m = machine();
	struct uncore_plan p;
	struct uncore_sched_event ev[] = {fixed_ev("A", &fr_type, 3, 0),
					  fixed_ev("B", &fr_type, 3, 0x800000)};
	CHECK_EQ_INT(uncore_schedule(&m, ev, 2, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "A and B both need fixed counter 3 of");
	struct uncore_sched_event one[] = {fixed_ev("C", &mixed_type, 0, 0),
					   fixed_ev("D", &mixed_type, 0, 0x800000)};
	CHECK_EQ_INT(uncore_schedule(&m, one, 2, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "C and D both need the one fixed counter of");
	struct uncore_sched_event beyond[] = {fixed_ev("E", &fr_type, 5, 0)};
	CHECK_EQ_INT(uncore_schedule(&m, beyond, 1, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "E needs fixed counter 5");
}

TEST(fixed_and_generic_counters_share_a_box)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[3];
	ev[0] = fixed_ev("CLK", &mixed_type, 0, 0);
	ev[1] = fixed_ev("X", &mixed_type, 0, 0);
	ev[1].enc.fixed = 0;
	ev[1].enc.ctl = 0x0134;
	ev[1].enc.counters = 0x3;
	ev[2] = ev[1];
	ev[2].name = "Y";
	ev[2].enc.ctl = 0x0234;
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 3, &p), 0);
	CHECK_EQ_INT(p.nboxes, 2); /* both instances */
	CHECK_EQ_INT(p.nslots, 6);
	for (unsigned b = 0; b < p.nboxes; b++) {
		CHECK_EQ_U64(p.boxes[b].fixed_used, 1);
		CHECK_EQ_U64(p.boxes[b].counters_used, 0x3);
	}
	/* X (fixed_index 0, not fixed) is not mistaken for the fixed CLK. */
	CHECK(p.slots[p.slot_index[p.first[1]]].counter != UNCORE_SLOT_FIXED);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[0]]].counter, UNCORE_SLOT_FIXED);
	uncore_plan_free(&p);
}

int main(void)
{
	RUN(each_free_running_counter_is_its_own_slot);
	RUN(two_encodings_on_one_fixed_counter_conflict);
	RUN(fixed_and_generic_counters_share_a_box);
	return harness_done();
}
