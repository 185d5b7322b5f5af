/* The flat-PMU models of the simulator: Skylake client (i7-6700k), Nehalem
 * (x5570-2s) and Xeon 7400 / 7100 (x7460-4s, x7140m-4s).  Register access
 * rules as the manuals give them, exact counts from scenarios with known
 * rates, the global controls, overflow status, the audit log and fault
 * injection - all through the register-access interface. */
#include "sim_test.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "platform/nhm/nhm_regs.h"
#include "platform/skl/skl_regs.h"
#include "platform/x7400/x7400_regs.h"

static struct uncore_reg mmio_reg(uint64_t addr)
{
	return (struct uncore_reg){.space = UNCORE_SPACE_MMIO, .width = 4, .addr = addr};
}

TEST(models_are_listed_with_their_platform)
{
	const char *want[][2] = {{"i7-6700k", "skl"},
				 {"x5570-2s", "nhm"},
				 {"x7460-4s", "x7400"},
				 {"x7140m-4s", "x7100"},
				 {"e5-2699v3-2s", "hswep"}};
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		int found = 0;
		for (size_t i = 0; i < uncore_sim_model_count(); i++)
			if (!strcmp(uncore_sim_model(i)->name, want[w][0])) {
				CHECK_EQ_STR(uncore_sim_model(i)->platform, want[w][1]);
				found = 1;
			}
		CHECK(found);
	}
}

/* The SIMULATED line speaks of one socket, not "1 sockets". */
TEST(description_counts_sockets_in_words)
{
	struct uncore_sim *sim = sim_new("i7-6700k", NULL);
	char desc[200];
	CHECK_EQ_INT(uncore_sim_describe(sim, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "SIMULATED uncore: model i7-6700k (");
	CHECK_CONTAINS(desc, ", 1 socket)");
	uncore_sim_close(sim);
	sim = sim_new("x7460-4s", NULL);
	CHECK_EQ_INT(uncore_sim_describe(sim, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, ", 4 sockets)");
	uncore_sim_close(sim);
}

/* SKL: 4.0 GHz UCLK, so 1 ms is 4,000,000 cycles. */
TEST(skl_counts_cbo_arb_fixed_and_imc)
{
	struct uncore_sim *sim = sim_new("i7-6700k", "stream cbo[0] ev=0x22 umask=0x41 rate=10M/s\n"
						     "stream cbo[1] ev=0x22 umask=0x41 rate=20M/s\n"
						     "stream arb ev=0x80 umask=0x01 inc=3\n"
						     "free imc.DRAM_DATA_READS rate=100M/s\n"
						     "free imc.DRAM_DATA_WRITES rate=50M/s\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* MSR_UNC_CBO_CONFIG: four CBos plus one (SKL 2.4.1). */
	CHECK_EQ_U64(RD(io, msr_reg(0, SKL_MSR_UNC_CBO_CONFIG)), 5);
	WR_FAILS(io, msr_reg(0, SKL_MSR_UNC_CBO_CONFIG), 1, UNCORE_EFAULT);
	uint64_t en = SKL_UNC_PERFEVTSEL_EN;
	WR(io, msr_reg(0, 0x700), 0x22 | 0x41 << 8 | en);            /* CBo 0 PERFEVTSEL0 */
	WR(io, msr_reg(0, 0x711), 0x22 | 0x41 << 8 | en);            /* CBo 1 PERFEVTSEL1 */
	WR(io, msr_reg(0, 0x3b2), 0x80 | 0x01 << 8 | 2u << 24 | en); /* ARB, THR 2 */
	WR(io, msr_reg(0, 0x3b3), 0x80 | 0x01 << 8 | 4u << 24 | en); /* ARB, THR 4: never */
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_FIXED_CTRL), SKL_UNC_FIXED_CTRL_CNT_EN);
	/* Nothing counts before the global EN (SKL 2.2.1). */
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x706)), 0);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), SKL_UNC_GLOBAL_CTRL_KERNEL);
	uint64_t rd0 = RD(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_READS));
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x706)), 10000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x717)), 20000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3b0)), 4000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3b1)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, SKL_MSR_UNC_PERF_FIXED_CTR)), 4000000);
	/* The IMC counters run regardless of EN: 2 ms of 100 M/s. */
	CHECK_EQ_U64(rd0, 100000);
	CHECK_EQ_U64(RD(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_READS)), 200000);
	CHECK_EQ_U64(RD(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_WRITES)), 100000);
	CHECK_EQ_U64(RD(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_GT_REQUESTS)), 0);
	/* MCHBAR through PCI 0:0.0 offset 48h, enable bit 0 set. */
	CHECK_EQ_U64(RD(io, pci_reg(0, 0, 0, 0x48)), 0xfed10001u);
	CHECK_EQ_U64(RD(io, pci_reg(0, 0, 0, 0x4c)), 0);
	/* Reserved bits fault, the IMC is read-only, CBo 4 does not exist. */
	WR_FAILS(io, msr_reg(0, 0x700), UINT64_C(1) << 40, UNCORE_EFAULT);
	WR_FAILS(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), UINT64_C(1) << 5, UNCORE_EFAULT);
	WR_FAILS(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_READS), 0, UNCORE_EFAULT);
	RD_FAILS(io, msr_reg(0, 0x740), UNCORE_EFAULT);
	uncore_sim_close(sim);
}

