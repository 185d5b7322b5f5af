/* The one direct engine (engine.h): every programming sequence of the
 * direct backend, over the platform's box-kind descriptions.
 *
 *   acquire:   claim the boxes of every plan given (claim.h): hold the
 *              sockets with programmable counters (one a killed holder left
 *              put idle first, idle.h), build the allowlist of the claimed
 *              boxes' PMON registers.  Kept until release.
 *   program:   bind every slot to its registers; claim what the plan
 *              needs beyond what was acquired; global control to its PROGRAM value
 *              (nothing counts), box controls frozen and reset, then box by
 *              box its filters and its controls with their local enable.
 *              A failure clears what was written.
 *   start:     zero the planned counters (box reset or writes), unfreeze
 *              the boxes, and the global START value: all counters of a
 *              socket start with one write where the platform allows.
 *   read:      a loop over reads prepared at program time (register,
 *              slot): one access per counter, no mask (the fold masks).
 *              With read_freeze, the global READ_FREEZE value around the
 *              reads (one instant per socket; the writes prepared and
 *              checked against the allowlist at program time).  A PCI
 *              counter is one 8-byte read (unfrozen, read again until two
 *              reads agree on the high dword).  With a batch operation
 *              (msr-safe) the freeze writes and every MSR counter are one
 *              batch, the thaw writes a second after the PCI and MMIO
 *              counters (msr_batch.h).  The event-set layer folds wraps.
 *   stop:      the global STOP value, the boxes frozen.
 *   unprogram: STOP, boxes reset or controls 0, filters 0, RELEASE; the
 *              claim is given back unless acquire took it (engine_stop.c,
 *              with stop, release and destroy).  The engine is made, its
 *              operations listed, in engine_create.c.
 * Free-running counters are only read: the event-set layer takes the
 * reading at start as their origin. */
#include "backend/direct/engine_internal.h"
#include "backend/direct/idle.h"
#include "common/uncore_error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The description of a planned box; box types only the kernel's driver
 * knows (perf sysfs) have none. */
static const struct direct_kind *kind_of(const struct engine *e, unsigned box)
{
	return box < e->base.machine.plat->nboxes ? e->kinds[box] : NULL;
}

