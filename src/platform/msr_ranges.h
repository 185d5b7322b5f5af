/* The uncore MSRs of a platform with the bits software may write: the one
 * source for both the msr-safe allowlist file (utils/msr-safe-allowlist) and
 * the in-process write allowlist (access/allowlist.h) of the MSR backends.
 * A platform's table is static data (e.g. platform/hswep/hswep_msr_ranges.c). */
#ifndef UNCORE_PLATFORM_MSR_RANGES_H
#define UNCORE_PLATFORM_MSR_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "access/allowlist.h"

/* Registers base + stride * i + k, for instance i < instances and register
 * k < count, all with the same write mask. */
struct uncore_msr_range {
	const char *name;   /* the manual's name: "Cn_MSR_PMON_CTL{0-3}" */
	const char *source; /* where the mask comes from: "HSX PMON Table 2-16" */
	uint32_t base;      /* first MSR of instance 0 */
	uint16_t stride;    /* MSR distance between instances (0: one instance) */
	uint8_t count;      /* consecutive registers per instance */
	uint8_t instances;
	uint64_t write_mask; /* bits software may set; 0 = read-only */
};

struct uncore_msr_table {
	const char *platform; /* "hswep", as platform/cpu.h names it */
	const char *title;
	const struct uncore_msr_range *ranges;
	size_t nranges;
};

/* The platform tables (one data file each). */
extern const struct uncore_msr_table uncore_hswep_msr_table; /* platform/hswep/hswep_msr_ranges.c */
extern const struct uncore_msr_table uncore_skl_msr_table;   /* platform/skl/skl_msr_ranges.c */
extern const struct uncore_msr_table uncore_nhm_msr_table;   /* platform/nhm/nhm_msr_ranges.c */
extern const struct uncore_msr_table uncore_x7400_msr_table; /* platform/x7400/x7400_msr_ranges.c */
extern const struct uncore_msr_table uncore_x7100_msr_table; /* the same registers */

/* The table of a platform, or NULL when it has no uncore MSRs we know. */
const struct uncore_msr_table *uncore_msr_table_for(const char *platform);

/* Every platform table (for listings and validator tests). */
const struct uncore_msr_table *const *uncore_msr_tables(size_t *n);

/* Number of MSRs a table expands to. */
size_t uncore_msr_table_count(const struct uncore_msr_table *t);

/* The i-th MSR of the expansion, in table order: 0 with *msr, *mask and
 * *range set, or UNCORE_ERANGE past the end. */
int uncore_msr_table_get(const struct uncore_msr_table *t, size_t i, uint32_t *msr, uint64_t *mask,
			 const struct uncore_msr_range **range);

/* Check a table: no MSR listed twice (msr-safe rejects a list with
 * duplicates), counts and instances nonzero, a stride with more than one
 * instance and no instance overlapping the next.  0 or UNCORE_EINVAL with
 * the offending entries named. */
int uncore_msr_table_check(const struct uncore_msr_table *t);

/* The msr-safe allowlist text of a table: comment lines starting with '#',
 * then one "0xMSR 0xWRITEMASK # name" line per MSR, sorted by MSR.  Like
 * snprintf: writes at most len bytes (NUL-terminated) and returns the
 * length the whole text needs, or a negative code. */
int uncore_msr_allowlist_text(const struct uncore_msr_table *t, char *buf, size_t len);

/* Add a table's MSRs on `socket` (or UNCORE_ALLOWLIST_ANY_UNIT) to an
 * in-process write allowlist. */
int uncore_allowlist_add_msr_table(struct uncore_allowlist *al, const struct uncore_msr_table *t,
				   uint32_t socket);

#endif