/* GLOBAL_CTRL as Linux programs it (0x2000001f): the model takes bit 4
 * (reserved in Table 2-2) and gates CBo n by bit n, the pessimistic reading
 * of the slice bits (MODEL.md): EN alone counts ARB and the fixed counter
 * but no CBo, which is what a direct backend writing only EN would see on a
 * Skylake whose slices are gated so (platform/skl/HARDWARE-DECISIONS.md S1). */
TEST(skl_cbo_slices_count_only_with_their_global_bit)
{
	struct uncore_sim *sim = sim_new("i7-6700k", "stream cbo ev=0x22 umask=0x41 rate=10M/s\n"
						     "stream arb ev=0x80 umask=0x01 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint64_t en = SKL_UNC_PERFEVTSEL_EN;
	for (unsigned c = 0; c < 4; c++)
		WR(io, msr_reg(0, 0x700 + 0x10 * c), 0x22 | 0x41 << 8 | en);
	WR(io, msr_reg(0, 0x3b2), 0x80 | 0x01 << 8 | en);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), SKL_UNC_GLOBAL_CTRL_EN);
	uncore_sim_advance(sim, 1000000);
	for (unsigned c = 0; c < 4; c++)
		CHECK_EQ_U64(RD(io, msr_reg(0, 0x706 + 0x10 * c)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3b0)), 4000000);
	/* Slices 0 and 2 only. */
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), SKL_UNC_GLOBAL_CTRL_EN | 0x5);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x706)), 10000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x716)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x726)), 10000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x736)), 0);
	/* The kernel's value: every slice; it reads back as written. */
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), UINT64_C(0x2000001f));
	CHECK_EQ_U64(RD(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL)), UINT64_C(0x2000001f));
	uncore_sim_advance(sim, 1000000);
	for (unsigned c = 0; c < 4; c++)
		CHECK_EQ_U64(RD(io, msr_reg(0, 0x706 + 0x10 * c)), c % 2 ? 10000 : 20000);
	uncore_sim_close(sim);
}