static uint64_t width_mask(unsigned w)
{
	return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

/* The write of `r` - or, while a sequence is written down, its place in
 * it (seq_apply makes it). */
int eng_wr(struct engine *e, const struct uncore_reg *r, uint64_t v)
{
	if (!e->claim.guarded) /* not (or no longer) bound: nothing of ours to write */
		return uncore_fail(UNCORE_ESTATE, "register write with no boxes bound");
	if (e->seq.on)
		return direct_wseq_add(&e->seq, r, v);
	return uncore_regio_write(e->claim.guarded, r, v);
}

/* Program's and start's box writes are written down (direct_wseq_begin),
 * then made by one call through the allowlist (regio.h write_seq): the same
 * writes in the same order, stopping at the first that fails, as if each
 * were made in turn; a box control whose writes were not all made keeps the
 * value it had (wr_box_ctl's rule). */
static int seq_apply(struct engine *e, int rc)
{
	size_t done = 0;
	e->seq.on = 0;
	if (rc == 0 && e->seq.n)
		rc = uncore_regio_write_seq(e->claim.guarded, e->seq.op, e->seq.n, &done);
	for (size_t i = e->seq.n; rc < 0 && i-- > done;)
		if (e->seq.box[i] >= 0)
			e->boxes[e->seq.box[i]].box_ctl_last = e->seq.prev[i];
	e->seq.n = 0;
	return rc;
}

/* A counter control write; twice on the kinds whose erratum asks for it
 * (HSX SBo 2.4.2, R2PCIe 2.10.2, R3QPI 2.11.2: "must be written twice"). */
int eng_wr_ctl(struct engine *e, const struct eng_counter *c, uint64_t v)
{
	int rc = eng_wr(e, &c->ctl, v);
	if (rc == 0 && c->k->ctl_write_twice)
		rc = eng_wr(e, &c->ctl, v);
	return rc;
}

/* A box control write, with the kind's must-be-1 bits.  One bit per write
 * (HSX SBo), as the Linux driver writes it (hswep_uncore_sbox_msr_init_box,
 * "to avoid spurious #GPs"): first the kept bits with the must-be-1 bits
 * and the freeze when asked for (so the box is frozen before any reset,
 * 2.1.2 a), then each other new bit in turn, lowest first. */
int eng_wr_box_ctl(struct engine *e, struct eng_box *b, uint64_t bits)
{
	const struct direct_kind *k = b->k;
	uint64_t v = k->box_ctl_must1 | bits;
	int rc;
	if (k->box_ctl_one_bit) {
		/* HARDWARE-DECISIONS.md H8: as Linux, every bit in turn (its
		 * 0x1, 0x3, 0x10003), the freeze first so that nothing counts
		 * between a reset and it (HSX 2.1.2 a). */
		uint64_t cur = (b->box_ctl_last & v) | (v & k->box_ctl_frz);
		rc = cur != b->box_ctl_last || cur == v ? eng_wr(e, &b->box_ctl, cur) : 0;
		for (uint64_t add = v & ~cur; rc == 0 && add; add &= add - 1) {
			cur |= add & -add;
			rc = eng_wr(e, &b->box_ctl, cur);
		}
	} else {
		rc = eng_wr(e, &b->box_ctl, v);
	}
	if (rc == 0 && e->seq.on) { /* the sequence's last write finishes it */
		e->seq.box[e->seq.n - 1] = (int)(b - e->boxes);
		e->seq.prev[e->seq.n - 1] = b->box_ctl_last;
	}
	if (rc == 0)
		b->box_ctl_last = v;
	return rc;
}

static void global_reg(const struct engine *e, unsigned socket, struct uncore_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->space = UNCORE_SPACE_MSR;
	r->width = 8;
	r->socket = (uint16_t)socket;
	r->addr = e->p->global_msr;
}

/* The global control's value at `step` for a socket whose used counters
 * are `used` (engine.h, struct direct_platform): 1 with *v, 0 for none. */
static int global_value(const struct direct_platform *p, enum direct_global_step step,
			uint64_t used, uint64_t *v)
{
	uint64_t bits = (used & p->used_mask) << p->used_shift;
	if (p->global_skip & (1u << step))
		return 0;
	switch (step) {
	case DIRECT_GLOBAL_START:
	case DIRECT_GLOBAL_READ_THAW:
		*v = p->counting | bits;
		return 1;
	case DIRECT_GLOBAL_RELEASE:
		*v = p->counting | bits;
		return p->release_counting;
	default:
		*v = p->held | (p->used_when_held ? bits : 0);
		return 1;
	}
}

static const char *const global_step_name[DIRECT_GLOBAL_STEPS] = {
    [DIRECT_GLOBAL_PROGRAM] = "global hold for programming",
    [DIRECT_GLOBAL_START] = "global unfreeze",
    [DIRECT_GLOBAL_STOP] = "global freeze",
    [DIRECT_GLOBAL_READ_FREEZE] = "global freeze",
    [DIRECT_GLOBAL_READ_THAW] = "global unfreeze",
    [DIRECT_GLOBAL_RELEASE] = "global release",
};

/* Global-control writes through `io` (ops with write set), each one even
 * when another's write failed: a fault on one socket never leaves the
 * others frozen or counting.  With `retry`, only the ops whose err is set
 * (a batch did not make them) are written, again.  The sockets whose op
 * is done are set in *done (NULL: not wanted); 0 or the first error, its
 * detail naming the sockets that failed. */
static int write_global(enum direct_global_step step, struct uncore_regio *io,
			struct uncore_regio_op *w, unsigned n, uint32_t *done, int retry)
{
	int first = 0;
	/* Only its first byte set: a read's freeze and thaw pass here, and
	 * zeroing all 64 bytes cost every read 10 instructions (issue 27). */
	char failed[64];
	failed[0] = '\0';
	size_t len = 0;
	uint32_t ok = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!retry || w[i].err)
			w[i].err = uncore_regio_write(io, &w[i].reg, w[i].value);
		if (w[i].err == 0) {
			ok |= 1u << w[i].reg.socket;
			continue;
		}
		if (!first)
			first = w[i].err;
		if (len < sizeof(failed))
			len += (size_t)snprintf(failed + len, sizeof(failed) - len, "%s%u",
						len ? ", " : "", w[i].reg.socket);
	}
	if (done)
		*done = ok;
	if (!first)
		return 0;
	char detail[400];
	snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	return uncore_fail(first, "the %s of socket %s failed (%s)", global_step_name[step], failed,
			   detail);
}

/* Every socket with programmable counters to its `step` value (write_global). */
int eng_set_global(struct engine *e, enum direct_global_step step, struct uncore_regio *io,
		      uint32_t *done)
{
	struct uncore_regio_op w[UNCORE_MACHINE_MAX_SOCKETS];
	unsigned n = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(e->sockets & (1u << s)) || !global_value(e->p, step, e->used[s], &w[n].value))
			continue;
		w[n].write = 1;
		global_reg(e, s, &w[n++].reg);
	}
	return write_global(step, io, w, n, done, 0);
}

/* A claimed box's registers known already: those of a bound box (where the
 * control is not the counter too: the same list) or of a box claimed
 * before; 1 with out's list. */
static int known_regs(const struct engine *e, const struct direct_kind *k,
		      const struct direct_claim_box *cb, struct eng_claimed *out)
{
	for (unsigned i = 0; e->plan && e->boxes && !k->combined && i < e->plan->nboxes; i++)
		if (e->plan->boxes[i].box == cb->box && e->plan->boxes[i].socket == cb->socket &&
		    e->plan->boxes[i].instance == cb->instance && e->boxes[i].nregs) {
			out->nregs = e->boxes[i].nregs;
			memcpy(out->regs, e->boxes[i].regs, out->nregs * sizeof(out->regs[0]));
			return 1;
		}
	for (unsigned i = 0; i < e->nclaimed; i++)
		if (e->claimed[i].at.box == cb->box && e->claimed[i].at.socket == cb->socket &&
		    e->claimed[i].at.instance == cb->instance) {
			out->nregs = e->claimed[i].nregs;
			memcpy(out->regs, e->claimed[i].regs, out->nregs * sizeof(out->regs[0]));
			return 1;
		}
	return 0;
}

/* A register of planned box `box` (its table, box_regs), or asked of its
 * kind alone. */
