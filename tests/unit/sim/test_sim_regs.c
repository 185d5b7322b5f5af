/* Register semantics: freeze and unfreeze at box and global level, the reset
 * bits, RW1C status, wraparound and overflow at every counter width, torn
 * reads of 48-bit PCI counters, reserved-bit and absent-register errors,
 * and the documented errata.  Model e5-2699v3-2s unless said (UCLK 2.5 GHz,
 * DCLK 1066666667 Hz, QFCLK 1.2 GHz). */
#include "sim_test.h"

#include <errno.h>

#define EN            HSWEP_PMON_CTL_EN
#define OV_EN         HSWEP_PMON_CTL_OV_EN
#define MUST1         HSWEP_PMON_BOX_CTL_RSV_MUST1
#define FRZ           HSWEP_PMON_BOX_CTL_FRZ
#define RST_CTRS      HSWEP_PMON_BOX_CTL_RST_CTRS
#define RST_CTRL      HSWEP_PMON_BOX_CTL_RST_CTRL
#define GLOBAL_CTL    msr_reg(0, HSWEP_U_MSR_PMON_GLOBAL_CTL)
#define GLOBAL_STATUS msr_reg(0, HSWEP_U_MSR_PMON_GLOBAL_STATUS)
#define BIT(n)        (UINT64_C(1) << (n))

static const char clocks[] = "stream cbo ev=0x00 inc=1\nstream ha ev=0x00 inc=1\n"
			     "stream imc ev=0x00 inc=1\nstream sbo ev=0x00 inc=1\n"
			     "stream r3qpi ev=0x01 inc=1\nstream r2pcie ev=0x01 inc=1\n"
			     "stream qpi ev=0x14 inc=1\nstream pcu ev=0x00 inc=1\n"
			     "free qpi.LINK_IDLE inc=1\nfree pcu.CORE_CC6_CTR inc=1\n";

#define HA0(off) pci_reg(0x7f, 18, 1, (off))
#define MC0(off) pci_reg(0x7f, 20, 0, (off))
#define MC4(off) pci_reg(0x7f, 23, 0, (off))
#define QP0(off) pci_reg(0x7f, 8, 2, (off))

TEST(freeze_box_and_global)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	WR(io, msr_reg(0, 0xe01), EN);            /* CBo 0 CLOCKTICKS */
	WR(io, msr_reg(0, 0xe11), EN);            /* CBo 1 */
	WR(io, HA0(0xd8), EN);                    /* HA 0 */
	WR(io, MC0(0xf0), HSWEP_MC_FIXED_CTL_EN); /* iMC ch 0 DCLK fixed */
	WR(io, msr_reg(0, 0x703), HSWEP_U_FIXED_CTL_EN);
	WR(io, msr_reg(1, 0xe01), EN); /* socket 1 */
	uncore_sim_advance(sim, 100);  /* 250 UCLK, 106 DCLK */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 250);
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 106);
	/* Box freeze: CBo 0 only. */
	WR(io, msr_reg(0, 0xe00), MUST1 | FRZ);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe00)), MUST1 | FRZ); /* frz reads back */
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 250);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 500);
	/* Global freeze: everything on socket 0 (UBox fixed, iMC fixed too), not
	 * socket 1, not the free-running registers. */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	CHECK_EQ_U64(RD(io, GLOBAL_CTL), 0); /* frz_all is write-only */
	uint64_t idle0 = RD(io, QP0(0xc8)), cc6 = RD(io, msr_reg(0, 0x3fd));
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 500);
	CHECK_EQ_U64(rd_pci_ctr(io, HA0(0xa0), &rc), 500);
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 213);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x704)), 500);
	CHECK_EQ_U64(RD(io, msr_reg(1, 0xe08)), 750);
	CHECK_EQ_U64(RD(io, QP0(0xc8)), idle0 + 120);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3fd)), cc6 + 230);
	/* Global unfreeze does not lift the box freeze. */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 250);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 750);
	WR(io, msr_reg(0, 0xe00), MUST1);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 500);
	/* en = 0 stops a single counter. */
	WR(io, msr_reg(0, 0xe11), 0);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 1000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 750);
	uncore_sim_close(sim);
}

