/* Agreement of the one description of each Haswell-EP box kind
 * (platform/hswep/hswep_boxes.c) with everything else that speaks of the
 * boxes: the event registry's box list (events/registry_hswep.c: layout,
 * instances, counters, widths, fixed counter, filters, control fields), the
 * manual's register maps (Table 1-2 for MSRs, Table 1-3 for PCI config
 * space: tests/unit/platform/hswep_manual_tables.h) and the MSR allowlist
 * (platform/hswep/hswep_msr_ranges.c: same MSRs, same writable bits).  Any
 * disagreement fails with the box and register named. */
#include "common/uncore_error.h"
#include "events/registry.h"
#include "harness.h"
#include "hswep_manual_tables.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "platform/msr_ranges.h"

#include <stdlib.h>

static const struct uncore_event_platform *hsx(void)
{
	return uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
}

TEST(registry_box_list_is_the_layouts)
{
	const struct uncore_event_platform *p = hsx();
	unsigned used[HSWEP_BOX_KINDS] = {0};
	for (unsigned b = 0; b < p->nboxes; b++) {
		const struct uncore_box_type *bt = p->boxes[b];
		const struct hswep_box_desc *d = hswep_box(bt->layout);
		harness_row = bt->name;
		CHECK(d != NULL);
		if (!d)
			continue;
		used[bt->layout]++;
		CHECK_EQ_INT(bt->ninstances, d->max_instances);
		CHECK_EQ_INT(bt->ngeneric, d->num_counters);
		/* UBox and SBo fold at 44 bits, below the 48 the manual gives
		 * (events/registry_hswep.c says why); every other box at its width. */
		if (d->kind == HSWEP_BOX_UBOX || d->kind == HSWEP_BOX_SBO)
			CHECK_EQ_INT(bt->counter_width, HSWEP_UBOX_SBO_FOLD_WIDTH);
		else
			CHECK_EQ_INT(bt->counter_width, d->ctr_width);
		CHECK_EQ_INT(bt->nfixed, d->fixed_ctr != HSWEP_NO_REG);
		if (bt->nfixed)
			CHECK_EQ_INT(bt->fixed_width, d->ctr_width);
		CHECK_EQ_INT(bt->nfilters, d->num_routes);
		/* Whatever an event may program is a valid bit of the control register. */
		const struct uncore_ctl_layout *c = bt->ctl;
		uint64_t fields =
		    c->ev_sel | c->umask | c->ev_sel_ext | c->en | c->occ_sel | c->writable;
		if (fields & ~d->ctl_rules.valid)
			HARNESS_FAIL_AT("%s: control bits 0x%" PRIx64
					" are not valid in the layout",
					bt->name, fields & ~d->ctl_rules.valid);
		for (unsigned m = 0; m < bt->nmods; m++) {
			const struct uncore_mod_desc *md = &bt->mods[m];
			uint64_t ctl = (md->reg == UNCORE_REG_CTL ? md->field | md->occ_field : 0) |
				       md->ctl_also;
			if (ctl & ~d->ctl_rules.valid)
				HARNESS_FAIL_AT("%s :%s: control bits 0x%" PRIx64 " not valid",
						bt->name, md->name, ctl & ~d->ctl_rules.valid);
			if (md->reg != UNCORE_REG_CTL && (unsigned)md->reg - 1 >= bt->nfilters)
				HARNESS_FAIL_AT("%s :%s: filter %u does not exist", bt->name,
						md->name, md->reg - 1);
		}
	}
	harness_row = NULL;
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		harness_row = hswep_box(k)->name;
		CHECK_EQ_INT(used[k], 1);
	}
	harness_row = NULL;
}

/* Every register of every instance of a layout, MSR or PCI: calls fn for each. */
static void each_register(const struct hswep_box_desc *d, unsigned inst,
			  void (*fn)(const struct hswep_box_desc *, unsigned role,
				     const struct uncore_reg *, int is64,
				     const struct hswep_reg_rules *, void *),
			  void *ctx)
{
	static const struct {
		enum hswep_reg_kind kind;
		int many;
	} kinds[] = {{HSWEP_REG_BOX_CTL, 0}, {HSWEP_REG_BOX_STATUS, 0}, {HSWEP_REG_CTL, 1},
		     {HSWEP_REG_CTR, 1},     {HSWEP_REG_FIXED_CTL, 0},  {HSWEP_REG_FIXED_CTR, 0},
		     {HSWEP_REG_FILTER, 1},  {HSWEP_REG_EXTRA, 1}};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		unsigned n = !kinds[k].many                      ? 1
			     : kinds[k].kind == HSWEP_REG_FILTER ? d->num_filters
			     : kinds[k].kind == HSWEP_REG_EXTRA  ? d->num_extras
								 : d->num_counters;
		for (unsigned i = 0; i < n; i++) {
			struct uncore_reg r;
			if (hswep_reg(d, inst, kinds[k].kind, i, 0, 0x7f, &r) != 0)
				continue;
			unsigned role = kinds[k].kind == HSWEP_REG_FILTER  ? d->filters[i].fn_role
					: kinds[k].kind == HSWEP_REG_EXTRA ? d->extras[i].fn_role
									   : HSWEP_FN_PMON;
			int is64 =
			    kinds[k].kind == HSWEP_REG_CTR || kinds[k].kind == HSWEP_REG_FIXED_CTR;
			fn(d, role, &r, is64, hswep_reg_rules(d, kinds[k].kind, i), ctx);
		}
	}
}

