/* The Nehalem (Core i7 / Xeon 5500) uncore PMU for the direct engine
 * (engine.h): eight general counters with their event selects, the fixed
 * UCLK counter, and the two match registers of the guide, one set per
 * package (registers in platform/nhm/nhm_regs.h).  SDM 18.8.2: "Each uncore
 * counter must be locally configured using the corresponding
 * MSR_UNCORE_PerfEvtSelx and counting must be enabled using the respective
 * EN_PCx bit in MSR_UNCORE_PERF_GLOBAL_CTRL": the controls are written with
 * EN while the global control is 0, the counters zeroed, then one global
 * write with the EN_PCx / EN_FC0 bits of the planned counters starts them.
 *
 * Rate ceiling: 48-bit counters; queue occupancies add up to the tracker
 * depth per cycle (the GQ read tracker has 32 entries, guide "The Global
 * Queue"); 64 per UCLK at 4 GHz, 2.56e11/s, bounds every event: a wrap
 * after 1,100 s at the earliest. */
#include "backend/direct/engine.h"

#include "platform/nhm/nhm_regs.h"

static const uint32_t nhm_filter_msr[] = {NHM_MSR_UNCORE_ADDR_OPCODE_MATCH,
					  NHM_MSR_UNCORE_GQ_SNOOP_MESF};
static const uint64_t nhm_filter_writable[] = {NHM_MATCH_RW, NHM_GQ_SNOOP_MESF_RW};

static const struct direct_kind nhm_kinds[] = {
    {.kind = "unc",
     .title = "Nehalem uncore PMU",
     .section = "SDM 18.8.2",
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .ncounters = NHM_UNCORE_COUNTERS,
     .width = NHM_UNCORE_WIDTH,
     .gbit = 0, /* EN_PCn = bit n */
     .ctl_base = NHM_MSR_UNCORE_PERFEVTSEL0,
     .ctr_base = NHM_MSR_UNCORE_PMC0,
     /* No PMI bit: counters are polled. */
     .ctl_writable = NHM_EVTSEL_RW & ~NHM_EVTSEL_PMI,
     .ctl_enable = NHM_EVTSEL_EN,
     .ctr_writable = NHM_CTR_VAL,
     .nfixed = 1,
     .fixed_gbit = 32, /* EN_FC0 */
     .fixed_ctl = NHM_MSR_UNCORE_FIXED_CTR_CTRL,
     .fixed_ctr = NHM_MSR_UNCORE_FIXED_CTR0,
     .fixed_ctl_writable = NHM_FIXED_CTRL_EN,
     .fixed_ctl_enable = NHM_FIXED_CTRL_EN,
     .nfilters = 2,
     .filter_msr = nhm_filter_msr,
     .filter_writable = nhm_filter_writable,
     .max_rate = UINT64_C(256000000000)},
};

const struct direct_platform direct_platform_nhm = {
    .title = "Nehalem uncore",
    .kinds = nhm_kinds,
    .nkinds = sizeof(nhm_kinds) / sizeof(nhm_kinds[0]),
    .global_msr = NHM_MSR_UNCORE_PERF_GLOBAL_CTRL,
    .global_writable = NHM_GLOBAL_CTRL_EN_PC_ALL | NHM_GLOBAL_CTRL_EN_FC0,
    .used_mask = NHM_GLOBAL_CTRL_EN_PC_ALL | NHM_GLOBAL_CTRL_EN_FC0, /* EN_PCn, EN_FC0 */
};
