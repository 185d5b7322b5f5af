/* The uncore presets (presets/presets.h) this component can count, as the
 * PAPI front-end enters them in PAPI's preset table: for the whole node
 * first, then for each socket, each with its symbol, descriptions, formula
 * and native events (names and codes).  A preset with an event this
 * machine cannot count is absent, not zero. */
#ifndef UNCORE_BIND_PRESET_TABLE_H
#define UNCORE_BIND_PRESET_TABLE_H

#include <stdint.h>

#include "bind/component.h"
#include "presets/presets.h"

#define UNCORE_PRESET_SLOTS 64
#define UNCORE_PRESET_DESCR_MAX 1024 /* PAPI_HUGE_STR_LEN */

struct uncore_preset_instance {
	char symbol[UNCORE_PRESET_NAME_MAX]; /* "PAPI_UNC_DRAM_RD_BYTES:socket=1" */
	char descr[UNCORE_PRESET_DESCR_MAX]; /* "...; socket 1 only" */
	const char *short_descr;
	const char *postfix; /* PAPI postfix over N0.., or NULL: the one event's count */
	unsigned nev;
	char events[UNCORE_PRESET_MAX_EVENTS][UNCORE_PRESET_NAME_MAX];
	uint32_t codes[UNCORE_PRESET_MAX_EVENTS]; /* their native codes */
};

struct uncore_preset_table {
	unsigned n;
	struct uncore_preset_instance preset[UNCORE_PRESET_SLOTS];
};

/* Fill `t` with the presets component `c` (bound) can count, node ones
 * first: at most UNCORE_PRESET_SLOTS, so on a machine with many sockets
 * the last per-socket ones are left out.  None when its platform has none
 * or its tables are not bound. */
void uncore_preset_table_build(struct uncore_component *c, struct uncore_preset_table *t);

#endif
