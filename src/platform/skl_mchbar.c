/* MCHBAR discovery for the Skylake client IMC counters (see skl_mchbar.h). */
#include "platform/skl_mchbar.h"

#include <inttypes.h>

#include "common/uncore_error.h"

int skl_mchbar_read(struct uncore_regio *pci, uint64_t *bar)
{
	/* Two dwords, not one 8-byte access: the PCI backends transfer either,
	 * and the simulator's PCI space is dword-addressed. */
	struct uncore_reg lo = {.space = UNCORE_SPACE_PCI,
				.width = 4,
				.bdf = SKL_MCHBAR_BDF,
				.addr = SKL_MCHBAR_OFFSET};
	struct uncore_reg hi = lo;
	uint64_t l, h;
	hi.addr += 4;
	int rc = uncore_regio_read(pci, &lo, &l);
	if (rc == 0)
		rc = uncore_regio_read(pci, &hi, &h);
	if (rc)
		return rc;
	uint64_t v = ((h & 0xffffffffu) << 32 | (l & 0xffffffffu)) & SKL_MCHBAR_MASK;
	if (v == 0)
		return uncore_fail(UNCORE_ENODEV,
				   "MCHBAR (PCI 00:00.0 offset 0x48) is 0x%08" PRIx64 "%08" PRIx64
				   ": no memory controller BAR here, so no client IMC counters",
				   h & 0xffffffffu, l & 0xffffffffu);
	/* Bit 0 is MCHBAREN: a base the firmware left disabled decodes nothing
	 * (Skylake datasheet vol. 2, MCHBAR register). */
	if (!(l & 1))
		return uncore_fail(UNCORE_ENODEV,
				   "MCHBAR (PCI 00:00.0 offset 0x48) is 0x%08" PRIx64 "%08" PRIx64
				   " with its enable bit 0 clear: the firmware did not enable the "
				   "memory controller BAR, so no client IMC counters",
				   h & 0xffffffffu, l & 0xffffffffu);
	*bar = v;
	return 0;
}
