/* Nehalem (Core i7 / Xeon 5500) as one object: identification (SDM Vol. 4
 * table 2-1: 06_1AH, 06_1EH; not 06_1FH, N1; 06_2EH is Nehalem-EX, a
 * different uncore, not this one) and its parts in each layer: an uncore of MSRs
 * only (SDM 18.8.2). */
#include "platform/nhm/nhm.h"

extern const struct uncore_event_platform uncore_events_nhm; /* events/registry_nhm.c */

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
static const struct uncore_preset_def presets[] =
    UNCORE_NHM_PRESETS("nhm_unc_guide", "NHM guide, IMC Read Bandwidth, UNC_IMC_NORMAL_READS.ANY",
		       "NHM guide, IMC Write Bandwidth, UNC_IMC_WRITES.FULL.ANY",
		       "NHM guide table 29, UNC_LLC_MISS.ANY: umask 03h, READ and WRITE; peer "
		       "probes are not in it",
		       "NHM guide, UNC_CLK_UNHALTED");

/* The first-machine checklist's facts (platform.h), Westmere's too: its
 * one box's clock and reads, from its presets (a cousin's own box); the
 * kernel names no DRAM event; MSR 396h (addr_opcode_match, SDM 18.8.2).
 * The simulated kernel does not model its PMU. */
static const struct uncore_platform_kit kit = {
    UNCORE_KIT("nhm-stream",
	       "perf direct",
	       UNCORE_KIT_NO,
	       "PAPI_UNC_CLOCKTICKS:socket=0",
	       "",
	       "PAPI_UNC_DRAM_RD_BYTES",
	       "",
	       "PAPI_UNC_CLOCKTICKS",
	       "addr_opcode_match"),
};

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
    UNCORE_NHM_PARTS,
    .presets = presets,
    .npresets = sizeof(presets) / sizeof(presets[0]),
    .sim_model = "x5570-2s",
    .kit = &kit,
};
