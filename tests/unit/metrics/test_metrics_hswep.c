/* Every Haswell-EP metric (metrics/hswep.metrics) measured on the simulator
 * against scenarios whose counts are known: each box's scenario below feeds
 * the events the metrics use at fixed per-cycle ratios, and each row says,
 * from those ratios alone, what the manual's formula gives.  Counts follow
 * SCENARIOS.md exactly: a `ratio=n/d` stream adds floor(c * n / d) in c
 * cycles of its box's clock, and the model e5-2699v3-2s runs UCLK at
 * 2.5 GHz, DCLK at 1066666667 Hz, PCLK at 1 GHz, QFCLK at 1.2 GHz (the
 * model's table).  Multiplexed metrics are read at whole multiples of every
 * stream's period, so constant rates give the exact value; spread metrics
 * are exact because every CBo gets the same stream.  A final test checks
 * that every metric of the file has a row here. */
#include "common/uncore_error.h"
#include "harness.h"
#include "metrics/metrics.h"
#include "sim_set.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MODEL "e5-2699v3-2s"
#define GB    1e9 /* metrics/hswep.metrics: const GB = 10^9 */

/* Boxes of the model, over both sockets. */
#define N_CBO 36.0
#define N_SBO 8.0
#define N_HA  4.0
#define N_IMC 16.0
#define N_QPI 4.0
#define N_R2  2.0

#define HEAD "include hswep-clocks.scn\ninclude hswep-shapes.scn\n"

/* Scenarios: per instance of the box, every socket. */

/* CBo queues, ring, lookups, victims.  1 ms = 2,500,000 UCLK. */
static const char cbo_q[] =
    HEAD "stream cbo ev=0x11 umask=0x01 pattern=3,3,0,0\n" /* RxR_OCCUPANCY.IRQ: 1.5/cycle, busy 2
							      of 4 */
	 "stream cbo ev=0x13 umask=0x01 ratio=1/4\n"       /* RxR_INSERTS.IRQ */
	 "stream cbo ev=0x13 umask=0x02 ratio=1/20\n"      /* RxR_INSERTS.IRQ_REJ */
	 "stream cbo ev=0x12 umask=0x01 ratio=1/5\n"       /* RxR_EXT_STARVED.IRQ */
	 "stream cbo ev=0x1d umask=0x01 ratio=1/10\n"      /* RING_BL_USED.UP_EVEN */
	 "stream cbo ev=0x1d umask=0x02 ratio=1/20\n"      /* UP_ODD */
	 "stream cbo ev=0x1d umask=0x04 ratio=1/8\n"       /* DOWN_EVEN */
	 "stream cbo ev=0x1d umask=0x08 ratio=1/16\n"      /* DOWN_ODD */
	 /* LLC_LOOKUP data reads (DATA_READ|ANY|READ) by state, writes (WRITE|ANY). */
	 "stream cbo ev=0x34 umask=0x32 state=I ratio=1/10\n"
	 "stream cbo ev=0x34 umask=0x32 state=S ratio=1/20\n"
	 "stream cbo ev=0x34 umask=0x32 state=E ratio=1/25\n"
	 "stream cbo ev=0x34 umask=0x32 state=M ratio=1/50\n"
	 "stream cbo ev=0x34 umask=0x32 state=F ratio=1/100\n"
	 "stream cbo ev=0x34 umask=0x14 state=I ratio=1/40\n"
	 "stream cbo ev=0x34 umask=0x14 state=M ratio=1/80\n"
	 "stream cbo ev=0x37 umask=0x01 ratio=1/30\n"; /* LLC_VICTIMS.M_STATE */

/* CBo TOR by opcode (table 2-20); node IDs 0 and 1 are sockets 0 and 1. */
static const char cbo_tor[] = HEAD
    /* DRd occupancy (counter 0): hits 2,0,0,0; local misses 0,0,3,0; remote 0,0,1,0 */
    "stream cbo ev=0x36 umask=0x01 opc=0x182 pattern=2,0,0,0\n"
    "stream cbo ev=0x36 umask=0x03 opc=0x182 nid=0 socket=0 pattern=0,0,3,0\n"
    "stream cbo ev=0x36 umask=0x03 opc=0x182 nid=1 socket=1 pattern=0,0,3,0\n"
    "stream cbo ev=0x36 umask=0x03 opc=0x182 nid=1 socket=0 pattern=0,0,1,0\n"
    "stream cbo ev=0x36 umask=0x03 opc=0x182 nid=0 socket=1 pattern=0,0,1,0\n"
    /* DRd inserts: hits 1/50, local misses 1/100, remote misses 1/200 */
    "stream cbo ev=0x35 umask=0x01 opc=0x182 ratio=1/50\n"
    "stream cbo ev=0x35 umask=0x03 opc=0x182 nid=0 socket=0 ratio=1/100\n"
    "stream cbo ev=0x35 umask=0x03 opc=0x182 nid=1 socket=1 ratio=1/100\n"
    "stream cbo ev=0x35 umask=0x03 opc=0x182 nid=1 socket=0 ratio=1/200\n"
    "stream cbo ev=0x35 umask=0x03 opc=0x182 nid=0 socket=1 ratio=1/200\n"
    /* ItoM: core misses, core hits, from the IIO (tid 0x3E) */
    "stream cbo ev=0x35 umask=0x03 opc=0x1c8 ratio=1/125\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x1c8 ratio=1/250\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x1c8 tid=0x3e ratio=1/500\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x1e6 ratio=1/400\n" /* PCINSWrF */
    "stream cbo ev=0x35 umask=0x01 opc=0x19e ratio=1/80\n"  /* PCIRdCur */
    "stream cbo ev=0x35 umask=0x01 opc=0x1e4 ratio=1/800\n" /* PCINSRd */
    /* RFO: core misses, core hits, IIO hits, IIO misses */
    "stream cbo ev=0x35 umask=0x03 opc=0x180 ratio=1/40\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x180 ratio=1/40\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x180 tid=0x3e ratio=1/160\n"
    "stream cbo ev=0x35 umask=0x03 opc=0x180 tid=0x3e ratio=1/320\n"
    "stream cbo ev=0x35 umask=0x01 opc=0x187 nc=1 ratio=1/1000\n" /* PRd, non-coherent */
    "stream cbo ev=0x35 umask=0x03 opc=0x187 ratio=1/500\n"       /* PRd misses */
    "stream cbo ev=0x35 umask=0x01 opc=0x18f nc=1 ratio=1/2000\n" /* WiL, non-coherent */
    "stream cbo ev=0x35 umask=0x01 opc=0x18c ratio=1/600\n"       /* WCiLF */
    "stream cbo ev=0x35 umask=0x01 opc=0x18d ratio=1/700\n";      /* WCiL */

