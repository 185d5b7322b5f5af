/* One register-access interface over several: MSR accesses go to one
 * implementation, PCI to another, MMIO to a third, so the box-programming
 * code sees a single regio whatever devices a machine needs. */
#ifndef UNCORE_ACCESS_COMPOSITE_H
#define UNCORE_ACCESS_COMPOSITE_H

#include "access/regio.h"

/* A regio dispatching by space; NULL members make that space fail with
 * UNCORE_ENODEV.  The composite owns (and destroys) its members. */
int uncore_composite_open(struct uncore_regio *msr, struct uncore_regio *pci,
			  struct uncore_regio *mmio, struct uncore_regio **out);

#endif
