/* Nehalem (Core i7 / Xeon 5500) uncore: one box per socket with eight
 * generic counters, the fixed UCLK counter and two extra match registers.
 * Register layouts from Intel SDM Vol. 3B 18.8.2 (MSR_UNCORE_PERFEVTSELx,
 * counters 48 bits) and the Performance Analysis Guide (seeds/002, "guide":
 * MSR 301h in table 28, MSR 396h in table 37); events from
 * libpfm4-events/events/intel_nhm_unc_iu_events.h. */
#include "events/table.h"

#include "events/intel_nhm_unc_iu_events.h"

#define TABLE(t)   .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)
#define MODS(m)    .mods = (m), .nmods = LIBPFM_ARRAY_SIZE(m)
#define FILTERS(f) .filters = (f), .nfilters = LIBPFM_ARRAY_SIZE(f)

#define NHM_UNCORE_PERFEVTSEL_EVENT       0x000000ffULL
#define NHM_UNCORE_PERFEVTSEL_UMASK       0x0000ff00ULL
#define NHM_UNCORE_PERFEVTSEL_OCC_CTR_RST (1ULL << 17)
#define NHM_UNCORE_PERFEVTSEL_EDGE        (1ULL << 18)
#define NHM_UNCORE_PERFEVTSEL_PMI         (1ULL << 20)
#define NHM_UNCORE_PERFEVTSEL_EN          (1ULL << 22)
#define NHM_UNCORE_PERFEVTSEL_INV         (1ULL << 23)
#define NHM_UNCORE_PERFEVTSEL_CMASK       0xff000000ULL

/* Guide table 37: MSR_UNCORE_ADDR_OPCODE_MATCH (396h). */
#define NHM_ADDR_OPCODE_MATCH_ADDR   0x000000fffffffff8ULL
#define NHM_ADDR_OPCODE_MATCH_OPCODE 0x0000ff0000000000ULL
#define NHM_ADDR_OPCODE_MATCH_SELECT 0xe000000000000000ULL
/* Guide table 28: MSR 301h, the snoop-response state filter of event 0Ch.
 * One field: the guide says these events run one at a time, there being one
 * MSR, so two of them share it only with the same value. */
#define NHM_GQ_SNOOP_MESF 0xffULL

static const struct uncore_ctl_layout nhm_evtsel = {
    .name = "MSR_UNCORE_PERFEVTSEL",
    .ev_sel = NHM_UNCORE_PERFEVTSEL_EVENT,
    .umask = NHM_UNCORE_PERFEVTSEL_UMASK,
    .en = NHM_UNCORE_PERFEVTSEL_EN,
    .writable = NHM_UNCORE_PERFEVTSEL_EVENT | NHM_UNCORE_PERFEVTSEL_UMASK |
		NHM_UNCORE_PERFEVTSEL_OCC_CTR_RST | NHM_UNCORE_PERFEVTSEL_EDGE |
		NHM_UNCORE_PERFEVTSEL_INV | NHM_UNCORE_PERFEVTSEL_CMASK,
};

static const uint64_t nhm_match_fields[] = {
    NHM_ADDR_OPCODE_MATCH_ADDR, NHM_ADDR_OPCODE_MATCH_OPCODE, NHM_ADDR_OPCODE_MATCH_SELECT, 0};
static const uint64_t nhm_snoop_fields[] = {NHM_GQ_SNOOP_MESF, 0};
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
     .field = NHM_UNCORE_PERFEVTSEL_EDGE,
     .max = 1,
     .perf = "edge"},
    {.name = "i",
     .desc = "invert: count when the increment is below the threshold",
     .attr = NHM_UNC_ATTR_I,
     .is_bool = 1,
     .field = NHM_UNCORE_PERFEVTSEL_INV,
     .max = 1,
     .perf = "inv"},
    {.name = "c",
     .desc = "threshold (counter mask) [0-255]; 0 disables the comparison",
     .attr = NHM_UNC_ATTR_C,
     .field = NHM_UNCORE_PERFEVTSEL_CMASK,
     .max = 255,
     .perf = "cmask"},
    {.name = "o",
     .desc = "reset the queue occupancy counter when programmed",
     .attr = NHM_UNC_ATTR_O,
     .is_bool = 1,
     .field = NHM_UNCORE_PERFEVTSEL_OCC_CTR_RST,
     .max = 1},
};

static const struct uncore_box_type nhm_unc = {
    .name = "nhm_unc_guide",
    .kind = "unc",
    .manual = "SDM 3B 18.8.2; guide uncore tables",
    .desc = "Nehalem uncore: GQ, L3, QHL, QPI and IMC events of the socket",
    .platform = UNCORE_PLATFORM_NHM,
    .ninstances = 1,
    .perf_pmu = "uncore",
    .ngeneric = 8,
    .counter_width = 48,
    .nfixed = 1,
    .fixed_width = 48,
    .cntmsk_fixed = 1ULL << 32,
    .ctl = &nhm_evtsel,
    MODS(nhm_mods),
    FILTERS(nhm_filters),
    .routes = nhm_routes,
    .nroutes = LIBPFM_ARRAY_SIZE(nhm_routes),
    .flags = UNCORE_BOXF_UFILTER_VALUE,
    TABLE(intel_nhm_unc_iu_pe),
};

static const struct uncore_box_type *const nhm_boxes[] = {&nhm_unc};

const struct uncore_event_platform uncore_events_nhm = {
    .id = UNCORE_PLATFORM_NHM,
    .name = "nhm",
    .boxes = nhm_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(nhm_boxes),
};