static const char sbo[] = HEAD "stream sbo ev=0x1d umask=0x01 ratio=1/2\n"
			       "stream sbo ev=0x1d umask=0x02 ratio=1/4\n"
			       "stream sbo ev=0x1d umask=0x04 ratio=1/8\n"
			       "stream sbo ev=0x1d umask=0x08 ratio=1/16\n";

static const char ha[] =
    HEAD "stream ha ev=0x70 umask=0x10 ratio=1/10\n"  /* HITME_LOOKUP.ALLOCS */
	 "stream ha ev=0x71 umask=0x40 ratio=1/40\n"  /* HITME_HIT.ALLOCS */
	 "stream ha ev=0x71 umask=0x04 ratio=1/50\n"  /* HITME_HIT.INVALS */
	 "stream ha ev=0x36 umask=0x01 ratio=1/20\n"  /* TxR_BL_CYCLES_FULL.SCHED0 */
	 "stream ha ev=0x12 ratio=1/25\n"             /* DIRECT2CORE_CYCLES_DISABLED */
	 "stream ha ev=0x01 umask=0x01 ratio=1/5\n"   /* REQUESTS.READS_LOCAL */
	 "stream ha ev=0x01 umask=0x02 ratio=1/10\n"  /* READS_REMOTE */
	 "stream ha ev=0x01 umask=0x04 ratio=1/20\n"  /* WRITES_LOCAL */
	 "stream ha ev=0x01 umask=0x08 ratio=1/40\n"; /* WRITES_REMOTE */

/* iMC: 3 ms = 3,200,000 DCLK. */
static const char imc[] =
    HEAD "stream imc ev=0x04 umask=0x01 ratio=1/4\n"  /* CAS_COUNT.RD_REG */
	 "stream imc ev=0x04 umask=0x04 ratio=1/8\n"  /* CAS_COUNT.WR_WMM */
	 "stream imc ev=0x10 ratio=1/5\n"             /* RPQ_INSERTS */
	 "stream imc ev=0x01 umask=0x01 ratio=1/10\n" /* ACT_COUNT.RD */
	 "stream imc ev=0x01 umask=0x02 ratio=1/20\n" /* ACT_COUNT.WR */
	 "stream imc ev=0x01 umask=0x08 ratio=1/40\n" /* ACT_COUNT.BYP */
	 "stream imc ev=0x02 umask=0x01 ratio=1/16\n" /* PRE_COUNT.PAGE_MISS */
	 "stream imc ev=0x86 ratio=1/50\n"            /* POWER_CRITICAL_THROTTLE_CYCLES */
	 "stream imc ev=0x84 ratio=1/25\n"            /* POWER_CHANNEL_DLLOFF */
	 "stream imc ev=0x85 ratio=1/8\n"             /* POWER_CHANNEL_PPD */
	 "stream imc ev=0x43 ratio=1/32\n"            /* POWER_SELF_REFRESH */
	 /* POWER_CKE_CYCLES.RANKx (x+1)/10, POWER_THROTTLE_CYCLES.RANKx (x+1)/100 */
	 "stream imc ev=0x83 umask=0x01 ratio=1/10\nstream imc ev=0x83 umask=0x02 ratio=2/10\n"
	 "stream imc ev=0x83 umask=0x04 ratio=3/10\nstream imc ev=0x83 umask=0x08 ratio=4/10\n"
	 "stream imc ev=0x83 umask=0x10 ratio=5/10\nstream imc ev=0x83 umask=0x20 ratio=6/10\n"
	 "stream imc ev=0x83 umask=0x40 ratio=7/10\nstream imc ev=0x83 umask=0x80 ratio=8/10\n"
	 "stream imc ev=0x41 umask=0x01 ratio=1/100\nstream imc ev=0x41 umask=0x02 ratio=2/100\n"
	 "stream imc ev=0x41 umask=0x04 ratio=3/100\nstream imc ev=0x41 umask=0x08 ratio=4/100\n"
	 "stream imc ev=0x41 umask=0x10 ratio=5/100\nstream imc ev=0x41 umask=0x20 ratio=6/100\n"
	 "stream imc ev=0x41 umask=0x40 ratio=7/100\nstream imc ev=0x41 umask=0x80 ratio=8/100\n";

