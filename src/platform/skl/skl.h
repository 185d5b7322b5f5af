/* Skylake client's parts, for the generations that are its cousins (the
 * same uncore under another CPUID: platform/kbl/kbl.c): a cousin names its
 * identification and takes UNCORE_SKL_CLIENT_PARTS (skl.c defines them). */
#ifndef UNCORE_PLATFORM_SKL_SKL_H
#define UNCORE_PLATFORM_SKL_SKL_H

#include <stdint.h>

#include "platform/platform.h"

extern const struct uncore_event_platform uncore_events_skl; /* events/registry_skl.c */
extern const struct uncore_msr_table uncore_skl_msr_table;   /* skl_msr_ranges.c */
extern const struct direct_platform direct_platform_skl;     /* backend/direct/desc_skl.c */
extern const struct uncore_preset_def uncore_skl_presets[];
#define UNCORE_SKL_NPRESETS 4

int uncore_skl_direct_open(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);
int uncore_skl_mmio_window(struct uncore_regio *pci, uint64_t *base, uint64_t *size);

#define UNCORE_SKL_CLIENT_PARTS                                                                    \
	.events = &uncore_events_skl, .msr_table = &uncore_skl_msr_table,                          \
	.access = UNCORE_ACCESS_MSR | UNCORE_ACCESS_PCI_MMIO, .direct = &direct_platform_skl,      \
	.direct_open = uncore_skl_direct_open, .mmio_window = uncore_skl_mmio_window,              \
	.presets = uncore_skl_presets, .npresets = UNCORE_SKL_NPRESETS

#endif