TEST(skl_imc_wraps_at_32_bits_and_cbo_at_44)
{
	struct uncore_sim *sim = sim_new("i7-6700k", "free imc.DRAM_DATA_READS rate=1G/s\n"
						     "stream cbo[0] ev=0x34 umask=0x8f inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0x700),
	   0x34 | 0x8f << 8 | SKL_UNC_PERFEVTSEL_EN | SKL_UNC_PERFEVTSEL_OVF_EN);
	WR(io, msr_reg(0, 0x706), (UINT64_C(1) << 44) - 1000);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), SKL_UNC_GLOBAL_CTRL_KERNEL);
	uncore_sim_advance(sim, 10000000000ull); /* 10 s: 1e10 reads */
	CHECK_EQ_U64(RD(io, mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_READS)),
		     10000000000ull % (UINT64_C(1) << 32));
	/* 4e10 cycles after 2^44 - 1000: wrapped once, overflow flagged. */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x706)), 40000000000ull - 1000);
	CHECK_EQ_U64(RD(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_STATUS)),
		     SKL_UNC_GLOBAL_STATUS_CBO_CTR_OVF);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_STATUS), SKL_UNC_GLOBAL_STATUS_CBO_CTR_OVF);
	CHECK_EQ_U64(RD(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_STATUS)), 0);
	uncore_sim_close(sim);
}

/* NHM: UCLK 2,666,666,667 Hz, so 1 ms is 2,666,666 cycles. */
TEST(nhm_counts_with_per_counter_enables)
{
	struct uncore_sim *sim =
	    sim_new("x5570-2s", "stream unc ev=0x2c umask=0x01 ratio=1/8\n" /* QMC reads ch0 */
				"stream unc ev=0x2c umask=0x02 ratio=1/4 socket=1\n" /* ch1 */
				"stream unc ev=0x35 umask=0x01 inc=2\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint64_t en = NHM_EVTSEL_EN;
	for (unsigned s = 0; s < 2; s++) {
		WR(io, msr_reg(s, NHM_MSR_UNCORE_PERFEVTSEL0), 0x2c | 0x07 << 8 | en);
		WR(io, msr_reg(s, NHM_MSR_UNCORE_PERFEVTSEL0 + 1), 0x35 | 0x01 << 8 | en);
		WR(io, msr_reg(s, NHM_MSR_UNCORE_PERFEVTSEL0 + 2),
		   0x35 | 0x01 << 8 | 2u << 24 | NHM_EVTSEL_INV | en); /* < 2: never */
		WR(io, msr_reg(s, NHM_MSR_UNCORE_FIXED_CTR_CTRL), NHM_FIXED_CTRL_EN);
		/* Counter 1 locally enabled but not globally: it must stay 0. */
		WR(io, msr_reg(s, NHM_MSR_UNCORE_PERF_GLOBAL_CTRL),
		   NHM_BIT(0) | NHM_BIT(2) | NHM_GLOBAL_CTRL_EN_FC0);
	}
	/* The OCC_CTR_RST bit acts and reads back 0 (SDM 18.8.2). */
	WR(io, msr_reg(0, NHM_MSR_UNCORE_PERFEVTSEL0 + 3), 0x02 | NHM_EVTSEL_OCC_CTR_RST);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PERFEVTSEL0 + 3)), 0x02);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PMC0)), 333333);
	CHECK_EQ_U64(RD(io, msr_reg(1, NHM_MSR_UNCORE_PMC0)), 333333 + 666666);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PMC0 + 1)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PMC0 + 2)), 0);
	CHECK_EQ_U64(RD(io, msr_reg(1, NHM_MSR_UNCORE_FIXED_CTR0)), 2666666);
	/* The match register keeps what is written; reserved bits fault. */
	WR(io, msr_reg(0, NHM_MSR_UNCORE_ADDR_OPCODE_MATCH), UINT64_C(0x4000190000000000));
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_ADDR_OPCODE_MATCH)),
		     UINT64_C(0x4000190000000000));
	WR_FAILS(io, msr_reg(0, NHM_MSR_UNCORE_ADDR_OPCODE_MATCH), 0x7, UNCORE_EFAULT);
	WR_FAILS(io, msr_reg(0, NHM_MSR_UNCORE_PERF_GLOBAL_STATUS), 0, UNCORE_EFAULT);
	WR_FAILS(io, msr_reg(0, NHM_MSR_UNCORE_PERFEVTSEL0), UINT64_C(1) << 32, UNCORE_EFAULT);
	RD_FAILS(io, msr_reg(2, NHM_MSR_UNCORE_PMC0), UNCORE_ENODEV);
	uncore_sim_close(sim);
}

