/* Register semantics and counting of the simulator's flat PMUs (sim_flat.h):
 * Skylake client, Nehalem and Xeon 7100/7400.  Reads and writes follow the
 * manuals' access types (a reserved bit or an unknown MSR is a #GP, reported
 * as UNCORE_EFAULT); counting is the same per-cycle logic as the Haswell-EP
 * boxes (sim_counter.c: streams summed, then threshold / invert / edge). */
#include "sim/sim_internal.h"

#include <inttypes.h>
#include <string.h>

#include "common/uncore_error.h"

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

void sim_flat_reset(struct sim_shared *sh, const struct sim_model *m)
{
	const struct sim_flat_desc *d = m->flat;
	memset(sh->flat, 0, sizeof(sh->flat));
	for (unsigned s = 0; s < m->info.sockets && s < SIM_MAX_SOCKETS; s++)
		for (unsigned r = 0; r < d->nregs && r < SIM_FLAT_MAX_EXTRAS; r++) {
			const struct sim_flat_reg *x = &d->regs[r];
			sh->flat[s].reg[r] =
			    x->count_of >= 0
				? (uint64_t)__builtin_popcount(m->present[x->count_of]) + 1
				: x->reset;
		}
}

/* The unit, instance and counter an MSR is the control or counter of. */
struct where {
	unsigned unit, inst, k;
	int is_ctl, is_ctr;
};

static int locate(const struct sim_model *m, uint32_t msr, struct where *w)
{
	const struct sim_flat_desc *d = m->flat;
	for (unsigned u = 0; u < d->nunits; u++) {
		const struct sim_flat_unit *x = &d->units[u];
		if (x->space != UNCORE_SPACE_MSR)
			continue;
		for (unsigned i = 0; i < x->max_instances; i++) {
			if (!(m->present[u] & (1u << i)))
				continue;
			uint32_t ctl = x->ctl_base + x->stride * i,
				 ctr = x->ctr_base + x->stride * i;
			if (msr >= ctl && msr < ctl + x->counters) {
				*w = (struct where){u, i, msr - ctl, 1, x->combined};
				return 1;
			}
			if (msr >= ctr && msr < ctr + x->counters) {
				*w = (struct where){u, i, msr - ctr, x->combined, 1};
				return 1;
			}
		}
	}
	return 0;
}

static int extra_reg(const struct sim_flat_desc *d, uint32_t msr)
{
	for (unsigned r = 0; r < d->nregs; r++)
		if (d->regs[r].addr == msr)
			return (int)r;
	return -1;
}

static int gp(uint32_t msr, const char *why, uint64_t v)
{
	return uncore_fail(UNCORE_EFAULT, "wrmsr 0x%x value 0x%" PRIx64 ": %s (#GP)", msr, v, why);
}

int sim_flat_msr_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		      uint32_t msr, uint64_t *value)
{
	const struct sim_flat_desc *d = m->flat;
	if (socket >= m->info.sockets)
		return uncore_fail(UNCORE_ENODEV, "socket %u does not exist on model %s", socket,
				   m->info.name);
	struct sim_flat_socket *fs = &sh->flat[socket];
	struct where w;
	int r;
	if (msr == d->global_ctl) {
		*value = fs->global_ctl;
		if (d->global == SIM_FLAT_GLOBAL_EMON)
			*value = (fs->global_ctl & X7400_GL_EVENT_SELECT) | fs->global_status;
		return 0;
	}
	if (d->global_status && msr == d->global_status) {
		*value = fs->global_status;
		return 0;
	}
	if (d->ovf_ctrl && msr == d->ovf_ctrl) {
		*value = 0; /* SDM 18.8.2: a write-only register */
		return 0;
	}
	if ((r = extra_reg(d, msr)) >= 0) {
		*value = fs->reg[r];
		return 0;
	}
	if (locate(m, msr, &w)) {
		const struct sim_flat_unit *x = &d->units[w.unit];
		uint64_t ctl = fs->ctl[w.unit][w.inst][w.k], ctr = fs->ctr[w.unit][w.inst][w.k];
		*value = x->combined ? ctl | ctr : w.is_ctl ? ctl : ctr;
		return 0;
	}
	return uncore_fail(UNCORE_EFAULT, "rdmsr 0x%x: no such MSR on %s (#GP)", msr, d->title);
}

