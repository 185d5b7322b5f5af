/* Broadwell-EP (Xeon E5/E7 v4) as a cousin of Haswell-EP: the same uncore
 * boxes, registers and PCI functions (the Linux kernel drives it with the
 * Haswell-EP box code: arch/x86/events/intel/uncore_snbep.c, "The uncore
 * subsystem for Broadwell-EP is similar to Haswell-EP ... differences in pci
 * device IDs, box number and constraints", commit d6980ef32570), under
 * CPUID 06_4FH (SDM Vol. 4 table 2-1), with Intel's BDX event tables
 * (libpfm4-events/events/perfmon/intel_bdx_unc_*, generated from Intel's
 * perfmon data) and its own PCI device IDs.  Haswell-EP's parts otherwise
 * (platform/hswep/hswep.h).  Broadwell-DE (06_56H) is not this: it has no
 * SBo and other devices.
 *
 * What differs from Haswell-EP and where it is:
 *  - device IDs: below (the kernel's bdx_uncore_pci_ids and UBox 0x6F1E in
 *    bdx_uncore_pci_init; pci.ids names 6f30 "Xeon E7 v4/Xeon E5 v4/Xeon E3
 *    v4/Xeon D Home Agent 0", ...);
 *  - CBos: up to 24 (bdx_uncore_cbox.num_boxes); the Haswell-EP description
 *    holds 18, so CBos 18-23 of parts with more than 18 cores are not
 *    counted yet (discovery caps at the description);
 *  - QPI port 2 has its packet match/mask function (0x6F46), so the
 *    Haswell-EP kernel rule that refuses CTO_COUNT matching on port 2 is
 *    not the cousin's (events/registry_hswep.c HSWEP_COUSIN);
 *  - the kernel's counter constraints (bdx_uncore_{cbox,r2pcie,r3qpi,pcu}_
 *    constraints) are Intel's Counter column in the tables. */
#include "platform/hswep/hswep.h"

extern const struct uncore_event_platform uncore_events_bdx; /* events/registry_hswep.c */

static const unsigned models[] = {0x4f, 0};

/* {Haswell-EP's ID, Broadwell-EP's}: the kernel's hswep_uncore_pci_ids
 * against bdx_uncore_pci_ids, entry by entry, and the UBox of each one's
 * pci2phy map; the QPI links' misc functions (QPI_RATE_STATUS), which the
 * kernel does not use, from pci.ids (2023-04-10: 2f80/6f80 "QPI Link 0",
 * 2f90/6f90 "QPI Link 1", 2f40/6f40 "QPI Link 2"). */
static const uint16_t pci_ids[][2] = {
    {0x2f1e, 0x6f1e}, /* UBox (bus-to-socket map) */
    {0x2f30, 0x6f30}, /* Home Agent 0 */
    {0x2f38, 0x6f38}, /* Home Agent 1 */
    {0x2fb0, 0x6fb0}, /* MC0 channel 0 */
    {0x2fb1, 0x6fb1}, /* MC0 channel 1 */
    {0x2fb4, 0x6fb4}, /* MC0 channel 2 */
    {0x2fb5, 0x6fb5}, /* MC0 channel 3 */
    {0x2fd0, 0x6fd0}, /* MC1 channel 0 */
    {0x2fd1, 0x6fd1}, /* MC1 channel 1 */
    {0x2fd4, 0x6fd4}, /* MC1 channel 2 */
    {0x2fd5, 0x6fd5}, /* MC1 channel 3 */
    {0x2f39, 0x6f39}, /* IRP */
    {0x2f32, 0x6f32}, /* QPI port 0 */
    {0x2f33, 0x6f33}, /* QPI port 1 */
    {0x2f3a, 0x6f3a}, /* QPI port 2 */
    {0x2f86, 0x6f86}, /* QPI port 0 packet match/mask */
    {0x2f96, 0x6f96}, /* QPI port 1 packet match/mask */
    {0x2f46, 0x6f46}, /* QPI port 2 packet match/mask */
    {0x2f80, 0x6f80}, /* QPI link 0 misc */
    {0x2f90, 0x6f90}, /* QPI link 1 misc */
    {0x2f40, 0x6f40}, /* QPI link 2 misc */
    {0x2f34, 0x6f34}, /* R2PCIe */
    {0x2f36, 0x6f36}, /* R3QPI link 0 */
    {0x2f37, 0x6f37}, /* R3QPI link 1 */
    {0x2f3e, 0x6f3e}, /* R3QPI link 2 */
    {0x2fc0, 0x6fc0}, /* PCU function 3 (CAPID4: how many SBos) */
    {0, 0},
};

