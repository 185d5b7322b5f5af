/* The Haswell-EP PMON register map, typed for the audit from the manual
 * (HSX PMON Table 1-2 for MSRs, Table 1-3 for PCI configuration space, and
 * each box's control field table for the writable bits), independently of
 * src/platform/ (whose descriptors the backend and the simulator share).
 * Real-hardware corrections, recorded as such (issue 17,
 * src/platform/hswep/HARDWARE-DECISIONS.md): the IRP is D5:F6 on the
 * package's root bus (00:05.6 / 80:05.6), not on its uncore bus; the
 * device IDs of the iMC functions do not matter here (addresses only);
 * IRP counters at A0/A8/B0/B8 (Table 1-3; Table 2-144 says A0/B0/B8/C0,
 * MODEL.md's decision). */
#include "hsx_regmap.h"

#include <string.h>

/* Control registers' writable bits, from the field tables. */
#define BOX_CTL_BITS 0x30103u /* rst_ctrl 0, rst_ctrs 1, frz 8; 17:16 "SW must write 1" */
#define CTL_GENERIC                                                                                \
	0xffd6ffffu /* ev 7:0 umask 15:8 rst 17 edge 18 ov_en 20 en 22 inv 23 thresh 31:24 */
#define CTL_QPI  0xfff6ffffu /* and ev_sel_ext 21 (Table 2-170) */
#define CTL_CBO  0xffceffffu /* ev umask rst edge tid_en 19 en inv thresh (Table 2-16) */
#define CTL_SBO  0xffc6ffffu /* ev umask rst edge en inv thresh (Table 2-47) */
#define CTL_UBOX 0x1fd6ffffu /* ev umask rst edge ov_en en inv thresh 28:24 (Table 2-7) */
#define CTL_PCU                                                                                    \
	0xdff6c0ffu /* ev occ_sel 15:14 rst edge ov_en ev_sel_ext en inv thresh 28:24 occ_invert   \
		       30 occ_edge 31 (Table 2-158) */
#define CTR48_LO            0xffffffffu
#define CTR48_HI            0xffffu
#define UBOX_FIXED_CTL_BITS 0x500000u   /* ov_en 20, en 22 (Table 2-9) */
#define IMC_FIXED_CTL_BITS  0xd80000u   /* rst 19, ov_en 20, en 22, invert 23 (Table 2-110) */
#define GLOBAL_CTL_BITS     0xa0000000u /* frz_all 31, unfrz_all 29: nothing else is ours to write */

struct pci_box {
	unsigned kind;
	unsigned ndev;
	uint8_t dev[8], fn[8]; /* instance i: D dev[i] : F fn[i] (Table 1-3) */
	unsigned counters;
	uint32_t ctl_bits, status_bits;
	int root_bus; /* on the package's root bus (correction, see above) */
};

static const struct pci_box pci_boxes[] = {
    {HSWEP_BOX_HA, 2, {18, 18}, {1, 5}, 4, CTL_GENERIC, 0xf, 0},
    {HSWEP_BOX_IMC,
     8,
     {20, 20, 21, 21, 23, 23, 24, 24},
     {0, 1, 0, 1, 0, 1, 0, 1},
     4,
     CTL_GENERIC,
     0x1f,
     0},
    {HSWEP_BOX_IRP, 1, {5}, {6}, 4, CTL_GENERIC, 0xf, 1},
    {HSWEP_BOX_QPI, 3, {8, 9, 10}, {2, 2, 2}, 4, CTL_QPI, 0xf, 0},
    {HSWEP_BOX_R2PCIE, 1, {16}, {1}, 4, CTL_GENERIC, 0xf, 0},
    {HSWEP_BOX_R3QPI, 3, {11, 11, 11}, {1, 2, 5}, 3, CTL_GENERIC, 0x7, 0},
};

