/* Exact counts through PAPI on the simulator, for every Haswell-EP box type:
 * per box (hswep_unc_cbo3::), aggregated over boxes (hswep_unc_cbo::), per
 * socket (:socket=N) and over all sockets, with the box filters (CBo
 * FILTER0 state/tid, FILTER1 opcode/nid, HA opcode/address match, QPI
 * match/mask, PCU bands), the fixed counters (UBox UCLK, iMC DCLK), several
 * box types in one event set, and totals across several wraps of the 48-
 * and 44-bit counters.  Expected values are computed from the rates of
 * src/sim/scenarios/boxes.scn and the model's clocks (SCENARIOS.md: a
 * stream of R/s on a box of clock f adds floor(c*R/f) in its first c
 * cycles).  Usage: papi_counts [MODEL] (default e5-2699v3-2s). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "itest.h"
#include "papi.h"
#include "platform/hswep/hswep_boxes.h"

#define M         1000000ull
#define ANY       (-1)
#define MAX_TERMS 6
#define MS        1000000ull /* ns */

/* One stream of boxes.scn (or of hswep-clocks.scn) as the event sees it:
 * on socket `socket` and box instance `inst` (ANY: all), `rate` per second
 * or `inc` per cycle; `populated`: iMC channels with DIMMs only. */
struct term {
	int socket, inst;
	uint64_t rate, inc;
	int populated;
};

/* An event, what it is restricted to (as the test reads its name), and
 * the streams it counts.  Rows with the same nonzero group share an event
 * set. */
struct row {
	int line;
	int group;
	const char *event;
	enum hswep_box_kind kind;
	int socket, inst;
	struct term t[MAX_TERMS];
};

/* clang-format off */
#define R(s, i, r) {.socket = (s), .inst = (i), .rate = (r)}
#define INC(s, i, n) {.socket = (s), .inst = (i), .inc = (n)}
#define POP(r) {.socket = ANY, .inst = ANY, .rate = (r), .populated = 1}
#define ROW .line = __LINE__

