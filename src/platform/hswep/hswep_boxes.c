/* The Haswell-EP box descriptors (HSX PMON Tables 1-1 to 1-3 and each box's
 * "Performance Monitors" section), register accessors computed from them,
 * and the reverse decoding of an MSR or PCI config address into a box
 * register.  Where the manual contradicts itself the decision is stated at
 * the descriptor and made once, here. */
#include "platform/hswep/hswep_boxes.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/uncore_error.h"
#include "platform/hswep/hswep_regs.h"

#define F HSWEP_FIELD
#define B HSWEP_BIT

/* Counter control bits every box has (HSX PMON 1.4); the MSR boxes' writable
 * sets are in hswep_regs.h, shared with the MSR allowlist ranges. */
#define CTL_BASE     HSWEP_PMON_CTL_COMMON
#define BOX_CTL_BITS HSWEP_PMON_BOX_CTL_VALID

/* MSR counters: bits 63:48 reserved (Tables 2-8, 2-17, 2-48, 2-159). */
#define MSR_CTR48                                                                                  \
	{                                                                                          \
		.valid = HSWEP_MSR_CTR48_VALID                                                     \
	}
/* PCI counters: bits 63:48 "ignored" (Tables 2-64, 2-116, 2-148, 2-171, 2-216). */
#define PCI_CTR48                                                                                  \
	{                                                                                          \
		.valid = F(47, 0), .ignored = F(63, 48)                                            \
	}

static const struct hswep_filter_desc cbo_filters[] = {
    /* Table 2-18: tid 5:0, state 23:17; 31:24 and 16:6 reserved. */
    {.name = "FILTER0", .offset = 5, .rules = {.valid = HSWEP_CBO_FILTER0_VALID}},
    /* Table 2-19: nid 15:0, opc 28:20, nc 30, isoc 31; 29 and 19:16
     * reserved (the table's "rsv 19:15" overlaps nid 15:0; nid wins). */
    {.name = "FILTER1", .offset = 6, .rules = {.valid = HSWEP_CBO_FILTER1_VALID}},
};

static const struct hswep_filter_desc ha_filters[] = {
    /* Tables 2-67, 2-66, 2-65. */
    {.name = "ADDRMATCH0",
     .offset = 0x40,
     .rules = {.valid = HSWEP_HA_ADDRMATCH0_LO_ADDR, .ignored = F(5, 0)}},
    {.name = "ADDRMATCH1",
     .offset = 0x44,
     .rules = {.valid = HSWEP_HA_ADDRMATCH1_HI_ADDR, .ignored = F(31, 14)}},
    {.name = "OPCODEMATCH",
     .offset = 0x48,
     .rules = {.valid = HSWEP_HA_OPCODEMATCH_OPC, .ignored = F(31, 6)}},
};

static const struct hswep_filter_desc pcu_filters[] = {
    /* Table 2-160: four 8-bit bands in 31:0, 63:48 reserved (47:32 not
     * listed: treated as reserved too). */
    {.name = "BOX_FILTER", .offset = 5, .rules = {.valid = HSWEP_PCU_FILTER_VALID}},
};

#define QPI_PKT0_BITS                                                                              \
	(HSWEP_QPI_PKT0_RNID_4 | HSWEP_QPI_PKT0_DNID | HSWEP_QPI_PKT0_MC | HSWEP_QPI_PKT0_OPC |    \
	 HSWEP_QPI_PKT0_VNW)
#define QPI_PKT1_BITS (HSWEP_QPI_PKT1_RDS | HSWEP_QPI_PKT1_RNID_3_0)

/* Table 2-167 (offsets) with Tables 2-172 to 2-175 (fields); the other bits
 * are "Reserved; Must write to 0". */
static const struct hswep_filter_desc qpi_filters[] = {
    {.name = "RX_PKT_MATCH0",
     .offset = 0x228,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT0_BITS}},
    {.name = "RX_PKT_MATCH1",
     .offset = 0x22c,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT1_BITS}},
    {.name = "RX_PKT_MASK0",
     .offset = 0x238,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT0_BITS}},
    {.name = "RX_PKT_MASK1",
     .offset = 0x23c,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT1_BITS}},
    {.name = "TX_PKT_MATCH0",
     .offset = 0x200,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT0_BITS}},
    {.name = "TX_PKT_MATCH1",
     .offset = 0x204,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT1_BITS}},
    {.name = "TX_PKT_MASK0",
     .offset = 0x210,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT0_BITS}},
    {.name = "TX_PKT_MASK1",
     .offset = 0x214,
     .fn_role = HSWEP_FN_AUX,
     .rules = {.valid = QPI_PKT1_BITS}},
};

/* PCU free-running C-state residency MSRs: 64-bit, read-only, "can't be
 * frozen or reset" (2.8.2.1, Tables 2-161 to 2-164).  0x3F9 appears only in
 * Table 1-2; it is modelled the same way.  They count TSC cycles. */
static const struct hswep_extra_desc pcu_extras[] = {
    {.name = "CORE_CC6_CTR", .offset = 0x3fd, .width = 64, .clock = HSWEP_CLK_TSC},
    {.name = "CORE_CC3_CTR", .offset = 0x3fc, .width = 64, .clock = HSWEP_CLK_TSC},
    {.name = "CORE_PC2_CTR", .offset = 0x60d, .width = 64, .clock = HSWEP_CLK_TSC},
    {.name = "CORE_PC3_CTR", .offset = 0x3f8, .width = 64, .clock = HSWEP_CLK_TSC},
    {.name = "FREE_3F9", .offset = 0x3f9, .width = 64, .clock = HSWEP_CLK_TSC},
};

