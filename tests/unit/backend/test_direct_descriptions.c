/* The validator of the direct engine's platform descriptions (desc_*.c):
 * each box type of the event tables has a description with the tables'
 * counter count and width, no description is left unused, and every
 * register a description names - controls, counters, fixed counters,
 * filters, the global control - is in the platform's MSR table (the
 * manual's register list, platform/msr_ranges.h) with writable bits inside
 * the table's: the engine's allowlist can never grant more than the
 * manual allows. */
#include "backend/direct/engine.h"
#include "common/uncore_error.h"
#include "events/registry.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "platform/msr_ranges.h"
#include "platform/platform.h"

#include <inttypes.h>
#include <string.h>

static int table_mask(const struct uncore_msr_table *t, uint64_t addr, uint64_t *mask)
{
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		const struct uncore_msr_range *r;
		uncore_msr_table_get(t, i, &msr, mask, &r);
		if (msr == addr)
			return 1;
	}
	return 0;
}

static void check_reg(const struct uncore_msr_table *t, const struct direct_kind *k,
		      enum direct_reg_role role, unsigned inst, unsigned idx, uint64_t writable)
{
	struct uncore_reg r;
	uint64_t mask;
	if (direct_kind_reg(k, NULL, 0, inst, role, idx, 0xfed10000u, &r) < 0) {
		HARNESS_FAIL_AT("%s: register %u/%u/%u: %s", k->kind, role, inst, idx,
				uncore_error_detail());
		return;
	}
	if (r.space != UNCORE_SPACE_MSR) {
		CHECK_EQ_U64(writable, 0); /* MMIO: read-only, never written */
		return;
	}
	if (!table_mask(t, r.addr, &mask)) {
		HARNESS_FAIL_AT("%s: MSR 0x%" PRIx64 " is not in the %s MSR table", k->kind, r.addr,
				t->platform);
		return;
	}
	if (writable & ~mask)
		HARNESS_FAIL_AT("%s: MSR 0x%" PRIx64 ": writable 0x%" PRIx64
				" beyond the table's 0x%" PRIx64,
				k->kind, r.addr, writable, mask);
}

TEST(descriptions_agree_with_the_tables_and_the_msr_lists)
{
	static const struct {
		const struct direct_platform *p;
		const char *events;
	} cases[] = {{&direct_platform_skl, "skl"},
		     {&direct_platform_nhm, "nhm"},
		     {&direct_platform_x7400, "x7400"},
		     {&direct_platform_x7400, "x7100"}};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct direct_platform *p = cases[c].p;
		const struct uncore_event_platform *ep =
		    uncore_event_platform_by_name(cases[c].events);
		const struct uncore_msr_table *t = uncore_msr_table_for(cases[c].events);
		harness_row = cases[c].events;
		CHECK(ep != NULL && t != NULL);
		if (!ep || !t)
			continue;
		CHECK(ep->platform != NULL && ep->platform->direct == p);
		unsigned used = 0;
		for (unsigned b = 0; b < ep->nboxes; b++) {
			const struct uncore_box_type *bt = ep->boxes[b];
			const struct direct_kind *k = direct_kind_find(p, bt->kind);
			harness_row = bt->name;
			CHECK(k != NULL);
			if (!k)
				continue;
			used |= 1u << (k - p->kinds);
			CHECK_EQ_INT(k->max_instances, bt->ninstances);
			if (k->fixed) {
				CHECK_EQ_INT(k->ncounters, bt->nfixed);
				CHECK_EQ_INT(k->width, bt->fixed_width);
			} else {
				CHECK_EQ_INT(k->ncounters, bt->ngeneric);
				CHECK_EQ_INT(k->width, bt->counter_width);
				CHECK_EQ_INT(k->nfixed, bt->nfixed);
				if (k->nfixed)
					CHECK_EQ_INT(k->width, bt->fixed_width);
			}
			CHECK(k->nfilters <= bt->nfilters);
			CHECK(k->max_rate > 0);
		}
		harness_row = cases[c].events;
		CHECK_EQ_INT(used, (1u << p->nkinds) - 1);
		for (unsigned i = 0; i < p->nkinds; i++) {
			const struct direct_kind *k = &p->kinds[i];
			uint64_t ctl_w = k->ctl_writable | (k->combined ? k->ctr_writable : 0);
			for (unsigned inst = 0; inst < k->max_instances; inst++) {
				for (unsigned n = 0; n < k->ncounters; n++) {
					if (!k->freerun)
						check_reg(t, k, DIRECT_REG_CTL, inst, n, ctl_w);
					check_reg(t, k, DIRECT_REG_CTR, inst, n,
						  k->combined ? ctl_w : k->ctr_writable);
				}
				for (unsigned n = 0; n < k->nfixed; n++) {
					check_reg(t, k, DIRECT_REG_FIXED_CTL, inst, n,
						  k->fixed_ctl_writable);
					check_reg(t, k, DIRECT_REG_FIXED_CTR, inst, n,
						  k->ctr_writable);
				}
				for (unsigned n = 0; n < k->nfilters; n++)
					check_reg(t, k, DIRECT_REG_FILTER, inst, n,
						  k->filter_writable[n]);
			}
			/* The enable the engine ORs in must be writable. */
			CHECK_EQ_U64(k->ctl_enable & ~k->ctl_writable, 0);
			CHECK_EQ_U64(k->fixed_ctl_enable & ~k->fixed_ctl_writable, 0);
		}
		uint64_t mask;
		CHECK(table_mask(t, p->global_msr, &mask));
		CHECK_EQ_U64(p->global_writable & ~mask, 0);
		/* Every value the engine writes to the global control is allowed. */
		uint64_t all = (p->used_mask << p->used_shift) | p->counting | p->held;
		CHECK_EQ_U64(all & ~p->global_writable, 0);
	}
	harness_row = NULL;
}