static void msr(const hsx_regmap_fn fn, void *ctx, unsigned socket, uint32_t addr, uint64_t bits)
{
	struct uncore_reg r = {
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
	fn(ctx, &r, bits);
}

static void pci(const hsx_regmap_fn fn, void *ctx, unsigned bus, unsigned dev, unsigned f,
		unsigned off, uint64_t bits)
{
	struct uncore_reg r = {
	    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(bus, dev, f), .addr = off};
	fn(ctx, &r, bits);
}

/* An MSR box with BOX_CTL at base, then counters' controls, (filters,)
 * status, counters (Table 1-2's order for CBo, SBo and PCU). */
static void msr_box(const hsx_regmap_fn fn, void *ctx, unsigned socket, uint32_t base,
		    uint32_t ctl_bits, unsigned nfilters, const uint32_t *filter_bits)
{
	msr(fn, ctx, socket, base, BOX_CTL_BITS);
	for (unsigned k = 0; k < 4; k++)
		msr(fn, ctx, socket, base + 1 + k, ctl_bits);
	for (unsigned f = 0; f < nfilters; f++)
		msr(fn, ctx, socket, base + 5 + f, filter_bits[f]);
	msr(fn, ctx, socket, base + 5 + nfilters, 0xf); /* status: ov 3:0, RW1C */
	for (unsigned k = 0; k < 4; k++)
		msr(fn, ctx, socket, base + 6 + nfilters + k, (1ull << 48) - 1);
}

int hsx_regmap_each(unsigned kind, unsigned inst, unsigned socket, unsigned bus, unsigned root_bus,
		    hsx_regmap_fn fn, void *ctx)
{
	/* Table 2-2: the global control of the socket. */
	msr(fn, ctx, socket, 0x700, GLOBAL_CTL_BITS);
	switch (kind) {
	case HSWEP_BOX_UBOX: /* Table 1-2: 0x703-0x70A; no box control */
		if (inst != 0)
			return -1;
		msr(fn, ctx, socket, 0x703, UBOX_FIXED_CTL_BITS);
		msr(fn, ctx, socket, 0x704, (1ull << 48) - 1);
		msr(fn, ctx, socket, 0x705, CTL_UBOX);
		msr(fn, ctx, socket, 0x706, CTL_UBOX);
		msr(fn, ctx, socket, 0x708, 0x3);
		msr(fn, ctx, socket, 0x709, (1ull << 48) - 1);
		msr(fn, ctx, socket, 0x70a, (1ull << 48) - 1);
		return 0;
	case HSWEP_BOX_CBO: { /* Table 1-2: CBo n at 0xE00 + 0x10 n */
		/* FILTER0: tid 5:0, state 23:17; FILTER1: nid 15:0, opc 28:20,
		 * nc 30, isoc 31 (Tables 2-18, 2-19). */
		static const uint32_t filters[] = {0x00fe003fu, 0xdff0ffffu};
		if (inst >= 18)
			return -1;
		msr_box(fn, ctx, socket, 0xe00 + 0x10 * inst, CTL_CBO, 2, filters);
		return 0;
	}
	case HSWEP_BOX_SBO: /* Table 1-2: SBo n at 0x720 + 0xA n */
		if (inst >= 4)
			return -1;
		msr_box(fn, ctx, socket, 0x720 + 0xa * inst, CTL_SBO, 0, NULL);
		return 0;
	case HSWEP_BOX_PCU: { /* Table 1-2: 0x710-0x71A; BOX_FILTER 0x715, four bands */
		static const uint32_t filters[] = {0xffffffffu};
		if (inst != 0)
			return -1;
		msr_box(fn, ctx, socket, 0x710, CTL_PCU, 1, filters);
		return 0;
	}
	default:
		break;
	}
	for (size_t b = 0; b < sizeof(pci_boxes) / sizeof(pci_boxes[0]); b++) {
		const struct pci_box *p = &pci_boxes[b];
		if (p->kind != kind)
			continue;
		if (inst >= p->ndev)
			return -1;
		unsigned bb = p->root_bus ? root_bus : bus, d = p->dev[inst], f = p->fn[inst];
		/* Table 1-3: BOX_CTL F4, STATUS F8, CTL D8 + 4 k, CTR A0 + 8 k
		 * (two dwords: 48 bits). */
		pci(fn, ctx, bb, d, f, 0xf4, BOX_CTL_BITS);
		pci(fn, ctx, bb, d, f, 0xf8, p->status_bits);
		for (unsigned k = 0; k < p->counters; k++) {
			pci(fn, ctx, bb, d, f, 0xd8 + 4 * k, p->ctl_bits);
			pci(fn, ctx, bb, d, f, 0xa0 + 8 * k, CTR48_LO);
			pci(fn, ctx, bb, d, f, 0xa4 + 8 * k, CTR48_HI);
		}
		if (kind == HSWEP_BOX_IMC) { /* fixed DCLK counter: FIXED_CTL F0, CTR D0 */
			pci(fn, ctx, bb, d, f, 0xf0, IMC_FIXED_CTL_BITS);
			pci(fn, ctx, bb, d, f, 0xd0, CTR48_LO);
			pci(fn, ctx, bb, d, f, 0xd4, CTR48_HI);
		}
		if (kind == HSWEP_BOX_HA) { /* ADDRMATCH0 31:6, ADDRMATCH1 13:0, OPCODEMATCH 5:0 */
			pci(fn, ctx, bb, d, f, 0x40, 0xffffffc0u);
			pci(fn, ctx, bb, d, f, 0x44, 0x3fffu);
			pci(fn, ctx, bb, d, f, 0x48, 0x3fu);
		}
		if (kind == HSWEP_BOX_QPI) { /* mask/match on F6 (Table 2-167) */
			static const uint16_t mm[] = {0x228, 0x22c, 0x238, 0x23c,
						      0x200, 0x204, 0x210, 0x214};
			for (size_t i = 0; i < sizeof(mm) / sizeof(mm[0]); i++)
				pci(fn, ctx, bb, d, 6, mm[i], 0xffffffffu);
		}
		return 0;
	}
	return -1;
}