/* QPI companions (2.9.2.4): two 32-bit RW-V free-running Rx-link counters on
 * the PMON function and QPI_RATE_STATUS on the misc function. */
static const struct hswep_extra_desc qpi_extras[] = {
    {.name = "LINK_IDLE",
     .offset = 0xc8,
     .width = 32,
     .clock = HSWEP_CLK_QFCLK,
     .writable = 1,
     .rules = {.valid = F(31, 0)}},
    {.name = "LINK_LLR",
     .offset = 0xd0,
     .width = 32,
     .clock = HSWEP_CLK_QFCLK,
     .writable = 1,
     .rules = {.valid = F(31, 0)}},
    {.name = "QPI_RATE_STATUS",
     .offset = 0xd4,
     .fn_role = HSWEP_FN_MISC,
     .kind = HSWEP_EXTRA_STATUS,
     .width = 32},
};

/* Filter routes: where each logical filter of the event registry
 * (events/registry_hswep.c, in its order) lands in the filter registers
 * above.  A route copies 32 bits of the logical value, from bit `shift`,
 * into one register. */
#define ROUTE(r, sh)                                                                               \
	{                                                                                          \
		.reg = (r), .shift = (sh), .bits = 32                                              \
	}
/* CBo: FILTER0 and FILTER1 are the registers themselves (Tables 2-18, 2-19). */
static const struct hswep_filter_route cbo_routes[] = {
    {.nroutes = 1, .to = {ROUTE(HSWEP_CBO_FILTER0, 0)}},
    {.nroutes = 1, .to = {ROUTE(HSWEP_CBO_FILTER1, 0)}},
};
/* HA: OPCODEMATCH, then the address match as one 64-bit value with the
 * physical address bits in place (HSWEP_HA_ADDRMATCH_ADDR): bits 31:6 go to
 * ADDRMATCH0.lo_addr (Table 2-67), bits 45:32 to ADDRMATCH1.hi_addr 13:0
 * (Table 2-66), as QPI's match/mask pairs are split. */
static const struct hswep_filter_route ha_routes[] = {
    {.nroutes = 1, .to = {ROUTE(HSWEP_HA_OPCODEMATCH, 0)}},
    {.nroutes = 2, .to = {ROUTE(HSWEP_HA_ADDRMATCH0, 0), ROUTE(HSWEP_HA_ADDRMATCH1, 32)}},
};
/* PCU: the four frequency bands (Table 2-160). */
static const struct hswep_filter_route pcu_routes[] = {
    {.nroutes = 1, .to = {ROUTE(HSWEP_PCU_BOX_FILTER, 0)}},
};
/* QPI: the packet match and mask values, bits 31:0 for *_MATCH0/MASK0 and
 * 63:32 for *_MATCH1/MASK1 (2.12, Tables 2-172 to 2-175), go to the Rx
 * matcher only, as the Linux driver programs them: every Common Metric
 * that uses CTO_COUNT counts packets received ("_FROM_QPI"), and a pattern
 * also in the Tx matcher would add the matching transmitted packets, up to
 * twice the perf backend's count.  The Tx registers are left as they are
 * (HARDWARE-DECISIONS.md H14). */
static const struct hswep_filter_route qpi_routes[] = {
    {.nroutes = 2, .to = {ROUTE(HSWEP_QPI_RX_MATCH0, 0), ROUTE(HSWEP_QPI_RX_MATCH1, 32)}},
    {.nroutes = 2, .to = {ROUTE(HSWEP_QPI_RX_MASK0, 0), ROUTE(HSWEP_QPI_RX_MASK1, 32)}},
};
#define ROUTES(r) .num_routes = sizeof(r) / sizeof((r)[0]), .routes = (r)

/* PCI functions per instance (Table 1-3 and the per-box register tables). */
static const struct hswep_pci_fn ha_fn[] = {{18, 1, 0x2f30}, {18, 5, 0x2f38}};
/* MC0 channels 0-3 then MC1 channels 0-3 at D20:F0/F1, D21:F0/F1 (MC0) and
 * D23:F0/F1, D24:F0/F1 (MC1).  Device IDs: real hardware, not the manual.
 * Tables 1-3 and 2-111 give D20:F0 = 0x2FB4 and D21:F0 = 0x2FB0 (and the
 * same swap for MC1); the Linux driver's hswep_uncore_pci_ids, pciutils'
 * pci.ids and published lspci output of E5 v3 machines all have D20:F0 =
 * 0x2FB0, D20:F1 = 0x2FB1, D21:F0 = 0x2FB4, D21:F1 = 0x2FB5, D23:F0 =
 * 0x2FD0 ... D24:F1 = 0x2FD5.  Discovery matches the ID, so the manual's
 * values would find no channel (src/platform/hswep/HARDWARE-DECISIONS.md). */
static const struct hswep_pci_fn imc_fn[] = {
    {20, 0, 0x2fb0}, {20, 1, 0x2fb1}, {21, 0, 0x2fb4}, {21, 1, 0x2fb5},
    {23, 0, 0x2fd0}, {23, 1, 0x2fd1}, {24, 0, 0x2fd4}, {24, 1, 0x2fd5},
};
/* D5:F6 on the package's root bus, not its uncore bus (see the IRP box). */
static const struct hswep_pci_fn irp_fn[] = {{5, 6, 0x2f39}};
/* QPI port 2 and its mask/match and misc functions exist on E7 only and are
 * listed in Table 1-3 alone. */
