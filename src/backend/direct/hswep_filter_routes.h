/* Where the event layer's logical filters of each Haswell-EP box land in
 * hardware registers.  The event registry (events/registry_hswep.c) speaks
 * of the filters an event depends on (CBo FILTER0/1, HA opcode and address
 * match, PCU band filter, QPI packet match and mask as one 64-bit value
 * each); the box descriptors (platform/hswep/hswep_boxes.c) list the real
 * registers.  A route copies 32 or 64 bits of a logical filter, from bit
 * `shift`, into one register. */
#ifndef UNCORE_DIRECT_HSWEP_FILTER_ROUTES_H
#define UNCORE_DIRECT_HSWEP_FILTER_ROUTES_H

#include <stdint.h>

#include "platform/hswep/hswep_boxes.h"

#define HSWEP_MAX_ROUTES 4

struct hswep_filter_route {
	uint8_t nroutes;
	struct {
		uint8_t reg;   /* index in the box descriptor's filters[] */
		uint8_t shift; /* first bit of the logical value copied */
		uint8_t bits;  /* how many bits: 32 or 64 */
	} to[HSWEP_MAX_ROUTES];
};

/* The route of logical filter `filter` of box kind `kind`, or NULL. */
const struct hswep_filter_route *hswep_filter_route(enum hswep_box_kind kind, unsigned filter);

/* Number of logical filters routed for box kind `kind`. */
unsigned hswep_filter_route_count(enum hswep_box_kind kind);

#endif