static uint8_t msr_state[0x1000]; /* 1: in Table 1-2, 2: also a layout register */
static uint64_t msr_rules[0x1000];

static void mark_msr(const struct hswep_box_desc *d, unsigned role, const struct uncore_reg *r,
		     int is64, const struct hswep_reg_rules *rules, void *ctx)
{
	(void)role, (void)is64, (void)ctx;
	if (r->space != UNCORE_SPACE_MSR)
		return;
	if (r->addr >= 0x1000 || !msr_state[r->addr]) {
		HARNESS_FAIL_AT("%s register at MSR 0x%" PRIx64 " is not in Table 1-2", d->name,
				r->addr);
		return;
	}
	if (msr_state[r->addr] == 2)
		HARNESS_FAIL_AT("MSR 0x%" PRIx64 " belongs to two registers", r->addr);
	msr_state[r->addr] = 2;
	msr_rules[r->addr] = rules ? rules->valid | rules->must1 : 0;
}

static void parse_msr_cell(const char *cell)
{
	const char *p = cell;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 16), b = a;
		if (end == p) {
			HARNESS_FAIL_AT("cannot parse \"%s\"", cell);
			return;
		}
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 16);
			p = end;
		}
		if (a > b) {
			unsigned long t = a;
			a = b;
			b = t;
		}
		for (unsigned long m = a; m <= b && m < 0x1000; m++)
			msr_state[m] = 1;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

TEST(msr_layouts_are_table_1_2_and_the_allowlist)
{
	memset(msr_state, 0, sizeof(msr_state));
	for (size_t i = 0; i < sizeof(table_1_2) / sizeof(table_1_2[0]); i++)
		parse_msr_cell(table_1_2[i]);
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = hswep_box(k);
		if (d->space != UNCORE_SPACE_MSR)
			continue;
		for (unsigned i = 0; i < d->max_instances; i++)
			each_register(d, i, mark_msr, NULL);
	}
	/* The global control MSRs are the UBox's but no box register (2.1.5). */
	msr_state[HSWEP_U_MSR_PMON_GLOBAL_CTL] = msr_state[HSWEP_U_MSR_PMON_GLOBAL_STATUS] = 2;
	msr_rules[HSWEP_U_MSR_PMON_GLOBAL_CTL] = hswep_global_ctl_rules.valid;
	msr_rules[HSWEP_U_MSR_PMON_GLOBAL_STATUS] = hswep_global_status_rules.valid;
	msr_state[HSWEP_U_MSR_PMON_GLOBAL_CONFIG] = 2; /* Table 2-1 only; read-only by choice */
	msr_rules[HSWEP_U_MSR_PMON_GLOBAL_CONFIG] = 0;
	for (unsigned m = 0; m < 0x1000; m++)
		if (msr_state[m] == 1)
			HARNESS_FAIL_AT("Table 1-2 lists MSR 0x%x but no layout has it", m);

	const struct uncore_msr_table *t = uncore_msr_table_for("hswep");
	CHECK(t != NULL);
	if (!t)
		return;
	unsigned listed = 0, want = 0;
	for (unsigned m = 0; m < 0x1000; m++)
		want += msr_state[m] == 2;
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		uint64_t mask;
		const struct uncore_msr_range *r;
		CHECK_EQ_INT(uncore_msr_table_get(t, i, &msr, &mask, &r), 0);
		if (msr >= 0x1000 || msr_state[msr] != 2) {
			HARNESS_FAIL_AT("allowlist MSR 0x%x (%s) is no layout register", msr,
					r->name);
			continue;
		}
		listed++;
		if (mask != msr_rules[msr])
			HARNESS_FAIL_AT("allowlist MSR 0x%x (%s): mask 0x%" PRIx64
					", layout 0x%" PRIx64,
					msr, r->name, mask, msr_rules[msr]);
	}
	CHECK_EQ_INT(listed, want);
}

