/* The direct engine's register writes (engine_internal.h): one register
 * (or its place in the sequence being written down), a counter control
 * (twice where the kind asks), a box control (bit by bit where the kind
 * asks), and the global control of every socket at a step - for every
 * sequence of the engine: program and start (engine.c), a read's freeze and
 * thaw (engine.c), stop and release (engine_stop.c). */
#include "backend/direct/engine_internal.h"
#include "common/uncore_error.h"
#include <stdio.h>
#include <string.h>

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

void eng_global_reg(const struct engine *e, unsigned socket, struct uncore_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->space = UNCORE_SPACE_MSR;
	r->width = 8;
	r->socket = (uint16_t)socket;
	r->addr = e->p->global_msr;
}

/* The global control's value at `step` for a socket whose used counters
 * are `used` (engine.h, struct direct_platform): 1 with *v, 0 for none. */
int eng_global_value(const struct direct_platform *p, enum direct_global_step step,
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
int eng_write_global(enum direct_global_step step, struct uncore_regio *io,
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

/* Every socket with programmable counters to its `step` value (eng_write_global). */
int eng_set_global(struct engine *e, enum direct_global_step step, struct uncore_regio *io,
		      uint32_t *done)
{
	struct uncore_regio_op w[UNCORE_MACHINE_MAX_SOCKETS];
	unsigned n = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(e->sockets & (1u << s)) || !eng_global_value(e->p, step, e->used[s], &w[n].value))
			continue;
		w[n].write = 1;
		eng_global_reg(e, s, &w[n++].reg);
	}
	return eng_write_global(step, io, w, n, done, 0);
}
