/* Table encodings to perf config words through sysfs format fields (see
 * perf_encode.h).  Which kernel format field carries each of our register
 * fields is derived from the box type itself: its control layout (ev_sel
 * with ev_sel_ext is "event", umask "umask", occ_sel "occ_sel"), its
 * modifiers and filter fields, each naming its kernel field
 * (events/registry.h); the bit positions on the kernel side always come
 * from the PMU's format files; what a kernel driver does beyond its format
 * fields is the box type's (kernel_rules, kernel_freerun).  Kernel format names:
 * arch/x86/events/intel/uncore_snbep.c and uncore_snb.c (read for facts
 * only). */
#include "backend/perf/perf_encode.h"

#include "common/uncore_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define CTL       UNCORE_REG_CTL
#define FILTER(n) UNCORE_REG_FILTER(n)

/* A row per kernel field of a register: fields of ours that the kernel
 * carries in one field (the CBo's thread and core id: filter_tid) become
 * one mask. */
static void add_row(struct uncore_perf_map_row *rows, unsigned max, unsigned *n, uint8_t reg,
		    uint64_t mask, const char *field)
{
	if (!mask || !field)
		return;
	for (unsigned i = 0; i < *n; i++)
		if (rows[i].reg == reg && strcmp(rows[i].field, field) == 0) {
			rows[i].mask |= mask;
			rows[i].one_bit = __builtin_popcountll(rows[i].mask) == 1;
			return;
		}
	if (*n < max)
		rows[(*n)++] =
		    (struct uncore_perf_map_row){.reg = reg,
						 .mask = mask,
						 .field = field,
						 .one_bit = __builtin_popcountll(mask) == 1};
}

unsigned uncore_perf_map_rows(const struct uncore_box_type *box, struct uncore_perf_map_row *rows,
			      unsigned max)
{
	unsigned n = 0;
	const struct uncore_ctl_layout *c = box->ctl;
	if (c) {
		add_row(rows, max, &n, CTL, c->ev_sel | c->ev_sel_ext, "event");
		add_row(rows, max, &n, CTL, c->umask, "umask");
		add_row(rows, max, &n, CTL, c->occ_sel, "occ_sel");
		for (unsigned i = 0; i < c->nfields; i++)
			add_row(rows, max, &n, CTL, c->fields[i].mask, c->fields[i].perf);
	}
	for (unsigned i = 0; i < box->nmods; i++) {
		const struct uncore_mod_desc *m = &box->mods[i];
		add_row(rows, max, &n, m->reg, m->field, m->perf);
		add_row(rows, max, &n, CTL, m->occ_field, m->perf_occ);
		add_row(rows, max, &n, CTL, m->ctl_also, m->perf_also);
	}
	for (unsigned f = 0; f < box->nfilters; f++) {
		const struct uncore_filter_desc *fd = &box->filters[f];
		for (unsigned i = 0; fd->perf && fd->fields[i]; i++)
			add_row(rows, max, &n, (uint8_t)FILTER(f), fd->fields[i], fd->perf[i]);
		add_row(rows, max, &n, (uint8_t)FILTER(f), 0x00000000ffffffffULL,
			fd->perf_dwords[0]);
		add_row(rows, max, &n, (uint8_t)FILTER(f), 0xffffffff00000000ULL,
			fd->perf_dwords[1]);
	}
	return n;
}

/* The kernel field for a row: the first of its "a|b" names the PMU has. */
static const struct uncore_perf_field *row_field(const struct uncore_perf_pmu *pmu,
						 const char *names, char *first, size_t len)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", names);
	snprintf(first, len, "%.40s", buf);
	char *bar = strchr(first, '|');
	if (bar)
		*bar = '\0';
	for (char *save = NULL, *n = strtok_r(buf, "|", &save); n; n = strtok_r(NULL, "|", &save)) {
		const struct uncore_perf_field *f = uncore_perf_pmu_field(pmu, n);
		if (f)
			return f;
	}
	return NULL;
}

static int no_field(const struct uncore_box_type *box, const struct uncore_perf_pmu *pmu,
		    const char *what, uint64_t bits)
{
	return uncore_fail(UNCORE_ENOSUPP,
			   "%s: the kernel's %s PMU has no format field for %s (bits 0x%llx of our "
			   "encoding), so it cannot count this event; use the direct backend "
			   "(PAPI_INTEL_UNCORE_BACKEND=direct)",
			   box->name, pmu->name, what, (unsigned long long)bits);
}

