/* Direct backend for Haswell-EP: box programming over the register-access
 * interface, following the manual's monitoring-session recipe (HSX PMON
 * 2.1.2) and reading recipe (2.1.3), with the documented errata.
 *
 * Order of operations at program time: hold the ownership lock of every
 * socket of the plan unless acquire did (claim.h), then freeze each box and reset its
 * controls and counters first (2.1.2 a and d: the reset of the control
 * registers clears stale programming, so it must precede ours), then
 * program filters and counter controls with .en set (b, c).  Start resets
 * the counters once more and unfreezes (f); stop freezes.  The UBox has no
 * box control: its counters are zeroed by writing their data registers and
 * started/stopped with their .en bits (2.1.2 note). */
#include "backend/direct/direct.h"

#include "access/allowlist.h"
#include "backend/direct/claim.h"
#include "backend/direct/msr_batch.h"
#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct direct_counter {
	struct uncore_reg ctl;
	struct uncore_reg ctr;
	uint64_t ctl_value; /* with .en */
};

struct direct_box {
	const struct hswep_box_desc *d;
	uint16_t socket;
	uint8_t instance;
	uint8_t has_box_ctl;
	struct uncore_reg box_ctl;
	uint64_t box_ctl_must1;
	uint64_t box_ctl_last; /* the value last written (SBo: one new bit per write) */
	unsigned ncounters;
	struct direct_counter counters[HSWEP_MAX_COUNTERS + 1];
	unsigned nfilter_writes;
	struct {
		struct uncore_reg reg;
		uint64_t value;
	} filter_writes[HSWEP_MAX_FILTERS];
};

/* How to read one slot: one MSR, or the two dwords of a PCI counter. */
struct direct_read {
	struct uncore_reg lo, hi;
	uint8_t pci;
	uint64_t mask;
};

struct direct_backend {
	struct uncore_backend base;
	struct uncore_direct_config cfg;
	/* Sockets held and the allowlisted views of cfg.io: every write, and
	 * the sockets' global controls alone, so that the freeze around every
	 * read checks a list of a few entries, not every box register. */
	struct direct_claim claim;
	const struct uncore_plan *plan;
	struct direct_box *boxes;
	unsigned nboxes;
	struct direct_read *reads;
	struct direct_msr_batch msr_batch; /* the MSR counters, one read_many per socket */
	uint32_t sockets_used;
	char *lock_dir; /* owned copy of cfg.lock_dir */
	int running;
};

const struct hswep_box_desc *uncore_direct_hswep_layout(const struct uncore_box_type *bt)
{
	return bt->platform == UNCORE_PLATFORM_HSWEP && !(bt->flags & UNCORE_BOXF_KERNEL)
		   ? hswep_box(bt->layout)
		   : NULL;
}

static const struct hswep_box_desc *desc_for(const struct uncore_box_type *bt)
{
	return uncore_direct_hswep_layout(bt);
}

static int wr(struct direct_backend *b, const struct uncore_reg *r, uint64_t v)
{
	if (!b->claim.guarded) /* not (or no longer) bound: nothing of ours to write */
		return uncore_fail(UNCORE_ESTATE, "register write with no boxes bound");
	return uncore_regio_write(b->claim.guarded, r, v);
}

/* A box control write.  SBo: one newly set control bit per write, as the
 * Linux driver writes it (hswep_uncore_sbox_msr_init_box, "to avoid
 * spurious #GPs"): first the kept bits with the must-be-1 bits (Table 2-45)
 * and frz when asked for (so the box is frozen before any reset, 2.1.2 a),
 * then each other new bit in turn, lowest first. */
static int wr_box_ctl(struct direct_backend *b, struct direct_box *db, uint64_t v)
{
	int rc;
	if (db->d->errata & HSWEP_ERRATUM_BOX_CTL_ONE_BIT) {
		uint64_t cur = (db->box_ctl_last & v) | db->box_ctl_must1 | (v & HSWEP_PMON_BOX_CTL_FRZ);
		rc = cur != db->box_ctl_last || cur == v ? wr(b, &db->box_ctl, cur) : 0;
		for (uint64_t add = v & ~cur; rc == 0 && add; add &= add - 1) {
			cur |= add & -add;
			rc = wr(b, &db->box_ctl, cur);
		}
	} else {
		rc = wr(b, &db->box_ctl, v);
	}
	if (rc == 0)
		db->box_ctl_last = v;
	return rc;
}