TEST(nhm_overflow_status_and_clear)
{
	struct uncore_sim *sim = sim_new("x5570-2s", NULL);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, NHM_MSR_UNCORE_FIXED_CTR0), (UINT64_C(1) << 48) - 100);
	WR(io, msr_reg(0, NHM_MSR_UNCORE_FIXED_CTR_CTRL), NHM_FIXED_CTRL_EN);
	WR(io, msr_reg(0, NHM_MSR_UNCORE_PERF_GLOBAL_CTRL), NHM_GLOBAL_CTRL_EN_FC0);
	uncore_sim_advance(sim, 1000); /* 2666 cycles */
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_FIXED_CTR0)), 2566);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PERF_GLOBAL_STATUS)),
		     NHM_GLOBAL_STATUS_OVF_FC0 | NHM_GLOBAL_STATUS_CHG);
	WR(io, msr_reg(0, NHM_MSR_UNCORE_PERF_GLOBAL_OVF_CTRL),
	   NHM_GLOBAL_STATUS_OVF_FC0 | NHM_GLOBAL_STATUS_CHG);
	CHECK_EQ_U64(RD(io, msr_reg(0, NHM_MSR_UNCORE_PERF_GLOBAL_STATUS)), 0);
	uncore_sim_close(sim);
}

/* X7460: GBSQ/GSNPQ at 2,666,666,667 Hz (1 ms = 2,666,666 cycles), FSB at
 * 266,666,667 Hz (1 ms = 266,666 cycles). */
#define GBSQ_ANY UINT64_C(0x3fffff) /* every agent, flow, type, snoop and state bit */
TEST(x7400_emon_attributes_and_global_commands)
{
	struct uncore_sim *sim =
	    sim_new("x7460-4s", "stream gbsq match=0x9051 ratio=1/4\n"
				"stream gbsq match=0x4009052 ratio=1/2 socket=3\n"
				"stream gsnpq match=0x9041 inc=1\n"
				"stream fsb match=0x40 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint32_t ctl0 = X7400_MSR_EMON_L3_CTR_CTL0;
	WR(io, msr_reg(0, ctl0), GBSQ_ANY << 32);
	WR(io, msr_reg(3, ctl0), GBSQ_ANY << 32);
	/* Cross_Snoop = 1: only cross-snoop transactions (socket 3's). */
	WR(io, msr_reg(3, ctl0 + 1), (GBSQ_ANY | X7400_GBSQ_CROSS) << 32);
	/* Data_Flow prefetch only: the streams are demand (0x10). */
	WR(io, msr_reg(0, ctl0 + 1), ((GBSQ_ANY & ~X7400_GBSQ_FLOW) | 0x20) << 32);
	WR(io, msr_reg(0, ctl0 + 2), UINT64_C(0x3fffff) << 32);
	/* FSB: bit 58 must be set (18.21.4). */
	WR_FAILS(io, msr_reg(0, ctl0 + 4), UINT64_C(0x40) << 32, UNCORE_EFAULT);
	WR(io, msr_reg(0, ctl0 + 4), (X7400_FSB_MUST1 | 0x40) << 32);
	WR_FAILS(io, msr_reg(0, ctl0), UINT64_C(1) << 60, UNCORE_EFAULT);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0)), GBSQ_ANY << 32 | 666666);
	CHECK_EQ_U64(RD(io, msr_reg(3, ctl0)), GBSQ_ANY << 32 | (666666 + 1333333));
	CHECK_EQ_U64(RD(io, msr_reg(3, ctl0 + 1)) & X7400_CTR_CTL_COUNT, 1333333);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 1)) & X7400_CTR_CTL_COUNT, 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 2)) & X7400_CTR_CTL_COUNT, 2666666);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 4)) & X7400_CTR_CTL_COUNT, 266666);
	/* GL_CTL: freeze CTL0 and CTL2; CTL4 runs on; unfreeze; reset CTL0. */
	uint64_t sel = (UINT64_C(1) << 16) | (UINT64_C(1) << 18);
	WR(io, msr_reg(0, X7400_MSR_EMON_L3_GL_CTL), sel | X7400_GL_FREEZE_CMD);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0)) & X7400_CTR_CTL_COUNT, 666666);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 2)) & X7400_CTR_CTL_COUNT, 2666666);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 4)) & X7400_CTR_CTL_COUNT, 533333);
	WR(io, msr_reg(0, X7400_MSR_EMON_L3_GL_CTL), sel | X7400_GL_UNFREEZE_CMD);
	WR(io, msr_reg(0, X7400_MSR_EMON_L3_GL_CTL), (UINT64_C(1) << 16) | X7400_GL_RESET_CMD);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0)), GBSQ_ANY << 32); /* select kept, count 0 */
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0)) & X7400_CTR_CTL_COUNT, 666667);
	/* Writing 0 to the control field stops the counter (18.21.2). */
	WR(io, msr_reg(0, ctl0 + 2), 5);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, ctl0 + 2)), 5);
	uncore_sim_close(sim);
}