static int box_reg(struct engine *e, unsigned box, enum direct_reg_role role, unsigned idx,
		   uint64_t mmio_base, struct uncore_reg *out)
{
	const struct eng_box *b = &e->boxes[box];
	const struct uncore_boxprog *bp = &e->plan->boxes[box];
	for (unsigned j = 0; j < b->nregs; j++)
		if (b->regs[j].role == role && b->regs[j].idx == idx) {
			*out = b->regs[j].reg;
			return 0;
		}
	return direct_kind_reg(b->k, &e->base.machine, bp->socket, bp->instance, role, idx,
			       mmio_base, out);
}

static int bind_slot(struct engine *e, unsigned i)
{
	const struct uncore_slot *s = &e->plan->slots[i];
	const struct uncore_machine *m = &e->base.machine;
	/* Its box's kind and registers when the slot is that box's (as the
	 * scheduler plans it); otherwise asked here. */
	int own = s->boxprog < e->plan->nboxes && e->plan->boxes[s->boxprog].box == s->box &&
		  e->plan->boxes[s->boxprog].socket == s->socket &&
		  e->plan->boxes[s->boxprog].instance == s->instance;
	const struct direct_kind *k = own ? e->boxes[s->boxprog].k : kind_of(e, s->box);
	struct uncore_reg ctr;
	int fixed = s->counter == UNCORE_SLOT_FIXED;
	unsigned idx = fixed ? s->fixed_index : s->counter;
	int rc;

	if (!k)
		return uncore_fail(UNCORE_ENOSUPP, "%s: no %s register layout for %s boxes",
				   e->p->title, m->plat->name,
				   s->box < m->plat->nboxes ? m->plat->boxes[s->box]->name : "?");
	/* Folding at fewer bits than the register has is exact (HSX UBox and
	 * SBo: events/registry_hswep.c says why); at more it is not. */
	if (s->width > k->width)
		return uncore_fail(UNCORE_EINVAL,
				   "%s: the event tables say %u-bit counters, the register layout "
				   "%u bits (%s)",
				   k->title, s->width, k->width, k->section);
	/* A fixed slot on a kind of generic counters is its extra fixed counter. */
	int extra = fixed && !k->fixed;
	if ((extra && !k->nfixed) || (!fixed && k->fixed))
		return uncore_fail(UNCORE_EINVAL, "%s: a %s counter planned on a box without one",
				   k->title, fixed ? "fixed" : "generic");
	enum direct_reg_role ctr_role = extra ? DIRECT_REG_FIXED_CTR : DIRECT_REG_CTR;
	rc = own ? box_reg(e, s->boxprog, ctr_role, idx, e->mmio_base, &ctr)
		 : direct_kind_reg(k, m, s->socket, s->instance, ctr_role, idx, e->mmio_base, &ctr);
	if (rc < 0)
		return rc;
	if (ctr.space == UNCORE_SPACE_MSR && e->batched) {
		rc = direct_msr_batch_add(&e->batch, &ctr, i, width_mask(s->width));
		if (rc < 0)
			return rc;
	} else {
		struct direct_read_op *op = &e->ops[e->nops];
		if (ctr.space == UNCORE_SPACE_PCI && ctr.width == 4 && s->width > 32) {
			/* Both dwords in one read: one pread through sysfs,
			 * two loads through ECAM (access/pci_cfg.h). */
			ctr.width = 8;
			op->tear = 1u << s->socket;
			e->tear_sockets |= op->tear;
		}
		op->reg = ctr;
		op->slot = i;
		e->nops++;
	}
	if (k->freerun)
		return 0;
	struct eng_counter *c = &e->counters[e->ncounters];
	c->k = k;
	c->box = s->boxprog;
	c->ctr = ctr;
	enum direct_reg_role ctl_role = extra ? DIRECT_REG_FIXED_CTL : DIRECT_REG_CTL;
	rc = own ? box_reg(e, s->boxprog, ctl_role, idx, e->mmio_base, &c->ctl)
		 : direct_kind_reg(k, m, s->socket, s->instance, ctl_role, idx, e->mmio_base,
				   &c->ctl);
	if (rc < 0)
		return rc;
	/* A kind with register rules (writable hook) is programmed as planned:
	 * a bit outside its rules is refused by the allowlist, not dropped. */
	uint64_t keep =
	    extra ? k->fixed_ctl_writable : k->ctl_writable & ~(k->combined ? k->ctr_writable : 0);
	c->enable = extra ? k->fixed_ctl_enable : k->ctl_enable;
	c->ctl_value = (s->ctl & (k->writable ? ~UINT64_C(0) : keep)) | c->enable;
	e->ncounters++;
	e->used[s->socket] |= UINT64_C(1) << (extra ? k->fixed_gbit : k->gbit + idx);
	e->sockets |= 1u << s->socket;
	return 0;
}

/* A planned box: its box control, and the filters of its events (all of
 * them with write_all_filters: a box reset leaves filters as they were). */
