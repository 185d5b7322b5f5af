/* Table encodings to perf config words through sysfs format fields (see
 * perf_encode.h).  The rows name our register fields as the manuals do and
 * the kernel format field that carries each; the bit positions on the
 * kernel side always come from the PMU's format files.  Kernel format
 * names: arch/x86/events/intel/uncore_snbep.c and uncore_snb.c (read for
 * facts only). */
#include "backend/perf/perf_encode.h"

#include "common/uncore_error.h"
#include "platform/hswep/hswep_kernel.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define CTL       UNCORE_REG_CTL
#define FILTER(n) UNCORE_REG_FILTER(n)
#define ROWS(r)   .rows = (r), .nrows = sizeof(r) / sizeof((r)[0])

/* HSX PMON control fields (tables 2-7, 2-16, 2-158, 2-170). */
#define HSX_EV_SEL       0x000000ffULL
#define HSX_UMASK        0x0000ff00ULL
#define HSX_EDGE_DET     (1ULL << 18)
#define HSX_TID_EN       (1ULL << 19)
#define HSX_EV_SEL_EXT   (1ULL << 21)
#define HSX_INVERT       (1ULL << 23)
#define HSX_THRESH       0xff000000ULL
#define HSX_U_THRESH     0x1f000000ULL
#define HSX_PCU_OCC_SEL  0x0000c000ULL
#define HSX_PCU_THRESH   0x1f000000ULL
#define HSX_PCU_OCC_INV  (1ULL << 30)
#define HSX_PCU_OCC_EDGE (1ULL << 31)
/* CBo filters (tables 2-18, 2-19), PCU band filter (2-160). */
#define HSX_CBO_F0_TID   0x0000003fULL
#define HSX_CBO_F0_STATE 0x00fe0000ULL
#define HSX_CBO_F1_NID   0x0000ffffULL
#define HSX_CBO_F1_OPC   0x1ff00000ULL
#define HSX_CBO_F1_NC    (1ULL << 30)
#define HSX_CBO_F1_ISOC  (1ULL << 31)
/* SKL MSR_UNC_*_PERFEVTSEL (table 2-7) and Nehalem MSR_UNCORE_PERFEVTSEL
 * (SDM 18.8.2): the same layout but the threshold width. */
#define CLIENT_EVT_SEL 0x000000ffULL
#define CLIENT_UMASK   0x0000ff00ULL
#define CLIENT_EDGE    (1ULL << 18)
#define CLIENT_INV     (1ULL << 23)
#define SKL_THR        0x1f000000ULL
#define NHM_CMASK      0xff000000ULL

static const struct uncore_perf_map_row hsx_common[] = {
    {CTL, HSX_EV_SEL, "event", 0},  {CTL, HSX_UMASK, "umask", 0}, {CTL, HSX_EDGE_DET, "edge", 1},
    {CTL, HSX_TID_EN, "tid_en", 1}, {CTL, HSX_INVERT, "inv", 1},  {CTL, HSX_THRESH, "thresh", 0},
};

static const struct uncore_perf_map_row hsx_ubox[] = {
    {CTL, HSX_EV_SEL, "event", 0}, {CTL, HSX_UMASK, "umask", 0},     {CTL, HSX_EDGE_DET, "edge", 1},
    {CTL, HSX_INVERT, "inv", 1},   {CTL, HSX_U_THRESH, "thresh", 0},
};

static const struct uncore_perf_map_row hsx_cbo[] = {
    {CTL, HSX_EV_SEL, "event", 0},
    {CTL, HSX_UMASK, "umask", 0},
    {CTL, HSX_EDGE_DET, "edge", 1},
    {CTL, HSX_TID_EN, "tid_en", 1},
    {CTL, HSX_INVERT, "inv", 1},
    {CTL, HSX_THRESH, "thresh", 0},
    {FILTER(0), HSX_CBO_F0_TID, "filter_tid", 0},
    {FILTER(0), HSX_CBO_F0_STATE, "filter_state", 0},
    {FILTER(1), HSX_CBO_F1_NID, "filter_nid", 0},
    {FILTER(1), HSX_CBO_F1_OPC, "filter_opc", 0},
    {FILTER(1), HSX_CBO_F1_NC, "filter_nc", 1},
    {FILTER(1), HSX_CBO_F1_ISOC, "filter_isoc", 1},
};

/* ev_sel_ext is the ninth bit of the event select ("config:0-7,21" where
 * the kernel has it). */
