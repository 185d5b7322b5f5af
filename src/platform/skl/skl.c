/* Skylake client (6th generation Core) as one object: identification (SDM
 * Vol. 4 table 2-1: 06_4EH, 06_5EH) and its parts in each layer.  The
 * direct backend needs MSRs, and PCI only to find the IMC counters' MMIO
 * window (MCHBAR, SKL 3.3). */
#include "platform/skl/skl.h"

#include "platform/skl_mchbar.h"

int uncore_direct_open_skl(const struct uncore_direct_config *cfg, struct uncore_backend **out);

int uncore_skl_direct_open(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out)
{
	(void)p;
	return uncore_direct_open_skl(cfg, out);
}

/* The IMC counters' window: MCHBAR from PCI 0:0.0 (SKL 3.3). */
int uncore_skl_mmio_window(struct uncore_regio *pci, uint64_t *base, uint64_t *size)
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

/* Presets (SKL: seed 001).  Table 3-3: DRAM_DATA_READS and
 * DRAM_DATA_WRITES count every read and write to DRAM, all channels, and
 * "all requests result in 64-byte data transfers from DRAM"; a lookup in
 * I state is a miss (3.1, UNC_CBO_CACHE_LOOKUP.ANY_I); the fixed counter
 * counts UCLK cycles (2.3, 3.2 UNC_CLOCK.SOCKET). */
/* clang-format off */
const struct uncore_preset_def uncore_skl_presets[] = {
	{.symbol = "PAPI_UNC_DRAM_RD_BYTES",
	 .short_descr = "DRAM read bytes",
	 .long_descr = "Bytes read from DRAM: 64 per data read of the memory controller, all channels (SKL 3.3 Table 3-3 DRAM_DATA_READS)",
	 .postfix = "N0|64|*|",
	 .events = {"skl_unc_imc::DRAM_DATA_READS"}},
	{.symbol = "PAPI_UNC_DRAM_WR_BYTES",
	 .short_descr = "DRAM write bytes",
	 .long_descr = "Bytes written to DRAM: 64 per data write of the memory controller, all channels (SKL 3.3 Table 3-3 DRAM_DATA_WRITES)",
	 .postfix = "N0|64|*|",
	 .events = {"skl_unc_imc::DRAM_DATA_WRITES"}},
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "LLC lookups that miss",
	 .long_descr = "LLC lookups of any request that found the line in I state, i.e. missed, in every CBo (SKL 3.1 UNC_CBO_CACHE_LOOKUP.ANY_I)",
	 .events = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_I"}},
	{.symbol = "PAPI_UNC_CLOCKTICKS",
	 .short_descr = "Uncore clockticks",
	 .long_descr = "Uncore clock (UCLK) cycles, the fixed counter (SKL 2.3, 3.2 UNC_CLOCK.SOCKET)",
	 .events = {"skl_unc_clock::UNC_CLOCK"}},
};
/* clang-format on */
_Static_assert(sizeof(uncore_skl_presets) / sizeof(uncore_skl_presets[0]) == UNCORE_SKL_NPRESETS,
	       "UNCORE_SKL_NPRESETS counts uncore_skl_presets");

/* The first-machine checklist's facts (platform.h), Kaby Lake's too: the
 * UCLK fixed counter (no DRAM clock counter: SKL 2.3); a box event each of
 * the CBos, the ARB and the clock; the kernel's data_reads of the IMC
 * (uncore_snb.c); the register experiment of HARDWARE-DECISIONS.md S1
 * (slice_gate) and the host bridge holding MCHBAR (mchbar).  The
 * simulated kernel does not model its PMUs. */
static const struct uncore_platform_kit kit = {
    UNCORE_KIT("skl-stream",
	       "perf direct",
	       UNCORE_KIT_NO,
	       "PAPI_UNC_CLOCKTICKS",
	       "",
	       "PAPI_UNC_DRAM_RD_BYTES",
	       "uncore_imc/data_reads/",
	       "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL "
	       "skl_unc_clock::UNC_CLOCK",
	       "mchbar slice_gate"),
};

const struct uncore_platform uncore_platform_skl = {
    .id = UNCORE_PLATFORM_SKL,
    .name = "skl",
    .title = "6th generation Intel Core (Skylake client)",
    .family = 6,
    .models = models,
    UNCORE_SKL_CLIENT_PARTS,
    .sim_model = "i7-6700k",
    .kit = &kit,
};
