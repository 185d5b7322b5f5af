/* Skylake client (6th generation Core) as one object: identification (SDM
 * Vol. 4 table 2-1: 06_4EH, 06_5EH) and its parts in each layer.  The
 * direct backend needs MSRs, and PCI only to find the IMC counters' MMIO
 * window (MCHBAR, SKL 3.3). */
#include "platform/platform.h"

#include "platform/skl_mchbar.h"

extern const struct uncore_event_platform uncore_events_skl; /* events/registry_skl.c */
extern const struct uncore_msr_table uncore_skl_msr_table;   /* skl_msr_ranges.c */
extern const struct direct_platform direct_platform_skl;     /* backend/direct/desc_skl.c */
int uncore_direct_open_skl(const struct uncore_direct_config *cfg, struct uncore_backend **out);

static int open_direct(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
		       struct uncore_backend **out)
{
	(void)p;
	return uncore_direct_open_skl(cfg, out);
}

/* The IMC counters' window: MCHBAR from PCI 0:0.0 (SKL 3.3). */
static int mmio_window(struct uncore_regio *pci, uint64_t *base, uint64_t *size)
{
	uint64_t bar;
	int rc = skl_mchbar_read(pci, &bar);
	if (rc < 0)
		return rc;
	*base = bar + SKL_IMC_WINDOW_FIRST;
	*size = SKL_IMC_WINDOW_END - SKL_IMC_WINDOW_FIRST;
	return 0;
}

static const unsigned models[] = {0x4e, 0x5e, 0};

const struct uncore_platform uncore_platform_skl = {
    .id = UNCORE_PLATFORM_SKL,
    .name = "skl",
    .title = "6th generation Intel Core (Skylake client)",
    .family = 6,
    .models = models,
    .events = &uncore_events_skl,
    .msr_table = &uncore_skl_msr_table,
    .access = UNCORE_ACCESS_MSR | UNCORE_ACCESS_PCI_MMIO,
    .direct = &direct_platform_skl,
    .direct_open = open_direct,
    .mmio_window = mmio_window,
    .sim_model = "i7-6700k",
};