static const struct uncore_perf_map_row hsx_pcu[] = {
    {CTL, HSX_EV_SEL | HSX_EV_SEL_EXT, "event", 0},
    {CTL, HSX_PCU_OCC_SEL, "occ_sel", 0},
    {CTL, HSX_EDGE_DET, "edge", 1},
    {CTL, HSX_INVERT, "inv", 1},
    {CTL, HSX_PCU_THRESH, "thresh", 0},
    {CTL, HSX_PCU_OCC_INV, "occ_invert", 1},
    {CTL, HSX_PCU_OCC_EDGE, "occ_edge_det|occ_edge", 1},
    {FILTER(0), 0x000000ffULL, "filter_band0", 0},
    {FILTER(0), 0x0000ff00ULL, "filter_band1", 0},
    {FILTER(0), 0x00ff0000ULL, "filter_band2", 0},
    {FILTER(0), 0xff000000ULL, "filter_band3", 0},
};

/* QPI packet match and mask: our filters are the 64-bit pairs
 * {MATCH1,MATCH0} and {MASK1,MASK0}, halves in the kernel's match0/1 and
 * mask0/1 fields. */
static const struct uncore_perf_map_row hsx_qpi[] = {
    {CTL, HSX_EV_SEL | HSX_EV_SEL_EXT, "event", 0},
    {CTL, HSX_UMASK, "umask", 0},
    {CTL, HSX_EDGE_DET, "edge", 1},
    {CTL, HSX_INVERT, "inv", 1},
    {CTL, HSX_THRESH, "thresh", 0},
    {FILTER(0), 0x00000000ffffffffULL, "match0", 0},
    {FILTER(0), 0xffffffff00000000ULL, "match1", 0},
    {FILTER(1), 0x00000000ffffffffULL, "mask0", 0},
    {FILTER(1), 0xffffffff00000000ULL, "mask1", 0},
};

static const struct uncore_perf_map_row skl_evtsel[] = {
    {CTL, CLIENT_EVT_SEL, "event", 0}, {CTL, CLIENT_UMASK, "umask", 0},
    {CTL, CLIENT_EDGE, "edge", 1},     {CTL, CLIENT_INV, "inv", 1},
    {CTL, SKL_THR, "cmask", 0},
};

static const struct uncore_perf_map_row nhm_evtsel[] = {
    {CTL, CLIENT_EVT_SEL, "event", 0}, {CTL, CLIENT_UMASK, "umask", 0},
    {CTL, CLIENT_EDGE, "edge", 1},     {CTL, CLIENT_INV, "inv", 1},
    {CTL, NHM_CMASK, "cmask", 0},
};

/* Skylake client IMC free-running counters: the kernel names them by a
 * small event number (uncore_snb.c: data_reads=1 ... io_requests=5); our
 * table code is width << 16 | MMIO offset (SKL 3.3). */
static const struct {
	uint16_t offset;
	uint8_t event;
} skl_imc_freerun[] = {
    {0x5050, 0x01}, {0x5054, 0x02}, {0x5040, 0x03}, {0x5044, 0x04}, {0x5048, 0x05},
};

struct kind_map {
	const char *platform; /* platform/cpu.h name */
	const char *kind;
	const struct uncore_perf_map_row *rows;
	unsigned nrows;
};

static const struct kind_map kind_maps[] = {
    {"hswep", "ubo", ROWS(hsx_ubox)},      {"hswep", "cbo", ROWS(hsx_cbo)},
    {"hswep", "sbo", ROWS(hsx_common)},    {"hswep", "ha", ROWS(hsx_common)},
    {"hswep", "imc", ROWS(hsx_common)},    {"hswep", "irp", ROWS(hsx_common)},
    {"hswep", "pcu", ROWS(hsx_pcu)},       {"hswep", "qpi", ROWS(hsx_qpi)},
    {"hswep", "r2pcie", ROWS(hsx_common)}, {"hswep", "r3qpi", ROWS(hsx_common)},
    {"skl", "cbo", ROWS(skl_evtsel)},      {"skl", "arb", ROWS(skl_evtsel)},
    {"skl", "clock", ROWS(skl_evtsel)}, /* event 0xff only: the fixed counter */
    {"nhm", "unc", ROWS(nhm_evtsel)},
};