static const struct row rows[] = {
	/* UBox (2.2): the UCLK fixed counter and EVENT_MSG.DOORBELL_RCVD. */
	{ROW, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", HSWEP_BOX_UBOX, ANY, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=1", HSWEP_BOX_UBOX, 1, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD", HSWEP_BOX_UBOX, ANY, ANY,
	 {R(ANY, ANY, 1 * M), R(1, ANY, 2 * M)}},
	{ROW, 0, "hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD:socket=1", HSWEP_BOX_UBOX, 1, ANY,
	 {R(ANY, ANY, 1 * M), R(1, ANY, 2 * M)}},
	{ROW, 0, "intel_uncore:::hswep_unc_ubo::UNC_U_EVENT_MSG:socket=0", HSWEP_BOX_UBOX, 0, ANY,
	 {R(ANY, ANY, 1 * M), R(1, ANY, 2 * M)}},

	/* CBo (2.3): FILTER0.state, FILTER1.opc/.nid, FILTER0.tid with tid_en. */
	{ROW, 0, "hswep_unc_cbo::UNC_C_CLOCKTICKS", HSWEP_BOX_CBO, ANY, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 4 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=0", HSWEP_BOX_CBO, 0, ANY,
	 {R(ANY, ANY, 10 * M)}},
	{ROW, 0, "hswep_unc_cbo3::UNC_C_LLC_LOOKUP:DATA_READ:STATE_E:socket=1", HSWEP_BOX_CBO, 1, 3,
	 {R(1, 3, 12 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_E", HSWEP_BOX_CBO, ANY, ANY,
	 {R(1, 3, 12 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_E:STATE_M", HSWEP_BOX_CBO, ANY, ANY,
	 {R(1, 3, 12 * M), R(ANY, ANY, 10 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:box=3", HSWEP_BOX_CBO, ANY, 3,
	 {R(ANY, ANY, 4 * M), R(ANY, ANY, 10 * M), R(1, 3, 12 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 20 * M), R(ANY, ANY, 6 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_RFO", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 5 * M)}},
	{ROW, 0, "hswep_unc_cbo5::UNC_C_TOR_INSERTS:OPCODE:OPC_PCIRDCUR", HSWEP_BOX_CBO, ANY, 5,
	 {R(ANY, ANY, 3 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:ALL", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 34 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:NID_OPCODE:OPC_DRD:nf=0x2", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 6 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:NID_OPCODE:OPC_DRD:nf=0x1:socket=1", HSWEP_BOX_CBO,
	 1, ANY, {R(ANY, ANY, 20 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD:cf=2:tf=1", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 20 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD:cf=31:tf=1", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 6 * M)}},
	{ROW, 0, "hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_PCIRDCUR:cf=31", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 3 * M)}},
	/* Two filters of one box type in one set: different CBos, or one box. */
	{ROW, 1, "hswep_unc_cbo1::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I", HSWEP_BOX_CBO, ANY, 1,
	 {R(ANY, ANY, 4 * M)}},
	{ROW, 1, "hswep_unc_cbo1::UNC_C_TOR_INSERTS:OPCODE:OPC_RFO", HSWEP_BOX_CBO, ANY, 1,
	 {R(ANY, ANY, 5 * M)}},
	{ROW, 1, "hswep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M", HSWEP_BOX_CBO, ANY, 2,
	 {R(ANY, ANY, 10 * M)}},

	/* SBo (2.4): instance n carries (n+1) M, socket 1 another 10 M. */
	{ROW, 0, "hswep_unc_sbo::UNC_S_RING_BL_USED:UP_EVEN", HSWEP_BOX_SBO, ANY, ANY,
	 {R(ANY, 0, 1 * M), R(ANY, 1, 2 * M), R(ANY, 2, 3 * M), R(ANY, 3, 4 * M), R(1, ANY, 10 * M)}},
	{ROW, 0, "hswep_unc_sbo1::UNC_S_RING_BL_USED:UP_EVEN:socket=1", HSWEP_BOX_SBO, 1, 1,
	 {R(ANY, 1, 2 * M), R(1, ANY, 10 * M)}},
	{ROW, 0, "hswep_unc_sbo3::UNC_S_RING_BL_USED:UP_EVEN:socket=0", HSWEP_BOX_SBO, 0, 3,
	 {R(ANY, 3, 4 * M)}},
	{ROW, 0, "hswep_unc_sbo::UNC_S_CLOCKTICKS:socket=0", HSWEP_BOX_SBO, 0, ANY, {INC(ANY, ANY, 1)}},

	/* HA (2.5): ADDRMATCH0/1 and OPCODEMATCH. */
	{ROW, 0, "hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDDATA:addr=0x48d159", HSWEP_BOX_HA, ANY,
	 ANY, {R(ANY, ANY, 10 * M)}},
	{ROW, 0, "hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDDATA:addr=0x1ffff", HSWEP_BOX_HA, ANY,
	 ANY, {R(ANY, ANY, 20 * M)}},
	{ROW, 0, "hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:OPC:OPC_RDDATA", HSWEP_BOX_HA, ANY, ANY,
	 {R(ANY, ANY, 30 * M)}},
	{ROW, 0, "hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:ADDR:addr=0x48d159", HSWEP_BOX_HA, ANY, ANY,
	 {R(ANY, ANY, 50 * M)}},
	{ROW, 0, "hswep_unc_ha1::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDCODE:addr=0x48d159:socket=0",
	 HSWEP_BOX_HA, 0, 1, {R(ANY, ANY, 40 * M)}},
	{ROW, 0, "hswep_unc_ha::UNC_H_REQUESTS:READS_LOCAL", HSWEP_BOX_HA, ANY, ANY,
	 {R(ANY, 1, 7 * M)}},
	{ROW, 0, "hswep_unc_ha0::UNC_H_REQUESTS:READS", HSWEP_BOX_HA, ANY, 0, {R(ANY, ANY, 3 * M)}},

	/* iMC (2.6): the DCLK fixed counter and CAS counts per channel. */
	{ROW, 0, "hswep_unc_imc::UNC_M_CLOCKTICKS", HSWEP_BOX_IMC, ANY, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_imc4::UNC_M_CLOCKTICKS:socket=1", HSWEP_BOX_IMC, 1, 4, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:RD_REG", HSWEP_BOX_IMC, ANY, ANY,
	 {POP(100 * M), R(ANY, 2, 50 * M)}},
	{ROW, 0, "hswep_unc_imc2::UNC_M_CAS_COUNT:RD:socket=1", HSWEP_BOX_IMC, 1, 2,
	 {POP(100 * M), R(ANY, 2, 50 * M)}},
	{ROW, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:WR:socket=0", HSWEP_BOX_IMC, 0, ANY, {POP(30 * M)}},
	{ROW, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:box=2", HSWEP_BOX_IMC, ANY, 2,
	 {POP(100 * M), R(ANY, 2, 50 * M)}},
	/* Edge detect over a threshold of 1: write CAS never come in two
	 * consecutive DCLKs at 30 M/s, so every one is a rising edge. */
	{ROW, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:WR:t=1:e=1", HSWEP_BOX_IMC, ANY, ANY, {POP(30 * M)}},
	{ROW, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:WR:t=2", HSWEP_BOX_IMC, ANY, ANY, {{0}}},

	/* IRP (2.7). */
	{ROW, 0, "hswep_unc_irp::UNC_I_TRANSACTIONS:READS", HSWEP_BOX_IRP, ANY, ANY,
	 {R(ANY, ANY, 15 * M), R(0, ANY, 25 * M)}},
	{ROW, 0, "hswep_unc_irp::UNC_I_TRANSACTIONS:WRITES:socket=1", HSWEP_BOX_IRP, 1, ANY,
	 {R(ANY, ANY, 20 * M)}},
	{ROW, 0, "hswep_unc_irp::UNC_I_CLOCKTICKS", HSWEP_BOX_IRP, ANY, ANY, {INC(ANY, ANY, 1)}},

	/* PCU (2.8): the band filter, two bands at once; occupancy sub-counters. */
	{ROW, 2, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=12", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(0, ANY, 1), INC(1, ANY, 1)}},
	{ROW, 2, "hswep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES:ff=20", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(1, ANY, 1)}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=26:socket=1", HSWEP_BOX_PCU, 1, ANY, {{0}}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES:ff=25:socket=1", HSWEP_BOX_PCU, 1, ANY,
	 {INC(1, ANY, 1)}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(ANY, ANY, 17)}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C0:socket=1", HSWEP_BOX_PCU, 1, ANY,
	 {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_CLOCKTICKS", HSWEP_BOX_PCU, ANY, ANY, {INC(ANY, ANY, 1)}},
	/* Threshold and invert (1.4; PCU occupancy: occ_invert, 2.8.2.2): 17
	 * cores in C6 every cycle is >= 17, never >= 18. */
	{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:t=17", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:t=18", HSWEP_BOX_PCU, ANY, ANY, {{0}}},
	{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:t=18:i=1", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(ANY, ANY, 1)}},

	/* QPI (2.9): packet match/mask on the Rx matcher only, as Linux
	 * programs it (HARDWARE-DECISIONS.md H14): port 1's 20 M transmitted
	 * DRS packets are not counted; per-port flits. */
	{ROW, 0, "hswep_unc_qpi::UNC_Q_CTO_COUNT:DRS_DATAC_M", HSWEP_BOX_QPI, ANY, ANY,
	 {R(ANY, 0, 50 * M)}},
	{ROW, 0, "hswep_unc_qpi0::UNC_Q_CTO_COUNT:DRS_DATAC_E:socket=1", HSWEP_BOX_QPI, 1, 0,
	 {R(ANY, ANY, 5 * M)}},
	{ROW, 0, "hswep_unc_qpi::UNC_Q_CTO_COUNT:DRS_ANYDATAC", HSWEP_BOX_QPI, ANY, ANY,
	 {R(ANY, 0, 55 * M)}},
	{ROW, 0, "hswep_unc_qpi::UNC_Q_RXL_FLITS_G1:DRS_DATA", HSWEP_BOX_QPI, ANY, ANY,
	 {R(ANY, 0, 100 * M), R(ANY, 1, 200 * M), R(ANY, 2, 300 * M)}},
	{ROW, 0, "hswep_unc_qpi1::UNC_Q_RXL_FLITS_G1:DRS_DATA:socket=0", HSWEP_BOX_QPI, 0, 1,
	 {R(ANY, 1, 200 * M)}},
	{ROW, 0, "hswep_unc_qpi::UNC_Q_CLOCKTICKS", HSWEP_BOX_QPI, ANY, ANY, {INC(ANY, ANY, 1)}},

	/* R2PCIe (2.10) and R3QPI (2.11): the counter control written twice. */
	{ROW, 0, "hswep_unc_r2pcie::UNC_R2_RING_BL_USED:CW_EVEN", HSWEP_BOX_R2PCIE, ANY, ANY,
	 {R(ANY, ANY, 10 * M), R(0, ANY, 20 * M)}},
	{ROW, 0, "hswep_unc_r2pcie::UNC_R2_RING_BL_USED:CCW_EVEN:socket=1", HSWEP_BOX_R2PCIE, 1, ANY,
	 {R(ANY, ANY, 30 * M)}},
	{ROW, 0, "hswep_unc_r2pcie::UNC_R2_CLOCKTICKS", HSWEP_BOX_R2PCIE, ANY, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 0, "hswep_unc_r3qpi::UNC_R3_RING_BL_USED:CW_EVEN", HSWEP_BOX_R3QPI, ANY, ANY,
	 {R(ANY, 0, 100 * M), R(ANY, 1, 200 * M), R(ANY, 2, 300 * M)}},
	{ROW, 0, "hswep_unc_r3qpi1::UNC_R3_RING_BL_USED:CW_EVEN:socket=0", HSWEP_BOX_R3QPI, 0, 1,
	 {R(ANY, 1, 200 * M)}},
	{ROW, 0, "hswep_unc_r3qpi::UNC_R3_CLOCKTICKS", HSWEP_BOX_R3QPI, ANY, ANY, {INC(ANY, ANY, 1)}},

	/* One event set over all ten box types. */
	{ROW, 3, "hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD", HSWEP_BOX_UBOX, ANY, ANY,
	 {R(ANY, ANY, 1 * M), R(1, ANY, 2 * M)}},
	{ROW, 3, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M", HSWEP_BOX_CBO, ANY, ANY,
	 {R(ANY, ANY, 10 * M)}},
	{ROW, 3, "hswep_unc_sbo::UNC_S_RING_BL_USED:UP_EVEN", HSWEP_BOX_SBO, ANY, ANY,
	 {R(ANY, 0, 1 * M), R(ANY, 1, 2 * M), R(ANY, 2, 3 * M), R(ANY, 3, 4 * M), R(1, ANY, 10 * M)}},
	{ROW, 3, "hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:FILT:OPC_RDCODE:addr=0x48d159", HSWEP_BOX_HA, ANY,
	 ANY, {R(ANY, ANY, 40 * M)}},
	{ROW, 3, "hswep_unc_imc::UNC_M_CAS_COUNT:RD", HSWEP_BOX_IMC, ANY, ANY,
	 {POP(100 * M), R(ANY, 2, 50 * M)}},
	{ROW, 3, "hswep_unc_imc::UNC_M_CLOCKTICKS:socket=0", HSWEP_BOX_IMC, 0, ANY, {INC(ANY, ANY, 1)}},
	{ROW, 3, "hswep_unc_irp::UNC_I_TRANSACTIONS:WRITES", HSWEP_BOX_IRP, ANY, ANY,
	 {R(ANY, ANY, 20 * M)}},
	{ROW, 3, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=20", HSWEP_BOX_PCU, ANY, ANY,
	 {INC(1, ANY, 1)}},
	{ROW, 3, "hswep_unc_qpi::UNC_Q_CTO_COUNT:DRS_DATAC_M", HSWEP_BOX_QPI, ANY, ANY,
	 {R(ANY, 0, 50 * M)}},
	{ROW, 3, "hswep_unc_r2pcie::UNC_R2_RING_BL_USED:CCW_EVEN", HSWEP_BOX_R2PCIE, ANY, ANY,
	 {R(ANY, ANY, 30 * M)}},
	{ROW, 3, "hswep_unc_r3qpi::UNC_R3_RING_BL_USED:CW_EVEN", HSWEP_BOX_R3QPI, ANY, ANY,
	 {R(ANY, 0, 100 * M), R(ANY, 1, 200 * M), R(ANY, 2, 300 * M)}},
	{ROW, 3, "hswep_unc_ubo::UNC_U_CLOCKTICKS", HSWEP_BOX_UBOX, ANY, ANY, {INC(ANY, ANY, 1)}},
};
/* clang-format on */

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static struct itest_sim sim;
static uint64_t t_load; /* when boxes.scn was loaded: its streams' cycle 0 */

/* Occurrences of one term's stream on one box from its start to `t` ns. */
static uint64_t term_cum(const struct term *t, uint64_t hz, uint64_t t_ns)
{
	uint64_t c = itest_cycles(t_ns, hz) - itest_cycles(t_load, hz);
	if (t->rate)
		return (uint64_t)((unsigned __int128)c * t->rate / hz);
	return c * t->inc;
}

/* What the row's event counts from t0 to t1 ns on this model. */
static uint64_t expected(const struct row *r, uint64_t t0, uint64_t t1)
{
	const struct hswep_box_desc *d = hswep_box(r->kind);
	uint64_t hz = sim.topo.clock_hz[d->clock], sum = 0;
	uint32_t present = sim.topo.present[r->kind];
	for (int s = 0; s < (int)sim.topo.sockets; s++) {
		if (r->socket != ANY && r->socket != s)
			continue;
		for (int i = 0; i < HSWEP_MAX_INSTANCES; i++) {
			if (!(present >> i & 1) || (r->inst != ANY && r->inst != i))
				continue;
			for (const struct term *t = r->t; t < r->t + MAX_TERMS; t++) {
				if ((!t->rate && !t->inc) || (t->socket != ANY && t->socket != s) ||
				    (t->inst != ANY && t->inst != i) ||
				    (t->populated && !(sim.topo.populated_imc >> i & 1)))
					continue;
				sum += term_cum(t, hz, t1) - term_cum(t, hz, t0);
			}
		}
	}
	return sum;
}

/* Whether the model has what the row names (an instance, a socket). */
static int row_possible(const struct row *r)
{
	if (r->socket != ANY && r->socket >= (int)sim.topo.sockets)
		return 0;
	return r->inst == ANY || (sim.topo.present[r->kind] >> r->inst & 1);
}

/* Rows [first, first+n) in one event set, counted over `ns`. */
static void check_rows(size_t first, size_t n, uint64_t ns)
{
	const char *names[64];
	long long v[64];
	int possible = 1;
	for (size_t k = 0; k < n; k++) {
		names[k] = rows[first + k].event;
		possible &= row_possible(&rows[first + k]);
	}
	char tag[32];
	snprintf(tag, sizeof(tag), "line %d", rows[first].line);
	harness_row = tag;
	uint64_t t0 = itest_now(&sim);
	int rc = itest_count(&sim, names, (int)n, ns, v);
	if (!possible) {
		/* An instance this model lacks must be refused, not counted as 0. */
		if (rc == PAPI_OK)
			HARNESS_FAIL_AT("%s: accepted although the model lacks its box", names[0]);
		return;
	}
	if (rc != PAPI_OK) {
		HARNESS_FAIL_AT("%s: %s", names[0], PAPI_strerror(rc));
		return;
	}
	for (size_t k = 0; k < n; k++) {
		uint64_t want = expected(&rows[first + k], t0, t0 + ns);
		if ((uint64_t)v[k] != want)
			HARNESS_FAIL_AT("%s: got %lld, want %llu", names[k], v[k],
					(unsigned long long)want);
	}
}

TEST(every_box_type_counts_exactly)
{
	CHECK_EQ_INT(itest_load(&sim, "boxes.scn"), 0);
	t_load = itest_now(&sim);
	/* 3 ms: whole cycles of every clock, 1 ms more each time, so counting
	 * starts at a different point of the streams for every row. */
	uint64_t ns = 3 * MS;
	for (size_t i = 0; i < NROWS;) {
		size_t n = 1;
		while (rows[i].group && i + n < NROWS && rows[i + n].group == rows[i].group)
			n++;
		check_rows(i, n, ns);
		ns += MS;
		i += n;
	}
	harness_row = NULL;
}

/* The sum of two per-socket events is the all-socket event, and per-box
 * events add up to the aggregate, read in one event set. */
TEST(per_box_and_per_socket_counts_add_up_to_the_aggregate)
{
	CHECK_EQ_INT(itest_load(&sim, "boxes.scn"), 0);
	t_load = itest_now(&sim);
	const char *names[] = {"hswep_unc_r3qpi::UNC_R3_RING_BL_USED:CW_EVEN",
			       "hswep_unc_r3qpi0::UNC_R3_RING_BL_USED:CW_EVEN",
			       "hswep_unc_r3qpi1::UNC_R3_RING_BL_USED:CW_EVEN",
			       "hswep_unc_r3qpi2::UNC_R3_RING_BL_USED:CW_EVEN",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=0",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1"};
	int n3 = (sim.topo.present[HSWEP_BOX_R3QPI] >> 2 & 1) ? 4 : 3;
	const char *list[7];
	int k = 0;
	for (int i = 0; i < n3; i++)
		list[k++] = names[i];
	for (int i = 4; i < 7; i++)
		list[k++] = names[i];
	long long v[7];
	int rc = itest_count(&sim, list, k, 7 * MS, v);
	CHECK_EQ_INT(rc, PAPI_OK);
	if (rc != PAPI_OK)
		return;
	long long parts = 0;
	for (int i = 1; i < n3; i++) {
		CHECK(v[i] > 0);
		parts += v[i];
	}
	CHECK_EQ_U64(v[0], parts);
	CHECK(v[1] != v[2]); /* links differ: a swapped box would show */
	CHECK(v[n3] > 0);
	if (sim.topo.sockets == 2)
		CHECK_EQ_U64(v[n3], v[n3 + 1] + v[n3 + 2]);
	else
		CHECK(v[n3] > v[n3 + 1] + v[n3 + 2]);
}

/* Totals across more than one wrap of 48-bit (MSR and PCI, generic and
 * fixed) and 44-bit (R3QPI) counters, reading more often than the fastest
 * counter wraps; every reading is exact. */
TEST(totals_survive_several_counter_wraps)
{
	CHECK_EQ_INT(itest_load(&sim, "boxes.scn"), 0);
	t_load = itest_now(&sim);
	/* clang-format off */
	static const struct row wrap_rows[] = {
		{ROW, 0, "hswep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0", HSWEP_BOX_CBO, 0, 0, {INC(ANY, ANY, 1)}},
		{ROW, 0, "hswep_unc_cbo::UNC_C_CLOCKTICKS", HSWEP_BOX_CBO, ANY, ANY, {INC(ANY, ANY, 1)}},
		{ROW, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS:socket=1", HSWEP_BOX_UBOX, 1, ANY, {INC(ANY, ANY, 1)}},
		{ROW, 0, "hswep_unc_imc0::UNC_M_CLOCKTICKS:socket=0", HSWEP_BOX_IMC, 0, 0, {INC(ANY, ANY, 1)}},
		{ROW, 0, "hswep_unc_imc2::UNC_M_CAS_COUNT:RD:socket=1", HSWEP_BOX_IMC, 1, 2,
		 {POP(100 * M), R(ANY, 2, 50 * M)}},
		{ROW, 0, "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0", HSWEP_BOX_R3QPI, 0, 0,
		 {INC(ANY, ANY, 1)}},
		{ROW, 0, "hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6", HSWEP_BOX_PCU, ANY, ANY,
		 {INC(ANY, ANY, 17)}},
		{ROW, 0, "hswep_unc_qpi0::UNC_Q_CLOCKTICKS", HSWEP_BOX_QPI, ANY, 0, {INC(ANY, ANY, 1)}},
	};
	/* clang-format on */
	enum { N = sizeof(wrap_rows) / sizeof(wrap_rows[0]) };
	int es = PAPI_NULL;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK);
	for (int i = 0; i < N; i++)
		CHECK_EQ_INT(PAPI_add_named_event(es, wrap_rows[i].event), PAPI_OK);
	uint64_t t0 = itest_now(&sim);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK);
	/* The fastest wrap here: PCU C6 occupancy, 17 per PCLK, wraps 48 bits
	 * every 2^48 / 17e9 = 16,557 s; R3QPI's 44-bit UCLK count every 2^44 /
	 * 2.5 GHz = 7,037 s.  Read every 3,000 s, 240 times (720,000 s). */
	const uint64_t step = 3000ull * 1000000000ull;
	long long v[N];
	int bad = 0;
	for (int k = 1; k <= 240 && !bad; k++) {
		CHECK_EQ_INT(uncore_sim_advance(sim.sim, step), 0);
		if (PAPI_read(es, v) != PAPI_OK) {
			HARNESS_FAIL_AT("PAPI_read failed at reading %d", k);
			break;
		}
		for (int i = 0; i < N; i++) {
			uint64_t want = expected(&wrap_rows[i], t0, t0 + k * step);
			if ((uint64_t)v[i] != want) {
				HARNESS_FAIL_AT("reading %d, %s: got %lld, want %llu", k,
						wrap_rows[i].event, v[i], (unsigned long long)want);
				bad = 1;
			}
		}
	}
	/* More than three wraps of the 48-bit counters, many of the 44-bit. */
	CHECK((uint64_t)v[0] > 3ull << 48);
	CHECK((uint64_t)v[3] > 2ull << 48);
	CHECK((uint64_t)v[5] > 50ull << 44);
	long long end[N];
	CHECK_EQ_INT(PAPI_stop(es, end), PAPI_OK);
	for (int i = 0; i < N; i++)
		CHECK_EQ_U64(end[i], v[i]); /* no time passed since the last read */
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* PAPI_reset zeroes, PAPI_stop freezes, a second start counts from zero. */
TEST(reset_stop_and_restart)
{
	CHECK_EQ_INT(itest_load(&sim, "boxes.scn"), 0);
	t_load = itest_now(&sim);
	const struct row *r = NULL;
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(rows[i].event, "hswep_unc_qpi::UNC_Q_RXL_FLITS_G1:DRS_DATA") == 0)
			r = &rows[i];
	if (!r) {
		HARNESS_FAIL_AT("row missing");
		return;
	}
	int es = PAPI_NULL;
	long long v = 0;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK);
	CHECK_EQ_INT(PAPI_add_named_event(es, r->event), PAPI_OK);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK);
	CHECK_EQ_INT(uncore_sim_advance(sim.sim, 2 * MS), 0);
	CHECK_EQ_INT(PAPI_reset(es), PAPI_OK);
	uint64_t t1 = itest_now(&sim);
	CHECK_EQ_INT(uncore_sim_advance(sim.sim, 5 * MS), 0);
	CHECK_EQ_INT(PAPI_stop(es, &v), PAPI_OK);
	CHECK_EQ_U64(v, expected(r, t1, t1 + 5 * MS));
	CHECK_EQ_INT(uncore_sim_advance(sim.sim, 5 * MS), 0);
	long long after = -1;
	CHECK_EQ_INT(PAPI_read(es, &after), PAPI_OK);
	CHECK_EQ_U64(after, v); /* stopped: the values at the stop */
	uint64_t t2 = itest_now(&sim);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK);
	CHECK_EQ_INT(uncore_sim_advance(sim.sim, 1 * MS), 0);
	CHECK_EQ_INT(PAPI_stop(es, &v), PAPI_OK);
	CHECK_EQ_U64(v, expected(r, t2, t2 + 1 * MS));
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "e5-2699v3-2s";
	if (itest_sim_create(model, &sim) != 0 || itest_papi_init() < 0) {
		printf("FAIL setup (%s)\n", model);
		itest_sim_destroy(&sim);
		return 1;
	}
	printf("model %s: %u sockets\n", model, sim.topo.sockets);
	RUN(every_box_type_counts_exactly);
	RUN(per_box_and_per_socket_counts_add_up_to_the_aggregate);
	RUN(totals_survive_several_counter_wraps);
	RUN(reset_stop_and_restart);
	PAPI_shutdown();
	itest_sim_destroy(&sim);
	return harness_done();
}