static int bind_box(struct engine *e, unsigned i)
{
	const struct uncore_boxprog *bp = &e->plan->boxes[i];
	const struct uncore_machine *m = &e->base.machine;
	const struct direct_kind *k = kind_of(e, bp->box);
	struct eng_box *b = &e->boxes[i];
	int rc;

	b->k = k;
	if (!k)
		return 0; /* bind_slot says why */
	/* Its registers as its claim asked them (where the control is not
	 * the counter too: the same list), else asked at once; a box that
	 * does not answer them all (free-running counters have no control)
	 * asks one by one. */
	struct eng_claimed known;
	struct direct_claim_box cb = {
	    .socket = (uint16_t)bp->socket, .box = (uint8_t)bp->box, .instance = (uint8_t)bp->instance};
	if (!k->freerun && !k->combined && known_regs(e, k, &cb, &known) && known.nregs) {
		b->nregs = known.nregs;
		memcpy(b->regs, known.regs, b->nregs * sizeof(b->regs[0]));
	} else if (!k->freerun) {
		struct direct_box_at at = {.socket = bp->socket, .inst = bp->instance};
		b->nregs = direct_kind_box_query(k, b->regs, 1);
		if (b->nregs && direct_kind_regs(k, m, &at, 1, e->mmio_base, b->regs, b->nregs) < 0)
			b->nregs = 0;
	}
	if (k->box_ctl) {
		rc = box_reg(e, i, DIRECT_REG_BOX_CTL, 0, 0, &b->box_ctl);
		if (rc < 0)
			return rc;
		e->sockets |= 1u << bp->socket;
	}
	for (unsigned f = 0; f < bp->nfilters; f++) {
		struct direct_filter_write w[DIRECT_MAX_FILTER_WRITES];
		int n = 1;
		if (!bp->filter_mask[f] && !k->write_all_filters)
			continue;
		if (k->filter_writes) {
			n = k->filter_writes(k, f, bp->filter[f], w);
			if (n < 0)
				return n;
		} else if (f >= k->nfilters) {
			return uncore_fail(UNCORE_ENOSUPP, "%s: filter %u has no register",
					   k->title, f);
		} else {
			w[0].reg = (uint8_t)f;
			w[0].value = bp->filter[f] & k->filter_writable[f];
		}
		for (int j = 0; j < n; j++) {
			struct eng_filter *fl = &e->filters[e->nfilters];
			rc = box_reg(e, i, DIRECT_REG_FILTER, w[j].reg, 0, &fl->reg);
			if (rc < 0)
				return rc;
			fl->box = i;
			fl->value = w[j].value;
			e->nfilters++;
		}
		e->sockets |= 1u << bp->socket;
	}
	return 0;
}

/* The registers of the boxes c[from..n) still to ask of kind k, in one
 * call for them all (direct_kind_regs). */
static int ask_kind(const struct engine *e, const struct direct_kind *k, struct eng_claimed *c,
		    unsigned from, unsigned n)
{
	unsigned nq = c[from].nregs, na = 0;
	struct direct_box_at *at = calloc(n - from, sizeof(*at));
	struct direct_box_reg *q = calloc((size_t)(n - from) * nq + 1, sizeof(*q));
	int rc = at && q ? 0 : uncore_fail(UNCORE_ENOMEM, "out of memory claiming %u boxes", n);
	for (unsigned j = from; rc == 0 && j < n; j++)
		if (c[j].ask && kind_of(e, c[j].at.box) == k) {
			at[na] = (struct direct_box_at){.socket = c[j].at.socket,
							.inst = c[j].at.instance};
			memcpy(&q[(size_t)na++ * nq], c[j].regs, nq * sizeof(*q));
		}
	if (rc == 0)
		rc = direct_kind_regs(k, &e->base.machine, at, na, 0, q, nq);
	for (unsigned j = from, a = 0; rc == 0 && j < n; j++)
		if (c[j].ask && kind_of(e, c[j].at.box) == k) {
			memcpy(c[j].regs, &q[(size_t)a++ * nq], nq * sizeof(*q));
			c[j].ask = 0;
		}
	free(at);
	free(q);
	return rc;
}

/* The registers of a claim's allowlists (claim.h), in one call: every
 * register of each claimed box with its writable bits (those not known yet
 * asked of their kind, one call per kind: ask_kind; at most
 * DIRECT_MAX_BOX_REGS a box: test_direct_descriptions), then the global
 * control of each socket with registers to write, last (they alone are the
 * read path's view: *nglobal).  Free-running
 * counters are only read.  PCI is written in dwords: the low dword's bits
 * at the register, the high at +4.  The boxes' registers are kept for
 * bind_box. */
