/* Skylake client (6th generation Core) uncore PMU registers: MSR addresses
 * and fields as masks named after the 6th Generation Intel Core Processor
 * Family Uncore Performance Monitoring Reference Manual (334060-001, seed
 * 001; "SKL" below).  Shared by the event registry, the box descriptors,
 * the direct backend and the msr-safe allowlist table. */
#ifndef UNCORE_SKL_REGS_H
#define UNCORE_SKL_REGS_H

#include <stdint.h>

#define SKL_BIT(n)        (UINT64_C(1) << (n))
#define SKL_FIELD(hi, lo) (((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo))

/* SKL Table 2-1 "Uncore PMU MSR List" (and Table 1-1: the global pair moved
 * from 0x391/0x392 on the 5th generation). */
#define SKL_MSR_UNC_PERF_GLOBAL_CTRL   0xe01u
#define SKL_MSR_UNC_PERF_GLOBAL_STATUS 0xe02u
#define SKL_MSR_UNC_PERF_FIXED_CTRL    0x394u
#define SKL_MSR_UNC_PERF_FIXED_CTR     0x395u
#define SKL_MSR_UNC_CBO_CONFIG         0x396u
#define SKL_MSR_UNC_ARB_PERFCTR0       0x3b0u /* PERFCTR1 0x3B1 */
#define SKL_MSR_UNC_ARB_PERFEVTSEL0    0x3b2u /* PERFEVTSEL1 0x3B3 */
#define SKL_MSR_UNC_CBO_0_PERFEVTSEL0  0x700u /* CBo n: + 0x10 * n; PERFEVTSEL1 + 1 */
#define SKL_MSR_UNC_CBO_0_PERFCTR0     0x706u /* CBo n: + 0x10 * n; PERFCTR1 + 1 */
#define SKL_UNC_CBO_MSR_STRIDE         0x10u
#define SKL_UNC_CBO_MAX                4u /* 2.4.2: "up to four CBo units" */
#define SKL_UNC_COUNTERS_PER_UNIT      2u /* Table 1-2, Table 2-1 (see registry_skl.c) */

/* MSR_UNC_PERF_GLOBAL_CTRL, SKL Table 2-2. */
#define SKL_UNC_GLOBAL_CTRL_PMI_SEL_CORE0    SKL_BIT(0)
#define SKL_UNC_GLOBAL_CTRL_PMI_SEL_CORE_ALL SKL_FIELD(3, 0) /* PMI_SEL_CORE0..3 */
#define SKL_UNC_GLOBAL_CTRL_EN               SKL_BIT(29)
/* What Linux writes to start counting: EN and bits 4:0
 * (arch/x86/events/intel/uncore_snb.c, skl_uncore_msr_enable_box:
 * SNB_UNC_GLOBAL_CTL_EN | SKL_UNC_GLOBAL_CTL_CORE_ALL = 0x2000001f).  The
 * manual calls 3:0 the slices' PMI_SEL_COREn and 4 reserved; LIKWID sets
 * bit n for each CBo it counts with.  If those bits gate the slices, EN
 * alone leaves every CBo at 0; the kernel's value is the one every Linux
 * Skylake runs, so it is ours (HARDWARE-DECISIONS.md S1). */
#define SKL_UNC_GLOBAL_CTRL_SLICES_KERNEL SKL_FIELD(4, 0)
#define SKL_UNC_GLOBAL_CTRL_KERNEL        (SKL_UNC_GLOBAL_CTRL_EN | SKL_UNC_GLOBAL_CTRL_SLICES_KERNEL)
#define SKL_UNC_GLOBAL_CTRL_WAKE_ON_PMI      SKL_BIT(30)
#define SKL_UNC_GLOBAL_CTRL_FRZ_ON_PMI       SKL_BIT(31)

/* MSR_UNC_PERF_GLOBAL_STATUS, SKL Table 2-3, all RW1C.  The converted table
 * gives CBO_CTR_OVF as "31" beside "Reserved 63:4" and "Reserved 2": a lost
 * space between bit and Access.  Bit 31 would lie inside the reserved 63:4,
 * so the row is bit 3 (the one bit of 3:0 no other row names). */
#define SKL_UNC_GLOBAL_STATUS_FIXED_CTR_OVF SKL_BIT(0)
#define SKL_UNC_GLOBAL_STATUS_ARB_CTR_OVF   SKL_BIT(1)
#define SKL_UNC_GLOBAL_STATUS_CBO_CTR_OVF   SKL_BIT(3)

/* MSR_UNC_PERF_FIXED_CTRL, SKL Table 2-4. */
#define SKL_UNC_FIXED_CTRL_OVF_EN SKL_BIT(20)
#define SKL_UNC_FIXED_CTRL_CNT_EN SKL_BIT(22)

/* MSR_UNC_PERF_FIXED_CTR, SKL Table 2-5 and 2.3.2: 48-bit UCLK counter. */
#define SKL_UNC_FIXED_CTR_CTR_VAL SKL_FIELD(47, 0)
#define SKL_UNC_FIXED_CTR_WIDTH   48u

/* MSR_UNC_CBO_CONFIG, SKL Table 2-6 (read-only). */
#define SKL_UNC_CBO_CONFIG_NO_CBO_BANKS SKL_FIELD(3, 0)

/* MSR_UNC_CBO_x_PERFEVTSELy and MSR_UNC_ARB_PERFEVTSELy, SKL Table 2-7. */
#define SKL_UNC_PERFEVTSEL_EVT_SEL SKL_FIELD(7, 0)
#define SKL_UNC_PERFEVTSEL_UMASK   SKL_FIELD(15, 8)
#define SKL_UNC_PERFEVTSEL_E       SKL_BIT(18)
#define SKL_UNC_PERFEVTSEL_OVF_EN  SKL_BIT(20)
#define SKL_UNC_PERFEVTSEL_EN      SKL_BIT(22)
#define SKL_UNC_PERFEVTSEL_INV     SKL_BIT(23)
#define SKL_UNC_PERFEVTSEL_THR     SKL_FIELD(28, 24)
/* Every RW field of Table 2-7. */
#define SKL_UNC_PERFEVTSEL_RW                                                                      \
	(SKL_UNC_PERFEVTSEL_EVT_SEL | SKL_UNC_PERFEVTSEL_UMASK | SKL_UNC_PERFEVTSEL_E |            \
	 SKL_UNC_PERFEVTSEL_OVF_EN | SKL_UNC_PERFEVTSEL_EN | SKL_UNC_PERFEVTSEL_INV |              \
	 SKL_UNC_PERFEVTSEL_THR)

/* MSR_UNC_CBO_x_PERFCTRy and MSR_UNC_ARB_PERFCTRy, SKL Table 2-8 and 2.4.3:
 * 44-bit counters. */
#define SKL_UNC_PERFCTR_CTR_VAL SKL_FIELD(43, 0)
#define SKL_UNC_PERFCTR_WIDTH   44u

/* IMC free-running counters, SKL 3.3 and Table 3-3: offsets from MCHBAR
 * (platform/skl_mchbar.h), 32 bits wide (Table 1-2), read-only. */
#define SKL_IMC_DRAM_GT_REQUESTS 0x5040u
#define SKL_IMC_DRAM_IA_REQUESTS 0x5044u
#define SKL_IMC_DRAM_IO_REQUESTS 0x5048u
#define SKL_IMC_DRAM_DATA_READS  0x5050u
#define SKL_IMC_DRAM_DATA_WRITES 0x5054u
#define SKL_IMC_COUNTERS         5u
#define SKL_IMC_COUNTER_WIDTH    32u

#endif