/* Presets: Intel's BDX metrics (BDX/metrics/broadwellx_metrics.json)
 * memory_bandwidth_read/_write (UNC_M_CAS_COUNT.RD/.WR * 64) and
 * qpi_data_transmit_bw (UNC_Q_TxL_FLITS_G0.DATA * 8); clockticks: the
 * UBox's fixed counter (Intel's UNC_U_CLOCKTICKS).  No PAPI_UNC_LLC_MISSES:
 * Intel's data gives LLC_LOOKUP no state-filter value (the Haswell-EP preset
 * counts state I), so it is absent rather than guessed. */
/* clang-format off */
static const struct uncore_preset_def presets[] = {
	{.symbol = "PAPI_UNC_DRAM_RD_BYTES",
	 .short_descr = "DRAM read bytes",
	 .long_descr = "Bytes read from DRAM: 64 per CAS read of every memory channel (Intel perfmon BDX metric memory_bandwidth_read: UNC_M_CAS_COUNT.RD * 64)",
	 .postfix = "N0|64|*|",
	 .events = {"bdx_unc_imc::UNC_M_CAS_COUNT:RD"}},
	{.symbol = "PAPI_UNC_DRAM_WR_BYTES",
	 .short_descr = "DRAM write bytes",
	 .long_descr = "Bytes written to DRAM: 64 per CAS write of every memory channel (Intel perfmon BDX metric memory_bandwidth_write: UNC_M_CAS_COUNT.WR * 64)",
	 .postfix = "N0|64|*|",
	 .events = {"bdx_unc_imc::UNC_M_CAS_COUNT:WR"}},
	{.symbol = "PAPI_UNC_QPI_DATA_BYTES",
	 .short_descr = "QPI data bytes sent",
	 .long_descr = "Data bytes sent on every QPI link: 8 per data flit (Intel perfmon BDX metric qpi_data_transmit_bw: UNC_Q_TxL_FLITS_G0.DATA * 8)",
	 .postfix = "N0|8|*|",
	 .events = {"bdx_unc_qpi::UNC_Q_TxL_FLITS_G0:DATA"}},
	{.symbol = "PAPI_UNC_CLOCKTICKS",
	 .short_descr = "Uncore clockticks",
	 .long_descr = "Uncore clock (UCLK) cycles, the UBox fixed counter of each socket (Intel perfmon BDX event UNC_U_CLOCKTICKS)",
	 .events = {"bdx_unc_ubo::UNC_U_CLOCKTICKS"}},
};
/* clang-format on */

/* The first-machine checklist's facts where they differ from Haswell-EP's
 * (platform.h): Intel's BDX data names the iMC's fixed DCLK counter
 * UNC_M_CLOCKTICKS (HSX: UNC_M_DCLOCKTICKS), and its box names are bdx's;
 * the opt-in hardware tests are Haswell-EP's.  The simulated kernel models
 * it as it models Haswell-EP (sim_perf inherited): Haswell-EP's driver
 * drives it, and the kernel's discovery is this object's, its device IDs. */
static const struct uncore_platform_kit kit = {
    .dclk = "bdx_unc_imc0::UNC_M_CLOCKTICKS:socket=0",
    .box_events = "bdx_unc_ubo::UNC_U_CLOCKTICKS bdx_unc_cbo::UNC_C_CLOCKTICKS "
		  "bdx_unc_sbo::UNC_S_CLOCKTICKS bdx_unc_ha::UNC_H_CLOCKTICKS "
		  "bdx_unc_imc::UNC_M_CLOCKTICKS bdx_unc_irp::UNC_I_CLOCKTICKS "
		  "bdx_unc_pcu::UNC_P_CLOCKTICKS bdx_unc_qpi::UNC_Q_CLOCKTICKS "
		  "bdx_unc_r2pcie::UNC_R2_CLOCKTICKS bdx_unc_r3qpi::UNC_R3_CLOCKTICKS",
    .facts = "pci_pmon qpi_matchers narrow_counters",
};

const struct uncore_platform uncore_platform_bdx = {
    .id = UNCORE_PLATFORM_HSWEP,
    .name = "bdx",
    .title = "Intel Xeon E5/E7 v4 (Broadwell-EP)",
    .family = 6,
    .models = models,
    .events = &uncore_events_bdx,
    UNCORE_HSWEP_PARTS,
    .pci_ids = pci_ids,
    .presets = presets,
    .npresets = sizeof(presets) / sizeof(presets[0]),
    .sim_model = "e5-2697v4-2s",
    .kit = &kit,
};
