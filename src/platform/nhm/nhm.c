/* Nehalem (Core i7 / Xeon 5500) as one object: identification (SDM Vol. 4
 * table 2-1: 06_1AH, 06_1EH; not 06_1FH, N1; 06_2EH is Nehalem-EX, a
 * different uncore, not this one) and its parts in each layer: an uncore of MSRs
 * only (SDM 18.8.2). */
#include "platform/platform.h"

extern const struct uncore_event_platform uncore_events_nhm; /* events/registry_nhm.c */
extern const struct uncore_msr_table uncore_nhm_msr_table;   /* nhm_msr_ranges.c */
extern const struct direct_platform direct_platform_nhm;     /* backend/direct/desc_nhm.c */
int uncore_direct_open_msr(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

static const unsigned models[] = {0x1a, 0x1e, 0};
/* 06_1FH (Auburndale/Havendale) is in the SDM's list but not here: the
 * kernel has no uncore PMU for it and no such part was sold
 * (HARDWARE-DECISIONS.md N1). */
static const unsigned not_models[] = {0x1f, 0};

/* Presets (NHM guide: seed 002), section "Integrated Memory Controller":
 * "Read Bandwidth = 64*UNC_IMC_NORMAL_READS...", "Write Bandwidth =
 * 64*UNC_IMC_WRITES.FULL..." (full-line writes; partial writes are not in
 * it), all channels with the ANY unit masks (table 32); L3 misses
 * UNC_LLC_MISS.ANY (table 29); uncore cycles the fixed counter
 * UNC_CLK_UNHALTED. */
/* clang-format off */
static const struct uncore_preset_def presets[] = {
	{.symbol = "PAPI_UNC_DRAM_RD_BYTES",
	 .short_descr = "DRAM read bytes",
	 .long_descr = "Bytes read from DRAM: 64 per normal read of the memory controller, all channels (NHM guide, IMC Read Bandwidth, UNC_IMC_NORMAL_READS.ANY)",
	 .postfix = "N0|64|*|",
	 .events = {"nhm_unc_guide::UNC_IMC_NORMAL_READS:ANY"}},
	{.symbol = "PAPI_UNC_DRAM_WR_BYTES",
	 .short_descr = "DRAM write bytes",
	 .long_descr = "Bytes written to DRAM: 64 per full-line write of the memory controller, all channels; partial writes are not counted (NHM guide, IMC Write Bandwidth, UNC_IMC_WRITES.FULL.ANY)",
	 .postfix = "N0|64|*|",
	 .events = {"nhm_unc_guide::UNC_IMC_WRITES:FULL_ANY"}},
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "LLC misses",
	 .long_descr = "L3 cache misses of reads and writes (NHM guide table 29, UNC_LLC_MISS.ANY: umask 03h, READ and WRITE; peer probes are not in it)",
	 .events = {"nhm_unc_guide::UNC_LLC_MISS:ANY"}},
	{.symbol = "PAPI_UNC_CLOCKTICKS",
	 .short_descr = "Uncore clockticks",
	 .long_descr = "Uncore clock cycles, the fixed counter (NHM guide, UNC_CLK_UNHALTED)",
	 .events = {"nhm_unc_guide::UNC_CLK_UNHALTED"}},
};
/* clang-format on */

const struct uncore_platform uncore_platform_nhm = {
    .id = UNCORE_PLATFORM_NHM,
    .name = "nhm",
    .title = "Intel Core i7 / Xeon 5500 (Nehalem)",
    .family = 6,
    .models = models,
    .not_models = not_models,
    .not_why = "; model 0x1f (Nehalem Auburndale/Havendale) is not supported: Linux has no "
	       "uncore PMU for it and no such part was sold",
    .events = &uncore_events_nhm,
    .msr_table = &uncore_nhm_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_nhm,
    .direct_open = uncore_direct_open_msr,
    .presets = presets,
    .npresets = sizeof(presets) / sizeof(presets[0]),
    .sim_model = "x5570-2s",
};
