/* Haswell-EP (Xeon E5/E7 v3) uncore PMON register fields, as masks and
 * shifts named after the fields of the Uncore Performance Monitoring
 * Reference Manual (331051-002, June 2015; "HSX PMON" below), and the box
 * geometry.  The one definition used by the box descriptors, the event
 * registry (events/registry_hswep.c), the MSR allowlist, the direct backend
 * and the simulator alike. */
#ifndef UNCORE_HSWEP_REGS_H
#define UNCORE_HSWEP_REGS_H

#include <stdint.h>

#define HSWEP_BIT(n)        (UINT64_C(1) << (n))
#define HSWEP_FIELD(hi, lo) (((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo))

/* Box geometry (HSX PMON Table 1-1 and each box's register list): most
 * instances per package, generic counters per instance, counter width.  The
 * R3QPI counters are 44 bits (Table 2-233; decision in hswep_boxes.c). */
#define HSWEP_UBOX_INSTANCES   1
#define HSWEP_UBOX_COUNTERS    2
#define HSWEP_CBO_INSTANCES    18
#define HSWEP_SBO_INSTANCES    4
#define HSWEP_HA_INSTANCES     2
#define HSWEP_IMC_INSTANCES    8
#define HSWEP_IRP_INSTANCES    1
#define HSWEP_PCU_INSTANCES    1
#define HSWEP_QPI_INSTANCES    3
#define HSWEP_R2PCIE_INSTANCES 1
#define HSWEP_R3QPI_INSTANCES  3
#define HSWEP_R3QPI_COUNTERS   3
#define HSWEP_COUNTERS         4 /* every other box */
#define HSWEP_CTR_WIDTH        48
#define HSWEP_R3QPI_CTR_WIDTH  44
/* UBox and SBo counts are folded at 44 bits, not 48 (why: events/registry_hswep.c). */
#define HSWEP_UBOX_SBO_FOLD_WIDTH 44

/* MSR boxes: register n of instance i at BASE + STRIDE * i + n (Table 1-2). */
#define HSWEP_UBOX_MSR_BASE  0x700u
#define HSWEP_PCU_MSR_BASE   0x710u
#define HSWEP_SBO_MSR_BASE   0x720u
#define HSWEP_SBO_MSR_STRIDE 0xau
#define HSWEP_CBO_MSR_BASE   0xe00u
#define HSWEP_CBO_MSR_STRIDE 0x10u

/* Counter control, common layout (HSX PMON 1.4; Tables 2-7, 2-16, 2-47, 2-63,
 * 2-114, 2-147, 2-158, 2-170, 2-215, 2-232).  Which of the optional bits a
 * box has is in its descriptor's valid mask. */
#define HSWEP_PMON_CTL_EV_SEL       HSWEP_FIELD(7, 0)
#define HSWEP_PMON_CTL_EV_SEL_SHIFT 0
#define HSWEP_PMON_CTL_UMASK        HSWEP_FIELD(15, 8)
#define HSWEP_PMON_CTL_UMASK_SHIFT  8
#define HSWEP_PMON_CTL_RST          HSWEP_BIT(17)
#define HSWEP_PMON_CTL_EDGE_DET     HSWEP_BIT(18)
#define HSWEP_PMON_CTL_TID_EN       HSWEP_BIT(19) /* CBo, SBo (Tables 2-16, 2-47) */
#define HSWEP_PMON_CTL_OV_EN        HSWEP_BIT(20) /* not CBo/SBo: bits 21:20 reserved there */
#define HSWEP_PMON_CTL_EV_SEL_EXT   HSWEP_BIT(21) /* QPI, PCU (Tables 2-170, 2-158) */
#define HSWEP_PMON_CTL_EN           HSWEP_BIT(22)
#define HSWEP_PMON_CTL_INVERT       HSWEP_BIT(23)
#define HSWEP_PMON_CTL_THRESH_SHIFT 24
#define HSWEP_PMON_CTL_THRESH8      HSWEP_FIELD(31, 24) /* CBo, SBo, HA, iMC, IRP, QPI, R2, R3 */
#define HSWEP_PMON_CTL_THRESH5      HSWEP_FIELD(28, 24) /* UBox (Table 2-7), PCU (Table 2-158) */

