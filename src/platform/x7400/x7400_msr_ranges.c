/* Xeon 7100 / 7400 EMON MSRs and their writable bits for the msr-safe
 * allowlist and the in-process MSR allowlist (platform/msr_ranges.h), from
 * SDM 18.21 (seeds 003/004) and 18.21.5 for MSR_EMON_L3_GL_CTL.  The two
 * processors share the registers; one table per platform name. */
#include "platform/msr_ranges.h"
#include "platform/x7400/x7400_regs.h"

/* clang-format off */
static const struct uncore_msr_range emon_ranges[] = {
	{.name = "MSR_EMON_L3_CTR_CTL{0-7}", .source = "SDM 18.21.1 (seed 004, 30.14.1)",
	 .base = X7400_MSR_EMON_L3_CTR_CTL0, .count = X7400_EMON_COUNTERS, .instances = 1,
	 .write_mask = X7400_CTR_CTL_RW},
	{.name = "MSR_EMON_L3_GL_CTL", .source = "SDM 18.21.5",
	 .base = X7400_MSR_EMON_L3_GL_CTL, .count = 1, .instances = 1,
	 .write_mask = X7400_GL_CTL_RW},
};
/* clang-format on */

const struct uncore_msr_table uncore_x7400_msr_table = {
    .platform = "x7400",
    .title = "Intel Xeon 7400 (Dunnington) L3/FSB EMON",
    .ranges = emon_ranges,
    .nranges = sizeof(emon_ranges) / sizeof(emon_ranges[0]),
};

const struct uncore_msr_table uncore_x7100_msr_table = {
    .platform = "x7100",
    .title = "Intel Xeon 7100 (Tulsa) L3/FSB EMON",
    .ranges = emon_ranges,
    .nranges = sizeof(emon_ranges) / sizeof(emon_ranges[0]),
};