static const char pcu[] =
    HEAD "stream pcu ev=0x06 ratio=1/4\n"   /* FREQ_MAX_OS_CYCLES */
	 "stream pcu ev=0x05 ratio=1/8\n"   /* FREQ_MAX_POWER_CYCLES */
	 "stream pcu ev=0x04 ratio=1/16\n"; /* FREQ_MAX_LIMIT_THERMAL_CYCLES */

/* QPI: received packets (CTO_COUNT match on mc/opcode/dnid/rds, table
 * 2-176), flits, power states.  1.2 ms = 1,440,000 QFCLK, read every
 * 100 us (120,000 QFCLK, a multiple of every period below). */
#define DRS "stream qpi ev=0x38 ext=1 dir=rx mc=0xe "
static const char qpi[] = HEAD DRS
    "popc=0 dnid=0 rds=1 ratio=1/20\n"      /* DataC_F */
    DRS "popc=0 dnid=0 rds=4 ratio=1/40\n"  /* DataC_E */
    DRS "popc=0 dnid=0 rds=8 ratio=1/30\n"  /* DataC_M */
    DRS "popc=2 dnid=0 rds=4 ratio=1/60\n"  /* DataC_E_Cmp */
    DRS "popc=2 dnid=0 rds=1 ratio=1/80\n"  /* DataC_F_Cmp */
    DRS "popc=1 dnid=0 rds=4 ratio=1/100\n" /* DataC_E_FrcAckCnflt */
    DRS "popc=1 dnid=0 rds=1 ratio=1/120\n" /* DataC_F_FrcAckCnflt */
    DRS "popc=4 dnid=0 ratio=1/50\n"        /* WbIData */
    DRS "popc=5 dnid=0 ratio=1/75\n"        /* WbSData */
    DRS "popc=6 dnid=0 ratio=1/150\n"       /* WbEData */
    DRS "popc=9 dnid=0 ratio=1/600\n"       /* a partial-line DRS (0x1D20) */
    DRS "popc=0 dnid=1 rds=1 ratio=1/200\n" /* DataC_F to node 1 */
    DRS "popc=4 dnid=1 ratio=1/300\n"       /* WbIData to node 1 */
    "stream qpi ev=0x38 ext=1 dir=rx mc=0xc popc=0 dnid=0 ratio=1/25\n"  /* NCB, not an interrupt */
    "stream qpi ev=0x38 ext=1 dir=rx mc=0xc popc=8 dnid=0 ratio=1/400\n" /* NCB interrupt (0x1900)
									  */
    "stream qpi ev=0x02 ext=1 umask=0x08 inc=1\n"                        /* RxL_FLITS_G1.DRS_DATA */
    "stream qpi ev=0x03 ext=1 umask=0x04 ratio=1/3\n"                    /* RxL_FLITS_G2.NCB_DATA */
    "stream qpi ev=0x13 umask=0x01 ratio=1/10\n" /* DIRECT2CORE.SUCCESS_RBT_HIT */
    "stream qpi ev=0x00 umask=0x02 ratio=3/4\n"  /* TxL_FLITS_G0.DATA */
    "stream qpi ev=0x00 umask=0x04 ratio=1/2\n"  /* TxL_FLITS_G0.NON_DATA */
    "stream qpi ev=0x0f ratio=9/10\n"            /* RxL0_POWER_CYCLES */
    "stream qpi ev=0x10 ratio=1/20\n"            /* RxL0P_POWER_CYCLES */
    "stream qpi ev=0x12 ratio=1/40\n";           /* L1_POWER_CYCLES */

static const char r2[] = HEAD "stream r2pcie ev=0x09 umask=0x01 ratio=1/3\n"   /* CW_EVEN */
			      "stream r2pcie ev=0x09 umask=0x02 ratio=1/6\n"   /* CW_ODD */
			      "stream r2pcie ev=0x09 umask=0x04 ratio=1/5\n"   /* CCW_EVEN */
			      "stream r2pcie ev=0x09 umask=0x08 ratio=1/10\n"; /* CCW_ODD */

struct scen {
	const char *name, *text;
	uint64_t ns;    /* measured interval */
	unsigned reads; /* equal steps, a read after each */
	double hz;      /* the box clock */
};

static const struct scen S_CBO_Q = {"cbo_q", cbo_q, 1000000, 1, 2.5e9};
static const struct scen S_CBO_TOR = {"cbo_tor", cbo_tor, 1000000, 1, 2.5e9};
static const struct scen S_SBO = {"sbo", sbo, 1000000, 1, 2.5e9};
static const struct scen S_HA = {"ha", ha, 1000000, 1, 2.5e9};
static const struct scen S_IMC = {"imc", imc, 3000000, 1, 1066666667.0};
static const struct scen S_PCU = {"pcu", pcu, 1000000, 1, 1e9};
static const struct scen S_QPI = {"qpi", qpi, 1200000, 12, 1.2e9};
static const struct scen S_R2 = {"r2", r2, 1000000, 1, 2.5e9};

/* Expected values, from the ratios. */

static double C; /* cycles of the scenario's box clock in the interval */
static double T; /* the interval in seconds */

