/* The manual's monitoring-session recipe (HSX PMON 2.1.2 - 2.1.4) and its two
 * worked examples, driven through the register interface only, with exact
 * expected counts.  Model e5-2699v3-2s: UCLK 2.5 GHz, QFCLK 1.2 GHz. */
#include "sim_test.h"

#define GLOBAL_CTL    msr_reg(0, HSWEP_U_MSR_PMON_GLOBAL_CTL)
#define GLOBAL_STATUS msr_reg(0, HSWEP_U_MSR_PMON_GLOBAL_STATUS)
#define C0_BOX_CTL    msr_reg(0, 0xe00)
#define C0_CTL2       msr_reg(0, 0xe03)
#define C0_CTR2       msr_reg(0, 0xe0a)

/* Every fifth UCLK cycle a modified line is victimised in CBo 0, every
 * third an exclusive one. */
static const char victims[] = "stream cbo[0] ev=0x37 umask=0x01 ratio=1/5\n"
			      "stream cbo[0] ev=0x37 umask=0x02 ratio=1/3\n";

TEST(recipe_llc_victims_m_state)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", victims);
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* a) freeze all uncore counters */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	/* b) enable the counter */
	WR(io, C0_CTL2, HSWEP_PMON_CTL_EN);
	/* c) LLC_VICTIMS.M_STATE.  The worked example says {ev_sel, umask} =
	 * {0x03, 0x1}; the CBo event table (2.3.4) gives LLC_VICTIMS code 0x37
	 * and the table wins. */
	WR(io, C0_CTL2, HSWEP_PMON_CTL_EN | 0x01 << 8 | 0x37);
	/* d) reset the counters (bits 17:16 must be written as 1).  Resetting
	 * the controls too (BOX_CTL[1:0] = 0x3) at this point would undo b) and
	 * c): see recipe_literal_reset_wipes_programming. */
	WR(io, C0_BOX_CTL, HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	/* f) unfreeze at the global level */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	CHECK_EQ_INT(uncore_sim_advance(sim, 1000), 0); /* 2500 UCLK cycles */
	CHECK_EQ_U64(RD(io, C0_CTR2), 500);
	/* 2.1.3 a) polling: freeze, read; a frozen counter does not move */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	uncore_sim_advance(sim, 1000);
	CHECK_EQ_U64(RD(io, C0_CTR2), 500);
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 400); /* 1000 more cycles */
	CHECK_EQ_U64(RD(io, C0_CTR2), 700);
	/* The worked example's literal code 0x03 selects another event: the
	 * victims are not counted. */
	WR(io, C0_BOX_CTL, HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	WR(io, C0_CTL2, HSWEP_PMON_CTL_EN | 0x01 << 8 | 0x03);
	uncore_sim_advance(sim, 1000);
	CHECK_EQ_U64(RD(io, C0_CTR2), 0);
	/* E_STATE | M_STATE (umask 0x03): both streams, each occurrence once. */
	WR(io, C0_CTL2, HSWEP_PMON_CTL_EN | 0x03 << 8 | 0x37);
	uncore_sim_advance(sim, 1200); /* 3000 cycles: 600 M + 1000 E */
	CHECK_EQ_U64(RD(io, C0_CTR2), 1600);
	uncore_sim_close(sim);
}

TEST(recipe_literal_reset_wipes_programming)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", victims);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	WR(io, C0_CTL2, HSWEP_PMON_CTL_EN | 0x01 << 8 | 0x37);
	/* d) as printed: "set Cn_MSR_PMON_BOX_CTL[1:0] to 0x3" resets the
	 * control registers programmed in b) and c). */
	WR(io, C0_BOX_CTL, HSWEP_PMON_BOX_CTL_RSV_MUST1 | 0x3);
	CHECK_EQ_U64(RD(io, C0_CTL2), 0);
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 1000);
	CHECK_EQ_U64(RD(io, C0_CTR2), 0);
	uncore_sim_close(sim);
}

/* QPI port 0 of socket 0: D8:F2 on bus 0x7f (Table 2-167). */
#define Q0(off) pci_reg(0x7f, 8, 2, (off))

