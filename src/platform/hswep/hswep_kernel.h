/* What the Linux Haswell-EP uncore driver really programs, as data: which
 * CBo filter fields it writes for an (event, umask), the PCU frequency band
 * it writes (with its masking bug), and its counter constraints.  Facts
 * read from arch/x86/events/intel/uncore_snbep.c (hswep_uncore_cbox_extra_regs,
 * hswep_cbox_filter_mask, hswep_pcu_hw_config, snbep_pcu_get_constraint,
 * hswep_uncore_{cbox,r2pcie,r3qpi}_constraints); evidence and decisions in
 * platform/hswep/HARDWARE-DECISIONS.md.  The perf backend refuses what the
 * driver would drop; the simulated kernel drops it, as the driver does. */
#ifndef UNCORE_HSWEP_KERNEL_H
#define UNCORE_HSWEP_KERNEL_H

#include <stdint.h>

#include "platform/hswep/hswep_boxes.h"

/* CBo filter fields, as hswep_cbox_filter_mask() groups them. */
#define HSWEP_KFIELD_TID   0x01u /* FILTER0 tid 5:0 */
#define HSWEP_KFIELD_LINK  0x02u /* FILTER0 link 9:6 (not in the manual's Table 2-18) */
#define HSWEP_KFIELD_STATE 0x04u /* FILTER0 state 23:17 */
#define HSWEP_KFIELD_NID   0x08u /* FILTER1 nid 15:0 */
#define HSWEP_KFIELD_OPC   0x10u /* FILTER1 opc 28:20, c6 29, nc 30, isoc 31 */

/* The filter fields the driver programs for a CBo counter control value
 * (event select, umask and tid_en): 0 means it writes no filter at all. */
unsigned hswep_kernel_cbo_fields(uint64_t ctl);

/* The FILTER0 and FILTER1 bits (Tables 2-18, 2-19 layout) of `fields`. */
void hswep_kernel_cbo_filter_masks(unsigned fields, uint64_t *filter0, uint64_t *filter1);

/* PCU FREQ_BANDn_CYCLES (event 0x0b + n): 1 and the band n and the 8-bit
 * value the driver loads into that band of PCU_MSR_PMON_BOX_FILTER, given
 * the band filter value our encoding asks for (bands at 8n+7:8n, Table
 * 2-160).  The driver keeps config1 & (0xff << n) -- shifted by n, not 8n
 * -- so only band 0 is right: band 1 keeps bit 0 of its value and bands 2
 * and 3 get 0 (every cycle counts).  0 for any other event (the driver
 * writes no filter). */
int hswep_kernel_pcu_band(uint64_t ctl, uint64_t filter, unsigned *band, uint8_t *value);

/* The counters (bit mask) the driver lets an event with control value
 * `ctl` use in a box of kind `kind` with `ncounters` counters. */
unsigned hswep_kernel_counter_mask(enum hswep_box_kind kind, uint64_t ctl, unsigned ncounters);

/* 1 when the driver programs the packet match/mask registers for a QPI
 * event `ctl` on port `port`: event 0x38 (CTO_COUNT) only
 * (snbep_qpi_hw_config), on ports 0 and 1 only: hswep_uncore_pci_ids lists
 * the mask/match functions of ports 0 and 1 (0x2f86, 0x2f96), not port 2's
 * (HARDWARE-DECISIONS.md H14). */
int hswep_kernel_qpi_matches(uint64_t ctl, unsigned port);

#endif