/* A counter control write; twice on the boxes whose erratum asks for it
 * (SBo 2.4.2, R2PCIe 2.10.2, R3QPI 2.11.2: "must be written twice"). */
static int wr_ctl(struct direct_backend *b, const struct hswep_box_desc *d,
		  const struct uncore_reg *r, uint64_t v)
{
	int rc = wr(b, r, v);
	if (rc == 0 && (d->errata & HSWEP_ERRATUM_CTL_WRITE_TWICE))
		rc = wr(b, r, v);
	return rc;
}

static int global_ctl_reg(unsigned socket, struct uncore_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->space = UNCORE_SPACE_MSR;
	r->width = 8;
	r->socket = (uint16_t)socket;
	r->addr = HSWEP_U_MSR_PMON_GLOBAL_CTL;
	return 0;
}

/* Bind the registers of one planned box instance. */
static int bind_box(struct direct_backend *b, const struct uncore_boxprog *bp, struct direct_box *db)
{
	const struct uncore_machine *m = &b->base.machine;
	const struct uncore_box_type *bt = m->plat->boxes[bp->box];
	const struct hswep_box_desc *d = desc_for(bt);
	int rc;

	if (!d)
		return uncore_fail(UNCORE_ENOSUPP, "no register layout for %s boxes", bt->name);
	unsigned bus = hswep_box_bus(d, m->pci_bus[bp->socket], m->pci_root_bus[bp->socket]);
	memset(db, 0, sizeof(*db));
	db->d = d;
	db->socket = bp->socket;
	db->instance = bp->instance;
	if (d->box_ctl != HSWEP_NO_REG) {
		rc = hswep_reg(d, bp->instance, HSWEP_REG_BOX_CTL, 0, bp->socket, bus, &db->box_ctl);
		if (rc < 0)
			return rc;
		db->has_box_ctl = 1;
		db->box_ctl_must1 = d->box_ctl_rules.must1;
	}
	for (unsigned f = 0; f < bp->nfilters; f++) {
		const struct hswep_filter_route *route = hswep_filter_route(d->kind, f);
		if (!route)
			return uncore_fail(UNCORE_ENOSUPP, "filter %u of %s has no register route", f,
					   bt->name);
		for (unsigned k = 0; k < route->nroutes; k++) {
			if (db->nfilter_writes >= HSWEP_MAX_FILTERS)
				return uncore_fail(UNCORE_EINVAL, "too many filter registers for %s",
						   bt->name);
			rc = hswep_reg(d, bp->instance, HSWEP_REG_FILTER, route->to[k].reg, bp->socket,
				       bus, &db->filter_writes[db->nfilter_writes].reg);
			if (rc < 0)
				return rc;
			uint64_t v = bp->filter[f] >> route->to[k].shift;
			if (route->to[k].bits < 64)
				v &= (UINT64_C(1) << route->to[k].bits) - 1;
			db->filter_writes[db->nfilter_writes++].value = v;
		}
	}
	return 0;
}

/* Bind the control and data register of slot `s` into its box. */
static int bind_slot(struct direct_backend *b, const struct uncore_slot *s, struct direct_box *db,
		     struct direct_read *rd)
{
	const struct hswep_box_desc *d = db->d;
	const struct uncore_machine *m = &b->base.machine;
	unsigned bus = hswep_box_bus(d, m->pci_bus[s->socket], m->pci_root_bus[s->socket]);
	struct direct_counter *c = &db->counters[db->ncounters];
	int fixed = s->counter == UNCORE_SLOT_FIXED;
	int rc;