/* Haswell-EP: the engine's kinds (desc_hswep.c) against the one register
 * description (platform/hswep/hswep_boxes.c) and the event tables: the same
 * geometry, a box control exactly where the manual has one with its
 * must-be-1 bits, the errata, the clock ceiling of the box's clock. */
TEST(haswell_ep_kinds_agree_with_the_register_description)
{
	static const uint64_t clock_hz[HSWEP_CLOCKS] = {[HSWEP_CLK_UCLK] = 3000000000u,
							[HSWEP_CLK_DCLK] = 1200000000u,
							[HSWEP_CLK_PCLK] = 1000000000u,
							[HSWEP_CLK_QFCLK] = 1200000000u};
	const struct direct_platform *p = &direct_platform_hswep;
	const struct uncore_event_platform *ep = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	unsigned used = 0;
	CHECK(ep != NULL);
	for (unsigned b = 0; ep && b < ep->nboxes; b++) {
		const struct uncore_box_type *bt = ep->boxes[b];
		const struct direct_kind *k = direct_kind_find(p, bt->kind);
		const struct hswep_box_desc *d = hswep_box(bt->layout);
		harness_row = bt->name;
		CHECK(k != NULL && d != NULL);
		if (!k || !d)
			continue;
		used |= 1u << (k - p->kinds);
		CHECK_EQ_INT(k->layout, bt->layout);
		CHECK_EQ_INT(k->space, d->space);
		CHECK_EQ_INT(k->max_instances, d->max_instances);
		CHECK_EQ_INT(k->max_instances, bt->ninstances);
		CHECK_EQ_INT(k->ncounters, d->num_counters);
		CHECK_EQ_INT(k->ncounters, bt->ngeneric);
		CHECK_EQ_INT(k->width, d->ctr_width);
		CHECK(bt->counter_width <= k->width); /* folded at fewer bits: exact */
		CHECK_EQ_INT(k->nfixed, d->fixed_ctr != HSWEP_NO_REG);
		CHECK_EQ_INT(k->nfixed, bt->nfixed);
		CHECK_EQ_INT(k->nfilters, d->num_filters);
		CHECK_EQ_INT(k->box_ctl, d->box_ctl != HSWEP_NO_REG);
		CHECK_EQ_INT(k->enable_at_start, d->box_ctl == HSWEP_NO_REG);
		/* Every bit the register says must be 1; on the SBo none is
		 * required and the engine writes bit 16 as Linux does (H8). */
		if (d->errata & HSWEP_ERRATUM_BOX_CTL_ONE_BIT)
			CHECK_EQ_U64(k->box_ctl_must1, HSWEP_SBO_BOX_CTL_KERNEL_BIT16);
		else
			CHECK_EQ_U64(k->box_ctl_must1, d->box_ctl_rules.must1);
		CHECK_EQ_INT(k->ctl_write_twice, !!(d->errata & HSWEP_ERRATUM_CTL_WRITE_TWICE));
		CHECK_EQ_INT(k->box_ctl_one_bit, !!(d->errata & HSWEP_ERRATUM_BOX_CTL_ONE_BIT));
		CHECK_EQ_U64(k->clock_hz, clock_hz[d->clock]);
		/* What the engine writes to a box control is within its rules. */
		uint64_t all =
		    k->box_ctl_must1 | k->box_ctl_frz | k->box_ctl_rst_ctrl | k->box_ctl_rst_ctrs;
		if (k->box_ctl)
			CHECK_EQ_U64(all & ~direct_kind_writable(k, DIRECT_REG_BOX_CTL, 0), 0);
		CHECK_EQ_U64(k->ctl_enable & ~direct_kind_writable(k, DIRECT_REG_CTL, 0), 0);
		if (k->nfixed)
			CHECK_EQ_U64(k->fixed_ctl_enable &
					 ~direct_kind_writable(k, DIRECT_REG_FIXED_CTL, 0),
				     0);
	}
	harness_row = NULL;
	CHECK_EQ_INT(used, (1u << p->nkinds) - 1);
	uint64_t all = p->counting | p->held;
	CHECK_EQ_U64(all & ~p->global_writable, 0);
}