static const struct hswep_pci_fn qpi_fn[] = {{8, 2, 0x2f32}, {9, 2, 0x2f33}, {10, 2, 0x2f3a}};
static const struct hswep_pci_fn qpi_mm_fn[] = {{8, 6, 0x2f86}, {9, 6, 0x2f96}, {10, 6, 0x2f46}};
/* Misc functions with QPI_RATE_STATUS: Table 2-167 says "QPI Misc Register
 * for Ports 0,1 D8:F0"; real machines and pci.ids have one per port: D8:F0
 * 0x2F80, D9:F0 0x2F90, D10:F0 0x2F40 (HARDWARE-DECISIONS.md H11). */
static const struct hswep_pci_fn qpi_misc_fn[] = {{8, 0, 0x2f80}, {9, 0, 0x2f90}, {10, 0, 0x2f40}};
static const struct hswep_pci_fn r2pcie_fn[] = {{16, 1, 0x2f34}};
static const struct hswep_pci_fn r3qpi_fn[] = {{11, 1, 0x2f36}, {11, 2, 0x2f37}, {11, 5, 0x2f3e}};

/* Global status bits of overflow messages (Table 2-3).  QPI0 = ports 0,1 and
 * QPI1 = port 2, R3QPI0 = links 0,1 and R3QPI1 = link 2 (Table 1-3's naming);
 * iMC0 = channels 0-3, iMC1 = channels 4-7.  CBo and SBo control registers
 * have no ov_en (Tables 2-16, 2-47) and Table 2-3 has no bit for them. */
static const uint8_t ubox_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_U};
static const uint8_t ha_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_H0, HSWEP_U_GLOBAL_STATUS_OV_H1};
static const uint8_t imc_gbit[] = {
    HSWEP_U_GLOBAL_STATUS_OV_M0, HSWEP_U_GLOBAL_STATUS_OV_M0, HSWEP_U_GLOBAL_STATUS_OV_M0,
    HSWEP_U_GLOBAL_STATUS_OV_M0, HSWEP_U_GLOBAL_STATUS_OV_M1, HSWEP_U_GLOBAL_STATUS_OV_M1,
    HSWEP_U_GLOBAL_STATUS_OV_M1, HSWEP_U_GLOBAL_STATUS_OV_M1,
};
static const uint8_t irp_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_IRP};
static const uint8_t pcu_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_P};
static const uint8_t qpi_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_Q0, HSWEP_U_GLOBAL_STATUS_OV_Q0,
				   HSWEP_U_GLOBAL_STATUS_OV_Q1};
static const uint8_t r2pcie_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_RP};
static const uint8_t r3qpi_gbit[] = {HSWEP_U_GLOBAL_STATUS_OV_RQ0, HSWEP_U_GLOBAL_STATUS_OV_RQ0,
				     HSWEP_U_GLOBAL_STATUS_OV_RQ1};

#define NO_FIXED                                                                                   \
	.fixed_ctl = HSWEP_NO_REG, .fixed_ctr = HSWEP_NO_REG, .fixed_status_bit = HSWEP_NO_BIT,    \
	.fixed_global_status_bit = HSWEP_NO_BIT
#define PCI_GENERIC_CTL .ctl = {0xd8, 0xdc, 0xe0, 0xe4}, .ctr = {0xa0, 0xa8, 0xb0, 0xb8}
/* PCI box control: valid rst_ctrl, rst_ctrs, frz; 17:16 must be 1; the rest
 * "ig" (Tables 2-61, 2-112, 2-145, 2-168). */
#define PCI_BOX_CTL_RULES                                                                          \
	{                                                                                          \
		.valid = BOX_CTL_BITS, .must1 = HSWEP_PMON_BOX_CTL_RSV_MUST1,                      \
		.ignored = F(31, 18) | F(15, 9) | F(7, 2)                                          \
	}
/* MSR box control: same bits, the rest reserved (Tables 2-14, 2-45, 2-156). */
#define MSR_BOX_CTL_RULES                                                                          \
	{                                                                                          \
		.valid = BOX_CTL_BITS, .must1 = HSWEP_PMON_BOX_CTL_RSV_MUST1                       \
	}
/* SBo box control (Table 2-45): 17:16 writable but not required, for
 * Linux writes bit 16 only, one bit at a time (HARDWARE-DECISIONS.md H8). */
#define SBO_BOX_CTL_RULES                                                                          \
	{                                                                                          \
		.valid = BOX_CTL_BITS | HSWEP_PMON_BOX_CTL_RSV_MUST1                               \
	}
/* HA, iMC, IRP, R2PCIe, R3QPI counter control: ov_en 20, bit 19 "ig", bits
 * 21 and 16 "SW must write to 0". */
#define PCI_CTL_RULES                                                                              \
	{                                                                                          \
		.valid = CTL_BASE | HSWEP_PMON_CTL_OV_EN | HSWEP_PMON_CTL_THRESH8,                 \
		.ignored = B(19)                                                                   \
	}