TEST(reset_bits)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	WR(io, msr_reg(0, 0xe01), EN);
	WR(io, msr_reg(0, 0xe02), EN | 0x00);
	WR(io, msr_reg(0, 0xe05), 0x3e); /* FILTER0.tid */
	uncore_sim_advance(sim, 40);
	/* CTL.rst clears its counter and reads back 0 (WO, one-shot). */
	WR(io, msr_reg(0, 0xe02), EN | HSWEP_PMON_CTL_RST);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe02)), EN);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe09)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 100);
	uncore_sim_advance(sim, 40);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe09)), 100);
	/* rst_ctrs: every counter of the box, controls untouched. */
	WR(io, msr_reg(0, 0xe00), MUST1 | RST_CTRS);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe09)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe01)), EN);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe00)), MUST1); /* rst bits read back 0 */
	uncore_sim_advance(sim, 40);
	/* rst_ctrl: every control of the box, counters and filters untouched. */
	WR(io, msr_reg(0, 0xe00), MUST1 | RST_CTRL);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe01)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe02)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe05)), 0x3e);
	uncore_sim_advance(sim, 40);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 100);
	/* Other boxes are not affected. */
	WR(io, msr_reg(0, 0xe11), EN);
	uncore_sim_advance(sim, 40);
	WR(io, msr_reg(0, 0xe00), MUST1 | RST_CTRS | RST_CTRL);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 100);
	/* iMC: FIXED_CTL.rst clears the fixed counter; box resets reach the
	 * fixed counter and its control too. */
	WR(io, MC0(0xf0), HSWEP_MC_FIXED_CTL_EN);
	uncore_sim_advance(sim, 1000); /* DCLK 213 (200 ns) to 1280 (1200 ns) */
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 1067);
	WR(io, MC0(0xf0), HSWEP_MC_FIXED_CTL_EN | HSWEP_MC_FIXED_CTL_RST);
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 0);
	CHECK_EQ_U64(RD(io, MC0(0xf0)), HSWEP_MC_FIXED_CTL_EN);
	uncore_sim_advance(sim, 1000); /* to 2346 */
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 1066);
	WR(io, MC0(0xf4), MUST1 | RST_CTRS);
	CHECK_EQ_U64(rd_pci_ctr(io, MC0(0xd0), &rc), 0);
	WR(io, MC0(0xf4), MUST1 | RST_CTRL);
	CHECK_EQ_U64(RD(io, MC0(0xf0)), 0);
	uncore_sim_close(sim);
}

TEST(status_is_rw1c)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	const uint64_t top = (UINT64_C(1) << 48) - 4;
	WR(io, msr_reg(0, 0xe08), top);
	WR(io, msr_reg(0, 0xe0a), top);
	WR(io, msr_reg(0, 0xe01), EN);
	WR(io, msr_reg(0, 0xe03), EN);
	uncore_sim_advance(sim, 4); /* 10 cycles */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe07)), 0x5);
	WR(io, msr_reg(0, 0xe07), 0x0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe07)), 0x5);
	WR(io, msr_reg(0, 0xe07), 0x1);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe07)), 0x4);
	WR(io, msr_reg(0, 0xe07), 0xf);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe07)), 0x0);
	WR_FAILS(io, msr_reg(0, 0xe07), 0x10, UNCORE_EFAULT);
	/* Global status: two sources, clear one. */
	WR(io, HA0(0xa0), 0xfffffffc);
	WR(io, HA0(0xa4), 0xffff);
	WR(io, HA0(0xd8), EN | OV_EN);
	WR(io, MC4(0xa0), 0xfffffffc);
	WR(io, MC4(0xa4), 0xffff);
	WR(io, MC4(0xd8), EN | OV_EN);
	/* The HA (UCLK) carries first and its freeze stops the channel before
	 * its own carry; after unfreezing, the channel overflows too. */
	uncore_sim_advance(sim, 10);
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS), BIT(HSWEP_U_GLOBAL_STATUS_OV_H0));
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 10);
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS),
		     BIT(HSWEP_U_GLOBAL_STATUS_OV_H0) | BIT(HSWEP_U_GLOBAL_STATUS_OV_M1));
	WR(io, GLOBAL_STATUS, BIT(HSWEP_U_GLOBAL_STATUS_OV_H0));
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS), BIT(HSWEP_U_GLOBAL_STATUS_OV_M1));
	WR_FAILS(io, GLOBAL_STATUS, BIT(3), UNCORE_EFAULT);
	CHECK_EQ_U64(RD(io, HA0(0xf8)), 0x1);
	WR(io, HA0(0xf8), 0x1);
	CHECK_EQ_U64(RD(io, HA0(0xf8)), 0x0);
	uncore_sim_close(sim);
}