/* floor(c * n / d): what a ratio stream adds in c cycles (SCENARIOS.md) */
static double R(double n, double d)
{
	return floor(C * n / d);
}

#define E(fn, expr)                                                                                \
	static double fn(void)                                                                     \
	{                                                                                          \
		return (expr);                                                                     \
	}

/* CBo queues */
E(avg_ingress_depth, 1.5 * C / C)
E(avg_ingress_latency, 1.5 * C / R(1, 4))
E(avg_ingress_latency_ne, 1.5 * C / (C / 4)) /* busy periods: one per 4 cycles */
E(cyc_ingress_blocked, R(1, 5) / C)
E(cbo_cyc_used_dn, (R(1, 8) + R(1, 16)) / C)
E(cbo_cyc_used_up, (R(1, 10) + R(1, 20)) / C)
E(ingress_rej, R(1, 20) / R(1, 4))
static double drd_all(void)
{
	return R(1, 10) + R(1, 20) + R(1, 25) + R(1, 50) + R(1, 100);
}
E(llc_drd_miss_pct, R(1, 10) / drd_all())
E(llc_mpi_part, N_CBO *(R(1, 10) + R(1, 40)))
E(mem_wb_bytes, N_CBO *R(1, 30) * 64)
E(cbo_ring_dn, N_CBO *(R(1, 8) + R(1, 16)) * 32)
E(cbo_ring_up, N_CBO *(R(1, 10) + R(1, 20)) * 32)
E(mem_wb_bw, N_CBO *R(1, 30) * 64 / T / GB)
/* CBo TOR: occupancies hits 2,0,0,0, misses 0,0,4,0 (3 local + 1 remote) */
static double ins_drd(void)
{
	return R(1, 50) + R(1, 100) + R(1, 200);
}
E(tor_drds_ne, (1.5 * C) / (C / 2)) /* 2,0,4,0: two busy periods per 4 cycles */
E(tor_drds_miss_ne, (1.0 * C) / (C / 4))
E(tor_hit_lat, (1.5 * C - 1.0 * C) / (ins_drd() - R(1, 100) - R(1, 200)))
E(tor_drd_lat, 1.5 * C / ins_drd())
E(tor_loc_miss_lat, 0.75 * C / R(1, 100))
E(tor_miss_lat, 1.0 * C / (R(1, 100) + R(1, 200)))
E(tor_rem_miss_lat, 0.25 * C / R(1, 200))
E(fast_str_miss, N_CBO *R(1, 125))
E(fast_str_req, N_CBO *(R(1, 125) + R(1, 250) + R(1, 500)))
E(io_read_mb, N_CBO *(R(1, 500) + R(1, 400)) * 64 / 1e6)
E(io_write_mb, N_CBO *(R(1, 80) + R(1, 800)) * 64 / 1e6)
E(llc_rfo_miss_pct, (R(1, 40) + R(1, 320)) / (2 * R(1, 40) + R(1, 160) + R(1, 320)) -
			R(1, 320) / (R(1, 160) + R(1, 320)))