TEST(qpi_sample_interval_freezes_the_socket)
{
	/* One idle flit per QFCLK on port 0 (TxL_FLITS_G0, umask 0x01 as in the
	 * example), and the CBo clock. */
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", "stream qpi[0] ev=0x00 umask=0x01 inc=1\n"
							 "stream cbo ev=0x00 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	const uint64_t preload = (UINT64_C(1) << 48) - 1000;
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	WR(io, Q0(0xf4), HSWEP_PMON_BOX_CTL_RSV_MUST1 | 0x3); /* reset before programming */
	/* e) "set Q_P0_PCI_PMON_CTR1 to (2^48 - 1000)": two dwords.  (The text
	 * speaks of the 1,000,000th flit; the preload counts 1000.) */
	WR(io, Q0(0xa8), preload & 0xffffffff);
	WR(io, Q0(0xac), preload >> 32);
	WR(io, Q0(0xdc), HSWEP_PMON_CTL_EN | HSWEP_PMON_CTL_OV_EN | 0x01 << 8 | 0x00);
	WR(io, msr_reg(0, 0xe01), HSWEP_PMON_CTL_EN); /* CBo 0 CLOCKTICKS */
	WR(io, msr_reg(0, 0xe00), HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	WR(io, msr_reg(0, 0x703), HSWEP_U_FIXED_CTL_EN); /* UBox UCLK fixed counter */
	WR(io, msr_reg(1, 0xe01), HSWEP_PMON_CTL_EN);    /* socket 1 keeps counting */
	WR(io, msr_reg(1, 0xe00), HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 2000);
	int rc;
	/* The 1000th flit carries out of bit 47 at the end of QFCLK cycle 1000,
	 * 833333334 ps in; the freeze stops every box of socket 0 there. */
	CHECK_EQ_U64(rd_pci_ctr(io, Q0(0xa8), &rc), 0);
	CHECK_EQ_U64(RD(io, Q0(0xf8)), 0x2);
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS), UINT64_C(1) << HSWEP_U_GLOBAL_STATUS_OV_Q0);
	int frozen = 0;
	uncore_sim_global_frozen(sim, 0, &frozen);
	CHECK_EQ_INT(frozen, 1);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 2083); /* floor(833333334 ps * 2.5 GHz) */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x704)), 2083);
	CHECK_EQ_U64(RD(io, msr_reg(1, 0xe08)), 5000); /* socket 1: not frozen */
	/* "Who caused the freeze?" (2.1.3 b) then 2.1.4: reset, clear the
	 * overflow bits, preload, unfreeze. */
	WR(io, Q0(0xf4), HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	WR(io, msr_reg(0, 0xe00), HSWEP_PMON_BOX_CTL_RSV_MUST1 | HSWEP_PMON_BOX_CTL_RST_CTRS);
	WR(io, Q0(0xf8), 0x2);
	WR(io, GLOBAL_STATUS, UINT64_C(1) << HSWEP_U_GLOBAL_STATUS_OV_Q0);
	CHECK_EQ_U64(RD(io, Q0(0xf8)), 0);
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS), 0);
	WR(io, Q0(0xa8), preload & 0xffffffff);
	WR(io, Q0(0xac), preload >> 32);
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	uncore_sim_advance(sim, 1000);
	/* Same interval again: 1000 flits from QFCLK cycle 2400 end at 3400,
	 * 2833333334 ps; the CBo counted UCLK 5000..7083. */
	CHECK_EQ_U64(rd_pci_ctr(io, Q0(0xa8), &rc), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 2083);
	CHECK_EQ_U64(RD(io, GLOBAL_STATUS), UINT64_C(1) << HSWEP_U_GLOBAL_STATUS_OV_Q0);
	uncore_sim_close(sim);
}

TEST(ubox_has_no_box_control)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", "stream ubox ev=0x46 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* Nothing between the fixed counter (0x704) and CTL0 (0x705) or at
	 * 0x707: a box-control write faults. */
	WR_FAILS(io, msr_reg(0, 0x707), 0x30003, UNCORE_EFAULT);
	/* 2.1.2 d) Note: reset the UBox counters by writing 0 to them. */
	WR(io, msr_reg(0, 0x705), HSWEP_PMON_CTL_EN | 0x46);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x709)), 250);
	WR(io, msr_reg(0, 0x709), 0);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x709)), 250);
	/* ...and its only freeze is the global one. */
	WR(io, GLOBAL_CTL, HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	uncore_sim_advance(sim, 100);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x709)), 250);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(recipe_llc_victims_m_state);
	RUN(recipe_literal_reset_wipes_programming);
	RUN(qpi_sample_interval_freezes_the_socket);
	RUN(ubox_has_no_box_control);
	return harness_done();
}
