/* Where the Skylake client memory controller's free-running counters are:
 * the MCHBAR base address from PCI 0:0.0, and the window of IMC counter
 * registers above it (seed 001, 6th Generation Intel Core Uncore PMU
 * Reference Manual, section 3.3 and Table 3-3). */
#ifndef UNCORE_PLATFORM_SKL_MCHBAR_H
#define UNCORE_PLATFORM_SKL_MCHBAR_H

#include <stdint.h>

#include "access/regio.h"

/* 3.3: "read the value (in PCI configuration space) at Bus 0; Device 0;
 * Function 0; Offset 48H and mask with the value 0x0007FFFFF8000".  The mask
 * reaches bit 38, so the register is 64 bits: dwords 0x48 and 0x4C. */
#define SKL_MCHBAR_BDF    UNCORE_BDF(0, 0, 0)
#define SKL_MCHBAR_OFFSET 0x48u
#define SKL_MCHBAR_MASK   0x0007FFFFF8000ull

/* Table 3-3: DRAM_GT_REQUESTS BAR+0x5040 ... DRAM_DATA_WRITES BAR+0x5054,
 * 32-bit counters; the window to map covers them all. */
#define SKL_IMC_WINDOW_FIRST 0x5040u
#define SKL_IMC_WINDOW_END   0x5058u /* one past DRAM_DATA_WRITES */

/* Read MCHBAR through a PCI regio: 0 with *bar set, the regio's error, or
 * UNCORE_ENODEV when the masked base is 0 (no memory controller BAR). */
int skl_mchbar_read(struct uncore_regio *pci, uint64_t *bar);

#endif
