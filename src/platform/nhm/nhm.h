/* Nehalem's parts, for the generations that are its cousins (the same
 * uncore PMU of MSRs, SDM Vol. 3B 18.8.2, under another CPUID and with
 * another event table: platform/wsm/wsm.c): a cousin names its
 * identification and its event tables, takes UNCORE_NHM_PARTS (registers,
 * MSR allowlist, direct engine) and states its presets with
 * UNCORE_NHM_PRESETS over its own box's events. */
#ifndef UNCORE_PLATFORM_NHM_NHM_H
#define UNCORE_PLATFORM_NHM_NHM_H

#include "platform/platform.h"

extern const struct uncore_msr_table uncore_nhm_msr_table; /* nhm_msr_ranges.c */
extern const struct direct_platform direct_platform_nhm;   /* backend/direct/desc_nhm.c */
int uncore_direct_open_msr(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

#define UNCORE_NHM_PARTS                                                                           \
	.msr_table = &uncore_nhm_msr_table, .access = UNCORE_ACCESS_MSR,                           \
	.direct = &direct_platform_nhm, .direct_open = uncore_direct_open_msr

/* The presets of Nehalem's uncore over box BOX, whose table names its
 * events as Nehalem's does (UNC_IMC_*, UNC_LLC_*): reads 64 bytes per
 * normal read of the memory controller, writes 64 per full-line write
 * (partial writes are not in it), L3 misses of reads and writes, the fixed
 * counter.  RD, WR, LLC and CLK cite, for each, the generation's manual. */
#define UNCORE_NHM_PRESETS(BOX, RD, WR, LLC, CLK)                                                  \
	{                                                                                          \
	    {.symbol = "PAPI_UNC_DRAM_RD_BYTES",                                                   \
	     .short_descr = "DRAM read bytes",                                                     \
	     .long_descr = "Bytes read from DRAM: 64 per normal read of the memory controller, "   \
			   "all channels (" RD ")",                                                \
	     .postfix = "N0|64|*|",                                                                \
	     .events = {BOX "::UNC_IMC_NORMAL_READS:ANY"}},                                        \
	    {.symbol = "PAPI_UNC_DRAM_WR_BYTES",                                                   \
	     .short_descr = "DRAM write bytes",                                                    \
	     .long_descr = "Bytes written to DRAM: 64 per full-line write of the memory "          \
			   "controller, all channels; partial writes are not counted (" WR ")",    \
	     .postfix = "N0|64|*|",                                                                \
	     .events = {BOX "::UNC_IMC_WRITES:FULL_ANY"}},                                         \
	    {.symbol = "PAPI_UNC_LLC_MISSES",                                                      \
	     .short_descr = "LLC misses",                                                          \
	     .long_descr = "L3 cache misses of reads and writes (" LLC ")",                        \
	     .events = {BOX "::UNC_LLC_MISS:ANY"}},                                                \
	    {.symbol = "PAPI_UNC_CLOCKTICKS",                                                      \
	     .short_descr = "Uncore clockticks",                                                   \
	     .long_descr = "Uncore clock cycles, the fixed counter (" CLK ")",                     \
	     .events = {BOX "::UNC_CLK_UNHALTED"}},                                                \
	}

#endif
