/* Haswell-EP (Xeon E5/E7 v3) box types: the ten uncore PMON units, with the
 * register layouts of the Intel Xeon E5/E7 v3 Uncore Performance Monitoring
 * Reference Manual (seeds/000; "HSX" below) and the event tables of
 * libpfm4-events/events/intel_hswep_unc_<box>_events.h. */
#include "events/table.h"

#include "events/intel_hswep_unc_cbo_events.h"
#include "events/intel_hswep_unc_ha_events.h"
#include "events/intel_hswep_unc_imc_events.h"
#include "events/intel_hswep_unc_irp_events.h"
#include "events/intel_hswep_unc_pcu_events.h"
#include "events/intel_hswep_unc_qpi_events.h"
#include "events/intel_hswep_unc_r2pcie_events.h"
#include "events/intel_hswep_unc_r3qpi_events.h"
#include "events/intel_hswep_unc_sbo_events.h"
#include "events/intel_hswep_unc_ubo_events.h"
#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_kernel.h"
#include "platform/hswep/hswep_regs.h"
#include "maxinc/intel_hswep_unc_maxinc.h"
#include "events/supplement/intel_hswep_unc_supp_events.h"
#include "events/perfmon/intel_hswep_cousins.h"
#include "maxinc/intel_hswep_unc_supp_maxinc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TABLE(t) .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)
/* The max-increment array is parallel to the event table. */
#define MAXINC(m, t)                                                                               \
	.maxinc = (m) + 0 * sizeof(struct {                                                        \
				_Static_assert(LIBPFM_ARRAY_SIZE(m) == LIBPFM_ARRAY_SIZE(t),       \
					       #m " has one entry per event of " #t);              \
				int ok;                                                            \
			})

/* Register fields and box geometry: platform/hswep/hswep_regs.h, shared
 * with the box descriptors; `layout` names each box type's descriptor. */

/* What an event encoding may program (en, rst and ov_en belong to the backend). */
#define HSWEP_EVENT_FIELDS                                                                         \
	(HSWEP_PMON_CTL_EV_SEL | HSWEP_PMON_CTL_UMASK | HSWEP_PMON_CTL_EDGE_DET |                  \
	 HSWEP_PMON_CTL_INVERT | HSWEP_PMON_CTL_THRESH8)

static const struct uncore_ctl_layout hswep_ctl_common = {
    .name = "PMON_CTL",
    .ev_sel = HSWEP_PMON_CTL_EV_SEL,
    .umask = HSWEP_PMON_CTL_UMASK,
    .en = HSWEP_PMON_CTL_EN,
    .writable = HSWEP_EVENT_FIELDS,
};

static const struct uncore_ctl_layout hswep_ctl_cbo = {
    .name = "Cn_MSR_PMON_CTL",
    .ev_sel = HSWEP_PMON_CTL_EV_SEL,
    .umask = HSWEP_PMON_CTL_UMASK,
    .en = HSWEP_PMON_CTL_EN,
    .writable = HSWEP_EVENT_FIELDS | HSWEP_PMON_CTL_TID_EN,
};

static const struct uncore_ctl_layout hswep_ctl_qpi = {
    .name = "Q_Py_PCI_PMON_CTL",
    .ev_sel = HSWEP_PMON_CTL_EV_SEL,
    .umask = HSWEP_PMON_CTL_UMASK,
    .ev_sel_ext = HSWEP_PMON_CTL_EV_SEL_EXT,
    .en = HSWEP_PMON_CTL_EN,
    .writable = HSWEP_EVENT_FIELDS | HSWEP_PMON_CTL_EV_SEL_EXT,
};

static const struct uncore_ctl_layout hswep_ctl_ubox = {
    .name = "U_MSR_PMON_CTL",
    .ev_sel = HSWEP_PMON_CTL_EV_SEL,
    .umask = HSWEP_PMON_CTL_UMASK,
    .en = HSWEP_PMON_CTL_EN,
    .writable = HSWEP_PMON_CTL_EV_SEL | HSWEP_PMON_CTL_UMASK | HSWEP_PMON_CTL_EDGE_DET |
		HSWEP_PMON_CTL_INVERT | HSWEP_PMON_CTL_THRESH5,
};

/* HSX 2.8.3: ev_sel[7] marks an event counted through an occupancy
 * sub-counter chosen by occ_sel; edge/invert then apply as occ_edge_det and
 * occ_invert (table 2-158). */
static const struct uncore_ctl_layout hswep_ctl_pcu = {
    .name = "PCU_MSR_PMON_CTL",
    .ev_sel = HSWEP_PMON_CTL_EV_SEL,
    .ev_sel_ext = HSWEP_PMON_CTL_EV_SEL_EXT,
    .en = HSWEP_PMON_CTL_EN,
    .occ_sel = HSWEP_PCU_CTL_OCC_SEL,
    .occ_event = HSWEP_PCU_EV_SEL_OCC,
    .writable = HSWEP_PMON_CTL_EV_SEL | HSWEP_PCU_CTL_OCC_SEL | HSWEP_PMON_CTL_EDGE_DET |
		HSWEP_PMON_CTL_EV_SEL_EXT | HSWEP_PMON_CTL_INVERT | HSWEP_PMON_CTL_THRESH5 |
		HSWEP_PCU_CTL_OCC_INVERT | HSWEP_PCU_CTL_OCC_EDGE_DET,
};

static const uint64_t cbo_filter0_fields[] = {
    HSWEP_CBO_FILTER0_TID_THREAD, HSWEP_CBO_FILTER0_TID_CORE, HSWEP_CBO_FILTER0_STATE, 0};
static const uint64_t cbo_filter1_fields[] = {HSWEP_CBO_FILTER1_NID, HSWEP_CBO_FILTER1_OPC,
					      HSWEP_CBO_FILTER1_NC, HSWEP_CBO_FILTER1_ISOC, 0};
/* The kernel's names: uncore_snbep.c's hswep_uncore_cbox_formats_attr. */
static const char *const cbo_filter0_perf[] = {"filter_tid", "filter_tid", "filter_state"};
static const char *const cbo_filter1_perf[] = {"filter_nid", "filter_opc", "filter_nc",
					       "filter_isoc"};
static const struct uncore_filter_desc cbo_filters[] = {
    {.name = "Cn_MSR_PMON_BOX_FILTER0", .fields = cbo_filter0_fields, .perf = cbo_filter0_perf},
    {.name = "Cn_MSR_PMON_BOX_FILTER1", .fields = cbo_filter1_fields, .perf = cbo_filter1_perf},
};

static const uint64_t pcu_filter_fields[] = {HSWEP_PCU_FILTER_BAND(0), HSWEP_PCU_FILTER_BAND(1),
					     HSWEP_PCU_FILTER_BAND(2), HSWEP_PCU_FILTER_BAND(3), 0};
static const char *const pcu_filter_perf[] = {"filter_band0", "filter_band1", "filter_band2",
					      "filter_band3"};
static const struct uncore_filter_desc pcu_filters[] = {
    {.name = "PCU_MSR_PMON_BOX_FILTER", .fields = pcu_filter_fields, .perf = pcu_filter_perf},
};

static const uint64_t qpi_pkt_fields[] = {
    HSWEP_QPI_PKT_VNW,    HSWEP_QPI_PKT_OPC,      HSWEP_QPI_PKT_MC,  HSWEP_QPI_PKT_DNID,
    HSWEP_QPI_PKT_RNID_4, HSWEP_QPI_PKT_RNID_3_0, HSWEP_QPI_PKT_RDS, 0};
/* The kernel carries each pair as two dwords (match0/1, mask0/1). */
static const struct uncore_filter_desc qpi_filters[] = {
    {.name = "Q_Py_PCI_PMON_PKT_MATCH{1,0}",
     .fields = qpi_pkt_fields,
     .perf_dwords = {"match0", "match1"}},
    {.name = "Q_Py_PCI_PMON_PKT_MASK{1,0}",
     .fields = qpi_pkt_fields,
     .perf_dwords = {"mask0", "mask1"}},
};

static const uint64_t ha_opc_fields[] = {HSWEP_HA_OPCODEMATCH_OPC, 0};
static const uint64_t ha_addr_fields[] = {HSWEP_HA_ADDRMATCH_ADDR, 0};
static const struct uncore_filter_desc ha_filters[] = {
    {.name = "HA_PCI_PMON_BOX_OPCODEMATCH", .fields = ha_opc_fields},
    {.name = "HA_PCI_PMON_BOX_ADDRMATCH{1,0}", .fields = ha_addr_fields},
};

/* Modifiers.  Threshold, invert and edge as HSX 1.4 describes them. */
#define MOD_EDGE(occ)                                                                              \
	{                                                                                          \
		.name = "e",                                                                       \
		.desc = "edge detect: count 0-to-1 transitions of the (thresholded) event",        \
		.attr = SNBEP_UNC_ATTR_E, .is_bool = 1, .reg = UNCORE_REG_CTL,                     \
		.field = HSWEP_PMON_CTL_EDGE_DET, .occ_field = (occ), .max = 1, .perf = "edge",    \
		.perf_occ = "occ_edge_det|occ_edge"                                                \
	}
#define MOD_INVERT(occ)                                                                            \
	{                                                                                          \
		.name = "i", .desc = "invert the threshold comparison: count when increment < t",  \
		.attr = SNBEP_UNC_ATTR_I, .is_bool = 1, .reg = UNCORE_REG_CTL,                     \
		.field = HSWEP_PMON_CTL_INVERT, .occ_field = (occ), .max = 1, .perf = "inv",       \
		.perf_occ = "occ_invert"                                                           \
	}
#define MOD_THRESH(bits, mask, maxv, text)                                                         \
	{                                                                                          \
		.name = "t", .desc = "threshold: count cycles the increment is >= t " text,        \
		.attr = (bits), .reg = UNCORE_REG_CTL, .field = (mask), .max = (maxv),             \
		.perf = "thresh"                                                                   \
	}

static const struct uncore_mod_desc hswep_common_mods[] = {
    MOD_EDGE(0),
    MOD_INVERT(0),
    MOD_THRESH(SNBEP_UNC_ATTR_T8, HSWEP_PMON_CTL_THRESH8, 255, "[0-255]"),
};

/* HSX table 2-7: the UBox threshold is 5 bits (28:24), not 8. */
static const struct uncore_mod_desc hswep_ubox_mods[] = {
    MOD_EDGE(0),
    MOD_INVERT(0),
    MOD_THRESH(SNBEP_UNC_ATTR_T5, HSWEP_PMON_CTL_THRESH5, 31, "[0-31]"),
    /* libpfm4's tables give the UBox T8; the field is 5 bits either way. */
    MOD_THRESH(SNBEP_UNC_ATTR_T8, HSWEP_PMON_CTL_THRESH5, 31, "[0-31]"),
};

/* HSX 2.3.2.3: thread/core filtering needs tid_en and FILTER0.tid; node,
 * opcode, NC and ISOC matching live in FILTER1. */
static const struct uncore_mod_desc hswep_cbo_mods[] = {
    MOD_EDGE(0),
    MOD_INVERT(0),
    MOD_THRESH(SNBEP_UNC_ATTR_T8, HSWEP_PMON_CTL_THRESH8, 255, "[0-255]"),
    {.name = "tf",
     .desc = "thread id filter [0-1] (sets tid_en)",
     .attr = SNBEP_UNC_ATTR_TF,
     .reg = UNCORE_REG_FILTER(0),
     .field = HSWEP_CBO_FILTER0_TID_THREAD,
     .ctl_also = HSWEP_PMON_CTL_TID_EN,
     .max = 1,
     .perf = "filter_tid",
     .perf_also = "tid_en"},
    {.name = "cf",
     .desc = "core id filter [0-31]: bits 3:0 core, bit 4 non-thread data (sets tid_en)",
     .attr = SNBEP_UNC_ATTR_CF1,
     .reg = UNCORE_REG_FILTER(0),
     .field = HSWEP_CBO_FILTER0_TID_CORE,
     .ctl_also = HSWEP_PMON_CTL_TID_EN,
     .max = 31,
     .perf = "filter_tid",
     .perf_also = "tid_en"},
    {.name = "nf",
     .desc = "target node id mask filter [1-0xffff]",
     .attr = SNBEP_UNC_ATTR_NF1,
     .reg = UNCORE_REG_FILTER(1),
     .field = HSWEP_CBO_FILTER1_NID,
     .min = 1,
     .max = 0xffff,
     .flags = UNCORE_MODF_ONLY_IF_REQUIRED,
     .perf = "filter_nid"},
    {.name = "isoc",
     .desc = "match isochronous requests",
     .attr = SNBEP_UNC_ATTR_ISOC,
     .is_bool = 1,
     .reg = UNCORE_REG_FILTER(1),
     .field = HSWEP_CBO_FILTER1_ISOC,
     .max = 1,
     .perf = "filter_isoc"},
    {.name = "nc",
     .desc = "match non-coherent requests",
     .attr = SNBEP_UNC_ATTR_NC,
     .is_bool = 1,
     .reg = UNCORE_REG_FILTER(1),
     .field = HSWEP_CBO_FILTER1_NC,
     .max = 1,
     .perf = "filter_nc"},
};

static const struct uncore_mod_desc hswep_pcu_mods[] = {
    MOD_EDGE(HSWEP_PCU_CTL_OCC_EDGE_DET),
    MOD_INVERT(HSWEP_PCU_CTL_OCC_INVERT),
    MOD_THRESH(SNBEP_UNC_ATTR_T5, HSWEP_PMON_CTL_THRESH5, 31, "[0-31]"),
    {.name = "ff",
     .desc = "frequency band: count cycles at >= 100 MHz * ff [0-255]",
     .attr = SNBEP_UNC_ATTR_FF,
     .kind = UNCORE_MOD_FREQ_BAND,
     .reg = UNCORE_REG_FILTER(0),
     .field = 0xff,
     .max = 255,
     .perf = "filter_band0"},
};

/* The cache-line address (physical address >> 6, 40 bits) lands in place in
 * the address-match pair. */
static const struct uncore_mod_desc hswep_ha_mods[] = {
    MOD_EDGE(0),
    MOD_INVERT(0),
    MOD_THRESH(SNBEP_UNC_ATTR_T8, HSWEP_PMON_CTL_THRESH8, 255, "[0-255]"),
    {.name = "addr",
     .desc = "cache-line address match (physical address >> 6) [40 bits]",
     .attr = SNBEP_UNC_ATTR_A,
     .reg = UNCORE_REG_FILTER(1),
     .field = HSWEP_HA_ADDRMATCH_ADDR,
     .max = (1ULL << 40) - 1},
};

/* The supplement: events Intel's event data lists and the manual omits
 * (libpfm4-events/tools/gen_hswep_supplement.py, from Intel's HSX data,
 * cross-checked with its BDX data), a separate table after the manual's. */
#define SUPPLEMENT(t, m)                                                                           \
	.supplement = (t), .nsupplement = LIBPFM_ARRAY_SIZE(t),                                    \
	.supplement_maxinc = (m) + 0 * sizeof(struct {                                             \
		_Static_assert(LIBPFM_ARRAY_SIZE(m) == LIBPFM_ARRAY_SIZE(t),                      \
			       #m " has one entry per event of " #t);                              \
		int dummy;                                                                         \
	})

#define MODS(m)    .mods = (m), .nmods = LIBPFM_ARRAY_SIZE(m)
#define FILTERS(f) .filters = (f), .nfilters = LIBPFM_ARRAY_SIZE(f)

/* Counter counts and widths: HSX table 1-1 and each box's CTR table; the
 * R3QPI counters are 44 bits (table 2-233: event_count 43:0).
 *
 * counter_width is the width the raw values are folded at (core/
 * counter_fold.h).  UBox and SBo general counters: the manual says 48 bits
 * (Table 1-1, Tables 2-8 and 2-46), the Linux kernel's HSX driver programs
 * them as 44.  Folding at 44 is exact either way as long as a counter
 * advances less than 2^44 between two reads (a 48-bit counter masked to its
 * low 44 bits wraps at 2^44 like a 44-bit one); folding at 48 a counter that
 * really has 44 bits turns each wrap into a loss of 2^44 - 2^48 (mod 2^64).
 * So 44, and the read interval (max_read_interval) is computed for 44. */
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

/* The kernel_rules of the CBo and the PCU: what the Haswell-EP driver would
 * do with an encoding (platform/hswep/hswep_kernel.h): a CBo filter it would not program is refused -- the
 * event would count unfiltered -- and a PCU frequency band 1-3, which its
 * hw_config masks away, is asked for as band 0 (event 0x0b), which it
 * programs right and moves to a free band itself when band 0 is taken.
 * ctl and filter[] are rewritten in place. */
static int hswep_kernel_rules(const struct uncore_box_type *box, uint64_t *ctl, uint64_t *filter,
			      const uint64_t *used, unsigned nfilters)
{
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

/* The kernel_counters of the CBo, R2PCIe and R3QPI: the driver's counter
 * constraints (hswep_uncore_{cbox,r2pcie,r3qpi}_constraints): a group it
 * cannot place is EINVAL at open (HARDWARE-DECISIONS.md H7). */
static uint64_t hswep_kernel_counters(const struct uncore_box_type *box, uint64_t ctl)
{
	return hswep_kernel_counter_mask((enum hswep_box_kind)box->layout, ctl, box->ngeneric);
}

/* The kernel_match_rules of the QPI: a packet match the driver would not
 * program (H14) is refused; the event would count unfiltered. */
static int hswep_kernel_qpi_match_rules(const struct uncore_box_type *box, unsigned port,
					uint64_t ctl)
{
	if (hswep_kernel_qpi_matches(ctl, port))
		return 0;
	return uncore_fail(UNCORE_ENOSUPP,
			   "%s: the kernel's Haswell-EP driver programs the QPI packet match/mask "
			   "for CTO_COUNT (event 0x38) on ports 0 and 1 only (its device table has "
			   "no mask/match function for port 2), so on uncore_qpi_%u this event "
			   "would count unfiltered; count ports 0 and 1 by name (:box=0, :box=1) "
			   "or use the direct backend (PAPI_INTEL_UNCORE_BACKEND=direct)",
			   box->name, port);
}

/* Each box kind described once (its registers, counters, filters and
 * modifiers: the Haswell-EP manual's layout), for Haswell-EP's box types
 * below and its cousins' (HSWEP_COUSIN, the tables Intel's data gives them). */
#define LAYOUT_UBO                                                                                 \
	.kind = "ubo", .layout = HSWEP_BOX_UBOX,                                                   \
	.desc = "UBox: system configuration controller and global PMON control",                  \
	.ninstances = HSWEP_UBOX_INSTANCES, .perf_pmu = "uncore_ubox",                             \
	.ngeneric = HSWEP_UBOX_COUNTERS,                                                           \
	.counter_width = HSWEP_UBOX_SBO_FOLD_WIDTH, /* the fold's width: see above */              \
	.nfixed = 1, .fixed_width = HSWEP_CTR_WIDTH, .cntmsk_fixed = 1ULL << 32,                   \
	.ctl = &hswep_ctl_ubox, MODS(hswep_ubox_mods)
#define LAYOUT_CBO                                                                                 \
	.kind = "cbo", .layout = HSWEP_BOX_CBO, .desc = "CBo: caching agent and LLC slice",        \
	.ninstances = HSWEP_CBO_INSTANCES, .perf_pmu = "uncore_cbox", .ngeneric = HSWEP_COUNTERS, \
	.counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_cbo, FILTERS(cbo_filters),             \
	MODS(hswep_cbo_mods)
#define LAYOUT_SBO                                                                                 \
	.kind = "sbo", .layout = HSWEP_BOX_SBO,                                                    \
	.desc = "SBo: ring transfer (ring-to-ring bridge)", .ninstances = HSWEP_SBO_INSTANCES,    \
	.perf_pmu = "uncore_sbox", .ngeneric = HSWEP_COUNTERS,                                     \
	.counter_width = HSWEP_UBOX_SBO_FOLD_WIDTH, /* the fold's width: see above */              \
	.ctl = &hswep_ctl_common, MODS(hswep_common_mods)
#define LAYOUT_HA                                                                                  \
	.kind = "ha", .layout = HSWEP_BOX_HA, .desc = "HA: home agent",                            \
	.ninstances = HSWEP_HA_INSTANCES, .perf_pmu = "uncore_ha", .ngeneric = HSWEP_COUNTERS,     \
	.counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_common, FILTERS(ha_filters),           \
	MODS(hswep_ha_mods)
/* HSX table 2-115: the fixed DCLK counter's control has only invert. */
#define LAYOUT_IMC                                                                                 \
	.kind = "imc", .layout = HSWEP_BOX_IMC, .desc = "IMC: memory controller channel",         \
	.ninstances = HSWEP_IMC_INSTANCES, .perf_pmu = "uncore_imc", .ngeneric = HSWEP_COUNTERS,   \
	.counter_width = HSWEP_CTR_WIDTH, .nfixed = 1, .fixed_width = HSWEP_CTR_WIDTH,             \
	.cntmsk_fixed = 1ULL << 32, .fixed_ctl_mods = HSWEP_PMON_CTL_INVERT,                       \
	.ctl = &hswep_ctl_common, MODS(hswep_common_mods)
#define LAYOUT_IRP                                                                                 \
	.kind = "irp", .layout = HSWEP_BOX_IRP, .desc = "IRP: coherency for IIO traffic",          \
	.ninstances = HSWEP_IRP_INSTANCES, .perf_pmu = "uncore_irp", .ngeneric = HSWEP_COUNTERS,   \
	.counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_common, MODS(hswep_common_mods)
#define LAYOUT_PCU                                                                                 \
	.kind = "pcu", .layout = HSWEP_BOX_PCU, .desc = "PCU: power control unit",                 \
	.ninstances = HSWEP_PCU_INSTANCES, .perf_pmu = "uncore_pcu", .ngeneric = HSWEP_COUNTERS,   \
	.counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_pcu, FILTERS(pcu_filters),             \
	MODS(hswep_pcu_mods), .freq_band0 = 0x0b /* FREQ_BAND0_CYCLES, HSX 2.8.4 */
/* HSX 2.9.2.3: CTO_COUNT counts packets matching {MATCH,MASK}. */
#define LAYOUT_QPI                                                                                 \
	.kind = "qpi", .layout = HSWEP_BOX_QPI, .desc = "QPI: Intel QPI link layer port",          \
	.ninstances = HSWEP_QPI_INSTANCES, .perf_pmu = "uncore_qpi", .ngeneric = HSWEP_COUNTERS,   \
	.counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_qpi, MODS(hswep_common_mods),          \
	FILTERS(qpi_filters), .flags = UNCORE_BOXF_UFILTER_VALUE | UNCORE_BOXF_FILTERS_WHOLE
#define LAYOUT_R2PCIE                                                                              \
	.kind = "r2pcie", .layout = HSWEP_BOX_R2PCIE, .desc = "R2PCIe: ring to PCIe interface",    \
	.ninstances = HSWEP_R2PCIE_INSTANCES, .perf_pmu = "uncore_r2pcie",                         \
	.ngeneric = HSWEP_COUNTERS, .counter_width = HSWEP_CTR_WIDTH, .ctl = &hswep_ctl_common,    \
	MODS(hswep_common_mods)
#define LAYOUT_R3QPI                                                                               \
	.kind = "r3qpi", .layout = HSWEP_BOX_R3QPI, .desc = "R3QPI: ring to QPI interface link",   \
	.ninstances = HSWEP_R3QPI_INSTANCES, .perf_pmu = "uncore_r3qpi",                           \
	.ngeneric = HSWEP_R3QPI_COUNTERS, .counter_width = HSWEP_R3QPI_CTR_WIDTH,                  \
	.ctl = &hswep_ctl_common, MODS(hswep_common_mods)

static const struct uncore_box_type hswep_ubo = {
    .name = "hswep_unc_ubo",
    .manual = "HSX 2.2",
    LAYOUT_UBO,
    TABLE(intel_hswep_unc_u_pe),
    MAXINC(intel_hswep_unc_u_maxinc, intel_hswep_unc_u_pe),
    SUPPLEMENT(intel_hswep_unc_u_supp_pe, intel_hswep_unc_u_supp_maxinc),
};

static const struct uncore_box_type hswep_cbo = {
    .name = "hswep_unc_cbo",
    .manual = "HSX 2.3",
    LAYOUT_CBO,
    TABLE(intel_hswep_unc_c_pe),
    MAXINC(intel_hswep_unc_c_maxinc, intel_hswep_unc_c_pe),
    SUPPLEMENT(intel_hswep_unc_c_supp_pe, intel_hswep_unc_c_supp_maxinc),
    .kernel_rules = hswep_kernel_rules,
    .kernel_counters = hswep_kernel_counters,
};

static const struct uncore_box_type hswep_sbo = {
    .name = "hswep_unc_sbo",
    .manual = "HSX 2.4",
    LAYOUT_SBO,
    TABLE(intel_hswep_unc_s_pe),
    MAXINC(intel_hswep_unc_s_maxinc, intel_hswep_unc_s_pe),
    SUPPLEMENT(intel_hswep_unc_s_supp_pe, intel_hswep_unc_s_supp_maxinc),
};

static const struct uncore_box_type hswep_ha = {
    .name = "hswep_unc_ha",
    .manual = "HSX 2.5",
    LAYOUT_HA,
    TABLE(intel_hswep_unc_h_pe),
    MAXINC(intel_hswep_unc_h_maxinc, intel_hswep_unc_h_pe),
    SUPPLEMENT(intel_hswep_unc_h_supp_pe, intel_hswep_unc_h_supp_maxinc),
};

static const struct uncore_box_type hswep_imc = {
    .name = "hswep_unc_imc",
    .manual = "HSX 2.6",
    LAYOUT_IMC,
    TABLE(intel_hswep_unc_m_pe),
    MAXINC(intel_hswep_unc_m_maxinc, intel_hswep_unc_m_pe),
};

static const struct uncore_box_type hswep_irp = {
    .name = "hswep_unc_irp",
    .manual = "HSX 2.7",
    LAYOUT_IRP,
    TABLE(intel_hswep_unc_i_pe),
    MAXINC(intel_hswep_unc_i_maxinc, intel_hswep_unc_i_pe),
};

static const struct uncore_box_type hswep_pcu = {
    .name = "hswep_unc_pcu",
    .manual = "HSX 2.8",
    LAYOUT_PCU,
    TABLE(intel_hswep_unc_p_pe),
    MAXINC(intel_hswep_unc_p_maxinc, intel_hswep_unc_p_pe),
    .kernel_rules = hswep_kernel_rules,
};

static const struct uncore_box_type hswep_qpi = {
    .name = "hswep_unc_qpi",
    .manual = "HSX 2.9",
    LAYOUT_QPI,
    TABLE(intel_hswep_unc_q_pe),
    MAXINC(intel_hswep_unc_q_maxinc, intel_hswep_unc_q_pe),
    SUPPLEMENT(intel_hswep_unc_q_supp_pe, intel_hswep_unc_q_supp_maxinc),
    .kernel_match_rules = hswep_kernel_qpi_match_rules,
};

static const struct uncore_box_type hswep_r2pcie = {
    .name = "hswep_unc_r2pcie",
    .manual = "HSX 2.10",
    LAYOUT_R2PCIE,
    TABLE(intel_hswep_unc_r2_pe),
    MAXINC(intel_hswep_unc_r2_maxinc, intel_hswep_unc_r2_pe),
    SUPPLEMENT(intel_hswep_unc_r2_supp_pe, intel_hswep_unc_r2_supp_maxinc),
    .kernel_counters = hswep_kernel_counters,
};

static const struct uncore_box_type hswep_r3qpi = {
    .name = "hswep_unc_r3qpi",
    .manual = "HSX 2.11",
    LAYOUT_R3QPI,
    TABLE(intel_hswep_unc_r3_pe),
    MAXINC(intel_hswep_unc_r3_maxinc, intel_hswep_unc_r3_pe),
    SUPPLEMENT(intel_hswep_unc_r3_supp_pe, intel_hswep_unc_r3_supp_maxinc),
    .kernel_counters = hswep_kernel_counters,
};

static const struct uncore_box_type *const hswep_boxes[] = {
    &hswep_ubo, &hswep_cbo, &hswep_sbo, &hswep_ha,     &hswep_imc,
    &hswep_irp, &hswep_pcu, &hswep_qpi, &hswep_r2pcie, &hswep_r3qpi,
};

const struct uncore_event_platform uncore_events_hswep = {
    .platform = &uncore_platform_hswep,
    .name = "hswep",
    .boxes = hswep_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(hswep_boxes),
};

/* Haswell-EP's cousins (Broadwell-EP): each box kind as described above,
 * with the events Intel's data gives the generation (generated tables,
 * libpfm4-events/tools/gen_perfmon.py, which lists the cousins).  No Max
 * Inc/Cyc (Intel's data gives none: the engine's read interval takes 1 per
 * cycle); no supplement.  The kernel's rules that hold for a cousin too:
 * its CBo filters (the Broadwell-EP driver uses the Haswell-EP CBo ops and
 * extra-register table) and the PCU band filter (it uses the Haswell-EP
 * PCU).  Not the QPI match rule (the Broadwell-EP driver has port 2's
 * match/mask function, 0x6F46) nor the Haswell-EP counter constraints.
 * Intel's data codes the UBox's and the iMC's fixed counter events 0x00
 * (UNC_U_CLOCKTICKS, UNC_M_CLOCKTICKS, INTEL_X86_FIXED); the kernel takes
 * its fixed counter by event 0xff only, so the perf backend must send 0xff
 * (UNCORE_BOXF_FIXED_FF; 0x00 would be a generic counter's event 0). */
#define COUSIN_BOX(gen, box, LAYOUT, ...)                                                          \
	static const struct uncore_box_type gen##_##box = {                                        \
	    .name = #gen "_unc_" #box,                                                             \
	    .manual = "HSX PMON layout; events: Intel's " #gen " event data",                     \
	    LAYOUT,                                                                                \
	    TABLE(intel_##gen##_unc_##box##_pe),                                                   \
	    __VA_ARGS__};
#define HSWEP_COUSIN(gen)                                                                          \
	COUSIN_BOX(gen, ubo, LAYOUT_UBO, .flags = UNCORE_BOXF_FIXED_FF)                            \
	COUSIN_BOX(gen, cbo, LAYOUT_CBO, .kernel_rules = hswep_kernel_rules)                       \
	COUSIN_BOX(gen, sbo, LAYOUT_SBO)                                                           \
	COUSIN_BOX(gen, ha, LAYOUT_HA)                                                             \
	COUSIN_BOX(gen, imc, LAYOUT_IMC, .flags = UNCORE_BOXF_FIXED_FF)                            \
	COUSIN_BOX(gen, irp, LAYOUT_IRP)                                                           \
	COUSIN_BOX(gen, pcu, LAYOUT_PCU, .kernel_rules = hswep_kernel_rules)                       \
	COUSIN_BOX(gen, qpi, LAYOUT_QPI)                                                           \
	COUSIN_BOX(gen, r2pcie, LAYOUT_R2PCIE)                                                     \
	COUSIN_BOX(gen, r3qpi, LAYOUT_R3QPI)                                                       \
	static const struct uncore_box_type *const gen##_boxes[] = {                               \
	    &gen##_ubo, &gen##_cbo, &gen##_sbo, &gen##_ha,     &gen##_imc,                         \
	    &gen##_irp, &gen##_pcu, &gen##_qpi, &gen##_r2pcie, &gen##_r3qpi,                       \
	};                                                                                         \
	extern const struct uncore_platform uncore_platform_##gen;                                 \
	const struct uncore_event_platform uncore_events_##gen = {                                 \
	    .platform = &uncore_platform_##gen,                                                    \
	    .name = #gen,                                                                          \
	    .boxes = gen##_boxes,                                                                  \
	    .nboxes = LIBPFM_ARRAY_SIZE(gen##_boxes),                                              \
	    .from_intel_perfmon = 1, /* its tables: gen_perfmon.py, from Intel's data */            \
	};

PERFMON_HSWEP_COUSINS(HSWEP_COUSIN)