/* A claim asks for every register of a box at once (engine.c claim_box):
 * no kind has more than DIRECT_MAX_BOX_REGS, and a kind that answers for
 * several registers in one call (regs) gives each one's address and
 * writable bits as asking one by one does, on every instance and socket
 * of a machine with PCI buses. */
TEST(a_box_asked_at_once_answers_as_register_by_register)
{
	size_t np;
	const struct uncore_platform *const *all = uncore_platforms(&np);
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		m.pci_bus[s] = (uint8_t)(0x7f + 0x80 * (s & 1) - s);
		m.pci_root_bus[s] = (uint8_t)(0x10 + 0x40 * s);
	}
	for (size_t i = 0; i < np; i++) {
		const struct direct_platform *p = all[i]->direct;
		for (unsigned j = 0; p && j < p->nkinds; j++) {
			const struct direct_kind *k = &p->kinds[j];
			harness_row = k->title;
			CHECK(1u + 2u * k->ncounters + 2u * k->nfixed + k->nfilters <=
			      DIRECT_MAX_BOX_REGS);
			if (k->freerun) /* read only: no controls to ask for */
				continue;
			/* The engine's own list of a box's registers, every one. */
			struct direct_box_reg q[DIRECT_MAX_BOX_REGS];
			unsigned n = direct_kind_box_query(k, q, 1);
			CHECK_EQ_INT(n, (k->box_ctl ? 1u : 0u) + 2u * k->ncounters + 2u * k->nfixed + k->nfilters);
			for (unsigned s = 0; s < 2; s++)
				for (unsigned inst = 0; inst < k->max_instances; inst++) {
					struct direct_box_at at = {.socket = s, .inst = inst};
					CHECK_EQ_INT(direct_kind_regs(k, &m, &at, 1, 0, q, n), 0);
					for (unsigned r = 0; r < n; r++) {
						struct uncore_reg one;
						CHECK_EQ_INT(direct_kind_reg(k, &m, s, inst, q[r].role,
									     q[r].idx, 0, &one),
							     0);
						CHECK_EQ_INT(q[r].reg.space, one.space);
						CHECK_EQ_INT(q[r].reg.width, one.width);
						CHECK_EQ_INT(q[r].reg.socket, one.socket);
						CHECK_EQ_INT(q[r].reg.bdf, one.bdf);
						CHECK_EQ_U64(q[r].reg.addr, one.addr);
						CHECK_EQ_U64(q[r].writable,
							     direct_kind_writable(k, q[r].role,
										  q[r].idx));
					}
				}
		}
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(descriptions_agree_with_the_tables_and_the_msr_lists);
	RUN(haswell_ep_kinds_agree_with_the_register_description);
	RUN(a_box_asked_at_once_answers_as_register_by_register);
	return harness_done();
}