	rc = hswep_reg(d, s->instance, fixed ? HSWEP_REG_FIXED_CTL : HSWEP_REG_CTL,
		       fixed ? 0 : s->counter, s->socket, bus, &c->ctl);
	if (rc == 0)
		rc = hswep_reg(d, s->instance, fixed ? HSWEP_REG_FIXED_CTR : HSWEP_REG_CTR,
			       fixed ? 0 : s->counter, s->socket, bus, &c->ctr);
	if (rc < 0)
		return rc;
	c->ctl_value = s->ctl | HSWEP_PMON_CTL_EN; /* .en is bit 22 in every CTL and FIXED_CTL */
	db->ncounters++;
	memset(rd, 0, sizeof(*rd));
	rd->lo = c->ctr;
	rd->mask = s->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << s->width) - 1;
	if (c->ctr.space == UNCORE_SPACE_PCI) {
		rd->pci = 1;
		rd->hi = c->ctr;
		rd->hi.addr += 4;
	}
	return 0;
}

/* PCI registers are dwords: the low dword's mask here, the high dword of a
 * 48-bit counter is added by the caller. */
static int add_rules(struct uncore_allowlist *al, const struct uncore_reg *r,
		     const struct hswep_reg_rules *rules)
{
	uint64_t mask = rules ? rules->valid | rules->must1 : 0;
	if (r->space != UNCORE_SPACE_MSR)
		mask &= 0xffffffffu;
	return uncore_allowlist_add(al, r, mask);
}

/* A socket's global control, freeze bits only. */
static int claim_global(const void *ctx, unsigned socket, struct uncore_allowlist *al)
{
	(void)ctx;
	struct uncore_reg g;
	global_ctl_reg(socket, &g);
	return uncore_allowlist_add(al, &g,
				    HSWEP_U_GLOBAL_CTL_FRZ_ALL | HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
}

/* The allowlist of a claimed box (claim.h): every PMON register of it with
 * the bits its field tables make writable. */
static int claim_box(const void *ctx, const struct direct_claim_box *cb,
		     struct uncore_allowlist *al)
{
	const struct direct_backend *b = ctx;
	const struct uncore_machine *m = &b->base.machine;
	const struct hswep_box_desc *d =
	    cb->box < m->plat->nboxes ? desc_for(m->plat->boxes[cb->box]) : NULL;
	if (!d)
		return uncore_fail(UNCORE_ENOSUPP, "no register layout for box type %u", cb->box);
	unsigned bus = hswep_box_bus(d, m->pci_bus[cb->socket], m->pci_root_bus[cb->socket]);
	struct uncore_reg r;
	static const enum hswep_reg_kind kinds[] = {
	    HSWEP_REG_BOX_CTL,   HSWEP_REG_BOX_STATUS, HSWEP_REG_CTL,   HSWEP_REG_CTR,
	    HSWEP_REG_FIXED_CTL, HSWEP_REG_FIXED_CTR,  HSWEP_REG_FILTER};
	int rc = 0;
	for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && rc == 0; k++) {
		unsigned n = kinds[k] == HSWEP_REG_CTL || kinds[k] == HSWEP_REG_CTR
				 ? d->num_counters
			     : kinds[k] == HSWEP_REG_FILTER ? d->num_filters
							    : 1;
		for (unsigned idx = 0; idx < n && rc == 0; idx++) {
			if (hswep_reg(d, cb->instance, kinds[k], idx, cb->socket, bus, &r) < 0) {
				uncore_error_clear(); /* the box has no such register */
				continue;
			}
			rc = add_rules(al, &r, hswep_reg_rules(d, kinds[k], idx));
			if (rc == 0 && r.space == UNCORE_SPACE_PCI &&
			    (kinds[k] == HSWEP_REG_CTR || kinds[k] == HSWEP_REG_FIXED_CTR)) {
				r.addr += 4; /* high dword of a 48-bit PCI counter */
				const struct hswep_reg_rules *rules =
				    hswep_reg_rules(d, kinds[k], idx);
				rc = uncore_allowlist_add(al, &r, rules ? rules->valid >> 32 : 0);
			}
		}
	}
	return rc < 0 ? rc : 1;
}

static const struct direct_claim_ops claim_ops = {
    .add_box = claim_box,
    .add_global = claim_global,
};

