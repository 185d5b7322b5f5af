/* Xeon 7400 (Dunnington) and Dual-Core Xeon 7100 (Tulsa) L3 / caching bus
 * controller EMON: eight MSR_EMON_L3_CTR_CTL0-7, each an event control field
 * (bits 63:32) over a 32-bit count (bits 31:0); CTL0/1 count GBSQ events,
 * CTL2/3 GSNPQ events, CTL4-7 FSB events (SDM Vol. 3B 18.21.1, seeds/004).
 * An event is a set of attribute matches in the control field; counting
 * starts when it is non-zero (18.21.3).  Tables:
 * libpfm4-events/events/intel_x7400_unc_iu_events.h. */
#include "events/table.h"

#include "events/intel_x7400_unc_iu_events.h"

#define TABLE(t) .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)

#define X7400_EMON_L3_CTR_CTL_EVENT_CONTROL 0xffffffff00000000ULL

/* The tables hold the control field's value (MSR bit n is bit n-32 there). */
static const struct uncore_ctl_layout x7x00_emon_ctl = {
    .name = "MSR_EMON_L3_CTR_CTL",
    .writable = X7400_EMON_L3_CTR_CTL_EVENT_CONTROL,
};

#define X7X00_BOX(sym, nm, knd, dsc, table, ncnt)                                                  \
	static const struct uncore_box_type sym = {                                                \
	    .name = nm,                                                                            \
	    .kind = knd,                                                                           \
	    .desc = dsc,                                                                           \
	    .manual = "SDM 3B 18.21",                                                              \
	    .ninstances = 1,                                                                       \
	    .perf_pmu = NULL,                                                                      \
	    .ngeneric = ncnt,                                                                      \
	    .counter_width = 32,                                                                   \
	    .ctl = &x7x00_emon_ctl,                                                                \
	    .code_shift = 32,                                                                      \
	    .flags = UNCORE_BOXF_UCODE_WHOLE | UNCORE_BOXF_NO_ENABLE,                              \
	    TABLE(table),                                                                          \
	}

X7X00_BOX(x7400_gbsq, "x7400_unc_gbsq", "gbsq", "GBSQ: global bus super queue (CTL0/1)",
	  intel_x7400_unc_iu_gbsq_pe, 2);
X7X00_BOX(x7400_gsnpq, "x7400_unc_gsnpq", "gsnpq", "GSNPQ: global snoop queue (CTL2/3)",
	  intel_x7400_unc_iu_gsnpq_pe, 2);
X7X00_BOX(x7400_fsb, "x7400_unc_fsb", "fsb", "FSB: caching bus controller (CTL4-7)",
	  intel_x7x00_unc_iu_fsb_pe, 4);
X7X00_BOX(x7100_gbsq, "x7100_unc_gbsq", "gbsq", "GBSQ: global bus super queue (CTL0/1)",
	  intel_x7100_unc_iu_gbsq_pe, 2);
X7X00_BOX(x7100_gsnpq, "x7100_unc_gsnpq", "gsnpq", "GSNPQ: global snoop queue (CTL2/3)",
	  intel_x7100_unc_iu_gsnpq_pe, 2);
X7X00_BOX(x7100_fsb, "x7100_unc_fsb", "fsb", "FSB: caching bus controller (CTL4-7)",
	  intel_x7x00_unc_iu_fsb_pe, 4);

static const struct uncore_box_type *const x7400_boxes[] = {&x7400_gbsq, &x7400_gsnpq, &x7400_fsb};
static const struct uncore_box_type *const x7100_boxes[] = {&x7100_gbsq, &x7100_gsnpq, &x7100_fsb};

const struct uncore_event_platform uncore_events_x7400 = {
    .platform = &uncore_platform_x7400,
    .name = "x7400",
    .boxes = x7400_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(x7400_boxes),
};

const struct uncore_event_platform uncore_events_x7100 = {
    .platform = &uncore_platform_x7100,
    .name = "x7100",
    .boxes = x7100_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(x7100_boxes),
};