E(mmio_partial_reads, N_CBO *R(1, 1000))
E(mmio_writes, N_CBO *R(1, 2000))
E(partial_pci_writes, N_CBO *(R(1, 160) + R(1, 320)))
E(pci_reads, N_CBO *R(1, 80))
E(pci_writes, N_CBO *R(1, 500))
E(streamed_full, N_CBO *R(1, 600))
E(streamed_part, N_CBO *R(1, 700))
E(uc_reads, N_CBO *R(1, 500))
E(llc_miss_latency_ns, tor_miss_lat() * 1000.0 / 2500.0) /* UNCORE_FREQUENCY: 2500 MHz */
E(io_read_bw, io_read_mb() * 1e6 / T / GB)
E(io_write_bw, io_write_mb() * 1e6 / T / GB)
E(pci_reads_socket1, N_CBO / 2 * R(1, 80))
/* SBo */
E(sbo_dneven, N_SBO *R(1, 8))
E(sbo_dnodd, N_SBO *R(1, 16))
E(sbo_upeven, N_SBO *R(1, 2))
E(sbo_upodd, N_SBO *R(1, 4))
E(sbo_thru_dneven, N_SBO *R(1, 8) * 32)
E(sbo_thru_dnodd, N_SBO *R(1, 16) * 32)
E(sbo_thru_upeven, N_SBO *R(1, 2) * 32)
E(sbo_thru_upodd, N_SBO *R(1, 4) * 32)
/* HA */
E(hitme_inserts, N_HA *(R(1, 10) - R(1, 40)))
E(hitme_inval, N_HA *R(1, 50))
E(ha_bl_full, R(1, 20) / C)
E(ha_d2c, R(1, 25) / C)
static double ha_rd(void)
{
	return R(1, 5) + R(1, 10);
}
static double ha_wr(void)
{
	return R(1, 20) + R(1, 40);
}
E(ha_pct_rd, ha_rd() / (ha_rd() + ha_wr()))
E(ha_pct_wr, ha_wr() / (ha_rd() + ha_wr()))
/* iMC */
E(mem_bw_reads, N_IMC *R(1, 4) * 64)
E(mem_bw_writes, N_IMC *R(1, 8) * 64)
E(mem_bw_total, N_IMC *(R(1, 4) + R(1, 8)) * 64)
E(crit_throttle, R(1, 50) / C)
E(dlloff, R(1, 25) / C)
E(ppd, R(1, 8) / C)
E(self_refresh, R(1, 32) / C)
E(imc_pct_rd, R(1, 5) / (R(1, 5) + R(1, 8)))
E(imc_pct_wr, R(1, 8) / (R(1, 5) + R(1, 8)))
static double act(void)
{
	return R(1, 10) + R(1, 20) + R(1, 40);
}
E(page_empty, (act() - R(1, 16)) / (R(1, 4) + R(1, 8)))
E(page_miss, R(1, 16) / (R(1, 4) + R(1, 8)))
E(page_hit, 1 - (page_empty() + page_miss()))
E(dram_read_bw, mem_bw_reads() / T / GB)
E(dram_write_bw, mem_bw_writes() / T / GB)
E(dram_bw, mem_bw_total() / T / GB)
E(dram_bw_socket0, mem_bw_total() / 2 / T / GB)
/* PCU */
E(freq_os, R(1, 4) / C)
E(freq_power, R(1, 8) / C)
E(freq_thermal, R(1, 16) / C)
E(uncore_freq, 2500.0)
/* QPI, per port */
static double datac_node0(void)
{
	return R(1, 20) + R(1, 40) + R(1, 30) + R(1, 60) + R(1, 80) + R(1, 100) + R(1, 120);
}
static double drs_write_node0(void)
{
	return R(1, 50) + R(1, 75) + R(1, 150) + R(1, 600);
}
E(drs_data_msgs, N_QPI *C * 8)
E(ncb_data_msgs, N_QPI *R(1, 3) * 8)
E(data_from_qpi, N_QPI *(C + R(1, 3)) * 8)
E(data_to_llc, N_QPI *R(1, 10) * 64)
E(data_to_ha_iio, data_from_qpi() - data_to_llc())
E(datac_to_node0, N_QPI *datac_node0() * 64)
E(datac_to_node1, N_QPI *R(1, 200) * 64)
E(drs_write_to_node0, N_QPI *drs_write_node0() * 64)
E(drs_write_to_node1, N_QPI *R(1, 300) * 64)
E(ncb_to_node0, N_QPI *R(1, 25) * 64)
E(data_to_node0, datac_to_node0() + drs_write_to_node0() + ncb_to_node0())
E(data_to_node1, datac_to_node1() + drs_write_to_node1())
E(zero, 0)
E(datac_f, N_QPI *(R(1, 20) + R(1, 200)) * 64) /* DRS_DataC_M_FROM_QPI counts F (decision) */
E(drs_full, N_QPI *(datac_node0() + R(1, 50) + R(1, 75) + R(1, 150) + R(1, 200) + R(1, 300)) * 64)
E(drs_f_or_e, N_QPI *(datac_node0() - R(1, 30) + R(1, 200)) * 64)
E(drs_m, N_QPI *R(1, 30) * 64)
E(drs_ptl, N_QPI *R(1, 600) * 64)
E(drs_wbi, N_QPI *(R(1, 50) + R(1, 300)) * 64)
E(drs_wbs, N_QPI *R(1, 75) * 64)
E(drs_wbe, N_QPI *R(1, 150) * 64)
E(drs_wb, drs_wbi() + drs_wbs() + drs_wbe())
E(full_power, R(9, 10) / C)
E(half_disabled, R(1, 20) / C)
E(shutdown, R(1, 40) / C)
E(qpi_data_bw, N_QPI *R(3, 4) * 8)
E(qpi_link_bw, N_QPI *(R(3, 4) + R(1, 2)) * 8)
E(qpi_link_util, (R(3, 4) + R(1, 2)) / (2 * C))
E(qpi_speed, 9.6)
E(qpi_data_gbs, qpi_data_bw() / T / GB)
E(qpi_link_gbs, qpi_link_bw() / T / GB)
/* R2PCIe */
E(r2_dn, (R(1, 5) + R(1, 10)) / C)
E(r2_up, (R(1, 3) + R(1, 6)) / C)
E(r2_thru_dn, N_R2 *(R(1, 5) + R(1, 10)) * 32)
E(r2_thru_up, N_R2 *(R(1, 3) + R(1, 6)) * 32)

/* COUNTING_TIME: the measured interval (the virtual clock stands still
 * during reads, so no freeze is left out). */
static double imc_interval_ns(void)
{
	return (double)S_IMC.ns;
}

struct row {
	const char *metric;
	const struct scen *s;
	double (*expect)(void);
};