static void release_binding(struct direct_backend *b)
{
	if (!b->claim.kept)
		direct_claim_drop(&b->claim);
	free(b->boxes);
	free(b->reads);
	direct_msr_batch_free(&b->msr_batch);
	b->boxes = NULL;
	b->reads = NULL;
	b->nboxes = 0;
	b->plan = NULL;
	b->sockets_used = 0;
	b->running = 0;
}

/* Freeze and reset controls and counters of every bound box; UBox: clear
 * its controls.  Used first at program time and again at unprogram. */
static int reset_boxes(struct direct_backend *b)
{
	int rc = 0;
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++) {
		struct direct_box *db = &b->boxes[i];
		if (db->has_box_ctl)
			rc = wr_box_ctl(b, db,
					db->box_ctl_must1 | HSWEP_PMON_BOX_CTL_FRZ |
					    HSWEP_PMON_BOX_CTL_RST_CTRL | HSWEP_PMON_BOX_CTL_RST_CTRS);
		else
			for (unsigned c = 0; c < db->ncounters && rc == 0; c++)
				rc = wr_ctl(b, db->d, &db->counters[c].ctl, 0);
	}
	return rc;
}

/* Take every socket of the plans before the first write to it, so that
 * two processes never program one socket's boxes (socket_lock.h says why
 * the socket is the unit), and the allowlists of their boxes; kept until
 * release (claim.h). */
static int direct_acquire(struct uncore_backend *base, const struct uncore_plan *const *plans,
			  unsigned n)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int rc = direct_claim_add(&b->claim, &b->cfg, &claim_ops, b, plans, n);
	if (rc == 0)
		b->claim.kept = 1;
	return rc;
}

static int direct_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int rc;

	if (b->plan)
		return uncore_fail(UNCORE_EBUSY, "another event set of this process is counting on the "
						 "uncore; stop it before starting this one");
	b->boxes = calloc(plan->nboxes ? plan->nboxes : 1, sizeof(*b->boxes));
	b->reads = calloc(plan->nslots ? plan->nslots : 1, sizeof(*b->reads));
	if (!b->boxes || !b->reads) {
		release_binding(b);
		return uncore_fail(UNCORE_ENOMEM, "out of memory binding %u boxes", plan->nboxes);
	}
	b->plan = plan;
	b->nboxes = plan->nboxes;
	for (unsigned i = 0; i < plan->nboxes; i++) {
		rc = bind_box(b, &plan->boxes[i], &b->boxes[i]);
		if (rc < 0)
			goto fail;
		b->sockets_used |= 1u << plan->boxes[i].socket;
	}
	rc = direct_msr_batch_init(&b->msr_batch, plan->nslots);
	if (rc < 0)
		goto fail;
	for (unsigned s = 0; s < plan->nslots; s++) {
		rc = bind_slot(b, &plan->slots[s], &b->boxes[plan->slots[s].boxprog], &b->reads[s]);
		if (rc == 0 && !b->reads[s].pci)
			rc = direct_msr_batch_add(&b->msr_batch, &b->reads[s].lo, s);
		if (rc < 0)
			goto fail;
	}
	rc = direct_claim_add(&b->claim, &b->cfg, &claim_ops, b, &plan, 1);
	if (rc < 0)
		goto fail;
	direct_msr_batch_finish(&b->msr_batch);

	rc = reset_boxes(b);
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++) {
		struct direct_box *db = &b->boxes[i];
		for (unsigned f = 0; f < db->nfilter_writes && rc == 0; f++)
			rc = wr(b, &db->filter_writes[f].reg, db->filter_writes[f].value);
		/* UBox counters are enabled at start (no box freeze to hold them). */
		for (unsigned c = 0; c < db->ncounters && rc == 0 && db->has_box_ctl; c++)
			rc = wr_ctl(b, db->d, &db->counters[c].ctl, db->counters[c].ctl_value);
	}
	if (rc < 0)
		goto fail_programmed;
	return 0;

fail_programmed: {
	struct uncore_saved_error err;
	uncore_error_save(&err, rc);
	reset_boxes(b); /* best effort: leave nothing half-programmed */
	rc = uncore_error_restore(&err);
}
fail:
	release_binding(b);
	return rc;
}