struct wrap_case {
	const char *row;
	enum hswep_box_kind kind;
	unsigned inst, width;
	int fixed;
	uint64_t global_bits; /* with ov_en */
};

/* Per box kind: preload 2^width - 10 and count its clock for 25 cycles. */
TEST(wraparound_and_overflow_at_each_width)
{
	static const struct wrap_case cases[] = {
	    {"CBo 48-bit MSR", HSWEP_BOX_CBO, 3, 48, 0, 0},
	    {"SBo 48-bit MSR", HSWEP_BOX_SBO, 1, 48, 0, 0},
	    {"PCU 48-bit MSR", HSWEP_BOX_PCU, 0, 48, 0, BIT(HSWEP_U_GLOBAL_STATUS_OV_P)},
	    {"HA 48-bit PCI", HSWEP_BOX_HA, 1, 48, 0, BIT(HSWEP_U_GLOBAL_STATUS_OV_H1)},
	    {"iMC 48-bit PCI", HSWEP_BOX_IMC, 2, 48, 0, BIT(HSWEP_U_GLOBAL_STATUS_OV_M0)},
	    {"iMC fixed 48-bit", HSWEP_BOX_IMC, 5, 48, 1, BIT(HSWEP_U_GLOBAL_STATUS_OV_M1)},
	    {"UBox fixed 48-bit", HSWEP_BOX_UBOX, 0, 48, 1, BIT(HSWEP_U_GLOBAL_STATUS_OV_U_FIXED)},
	    {"QPI 48-bit PCI", HSWEP_BOX_QPI, 1, 48, 0, BIT(HSWEP_U_GLOBAL_STATUS_OV_Q0)},
	    {"R2PCIe 48-bit PCI", HSWEP_BOX_R2PCIE, 0, 48, 0, BIT(HSWEP_U_GLOBAL_STATUS_OV_RP)},
	    {"R3QPI 44-bit PCI", HSWEP_BOX_R3QPI, 1, 44, 0,
	     BIT(HSWEP_U_GLOBAL_STATUS_OV_RQ0) | BIT(HSWEP_U_GLOBAL_STATUS_OV_RQ)},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wrap_case *c = &cases[i];
		harness_row = c->row;
		const struct hswep_box_desc *d = hswep_box(c->kind);
		for (int ov_en = 0; ov_en < 2; ov_en++) {
			if (ov_en && !c->global_bits)
				continue;
			struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
			struct uncore_regio *io = uncore_sim_regio(sim);
			unsigned bus = 0x7f;
			unsigned k = d->num_counters - 1;
			enum hswep_reg_kind ctr = c->fixed ? HSWEP_REG_FIXED_CTR : HSWEP_REG_CTR;
			enum hswep_reg_kind ctl = c->fixed ? HSWEP_REG_FIXED_CTL : HSWEP_REG_CTL;
			uint64_t preload = (UINT64_C(1) << c->width) - 10;
			struct uncore_reg rctr = box_reg(c->kind, c->inst, ctr, k, 0, bus);
			if (d->space == UNCORE_SPACE_PCI) {
				WR(io, rctr, preload & 0xffffffff);
				struct uncore_reg hi = rctr;
				hi.addr += 4;
				WR(io, hi, preload >> 32);
			} else {
				WR(io, rctr, preload);
			}
			/* ev_sel of the clock event (0x00 or 0x01/0x14 by box). */
			uint64_t ev = c->kind == HSWEP_BOX_QPI ? 0x14
				      : c->kind == HSWEP_BOX_R2PCIE || c->kind == HSWEP_BOX_R3QPI
					  ? 0x01
					  : 0x00;
			uint64_t v =
			    c->fixed ? HSWEP_U_FIXED_CTL_EN | (ov_en ? HSWEP_U_FIXED_CTL_OV_EN : 0)
				     : EN | (ov_en ? OV_EN : 0) | ev;
			struct uncore_reg rctl = box_reg(c->kind, c->inst, ctl, k, 0, bus);
			WR(io, rctl, v);
			if (d->errata & HSWEP_ERRATUM_CTL_WRITE_TWICE)
				WR(io, rctl, v);
			uint64_t hz = c->kind == HSWEP_BOX_IMC   ? 1066666667
				      : c->kind == HSWEP_BOX_QPI ? 1200000000
				      : c->kind == HSWEP_BOX_PCU ? 1000000000
								 : 2500000000;
			/* just enough ns for 25 cycles of this clock */
			uint64_t ns = (25 * UINT64_C(1000000000) + hz - 1) / hz;
			uncore_sim_advance(sim, ns);
			uint64_t cycles = ns * hz / 1000000000;
			uint64_t got;
			if (d->space == UNCORE_SPACE_PCI) {
				int rc;
				got = rd_pci_ctr(io, rctr, &rc);
			} else {
				got = RD(io, rctr);
			}
			/* With ov_en the socket freezes at the end of the carry
			 * cycle: the counter stays at 0. */
			CHECK_EQ_U64(got, ov_en ? 0 : cycles - 10);
			unsigned ov_bit = c->fixed ? d->fixed_status_bit : k;
			if (ov_bit != HSWEP_NO_BIT)
				CHECK_EQ_U64(RD(io, box_reg(c->kind, c->inst, HSWEP_REG_BOX_STATUS,
							    0, 0, bus)),
					     UINT64_C(1) << ov_bit);
			CHECK_EQ_U64(RD(io, GLOBAL_STATUS), ov_en ? c->global_bits : 0);
			int frozen;
			uncore_sim_global_frozen(sim, 0, &frozen);
			CHECK_EQ_INT(frozen, ov_en);
			uncore_sim_close(sim);
		}
	}
	harness_row = NULL;
}

