/* Haswell-EP uncore MSRs and their writable bits, from the Intel Xeon E5/E7
 * v3 Uncore Performance Monitoring Reference Manual (seed 000): addresses
 * from Table 1-2 and the per-box register tables, masks from each register's
 * field table (bits marked RW, RW-V, WO or RW1C; reserved bits that "SW must
 * write to 1" are included, since a write must be able to set them).  This
 * is the only data file of utils/msr-safe-allowlist.  Box bases, strides,
 * instance counts and writable bits are the descriptors' own (hswep_regs.h);
 * tests/unit/platform/test_hswep_layout.c proves the table and the box
 * descriptors list the same MSRs with the same writable bits. */
#include "platform/msr_ranges.h"

#include "platform/hswep/hswep_regs.h"

/* The writable bits are the box descriptors' own write rules (valid and
 * must-be-1 bits), defined once in hswep_regs.h: a box control's rst_ctrl
 * 0, rst_ctrs 1, frz 8 and rsv 17:16 "SW must write to 1" (Tables 2-14,
 * 2-45, 2-156). */
#define HSWEP_CTR_MASK     HSWEP_MSR_CTR48_VALID
#define HSWEP_BOX_CTL_MASK (HSWEP_PMON_BOX_CTL_VALID | HSWEP_PMON_BOX_CTL_RSV_MUST1)
#define HSWEP_STATUS4_MASK HSWEP_BOX_STATUS4_VALID
/* CBo/SBo CTL: 21:20 are "Reserved; SW must write to 0" (Tables 2-16,
 * 2-47), so ov_en is not writable there, whatever 2.1.1 says of overflow in
 * general.  We never need it: counters are polled. */
#define HSWEP_CBO_CTL_MASK HSWEP_CBO_SBO_CTL_VALID