static int claim_boxes(void *ctx, const struct direct_claim_box *boxes, unsigned n,
		       struct uncore_reg **regs, uint64_t **masks, unsigned *nr, unsigned *nglobal,
		       uint32_t *sockets)
{
	struct engine *e = ctx;
	size_t cap = 2 * DIRECT_MAX_BOX_REGS * (size_t)n + UNCORE_MACHINE_MAX_SOCKETS;
	struct eng_claimed *c = calloc(n ? n : 1, sizeof(*c));
	struct uncore_reg *r = calloc(cap, sizeof(*r));
	uint64_t *mask = calloc(cap, sizeof(*mask));
	unsigned na = 0;
	int rc = c && r && mask ? 0 : uncore_fail(UNCORE_ENOMEM, "out of memory claiming %u boxes", n);
	*sockets = 0;
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		const struct direct_kind *k = kind_of(e, boxes[i].box);
		c[i].at = boxes[i];
		if (!k || k->freerun)
			continue;
		*sockets |= 1u << boxes[i].socket;
		if (!known_regs(e, k, &boxes[i], &c[i]))
			c[i].ask = (c[i].nregs = direct_kind_box_query(k, c[i].regs, 0)) != 0;
	}
	for (unsigned i = 0; rc == 0 && i < n; i++)
		if (c[i].ask)
			rc = ask_kind(e, kind_of(e, boxes[i].box), c, i, n);
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		const struct direct_kind *k = kind_of(e, boxes[i].box);
		for (unsigned j = 0; j < c[i].nregs; j++) {
			const struct direct_box_reg *q = &c[i].regs[j];
			int pci = q->reg.space == UNCORE_SPACE_PCI && q->reg.width == 4;
			r[na] = q->reg;
			mask[na++] = pci ? q->writable & 0xffffffffu : q->writable;
			if (pci && (q->role == DIRECT_REG_CTR || q->role == DIRECT_REG_FIXED_CTR) &&
			    k->width > 32) {
				r[na] = q->reg;
				r[na].addr += 4;
				mask[na++] = q->writable >> 32;
			}
		}
	}
	unsigned nb = na;
	for (unsigned s = 0; rc == 0 && s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		if (*sockets & (1u << s)) {
			global_reg(e, s, &r[na]);
			mask[na++] = e->p->global_writable;
		}
	if (rc == 0) {
		free(e->claimed);
		e->claimed = c;
		e->nclaimed = n;
		*regs = r;
		*masks = mask;
		*nr = na;
		*nglobal = na - nb;
		return 0;
	}
	free(c);
	free(r);
	free(mask);
	return rc;
}

static void idle_socket(const void *ctx, unsigned socket, struct uncore_regio *io)
{
	const struct engine *e = ctx;
	direct_idle_socket(e->p, &e->base.machine, socket, io);
}
static const struct direct_claim_ops claim_ops = {.add_boxes = claim_boxes,
						  .idle_socket = idle_socket};

/* The owner took socket s over from a killed holder (backend.h): the
 * boxes it left enabled are put idle, as the claim does with a socket it
 * takes itself. */
void eng_socket_taken_over(struct uncore_backend *base, unsigned socket)
{
	struct engine *e = (struct engine *)base;
	idle_socket(e, socket, e->cfg.io);
}

/* The read path's global writes, one per socket with counters for each of
 * its steps (freeze into e->freeze, thaw into e->thaw), all checked now,
 * in one call, against the allowlist of the global controls of the
 * claimed sockets (the claim's guarded_global: their registers and freeze
 * bits only, built once when the sockets were claimed): the prepared
 * writes never change, so the read writes them straight to the device.
 * The freeze's are checked first: a refusal is the first one's. */
static int prepare_global(struct engine *e)
{
	static const enum direct_global_step step[2] = {DIRECT_GLOBAL_READ_FREEZE,
							DIRECT_GLOBAL_READ_THAW};
	struct uncore_regio_op *out[2] = {e->freeze, e->thaw};
	unsigned *nout[2] = {&e->nfreeze, &e->nthaw};
	struct uncore_regio_op w[2 * UNCORE_MACHINE_MAX_SOCKETS];
	unsigned n = 0;
	for (unsigned t = 0; t < 2; t++) {
		unsigned first = n;
		for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
			uint64_t v;
			if (!(e->sockets & (1u << s)) || !global_value(e->p, step[t], e->used[s], &v))
				continue;
			memset(&w[n], 0, sizeof(w[n]));
			global_reg(e, s, &w[n].reg);
			w[n].value = v;
			w[n++].write = 1;
		}
		*nout[t] = n - first;
		memcpy(out[t], &w[first], (n - first) * sizeof(w[0]));
	}
	/* No socket with counters (a set of COUNTING_TIME alone): nothing
	 * claimed, no view, nothing to check. */
	int rc = n ? uncore_allowlist_check_wrapped(e->claim.guarded_global, w, n) : 0;
	if (rc < 0)
		e->nfreeze = e->nthaw = 0;
	return rc;
}

void eng_release_binding(struct engine *e)
{
	if (!e->claim.kept)
		direct_claim_drop(&e->claim);
	e->nfreeze = e->nthaw = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		e->used[s] = 0;
	free(e->boxes);
	free(e->counters);
	free(e->filters);
	free(e->ops);
	direct_msr_batch_free(&e->batch);
	e->boxes = NULL;
	e->counters = NULL;
	e->filters = NULL;
	e->ops = NULL;
	e->nops = 0;
	e->tear_sockets = 0;
	e->ncounters = e->nfilters = 0;
	e->sockets = 0;
	e->plan = NULL;
	e->running = 0;
}

/* STOP; every planned box frozen with its controls and counters reset (HSX
 * 2.1.2 a, d), or its controls 0; every filter 0; RELEASE: what a failed
 * program leaves and unprogram does.  Best effort: every write is tried,
 * the first error returned. */
int eng_clear_all(struct engine *e)
{
	int first = eng_set_global(e, DIRECT_GLOBAL_STOP, e->claim.guarded, NULL);
	for (unsigned i = 0; i < e->plan->nboxes; i++) {
		struct eng_box *b = &e->boxes[i];
		if (b->k && b->k->box_ctl) {
			keep_first(&first, eng_wr_box_ctl(e, b,
						      b->k->box_ctl_frz | b->k->box_ctl_rst_ctrl |
							  b->k->box_ctl_rst_ctrs));
			continue;
		}
		for (unsigned c = 0; c < e->ncounters; c++)
			if (e->counters[c].box == i)
				keep_first(&first, eng_wr_ctl(e, &e->counters[c], 0));
	}
	for (unsigned f = 0; f < e->nfilters; f++)
		keep_first(&first, eng_wr(e, &e->filters[f].reg, 0));
	keep_first(&first, eng_set_global(e, DIRECT_GLOBAL_RELEASE, e->claim.guarded, NULL));
	return first;
}

