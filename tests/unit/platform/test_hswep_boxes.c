/* Validator of the Haswell-EP box descriptors: a golden table of register
 * addresses taken from the manual's tables, no two registers at one address,
 * every address decodes back to its register, and the write rules are
 * internally consistent. */
#include "../../harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "common/uncore_error.h"

#include <stdlib.h>

struct golden {
	const char *row;
	enum hswep_box_kind box;
	unsigned inst;
	enum hswep_reg_kind kind;
	unsigned index;
	unsigned dev, fn; /* PCI only */
	uint64_t addr;
};

#define ROW(...)                                                                                   \
	{                                                                                          \
#__VA_ARGS__, __VA_ARGS__                                                          \
	}
static const struct golden golden[] = {
    /* Table 1-2 / 2-5: UBox */
    ROW(HSWEP_BOX_UBOX, 0, HSWEP_REG_FIXED_CTL, 0, 0, 0, 0x703),
    ROW(HSWEP_BOX_UBOX, 0, HSWEP_REG_FIXED_CTR, 0, 0, 0, 0x704),
    ROW(HSWEP_BOX_UBOX, 0, HSWEP_REG_CTL, 1, 0, 0, 0x706),
    ROW(HSWEP_BOX_UBOX, 0, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0x708),
    ROW(HSWEP_BOX_UBOX, 0, HSWEP_REG_CTR, 1, 0, 0, 0x70a),
    /* Table 2-13: CBo 0 and CBo 17; CBo 12 (garbled in the seed) by formula */
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_BOX_CTL, 0, 0, 0, 0xe00),
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_CTL, 2, 0, 0, 0xe03),
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_CTR, 2, 0, 0, 0xe0a),
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_FILTER, 0, 0, 0, 0xe05),
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_FILTER, 1, 0, 0, 0xe06),
    ROW(HSWEP_BOX_CBO, 0, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0xe07),
    ROW(HSWEP_BOX_CBO, 17, HSWEP_REG_BOX_CTL, 0, 0, 0, 0xf10),
    ROW(HSWEP_BOX_CBO, 17, HSWEP_REG_CTR, 3, 0, 0, 0xf1b),
    ROW(HSWEP_BOX_CBO, 17, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0xf17),
    ROW(HSWEP_BOX_CBO, 12, HSWEP_REG_FILTER, 1, 0, 0, 0xec6),
    /* Table 1-2 / 2-44: SBo */
    ROW(HSWEP_BOX_SBO, 0, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0x725),
    ROW(HSWEP_BOX_SBO, 1, HSWEP_REG_BOX_CTL, 0, 0, 0, 0x72a),
    ROW(HSWEP_BOX_SBO, 1, HSWEP_REG_CTL, 0, 0, 0, 0x72b),
    ROW(HSWEP_BOX_SBO, 1, HSWEP_REG_CTR, 0, 0, 0, 0x730),
    ROW(HSWEP_BOX_SBO, 2, HSWEP_REG_CTR, 3, 0, 0, 0x73d),
    ROW(HSWEP_BOX_SBO, 3, HSWEP_REG_BOX_CTL, 0, 0, 0, 0x73e),
    ROW(HSWEP_BOX_SBO, 3, HSWEP_REG_CTL, 0, 0, 0, 0x73f),
    ROW(HSWEP_BOX_SBO, 3, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0x743),
    ROW(HSWEP_BOX_SBO, 3, HSWEP_REG_CTR, 3, 0, 0, 0x747),
    /* Table 2-155: PCU */
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_BOX_CTL, 0, 0, 0, 0x710),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_CTL, 3, 0, 0, 0x714),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_FILTER, 0, 0, 0, 0x715),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_BOX_STATUS, 0, 0, 0, 0x716),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_CTR, 0, 0, 0, 0x717),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_EXTRA, HSWEP_PCU_CORE_CC6, 0, 0, 0x3fd),
    ROW(HSWEP_BOX_PCU, 0, HSWEP_REG_EXTRA, HSWEP_PCU_CORE_PC2, 0, 0, 0x60d),
    /* Table 2-60: HA */
    ROW(HSWEP_BOX_HA, 0, HSWEP_REG_BOX_CTL, 0, 18, 1, 0xf4),
    ROW(HSWEP_BOX_HA, 1, HSWEP_REG_CTR, 3, 18, 5, 0xb8),
    ROW(HSWEP_BOX_HA, 1, HSWEP_REG_FILTER, HSWEP_HA_OPCODEMATCH, 18, 5, 0x48),
    /* Table 2-111: iMC */
    ROW(HSWEP_BOX_IMC, 3, HSWEP_REG_CTL, 0, 21, 1, 0xd8),
    ROW(HSWEP_BOX_IMC, 7, HSWEP_REG_FIXED_CTR, 0, 24, 1, 0xd0),
    ROW(HSWEP_BOX_IMC, 4, HSWEP_REG_FIXED_CTL, 0, 23, 0, 0xf0),
    /* Table 1-3 (IRP counter offsets: decision in hswep_boxes.c) */
    ROW(HSWEP_BOX_IRP, 0, HSWEP_REG_CTR, 1, 5, 6, 0xa8),
    ROW(HSWEP_BOX_IRP, 0, HSWEP_REG_CTL, 3, 5, 6, 0xe4),
    /* Table 2-167 and Table 1-3: QPI */
    ROW(HSWEP_BOX_QPI, 1, HSWEP_REG_CTL, 1, 9, 2, 0xdc),
    ROW(HSWEP_BOX_QPI, 2, HSWEP_REG_FILTER, HSWEP_QPI_RX_MASK1, 10, 6, 0x23c),
    ROW(HSWEP_BOX_QPI, 0, HSWEP_REG_FILTER, HSWEP_QPI_TX_MATCH0, 8, 6, 0x200),
    ROW(HSWEP_BOX_QPI, 1, HSWEP_REG_EXTRA, HSWEP_QPI_RATE_STATUS, 9, 0, 0xd4), /* D9:F0 0x2F90 */
    ROW(HSWEP_BOX_QPI, 0, HSWEP_REG_EXTRA, HSWEP_QPI_LINK_IDLE, 8, 2, 0xc8),
    /* Tables 2-212 and 2-229 */
    ROW(HSWEP_BOX_R2PCIE, 0, HSWEP_REG_BOX_STATUS, 0, 16, 1, 0xf8),
    ROW(HSWEP_BOX_R3QPI, 2, HSWEP_REG_CTL, 2, 11, 5, 0xe0),
    ROW(HSWEP_BOX_R3QPI, 1, HSWEP_REG_CTR, 2, 11, 2, 0xb0),
};