/* One register block per entry reads better than one field per line. */
/* clang-format off */
static const struct uncore_msr_range hswep_ranges[] = {
	/* Global control (2.1.5, Tables 2-1 to 2-4). */
	{.name = "U_MSR_PMON_GLOBAL_CTL", .source = "HSX PMON Table 2-2", .base = 0x700,
	 .count = 1, .instances = 1,
	 /* pmi_core_sel 17:0, unfrz_all 29, wk_on_pmi 30, frz_all 31 */
	 .write_mask = HSWEP_U_GLOBAL_CTL_VALID},
	{.name = "U_MSR_PMON_GLOBAL_STATUS", .source = "HSX PMON Table 2-3", .base = 0x701,
	 .count = 1, .instances = 1,
	 /* RW1C: ov_u_fixed 0, ov_u 1, ov_p 2, ov_h0..ov_rp 21-29, ov_irp 34, ov_rq 35 */
	 .write_mask = HSWEP_U_GLOBAL_STATUS_OV_ALL},
	/* num_c 4:0 is RW but sets how many CBo counter sets exist: not a
	 * monitoring operation, so read-only here by choice. */
	{.name = "U_MSR_PMON_GLOBAL_CONFIG", .source = "HSX PMON Table 2-4", .base = 0x702,
	 .count = 1, .instances = 1, .write_mask = 0},

	/* UBox (2.2.2, Table 2-5). */
	{.name = "U_MSR_PMON_UCLK_FIXED_CTL", .source = "HSX PMON Table 2-9", .base = 0x703,
	 .count = 1, .instances = 1, .write_mask = HSWEP_U_FIXED_CTL_VALID /* ov_en 20, en 22 */},
	{.name = "U_MSR_PMON_UCLK_FIXED_CTR", .source = "HSX PMON Table 2-10", .base = 0x704,
	 .count = 1, .instances = 1, .write_mask = HSWEP_CTR_MASK},
	{.name = "U_MSR_PMON_CTL{0-1}", .source = "HSX PMON Table 2-7", .base = 0x705, .count = 2,
	 .instances = 1,
	 /* ev_sel, umask, rst 17, edge_det 18, ov_en 20, en 22, invert 23, thresh 28:24 */
	 .write_mask = HSWEP_UBOX_CTL_VALID},
	{.name = "U_MSR_PMON_BOX_STATUS", .source = "HSX PMON Table 2-6", .base = 0x708,
	 .count = 1, .instances = 1, .write_mask = HSWEP_UBOX_STATUS_VALID /* ov 1:0 RW1C */},
	{.name = "U_MSR_PMON_CTR{0-1}", .source = "HSX PMON Table 2-8", .base = 0x709, .count = 2,
	 .instances = 1, .write_mask = HSWEP_CTR_MASK},

	/* PCU (2.8.2, Table 2-155). */
	{.name = "PCU_MSR_PMON_BOX_CTL", .source = "HSX PMON Table 2-156", .base = 0x710,
	 .count = 1, .instances = 1, .write_mask = HSWEP_BOX_CTL_MASK},
	{.name = "PCU_MSR_PMON_CTL{0-3}", .source = "HSX PMON Table 2-158", .base = 0x711,
	 .count = 4, .instances = 1,
	 /* ev_sel 7:0, occ_sel 15:14, rst 17, edge_det 18, ov_en 20, ev_sel_ext
	  * 21, en 22, invert 23, thresh 28:24, occ_invert 30, occ_edge_det 31 */
	 .write_mask = HSWEP_PCU_CTL_VALID},
	{.name = "PCU_MSR_PMON_BOX_FILTER", .source = "HSX PMON Table 2-160", .base = 0x715,
	 .count = 1, .instances = 1, .write_mask = HSWEP_PCU_FILTER_VALID /* four 8-bit bands */},
	{.name = "PCU_MSR_PMON_BOX_STATUS", .source = "HSX PMON Table 2-157", .base = 0x716,
	 .count = 1, .instances = 1, .write_mask = HSWEP_STATUS4_MASK},
	{.name = "PCU_MSR_PMON_CTR{0-3}", .source = "HSX PMON Table 2-159", .base = 0x717,
	 .count = 4, .instances = 1, .write_mask = HSWEP_CTR_MASK},
	/* Free-running C-state residency counters, RO-V (Tables 2-161 to
	 * 2-164); Table 1-2 lists 0x3F9 among them without naming it. */
	{.name = "PCU_MSR_CORE_PC3_CTR", .source = "HSX PMON Table 2-164", .base = 0x3f8,
	 .count = 1, .instances = 1, .write_mask = 0},
	{.name = "free-running C-state counter", .source = "HSX PMON Table 1-2", .base = 0x3f9,
	 .count = 1, .instances = 1, .write_mask = 0},
	{.name = "PCU_MSR_CORE_CC3_CTR", .source = "HSX PMON Table 2-162", .base = 0x3fc,
	 .count = 1, .instances = 1, .write_mask = 0},
	{.name = "PCU_MSR_CORE_CC6_CTR", .source = "HSX PMON Table 2-161", .base = 0x3fd,
	 .count = 1, .instances = 1, .write_mask = 0},
	{.name = "PCU_MSR_CORE_PC2_CTR", .source = "HSX PMON Table 2-163", .base = 0x60d,
	 .count = 1, .instances = 1, .write_mask = 0},

	/* SBo 0-3 at 0x720 + 0xA * n (Tables 1-2, 2-44). */
	{.name = "Sn_MSR_PMON_BOX_CTL", .source = "HSX PMON Table 2-45", .base = HSWEP_SBO_MSR_BASE,
	 .stride = HSWEP_SBO_MSR_STRIDE, .count = 1, .instances = HSWEP_SBO_INSTANCES, .write_mask = HSWEP_BOX_CTL_MASK},
	{.name = "Sn_MSR_PMON_CTL{0-3}", .source = "HSX PMON Table 2-47", .base = HSWEP_SBO_MSR_BASE + 0x1,
	 .stride = HSWEP_SBO_MSR_STRIDE, .count = 4, .instances = HSWEP_SBO_INSTANCES, .write_mask = HSWEP_CBO_CTL_MASK},
	{.name = "Sn_MSR_PMON_BOX_STATUS", .source = "HSX PMON Table 2-46", .base = HSWEP_SBO_MSR_BASE + 0x5,
	 .stride = HSWEP_SBO_MSR_STRIDE, .count = 1, .instances = HSWEP_SBO_INSTANCES, .write_mask = HSWEP_STATUS4_MASK},
	{.name = "Sn_MSR_PMON_CTR{0-3}", .source = "HSX PMON Table 2-48", .base = HSWEP_SBO_MSR_BASE + 0x6,
	 .stride = HSWEP_SBO_MSR_STRIDE, .count = 4, .instances = HSWEP_SBO_INSTANCES, .write_mask = HSWEP_CTR_MASK},

	/* CBo 0-17 at 0xE00 + 0x10 * n (Tables 1-2, 2-13). */
	{.name = "Cn_MSR_PMON_BOX_CTL", .source = "HSX PMON Table 2-14", .base = HSWEP_CBO_MSR_BASE,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 1, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_BOX_CTL_MASK},
	{.name = "Cn_MSR_PMON_CTL{0-3}", .source = "HSX PMON Table 2-16", .base = HSWEP_CBO_MSR_BASE + 0x1,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 4, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_CBO_CTL_MASK},
	/* tid 5:0 (its Attr column is garbled to "0"; it is the TID filter
	 * software programs, 2.3.2.3), state 23:17 */
	{.name = "Cn_MSR_PMON_BOX_FILTER0", .source = "HSX PMON Table 2-18", .base = HSWEP_CBO_MSR_BASE + 0x5,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 1, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_CBO_FILTER0_VALID},
	/* nid 15:0, opc 28:20, nc 30, isoc 31 (the "rsv 19:15" row overlaps nid
	 * 15:0 and is read as 19:16) */
	{.name = "Cn_MSR_PMON_BOX_FILTER1", .source = "HSX PMON Table 2-19", .base = HSWEP_CBO_MSR_BASE + 0x6,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 1, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_CBO_FILTER1_VALID},
	{.name = "Cn_MSR_PMON_BOX_STATUS", .source = "HSX PMON Table 2-15", .base = HSWEP_CBO_MSR_BASE + 0x7,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 1, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_STATUS4_MASK},
	{.name = "Cn_MSR_PMON_CTR{0-3}", .source = "HSX PMON Table 2-17", .base = HSWEP_CBO_MSR_BASE + 0x8,
	 .stride = HSWEP_CBO_MSR_STRIDE, .count = 4, .instances = HSWEP_CBO_INSTANCES, .write_mask = HSWEP_CTR_MASK},
};
/* clang-format on */

const struct uncore_msr_table uncore_hswep_msr_table = {
    .platform = "hswep",
    .title = "Intel Xeon E5/E7 v3 (Haswell-EP) uncore PMON",
    .ranges = hswep_ranges,
    .nranges = sizeof(hswep_ranges) / sizeof(hswep_ranges[0]),
};