int eng_acquire(struct uncore_backend *base, const struct uncore_plan *const *plans, unsigned n)
{
	struct engine *e = (struct engine *)base;
	e->claim.held_by_owner = base->sockets_held_by_owner;
	int rc = direct_claim_add(&e->claim, &e->cfg, &claim_ops, e, plans, n);
	if (rc == 0)
		e->claim.kept = 1;
	return rc;
}

/* The writes of program: PROGRAM (nothing counts); each box with a box
 * control frozen and reset first (HSX 2.1.2 a, d: the reset clears stale
 * programming, so it precedes ours), the controls of the kinds enabled at
 * start cleared; then box by box its filters and its controls with their
 * enable (2.1.2 b, c). */
static int program_boxes(struct engine *e)
{
	int rc = eng_set_global(e, DIRECT_GLOBAL_PROGRAM, e->claim.guarded, NULL);
	if (rc < 0)
		return rc;
	direct_wseq_begin(&e->seq);
	for (unsigned i = 0; i < e->plan->nboxes && rc == 0; i++) {
		struct eng_box *b = &e->boxes[i];
		if (b->k && b->k->box_ctl)
			rc = eng_wr_box_ctl(e, b,
					b->k->box_ctl_frz | b->k->box_ctl_rst_ctrl |
					    b->k->box_ctl_rst_ctrs);
		for (unsigned c = 0; c < e->ncounters && rc == 0; c++)
			if (e->counters[c].box == i && e->counters[c].k->enable_at_start)
				rc = eng_wr_ctl(e, &e->counters[c], 0);
	}
	for (unsigned i = 0; i < e->plan->nboxes && rc == 0; i++) {
		for (unsigned f = 0; f < e->nfilters && rc == 0; f++)
			if (e->filters[f].box == i)
				rc = eng_wr(e, &e->filters[f].reg, e->filters[f].value);
		for (unsigned c = 0; c < e->ncounters && rc == 0; c++) {
			const struct eng_counter *x = &e->counters[c];
			if (x->box == i && !x->k->enable_at_start)
				rc = eng_wr_ctl(e, x, x->ctl_value);
		}
	}
	return seq_apply(e, rc);
}

int eng_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct engine *e = (struct engine *)base;
	int rc;

	if (e->plan)
		return uncore_fail(UNCORE_EBUSY, "another event set of this process is counting on "
						 "the uncore; stop it before starting this one");
	unsigned nf = 0;
	for (unsigned i = 0; i < plan->nboxes; i++)
		nf += plan->boxes[i].nfilters;
	e->boxes = calloc(plan->nboxes ? plan->nboxes : 1, sizeof(*e->boxes));
	e->counters = calloc(plan->nslots ? plan->nslots : 1, sizeof(*e->counters));
	e->ops = calloc(plan->nslots ? plan->nslots : 1, sizeof(*e->ops));
	e->filters = calloc(nf ? nf * DIRECT_MAX_FILTER_WRITES : 1, sizeof(*e->filters));
	e->plan = plan;
	e->batched = e->cfg.io->ops->batch != NULL;
	if (!e->boxes || !e->counters || !e->ops || !e->filters ||
	    direct_msr_batch_init(&e->batch, plan->nslots) < 0) {
		eng_release_binding(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory binding %u counters",
				   plan->nslots);
	}
	for (unsigned i = 0; i < plan->nboxes; i++)
		if ((rc = bind_box(e, i)) < 0)
			goto fail;
	for (unsigned s = 0; s < plan->nslots; s++)
		if ((rc = bind_slot(e, s)) < 0)
			goto fail;
	direct_read_ops_prepare(e->ops, e->nops);
	/* The sockets are ours before the first write (claim.h); reading
	 * free-running counters alone disturbs nobody and needs no hold. */
	e->claim.held_by_owner = base->sockets_held_by_owner;
	if ((rc = direct_claim_add(&e->claim, &e->cfg, &claim_ops, e, &plan, 1)) < 0 ||
	    (rc = prepare_global(e)) < 0)
		goto fail;
	if (e->batched)
		direct_msr_batch_finish(&e->batch, e->freeze, e->nfreeze, e->thaw, e->nthaw);

	rc = program_boxes(e);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		eng_clear_all(e); /* leave nothing half-programmed */
		rc = uncore_error_restore(&err);
		goto fail;
	}
	return 0;
fail:
	eng_release_binding(e);
	return rc;
}

/* Start: the counters zeroed while nothing counts - a box control resets
 * them with the box frozen (HSX 2.1.2 d), other counters are written 0 (a
 * combined register by writing its control again) - then the kinds enabled
 * at start get their enable, just before the boxes unfreeze (2.1.2 note on
 * UBox synchronisation), then the boxes unfreeze (2.1.2 f); the global
 * START value before all that or after it (global_start_first). */