/* Write every used socket's global control, each one even when another's
 * write failed: one socket's fault must not leave the others frozen.  The
 * sockets written are set in *done (NULL: not wanted); 0 or the first
 * error, its detail naming the sockets that failed. */
static int set_global(struct direct_backend *b, uint64_t bits, uint32_t *done)
{
	int first = 0;
	char failed[64] = "";
	size_t len = 0;
	if (done)
		*done = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(b->sockets_used & (1u << s)))
			continue;
		struct uncore_reg g;
		global_ctl_reg(s, &g);
		int rc = uncore_regio_write(b->claim.guarded_global, &g, bits);
		if (rc == 0) {
			if (done)
				*done |= 1u << s;
			continue;
		}
		if (!first)
			first = rc;
		if (len < sizeof(failed))
			len += (size_t)snprintf(failed + len, sizeof(failed) - len, "%s%u", len ? ", " : "", s);
	}
	if (!first)
		return 0;
	char detail[400];
	snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	return uncore_fail(first, "%s of socket %s failed (%s)",
			   bits & HSWEP_U_GLOBAL_CTL_FRZ_ALL ? "the global freeze" : "the global unfreeze",
			   failed, detail);
}

static int direct_start(struct uncore_backend *base)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int rc = 0;

	if (!b->plan)
		return uncore_fail(UNCORE_ESTATE, "start before program");
	/* Clear a global freeze left by anyone (2.1.2 f, global level). */
	rc = set_global(b, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL, NULL);
	/* 2.1.2 d: reset the counters while frozen; UBox: zero the data registers. */
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++) {
		struct direct_box *db = &b->boxes[i];
		if (db->has_box_ctl) {
			rc = wr_box_ctl(b, db,
					db->box_ctl_must1 | HSWEP_PMON_BOX_CTL_FRZ |
					    HSWEP_PMON_BOX_CTL_RST_CTRS);
			continue;
		}
		for (unsigned c = 0; c < db->ncounters && rc == 0; c++)
			rc = wr(b, &db->counters[c].ctr, 0);
	}
	/* 2.1.2 f, box level: unfreeze; the UBox starts with its .en bits,
	 * just before the others (2.1.2 note on UBox synchronisation). */
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++) {
		struct direct_box *db = &b->boxes[i];
		if (!db->has_box_ctl)
			for (unsigned c = 0; c < db->ncounters && rc == 0; c++)
				rc = wr_ctl(b, db->d, &db->counters[c].ctl, db->counters[c].ctl_value);
	}
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++) {
		struct direct_box *db = &b->boxes[i];
		if (db->has_box_ctl)
			rc = wr_box_ctl(b, db, db->box_ctl_must1);
	}
	if (rc == 0)
		b->running = 1;
	return rc;
}

/* Freeze every box, each one even when another's freeze failed: the boxes
 * that stop keep their counts readable; 0 or the first error. */
static int direct_stop(struct uncore_backend *base)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int first = 0;

	if (!b->plan)
		return 0;
	for (unsigned i = 0; i < b->nboxes; i++) {
		struct direct_box *db = &b->boxes[i];
		int rc = 0;
		if (db->has_box_ctl)
			rc = wr_box_ctl(b, db, db->box_ctl_must1 | HSWEP_PMON_BOX_CTL_FRZ);
		else
			for (unsigned c = 0; c < db->ncounters && rc == 0; c++)
				rc = wr_ctl(b, db->d, &db->counters[c].ctl,
					    db->counters[c].ctl_value & ~HSWEP_PMON_CTL_EN);
		if (rc < 0 && !first)
			first = rc;
	}
	if (first == 0)
		b->running = 0;
	return first;
}

/* A 48-bit PCI counter read as two dwords.  Without a freeze the high half
 * may move between the reads: read high, low, high again, and retry the
 * low half when the high one changed (the simulator models the tear). */