static const struct hswep_box_desc boxes[HSWEP_BOX_KINDS] =
    {
	/* UBox (2.2, Table 2-5): two 48-bit counters and a UCLK fixed counter,
	 * no box control ("The UBox does not have a Box Control register",
	 * 2.1.2 d). */
	[HSWEP_BOX_UBOX] =
	    {
		.name = "ubox",
		.title = "UBox",
		.section = "2.2",
		.kind = HSWEP_BOX_UBOX,
		.space = UNCORE_SPACE_MSR,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_UBOX_INSTANCES,
		.num_counters = HSWEP_UBOX_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 5,
		.msr_base = HSWEP_UBOX_MSR_BASE,
		.box_ctl = HSWEP_NO_REG,
		.box_status = 0x8,
		.ctl = {0x5, 0x6},
		.ctr = {0x9, 0xa},
		.fixed_ctl = 0x3,
		.fixed_ctr = 0x4,
		.status_rules = {.valid = HSWEP_UBOX_STATUS_VALID},
		/* Table 2-7: 31:29, 21, 19, 16 reserved; thresh is 5 bits. */
		.ctl_rules = {.valid = HSWEP_UBOX_CTL_VALID},
		.ctr_rules = MSR_CTR48,
		/* Table 2-9: en 22, ov_en 20, everything else reserved. */
		.fixed_ctl_rules = {.valid = HSWEP_U_FIXED_CTL_VALID},
		.fixed_ctr_rules = MSR_CTR48,
		.fixed_status_bit = HSWEP_NO_BIT, /* Table 2-6 has ov 1:0 only */
		.global_status_bit = ubox_gbit,
		.fixed_global_status_bit = HSWEP_U_GLOBAL_STATUS_OV_U_FIXED,
	    },
	/* CBo (2.3, Tables 1-2 and 2-13): instance n at 0xE00 + 0x10 n. */
	[HSWEP_BOX_CBO] =
	    {
		.name = "cbo",
		.title = "Caching Agent (CBo)",
		.section = "2.3",
		.kind = HSWEP_BOX_CBO,
		.space = UNCORE_SPACE_MSR,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_CBO_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.msr_base = HSWEP_CBO_MSR_BASE,
		.msr_stride = HSWEP_CBO_MSR_STRIDE,
		.box_ctl = 0x0,
		.box_status = 0x7,
		.ctl = {0x1, 0x2, 0x3, 0x4},
		.ctr = {0x8, 0x9, 0xa, 0xb},
		NO_FIXED,
		.num_filters = 2,
		.filters = cbo_filters,
		ROUTES(cbo_routes),
		.box_ctl_rules = MSR_BOX_CTL_RULES,
		.status_rules = {.valid = HSWEP_BOX_STATUS4_VALID},
		/* Table 2-16: tid_en 19; 21:20 and 16 reserved (no ov_en). */
		.ctl_rules = {.valid = HSWEP_CBO_SBO_CTL_VALID},
		.ctr_rules = MSR_CTR48,
	    },
	/* SBo (2.4, Table 2-44): instance n at 0x720 + 0xA n.  The table's row
	 * labels for counter/control 0 of SBo 1-3 are typos; addresses follow
	 * the formula and Table 1-2. */
	[HSWEP_BOX_SBO] =
	    {
		.name = "sbo",
		.title = "Ring Transfer (SBo)",
		.section = "2.4",
		.kind = HSWEP_BOX_SBO,
		.space = UNCORE_SPACE_MSR,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_SBO_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		/* 2.4.1 and 2.4.2.2 notes; one new BOX_CTL bit per write (H8) */
		.errata = HSWEP_ERRATUM_CTL_WRITE_TWICE | HSWEP_ERRATUM_BOX_CTL_ONE_BIT,
		.msr_base = HSWEP_SBO_MSR_BASE,
		.msr_stride = HSWEP_SBO_MSR_STRIDE,
		.box_ctl = 0x0,
		.box_status = 0x5,
		.ctl = {0x1, 0x2, 0x3, 0x4},
		.ctr = {0x6, 0x7, 0x8, 0x9},
		NO_FIXED,
		.box_ctl_rules = SBO_BOX_CTL_RULES,
		.status_rules = {.valid = HSWEP_BOX_STATUS4_VALID},
		.ctl_rules = {.valid = HSWEP_CBO_SBO_CTL_VALID},
		.ctr_rules = MSR_CTR48,
	    },
	/* HA (2.5, Table 2-60). */
	[HSWEP_BOX_HA] =
	    {
		.name = "ha",
		.title = "Home Agent (HA)",
		.section = "2.5",
		.kind = HSWEP_BOX_HA,
		.space = UNCORE_SPACE_PCI,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_HA_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		PCI_GENERIC_CTL,
		NO_FIXED,
		.pci_fn = {[HSWEP_FN_PMON] = ha_fn},
		.num_filters = 3,
		.filters = ha_filters,
		ROUTES(ha_routes),
		.box_ctl_rules = PCI_BOX_CTL_RULES,
		/* Table 2-62: ov 3:0, bit 4 must be 0, 31:5 ignored. */
		.status_rules = {.valid = F(3, 0), .ignored = F(31, 5)},
		.ctl_rules = PCI_CTL_RULES,
		.ctr_rules = PCI_CTR48,
		.global_status_bit = ha_gbit,
	    },
	/* iMC channel (2.6, Table 2-111): four counters and a DCLK fixed counter.
	 * Table 2-113 says both "bit 4 - overflow for CTR4" and "bit 0 -
	 * overflow for the fixed counter".  Decision: ov[3:0] are CTR3-0 as in
	 * every other box and ov[4] is the fixed counter (the fifth counter:
	 * there is no generic CTR4). */
	[HSWEP_BOX_IMC] =
	    {
		.name = "imc",
		.title = "Memory Controller (iMC) channel",
		.section = "2.6",
		.kind = HSWEP_BOX_IMC,
		.space = UNCORE_SPACE_PCI,
		.clock = HSWEP_CLK_DCLK,
		.max_instances = HSWEP_IMC_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		PCI_GENERIC_CTL,
		.fixed_ctl = 0xf0,
		.fixed_ctr = 0xd0,
		.pci_fn = {[HSWEP_FN_PMON] = imc_fn},
		.box_ctl_rules = PCI_BOX_CTL_RULES,
		.status_rules = {.valid = F(4, 0), .ignored = F(31, 6)},
		.ctl_rules = PCI_CTL_RULES,
		.ctr_rules = PCI_CTR48,
		/* Table 2-115: invert 23, en 22, ov_en 20, rst 19; 21 reserved;
		 * 31:24 and 18:0 ignored. */
		.fixed_ctl_rules = {.valid = HSWEP_MC_FIXED_CTL_INVERT | HSWEP_MC_FIXED_CTL_EN |
					     HSWEP_MC_FIXED_CTL_OV_EN | HSWEP_MC_FIXED_CTL_RST,
				    .ignored = F(31, 24) | F(18, 0)},
		.fixed_ctr_rules = PCI_CTR48,
		.fixed_status_bit = 4,
		.global_status_bit = imc_gbit,
		.fixed_global_status_bit = HSWEP_NO_BIT, /* the channel's ov_m bit is used */
	    },
	/* IRP (2.7, Table 2-144): two sets of two counters, numbered 0-3 here
	 * (IRP0 CTR0/1, IRP1 CTR0/1).  Counter offsets: Table 2-144 gives A0,
	 * B0, B8, C0 while Table 1-3 gives the ranges "B8-B0 & A8-A0".
	 * Decision: A0, A8, B0, B8 (Table 1-3), the 8-byte spacing of every
	 * other PCI box; the Linux kernel's HSX driver uses the same offsets on
	 * hardware.  Width: Table 2-148's description says "44-bit" but its
	 * field is 47:0 and 2.7.1 and Table 1-1 say 48: 48 it is.  Table 2-147
	 * lists bit 20 both as ov_en and inside "rsv 21:20": ov_en wins (2.7.1.1
	 * describes IRP_PCI_PMON_CTL.ov_en).  Bus: the IRP is an IIO function
	 * and sits on the package's root bus (00:05.6, 80:05.6 on real E5 v3
	 * boards; the Linux driver finds it there), not on the uncore bus
	 * Table 1-3's "bus 1" suggests. */
	[HSWEP_BOX_IRP] =
	    {
		.name = "irp",
		.title = "IIO coherency (IRP)",
		.section = "2.7",
		.kind = HSWEP_BOX_IRP,
		.space = UNCORE_SPACE_PCI,
		.bus = HSWEP_BUS_ROOT,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_IRP_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		PCI_GENERIC_CTL,
		NO_FIXED,
		.pci_fn = {[HSWEP_FN_PMON] = irp_fn},
		.box_ctl_rules = PCI_BOX_CTL_RULES,
		.status_rules = {.valid = F(3, 0), .ignored = F(31, 4)},
		.ctl_rules = PCI_CTL_RULES,
		.ctr_rules = PCI_CTR48,
		.global_status_bit = irp_gbit,
	    },
	/* PCU (2.8, Table 2-155). */
	[HSWEP_BOX_PCU] =
	    {
		.name = "pcu",
		.title = "Power Control (PCU)",
		.section = "2.8",
		.kind = HSWEP_BOX_PCU,
		.space = UNCORE_SPACE_MSR,
		.clock = HSWEP_CLK_PCLK,
		.max_instances = HSWEP_PCU_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 5,
		.msr_base = HSWEP_PCU_MSR_BASE,
		.box_ctl = 0x0,
		.box_status = 0x6,
		.ctl = {0x1, 0x2, 0x3, 0x4},
		.ctr = {0x7, 0x8, 0x9, 0xa},
		NO_FIXED,
		.num_filters = 1,
		.filters = pcu_filters,
		ROUTES(pcu_routes),
		.num_extras = 5,
		.extras = pcu_extras,
		.box_ctl_rules = MSR_BOX_CTL_RULES,
		.status_rules = {.valid = HSWEP_BOX_STATUS4_VALID},
		/* Table 2-158: no umask (13:8 reserved), occ_sel 15:14, ev_sel_ext
		 * 21, 5-bit thresh, occ_invert 30, occ_edge_det 31; 29, 19, 16
		 * reserved. */
		.ctl_rules = {.valid = HSWEP_PCU_CTL_VALID},
		.ctr_rules = MSR_CTR48,
		.global_status_bit = pcu_gbit,
	    },
	/* QPI port (2.9, Table 2-167). */
	[HSWEP_BOX_QPI] =
	    {
		.name = "qpi",
		.title = "Intel QPI Link Layer port",
		.section = "2.9",
		.kind = HSWEP_BOX_QPI,
		.space = UNCORE_SPACE_PCI,
		.clock = HSWEP_CLK_QFCLK,
		.max_instances = HSWEP_QPI_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.errata = HSWEP_ERRATUM_CTL_RST_STICKY, /* Table 2-170 .rst note */
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		PCI_GENERIC_CTL,
		NO_FIXED,
		.pci_fn = {[HSWEP_FN_PMON] = qpi_fn,
			   [HSWEP_FN_AUX] = qpi_mm_fn,
			   [HSWEP_FN_MISC] = qpi_misc_fn},
		.num_filters = 8,
		.filters = qpi_filters,
		ROUTES(qpi_routes),
		.num_extras = 3,
		.extras = qpi_extras,
		.box_ctl_rules = PCI_BOX_CTL_RULES,
		.status_rules = {.valid = F(3, 0), .ignored = F(31, 5)},
		/* Table 2-170: ev_sel_ext 21, ov_en 20, 19 ignored, 16 reserved. */
		.ctl_rules = {.valid = CTL_BASE | HSWEP_PMON_CTL_OV_EN | HSWEP_PMON_CTL_EV_SEL_EXT |
				       HSWEP_PMON_CTL_THRESH8,
			      .ignored = B(19)},
		.ctr_rules = PCI_CTR48,
		.global_status_bit = qpi_gbit,
	    },
	/* R2PCIe (2.10, Table 2-212).  Box control bits 31:9 are "ig" (Table
	 * 2-213): no must-be-1 bits.  CTL bit 21 is labelled "ig" but "SW must
	 * write to 0": treated as reserved. */
	[HSWEP_BOX_R2PCIE] =
	    {
		.name = "r2pcie",
		.title = "R2PCIe",
		.section = "2.10",
		.kind = HSWEP_BOX_R2PCIE,
		.space = UNCORE_SPACE_PCI,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_R2PCIE_INSTANCES,
		.num_counters = HSWEP_COUNTERS,
		.ctr_width = HSWEP_CTR_WIDTH,
		.thresh_bits = 8,
		.errata = HSWEP_ERRATUM_CTL_WRITE_TWICE, /* 2.10.2.2 note */
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		PCI_GENERIC_CTL,
		NO_FIXED,
		.pci_fn = {[HSWEP_FN_PMON] = r2pcie_fn},
		.box_ctl_rules = {.valid = BOX_CTL_BITS, .ignored = F(31, 9) | F(7, 2)},
		.status_rules = {.valid = F(3, 0), .ignored = F(31, 4)},
		.ctl_rules = PCI_CTL_RULES,
		.ctr_rules = PCI_CTR48,
		.global_status_bit = r2pcie_gbit,
	    },
	/* R3QPI link (2.11, Table 2-229): three counters.  Width: Table 2-233
	 * gives event_count 43:0 and "ig 63:44", consistently, while 2.11.1 and
	 * Table 1-1 say 48.  Decision: 44 bits, the field table being the
	 * register-level statement (the Linux kernel's HSX driver also uses 44
	 * for R3QPI on hardware).  Overflow is a carry out of bit 43. */
	[HSWEP_BOX_R3QPI] =
	    {
		.name = "r3qpi",
		.title = "R3QPI link",
		.section = "2.11",
		.kind = HSWEP_BOX_R3QPI,
		.space = UNCORE_SPACE_PCI,
		.clock = HSWEP_CLK_UCLK,
		.max_instances = HSWEP_R3QPI_INSTANCES,
		.num_counters = HSWEP_R3QPI_COUNTERS,
		.ctr_width = HSWEP_R3QPI_CTR_WIDTH,
		.thresh_bits = 8,
		.errata = HSWEP_ERRATUM_CTL_WRITE_TWICE, /* 2.11.1 and 2.11.2.2 notes */
		.box_ctl = 0xf4,
		.box_status = 0xf8,
		.ctl = {0xd8, 0xdc, 0xe0, HSWEP_NO_REG},
		.ctr = {0xa0, 0xa8, 0xb0, HSWEP_NO_REG},
		NO_FIXED,
		.pci_fn = {[HSWEP_FN_PMON] = r3qpi_fn},
		.box_ctl_rules = {.valid = BOX_CTL_BITS, .ignored = F(31, 9) | F(7, 2)},
		/* Table 2-231: ov 2:0, bit 3 must be 0, 31:4 ignored. */
		.status_rules = {.valid = F(2, 0), .ignored = F(31, 4)},
		.ctl_rules = PCI_CTL_RULES,
		.ctr_rules = {.valid = F(43, 0), .ignored = F(63, 44)},
		.global_status_bit = r3qpi_gbit,
		.global_status_also = HSWEP_BIT(HSWEP_U_GLOBAL_STATUS_OV_RQ),
	    },
};

