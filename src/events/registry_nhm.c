/* Nehalem (Core i7 / Xeon 5500) uncore, and its cousins' (Westmere, Core
 * i7 / Xeon 5600: the same PMU, SDM 18.8.2 covers both) with their own
 * events: one box per socket with eight
 * generic counters, the fixed UCLK counter and two extra match registers.
 * Register layouts from Intel SDM Vol. 3B 18.8.2 (MSR_UNCORE_PERFEVTSELx,
 * counters 48 bits) and the Performance Analysis Guide (seeds/002, "guide":
 * MSR 301h in table 28, MSR 396h in table 37); events from
 * libpfm4-events/events/intel_nhm_unc_iu_events.h; the cousins' from the
 * generated list libpfm4-events/events/intel_nhm_cousins.h (Westmere's: SDM
 * Table 19-20). */
#include "events/table.h"

#include "events/intel_nhm_unc_iu_events.h"
#include "events/intel_nhm_cousins.h"
#include "platform/nhm/nhm_regs.h"

#define TABLE(t)   .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)
#define MODS(m)    .mods = (m), .nmods = LIBPFM_ARRAY_SIZE(m)
#define FILTERS(f) .filters = (f), .nfilters = LIBPFM_ARRAY_SIZE(f)

/* Register fields: platform/nhm/nhm_regs.h, the one definition the direct
 * engine (desc_nhm.c) and the MSR allowlist use too.  MSR 301h (guide table
 * 28), the snoop-response state filter of event 0Ch, has one field: the
 * guide says these events run one at a time, there being one MSR, so two of
 * them share it only with the same value. */

static const struct uncore_ctl_layout nhm_evtsel = {
    .name = "MSR_UNCORE_PERFEVTSEL",
    .ev_sel = NHM_EVTSEL_EVENT,
    .umask = NHM_EVTSEL_UMASK,
    .en = NHM_EVTSEL_EN,
    /* What an event may set: not EN (the backend's) nor PMI (counters are polled). */
    .writable = NHM_EVTSEL_RW & ~(NHM_EVTSEL_EN | NHM_EVTSEL_PMI),
};

static const uint64_t nhm_match_fields[] = {NHM_MATCH_ADDR, NHM_MATCH_OPCODE, NHM_MATCH_SELECT, 0};
static const uint64_t nhm_snoop_fields[] = {NHM_GQ_SNOOP_MESF_RW, 0};
static const struct uncore_filter_desc nhm_filters[] = {
    {.name = "MSR_UNCORE_ADDR_OPCODE_MATCH (396h)", .fields = nhm_match_fields},
    {.name = "MSR 301h (snoop response state)", .fields = nhm_snoop_fields},
};

/* The table has one extra-register slot (ufilters[0]); which MSR it is
 * depends on the event: 0Ch uses 301h (guide table 28), 35h uses 396h. */
static const struct uncore_ufilter_route nhm_routes[] = {
    {.ev_sel = 0x0c, .from = 0, .to = 1},
    {.ev_sel = 0x35, .from = 0, .to = 0},
};

static const struct uncore_mod_desc nhm_mods[] = {
    {.name = "e",
     .desc = "edge detect: count occurrences, not cycles",
     .attr = NHM_UNC_ATTR_E,
     .is_bool = 1,
     .field = NHM_EVTSEL_EDGE,
     .max = 1,
     .perf = "edge"},
    {.name = "i",
     .desc = "invert: count when the increment is below the threshold",
     .attr = NHM_UNC_ATTR_I,
     .is_bool = 1,
     .field = NHM_EVTSEL_INV,
     .max = 1,
     .perf = "inv"},
    {.name = "c",
     .desc = "threshold (counter mask) [0-255]; 0 disables the comparison",
     .attr = NHM_UNC_ATTR_C,
     .field = NHM_EVTSEL_CMASK,
     .max = 255,
     .perf = "cmask"},
    {.name = "o",
     .desc = "reset the queue occupancy counter when programmed",
     .attr = NHM_UNC_ATTR_O,
     .is_bool = 1,
     .field = NHM_EVTSEL_OCC_CTR_RST,
     .max = 1},
};

/* Nehalem's box with a generation's name, words and events. */
#define NHM_UNC_BOX(box_name, box_manual, box_desc, table)                                        \
	{                                                                                          \
	    .name = box_name,                                                                      \
	    .kind = "unc",                                                                         \
	    .manual = box_manual,                                                                  \
	    .desc = box_desc,                                                                      \
	    .ninstances = 1,                                                                       \
	    .perf_pmu = "uncore",                                                                  \
	    .ngeneric = 8,                                                                         \
	    .counter_width = 48,                                                                   \
	    .nfixed = 1,                                                                           \
	    .fixed_width = 48,                                                                     \
	    .cntmsk_fixed = 1ULL << 32,                                                            \
	    .ctl = &nhm_evtsel,                                                                    \
	    MODS(nhm_mods),                                                                        \
	    FILTERS(nhm_filters),                                                                  \
	    .routes = nhm_routes,                                                                  \
	    .nroutes = LIBPFM_ARRAY_SIZE(nhm_routes),                                              \
	    .flags = UNCORE_BOXF_UFILTER_VALUE,                                                    \
	    TABLE(table),                                                                          \
	}

static const struct uncore_box_type nhm_unc =
    NHM_UNC_BOX("nhm_unc_guide", "SDM 3B 18.8.2; guide uncore tables",
		"Nehalem uncore: GQ, L3, QHL, QPI and IMC events of the socket", intel_nhm_unc_iu_pe);

static const struct uncore_box_type *const nhm_boxes[] = {&nhm_unc};

const struct uncore_event_platform uncore_events_nhm = {
    .platform = &uncore_platform_nhm,
    .name = "nhm",
    .boxes = nhm_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(nhm_boxes),
};

/* Nehalem's cousins (Westmere: platform/wsm/wsm.c): Nehalem's box under
 * each one's name and words, with its events (the generated list,
 * libpfm4-events/tools/gen_wsm.py NHM_COUSINS), as uncore_events_<gen>. */
#define NHM_COUSIN(gen, GEN, box, table, models, manual, desc, pmu_desc)                           \
	static const struct uncore_box_type gen##_unc = NHM_UNC_BOX(box, manual, desc, table);     \
	static const struct uncore_box_type *const gen##_boxes[] = {&gen##_unc};                   \
	extern const struct uncore_platform uncore_platform_##gen;                                 \
	const struct uncore_event_platform uncore_events_##gen = {                                 \
	    .platform = &uncore_platform_##gen,                                                    \
	    .name = #gen,                                                                          \
	    .boxes = gen##_boxes,                                                                  \
	    .nboxes = LIBPFM_ARRAY_SIZE(gen##_boxes),                                              \
	};

NHM_COUSINS(NHM_COUSIN)
