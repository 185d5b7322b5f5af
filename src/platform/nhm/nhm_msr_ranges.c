/* Nehalem uncore MSRs and their writable bits for the msr-safe allowlist and
 * the in-process MSR allowlist (platform/msr_ranges.h), from SDM 18.8.2
 * (Figures 18-29 to 18-33) and the guide's tables 28 and 37 (seed 002).
 * Addresses and masks: platform/nhm/nhm_regs.h. */
#include "platform/msr_ranges.h"
#include "platform/nhm/nhm_regs.h"

/* clang-format off */
static const struct uncore_msr_range nhm_ranges[] = {
	{.name = "MSR_UNCORE_PERF_GLOBAL_CTRL", .source = "SDM 18.8.2 Figure 18-29",
	 .base = NHM_MSR_UNCORE_PERF_GLOBAL_CTRL, .count = 1, .instances = 1,
	 .write_mask = NHM_GLOBAL_CTRL_RW},
	{.name = "MSR_UNCORE_PERF_GLOBAL_STATUS (read-only)", .source = "SDM 18.8.2 Figure 18-30",
	 .base = NHM_MSR_UNCORE_PERF_GLOBAL_STATUS, .count = 1, .instances = 1, .write_mask = 0},
	{.name = "MSR_UNCORE_PERF_GLOBAL_OVF_CTRL", .source = "SDM 18.8.2 Figure 18-31",
	 .base = NHM_MSR_UNCORE_PERF_GLOBAL_OVF_CTRL, .count = 1, .instances = 1,
	 .write_mask = NHM_GLOBAL_OVF_CTRL_RW},
	{.name = "MSR_UNCORE_FIXED_CTR0", .source = "SDM 18.8.2",
	 .base = NHM_MSR_UNCORE_FIXED_CTR0, .count = 1, .instances = 1, .write_mask = NHM_CTR_VAL},
	{.name = "MSR_UNCORE_FIXED_CTR_CTRL", .source = "SDM 18.8.2 Figure 18-33",
	 .base = NHM_MSR_UNCORE_FIXED_CTR_CTRL, .count = 1, .instances = 1,
	 .write_mask = NHM_FIXED_CTRL_RW},
	{.name = "MSR_UNCORE_ADDR_OPCODE_MATCH", .source = "NHM guide table 37",
	 .base = NHM_MSR_UNCORE_ADDR_OPCODE_MATCH, .count = 1, .instances = 1,
	 .write_mask = NHM_MATCH_RW},
	{.name = "MSR 301h (GQ snoop response state)", .source = "NHM guide table 28",
	 .base = NHM_MSR_UNCORE_GQ_SNOOP_MESF, .count = 1, .instances = 1,
	 .write_mask = NHM_GQ_SNOOP_MESF_RW},
	{.name = "MSR_UNCORE_PMC{0-7}", .source = "SDM 18.8.2",
	 .base = NHM_MSR_UNCORE_PMC0, .count = NHM_UNCORE_COUNTERS, .instances = 1,
	 .write_mask = NHM_CTR_VAL},
	{.name = "MSR_UNCORE_PERFEVTSEL{0-7}", .source = "SDM 18.8.2 Figure 18-32",
	 .base = NHM_MSR_UNCORE_PERFEVTSEL0, .count = NHM_UNCORE_COUNTERS, .instances = 1,
	 .write_mask = NHM_EVTSEL_RW},
};
/* clang-format on */

const struct uncore_msr_table uncore_nhm_msr_table = {
    .platform = "nhm",
    .title = "Intel Core i7 / Xeon 5500 (Nehalem) uncore PMU",
    .ranges = nhm_ranges,
    .nranges = sizeof(nhm_ranges) / sizeof(nhm_ranges[0]),
};