TEST(golden_addresses)
{
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct golden *g = &golden[i];
		harness_row = g->row;
		const struct hswep_box_desc *d = hswep_box(g->box);
		struct uncore_reg r;
		CHECK_EQ_INT(hswep_reg(d, g->inst, g->kind, g->index, 1, 0x7f, &r), 0);
		CHECK_EQ_U64(r.addr, g->addr);
		CHECK_EQ_INT(r.socket, 1);
		if (d->space == UNCORE_SPACE_PCI) {
			CHECK_EQ_U64(r.bdf, UNCORE_BDF(0x7f, g->dev, g->fn));
			CHECK_EQ_INT(r.width, 4);
		} else {
			CHECK_EQ_INT(r.width, 8);
		}
	}
}

TEST(missing_registers_are_reported)
{
	struct uncore_reg r;
	CHECK_EQ_INT(hswep_reg(hswep_box(HSWEP_BOX_UBOX), 0, HSWEP_REG_BOX_CTL, 0, 0, 0, &r),
		     UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "ubox");
	CHECK_EQ_INT(hswep_reg(hswep_box(HSWEP_BOX_R3QPI), 0, HSWEP_REG_CTL, 3, 0, 0, &r),
		     UNCORE_ENODEV);
	CHECK_EQ_INT(hswep_reg(hswep_box(HSWEP_BOX_CBO), 18, HSWEP_REG_CTL, 0, 0, 0, &r),
		     UNCORE_EINVAL);
	CHECK(hswep_box_by_name("r3qpi") == hswep_box(HSWEP_BOX_R3QPI));
	CHECK(hswep_box_by_name("nope") == NULL);
}

/* How many indices a register kind has at most. */
static unsigned indices(unsigned rk)
{
	return rk == HSWEP_REG_CTL || rk == HSWEP_REG_CTR || rk == HSWEP_REG_FILTER ||
		       rk == HSWEP_REG_EXTRA
		   ? HSWEP_MAX_FILTERS
		   : 1;
}

