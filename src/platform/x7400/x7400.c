/* Xeon 7400 (Dunnington, 06_1DH) and Xeon 7100 (Tulsa, NetBurst family 0xF
 * model 6), SDM Vol. 3B 18.21: the same L3/FSB EMON registers, each with
 * its own event tables.  MSRs only. */
#include "platform/platform.h"

extern const struct uncore_event_platform uncore_events_x7400, uncore_events_x7100;
extern const struct uncore_msr_table uncore_x7400_msr_table, uncore_x7100_msr_table;
extern const struct direct_platform direct_platform_x7400; /* backend/direct/desc_x7400.c */
int uncore_direct_open_msr(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

static const unsigned x7400_models[] = {0x1d, 0};
static const unsigned x7100_models[] = {0x06, 0};

/* Presets: L3 misses only.  A GBSQ transaction whose Fill_Eviction
 * attribute is 01B "fills L3" (SDM 18.21.2): the line was not in the L3.
 * The others are absent, not zero: the memory controller is in the
 * chipset, so the package sees no DRAM traffic; the EMON counts no clock;
 * and the SDM documents neither the FSB_type transaction types nor a byte
 * count per DRDY assertion (18.21.4.1), so FSB bytes cannot be computed. */
/* clang-format off */
static const struct uncore_preset_def x7400_presets[] = {
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "L3 misses (fills)",
	 .long_descr = "GBSQ transactions that fill the L3, i.e. missed it, of every agent (SDM 18.21.2 Fill_Eviction 01B)",
	 .events = {"x7400_unc_gbsq::GBSQ_TRANSACTIONS:FILL"}},
};
static const struct uncore_preset_def x7100_presets[] = {
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "L3 misses (fills)",
	 .long_descr = "GBSQ transactions that fill the L3, i.e. missed it, of every agent (SDM 18.21.2 Fill_Eviction 01B)",
	 .events = {"x7100_unc_gbsq::GBSQ_TRANSACTIONS:FILL"}},
};
/* clang-format on */

/* The first-machine checklist's facts (platform.h): no clock event in the
 * EMON facility (SDM 18.21), transactions only, so no clock and no DRAM
 * step; no kernel driver exists for it (direct backend only); the freeze
 * and reset commands of MSR_EMON_L3_GL_CTL (emon_gl_commands, 18.21.5).
 * The Xeon 7100's differ in its box names only. */
static const struct uncore_platform_kit x7400_kit = {
    UNCORE_KIT("x7400-stream",
	       "direct",
	       UNCORE_KIT_NO,
	       "",
	       "",
	       "",
	       "",
	       "x7400_unc_gbsq::GBSQ_TRANSACTIONS x7400_unc_gsnpq::GSNPQ_TRANSACTIONS "
	       "x7400_unc_fsb::FSB_TYPE",
	       "emon_gl_commands"),
};
static const struct uncore_platform_kit x7100_kit = {
    .box_events = "x7100_unc_gbsq::GBSQ_TRANSACTIONS x7100_unc_gsnpq::GSNPQ_TRANSACTIONS "
		  "x7100_unc_fsb::FSB_TYPE",
};

const struct uncore_platform uncore_platform_x7400 = {
    .id = UNCORE_PLATFORM_X7400,
    .name = "x7400",
    .title = "Intel Xeon 7400 (Dunnington)",
    .family = 6,
    .models = x7400_models,
    .events = &uncore_events_x7400,
    .msr_table = &uncore_x7400_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_x7400,
    .direct_open = uncore_direct_open_msr,
    .presets = x7400_presets,
    .npresets = sizeof(x7400_presets) / sizeof(x7400_presets[0]),
    .sim_model = "x7460-4s",
    .kit = &x7400_kit,
};

const struct uncore_platform uncore_platform_x7100 = {
    .id = UNCORE_PLATFORM_X7400,
    .name = "x7100",
    .title = "Intel Xeon 7100 (Tulsa)",
    .family = 0xf,
    .models = x7100_models,
    /* Family 0xF model 6 is also the Pentium D 9xx and Pentium 4 6x1, which
     * have no L3 and no L3 EMON: only a part with an L3 is a Xeon 7100
     * (HARDWARE-DECISIONS.md X1). */
    .needs_l3 = 1,
    .not_why = "; family 0xF model 6 without an L3 cache (CPUID leaves 4 and 2) is a "
	       "Pentium D or Pentium 4, which has no L3 EMON: only a Xeon 7100 is counted",
    .events = &uncore_events_x7100,
    .msr_table = &uncore_x7100_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_x7400,
    .direct_open = uncore_direct_open_msr,
    .presets = x7100_presets,
    .npresets = sizeof(x7100_presets) / sizeof(x7100_presets[0]),
    .sim_model = "x7140m-4s",
    .kit = &x7100_kit,
};