/* Writable bits of the MSR boxes' registers, from their field tables: the
 * one definition the box descriptors' write rules (hswep_boxes.c) and the
 * MSR allowlist ranges (hswep_msr_ranges.c) are both made of. */
#define HSWEP_PMON_CTL_COMMON                                                                      \
	(HSWEP_PMON_CTL_EV_SEL | HSWEP_PMON_CTL_UMASK | HSWEP_PMON_CTL_RST |                       \
	 HSWEP_PMON_CTL_EDGE_DET | HSWEP_PMON_CTL_EN | HSWEP_PMON_CTL_INVERT) /* 1.4: every box */
/* CBo, SBo: tid_en 19; 21:20 and 16 reserved, so no ov_en (Tables 2-16, 2-47). */
#define HSWEP_CBO_SBO_CTL_VALID                                                                    \
	(HSWEP_PMON_CTL_COMMON | HSWEP_PMON_CTL_TID_EN | HSWEP_PMON_CTL_THRESH8)
/* UBox: ov_en 20, 5-bit thresh; 31:29, 21, 19, 16 reserved (Table 2-7). */
#define HSWEP_UBOX_CTL_VALID (HSWEP_PMON_CTL_COMMON | HSWEP_PMON_CTL_OV_EN | HSWEP_PMON_CTL_THRESH5)
/* MSR data registers: event_count 47:0, 63:48 reserved (Tables 2-8, 2-10,
 * 2-17, 2-48, 2-159). */
#define HSWEP_MSR_CTR48_VALID HSWEP_FIELD(47, 0)
/* BOX_STATUS: ov RW1C, one bit per counter (Tables 2-6, 2-15, 2-46, 2-157). */
#define HSWEP_UBOX_STATUS_VALID HSWEP_FIELD(1, 0)
#define HSWEP_BOX_STATUS4_VALID HSWEP_FIELD(3, 0)
/* PCU_MSR_PMON_BOX_FILTER: four 8-bit bands in 31:0 (Table 2-160). */
#define HSWEP_PCU_FILTER_VALID HSWEP_FIELD(31, 0)

/* PCU counter control extras (HSX PMON 2.8.2.2, Table 2-158). */
#define HSWEP_PCU_CTL_OCC_SEL       HSWEP_FIELD(15, 14)
#define HSWEP_PCU_CTL_OCC_SEL_SHIFT 14
#define HSWEP_PCU_CTL_OCC_INVERT    HSWEP_BIT(30)
#define HSWEP_PCU_CTL_OCC_EDGE_DET  HSWEP_BIT(31)
#define HSWEP_PCU_EV_SEL_OCC        0x80u /* ev_sel[7]: occupancy sub-counter event */
#define HSWEP_PCU_OCC_SEL_C0        1u
#define HSWEP_PCU_OCC_SEL_C3        2u
#define HSWEP_PCU_OCC_SEL_C6        3u
/* PCU counter control: no umask (13:8 reserved), occ_sel 15:14, ev_sel_ext
 * 21, 5-bit thresh, occ_invert 30, occ_edge_det 31; 29, 19, 16 reserved. */
#define HSWEP_PCU_CTL_VALID                                                                        \
	(HSWEP_PMON_CTL_EV_SEL | HSWEP_PCU_CTL_OCC_SEL | HSWEP_PMON_CTL_RST |                      \
	 HSWEP_PMON_CTL_EDGE_DET | HSWEP_PMON_CTL_OV_EN | HSWEP_PMON_CTL_EV_SEL_EXT |              \
	 HSWEP_PMON_CTL_EN | HSWEP_PMON_CTL_INVERT | HSWEP_PMON_CTL_THRESH5 |                      \
	 HSWEP_PCU_CTL_OCC_INVERT | HSWEP_PCU_CTL_OCC_EDGE_DET)

/* Box control (Tables 2-14, 2-45, 2-61, 2-112, 2-145, 2-156, 2-168, 2-213,
 * 2-230). */
#define HSWEP_PMON_BOX_CTL_RST_CTRL HSWEP_BIT(0)
#define HSWEP_PMON_BOX_CTL_RST_CTRS HSWEP_BIT(1)
#define HSWEP_PMON_BOX_CTL_FRZ      HSWEP_BIT(8)
/* "Reserved; SW must write to 1 else behavior is undefined" (all but R2PCIe
 * and R3QPI, whose bits 31:9 are "ignored"). */