/* EMON GL_CTL commands over the selected counters (18.21.5). */
static void emon_command(const struct sim_flat_desc *d, struct sim_flat_socket *fs, uint64_t v)
{
	uint32_t sel = (uint32_t)((v & X7400_GL_EVENT_SELECT) >> X7400_GL_SELECT_SHIFT);
	if (v & X7400_GL_FREEZE_CMD)
		fs->frozen |= sel;
	if (v & X7400_GL_UNFREEZE_CMD)
		fs->frozen &= ~sel;
	if (v & X7400_GL_RESET_CMD) {
		/* "Clear the event count field ... The event select field is not
		 * affected."  The overflow status of a reset counter clears too
		 * (MODEL.md: the manual gives no other way to clear it). */
		for (unsigned u = 0; u < d->nunits; u++)
			for (unsigned k = 0; k < d->units[u].counters; k++)
				if (sel >> (d->units[u].gidx + k) & 1) {
					fs->ctr[u][0][k] = 0;
					fs->global_status &=
					    ~(UINT64_C(1)
					      << (X7400_GL_STATUS_SHIFT + d->units[u].gidx + k));
				}
	}
	fs->global_ctl = v & X7400_GL_EVENT_SELECT;
}

int sim_flat_msr_write(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		       uint32_t msr, uint64_t v)
{
	const struct sim_flat_desc *d = m->flat;
	if (socket >= m->info.sockets)
		return uncore_fail(UNCORE_ENODEV, "socket %u does not exist on model %s", socket,
				   m->info.name);
	struct sim_flat_socket *fs = &sh->flat[socket];
	struct where w;
	int r;
	if (msr == d->global_ctl) {
		if (v & ~d->global_rw)
			return gp(msr, "reserved bits of the global control set", v);
		if (d->global == SIM_FLAT_GLOBAL_EMON)
			emon_command(d, fs, v);
		else
			fs->global_ctl = v;
		return 0;
	}
	if (d->global_status && msr == d->global_status) {
		if (!d->status_rw)
			return gp(msr, "the global status is read-only", v);
		if (v & ~d->status_rw)
			return gp(msr, "reserved bits of the global status set", v);
		fs->global_status &= ~v; /* SKL Table 2-3: RW1C */
		return 0;
	}
	if (d->ovf_ctrl && msr == d->ovf_ctrl) {
		if (v & ~d->ovf_ctrl_rw)
			return gp(msr, "reserved bits of the overflow control set", v);
		fs->global_status &= ~v;
		return 0;
	}
	if ((r = extra_reg(d, msr)) >= 0) {
		const struct sim_flat_reg *x = &d->regs[r];
		if (x->kind == SIM_FLAT_REG_RO)
			return gp(msr, "read-only register", v);
		if (v & ~x->rw)
			return gp(msr, "reserved bits set", v);
		fs->reg[r] = v;
		return 0;
	}
	if (!locate(m, msr, &w))
		return gp(msr, "no such MSR", v);
	const struct sim_flat_unit *x = &d->units[w.unit];
	uint64_t *ctl = &fs->ctl[w.unit][w.inst][w.k], *ctr = &fs->ctr[w.unit][w.inst][w.k];
	if (x->combined) {
		if (v & ~(x->ctl_rw | x->ctr_rw))
			return gp(msr, "reserved bits (63:60) set", v);
		uint64_t c = v & ~x->ctr_rw;
		if (c && (c & x->ctl_must1) != x->ctl_must1)
			return gp(msr, "bit 58 must be set in an FSB event control (SDM 18.21.4)",
				  v);
		*ctl = c;
		*ctr = v & x->ctr_rw;
		return 0;
	}
	if (w.is_ctl) {
		if (v & ~x->ctl_rw)
			return gp(msr, "reserved bits of the event select set", v);
		/* NHM OCC_CTR_RST "will always read as a zero". */
		*ctl = v & ~x->ctl_action;
		return 0;
	}
	if (v & ~x->ctr_rw)
		return gp(msr, "bits above the counter width set", v);
	*ctr = v;
	return 0;
}

int sim_flat_pci_read(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf,
		      uint32_t offset, unsigned width, uint64_t *value)
{
	(void)sh;
	const struct sim_flat_desc *d = m->flat;
	if (!d->host_bridge_id || bdf != UNCORE_BDF(0, 0, 0)) {
		if (offset == 0) {
			*value = width == 4 ? 0xffffffffu : UINT64_MAX;
			return 0;
		}
		return uncore_fail(UNCORE_ENODEV, "PCI %02x:%02x.%x is not present on model %s",
				   UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf),
				   m->info.name);
	}
	if (width != 4 || (offset & 3))
		return uncore_fail(UNCORE_EINVAL,
				   "PCI config access of width %u at 0x%x: dwords only", width,
				   offset);
	/* SKL 3.3: MCHBAR at 48h; bit 0 is its enable (MCHBAREN). */
	uint64_t bar = m->mchbar | 1u;
	if (offset == 0)
		*value = d->host_bridge_id;
	else if (offset == d->mchbar_offset)
		*value = bar & 0xffffffffu;
	else if (offset == d->mchbar_offset + 4)
		*value = bar >> 32;
	else
		*value = 0;
	return 0;
}

