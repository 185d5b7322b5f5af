/* After stop, nothing counts: the register state of a simulated two-socket
 * Haswell-EP after the direct backend's stop (what PAPI_stop calls before
 * the final read) - every box the set programmed is frozen (BOX_CTL.frz,
 * HSX PMON 2.1.2; the UBox, which has no box control, has its counters'
 * .en cleared) and no counter register of any box moves while simulated
 * time passes; after uncore_set_stop (stop, read, unprogram) still none
 * moves.  While running they did move, so the check is not vacuous. */
#include "backend/direct/direct.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "sim_set.h"

#include <stdlib.h>

#define MAX_REGS 4096

struct snapshot {
	unsigned n;
	struct uncore_reg reg[MAX_REGS];
	uint64_t value[MAX_REGS];
	uint8_t kind[MAX_REGS], socket[MAX_REGS], inst[MAX_REGS];
};

/* Every counter (general and fixed) of every box of both sockets. */
static void take(struct uncore_sim *sim, const struct uncore_sim_topology *topo, struct snapshot *s)
{
	struct uncore_regio *io = uncore_sim_regio(sim);
	s->n = 0;
	for (unsigned kind = 0; kind < HSWEP_BOX_KINDS; kind++) {
		const struct hswep_box_desc *d = hswep_box(kind);
		for (unsigned sock = 0; sock < topo->sockets; sock++)
			for (unsigned i = 0; i < d->max_instances; i++)
				for (unsigned k = 0; k <= d->num_counters; k++) {
					struct uncore_reg r;
					int rc =
					    k < d->num_counters
						? hswep_reg(d, i, HSWEP_REG_CTR, k, sock,
							    hswep_box_bus(d, topo->bus[sock],
									  topo->root_bus[sock]),
							    &r)
						: hswep_reg(d, i, HSWEP_REG_FIXED_CTR, 0, sock,
							    hswep_box_bus(d, topo->bus[sock],
									  topo->root_bus[sock]),
							    &r);
					uint64_t v;
					if (rc || uncore_regio_read(io, &r, &v) != 0)
						continue; /* no such register or box */
					if (s->n < MAX_REGS) {
						s->reg[s->n] = r;
						s->value[s->n] = v;
						s->kind[s->n] = (uint8_t)kind;
						s->socket[s->n] = (uint8_t)sock;
						s->inst[s->n] = (uint8_t)i;
						s->n++;
					}
				}
	}
}

