/* Haswell-EP's parts, for the generations that are its cousins (the same
 * boxes, registers and PCI functions under another CPUID, other device IDs
 * and other event tables: platform/bdx/bdx.c): a cousin names its
 * identification, its tables, its presets and its device IDs (pci_ids) and
 * takes UNCORE_HSWEP_PARTS (hswep.c defines them). */
#ifndef UNCORE_PLATFORM_HSWEP_HSWEP_H
#define UNCORE_PLATFORM_HSWEP_HSWEP_H

#include "platform/platform.h"

extern const struct uncore_msr_table uncore_hswep_msr_table; /* hswep_msr_ranges.c */
extern const struct direct_platform direct_platform_hswep;   /* backend/direct/desc_hswep.c */

int uncore_hswep_direct_open(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			     struct uncore_backend **out);

#define UNCORE_HSWEP_PARTS                                                                         \
	.msr_table = &uncore_hswep_msr_table, .access = UNCORE_ACCESS_MSR | UNCORE_ACCESS_PCI,     \
	.direct = &direct_platform_hswep, .direct_open = uncore_hswep_direct_open

#endif