/* Table 2-2: frz_all 31, wk_on_pmi 30, unfrz_all 29 and pmi_core_sel 17:0;
 * 28:27 "must write 0" and 26:18 reserved.  A 32-bit register (Table 2-1). */
const struct hswep_reg_rules hswep_global_ctl_rules = {.valid = HSWEP_U_GLOBAL_CTL_VALID};
/* Table 2-3: the RW1C ov_* bits; 63:36, 33:30 and 20:3 reserved. */
const struct hswep_reg_rules hswep_global_status_rules = {.valid = HSWEP_U_GLOBAL_STATUS_OV_ALL};
/* Table 2-4: num_c 4:0. */
const struct hswep_reg_rules hswep_global_config_rules = {.valid = HSWEP_U_GLOBAL_CONFIG_NUM_C};

const struct hswep_box_desc *hswep_box(enum hswep_box_kind kind)
{
	if ((unsigned)kind >= HSWEP_BOX_KINDS)
		return NULL;
	return &boxes[kind];
}

const struct hswep_box_desc *hswep_box_by_name(const char *name)
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++)
		if (name && strcmp(boxes[k].name, name) == 0)
			return &boxes[k];
	return NULL;
}

static uint16_t reg_offset(const struct hswep_box_desc *d, enum hswep_reg_kind kind, unsigned index,
			   uint8_t *role)
{
	*role = HSWEP_FN_PMON;
	switch (kind) {
	case HSWEP_REG_BOX_CTL:
		return d->box_ctl;
	case HSWEP_REG_BOX_STATUS:
		return d->box_status;
	case HSWEP_REG_CTL:
		return index < d->num_counters ? d->ctl[index] : HSWEP_NO_REG;
	case HSWEP_REG_CTR:
		return index < d->num_counters ? d->ctr[index] : HSWEP_NO_REG;
	case HSWEP_REG_FIXED_CTL:
		return d->fixed_ctl;
	case HSWEP_REG_FIXED_CTR:
		return d->fixed_ctr;
	case HSWEP_REG_FILTER:
		if (index >= d->num_filters)
			return HSWEP_NO_REG;
		*role = d->filters[index].fn_role;
		return d->filters[index].offset;
	case HSWEP_REG_EXTRA:
		if (index >= d->num_extras)
			return HSWEP_NO_REG;
		*role = d->extras[index].fn_role;
		return (uint16_t)d->extras[index].offset;
	default:
		return HSWEP_NO_REG;
	}
}