TEST(x7400_overflow_status_and_saturate)
{
	struct uncore_sim *sim = sim_new("x7140m-4s", "stream fsb match=0x1 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint32_t ctl4 = X7400_MSR_EMON_L3_CTR_CTL0 + 4;
	WR(io, msr_reg(1, ctl4), (X7400_FSB_MUST1 | 1) << 32 | 0xffffff00u);
	WR(io, msr_reg(1, ctl4 + 1),
	   (X7400_CTR_CTL_SATURATE >> 32 | X7400_FSB_MUST1 | 1) << 32 | 0xffffff00u);
	uncore_sim_advance(sim, 10000); /* 200 MHz bus: 2000 cycles */
	CHECK_EQ_U64(RD(io, msr_reg(1, ctl4)) & X7400_CTR_CTL_COUNT, 2000 - 256);
	CHECK_EQ_U64(RD(io, msr_reg(1, ctl4 + 1)) & X7400_CTR_CTL_COUNT, 0xffffffffu);
	CHECK_EQ_U64(RD(io, msr_reg(1, X7400_MSR_EMON_L3_GL_CTL)) & X7400_GL_EVENT_STATUS,
		     UINT64_C(3) << (48 + 4));
	uncore_sim_close(sim);
}

TEST(scenario_errors_name_the_units)
{
	struct uncore_sim *sim = sim_new("x7460-4s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream cbo ev=1 inc=1\n", "t"),
		     UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "gbsq gsnpq fsb");
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream gbsq ev=1 inc=1\n", "t"),
		     UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "match=");
	uncore_sim_close(sim);
	sim = sim_new("i7-6700k", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream clock ev=1 inc=1\n", "t"),
		     UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "free imc.NOPE rate=1/s\n", "t"),
		     UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream cbo ev=1 state=I inc=1\n", "t"),
		     UNCORE_ESYNTAX);
	uncore_sim_close(sim);
}

