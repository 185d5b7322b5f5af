/* Table encodings to perf config words through sysfs format fields (see
 * perf_encode.h).  Which kernel format field carries each of our register
 * fields is derived from the box type itself: its control layout (ev_sel
 * with ev_sel_ext is "event", umask "umask", occ_sel "occ_sel"), its
 * modifiers and filter fields, each naming its kernel field
 * (events/registry.h); the bit positions on the kernel side always come
 * from the PMU's format files.  Kernel format names:
 * arch/x86/events/intel/uncore_snbep.c and uncore_snb.c (read for facts
 * only). */
#include "backend/perf/perf_encode.h"

#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_kernel.h"
#include "platform/skl/skl_regs.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define CTL       UNCORE_REG_CTL
#define FILTER(n) UNCORE_REG_FILTER(n)

/* Skylake client IMC free-running counters: the kernel names them by a
 * small event number (uncore_snb.c: data_reads=1 ... io_requests=5); our
 * table code is width << 16 | MMIO offset (SKL 3.3). */
static const struct {
	uint16_t offset;
	uint8_t event;
} skl_imc_freerun[] = {
    {SKL_IMC_DRAM_DATA_READS, 0x01},  {SKL_IMC_DRAM_DATA_WRITES, 0x02},
    {SKL_IMC_DRAM_GT_REQUESTS, 0x03}, {SKL_IMC_DRAM_IA_REQUESTS, 0x04},
    {SKL_IMC_DRAM_IO_REQUESTS, 0x05},
};

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
	if (box->platform == UNCORE_PLATFORM_SKL && f)
		for (size_t i = 0; i < sizeof(skl_imc_freerun) / sizeof(skl_imc_freerun[0]); i++)
			if (skl_imc_freerun[i].offset == (code & 0xffff))
				return uncore_perf_field_put(f, skl_imc_freerun[i].event, cfg);
	return uncore_fail(UNCORE_ENOSUPP,
			   "%s: no kernel event of %s is known for the free-running counter at "
			   "offset 0x%x",
			   box->name, pmu->name, code & 0xffff);
}

/* The kernel format names of the fields of `fd` that `bits` touch
 * ("filter_nid", "filter_state, filter_opc"). */
static void filter_field_names(const struct uncore_filter_desc *fd, uint64_t bits, char *out,
			       size_t len, int more)
{
	size_t at = 0;
	for (unsigned i = 0; fd->fields && fd->fields[i]; i++) {
		const char *n = fd->perf ? fd->perf[i] : NULL;
		if (!(fd->fields[i] & bits) || !n || strstr(out, n))
			continue;
		int w = snprintf(out + at, len - at, "%s%s", at || more ? ", " : "", n);
		if (w < 0 || (size_t)w >= len - at)
			return;
		at += (size_t)w;
	}
	if (!at)
		snprintf(out, len, "%s%s bits 0x%" PRIx64, more ? ", " : "", fd->name, bits);
}

/* What the Haswell-EP driver would do with the encoding (platform/hswep/
 * hswep_kernel.h): a CBo filter it would not program is refused -- the
 * event would count unfiltered -- and a PCU frequency band 1-3, which its
 * hw_config masks away, is asked for as band 0 (event 0x0b), which it
 * programs right and moves to a free band itself when band 0 is taken.
 * ctl and filter[] are rewritten in place. */
static int hswep_kernel_rules(const struct uncore_box_type *box, uint64_t *ctl, uint64_t *filter,
			      const uint64_t *used, unsigned nfilters)
{
	if (box->platform != UNCORE_PLATFORM_HSWEP || (box->flags & UNCORE_BOXF_KERNEL))
		return 0;
	if (box->layout == HSWEP_BOX_CBO) {
		uint64_t m[2];
		unsigned fields = hswep_kernel_cbo_fields(*ctl);
		hswep_kernel_cbo_filter_masks(fields, &m[0], &m[1]);
		char names[160] = "";
		for (unsigned f = 0; f < nfilters && f < 2; f++) {
			uint64_t dropped = filter[f] & used[f] & ~m[f];
			size_t at = strlen(names);
			if (dropped)
				filter_field_names(&box->filters[f], dropped, names + at,
						   sizeof(names) - at, at > 0);
		}
		if (!names[0])
			return 0;
		return uncore_fail(UNCORE_ENOSUPP,
				   "%s: the kernel would drop the %s filter and count unfiltered: "
				   "its uncore_cbox driver programs a CBo filter field only for the "
				   "(event, umask) pairs of its hswep_uncore_cbox_extra_regs table, "
				   "matched exactly, and event 0x%02x umask 0x%02x gets %s there; "
				   "use the direct backend (PAPI_INTEL_UNCORE_BACKEND=direct)",
				   box->name, names, (unsigned)(*ctl & 0xff),
				   (unsigned)(*ctl >> 8 & 0xff),
				   fields ? "only other fields" : "no filter at all");
	}
	if (box->layout == HSWEP_BOX_PCU && nfilters > 0) {
		unsigned band;
		uint8_t kept;
		if (hswep_kernel_pcu_band(*ctl, filter[0], &band, &kept)) {
			/* Its own band only: the others belong to the box's other
			 * band events, which ask for theirs the same way. */
			uint64_t want = (filter[0] & used[0]) >> (8 * band) & 0xff;
			*ctl = (*ctl & ~(uint64_t)0xff) | 0x0b;
			filter[0] = want;
		} else if (filter[0] & used[0]) {
			return uncore_fail(
			    UNCORE_ENOSUPP,
			    "%s: the kernel's uncore_pcu driver programs the band filter "
			    "only for FREQ_BAND0-3_CYCLES (events 0x0b-0x0e); it would "
			    "drop 0x%" PRIx64 " for event 0x%02x; use the direct backend "
			    "(PAPI_INTEL_UNCORE_BACKEND=direct)",
			    box->name, filter[0] & used[0], (unsigned)(*ctl & 0xff));
		}
	}
	return 0;
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
		ctl = (ctl & ~sel) | (ev->code & 0xff);
	}
	uint64_t filter[UNCORE_MAX_FILTERS] = {0}, used[UNCORE_MAX_FILTERS] = {0};
	unsigned nfilters = ev->nfilters < box->nfilters ? ev->nfilters : box->nfilters;
	for (unsigned n = 0; n < nfilters && n < UNCORE_MAX_FILTERS; n++) {
		filter[n] = ev->filter[n];
		used[n] = ev->filter_mask ? ev->filter_mask[n] : ~UINT64_C(0);
	}
	rc = hswep_kernel_rules(box, &ctl, filter, used, nfilters);
	if (rc == 0)
		rc = pack_reg(box, pmu, rows, nrows, CTL, ctl, out);
	for (unsigned n = 0; rc == 0 && n < nfilters && n < UNCORE_MAX_FILTERS; n++)
		rc = pack_reg(box, pmu, rows, nrows, (uint8_t)FILTER(n), filter[n], out);
	if (rc == 0)
		memcpy(cfg, out, sizeof(out));
	return rc;
}
