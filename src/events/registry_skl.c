/* Skylake client (6th generation Core) box types: CBo slices, ARB, the fixed
 * UCLK counter and the IMC free-running counters, with the layouts of the
 * 6th Generation Intel Core Uncore PMU Reference Manual (seeds/001, "SKL"
 * below) and the tables of libpfm4-events/events/intel_skl_unc_iu_events.h
 * (conventions: libpfm4-events/README.client.md). */
#include "events/table.h"

#include "events/intel_skl_unc_iu_events.h"
#include "platform/skl/skl_regs.h"

#define TABLE(t) .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)
#define MODS(m)  .mods = (m), .nmods = LIBPFM_ARRAY_SIZE(m)

static const struct uncore_ctl_layout skl_evtsel = {
    .name = "MSR_UNC_CBO_x_PERFEVTSELy",
    .ev_sel = SKL_UNC_PERFEVTSEL_EVT_SEL,
    .umask = SKL_UNC_PERFEVTSEL_UMASK,
    .en = SKL_UNC_PERFEVTSEL_EN,
    .writable = SKL_UNC_PERFEVTSEL_EVT_SEL | SKL_UNC_PERFEVTSEL_UMASK | SKL_UNC_PERFEVTSEL_E |
		SKL_UNC_PERFEVTSEL_INV | SKL_UNC_PERFEVTSEL_THR,
};

static const struct uncore_ctl_layout skl_fixed_ctrl = {
    .name = "MSR_UNC_PERF_FIXED_CTRL",
    .ev_sel = SKL_UNC_PERFEVTSEL_EVT_SEL, /* none in hardware; the table's 0xff is perf's */
    .en = SKL_UNC_FIXED_CTRL_CNT_EN,
};

/* SKL 3.3: free-running MMIO counters; nothing to program. */
static const struct uncore_ctl_layout skl_imc_none = {
    .name = "(free-running)",
};

/* SKL table 2-7: THR is 5 bits; edge and invert as in the core PMU. */
static const struct uncore_mod_desc skl_mods[] = {
    {.name = "e",
     .desc = "edge detect: count occurrences, not cycles",
     .attr = NHM_UNC_ATTR_E,
     .is_bool = 1,
     .field = SKL_UNC_PERFEVTSEL_E,
     .max = 1,
     .perf = "edge"},
    {.name = "i",
     .desc = "invert: count when the increment is below the threshold",
     .attr = NHM_UNC_ATTR_I,
     .is_bool = 1,
     .field = SKL_UNC_PERFEVTSEL_INV,
     .max = 1,
     .perf = "inv"},
    {.name = "c",
     .desc = "threshold (THR) [0-31]; 0 disables the comparison",
     .attr = NHM_UNC_ATTR_C,
     .field = SKL_UNC_PERFEVTSEL_THR,
     .max = 31,
     .perf = "cmask"},
};

/* SKL table 1-2: CBo and ARB counters are 44 bits, the fixed counter 48,
 * the IMC counters 32. */
static const struct uncore_box_type skl_cbo = {
    .name = "skl_unc_cbo",
    .kind = "cbo",
    .manual = "SKL 2.4, 3.1",
    .desc = "CBo: LLC slice / caching agent",
    .ninstances = 4,
    .perf_pmu = "uncore_cbox",
    .ngeneric = 2,
    .counter_width = 44,
    .ctl = &skl_evtsel,
    MODS(skl_mods),
    TABLE(intel_skl_unc_iu_cbo_pe),
};

static const struct uncore_box_type skl_arb = {
    .name = "skl_unc_arb",
    .kind = "arb",
    .manual = "SKL 2.4, 3.2",
    .desc = "ARB: arbitration unit (memory request tracker)",
    .ninstances = 1,
    .perf_pmu = "uncore_arb",
    .ngeneric = 2,
    .counter_width = 44,
    .ctl = &skl_evtsel,
    MODS(skl_mods),
    TABLE(intel_skl_unc_iu_arb_pe),
};

/* Linux gives the fixed UCLK counter to uncore_cbox_0 (event 0xff). */
static const struct uncore_box_type skl_clock = {
    .name = "skl_unc_clock",
    .kind = "clock",
    .manual = "SKL 2.3",
    .desc = "Fixed uncore clock (UCLK) counter",
    .ninstances = 1,
    .perf_pmu = "uncore_cbox_0",
    .nfixed = 1,
    .fixed_width = 48,
    .cntmsk_fixed = 1ULL << 32,
    .ctl = &skl_fixed_ctrl,
    TABLE(intel_skl_unc_iu_clock_pe),
};

/* Five counters: cntmsk bits 32-36; code = width << 16 | offset from the BAR. */
/* Skylake client IMC free-running counters: the kernel names them by a
 * small event number (uncore_snb.c: data_reads=1 ... io_requests=5); our
 * table code is width << 16 | MMIO offset (SKL 3.3). */
static const struct uncore_freerun_kernel skl_imc_freerun[] = {
    {SKL_IMC_DRAM_DATA_READS, 0x01},  {SKL_IMC_DRAM_DATA_WRITES, 0x02},
    {SKL_IMC_DRAM_GT_REQUESTS, 0x03}, {SKL_IMC_DRAM_IA_REQUESTS, 0x04},
    {SKL_IMC_DRAM_IO_REQUESTS, 0x05},
};

static const struct uncore_box_type skl_imc = {
    .name = "skl_unc_imc",
    .kind = "imc",
    .manual = "SKL 3.3",
    .desc = "IMC: memory controller free-running request counters (MMIO)",
    .ninstances = 1,
    .perf_pmu = "uncore_imc",
    .nfixed = 5,
    .fixed_width = 32,
    .cntmsk_fixed = 0x1fULL << 32,
    .ctl = &skl_imc_none,
    .flags = UNCORE_BOXF_FREERUN,
    TABLE(intel_skl_unc_iu_imc_pe),
    .kernel_freerun = skl_imc_freerun,
    .nkernel_freerun = LIBPFM_ARRAY_SIZE(skl_imc_freerun),
};

static const struct uncore_box_type *const skl_boxes[] = {
    &skl_cbo,
    &skl_arb,
    &skl_clock,
    &skl_imc,
};

const struct uncore_event_platform uncore_events_skl = {
    .platform = &uncore_platform_skl,
    .name = "skl",
    .boxes = skl_boxes,
    .nboxes = LIBPFM_ARRAY_SIZE(skl_boxes),
};