static int read_pci_counter(struct direct_backend *b, const struct direct_read *rd, int frozen,
			    uint64_t *out)
{
	uint64_t lo, hi, hi2;
	int rc;

	if (frozen) {
		rc = uncore_regio_read(b->cfg.io, &rd->lo, &lo);
		if (rc == 0)
			rc = uncore_regio_read(b->cfg.io, &rd->hi, &hi);
		if (rc == 0)
			*out = ((hi << 32) | (lo & 0xffffffffu)) & rd->mask;
		return rc;
	}
	rc = uncore_regio_read(b->cfg.io, &rd->hi, &hi);
	for (int tries = 0; rc == 0 && tries < 4; tries++) {
		rc = uncore_regio_read(b->cfg.io, &rd->lo, &lo);
		if (rc == 0)
			rc = uncore_regio_read(b->cfg.io, &rd->hi, &hi2);
		if (rc == 0 && (hi2 & 0xffffffffu) == (hi & 0xffffffffu)) {
			*out = ((hi << 32) | (lo & 0xffffffffu)) & rd->mask;
			return 0;
		}
		hi = hi2;
	}
	return rc < 0 ? rc : uncore_fail(UNCORE_EIO, "PCI counter %02x:%02x.%x+0x%x kept changing "
						      "between its two halves",
					  UNCORE_BDF_BUS(rd->lo.bdf), UNCORE_BDF_DEV(rd->lo.bdf),
					  UNCORE_BDF_FN(rd->lo.bdf), (unsigned)rd->lo.addr);
}

/* Every slot that can be read is read (backend.h): a socket whose global
 * freeze failed is read unfrozen (its PCI halves with the tear check); an
 * unfreeze that failed leaves that socket stopped until a later one
 * succeeds, so the backend says counting was interrupted there. */
static int direct_read(struct uncore_backend *base, uint64_t *raw)
{
	struct direct_backend *b = (struct direct_backend *)base;
	const struct uncore_plan *p = b->plan;
	uint32_t frozen = 0;
	int first = 0, rc;

	if (!p)
		return uncore_fail(UNCORE_ESTATE, "read before program");
	/* 2.1.3 a: freeze before reading so all counters share one instant. */
	int freeze = b->cfg.read_freeze && b->running && !base->fold_only_read;
	if (freeze)
		first = set_global(b, HSWEP_U_GLOBAL_CTL_FRZ_ALL, &frozen);
	/* A socket's MSR counters in one read_many (msr-safe: one ioctl). */
	rc = direct_msr_batch_read(&b->msr_batch, b->cfg.io, raw);
	if (rc < 0 && !first)
		first = rc;
	for (unsigned s = 0; s < p->nslots; s++) {
		const struct direct_read *rd = &b->reads[s];
		if (!rd->pci) {
			if (raw[s] != UNCORE_RAW_UNREAD)
				raw[s] &= rd->mask;
			continue;
		}
		int stopped = !b->running || (frozen & (1u << p->slots[s].socket));
		rc = read_pci_counter(b, rd, stopped, &raw[s]);
		if (rc < 0) {
			raw[s] = UNCORE_RAW_UNREAD;
			if (!first)
				first = rc;
		}
	}
	if (freeze) {
		char detail[sizeof(base->interrupted_detail)];
		/* Keep the first error's detail: it names what failed first. */
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		rc = set_global(b, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL, NULL);
		if (rc < 0) {
			base->counting_interrupted = 1;
			snprintf(base->interrupted_detail, sizeof(base->interrupted_detail), "%s",
				 uncore_error_detail());
			if (!first)
				first = rc;
			else
				uncore_fail(first, "%s", detail);
		} else if (first) {
			uncore_fail(first, "%s", detail);
		}
	}
	return first;
}

static int direct_unprogram(struct uncore_backend *base)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int rc;

	if (!b->plan)
		return 0;
	rc = reset_boxes(b);
	for (unsigned i = 0; i < b->nboxes && rc == 0; i++)
		for (unsigned f = 0; f < b->boxes[i].nfilter_writes && rc == 0; f++)
			rc = wr(b, &b->boxes[i].filter_writes[f].reg, 0);
	release_binding(b);
	return rc;
}

static int direct_release(struct uncore_backend *base)
{
	struct direct_backend *b = (struct direct_backend *)base;
	int rc = direct_unprogram(base);
	direct_claim_drop(&b->claim);
	return rc;
}