TEST(free_running_wrap)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* QPI LINK_IDLE: 32-bit RW-V, wraps silently (Table 2-178). */
	WR(io, QP0(0xc8), 0xfffffff0);
	uncore_sim_advance(sim, 20); /* 24 QFCLK */
	CHECK_EQ_U64(RD(io, QP0(0xc8)), 8);
	CHECK_EQ_U64(RD(io, QP0(0xf8)), 0);
	/* PCU C-state residency MSRs are read-only (Table 2-161). */
	WR_FAILS(io, msr_reg(0, 0x3fd), 0, UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "read-only");
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3fd)), 46); /* 20 ns of TSC at 2.3 GHz */
	uncore_sim_close(sim);
}

/* read_twice (access/regio.h) is two reads exactly: each an access of its
 * own, with time passing before each dword, faults checked, counted; a
 * fault on the second leaves the first's value. */
TEST(read_twice_is_two_accesses)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK(io->ops->read_twice != NULL);
	WR(io, HA0(0xa0), 0xffffff00);
	WR(io, HA0(0xa4), 0);
	WR(io, HA0(0xd8), EN);
	/* 100 ns (250 UCLK) before every dword: the first read's low dword
	 * at +250, its high one at +500 (carried: torn), the second's at +750
	 * and +1000 (whole). */
	CHECK_EQ_INT(uncore_sim_set_access_ns(sim, 100), 0);
	struct uncore_reg ctr = HA0(0xa0);
	ctr.width = 8;
	uint64_t first = 0, second = 0, reads0 = io->stats.reads;
	CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &first, &second), 0);
	CHECK_EQ_U64(first, UINT64_C(0x1fffffffa));
	CHECK_EQ_U64(second, UINT64_C(0xffffff00) + 750);
	CHECK_EQ_U64(io->stats.reads - reads0, 2);
	CHECK_EQ_U64(io->stats.syscalls, 0);
	CHECK_EQ_INT(uncore_sim_set_access_ns(sim, 0), 0);
	for (unsigned nth = 1; nth <= 2; nth++) {
		struct uncore_sim_fault f = {.space = UNCORE_SPACE_PCI,
					     .op = UNCORE_SIM_OP_READ,
					     .socket = -1,
					     .bdf = ctr.bdf,
					     .addr = 0xa0,
					     .nth = nth,
					     .count = 1,
					     .error = EIO};
		CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
		first = second = 7;
		reads0 = io->stats.reads;
		CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &first, &second), UNCORE_EIO);
		CHECK_CONTAINS(uncore_error_detail(), "injected fault");
		/* The first failed: no second read, nothing stored; the second
		 * failed: the first's value kept. */
		CHECK_EQ_U64(io->stats.reads - reads0, nth);
		CHECK(nth == 1 ? first == 7 : first == UINT64_C(0xffffff00) + 1000);
		CHECK_EQ_U64(second, 7);
		CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
	}
	uncore_sim_close(sim);
}