int sim_flat_mmio_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		       uint64_t addr, unsigned width, uint64_t *value)
{
	const struct sim_flat_desc *d = m->flat;
	for (unsigned u = 0; u < d->nunits && m->mchbar; u++) {
		const struct sim_flat_unit *x = &d->units[u];
		if (x->space != UNCORE_SPACE_MMIO || !(m->present[u] & 1u))
			continue;
		for (unsigned k = 0; k < x->counters; k++) {
			if (addr != m->mchbar + x->mmio_offsets[k])
				continue;
			if (width != 4)
				return uncore_fail(UNCORE_EINVAL,
						   "MMIO 0x%" PRIx64 " read with width %u: the IMC "
						   "counters are 32-bit (SKL Table 1-2)",
						   addr, width);
			*value = sh->flat[socket < SIM_MAX_SOCKETS ? socket : 0].ctr[u][0][k];
			return 0;
		}
	}
	return uncore_fail(UNCORE_ENODEV, "MMIO 0x%" PRIx64 " is not a register of model %s", addr,
			   m->info.name);
}

/* Counting. */

static int fields_match(const struct sim_flat_unit *x, uint32_t ctl, uint32_t occ)
{
	unsigned hits = 0;
	for (unsigned f = 0; f < x->nfields; f++) {
		const struct sim_flat_field *fl = &x->fields[f];
		int ok;
		if (fl->kind == SIM_FLAT_FIELD_ANY_BIT) {
			ok = (ctl & occ & fl->mask) != 0;
		} else {
			uint32_t en = fl->enable ? fl->enable : fl->mask;
			ok = !(ctl & en) || (ctl & fl->mask) == (occ & fl->mask);
		}
		if (x->any_field && ok)
			return 1;
		hits += (unsigned)ok;
	}
	return !x->any_field && hits == x->nfields;
}

static void gather(const struct sim_shared *sh, const struct sim_flat_unit *x, unsigned unit,
		   unsigned socket, unsigned inst, unsigned k, uint64_t ctl, uint64_t c0,
		   uint64_t c1, struct sim_input *in)
{
	in->n = 0;
	in->overflowed = 0;
	for (unsigned i = 0; i < sh->n_streams; i++) {
		const struct sim_stream *st = &sh->streams[i];
		if (st->kind != unit || !(st->sockets & (1u << socket)) ||
		    !(st->insts & (1u << inst)) || st->start_cycle > c0 || c1 > st->stop_cycle)
			continue;
		int want;
		switch (x->input) {
		case SIM_FLAT_EVSEL: {
			unsigned ev = (unsigned)((ctl & x->ev) >> __builtin_ctzll(x->ev));
			unsigned um = (unsigned)((ctl & x->umask) >> __builtin_ctzll(x->umask));
			want = st->target == SIM_TARGET_EVENT && st->ev == ev &&
			       (st->umask == 0 || (st->umask & um));
			break;
		}
		case SIM_FLAT_ATTRS:
			want = st->target == SIM_TARGET_EVENT &&
			       fields_match(x, (uint32_t)(ctl >> X7400_CTR_CTL_SHIFT), st->match);
			break;
		case SIM_FLAT_FREE:
			want = st->target == SIM_TARGET_EXTRA && st->extra == k;
			break;
		default:
			want = 0;
		}
		if (want && in->n < SIM_MAX_INPUTS)
			in->idx[in->n++] = (uint16_t)i;
		else if (want)
			in->overflowed = 1;
	}
}

static int counting(const struct sim_flat_desc *d, const struct sim_flat_unit *x,
		    const struct sim_flat_socket *fs, unsigned inst, unsigned k, uint64_t ctl)
{
	switch (x->input) {
	case SIM_FLAT_FREE:
		return 1; /* SKL 3.3: "free-running and always-running" */
	default:
		break;
	}
	switch (d->global) {
	case SIM_FLAT_GLOBAL_SKL:
		return (fs->global_ctl & d->global_en) && (ctl & x->ctl_en) &&
		       (!x->slice_gate || (fs->global_ctl >> inst & 1));
	case SIM_FLAT_GLOBAL_NHM:
		return (fs->global_ctl >> (x->gidx + k) & 1) && (ctl & x->ctl_en);
	default: /* EMON: "Counting starts after software writes a non-zero value" */
		return (ctl & X7400_CTR_CTL_CONTROL) && !(fs->frozen >> (x->gidx + k) & 1);
	}
}

