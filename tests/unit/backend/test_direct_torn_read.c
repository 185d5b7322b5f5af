/* A 48-bit PCI counter is two dwords; without the read freeze the low one
 * can wrap between the two reads (the simulator lets time pass on every
 * register access: access_ns).  The direct backend must retry, never
 * return a value torn by 2^32: read just below a 2^32 boundary, at many
 * phases, the value is always within a few accesses of what was written.
 * A fault on either read of a counter's pair loses that counter only. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "sim/uncore_sim.h"
#include "sim_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

TEST(torn_pci_reads_are_retried)
{
	struct uncore_sim *sim = NULL;
	char scn[600];
	snprintf(scn, sizeof(scn), "%s/hswep-clocks.scn", sim_set_scenario_dir());
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	REQUIRE(uncore_sim_load_scenario(sim, scn) == 0);
	struct uncore_direct_config cfg = {
	    .io = uncore_sim_regio(sim), .read_freeze = 0, .no_socket_lock = 1};
	struct uncore_backend *be = NULL;
	REQUIRE(uncore_direct_open_hswep(&cfg, &be) == 0);
	const struct uncore_machine *m = &be->machine;

	/* iMC channel 0 of socket 0, DCLOCKTICKS (event 0x00, 2.6.5): one per
	 * DCLK cycle, 1.0667 GHz on this model.  Read after an MSR counter
	 * (CBo 0's clockticks, event 0x00), which never tears: the read takes the
	 * counters in runs of one kind (read_ops.h), and the PCI one must
	 * still be checked. */
	struct uncore_sched_event ev[2];
	memset(ev, 0, sizeof(ev));
	ev[0].name = "DCLOCKTICKS";
	ev[0].ref.box = uncore_box_type_find(m->plat, "hswep_unc_imc");
	ev[0].enc.ctl = 0x00;
	ev[1].name = "CLOCKTICKS";
	ev[1].ref.box = uncore_box_type_find(m->plat, "hswep_unc_cbo");
	ev[1].enc.ctl = 0x00;
	for (unsigned i = 0; i < 2; i++) {
		ev[i].ref.instance = 0;
		ev[i].ref.socket = 0;
		ev[i].ref.cpu = UNCORE_ALL;
		ev[i].enc.counters = 0xf;
		REQUIRE(ev[i].ref.box != NULL);
	}
	struct uncore_plan plan;
	memset(&plan, 0, sizeof(plan));
	REQUIRE(uncore_schedule(m, ev, 2, &plan) == 0);
	CHECK_EQ_INT(plan.nslots, 2);
	CHECK_EQ_INT(be->ops->program(be, &plan), 0);
	CHECK_EQ_INT(be->ops->start(be), 0);

	unsigned imc = plan.slot_index[plan.first[0]];
	/* The MSR counter comes first: the runs matter. */
	CHECK_EQ_INT(imc, 1);
	const struct uncore_slot *sl = &plan.slots[imc];
	const struct hswep_box_desc *d = hswep_box(m->plat->boxes[sl->box]->layout);
	struct uncore_reg lo, hi;
	REQUIRE(hswep_reg(d, sl->instance, HSWEP_REG_CTR, sl->counter, 0, m->pci_bus[0], &lo) == 0);
	hi = lo;
	hi.addr += 4;

	/* 1 us per access: about 1067 counts between two dword reads. */
	CHECK_EQ_INT(uncore_sim_set_access_ns(sim, 1000), 0);
	unsigned torn = 0, wraps = 0;
	for (uint64_t k = 0; k < 64; k++) {
		/* Start 64 phases of ~300 counts before the boundary 2^33. */
		uint64_t w = (2ull << 32) - 300 * (k + 1);
		/* Low dword 0 first, so no carry lands between the writes. */
		CHECK_EQ_INT(uncore_regio_write(cfg.io, &lo, 0), 0);
		CHECK_EQ_INT(uncore_regio_write(cfg.io, &hi, w >> 32), 0);
		CHECK_EQ_INT(uncore_regio_write(cfg.io, &lo, w & 0xffffffffu), 0);
		uint64_t two[2] = {0, 0};
		CHECK_EQ_INT(be->ops->read(be, two), 0);
		uint64_t raw = two[imc];
		if (raw < w || raw - w > 100000) {
			torn++;
			HARNESS_FAIL_AT("phase %llu: wrote 0x%llx, read 0x%llx",
					(unsigned long long)k, (unsigned long long)w,
					(unsigned long long)raw);
		}
		wraps += raw >= (2ull << 32);
	}
	CHECK_EQ_INT(torn, 0);
	/* Some reads did cross the boundary, so a tear was possible. */
	CHECK(wraps > 0 && wraps < 64);
	CHECK_EQ_INT(uncore_sim_set_access_ns(sim, 0), 0);

	/* A failed read of the counter, first or second of its pair: that
	 * slot is UNCORE_RAW_UNREAD and the read reports the error; the MSR
	 * counter keeps its value; the next read is whole again.  Read in
	 * pairs through the register-access interface's read_twice (the
	 * simulator has one): the injected fault must still be seen. */
	CHECK(cfg.io->ops->read_twice != NULL);
	/* The caller's buffer holds the last values (the failed read must not
	 * pass them off as new ones: their high dwords agree with the
	 * counter's). */
	uint64_t last[2] = {0, 0};
	CHECK_EQ_INT(be->ops->read(be, last), 0);
	for (unsigned nth = 1; nth <= 2; nth++) {
		harness_row = nth == 1 ? "first read fails" : "second read fails";
		struct uncore_sim_fault fault = {.space = UNCORE_SPACE_PCI,
						 .op = UNCORE_SIM_OP_READ,
						 .socket = -1,
						 .bdf = lo.bdf,
						 .addr = (int64_t)lo.addr,
						 .nth = nth,
						 .count = 1,
						 .error = EIO};
		CHECK_EQ_INT(uncore_sim_inject_fault(sim, &fault), 0);
		uint64_t reads0 = cfg.io->stats.reads;
		uint64_t two[2] = {last[0], last[1]};
		CHECK_EQ_INT(be->ops->read(be, two), UNCORE_EIO);
		CHECK_CONTAINS(uncore_error_detail(), "injected fault");
		CHECK_EQ_U64(two[imc], UNCORE_RAW_UNREAD);
		CHECK(two[1 - imc] != UNCORE_RAW_UNREAD && two[1 - imc] > 0);
		/* The MSR counter once, the PCI counter once or twice. */
		CHECK_EQ_U64(cfg.io->stats.reads - reads0, 1 + nth);
		CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
		CHECK_EQ_INT(be->ops->read(be, last), 0);
		CHECK(last[imc] != UNCORE_RAW_UNREAD && last[imc] > 0);
	}
	harness_row = NULL;
	be->ops->stop(be);
	be->ops->destroy(be);
	uncore_plan_free(&plan);
	uncore_sim_close(sim);
}