TEST(torn_32bit_halves)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, HA0(0xa0), 0xffffff00);
	WR(io, HA0(0xa4), 0);
	WR(io, HA0(0xd8), EN);
	/* Every access now lets 100 ns (250 UCLK) pass first. */
	CHECK_EQ_INT(uncore_sim_set_access_ns(sim, 100), 0);
	uint64_t lo = RD(io, HA0(0xa0)); /* 0xffffff00 + 250 */
	uint64_t hi = RD(io, HA0(0xa4)); /* + 250 more: carried into bit 32 */
	CHECK_EQ_U64(lo, 0xfffffffa);
	CHECK_EQ_U64(hi, 1);
	CHECK_EQ_U64(hi << 32 | lo, UINT64_C(0x1fffffffa)); /* torn: 4 G too much */
	/* The usual cure, hi-lo-hi: re-read while the high half moved. */
	uint64_t h1, l, h2;
	do {
		h1 = RD(io, HA0(0xa4));
		l = RD(io, HA0(0xa0));
		h2 = RD(io, HA0(0xa4));
	} while (h1 != h2);
	CHECK_EQ_U64(h1 << 32 | l, UINT64_C(0x1000002e8)); /* 0xffffff00 + 4 * 250 */
	uncore_sim_close(sim);
}

TEST(reserved_bits_and_unknown_registers)
{
	struct uncore_sim *sim = sim_new("e5-2620v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* CBo control has no ov_en (Table 2-16: 21:20 reserved). */
	WR_FAILS(io, msr_reg(0, 0xe01), EN | OV_EN, UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "reserved bits 0x100000");
	CHECK_CONTAINS(uncore_error_detail(), "cbo0.CTL0");
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe01)), 0); /* nothing written */
	/* Box control bits 17:16 must be written as 1. */
	WR_FAILS(io, msr_reg(0, 0xe00), 0x3, UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "must write them as 1");
	/* UBox thresh is 5 bits; bit 29 is reserved (Table 2-7). */
	WR_FAILS(io, msr_reg(0, 0x705), EN | UINT64_C(0x20) << 24, UNCORE_EFAULT);
	/* MSR counters: bits 63:48 reserved. */
	WR_FAILS(io, msr_reg(0, 0xe08), UINT64_C(1) << 48, UNCORE_EFAULT);
	/* Unknown MSRs: #GP. */
	WR_FAILS(io, msr_reg(0, 0xe0c), 0, UNCORE_EFAULT);
	RD_FAILS(io, msr_reg(0, 0x707), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "#GP");
	/* Absent boxes of this 6-core part: CBo 6, SBo 2. */
	RD_FAILS(io, msr_reg(0, 0xe60), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "not present");
	WR_FAILS(io, msr_reg(0, 0x734), MUST1, UNCORE_EFAULT);
	RD_FAILS(io, msr_reg(2, 0x700), UNCORE_ENODEV); /* no socket 2 */
	/* PCI: HA CTL bit 16 reserved, bit 19 ignored. */
	const unsigned bus = 0xff; /* socket 0 of this model */
	WR_FAILS(io, pci_reg(bus, 18, 1, 0xd8), EN | BIT(16), UNCORE_EFAULT);
	WR(io, pci_reg(bus, 18, 1, 0xd8), EN | BIT(19));
	CHECK_EQ_U64(RD(io, pci_reg(bus, 18, 1, 0xd8)), EN);
	/* "ig" box-control bits are accepted. */
	WR(io, pci_reg(bus, 18, 1, 0xf4), MUST1 | 0xfffc0000);
	/* Status: bit 4 must be 0 (Table 2-62). */
	WR_FAILS(io, pci_reg(bus, 18, 1, 0xf8), 0x10, UNCORE_EFAULT);
	/* Absent device (HA 1): IDs read all-ones, registers fail. */
	CHECK_EQ_U64(RD(io, pci_reg(bus, 18, 5, 0x0)), 0xffffffff);
	RD_FAILS(io, pci_reg(bus, 18, 5, 0xa0), UNCORE_ENODEV);
	WR_FAILS(io, pci_reg(bus, 18, 5, 0xd8), EN, UNCORE_ENODEV);
	/* BIOS-hidden QPI port 1 PMON function; its mask/match function stays. */
	CHECK_EQ_U64(RD(io, pci_reg(bus, 9, 2, 0x0)), 0xffffffff);
	RD_FAILS(io, pci_reg(bus, 9, 2, 0xa0), UNCORE_ENODEV);
	CHECK_EQ_U64(RD(io, pci_reg(bus, 9, 6, 0x0)), 0x2f968086);
	WR(io, pci_reg(bus, 9, 6, 0x238), 0x1e00);
	/* Present device: its real ID (D20:F0 = 0x2FB0 as on hardware, not the
	 * manual's 0x2FB4); a bus with no socket: nothing. */
	CHECK_EQ_U64(RD(io, pci_reg(bus, 20, 0, 0x0)), 0x2fb08086);
	CHECK_EQ_U64(RD(io, pci_reg(0x3f, 20, 0, 0x0)), 0xffffffff);
	/* Phantom channel 3: present and counting its clock, no traffic. */
	CHECK_EQ_U64(RD(io, pci_reg(bus, 21, 1, 0x0)), 0x2fb58086);
	/* The IRP is on the socket's root bus (80 for uncore bus ff on this
	 * model), not on its uncore bus; the root bus has no UBox or iMC. */
	CHECK_EQ_U64(RD(io, pci_reg(0x80, 5, 6, 0x0)), 0x2f398086);
	CHECK_EQ_U64(RD(io, pci_reg(bus, 5, 6, 0x0)), 0xffffffff);
	CHECK_EQ_U64(RD(io, pci_reg(0x80, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN, 0x0)),
		     0xffffffff);
	CHECK_EQ_U64(RD(io, pci_reg(0x80, 20, 0, 0x0)), 0xffffffff);
	/* Access shapes. */
	struct uncore_reg r = pci_reg(bus, 18, 1, 0xa2);
	uint64_t v;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	/* An 8-byte read is the two dwords, low then high (as sysfs and ECAM
	 * transfer it); unaligned still refused. */
	r = pci_reg(bus, 18, 1, 0xa0);
	r.width = 8;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), 0);
	CHECK_EQ_U64(v, RD(io, pci_reg(bus, 18, 1, 0xa0)) | RD(io, pci_reg(bus, 18, 1, 0xa4))
								<< 32);
	r = pci_reg(bus, 18, 1, 0xa4);
	r.width = 8;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), 0);
	r.addr = 0xa2;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	r = msr_reg(0, 0xe00);
	r.width = 4;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	r.space = UNCORE_SPACE_MMIO;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_ENODEV);
	/* Non-PMON config space reads 0 and does not take writes. */
	CHECK_EQ_U64(RD(io, pci_reg(bus, 18, 1, 0x10)), 0);
	WR_FAILS(io, pci_reg(bus, 18, 1, 0x10), 1, UNCORE_EFAULT);
	uncore_sim_close(sim);
}

