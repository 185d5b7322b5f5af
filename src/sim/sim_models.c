/* The simulated machine models.  Box counts follow the SKUs (Table 1-1 gives
 * the maxima); bus numbers and node IDs are chosen so that a wrong
 * bus-to-socket mapping shows (HSX PMON 1.6.1).  Each socket also has a root
 * bus below its uncore bus where the IRP sits (D5:F6), as on real boards
 * (00:05.6 and 80:05.6 with uncore buses 7f and ff).  Clock rates not given by
 * the manual are stated as assumptions at each model. */
#include "sim/sim_models.h"

#include <string.h>

#define GHZ(x)  ((uint64_t)((x)*1000000000.0 + 0.5))
#define MASK(n) ((n) >= 32 ? 0xffffffffu : ((1u << (n)) - 1u))

/* E5-2620 v3 boards in our model hide QPI port 1's PMON function (D9:F2)
 * while its mask/match function (D9:F6) stays visible. */
static const struct sim_hidden_fn e5_2620_hidden[] = {{9, 2}};

static const struct sim_model models[] = {
    /* Xeon E5-2699 v3: 18 cores, 18 CBos (2.3: one per 2.5 MB slice), 4
     * SBos, 2 HAs, 2 QPI ports at 9.6 GT/s, 2 R3QPI links.  iMC: all eight
     * channel PMON functions (2 iMCs x 4, Table 2-111) present and
     * populated, as the project's issue asks; note that real HCC E5 boards
     * wire two channels per iMC.  Buses 0x7f/0xff and node IDs 0/1 are the
     * usual two-socket layout (the baseline model).  Clocks: TSC 2.3 GHz
     * (SKU base), DDR4-2133 so DCLK 1066.67 MHz (2.6.3.2: half the DDR
     * rate), UCLK 2.5 GHz and PCLK 1.0 GHz (assumptions: the manual gives
     * neither), QFCLK = 9.6 GT/s / 8 = 1.2 GHz (see below). */
    {
	.info = {.name = "e5-2699v3-2s",
		 .sku = "Xeon E5-2699 v3",
		 .description = "2 sockets, 18 CBo, 4 SBo, 2 HA, 8 iMC channels, 2 QPI, 2 R3QPI; "
				"buses 7f/ff (root 00/80), node IDs 0/1",
		 .sockets = 2,
		 .platform = "hswep"},
	.cores = 18,
	.bus = {0x7f, 0xff},
	.root_bus = {0x00, 0x80},
	.node_id = {0, 1},
	.present = {[HSWEP_BOX_UBOX] = 1,
		    [HSWEP_BOX_CBO] = MASK(18),
		    [HSWEP_BOX_SBO] = MASK(4),
		    [HSWEP_BOX_HA] = MASK(2),
		    [HSWEP_BOX_IMC] = MASK(8),
		    [HSWEP_BOX_IRP] = 1,
		    [HSWEP_BOX_PCU] = 1,
		    [HSWEP_BOX_QPI] = MASK(2),
		    [HSWEP_BOX_R2PCIE] = 1,
		    [HSWEP_BOX_R3QPI] = MASK(2)},
	.populated_imc = MASK(8),
	/* QFCLK: TxL_FLITS_G0 counts up to 2 flits per qfclk (2.9.4) and a
	 * flit is 4 transfers, so qfclk = GT/s / 8, as QPI_SPEED (2.9.5)
	 * implies; the CLOCKTICKS text's "1/4th" contradicts both. */
	.clock_hz = {[HSWEP_CLK_UCLK] = GHZ(2.5),
		     [HSWEP_CLK_DCLK] = 1066666667,
		     [HSWEP_CLK_PCLK] = GHZ(1.0),
		     [HSWEP_CLK_QFCLK] = GHZ(1.2),
		     [HSWEP_CLK_TSC] = GHZ(2.3)},
	.qpi_rate = 7, /* 111b: 9.6 GT/s */
	.chop = 2,     /* the 18-core die (assumption: any non-zero chop has 4 SBos) */
    },
    /* Xeon E7-8890 v3: four sockets, 18 cores, 3 QPI ports and 3 R3QPI
     * links (Table 1-1), 2 HAs, 8 iMC channels (1.7.1: "up to 8 for E7").
     * Unusual layout: sockets 0-3 sit on buses 7f, ff, 3f, bf (not in bus
     * order) with node IDs 5, 1, 7, 3.  Clocks: TSC 2.5 GHz, DDR4-1866
     * (DCLK 933.33 MHz), UCLK 2.5 GHz and PCLK 1.0 GHz (assumptions), QPI
     * 9.6 GT/s. */
    {
	.info = {.name = "e7-8890v3-4s",
		 .sku = "Xeon E7-8890 v3",
		 .description = "4 sockets, 18 CBo, 4 SBo, 2 HA, 8 iMC channels, 3 QPI, 3 R3QPI; "
				"buses 7f/ff/3f/bf (root 40/c0/00/80), node IDs 5/1/7/3",
		 .sockets = 4,
		 .platform = "hswep"},
	.cores = 18,
	.bus = {0x7f, 0xff, 0x3f, 0xbf},
	.root_bus = {0x40, 0xc0, 0x00, 0x80},
	.node_id = {5, 1, 7, 3},
	.present = {[HSWEP_BOX_UBOX] = 1,
		    [HSWEP_BOX_CBO] = MASK(18),
		    [HSWEP_BOX_SBO] = MASK(4),
		    [HSWEP_BOX_HA] = MASK(2),
		    [HSWEP_BOX_IMC] = MASK(8),
		    [HSWEP_BOX_IRP] = 1,
		    [HSWEP_BOX_PCU] = 1,
		    [HSWEP_BOX_QPI] = MASK(3),
		    [HSWEP_BOX_R2PCIE] = 1,
		    [HSWEP_BOX_R3QPI] = MASK(3)},
	.populated_imc = MASK(8),
	.clock_hz = {[HSWEP_CLK_UCLK] = GHZ(2.5),
		     [HSWEP_CLK_DCLK] = 933333333,
		     [HSWEP_CLK_PCLK] = GHZ(1.0),
		     [HSWEP_CLK_QFCLK] = GHZ(1.2),
		     [HSWEP_CLK_TSC] = GHZ(2.5)},
	.qpi_rate = 7,
	.chop = 2,
    },
    /* Xeon E5-2620 v3: 6 cores and 15 MB LLC, so 6 CBos (6 x 2.5 MB
     * slices, 2.3).  Two SBos: 6-8 core dies have one ring pair (the Linux
     * driver reads this from CAPID4; fact only).  One HA with the four
     * channels of iMC0, of which channel 3 is a "phantom": present, counts
     * its DCLK, never sees traffic (populated mask 0x7).  QPI port 1's PMON
     * function is BIOS-hidden (reads of its IDs return all-ones).  Unusual
     * layout: socket 0 on bus ff and socket 1 on bus 7f, node IDs 0 and 2.
     * Clocks: TSC 2.4 GHz, DDR4-1866, QPI 8.0 GT/s (QFCLK 1.0 GHz), UCLK
     * 2.0 GHz and PCLK 1.0 GHz (assumptions). */
    {
	.info = {.name = "e5-2620v3-2s",
		 .sku = "Xeon E5-2620 v3",
		 .description = "2 sockets, 6 CBo, 2 SBo, 1 HA, 4 iMC channels (ch3 unpopulated), "
				"QPI port 1 PMON hidden; buses ff/7f (root 80/00), node IDs 0/2",
		 .sockets = 2,
		 .platform = "hswep"},
	.cores = 6,
	.bus = {0xff, 0x7f},
	.root_bus = {0x80, 0x00},
	.node_id = {0, 2},
	.present = {[HSWEP_BOX_UBOX] = 1,
		    [HSWEP_BOX_CBO] = MASK(6),
		    [HSWEP_BOX_SBO] = MASK(2),
		    [HSWEP_BOX_HA] = MASK(1),
		    [HSWEP_BOX_IMC] = MASK(4),
		    [HSWEP_BOX_IRP] = 1,
		    [HSWEP_BOX_PCU] = 1,
		    [HSWEP_BOX_QPI] = MASK(2),
		    [HSWEP_BOX_R2PCIE] = 1,
		    [HSWEP_BOX_R3QPI] = MASK(2)},
	.populated_imc = MASK(3),
	.n_hidden = 1,
	.hidden = e5_2620_hidden,
	.clock_hz = {[HSWEP_CLK_UCLK] = GHZ(2.0),
		     [HSWEP_CLK_DCLK] = 933333333,
		     [HSWEP_CLK_PCLK] = GHZ(1.0),
		     [HSWEP_CLK_QFCLK] = GHZ(1.0),
		     [HSWEP_CLK_TSC] = GHZ(2.4)},
	.qpi_rate = 5, /* 101b: 8.0 GT/s */
	.chop = 0,     /* the 6-8 core die: two SBos */
    },
    /* Xeon E5-2697 v4 (Broadwell-EP, the cousin platform/bdx/bdx.c): 18
     * cores, so 18 CBos (the kernel caps the CBos at the core count); 4
     * SBos (the 24-core die, CAPID4 chop non-zero), 2 HAs, 8 iMC channels,
     * 2 QPI ports at 9.6 GT/s, 2 R3QPI links; Broadwell-EP's PCI device IDs
     * (bdx.c).  Buses 7f/ff, node IDs 0/1.  Clocks: TSC 2.3 GHz (SKU base),
     * DDR4-2400 so DCLK 1.2 GHz, UCLK 2.8 GHz and PCLK 1.0 GHz
     * (assumptions), QFCLK 1.2 GHz (9.6 GT/s / 8, as above). */
    {
	.info = {.name = "e5-2697v4-2s",
		 .sku = "Xeon E5-2697 v4",
		 .description = "2 sockets, Broadwell-EP: 18 CBo, 4 SBo, 2 HA, 8 iMC channels, 2 QPI, "
				"2 R3QPI; buses 7f/ff (root 00/80), node IDs 0/1",
		 .sockets = 2,
		 .platform = "bdx"},
	.cores = 18,
	.bus = {0x7f, 0xff},
	.root_bus = {0x00, 0x80},
	.node_id = {0, 1},
	.present = {[HSWEP_BOX_UBOX] = 1,
		    [HSWEP_BOX_CBO] = MASK(18),
		    [HSWEP_BOX_SBO] = MASK(4),
		    [HSWEP_BOX_HA] = MASK(2),
		    [HSWEP_BOX_IMC] = MASK(8),
		    [HSWEP_BOX_IRP] = 1,
		    [HSWEP_BOX_PCU] = 1,
		    [HSWEP_BOX_QPI] = MASK(2),
		    [HSWEP_BOX_R2PCIE] = 1,
		    [HSWEP_BOX_R3QPI] = MASK(2)},
	.populated_imc = MASK(8),
	.clock_hz = {[HSWEP_CLK_UCLK] = GHZ(2.8),
		     [HSWEP_CLK_DCLK] = GHZ(1.2),
		     [HSWEP_CLK_PCLK] = GHZ(1.0),
		     [HSWEP_CLK_QFCLK] = GHZ(1.2),
		     [HSWEP_CLK_TSC] = GHZ(2.3)},
	.qpi_rate = 7, /* 111b: 9.6 GT/s */
	.chop = 2,
    },
    /* Core i7-6700K (Skylake S, 4 cores): 4 CBos (SKL 2.4.2 "up to four"),
     * ARB, fixed UCLK counter, IMC free-running counters at MCHBAR
     * 0xFED10000 (the usual client BIOS value).  UCLK 4.0 GHz (assumption:
     * the manual gives no ring frequency; the part's ring runs near its
     * core clock).  The flat units are, in order, cbo arb clock imc. */
    {
	.info = {.name = "i7-6700k",
		 .sku = "Core i7-6700K",
		 .description = "1 socket, Skylake client: 4 CBo, ARB, UCLK fixed counter, IMC "
				"free-running counters (MMIO at MCHBAR 0xfed10000)",
		 .sockets = 1,
		 .platform = "skl",
		 .flat = 1,
		 .default_scenario = "skl-stream"},
	.cores = 4,
	.present = {MASK(4), 1, 1, 1},
	.clock_hz = {GHZ(4.0), [HSWEP_CLK_TSC] = GHZ(4.0)}, /* TSC: the SKU's base clock */
	.flat = &sim_flat_skl,
	.mchbar = 0xfed10000u,
    },
    /* Core i7-7700K (Kaby Lake S, 4 cores): Skylake client's uncore (the
     * cousin platform/kbl/kbl.c), base clock 4.2 GHz; UCLK 4.2 GHz, the same
     * assumption as the i7-6700K's. */
    {
	.info = {.name = "i7-7700k",
		 .sku = "Core i7-7700K",
		 .description = "1 socket, Kaby Lake client (Skylake client uncore): 4 CBo, ARB, "
				"UCLK fixed counter, IMC free-running counters (MMIO at MCHBAR "
				"0xfed10000)",
		 .sockets = 1,
		 .platform = "kbl",
		 .flat = 1,
		 .default_scenario = "skl-stream"},
	.cores = 4,
	.present = {MASK(4), 1, 1, 1},
	.clock_hz = {GHZ(4.2), [HSWEP_CLK_TSC] = GHZ(4.2)},
	.flat = &sim_flat_skl,
	.mchbar = 0xfed10000u,
    },
    /* Xeon X5570 (Nehalem-EP), two sockets: the uncore PMU of each package
     * (8 general counters, the fixed UCLK counter, MSRs 396h and 301h).
     * UCLK 2.66 GHz (the X5570's uncore clock at QPI 6.4 GT/s). */
    {
	.info = {.name = "x5570-2s",
		 .sku = "Xeon X5570",
		 .description = "2 sockets, Nehalem uncore PMU: 8 general counters, fixed UCLK "
				"counter, address/opcode match (MSR 396h)",
		 .sockets = 2,
		 .platform = "nhm",
		 .flat = 1,
		 .default_scenario = "nhm-stream"},
	.cores = 4,
	.present = {1, 1},
	.clock_hz = {2666666667u, [HSWEP_CLK_TSC] = GHZ(2.93)},
	.flat = &sim_flat_nhm,
    },
    /* Xeon X5670 (Westmere-EP, 06_2CH), two sockets: Nehalem's uncore PMU
     * (SDM 18.8.2), Westmere's events (SDM Table 19-20).  UCLK 2.66 GHz
     * (the X5670's uncore clock at QPI 6.4 GT/s), cores 2.93 GHz. */
    {
	.info = {.name = "x5670-2s",
		 .sku = "Xeon X5670",
		 .description = "2 sockets, Westmere uncore PMU (Nehalem's): 8 general counters, "
				"fixed UCLK counter, snoop-state filter (MSR 301h)",
		 .sockets = 2,
		 .platform = "wsm",
		 .flat = 1,
		 .default_scenario = "nhm-stream"},
	.cores = 6,
	.present = {1, 1},
	.clock_hz = {2666666667u, [HSWEP_CLK_TSC] = GHZ(2.93)},
	.flat = &sim_flat_nhm,
    },
    /* Xeon X7460 (Dunnington), four sockets: eight EMON counters per
     * package (GBSQ CTL0/1, GSNPQ CTL2/3, FSB CTL4-7) and MSR_EMON_L3_GL_CTL.
     * Clocks: GBSQ/GSNPQ at the core clock, 2.66 GHz; FSB events at the bus
     * clock, 266.67 MHz (1066 MT/s FSB). */
    {
	.info = {.name = "x7460-4s",
		 .sku = "Xeon X7460",
		 .description = "4 sockets, Xeon 7400 L3/FSB EMON: GBSQ (2), GSNPQ (2), FSB (4) "
				"counters, MSR_EMON_L3_GL_CTL",
		 .sockets = 4,
		 .platform = "x7400",
		 .flat = 1,
		 .default_scenario = "x7400-stream"},
	.cores = 6,
	.present = {1, 1, 1},
	.clock_hz = {2666666667u, 266666667u, [HSWEP_CLK_TSC] = 2666666667u},
	.flat = &sim_flat_x7400,
    },
    /* Dual-Core Xeon 7140M (Tulsa), four sockets: the same EMON registers
     * (SDM 18.21).  Core 3.4 GHz; FSB 800 MT/s, bus clock 200 MHz. */
    {
	.info = {.name = "x7140m-4s",
		 .sku = "Xeon 7140M",
		 .description = "4 sockets, Xeon 7100 L3/FSB EMON: GBSQ (2), GSNPQ (2), FSB (4) "
				"counters, MSR_EMON_L3_GL_CTL",
		 .sockets = 4,
		 .platform = "x7100",
		 .flat = 1,
		 .default_scenario = "x7400-stream"},
	.cores = 2,
	.present = {1, 1, 1},
	.clock_hz = {GHZ(3.4), 200000000u, [HSWEP_CLK_TSC] = GHZ(3.4)},
	.flat = &sim_flat_x7100,
    },
};

size_t sim_model_count(void)
{
	return sizeof(models) / sizeof(models[0]);
}

const struct sim_model *sim_model_at(size_t i)
{
	return i < sim_model_count() ? &models[i] : NULL;
}

const struct sim_model *sim_model_by_name(const char *name)
{
	for (size_t i = 0; name && i < sim_model_count(); i++)
		if (strcmp(models[i].info.name, name) == 0)
			return &models[i];
	return NULL;
}

int sim_model_hidden(const struct sim_model *m, unsigned dev, unsigned fn)
{
	for (unsigned i = 0; i < m->n_hidden; i++)
		if (m->hidden[i].dev == dev && m->hidden[i].fn == fn)
			return 1;
	return 0;
}

size_t uncore_sim_model_count(void)
{
	return sim_model_count();
}

const struct uncore_sim_model_info *uncore_sim_model_by_name(const char *name)
{
	const struct sim_model *m = sim_model_by_name(name);
	return m ? &m->info : NULL;
}

const struct uncore_sim_model_info *uncore_sim_model(size_t i)
{
	const struct sim_model *m = sim_model_at(i);
	return m ? &m->info : NULL;
}
