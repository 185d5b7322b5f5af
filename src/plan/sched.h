/* Counter scheduling: place every event of a set on counters of every box
 * instance it counts on.  An event that names no instance counts on all
 * present instances of its box type (and, without :socket=, on all sockets)
 * and its value is their sum.  Per box instance, events get counters their
 * table allows (bipartite matching), fixed-counter events their fixed counter
 * (a box may have several: the Skylake client IMC's free-running ones),
 * identical encodings share one counter, and events that use the box's
 * filter registers are merged when the bits they depend on agree.  When
 * something cannot be placed, the detail names the events and the reason:
 * counter restriction, filter conflict or box full. */
#ifndef UNCORE_PLAN_SCHED_H
#define UNCORE_PLAN_SCHED_H

#include <stdint.h>

#include "plan/machine.h"
#include "events/encode.h"
#include "events/parse.h"

#define UNCORE_SLOT_FIXED 0xffu /* slot counter index of a fixed (or free-running) counter */

/* One event to place: what the user asked for and how it encodes. */
struct uncore_sched_event {
	const char *name; /* for messages */
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
};

/* One counter of one box instance, holding one encoding. */
struct uncore_slot {
	uint16_t socket;
	uint8_t box;      /* index in machine->plat->boxes */
	uint8_t instance;
	uint8_t counter;  /* generic counter index, or UNCORE_SLOT_FIXED */
	uint8_t fixed_index; /* UNCORE_SLOT_FIXED: which fixed counter of the box (encode.h) */
	uint8_t width;    /* counter width in bits */
	uint16_t max_inc; /* most the event adds per cycle of the box's clock; 0: unknown */
	uint16_t boxprog; /* index of its box instance in plan->boxes */
	uint64_t ctl;     /* control value (enable bit clear) */
	uint32_t code;    /* the encoding's code (fixed counters: which one, as perf names it) */
	/* Bits of the box's filters this event depends on (its encoding's
	 * filter_mask): the perf backend checks them against what the
	 * kernel programs for the event. */
	uint64_t filter_mask[UNCORE_MAX_FILTERS];
};

/* What one box instance is programmed with. */
struct uncore_boxprog {
	uint16_t socket;
	uint8_t box;
	uint8_t instance;
	uint8_t nfilters;
	uint8_t counters_used; /* bit i: generic counter i */
	uint8_t fixed_used; /* bit i: fixed (or free-running) counter i */
	uint64_t filter[UNCORE_MAX_FILTERS];
	uint64_t filter_mask[UNCORE_MAX_FILTERS]; /* bits some event depends on */
};

struct uncore_plan {
	unsigned nslots, nboxes, nevents;
	struct uncore_slot *slots;
	struct uncore_boxprog *boxes;
	/* Slots of event e: slot_index[first[e] .. first[e] + count[e]) */
	unsigned *first, *count, *slot_index;
};

/* Place `n` events on machine `m`.  0 and a plan to release with
 * uncore_plan_free(), or UNCORE_ECONFLICT (cannot be placed: the detail
 * names the events and the reason), UNCORE_ENODEV (the event names a
 * socket or box instance this machine lacks), UNCORE_ENOMEM. */
int uncore_schedule(const struct uncore_machine *m, const struct uncore_sched_event *ev,
		    unsigned n, struct uncore_plan *out);

void uncore_plan_free(struct uncore_plan *plan);

#endif
