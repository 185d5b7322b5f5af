/* Counter scheduling on a synthetic two-socket machine: expansion over
 * instances and sockets, counter restrictions, fixed counters, shared
 * identical encodings, filter merging, and the three conflict reasons. */
#include "common/uncore_error.h"
#include "plan/sched.h"
#include "harness.h"

#include <string.h>

static const struct uncore_filter_desc two_filters[2] = {{.name = "FILTER0"}, {.name = "FILTER1"}};

static const struct uncore_box_type cbo_type = {
	.name = "test_unc_cbo", .kind = "cbo", .ninstances = 18, .ngeneric = 4,
	.counter_width = 48, .filters = two_filters, .nfilters = 2};
static const struct uncore_box_type imc_type = {
	.name = "test_unc_imc", .kind = "imc", .ninstances = 8, .ngeneric = 4,
	.counter_width = 48, .nfixed = 1, .fixed_width = 48};
static const struct uncore_box_type pcu_type = {
	.name = "test_unc_pcu", .kind = "pcu", .ninstances = 1, .ngeneric = 4,
	.counter_width = 48};
static const struct uncore_box_type *const boxes[] = {&cbo_type, &imc_type, &pcu_type};
static const struct uncore_event_platform plat = {
	.platform = &uncore_platform_hswep, .name = "test", .boxes = boxes, .nboxes = 3};

static struct uncore_machine machine(void)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = &plat;
	m.nsockets = 2;
	for (unsigned s = 0; s < 2; s++) {
		m.present[0][s].w[0] = 0xf; /* cbo 0-3 */
		m.present[1][s].w[0] = 0x3; /* imc 0-1 */
		m.present[2][s].w[0] = 0x1;
	}
	m.ncpus = 4;
	m.cpu_socket[0] = 0;
	m.cpu_socket[1] = 0;
	m.cpu_socket[2] = 1;
	m.cpu_socket[3] = -1;
	return m;
}

static struct uncore_sched_event event(const char *name, const struct uncore_box_type *box,
				       uint64_t ctl, uint64_t counters)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ref.box = box;
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = UNCORE_ALL;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = ctl;
	e.enc.counters = counters;
	e.enc.nfilters = (uint8_t)box->nfilters;
	return e;
}

TEST(aggregate_event_expands_to_every_instance_of_every_socket)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[1] = {event("A", &cbo_type, 0x34, 0xf)};
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 1, &p), 0);
	CHECK_EQ_INT(p.count[0], 8); /* 4 CBos x 2 sockets */
	CHECK_EQ_INT(p.nboxes, 8);
	for (unsigned k = 0; k < p.count[0]; k++) {
		const struct uncore_slot *s = &p.slots[p.slot_index[p.first[0] + k]];
		CHECK_EQ_INT(s->socket, k / 4);
		CHECK_EQ_INT(s->instance, k % 4);
		CHECK_EQ_INT(s->counter, 0);
		CHECK_EQ_U64(s->ctl, 0x34);
		CHECK_EQ_INT(s->width, 48);
	}
	uncore_plan_free(&p);
}

TEST(socket_box_and_cpu_qualifiers_select_instances)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[3] = {event("S1", &cbo_type, 0x34, 0xf),
					    event("B2", &cbo_type, 0x35, 0xf),
					    event("CPU2", &imc_type, 0x04, 0xf)};
	ev[0].ref.socket = 1;
	ev[1].ref.instance = 2;
	ev[2].ref.cpu = 2;
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 3, &p), 0);
	CHECK_EQ_INT(p.count[0], 4);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[0]]].socket, 1);
	CHECK_EQ_INT(p.count[1], 2); /* cbo2 on both sockets */
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[1]]].instance, 2);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[1] + 1]].socket, 1);
	CHECK_EQ_INT(p.count[2], 2); /* imc 0-1 of socket 1 (cpu 2) */
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[2]]].socket, 1);
	uncore_plan_free(&p);
}

TEST(missing_socket_box_or_cpu_is_enodev_with_detail)
{
	struct uncore_machine m = machine();
	struct uncore_plan p;
	struct uncore_sched_event e = event("X", &cbo_type, 0x34, 0xf);
	e.ref.socket = 2;
	CHECK_EQ_INT(uncore_schedule(&m, &e, 1, &p), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "socket=2, but this machine has 2 sockets (0-1)");
	e = event("X", &cbo_type, 0x34, 0xf);
	e.ref.instance = 9;
	CHECK_EQ_INT(uncore_schedule(&m, &e, 1, &p), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "not present");
	e = event("X", &cbo_type, 0x34, 0xf);
	e.ref.cpu = 3;
	CHECK_EQ_INT(uncore_schedule(&m, &e, 1, &p), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "cpu=3 is not an online CPU");
	e.ref.cpu = 2;
	e.ref.socket = 0;
	CHECK_EQ_INT(uncore_schedule(&m, &e, 1, &p), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "cpu=2 is on socket 1, not socket=0");
}

TEST(restricted_event_gets_its_counter_by_matching)
{
	/* B may use only counter 0; A anything.  A added first must move. */
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[2] = {event("A", &pcu_type, 0x1, 0xf),
					    event("B", &pcu_type, 0x80, 0x1)};
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 2, &p), 0);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[1]]].counter, 0);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[0]]].counter, 1);
	uncore_plan_free(&p);
}

