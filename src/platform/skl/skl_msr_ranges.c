/* Skylake client uncore MSRs and their writable bits for the msr-safe
 * allowlist and the in-process MSR allowlist (platform/msr_ranges.h), from the
 * field tables of seed 001 ("SKL"): every register of Table 2-1 with the
 * bits its field table marks RW or RW1C.  Addresses and masks are the
 * platform's own definitions (platform/skl/skl_regs.h). */
#include "platform/msr_ranges.h"
#include "platform/skl/skl_regs.h"

/* One register block per entry reads better than one field per line. */
/* clang-format off */
static const struct uncore_msr_range skl_ranges[] = {
	{.name = "MSR_UNC_PERF_GLOBAL_CTRL", .source = "SKL Table 2-2",
	 .base = SKL_MSR_UNC_PERF_GLOBAL_CTRL, .count = 1, .instances = 1,
	 .write_mask = SKL_UNC_GLOBAL_CTRL_KERNEL | SKL_UNC_GLOBAL_CTRL_WAKE_ON_PMI | SKL_UNC_GLOBAL_CTRL_FRZ_ON_PMI},
	{.name = "MSR_UNC_PERF_GLOBAL_STATUS", .source = "SKL Table 2-3",
	 .base = SKL_MSR_UNC_PERF_GLOBAL_STATUS, .count = 1, .instances = 1,
	 .write_mask = SKL_UNC_GLOBAL_STATUS_FIXED_CTR_OVF | SKL_UNC_GLOBAL_STATUS_ARB_CTR_OVF |
		       SKL_UNC_GLOBAL_STATUS_CBO_CTR_OVF},
	{.name = "MSR_UNC_PERF_FIXED_CTRL", .source = "SKL Table 2-4",
	 .base = SKL_MSR_UNC_PERF_FIXED_CTRL, .count = 1, .instances = 1,
	 .write_mask = SKL_UNC_FIXED_CTRL_CNT_EN | SKL_UNC_FIXED_CTRL_OVF_EN},
	{.name = "MSR_UNC_PERF_FIXED_CTR", .source = "SKL Table 2-5",
	 .base = SKL_MSR_UNC_PERF_FIXED_CTR, .count = 1, .instances = 1,
	 .write_mask = SKL_UNC_FIXED_CTR_CTR_VAL},
	{.name = "MSR_UNC_CBO_CONFIG (read-only)", .source = "SKL Table 2-6",
	 .base = SKL_MSR_UNC_CBO_CONFIG, .count = 1, .instances = 1, .write_mask = 0},
	{.name = "MSR_UNC_ARB_PERFCTR{0-1}", .source = "SKL Table 2-8",
	 .base = SKL_MSR_UNC_ARB_PERFCTR0, .count = 2, .instances = 1,
	 .write_mask = SKL_UNC_PERFCTR_CTR_VAL},
	{.name = "MSR_UNC_ARB_PERFEVTSEL{0-1}", .source = "SKL Table 2-7",
	 .base = SKL_MSR_UNC_ARB_PERFEVTSEL0, .count = 2, .instances = 1,
	 .write_mask = SKL_UNC_PERFEVTSEL_RW},
	{.name = "MSR_UNC_CBO_n_PERFEVTSEL{0-1}", .source = "SKL Table 2-7",
	 .base = SKL_MSR_UNC_CBO_0_PERFEVTSEL0, .stride = SKL_UNC_CBO_MSR_STRIDE, .count = 2,
	 .instances = SKL_UNC_CBO_MAX, .write_mask = SKL_UNC_PERFEVTSEL_RW},
	{.name = "MSR_UNC_CBO_n_PERFCTR{0-1}", .source = "SKL Table 2-8",
	 .base = SKL_MSR_UNC_CBO_0_PERFCTR0, .stride = SKL_UNC_CBO_MSR_STRIDE, .count = 2,
	 .instances = SKL_UNC_CBO_MAX, .write_mask = SKL_UNC_PERFCTR_CTR_VAL},
};
/* clang-format on */

const struct uncore_msr_table uncore_skl_msr_table = {
    .platform = "skl",
    .title = "6th generation Intel Core (Skylake client) uncore PMU",
    .ranges = skl_ranges,
    .nranges = sizeof(skl_ranges) / sizeof(skl_ranges[0]),
};
