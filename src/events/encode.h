/* Encoding of a parsed event into register values in the manual's layout of
 * its box: the counter control value (enable bit clear: the backend sets
 * it), the filter registers with the bits that matter to this event, and the
 * counters that may hold it.  Semantics of the table fields (ucode, DFL,
 * NCOMBO, groups, modhw, umodmsk_req, ufilters, CODE_OVERRIDE) are libpfm4's;
 * bit positions are the box descriptor's (events/registry.h). */
#ifndef UNCORE_EVENTS_ENCODE_H
#define UNCORE_EVENTS_ENCODE_H

#include "common/uncore_error.h"
#include "events/parse.h"
#include "events/registry.h"

#include <stdint.h>

struct uncore_encoding {
	uint64_t ctl; /* counter control value; for a fixed-counter event, its fixed control */
	uint64_t filter[UNCORE_MAX_FILTERS]; /* values of box->filters[n] */
	uint64_t
	    filter_mask[UNCORE_MAX_FILTERS]; /* bits of filter[n] the event depends on; 0: unused */
	uint64_t counters;   /* generic counters that may count it: bit i = counter i */
	uint32_t code;       /* event code after CODE_OVERRIDE (ev_sel, ev_sel_ext); for fixed
			      * events the table's code (0xff as perf knows it; the counter's
			      * offset and width for free-running counters) */
	uint8_t fixed;       /* counts on a fixed (or free-running) counter of the box */
	uint8_t fixed_index; /* which one: its position among the box's fixed counters */
	uint8_t freerun;     /* free-running counter: nothing to program (box flag FREERUN) */
	uint8_t nfilters;    /* box->nfilters */
	uint8_t occupancy;   /* PCU occupancy event (ev_sel[7]) */
};

/* Encode `ev`.  0, or the error uncore_event_parse would report for it.
 * `out` is written only on success. */
int uncore_event_encode(const struct uncore_event_ref *ev, struct uncore_encoding *out);

/* Whether two events' filters can share one box: every bit both depend on
 * has the same value.  1 or 0.  Inline: the scheduler asks it for every
 * event of every box it places (issue 25: no call back into this file per
 * event). */
static inline int uncore_filters_compatible(const struct uncore_encoding *a,
					    const struct uncore_encoding *b)
{
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
		if ((a->filter[n] ^ b->filter[n]) & a->filter_mask[n] & b->filter_mask[n])
			return 0;
	return 1;
}

/* UNCORE_ECONFLICT with the first filter register `acc` and `add` set
 * differently, and its bits, in the error detail (encode.c). */
int uncore_filters_conflict(const struct uncore_encoding *acc, const struct uncore_encoding *add);

/* Fold the filters of `add` into `acc` (the box's programmed filters so far).
 * 0, or UNCORE_ECONFLICT (acc unchanged) when they are not compatible. */
static inline int uncore_filters_merge(struct uncore_encoding *acc,
				       const struct uncore_encoding *add)
{
	if (!uncore_filters_compatible(acc, add))
		return uncore_filters_conflict(acc, add);
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++) {
		acc->filter[n] =
		    (acc->filter[n] & acc->filter_mask[n]) | (add->filter[n] & add->filter_mask[n]);
		acc->filter_mask[n] |= add->filter_mask[n];
	}
	return 0;
}

#endif
