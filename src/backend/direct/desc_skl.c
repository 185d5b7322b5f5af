/* The Skylake client uncore for the direct engine (engine.h): CBo and ARB
 * counters and the fixed UCLK counter through MSRs, the IMC free-running
 * counters through MMIO (seed 001, "SKL"; registers in
 * platform/skl/skl_regs.h).  The manual gives registers, not a recipe; the
 * global EN bit (2.2.1: "Globally enable all PMU counters.  Counters must
 * also be locally programmed and enabled") holds every counter while they
 * are programmed and zeroed and starts them with one write.
 *
 * Rate ceilings (max_rate), which the manual does not give; they are design
 * bounds chosen to be safe, not measurements:
 *  - IMC: each count is one request / 64-byte transfer summed over channels
 *    (Table 3-3).  The fastest memory the S-platform parts support is two
 *    DDR4-2133 channels, 34.1 GB/s (Intel ARK, "Max Memory Bandwidth", e.g.
 *    Core i7-6700K), i.e. 533 million 64-byte transfers per second.  We
 *    allow twice that and more, 1.1e9/s (overclocked DDR4 to ~4300 MT/s;
 *    request counters that count partial writes one by one): a 32-bit
 *    counter then wraps after 2^32 / 1.1e9 = 3.9 s at the earliest.
 *  - CBo / ARB: events tick with UCLK; occupancy events add the number of
 *    valid tracker entries each cycle.  Bound: 64 per cycle at 5 GHz,
 *    3.2e11/s: a 44-bit counter wraps after 55 s at the earliest.
 *  - Fixed counter: one per UCLK cycle, at most 5 GHz: 48 bits last 15.6 h. */
#include "backend/direct/engine.h"

#include "common/uncore_error.h"
#include "platform/skl/skl_regs.h"

/* SKL Table 3-3, in the order of the event table's counter bits 32..36
 * (DRAM_GT_REQUESTS .. DRAM_DATA_WRITES, libpfm4-events/README.client.md). */
static const uint16_t skl_imc_offsets[SKL_IMC_COUNTERS] = {
    SKL_IMC_DRAM_GT_REQUESTS, SKL_IMC_DRAM_IA_REQUESTS, SKL_IMC_DRAM_IO_REQUESTS,
    SKL_IMC_DRAM_DATA_READS,  SKL_IMC_DRAM_DATA_WRITES,
};

static const struct direct_kind skl_kinds[] = {
    {.kind = "cbo",
     .title = "C-Box (LLC slice)",
     .section = "SKL 2.4",
     .space = UNCORE_SPACE_MSR,
     .max_instances = SKL_UNC_CBO_MAX,
     .ncounters = SKL_UNC_COUNTERS_PER_UNIT,
     .width = SKL_UNC_PERFCTR_WIDTH,
     .ctl_base = SKL_MSR_UNC_CBO_0_PERFEVTSEL0,
     .ctr_base = SKL_MSR_UNC_CBO_0_PERFCTR0,
     .stride = SKL_UNC_CBO_MSR_STRIDE,
     .ctl_writable = SKL_UNC_PERFEVTSEL_RW,
     .ctl_enable = SKL_UNC_PERFEVTSEL_EN,
     .ctr_writable = SKL_UNC_PERFCTR_CTR_VAL,
     .max_rate = UINT64_C(320000000000)},
    {.kind = "arb",
     .title = "ARB (arbitration unit)",
     .section = "SKL 2.4",
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .ncounters = SKL_UNC_COUNTERS_PER_UNIT,
     .width = SKL_UNC_PERFCTR_WIDTH,
     .ctl_base = SKL_MSR_UNC_ARB_PERFEVTSEL0,
     .ctr_base = SKL_MSR_UNC_ARB_PERFCTR0,
     .ctl_writable = SKL_UNC_PERFEVTSEL_RW,
     .ctl_enable = SKL_UNC_PERFEVTSEL_EN,
     .ctr_writable = SKL_UNC_PERFCTR_CTR_VAL,
     .max_rate = UINT64_C(320000000000)},
    {.kind = "clock",
     .title = "fixed UCLK counter",
     .section = "SKL 2.3",
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .ncounters = 1,
     .width = SKL_UNC_FIXED_CTR_WIDTH,
     .fixed = 1,
     .ctl_base = SKL_MSR_UNC_PERF_FIXED_CTRL,
     .ctr_base = SKL_MSR_UNC_PERF_FIXED_CTR,
     .ctl_writable = SKL_UNC_FIXED_CTRL_CNT_EN | SKL_UNC_FIXED_CTRL_OVF_EN,
     .ctl_enable = SKL_UNC_FIXED_CTRL_CNT_EN,
     .ctr_writable = SKL_UNC_FIXED_CTR_CTR_VAL,
     .max_rate = UINT64_C(5000000000)},
    {.kind = "imc",
     .title = "IMC free-running request counters",
     .section = "SKL 3.3",
     .space = UNCORE_SPACE_MMIO,
     .max_instances = 1,
     .ncounters = SKL_IMC_COUNTERS,
     .width = SKL_IMC_COUNTER_WIDTH,
     .fixed = 1,
     .freerun = 1,
     .mmio_offsets = skl_imc_offsets,
     .max_rate = UINT64_C(1100000000)},
};

const struct direct_platform direct_platform_skl = {
    .title = "Skylake client uncore",
    .kinds = skl_kinds,
    .nkinds = sizeof(skl_kinds) / sizeof(skl_kinds[0]),
    .global_msr = SKL_MSR_UNC_PERF_GLOBAL_CTRL,
    /* Counting: the value Linux writes, EN with bits 4:0, which may gate
     * the slices (skl_regs.h; platform/skl/HARDWARE-DECISIONS.md S1); held: 0, as the
     * kernel's exit_box writes.  No PMI: counters are polled. */
    .global_writable = SKL_UNC_GLOBAL_CTRL_KERNEL,
    .counting = SKL_UNC_GLOBAL_CTRL_KERNEL,
};

int uncore_direct_create_skl(const struct uncore_direct_config *cfg,
			     const struct uncore_machine *machine, uint64_t mchbar,
			     struct uncore_backend **out)
{
	if (machine && machine->nsockets != 1)
		return uncore_fail(
		    UNCORE_EINVAL,
		    "Skylake client direct backend: a machine with %u sockets (want 1)",
		    machine->nsockets);
	return direct_engine_create(&direct_platform_skl, cfg, machine, mchbar, out);
}