/* Dwords of one PCI function that the layout has, and that Table 1-3 lists. */
struct fn_scan {
	unsigned role;
	uint8_t dev, fn;
	uint8_t layout[0x400 / 4]; /* 1: start of a register, 2: its high dword */
};

static void mark_pci(const struct hswep_box_desc *d, unsigned role, const struct uncore_reg *r,
		     int is64, const struct hswep_reg_rules *rules, void *ctx)
{
	struct fn_scan *s = ctx;
	(void)rules;
	if (r->space != UNCORE_SPACE_PCI || role != s->role)
		return;
	if (UNCORE_BDF_DEV(r->bdf) != s->dev || UNCORE_BDF_FN(r->bdf) != s->fn) {
		HARNESS_FAIL_AT(
		    "%s register at 0x%" PRIx64 " is at %02x.%x, Table 1-3 says %02x.%x", d->name,
		    r->addr, UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf), s->dev, s->fn);
		return;
	}
	if (r->addr + (is64 ? 8 : 4) > 0x400 || (r->addr & 3)) {
		HARNESS_FAIL_AT("%s register at 0x%" PRIx64 " outside config space", d->name,
				r->addr);
		return;
	}
	s->layout[r->addr / 4] = 1;
	if (is64)
		s->layout[r->addr / 4 + 1] = 2;
}

TEST(pci_layouts_are_table_1_3)
{
	for (size_t row = 0; row < sizeof(table_1_3) / sizeof(table_1_3[0]); row++) {
		const struct hswep_table_1_3_row *t = &table_1_3[row];
		const struct hswep_box_desc *d = hswep_box(t->kind);
		harness_row = t->box;
		CHECK_EQ_INT(d->space, UNCORE_SPACE_PCI);
		CHECK_EQ_INT(d->max_instances, t->instances);
		const struct hswep_pci_fn *fns = d->pci_fn[t->role];
		CHECK(fns != NULL);
		if (!fns || d->max_instances != t->instances)
			continue;
		for (unsigned i = 0; i < t->instances; i++) {
			CHECK_EQ_INT(fns[i].dev, t->dev[i]);
			CHECK_EQ_INT(fns[i].fn, t->fn[i]);
			int found = fns[i].did == t->did[i];
			for (unsigned j = 0; t->did_as_set && j < t->instances; j++)
				found |= fns[i].did == t->did[j];
			if (!found)
				HARNESS_FAIL_AT("instance %u: device ID 0x%04x, Table 1-3 0x%04x",
						i, fns[i].did, t->did[i]);

			struct fn_scan s = {.role = t->role, .dev = t->dev[i], .fn = t->fn[i]};
			each_register(d, i, mark_pci, &s);
			uint8_t listed[0x400 / 4] = {0};
			for (unsigned r = 0; r < 6 && t->ranges[r]; r++) {
				char *end;
				unsigned long hi = strtoul(t->ranges[r], &end, 16), lo = hi;
				if (*end == '-')
					lo = strtoul(end + 1, NULL, 16);
				for (unsigned long a = lo; a <= hi; a += 4)
					listed[a / 4] = 1;
				/* Both ends of a range are layout registers (or their high dwords).
				 */
				if (!s.layout[hi / 4] || !s.layout[lo / 4])
					HARNESS_FAIL_AT("instance %u: range %s is not the layout's",
							i, t->ranges[r]);
			}
			for (unsigned w = 0; w < 0x400 / 4; w++) {
				/* IRP: Table 1-3 lists its 64-bit counters by start address
				 * (decision in hswep_boxes.c): their high dwords are unlisted. */
				if (t->counter_starts && s.layout[w] == 2)
					continue;
				if (s.layout[w] && !listed[w])
					HARNESS_FAIL_AT("instance %u: layout register at 0x%x is "
							"not in Table 1-3",
							i, w * 4);
				if (!s.layout[w] && listed[w])
					HARNESS_FAIL_AT("instance %u: Table 1-3 lists 0x%x, the "
							"layout has nothing",
							i, w * 4);
			}
		}
	}
	harness_row = NULL;
	/* Every PCI box kind is in Table 1-3. */
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = hswep_box(k);
		int rows = 0;
		for (size_t row = 0; row < sizeof(table_1_3) / sizeof(table_1_3[0]); row++)
			rows += table_1_3[row].kind == k && table_1_3[row].role == HSWEP_FN_PMON;
		harness_row = d->name;
		CHECK_EQ_INT(rows, d->space == UNCORE_SPACE_PCI);
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(registry_box_list_is_the_layouts);
	RUN(msr_layouts_are_table_1_2_and_the_allowlist);
	RUN(pci_layouts_are_table_1_3);
	return harness_done();
}