#define HSWEP_PMON_BOX_CTL_RSV_MUST1 HSWEP_FIELD(17, 16)
/* The one of them Linux sets on the SBo (SNB-EP's frz_en, bit 16: kernel
 * hswep_uncore_sbox_msr_init_box writes 0x1, 0x3, 0x10003, never bit 17;
 * HARDWARE-DECISIONS.md H8). */
#define HSWEP_SBO_BOX_CTL_KERNEL_BIT16 HSWEP_BIT(16)
#define HSWEP_PMON_BOX_CTL_VALID                                                                   \
	(HSWEP_PMON_BOX_CTL_RST_CTRL | HSWEP_PMON_BOX_CTL_RST_CTRS | HSWEP_PMON_BOX_CTL_FRZ)

/* UBox fixed counter control (Table 2-9) and iMC fixed counter control
 * (Table 2-115). */
#define HSWEP_U_FIXED_CTL_EN      HSWEP_BIT(22)
#define HSWEP_U_FIXED_CTL_OV_EN   HSWEP_BIT(20)
#define HSWEP_U_FIXED_CTL_VALID   (HSWEP_U_FIXED_CTL_EN | HSWEP_U_FIXED_CTL_OV_EN) /* Table 2-9 */
#define HSWEP_MC_FIXED_CTL_INVERT HSWEP_BIT(23)
#define HSWEP_MC_FIXED_CTL_EN     HSWEP_BIT(22)
#define HSWEP_MC_FIXED_CTL_OV_EN  HSWEP_BIT(20)
#define HSWEP_MC_FIXED_CTL_RST    HSWEP_BIT(19)

/* Global control MSRs (HSX PMON 2.1.5, Tables 2-1 to 2-4). */
#define HSWEP_U_MSR_PMON_GLOBAL_CTL     0x700u
#define HSWEP_U_MSR_PMON_GLOBAL_STATUS  0x701u
#define HSWEP_U_MSR_PMON_GLOBAL_CONFIG  0x702u
#define HSWEP_U_GLOBAL_CTL_FRZ_ALL      HSWEP_BIT(31)
#define HSWEP_U_GLOBAL_CTL_WK_ON_PMI    HSWEP_BIT(30)
#define HSWEP_U_GLOBAL_CTL_UNFRZ_ALL    HSWEP_BIT(29)
#define HSWEP_U_GLOBAL_CTL_RSV_MUST0    HSWEP_FIELD(28, 27)
#define HSWEP_U_GLOBAL_CTL_PMI_CORE_SEL HSWEP_FIELD(17, 0)
#define HSWEP_U_GLOBAL_CTL_VALID                                                                   \
	(HSWEP_U_GLOBAL_CTL_FRZ_ALL | HSWEP_U_GLOBAL_CTL_WK_ON_PMI |                               \
	 HSWEP_U_GLOBAL_CTL_UNFRZ_ALL | HSWEP_U_GLOBAL_CTL_PMI_CORE_SEL) /* Table 2-2 */
#define HSWEP_U_GLOBAL_STATUS_OV_U_FIXED 0
#define HSWEP_U_GLOBAL_STATUS_OV_U       1
#define HSWEP_U_GLOBAL_STATUS_OV_P       2
#define HSWEP_U_GLOBAL_STATUS_OV_H0      21
#define HSWEP_U_GLOBAL_STATUS_OV_H1      22
#define HSWEP_U_GLOBAL_STATUS_OV_M0      23
#define HSWEP_U_GLOBAL_STATUS_OV_M1      24
#define HSWEP_U_GLOBAL_STATUS_OV_Q0      25
#define HSWEP_U_GLOBAL_STATUS_OV_Q1      26
#define HSWEP_U_GLOBAL_STATUS_OV_RQ0     27
#define HSWEP_U_GLOBAL_STATUS_OV_RQ1     28
#define HSWEP_U_GLOBAL_STATUS_OV_RP      29
#define HSWEP_U_GLOBAL_STATUS_OV_IRP     34
#define HSWEP_U_GLOBAL_STATUS_OV_RQ      35
#define HSWEP_U_GLOBAL_STATUS_OV_ALL     (HSWEP_FIELD(2, 0) | HSWEP_FIELD(29, 21) | HSWEP_FIELD(35, 34))
#define HSWEP_U_GLOBAL_CONFIG_NUM_C      HSWEP_FIELD(4, 0)

