/* Memory-mapped uncore registers through /dev/mem: one page-aligned window
 * mapped read-only at open, then plain loads.  Used for the Skylake client
 * IMC free-running counters (seed 001, section 3.3, Table 3-3: BAR+0x5040 to
 * BAR+0x5054, 32 bits, "free-running and always-running"), which are
 * read-only: this backend refuses every write with UNCORE_EDENIED. */
#ifndef UNCORE_ACCESS_MMIO_H
#define UNCORE_ACCESS_MMIO_H

#include <stdint.h>

#include "access/regio.h"

#define UNCORE_MMIO_DEV_MEM "/dev/mem"

/* Map the physical range [phys, phys + len) of `mem_path` (NULL:
 * /dev/mem; tests pass a regular file, whose offsets stand for physical
 * addresses).  Registers are then read at their physical address (r->addr)
 * with width 4 or 8, naturally aligned, inside the range.  The regio's name
 * is "mmio"; uncore_regio_destroy() unmaps and frees it. */
int uncore_mmio_open(const char *mem_path, uint64_t phys, uint64_t len, struct uncore_regio **out);

/* The mapping actually made: page-aligned base and length (for tests). */
void uncore_mmio_window(const struct uncore_regio *io, uint64_t *map_base, uint64_t *map_len);

#endif