static int pack_reg(const struct uncore_box_type *box, const struct uncore_perf_pmu *pmu,
		    const struct uncore_perf_map_row *rows, unsigned nrows, uint8_t reg,
		    uint64_t value, uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	uint64_t covered = 0;
	for (unsigned r = 0; r < nrows; r++) {
		const struct uncore_perf_map_row *row = &rows[r];
		if (row->reg != reg)
			continue;
		covered |= row->mask;
		uint64_t v = uncore_bits_gather(row->mask, value);
		if (v == 0)
			continue; /* absent fields need no kernel field */
		char name[48];
		const struct uncore_perf_field *f = row_field(pmu, row->field, name, sizeof(name));
		if (!f)
			return no_field(box, pmu, name, value & row->mask);
		if (row->one_bit && f->bits != 1) {
			char fmt[80];
			uncore_perf_field_format(f, fmt, sizeof(fmt));
			return uncore_fail(
			    UNCORE_ENOSUPP,
			    "%s: the kernel's %s PMU describes %s as %s, not one bit, so "
			    "it cannot set it; use the direct backend "
			    "(PAPI_INTEL_UNCORE_BACKEND=direct)",
			    box->name, pmu->name, f->name, fmt);
		}
		if (uncore_perf_field_put(f, v, cfg) < 0) {
			char fmt[80];
			uncore_perf_field_format(f, fmt, sizeof(fmt));
			return uncore_fail(
			    UNCORE_ENOSUPP,
			    "%s: value 0x%llx of %s does not fit the kernel's %s field %s "
			    "(%s); use the direct backend (PAPI_INTEL_UNCORE_BACKEND=direct)",
			    box->name, (unsigned long long)v, name, pmu->name, f->name, fmt);
		}
	}
	if (value & ~covered) {
		char what[64];
		if (reg == CTL)
			snprintf(what, sizeof(what), "control bits");
		else
			snprintf(what, sizeof(what), "filter %s", box->filters[reg - 1].name);
		return no_field(box, pmu, what, value & ~covered);
	}
	return 0;
}

static int pack_freerun(const struct uncore_box_type *box, const struct uncore_perf_pmu *pmu,
			uint32_t code, uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	const struct uncore_perf_field *f = uncore_perf_pmu_field(pmu, "event");
	for (unsigned i = 0; f && i < box->nkernel_freerun; i++)
		if (box->kernel_freerun[i].offset == (code & 0xffff))
			return uncore_perf_field_put(f, box->kernel_freerun[i].event, cfg);
	return uncore_fail(UNCORE_ENOSUPP,
			   "%s: no kernel event of %s is known for the free-running counter at "
			   "offset 0x%x",
			   box->name, pmu->name, code & 0xffff);
}

int uncore_perf_encode_table(const struct uncore_box_type *box, const struct uncore_perf_pmu *pmu,
			     const struct uncore_perf_table_event *ev,
			     uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	uint64_t out[UNCORE_PERF_NCONFIG] = {0, 0, 0};
	int rc;

	if (box->flags & UNCORE_BOXF_FREERUN) {
		rc = pack_freerun(box, pmu, ev->code, out);
		if (rc == 0)
			memcpy(cfg, out, sizeof(out));
		return rc;
	}
	struct uncore_perf_map_row rows[UNCORE_PERF_MAX_ROWS];
	unsigned nrows = uncore_perf_map_rows(box, rows, UNCORE_PERF_MAX_ROWS);
	if (!nrows)
		return uncore_fail(UNCORE_ENOSUPP, "%s: no mapping of its fields to kernel formats",
				   box->name);
	uint64_t ctl = ev->ctl;
	if (ev->fixed) {
		/* The kernel selects a box's fixed counter by the event code
		 * 0xff (uncore.c: UNCORE_FIXED_EVENT); our code says the same. */
		uint64_t sel = box->ctl ? box->ctl->ev_sel : 0xff;
		ctl = (ctl & ~sel) | ((box->flags & UNCORE_BOXF_FIXED_FF) ? 0xff : (ev->code & 0xff));
	}
	uint64_t filter[UNCORE_MAX_FILTERS] = {0}, used[UNCORE_MAX_FILTERS] = {0};
	unsigned nfilters = ev->nfilters < box->nfilters ? ev->nfilters : box->nfilters;
	for (unsigned n = 0; n < nfilters && n < UNCORE_MAX_FILTERS; n++) {
		filter[n] = ev->filter[n];
		used[n] = ev->filter_mask ? ev->filter_mask[n] : ~UINT64_C(0);
	}
	rc = box->kernel_rules ? box->kernel_rules(box, &ctl, filter, used, nfilters) : 0;
	if (rc == 0)
		rc = pack_reg(box, pmu, rows, nrows, CTL, ctl, out);
	for (unsigned n = 0; rc == 0 && n < nfilters && n < UNCORE_MAX_FILTERS; n++)
		rc = pack_reg(box, pmu, rows, nrows, (uint8_t)FILTER(n), filter[n], out);
	if (rc == 0)
		memcpy(cfg, out, sizeof(out));
	return rc;
}