static const struct row rows[] = {
    {"hswep_unc_cbo::AVG_INGRESS_DEPTH", &S_CBO_Q, avg_ingress_depth},
    {"hswep_unc_cbo::AVG_INGRESS_LATENCY", &S_CBO_Q, avg_ingress_latency},
    {"hswep_unc_cbo::AVG_INGRESS_LATENCY_WHEN_NE", &S_CBO_Q, avg_ingress_latency_ne},
    {"hswep_unc_cbo::CYC_INGRESS_BLOCKED", &S_CBO_Q, cyc_ingress_blocked},
    {"hswep_unc_cbo::CYC_USED_DN", &S_CBO_Q, cbo_cyc_used_dn},
    {"hswep_unc_cbo::CYC_USED_UP", &S_CBO_Q, cbo_cyc_used_up},
    {"hswep_unc_cbo::INGRESS_REJ_V_INS", &S_CBO_Q, ingress_rej},
    {"hswep_unc_cbo::LLC_DRD_MISS_PCT", &S_CBO_Q, llc_drd_miss_pct},
    {"hswep_unc_cbo::LLC_MPI_UNCORE_PART", &S_CBO_Q, llc_mpi_part},
    {"hswep_unc_cbo::MEM_WB_BYTES", &S_CBO_Q, mem_wb_bytes},
    {"hswep_unc_cbo::RING_THRU_DN_BYTES", &S_CBO_Q, cbo_ring_dn},
    {"hswep_unc_cbo::RING_THRU_UP_BYTES", &S_CBO_Q, cbo_ring_up},
    {"hswep_metric::LLC_MISS_RATIO", &S_CBO_Q, llc_drd_miss_pct},
    {"hswep_metric::MEM_WB_BW", &S_CBO_Q, mem_wb_bw},
    {"hswep_unc_cbo::AVG_TOR_DRDS_WHEN_NE", &S_CBO_TOR, tor_drds_ne},
    {"hswep_unc_cbo::AVG_TOR_DRDS_MISS_WHEN_NE", &S_CBO_TOR, tor_drds_miss_ne},
    {"hswep_unc_cbo::AVG_TOR_DRD_HIT_LATENCY", &S_CBO_TOR, tor_hit_lat},
    {"hswep_unc_cbo::AVG_TOR_DRD_LATENCY", &S_CBO_TOR, tor_drd_lat},
    {"hswep_unc_cbo::AVG_TOR_DRD_LOC_MISS_LATENCY", &S_CBO_TOR, tor_loc_miss_lat},
    {"hswep_unc_cbo::AVG_TOR_DRD_MISS_LATENCY", &S_CBO_TOR, tor_miss_lat},
    {"hswep_unc_cbo::AVG_TOR_DRD_REM_MISS_LATENCY", &S_CBO_TOR, tor_rem_miss_lat},
    {"hswep_unc_cbo::FAST_STR_LLC_MISS", &S_CBO_TOR, fast_str_miss},
    {"hswep_unc_cbo::FAST_STR_LLC_REQ", &S_CBO_TOR, fast_str_req},
    {"hswep_unc_cbo::IO_READ_BW", &S_CBO_TOR, io_read_mb},
    {"hswep_unc_cbo::IO_WRITE_BW", &S_CBO_TOR, io_write_mb},
    {"hswep_unc_cbo::LLC_RFO_MISS_PCT", &S_CBO_TOR, llc_rfo_miss_pct},
    {"hswep_unc_cbo::MMIO_PARTIAL_READS_CPU", &S_CBO_TOR, mmio_partial_reads},
    {"hswep_unc_cbo::MMIO_WRITES_CPU", &S_CBO_TOR, mmio_writes},
    {"hswep_unc_cbo::PARTIAL_PCI_WRITES", &S_CBO_TOR, partial_pci_writes},
    {"hswep_unc_cbo::PCI_READS", &S_CBO_TOR, pci_reads},
    {"hswep_unc_cbo::PCI_READS:socket=1", &S_CBO_TOR, pci_reads_socket1},
    {"hswep_unc_cbo::PCI_WRITES", &S_CBO_TOR, pci_writes},
    {"hswep_unc_cbo::STREAMED_FULL_STORES", &S_CBO_TOR, streamed_full},
    {"hswep_unc_cbo::STREAMED_PART_STORES", &S_CBO_TOR, streamed_part},
    {"hswep_unc_cbo::UC_READS", &S_CBO_TOR, uc_reads},
    {"hswep_metric::LLC_MISS_LATENCY", &S_CBO_TOR, llc_miss_latency_ns},
    {"hswep_metric::IO_READ_BW", &S_CBO_TOR, io_read_bw},
    {"hswep_metric::IO_WRITE_BW", &S_CBO_TOR, io_write_bw},
    {"hswep_metric::UNCORE_FREQ", &S_CBO_TOR, uncore_freq},
    {"hswep_unc_sbo::CYC_USED_DNEVEN_UNCORE_PART", &S_SBO, sbo_dneven},
    {"hswep_unc_sbo::CYC_USED_DNODD_UNCORE_PART", &S_SBO, sbo_dnodd},
    {"hswep_unc_sbo::CYC_USED_UPEVEN_UNCORE_PART", &S_SBO, sbo_upeven},
    {"hswep_unc_sbo::CYC_USED_UPODD_UNCORE_PART", &S_SBO, sbo_upodd},
    {"hswep_unc_sbo::RING_THRU_DNEVEN_BYTES", &S_SBO, sbo_thru_dneven},
    {"hswep_unc_sbo::RING_THRU_DNODD_BYTES", &S_SBO, sbo_thru_dnodd},
    {"hswep_unc_sbo::RING_THRU_UPEVEN_BYTES", &S_SBO, sbo_thru_upeven},
    {"hswep_unc_sbo::RING_THRU_UPODD_BYTES", &S_SBO, sbo_thru_upodd},
    {"hswep_unc_ha::HITME_INSERTS", &S_HA, hitme_inserts},
    {"hswep_unc_ha::HITME_INVAL", &S_HA, hitme_inval},
    {"hswep_unc_ha::PCT_CYCLES_BL_FULL", &S_HA, ha_bl_full},
    {"hswep_unc_ha::PCT_CYCLES_D2C_DISABLED", &S_HA, ha_d2c},
    {"hswep_unc_ha::PCT_RD_REQUESTS", &S_HA, ha_pct_rd},
    {"hswep_unc_ha::PCT_WR_REQUESTS", &S_HA, ha_pct_wr},
    {"hswep_unc_imc::MEM_BW_READS", &S_IMC, mem_bw_reads},
    {"hswep_unc_imc::MEM_BW_WRITES", &S_IMC, mem_bw_writes},
    {"hswep_unc_imc::MEM_BW_TOTAL", &S_IMC, mem_bw_total},
    {"hswep_unc_imc::PCT_CYCLES_CRITICAL_THROTTLE", &S_IMC, crit_throttle},
    {"hswep_unc_imc::PCT_CYCLES_DLLOFF", &S_IMC, dlloff},
    {"hswep_unc_imc::PCT_CYCLES_PPD", &S_IMC, ppd},
    {"hswep_unc_imc::PCT_CYCLES_SELF_REFRESH", &S_IMC, self_refresh},
    {"hswep_unc_imc::PCT_RD_REQUESTS", &S_IMC, imc_pct_rd},
    {"hswep_unc_imc::PCT_WR_REQUESTS", &S_IMC, imc_pct_wr},
    {"hswep_unc_imc::PCT_REQUESTS_PAGE_EMPTY", &S_IMC, page_empty},
    {"hswep_unc_imc::PCT_REQUESTS_PAGE_HIT", &S_IMC, page_hit},
    {"hswep_unc_imc::PCT_REQUESTS_PAGE_MISS", &S_IMC, page_miss},
    {"hswep_metric::DRAM_READ_BW", &S_IMC, dram_read_bw},
    {"hswep_metric::DRAM_WRITE_BW", &S_IMC, dram_write_bw},
    {"hswep_metric::DRAM_BW", &S_IMC, dram_bw},
    {"hswep_metric::COUNTING_TIME", &S_IMC, imc_interval_ns},
    {"hswep_metric::DRAM_BW:socket=0", &S_IMC, dram_bw_socket0},
    {"hswep_metric::DRAM_SELF_REFRESH", &S_IMC, self_refresh},
    {"hswep_unc_pcu::PCT_CYC_FREQ_OS_LTD", &S_PCU, freq_os},
    {"hswep_unc_pcu::PCT_CYC_FREQ_POWER_LTD", &S_PCU, freq_power},
    {"hswep_unc_pcu::PCT_CYC_FREQ_THERMAL_LTD", &S_PCU, freq_thermal},
    {"hswep_metric::FREQ_OS_LIMITED", &S_PCU, freq_os},
    {"hswep_metric::FREQ_POWER_LIMITED", &S_PCU, freq_power},
    {"hswep_metric::FREQ_THERMAL_LIMITED", &S_PCU, freq_thermal},
    {"hswep_unc_qpi::DATA_FROM_QPI", &S_QPI, data_from_qpi},
    {"hswep_unc_qpi::DATA_FROM_QPI_TO_HA_OR_IIO", &S_QPI, data_to_ha_iio},
    {"hswep_unc_qpi::DATA_FROM_QPI_TO_LLC", &S_QPI, data_to_llc},
    {"hswep_unc_qpi::DRS_DATA_MSGS_FROM_QPI", &S_QPI, drs_data_msgs},
    {"hswep_unc_qpi::NCB_DATA_MSGS_FROM_QPI", &S_QPI, ncb_data_msgs},
    {"hswep_unc_qpi::DRS_DataC_M_FROM_QPI", &S_QPI, datac_f},
    {"hswep_unc_qpi::DRS_FULL_CACHELINE_MSGS_FROM_QPI", &S_QPI, drs_full},
    {"hswep_unc_qpi::DRS_F_OR_E_FROM_QPI", &S_QPI, drs_f_or_e},
    {"hswep_unc_qpi::DRS_M_FROM_QPI", &S_QPI, drs_m},
    {"hswep_unc_qpi::DRS_PTL_CACHELINE_MSGS_FROM_QPI", &S_QPI, drs_ptl},
    {"hswep_unc_qpi::DRS_WB_FROM_QPI", &S_QPI, drs_wb},
    {"hswep_unc_qpi::DRS_WbE_FROM_QPI", &S_QPI, drs_wbe},
    {"hswep_unc_qpi::DRS_WbI_FROM_QPI", &S_QPI, drs_wbi},
    {"hswep_unc_qpi::DRS_WbS_FROM_QPI", &S_QPI, drs_wbs},
    {"hswep_unc_qpi::PCT_LINK_FULL_POWER_CYCLES", &S_QPI, full_power},
    {"hswep_unc_qpi::PCT_LINK_HALF_DISABLED_CYCLES", &S_QPI, half_disabled},
    {"hswep_unc_qpi::PCT_LINK_SHUTDOWN_CYCLES", &S_QPI, shutdown},
    {"hswep_unc_qpi::QPI_DATA_BW", &S_QPI, qpi_data_bw},
    {"hswep_unc_qpi::QPI_LINK_BW", &S_QPI, qpi_link_bw},
    {"hswep_unc_qpi::QPI_LINK_UTIL", &S_QPI, qpi_link_util},
    {"hswep_unc_qpi::QPI_SPEED", &S_QPI, qpi_speed},
    {"hswep_metric::QPI_DATA_BW", &S_QPI, qpi_data_gbs},
    {"hswep_metric::QPI_LINK_BW", &S_QPI, qpi_link_gbs},
    {"hswep_metric::QPI_UTIL", &S_QPI, qpi_link_util},
    {"hswep_unc_r2pcie::CYC_USED_DN", &S_R2, r2_dn},
    {"hswep_unc_r2pcie::CYC_USED_UP", &S_R2, r2_up},
    {"hswep_unc_r2pcie::RING_THRU_DN_BYTES", &S_R2, r2_thru_dn},
    {"hswep_unc_r2pcie::RING_THRU_UP_BYTES", &S_R2, r2_thru_up},
};