int hswep_reg(const struct hswep_box_desc *d, unsigned inst, enum hswep_reg_kind kind,
	      unsigned index, unsigned socket, unsigned bus, struct uncore_reg *out)
{
	if (!d || inst >= d->max_instances || (unsigned)kind >= HSWEP_REG_KINDS)
		return uncore_fail(UNCORE_EINVAL,
				   "hswep_reg: %s instance %u or register kind %d out of range",
				   d ? d->name : "(null)", inst, (int)kind);
	uint8_t role;
	uint16_t off = reg_offset(d, kind, index, &role);
	if (off == HSWEP_NO_REG)
		return uncore_fail(UNCORE_ENODEV,
				   "the %s box has no register of kind %d index %u (HSX PMON %s)",
				   d->name, (int)kind, index, d->section);
	struct uncore_reg r = {.space = d->space, .socket = (uint16_t)socket};
	if (d->space == UNCORE_SPACE_MSR) {
		r.width = 8;
		r.addr = kind == HSWEP_REG_EXTRA ? d->extras[index].offset
						 : d->msr_base + d->msr_stride * inst + off;
	} else {
		const struct hswep_pci_fn *fn = d->pci_fn[role];
		if (!fn)
			return uncore_fail(UNCORE_ENODEV,
					   "the %s box has no PCI function of role %u", d->name,
					   role);
		r.width = 4;
		r.bdf = UNCORE_BDF(bus, fn[inst].dev, fn[inst].fn);
		r.addr = off;
	}
	*out = r;
	return 0;
}