int eng_start(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	const struct direct_platform *p = e->p;
	int rc = 0;

	if (!e->plan)
		return uncore_fail(UNCORE_ESTATE, "start before program");
	if (p->global_start_first)
		rc = eng_set_global(e, DIRECT_GLOBAL_START, e->claim.guarded, NULL);
	if (rc == 0)
		direct_wseq_begin(&e->seq);
	for (unsigned i = 0; i < e->plan->nboxes && rc == 0; i++) {
		struct eng_box *b = &e->boxes[i];
		if (b->k && b->k->box_ctl) {
			rc = eng_wr_box_ctl(e, b, b->k->box_ctl_frz | b->k->box_ctl_rst_ctrs);
			continue;
		}
		for (unsigned c = 0; c < e->ncounters && rc == 0; c++) {
			const struct eng_counter *x = &e->counters[c];
			if (x->box == i)
				rc = x->k->combined ? eng_wr(e, &x->ctl, x->ctl_value)
						    : eng_wr(e, &x->ctr, 0);
		}
	}
	for (unsigned i = 0; i < e->plan->nboxes && rc == 0; i++)
		for (unsigned c = 0; c < e->ncounters && rc == 0; c++)
			if (e->counters[c].box == i && e->counters[c].k->enable_at_start)
				rc = eng_wr_ctl(e, &e->counters[c], e->counters[c].ctl_value);
	for (unsigned i = 0; i < e->plan->nboxes && rc == 0; i++)
		if (e->boxes[i].k && e->boxes[i].k->box_ctl)
			rc = eng_wr_box_ctl(e, &e->boxes[i], 0);
	if (e->seq.on)
		rc = seq_apply(e, rc);
	if (rc == 0 && !p->global_start_first)
		rc = eng_set_global(e, DIRECT_GLOBAL_START, e->claim.guarded, NULL);
	if (rc == 0) {
		e->running = 1;
		e->thaw_pending = 0;
	}
	return rc;
}

/* The freeze writes and the MSR counters (with a batch operation: one
 * batch, and the thaw in it too when no other counter is read; `thawed`
 * says so): 0 or the first error; *frozen: the sockets frozen. */
static int read_msr_frozen(struct engine *e, int freeze, uint64_t *raw, uint32_t *frozen,
			   int *thawed)
{
	struct uncore_regio *io = e->cfg.io;
	struct direct_msr_batch *b = &e->batch;
	int first = 0, rc;
	*frozen = 0;
	*thawed = 0;
	if (!e->batched)
		return freeze ? write_global(DIRECT_GLOBAL_READ_FREEZE, io, e->freeze, e->nfreeze,
					     frozen, 0)
			      : 0;
	unsigned from = freeze ? 0 : b->nfreeze, to = b->nfreeze + b->nreads;
	if (freeze && !e->nops)
		to += b->nthaw, *thawed = 1;
	if (to == from)
		return 0;
	int failed = uncore_regio_batch(io, &b->ops[from], to - from) != 0;
	/* What the batch did not make, made again in the same order. */
	if (freeze)
		first = write_global(DIRECT_GLOBAL_READ_FREEZE, io, b->ops, b->nfreeze, frozen, 1);
	rc = direct_msr_batch_collect(b, io, from, to - from, failed, raw);
	if (rc < 0)
		keep_first(&first, rc);
	if (*thawed && (rc = write_global(DIRECT_GLOBAL_READ_THAW, io, &b->ops[to - b->nthaw],
					  b->nthaw, NULL, 1)) < 0) {
		e->base.counting_interrupted = 1;
		snprintf(e->base.interrupted_detail, sizeof(e->base.interrupted_detail), "%s",
			 uncore_error_detail());
		keep_first(&first, rc);
	}
	return first;
}

/* The thaw after the other counters were read (with a batch operation:
 * one batch): 0 or the error, the counting then interrupted. */
static int read_thaw(struct engine *e)
{
	struct uncore_regio *io = e->cfg.io;
	struct uncore_regio_op *w = e->thaw;
	int rc, retry = 0;
	if (e->batched) {
		w = &e->batch.ops[e->batch.nfreeze + e->batch.nreads];
		retry = 1;
		if (uncore_regio_batch(io, w, e->batch.nthaw) == 0)
			return 0;
	}
	rc = write_global(DIRECT_GLOBAL_READ_THAW, io, w, e->nthaw, NULL, retry);
	e->thaw_pending = rc < 0;
	if (rc < 0) {
		e->base.counting_interrupted = 1;
		snprintf(e->base.interrupted_detail, sizeof(e->base.interrupted_detail), "%s",
			 uncore_error_detail());
	}
	return rc;
}

/* A read that does not freeze (the poller's fold-only read) after an
 * unfreeze failed: the unfreeze first, so that the frozen socket counts
 * again from this read on, not from the application's next one.  Writing
 * the unfreeze value to a socket that is not frozen changes nothing. */
static __attribute__((noinline)) int retry_thaw(struct engine *e)
{
	struct uncore_regio_op w[UNCORE_MACHINE_MAX_SOCKETS];
	unsigned n = e->nthaw < UNCORE_MACHINE_MAX_SOCKETS ? e->nthaw : UNCORE_MACHINE_MAX_SOCKETS;
	memcpy(w, e->thaw, n * sizeof(w[0]));
	int rc = write_global(DIRECT_GLOBAL_READ_THAW, e->cfg.io, w, n, NULL, 0);
	e->thaw_pending = rc < 0;
	return rc;
}