static const char *platform_name(enum uncore_platform_id id)
{
	switch (id) {
	case UNCORE_PLATFORM_HSWEP:
		return "hswep";
	case UNCORE_PLATFORM_SKL:
		return "skl";
	case UNCORE_PLATFORM_NHM:
		return "nhm";
	default:
		return "";
	}
}

static const struct kind_map *map_of(const struct uncore_box_type *box)
{
	const char *plat = platform_name(box->platform);
	for (size_t i = 0; i < sizeof(kind_maps) / sizeof(kind_maps[0]); i++)
		if (strcmp(kind_maps[i].platform, plat) == 0 &&
		    strcmp(kind_maps[i].kind, box->kind) == 0)
			return &kind_maps[i];
	return NULL;
}

const struct uncore_perf_map_row *uncore_perf_map_row(const struct uncore_box_type *box, unsigned i)
{
	const struct kind_map *m = map_of(box);
	return m && i < m->nrows ? &m->rows[i] : NULL;
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
		    const struct kind_map *map, uint8_t reg, uint64_t value,
		    uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	uint64_t covered = 0;
	for (unsigned r = 0; r < map->nrows; r++) {
		const struct uncore_perf_map_row *row = &map->rows[r];
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

/* What the Haswell-EP driver would do with the encoding (platform/hswep/
 * hswep_kernel.h): a CBo filter it would not program is refused -- the
 * event would count unfiltered -- and a PCU frequency band 1-3, which its
 * hw_config masks away, is asked for as band 0 (event 0x0b), which it
 * programs right and moves to a free band itself when band 0 is taken.
 * ctl and filter[] are rewritten in place. */
static int hswep_kernel_rules(const struct uncore_box_type *box, uint64_t *ctl, uint64_t *filter,
			      const uint64_t *used, unsigned nfilters)
{
	if (box->platform != UNCORE_PLATFORM_HSWEP)
		return 0;
	if (strcmp(box->kind, "cbo") == 0) {
		uint64_t m[2];
		unsigned fields = hswep_kernel_cbo_fields(*ctl);
		hswep_kernel_cbo_filter_masks(fields, &m[0], &m[1]);
		for (unsigned f = 0; f < nfilters && f < 2; f++)
			if (filter[f] & used[f] & ~m[f])
				return uncore_fail(
				    UNCORE_ENOSUPP,
				    "%s: the kernel's uncore_cbox driver programs the CBo filters "
				    "only for the (event, umask) pairs it lists, and for event "
				    "0x%02x umask 0x%02x it would drop %s bits 0x%" PRIx64
				    " and count unfiltered; use the direct backend "
				    "(PAPI_INTEL_UNCORE_BACKEND=direct)",
				    box->name, (unsigned)(*ctl & 0xff),
				    (unsigned)(*ctl >> 8 & 0xff), box->filters[f].name,
				    filter[f] & used[f] & ~m[f]);
		return 0;
	}
	if (strcmp(box->kind, "pcu") == 0 && nfilters > 0) {
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
	const struct kind_map *map = map_of(box);
	if (!map)
		return uncore_fail(UNCORE_ENOSUPP, "%s: no mapping of its fields to kernel formats",
				   box->name);
	uint64_t ctl = ev->ctl;
	if (ev->fixed) {
		/* The kernel selects a box's fixed counter by the event code
		 * 0xff (uncore.c: UNCORE_FIXED_EVENT); our code says the same. */
		ctl = (ctl & ~(uint64_t)CLIENT_EVT_SEL) | (ev->code & 0xff);
	}
	uint64_t filter[UNCORE_MAX_FILTERS] = {0}, used[UNCORE_MAX_FILTERS] = {0};
	unsigned nfilters = ev->nfilters < box->nfilters ? ev->nfilters : box->nfilters;
	for (unsigned n = 0; n < nfilters && n < UNCORE_MAX_FILTERS; n++) {
		filter[n] = ev->filter[n];
		used[n] = ev->filter_mask ? ev->filter_mask[n] : ~UINT64_C(0);
	}
	rc = hswep_kernel_rules(box, &ctl, filter, used, nfilters);
	if (rc == 0)
		rc = pack_reg(box, pmu, map, CTL, ctl, out);
	for (unsigned n = 0; rc == 0 && n < nfilters && n < UNCORE_MAX_FILTERS; n++)
		rc = pack_reg(box, pmu, map, (uint8_t)FILTER(n), filter[n], out);
	if (rc == 0)
		memcpy(cfg, out, sizeof(out));
	return rc;
}