/* Metrics with a variable x, checked for every x with these values. */
static double x_now; /* the x being checked */
E(cke_x, R(x_now + 1, 10) / C)
E(thr_x, R(x_now + 1, 100) / C)
static double node_value(double (*n0)(void), double (*n1)(void))
{
	return x_now == 0 ? n0() : x_now == 1 ? n1() : 0;
}
E(datac_to_node_x, node_value(datac_to_node0, datac_to_node1))
E(drs_write_to_node_x, node_value(drs_write_to_node0, drs_write_to_node1))
E(ncb_to_node_x, node_value(ncb_to_node0, zero))
E(data_to_node_x, node_value(data_to_node0, data_to_node1))

static const struct {
	const char *pattern; /* printf pattern with %d for x */
	const struct scen *s;
	double (*expect)(void);
} xrows[] = {
    {"hswep_unc_imc::PCT_CYCLES_DRAM_RANK%d_IN_CKE", &S_IMC, cke_x},
    {"hswep_unc_imc::PCT_CYCLES_DRAM_RANK%d_IN_THR", &S_IMC, thr_x},
    {"hswep_unc_qpi::DRS_DataC_FROM_QPI_TO_NODE%d", &S_QPI, datac_to_node_x},
    {"hswep_unc_qpi::DRS_WRITE_FROM_QPI_TO_NODE%d", &S_QPI, drs_write_to_node_x},
    {"hswep_unc_qpi::NCB_DATA_FROM_QPI_TO_NODE%d", &S_QPI, ncb_to_node_x},
    {"hswep_unc_qpi::DATA_FROM_QPI_TO_NODE%d", &S_QPI, data_to_node_x},
};