/* Every counter that can be read is read (backend.h): one that fails is
 * UNCORE_RAW_UNREAD and the others keep their values.  With read_freeze,
 * the global READ_FREEZE value around the reads (2.1.3 a: one instant per
 * socket); a socket whose freeze failed is read unfrozen (its PCI halves
 * with the tear check); a thaw that fails leaves that socket stopped until
 * a later read restarts it - the poller's fold-only read too (retry_thaw) -
 * which the backend reports as interrupted counting.  With a batch operation (msr-safe) the freeze writes and the
 * MSR counter reads are one batch, the thaw a second one after the PCI
 * and MMIO counters (they are read between; in the first when there are
 * none).  The loop over the other counters is one register access per
 * counter (read_ops.h). */
/* A read's freeze (thaw 0) or thaw instant on the reader's clock
 * (backend.h, read_now): the freeze's stands for both until the thaw's is
 * taken (a thaw in the freeze's batch: the same instant). */
static inline __attribute__((always_inline)) void read_instant(struct uncore_backend *base, int thaw)
{
	if (base->read_now(base->read_now_ctx, &base->read_ns[1]) == 0 && !thaw) {
		base->read_ns[0] = base->read_ns[1];
		base->read_timed = 1;
	}
	/* Failed: read_timed stays as it was, 0 without a freeze instant; a
	 * thaw instant that failed leaves the freeze's standing for it. */
}

int eng_read(struct uncore_backend *base, uint64_t *raw)
{
	struct engine *e = (struct engine *)base;
	int freeze = e->cfg.read_freeze && e->running && e->ncounters && !base->fold_only_read;
	uint32_t frozen;
	int first, thawed, rc;

	if (!e->plan)
		return uncore_fail(UNCORE_ESTATE, "read before program");
	int retried = 0;
	if (__builtin_expect(e->thaw_pending, 0) && !freeze && e->running)
		retried = retry_thaw(e);
	first = read_msr_frozen(e, freeze, raw, &frozen, &thawed);
	/* The freeze instant, just after the freeze writes (backend.h). */
	if (__builtin_expect(base->read_now != NULL, 0) && freeze)
		read_instant(base, 0);
	if (retried < 0 && !first)
		first = retried;
	/* Stopped counters do not tear; frozen ones neither. */
	rc = direct_read_ops(e->cfg.io, e->ops, e->nops, raw,
			     e->running ? e->tear_sockets & ~frozen : 0);
	if (rc < 0)
		keep_first(&first, rc);
	if (freeze && !thawed) {
		char detail[sizeof(base->interrupted_detail)];
		/* Keep the first error's detail: it names what failed first. */
		if (first)
			snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		/* The thaw instant, just before the thaw writes. */
		if (__builtin_expect(base->read_now != NULL, 0))
			read_instant(base, 1);
		rc = read_thaw(e);
		if (rc < 0 && !first)
			first = rc;
		else if (first)
			uncore_fail(first, "%s", detail);
	}
	return first;
}

/* Each slot's wrap period: 2^width at the kind's fastest rate (max_rate,
 * or clock_hz times the event's Max. Inc/Cyc), ns, UINT64_MAX past 2^64. */
int eng_wrap_ns(const struct uncore_backend *base, const struct uncore_plan *plan, uint64_t *ns)
{
	const struct engine *e = (const struct engine *)base;
	for (unsigned s = 0; s < plan->nslots; s++) {
		const struct uncore_slot *sl = &plan->slots[s];
		const struct direct_kind *k = kind_of(e, sl->box);
		if (!k)
			return uncore_fail(UNCORE_EINVAL, "slot %u: not a box of %s", s,
					   e->p->title);
		unsigned __int128 rate =
		    k->clock_hz ? (unsigned __int128)k->clock_hz * (sl->max_inc ? sl->max_inc : 1)
				: k->max_rate;
		unsigned __int128 span = sl->width >= 64 ? (unsigned __int128)UINT64_MAX + 1
							 : (unsigned __int128)1 << sl->width;
		unsigned __int128 wrap = span * 1000000000u / (rate ? rate : 1);
		ns[s] = wrap > UINT64_MAX ? UINT64_MAX : (uint64_t)wrap;
	}
	return 0;
}

/* Half the shortest wrap period of the plan's counters (eng_wrap_ns): a
 * poller that reads this often still folds correctly when one of its
 * reads comes late by as much again.  HSX R3QPI RxR_OCCUPANCY_VN1 (32 per
 * cycle, 44 bits): 91 s. */
int eng_max_read_interval(const struct uncore_backend *base, const struct uncore_plan *plan,
			  uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	uint64_t *wrap = plan ? calloc(plan->nslots ? plan->nslots : 1, sizeof(*wrap)) : NULL;
	if (plan && !wrap)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for %u wrap periods", plan->nslots);
	int rc = plan ? eng_wrap_ns(base, plan, wrap) : 0;
	for (unsigned s = 0; rc == 0 && plan && s < plan->nslots; s++) {
		uint64_t half = wrap[s] == UINT64_MAX ? UINT64_MAX : wrap[s] / 2; /* never: never */
		if (half < best)
			best = half;
	}
	free(wrap);
	if (rc < 0)
		return rc;
	*ns = best;
	return 0;
}

int eng_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct engine *e = (struct engine *)base;
	out->reads = e->cfg.io->stats.reads;
	out->writes = e->cfg.io->stats.writes;
	out->syscalls = e->cfg.io->stats.syscalls;
	return 0;
}