/* CBo filters (HSX PMON 2.3.2.3, Tables 2-18 and 2-19). */
#define HSWEP_CBO_FILTER0_TID         HSWEP_FIELD(5, 0)
#define HSWEP_CBO_FILTER0_TID_THREAD  HSWEP_BIT(0)      /* tid[0]: thread 1/0 */
#define HSWEP_CBO_FILTER0_TID_CORE    HSWEP_FIELD(5, 1) /* tid[4:1] core, tid[5] non-thread data */
#define HSWEP_CBO_FILTER0_STATE       HSWEP_FIELD(23, 17)
#define HSWEP_CBO_FILTER0_STATE_SHIFT 17
#define HSWEP_CBO_FILTER1_NID         HSWEP_FIELD(15, 0)
#define HSWEP_CBO_FILTER1_OPC         HSWEP_FIELD(28, 20)
#define HSWEP_CBO_FILTER1_OPC_SHIFT   20
#define HSWEP_CBO_FILTER1_NC          HSWEP_BIT(30)
#define HSWEP_CBO_FILTER1_ISOC        HSWEP_BIT(31)
/* Table 2-18: tid 5:0, state 23:17; Table 2-19: nid 15:0, opc 28:20, nc 30,
 * isoc 31 (the "rsv 19:15" row overlaps nid 15:0; nid wins). */
#define HSWEP_CBO_FILTER0_VALID (HSWEP_CBO_FILTER0_TID | HSWEP_CBO_FILTER0_STATE)
#define HSWEP_CBO_FILTER1_VALID                                                                    \
	(HSWEP_CBO_FILTER1_NID | HSWEP_CBO_FILTER1_OPC | HSWEP_CBO_FILTER1_NC |                    \
	 HSWEP_CBO_FILTER1_ISOC)
/* Bit positions inside FILTER0.state, from the LLC_LOOKUP note (2.3.6:
 * "0 = I (miss), 1 = S, 2 = E, 3 = M, 4 = F").  Table 2-18's own list of the
 * seven state bits is garbled in the manual (it names M and S twice), so the
 * event note is the source; bits 5 and 6 are left unnamed. */
#define HSWEP_CBO_STATE_I 0x01u
#define HSWEP_CBO_STATE_S 0x02u
#define HSWEP_CBO_STATE_E 0x04u
#define HSWEP_CBO_STATE_M 0x08u
#define HSWEP_CBO_STATE_F 0x10u
/* FILTER0.tid: [5] non-thread related, [4:1] core, [0] thread; 0x3F is the
 * ID of requests not associated with a thread (Table 2-18). */
#define HSWEP_CBO_TID_NONE 0x3fu

/* HA address/opcode match (HSX PMON 2.5.1.3, Tables 2-65 to 2-67). */
#define HSWEP_HA_OPCODEMATCH_OPC    HSWEP_FIELD(5, 0)
#define HSWEP_HA_ADDRMATCH1_HI_ADDR HSWEP_FIELD(13, 0) /* PA[45:32] */
#define HSWEP_HA_ADDRMATCH0_LO_ADDR HSWEP_FIELD(31, 6) /* PA[31:6] */

/* A register pair {1,0} as one 64-bit logical filter of the event registry
 * (as Linux perf's config1/config2 carry them): the "1" register's fields
 * in 63:32.  The direct backend splits it back (the box's filter routes). */
#define HSWEP_PAIR_HI(m) ((uint64_t)(m) << 32)
/* HA address match {ADDRMATCH1,ADDRMATCH0}: the physical address bits 45:6 in place. */
#define HSWEP_HA_ADDRMATCH_ADDR                                                                    \
	(HSWEP_HA_ADDRMATCH0_LO_ADDR | HSWEP_PAIR_HI(HSWEP_HA_ADDRMATCH1_HI_ADDR))

/* QPI packet mask/match (HSX PMON 2.9.2.3, Tables 2-172 to 2-175): MATCH0
 * and MASK0 share one layout, MATCH1 and MASK1 another. */