const struct hswep_reg_rules *hswep_reg_rules(const struct hswep_box_desc *d,
					      enum hswep_reg_kind kind, unsigned index)
{
	switch (kind) {
	case HSWEP_REG_BOX_CTL:
		return &d->box_ctl_rules;
	case HSWEP_REG_BOX_STATUS:
		return &d->status_rules;
	case HSWEP_REG_CTL:
		return &d->ctl_rules;
	case HSWEP_REG_CTR:
		return &d->ctr_rules;
	case HSWEP_REG_FIXED_CTL:
		return &d->fixed_ctl_rules;
	case HSWEP_REG_FIXED_CTR:
		return &d->fixed_ctr_rules;
	case HSWEP_REG_FILTER:
		return index < d->num_filters ? &d->filters[index].rules : NULL;
	case HSWEP_REG_EXTRA:
		return index < d->num_extras ? &d->extras[index].rules : NULL;
	default:
		return NULL;
	}
}

int hswep_box_regs(enum hswep_box_kind box, const struct hswep_box_at *at, unsigned nat,
		   struct hswep_reg_req *req, unsigned n)
{
	const struct hswep_box_desc *d = hswep_box(box);
	if (!d)
		return uncore_fail(UNCORE_EINVAL, "no Haswell-EP box kind %u", (unsigned)box);
	for (unsigned a = 0; a < nat; a++) {
		unsigned bus = hswep_box_bus(d, at[a].uncore_bus, at[a].root_bus);
		for (struct hswep_reg_req *q = &req[(size_t)a * n]; q < &req[(size_t)(a + 1) * n]; q++) {
			int rc = hswep_reg(d, at[a].inst, q->kind, q->index, at[a].socket, bus, &q->reg);
			if (rc < 0)
				return rc;
			const struct hswep_reg_rules *r = hswep_reg_rules(d, q->kind, q->index);
			q->writable = r ? r->valid | r->must1 : 0;
		}
	}
	return 0;
}

int hswep_check_write(const struct hswep_reg_rules *rules, uint64_t value, const char *what)
{
	uint64_t reserved = value & ~(rules->valid | rules->ignored | rules->must1);
	if (reserved)
		return uncore_fail(UNCORE_EFAULT,
				   "write of 0x%" PRIx64 " to %s sets reserved bits 0x%" PRIx64
				   " (allowed: 0x%" PRIx64 ")",
				   value, what, reserved,
				   rules->valid | rules->ignored | rules->must1);
	uint64_t missing = rules->must1 & ~value;
	if (missing)
		return uncore_fail(UNCORE_EFAULT,
				   "write of 0x%" PRIx64 " to %s leaves bits 0x%" PRIx64
				   " at 0; the manual says SW must write them as 1",
				   value, what, missing);
	return 0;
}