static void direct_destroy(struct uncore_backend *base)
{
	struct direct_backend *b = (struct direct_backend *)base;
	if (!b)
		return;
	direct_release(base);
	if (b->cfg.own_io)
		uncore_regio_destroy(b->cfg.io);
	free(b->lock_dir);
	free(b);
}

/* The fastest each clock domain runs on any E5/E7 v3 part, rounded up: a
 * wrap bound must hold on the fastest machine, not on a typical one.
 * UCLK: the family's highest uncore ratio is 30 (3.0 GHz); DCLK: half the
 * DDR rate, DDR4-2133 at most on v3 parts (1.067 GHz), 1.2 GHz allowed;
 * PCLK: the PCU's fixed 1 GHz clock (2.8.6 CLOCKTICKS); QFCLK: 9.6 GT/s
 * links carry one flit per 8 transfers (1.2 GHz, 2.9.6 CLOCKTICKS). */
static const uint64_t clock_ceiling_hz[HSWEP_CLOCKS] = {
	[HSWEP_CLK_UCLK] = 3000000000u,
	[HSWEP_CLK_DCLK] = 1200000000u,
	[HSWEP_CLK_PCLK] = 1000000000u,
	[HSWEP_CLK_QFCLK] = 1200000000u,
	[HSWEP_CLK_TSC] = 4000000000u,
};

/* Half the shortest time in which a counter of the plan can wrap: its
 * width at its event's most increments per cycle (the manual's "Max.
 * Inc/Cyc", carried in the tables) at its box's fastest clock.  A reader
 * keeping to this folds every count exactly even when one read comes late
 * by as much again.  R3QPI RxR_OCCUPANCY_VN1 (32 per cycle, 44 bits): 91 s. */
static int direct_max_read_interval(const struct uncore_backend *base,
				    const struct uncore_plan *plan, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (unsigned k = 0; plan && k < plan->nslots; k++) {
		const struct uncore_slot *s = &plan->slots[k];
		const struct hswep_box_desc *d = desc_for(base->machine.plat->boxes[s->box]);
		if (!d)
			return uncore_fail(UNCORE_EINVAL, "slot %u: not a Haswell-EP box", k);
		uint64_t hz = clock_ceiling_hz[d->clock < HSWEP_CLOCKS ? d->clock : HSWEP_CLK_UCLK];
		uint64_t inc = s->max_inc ? s->max_inc : 1;
		unsigned __int128 span = s->width >= 64 ? (unsigned __int128)UINT64_MAX + 1
							 : (unsigned __int128)1 << s->width;
		unsigned __int128 wrap = span * 1000000000u / ((unsigned __int128)inc * hz);
		uint64_t half = wrap / 2 > UINT64_MAX ? UINT64_MAX : (uint64_t)(wrap / 2);
		if (half < best)
			best = half;
	}
	*ns = best;
	return 0;
}

static int direct_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct direct_backend *b = (struct direct_backend *)base;
	out->reads = b->cfg.io->stats.reads;
	out->writes = b->cfg.io->stats.writes;
	out->syscalls = b->cfg.io->stats.syscalls;
	return 0;
}

static const struct uncore_backend_ops direct_ops = {
    .name = "direct",
    .acquire = direct_acquire,
    .release = direct_release,
    .program = direct_program,
    .start = direct_start,
    .stop = direct_stop,
    .read = direct_read,
    .unprogram = direct_unprogram,
    .destroy = direct_destroy,
    .max_read_interval = direct_max_read_interval,
    .stats = direct_stats,
};

int uncore_direct_create_hswep(const struct uncore_direct_config *cfg,
			       const struct uncore_machine *machine, struct uncore_backend **out)
{
	struct direct_backend *b;

	if (!cfg || !cfg->io || !machine || !machine->plat)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access or machine");
	b = calloc(1, sizeof(*b));
	if (!b)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	b->cfg = *cfg;
	/* The caller's string need not outlive this call. */
	if (cfg->lock_dir && !(b->cfg.lock_dir = b->lock_dir = strdup(cfg->lock_dir))) {
		free(b);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	}
	b->base.ops = &direct_ops;
	b->base.machine = *machine;
	*out = &b->base;
	return 0;
}