/* Every register of every instance, for the uniqueness and round-trip checks. */
static void each_register(void (*fn)(const struct hswep_box_desc *, unsigned inst,
				     enum hswep_reg_kind, unsigned index,
				     const struct uncore_reg *))
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = hswep_box(k);
		for (unsigned i = 0; i < d->max_instances; i++)
			for (unsigned rk = 0; rk < HSWEP_REG_KINDS; rk++)
				for (unsigned x = 0; x < indices(rk); x++) {
					struct uncore_reg r;
					if (hswep_reg(d, i, rk, x, 0, 0x7f, &r) == 0)
						fn(d, i, rk, x, &r);
				}
	}
}

static uint64_t seen_keys[4096];
static unsigned seen_n;

static void check_unique(const struct hswep_box_desc *d, unsigned inst, enum hswep_reg_kind rk,
			 unsigned index, const struct uncore_reg *r)
{
	uint64_t key = (uint64_t)r->space << 56 | (uint64_t)r->bdf << 24 | r->addr;
	for (unsigned i = 0; i < seen_n; i++)
		if (seen_keys[i] == key) {
			HARNESS_FAIL_AT("%s%u register kind %d index %u collides at 0x%" PRIx64,
					d->name, inst, (int)rk, index, r->addr);
			return;
		}
	if (seen_n < 4096)
		seen_keys[seen_n++] = key;
	/* PCI counters occupy their high dword too. */
	if (r->space == UNCORE_SPACE_PCI && (rk == HSWEP_REG_CTR || rk == HSWEP_REG_FIXED_CTR) &&
	    seen_n < 4096)
		seen_keys[seen_n++] = key + 4;
}

TEST(no_two_registers_share_an_address)
{
	seen_n = 0;
	each_register(check_unique);
	CHECK(seen_n > 400);
}

static void check_decode(const struct hswep_box_desc *d, unsigned inst, enum hswep_reg_kind rk,
			 unsigned index, const struct uncore_reg *r)
{
	struct hswep_reg_loc loc;
	if (r->space == UNCORE_SPACE_MSR) {
		if (hswep_decode_msr((uint32_t)r->addr, &loc) != 0) {
			HARNESS_FAIL_AT("msr 0x%" PRIx64 " of %s%u does not decode", r->addr,
					d->name, inst);
			return;
		}
		if (rk == HSWEP_REG_EXTRA)
			inst = 0; /* absolute MSRs of a single-instance box */
	} else {
		uint8_t kind, dinst, role;
		if (hswep_decode_pci_fn(UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf), &kind,
					&dinst, &role) != 0 ||
		    hswep_decode_pci(kind, dinst, role, (unsigned)r->addr, &loc) != 0) {
			HARNESS_FAIL_AT("pci %02x.%x+0x%" PRIx64 " of %s%u does not decode",
					UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf), r->addr,
					d->name, inst);
			return;
		}
	}
	CHECK_EQ_INT(loc.kind, d->kind);
	CHECK_EQ_INT(loc.inst, inst);
	CHECK_EQ_INT(loc.reg, rk);
	if (rk == HSWEP_REG_CTL || rk == HSWEP_REG_CTR || rk == HSWEP_REG_FILTER ||
	    rk == HSWEP_REG_EXTRA)
		CHECK_EQ_INT(loc.index, index);
	CHECK_EQ_INT(loc.high, 0);
}

TEST(every_register_decodes_back)
{
	each_register(check_decode);
	struct hswep_reg_loc loc;
	CHECK_EQ_INT(hswep_decode_pci(HSWEP_BOX_HA, 0, HSWEP_FN_PMON, 0xa4, &loc), 0);
	CHECK_EQ_INT(loc.reg, HSWEP_REG_CTR);
	CHECK_EQ_INT(loc.high, 1);
	CHECK_EQ_INT(hswep_decode_msr(0xe0c, &loc), UNCORE_ENODEV);
	CHECK_EQ_INT(hswep_decode_msr(0x707, &loc), UNCORE_ENODEV);
	CHECK_EQ_INT(hswep_decode_msr(0x700, &loc), UNCORE_ENODEV); /* global, not a box */
	CHECK_EQ_INT(hswep_decode_pci(HSWEP_BOX_HA, 0, HSWEP_FN_PMON, 0x4c, &loc), UNCORE_ENODEV);
	char name[64];
	CHECK_EQ_INT(hswep_decode_msr(0xe2a, &loc), 0);
	hswep_reg_name(&loc, name, sizeof(name));
	CHECK_EQ_STR(name, "cbo2.CTR2");
}

