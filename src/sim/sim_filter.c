/* Sub-event selection by the umask and the box filters: CBo FILTER0/1 (tid,
 * state, opcode, node ID; 2.3.2.3), HA address/opcode match (2.5.1.3), QPI
 * packet mask/match (2.9.2.3) and the PCU band filter (Table 2-160).  Which
 * umask bits of an event select, qualify or only enable a filter comes from
 * the scenario's "shape" lines, never from event names in this code. */
#include "sim/sim_internal.h"

const struct sim_shape *sim_shape_find(const struct sim_shared *sh, unsigned kind, unsigned ev,
				       unsigned ext)
{
	for (unsigned i = 0; i < sh->n_shapes; i++) {
		const struct sim_shape *s = &sh->shapes[i];
		if (s->kind == kind && s->ev == ev && s->ext == ext)
			return s;
	}
	return NULL;
}

/* Whether a counter whose umask is `umask` selects occurrence s.  Without a
 * shape every umask bit is an OR selector ("select subevents to be counted",
 * 1.4).  A shape may declare: req bits that must be set for anything to
 * count (LLC_LOOKUP bit 0), qual bits that narrow (each requested qualifier
 * must be asserted by the occurrence: TOR_INSERTS MISS/LOCAL/REMOTE) and flt
 * bits that only switch filters on (NID, HA ADDR/OPC). */
int sim_umask_selects(const struct sim_shape *shape, uint8_t umask, const struct sim_stream *s)
{
	if (s->umask == 0)
		return 1; /* an event without sub-events */
	uint8_t req = shape ? shape->req : 0, qual = shape ? shape->qual : 0,
		flt = shape ? shape->flt : 0;
	if ((umask & req) != req)
		return 0;
	uint8_t sel = umask & (uint8_t) ~(req | qual | flt);
	if (sel) {
		if (!(sel & s->umask))
			return 0;
	} else if (!(umask & (req | qual | flt))) {
		return 0;
	}
	return !((umask & qual) & ~s->umask);
}

static int enabled(uint16_t mask, uint8_t umask)
{
	return (mask & SIM_FILTER_ALWAYS) || (umask & mask & 0xffu);
}

static int cbo_pass(const struct sim_box *b, uint64_t ctl, uint8_t umask,
		    const struct sim_shape *shape, const struct sim_stream *s)
{
	uint64_t f0 = b->filter[HSWEP_CBO_FILTER0], f1 = b->filter[HSWEP_CBO_FILTER1];
	const struct sim_attrs *a = &s->attrs;
	/* "Any of the CBo events may be filtered by Thread/Core-ID" with .tid_en
	 * (2.3.2.3); an occurrence without a thread is 0x3F (Table 2-18). */
	if (ctl & HSWEP_PMON_CTL_TID_EN) {
		unsigned tid = (a->have & SIM_ATTR_TID) ? a->tid : HSWEP_CBO_TID_NONE;
		if (tid != (f0 & HSWEP_CBO_FILTER0_TID))
			return 0;
	}
	if (!shape)
		return 1;
	if (enabled(shape->f_state, umask)) {
		uint64_t state = (f0 & HSWEP_CBO_FILTER0_STATE) >> HSWEP_CBO_FILTER0_STATE_SHIFT;
		if (!(state & a->state))
			return 0;
	}
	if (enabled(shape->f_opc, umask)) {
		uint64_t opc = (f1 & HSWEP_CBO_FILTER1_OPC) >> HSWEP_CBO_FILTER1_OPC_SHIFT;
		if (a->opc != opc)
			return 0;
		if ((f1 & HSWEP_CBO_FILTER1_NC) && !a->nc)
			return 0;
		if ((f1 & HSWEP_CBO_FILTER1_ISOC) && !a->isoc)
			return 0;
	}
	/* FILTER1.nid: "each bit corresponds to a NodeID ... a mask". */
	if (enabled(shape->f_nid, umask) && !((f1 & HSWEP_CBO_FILTER1_NID) >> a->nid & 1))
		return 0;
	return 1;
}

static int ha_pass(const struct sim_box *b, uint8_t umask, const struct sim_shape *shape,
		   const struct sim_stream *s)
{
	if (!shape)
		return 1;
	const struct sim_attrs *a = &s->attrs;
	if (enabled(shape->f_addr, umask)) {
		/* Cache-line address PA[45:6] = {hi_addr, lo_addr} (Tables 2-66, 2-67). */
		uint64_t match = (b->filter[HSWEP_HA_ADDRMATCH1] & HSWEP_HA_ADDRMATCH1_HI_ADDR)
				     << 32 |
				 (b->filter[HSWEP_HA_ADDRMATCH0] & HSWEP_HA_ADDRMATCH0_LO_ADDR);
		if ((a->addr & HSWEP_FIELD(45, 6)) != match)
			return 0;
	}
	if (enabled(shape->f_hopc, umask) &&
	    a->hopc != (b->filter[HSWEP_HA_OPCODEMATCH] & HSWEP_HA_OPCODEMATCH_OPC))
		return 0;
	return 1;
}

static int qpi_pass(const struct sim_box *b, uint8_t umask, const struct sim_shape *shape,
		    const struct sim_stream *s)
{
	if (!shape || !enabled(shape->f_pkt, umask))
		return 1;
	const struct sim_attrs *a = &s->attrs;
	unsigned base = a->dir == SIM_DIR_TX ? HSWEP_QPI_TX_MATCH0 : HSWEP_QPI_RX_MATCH0;
	/* A packet matches where it equals MATCH in every bit set in MASK
	 * (2.9.2.3; the derived events of Table 2-176 use it so). */
	uint64_t match0 = b->filter[base], match1 = b->filter[base + 1];
	uint64_t mask0 = b->filter[base + 2], mask1 = b->filter[base + 3];
	/* A matcher whose masks are both 0 (as reset, as Linux leaves the Tx
	 * side) is not armed: it matches no packet (MODEL.md; the reading
	 * under which the kernel's Rx-only programming counts received
	 * packets; HARDWARE-DECISIONS.md H14, which the first-machine kit
	 * checks). */
	if (!mask0 && !mask1)
		return 0;
	return !((a->pkt0 ^ match0) & mask0) && !((a->pkt1 ^ match1) & mask1);
}

static int pcu_pass(const struct sim_box *b, const struct sim_shape *shape,
		    const struct sim_stream *s)
{
	if (!shape || shape->band < 0)
		return 1;
	/* FREQ_BANDn_CYCLES: "running at a frequency greater than or equal to
	 * the frequency that is configured in the filter" (2.8.6). */
	uint64_t band = (b->filter[HSWEP_PCU_BOX_FILTER] & HSWEP_PCU_FILTER_BAND(shape->band)) >>
			HSWEP_PCU_FILTER_BAND_SHIFT(shape->band);
	return s->attrs.freq >= band;
}

int sim_filters_pass(unsigned kind, const struct sim_box *b, uint64_t ctl, uint8_t umask,
		     const struct sim_shape *shape, const struct sim_stream *s)
{
	switch (kind) {
	case HSWEP_BOX_CBO:
		return cbo_pass(b, ctl, umask, shape, s);
	case HSWEP_BOX_HA:
		return ha_pass(b, umask, shape, s);
	case HSWEP_BOX_QPI:
		return qpi_pass(b, umask, shape, s);
	case HSWEP_BOX_PCU:
		return pcu_pass(b, shape, s);
	default:
		return 1;
	}
}