TEST(counter_restriction_conflict_names_both_events)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[2] = {event("OCC_A", &pcu_type, 0x80, 0x1),
					    event("OCC_B", &pcu_type, 0x81, 0x1)};
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 2, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "counter restriction: OCC_B can only use counter 0");
	CHECK_CONTAINS(uncore_error_detail(), "taken by OCC_A");
}

TEST(box_full_lists_the_events)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[5];
	const char *names[5] = {"E1", "E2", "E3", "E4", "E5"};
	for (unsigned i = 0; i < 5; i++)
		ev[i] = event(names[i], &pcu_type, 0x10 + i, 0xf);
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 5, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "box full");
	CHECK_CONTAINS(uncore_error_detail(), "has 4 counters but 5 events");
	CHECK_CONTAINS(uncore_error_detail(), "E1, E2, E3, E4, E5");
}

TEST(identical_encodings_share_a_counter)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[5];
	for (unsigned i = 0; i < 5; i++)
		ev[i] = event("SAME", &pcu_type, 0x10, 0xf);
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 5, &p), 0);
	CHECK_EQ_INT(p.nslots, 2); /* one per socket */
	CHECK_EQ_INT(p.slot_index[p.first[0]], p.slot_index[p.first[4]]);
	uncore_plan_free(&p);
}

TEST(fixed_counter_events)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[3] = {event("DCLK", &imc_type, 0, 0),
					    event("CAS", &imc_type, 0x304, 0xf),
					    event("DCLK_INV", &imc_type, 0x800000, 0)};
	ev[0].enc.fixed = 1;
	ev[2].enc.fixed = 1;
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 2, &p), 0);
	const struct uncore_slot *s = &p.slots[p.slot_index[p.first[0]]];
	CHECK_EQ_INT(s->counter, UNCORE_SLOT_FIXED);
	CHECK_EQ_INT(p.slots[p.slot_index[p.first[1]]].counter, 0);
	CHECK_EQ_INT(p.boxes[s->boxprog].fixed_used, 1);
	uncore_plan_free(&p);
	CHECK_EQ_INT(uncore_schedule(&m, ev, 3, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "DCLK and DCLK_INV both need the one fixed counter");
	struct uncore_sched_event nofixed = event("F", &pcu_type, 0, 0);
	nofixed.enc.fixed = 1;
	CHECK_EQ_INT(uncore_schedule(&m, &nofixed, 1, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "lacks");
}

TEST(filters_merge_when_they_agree_and_conflict_otherwise)
{
	struct uncore_machine m = machine();
	struct uncore_sched_event ev[3] = {event("STATE_M", &cbo_type, 0x134, 0xf),
					    event("OPC", &cbo_type, 0x135, 0xf),
					    event("STATE_S", &cbo_type, 0x234, 0xf)};
	ev[0].enc.filter[0] = 0x1 << 17; /* state field, bits 23:17 */
	ev[0].enc.filter_mask[0] = 0x7f << 17;
	ev[1].enc.filter[1] = 0x182ull << 20; /* opcode field */
	ev[1].enc.filter_mask[1] = 0x1ffull << 20;
	ev[2].enc.filter[0] = 0x4 << 17;
	ev[2].enc.filter_mask[0] = 0x7f << 17;
	ev[0].ref.instance = ev[1].ref.instance = ev[2].ref.instance = 0;
	ev[0].ref.socket = ev[1].ref.socket = ev[2].ref.socket = 0;
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 2, &p), 0);
	CHECK_EQ_INT(p.nboxes, 1);
	CHECK_EQ_U64(p.boxes[0].filter[0], 0x1 << 17);
	CHECK_EQ_U64(p.boxes[0].filter[1], 0x182ull << 20);
	CHECK_EQ_U64(p.boxes[0].filter_mask[1], 0x1ffull << 20);
	uncore_plan_free(&p);
	CHECK_EQ_INT(uncore_schedule(&m, ev, 3, &p), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "filter conflict on test_unc_cbo0 on socket 0");
	CHECK_CONTAINS(uncore_error_detail(), "STATE_M and STATE_S");
	/* On different boxes the same two events coexist. */
	ev[2].ref.instance = 1;
	CHECK_EQ_INT(uncore_schedule(&m, ev, 3, &p), 0);
	CHECK_EQ_INT(p.nboxes, 2);
	uncore_plan_free(&p);
}

TEST(empty_set_schedules_to_an_empty_plan)
{
	struct uncore_machine m = machine();
	struct uncore_plan p;
	CHECK_EQ_INT(uncore_schedule(&m, NULL, 0, &p), 0);
	CHECK_EQ_INT(p.nslots, 0);
	uncore_plan_free(&p);
}

int main(void)
{
	RUN(aggregate_event_expands_to_every_instance_of_every_socket);
	RUN(socket_box_and_cpu_qualifiers_select_instances);
	RUN(missing_socket_box_or_cpu_is_enodev_with_detail);
	RUN(restricted_event_gets_its_counter_by_matching);
	RUN(counter_restriction_conflict_names_both_events);
	RUN(box_full_lists_the_events);
	RUN(identical_encodings_share_a_counter);
	RUN(fixed_counter_events);
	RUN(filters_merge_when_they_agree_and_conflict_otherwise);
	RUN(empty_set_schedules_to_an_empty_plan);
	return harness_done();
}
