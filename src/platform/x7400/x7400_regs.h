/* Xeon 7100 / 7400 L3 and caching bus controller EMON registers: MSR
 * addresses and fields as masks named after the Intel SDM Vol. 3B 18.21
 * ("SDM 18.21"; seeds 003 and 004, section 30.14.1 of the documentation
 * changes) and the MSR tables of the SDM for Intel Core microarchitecture
 * (MSR_EMON_L3_GL_CTL, 107D8H).  Shared by the box descriptions, the
 * direct backend, the MSR allowlist table and the simulator. */
#ifndef UNCORE_X7400_REGS_H
#define UNCORE_X7400_REGS_H

#include <stdint.h>

#define X7400_BIT(n)        (UINT64_C(1) << (n))
#define X7400_FIELD(hi, lo) (((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo))

/* Seed 004 (30.14.1): "these 8 MSRs at addresses 107CC through 107D3";
 * CTL0/1 GBSQ, CTL2/3 GSNPQ, CTL4-7 FSB. */
#define X7400_MSR_EMON_L3_CTR_CTL0 0x107ccu
#define X7400_EMON_COUNTERS        8u
#define X7400_EMON_GBSQ_FIRST      0u
#define X7400_EMON_GSNPQ_FIRST     2u
#define X7400_EMON_FSB_FIRST       4u
#define X7400_MSR_EMON_L3_GL_CTL   0x107d8u /* SDM Vol. 4 Table 2-3 */

/* MSR_EMON_L3_CTR_CTLx: "Bits 63:32 is the event control field ... Bits
 * 31:0 is the event count field" (seed 004); the event mask is 58:32 and
 * bit 59 saturates the count (SDM 18.21.5, Figures 18-57 to 18-59); 63:60
 * reserved. */
#define X7400_CTR_CTL_COUNT     X7400_FIELD(31, 0)
#define X7400_CTR_CTL_CONTROL   X7400_FIELD(63, 32)
#define X7400_CTR_CTL_MASK      X7400_FIELD(58, 32)
#define X7400_CTR_CTL_SATURATE  X7400_BIT(59)
#define X7400_CTR_CTL_FSB_MUST1 X7400_BIT(58) /* 18.21.4: "Bit 58: must set to 1" */
#define X7400_CTR_CTL_RW        (X7400_CTR_CTL_COUNT | X7400_CTR_CTL_MASK | X7400_CTR_CTL_SATURATE)
#define X7400_CTR_CTL_SHIFT     32u
#define X7400_EMON_WIDTH        32u

/* MSR_EMON_L3_GL_CTL, SDM 18.21.5 "Common Event Control Interface". */
#define X7400_GL_FREEZE_CMD   X7400_BIT(0)
#define X7400_GL_UNFREEZE_CMD X7400_BIT(1)
#define X7400_GL_RESET_CMD    X7400_BIT(2)
#define X7400_GL_EVENT_SELECT X7400_FIELD(23, 16) /* bit 16 + n: CTLn */
#define X7400_GL_EVENT_STATUS X7400_FIELD(55, 48) /* bit 48 + n: CTLn overflowed */
#define X7400_GL_SELECT_SHIFT 16u
#define X7400_GL_STATUS_SHIFT 48u
#define X7400_GL_CTL_RW                                                                            \
	(X7400_GL_FREEZE_CMD | X7400_GL_UNFREEZE_CMD | X7400_GL_RESET_CMD | X7400_GL_EVENT_SELECT)

/* Event mask fields as images of the control field (MSR bit n is bit n-32
 * here), SDM 18.21.2-18.21.4. */
#define X7400_GBSQ_AGENT      X7400_FIELD(3, 0)   /* 35:32 Agent_Select */
#define X7400_GBSQ_FLOW       X7400_FIELD(5, 4)   /* 37:36 Data_Flow */
#define X7400_GBSQ_TYPE       X7400_FIELD(11, 6)  /* 43:38 Type_Match */
#define X7400_GBSQ_SNOOP      X7400_FIELD(14, 12) /* 46:44 Snoop_Match */
#define X7400_GBSQ_L3_STATE   X7400_FIELD(21, 15) /* 53:47 L3_State */
#define X7400_GBSQ_CORE_MOD   X7400_FIELD(23, 22) /* 55:54 Core_Module_Select */
#define X7400_GBSQ_FILL_EVICT X7400_FIELD(25, 24) /* 57:56 Fill_Eviction */
#define X7400_GBSQ_CROSS      X7400_BIT(26)       /* 58 Cross_Snoop */
#define X7400_GSNPQ_AGENT     X7400_FIELD(5, 0)   /* 37:32 Agent_Select */
#define X7400_GSNPQ_TYPE      X7400_FIELD(11, 6)  /* 43:38 Type_Match */
#define X7400_GSNPQ_SNOOP     X7400_FIELD(14, 12) /* 46:44 Snoop_Match */
#define X7400_GSNPQ_L2_STATE  X7400_FIELD(21, 15) /* 53:47 L2_State */
#define X7400_GSNPQ_CORE_MOD  X7400_FIELD(23, 22) /* 55:54, enabled by 56 */
#define X7400_GSNPQ_CORE_EN   X7400_BIT(24)       /* 56 */
#define X7400_GSNPQ_BLOCK     X7400_BIT(25)       /* 57 Block_Snoop */
#define X7400_FSB_SUBMASK     X7400_FIELD(25, 0)  /* 57:32 FSB_Submask */
#define X7400_FSB_MUST1       X7400_BIT(26)       /* 58 */

#endif
