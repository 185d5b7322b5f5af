/* Haswell-EP (Xeon E5/E7 v3) as one object: identification (SDM Vol. 4
 * table 2-1: 06_3FH), its parts in each layer, and its presets, whose
 * formulas are the manual's byte conversions: a CAS moves one 64-byte line
 * (HSX 2.6.6, MEM_BW_READS = CAS_COUNT.RD * 64); a QPI data flit carries 8
 * bytes (HSX 2.9.5, QPI_DATA_BW = TxL_FLITS_G0.DATA * 8). */
#include "platform/hswep/hswep.h"

/* Each layer's part (incomplete types: defined in that layer). */
extern const struct uncore_event_platform uncore_events_hswep; /* events/registry_hswep.c */
int uncore_direct_open_hswep_of(const struct uncore_platform *p,
				const struct uncore_direct_config *cfg, struct uncore_backend **out);

/* The direct backend's discovery of a machine of `p`, Haswell-EP or a
 * cousin (backend/direct/hswep_discover.c). */
int uncore_hswep_direct_open(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			     struct uncore_backend **out)
{
	return uncore_direct_open_hswep_of(p, cfg, out);
}

static const unsigned models[] = {0x3f, 0};

/* clang-format off */
static const struct uncore_preset_def presets[] = {
	{.symbol = "PAPI_UNC_DRAM_RD_BYTES",
	 .short_descr = "DRAM read bytes",
	 .long_descr = "Bytes read from DRAM: 64 per CAS read of every memory channel (HSX 2.6.6 MEM_BW_READS)",
	 .postfix = "N0|64|*|",
	 .events = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD"}},
	{.symbol = "PAPI_UNC_DRAM_WR_BYTES",
	 .short_descr = "DRAM write bytes",
	 .long_descr = "Bytes written to DRAM: 64 per CAS write of every memory channel (HSX 2.6.6 MEM_BW_WRITES)",
	 .postfix = "N0|64|*|",
	 .events = {"hswep_unc_imc::UNC_M_CAS_COUNT:WR"}},
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "LLC lookups that miss",
	 .long_descr = "LLC lookups of any request that found the line invalid, i.e. missed, in every CBo (HSX 2.3.6 LLC_LOOKUP, state I)",
	 .events = {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:ANY:STATE_I"}},
	{.symbol = "PAPI_UNC_QPI_DATA_BYTES",
	 .short_descr = "QPI data bytes sent",
	 .long_descr = "Data bytes sent on every QPI link: 8 per data flit (HSX 2.9.5 QPI_DATA_BW)",
	 .postfix = "N0|8|*|",
	 .events = {"hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA"}},
	{.symbol = "PAPI_UNC_CLOCKTICKS",
	 .short_descr = "Uncore clockticks",
	 .long_descr = "Uncore clock (UCLK) cycles, the UBox fixed counter of each socket (HSX 2.2)",
	 .events = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"}},
};
/* clang-format on */

/* The first-machine checklist's facts (platform.h): the UBox's fixed UCLK
 * counter (HSX 2.2) and channel 0's fixed DCLK counter (HSX 2.6.2), DDR3/4
 * up to 1600 MHz DCLK (DDR4-3200); one clock per box kind for discovery;
 * the kernel's cas_count_read (uncore_snbep.c); the register experiments of
 * HARDWARE-DECISIONS.md H14 (qpi_matchers) and H8b (narrow_counters), the
 * PCI functions (pci_pmon) and the opt-in hardware tests (hw_tests). */
static const struct uncore_platform_kit kit = {
    UNCORE_KIT("demo-stream",
	       "perf direct",
	       UNCORE_KIT_YES,
	       "PAPI_UNC_CLOCKTICKS:socket=0",
	       "hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=0",
	       "PAPI_UNC_DRAM_RD_BYTES",
	       "uncore_imc/cas_count_read/",
	       "hswep_unc_ubo::UNC_U_CLOCKTICKS hswep_unc_cbo::UNC_C_CLOCKTICKS "
	       "hswep_unc_sbo::UNC_S_CLOCKTICKS hswep_unc_ha::UNC_H_CLOCKTICKS "
	       "hswep_unc_imc::UNC_M_DCLOCKTICKS hswep_unc_irp::UNC_I_CLOCKTICKS "
	       "hswep_unc_pcu::UNC_P_CLOCKTICKS hswep_unc_qpi::UNC_Q_CLOCKTICKS "
	       "hswep_unc_r2pcie::UNC_R2_CLOCKTICKS hswep_unc_r3qpi::UNC_R3_CLOCKTICKS",
	       "pci_pmon qpi_matchers narrow_counters hw_tests"),
    /* PMON and companion functions (HARDWARE-DECISIONS.md). */
    .pci_functions = "2f1e:UBox-socket-ID 2f30:HA0 2f38:HA1 2fb0:iMC0-ch0 2fb1:iMC0-ch1 "
		     "2fb4:iMC0-ch2 2fb5:iMC0-ch3 2fd0:iMC1-ch0 2fd1:iMC1-ch1 2fd4:iMC1-ch2 "
		     "2fd5:iMC1-ch3 2f39:IRP 2f32:QPI-port0 2f33:QPI-port1 2f3a:QPI-port2 "
		     "2f86:QPI-port0-mask/match 2f96:QPI-port1-mask/match "
		     "2f46:QPI-port2-mask/match 2f80:QPI-misc-port0 2f90:QPI-misc-port1 "
		     "2f40:QPI-misc-port2 2f34:R2PCIe 2f36:R3QPI-link0 2f37:R3QPI-link1 "
		     "2f3e:R3QPI-link2 2fc0:PCU-CAPID",
    .dclk_mhz_max = 1700,
};

const struct uncore_platform uncore_platform_hswep = {
    .id = UNCORE_PLATFORM_HSWEP,
    .name = "hswep",
    .title = "Intel Xeon E5/E7 v3 (Haswell-EP)",
    .family = 6,
    .models = models,
    .events = &uncore_events_hswep,
    UNCORE_HSWEP_PARTS,
    .presets = presets,
    .npresets = sizeof(presets) / sizeof(presets[0]),
    .sim_model = "e5-2699v3-2s",
    .kit = &kit,
};
