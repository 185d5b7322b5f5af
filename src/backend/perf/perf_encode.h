/* Our table encodings (events/encode.h: a control value and filter values
 * in the manual's register layout) as perf_event_attr config words for a
 * kernel PMU: each field of our registers is packed into the PMU's sysfs
 * format field of the same meaning, found by name (event, umask, edge,
 * inv, thresh, tid_en, filter_*, match*, mask*...), the names coming with
 * the box type's own fields (events/registry.h). */
#ifndef UNCORE_BACKEND_PERF_ENCODE_H
#define UNCORE_BACKEND_PERF_ENCODE_H

#include <stdint.h>

#include "backend/perf/perf_sysfs.h"
#include "events/registry.h"

/* What one counter of a box is programmed with, as the plan has it. */
struct uncore_perf_table_event {
	uint64_t ctl;           /* control value, enable bit clear */
	const uint64_t *filter; /* the box's merged filter values */
	const uint64_t *filter_mask; /* bits of them this event depends on (NULL: all) */
	unsigned nfilters;
	int fixed;     /* on the fixed / a free-running counter */
	uint32_t code; /* table code (fixed: the perf selector) */
};

/* Pack `ev` of box type `box` into cfg[0..2] through the formats of `pmu`.
 * 0, or UNCORE_ENOSUPP when a field the event needs has no kernel format
 * field (or one too narrow): the detail names the field and says to use
 * the direct backend. */
int uncore_perf_encode_table(const struct uncore_box_type *box, const struct uncore_perf_pmu *pmu,
			     const struct uncore_perf_table_event *ev,
			     uint64_t cfg[UNCORE_PERF_NCONFIG]);

/* Which kernel format field carries which of our bits: one row per kernel
 * field of a register, derived from the box type (its control layout, its
 * modifiers' and filter fields' kernel names, events/registry.h). */
struct uncore_perf_map_row {
	uint8_t reg;       /* UNCORE_REG_CTL or UNCORE_REG_FILTER(n) */
	uint64_t mask;     /* our bits (need not be contiguous) */
	const char *field; /* kernel format name; "a|b": the first one present */
	uint8_t one_bit;   /* the kernel field must be exactly one bit wide */
};
#define UNCORE_PERF_MAX_ROWS 32
/* The rows of box type `box` into rows[0..max): their number. */
unsigned uncore_perf_map_rows(const struct uncore_box_type *box, struct uncore_perf_map_row *rows,
			      unsigned max);

#endif