TEST(erratum_write_twice)
{
	/* The clock (ev 0x00/0x01) and another event every 2nd cycle. */
	static const char s[] =
	    "stream sbo ev=0x00 inc=1\nstream sbo ev=0x02 umask=0x01 ratio=1/2\n"
	    "stream r3qpi ev=0x01 inc=1\nstream r3qpi ev=0x07 umask=0x01 ratio=1/2\n"
	    "stream r2pcie ev=0x01 inc=1\nstream r2pcie ev=0x07 umask=0x01 ratio=1/2\n";
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", s);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	const struct uncore_reg sbo_ctl = msr_reg(0, 0x721), sbo_ctr = msr_reg(0, 0x726);
	const struct uncore_reg r3_ctl = pci_reg(0x7f, 11, 1, 0xd8),
				r3_ctr = pci_reg(0x7f, 11, 1, 0xa0);
	const struct uncore_reg r2_ctl = pci_reg(0x7f, 16, 1, 0xd8),
				r2_ctr = pci_reg(0x7f, 16, 1, 0xa0);
	/* Once: ev_sel does not take hold; the counter runs with ev_sel 0 (the
	 * SBo clock) or 0x00 (nothing on R2/R3). */
	WR(io, sbo_ctl, EN | 0x01 << 8 | 0x02);
	WR(io, r3_ctl, EN | 0x01 << 8 | 0x07);
	WR(io, r2_ctl, EN | 0x01 << 8 | 0x07);
	CHECK_EQ_U64(RD(io, sbo_ctl), EN | 0x01 << 8);
	uncore_sim_advance(sim, 40);
	CHECK_EQ_U64(RD(io, sbo_ctr), 100);
	CHECK_EQ_U64(rd_pci_ctr(io, r3_ctr, &rc), 0);
	/* Twice, first with en = 0 as the manual recommends. */
	WR(io, msr_reg(0, 0x720), RST_CTRS); /* one bit at a time (H8) */
	WR(io, sbo_ctl, 0x01 << 8 | 0x02);
	WR(io, sbo_ctl, EN | 0x01 << 8 | 0x02);
	WR(io, r3_ctl, 0x01 << 8 | 0x07);
	WR(io, r3_ctl, EN | 0x01 << 8 | 0x07);
	WR(io, r2_ctl, EN | 0x01 << 8 | 0x07); /* twice the same value works too */
	WR(io, r2_ctl, EN | 0x01 << 8 | 0x07);
	CHECK_EQ_U64(RD(io, sbo_ctl), EN | 0x01 << 8 | 0x02);
	uncore_sim_advance(sim, 40);
	CHECK_EQ_U64(RD(io, sbo_ctr), 50);
	CHECK_EQ_U64(rd_pci_ctr(io, r3_ctr, &rc), 50);
	CHECK_EQ_U64(rd_pci_ctr(io, r2_ctr, &rc), 50);
	/* Boxes without the erratum take a single write. */
	WR(io, HA0(0xd8), EN | 0x01);
	CHECK_EQ_U64(RD(io, HA0(0xd8)), EN | 0x01);
	uncore_sim_close(sim);
}