static void check_rules(const char *what, const struct hswep_reg_rules *r)
{
	harness_row = what;
	CHECK_EQ_U64(r->valid & r->ignored, 0);
	CHECK_EQ_U64(r->valid & r->must1, 0);
	CHECK_EQ_U64(r->ignored & r->must1, 0);
}

TEST(rules_are_consistent)
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = hswep_box(k);
		harness_row = d->name;
		CHECK(d->num_counters >= 2 && d->num_counters <= HSWEP_MAX_COUNTERS);
		CHECK(d->ctr_width == 48 || d->ctr_width == 44);
		CHECK_EQ_U64(d->ctr_rules.valid, (UINT64_C(1) << d->ctr_width) - 1);
		CHECK_EQ_U64(d->ctl_rules.valid & HSWEP_PMON_CTL_THRESH5, HSWEP_PMON_CTL_THRESH5);
		if (d->thresh_bits == 8)
			CHECK_EQ_U64(d->ctl_rules.valid & HSWEP_PMON_CTL_THRESH8,
				     HSWEP_PMON_CTL_THRESH8);
		else
			CHECK_EQ_U64(d->ctl_rules.valid & HSWEP_BIT(29), 0);
		CHECK(d->ctl_rules.valid & HSWEP_PMON_CTL_EN);
		/* One ov bit per generic counter, plus the fixed counter's. */
		uint64_t ov = (UINT64_C(1) << d->num_counters) - 1;
		if (d->fixed_status_bit != HSWEP_NO_BIT)
			ov |= UINT64_C(1) << d->fixed_status_bit;
		CHECK_EQ_U64(d->status_rules.valid, ov);
		/* Boxes that can send an overflow message have ov_en, the others not. */
		CHECK_EQ_INT(!!(d->ctl_rules.valid & HSWEP_PMON_CTL_OV_EN),
			     d->global_status_bit != NULL);
		if (d->global_status_bit)
			for (unsigned i = 0; i < d->max_instances; i++)
				CHECK(hswep_global_status_rules.valid &
				      (UINT64_C(1) << d->global_status_bit[i]));
		check_rules(d->name, &d->box_ctl_rules);
		check_rules(d->name, &d->status_rules);
		check_rules(d->name, &d->ctl_rules);
		check_rules(d->name, &d->ctr_rules);
		check_rules(d->name, &d->fixed_ctl_rules);
		for (unsigned f = 0; f < d->num_filters; f++)
			check_rules(d->filters[f].name, &d->filters[f].rules);
		if (d->space == UNCORE_SPACE_PCI)
			CHECK(d->pci_fn[HSWEP_FN_PMON] != NULL);
	}
}

TEST(check_write_names_bits)
{
	const struct hswep_box_desc *cbo = hswep_box(HSWEP_BOX_CBO);
	CHECK_EQ_INT(hswep_check_write(&cbo->ctl_rules, 0x400334, "C0.CTL0"), 0);
	/* ov_en does not exist on a CBo (Table 2-16). */
	CHECK_EQ_INT(hswep_check_write(&cbo->ctl_rules, 0x500334, "C0.CTL0"), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "reserved bits 0x100000");
	CHECK_CONTAINS(uncore_error_detail(), "C0.CTL0");
	CHECK_EQ_INT(hswep_check_write(&cbo->box_ctl_rules, 0x3, "C0.BOX_CTL"), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "must write them as 1");
	CHECK_EQ_INT(hswep_check_write(&cbo->box_ctl_rules, 0x30103, "C0.BOX_CTL"), 0);
	/* PCI "ig" bits are accepted. */
	const struct hswep_box_desc *ha = hswep_box(HSWEP_BOX_HA);
	CHECK_EQ_INT(hswep_check_write(&ha->box_ctl_rules, 0xfffc0003 | 0x30000, "HA0.BOX_CTL"), 0);
	CHECK_EQ_INT(hswep_check_write(&ha->status_rules, 0x10, "HA0.BOX_STATUS"), UNCORE_EFAULT);
}

int main(void)
{
	RUN(golden_addresses);
	RUN(missing_registers_are_reported);
	RUN(no_two_registers_share_an_address);
	RUN(every_register_decodes_back);
	RUN(rules_are_consistent);
	RUN(check_write_names_bits);
	return harness_done();
}