/* A counter whose high dword changes between reads `changes` times in a
 * row: the read takes its pair, then up to three more reads, each checked
 * against the one before; so a counter that changes 0-3 times is read 2-5
 * times and gives its settled value, and one that changes 4 times fails
 * after 5 reads with "kept changing", naming the register.  The register
 * is wrapped around the simulator's (every other register passes through). */
struct changing {
	struct uncore_regio io;
	struct uncore_regio *inner;
	struct uncore_reg target;
	unsigned changes, reads;
};

static int changing_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *v)
{
	struct changing *c = io->impl;
	io->stats.reads++;
	if (c->target.width && r->space == c->target.space && r->bdf == c->target.bdf &&
	    r->addr == c->target.addr) {
		c->reads++;
		uint64_t high = c->reads < c->changes + 1 ? c->reads : c->changes + 1;
		*v = high << 32 | 0x1234;
		return 0;
	}
	return uncore_regio_read(c->inner, r, v);
}

static int changing_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t v)
{
	struct changing *c = io->impl;
	io->stats.writes++;
	return uncore_regio_write(c->inner, r, v);
}

static void changing_destroy(struct uncore_regio *io)
{
	(void)io;
}

static const struct uncore_regio_ops changing_ops = {.name = "changing",
						     .read = changing_read,
						     .write = changing_write,
						     .destroy = changing_destroy};

TEST(torn_read_retries_are_counted)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	struct changing ch;
	memset(&ch, 0, sizeof(ch));
	ch.io.ops = &changing_ops;
	ch.io.impl = &ch;
	ch.inner = uncore_sim_regio(sim);
	struct uncore_direct_config cfg = {.io = &ch.io, .read_freeze = 0, .no_socket_lock = 1};
	struct uncore_backend *be = NULL;
	REQUIRE(uncore_direct_open_hswep(&cfg, &be) == 0);
	const struct uncore_machine *m = &be->machine;
	struct uncore_sched_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.name = "DCLOCKTICKS";
	ev.ref.box = uncore_box_type_find(m->plat, "hswep_unc_imc");
	ev.ref.instance = 0;
	ev.ref.socket = 0;
	ev.ref.cpu = UNCORE_ALL;
	ev.enc.counters = 0xf;
	REQUIRE(ev.ref.box != NULL);
	struct uncore_plan plan;
	memset(&plan, 0, sizeof(plan));
	REQUIRE(uncore_schedule(m, &ev, 1, &plan) == 0);
	CHECK_EQ_INT(be->ops->program(be, &plan), 0);
	CHECK_EQ_INT(be->ops->start(be), 0);
	const struct uncore_slot *sl = &plan.slots[0];
	const struct hswep_box_desc *d = hswep_box(m->plat->boxes[sl->box]->layout);
	REQUIRE(hswep_reg(d, sl->instance, HSWEP_REG_CTR, sl->counter, 0, m->pci_bus[0],
			  &ch.target) == 0);
	for (unsigned changes = 0; changes <= 4; changes++) {
		char row[32];
		snprintf(row, sizeof(row), "%u changes", changes);
		harness_row = row;
		ch.changes = changes;
		ch.reads = 0;
		uint64_t v[1] = {0};
		int rc = be->ops->read(be, v);
		if (changes <= 3) {
			CHECK_EQ_INT(rc, 0);
			CHECK_EQ_U64(ch.reads, changes + 2);
			CHECK_EQ_U64(v[0], (uint64_t)(changes + 1) << 32 | 0x1234);
		} else {
			CHECK_EQ_INT(rc, UNCORE_EIO);
			CHECK_EQ_U64(ch.reads, 5);
			CHECK_CONTAINS(uncore_error_detail(),
				       "kept changing between its two halves");
			CHECK_EQ_U64(v[0], UNCORE_RAW_UNREAD);
		}
	}
	harness_row = NULL;
	ch.target.width = 0;
	be->ops->stop(be);
	be->ops->destroy(be);
	uncore_plan_free(&plan);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(torn_pci_reads_are_retried);
	RUN(torn_read_retries_are_counted);
	return harness_done();
}