#define HSWEP_QPI_PKT0_RNID_4     HSWEP_BIT(31)
#define HSWEP_QPI_PKT0_DNID       HSWEP_FIELD(17, 13)
#define HSWEP_QPI_PKT0_DNID_SHIFT 13
#define HSWEP_QPI_PKT0_MC         HSWEP_FIELD(12, 9)
#define HSWEP_QPI_PKT0_MC_SHIFT   9
#define HSWEP_QPI_PKT0_OPC        HSWEP_FIELD(8, 5)
#define HSWEP_QPI_PKT0_OPC_SHIFT  5
#define HSWEP_QPI_PKT0_VNW        HSWEP_FIELD(4, 3)
#define HSWEP_QPI_PKT0_VNW_SHIFT  3
#define HSWEP_QPI_PKT1_RDS        HSWEP_FIELD(19, 16)
#define HSWEP_QPI_PKT1_RDS_SHIFT  16
#define HSWEP_QPI_PKT1_RNID_3_0   HSWEP_FIELD(3, 0)
/* The same fields in the logical {MATCH1,MATCH0} (or {MASK1,MASK0}) value. */
#define HSWEP_QPI_PKT_VNW      HSWEP_QPI_PKT0_VNW
#define HSWEP_QPI_PKT_OPC      HSWEP_QPI_PKT0_OPC
#define HSWEP_QPI_PKT_MC       HSWEP_QPI_PKT0_MC
#define HSWEP_QPI_PKT_DNID     HSWEP_QPI_PKT0_DNID
#define HSWEP_QPI_PKT_RNID_4   HSWEP_QPI_PKT0_RNID_4
#define HSWEP_QPI_PKT_RNID_3_0 HSWEP_PAIR_HI(HSWEP_QPI_PKT1_RNID_3_0)
#define HSWEP_QPI_PKT_RDS      HSWEP_PAIR_HI(HSWEP_QPI_PKT1_RDS)
/* QPI_RATE_STATUS (Table 2-177): 011 6.4, 100 7.2, 101 8.0, 111 9.6 GT/s. */
#define HSWEP_QPI_RATE_STATUS_RATE HSWEP_FIELD(2, 0)

/* PCU band filter (Table 2-160): band k in bits 8k+7:8k, in 100 MHz units. */
#define HSWEP_PCU_FILTER_BAND(k)       (HSWEP_FIELD(7, 0) << (8 * (k)))
#define HSWEP_PCU_FILTER_BAND_SHIFT(k) (8 * (k))

/* PCI identity of the uncore devices. */
#define HSWEP_PCI_VENDOR_INTEL 0x8086u
/* The UBox "socket ID" device used for bus discovery (HSX PMON 1.6.1).  The
 * converted manual lost the value of HASWELL_SERVER_SOCKETID_UBOX_DID; 0x2F1E
 * at device 16 function 5 is the Haswell-EP UBox device as listed by lspci
 * and used by the Linux kernel's hswep_uncore_pci_init() (fact only). */
#define HSWEP_UBOX_SOCKETID_DEV 16u
#define HSWEP_UBOX_SOCKETID_FN  5u
#define HSWEP_UBOX_SOCKETID_DID 0x2f1eu
/* PCU capability function (not in the manual; Linux hswep_has_limit_sbox,
 * pci.ids "Xeon E5 v3/Core i7 Power Control Unit" 8086:2fc0 at D30:F3):
 * CAPID4.chop 7:6 is 0 on the 6-8 core die, which has two SBos. */
#define HSWEP_PCU_CAPID_DEV       30u
#define HSWEP_PCU_CAPID_FN        3u
#define HSWEP_PCU_CAPID_DID       0x2fc0u
#define HSWEP_PCU_CAPID4          0x94u
#define HSWEP_PCU_CAPID4_CHOP     HSWEP_FIELD(7, 6)
#define HSWEP_UBOX_CPUNODEID      0x40u /* UNC_SOCKETID_UBOX_LNID_OFFSET */
#define HSWEP_UBOX_GIDNIDMAP      0x54u /* UNC_SOCKETID_UBOX_GID_OFFSET */
#define HSWEP_UBOX_CPUNODEID_LNID HSWEP_FIELD(2, 0)
/* GIDNIDMAP: three bits per package, bits 3p+2:3p hold package p's node ID. */
#define HSWEP_UBOX_GIDNIDMAP_NODE(p)  (HSWEP_FIELD(2, 0) << (3 * (p)))
#define HSWEP_UBOX_GIDNIDMAP_SHIFT(p) (3 * (p))
#define HSWEP_MAX_PACKAGES            8

#endif
