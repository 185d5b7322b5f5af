/* Counter logic (HSX PMON 1.4, 1.5): threshold, invert and edge detect on an
 * occupancy stream (CBo and PCU), and every box filter, with exact counts.
 * Model e5-2699v3-2s: UCLK 2.5 GHz (24 ns = 60 cycles), PCLK 1 GHz,
 * QFCLK 1.2 GHz (100 ns = 120 cycles). */
#include "sim_test.h"

#define EN       HSWEP_PMON_CTL_EN
#define INV      HSWEP_PMON_CTL_INVERT
#define EDGE     HSWEP_PMON_CTL_EDGE_DET
#define THR(t)   ((uint64_t)(t) << HSWEP_PMON_CTL_THRESH_SHIFT)
#define UM(u)    ((uint64_t)(u) << 8)
#define MUST1    HSWEP_PMON_BOX_CTL_RSV_MUST1
#define RST_CTRS HSWEP_PMON_BOX_CTL_RST_CTRS

static void cbo_program(struct uncore_regio *io, unsigned cbo, const uint64_t ctl[4])
{
	uint32_t base = 0xe00 + 0x10 * cbo;
	WR(io, msr_reg(0, base), MUST1 | 0x3);
	for (unsigned k = 0; k < 4; k++)
		WR(io, msr_reg(0, base + 1 + k), ctl[k]);
}

static uint64_t cbo_ctr(struct uncore_regio *io, unsigned cbo, unsigned k)
{
	return RD(io, msr_reg(0, 0xe00 + 0x10 * cbo + 8 + k));
}

/* TOR occupancy 3,3,0,0,5,1 repeating: per 6-cycle period the sum is 12;
 * >= 1 on 4 cycles, >= 3 on 3, >= 4 on 1, < 1 on 2. */
static const char occupancy[] = "shape cbo ev=0x36 qual=0xa2 flt=0x40 opc=0x01 nid=0x40 ctrs=0x1\n"
				"shape cbo ev=0x1f mirror0\n"
				"stream cbo[0] ev=0x36 umask=0x08 pattern=3,3,0,0,5,1\n";

struct thresh_case {
	const char *row;
	uint64_t ctl;  /* counters 1-3: COUNTER0_OCCUPANCY (0x1f) with these bits */
	uint64_t want; /* after 60 cycles = 10 periods */
};

static const struct thresh_case thresh_cases[] = {
    {"raw", 0, 120},
    {"thresh=1", THR(1), 40},
    {"thresh=3", THR(3), 30},
    {"thresh=4", THR(4), 10},
    {"thresh=1 invert", THR(1) | INV, 20},
    /* cond 1,1,0,0,1,1: rising at 0 (first period only: it follows a 1
     * afterwards) and at 4 */
    {"thresh=1 edge", THR(1) | EDGE, 11},
    {"thresh=1 invert edge (falling edges of >=1)", THR(1) | INV | EDGE, 10},
    {"thresh=3 edge", THR(3) | EDGE, 20},
    /* invert/edge_det follow the threshold in sequence: no effect without */
    {"edge without thresh", EDGE, 120},
    {"invert without thresh", INV, 120},
    {"thresh=255", THR(255), 0},
    {"thresh=255 invert", THR(255) | INV, 60},
};

TEST(threshold_invert_edge_on_occupancy)
{
	for (size_t i = 0; i < sizeof(thresh_cases) / sizeof(thresh_cases[0]); i++) {
		const struct thresh_case *c = &thresh_cases[i];
		harness_row = c->row;
		/* Whole run at once, and the same run in 5-cycle steps that
		 * cut the periods anywhere: the edge detector must carry over. */
		for (int stepped = 0; stepped < 2; stepped++) {
			struct uncore_sim *sim = sim_new("e5-2699v3-2s", occupancy);
			struct uncore_regio *io = uncore_sim_regio(sim);
			uint64_t ctl[4] = {EN | UM(0x08) | 0x36, EN | c->ctl | 0x1f,
					   EN | c->ctl | 0x1f, EN | c->ctl | 0x1f};
			cbo_program(io, 0, ctl);
			WR(io, msr_reg(0, 0xe00), MUST1);
			if (stepped)
				for (int s = 0; s < 12; s++)
					uncore_sim_advance(sim, 2);
			else
				uncore_sim_advance(sim, 24);
			CHECK_EQ_U64(cbo_ctr(io, 0, 0), 120);
			CHECK_EQ_U64(cbo_ctr(io, 0, 1), c->want);
			CHECK_EQ_U64(cbo_ctr(io, 0, 3), c->want);
			uncore_sim_close(sim);
		}
	}
	harness_row = NULL;
}