static int match_offset(const struct hswep_box_desc *d, uint8_t role, unsigned off, int msr,
			struct hswep_reg_loc *loc)
{
	if (off >= 0x1000) /* beyond config space and any MSR box's span */
		return UNCORE_ENODEV;
	/* For PCI, a 64-bit counter is two dwords: its offset and offset + 4. */
	for (unsigned half = 0; half < (msr ? 1u : 2u); half++) {
		unsigned o = off - 4 * half;
		loc->high = (uint8_t)half;
		if (role == HSWEP_FN_PMON) {
			if (!half && o == d->box_ctl) {
				loc->reg = HSWEP_REG_BOX_CTL;
				return 0;
			}
			if (!half && o == d->box_status) {
				loc->reg = HSWEP_REG_BOX_STATUS;
				return 0;
			}
			for (unsigned k = 0; k < d->num_counters; k++) {
				if (!half && o == d->ctl[k]) {
					loc->reg = HSWEP_REG_CTL;
					loc->index = (uint8_t)k;
					return 0;
				}
				if (o == d->ctr[k]) {
					loc->reg = HSWEP_REG_CTR;
					loc->index = (uint8_t)k;
					return 0;
				}
			}
			if (!half && o == d->fixed_ctl) {
				loc->reg = HSWEP_REG_FIXED_CTL;
				return 0;
			}
			if (o == d->fixed_ctr) {
				loc->reg = HSWEP_REG_FIXED_CTR;
				return 0;
			}
		}
		if (half)
			continue;
		for (unsigned k = 0; k < d->num_filters; k++)
			if (d->filters[k].fn_role == role && o == d->filters[k].offset) {
				loc->reg = HSWEP_REG_FILTER;
				loc->index = (uint8_t)k;
				return 0;
			}
		if (!msr)
			for (unsigned k = 0; k < d->num_extras; k++)
				if (d->extras[k].fn_role == role && o == d->extras[k].offset) {
					loc->reg = HSWEP_REG_EXTRA;
					loc->index = (uint8_t)k;
					return 0;
				}
	}
	return UNCORE_ENODEV;
}

int hswep_decode_msr(uint32_t msr, struct hswep_reg_loc *out)
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = &boxes[k];
		if (d->space != UNCORE_SPACE_MSR)
			continue;
		struct hswep_reg_loc loc = {.kind = (uint8_t)k};
		for (unsigned e = 0; e < d->num_extras; e++)
			if (d->extras[e].offset == msr) {
				loc.reg = HSWEP_REG_EXTRA;
				loc.index = (uint8_t)e;
				*out = loc;
				return 0;
			}
		if (msr < d->msr_base)
			continue;
		uint32_t rel = msr - d->msr_base;
		unsigned inst = d->msr_stride ? rel / d->msr_stride : 0;
		unsigned off = d->msr_stride ? rel % d->msr_stride : rel;
		if (inst >= d->max_instances)
			continue;
		loc.inst = (uint8_t)inst;
		if (match_offset(d, HSWEP_FN_PMON, off, 1, &loc) == 0) {
			*out = loc;
			return 0;
		}
	}
	return UNCORE_ENODEV;
}

int hswep_decode_pci_fn(unsigned dev, unsigned fn, uint8_t *kind, uint8_t *inst, uint8_t *role)
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = &boxes[k];
		for (unsigned r = 0; r < HSWEP_FN_ROLES; r++) {
			if (!d->pci_fn[r])
				continue;
			for (unsigned i = 0; i < d->max_instances; i++)
				if (d->pci_fn[r][i].dev == dev && d->pci_fn[r][i].fn == fn) {
					*kind = (uint8_t)k;
					*inst = (uint8_t)i;
					*role = (uint8_t)r;
					return 0;
				}
		}
	}
	return UNCORE_ENODEV;
}

int hswep_decode_pci(uint8_t kind, uint8_t inst, uint8_t role, unsigned offset,
		     struct hswep_reg_loc *out)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	if (!d || d->space != UNCORE_SPACE_PCI)
		return UNCORE_ENODEV;
	struct hswep_reg_loc loc = {.kind = kind, .inst = inst};
	if (match_offset(d, role, offset, 0, &loc) != 0)
		return UNCORE_ENODEV;
	*out = loc;
	return 0;
}

int hswep_reg_name(const struct hswep_reg_loc *loc, char *buf, size_t len)
{
	const struct hswep_box_desc *d = hswep_box(loc->kind);
	if (!d)
		return snprintf(buf, len, "?");
	switch (loc->reg) {
	case HSWEP_REG_BOX_CTL:
		return snprintf(buf, len, "%s%u.BOX_CTL", d->name, loc->inst);
	case HSWEP_REG_BOX_STATUS:
		return snprintf(buf, len, "%s%u.BOX_STATUS", d->name, loc->inst);
	case HSWEP_REG_CTL:
		return snprintf(buf, len, "%s%u.CTL%u", d->name, loc->inst, loc->index);
	case HSWEP_REG_CTR:
		return snprintf(buf, len, "%s%u.CTR%u%s", d->name, loc->inst, loc->index,
				loc->high ? ".hi" : "");
	case HSWEP_REG_FIXED_CTL:
		return snprintf(buf, len, "%s%u.FIXED_CTL", d->name, loc->inst);
	case HSWEP_REG_FIXED_CTR:
		return snprintf(buf, len, "%s%u.FIXED_CTR%s", d->name, loc->inst,
				loc->high ? ".hi" : "");
	case HSWEP_REG_FILTER:
		return snprintf(buf, len, "%s%u.%s", d->name, loc->inst,
				loc->index < d->num_filters ? d->filters[loc->index].name
							    : "FILTER?");
	case HSWEP_REG_EXTRA:
		return snprintf(buf, len, "%s%u.%s", d->name, loc->inst,
				loc->index < d->num_extras ? d->extras[loc->index].name : "EXTRA?");
	default:
		return snprintf(buf, len, "%s%u.?", d->name, loc->inst);
	}
}

const struct hswep_filter_route *hswep_filter_route(enum hswep_box_kind kind, unsigned filter)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	return d && filter < d->num_routes ? &d->routes[filter] : NULL;
}

unsigned hswep_filter_route_count(enum hswep_box_kind kind)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	return d ? d->num_routes : 0;
}