TEST(audit_log_and_faults_on_flat_models)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/uncore-sim-flat-log-%d.jsonl", (int)getpid());
	unlink(path);
	struct uncore_sim *sim = sim_new("i7-6700k", "free imc.DRAM_DATA_READS inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK_EQ_INT(uncore_sim_set_log(sim, path), 0);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), SKL_UNC_GLOBAL_CTRL_EN);
	uncore_sim_advance(sim, 1);
	CHECK_EQ_U64(RD(io, mmio_reg(0xfed15050u)), 4);
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_MSR,
				     .op = UNCORE_SIM_OP_WRITE,
				     .socket = -1,
				     .bdf = -1,
				     .addr = SKL_MSR_UNC_PERF_GLOBAL_CTRL,
				     .nth = 1,
				     .count = 1,
				     .error = EIO};
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	WR_FAILS(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), 0, UNCORE_EIO);
	WR(io, msr_reg(0, SKL_MSR_UNC_PERF_GLOBAL_CTRL), 0); /* transient: works again */
	CHECK_EQ_INT(uncore_sim_set_log(sim, NULL), 0);
	FILE *fp = fopen(path, "r");
	CHECK(fp != NULL);
	char lines[4][256] = {{0}};
	int n = 0;
	while (fp && n < 4 && fgets(lines[n], sizeof(lines[n]), fp))
		lines[n][strcspn(lines[n], "\n")] = '\0', n++;
	if (fp)
		fclose(fp);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_STR(lines[0], "{\"op\":\"wr\",\"socket\":0,\"space\":\"msr\",\"addr\":\"0xe01\","
			       "\"value\":\"0x20000000\",\"result\":0}");
	CHECK_EQ_STR(lines[1], "{\"op\":\"rd\",\"socket\":0,\"space\":\"mmio\",\"addr\":"
			       "\"0xfed15050\",\"value\":\"0x4\",\"result\":0}");
	CHECK_CONTAINS(lines[2], "\"error\":\"UNCORE_EIO\"");
	CHECK_CONTAINS(lines[3], "\"value\":\"0x0\",\"result\":0");
	unlink(path);
	uncore_sim_close(sim);
}

/* The library's scenario of each generation loads on its models and gives
 * the counts its header promises (one 1 ms step). */
TEST(library_scenarios_count_as_documented)
{
	struct uncore_sim *sim = NULL;
	CHECK_EQ_INT(uncore_sim_create("x5570-2s", NULL, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("nhm-stream.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(1, NHM_MSR_UNCORE_PERFEVTSEL0), 0x2c | 0x07 << 8 | NHM_EVTSEL_EN);
	WR(io, msr_reg(1, NHM_MSR_UNCORE_PERF_GLOBAL_CTRL), 1);
	uncore_sim_advance(sim, 1000000); /* 2,666,666 cycles */
	CHECK_EQ_U64(RD(io, msr_reg(1, NHM_MSR_UNCORE_PMC0)), 83333 + 83333 + 41666);
	uncore_sim_close(sim);
	CHECK_EQ_INT(uncore_sim_create("x7460-4s", NULL, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("x7400-stream.scn")), 0);
	io = uncore_sim_regio(sim);
	WR(io, msr_reg(2, X7400_MSR_EMON_L3_CTR_CTL0), GBSQ_ANY << 32);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(2, X7400_MSR_EMON_L3_CTR_CTL0)) & X7400_CTR_CTL_COUNT,
		     666666 + 333333);
	uncore_sim_close(sim);
	CHECK_EQ_INT(uncore_sim_create("i7-6700k", NULL, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("skl-stream.scn")), 0);
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(uncore_sim_regio(sim), mmio_reg(0xfed10000u + SKL_IMC_DRAM_DATA_READS)),
		     100000);
	uncore_sim_close(sim);
	CHECK_EQ_INT(uncore_sim_create("x7140m-4s", NULL, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("x7400-stream.scn")), 0);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(library_scenarios_count_as_documented);
	RUN(models_are_listed_with_their_platform);
	RUN(description_counts_sockets_in_words);
	RUN(skl_counts_cbo_arb_fixed_and_imc);
	RUN(skl_cbo_slices_count_only_with_their_global_bit);
	RUN(skl_imc_wraps_at_32_bits_and_cbo_at_44);
	RUN(nhm_counts_with_per_counter_enables);
	RUN(nhm_overflow_status_and_clear);
	RUN(x7400_emon_attributes_and_global_commands);
	RUN(x7400_overflow_status_and_saturate);
	RUN(scenario_errors_name_the_units);
	RUN(audit_log_and_faults_on_flat_models);
	return harness_done();
}
