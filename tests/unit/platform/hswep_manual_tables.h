/* Haswell-EP register maps of the manual, for the validator tests: Table 1-2
 * (MSR space) and Table 1-3 (PCI config space) of the Intel Xeon E5/E7 v3
 * Uncore Performance Monitoring Reference Manual (seed 000), cell by cell.
 * The tests hold the box descriptors, the event registry and the MSR
 * allowlist to them. */
#ifndef UNCORE_TEST_HSWEP_MANUAL_TABLES_H
#define UNCORE_TEST_HSWEP_MANUAL_TABLES_H

#include <stdint.h>

#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

/* HSX PMON Table 1-2 "MSR Space Uncore Performance Monitoring Registers",
 * the MSR Addresses column, sheets 1-3 in order. */
/* clang-format off */
static const char *const table_1_2[] = {
	"0xF1B-0xF18", "0xF15,0xF16", "0xF14-0xF11", "0xF10,0xF17", "0xF0B-0xF08",
	"0xF05,0xF06", "0xF04-0xF01", "0xF00,0xF07", "0xEFB-0xEF8", "0xEF5,0xEF6",
	"0xEF4-0xEF1", "0xEF0,0xEF7", "0xEEB-0xEE8", "0xEE5,0xEE6", "0xEE4-0xEE1",
	"0xEE0,0xEE7", "0xEDB-0xED8", "0xED5,0xED6", "0xED4-0xED1", "0xED0,0xED7",
	"0xECB-0xEC8", "0xEC5,0xEC6", "0xEC4-0xEC1", "0xEC0,0xEC7", "0xEBB-0xEB8",
	"0xEB5,0xEB6", "0xEB4-0xEB1", "0xEB0,0xEB7", "0xEAB-0xEA8", "0xEA5,0xEA6",
	"0xEA4-0xEA1", "0xEA0,0xEA7", "0xE9B-0xE98", "0xE95,0xE96", "0xE94-0xE91",
	"0xE90,0xE97", "0xE8B-0xE88", "0xE85,0xE86", "0xE84-0xE81", "0xE80,0xE87",
	"0xE7B-0xE78", "0xE75,0xE76", "0xE74-0xE71", "0xE70,0xE77", "0xE6B-0xE68",
	"0xE65,0xE66", "0xE64-0xE61", "0xE60,0xE67", "0xE5B-0xE58", "0xE55,0xE56",
	"0xE54-0xE51", "0xE50,0xE57", "0xE4B-0xE48", "0xE45,0xE46", "0xE44-0xE41",
	"0xE40,0xE47", "0xE3B-0xE38", "0xE35,0xE36", "0xE34-0xE31", "0xE30,0xE37",
	"0xE2B-0xE28", "0xE25,0xE26", "0xE24-0xE21", "0xE20,0xE27", "0xE1B-0xE18",
	"0xE15,0xE16", "0xE14-0xE11", "0xE10,0xE17", "0xE0B-0xE08", "0xE05,0xE06",
	"0xE04-0xE01", "0xE00,0xE07", "0x747-0x744", "0x742-0x73F", "0x743,0x73E",
	"0x73D-0x73A", "0x738-0x735", "0x734,0x739", "0x733-0x730", "0x72E-0x72B",
	"0x72A,0x72F", "0x729-0x726", "0x724-0x721", "0x720,0x725", "0x71A-0x717", "0x715",
	"0x714-0x711", "0x710,0x716", "0x60D,0x3F8, 0x3F9, 0x3FC, 0x3FD", "0x70A-0x709",
	"0x708", "0x706-0x705", "0x704,0x703", "0x700,0x701",
};
/* clang-format on */

/* HSX PMON Table 1-3 "PCICFG Space Uncore Performance Monitoring
 * Registers": per box, the device:function and device ID of each instance,
 * and the config-space address ranges ("F8-F4" = dwords 0xF4 to 0xF8).
 * The manual's iMC device IDs are swapped between D20 and D21 (and D23/D24)
 * against real hardware; the descriptors follow the hardware
 * (src/platform/hswep/HARDWARE-DECISIONS.md), so the iMC IDs are compared
 * as a set.  The manual's "0x2B1" is read as 0x2FB1.  The manual's one
 * misc function for QPI ports 0 and 1 (D8:F0) is two on real machines
 * (D8:F0 0x2F80, D9:F0 0x2F90): that row holds the hardware's cells. */
struct hswep_table_1_3_row {
	const char *box; /* the manual's Box column */
	unsigned kind;   /* enum hswep_box_kind */
	unsigned role;   /* enum hswep_pci_fn_role */
	unsigned instances;
	uint8_t dev[HSWEP_IMC_INSTANCES], fn[HSWEP_IMC_INSTANCES];
	uint16_t did[HSWEP_IMC_INSTANCES];
	int did_as_set;     /* see above */
	int counter_starts; /* 64-bit counters listed by start address only */
	const char *ranges[6];
};

/* clang-format off */
static const struct hswep_table_1_3_row table_1_3[] = {
	{"HA0, HA1", HSWEP_BOX_HA, HSWEP_FN_PMON, 2, {18, 18}, {1, 5}, {0x2F30, 0x2F38}, 0, 0,
	 {"F8-F4", "E4-D8", "BC-A0", "48-40"}},
	{"iMC0, iMC1", HSWEP_BOX_IMC, HSWEP_FN_PMON, 8, {20, 20, 21, 21, 23, 23, 24, 24},
	 {0, 1, 0, 1, 0, 1, 0, 1}, {0x2FB4, 0x2FB5, 0x2FB0, 0x2FB1, 0x2FD4, 0x2FD5, 0x2FD0, 0x2FD1},
	 1, 0, {"F8-F4", "F0", "E4-D8", "D4-D0", "BC-A0"}},
	{"IRP", HSWEP_BOX_IRP, HSWEP_FN_PMON, 1, {5}, {6}, {0x2F39}, 0, 1, {"F8-F4", "E4-E0", "DC-D8", "B8-B0", "A8-A0"}},
	{"QPI0, QPI1", HSWEP_BOX_QPI, HSWEP_FN_PMON, 3, {8, 9, 10}, {2, 2, 2}, {0x2F32, 0x2F33, 0x2F3A}, 0, 0,
	 {"F8-F4", "E4-D8", "BC-A0", "D0", "C8"}},
	{"QPI0, QPI1 Mask/Match", HSWEP_BOX_QPI, HSWEP_FN_AUX, 3, {8, 9, 10}, {6, 6, 6}, {0x2F86, 0x2F96, 0x2F46}, 0, 0,
	 {"23C-238", "22C-228", "214-210", "204-200"}},
	{"QPI0, QPI1 Misc", HSWEP_BOX_QPI, HSWEP_FN_MISC, 3, {8, 9, 10}, {0, 0, 0}, {0x2F80, 0x2F90, 0x2F40}, 0, 0, {"D4"}},
	{"R2PCIe", HSWEP_BOX_R2PCIE, HSWEP_FN_PMON, 1, {16}, {1}, {0x2F34}, 0, 0, {"F8-F4", "E4-D8", "BC-A0"}},
	{"R3QPI0, R3QPI1", HSWEP_BOX_R3QPI, HSWEP_FN_PMON, 3, {11, 11, 11}, {1, 2, 5}, {0x2F36, 0x2F37, 0x2F3E}, 0, 0,
	 {"F8-F4", "E0-D8", "B4-A0"}},
};
/* clang-format on */

#endif