TEST(occupancy_event_only_in_counter0)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", occupancy);
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint64_t ctl[4] = {EN | UM(0x08) | 0x36, EN | UM(0x08) | 0x36,
			   EN | UM(0x08) | THR(1) | 0x1f, 0};
	cbo_program(io, 0, ctl);
	WR(io, msr_reg(0, 0xe00), MUST1);
	uncore_sim_advance(sim, 24);
	CHECK_EQ_U64(cbo_ctr(io, 0, 0), 120);
	CHECK_EQ_U64(cbo_ctr(io, 0, 1), 0);  /* TOR_OCCUPANCY: counter 0 only */
	CHECK_EQ_U64(cbo_ctr(io, 0, 2), 40); /* the way round it (2.3.1.1) */
	uncore_sim_close(sim);
}

/* PCU (2.8.3, Table 2-165): cores in C0 2,6,6,3,7,0 per PCLK; 10 cores in C6. */
TEST(pcu_occupancy_cases)
{
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "stream pcu ev=0x80 occ=1 pattern=2,6,6,3,7,0\n"
				    "stream pcu ev=0x80 occ=3 inc=10\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	const uint64_t c0 =
	    EN | (uint64_t)HSWEP_PCU_OCC_SEL_C0 << HSWEP_PCU_CTL_OCC_SEL_SHIFT | 0x80;
	const uint64_t c6 =
	    EN | (uint64_t)HSWEP_PCU_OCC_SEL_C6 << HSWEP_PCU_CTL_OCC_SEL_SHIFT | 0x80;
	struct {
		const char *row;
		uint64_t ctl;
		uint64_t want; /* 60 cycles */
	} cases[] = {
	    {"case 2: cores in C0", c0, 240},
	    {"case 3: cycles with > 4 cores in C0", c0 | THR(5), 30},
	    {"case 4: transitions into > 4 cores in C0", c0 | THR(5) | HSWEP_PCU_CTL_OCC_EDGE_DET,
	     20},
	    {"thresh 3", c0 | THR(3), 40},
	    {"plain invert does not apply to occupancy", c0 | THR(3) | INV, 40},
	    {"case 6 style: < 3 cores (occ_invert)", c0 | THR(3) | INV | HSWEP_PCU_CTL_OCC_INVERT,
	     20},
	    {"cores in C6", c6, 600},
	    {"C6 >= 10", c6 | THR(10), 60},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i += 4) {
		WR(io, msr_reg(0, 0x710), MUST1 | 0x3);
		for (size_t k = 0; k < 4 && i + k < sizeof(cases) / sizeof(cases[0]); k++)
			WR(io, msr_reg(0, 0x711 + k), cases[i + k].ctl);
		WR(io, msr_reg(0, 0x710), MUST1);
		uncore_sim_advance(sim, 60);
		for (size_t k = 0; k < 4 && i + k < sizeof(cases) / sizeof(cases[0]); k++) {
			harness_row = cases[i + k].row;
			CHECK_EQ_U64(RD(io, msr_reg(0, 0x717 + k)), cases[i + k].want);
		}
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

/* 100 UCLK cycles = 40 ns. */
TEST(cbo_state_filter)
{
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "shape cbo ev=0x34 req=0x01 flt=0x40 state=always nid=0x40\n"
				    "stream cbo[1] ev=0x34 umask=0x32 state=I ratio=1/10\n"
				    "stream cbo[1] ev=0x34 umask=0x32 state=S ratio=2/10\n"
				    "stream cbo[1] ev=0x34 umask=0x32 state=M ratio=3/10\n"
				    "stream cbo[1] ev=0x34 umask=0x14 state=M ratio=1/10\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct {
		const char *row;
		uint64_t state; /* FILTER0.state */
		unsigned umask;
		uint64_t want;
	} cases[] = {
	    {"DATA_READ misses", HSWEP_CBO_STATE_I, 0x03, 10},
	    {"DATA_READ in S or M", HSWEP_CBO_STATE_S | HSWEP_CBO_STATE_M, 0x03, 50},
	    {"ANY in M", HSWEP_CBO_STATE_M, 0x11, 40},
	    {"DATA_READ any state", 0x1f, 0x03, 60},
	    {"umask bit 0 clear counts nothing", 0x1f, 0x02, 0},
	    {"no state selected counts nothing", 0, 0x03, 0},
	    {"WRITE in M", HSWEP_CBO_STATE_M, 0x05, 10},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].row;
		uint64_t ctl[4] = {EN | UM(cases[i].umask) | 0x34, 0, 0, 0};
		cbo_program(io, 1, ctl);
		WR(io, msr_reg(0, 0xe15), cases[i].state << HSWEP_CBO_FILTER0_STATE_SHIFT);
		WR(io, msr_reg(0, 0xe10), MUST1 | RST_CTRS);
		uncore_sim_advance(sim, 40);
		CHECK_EQ_U64(cbo_ctr(io, 1, 0), cases[i].want);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

TEST(cbo_opcode_nid_tid_filters)
{
	struct uncore_sim *sim = sim_new(
	    "e5-2699v3-2s", "shape cbo ev=0x35 qual=0xa2 flt=0x40 opc=0x01 nid=0x40\n"
			    "stream cbo[2] ev=0x35 umask=0x2b opc=0x182 nid=0 ratio=1/4\n"
			    "stream cbo[2] ev=0x35 umask=0x09 opc=0x182 ratio=1/2\n"
			    "stream cbo[2] ev=0x35 umask=0x09 opc=0x180 ratio=1/5\n"
			    "stream cbo[2] ev=0x35 umask=0x8b opc=0x182 nid=1 ratio=1/10\n"
			    "stream cbo[2] ev=0x35 umask=0x09 opc=0x187 nc=1 ratio=1/20\n"
			    "stream cbo[2] ev=0x35 umask=0x09 opc=0x19e tid=0x3e ratio=1/25\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	const uint64_t nc = HSWEP_CBO_FILTER1_NC;
#define OPC(o) ((uint64_t)(o) << HSWEP_CBO_FILTER1_OPC_SHIFT)
	struct {
		const char *row;
		unsigned umask;
		uint64_t f0, f1, extra_ctl;
		uint64_t want; /* 100 cycles */
	} cases[] = {
	    {"OPCODE DRd", 0x01, 0, OPC(0x182), 0, 85},
	    {"MISS_OPCODE DRd", 0x03, 0, OPC(0x182), 0, 35},
	    {"MISS_LOCAL_OPCODE DRd", 0x23, 0, OPC(0x182), 0, 25},
	    {"MISS_REMOTE_OPCODE DRd", 0x83, 0, OPC(0x182), 0, 10},
	    {"OPCODE RFO", 0x01, 0, OPC(0x180), 0, 20},
	    {"ALL", 0x08, 0, 0, 0, 114},
	    {"NID_ALL node 1", 0x48, 0, 0x2, 0, 10},
	    {"NID_ALL nodes 0,1", 0x48, 0, 0x3, 0, 114},
	    {"NID_MISS_OPCODE node 1", 0x43, 0, OPC(0x182) | 0x2, 0, 10},
	    {"OPCODE PRd non-coherent", 0x01, 0, OPC(0x187) | nc, 0, 5},
	    {"OPCODE DRd non-coherent", 0x01, 0, OPC(0x182) | nc, 0, 0},
	    {"ALL tid 0x3E (IIO)", 0x08, 0x3e, 0, HSWEP_PMON_CTL_TID_EN, 4},
	    {"ALL tid 0x3F (no thread)", 0x08, 0x3f, 0, HSWEP_PMON_CTL_TID_EN, 110},
	    {"ALL tid filter off", 0x08, 0x3e, 0, 0, 114},
	};
#undef OPC
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].row;
		uint64_t ctl[4] = {0, 0, 0, EN | cases[i].extra_ctl | UM(cases[i].umask) | 0x35};
		cbo_program(io, 2, ctl);
		WR(io, msr_reg(0, 0xe25), cases[i].f0);
		WR(io, msr_reg(0, 0xe26), cases[i].f1);
		WR(io, msr_reg(0, 0xe20), MUST1 | RST_CTRS);
		uncore_sim_advance(sim, 40);
		CHECK_EQ_U64(cbo_ctr(io, 2, 3), cases[i].want);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

/* HA 0 of socket 0: D18:F1 on bus 0x7f. */
#define HA0(off) pci_reg(0x7f, 18, 1, (off))

TEST(ha_address_opcode_match)
{
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s",
		    "shape ha ev=0x20 flt=0x03 addr=0x01 hopc=0x1e\n"
		    "stream ha[0] ev=0x20 umask=0x04 addr=0x12345680 hopc=0x01 ratio=1/4\n"
		    "stream ha[0] ev=0x20 umask=0x04 addr=0x12345680 hopc=0x02 ratio=1/5\n"
		    "stream ha[0] ev=0x20 umask=0x08 addr=0x3ffc0000040 hopc=0x3e ratio=1/10\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct {
		const char *row;
		unsigned umask;
		uint32_t am0, am1, opc;
		uint64_t want; /* 100 cycles */
	} cases[] = {
	    {"ADDR low address", 0x01, 0x12345680, 0, 0, 45},
	    {"FILT address and opcode", 0x03, 0x12345680, 0, 0x01, 25},
	    {"OPC 0x3e", 0x02, 0, 0, 0x3e, 10},
	    {"AD ring, opcode 0x02", 0x04, 0, 0, 0x02, 20},
	    {"BL ring, opcode 0x02", 0x08, 0, 0, 0x02, 0},
	    {"ADDR high address", 0x01, 0xc0000040, 0x3ff, 0, 10},
	    {"ADDR other line of the same page", 0x01, 0x123456c0, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].row;
		WR(io, HA0(0xf4), MUST1 | 0x3);
		WR(io, HA0(0x40), cases[i].am0);
		WR(io, HA0(0x44), cases[i].am1);
		WR(io, HA0(0x48), cases[i].opc);
		WR(io, HA0(0xd8), EN | UM(cases[i].umask) | 0x20);
		WR(io, HA0(0xf4), MUST1);
		uncore_sim_advance(sim, 40);
		int rc;
		CHECK_EQ_U64(rd_pci_ctr(io, HA0(0xa0), &rc), cases[i].want);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

#define QP0(off)  pci_reg(0x7f, 8, 2, (off))
#define QMM0(off) pci_reg(0x7f, 8, 6, (off))

TEST(qpi_packet_mask_match)
{
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s",
		    "shape qpi ev=0x38 ext=1 pkt=always\n"
		    "stream qpi[0] ev=0x38 ext=1 dir=rx mc=0xe popc=0 rds=8 dnid=0 ratio=1/4\n"
		    "stream qpi[0] ev=0x38 ext=1 dir=rx mc=0xe popc=0 rds=4 dnid=1 ratio=1/5\n"
		    "stream qpi[0] ev=0x38 ext=1 dir=tx mc=0xe popc=0 rds=8 dnid=1 ratio=1/10\n"
		    "stream qpi[0] ev=0x38 ext=1 dir=rx mc=0x0 popc=1 ratio=1/20\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct {
		const char *row;
		uint32_t rx_match0, rx_mask0, rx_match1, rx_mask1, tx_match0, tx_mask0;
		uint64_t want; /* 120 QFCLK cycles */
	} cases[] = {
	    /* Table 2-176 DRS.DataC_M: Match0 0x1C00, Mask0 0x1FE0, Match1/Mask1 [19:16] 0x8/0xF */
	    {"DRS.DataC_M received", 0x1c00, 0x1fe0, 0x80000, 0xf0000, 0, 0x1e00, 30},
	    {"any DRS received", 0x1c00, 0x1e00, 0, 0, 0, 0x1e00, 54},
	    /* Both matchers unarmed (all masks 0, their reset value): nothing
	     * (MODEL.md; HARDWARE-DECISIONS.md H14). */
	    {"all masks 0: unarmed, no packet", 0, 0, 0, 0, 0, 0, 0},
	    /* Rx armed on message-class bit 0 = 0 (classes 0 and 0xE: every
	     * packet here), Tx unarmed: the received packets only. */
	    {"every received packet, Tx unarmed", 0x0000, 0x0200, 0, 0, 0, 0, 60},
	    {"DRS received for node 1", 0x1c00 | 1 << 13, 0x1e00 | 0x3e000, 0, 0, 0, 0x1e00, 24},
	    /* Rx: match message class 0xF, which no packet has. */
	    {"DRS transmitted only", 0x1e00, 0x1e00, 0, 0, 0x1c00, 0x1e00, 12},
	    {"Rx HOM0 (class 0) and Tx DRS", 0, 0x1e00, 0, 0, 0x1c00, 0x1e00, 18},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].row;
		WR(io, QP0(0xf4), MUST1 | 0x3);
		WR(io, QMM0(0x228), cases[i].rx_match0);
		WR(io, QMM0(0x238), cases[i].rx_mask0);
		WR(io, QMM0(0x22c), cases[i].rx_match1);
		WR(io, QMM0(0x23c), cases[i].rx_mask1);
		WR(io, QMM0(0x200), cases[i].tx_match0);
		WR(io, QMM0(0x210), cases[i].tx_mask0);
		WR(io, QP0(0xd8), EN | HSWEP_PMON_CTL_EV_SEL_EXT | 0x38);
		WR(io, QP0(0xf4), MUST1);
		uncore_sim_advance(sim, 100);
		int rc;
		CHECK_EQ_U64(rd_pci_ctr(io, QP0(0xa0), &rc), cases[i].want);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

TEST(pcu_band_filter)
{
	/* 1.2 GHz for 30 ns, then 3.0 GHz. */
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "shape pcu ev=0x0b band=0\nshape pcu ev=0x0c band=1\n"
				    "shape pcu ev=0x0d band=2\nshape pcu ev=0x0e band=3\n"
				    "stream pcu ev=0x0b freq=12 inc=1 stop=30ns\n"
				    "stream pcu ev=0x0b freq=30 inc=1 start=30ns\n"
				    "stream pcu ev=0x0c freq=12 inc=1 stop=30ns\n"
				    "stream pcu ev=0x0c freq=30 inc=1 start=30ns\n"
				    "stream pcu ev=0x0d freq=12 inc=1 stop=30ns\n"
				    "stream pcu ev=0x0d freq=30 inc=1 start=30ns\n"
				    "stream pcu ev=0x0e freq=12 inc=1 stop=30ns\n"
				    "stream pcu ev=0x0e freq=30 inc=1 start=30ns\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0x710), MUST1 | 0x3);
	WR(io, msr_reg(0, 0x715), 0x1f1e140a); /* bands 1.0, 2.0, 3.0, 3.1 GHz */
	for (unsigned k = 0; k < 4; k++)
		WR(io, msr_reg(0, 0x711 + k), EN | (0x0b + k));
	WR(io, msr_reg(0, 0x710), MUST1);
	uncore_sim_advance(sim, 60);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x717)), 60);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x718)), 30);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x719)), 30);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x71a)), 0);
	/* "use edge detect ... to track the number of times that we
	 * transitioned into" the band, "inversion to track cycles when we were
	 * less than" it (2.8.6): start again from t = 0 with band 2.0 GHz. */
	uncore_sim_close(sim);
	sim = sim_new("e5-2699v3-2s", "shape pcu ev=0x0b band=0\n"
				      "stream pcu ev=0x0b freq=12 inc=1 stop=30ns\n"
				      "stream pcu ev=0x0b freq=30 inc=1 start=30ns\n");
	io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0x715), 0x14);
	WR(io, msr_reg(0, 0x711), EN | THR(1) | EDGE | 0x0b);
	WR(io, msr_reg(0, 0x712), EN | THR(1) | INV | 0x0b);
	WR(io, msr_reg(0, 0x710), MUST1 | RST_CTRS);
	uncore_sim_advance(sim, 60);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x717)), 1);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x718)), 30);
	uncore_sim_close(sim);
}