static const char *const names[] = {
    "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
    "hswep_unc_imc::UNC_M_CLOCKTICKS",
    "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_I",
    "hswep_unc_cbo::UNC_C_CLOCKTICKS",
    "hswep_unc_ubo::UNC_U_CLOCKTICKS",
    "hswep_unc_sbo::UNC_S_CLOCKTICKS",
    "hswep_unc_ha::UNC_H_REQUESTS:READS",
    "hswep_unc_irp::UNC_I_CLOCKTICKS",
    "hswep_unc_pcu::UNC_P_CLOCKTICKS",
    "hswep_unc_qpi::UNC_Q_CLOCKTICKS",
    "hswep_unc_r2pcie::UNC_R2_CLOCKTICKS",
    "hswep_unc_r3qpi::UNC_R3_CLOCKTICKS",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

TEST(stop_leaves_every_box_frozen)
{
	struct sim_set e;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL) == 0);
	CHECK_EQ_INT(sim_set_assign(&e, names, NNAMES), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	static struct snapshot a, b;
	take(e.sim, &e.topo, &a);
	CHECK(a.n > 100);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000), 0);
	take(e.sim, &e.topo, &b);
	CHECK_EQ_INT(b.n, a.n);
	/* Running: the counters of every box kind of the set moved. */
	unsigned moved_kinds = 0;
	for (unsigned i = 0; i < a.n && i < b.n; i++)
		if (a.value[i] != b.value[i])
			moved_kinds |= 1u << a.kind[i];
	CHECK_EQ_U64(moved_kinds, (1u << HSWEP_BOX_KINDS) - 1);

	CHECK_EQ_INT(e.be->ops->stop(e.be), 0);
	take(e.sim, &e.topo, &a);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000), 0);
	take(e.sim, &e.topo, &b);
	CHECK_EQ_INT(b.n, a.n);
	for (unsigned i = 0; i < a.n && i < b.n; i++) {
		if (a.value[i] == b.value[i])
			continue;
		char row[96];
		snprintf(row, sizeof(row), "%s %u socket %u counter reg 0x%llx",
			 hswep_box(a.kind[i])->name, a.inst[i], a.socket[i],
			 (unsigned long long)a.reg[i].addr);
		harness_row = row;
		HARNESS_FAIL_AT("counts after stop: 0x%llx -> 0x%llx",
				(unsigned long long)a.value[i], (unsigned long long)b.value[i]);
	}
	harness_row = NULL;

	/* The box controls say frozen; the UBox's counters are disabled. */
	struct uncore_regio *io = uncore_sim_regio(e.sim);
	unsigned frozen = 0;
	for (unsigned i = 0; i < a.n; i++) {
		const struct hswep_box_desc *d = hswep_box(a.kind[i]);
		struct uncore_reg r;
		uint64_t v = 0;
		if (d->box_ctl == HSWEP_NO_REG)
			continue; /* the UBox: checked below */
		if (hswep_reg(
			d, a.inst[i], HSWEP_REG_BOX_CTL, 0, a.socket[i],
			hswep_box_bus(d, e.topo.bus[a.socket[i]], e.topo.root_bus[a.socket[i]]),
			&r) != 0 ||
		    uncore_regio_read(io, &r, &v) != 0)
			continue;
		/* Only boxes the set programmed: one of their controls has .en. */
		int programmed = 0;
		for (unsigned k = 0; k < d->num_counters; k++) {
			struct uncore_reg c;
			uint64_t cv = 0;
			if (hswep_reg(d, a.inst[i], HSWEP_REG_CTL, k, a.socket[i],
				      hswep_box_bus(d, e.topo.bus[a.socket[i]],
						    e.topo.root_bus[a.socket[i]]),
				      &c) == 0 &&
			    uncore_regio_read(io, &c, &cv) == 0 && (cv & HSWEP_PMON_CTL_EN))
				programmed = 1;
		}
		if (!programmed)
			continue;
		char row[64];
		snprintf(row, sizeof(row), "%s %u socket %u", d->name, a.inst[i], a.socket[i]);
		harness_row = row;
		CHECK(v & HSWEP_PMON_BOX_CTL_FRZ);
		frozen++;
	}
	harness_row = NULL;
	CHECK(frozen > 0);
	const struct hswep_box_desc *u = hswep_box(HSWEP_BOX_UBOX);
	for (unsigned sock = 0; sock < e.topo.sockets; sock++)
		for (unsigned k = 0; k < u->num_counters; k++) {
			struct uncore_reg c;
			uint64_t cv = 0;
			CHECK_EQ_INT(hswep_reg(u, 0, HSWEP_REG_CTL, k, sock, 0, &c), 0);
			CHECK_EQ_INT(uncore_regio_read(io, &c, &cv), 0);
			CHECK_EQ_U64(cv & HSWEP_PMON_CTL_EN, 0);
		}

	/* PAPI_stop: stop, the final read, unprogram; still nothing counts. */
	uint64_t values[NNAMES];
	CHECK_EQ_INT(uncore_set_stop(e.set, values), 0);
	CHECK(values[0] > 0);
	take(e.sim, &e.topo, &a);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1000000), 0);
	take(e.sim, &e.topo, &b);
	unsigned moving = 0;
	for (unsigned i = 0; i < a.n && i < b.n; i++)
		moving += a.value[i] != b.value[i];
	CHECK_EQ_INT(moving, 0);
	sim_set_close(&e);
}

int main(void)
{
	RUN(stop_leaves_every_box_frozen);
	return harness_done();
}