/* Running. */

/* Measure `metric` on a fresh machine running scenario s; NaN on failure. */
static double measure(const struct scen *s, const char *metric)
{
	struct sim_set e;
	double v = NAN;
	if (sim_set_open(&e, MODEL, NULL, s->text) < 0)
		return v;
	const char *names[] = {metric};
	uint64_t raw = 0;
	if (sim_set_assign(&e, names, 1) == 0 && uncore_set_start(e.set) == 0) {
		for (unsigned i = 0; i < s->reads; i++) {
			uncore_sim_advance(e.sim, s->ns / s->reads);
			uncore_set_read(e.set, &raw);
		}
		if (uncore_set_stop(e.set, &raw) == 0)
			v = sim_set_value(&e, &raw, 0);
	}
	sim_set_close(&e);
	return v;
}

static void check_row(const char *metric, const struct scen *s, double (*expect)(void))
{
	harness_row = metric;
	T = (double)s->ns / 1e9;
	C = floor((double)s->ns * s->hz / 1e9);
	double want = expect(), got = measure(s, metric);
	/* Exact up to the rounding of double arithmetic (terms are summed,
	 * scaled and divided in another order than here). */
	CHECK_NEAR(got, want, fabs(want) * 1e-12 + 1e-12);
	CHECK(!isnan(got));
}

TEST(every_metric_gives_the_value_of_its_formula)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(rows[i].metric, rows[i].s, rows[i].expect);
	harness_row = NULL;
}

TEST(every_metric_with_a_variable_for_every_value)
{
	for (unsigned i = 0; i < sizeof(xrows) / sizeof(xrows[0]); i++) {
		for (int x = 0; x < 8; x++) {
			char name[128];
			snprintf(name, sizeof(name), xrows[i].pattern, x);
			x_now = x;
			check_row(name, xrows[i].s, xrows[i].expect);
		}
	}
	harness_row = NULL;
}

/* Every metric of the file is covered by a row (or is the one the manual's
 * PCU list cannot support, tested for its error elsewhere). */
TEST(every_metric_of_the_file_has_a_row)
{
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("hswep"), &cat), 0);
	if (!cat)
		return;
	unsigned covered = 0;
	for (unsigned i = 0; i < cat->ndefs; i++) {
		char name[200];
		uncore_metric_name(&cat->defs[i], name, sizeof(name));
		int found = cat->defs[i].unavailable != NULL;
		for (unsigned r = 0; !found && r < sizeof(rows) / sizeof(rows[0]); r++)
			found = strcmp(rows[r].metric, name) == 0;
		for (unsigned r = 0; !found && r < sizeof(xrows) / sizeof(xrows[0]); r++)
			for (int x = 0; x < 8 && !found; x++) {
				char n[128];
				snprintf(n, sizeof(n), xrows[r].pattern, x);
				found = strcmp(n, name) == 0;
			}
		harness_row = name;
		CHECK(found);
		covered += found;
	}
	harness_row = NULL;
	CHECK_EQ_INT(covered, cat->ndefs);
}

int main(void)
{
	RUN(every_metric_gives_the_value_of_its_formula);
	RUN(every_metric_with_a_variable_for_every_value);
	RUN(every_metric_of_the_file_has_a_row);
	return harness_done();
}