/* A carry out of the counter's top bit: the manual's status bit, and the
 * freeze on PMI where the platform has one (applied at the end of the span;
 * MODEL.md). */
static void overflowed(const struct sim_flat_desc *d, const struct sim_flat_unit *x,
		       struct sim_flat_socket *fs, unsigned k, uint64_t ctl, int *freeze)
{
	switch (d->global) {
	case SIM_FLAT_GLOBAL_SKL:
		if (ctl & x->ctl_ovf) {
			fs->global_status |= UINT64_C(1) << x->status_bit;
			*freeze |= !!(fs->global_ctl & d->global_frz);
		}
		break;
	case SIM_FLAT_GLOBAL_NHM:
		fs->global_status |= UINT64_C(1) << (x->gidx + k) | NHM_GLOBAL_STATUS_CHG;
		if (ctl & x->ctl_ovf) {
			fs->global_status |= NHM_GLOBAL_STATUS_OVF_PMI;
			*freeze |= !!(fs->global_ctl & d->global_frz);
		}
		break;
	default:
		fs->global_status |= UINT64_C(1) << (X7400_GL_STATUS_SHIFT + x->gidx + k);
	}
}

void sim_flat_span(struct sim_shared *sh, const struct sim_model *m, unsigned s, uint64_t t0,
		   uint64_t t1)
{
	const struct sim_flat_desc *d = m->flat;
	struct sim_flat_socket *fs = &sh->flat[s];
	int freeze = 0;
	for (unsigned u = 0; u < d->nunits; u++) {
		const struct sim_flat_unit *x = &d->units[u];
		uint64_t hz = m->clock_hz[x->clock];
		uint64_t c0 = sim_cycles(t0, hz), c1 = sim_cycles(t1, hz);
		if (c1 <= c0)
			continue;
		uint64_t mask = width_mask(x->width);
		for (unsigned i = 0; i < x->max_instances; i++) {
			if (!(m->present[u] & (1u << i)))
				continue;
			for (unsigned k = 0; k < x->counters; k++) {
				uint64_t ctl = fs->ctl[u][i][k];
				if (!counting(d, x, fs, i, k, ctl))
					continue;
				uint64_t delta;
				if (x->input == SIM_FLAT_CLOCK) {
					delta = c1 - c0;
				} else {
					struct sim_input in;
					gather(sh, x, u, s, i, k, ctl, c0, c1, &in);
					struct sim_cmp cmp = {0};
					if (x->input == SIM_FLAT_EVSEL) {
						cmp.thresh = (uint32_t)((ctl & x->thresh) >>
									__builtin_ctzll(x->thresh));
						cmp.invert = !!(ctl & x->inv);
						cmp.edge = !!(ctl & x->edge);
					}
					uint8_t prev = (fs->edge_prev[u][i] >> k) & 1;
					delta =
					    sim_eval(sh, &in, &cmp, c0, c1 - c0, &prev, 0, NULL);
					fs->edge_prev[u][i] =
					    (uint8_t)((fs->edge_prev[u][i] & ~(1u << k)) |
						      (unsigned)prev << k);
				}
				uint64_t v = fs->ctr[u][i][k] + delta;
				if (v > mask || delta > mask) {
					if (x->combined && (ctl & X7400_CTR_CTL_SATURATE))
						v = mask; /* 18.21.5: saturate at FFFFFFFFH */
					if (x->input != SIM_FLAT_FREE)
						overflowed(d, x, fs, k, ctl, &freeze);
				}
				fs->ctr[u][i][k] = v & mask;
			}
		}
	}
	if (freeze) {
		/* SKL: EN "is cleared if bit 31 (FREEZE) is set and any enabled
		 * uncore counters overflow"; NHM PMI_FRZ: "all U-clock uncore
		 * counters are disabled" until software re-enables them. */
		if (d->global == SIM_FLAT_GLOBAL_SKL)
			fs->global_ctl &= ~d->global_en;
		else
			fs->global_ctl &= ~(NHM_GLOBAL_CTRL_EN_PC_ALL | NHM_GLOBAL_CTRL_EN_FC0);
	}
}
