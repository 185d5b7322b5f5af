/* The Haswell-EP PMON register map typed from the manual's Tables 1-2 and
 * 1-3 for the audit (hsx_regmap.c says what it is and which real-hardware
 * corrections it carries), kept apart from src/platform/. */
#ifndef UNCORE_ITEST_HSX_REGMAP_H
#define UNCORE_ITEST_HSX_REGMAP_H

#include <stdint.h>

#include "access/regio.h"
#include "platform/hswep/hswep_boxes.h" /* the box kind names only */

typedef void (*hsx_regmap_fn)(void *ctx, const struct uncore_reg *r, uint64_t writable_bits);

/* Call fn for every writable PMON register of box (kind, inst) on package
 * `socket` (uncore bus `bus`, root bus `root_bus`) and for the socket's
 * global control: 0, or -1 for an instance the manual does not have.
 * PCI registers are dwords (a counter is two). */
int hsx_regmap_each(unsigned kind, unsigned inst, unsigned socket, unsigned bus, unsigned root_bus,
		    hsx_regmap_fn fn, void *ctx);

#endif