TEST(erratum_qpi_reset_does_not_self_clear)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	WR(io, QP0(0xd8), EN | 0x14);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), 120);
	WR(io, QP0(0xd8), EN | HSWEP_PMON_CTL_RST | 0x14);
	CHECK_EQ_U64(RD(io, QP0(0xd8)), EN | HSWEP_PMON_CTL_RST | 0x14); /* stays set */
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), 0); /* "continuously reset" */
	WR(io, QP0(0xd8), EN | 0x14);                    /* "write the bit to 0" */
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), 120);
	/* "else use the .rst_ctrs in the BOX_CTL register" */
	WR(io, QP0(0xf4), MUST1 | RST_CTRS);
	CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), 0);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), 120);
	/* Other boxes: .rst is a one-shot action. */
	WR(io, HA0(0xd8), EN | HSWEP_PMON_CTL_RST);
	CHECK_EQ_U64(RD(io, HA0(0xd8)), EN);
	uncore_sim_close(sim);
}

/* SBo box control: one newly set control bit per write, else #GP (the
 * Linux driver writes it bit by bit "to avoid spurious #GPs"); the
 * must-be-1 bits 17:16 do not count. */
TEST(sbo_box_control_takes_one_bit_per_write)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", clocks);
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct uncore_reg sbo0 = msr_reg(0, 0x720);
	WR_FAILS(io, sbo0, MUST1 | FRZ | RST_CTRL | RST_CTRS, UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "one newly set bit per write");
	/* 17:16 count as bits too: both at once is two. */
	WR_FAILS(io, sbo0, MUST1, UNCORE_EFAULT);
	/* The kernel's sequence (hswep_uncore_sbox_msr_init_box): bit 17 is
	 * never written and the box takes it (HARDWARE-DECISIONS.md H8). */
	WR(io, sbo0, RST_CTRL);
	WR(io, sbo0, RST_CTRL | RST_CTRS);
	WR(io, sbo0, RST_CTRL | RST_CTRS | (UINT64_C(1) << 16));
	WR(io, sbo0, (UINT64_C(1) << 16) | FRZ);
	WR(io, sbo0, UINT64_C(1) << 16); /* clearing is free */
	WR_FAILS(io, sbo0, (UINT64_C(1) << 16) | FRZ | RST_CTRS, UNCORE_EFAULT);
	/* Other MSR boxes take any valid value. */
	WR(io, msr_reg(0, 0xe00), MUST1 | FRZ | RST_CTRL | RST_CTRS);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(freeze_box_and_global);
	RUN(reset_bits);
	RUN(status_is_rw1c);
	RUN(wraparound_and_overflow_at_each_width);
	RUN(free_running_wrap);
	RUN(torn_32bit_halves);
	RUN(read_twice_is_two_accesses);
	RUN(reserved_bits_and_unknown_registers);
	RUN(erratum_write_twice);
	RUN(erratum_qpi_reset_does_not_self_clear);
	RUN(sbo_box_control_takes_one_bit_per_write);
	return harness_done();
}