TEST(ev_sel_ext_selects_a_different_event)
{
	/* QPI TxL_FLITS_G0 is ev 0x00 ext 0, TxL_FLITS_G1 ev 0x00 ext 1 (2.9.4). */
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "stream qpi[1] ev=0x00 umask=0x02 ratio=1/2\n"
				    "stream qpi[1] ev=0x00 ext=1 umask=0x02 ratio=1/3\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
#define QP1(off) pci_reg(0x7f, 9, 2, (off))
	WR(io, QP1(0xd8), EN | UM(0x02) | 0x00);
	WR(io, QP1(0xdc), EN | HSWEP_PMON_CTL_EV_SEL_EXT | UM(0x02) | 0x00);
	uncore_sim_advance(sim, 100);
	int rc;
	CHECK_EQ_U64(rd_pci_ctr(io, QP1(0xa0), &rc), 60);
	CHECK_EQ_U64(rd_pci_ctr(io, QP1(0xa8), &rc), 40);
#undef QP1
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(threshold_invert_edge_on_occupancy);
	RUN(occupancy_event_only_in_counter0);
	RUN(pcu_occupancy_cases);
	RUN(cbo_state_filter);
	RUN(cbo_opcode_nid_tid_filters);
	RUN(ha_address_opcode_match);
	RUN(qpi_packet_mask_match);
	RUN(pcu_band_filter);
	RUN(ev_sel_ext_selects_a_different_event);
	return harness_done();
}
