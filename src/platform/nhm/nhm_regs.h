/* Nehalem (Core i7 / Xeon 5500) uncore PMU registers: MSR addresses and
 * fields as masks named after the Intel SDM Vol. 3B, 18.8.2 "Performance
 * Monitoring Facility in the Uncore" ("SDM 18.8.2" below; Figures 18-29 to
 * 18-33 there) and the Performance Analysis Guide for Intel Core i7 and
 * Xeon 5500 (seed 002, "guide": table 28 for MSR 301h, table 37 for MSR
 * 396h).  Shared by the box descriptions, the direct backend, the MSR
 * allowlist table and the simulator. */
#ifndef UNCORE_NHM_REGS_H
#define UNCORE_NHM_REGS_H

#include <stdint.h>

#define NHM_BIT(n)        (UINT64_C(1) << (n))
#define NHM_FIELD(hi, lo) (((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo))

/* SDM 18.8.2 (MSR list of the Nehalem chapter of Vol. 4). */
#define NHM_MSR_UNCORE_PERF_GLOBAL_CTRL     0x391u
#define NHM_MSR_UNCORE_PERF_GLOBAL_STATUS   0x392u
#define NHM_MSR_UNCORE_PERF_GLOBAL_OVF_CTRL 0x393u
#define NHM_MSR_UNCORE_FIXED_CTR0           0x394u
#define NHM_MSR_UNCORE_FIXED_CTR_CTRL       0x395u
#define NHM_MSR_UNCORE_ADDR_OPCODE_MATCH    0x396u /* guide table 37 */
#define NHM_MSR_UNCORE_GQ_SNOOP_MESF        0x301u /* guide table 28 (event 0Ch) */
#define NHM_MSR_UNCORE_PMC0                 0x3b0u /* PMCn = 0x3B0 + n */
#define NHM_MSR_UNCORE_PERFEVTSEL0          0x3c0u /* PERFEVTSELn = 0x3C0 + n */
#define NHM_UNCORE_COUNTERS                 8u     /* guide: "8 general counters" */
#define NHM_UNCORE_WIDTH                    48u    /* SDM 18.8.2: 48-bit counters */

/* MSR_UNCORE_PERF_GLOBAL_CTRL, SDM Figure 18-29. */
#define NHM_GLOBAL_CTRL_EN_PC_ALL   NHM_FIELD(7, 0) /* EN_PCn = bit n */
#define NHM_GLOBAL_CTRL_EN_FC0      NHM_BIT(32)
#define NHM_GLOBAL_CTRL_EN_PMI_CORE NHM_FIELD(51, 48)
#define NHM_GLOBAL_CTRL_PMI_FRZ     NHM_BIT(63)
#define NHM_GLOBAL_CTRL_RW                                                                         \
	(NHM_GLOBAL_CTRL_EN_PC_ALL | NHM_GLOBAL_CTRL_EN_FC0 | NHM_GLOBAL_CTRL_EN_PMI_CORE |        \
	 NHM_GLOBAL_CTRL_PMI_FRZ)

/* MSR_UNCORE_PERF_GLOBAL_STATUS (read-only) and _OVF_CTRL (write-only,
 * write 1 to clear), SDM Figures 18-30, 18-31. */
#define NHM_GLOBAL_STATUS_OVF_PC_ALL NHM_FIELD(7, 0)
#define NHM_GLOBAL_STATUS_OVF_FC0    NHM_BIT(32)
#define NHM_GLOBAL_STATUS_OVF_PMI    NHM_BIT(61)
#define NHM_GLOBAL_STATUS_CHG        NHM_BIT(63)
#define NHM_GLOBAL_OVF_CTRL_RW                                                                     \
	(NHM_GLOBAL_STATUS_OVF_PC_ALL | NHM_GLOBAL_STATUS_OVF_FC0 | NHM_GLOBAL_STATUS_OVF_PMI |    \
	 NHM_GLOBAL_STATUS_CHG)

/* MSR_UNCORE_PERFEVTSELx, SDM Figure 18-32. */
#define NHM_EVTSEL_EVENT       NHM_FIELD(7, 0)
#define NHM_EVTSEL_UMASK       NHM_FIELD(15, 8)
#define NHM_EVTSEL_OCC_CTR_RST NHM_BIT(17) /* action: "will always read as a zero" */
#define NHM_EVTSEL_EDGE        NHM_BIT(18)
#define NHM_EVTSEL_PMI         NHM_BIT(20)
#define NHM_EVTSEL_EN          NHM_BIT(22)
#define NHM_EVTSEL_INV         NHM_BIT(23)
#define NHM_EVTSEL_CMASK       NHM_FIELD(31, 24)
#define NHM_EVTSEL_RW                                                                              \
	(NHM_EVTSEL_EVENT | NHM_EVTSEL_UMASK | NHM_EVTSEL_OCC_CTR_RST | NHM_EVTSEL_EDGE |          \
	 NHM_EVTSEL_PMI | NHM_EVTSEL_EN | NHM_EVTSEL_INV | NHM_EVTSEL_CMASK)

/* MSR_UNCORE_FIXED_CTR_CTRL, SDM Figure 18-33. */
#define NHM_FIXED_CTRL_EN  NHM_BIT(0)
#define NHM_FIXED_CTRL_PMI NHM_BIT(2)
#define NHM_FIXED_CTRL_RW  (NHM_FIXED_CTRL_EN | NHM_FIXED_CTRL_PMI)

/* Counters: 48 bits (SDM 18.8.2). */
#define NHM_CTR_VAL NHM_FIELD(47, 0)

/* MSR_UNCORE_ADDR_OPCODE_MATCH, guide table 37: Address 39:3, Opcode 47:40,
 * Match_Select 63:61. */
#define NHM_MATCH_ADDR   NHM_FIELD(39, 3)
#define NHM_MATCH_OPCODE NHM_FIELD(47, 40)
#define NHM_MATCH_SELECT NHM_FIELD(63, 61)
#define NHM_MATCH_RW     (NHM_MATCH_ADDR | NHM_MATCH_OPCODE | NHM_MATCH_SELECT)

/* MSR 301h, guide table 28: the snoop-response state selector of event 0Ch
 * (one byte, as the registry's filter field). */
#define NHM_GQ_SNOOP_MESF_RW NHM_FIELD(7, 0)

#endif
